//! Text from files is untrusted: this is the one place that makes it safe to display.

use std::borrow::Cow;

/// Replaces control characters (C0, DEL, C1), and bidi controls that could reorder the
/// screen, with `�`; tabs become a space. Everything shown from a file passes through here.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    let bad =
        |c: char| c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
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
}
