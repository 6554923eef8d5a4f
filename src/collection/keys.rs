//! Position keys and the two-byte move code of the position index.
//!
//! A key is a 64-bit Zobrist hash of board, hands and side to move (the SFEN without its move
//! number), so transpositions share a key. Keys are only a way to find candidates: every answer
//! is confirmed by replaying the game's stored moves and comparing the positions themselves
//! (`query`), so a collision can cost time but never put a wrong game in an answer.

use crate::core::record::{MoveData, NodeId, Record, Step};
use crate::core::rules::{Color, Move, PieceKind, Position, Square};

/// SplitMix64's finaliser: a well-mixed 64-bit value per input.
const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key part of a piece on a square. `salt` 0 is the index's key; another salt gives
/// other parts, so another key of the same positions (see [`KeyWalker::salted`]).
fn board_part(salt: u64, sq: usize, kind: PieceKind, color: Color) -> u64 {
    mix(salt ^ (0x1_0000 | (sq as u64) << 8 | (color as u64) << 5 | kind as u64))
}

/// The key part of `count` pieces of `kind` in `color`'s hand (nothing for none).
fn hand_part(salt: u64, color: Color, kind: usize, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        mix(salt ^ (0x2_0000_0000 | (color as u64) << 16 | (kind as u64) << 8 | count as u64))
    }
}

const fn white_to_move(salt: u64) -> u64 {
    mix(salt ^ 0x3_0000_0000_0000)
}

/// The key of a position: board, hands and side to move.
pub fn position_key(p: &Position) -> u64 {
    salted_key(p, 0)
}

/// [`position_key`] with the parts of `salt` (0: the index's).
pub fn salted_key(p: &Position, salt: u64) -> u64 {
    let mut k = 0;
    for sq in Square::all() {
        if let Some(pc) = p.piece_at(sq) {
            k ^= board_part(salt, sq.index(), pc.kind, pc.color);
        }
    }
    for c in [Color::Black, Color::White] {
        for kind in PieceKind::HAND {
            k ^= hand_part(salt, c, kind as usize, p.hand_count(c, kind));
        }
    }
    if p.side_to_move() == Color::White {
        k ^= white_to_move(salt);
    }
    k
}

/// Follows a line's keys move by move without replaying the rules: what a move changes is in
/// its [`MoveData`].
#[derive(Clone)]
pub struct KeyWalker {
    key: u64,
    salt: u64,
    hands: [[u8; 7]; 2],
}

impl KeyWalker {
    pub fn new(p: &Position) -> KeyWalker {
        KeyWalker::salted(p, 0)
    }
    /// A walker of the key made of `salt`'s parts ([`salted_key`]): another 64-bit key of the
    /// same positions, independent of the index's for any salt but 0 (`book::build` keys
    /// its positions by both).
    pub fn salted(p: &Position, salt: u64) -> KeyWalker {
        let mut hands = [[0; 7]; 2];
        for c in [Color::Black, Color::White] {
            for kind in PieceKind::HAND {
                hands[c.index()][kind as usize] = p.hand_count(c, kind);
            }
        }
        KeyWalker {
            key: salted_key(p, salt),
            salt,
            hands,
        }
    }
    pub fn key(&self) -> u64 {
        self.key
    }
    fn hand(&mut self, c: Color, kind: PieceKind, add: bool) {
        let k = kind as usize;
        let Some(n) = self.hands[c.index()].get_mut(k) else {
            return; // a king taken (a hand-made record): no hand holds it
        };
        self.key ^= hand_part(self.salt, c, k, *n);
        *n = if add {
            n.saturating_add(1)
        } else {
            n.saturating_sub(1)
        };
        self.key ^= hand_part(self.salt, c, k, *n);
    }
    pub fn play(&mut self, m: &MoveData) {
        let (c, salt) = (m.color, self.salt);
        match m.mv {
            Move::Normal { from, to, .. } => {
                self.key ^= board_part(salt, from.index(), m.piece, c);
                if let Some(cap) = m.captured {
                    self.key ^= board_part(salt, to.index(), cap, c.flip());
                    self.hand(c, cap.unpromote(), true);
                }
                self.key ^= board_part(salt, to.index(), m.piece_after(), c);
            }
            Move::Drop { kind, to } => {
                self.hand(c, kind, false);
                self.key ^= board_part(salt, to.index(), kind, c);
            }
        }
        self.key ^= white_to_move(salt);
    }
}

/// A move in two bytes: the origin square (0..81) or 81 + the dropped kind, the destination
/// square shifted by 7, and the promotion bit 14.
pub fn encode_move(mv: Move) -> u16 {
    match mv {
        Move::Normal { from, to, promote } => {
            from.index() as u16 | (to.index() as u16) << 7 | u16::from(promote) << 14
        }
        Move::Drop { kind, to } => (81 + kind as u16) | (to.index() as u16) << 7,
    }
}

