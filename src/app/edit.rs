//! The editor: moves entered on the board or typed, tree edits, comments, bookmarks, header
//! fields, undo/redo, saving (with its questions) and quitting with unsaved edits.
//!
//! Every change to the record goes through `History::apply`, so each is one undo step and
//! the cursor returns to where it happened. Navigation never touches the history.

use super::command::Command;
use super::config::SaveEncoding;
use super::save::{self, DiskStamp};
use super::state::{App, Level, Mode};
use super::textedit::TextEditor;
use crate::core::notation::input::{self, Entered, InputError};
use crate::core::notation::{Format, Newline, TextEncoding};
use crate::core::record::{Edit, EditError, History, NodeId, Special};
use crate::core::rules::{Color, Move, PieceKind, Square};
use std::path::{Path, PathBuf};

/// What the board cursor has picked up.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Picked {
    Square(Square),
    Hand(PieceKind),
}

/// Move input on the board.
#[derive(Clone, Debug)]
pub struct BoardInput {
    pub cursor: Square,
    pub picked: Option<Picked>,
    /// Legal destinations of the picked piece.
    pub targets: Vec<Square>,
    /// A move waiting for the answer to "promote?": from, to.
    pub promotion: Option<(Square, Square)>,
}

impl Default for BoardInput {
    fn default() -> Self {
        BoardInput {
            cursor: Square::new(5, 5).expect("5五"),
            picked: None,
            targets: Vec::new(),
            promotion: None,
        }
    }
}

/// What a one-line prompt is asking for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PromptKind {
    Move,
    Bookmark,
    /// The value of header field number `i`.
    HeaderValue(usize),
    HeaderNewKey,
    HeaderNewValue(String),
    /// A file name to save a record that has none; then quit if asked.
    SaveAs {
        quit_after: bool,
    },
}

/// A one-line prompt on the status line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Prompt {
    pub kind: PromptKind,
    pub label: String,
    pub text: String,
}

/// What a list shows.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ListKind {
    Bookmarks(Vec<NodeId>),
    Endings,
    Header,
}

/// A list overlay to pick from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ListView {
    pub kind: ListKind,
    pub title: String,
    pub items: Vec<String>,
    pub selected: usize,
}

/// The comment being edited.
#[derive(Clone, Debug)]
pub struct CommentEdit {
    pub node: NodeId,
    pub editor: TextEditor,
}

/// Format and text settings of a save.
#[derive(Clone, Copy, Debug)]
pub struct SaveJobTarget {
    pub target: crate::core::notation::Target,
    pub info: crate::core::notation::TextInfo,
}

/// What a save does to the session (vim's `:w`, `:w PATH`, `:saveas PATH`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SaveHow {
    /// Write the record's own file (or, when it has none yet, make PATH its file).
    Own,
    /// Write a copy; the session stays on its file.
    Copy,
    /// Write PATH and make it the session's file and format.
    SaveAs,
}

/// A save in progress (it may stop to ask questions).
#[derive(Clone, Debug)]
pub struct SaveJob {
    pub path: PathBuf,
    pub target: SaveJobTarget,
    pub how: SaveHow,
    /// Writing back to the file the record came from.
    pub same_file: bool,
    pub overwrite_ok: bool,
    pub losses_ok: bool,
    pub quit_after: bool,
}

/// What answering a question leads to.
#[derive(Clone, Debug)]
pub enum Pending {
    /// Unsaved edits and the user asked to quit: s save, d discard, c cancel.
    Quit,
    /// Overwrite a file (changed on disk, or another existing file): y / n.
    Overwrite(SaveJob),
    /// The encoding cannot hold some characters: u save as UTF-8, c cancel.
    Encoding(SaveJob),
    /// The format cannot hold everything: y / n.
    Losses(SaveJob),
    /// Delete `node` and what follows (`cut`: only what follows): many nodes, y / n.
    Delete { node: NodeId, cut: bool },
}

/// A question waiting for a one-key answer.
#[derive(Clone, Debug)]
pub struct Confirm {
    pub question: String,
    /// Lines explaining the question (what would be lost, which characters).
    pub details: Vec<String>,
    /// Answer keys and what they do.
    pub answers: Vec<(char, &'static str)>,
    pub pending: Pending,
}

/// The editor's state inside `App`.
#[derive(Clone, Debug, Default)]
pub struct EditState {
    pub history: History,
    pub board: BoardInput,
    pub prompt: Option<Prompt>,
    pub comment: Option<CommentEdit>,
    pub list: Option<ListView>,
    pub confirm: Option<Confirm>,
    /// The file as it was on disk when opened or last saved.
    pub stamp: Option<DiskStamp>,
    /// The mode a prompt, list or question returns to.
    pub return_mode: Option<Mode>,
    /// Where the cursor was after each undoable edit (parallel to the history's undo stack),
    /// so redo returns there too.
    focus_undo: Vec<NodeId>,
    focus_redo: Vec<NodeId>,
}

impl EditState {
    pub fn new(path: Option<&Path>) -> EditState {
        EditState {
            stamp: path.and_then(DiskStamp::of),
            ..EditState::default()
        }
    }
}

/// Deleting more nodes than this asks first.
pub const ASK_ABOVE: usize = 50;

/// The endings `r` offers.
pub const ENDINGS: [Special; 9] = [
    Special::Resign,
    Special::Interrupt,
    Special::RepetitionDraw,
    Special::Impass,
    Special::Mate,
    Special::Timeout,
    Special::FoulWin,
    Special::FoulLose,
    Special::EnteringKing,
];

/// What the board widget highlights during move input.
#[derive(Clone, Copy, Debug)]
pub struct BoardMarks<'a> {
    pub cursor: Square,
    pub picked: Option<Square>,
    pub targets: &'a [Square],
}

fn drop_kind(c: Command) -> Option<PieceKind> {
    Some(match c {
        Command::DropPawn => PieceKind::Pawn,
        Command::DropLance => PieceKind::Lance,
        Command::DropKnight => PieceKind::Knight,
        Command::DropSilver => PieceKind::Silver,
        Command::DropGold => PieceKind::Gold,
        Command::DropBishop => PieceKind::Bishop,
        Command::DropRook => PieceKind::Rook,
        _ => return None,
    })
}

