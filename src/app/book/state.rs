//! The books' state: the open books, the pane's rows and highlight, where the line leaves
//! the books, the recovery files and the save under way. Data only (no `App`): the behaviour
//! is in `mod.rs`, `focus.rs`, `edit.rs`, `leaves.rs`, `recovery.rs` and `save.rs`; the
//! collection's state holds it.

use crate::app::events::Task;
use crate::book::{self, Entry, Lookup};
use crate::core::record::{NodeId, Revision};
use crate::core::rules::Move;
use std::collections::HashMap;
use std::path::PathBuf;

/// One move of the pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookRow {
    /// Which open book (0-based; the pane shows it from 1).
    pub book: usize,
    /// The move in Japanese for the side to move (`▲７六歩`).
    pub label: String,
    pub mv: Move,
    pub value: Option<i32>,
    pub depth: u32,
    pub count: u64,
    pub comment: Option<String>,
    /// Found for the mirrored position (the flipped lookup).
    pub flipped: bool,
}

/// What the pane shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookView {
    /// No book open: how to open one.
    NoBook,
    /// The rows (possibly none: the position is in no book), and a lookup that failed.
    Rows {
        rows: Vec<BookRow>,
        error: Option<String>,
    },
}

/// How a book is held: looked up where it is, and once edited with its changes over it
/// (`book::overlay`: a book of any size is edited without reading it).
pub(crate) enum Store {
    Disk(Box<dyn Lookup>),
    Edited(book::overlay::Overlay),
}

impl Store {
    pub(crate) fn lookup(&self) -> &dyn Lookup {
        match self {
            Store::Disk(b) => b.as_ref(),
            Store::Edited(b) => b,
        }
    }
}

/// An open book.
pub(crate) struct OpenBook {
    pub(crate) path: PathBuf,
    /// The file's name as the pane shows it (control characters stripped).
    pub(crate) name: String,
    pub(crate) store: Store,
    pub(crate) format: book::Format,
    /// The entries as last saved (or read) of the positions edited since (`None`: not in the
    /// book then): the book is modified while one of them differs from what it holds now.
    pub(crate) touched: HashMap<String, Option<Entry>>,
}

impl OpenBook {
    /// Is the book in a state that exists nowhere on disk? (Exact: an edit undone by hand
    /// leaves it unmodified.)
    pub(crate) fn modified(&self) -> bool {
        self.touched
            .iter()
            .any(|(k, saved)| self.store.lookup().entry(k).ok().flatten() != *saved)
    }
}

/// The books' state in `App` (held by the collection's state: what the user has beside the
/// record).
#[derive(Default)]
pub struct Books {
    pub(crate) shown: bool,
    pub(crate) open: Vec<OpenBook>,
    /// Look the mirrored position up too.
    pub(crate) flipped: bool,
    /// The highlighted row while the pane has the focus: its book and move (and whether it
    /// is a flipped one).
    pub(crate) selected: Option<(usize, Move, bool)>,
    /// Bumped at every change of the open books (opened, closed, edited).
    pub(crate) revision: u64,
    /// The rows of the position last looked up: its key and the books' revision then.
    pub(crate) rows: Option<(String, u64, Vec<BookRow>, Option<String>)>,
    /// Where the record leaves the books (`leaves.rs`).
    pub(crate) leaves: Leaves,
    /// This session's recovery files of the books' edits (`recovery.rs`).
    pub(crate) recovery: BookKeeper,
    /// The book save under way, and one waiting for it (`save.rs`).
    pub(crate) saves: BookSaves,
}

impl std::fmt::Debug for Books {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Books")
            .field("shown", &self.shown)
            .field("open", &self.open.len())
            .finish()
    }
}

impl Books {
    pub fn shown(&self) -> bool {
        self.shown
    }
    /// The open books' names, with whether each is modified.
    pub fn names(&self) -> Vec<(String, bool)> {
        self.open
            .iter()
            .map(|b| (b.name.clone(), b.modified()))
            .collect()
    }
    pub fn flipped(&self) -> bool {
        self.flipped
    }
}

/// Where the line shown leaves the books, and what it was found for (`leaves.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Leaves {
    /// (record revision, books' revision, the line's last node, its length).
    pub(crate) of: Option<(Revision, u64, NodeId, usize)>,
    pub(crate) at: Option<NodeId>,
}

/// What a write of the books' recovery files gives: each book with the file its edits went to.
pub(crate) type Written = Vec<(PathBuf, Result<PathBuf, String>)>;

/// This session's recovery files of its books, and the write under way (`recovery.rs`).
#[derive(Debug, Default)]
pub(crate) struct BookKeeper {
    /// Each book's file (by the book's path) this session wrote and has not removed.
    pub(crate) files: HashMap<PathBuf, PathBuf>,
    /// The books' revision last written.
    pub(crate) sent: Option<u64>,
    /// When the next write may start.
    pub(crate) next: Option<std::time::Instant>,
    pub(crate) running: Option<std::thread::JoinHandle<Written>>,
}

/// What follows a book save once it has ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AfterBookSave {
    Stay,
    /// Close the book at this path (if it has no unsaved edits then).
    Close(PathBuf),
    /// Quit (`force`: without asking about unsaved edits), as `q` would.
    Quit {
        force: bool,
    },
}

/// A book save under way, and one waiting for it.
#[derive(Debug, Default)]
pub(crate) struct BookSaves {
    pub(crate) running: Option<BookSaveRunning>,
    /// A save asked for while one ran: started when it ends, then does what it says.
    pub(crate) queued: Option<AfterBookSave>,
}

/// The books a save's thread writes, in order.
#[derive(Debug)]
pub(crate) struct BookSaveRunning {
    /// The save's thread: the books written, and which it writes now (an index into
    /// `books`).
    pub(crate) task: Task<Vec<BookWritten>, std::sync::atomic::AtomicUsize>,
    pub(crate) books: Vec<BookSaving>,
    pub(crate) then: AfterBookSave,
}

#[derive(Debug)]
pub(crate) struct BookSaving {
    pub(crate) path: PathBuf,
    pub(crate) name: String,
    pub(crate) watch: std::sync::Arc<book::SaveWatch>,
    /// The entries written of the positions edited since the last save (as `touched` holds
    /// them): what the file holds there once the save has ended.
    pub(crate) written: HashMap<String, Option<Entry>>,
}

/// How one book's save ended: the book as written (its snapshot), and what its format could
/// not hold with the new file opened for lookups (`None`: it could not be opened, the book is
/// looked up where it was), or why not.
pub(crate) type BookWritten = (
    book::overlay::Overlay,
    Result<(book::Losses, Option<Box<dyn Lookup>>), String>,
);
