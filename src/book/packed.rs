//! YaneuraOu's binary vocabulary, learnt from its `extra/sfen_packer.cpp` and `types.h`: the
//! 32-byte `PackedSfen` of a position (the `.ybb` key, the same bits as cshogi's `to_psfen`),
//! its `Move16`, and Apery's move encoding.
//!
//! Squares are numbered as YaneuraOu numbers them: `(file - 1) * 9 + (rank - 1)` (1一 is 0,
//! 1二 is 1, 9九 is 80), which is core's [`Square::index`]. Piece types for drops are
//! YaneuraOu's: pawn 1, lance 2, knight 3, silver 4, bishop 5, rook 6, gold 7.

use super::placement::Placement;
use crate::core::rules::{Color, Move, Piece, PieceKind, Position, Square};

/// A position in 256 bits.
pub type PackedSfen = [u8; 32];

/// The kinds in YaneuraOu's piece-type order (1-based in its numbering).
const YANE_KINDS: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Gold,
];

/// The order hands and the piece box are written in (Apery's: gold before bishop and rook),
/// which is core's order of the unpromoted kinds.
pub(crate) const HAND_ORDER: [PieceKind; 7] = {
    let all = PieceKind::ALL;
    [all[0], all[1], all[2], all[3], all[4], all[5], all[6]]
};

/// YaneuraOu's piece type number (1..=7) of an unpromoted hand kind.
pub fn yane_type(kind: PieceKind) -> Option<u16> {
    YANE_KINDS
        .iter()
        .position(|&k| k == kind)
        .map(|i| i as u16 + 1)
}

fn yane_kind(t: u16) -> Option<PieceKind> {
    YANE_KINDS.get((t as usize).checked_sub(1)?).copied()
}

/// (code, bits) of a piece on the board by its unpromoted kind; an empty square is (0, 1).
fn board_code(kind: PieceKind) -> (u32, u32) {
    match kind {
        PieceKind::Pawn => (0x01, 2),
        PieceKind::Lance => (0x03, 4),
        PieceKind::Knight => (0x0b, 4),
        PieceKind::Silver => (0x07, 4),
        PieceKind::Gold => (0x0f, 5),
        PieceKind::Bishop => (0x1f, 6),
        _ => (0x3f, 6),
    }
}

fn piecebox_code(kind: PieceKind) -> (u32, u32) {
    match kind {
        PieceKind::Pawn => (0x02, 2),
        PieceKind::Lance => (0x09, 4),
        PieceKind::Knight => (0x0d, 4),
        PieceKind::Silver => (0x0b, 4),
        PieceKind::Gold => (0x1b, 5),
        PieceKind::Bishop => (0x2f, 6),
        _ => (0x3f, 6),
    }
}

const SET: [(PieceKind, i32); 7] = [
    (PieceKind::Pawn, 18),
    (PieceKind::Lance, 4),
    (PieceKind::Knight, 4),
    (PieceKind::Silver, 4),
    (PieceKind::Gold, 4),
    (PieceKind::Bishop, 2),
    (PieceKind::Rook, 2),
];

/// The 256 bits being written, as four words (bit `i` is bit `i % 64` of word `i / 64`, so
/// the little-endian bytes of the words are YaneuraOu's bytes).
struct Bits {
    words: [u64; 4],
    at: usize,
}

impl Bits {
    /// Writes the low `n` bits of `value` (at most 32), lowest first.
    fn put(&mut self, value: u32, n: u32) -> Result<(), String> {
        if self.at + n as usize > 256 {
            return Err("more pieces than a set of shogi pieces holds".into());
        }
        self.add(value, n);
        Ok(())
    }

    /// [`Bits::put`] where the caller knows the bits fit.
    fn add(&mut self, value: u32, n: u32) {
        let v = value as u64 & ((1u64 << n) - 1);
        let (w, o) = (self.at / 64, self.at % 64);
        self.words[w] |= v << o;
        if o + n as usize > 64 {
            self.words[w + 1] |= v >> (64 - o);
        }
        self.at += n as usize;
    }

    /// The bytes, as YaneuraOu lays them out.
    fn bytes(&self) -> PackedSfen {
        let mut data = [0u8; 32];
        for (bytes, word) in data.chunks_exact_mut(8).zip(self.words) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
        data
    }
}

