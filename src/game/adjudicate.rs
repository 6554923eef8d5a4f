//! Adjudication of a match's games by the engines' own scores, off unless asked for, as
//! fastchess and cutechess name it: `--resign score=1000 moves=3` (a side whose own
//! evaluation is −1000 or worse for 3 of its moves in a row resigns at its next turn) and
//! `--draw score=10 moves=8 after=80` (from move 80 on, when the last 8 moves of both engines
//! all scored within ±10, the game is drawn). A mate score counts as beyond any threshold;
//! a move with no score breaks a run.

use crate::core::rules::Color;
use crate::engine::Score;

/// A mate, in centipawns, beyond any threshold given.
const MATE_CP: i64 = 1_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// The evaluation (centipawns, from the engine's side) at or below −score counts.
    pub score: i64,
    /// How many of its own moves in a row.
    pub moves: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Evaluations within ±score count.
    pub score: i64,
    /// How many moves in a row (both engines' moves counted).
    pub moves: u32,
    /// Not before this many moves were played.
    pub after: u32,
}

/// Both rules, each optional.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

/// `key=value` words into numbers, the keys given (with fastchess's names as aliases).
fn values(text: &str, keys: &[(&str, &[&str])], flag: &str) -> Result<Vec<Option<i64>>, String> {
    let mut out = vec![None; keys.len()];
    for word in text.split_whitespace() {
        let (k, v) = word
            .split_once('=')
            .ok_or_else(|| format!("{flag}: {word:?} is not KEY=VALUE"))?;
        let i = keys
            .iter()
            .position(|(name, aliases)| *name == k || aliases.contains(&k))
            .ok_or_else(|| {
                let names: Vec<&str> = keys.iter().map(|(n, _)| *n).collect();
                format!("{flag}: unknown key {k:?} (expected {})", names.join(", "))
            })?;
        let n = v
            .parse::<i64>()
            .ok()
            .filter(|n| (0..=MATE_CP).contains(n))
            .ok_or_else(|| format!("{flag}: {k}={v:?} is not a whole number from 0"))?;
        out[i] = Some(n);
    }
    Ok(out)
}

impl ResignRule {
    /// `score=S moves=N` (or fastchess's `movecount=N`); both needed, moves at least 1.
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let v = values(
            text,
            &[("score", &[]), ("moves", &["movecount"])],
            "--resign",
        )?;
        match (v[0], v[1]) {
            (Some(score), Some(moves)) if moves >= 1 => Ok(ResignRule {
                score,
                moves: moves.min(u32::MAX.into()) as u32,
            }),
            _ => Err("--resign needs score=S moves=N (N at least 1)".into()),
        }
    }

    pub fn text(&self) -> String {
        format!("score={} moves={}", self.score, self.moves)
    }
}

impl DrawRule {
    /// `score=S moves=N [after=M]` (or fastchess's `movecount`, `movenumber`).
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let v = values(
            text,
            &[
                ("score", &[]),
                ("moves", &["movecount"]),
                ("after", &["movenumber"]),
            ],
            "--draw",
        )?;
        match (v[0], v[1]) {
            (Some(score), Some(moves)) if moves >= 1 => Ok(DrawRule {
                score,
                moves: moves.min(u32::MAX.into()) as u32,
                after: v[2].unwrap_or(0).min(u32::MAX.into()) as u32,
            }),
            _ => Err("--draw needs score=S moves=N [after=M] (N at least 1)".into()),
        }
    }

    pub fn text(&self) -> String {
        format!(
            "score={} moves={} after={}",
            self.score, self.moves, self.after
        )
    }
}

/// A score in centipawns from the mover's side (a mate far beyond any threshold).
pub fn mover_cp(score: Score, mover: Color) -> i64 {
    let sente = match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate { sente_wins, .. } => {
            if sente_wins {
                MATE_CP
            } else {
                -MATE_CP
            }
        }
    };
    if mover == Color::Black { sente } else { -sente }
}

/// What the rules decide, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side resigns (at its turn).
    Resign(Color, String),
    Draw(String),
}

/// The runs of scores through one game.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    rules: Adjudication,
    /// Each side's own moves in a row at or below −resign.score.
    losing: [u32; 2],
    /// Moves in a row (both sides) within ±draw.score.
    quiet: u32,
}

