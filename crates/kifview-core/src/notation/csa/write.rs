//! The CSA writer: main line only, with a list of what CSA could not hold.

use super::{CsaOptions, CsaVersion, HEADER_KEYS};
use crate::notation::loss::{Census, Loss, Lost};
use crate::notation::{TextEncoding, Written, lines};
use crate::record::{Header, Record, Special, Step};
use crate::rules::{Color, PieceKind, Position, Square};
use std::fmt::Write as _;

/// Writes the main line of `record` as CSA text (`\n` line ends).
pub fn write(record: &Record, opts: &CsaOptions) -> Written {
    let v3 = opts.version == CsaVersion::V30;
    let mut out = String::with_capacity(256 + record.nodes.len() * 24);
    let mut losses = Vec::new();
    if v3 {
        out.push_str("'CSA encoding=");
        out.push_str(match opts.encoding {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::ShiftJis => "SHIFT_JIS",
            TextEncoding::EucJp => "EUC-JP",
        });
        out.push('\n');
        out.push_str("V3.0\n");
    } else {
        out.push_str("V2.2\n");
    }
    let mut remarks = Remarks::default();
    let not_dates = write_header(record, v3, &mut out, &mut losses);
    // The head's remarks after the header, then the dates that were not CSA dates (read
    // back, they are remarks of the head too: written again, the same text).
    for l in &record.program_lines {
        // KIF's own declaration is not carried over (V3.0 writes its own).
        if !(l.starts_with("#KIF") && l.contains("encoding=")) {
            remarks.write(l.strip_prefix('#').unwrap_or(l), &mut out);
        }
    }
    for l in &not_dates {
        remarks.write(l, &mut out);
    }
    let pos = &record.initial.position;
    write_position(pos, &mut out);
    out.push(sign(pos.side_to_move()));
    out.push('\n');

    let mut ms_lost = 0usize;
    let mut lost_ending = None;
    let mut ending_comment = 0;
    write_comment(&record.node(record.root()).comment, &mut out);
    remarks.write_all(&record.node(record.root()).remarks, &mut out);
    let main = record.main_line();
    for &id in &main[1..] {
        let node = record.node(id);
        match &node.step {
            Step::Move(m) => {
                out.push(sign(m.color));
                match m.mv.from() {
                    Some(f) => push_square(&mut out, f),
                    None => out.push_str("00"),
                }
                push_square(&mut out, m.mv.to());
                out.push_str(m.piece_after().csa());
                out.push('\n');
            }
            Step::Special(s) => match s.csa_word(record.side_to_move_at(id)).or_else(|| {
                // A CSA-style word read from a CSA file (`%MATTA`) goes back as it was, unless
                // it would read as another ending (`%%+ILLEGAL_ACTION` was read as the word
                // `+ILLEGAL_ACTION`).
                match s {
                    Special::Other(w)
                        if csa_style_key(w)
                            && Special::from_csa(&format!("%{w}"), record.side_to_move_at(id))
                                == *s =>
                    {
                        Some(format!("%{w}"))
                    }
                    _ => None,
                }
            }) {
                Some(w) => {
                    out.push_str(&w);
                    out.push('\n');
                }
                None => {
                    ending_comment = usize::from(!node.comment.is_empty());
                    remarks.lost += node.remarks.len();
                    lost_ending = Some(Loss::new(
                        Lost::Ending {
                            word: s.kif_word().to_string(),
                            written_as: None,
                        },
                        1,
                    ));
                    break;
                }
            },
            Step::Root => {}
        }
        if let Some(t) = node.time {
            let secs = t.spent_ms / 1000;
            let ms = t.spent_ms % 1000;
            out.push('T');
            push_u64(&mut out, secs);
            if ms != 0 && v3 {
                out.push('.');
                let digits = [ms / 100, ms / 10 % 10, ms % 10];
                let keep = if ms % 100 == 0 {
                    1
                } else if ms % 10 == 0 {
                    2
                } else {
                    3
                };
                for d in &digits[..keep] {
                    out.push(char::from(b'0' + *d as u8));
                }
            } else if ms != 0 {
                ms_lost += 1;
            }
            out.push('\n');
        }
        write_comment(&node.comment, &mut out);
        remarks.write_all(&node.remarks, &mut out);
    }

    let c = Census::along(record, &main);
    // Comments in variations go with them; the ending's comment too when the ending goes.
    let lost_comments = c.comments - c.main_comments + ending_comment;
    losses.extend(lost_ending);
    losses.extend(c.variations_loss());
    losses.extend(Loss::some(Lost::Comments, lost_comments));
    losses.extend(Loss::some(Lost::Bookmarks, c.bookmarks));
    // Remarks in variations go with them.
    let main_remarks: usize = main.iter().map(|&id| record.node(id).remarks.len()).sum();
    let off_main = record.remark_count() - record.program_lines.len() - main_remarks;
    losses.extend(Loss::some(Lost::ProgramLines, remarks.lost + off_main));
    losses.extend(Loss::some(
        Lost::LineBreaks { place: "remark" },
        remarks.breaks,
    ));
    losses.extend(crate::notation::loss::move_numbers(record));
    losses.extend(Loss::some(
        Lost::SecondFractions {
            hint: Some("V2.2 has whole seconds; V3.0 keeps them"),
        },
        ms_lost,
    ));
    Written { text: out, losses }
}

