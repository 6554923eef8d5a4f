//! Making next-move problems from analysed games, as ShogiHome makes them
//! (`specs/next-move-problem.md`, `src/common/nextmove/detect.ts`,
//! `src/renderer/store/nextmove.ts`):
//!
//! 1. [`detect_blunders`]: the main-line moves whose mover's winning chance, from the
//!    evaluations in the record's analysis comments (kifview's and ShogiHome's `#評価値`, and
//!    the others [`crate::analyze::parse_comment`] reads), fell by at least
//!    `win_rate_drop` points from at least `min_win_rate` %, between `min_ply` and `max_ply`,
//!    by the players asked for. Win % is ShogiHome's `scoreToPercentage`:
//!    100 / (1 + e^(−cp / coefficient)). A position whose comment holds only a mate is not
//!    judged (ShogiHome's rule).
//! 2. Each such position is searched again with MultiPV ([`Maker::add_record`]).
//! 3. [`judge_adoption`]: kept when the best move beats the move played by at least
//!    `adoption_diff` points (the move played's score from the search when it is among the
//!    lines, else from the comment), and the best still leaves at least `min_win_rate` %;
//!    the lines within `acceptable_diff` points of the best are accepted answers; a position
//!    where every line is accepted is dropped; one already in the set (same board, side and
//!    hands) is not searched again.

use super::set::{
    ActualMove, Candidate, CriteriaMetadata, EngineMetadata, Metadata, Num, PreviousMove, Problem,
    ProblemAnalysis, ProblemSet, ProblemSource, normalize_sfen, position_key,
};
use crate::analyze::game::{SearchFailure, search_blocking};
use crate::analyze::parse_comment;
use crate::core::record::{NodeId, Record};
use crate::core::rules::{Color, Move};
use crate::engine::{Analysis, Engine, Limit, Score, SearchRequest};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Whose moves become problems.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Players {
    #[default]
    All,
    Black,
    White,
    /// The side whose name (先手 / 後手 in the header) contains this.
    Named(String),
}

/// ShogiHome's settings for making a set (`NextMoveGenerationSettings`), its defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Criteria {
    /// The mover's win-% fall that makes a move a candidate (`winRateDropThreshold`).
    pub win_rate_drop: f64,
    /// The least win % of the mover before the move, and after the best move (`minWinRate`).
    pub min_win_rate: f64,
    /// How much better than the move played the best must be (`adoptionWinRateDiff`).
    pub adoption_diff: f64,
    /// Lines within this of the best are accepted answers (`acceptableWinRateDiff`).
    pub acceptable_diff: f64,
    /// The sigmoid's scale (`coefficientInSigmoid`).
    pub coefficient: f64,
    pub min_ply: u32,
    pub max_ply: u32,
    pub players: Players,
    /// Lines per position (`multiPV`, at least 2).
    pub multipv: u32,
    /// Search time per position.
    pub time: Duration,
    /// At most this many problems (`maxProblems`).
    pub max_problems: usize,
}

impl Default for Criteria {
    fn default() -> Criteria {
        Criteria {
            win_rate_drop: 20.0,
            min_win_rate: 40.0,
            adoption_diff: 15.0,
            acceptable_diff: 5.0,
            coefficient: 600.0,
            min_ply: 20,
            max_ply: 120,
            players: Players::All,
            multipv: 3,
            time: Duration::from_secs(10),
            max_problems: 100,
        }
    }
}

impl Criteria {
    /// ShogiHome's checks of the settings (`validateNextMoveGenerationSettings`).
    pub fn check(&self) -> Result<(), String> {
        if self.max_ply < self.min_ply {
            return Err(format!(
                "--max-ply {} is below --min-ply {}",
                self.max_ply, self.min_ply
            ));
        }
        if !(self.win_rate_drop > 0.0 && self.win_rate_drop <= 100.0) {
            return Err("--drop must be above 0 and at most 100 (points of win %)".into());
        }
        if !(0.0..100.0).contains(&self.min_win_rate) {
            return Err("--min-win-rate must be from 0 to below 100 (%)".into());
        }
        if self.multipv < 2 {
            return Err("--multipv must be at least 2".into());
        }
        if !(self.adoption_diff > 0.0 && self.adoption_diff <= 100.0) {
            return Err("--adoption must be above 0 and at most 100 (points of win %)".into());
        }
        if !(self.acceptable_diff >= 0.0 && self.acceptable_diff < self.adoption_diff) {
            return Err("--acceptable must be from 0 to below --adoption".into());
        }
        if !(self.coefficient > 0.0 && self.coefficient.is_finite()) {
            return Err("--coefficient must be above 0".into());
        }
        if self.max_problems == 0 {
            return Err("--max must be at least 1".into());
        }
        Ok(())
    }

