//! A save's questions about the bytes it made (`background::prepare`): an encoding that
//! cannot hold a character, what the format or the file cannot hold, a read-only file. They
//! are asked one after the other, each named and counted, before anything is written; after
//! every yes the bytes already made are written on a thread ([`App::write_after_yes`]): the
//! record is rendered once per save. Saving as UTF-8 instead re-encodes the KIF text made
//! for the question; another format's text changes with its encoding in more places, and is
//! made again.

use crate::app::document::background::{Progress, write_prepared};
use crate::app::document::checks::{DiskStamp, SaveLoss};
use crate::app::document::file_name;
use crate::app::document::job::{SaveQuestions, Stage};
use crate::app::document::save::save_as_prompt;
use crate::app::overlay::{Answer, SaveJob};
use crate::app::state::{App, Level};
use crate::core::notation::encoding::EncodeError;
use crate::core::notation::{Format, TextEncoding};
use std::sync::Arc;

impl App {
    /// Asks the first question of `q` from its stage on that applies, or writes the bytes
    /// when none is left.
    pub(super) fn ask_next(&mut self, mut q: SaveQuestions) {
        loop {
            let p = Arc::clone(&q.prepared);
            match q.at {
                Stage::Encoding if p.unencodable.is_some() => {
                    let e = &p.unencodable.as_ref().expect("checked").error;
                    return self.ask_unencodable(q, e);
                }
                Stage::Losses if !p.losses.is_empty() => return self.ask_losses(q, &p.losses),
                // Read-only when the bytes were made, or made so while a question was open.
                Stage::ReadOnly
                    if !q.read_only_ok
                        && (p.read_only.is_some()
                            || crate::store::read_only(&q.job.path).is_some()) =>
                {
                    return self.ask_read_only(q);
                }
                Stage::Disk if DiskStamp::of(&q.job.path) != q.disk => {
                    return self.ask_disk_changed(q);
                }
                Stage::Done => return self.write_after_yes(q),
                _ => q.at = q.at.next(),
            }
        }
    }