fn sign(c: Color) -> char {
    match c {
        Color::Black => '+',
        Color::White => '-',
    }
}

fn push_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(char::from(b));
    }
}

fn push_square(out: &mut String, sq: Square) {
    out.push((b'0' + sq.file()) as char);
    out.push((b'0' + sq.rank()) as char);
}

/// Remark lines (`'x`) written, and those CSA cannot hold as remarks.
#[derive(Default)]
struct Remarks {
    /// Remarks left out: a text a reader would take for a comment (`'*…`) or for the
    /// encoding declaration, or that belongs to an ending CSA cannot write.
    lost: usize,
    /// Line breaks in a remark (written as spaces).
    breaks: usize,
}

impl Remarks {
    fn write(&mut self, text: &str, out: &mut String) {
        let line = format!("'{}", text.replace("\r\n", " ").replace(['\r', '\n'], " "));
        self.breaks += usize::from(text.contains(['\r', '\n']));
        if line.starts_with("'*") || super::is_encoding_line(&line) {
            self.lost += 1;
            return;
        }
        out.push_str(&line);
        out.push('\n');
    }
    fn write_all(&mut self, remarks: &[String], out: &mut String) {
        for r in remarks {
            self.write(r, out);
        }
    }
}

/// Writes a comment as `'*` lines, an empty line as `'*` alone (the reader keeps it).
fn write_comment(comment: &str, out: &mut String) {
    if comment.is_empty() {
        return;
    }
    // A lone CR ends a line for the reader too: it starts a new comment line.
    for line in lines(comment) {
        // Whatever its first character: a comment line (`'*'quote`), never a remark.
        out.push_str("'*");
        out.push_str(line);
        out.push('\n');
    }
}

/// Is `key` a CSA-style key (`MAX_MOVES`, `TIME+`) that CSA readers accept after `$`?
fn csa_style_key(key: &str) -> bool {
    !key.is_empty()
        && key.bytes().all(|b| {
            b.is_ascii_uppercase() || b.is_ascii_digit() || matches!(b, b'_' | b'+' | b'-')
        })
}

