//! Playing in the viewer (`app::play`), driven by keys against the scripted fake engine
//! (`tests/fixtures/engines/replay.sh`) on a fake clock (`game::FakeTime`): the setup, a move
//! and the engine's reply with their times, takeback, resign, time loss, the game in the
//! record, and the clocks on screen; the clocks through takebacks, suspensions and a late read.

mod clocks;
mod game;
mod modes;
mod recovery_e2e;
