//! Evaluations already in a record's comments, for the graph: whatever wrote them.
//!
//! The forms are those ShogiHome's `parseComment` (sunfish-shogi/shogihome
//! `src/common/record/comment.ts`) reads, all from sente's side:
//!
//! | writer | line (after the format's comment prefix) | kind |
//! | --- | --- | --- |
//! | kifview, ShogiHome analysis | `#評価値=N`, `#詰み=先手勝ち:N手` | research |
//! | ShogiHome games | `*評価値=N`, `*詰み=後手勝ち` | player |
//! | Floodgate (CSA `'** 123 +7776FU …`) | `* 123 +7776FU …` | player |
//! | ShogiGUI | `*解析 … 評価値 N` / `*対局 … 評価値 N` | research / player |
//! | 棋神アナリティクス | `* … 評価値 N` | research |
//! | KShogi, ぴよ将棋 | `#形勢[N]…`, `#指し手[N]…` | research |
//!
//! A research evaluation wins over a player's on the same move (ShogiHome's graph draws them
//! as separate series; one series is what a terminal graph has room for). Within one kind the
//! last line wins, as in ShogiHome.

use super::comment::{Mark, MarkConfig};
use crate::core::record::{NodeId, Record};
use crate::engine::Score;

/// Who wrote an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluator {
    /// An analysis of the position (kifview, ShogiHome's research, ShogiGUI's 解析, KShogi).
    Research,
    /// A player during the game (Floodgate, ShogiHome's and ShogiGUI's 対局).
    Player,
}

/// An evaluation found in a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    /// From sente's side.
    pub score: Score,
    pub source: Evaluator,
}

/// What one main-line position's comment says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyEval {
    /// 0 is the start position.
    pub ply: u32,
    pub node: NodeId,
    pub eval: Option<Eval>,
    pub mark: Option<Mark>,
}

/// The evaluation and mark in one comment.
pub fn parse_comment(comment: &str) -> (Option<Eval>, Option<Mark>) {
    let mut research: Option<Score> = None;
    let mut research_mate: Option<Score> = None;
    let mut player: Option<Score> = None;
    let mut player_mate: Option<Score> = None;
    let mut mark = None;
    for line in comment.split('\n') {
        let line = line.trim_end_matches('\r');
        if let Some(m) = Mark::from_line(line) {
            mark = Some(mark.map_or(m, |old: Mark| old.max(m)));
            continue;
        }
        if let Some(s) = line.strip_prefix("#詰み=").and_then(mate) {
            research_mate = Some(s);
        } else if let Some(s) = line.strip_prefix("*詰み=").and_then(mate) {
            player_mate = Some(s);
        } else if let Some(cp) = research_cp(line) {
            research = Some(Score::Cp(cp));
        } else if let Some(cp) = player_cp(line) {
            player = Some(Score::Cp(cp));
        }
    }
    let eval = match (research_mate.or(research), player_mate.or(player)) {
        (Some(score), _) => Some(Eval {
            score,
            source: Evaluator::Research,
        }),
        (None, Some(score)) => Some(Eval {
            score,
            source: Evaluator::Player,
        }),
        (None, None) => None,
    };
    (eval, mark)
}

/// Every main-line position (the start, then after each move; special endings are left out)
/// with what its comment says.
pub fn main_line_evals(record: &Record) -> Vec<PlyEval> {
    record
        .main_line()
        .into_iter()
        .filter(|&id| record.node(id).special().is_none())
        .map(|id| {
            let node = record.node(id);
            let (eval, mark) = parse_comment(&node.comment);
            PlyEval {
                ply: node.ply,
                node: id,
                eval,
                mark,
            }
        })
        .collect()
}

/// One side's moves, judged (the viewer's summary).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Marks found, by [`Mark`] order: 緩手, 疑問手, 悪手, 大悪手.
    pub marks: [usize; 4],
    /// Moves whose loss is known (an evaluation before and after).
    pub judged: usize,
    /// The mean win-% loss over the judged moves (a gain counts as no loss).
    pub average_loss: Option<f64>,
}

/// Per side (`[sente, gote]`): the marks in the comments and the average win-% loss between
/// consecutive evaluations of `evals` (from [`main_line_evals`]).
pub fn summary(record: &Record, evals: &[PlyEval], cfg: &MarkConfig) -> [SideSummary; 2] {
    let mut out = [SideSummary::default(); 2];
    let mut sums = [0.0f64; 2];
    for (i, e) in evals.iter().enumerate() {
        if e.ply == 0 {
            continue;
        }
        let mover = record.side_to_move_at(e.node).flip();
        let side = &mut out[mover.index()];
        if let Some(m) = e.mark {
            side.marks[m as usize] += 1;
        }
        let before = i.checked_sub(1).and_then(|p| evals[p].eval);
        if let (Some(b), Some(a)) = (before, e.eval) {
            side.judged += 1;
            sums[mover.index()] += cfg.loss(b.score, a.score, mover).max(0.0);
        }
    }
    for (side, sum) in out.iter_mut().zip(sums) {
        side.average_loss = (side.judged > 0).then(|| sum / side.judged as f64);
    }
    out
}

