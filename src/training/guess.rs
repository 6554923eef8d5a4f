//! Guess-the-move (棋譜並べ): a record replayed with the next move hidden for one side or both.
//! Each guess is scored against the record's move and, where the record holds an analysis
//! (kifview's or ShogiHome's comments: `#評価値=`, `#読み筋=`, kifview's `#候補N=`), against the
//! analysis: the analysis's best move, and the loss in winning chance of a move the analysis
//! scored (ShogiHome's win % from the evaluation, [`MarkConfig`]). The record's move is then
//! played (whatever was guessed) and the moves not asked (the other side's) after it, so the
//! game goes on as it was played; a summary comes at the end.
//!
//! Verdicts: the record's move is right; the analysis's best move, or a move the analysis scored
//! within [`GOOD_LOSS`] of its best (no mark by ShogiHome's thresholds), is "another good move";
//! anything else is wrong. A wrong guess whose loss is known and under [`NEAR_LOSS`] is a near
//! miss in the summary.
//!
//! Every guess is an attempt in the history: the problem is the file, the record and the ply
//! ([`ProblemId`] `record:ply`, the ply of the position guessed in, counted from the record's
//! start), so a position guessed wrong comes back sooner, as every problem does. A due position
//! is asked again by a drill over its record that asks only the due plies
//! ([`Guess::new`] with [`Ask::Plies`]).

use super::drill::{Drill, GivenAnswer, Judgement, ProblemId, SourceRef, Step, Verdict};
use super::history::{Tag, TagFamily};
use crate::analyze::{MarkConfig, parse_comment};
use crate::core::notation::input::{self, Entered};
use crate::core::notation::ki2::line_text;
use crate::core::record::Record;
use crate::core::rules::{Color, Move, Position};
use crate::engine::Score;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A move the analysis scored within this loss of its best (win %, mover's view) is "another
/// good move" (ShogiHome's first mark, 緩手, starts at 5).
pub const GOOD_LOSS: f64 = 5.0;
/// A wrong guess the analysis scored within this loss is a near miss in the summary.
pub const NEAR_LOSS: f64 = 10.0;

/// Which positions are asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Every move of one side.
    Side(Color),
    /// Every move of both sides.
    Both,
    /// These plies only (positions due again), counted from the record's start.
    Plies(BTreeSet<u32>),
}

/// What the analysis comment of one position says.
#[derive(Clone, Debug, Default, PartialEq)]
struct PlyAnalysis {
    /// The position's evaluation (sente's view).
    eval: Option<Score>,
    /// The first move of `#読み筋=`.
    best: Option<Move>,
    /// `#候補N=` lines: first move and score (sente's view).
    others: Vec<(Move, Score)>,
}

/// How a guess was scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// The record's move.
    Game,
    /// The analysis's best move (not the record's).
    Best,
    /// A move the analysis scored within [`GOOD_LOSS`] of its best.
    Good,
    /// Wrong, the analysis scored it within [`NEAR_LOSS`].
    Near,
    /// Wrong.
    Miss,
    /// Given up (no guess).
    GivenUp,
}

/// One guess, as the summary tells it.
#[derive(Clone, Debug, PartialEq)]
pub struct Guessed {
    /// The move's number as the record numbers it (1: the first move of a game).
    pub number: u32,
    pub hit: Hit,
    /// `▲２六歩`; empty when given up.
    pub guess: String,
    /// The record's move.
    pub game: String,
    /// The analysis's best move, where it has one.
    pub best: Option<String>,
    /// The guess's loss in winning chance (mover's view, %), where the analysis tells it.
    pub loss: Option<f64>,
}

/// A record's replay with guesses.
#[derive(Clone, Debug)]
pub struct Guess {
    path: PathBuf,
    /// The history's name of the file (absolute).
    source: String,
    record: usize,
    name: String,
    start: Position,
    /// Move numbers before the record's first move (a record from move 81).
    before: u32,
    /// The record's main-line moves.
    moves: Vec<Move>,
    analysis: Vec<PlyAnalysis>,
    asked: Vec<bool>,
    solver: Color,
    now: Position,
    /// Moves played from the start: the record's, up to the position asked now.
    played: Vec<Move>,
    done: bool,
    /// The last guess (the position it was made in, and the move), for the verdict's text.
    last: Option<(Position, Move)>,
    results: Vec<Guessed>,
    /// The moves played after the last guess (the record's, then the other side's), named.
    replied: String,
    marks: MarkConfig,
}

