//! Saving with its questions: vim's `:w` (the record's own file), `:w PATH` (a copy),
//! `:saveas PATH` (switch files); overwriting, encodings and formats that cannot hold
//! everything. The bytes and the disk are `document.rs`'s business.

use super::config::SaveEncoding;
use super::document::{self, file_name, same_path};
use super::overlay::{Pending, PromptKind};
pub use super::overlay::{SaveHow, SaveJob, SaveJobTarget};
use super::state::{App, Level};
use crate::core::record::NodeId;
use crate::store::SaveError;
use std::path::PathBuf;

impl App {
    /// Saves to the record's file, or asks for a name when it has none.
    pub(crate) fn save_or_ask_name(&mut self, quit_after: bool) {
        if self.doc.path.is_some() {
            self.save_to(None, SaveHow::Own, quit_after);
        } else {
            self.open_prompt(
                PromptKind::SaveAs { quit_after },
                "save as (.kif Shift_JIS, .kifu UTF-8, .csa): ",
                String::new(),
            );
        }
    }

    /// Saves to `path` (or the file the record came from) and quits afterwards if asked.
    /// `how` says what becomes of the session: a path that is the record's own file, or any
    /// path while the record has no file yet, is a plain save whatever `how` says.
    pub fn save_to(&mut self, path: Option<PathBuf>, how: SaveHow, quit_after: bool) {
        let Some(path) = path.clone().or_else(|| self.doc.path.clone()) else {
            self.info_level(
                "this record has no file yet: save it with :w PATH (.kif Shift_JIS, .kifu UTF-8, .csa)"
                    .into(),
                Level::Error,
            );
            return;
        };
        let same_file = self
            .doc
            .path
            .as_deref()
            .is_some_and(|p| same_path(p, &path));
        let how = if same_file || self.doc.path.is_none() {
            SaveHow::Own
        } else {
            how
        };
        let same = if same_file {
            self.doc.format.zip(self.doc.info)
        } else {
            None
        };
        let fixed = match self.config.save_encoding {
            SaveEncoding::Fixed(e) => Some(e),
            SaveEncoding::Auto => None,
        };
        let Some((target, info)) = document::target_for(&path, same, fixed) else {
            self.info_level(
                format!(
                    "cannot tell the format of {}: use .kif (Shift_JIS), .kifu (UTF-8), .csa, .ki2, .ki2u, .jkf, .usi, .sfen or .bod",
                    path.display()
                ),
                Level::Error,
            );
            return;
        };
        let job = SaveJob {
            path,
            target: SaveJobTarget { target, info },
            how,
            same_file,
            overwrite_ok: false,
            losses_ok: false,
            read_only_ok: false,
            quit_after,
        };
        self.continue_save(job);
    }

