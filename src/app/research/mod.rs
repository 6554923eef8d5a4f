//! Research mode: a USI engine analyses the position at the cursor and follows it.
//!
//! `a` (`toggle_analysis`) starts the engine (the `--engine` choice, else the config's first
//! `[[engines]]`, else one found installed) and analyses the current position; while on,
//! [`App::research_tick`] — run when the engine's threads send `Event::Engine` (it sent a
//! line, exited, or could not be written to) and when [`App::research_deadline`] comes (a
//! reply's timeout, a timed search's end, the cursor's position asked for once it has stayed
//! there for [`DEBOUNCE`]) — polls the engine without blocking and follows the cursor. The engine's lines are kept by the driver (`engine::Analysis`),
//! already checked and in Japanese: drawing them costs no parsing. `I` (`insert_pv`) puts the
//! best line into the record, `C` (`pv_to_comment`) copies it into the comment, each one undo
//! step; `:engine` and `:set` choose the engine and its options (`engines.rs`).

pub(crate) mod analyze;
mod engines;
pub mod graph;
mod lists;
pub(crate) mod state;

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::research::state::Target;
pub use crate::app::research::state::{DEBOUNCE, Research};
use crate::app::state::{App, Level};
use crate::core::record::Edit;
use crate::core::rules::{Move, Square};
use crate::core::text::sanitize;
use crate::engine::{
    self, Engine, EngineEvent, EngineSpec, Limit, OptionValue, SearchRequest, State,
};
use std::time::Instant;

impl App {
    /// What the engine should be analysing now.
    fn research_target(&self) -> Target {
        (self.research.epoch, self.cur())
    }

    /// Is the analysis on screen of the current position?
    pub fn analysis_is_current(&self) -> bool {
        self.research.searched == Some(self.research_target()) && self.research.analysis().is_some()
    }

    /// The best move's squares (from, to) for the board, when it shows them.
    pub fn best_move_squares(&self) -> Option<(Option<Square>, Square)> {
        if !self.research.show_best || !self.analysis_is_current() {
            return None;
        }
        let mv = self.research.analysis()?.best()?.first_move()?;
        Some((mv.from(), mv.to()))
    }

    /// The engine to start: `:engine`'s pick, else `--engine`, else the config's first, else
    /// one found installed. Err: a message saying how to get one.
    fn research_spec(&self) -> Result<(EngineSpec, bool), String> {
        if let Some(s) = &self.research.picked {
            return Ok((s.clone(), false));
        }
        let choice = self.research.choice.as_deref();
        let found = choice.is_none() && self.config.engines.is_empty();
        let mut spec = engine::resolve(choice, &self.config.engines)?;
        // gpsusi answers from its opening book at once, without a line: analysis wants none.
        if spec.display_name().starts_with("gpsusi")
            && !self.config.engines.iter().any(|e| e == &spec)
        {
            spec.options
                .entry("BookDepth".into())
                .or_insert(OptionValue::Int(0));
        }
        Ok((spec, found))
    }

    /// Starts the engine (or starts a dead one again). Says why not when it cannot.
    pub(crate) fn ensure_engine(&mut self) -> bool {
        if let Some(e) = self.research.engine.as_mut() {
            if e.state() != State::Dead {
                return true;
            }
            return match e.restart() {
                Ok(()) => {
                    let name = sanitize(&e.spec().display_name()).into_owned();
                    self.research.clear_failure();
                    let stop = self.key(Command::ToggleAnalysis);
                    self.info(format!("started {name} again; {stop} stops"));
                    true
                }
                Err(err) => {
                    self.info_level(format!("{err}"), Level::Error);
                    false
                }
            };
        }
        let (spec, found) = match self.research_spec() {
            Ok(s) => s,
            Err(msg) => {
                self.info_level(msg, Level::Error);
                return false;
            }
        };
        // The engine's threads wake the run loop when it sends something (`Event::Engine`).
        let events = self.session.events.clone();
        let waker = engine::Waker::new(move || {
            events.send(crate::app::events::Event::Engine);
        });
        match Engine::start_waking(spec.clone(), engine::Timeouts::default(), waker) {
            Ok(mut e) => {
                for (k, v) in &self.research.session {
                    let _ = e.set_option(k, v);
                }
                self.research.engine = Some(e);
                self.research.clear_failure();
                let how = if found {
                    format!(
                        " ({}, found installed; [[engines]] in the config or --engine picks another)",
                        spec.command.display()
                    )
                } else {
                    String::new()
                };
                self.info(format!(
                    "analysing with {}{how}; {} stops",
                    sanitize(&spec.display_name()),
                    self.key(Command::ToggleAnalysis)
                ));
                true
            }
            Err(err) => {
                self.info_level(format!("{err}"), Level::Error);
                false
            }
        }
    }

