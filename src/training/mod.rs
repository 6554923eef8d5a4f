//! Training from the user's own files: next-move problem sets (ShogiHome's format), made from
//! analysed games, and the attempt history that schedules them again.
//!
//! Layered above `core`, `engine`, `analyze`, `load`, `store` and `collection`, below `app` and `cli`.
//! Parts:
//!
//! - [`drill`]: what every kind of drill answers to the solve mode (`kifview train`), and
//!   the next-move drill; engine work asked for as data, never run here.
//! - [`set`]: ShogiHome's next-move problem format, read (checked as ShogiHome checks it) and
//!   written, fields it does not know kept.
//! - [`batch`]: `kifview problems make` over files and records.
//! - [`history`]: the attempts and the FSRS schedule, in SQLite in the user's data directory.
//! - [`make`]: problems from analysed games (ShogiHome's detection, re-search and adoption).
//! - [`tsume`]: the tsume drill: a record's main line as the answer, the defence played, another
//!   mate confirmed by the mate engine accepted as 余詰, splits per move.
//! - [`jissen`]: 実戦詰め, tsume made from the mating finishes of real games, confirmed by a
//!   mate engine's `go mate` and written as tsume records (`kifview problems tsume`).
//! - [`guess`]: guess-the-move (棋譜並べ): a record replayed with one side's moves (or both)
//!   hidden, each guess scored against the record's move and the analysis in its comments.
//! - [`repertoire_drill`]: a repertoire (a book, a record's variations) played for one side,
//!   the opponent's replies drawn by their counts.
//! - [`tags`]: what a problem is counted under in the statistics (a tsume's length, a game's
//!   strategy from `collection::tags`, the phase by ply).

pub mod drill;
pub mod set;

pub use set::{Problem, ProblemSet, SetError};
pub mod batch;
pub mod guess;
pub mod history;
pub mod jissen;
pub mod make;
pub mod repertoire_drill;
pub mod tags;
pub mod tsume;
