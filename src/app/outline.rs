//! The variation tree as an outline: one row per branch (a run of first children), in the
//! order the tree view draws them (each branch followed by the branches that leave it, by
//! ply), with what the view needs to draw lines and fold branches without walking the tree.

use crate::core::record::{Edit, NodeId, Record};

/// One branch: starts at `start` and follows first children to the end.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OutlineRow {
    pub start: NodeId,
    /// Nesting depth (0 = the main line).
    pub depth: u32,
    /// Number of nodes in the branch (moves and a possible ending).
    pub len: u32,
    /// The row this branch leaves (itself for the main line).
    pub parent: u32,
    /// One past the last row of the branches that leave this one (and theirs): the rows
    /// `index + 1 .. end` are hidden when this branch is folded.
    pub end: u32,
    /// Is it the last branch that leaves its parent (drawn `└─`, not `├─`)?
    pub last: bool,
}

/// The outline of a whole record, built once (no recursion) and cached until the record
/// changes; a change of one node's children (the edits that add, delete or move a
/// variation, and their undo) updates it in place (`Outline::update`), walking only the
/// branches that came or went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    pub rows: Vec<OutlineRow>,
    /// For each node, the row it belongs to (`NOT_SHOWN` for a node not in the tree).
    node_row: Vec<u32>,
}

/// `node_row` of a node not in the tree (deleted, or undone).
const NOT_SHOWN: u32 = u32::MAX;
/// Marks the rows of nodes just walked, while `Outline::update` shifts the others.
const NEW: u32 = 1 << 31;

/// The node whose children `edit` changes, when it is one node (what `Outline::update`
/// takes); `None` when the edit changes several (making a line the main line, or its
/// undo) or the start position. Asked before the edit is applied.
pub fn reshaped_node(record: &Record, edit: &Edit) -> Option<NodeId> {
    let parent_of = |n: &NodeId| (n.index() < record.len()).then(|| record.node(*n).parent)?;
    match edit {
        Edit::AddMove { parent, .. }
        | Edit::AddLine { parent, .. }
        | Edit::AddSpecial { parent, .. }
        | Edit::Reattach { parent, .. } => Some(*parent),
        Edit::Detach { node } | Edit::Reorder { node, .. } => parent_of(node),
        Edit::CutAfter { node } | Edit::RestoreChildren { node, .. } => Some(*node),
        _ => None,
    }
}

impl Outline {
    pub fn build(record: &Record) -> Outline {
        let mut o = Outline {
            rows: Vec::new(),
            node_row: vec![NOT_SHOWN; record.len()],
        };
        o.push_branches(record, &[NodeId::ROOT], 0, 0, 0);
        o.set_ends();
        o
    }

    /// Appends the rows of the branches starting at `starts` (each followed by the branches
    /// that leave it, by ply), `depth` deep and leaving row `parent`, and says which row
    /// each of their nodes is on (with the bits of `mark` set).
    fn push_branches(
        &mut self,
        record: &Record,
        starts: &[NodeId],
        depth: u32,
        parent: u32,
        mark: u32,
    ) {
        let mut stack: Vec<(NodeId, u32, u32)> =
            starts.iter().rev().map(|&s| (s, depth, parent)).collect();
        let mut forks = Vec::new();
        while let Some((start, depth, parent)) = stack.pop() {
            let row = self.rows.len() as u32;
            let mut len = 0;
            let mut n = start;
            forks.clear();
            loop {
                self.node_row[n.index()] = row | mark;
                len += 1;
                let ch = &record.node(n).children;
                if ch.len() > 1 {
                    forks.extend_from_slice(&ch[1..]);
                }
                match ch.first() {
                    Some(&c) => n = c,
                    None => break,
                }
            }
            self.rows.push(OutlineRow {
                start,
                depth,
                len,
                parent,
                end: row + 1,
                last: false,
            });
            for &c in forks.iter().rev() {
                stack.push((c, depth + 1, row));
            }
        }
    }

    /// Gives each row its `end` and `last` (children come after their parent: one backward
    /// pass, the last child seen of each parent is its last branch).
    fn set_ends(&mut self) {
        for (i, r) in self.rows.iter_mut().enumerate() {
            r.end = i as u32 + 1;
            r.last = false;
        }
        for i in (1..self.rows.len()).rev() {
            let p = self.rows[i].parent as usize;
            if self.rows[p].end == p as u32 + 1 {
                self.rows[i].last = true;
            }
            self.rows[p].end = self.rows[p].end.max(self.rows[i].end);
        }
    }

    /// Brings the outline of `record` as it was before the children of `node` changed (and
    /// nothing else) up to date: when `node`'s first child stayed (the branch through it is
    /// the same), only the branches that leave `node` and came or went are walked; else, or
    /// when the outline does not hold `node`, it is built again.
    pub fn update(&mut self, record: &Record, node: NodeId) {
        if !self.splice_forks(record, node) {
            *self = Outline::build(record);
        }
    }

