//! Saving the open books on a thread of their own (issue 33), as a record's save runs
//! (`app::document::background`): `s` in the pane, `:book save`, and the saves a close or a
//! quit asks for take a [`Overlay::snapshot`] of each modified book (the book on disk shared,
//! its changes copied) and write them with `book::save_watched` while keys are handled and
//! the screen is drawn, the status line showing how far it is (`saving main.db… 45% of
//! 1200000 positions`); `:book stop` stops it (the files stay as they were). The thread
//! sends `Event::Book` when it ends; what was written is then taken in one step: each book
//! saved is looked up in its new file under the edits made meanwhile, which stay unsaved
//! (the modified mark exact), and its recovery file goes at the next recovery turn (kept
//! until then: the book was modified until the save ended). One book save runs at a time;
//! another asked for meanwhile waits for it (one at most), and a quit waits for it.

use super::Store;
use super::state::{AfterBookSave, BookSaveRunning, BookSaving, BookWritten};
use crate::app::events::{Event, Task, TaskState};
use crate::app::state::{App, Level};
use crate::book::{self, Entry, Lookup, SaveWatch, overlay::Overlay};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

impl App {
    /// `book_save` (`s`, `:book save`): writes every modified book to its file (atomically,
    /// in its format) on a thread, then does what `then` says.
    pub(crate) fn book_save_then(&mut self, then: AfterBookSave) {
        let saves = &mut self.collection.books.saves;
        if saves.running.is_some() {
            if saves.queued.is_some() {
                return self.info_level(
                    "not saved: a book save is running and another waits; save again when they have ended"
                        .into(),
                    Level::Warning,
                );
            }
            saves.queued = Some(then);
            return self.info("a book save is running: the books are saved again when it ends");
        }
        let mut jobs = Vec::new();
        let mut books = Vec::new();
        for b in &self.collection.books.open {
            if !b.modified() {
                continue;
            }
            let Store::Edited(o) = &b.store else {
                continue;
            };
            let written = (b.touched.keys())
                .map(|k| (k.clone(), b.store.lookup().entry(k).ok().flatten()))
                .collect();
            let watch = Arc::new(SaveWatch::default());
            jobs.push((o.snapshot(), b.path.clone(), b.format, Arc::clone(&watch)));
            books.push(BookSaving {
                path: b.path.clone(),
                name: b.name.clone(),
                watch,
                written,
            });
        }
        if books.is_empty() {
            self.info("no book has unsaved changes");
            return self.after_book_save(then, true);
        }
        let work = move |at: &AtomicUsize| {
            let mut out = Vec::new();
            for (i, (snapshot, path, format, watch)) in jobs.into_iter().enumerate() {
                at.store(i, Ordering::Relaxed);
                let done = save_one(&snapshot, &path, format, &watch);
                out.push((snapshot, done));
            }
            out
        };
        let events = self.session.events.clone();
        let task = match Task::start(
            "kifview-book-save",
            events,
            Event::Book,
            AtomicUsize::new(0),
            work,
        ) {
            Ok(task) => task,
            Err(e) => {
                return self.info_level(
                    format!("books not saved: cannot start the save: {e}"),
                    Level::Error,
                );
            }
        };
        self.collection.books.saves.running = Some(BookSaveRunning { task, books, then });
        self.wait_for_book_save_upto(self.session.saves.blocks_for);
    }

    /// Waits for the running book save, at most `limit` (`None`: until it ends), and takes
    /// its outcome when it came.
    fn wait_for_book_save_upto(&mut self, limit: Option<Duration>) {
        let Some(r) = &self.collection.books.saves.running else {
            return;
        };
        match r.task.wait(limit) {
            TaskState::Done(written) => self.finish_book_save(Some(written)),
            TaskState::Running => {}
            TaskState::Lost => self.finish_book_save(None),
        }
    }

    /// Waits until the running book save and a queued one have ended (tests, and callers
    /// that cannot go on while one runs).
    pub fn wait_for_book_saves(&mut self) {
        while self.collection.books.saves.running.is_some() {
            self.wait_for_book_save_upto(None);
        }
    }

    /// `Event::Book`: takes the outcome of a book save that ended (then starts a queued
    /// one). True when something changed.
    pub(crate) fn book_save_tick(&mut self) -> bool {
        let Some(r) = &self.collection.books.saves.running else {
            return false;
        };
        match r.task.look() {
            TaskState::Done(written) => self.finish_book_save(Some(written)),
            TaskState::Running => {}
            TaskState::Lost => self.finish_book_save(None),
        }
        true
    }

    /// Is a book save running?
    pub fn book_save_running(&self) -> bool {
        self.collection.books.saves.running.is_some()
    }

    /// The status line's account of a running book save: `saving main.db… 45% of 1200000
    /// positions (:book stop stops it)`.
    pub fn book_save_status(&self) -> Option<String> {
        let r = self.collection.books.saves.running.as_ref()?;
        let b = r.books.get(r.task.progress().load(Ordering::Relaxed))?;
        let total = b.watch.total.load(Ordering::Relaxed);
        let done = b.watch.done.load(Ordering::Relaxed);
        let name = &b.name;
        let mut s = match (done * 100).checked_div(total) {
            _ if b.watch.stop.load(Ordering::Relaxed) => format!("stopping the save of {name}…"),
            None => format!("saving {name}…"),
            Some(100..) => format!("saving {name}… writing {total} positions"),
            Some(pct) => format!("saving {name}… {pct}% of {total} positions"),
        };
        if r.books.len() > 1 {
            s.push_str(&format!(
                " (book {} of {})",
                r.task.progress().load(Ordering::Relaxed) + 1,
                r.books.len()
            ));
        }
        if self.collection.books.saves.queued.is_some() {
            s.push_str(", then again");
        }
        if matches!(r.then, AfterBookSave::Quit { .. }) {
            s.push_str(", then quit");
        }
        s.push_str(" (:book stop stops it)");
        Some(s)
    }

