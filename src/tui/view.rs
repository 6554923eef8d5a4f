//! Render-only state: scroll offsets of lists and where things were drawn (for the mouse).

use crate::core::record::NodeId;
use ratatui::layout::Rect;

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
    pub library_lines: crate::tui::widgets::library::LibraryLines,
}
