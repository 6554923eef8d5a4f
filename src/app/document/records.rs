//! Files of several records (CSA `/`): `}` / `{` and `:record N` show another record of the
//! file in the viewer. The record shown is the one edited; switching away from unsaved edits
//! asks first (save the file, discard them, or stay), so no edit is ever dropped silently.
//! Saving writes every record back (`document::plan_in_file`), and so do `:w PATH` and
//! `:saveas PATH` to a CSA file; a format of one record per file gets the record shown only,
//! after a question that names the others (`RecordSource::other_records_loss`).

use crate::app::dispatch::command::Command;
use crate::app::document::job::Then;
use crate::app::overlay::Answer;
use crate::app::state::{App, Level};

impl App {
    /// `}` (`delta` 1) and `{` (-1): the next or previous record of the file.
    pub(crate) fn step_record(&mut self, delta: isize) {
        // A game opened from the library, or from the games at a position: that list's next
        // game (`app::library`, `app::collection::games`).
        if self.library_step(delta) || self.collection_games_step(delta) {
            return;
        }
        let count = self.doc.source().record_count;
        if count < 2 {
            self.info(format!("{} holds one record", self.doc.source().name));
            return;
        }
        let to = self.doc.source().record_index as isize + delta;
        if to < 0 || to >= count as isize {
            let which = if delta < 0 { "first" } else { "last" };
            self.info(format!(
                "this is the {which} record ({}/{count})",
                to.clamp(0, count as isize - 1) + 1
            ));
            return;
        }
        self.switch_record(to as usize);
    }

    /// `:record N` (1-based); without N, says which record is shown.
    pub(crate) fn record_command(&mut self, arg: &str) {
        let count = self.doc.source().record_count;
        if arg.is_empty() {
            self.info(format!(
                "record {}/{count} of {} ({{ and }} switch)",
                self.doc.source().record_index + 1,
                self.doc.source().name
            ));
            return;
        }
        match arg.parse::<usize>() {
            Ok(n) if (1..=count).contains(&n) => self.switch_record(n - 1),
            _ => self.info_level(
                format!(
                    ":record N takes a number from 1 to {count} ({} holds {count} record{})",
                    self.doc.source().name,
                    if count == 1 { "" } else { "s" }
                ),
                Level::Error,
            ),
        }
    }

    /// Shows record `index`, asking first when the one shown has unsaved edits.
    fn switch_record(&mut self, index: usize) {
        if index == self.doc.source().record_index {
            self.info(format!(
                "already at record {}/{}",
                index + 1,
                self.doc.source().record_count
            ));
            return;
        }
        if self.save_running() {
            // The file's other records are written back from the texts kept here, which the
            // running save brings up to date when it ends.
            self.info_level(
                "a save is running: switch records once it has ended".into(),
                Level::Warning,
            );
            return;
        }
        if self.doc.source().record_texts.len() != self.doc.source().record_count {
            self.info_level(
                format!(
                    "{} cannot be switched to another record here",
                    self.doc.source().name
                ),
                Level::Error,
            );
            return;
        }
        if self.is_modified() {
            let (n, count) = (
                self.doc.source().record_index + 1,
                self.doc.source().record_count,
            );
            self.ask_save_first(
                format!(
                    "record {n}/{count} has unsaved changes. Save the file before going to record {}?",
                    index + 1
                ),
                vec![format!(
                    "  s saves the whole file (all {count} records, this one with its edits)"
                )],
                ["save and go", "discard and go"],
                move |app, a| app.answer_switch(index, a),
            );
            return;
        }
        self.show_record(index);
    }

    /// The answer to "save before going to another record?".
    fn answer_switch(&mut self, index: usize, a: Answer) {
        match a {
            // The switch happens once the save has written the record (`Then::ShowRecord`):
            // a question or a save still running leaves it for later.
            Answer::Save => self.save_or_ask_name(Then::ShowRecord(index)),
            Answer::Discard => self.show_record(index),
            _ => self.info("still here: nothing was saved or discarded"),
        }
    }

    /// Shows record `index` of the file as it is on disk (the edits of the one shown were
    /// saved or discarded).
    pub(super) fn show_record(&mut self, index: usize) {
        match self.doc.source().record_at(index) {
            Err(e) => self.info_level(e, Level::Error),
            Ok((record, doc)) => {
                let count = doc.record_count;
                let warnings = doc.warnings.len();
                self.replace_record(record, doc);
                let mut msg = format!("record {}/{count}", index + 1);
                let names = self.players_text();
                if !names.is_empty() {
                    msg.push_str(&format!(": {names}"));
                }
                if warnings > 0 {
                    msg.push_str(&format!(
                        "; {warnings} warning{} ({} lists them)",
                        if warnings == 1 { "" } else { "s" },
                        self.key(Command::ShowWarnings)
                    ));
                    self.info_level(msg, Level::Warning);
                } else {
                    self.info(msg);
                }
                self.offer_recovery();
            }
        }
    }

    /// Says which other records of the file have edits kept by a session ended by a signal
    /// (each is offered when its record is shown).
    pub(crate) fn note_other_recoveries(&mut self) {
        let others =
            crate::app::document::other_recoveries(self.doc.source(), &self.session.recovery.own());
        if let Some(first) = others.first() {
            let list: Vec<String> = others.iter().map(ToString::to_string).collect();
            self.info_level(
                format!(
                    "unsaved edits of record {} were kept when kifview was ended: :record {first} offers them",
                    list.join(", ")
                ),
                Level::Warning,
            );
        }
    }

    /// `先手 vs 後手` from the header, or nothing.
    fn players_text(&self) -> String {
        let h = &self.doc.record().header;
        let get = |keys: &[&str]| keys.iter().find_map(|k| h.get(k)).map(str::to_string);
        match (get(&["先手", "下手"]), get(&["後手", "上手"])) {
            (Some(b), Some(w)) => format!("{b} vs {w}"),
            (Some(b), None) => b,
            (None, Some(w)) => w,
            (None, None) => String::new(),
        }
    }
}
