//! The tsume drill (詰将棋): a record whose start is a mating problem, its main line the
//! answer. The whole sequence is played: after each of the solver's checks kifview plays the
//! defence, and the problem ends at mate (solved) or at a move that does not keep the mate.
//!
//! - **A tsume record** ([`is_tsume`]): the side to move at the start (the attacker) has no
//!   king on the board, or the header names it (`手合割：詰将棋`, a `詰将棋`, `作意` or `作品名`
//!   key);
//!   its main line's moves are the answer.
//! - **The solver follows the record**: each check that is the record's move is right, and the
//!   defence is the record's next move.
//! - **The solver leaves it** with a check: the move is kept only if the mate engine mates
//!   after every defence within the plies the answer has left. The drill asks, one
//!   [`EngineRequest`] at a time (`go mate` after each defence); when every defence is mated,
//!   the move is "another good move", noted `余詰`, and the defence played is the one whose
//!   mate is longest (the longest defence); from there each move is checked the same way.
//!   A defence the engine does not mate in time is the escape: the move is wrong and the
//!   escape is shown. A mate before the answer's length (早詰) is right too, noted `余詰`.
//! - **Not a check**: wrong at once; what it allows is asked of the engine as a follow-up.
//! - **With no engine** a move off the record's line cannot be checked: it is wrong, and the
//!   note says why.
//!
//! [`Splits`] keeps the time of each of the solver's moves (tsumemi's splits); the app holds the
//! clock and marks them. The history's tag is the length ([`super::tags::length`]).

use super::drill::{
    Drill, EngineAnswer, EngineRequest, GivenAnswer, Judgement, ProblemId, REFUTATION_TIME,
    SourceRef, Step, Verdict,
};
use super::history::Tag;
use crate::core::record::Record;
use crate::core::rules::{Color, Move, Position};
use crate::engine::{Limit, SearchEnd, SearchRequest};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the mate engine looks for a mate after one defence, as the drill asks it; the
/// solve mode gives each such search the session's time instead (`kifview train
/// --mate-time`, else the config's `[analysis] tsume_mate_time_ms`, 3 s by default).
pub const MATE_TIME: Duration = Duration::from_secs(3);

/// Is `record` a tsume: an attacker without a king, or a header that says so (`手合割：詰将棋`,
/// a `詰将棋`, `作意` or `作品名` key: a 双玉 problem, 実戦詰め)?
pub fn is_tsume(record: &Record) -> bool {
    let pos = &record.initial.position;
    let attacker = pos.side_to_move();
    let header = |k: &str| record.header.get(k);
    pos.king_square(attacker).is_none()
        || header("手合割").is_some_and(|h| h.contains("詰将棋"))
        || header("詰将棋").is_some()
        || header("作意").is_some()
        || header("作品名").is_some()
}

/// The time of each of the solver's moves in a problem (tsumemi's splits).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Splits {
    /// The clock (from the problem's start) at each move the solver made.
    marks: Vec<Duration>,
}

impl Splits {
    /// The solver moved when the problem's clock said `elapsed`.
    pub fn mark(&mut self, elapsed: Duration) {
        let last = self.marks.last().copied().unwrap_or_default();
        self.marks.push(elapsed.max(last));
    }

    /// Each move's own time.
    pub fn laps(&self) -> Vec<Duration> {
        let mut prev = Duration::ZERO;
        self.marks
            .iter()
            .map(|&m| {
                let lap = m - prev;
                prev = m;
                lap
            })
            .collect()
    }

    /// The whole time so far.
    pub fn total(&self) -> Duration {
        self.marks.last().copied().unwrap_or_default()
    }

    /// `1手 4.2 s · 3手 1.0 s · 5手 12.3 s (計 17.5 s)`: each move by its ply in the answer.
    pub fn text(&self) -> String {
        let laps: Vec<String> = self
            .laps()
            .iter()
            .enumerate()
            .map(|(i, d)| format!("{}手 {:.1} s", 2 * i + 1, d.as_secs_f64()))
            .collect();
        format!(
            "{} (計 {:.1} s)",
            laps.join(" · "),
            self.total().as_secs_f64()
        )
    }
}

/// A check off the record's line, being confirmed defence by defence.
#[derive(Clone, Debug)]
struct Pending {
    mv: Move,
    /// Every legal defence after it.
    defences: Vec<Move>,
    /// The one whose mate is being asked.
    next: usize,
    /// The longest mated defence so far and its mate's length.
    longest: Option<(Move, usize)>,
}

