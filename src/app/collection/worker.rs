//! The explorer's worker: a thread that owns the collection's [`Index`] and answers one
//! position at a time, off the key path. Requests replace each other (the newest wins: a
//! position the cursor has already left is never asked); answers come back on a channel the
//! app drains each tick.

use crate::collection::{Explored, Filter, Found, Index};
use crate::core::rules::Position;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

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
}

/// The newest request, or the word to stop.
#[derive(Default)]
struct Slot {
    request: Option<Request>,
    /// A request for the games reaching a position (its own slot: the explorer's requests do
    /// not replace it).
    find: Option<Request>,
    quit: bool,
}

/// The app's side of the worker.
pub struct Worker {
    shared: Arc<(Mutex<Slot>, Condvar)>,
    replies: Receiver<Reply>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Worker")
    }
}

impl Worker {
    /// Starts the thread; it opens the index in `dir` first (never on the key path).
    pub fn start(dir: PathBuf) -> Worker {
        let shared = Arc::new((Mutex::new(Slot::default()), Condvar::new()));
        let (tx, replies) = channel();
        let theirs = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("kifview-explorer".into())
            .spawn(move || run(dir, &theirs, &tx))
            .ok();
        Worker {
            shared,
            replies,
            thread,
        }
    }

    /// Asks for `request`, replacing a request not yet taken. Takes a lock held only while
    /// the worker swaps the slot: never waits on a query.
    pub fn ask(&self, request: Request) {
        let (slot, wake) = &*self.shared;
        if let Ok(mut s) = slot.lock() {
            s.request = Some(request);
        }
        wake.notify_one();
    }

    /// Asks for the games reaching a position (replacing such a request not yet taken).
    pub fn ask_find(&self, request: Request) {
        let (slot, wake) = &*self.shared;
        if let Ok(mut s) = slot.lock() {
            s.find = Some(request);
        }
        wake.notify_one();
    }

    /// The next reply, if one came.
    pub fn try_reply(&self) -> Option<Reply> {
        self.replies.try_recv().ok()
    }

    /// Waits for the next reply (tests; `None` when the worker has stopped).
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
        // A query under way finishes on its own; nothing waits for it.
        drop(self.thread.take());
    }
}

fn run(dir: PathBuf, shared: &(Mutex<Slot>, Condvar), tx: &Sender<Reply>) {
    let index = match Index::open(&dir) {
        Ok(i) => i,
        Err(e) => {
            let _ = tx.send(Reply::NoIndex(e));
            return;
        }
    };
    loop {
        let (request, find) = {
            let (slot, wake) = shared;
            let Ok(mut s) = slot.lock() else { return };
            loop {
                if s.quit {
                    return;
                }
                if let Some(r) = s.find.take() {
                    break (r, true);
                }
                if let Some(r) = s.request.take() {
                    break (r, false);
                }
                s = match wake.wait(s) {
                    Ok(s) => s,
                    Err(_) => return,
                };
            }
        };
        let key = request.key;
        let reply = if find {
            let result = index.find(&request.position, &request.filter);
            Reply::Found { key, result }
        } else {
            let result = index.explore(&request.position, &request.filter);
            Reply::Explored { key, result }
        };
        if tx.send(reply).is_err() {
            return;
        }
    }
}
