//! The question a recovery file asks when its record is opened again (the unsaved edits a
//! session ended by a signal kept: `recovery.rs`): restore them, leave them or delete them.

use crate::app::dispatch::command::Command;
use crate::app::document;
use crate::app::overlay::Answer;
use crate::app::state::{App, Level};
use std::path::Path;

impl App {
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
                move |app, a| app.answer_recovery(&path, a),
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
                move |app, a| app.answer_recovery(&path, a),
            ),
        }
    }

    /// The answer to "restore the recovery file at `path`?" (or "delete it?").
    fn answer_recovery(&mut self, path: &Path, a: Answer) {
        match a {
            Answer::Yes => self.restore_recovery(path),
            Answer::Delete => match document::remove_recovery(path) {
                Ok(()) => {
                    self.info("recovery file deleted; the file is as it was saved");
                    // The next one another session left, if any.
                    self.offer_recovery();
                }
                Err(e) => self.info_level(format!("not deleted: {e}"), Level::Error),
            },
            _ => self.info(format!(
                "the recovery file stays: {} (restore it by opening the file again)",
                path.display()
            )),
        }
    }

    /// Replaces the record with the recovered one, unsaved, and deletes the recovery file.
    fn restore_recovery(&mut self, path: &Path) {
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
}
