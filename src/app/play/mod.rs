//! Playing in the viewer: a game against an engine (or two engines, watched) from the
//! position at the cursor, with clocks.
//!
//! `:play` (`A`) opens the setup (`setup.rs`: the side taken, the engine, the time control, the
//! names, where the game goes); [`App::play_tick`] runs when the game's engines send something
//! (`Event::Engine`, as research mode's) and when [`App::play_next_look`] comes (a flag about
//! to fall, the next second the clocks show): it sends the position to the engine to move
//! (the clock runs from then), and plays its move when `bestmove` comes (charged then). The
//! rules are the game layer's (`crate::game`: mate, 千日手, 連続王手の千日手, 入玉宣言, time,
//! resign, illegal moves, the move limit); every move goes into the record as it is played
//! (`record.rs`: the time it took in KIF form, the names, 開始日時/終了日時 and the ending word),
//! so saving, the unsaved state and the recovery files treat it as any edit. The user's move
//! and the engine's reply are one undo step: `u` takes both back (`takeback`).

mod record;
pub(crate) mod setup;
pub mod state;

use crate::app::dispatch::command::Command;
use crate::app::events::Event;
use crate::app::play::state::{Match, Player, Settings, Thinking};
use crate::app::state::{App, Level};
use crate::core::record::NodeId;
use crate::core::rules::{Color, Move};
use crate::core::text::sanitize;
use crate::engine::{self, Engine, EngineEvent, Limit, SearchEnd, SearchRequest, State};
use crate::game::{Clock, EndReason, Game, GameRules, PerMove, SystemTime};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the clocks' widget shows of one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideView {
    pub name: String,
    /// The main time left (None: no clock, nodes or depth per move).
    pub main: Option<Duration>,
    /// The byoyomi left of this move (the whole byoyomi while the side does not move).
    pub byoyomi: Option<Duration>,
    /// This side's time runs: how long it has thought on this move.
    pub thinking: Option<Duration>,
    /// The time its last move took.
    pub last: Option<Duration>,
    pub engine: bool,
    /// Its engine is still starting (its handshake not done: its clock has not started).
    pub starting: bool,
}

/// What the clocks' widget shows: both sides, the result once over, the engine's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayView {
    /// ▲ then △.
    pub sides: [SideView; 2],
    /// The time control as typed (`600+byo30`).
    pub time_control: String,
    /// How it ended, once over.
    pub result: Option<String>,
    /// The evaluation and line of the engine (the one thinking, else the last), when shown.
    pub eval: Option<String>,
}

/// How much past a flag's fall the look comes: the flag has fallen by then.
const PAST: Duration = Duration::from_millis(1);

impl App {
    /// The game on the board (over or not).
    pub fn game(&self) -> Option<&Match> {
        self.research.play.current()
    }

    /// Is a game being played (not over)?
    pub fn playing(&self) -> bool {
        self.research.play.running().is_some()
    }

    /// Starts the game `s` chose from the current node (the setup's last step).
    pub(crate) fn start_game(&mut self, s: Settings) {
        if self.research.on || self.research.job.is_some() {
            self.research.on = false;
            self.research.pending = None;
            self.research.job = None;
            if let Some(e) = self.research.engine.as_mut() {
                e.stop();
            }
        }
        let pos = self.position().clone();
        let mut engines: [Option<Engine>; 2] = [None, None];
        for side in [Color::Black, Color::White] {
            let Player::Engine(spec) = &s.players[side.index()] else {
                continue;
            };
            let events = self.session.events.clone();
            let waker = engine::Waker::new(move || {
                events.send(Event::Engine);
            });
            match Engine::start_waking(spec.clone(), engine::Timeouts::default(), waker) {
                Ok(e) => engines[side.index()] = Some(e),
                Err(err) => {
                    for e in engines.into_iter().flatten() {
                        crate::app::research::state::retire_engine(e);
                    }
                    self.info_level(
                        format!("no game: {}", sanitize(&err.to_string())),
                        Level::Error,
                    );
                    return;
                }
            }
        }
        let source = self
            .research
            .play
            .time
            .clone()
            .unwrap_or_else(|| Arc::new(SystemTime::default()));
        let start = self.cur();
        // A record without moves takes the game's info in its header.
        let in_header = s.new_record || self.record().node(NodeId::ROOT).children.is_empty();
        let m = Match {
            clock: Clock::new(s.time_control, source.clone()),
            source,
            since: None,
            game: Game::new(pos, GameRules::default()),
            engines,
            thinking: None,
            start,
            nodes: Vec::new(),
            epoch: self.research.epoch,
            in_header,
            started: crate::game::record::now_text(),
            result: None,
            settings: s.clone(),
        };
        self.research.play.last = Some(s);
        self.research.play.current = Some(Box::new(m));
        self.write_game_start();
        let how = match self.game().and_then(|m| m.settings.human()) {
            Some(side) => format!(
                "you play {}; {} resigns, {} takes back",
                side_mark(side),
                self.key(Command::PlayResign),
                self.key(Command::Undo)
            ),
            None => format!("watching; {} stops the game", self.key(Command::PlayResign)),
        };
        self.info(format!("対局開始: {how}"));
        self.next_turn();
    }