/// One tsume problem.
#[derive(Clone, Debug)]
pub struct Tsume {
    path: PathBuf,
    /// The history's name of its file: the path made absolute once, when the problem is read
    /// (not on every attempt written).
    source: String,
    /// Which record of its file (1-based).
    record: usize,
    /// `詰将棋 7手 (file)`.
    name: String,
    start: Position,
    now: Position,
    /// The record's main line: the answer.
    answer: Vec<Move>,
    played: Vec<Move>,
    /// The solver has played only the record's moves so far.
    on_line: bool,
    /// An alternative mate was accepted on the way (余詰).
    alternative: bool,
    done: bool,
    pending: Option<Pending>,
    /// The verdict given, while a wrong move's refutation is asked.
    last: Option<Judgement>,
}

impl Tsume {
    /// The drill of record `record` (1-based) of the file `path`, or why it is not a tsume.
    pub fn new(path: &Path, record: usize, r: &Record) -> Result<Tsume, String> {
        let where_ = format!("{} (record {record})", path.display());
        if !is_tsume(r) {
            return Err(format!(
                "{where_}: not a tsume (the side to move has a king and no header says 詰将棋)"
            ));
        }
        let answer: Vec<Move> = r
            .main_line()
            .iter()
            .skip(1)
            .map_while(|&id| r.node(id).move_data().map(|m| m.mv))
            .collect();
        if answer.is_empty() {
            return Err(format!("{where_}: a tsume without its answer (no moves)"));
        }
        let start = r.initial.position.clone();
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        let source = std::fs::canonicalize(path)
            .unwrap_or_else(|_| path.to_path_buf())
            .display()
            .to_string();
        Ok(Tsume {
            path: path.to_path_buf(),
            source,
            record,
            name: crate::core::text::sanitize(&name).into_owned(),
            now: start.clone(),
            start,
            answer,
            played: Vec::new(),
            on_line: true,
            alternative: false,
            done: false,
            pending: None,
            last: None,
        })
    }

    /// The answer's length in plies.
    pub fn length(&self) -> usize {
        self.answer.len()
    }

    /// The history's tags: the length.
    pub fn tags(&self) -> Vec<Tag> {
        vec![super::tags::length(self.length())]
    }

    /// Plies the answer has left after the moves played.
    fn left(&self) -> usize {
        self.answer.len().saturating_sub(self.played.len())
    }

    fn attacker(&self) -> Color {
        self.start.side_to_move()
    }

    fn outcome(&self, correct: bool) -> GivenAnswer {
        let attacker = self.attacker();
        let mut pos = self.start.clone();
        let mut mine = Vec::new();
        for &m in &self.played {
            if pos.side_to_move() == attacker {
                mine.push(m.usi());
            }
            let _ = pos.play(m);
        }
        GivenAnswer {
            id: self.id(),
            correct,
            answer: mine.join(" "),
        }
    }

    fn judgement(&mut self, verdict: Verdict, reply: Vec<Move>, note: Option<String>) -> Step {
        let finished = self.done;
        let j = Judgement {
            outcome: finished.then(|| self.outcome(verdict.is_correct())),
            verdict,
            reply,
            finished,
            note,
            follow_up: None,
        };
        self.last = Some(j.clone());
        Step::Judged(j)
    }

    /// `mv` (legal, a check) is played and the defence `reply` after it, if any.
    fn advance(&mut self, mv: Move, reply: Option<Move>) {
        let _ = self.now.play(mv);
        self.played.push(mv);
        if let Some(r) = reply {
            let _ = self.now.play(r);
            self.played.push(r);
        }
    }

    /// The mate search after defence `d` of the pending move.
    fn ask_mate(&self, p: &Pending) -> Step {
        let mut moves = self.played.clone();
        moves.push(p.mv);
        moves.push(p.defences[p.next]);
        Step::Ask(EngineRequest {
            search: SearchRequest {
                root: self.start.clone(),
                moves,
                limit: Limit::Mate(Some(MATE_TIME)),
            },
            multipv: 1,
        })
    }

    /// A check the record does not play: ask the engine about each defence.
    fn confirm(&mut self, mv: Move, after: &Position) -> Step {
        let p = Pending {
            mv,
            defences: after.legal_moves(),
            next: 0,
            longest: None,
        };
        let step = self.ask_mate(&p);
        self.pending = Some(p);
        step
    }

