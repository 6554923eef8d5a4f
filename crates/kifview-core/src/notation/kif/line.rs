//! The grammar of KIF lines: move lines (`   1 ７六歩(77)   ( 0:16/00:00:16)+`, read byte by
//! byte in their usual shape and by a general reader otherwise), times, and the kind of every
//! other line. The writer asks [`classify`] too, so that it never writes a line its reader would
//! read differently.

use super::super::bod::{self, BodLine};
use super::super::{DiagKind, japanese};
use crate::record::MoveTime;
use crate::rules::{PieceKind, Square};

/// A move as written on a move line, before it is matched with the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RawMove {
    /// `None` for `同`.
    pub(super) to: Option<Square>,
    /// The piece named on the line (before promotion).
    pub(super) piece: PieceKind,
    pub(super) promote: bool,
    /// `None` for a drop.
    pub(super) from: Option<Square>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Body<'a> {
    Move(RawMove),
    Special(&'a str),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MoveLine<'a> {
    pub(super) number: u32,
    pub(super) body: Body<'a>,
    pub(super) time: Option<MoveTime>,
    /// Something after the move that could not be read (the move itself is fine).
    pub(super) trailing: Option<(DiagKind, String)>,
}

/// Any white space (ASCII, U+3000, a stray CR in the middle of a line).
pub(super) fn is_ws(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
    } else {
        c == '\u{3000}' || c.is_whitespace()
    }
}

