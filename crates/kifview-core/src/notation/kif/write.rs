//! The KIF writer: Kifu for Windows style text; see [`write`].

use super::KifOptions;
use super::dialect::{KifDialect, MateResult, TimeStyle, width};
use super::header::{handicap_line, moves_before_line, one_line, write_fields, written_preset};
use super::line::{KifLine, classify, is_ending_word};
use crate::notation::bod;
use crate::notation::japanese;
use crate::notation::loss::{self, Loss, Lost};
use crate::notation::{Written, lines};
use crate::record::{NodeId, Record, Special, Step};
use crate::rules::Color;
use std::borrow::Cow;

/// Appends `n` right-aligned in `width` columns (spaces, or zeros with `zero`).
pub(super) fn push_num(out: &mut String, n: u64, width: usize, zero: bool) {
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
pub(super) fn push_time(out: &mut String, spent_ms: u64, total_ms: u64) {
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

/// Appends the time in Shogidokoro's style, `(00:16 / 00:00:16)`.
/// With `spaced` false, shogidb2's `(00:16/00:00:16)`.
fn push_dokoro_time(out: &mut String, spent_ms: u64, total_ms: u64, spaced: bool) {
    let (s, t) = (spent_ms / 1000, total_ms / 1000);
    out.push('(');
    push_num(out, s / 60, 2, true);
    out.push(':');
    push_num(out, s % 60, 2, true);
    out.push_str(if spaced { " / " } else { "/" });
    push_num(out, t / 3600, 2, true);
    out.push(':');
    push_num(out, (t / 60) % 60, 2, true);
    out.push(':');
    push_num(out, t % 60, 2, true);
    out.push(')');
}

fn is_encoding_declaration(l: &str) -> bool {
    l.starts_with("#KIF") && l.contains("encoding=")
}

/// The ending as KIF writes it: a word its reader reads back as that ending, else 中断 (the
/// word is named in the losses).
fn kif_special<'a>(s: &'a Special, unreadable: &mut Vec<String>) -> Cow<'a, Special> {
    if is_ending_word(s.kif_word()) {
        Cow::Borrowed(s)
    } else {
        unreadable.push(s.kif_word().to_string());
        Cow::Owned(Special::Interrupt)
    }
}

/// Line breaks counted per kind of one-line text.
#[derive(Default)]
struct Breaks {
    program: usize,
    bookmark: usize,
}