    /// The criteria as the set's metadata records them.
    pub fn metadata(&self) -> CriteriaMetadata {
        CriteriaMetadata {
            win_rate_drop_threshold: Some(Num(self.win_rate_drop)),
            adoption_win_rate_diff: Some(Num(self.adoption_diff)),
            acceptable_win_rate_diff: Some(Num(self.acceptable_diff)),
            min_win_rate: Some(Num(self.min_win_rate)),
            coefficient_in_sigmoid: Some(Num(self.coefficient)),
            min_ply: Some(u64::from(self.min_ply)),
            max_ply: Some(u64::from(self.max_ply)),
            ..CriteriaMetadata::default()
        }
    }
}

/// ShogiHome's `scoreToPercentage`.
pub fn score_to_percentage(score: f64, coefficient: f64) -> f64 {
    100.0 / (1.0 + (-score / coefficient).exp())
}

/// A move whose mover's win % fell (from the comments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blunder {
    /// The move's number as the record numbers it (1 is the first move of a game).
    pub ply: u32,
    /// The move's node (on the main line).
    pub node: NodeId,
    /// Centipawns from sente's side, before and after the move.
    pub score_before: i64,
    pub score_after: i64,
}

/// The centipawn evaluation in a comment (a mate alone is none, as in ShogiHome).
fn comment_cp(comment: &str) -> Option<i64> {
    match parse_comment(comment).0?.score {
        Score::Cp(cp) => Some(i64::from(cp)),
        Score::Mate { .. } => None,
    }
}

/// Does any main-line comment of `record` hold an evaluation?
pub fn has_analysis(record: &Record) -> bool {
    record
        .main_line()
        .into_iter()
        .any(|id| parse_comment(&record.node(id).comment).0.is_some())
}

fn plays_for(record: &Record, mover: Color, players: &Players) -> bool {
    match players {
        Players::All => true,
        Players::Black => mover == Color::Black,
        Players::White => mover == Color::White,
        Players::Named(name) => {
            let keys: &[&str] = if mover == Color::Black {
                &["先手", "下手"]
            } else {
                &["後手", "上手"]
            };
            !name.is_empty()
                && keys
                    .iter()
                    .filter_map(|k| record.header.get(k))
                    .any(|n| n.contains(name.as_str()))
        }
    }
}

/// The mover's win % from a score on sente's side.
fn mover_win_rate(black_score: f64, mover: Color, coefficient: f64) -> f64 {
    let sign = if mover == Color::Black { 1.0 } else { -1.0 };
    score_to_percentage(black_score * sign, coefficient)
}

/// ShogiHome's `detectBlunders`: the main line's moves whose mover's win % fell enough.
pub fn detect_blunders(record: &Record, c: &Criteria) -> Vec<Blunder> {
    let line = record.main_line();
    let mut out = Vec::new();
    for pair in line.windows(2) {
        let (before, node) = (pair[0], pair[1]);
        if record.node(node).move_data().is_none() {
            continue;
        }
        let ply = record.move_number(node);
        if ply < c.min_ply || ply > c.max_ply {
            continue;
        }
        let mover = record.side_to_move_at(before);
        if !plays_for(record, mover, &c.players) {
            continue;
        }
        let (Some(sb), Some(sa)) = (
            comment_cp(&record.node(before).comment),
            comment_cp(&record.node(node).comment),
        ) else {
            continue;
        };
        let wb = mover_win_rate(sb as f64, mover, c.coefficient);
        let wa = mover_win_rate(sa as f64, mover, c.coefficient);
        if wb < c.min_win_rate || wb - wa < c.win_rate_drop {
            continue;
        }
        out.push(Blunder {
            ply,
            node,
            score_before: sb,
            score_after: sa,
        });
    }
    out
}

/// A mate counts above every score, sooner better (ShogiHome's `mateScoreBase`).
const MATE_SCORE_BASE: f64 = 10_000_000.0;

/// How good a line is for `color` (ShogiHome's `candidateValue`).
fn value(color: Color, score: Option<i64>, mate: Option<i64>) -> Option<f64> {
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    if let Some(m) = mate {
        let m = m as f64 * sign;
        return Some(if m > 0.0 {
            MATE_SCORE_BASE - m
        } else {
            -MATE_SCORE_BASE - m
        });
    }
    score.map(|s| s as f64 * sign)
}

fn win_rate(color: Color, score: Option<i64>, mate: Option<i64>, coefficient: f64) -> Option<f64> {
    value(color, score, mate).map(|v| score_to_percentage(v, coefficient))
}

