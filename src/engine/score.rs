//! Scores from sente's side, as ShogiHome shows them: `+123`, `詰 5` / `被詰 3`, win % and the
//! 互角 … 勝勢 words.

use super::usi::{Bound, RawScore};
use crate::core::rules::Color;

/// A score from sente's (black's) side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns; positive is good for sente.
    Cp(i32),
    /// A mate: `sente_wins` says who mates; `plies` is the distance (None when the engine only
    /// said `mate +`/`mate -`).
    Mate {
        plies: Option<u32>,
        sente_wins: bool,
    },
}

/// ShogiHome's sigmoid scale for win %: 100 / (1 + e^(−cp/600)).
pub const WIN_RATE_SCALE: f64 = 600.0;

impl Score {
    /// Turns an engine's score (from the side to move, `to_move`) into sente's view.
    pub fn from_engine(raw: RawScore, to_move: Color) -> Score {
        let black = to_move == Color::Black;
        match raw {
            RawScore::Cp(cp) => Score::Cp(if black { cp } else { cp.saturating_neg() }),
            RawScore::Mate { plies, winning } => Score::Mate {
                plies,
                sente_wins: winning == black,
            },
        }
    }

    /// Sente's chance of winning in percent, ShogiHome's formula; 100 or 0 for a mate.
    pub fn win_percent(self) -> f64 {
        match self {
            Score::Cp(cp) => 100.0 / (1.0 + (-f64::from(cp) / WIN_RATE_SCALE).exp()),
            Score::Mate { sente_wins, .. } => {
                if sente_wins {
                    100.0
                } else {
                    0.0
                }
            }
        }
    }

    /// `+123`, `-45`, `0`; `詰 5` when sente mates in 5 plies, `被詰 3` when sente is mated
    /// (no number after a plain `mate +`/`mate -`).
    pub fn text(self) -> String {
        match self {
            Score::Cp(0) => "0".to_string(),
            Score::Cp(cp) => format!("{cp:+}"),
            Score::Mate { plies, sente_wins } => {
                let word = if sente_wins { "詰" } else { "被詰" };
                match plies {
                    Some(n) => format!("{word} {n}"),
                    None => word.to_string(),
                }
            }
        }
    }

    /// ShogiHome's situation words (`getSituationText`): |cp| < 200 互角, then 有望 from 200,
    /// 有利 from 400, 優勢 from 600, 勝勢 from 1500, each prefixed with the side ahead
    /// (`先手有利`). A mate is 勝勢 for the mating side.
    pub fn situation(self) -> &'static str {
        const WORDS: [[&str; 4]; 2] = [
            ["先手有望", "先手有利", "先手優勢", "先手勝勢"],
            ["後手有望", "後手有利", "後手優勢", "後手勝勢"],
        ];
        let (side, level) = match self {
            Score::Mate { sente_wins, .. } => (usize::from(!sente_wins), 3),
            Score::Cp(cp) => {
                let level = match cp.unsigned_abs() {
                    0..200 => return "互角",
                    200..400 => 0,
                    400..600 => 1,
                    600..1500 => 2,
                    _ => 3,
                };
                (usize::from(cp < 0), level)
            }
        };
        WORDS[side][level]
    }
}

/// A bound seen from sente's side, as ShogiHome marks it: `++` (at least), `--` (at most).
pub fn bound_mark(bound: Bound, to_move: Color) -> &'static str {
    let b = if to_move == Color::Black {
        bound
    } else {
        bound.flip()
    };
    match b {
        Bound::Exact => "",
        Bound::Lower => "++",
        Bound::Upper => "--",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_to_move_flips_cp_mate_and_bound() {
        assert_eq!(
            Score::from_engine(RawScore::Cp(159), Color::Black),
            Score::Cp(159)
        );
        assert_eq!(
            Score::from_engine(RawScore::Cp(159), Color::White),
            Score::Cp(-159)
        );
        let m = RawScore::Mate {
            plies: Some(3),
            winning: true,
        };
        assert_eq!(Score::from_engine(m, Color::White).text(), "被詰 3");
        assert_eq!(Score::from_engine(m, Color::Black).text(), "詰 3");
        assert_eq!(bound_mark(Bound::Upper, Color::Black), "--");
        assert_eq!(bound_mark(Bound::Upper, Color::White), "++");
        assert_eq!(bound_mark(Bound::Exact, Color::White), "");
    }

    #[test]
    fn text_forms() {
        assert_eq!(Score::Cp(123).text(), "+123");
        assert_eq!(Score::Cp(-45).text(), "-45");
        assert_eq!(Score::Cp(0).text(), "0");
        let plain = Score::Mate {
            plies: None,
            sente_wins: false,
        };
        assert_eq!(plain.text(), "被詰");
    }

    #[test]
    fn win_percent_is_shogihome_sigmoid() {
        assert!((Score::Cp(0).win_percent() - 50.0).abs() < 1e-9);
        // 100/(1+e^-1) = 73.1058…
        assert!((Score::Cp(600).win_percent() - 73.105_857_863).abs() < 1e-6);
        assert!((Score::Cp(-600).win_percent() - 26.894_142_137).abs() < 1e-6);
        let mate = Score::Mate {
            plies: Some(1),
            sente_wins: true,
        };
        assert_eq!(mate.win_percent(), 100.0);
    }

    #[test]
    fn situation_thresholds() {
        let s = |cp| Score::Cp(cp).situation();
        assert_eq!(s(0), "互角");
        assert_eq!(s(199), "互角");
        assert_eq!(s(-199), "互角");
        assert_eq!(s(200), "先手有望");
        assert_eq!(s(-200), "後手有望");
        assert_eq!(s(400), "先手有利");
        assert_eq!(s(-599), "後手有利");
        assert_eq!(s(600), "先手優勢");
        assert_eq!(s(1499), "先手優勢");
        assert_eq!(s(1500), "先手勝勢");
        assert_eq!(s(i32::MIN), "後手勝勢");
        let mated = Score::Mate {
            plies: Some(2),
            sente_wins: false,
        };
        assert_eq!(mated.situation(), "後手勝勢");
    }
}
