//! Apery's book (`book.bin`): 16-byte little-endian entries `{u64 key, u16 move, u16 count,
//! i32 score}`, one per move, grouped by key (YaneuraOu writes them sorted by key).
//!
//! The key is Apery's Zobrist hash of the position, which kifview computes exactly as Apery and
//! YaneuraOu do (learnt from YaneuraOu's `book/apery_book.cpp`): tables drawn from MT19937-64
//! seeded 5489 ([`Mt64`], written here from the published algorithm) in a fixed order — 31 piece
//! numbers × 81 squares (piece 0, no piece, giving 0 but drawing all the same), then 7 hand
//! kinds × counts 0–18, then the turn — and the key of a position the XOR of its pieces by
//! square, of the side to move's hand (every kind, count 0 included), and of the turn when gote
//! is to move. Pieces are numbered as YaneuraOu numbers them (pawn 1 … rook 6, gold 7, king 8,
//! promoted +8, gote +16) and hands in Apery's order (pawn, lance, knight, silver, gold,
//! bishop, rook).
//!
//! A key is a hash, not a position: a book of keys cannot be listed position by position. Its
//! positions are found as YaneuraOu's converter finds them, by walking from the start positions
//! (the even game and every handicap) along the book's moves, and one legal move further from
//! each position found; a key never reached is counted ([`Lookup::unreached`]) and not
//! converted, and a key whose moves are not legal in the position reached (a hash collision)
//! is not taken for it. Values are the side to move's; the format holds no depth, reply or note,
//! and counts up to 65535.

use super::packed;
use super::{BookError, BookMove, Data, Encoded, Entry, Lookup, Losses, Read, Result};
use crate::core::rules::{Color, HANDICAPS, PieceKind, Position};
use std::collections::{HashSet, VecDeque};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// MT19937-64 (Matsumoto and Nishimura's 64-bit Mersenne Twister, as C++'s `std::mt19937_64`).
pub struct Mt64 {
    mt: [u64; 312],
    i: usize,
}

impl Mt64 {
    pub fn new(seed: u64) -> Mt64 {
        let mut mt = [0u64; 312];
        mt[0] = seed;
        for i in 1..312 {
            mt[i] = 6364136223846793005u64
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 62))
                .wrapping_add(i as u64);
        }
        Mt64 { mt, i: 312 }
    }

    pub fn next_u64(&mut self) -> u64 {
        const UPPER: u64 = 0xFFFF_FFFF_8000_0000;
        const LOWER: u64 = 0x7FFF_FFFF;
        const MATRIX: u64 = 0xB502_6F5A_A966_19E9;
        if self.i >= 312 {
            for k in 0..312 {
                let x = (self.mt[k] & UPPER) | (self.mt[(k + 1) % 312] & LOWER);
                let mut next = self.mt[(k + 156) % 312] ^ (x >> 1);
                if x & 1 == 1 {
                    next ^= MATRIX;
                }
                self.mt[k] = next;
            }
            self.i = 0;
        }
        let mut x = self.mt[self.i];
        self.i += 1;
        x ^= (x >> 29) & 0x5555_5555_5555_5555;
        x ^= (x << 17) & 0x71D6_7FFF_EDA6_0000;
        x ^= (x << 37) & 0xFFF7_EEE0_0000_0000;
        x ^= x >> 43;
        x
    }
}

struct Zobrist {
    piece: [[u64; 81]; 31],
    hand: [[u64; 19]; 7],
    turn: u64,
}

fn zobrist() -> &'static Zobrist {
    static Z: OnceLock<Zobrist> = OnceLock::new();
    Z.get_or_init(|| {
        let mut mt = Mt64::new(5489);
        let mut z = Zobrist {
            piece: [[0; 81]; 31],
            hand: [[0; 19]; 7],
            turn: 0,
        };
        for (p, row) in z.piece.iter_mut().enumerate() {
            for v in row.iter_mut() {
                let r = mt.next_u64();
                *v = if p == 0 { 0 } else { r };
            }
        }
        for row in z.hand.iter_mut() {
            for v in row.iter_mut() {
                *v = mt.next_u64();
            }
        }
        z.turn = mt.next_u64();
        z
    })
}

/// YaneuraOu's piece number: pawn 1, lance 2, knight 3, silver 4, bishop 5, rook 6, gold 7,
/// king 8, promoted +8, gote +16.
fn piece_number(kind: PieceKind, color: Color) -> usize {
    let base = match kind {
        PieceKind::Pawn => 1,
        PieceKind::Lance => 2,
        PieceKind::Knight => 3,
        PieceKind::Silver => 4,
        PieceKind::Bishop => 5,
        PieceKind::Rook => 6,
        PieceKind::Gold => 7,
        PieceKind::King => 8,
        PieceKind::ProPawn => 9,
        PieceKind::ProLance => 10,
        PieceKind::ProKnight => 11,
        PieceKind::ProSilver => 12,
        PieceKind::Horse => 13,
        PieceKind::Dragon => 14,
    };
    base + if color == Color::White { 16 } else { 0 }
}

