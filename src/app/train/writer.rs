//! The training history's writer: a thread of its own that writes each attempt with
//! `History::record` as soon as its verdict is given (a kill loses nothing answered), off the
//! key path (a write commits to SQLite, which syncs the disk), and sends `Event::Train` with
//! what came of it (when the problem is due next, or why it could not be written: the
//! history busy with another kifview, a file that is not a history).

use crate::app::events::{Event, Events};
use crate::training::drill::GivenAnswer;
use crate::training::history::{Attempt, History};
use chrono::{DateTime, Utc};
use std::path::PathBuf;
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};

/// What came of one write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The problem's title, to name it in the message.
    pub title: String,
    pub result: Result<DateTime<Utc>, String>,
}

enum Job {
    Write(String, GivenAnswer, Attempt),
    /// Answered when every job sent before it is done (tests, the end of a session).
    Flush(Sender<()>),
}

/// The writer's handle: cheap to clone (the overlay is `Clone`), one thread behind it.
#[derive(Clone, Debug)]
pub struct Writer {
    jobs: Sender<Job>,
    done: Arc<Mutex<Vec<Written>>>,
}

impl Writer {
    /// Starts the thread; the history at `path` is opened there (its errors come back as the
    /// first write's).
    pub fn start(path: PathBuf, events: Events) -> Writer {
        let (tx, rx) = channel::<Job>();
        let done = Arc::new(Mutex::new(Vec::new()));
        let out = Arc::clone(&done);
        let _ = std::thread::Builder::new()
            .name("kifview-train-history".into())
            .spawn(move || {
                let mut history: Option<Result<History, String>> = None;
                for job in rx {
                    match job {
                        Job::Flush(reply) => {
                            let _ = reply.send(());
                        }
                        Job::Write(title, o, a) => {
                            let h = history.get_or_insert_with(|| History::open(&path));
                            let result = match h {
                                Ok(h) => h.record(&o.id.source, o.id.kind, &o.id.key, &a),
                                Err(e) => Err(e.clone()),
                            };
                            if let Ok(mut d) = out.lock() {
                                d.push(Written { title, result });
                            }
                            events.send(Event::Train);
                        }
                    }
                }
            });
        Writer { jobs: tx, done }
    }

    /// Sends an attempt to be written.
    pub fn write(
        &self,
        title: String,
        outcome: GivenAnswer,
        attempt: Attempt,
    ) -> Result<(), String> {
        self.jobs
            .send(Job::Write(title, outcome, attempt))
            .map_err(|_| "the training history's writer has stopped".to_string())
    }

    /// Waits until every write sent before is done.
    pub fn flush(&self) {
        let (tx, rx) = channel();
        if self.jobs.send(Job::Flush(tx)).is_ok() {
            let _ = rx.recv();
        }
    }

    /// The writes done since the last call.
    pub fn take_done(&self) -> Vec<Written> {
        self.done
            .lock()
            .map(|mut d| std::mem::take(&mut *d))
            .unwrap_or_default()
    }
}
