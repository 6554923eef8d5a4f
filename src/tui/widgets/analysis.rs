//! The analysis pane (research mode): the engine's name and state in the title, a summary
//! row (situation, depth, nodes, speed), then one row per line: score from sente's side,
//! win %, depth/seldepth and the line in Japanese, cut before a move that does not fit.
//! Everything comes ready from the engine's `Analysis` snapshot: no parsing here.

use crate::app::App;
use crate::app::research::state::Job;
use crate::engine::{Analysis, AnalysisStatus, State};
use crate::tui::draw::block;
use crate::tui::text::{clean, truncate, width};
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

/// Rows the pane wants for `lines` engine lines (borders and the summary row included).
pub fn wanted_height(app: &App) -> u16 {
    let n = app
        .research()
        .analysis()
        .map_or(0, |a| a.lines.len())
        .max(app.config().analysis.multipv as usize)
        .clamp(1, 10);
    n as u16 + 3
}

/// Should the pane be drawn? While analysing, and after stopping while the lines are of the
/// position shown (or always, when `roomy`: the pane has its own space).
pub fn visible(app: &App, roomy: bool) -> bool {
    let r = app.research();
    r.on || r.failure.is_some() || (r.engine().is_some() && (roomy || app.analysis_is_current()))
}

/// `1.2k`, `35.0M`: nodes and speeds in few cells.
pub fn short_count(n: u64) -> String {
    match n {
        0..10_000 => n.to_string(),
        10_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}G", n as f64 / 1e9),
    }
}

/// The title: `検討 解析中 · Fairy-Stockfish 11.1` (the state first: a long name is cut).
fn title(app: &App) -> String {
    let r = app.research();
    let name = r.engine_name().unwrap_or("");
    let state = if r.failure.is_some() {
        "エラー (a: restart)"
    } else if let Some(job) = &r.job {
        // What runs: `:analyze` or `:mate`, never both.
        match job {
            Job::Analyze(_) => "棋譜解析中 (Esc: stop)",
            Job::Mate { .. } => "詰み探索中 (Esc: stop)",
        }
    } else {
        match (
            r.engine().map(|e| e.state()),
            r.analysis().map(|a| a.status),
        ) {
            (None, _) => "",
            (Some(State::WaitingUsiOk | State::NotReady | State::WaitingReadyOk), _) => "起動中…",
            (Some(State::Dead), _) => "終了",
            (Some(State::Quitting), _) => "終了中…",
            _ if !r.on => "停止 (a: resume)",
            (_, Some(AnalysisStatus::Waiting)) => "待機中…",
            _ if !app.analysis_is_current() => "追従中…",
            _ => "解析中 (a: stop)",
        }
    };
    format!("検討 {state} · {name}")
}

/// The summary row: `互角  深さ 12/18  1.2M局面  400.0k/秒`.
fn summary(a: &Analysis) -> String {
    let mut parts = Vec::new();
    if let Some(s) = a.best().and_then(|l| l.score) {
        parts.push(s.situation().to_string());
    }
    match (a.depth, a.seldepth) {
        (Some(d), Some(s)) => parts.push(format!("深さ {d}/{s}")),
        (Some(d), None) => parts.push(format!("深さ {d}")),
        _ => {}
    }
    if let Some(n) = a.nodes {
        parts.push(format!("{}局面", short_count(n)));
    }
    if let Some(n) = a.nps {
        parts.push(format!("{}/秒", short_count(n)));
    }
    if let Some(h) = a.hashfull {
        parts.push(format!("hash {}%", h / 10));
    }
    parts.join("  ")
}

/// One row per line, ready to draw in `w` cells: `  +123 55%  12/18 ▲７六歩△３四歩…`, the
/// line cut at the start of a move.
fn line_row(a: &Analysis, l: &crate::engine::Line, w: usize, d: bool) -> String {
    let win = l
        .score
        .map(|s| format!("{:>3.0}%", s.win_percent()))
        .unwrap_or_default();
    let mut pv = l.japanese.clone();
    if l.note().is_some() {
        pv.push_str(" (以下不正)");
    }
    let head = clean(
        &format!("{:>7} {win:>4} {:>5} ", a.score_text(l), l.depth_text()),
        d,
    );
    let room = w.saturating_sub(width(&head));
    truncate(
        &format!("{head}{}", whole_moves(&clean(&pv, d), room, d)),
        w,
    )
}

