//! The engine-vs-engine game loop: two [`Player`]s through the USI driver, each sent the game
//! so far and `go` with the clock's times (or nodes, or depth), charged from the position sent
//! to `bestmove` received, and the game adjudicated by the rules. A crash, a hang (no
//! `bestmove` within the time left plus a margin), an illegal move or an answer that is no
//! move loses the game for the engine that caused it, named in the record; the engine is
//! started again for the next game.

use super::adjudicate::{Adjudication, Tracker, Verdict, mover_cp};
use super::record::{GameInfo, game_record, now_text};
use super::state::{EndReason, Game, GameRules};
use super::time::{Clock, PerMove, TimeControl, TimeSource};
use crate::core::record::Record;
use crate::core::rules::{Color, Move, Position};
use crate::engine::{
    Engine, EngineEvent, EngineSpec, Limit, SearchEnd, SearchRequest, State, Timeouts,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What kind of fault lost a game, for the match's error counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The flag fell, or the engine hung past its time.
    Time,
    /// The engine crashed, exited, failed to start or broke the protocol.
    Crash,
    /// An illegal move (or a false declaration).
    Illegal,
}

impl FaultKind {
    pub fn word(self) -> &'static str {
        match self {
            FaultKind::Time => "time",
            FaultKind::Crash => "crash",
            FaultKind::Illegal => "illegal",
        }
    }

    pub fn from_word(w: &str) -> Option<FaultKind> {
        match w {
            "time" => Some(FaultKind::Time),
            "crash" => Some(FaultKind::Crash),
            "illegal" => Some(FaultKind::Illegal),
            _ => None,
        }
    }
}

/// One side of a match: its name (as the records show it) and its engine, started on first
/// use and again after a crash.
pub struct Player {
    pub name: String,
    spec: EngineSpec,
    timeouts: Timeouts,
    engine: Option<Engine>,
}

impl Player {
    pub fn new(name: String, spec: EngineSpec, timeouts: Timeouts) -> Player {
        Player {
            name,
            spec,
            timeouts,
            engine: None,
        }
    }

    /// The engine, started (or started again) and ready; Err: why it could not be.
    fn ready(&mut self) -> Result<&mut Engine, String> {
        let alive = self
            .engine
            .as_ref()
            .is_some_and(|e| !matches!(e.state(), State::Dead | State::Quitting));
        if !alive {
            self.engine = None;
            let e =
                Engine::start_with(self.spec.clone(), self.timeouts).map_err(|e| e.to_string())?;
            self.engine = Some(e);
        }
        let engine = self.engine.as_mut().expect("started");
        let end = Instant::now() + self.timeouts.handshake + Duration::from_secs(1);
        while engine.state() != State::Ready {
            if Instant::now() >= end {
                return Err(format!("engine {} did not become ready", self.name));
            }
            for ev in engine.wait(Duration::from_millis(100)) {
                if let EngineEvent::Error(e) = ev {
                    self.engine = None;
                    return Err(e.to_string());
                }
            }
        }
        Ok(self.engine.as_mut().expect("started"))
    }

    /// Stops the engine (it is started again when next needed).
    fn kill(&mut self) {
        self.engine = None;
    }
}

/// How games are played.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub time_control: TimeControl,
    pub rules: GameRules,
    /// Past its time (main time and byoyomi left), how long an engine may take before it is
    /// taken for hung and killed; its flag fell anyway. Also the wait for `bestmove` under
    /// nodes or depth per move, on top of [`GameSettings::untimed_wait`].
    pub margin: Duration,
    /// How long a move under nodes or depth may take before the engine is taken for hung.
    pub untimed_wait: Duration,
    /// Write each engine's evaluation and PV as comments (ShogiHome's `*評価値=` form).
    pub comments: bool,
    /// Resign and draw adjudication by the engines' scores (none by default).
    pub adjudication: Adjudication,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            time_control: TimeControl::parse("10+0.1").expect("valid"),
            rules: GameRules::default(),
            margin: super::time::HANG_GRACE,
            untimed_wait: Duration::from_secs(60),
            comments: true,
            adjudication: Adjudication::default(),
        }
    }
}

