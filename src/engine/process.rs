//! The engine's process: spawned in its own process group, killed with its parent on Linux
//! (`PR_SET_PDEATHSIG`, and the whole group by a guardian: `guard.rs`), read by one thread
//! that parses every line, written by another (a full pipe never blocks the caller), watched
//! by a third that says when it exited (even while a child of it holds the output open),
//! killed and reaped on drop.

use super::guard::{self, Guard};
use super::usi::{UsiMessage, parse_line};
use super::{EngineSpec, clean};
use crate::core::notation::TextEncoding;
use crate::core::notation::encoding::decode;
use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::time::{Duration, Instant};

/// What the reader thread sends.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A USI line, and when this thread read it (before its owner polled).
    Msg(UsiMessage, Instant),
    /// A line that is not USI (banner, diagnostics, stderr), control characters removed.
    Other(String),
    /// The engine closed its output: it exited or crashed.
    Eof,
    /// The engine's process ended (its output may still be open: a child holds it).
    Exited,
    /// A command could not be written (the engine closed its input).
    WriteFailed(String),
}

/// How the engine's threads tell its owner that something came (a line, its exit, a write
/// that failed), so that the owner waits on its own channel instead of polling: a callback
/// run at most once between two polls (`Engine::poll` re-arms it first), so a flood of lines
/// is one call. Without a callback (`Waker::default`) the owner polls.
#[derive(Clone, Default)]
pub struct Waker {
    notify: Option<Arc<dyn Fn() + Send + Sync>>,
    /// Called since the last poll.
    pending: Arc<AtomicBool>,
}

impl Waker {
    /// A waker that runs `notify` (on an engine's thread: it must be quick and not block).
    pub fn new(notify: impl Fn() + Send + Sync + 'static) -> Waker {
        Waker {
            notify: Some(Arc::new(notify)),
            pending: Arc::default(),
        }
    }

    /// Something came: calls the owner back unless it was called since its last poll.
    pub(crate) fn wake(&self) {
        if let Some(notify) = &self.notify
            && !self.pending.swap(true, Ordering::SeqCst)
        {
            notify();
        }
    }

    /// The owner polls now: what comes after is a call again.
    pub(crate) fn rearm(&self) {
        self.pending.store(false, Ordering::SeqCst);
    }
}

/// The threads' end of the channel to `Engine::poll`: each item sent wakes the owner
/// ([`Waker`]). Every thread of the process sends through it (never through the raw sender).
#[derive(Clone)]
pub(crate) struct Tx {
    tx: SyncSender<Incoming>,
    waker: Waker,
}

impl Tx {
    /// Sends `item` and wakes the owner; an error when the driver is gone.
    fn send(&self, item: Incoming) -> Result<(), ()> {
        self.tx.send(item).map_err(|_| ())?;
        self.waker.wake();
        Ok(())
    }
}

/// Lines parsed but not yet taken by `Engine::poll`. When the owner falls behind, the reader
/// waits, the pipe fills and the engine waits to print: memory stays bounded.
const CHANNEL: usize = 1 << 14;

/// Lines longer than this are dropped (an engine printing garbage must not eat memory).
const MAX_LINE: usize = 1 << 16;

pub(crate) struct Process {
    child: Child,
    /// Lines for the writer thread (dropped: it closes the engine's input).
    stdin: Option<mpsc::Sender<Vec<u8>>>,
    /// When the writer began the write it is still in (ms since `born`; 0: none).
    writing_since: Arc<AtomicU64>,
    born: Instant,
    pub(crate) rx: Receiver<Incoming>,
    status: Option<ExitStatus>,
    guard: Option<Guard>,
}

impl Process {
    /// Starts `spec`'s command with piped stdin and stdout+stderr merged into one pipe.
    pub(crate) fn spawn(spec: &EngineSpec, waker: Waker) -> io::Result<Process> {
        let (reader, writer) = io::pipe()?;
        let mut cmd = Command::new(&spec.command);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(writer.try_clone()?)
            .stderr(writer);
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        // The group's guardian first: nothing the engine starts may outlive kifview, even
        // when kifview is killed as it starts the engine.
        let (guard, tell) = Guard::start()?;
        detach(&mut cmd, tell.as_raw_fd());
        let spawned = cmd.spawn();
        // `cmd` holds our copies of the pipe's write end: without dropping it, EOF never comes;
        // and the guardian waits for the engine's group until `tell` is closed everywhere.
        drop(cmd);
        drop(tell);
        let child = match spawned {
            Ok(child) => child,
            Err(e) => {
                guard.stand_down();
                return Err(e);
            }
        };
        #[cfg(test)]
        lifecycle_tests::pause_after_spawn();
        let (tx, rx) = mpsc::sync_channel(CHANNEL);
        let tx = Tx { tx, waker };
        let mut process = Process {
            stdin: None,
            writing_since: Arc::new(AtomicU64::new(0)),
            born: Instant::now(),
            rx,
            status: None,
            guard: Some(guard),
            child,
        };
        let id = process.child.id();
        let started = (|| {
            let stdin = process
                .child
                .stdin
                .take()
                .ok_or_else(|| io::Error::other("no stdin"))?;
            let (ltx, lrx) = mpsc::channel();
            process.stdin = Some(ltx);
            let since = Arc::clone(&process.writing_since);
            let (wtx, born) = (tx.clone(), process.born);
            std::thread::Builder::new()
                .name(format!("usi-writer-{id}"))
                .spawn(move || write_loop(stdin, lrx, wtx, since, born))?;
            let etx = tx.clone();
            std::thread::Builder::new()
                .name(format!("usi-exit-{id}"))
                .spawn(move || watch_exit(id, etx))?;
            std::thread::Builder::new()
                .name(format!("usi-reader-{id}"))
                .spawn(move || read_loop(reader, tx))
        })();
        if let Err(e) = started {
            process.kill();
            return Err(e);
        }
        Ok(process)
    }

