//! Games: time controls and the clock, the rules a game ends by, a game as a record, and the
//! engine-vs-engine loop and statistics of `kifview match`. No terminal crate: the viewer's
//! playing (`app::play`) and the match runner (`cli::matches`) both build on it.
//!
//! - [`time`]: [`TimeControl`] (Fischer `10+0.1`, byoyomi, sudden death, nodes or depth per
//!   move: parsed and shown), [`Clock`] charged from the position sent to the move received,
//!   on a [`TimeSource`] that tests replace with [`FakeTime`].
//! - [`state`]: [`Game`], the moves played with their times and comments, and how it ends:
//!   mate, resignation, 入玉宣言 (`core::rules::declare`), 千日手 and 連続王手の千日手
//!   (`core::rules::Repetition`), time, illegal moves, an engine's fault, the move limit.
//! - [`record`]: a game as a [`Record`](crate::core::record::Record) (names, 開始日時/終了日時,
//!   持ち時間, times per move in KIF form, the ending word), and the result a record's ending
//!   says.
//! - [`matches`]: the match (game pairs, workers, records in KIF or CSA, the summary and
//!   `report`); [`openings`]: openings from a collection's index at a ply, and walks through an
//!   opening book drawn by count from a seed; [`adjudicate`]: resign and draw adjudication by
//!   the engines' scores (`--resign`, `--draw`, off by default).

pub mod adjudicate;
pub mod matches;
pub mod openings;
pub mod record;
pub mod runner;
pub mod state;
pub mod stats;
pub mod time;

pub use record::{GameInfo, game_record, record_result, result_of, special_for};
pub use state::{EndReason, Game, GameEnd, GameRules, Played};
pub use time::{Charge, Clock, FakeTime, GoTimes, PerMove, SystemTime, TimeControl, TimeSource};
