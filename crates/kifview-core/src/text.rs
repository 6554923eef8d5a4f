//! Text from files, engines and configs is untrusted: this is the one place that makes it
//! safe for a terminal (the viewer's widgets, the CLIs' stderr and stdout, engine output),
//! in `core` so that every layer uses the same rule.

use std::borrow::Cow;

/// Is `c` unsafe to send to a terminal as it is: a control character (C0, DEL, C1, which
/// start escape sequences), a bidirectional control that could reorder the screen (U+061C,
/// U+200E/F, U+202A–E, U+2066–9), a line or paragraph separator (U+2028/9: terminals give
/// them no width, so the rest of the row shifts), or an invisible character a terminal
/// draws in no agreed way (U+200B/C, U+2060–4, U+FEFF)?
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'
                | '\u{200C}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

/// Replaces what [`is_unsafe`] names with `�`; tabs become a space. Everything shown from a
/// file passes through here.
///
/// Characters that glue emoji into one picture (the zero-width joiner, variation selectors,
/// skin-tone modifiers) are dropped: terminals disagree on how wide such a sequence is
/// (👨‍👩‍👧‍👦 is measured as 2 cells and drawn as 8 by tmux), which shifts every border after it.
/// Without them each emoji is two cells everywhere.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    let bad = is_unsafe;
    let glue = |c: char| {
        matches!(
            c,
            '\u{200D}' | '\u{FE0E}' | '\u{FE0F}' | '\u{1F3FB}'..='\u{1F3FF}'
        )
    };
    // Printable ASCII (most messages: `kifview convert` prints one per loss) holds neither,
    // and is checked many bytes at a time.
    if s.bytes().all(|b| (b' '..=b'~').contains(&b)) || !s.chars().any(|c| bad(c) || glue(c)) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .filter(|&c| !glue(c))
            .map(|c| match c {
                '\t' => ' ',
                c if bad(c) => '\u{FFFD}',
                c => c,
            })
            .collect(),
    )
}

/// Like `sanitize`, but keeps line breaks: `\n`, `\r\n`, NEL, LINE and PARAGRAPH SEPARATOR
/// all become `\n` (for comments).
pub fn sanitize_lines(s: &str) -> String {
    let s = s.replace("\r\n", "\n");
    s.split(['\n', '\u{85}', '\u{2028}', '\u{2029}'])
        .map(|l| sanitize(l).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_never_pass() {
        let s = sanitize("a\x1b[2Jb\x07c\u{9b}31md\te\u{202E}f\r");
        assert!(!s.chars().any(|c| c.is_control()), "{s:?}");
        assert_eq!(s, "a\u{FFFD}[2Jb\u{FFFD}c\u{FFFD}31md e\u{FFFD}f\u{FFFD}");
        assert!(matches!(sanitize("▲７六歩"), Cow::Borrowed(_)));
        assert_eq!(sanitize("a\nb"), "a\u{FFFD}b");
        assert_eq!(sanitize_lines("a\r\nb\u{85}c\x1bd"), "a\nb\nc\u{FFFD}d");
    }

    #[test]
    fn separators_and_invisible_marks_do_not_reach_the_terminal() {
        for c in [
            '\u{2028}', '\u{2029}', '\u{061C}', '\u{200B}', '\u{FEFF}', '\u{202E}',
        ] {
            let s = format!("a{c}b");
            assert_eq!(sanitize(&s), "a\u{FFFD}b", "U+{:04X}", c as u32);
        }
        // In a comment, U+2028 and U+2029 are line breaks.
        assert_eq!(sanitize_lines("a\u{2028}b\u{2029}c"), "a\nb\nc");
    }

    #[test]
    fn emoji_sequences_are_taken_apart_so_every_terminal_draws_the_same_width() {
        let family = "藤井👨\u{200D}👩\u{200D}👧\u{200D}👦聡太";
        let shown = sanitize(family);
        assert_eq!(shown, "藤井👨👩👧👦聡太");
        // Four emoji of two cells: what a terminal without ZWJ shaping draws, and what is
        // measured now.
        assert_eq!(
            unicode_width::UnicodeWidthStr::width(&*shown),
            4 * 2 + 4 * 2
        );
        assert_eq!(sanitize("👍\u{1F3FD}❤\u{FE0F}"), "👍❤");
    }
}
