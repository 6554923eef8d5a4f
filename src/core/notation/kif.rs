//! KIF / KIFU (Kakinoki) reader and writer.
//!
//! The reader is a single pass over the lines with no regular expressions: header lines and an
//! optional board diagram, then move lines (`   1 ７六歩(77)   ( 0:16/00:00:16)`), comments
//! (`*`), bookmarks (`&`), program lines (`#`) and `変化：N手` blocks. Each move is checked once
//! against the rules in the position it is played in; positions are replayed from the root only
//! when a branch starts.
//!
//! The writer produces Kifu for Windows style text; see [`write`].

use super::bod::{self, BoardBuilder};
use super::japanese;
use super::{DiagKind, Diagnostic, Parsed, Written};
use crate::core::record::{Initial, MoveData, MoveTime, NodeId, Record, Special, Step};
use crate::core::rules::{
    Color, Handicap, Move, PieceKind, Position, Square, double_king_tsume_position, tsume_position,
};

/// The encoding declaration Kifu for Windows writes at the top of a UTF-8 `.kif`.
pub const UTF8_DECLARATION: &str = "#KIF version=2.0 encoding=UTF-8";

/// Options for writing KIF.
#[derive(Clone, Debug)]
pub struct KifOptions {
    /// A first line declaring the encoding (e.g. [`UTF8_DECLARATION`] when a `.kif` is written
    /// in UTF-8). Program lines of the record that declare an encoding are never copied.
    pub encoding_line: Option<String>,
    /// Write the closing `まで…` line after the main line when it ends in a special ending.
    pub result_line: bool,
}

impl Default for KifOptions {
    fn default() -> Self {
        KifOptions {
            encoding_line: None,
            result_line: true,
        }
    }
}

