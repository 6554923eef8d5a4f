//! The explorer's worker: a thread that owns the collection's [`Index`] and answers one
//! position at a time, off the key path. Requests replace each other in a latest-wins mailbox (`mailbox.rs`: a
//! position the cursor has already left is never asked); answers come back on a channel the
//! app drains each tick.

use super::mailbox::{Inbox, Mailbox, mailbox};
use crate::collection::{Explored, Filter, Found, Index};
use crate::core::rules::Position;
use std::path::{Path, PathBuf};

/// A position to explore and the games to look at, with the key the answer is filed under.
#[derive(Clone, Debug)]
pub struct Request {
    pub key: String,
    pub position: Position,
    pub filter: Filter,
}

/// What the worker sends back.
#[derive(Debug)]
pub enum Reply {
    /// The index could not be opened (no index there, another version, damaged): why.
    NoIndex(String),
    /// The answer for the position filed under `key` (or why the query failed).
    Explored {
        key: String,
        result: Result<Explored, String>,
    },
    /// The games reaching the position filed under `key`.
    Found {
        key: String,
        result: Result<Vec<Found>, String>,
    },
    /// The index changed since the answers before this one (an update committed, or a
    /// rebuild replaced the catalog): they are stale.
    Changed,
}

/// How often an idle worker looks whether the index changed (a file's identity and one
/// read of the catalog's generation, off the key path).
pub const CHECK: std::time::Duration = std::time::Duration::from_millis(500);

/// The newest request of each kind.
#[derive(Default)]
struct Slot {
    request: Option<Request>,
    /// A request for the games reaching a position (its own slot: the explorer's requests do
    /// not replace it).
    find: Option<Request>,
}

/// The app's side of the worker (dropping it stops the thread).
pub struct Worker {
    mailbox: Mailbox<Slot, Reply>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Worker")
    }
}

impl Worker {
    /// Starts the thread; it opens the index in `dir` first (never on the key path).
    pub fn start(dir: PathBuf, events: crate::app::events::Events) -> Worker {
        let (mailbox, inbox) = mailbox(events);
        let _ = std::thread::Builder::new()
            .name("kifview-explorer".into())
            .spawn(move || run(dir, &inbox));
        Worker { mailbox }
    }

    /// Asks for `request`, replacing a request not yet taken (never waits on a query).
    pub fn ask(&self, request: Request) {
        self.mailbox.ask(|s| s.request = Some(request));
    }

    /// Asks for the games reaching a position (replacing such a request not yet taken).
    pub fn ask_find(&self, request: Request) {
        self.mailbox.ask(|s| s.find = Some(request));
    }

    /// The next reply, if one came.
    pub fn try_reply(&self) -> Option<Reply> {
        self.mailbox.try_reply()
    }

    /// Waits for the next reply (tests; `None` when the worker has stopped).
    pub fn wait_reply(&self) -> Option<Reply> {
        self.mailbox.wait_reply()
    }
}

fn run(dir: PathBuf, inbox: &Inbox<Slot, Reply>) {
    let mut index = match Index::open(&dir) {
        Ok(i) => i,
        Err(e) => {
            inbox.reply(Reply::NoIndex(e));
            return;
        }
    };
    let mut generation = index.generation().ok();
    // The games reaching a position first: the explorer's requests do not delay them.
    let next = |s: &mut Slot| {
        (s.find.take().map(|r| (r, true))).or_else(|| s.request.take().map(|r| (r, false)))
    };
    while let Some(job) = inbox.next_within(CHECK, next) {
        // Before each answer and when idle: has the index changed?
        match follow(&dir, &mut index, &mut generation) {
            Ok(false) => {}
            Ok(true) => {
                if !inbox.reply(Reply::Changed) {
                    return;
                }
            }
            Err(e) => {
                inbox.reply(Reply::NoIndex(e));
                return;
            }
        }
        let Some((request, find)) = job else {
            continue;
        };
        let key = request.key;
        let reply = if find {
            let result = index.find(&request.position, &request.filter);
            Reply::Found { key, result }
        } else {
            let result = index.explore(&request.position, &request.filter);
            Reply::Explored { key, result }
        };
        if !inbox.reply(reply) {
            return;
        }
    }
}

/// Follows the index in `dir`: opens it again when a rebuild replaced its catalog, and says
/// whether it changed (a new catalog, or a new generation of the same one) since `generation`.
fn follow(dir: &Path, index: &mut Index, generation: &mut Option<u64>) -> Result<bool, String> {
    let replaced = index.replaced();
    if replaced {
        *index = Index::open(dir)?;
    }
    let now = index.generation().ok();
    let changed = replaced || now != *generation;
    *generation = now;
    Ok(changed)
}
