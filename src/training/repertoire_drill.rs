//! The repertoire drill: an opening repertoire (an opening book, or a record whose variations
//! are the lines) played for one side. The solver plays their side; each move is checked
//! against the repertoire's moves in that position (any of them is right); a miss shows them,
//! and the repertoire's most played move is played in its place so that the line goes on. The
//! opponent's replies are drawn from the repertoire's moves weighted by their counts (a book's
//! counts; a record's variations weigh 1 each) by a seeded generator ([`SplitMix`]), so a seed gives the same
//! replies again. The line ends where the repertoire gives the solver no move, or the opponent
//! no reply.
//!
//! Every move the solver makes is an attempt in the history; the problem is the position
//! ([`super::set::position_key`]: board, side to move and hands), so the schedule is FSRS per
//! position. A position due again is drilled from there ([`RepertoireDrill::new`] with that
//! position as its start).
//!
//! The repertoire answers through [`Lines`]: a record's tree is one here ([`TreeLines`]); the
//! CLI implements it for a book that `book::open` opened.

use super::drill::{
    Drill, EngineAnswer, GivenAnswer, Judgement, ProblemId, SourceRef, Step, Verdict,
};
use super::set::position_key;
use crate::collection::repertoire::{Repertoire, Tree};
use crate::core::notation::ki2::line_text;
use crate::core::rules::{Color, Move, Position};
use crate::core::seeded::SplitMix;
use std::path::PathBuf;
use std::sync::Arc;

/// What a repertoire gives in a position, with weights.
pub trait Lines: Send + Sync {
    /// The moves in `pos` with their weights (a book's counts, at least 1), in the
    /// repertoire's order; empty when the repertoire gives none there.
    fn moves(&self, pos: &Position) -> Result<Vec<(Move, u64)>, String>;
}

/// A record's tree as lines: every move of every variation, weight 1.
pub struct TreeLines(pub Tree);

impl Lines for TreeLines {
    fn moves(&self, pos: &Position) -> Result<Vec<(Move, u64)>, String> {
        Ok(self
            .0
            .moves(pos)?
            .unwrap_or_default()
            .into_iter()
            .map(|m| (m, 1))
            .collect())
    }
}

/// One move of the solver, as the screen tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub number: usize,
    pub tried: String,
    pub right: bool,
    /// The repertoire's moves there, with their weights (`▲７六歩 (12)`).
    pub expected: Vec<String>,
}

/// One line of a repertoire, played for one side.
#[derive(Clone)]
pub struct RepertoireDrill {
    lines: Arc<dyn Lines>,
    path: PathBuf,
    /// The history's name of the repertoire's file.
    source: String,
    name: String,
    side: Color,
    start: Position,
    now: Position,
    played: Vec<Move>,
    rng: SplitMix,
    done: bool,
    /// Why the line ended.
    ended: Option<String>,
    last: Option<(Position, Move)>,
    /// The opponent's replies to the last move, as the screen names them.
    replied: String,
    checked: Vec<Checked>,
}

impl std::fmt::Debug for RepertoireDrill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RepertoireDrill({}, {:?})", self.name, self.side)
    }
}

fn named(pos: &Position, moves: &[(Move, u64)]) -> Vec<String> {
    moves
        .iter()
        .map(|&(m, w)| format!("{} ({w})", line_text(pos, &[m], None)))
        .collect()
}

impl RepertoireDrill {
    /// A line of `lines` for `side` from `start` (the opponent's first replies drawn when it is
    /// theirs to move), drawing with `seed`. `path` is the repertoire's file, `source` its name
    /// in the history. An error when the repertoire gives the solver nothing to play.
    pub fn new(
        lines: Arc<dyn Lines>,
        path: PathBuf,
        source: &str,
        side: Color,
        start: Position,
        seed: u64,
    ) -> Result<RepertoireDrill, String> {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        let mut d = RepertoireDrill {
            lines,
            path,
            source: source.to_string(),
            name: crate::core::text::sanitize(&name).into_owned(),
            side,
            now: start.clone(),
            start,
            played: Vec::new(),
            rng: SplitMix::new(seed),
            done: false,
            ended: None,
            last: None,
            replied: String::new(),
            checked: Vec::new(),
        };
        d.replies()?;
        if d.done {
            return Err(format!(
                "{}: the repertoire gives {} no move from here ({})",
                d.path.display(),
                side_word(side),
                d.ended.clone().unwrap_or_default()
            ));
        }
        Ok(d)
    }

    /// The opponent's replies until it is the solver's move with a move in the repertoire, or
    /// the line ends.
    fn replies(&mut self) -> Result<Vec<Move>, String> {
        let mut out = Vec::new();
        // A repertoire that answers itself round a loop of positions ends after this many.
        for _ in 0..512 {
            let moves = self.lines.moves(&self.now)?;
            if self.now.side_to_move() == self.side {
                if moves.is_empty() {
                    self.end("定跡はここまで");
                }
                return Ok(out);
            }
            let legal: Vec<(Move, u64)> = moves
                .into_iter()
                .filter(|&(m, _)| self.now.check(m).is_ok())
                .collect();
            let weights: Vec<u64> = legal.iter().map(|&(_, w)| w).collect();
            let Some(i) = self.rng.pick(&weights) else {
                self.end("定跡に相手の応手がありません");
                return Ok(out);
            };
            let m = legal[i].0;
            let _ = self.now.play(m);
            self.played.push(m);
            out.push(m);
        }
        self.end("手順が長すぎます");
        Ok(out)
    }