/// Does `v` look like a V3.0 `$TIME` value (`900+0+5`, `600+10`)?
fn v3_time_value(v: &str) -> bool {
    let parts: Vec<&str> = v.split('+').collect();
    parts.len() <= 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

/// Writes the names and `$` fields; returns the date fields that are not dates CSA can hold,
/// as remark text (`開始日時：2005/11/29･30日`), named in `losses`.
fn write_header(
    record: &Record,
    v3: bool,
    out: &mut String,
    losses: &mut Vec<Loss>,
) -> Vec<String> {
    let h = &record.header;
    let mut breaks = 0;
    let mut padded = 0;
    let mut lost: Vec<&str> = Vec::new();
    // An empty name is left out (as tsshogi writes; shogi-kifu-converter rejects `N+` alone)
    // and named as lost.
    for (sign, name, key) in [
        ('+', h.black_name(), black_key(h)),
        ('-', h.white_name(), white_key(h)),
    ] {
        match name {
            Some(n) if n.trim().is_empty() => lost.push(key),
            Some(n) => {
                let _ = writeln!(out, "N{sign}{}", value_text(n, &mut breaks, &mut padded));
            }
            None => {}
        }
    }
    let mut not_dates = Vec::new();
    let mut not_date_keys = Vec::new();
    let mut written: Vec<&str> = Vec::new();
    let (black_key, white_key) = (black_key(h), white_key(h));
    let has_event = h.get("棋戦").is_some();
    for f in &h.fields {
        let key = f.key.as_str();
        if key == black_key || key == white_key {
            continue;
        }
        let csa_key: Option<&str> = match key {
            "先手" | "後手" | "下手" | "上手" => None,
            "表題" if !has_event => Some("EVENT"),
            "持ち時間" => Some(if v3 && v3_time_value(f.value.trim()) {
                "TIME"
            } else {
                "TIME_LIMIT"
            }),
            _ => HEADER_KEYS
                .iter()
                .find(|(_, name)| *name == key)
                .map(|(k, _)| *k)
                .or_else(|| {
                    let mapped = HEADER_KEYS.iter().any(|(k, _)| *k == key);
                    (csa_style_key(key) && !mapped).then_some(key)
                }),
        };
        match csa_key {
            Some(k) if !written.contains(&k) => {
                let value = value_text(&f.value, &mut breaks, &mut padded);
                let value = if k == "START_TIME" || k == "END_TIME" {
                    match csa_date(&value) {
                        Some(d) => d,
                        None if value.trim().is_empty() => value,
                        None => {
                            // Not a date CSA readers can read (`2005/11/29･30日`): kept as a
                            // remark, named as lost as a field.
                            not_dates.push(format!("{key}：{value}"));
                            not_date_keys.push(key.to_string());
                            continue;
                        }
                    }
                } else {
                    value
                };
                written.push(k);
                let _ = writeln!(out, "${k}:{value}");
            }
            _ => lost.push(key),
        }
    }
    let lost: Vec<String> = lost.into_iter().map(String::from).collect();
    losses.extend(Loss::some(Lost::Headers(lost.clone()), lost.len()));
    losses.extend(Loss::some(
        Lost::NotCsaDates(not_date_keys.clone()),
        not_date_keys.len(),
    ));
    losses.extend(Loss::some(
        Lost::LineBreaks {
            place: "header value",
        },
        breaks,
    ));
    losses.extend(Loss::some(
        Lost::TrailingSpace {
            place: "header value",
        },
        padded,
    ));
    not_dates
}

/// The key of Black's name: `先手`, else `下手`.
fn black_key(h: &Header) -> &'static str {
    if h.get("先手").is_some() {
        "先手"
    } else {
        "下手"
    }
}

/// The key of White's name: `後手`, else `上手`.
fn white_key(h: &Header) -> &'static str {
    if h.get("後手").is_some() {
        "後手"
    } else {
        "上手"
    }
}

/// A header value as one CSA line: line breaks as spaces (counted in `breaks`), white space at
/// the end taken off (counted in `padded`: the reader trims lines, and text editors do too).
fn value_text(v: &str, breaks: &mut usize, padded: &mut usize) -> String {
    let mut v = if v.contains(['\r', '\n']) {
        *breaks += 1;
        v.replace("\r\n", " ").replace(['\r', '\n'], " ")
    } else {
        v.to_string()
    };
    let kept = v.trim_end().len();
    if kept < v.len() {
        *padded += 1;
        v.truncate(kept);
    }
    v
}

