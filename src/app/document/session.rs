//! What the session keeps of its documents' files beyond any one document: the saves (a save
//! outlives the document it began from: `:e` while one runs lets it end and only say how it
//! went) and the recovery files of every open document (`recovery::Keeper`).

use super::background::Saves;
use super::recovery::{Keeper, Kept};
use crate::app::events::Events;
use crate::app::state::{App, Level};
use std::time::Instant;

#[derive(Debug, Default)]
pub struct Session {
    pub(crate) saves: Saves,
    pub(crate) recovery: Keeper,
    /// Where the session's workers (and the collection's) send their events: the run loop's
    /// channel once the front end connected it (`app::events`).
    pub(crate) events: Events,
}

impl Session {
    /// The session shows another record: a running save ends on its own and only says how it
    /// went; a waiting one is dropped (it was for the old record).
    pub(crate) fn record_replaced(&mut self) {
        self.saves = std::mem::take(&mut self.saves).for_replaced_record();
    }
}

impl App {
    /// The run loop's turn for the recovery files: the edits of every open document written a
    /// little after they are made, the files of documents saved or closed removed (see
    /// `recovery::Keeper`). True when the status line changed (a write failed).
    pub fn recovery_tick(&mut self) -> bool {
        let docs = std::iter::once(&self.doc).chain(self.collection.stacked());
        let failed = self.session.recovery.tick(Instant::now(), docs);
        let book_failed = self.books_recovery_tick();
        let Some(failed) = failed else {
            return book_failed;
        };
        self.info_level(
            format!("unsaved edits could not be kept in a recovery file: {failed}"),
            Level::Warning,
        );
        true
    }

    /// kifview is being ended by a signal: the unsaved edits of every open document (the
    /// record shown and those left with Ctrl-o/Ctrl-n) and of every open book
    /// (`app::book::recovery`) go to recovery files now. Each
    /// document's name with where its edits went; empty when nothing was unsaved.
    pub fn keep_unsaved_edits(&mut self) -> Vec<(String, Result<Kept, String>)> {
        let docs = std::iter::once(&self.doc).chain(self.collection.stacked());
        let mut kept = self.session.recovery.keep_all(docs);
        kept.extend(self.keep_books_unsaved());
        kept
    }

    /// kifview quits cleanly: this session's recovery files go.
    pub fn end_session(&mut self) {
        self.session.recovery.finish();
        self.end_books_recovery();
    }
}
