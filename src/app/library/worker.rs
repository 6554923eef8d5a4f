//! The library's threads: the lister, which computes the ordered ids of the games passing a
//! filter in a sort order (`SELECT id … ORDER BY`: a sort of the whole catalog, 100 ms at
//! 100,000 games, so never on the key path) with the summary above the list (the games by
//! result, their most frequent tags, my tally: in the same read, kept for the filter and the
//! index's state, so a new sort does not count again) and fetches the rows of the pages around the
//! screen before the list gets there (so that a page step finds them kept); requests replace
//! each other in a latest-wins mailbox (`app::collection::mailbox`), a list before rows.
//! And the indexer (`kifview DIR`: `collection::update` of the folder, with its progress; or
//! a folder forgotten, `library_forget`, as `kifview index --forget` does;
//! refused because another kifview updates the index, it waits for that one and then runs;
//! the update commits in steps, and after each the list is asked for again, at most once a
//! second, so it fills as the indexing goes; when the library goes, the viewer quitting, the
//! update is told to stop and waited for a short while, so that it ends between steps, not
//! with the process). Both answer on one channel the app drains each tick. The lister follows
//! the index: when the catalog its last list was computed on is no longer the index's (a new
//! generation, or a new file after a rebuild) it says so, before each answer and when idle
//! (`Reply::Changed`), and the app lists again, fetching no row by the old ids meanwhile.

use crate::app::collection::mailbox::{Inbox, Mailbox, Replies, mailbox};
use crate::app::events::Events;
use crate::collection::catalog::CATALOG;
use crate::collection::catalog::Catalog;
use crate::collection::{Filter, GameInfo, MeTally, Report, SortBy, UpdateOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, channel};
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

/// A computed list: the ids in order, how many games the library holds unfiltered, and, with
/// a "me", my games of the list and how they went for me; the summary above the list.
#[derive(Debug)]
pub struct Listed {
    pub ids: Vec<u32>,
    pub total: u64,
    pub me: Option<MeTally>,
    pub summary: Summary,
}

/// What the summary above the list says of the games the filter keeps: how many, their
/// results (sente wins, gote wins, draws, unknown) and their most frequent tags with counts
/// (plain names: `振り飛車`, not the sided `先手振り飛車`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub results: [u64; 4],
    pub tags: Vec<(String, u64)>,
}

/// The tags the summary keeps, most frequent first.
const SUMMARY_TAGS: usize = 8;

/// The summary and my tally of a filter on a catalog: computed once per filter and state of
/// the index (a new sort of the same filter reuses them).
type Summed = (Filter, Option<Stamp>, Summary, Option<MeTally>);

/// The summary and my tally of the games passing `filter` on `cat` (stamped `on`), from `kept`
/// when that is of the same filter and state.
fn summed(
    cat: &Catalog,
    filter: &Filter,
    on: Option<Stamp>,
    kept: &mut Option<Summed>,
) -> Result<(Summary, Option<MeTally>), String> {
    if let Some((f, at, summary, me)) = kept.as_ref()
        && f == filter
        && *at == on
        && on.is_some()
    {
        return Ok((summary.clone(), *me));
    }
    let mut tags = cat.tag_counts(filter)?;
    // The plain names only: a sided one (`先手振り飛車`) repeats its plain one for a side.
    tags.retain(|(t, _)| !t.starts_with("先手") && !t.starts_with("後手"));
    tags.truncate(SUMMARY_TAGS);
    let summary = Summary {
        results: cat.result_counts(filter)?,
        tags,
    };
    let me = cat.me_tally(filter)?;
    *kept = Some((filter.clone(), on, summary.clone(), me));
    Ok((summary, me))
}

/// Rows to fetch ahead of the screen, for the list of `generation`; `seq` counts the
/// requests (the answer to the last one says none is awaited).
#[derive(Clone, Debug)]
pub struct RowsRequest {
    pub generation: u64,
    pub seq: u64,
    pub ids: Vec<u32>,
}