/// One engine turn's times, for `kifview match --timing`: what the runner itself took between
/// moves and what the engine was charged against what it said it used, so that a loss on time
/// can be put down to the engine or to the runner with evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTiming {
    /// The move's number in the game (the opening's moves counted).
    pub ply: usize,
    pub side: Color,
    /// The time the side had for this move when `go` was sent (main time left + byoyomi).
    pub allowed: Option<Duration>,
    /// The time charged: from the position and `go` handed to the engine's writer to its
    /// answer read.
    pub charged: Option<Duration>,
    /// The engine's own last `info time`, if it sent one.
    pub reported: Option<Duration>,
    /// The runner's own time between moves: the previous answer read to this `go` handed to
    /// the writer (None for the game's first turn). Charged to no one.
    pub gap: Option<Duration>,
}

/// A game played: its state, who caused a fault that ended it, and the runner's own time.
pub struct Played {
    pub game: Game,
    /// The side whose engine's fault ended the game, and what kind.
    pub fault: Option<(Color, FaultKind)>,
    pub started: String,
    pub ended: String,
    /// Moves the engines played (the opening's aside).
    pub engine_moves: usize,
    /// Each engine turn's times, in order.
    pub timings: Vec<MoveTiming>,
}

impl Played {
    /// The game's record, with `info`'s names and headers (its times filled in).
    pub fn record(&self, mut info: GameInfo) -> Record {
        info.started = self.started.clone();
        info.ended = self.ended.clone();
        game_record(&self.game, &info)
    }
}

/// What one turn of an engine came to.
enum Turn {
    /// The move, its comment and the engine's score for it (centipawns, its own view).
    Move(Move, String, Option<i64>),
    Resign,
    Declare,
    Lost(EndReason, FaultKind, String),
}

/// Plays one game from `start` and the `opening` moves (played as they are, untimed):
/// `players[0]` is sente, `players[1]` gote.
pub fn play_game(
    players: [&mut Player; 2],
    start: &Position,
    opening: &[Move],
    settings: &GameSettings,
    time: Arc<dyn TimeSource>,
) -> Played {
    let started = now_text();
    let mut game = Game::new(start.clone(), settings.rules);
    for &mv in opening {
        if game.play(mv, None, String::new()).is_err() || game.is_over() {
            break;
        }
    }
    let mut clock = Clock::new(settings.time_control, time);
    let [black, white] = players;
    let mut players = [black, white];
    let mut fault = None;
    for p in players.iter_mut() {
        if let Some(e) = p.engine.as_mut() {
            e.new_game();
        }
    }
    let mut engine_moves = 0;
    let mut timings = Vec::new();
    let mut answered = None;
    let mut adjudication = Tracker::new(settings.adjudication);
    while !game.is_over() {
        let side = game.side_to_move();
        let player = &mut *players[side.index()];
        if let Some(Verdict::Resign(_, why)) = adjudication.at_turn(side, &player.name) {
            game.resign(None, why);
            break;
        }
        let mut timing = MoveTiming {
            ply: game.played().len() + 1,
            side,
            allowed: clock.allowed(side),
            charged: None,
            reported: None,
            gap: None,
        };
        let (turn, spent) = turn(
            player,
            &game,
            &mut clock,
            settings,
            &mut answered,
            &mut timing,
        );
        timing.charged = spent;
        timings.push(timing);
        match turn {
            Turn::Move(mv, comment, score) => {
                let text = mv.usi();
                if let Err(illegal) = game.play(mv, spent, comment) {
                    game.illegal(&text, illegal.describe(), spent);
                    fault = Some((side, FaultKind::Illegal));
                } else if !game.is_over()
                    && let Some(Verdict::Draw(why)) =
                        adjudication.moved(side, game.played().len(), score)
                {
                    game.adjudicate_draw(why);
                }
                engine_moves += 1;
            }
            Turn::Resign => {
                game.resign(spent, String::new());
            }
            Turn::Declare => {
                let o = game.declare(spent, String::new());
                if matches!(o.reason, EndReason::FalseDeclaration(_)) {
                    fault = Some((side, FaultKind::Illegal));
                }
            }
            Turn::Lost(reason, kind, comment) => {
                game.lose(side, reason, spent, comment);
                fault = Some((side, kind));
            }
        }
    }
    Played {
        game,
        fault,
        started,
        ended: now_text(),
        engine_moves,
        timings,
    }
}

/// The limit for `side`, to move: its time less the safety margin (`time::safety_margin`).
fn limit(clock: &Clock, side: Color) -> Limit {
    match clock.time_control().per_move {
        Some(PerMove::Nodes(n)) => Limit::Nodes(n),
        Some(PerMove::Depth(d)) => Limit::Depth(d),
        None => {
            let t = clock.told(side);
            Limit::Clock {
                btime: t.btime,
                wtime: t.wtime,
                byoyomi: t.byoyomi,
                binc: t.binc,
                winc: t.winc,
            }
        }
    }
}

