//! A position's placement (board, side to move, hands) read straight from a book key's text,
//! for the hot path of `kifview book convert`: a key written as [`super::key_of`] writes it is
//! read here without building a [`Position`] and writing its SFEN back (which cost a third of
//! a 10^7-position conversion).
//!
//! [`Placement::parse_key`] is strict: it reads only the canonical form (single spaces, runs of
//! empty squares merged, hands in SFEN order R B G S N L P with Black's first and counts from 2
//! to 18), and answers `None` for anything else, which its callers then read the general way
//! ([`Position::from_sfen`] and [`super::key_of`]). So what it reads is exactly what that path
//! reads, and the text is the key that path would write.

use crate::core::rules::{Color, Piece, PieceKind, Position, Square};

/// Board, side to move and hands: what a book key says of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Indexed by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// By [`Color::index`], then `PieceKind as usize` (pawn 0 to rook 6).
    pub hands: [[u8; 7]; 2],
    pub side: Color,
}

impl Placement {
    /// The placement of `pos`.
    pub fn of(pos: &Position) -> Placement {
        let mut board = [None; 81];
        for sq in Square::all() {
            board[sq.index()] = pos.piece_at(sq);
        }
        let mut hands = [[0u8; 7]; 2];
        for color in [Color::Black, Color::White] {
            for kind in PieceKind::HAND {
                hands[color.index()][kind as usize] = pos.hand_count(color, kind);
            }
        }
        Placement {
            board,
            hands,
            side: pos.side_to_move(),
        }
    }

    /// Reads `<board> <side> <hands>` when it is written exactly as [`super::key_of`] writes a
    /// key; `None` otherwise (not a position, or one written another way). One pass over the
    /// bytes.
    pub fn parse_key(text: &[u8]) -> Option<Placement> {
        let mut board = [None; 81];
        let mut at = 0;
        for rank in 0..9usize {
            if rank > 0 {
                (text.get(at) == Some(&b'/')).then_some(())?;
                at += 1;
            }
            // Files from 9 down to 1; `file` is how many are left to fill.
            let mut file = 9usize;
            let mut last_digit = false;
            while file > 0 {
                let c = *text.get(at)?;
                at += 1;
                if let d @ b'1'..=b'9' = c {
                    let d = (d - b'0') as usize;
                    if last_digit || d > file {
                        return None;
                    }
                    file -= d;
                    last_digit = true;
                    continue;
                }
                last_digit = false;
                let piece = match c {
                    b'+' => {
                        let p = letter(*text.get(at)?)?;
                        at += 1;
                        Piece::new(p.kind.promote()?, p.color)
                    }
                    c => letter(c)?,
                };
                board[(file - 1) * 9 + rank] = Some(piece);
                file -= 1;
            }
        }
        let side = match text.get(at..at + 3)? {
            b" b " => Color::Black,
            b" w " => Color::White,
            _ => return None,
        };
        let hands_text = &text[at + 3..];
        let mut hands = [[0u8; 7]; 2];
        if hands_text != b"-" {
            // Each kind once, in to_sfen's order: Black's R B G S N L P, then White's; a count
            // from 2 to 18 before a kind held more than once.
            let mut next_slot = 0usize;
            let mut rest = hands_text;
            while !rest.is_empty() {
                let (n, after) = match rest {
                    [b'1', d @ b'0'..=b'8', after @ ..] => (10 + d - b'0', after),
                    [d @ b'2'..=b'9', after @ ..] => (d - b'0', after),
                    _ => (1, rest),
                };
                let (&c, after) = after.split_first()?;
                let p = letter(c).filter(|p| p.kind.is_hand_kind())?;
                let order = PieceKind::HAND.iter().position(|&k| k == p.kind)?;
                let slot = p.color.index() * 7 + order;
                if slot < next_slot {
                    return None;
                }
                next_slot = slot + 1;
                hands[p.color.index()][p.kind as usize] = n;
                rest = after;
            }
            if next_slot == 0 {
                return None;
            }
        }
        Some(Placement { board, hands, side })
    }
}

