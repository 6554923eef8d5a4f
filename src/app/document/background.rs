//! A save on a thread of its own: what the session keeps of it ([`Saves`]), and the thread's
//! work. A save runs in two phases: [`prepare`] renders and encodes the record once and finds
//! every reason to ask (an encoding that cannot hold a character, what the format or the
//! file cannot hold, a read-only file) without writing; when nothing needs asking it goes
//! on to write at once, else the session asks (`questions.rs`) and, after every yes,
//! [`write_prepared`] writes the bytes already made, on a thread again. What an outcome means
//! for the session is `save.rs`'s.

use crate::app::document::checks::{DiskStamp, Prepared, SaveLoss, SavePlan};
use crate::app::document::job::SaveJob;
use crate::app::document::{self, RecordSource};
use crate::app::events::{Event, Events, Task};
use crate::core::notation::{Format, Loss, TextInfo};
use crate::core::record::{Record, Revision};
use crate::store::SaveError;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The saves of a session. A save writes a copy of the record taken when it began, on a thread
/// of its own (`store::save`: as safe as ever), while keys are handled and the screen is
/// drawn; the status line shows its progress ([`App::save_status`](crate::app::App::save_status)). One save runs at a time:
/// another waits for it (one at most), and quitting waits for both.
#[derive(Debug, Default)]
pub struct Saves {
    pub(super) running: Option<Running>,
    pub(super) queued: Option<SaveJob>,
    /// What waits for the saves to end (a quit, forced or not).
    pub(super) then: Option<super::job::Then>,
    /// How long starting a save waits for it to end before it goes on in the background;
    /// `None`: until it ends (no run loop to take its outcome later, as in tests).
    pub blocks_for: Option<Duration>,
    /// How many times the session's saves rendered a record (each save's first phase).
    pub(super) renders: usize,
}

impl Saves {
    /// The saves, once the session shows another record (`:e`): a running save ends on its
    /// own and only says how it went; a waiting one is dropped (it was for the old record).
    pub fn for_replaced_record(mut self) -> Saves {
        if let Some(r) = &mut self.running {
            r.detached = true;
        }
        self.queued = None;
        self
    }
}

impl Saves {
    /// Starts `work` (a save's phase) on a thread of its own for `job`, which writes
    /// `revision` of the record; its progress and its end are the running save's (its end
    /// wakes the run loop through `events`). Why not,
    /// when no thread could be started.
    pub(super) fn start(
        &mut self,
        job: SaveJob,
        revision: Revision,
        events: Events,
        work: impl FnOnce(&Progress) -> SaveEnd + Send + 'static,
    ) -> Result<(), String> {
        let task = Task::start(
            "kifview-save",
            events,
            Event::Save,
            Progress::default(),
            work,
        )
        .map_err(|e| format!("not saved: cannot start the save: {e}"))?;
        self.running = Some(Running {
            job,
            task,
            revision,
            detached: false,
        });
        Ok(())
    }
}

#[derive(Debug)]
pub(super) struct Running {
    pub job: SaveJob,
    /// The save's thread: its outcome, and how far it is.
    pub task: Task<SaveEnd, Progress>,
    /// The revision of the record being written.
    pub revision: Revision,
    /// The session has another record now: the outcome changes nothing.
    pub detached: bool,
}

/// How far a running save is (bytes; `total` is 0 until the bytes are made).
#[derive(Debug, Default)]
pub(super) struct Progress {
    pub written: AtomicU64,
    pub total: AtomicU64,
}

/// How a save thread ended.
#[derive(Debug)]
pub(super) enum SaveEnd {
    /// Nothing written: the bytes are made, and there are questions to ask first.
    Asks(Arc<Prepared>),
    /// Not written: why (kept typed until the message says it).
    Failed(SaveError),
    /// The save thread ended without an outcome.
    Stopped,
    Saved(Written),
}

/// What a save wrote.
#[derive(Debug)]
pub(super) struct Written {
    pub stamp: DiskStamp,
    pub format: Format,
    pub info: TextInfo,
    pub bytes: usize,
    /// What the format could not hold (the user said yes).
    pub losses: Vec<Loss>,
    /// A file of several records written whole: the text of each record as written.
    pub texts: Option<Vec<String>>,
}

