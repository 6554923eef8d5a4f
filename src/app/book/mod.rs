//! Opening books in the viewer (issue 33). The book pane (`T`): for the position on the
//! board, the moves of every open book in Japanese with value, depth, count and comment, each
//! marked with its book (`1`, `2`, …), in each book's order; the explorer's count beside each
//! move when the explorer pane shows the same position; with the flipped lookup on (`f` with
//! the focus), the moves the books hold for the mirrored position too (YaneuraOu's
//! `FlippedBook`), turned back and marked `反`. The pane shares the explorer's places on the
//! screen (both shown: the books over the explorer).
//!
//! Books are opened with `:book open FILE`, `:book new FILE`, `kifview --book FILE` and the
//! config's `[books] files`: looked up through `book::open` (a sorted file on disk is searched
//! in place, whatever its size), its edits held over it (`edit.rs`, `book::overlay`).
//! Rows are looked up once per position and change of the books, after the key that moved
//! there ([`App::book_after_key`]), and kept until the next: drawing only reads them.
//!
//! `Ctrl-t` gives the pane the focus (`focus.rs`): `j`/`k` highlight a move, Enter plays it
//! (the record's move, else a new variation: one undo step), and the edits of `edit.rs`.
//! The move list marks where the record's line leaves the books (`leaves.rs`).

pub mod edit;
pub mod focus;
pub mod leaves;
pub(crate) mod recovery;
pub(crate) mod save;
pub mod state;

use crate::app::state::{App, Level};
use crate::book;
use crate::core::rules::{Move, Position};
pub use state::{BookRow, BookView, Books};
pub(crate) use state::{OpenBook, Store};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The rows of every book for `pos`, in the books' order, each book's moves in its order;
/// the mirrored position's after them when `flipped`.
pub(crate) fn lookup_rows(
    open: &[OpenBook],
    pos: &Position,
    prev_to: Option<crate::core::rules::Square>,
    flipped: bool,
) -> (Vec<BookRow>, Option<String>) {
    let mut rows = Vec::new();
    let mut error = None;
    let key = book::key_of(pos);
    let fkey = flipped.then(|| book::flipped_key(pos));
    for (i, b) in open.iter().enumerate() {
        for (k, is_flipped) in std::iter::once((&key, false)).chain(fkey.iter().map(|k| (k, true)))
        {
            match b.store.lookup().moves(k) {
                Ok(moves) => rows.extend(moves.into_iter().map(|m| {
                    let mv = if is_flipped {
                        book::flip_move(m.usi)
                    } else {
                        m.usi
                    };
                    let label = crate::core::notation::ki2::line_text(pos, &[mv], prev_to);
                    BookRow {
                        book: i,
                        // A move the position cannot take (a damaged book) as the book has it.
                        label: if label.is_empty() { mv.usi() } else { label },
                        mv,
                        value: m.value,
                        depth: m.depth,
                        count: m.count,
                        comment: m.comment,
                        flipped: is_flipped,
                    }
                })),
                Err(e) => error = Some(format!("{}: {e}", b.name)),
            }
        }
    }
    (rows, error)
}

impl App {
    /// The books' state.
    pub fn books(&self) -> &Books {
        &self.collection.books
    }

    /// `toggle_book` (`T`): shows or hides the book pane.
    pub(crate) fn toggle_book(&mut self) {
        let b = &mut self.collection.books;
        b.shown = !b.shown;
        if b.shown {
            self.book_after_key();
        } else {
            self.unfocus_book();
        }
    }

    /// After every key: looks the cursor's position up when the pane shows another (or the
    /// books changed), and finds again where the record leaves the books when the record or
    /// the books changed. Nothing is looked up otherwise.
    pub(crate) fn book_after_key(&mut self) {
        if self.collection.books.open.is_empty() {
            return;
        }
        self.refresh_leaves();
        let b = &self.collection.books;
        if !b.shown {
            return;
        }
        let key = book::key_of(self.position());
        if b.rows
            .as_ref()
            .is_some_and(|(k, r, _, _)| *k == key && *r == b.revision)
        {
            return;
        }
        let prev_to = (self.record().node(self.cur()).move_data()).map(|m| m.mv.to());
        let (rows, error) = lookup_rows(&b.open, self.position(), prev_to, b.flipped);
        let b = &mut self.collection.books;
        b.rows = Some((key, b.revision, rows, error));
    }