/// `s` without its leading white space (ASCII spaces and U+3000 are checked byte-wise).
pub(super) fn skip_spaces(s: &str) -> &str {
    let b = s.as_bytes();
    // ASCII spaces first: a move line starts with them, and this loop is the cheapest.
    let mut i = b.iter().take_while(|&&c| c == b' ').count();
    loop {
        match b.get(i) {
            Some(b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c') => i += 1,
            Some(0xE3) if b.get(i + 1) == Some(&0x80) && b.get(i + 2) == Some(&0x80) => i += 3,
            Some(&c) if c >= 0x80 => {
                // Another non-ASCII character: white space only in rare cases.
                let rest = &s[i..];
                let t = rest.trim_start_matches(is_ws);
                if t.len() == rest.len() {
                    return rest;
                }
                return skip_spaces(t);
            }
            _ => return &s[i..],
        }
    }
}

/// `b` without its leading ASCII spaces.
fn skip_ascii_spaces(mut b: &[u8]) -> &[u8] {
    while let [b' ', rest @ ..] = b {
        b = rest;
    }
    b
}

/// If `t` (already trimmed at the start) is a move line, its number and the rest.
pub(super) fn move_number(t: &str) -> Option<(u32, &str)> {
    let b = t.as_bytes();
    let mut n: u32 = 0;
    let mut digits = 0;
    while digits < b.len() && b[digits].is_ascii_digit() {
        if digits == 9 {
            return None;
        }
        n = n * 10 + u32::from(b[digits] - b'0');
        digits += 1;
    }
    if digits == 0 {
        return None;
    }
    let rest = &t[digits..];
    match rest.as_bytes().first() {
        None | Some(b' ') => Some((n, rest)),
        _ => rest.starts_with(is_ws).then_some((n, rest)),
    }
}

/// Reads `[spaces]digits[spaces]` (at most 12 digits) at the start of `b`; returns the number
/// and the bytes after it.
fn time_number(b: &[u8]) -> Option<(u64, &[u8])> {
    let b = skip_ascii_spaces(b);
    let mut n = 0u64;
    let mut digits = 0;
    while digits < 12
        && let Some(&c @ b'0'..=b'9') = b.get(digits)
    {
        n = n * 10 + u64::from(c - b'0');
        digits += 1;
    }
    if digits == 0 {
        return None;
    }
    Some((n, skip_ascii_spaces(&b[digits..])))
}

/// Reads `( 0:16/00:00:16)` (the parentheses included; also `(00:31 / 00:00:31)`, `( 0:16/)`,
/// `( 0:16)`). Returns the time and the bytes used.
pub(super) fn parse_time(s: &str) -> Result<(MoveTime, usize), String> {
    if let Some((time, rest)) = time_fields(s.as_bytes()) {
        return Ok((time, s.len() - rest.len()));
    }
    let end = s.find(')').map(|i| i + 1).unwrap_or(s.len());
    Err(format!(
        "cannot read time '{}' (expected '( m:ss/hh:mm:ss)')",
        &s[..end]
    ))
}

/// [`parse_time`] on bytes, without the message; returns the bytes after the `)`.
pub(super) fn time_fields(b: &[u8]) -> Option<(MoveTime, &[u8])> {
    kifu_for_windows_time(b).or_else(|| general_time_fields(b))
}

/// A digit's value; 0xFF for anything else ([`kifu_for_windows_time`]).
static ONES: [u8; 256] = {
    let mut t = [0xFF; 256];
    let mut d = 0;
    while d < 10 {
        t[b'0' as usize + d] = d as u8;
        d += 1;
    }
    t
};
/// [`ONES`], with a space (a leading one) as 0.
static TENS: [u8; 256] = {
    let mut t = ONES;
    t[b' ' as usize] = 0;
    t
};

/// The time exactly as Kifu for Windows writes it, `( 0:16/00:00:16)`: two characters per
/// field, each a digit or a leading space. One pattern match instead of the field-by-field
/// reading of [`general_time_fields`], which gives the same result for these.
pub(super) fn kifu_for_windows_time(b: &[u8]) -> Option<(MoveTime, &[u8])> {
    let [
        b'(',
        m1,
        m2,
        b':',
        s1,
        s2,
        b'/',
        h1,
        h2,
        b':',
        n1,
        n2,
        b':',
        t1,
        t2,
        b')',
        ref rest @ ..,
    ] = *b
    else {
        return None;
    };
    // Table look-ups, then one check for all ten (no branch per field): a digit is its
    // value, a leading space 0, anything else has high bits set.
    let v = [
        TENS[m1 as usize],
        ONES[m2 as usize],
        TENS[s1 as usize],
        ONES[s2 as usize],
        TENS[h1 as usize],
        ONES[h2 as usize],
        TENS[n1 as usize],
        ONES[n2 as usize],
        TENS[t1 as usize],
        ONES[t2 as usize],
    ];
    if v.iter().fold(0, |m, &x| m | x) & 0xF0 != 0 {
        return None;
    }
    let field = |i: usize| u64::from(v[i]) * 10 + u64::from(v[i + 1]);
    let spent = field(0) * 60 + field(2);
    let total = (field(4) * 60 + field(6)) * 60 + field(8);
    Some((
        MoveTime {
            spent_ms: spent * 1000,
            total_ms: Some(total * 1000),
        },
        rest,
    ))
}

/// Reads a time field by field: spaces around the numbers, any number of digits, a missing or
/// two-part total.
pub(super) fn general_time_fields(b: &[u8]) -> Option<(MoveTime, &[u8])> {
    let (m, r) = time_number(b.get(1..)?)?;
    let (sec, mut r) = time_number(r.strip_prefix(b":")?)?;
    let spent_ms = (m * 60 + sec) * 1000;
    let mut total_ms = None;
    if let Some(t) = r.strip_prefix(b"/") {
        r = skip_ascii_spaces(t);
        if r.first() != Some(&b')') {
            let mut acc = 0u64;
            let mut parts = 0;
            loop {
                let (n, t) = time_number(r)?;
                acc = acc * 60 + n;
                parts += 1;
                r = t;
                match r.strip_prefix(b":") {
                    Some(t) if parts < 3 => r = t,
                    _ => break,
                }
            }
            if parts < 2 {
                return None;
            }
            total_ms = Some(acc * 1000);
        }
    }
    let r = r.strip_prefix(b")")?;
    Some((MoveTime { spent_ms, total_ms }, r))
}

/// A piece name at the start of `s` (the names of `japanese::piece_prefix`, matched by first
/// character instead of trying each name in turn).
fn piece_prefix(s: &str) -> Option<(PieceKind, usize)> {
    let mut it = s.chars();
    let c = it.next()?;
    if c == '成' {
        let k = match it.next()? {
            '銀' => PieceKind::ProSilver,
            '桂' => PieceKind::ProKnight,
            '香' => PieceKind::ProLance,
            _ => return None,
        };
        return Some((k, 6));
    }
    Some((japanese::piece_char(c)?, c.len_utf8()))
}

/// Does this text (the body of a move line) look like an attempt at a move rather than an
/// ending word?
fn looks_like_move(w: &str) -> bool {
    let Some(c) = w.chars().next() else {
        return false;
    };
    japanese::digit(c).is_some()
        || matches!(
            c,
            '０' | '0' | '〇' | '同' | '▲' | '△' | '▼' | '▽' | '☗' | '☖'
        )
        || w.contains('(')
        || w.contains('打')
        || piece_prefix(w).is_some()
}

/// Parses the part of a move line after its number.
pub(super) fn parse_move_body(rest: &str) -> Result<(Body<'_>, &str), String> {
    let mut s = skip_spaces(rest);
    // The side marks all start with the byte 0xE2; most moves start with a square.
    if s.as_bytes().first() == Some(&0xE2) {
        for m in ['▲', '△', '▼', '▽', '☗', '☖'] {
            if let Some(r) = s.strip_prefix(m) {
                s = r;
                break;
            }
        }
    }
    // `61手詰` (how tsume records end: "mate in 61") is an ending word, not a square.
    let counted_word = s
        .trim_start_matches(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c))
        .starts_with('手')
        && s.starts_with(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    let to = if let Some(r) = s.strip_prefix('同') {
        s = skip_spaces(r);
        None
    } else if counted_word {
        let end = s.find(|c: char| is_ws(c) || c == '(').unwrap_or(s.len());
        return Ok((Body::Special(&s[..end]), &s[end..]));
    } else if let Some((sq, n)) = japanese::square_prefix(s) {
        s = &s[n..];
        Some(sq)
    } else {
        let end = s.find(|c: char| is_ws(c) || c == '(').unwrap_or(s.len());
        let word = &s[..end];
        if word.is_empty()
            || !word
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            return Err(format!(
                "cannot read '{word}' (expected a move like ７六歩(77) or an ending word like 投了)"
            ));
        }
        if looks_like_move(word) {
            return Err(format!(
                "cannot read move '{word}' (expected a square like ７六, then a piece, then (77) or 打)"
            ));
        }
        return Ok((Body::Special(word), &s[end..]));
    };
    let Some((piece, n)) = piece_prefix(s) else {
        return Err(format!(
            "expected a piece name after the square, found '{}'",
            s.chars().take(4).collect::<String>()
        ));
    };
    s = s[n..].trim_start_matches('\u{3000}');
    let mut promote = false;
    if let Some(r) = s.strip_prefix("不成").or_else(|| s.strip_prefix("生")) {
        s = r;
    } else if let Some(r) = s.strip_prefix('成') {
        promote = true;
        s = r;
    }
    s = s.trim_start_matches('\u{3000}');
    let from = if let Some(r) = s.strip_prefix('打') {
        s = r.strip_prefix("(00)").unwrap_or(r);
        None
    } else if let Some(r) = s.strip_prefix('(') {
        let mut it = r.char_indices();
        let a = it.next().map(|(_, c)| c);
        let b = it.next().map(|(_, c)| c);
        let close = it.next();
        match (a, b, close) {
            (Some('0'), Some('0'), Some((i, ')'))) => {
                s = &r[i + 1..];
                None
            }
            (Some(a), Some(b), Some((i, ')'))) => {
                let sq = japanese::digit(a)
                    .zip(japanese::digit(b))
                    .and_then(|(f, r)| Square::new(f, r))
                    .ok_or_else(|| format!("bad source square ({a}{b})"))?;
                s = &r[i + 1..];
                Some(sq)
            }
            _ => return Err("expected a source square like (77) after the piece".into()),
        }
    } else {
        return Err("expected (77) (the source square) or 打 after the piece".into());
    };
    Ok((
        Body::Move(RawMove {
            to,
            piece,
            promote,
            from,
        }),
        s,
    ))
}

