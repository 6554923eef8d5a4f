//! The one channel of background work. Every worker of the app (a save's thread, the
//! explorer's and the library's threads and the indexer, the timers of the followed file and
//! of the recovery files) sends an [`Event`] naming its feature into the [`Events`] the front
//! end connected (`App::connect_events`); the run loop waits on that channel together with
//! the terminal and the frame's timeout (gitui's `select_event`, helix's job callbacks), and
//! hands each event to `App::handle_event` (`app/lifecycle.rs`), the one `match` from an
//! event to the feature that takes it. A new worker is a variant here, its line in that
//! `match`, and its feature's own folder; the loop does not change. This file names no other
//! file of the app: every worker may use it.
//!
//! What only time moves (an engine's deadlines: a reply's timeout, a timed search's end, the
//! debounce before the cursor's position is asked for; the progress of a save or of the
//! indexing on the status line) the app looks at when `App::next_look` says so: the run
//! loop's wait ends at the nearest.

use std::sync::{Arc, mpsc};
use std::time::Duration;

/// Which feature has news for the run loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A save's thread ended (`document::save`).
    Save,
    /// The explorer's or the library's thread answered, or the indexer moved on
    /// (`app::collection`, `app::library`).
    Collection,
    /// Time to look at the followed file (`document::watch`).
    Watch,
    /// Time to write or remove recovery files (`document::session`).
    Recovery,
    /// The engine sent something, exited, or could not be written to (its threads:
    /// `engine::Waker`, `app::research`).
    Engine,
    /// The training history's writer wrote an attempt (`app::train`).
    Train,
    /// A book save's thread ended (`app::book::save`).
    Book,
}

/// Where workers send their events: the front end's channel, or nowhere (tests and batch
/// uses of the app, which call the ticks themselves).
#[derive(Clone, Default)]
pub struct Events(Option<Arc<dyn Fn(Event) -> bool + Send + Sync>>);

impl std::fmt::Debug for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Events"
        } else {
            "Events(none)"
        })
    }
}

impl Events {
    /// Events handed to `send`, which says false once nobody listens any more.
    pub fn new(send: impl Fn(Event) -> bool + Send + Sync + 'static) -> Events {
        Events(Some(Arc::new(send)))
    }

    /// Sends `event`; false when nobody listens (a timer then stops).
    pub fn send(&self, event: Event) -> bool {
        self.0.as_ref().is_some_and(|send| send(event))
    }

    /// Sends `event` every `period` on a thread of its own, until nobody listens.
    pub(crate) fn every(&self, period: Duration, event: Event) {
        if self.0.is_none() {
            return;
        }
        let events = self.clone();
        let _ = std::thread::Builder::new()
            .name("kifview-timer".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(period);
                    if !events.send(event) {
                        return;
                    }
                }
            });
    }
}

/// One piece of work on a thread of its own whose one result the app takes, as its feature's
/// worker: a save's phase (`document::background`), the books' save (`book::save`). The
/// thread sends its feature's event when it has ended, so the run loop hands the result over
/// (`Task::look` from the feature's event); a key that cannot go on without it waits for it
/// (`Task::wait`). The work and the app share `progress`: how far the work is, for the status
/// line, and a stop the work looks at, are its own (a book's `SaveWatch`).
pub(crate) struct Task<T, P> {
    rx: mpsc::Receiver<T>,
    progress: Arc<P>,
}

/// What a look at a [`Task`] found.
#[derive(Debug)]
pub(crate) enum TaskState<T> {
    /// It ended with this.
    Done(T),
    /// It is still at work.
    Running,
    /// Its thread ended without a result (it panicked).
    Lost,
}

impl<T, P> std::fmt::Debug for Task<T, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Task").finish_non_exhaustive()
    }
}

impl<T: Send + 'static, P: Send + Sync + 'static> Task<T, P> {
    /// Starts `work` on a thread named `name`, sharing `progress` with it; `event` goes to
    /// `events` when it has ended. The error when no thread could be started.
    pub(crate) fn start(
        name: &str,
        events: Events,
        event: Event,
        progress: P,
        work: impl FnOnce(&P) -> T + Send + 'static,
    ) -> std::io::Result<Task<T, P>> {
        let progress = Arc::new(progress);
        let (tx, rx) = mpsc::channel();
        let shared = Arc::clone(&progress);
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                if tx.send(work(&shared)).is_ok() {
                    events.send(event);
                }
            })?;
        Ok(Task { rx, progress })
    }
}

impl<T, P> Task<T, P> {
    /// What the work and the app share.
    pub(crate) fn progress(&self) -> &P {
        &self.progress
    }

    /// Waits for the result, at most `limit` (`None`: until the work ends).
    pub(crate) fn wait(&self, limit: Option<Duration>) -> TaskState<T> {
        let got = match limit {
            None => self
                .rx
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            Some(d) => self.rx.recv_timeout(d),
        };
        match got {
            Ok(result) => TaskState::Done(result),
            Err(mpsc::RecvTimeoutError::Timeout) => TaskState::Running,
            Err(mpsc::RecvTimeoutError::Disconnected) => TaskState::Lost,
        }
    }

    /// The result if the work has ended, without waiting.
    pub(crate) fn look(&self) -> TaskState<T> {
        match self.rx.try_recv() {
            Ok(result) => TaskState::Done(result),
            Err(mpsc::TryRecvError::Empty) => TaskState::Running,
            Err(mpsc::TryRecvError::Disconnected) => TaskState::Lost,
        }
    }
}