    /// `toggle_analysis` (`a`): starts or stops analysing the cursor's position.
    pub(crate) fn toggle_analysis(&mut self) {
        if self.research.job.is_some() {
            self.info_level(
                format!(
                    "the engine is busy with :analyze or :mate ({} stops it)",
                    self.key(Command::CancelJob)
                ),
                Level::Error,
            );
            return;
        }
        if self.research.on {
            self.research.on = false;
            self.research.pending = None;
            if let Some(e) = self.research.engine.as_mut() {
                e.stop();
            }
            self.info("analysis stopped (a starts it again)");
            return;
        }
        if !self.ensure_engine() {
            return;
        }
        self.research.on = true;
        self.research.searched = None;
        // At once: no debounce for the first position.
        let now = Instant::now();
        self.research.pending = Some((self.research_target(), now - DEBOUNCE));
        self.research_tick(now);
    }

    /// `toggle_best_move`: highlight the best move's squares on the board, or not.
    pub(crate) fn toggle_best_move(&mut self) {
        self.research.show_best = !self.research.show_best;
        self.info(if self.research.show_best {
            "the board shows the engine's best move"
        } else {
            "the board no longer shows the engine's best move"
        });
    }

    /// Polls the engine and follows the cursor. Never blocks. Returns whether the screen
    /// should be drawn again. The front end calls it after each key and regularly (every
    /// 30–50 ms) while [`App::research_busy`].
    pub fn research_tick(&mut self, now: Instant) -> bool {
        let Some(e) = self.research.engine.as_mut() else {
            return false;
        };
        let mut changed = false;
        let mut error = None;
        let mut note = None;
        let mut ready = false;
        let mut done = Vec::new();
        for ev in e.poll() {
            match ev {
                EngineEvent::Ready => {
                    ready = true;
                    changed = true;
                }
                EngineEvent::SearchDone {
                    search, outcome, ..
                } => {
                    done.push((search, outcome));
                    changed = true;
                }
                EngineEvent::Analysis(_) | EngineEvent::Quit { .. } => changed = true,
                EngineEvent::Note(n) | EngineEvent::OptionRefused(n) => note = Some(n),
                EngineEvent::Error(err) => error = Some(err.to_string()),
            }
        }
        if ready {
            self.default_multipv();
        }
        if let Some(n) = note {
            self.info_level(sanitize(&n).into_owned(), Level::Warning);
            changed = true;
        }
        for (search, outcome) in done {
            self.job_search_done(search, &outcome);
        }
        if let Some(err) = error {
            let stopped = match self.research.job.take() {
                Some(_) => "; :analyze or :mate stopped (what was written stays)",
                None => "",
            };
            let cause = sanitize(&err).into_owned();
            let msg = format!("{cause}{stopped}; a starts it again");
            self.research.failed(msg.clone(), cause);
            self.info_level(msg, Level::Error);
            return true;
        }
        if self.research.job.is_some() {
            self.job_watch(now);
        }
        if self.research.on {
            changed |= self.follow(now);
        }
        changed
    }