    /// Asks one of a save's questions; the answer goes on with `q` (`answer_save`).
    fn ask_save(
        &mut self,
        question: String,
        details: Vec<String>,
        answers: Vec<(Answer, &'static str)>,
        q: SaveQuestions,
    ) {
        self.ask(question, details, answers, move |app, a| {
            app.answer_save(q.clone(), a)
        });
    }

    /// The answer to the open question of a save.
    fn answer_save(&mut self, mut q: SaveQuestions, a: Answer) {
        match (q.at, a) {
            (Stage::Encoding, Answer::Utf8) => {
                let t = &mut q.job.target;
                t.info.encoding = TextEncoding::Utf8;
                t.info.bom = false;
                t.target.declare_encoding = t.target.format == Format::Kif;
                match q.prepared.as_utf8(t.info) {
                    // The text made for the question, in UTF-8; then the other questions.
                    Some(p) => {
                        q.prepared = Arc::new(p);
                        q.at = Stage::Losses;
                        self.ask_next(q);
                    }
                    // Another format declares its encoding in more places: made again.
                    None => self.continue_save(q.job),
                }
            }
            (Stage::Losses, Answer::SaveElsewhere) => self.ask_copy_name(&q.job),
            (Stage::Losses | Stage::ReadOnly | Stage::Disk, Answer::Yes) => {
                q.read_only_ok |= q.at == Stage::ReadOnly;
                if q.at == Stage::Disk {
                    // Yes to what is on disk now (a change after this is asked about again),
                    // which may have been made read-only meanwhile: asked from there on.
                    q.disk = DiskStamp::of(&q.job.path);
                    q.at = Stage::ReadOnly;
                } else {
                    q.at = q.at.next();
                }
                self.ask_next(q);
            }
            _ => self.info("not saved"),
        }
    }

    /// Every question was answered yes: the bytes made for the questions are written on a
    /// thread of their own (a slow disk never holds the keys up), as the save that asked
    /// nothing writes them.
    fn write_after_yes(&mut self, q: SaveQuestions) {
        if q.prepared.unencodable.is_some() {
            // Not reached (only saving as UTF-8 goes past that question, making new bytes).
            return self.info_level("not saved: the bytes were not made".into(), Level::Error);
        }
        if self.session.saves.running.is_some() {
            // Not reached (a save that asks holds no thread), but never two writes at once.
            return self.info_level("not saved: another save is running".into(), Level::Error);
        }
        let (prepared, yes) = (Arc::clone(&q.prepared), q.read_only_ok);
        let work = move |p: &Progress| write_prepared(&prepared, yes, p);
        if let Err(e) =
            self.session
                .saves
                .start(q.job, q.revision, self.session.events.clone(), work)
        {
            return self.info_level(e, Level::Error);
        }
        self.wait_for_save_upto(self.session.saves.blocks_for);
    }

    /// The encoding cannot hold some characters: where each is, and UTF-8 offered instead.
    fn ask_unencodable(&mut self, q: SaveQuestions, e: &EncodeError) {
        let mut details: Vec<String> = e
            .chars
            .iter()
            .take(20)
            .map(|u| match self.locate_char(u.ch) {
                Some(place) => format!(
                    "  '{}' (U+{:04X}) {place} (line {}, column {} of the file)",
                    u.ch, u.ch as u32, u.line, u.column
                ),
                None => format!("  {u}"),
            })
            .collect();
        if e.chars.len() > 20 {
            details.push(format!("  ... and {} more", e.chars.len() - 20));
        }
        let first = e.chars.first().map(|u| {
            let place = self.locate_char(u.ch).unwrap_or_default();
            format!("'{}' {place}", u.ch)
        });
        let more = match e.chars.len() {
            0 | 1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        self.ask_save(
            format!(
                "{} cannot hold {} character{} of this record: {}{more}",
                e.encoding.name(),
                e.chars.len(),
                if e.chars.len() == 1 { "" } else { "s" },
                first.unwrap_or_default()
            ),
            details,
            vec![
                (Answer::Utf8, "save as UTF-8 instead"),
                (Answer::Cancel, "cancel"),
            ],
            q,
        );
    }

    /// The format (or the file) cannot hold everything: save without it? Over a file that
    /// was not read whole, what would go, and a copy offered first.
    fn ask_losses(&mut self, q: SaveQuestions, losses: &[SaveLoss]) {
        let details = losses.iter().map(|l| format!("  - {l}")).collect();
        let unread = self
            .doc
            .source()
            .unread
            .as_ref()
            .filter(|_| q.job.same_file);
        if let Some(u) = unread {
            let question = format!(
                "{} was not read whole: {} could not be read and would be removed. Save over it?",
                self.doc.source().name,
                u.lines_text()
            );
            let yes = q.job.then.yes(true);
            return self.ask_save(
                question,
                details,
                vec![
                    (Answer::SaveElsewhere, "save as another file instead"),
                    (Answer::Yes, yes),
                    (Answer::No, "cancel"),
                ],
                q,
            );
        }
        let named: Vec<String> = losses.iter().map(ToString::to_string).collect();
        let yes = q.job.then.yes(false);
        self.ask_save(
            format!(
                "{} cannot hold {}: save without them?",
                q.prepared.plan.target.format.name(),
                named.join(", ")
            ),
            details,
            vec![(Answer::Yes, yes), (Answer::No, "cancel")],
            q,
        );
    }

    /// The file is read-only (found from its metadata before anything was written).
    fn ask_read_only(&mut self, q: SaveQuestions) {
        let shown = q.prepared.read_only.as_deref().unwrap_or(&q.job.path);
        self.ask_save(
            format!("{} is read-only. Replace it anyway?", shown.display()),
            vec!["The file keeps its read-only mode after the save.".into()],
            vec![(Answer::Yes, "replace it"), (Answer::No, "cancel")],
            q,
        );
    }

    /// Another program wrote to (or made, or removed) the file while the questions were open.
    fn ask_disk_changed(&mut self, q: SaveQuestions) {
        let name = q.job.path.display().to_string();
        self.ask_save(
            format!("{name} changed on disk while the save's questions were open. Overwrite it?"),
            vec!["Another program wrote to the file; saving replaces its changes.".into()],
            vec![(Answer::Yes, "overwrite"), (Answer::No, "cancel")],
            q,
        );
    }

    /// "Save as another file instead" to a save over a file read in part: a name for the
    /// copy, the file left as it is.
    pub(crate) fn ask_copy_name(&mut self, job: &SaveJob) {
        let p = &job.path;
        let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        let suggested = match (stem, p.extension()) {
            (Some(stem), Some(ext)) => {
                p.with_file_name(format!("{stem}-edited.{}", ext.to_string_lossy()))
            }
            _ => p.with_file_name(format!("{}-edited", file_name(p))),
        };
        self.open_prompt(save_as_prompt(
            "save as (the file read in part stays as it is): ",
            suggested.display().to_string(),
            job.then,
        ));
    }
}
