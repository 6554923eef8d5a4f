//! Render-only state, the front end's own: scroll offsets of lists (the moves, the variations,
//! the tree, the library), where things were drawn (for the mouse), how far each pane could
//! scroll and how many rows a page showed (handed to the app with each input as
//! [`Drawn`]), and the library's rows as drawn (kept from frame to frame).

use crate::app::Drawn;
use crate::core::record::NodeId;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use std::collections::HashMap;
use unicode_width::UnicodeWidthChar;

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
    /// Rows of games the library showed (0: not shown), and its first row shown (it follows
    /// the selected row, as `moves_offset` follows the move).
    pub library_rows: usize,
    pub library_top: usize,
    /// The library's rows as drawn, kept from frame to frame.
    pub library_lines: LibraryLines,
}

impl ViewState {
    /// What a key needs to know of the frame drawn (handed to the app with each input).
    pub fn drawn(&self) -> Drawn {
        Drawn {
            graph: self.graph_area.width > 0,
            comment_max: self.comment_max,
            header_max: self.header_max,
            overlay_max: self.overlay_max,
            overlay_rows: self.overlay_area.height as usize,
            library_rows: self.library_rows,
        }
    }
}

/// Rows of games kept as laid out (their text and where each character goes, by game id)
/// for one layout: a key that scrolls the list formats and lays out only the rows that came
/// into view, the others are copied.
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

/// Is `c` a grapheme of its own whatever its neighbours are (not a combining mark, a joiner,
/// a variation selector, a Hangul jamo, a regional indicator, a control…), one that
/// `Buffer::set_string` draws as one symbol `c.width()` cells wide? Latin, kana, kanji,
/// full-width forms, the punctuation, arrows and shapes around them: the text of nearly
/// every row of a list of shogi games.
fn plain(c: char) -> bool {
    matches!(c,
        ' '..='~'
        | '\u{a0}'..='\u{ac}'
        | '\u{ae}'..='\u{2ff}'
        | '\u{2010}'..='\u{2027}'
        | '\u{2030}'..='\u{205e}'
        | '\u{2190}'..='\u{21ff}'
        | '\u{2500}'..='\u{25ff}'
        | '\u{3000}'..='\u{3029}'
        | '\u{3030}'..='\u{303f}'
        | '\u{3041}'..='\u{3096}'
        | '\u{309b}'..='\u{30ff}'
        | '\u{3400}'..='\u{4dbf}'
        | '\u{4e00}'..='\u{9fff}'
        | '\u{f900}'..='\u{faff}'
        | '\u{ff01}'..='\u{ff9d}'
        | '\u{ffe0}'..='\u{ffe6}')
}

impl Row {
    /// `text`, every character of it `plain`, laid out as `Buffer::set_string` would in
    /// `max` cells: character by character.
    fn plain(mut text: String, max: u16) -> Row {
        let mut symbols = Vec::with_capacity(text.len());
        let mut dx: u16 = 0;
        let mut end = text.len();
        for (i, c) in text.char_indices() {
            let w = c.width().unwrap_or(1) as u16;
            if dx + w > max {
                end = i;
                break;
            }
            symbols.push((dx, (i + c.len_utf8()) as u32));
            dx += w;
        }
        text.truncate(end);
        Row { text, symbols }
    }

    /// Draws the row at `(x, y)` in `style` over cleared cells.
    fn draw(&self, (x, y): (u16, u16), buf: &mut Buffer, style: Style) {
        let mut start = 0;
        for &(dx, end) in &self.symbols {
            let end = end as usize;
            buf[(x + dx, y)]
                .set_symbol(&self.text[start..end])
                .set_style(style);
            start = end;
        }
    }
}

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
    /// time is laid out character by character when its text is `plain`, else drawn by
    /// `set_string` and read back from `buf`; either way it is kept.
    pub(crate) fn draw(
        &mut self,
        id: u32,
        (x, y): (u16, u16),
        buf: &mut Buffer,
        style: Style,
        text: impl FnOnce() -> String,
    ) {
        if let Some(row) = self.rows.get(&id) {
            return row.draw((x, y), buf, style);
        }
        let max = self.layout.0.min(buf.area.right().saturating_sub(x));
        let text = text();
        let row = if text.chars().all(plain) {
            let row = Row::plain(text, max);
            row.draw((x, y), buf, style);
            row
        } else if style.add_modifier.contains(LEAD) {
            // The mark would not tell: drawn, not kept.
            buf.set_string(x, y, text, style);
            return;
        } else {
            read_back(&text, (x, y), max, buf, style)
        };
        self.rows.insert(id, row);
    }
}

/// `text` drawn by `set_string` with its symbols marked, then read back from `buf` (and the
/// mark taken off).
fn read_back(text: &str, (x, y): (u16, u16), max: u16, buf: &mut Buffer, style: Style) -> Row {
    buf.set_string(x, y, text, style.add_modifier(LEAD));
    let mut row = Row::default();
    for dx in 0..max {
        let c = &mut buf[(x + dx, y)];
        if c.modifier.contains(LEAD) {
            c.modifier.remove(LEAD);
            row.text.push_str(c.symbol());
            row.symbols.push((dx, row.text.len() as u32));
        }
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` drawn by `LibraryLines` in `w` cells at x = 1, first laid out then from what
    /// was kept, against `set_string` in the same cells.
    fn same_as_set_string(text: &str, w: u16) {
        let area = Rect::new(0, 0, w + 1, 1);
        let style = Style::new().add_modifier(Modifier::BOLD);
        let mut want = Buffer::empty(area);
        want.set_string(1, 0, text, style);
        let mut lines = LibraryLines::default();
        lines.keep_for((w, false, 0));
        for pass in ["laid out", "kept"] {
            let mut got = Buffer::empty(area);
            lines.draw(7, (1, 0), &mut got, style, || text.to_string());
            assert_eq!(got, want, "{text:?} in {w} cells, {pass}");
        }
    }

    /// Every `plain` character, beside itself, wide and narrow ones, and cut at the edge,
    /// lays out in the cells `set_string` draws it in (the character-by-character layout
    /// is the grapheme walk's for them); text that is not plain (combining marks, joined
    /// emoji, halfwidth sound marks) is drawn by the grapheme walk itself.
    #[test]
    fn a_row_laid_out_draws_the_cells_set_string_draws() {
        let plains = (0..=0x10ffff_u32)
            .filter_map(char::from_u32)
            .filter(|&c| plain(c));
        for c in plains {
            for w in [9, 4] {
                same_as_set_string(&format!("a{c}{c}あ{c}b…"), w);
            }
        }
        for text in [
            "e\u{301}tude",
            "👨\u{200d}👩 ok",
            "ｶﾞｷﾞ",
            "が\u{3099}x",
            "🇯🇵 ja",
        ] {
            for w in [9, 4] {
                same_as_set_string(text, w);
            }
        }
    }
}
