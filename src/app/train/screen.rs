//! The solve mode's screen as data (what `app::overlay::stack` holds: it names no app
//! state): the problems, where the session is, the clock, the verdict given, and the text
//! beside the board. What the keys do with it is `mod.rs`'s.

use super::writer::Writer;
use crate::core::notation::ki2::line_text;
use crate::core::rules::Color;
use crate::training::drill::{Drill, Judgement, Verdict};
use crate::training::tsume::Splits;
use chrono::{DateTime, Utc};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How `kifview train` starts the solve mode.
#[derive(Clone, Debug, Default)]
pub struct TrainOptions {
    /// The problems, in the order they are asked.
    pub drills: Vec<Box<dyn Drill>>,
    /// The history file the attempts are written to.
    pub history: PathBuf,
    /// `--now`: the attempts are written as of this time (and the time since launch).
    pub now: Option<DateTime<Utc>>,
    /// What the session holds, said above the problem (`due: 23, new: 10`).
    pub summary: Option<String>,
    /// `--mate-time`: how long the mate engine looks for a mate after each defence of a
    /// tsume's check, instead of the config's `[analysis] tsume_mate_time_ms`.
    pub mate_time: Option<Duration>,
}

/// The solve mode's screen: the problems, where it is, the clock, the verdict given.
#[derive(Clone, Debug)]
pub struct TrainScreen {
    pub(super) drills: Vec<Box<dyn Drill>>,
    pub(super) at: usize,
    /// When the problem shown was put up.
    pub(super) started: Instant,
    /// How long it took, once it is over.
    pub(super) took: Option<Duration>,
    /// The time the attempts are written at: `base` plus the time since `launched`.
    pub(super) launched: Instant,
    pub(super) base: DateTime<Utc>,
    /// The last verdict on the problem shown.
    pub(super) verdict: Option<Judgement>,
    /// Problems answered (a verdict written) and answered right, this session.
    pub(super) answered: usize,
    pub(super) right: usize,
    pub(super) summary: Option<String>,
    pub(super) writer: Writer,
    /// When the problem is due next (or why the attempt was not written).
    pub(super) written: Option<String>,
    /// The problem's source record is shown instead (`train_source`): the train keys browse
    /// it, and `train_source` or Esc come back.
    pub(super) away: bool,
    /// The engine's work for the problem shown, while it runs (`engine.rs`).
    pub(super) asking: Option<Asked>,
    /// The time the engine took on the problem shown: not the solver's.
    pub(super) engine_time: Duration,
    /// The time of each of the solver's moves on the problem shown (tsumemi's splits).
    pub(super) splits: Splits,
    /// The solver's last move entered on the problem shown.
    pub(super) entered: Option<crate::core::rules::Move>,
    /// The engine answered a `go mate` with `bestmove` (chess's mate-in-N, or none): its mate
    /// searches are timed searches from then on, for the session.
    pub(super) mate_by_search: bool,
    /// `TrainOptions::mate_time`.
    pub(super) mate_time: Option<Duration>,
}

/// A line of the screen's text, with what it is (the widget picks the style).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrainLine {
    Title(String),
    Plain(String),
    Right(String),
    Wrong(String),
    Dim(String),
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

pub(super) fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "☗先手",
        Color::White => "☖後手",
    }
}

impl TrainScreen {
    pub(super) fn new(opts: TrainOptions, writer: Writer) -> TrainScreen {
        let now = Instant::now();
        TrainScreen {
            drills: opts.drills,
            at: 0,
            started: now,
            took: None,
            launched: now,
            base: opts.now.unwrap_or_else(Utc::now),
            verdict: None,
            answered: 0,
            right: 0,
            summary: opts.summary,
            writer,
            written: None,
            away: false,
            asking: None,
            engine_time: Duration::ZERO,
            splits: Splits::default(),
            entered: None,
            mate_by_search: false,
            mate_time: opts.mate_time,
        }
    }

    /// The next problem is shown: its clock starts, nothing of the last one's kept.
    pub(super) fn restart_clock(&mut self) {
        self.started = Instant::now();
        self.took = None;
        self.verdict = None;
        self.written = None;
        self.asking = None;
        self.engine_time = Duration::ZERO;
        self.splits = Splits::default();
        self.entered = None;
    }

    /// The engine's request is over (answered, dead, dropped) at `now`: its time is the
    /// engine's, not the solver's.
    pub(super) fn stop_asking(&mut self, now: Instant) {
        if let Some(a) = self.asking.take() {
            self.engine_time += now.saturating_duration_since(a.since);
        }
    }

    /// Is the engine working for the problem shown?
    pub fn asking(&self) -> bool {
        self.asking.is_some()
    }

    pub(super) fn drill(&self) -> Option<&dyn Drill> {
        self.drills.get(self.at).map(|d| d.as_ref())
    }

    /// Is the problem shown over?
    pub fn finished(&self) -> bool {
        self.drill().is_some_and(|d| d.finished())
    }

    /// Is the source record shown instead of the problem?
    pub fn away(&self) -> bool {
        self.away
    }

