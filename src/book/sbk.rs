//! ShogiGUI's book (`.sbk`): a protocol buffer (proto2) message `SBook { Author = 1,
//! Description = 2, repeated SBookState BookStates = 3 }`, each state `{ Id = 1, BoardKey = 2,
//! HandKey = 3, Games = 4, WonBlack = 5, WonWhite = 6, Position = 7 (SFEN, optional), Comment
//! = 8, repeated SBookMove Moves = 9, repeated SBookEval Evals = 10 }`, each move `{ Move = 1,
//! Evaluation = 2 (a mark: none, forced, good, bad, blunder), Weight = 3, NextStateId = 4 }`
//! (the schema as ShogiHome's `src/background/book/proto/sbk.proto` gives it). Encoded and
//! decoded here by hand: five messages of plain fields do not need a protobuf crate.
//!
//! A move is an int32: from rank (bits 0–3) and file (4–7), both 0 for a drop; to rank (8–11)
//! and file (12–15); promotion (19); the captured piece (20–23); the piece moved or dropped
//! (24–28: pawn 1, lance 2, knight 3, silver 4, gold 5, bishop 6, rook 7, king 8, promoted +8,
//! gote's +16); the side (31). ShogiHome's `sbk_move.ts` numbers bishop 5, rook 6 and gold 7
//! instead; kifview follows rsshogi's reader (and the promoted-is-+8 layout of ShogiGUI's own
//! pieces, in which the horse is 14 and the dragon 15), which CI runs on kifview's files. A
//! state gives its position as SFEN (a root; the first state without one is the even game's
//! start, as BookConv writes it) or is reached from one by a move whose `NextStateId` names its
//! `Id`.
//!
//! kifview writes every position with its SFEN, a move's count as its weight, the position's
//! note as its comment; values, depths, replies and move notes have no place (counted as
//! losses), and the board and hand keys (ShogiGUI's own hash, unpublished) are 0 as ShogiHome
//! and BookConv write them. Reading keeps weights as counts and comments as notes, and names
//! what it leaves: evaluations, marks, game counts, states no root reaches.

use super::{BookError, BookMove, Encoded, Entry, Lookup, Losses, Read, Result, Warning};
use crate::core::rules::{Color, Move, PieceKind, Position, Square};
use std::collections::HashMap;

// ---- protobuf wire format ----

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_int(out: &mut Vec<u8>, field: u32, v: i64) {
    put_varint(out, (field as u64) << 3);
    put_varint(out, v as u64);
}

fn put_bytes(out: &mut Vec<u8>, field: u32, b: &[u8]) {
    put_varint(out, (field as u64) << 3 | 2);
    put_varint(out, b.len() as u64);
    out.extend_from_slice(b);
}

/// One field of a message: its number and its value (a varint or the bytes of a
/// length-delimited field; fixed-width fields are skipped as the schema has none).
enum Value<'a> {
    Int(u64),
    Bytes(&'a [u8]),
    Other,
}

struct Fields<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Fields<'a> {
    fn new(data: &'a [u8]) -> Self {
        Fields { data, at: 0 }
    }
    fn varint(&mut self) -> Result<u64> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = *self
                .data
                .get(self.at)
                .ok_or_else(|| BookError::format("a varint runs past the end of its message"))?;
            self.at += 1;
            if shift == 63 && b > 1 {
                return Err(BookError::format("a varint longer than 64 bits"));
            }
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(BookError::format("a varint longer than 10 bytes"))
    }
    fn skip(&mut self, n: u64) -> Result<&'a [u8]> {
        let end = (self.at as u64)
            .checked_add(n)
            .filter(|&e| e <= self.data.len() as u64)
            .ok_or_else(|| BookError::format("a field runs past the end of its message"))?;
        let s = &self.data[self.at..end as usize];
        self.at = end as usize;
        Ok(s)
    }
    fn next_field(&mut self) -> Result<Option<(u32, Value<'a>)>> {
        if self.at >= self.data.len() {
            return Ok(None);
        }
        let tag = self.varint()?;
        let field = (tag >> 3) as u32;
        let value = match tag & 7 {
            0 => Value::Int(self.varint()?),
            1 => {
                self.skip(8)?;
                Value::Other
            }
            2 => {
                let n = self.varint()?;
                Value::Bytes(self.skip(n)?)
            }
            5 => {
                self.skip(4)?;
                Value::Other
            }
            w => {
                return Err(BookError::format(format!(
                    "protobuf wire type {w}, which the SBK schema does not use"
                )));
            }
        };
        Ok(Some((field, value)))
    }
}

