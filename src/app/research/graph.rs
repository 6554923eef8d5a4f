//! The evaluation graph (`E`): the main line's evaluations read from the comments (whatever
//! wrote them: kifview, ShogiHome, ShogiGUI, Floodgate, KShogi; `analyze::evals`), the
//! marks, a summary per side, and moving between marked moves (`]`, `[`). The pane itself is
//! `tui::widgets::graph`.

use crate::analyze::{Mark, MarkConfig, PlyEval, main_line_evals};
pub use crate::app::research::state::GraphView;
use crate::app::state::{App, Level};
use crate::core::rules::Color;
use crate::engine::Score;

/// Centipawns beyond this are drawn at the edge.
pub const CLAMP: i32 = 2000;

/// One side's marks and how much it lost on average.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves per mark, in `Mark::ALL`'s order (緩手, 疑問手, 悪手, 大悪手).
    pub counts: [usize; 4],
    /// Win-% lost per move with evaluations before and after it (gains count as 0).
    pub loss_sum: f64,
    pub judged: usize,
}

impl SideSummary {
    /// Average win-% loss per judged move.
    pub fn average_loss(&self) -> Option<f64> {
        (self.judged > 0).then(|| self.loss_sum / self.judged as f64)
    }

    /// `大1悪2疑0緩3 損2.1%`: the worst first (the text is cut at the pane's width).
    pub fn text(&self) -> String {
        let [ina, dub, mis, blu] = self.counts;
        let avg = self
            .average_loss()
            .map_or_else(|| "-".to_string(), |l| format!("{l:.1}%"));
        format!("大{blu}悪{mis}疑{dub}緩{ina} 損{avg}")
    }
}

/// What the graph draws.
#[derive(Clone, Debug, Default)]
pub struct GraphData {
    /// The start position, then after each main-line move.
    pub points: Vec<PlyEval>,
    /// Sente's, then gote's.
    pub sides: [SideSummary; 2],
}

impl GraphData {
    pub fn new(record: &crate::core::record::Record) -> GraphData {
        let points = main_line_evals(record);
        let marks = MarkConfig::default();
        let mut sides = [SideSummary::default(); 2];
        for (i, p) in points.iter().enumerate() {
            if p.ply == 0 {
                continue;
            }
            let mover = record.side_to_move_at(p.node).flip();
            let side = &mut sides[usize::from(mover == Color::White)];
            if let Some(m) = p.mark {
                side.counts[m as usize] += 1;
            }
            let before = i.checked_sub(1).and_then(|j| points[j].eval);
            if let (Some(b), Some(a)) = (before, p.eval) {
                side.loss_sum += marks.loss(b.score, a.score, mover).max(0.0);
                side.judged += 1;
            }
        }
        GraphData { points, sides }
    }

    /// Does any position have an evaluation?
    pub fn has_evals(&self) -> bool {
        self.points.iter().any(|p| p.eval.is_some())
    }
}

/// The value drawn for a score: centipawns clamped to ±`CLAMP`, or sente's win %.
pub fn plotted(score: Score, win_percent: bool) -> f64 {
    if win_percent {
        return MarkConfig::default().win_percent(score);
    }
    let cp = match score {
        Score::Cp(cp) => cp,
        Score::Mate { sente_wins, .. } => {
            if sente_wins {
                CLAMP
            } else {
                -CLAMP
            }
        }
    };
    f64::from(cp.clamp(-CLAMP, CLAMP))
}

impl App {
    /// `toggle_graph` (`E`).
    pub(crate) fn toggle_graph(&mut self) {
        // Shown by itself (`auto`) counts as shown where the screen drew it.
        let seen = self.graph.shown || self.drawn().graph;
        self.graph.auto = false;
        self.graph.shown = !seen;
        if self.graph.shown && !GraphData::new(self.doc.record()).has_evals() {
            self.info(
                "no evaluations in the comments yet: :analyze writes them (E hides the graph)",
            );
        }
    }

