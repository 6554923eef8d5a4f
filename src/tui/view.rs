//! Render-only state: scroll offsets of lists, where things were drawn (for the mouse), and the
//! library's rows as drawn (kept from frame to frame).

use crate::core::record::NodeId;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use std::collections::HashMap;

/// Render-only state: scroll offsets and where things were drawn (for the mouse).
#[derive(Clone, Debug, Default)]
pub struct ViewState {
    pub moves_offset: usize,
    pub moves_area: Rect,
    pub variations_area: Rect,
    pub variations_offset: usize,
    /// The nodes listed in the variation pane.
    pub variation_nodes: Vec<NodeId>,
    pub comment_area: Rect,
    pub header_area: Rect,
    pub tree_area: Rect,
    pub tree_offset: usize,
    /// The tree's rows drawn, top first (outline rows), for the mouse.
    pub tree_rows: Vec<usize>,
    pub overlay_area: Rect,
    /// Largest useful scroll offsets found while drawing.
    pub comment_max: u16,
    pub header_max: u16,
    pub overlay_max: u16,
    /// The 9x9 squares of the board, for the mouse: from the first square's top-left cell
    /// to the last square's bottom-right one.
    pub board_squares: Rect,
    /// Columns and rows from one square to the next: (3, 1) on the BOD board, the grid's
    /// pitch (lines included) on the large one.
    pub board_cell: (u16, u16),
    /// The evaluation graph's plot and how many plies it spans, for the mouse.
    pub graph_area: Rect,
    pub graph_points: usize,
    /// Where the terminal cursor goes (prompts and the comment editor), if anywhere.
    pub cursor: Option<(u16, u16)>,
    /// Rows of games the library showed (0: not shown).
    pub library_rows: usize,
    /// The library's rows as drawn, kept from frame to frame.
    pub library_lines: LibraryLines,
}

/// Rows of games kept as laid out (their text and where each character goes, by game id)
/// for one layout: a key that scrolls the list formats and walks the graphemes of only the
/// rows that came into view, the others are copied.
#[derive(Clone, Debug, Default)]
pub struct LibraryLines {
    /// The list's width, the ambiguous characters' padding and the library's rows
    /// generation the rows were made for.
    layout: (u16, bool, u64),
    rows: HashMap<u32, Row>,
}

/// A row laid out: its symbols one after the other, and for each the column it starts at
/// and its end in `text` (the cells a wide symbol covers are left cleared, as
/// `Buffer::set_string` leaves them).
#[derive(Clone, Debug, Default)]
struct Row {
    text: String,
    symbols: Vec<(u16, u32)>,
}

/// Rows kept before they are all made again.
const LINES_KEPT: usize = 2048;

/// Marks, for a moment, the cells `set_string` writes a symbol to.
const LEAD: Modifier = Modifier::HIDDEN;

impl LibraryLines {
    /// Forgets the rows made for another layout, or when too many are kept.
    pub(crate) fn keep_for(&mut self, layout: (u16, bool, u64)) {
        if self.layout != layout || self.rows.len() > LINES_KEPT {
            self.rows.clear();
            self.layout = layout;
        }
    }

    /// Draws game `id`'s row at `at` in `style` (`text` makes it the first time) over
    /// cleared cells, as `buf.set_string(x, y, text, style)` would. A row met for the first
    /// time is drawn so and read back from `buf` (no second layout).
    pub(crate) fn draw(
        &mut self,
        id: u32,
        (x, y): (u16, u16),
        buf: &mut Buffer,
        style: Style,
        text: impl FnOnce() -> String,
    ) {
        if let Some(row) = self.rows.get(&id) {
            let mut start = 0;
            for &(dx, end) in &row.symbols {
                let end = end as usize;
                buf[(x + dx, y)]
                    .set_symbol(&row.text[start..end])
                    .set_style(style);
                start = end;
            }
            return;
        }
        if style.add_modifier.contains(LEAD) {
            // The mark would not tell: drawn, not kept.
            buf.set_string(x, y, text(), style);
            return;
        }
        buf.set_string(x, y, text(), style.add_modifier(LEAD));
        let mut row = Row::default();
        for dx in 0..self.layout.0.min(buf.area.right().saturating_sub(x)) {
            let c = &mut buf[(x + dx, y)];
            if c.modifier.contains(LEAD) {
                c.modifier.remove(LEAD);
                row.text.push_str(c.symbol());
                row.symbols.push((dx, row.text.len() as u32));
            }
        }
        self.rows.insert(id, row);
    }
}
