//! What the move list shows of the current line besides the moves themselves: where the line
//! leaves the main line (`変化 6手目 2/2`), the way back (`M`: the main line at this ply), the
//! moves in KIF or KI2 notation (`v`), and the reader's warnings about moves of the record (an
//! illegal move kept as read), shown in the status line when the cursor is on that move.
//!
//! Work per frame is the visible rows only: KI2 text needs the position before each move, so
//! the first visible row's position is replayed once and the rows after it are played on.

use super::config::MoveNotation;
use super::state::{App, Level};
use crate::core::notation::Diagnostic;
use crate::core::notation::ki2;
use crate::core::record::{NodeId, Step};
use std::ops::Range;

/// Where the shown line leaves the main line at one fork.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Departure {
    /// Index in `App::line()` (= ply) of the first move off the main line at this fork.
    pub at: usize,
    /// Its place among the alternatives at the fork, 1-based (1 is the main line's move).
    pub index: usize,
    /// How many alternatives the fork has.
    pub count: usize,
}

impl App {
    /// The departure at line index `i`, if the move there is not its fork's first alternative.
    fn departure_at(&self, i: usize) -> Option<Departure> {
        let id = *self.line().get(i)?;
        let parent = self.doc.record().node(id).parent?;
        let children = &self.doc.record().node(parent).children;
        let index = children.iter().position(|&c| c == id)?;
        (index > 0).then_some(Departure {
            at: i,
            index: index + 1,
            count: children.len(),
        })
    }

    /// Index in `line()` of the first move off the main line: the rows from there on are a
    /// variation's.
    pub fn first_departure(&self) -> Option<usize> {
        (1..self.line().len()).find(|&i| self.departure_at(i).is_some())
    }

    /// The fork the move list's title names: the deepest departure at or before the cursor
    /// (in a variation inside a variation, the inner one: `j`/`k` there switch it); when the
    /// cursor is still on moves the main line shares, the first departure after it.
    pub fn line_departure(&self) -> Option<Departure> {
        let cur = self.cur_index();
        (1..=cur)
            .rev()
            .find_map(|i| self.departure_at(i))
            .or_else(|| (cur + 1..self.line().len()).find_map(|i| self.departure_at(i)))
    }

    /// `M`: the main line at the current ply (its end when it is shorter), showing the main
    /// line below too.
    pub(crate) fn back_to_main_line(&mut self) {
        if self.first_departure().is_none() {
            self.info("this is the main line (本譜)");
            return;
        }
        let ply = self.cur_index();
        let at = self.go_main_line(ply);
        let note = if at < ply {
            format!("; it ends at ply {at}")
        } else {
            String::new()
        };
        self.info(format!("main line (本譜), ply {at}{note}"));
    }

    /// `v`: KIF or KI2 notation in the move list.
    pub(crate) fn toggle_notation(&mut self) {
        let (n, text) = match self.config.move_notation {
            MoveNotation::Kif => (
                MoveNotation::Ki2,
                "move list: KI2 notation (▲７六歩 △同　銀右)",
            ),
            MoveNotation::Ki2 => (MoveNotation::Kif, "move list: KIF notation (▲７六歩(77))"),
        };
        self.config.move_notation = n;
        self.info(text);
    }

    /// The text of each move of `line()[range]` in the move list's notation (`開始局面` for
    /// the start, the ending's word for an ending).
    pub fn move_texts(&self, range: Range<usize>) -> Vec<String> {
        let line = self.line();
        let range = range.start.min(line.len())..range.end.min(line.len());
        if self.config.move_notation == MoveNotation::Kif {
            return line[range].iter().map(|&id| self.step_text(id)).collect();
        }
        // The position before the first row, then each row played on it.
        let mut pos = match range.start.checked_sub(1) {
            Some(i) => self.doc.record().position_at(line[i]),
            None => self.doc.record().initial.position.clone(),
        };
        line[range]
            .iter()
            .map(|&id| {
                let node = self.doc.record().node(id);
                match &node.step {
                    Step::Move(md) => {
                        let prev_to = node
                            .parent
                            .and_then(|p| self.doc.record().node(p).move_data())
                            .map(|pm| pm.mv.to());
                        let text = ki2::move_text(&pos, md, prev_to);
                        let _ = pos.play_unchecked(md.mv);
                        text
                    }
                    Step::Root | Step::Special(_) => self.step_text(id),
                }
            })
            .collect()
    }

    /// The reader's first warning about the move `id` (an illegal move kept as read).
    pub fn move_warning(&self, id: NodeId) -> Option<&Diagnostic> {
        let i = self.doc.move_warnings().partition_point(|&(n, _)| n < id);
        let &(n, w) = self.doc.move_warnings().get(i)?;
        (n == id).then(|| &self.doc.source().warnings[w])
    }

    /// After a key: when the cursor is on a move the reader warned about and nothing else
    /// was said, the status line says what was wrong with it.
    pub(crate) fn say_move_warning(&mut self) {
        if self.message.is_some() || self.mode() != super::Mode::Normal {
            return;
        }
        if let Some(w) = self.move_warning(self.cur()) {
            let text = if w.line > 0 {
                format!("! line {}: {}", w.line, w.message)
            } else {
                format!("! {}", w.message)
            };
            self.info_level(text, Level::Warning);
        }
    }
}
