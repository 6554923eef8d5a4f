//! The solve mode (`kifview train SOURCE...`): one problem at a time, full screen, the
//! position only (no move list, no comment, no engine pane), the side to move named and a
//! clock running. A move is entered as everywhere (`i` and the board with its legal squares,
//! a click, or `m` and typed text); [`App::enter_move`] hands it here while the mode is open.
//! The drill judges it at once (`training::drill`); the attempt goes to the history's writer
//! (`writer.rs`) with the time it took. Then the answer's line can be stepped through (the
//! record shown is the problem's: the answer as its main line, the moves tried beside it),
//! the problem's source record opened at its ply and left again, and the next problem comes.
//!
//! The screen's state is the overlay's ([`TrainScreen`], at the bottom of the stack); the
//! record shown while it is open is a scratch record made from the drill, never modified by
//! an edit (so quitting asks nothing), remade whenever the drill moves on.

pub mod engine;
pub mod screen;
pub mod writer;

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::document::{self, RecordSource};
use crate::app::overlay::behaviour::{Handler, OverlayState, Tag, clone_box};
use crate::app::overlay::{Mode, Overlay};
use crate::app::state::{App, Level};
use crate::core::record::{Initial, NodeId, Record, Step as RecordStep};
use crate::core::rules::{Color, Move, Position};
use crate::training::drill::{Judgement, Step, Verdict};
use crate::training::history::Attempt;
use screen::side_name;
pub use screen::{TrainLine, TrainOptions, TrainScreen};
use std::time::{Duration, Instant};
use writer::Writer;

/// A record from `start` holding `lines` (each from the start; a line sharing a prefix
/// with one before continues it as a variation); returns it and the node where each line
/// ends.
fn scratch_record(start: &Position, title: &str, lines: &[&[Move]]) -> (Record, Vec<NodeId>) {
    let mut rec = Record::new(Initial {
        position: start.clone(),
        handicap: None,
    });
    rec.header.set("棋戦", title);
    let mut ends = Vec::new();
    for line in lines {
        let mut at = rec.root();
        let mut pos = start.clone();
        for &mv in *line {
            if let Some(c) = rec.find_move_child(at, mv) {
                at = c;
                let _ = pos.play(mv);
                continue;
            }
            let Ok(md) = pos.play_move(mv) else { break };
            at = rec.push_child(at, RecordStep::Move(md));
        }
        ends.push(at);
    }
    (rec, ends)
}

impl OverlayState<App> for TrainScreen {
    fn mode(&self) -> Mode {
        Mode::Train
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Train
    }
    fn tag(&self) -> Tag {
        if self.away {
            return Tag::Keys("TRAIN: SOURCE", &[(Command::TrainSource, "問題に戻る")]);
        }
        Tag::Keys(
            "TRAIN",
            &[
                (Command::EnterMove, "盤で指す"),
                (Command::TypeMove, "入力"),
                (Command::TrainAnswer, "答え"),
                (Command::TrainNext, "次の問題"),
                (Command::TrainSource, "出典"),
                (Command::Quit, "終了"),
            ],
        )
    }
    fn cancel(&self) -> Handler {
        App::train_back
    }
    clone_box!();
}

impl App {
    /// Opens the solve mode with `opts` (at launch, `kifview train`).
    pub fn start_training(&mut self, opts: TrainOptions) {
        let writer = Writer::start(opts.history.clone(), self.session.events.clone());
        let screen = TrainScreen::new(opts, writer);
        self.overlays.clear();
        self.overlays.push(Overlay::Train(Box::new(screen)));
        self.show_problem(true);
    }

    /// The solve mode's screen, when it is open.
    pub fn train(&self) -> Option<&TrainScreen> {
        self.overlays.train().map(|t| &**t)
    }

    /// The solve mode's text beside the board at `now` (the clock), its keys named as bound.
    pub fn train_lines(&self, now: Instant) -> Vec<TrainLine> {
        let Some(t) = self.train() else {
            return Vec::new();
        };
        let k = |c| self.key_name(KeyMode::Train, c);
        let keys = format!(
            "{}/{}: 盤で指す・入力で解答 · {}: 答えを見る · {}/{}: 手順を進める・戻す · {}: 次の問題 · {}: 出典 · {}: 終了",
            k(Command::EnterMove),
            k(Command::TypeMove),
            k(Command::TrainAnswer),
            k(Command::NextMove),
            k(Command::PrevMove),
            k(Command::TrainNext),
            k(Command::TrainSource),
            k(Command::Quit)
        );
        t.lines(now, keys, self.train_asking_text())
    }

    /// Is the solve mode taking the moves entered (open, the problem shown)?
    pub(crate) fn training(&self) -> bool {
        self.train().is_some_and(|t| !t.away)
    }