/// Parses a whole move line (already known to start with a number): the usual shape straight
/// from its bytes, anything else with the general reader.
pub(super) fn parse_move_line(number: u32, rest: &str) -> Result<MoveLine<'_>, String> {
    match fast_move_line(number, rest) {
        Some(line) => Ok(line),
        None => general_move_line(number, rest),
    }
}

/// The character at the start of `b` if it is a three-byte UTF-8 sequence (kanji, kana and
/// full-width digits all are), decoded without the general UTF-8 decoder; and the bytes after it.
fn char3(b: &[u8]) -> Option<(char, &[u8])> {
    match *b {
        [x @ 0xE0..=0xEF, y, z, ref rest @ ..] if y & 0xC0 == 0x80 && z & 0xC0 == 0x80 => {
            let c = (u32::from(x & 0x0F) << 12) | (u32::from(y & 0x3F) << 6) | u32::from(z & 0x3F);
            Some((char::from_u32(c)?, rest))
        }
        _ => None,
    }
}

/// Reads the shape nearly every move line has, byte by byte: ASCII spaces, `７六` (a full-width
/// file, a full-width or kanji rank) or `同` (with ASCII or U+3000 spaces), a one-character
/// piece, `成` or `不成`, `(77)` or `打` / `打(00)`, then optionally `( 0:16/00:00:16)` and a `+`,
/// separated by ASCII spaces. `None` for anything else (side marks, ASCII or kanji files, `成銀`,
/// spaces inside the move, ending words, tabs, errors ...), which [`general_move_line`] reads;
/// whatever this accepts, that reads the same way (the tests run both), so this only saves time.
pub(super) fn fast_move_line(number: u32, rest: &str) -> Option<MoveLine<'_>> {
    const SAME: &[u8] = "同".as_bytes();
    const IDEOGRAPHIC_SPACE: &[u8] = "\u{3000}".as_bytes();
    const PROMOTE: &[u8] = "成".as_bytes();
    const NOT_PROMOTE: &[u8] = "不成".as_bytes();
    const DROP: &[u8] = "打".as_bytes();
    let mut b = skip_ascii_spaces(rest.as_bytes());
    let to = if let Some(r) = b.strip_prefix(SAME) {
        b = r;
        while let Some(r) = b
            .strip_prefix(b" ")
            .or_else(|| b.strip_prefix(IDEOGRAPHIC_SPACE))
        {
            b = r;
        }
        None
    } else if let [0xEF, 0xBC, file @ 0x91..=0x99, ref r @ ..] = *b {
        // `１`..`９` are U+FF11..U+FF19.
        let (rank, r) = char3(r)?;
        b = r;
        Some(Square::new(file - 0x90, japanese::digit(rank)?)?)
    } else {
        return None;
    };
    let (piece, r) = char3(b)?;
    let piece = japanese::piece_char(piece)?;
    b = r;
    let promote = if let Some(r) = b.strip_prefix(PROMOTE) {
        b = r;
        true
    } else {
        if let Some(r) = b.strip_prefix(NOT_PROMOTE) {
            b = r;
        }
        false
    };
    let from = if let Some(r) = b.strip_prefix(DROP) {
        b = r.strip_prefix(b"(00)").unwrap_or(r);
        None
    } else if let [
        b'(',
        file @ b'1'..=b'9',
        rank @ b'1'..=b'9',
        b')',
        ref r @ ..,
    ] = *b
    {
        b = r;
        Some(Square::new(file - b'0', rank - b'0')?)
    } else {
        return None;
    };
    b = skip_ascii_spaces(b);
    let mut time = None;
    if b.first() == Some(&b'(') {
        let (t, r) = time_fields(b)?;
        time = Some(t);
        b = skip_ascii_spaces(r);
    }
    if let Some(r) = b.strip_prefix(b"+") {
        b = skip_ascii_spaces(r);
    }
    b.is_empty().then_some(MoveLine {
        number,
        body: Body::Move(RawMove {
            to,
            piece,
            promote,
            from,
        }),
        time,
        trailing: None,
    })
}