/// What [`judge_adoption`] decided.
#[derive(Clone, Debug, PartialEq)]
pub struct Adoption {
    pub adopted: bool,
    /// The candidates with `accepted` set.
    pub candidates: Vec<Candidate>,
}

/// ShogiHome's `judgeProblemAdoption`: `candidates` best first (scores from sente's side),
/// `actual` the move played with its score (from the search's lines when it is among them,
/// else from the comment).
pub fn judge_adoption(
    color: Color,
    candidates: &[Candidate],
    actual: &ActualMove,
    c: &Criteria,
) -> Adoption {
    let mut candidates: Vec<Candidate> = candidates
        .iter()
        .map(|x| Candidate {
            accepted: Some(false),
            ..x.clone()
        })
        .collect();
    let rate = |x: &Candidate| win_rate(color, x.score, x.mate, c.coefficient);
    let no = |candidates| Adoption {
        adopted: false,
        candidates,
    };
    let Some(best) = candidates.first() else {
        return no(candidates);
    };
    let Some(best_rate) = rate(best) else {
        return no(candidates);
    };
    candidates[0].accepted = Some(true);
    if best_rate < c.min_win_rate {
        return no(candidates);
    }
    for x in candidates.iter_mut().skip(1) {
        let r = rate(x);
        x.accepted = Some(r.is_some_and(|r| best_rate - r <= c.acceptable_diff));
    }
    if candidates[0].usi == actual.usi {
        return no(candidates);
    }
    let actual_rate = match candidates.iter().find(|x| x.usi == actual.usi) {
        Some(x) => rate(x),
        None => win_rate(color, actual.score, actual.mate, c.coefficient),
    };
    let Some(actual_rate) = actual_rate else {
        return no(candidates);
    };
    if best_rate - actual_rate < c.adoption_diff || candidates.iter().all(Candidate::is_accepted) {
        return no(candidates);
    }
    Adoption {
        adopted: true,
        candidates,
    }
}

/// The lines of a finished search as candidates, best first: the first `multipv` lines with
/// a legal first move and a score (ShogiHome keeps only those). A mate the engine gave no
/// distance for (`mate +`) has neither score nor mate: unknown.
pub fn candidates_from(a: &Analysis, multipv: u32) -> Vec<Candidate> {
    let mut lines: Vec<_> = a
        .lines
        .iter()
        .filter(|l| l.multipv <= multipv && !l.pv.moves.is_empty() && l.score.is_some())
        .collect();
    lines.sort_by_key(|l| l.multipv);
    lines
        .into_iter()
        .map(|l| {
            let (score, mate) = match l.score {
                Some(Score::Cp(cp)) => (Some(i64::from(cp)), None),
                Some(Score::Mate {
                    plies: Some(n),
                    sente_wins,
                }) => (None, Some(if sente_wins { 1 } else { -1 } * i64::from(n))),
                _ => (None, None),
            };
            Candidate {
                usi: l.pv.moves[0].usi(),
                score,
                mate,
                depth: l.depth.map(u64::from),
                accepted: None,
                pv: Some(l.pv.moves.iter().map(|m| m.usi()).collect()),
                ..Candidate::default()
            }
        })
        .collect()
}

/// What one record gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordOutcome {
    /// Moves whose win % fell enough (from the comments).
    pub blunders: usize,
    /// Positions searched again.
    pub searched: usize,
    /// Problems added to the set.
    pub adopted: usize,
}

/// Why making stopped.
#[derive(Debug)]
pub enum Stopped {
    Cancelled,
    /// The engine failed or refused a position: its message.
    Engine(String),
}

/// Makes a set: records in, problems out, one engine.
pub struct Maker<'e> {
    eng: &'e mut Engine,
    criteria: Criteria,
    keys: HashSet<String>,
    problems: Vec<Problem>,
}

