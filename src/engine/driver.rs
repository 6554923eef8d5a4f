//! [`Engine`]: one USI engine process and its state machine (ShogiHome's `EngineProcess`):
//! waiting for usiok → not ready → waiting for readyok → ready → searching / stopping →
//! quitting, and dead after a crash, a timeout or `quit`.

use super::analysis::{Analysis, AnalysisStatus};
use super::error::EngineError;
use super::process::{Incoming, Process, Waker, describe_status};
use super::pv;
use super::search::{
    Limit, MATE_STOP, MateBudget, SearchEnd, SearchId, SearchRequest, bestmove_outcome, check_root,
};
use super::usi::{CheckmateReply, UsiMessage, UsiOption};
use super::{EngineSpec, clean};
use crate::core::rules::Position;
use std::collections::{BTreeMap, VecDeque};
use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// The states of ShogiHome's `EngineProcess`, plus `Dead`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// `usi` sent.
    WaitingUsiOk,
    /// `usiok` received; options are being sent (passes at once to `WaitingReadyOk`).
    NotReady,
    /// `isready` sent.
    WaitingReadyOk,
    /// Idle, ready for a search.
    Ready,
    Searching,
    /// `stop` sent, waiting for `bestmove` (or `checkmate`).
    Stopping,
    /// `quit` sent.
    Quitting,
    /// No process: it exited, crashed or was killed. [`Engine::restart`] starts it again.
    Dead,
}

/// How long the driver waits before it gives up on the engine and kills it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// For `usiok` after `usi`, and for `readyok` after `isready`.
    pub handshake: Duration,
    /// For the engine to exit after `quit`.
    pub quit: Duration,
    /// For `bestmove` after `stop`.
    pub stop: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            // The issue asked for 10 s; gpsusi (about 1 s when idle) was measured taking over
            // 10 s to answer `usiok` on a loaded two-core machine, so 30 s.
            handshake: Duration::from_secs(30),
            quit: Duration::from_secs(5),
            stop: Duration::from_secs(10),
        }
    }
}

/// What the engine said about itself after `usi`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// `id name`, or the spec's name until it arrives.
    pub name: String,
    pub author: String,
    pub options: Vec<UsiOption>,
}

/// Something the owner of an [`Engine`] should know about, from [`Engine::poll`].
#[derive(Clone, Debug, PartialEq)]
pub enum EngineEvent {
    /// `readyok`: the engine can search. [`Engine::info`] holds its name and options.
    Ready,
    /// [`Engine::analysis`] changed (at most one per poll, however many `info` lines came).
    Analysis(SearchId),
    /// A search ended. `superseded`: a newer search was already asked for (its result is
    /// usually of no interest).
    SearchDone {
        search: SearchId,
        outcome: SearchEnd,
        superseded: bool,
    },
    /// Something worth a line in a log or the status line; the engine goes on.
    Note(String),
    /// An option value that does not fit the type the engine declares was not sent (the
    /// engine goes on with its default): what, from where, and what the engine declares.
    OptionRefused(String),
    /// The engine is dead (crash, exit, timeout, broken pipe); it has been killed and reaped.
    /// [`Engine::restart`] starts it again.
    Error(EngineError),
    /// `quit` finished; `killed` when it had to be killed after the quit timeout.
    Quit { killed: bool },
}

/// The most lines one `poll` takes (the rest wait for the next one).
pub const POLL_BATCH: usize = 5000;

/// How many non-USI lines are kept for error messages.
const RECENT: usize = 20;

struct Running {
    id: SearchId,
    position: Position,
    mate: bool,
    /// A mate search's time limit, which its `checkmate` must come within.
    mate_limit: Option<MateBudget>,
    stop_at: Option<Instant>,
    stop_sent: bool,
    user_stopped: bool,
}

struct Pending {
    id: SearchId,
    root_text: String,
    position: Position,
    limit: Limit,
}

