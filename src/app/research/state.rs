//! Research mode's state, kept in [`App`](crate::app::App): the engine, whether it follows the
//! cursor, what it was last asked to search, the session's engine options; and whether the
//! evaluation graph is shown. The behaviour is in `research/mod.rs` and `research/graph.rs`
//! (this file imports neither, so `App` can hold these without a cycle).

use crate::core::record::NodeId;
use crate::engine::{Analysis, Engine, EngineSpec, State};
use std::time::{Duration, Instant};

/// How long the cursor stays on a position before the engine is asked for it.
pub const DEBOUNCE: Duration = Duration::from_millis(100);

/// What a search is of: the record (its generation) and the node.
pub(crate) type Target = (u64, NodeId);

/// The engine and research mode's state (part of [`App`](crate::app::App)).
#[derive(Default)]
pub struct Research {
    pub(crate) engine: Option<Engine>,
    /// Analysing (following the cursor).
    pub on: bool,
    /// Highlight the best move's squares on the board.
    pub show_best: bool,
    /// `--engine NAME|PATH`.
    pub(crate) choice: Option<String>,
    /// The engine picked with `:engine` (wins over `choice`).
    pub(crate) picked: Option<EngineSpec>,
    /// What the engine was last asked to search.
    pub(crate) searched: Option<Target>,
    /// Where the cursor is and since when, while that differs from `searched`.
    pub(crate) pending: Option<(Target, Instant)>,
    /// Bumped when another record replaces the current one (node ids start over).
    pub(crate) epoch: u64,
    /// `:set NAME VALUE` options, applied to every engine started in this session.
    pub(crate) session: Vec<(String, String)>,
    /// Why the engine stopped (crash, timeout), until it is started again.
    pub failure: Option<String>,
    /// The engine's error alone, without research mode's hints (`a starts it again`): what
    /// other screens quote (the solve mode's notes). Set and cleared with `failure`.
    pub(crate) cause: Option<String>,
    /// `:analyze` or `:mate` running on the engine (`research/analyze.rs`).
    pub(crate) job: Option<Job>,
    /// The last mate `:mate` found: the position's node and the moves (`I` inserts them).
    pub(crate) mate_line: Option<(Target, Vec<crate::core::rules::Move>)>,
    /// Playing a game against the engine, or watching two (`app::play`): its own engines.
    pub play: crate::app::play::state::Play,
}

/// Work for the engine other than following the cursor.
#[derive(Debug)]
pub(crate) enum Job {
    /// `:analyze`: the record's main line, one search after another.
    Analyze(Box<AnalyzeRun>),
    /// `:mate`: one `go mate` of a position.
    Mate {
        search: crate::engine::SearchId,
        target: Target,
        /// When to stop it if the engine does not keep its own time (counted from `go
        /// mate`: while the engine is not ready yet, it moves on).
        give_up: Instant,
        /// The time asked for.
        time: std::time::Duration,
    },
}

/// `:analyze` under way.
#[derive(Debug)]
pub(crate) struct AnalyzeRun {
    pub(crate) plan: crate::analyze::Plan,
    /// The step being searched and its search.
    pub(crate) step: usize,
    pub(crate) search: Option<crate::engine::SearchId>,
    /// The record the plan's nodes belong to.
    pub(crate) epoch: u64,
    /// The record's revision after the last comment written: while the record is at it,
    /// the next comment joins that undo step.
    pub(crate) rev: Option<crate::core::record::Revision>,
    pub(crate) written: usize,
    pub(crate) marks: usize,
    pub(crate) engine: String,
    pub(crate) marker: String,
}

impl std::fmt::Debug for Research {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Research")
            .field(
                "engine",
                &self.engine.as_ref().map(|e| e.info().name.clone()),
            )
            .field("on", &self.on)
            .field("searched", &self.searched)
            .finish_non_exhaustive()
    }
}

impl Research {
    pub fn new(choice: Option<String>, show_best: bool) -> Research {
        Research {
            choice,
            show_best,
            ..Research::default()
        }
    }

    /// The engine stopped: research is off, `failure` says so on research's screen, `cause`
    /// is its error alone.
    pub(crate) fn failed(&mut self, failure: String, cause: String) {
        self.on = false;
        self.pending = None;
        self.failure = Some(failure);
        self.cause = Some(cause);
    }

    /// The engine is running again: no failure to show.
    pub(crate) fn clear_failure(&mut self) {
        self.failure = None;
        self.cause = None;
    }

    /// The running (or dead) engine, if one was started.
    pub fn engine(&self) -> Option<&Engine> {
        self.engine.as_ref()
    }

    /// The latest analysis, if an engine was started.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.engine.as_ref().map(Engine::analysis)
    }

    /// The engine's name (`id name`) once it said it, else the configured one.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine.as_ref().map(|e| e.info().name.as_str())
    }

    /// Another record replaced the current one: its node ids mean other positions.
    pub(crate) fn record_replaced(&mut self) {
        self.epoch += 1;
        self.mate_line = None;
        self.searched = None;
        self.pending = None;
        if let Some(e) = self.engine.as_mut() {
            e.new_game();
        }
        // A game was played in the record left: it stops there (its engines quit).
        if let Some(mut m) = self.play.current.take() {
            m.take_engines().into_iter().for_each(retire_engine);
        }
    }

    /// Quits the engine (`quit`, then killed after the driver's quit timeout) and waits for
    /// it, so no process outlives kifview.
    pub fn shutdown(&mut self) {
        if let Some(e) = self.engine.take() {
            quit_and_wait(e);
        }
        if let Some(m) = self.play.current.as_mut() {
            m.take_engines().into_iter().for_each(quit_and_wait);
        }
    }

    /// Quits the engine on a thread of its own (`:engine OTHER`: the screen does not wait
    /// for an engine that takes its time to go). Should kifview end first, the engine's
    /// guardian kills its process group.
    pub fn retire(&mut self) {
        if let Some(e) = self.engine.take() {
            retire_engine(e);
        }
    }
}

/// Quits `e` on a thread of its own (see [`Research::retire`]).
pub(crate) fn retire_engine(e: Engine) {
    let spawned = std::thread::Builder::new()
        .name("engine-quit".into())
        .spawn(move || quit_and_wait(e));
    // Without a thread the engine was dropped with the closure: killed at once.
    drop(spawned);
}

/// `quit`, and waits until the engine is gone (killed after the driver's quit timeout).
pub(crate) fn quit_and_wait(mut e: Engine) {
    e.quit();
    let deadline = Instant::now() + Duration::from_secs(6);
    while e.state() != State::Dead && Instant::now() < deadline {
        e.wait(Duration::from_millis(50));
    }
}

/// Whether the graph is shown and on which scale (part of [`App`](crate::app::App)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GraphView {
    /// Shown by `E` (or `%`).
    pub shown: bool,
    /// Sente's win % instead of centipawns (clamped to ±2,000).
    pub win_percent: bool,
    /// Shown by itself where it fits, without `E`: the record's comments hold evaluations
    /// (set when a record is opened; `E` decides from then on).
    pub auto: bool,
}