/// Packs `pos` (board, side, hands) as YaneuraOu does; a position with more pieces of a kind
/// than a set holds, or more than one king a side, cannot be packed.
pub fn pack(pos: &Position) -> Result<PackedSfen, String> {
    pack_placement(&Placement::of(pos))
}

/// [`pack`] of a position's placement (a book key read by [`Placement::parse_key`]).
pub fn pack_placement(pos: &Placement) -> Result<PackedSfen, String> {
    // One king a side and no kind beyond the set (every book position): the bits come to
    // 256 exactly, so nothing below can fail and each piece is written in one go. Any other
    // placement takes the checked path, which names what is wrong as it meets it.
    let mut have = [0i32; 8];
    let mut kings = [81u32; 2];
    for (i, p) in pos.board.iter().enumerate() {
        if let Some(p) = p {
            have[p.kind.unpromote() as usize] += 1;
            if p.kind == PieceKind::King {
                kings[p.color.index()] = i as u32;
            }
        }
    }
    for hand in &pos.hands {
        for (n, h) in have.iter_mut().zip(hand) {
            *n += *h as i32;
        }
    }
    let fits = have[PieceKind::King as usize] == 2
        && kings.iter().all(|&k| k != 81)
        && SET.iter().all(|&(kind, n)| have[kind as usize] <= n);
    if !fits {
        return pack_checked(pos);
    }
    let mut w = Bits {
        words: [0; 4],
        at: 0,
    };
    w.add(
        (pos.side == Color::White) as u32 | kings[0] << 1 | kings[1] << 8,
        15,
    );
    for p in &pos.board {
        match p {
            None => w.add(0, 1),
            Some(p) if p.kind == PieceKind::King => {}
            Some(p) => {
                let raw = p.kind.unpromote();
                let (mut code, mut bits) = board_code(raw);
                if raw != PieceKind::Gold {
                    code |= (p.kind.is_promoted() as u32) << bits;
                    bits += 1;
                }
                w.add(code | ((p.color == Color::White) as u32) << bits, bits + 1);
            }
        }
    }
    for color in [Color::Black, Color::White] {
        for kind in HAND_ORDER {
            let (code, bits) = board_code(kind);
            // The code without its lowest bit, 0 for "not promoted" (not for a gold), colour.
            let (code, bits) = match kind {
                PieceKind::Gold => (code >> 1, bits - 1),
                _ => (code >> 1, bits),
            };
            let piece = code | ((color == Color::White) as u32) << bits;
            for _ in 0..pos.hands[color.index()][kind as usize] {
                w.add(piece, bits + 1);
            }
        }
    }
    for kind in HAND_ORDER {
        let (code, bits) = piecebox_code(kind);
        let bits = bits + (kind != PieceKind::Gold) as u32;
        for _ in 0..SET[kind as usize].1 - have[kind as usize] {
            w.add(code, bits);
        }
    }
    debug_assert_eq!(w.at, 256);
    Ok(w.bytes())
}

/// [`pack_placement`] checking each piece as it goes: the first thing that cannot be packed
/// is what the error names.
fn pack_checked(pos: &Placement) -> Result<PackedSfen, String> {
    let mut w = Bits {
        words: [0; 4],
        at: 0,
    };
    w.put((pos.side == Color::White) as u32, 1)?;
    let mut kings = [81u32; 2];
    for (i, p) in pos.board.iter().enumerate() {
        if let Some(p) = p
            && p.kind == PieceKind::King
        {
            if kings[p.color.index()] != 81 {
                return Err("two kings of one side".into());
            }
            kings[p.color.index()] = i as u32;
        }
    }
    w.put(kings[0], 7)?;
    w.put(kings[1], 7)?;
    // What is left of the set, by `PieceKind as usize` (SET's order).
    let mut left = SET.map(|(_, n)| n);
    let mut take = |kind: PieceKind, n: i32| -> Result<(), String> {
        let slot = &mut left[kind as usize];
        *slot -= n;
        if *slot < 0 {
            return Err(format!(
                "more {} than a set of shogi pieces holds",
                kind.move_name()
            ));
        }
        Ok(())
    };
    for p in &pos.board {
        match p {
            None => w.put(0, 1)?,
            Some(p) if p.kind == PieceKind::King => {}
            Some(p) => {
                let raw = p.kind.unpromote();
                take(raw, 1)?;
                let (code, bits) = board_code(raw);
                w.put(code, bits)?;
                if raw != PieceKind::Gold {
                    w.put(p.kind.is_promoted() as u32, 1)?;
                }
                w.put((p.color == Color::White) as u32, 1)?;
            }
        }
    }
    for color in [Color::Black, Color::White] {
        for kind in HAND_ORDER {
            let n = pos.hands[color.index()][kind as usize];
            take(kind, n as i32)?;
            let (code, bits) = board_code(kind);
            for _ in 0..n {
                w.put(code >> 1, bits - 1)?;
                if kind != PieceKind::Gold {
                    w.put(0, 1)?;
                }
                w.put((color == Color::White) as u32, 1)?;
            }
        }
    }
    for kind in HAND_ORDER {
        let (code, bits) = piecebox_code(kind);
        for _ in 0..left[kind as usize] {
            w.put(code, bits)?;
            if kind != PieceKind::Gold {
                w.put(0, 1)?;
            }
        }
    }
    if w.at != 256 {
        return Err(format!("packs into {} bits instead of 256", w.at));
    }
    Ok(w.bytes())
}

