//! Questions that wait for a one-key answer: the mechanics (ask, answer) and the answers.
//! What an answer does travels with the question ([`Confirm::on_answer`]): each feature asks
//! its own (unsaved changes at quit in `app::lifecycle`, a save's questions in
//! `app::document`, a recovery file in `app::document::recovery_question`, large deletions
//! in `app::edit`, a new record from the position editor in `app::edit::setup`).

pub use crate::app::overlay::{Answer, Confirm, OnAnswer};
use crate::app::overlay::{Callback, Mode, Overlay};
use crate::app::state::App;
use std::rc::Rc;

impl App {
    /// Asks a question over what is open (a `:` line or a prompt that led to it closes);
    /// `then` runs with the answer once the question has closed.
    pub(crate) fn ask(
        &mut self,
        question: String,
        details: Vec<String>,
        answers: Vec<(Answer, &'static str)>,
        then: impl Fn(&mut App, Answer) + 'static,
    ) {
        while matches!(
            self.mode(),
            Mode::CommandLine | Mode::Prompt | Mode::Confirm
        ) {
            self.overlays.pop();
        }
        self.overlays.push(Overlay::Confirm(Confirm {
            question,
            details,
            answers,
            on_answer: Callback(Rc::new(then)),
        }));
    }

    /// A key typed while a question is open: the answer it names, if the question has it.
    pub(crate) fn answer(&mut self, c: char) {
        let c = c.to_ascii_lowercase();
        let Some(Overlay::Confirm(q)) = self.overlays.top() else {
            return;
        };
        if let Some(&(a, _)) = q.answers.iter().find(|(a, _)| a.key() == Some(c)) {
            self.answer_with(a);
        }
    }

    /// Closes the question open and does what `a` says to it.
    pub(crate) fn answer_with(&mut self, a: Answer) {
        let Some(Overlay::Confirm(q)) = self.overlays.pop() else {
            return;
        };
        (q.on_answer.0)(self, a);
    }

    /// Asks whether to save the unsaved edits before leaving them (quitting, going to another
    /// record or game): `Save` and `Discard` (`labels`: what each does next), or `Cancel`;
    /// `then` runs with the answer.
    pub(crate) fn ask_save_first(
        &mut self,
        question: String,
        details: Vec<String>,
        labels: [&'static str; 2],
        then: impl Fn(&mut App, Answer) + 'static,
    ) {
        let answers = vec![
            (Answer::Save, labels[0]),
            (Answer::Discard, labels[1]),
            (Answer::Cancel, "cancel"),
        ];
        self.ask(question, details, answers, then);
    }
}