    /// The time on the problem's clock at `now` (stopped once it is over; the engine's time
    /// not counted).
    pub fn elapsed(&self, now: Instant) -> Duration {
        self.took.unwrap_or_else(|| {
            let engine = self.engine_time
                + self
                    .asking
                    .as_ref()
                    .map_or(Duration::ZERO, |a| now.saturating_duration_since(a.since));
            now.saturating_duration_since(self.started)
                .saturating_sub(engine)
        })
    }

    /// The screen's text beside the board, at `now` (the clock); `keys`: the keys' line;
    /// `asking`: what the engine is checking, while it does.
    pub(super) fn lines(
        &self,
        now: Instant,
        keys: String,
        asking: Option<String>,
    ) -> Vec<TrainLine> {
        let mut out = Vec::new();
        let Some(d) = self.drill() else {
            out.push(TrainLine::Plain("問題がありません".into()));
            return out;
        };
        let mut title = d.title();
        if let Some(s) = &self.summary {
            title.push_str(&format!("  ({s})"));
        }
        out.push(TrainLine::Title(title));
        let who = if d.finished() {
            format!("{}番の問題 · 終了", side_name(d.solver()))
        } else {
            format!("{}の番", side_name(d.to_move()))
        };
        out.push(TrainLine::Plain(format!(
            "{who}   時間 {}",
            clock(self.elapsed(now))
        )));
        out.push(TrainLine::Plain(String::new()));
        if let Some(j) = &self.verdict {
            out.extend(self.verdict_lines(d, j));
        } else if asking.is_none() {
            out.push(TrainLine::Dim("入力例: 7g7f, 76歩, ▲７六歩".into()));
        }
        if let Some(a) = asking {
            out.push(TrainLine::Dim(a));
        }
        // A tsume's splits, each of the solver's moves (tsumemi's).
        if d.id().kind == "tsume" && !self.splits.laps().is_empty() {
            out.push(TrainLine::Dim(self.splits.text()));
        }
        if d.finished() {
            let answer = d.answer_line();
            if !answer.is_empty() {
                out.push(TrainLine::Plain(format!(
                    "答え: {}",
                    line_text(d.start(), &answer, None)
                )));
            }
        }
        if let Some(w) = &self.written {
            out.push(TrainLine::Dim(w.clone()));
        }
        out.push(TrainLine::Plain(String::new()));
        if let Some(s) = d.source() {
            out.push(TrainLine::Dim(format!(
                "出典: {} {}手目",
                s.path.display(),
                s.ply + 1
            )));
        }
        out.push(TrainLine::Dim(format!(
            "{}/{}問目  解答 {}  正解 {}",
            self.at + 1,
            self.drills.len(),
            self.answered,
            self.right
        )));
        out.push(TrainLine::Plain(String::new()));
        out.push(TrainLine::Dim(keys));
        out
    }

    fn verdict_lines(&self, d: &dyn Drill, j: &Judgement) -> Vec<TrainLine> {
        let mut out = Vec::new();
        let tried = d.played();
        let judged = d.tried_text();
        let first = judged.clone().unwrap_or_default();
        match &j.verdict {
            Verdict::Right => out.push(TrainLine::Right(format!("○ 正解 {first}"))),
            Verdict::AnotherGood => {
                out.push(TrainLine::Right(format!("○ 別解 {first} (正解の一つ)")))
            }
            Verdict::Wrong { allows } => {
                if judged.is_none() {
                    out.push(TrainLine::Wrong("× 不正解 (答えを見ました)".into()));
                } else {
                    out.push(TrainLine::Wrong(format!("× 不正解 {first}")));
                }
                if !allows.is_empty() && !tried.is_empty() {
                    let mut after = d.start().clone();
                    for &m in tried {
                        let _ = after.play(m);
                    }
                    let prev = tried.last().map(|m| m.to());
                    out.push(TrainLine::Wrong(format!(
                        "以下 {}",
                        line_text(&after, allows, prev)
                    )));
                }
            }
        }
        if let Some(n) = &j.note {
            out.push(TrainLine::Dim(n.clone()));
        }
        out.extend(d.report().into_iter().map(TrainLine::Plain));
        out
    }
}

/// A drill's request running on the engine (`engine.rs` sends it and reads its answer; it
/// lives here, with the screen that holds it, so the screen names nothing that names `App`).
#[derive(Clone, Debug)]
pub struct Asked {
    pub(super) search: crate::engine::SearchId,
    /// Which problem asked (an answer for one left is dropped).
    pub(super) at: usize,
    /// A mate search run as a timed search: the mate is read from the best line.
    pub(super) by_search: bool,
    /// When it was sent: the problem's clock does not count the engine's time.
    pub(super) since: Instant,
    /// The solver's move the request is about, when it is not played yet (a check being
    /// confirmed).
    pub(super) entered: Option<crate::core::rules::Move>,
    /// The request as the drill asked it: sent again as a timed search when the engine
    /// answers `go mate` with `bestmove` (it has no USI mate search).
    pub(super) request: crate::training::drill::EngineRequest,
}