/// The save thread's first phase: renders and encodes `record` once and finds what to ask.
/// `doc` is the session's document when its file holds several records (in CSA they are all
/// written, to its own file or another); `extra` are losses the session knows of and the
/// writer does not (the other records of such a file, bytes replaced when the file was read,
/// lines not read).
pub(super) fn prepare(
    record: &Record,
    doc: Option<&RecordSource>,
    job: &SaveJob,
    extra: Vec<SaveLoss>,
) -> Prepared {
    let t = job.target;
    let (plan, texts, unencodable) =
        match document::plan_in_file(record, doc, &job.path, t.target, t.info) {
            Ok((plan, texts)) => (plan, texts, None),
            Err(e) => {
                let plan = SavePlan {
                    path: job.path.clone(),
                    target: t.target,
                    info: t.info,
                    bytes: Vec::new(),
                    losses: Vec::new(),
                };
                (plan, None, Some(e))
            }
        };
    let mut losses: Vec<SaveLoss> = plan.losses.iter().cloned().map(SaveLoss::Format).collect();
    losses.extend(extra);
    Prepared {
        read_only: crate::store::read_only(&job.path),
        plan,
        texts,
        unencodable,
        losses,
    }
}

/// The save thread when it starts: [`prepare`], then write at once when there is nothing to
/// ask, else hand the prepared bytes back with the questions.
pub(super) fn run_save(
    record: &Record,
    doc: Option<&RecordSource>,
    job: &SaveJob,
    extra: Vec<SaveLoss>,
    progress: &Progress,
) -> SaveEnd {
    let prepared = prepare(record, doc, job, extra);
    if prepared.asks_nothing() {
        write_prepared(&prepared, false, progress)
    } else {
        SaveEnd::Asks(Arc::new(prepared))
    }
}

/// The save thread's second phase: writes the bytes [`prepare`] made (`replace_read_only`:
/// the user said yes to replacing a read-only file).
pub(super) fn write_prepared(
    prepared: &Prepared,
    replace_read_only: bool,
    progress: &Progress,
) -> SaveEnd {
    let plan = &prepared.plan;
    progress
        .total
        .store(plan.bytes.len() as u64, Ordering::Relaxed);
    match document::write(plan, replace_read_only, &progress.written) {
        Err(e) => SaveEnd::Failed(e),
        Ok(stamp) => SaveEnd::Saved(Written {
            stamp,
            format: plan.target.format,
            info: plan.info,
            bytes: plan.bytes.len(),
            losses: plan.losses.clone(),
            texts: prepared.texts.clone(),
        }),
    }
}

/// `1.3 MB`, `420 KB`.
pub(super) fn size_text(n: u64) -> String {
    if n >= 1_000_000 {
        format!("{:.1} MB", n as f64 / 1e6)
    } else {
        format!("{} KB", n.div_ceil(1000))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::document::job::{SaveHow, SaveJobTarget, Then};
    use crate::core::notation::{self, TextEncoding};
    use std::path::PathBuf;

    /// "Save as UTF-8 instead" re-encodes the KIF text made for the question: the bytes are
    /// those a render in UTF-8 makes (with and without a declaration in the file read).
    #[test]
    fn kif_as_utf8_from_the_text_made_is_what_a_render_in_utf8_makes() {
        let moves = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*𠮷の好手\n";
        for text in [
            moves.to_string(),
            format!("#KIF version=2.0 encoding=Shift_JIS\n{moves}"),
        ] {
            let loaded = notation::load(text.as_bytes(), None);
            let record = &loaded.records[0].record;
            let path = PathBuf::from("x.kif");
            let (target, info) =
                crate::core::notation::filetype::write_settings(&path, None, None).unwrap();
            assert_eq!(info.encoding, TextEncoding::ShiftJis);
            let job = SaveJob {
                path,
                target: SaveJobTarget { target, info },
                how: SaveHow::Own,
                same_file: false,
                overwrite_ok: true,
                then: Then::Stay,
            };
            let p = prepare(record, None, &job, Vec::new());
            assert!(p.unencodable.is_some());
            let utf8 = TextInfo {
                encoding: TextEncoding::Utf8,
                bom: false,
                ..info
            };
            let again = p.as_utf8(utf8).expect("KIF is re-encoded");
            let declared = notation::Target {
                declare_encoding: true,
                ..target
            };
            let (want, _) = notation::to_bytes(record, declared, &utf8).unwrap();
            assert_eq!(
                String::from_utf8(again.plan.bytes).unwrap(),
                String::from_utf8(want).unwrap()
            );
            assert!(again.unencodable.is_none());
        }
    }
}
