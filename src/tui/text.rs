//! Display text: sanitizing, ambiguous-width padding, width-exact wrapping and padding.

use crate::core::text::{sanitize, sanitize_lines};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Pad written after an East Asian Ambiguous character in double-width mode; the cell that
/// holds it is skipped when drawing, because the terminal already spent two cells.
pub const AMBIGUOUS_PAD: char = '\u{00A0}';

/// Is `c` drawn one cell wide by ratatui but two by a CJK terminal?
pub fn is_ambiguous(c: char) -> bool {
    c != AMBIGUOUS_PAD && c.width() == Some(1) && c.width_cjk() == Some(2)
}

/// Makes untrusted or fixed text ready to draw: control characters replaced, and in
/// double-width mode every ambiguous character followed by its pad cell. All text drawn by
/// the viewer passes through here.
pub fn clean(s: &str, double: bool) -> String {
    pad(sanitize(s).into_owned(), double)
}

/// `clean` for text whose line breaks are kept (comments).
pub fn clean_lines(s: &str, double: bool) -> String {
    pad(sanitize_lines(s), double)
}

fn pad(s: String, double: bool) -> String {
    if !double {
        return s;
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        out.push(c);
        if is_ambiguous(c) {
            out.push(AMBIGUOUS_PAD);
        }
    }
    out
}

/// Display width in cells.
pub fn width(s: &str) -> usize {
    s.width()
}

/// `s` cut to at most `w` cells.
pub fn truncate(s: &str, w: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let cw = c.width().unwrap_or(0);
        if used + cw > w {
            break;
        }
        used += cw;
        out.push(c);
    }
    if out.ends_with(is_ambiguous) && used == w {
        // Never separate an ambiguous character from its pad.
        out.pop();
    }
    out
}

/// `s` cut or padded with spaces to exactly `w` cells.
pub fn fit(s: &str, w: usize) -> String {
    let mut t = truncate(s, w);
    let used = width(&t);
    t.extend(std::iter::repeat_n(' ', w.saturating_sub(used)));
    t
}

/// Wraps text to `w` cells per line by display width. Newlines break lines; CJK text breaks
/// anywhere, runs of ASCII letters and digits break at spaces when they can.
pub fn wrap(s: &str, w: usize) -> Vec<String> {
    let w = w.max(2);
    let mut out = Vec::new();
    for para in s.split('\n') {
        let mut line = String::new();
        let mut used = 0;
        for c in para.chars() {
            let cw = c.width().unwrap_or(0);
            if used + cw > w && !line.is_empty() {
                // Break at the last space when the line ends inside a Latin word.
                let latin = |c: char| c.is_ascii_alphanumeric();
                let mut carry = String::new();
                if let Some(sp) = line
                    .rfind(' ')
                    .filter(|_| latin(c) && line.ends_with(latin))
                {
                    carry = line[sp + 1..].to_string();
                    line.truncate(sp);
                }
                // Keep an ambiguous character with its pad.
                if let Some(prev) = (c == AMBIGUOUS_PAD).then(|| line.pop()).flatten() {
                    carry.insert(0, prev);
                }
                let kept = line.trim_end_matches(' ').len();
                line.truncate(kept);
                out.push(std::mem::take(&mut line));
                line = carry;
                used = width(&line);
            }
            line.push(c);
            used += cw;
        }
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_by_display_width() {
        assert_eq!(wrap("あいうえお", 4), vec!["あい", "うえ", "お"]);
        assert_eq!(wrap("あいう", 5), vec!["あい", "う"]);
        assert_eq!(wrap("the quick brown", 10), vec!["the quick", "brown"]);
        assert_eq!(wrap("a\n\nb", 10), vec!["a", "", "b"]);
        for l in wrap("▲７六歩 is a classic opening move 角道を開ける", 9) {
            assert!(width(&l) <= 9, "{l}");
        }
    }

    #[test]
    fn double_mode_pads_ambiguous_characters() {
        assert_eq!(clean("▲７六歩", false), "▲７六歩");
        assert_eq!(clean("▲７六歩", true), "▲\u{a0}７六歩");
        assert_eq!(width(&clean("△", true)), 2);
        // U+FFFD is ambiguous too.
        assert_eq!(clean("a\x1b[31m", true), "a\u{fffd}\u{a0}[31m");
        // The pad never starts a line.
        for l in wrap(&clean("ab▲cd", true), 3) {
            assert!(!l.starts_with(AMBIGUOUS_PAD), "{l:?}");
        }
    }

    #[test]
    fn fit_and_truncate_count_cells() {
        assert_eq!(fit("７六歩", 7), "７六歩 ");
        assert_eq!(fit("７六歩", 5), "７六 ");
        assert_eq!(truncate("abc", 2), "ab");
    }
}
