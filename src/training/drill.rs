//! What every kind of drill answers to the solve mode (`kifview train`): the position to
//! solve, the move tried and its verdict, the opponent's reply, the answer's line, where the
//! problem came from and what the history calls it.
//!
//! A drill never blocks. Where it needs an engine (a wrong move's refutation, a tsume's
//! defence, an alternative mate to confirm) it returns an [`EngineRequest`] as data; the app
//! runs it on its engine (event-driven, `Event::Engine`) and hands the [`EngineAnswer`] back
//! through [`Drill::engine_answer`], which returns the step the request held back. With no
//! engine, the app hands back [`EngineAnswer::unavailable`] and the drill judges without it.
//!
//! Kinds: [`NextMove`] (a problem of a ShogiHome next-move set, here); tsume
//! ([`super::tsume`]), guess-the-move ([`super::guess`]) and the repertoire drill
//! ([`super::repertoire_drill`]) implement the same trait.

use super::set::{Problem, ProblemSet, legal_usi};
use crate::core::notation::ki2::line_text;
use crate::core::rules::{Color, Move, Position};
use crate::engine::{Limit, SearchEnd, SearchRequest};
use std::path::PathBuf;
use std::time::Duration;

/// How the history names a problem: its source (a set's absolute path, a record's file) and
/// kind (`"next-move"`, `"tsume"`, `"guess"`, `"repertoire"`), and its key within the source
/// (a set's problem: its position, [`super::set::position_key`]; a record's: `record:ply`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProblemId {
    pub source: String,
    pub kind: &'static str,
    pub key: String,
}

/// Where a problem comes from, to open it there: a file, which of its records (1-based, as
/// `--record`), the ply (the position before the move asked for).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceRef {
    pub path: PathBuf,
    pub record: usize,
    pub ply: u32,
}

/// What a move tried was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The answer (the best move; a tsume's move that keeps the mate).
    Right,
    /// Another good move the problem lists (a next-move set's other accepted answer; a tsume's
    /// alternative mate, 余詰, which the step's note names).
    AnotherGood,
    /// Wrong: what the move allows, the opponent's best line after it (empty while the engine
    /// has not said, or when nobody knows).
    Wrong { allows: Vec<Move> },
}

impl Verdict {
    /// Right or another good move: counted correct.
    pub fn is_correct(&self) -> bool {
        !matches!(self, Verdict::Wrong { .. })
    }
}

/// What the history is told about an attempt (the app adds when and how long it took).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenAnswer {
    pub id: ProblemId,
    pub correct: bool,
    /// The moves given, USI, separated by spaces.
    pub answer: String,
}

/// A move judged.
#[derive(Clone, Debug)]
pub struct Judgement {
    pub verdict: Verdict,
    /// The opponent's moves to play on the board after the move (a tsume's defence, a
    /// repertoire's reply): [`Drill::position`] is already after them.
    pub reply: Vec<Move>,
    /// The problem is over (solved, or failed): the answer line can be stepped through.
    pub finished: bool,
    /// An attempt for the history, written when the verdict is given.
    pub outcome: Option<GivenAnswer>,
    /// Something to say beside the verdict (余詰, "the engine could not check").
    pub note: Option<String>,
    /// More the engine can tell (a wrong move's refutation): the verdict stands; the app may
    /// run it and hand the answer to [`Drill::engine_answer`], whose step refines this one.
    pub follow_up: Option<EngineRequest>,
}

impl Judgement {
    /// Wrong, nothing played and nothing written: a move refused (`note` says why), an answer
    /// that changes nothing, or (`finished`, an outcome set) a problem given up.
    pub fn nothing(finished: bool, note: Option<String>) -> Judgement {
        Judgement {
            verdict: Verdict::Wrong { allows: Vec::new() },
            reply: Vec::new(),
            finished,
            outcome: None,
            note,
            follow_up: None,
        }
    }