/// The first move of a line written in Japanese (`▲７六歩△３四歩…`) in `pos`.
fn first_move(pos: &Position, line: &str) -> Option<Move> {
    let line = line.trim();
    let body = line.strip_prefix(['▲', '△', '☗', '☖']).unwrap_or(line);
    let end = body.find(['▲', '△', '☗', '☖']).unwrap_or(body.len());
    match input::parse(pos, None, &body[..end]) {
        Ok(Entered::Move(m)) => Some(m),
        _ => None,
    }
}

/// `+450`, `-120`, `0`, `詰 5`, `被詰 3` (kifview's `#候補N=` scores, sente's view).
fn score_text(s: &str) -> Option<Score> {
    let s = s.trim();
    if let Some(rest) = s.strip_prefix("被詰") {
        return Some(Score::Mate {
            plies: rest.trim().parse().ok(),
            sente_wins: false,
        });
    }
    if let Some(rest) = s.strip_prefix('詰') {
        return Some(Score::Mate {
            plies: rest.trim().parse().ok(),
            sente_wins: true,
        });
    }
    s.trim_start_matches('+').parse().ok().map(Score::Cp)
}

fn analysis_of(pos: &Position, comment: &str) -> PlyAnalysis {
    let mut a = PlyAnalysis {
        eval: parse_comment(comment).0.map(|e| e.score),
        ..PlyAnalysis::default()
    };
    for line in comment.lines() {
        if let Some(pv) = line.strip_prefix("#読み筋=") {
            a.best = first_move(pos, pv);
        } else if let Some((key, rest)) = line.strip_prefix("#候補").and_then(|r| r.split_once('='))
            && key.bytes().all(|b| b.is_ascii_digit())
        {
            let at = rest.find(['▲', '△']).unwrap_or(rest.len());
            if let (Some(score), Some(mv)) = (score_text(&rest[..at]), first_move(pos, &rest[at..]))
            {
                a.others.push((mv, score));
            }
        }
    }
    a
}

