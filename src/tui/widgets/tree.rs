//! The variation tree overlay: one row per branch.

use crate::app::App;
use crate::core::record::NodeId;
use crate::tui::draw::block;
use crate::tui::draw::{clear, overlay_rect};
use crate::tui::text::{clean, truncate};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

/// The variation tree: one row per branch, `selected` highlighted, `*` on the current one.
pub fn tree_overlay(
    main: Rect,
    buf: &mut Buffer,
    app: &App,
    selected: usize,
    theme: &Theme,
    vs: &mut ViewState,
) {
    let area = overlay_rect(main, 100);
    clear(area, buf);
    let Some(outline) = app.outline_cached() else {
        return;
    };
    let n = outline.rows.len();
    let title = format!("変化ツリー {}/{}  Enter: go  t/Esc: close", selected + 1, n);
    let b = block(title, true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.tree_area = inner;
    let h = inner.height as usize;
    if h == 0 {
        return;
    }
    let sel = selected.min(n.saturating_sub(1));
    if sel < vs.tree_offset {
        vs.tree_offset = sel;
    } else if sel >= vs.tree_offset + h {
        vs.tree_offset = sel + 1 - h;
    }
    vs.tree_offset = vs.tree_offset.min(n.saturating_sub(h));
    let cur_row = outline.row_of(app.cur());
    let rec = app.record();
    for (row, i) in (vs.tree_offset..n.min(vs.tree_offset + h)).enumerate() {
        let r = outline.rows[i];
        let depth = r.depth as usize;
        let indent = if depth <= 16 {
            "  ".repeat(depth)
        } else {
            format!("{}»{depth} ", "  ".repeat(15))
        };
        let text = if r.start == NodeId::ROOT {
            format!("本譜 ({}手)", r.len.saturating_sub(1))
        } else {
            let number = rec.move_number(r.start);
            format!("{number}手目 {}  ({}手)", app.step_text(r.start), r.len)
        };
        let mark = if i == cur_row { "* " } else { "  " };
        // The overlay was cleared: only the text is drawn, and the selected row's style is
        // laid over its whole width.
        let line = truncate(
            &clean(&format!("{mark}{indent}{text}"), theme.double),
            inner.width as usize,
        );
        let y = inner.y + row as u16;
        buf.set_string(inner.x, y, line, Style::new());
        if i == sel {
            buf.set_style(Rect::new(inner.x, y, inner.width, 1), theme.selection);
        }
    }
}
