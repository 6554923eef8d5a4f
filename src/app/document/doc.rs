//! The document: the record shown with its whole lifecycle, as helix's `Document` owns its
//! text, history and last saved revision. It holds the record, its undo history (whose
//! [`Revision`] says which state of the record is on disk), its version (a count of changes,
//! which caches compare against), where the cursor was at each undo step, where the record
//! came from ([`RecordSource`]) and whether that file is followed ([`Watch`]). Every change of the record goes
//! through [`Document::apply`], [`Document::undo`], [`Document::redo`] or
//! [`Document::apply_comments`]; a save's outcome reaches it through [`Document::saved`].
//! Showing another record replaces the document as a whole ([`Document::replaced_by`]). The
//! saves are the session's (`session.rs`): a save outlives the document it began from.

use super::RecordSource;
use super::Watch;
use crate::app::outline::{self, Outline};
use crate::core::notation::{Format, TextInfo};
use crate::core::record::{Edit, EditError, History, NodeId, Record, Revision};
use std::path::Path;

/// The record shown and everything that lives and dies with it.
#[derive(Debug)]
pub struct Document {
    /// This document's number in the session (names its recovery file).
    id: u64,
    record: Record,
    /// Undo and redo, and which revision was saved.
    history: History,
    /// Bumped by every change of the record (caches compare against it).
    version: u64,
    /// Where the cursor was after each undoable edit (parallel to the history's undo stack),
    /// so redo returns there too.
    focus_undo: Vec<NodeId>,
    focus_redo: Vec<NodeId>,
    /// Following the file (`--watch`, `watch.rs`); `None` when off.
    pub(crate) watch: Option<Watch>,
    source: RecordSource,
    /// The reader's warnings that name a move, by node (`line_view.rs`).
    move_warnings: Vec<(NodeId, usize)>,
    /// The version at which the tree's shape (which node follows which) last changed: a
    /// comment, a bookmark or the header leave it, and the outline with it.
    shape: u64,
    /// The tree outline and the shape it was built for, built on first use after each
    /// change of the tree's shape.
    outline: Option<(u64, Outline)>,
    /// The node whose children the one change of shape since the outline was made changed
    /// (`Outline::update` takes it); `None` when there were more, or it was not one node.
    reshaped: Option<NodeId>,
}

/// What a save that wrote the session's own file (not a copy) changes in the document.
pub(crate) struct Saved<'a> {
    pub path: &'a Path,
    pub stamp: super::checks::DiskStamp,
    pub format: Format,
    pub info: TextInfo,
    /// A file of several records written whole: the text of each record as written.
    pub texts: Option<Vec<String>>,
}

impl Document {
    /// `record`, as read from `source`, with no history (its state counts as saved).
    pub fn new(record: Record, source: RecordSource) -> Document {
        // The warnings that name a move, by node, for the move list.
        let mut move_warnings: Vec<(NodeId, usize)> = (source.warnings.iter().enumerate())
            .filter_map(|(i, w)| w.node.map(|n| (n, i)))
            .collect();
        move_warnings.sort_unstable();
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Document {
            id: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            record,
            history: History::new(),
            version: 0,
            focus_undo: Vec::new(),
            focus_redo: Vec::new(),
            watch: None,
            source,
            move_warnings,
            shape: 0,
            outline: None,
            reshaped: None,
        }
    }

    /// The document that shows `record` of `source` in place of this one: everything of the
    /// old record goes with it, except the following of a file (a reload is a replacement).
    pub(crate) fn replaced_by(&mut self, record: Record, source: RecordSource) {
        let watch = self.watch.take();
        *self = Document {
            watch,
            ..Document::new(record, source)
        };
    }

    pub fn record(&self) -> &Record {
        &self.record
    }
    /// This document's number in the session.
    pub fn id(&self) -> u64 {
        self.id
    }
    pub fn source(&self) -> &RecordSource {
        &self.source
    }
    pub fn history(&self) -> &History {
        &self.history
    }
    /// Bumped by every change of the record (caches compare against it).
    pub fn version(&self) -> u64 {
        self.version
    }
    /// Is the record in a state that exists nowhere on disk?
    pub fn is_modified(&self) -> bool {
        self.history.is_modified()
    }
    /// The reader's warnings that name a move, by node.
    pub(crate) fn move_warnings(&self) -> &[(NodeId, usize)] {
        &self.move_warnings
    }

    /// Applies `edit` as one undo step (`cursor`: where the user was); returns where it
    /// happened, which is where the cursor goes.
    pub(crate) fn apply(&mut self, edit: Edit, cursor: NodeId) -> Result<NodeId, EditError> {
        let (reshapes, node) = reshaping(&edit, &self.record);
        self.note_reshape(reshapes, node);
        let focus = self.history.apply(&mut self.record, edit, cursor)?;
        self.changed(reshapes);
        self.focus_undo.push(focus);
        self.focus_redo.clear();
        Ok(focus)
    }

    /// `edit` joined to the last step when the record is at it (`History::apply_joined`: a
    /// game's reply and the times of its moves join the move they answer), else a step of
    /// its own; returns where it happened.
    pub(crate) fn apply_joined(&mut self, edit: Edit, cursor: NodeId) -> Result<NodeId, EditError> {
        let (reshapes, node) = reshaping(&edit, &self.record);
        self.note_reshape(reshapes, node);
        let alone = !self.history.at_last_step();
        let focus = self.history.apply_joined(&mut self.record, edit, cursor)?;
        self.changed(reshapes);
        if alone {
            self.focus_undo.push(focus);
            self.focus_redo.clear();
        } else {
            self.settle(focus);
        }
        Ok(focus)
    }