    /// Shows the problem's record (the moves played, the answer once it is over), the
    /// cursor after the moves played; `fresh`: the problem has just come up (the board turned
    /// to the solver's side).
    fn show_problem(&mut self, fresh: bool) {
        let Some(t) = self.overlays.train() else {
            return;
        };
        let Some(d) = t.drill() else {
            return;
        };
        let played = d.played().to_vec();
        let mut tried = played.clone();
        if let Some(Judgement {
            verdict: Verdict::Wrong { allows },
            ..
        }) = &t.verdict
        {
            tried.extend(allows);
        }
        let answer = if d.finished() {
            d.answer_line()
        } else {
            Vec::new()
        };
        let title = d.title();
        let solver = d.solver();
        let (rec, ends) = scratch_record(d.start(), &title, &[&answer, &tried, &played]);
        let at = ends[2];
        self.replace_keeping_train(rec, RecordSource::untitled(title));
        self.jump_to(at);
        if fresh {
            self.view.flipped = solver == Color::White;
            let k = |c| self.key_name(KeyMode::Train, c);
            let text = format!(
                "{}の番: {} 盤で指す・{} 入力で解答",
                side_name(solver),
                k(Command::EnterMove),
                k(Command::TypeMove)
            );
            self.info(text);
        }
    }

    /// Replaces the record shown, the solve mode's screen staying open (replacing a record
    /// closes every overlay).
    fn replace_keeping_train(&mut self, rec: Record, source: RecordSource) {
        let screen = self.overlays.take_train();
        self.replace_record(rec, source);
        if let Some(s) = screen {
            self.overlays.push(Overlay::Train(s));
        }
    }

    /// A move entered while the solve mode is open: judged by the drill.
    pub(crate) fn train_move(&mut self, mv: Move) {
        let Some(t) = self.overlays.train() else {
            return;
        };
        let Some(d) = t.drill() else {
            return;
        };
        if d.finished() {
            let next = self.key_name(KeyMode::Train, Command::TrainNext);
            return self.info_level(
                format!("この問題は終わりました: {next} で次の問題"),
                Level::Error,
            );
        }
        if self.position().to_sfen() != d.position().to_sfen() {
            self.show_problem(false);
            return self.info_level(
                "問題の局面に戻りました: ここから指してください".into(),
                Level::Error,
            );
        }
        if t.asking() {
            return self.info_level(
                "エンジンが前の手を確認中です: 判定を待ってください".into(),
                Level::Error,
            );
        }
        let Some(t) = self.overlays.train_mut() else {
            return;
        };
        let elapsed = t.elapsed(Instant::now());
        t.splits.mark(elapsed);
        t.entered = Some(mv);
        let step = t.drills[t.at].try_move(mv);
        self.train_step(step, 0);
    }

    /// Takes a drill's step: an engine request sent (`engine.rs`: its answer comes back
    /// through `Event::Engine`), a judgement shown and written, and the engine asked for
    /// what it can add (a wrong move's refutation).
    pub(super) fn train_step(&mut self, step: Step, depth: u8) {
        match step {
            Step::Judged(mut j) => {
                let follow_up = j.follow_up.take();
                self.take_judgement(j);
                if let Some(req) = follow_up {
                    self.train_ask(req, depth);
                }
            }
            // Answered at once (no engine) the drill may ask again: at most a few times.
            Step::Ask(req) if depth < 8 => self.train_ask(req, depth),
            Step::Ask(_) => self.info_level(
                "エンジンへの問い合わせが続くため打ち切りました".into(),
                Level::Error,
            ),
        }
    }

    fn take_judgement(&mut self, j: Judgement) {
        let Some(t) = self.overlays.train_mut() else {
            return;
        };
        let elapsed = t.elapsed(Instant::now());
        if j.finished && t.took.is_none() {
            t.took = Some(elapsed);
        }
        if let Some(o) = j.outcome.clone() {
            t.answered += 1;
            t.right += usize::from(o.correct);
            let at = t.base + chrono::Duration::from_std(t.launched.elapsed()).unwrap_or_default();
            let attempt = Attempt {
                at,
                correct: o.correct,
                millis: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
                answer: (!o.answer.is_empty()).then(|| o.answer.clone()),
            };
            let title = t.drills[t.at].title();
            if let Err(e) = t.writer.write(title, o, attempt) {
                t.written = Some(e);
            }
        }
        let text = match &j.verdict {
            Verdict::Right => "○ 正解".to_string(),
            Verdict::AnotherGood => "○ 別解 (正解の一つ)".to_string(),
            Verdict::Wrong { .. } => "× 不正解".to_string(),
        };
        let finished = j.finished;
        t.verdict = Some(j);
        // An engine's verdict may come while the source record is shown: it stays shown
        // (coming back shows the problem as judged).
        if !t.away {
            self.show_problem(false);
        }
        if finished {
            let next = self.key_name(KeyMode::Train, Command::TrainNext);
            let step = self.key_name(KeyMode::Train, Command::NextMove);
            self.info(format!("{text}: {step} で手順を進める · {next} で次の問題"));
        } else {
            self.info(text);
        }
    }

