//! Analysis comments in ShogiHome's format, move-quality marks, and replacing an earlier
//! analysis without touching the user's own lines.
//!
//! The format is ShogiHome's research comment (`buildSearchComment` in
//! sunfish-shogi/shogihome `src/common/record/comment.ts`, with the `#` prefix of
//! `SearchInfoSenderType.RESEARCHER`), which its batch analysis (`src/renderer/store/analysis.ts`)
//! writes into each move's comment, and which its `parseComment` reads back for the graph:
//!
//! ```text
//! 【悪手】                  the mark, on its own line first (ShogiHome's `header`)
//! #詰み=先手勝ち:5手         for a mate score (no `:N手` when the engine gave no distance or
//!                           the position is already mate), or
//! 先手有利                  ShogiHome's situation words (`getSituationText`), then
//! #評価値=450               centipawns from sente's side
//! #読み筋=▲７六歩△３四歩     the engine's line, every move legal
//! #深さ=12
//! #ノード数=104602
//! #エンジン=NAME
//! ```
//!
//! The marks are ShogiHome's (`getMoveAccuracyText`): the mover's win-% loss between the
//! previous position's evaluation and this one's, win % = 100 / (1 + e^(−cp / 600)); 5 緩手,
//! 10 疑問手, 20 悪手, 50 大悪手 (`badMoveLevelThreshold1..4`), none when the move played was
//! the engine's first move in the previous position's line.
//!
//! kifview adds two things ShogiHome ignores (shown as plain text there): `#候補N=SCORE LINE`
//! for MultiPV lines after the first, and the start position's `#kifview-analyze …` line that
//! records the engine and limit (so a batch can skip files already analysed).

use crate::core::rules::Color;
use crate::engine::Score;

/// A move-quality mark, worst last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// 緩手 (inaccuracy).
    Inaccuracy,
    /// 疑問手 (dubious).
    Dubious,
    /// 悪手 (mistake).
    Mistake,
    /// 大悪手 (blunder).
    Blunder,
}

impl Mark {
    pub const ALL: [Mark; 4] = [
        Mark::Inaccuracy,
        Mark::Dubious,
        Mark::Mistake,
        Mark::Blunder,
    ];

    /// `緩手`, `疑問手`, `悪手`, `大悪手`.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "緩手",
            Mark::Dubious => "疑問手",
            Mark::Mistake => "悪手",
            Mark::Blunder => "大悪手",
        }
    }

    /// The comment line: `【悪手】`.
    pub fn line(self) -> String {
        format!("【{}】", self.word())
    }

    /// Reads a mark line (`【悪手】`, surrounding spaces allowed).
    pub fn from_line(line: &str) -> Option<Mark> {
        let inner = line.trim().strip_prefix('【')?.strip_suffix('】')?;
        Mark::ALL.into_iter().find(|m| m.word() == inner)
    }
}

/// When a move gets a mark: ShogiHome's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkConfig {
    /// The sigmoid's scale: win % = 100 / (1 + e^(−cp / coefficient)).
    pub coefficient: f64,
    /// Win-% losses from which a move is 緩手, 疑問手, 悪手, 大悪手.
    pub thresholds: [f64; 4],
}

impl Default for MarkConfig {
    fn default() -> MarkConfig {
        MarkConfig {
            coefficient: 600.0,
            thresholds: [5.0, 10.0, 20.0, 50.0],
        }
    }
}

impl MarkConfig {
    /// Sente's chance of winning in percent; 100 or 0 for a mate.
    pub fn win_percent(&self, score: Score) -> f64 {
        match score {
            Score::Cp(cp) => 100.0 / (1.0 + (-f64::from(cp) / self.coefficient).exp()),
            Score::Mate { sente_wins, .. } => {
                if sente_wins {
                    100.0
                } else {
                    0.0
                }
            }
        }
    }

    /// The mover's win-% loss from `before` (the position the move was played in) to `after`.
    pub fn loss(&self, before: Score, after: Score, mover: Color) -> f64 {
        let d = self.win_percent(before) - self.win_percent(after);
        if mover == Color::Black { d } else { -d }
    }

    /// The mark for a loss, if it reaches a threshold.
    pub fn mark_for_loss(&self, loss: f64) -> Option<Mark> {
        Mark::ALL
            .into_iter()
            .rev()
            .zip(self.thresholds.iter().rev())
            .find(|&(_, &t)| loss >= t)
            .map(|(m, _)| m)
    }

    /// The mark for a move by `mover` from a position evaluated `before` to one evaluated
    /// `after`; none when `engine_best` (the move was the engine's first choice).
    pub fn judge(
        &self,
        before: Score,
        after: Score,
        mover: Color,
        engine_best: bool,
    ) -> Option<Mark> {
        if engine_best {
            return None;
        }
        self.mark_for_loss(self.loss(before, after, mover))
    }
}

