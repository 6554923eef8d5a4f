//! `:analyze` and `:mate` in the viewer: work for research mode's engine, driven from the
//! same poll as research mode ([`App::research_tick`] hands each finished search here), so
//! the screen never waits for the engine.
//!
//! `:analyze` runs an [`analyze::Plan`](crate::analyze::Plan) over the main line, one search
//! per position (`[analysis] analyze_time_ms`, 1 s by default); each comment is written as
//! its search ends, all of them one undo step (`History::apply_comments`). `:analyze` again
//! or Esc (`cancel_job`) stops it, keeping what was written. `:mate [SECONDS]` runs USI
//! `go mate` on the current position; a mate found is inserted by `I` like an engine line.

use crate::analyze::game::{marker, with_marker};
use crate::analyze::mate::known_unsupported;
use crate::analyze::{MateResult, Options, Plan, Searched};
use crate::app::dispatch::command::Command;
use crate::app::research::state::{AnalyzeRun, Job};
use crate::app::state::{App, Level};
use crate::core::record::NodeId;
use crate::core::rules::Move;
use crate::core::text::sanitize;
use crate::engine::{Limit, SearchEnd, SearchId, SearchRequest};
use std::time::{Duration, Instant};

use crate::analyze::mate::MATE_GRACE;

impl App {
    /// Is `:analyze` or `:mate` running?
    pub fn job_running(&self) -> bool {
        self.research.job.is_some()
    }

    /// The moves from the start to `node`.
    fn moves_to(&self, node: NodeId) -> Vec<Move> {
        self.doc
            .record()
            .path(node)
            .iter()
            .filter_map(|&n| self.doc.record().node(n).move_data().map(|m| m.mv))
            .collect()
    }