/// The piece an SFEN letter names (upper case Black's, lower case White's).
fn letter(c: u8) -> Option<Piece> {
    let color = match c.is_ascii_uppercase() {
        true => Color::Black,
        false => Color::White,
    };
    let kind = match c.to_ascii_uppercase() {
        b'P' => PieceKind::Pawn,
        b'L' => PieceKind::Lance,
        b'N' => PieceKind::Knight,
        b'S' => PieceKind::Silver,
        b'G' => PieceKind::Gold,
        b'B' => PieceKind::Bishop,
        b'R' => PieceKind::Rook,
        b'K' => PieceKind::King,
        _ => return None,
    };
    Some(Piece::new(kind, color))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the general path makes of `text`: the placement and the key it writes, if any.
    fn general(text: &str) -> Option<(Placement, String)> {
        let pos = Position::from_sfen(text).ok()?;
        Some((Placement::of(&pos), super::super::key_of(&pos)))
    }

    #[test]
    fn a_key_reads_as_the_general_path_reads_it_and_is_the_key_it_writes() {
        for key in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
            "ln1g3nl/1r1sk1gs1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1B2K2R1/LN1G1GSNL w B",
            "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p",
            "8k/9/9/9/9/9/9/9/+P+L+N+SGK+B+R1 w rb3g3s3n3l17p",
            "+B1s1k1s1l/2rgg4/n2pp1npb/Lpp2p2p/p5p1P/2P1PP3/PPGP2PPL/L1S2R3/1N2KGSN1 b RBGSNLPrbgsnlp",
            "9/9/9/9/9/9/9/9/9 w 2P",
        ] {
            let fast = Placement::parse_key(key.as_bytes()).unwrap_or_else(|| panic!("{key}"));
            let (placement, written) = general(key).unwrap();
            assert_eq!(fast, placement, "{key}");
            assert_eq!(written, key);
        }
    }

    #[test]
    fn anything_not_written_as_a_key_is_left_to_the_general_path() {
        for text in [
            // Not canonical: the general path reads these, and writes them another way.
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL  b -",
            "lnsgkgsnl/1r5b1/ppppppppp/45/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
            "4k4/9/9/9/9/9/9/9/4K4 b PR",
            "4k4/9/9/9/9/9/9/9/4K4 b 1P",
            "4k4/9/9/9/9/9/9/9/4K4 b pP",
            "4k4/9/9/9/9/9/9/9/4K4 b PP",
            "4k4/9/9/9/9/9/9/9/4K4 b 02P",
            // Not positions at all.
            "4k4/9/9/9/9/9/9/9/4K4 b 19P",
            "4k4/9/9/9/9/9/9/9/4K4 b 2",
            "4k4/9/9/9/9/9/9/9/4K4 b K",
            "4k4/9/9/9/9/9/9/9/4K4 x -",
            "4k4/9/9/9/9/9/9/9/4K4 b",
            "4k4/9/9/9/9/9/9/9 b -",
            "4k4/9/9/9/9/9/9/9/4K4/9 b -",
            "4k5/9/9/9/9/9/9/9/4K4 b -",
            "4k3/9/9/9/9/9/9/9/4K4 b -",
            "4+k4/9/9/9/9/9/9/9/4K4 b -",
            "4+G4/9/9/9/9/9/9/9/4K4 b -",
            "4k3+/9/9/9/9/9/9/9/4K4 b -",
            "4k++p3/9/9/9/9/9/9/9/4K4 b -",
            "4k0p3/9/9/9/9/9/9/9/4K4 b -",
            "4k4/9/9/9/9/9/9/9/4K4 b -\n",
            "",
        ] {
            assert_eq!(Placement::parse_key(text.as_bytes()), None, "{text:?}");
        }
    }

    #[test]
    fn whatever_reads_fast_reads_the_same_the_general_way() {
        // Every text made of a key's letters up to a length: what the strict reader takes, the
        // general path takes too, with the same placement, and writes back unchanged.
        let mut rng = crate::core::seeded::SplitMix::new(33);
        let alphabet = b"19+/pPkKgGrRb -w2";
        let base = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        let mut read = 0;
        for _ in 0..200_000 {
            let mut t = base.as_bytes().to_vec();
            for _ in 0..1 + rng.next_u64() % 3 {
                let at = (rng.next_u64() % t.len() as u64) as usize;
                let c = alphabet[(rng.next_u64() % alphabet.len() as u64) as usize];
                match rng.next_u64() % 3 {
                    0 => t[at] = c,
                    1 => t.insert(at, c),
                    _ => {
                        t.remove(at);
                    }
                }
            }
            let Some(fast) = Placement::parse_key(&t) else {
                continue;
            };
            read += 1;
            let text = String::from_utf8(t).unwrap();
            let (placement, written) = general(&text).unwrap_or_else(|| panic!("{text:?}"));
            assert_eq!(fast, placement, "{text:?}");
            assert_eq!(written, text);
        }
        assert!(read > 1000, "only {read} texts read");
    }
}
