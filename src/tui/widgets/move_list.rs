//! The move list: the current line, the current move highlighted, times on the right.

use crate::app::App;
use crate::app::Focus;
use crate::core::record::MoveTime;
use crate::tui::draw::block;
use crate::tui::text::{clean, truncate, width};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

/// `m:ss` of time spent, and `/hh:mm:ss` of the running total when `long`.
fn fmt_time(t: &MoveTime, long: bool) -> String {
    let s = t.spent_ms / 1000;
    let mut out = format!("{}:{:02}", s / 60, s % 60);
    if let (true, Some(total)) = (long, t.total_ms) {
        let s = total / 1000;
        out.push_str(&format!(
            "/{:02}:{:02}:{:02}",
            s / 3600,
            s / 60 % 60,
            s % 60
        ));
    }
    out
}

/// The move list of the current line, kept scrolled so the current move shows.
pub fn move_list(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let line = app.line();
    let cur = app.cur_index();
    let title = format!("棋譜 {}/{}", cur, line.len().saturating_sub(1));
    let b = block(title, app.focus == Focus::Moves, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.moves_area = inner;
    let h = inner.height as usize;
    if h == 0 {
        return;
    }
    // Keep the current move in view with a little context.
    let margin = if h > 6 { 2 } else { 0 };
    if cur < vs.moves_offset + margin {
        vs.moves_offset = cur.saturating_sub(margin);
    } else if cur + margin >= vs.moves_offset + h {
        vs.moves_offset = (cur + margin + 1).saturating_sub(h);
    }
    vs.moves_offset = vs.moves_offset.min(line.len().saturating_sub(h));
    let w = inner.width as usize;
    let long_time = w >= 36;
    for (row, idx) in (vs.moves_offset..line.len().min(vs.moves_offset + h)).enumerate() {
        let id = line[idx];
        let node = app.record.node(id);
        let alt = node
            .parent
            .is_some_and(|p| app.record.node(p).children.len() > 1);
        let time = node.time.as_ref().map(|t| fmt_time(t, long_time));
        let time_w = time.as_ref().map_or(0, |t| width(t) + 1);
        let num = format!("{:>4} ", app.record.move_number(id));
        let body = clean(&app.step_text(id), theme.double);
        let mark = match (alt, node.bookmark.is_some()) {
            (true, true) => "+&",
            (true, false) => "+",
            (false, true) => "&",
            (false, false) => "",
        };
        let body_w = w.saturating_sub(5 + time_w + mark.len()).max(1);
        let body = truncate(&body, body_w);
        let pad = w.saturating_sub(5 + width(&body) + mark.len() + time_w);
        let mut spans = vec![
            Span::styled(num, theme.dim),
            Span::raw(body),
            Span::styled(mark, theme.variation_mark),
            Span::raw(" ".repeat(pad)),
        ];
        if let Some(t) = time {
            spans.push(Span::styled(format!(" {t}"), theme.dim));
        }
        let y = inner.y + row as u16;
        buf.set_line(inner.x, y, &Line::from(spans), inner.width);
        if idx == cur {
            buf.set_style(Rect::new(inner.x, y, inner.width, 1), theme.selection);
        }
    }
}