/// One USI engine.
///
/// The contract: while the engine is not [`Dead`](State::Dead) the owner calls
/// [`poll`](Engine::poll) when the engine's threads call it back (started with a [`Waker`]:
/// `start_waking`, as the viewer does through its event channel) and at
/// [`next_deadline`](Engine::next_deadline), or regularly without a waker; a batch job calls
/// [`wait`](Engine::wait). `poll` never blocks; it drains what the reader thread parsed, runs the state machine, enforces the
/// timeouts and returns events. Commands (`search`, `stop`, `set_option`, `quit`) never
/// block on the engine either: a search asked for while another runs sends one `stop`, is
/// held until `bestmove`, and only then goes out; `info` lines in between are dropped.
///
/// The process lives in its own process group and, on Linux, is killed by the kernel when
/// the thread that started it dies (`PR_SET_PDEATHSIG`): start engines from the UI's main
/// thread, not from a short-lived worker. Dropping an `Engine` sends `quit`, waits at most
/// 200 ms, then kills and reaps it.
pub struct Engine {
    spec: EngineSpec,
    timeouts: Timeouts,
    process: Option<Process>,
    state: State,
    deadline: Option<(Instant, &'static str)>,
    info: EngineInfo,
    /// Session options (set with `set_option`), applied after the spec's at every start.
    session: BTreeMap<String, String>,
    /// Options to send at the next idle moment.
    unsent: Vec<(String, String)>,
    new_game: bool,
    running: Option<Running>,
    pending: Option<Pending>,
    next_id: u64,
    analysis: Analysis,
    recent: VecDeque<String>,
    events: Vec<EngineEvent>,
    /// Called back by the process's threads when something comes (`Waker`).
    waker: Waker,
    /// When the reader thread read the line being handled.
    line_at: Option<Instant>,
    /// The last search that ended, and when: the moment its `bestmove` (or other last line)
    /// was read, else the moment the driver ended it.
    ended_at: Option<(SearchId, Instant)>,
}

impl Engine {
    /// Starts the engine and sends `usi`, with the default timeouts.
    pub fn start(spec: EngineSpec) -> Result<Engine, EngineError> {
        Engine::start_with(spec, Timeouts::default())
    }

    pub fn start_with(spec: EngineSpec, timeouts: Timeouts) -> Result<Engine, EngineError> {
        Engine::start_waking(spec, timeouts, Waker::default())
    }

    /// Starts the engine whose threads call `waker` back when it sends something: the owner
    /// then polls on that call and at [`next_deadline`](Engine::next_deadline), not on a
    /// period.
    pub fn start_waking(
        spec: EngineSpec,
        timeouts: Timeouts,
        waker: Waker,
    ) -> Result<Engine, EngineError> {
        let mut engine = Engine {
            waker,
            info: EngineInfo {
                name: spec.display_name(),
                ..EngineInfo::default()
            },
            spec,
            timeouts,
            process: None,
            state: State::Dead,
            deadline: None,
            session: BTreeMap::new(),
            unsent: Vec::new(),
            new_game: true,
            running: None,
            pending: None,
            next_id: 0,
            analysis: Analysis::new(SearchId(0), Position::startpos(), None),
            recent: VecDeque::new(),
            events: Vec::new(),
            line_at: None,
            ended_at: None,
        };
        engine.launch()?;
        Ok(engine)
    }

    fn launch(&mut self) -> Result<(), EngineError> {
        if let Some(dir) = self.spec.dir.as_ref().filter(|d| !d.is_dir()) {
            return Err(EngineError::Spawn {
                name: self.spec.display_name(),
                command: self.spec.command.display().to_string(),
                message: format!("working directory {} does not exist", dir.display()),
            });
        }
        // A bare name is looked up in /usr/games too, which is often not on PATH.
        let mut spec = self.spec.clone();
        let located = super::discover::locate(&spec.command);
        let bare = located.is_none() && !spec.command.to_string_lossy().contains('/');
        if let Some(path) = located {
            spec.command = path;
        }
        let process =
            Process::spawn(&spec, self.waker.clone()).map_err(|e| EngineError::Spawn {
                name: self.spec.display_name(),
                command: self.spec.command.display().to_string(),
                message: if bare && e.kind() == std::io::ErrorKind::NotFound {
                    "not found on PATH or in /usr/games".to_string()
                } else {
                    e.to_string()
                },
            })?;
        self.process = Some(process);
        self.info = EngineInfo {
            name: self.spec.display_name(),
            ..EngineInfo::default()
        };
        self.recent.clear();
        self.new_game = true;
        self.state = State::WaitingUsiOk;
        self.expect("usiok", self.timeouts.handshake);
        self.send("usi");
        Ok(())
    }

