//! Where the record leaves the books: along the line shown, the first move that no open book
//! holds at the position before it (the move list marks it). Found again only when the
//! record (its revision), the line shown or the books changed, after the key that changed
//! them; drawing reads the node found.

use super::state::Leaves;
use crate::app::state::App;
use crate::book;
use crate::core::record::NodeId;

/// The line is followed this far at most (a line wholly in a book ends the walk there).
const MAX_PLIES: usize = 512;

impl App {
    /// The first move of the line shown that is in no open book (`None`: no book open, or
    /// every move of the line is in one).
    pub fn leaves_book_at(&self) -> Option<NodeId> {
        let b = &self.collection.books;
        if b.open.is_empty() {
            return None;
        }
        b.leaves.at
    }

    /// Finds where the line shown leaves the books, when the record, the line or the books
    /// changed since it was found.
    pub(super) fn refresh_leaves(&mut self) {
        let line = self.line();
        let Some(&last) = line.last() else { return };
        let of = (
            self.doc.current(),
            self.collection.books.revision,
            last,
            line.len(),
        );
        if self.collection.books.leaves.of == Some(of) {
            return;
        }
        let record = self.record();
        let mut pos = record.initial.position.clone();
        let mut at = None;
        for &id in line.iter().skip(1).take(MAX_PLIES) {
            let Some(m) = record.node(id).move_data() else {
                break;
            };
            let key = book::key_of(&pos);
            let held = self.collection.books.open.iter().any(|b| {
                b.store
                    .lookup()
                    .moves(&key)
                    .is_ok_and(|ms| ms.iter().any(|x| x.usi == m.mv))
            });
            if !held {
                at = Some(id);
                break;
            }
            if pos.play_unchecked(m.mv).is_none() {
                break;
            }
        }
        self.collection.books.leaves = Leaves { of: Some(of), at };
    }
}
