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
    push_truncated(&mut out, s, w);
    out
}

/// `s` cut to at most `w` cells, written at the end of `out`.
fn push_truncated(out: &mut String, s: &str, w: usize) {
    let start = out.len();
    let mut used = 0;
    for c in s.chars() {
        let cw = c.width().unwrap_or(0);
        if used + cw > w {
            break;
        }
        used += cw;
        out.push(c);
    }
    if out[start..].ends_with(is_ambiguous) && used == w {
        // Never separate an ambiguous character from its pad.
        out.pop();
    }
}

/// `s` cut to at most `w` cells, ending with `…` when something was cut (`double`: the
/// ellipsis, an ambiguous character, takes two cells; `s` is already clean).
pub fn ellipsize(s: &str, w: usize, double: bool) -> String {
    if width(s) <= w {
        return s.to_string();
    }
    let dots = clean("…", double);
    let mut out = truncate(s, w.saturating_sub(width(&dots)));
    if width(&out) + width(&dots) <= w {
        out.push_str(&dots);
    }
    out
}

/// `s` cut or padded with spaces to exactly `w` cells.
pub fn fit(s: &str, w: usize) -> String {
    let mut t = String::new();
    push_fit(&mut t, s, w);
    t
}

/// `out.push_str(&fit(s, w))` without the strings between (a line of cells made in one
/// string).
pub fn push_fit(out: &mut String, s: &str, w: usize) {
    let start = out.len();
    push_truncated(out, s, w);
    let used = width(&out[start..]);
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(used)));
}

/// Wraps text to `w` cells per line by display width. Newlines break lines; elsewhere a line
/// breaks where Unicode's line breaking (UAX #14, the `unicode-linebreak` crate) allows it:
/// between words at spaces, between ideographs and kana, never before `、。」）` and the like
/// (行頭禁則) nor after `「（`; a run wider than a line is cut by cells.
pub fn wrap(s: &str, w: usize) -> Vec<String> {
    wrap_hanging(s, w, 0)
}

/// [`wrap`] with each line after the first of a paragraph indented by `hang` spaces (a help
/// entry continues under its description, a message under its first word).
pub fn wrap_hanging(s: &str, w: usize, hang: usize) -> Vec<String> {
    let w = w.max(2);
    let hang = if hang + 2 > w { 0 } else { hang };
    let mut out = Vec::new();
    for para in s.split('\n') {
        let chars: Vec<char> = para.chars().collect();
        let starts = row_starts(para, w, w - hang, |c| c.width().unwrap_or(0));
        for (i, &a) in starts.iter().enumerate() {
            let b = starts.get(i + 1).copied().unwrap_or(chars.len());
            let row: String = chars[a..b].iter().collect();
            let row = row.trim_end_matches(' ');
            out.push(if i == 0 {
                row.to_string()
            } else {
                format!("{}{row}", " ".repeat(hang))
            });
        }
    }
    out
}

/// May a line not start with `c` (closing brackets and punctuation, iteration marks, the
/// pad of an ambiguous character)?
fn never_starts(c: char) -> bool {
    use unicode_linebreak::BreakClass as B;
    c == AMBIGUOUS_PAD
        || matches!(
            unicode_linebreak::break_property(c as u32),
            B::ClosePunctuation
                | B::CloseParenthesis
                | B::Exclamation
                | B::InfixSeparator
                | B::NonStarter
        )
}