    /// Kills the engine if it runs and starts it again (same spec, session options kept).
    /// A search asked for before is not resumed.
    pub fn restart(&mut self) -> Result<(), EngineError> {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.running = None;
        self.pending = None;
        self.unsent.clear();
        self.state = State::Dead;
        self.launch()
    }

    pub fn state(&self) -> State {
        self.state
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The engine's name, author and options (complete once `Ready` was reported).
    pub fn info(&self) -> &EngineInfo {
        &self.info
    }

    /// The latest search (or the one waiting to start): lines, score, status.
    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// The engine's process id while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(Process::id)
    }

    /// When `search` ended, if it was the last to: the moment the engine's reader thread read
    /// its `bestmove` (or the driver ended it without one), however much later the owner
    /// polled. A game's clock charges the engine up to then.
    pub fn search_ended_at(&self, search: SearchId) -> Option<Instant> {
        self.ended_at
            .filter(|(id, _)| *id == search)
            .map(|(_, at)| at)
    }

    /// The engine was paused with kifview (Ctrl-z, then `fg`) for `away`: its deadlines move
    /// on by as much, so a reply it could not send while stopped is not taken for a hang, and
    /// a timed search gets the time it was promised.
    pub fn postpone(&mut self, away: Duration) {
        if let Some((at, _)) = self.deadline.as_mut() {
            *at += away;
        }
        if let Some(t) = self.running.as_mut().and_then(|r| r.stop_at.as_mut()) {
            *t += away;
        }
    }

    /// The last lines the engine printed that were not USI (banners, stderr), cleaned.
    pub fn recent_output(&self) -> impl Iterator<Item = &str> {
        self.recent.iter().map(String::as_str)
    }

    /// Sets an engine option for this session: sent now when the engine is idle, else at
    /// the next idle moment, and again after a restart.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let (name, value) = (name.trim(), value.trim());
        if name.is_empty() || name.chars().chain(value.chars()).any(char::is_control) {
            return Err(EngineError::Refused(format!(
                "bad option {:?} = {:?}",
                clean(name),
                clean(value)
            )));
        }
        self.session.insert(name.to_string(), value.to_string());
        match self.state {
            State::Ready => self.send_option(name, value),
            State::WaitingUsiOk => {} // sent with the rest after usiok
            State::Dead | State::Quitting => return Err(EngineError::NotRunning),
            _ => self.unsent.push((name.to_string(), value.to_string())),
        }
        Ok(())
    }

    /// Sends `usinewgame` before the next search (for a new record).
    pub fn new_game(&mut self) {
        self.new_game = true;
    }

    /// Asks for a search; returns its id at once. Every move is checked with the rules
    /// first, and positions no engine can take (too many pieces, the side not to move in
    /// check) are refused. The current analysis is replaced at once by an empty one for
    /// this search (status `Waiting` until the engine starts it).
    pub fn search(&mut self, req: SearchRequest) -> Result<SearchId, EngineError> {
        if matches!(self.state, State::Dead | State::Quitting) {
            return Err(EngineError::NotRunning);
        }
        check_root(&req.root)?;
        let mut position = req.root.clone();
        for (index, &mv) in req.moves.iter().enumerate() {
            if let Err(e) = pv::check_move(&position, mv) {
                return Err(EngineError::IllegalMove {
                    index,
                    text: mv.usi(),
                    reason: e.describe().to_string(),
                });
            }
            position.play_unchecked(mv);
        }
        check_root(&position)?;
        self.next_id += 1;
        let id = SearchId(self.next_id);
        let mut root_text = match req.root.to_sfen() {
            s if s == Position::startpos().to_sfen() => "position startpos".to_string(),
            s => format!("position sfen {s}"),
        };
        if !req.moves.is_empty() {
            root_text.push_str(" moves");
            for mv in &req.moves {
                root_text.push(' ');
                root_text.push_str(&mv.usi());
            }
        }
        let prev_to = req.moves.last().map(|m| m.to());
        self.analysis = Analysis::new(id, position.clone(), prev_to);
        self.analysis.touch();
        self.pending = Some(Pending {
            id,
            root_text,
            position,
            limit: req.limit,
        });
        match self.state {
            State::Ready => self.start_pending(),
            State::Searching => self.send_stop(),
            _ => {} // Stopping: held until bestmove; starting up: held until readyok.
        }
        Ok(id)
    }