/// Apery's book key of `pos`.
pub fn key(pos: &Position) -> u64 {
    let z = zobrist();
    let mut k = 0;
    for sq in crate::core::rules::Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            k ^= z.piece[piece_number(p.kind, p.color)][sq.index()];
        }
    }
    let us = pos.side_to_move();
    // The hand in Apery's order: pawn 0, lance 1, knight 2, silver 3, gold 4, bishop 5, rook 6.
    for (i, kind) in packed::HAND_ORDER.into_iter().enumerate() {
        let n = (pos.hand_count(us, kind) as usize).min(18);
        k ^= z.hand[i][n];
    }
    if us == Color::White {
        k ^= z.turn;
    }
    k
}

/// An Apery book: its entries sorted by key.
pub struct Apery {
    /// (key, first entry, entry count), sorted by key.
    groups: Vec<(u64, u32, u32)>,
    data: Data,
    unreached: AtomicU64,
}

const ENTRY: usize = 16;

impl Apery {
    /// Reads the entries (`bytes` must be a whole number of 16-byte entries); entries need not
    /// be sorted, those of one key need not be together.
    pub fn new(data: Data) -> Result<Apery> {
        if !data.len().is_multiple_of(ENTRY) {
            return Err(BookError::format(format!(
                "{} bytes: an Apery book is a whole number of 16-byte entries",
                data.len()
            )));
        }
        let n = data.len() / ENTRY;
        if n > u32::MAX as usize {
            return Err(BookError::format("more than 2^32 entries"));
        }
        let key_at =
            |i: usize| u64::from_le_bytes(data[i * ENTRY..i * ENTRY + 8].try_into().expect("8"));
        let sorted = (1..n).all(|i| key_at(i - 1) <= key_at(i));
        let data = if sorted {
            data
        } else {
            let mut entries: Vec<&[u8]> = data.chunks_exact(ENTRY).collect();
            entries.sort_by_key(|e| u64::from_le_bytes(e[..8].try_into().expect("8")));
            Data::Owned(entries.concat())
        };
        let mut groups: Vec<(u64, u32, u32)> = Vec::new();
        for i in 0..n {
            let k = u64::from_le_bytes(data[i * ENTRY..i * ENTRY + 8].try_into().expect("8"));
            match groups.last_mut() {
                Some(g) if g.0 == k => g.2 += 1,
                _ => groups.push((k, i as u32, 1)),
            }
        }
        Ok(Apery {
            groups,
            data,
            unreached: AtomicU64::new(0),
        })
    }

    /// The moves stored under `k` (their moves unchecked).
    fn moves_of_key(&self, k: u64) -> Option<Vec<BookMove>> {
        let g = self.groups.binary_search_by_key(&k, |g| g.0).ok()?;
        let (_, first, n) = self.groups[g];
        let mut out = Vec::with_capacity(n as usize);
        for i in first as usize..(first + n) as usize {
            let e = &self.data[i * ENTRY..(i + 1) * ENTRY];
            let code = u16::from_le_bytes([e[8], e[9]]);
            let Some(usi) = packed::from_apery_move(code) else {
                continue;
            };
            let mut m = BookMove::new(usi);
            m.count = u16::from_le_bytes([e[10], e[11]]) as u64;
            m.value = Some(i32::from_le_bytes(e[12..16].try_into().expect("4")));
            out.push(m);
        }
        Some(out)
    }

    /// The moves under `pos`'s key if all of them are legal there (else the key is another
    /// position's).
    fn moves_at(&self, pos: &Position) -> Option<Vec<BookMove>> {
        let moves = self.moves_of_key(key(pos))?;
        moves
            .iter()
            .all(|m| pos.check(m.usi).is_ok())
            .then_some(moves)
    }
}