    /// How long the write under way has been waiting for the engine to read (a full pipe:
    /// an engine that stopped reading its commands).
    pub(crate) fn write_blocked_for(&self) -> Duration {
        match self.writing_since.load(Ordering::Relaxed) {
            0 => Duration::ZERO,
            ms => self
                .born
                .elapsed()
                .saturating_sub(Duration::from_millis(ms)),
        }
    }

    /// When the write under way began (none under way: `None`).
    pub(crate) fn write_began(&self) -> Option<Instant> {
        match self.writing_since.load(Ordering::Relaxed) {
            0 => None,
            ms => Some(self.born + Duration::from_millis(ms)),
        }
    }

    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// Queues one command line for the writer thread (never blocks); an error when the
    /// writer is gone (the engine closed its input).
    pub(crate) fn send(&mut self, line: &str) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_ref()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin closed"))?;
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        stdin
            .send(buf)
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "stdin closed"))
    }

    /// Kills the engine's whole process group (unless already reaped) and reaps it. Returns
    /// how it ended. Never blocks for long: SIGKILL cannot be ignored.
    pub(crate) fn kill(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            self.stdin = None;
            // Not reaped yet, so the pid (and group id) cannot have been reused.
            if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
                // SAFETY: kill(2) with a negative pid signals that process group; no memory
                // is involved.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
            let _ = self.child.kill();
            // Before the leader is reaped, while its id still names the group.
            if let Some(mut g) = self.guard.take() {
                g.release();
            }
            self.status = self.child.wait().ok();
        }
        self.status
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Puts the engine in its own process group (so a terminal's Ctrl-C or Ctrl-Z does not reach
/// it, and the whole group can be killed), on Linux asks the kernel to SIGKILL it when the
/// thread that started it dies (kifview killed by a signal, or a panic that aborts), and
/// tells its guardian the group through `tell` (see `guard.rs`) before the engine runs.
fn detach(cmd: &mut Command, tell: RawFd) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    // SAFETY: getpid is async-signal-safe.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the child between fork and exec (after std's
    // `setpgid(0, 0)`) and calls only async-signal-safe functions (sigemptyset,
    // pthread_sigmask, prctl, getppid, getpid, send); it allocates nothing. `tell` stays open in kifview until `spawn` returned.
    unsafe {
        cmd.pre_exec(move || {
            // The engine starts with no signal blocked, as from a shell: the viewer holds
            // SIGCONT back in all its threads (`tui::run`), and a mask is inherited through
            // fork and exec (std's `Command` leaves it as it is).
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            libc::pthread_sigmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
            #[cfg(target_os = "linux")]
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The parent may have died before prctl: then nobody would ever kill us (and
            // the guardian, told nothing, has nothing to kill).
            // (An OS error: `io::Error::other` would allocate.)
            if libc::getppid() != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            guard::tell_group(tell)
        });
    }
}

/// Writes the lines queued for the engine, noting when a write is under way (so that an
/// engine that stops reading is seen); on a write error says so and stops.
fn write_loop(
    mut stdin: ChildStdin,
    lines: Receiver<Vec<u8>>,
    tx: Tx,
    since: Arc<AtomicU64>,
    born: Instant,
) {
    while let Ok(line) = lines.recv() {
        let ms = u64::try_from(born.elapsed().as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        since.store(ms, Ordering::Relaxed);
        let wrote = stdin.write_all(&line).and_then(|()| stdin.flush());
        since.store(0, Ordering::Relaxed);
        if let Err(e) = wrote {
            let _ = tx.send(Incoming::WriteFailed(e.to_string()));
            return;
        }
    }
}

/// Waits for the engine's process to end without reaping it (`WNOWAIT`: `Process::kill`
/// reaps it) and says so.
fn watch_exit(pid: u32, tx: Tx) {
    let pid: libc::id_t = pid;
    loop {
        // SAFETY: waitid fills `info`, a zeroed siginfo_t of our own.
        let r = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT)
        };
        if r == 0 {
            let _ = tx.send(Incoming::Exited);
            return;
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return; // reaped already (ECHILD)
        }
    }
}