/// What the threads send back.
#[derive(Debug)]
pub enum Reply {
    Listed {
        generation: u64,
        result: Result<Listed, String>,
    },
    /// The rows asked for ahead of the screen.
    Rows {
        generation: u64,
        seq: u64,
        result: Result<Vec<GameInfo>, String>,
    },
    /// The indexing of the folder ended.
    Indexed(Result<Report, String>),
    /// The index changed since the last list was computed (an update committed, a
    /// compaction renumbered the games, a rebuild replaced the catalog): its ids and rows are
    /// stale.
    Changed,
}

/// Which catalog a list was computed on: its file's identity and its generation.
type Stamp = (Option<(u64, u64)>, u64);

/// The stamp of `cat`, the catalog at `path` (`None` when it cannot be read).
fn stamp(path: &Path, cat: &Catalog) -> Option<Stamp> {
    Some((
        crate::collection::query::identity(path),
        cat.generation().ok()?,
    ))
}

/// Files read so far and files to read, and the steps committed (games the list can show),
/// written by the indexer as it goes.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub total: AtomicU64,
    pub committed: AtomicU64,
    /// Another kifview updates the index: the indexing waits for it.
    pub waiting: AtomicBool,
}

/// How often an indexing refused because another kifview updates the index tries again.
const WAIT_RETRY: Duration = Duration::from_millis(200);

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

/// The least time between two wakes of the run loop for the indexing's progress.
const PROGRESS_WAKE: Duration = Duration::from_millis(50);

/// The newest request of each kind.
#[derive(Default)]
struct Slot {
    list: Option<ListRequest>,
    rows: Option<RowsRequest>,
}

/// The app's side of the threads (dropping it stops the lister).
pub struct Worker {
    mailbox: Mailbox<Slot, Reply>,
    /// The channel the indexer answers on, and the index folder.
    replies: Replies<Reply>,
    dir: PathBuf,
    pub(super) progress: Arc<Progress>,
    /// The steps committed when the list was last asked for again, and when.
    relisted: (u64, Option<Instant>),
    /// The indexing under way or the last one (dropped: told to stop, and waited for).
    indexer: Option<Indexer>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("library::Worker")
    }
}

impl Worker {
    /// Starts the lister on the index in `dir`, and the indexer of `root` into it when given.
    pub fn start(dir: PathBuf, root: Option<PathBuf>, events: Events) -> Worker {
        let (mailbox, inbox) = mailbox(events);
        let replies = inbox.sender();
        let lister_dir = dir.clone();
        let _ = std::thread::Builder::new()
            .name("kifview-library".into())
            .spawn(move || run(&lister_dir, &inbox));
        let mut w = Worker {
            mailbox,
            replies,
            dir,
            progress: Arc::new(Progress::default()),
            relisted: (0, None),
            indexer: None,
        };
        if let Some(root) = root {
            w.index(root);
        }
        w
    }

    /// Indexes `root` into the index on a thread (its progress in `progress`, its end a
    /// [`Reply::Indexed`]); the indexing before it has ended (`Reply::Indexed` came).
    pub(super) fn index(&mut self, root: PathBuf) {
        self.update(vec![root], Vec::new());
    }

    /// Forgets the folder `folder` from the index (`kifview index --forget`: its files leave
    /// the index, which no longer names it; the files stay), updating the index's other folders
    /// as that does, on the indexer's thread: its end is a [`Reply::Indexed`].
    pub(super) fn forget(&mut self, folder: PathBuf) {
        self.update(Vec::new(), vec![folder]);
    }