/// Where each row of `para` (one paragraph) starts, in characters, when the first row holds
/// `first` cells and the others `rest`, each character `cell(c)` wide: at break
/// opportunities (see [`wrap`]); a piece between two of them that is wider than a row is cut
/// by cells (from where the row has got to), never before a character that may not start a
/// line. Spaces at the end of a row
/// do not count. Row 0 starts at 0.
pub fn row_starts(
    para: &str,
    first: usize,
    rest: usize,
    cell: impl Fn(char) -> usize,
) -> Vec<usize> {
    let chars: Vec<char> = para.chars().collect();
    // Break opportunities as character indices.
    let mut at_byte = para.char_indices().map(|(i, _)| i).enumerate();
    let mut breaks: Vec<usize> = unicode_linebreak::linebreaks(para)
        .filter_map(|(b, _)| at_byte.find(|&(_, i)| i == b).map(|(k, _)| k))
        .collect();
    // Small kana and `ー` may start a line (JIS X 4051's and CSS's normal rule; UAX #14
    // alone keeps them with the character before, as its strict rule does).
    let class = |c: char| unicode_linebreak::break_property(c as u32);
    breaks.extend((1..chars.len()).filter(|&k| {
        class(chars[k]) == unicode_linebreak::BreakClass::ConditionalJapaneseStarter
            && !never_starts(chars[k - 1])
            && class(chars[k - 1]) == unicode_linebreak::BreakClass::Ideographic
    }));
    // A move stays whole: no break after its side's mark (`▲７六歩`, `△同　銀`).
    breaks.retain(|&k| !matches!(chars.get(k.wrapping_sub(1)), Some('▲' | '△' | '☗' | '☖')));
    breaks.sort_unstable();
    breaks.dedup();
    let mut starts = vec![0];
    let (mut used, mut limit, mut from) = (0, first, 0);
    for to in breaks.into_iter().chain(std::iter::once(chars.len())) {
        if to <= from {
            continue;
        }
        let seg = &chars[from..to];
        let spaces = seg.iter().rev().take_while(|&&c| c == ' ').count();
        let body: usize = seg[..seg.len() - spaces].iter().map(|&c| cell(c)).sum();
        let full = body + spaces * cell(' ');
        // A piece that fits no row is cut where it stands, filling the row first.
        if used > 0 && used + body > limit && body <= rest {
            starts.push(from);
            (used, limit) = (0, rest);
        }
        if used + body <= limit {
            used += full;
        } else {
            // Wider than a row: cut by cells.
            let mut row0 = *starts.last().unwrap_or(&0);
            for k in from..to {
                let cw = cell(chars[k]);
                if used + cw > limit && used > 0 {
                    let mut b = k;
                    while b > row0 + 1 && never_starts(chars[b]) {
                        b -= 1;
                    }
                    starts.push(b);
                    row0 = b;
                    limit = rest;
                    used = chars[b..k].iter().map(|&c| cell(c)).sum();
                }
                used += cw;
            }
        }
        from = to;
    }
    starts
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
    fn no_line_starts_with_closing_punctuation() {
        // 行頭禁則: 、。」） stay on the line before.
        let text =
            "先手は「急戦」を選んだ。後手は（四間飛車）、銀が前に出るとコーナーが弱い。ぁぃぅ";
        // (From 6 cells: `車）、` is one unbreakable piece.)
        for w in 6..30 {
            let rows = wrap(text, w);
            assert_eq!(rows.concat(), text, "{w}");
            for r in &rows {
                assert!(width(r) <= w, "{w}: {r}");
            }
            for r in &rows[1..] {
                let c = r.chars().next().unwrap();
                assert!(
                    !"、。」）".contains(c),
                    "{w}: a row starts with {c}: {rows:?}"
                );
            }
            for r in &rows[..rows.len() - 1] {
                assert!(!r.ends_with(['「', '（']), "{w}: {rows:?}");
            }
        }
        // Before: `あいう` then `。` alone.
        assert_eq!(wrap("あいう。", 6), vec!["あい", "う。"]);
    }

    #[test]
    fn words_stay_whole_and_continuations_hang() {
        assert_eq!(
            wrap("type the name, then Enter)", 20),
            vec!["type the name, then", "Enter)"]
        );
        assert_eq!(
            wrap("see [[engines]] here", 12),
            vec!["see", "[[engines]]", "here"]
        );
        // Cut by cells when a word is wider than the line, still not before `]`.
        assert_eq!(wrap("[[engines]] ok", 10), vec!["[[engine", "s]] ok"]);
        assert_eq!(
            wrap_hanging("  Ctrl-s    save the record to its file", 24, 12),
            vec![
                "  Ctrl-s    save the",
                "            record to",
                "            its file"
            ]
        );
        // A move is not split after its mark.
        assert_eq!(
            wrap("KI2 (▲７六歩, △同　銀右)", 15),
            vec!["KI2 (▲７六歩,", "△同　銀右)"]
        );
        // Too little room to hang: no indent.
        assert_eq!(wrap_hanging("abc def", 4, 3), vec!["abc", "def"]);
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
        assert_eq!(ellipsize("鈴木花子", 8, false), "鈴木花子");
        assert_eq!(ellipsize("鈴木花子", 7, false), "鈴木花…");
        assert_eq!(ellipsize("鈴木花子", 7, true), "鈴木…\u{a0}");
    }
}