    /// `update`'s quick way; false when it does not apply.
    fn splice_forks(&mut self, record: &Record, node: NodeId) -> bool {
        self.node_row.resize(record.len(), NOT_SHOWN);
        let Some(&r) = self.node_row.get(node.index()) else {
            return false;
        };
        if r == NOT_SHOWN {
            return false;
        }
        let (r, row) = (r as usize, self.rows[r as usize]);
        let ply = record.node(node).ply;
        let first_ply = record.node(row.start).ply;
        let kids = &record.node(node).children;
        // The branch's next node after `node` (none when it ended there) must be the same.
        let ended_here = ply + 1 == first_ply + row.len;
        let same_first = match kids.first() {
            None => ended_here,
            Some(&c) => !ended_here && self.node_row.get(c.index()) == Some(&(r as u32)),
        };
        if !same_first {
            return false;
        }
        // The branches leaving `node` now, and those its row's children held (in order,
        // among the row's children, at the ply after `node`).
        let new = kids.get(1..).unwrap_or(&[]);
        let (mut at, mut old) = (r + 1, Vec::new());
        let mut first_old = row.end as usize;
        while at < row.end as usize {
            let fork_ply = record.node(self.rows[at].start).ply;
            if fork_ply > ply + 1 {
                break;
            }
            if fork_ply == ply + 1 {
                first_old = first_old.min(at);
                old.push(at);
            }
            at = self.rows[at].end as usize;
        }
        let first_old = first_old.min(at);
        // Only what differs between the old and the new list is walked.
        let same = |i: usize, j: usize| self.rows[old[i]].start == new[j];
        let mut head = 0;
        while head < old.len() && head < new.len() && same(head, head) {
            head += 1;
        }
        let mut tail = 0;
        while tail < old.len() - head
            && tail < new.len() - head
            && same(old.len() - 1 - tail, new.len() - 1 - tail)
        {
            tail += 1;
        }
        let from = if head < old.len() {
            old[head]
        } else if head > 0 {
            self.rows[old[head - 1]].end as usize
        } else {
            first_old
        };
        let to = if tail > 0 {
            old[old.len() - tail]
        } else if let Some(&last) = old.last() {
            self.rows[last].end as usize
        } else {
            first_old
        };
        let starts = &new[head..new.len() - tail];
        self.replace_rows(record, from..to, starts, row.depth + 1, r as u32);
        true
    }

