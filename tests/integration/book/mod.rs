//! Opening books: the formats (read, write, round trips, untrusted input), the `book`
//! commands (`book build`: build*.rs), the viewer's book pane (pane*.rs), and what other
//! programs (rsshogi, cshogi) make of kifview's books.

mod build;
mod cli;
mod formats;
mod huge;
mod pane;
mod peers;
mod recovery_e2e;
mod save_background;
mod text;

use kifview::book::{Book, BookMove, key_of};
use kifview::core::rules::Position;

/// A generated book: `games` random games of up to `plies` moves from the start (a fixed
/// seed), every position on them with its move, assorted values (some missing), depths,
/// counts, replies and notes; drops and promotions come up on the way.
pub fn generated(games: u32, plies: u32, seed: u64) -> Book {
    let mut rng = seed;
    let mut next = move || {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) as u32
    };
    let mut book = Book::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for ply in 1..=plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[next() as usize % moves.len()];
            let r = next();
            let mut m = BookMove::new(mv);
            m.value = (r % 5 != 0).then(|| (r % 2001) as i32 - 1000);
            m.depth = r % 40;
            m.count = (r % 300) as u64 + 1;
            let key = key_of(&pos);
            let fresh = book
                .get(&key)
                .is_none_or(|e| !e.moves.iter().any(|x| x.usi == mv));
            if fresh {
                book.add_move(&key, ply, m);
            }
            pos.play(mv).expect("legal");
        }
    }
    book
}
