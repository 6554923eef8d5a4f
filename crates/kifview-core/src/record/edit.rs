//! Edits are values: `Record::apply(edit)` either changes the record and returns the inverse
//! edit, or changes nothing and says why. Undo/redo is a stack of inverses (see `History`).
//!
//! Removing a subtree detaches it from its parent but keeps its nodes in the arena, so undo
//! reattaches the very same nodes and every `NodeId` held elsewhere stays valid.

use super::{Children, Header, Initial, MoveData, MoveTime, NodeId, Record, Special, Step};
use crate::rules::{Illegal, Move};
use std::fmt;

/// A change to a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Edit {
    /// Add a move after `parent` as its last child (a new variation if it has children).
    AddMove {
        parent: NodeId,
        mv: Move,
    },
    /// Add the moves after `parent` as one new line: the first as `parent`'s last child,
    /// each next one after it (an engine's line inserted as a variation). All moves are
    /// checked first; on an illegal one nothing changes. The cursor goes to the last move.
    AddLine {
        parent: NodeId,
        moves: Vec<Move>,
    },
    /// End the line after `parent` with a special ending (as its last child).
    AddSpecial {
        parent: NodeId,
        special: Special,
    },
    /// Detach `node` and everything after it from the tree.
    Detach {
        node: NodeId,
    },
    /// Put a detached `node` back as child number `index` of `parent`.
    Reattach {
        node: NodeId,
        parent: NodeId,
        index: usize,
    },
    /// Move `node` to position `index` among its siblings.
    Reorder {
        node: NodeId,
        index: usize,
    },
    /// Make the line through `node` the main line at every fork from the root.
    PromoteToMain {
        node: NodeId,
    },
    /// Put each node back at its sibling index (the inverse of `PromoteToMain`).
    RestoreOrder(Vec<(NodeId, usize)>),
    /// Remove every continuation after `node` (cut the record there).
    CutAfter {
        node: NodeId,
    },
    /// Give `node` these children again (the inverse of `CutAfter`).
    RestoreChildren {
        node: NodeId,
        children: Children,
    },
    SetComment {
        node: NodeId,
        text: String,
    },
    /// Set many comments at once (a whole game analysis: one undo step). Every node is
    /// checked first; on a detached one nothing changes.
    SetComments(Vec<(NodeId, String)>),
    SetBookmark {
        node: NodeId,
        name: Option<String>,
    },
    SetHeader(Header),
    /// Give a record without moves another start position (and the header that goes with
    /// it, e.g. its 手合割 field).
    SetStart {
        initial: Box<Initial>,
        header: Header,
    },
    /// Set the time spent on `node` (a move or an ending; `None`: no time).
    SetTime {
        node: NodeId,
        time: Option<MoveTime>,
    },
    /// Several edits as one, applied in order (a game's move with its time and the
    /// opponent's reply: one undo step). On an error nothing changes (the edits applied
    /// before it are undone). The inverse is the inverses in reverse order; the cursor goes
    /// where the last one put it.
    Batch(Vec<Edit>),
}

/// What an applied edit left behind: the edit that undoes it and where the cursor belongs.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Applied {
    pub inverse: Edit,
    /// The node the user should be looking at after this edit.
    pub focus: NodeId,
}

/// Why an edit was refused (the record is unchanged).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EditError {
    /// The move breaks a rule.
    Illegal(Illegal),
    /// Nothing can follow a special ending.
    AfterEnding,
    /// The root cannot be deleted, moved or reordered.
    Root,
    /// A node id that is not (or no longer) in the tree.
    NoSuchNode,
    /// A sibling index out of range.
    BadIndex,
    /// The start position of a record that has moves cannot change.
    HasMoves,
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::Illegal(i) => write!(f, "illegal move: {i}"),
            EditError::AfterEnding => f.write_str("the line has already ended here"),
            EditError::Root => f.write_str("the start position cannot be changed this way"),
            EditError::NoSuchNode => f.write_str("that move is no longer in the record"),
            EditError::BadIndex => f.write_str("no such place among the alternatives"),
            EditError::HasMoves => {
                f.write_str("the record has moves: its start position cannot change")
            }
        }
    }
}

