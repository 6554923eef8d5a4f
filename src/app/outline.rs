//! The variation tree as an outline: one row per branch (a run of first children), in the
//! order the tree view draws them (each branch followed by the branches that leave it, by
//! ply), with what the view needs to draw lines and fold branches without walking the tree.

use crate::core::record::{NodeId, Record};

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
/// changes.
#[derive(Clone, Debug, Default)]
pub struct Outline {
    pub rows: Vec<OutlineRow>,
    /// For each node, the row it belongs to.
    node_row: Vec<u32>,
}

impl Outline {
    pub fn build(record: &Record) -> Outline {
        let mut rows = Vec::new();
        let mut node_row = vec![0u32; record.len()];
        let mut stack = vec![(NodeId::ROOT, 0u32, 0u32)];
        let mut forks = Vec::new();
        while let Some((start, depth, parent)) = stack.pop() {
            let row = rows.len() as u32;
            let mut len = 0;
            let mut n = start;
            forks.clear();
            loop {
                node_row[n.index()] = row;
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
            rows.push(OutlineRow {
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
        // Children come after their parent: one backward pass gives each row its end, and
        // the last child seen of each parent is its last branch.
        for i in (1..rows.len()).rev() {
            let p = rows[i].parent as usize;
            if rows[p].end == p as u32 + 1 {
                rows[i].last = true;
            }
            rows[p].end = rows[p].end.max(rows[i].end);
        }
        Outline { rows, node_row }
    }
    /// The row holding `id`.
    pub fn row_of(&self, id: NodeId) -> usize {
        self.node_row.get(id.index()).copied().unwrap_or(0) as usize
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