fn square(i: u16) -> Option<Square> {
    let i = i as u8;
    (i < 81).then(|| Square::new(i / 9 + 1, i % 9 + 1))?
}

/// The move of [`encode_move`]; `None` for bytes no move encodes to (a damaged file).
pub fn decode_move(code: u16) -> Option<Move> {
    let to = square((code >> 7) & 0x7F)?;
    let from = code & 0x7F;
    if from < 81 {
        return Some(Move::Normal {
            from: square(from)?,
            to,
            promote: code & (1 << 14) != 0,
        });
    }
    let kind = *PieceKind::HAND.iter().find(|k| **k as u16 == from - 81)?;
    Some(Move::Drop { kind, to })
}

/// A line of a game's tree as the index stores it: the main line (the first; `parent`,
/// `from` and `alt` 0), or a variation: the moves from a node that is not its parent's first
/// child down its first children, leaving line `parent` (an earlier line) after `from` plies
/// from the root, as the `alt`-th variation there (1: the first). Each move of the record is
/// in one line only, so a tree is stored in space linear in its moves however it branches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeLine {
    pub parent: u32,
    pub from: u32,
    pub alt: u32,
    pub nodes: Vec<NodeId>,
}

/// The lines of `record`'s tree ([`TreeLine`]): the main line up to its ending, then, when
/// `variations`, every variation that starts with a move, in pre-order (a line's parent
/// before it).
pub fn tree(record: &Record, variations: bool) -> Vec<TreeLine> {
    let is_move = |id: NodeId| matches!(record.node(id).step, Step::Move(_));
    let main: Vec<NodeId> = record
        .main_line()
        .into_iter()
        .skip(1)
        .take_while(|&id| is_move(id))
        .collect();
    let mut out = vec![TreeLine {
        parent: 0,
        from: 0,
        alt: 0,
        nodes: main,
    }];
    if !variations || !record.has_variations() {
        return out;
    }
    // The line of each node (u32::MAX: none, a special ending).
    let mut line_of = vec![u32::MAX; record.len()];
    line_of[NodeId::ROOT.index()] = 0;
    for &id in &out[0].nodes {
        line_of[id.index()] = 0;
    }
    for id in record.preorder() {
        let alt = record.sibling_index(id);
        if alt == 0 || !is_move(id) {
            continue;
        }
        let Some(parent) = record.node(id).parent else {
            continue;
        };
        let on = line_of[parent.index()];
        if on == u32::MAX {
            continue;
        }
        let i = out.len() as u32;
        let nodes: Vec<NodeId> = record
            .line_from(id)
            .into_iter()
            .take_while(|&n| is_move(n))
            .collect();
        for &n in &nodes {
            line_of[n.index()] = i;
        }
        out.push(TreeLine {
            parent: on,
            from: record.node(parent).ply,
            alt: alt as u32,
            nodes,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::{Format, read_text};

    #[test]
    fn keys_followed_move_by_move_are_the_keys_of_the_positions() {
        let text = "手合割：平手\n1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角成(88)\n4 同　銀(31)\n\
                    5 ４五角打\n6 ５二玉(51)\n7 ２三角成(45)\n";
        let r = read_text(text, Format::Kif).remove(0).record;
        let line = &tree(&r, false)[0].nodes;
        assert_eq!(line.len(), 7);
        let mut w = KeyWalker::new(&r.initial.position);
        let mut salted = KeyWalker::salted(&r.initial.position, 0x5eed);
        for &id in line {
            w.play(r.node(id).move_data().unwrap());
            salted.play(r.node(id).move_data().unwrap());
            let pos = r.position_at(id);
            assert_eq!(w.key(), position_key(&pos), "at {id:?}");
            assert_eq!(salted.key(), salted_key(&pos, 0x5eed), "at {id:?}");
            assert_ne!(salted.key(), w.key());
        }
    }

    #[test]
    fn transpositions_share_a_key_and_the_side_to_move_counts() {
        let a = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        )
        .unwrap();
        let b = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 9",
        )
        .unwrap();
        let c = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 40",
        )
        .unwrap();
        assert_ne!(position_key(&a), position_key(&b));
        assert_eq!(position_key(&a), position_key(&c));
    }

    #[test]
    fn every_move_code_reads_back() {
        for f in 1..=9 {
            for r in 1..=9 {
                let to = Square::new(f, r).unwrap();
                let from = Square::new(10 - f, r).unwrap();
                for mv in [
                    Move::Normal {
                        from,
                        to,
                        promote: true,
                    },
                    Move::Normal {
                        from,
                        to,
                        promote: false,
                    },
                    Move::Drop {
                        kind: PieceKind::Rook,
                        to,
                    },
                    Move::Drop {
                        kind: PieceKind::Pawn,
                        to,
                    },
                ] {
                    assert_eq!(decode_move(encode_move(mv)), Some(mv));
                }
            }
        }
        assert_eq!(decode_move(0x7FFF), None);
    }
}
