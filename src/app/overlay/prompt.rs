//! One-line prompts on the status line: the mechanics (open, close, replace, Enter). What a
//! prompt asks for and what its Enter does travel with it ([`Prompt::on_submit`]): each
//! feature opens its own (a typed move and a bookmark name in `app::edit`, the header's
//! fields in `app::edit::header`, a file name to save to in `app::document`, `/` in
//! `app::search`, the explorer's filter in `app::collection`).

use crate::app::overlay::Mode;
use crate::app::overlay::Overlay;
pub use crate::app::overlay::{OnSubmit, Prompt};
use crate::app::state::App;

impl App {
    /// Opens `p` (in place of a prompt open on top).
    pub(crate) fn open_prompt(&mut self, p: Prompt) {
        self.overlays.replace_or_push(Overlay::Prompt(p));
    }

    /// Closes the prompt, back to what is below it (a list shows what changed).
    pub(crate) fn close_prompt(&mut self) {
        if self.mode() == Mode::Prompt {
            self.overlays.pop();
        }
        if self.mode() == Mode::List {
            self.refresh_list();
        }
    }

    /// Replaces the open prompt with another (the header: the name, then the value).
    pub(crate) fn next_prompt(&mut self, p: Prompt) {
        if let Some(Overlay::Prompt(top)) = self.overlays.top_mut() {
            *top = p;
        }
    }

    /// Enter on a prompt: its continuation runs with the text typed (trimmed).
    pub(crate) fn prompt_submit(&mut self) {
        let Some(Overlay::Prompt(p)) = self.overlays.top() else {
            return;
        };
        let (then, text) = (p.on_submit.clone(), p.text.trim().to_string());
        (then.0)(self, text);
    }
}
