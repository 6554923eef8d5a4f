//! SFEN and USI `position` commands: `sfen …`, a bare SFEN, `position startpos moves …`,
//! `position sfen … moves …`, `startpos moves …`, `startpos`, or `moves …` alone (from the
//! even-game start). Only the main line can be held.

use super::builder::{RecordBuilder, Style};
use super::loss::{Census, beyond_the_moves};
use super::{DiagKind, Diagnostic, Parsed, Written};
use crate::record::{Initial, MoveData, NodeId, Record};
use crate::rules::{Handicap, Move, Position};

/// A line read as a position command: the record of its start and the moves up to the first
/// bad one, and the warning that stopped them.
struct Line {
    parsed: Parsed,
    moves: Vec<MoveData>,
}

/// Reads the start of a command (`position`, `startpos`, `sfen …`, a bare SFEN, `moves`).
/// Returns the position and the index of the first token after it.
fn read_start(tokens: &[&str]) -> Result<(Position, usize), String> {
    let mut i = 0;
    if tokens.first() == Some(&"position") {
        i = 1;
    }
    match tokens.get(i).copied() {
        None => Err("expected startpos or an SFEN after 'position'".into()),
        Some("startpos") => Ok((Position::startpos(), i + 1)),
        Some("moves") => Ok((Position::startpos(), i)),
        Some(t) => {
            let start = if t == "sfen" { i + 1 } else { i };
            let board = tokens
                .get(start)
                .ok_or("expected an SFEN board after 'sfen'")?;
            let side = tokens
                .get(start + 1)
                .ok_or("expected the side to move (b or w) after the SFEN board")?;
            let mut n = start + 2;
            let mut text = format!("{board} {side}");
            if let Some(h) = tokens.get(n).filter(|h| **h != "moves") {
                text.push(' ');
                text.push_str(h);
                n += 1;
                if let Some(num) = tokens.get(n).filter(|t| t.parse::<u16>().is_ok()) {
                    text.push(' ');
                    text.push_str(num);
                    n += 1;
                }
            }
            let pos = Position::from_sfen(&text).map_err(|e| e.to_string())?;
            Ok((pos, n))
        }
    }
}

fn read_line(line_no: usize, text: &str) -> Result<Line, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let (initial, mut i) = read_start(&tokens)?;
    if i < tokens.len() {
        if tokens[i] != "moves" {
            return Err(format!(
                "expected 'moves' after the position, found '{}'",
                tokens[i]
            ));
        }
        i += 1;
    }
    let mut b = RecordBuilder::new(Style { branches: false });
    let handicap = Handicap::matching(&initial);
    b.set_initial(
        Initial {
            position: initial,
            handicap,
        },
        line_no,
    );
    for (k, tok) in tokens.iter().enumerate().skip(i) {
        let column = k + 1;
        let n = b.ply() + 1;
        let Some(mv) = Move::from_usi(tok) else {
            b.warn(
                line_no,
                DiagKind::BadMove,
                format!(
                    "token {column} (move {n}): '{tok}' is not a USI move (expected e.g. 7g7f, 8h2b+, P*5e)"
                ),
            );
            break;
        };
        // An illegal move that can be played is kept with a warning, as the KIF and CSA readers
        // keep it (the USI writer writes it back); one that cannot be played stops the line.
        match b.play(mv) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => b.warn(
                line_no,
                DiagKind::IllegalMove,
                format!("token {column} (move {n}): illegal move '{tok}': {e}"),
            ),
            Err(why) => {
                let why = why.map_or("it cannot be played", |e| e.describe());
                b.warn(
                    line_no,
                    DiagKind::ImpossibleMove,
                    format!("token {column} (move {n}): '{tok}' is impossible: {why}"),
                );
                break;
            }
        }
    }
    let parsed = b.finish();
    let moves = parsed
        .record
        .main_line()
        .iter()
        .filter_map(|&id| parsed.record.node(id).move_data().copied())
        .collect();
    Ok(Line { parsed, moves })
}

