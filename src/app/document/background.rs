//! A save on a thread of its own: what the session keeps of it ([`Saves`]), and the thread's
//! work ([`run_save`]: render, encode, write through `store`). The questions and what an
//! outcome means for the session are `save.rs`'s.

use crate::app::document::checks::DiskStamp;
use crate::app::document::{self, Source};
use crate::app::overlay::SaveJob;
use crate::core::notation::encoding::EncodeError;
use crate::core::notation::{Format, TextInfo};
use crate::core::record::{Record, Revision};
use crate::store::SaveError;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
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

#[derive(Debug)]
pub(super) struct Running {
    pub job: SaveJob,
    pub rx: mpsc::Receiver<Outcome>,
    pub progress: Arc<Progress>,
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
pub(super) enum Outcome {
    Unencodable(EncodeError),
    /// Nothing written: the format cannot hold these (and the user has not said yes yet).
    Losses {
        format: Format,
        losses: Vec<String>,
    },
    ReadOnly(PathBuf),
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
    /// What the file does not hold (the user said yes).
    pub losses: Vec<String>,
    /// A file of several records written whole: the text of each record as written.
    pub texts: Option<Vec<String>>,
}

/// The save thread: renders and encodes `record`, stops at losses not agreed to yet, writes.
/// `doc` is the session's document when its file holds several records (in CSA they are all
/// written, to its own file or another); `extra` are losses the session knows of and the plan
/// does not (the other records of such a file, bytes replaced when the file was read).
pub(super) fn run_save(
    record: &Record,
    doc: Option<&Source>,
    job: &SaveJob,
    extra: Vec<String>,
    progress: &Progress,
) -> Outcome {
    let (plan, texts) =
        match document::plan_in_file(record, doc, &job.path, job.target.target, job.target.info) {
            Ok(p) => p,
            Err(e) => return Outcome::Unencodable(e),
        };
    let mut losses: Vec<String> = plan.losses.clone();
    losses.extend(extra);
    if !losses.is_empty() && !job.losses_ok {
        return Outcome::Losses {
            format: plan.target.format,
            losses,
        };
    }
    progress
        .total
        .store(plan.bytes.len() as u64, Ordering::Relaxed);
    match document::write(&plan, job.read_only_ok, &progress.written) {
        Err(SaveError::ReadOnly { path }) => Outcome::ReadOnly(path),
        Err(e) => Outcome::Failed(e),
        Ok(stamp) => Outcome::Saved(Written {
            stamp,
            format: plan.target.format,
            info: plan.info,
            bytes: plan.bytes.len(),
            losses: plan.losses,
            texts,
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