    /// When the research must be looked at though the engine sent nothing: the engine's
    /// own deadline (`Engine::next_deadline`), the cursor's position to ask for once the
    /// debounce has passed, a mate search's time. `None` while the engine is dead, or when
    /// only its lines (`Event::Engine`) move anything.
    pub fn research_deadline(&self, now: Instant) -> Option<Instant> {
        let e = self
            .research
            .engine
            .as_ref()
            .filter(|e| e.state() != State::Dead)?;
        let target = self.research_target();
        let follow =
            (self.research.on && self.research.searched != Some(target)).then(|| {
                match self.research.pending {
                    Some((t, since)) if t == target => since + DEBOUNCE,
                    _ => now,
                }
            });
        let mate = match &self.research.job {
            Some(state::Job::Mate { give_up, .. }) => Some(*give_up),
            _ => None,
        };
        [e.next_deadline(), follow, mate]
            .into_iter()
            .flatten()
            .min()
    }

    /// Does the engine need polling (running, starting or quitting)?
    pub fn research_busy(&self) -> bool {
        self.research
            .engine
            .as_ref()
            .is_some_and(|e| e.state() != State::Dead)
    }

    /// `[analysis] multipv` lines (one while `:analyze` runs), when the engine has the
    /// option and neither its config entry nor `:set` chose a number.
    pub(crate) fn default_multipv(&mut self) {
        // `:analyze` writes the best line only (as ShogiHome's analysis does).
        let analysing = matches!(
            self.research.job,
            Some(crate::app::research::state::Job::Analyze(_))
        );
        let n = if analysing {
            "1".to_string()
        } else {
            self.config.analysis.multipv.to_string()
        };
        let chosen = |name: &str| name.eq_ignore_ascii_case("MultiPV");
        let set = self.research.session.iter().any(|(k, _)| chosen(k));
        let Some(e) = self.research.engine.as_mut() else {
            return;
        };
        let has = e.info().options.iter().any(|o| chosen(&o.name));
        if has && !set && !e.spec().options.keys().any(|k| chosen(k)) {
            let _ = e.set_option("MultiPV", &n);
        }
    }

    /// Asks for the cursor's position once it has stayed there for `DEBOUNCE`.
    fn follow(&mut self, now: Instant) -> bool {
        let target = self.research_target();
        if self.research.searched == Some(target) {
            self.research.pending = None;
            return false;
        }
        let since = match self.research.pending {
            Some((t, since)) if t == target => since,
            _ => {
                self.research.pending = Some((target, now));
                now
            }
        };
        let ready = self.research.engine.as_ref().is_some_and(|e| {
            matches!(e.state(), State::Ready | State::Searching | State::Stopping)
        });
        if now.duration_since(since) < DEBOUNCE || !ready {
            return false;
        }
        self.research.pending = None;
        self.research.searched = Some(target);
        let moves: Vec<Move> = self
            .doc
            .record()
            .path(self.cur())
            .iter()
            .filter_map(|&n| self.doc.record().node(n).move_data().map(|m| m.mv))
            .collect();
        let req = SearchRequest {
            root: self.doc.record().initial.position.clone(),
            moves,
            limit: Limit::Infinite,
        };
        let Some(e) = self.research.engine.as_mut() else {
            return false;
        };
        if let Err(err) = e.search(req) {
            self.info_level(sanitize(&err.to_string()).into_owned(), Level::Warning);
        }
        true
    }

    /// The moves of line `index` (0: the best) when the analysis is of this position.
    fn current_line(&mut self, index: usize) -> Option<Vec<Move>> {
        if !self.analysis_is_current() {
            self.info_level(
                if self.research.analysis().is_some() {
                    "the engine's lines are of another position; wait for it to catch up (a starts it)"
                } else {
                    "no engine lines yet: a starts the analysis"
                }
                .into(),
                Level::Error,
            );
            return None;
        }
        let a = self.research.analysis()?;
        match a.lines.get(index).map(|l| l.pv.moves.clone()) {
            Some(m) if !m.is_empty() => Some(m),
            _ => {
                self.info_level(
                    format!("the engine has no line {} here yet", index + 1),
                    Level::Error,
                );
                None
            }
        }
    }

    /// `insert_pv` (`I`): the best line into the record.
    pub(crate) fn insert_best_pv(&mut self) {
        if !self.analysis_is_current()
            && let Some(moves) = self.mate_line_here()
        {
            self.insert_moves(moves);
            return;
        }
        self.insert_pv(0);
    }