    /// `graph_scale` (`%`): centipawns or win %.
    pub(crate) fn toggle_graph_scale(&mut self) {
        self.graph.win_percent = !self.graph.win_percent;
        self.graph.shown = true;
        self.info(if self.graph.win_percent {
            "the graph shows sente's win %"
        } else {
            "the graph shows centipawns (±2000)"
        });
    }

    /// `next_mark` / `prev_mark` (`]`, `[`): the next (or previous) main-line move with a
    /// mark (緩手 … 大悪手) after (before) the current ply.
    pub(crate) fn jump_mark(&mut self, forward: bool) {
        let data = GraphData::new(self.doc.record());
        let ply = self.cur_index() as u32;
        let marked = data.points.iter().filter(|p| p.mark.is_some());
        let found = if forward {
            marked.clone().find(|p| p.ply > ply)
        } else {
            marked.clone().rfind(|p| p.ply < ply)
        };
        let total = marked.count();
        let Some(p) = found.copied() else {
            let msg = if total == 0 {
                "no marked moves (緩手, 疑問手, 悪手, 大悪手) on the main line: :analyze marks them"
                    .to_string()
            } else if forward {
                format!("no marked move after this one ({total} in all; [ goes back)")
            } else {
                format!("no marked move before this one ({total} in all; ] goes on)")
            };
            self.info_level(msg, Level::Warning);
            return;
        };
        self.jump_to(p.node);
        let nth = data
            .points
            .iter()
            .filter(|q| q.mark.is_some() && q.ply <= p.ply)
            .count();
        let mark = p.mark.map_or("", Mark::word);
        let text = self.step_text(p.node);
        self.info(format!("【{mark}】 {text} ({nth}/{total})"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::testing::app_with;

    const KIF: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*#評価値=50\n   2 ３四歩(33)\n*【悪手】\n*#評価値=400\n   3 ２二角成(88)\n*【緩手】\n*#評価値=100\n   4 同　銀(31)\n*#評価値=120\n   5 投了\n";

    #[test]
    fn summary_counts_marks_and_losses_per_side() {
        let app = app_with(KIF);
        let d = GraphData::new(app.doc.record());
        assert_eq!(d.points.len(), 5, "start + 4 moves; 投了 is no point");
        assert!(d.has_evals());
        // Gote's ３四歩 is the 悪手; sente's ２二角成 the 緩手.
        assert_eq!(d.sides[0].counts, [1, 0, 0, 0]);
        assert_eq!(d.sides[1].counts, [0, 0, 1, 0]);
        // Sente: 7六歩 has no evaluation before it; ２二角成 400 → 100: lost 11.9 %.
        assert_eq!(d.sides[0].judged, 1);
        let l = d.sides[0].average_loss().unwrap();
        assert!((l - 11.92).abs() < 0.01, "{l}");
        assert!(d.sides[0].text().starts_with("大0悪0疑0緩1 損11.9%"));
    }

    #[test]
    fn brackets_jump_between_marks() {
        let mut app = app_with(KIF);
        app.jump_mark(true);
        assert_eq!(app.cur_index(), 2);
        assert!(
            app.message.as_ref().unwrap().text.starts_with("【悪手】"),
            "{:?}",
            app.message
        );
        app.jump_mark(true);
        assert_eq!(app.cur_index(), 3);
        app.jump_mark(true);
        assert_eq!(app.cur_index(), 3, "no mark after ply 3");
        assert_eq!(app.message.as_ref().unwrap().level, Level::Warning);
        app.jump_mark(false);
        assert_eq!(app.cur_index(), 2);
        let last = app.doc.record().main_line()[4];
        app.jump_to(last);
        assert_eq!(app.cur_index(), 4);
    }

    #[test]
    fn plotted_values_are_clamped() {
        assert_eq!(plotted(Score::Cp(5000), false), 2000.0);
        assert_eq!(
            plotted(
                Score::Mate {
                    plies: Some(3),
                    sente_wins: false
                },
                false
            ),
            -2000.0
        );
        assert!((plotted(Score::Cp(0), true) - 50.0).abs() < 1e-9);
    }
}