    /// The solver gave up: wrong, over, `outcome` written (none when it was already over).
    pub fn given_up(outcome: Option<GivenAnswer>) -> Judgement {
        Judgement {
            outcome,
            ..Judgement::nothing(true, None)
        }
    }

    /// `mv` not judged: the problem is over (`done`; `over` says so) or the move is not legal
    /// in the drill's position.
    pub fn refused(done: bool, over: &str, mv: Move) -> Step {
        Step::Judged(Judgement::nothing(
            done,
            Some(if done {
                over.to_string()
            } else {
                format!("{} は指せません", mv.usi())
            }),
        ))
    }
}

/// What [`Drill::try_move`] and [`Drill::engine_answer`] return.
#[derive(Clone, Debug)]
pub enum Step {
    /// Judged now.
    Judged(Judgement),
    /// The engine must say something first: run the request, hand its answer back.
    Ask(EngineRequest),
}

/// What a drill needs an engine for, to run on the app's engine.
#[derive(Clone, Debug)]
pub struct EngineRequest {
    pub search: SearchRequest,
    /// Lines wanted (`MultiPV`); 1 for a refutation or a mate search.
    pub multipv: u32,
}

/// The engine's answer to an [`EngineRequest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineAnswer {
    /// How the search ended, or why there was none (no engine, it died).
    pub end: Result<SearchEnd, String>,
    /// The lines it gave at the end, best first, each from the searched position.
    pub lines: Vec<Vec<Move>>,
}

impl EngineAnswer {
    /// No engine could run the request: why.
    pub fn unavailable(why: impl Into<String>) -> EngineAnswer {
        EngineAnswer {
            end: Err(why.into()),
            lines: Vec::new(),
        }
    }

    /// The best line: a mate's moves, else the first line, else the best move alone.
    pub fn best_line(&self) -> Vec<Move> {
        match &self.end {
            Ok(SearchEnd::Mate(pv)) if !pv.moves.is_empty() => pv.moves.clone(),
            Ok(end) => match self.lines.first() {
                Some(l) if !l.is_empty() => l.clone(),
                _ => match end {
                    SearchEnd::BestMove { mv, ponder } => {
                        std::iter::once(*mv).chain(*ponder).collect()
                    }
                    _ => Vec::new(),
                },
            },
            Err(_) => Vec::new(),
        }
    }
}

/// A copy of a drill, boxed (the solve mode's screen is `Clone`, as every overlay is): any
/// `Clone` drill has it.
pub trait DrillClone {
    fn clone_box(&self) -> Box<dyn Drill>;
}

impl<T: Drill + Clone + 'static> DrillClone for T {
    fn clone_box(&self) -> Box<dyn Drill> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Drill> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl std::fmt::Debug for dyn Drill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Drill({})", self.title())
    }
}

/// One problem in the solve mode. Implementors derive `Clone` (see [`DrillClone`]).
pub trait Drill: DrillClone + Send {
    /// What the history calls it.
    fn id(&self) -> ProblemId;
    /// A short title: the kind and where it is from (`次の一手 3/8`, `詰将棋 7手`).
    fn title(&self) -> String;
    /// The position the problem starts from.
    fn start(&self) -> &Position;
    /// The position now: the start, then the moves played in the drill so far.
    fn position(&self) -> &Position;
    /// The moves played from the start so far, the solver's and the replies.
    fn played(&self) -> &[Move];
    /// Whose move it is now: the solver's while the drill is not over.
    fn to_move(&self) -> Color {
        self.position().side_to_move()
    }
    /// The solver's side.
    fn solver(&self) -> Color {
        self.start().side_to_move()
    }
    /// A move the solver tries (legal in [`Drill::position`]).
    fn try_move(&mut self, mv: Move) -> Step;
    /// The engine's answer to the last request this drill made.
    fn engine_answer(&mut self, answer: EngineAnswer) -> Step;
    /// The solver gives up: the problem is over, wrong, and its answer can be stepped through.
    fn give_up(&mut self) -> Judgement;
    /// Is the drill over?
    fn finished(&self) -> bool;
    /// The answer's line from [`Drill::start`].
    fn answer_line(&self) -> Vec<Move>;
    /// Where the problem is from, to open it there.
    fn source(&self) -> Option<SourceRef>;
    /// The move the last verdict judged, as the screen names it (`▲７六歩`); none when
    /// nothing was tried (given up). By default the first move played from the start (a
    /// drill of one move, a tsume's first check).
    fn tried_text(&self) -> Option<String> {
        self.played()
            .first()
            .map(|&m| line_text(self.start(), &[m], None))
    }
    /// Lines the drill adds under the verdict, what the verdict alone does not say (a
    /// guess's record move and analysis, the running score, the summary at the end); none by
    /// default.
    fn report(&self) -> Vec<String> {
        Vec::new()
    }
}