    /// The side to move's turn begins: its clock starts; an engine is sent the position
    /// (once it is ready: until then its clock does not run).
    fn next_turn(&mut self) {
        let Some(m) = self.research.play.current.as_deref_mut() else {
            return;
        };
        if !m.on() || m.thinking.is_some() {
            return;
        }
        let side = m.game.side_to_move();
        let Some(e) = m.engines[side.index()].as_mut() else {
            if m.clock.running() != Some(side) {
                m.start_clock(side);
            }
            return;
        };
        if e.state() != State::Ready {
            return;
        }
        let tc = m.clock.time_control();
        let limit = match tc.per_move {
            Some(PerMove::Nodes(n)) => Limit::Nodes(n),
            Some(PerMove::Depth(n)) => Limit::Depth(n),
            None => {
                // Told a little less than it has: `game::time::safety_margin`.
                let t = m.clock.told(side);
                Limit::Clock {
                    btime: t.btime,
                    wtime: t.wtime,
                    byoyomi: t.byoyomi,
                    binc: t.binc,
                    winc: t.winc,
                }
            }
        };
        let req = SearchRequest {
            root: m.game.start().clone(),
            moves: m.game.moves(),
            limit,
        };
        match e.search(req) {
            Ok(search) => {
                m.start_clock(side);
                m.thinking = Some(Thinking { side, search });
            }
            Err(err) => {
                let why = format!("its engine could not search: {err}");
                m.game
                    .lose(side, EndReason::Fault(why), None, String::new());
                self.finish_game();
            }
        }
    }

    /// Polls the game's engines, plays what they sent, looks at the clocks. Never blocks.
    /// True when the screen should be drawn again.
    pub fn play_tick(&mut self) -> bool {
        let Some(m) = self.research.play.current.as_deref_mut() else {
            return false;
        };
        if !m.on() {
            return false;
        }
        if m.epoch != self.research.epoch || !self.doc.record().is_attached(m.tip()) {
            self.interrupt_game("the game's moves left the record");
            return true;
        }
        let mut changed = false;
        let mut reply = None;
        let mut fault = None;
        for side in [Color::Black, Color::White] {
            let Some(e) = m.engines[side.index()].as_mut() else {
                continue;
            };
            for ev in e.poll() {
                changed = true;
                match ev {
                    EngineEvent::SearchDone {
                        search, outcome, ..
                    } if m.thinking == Some(Thinking { side, search }) => {
                        reply = Some((side, outcome, e.search_ended_at(search)));
                    }
                    EngineEvent::Error(err) => fault = Some((side, err.to_string())),
                    _ => {}
                }
            }
        }
        if let Some((side, outcome, came)) = reply {
            self.engine_moved(side, outcome, came);
        } else if let Some((side, why)) = fault {
            self.game_lost(side, EndReason::Fault(sanitize(&why).into_owned()));
        }
        changed |= self.check_flag();
        self.next_turn();
        changed
    }

    /// The running side's flag fell: it loses on time.
    fn check_flag(&mut self) -> bool {
        let Some(m) = self.research.play.current.as_deref_mut() else {
            return false;
        };
        if !m.on() || !m.clock.flag_fell() {
            return false;
        }
        let Some(side) = m.clock.running() else {
            return false;
        };
        self.game_lost(side, EndReason::Time);
        true
    }

    /// `side` loses by `reason` (its time charged, its engine stopped).
    fn game_lost(&mut self, side: Color, reason: EndReason) {
        let Some(m) = self.research.play.current.as_deref_mut() else {
            return;
        };
        let spent = match m.clock.running() {
            Some(c) if c == side => m.clock.stop().map(|c| c.spent),
            _ => None,
        };
        if let Some(t) = m.thinking.take()
            && let Some(e) = m.engines[t.side.index()].as_mut()
        {
            e.stop();
        }
        m.game.lose(side, reason, spent, String::new());
        self.finish_game();
    }