impl std::error::Error for EditError {}

impl Record {
    /// `id` and every node below it, in depth-first pre-order (no recursion): what deleting
    /// `id` removes.
    pub fn preorder_from(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.node(n).children.iter().rev());
        }
        out
    }

    /// Is `id` attached to the tree (reachable from the root)?
    pub fn is_attached(&self, id: NodeId) -> bool {
        if id.index() >= self.nodes.len() {
            return false;
        }
        let mut cur = id;
        loop {
            match self.node(cur).parent {
                None => return cur == NodeId::ROOT,
                Some(p) => {
                    if !self.node(p).children.contains(&cur) {
                        return false;
                    }
                    cur = p;
                }
            }
        }
    }

    /// The move data for playing `mv` after `parent`, if the move is legal there.
    pub fn move_data_at(&self, parent: NodeId, mv: Move) -> Result<MoveData, EditError> {
        if matches!(self.node(parent).step, Step::Special(_)) {
            return Err(EditError::AfterEnding);
        }
        self.position_at(parent)
            .play_move(mv)
            .map_err(EditError::Illegal)
    }

    /// Applies `edit`; on error nothing changed.
    pub fn apply(&mut self, edit: Edit) -> Result<Applied, EditError> {
        let check = |r: &Record, id: NodeId| {
            if r.is_attached(id) {
                Ok(())
            } else {
                Err(EditError::NoSuchNode)
            }
        };
        match edit {
            Edit::AddMove { parent, mv } => {
                check(self, parent)?;
                let data = self.move_data_at(parent, mv)?;
                let id = self.push_child(parent, Step::Move(data));
                Ok(Applied {
                    inverse: Edit::Detach { node: id },
                    focus: id,
                })
            }
            Edit::AddLine { parent, moves } => {
                check(self, parent)?;
                let mut data = Vec::with_capacity(moves.len());
                let mut pos = self.position_at(parent);
                if matches!(self.node(parent).step, Step::Special(_)) {
                    return Err(EditError::AfterEnding);
                }
                for mv in moves {
                    data.push(pos.play_move(mv).map_err(EditError::Illegal)?);
                }
                let mut at = parent;
                let mut first = None;
                for d in data {
                    at = self.push_child(at, Step::Move(d));
                    first.get_or_insert(at);
                }
                let first = first.ok_or(EditError::BadIndex)?;
                Ok(Applied {
                    inverse: Edit::Detach { node: first },
                    focus: at,
                })
            }
            Edit::AddSpecial { parent, special } => {
                check(self, parent)?;
                if matches!(self.node(parent).step, Step::Special(_)) {
                    return Err(EditError::AfterEnding);
                }
                let id = self.push_child(parent, Step::Special(special));
                Ok(Applied {
                    inverse: Edit::Detach { node: id },
                    focus: id,
                })
            }
            Edit::Detach { node } => {
                check(self, node)?;
                let parent = self.node(node).parent.ok_or(EditError::Root)?;
                let index = self.sibling_index(node);
                self.node_mut(parent).children.remove(index);
                Ok(Applied {
                    inverse: Edit::Reattach {
                        node,
                        parent,
                        index,
                    },
                    focus: parent,
                })
            }
            Edit::Reattach {
                node,
                parent,
                index,
            } => {
                check(self, parent)?;
                if node.index() >= self.nodes.len() || self.node(node).parent != Some(parent) {
                    return Err(EditError::NoSuchNode);
                }
                if index > self.node(parent).children.len() {
                    return Err(EditError::BadIndex);
                }
                self.node_mut(parent).children.insert(index, node);
                Ok(Applied {
                    inverse: Edit::Detach { node },
                    focus: node,
                })
            }
            Edit::Reorder { node, index } => {
                check(self, node)?;
                let parent = self.node(node).parent.ok_or(EditError::Root)?;
                let old = self.sibling_index(node);
                let kids = &mut self.nodes[parent.index()].children;
                if index >= kids.len() {
                    return Err(EditError::BadIndex);
                }
                let n = kids.remove(old);
                kids.insert(index, n);
                Ok(Applied {
                    inverse: Edit::Reorder { node, index: old },
                    focus: node,
                })
            }
            Edit::PromoteToMain { node } => {
                check(self, node)?;
                let mut old = Vec::new();
                for id in self.path(node).into_iter().skip(1) {
                    let i = self.sibling_index(id);
                    if i != 0 {
                        old.push((id, i));
                        let p = self.node(id).parent.expect("not root");
                        let kids = &mut self.nodes[p.index()].children;
                        let n = kids.remove(i);
                        kids.insert(0, n);
                    }
                }
                old.reverse();
                Ok(Applied {
                    inverse: Edit::RestoreOrder(old),
                    focus: node,
                })
            }
            Edit::RestoreOrder(list) => {
                for &(id, _) in &list {
                    check(self, id)?;
                }
                let mut inverse = Vec::new();
                let mut focus = NodeId::ROOT;
                for (id, index) in list {
                    let p = self.node(id).parent.ok_or(EditError::Root)?;
                    let cur = self.sibling_index(id);
                    let kids = &mut self.nodes[p.index()].children;
                    let n = kids.remove(cur);
                    kids.insert(index.min(kids.len()), n);
                    inverse.push((id, cur));
                    focus = id;
                }
                inverse.reverse();
                Ok(Applied {
                    inverse: Edit::RestoreOrder(inverse),
                    focus,
                })
            }
            Edit::CutAfter { node } => {
                check(self, node)?;
                let children = std::mem::take(&mut self.node_mut(node).children);
                Ok(Applied {
                    inverse: Edit::RestoreChildren { node, children },
                    focus: node,
                })
            }
            Edit::RestoreChildren { node, children } => {
                check(self, node)?;
                let old = std::mem::replace(&mut self.node_mut(node).children, children);
                Ok(Applied {
                    inverse: Edit::RestoreChildren {
                        node,
                        children: old,
                    },
                    focus: node,
                })
            }
            Edit::SetComment { node, text } => {
                check(self, node)?;
                let old = std::mem::replace(&mut self.node_mut(node).comment, text);
                Ok(Applied {
                    inverse: Edit::SetComment { node, text: old },
                    focus: node,
                })
            }
            Edit::SetComments(texts) => {
                for &(node, _) in &texts {
                    check(self, node)?;
                }
                let focus = texts.first().map_or(NodeId::ROOT, |t| t.0);
                let mut old: Vec<(NodeId, String)> = texts
                    .into_iter()
                    .map(|(node, text)| {
                        (
                            node,
                            std::mem::replace(&mut self.node_mut(node).comment, text),
                        )
                    })
                    .collect();
                // Undone in reverse: a node listed twice gets its first old text back.
                old.reverse();
                Ok(Applied {
                    inverse: Edit::SetComments(old),
                    focus,
                })
            }
            Edit::SetBookmark { node, name } => {
                check(self, node)?;
                let old = std::mem::replace(&mut self.node_mut(node).bookmark, name);
                Ok(Applied {
                    inverse: Edit::SetBookmark { node, name: old },
                    focus: node,
                })
            }
            Edit::SetHeader(h) => {
                let old = std::mem::replace(&mut self.header, h);
                Ok(Applied {
                    inverse: Edit::SetHeader(old),
                    focus: NodeId::ROOT,
                })
            }
            Edit::SetTime { node, time } => {
                check(self, node)?;
                if node == NodeId::ROOT {
                    return Err(EditError::Root);
                }
                let old = std::mem::replace(&mut self.node_mut(node).time, time);
                Ok(Applied {
                    inverse: Edit::SetTime { node, time: old },
                    focus: node,
                })
            }
            Edit::Batch(edits) => {
                let mut inverses = Vec::with_capacity(edits.len());
                let mut focus = NodeId::ROOT;
                for e in edits {
                    match self.apply(e) {
                        Ok(a) => {
                            inverses.push(a.inverse);
                            focus = a.focus;
                        }
                        Err(err) => {
                            for inv in inverses.into_iter().rev() {
                                let _ = self.apply(inv);
                            }
                            return Err(err);
                        }
                    }
                }
                inverses.reverse();
                Ok(Applied {
                    inverse: Edit::Batch(inverses),
                    focus,
                })
            }
            Edit::SetStart { initial, header } => {
                if !self.node(NodeId::ROOT).children.is_empty() {
                    return Err(EditError::HasMoves);
                }
                Ok(Applied {
                    inverse: Edit::SetStart {
                        initial: Box::new(std::mem::replace(&mut self.initial, *initial)),
                        header: std::mem::replace(&mut self.header, header),
                    },
                    focus: NodeId::ROOT,
                })
            }
        }
    }
}