struct Reader<'a> {
    data: &'a [u8; 32],
    at: usize,
}

impl Reader<'_> {
    fn bit(&mut self) -> Result<u32, String> {
        if self.at >= 256 {
            return Err("the 256 bits end inside a piece".into());
        }
        let b = (self.data[self.at / 8] >> (self.at % 8)) & 1;
        self.at += 1;
        Ok(b as u32)
    }
    fn bits(&mut self, n: u32) -> Result<u32, String> {
        let mut v = 0;
        for i in 0..n {
            v |= self.bit()? << i;
        }
        Ok(v)
    }
}

/// Unpacks a PackedSfen into a position (move number 1).
pub fn unpack(data: &PackedSfen) -> Result<Position, String> {
    let mut r = Reader { data, at: 0 };
    let mut pos = Position::empty();
    pos.set_side_to_move(if r.bit()? == 1 {
        Color::White
    } else {
        Color::Black
    });
    let mut king_at = [None, None];
    for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
        let sq = r.bits(7)?;
        if sq < 81 {
            let s = square_of(sq as u16).expect("< 81");
            if king_at.contains(&Some(s)) {
                return Err("both kings on one square".into());
            }
            king_at[i] = Some(s);
            pos.set_piece(s, Some(Piece::new(PieceKind::King, color)));
        } else if sq != 81 {
            return Err(format!("a king on square {sq}"));
        }
    }
    for i in 0..81u16 {
        let sq = square_of(i).expect("< 81");
        if king_at.contains(&Some(sq)) {
            continue;
        }
        let mut code = 0;
        let mut found = None;
        for bits in 1..=6u32 {
            code |= r.bit()? << (bits - 1);
            if bits == 1 && code == 0 {
                found = Some(None);
                break;
            }
            if let Some(&k) = HAND_ORDER.iter().find(|&&k| board_code(k) == (code, bits)) {
                found = Some(Some(k));
                break;
            }
        }
        match found {
            None => return Err("a board square holds no known code".into()),
            Some(None) => {}
            Some(Some(kind)) => {
                let promoted = kind != PieceKind::Gold && r.bit()? == 1;
                let color = if r.bit()? == 1 {
                    Color::White
                } else {
                    Color::Black
                };
                let kind = if promoted {
                    kind.promote().ok_or("a piece that cannot promote")?
                } else {
                    kind
                };
                pos.set_piece(sq, Some(Piece::new(kind, color)));
            }
        }
    }
    while r.at < 256 {
        let mut code = 0;
        let mut found = None;
        for bits in 1..=5u32 {
            code |= r.bit()? << (bits - 1);
            if let Some(&k) = HAND_ORDER.iter().find(|&&k| {
                let (c, b) = board_code(k);
                (c >> 1, b - 1) == (code, bits)
            }) {
                found = Some(k);
                break;
            }
        }
        let kind = found.ok_or("a hand piece holds no known code")?;
        let boxed = kind != PieceKind::Gold && r.bit()? == 1;
        let color = if r.bit()? == 1 {
            Color::White
        } else {
            Color::Black
        };
        if boxed {
            continue;
        }
        let n = pos.hand_count(color, kind) + 1;
        if !pos.set_hand_count(color, kind, n) {
            return Err("too many pieces in hand".into());
        }
    }
    Ok(pos)
}

fn square_of(i: u16) -> Option<Square> {
    (i < 81).then(|| Square::new((i / 9) as u8 + 1, (i % 9) as u8 + 1).expect("< 81"))
}