/// Reads lines until EOF, parsing each; stops when the receiver is gone.
fn read_loop(reader: impl Read, tx: Tx) {
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    let mut buf = Vec::with_capacity(256);
    loop {
        buf.clear();
        let n = match (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let item = if n > MAX_LINE && buf.last() != Some(&b'\n') {
            if !skip_line(&mut reader) {
                let _ = tx.send(Incoming::Other(format!("(line over {MAX_LINE} bytes)")));
                break;
            }
            Incoming::Other(format!("(line over {MAX_LINE} bytes dropped)"))
        } else {
            // Some Japanese engines print Shift_JIS (`id name` in kanji).
            let text = match std::str::from_utf8(&buf) {
                Ok(s) => Cow::Borrowed(s),
                Err(_) => Cow::Owned(decode(&buf, TextEncoding::Utf8).text),
            };
            match parse_line(&text) {
                Some(msg) => Incoming::Msg(clean_msg(msg), Instant::now()),
                None => Incoming::Other(clean(text.trim_end())),
            }
        };
        if tx.send(item).is_err() {
            return;
        }
    }
    let _ = tx.send(Incoming::Eof);
}

/// Skips to the end of an overlong line; false at EOF.
fn skip_line(reader: &mut impl BufRead) -> bool {
    loop {
        let (done, used) = match reader.fill_buf() {
            Ok([]) | Err(_) => return false,
            Ok(b) => match memchr::memchr(b'\n', b) {
                Some(i) => (true, i + 1),
                None => (false, b.len()),
            },
        };
        reader.consume(used);
        if done {
            return true;
        }
    }
}

/// Removes control characters from the free-text parts of a message (moves are checked with
/// the rules later, so they need nothing here).
fn clean_msg(msg: UsiMessage) -> UsiMessage {
    let has_control = |s: &str| s.chars().any(crate::core::text::is_unsafe);
    match msg {
        UsiMessage::IdName(s) => UsiMessage::IdName(clean(&s)),
        UsiMessage::IdAuthor(s) => UsiMessage::IdAuthor(clean(&s)),
        UsiMessage::Option(mut o) => {
            o.name = clean(&o.name);
            o.kind = clean(&o.kind);
            o.default = o.default.map(|d| clean(&d));
            for v in &mut o.vars {
                if has_control(v) {
                    *v = clean(v);
                }
            }
            UsiMessage::Option(o)
        }
        UsiMessage::Info(mut i) => {
            if let Some(s) = i.string.as_mut().filter(|s| has_control(s)) {
                *s = clean(s);
            }
            UsiMessage::Info(i)
        }
        m => m,
    }
}

pub(crate) fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}{}", signal_name(sig)),
        _ => status.to_string(),
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGABRT => " (SIGABRT: aborted)",
        libc::SIGSEGV => " (SIGSEGV: crashed)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGBUS => " (SIGBUS: crashed)",
        libc::SIGILL => " (SIGILL: CPU lacks an instruction the build needs?)",
        libc::SIGFPE => " (SIGFPE: crashed)",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8]) -> Vec<Incoming> {
        let (tx, rx) = mpsc::sync_channel(CHANNEL);
        let tx = Tx {
            tx,
            waker: Waker::default(),
        };
        read_loop(bytes, tx);
        rx.try_iter().collect()
    }

    #[test]
    fn shift_jis_names_crlf_overlong_lines_and_eof() {
        let mut bytes = b"id name \x8b\x5a\x8d\x49\r\nusiok\r\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        bytes.extend(b"\nreadyok\n\x1b[2Jnoise\x07\n");
        let got = read_all(&bytes);
        assert!(matches!(&got[0], Incoming::Msg(UsiMessage::IdName(n), _) if n == "技巧"));
        assert!(matches!(got[1], Incoming::Msg(UsiMessage::UsiOk, _)));
        assert!(matches!(&got[2], Incoming::Other(l) if l.contains("dropped")));
        assert!(matches!(got[3], Incoming::Msg(UsiMessage::ReadyOk, _)));
        assert!(matches!(&got[4], Incoming::Other(l) if l == "[2Jnoise"));
        assert!(matches!(got[5], Incoming::Eof));
        assert_eq!(got.len(), 6);
    }

    #[test]
    fn an_endless_line_ends_at_eof() {
        let bytes = vec![b'y'; MAX_LINE * 3];
        let got = read_all(&bytes);
        assert!(matches!(&got[0], Incoming::Other(l) if l.contains("over")));
        assert!(matches!(got.last(), Some(Incoming::Eof)));
    }
}

#[cfg(test)]
#[path = "process_tests.rs"]
mod lifecycle_tests;