/// How long an engine looks for a wrong move's refutation.
pub const REFUTATION_TIME: Duration = Duration::from_secs(1);

/// A problem of a next-move set (ShogiHome's format): one move is asked. The set's first
/// candidate is the answer; its other accepted candidates are "another good move"; any other
/// move is wrong, and what it allows is the set's line for it where the set lists the move,
/// else the engine's (a [`Judgement::follow_up`]).
#[derive(Clone, Debug)]
pub struct NextMove {
    /// The set's absolute path (the history's source).
    set: String,
    /// Which of the set's problems (0-based) and how many it holds.
    index: usize,
    of: usize,
    problem: Problem,
    start: Position,
    now: Position,
    played: Vec<Move>,
    done: bool,
    /// The verdict given, kept while a refutation is asked.
    last: Option<Judgement>,
}

impl NextMove {
    /// The drills of a set (read and checked by [`ProblemSet::from_json`]); `source` is the
    /// set's path as the history names it.
    pub fn from_set(source: &str, set: &ProblemSet) -> Result<Vec<NextMove>, String> {
        let of = set.problems.len();
        set.problems
            .iter()
            .enumerate()
            .map(|(index, p)| NextMove::new(source, index, of, p.clone()))
            .collect()
    }

    /// Problem `index` (0-based) of `of` in the set named `source`.
    pub fn new(
        source: &str,
        index: usize,
        of: usize,
        problem: Problem,
    ) -> Result<NextMove, String> {
        let mut start = problem
            .position()
            .map_err(|e| format!("{source}: problems[{index}]: {e}"))?;
        // ShogiHome writes every SFEN with move number 1 (`normalizeProblemSFEN`); the move
        // asked is the game's move `source.ply`: the position shows it (手数 = ply - 1).
        let ply = problem.source.as_ref().and_then(|s| s.ply);
        if let Some(n) = ply.and_then(|p| u16::try_from(p).ok())
            && start.move_number() <= 1
            && n > 1
        {
            start.set_move_number(n);
        }
        Ok(NextMove {
            set: source.to_string(),
            index,
            of,
            now: start.clone(),
            start,
            problem,
            played: Vec::new(),
            done: false,
            last: None,
        })
    }

    /// The set's problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    fn best(&self) -> Option<Move> {
        let c = self.problem.candidates.first()?;
        legal_usi(&self.start, &c.usi).ok()
    }

    /// The set's line for `mv` after it (a candidate's PV without its first move).
    fn listed_line(&self, mv: Move) -> Option<Vec<Move>> {
        let pv = self.problem.candidate(mv)?.pv.as_ref()?;
        let mut pos = self.start.clone();
        let mut out = Vec::new();
        for (i, u) in pv.iter().enumerate() {
            let Ok(m) = legal_usi(&pos, u) else { break };
            if i == 0 && m != mv {
                return None;
            }
            if pos.play(m).is_err() {
                break;
            }
            if i > 0 {
                out.push(m);
            }
        }
        Some(out)
    }

    fn outcome(&self, correct: bool, answer: Option<Move>) -> GivenAnswer {
        GivenAnswer {
            id: self.id(),
            correct,
            answer: answer.map(Move::usi).unwrap_or_default(),
        }
    }
}