/// Turns KIF dates (`2018/08/25(土) 23:56`, `2018年8月25日`) into CSA's `2018/08/25 23:56:00`
/// (or `2018/08/25` without a time); `None` for text that is not such a date.
pub(super) fn csa_date(v: &str) -> Option<String> {
    let norm: String = v
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '／' => '/',
            '：' => ':',
            '\u{3000}' => ' ',
            c => c,
        })
        .collect();
    let parse = || -> Option<String> {
        let mut it = norm.chars().peekable();
        let num = |it: &mut std::iter::Peekable<std::str::Chars<'_>>, max: usize| {
            let mut n = 0u32;
            let mut len = 0;
            while let Some(&c) = it.peek() {
                match c.to_digit(10) {
                    Some(d) if len < max => {
                        n = n * 10 + d;
                        len += 1;
                        it.next();
                    }
                    _ => break,
                }
            }
            (len > 0).then_some(n)
        };
        let y = num(&mut it, 4)?;
        if !matches!(it.next()?, '/' | '-' | '年' | '.') {
            return None;
        }
        let m = num(&mut it, 2)?;
        if !matches!(it.next()?, '/' | '-' | '月' | '.') {
            return None;
        }
        let d = num(&mut it, 2)?;
        if it.peek() == Some(&'日') {
            it.next();
        }
        if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
            return None;
        }
        let mut s = format!("{y:04}/{m:02}/{d:02}");
        // A weekday in brackets.
        if matches!(it.peek(), Some('(') | Some('（')) {
            for c in it.by_ref() {
                if c == ')' || c == '）' {
                    break;
                }
            }
        }
        while it.peek().is_some_and(|c| c.is_whitespace()) {
            it.next();
        }
        if it.peek().is_none() {
            return Some(s);
        }
        let hh = num(&mut it, 2)?;
        if it.next()? != ':' {
            return None;
        }
        let mm = num(&mut it, 2)?;
        let ss = if it.peek() == Some(&':') {
            it.next();
            num(&mut it, 2)?
        } else {
            0
        };
        while it.peek().is_some_and(|c| c.is_whitespace()) {
            it.next();
        }
        if it.peek().is_some() || hh > 23 || mm > 59 || ss > 60 {
            return None;
        }
        let _ = write!(s, " {hh:02}:{mm:02}:{ss:02}");
        Some(s)
    };
    parse()
}

/// `PI` with removals when the position is the start position minus some pieces with empty
/// hands (every handicap preset); otherwise `P1`..`P9` and `P+`/`P-` (with `00AL` for
/// tsume-style positions).
fn write_position(pos: &Position, out: &mut String) {
    let start = Position::startpos();
    let hands_empty = [Color::Black, Color::White]
        .iter()
        .all(|&c| PieceKind::HAND.iter().all(|&k| pos.hand_count(c, k) == 0));
    if hands_empty {
        let mut removals = String::new();
        let mut ok = true;
        'outer: for rank in 1..=9u8 {
            for file in (1..=9u8).rev() {
                let Some(sq) = Square::new(file, rank) else {
                    continue;
                };
                match (start.piece_at(sq), pos.piece_at(sq)) {
                    (a, b) if a == b => {}
                    (Some(a), None) => {
                        push_square(&mut removals, sq);
                        removals.push_str(a.kind.csa());
                    }
                    _ => {
                        ok = false;
                        break 'outer;
                    }
                }
            }
        }
        if ok {
            out.push_str("PI");
            out.push_str(&removals);
            out.push('\n');
            return;
        }
    }
    for rank in 1..=9u8 {
        let _ = write!(out, "P{rank}");
        for file in (1..=9u8).rev() {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    out.push(sign(p.color));
                    out.push_str(p.kind.csa());
                }
                None => out.push_str(" * "),
            }
        }
        out.push('\n');
    }
    let all_to_white = pos.king_square(Color::Black).is_none()
        && pos.missing_pieces().is_empty()
        && PieceKind::HAND
            .iter()
            .any(|&k| pos.hand_count(Color::White, k) > 0);
    for c in [Color::Black, Color::White] {
        if c == Color::White && all_to_white {
            out.push_str("P-00AL\n");
            continue;
        }
        let hand = pos.hand(c);
        if hand.is_empty() {
            continue;
        }
        out.push('P');
        out.push(sign(c));
        for (k, n) in hand {
            for _ in 0..n {
                out.push_str("00");
                out.push_str(k.csa());
            }
        }
        out.push('\n');
    }
}
