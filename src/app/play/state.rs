//! Playing's state, kept in [`App`](crate::app::App) (through `Research`, which owns the
//! engines): the game being played with its clock and engines, the record's nodes it went
//! through, and what the last setup chose. The behaviour is in `play/mod.rs`; this file names
//! nothing else of the app, so `App` can hold it without a cycle.

use crate::core::record::NodeId;
use crate::core::rules::Color;
use crate::engine::{Engine, EngineSpec, SearchId};
use crate::game::{Clock, Game, TimeControl, TimeSource};
use std::sync::Arc;

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// The user, through the board and typed moves.
    Human,
    /// An engine started for the game.
    Engine(EngineSpec),
}

/// What the setup chose: who plays each side, the time control, the names, and where the
/// game goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// ▲ then △.
    pub players: [Player; 2],
    pub time_control: TimeControl,
    /// 先手 then 後手, as the record names them.
    pub names: [String; 2],
    /// A new record from the position, instead of a variation from it.
    pub new_record: bool,
}

impl Settings {
    /// The side the user plays, when one (None: two engines, the user watches).
    pub fn human(&self) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|c| self.players[c.index()] == Player::Human)
    }
}

/// The search an engine is running for its move: which engine, its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Thinking {
    pub side: Color,
    pub search: SearchId,
}

/// A game on the board (over or not): the rules' state, the clocks, the engines, and where
/// it is in the record.
pub struct Match {
    pub(crate) settings: Settings,
    pub(crate) game: Game,
    pub(crate) clock: Clock,
    /// Each side's engine (none for the user's side); quit when the game ends.
    pub(crate) engines: [Option<Engine>; 2],
    pub(crate) thinking: Option<Thinking>,
    /// The record's node the game started from, and the node of each move played since.
    pub(crate) start: NodeId,
    pub(crate) nodes: Vec<NodeId>,
    /// The record (its generation, `Research::epoch`) the nodes belong to.
    pub(crate) epoch: u64,
    /// The game's info goes into the record's header (a new or empty record), else into the
    /// comment of its first move (a variation).
    pub(crate) in_header: bool,
    /// 開始日時.
    pub(crate) started: String,
    /// Why it ended, for the clocks' line, once over.
    pub(crate) result: Option<String>,
    /// The clock's time, and when the running side's turn began on it.
    pub(crate) source: Arc<dyn TimeSource>,
    pub(crate) since: Option<std::time::Duration>,
}

impl std::fmt::Debug for Match {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Match")
            .field("settings", &self.settings)
            .field("moves", &self.nodes.len())
            .field("thinking", &self.thinking)
            .field("result", &self.result)
            .finish_non_exhaustive()
    }
}

impl Match {
    /// The record's node of the game's last move (its start before any).
    pub(crate) fn tip(&self) -> NodeId {
        self.nodes.last().copied().unwrap_or(self.start)
    }
    /// Is the game still being played?
    pub fn on(&self) -> bool {
        !self.game.is_over()
    }
    /// Are the game's engines ready (started, handshake done)?
    pub fn engines_ready(&self) -> bool {
        self.engines.iter().flatten().all(|e| {
            matches!(
                e.state(),
                crate::engine::State::Ready | crate::engine::State::Searching
            )
        })
    }
    /// Is `side`'s engine still starting (its handshake not done)?
    pub fn engine_starting(&self, side: Color) -> bool {
        self.engines[side.index()].as_ref().is_some_and(|e| {
            !matches!(
                e.state(),
                crate::engine::State::Ready | crate::engine::State::Searching
            )
        })
    }
    /// Is an engine thinking on its move?
    pub fn engine_thinking(&self) -> bool {
        self.thinking.is_some()
    }
    /// The game's rules and moves.
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// Who plays `side`.
    pub fn player(&self, side: Color) -> &Player {
        &self.settings.players[side.index()]
    }
    /// `side`'s time runs from now.
    pub(crate) fn start_clock(&mut self, side: Color) {
        self.clock.start(side);
        self.since = Some(self.source.now());
    }
    /// How long the running side has thought on this move.
    pub(crate) fn thinking_for(&self) -> Option<std::time::Duration> {
        let since = self.since.filter(|_| self.clock.running().is_some())?;
        Some(self.source.now().saturating_sub(since))
    }
    /// The time `side`'s last move took, for the clocks.
    pub(crate) fn last_spent(&self, side: Color) -> Option<std::time::Duration> {
        let first = self.game.start().side_to_move();
        let played = self.game.played();
        let mine = |i: usize| i.is_multiple_of(2) == (side == first);
        (0..played.len())
            .rev()
            .find(|&i| mine(i))
            .and_then(|i| played[i].spent)
    }
    /// The game's clocks were stopped (kifview suspended) for `away`: not charged.
    pub(crate) fn suspended(&self, away: std::time::Duration) {
        self.source.suspended(away);
    }
    /// Takes the engines out (to be quit).
    pub(crate) fn take_engines(&mut self) -> Vec<Engine> {
        self.engines.iter_mut().filter_map(Option::take).collect()
    }
}

/// Playing's part of the app: the game on the board, the last setup, and where its clock
/// reads the time.
#[derive(Default)]
pub struct Play {
    pub(crate) current: Option<Box<Match>>,
    /// The last settings started, to offer again.
    pub(crate) last: Option<Settings>,
    /// The clocks' time (tests give a fake one); None: the machine's.
    pub(crate) time: Option<Arc<dyn TimeSource>>,
    /// Show the engine's evaluation and line beside the clocks.
    pub show_eval: bool,
}

impl std::fmt::Debug for Play {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Play")
            .field("current", &self.current)
            .field("show_eval", &self.show_eval)
            .finish_non_exhaustive()
    }
}

impl Play {
    /// The game on the board, over or not.
    pub fn current(&self) -> Option<&Match> {
        self.current.as_deref()
    }
    /// The game being played (not over).
    pub(crate) fn running(&self) -> Option<&Match> {
        self.current().filter(|m| m.on())
    }
    /// The game's engines, to change (their deadlines move on after a suspension).
    pub(crate) fn engines_mut(&mut self) -> impl Iterator<Item = &mut Engine> {
        self.current
            .iter_mut()
            .flat_map(|m| m.engines.iter_mut().flatten())
    }
    /// The game's engines, running or not.
    pub fn engines(&self) -> impl Iterator<Item = &Engine> {
        self.current.iter().flat_map(|m| m.engines.iter().flatten())
    }
}