/// `先手勝ち:5手` / `後手勝ち`.
fn mate(rest: &str) -> Option<Score> {
    let (who, tail) = if let Some(t) = rest.strip_prefix("先手勝ち") {
        (true, t)
    } else {
        (false, rest.strip_prefix("後手勝ち")?)
    };
    let plies = tail
        .strip_prefix(':')
        .and_then(|t| t.strip_suffix('手').or(Some(t)))
        .and_then(|n| leading_number(n).map(|v| v.unsigned_abs()));
    Some(Score::Mate {
        plies,
        sente_wins: who,
    })
}

fn research_cp(line: &str) -> Option<i32> {
    if let Some(rest) = line.strip_prefix("#評価値=") {
        return leading_number(rest);
    }
    if (line.starts_with("*解析 ") || line.starts_with("* "))
        && let Some(v) = after_word(line, " 評価値 ")
    {
        return Some(v);
    }
    let rest = line
        .strip_prefix("#形勢[")
        .or_else(|| line.strip_prefix("#指し手["))?;
    let (n, _) = rest.split_once(']')?;
    leading_number(n).filter(|_| n.trim().len() == n.len())
}

fn player_cp(line: &str) -> Option<i32> {
    if let Some(rest) = line.strip_prefix("*評価値=") {
        return leading_number(rest);
    }
    if line.starts_with("*対局 ") {
        return after_word(line, " 評価値 ");
    }
    // Floodgate: `* 123 +7776FU …`, `*-45`.
    let rest = line.strip_prefix('*')?.trim_start_matches(' ');
    leading_number(rest)
}

/// The number after the last ` 評価値 ` (ShogiGUI's `評価値 +123`).
fn after_word(line: &str, word: &str) -> Option<i32> {
    let at = line.rfind(word)?;
    leading_number(&line[at + word.len()..])
}