impl Lookup for Apery {
    fn entry(&self, key_text: &str) -> Result<Option<Entry>> {
        let pos = Position::from_sfen(key_text).map_err(|e| BookError::BadKey(e.0))?;
        Ok(self.moves_at(&pos).map(|moves| Entry {
            ply: 0,
            comment: None,
            moves,
        }))
    }
    fn len(&self) -> usize {
        self.groups.len()
    }
    fn visit(&self, f: &mut dyn FnMut(&str, Entry) -> Result<()>) -> Result<()> {
        let mut reached: HashSet<u64> = HashSet::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut queue: VecDeque<(Position, u32)> = VecDeque::new();
        for h in HANDICAPS {
            let p = h.position();
            for start in [p.clone(), {
                let mut w = p;
                w.set_side_to_move(Color::White);
                w
            }] {
                if seen.insert(super::key_of(&start)) {
                    queue.push_back((start, 1));
                }
            }
        }
        while let Some((pos, ply)) = queue.pop_front() {
            let Some(moves) = self.moves_at(&pos) else {
                continue;
            };
            reached.insert(key(&pos));
            // The positions after every legal move: those the book holds are walked on.
            for mv in pos.legal_moves() {
                let mut next = pos.clone();
                if next.play(mv).is_err() {
                    continue;
                }
                let k = super::key_of(&next);
                if self
                    .groups
                    .binary_search_by_key(&key(&next), |g| g.0)
                    .is_ok()
                    && seen.insert(k)
                {
                    queue.push_back((next, ply + 1));
                }
            }
            f(
                &super::key_of(&pos),
                Entry {
                    ply,
                    comment: None,
                    moves,
                },
            )?;
        }
        self.unreached.store(
            (self.groups.len() - reached.len()) as u64,
            Ordering::Relaxed,
        );
        Ok(())
    }
    fn unreached(&self) -> u64 {
        self.unreached.load(Ordering::Relaxed)
    }
}

/// Reads an Apery book into memory (its positions found from the start positions).
pub fn read(bytes: &[u8]) -> Result<Read> {
    let apery = Apery::new(Data::Owned(bytes.to_vec()))?;
    let mut out = Read::default();
    apery.visit(&mut |k, e| {
        out.book.insert(k.to_string(), e);
        Ok(())
    })?;
    let n = apery.unreached();
    if n > 0 {
        out.warnings.push(super::Warning {
            line: 0,
            message: format!(
                "{n} positions of the book not reached from the start positions by its moves: not read (an Apery key is a hash, not a position)"
            ),
        });
    }
    Ok(out)
}

/// Writes `book` as Apery entries sorted by key.
pub fn write(book: &dyn Lookup) -> Result<Encoded> {
    let mut losses = Losses::default();
    let mut entries: Vec<[u8; ENTRY]> = Vec::with_capacity(book.len() * 2);
    let mut keys_seen: std::collections::HashMap<u64, String> = Default::default();
    book.visit(&mut |k, entry| {
        let pos = Position::from_sfen(k).map_err(|e| BookError::BadKey(e.0))?;
        let ak = key(&pos);
        if let Some(other) = keys_seen.insert(ak, k.to_string())
            && other != k
        {
            losses.add(
                "positions whose Apery key another has (collisions, dropped)",
                1,
            );
            return Ok(());
        }
        losses.add("notes", entry.comment.is_some() as u64);
        for m in entry.moves {
            losses.add("notes", m.comment.is_some() as u64);
            losses.add("replies (ponder)", m.ponder.is_some() as u64);
            losses.add("depths", (m.depth != 0) as u64);
            if m.count > u16::MAX as u64 {
                losses.add("counts above 65535 (written as 65535)", 1);
            }
            let v = match m.value {
                Some(v) => v,
                None => {
                    losses.add("missing values (written as 0)", 1);
                    0
                }
            };
            let mut e = [0u8; ENTRY];
            e[..8].copy_from_slice(&ak.to_le_bytes());
            e[8..10].copy_from_slice(&packed::apery_move(m.usi).to_le_bytes());
            e[10..12].copy_from_slice(&(m.count.min(u16::MAX as u64) as u16).to_le_bytes());
            e[12..16].copy_from_slice(&v.to_le_bytes());
            entries.push(e);
        }
        Ok(())
    })?;
    // Stable: a position's moves stay in the book's order.
    entries.sort_by_key(|e| u64::from_le_bytes(e[..8].try_into().expect("8")));
    Ok(Encoded {
        bytes: entries.concat(),
        losses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt19937_64_gives_the_published_10000th_output() {
        let mut mt = Mt64::new(5489);
        let mut last = 0;
        for _ in 0..10000 {
            last = mt.next_u64();
        }
        assert_eq!(last, 9981545732273789042);
        // And the first: a wrong tempering mask once matched at the 10000th by luck.
        let mut mt = Mt64::new(5489);
        assert_eq!(mt.next_u64(), 14514284786278117030);
    }

    #[test]
    fn the_start_positions_key_is_cshogis_book_key() {
        // cshogi 1.1.0: `hex(cshogi.Board().book_key())`.
        assert_eq!(key(&Position::startpos()), 0xeebe8ee7e1ad7e15);
    }
}