    /// Stops the search (the analysis keeps its lines, marked stopped) and forgets a
    /// search that was waiting.
    pub fn stop(&mut self) {
        if self.pending.take().is_some() {
            self.analysis.status = AnalysisStatus::Stopped;
            self.analysis.touch();
        }
        if let Some(r) = self.running.as_mut() {
            r.user_stopped = true;
            if self.analysis.search == r.id {
                self.analysis.status = AnalysisStatus::Stopped;
                self.analysis.touch();
            }
            if self.state == State::Searching {
                self.send_stop();
            }
        }
    }

    /// Sends `quit`; the engine is killed if it has not exited after the quit timeout.
    /// `EngineEvent::Quit` follows.
    pub fn quit(&mut self) {
        if matches!(self.state, State::Dead | State::Quitting) {
            return;
        }
        self.pending = None;
        if self.state == State::Searching {
            self.send("stop");
        }
        self.send("quit");
        if self.state != State::Dead {
            self.state = State::Quitting;
            self.expect("quit", self.timeouts.quit);
        }
    }

    /// Sends a raw command line, for tools and tests. The state machine does not see it:
    /// never send `go`, `stop`, `position` or `quit` this way.
    pub fn send_raw(&mut self, line: &str) -> Result<(), EngineError> {
        if line.chars().any(char::is_control) {
            return Err(EngineError::Refused(format!(
                "bad command {:?}",
                clean(line)
            )));
        }
        if self.process.is_none() {
            return Err(EngineError::NotRunning);
        }
        self.send(line);
        Ok(())
    }

    /// Takes what the engine sent since the last call (at most [`POLL_BATCH`] lines, so a
    /// flood cannot stall the caller) and enforces the timeouts. Never blocks.
    pub fn poll(&mut self) -> Vec<EngineEvent> {
        // What comes from now on calls the owner back again.
        self.waker.rearm();
        let mut left = true;
        for _ in 0..POLL_BATCH {
            let Some(p) = self.process.as_ref() else {
                left = false;
                break;
            };
            match p.rx.try_recv() {
                Ok(item) => self.handle(item),
                Err(TryRecvError::Empty) => {
                    left = false;
                    break;
                }
                Err(TryRecvError::Disconnected) => self.handle(Incoming::Eof),
            }
        }
        // A batch taken and more waiting: the owner is called back for the rest.
        if left {
            self.waker.wake();
        }
        self.finish_poll()
    }

    /// The next time [`poll`](Engine::poll) has something to do that no line of the engine
    /// brings (and so no call of the waker): a reply's timeout, a timed search's stop, an
    /// engine that stopped reading its input. `None`: only the engine's lines move it.
    pub fn next_deadline(&self) -> Option<Instant> {
        let reply = self.deadline.map(|(at, _)| at);
        let stop = (self.running.as_ref())
            .filter(|r| !r.stop_sent)
            .and_then(|r| r.stop_at);
        let stuck = (self.process.as_ref())
            .and_then(Process::write_began)
            .map(|at| at + self.timeouts.handshake);
        [reply, stop, stuck].into_iter().flatten().min()
    }

    /// Like [`poll`](Engine::poll), but waits up to `max` for at least one event.
    pub fn wait(&mut self, max: Duration) -> Vec<EngineEvent> {
        let end = Instant::now() + max;
        loop {
            let events = self.poll();
            let now = Instant::now();
            if !events.is_empty() || now >= end {
                return events;
            }
            let mut until = end;
            if let Some((d, _)) = self.deadline {
                until = until.min(d);
            }
            if let Some(t) = self.running.as_ref().and_then(|r| r.stop_at) {
                until = until.min(t);
            }
            let Some(p) = self.process.as_ref() else {
                return events;
            };
            match p.rx.recv_timeout(until.saturating_duration_since(now)) {
                Ok(item) => self.handle(item),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => self.handle(Incoming::Eof),
            }
        }
    }

