//! Generated opening books for the book benchmark and the 10^6-position round trip test:
//! random games of 40 plies from the start, every position on them stored with the move
//! played (so that a walk from the start along the book's moves reaches each: Apery's books
//! are found that way) and another legal move.

use kifview::book::{self, BookMove, Entry};
use kifview::core::rules::Position;

/// A small deterministic generator (SplitMix64).
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Random games of 40 plies from the start: every position on them with the move played
/// and another legal one, values, depths and counts drawn at random; about `positions`
/// positions (a few repeat, merged by the writer). Gives every 997th key to `keys`.
pub fn random_book(
    positions: usize,
    keys: &mut Vec<String>,
    f: book::Visitor<'_>,
) -> book::Result<()> {
    let mut rng = Mix(positions as u64);
    let games = positions.div_ceil(40);
    let mut n = 0usize;
    for _ in 0..games {
        let mut pos = Position::startpos();
        for ply in 1..=40u32 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let r = rng.next();
            let mv = moves[(r % moves.len() as u64) as usize];
            let alt = moves[((r >> 20) % moves.len() as u64) as usize];
            let mut list = Vec::with_capacity(2);
            for m in [mv, alt] {
                if list.iter().any(|x: &BookMove| x.usi == m) {
                    continue;
                }
                let r = rng.next();
                list.push(BookMove {
                    value: Some((r % 2001) as i32 - 1000),
                    depth: (r >> 16) as u32 % 40,
                    count: (r >> 32) % 300 + 1,
                    ..BookMove::new(m)
                });
            }
            let key = book::key_of(&pos);
            if n.is_multiple_of(997) && ply > 1 {
                keys.push(key.clone());
            }
            n += 1;
            f(
                &key,
                Entry {
                    ply,
                    comment: None,
                    moves: list,
                },
            )?;
            pos.play(mv).expect("a legal move");
        }
    }
    Ok(())
}