    /// The engine playing `side` answered; its answer was read at `came` (charged up to then).
    fn engine_moved(&mut self, side: Color, outcome: SearchEnd, came: Option<Instant>) {
        let Some(m) = self.research.play.current.as_deref_mut() else {
            return;
        };
        m.thinking = None;
        let charge = match came {
            Some(at) => m.clock.stop_received(at),
            None => m.clock.stop(),
        };
        let spent = charge.map(|c| c.spent);
        if charge.is_some_and(|c| c.lost) {
            m.game.lose(side, EndReason::Time, spent, String::new());
            self.finish_game();
            return;
        }
        match outcome {
            SearchEnd::BestMove { mv, .. } => self.play_game_move(side, mv, spent),
            SearchEnd::Resign => {
                m.game.resign(spent, String::new());
                self.finish_game();
            }
            SearchEnd::Win => {
                m.game.declare(spent, String::new());
                self.finish_game();
            }
            SearchEnd::Illegal { text, reason } => {
                m.game.illegal(&text, &reason, spent);
                self.finish_game();
            }
            other => {
                let why = format!("its engine answered {other:?} to a move's search");
                m.game
                    .lose(side, EndReason::Fault(why), spent, String::new());
                self.finish_game();
            }
        }
    }

    /// Plays `mv` for `side` (its time `spent`) in the game and the record; ends the game
    /// when the rules say so.
    fn play_game_move(&mut self, side: Color, mv: Move, spent: Option<Duration>) {
        let Some(m) = self.research.play.current.as_deref_mut() else {
            return;
        };
        if let Err(e) = m.game.play(mv, spent, String::new()) {
            let text = mv.usi();
            m.game.illegal(&text, &e.to_string(), spent);
            self.finish_game();
            return;
        }
        // The engine's reply joins the user's move: one undo takes both back.
        let join = m.player(side) != &Player::Human && m.settings.human().is_some();
        self.write_game_move(mv, spent, join);
        if self.game().is_some_and(|m| !m.on()) {
            self.finish_game();
        }
    }

    /// Whether a game is on with an engine to move: then says so ("not your move") and the
    /// move entered or typed is refused before it is read, so a move typed for the user's own
    /// side while the engine thinks is not taken for an illegal move of the engine's side.
    pub(crate) fn not_the_users_move(&mut self) -> bool {
        let Some(m) = self.research.play.running() else {
            return false;
        };
        if m.player(m.game.side_to_move()) == &Player::Human {
            return false;
        }
        let who = match m.settings.human() {
            Some(_) => "the engine is thinking",
            None => "two engines are playing (you watch)",
        };
        self.info_level(format!("not your move: {who}"), Level::Error);
        true
    }

    /// A move entered on the board or typed while a game is on: played as the user's move
    /// when it is the user's turn at the game's last move; refused otherwise. `None`: no game
    /// is being played, the move is an edit as always.
    pub(crate) fn play_user_move(&mut self, mv: Move) -> Option<bool> {
        if self.not_the_users_move() {
            return Some(false);
        }
        let m = self.research.play.running()?;
        let side = m.game.side_to_move();
        if self.cur() != m.tip() {
            let end = self.key(Command::GoEnd);
            self.info_level(
                format!("the game goes on from its last move ({end} goes there)"),
                Level::Error,
            );
            return Some(false);
        }
        if let Err(e) = m.game.position().clone().play(mv) {
            self.info_level(format!("illegal move: {e}"), Level::Error);
            return Some(false);
        }
        let m = self.research.play.current.as_deref_mut()?;
        let charge = m.clock.stop();
        if charge.is_some_and(|c| c.lost) {
            m.game.lose(
                side,
                EndReason::Time,
                charge.map(|c| c.spent),
                String::new(),
            );
            self.finish_game();
            return Some(false);
        }
        self.play_game_move(side, mv, charge.map(|c| c.spent));
        self.next_turn();
        Some(true)
    }