    fn finish_poll(&mut self) -> Vec<EngineEvent> {
        let now = Instant::now();
        // An engine that stopped reading its commands is as good as hung.
        let stuck = self.process.as_ref().map(Process::write_blocked_for);
        if let Some(d) = stuck.filter(|&d| d >= self.timeouts.handshake) {
            self.on_write_failed(format!(
                "it has read none of its input for {} s",
                d.as_secs()
            ));
        }
        if let Some((at, what)) = self.deadline
            && now >= at
        {
            self.on_deadline(what);
        }
        if let Some(r) = self.running.as_mut()
            && !r.stop_sent
            && r.stop_at.is_some_and(|t| now >= t)
        {
            self.send_stop();
        }
        if self.analysis.refresh() {
            self.events
                .push(EngineEvent::Analysis(self.analysis.search));
        }
        std::mem::take(&mut self.events)
    }

    fn on_deadline(&mut self, what: &'static str) {
        let after = match what {
            "quit" => {
                if let Some(mut p) = self.process.take() {
                    p.kill();
                }
                self.state = State::Dead;
                self.deadline = None;
                self.events.push(EngineEvent::Quit { killed: true });
                return;
            }
            "bestmove" => self.timeouts.stop,
            // A timed mate search is killed at its limit: that is what it did not keep.
            "checkmate" => match self.running.as_ref().and_then(|r| r.mate_limit) {
                Some(b) => b.limit,
                None => self.timeouts.stop.min(MATE_STOP),
            },
            _ => self.timeouts.handshake,
        };
        let name = self.info.name.clone();
        self.fail(EngineError::Timeout {
            name,
            waiting_for: what,
            after,
            last_output: self.recent.iter().cloned().collect(),
        });
    }

    fn handle(&mut self, item: Incoming) {
        match item {
            Incoming::Msg(msg, at) => {
                self.line_at = Some(at);
                self.on_message(msg);
                self.line_at = None;
            }
            Incoming::Other(line) => self.remember(line),
            Incoming::Eof => self.on_eof(),
            Incoming::Exited => self.on_exited(),
            Incoming::WriteFailed(e) => self.on_write_failed(e),
        }
    }