/// YaneuraOu's `Move16`: `to | from << 7 | promote << 15`, a drop `to | type << 7 | 1 << 14`.
pub fn move16(mv: Move) -> u16 {
    match mv {
        Move::Normal { from, to, promote } => {
            to.index() as u16 | (from.index() as u16) << 7 | (promote as u16) << 15
        }
        Move::Drop { kind, to } => to.index() as u16 | yane_type(kind).unwrap_or(0) << 7 | 1 << 14,
    }
}

/// The move of a `Move16`, if it names one.
pub fn from_move16(m: u16) -> Option<Move> {
    let to = square_of(m & 0x7f)?;
    let from = (m >> 7) & 0x7f;
    if m & (1 << 14) != 0 {
        if m & (1 << 15) != 0 {
            return None;
        }
        return Some(Move::Drop {
            kind: yane_kind(from)?,
            to,
        });
    }
    Some(Move::Normal {
        from: square_of(from)?,
        to,
        promote: m & (1 << 15) != 0,
    })
}

/// Apery's move: `to | from << 7 | promote << 14`, a drop's `from` being `81 + type - 1`.
pub fn apery_move(mv: Move) -> u16 {
    match mv {
        Move::Normal { from, to, promote } => {
            to.index() as u16 | (from.index() as u16) << 7 | (promote as u16) << 14
        }
        Move::Drop { kind, to } => to.index() as u16 | (80 + yane_type(kind).unwrap_or(0)) << 7,
    }
}

/// The move of an Apery move, if it names one.
pub fn from_apery_move(m: u16) -> Option<Move> {
    let to = square_of(m & 0x7f)?;
    let from = (m >> 7) & 0x7f;
    if m >> 15 != 0 {
        return None;
    }
    if from >= 81 {
        if m & (1 << 14) != 0 {
            return None;
        }
        return Some(Move::Drop {
            kind: yane_kind(from - 80)?,
            to,
        });
    }
    Some(Move::Normal {
        from: square_of(from)?,
        to,
        promote: m & (1 << 14) != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_and_fails_on_impossible_sets() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1g3nl/1r1sk1gs1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1B2K2R1/LN1G1GSNL w B 1",
            "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1",
            "8k/9/9/9/9/9/9/9/+P+L+N+SGK+B+R1 w rb3g3s3n3l17p 1",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let packed = pack(&pos).unwrap();
            let back = unpack(&packed).unwrap();
            assert!(back.same_placement(&pos), "{sfen} -> {}", back.to_sfen());
        }
        let too_many = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 3R 1").unwrap();
        assert!(pack(&too_many).is_err());
        // One king: its square costs a bit the 256 do not have (YaneuraOu packs no such board).
        let tsume = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1").unwrap();
        assert!(pack(&tsume).is_err());
    }

    #[test]
    fn the_one_go_packing_writes_the_bits_the_checked_one_writes() {
        // Positions of random games (captures in hand, promotions): both paths agree.
        let mut rng = crate::core::seeded::SplitMix::new(7);
        let mut compared = 0;
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
                pos.play(mv).unwrap();
                let placement = Placement::of(&pos);
                assert_eq!(pack_placement(&placement), pack_checked(&placement));
                compared += 1;
            }
        }
        assert!(compared > 1000);
    }

    #[test]
    fn the_start_position_packs_as_cshogis_to_psfen() {
        // cshogi 1.1.0: `Board().to_psfen(a)` for a 32-byte numpy array, as hex.
        let hex: String = pack(&Position::startpos())
            .unwrap()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hex,
            "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c"
        );
    }

    #[test]
    fn moves_encode_as_yaneuraou_and_apery_number_them() {
        let m = Move::from_usi("7g7f").unwrap();
        // 7g: file 7 rank 7 = 6*9+6 = 60; 7f: 59.
        assert_eq!(move16(m), 59 | 60 << 7);
        assert_eq!(from_move16(move16(m)), Some(m));
        let d = Move::from_usi("G*5e").unwrap();
        assert_eq!(move16(d), 40 | 7 << 7 | 1 << 14);
        assert_eq!(apery_move(d), 40 | 87 << 7);
        for usi in ["8h2b+", "P*1a", "R*9i", "2b8h"] {
            let m = Move::from_usi(usi).unwrap();
            assert_eq!(from_move16(move16(m)), Some(m));
            assert_eq!(from_apery_move(apery_move(m)), Some(m));
        }
    }
}
