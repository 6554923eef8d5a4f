//! A guardian for each engine's process group: a small process forked from kifview that
//! waits on a pipe only kifview holds open and, when it closes, kills the engine's whole
//! group. kifview closes it when it is done with the engine, and the kernel closes it when
//! kifview ends in any way at all (a signal it cannot catch, SIGKILL, a crash): the children
//! an engine started (a wrapper script's `sleep &`, a `#!/bin/sh` wrapper without `exec`)
//! go with it. `PR_SET_PDEATHSIG` reaches the engine itself only.
//!
//! The guardian comes first, the engine second: kifview forks the guardian, then starts the
//! engine, whose child side tells the guardian its group (`tell_group`, between fork and
//! exec) over a socket of their own. So there is no moment in which kifview can die leaving
//! an engine without a guardian: killed before the engine told its group, kifview takes the
//! engine with it (`PR_SET_PDEATHSIG`, set before the engine runs anything) and the guardian,
//! told nothing, exits; killed after, the guardian knows the group and kills it.
//!
//! What still escapes: a child that leaves the group (`setsid`, `setpgid`), and a guardian
//! killed by hand (SIGKILL to it alone) before kifview ends.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;

/// The guardian of one engine's group; dropping it lets the guardian kill the group.
#[derive(Debug)]
pub(crate) struct Guard {
    pid: libc::pid_t,
    lifeline: Option<OwnedFd>,
}

impl Guard {
    /// Forks a guardian for an engine not started yet. Returns it and the end of a socket
    /// through which the engine's child side tells it its group (`tell_group`); kifview
    /// closes its copy once the engine started or failed to.
    pub(crate) fn start() -> io::Result<(Guard, OwnedFd)> {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe2 fills the two descriptors; O_CLOEXEC keeps them out of every program
        // kifview starts later (the engine included: it must not hold the lifeline open).
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors are open and owned by nobody else.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // Close-on-exec too: the engine's copy closes as it execs, kifview's when dropped.
        let (group_in, group_out) = UnixStream::pair()?;
        // SAFETY: the child runs `guardian` only, which calls async-signal-safe functions and
        // never returns (a forked child of a threaded process may do no more).
        let pid = unsafe { libc::fork() };
        match pid {
            -1 => Err(io::Error::last_os_error()),
            0 => guardian(read.as_raw_fd(), group_in.as_raw_fd()),
            _ => Ok((
                Guard {
                    pid,
                    lifeline: Some(write),
                },
                group_out.into(),
            )),
        }
    }

    /// Lets the guardian kill the group now and waits for it to end (call it while the
    /// group's leader is not reaped yet, so that its id names that group still).
    pub(crate) fn release(&mut self) {
        if let Some(lifeline) = self.lifeline.take() {
            drop(lifeline);
            self.reap();
        }
    }

    /// Tells the guardian the engine never started (its group, if it told one, died with
    /// its exec: the id may be anybody's later), so it exits killing nothing; waits for it.
    pub(crate) fn stand_down(mut self) {
        if let Some(lifeline) = self.lifeline.take() {
            // SAFETY: writes one byte from a local to a descriptor we own.
            unsafe { libc::write(lifeline.as_raw_fd(), [b'x'].as_ptr().cast(), 1) };
            drop(lifeline);
            self.reap();
        }
    }