    pub(crate) fn continue_save(&mut self, mut job: SaveJob) {
        let name = job.path.display().to_string();
        if !job.overwrite_ok {
            if job.same_file && document::changed_on_disk(&job.path, self.doc.stamp) {
                self.ask(
                    format!("{name} changed on disk since it was opened. Overwrite it?"),
                    vec!["Another program wrote to the file; saving replaces its changes.".into()],
                    vec![('y', "overwrite"), ('n', "cancel")],
                    Pending::Overwrite(job),
                );
                return;
            }
            if !job.same_file && document::exists(&job.path) {
                self.ask(
                    format!("{name} already exists. Overwrite it?"),
                    Vec::new(),
                    vec![('y', "overwrite"), ('n', "cancel")],
                    Pending::Overwrite(job),
                );
                return;
            }
            job.overwrite_ok = true;
        }
        // The session's own file (or its first file): a CSA file of several records gets
        // them all back.
        let own = job.same_file || self.doc.path.is_none();
        let plan = match document::plan_in_file(
            &self.record,
            &self.doc,
            own,
            &job.path,
            job.target.target,
            job.target.info,
        ) {
            Ok(p) => p,
            Err(e) => {
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
                self.ask(
                    format!(
                        "{} cannot hold {} character{} of this record: {}{more}",
                        e.encoding.name(),
                        e.chars.len(),
                        if e.chars.len() == 1 { "" } else { "s" },
                        first.unwrap_or_default()
                    ),
                    details,
                    vec![('u', "save as UTF-8 instead"), ('c', "cancel")],
                    Pending::Encoding(job),
                );
                return;
            }
        };
        let mut losses: Vec<String> = plan.losses.clone();
        if let Some(l) = own
            .then(|| self.doc.other_records_loss(plan.target.format))
            .flatten()
        {
            losses.push(l);
        }
        if !losses.is_empty() && !job.losses_ok {
            let yes = if job.quit_after {
                "save without them and quit"
            } else {
                "save without them"
            };
            self.ask(
                format!(
                    "{} cannot hold {}: save without them?",
                    plan.target.format.name(),
                    losses.join(", ")
                ),
                losses.iter().map(|l| format!("  - {l}")).collect(),
                vec![('y', yes), ('n', "cancel")],
                Pending::Losses(job),
            );
            return;
        }
        // What was written holds everything in the record: the edits are on disk.
        let whole = plan.losses.is_empty();
        match document::write(&plan, job.read_only_ok) {
            Err(SaveError::ReadOnly { path }) => {
                let shown = path.display().to_string();
                self.ask(
                    format!("{shown} is read-only. Replace it anyway?"),
                    vec!["The file keeps its read-only mode after the save.".into()],
                    vec![('y', "replace it"), ('n', "cancel")],
                    Pending::ReadOnly(job),
                );
            }
            Err(e) => self.info_level(format!("not saved: {e}"), Level::Error),
            Ok(stamp) => {
                // A followed file (--watch) need not reload what was just written.
                if self
                    .watch
                    .as_ref()
                    .is_some_and(|w| same_path(&w.path, &job.path))
                {
                    super::watch::set_stamp(self, stamp);
                }
                if whole {
                    self.history.mark_saved();
                }
                let what = format!(
                    "{} {}, {} bytes",
                    plan.target.format.name(),
                    plan.info.encoding.name(),
                    plan.bytes.len()
                );
                let copy = job.how == SaveHow::Copy;
                if !copy
                    && self
                        .watch
                        .as_ref()
                        .is_some_and(|w| !same_path(&w.path, &job.path))
                {
                    // The session moved to another file: the old one is not its file any more.
                    self.watch = None;
                }
                if !copy {
                    if own {
                        self.doc.saved_record(&self.record, plan.target, &plan.info);
                    }
                    self.doc.stamp = Some(stamp);
                    self.doc.path = Some(job.path.clone());
                    self.doc.name = file_name(&job.path);
                    self.doc.format = Some(plan.target.format);
                    self.doc.info = Some(plan.info);
                    if !own || plan.target.format != crate::core::notation::Format::Csa {
                        // The new file holds this record only.
                        self.doc.record_count = 1;
                        self.doc.record_index = 0;
                        self.doc.record_texts.clear();
                    }
                }
                let verb = if copy { "wrote" } else { "saved" };
                if whole && copy {
                    self.info(format!(
                        "wrote a copy: {name} ({what}); still editing {}",
                        self.doc.name
                    ));
                } else if whole {
                    self.info(format!("saved {name} ({what})"));
                } else {
                    // The loss first: the status line may be narrow.
                    self.info_level(
                        format!(
                            "{verb} {name} without {} ({what}); [+] stays: only this session holds them",
                            plan.losses.join(", ")
                        ),
                        Level::Warning,
                    );
                }
                if job.quit_after {
                    self.should_quit = true;
                }
            }
        }
    }

    /// Where in the record a character occurs first, in words.
    pub(crate) fn locate_char(&self, ch: char) -> Option<String> {
        let rec = &self.record;
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
                format!("at move {} ({})", rec.node(id).ply, self.step_text(id))
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
        }
        rec.program_lines
            .iter()
            .any(|l| l.contains(ch))
            .then(|| "in a # line kept from the file".to_string())
    }
}