// ---- moves ----

/// ShogiGUI's piece type: pawn 1, lance 2, knight 3, silver 4, gold 5, bishop 6, rook 7, king
/// 8, promoted +8 (so the horse is 14, the dragon 15).
fn sbk_piece(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Lance => 2,
        PieceKind::Knight => 3,
        PieceKind::Silver => 4,
        PieceKind::Gold => 5,
        PieceKind::Bishop => 6,
        PieceKind::Rook => 7,
        PieceKind::King => 8,
        PieceKind::ProPawn => 9,
        PieceKind::ProLance => 10,
        PieceKind::ProKnight => 11,
        PieceKind::ProSilver => 12,
        PieceKind::Horse => 14,
        PieceKind::Dragon => 15,
    }
}

fn sbk_kind(n: u32) -> Option<PieceKind> {
    PieceKind::ALL.into_iter().find(|&k| sbk_piece(k) == n)
}

/// The SBK code of `mv` played in `pos`.
fn encode_move(pos: &Position, mv: Move) -> i32 {
    let side = (pos.side_to_move() == Color::White) as u32;
    let to = mv.to();
    let mut v = (to.rank() as u32) << 8 | (to.file() as u32) << 12 | side << 31;
    match mv {
        Move::Drop { kind, .. } => v |= (sbk_piece(kind) | side << 4) << 24,
        Move::Normal { from, promote, .. } => {
            v |= from.rank() as u32 | (from.file() as u32) << 4 | (promote as u32) << 19;
            if let Some(p) = pos.piece_at(from) {
                v |= (sbk_piece(p.kind) | side << 4) << 24;
            }
            if let Some(c) = pos.piece_at(to) {
                v |= (sbk_piece(c.kind) & 0xf) << 20;
            }
        }
    }
    v as i32
}

fn decode_move(v: u32) -> Option<Move> {
    let sq = |rank: u32, file: u32| Square::new(file as u8, rank as u8);
    let to = sq((v >> 8) & 0xf, (v >> 12) & 0xf)?;
    let (fr, ff) = (v & 0xf, (v >> 4) & 0xf);
    if fr == 0 && ff == 0 {
        let kind = sbk_kind((v >> 24) & 0x0f).filter(|k| k.is_hand_kind())?;
        return Some(Move::Drop { kind, to });
    }
    Some(Move::Normal {
        from: sq(fr, ff)?,
        to,
        promote: v >> 19 & 1 == 1,
    })
}

// ---- reading ----

#[derive(Default)]
struct State<'a> {
    id: Option<i64>,
    position: Option<&'a [u8]>,
    comment: Option<&'a [u8]>,
    /// (move code, weight, next state id, mark)
    moves: Vec<(u32, i64, i64, u64)>,
    evals: u64,
    games: bool,
}

