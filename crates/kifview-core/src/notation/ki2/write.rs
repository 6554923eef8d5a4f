//! The KI2 writer: the KIF header part, then the moves six to a line, `まで…` endings and
//! `変化：N手` blocks. Each variation starts from the position kept for its branch point, so
//! writing is linear however deep variations nest.

use super::moves::move_text;
use super::read::{read_end_of_game, reads_as_header, strip_made};
use crate::notation::bod;
use crate::notation::kif::{handicap_line, moves_before_line, one_line, write_fields};
use crate::notation::loss::{self, Loss, Lost};
use crate::notation::{Written, lines};
use crate::record::{NodeId, Record, Special, Step};
use crate::rules::{Color, Handicap, Position};

/// Handicap names that KI2 readers in the wild (tsshogi, ShogiHome) accept on a `手合割` line
/// alone; the others are written as a board diagram.
const WIDELY_KNOWN_HANDICAPS: [&str; 11] = [
    "平手",
    "香落ち",
    "右香落ち",
    "角落ち",
    "飛車落ち",
    "飛香落ち",
    "二枚落ち",
    "四枚落ち",
    "六枚落ち",
    "八枚落ち",
    "十枚落ち",
];

/// The preset written as a `手合割` line, if the initial position is one readers know.
fn preset(record: &Record) -> Option<Handicap> {
    Handicap::matching(&record.initial.position)
        .filter(|h| WIDELY_KNOWN_HANDICAPS.contains(&h.name))
}

/// The `手合割` line or the board diagram for the initial position.
fn position_text(record: &Record, out: &mut String) {
    let initial = &record.initial;
    let pos = &initial.position;
    if let Some(h) = preset(record) {
        handicap_line(h, out);
        moves_before_line(record, out);
        return;
    }
    let handicap = initial.is_handicap_game();
    bod::write_position(pos, out, handicap);
    moves_before_line(record, out);
    out.push_str(if pos.side_to_move() == Color::Black {
        if handicap {
            "下手番\n"
        } else {
            "先手番\n"
        }
    } else if handicap {
        "上手番\n"
    } else {
        "後手番\n"
    });
}

/// Counts of what KI2 text cannot hold.
#[derive(Default)]
struct Counts {
    timed: usize,
    program_breaks: usize,
    bookmark_breaks: usize,
    /// Ending words that would not read back, written as 中断.
    unreadable: Vec<String>,
}

struct Out {
    text: String,
    /// Moves on the current text line (0 = at a line start).
    in_line: usize,
    last_len: usize,
}

impl Out {
    fn end_line(&mut self) {
        if self.in_line > 0 {
            self.text.push('\n');
            self.in_line = 0;
        }
    }
    fn push_move(&mut self, s: &str) {
        if self.in_line > 0 {
            // Moves line up in columns of 12 cells; a long move (▲３三角不成) still gets a space.
            let pad = 12usize.saturating_sub(self.last_len * 2).max(1);
            self.text.extend(std::iter::repeat_n(' ', pad));
        }
        self.text.push_str(s);
        self.last_len = s.chars().count();
        self.in_line += 1;
        if self.in_line >= 6 {
            self.end_line();
        }
    }
    fn notes(&mut self, record: &Record, id: NodeId, counts: &mut Counts) {
        let node = record.node(id);
        if !node.comment.is_empty() {
            self.end_line();
            // A lone CR ends a line for the reader too: it starts a new comment line.
            for l in lines(&node.comment) {
                self.text.push('*');
                self.text.push_str(l);
                self.text.push('\n');
            }
        }
        // The start position's remarks are written with the head's (KI2 has no line where the
        // moves start: read back, they are the head's).
        let remarks = if id == NodeId::ROOT {
            &[][..]
        } else {
            &node.remarks[..]
        };
        for r in remarks {
            self.end_line();
            self.text.push('#');
            self.text.push_str(&one_line(r, &mut counts.program_breaks));
            self.text.push('\n');
        }
        if let Some(b) = &node.bookmark {
            self.end_line();
            self.text.push('&');
            self.text
                .push_str(&one_line(b, &mut counts.bookmark_breaks));
            self.text.push('\n');
        }
    }
    /// The `まで…` line of an ending; an ending the reader would not read back the same is
    /// written as 中断.
    fn ending(&mut self, record: &Record, id: NodeId, sp: &Special, counts: &mut Counts) {
        self.end_line();
        let side = record.side_to_move_at(id);
        let handicap = record.initial.is_handicap_game();
        let plies = record.move_number(id).saturating_sub(1);
        let reads_back = |line: &str| {
            !line.contains(['\n', '\r'])
                && strip_made(line).map(read_end_of_game).as_ref() == Some(sp)
        };
        let mut line = sp.result_line(plies, side, handicap);
        if *sp == Special::Mate && !reads_back(&line) {
            // KI2 has no move line to carry 詰み, and `…の勝ち` reads as 投了: `まで61手で詰み`,
            // which tsshogi (ShogiHome) and json-kifu-format read as mate (`まで61手詰`, the
            // tsume form, tsshogi reads as an unknown ending; it is still read).
            line = format!("まで{plies}手で詰み");
        }
        if !reads_back(&line) {
            counts.unreadable.push(sp.kif_word().to_string());
            line = Special::Interrupt.result_line(plies, side, handicap);
        }
        self.text.push_str(&line);
        self.text.push('\n');
    }
}