/// One engine's turn: the position sent, `bestmove` awaited until the deadline, the clock
/// charged. Returns what came of it and the time charged; `answered` is when the previous
/// answer was read (set to this one's), from which `timing` gets the runner's gap and the
/// engine's reported time.
fn turn(
    player: &mut Player,
    game: &Game,
    clock: &mut Clock,
    settings: &GameSettings,
    answered: &mut Option<Instant>,
    timing: &mut MoveTiming,
) -> (Turn, Option<Duration>) {
    let side = game.side_to_move();
    let name = player.name.clone();
    let engine = match player.ready() {
        Ok(e) => e,
        Err(e) => {
            let why = format!("engine {name} could not start: {e}");
            return (
                Turn::Lost(EndReason::Fault(why.clone()), FaultKind::Crash, why),
                None,
            );
        }
    };
    let request = SearchRequest {
        root: game.start().clone(),
        moves: game.moves(),
        limit: limit(clock, side),
    };
    if let Err(e) = engine.search(request) {
        let why = format!("engine {name}: {e}");
        return (
            Turn::Lost(EndReason::Fault(why.clone()), FaultKind::Crash, why),
            None,
        );
    }
    clock.start(side);
    timing.gap = answered.map(|at| at.elapsed());
    let wait = clock
        .allowed(side)
        .unwrap_or(settings.untimed_wait)
        .saturating_add(settings.margin);
    let deadline = Instant::now() + wait;
    loop {
        let now = Instant::now();
        if now >= deadline {
            let charge = clock.stop();
            // What the engine last said it had searched: evidence of who overstepped.
            timing.reported = engine.analysis().time_ms.map(Duration::from_millis);
            player.kill();
            let why = format!(
                "engine {name} sent no bestmove within {:.1} s: killed",
                wait.as_secs_f64()
            );
            return (
                Turn::Lost(EndReason::Time, FaultKind::Time, why),
                charge.map(|c| c.spent),
            );
        }
        for ev in engine.wait(deadline - now) {
            match ev {
                EngineEvent::SearchDone { outcome, .. } => {
                    let charge = clock.stop();
                    *answered = Some(Instant::now());
                    timing.reported = engine.analysis().time_ms.map(Duration::from_millis);
                    let spent = charge.map(|c| c.spent);
                    if charge.is_some_and(|c| c.lost) {
                        let why = format!("engine {name} ran out of time");
                        return (Turn::Lost(EndReason::Time, FaultKind::Time, why), spent);
                    }
                    return (answer(engine, &name, side, outcome, settings), spent);
                }
                EngineEvent::Error(e) => {
                    let charge = clock.stop();
                    let why = format!("engine {name} failed: {e}");
                    player.kill();
                    return (
                        Turn::Lost(EndReason::Fault(why.clone()), FaultKind::Crash, why),
                        charge.map(|c| c.spent),
                    );
                }
                _ => {}
            }
        }
    }
}

/// What a search's end means for the game.
fn answer(
    engine: &Engine,
    name: &str,
    side: Color,
    outcome: SearchEnd,
    settings: &GameSettings,
) -> Turn {
    match outcome {
        SearchEnd::BestMove { mv, .. } => {
            let comment = if settings.comments {
                move_comment(engine, name)
            } else {
                String::new()
            };
            let analysis = engine.analysis();
            let score = analysis.best().and_then(|l| l.score);
            Turn::Move(mv, comment, score.map(|s| mover_cp(s, side)))
        }
        SearchEnd::Resign => Turn::Resign,
        SearchEnd::Win => Turn::Declare,
        SearchEnd::Illegal { text, reason } => {
            let why = format!("engine {name} played an illegal move {text}: {reason}");
            Turn::Lost(EndReason::Illegal { text, reason }, FaultKind::Illegal, why)
        }
        other => {
            let why = format!("engine {name} answered go with no move ({other:?})");
            Turn::Lost(EndReason::Fault(why.clone()), FaultKind::Crash, why)
        }
    }
}

/// The engine's evaluation and PV for the move it played, as ShogiHome writes a player's
/// (`*評価値=…`, `*読み筋=…`, `*エンジン=…`): the analysis's comment with `*` for `#`.
fn move_comment(engine: &Engine, name: &str) -> String {
    let a = engine.analysis();
    let Some(best) = a.best() else {
        return String::new();
    };
    a.comment(best, Some(name))
        .lines()
        .map(|l| match l.strip_prefix('#') {
            Some(rest) => format!("*{rest}"),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