/// Writes `record` as KIF in Kifu for Windows style: the head's remarks (`#`), header, 手合割
/// or a board diagram, move lines with times when the record has any (a declined promotion
/// without `不成`, as the KIF specification says), comments, remarks, bookmarks, the closing
/// `まで…` line (Kifu for Windows' wording), then `変化：N手` blocks depth first (deepest
/// branch point first).
pub fn write(record: &Record, opts: &KifOptions) -> Written {
    let mut losses = Vec::new();
    let mut breaks = Breaks::default();
    let mut unreadable = Vec::new();
    let mut out = String::with_capacity(256 + record.nodes.len() * 40);
    if let Some(l) = &opts.encoding_line {
        out.push_str(l);
        out.push('\n');
    }
    let program = record
        .program_lines
        .iter()
        .filter(|l| !is_encoding_declaration(l));
    for l in program {
        if !l.starts_with('#') {
            out.push('#');
        }
        out.push_str(&one_line(l, &mut breaks.program));
        out.push('\n');
    }
    let init = &record.initial;
    let preset = written_preset(init);
    write_fields(
        record,
        &mut out,
        &mut losses,
        |line, key, value| classify(line) == KifLine::Header(key, value),
        preset,
        |out| {
            match preset {
                Some(h) => {
                    handicap_line(h, out);
                    out.pop();
                    pad_handicap(out, &opts.dialect);
                }
                None => {
                    if let Some(name) = opts.dialect.board_handicap {
                        out.push_str("手合割：");
                        out.push_str(name);
                        pad_handicap(out, &opts.dialect);
                    }
                    let from = out.len();
                    bod::write_position(&init.position, out, false);
                    if !opts.dialect.hand_pad {
                        unpad_hands(out, from);
                    }
                }
            }
            moves_before_line(record, out);
            // A diagram with White to move says so; a turn line the file had is kept.
            let white = init.position.side_to_move() == Color::White;
            if (white && preset.is_none()) || record.layout.turn_line {
                out.push_str(if white { "後手番\n" } else { "先手番\n" });
            }
        },
    );
    match opts.dialect.short_moves_header {
        0 => out.push_str("手数----指手---------消費時間--\n"),
        n => {
            out.push_str("手数----指手");
            out.extend(std::iter::repeat_n('-', usize::from(n)));
            out.push('\n');
        }
    }
    write_notes(record, NodeId::ROOT, &mut out, &mut breaks);

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
    let mut ended_with_result = false;
    while let Some((start, header)) = stack.pop() {
        if header {
            if opts.dialect.blank_for_result && !out.ends_with("\n\n") && !ended_with_result {
                out.push('\n');
            }
            out.push('\n');
            out.push_str("変化：");
            push_num(&mut out, u64::from(record.move_number(start)), 0, false);
            out.push_str("手\n");
        }
        let mut line = Vec::new();
        let mut id = start;
        loop {
            line.push(id);
            let times = has_times.then_some(&totals[..]);
            write_node(record, id, times, &opts.dialect, &mut out, &mut unreadable);
            write_notes(record, id, &mut out, &mut breaks);
            match record.node(id).children.first() {
                Some(&c) => id = c,
                None => break,
            }
        }
        let result = if main {
            opts.result_line && opts.dialect.result_line
        } else {
            opts.dialect.variation_results
        };
        main = false;
        ended_with_result = false;
        if result && let Step::Special(s) = &record.node(id).step {
            ended_with_result = true;
            let s = kif_special(s, &mut Vec::new());
            push_result(&mut out, record, id, &s, &opts.dialect);
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
    out.extend(std::iter::repeat_n(
        '\n',
        usize::from(opts.dialect.trailing_blanks),
    ));
    if !opts.dialect.final_newline {
        out.pop();
    }
    let line_breaks = |place, n| Loss::some(Lost::LineBreaks { place }, n);
    losses.extend(line_breaks("remark (# line)", breaks.program));
    losses.extend(line_breaks("bookmark", breaks.bookmark));
    let fractions = record
        .nodes
        .iter()
        .filter(|n| n.time.is_some_and(|t| t.spent_ms % 1000 != 0))
        .count();
    losses.extend(Loss::some(Lost::SecondFractions { hint: None }, fractions));
    loss::endings_written_as_interrupt(&mut losses, unreadable);
    Written { text: out, losses }
}

/// Writes one move line; `totals` (the running total of each node) when the record has times.
/// Ends a `手合割` line: its padding and the line break.
fn pad_handicap(out: &mut String, dialect: &KifDialect) {
    out.extend(std::iter::repeat_n(
        '\u{3000}',
        usize::from(dialect.handicap_pad),
    ));
    out.push('\n');
}

/// The closing line after the main line (or a variation) that ends in `s` at `id`.
fn push_result(out: &mut String, record: &Record, id: NodeId, s: &Special, dialect: &KifDialect) {
    let plies = record.move_number(id).saturating_sub(1);
    match (s, dialect.mate_result) {
        (Special::Mate, MateResult::Tsume) => out.push_str(&format!("まで{plies}手詰")),
        (Special::Mate, MateResult::Short) => out.push_str(&format!("まで{plies}手で詰")),
        _ => out.push_str(&s.result_line(
            plies,
            record.side_to_move_at(id),
            record.initial.is_handicap_game(),
        )),
    }
    out.push('\n');
}

/// Drops the `　` after the last piece of the hand lines written from byte `from` on.
fn unpad_hands(out: &mut String, from: usize) {
    let text: String = lines(&out[from..])
        .map(|l| {
            if l.contains("の持駒：") {
                l.strip_suffix('\u{3000}').unwrap_or(l)
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    out.truncate(from);
    out.push_str(&text);
}

fn write_node(
    record: &Record,
    id: NodeId,
    totals: Option<&[u64]>,
    dialect: &KifDialect,
    out: &mut String,
    unreadable: &mut Vec<String>,
) {
    let n = record.node(id);
    let number_width = if dialect.padded_numbers { 4 } else { 0 };
    push_num(out, u64::from(record.move_number(id)), number_width, false);
    out.push(' ');
    let body_start = out.len();
    match &n.step {
        Step::Move(md) => {
            let prev_to = n
                .parent
                .and_then(|p| record.node(p).move_data())
                .map(|m| m.mv.to());
            japanese::push_kif_file_move(out, md, prev_to);
            let spaced = out[body_start..].contains("同\u{3000}");
            if (dialect.ryu && out[body_start..].contains('龍')) || (!dialect.same_space && spaced)
            {
                let mut body = out[body_start..].to_string();
                if !dialect.same_space {
                    body = body.replace("同\u{3000}", "同");
                }
                if dialect.ryu {
                    body = body.replace('龍', "竜");
                }
                out.truncate(body_start);
                out.push_str(&body);
            }
        }
        Step::Special(s) => out.push_str(kif_special(s, unreadable).kif_word()),
        Step::Root => {}
    }
    let plus = dialect.plus_marks
        && match n.parent {
            Some(p) => record.node(p).children.last() != Some(&id),
            None => false,
        };
    if totals.is_some() || plus {
        let body = &out[body_start..];
        let w = if dialect.field_in_chars {
            body.chars().count()
        } else {
            width(body)
        };
        let field = usize::from(dialect.move_field);
        let pad = if w < field { field - w } else { 1 };
        for _ in 0..pad {
            out.push(' ');
        }
    }
    if totals.is_none() && !plus {
        let w = width(&out[body_start..]);
        let field = usize::from(dialect.untimed_field);
        out.extend(std::iter::repeat_n(' ', field.saturating_sub(w)));
    }
    if let Some(totals) = totals {
        let time = n.time.unwrap_or_default();
        let total = totals[id.index()];
        match dialect.time {
            TimeStyle::Kakinoki => push_time(out, time.spent_ms, total),
            TimeStyle::Shogidokoro => push_dokoro_time(out, time.spent_ms, total, true),
            TimeStyle::ZeroPadded => push_dokoro_time(out, time.spent_ms, total, false),
        }
    }
    if plus {
        out.push('+');
    }
    out.push('\n');
}

fn write_notes(record: &Record, id: NodeId, out: &mut String, breaks: &mut Breaks) {
    let n = record.node(id);
    if n.comment.is_empty() {
    } else if memchr::memchr2(b'\n', b'\r', n.comment.as_bytes()).is_none() {
        // One line (most comments): written as it is.
        out.push('*');
        out.push_str(&n.comment);
        out.push('\n');
    } else {
        // A lone CR ends a line for the reader too: it starts a new comment line.
        for l in lines(&n.comment) {
            out.push('*');
            out.push_str(l);
            out.push('\n');
        }
    }
    for r in &n.remarks {
        out.push('#');
        out.push_str(&one_line(r, &mut breaks.program));
        out.push('\n');
    }
    if let Some(b) = &n.bookmark {
        out.push('&');
        out.push_str(&one_line(b, &mut breaks.bookmark));
        out.push('\n');
    }
}