/// Squares the piece on `from` may legally go to, asked of `Position::check` square by square:
/// the same judge, naming the rule a move breaks, that the move is finally played by.
fn destinations_from(pos: &crate::core::rules::Position, from: Square) -> Vec<Square> {
    Square::all()
        .filter(|&to| {
            [false, true]
                .into_iter()
                .any(|promote| pos.check(Move::Normal { from, to, promote }).is_ok())
        })
        .collect()
}

/// Squares `kind` may legally be dropped on (see `destinations_from`).
fn drop_destinations(pos: &crate::core::rules::Position, kind: PieceKind) -> Vec<Square> {
    Square::all()
        .filter(|&to| pos.check(Move::Drop { kind, to }).is_ok())
        .collect()
}

fn square_name(sq: Square) -> String {
    crate::core::notation::japanese::square_kif(sq)
}

impl App {
    /// Highlights for the board while entering a move.
    pub fn board_marks(&self) -> Option<BoardMarks<'_>> {
        (self.mode == Mode::Board).then(|| BoardMarks {
            cursor: self.edit.board.cursor,
            picked: match self.edit.board.picked {
                Some(Picked::Square(s)) => Some(s),
                _ => None,
            },
            targets: &self.edit.board.targets,
        })
    }

    /// Handles the editor's commands and the editor modes' overrides of shared commands.
    /// Returns false when the command is not the editor's business.
    pub(crate) fn run_edit(&mut self, c: Command) -> bool {
        use Command as C;
        match (self.mode, c) {
            (Mode::Prompt, C::Submit) => self.prompt_submit(),
            (Mode::Prompt, C::Cancel) => self.close_prompt(),
            (Mode::Prompt, C::DeleteBack) => {
                if let Some(p) = &mut self.edit.prompt
                    && p.text.pop().is_none()
                {
                    self.close_prompt();
                }
            }
            (Mode::Confirm, C::Cancel) => self.answer('\u{1b}'),
            (Mode::Confirm, C::Submit | C::DeleteBack) => {}
            (Mode::List, C::Close) => {
                self.edit.list = None;
                self.mode = Mode::Normal;
            }
            (_, C::Quit) => self.request_quit(false),
            (_, C::EnterMove) => self.start_board(),
            (_, C::TypeMove) => self.open_prompt(PromptKind::Move, "move: ", String::new()),
            (_, C::AddEnding) => self.open_endings(),
            (_, C::DeleteVariation) => self.delete_variation(),
            (_, C::CutAfter) => self.cut_after(),
            (_, C::MoveAlternativeDown) => self.reorder(1),
            (_, C::MoveAlternativeUp) => self.reorder(-1),
            (_, C::MakeMainLine) => self.make_main_line(),
            (_, C::Undo) => self.undo(),
            (_, C::Redo) => self.redo(),
            (_, C::EditComment) => self.start_comment(),
            (_, C::EditBookmark) => {
                let cur = self.record.node(self.cur()).bookmark.clone();
                self.open_prompt(PromptKind::Bookmark, "bookmark: ", cur.unwrap_or_default());
            }
            (_, C::ListBookmarks) => self.open_bookmarks(),
            (_, C::EditHeader) => self.open_header(),
            (_, C::Save) => self.save_or_ask_name(false),
            (_, C::CursorLeft) => self.move_cursor(-1, 0),
            (_, C::CursorRight) => self.move_cursor(1, 0),
            (_, C::CursorUp) => self.move_cursor(0, -1),
            (_, C::CursorDown) => self.move_cursor(0, 1),
            (_, C::BoardPick) => self.board_pick(),
            (_, C::Promote) => self.answer_promotion(true),
            (_, C::NoPromote) => self.answer_promotion(false),
            (_, C::BoardCancel) => self.board_cancel(),
            (_, C::EditorDone) => self.finish_comment(true),
            (_, C::EditorDiscard) => self.finish_comment(false),
            (_, C::ListDown) => self.list_move(1),
            (_, C::ListUp) => self.list_move(-1),
            (_, C::ListPick) => self.list_pick(),
            (_, C::ListAdd) => self.list_add(),
            (_, C::ListDelete) => self.list_delete(),
            (
                _,
                C::EditorNewline
                | C::EditorBackspace
                | C::EditorDelete
                | C::EditorLeft
                | C::EditorRight
                | C::EditorUp
                | C::EditorDown
                | C::EditorHome
                | C::EditorEnd,
            ) => {
                if let Some(ed) = &mut self.edit.comment {
                    let e = &mut ed.editor;
                    match c {
                        C::EditorNewline => e.newline(),
                        C::EditorBackspace => e.backspace(),
                        C::EditorDelete => e.delete(),
                        C::EditorLeft => e.left(),
                        C::EditorRight => e.right(),
                        C::EditorUp => e.up(),
                        C::EditorDown => e.down(),
                        C::EditorHome => e.home(),
                        _ => e.end(),
                    }
                }
            }
            (_, c) => match drop_kind(c) {
                Some(k) => self.pick_from_hand(k),
                None => return false,
            },
        }
        true
    }

    /// A character typed in an editor mode. Returns false when the mode takes no text.
    pub(crate) fn insert_edit(&mut self, c: char) -> bool {
        match self.mode {
            Mode::Prompt => {
                if let Some(p) = &mut self.edit.prompt
                    && p.text.chars().count() < 400
                    && !c.is_control()
                {
                    p.text.push(c);
                }
                true
            }
            Mode::Comment => {
                if let Some(ed) = &mut self.edit.comment {
                    ed.editor.insert(c);
                }
                true
            }
            Mode::Confirm => {
                self.answer(c);
                true
            }
            _ => false,
        }
    }

    /// Text pasted (or sent at once by an input method) in an editor mode.
    pub fn paste_edit(&mut self, text: &str) -> bool {
        match self.mode {
            Mode::Comment => {
                if let Some(ed) = &mut self.edit.comment {
                    ed.editor.insert_str(text);
                }
                true
            }
            Mode::Prompt => {
                for c in text.chars().filter(|c| !c.is_control()) {
                    self.insert_edit(c);
                }
                true
            }
            _ => false,
        }
    }

    // ----- applying edits -----

    fn sync_modified(&mut self) {
        self.doc.modified = self.edit.history.is_modified();
    }

    /// Applies an edit as one undo step and goes to where it happened.
    fn apply(&mut self, edit: Edit) -> Result<NodeId, EditError> {
        let cur = self.cur();
        let focus = self.edit.history.apply(&mut self.record, edit, cur)?;
        self.revision += 1;
        self.sync_modified();
        self.jump_to(focus);
        self.edit.focus_undo.push(focus);
        self.edit.focus_redo.clear();
        Ok(focus)
    }

    fn apply_or_say(&mut self, edit: Edit) -> Option<NodeId> {
        match self.apply(edit) {
            Ok(id) => Some(id),
            Err(e) => {
                self.info_level(e.to_string(), Level::Error);
                None
            }
        }
    }

    /// Goes to `id` and remembers it as where the last edit left the cursor.
    fn settle(&mut self, id: NodeId) {
        self.jump_to(id);
        if let Some(f) = self.edit.focus_undo.last_mut() {
            *f = id;
        }
    }

    fn forget_pick(&mut self) {
        let b = &mut self.edit.board;
        b.picked = None;
        b.targets.clear();
        b.promotion = None;
    }

    fn undo(&mut self) {
        self.forget_pick();
        let cur = self.cur();
        match self.edit.history.undo(&mut self.record, cur) {
            Some(to) => {
                if let Some(f) = self.edit.focus_undo.pop() {
                    self.edit.focus_redo.push(f);
                }
                self.revision += 1;
                self.sync_modified();
                self.jump_to(to);
                let more = if self.edit.history.can_undo() {
                    ""
                } else {
                    " (nothing more to undo)"
                };
                self.info(format!("undone{more}; Ctrl-r redoes"));
            }
            None => self.info("nothing to undo"),
        }
    }

    fn redo(&mut self) {
        self.forget_pick();
        let cur = self.cur();
        match self.edit.history.redo(&mut self.record, cur) {
            Some(to) => {
                let to = match self.edit.focus_redo.pop() {
                    Some(f) => {
                        self.edit.focus_undo.push(f);
                        if self.record.is_attached(f) { f } else { to }
                    }
                    None => to,
                };
                self.revision += 1;
                self.sync_modified();
                self.jump_to(to);
                self.info("redone");
            }
            None => self.info("nothing to redo"),
        }
    }

    /// Plays `mv` after the current node: goes to it when it is already there, else adds it
    /// as a new variation after the existing ones.
    pub fn enter_move(&mut self, mv: Move) -> bool {
        let cur = self.cur();
        if let Some(s) = self.record.node(cur).special() {
            let word = s.kif_word().to_string();
            self.info_level(
                format!("the line has ended here ({word}); go back a move to add a variation"),
                Level::Error,
            );
            return false;
        }
        if let Some(child) = self.record.find_move_child(cur, mv) {
            self.jump_to(child);
            self.info(format!(
                "{} is already in the record: went there",
                self.step_text(child)
            ));
            return true;
        }
        let siblings = self.record.node(cur).children.len();
        match self.apply(Edit::AddMove { parent: cur, mv }) {
            Ok(id) => {
                let what = if siblings == 0 {
                    "added".to_string()
                } else {
                    format!("added as variation {}/{}", siblings + 1, siblings + 1)
                };
                self.info(format!("{}: {what} (u undoes)", self.step_text(id)));
                true
            }
            Err(e) => {
                self.info_level(e.to_string(), Level::Error);
                false
            }
        }
    }

    fn add_ending(&mut self, s: Special) {
        let cur = self.cur();
        if let Some(&c) = self
            .record
            .node(cur)
            .children
            .iter()
            .find(|&&c| self.record.node(c).special() == Some(&s))
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
            self.info(format!("ended the line with {} (u undoes)", s.kif_word()));
        }
    }

    fn delete_variation(&mut self) {
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

    fn cut_after(&mut self) {
        let cur = self.cur();
        if self.record.node(cur).children.is_empty() {
            self.info("nothing follows this move");
            return;
        }
        self.delete_or_ask(cur, true);
    }

    /// Nodes a deletion removes: `node`'s whole subtree (`cut`: without `node`).
    fn deleted_count(&self, node: NodeId, cut: bool) -> usize {
        self.record.preorder_from(node).len() - usize::from(cut)
    }

    /// Deletes at once, or asks first when more than `ASK_ABOVE` nodes would go.
    fn delete_or_ask(&mut self, node: NodeId, cut: bool) {
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
            vec!["u undoes it afterwards.".into()],
            vec![('y', "delete"), ('n', "cancel")],
            Pending::Delete { node, cut },
        );
    }

    /// Deletes `node` and its subtree (`cut`: only what follows it), saying how much went.
    fn delete_now(&mut self, node: NodeId, cut: bool) {
        let n = self.deleted_count(node, cut);
        let plural = |k: usize| if k == 1 { "" } else { "s" };
        if cut {
            if self.apply_or_say(Edit::CutAfter { node }).is_some() {
                self.info(if node == NodeId::ROOT {
                    format!(
                        "emptied the record: deleted {n} move{} (u undoes)",
                        plural(n)
                    )
                } else {
                    format!(
                        "cut the record here: deleted {n} move{} after this one (u undoes)",
                        plural(n)
                    )
                });
            }
            return;
        }
        let text = self.step_text(node);
        if self.apply_or_say(Edit::Detach { node }).is_some() {
            self.info(format!(
                "deleted {text} and the {} move{} after it (u undoes)",
                n - 1,
                plural(n - 1)
            ));
        }
    }

    fn reorder(&mut self, d: isize) {
        let Some((fork, sel)) = self.alternatives() else {
            self.info("no alternatives here to reorder");
            return;
        };
        let kids = &self.record.node(fork).children;
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
                self.record.node(fork).children.len(),
                if to == 0 { " (main line here)" } else { "" }
            ));
        }
    }

    fn make_main_line(&mut self) {
        // The end of the shown line, so the whole line becomes the main line.
        let cur = self.cur();
        let on_main = self
            .record
            .path(cur)
            .iter()
            .all(|&n| self.record.sibling_index(n) == 0);
        let below_main = self
            .line()
            .iter()
            .all(|&n| self.record.sibling_index(n) == 0);
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
            self.info("this line is now the main line (u undoes)");
        }
    }

    // ----- board input -----

    fn start_board(&mut self) {
        if let Some(s) = self.record.node(self.cur()).special() {
            let word = s.kif_word().to_string();
            self.info_level(
                format!("the line has ended here ({word}); go back a move to add a variation"),
                Level::Error,
            );
            return;
        }
        let last = self.record.last_move_at(self.cur()).map(|m| m.mv.to());
        self.edit.board = BoardInput {
            cursor: last.unwrap_or(self.edit.board.cursor),
            ..BoardInput::default()
        };
        self.mode = Mode::Board;
        self.board_hint();
    }

    fn board_hint(&mut self) {
        let b = &self.edit.board;
        let text = match (b.promotion, b.picked) {
            (Some(_), _) => "成りますか? y: 成る  n: 不成  Esc: cancel".to_string(),
            (None, Some(p)) => {
                let what = match p {
                    Picked::Square(s) => format!(
                        "{}{}",
                        square_name(s),
                        self.position()
                            .piece_at(s)
                            .map_or('?', |p| p.kind.board_char())
                    ),
                    Picked::Hand(k) => format!("{}打", k.board_char()),
                };
                format!("{what}: choose the square (Enter), Esc puts it back")
            }
            (None, None) => "move input: hjkl/arrows move, Enter picks a piece, P L N S G B R drop from the hand, Esc leaves".to_string(),
        };
        self.info(text);
    }

    fn move_cursor(&mut self, dx: i8, dy: i8) {
        if self.mode != Mode::Board {
            return;
        }
        // On screen, left is towards file 9 and up towards rank 1 (the other way when flipped).
        let s = if self.flipped { -1 } else { 1 };
        let c = self.edit.board.cursor;
        let file = (c.file() as i8 - dx * s).clamp(1, 9) as u8;
        let rank = (c.rank() as i8 + dy * s).clamp(1, 9) as u8;
        if let Some(sq) = Square::new(file, rank) {
            self.edit.board.cursor = sq;
        }
        self.board_hint();
    }

    /// A click on a square: starts move input if needed, then picks there.
    pub(crate) fn board_click(&mut self, sq: Square) {
        if self.mode == Mode::Normal {
            self.start_board();
        }
        if self.mode != Mode::Board || self.edit.board.promotion.is_some() {
            return;
        }
        self.edit.board.cursor = sq;
        self.board_pick();
    }

    fn board_pick(&mut self) {
        if self.mode != Mode::Board || self.edit.board.promotion.is_some() {
            return;
        }
        let sq = self.edit.board.cursor;
        let side = self.position().side_to_move();
        let own = self.position().piece_at(sq).filter(|p| p.color == side);
        match self.edit.board.picked {
            Some(Picked::Square(from)) if from == sq => self.board_cancel(),
            Some(_)
                if own.is_some() && !matches!(self.edit.board.picked, Some(Picked::Hand(_))) =>
            {
                self.pick_square(sq)
            }
            Some(Picked::Square(from)) => self.board_move_to(from, sq),
            Some(Picked::Hand(kind)) => {
                self.finish_board_move(Move::Drop { kind, to: sq });
            }
            None => self.pick_square(sq),
        }
    }

    fn pick_square(&mut self, sq: Square) {
        let pos = self.position();
        let side = pos.side_to_move();
        match pos.piece_at(sq) {
            None => {
                self.info_level(
                    format!(
                        "no piece on {}: put the cursor on one of {}'s pieces (or P L N S G B R to drop)",
                        square_name(sq),
                        if side == Color::Black { "☗" } else { "☖" }
                    ),
                    Level::Error,
                );
            }
            Some(p) if p.color != side => {
                self.info_level(
                    format!(
                        "the {} on {} is the opponent's",
                        p.kind.board_char(),
                        square_name(sq)
                    ),
                    Level::Error,
                );
            }
            Some(p) => {
                let targets = destinations_from(pos, sq);
                if targets.is_empty() {
                    self.info_level(
                        format!(
                            "the {} on {} has no legal move",
                            p.kind.board_char(),
                            square_name(sq)
                        ),
                        Level::Error,
                    );
                    return;
                }
                self.edit.board.picked = Some(Picked::Square(sq));
                self.edit.board.targets = targets;
                self.board_hint();
            }
        }
    }

    fn pick_from_hand(&mut self, kind: PieceKind) {
        if self.mode != Mode::Board || self.edit.board.promotion.is_some() {
            return;
        }
        let pos = self.position();
        if pos.hand_count(pos.side_to_move(), kind) == 0 {
            self.info_level(format!("no {} in hand", kind.board_char()), Level::Error);
            return;
        }
        let targets = drop_destinations(pos, kind);
        if targets.is_empty() {
            self.info_level(
                format!("no square to drop the {} on", kind.board_char()),
                Level::Error,
            );
            return;
        }
        self.edit.board.picked = Some(Picked::Hand(kind));
        self.edit.board.targets = targets;
        self.board_hint();
    }

    fn board_move_to(&mut self, from: Square, to: Square) {
        let (may, must) = self.position().promotion_choice(from, to);
        if must {
            self.finish_board_move(Move::Normal {
                from,
                to,
                promote: true,
            });
        } else if may {
            self.edit.board.promotion = Some((from, to));
            self.board_hint();
        } else {
            self.finish_board_move(Move::Normal {
                from,
                to,
                promote: false,
            });
        }
    }

    fn answer_promotion(&mut self, promote: bool) {
        if let Some((from, to)) = self.edit.board.promotion.take() {
            self.finish_board_move(Move::Normal { from, to, promote });
        }
    }

    fn finish_board_move(&mut self, mv: Move) {
        if let Err(reason) = self.position().check(mv) {
            self.edit.board.promotion = None;
            self.info_level(
                format!("{} is illegal: {reason}", square_name(mv.to())),
                Level::Error,
            );
            return;
        }
        self.edit.board.picked = None;
        self.edit.board.targets.clear();
        self.edit.board.promotion = None;
        self.edit.board.cursor = mv.to();
        self.enter_move(mv);
    }

    fn board_cancel(&mut self) {
        let b = &mut self.edit.board;
        if b.promotion.take().is_some() || b.picked.take().is_some() {
            b.targets.clear();
            self.board_hint();
        } else {
            self.mode = Mode::Normal;
            self.info("left move input");
        }
    }

    // ----- prompts -----

    fn open_prompt(&mut self, kind: PromptKind, label: &str, text: String) {
        if kind == PromptKind::Move
            && let Some(s) = self.record.node(self.cur()).special()
        {
            let word = s.kif_word().to_string();
            self.info_level(
                format!("the line has ended here ({word}); go back a move to add a variation"),
                Level::Error,
            );
            return;
        }
        if self.mode != Mode::Prompt {
            self.edit.return_mode = Some(self.mode);
        }
        self.edit.prompt = Some(Prompt {
            kind,
            label: label.to_string(),
            text,
        });
        self.mode = Mode::Prompt;
    }

    fn close_prompt(&mut self) {
        self.edit.prompt = None;
        self.mode = self.edit.return_mode.take().unwrap_or(Mode::Normal);
        if self.mode == Mode::List {
            self.refresh_list();
        }
    }

    fn prompt_submit(&mut self) {
        let Some(p) = self.edit.prompt.clone() else {
            self.mode = Mode::Normal;
            return;
        };
        let text = p.text.trim().to_string();
        match p.kind {
            PromptKind::Move => {
                if text.is_empty() {
                    self.close_prompt();
                    return;
                }
                let cur = self.cur();
                let prev_to = self.record.node(cur).move_data().map(|m| m.mv.to());
                match input::parse(self.position(), prev_to, &text) {
                    Ok(Entered::Move(mv)) => {
                        self.close_prompt();
                        self.enter_move(mv);
                    }
                    Ok(Entered::Special(s)) => {
                        self.close_prompt();
                        self.add_ending(s);
                    }
                    Err(e) => {
                        let msg = match &e {
                            InputError::Ambiguous(c) => {
                                format!("which one? {} (type one of them)", c.join(" / "))
                            }
                            _ => e.to_string(),
                        };
                        self.info_level(super::text::sanitize(&msg).into_owned(), Level::Error);
                    }
                }
            }
            PromptKind::SaveAs { quit_after } => {
                self.close_prompt();
                if !text.is_empty() {
                    self.save_to(Some(expand_path(&text)), SaveHow::Own, quit_after);
                }
            }
            PromptKind::Bookmark => {
                self.close_prompt();
                let node = self.cur();
                let name = (!text.is_empty()).then(|| text.clone());
                if self.record.node(node).bookmark == name {
                    return;
                }
                if self
                    .apply_or_say(Edit::SetBookmark { node, name })
                    .is_some()
                {
                    self.info(if text.is_empty() {
                        "bookmark removed".to_string()
                    } else {
                        format!("bookmark &{text} set ('  lists the bookmarks)")
                    });
                }
            }
            PromptKind::HeaderValue(i) => {
                self.close_prompt();
                let mut h = self.record.header.clone();
                if let Some(f) = h.fields.get_mut(i)
                    && f.value != text
                {
                    f.value = text;
                    self.set_header(h);
                }
            }
            PromptKind::HeaderNewKey => {
                let key = text.trim_end_matches([':', '：']).trim().to_string();
                if key.is_empty() {
                    self.close_prompt();
                    return;
                }
                if key.contains(['：', '\n']) || key.starts_with('#') {
                    self.info_level(
                        "a field name cannot contain '：' or start with '#'".into(),
                        Level::Error,
                    );
                    return;
                }
                if let Some(i) = self.record.header.fields.iter().position(|f| f.key == key) {
                    let value = self.record.header.fields[i].value.clone();
                    self.edit.prompt = Some(Prompt {
                        kind: PromptKind::HeaderValue(i),
                        label: format!("{key}："),
                        text: value,
                    });
                    return;
                }
                self.edit.prompt = Some(Prompt {
                    kind: PromptKind::HeaderNewValue(key.clone()),
                    label: format!("{key}："),
                    text: String::new(),
                });
            }
            PromptKind::HeaderNewValue(key) => {
                self.close_prompt();
                let mut h = self.record.header.clone();
                h.set(&key, &text);
                self.set_header(h);
                if let Some(l) = &mut self.edit.list {
                    l.selected = self.record.header.fields.len().saturating_sub(1);
                }
            }
        }
    }

    fn set_header(&mut self, h: crate::core::record::Header) {
        let cur = self.cur();
        if self.apply_or_say(Edit::SetHeader(h)).is_some() {
            // A header edit happens at no particular move: stay put.
            self.settle(cur);
            self.refresh_list();
            self.info("header changed (u undoes)");
        }
    }

    // ----- lists -----

    fn open_list(&mut self, kind: ListKind, title: &str) {
        self.edit.list = Some(ListView {
            kind,
            title: title.to_string(),
            items: Vec::new(),
            selected: 0,
        });
        self.refresh_list();
        self.mode = Mode::List;
    }

    fn refresh_list(&mut self) {
        let Some(l) = &self.edit.list else {
            return;
        };
        let items: Vec<String> = match &l.kind {
            ListKind::Bookmarks(ids) => ids
                .iter()
                .map(|&id| {
                    let n = self.record.node(id);
                    format!(
                        "&{}  {}手目 {}",
                        n.bookmark.as_deref().unwrap_or(""),
                        n.ply,
                        self.step_text(id)
                    )
                })
                .collect(),
            ListKind::Endings => ENDINGS.iter().map(|s| s.kif_word().to_string()).collect(),
            ListKind::Header => self
                .record
                .header
                .fields
                .iter()
                .map(|f| format!("{}：{}", f.key, f.value))
                .chain(
                    self.header_placeholders()
                        .into_iter()
                        .map(|k| format!("{k}：（未設定）")),
                )
                .collect(),
        };
        if let Some(l) = &mut self.edit.list {
            l.selected = l.selected.min(items.len().saturating_sub(1));
            l.items = items;
        }
    }

    fn open_bookmarks(&mut self) {
        let ids: Vec<NodeId> = self
            .record
            .preorder()
            .into_iter()
            .filter(|&id| self.record.node(id).bookmark.is_some())
            .collect();
        if ids.is_empty() {
            self.info("no bookmarks (b sets one on the current move)");
            return;
        }
        let cur = self.cur();
        let sel = ids.iter().position(|&i| i == cur).unwrap_or(0);
        self.open_list(ListKind::Bookmarks(ids), "しおり  Enter: go  Esc: close");
        if let Some(l) = &mut self.edit.list {
            l.selected = sel;
        }
    }

    fn open_endings(&mut self) {
        if let Some(s) = self.record.node(self.cur()).special() {
            let word = s.kif_word().to_string();
            self.info_level(format!("the line has already ended ({word})"), Level::Error);
            return;
        }
        self.open_list(
            ListKind::Endings,
            "終局  Enter: end the line here  Esc: cancel",
        );
    }

    fn open_header(&mut self) {
        self.open_list(
            ListKind::Header,
            "対局情報  Enter: edit  a: add  d: delete  Esc: close",
        );
    }

    fn list_move(&mut self, d: isize) {
        if let Some(l) = &mut self.edit.list {
            let n = l.items.len() as isize;
            l.selected = (l.selected as isize + d).clamp(0, (n - 1).max(0)) as usize;
        }
    }

    fn list_pick(&mut self) {
        let Some(l) = self.edit.list.clone() else {
            return;
        };
        match l.kind {
            ListKind::Bookmarks(ids) => {
                self.edit.list = None;
                self.mode = Mode::Normal;
                if let Some(&id) = ids.get(l.selected)
                    && self.record.is_attached(id)
                {
                    self.jump_to(id);
                }
            }
            ListKind::Endings => {
                self.edit.list = None;
                self.mode = Mode::Normal;
                if let Some(s) = ENDINGS.get(l.selected) {
                    self.add_ending(s.clone());
                }
            }
            ListKind::Header => {
                let n = self.record.header.fields.len();
                let Some(f) = self.record.header.fields.get(l.selected) else {
                    match self.header_placeholders().get(l.selected - n) {
                        Some(key) => self.open_prompt(
                            PromptKind::HeaderNewValue(key.to_string()),
                            &format!("{key}："),
                            String::new(),
                        ),
                        None => self.list_add(),
                    }
                    return;
                };
                let (label, value) = (format!("{}：", f.key), f.value.clone());
                self.open_prompt(PromptKind::HeaderValue(l.selected), &label, value);
            }
        }
    }

    /// Usual header fields the record does not have yet (offered in the header list).
    fn header_placeholders(&self) -> Vec<&'static str> {
        let players = if self.record.initial.is_handicap_game() {
            ["下手", "上手"]
        } else {
            ["先手", "後手"]
        };
        players
            .into_iter()
            .chain(["棋戦", "開始日時", "場所", "持ち時間"])
            .filter(|k| self.record.header.get(k).is_none())
            .collect()
    }

    fn list_add(&mut self) {
        if matches!(
            self.edit.list.as_ref().map(|l| &l.kind),
            Some(ListKind::Header)
        ) {
            self.open_prompt(
                PromptKind::HeaderNewKey,
                "new field name (先手, 後手, 棋戦, 開始日時, 場所, ...): ",
                String::new(),
            );
        }
    }

    fn list_delete(&mut self) {
        let Some(l) = &self.edit.list else {
            return;
        };
        match l.kind {
            ListKind::Header => {
                let i = l.selected;
                let mut h = self.record.header.clone();
                if i < h.fields.len() {
                    let f = h.fields.remove(i);
                    self.set_header(h);
                    self.info(format!("removed {} (u undoes)", f.key));
                }
            }
            ListKind::Bookmarks(ref ids) => {
                if let Some(&node) = ids.get(l.selected) {
                    let mut ids = ids.clone();
                    ids.remove(l.selected);
                    if self
                        .apply_or_say(Edit::SetBookmark { node, name: None })
                        .is_some()
                    {
                        if ids.is_empty() {
                            self.edit.list = None;
                            self.mode = Mode::Normal;
                        } else if let Some(l) = &mut self.edit.list {
                            l.kind = ListKind::Bookmarks(ids);
                            self.refresh_list();
                        }
                        self.info("bookmark removed (u undoes)");
                    }
                }
            }
            ListKind::Endings => {}
        }
    }

    // ----- comment editor -----

    fn start_comment(&mut self) {
        let node = self.cur();
        let editor = TextEditor::new(&self.record.node(node).comment);
        self.edit.comment = Some(CommentEdit { node, editor });
        self.focus = super::state::Focus::Comment;
        self.mode = Mode::Comment;
        self.info("editing the comment: Esc keeps it, Ctrl-c throws the changes away");
    }

    fn finish_comment(&mut self, keep: bool) {
        let Some(ed) = self.edit.comment.take() else {
            self.mode = Mode::Normal;
            return;
        };
        self.mode = Mode::Normal;
        if !keep {
            self.info("comment changes discarded");
            return;
        }
        let text = ed.editor.text();
        if self.record.node(ed.node).comment == text {
            return;
        }
        if self
            .apply_or_say(Edit::SetComment {
                node: ed.node,
                text,
            })
            .is_some()
        {
            self.info("comment saved in the record (u undoes; Ctrl-s writes the file)");
        }
    }

    // ----- questions -----

    fn ask(
        &mut self,
        question: String,
        details: Vec<String>,
        answers: Vec<(char, &'static str)>,
        pending: Pending,
    ) {
        if self.mode != Mode::Confirm {
            self.edit.return_mode = Some(match self.mode {
                Mode::CommandLine | Mode::Prompt => Mode::Normal,
                m => m,
            });
        }
        self.edit.confirm = Some(Confirm {
            question,
            details,
            answers,
            pending,
        });
        self.mode = Mode::Confirm;
    }

    fn answer(&mut self, c: char) {
        let Some(q) = self.edit.confirm.take() else {
            self.mode = Mode::Normal;
            return;
        };
        let c = c.to_ascii_lowercase();
        if c != '\u{1b}' && !q.answers.iter().any(|&(k, _)| k == c) {
            self.edit.confirm = Some(q);
            return;
        }
        self.mode = self.edit.return_mode.take().unwrap_or(Mode::Normal);
        if matches!(self.mode, Mode::Confirm | Mode::Prompt | Mode::CommandLine) {
            self.mode = Mode::Normal;
        }
        match (q.pending, c) {
            (Pending::Quit, 's') => self.save_or_ask_name(true),
            (Pending::Quit, 'd') => self.should_quit = true,
            (Pending::Quit, _) => self.info("still here: nothing was saved or discarded"),
            (Pending::Overwrite(mut job), 'y') => {
                job.overwrite_ok = true;
                self.continue_save(job);
            }
            (Pending::Encoding(mut job), 'u') => {
                job.target.info.encoding = TextEncoding::Utf8;
                job.target.info.bom = false;
                job.target.target.declare_encoding = job.target.target.format == Format::Kif;
                self.continue_save(job);
            }
            (Pending::Losses(mut job), 'y') => {
                job.losses_ok = true;
                self.continue_save(job);
            }
            (Pending::Delete { node, cut }, 'y') => self.delete_now(node, cut),
            (Pending::Delete { .. }, _) => self.info("nothing deleted"),
            _ => self.info("not saved"),
        }
    }

    /// `q`: quits, or asks first when there are unsaved edits.
    pub(crate) fn request_quit(&mut self, force: bool) {
        if force || !self.edit.history.is_modified() {
            self.should_quit = true;
            return;
        }
        let name = self.doc.name.clone();
        self.ask(
            format!("{name} has unsaved changes. Save them?"),
            Vec::new(),
            vec![
                ('s', "save and quit"),
                ('d', "discard and quit"),
                ('c', "cancel"),
            ],
            Pending::Quit,
        );
    }

    // ----- saving -----

    /// Handles `:w`, `:w PATH`, `:wq`, `:x`, `:q`, `:q!`. Returns false for other text.
    pub(crate) fn ex_command(&mut self, text: &str) -> bool {
        let (cmd, arg) = match text.split_once(char::is_whitespace) {
            Some((c, a)) => (c, Some(a.trim()).filter(|a| !a.is_empty())),
            None => (text, None),
        };
        let path = arg.map(expand_path);
        match cmd {
            "w" | "write" => self.save_to(path, SaveHow::Copy, false),
            "wq" | "x" => self.save_to(path, SaveHow::Copy, true),
            "sav" | "saveas" if path.is_some() => self.save_to(path, SaveHow::SaveAs, false),
            "sav" | "saveas" => self.info_level(
                "give a file name: :saveas PATH (.kif Shift_JIS, .kifu UTF-8, .csa)".into(),
                Level::Error,
            ),
            "q" | "quit" => self.request_quit(false),
            "q!" | "quit!" => self.request_quit(true),
            _ => return false,
        }
        true
    }

    /// Saves to the record's file, or asks for a name when it has none.
    fn save_or_ask_name(&mut self, quit_after: bool) {
        if self.doc.path.is_some() {
            self.save_to(None, SaveHow::Own, quit_after);
        } else {
            self.open_prompt(
                PromptKind::SaveAs { quit_after },
                "save as (.kif Shift_JIS, .kifu UTF-8, .csa): ",
                String::new(),
            );
        }
    }

    /// Saves to `path` (or the file the record came from) and quits afterwards if asked.
    /// `how` says what becomes of the session: a path that is the record's own file, or any
    /// path while the record has no file yet, is a plain save whatever `how` says.
    pub fn save_to(&mut self, path: Option<PathBuf>, how: SaveHow, quit_after: bool) {
        let Some(path) = path.clone().or_else(|| self.doc.path.clone()) else {
            self.info_level(
                "this record has no file yet: save it with :w PATH (.kif Shift_JIS, .kifu UTF-8, .csa)"
                    .into(),
                Level::Error,
            );
            return;
        };
        let same_file = self
            .doc
            .path
            .as_deref()
            .is_some_and(|p| same_path(p, &path));
        let how = if same_file || self.doc.path.is_none() {
            SaveHow::Own
        } else {
            how
        };
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .unwrap_or_default();
        let newline = if ext == "kif" || ext == "ki2" {
            Newline::CrLf
        } else {
            Newline::Lf
        };
        let same = if same_file {
            self.doc.format.zip(self.doc.info)
        } else {
            None
        };
        let target = save::target_for(&path, same, newline);
        let Some((mut target, mut info)) = target else {
            self.info_level(
                format!(
                    "cannot tell the format of {}: use .kif (Shift_JIS), .kifu (UTF-8), .csa, .ki2, .ki2u, .jkf, .usi, .sfen or .bod",
                    path.display()
                ),
                Level::Error,
            );
            return;
        };
        if same.is_none()
            && let SaveEncoding::Fixed(e) = self.config.save_encoding
            && matches!(target.format, Format::Kif | Format::Ki2)
        {
            info.encoding = e;
            target.declare_encoding = ext == "kif" && e != TextEncoding::ShiftJis;
        }
        let job = SaveJob {
            path,
            target: SaveJobTarget { target, info },
            how,
            same_file,
            overwrite_ok: false,
            losses_ok: false,
            quit_after,
        };
        self.continue_save(job);
    }

    fn continue_save(&mut self, mut job: SaveJob) {
        let name = job.path.display().to_string();
        if !job.overwrite_ok {
            if job.same_file && save::changed_on_disk(&job.path, self.edit.stamp) {
                self.ask(
                    format!("{name} changed on disk since it was opened. Overwrite it?"),
                    vec!["Another program wrote to the file; saving replaces its changes.".into()],
                    vec![('y', "overwrite"), ('n', "cancel")],
                    Pending::Overwrite(job),
                );
                return;
            }
            if !job.same_file && job.path.exists() {
                self.ask(
                    format!("{name} already exists. Overwrite it?"),
                    Vec::new(),
                    vec![('y', "overwrite"), ('n', "cancel")],
                    Pending::Overwrite(job),
                );
                return;
            }
            job.overwrite_ok = true;
        }
        let plan = match save::plan(&self.record, &job.path, job.target.target, job.target.info) {
            Ok(p) => p,
            Err(e) => {
                let mut details: Vec<String> = e
                    .chars
                    .iter()
                    .take(20)
                    .map(|u| match self.locate_char(u.ch) {
                        Some(place) => format!(
                            "  '{}' (U+{:04X}) {place} (line {}, column {} of the file)",
                            u.ch, u.ch as u32, u.line, u.column
                        ),
                        None => format!("  {u}"),
                    })
                    .collect();
                if e.chars.len() > 20 {
                    details.push(format!("  ... and {} more", e.chars.len() - 20));
                }
                let first = e.chars.first().map(|u| {
                    let place = self.locate_char(u.ch).unwrap_or_default();
                    format!("'{}' {place}", u.ch)
                });
                let more = match e.chars.len() {
                    0 | 1 => String::new(),
                    n => format!(" and {} more", n - 1),
                };
                self.ask(
                    format!(
                        "{} cannot hold {} character{} of this record: {}{more}",
                        e.encoding.name(),
                        e.chars.len(),
                        if e.chars.len() == 1 { "" } else { "s" },
                        first.unwrap_or_default()
                    ),
                    details,
                    vec![('u', "save as UTF-8 instead"), ('c', "cancel")],
                    Pending::Encoding(job),
                );
                return;
            }
        };
        let mut losses: Vec<String> = plan.losses.clone();
        if job.same_file && self.doc.record_count > 1 {
            let others = self.doc.record_count - 1;
            losses.push(format!(
                "the other {} of this file (only record {} is written)",
                if others == 1 {
                    "record".to_string()
                } else {
                    format!("{others} records")
                },
                self.doc.record_index + 1
            ));
        }
        if !losses.is_empty() && !job.losses_ok {
            let yes = if job.quit_after {
                "save without them and quit"
            } else {
                "save without them"
            };
            self.ask(
                format!(
                    "{} cannot hold {}: save without them?",
                    plan.target.format.name(),
                    losses.join(", ")
                ),
                losses.iter().map(|l| format!("  - {l}")).collect(),
                vec![('y', yes), ('n', "cancel")],
                Pending::Losses(job),
            );
            return;
        }
        // What was written holds everything in the record: the edits are on disk.
        let whole = plan.losses.is_empty();
        match save::commit(&plan) {
            Err(e) => self.info_level(
                format!("not saved: {name}: {e} (the file on disk is unchanged)"),
                Level::Error,
            ),
            Ok(stamp) => {
                // A followed file (--watch) need not reload what was just written.
                if self
                    .watch
                    .as_ref()
                    .is_some_and(|w| same_path(&w.path, &job.path))
                {
                    super::watch::set_stamp(self, stamp);
                }
                if whole {
                    self.edit.history.mark_saved();
                }
                self.sync_modified();
                let what = format!(
                    "{} {}, {} bytes",
                    plan.target.format.name(),
                    plan.info.encoding.name(),
                    plan.bytes.len()
                );
                let mut msg = if job.how == SaveHow::Copy {
                    format!(
                        "wrote a copy: {name} ({what}); still editing {}",
                        self.doc.name
                    )
                } else {
                    self.edit.stamp = Some(stamp);
                    self.doc.path = Some(job.path.clone());
                    self.doc.name = job
                        .path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_else(|| name.clone());
                    self.doc.format = Some(plan.target.format);
                    self.doc.info = Some(plan.info);
                    if !job.same_file {
                        self.doc.record_count = 1;
                        self.doc.record_index = 0;
                    }
                    format!("saved {name} ({what})")
                };
                if whole {
                    self.info(msg);
                } else {
                    msg.push_str(&format!(
                        "; without {}: [+] stays (only the record in memory holds them)",
                        plan.losses.join(", ")
                    ));
                    self.info_level(msg, Level::Warning);
                }
                if job.quit_after {
                    self.should_quit = true;
                }
            }
        }
    }
}