    /// Research mode gives the engine up to a job (it says so).
    fn pause_research(&mut self) -> &'static str {
        if !self.research.on {
            return "";
        }
        self.research.on = false;
        self.research.pending = None;
        " (research mode paused; a resumes it)"
    }

    /// `:analyze`: analyses every main-line move in the background (again: stops).
    pub(crate) fn analyze_command(&mut self) {
        if self.research.job.is_some() {
            self.cancel_job();
            return;
        }
        let opts = Options {
            limit: Limit::Time(Duration::from_millis(self.config.analysis.analyze_time_ms)),
            ..Options::default()
        };
        let plan = Plan::new(self.doc.record(), &opts);
        if plan.writes() == 0 {
            self.info_level("the main line has no moves to analyse".into(), Level::Error);
            return;
        }
        if !self.ensure_engine() {
            return;
        }
        let paused = self.pause_research();
        let Some(e) = self.research.engine.as_mut() else {
            return;
        };
        e.stop();
        e.new_game();
        // One rule with `kifview analyze`: the engine's `id name` (its configured name until
        // that came), written as `written_name` makes it fit every file.
        let engine = crate::analyze::game::written_name(&self.research_engine_label());
        let run = AnalyzeRun {
            marker: marker(&opts, &engine),
            plan,
            step: 0,
            search: None,
            epoch: self.research.epoch,
            rev: None,
            written: 0,
            marks: 0,
            engine,
        };
        let total = run.plan.writes();
        // One line per position, set before the first search (the job decides the number).
        self.research.job = Some(Job::Analyze(Box::new(run)));
        self.default_multipv();
        let Some(Job::Analyze(mut run)) = self.research.job.take() else {
            return;
        };
        match self.next_search(&mut run) {
            Ok(()) => {
                self.research.job = Some(Job::Analyze(run));
                self.info(format!(
                    "analysing {total} moves with {}{paused}; {} or :analyze stops",
                    sanitize(&self.research_engine_label()),
                    self.key(Command::CancelJob)
                ));
            }
            Err(msg) => {
                self.default_multipv();
                self.info_level(msg, Level::Error);
            }
        }
    }

    fn research_engine_label(&self) -> String {
        self.research
            .engine_name()
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .or_else(|| {
                self.research
                    .engine
                    .as_ref()
                    .map(|e| e.spec().display_name())
            })
            .unwrap_or_default()
    }

    /// Writes the results that need no engine (mated positions) and starts the next search.
    /// Ok with `run.search` None: the plan is done.
    fn next_search(&mut self, run: &mut AnalyzeRun) -> Result<(), String> {
        while run.step < run.plan.len() {
            let i = run.step;
            if let Some(result) = run.plan.mated_here(i) {
                self.write_result(run, i, result)?;
                run.step += 1;
                continue;
            }
            let Some(e) = self.research.engine.as_mut() else {
                return Err("the engine is gone".into());
            };
            match e.search(run.plan.request(i)) {
                Ok(id) => {
                    run.search = Some(id);
                    return Ok(());
                }
                Err(err) => {
                    return Err(format!(
                        "analysis stopped at ply {}: {}",
                        run.plan.ply(i),
                        sanitize(&err.to_string())
                    ));
                }
            }
        }
        run.search = None;
        Ok(())
    }

    /// Step `i`'s comment into the record (joining the analysis's undo step).
    fn write_result(
        &mut self,
        run: &mut AnalyzeRun,
        i: usize,
        result: Searched,
    ) -> Result<(), String> {
        let Some((node, text, mark)) = run.plan.finish(self.doc.record(), i, result) else {
            return Ok(());
        };
        let mut texts = vec![(node, text)];
        if run.written + 1 == run.plan.writes() {
            // The last one: the start position records how the record was analysed.
            let root = with_marker(&self.doc.record().node(NodeId::ROOT).comment, &run.marker);
            texts.push((NodeId::ROOT, root));
        }
        let cur = self.cur();
        // Undone, or another edit since: a step of its own.
        let extend = run.rev.is_some() && run.rev == Some(self.doc.current());
        self.doc
            .apply_comments(texts, cur, extend)
            .map_err(|e| format!("analysis stopped: {e} (the record changed under it)"))?;
        run.rev = Some(self.doc.current());
        run.written += 1;
        run.marks += usize::from(mark.is_some());
        Ok(())
    }

    /// Esc (`cancel_job`): stops `:analyze` or `:mate`, keeping what was written.
    pub(crate) fn cancel_job(&mut self) {
        let Some(job) = self.research.job.take() else {
            let a = self.key(Command::ToggleAnalysis);
            self.info(format!(
                "nothing to stop (:analyze, :mate and {a} run the engine)"
            ));
            return;
        };
        if let Some(e) = self.research.engine.as_mut() {
            e.stop();
        }
        self.default_multipv();
        match job {
            Job::Analyze(run) => {
                let undo = if run.written > 0 {
                    format!(" ({} them)", self.undo_hint())
                } else {
                    String::new()
                };
                self.info(format!(
                    "analysis stopped: {} of {} moves written{undo}",
                    run.written,
                    run.plan.writes()
                ));
            }
            Job::Mate { .. } => self.info("mate search stopped"),
        }
    }

    /// A search of the engine ended: the job's next step. Returns whether it was the job's.
    pub(crate) fn job_search_done(&mut self, search: SearchId, outcome: &SearchEnd) -> bool {
        match self.research.job.take() {
            Some(Job::Analyze(run)) if run.search == Some(search) => {
                self.analyze_step_done(*run);
                true
            }
            Some(Job::Mate {
                search: s, target, ..
            }) if s == search => {
                self.mate_done(target, outcome);
                true
            }
            other => {
                self.research.job = other;
                // Not a job's: the solve mode's request, if it is one (`app::train::engine`).
                self.train_search_done(search, outcome)
            }
        }
    }

    fn analyze_step_done(&mut self, mut run: AnalyzeRun) {
        let Some(e) = self.research.engine.as_ref() else {
            return;
        };
        let result = Searched::from_analysis_upto(e.analysis(), &run.engine, run.plan.multipv());
        let i = run.step;
        let step = self.write_result(&mut run, i, result).and_then(|()| {
            run.step += 1;
            self.next_search(&mut run)
        });
        if let Err(msg) = step {
            self.default_multipv();
            self.info_level(msg, Level::Error);
            return;
        }
        let total = run.plan.writes();
        if run.search.is_none() {
            self.default_multipv();
            let m = run.marks;
            self.info(format!(
                "analysed {} moves, {m} marked (E: graph, ]: next mark, u: undo it all)",
                run.written
            ));
            return;
        }
        self.info(format!(
            "analysing {}/{total} (ply {}), {} marked; {} stops",
            run.written,
            run.plan.ply(run.step),
            run.marks,
            self.key(Command::CancelJob)
        ));
        self.research.job = Some(Job::Analyze(Box::new(run)));
    }

    /// Called from every tick: a job whose record was replaced stops; a mate search past its
    /// time is stopped.
    pub(crate) fn job_watch(&mut self, now: Instant) {
        let stale = match &self.research.job {
            Some(Job::Analyze(run)) => run.epoch != self.research.epoch,
            Some(Job::Mate { target, .. }) => target.0 != self.research.epoch,
            None => false,
        };
        if stale {
            self.research.job = None;
            if let Some(e) = self.research.engine.as_mut() {
                e.stop();
            }
            self.info_level(
                "another record is open: the engine's job stopped".into(),
                Level::Warning,
            );
            return;
        }
        if let Some(Job::Mate {
            give_up,
            time,
            search,
            ..
        }) = &mut self.research.job
        {
            // The time counts from `go mate`: an engine that answers `readyok` late (gpsusi
            // under load) has not started yet.
            let waiting = self.research.engine.as_ref().is_some_and(|e| {
                let a = e.analysis();
                a.search == *search && a.status == crate::engine::AnalysisStatus::Waiting
            });
            if waiting {
                *give_up = now + *time + MATE_GRACE;
                return;
            }
        }
        if let Some(Job::Mate { give_up, .. }) = &mut self.research.job
            && now >= *give_up
        {
            *give_up = now + Duration::from_secs(3600);
            if let Some(e) = self.research.engine.as_mut() {
                e.stop();
            }
        }
    }

    /// `:mate [SECONDS]`: USI `go mate` on the current position.
    pub(crate) fn mate_command(&mut self, arg: &str) {
        let time = if arg.is_empty() {
            Duration::from_millis(self.config.analysis.mate_time_ms)
        } else {
            match arg.parse::<f64>() {
                Ok(s) if (0.01..=3600.0).contains(&s) => Duration::from_secs_f64(s),
                _ => {
                    self.info_level(
                        format!(
                            "give the time in seconds, 0.01 to 3600 (got {})",
                            sanitize(arg)
                        ),
                        Level::Error,
                    );
                    return;
                }
            }
        };
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
        let node = self.cur();
        if let Some(s) = self.doc.record().node(node).special() {
            let word = s.kif_word().to_string();
            self.info_level(format!("the line has ended here ({word})"), Level::Error);
            return;
        }
        if !self.ensure_engine() {
            return;
        }
        let name = self.research_engine_label();
        if let Some(why) = known_unsupported(&name) {
            let other = self.mate_capable_engine().map_or(String::new(), |n| {
                format!("; :engine {n} uses one that has, then :mate")
            });
            self.info_level(
                format!(
                    "{}{other}",
                    MateResult::NotSupported(sanitize(&why).into_owned()).text()
                ),
                Level::Error,
            );
            return;
        }
        let paused = self.pause_research();
        let req = SearchRequest {
            root: self.doc.record().initial.position.clone(),
            moves: self.moves_to(node),
            limit: Limit::Mate(Some(time)),
        };
        let Some(e) = self.research.engine.as_mut() else {
            return;
        };
        match e.search(req) {
            Ok(search) => {
                self.research.job = Some(Job::Mate {
                    search,
                    target: (self.research.epoch, node),
                    give_up: Instant::now() + time + MATE_GRACE,
                    time,
                });
                self.info(format!(
                    "searching for a mate ({} s){paused}; {} stops",
                    time.as_secs_f64(),
                    self.key(Command::CancelJob)
                ));
            }
            Err(err) => self.info_level(sanitize(&err.to_string()).into_owned(), Level::Error),
        }
    }

    /// A configured or installed engine with a USI mate search (as `kifview mate` picks
    /// one), by the name `:engine` takes.
    fn mate_capable_engine(&self) -> Option<String> {
        self.config
            .engines
            .iter()
            .cloned()
            .chain(crate::engine::discover())
            .map(|s| s.display_name())
            .find(|n| known_unsupported(n).is_none())
            .map(|n| sanitize(&n).into_owned())
    }

    fn mate_done(&mut self, target: (u64, NodeId), outcome: &SearchEnd) {
        let name = self.research_engine_label();
        let position = self.doc.record().position_at(target.1);
        let prev_to = self
            .doc
            .record()
            .node(target.1)
            .move_data()
            .map(|m| m.mv.to());
        let result = MateResult::from_outcome(outcome, &position, prev_to, &name);
        let text = sanitize(&result.text()).into_owned();
        match result {
            MateResult::Mate { moves, .. } => {
                self.research.mate_line = Some((target, moves));
                let here = if target.1 == self.cur() {
                    "I inserts it"
                } else {
                    "I at that position inserts it"
                };
                self.info(format!("{text} ({here})"));
            }
            MateResult::NotSupported(_) => self.info_level(text, Level::Error),
            MateResult::NoMate | MateResult::Timeout => self.info(text),
        }
    }

    /// The mate `:mate` found at the cursor's position, if any.
    pub(crate) fn mate_line_here(&self) -> Option<Vec<Move>> {
        match &self.research.mate_line {
            Some((target, moves)) if *target == (self.research.epoch, self.cur()) => {
                Some(moves.clone())
            }
            _ => None,
        }
    }
}
