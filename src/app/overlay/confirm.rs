//! Questions that wait for a one-key answer: unsaved changes at quit, overwriting, an
//! encoding or a format that cannot hold everything, large deletions.

use crate::app::dispatch::command::Command;
use crate::app::document;
pub use crate::app::overlay::{Confirm, Pending};
use crate::app::overlay::{Mode, Overlay};
use crate::app::state::{App, Level};
use std::fmt;

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
impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.key() {
            Some(k) => write!(f, "{k}"),
            None => f.write_str("Esc"),
        }
    }
}

impl App {
    /// Asks a question over what is open (a `:` line or a prompt that led to it closes).
    pub(crate) fn ask(
        &mut self,
        question: String,
        details: Vec<String>,
        answers: Vec<(Answer, &'static str)>,
        pending: Pending,
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
            pending,
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
        match (q.pending, a) {
            (Pending::Quit, Answer::Save) => {
                self.save_or_ask_name(crate::app::document::job::Then::Quit { force: false })
            }
            (Pending::Quit, Answer::Discard) => self.should_quit = true,
            (Pending::Quit, _) => self.info("still here: nothing was saved or discarded"),
            (Pending::Overwrite(mut job), Answer::Yes) => {
                job.overwrite_ok = true;
                self.continue_save(job);
            }
            (Pending::Overwrite(_), _) => self.info("not saved"),
            (Pending::Save(q), a) => self.answer_save(*q, a),
            (Pending::Delete { node, cut }, Answer::Yes) => self.delete_now(node, cut),
            (Pending::Delete { .. }, _) => self.info("nothing deleted"),
            (Pending::NewRecord(pos), Answer::Yes) => {
                self.overlays.clear();
                self.new_record_from(*pos);
            }
            (Pending::NewRecord(_), _) => self.info("back in the position editor"),
            (Pending::SwitchRecord(index), a) => self.answer_switch(index, a),
            (Pending::LibraryGame(id), a) => self.answer_library_game(id, a),
            (Pending::ReplacePicture(path), Answer::Yes) => self.write_diagram(path),
            (Pending::ReplacePicture(path), _) => self.info(format!(
                "{}: not saved; the file is as it was",
                document::file_name(&path)
            )),
            (Pending::Recover(path), Answer::Yes) => self.restore_recovery(&path),
            (Pending::Recover(path), Answer::Delete) => match document::remove_recovery(&path) {
                Ok(()) => {
                    self.info("recovery file deleted; the file is as it was saved");
                    // The next one another session left, if any.
                    self.offer_recovery();
                }
                Err(e) => self.info_level(format!("not deleted: {e}"), Level::Error),
            },
            (Pending::Recover(path), _) => self.info(format!(
                "the recovery file stays: {} (restore it by opening the file again)",
                path.display()
            )),
        }
    }

    /// Offers the recovery files earlier sessions left for the record shown, newest first,
    /// each with what it holds; one that holds no record is not restored, only deleted.
    pub(crate) fn offer_recovery(&mut self) {
        let found = document::find_recoveries(self.source(), &self.session.recovery.own());
        let Some(newest) = found.first() else {
            self.note_other_recoveries();
            return;
        };
        let mut details: Vec<String> = found
            .iter()
            .map(|r| format!("  {}: {}", r.path.display(), r.summary()))
            .collect();
        if found.len() > 1 {
            details.insert(
                0,
                format!(
                    "{} sessions kept edits; the newest is offered first, then the others",
                    found.len()
                ),
            );
        }
        let name = self.source().name.clone();
        let path = newest.path.clone();
        match &newest.kind {
            document::RecoveryKind::Unusable(why) => self.ask(
                format!("A recovery file of {name} holds no record ({why}). Delete it?"),
                details,
                vec![(Answer::Delete, "delete it"), (Answer::No, "leave it")],
                Pending::Recover(path),
            ),
            document::RecoveryKind::Record { .. } => self.ask(
                format!(
                    "Restore the unsaved edits of {name} kept when kifview was ended ({})?",
                    newest.summary()
                ),
                details,
                vec![
                    (Answer::Yes, "restore"),
                    (Answer::No, "open the file as saved"),
                    (Answer::Delete, "delete them"),
                ],
                Pending::Recover(path),
            ),
        }
    }

    /// Replaces the record with the recovered one, unsaved, and deletes the recovery file.
    fn restore_recovery(&mut self, path: &std::path::Path) {
        match document::read_recovery(path) {
            Err(e) => self.info_level(format!("not restored: {e}"), Level::Error),
            Ok(record) => {
                let doc = self.source().clone();
                self.replace_record(record, doc);
                self.mark_unsaved();
                let _ = document::remove_recovery(path);
                let left =
                    document::find_recoveries(self.source(), &self.session.recovery.own()).len();
                let save = self.key(Command::Save);
                if left > 0 {
                    self.info_level(
                        format!(
                            "unsaved edits restored ({save} saves them); {left} more recovery file{} of another session: :e reopens the file to offer {}",
                            if left == 1 { "" } else { "s" },
                            if left == 1 { "it" } else { "them" }
                        ),
                        Level::Warning,
                    );
                } else {
                    self.info(format!("unsaved edits restored ({save} saves them)"));
                }
            }
        }
    }

    /// `q`: quits, or asks first when there are unsaved edits.
    pub(crate) fn request_quit(&mut self, force: bool) {
        if self.quit_waits_for_save(force) || (!force && self.stacked_unsaved()) {
            return;
        }
        if force || !self.is_modified() {
            self.should_quit = true;
            return;
        }
        let name = self.source().name.clone();
        self.ask_save_first(
            format!("{name} has unsaved changes. Save them?"),
            Vec::new(),
            ["save and quit", "discard and quit"],
            Pending::Quit,
        );
    }

    /// Asks whether to save the unsaved edits before leaving them (quitting, going to another
    /// record or game): `Save` and `Discard` (labelled `then`, what each does next), or
    /// `Cancel`.
    pub(crate) fn ask_save_first(
        &mut self,
        question: String,
        details: Vec<String>,
        then: [&'static str; 2],
        pending: Pending,
    ) {
        let answers = vec![
            (Answer::Save, then[0]),
            (Answer::Discard, then[1]),
            (Answer::Cancel, "cancel"),
        ];
        self.ask(question, details, answers, pending);
    }
}
