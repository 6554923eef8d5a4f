//! Saving with its questions: vim's `:w` (the record's own file), `:w PATH` (a copy),
//! `:saveas PATH` (switch files); overwriting, encodings and formats that cannot hold
//! everything. The bytes and the disk are `document/mod.rs`'s business; the save runs on a thread
//! (`background.rs`) while keys are handled, and its outcome is taken here: the questions
//! about the bytes it made (`questions.rs`), or what was written.

use crate::app::config::SaveEncoding;
pub use crate::app::document::background::Saves;
use crate::app::document::background::{Progress, SaveEnd, Written, run_save, size_text};
use crate::app::document::checks::{DiskStamp, SaveLoss};
pub use crate::app::document::job::{SaveHow, SaveJob, SaveJobTarget, Then};
use crate::app::document::job::{SaveQuestions, Stage};
use crate::app::document::{self, Saved, file_name, same_path};
use crate::app::events::TaskState;
use crate::app::overlay::{Answer, Prompt};

use crate::app::state::{App, Level};
use crate::core::notation::{Format, Loss, TextEncoding, TextInfo};
use crate::core::record::{NodeId, Revision};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The prompt for a file name to save to (a record without a file, a copy of a file read in
/// part): Enter saves there (Tab completes the path), then does what `then` says.
pub(crate) fn save_as_prompt(label: &str, text: String, then: Then) -> Prompt {
    Prompt::closing(label, text, move |app, text| {
        if !text.is_empty() {
            app.save_to(Some(document::expand_path(&text)), SaveHow::Own, then);
        }
    })
    .completing_paths()
}

impl App {
    /// Saves to the record's file, or asks for a name when it has none.
    pub(crate) fn save_or_ask_name(&mut self, then: Then) {
        if self.doc.source().path.is_some() {
            self.save_to(None, SaveHow::Own, then);
        } else {
            self.open_prompt(save_as_prompt(
                "save as (.kif Shift_JIS, .kifu UTF-8, .csa): ",
                String::new(),
                then,
            ));
        }
    }

    /// Saves to `path` (or the file the record came from), then does what `then` says.
    /// `how` says what becomes of the session: a path that is the record's own file, or any
    /// path while the record has no file yet, is a plain save whatever `how` says.
    pub fn save_to(&mut self, path: Option<PathBuf>, how: SaveHow, then: Then) {
        let Some(path) = path.clone().or_else(|| self.doc.source().path.clone()) else {
            self.info_level(
                "this record has no file yet: save it with :w PATH (.kif Shift_JIS, .kifu UTF-8, .csa)"
                    .into(),
                Level::Error,
            );
            return;
        };
        let same_file = self
            .doc
            .source()
            .path
            .as_deref()
            .is_some_and(|p| same_path(p, &path));
        let how = if same_file || self.doc.source().path.is_none() {
            SaveHow::Own
        } else {
            how
        };
        let same = if same_file {
            self.doc.source().own_target().zip(self.doc.source().info)
        } else {
            None
        };
        let fixed = match self.config.save_encoding {
            SaveEncoding::Fixed(e) => Some(e),
            SaveEncoding::Auto => None,
        };
        let Some((target, mut info)) =
            crate::core::notation::filetype::write_settings(&path, same, fixed)
        else {
            self.info_level(
                format!(
                    "cannot tell the format of {}: use .kif (Shift_JIS), .kifu (UTF-8), .csa, .ki2, .ki2u, .jkf, .usi, .sfen or .bod",
                    path.display()
                ),
                Level::Error,
            );
            return;
        };
        // The � of bytes replaced when the file was read are written as 〓 where the encoding
        // has no � (for the whole session: the record keeps them).
        info.lossy |= self.doc.source().info.is_some_and(|i| i.lossy);
        let job = SaveJob {
            path,
            target: SaveJobTarget { target, info },
            how,
            same_file,
            overwrite_ok: false,
            then,
        };
        self.continue_save(job);
    }

    /// Asks whether to overwrite the file `job` saves to (asked before the bytes are made).
    fn ask_overwrite(&mut self, question: String, details: Vec<String>, job: SaveJob) {
        let answers = vec![(Answer::Yes, "overwrite"), (Answer::No, "cancel")];
        self.ask(question, details, answers, move |app, a| match a {
            Answer::Yes => app.continue_save(SaveJob {
                overwrite_ok: true,
                ..job.clone()
            }),
            _ => app.info("not saved"),
        });
    }

    pub(crate) fn continue_save(&mut self, mut job: SaveJob) {
        if self.session.saves.running.is_some() {
            self.queue_save(job);
            return;
        }
        let name = job.path.display().to_string();
        if !job.overwrite_ok {
            if job.same_file
                && document::checks::changed_on_disk(&job.path, self.doc.source().stamp)
            {
                self.ask_overwrite(
                    format!("{name} changed on disk since it was opened. Overwrite it?"),
                    vec!["Another program wrote to the file; saving replaces its changes.".into()],
                    job,
                );
                return;
            }
            if !job.same_file && job.path.exists() {
                self.ask_overwrite(
                    format!("{name} already exists. Overwrite it?"),
                    Vec::new(),
                    job,
                );
                return;
            }
            job.overwrite_ok = true;
        }
        self.start_save(job);
    }

    /// Writes the record as it is now in the background (see [`Saves`]); waits for the save
    /// as long as [`Saves::blocks_for`] says.
    fn start_save(&mut self, job: SaveJob) {
        let record = self.doc.record().clone();
        // A file of several records: in CSA they are all written (the others as they are on
        // disk), to its own file or to another; another format holds the record shown only,
        // which the user is asked about first.
        let own = job.same_file || self.doc.source().path.is_none();
        let src = self.doc.source();
        let mut extra: Vec<SaveLoss> = Vec::new();
        if job.same_file
            && let Some(u) = &src.unread
        {
            extra.push(SaveLoss::Unread(u.clone()));
        }
        let others = src.other_records_loss(job.target.target.format, !own);
        extra.extend(others.map(SaveLoss::OtherRecords));
        extra.extend(self.replaced_bytes(job.target.info.encoding));
        let j = job.clone();
        let doc = (self.doc.source().record_count > 1).then(|| self.doc.source().clone());
        let revision = self.doc.current();
        let work = move |p: &Progress| run_save(&record, doc.as_ref(), &j, extra, p);
        if let Err(e) = self
            .session
            .saves
            .start(job, revision, self.session.events.clone(), work)
        {
            return self.info_level(e, Level::Error);
        }
        self.session.saves.renders += 1;
        self.wait_for_save_upto(self.session.saves.blocks_for);
    }

    /// Waits for the running save, at most `limit` (`None`: until it ends), and takes its
    /// outcome when it came.
    pub(super) fn wait_for_save_upto(&mut self, limit: Option<Duration>) {
        let Some(r) = &self.session.saves.running else {
            return;
        };
        match r.task.wait(limit) {
            TaskState::Done(outcome) => self.finish_save(outcome),
            TaskState::Running => {}
            TaskState::Lost => self.finish_save(SaveEnd::Stopped),
        }
    }

    /// The run loop's turn: takes the outcome of a save that ended, starts a queued one when
    /// no question is open, then quits if that waited for the saves. True while a save runs
    /// or something changed (the screen needs drawing).
    pub fn save_tick(&mut self) -> bool {
        let mut changed = false;
        if let Some(r) = &self.session.saves.running {
            match r.task.look() {
                TaskState::Done(outcome) => self.finish_save(outcome),
                TaskState::Running => return true,
                TaskState::Lost => self.finish_save(SaveEnd::Stopped),
            }
            changed = true;
        }
        if self.session.saves.running.is_none() && self.mode() != crate::app::overlay::Mode::Confirm
        {
            if let Some(job) = self.session.saves.queued.take() {
                self.continue_save(job);
                changed = true;
            } else if let Some(then) = self.session.saves.then.take() {
                self.go_on(then);
                changed = true;
            }
        }
        changed || self.session.saves.running.is_some()
    }

    /// Waits until every save (the running one and a queued one) has ended, or a question
    /// stops them (tests, and callers that cannot go on while a save runs).
    pub fn wait_for_saves(&mut self) {
        loop {
            self.wait_for_save_upto(None);
            let queued = self.session.saves.queued.is_some() || self.session.saves.then.is_some();
            if !queued || self.mode() == crate::app::overlay::Mode::Confirm {
                return;
            }
            self.save_tick();
        }
    }

    /// How many times this session's saves have rendered the record: once per save, whatever
    /// it asks (for tests and benches; saving as UTF-8 instead renders again, but for KIF).
    pub fn save_renders(&self) -> usize {
        self.session.saves.renders
    }

    /// Is a save running (the record's, or the books': `app::book::save`)?
    pub fn save_running(&self) -> bool {
        self.session.saves.running.is_some() || self.book_save_running()
    }

    /// Saves run in the background: a save that has not ended after `d` goes on while keys
    /// are handled, its progress on the status line (the viewer: about 100 ms).
    pub fn set_background_saves(&mut self, d: Duration) {
        self.session.saves.blocks_for = Some(d);
    }

    /// The status line's account of a running save: `saving study.kif… 48% of 2.7 MB`.
    pub fn save_status(&self) -> Option<String> {
        let Some(r) = self.session.saves.running.as_ref() else {
            return self.book_save_status();
        };
        let name = file_name(&r.job.path);
        let total = r.task.progress().total.load(Ordering::Relaxed);
        let written = r.task.progress().written.load(Ordering::Relaxed);
        // The size is known once the bytes are made.
        let mut s = match (written * 100).checked_div(total) {
            None => format!("saving {name}…"),
            Some(pct) => format!("saving {name}… {pct}% of {}", size_text(total)),
        };
        if self.session.saves.queued.is_some() {
            s.push_str(", then another");
        }
        if matches!(self.session.saves.then, Some(Then::Quit { .. }))
            || matches!(r.job.then, Then::Quit { .. })
        {
            s.push_str(", then quit");
        }
        Some(s)
    }

    /// `q` while a save runs: the quit waits for it (and then asks, as ever, when edits are
    /// unsaved). True when the quit was put off.
    pub(crate) fn quit_waits_for_save(&mut self, force: bool) -> bool {
        if self.session.saves.running.is_none() && self.session.saves.queued.is_none() {
            return false;
        }
        // The status line says so (`saving study.kif… 48% of 2.7 MB, then quit`).
        self.session.saves.then = Some(Then::Quit { force });
        true
    }

    /// Another save while one runs waits for it (one at a time: never two writes at once).
    fn queue_save(&mut self, job: SaveJob) {
        if self.session.saves.queued.is_some() {
            self.info_level(
                "not saved: a save is running and another waits; save again when they have ended"
                    .into(),
                Level::Warning,
            );
            return;
        }
        let name = file_name(&job.path);
        self.session.saves.queued = Some(job);
        self.info(format!("a save is running: {name} is saved when it ends"));
    }

    /// What a save that ended means for the session: the same as a save that never left the
    /// key's handling (questions, messages, the file and its stamp, the saved revision).
    fn finish_save(&mut self, outcome: SaveEnd) {
        let Some(run) = self.session.saves.running.take() else {
            return;
        };
        if !matches!(outcome, SaveEnd::Saved { .. }) {
            // A quit that waited for this save does not happen: the user sees why first.
            self.session.saves.then = None;
        }
        if run.detached {
            self.say_detached(&run.job, matches!(outcome, SaveEnd::Saved { .. }));
            return;
        }
        let job = run.job;
        match outcome {
            SaveEnd::Asks(prepared) => {
                let disk = DiskStamp::of(&job.path);
                self.ask_next(SaveQuestions {
                    job,
                    prepared,
                    revision: run.revision,
                    at: Stage::Encoding,
                    read_only_ok: false,
                    disk,
                })
            }
            SaveEnd::Failed(e) => self.info_level(format!("not saved: {e}"), Level::Error),
            SaveEnd::Stopped => self.info_level(
                "not saved: the save stopped before it ended; the file on disk may be the old one"
                    .into(),
                Level::Error,
            ),
            SaveEnd::Saved(written) => self.saved(job, run.revision, written),
        }
    }

    /// The record was replaced meanwhile (`:e`): only say how the save went.
    fn say_detached(&mut self, job: &SaveJob, saved: bool) {
        let path = job.path.display();
        if saved {
            self.info(format!("saved {path} (before the record was replaced)"));
        } else {
            self.info_level(
                format!("{path} was not saved (the record was replaced meanwhile)"),
                Level::Warning,
            );
        }
    }

    /// A save was written: the document takes what it means in one step (the revision on
    /// disk, the file it is now), then the message says what was written and what was not.
    fn saved(&mut self, job: SaveJob, revision: Revision, w: Written) {
        // A file of several records: was it written whole, or the record shown only (the
        // user said yes)? The document is the one the save began with: records are not
        // switched while a save runs, and another file detaches it.
        let one_of_several = !self.doc.source().written_whole_as(w.format);
        let copy = job.how == SaveHow::Copy;
        let before = Before {
            name: self.doc.source().name.clone(),
            n: self.doc.source().record_index + 1,
            count: self.doc.source().record_count,
            one_of_several,
            kept: (!copy)
                .then(|| self.doc.source().kept.as_ref().map(|k| k.lines_text()))
                .flatten(),
        };
        // What was written holds everything in the record as it was when the save began:
        // that revision is on disk (edits made since keep [+]). Not so for a copy of one
        // record of several: the session's file does not get the edits.
        let whole = w.losses.is_empty() && !(copy && one_of_several);
        self.follow_saved_file(&job.path, w.stamp, copy);
        let own = (!copy).then(|| Saved {
            path: &job.path,
            stamp: w.stamp,
            format: w.format,
            info: w.info,
            texts: w.texts,
        });
        self.doc.saved(revision, whole, own);
        // The library lists the file as it is now.
        self.library_saved(&job.path);
        self.say_saved(&job, &before, whole, (w.format, w.info, w.bytes), &w.losses);
        self.after_saved(job.then, revision);
    }

    /// What the user asked to happen once the save was written (the record as it was at
    /// `revision` is on disk, without what they agreed to leave out).
    fn after_saved(&mut self, then: Then, revision: Revision) {
        match then {
            Then::Stay => {}
            // Edits made while the save ran are not on disk: the quit asks about them.
            Then::Quit { .. } if self.doc.current() != revision => self.request_quit(false),
            Then::Quit { .. } => self.should_quit = true,
            Then::ShowRecord(index) if !self.is_modified() => self.show_record(index),
            Then::LibraryGame(id) if !self.is_modified() => self.library_show(id),
            Then::ShowRecord(_) | Then::LibraryGame(_) => {
                let n = self.doc.source().record_index + 1;
                self.info_level(
                    format!(
                        "still at record {n}: it holds what the file does not ([+]); d discards it when you switch"
                    ),
                    Level::Warning,
                );
            }
        }
    }

    /// What waited for the saves to end: a quit asked for while one ran.
    fn go_on(&mut self, then: Then) {
        match then {
            Then::Quit { force } => self.request_quit(force),
            Then::Stay | Then::ShowRecord(_) | Then::LibraryGame(_) => {}
        }
    }

    /// A followed file (--watch) need not reload what was just written; a session that moved
    /// to another file stops following the old one.
    fn follow_saved_file(&mut self, path: &Path, stamp: DiskStamp, copy: bool) {
        let Some(w) = &self.doc.watch else { return };
        if same_path(&w.path, path) {
            crate::app::document::watch::set_stamp(self, stamp);
        } else if !copy {
            self.doc.watch = None;
        }
    }

    /// The message after a save: what was written, and what was left out and where it is.
    fn say_saved(
        &mut self,
        job: &SaveJob,
        before: &Before,
        whole: bool,
        (format, info, bytes): (Format, TextInfo, usize),
        losses: &[Loss],
    ) {
        let name = job.path.display().to_string();
        let Before {
            name: old_name,
            n,
            count,
            one_of_several,
            kept: kept_lines,
        } = before;
        let copy = job.how == SaveHow::Copy;
        let all = if *count > 1 && !one_of_several {
            format!("all {count} records; ")
        } else {
            String::new()
        };
        let what = format!(
            "{all}{} {}, {bytes} bytes",
            format.name(),
            info.encoding.name()
        );
        let verb = if copy { "wrote" } else { "saved" };
        let without = if losses.is_empty() {
            String::new()
        } else {
            let named: Vec<String> = losses.iter().map(ToString::to_string).collect();
            format!(" without {}", named.join(", "))
        };
        // Where what was left out is: the session's own file when nothing is unsaved (a copy
        // after a save), else only this session ([+] stays).
        let kept = if copy && !self.is_modified() {
            format!("{old_name} holds them")
        } else {
            "[+] stays: only this session holds them".to_string()
        };
        if *one_of_several {
            // What is left out first: the status line may be narrow.
            let mut msg = format!(
                "{verb} {name}: record {n} of {count} only ({}){without}; {what}",
                document::one_record_why(format)
            );
            if !whole && self.is_modified() {
                msg.push_str(&if copy {
                    format!("; [+] stays: {old_name} does not hold the edits")
                } else {
                    format!("; {kept}")
                });
            }
            if job.how == SaveHow::SaveAs {
                msg.push_str(&format!(
                    "; {old_name} keeps its {count} records as they are on disk"
                ));
            }
            self.info_level(msg, Level::Warning);
        } else if whole && copy {
            let own = &self.doc.source().name;
            self.info(format!(
                "wrote a copy: {name} ({what}); still editing {own}"
            ));
        } else if let (true, Some(lines)) = (whole, kept_lines) {
            self.info_level(
                format!(
                    "saved {name} ({what}); {lines}, which could not be read, are in it as # remark lines"
                ),
                Level::Warning,
            );
        } else if whole {
            self.info(format!("saved {name} ({what})"));
        } else {
            // The loss first: the status line may be narrow.
            self.info_level(
                format!("{verb} {name}{without} ({what}); {kept}"),
                Level::Warning,
            );
        }
    }

    /// The bytes of the file its encoding could not read (replaced by � when it was read), as
    /// a loss for the save question: the original bytes cannot be written back.
    fn replaced_bytes(&self, writing: TextEncoding) -> Option<SaveLoss> {
        let lines = &self.doc.source().replaced_lines;
        let read = self.doc.source().info?.encoding;
        (!lines.is_empty()).then(|| SaveLoss::ReplacedBytes {
            lines: lines.clone(),
            read,
            writing,
        })
    }

    /// Where in the record a character occurs first, in words.
    pub(crate) fn locate_char(&self, ch: char) -> Option<String> {
        let rec = self.doc.record();
        if let Some(f) = rec
            .header
            .fields
            .iter()
            .find(|f| f.key.contains(ch) || f.value.contains(ch))
        {
            return Some(format!("in the header field {}", f.key));
        }
        let at = |id: NodeId| {
            if id == NodeId::ROOT {
                "of the start position".to_string()
            } else {
                format!("at move {} ({})", rec.move_number(id), self.step_text(id))
            }
        };
        for id in rec.preorder() {
            let n = rec.node(id);
            if n.comment.contains(ch) {
                return Some(format!("in the comment {}", at(id)));
            }
            if n.bookmark.as_deref().is_some_and(|b| b.contains(ch)) {
                return Some(format!("in the bookmark {}", at(id)));
            }
            if n.special().is_some_and(|s| s.kif_word().contains(ch)) {
                return Some(format!("in the ending {}", at(id)));
            }
            if n.remarks.iter().any(|r| r.contains(ch)) {
                return Some(format!("in a remark (# line) {}", at(id)));
            }
        }
        rec.program_lines
            .iter()
            .any(|l| l.contains(ch))
            .then(|| "in a # line kept from the file".to_string())
    }
}

/// What the session was before a save's outcome changed it, for the message.
struct Before {
    name: String,
    n: usize,
    count: usize,
    one_of_several: bool,
    /// The lines not read that the save writes over the file as remark lines (its own file).
    kept: Option<String>,
}
