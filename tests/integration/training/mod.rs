//! Training (`kifview problems`, `kifview train`): problem sets in ShogiHome's format made from
//! analysed games, the attempt history and its schedule.

mod guess;
mod make;
mod solve;
mod train;
