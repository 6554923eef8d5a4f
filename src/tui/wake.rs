//! The run loop's one wait: for the terminal's input, an event from one of the app's workers
//! (`app::events`), or the timeout, whichever comes first. Workers send into a channel and
//! write a byte into a pipe (the self-pipe), so that one `poll(2)` waits on the terminal and
//! on every worker at once.

use crate::app::events::{Event, Events};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// What ended a wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Woken {
    /// The terminal has input (or crossterm may: standard input is not the terminal).
    Input,
    /// The terminal hung up.
    HungUp,
    /// A worker sent an event ([`Wake::take`] has it).
    Event,
    /// The time ran out (or a signal came).
    Timeout,
}

/// The loop's side of the channel: the events, and the pipe that wakes `poll`.
pub struct Wake {
    events: Events,
    rx: Receiver<Event>,
    read: OwnedFd,
}

impl Wake {
    pub fn new() -> std::io::Result<Wake> {
        let mut fds = [0; 2];
        // SAFETY: pipe2 fills two descriptors, which the OwnedFds below own from then on.
        // Non-blocking: a full pipe already wakes the loop; close-on-exec: no engine inherits it.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_NONBLOCK | libc::O_CLOEXEC) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just made, and nothing else owns them.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        let write = Arc::new(write);
        let (tx, rx) = channel();
        let events = Events::new(move |ev| {
            if tx.send(ev).is_err() {
                return false;
            }
            // SAFETY: one byte from a valid buffer to a descriptor this closure keeps open.
            unsafe { libc::write(write.as_raw_fd(), [1u8].as_ptr().cast(), 1) };
            true
        });
        Ok(Wake { events, rx, read })
    }

    /// Where the app's workers send (`App::connect_events`).
    pub fn events(&self) -> Events {
        self.events.clone()
    }

    /// Waits up to `wait` for the terminal (standard input, when it is one) or an event.
    /// Without a terminal on standard input (crossterm then reads /dev/tty) it waits for an
    /// event at most 20 ms and says `Input`, for crossterm's own poll to look.
    pub fn wait(&self, wait: Duration, terminal: bool) -> Woken {
        // SAFETY: isatty on descriptor 0.
        let tty = terminal && unsafe { libc::isatty(0) } == 1;
        let mut fds = [
            libc::pollfd {
                fd: self.read.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: 0,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let wait = if tty || !terminal {
            wait
        } else {
            wait.min(Duration::from_millis(20))
        };
        let ms = wait.as_millis().min(i32::MAX as u128) as i32;
        let n = if tty { 2 } else { 1 };
        // SAFETY: poll on `n` valid pollfds of our own.
        let r = unsafe { libc::poll(fds.as_mut_ptr(), n, ms) };
        if r <= 0 {
            return if terminal && !tty {
                Woken::Input
            } else {
                Woken::Timeout
            };
        }
        let hangup = libc::POLLHUP | libc::POLLERR | libc::POLLNVAL;
        if tty && fds[1].revents & hangup != 0 {
            Woken::HungUp
        } else if fds[0].revents != 0 {
            Woken::Event
        } else {
            Woken::Input
        }
    }

    /// The events sent since the last call (the pipe emptied).
    pub fn take(&self) -> Vec<Event> {
        let mut buf = [0u8; 256];
        // SAFETY: reads into a buffer of its size from our own non-blocking descriptor.
        while unsafe { libc::read(self.read.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) } > 0 {
        }
        let mut out: Vec<Event> = Vec::new();
        for ev in self.rx.try_iter() {
            // One of each kind is enough: a feature takes all its news at once.
            if !out.contains(&ev) {
                out.push(ev);
            }
        }
        out
    }
}
