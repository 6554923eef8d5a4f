//! What each overlay answers about itself, in one place per overlay: [`OverlayState`], a
//! trait every overlay's state type implements (its mode, its key mode, whether it takes
//! text, its tag on the status line, what Enter and Esc do, what typing, Backspace and paste
//! do, whether it scrolls). `Overlay::state` is the one `match` over the variants in the app;
//! everything else asks the state. The front end's one `match` (`tui::ui::overlays`) picks
//! each variant's widget. A new overlay that shows lines of text (as `info.rs`, the record's
//! info) is a type implementing the trait with [`OverlayState::panel`], opened as
//! `Overlay::Panel(Box::new(..))` and drawn by the panel widget: no variant, no `match`.

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::dispatch::input::KeyEvent;
use crate::app::overlay::TreeView;
use crate::app::overlay::{
    BoardInput, CommentEdit, Confirm, ListView, Mode, Overlay, PositionEditing, Prompt,
};
use crate::app::state::App;

/// A command handler (`App::close_overlay`, `App::prompt_submit`, ...).
pub type Handler = fn(&mut App);

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
pub trait OverlayState: std::fmt::Debug {
    /// The mode `App::mode` reports while it is on top.
    fn mode(&self) -> Mode;
    /// The keymap its keys are looked up in.
    fn key_mode(&self) -> KeyMode;
    /// Does it take every key as it is, not through a keymap (the position editor, whose
    /// letters are pieces)? Then this gets each key (Ctrl-z still suspends).
    fn own_keys(&self) -> Option<fn(&mut App, KeyEvent)> {
        None
    }
    /// Do typed characters go into it (as text or as an answer)?
    fn takes_text(&self) -> bool {
        false
    }
    /// Its name and keys on the status line.
    fn tag(&self) -> Tag;
    /// `submit` (Enter in the command keymap).
    fn submit(&self) -> Option<Handler> {
        None
    }
    /// `cancel` (Esc in the command keymap).
    fn cancel(&self) -> Handler {
        App::close_overlay
    }
    /// A character typed into it: taken here, or handed to the app (`Some`: a question's
    /// answer, the paste prompt's text).
    fn insert(&mut self, _c: char) -> Option<fn(&mut App, char)> {
        None
    }
    /// `delete_back` (Backspace): deletes the last character typed; `Some`: what the app
    /// does then (an emptied `:` line leaves).
    fn delete_back(&mut self) -> Option<Handler> {
        None
    }
    /// Pasted text: taken here, or handed to the app.
    fn paste(&mut self, _text: &str) -> Option<fn(&mut App, &str)> {
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
    fn panel(&self, _app: &App) -> Panel {
        Panel::default()
    }
    /// A copy of it, boxed (an `Overlay` is `Clone`).
    fn clone_box(&self) -> Box<dyn OverlayState>;
}

/// Implements `clone_box` for a `Clone` state.
macro_rules! clone_box {
    () => {
        fn clone_box(&self) -> Box<dyn OverlayState> {
            Box::new(self.clone())
        }
    };
}
pub(crate) use clone_box;

/// Implements `scroll_mut` and `scroll` for a state with a `scroll: u16` field.
macro_rules! scrolls {
    () => {
        fn scroll_mut(&mut self) -> Option<&mut u16> {
            Some(&mut self.scroll)
        }
        fn scroll(&self) -> u16 {
            self.scroll
        }
    };
}
pub(crate) use scrolls;

/// A panel of text lines (`Overlay::Panel`) that scrolls and closes as the help does: its
/// type (scrolled this far), mode tag, title and the function that makes its lines from the
/// app. `text_panel!(RecordInfo, "INFO", "Record info", info_lines);`
macro_rules! text_panel {
    ($(#[$doc:meta])* $name:ident, $tag:literal, $title:literal, $lines:path) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
        pub struct $name {
            scroll: u16,
        }

        impl $crate::app::overlay::behaviour::OverlayState for $name {
            fn mode(&self) -> $crate::app::overlay::Mode {
                $crate::app::overlay::Mode::Panel($tag)
            }
            /// Scrolls and closes as the help does.
            fn key_mode(&self) -> $crate::app::config::KeyMode {
                $crate::app::config::KeyMode::Help
            }
            fn tag(&self) -> $crate::app::overlay::behaviour::Tag {
                $crate::app::overlay::behaviour::Tag::Keys(
                    $tag,
                    &[($crate::app::dispatch::command::Command::Close, "close")],
                )
            }
            $crate::app::overlay::behaviour::scrolls!();
            fn panel(&self, app: &$crate::app::state::App) -> $crate::app::overlay::behaviour::Panel {
                $crate::app::overlay::behaviour::Panel {
                    title: $title.into(),
                    lines: $lines(app),
                }
            }
            fn clone_box(&self) -> Box<dyn $crate::app::overlay::behaviour::OverlayState> {
                Box::new(*self)
            }
        }
    };
}
pub(crate) use text_panel;

impl App {
    /// A panel's command (`dispatch::command::panels!`): opens `P` as it opens (its
    /// `Default`), in place of a panel open on top.
    pub(crate) fn open_panel<P: OverlayState + Default + 'static>(&mut self) {
        self.overlays
            .replace_or_push(Overlay::Panel(Box::new(P::default())));
    }
}

/// Pasted `text` typed into a one-line overlay: each character as if typed, control
/// characters (line breaks, escapes) left out. The paste is taken here.
pub(crate) fn insert_each(
    state: &mut (impl OverlayState + ?Sized),
    text: &str,
) -> Option<fn(&mut App, &str)> {
    for c in text.chars().filter(|c| !c.is_control()) {
        let _ = state.insert(c);
    }
    None
}

impl OverlayState for Prompt {
    fn mode(&self) -> Mode {
        Mode::Prompt
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Command
    }
    fn takes_text(&self) -> bool {
        true
    }
    fn tag(&self) -> Tag {
        self.tag
    }
    fn submit(&self) -> Option<Handler> {
        Some(App::prompt_submit)
    }
    fn cancel(&self) -> Handler {
        App::close_prompt
    }
    fn insert(&mut self, c: char) -> Option<fn(&mut App, char)> {
        if self.text.chars().count() < 400 && !c.is_control() {
            self.text.push(c);
        }
        None
    }
    /// An empty prompt stays open and says that Esc leaves it (closing it silently made
    /// the next Enter start move input).
    fn delete_back(&mut self) -> Option<Handler> {
        self.text.pop().is_none().then_some(App::say_prompt_empty)
    }
    fn paste(&mut self, text: &str) -> Option<fn(&mut App, &str)> {
        insert_each(self, text)
    }
    clone_box!();
}

impl OverlayState for Confirm {
    fn mode(&self) -> Mode {
        Mode::Confirm
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Command
    }
    fn takes_text(&self) -> bool {
        true
    }
    /// The question lists its own answers.
    fn tag(&self) -> Tag {
        Tag::None
    }
    fn cancel(&self) -> Handler {
        |app| app.answer_with(crate::app::overlay::Answer::Esc)
    }
    fn insert(&mut self, _c: char) -> Option<fn(&mut App, char)> {
        Some(App::answer)
    }
    clone_box!();
}

impl OverlayState for ListView {
    fn mode(&self) -> Mode {
        Mode::List
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::List
    }
    fn tag(&self) -> Tag {
        let name = self.content.tag();
        Tag::Keys(
            name,
            &[(Command::ListPick, "choose"), (Command::Close, "close")],
        )
    }
    clone_box!();
}

impl OverlayState for CommentEdit {
    fn mode(&self) -> Mode {
        Mode::Comment
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Editor
    }
    fn takes_text(&self) -> bool {
        true
    }
    fn tag(&self) -> Tag {
        Tag::Keys(
            "COMMENT",
            &[
                (Command::EditorDiscard, "discard"),
                (Command::EditorDone, "keep"),
            ],
        )
    }
    fn insert(&mut self, c: char) -> Option<fn(&mut App, char)> {
        self.editor.insert(c);
        None
    }
    fn paste(&mut self, text: &str) -> Option<fn(&mut App, &str)> {
        self.editor.insert_str(text);
        None
    }
    clone_box!();
}

impl OverlayState for BoardInput {
    fn mode(&self) -> Mode {
        Mode::Board
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Board
    }
    fn tag(&self) -> Tag {
        Tag::Keys("MOVE INPUT", &[(Command::BoardCancel, "leave")])
    }
    clone_box!();
}

impl OverlayState for TreeView {
    fn mode(&self) -> Mode {
        Mode::Tree
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Tree
    }
    fn tag(&self) -> Tag {
        Tag::Keys(
            "TREE",
            &[
                (Command::TreeFold, "fold"),
                (Command::TreeJump, "go"),
                (Command::Close, "close"),
            ],
        )
    }
    clone_box!();
}

/// The key help, scrolled this far (from the line of the `:` command `at`, when
/// `:help COMMAND` opened it; the help widget finds that line).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct HelpView {
    pub scroll: u16,
    pub at: Option<&'static str>,
}

