//! The search's highlight, drawn over the panes after they are drawn: the move list's rows of
//! moves with a match (their move, bookmark or comment) underlined and bold, the query's
//! occurrences in the comment pane and the header pane reversed. Modifiers only, so it shows
//! with colours off (`NO_COLOR`).

use crate::app::App;
use crate::app::search::{Highlight, Kind};
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use unicode_width::UnicodeWidthStr;

/// A move list row with a match.
pub const ROW: Style = Style::new().add_modifier(Modifier::UNDERLINED.union(Modifier::BOLD));
/// The query's text in the comment and header panes.
pub const TEXT: Style = Style::new().add_modifier(Modifier::REVERSED);

/// Highlights the current search's matches in what the panes drew (see `vs`).
pub fn highlight(buf: &mut Buffer, app: &App, vs: &ViewState) {
    let Some(h) = app.search.highlight(app.revision) else {
        return;
    };
    let area = vs.moves_area.intersection(buf.area);
    for row in 0..area.height {
        let Some(&id) = app.line().get(vs.moves_offset + row as usize) else {
            break;
        };
        if h.hit(id) {
            buf.set_style(Rect::new(area.x, area.y + row, area.width, 1), ROW);
        }
    }
    if app.mode() != crate::app::Mode::Comment && h.has(app.cur(), Kind::Comment) {
        mark_text(buf, vs.comment_area, &h);
    }
    if h.in_header() {
        mark_text(buf, vs.header_area, &h);
    }
}

/// Reverses the query's occurrences in each row of `area` as drawn (an occurrence cut by a
/// wrap is not found).
fn mark_text(buf: &mut Buffer, area: Rect, h: &Highlight) {
    let area = area.intersection(buf.area);
    for y in area.top()..area.bottom() {
        // Each character drawn, with its column and width (the cells a wide character
        // covers, and the pads after ambiguous ones in double-width mode, are skipped).
        let mut cells: Vec<(char, u16, u16)> = Vec::new();
        let mut x = area.left();
        while x < area.right() {
            let sym = buf[(x, y)].symbol();
            let w = sym.width().max(1) as u16;
            if let Some(c) = sym.chars().next().filter(|&c| c != '\u{a0}') {
                cells.push((c, x, w));
            }
            x += w;
        }
        let chars: Vec<char> = cells.iter().map(|c| c.0).collect();
        for (a, b) in h.query.spans(&chars) {
            let (x0, x1) = (cells[a].1, cells[b - 1].1 + cells[b - 1].2);
            let x1 = x1.min(area.right());
            buf.set_style(Rect::new(x0, y, x1 - x0, 1), TEXT);
        }
    }
}
