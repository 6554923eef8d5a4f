//! The variation tree (`t`): one row per branch, drawn as a tree, that follows the record's
//! cursor. Moving through it moves the board (to a branch's first move, or along the line
//! with the move keys); a branch's own branches fold and unfold; Enter or Esc closes it
//! where it stands. Every key costs what its depth and the line cost: the outline is kept
//! across changes of the record (`app::outline`; a comment keeps it, a variation added,
//! deleted or moved updates the branches it touched), and the board is replayed from the
//! cursor's kept positions (`app::state`), not from the start.

use crate::app::overlay::{Overlay, TreeView};
use crate::app::state::App;

impl App {
    fn tree_view(&self) -> Option<&TreeView> {
        match self.overlays.top() {
            Some(Overlay::Tree(t)) => Some(t),
            _ => None,
        }
    }

    /// Selects the row that shows the cursor's node.
    fn tree_follow_cursor(&mut self) {
        let Some(folded) = self.tree_view().map(|t| t.folded.clone()) else {
            return;
        };
        let cur = self.cur();
        let outline = self.outline();
        let row = outline.shown_row(outline.row_of(cur), |n| folded.contains(&n));
        if let Some(Overlay::Tree(t)) = self.overlays.top_mut() {
            t.selected = row;
        }
    }

    /// `t`: opens the tree on the cursor's branch, or closes it.
    pub(crate) fn toggle_tree(&mut self) {
        if self.tree_view().is_some() {
            self.overlays.pop();
        } else {
            self.overlays.push(Overlay::Tree(TreeView::default()));
            self.tree_follow_cursor();
        }
    }

    /// Moves the selection `d` rows among those shown (far: the first or the last), and the
    /// board to the first move of that branch.
    pub(crate) fn tree_move(&mut self, d: isize) {
        let Some(view) = self.tree_view().cloned() else {
            return;
        };
        let folded = |n| view.is_folded(n);
        let outline = self.outline();
        let n = outline.rows.len();
        let mut row = view.selected.min(n.saturating_sub(1));
        if d <= -(n as isize) {
            row = 0;
        } else if d >= n as isize {
            row = outline.shown_row(n - 1, folded);
        } else {
            for _ in 0..d.unsigned_abs() {
                let step = if d > 0 {
                    outline.next_shown(row, folded)
                } else {
                    outline.prev_shown(row, folded)
                };
                match step {
                    Some(r) => row = r,
                    None => break,
                }
            }
        }
        if row != view.selected {
            self.tree_go(row);
        }
    }

    /// Shows branch `row`: the board goes to its first move (unless the cursor is on it).
    fn tree_go(&mut self, row: usize) {
        let cur = self.cur();
        let Some(start) = self.outline().rows.get(row).map(|r| r.start) else {
            return;
        };
        if self.outline().row_of(cur) != row {
            self.jump_to(start);
        }
        if let Some(Overlay::Tree(t)) = self.overlays.top_mut() {
            t.selected = row;
        }
    }

    /// `tree_next_move`, `tree_prev_move`: along the line, the selection following.
    pub(crate) fn tree_step(&mut self, d: isize) {
        self.step(d);
        self.tree_follow_cursor();
    }

    /// `tree_fold`: folds or unfolds the branches that leave the selected one (on a branch
    /// that none leaves: folds the one it leaves).
    pub(crate) fn tree_fold(&mut self) {
        let Some(view) = self.tree_view().cloned() else {
            return;
        };
        let outline = self.outline();
        let Some(r) = outline.rows.get(view.selected).copied() else {
            return;
        };
        let row = if outline.has_branches(view.selected) || view.is_folded(r.start) {
            view.selected
        } else if view.selected != 0 {
            r.parent as usize
        } else {
            return self.info("no branch leaves the main line");
        };
        let start = outline.rows[row].start;
        if let Some(Overlay::Tree(t)) = self.overlays.top_mut()
            && !t.folded.remove(&start)
        {
            t.folded.insert(start);
        }
        self.tree_follow_cursor();
    }

    /// `tree_jump` (Enter): closes the tree where it stands.
    pub(crate) fn tree_jump_selected(&mut self) {
        if self.tree_view().is_some() {
            self.overlays.pop();
        }
    }

    /// A click on row `row`: goes there and closes the tree.
    pub(crate) fn tree_jump(&mut self, row: usize) {
        if self.tree_view().is_none() {
            return;
        }
        self.tree_go(row);
        self.overlays.pop();
    }
}