    /// Replaces the rows `gone` (whole branches with the branches that leave them) by the
    /// branches starting at `starts`, leaving row `parent` (which comes before `gone`).
    fn replace_rows(
        &mut self,
        record: &Record,
        gone: std::ops::Range<usize>,
        starts: &[NodeId],
        depth: u32,
        parent: u32,
    ) {
        let (a, b) = (gone.start as u32, gone.end as u32);
        let mut tail = self.rows.split_off(gone.end);
        self.rows.truncate(gone.start);
        // The new rows' nodes are marked (a node may have been in a row that went): the pass
        // below tells them from the others, which are shifted or gone.
        self.push_branches(record, starts, depth, parent, NEW);
        let added = self.rows.len() as u32 - a;
        let shift = |v: u32| v + added - (b - a);
        for r in &mut tail {
            if r.parent >= b {
                r.parent = shift(r.parent);
            }
        }
        for v in self.node_row.iter_mut() {
            *v = match *v {
                NOT_SHOWN => NOT_SHOWN,
                v if v & NEW != 0 => v & !NEW,
                v if v < a => v,
                v if v < b => NOT_SHOWN,
                v => shift(v),
            };
        }
        self.rows.append(&mut tail);
        self.set_ends();
    }
    /// The row holding `id`.
    pub fn row_of(&self, id: NodeId) -> usize {
        match self.node_row.get(id.index()) {
            Some(&r) if r != NOT_SHOWN => r as usize,
            _ => 0,
        }
    }
    /// Does another branch leave this one?
    pub fn has_branches(&self, row: usize) -> bool {
        self.rows[row].end as usize > row + 1
    }
    /// The row shown for `row` when the branches whose start `folded` names are folded: the
    /// outermost folded branch holding it, else itself (as many steps as it is deep).
    pub fn shown_row(&self, row: usize, folded: impl Fn(NodeId) -> bool) -> usize {
        let mut shown = row;
        let mut r = row;
        while r != 0 {
            r = self.rows[r].parent as usize;
            if folded(self.rows[r].start) {
                shown = r;
            }
        }
        shown
    }
    /// The next row shown after `row` (skipping a folded branch's branches).
    pub fn next_shown(&self, row: usize, folded: impl Fn(NodeId) -> bool) -> Option<usize> {
        let next = if folded(self.rows[row].start) {
            self.rows[row].end as usize
        } else {
            row + 1
        };
        (next < self.rows.len()).then_some(next)
    }
    /// The row shown before `row`.
    pub fn prev_shown(&self, row: usize, folded: impl Fn(NodeId) -> bool) -> Option<usize> {
        (row > 0).then(|| self.shown_row(row - 1, folded))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::record::{MoveData, Step};
    use crate::core::rules::Position;

    /// A random study: `n` nodes in lines of a few moves from random nodes.
    fn study(seed: u64, n: usize) -> Record {
        let mut rng = Rng(seed);
        let mut r = Record::default();
        while r.len() < n {
            let mut at = NodeId((rng.below(r.len() as u64)) as u32);
            if matches!(r.node(at).step, Step::Special(_)) {
                continue;
            }
            let mut pos = r.position_at(at);
            for _ in 0..1 + rng.below(6) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                match r.find_move_child(at, mv) {
                    Some(c) => at = c,
                    None => {
                        let data = r.move_data_at(at, mv).expect("legal");
                        at = r.push_child(at, Step::Move(data));
                    }
                }
                pos.play(mv).expect("legal");
            }
        }
        r
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n.max(1)
        }
    }

    /// After every edit of the tree's shape (add, delete, put back, reorder, cut, make the
    /// main line), undo and redo, on random studies, the outline the document keeps (updated
    /// in place when one node's children changed) is the one built from scratch.
    #[test]
    fn an_updated_outline_is_a_fresh_one() {
        use crate::app::document::{Document, RecordSource};
        let mut updates = 0;
        for seed in 1..=12u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut doc = Document::new(study(seed, 400), RecordSource::untitled("t.kif"));
            let mut detached: Vec<NodeId> = Vec::new();
            for _ in 0..150 {
                let r = doc.record();
                let attached: Vec<NodeId> = r.preorder();
                let node = attached[rng.below(attached.len() as u64) as usize];
                let edit = match rng.below(9) {
                    0 | 1 if node != NodeId::ROOT => Edit::Detach { node },
                    2 | 3 => match detached.pop() {
                        Some(d)
                            if !r.is_attached(d)
                                && r.node(d).parent.is_some_and(|p| r.is_attached(p)) =>
                        {
                            let p = r.node(d).parent.expect("checked");
                            let n = r.node(p).children.len() as u64;
                            let index = rng.below(n + 1) as usize;
                            Edit::Reattach {
                                node: d,
                                parent: p,
                                index,
                            }
                        }
                        _ => continue,
                    },
                    4 if node != NodeId::ROOT => {
                        let p = r.node(node).parent.expect("not the root");
                        let n = r.node(p).children.len() as u64;
                        let index = rng.below(n) as usize;
                        Edit::Reorder { node, index }
                    }
                    5 => match r.position_at(node).legal_moves().first() {
                        Some(&mv) if r.node(node).special().is_none() => {
                            Edit::AddMove { parent: node, mv }
                        }
                        _ => continue,
                    },
                    6 => Edit::CutAfter { node },
                    7 => Edit::PromoteToMain { node },
                    _ => {
                        let _ = if rng.below(2) == 0 {
                            doc.undo(NodeId::ROOT)
                        } else {
                            doc.redo(NodeId::ROOT)
                        };
                        check(&mut doc, &mut updates);
                        continue;
                    }
                };
                if let Edit::Detach { node } = edit {
                    detached.push(node);
                }
                if doc.apply(edit.clone(), NodeId::ROOT).is_ok() {
                    check(&mut doc, &mut updates);
                }
            }
        }
        assert!(
            updates > 300,
            "only {updates} outlines were updated in place"
        );
    }

    fn check(doc: &mut crate::app::document::Document, updates: &mut usize) {
        let quick = doc.outline_update_pending();
        let kept = doc.outline().clone();
        let fresh = Outline::build(doc.record());
        assert_eq!(kept.rows, fresh.rows);
        for id in doc.record().preorder() {
            assert_eq!(kept.row_of(id), fresh.row_of(id), "{id:?}");
        }
        assert_eq!(kept, fresh);
        *updates += usize::from(quick);
    }

    #[test]
    fn rows_follow_forks_in_ply_order() {
        let mut r = Record::default();
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let step = |i: usize, pos: &Position| {
            let mv = pos.legal_moves()[i];
            let piece = pos.piece_at(mv.from().unwrap()).unwrap();
            Step::Move(MoveData {
                mv,
                color: piece.color,
                piece: piece.kind,
                captured: None,
            })
        };
        assert!(moves.len() > 3);
        let a = r.push_child(NodeId::ROOT, step(0, &pos));
        let b = r.push_child(NodeId::ROOT, step(1, &pos));
        let c = r.push_child(NodeId::ROOT, step(2, &pos));
        let pa = r.position_at(a);
        let a1 = r.push_child(a, step(0, &pa));
        let a2 = r.push_child(a, step(1, &pa));
        let o = Outline::build(&r);
        let starts: Vec<(NodeId, u32, u32)> =
            o.rows.iter().map(|r| (r.start, r.depth, r.len)).collect();
        assert_eq!(
            starts,
            vec![(NodeId::ROOT, 0, 3), (b, 1, 1), (c, 1, 1), (a2, 1, 1)]
        );
        let ends: Vec<(u32, u32, bool)> =
            o.rows.iter().map(|r| (r.parent, r.end, r.last)).collect();
        assert_eq!(
            ends,
            vec![(0, 4, false), (0, 2, false), (0, 3, false), (0, 4, true)]
        );
        assert_eq!(o.row_of(a1), 0);
        assert_eq!(o.row_of(a2), 3);
        assert_eq!(o.row_of(c), 2);
    }
}
