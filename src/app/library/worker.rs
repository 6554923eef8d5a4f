//! The library's threads: the lister, which computes the ordered ids of the games passing a
//! filter in a sort order (`SELECT id … ORDER BY`: a sort of the whole catalog, 100 ms at
//! 100,000 games, so never on the key path; requests replace each other, the newest wins),
//! and the indexer (`kifview DIR`: `collection::update` of the folder, with its progress).
//! Both answer on one channel the app drains each tick.

use crate::collection::build::CATALOG;
use crate::collection::catalog::Catalog;
use crate::collection::{Filter, Report, SortBy, UpdateOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};

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

/// Files read so far and files to read, written by the indexer as it goes.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub total: AtomicU64,
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
        if let Some(root) = root {
            let (tx, dir, progress) = (tx.clone(), dir.clone(), Arc::clone(&progress));
            let _ = std::thread::Builder::new()
                .name("kifview-indexer".into())
                .spawn(move || {
                    let report = |done: u64, total: u64| {
                        progress.total.store(total, Ordering::Relaxed);
                        progress.done.store(done, Ordering::Relaxed);
                    };
                    let r =
                        crate::collection::update(&dir, &[root], UpdateOptions::default(), &report);
                    let _ = tx.send(Reply::Indexed(r));
                });
        }
        let theirs = Arc::clone(&shared);
        let _ = std::thread::Builder::new()
            .name("kifview-library".into())
            .spawn(move || run(&dir, &theirs, &tx));
        Worker {
            shared,
            replies,
            progress,
        }
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