    /// An update of the index on a thread: `roots` indexed, `forget` forgotten first.
    fn update(&mut self, roots: Vec<PathBuf>, forget: Vec<PathBuf>) {
        let (tx, dir) = (self.replies.clone(), self.dir.clone());
        let progress = Arc::clone(&self.progress);
        progress.done.store(0, Ordering::Relaxed);
        progress.total.store(0, Ordering::Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        let (ended_tx, ended) = channel::<()>();
        let theirs = Arc::clone(&stop);
        let _ = std::thread::Builder::new()
            .name("kifview-indexer".into())
            .spawn(move || {
                let _ended = ended_tx;
                // The progress wakes the run loop at most every PROGRESS_WAKE; each commit
                // at once.
                let woke = std::sync::Mutex::new(Instant::now());
                let report = |done: u64, total: u64| {
                    progress.total.store(total, Ordering::Relaxed);
                    progress.done.store(done, Ordering::Relaxed);
                    if let Ok(mut at) = woke.lock()
                        && at.elapsed() >= PROGRESS_WAKE
                    {
                        *at = Instant::now();
                        tx.wake();
                    }
                };
                let committed = || {
                    progress.committed.fetch_add(1, Ordering::Relaxed);
                    tx.wake();
                };
                // Refused while another kifview updates the index: waits for it (saying
                // so), then indexes, unless told to stop meanwhile.
                let r = loop {
                    let r = crate::collection::build::update_forgetting(
                        &dir,
                        &roots,
                        &forget,
                        UpdateOptions::default(),
                        &report,
                        &committed,
                        &theirs,
                    );
                    let busy = matches!(&r, Err(e) if e.contains(crate::collection::build::BUSY));
                    if !busy || theirs.load(Ordering::Relaxed) {
                        break r;
                    }
                    progress.waiting.store(true, Ordering::Relaxed);
                    tx.wake();
                    std::thread::sleep(WAIT_RETRY);
                };
                progress.waiting.store(false, Ordering::Relaxed);
                let _ = tx.send(Reply::Indexed(r));
            });
        self.indexer = Some(Indexer { stop, ended });
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
        self.mailbox.ask(|s| s.list = Some(request));
    }

    /// Asks for rows ahead of the screen, replacing such a request not yet taken.
    pub fn ask_rows(&self, request: RowsRequest) {
        self.mailbox.ask(|s| s.rows = Some(request));
    }

    pub fn try_reply(&self) -> Option<Reply> {
        self.mailbox.try_reply()
    }

    /// Waits for the next reply (tests; `None` when the threads have stopped).
    pub fn wait_reply(&self) -> Option<Reply> {
        self.mailbox.wait_reply()
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

/// A request the lister takes: a list first.
enum Job {
    List(Box<ListRequest>),
    Rows(RowsRequest),
}

fn run(dir: &Path, inbox: &Inbox<Slot, Reply>) {
    // The connection the last list was computed on, for the rows of that list, and which
    // catalog that was.
    let mut catalog: Option<Catalog> = None;
    let mut listed_on: Option<Stamp> = None;
    // The last list's summary, for the same filter sorted another way.
    let mut kept: Option<Summed> = None;
    let path = dir.join(CATALOG);
    let next = |s: &mut Slot| {
        (s.list.take().map(|r| Job::List(Box::new(r)))).or_else(|| s.rows.take().map(Job::Rows))
    };
    while let Some(job) = inbox.next_within(crate::app::collection::worker::CHECK, next) {
        // Before each answer and when idle: is the last list's catalog still the index's?
        if let (Some(seen), Some(cat)) = (listed_on, catalog.as_ref())
            && stamp(&path, cat) != Some(seen)
        {
            (catalog, listed_on) = (None, None);
            if !inbox.reply(Reply::Changed) {
                return;
            }
        }
        let Some(job) = job else { continue };
        let reply = match job {
            Job::List(request) => {
                // Opened for each list: an update may have rebuilt the catalog since.
                catalog = None;
                let result = open_catalog(dir).and_then(|cat| {
                    // One read transaction: the stamp, the ids, the count and the tally of
                    // one state.
                    let (on, ids, total, (summary, me)) = cat.snapshot(|| {
                        let on = stamp(&path, &cat);
                        let ids =
                            cat.ordered_ids(&request.filter, request.sort, request.descending)?;
                        let total = cat.count(&request.base)?;
                        let summed = summed(&cat, &request.filter, on, &mut kept)?;
                        Ok((on, ids, total, summed))
                    })?;
                    catalog = Some(cat);
                    listed_on = on;
                    Ok(Listed {
                        ids,
                        total,
                        me,
                        summary,
                    })
                });
                Reply::Listed {
                    generation: request.generation,
                    result,
                }
            }
            Job::Rows(request) => {
                // Only from the list's own catalog: another's ids name other games.
                let result = (catalog.as_ref())
                    .ok_or_else(|| "the index changed: listing again".to_string())
                    .and_then(|c| c.games_by_id(&request.ids));
                Reply::Rows {
                    generation: request.generation,
                    seq: request.seq,
                    result,
                }
            }
        };
        if !inbox.reply(reply) {
            return;
        }
    }
}