fn parse_state(bytes: &[u8]) -> Result<State<'_>> {
    let mut s = State::default();
    let mut f = Fields::new(bytes);
    while let Some((field, value)) = f.next_field()? {
        match (field, value) {
            (1, Value::Int(n)) => s.id = Some(n as i32 as i64),
            (4..=6, Value::Int(n)) => s.games |= n != 0,
            (7, Value::Bytes(b)) => s.position = Some(b),
            (8, Value::Bytes(b)) => s.comment = Some(b),
            (9, Value::Bytes(b)) => {
                let (mut code, mut weight, mut next, mut mark) = (None, 0, -1, 0);
                let mut m = Fields::new(b);
                while let Some((field, value)) = m.next_field()? {
                    match (field, value) {
                        (1, Value::Int(n)) => code = Some(n as u32),
                        (2, Value::Int(n)) => mark = n,
                        (3, Value::Int(n)) => weight = n as i32 as i64,
                        (4, Value::Int(n)) => next = n as i32 as i64,
                        _ => {}
                    }
                }
                if let Some(code) = code {
                    s.moves.push((code, weight, next, mark));
                }
            }
            (10, Value::Bytes(_)) => s.evals += 1,
            _ => {}
        }
    }
    Ok(s)
}

/// Reads an SBK book: every state a root (a state with its SFEN) reaches by its moves.
pub fn read(bytes: &[u8]) -> Result<Read> {
    let mut states = Vec::new();
    let mut f = Fields::new(bytes);
    while let Some((field, value)) = f.next_field()? {
        if let (3, Value::Bytes(b)) = (field, value) {
            states.push(parse_state(b).map_err(|e| match e {
                BookError::Format { message, .. } => {
                    BookError::format(format!("state {}: {message}", states.len() + 1))
                }
                e => e,
            })?);
        }
    }
    let mut out = Read::default();
    let mut placed: Vec<bool> = vec![false; states.len()];
    let mut index_of: HashMap<i64, usize> = HashMap::new();
    for (i, s) in states.iter().enumerate() {
        if let Some(id) = s.id {
            index_of.entry(id).or_insert(i);
        }
    }
    let (mut evals, mut marks, mut games, mut bad_moves) = (0u64, 0u64, 0u64, 0u64);
    let warn = |out: &mut Read, message: String| out.warnings.push(Warning { line: 0, message });
    for root in 0..states.len() {
        if placed[root] {
            continue;
        }
        let sfen = match states[root].position {
            // The protobuf string's bytes from the file, decoded for the first time.
            Some(sfen) => std::str::from_utf8(sfen).ok(),
            None if root == 0 => {
                Some("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
            }
            None => continue,
        };
        let pos = match sfen
            .and_then(|s| Position::from_sfen(s.trim().trim_start_matches("sfen ")).ok())
        {
            Some(p) => p,
            None => {
                warn(
                    &mut out,
                    format!("state {}: its position is no SFEN: skipped", root + 1),
                );
                continue;
            }
        };
        let mut stack = vec![(root, pos)];
        placed[root] = true;
        while let Some((i, pos)) = stack.pop() {
            let s = &states[i];
            evals += s.evals;
            games += s.games as u64;
            let mut entry = Entry {
                ply: pos.move_number() as u32,
                comment: s
                    .comment
                    .filter(|c| !c.is_empty())
                    .map(super::yaneuraou::note),
                moves: Vec::with_capacity(s.moves.len()),
            };
            for &(code, weight, next, mark) in &s.moves {
                let Some(mv) = decode_move(code) else {
                    bad_moves += 1;
                    continue;
                };
                marks += (mark != 0) as u64;
                let mut m = BookMove::new(mv);
                m.count = weight.max(0) as u64;
                if entry.moves.iter().any(|x: &BookMove| x.usi == mv) {
                    continue;
                }
                entry.moves.push(m);
                if let Some(&n) = index_of.get(&next)
                    && !placed[n]
                {
                    let mut child = pos.clone();
                    if child.play(mv).is_ok() {
                        placed[n] = true;
                        stack.push((n, child));
                    }
                }
            }
            let key = super::key_of(&pos);
            match out.book.get_mut(&key) {
                Some(old) => {
                    for m in entry.moves {
                        if !old.moves.iter().any(|x| x.usi == m.usi) {
                            old.moves.push(m);
                        }
                    }
                }
                None => {
                    out.book.insert(key, entry);
                }
            }
        }
    }
    let unplaced = placed.iter().filter(|p| !**p).count();
    for (n, what) in [
        (
            unplaced as u64,
            "states no position with an SFEN reaches: not read",
        ),
        (bad_moves, "move codes that name no move: skipped"),
        (evals, "position evaluations (Evals): not kept"),
        (marks, "move marks (good, bad, forced...): not kept"),
        (games, "positions with game and win counts: not kept"),
    ] {
        if n > 0 {
            warn(&mut out, format!("{n} {what}"));
        }
    }
    Ok(out)
}

// ---- writing ----

/// Writes `book` as SBK, every position a root with its SFEN, in key order.
pub fn write(book: &dyn Lookup) -> Result<Encoded> {
    let mut losses = Losses::default();
    let mut entries: Vec<(String, Entry)> = Vec::with_capacity(book.len());
    book.visit(&mut |k, e| {
        if !e.moves.is_empty() || e.comment.is_some() {
            entries.push((k.to_string(), e));
        }
        Ok(())
    })?;
    let ids: HashMap<&str, i64> = entries
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (k.as_str(), i as i64))
        .collect();
    let mut out = Vec::new();
    put_bytes(&mut out, 1, b"");
    put_bytes(&mut out, 2, b"");
    let mut state = Vec::new();
    let mut mv_bytes = Vec::new();
    for (i, (key, entry)) in entries.iter().enumerate() {
        let pos = Position::from_sfen(key).map_err(|e| BookError::BadKey(e.0))?;
        state.clear();
        put_int(&mut state, 1, i as i64);
        put_int(&mut state, 2, 0);
        put_int(&mut state, 3, 0);
        put_int(&mut state, 4, 0);
        put_int(&mut state, 5, 0);
        put_int(&mut state, 6, 0);
        put_bytes(
            &mut state,
            7,
            format!("{key} {}", entry.ply.max(1)).as_bytes(),
        );
        if let Some(c) = &entry.comment {
            put_bytes(&mut state, 8, c.as_bytes());
        }
        for m in &entry.moves {
            losses.add("values", m.value.is_some() as u64);
            losses.add("depths", (m.depth != 0) as u64);
            losses.add("replies (ponder)", m.ponder.is_some() as u64);
            losses.add("move notes", m.comment.is_some() as u64);
            if m.count > i32::MAX as u64 {
                losses.add("counts above 2^31-1 (written as 2^31-1)", 1);
            }
            let mut next = pos.clone();
            let next_id = match next.play(m.usi) {
                Ok(_) => ids
                    .get(super::key_of(&next).as_str())
                    .copied()
                    .unwrap_or(-1),
                Err(_) => -1,
            };
            mv_bytes.clear();
            put_int(&mut mv_bytes, 1, encode_move(&pos, m.usi) as i64);
            put_int(&mut mv_bytes, 2, 0);
            put_int(&mut mv_bytes, 3, m.count.min(i32::MAX as u64) as i64);
            put_int(&mut mv_bytes, 4, next_id);
            put_bytes(&mut state, 9, &mv_bytes);
        }
        put_bytes(&mut out, 3, &state);
    }
    Ok(Encoded { bytes: out, losses })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_encode_and_decode_with_their_piece() {
        let pos = Position::startpos();
        let m = Move::from_usi("7g7f").unwrap();
        let code = encode_move(&pos, m) as u32;
        assert_eq!(code, 7 | 7 << 4 | 6 << 8 | 7 << 12 | 1 << 24);
        // rsshogi's own test fixture: 0x0100_7677 is 7g7f.
        assert_eq!(code, 0x0100_7677);
        let after = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        )
        .unwrap();
        let b = Move::from_usi("8b2b").unwrap();
        assert_eq!(encode_move(&after, b) as u32 >> 24, 0x80 | 0x10 | 7);
        assert_eq!(decode_move(code), Some(m));
        let d = Move::from_usi("P*5e").unwrap();
        assert_eq!(decode_move(encode_move(&pos, d) as u32), Some(d));
    }
}