    /// What the pane shows now.
    pub fn book_view(&self) -> BookView {
        let b = &self.collection.books;
        if b.open.is_empty() {
            return BookView::NoBook;
        }
        match &b.rows {
            Some((_, _, rows, error)) => BookView::Rows {
                rows: rows.clone(),
                error: error.clone(),
            },
            None => BookView::Rows {
                rows: Vec::new(),
                error: None,
            },
        }
    }

    /// The explorer's count of games for `mv` at the cursor's position, when its pane shows
    /// this position's answer.
    pub fn explorer_games_for(&self, mv: Move) -> Option<u64> {
        if !self.explorer().shown() {
            return None;
        }
        match self.explorer_view() {
            crate::app::collection::ExplorerView::Rows {
                rows,
                updating: false,
            } => Some(
                rows.iter()
                    .find(|r| r.mv == Some(mv))
                    .map_or(0, |r| r.games),
            ),
            _ => None,
        }
    }

    /// Opens the book at `path` (a file of a format kifview reads), after those open.
    pub(crate) fn open_book(&mut self, path: &Path) -> Result<(), String> {
        if self.collection.books.open.iter().any(|b| b.path == path) {
            return Err(format!("{} is already open", path.display()));
        }
        let opened = book::open(path).map_err(|e| e.to_string())?;
        let warnings = opened.warnings.len();
        let sorted_now = opened.note.is_some();
        let bytes = opened.bytes;
        self.add_book(path, Store::Disk(opened.book), opened.format);
        self.offer_book_recovery(self.collection.books.open.len() - 1);
        let b = self.collection.books.open.last().expect("added");
        // A text book's positions are counted by reading it all: its size instead.
        let size = match b.format {
            book::Format::YaneuraOu => Some(match bytes {
                n if n < 10_000 => format!("{n} bytes"),
                n if n < 10_000_000 => format!("{} kB", n / 1000),
                n => format!("{:.1} MB", n as f64 / 1e6),
            }),
            _ => None,
        };
        let size = size.unwrap_or_else(|| format!("{} positions", b.store.lookup().len()));
        let name = b.name.clone();
        let i = self.collection.books.open.len();
        let mut text = match warnings {
            0 => format!("book {i}: {name}, {size}"),
            w => format!("book {i}: {name}, {size} ({w} lines not read)"),
        };
        if sorted_now {
            // The first opening of an unsorted text book: sorted once into the cache.
            text.push_str(" (unsorted: sorted once into a copy in the cache)");
        }
        self.info_level(
            text,
            if warnings == 0 {
                Level::Info
            } else {
                Level::Warning
            },
        );
        Ok(())
    }

    /// Adds a book held as `store` (the pane shows it once shown).
    pub(crate) fn add_book(&mut self, path: &Path, store: Store, format: book::Format) {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let b = &mut self.collection.books;
        b.open.push(OpenBook {
            path: path.to_path_buf(),
            name: crate::core::text::sanitize(&name).into_owned(),
            store,
            format,
            touched: HashMap::new(),
        });
        b.revision += 1;
        self.book_after_key();
    }

    /// The books of the config's `[books] files` and `--book FILE`, opened at launch; a book
    /// that cannot be opened is named on the status line.
    pub(crate) fn open_books_at_launch(&mut self, paths: &[PathBuf], show: bool) {
        let mut failed = Vec::new();
        for p in paths {
            if let Err(e) = self.open_book(p) {
                failed.push(e);
            }
        }
        if let Some(first) = failed.first() {
            let more = match failed.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            self.info_level(format!("book not opened: {first}{more}"), Level::Error);
        }
        self.collection.books.shown = show && !self.collection.books.open.is_empty();
        self.book_after_key();
    }
}
