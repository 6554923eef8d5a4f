//! The open books' unsaved edits kept for a session that ends badly (issue 33), as the
//! records' are (`app::document::recovery`): each modified book's edits go to a recovery
//! file a little after they are made (at most every `recovery_interval`, on a thread of their
//! own, on the run loop's recovery event), and at once when kifview is ended by a signal;
//! the file goes when the book has no unsaved edits any more (saved, undone, discarded,
//! closed) and when kifview quits cleanly. Opening a book offers the files other sessions
//! left for it: restore (the edits come back unsaved), leave, or delete. The files themselves
//! are `app::document::book_recovery`'s.

use super::Store;
use super::state::BookKeeper;
use crate::app::document::{self, Kept};
use crate::app::overlay::{Answer, Mode};
use crate::app::state::{App, Level};
use crate::book::{self, Entry};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Waits for `k`'s write under way (or, unless `wait`, takes it only when it has ended),
/// notes where it went; the last error, if any.
fn collect(k: &mut BookKeeper, wait: bool) -> Option<String> {
    if !wait && k.running.as_ref().is_some_and(|h| !h.is_finished()) {
        return None;
    }
    let done = k.running.take()?.join().unwrap_or_default();
    let mut failed = None;
    for (book, kept) in done {
        match kept {
            Ok(file) => {
                if let Some(old) = k.files.insert(book, file.clone())
                    && old != file
                {
                    document::remove_book_recovery(&old);
                }
            }
            Err(e) => failed = Some(e),
        }
    }
    failed
}

impl App {
    /// The modified books with the recovery text of their edits.
    fn books_edits(&self) -> Vec<(PathBuf, String, Vec<u8>)> {
        let books = &self.collection.books.open;
        (books.iter().filter(|b| b.modified()))
            .map(|b| {
                let now: Vec<(&String, Option<Entry>)> = (b.touched.keys())
                    .map(|k| (k, b.store.lookup().entry(k).ok().flatten()))
                    .collect();
                let text =
                    book::overlay::recovery_text(now.iter().map(|(k, e)| (k.as_str(), e.as_ref())));
                (b.path.clone(), b.name.clone(), text)
            })
            .collect()
    }

    /// The run loop's recovery turn for the books: a finished write noted, the files of books
    /// with no unsaved edits removed, the edits changed since the last write sent to be
    /// written (when `recovery_interval` has passed since it). True when a write failed (said
    /// on the status line).
    pub(crate) fn books_recovery_tick(&mut self) -> bool {
        let Some(interval) = self.session.recovery.interval() else {
            return false;
        };
        let failed = collect(&mut self.collection.books.recovery, false);
        if self.collection.books.recovery.running.is_some() {
            return false;
        }
        let edits = self.books_edits();
        let revision = self.collection.books.revision;
        let k = &mut self.collection.books.recovery;
        k.files.retain(|book, file| {
            let keep = edits.iter().any(|(p, _, _)| p == book);
            if !keep {
                document::remove_book_recovery(file);
            }
            keep
        });
        let now = Instant::now();
        if !edits.is_empty() && k.sent != Some(revision) && k.next.is_none_or(|n| now >= n) {
            k.sent = Some(revision);
            k.next = Some(now + interval);
            let jobs: Vec<(PathBuf, Vec<u8>)> = edits.into_iter().map(|(p, _, t)| (p, t)).collect();
            k.running = std::thread::Builder::new()
                .name("kifview-book-recovery".into())
                .spawn(move || {
                    (jobs.into_iter())
                        .map(|(p, t)| {
                            let kept = document::write_book_recovery(&p, &t).map(|k| k.path);
                            (p, kept)
                        })
                        .collect()
                })
                .ok();
        }
        let Some(e) = failed else {
            return false;
        };
        self.info_level(
            format!("a book's unsaved edits could not be kept in a recovery file: {e}"),
            Level::Warning,
        );
        true
    }

