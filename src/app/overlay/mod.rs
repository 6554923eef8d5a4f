//! Overlays: everything that opens over the record (the `:` line, prompts, questions, lists,
//! the comment editor, move input, the tree, help, the copy menu, the paste prompt) is one
//! entry on a stack, holding its own state. The key mode is the top entry's; closing one
//! returns to the one below. With nothing open the viewer browses the record.

pub mod behaviour;
pub mod board_input;
pub mod confirm;
pub mod lists;
pub mod mode_line;
pub mod prompt;
pub mod textedit;
pub mod tree;
pub mod warnings;

// The panels' modules (their list is `dispatch::command::panels!`).
crate::app::dispatch::command::panels!(declare_panel_modules);

/// Declares each panel's module.
macro_rules! declare_panel_modules {
    ($( $module:ident => $state:ident, $name:literal, $doc:literal; )*) => {
        $( pub mod $module; )*
    };
}
use declare_panel_modules;

use crate::app::config::KeyMode;
use crate::app::edit::position_editor::PositionEditor;
use crate::app::overlay::textedit::TextEditor;
use crate::core::record::NodeId;
use crate::core::rules::{PieceKind, Position, Square};
pub use behaviour::{CopyMenuView, HelpView, OverlayState, WarningList};
use std::path::PathBuf;

/// The comment being edited.
#[derive(Clone, Debug)]
pub struct CommentEdit {
    pub node: NodeId,
    pub editor: TextEditor,
}

/// The `:` command line.
#[derive(Clone, Debug, Default)]
pub struct CommandLine {
    /// Text typed after `:`.
    pub text: String,
    /// Tab completion in progress: the candidates and which one is shown.
    pub completion: Option<(Vec<String>, usize)>,
}

/// The paste prompt's text.
#[derive(Clone, Debug, Default)]
pub struct PasteBox {
    pub text: String,
    /// Opened with `:paste!` (discard unsaved changes).
    pub force: bool,
}

// ----- move input -----

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

/// What the board widget highlights during move input.
#[derive(Clone, Copy, Debug)]
pub struct BoardMarks<'a> {
    pub cursor: Square,
    pub picked: Option<Square>,
    pub targets: &'a [Square],
}

impl BoardInput {
    /// Highlights for the board widget.
    pub fn marks(&self) -> BoardMarks<'_> {
        BoardMarks {
            cursor: self.cursor,
            picked: match self.picked {
                Some(Picked::Square(s)) => Some(s),
                Some(Picked::Hand(_)) | None => None,
            },
            targets: &self.targets,
        }
    }
    /// Puts the picked piece back.
    pub fn forget_pick(&mut self) {
        self.picked = None;
        self.targets.clear();
        self.promotion = None;
    }
}

// ----- the variation tree (its keys: `tree.rs`) -----

/// The tree's state: the row selected (the branch the cursor is on, or the folded branch
/// that hides it) and the branches folded, by their first node (which no key of the tree
/// changes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeView {
    pub selected: usize,
    pub folded: std::collections::HashSet<NodeId>,
}

impl TreeView {
    /// Is the branch starting at `start` folded?
    pub fn is_folded(&self, start: NodeId) -> bool {
        self.folded.contains(&start)
    }
}

// ----- prompts, lists, questions -----

/// What a one-line prompt is asking for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PromptKind {
    Move,
    Bookmark,
    /// The value of header field number `i`.
    HeaderValue(usize),
    HeaderNewKey,
    HeaderNewValue(String),
    /// A file name to save a record that has none; then what was asked (quit).
    SaveAs {
        then: crate::app::document::job::Then,
    },
    /// `/`: what to search for.
    Search,
    /// The file to save the position's picture (SVG or PNG) in.
    Diagram,
    /// The explorer's filter (`collection::Filter::parse`).
    ExplorerFilter,
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
    /// The position editor's presets.
    Presets,
    /// `:engine`: the engines to choose from.
    Engines(Vec<crate::engine::EngineSpec>),
    /// `:set`: the engine's options.
    EngineOptions,
    /// `pick_pv`: the engine's lines.
    EngineLines,
    /// `L`: the matches of the last search.
    Search,
    /// `o`: the collection's games reaching the position.
    CollectionGames(Vec<crate::app::collection::state::GameRef>),
}

/// A list overlay to pick from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ListView {
    pub kind: ListKind,
    pub title: String,
    pub items: Vec<String>,
    pub selected: usize,
}