/// `pv` (a line in Japanese, each move from `▲` or `△`) cut to `w` cells before a move that
/// does not fit, with `…` when moves were left out (cut by cells when not even one fits).
fn whole_moves(pv: &str, w: usize, d: bool) -> String {
    if width(pv) <= w {
        return pv.to_string();
    }
    let dots = clean("…", d);
    let room = w.saturating_sub(width(&dots));
    let cut = pv
        .char_indices()
        .filter(|&(i, c)| i > 0 && (c == '▲' || c == '△'))
        .map(|(i, _)| i)
        .take_while(|&i| width(&pv[..i]) <= room)
        .last();
    match cut {
        Some(i) => format!("{}{dots}", &pv[..i]),
        None => truncate(pv, w),
    }
}

/// Draws the pane.
pub fn analysis_pane(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let b = block(title(app), false, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    let w = inner.width as usize;
    if w == 0 || inner.height == 0 {
        return;
    }
    let d = theme.double;
    let put = |buf: &mut Buffer, row: u16, text: &str, style: Style| {
        if row < inner.height {
            let t = truncate(&clean(text, d), w);
            buf.set_stringn(inner.x, inner.y + row, t, w, style);
        }
    };
    if let Some(f) = &app.research().failure {
        put(buf, 0, f, theme.error);
    }
    let Some(a) = app.research().analysis() else {
        return;
    };
    let current = app.analysis_is_current();
    let stale = if current { Style::new() } else { theme.dim };
    let first = u16::from(app.research().failure.is_some());
    if a.lines.is_empty() {
        let msg = match (a.status, app.research().on) {
            (_, false) => "",
            (AnalysisStatus::Waiting, _) => "エンジンの応答を待っています…",
            _ => "読み筋はまだありません",
        };
        put(buf, first, msg, theme.dim);
        return;
    }
    // The marks first: the row is cut at the pane's width.
    let head = if !current {
        format!("[前の局面] {}", summary(a))
    } else if matches!(a.status, AnalysisStatus::Stopped | AnalysisStatus::Finished) {
        format!("[停止] {}", summary(a))
    } else {
        summary(a)
    };
    put(buf, first, &head, theme.dim);
    for (i, l) in a.lines.iter().enumerate() {
        let row = first + 1 + i as u16;
        if row >= inner.height {
            break;
        }
        let style = if i == 0 {
            stale.add_modifier(Modifier::BOLD)
        } else {
            stale
        };
        let text = line_row(a, l, w, d);
        buf.set_stringn(inner.x, inner.y + row, text, w, style);
    }
}

#[cfg(test)]
mod tests {
    use super::{short_count, whole_moves};

    #[test]
    fn a_line_ends_on_a_whole_move() {
        let pv = "▲７六歩△３四歩▲２六歩△８四歩";
        assert_eq!(whole_moves(pv, 40, false), pv);
        // 15 cells: two moves (7 each) and `…` (1).
        assert_eq!(whole_moves(pv, 15, false), "▲７六歩△３四歩…");
        assert_eq!(whole_moves(pv, 14, false), "▲７六歩…");
        // Double-width mode: ▲ and … take two cells each.
        assert_eq!(
            whole_moves(&crate::tui::text::clean(pv, true), 20, true)
                .chars()
                .filter(|&c| c == '▲' || c == '△')
                .count(),
            2
        );
        assert_eq!(whole_moves(pv, 5, false), "▲７六");
    }

    #[test]
    fn counts_take_few_cells() {
        let cases = [
            (0, "0"),
            (9_999, "9999"),
            (10_000, "10.0k"),
            (999_949, "999.9k"),
            (1_844_900, "1.8M"),
            (5_000_000_000, "5.0G"),
        ];
        for (n, text) in cases {
            assert_eq!(short_count(n), text);
        }
    }
}
