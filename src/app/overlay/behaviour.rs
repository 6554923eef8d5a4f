//! What each overlay answers about itself, in one place per overlay: [`OverlayState`], a
//! trait (`stack.rs`) every overlay's state type implements for `App` (its mode, its key mode, whether it takes
//! text, its tag on the status line, what Enter and Esc do, what typing, Backspace and paste
//! do, whether it scrolls). `Overlay::state` is the one `match` over the variants in the app;
//! everything else asks the state. The front end's one `match` (`tui::ui::overlays`) picks
//! each variant's widget. A new overlay that shows lines of text (as `info.rs`, the record's
//! info) is a type implementing the trait with [`OverlayState::panel`], opened as
//! `Overlay::Panel(Box::new(..))` and drawn by the panel widget: no variant, no `match`.

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::dispatch::input::KeyEvent;
use crate::app::overlay::{
    BoardInput, CommentEdit, Confirm, CopyMenuView, HelpView, ListView, Mode, Overlay,
    PositionEditing, Prompt, TreeView, WarningList,
};
use crate::app::state::App;

pub use crate::app::overlay::stack::{OverlayState, Panel, Tag};

/// A command handler (`App::close_overlay`, `App::prompt_submit`, ...).
pub type Handler = crate::app::overlay::stack::Handler<App>;

/// Implements `clone_box` for a `Clone` state.
macro_rules! clone_box {
    () => {
        fn clone_box(&self) -> Box<dyn OverlayState<$crate::app::state::App>> {
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

        impl $crate::app::overlay::behaviour::OverlayState<$crate::app::state::App> for $name {
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
            fn clone_box(&self) -> Box<dyn $crate::app::overlay::behaviour::OverlayState<$crate::app::state::App>> {
                Box::new(*self)
            }
        }
    };
}
pub(crate) use text_panel;

impl App {
    /// A panel's command (`dispatch::command::panels!`): opens `P` as it opens (its
    /// `Default`), in place of a panel open on top.
    pub(crate) fn open_panel<P: OverlayState<App> + Default + 'static>(&mut self) {
        self.overlays
            .replace_or_push(Overlay::Panel(Box::new(P::default())));
    }
}

/// Pasted `text` typed into a one-line overlay: each character as if typed, control
/// characters (line breaks, escapes) left out. The paste is taken here.
pub(crate) fn insert_each(
    state: &mut (impl OverlayState<App> + ?Sized),
    text: &str,
) -> Option<fn(&mut App, &str)> {
    for c in text.chars().filter(|c| !c.is_control()) {
        let _ = state.insert(c);
    }
    None
}

impl OverlayState<App> for Prompt {
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
        if c.is_control() {
            return None;
        }
        if std::mem::take(&mut self.offered) {
            self.text.clear();
        }
        if self.text.chars().count() < 400 {
            self.text.push(c);
        }
        None
    }
    /// An empty prompt stays open and says that Esc leaves it (closing it silently made
    /// the next Enter start move input). Text offered goes as a whole.
    fn delete_back(&mut self) -> Option<Handler> {
        if std::mem::take(&mut self.offered) {
            self.text.clear();
            return None;
        }
        self.text.pop().is_none().then_some(App::say_prompt_empty)
    }
    fn paste(&mut self, text: &str) -> Option<fn(&mut App, &str)> {
        insert_each(self, text)
    }
    clone_box!();
}

impl OverlayState<App> for Confirm {
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

impl OverlayState<App> for ListView {
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

impl OverlayState<App> for CommentEdit {
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

impl OverlayState<App> for BoardInput {
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

impl OverlayState<App> for TreeView {
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

impl OverlayState<App> for HelpView {
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

impl OverlayState<App> for WarningList {
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

impl OverlayState<App> for CopyMenuView {
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

impl OverlayState<App> for PositionEditing {
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
