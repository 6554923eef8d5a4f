//! Questions that wait for a one-key answer: unsaved changes at quit, overwriting, an
//! encoding or a format that cannot hold everything, large deletions.

pub use super::overlay::{Confirm, Pending};
use super::overlay::{Mode, Overlay};
use super::state::App;
use crate::core::notation::{Format, TextEncoding};

impl App {
    /// Asks a question over what is open (a `:` line or a prompt that led to it closes).
    pub(crate) fn ask(
        &mut self,
        question: String,
        details: Vec<String>,
        answers: Vec<(char, &'static str)>,
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

    pub(crate) fn answer(&mut self, c: char) {
        let c = c.to_ascii_lowercase();
        let Some(Overlay::Confirm(q)) = self.overlays.top() else {
            return;
        };
        if c != '\u{1b}' && !q.answers.iter().any(|&(k, _)| k == c) {
            return;
        }
        let Some(Overlay::Confirm(q)) = self.overlays.pop() else {
            return;
        };
        match (q.pending, c) {
            (Pending::Quit, 's') => self.save_or_ask_name(true),
            (Pending::Quit, 'd') => self.should_quit = true,
            (Pending::Quit, _) => self.info("still here: nothing was saved or discarded"),
            (Pending::Overwrite(mut job), 'y') => {
                job.overwrite_ok = true;
                self.continue_save(job);
            }
            (Pending::Encoding(mut job), 'u') => {
                job.target.info.encoding = TextEncoding::Utf8;
                job.target.info.bom = false;
                job.target.target.declare_encoding = job.target.target.format == Format::Kif;
                self.continue_save(job);
            }
            (Pending::Losses(mut job), 'y') => {
                job.losses_ok = true;
                self.continue_save(job);
            }
            (Pending::ReadOnly(mut job), 'y') => {
                job.read_only_ok = true;
                self.continue_save(job);
            }
            (Pending::Delete { node, cut }, 'y') => self.delete_now(node, cut),
            (Pending::Delete { .. }, _) => self.info("nothing deleted"),
            (Pending::NewRecord(pos), 'y') => {
                self.overlays.clear();
                self.new_record_from(*pos);
            }
            (Pending::NewRecord(_), _) => self.info("back in the position editor"),
            (
                Pending::Overwrite(_)
                | Pending::Encoding(_)
                | Pending::Losses(_)
                | Pending::ReadOnly(_),
                _,
            ) => self.info("not saved"),
        }
    }

    /// `q`: quits, or asks first when there are unsaved edits.
    pub(crate) fn request_quit(&mut self, force: bool) {
        if force || !self.history.is_modified() {
            self.should_quit = true;
            return;
        }
        let name = self.doc.name.clone();
        self.ask(
            format!("{name} has unsaved changes. Save them?"),
            Vec::new(),
            vec![
                ('s', "save and quit"),
                ('d', "discard and quit"),
                ('c', "cancel"),
            ],
            Pending::Quit,
        );
    }
}