    /// The process ended: its last lines first (a crash message, `bestmove`), which come
    /// before the end of its output unless a child of it holds that open (then the end is
    /// not waited for: the process is what counts).
    fn on_exited(&mut self) {
        let Some(p) = self.process.as_ref() else {
            return;
        };
        let end = Instant::now() + Duration::from_millis(200);
        let mut last = Vec::new();
        while let Ok(item) =
            p.rx.recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            match item {
                Incoming::Eof => break,
                Incoming::Msg(..) | Incoming::Other(_) => last.push(item),
                Incoming::Exited | Incoming::WriteFailed(_) => {}
            }
        }
        for item in last {
            self.handle(item);
        }
        self.on_eof();
    }

    /// Keeps a line for error messages.
    fn remember(&mut self, line: String) {
        if !line.is_empty() {
            if self.recent.len() == RECENT {
                self.recent.pop_front();
            }
            self.recent.push_back(line);
        }
    }

    fn on_eof(&mut self) {
        let Some(mut p) = self.process.take() else {
            return;
        };
        let status = p.kill();
        self.on_eof_status(status);
    }

    /// The engine's process is gone (reaped, with `status`): a clean quit or a crash.
    fn on_eof_status(&mut self, status: Option<std::process::ExitStatus>) {
        if self.state == State::Quitting {
            self.state = State::Dead;
            self.deadline = None;
            self.events.push(EngineEvent::Quit { killed: false });
            return;
        }
        let status = status.map_or_else(|| "unknown status".to_string(), describe_status);
        let err = EngineError::Exited {
            name: self.info.name.clone(),
            status,
            last_output: self.recent.iter().cloned().collect(),
        };
        self.fail(err);
    }

    /// Kills the engine and reports `err`.
    fn fail(&mut self, err: EngineError) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.state = State::Dead;
        self.deadline = None;
        self.running = None;
        self.pending = None;
        if matches!(
            self.analysis.status,
            AnalysisStatus::Running | AnalysisStatus::Waiting
        ) {
            self.analysis.status = AnalysisStatus::Failed;
            self.analysis.touch();
        }
        self.events.push(EngineEvent::Error(err));
    }

    fn on_message(&mut self, msg: UsiMessage) {
        match msg {
            UsiMessage::IdName(n) if self.state == State::WaitingUsiOk => self.info.name = n,
            UsiMessage::IdAuthor(a) if self.state == State::WaitingUsiOk => self.info.author = a,
            UsiMessage::Option(o) if self.state == State::WaitingUsiOk => self.info.options.push(o),
            UsiMessage::UsiOk if self.state == State::WaitingUsiOk => self.on_usiok(),
            UsiMessage::ReadyOk if self.state == State::WaitingReadyOk => {
                self.deadline = None;
                self.events.push(EngineEvent::Ready);
                self.become_ready();
            }
            UsiMessage::Info(info) => {
                let current = self.running.as_ref().map(|r| r.id);
                if current == Some(self.analysis.search) {
                    self.analysis.apply(*info);
                } else if current.is_some() {
                    self.analysis.stale_dropped += 1;
                } else if let Some(text) = info.string {
                    // Outside a search (e.g. while loading eval files): often the reason of
                    // a failure that follows.
                    self.remember(format!("info string {text}"));
                }
            }
            UsiMessage::BestMove { best, ponder } => {
                let Some(r) = self.running.as_ref() else {
                    return;
                };
                let outcome = bestmove_outcome(&r.position, &best, ponder.as_deref());
                self.end_search(outcome);
            }
            UsiMessage::Checkmate(reply) => {
                let Some(r) = self.running.as_ref() else {
                    return;
                };
                let outcome = match reply {
                    CheckmateReply::Mate(moves) => {
                        SearchEnd::Mate(pv::check_pv(&r.position, &moves))
                    }
                    CheckmateReply::NoMate => SearchEnd::NoMate,
                    CheckmateReply::Timeout => SearchEnd::MateTimeout,
                    CheckmateReply::NotImplemented => SearchEnd::MateNotImplemented,
                };
                self.end_search(outcome);
            }
            _ => {}
        }
    }

    fn on_usiok(&mut self) {
        self.state = State::NotReady;
        let declared = |n: &str| self.info.options.iter().any(|o| o.name == n);
        let mut options: BTreeMap<String, String> = self
            .spec
            .options
            .iter()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect();
        options.extend(self.session.clone());
        for name in options.keys() {
            if !declared(name) && !name.starts_with("USI_") {
                self.events.push(EngineEvent::Note(format!(
                    "engine {} has no option {:?}; sent anyway",
                    self.info.name,
                    clean(name)
                )));
            }
        }
        for (name, value) in &options {
            if name.chars().chain(value.chars()).any(char::is_control) {
                self.events.push(EngineEvent::Note(format!(
                    "option {:?} not sent: it contains control characters",
                    clean(name)
                )));
                continue;
            }
            let declared = self.info.options.iter().find(|o| o.name == *name);
            if let Some(why) = declared.and_then(|o| super::usi::unfit_value(o, value)) {
                let from = if self.session.contains_key(name) {
                    "set in this session".to_string()
                } else if let Some(at) = self.spec.option_origins.get(name) {
                    format!(
                        "{at}, in the config's [[engines]] entry {}",
                        self.spec.display_name()
                    )
                } else {
                    format!(
                        "in the config's [[engines]] entry {}",
                        self.spec.display_name()
                    )
                };
                self.events.push(EngineEvent::OptionRefused(clean(&format!(
                    "option {name} = {value:?} ({from}) not sent: engine {} declares it {why}; it keeps its default",
                    self.info.name
                ))));
                continue;
            }
            self.send_option(name, value);
        }
        if self.state == State::NotReady {
            self.state = State::WaitingReadyOk;
            self.expect("readyok", self.timeouts.handshake);
            self.send("isready");
        }
    }

    fn send_option(&mut self, name: &str, value: &str) {
        self.send(&format!("setoption name {name} value {value}"));
    }

    /// Idle now: flush options, start the search that waited.
    fn become_ready(&mut self) {
        self.state = State::Ready;
        for (name, value) in std::mem::take(&mut self.unsent) {
            self.send_option(&name, &value);
        }
        if self.pending.is_some() {
            self.start_pending();
        }
    }

    fn start_pending(&mut self) {
        let Some(p) = self.pending.take() else {
            return;
        };
        if std::mem::take(&mut self.new_game) {
            self.send("usinewgame");
        }
        self.send(&p.root_text);
        self.send(&p.limit.go());
        if self.state != State::Ready {
            return; // the write failed: the engine is dead
        }
        self.state = State::Searching;
        self.running = Some(Running {
            id: p.id,
            position: p.position,
            mate: matches!(p.limit, Limit::Mate(_)),
            mate_limit: match p.limit {
                Limit::Mate(Some(d)) => Some(MateBudget::of(d)),
                _ => None,
            },
            stop_at: match p.limit {
                Limit::Time(d) => Some(Instant::now() + d),
                Limit::Mate(Some(d)) => Some(Instant::now() + MateBudget::of(d).stop_after),
                _ => None,
            },
            stop_sent: false,
            user_stopped: false,
        });
        if self.analysis.search == p.id {
            self.analysis.status = AnalysisStatus::Running;
            self.analysis.touch();
        }
    }

    /// Sends `stop` once per search.
    fn send_stop(&mut self) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        if r.stop_sent {
            return;
        }
        r.stop_sent = true;
        self.state = State::Stopping;
        // A mate search is answered by `checkmate …`, and has had its time already.
        if r.mate {
            let within = match r.mate_limit {
                Some(b) => b.limit - b.stop_after,
                None => self.timeouts.stop.min(MATE_STOP),
            };
            self.expect("checkmate", within);
        } else {
            self.expect("bestmove", self.timeouts.stop);
        }
        self.send("stop");
    }

    fn end_search(&mut self, outcome: SearchEnd) {
        let Some(r) = self.running.take() else {
            return;
        };
        if r.mate && matches!(outcome, SearchEnd::BestMove { .. } | SearchEnd::Resign) {
            self.events.push(EngineEvent::Note(format!(
                "engine {} answered go mate with bestmove (not a USI mate search)",
                self.info.name
            )));
        }
        if self.analysis.search == r.id {
            self.analysis.status = if r.user_stopped {
                AnalysisStatus::Stopped
            } else {
                AnalysisStatus::Finished
            };
            self.analysis.outcome = Some(outcome.clone());
            self.analysis.touch();
        }
        self.deadline = None;
        self.ended_at = Some((r.id, self.line_at.unwrap_or_else(Instant::now)));
        self.events.push(EngineEvent::SearchDone {
            search: r.id,
            outcome,
            superseded: self.pending.is_some(),
        });
        self.become_ready();
    }

    fn expect(&mut self, what: &'static str, within: Duration) {
        self.deadline = Some((Instant::now() + within, what));
    }

    /// Queues a line for the engine (never blocks); a write error means the engine is gone.
    fn send(&mut self, line: &str) {
        let Some(p) = self.process.as_mut() else {
            return;
        };
        if let Err(e) = p.send(line) {
            self.on_write_failed(e.to_string());
        }
    }

    /// A command could not be written: the engine closed its input (it is gone, or going),
    /// or it stopped reading it for too long.
    fn on_write_failed(&mut self, message: String) {
        let Some(mut p) = self.process.take() else {
            return;
        };
        let status = p.kill();
        // Its output may still hold the reason (a crash message): take what is left.
        let end = Instant::now() + Duration::from_millis(100);
        while let Ok(item) =
            p.rx.recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            match item {
                Incoming::Eof => break,
                other => self.handle(other),
            }
        }
        if self.state == State::Quitting {
            self.on_eof_status(status);
            return;
        }
        let name = self.info.name.clone();
        let killed_by_us = {
            use std::os::unix::process::ExitStatusExt;
            status.and_then(|s| s.signal()) == Some(libc::SIGKILL)
        };
        if killed_by_us {
            self.fail(EngineError::Write { name, message });
        } else {
            self.on_eof_status(status);
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let Some(mut p) = self.process.take() else {
            return;
        };
        if p.send("quit").is_ok() {
            let end = Instant::now() + Duration::from_millis(200);
            loop {
                let left = end.saturating_duration_since(Instant::now());
                match p.rx.recv_timeout(left) {
                    Ok(Incoming::Eof) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
        p.kill();
    }
}

#[cfg(test)]
#[path = "driver_tests.rs"]
mod tests;