/// The keys of the `#KEY=` lines an analysis writes (kifview's and ShogiHome's research lines).
const ANALYSIS_KEYS: [&str; 6] = ["評価値", "詰み", "読み筋", "深さ", "ノード数", "エンジン"];

/// The start of the line that records how a record was analysed.
pub const MARKER_PREFIX: &str = "#kifview-analyze ";

/// ShogiHome's situation words, written on the line before `#評価値=`.
const SITUATIONS: [&str; 9] = [
    "互角",
    "先手有望",
    "先手有利",
    "先手優勢",
    "先手勝勢",
    "後手有望",
    "後手有利",
    "後手優勢",
    "後手勝勢",
];

/// Is `line` one that an analysis writes (and a new analysis replaces)?
pub fn is_analysis_line(line: &str) -> bool {
    if line.starts_with(MARKER_PREFIX) || Mark::from_line(line).is_some() {
        return true;
    }
    let Some(rest) = line.strip_prefix('#') else {
        return false;
    };
    let Some((key, _)) = rest.split_once('=') else {
        return false;
    };
    ANALYSIS_KEYS.contains(&key)
        || key
            .strip_prefix("候補")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

fn is_score_line(line: &str) -> bool {
    line.starts_with("#評価値=") || line.starts_with("#詰み=")
}

/// `comment` without the lines of an earlier analysis (kifview's or ShogiHome's `#` lines, the
/// mark, the situation word before `#評価値=`, the blank line ShogiHome puts between its block
/// and the user's text). Every other line is kept as it was, in order.
pub fn strip_analysis(comment: &str) -> String {
    let lines: Vec<&str> = comment.split('\n').collect();
    let mut kept: Vec<&str> = Vec::with_capacity(lines.len());
    let mut removed_last = false;
    for (i, &line) in lines.iter().enumerate() {
        let situation = SITUATIONS.contains(&line.trim_end())
            && lines.get(i + 1).is_some_and(|n| is_score_line(n));
        if situation || is_analysis_line(line) {
            removed_last = true;
            continue;
        }
        // ShogiHome inserts its block followed by an empty line before the old comment.
        if line.is_empty() && removed_last && kept.is_empty() {
            continue;
        }
        removed_last = false;
        kept.push(line);
    }
    while kept.last().is_some_and(|l| l.is_empty()) {
        kept.pop();
    }
    kept.join("\n")
}

/// The comment with `block` (an analysis, lines ending in `\n` or not) in place of any earlier
/// analysis: the block first, then the user's lines.
pub fn replace_analysis(comment: &str, block: &str) -> String {
    let user = strip_analysis(comment);
    let block = block.trim_end_matches('\n');
    match (block.is_empty(), user.is_empty()) {
        (true, _) => user,
        (false, true) => block.to_string(),
        (false, false) => format!("{block}\n{user}"),
    }
}

/// A mate or centipawn line of a comment: `#詰み=先手勝ち:5手` or `先手有利\n#評価値=450`
/// (what ShogiHome writes for a score).
pub fn score_lines(score: Score) -> String {
    match score {
        Score::Mate { plies, sente_wins } => {
            let who = if sente_wins {
                "先手勝ち"
            } else {
                "後手勝ち"
            };
            match plies {
                // `:0手` (the position is already mate) reads in ShogiHome as a mate score of 0,
                // which its chart draws as gote winning (`mate > 0 ? +MATE : -MATE`), and
                // ShogiHome never writes it: without the count, it reads as the side's win.
                Some(n) if n > 0 => format!("#詰み={who}:{n}手"),
                _ => format!("#詰み={who}"),
            }
        }
        Score::Cp(cp) => format!("{}\n#評価値={cp}", score.situation()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_shogihomes_and_configurable() {
        let c = MarkConfig::default();
        assert_eq!(c.mark_for_loss(4.99), None);
        assert_eq!(c.mark_for_loss(5.0), Some(Mark::Inaccuracy));
        assert_eq!(c.mark_for_loss(9.99), Some(Mark::Inaccuracy));
        assert_eq!(c.mark_for_loss(10.0), Some(Mark::Dubious));
        assert_eq!(c.mark_for_loss(20.0), Some(Mark::Mistake));
        assert_eq!(c.mark_for_loss(49.9), Some(Mark::Mistake));
        assert_eq!(c.mark_for_loss(50.0), Some(Mark::Blunder));
        assert_eq!(c.mark_for_loss(-30.0), None, "a gain is no mistake");
        let strict = MarkConfig {
            coefficient: 1000.0,
            thresholds: [1.0, 2.0, 3.0, 4.0],
        };
        assert_eq!(strict.mark_for_loss(3.5), Some(Mark::Mistake));
        // The coefficient scales the sigmoid: 600 cp is 73.1 % at 600, 64.6 % at 1000.
        assert!((c.win_percent(Score::Cp(600)) - 73.105_857).abs() < 1e-5);
        assert!((strict.win_percent(Score::Cp(600)) - 64.565_630).abs() < 1e-5);
    }

    #[test]
    fn loss_is_from_the_movers_side() {
        let c = MarkConfig::default();
        // Sente moves from +300 to -300: 62.2 % → 37.8 %, a 24.5 % loss: 悪手.
        let m = c.judge(Score::Cp(300), Score::Cp(-300), Color::Black, false);
        assert_eq!(m, Some(Mark::Mistake));
        // The same swing is a gain for gote.
        assert_eq!(
            c.judge(Score::Cp(300), Score::Cp(-300), Color::White, false),
            None
        );
        // Gote moving from -300 to +300 loses the same.
        assert_eq!(
            c.judge(Score::Cp(-300), Score::Cp(300), Color::White, false),
            Some(Mark::Mistake)
        );
        // No mark when the move was the engine's first choice.
        assert_eq!(
            c.judge(Score::Cp(300), Score::Cp(-300), Color::Black, true),
            None
        );
        // Walking into a mate from an even position: 50 % lost.
        let mated = Score::Mate {
            plies: Some(7),
            sente_wins: false,
        };
        assert_eq!(
            c.judge(Score::Cp(0), mated, Color::Black, false),
            Some(Mark::Blunder)
        );
        // 4.9 % is nothing, 5 % is 緩手: cp 0 → −120 loses 4.97 %, → −121 5.01 %.
        assert_eq!(
            c.judge(Score::Cp(0), Score::Cp(-120), Color::Black, false),
            None
        );
        assert_eq!(
            c.judge(Score::Cp(0), Score::Cp(-121), Color::Black, false),
            Some(Mark::Inaccuracy)
        );
    }

    /// The strings of ShogiHome's own tests (`src/renderer/record/manager.spec.ts`,
    /// `store/batch_analysis.spec.ts`): its blocks are recognised and replaced, the user's
    /// lines stay.
    #[test]
    fn shogihome_blocks_are_replaced_user_lines_kept() {
        let shogihome_insert = "互角\n#評価値=158\n#読み筋=▲７六歩△３四歩\n#深さ=8\n#ノード数=123456\n#エンジン=Engine01\n\nmy note";
        assert_eq!(strip_analysis(shogihome_insert), "my note");
        let batch = "互角\n#評価値=20\n#エンジン=my usi engine\n";
        assert_eq!(strip_analysis(batch), "");
        let appended = "first\n【悪手】\n後手優勢\n#評価値=-900\n#エンジン=E\n";
        assert_eq!(strip_analysis(appended), "first");
        let mate = "#詰み=後手勝ち\n#エンジン=Engine02";
        assert_eq!(strip_analysis(mate), "");
        // Player (`*`) lines, a situation word without a score after it, and look-alikes stay.
        let user = "*評価値=210\n互角\nthe game is 互角\n#評価値は何？\n#候補=x\n【好手】";
        assert_eq!(strip_analysis(user), user);
        // kifview's own extra lines go too.
        assert_eq!(
            strip_analysis("#kifview-analyze limit=nodes:1 engine=E\n#候補2=+30 ▲２六歩\nkeep"),
            "keep"
        );
    }

    #[test]
    fn replacing_is_idempotent() {
        let block = "【疑問手】\n互角\n#評価値=12\n#読み筋=▲７六歩\n#エンジン=E\n";
        let once = replace_analysis("user line\n\nsecond", block);
        assert_eq!(
            once,
            "【疑問手】\n互角\n#評価値=12\n#読み筋=▲７六歩\n#エンジン=E\nuser line\n\nsecond"
        );
        assert_eq!(replace_analysis(&once, block), once);
        let other = "先手有望\n#評価値=250\n#エンジン=F";
        assert_eq!(
            replace_analysis(&once, other),
            "先手有望\n#評価値=250\n#エンジン=F\nuser line\n\nsecond"
        );
        assert_eq!(replace_analysis("", block), block.trim_end());
        assert_eq!(replace_analysis("keep", ""), "keep");
    }

    #[test]
    fn score_lines_match_shogihome() {
        assert_eq!(score_lines(Score::Cp(158)), "互角\n#評価値=158");
        assert_eq!(score_lines(Score::Cp(-450)), "後手有利\n#評価値=-450");
        let m = Score::Mate {
            plies: Some(15),
            sente_wins: true,
        };
        assert_eq!(score_lines(m), "#詰み=先手勝ち:15手");
        let m = Score::Mate {
            plies: None,
            sente_wins: false,
        };
        assert_eq!(score_lines(m), "#詰み=後手勝ち");
        // Already mate: no `:0手`, which ShogiHome would read as a score of 0 (gote's win).
        let m = Score::Mate {
            plies: Some(0),
            sente_wins: true,
        };
        assert_eq!(score_lines(m), "#詰み=先手勝ち");
    }
}
