//! The header pane: the record's fields (players, event, date, ...).

use crate::app::App;
use crate::app::Focus;
use crate::tui::draw::block;
use crate::tui::draw::scrolled_text;
use crate::tui::text::{clean, wrap};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

/// The header pane: the record's fields, wrapped and scrolled.
pub fn header_pane(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    if area.height < 3 {
        return;
    }
    let b = block("対局情報".to_string(), app.focus() == Focus::Header, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.header_area = inner;
    let rec = app.record();
    let mut fields: Vec<String> = rec
        .header
        .fields
        .iter()
        .map(|f| format!("{}：{}", f.key, f.value))
        .collect();
    if let Some(h) = rec
        .initial
        .handicap
        .filter(|_| rec.header.get("手合割").is_none())
    {
        fields.insert(0, format!("手合割：{}", h.name));
    }
    if fields.is_empty() {
        buf.set_string(inner.x, inner.y, "なし", theme.dim);
        return;
    }
    let lines: Vec<String> = fields
        .iter()
        .flat_map(|f| wrap(&clean(f, theme.double), inner.width as usize))
        .collect();
    vs.header_max = scrolled_text(inner, buf, &lines, app.header_scroll(), Style::new());
}