impl Drill for NextMove {
    fn id(&self) -> ProblemId {
        ProblemId {
            source: self.set.clone(),
            kind: "next-move",
            key: self.problem.key(),
        }
    }

    fn title(&self) -> String {
        format!("次の一手 {}/{}", self.index + 1, self.of)
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
        if self.done || self.start.check(mv).is_err() {
            return Judgement::refused(self.done, "この問題は終わりました", mv);
        }
        let verdict = if Some(mv) == self.best() {
            Verdict::Right
        } else if self.problem.accepts(mv) {
            Verdict::AnotherGood
        } else {
            Verdict::Wrong {
                allows: self.listed_line(mv).unwrap_or_default(),
            }
        };
        let mut after = self.start.clone();
        let _ = after.play(mv);
        let follow_up = match &verdict {
            Verdict::Wrong { allows } if allows.is_empty() => Some(EngineRequest {
                search: SearchRequest {
                    root: self.start.clone(),
                    moves: vec![mv],
                    limit: Limit::Time(REFUTATION_TIME),
                },
                multipv: 1,
            }),
            _ => None,
        };
        self.now = after;
        self.played = vec![mv];
        self.done = true;
        let j = Judgement {
            outcome: Some(self.outcome(verdict.is_correct(), Some(mv))),
            verdict,
            reply: Vec::new(),
            finished: true,
            note: None,
            follow_up,
        };
        self.last = Some(j.clone());
        Step::Judged(j)
    }

    fn engine_answer(&mut self, answer: EngineAnswer) -> Step {
        let mut j = self.last.clone().unwrap_or_else(|| Judgement {
            verdict: Verdict::Wrong { allows: Vec::new() },
            reply: Vec::new(),
            finished: self.done,
            outcome: None,
            note: None,
            follow_up: None,
        });
        // The attempt was written with the verdict; a refinement writes nothing again.
        j.outcome = None;
        j.follow_up = None;
        match (&mut j.verdict, &answer.end) {
            (Verdict::Wrong { allows }, Ok(_)) => {
                *allows = answer.best_line();
                if allows.is_empty() {
                    j.note = Some("エンジンが読み筋を返しませんでした".into());
                }
            }
            (Verdict::Wrong { .. }, Err(why)) => {
                j.note = Some(format!("咎めの手順は分かりません: {why}"));
            }
            _ => {}
        }
        self.last = Some(j.clone());
        Step::Judged(j)
    }

    fn give_up(&mut self) -> Judgement {
        let first = !self.done;
        self.done = true;
        let j = Judgement::given_up(first.then(|| self.outcome(false, None)));
        self.last = Some(j.clone());
        j
    }

    fn finished(&self) -> bool {
        self.done
    }

    fn answer_line(&self) -> Vec<Move> {
        let Some(best) = self.best() else {
            return Vec::new();
        };
        self.listed_line(best)
            .map(|rest| std::iter::once(best).chain(rest).collect())
            .unwrap_or_else(|| vec![best])
    }

    fn source(&self) -> Option<SourceRef> {
        let s = self.problem.source.as_ref()?;
        let path = s.path.as_ref().filter(|p| !p.is_empty())?;
        let ply = s.ply.and_then(|p| u32::try_from(p).ok()).unwrap_or(0);
        Some(SourceRef {
            path: PathBuf::from(path),
            record: 1,
            // The problem's position is before the move of `ply` (ShogiHome's `source.ply` is
            // the move's number): open the record there.
            ply: ply.saturating_sub(1),
        })
    }
}

#[cfg(test)]
pub(crate) mod tests;
