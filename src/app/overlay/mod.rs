//! Overlays: everything that opens over the record (the `:` line, prompts, questions, lists,
//! the comment editor, move input, the tree, help, the reader's warnings, the copy menu, the
//! paste prompt, the position editor, the library, the solve mode, the panels) is one entry
//! on a stack, holding its own state. The key mode is the top entry's; closing one
//! returns to the one below. With nothing open the viewer browses the record.
//!
//! The stack and its kinds are written once, for any app, in [`stack`] (which names no app
//! state, so that `App`, which holds the stack, and the overlays, which act on `App`, use it
//! without a loop); here they are named for [`App`], and `Host for App` is the app's one
//! `match` over the kinds ([`Overlay::state`]).

pub mod behaviour;
pub mod board_input;
pub mod confirm;
pub mod lists;
pub mod mode_line;
pub mod prompt;
pub mod stack;
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

use crate::app::state::App;
pub use stack::{
    Answer, BoardInput, BoardMarks, Callback, CommandLine, CommentEdit, Host, Mode, PasteBox,
    Picked, PositionEditing, TreeView,
};
pub use stack::{CopyMenuView, HelpView, OverlayState, WarningList};

/// What Enter on a prompt does with its text ([`stack::OnSubmit`]).
pub type OnSubmit = stack::OnSubmit<App>;
/// A one-line prompt on the status line ([`stack::Prompt`]).
pub type Prompt = stack::Prompt<App>;
/// A list overlay to pick from ([`stack::ListView`]); its rows and actions are a
/// [`ListContent`].
pub type ListView = stack::ListView<App>;
/// What answering a question does ([`stack::OnAnswer`]).
pub type OnAnswer = stack::OnAnswer<App>;
/// A question waiting for a one-key answer ([`stack::Confirm`]).
pub type Confirm = stack::Confirm<App>;
/// One thing open over the record ([`stack::Overlay`]).
pub type Overlay = stack::Overlay<App>;
/// The open overlays, bottom first ([`stack::Overlays`]).
pub type Overlays = stack::Overlays<App>;

/// What a list shows and does, for the app: each feature's list is a type of its own (in the
/// feature's folder) that implements [`stack::ListContent`] for [`App`].
pub use stack::ListContent;

impl Prompt {
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
}

// ----- saving (what a question about a save carries): `document::job` -----

pub use crate::app::document::job::SaveQuestions;
pub use crate::app::document::job::{SaveHow, SaveJob, SaveJobTarget, Then};

/// The app's one `match` over the kinds of overlay: each kind's state, which answers for it
/// ([`OverlayState`]).
impl Host for App {
    fn state(o: &Overlay) -> &dyn OverlayState<App> {
        match o {
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
    fn state_mut(o: &mut Overlay) -> &mut dyn OverlayState<App> {
        match o {
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
    fn close_top(&mut self) {
        self.close_overlay();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::config::KeyMode;
    use std::rc::Rc;

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
        impl ListContent<App> for Nothing {
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