    /// `play_resign`: the user resigns (asks first); watching, the game stops (中断).
    pub(crate) fn play_resign(&mut self) {
        let Some(m) = self.research.play.running() else {
            self.info_level(
                "no game is being played (A starts one)".into(),
                Level::Error,
            );
            return;
        };
        let Some(human) = m.settings.human() else {
            self.interrupt_game("stopped");
            return;
        };
        let answers = vec![
            (crate::app::overlay::Answer::Yes, "resign (投了)"),
            (crate::app::overlay::Answer::No, "play on"),
        ];
        self.ask(
            "Resign this game?".into(),
            Vec::new(),
            answers,
            move |app, a| {
                if a != crate::app::overlay::Answer::Yes || !app.playing() {
                    return;
                }
                app.game_lost(human, EndReason::Resign);
            },
        );
    }

    /// `play_declare`: the user declares a win by entering king (入玉宣言) on their move: the
    /// rule decides (a false declaration loses).
    pub(crate) fn play_declare(&mut self) {
        let Some(m) = self.research.play.running() else {
            self.info_level(
                "no game is being played (A starts one)".into(),
                Level::Error,
            );
            return;
        };
        let side = m.game.side_to_move();
        if m.player(side) != &Player::Human {
            self.info_level(
                "declare on your own move (入玉宣言 is made instead of a move)".into(),
                Level::Error,
            );
            return;
        }
        let count = crate::core::rules::declaration_count(m.game.position());
        let answers = vec![
            (crate::app::overlay::Answer::Yes, "declare (入玉宣言)"),
            (crate::app::overlay::Answer::No, "play on"),
        ];
        let details = vec![format!("{count:?}")];
        self.ask(
            "Declare a win by entering king? A declaration that does not hold loses.".into(),
            details,
            answers,
            move |app, a| {
                if a != crate::app::overlay::Answer::Yes || !app.playing() {
                    return;
                }
                let Some(m) = app.research.play.current.as_deref_mut() else {
                    return;
                };
                let spent = m.clock.stop().map(|c| c.spent);
                m.game.declare(spent, String::new());
                app.finish_game();
            },
        );
    }

    /// Undo while a game is on: takes back the user's last move and the engine's reply (one
    /// undo step), or the user's move alone while the engine thinks on it.
    pub(crate) fn play_takeback(&mut self) {
        let Some(m) = self.research.play.current.as_deref_mut() else {
            return;
        };
        let Some(human) = m.settings.human() else {
            self.info_level(
                "watching: nothing to take back (R stops the game)".into(),
                Level::Error,
            );
            return;
        };
        // The moves back to the user's last one, and the user's.
        let played = m.game.played().len();
        let mut pos = m.game.position().side_to_move();
        let mut n = 0;
        while n < played {
            n += 1;
            pos = pos.flip();
            if pos == human {
                break;
            }
        }
        if n == 0 || pos != human {
            self.info_level("no move of yours to take back".into(), Level::Error);
            return;
        }
        if let Some(t) = m.thinking.take()
            && let Some(e) = m.engines[t.side.index()].as_mut()
        {
            e.stop();
        }
        // The clocks as they were before the moves taken back (the engine thinking on the
        // user's move is not charged).
        m.clock.take_back(n);
        m.game.take_back(n);
        let keep = m.nodes.len() - n;
        let back_to = if keep == 0 {
            m.start
        } else {
            m.nodes[keep - 1]
        };
        m.nodes.truncate(keep);
        let cur = self.cur();
        if self.doc.undo(cur).is_some() {
            self.jump_to(back_to);
        }
        self.info(format!(
            "took back {n} move{}",
            if n == 1 { "" } else { "s" }
        ));
        self.next_turn();
    }

    /// `toggle_play_eval`: show or hide the engine's evaluation and line beside the clocks.
    pub(crate) fn toggle_play_eval(&mut self) {
        let shown = !self.research.play.show_eval;
        self.research.play.show_eval = shown;
        self.info(match shown {
            true => "the clocks show the engine's evaluation and line",
            false => "the engine's evaluation and line are hidden",
        });
    }

    /// Stops the game with no result (中断): quitting, the record replaced, watching stopped.
    pub(crate) fn interrupt_game(&mut self, why: &str) {
        let Some(m) = self.research.play.current.as_deref_mut() else {
            return;
        };
        if !m.on() {
            return;
        }
        m.clock.stop();
        m.thinking = None;
        m.game.interrupt();
        let attached = m.epoch == self.research.epoch && self.doc.record().is_attached(m.tip());
        if attached {
            self.finish_game();
        } else if let Some(m) = self.research.play.current.as_deref_mut() {
            m.take_engines()
                .into_iter()
                .for_each(crate::app::research::state::retire_engine);
        }
        self.info(format!("the game is interrupted: {why}"));
    }