impl App {
    /// Where in the record a character occurs first, in words.
    fn locate_char(&self, ch: char) -> Option<String> {
        let rec = &self.record;
        if let Some(f) = rec
            .header
            .fields
            .iter()
            .find(|f| f.key.contains(ch) || f.value.contains(ch))
        {
            return Some(format!("in the header field {}", f.key));
        }
        let at = |id: NodeId| {
            if id == NodeId::ROOT {
                "of the start position".to_string()
            } else {
                format!("at move {} ({})", rec.node(id).ply, self.step_text(id))
            }
        };
        for id in rec.preorder() {
            let n = rec.node(id);
            if n.comment.contains(ch) {
                return Some(format!("in the comment {}", at(id)));
            }
            if n.bookmark.as_deref().is_some_and(|b| b.contains(ch)) {
                return Some(format!("in the bookmark {}", at(id)));
            }
            if n.special().is_some_and(|s| s.kif_word().contains(ch)) {
                return Some(format!("in the ending {}", at(id)));
            }
        }
        rec.program_lines
            .iter()
            .any(|l| l.contains(ch))
            .then(|| "in a # line kept from the file".to_string())
    }
}

/// Do two paths name the same file (once both exist, by their canonical form)?
fn same_path(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// `~/x.kif` expanded with `$HOME`.
fn expand_path(s: &str) -> PathBuf {
    if let Some(rest) = s.strip_prefix("~/")
        && let Some(home) = std::env::var_os("HOME")
    {
        return PathBuf::from(home).join(rest);
    }
    PathBuf::from(s)
}