    fn reap(&self) {
        let mut status = 0;
        // SAFETY: waiting for our own child; it ends as soon as it sees the pipe close.
        unsafe {
            while libc::waitpid(self.pid, &mut status, 0) == -1
                && *libc::__errno_location() == libc::EINTR
            {}
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.release();
    }
}

/// In the engine's child, between fork and exec (after `setpgid(0, 0)`, so its pid is its
/// group's id): tells the guardian that group through `socket`, `Guard::start`'s second end.
/// An error when the guardian is gone (an engine must not start unguarded).
///
/// # Safety
/// Only async-signal-safe calls (getpid, send); callable in a forked child of a threaded
/// process. `socket` must be open.
pub(crate) unsafe fn tell_group(socket: RawFd) -> io::Result<()> {
    // SAFETY: getpid and send are async-signal-safe; MSG_NOSIGNAL: a guardian that is gone is
    // an error here, never a SIGPIPE.
    unsafe {
        let id = libc::getpid().to_ne_bytes();
        let n = libc::send(socket, id.as_ptr().cast(), id.len(), libc::MSG_NOSIGNAL);
        // No `io::Error::other` here: it allocates. An OS error is a number.
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        if n != id.len() as isize {
            return Err(io::Error::from_raw_os_error(libc::EPIPE));
        }
    }
    Ok(())
}

/// The guardian: ignores the signals that end a job (kifview handles those itself, and the
/// guardian must outlive it), closes every descriptor but its two, reads the engine's group
/// (none before the socket closes: no engine started, nothing to do), waits for the lifeline
/// to close, kills the group and exits. A byte on the lifeline: stand down, kill nothing.
fn guardian(lifeline: libc::c_int, group: libc::c_int) -> ! {
    // SAFETY: signal, fcntl, dup2, close, syscall, read, kill and _exit are
    // async-signal-safe; no memory is allocated.
    unsafe {
        for sig in [
            libc::SIGINT,
            libc::SIGTERM,
            libc::SIGHUP,
            libc::SIGQUIT,
            libc::SIGPIPE,
            libc::SIGTSTP,
        ] {
            libc::signal(sig, libc::SIG_IGN);
        }
        // The lifeline becomes 0 and the group's socket 1 (moved off 0 first if it is there).
        let group = if group == 0 {
            libc::fcntl(group, libc::F_DUPFD, 1)
        } else {
            group
        };
        if group < 0 || libc::dup2(lifeline, 0) < 0 || libc::dup2(group, 1) < 0 {
            libc::_exit(1);
        }
        if libc::syscall(libc::SYS_close_range, 2u32, u32::MAX, 0u32) != 0 {
            for fd in 2..4096 {
                libc::close(fd);
            }
        }
        let mut id = [0u8; 4];
        let mut got = 0;
        while got < id.len() {
            let n = libc::read(1, id[got..].as_mut_ptr().cast(), id.len() - got);
            if n > 0 {
                got += n as usize;
            } else if n == 0 || *libc::__errno_location() != libc::EINTR {
                libc::_exit(0); // no engine started: it has no group to kill
            }
        }
        libc::close(1);
        let pgid = libc::pid_t::from_ne_bytes(id);
        let mut b = 0u8;
        let n = loop {
            let n = libc::read(0, (&raw mut b).cast(), 1);
            if n < 0 && *libc::__errno_location() == libc::EINTR {
                continue;
            }
            break n;
        };
        if n <= 0 && pgid > 1 {
            libc::kill(-pgid, libc::SIGKILL);
        }
        libc::_exit(0)
    }
}

#[cfg(test)]
mod tests {
    use super::Guard;
    use std::io::Write;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Child, Command};

    /// A `sleep` in a group of its own, and a guardian told that group (as an engine's
    /// `tell_group` does).
    fn guarded_sleep() -> (Child, Guard) {
        let child = Command::new("sleep")
            .arg("600")
            .process_group(0)
            .spawn()
            .unwrap();
        let (guard, tell) = Guard::start().unwrap();
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        std::os::unix::net::UnixStream::from(tell)
            .write_all(&pid.to_ne_bytes())
            .unwrap();
        (child, guard)
    }

    /// How `child` ended once sent SIGTERM now: SIGKILL if something killed it before.
    fn end_signal(mut child: Child) -> Option<i32> {
        // SAFETY: signalling our own child, not reaped yet.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
        child.wait().unwrap().signal()
    }

    #[test]
    fn a_released_guardian_kills_the_group_it_was_told() {
        let (child, mut guard) = guarded_sleep();
        guard.release(); // returns once the guardian exited, after its kill
        assert_eq!(end_signal(child), Some(libc::SIGKILL));
    }

    #[test]
    fn a_guardian_stood_down_kills_nothing() {
        // What `Process::spawn` does when the engine's exec failed: the group it was told
        // died with the exec, and the id may be another group's by the time it would kill.
        let (child, guard) = guarded_sleep();
        guard.stand_down();
        assert_eq!(end_signal(child), Some(libc::SIGTERM));
    }

    #[test]
    fn a_guardian_told_no_group_exits_when_its_socket_closes() {
        // The engine's fork failed, or kifview died before the engine's child told it.
        let (guard, tell) = Guard::start().unwrap();
        drop(tell);
        // Gone by itself, its lifeline still open.
        let end = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let mut status = 0;
        // SAFETY: polling our own child (the guardian) without blocking.
        while unsafe { libc::waitpid(guard.pid, &mut status, libc::WNOHANG) } == 0 {
            assert!(
                std::time::Instant::now() < end,
                "the guardian waits for nothing"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(libc::WIFEXITED(status), "{status}");
    }
}