    /// Comments written by a running analysis: joined to its last step when `extend` and
    /// that step is the analysis's own (`History::apply_comments`), else a step of their own.
    pub(crate) fn apply_comments(
        &mut self,
        texts: Vec<(NodeId, String)>,
        cursor: NodeId,
        extend: bool,
    ) -> Result<(), EditError> {
        self.history
            .apply_comments(&mut self.record, texts, cursor, extend)?;
        if !extend {
            self.focus_undo.push(cursor);
            self.focus_redo.clear();
        }
        self.changed(false);
        Ok(())
    }

    /// Remembers `id` as where the last edit left the cursor (redo returns there).
    pub(crate) fn settle(&mut self, id: NodeId) {
        if let Some(f) = self.focus_undo.last_mut() {
            *f = id;
        }
    }

    /// Undoes the last step; where the cursor goes, `None` when there was nothing to undo.
    pub(crate) fn undo(&mut self, cursor: NodeId) -> Option<NodeId> {
        let next = self.history.next_undo()?;
        let (reshapes, node) = reshaping(next, &self.record);
        self.note_reshape(reshapes, node);
        let to = self.history.undo(&mut self.record, cursor)?;
        if let Some(f) = self.focus_undo.pop() {
            self.focus_redo.push(f);
        }
        self.changed(reshapes);
        Some(to)
    }

    /// Redoes the last undone step; where the cursor goes (where it was after the edit when
    /// that node is still in the record).
    pub(crate) fn redo(&mut self, cursor: NodeId) -> Option<NodeId> {
        let next = self.history.next_redo()?;
        let (reshapes, node) = reshaping(next, &self.record);
        self.note_reshape(reshapes, node);
        let to = self.history.redo(&mut self.record, cursor)?;
        let to = match self.focus_redo.pop() {
            Some(f) => {
                self.focus_undo.push(f);
                if self.record.is_attached(f) { f } else { to }
            }
            None => to,
        };
        self.changed(reshapes);
        Some(to)
    }

    /// A change of the record; of its shape too when `reshapes`.
    fn changed(&mut self, reshapes: bool) {
        self.version += 1;
        if reshapes {
            self.shape = self.version;
        }
    }

    /// Notes, before a change that `reshapes` the tree, the node whose children it changes
    /// for the outline, when the outline is current (so that this is the one change since it
    /// was made).
    fn note_reshape(&mut self, reshapes: bool, node: Option<NodeId>) {
        if reshapes {
            let current = matches!(&self.outline, Some((shape, _)) if *shape == self.shape);
            self.reshaped = node.filter(|_| current);
        }
    }

    /// The record shown exists nowhere on disk (restored from a recovery file): modified
    /// until it is saved, also after undoing every step.
    pub(crate) fn mark_unsaved(&mut self) {
        self.history = History::unsaved();
    }

    /// The revision a save begins with (what it writes).
    pub(crate) fn current(&self) -> Revision {
        self.history.current()
    }

    /// A save ended: `whole` says the record as it was at `revision` is on disk with nothing
    /// left out (edits made since keep it modified); `own` is set when the save wrote the
    /// session's own file (not a copy), which is now the document's file.
    pub(crate) fn saved(&mut self, revision: Revision, whole: bool, own: Option<Saved<'_>>) {
        if whole {
            self.history.mark_saved_at(revision);
        }
        if let Some(s) = own {
            self.source.wrote_over(s);
        }
    }

    /// The tree outline (built on first use after each change of the tree's shape).
    pub fn outline(&mut self) -> &Outline {
        let shape = self.shape;
        match (&mut self.outline, self.reshaped.take()) {
            (Some((built, _)), _) if *built == shape => {}
            (Some((built, o)), Some(node)) => {
                o.update(&self.record, node);
                *built = shape;
            }
            _ => self.outline = Some((shape, Outline::build(&self.record))),
        }
        &self.outline.as_ref().expect("just built").1
    }
    /// Will the next `outline` update the last one in place (tests count it)?
    #[cfg(test)]
    pub(crate) fn outline_update_pending(&self) -> bool {
        self.outline.is_some() && self.reshaped.is_some()
    }
    /// The outline if it is built and current.
    pub fn outline_cached(&self) -> Option<&Outline> {
        match &self.outline {
            Some((shape, o)) if *shape == self.shape => Some(o),
            _ => None,
        }
    }
}

/// Does `edit`, about to be applied to `record`, change the tree's shape, and the children
/// of which one node (`outline::reshaped_node`)?
fn reshaping(edit: &Edit, record: &Record) -> (bool, Option<NodeId>) {
    match changes_shape(edit) {
        true => (true, outline::reshaped_node(record, edit)),
        false => (false, None),
    }
}

/// Can `edit` change which node follows which (and so the outline)? Comments, bookmarks and
/// the header cannot.
fn changes_shape(edit: &Edit) -> bool {
    !matches!(
        edit,
        Edit::SetComment { .. }
            | Edit::SetComments(_)
            | Edit::SetBookmark { .. }
            | Edit::SetHeader(_)
            | Edit::SetTime { .. }
    )
}
