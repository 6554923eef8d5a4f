//! Changing the record: moves, endings, deleting, reordering, the main line, header, undo
//! and redo, and the comment editor.
//!
//! Every change goes through `App::apply` (`Document::apply`, `History::apply`), so each is
//! one undo step and the cursor returns to where it happened. Navigation never touches the
//! history.

mod bookmarks;
mod header;
pub mod position_editor;
pub(crate) mod setup;
pub(crate) mod typed;

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::overlay::textedit::TextEditor;
use crate::app::overlay::{Answer, CommentEdit, Mode, Overlay};
use crate::app::state::{App, Level};
use crate::core::record::{Edit, EditError, NodeId, Special};
use crate::core::rules::Move;

/// Deleting more nodes than this asks first.
pub const ASK_ABOVE: usize = 50;

impl App {
    // ----- applying edits -----

    /// Applies an edit as one undo step and goes to where it happened.
    pub(crate) fn apply(&mut self, edit: Edit) -> Result<NodeId, EditError> {
        let cur = self.cur();
        let focus = self.doc.apply(edit, cur)?;
        self.jump_to(focus);
        Ok(focus)
    }

    pub(crate) fn apply_or_say(&mut self, edit: Edit) -> Option<NodeId> {
        match self.apply(edit) {
            Ok(id) => Some(id),
            Err(e) => {
                self.info_level(e.to_string(), Level::Error);
                None
            }
        }
    }

    /// Goes to `id` and remembers it as where the last edit left the cursor.
    pub(crate) fn settle(&mut self, id: NodeId) {
        self.jump_to(id);
        self.doc.settle(id);
    }

    /// Undo and redo put a picked piece back (the position under it changes).
    fn forget_pick(&mut self) {
        if let Some(b) = self.overlays.board_mut() {
            b.forget_pick();
        }
    }

    pub(crate) fn undo(&mut self) {
        self.forget_pick();
        // During a game: the user's last move and the engine's reply (`app::play`).
        if self.playing() {
            return self.play_takeback();
        }
        let cur = self.cur();
        match self.doc.undo(cur) {
            Some(to) => {
                self.jump_to(to);
                let more = if self.doc.history().can_undo() {
                    ""
                } else {
                    " (nothing more to undo)"
                };
                self.info(format!("undone{more}; {} redoes", self.key(Command::Redo)));
            }
            None => self.info("nothing to undo"),
        }
    }

    pub(crate) fn redo(&mut self) {
        self.forget_pick();
        if self.playing() {
            return self.info_level("no redo during a game".into(), Level::Error);
        }
        let cur = self.cur();
        match self.doc.redo(cur) {
            Some(to) => {
                self.jump_to(to);
                self.info("redone");
            }
            None => self.info("nothing to redo"),
        }
    }

    /// Plays `mv` after the current node: goes to it when it is already there, else adds it
    /// as a new variation after the existing ones.
    pub fn enter_move(&mut self, mv: Move) -> bool {
        // During a game: the user's move, on the user's turn only (`app::play`).
        if let Some(played) = self.play_user_move(mv) {
            return played;
        }
        if self.training() {
            self.train_move(mv);
            return true;
        }
        let cur = self.cur();
        if let Some(s) = self.doc.record().node(cur).special() {
            let word = s.kif_word().to_string();
            self.info_level(
                format!("the line has ended here ({word}); go back a move to add a variation"),
                Level::Error,
            );
            return false;
        }
        if let Some(child) = self.doc.record().find_move_child(cur, mv) {
            self.jump_to(child);
            self.info(format!(
                "{} is already in the record: went there",
                self.step_text(child)
            ));
            return true;
        }
        let siblings = self.doc.record().node(cur).children.len();
        match self.apply(Edit::AddMove { parent: cur, mv }) {
            Ok(id) => {
                let what = if siblings == 0 {
                    "added".to_string()
                } else {
                    format!("added as variation {}/{}", siblings + 1, siblings + 1)
                };
                self.info(format!(
                    "{}: {what} ({})",
                    self.step_text(id),
                    self.undo_hint()
                ));
                true
            }
            Err(e) => {
                self.info_level(e.to_string(), Level::Error);
                false
            }
        }
    }

    pub(crate) fn add_ending(&mut self, s: Special) {
        if self.training() {
            return self.info_level(
                "the solve mode takes moves only (an ending is not an answer)".into(),
                Level::Error,
            );
        }
        let cur = self.cur();
        if let Some(&c) = self
            .doc
            .record()
            .node(cur)
            .children
            .iter()
            .find(|&&c| self.doc.record().node(c).special() == Some(&s))
        {
            self.jump_to(c);
            self.info(format!("{} is already here", s.kif_word()));
            return;
        }
        if self
            .apply_or_say(Edit::AddSpecial {
                parent: cur,
                special: s.clone(),
            })
            .is_some()
        {
            self.info(format!(
                "ended the line with {} ({})",
                s.kif_word(),
                self.undo_hint()
            ));
        }
    }

    pub(crate) fn delete_variation(&mut self) {
        let cur = self.cur();
        if cur == NodeId::ROOT {
            self.info_level(
                "the start position cannot be deleted (D cuts everything after it)".into(),
                Level::Error,
            );
            return;
        }
        self.delete_or_ask(cur, false);
    }

    pub(crate) fn cut_after(&mut self) {
        let cur = self.cur();
        if self.doc.record().node(cur).children.is_empty() {
            self.info("nothing follows this move");
            return;
        }
        self.delete_or_ask(cur, true);
    }

    /// Nodes a deletion removes: `node`'s whole subtree (`cut`: without `node`).
    pub(crate) fn deleted_count(&self, node: NodeId, cut: bool) -> usize {
        self.doc.record().preorder_from(node).len() - usize::from(cut)
    }