    /// kifview is being ended by a signal: every modified book's edits go to its recovery
    /// file now (after the write under way). Each book's name with where they went.
    pub(crate) fn keep_books_unsaved(&mut self) -> Vec<(String, Result<Kept, String>)> {
        collect(&mut self.collection.books.recovery, true);
        let mut out = Vec::new();
        for (path, name, text) in self.books_edits() {
            let kept = document::write_book_recovery(&path, &text);
            if let Ok(k) = &kept {
                self.collection
                    .books
                    .recovery
                    .files
                    .insert(path, k.path.clone());
            }
            out.push((name, kept));
        }
        out
    }

    /// A clean quit: the books' recovery files go (their edits were saved or discarded).
    pub(crate) fn end_books_recovery(&mut self) {
        let k = &mut self.collection.books.recovery;
        collect(k, true);
        for (_, file) in k.files.drain() {
            document::remove_book_recovery(&file);
        }
    }

    /// Offers the recovery files other sessions left for book `i`, just opened (the newest;
    /// opening the book again offers the others). While another question is open (the
    /// record's own recovery at launch), says so on the status line instead.
    pub(crate) fn offer_book_recovery(&mut self, i: usize) {
        let b = &self.collection.books.open[i];
        let own: Vec<PathBuf> = self
            .collection
            .books
            .recovery
            .files
            .values()
            .cloned()
            .collect();
        let found = document::find_book_recoveries(&b.path, &own);
        let Some(file) = found.first().cloned() else {
            return;
        };
        let (name, path) = (b.name.clone(), b.path.clone());
        if self.mode() == Mode::Confirm {
            return self.info_level(
                format!(
                    "{name}: unsaved edits an earlier session kept are in {} (:book close, then :book open it to be offered them)",
                    file.display()
                ),
                Level::Warning,
            );
        }
        let details = vec![format!("  {}", file.display())];
        match document::read_book_recovery(&file) {
            Err(why) => self.ask(
                format!("A recovery file of {name} holds no edits ({why}). Delete it?"),
                details,
                vec![(Answer::Delete, "delete it"), (Answer::No, "leave it")],
                move |app, a| app.answer_book_recovery(&path, &file, None, a),
            ),
            Ok(changes) => self.ask(
                format!(
                    "Restore the unsaved edits of {name} kept when kifview was ended ({} position{} changed)?",
                    changes.len(),
                    if changes.len() == 1 { "" } else { "s" }
                ),
                details,
                vec![
                    (Answer::Yes, "restore"),
                    (Answer::No, "open the book as saved"),
                    (Answer::Delete, "delete them"),
                ],
                move |app, a| app.answer_book_recovery(&path, &file, Some(&changes), a),
            ),
        }
    }

    /// The answer to "restore the edits of the book at `book` kept in `file`?".
    fn answer_book_recovery(
        &mut self,
        book: &Path,
        file: &Path,
        changes: Option<&[(String, Option<Entry>)]>,
        a: Answer,
    ) {
        let i = self
            .collection
            .books
            .open
            .iter()
            .position(|b| b.path == book);
        match (a, i, changes) {
            (Answer::Yes, Some(i), Some(changes)) => {
                for (k, e) in changes {
                    match self.editable(i, k) {
                        Ok(o) => o.set(k, e.clone()),
                        Err(e) => {
                            return self.info_level(format!("not restored: {e}"), Level::Error);
                        }
                    }
                }
                document::remove_book_recovery(file);
                self.book_after_key();
                let b = &self.collection.books.open[i];
                let name = b.name.clone();
                if !matches!(b.store, Store::Edited(_)) || !b.modified() {
                    return self.info(format!("{name}: the kept edits are what the book holds"));
                }
                self.info(format!(
                    "unsaved edits of {name} restored (s in the book pane, or :book save, saves them)"
                ));
            }
            (Answer::Delete, ..) => {
                document::remove_book_recovery(file);
                self.info("recovery file deleted; the book is as it was saved");
            }
            _ => self.info(format!(
                "the recovery file stays: {} (opening the book again offers it)",
                file.display()
            )),
        }
    }
}