    /// A judged step with the engine's refutation to ask as its follow-up.
    fn with_follow_up(&mut self, step: Step, request: EngineRequest) -> Step {
        let Step::Judged(mut j) = step else {
            return step;
        };
        j.follow_up = Some(request);
        self.last = Some(j.clone());
        Step::Judged(j)
    }

    /// The move is wrong: played, the escape (if known) shown.
    fn wrong(&mut self, mv: Move, allows: Vec<Move>, note: String) -> Step {
        let _ = self.now.play(mv);
        self.played.push(mv);
        self.done = true;
        self.judgement(Verdict::Wrong { allows }, Vec::new(), Some(note))
    }
}

fn mate_length(answer: &EngineAnswer) -> Option<usize> {
    match &answer.end {
        Ok(SearchEnd::Mate(pv)) if !pv.moves.is_empty() => Some(pv.moves.len()),
        _ => None,
    }
}

impl Drill for Tsume {
    fn id(&self) -> ProblemId {
        ProblemId {
            source: self.source.clone(),
            kind: "tsume",
            key: format!("{}:0", self.record),
        }
    }

    fn title(&self) -> String {
        format!("詰将棋 {}手 {}", self.answer.len(), self.name)
    }

    fn start(&self) -> &Position {
        &self.start
    }

    fn position(&self) -> &Position {
        &self.now
    }

    fn played(&self) -> &[Move] {
        &self.played
    }

    fn try_move(&mut self, mv: Move) -> Step {
        if self.pending.is_some() {
            let note = "前の手を確認中です".to_string();
            return Step::Judged(Judgement::nothing(false, Some(note)));
        }
        if self.done || self.now.check(mv).is_err() {
            return Judgement::refused(self.done, "この問題は終わりました", mv);
        }
        let mut after = self.now.clone();
        let _ = after.play(mv);
        if !after.in_check() {
            let mut moves = self.played.clone();
            moves.push(mv);
            let request = EngineRequest {
                search: SearchRequest {
                    root: self.start.clone(),
                    moves,
                    limit: Limit::Time(REFUTATION_TIME),
                },
                multipv: 1,
            };
            let step = self.wrong(mv, Vec::new(), "王手ではありません".into());
            return self.with_follow_up(step, request);
        }
        let i = self.played.len();
        let record_move = self.on_line && self.answer.get(i) == Some(&mv);
        if after.is_checkmate() {
            self.advance(mv, None);
            self.done = true;
            let early = self.played.len() < self.answer.len();
            return if record_move && !early {
                let verdict = if self.alternative {
                    Verdict::AnotherGood
                } else {
                    Verdict::Right
                };
                let note = self
                    .alternative
                    .then(|| "余詰: 答えと別の手順で詰み".into());
                self.judgement(verdict, Vec::new(), note)
            } else if early {
                self.judgement(
                    Verdict::AnotherGood,
                    Vec::new(),
                    Some(format!(
                        "余詰: {}手で詰み (答えは{}手詰)",
                        self.played.len(),
                        self.answer.len()
                    )),
                )
            } else {
                let note = "余詰: 答えと別の手順で詰み".to_string();
                self.judgement(Verdict::AnotherGood, Vec::new(), Some(note))
            };
        }
        if record_move {
            let reply = self.answer.get(i + 1).copied();
            self.advance(mv, reply);
            if reply.is_none() {
                // The record stops on a check that does not mate: its answer is done.
                self.done = true;
                return self.judgement(
                    Verdict::Right,
                    Vec::new(),
                    Some("棋譜の答えはここまでです (詰みの前で終わっています)".into()),
                );
            }
            return self.judgement(Verdict::Right, reply.into_iter().collect(), None);
        }
        if self.left() < 3 {
            // No plies left for a defence and a mate after it.
            let escape = after.legal_moves().first().copied();
            return self.wrong(
                mv,
                escape.into_iter().collect(),
                format!("詰みません (答えは{}手詰)", self.answer.len()),
            );
        }
        self.confirm(mv, &after)
    }