impl OverlayState for HelpView {
    fn mode(&self) -> Mode {
        Mode::Help
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Help
    }
    fn tag(&self) -> Tag {
        Tag::Keys("HELP", &[(Command::Close, "close")])
    }
    scrolls!();
    clone_box!();
}

/// The reader's warnings; `scroll` is the one selected (j/k move it, the list follows;
/// Enter goes to its move: `warnings.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct WarningList {
    pub scroll: u16,
}

impl OverlayState for WarningList {
    fn mode(&self) -> Mode {
        Mode::Warnings
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Help
    }
    fn tag(&self) -> Tag {
        Tag::Keys(
            "WARNINGS",
            &[
                (Command::WarningJump, "go to the move"),
                (Command::Close, "close"),
            ],
        )
    }
    scrolls!();
    clone_box!();
}

/// The copy menu (`y`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct CopyMenuView;

impl OverlayState for CopyMenuView {
    fn mode(&self) -> Mode {
        Mode::Copy
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Copy
    }
    fn tag(&self) -> Tag {
        Tag::Keys("COPY", &[(Command::Close, "close")])
    }
    clone_box!();
}

impl OverlayState for PositionEditing {
    fn mode(&self) -> Mode {
        Mode::PositionEditor
    }
    /// Not looked up: it takes every key ([`OverlayState::own_keys`]).
    fn key_mode(&self) -> KeyMode {
        KeyMode::Board
    }
    fn own_keys(&self) -> Option<fn(&mut App, KeyEvent)> {
        Some(App::position_editor_key)
    }
    /// Its keys are its own (not in the keymap).
    fn tag(&self) -> Tag {
        Tag::Fixed("POSITION EDITOR", &["Enter: use", "Esc: cancel"])
    }
    clone_box!();
}