    /// Adds line `index` after the current position as a variation (following the moves
    /// already in the record), as one undo step. The cursor stays; the shown line goes
    /// through the inserted moves.
    pub(crate) fn insert_pv(&mut self, index: usize) {
        let Some(moves) = self.current_line(index) else {
            return;
        };
        self.insert_moves(moves);
    }

    /// Adds `moves` after the current position as a variation (see `insert_pv`).
    fn insert_moves(&mut self, moves: Vec<Move>) {
        let cur = self.cur();
        if let Some(s) = self.doc.record().node(cur).special() {
            let word = s.kif_word().to_string();
            self.info_level(format!("the line has ended here ({word})"), Level::Error);
            return;
        }
        let mut at = cur;
        let mut known = 0;
        while let Some(c) = moves
            .get(known)
            .and_then(|&m| self.doc.record().find_move_child(at, m))
        {
            at = c;
            known += 1;
        }
        let n = moves.len();
        if known == n {
            self.jump_to(at);
            self.jump_to(cur);
            self.info(format!(
                "the engine's line ({n} moves) is already in the record: it is the line shown now"
            ));
            return;
        }
        let siblings = self.doc.record().node(at).children.len();
        let prev_to = self.doc.record().node(at).move_data().map(|m| m.mv.to());
        let first = crate::core::notation::ki2::line_text(
            &self.doc.record().position_at(at),
            &moves[known..known + 1],
            prev_to,
        );
        let Some(_end) = self.apply_or_say(Edit::AddLine {
            parent: at,
            moves: moves[known..].to_vec(),
        }) else {
            return;
        };
        self.settle(cur);
        let place = if siblings == 0 {
            "added".to_string()
        } else {
            format!("variation {}/{}", siblings + 1, siblings + 1)
        };
        let followed = if known > 0 {
            let s = if known == 1 { "" } else { "s" };
            format!("; after {known} move{s} already there")
        } else {
            String::new()
        };
        // The important part first: the status line is cut at the terminal's width.
        let added = n - known;
        let s = if added == 1 { "" } else { "s" };
        self.info(format!(
            "{place}: {first}… {added} move{s} ({}{followed})",
            self.undo_hint()
        ));
    }

    /// `pick_pv`: lists the engine's lines; Enter inserts the chosen one.
    pub(crate) fn open_pv_list(&mut self) {
        if self.current_line(0).is_none() {
            return;
        }
        let keys = self.keys_hint(
            KeyMode::List,
            &[
                (Command::ListPick, "insert as a variation"),
                (Command::Close, "close"),
            ],
        );
        self.open_list(lists::EngineLines, &format!("読み筋  {keys}"));
    }

    /// The rows of the line picker.
    pub(crate) fn pv_list_items(&self) -> Vec<String> {
        let Some(a) = self.research.analysis() else {
            return Vec::new();
        };
        a.lines
            .iter()
            .map(|l| format!("{}  {:>6}  {}", l.multipv, a.score_text(l), l.japanese))
            .collect()
    }

    /// `pv_to_comment` (`C`): the best line into the current comment in ShogiHome's format
    /// (`#評価値=…`, `#読み筋=…`), after what is there; one undo step.
    pub(crate) fn pv_to_comment(&mut self) {
        if self.current_line(0).is_none() {
            return;
        }
        let Some(a) = self.research.analysis() else {
            return;
        };
        let Some(line) = a.best() else {
            return;
        };
        let text = a.comment(line, self.research.engine_name());
        let node = self.cur();
        let old = &self.doc.record().node(node).comment;
        let new = if old.trim().is_empty() {
            text.trim_end().to_string()
        } else {
            format!("{}\n{}", old.trim_end(), text.trim_end())
        };
        if self
            .apply_or_say(Edit::SetComment { node, text: new })
            .is_some()
        {
            self.settle(node);
            self.info(format!(
                "the engine's line is in the comment ({})",
                self.undo_hint()
            ));
        }
    }
}
