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
use crate::app::state::App;
use crate::core::record::NodeId;
use crate::core::rules::{PieceKind, Square};
pub use behaviour::{CopyMenuView, HelpView, OverlayState, WarningList};
use std::rc::Rc;

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

// ----- prompts, lists, questions: each carries what answering it does -----

/// What answering an overlay does, carried by the overlay itself (as helix's `Prompt` and
/// `Picker` carry their callbacks): a feature opens a prompt, a list or a question with its
/// own continuation, and the mechanics here and in `prompt.rs`, `lists.rs`, `confirm.rs`
/// call it without knowing the feature. Shared (`Rc`) so that an `Overlay` stays `Clone`.
pub struct Callback<F: ?Sized>(pub Rc<F>);

impl<F: ?Sized> Clone for Callback<F> {
    fn clone(&self) -> Self {
        Callback(Rc::clone(&self.0))
    }
}

impl<F: ?Sized> std::fmt::Debug for Callback<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Callback(..)")
    }
}

/// What Enter on a prompt does with its text (trimmed), the prompt still open: the feature
/// closes it (`App::close_prompt`), replaces it with the next (`App::next_prompt`), or keeps
/// it open with an error on the status line.
pub type OnSubmit = Callback<dyn Fn(&mut App, String)>;

/// A one-line prompt on the status line.
#[derive(Clone, Debug)]
pub struct Prompt {
    pub label: String,
    pub text: String,
    /// Its name and keys on the status line (`PROMPT`, `SEARCH`).
    pub tag: behaviour::Tag,
    /// Tab completes a file path in it.
    pub completes_paths: bool,
    pub on_submit: OnSubmit,
}

impl Prompt {
    /// A prompt showing `label`, holding `text`, whose Enter runs `on_submit` (see
    /// [`OnSubmit`]).
    pub fn new(
        label: impl Into<String>,
        text: String,
        on_submit: impl Fn(&mut App, String) + 'static,
    ) -> Prompt {
        Prompt {
            label: label.into(),
            text,
            tag: behaviour::Tag::Keys(
                "PROMPT",
                &[
                    (crate::app::dispatch::command::Command::Submit, "ok"),
                    (crate::app::dispatch::command::Command::Cancel, "cancel"),
                ],
            ),
            completes_paths: false,
            on_submit: Callback(Rc::new(on_submit)),
        }
    }
    /// A prompt whose Enter closes it, then runs `then` with its text.
    pub fn closing(
        label: impl Into<String>,
        text: String,
        then: impl Fn(&mut App, String) + 'static,
    ) -> Prompt {
        Prompt::new(label, text, move |app, text| {
            app.close_prompt();
            then(app, text);
        })
    }
    /// Named and keyed as `tag` says on the status line.
    pub fn tagged(self, tag: behaviour::Tag) -> Prompt {
        Prompt { tag, ..self }
    }
    /// Tab completes a file path in it.
    pub fn completing_paths(self) -> Prompt {
        Prompt {
            completes_paths: true,
            ..self
        }
    }
}

/// What a list shows and does: each feature's list is a type of its own (in the feature's
/// folder) that implements this; `lists.rs` holds the mechanics (open, move, refresh).
pub trait ListContent: std::fmt::Debug {
    /// Its name on the status line (`BOOKMARKS`).
    fn tag(&self) -> &'static str;
    /// Its rows, made again whenever the list is refreshed (a prompt over it closed, an
    /// edit under it).
    fn items(&self, app: &App) -> Vec<String>;
    /// `list_pick` (Enter) on row `selected`, the list still open.
    fn pick(&self, app: &mut App, selected: usize);
    /// `list_add`: nothing, unless the list adds entries.
    fn add(&self, _app: &mut App) {}
    /// `list_delete` on row `selected`: nothing, unless the list deletes entries.
    fn delete(&self, _app: &mut App, _selected: usize) {}
    /// `list_sort` (`reverse`: `list_reverse`) with row `selected` selected: false unless
    /// the list sorts (it then opens itself again in the new order).
    fn sort(&self, _app: &mut App, _selected: usize, _reverse: bool) -> bool {
        false
    }
    /// `list_filter`: false unless the list is filtered (it then asks for the filter).
    fn filter(&self, _app: &mut App) -> bool {
        false
    }
}

/// A list overlay to pick from.
#[derive(Clone, Debug)]
pub struct ListView {
    pub content: Rc<dyn ListContent>,
    pub title: String,
    pub items: Vec<String>,
    pub selected: usize,
}

/// An answer to a question. Each but [`Answer::Esc`] is typed as its key, the one the
/// question shows with it (`y: overwrite`); Esc leaves any question.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    Yes,
    No,
    Cancel,
    Save,
    Discard,
    Delete,
    /// Save as UTF-8 instead (an encoding that cannot hold a character).
    Utf8,
    /// Save as another file instead (a file read in part).
    SaveElsewhere,
    Esc,
}

impl Answer {
    /// The key that gives this answer (`None` for Esc, which is a key of its own).
    pub fn key(self) -> Option<char> {
        Some(match self {
            Answer::Yes => 'y',
            Answer::No => 'n',
            Answer::Cancel | Answer::SaveElsewhere => 'c',
            Answer::Save => 's',
            Answer::Discard | Answer::Delete => 'd',
            Answer::Utf8 => 'u',
            Answer::Esc => return None,
        })
    }
}

/// The key, as a question lists it (`y`).
impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.key() {
            Some(k) => write!(f, "{k}"),
            None => f.write_str("Esc"),
        }
    }
}

/// What answering a question does with the answer (the question already closed).
pub type OnAnswer = Callback<dyn Fn(&mut App, Answer)>;

/// A question waiting for a one-key answer.
#[derive(Clone, Debug)]
pub struct Confirm {
    pub question: String,
    /// Lines explaining the question (what would be lost, which characters).
    pub details: Vec<String>,
    /// The answers, each with what it does (Esc, which leaves every question, is not listed).
    pub answers: Vec<(Answer, &'static str)>,
    pub on_answer: OnAnswer,
}

// ----- saving (what a question about a save carries): `document::job` -----

pub use crate::app::document::job::SaveQuestions;
pub use crate::app::document::job::{SaveHow, SaveJob, SaveJobTarget, Then};

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
    /// The solve mode, full screen (`app::train`).
    Train(Box<crate::app::train::TrainScreen>),
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
    /// The solve mode (`kifview train`).
    Train,
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
            Overlay::Train(x) => x.as_ref(),
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
            Overlay::Train(x) => x.as_mut(),
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
    find!(train, train_mut, Train, Box<crate::app::train::TrainScreen>);
    /// Takes the solve mode's screen off the stack (to put it back over another record).
    pub(crate) fn take_train(&mut self) -> Option<Box<crate::app::train::TrainScreen>> {
        let i = self.0.iter().position(|o| matches!(o, Overlay::Train(_)))?;
        match self.0.remove(i) {
            Overlay::Train(t) => Some(t),
            _ => None,
        }
    }
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
        #[derive(Debug)]
        struct Nothing;
        impl ListContent for Nothing {
            fn tag(&self) -> &'static str {
                "NOTHING"
            }
            fn items(&self, _: &App) -> Vec<String> {
                Vec::new()
            }
            fn pick(&self, _: &mut App, _: usize) {}
        }
        s.push(Overlay::List(ListView {
            content: Rc::new(Nothing),
            title: String::new(),
            items: Vec::new(),
            selected: 0,
        }));
        let prompt = |t: &str| Overlay::Prompt(Prompt::new("", t.into(), |_, _| {}));
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