impl Guess {
    /// The replay of record `record` (1-based) of `path`, asking `ask`. `source` is the history's
    /// name of the file.
    pub fn new(
        path: &Path,
        source: &str,
        record: usize,
        r: &Record,
        ask: &Ask,
    ) -> Result<Guess, String> {
        let where_ = format!("{} (record {record})", path.display());
        let line = r.main_line();
        let mut pos = r.initial.position.clone();
        let mut moves = Vec::new();
        let mut analysis = Vec::new();
        let mut asked = Vec::new();
        for pair in line.windows(2) {
            let Some(md) = r.node(pair[1]).move_data() else {
                break;
            };
            let ply = moves.len() as u32;
            analysis.push(analysis_of(&pos, &r.node(pair[0]).comment));
            asked.push(match ask {
                Ask::Both => true,
                Ask::Side(c) => pos.side_to_move() == *c,
                Ask::Plies(p) => p.contains(&ply),
            });
            if pos.play(md.mv).is_err() {
                break;
            }
            moves.push(md.mv);
        }
        analysis.truncate(moves.len());
        asked.truncate(moves.len());
        let Some(first) = asked.iter().position(|&a| a) else {
            return Err(format!(
                "{where_}: no move to guess ({} move(s) in its main line{})",
                moves.len(),
                match ask {
                    Ask::Side(c) => format!(", none of them {}'s", side_word(*c)),
                    _ => String::new(),
                }
            ));
        };
        let start = r.initial.position.clone();
        let mut now = start.clone();
        for &m in &moves[..first] {
            let _ = now.play(m);
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        Ok(Guess {
            path: path.to_path_buf(),
            source: source.to_string(),
            record,
            name: crate::core::text::sanitize(&name).into_owned(),
            solver: match ask {
                Ask::Side(c) => *c,
                _ => now.side_to_move(),
            },
            before: r.moves_before(),
            played: moves[..first].to_vec(),
            now,
            start,
            moves,
            analysis,
            asked,
            done: false,
            last: None,
            results: Vec::new(),
            replied: String::new(),
            marks: MarkConfig::default(),
        })
    }

    /// The history's keys of the positions asked (`record:ply`).
    pub fn keys(&self) -> Vec<String> {
        (0..self.moves.len())
            .filter(|&i| self.asked[i])
            .map(|i| self.key(i))
            .collect()
    }

    /// The history's tags of the positions asked: each one's phase by its move's number, and
    /// the game's `strategies` ([`super::tags::strategies`]).
    pub fn tags(&self, strategies: &[Tag]) -> Vec<(String, Vec<Tag>)> {
        (0..self.moves.len())
            .filter(|&i| self.asked[i])
            .map(|i| {
                let number = u64::from(self.before) + i as u64 + 1;
                let mut t = vec![Tag::new(TagFamily::Phase, super::tags::phase(number))];
                t.extend(strategies.iter().cloned());
                (self.key(i), t)
            })
            .collect()
    }

    fn key(&self, ply: usize) -> String {
        format!("{}:{ply}", self.record)
    }

    /// The guesses so far.
    pub fn results(&self) -> &[Guessed] {
        &self.results
    }

    fn ply(&self) -> usize {
        self.played.len()
    }

    fn given(&self, correct: bool, answer: String) -> GivenAnswer {
        GivenAnswer {
            id: self.id(),
            correct,
            answer,
        }
    }

    /// The loss (mover's view) of `mv` in the position of ply `i`, where the analysis says.
    fn loss(&self, i: usize, mv: Move, mover: Color) -> Option<f64> {
        let a = &self.analysis[i];
        let best = a.eval?;
        if a.best == Some(mv) {
            return Some(0.0);
        }
        let after = a
            .others
            .iter()
            .find(|(m, _)| *m == mv)
            .map(|&(_, s)| s)
            .or_else(|| {
                (mv == self.moves[i])
                    .then(|| self.analysis.get(i + 1).and_then(|n| n.eval))
                    .flatten()
            })?;
        Some(self.marks.loss(best, after, mover).max(0.0))
    }

    /// Plays the record's move and the ones not asked after it; returns those replies.
    fn advance(&mut self) -> Vec<Move> {
        let mut reply = Vec::new();
        let mut i = self.ply();
        let _ = self.now.play(self.moves[i]);
        self.played.push(self.moves[i]);
        i += 1;
        while i < self.moves.len() && !self.asked[i] {
            let _ = self.now.play(self.moves[i]);
            self.played.push(self.moves[i]);
            reply.push(self.moves[i]);
            i += 1;
        }
        self.done = i >= self.moves.len();
        reply
    }

    fn text(&self, mv: Move) -> String {
        line_text(&self.now, &[mv], self.played.last().map(|m| m.to()))
    }

    /// The counts of the summary: the game's move, the analysis's best or a good move, near
    /// misses, misses (given up included).
    pub fn counts(&self) -> [usize; 4] {
        let mut c = [0; 4];
        for g in &self.results {
            c[match g.hit {
                Hit::Game => 0,
                Hit::Best | Hit::Good => 1,
                Hit::Near => 2,
                Hit::Miss | Hit::GivenUp => 3,
            }] += 1;
        }
        c
    }

    fn summary(&self) -> Vec<String> {
        let [game, good, near, miss] = self.counts();
        let n = self.results.len();
        let pct = |k: usize| {
            if n == 0 {
                0.0
            } else {
                100.0 * k as f64 / n as f64
            }
        };
        let mut out = vec![format!(
            "一致 {game}/{n} ({:.0} %) · 最善・好手 {good} · 惜しい {near} · 外れ {miss}",
            pct(game)
        )];
        let losses: Vec<f64> = self.results.iter().filter_map(|g| g.loss).collect();
        if !losses.is_empty() {
            out.push(format!(
                "平均損失 {:.1} % (評価のある{}手)",
                losses.iter().sum::<f64>() / losses.len() as f64,
                losses.len()
            ));
        }
        let nears: Vec<String> = self
            .results
            .iter()
            .filter(|g| g.hit == Hit::Near)
            .map(|g| {
                format!(
                    "{}手目 {} (−{:.1} %)",
                    g.number,
                    g.guess,
                    g.loss.unwrap_or_default()
                )
            })
            .collect();
        if !nears.is_empty() {
            out.push(format!("惜しい: {}", nears.join(", ")));
        }
        out
    }
}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}

impl Drill for Guess {
    fn id(&self) -> ProblemId {
        ProblemId {
            source: self.source.clone(),
            kind: "guess",
            key: self.key(self.ply().min(self.moves.len().saturating_sub(1))),
        }
    }

