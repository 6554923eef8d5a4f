//! The overlay stack and its kinds, generic over the app that holds it (`A`, which is
//! `app::App`): `App` holds an `Overlays<App>`, and the overlays' continuations, states and
//! lists act on `&mut A`. Written once here for any `A`, so that this file names no app
//! state and `app::state` (which holds the stack) and the overlays (whose callbacks take the
//! app) use it without a loop: `app::overlay` names the kinds for `App` (`Overlay`,
//! `Prompt`, ...) and, as `Host for App`, the one `match` over the kinds.

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::dispatch::input::KeyEvent;
use crate::app::edit::position_editor::PositionEditor;
use crate::app::overlay::textedit::TextEditor;
use crate::core::record::NodeId;
use crate::core::rules::{PieceKind, Square};
use std::rc::Rc;

/// A command handler (`App::close_overlay`, `App::prompt_submit`, ...).
pub type Handler<A> = fn(&mut A);

/// The app that holds the stack: it knows each kind's state (the one `match` over the kinds,
/// `Overlay::state`) and how the top overlay closes (what Esc does unless a state says).
pub trait Host: Sized + std::fmt::Debug + 'static {
    fn state(o: &Overlay<Self>) -> &dyn OverlayState<Self>;
    fn state_mut(o: &mut Overlay<Self>) -> &mut dyn OverlayState<Self>;
    /// Closes the top overlay, returning to the one below.
    fn close_top(&mut self);
}