impl KifOptions {
    /// Options for UTF-8 text in a `.kif` file (adds [`UTF8_DECLARATION`]).
    pub fn utf8_kif() -> KifOptions {
        KifOptions {
            encoding_line: Some(UTF8_DECLARATION.to_string()),
            ..KifOptions::default()
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading

/// A move as written on a move line, before it is matched with the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RawMove {
    /// `None` for `同`.
    to: Option<Square>,
    /// The piece named on the line (before promotion).
    piece: PieceKind,
    promote: bool,
    /// `None` for a drop.
    from: Option<Square>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Body<'a> {
    Move(RawMove),
    Special(&'a str),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct MoveLine<'a> {
    number: u32,
    body: Body<'a>,
    time: Option<MoveTime>,
    /// Something after the move that could not be read (the move itself is fine).
    trailing: Option<(DiagKind, String)>,
}

/// Any white space (ASCII, U+3000, a stray CR in the middle of a line).
fn is_ws(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
    } else {
        c == '\u{3000}' || c.is_whitespace()
    }
}

/// `s` without its leading white space (ASCII spaces and U+3000 are checked byte-wise).
fn skip_spaces(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
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
fn move_number(t: &str) -> Option<(u32, &str)> {
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
fn parse_time(s: &str) -> Result<(MoveTime, usize), String> {
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
fn time_fields(b: &[u8]) -> Option<(MoveTime, &[u8])> {
    kifu_for_windows_time(b).or_else(|| general_time_fields(b))
}

/// The time exactly as Kifu for Windows writes it, `( 0:16/00:00:16)`: two characters per
/// field, each a digit or a leading space. One pattern match instead of the field-by-field
/// reading of [`general_time_fields`], which gives the same result for these.
fn kifu_for_windows_time(b: &[u8]) -> Option<(MoveTime, &[u8])> {
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
    let digit = |c: u8| c.checked_sub(b'0').filter(|&d| d <= 9).map(u64::from);
    let field = |tens: u8, ones: u8| {
        let tens = if tens == b' ' { 0 } else { digit(tens)? };
        Some(tens * 10 + digit(ones)?)
    };
    let spent = field(m1, m2)? * 60 + field(s1, s2)?;
    let total = (field(h1, h2)? * 60 + field(n1, n2)?) * 60 + field(t1, t2)?;
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
fn general_time_fields(b: &[u8]) -> Option<(MoveTime, &[u8])> {
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
fn parse_move_body(rest: &str) -> Result<(Body<'_>, &str), String> {
    let mut s = skip_spaces(rest);
    for m in ['▲', '△', '▼', '▽', '☗', '☖'] {
        if let Some(r) = s.strip_prefix(m) {
            s = r;
            break;
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
fn parse_move_line(number: u32, rest: &str) -> Result<MoveLine<'_>, String> {
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
fn fast_move_line(number: u32, rest: &str) -> Option<MoveLine<'_>> {
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
fn general_move_line(number: u32, rest: &str) -> Result<MoveLine<'_>, String> {
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

struct Reader {
    record: Record,
    warnings: Vec<Diagnostic>,
    in_moves: bool,
    handicap: Option<(usize, String)>,
    board: BoardBuilder,
    pos: Position,
    cur: NodeId,
    /// Positions along the path to `cur`: `trail[k]` is the position after ply `k`, so a
    /// variation block starts without replaying from the root.
    trail: Vec<Position>,
    /// Skipping a broken line of play: resume at a `変化` line or a move numbered at most this.
    skip: Option<u32>,
    /// The number announced by the last `変化：N手` line, not yet used.
    pending_branch: Option<(usize, u32)>,
    /// The node that received the last comment line.
    comment_node: Option<NodeId>,
}

impl Reader {
    fn warn(&mut self, line: usize, kind: DiagKind, msg: impl Into<String>) {
        self.warnings.push(Diagnostic::new(line, kind, msg));
    }

    /// Called for every move line; the work is in [`Self::set_up_moves`].
    fn start_moves(&mut self) {
        if !self.in_moves {
            self.set_up_moves();
        }
    }

    /// The moves start: the header and board diagram read so far make the initial position.
    /// Once per record: `cold` keeps it out of [`Self::start_moves`] so that inlines.
    #[cold]
    fn set_up_moves(&mut self) {
        self.in_moves = true;
        let board = std::mem::take(&mut self.board);
        let initial = if board.has_board() {
            let missing = board.missing_ranks();
            if !missing.is_empty() {
                self.warn(
                    0,
                    DiagKind::BadBoard,
                    format!("the board diagram lacks rank(s) {missing:?}; they are read as empty"),
                );
            }
            Initial {
                position: board.position(),
                handicap: None,
            }
        } else {
            let mut initial = Initial::even();
            if let Some((line, name)) = self.handicap.take() {
                let trimmed = name.trim_matches(is_ws);
                if let Some(h) = Handicap::by_name(trimmed) {
                    if !h.is_even() {
                        initial = Initial {
                            position: h.position(),
                            handicap: Some(h),
                        };
                    }
                } else if trimmed == "詰将棋" {
                    initial = Initial {
                        position: tsume_position(),
                        handicap: None,
                    };
                } else if trimmed == "双玉詰将棋" {
                    initial = Initial {
                        position: double_king_tsume_position(),
                        handicap: None,
                    };
                } else {
                    self.warn(
                        line,
                        DiagKind::BadHeader,
                        format!(
                            "unknown 手合割 '{trimmed}' with no board diagram (expected 平手, 香落ち, ... 十枚落ち, 詰将棋); read as 平手"
                        ),
                    );
                }
            }
            if board.hands_seen || board.turn.is_some() {
                let before = initial.position.clone();
                board.apply_hands_and_turn(&mut initial.position);
                if initial.position != before {
                    initial.handicap = None;
                }
            }
            initial
        };
        self.pos = initial.position.clone();
        self.trail = vec![self.pos.clone()];
        self.record.initial = initial;
    }

    fn add_comment(&mut self, text: &str) {
        let id = self.cur;
        let continuing = self.comment_node == Some(id);
        let c = &mut self.record.node_mut(id).comment;
        if continuing || !c.is_empty() {
            c.push('\n');
        }
        c.push_str(text);
        self.comment_node = Some(id);
    }

    fn line(&mut self, no: usize, l: &str) {
        let t = skip_spaces(l);
        if t.is_empty() {
            return;
        }
        if l.starts_with('#') {
            self.record.program_lines.push(l.to_string());
            return;
        }
        if let Some(c) = l.strip_prefix('*') {
            if self.skip.is_none() {
                self.add_comment(c);
            }
            return;
        }
        if let Some(b) = l.strip_prefix('&') {
            if self.skip.is_none() {
                let id = self.cur;
                if self.record.node(id).bookmark.is_some() {
                    self.warn(
                        no,
                        DiagKind::Unsupported,
                        "a second bookmark on the same move replaces the first",
                    );
                }
                self.record.node_mut(id).bookmark = Some(b.trim_end().to_string());
            }
            return;
        }
        if let Some((n, rest)) = move_number(t) {
            self.start_moves();
            self.move_line(no, n, rest);
            return;
        }
        if let Some(r) = t.strip_prefix("変化") {
            let Some(r) = r.strip_prefix('：').or_else(|| r.strip_prefix(':')) else {
                self.warn(no, DiagKind::UnknownLine, "expected '変化：N手'");
                return;
            };
            if !self.in_moves {
                // Some writers leave a stray 変化 line in the header; it means nothing there.
                self.warn(
                    no,
                    DiagKind::BadBranch,
                    "変化 line before any move; ignored",
                );
                return;
            }
            self.variation_line(no, r);
            return;
        }
        if t.starts_with("まで") {
            return;
        }
        if t.starts_with("手数--") || t.starts_with("手数－") {
            self.start_moves();
            return;
        }
        if let Some(b) = bod::classify(l) {
            if self.in_moves {
                self.warn(
                    no,
                    DiagKind::BadBoard,
                    "board diagram line after the moves started; ignored",
                );
                return;
            }
            if let Err(e) = self.board.feed(b) {
                self.warn(no, DiagKind::BadBoard, e);
            }
            return;
        }
        if let Some((key, value)) = header_line(l) {
            if key == "手合割" {
                if self.in_moves {
                    self.warn(
                        no,
                        DiagKind::BadHeader,
                        "手合割 after the moves started; ignored",
                    );
                } else {
                    self.handicap = Some((no, value.to_string()));
                }
            } else {
                self.record
                    .header
                    .fields
                    .push(crate::core::record::HeaderField {
                        key: key.to_string(),
                        value: value.to_string(),
                    });
            }
            return;
        }
        self.warn(
            no,
            DiagKind::UnknownLine,
            format!(
                "cannot read line '{}' (expected a header 'key：value', a move line, or a '*' comment)",
                l.chars().take(40).collect::<String>()
            ),
        );
    }

    fn variation_line(&mut self, no: usize, r: &str) {
        let r = skip_spaces(r);
        let digits: String = r
            .chars()
            .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
            .map(|c| {
                if c.is_ascii_digit() {
                    c
                } else {
                    char::from(b'0' + (c as u32 - '０' as u32) as u8)
                }
            })
            .collect();
        let n: Option<u32> = digits.parse().ok();
        self.skip = None;
        self.pending_branch = None;
        match n {
            Some(n) if n >= 1 && n <= self.record.node(self.cur).ply + 1 => {
                self.pending_branch = Some((no, n));
            }
            _ => {
                self.warn(
                    no,
                    DiagKind::BadBranch,
                    format!(
                        "'変化：{r}' does not branch off the line read so far (it has {} moves); its moves are skipped",
                        self.record.node(self.cur).ply
                    ),
                );
                self.skip = Some(0);
            }
        }
    }

    /// Moves `cur` to its ancestor at `ply` and rebuilds the position there.
    fn goto_ancestor(&mut self, ply: u32) {
        let mut id = self.cur;
        while self.record.node(id).ply > ply {
            match self.record.node(id).parent {
                Some(p) => id = p,
                None => break,
            }
        }
        self.cur = id;
        let ply = self.record.node(id).ply as usize;
        match self.trail.get(ply) {
            Some(p) => {
                self.pos = p.clone();
                self.trail.truncate(ply + 1);
            }
            None => {
                self.pos = self.record.position_at(id);
                self.trail.clear();
            }
        }
    }

    fn move_line(&mut self, no: usize, n: u32, rest: &str) {
        if let Some(limit) = self.skip {
            if n == 0 || n > limit {
                return;
            }
            self.skip = None;
        }
        let parsed = match parse_move_line(n, rest) {
            Ok(p) => p,
            Err(e) => {
                self.warn(
                    no,
                    DiagKind::BadMove,
                    format!("move {n}: {e}; the rest of this line of play is skipped"),
                );
                self.skip = Some(n);
                return;
            }
        };
        if let Some((bline, b)) = self.pending_branch.take()
            && b != n
        {
            self.warn(
                no,
                DiagKind::BadBranch,
                format!("'変化：{b}手' on line {bline} is followed by move {n}"),
            );
        }
        if n == 0 {
            self.warn(
                no,
                DiagKind::BadMoveNumber,
                "move number 0 (moves start at 1)",
            );
            self.skip = Some(0);
            return;
        }
        let cur_ply = self.record.node(self.cur).ply;
        if n - 1 < cur_ply {
            self.goto_ancestor(n - 1);
        } else if n - 1 > cur_ply {
            self.warn(
                no,
                DiagKind::BadMoveNumber,
                format!(
                    "move number {n} where {} was expected; read as move {}",
                    cur_ply + 1,
                    cur_ply + 1
                ),
            );
        }
        if self.record.node(self.cur).special().is_some() {
            self.warn(
                no,
                DiagKind::AfterEnd,
                format!(
                    "move {n} comes after the special ending '{}'; the rest of this line of play is skipped",
                    self.record.node(self.cur).special().map(|s| s.kif_word().to_string()).unwrap_or_default()
                ),
            );
            self.skip = Some(n);
            return;
        }
        if let Some((kind, t)) = &parsed.trailing {
            self.warn(no, *kind, format!("move {n}: {t}"));
        }
        let step = match parsed.body {
            Body::Special(w) => Step::Special(Special::from_kif(w)),
            Body::Move(raw) => match self.play(no, n, raw) {
                Some(md) => Step::Move(md),
                None => {
                    self.skip = Some(n);
                    return;
                }
            },
        };
        let id = self.record.push_child(self.cur, step);
        self.record.node_mut(id).time = parsed.time;
        self.cur = id;
        let ply = self.record.node(id).ply as usize;
        if self.trail.len() == ply {
            // Cloned straight into the vector: `push(clone())` copied the position twice.
            self.trail
                .extend_from_slice(std::slice::from_ref(&self.pos));
        }
    }

    /// Matches a written move with the position and plays it. `None` when it cannot be played.
    fn play(&mut self, no: usize, n: u32, raw: RawMove) -> Option<MoveData> {
        let side = self.pos.side_to_move();
        let to = match raw.to {
            Some(t) => t,
            None => match self.record.node(self.cur).move_data() {
                Some(m) => m.mv.to(),
                None => {
                    self.warn(
                        no,
                        DiagKind::BadMove,
                        format!(
                            "move {n}: 同 with no previous move; the rest of this line of play is skipped"
                        ),
                    );
                    return None;
                }
            },
        };
        let mv = match raw.from {
            Some(from) => {
                if let Some(p) = self.pos.piece_at(from)
                    && p.color == side
                    && p.kind != raw.piece
                {
                    self.warn(
                        no,
                        DiagKind::BadMove,
                        format!(
                            "move {n}: the line names {} but the piece on {}{} is {}",
                            raw.piece.move_name(),
                            from.file(),
                            from.rank(),
                            p.kind.move_name()
                        ),
                    );
                }
                Move::Normal {
                    from,
                    to,
                    promote: raw.promote,
                }
            }
            None => {
                if !raw.piece.is_hand_kind() || raw.promote {
                    self.warn(
                        no,
                        DiagKind::ImpossibleMove,
                        format!(
                            "move {n}: cannot drop {}; the rest of this line of play is skipped",
                            raw.piece.move_name()
                        ),
                    );
                    return None;
                }
                Move::Drop {
                    kind: raw.piece,
                    to,
                }
            }
        };
        match self.pos.play_checked(mv) {
            Some((played, verdict)) => {
                if let Err(why) = verdict {
                    self.warn(
                        no,
                        DiagKind::IllegalMove,
                        format!("move {n} ({}) is illegal: {why}", mv.usi()),
                    );
                }
                Some(MoveData {
                    mv,
                    color: side,
                    piece: played.piece,
                    captured: played.captured,
                })
            }
            None => {
                // Not playable at all (rare): ask the rules why.
                let why = self
                    .pos
                    .check(mv)
                    .err()
                    .map(|w| w.to_string())
                    .unwrap_or_default();
                self.warn(
                    no,
                    DiagKind::ImpossibleMove,
                    format!(
                        "move {n} ({}) cannot be played: {why}; the rest of this line of play is skipped",
                        mv.usi()
                    ),
                );
                None
            }
        }
    }
}

/// `key：value` or `key:value` (key non-empty, without spaces).
fn header_line(l: &str) -> Option<(&str, &str)> {
    let i = l.find(['：', ':'])?;
    let key = &l[..i];
    if key.is_empty() || key.contains([' ', '\t']) {
        return None;
    }
    let sep = if l[i..].starts_with('：') {
        '：'.len_utf8()
    } else {
        1
    };
    Some((key, &l[i + sep..]))
}

/// Reads KIF text (already decoded). Never panics; every problem is a warning.
pub fn read(text: &str) -> Parsed {
    let mut r = Reader {
        record: Record::default(),
        warnings: Vec::new(),
        in_moves: false,
        handicap: None,
        board: BoardBuilder::default(),
        pos: Position::startpos(),
        cur: NodeId::ROOT,
        trail: Vec::new(),
        skip: None,
        pending_branch: None,
        comment_node: None,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Roughly one node per 40 bytes of move text; comments make it an overestimate.
    r.record.nodes.reserve((text.len() / 40).min(1 << 20));
    // `memchr` finds the line ends with SIMD; `str::split('\n')` looks at a word at a time and
    // cost more than reading the line did.
    let mut start = 0;
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).chain([text.len()]);
    for (i, end) in ends.enumerate() {
        let line = &text[start..end];
        start = end + 1;
        r.line(i + 1, line.trim_end_matches('\r'));
    }
    r.start_moves();
    r.record.fill_missing_times();
    Parsed {
        record: r.record,
        warnings: r.warnings,
    }
}

// ---------------------------------------------------------------------------------------------
// Writing

/// Display width of KIF text: ASCII is one column, everything else two.
fn width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// The column width of the move field on a move line (Kifu for Windows).
const MOVE_FIELD: usize = 13;

/// Appends `n` right-aligned in `width` columns (spaces, or zeros with `zero`).
fn push_num(out: &mut String, n: u64, width: usize, zero: bool) {
    let mut buf = [if zero { b'0' } else { b' ' }; 24];
    let mut i = buf.len();
    let mut v = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let start = i.min(buf.len().saturating_sub(width));
    // Digits and padding are ASCII: one append instead of a `push` per character.
    out.push_str(std::str::from_utf8(&buf[start..]).unwrap_or_default());
}

/// Appends `( m:ss/hh:mm:ss)`, built in one buffer (it is on every move line of a timed
/// record).
fn push_time(out: &mut String, spent_ms: u64, total_ms: u64) {
    fn two(buf: &mut [u8], at: usize, v: u64, pad: u8) {
        buf[at] = if v >= 10 {
            b'0' + (v / 10 % 10) as u8
        } else {
            pad
        };
        buf[at + 1] = b'0' + (v % 10) as u8;
    }
    let s = spent_ms / 1000;
    let t = total_ms / 1000;
    if s / 60 >= 100 || t / 3600 >= 100 {
        // Long thinking times or totals are rare: the general path.
        out.push('(');
        push_num(out, s / 60, 2, false);
        out.push(':');
        push_num(out, s % 60, 2, true);
        out.push('/');
        push_num(out, t / 3600, 2, true);
        out.push(':');
        push_num(out, (t / 60) % 60, 2, true);
        out.push(':');
        push_num(out, t % 60, 2, true);
        out.push(')');
        return;
    }
    let mut buf = *b"( 0:00/00:00:00)";
    two(&mut buf, 1, s / 60, b' ');
    two(&mut buf, 4, s % 60, b'0');
    two(&mut buf, 7, t / 3600, b'0');
    two(&mut buf, 10, (t / 60) % 60, b'0');
    two(&mut buf, 13, t % 60, b'0');
    out.push_str(std::str::from_utf8(&buf).unwrap_or_default());
}

fn is_encoding_declaration(l: &str) -> bool {
    l.starts_with("#KIF") && l.contains("encoding=")
}

fn one_line(s: &str, what: &str, losses: &mut Vec<String>) -> String {
    if s.contains(['\n', '\r']) {
        losses.push(format!("line breaks in {what} (KIF holds one line)"));
        s.replace("\r\n", " ").replace(['\n', '\r'], " ")
    } else {
        s.to_string()
    }
}

/// Writes `record` as KIF in Kifu for Windows style: program lines, header, 手合割 or a board
/// diagram, move lines with times when the record has any, comments, bookmarks, the closing
/// `まで…` line, then `変化：N手` blocks depth first (deepest branch point first).
pub fn write(record: &Record, opts: &KifOptions) -> Written {
    let mut losses = Vec::new();
    let mut out = String::with_capacity(256 + record.nodes.len() * 40);
    if let Some(l) = &opts.encoding_line {
        out.push_str(l);
        out.push('\n');
    }
    for l in &record.program_lines {
        if is_encoding_declaration(l) {
            continue;
        }
        if !l.starts_with('#') {
            out.push('#');
        }
        out.push_str(&one_line(l, "a program line", &mut losses));
        out.push('\n');
    }
    for f in &record.header.fields {
        if f.key == "手合割" {
            continue;
        }
        out.push_str(&one_line(&f.key, "a header key", &mut losses));
        out.push('：');
        out.push_str(&one_line(&f.value, "a header value", &mut losses));
        out.push('\n');
    }
    let init = &record.initial;
    match init.handicap {
        Some(h) if h.position() == init.position => {
            out.push_str("手合割：");
            out.push_str(h.name);
            out.push('\n');
        }
        _ => {
            bod::write_position(&init.position, &mut out, false);
            if init.position.side_to_move() == Color::White {
                out.push_str("後手番\n");
            }
        }
    }
    out.push_str("手数----指手---------消費時間--\n");
    write_notes(record, NodeId::ROOT, &mut out, &mut losses);

    let has_times = record.nodes.iter().any(|n| n.time.is_some());
    let totals = if has_times {
        record.running_totals()
    } else {
        Vec::new()
    };

    // Work stack: a line to write, optionally preceded by its 変化 header.
    let mut stack: Vec<(NodeId, bool)> = Vec::new();
    if let Some(&first) = record.node(NodeId::ROOT).children.first() {
        stack.push((first, false));
    }
    let mut main = true;
    while let Some((start, header)) = stack.pop() {
        if header {
            out.push('\n');
            out.push_str("変化：");
            push_num(&mut out, u64::from(record.node(start).ply), 0, false);
            out.push_str("手\n");
        }
        let mut line = Vec::new();
        let mut id = start;
        loop {
            line.push(id);
            write_node(record, id, has_times, &totals, &mut out);
            write_notes(record, id, &mut out, &mut losses);
            match record.node(id).children.first() {
                Some(&c) => id = c,
                None => break,
            }
        }
        if main {
            main = false;
            if opts.result_line
                && let Step::Special(s) = &record.node(id).step
            {
                out.push_str(&s.result_line(
                    record.node(id).ply.saturating_sub(1),
                    record.side_to_move_at(id),
                    init.is_handicap_game(),
                ));
                out.push('\n');
            }
        }
        // Alternatives, deepest branch point first; at one point, in sibling order. The
        // first node's own siblings are handled by whoever wrote its parent's line, except at
        // the root.
        let mut todo = Vec::new();
        for (k, &n) in line.iter().enumerate().rev() {
            if k == 0 && header {
                continue;
            }
            let Some(p) = record.node(n).parent else {
                continue;
            };
            if k == 0 && p != NodeId::ROOT {
                continue;
            }
            for &sib in &record.node(p).children[1..] {
                todo.push(sib);
            }
        }
        for sib in todo.into_iter().rev() {
            stack.push((sib, true));
        }
    }
    Written { text: out, losses }
}

fn write_node(record: &Record, id: NodeId, has_times: bool, totals: &[u64], out: &mut String) {
    let n = record.node(id);
    push_num(out, u64::from(n.ply), 4, false);
    out.push(' ');
    let body_start = out.len();
    match &n.step {
        Step::Move(md) => {
            let prev_to = n
                .parent
                .and_then(|p| record.node(p).move_data())
                .map(|m| m.mv.to());
            japanese::push_kif_move(out, md, prev_to);
        }
        Step::Special(s) => out.push_str(s.kif_word()),
        Step::Root => {}
    }
    let plus = match n.parent {
        Some(p) => record.node(p).children.last() != Some(&id),
        None => false,
    };
    if has_times || plus {
        let w = width(&out[body_start..]);
        let pad = if w < MOVE_FIELD { MOVE_FIELD - w } else { 1 };
        for _ in 0..pad {
            out.push(' ');
        }
    }
    if has_times {
        let time = n.time.unwrap_or_default();
        push_time(out, time.spent_ms, totals[id.index()]);
    }
    if plus {
        out.push('+');
    }
    out.push('\n');
}

fn write_notes(record: &Record, id: NodeId, out: &mut String, losses: &mut Vec<String>) {
    let n = record.node(id);
    if !n.comment.is_empty() {
        for l in n.comment.split('\n') {
            out.push('*');
            out.push_str(l.strip_suffix('\r').unwrap_or(l));
            out.push('\n');
        }
    }
    if let Some(b) = &n.bookmark {
        out.push('&');
        out.push_str(&one_line(b, "a bookmark", losses));
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::select;

    fn kinds(p: &Parsed) -> Vec<(usize, DiagKind)> {
        p.warnings.iter().map(|w| (w.line, w.kind)).collect()
    }

    fn usi_main(r: &Record) -> Vec<String> {
        r.main_line()
            .into_iter()
            .skip(1)
            .map(|id| match &r.node(id).step {
                Step::Move(m) => m.mv.usi(),
                Step::Special(s) => s.json_name(),
                Step::Root => String::new(),
            })
            .collect()
    }

    #[test]
    fn move_line_grammar() {
        let l = parse_move_line(1, " ７六歩(77)   ( 0:16/00:00:16)").unwrap();
        assert_eq!(l.time.unwrap().spent_ms, 16_000);
        assert_eq!(l.time.unwrap().total_ms, Some(16_000));
        let l = parse_move_line(1, " 同　歩(77)").unwrap();
        assert!(matches!(l.body, Body::Move(RawMove { to: None, .. })));
        for s in [" 同歩(77)", " 同 歩(77)", " 同　　歩(77)"] {
            assert!(matches!(
                parse_move_line(1, s).unwrap().body,
                Body::Move(RawMove { to: None, .. })
            ));
        }
        let l = parse_move_line(1, " ３三角打(00) ( 0:07/00:01:00)").unwrap();
        assert!(matches!(l.body, Body::Move(RawMove { from: None, .. })));
        let l = parse_move_line(1, " 投了   (125:30/02:05:30)+").unwrap();
        assert_eq!(l.body, Body::Special("投了"));
        assert_eq!(l.time.unwrap().spent_ms, 7_530_000);
        let l = parse_move_line(1, " 中断 ( 0:03/ 0:00:19)").unwrap();
        assert_eq!(l.time.unwrap().total_ms, Some(19_000));
        assert!(parse_move_line(1, " ０六歩(77)").is_err());
        assert!(parse_move_line(1, " ７六犬(77)").is_err());
        assert!(parse_move_line(1, " ７六歩").is_err());
        let l = parse_move_line(1, " ２二角不成(88)").unwrap();
        assert!(matches!(l.body, Body::Move(RawMove { promote: false, .. })));
        let l = parse_move_line(1, " 7六歩(77) junk").unwrap();
        assert!(l.trailing.is_some());
    }

    fn sq(file: u8, rank: u8) -> Option<Square> {
        Square::new(file, rank)
    }

    /// The move lines `fast_move_line` is meant for, each with what it reads, then variants
    /// only the general reader handles. Both paths are run on each line; where the fast one
    /// answers, it must agree with the general one.
    #[test]
    fn move_line_variants() {
        use PieceKind::*;
        let mv = |to, piece, promote, from| {
            Body::Move(RawMove {
                to,
                piece,
                promote,
                from,
            })
        };
        // A time of `spent` seconds, `total` seconds in all (0: no total).
        let t = |spent: u64, total: u64| {
            Some(MoveTime {
                spent_ms: spent * 1000,
                total_ms: (total > 0).then_some(total * 1000),
            })
        };
        let p76 = mv(sq(7, 6), Pawn, false, sq(7, 7));
        let same = mv(None, Pawn, false, sq(7, 7));
        let b22 = |promote| mv(sq(2, 2), Bishop, promote, sq(8, 8));
        let b55 = |promote| mv(sq(5, 5), Bishop, promote, None);
        let unknown = Some(DiagKind::UnknownLine);
        let bad_time = Some(DiagKind::BadTime);
        // (text after the move number, body, time, trailing warning)
        let fast = [
            (" ７六歩(77)", p76, None, None),
            (" ７六歩(77)   ( 0:16/00:00:16)", p76, t(16, 16), None),
            (" ７六歩(77)   ( 0:16/00:00:16)+", p76, t(16, 16), None),
            (" ７六歩(77) ( 0:16/00:00:16) + ", p76, t(16, 16), None),
            (" ７六歩(77)+", p76, None, None),
            (" ７六歩(77)( 0:16/00:00:16)", p76, t(16, 16), None),
            ("   ７六歩(77) (10:00/01:02:03)", p76, t(600, 3723), None),
            (" ７六歩(77) (125:30/02:05:30)", p76, t(7530, 7530), None),
            (" ７六歩(77) ( 0:16/ 0:00:16)", p76, t(16, 16), None),
            (" ７六歩(77) (00:31 / 00:00:31)", p76, t(31, 31), None),
            (" ７六歩(77) ( 0:16/)", p76, t(16, 0), None),
            (" ７六歩(77) ( 0:16)", p76, t(16, 0), None),
            (" ７６歩(77)", p76, None, None),
            (" 同　歩(77)", same, None, None),
            (" 同歩(77)", same, None, None),
            (" 同 歩(77)", same, None, None),
            (" 同　　歩(77)", same, None, None),
            (" ２二角成(88)", b22(true), None, None),
            (" ２二角不成(88)", b22(false), None, None),
            (" ５五角打", b55(false), None, None),
            (" ５五角打(00)", b55(false), None, None),
            (" ５五角打(00) ( 0:07/00:01:00)", b55(false), t(7, 60), None),
            (" ５五角成打", b55(true), None, None),
            (
                " １一龍(21)",
                mv(sq(1, 1), Dragon, false, sq(2, 1)),
                None,
                None,
            ),
            (
                " ９九と(98)",
                mv(sq(9, 9), ProPawn, false, sq(9, 8)),
                None,
                None,
            ),
        ];
        let general = [
            (
                " ４四成銀(45)",
                mv(sq(4, 4), ProSilver, false, sq(4, 5)),
                None,
                None,
            ),
            (" 76歩(77)", p76, None, None),
            (" 7六歩(77)", p76, None, None),
            (" 七六歩(77)", p76, None, None),
            (" ▲７六歩(77)", p76, None, None),
            (" ７六歩　(77)", p76, None, None),
            (" ７六歩(７７)", p76, None, None),
            (" ７六歩(77)\t( 0:16/00:00:16)", p76, t(16, 16), None),
            (" ７六歩(77)　( 0:16/00:00:16)　", p76, t(16, 16), None),
            (" ７六歩(77) ( 0:16/00:00:16)\r", p76, t(16, 16), None),
            ("\t７六歩(77)", p76, None, None),
            ("　７六歩(77)", p76, None, None),
            (" 同\t歩(77)", same, None, None),
            (" ２二角生(88)", b22(false), None, None),
            (" ５五角(00)", b55(false), None, None),
            (" 投了", Body::Special("投了"), None, None),
            (
                " 投了   ( 0:03/00:00:19)+",
                Body::Special("投了"),
                t(3, 19),
                None,
            ),
            (" 61手詰", Body::Special("61手詰"), None, None),
            (" ７六歩(77) junk", p76, None, unknown),
            (" ７六歩(77) ++", p76, None, unknown),
            (" ７六歩(77)+( 0:16/00:00:16)", p76, None, unknown),
            (" ７六歩(77) ( 0:16/00:00:16) x", p76, t(16, 16), unknown),
            (
                " ７六歩打打",
                mv(sq(7, 6), Pawn, false, None),
                None,
                unknown,
            ),
            (" ７六歩(77) ( 0:1a/00:00:16)", p76, None, bad_time),
            (" ７六歩(77) ( 0:16/00:00:16", p76, None, bad_time),
            (" ７六歩(77) (0:16/16)", p76, None, bad_time),
        ];
        let cases = fast.iter().map(|c| (c, true));
        for (&(rest, body, time, trailing), is_fast) in
            cases.chain(general.iter().map(|c| (c, false)))
        {
            let read = general_move_line(3, rest)
                .unwrap_or_else(|e| panic!("{rest:?} does not read: {e}"));
            let trailing_kind = read.trailing.as_ref().map(|t| t.0);
            assert_eq!(
                (read.body, read.time, trailing_kind),
                (body, time, trailing),
                "{rest:?}"
            );
            match fast_move_line(3, rest) {
                Some(f) => {
                    assert!(is_fast, "{rest:?} was meant for the general path");
                    assert_eq!(f, read, "{rest:?}");
                }
                None => assert!(!is_fast, "{rest:?} missed the fast path"),
            }
            assert_eq!(parse_move_line(3, rest), Ok(read), "{rest:?}");
        }
    }

    /// Lines that look like moves but are not: both paths refuse them (the fast one by leaving
    /// them to the general one, which says what is wrong).
    #[test]
    fn move_line_lookalikes() {
        for rest in [
            "",
            " ",
            " ０六歩(77)",
            " ７〇歩(77)",
            " ７六犬(77)",
            " ７六歩",
            " ７六歩(7)",
            " ７六歩(77",
            " ７六歩(70)",
            " 同",
            " 同　",
            " 成銀(45)",
            " ７六",
            " (77)",
        ] {
            assert_eq!(fast_move_line(1, rest), None, "{rest:?}");
            let general = general_move_line(1, rest);
            assert!(general.is_err(), "{rest:?}: {general:?}");
            assert_eq!(parse_move_line(1, rest), general, "{rest:?}");
        }
    }

    /// Times as Kifu for Windows writes them go through one pattern; the field-by-field reader
    /// must agree, and both must refuse what is not a time.
    #[test]
    fn time_variants() {
        for (text, spent_s, total_s) in [
            ("( 0:16/00:00:16)", 16, Some(16)),
            ("(10:00/01:02:03)", 600, Some(3723)),
            ("( 0: 6/ 0: 0: 6)", 6, Some(6)),
            ("(99:59/99:59:59)", 5999, Some(359_999)),
        ] {
            let time = MoveTime {
                spent_ms: spent_s * 1000,
                total_ms: total_s.map(|s: u64| s * 1000),
            };
            let fixed = kifu_for_windows_time(text.as_bytes());
            assert_eq!(fixed, Some((time, &b""[..])), "{text}");
            assert_eq!(general_time_fields(text.as_bytes()), fixed, "{text}");
        }
        for text in [
            "(x0:16/00:00:16)",
            "( 0:16/00:00:1 )",
            "(  :16/00:00:16)",
            "( 0:16/00:00:16(",
            "( 0:16-00:00:16)",
        ] {
            assert_eq!(kifu_for_windows_time(text.as_bytes()), None, "{text}");
        }
        assert!(parse_time("( 0:1 /00:00:16)").is_ok());
        assert_eq!(
            parse_time("( 0:16/00:00:1x) rest"),
            Err("cannot read time '( 0:16/00:00:1x)' (expected '( m:ss/hh:mm:ss)')".into())
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Move lines pieced together slot by slot from the variants real and broken lines
        /// have, with one more fragment put between two slots: wherever the fast path answers,
        /// the general reader answers the same.
        #[test]
        fn fast_move_line_agrees_with_general(
            lead in select(&["", " ", "   ", "\t", "\u{3000}", " ▲"]),
            to in select(&[
                "７六", "７６", "１九", "7六", "七六", "０六", "７〇", "同", "同\u{3000}", "同 ",
                "同\t", "1", "投了", "61手詰", "",
            ]),
            piece in select(&["歩", "と", "龍", "成銀", "犬", "", "\u{3000}歩"]),
            promote in select(&["", "", "成", "不成", "生", "\u{3000}"]),
            from in select(&[
                "(77)", "(19)", "(00)", "打", "打(00)", "(7)", "(77", "(７７)", "(70)", "",
            ]),
            gap in select(&["", " ", "   ", "\t", "\u{3000}", "+"]),
            time in select(&[
                "", "( 0:16/00:00:16)", "(125:30/02:05:30)", "( 0:16/)", "( 0:1x/00:00:16)",
                "(0:16/16)", "( 0:16/00:00:16", "x",
            ]),
            tail in select(&["", "", "+", " +", "+ ", "++", " ", "\r", "\u{3000}", " x"]),
            extra in select(&["", " ", "\u{3000}", "\t", "+", "(", ")", "成", "打", "x", "\r"]),
            at in 0..8usize,
        ) {
            let mut parts = vec![lead, to, piece, promote, from, gap, time, tail];
            parts.insert(at, extra);
            let rest = parts.concat();
            if let Some(fast) = fast_move_line(5, &rest) {
                prop_assert_eq!(Ok(fast), general_move_line(5, &rest), "{:?}", rest);
            }
        }

        /// Times with every field position a digit, a space or something else.
        #[test]
        fn fixed_time_agrees_with_general(
            chars in "\\( ?[0-9 x][0-9 ]:[0-9 x][0-9]/[0-9 ][0-9 x]:[0-9 ][0-9]:[0-9 x][0-9 ]\\)[+ ]?"
        ) {
            if let Some(fixed) = kifu_for_windows_time(chars.as_bytes()) {
                prop_assert_eq!(Some(fixed), general_time_fields(chars.as_bytes()));
            }
        }
    }

    /// Line ends (LF, CRLF, none at the end, blank lines) and the line numbers in warnings.
    #[test]
    fn line_splitting_and_numbers() {
        for (text, moves, warnings) in [
            ("", 0, vec![]),
            ("\n", 0, vec![]),
            ("   1 ７六歩(77)", 1, vec![]),
            ("   1 ７六歩(77)\n", 1, vec![]),
            ("   1 ７六歩(77)\r\n   2 ３四歩(33)\r\n", 2, vec![]),
            ("   1 ７六歩(77)\r\r\n\n\n   2 ３四歩(33)", 2, vec![]),
            (
                "\n\n   1 ７六歩(77) x\r\n",
                1,
                vec![(3, DiagKind::UnknownLine)],
            ),
            (
                "   1 ７六歩(77)\n\r\n   3 ３四歩(33)\n",
                2,
                vec![(3, DiagKind::BadMoveNumber)],
            ),
            ("   1 ７六歩(77)\n?\n", 1, vec![(2, DiagKind::UnknownLine)]),
        ] {
            let p = read(text);
            assert_eq!(kinds(&p), warnings, "{text:?}");
            assert_eq!(p.record.main_line().len(), moves + 1, "{text:?}");
        }
    }

    /// Whole records whose move lines take either path read alike, warnings included.
    #[test]
    fn fast_and_general_lines_in_a_record() {
        let fast = "   1 ７六歩(77)   ( 0:16/00:00:16)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 ２二角成(88) ( 0:02/00:00:18)\n   4 同　銀(31)   ( 0:03/00:00:04)\n   5 ４五角打     ( 0:04/00:00:22)\n   6 投了\n";
        let general = "1\t▲7六歩(77)\t( 0:16/00:00:16)\n2 △3四歩(33)\u{3000}(0:01/0:00:01)\n3 2二角成(88) (0:02/0:00:18)\n 4 同\t銀(31)\t( 0:03/ 0:00:04)\n5 ４五角　打 ( 0:04/00:00:22)\n6 投了\n";
        let a = read(fast);
        let b = read(general);
        assert!(a.warnings.is_empty(), "{:?}", a.warnings);
        assert!(b.warnings.is_empty(), "{:?}", b.warnings);
        assert_eq!(a.record, b.record);
        assert_eq!(
            usi_main(&a.record),
            ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "resign"]
        );
        // The same mistakes give the same warnings on either path.
        let a = read("   1 ７六歩(77)   ( 0:16/00:00:16) junk\n   2 ３四歩(33) ( 0:1x/00:00:01)\n");
        let b = read("   1 7六歩(77)\t( 0:16/00:00:16) junk\n   2 3四歩(33) ( 0:1x/00:00:01)\n");
        assert_eq!(a.warnings, b.warnings);
        assert_eq!(
            kinds(&a),
            [(1, DiagKind::UnknownLine), (2, DiagKind::BadTime)]
        );
    }

    #[test]
    fn reads_a_simple_game() {
        let p = read(
            "手合割：平手　　\n先手：A\n後手:B\n手数----指手---------消費時間--\n*start\n   1 ７六歩(77)   ( 0:16/00:00:16)\n*c1\n**engine\n&mark\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 投了\n*after end\nまで2手で後手の勝ち\n",
        );
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        let r = &p.record;
        assert_eq!(r.header.black_name(), Some("A"));
        assert_eq!(r.header.white_name(), Some("B"));
        assert_eq!(usi_main(r), ["7g7f", "3c3d", "resign"]);
        assert_eq!(r.node(NodeId::ROOT).comment, "start");
        let m = r.main_line();
        assert_eq!(r.node(m[1]).comment, "c1\n*engine");
        assert_eq!(r.node(m[1]).bookmark.as_deref(), Some("mark"));
        assert_eq!(r.node(m[3]).comment, "after end");
    }

    #[test]
    fn variations_and_implied_branches() {
        let text = "   1 ７六歩(77)+\n   2 ３四歩(33)+\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n\n変化：1手\n   1 ２六歩(27)\n   2 ８四歩(83)\n   1 ５六歩(57)\n";
        let p = read(text);
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        let r = &p.record;
        assert_eq!(r.node(NodeId::ROOT).children.len(), 3);
        let m1 = r.node(NodeId::ROOT).children[0];
        assert_eq!(r.node(m1).children.len(), 2);
    }

    #[test]
    fn illegal_and_impossible_moves() {
        // 二歩 is illegal but possible: kept with a warning.
        let p = read("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩打\n");
        assert_eq!(kinds(&p), [(3, DiagKind::ImpossibleMove)]);
        let p = read("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五飛(28)\n   4 ８四歩(83)\n");
        assert_eq!(kinds(&p), [(3, DiagKind::IllegalMove)]);
        assert_eq!(p.record.main_line().len(), 5);
        let p = read("   1 ７六歩(55)\n   2 ３四歩(33)\n\n変化：1手\n   1 ２六歩(27)\n");
        assert_eq!(kinds(&p), [(1, DiagKind::ImpossibleMove)]);
        assert_eq!(usi_main(&p.record), ["2g2f"]);
        let p = read("   1 ７六飛(77)\n");
        assert_eq!(kinds(&p), [(1, DiagKind::BadMove)]);
        assert_eq!(usi_main(&p.record), ["7g7f"]);
        let p = read("   1 投了\n   2 ７六歩(77)\n");
        assert_eq!(kinds(&p), [(2, DiagKind::AfterEnd)]);
    }

    #[test]
    fn handicap_and_diagram() {
        let p = read("手合割：香落ち\n   1 ３四歩(33)\n");
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        assert_eq!(p.record.initial.handicap.map(|h| h.name), Some("香落ち"));
        let p = read("手合割：詰将棋\n");
        assert_eq!(p.record.initial.position, tsume_position());
        let p = read("手合割：謎落ち\n");
        assert_eq!(kinds(&p), [(1, DiagKind::BadHeader)]);
    }

    #[test]
    fn writes_kifu_for_windows_lines() {
        let p = read(
            "   1 ７六歩(77)   ( 0:16/00:00:16)+\n   2 投了   ( 0:05/00:10:00)\n変化：1手\n   1 ２二角成(88)   ( 0:01/00:00:01)\n",
        );
        let w = write(&p.record, &KifOptions::default());
        assert!(
            w.text.contains("\n   1 ７六歩(77)   ( 0:16/00:00:16)+\n"),
            "{}",
            w.text
        );
        assert!(
            w.text
                .contains("\n   2 投了         ( 0:05/00:10:00)\nまで1手で先手の勝ち\n"),
            "{}",
            w.text
        );
        assert!(
            w.text
                .contains("\n\n変化：1手\n   1 ２二角成(88) ( 0:01/00:00:01)\n"),
            "{}",
            w.text
        );
        assert!(w.text.starts_with("手合割：平手\n"));
    }

    #[test]
    fn time_fields_are_padded_like_kifu_for_windows() {
        let time = |spent: u64, total: u64| {
            let mut s = String::new();
            push_time(&mut s, spent * 1000, total * 1000);
            s
        };
        assert_eq!(time(16, 16), "( 0:16/00:00:16)");
        assert_eq!(time(0, 0), "( 0:00/00:00:00)");
        assert_eq!(time(9 * 60 + 5, 3600 + 61), "( 9:05/01:01:01)");
        assert_eq!(time(99 * 60 + 59, 99 * 3600 + 3599), "(99:59/99:59:59)");
        assert_eq!(time(125 * 60 + 30, 2 * 3600 + 330), "(125:30/02:05:30)");
        assert_eq!(time(61, 100 * 3600), "( 1:01/100:00:00)");
        let mut s = String::new();
        push_num(&mut s, 7, 4, false);
        push_num(&mut s, 12345, 2, true);
        push_num(&mut s, 3, 0, false);
        assert_eq!(s, "   7123453");
    }

    #[test]
    fn counted_mate_words_are_endings() {
        let p = read("手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 61手詰\n");
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        let r = &p.record;
        let last = *r.main_line().last().unwrap();
        assert_eq!(
            r.node(last).special(),
            Some(&Special::Other("61手詰".into()))
        );
        // and it survives writing
        let back = read(&write(r, &KifOptions::default()).text);
        assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    }
}
