//! A list overlay to pick from: bookmarks, endings or header fields.

use crate::app::overlay::lists::ListView;
use crate::tui::draw::block;
use crate::tui::draw::{clear, overlay_rect};
use crate::tui::text::{clean, fit};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

/// A list overlay: bookmarks, endings or header fields.
pub fn list_overlay(main: Rect, buf: &mut Buffer, l: &ListView, theme: &Theme, vs: &mut ViewState) {
    let area = overlay_rect(main, 80);
    let area = Rect {
        height: area.height.min(l.items.len().max(1) as u16 + 2),
        ..area
    };
    clear(area, buf);
    let b = block(l.title.clone(), true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.overlay_area = inner;
    let h = inner.height as usize;
    if h == 0 {
        return;
    }
    if l.items.is_empty() {
        buf.set_string(inner.x, inner.y, "なし (a adds)", theme.dim);
        return;
    }
    let offset = (l.selected + 1).saturating_sub(h);
    for (row, (i, item)) in l.items.iter().enumerate().skip(offset).take(h).enumerate() {
        let text = fit(&clean(item, theme.double), inner.width as usize);
        let style = if i == l.selected {
            theme.selection
        } else {
            Style::new()
        };
        buf.set_string(inner.x, inner.y + row as u16, text, style);
    }
}