/// A number at the start of `s` (sign, digits, an optional fraction, which is rounded), as
/// ShogiHome's `[+-]?[0-9]+(\.[0-9]+)?`; clamped to ±1,000,000,000.
fn leading_number(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    let mut i = 0;
    let negative = match b.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let mut end = i + digits;
    if b.get(end) == Some(&b'.') {
        end += 1 + b[end + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
    }
    let v: f64 = s[i..end].trim_end_matches('.').parse().ok()?;
    let v = v.round().min(1e9);
    #[allow(clippy::cast_possible_truncation)]
    let v = v as i32;
    Some(if negative { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation;
    use std::path::Path;

    fn cp(comment: &str) -> Option<(i32, Evaluator)> {
        match parse_comment(comment).0? {
            Eval {
                score: Score::Cp(v),
                source,
            } => Some((v, source)),
            _ => None,
        }
    }

    #[test]
    fn every_writers_form() {
        use Evaluator::{Player, Research};
        assert_eq!(
            cp("互角\n#評価値=158\n#読み筋=▲７六歩"),
            Some((158, Research))
        );
        assert_eq!(cp("#評価値=-97"), Some((-97, Research)));
        assert_eq!(cp("#評価値=12.6"), Some((13, Research)));
        assert_eq!(cp("*評価値=210\n*読み筋=▲２六歩"), Some((210, Player)));
        assert_eq!(cp("* 113 -3334FU +2625FU"), Some((113, Player)));
        assert_eq!(cp("* -2616 -0079GI"), Some((-2616, Player)));
        assert_eq!(cp("*30000"), Some((30000, Player)));
        assert_eq!(
            cp("*対局 深さ 8 ノード数 12345 評価値 -35 読み筋 ▲２五歩(26) △８五歩(84)"),
            Some((-35, Player))
        );
        assert_eq!(
            cp("*解析 0 深さ 20 ノード数 1 評価値 +412 読み筋 ▲７六歩(77)"),
            Some((412, Research))
        );
        assert_eq!(
            cp("* 候補1 時間 00:06.0 深さ 27/43 ノード数 44995318 評価値 -7 読み筋 △８四歩(83)"),
            Some((-7, Research))
        );
        assert_eq!(cp("#形勢[-320]△３四歩▲２六歩"), Some((-320, Research)));
        assert_eq!(cp("#指し手[55]▲７六歩"), Some((55, Research)));
        // Research wins over a player's value on the same move; the last line of a kind wins.
        assert_eq!(cp("* 100 +7776FU\n#評価値=80"), Some((80, Research)));
        assert_eq!(cp("#評価値=1\n#評価値=2"), Some((2, Research)));
        // Not evaluations.
        for text in [
            "評価値 100",
            "#評価値=",
            "*",
            "*評価値 abc",
            "#形勢[] x",
            "a * 3",
            "*対局 深さ 3",
        ] {
            assert_eq!(parse_comment(text).0, None, "{text:?}");
        }
    }

    #[test]
    fn mates_and_marks() {
        let (e, m) = parse_comment("【悪手】\n#詰み=後手勝ち:7手\n#読み筋=△２二金");
        assert_eq!(
            e.unwrap().score,
            Score::Mate {
                plies: Some(7),
                sente_wins: false
            }
        );
        assert_eq!(m, Some(Mark::Mistake));
        let (e, m) = parse_comment("*詰み=先手勝ち");
        assert_eq!(
            e.unwrap(),
            Eval {
                score: Score::Mate {
                    plies: None,
                    sente_wins: true
                },
                source: Evaluator::Player
            }
        );
        assert_eq!(m, None);
        // A mate wins over a centipawn line of the same kind.
        let (e, _) = parse_comment("#詰み=先手勝ち:3手\n#評価値=31000");
        assert!(matches!(e.unwrap().score, Score::Mate { .. }));
    }

    #[test]
    fn per_side_summary() {
        let text = "手合割：平手\n   1 ７六歩(77)\n*#評価値=0\n   2 ３四歩(33)\n*【悪手】\n*#評価値=600\n   3 ２六歩(27)\n*【緩手】\n*#評価値=300\n   4 ８四歩(83)\n*#評価値=300\n";
        let r = notation::read_text(text, notation::Format::Kif)
            .remove(0)
            .record;
        let evals = main_line_evals(&r);
        let [sente, gote] = summary(&r, &evals, &MarkConfig::default());
        assert_eq!(sente.marks, [1, 0, 0, 0]);
        assert_eq!(gote.marks, [0, 0, 1, 0]);
        // Sente: ply 1 has no evaluation before it; ply 3 lost 73.11 − 62.25 = 10.86 %.
        assert_eq!(sente.judged, 1);
        assert!(
            (sente.average_loss.unwrap() - 10.86).abs() < 0.01,
            "{sente:?}"
        );
        // Gote: ply 2 lost 23.1 % (0 → +600 for sente), ply 4 nothing.
        assert_eq!(gote.judged, 2);
        assert!(
            (gote.average_loss.unwrap() - 23.105_857 / 2.0).abs() < 0.001,
            "{gote:?}"
        );
    }

    fn corpus(rel: &str) -> Option<Record> {
        // `../shared/corpus` from the main checkout; worktrees live one level deeper.
        let base = Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = ["../shared/corpus/real", "../../shared/corpus/real"]
            .iter()
            .map(|d| base.join(d).join(rel))
            .find(|p| p.is_file());
        let Some(path) = path else {
            assert!(
                std::env::var("KIFVIEW_REQUIRE_CORPUS").as_deref() != Ok("1"),
                "KIFVIEW_REQUIRE_CORPUS=1 but corpus file {rel} is missing"
            );
            eprintln!("skipped: corpus file {rel} not found");
            return None;
        };
        let bytes = std::fs::read(&path).unwrap();
        Some(notation::load(&bytes, Some(&path)).records.remove(0).record)
    }

    fn values(r: &Record) -> Vec<Option<i32>> {
        main_line_evals(r)
            .iter()
            .map(|p| match p.eval.map(|e| e.score) {
                Some(Score::Cp(v)) => Some(v),
                Some(Score::Mate { sente_wins, .. }) => {
                    Some(if sente_wins { 99999 } else { -99999 })
                }
                None => None,
            })
            .collect()
    }

    #[test]
    fn real_files_floodgate_shogihome_shogigui() {
        if let Some(r) = corpus("shogi-kifu-converter/data/tests/csa/floodgate.csa") {
            let v = values(&r);
            assert_eq!(&v[..4], &[None, Some(113), Some(126), Some(143)]);
            assert!(v.iter().filter(|x| x.is_some()).count() > 100, "{v:?}");
        }
        if let Some(r) = corpus("shogihome/src/tests/testdata/book/source-with-score/src01.kifu") {
            let v = values(&r);
            assert!(v.contains(&Some(-102)) && v.contains(&Some(-97)), "{v:?}");
        }
        if let Some(r) =
            corpus("kif-parser/20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22[shogigui].kifu")
        {
            let v = values(&r);
            assert_eq!(&v[..4], &[None, Some(0), Some(100), Some(1_000_001)]);
        }
        if let Some(r) = corpus("shogihome/src/command/usi-csa-bridge/e2e/scenario/25/record.kifu")
        {
            let v = values(&r);
            assert!(v.contains(&Some(-35)) && v.contains(&Some(120)), "{v:?}");
        }
    }
}
