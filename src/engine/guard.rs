//! A guardian for each engine's process group: a small process forked from kifview that
//! waits on a pipe only kifview holds open and, when it closes, kills the engine's whole
//! group. kifview closes it when it is done with the engine, and the kernel closes it when
//! kifview ends in any way at all (a signal it cannot catch, SIGKILL, a crash): the children
//! an engine started (a wrapper script's `sleep &`, a `#!/bin/sh` wrapper without `exec`)
//! go with it. `PR_SET_PDEATHSIG` reaches the engine itself only.
//!
//! What still escapes: a child that leaves the group (`setsid`, `setpgid`), and a guardian
//! killed by hand (SIGKILL to it alone) before kifview ends.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// The guardian of one engine's group; dropping it lets the guardian kill the group.
#[derive(Debug)]
pub(crate) struct Guard {
    pid: libc::pid_t,
    lifeline: Option<OwnedFd>,
}

impl Guard {
    /// Forks a guardian for the process group `pgid`.
    pub(crate) fn watch(pgid: libc::pid_t) -> io::Result<Guard> {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe2 fills the two descriptors; O_CLOEXEC keeps them out of every program
        // kifview starts later.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors are open and owned by nobody else.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // SAFETY: the child runs `guardian` only, which calls async-signal-safe functions and
        // never returns (a forked child of a threaded process may do no more).
        let pid = unsafe { libc::fork() };
        match pid {
            -1 => Err(io::Error::last_os_error()),
            0 => guardian(read.as_raw_fd(), pgid),
            _ => {
                drop(read);
                Ok(Guard {
                    pid,
                    lifeline: Some(write),
                })
            }
        }
    }

    /// Lets the guardian kill the group now and waits for it to end (call it while the
    /// group's leader is not reaped yet, so that its id names that group still).
    pub(crate) fn release(&mut self) {
        if self.lifeline.take().is_some() {
            let mut status = 0;
            // SAFETY: waiting for our own child; it ends as soon as it sees the pipe close.
            unsafe {
                while libc::waitpid(self.pid, &mut status, 0) == -1
                    && *libc::__errno_location() == libc::EINTR
                {}
            }
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.release();
    }
}

/// The guardian: ignores the signals that end a job (kifview handles those itself, and the
/// guardian must outlive it), closes every descriptor but the pipe, waits for the pipe to
/// close, kills the group and exits.
fn guardian(lifeline: libc::c_int, pgid: libc::pid_t) -> ! {
    // SAFETY: signal, dup2, close, syscall, read, kill and _exit are async-signal-safe; no
    // memory is allocated.
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
        libc::dup2(lifeline, 0);
        if libc::syscall(libc::SYS_close_range, 1u32, u32::MAX, 0u32) != 0 {
            for fd in 1..4096 {
                libc::close(fd);
            }
        }
        let mut b = 0u8;
        loop {
            let n = libc::read(0, (&raw mut b).cast(), 1);
            if n > 0 || (n < 0 && *libc::__errno_location() == libc::EINTR) {
                continue;
            }
            break;
        }
        libc::kill(-pgid, libc::SIGKILL);
        libc::_exit(0)
    }
}
