//! Where a match's openings come from besides a file (`matches::read_openings`): the positions
//! the games of a collection's index reach at a ply (`kifview match --openings-from FILTER
//! --ply N`), and walks through an opening book drawn by its counts from a seed (`--book BOOK
//! --ply N --seed S`). Each opening is played twice, colours swapped, by the match.

use super::matches::Opening;
use crate::book::{self, Lookup};
use crate::collection::keys::decode_move;
use crate::collection::{Filter, Index};
use crate::core::rules::{Move, Position};
use crate::core::seeded::SplitMix;
use std::collections::HashSet;

/// The distinct positions the games of `idx` passing `filter` reach after `ply` moves (a game
/// shorter than that gives none), each with the first game's moves to it, in the index's
/// order of games. Err: the index could not be read, or no game reaches the ply.
pub fn from_index(idx: &Index, filter: &Filter, ply: usize) -> Result<Vec<Opening>, String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut games = 0u64;
    idx.each_main_line(filter, &mut |id, initial, codes| {
        games += 1;
        let start = match initial {
            None => Position::startpos(),
            Some(s) => match Position::from_sfen(s) {
                Ok(p) => p,
                Err(_) => return Ok(()),
            },
        };
        let moves: Vec<Move> = codes
            .chunks_exact(2)
            .map_while(|c| decode_move(u16::from_le_bytes([c[0], c[1]])))
            .take(ply)
            .collect();
        if moves.len() < ply {
            return Ok(());
        }
        let mut pos = start.clone();
        for &mv in &moves {
            if pos.play(mv).is_err() {
                return Ok(());
            }
        }
        if seen.insert(pos.to_sfen()) {
            out.push(Opening {
                start,
                moves,
                label: format!("index game {id}, {ply} moves"),
            });
        }
        Ok(())
    })?;
    if out.is_empty() {
        return Err(format!(
            "--openings-from: none of the {games} games of the index passing the filter reaches move {ply}"
        ));
    }
    Ok(out)
}

/// `rounds` openings walked through `book` from the start position: at each of `ply` moves,
/// one of the book's legal moves for the position, drawn in proportion to its count (evenly
/// when the book has no counts there, as a `.ybb`); a walk stops early where the book has no
/// move. Round `r`'s walk depends only on `seed` and `r`, so shards draw the same openings.
/// `name` labels them. Err: the book cannot be read, or has no move for the start position.
pub fn from_book(
    book: &dyn Lookup,
    name: &str,
    ply: usize,
    rounds: u32,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let start = Position::startpos();
    let first = book
        .moves(&book::key_of(&start))
        .map_err(|e| format!("{name}: {e}"))?;
    if first.iter().all(|m| start.clone().play(m.usi).is_err()) {
        return Err(format!(
            "{name}: the book has no legal move for the start position"
        ));
    }
    (1..=rounds)
        .map(|round| {
            let mut rng =
                SplitMix::new(seed ^ u64::from(round).wrapping_mul(0xD1B5_4A32_D192_ED03));
            let mut pos = start.clone();
            let mut moves = Vec::with_capacity(ply);
            while moves.len() < ply {
                let legal: Vec<_> = book
                    .moves(&book::key_of(&pos))
                    .map_err(|e| format!("{name}: {e}"))?
                    .into_iter()
                    .filter(|m| pos.clone().play(m.usi).is_ok())
                    .collect();
                if legal.is_empty() {
                    break;
                }
                let counts: Vec<u64> = legal.iter().map(|m| m.count).collect();
                let Some(i) = rng.pick(&counts) else { break };
                let mv = legal[i].usi;
                pos.play(mv)
                    .map_err(|e| format!("{name}: {}", e.describe()))?;
                moves.push(mv);
            }
            let line: Vec<String> = moves.iter().map(|m| m.usi()).collect();
            Ok(Opening {
                start: start.clone(),
                label: format!("{name} (seed {seed}, round {round}): {}", line.join(" ")),
                moves,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{Book, BookMove, Entry};

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    fn book_move(usi: &str, count: u64) -> BookMove {
        BookMove {
            usi: mv(usi),
            ponder: None,
            value: None,
            depth: 0,
            count,
            comment: None,
        }
    }

    /// A book: at the start 7g7f (count 3) and 2g2f (count 1); after 7g7f, 3c3d; nothing
    /// after 2g2f; and an illegal move listed at the start, never drawn.
    fn book() -> Book {
        let mut b = Book::new();
        let start = Position::startpos();
        let entry = |moves| Entry {
            ply: 1,
            comment: None,
            moves,
        };
        b.insert(
            book::key_of(&start),
            entry(vec![
                book_move("7g7f", 3),
                book_move("2g2f", 1),
                book_move("5e5d", 100),
            ]),
        );
        let mut p = start.clone();
        p.play(mv("7g7f")).unwrap();
        b.insert(book::key_of(&p), entry(vec![book_move("3c3d", 1)]));
        b
    }

    #[test]
    fn book_walks_follow_the_counts_stop_where_the_book_ends_and_repeat_with_the_seed() {
        let b = book();
        let draws = from_book(&b, "b.db", 4, 400, 7).unwrap();
        assert_eq!(draws.len(), 400);
        let mut long = 0;
        for o in &draws {
            let line: Vec<String> = o.moves.iter().map(|m| m.usi()).collect();
            match line.as_slice() {
                [a, b] if a == "7g7f" && b == "3c3d" => long += 1,
                [a] if a == "2g2f" => {}
                other => panic!("not a walk of the book: {other:?}"),
            }
        }
        // 3 : 1 by count: 300 expected of 400; well inside 5 standard deviations (~8.7).
        assert!((257..=343).contains(&long), "{long} of 400 took 7g7f");
        let again = from_book(&b, "b.db", 4, 400, 7).unwrap();
        assert!(draws.iter().zip(&again).all(|(a, b)| a.moves == b.moves));
        let other = from_book(&b, "b.db", 4, 400, 8).unwrap();
        assert!(draws.iter().zip(&other).any(|(a, b)| a.moves != b.moves));
        assert!(draws[0].label.starts_with("b.db (seed 7, round 1): "));
    }

    #[test]
    fn a_book_without_the_start_position_is_refused() {
        let err = from_book(&Book::new(), "empty.db", 4, 2, 1).err().unwrap();
        assert!(
            err.contains("no legal move for the start position"),
            "{err}"
        );
    }
}