impl<'e> Maker<'e> {
    /// `eng` is ready, with `MultiPV` set to `criteria.multipv`.
    pub fn new(eng: &'e mut Engine, criteria: Criteria) -> Maker<'e> {
        Maker {
            eng,
            criteria,
            keys: HashSet::new(),
            problems: Vec::new(),
        }
    }

    /// Has the set reached `max_problems`?
    pub fn full(&self) -> bool {
        self.problems.len() >= self.criteria.max_problems
    }

    pub fn problems(&self) -> usize {
        self.problems.len()
    }

    /// Analyses `record` in memory with the maker's engine (`--analyze`): its comments get
    /// the evaluations [`detect_blunders`] reads.
    pub fn analyse(
        &mut self,
        record: &mut Record,
        opts: &crate::analyze::Options,
        cancel: &AtomicBool,
    ) -> Result<(), Stopped> {
        use crate::analyze::game::Stopped as S;
        crate::analyze::analyse_record(self.eng, record, opts, cancel, &mut |_, _| {})
            .map(|_| ())
            .map_err(|e| match e {
                S::Cancelled => Stopped::Cancelled,
                e => Stopped::Engine(e.to_string()),
            })
    }

    /// Finds the problems in `record` (read from `path`) and adds them.
    pub fn add_record(
        &mut self,
        record: &Record,
        path: &str,
        cancel: &AtomicBool,
    ) -> Result<RecordOutcome, Stopped> {
        let blunders = detect_blunders(record, &self.criteria);
        let mut out = RecordOutcome {
            blunders: blunders.len(),
            ..RecordOutcome::default()
        };
        let line = record.main_line();
        for b in blunders {
            if self.full() {
                break;
            }
            let ply_index = record.node(b.node).ply as usize;
            let before = line[ply_index - 1];
            let pos = record.position_at(before);
            let key = position_key(&pos.to_sfen());
            if self.keys.contains(&key) {
                continue;
            }
            let moves: Vec<Move> = line[1..ply_index]
                .iter()
                .filter_map(|&id| record.node(id).move_data().map(|m| m.mv))
                .collect();
            let req = SearchRequest {
                root: record.initial.position.clone(),
                moves,
                limit: Limit::Time(self.criteria.time),
            };
            self.eng.new_game();
            let analysis = search_blocking(self.eng, req, cancel).map_err(|e| match e {
                SearchFailure::Cancelled => Stopped::Cancelled,
                SearchFailure::Refused(e) | SearchFailure::Engine(e) => {
                    Stopped::Engine(format!("{path}: move {}: {e}", b.ply))
                }
            })?;
            out.searched += 1;
            if let Some(p) = self.problem(record, path, &b, &analysis) {
                self.keys.insert(key);
                self.problems.push(p);
                out.adopted += 1;
            }
        }
        Ok(out)
    }

    fn problem(&self, record: &Record, path: &str, b: &Blunder, a: &Analysis) -> Option<Problem> {
        let played = record.node(b.node).move_data()?.mv.usi();
        let line = record.main_line();
        let i = record.node(b.node).ply as usize;
        let before = line[i - 1];
        let pos = record.position_at(before);
        let candidates = candidates_from(a, self.criteria.multipv);
        let actual = match candidates.iter().find(|x| x.usi == played) {
            Some(x) => ActualMove {
                usi: played.clone(),
                score: x.score,
                mate: x.mate,
                score_source: Some("research".into()),
                ..ActualMove::default()
            },
            None => ActualMove {
                usi: played.clone(),
                score: Some(b.score_after),
                mate: None,
                score_source: Some("comment".into()),
                ..ActualMove::default()
            },
        };
        let adoption = judge_adoption(pos.side_to_move(), &candidates, &actual, &self.criteria);
        if !adoption.adopted {
            return None;
        }
        let previous_move = (i >= 2)
            .then(|| record.node(before).move_data().map(|m| m.mv))
            .flatten()
            .map(|mv| PreviousMove {
                usi: mv.usi(),
                sfen: normalize_sfen(&record.position_at(line[i - 2]).to_sfen()),
                ..PreviousMove::default()
            });
        let h = |k: &str| record.header.get(k).map(str::to_string);
        Some(Problem {
            sfen: normalize_sfen(&pos.to_sfen()),
            candidates: adoption.candidates,
            actual_move: actual,
            previous_move,
            analysis: Some(ProblemAnalysis {
                score_before_move: Some(b.score_before),
                score_after_move: Some(b.score_after),
                ..ProblemAnalysis::default()
            }),
            source: Some(ProblemSource {
                path: Some(path.to_string()),
                ply: Some(u64::from(b.ply)),
                black_player: h("先手").or_else(|| h("下手")),
                white_player: h("後手").or_else(|| h("上手")),
                date: h("開始日時").or_else(|| h("対局日")),
                ..ProblemSource::default()
            }),
            extra: Default::default(),
        })
    }

    /// The set made, with ShogiHome's metadata (the time given as ISO 8601).
    pub fn finish(self, engine: &str, created_at: String) -> ProblemSet {
        let meta = Metadata {
            created_at: Some(created_at),
            app_version: Some(format!("kifview {}", env!("CARGO_PKG_VERSION"))),
            engine: Some(EngineMetadata {
                name: Some(engine.to_string()),
                multi_pv: Some(u64::from(self.criteria.multipv)),
                max_seconds_per_position: Some(Num(self.criteria.time.as_secs_f64())),
                ..EngineMetadata::default()
            }),
            criteria: Some(self.criteria.metadata()),
            ..Metadata::default()
        };
        let mut set = ProblemSet::new(Some(meta));
        set.problems = self.problems;
        set
    }
}

#[cfg(test)]
mod tests;