/// The name an overlay shows on the status line and its keys, the way out last.
#[derive(Clone, Copy, Debug)]
pub enum Tag {
    /// No tag (a question lists its own answers).
    None,
    /// The name, and commands with what they do: the keys are the keymap's.
    Keys(&'static str, &'static [(Command, &'static str)]),
    /// The name and keys that are not in the keymap (the position editor's own).
    Fixed(&'static str, &'static [&'static str]),
}

/// A panel's text: its title and its lines (untrusted text is sanitized by the widget).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Panel {
    pub title: String,
    pub lines: Vec<String>,
}

/// An overlay's behaviour: the defaults fit an overlay that shows something, closes with
/// Esc and takes no text.
pub trait OverlayState<A: Host>: std::fmt::Debug {
    /// The mode `App::mode` reports while it is on top.
    fn mode(&self) -> Mode;
    /// The keymap its keys are looked up in.
    fn key_mode(&self) -> KeyMode;
    /// Does it take every key as it is, not through a keymap (the position editor, whose
    /// letters are pieces)? Then this gets each key (Ctrl-z still suspends).
    fn own_keys(&self) -> Option<fn(&mut A, KeyEvent)> {
        None
    }
    /// Do typed characters go into it (as text or as an answer)?
    fn takes_text(&self) -> bool {
        false
    }
    /// Its name and keys on the status line.
    fn tag(&self) -> Tag;
    /// `submit` (Enter in the command keymap).
    fn submit(&self) -> Option<Handler<A>> {
        None
    }
    /// `cancel` (Esc in the command keymap).
    fn cancel(&self) -> Handler<A> {
        A::close_top
    }
    /// A character typed into it: taken here, or handed to the app (`Some`: a question's
    /// answer, the paste prompt's text).
    fn insert(&mut self, _c: char) -> Option<fn(&mut A, char)> {
        None
    }
    /// `delete_back` (Backspace): deletes the last character typed; `Some`: what the app
    /// does then (an emptied `:` line leaves).
    fn delete_back(&mut self) -> Option<Handler<A>> {
        None
    }
    /// Pasted text: taken here, or handed to the app.
    fn paste(&mut self, _text: &str) -> Option<fn(&mut A, &str)> {
        None
    }
    /// Its scroll offset, when it scrolls as text.
    fn scroll_mut(&mut self) -> Option<&mut u16> {
        None
    }
    fn scroll(&self) -> u16 {
        0
    }
    /// What the panel widget (`tui::widgets::panel`) shows, for an `Overlay::Panel`; the
    /// kinds with a variant have their own widget (`tui::ui::overlays` maps them).
    fn panel(&self, _app: &A) -> Panel {
        Panel::default()
    }
    /// A copy of it, boxed (an `Overlay` is `Clone`).
    fn clone_box(&self) -> Box<dyn OverlayState<A>>;
}

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
pub type OnSubmit<A> = Callback<dyn Fn(&mut A, String)>;

/// A one-line prompt on the status line.
#[derive(Debug)]
pub struct Prompt<A> {
    pub label: String,
    pub text: String,
    /// Its name and keys on the status line (`PROMPT`, `SEARCH`).
    pub tag: Tag,
    /// Tab completes a file path in it.
    pub completes_paths: bool,
    /// The text is offered, selected as a whole: the first character typed (or pasted)
    /// replaces it, Backspace clears it, Enter takes it as it is.
    pub offered: bool,
    pub on_submit: OnSubmit<A>,
}

impl<A> Clone for Prompt<A> {
    fn clone(&self) -> Self {
        Prompt {
            label: self.label.clone(),
            text: self.text.clone(),
            tag: self.tag,
            completes_paths: self.completes_paths,
            offered: self.offered,
            on_submit: self.on_submit.clone(),
        }
    }
}

impl<A> Prompt<A> {
    /// A prompt showing `label`, holding `text`, whose Enter runs `on_submit` (see
    /// [`OnSubmit`]).
    pub fn new(
        label: impl Into<String>,
        text: String,
        on_submit: impl Fn(&mut A, String) + 'static,
    ) -> Prompt<A> {
        Prompt {
            label: label.into(),
            text,
            tag: Tag::Keys(
                "PROMPT",
                &[(Command::Submit, "ok"), (Command::Cancel, "cancel")],
            ),
            completes_paths: false,
            offered: false,
            on_submit: Callback(Rc::new(on_submit)),
        }
    }
    /// Named and keyed as `tag` says on the status line.
    pub fn tagged(self, tag: Tag) -> Prompt<A> {
        Prompt { tag, ..self }
    }
    /// Its text is offered (see [`Prompt::offered`]): typing replaces it.
    pub fn offering(self) -> Prompt<A> {
        Prompt {
            offered: true,
            ..self
        }
    }
    /// Tab completes a file path in it.
    pub fn completing_paths(self) -> Prompt<A> {
        Prompt {
            completes_paths: true,
            ..self
        }
    }
}

/// What a list shows and does: each feature's list is a type of its own (in the feature's
/// folder) that implements this; `lists.rs` holds the mechanics (open, move, refresh).
pub trait ListContent<A>: std::fmt::Debug {
    /// Its name on the status line (`BOOKMARKS`).
    fn tag(&self) -> &'static str;
    /// Its rows, made again whenever the list is refreshed (a prompt over it closed, an
    /// edit under it).
    fn items(&self, app: &A) -> Vec<String>;
    /// `list_pick` (Enter) on row `selected`, the list still open.
    fn pick(&self, app: &mut A, selected: usize);
    /// `list_add`: nothing, unless the list adds entries.
    fn add(&self, _app: &mut A) {}
    /// `list_delete` on row `selected`: nothing, unless the list deletes entries.
    fn delete(&self, _app: &mut A, _selected: usize) {}
    /// `list_sort` (`reverse`: `list_reverse`) with row `selected` selected: false unless
    /// the list sorts (it then opens itself again in the new order).
    fn sort(&self, _app: &mut A, _selected: usize, _reverse: bool) -> bool {
        false
    }
    /// `list_filter`: false unless the list is filtered (it then asks for the filter).
    fn filter(&self, _app: &mut A) -> bool {
        false
    }
}

/// A list overlay to pick from.
#[derive(Debug)]
pub struct ListView<A> {
    pub content: Rc<dyn ListContent<A>>,
    pub title: String,
    pub items: Vec<String>,
    pub selected: usize,
}

impl<A> Clone for ListView<A> {
    fn clone(&self) -> Self {
        ListView {
            content: Rc::clone(&self.content),
            title: self.title.clone(),
            items: self.items.clone(),
            selected: self.selected,
        }
    }
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
pub type OnAnswer<A> = Callback<dyn Fn(&mut A, Answer)>;

/// A question waiting for a one-key answer.
#[derive(Debug)]
pub struct Confirm<A> {
    pub question: String,
    /// Lines explaining the question (what would be lost, which characters).
    pub details: Vec<String>,
    /// The answers, each with what it does (Esc, which leaves every question, is not listed).
    pub answers: Vec<(Answer, &'static str)>,
    pub on_answer: OnAnswer<A>,
}

impl<A> Clone for Confirm<A> {
    fn clone(&self) -> Self {
        Confirm {
            question: self.question.clone(),
            details: self.details.clone(),
            answers: self.answers.clone(),
            on_answer: self.on_answer.clone(),
        }
    }
}

// ----- saving (what a question about a save carries): `document::job` -----

pub use crate::app::document::job::SaveQuestions;
pub use crate::app::document::job::{SaveHow, SaveJob, SaveJobTarget, Then};

// ----- the stack -----

/// One thing open over the record.
#[derive(Debug)]
pub enum Overlay<A: Host> {
    CommandLine(CommandLine),
    Prompt(Prompt<A>),
    Confirm(Confirm<A>),
    List(ListView<A>),
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
    Train(Box<crate::app::train::screen::TrainScreen>),
    /// An overlay known only by its behaviour (a panel of text, as `info.rs`): a new one
    /// needs no variant.
    Panel(Box<dyn OverlayState<A>>),
}

impl<A: Host> Clone for Box<dyn OverlayState<A>> {
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

impl<A: Host> Overlay<A> {
    /// Its state, which answers for it ([`OverlayState`]): the one `match` over the kinds.
    pub fn state(&self) -> &dyn OverlayState<A> {
        A::state(self)
    }
    /// [`Overlay::state`], to change it.
    pub fn state_mut(&mut self) -> &mut dyn OverlayState<A> {
        A::state_mut(self)
    }
    pub fn mode(&self) -> Mode {
        self.state().mode()
    }
}

/// The open overlays, bottom first.
#[derive(Debug)]
pub struct Overlays<A: Host>(Vec<Overlay<A>>);

impl<A: Host> Default for Overlays<A> {
    fn default() -> Self {
        Overlays(Vec::new())
    }
}

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

impl<A: Host> Overlays<A> {
    pub fn top(&self) -> Option<&Overlay<A>> {
        self.0.last()
    }
    pub fn top_mut(&mut self) -> Option<&mut Overlay<A>> {
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
    pub fn push(&mut self, o: Overlay<A>) {
        self.0.push(o);
    }
    /// Closes the top overlay and returns it.
    pub fn pop(&mut self) -> Option<Overlay<A>> {
        self.0.pop()
    }
    /// Replaces the top overlay when it is of the same mode, else opens `o` over it.
    pub fn replace_or_push(&mut self, o: Overlay<A>) {
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
    pub fn iter(&self) -> impl Iterator<Item = &Overlay<A>> {
        self.0.iter()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    find!(command_line, command_line_mut, CommandLine, CommandLine);
    find!(prompt, prompt_mut, Prompt, Prompt<A>);
    find!(confirm, confirm_mut, Confirm, Confirm<A>);
    find!(list, list_mut, List, ListView<A>);
    find!(comment, comment_mut, CommentEditor, CommentEdit);
    find!(board, board_mut, BoardInput, BoardInput);
    find!(
        train,
        train_mut,
        Train,
        Box<crate::app::train::screen::TrainScreen>
    );
    /// Takes the solve mode's screen off the stack (to put it back over another record).
    pub fn take_train(&mut self) -> Option<Box<crate::app::train::screen::TrainScreen>> {
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

/// The key help, scrolled this far (from the line of the `:` command `at`, when
/// `:help COMMAND` opened it; the help widget finds that line).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct HelpView {
    pub scroll: u16,
    pub at: Option<&'static str>,
}

/// The reader's warnings; `scroll` is the one selected (j/k move it, the list follows;
/// Enter goes to its move: `warnings.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct WarningList {
    pub scroll: u16,
}

/// The copy menu (`y`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct CopyMenuView;
