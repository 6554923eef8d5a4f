//! Helpers that build records by hand, for tests and examples.

use crate::core::record::{NodeId, Record, Step};
use crate::core::rules::Move;

/// Appends the USI move `usi` as a new child of `parent`. Panics if it is not legal there
/// (meant for hand-written test records).
pub fn push_usi(record: &mut Record, parent: NodeId, usi: &str) -> NodeId {
    let mv = Move::from_usi(usi).unwrap_or_else(|| panic!("bad USI move {usi}"));
    let md = record
        .position_at(parent)
        .play_move(mv)
        .unwrap_or_else(|e| panic!("illegal test move {usi}: {e}"));
    record.push_child(parent, Step::Move(md))
}

/// Appends space-separated USI moves from `parent`; returns the last node.
pub fn push_line(record: &mut Record, parent: NodeId, moves: &str) -> NodeId {
    moves
        .split_whitespace()
        .fold(parent, |p, m| push_usi(record, p, m))
}

/// An app showing the first record of `text` (format detected as for a pasted record).
pub fn app_with(text: &str) -> super::App {
    let loaded = crate::core::notation::load(text.as_bytes(), None);
    let record = loaded.records.into_iter().next().expect("a record").record;
    super::App::new(
        record,
        super::RecordSource::untitled("t.kif"),
        super::Config::defaults(),
    )
}

/// Changes the record of `app` by `edit` as every edit key does (`App::apply`: one undo step
/// of the history, the cursor going where it happened), for tests that need a record state
/// no key reaches in one step.
pub fn apply(
    app: &mut super::App,
    edit: crate::core::record::Edit,
) -> Result<NodeId, crate::core::record::EditError> {
    app.apply(edit)
}

/// Runs `command` until `done` holds (at most `n` times), as its key would; for the cycling
/// commands (`focus_next`, `flip_board`, `cycle_board_size`).
pub fn run_until(
    app: &mut super::App,
    command: super::Command,
    n: usize,
    done: impl Fn(&super::App) -> bool,
) {
    for _ in 0..n {
        if done(app) {
            return;
        }
        super::update(app, super::Action::Run(command));
    }
    assert!(done(app), "{command:?} did not get there in {n} steps");
}

/// The config of a running app, for tests that change a setting the config file would give
/// (times of an analysis).
pub fn config_mut(app: &mut super::App) -> &mut super::Config {
    &mut app.config
}

/// Research mode with the engine `--engine` would name (`None`: the config's, else one
/// found installed), as at launch.
pub fn use_engine(app: &mut super::App, engine: Option<String>) {
    app.research = super::research::state::Research::new(engine, app.config.analysis.best_move);
}

/// The clocks of the games `app` starts from now on read `time` (a `game::FakeTime` in
/// tests, which moves only when told).
pub fn play_time(app: &mut super::App, time: std::sync::Arc<dyn crate::game::TimeSource>) {
    app.research.play.time = Some(time);
}