    /// The game is over: its ending goes into the record, its engines quit, the status line
    /// says who won.
    fn finish_game(&mut self) {
        let Some(m) = self.research.play.current.as_deref_mut() else {
            return;
        };
        let Some(o) = m.game.outcome().cloned() else {
            return;
        };
        m.clock.stop();
        m.thinking = None;
        m.take_engines()
            .into_iter()
            .for_each(crate::app::research::state::retire_engine);
        let text = result_text(&o, m.game.played().len());
        m.result = Some(text.clone());
        self.write_game_end(&o);
        self.info(format!("終局: {text}"));
    }

    /// When the game must be looked at though no engine sent anything: the running side's
    /// flag falls, or the clocks show another second; `None` without a running clock.
    pub fn play_next_look(&self) -> Option<Duration> {
        let m = self.research.play.running()?;
        let side = m.clock.running()?;
        if !m.clock.time_control().timed() {
            // No clock: the time of this move (◀) still counts up.
            return Some(Duration::from_secs(1));
        }
        let left = m.clock.main_left(side) + m.clock.byoyomi_left(side);
        let to_second = Duration::from_nanos(u64::from(left.subsec_nanos())) + PAST;
        Some(to_second.min(Duration::from_secs(1)))
    }

    /// What the clocks' widget draws, while a game is on the board.
    pub fn play_view(&self) -> Option<PlayView> {
        let m = self.research.play.current()?;
        let timed = m.clock.time_control().timed();
        let side = |c: Color| {
            let running = m.on() && m.clock.running() == Some(c);
            SideView {
                name: sanitize(&m.settings.names[c.index()]).into_owned(),
                main: timed.then(|| m.clock.main_left(c)),
                byoyomi: (timed && !m.clock.time_control().byoyomi.is_zero())
                    .then(|| m.clock.byoyomi_left(c)),
                thinking: running.then(|| m.thinking_for()).flatten(),
                last: m.last_spent(c),
                engine: matches!(m.player(c), Player::Engine(_)),
                starting: m.on() && m.engine_starting(c),
            }
        };
        let eval = self.research.play.show_eval.then(|| eval_text(m)).flatten();
        Some(PlayView {
            sides: [side(Color::Black), side(Color::White)],
            time_control: m.clock.time_control().to_string(),
            result: m.result.clone(),
            eval,
        })
    }
}

/// ▲ or △.
fn side_mark(c: Color) -> &'static str {
    match c {
        Color::Black => "▲",
        Color::White => "△",
    }
}

/// `まで64手で先手の勝ち (投了)`.
fn result_text(o: &crate::game::GameEnd, moves: usize) -> String {
    let who = match o.winner {
        Some(Color::Black) => "先手の勝ち",
        Some(Color::White) => "後手の勝ち",
        None if o.reason == EndReason::Interrupted => "中断",
        None => "引き分け",
    };
    let why = match &o.reason {
        EndReason::Mate => "詰み".to_string(),
        EndReason::Resign => "投了".to_string(),
        EndReason::Declaration => "入玉宣言".to_string(),
        EndReason::FalseDeclaration(why) => format!("宣言不成立: {why}"),
        EndReason::Repetition => "千日手".to_string(),
        EndReason::PerpetualCheck => "連続王手の千日手".to_string(),
        EndReason::Time => "時間切れ".to_string(),
        EndReason::Illegal { text, reason } => format!("反則 {text}: {reason}"),
        EndReason::Fault(what) => format!("エンジン: {what}"),
        EndReason::MaxMoves => "手数制限".to_string(),
        EndReason::AdjudicatedDraw(why) => format!("判定: {why}"),
        EndReason::Interrupted => return format!("まで{moves}手で中断"),
    };
    format!("まで{moves}手で{who} ({why})")
}

/// The evaluation and line of the engine thinking, else of the last that did.
fn eval_text(m: &Match) -> Option<String> {
    let side = m.thinking.map(|t| t.side).or_else(|| {
        m.engines
            .iter()
            .position(Option::is_some)
            .map(|i| [Color::Black, Color::White][i])
    })?;
    let e = m.engines[side.index()].as_ref()?;
    let a = e.analysis();
    let line = a.best()?;
    Some(format!(
        "{} {} {}",
        side_mark(side),
        a.score_text(line),
        line.japanese
    ))
}
