//! Drawing helpers shared by the widgets: bordered blocks, clearing under an overlay,
//! overlay rectangles, scrolled text.

use super::text::{clean, width};
use super::theme::Theme;
use crate::app::{App, Command, KeyMode};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::border;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear, Widget};

const ASCII_BORDER: border::Set = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// A bordered block with a title (ASCII borders in double-width mode).
pub(crate) fn block<'a>(title: String, focused: bool, theme: &Theme) -> Block<'a> {
    let mut b = Block::new()
        .borders(Borders::ALL)
        .title(Span::raw(clean(&title, theme.double)))
        .border_style(if focused {
            theme.focus_border
        } else {
            theme.border
        });
    if theme.double {
        b = b.border_set(ASCII_BORDER);
    }
    b
}

/// Draws `lines` from line `scroll` on; returns the largest useful scroll offset.
pub(crate) fn scrolled_text(
    area: Rect,
    buf: &mut Buffer,
    lines: &[String],
    scroll: u16,
    style: Style,
) -> u16 {
    let max = lines.len().saturating_sub(area.height as usize) as u16;
    let scroll = scroll.min(max);
    for (row, l) in lines
        .iter()
        .skip(scroll as usize)
        .take(area.height as usize)
        .enumerate()
    {
        buf.set_stringn(area.x, area.y + row as u16, l, area.width as usize, style);
    }
    max
}

/// Clears `area` for an overlay, including wide characters cut by its left edge.
pub(crate) fn clear(area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    if area.x > buf.area.x {
        for y in area.top()..area.bottom() {
            let left = &mut buf[(area.x - 1, y)];
            if width(left.symbol()) > 1 {
                left.set_symbol(" ");
            }
        }
    }
}

/// The rectangle of an overlay over `main`: at most `max_w` wide, centred.
pub(crate) fn overlay_rect(main: Rect, max_w: u16) -> Rect {
    let w = main.width.saturating_sub(4).min(max_w);
    let h = main.height.saturating_sub(2);
    Rect::new(
        main.x + (main.width - w) / 2,
        main.y + (main.height - h) / 2,
        w,
        h,
    )
}

/// The keys bound to `cmd` in `mode`, as `a/b` (empty when unbound).
pub fn keys_for(app: &App, mode: KeyMode, cmd: Command) -> String {
    app.config()
        .keymap
        .bindings(mode)
        .into_iter()
        .find(|(c, _)| *c == cmd)
        .map(|(_, keys)| {
            keys.iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join("/")
        })
        .unwrap_or_default()
}

/// A `w` x `h` rectangle centred in `main` (smaller when `main` is).
pub fn centered(main: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(main.width.saturating_sub(2));
    let h = h.min(main.height.saturating_sub(2));
    Rect::new(
        main.x + (main.width - w) / 2,
        main.y + (main.height - h) / 2,
        w,
        h,
    )
}

/// The inside of a pane drawn by [`pane_rows`]: rows of text go in one at a time.
pub struct PaneRows {
    pub inner: Rect,
    double: bool,
}

impl PaneRows {
    /// Writes `text` on row `row` of the inside (cleaned for the terminal, cut to its width;
    /// nothing below its last row).
    pub fn put(&self, buf: &mut Buffer, row: usize, text: &str, style: Style) {
        if row < self.inner.height as usize {
            let w = self.inner.width as usize;
            let t = super::text::truncate(&clean(text, self.double), w);
            buf.set_stringn(self.inner.x, self.inner.y + row as u16, t, w, style);
        }
    }
    /// Its rows.
    pub fn height(&self) -> usize {
        self.inner.height as usize
    }
}

/// Draws a pane's border with `title` (in the focus colour when `focused`) and gives its
/// inside to write rows into; `None` when nothing fits inside.
pub fn pane_rows(
    area: Rect,
    buf: &mut Buffer,
    title: String,
    focused: bool,
    theme: &Theme,
) -> Option<PaneRows> {
    let b = block(title, focused, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    (inner.width > 0 && inner.height > 0).then_some(PaneRows {
        inner,
        double: theme.double,
    })
}