/// Does this text look like SFEN or a USI position command?
pub fn looks_like(text: &str) -> bool {
    let Some(first) = text
        .split(['\n', '\r'])
        .map(|l| l.trim_start_matches('\u{feff}').trim())
        .find(|l| !l.is_empty())
    else {
        return false;
    };
    let t = first.split_whitespace().next().unwrap_or("");
    matches!(t, "position" | "sfen" | "startpos" | "moves") || read_start(&[t, "b"]).is_ok()
}

/// Reads SFEN / USI text. Several lines: the first one that reads is taken, or a later line that
/// continues the same game further. An illegal move is kept with a warning; a bad or impossible
/// one stops the line. Warnings name the token (1-based, counted from the start of the line).
pub fn read(text: &str) -> Result<Parsed, Diagnostic> {
    let mut best: Option<Line> = None;
    let mut first_error: Option<Diagnostic> = None;
    for (i, raw) in super::lines(text).enumerate() {
        let l = raw.trim_start_matches('\u{feff}').trim();
        if l.is_empty() {
            continue;
        }
        match read_line(i + 1, l) {
            Ok(line) => match &best {
                None => best = Some(line),
                Some(b) => {
                    let continues = line.parsed.record.initial == b.parsed.record.initial
                        && line.moves.len() > b.moves.len()
                        && line.moves[..b.moves.len()] == b.moves[..];
                    if continues {
                        best = Some(line);
                    }
                }
            },
            Err(msg) => {
                if first_error.is_none() {
                    first_error = Some(Diagnostic::new(i + 1, DiagKind::UnknownLine, msg));
                }
            }
        }
    }
    let Some(line) = best else {
        return Err(first_error.unwrap_or_else(|| {
            Diagnostic::new(
                0,
                DiagKind::UnknownLine,
                "no position found (expected an SFEN or 'position startpos moves …')",
            )
        }));
    };
    Ok(line.parsed)
}

fn path_moves(record: &Record, node: NodeId) -> Vec<String> {
    record
        .path(node)
        .into_iter()
        .filter_map(|id| record.node(id).move_data().map(|m| m.mv.usi()))
        .collect()
}

/// `position startpos moves …` (even-game start) or `position sfen <initial> moves …`, for the
/// moves on the path from the root to `node`.
pub fn position_command(record: &Record, node: NodeId) -> String {
    let init = &record.initial.position;
    let mut s = if init.to_sfen() == Position::startpos().to_sfen() {
        "position startpos".to_string()
    } else {
        format!("position sfen {}", init.to_sfen())
    };
    let moves = path_moves(record, node);
    if !moves.is_empty() {
        s.push_str(" moves ");
        s.push_str(&moves.join(" "));
    }
    s
}

/// The SFEN of the position at `node` (move number counted from the initial position's).
pub fn sfen_at(record: &Record, node: NodeId) -> String {
    let mut pos = record.position_at(node);
    let plies = record
        .path(node)
        .iter()
        .filter(|&&id| record.node(id).move_data().is_some())
        .count();
    let n = (record.initial.position.move_number() as usize + plies).min(u16::MAX as usize);
    pos.set_move_number(n as u16);
    pos.to_sfen()
}

/// Writes the main line as one `position …` command; everything else is listed as lost.
pub fn write(record: &Record) -> Written {
    let line = record.main_line();
    let last = *line.last().unwrap_or(&NodeId::ROOT);
    let losses = beyond_the_moves(record, &Census::of(record));
    Written {
        text: format!("{}\n", position_command(record, last)),
        losses,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_number_of_sfen_at() {
        let p = read("startpos moves 7g7f 3c3d").unwrap();
        let last = *p.record.main_line().last().unwrap();
        assert_eq!(
            sfen_at(&p.record, last),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        assert_eq!(
            position_command(&p.record, last),
            "position startpos moves 7g7f 3c3d"
        );
    }
}