/// Writes a record as KI2 (`\n` line ends). Times cannot be held and are listed as losses.
pub fn write(record: &Record) -> Written {
    let mut out = Out {
        text: String::with_capacity(256 + record.nodes.len() * 12),
        in_line: 0,
        last_len: 0,
    };
    let mut counts = Counts::default();
    let mut losses = Vec::new();
    for l in &record.program_lines {
        let lower = l.to_ascii_lowercase();
        if lower.contains("encoding=") {
            continue;
        }
        out.text.push_str(&one_line(l, &mut counts.program_breaks));
        out.text.push('\n');
    }
    for r in &record.node(NodeId::ROOT).remarks {
        out.text.push('#');
        out.text.push_str(&one_line(r, &mut counts.program_breaks));
        out.text.push('\n');
    }
    write_fields(
        record,
        &mut out.text,
        &mut losses,
        reads_as_header,
        preset(record),
        |text| position_text(record, text),
    );
    out.notes(record, NodeId::ROOT, &mut counts);

    // Lines to write, each with the position before its first node; the root line starts at
    // the root itself.
    let mut stack: Vec<(NodeId, Position)> = vec![(NodeId::ROOT, record.initial.position.clone())];
    // Alternatives met along the line being written, with the position at their branch point.
    let mut alternatives: Vec<(NodeId, Position)> = Vec::new();
    while let Some((start, mut pos)) = stack.pop() {
        if start != NodeId::ROOT {
            out.end_line();
            out.text
                .push_str(&format!("\n変化：{}手\n", record.move_number(start)));
        }
        let mut id = start;
        loop {
            let node = record.node(id);
            if id != NodeId::ROOT {
                if node.time.is_some() {
                    counts.timed += 1;
                }
                match &node.step {
                    Step::Move(md) => {
                        let prev_to = node
                            .parent
                            .and_then(|p| record.node(p).move_data())
                            .map(|m| m.mv.to());
                        let s = move_text(&pos, md, prev_to);
                        out.push_move(&s);
                        let _ = pos.play_unchecked(md.mv);
                    }
                    Step::Special(sp) => out.ending(record, id, sp, &mut counts),
                    Step::Root => {}
                }
                out.notes(record, id, &mut counts);
            }
            match node.children.first() {
                Some(&c) => {
                    for &alt in &node.children[1..] {
                        alternatives.push((alt, pos.clone()));
                    }
                    id = c;
                }
                None => break,
            }
        }
        out.end_line();
        // Alternatives along this line, deepest branch point first, each in branch order.
        for group in group_by_parent(record, &alternatives) {
            for entry in group.iter().rev() {
                stack.push(entry.clone());
            }
        }
        alternatives.clear();
    }
    let c = counts;
    losses.extend(Loss::some(Lost::Times, c.timed));
    losses.extend(Loss::some(
        Lost::LineBreaks {
            place: "remark (# line)",
        },
        c.program_breaks,
    ));
    losses.extend(Loss::some(
        Lost::LineBreaks { place: "bookmark" },
        c.bookmark_breaks,
    ));
    loss::endings_written_as_interrupt(&mut losses, c.unreadable);
    Written {
        text: out.text,
        losses,
    }
}

/// `entries` (in the order met along a line) cut into runs that share a branch point.
fn group_by_parent<'a>(
    record: &Record,
    entries: &'a [(NodeId, Position)],
) -> impl Iterator<Item = &'a [(NodeId, Position)]> {
    entries.chunk_by(move |a, b| record.node(a.0).parent == record.node(b.0).parent)
}