/// One undoable step: the edit that goes back (or forward), where the cursor was, and the
/// revisions on either side of it.
#[derive(Clone, Debug)]
struct Entry {
    edit: Edit,
    cursor: NodeId,
    /// The revision before the step (undo returns to it) and after it (redo returns to it).
    before: Revision,
    after: Revision,
}

/// A state of the record, as helix numbers its revisions: every applied edit makes a new
/// one; undo and redo move between them. Two states with the same revision are the same
/// record, so "saved" is a revision, not a count.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Revision(u64);

/// Undo and redo stacks of edits. Navigation is not an edit and never touches this.
///
/// The record is modified exactly when its current revision is not the last one written
/// whole to disk (`current != saved`): save, undo, then a different edit is a revision never
/// saved, and undoing back to the saved one is clean again.
#[derive(Clone, Debug, Default)]
pub struct History {
    undo: Vec<Entry>,
    redo: Vec<Entry>,
    /// The revision the record is at (0: as opened).
    current: Revision,
    /// The last revision written whole to disk (0: the record as opened).
    saved: Revision,
    /// The newest revision handed out.
    newest: Revision,
}

impl History {
    /// A history whose start state counts as saved (a record read from a file, or an empty
    /// one).
    pub fn new() -> History {
        History::default()
    }
    /// A history whose start state exists nowhere on disk (a record restored from a recovery
    /// file): modified until it is saved, also after undoing every step.
    pub fn unsaved() -> History {
        History {
            saved: Revision(u64::MAX),
            ..History::default()
        }
    }
    /// Applies `edit` to `record` as a new undoable step; `cursor` is where the user was.
    pub fn apply(
        &mut self,
        record: &mut Record,
        edit: Edit,
        cursor: NodeId,
    ) -> Result<NodeId, EditError> {
        let applied = record.apply(edit)?;
        self.newest.0 += 1;
        let after = self.newest;
        self.undo.push(Entry {
            edit: applied.inverse,
            cursor,
            before: self.current,
            after,
        });
        self.redo.clear();
        self.current = after;
        Ok(applied.focus)
    }
    /// Applies a [`Edit::SetComments`] as part of the last step when that step is one too
    /// and the record is at it (a running analysis adds each comment to its one undo step);
    /// else as a new step.
    pub fn apply_comments(
        &mut self,
        record: &mut Record,
        texts: Vec<(NodeId, String)>,
        cursor: NodeId,
        extend: bool,
    ) -> Result<NodeId, EditError> {
        let last_is_comments = matches!(
            self.undo.last(),
            Some(Entry { edit: Edit::SetComments(_), after, .. }) if *after == self.current
        );
        if !(extend && last_is_comments) {
            return self.apply(record, Edit::SetComments(texts), cursor);
        }
        let applied = record.apply(Edit::SetComments(texts))?;
        let Edit::SetComments(mut old) = applied.inverse else {
            unreachable!("SetComments inverts to SetComments")
        };
        self.newest.0 += 1;
        let after = self.newest;
        let e = self.undo.last_mut().expect("checked above");
        if let Edit::SetComments(earlier) = &mut e.edit {
            // Undo applies the inverse from the front: the newest old texts go first, so
            // the step's own first old text is applied last and wins.
            old.append(earlier);
            *earlier = old;
        }
        e.after = after;
        self.redo.clear();
        self.current = after;
        Ok(applied.focus)
    }
    /// Applies `edit` as part of the last step when the record is at it (a game's reply joins
    /// the move it answers: one takeback undoes both); else, or with nothing to join, as a
    /// new step. Undoing the joined step undoes both, the newer first.
    pub fn apply_joined(
        &mut self,
        record: &mut Record,
        edit: Edit,
        cursor: NodeId,
    ) -> Result<NodeId, EditError> {
        if !self.at_last_step() {
            return self.apply(record, edit, cursor);
        }
        let applied = record.apply(edit)?;
        self.newest.0 += 1;
        let after = self.newest;
        let e = self.undo.last_mut().expect("checked above");
        let earlier = std::mem::replace(&mut e.edit, Edit::Batch(Vec::new()));
        e.edit = Edit::Batch(vec![applied.inverse, earlier]);
        e.after = after;
        self.redo.clear();
        self.current = after;
        Ok(applied.focus)
    }
    /// Is the record at the state the last step left (so that `apply_joined` joins it)?
    pub fn at_last_step(&self) -> bool {
        matches!(self.undo.last(), Some(e) if e.after == self.current)
    }
    /// Undoes the last step; returns where the cursor goes (where the edit happened).
    pub fn undo(&mut self, record: &mut Record, cursor: NodeId) -> Option<NodeId> {
        let e = self.undo.pop()?;
        match record.apply(e.edit.clone()) {
            Ok(applied) => {
                self.current = e.before;
                self.redo.push(Entry {
                    edit: applied.inverse,
                    cursor,
                    ..e
                });
                Some(if record.is_attached(e.cursor) {
                    e.cursor
                } else {
                    applied.focus
                })
            }
            Err(_) => {
                self.undo.push(e);
                None
            }
        }
    }
    /// Redoes the last undone step; returns where the cursor goes.
    pub fn redo(&mut self, record: &mut Record, cursor: NodeId) -> Option<NodeId> {
        let e = self.redo.pop()?;
        match record.apply(e.edit.clone()) {
            Ok(applied) => {
                self.current = e.after;
                self.undo.push(Entry {
                    edit: applied.inverse,
                    cursor,
                    ..e
                });
                Some(applied.focus)
            }
            Err(_) => {
                self.redo.push(e);
                None
            }
        }
    }
    /// The edit that undo would apply next (the inverse of the last step).
    pub fn next_undo(&self) -> Option<&Edit> {
        self.undo.last().map(|e| &e.edit)
    }
    /// The edit that redo would apply next.
    pub fn next_redo(&self) -> Option<&Edit> {
        self.redo.last().map(|e| &e.edit)
    }
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
    /// The revision the record is at.
    pub fn current(&self) -> Revision {
        self.current
    }
    /// Is the record in a state not written whole to disk?
    pub fn is_modified(&self) -> bool {
        self.saved != self.current
    }
    /// Call after the record was written whole (nothing lost) to disk.
    pub fn mark_saved(&mut self) {
        self.saved = self.current;
    }
    /// Call after the record as it was at `rev` was written whole to disk (a save that went
    /// on while the record was edited further).
    pub fn mark_saved_at(&mut self, rev: Revision) {
        self.saved = rev;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    fn usi_line(r: &Record, from: NodeId) -> Vec<String> {
        r.line_from(from)
            .into_iter()
            .filter_map(|n| r.node(n).move_data().map(|m| m.mv.usi()))
            .collect()
    }

    /// A record with ▲７六歩 △３四歩 played as two undo steps: the record, its history and
    /// the two moves' nodes.
    fn two_moves() -> (Record, History, NodeId, NodeId) {
        let mut r = Record::default();
        let mut h = History::default();
        let a = h
            .apply(
                &mut r,
                Edit::AddMove {
                    parent: NodeId::ROOT,
                    mv: mv("7g7f"),
                },
                NodeId::ROOT,
            )
            .unwrap();
        let b = h
            .apply(
                &mut r,
                Edit::AddMove {
                    parent: a,
                    mv: mv("3c3d"),
                },
                a,
            )
            .unwrap();
        (r, h, a, b)
    }

    #[test]
    fn add_variation_promote_reorder_undo_redo() {
        let (mut r, mut h, a, b) = two_moves();
        let b2 = h
            .apply(
                &mut r,
                Edit::AddMove {
                    parent: a,
                    mv: mv("8c8d"),
                },
                b,
            )
            .unwrap();
        assert_eq!(r.node(a).children[..], [b, b2]);
        assert_eq!(
            h.apply(
                &mut r,
                Edit::AddMove {
                    parent: a,
                    mv: mv("7f7e")
                },
                b2
            ),
            Err(EditError::Illegal(Illegal::NotYourPiece))
        );

        h.apply(&mut r, Edit::PromoteToMain { node: b2 }, b2)
            .unwrap();
        assert_eq!(usi_line(&r, NodeId::ROOT), vec!["7g7f", "8c8d"]);
        assert_eq!(h.undo(&mut r, b2), Some(b2));
        assert_eq!(usi_line(&r, NodeId::ROOT), vec!["7g7f", "3c3d"]);
        assert_eq!(h.redo(&mut r, b2), Some(b2));
        assert_eq!(usi_line(&r, NodeId::ROOT), vec!["7g7f", "8c8d"]);

        h.apply(&mut r, Edit::Reorder { node: b2, index: 1 }, b2)
            .unwrap();
        assert_eq!(r.node(a).children[..], [b, b2]);

        // Delete the variation and bring it back: same ids.
        let focus = h.apply(&mut r, Edit::Detach { node: b }, b).unwrap();
        assert_eq!(focus, a);
        assert_eq!(r.node(a).children[..], [b2]);
        assert!(!r.is_attached(b));
        assert_eq!(h.undo(&mut r, a), Some(b));
        assert_eq!(r.node(a).children[..], [b, b2]);
        assert!(h.is_modified());
        h.mark_saved();
        assert!(!h.is_modified());
        h.undo(&mut r, b);
        assert!(h.is_modified());
    }

    #[test]
    fn modified_is_a_revision_not_a_count() {
        let mut r = Record::default();
        let mut h = History::new();
        assert!(!h.is_modified());
        let add = |h: &mut History, r: &mut Record, usi: &str| {
            h.apply(
                r,
                Edit::AddMove {
                    parent: NodeId::ROOT,
                    mv: mv(usi),
                },
                NodeId::ROOT,
            )
            .unwrap()
        };
        add(&mut h, &mut r, "7g7f");
        h.mark_saved();
        assert!(!h.is_modified());
        // Save, undo, a different edit: as many edits as at the save, but another state.
        h.undo(&mut r, NodeId::ROOT).unwrap();
        assert!(h.is_modified());
        add(&mut h, &mut r, "2g2f");
        assert!(h.is_modified(), "a state never saved");
        // Back to the saved state is clean; redo and undo move between the two.
        h.undo(&mut r, NodeId::ROOT).unwrap();
        assert!(h.is_modified(), "the start state was not the saved one");
        assert!(!h.can_redo() || h.redo(&mut r, NodeId::ROOT).is_some());
        assert!(h.is_modified());
        let mut h = History::new();
        let mut r = Record::default();
        add(&mut h, &mut r, "7g7f");
        h.mark_saved();
        add(&mut h, &mut r, "2g2f");
        assert!(h.is_modified());
        h.undo(&mut r, NodeId::ROOT).unwrap();
        assert!(!h.is_modified(), "undone back to the saved state");
        h.redo(&mut r, NodeId::ROOT).unwrap();
        assert!(h.is_modified());
    }

    #[test]
    fn a_joined_reply_and_its_times_are_one_undo_step() {
        let mut r = Record::default();
        let mut h = History::new();
        let add = |h: &mut History, r: &mut Record, parent: NodeId, usi: &str, join: bool| {
            let e = Edit::AddMove {
                parent,
                mv: mv(usi),
            };
            match join {
                true => h.apply_joined(r, e, parent).unwrap(),
                false => h.apply(r, e, parent).unwrap(),
            }
        };
        let time = |s| {
            Some(MoveTime {
                spent_ms: s,
                total_ms: Some(s),
            })
        };
        let a = add(&mut h, &mut r, NodeId::ROOT, "7g7f", false);
        h.apply_joined(
            &mut r,
            Edit::SetTime {
                node: a,
                time: time(3000),
            },
            a,
        )
        .unwrap();
        let b = add(&mut h, &mut r, a, "3c3d", true);
        h.apply_joined(
            &mut r,
            Edit::SetTime {
                node: b,
                time: time(1000),
            },
            b,
        )
        .unwrap();
        assert_eq!(r.node(b).time, time(1000));
        assert_eq!(usi_line(&r, NodeId::ROOT), vec!["7g7f", "3c3d"]);
        // One undo takes the move, its reply and their times back.
        assert_eq!(h.undo(&mut r, b), Some(NodeId::ROOT));
        assert!(r.node(NodeId::ROOT).children.is_empty());
        assert!(!h.can_undo() && !h.is_modified());
        // Redo brings both with their times, the same nodes.
        h.redo(&mut r, NodeId::ROOT).unwrap();
        assert_eq!(usi_line(&r, NodeId::ROOT), vec!["7g7f", "3c3d"]);
        assert_eq!((r.node(a).time, r.node(b).time), (time(3000), time(1000)));
        // After an undo the record is not at the last step: a new edit is a step of its own.
        h.undo(&mut r, b).unwrap();
        let c = add(&mut h, &mut r, NodeId::ROOT, "2g2f", true);
        assert_eq!(r.node(NodeId::ROOT).children[..], [c]);
        assert!(!h.can_redo(), "the new step cleared the redo");
        h.undo(&mut r, c).unwrap();
        assert!(r.node(NodeId::ROOT).children.is_empty());
        let a = add(&mut h, &mut r, NodeId::ROOT, "7g7f", false);
        // A batch with an illegal edit changes nothing.
        let before = r.clone();
        let bad = Edit::Batch(vec![
            Edit::SetTime {
                node: a,
                time: time(5),
            },
            Edit::AddMove {
                parent: a,
                mv: mv("7g7f"),
            },
        ]);
        assert!(r.apply(bad).is_err());
        assert_eq!(r, before);
    }

    #[test]
    fn many_comments_grow_one_undo_step() {
        let (mut r, mut h, a, b) = two_moves();
        r.node_mut(a).comment = "user".into();
        let set = |h: &mut History, r: &mut Record, n: NodeId, t: &str, extend: bool| {
            h.apply_comments(r, vec![(n, t.to_string())], NodeId::ROOT, extend)
                .unwrap();
        };
        let before = h.current();
        set(&mut h, &mut r, a, "a1", true);
        set(&mut h, &mut r, b, "b1", true);
        set(&mut h, &mut r, a, "a2", true);
        assert_eq!(
            (r.node(a).comment.as_str(), r.node(b).comment.as_str()),
            ("a2", "b1")
        );
        assert_ne!(h.current(), before);
        // One undo brings every comment back.
        h.undo(&mut r, NodeId::ROOT).unwrap();
        assert_eq!(
            (r.node(a).comment.as_str(), r.node(b).comment.as_str()),
            ("user", "")
        );
        assert_eq!(h.current(), before);
        h.redo(&mut r, NodeId::ROOT).unwrap();
        assert_eq!(
            (r.node(a).comment.as_str(), r.node(b).comment.as_str()),
            ("a2", "b1")
        );
        // Another kind of edit in between, or extend = false: a step of its own.
        h.undo(&mut r, NodeId::ROOT).unwrap();
        set(&mut h, &mut r, a, "x", false);
        set(&mut h, &mut r, b, "y", false);
        h.undo(&mut r, NodeId::ROOT).unwrap();
        assert_eq!(
            (r.node(a).comment.as_str(), r.node(b).comment.as_str()),
            ("x", "")
        );
        // A detached node: nothing changes.
        h.apply(&mut r, Edit::Detach { node: b }, b).unwrap();
        let err = h.apply_comments(&mut r, vec![(a, "z".into()), (b, "z".into())], a, true);
        assert!(err.is_err());
        assert_eq!(r.node(a).comment, "x");
    }

    #[test]
    fn comments_bookmarks_header_cut_and_endings() {
        let mut r = Record::default();
        let mut h = History::default();
        let a = h
            .apply(
                &mut r,
                Edit::AddMove {
                    parent: NodeId::ROOT,
                    mv: mv("7g7f"),
                },
                NodeId::ROOT,
            )
            .unwrap();
        h.apply(
            &mut r,
            Edit::SetComment {
                node: a,
                text: "角道を開ける".into(),
            },
            a,
        )
        .unwrap();
        h.apply(
            &mut r,
            Edit::SetBookmark {
                node: a,
                name: Some("序盤".into()),
            },
            a,
        )
        .unwrap();
        let mut hd = r.header.clone();
        hd.set("棋戦", "研究会");
        h.apply(&mut r, Edit::SetHeader(hd), a).unwrap();
        let end = h
            .apply(
                &mut r,
                Edit::AddSpecial {
                    parent: a,
                    special: Special::Resign,
                },
                a,
            )
            .unwrap();
        assert_eq!(
            r.apply(Edit::AddMove {
                parent: end,
                mv: mv("3c3d")
            }),
            Err(EditError::AfterEnding)
        );
        h.apply(&mut r, Edit::CutAfter { node: a }, end).unwrap();
        assert!(r.node(a).children.is_empty());
        for _ in 0..5 {
            h.undo(&mut r, a).unwrap();
        }
        assert!(r.node(a).comment.is_empty());
        assert!(r.node(a).bookmark.is_none());
        assert!(r.header.get("棋戦").is_none());
        assert!(r.node(a).children.is_empty());
        assert!(h.can_undo());
        h.undo(&mut r, a).unwrap();
        assert!(r.node(NodeId::ROOT).children.is_empty());
        assert!(!h.can_undo());
        assert!(h.can_redo());
    }

    #[test]
    fn root_cannot_be_detached() {
        let mut r = Record::default();
        assert_eq!(
            r.apply(Edit::Detach { node: NodeId::ROOT }),
            Err(EditError::Root)
        );
        assert_eq!(
            r.apply(Edit::Detach { node: NodeId(99) }),
            Err(EditError::NoSuchNode)
        );
    }

    #[test]
    fn add_line_is_one_step_and_checks_every_move_first() {
        let mut r = Record::default();
        let mut h = History::default();
        let a = h
            .apply(
                &mut r,
                Edit::AddMove {
                    parent: NodeId::ROOT,
                    mv: mv("7g7f"),
                },
                NodeId::ROOT,
            )
            .unwrap();
        let moves = |s: &str| s.split(' ').map(mv).collect::<Vec<_>>();
        let before = r.len();
        assert!(matches!(
            h.apply(
                &mut r,
                Edit::AddLine {
                    parent: a,
                    moves: moves("3c3d 2g2f 5a5c"),
                },
                a,
            ),
            Err(EditError::Illegal(_))
        ));
        assert_eq!(
            (r.len(), r.node(a).children.len()),
            (before, 0),
            "unchanged"
        );
        let end = h
            .apply(
                &mut r,
                Edit::AddLine {
                    parent: a,
                    moves: moves("3c3d 2g2f 4c4d"),
                },
                a,
            )
            .unwrap();
        assert_eq!(usi_line(&r, NodeId::ROOT), ["7g7f", "3c3d", "2g2f", "4c4d"]);
        assert_eq!(r.node(end).ply, 4);
        assert_eq!(h.undo(&mut r, end), Some(a));
        assert!(
            r.node(a).children.is_empty(),
            "one undo removes the whole line"
        );
        assert!(h.redo(&mut r, a).is_some());
        assert_eq!(usi_line(&r, NodeId::ROOT).len(), 4, "redo brings it back");
    }
}