    /// `train_answer` (`a`): gives up the problem (written wrong) when it is not over, and
    /// goes to the answer's line.
    pub(crate) fn train_answer(&mut self) {
        let Some(t) = self.overlays.train_mut() else {
            return;
        };
        if t.away || t.drills.is_empty() {
            return;
        }
        if !t.drills[t.at].finished() {
            self.train_cancel_engine();
            let Some(t) = self.overlays.train_mut() else {
                return;
            };
            let j = t.drills[t.at].give_up();
            self.take_judgement(j);
        }
        let Some(d) = self.train().and_then(TrainScreen::drill) else {
            return;
        };
        let answer = d.answer_line();
        if answer.is_empty() {
            return self.info("この問題には答えの手順がありません");
        }
        let first = self.record().find_move_child(NodeId::ROOT, answer[0]);
        if let Some(n) = first {
            self.jump_to(n);
            let step = self.key_name(KeyMode::Train, Command::NextMove);
            self.info(format!("答え: {step} で手順を進めます"));
        }
    }

    /// `train_next` (`n`): the next problem (one not answered is skipped, nothing written).
    pub(crate) fn train_next(&mut self) {
        let Some(t) = self.overlays.train_mut() else {
            return;
        };
        if t.away {
            t.away = false;
        }
        if t.at + 1 >= t.drills.len() {
            let (n, a, r) = (t.drills.len(), t.answered, t.right);
            self.show_problem(false);
            return self.info(format!(
                "最後の問題でした: 全{n}問 · 解答 {a}問 · 正解 {r}問 (q で終了)"
            ));
        }
        let skipped = !t.drills[t.at].finished();
        self.train_cancel_engine();
        let Some(t) = self.overlays.train_mut() else {
            return;
        };
        t.at += 1;
        t.restart_clock();
        self.show_problem(true);
        if skipped {
            self.info("飛ばしました (記録しません)");
        }
    }

    /// `train_source` (`o`): the problem's source record at its ply; again (or Esc) back to
    /// the problem.
    pub(crate) fn train_source(&mut self) {
        let Some(t) = self.overlays.train() else {
            return;
        };
        if t.away {
            return self.train_back();
        }
        let Some(src) = t.drill().and_then(|d| d.source()) else {
            return self.info_level("この問題には出典がありません".into(), Level::Error);
        };
        let (rec, source) = match document::read(&src.path, src.record.saturating_sub(1)) {
            Ok(r) => r,
            Err(e) => return self.info_level(e, Level::Error),
        };
        self.replace_keeping_train(rec, source);
        if let Some(t) = self.overlays.train_mut() {
            t.away = true;
        }
        self.go_on_line(src.ply as usize);
        let back = self.key_name(KeyMode::Train, Command::TrainSource);
        self.info(format!(
            "{} at ply {} ({back} or Esc: back to the problem)",
            self.source().name,
            src.ply
        ));
    }

    /// Back from the source record to the problem (Esc).
    pub(crate) fn train_back(&mut self) {
        let Some(t) = self.overlays.train_mut() else {
            return;
        };
        if !t.away {
            let quit = self.key_name(KeyMode::Train, Command::Quit);
            return self.info(format!("{quit} で練習を終了"));
        }
        t.away = false;
        self.show_problem(false);
        self.info("問題に戻りました");
    }

    /// `Event::Train`: the history's writes done; says the last one's outcome.
    pub(crate) fn train_tick(&mut self) -> bool {
        let Some(t) = self.overlays.train_mut() else {
            return false;
        };
        let done = t.writer.take_done();
        let Some(last) = done.last() else {
            return false;
        };
        let mut failed = None;
        t.written = Some(match &last.result {
            Ok(due) => format!(
                "記録しました。次の出題 {}",
                due.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M")
            ),
            Err(e) => {
                failed = Some(format!("{}: 記録できませんでした: {e}", last.title));
                "履歴に記録できませんでした".to_string()
            }
        });
        if let Some(e) = failed {
            self.info_level(e, Level::Error);
        }
        true
    }

    /// Waits until the attempts given so far are written, and takes what came of them (the
    /// end of a session; tests).
    pub fn train_settle(&mut self) {
        if let Some(t) = self.overlays.train() {
            t.writer.flush();
        }
        self.train_tick();
    }

    /// How soon the clock shown changes (the next whole second), while a problem runs.
    pub(crate) fn train_next_look(&self) -> Option<Duration> {
        let t = self.train()?;
        if t.away || t.took.is_some() || t.drills.is_empty() {
            return None;
        }
        let ms = t.elapsed(Instant::now()).as_millis() % 1000;
        Some(Duration::from_millis(1000 - ms as u64))
    }
}