    fn end(&mut self, why: &str) {
        self.done = true;
        self.ended = Some(why.to_string());
    }

    /// The solver's moves checked so far.
    pub fn checked(&self) -> &[Checked] {
        &self.checked
    }

    fn given(&self, correct: bool, answer: String) -> GivenAnswer {
        GivenAnswer {
            id: self.id(),
            correct,
            answer,
        }
    }

    fn over(&self, note: Option<String>) -> Step {
        Step::Judged(Judgement::nothing(self.done, note))
    }
}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}

impl Drill for RepertoireDrill {
    fn id(&self) -> ProblemId {
        ProblemId {
            source: self.source.clone(),
            kind: "repertoire",
            key: position_key(&self.now.to_sfen()),
        }
    }

    fn title(&self) -> String {
        format!(
            "定跡 {} ({})",
            self.name,
            match self.side {
                Color::Black => "先手",
                Color::White => "後手",
            }
        )
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

    fn solver(&self) -> Color {
        self.side
    }

    fn try_move(&mut self, mv: Move) -> Step {
        if self.done || self.now.check(mv).is_err() {
            return Judgement::refused(self.done, "この手順は終わりました", mv);
        }
        let moves = match self.lines.moves(&self.now) {
            Ok(m) => m,
            Err(e) => return self.over(Some(e)),
        };
        let right = moves.iter().any(|&(m, _)| m == mv);
        let outcome = self.given(right, mv.usi());
        self.checked.push(Checked {
            number: self.played.len() + 1,
            tried: line_text(&self.now, &[mv], None),
            right,
            expected: named(&self.now, &moves),
        });
        self.last = Some((self.now.clone(), mv));
        // On a miss the repertoire's most played move goes on the board instead.
        let play = if right {
            mv
        } else {
            moves
                .iter()
                .filter(|&&(m, _)| self.now.check(m).is_ok())
                .max_by_key(|&&(_, w)| w)
                .map_or(mv, |&(m, _)| m)
        };
        let _ = self.now.play(play);
        self.played.push(play);
        let before = self.now.clone();
        let (reply, note) = match self.replies() {
            Ok(r) => (r, None),
            Err(e) => {
                self.end("定跡を読めませんでした");
                (Vec::new(), Some(e))
            }
        };
        self.replied = line_text(&before, &reply, Some(play.to()));
        Step::Judged(Judgement {
            verdict: if right {
                Verdict::Right
            } else {
                Verdict::Wrong { allows: Vec::new() }
            },
            reply,
            finished: self.done,
            outcome: Some(outcome),
            note,
            follow_up: None,
        })
    }

    fn engine_answer(&mut self, _answer: EngineAnswer) -> Step {
        // The repertoire alone judges: nothing is ever asked of the engine.
        self.over(None)
    }

    fn give_up(&mut self) -> Judgement {
        let first = !self.done;
        let outcome = first.then(|| self.given(false, String::new()));
        if first {
            let expected = self
                .lines
                .moves(&self.now)
                .map(|m| named(&self.now, &m))
                .unwrap_or_default();
            self.checked.push(Checked {
                number: self.played.len() + 1,
                tried: String::new(),
                right: false,
                expected,
            });
            self.end("答えを見ました");
        }
        self.last = None;
        self.replied.clear();
        Judgement::given_up(outcome)
    }

    fn finished(&self) -> bool {
        self.done
    }

    fn answer_line(&self) -> Vec<Move> {
        self.played.clone()
    }

    fn source(&self) -> Option<SourceRef> {
        // A repertoire is many lines, not one game to open at a ply.
        None
    }

    fn tried_text(&self) -> Option<String> {
        let (pos, mv) = self.last.as_ref()?;
        Some(line_text(pos, &[*mv], None))
    }

    fn report(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(c) = self.checked.last().filter(|c| !c.right) {
            out.push(if c.expected.is_empty() {
                format!("{}手目: 定跡に手がありません", c.number)
            } else {
                format!("{}手目: 定跡の手は {}", c.number, c.expected.join(", "))
            });
        }
        if !self.replied.is_empty() {
            out.push(format!("相手の応手: {}", self.replied));
        }
        let right = self.checked.iter().filter(|c| c.right).count();
        if !self.checked.is_empty() {
            out.push(format!("定跡どおり {right}/{}手", self.checked.len()));
        }
        if let Some(why) = self.ended.as_ref().filter(|_| self.done) {
            out.push(format!("手順終了: {why}"));
        }
        out
    }
}

#[cfg(test)]
mod tests;
