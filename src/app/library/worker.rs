//! The library's threads: the lister, which computes the ordered ids of the games passing a
//! filter in a sort order (`SELECT id … ORDER BY`: a sort of the whole catalog, 100 ms at
//! 100,000 games, so never on the key path; requests replace each other, the newest wins),
//! and the indexer (`kifview DIR`: `collection::update` of the folder, with its progress;
//! the update commits in steps, and after each the list is asked for again, at most once a
//! second, so it fills as the indexing goes; when the library goes, the viewer quitting, the
//! update is told to stop and waited for a short while, so that it ends between steps, not
//! with the process). Both answer on one channel the app drains each tick.

use crate::collection::build::CATALOG;
use crate::collection::catalog::Catalog;
use crate::collection::{Filter, Report, SortBy, UpdateOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The list to compute: games passing `filter` (the typed filter and the folder's), in
/// `sort` order; `base` is the folder's filter alone (its count is the library's size).
#[derive(Clone, Debug)]
pub struct ListRequest {
    pub generation: u64,
    pub filter: Filter,
    pub base: Filter,
    pub sort: SortBy,
    pub descending: bool,
}

/// A computed list: the ids in order, and how many games the library holds unfiltered.
#[derive(Debug)]
pub struct Listed {
    pub ids: Vec<u32>,
    pub total: u64,
}

/// What the threads send back.
#[derive(Debug)]
pub enum Reply {
    Listed {
        generation: u64,
        result: Result<Listed, String>,
    },
    /// The indexing of the folder ended.
    Indexed(Result<Report, String>),
}

/// Files read so far and files to read, and the steps committed (games the list can show),
/// written by the indexer as it goes.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub total: AtomicU64,
    pub committed: AtomicU64,
}

/// The list is asked for again at most this often while the indexing commits.
const RELIST: Duration = Duration::from_secs(1);

/// How long the viewer, quitting, waits for the indexer to stop: told to, it stops within the
/// file each core is reading and a rollback of the step under way (milliseconds); a step
/// sorting its positions or a compaction cannot be interrupted, and the process ends anyway
/// after this (the catalog's journal makes that safe too: the next update rolls it back).
const STOP_WAIT: Duration = Duration::from_secs(2);

/// The indexer thread as the app holds it: dropped (the viewer quits, or the library goes),
/// it tells the update to stop and waits for it, at most [`STOP_WAIT`], so that the update
/// ends at a step instead of with the process.
struct Indexer {
    stop: Arc<AtomicBool>,
    /// Disconnected when the thread ends.
    ended: Receiver<()>,
}

impl Drop for Indexer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.ended.recv_timeout(STOP_WAIT);
    }
}

#[derive(Default)]
struct Slot {
    request: Option<ListRequest>,
    quit: bool,
}

/// The app's side of the threads.
pub struct Worker {
    shared: Arc<(Mutex<Slot>, Condvar)>,
    replies: Receiver<Reply>,
    pub(super) progress: Arc<Progress>,
    /// The steps committed when the list was last asked for again, and when.
    relisted: (u64, Option<Instant>),
    _indexer: Option<Indexer>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("library::Worker")
    }
}

impl Worker {
    /// Starts the lister on the index in `dir`, and the indexer of `root` into it when given.
    pub fn start(dir: PathBuf, root: Option<PathBuf>) -> Worker {
        let shared = Arc::new((Mutex::new(Slot::default()), Condvar::new()));
        let (tx, replies) = channel();
        let progress = Arc::new(Progress::default());
        let indexer = root.map(|root| {
            let (tx, dir, progress) = (tx.clone(), dir.clone(), Arc::clone(&progress));
            let stop = Arc::new(AtomicBool::new(false));
            let (ended_tx, ended) = channel::<()>();
            let theirs = Arc::clone(&stop);
            let _ = std::thread::Builder::new()
                .name("kifview-indexer".into())
                .spawn(move || {
                    let _ended = ended_tx;
                    let report = |done: u64, total: u64| {
                        progress.total.store(total, Ordering::Relaxed);
                        progress.done.store(done, Ordering::Relaxed);
                    };
                    let committed = || {
                        progress.committed.fetch_add(1, Ordering::Relaxed);
                    };
                    let opts = UpdateOptions::default();
                    let r = crate::collection::update_with(
                        &dir,
                        &[root],
                        opts,
                        &report,
                        &committed,
                        &theirs,
                    );
                    let _ = tx.send(Reply::Indexed(r));
                });
            Indexer { stop, ended }
        });
        let theirs = Arc::clone(&shared);
        let _ = std::thread::Builder::new()
            .name("kifview-library".into())
            .spawn(move || run(&dir, &theirs, &tx));
        Worker {
            shared,
            replies,
            progress,
            relisted: (0, None),
            _indexer: indexer,
        }
    }

    /// Should the list be asked for again: the indexer committed games since it last was,
    /// and that was a second ago or more (or never)?
    pub(super) fn relist_due(&mut self) -> bool {
        let committed = self.progress.committed.load(Ordering::Relaxed);
        let (seen, at) = self.relisted;
        if committed == seen || at.is_some_and(|t| t.elapsed() < RELIST) {
            return false;
        }
        self.relisted = (committed, Some(Instant::now()));
        true
    }

    /// A list asked for while indexing did not come (the catalog not readable yet, or busy):
    /// asked again on a later tick (at most once a second), not only after the next commit.
    pub fn relist_again(&mut self) {
        self.relisted.0 = u64::MAX;
    }

    /// Asks for a list, replacing one not yet taken (never waits on a query).
    pub fn ask(&self, request: ListRequest) {
        let (slot, wake) = &*self.shared;
        if let Ok(mut s) = slot.lock() {
            s.request = Some(request);
        }
        wake.notify_one();
    }

    pub fn try_reply(&self) -> Option<Reply> {
        self.replies.try_recv().ok()
    }

    /// Waits for the next reply (tests; `None` when the threads have stopped).
    pub fn wait_reply(&self) -> Option<Reply> {
        self.replies.recv().ok()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let (slot, wake) = &*self.shared;
        if let Ok(mut s) = slot.lock() {
            s.quit = true;
        }
        wake.notify_one();
    }
}

/// The catalog of the index in `dir`, read-only (a missing one says how to make it).
pub(super) fn open_catalog(dir: &Path) -> Result<Catalog, String> {
    let path = dir.join(CATALOG);
    if !path.is_file() {
        return Err(format!(
            "{}: no index there (kifview DIR indexes a folder)",
            dir.display()
        ));
    }
    Catalog::open(&path, true, false).map_err(|e| format!("{}: {e}", dir.display()))
}

fn run(dir: &Path, shared: &(Mutex<Slot>, Condvar), tx: &Sender<Reply>) {
    loop {
        let request = {
            let (slot, wake) = shared;
            let Ok(mut s) = slot.lock() else { return };
            loop {
                if s.quit {
                    return;
                }
                if let Some(r) = s.request.take() {
                    break r;
                }
                s = match wake.wait(s) {
                    Ok(s) => s,
                    Err(_) => return,
                };
            }
        };
        // Opened for each list: an update may have rebuilt the catalog since.
        let result = open_catalog(dir).and_then(|cat| {
            let ids = cat.ordered_ids(&request.filter, request.sort, request.descending)?;
            let total = cat.count(&request.base)?;
            Ok(Listed { ids, total })
        });
        let reply = Reply::Listed {
            generation: request.generation,
            result,
        };
        if tx.send(reply).is_err() {
            return;
        }
    }
}