/// Parses a whole move line after its number, in every form the reader accepts.
pub(super) fn general_move_line(number: u32, rest: &str) -> Result<MoveLine<'_>, String> {
    let rest = rest.trim_end_matches(is_ws);
    let rest = rest.strip_suffix('+').unwrap_or(rest);
    let (body, mut tail) = parse_move_body(rest)?;
    tail = skip_spaces(tail);
    let mut time = None;
    let mut trailing = None;
    if tail.starts_with('(') {
        match parse_time(tail) {
            Ok((t, n)) => {
                time = Some(t);
                tail = skip_spaces(&tail[n..]);
            }
            Err(e) => {
                trailing = Some((DiagKind::BadTime, e));
                tail = "";
            }
        }
    }
    if !tail.is_empty() && trailing.is_none() {
        trailing = Some((
            DiagKind::UnknownLine,
            format!(
                "unexpected text '{tail}' after the move (expected a time like '( 0:16/00:00:16)')"
            ),
        ));
    }
    Ok(MoveLine {
        number,
        body,
        time,
        trailing,
    })
}

/// What a line of a KIF file is (the line without its line break).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum KifLine<'a> {
    /// Empty or white space only.
    Blank,
    /// `#...`: a program comment line, kept as it is.
    Program,
    /// `*...`: a comment line (the text after `*`).
    Comment(&'a str),
    /// `&...`: a bookmark (the text after `&`).
    Bookmark(&'a str),
    /// A numbered move line: the number and the text after it.
    Move(u32, &'a str),
    /// `変化：N手`: the text after the colon, or `None` without a colon.
    Variation(Option<&'a str>),
    /// `まで…`: the closing line (the record's ending already says it).
    Result,
    /// `手数----指手---------消費時間--`: the moves start.
    MovesHeader,
    /// A board diagram, hand or turn line.
    Board(BodLine<'a>),
    /// `key：value`.
    Header(&'a str, &'a str),
    Unknown,
}

/// Classifies one line (its line break removed).
#[inline]
pub(super) fn classify(l: &str) -> KifLine<'_> {
    let t = skip_spaces(l);
    if t.is_empty() {
        return KifLine::Blank;
    }
    if l.starts_with('#') {
        return KifLine::Program;
    }
    if let Some(c) = l.strip_prefix('*') {
        return KifLine::Comment(c);
    }
    if let Some(b) = l.strip_prefix('&') {
        return KifLine::Bookmark(b);
    }
    if let Some((n, rest)) = move_number(t) {
        return KifLine::Move(n, rest);
    }
    if let Some(r) = t.strip_prefix("変化") {
        return KifLine::Variation(r.strip_prefix('：').or_else(|| r.strip_prefix(':')));
    }
    if t.starts_with("まで") {
        return KifLine::Result;
    }
    if t.starts_with("手数--") || t.starts_with("手数－") {
        return KifLine::MovesHeader;
    }
    if let Some(b) = bod::classify(l) {
        return KifLine::Board(b);
    }
    match super::header::header_line(l) {
        Some((key, value)) => KifLine::Header(key, value),
        None => KifLine::Unknown,
    }
}

/// Would `word` on a move line read back as that ending word?
pub(super) fn is_ending_word(word: &str) -> bool {
    // A move line loses its trailing white space and a trailing `+` (the mark of a move with
    // alternatives) before its body is read.
    let line_body = word.trim_end_matches(is_ws);
    let line_body = line_body.strip_suffix('+').unwrap_or(line_body);
    line_body == word
        && matches!(
            parse_move_body(word),
            Ok((Body::Special(w), rest)) if w == word && rest.is_empty()
        )
}