/// What answering a question leads to.
#[derive(Clone, Debug)]
pub enum Pending {
    /// Unsaved edits and the user asked to quit: s save, d discard, c cancel.
    Quit,
    /// Overwrite a file (changed on disk, or another existing file): y / n. Asked before
    /// the bytes are made.
    Overwrite(SaveJob),
    /// A save's questions about the bytes it made, one after the other (an encoding that
    /// cannot hold a character, what the format or the file cannot hold, a read-only file):
    /// `app::document::questions`.
    Save(Box<SaveQuestions>),
    /// Delete `node` and what follows (`cut`: only what follows): many nodes, y / n.
    Delete { node: NodeId, cut: bool },
    /// Unsaved edits, and the position editor would start a new record: y / n.
    NewRecord(Box<Position>),
    /// A recovery file from a session ended by a signal: y restore, n leave it, d delete it.
    Recover(PathBuf),
    /// Unsaved edits, and another record of the file (this index) was asked for: s save
    /// the file then go, d discard and go, c cancel.
    SwitchRecord(usize),
    /// Unsaved edits, and a game of the library (this id) was asked for: s, d, c.
    LibraryGame(u32),
    /// The copy menu's picture would replace this existing file: y / n.
    ReplacePicture(PathBuf),
}

/// A question waiting for a one-key answer.
#[derive(Clone, Debug)]
pub struct Confirm {
    pub question: String,
    /// Lines explaining the question (what would be lost, which characters).
    pub details: Vec<String>,
    /// The answers, each with what it does (Esc, which leaves every question, is not listed).
    pub answers: Vec<(Answer, &'static str)>,
    pub pending: Pending,
}

// ----- saving (what a question about a save carries): `document::job` -----

pub use crate::app::document::job::SaveQuestions;
pub use crate::app::document::job::{SaveHow, SaveJob, SaveJobTarget, Then};
pub use confirm::Answer;

// ----- the stack -----

/// One thing open over the record.
#[derive(Clone, Debug)]
pub enum Overlay {
    CommandLine(CommandLine),
    Prompt(Prompt),
    Confirm(Confirm),
    List(ListView),
    CommentEditor(CommentEdit),
    BoardInput(BoardInput),
    /// The variation tree (`tree.rs`).
    Tree(TreeView),
    Help(HelpView),
    Warnings(WarningList),
    CopyMenu(CopyMenuView),
    Paste(PasteBox),
    /// The position editor (局面編集).
    PositionEditor(Box<PositionEditing>),
    /// The library: the collection's game list, full screen (`app::library`).
    Library(crate::app::library::screen::LibraryScreen),
    /// An overlay known only by its behaviour (a panel of text, as `info.rs`): a new one
    /// needs no variant.
    Panel(Box<dyn OverlayState>),
}

impl Clone for Box<dyn OverlayState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The position editor and why its last Enter was refused.
#[derive(Clone, Debug)]
pub struct PositionEditing {
    pub editor: PositionEditor,
    /// The checks that failed on the last Enter (cleared by the next key).
    pub errors: Vec<String>,
}

/// What the keyboard is doing: which overlay is on top (`Normal`: none).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Normal,
    CommandLine,
    Tree,
    Help,
    Warnings,
    Board,
    Prompt,
    Comment,
    Confirm,
    List,
    Copy,
    Paste,
    /// The position editor: keys go to it as they are (letters are pieces).
    PositionEditor,
    /// The library's game list.
    Library,
    /// An `Overlay::Panel`, by its name.
    Panel(&'static str),
}

impl Overlay {
    /// Its state, which answers for it ([`OverlayState`]): the one `match` over the kinds.
    pub fn state(&self) -> &dyn OverlayState {
        match self {
            Overlay::CommandLine(x) => x,
            Overlay::Prompt(x) => x,
            Overlay::Confirm(x) => x,
            Overlay::List(x) => x,
            Overlay::CommentEditor(x) => x,
            Overlay::BoardInput(x) => x,
            Overlay::Tree(x) => x,
            Overlay::Help(x) => x,
            Overlay::Warnings(x) => x,
            Overlay::CopyMenu(x) => x,
            Overlay::Paste(x) => x,
            Overlay::PositionEditor(x) => x.as_ref(),
            Overlay::Library(x) => x,
            Overlay::Panel(x) => x.as_ref(),
        }
    }
    /// [`Overlay::state`], to change it.
    pub fn state_mut(&mut self) -> &mut dyn OverlayState {
        match self {
            Overlay::CommandLine(x) => x,
            Overlay::Prompt(x) => x,
            Overlay::Confirm(x) => x,
            Overlay::List(x) => x,
            Overlay::CommentEditor(x) => x,
            Overlay::BoardInput(x) => x,
            Overlay::Tree(x) => x,
            Overlay::Help(x) => x,
            Overlay::Warnings(x) => x,
            Overlay::CopyMenu(x) => x,
            Overlay::Paste(x) => x,
            Overlay::PositionEditor(x) => x.as_mut(),
            Overlay::Library(x) => x,
            Overlay::Panel(x) => x.as_mut(),
        }
    }
    pub fn mode(&self) -> Mode {
        self.state().mode()
    }
}

/// The open overlays, bottom first.
#[derive(Clone, Debug, Default)]
pub struct Overlays(Vec<Overlay>);

/// Typed access to the topmost overlay of one kind.
macro_rules! find {
    ($name:ident, $name_mut:ident, $variant:ident, $t:ty) => {
        /// The topmost overlay of this kind, if one is open.
        pub fn $name(&self) -> Option<&$t> {
            self.0.iter().rev().find_map(|o| match o {
                Overlay::$variant(x) => Some(x),
                _ => None,
            })
        }
        pub fn $name_mut(&mut self) -> Option<&mut $t> {
            self.0.iter_mut().rev().find_map(|o| match o {
                Overlay::$variant(x) => Some(x),
                _ => None,
            })
        }
    };
}

impl Overlays {
    pub fn top(&self) -> Option<&Overlay> {
        self.0.last()
    }
    pub fn top_mut(&mut self) -> Option<&mut Overlay> {
        self.0.last_mut()
    }
    /// The mode of the top overlay.
    pub fn mode(&self) -> Mode {
        self.top().map_or(Mode::Normal, Overlay::mode)
    }
    /// The keymap of the top overlay (browsing: `Normal`).
    pub fn key_mode(&self) -> KeyMode {
        self.top().map_or(KeyMode::Normal, |o| o.state().key_mode())
    }
    /// Do typed characters go into the top overlay?
    pub fn takes_text(&self) -> bool {
        self.top().is_some_and(|o| o.state().takes_text())
    }
    pub fn push(&mut self, o: Overlay) {
        self.0.push(o);
    }
    /// Closes the top overlay and returns it.
    pub fn pop(&mut self) -> Option<Overlay> {
        self.0.pop()
    }
    /// Replaces the top overlay when it is of the same mode, else opens `o` over it.
    pub fn replace_or_push(&mut self, o: Overlay) {
        if self.mode() == o.mode() {
            self.0.pop();
        }
        self.0.push(o);
    }
    /// Closes everything.
    pub fn clear(&mut self) {
        self.0.clear();
    }
    /// Is an overlay of this mode open anywhere on the stack?
    pub fn contains(&self, mode: Mode) -> bool {
        self.0.iter().any(|o| o.mode() == mode)
    }
    /// The stack, bottom first (the front end draws it in this order).
    pub fn iter(&self) -> impl Iterator<Item = &Overlay> {
        self.0.iter()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    find!(command_line, command_line_mut, CommandLine, CommandLine);
    find!(prompt, prompt_mut, Prompt, Prompt);
    find!(confirm, confirm_mut, Confirm, Confirm);
    find!(list, list_mut, List, ListView);
    find!(comment, comment_mut, CommentEditor, CommentEdit);
    find!(board, board_mut, BoardInput, BoardInput);
    find!(paste, paste_mut, Paste, PasteBox);
    find!(
        position_editor,
        position_editor_mut,
        PositionEditor,
        Box<PositionEditing>
    );
    /// The tree's selected row, when the tree is open.
    pub fn tree_selected(&self) -> Option<usize> {
        self.0.iter().rev().find_map(|o| match o {
            Overlay::Tree(t) => Some(t.selected),
            _ => None,
        })
    }
    /// The scroll offset of the top overlay, for the overlays that scroll.
    pub fn scroll_mut(&mut self) -> Option<&mut u16> {
        self.0.last_mut()?.state_mut().scroll_mut()
    }
    /// The top overlay's scroll offset (0 for those that do not scroll).
    pub fn scroll(&self) -> u16 {
        self.top().map_or(0, |o| o.state().scroll())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_decides_the_mode_and_closing_returns_below() {
        let mut s = Overlays::default();
        assert_eq!(s.mode(), Mode::Normal);
        s.push(Overlay::Tree(TreeView {
            selected: 3,
            ..Default::default()
        }));
        s.push(Overlay::Help(HelpView::default()));
        assert_eq!(s.mode(), Mode::Help);
        assert_eq!(s.key_mode(), KeyMode::Help);
        assert_eq!(
            s.tree_selected(),
            Some(3),
            "the tree keeps its row under the help"
        );
        *s.scroll_mut().unwrap() = 7;
        assert_eq!(s.scroll(), 7);
        s.pop();
        assert_eq!(s.mode(), Mode::Tree);
        assert!(s.scroll_mut().is_none(), "the tree does not scroll as text");
        s.pop();
        assert!(s.is_empty());
        assert_eq!(s.mode(), Mode::Normal);
    }

    #[test]
    fn replacing_keeps_one_of_a_kind_on_top() {
        let mut s = Overlays::default();
        s.push(Overlay::List(ListView {
            kind: ListKind::Header,
            title: String::new(),
            items: Vec::new(),
            selected: 0,
        }));
        let prompt = |t: &str| {
            Overlay::Prompt(Prompt {
                kind: PromptKind::HeaderNewKey,
                label: String::new(),
                text: t.into(),
            })
        };
        s.replace_or_push(prompt("a"));
        s.replace_or_push(prompt("b"));
        assert_eq!(s.iter().count(), 2, "the second prompt replaced the first");
        assert_eq!(s.prompt().map(|p| p.text.as_str()), Some("b"));
        assert!(s.contains(Mode::List));
        assert!(s.takes_text(), "a prompt takes text");
        s.pop();
        assert!(!s.takes_text(), "a list does not");
    }
}
