//! The evaluation graph pane (`E`): the main line's evaluations from sente's side (clamped
//! to ±2,000 cp, or sente's win % with `%`), drawn in braille with ratatui's `Chart`; the
//! current ply is a reversed column, 悪手 and 大悪手 are dots. The title holds the scale and
//! the current evaluation, the bottom border each side's marks and average loss. Where the
//! plot was drawn is kept in the view state: a click jumps to that ply.

use crate::analyze::{Eval, Evaluator, Mark};
use crate::app::App;
use crate::app::research::graph::{CLAMP, GraphData, plotted};
use crate::core::record::NodeId;
use crate::engine::Score;
use crate::tui::draw::block;
use crate::tui::text::{clean, truncate};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::Span;
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Widget};

/// A centipawn score at least this large is a mate of unknown length: ShogiHome writes a mate
/// as ±30000 in ShogiGUI's and Floodgate's comment forms, and ShogiGUI records of some
/// engines hold `評価値 1000001` (no evaluation of a position short of mate comes near).
const MATE_CP: u32 = 30_000;

/// The current evaluation in words: `+350`, `▲勝 詰3手`, `▲62%`; a mate written as a huge
/// centipawn score reads as a mate (`▲勝 詰`), as the analysis pane reads an engine's.
fn eval_text(e: Eval, win_percent: bool) -> String {
    let who = match e.source {
        Evaluator::Research => "",
        Evaluator::Player => " (対局者)",
    };
    let mate = match e.score {
        Score::Cp(cp) if cp.unsigned_abs() >= MATE_CP => Score::Mate {
            sente_wins: cp > 0,
            plies: None,
        },
        s => s,
    };
    let v = match mate {
        Score::Mate { sente_wins, plies } => {
            let side = if sente_wins { "▲" } else { "△" };
            match plies {
                Some(n) => format!("{side}勝 詰{n}手"),
                None => format!("{side}勝 詰"),
            }
        }
        s if win_percent => format!("▲{:.0}%", plotted(s, true)),
        Score::Cp(cp) => format!("{cp:+}"),
    };
    format!("{v}{who}")
}

/// Which ply a column of the plot stands for.
pub fn ply_at(area: Rect, points: usize, col: u16) -> Option<u32> {
    if points == 0 || area.width == 0 || col < area.x || col >= area.right() {
        return None;
    }
    if points == 1 || area.width == 1 {
        return Some(0);
    }
    let x = f64::from(col - area.x) * (points - 1) as f64 / f64::from(area.width - 1);
    Some(x.round() as u32)
}

/// The column of a ply.
fn column(area: Rect, points: usize, ply: usize) -> u16 {
    if points <= 1 {
        return area.x;
    }
    let x = ply as f64 * f64::from(area.width.saturating_sub(1)) / (points - 1) as f64;
    area.x + (x.round() as u16).min(area.width.saturating_sub(1))
}

/// Draws the pane.
pub fn graph_pane(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let data = GraphData::new(app.record());
    let win = app.graph().win_percent;
    // An ending (投了, 詰み) stands for the position after the last move: that move's point.
    let cur = match app.record().node(app.cur()) {
        n if n.special().is_some() => n.parent.unwrap_or(app.cur()),
        _ => app.cur(),
    };
    let ply = app.record().node(cur).ply as usize;
    let scale = if win {
        "勝率".to_string()
    } else {
        format!("評価値 ±{CLAMP}")
    };
    let now = now_text(app, &data, ply, cur);
    let [s, g] = data.sides;
    let foot = format!("▲{} △{}", s.text(), g.text());
    let b = block(format!("{scale} · {now}"), false, theme)
        .title_bottom(Span::styled(clean(&foot, theme.double), theme.dim));
    let inner = b.inner(area);
    b.render(area, buf);
    if inner.width < 2 || inner.height == 0 {
        return;
    }
    if !data.has_evals() {
        let msg = "評価値がありません (:analyze で解析)";
        let w = inner.width as usize;
        buf.set_stringn(
            inner.x,
            inner.y,
            truncate(&clean(msg, theme.double), w),
            w,
            theme.dim,
        );
        return;
    }
    plot(inner, buf, &data, win, theme);
    let n = data.points.len();
    // The current ply: a reversed column (visible without colours too).
    if ply < n {
        let x = column(inner, n, ply);
        for y in inner.top()..inner.bottom() {
            let cell = &mut buf[(x, y)];
            cell.set_style(cell.style().patch(theme.selection));
        }
    }
    vs.graph_area = inner;
    vs.graph_points = n;
}

/// The title's part for the current move: its number, evaluation and mark, or 本譜外 off the
/// main line.
fn now_text(app: &App, data: &GraphData, ply: usize, cur: NodeId) -> String {
    let win = app.graph().win_percent;
    let on_main = data.points.get(ply).is_some_and(|p| p.node == cur);
    match data.points.get(ply).filter(|_| on_main) {
        Some(p) => {
            // The move number a player sees (a record from move 81 starts at 81).
            let n = app.record().moves_before() + p.ply;
            match (p.eval, p.mark) {
                (Some(e), Some(m)) => format!("{n}手 {} 【{}】", eval_text(e, win), m.word()),
                (Some(e), None) => format!("{n}手 {}", eval_text(e, win)),
                (None, _) => format!("{n}手 -"),
            }
        }
        None => "本譜外".to_string(),
    }
}

/// The chart: the evaluations as a line over the zero line, mistakes and blunders as dots.
fn plot(inner: Rect, buf: &mut Buffer, data: &GraphData, win: bool, theme: &Theme) {
    let n = data.points.len();
    let value = |e: &Eval| plotted(e.score, win);
    let line: Vec<(f64, f64)> = data
        .points
        .iter()
        .filter_map(|p| p.eval.map(|e| (f64::from(p.ply), value(&e))))
        .collect();
    let (lo, mid, hi) = if win {
        (0.0, 50.0, 100.0)
    } else {
        (-f64::from(CLAMP), 0.0, f64::from(CLAMP))
    };
    let last = (n.max(2) - 1) as f64;
    let zero = [(0.0, mid), (last, mid)];
    let marked = |want: Mark| -> Vec<(f64, f64)> {
        data.points
            .iter()
            .filter(|p| p.mark == Some(want))
            .map(|p| (f64::from(p.ply), p.eval.as_ref().map_or(mid, value)))
            .collect()
    };
    let mistakes = marked(Mark::Mistake);
    let blunders = marked(Mark::Blunder);
    let datasets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.dim)
            .data(&zero),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .data(&line),
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(theme.warning)
            .data(&mistakes),
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(theme.error)
            .data(&blunders),
    ];
    Chart::new(datasets)
        .x_axis(Axis::default().bounds([0.0, last]))
        .y_axis(Axis::default().bounds([lo, hi]))
        .render(inner, buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_and_plies_agree() {
        let area = Rect::new(10, 0, 41, 5);
        assert_eq!(ply_at(area, 121, 10), Some(0));
        assert_eq!(ply_at(area, 121, 50), Some(120));
        assert_eq!(ply_at(area, 121, 30), Some(60));
        assert_eq!(ply_at(area, 121, 51), None);
        assert_eq!(ply_at(area, 121, 9), None);
        for ply in [0, 3, 60, 119, 120] {
            let c = column(area, 121, ply);
            let back = ply_at(area, 121, c).unwrap() as i64;
            assert!((back - ply as i64).abs() <= 2, "{ply} -> {c} -> {back}");
        }
        assert_eq!(ply_at(area, 1, 30), Some(0));
    }
}