    fn title(&self) -> String {
        format!(
            "棋譜並べ {} {}手目/{}",
            self.name,
            self.before + self.ply() as u32 + u32::from(!self.done),
            self.before + self.moves.len() as u32
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
        self.solver
    }

    fn try_move(&mut self, mv: Move) -> Step {
        if self.done || self.now.check(mv).is_err() {
            return Judgement::refused(self.done, "棋譜は終わりました", mv);
        }
        let i = self.ply();
        let mover = self.now.side_to_move();
        let game = self.moves[i];
        let a = &self.analysis[i];
        let loss = self.loss(i, mv, mover);
        let hit = if mv == game {
            Hit::Game
        } else if a.best == Some(mv) {
            Hit::Best
        } else {
            match loss {
                Some(l) if l < GOOD_LOSS => Hit::Good,
                Some(l) if l < NEAR_LOSS => Hit::Near,
                _ => Hit::Miss,
            }
        };
        let verdict = match hit {
            Hit::Game => Verdict::Right,
            Hit::Best | Hit::Good => Verdict::AnotherGood,
            _ => Verdict::Wrong { allows: Vec::new() },
        };
        let guessed = Guessed {
            number: self.before + i as u32 + 1,
            hit,
            guess: self.text(mv),
            game: self.text(game),
            best: a.best.map(|b| self.text(b)),
            loss,
        };
        let outcome = self.given(verdict.is_correct(), mv.usi());
        self.results.push(guessed);
        self.last = Some((self.now.clone(), mv));
        let before = self.now.clone();
        let prev = self.played.last().map(|m| m.to());
        let reply = self.advance();
        self.replied = if reply.is_empty() {
            String::new()
        } else {
            line_text(&before, &self.played[i..], prev)
        };
        Step::Judged(Judgement {
            verdict,
            reply,
            finished: self.done,
            outcome: Some(outcome),
            note: None,
            follow_up: None,
        })
    }

    fn engine_answer(&mut self, _answer: super::drill::EngineAnswer) -> Step {
        // A guess never asks the engine: the analysis in the record is what it is judged by.
        Step::Judged(Judgement::nothing(self.done, None))
    }

    fn give_up(&mut self) -> Judgement {
        let first = !self.done;
        let mut outcome = None;
        if first {
            let i = self.ply();
            let game = self.text(self.moves[i]);
            let best = self.analysis[i].best.map(|b| self.text(b));
            outcome = Some(self.given(false, String::new()));
            self.results.push(Guessed {
                number: self.before + i as u32 + 1,
                hit: Hit::GivenUp,
                guess: String::new(),
                game,
                best,
                loss: None,
            });
            self.done = true;
        }
        self.last = None;
        self.replied.clear();
        Judgement::given_up(outcome)
    }

    fn finished(&self) -> bool {
        self.done
    }

    fn answer_line(&self) -> Vec<Move> {
        self.moves.clone()
    }

    fn source(&self) -> Option<SourceRef> {
        Some(SourceRef {
            path: self.path.clone(),
            record: self.record,
            // Over: the last move's position (not one past the record's end).
            ply: self.before + self.ply().min(self.moves.len().saturating_sub(1)) as u32,
        })
    }

    fn tried_text(&self) -> Option<String> {
        let (pos, mv) = self.last.as_ref()?;
        Some(line_text(pos, &[*mv], None))
    }

    fn report(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(g) = self.results.last() {
            out.push(match g.hit {
                Hit::GivenUp => format!("{}手目: 棋譜の手は {}", g.number, g.game),
                Hit::Game => format!("{}手目 {}: 棋譜の手", g.number, g.game),
                _ => format!("{}手目: 棋譜の手は {}", g.number, g.game),
            });
            let mut analysis = Vec::new();
            if let Some(b) = &g.best {
                analysis.push(format!("最善 {b}"));
            }
            if let Some(l) = g.loss.filter(|_| g.best.as_ref() != Some(&g.guess)) {
                analysis.push(format!("あなたの手 −{l:.1} %"));
            }
            if !analysis.is_empty() {
                out.push(format!("解析: {}", analysis.join(", ")));
            }
        }
        if !self.replied.is_empty() {
            out.push(format!("進行: {}", self.replied));
        }
        if self.done {
            out.push("棋譜並べ終了: 成績".into());
            out.extend(self.summary());
        } else if !self.results.is_empty() {
            let [game, good, near, miss] = self.counts();
            out.push(format!(
                "一致 {game} · 最善・好手 {good} · 惜しい {near} · 外れ {miss}"
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests;