    /// Deletes at once, or asks first when more than `ASK_ABOVE` nodes would go.
    pub(crate) fn delete_or_ask(&mut self, node: NodeId, cut: bool) {
        let n = self.deleted_count(node, cut);
        if n <= ASK_ABOVE {
            self.delete_now(node, cut);
            return;
        }
        let what = if cut {
            if node == NodeId::ROOT {
                format!("Empty the record: delete all {n} moves?")
            } else {
                format!("Delete the {n} moves after {}?", self.step_text(node))
            }
        } else {
            format!(
                "Delete {n} moves: {} and everything after it, every branch?",
                self.step_text(node)
            )
        };
        self.ask(
            what,
            vec![format!("{} it afterwards.", self.undo_hint())],
            vec![(Answer::Yes, "delete"), (Answer::No, "cancel")],
            move |app, a| match a {
                Answer::Yes => app.delete_now(node, cut),
                _ => app.info("nothing deleted"),
            },
        );
    }

    /// Deletes `node` and its subtree (`cut`: only what follows it), saying how much went.
    pub(crate) fn delete_now(&mut self, node: NodeId, cut: bool) {
        let n = self.deleted_count(node, cut);
        let plural = |k: usize| if k == 1 { "" } else { "s" };
        if cut {
            if self.apply_or_say(Edit::CutAfter { node }).is_some() {
                self.info(if node == NodeId::ROOT {
                    format!(
                        "emptied the record: deleted {n} move{} ({})",
                        plural(n),
                        self.undo_hint()
                    )
                } else {
                    format!(
                        "cut the record here: deleted {n} move{} after this one ({})",
                        plural(n),
                        self.undo_hint()
                    )
                });
            }
            return;
        }
        let text = self.step_text(node);
        if self.apply_or_say(Edit::Detach { node }).is_some() {
            self.info(format!(
                "deleted {text} and the {} move{} after it ({})",
                n - 1,
                plural(n - 1),
                self.undo_hint()
            ));
        }
    }

    pub(crate) fn reorder(&mut self, d: isize) {
        let Some((fork, sel)) = self.alternatives() else {
            self.info("no alternatives here to reorder");
            return;
        };
        let kids = &self.doc.record().node(fork).children;
        let to = sel as isize + d;
        if to < 0 || to >= kids.len() as isize {
            self.info(if d > 0 {
                "already the last alternative"
            } else {
                "already the first alternative"
            });
            return;
        }
        let node = kids[sel];
        let cur = self.cur();
        if self
            .apply_or_say(Edit::Reorder {
                node,
                index: to as usize,
            })
            .is_some()
        {
            // Stay where we were when reordering the next move's alternatives.
            if fork == cur {
                self.settle(cur);
            }
            self.info(format!(
                "moved to place {}/{}{}",
                to + 1,
                self.doc.record().node(fork).children.len(),
                if to == 0 { " (main line here)" } else { "" }
            ));
        }
    }

    pub(crate) fn make_main_line(&mut self) {
        // The end of the shown line, so the whole line becomes the main line.
        let cur = self.cur();
        let on_main = self
            .doc
            .record()
            .path(cur)
            .iter()
            .all(|&n| self.doc.record().sibling_index(n) == 0);
        let below_main = self
            .line()
            .iter()
            .all(|&n| self.doc.record().sibling_index(n) == 0);
        if on_main && below_main {
            self.info("this is already the main line");
            return;
        }
        let end = *self.line().last().unwrap_or(&cur);
        if self
            .apply_or_say(Edit::PromoteToMain { node: end })
            .is_some()
        {
            self.settle(cur);
            self.info(format!(
                "this line is now the main line ({})",
                self.undo_hint()
            ));
        }
    }

    pub(crate) fn set_header(&mut self, h: crate::core::record::Header) {
        let cur = self.cur();
        if self.apply_or_say(Edit::SetHeader(h)).is_some() {
            // A header edit happens at no particular move: stay put.
            self.settle(cur);
            self.refresh_list();
            self.info(format!("header changed ({})", self.undo_hint()));
        }
    }

    // ----- comment editor -----

    pub(crate) fn start_comment(&mut self) {
        let node = self.cur();
        let editor = TextEditor::new(&self.doc.record().node(node).comment);
        self.overlays
            .replace_or_push(Overlay::CommentEditor(CommentEdit { node, editor }));
        self.view.focus = crate::app::Focus::Comment;
        self.info(format!(
            "editing the comment: {} keeps it, {} throws the changes away",
            self.key_name(KeyMode::Editor, Command::EditorDone),
            self.key_name(KeyMode::Editor, Command::EditorDiscard)
        ));
    }

    /// Runs an editing key on the comment being edited.
    pub(crate) fn with_editor(&mut self, f: fn(&mut TextEditor)) {
        if let Some(Overlay::CommentEditor(ed)) = self.overlays.top_mut() {
            f(&mut ed.editor);
        }
    }

    pub(crate) fn finish_comment(&mut self, keep: bool) {
        if self.mode() != Mode::Comment {
            return;
        }
        let Some(Overlay::CommentEditor(ed)) = self.overlays.pop() else {
            return;
        };
        if !keep {
            self.info("comment changes discarded");
            return;
        }
        let text = ed.editor.text();
        if self.doc.record().node(ed.node).comment == text {
            return;
        }
        if self
            .apply_or_say(Edit::SetComment {
                node: ed.node,
                text,
            })
            .is_some()
        {
            self.info(format!(
                "comment saved in the record ({}; {} writes the file)",
                self.undo_hint(),
                self.key(Command::Save)
            ));
        }
    }
}
