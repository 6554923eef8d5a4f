//! The book pane with the focus (`Ctrl-t`): a move of the pane is highlighted, `j`/`k` move
//! the highlight, Enter plays it (the record's move when it has it, else a new variation: one
//! undo step), `l`/`h` go on through the record, the edits of `edit.rs`, `f` turns the
//! flipped lookup on or off, Esc gives the focus back. An overlay known by its behaviour
//! (`Overlay::Panel`) with a keymap of its own (`[keys.book]`); the pane draws the highlight.

use super::{BookRow, BookView};
use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::overlay::behaviour::{OverlayState, Tag, clone_box};
use crate::app::overlay::{Mode, Overlay};
use crate::app::state::{App, Level};

/// The mode while the pane has the focus.
pub const FOCUS: Mode = Mode::Panel("BOOK");

/// The pane's focus (the highlighted move lives in the books' state).
#[derive(Clone, Copy, Debug, Default)]
pub struct BookFocus;

impl OverlayState<App> for BookFocus {
    fn mode(&self) -> Mode {
        FOCUS
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Book
    }
    fn tag(&self) -> Tag {
        Tag::Keys(
            "BOOK",
            &[
                (Command::BookPlay, "play"),
                (Command::BookAdd, "add"),
                (Command::BookEdit, "edit"),
                (Command::BookDelete, "delete"),
                (Command::BookSave, "save"),
                (Command::Close, "back"),
            ],
        )
    }
    clone_box!();
}

/// The row of `rows` to highlight: `selected`'s when it is there, else the first.
pub fn highlighted(
    rows: &[BookRow],
    selected: Option<(usize, crate::core::rules::Move, bool)>,
) -> Option<usize> {
    if rows.is_empty() {
        return None;
    }
    Some(
        selected
            .and_then(|(b, m, f)| {
                rows.iter()
                    .position(|r| r.book == b && r.mv == m && r.flipped == f)
            })
            .unwrap_or(0),
    )
}

impl App {
    /// Does the book pane have the focus (anywhere on the stack)?
    pub fn book_focused(&self) -> bool {
        self.overlays.contains(FOCUS)
    }

    /// The row the pane highlights, when it has the focus and shows rows.
    pub fn book_highlight(&self) -> Option<usize> {
        if !self.book_focused() {
            return None;
        }
        match self.book_view() {
            BookView::Rows { rows, .. } => highlighted(&rows, self.collection.books.selected),
            BookView::NoBook => None,
        }
    }

    /// `book_moves` (`Ctrl-t`): gives the pane the focus (showing it first when hidden).
    pub(crate) fn focus_book(&mut self) {
        if !self.collection.books.shown {
            self.toggle_book();
        }
        if self.collection.books.open.is_empty() {
            let text = "no book open (:book open FILE, :book new FILE, kifview --book FILE)";
            return self.info_level(text.into(), Level::Warning);
        }
        if !self.book_focused() {
            self.collection.books.selected = None;
            self.overlays.push(Overlay::Panel(Box::new(BookFocus)));
        }
    }

    /// Closes the focus (when the pane is hidden).
    pub(super) fn unfocus_book(&mut self) {
        while self.book_focused() {
            self.overlays.pop();
        }
    }

    /// `book_down` / `book_up`: moves the highlight `d` rows on (stops at the ends).
    pub(crate) fn book_select(&mut self, d: isize) {
        let BookView::Rows { rows, .. } = self.book_view() else {
            return;
        };
        let Some(at) = highlighted(&rows, self.collection.books.selected) else {
            return;
        };
        let r = &rows[(at as isize + d).clamp(0, rows.len() as isize - 1) as usize];
        self.collection.books.selected = Some((r.book, r.mv, r.flipped));
    }

    /// `book_play` (Enter): plays the highlighted move (the record's move when it has it,
    /// else a new variation: one undo step).
    pub(crate) fn book_play_selected(&mut self) {
        let row = self.book_highlight().and_then(|i| match self.book_view() {
            BookView::Rows { rows, .. } => rows.get(i).cloned(),
            BookView::NoBook => None,
        });
        let Some(row) = row else {
            return self.info("no book move for this position");
        };
        self.enter_move(row.mv);
        self.collection.books.selected = None;
    }

    /// `book_flipped` (`f`): looks the mirrored position up too, or stops.
    pub(crate) fn toggle_book_flipped(&mut self) {
        let b = &mut self.collection.books;
        b.flipped = !b.flipped;
        b.revision += 1;
        let on = b.flipped;
        self.info(match on {
            true => "books: the mirrored position's moves too (反)",
            false => "books: this position's moves only",
        });
    }
}