    /// `:book stop`: stops the running book save (each file not yet written stays as it
    /// was; no temporary file is left).
    pub(crate) fn book_save_stop(&mut self) {
        let saves = &mut self.collection.books.saves;
        let Some(r) = &saves.running else {
            return self.info("no book save is running");
        };
        for b in &r.books {
            b.watch.stop.store(true, Ordering::Relaxed);
        }
        saves.queued = None;
        self.info("stopping the book save: the books not written yet stay as they were");
    }

    /// `q` while a book save runs: the quit waits for it (and then asks, as ever, about
    /// unsaved edits). True when the quit was put off.
    pub(crate) fn quit_waits_for_book_save(&mut self, force: bool) -> bool {
        let saves = &mut self.collection.books.saves;
        let Some(r) = &mut saves.running else {
            return false;
        };
        if saves.queued.is_some() {
            saves.queued = Some(AfterBookSave::Quit { force });
        } else {
            r.then = AfterBookSave::Quit { force };
        }
        true
    }

    /// What a book save that ended means: each book written is looked up in its new file
    /// and unmodified but for the edits made meanwhile; each failure said. `None`: the
    /// thread ended without an outcome.
    fn finish_book_save(&mut self, written: Option<Vec<BookWritten>>) {
        let Some(run) = self.collection.books.saves.running.take() else {
            return;
        };
        let Some(written) = written else {
            self.collection.books.saves.queued = None;
            return self.info_level(
                "books not saved: the save stopped before it ended; the files on disk may be the old ones"
                    .into(),
                Level::Error,
            );
        };
        let mut saved = Vec::new();
        let mut failed = Vec::new();
        for (s, (snapshot, w)) in run.books.into_iter().zip(written) {
            match w {
                Ok((losses, base)) => {
                    self.book_written(&s.path, s.written, &snapshot, base);
                    let lost: Vec<String> = (losses.items.iter())
                        .map(|(w, n)| format!("{n} {w}"))
                        .collect();
                    saved.push(match lost.is_empty() {
                        true => s.name,
                        false => format!("{} (the format cannot hold {})", s.name, lost.join(", ")),
                    });
                }
                Err(e) => failed.push(format!("{}: not saved: {e}", s.name)),
            }
        }
        self.collection.books.revision += 1;
        self.book_after_key();
        let ok = failed.is_empty();
        match (failed.first(), saved.is_empty()) {
            (Some(e), true) => self.info_level(e.clone(), Level::Error),
            (Some(e), false) => {
                self.info_level(format!("saved {}; {e}", saved.join(", ")), Level::Error)
            }
            (None, _) => self.info(format!("saved {}", saved.join(", "))),
        }
        if !ok {
            // Nothing waits on a save that failed: the user sees why first.
            self.collection.books.saves.queued = None;
            return self.after_book_save(run.then, false);
        }
        match self.collection.books.saves.queued.take() {
            Some(then) => self.book_save_then(then),
            None => self.after_book_save(run.then, true),
        }
    }

    /// The book at `path` was written as it was when its save began (`snapshot`; `written`:
    /// its entries then of the positions edited before): what the file holds is its saved
    /// state, and it is looked up in the new file (`base`) from now on, under the edits made
    /// since (what the file's format could not hold is then gone from what the pane shows,
    /// as from the file).
    fn book_written(
        &mut self,
        path: &Path,
        written: HashMap<String, Option<Entry>>,
        snapshot: &Overlay,
        base: Option<Box<dyn Lookup>>,
    ) {
        // A book closed meanwhile (its edits discarded) has nothing to take.
        let Some(b) = (self.collection.books.open.iter_mut()).find(|b| b.path == path) else {
            return;
        };
        match &base {
            // The file as it is now: exact for every position edited, before or since.
            Some(base) => {
                for (k, saved) in b.touched.iter_mut() {
                    *saved = base.entry(k).ok().flatten();
                }
            }
            None => b.touched.extend(written),
        }
        if let (Store::Edited(o), Some(base)) = (&mut b.store, base) {
            o.rebase(base, snapshot);
        }
        let now = |k: &str| b.store.lookup().entry(k).ok().flatten();
        let still: HashMap<String, Option<Entry>> = (b.touched.drain())
            .filter(|(k, saved)| now(k) != *saved)
            .collect();
        b.touched = still;
    }

    /// What follows a book save (`ok`: every book was written).
    fn after_book_save(&mut self, then: AfterBookSave, ok: bool) {
        match then {
            AfterBookSave::Stay => {}
            AfterBookSave::Close(path) => {
                let i = (self.collection.books.open.iter()).position(|b| b.path == path);
                match i {
                    Some(i) if !self.collection.books.open[i].modified() => self.close_book(i),
                    Some(i) => {
                        let name = self.collection.books.open[i].name.clone();
                        self.info_level(
                            format!("{name} stays open: it holds unsaved changes"),
                            Level::Warning,
                        );
                    }
                    None => {}
                }
            }
            AfterBookSave::Quit { force } if ok || force => self.request_quit(force),
            AfterBookSave::Quit { .. } => {}
        }
    }
}

/// The save thread's work for one book: written in its format, then opened again to be
/// looked up there.
fn save_one(
    book: &dyn Lookup,
    path: &Path,
    format: book::Format,
    watch: &SaveWatch,
) -> Result<(book::Losses, Option<Box<dyn Lookup>>), String> {
    match book::save_watched(book, path, format, watch) {
        Ok(losses) => Ok((losses, book::open(path).ok().map(|o| o.book))),
        Err(e) => Err(e.to_string()),
    }
}
