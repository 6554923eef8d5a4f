//! A latest-wins mailbox between the app and one of its threads (the explorer's worker, the
//! library's lister): the app puts a request in a slot, replacing one not yet taken (a
//! position the cursor has already left, a list of a filter already retyped is never
//! computed), and never waits on the thread; the thread takes the next request when it is
//! free, or waits for one; answers come back on a channel the app drains when the run loop
//! hands it the event each answer sends (`app::events`, `Event::Collection`). Dropping
//! the app's side tells the thread to stop (a query under way finishes on its own; nothing
//! waits for it).

use crate::app::events::{Event, Events};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};

/// The slots (`S`: one field per kind of request, each holding the newest) and the word to
/// stop.
#[derive(Default)]
struct Inner<S> {
    slots: S,
    quit: bool,
}

type Shared<S> = Arc<(Mutex<Inner<S>>, Condvar)>;

/// The app's side: asks, and takes the answers (`R`).
pub(crate) struct Mailbox<S, R> {
    shared: Shared<S>,
    replies: Receiver<R>,
}

/// The thread's side: takes the requests, sends the answers.
pub(crate) struct Inbox<S, R> {
    shared: Shared<S>,
    replies: Replies<R>,
}

/// Where a thread sends its answers: each one also wakes the run loop (`Event::Collection`).
pub(crate) struct Replies<R> {
    tx: Sender<R>,
    events: Events,
}

impl<R> Clone for Replies<R> {
    fn clone(&self) -> Replies<R> {
        Replies {
            tx: self.tx.clone(),
            events: self.events.clone(),
        }
    }
}

impl<R> Replies<R> {
    /// Sends an answer and says so to the run loop; false when the app's side is gone.
    pub(crate) fn send(&self, r: R) -> bool {
        let sent = self.tx.send(r).is_ok();
        if sent {
            self.events.send(Event::Collection);
        }
        sent
    }

    /// Tells the run loop that something it shows moved on (the indexing's progress).
    pub(crate) fn wake(&self) {
        self.events.send(Event::Collection);
    }
}

/// A mailbox and the inbox to hand to its thread, whose answers wake the run loop through
/// `events`.
pub(crate) fn mailbox<S: Default, R>(events: Events) -> (Mailbox<S, R>, Inbox<S, R>) {
    let shared: Shared<S> = Arc::new((Mutex::new(Inner::default()), Condvar::new()));
    let (tx, replies) = channel();
    let inbox = Inbox {
        shared: Arc::clone(&shared),
        replies: Replies { tx, events },
    };
    (Mailbox { shared, replies }, inbox)
}

impl<S, R> Mailbox<S, R> {
    /// Puts a request in its slot (`put` replaces the one not yet taken) and wakes the
    /// thread. Takes a lock held only while the thread swaps a slot: never waits on a query.
    pub(crate) fn ask(&self, put: impl FnOnce(&mut S)) {
        let (inner, wake) = &*self.shared;
        if let Ok(mut i) = inner.lock() {
            put(&mut i.slots);
        }
        wake.notify_one();
    }

    /// The next answer, if one came.
    pub(crate) fn try_reply(&self) -> Option<R> {
        self.replies.try_recv().ok()
    }

    /// Waits for the next answer (tests; `None` when the thread has stopped).
    pub(crate) fn wait_reply(&self) -> Option<R> {
        self.replies.recv().ok()
    }
}

impl<S, R> Drop for Mailbox<S, R> {
    fn drop(&mut self) {
        let (inner, wake) = &*self.shared;
        if let Ok(mut i) = inner.lock() {
            i.quit = true;
        }
        wake.notify_one();
    }
}

impl<S, R> Inbox<S, R> {
    /// Waits until `take` finds a request in the slots (it takes it out); `None` when the
    /// app's side is gone.
    #[cfg(test)]
    pub(crate) fn next<T>(&self, mut take: impl FnMut(&mut S) -> Option<T>) -> Option<T> {
        let (inner, wake) = &*self.shared;
        let mut i = inner.lock().ok()?;
        loop {
            if i.quit {
                return None;
            }
            if let Some(t) = take(&mut i.slots) {
                return Some(t);
            }
            i = wake.wait(i).ok()?;
        }
    }

    /// As [`Inbox::next`], but waits at most `idle`: `Some(None)` when no request came by
    /// then (the thread looks at its index meanwhile), `None` when the app's side is gone.
    pub(crate) fn next_within<T>(
        &self,
        idle: std::time::Duration,
        mut take: impl FnMut(&mut S) -> Option<T>,
    ) -> Option<Option<T>> {
        let (inner, wake) = &*self.shared;
        let mut i = inner.lock().ok()?;
        let until = std::time::Instant::now() + idle;
        loop {
            if i.quit {
                return None;
            }
            if let Some(t) = take(&mut i.slots) {
                return Some(Some(t));
            }
            let left = until.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Some(None);
            }
            i = wake.wait_timeout(i, left).ok()?.0;
        }
    }

    /// Sends an answer; false when the app's side is gone.
    pub(crate) fn reply(&self, r: R) -> bool {
        self.replies.send(r)
    }

    /// Another sender of answers (for a second thread answering on the same channel).
    pub(crate) fn sender(&self) -> Replies<R> {
        self.replies.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Slot {
        request: Option<u32>,
    }

    /// A request not yet taken is replaced by the newer one: the thread sees the newest only.
    #[test]
    fn the_newest_request_wins_and_dropping_the_mailbox_stops_the_thread() {
        let (m, inbox) = mailbox::<Slot, u32>(Events::default());
        m.ask(|s| s.request = Some(1));
        m.ask(|s| s.request = Some(2));
        let t = std::thread::spawn(move || {
            while let Some(r) = inbox.next(|s| s.request.take()) {
                if !inbox.reply(r * 10) {
                    break;
                }
            }
        });
        assert_eq!(m.wait_reply(), Some(20));
        m.ask(|s| s.request = Some(3));
        assert_eq!(m.wait_reply(), Some(30));
        drop(m);
        t.join()
            .expect("the thread stops when the mailbox is dropped");
    }
}
