//! Recovery files of the open books' unsaved edits (issue 33), as a record's (`recovery.rs`):
//! written when kifview is ended by a signal and a few seconds after edits
//! (`recovery_interval`, on a thread: `app::book::recovery`), beside the book
//! (`.NAME.kifview-book-recovery-TIME-PID.db`, else in the user's data directory), offered
//! when the book is opened again, removed once it is saved, its edits are undone or
//! discarded, it is closed or kifview quits cleanly. The file is a YaneuraOu text book of the
//! positions changed, each as it is now (`book::overlay::recovery_text`); a position with no
//! moves there was deleted. Only the edits are kept, never the book: a book of any size is
//! kept in the size of its edits.

use super::Kept;
use super::recovery::{found_in, keep_in, places_named, session_tag};
use crate::book::{self, Entry};
use std::path::{Path, PathBuf};

const WHAT: &str = "book-recovery";

/// Writes the recovery text `bytes` of the book at `path`, and says where it went.
pub fn write_book_recovery(path: &Path, bytes: &[u8]) -> Result<Kept, String> {
    let tail = format!("-{}.db", session_tag());
    keep_in(places_named(path, None, WHAT), &tail, bytes)
}

/// The recovery files other sessions left for the book at `path` (not `own`), newest first.
pub fn find_book_recoveries(path: &Path, own: &[PathBuf]) -> Vec<PathBuf> {
    found_in(places_named(path, None, WHAT), ".db", own)
}

/// The changes a book's recovery file holds (`None`: a position deleted), or why it holds
/// none.
pub fn read_book_recovery(path: &Path) -> Result<Vec<(String, Option<Entry>)>, String> {
    let bytes = crate::load::read_text_limited(path, 64 << 20)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let changes = book::overlay::read_recovery_text(bytes.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    match changes.is_empty() {
        true => Err(format!("{}: no position in it", path.display())),
        false => Ok(changes),
    }
}

/// Removes a book's recovery file (restored, declined, or the edits saved or gone).
pub fn remove_book_recovery(path: &Path) {
    let _ = std::fs::remove_file(path);
}
