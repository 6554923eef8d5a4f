//! The variation tree as an outline: one row per branch (a run of main-line children).

use crate::core::record::{NodeId, Record};

/// One branch: starts at `start` and follows first children to the end.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OutlineRow {
    pub start: NodeId,
    /// Nesting depth (0 = the main line).
    pub depth: u32,
    /// Number of nodes in the branch (moves and a possible ending).
    pub len: u32,
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
        let mut stack = vec![(NodeId::ROOT, 0u32)];
        let mut forks = Vec::new();
        while let Some((start, depth)) = stack.pop() {
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
            rows.push(OutlineRow { start, depth, len });
            for &c in forks.iter().rev() {
                stack.push((c, depth + 1));
            }
        }
        Outline { rows, node_row }
    }
    /// The row holding `id`.
    pub fn row_of(&self, id: NodeId) -> usize {
        self.node_row.get(id.index()).copied().unwrap_or(0) as usize
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
        assert_eq!(o.row_of(a1), 0);
        assert_eq!(o.row_of(a2), 3);
        assert_eq!(o.row_of(c), 2);
    }
}
