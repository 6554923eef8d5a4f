//! From a key to a change: the keymap of the top overlay's mode turns a key into a
//! `Command`, whose handler (from the command table) runs; typed characters go into the top
//! overlay. `update` is the one entry for keys, mouse actions and paste, and the one place they
//! change the app.

pub mod command;
pub mod input;
pub mod typable;

use crate::app::config::KeyMode;
use crate::app::dispatch::command::{Command, command_table, panel_commands, panels};
use crate::app::dispatch::input::{KeyCode, KeyEvent};
use crate::app::document::clipboard::{self, Copy};
use crate::app::document::watch;
use crate::app::overlay::Mode;
use crate::app::overlay::textedit::TextEditor;
use crate::app::state::{Action, App, Level};
use crate::app::view::Drawn;
use crate::core::rules::PieceKind;

/// A panel's handler: opens it (`dispatch::command::panels!`).
macro_rules! open_panel {
    ($module:ident, $state:ident) => {
        App::open_panel::<crate::app::overlay::$module::$state>
    };
}

macro_rules! define_handlers {
    ($( $variant:ident = $name:literal, $doc:literal, $handler:expr; )*) => {
        /// Each command's handler, in the order of `Command`'s variants.
        const HANDLERS: &[fn(&mut App)] = &[ $( $handler, )* ];
    };
}

command_table!(define_handlers);

impl Command {
    /// Runs the command's handler.
    pub fn run(self, app: &mut App) {
        HANDLERS[self as usize](app)
    }
}

impl App {
    /// The action a key means in the current mode.
    pub fn action_for_key(&self, key: KeyEvent) -> Option<Action> {
        if let Some(c) = self.config.keymap.get(self.overlays.key_mode(), &key) {
            return Some(Action::Run(c));
        }
        match key.code {
            KeyCode::Char(c) if self.overlays.takes_text() && !key.mods.ctrl && !key.mods.alt => {
                Some(Action::Insert(c))
            }
            _ => None,
        }
    }

    /// One key press (see [`update`]).
    pub fn handle_key(&mut self, key: KeyEvent) {
        update(self, key);
    }

    /// What a key does: an overlay that takes every key as it is (the position editor) gets
    /// it (Ctrl-z still suspends); elsewhere the top overlay's keymap, or text typed into it.
    fn key_press(&mut self, key: KeyEvent) {
        if let Some(own) = self.overlays.top().and_then(|o| o.state().own_keys()) {
            if self.config.keymap.get(KeyMode::Normal, &key) == Some(Command::Suspend) {
                self.suspend_requested = true;
                return;
            }
            return own(self, key);
        }
        match self.action_for_key(key) {
            Some(a) => self.act(a),
            None if self.mode() == Mode::Normal => self.info_level(
                format!("{key} is not bound (? lists the keys)"),
                Level::Info,
            ),
            None => {}
        }
    }

    // ----- overlay-dependent commands -----

    /// `submit` (Enter): what the top overlay does with it (runs the `:` line, answers a
    /// prompt, opens the pasted text); Enter is no answer to a question.
    pub(crate) fn submit(&mut self) {
        if let Some(run) = self.overlays.top().and_then(|o| o.state().submit()) {
            run(self);
        }
    }

    /// `cancel` (Esc): the top overlay's way out (leaves the `:` line, a prompt, a question,
    /// the paste prompt; closes the others).
    pub(crate) fn cancel(&mut self) {
        match self.overlays.top() {
            Some(o) => o.state().cancel()(self),
            None => self.close_overlay(),
        }
    }

    /// `delete_back` (Backspace): deletes the last character typed. On an empty `:` line it
    /// leaves the line, as vim does; an empty prompt stays open and says that Esc leaves it
    /// (closing it silently made the next Enter start move input).
    pub(crate) fn delete_back(&mut self) {
        let then = self
            .overlays
            .top_mut()
            .and_then(|o| o.state_mut().delete_back());
        if let Some(then) = then {
            then(self);
        }
    }

    /// Says that an empty prompt stays open, and which key leaves it.
    pub(crate) fn say_prompt_empty(&mut self) {
        let esc = self.key_name(KeyMode::Command, Command::Cancel);
        self.info(format!("the prompt is empty: type, or {esc} leaves"));
    }

    /// A character typed into the top overlay.
    fn insert(&mut self, c: char) {
        let then = self
            .overlays
            .top_mut()
            .and_then(|o| o.state_mut().insert(c));
        if let Some(then) = then {
            then(self, c);
        }
    }

    /// Text pasted (see [`update`]).
    pub fn paste(&mut self, text: &str) {
        update(self, Input::Paste(text.to_string()));
    }

    /// Text pasted (or sent at once by an input method): the top overlay takes it (typed
    /// into the comment editor or a prompt, the first line onto the `:` line, into the paste
    /// prompt), and while browsing it opens the paste prompt with it.
    fn paste_text(&mut self, text: &str) {
        let then = match self.overlays.top_mut() {
            Some(o) => o.state_mut().paste(text),
            None => Some(clipboard::paste_text as fn(&mut App, &str)),
        };
        if let Some(then) = then {
            then(self, text);
        }
    }
}

/// What reaches the app from the user: a key, a mouse action (the front end turns a click or
/// the wheel into an [`Action`]) or pasted text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Input {
    Key(KeyEvent),
    Action(Action),
    Paste(String),
}

impl From<KeyEvent> for Input {
    fn from(k: KeyEvent) -> Input {
        Input::Key(k)
    }
}

impl From<Action> for Input {
    fn from(a: Action) -> Input {
        Input::Action(a)
    }
}

impl App {
    /// Takes what the front end's last frame drew (with an input, or after a frame that
    /// drew other sizes); the library shows the rows of its new height. True when that
    /// changed what is shown.
    pub fn take_drawn(&mut self, drawn: Drawn) -> bool {
        self.view.drawn = Some(drawn);
        self.library_height(drawn.library_rows)
    }

    /// What the last frame drew, as far as the app knows (the default before the first).
    pub(crate) fn drawn(&self) -> Drawn {
        self.view.drawn.unwrap_or_default()
    }
}

/// [`update`] with what the front end's last frame drew (the page sizes and how far each
/// pane scrolls), which the input's handlers use in place of the last one handed over.
pub fn update_on(app: &mut App, drawn: Drawn, input: impl Into<Input>) {
    app.take_drawn(drawn);
    update(app, input);
}

/// The one entry for everything the user does, with one set of steps before and after:
/// the last message goes (except while typing a `:` line, which may show completions), the
/// input runs, then the status line names a move the reader warned about and a search whose
/// record changed is run again. What the screen showed is the last [`Drawn`] handed over
/// (none before the first: nothing is clamped, a page is one row).
pub fn update(app: &mut App, input: impl Into<Input>) {
    if app.mode() != Mode::CommandLine {
        app.message = None;
    }
    match input.into() {
        Input::Key(k) => app.key_press(k),
        Input::Action(a) => app.act(a),
        Input::Paste(text) => app.paste_text(&text),
    }
    app.say_move_warning();
    app.search_after_key();
    app.book_after_key();
}

impl App {
    /// Applies one action.
    fn act(&mut self, action: Action) {
        match action {
            Action::Run(c) => c.run(self),
            Action::Insert(c) => self.insert(c),
            Action::GotoPly(n) => self.goto_ply(n),
            Action::JumpTo(id) => self.jump_to(id),
            Action::TreeJumpRow(r) => self.tree_jump(r),
            Action::Scroll(p, d) => self.scroll(p, d),
            Action::BoardClick(sq) => self.board_click(sq),
        }
    }
}

#[cfg(test)]
mod tests;