    fn engine_answer(&mut self, answer: EngineAnswer) -> Step {
        let Some(mut p) = self.pending.take() else {
            // A wrong move's refutation: what it allows.
            let mut j = match self.last.clone() {
                Some(j) => j,
                None => {
                    return self.judgement(Verdict::Wrong { allows: Vec::new() }, Vec::new(), None);
                }
            };
            j.outcome = None;
            j.follow_up = None;
            if let Verdict::Wrong { allows } = &mut j.verdict
                && allows.is_empty()
            {
                *allows = answer.best_line();
            }
            self.last = Some(j.clone());
            return Step::Judged(j);
        };
        let defence = p.defences[p.next];
        // Plies left after the solver's move and this defence.
        let within = self.left().saturating_sub(2);
        match (&answer.end, mate_length(&answer)) {
            (Err(why), _) => {
                let why = why.clone();
                return self.wrong(
                    p.mv,
                    Vec::new(),
                    format!("棋譜の手ではなく、詰将棋エンジンで詰みを確かめられません: {why}"),
                );
            }
            (_, Some(n)) if n <= within => {
                if p.longest.is_none_or(|(_, l)| n > l) {
                    p.longest = Some((defence, n));
                }
            }
            (end, n) => {
                // The defence as the solver reads it (`△同　玉`), after the move tried.
                let mut after = self.now.clone();
                let _ = after.play(p.mv);
                let d = crate::core::notation::ki2::line_text(&after, &[defence], Some(p.mv.to()));
                let why = match (end, n) {
                    (_, Some(n)) => format!("{d} のあと詰みまで{n}手かかります (手数が長すぎます)"),
                    (Ok(SearchEnd::NoMate), _) => format!("{d} で逃れ (不詰)"),
                    _ => format!("{d} で逃れ (時間内に詰みが見つかりません)"),
                };
                let mut allows = vec![defence];
                if let Ok(SearchEnd::Mate(pv)) = &answer.end {
                    allows.extend(pv.moves.iter().copied());
                }
                return self.wrong(p.mv, allows, why);
            }
        }
        p.next += 1;
        if p.next < p.defences.len() {
            let step = self.ask_mate(&p);
            self.pending = Some(p);
            return step;
        }
        // Every defence is mated: 余詰. The longest defence is played.
        let reply = p.longest.map(|(m, _)| m);
        self.on_line = false;
        self.alternative = true;
        self.advance(p.mv, reply);
        self.judgement(
            Verdict::AnotherGood,
            reply.into_iter().collect(),
            Some("余詰: 別の手でも詰み (詰将棋エンジンが確認)".into()),
        )
    }

    /// The solver's last move (a tsume plays several), after the defence before it.
    fn tried_text(&self) -> Option<String> {
        let solver = self.solver();
        let mut pos = self.start.clone();
        let mut last = None;
        for (i, &m) in self.played.iter().enumerate() {
            if pos.side_to_move() == solver {
                let prev = i.checked_sub(1).map(|p| self.played[p].to());
                last = Some(crate::core::notation::ki2::line_text(&pos, &[m], prev));
            }
            let _ = pos.play(m);
        }
        last
    }

    fn give_up(&mut self) -> Judgement {
        let first = !self.done;
        self.done = true;
        self.pending = None;
        let j = Judgement::given_up(first.then(|| self.outcome(false)));
        self.last = Some(j.clone());
        j
    }

    fn finished(&self) -> bool {
        self.done
    }

    fn answer_line(&self) -> Vec<Move> {
        self.answer.clone()
    }

    fn source(&self) -> Option<SourceRef> {
        Some(SourceRef {
            path: self.path.clone(),
            record: self.record,
            ply: 0,
        })
    }
}

/// The tsume of a file or, for a folder, of every record file under it: the drills, and a
/// message for each record or file left out (not a tsume, unreadable).
pub fn load(path: &Path) -> (Vec<Tsume>, Vec<String>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let files: Vec<PathBuf> = if path.is_dir() {
        let walked = crate::load::record_files(path);
        skipped.extend(walked.skipped);
        walked.files.into_iter().map(|f| f.path).collect()
    } else {
        vec![path.to_path_buf()]
    };
    for f in files {
        match crate::load::load_input(&f) {
            Ok(loaded) => {
                for (i, p) in loaded.records.iter().enumerate() {
                    match Tsume::new(&f, i + 1, &p.record) {
                        Ok(t) => out.push(t),
                        Err(e) => skipped.push(e),
                    }
                }
            }
            Err(e) => skipped.push(e),
        }
    }
    (out, skipped)
}

/// The tsume of record `record` (1-based) of the file `path` (a game an index names), or
/// why it is not one.
pub fn load_record(path: &Path, record: usize) -> Result<Tsume, String> {
    let loaded = crate::load::load_input(path)?;
    let r = record
        .checked_sub(1)
        .and_then(|i| loaded.records.get(i))
        .ok_or_else(|| {
            format!(
                "{}: no record {record} (the file holds {})",
                path.display(),
                loaded.records.len()
            )
        })?;
    Tsume::new(path, record, &r.record)
}

#[cfg(test)]
mod tests;