impl Tracker {
    pub fn new(rules: Adjudication) -> Tracker {
        Tracker {
            rules,
            ..Tracker::default()
        }
    }

    /// `mover` played the game's `ply`-th move, scoring it `cp` (its own view; None: no
    /// score). Returns a draw when the draw rule now holds.
    pub fn moved(&mut self, mover: Color, ply: usize, cp: Option<i64>) -> Option<Verdict> {
        if let Some(r) = self.rules.resign {
            let losing = &mut self.losing[mover.index()];
            *losing = match cp {
                Some(cp) if cp <= -r.score => *losing + 1,
                _ => 0,
            };
        }
        let d = self.rules.draw?;
        self.quiet = match cp {
            Some(cp) if cp.abs() <= d.score => self.quiet + 1,
            _ => 0,
        };
        (ply >= d.after as usize && self.quiet >= d.moves).then(|| {
            Verdict::Draw(format!(
                "adjudicated a draw: both engines' evaluations within ±{} for {} moves, after move {} (--draw {})",
                d.score,
                self.quiet,
                d.after,
                d.text()
            ))
        })
    }

    /// At `side`'s turn: does it resign by the rule?
    pub fn at_turn(&self, side: Color, name: &str) -> Option<Verdict> {
        let r = self.rules.resign?;
        (self.losing[side.index()] >= r.moves).then(|| {
            Verdict::Resign(
                side,
                format!(
                    "adjudicated: {name}'s own evaluation was -{} or worse for {} moves in a row (--resign {})",
                    r.score,
                    self.losing[side.index()],
                    r.text()
                ),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_with_fastchess_names_and_refuse_what_they_cannot_read() {
        assert_eq!(
            ResignRule::parse("score=1000 moves=3"),
            Ok(ResignRule {
                score: 1000,
                moves: 3
            })
        );
        assert_eq!(
            ResignRule::parse("movecount=3 score=600"),
            Ok(ResignRule {
                score: 600,
                moves: 3
            })
        );
        assert_eq!(
            DrawRule::parse("movenumber=80 movecount=8 score=10"),
            Ok(DrawRule {
                score: 10,
                moves: 8,
                after: 80
            })
        );
        for bad in [
            "score=1000",
            "moves=0 score=1",
            "score=-5 moves=3",
            "score=x moves=1",
        ] {
            assert!(ResignRule::parse(bad).is_err(), "{bad}");
        }
        assert!(DrawRule::parse("score=10 moves=8 twosided=true").is_err());
    }

    #[test]
    fn a_side_resigns_after_its_own_run_and_a_missing_score_breaks_it() {
        let rules = Adjudication {
            resign: Some(ResignRule {
                score: 500,
                moves: 2,
            }),
            draw: None,
        };
        let mut t = Tracker::new(rules);
        let (b, w) = (Color::Black, Color::White);
        t.moved(b, 1, Some(-600));
        t.moved(w, 2, Some(600));
        t.moved(b, 3, None);
        assert_eq!(t.at_turn(b, "A"), None);
        t.moved(b, 5, Some(-500));
        t.moved(w, 6, Some(-2000));
        t.moved(b, 7, Some(-MATE_CP));
        assert!(
            matches!(t.at_turn(b, "A"), Some(Verdict::Resign(Color::Black, why)) if why.contains("A's own evaluation"))
        );
        assert_eq!(t.at_turn(w, "B"), None);
    }

    #[test]
    fn a_draw_needs_the_quiet_run_and_the_move_number() {
        let rules = Adjudication {
            resign: None,
            draw: Some(DrawRule {
                score: 10,
                moves: 3,
                after: 6,
            }),
        };
        let mut t = Tracker::new(rules);
        let c = |ply: usize| {
            if ply % 2 == 1 {
                Color::Black
            } else {
                Color::White
            }
        };
        for ply in 1..=5 {
            assert_eq!(t.moved(c(ply), ply, Some(0)), None, "{ply}");
        }
        assert!(t.moved(c(6), 6, Some(-10)).is_some());
        let mut t = Tracker::new(rules);
        for ply in 1..=6 {
            t.moved(c(ply), ply, Some(5));
        }
        assert_eq!(t.moved(c(7), 7, Some(11)), None);
        assert_eq!(t.moved(c(8), 8, Some(0)), None);
        assert_eq!(mover_cp(Score::Cp(30), Color::White), -30);
    }
}
