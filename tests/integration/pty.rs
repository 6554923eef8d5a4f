//! The real `kifview` binary in a pseudo-terminal, driven by keys and read back with vt100:
//! shared by the end-to-end tests (`mod pty;`).
#![allow(dead_code)] // each test binary uses its own subset

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub struct Session {
    pub parser: vt100::Parser,
    rx: mpsc::Receiver<Vec<u8>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    /// Everything the program wrote, escape sequences included.
    pub raw: Vec<u8>,
    _dir: tempfile::TempDir,
}

/// How long a wait gives the program: a debug build on a loaded two-core machine (the whole
/// suite in parallel) has taken over 20 s to start; only a failing test waits this long.
const PATIENCE: Duration = Duration::from_secs(60);

impl Session {
    pub fn start(args: &[&str], rows: u16, cols: u16) -> Session {
        Session::start_program(env!("CARGO_BIN_EXE_kifview"), args, rows, cols)
    }

    /// Another program (a shell, to run kifview as a job) with kifview's test config in its
    /// environment.
    pub fn start_program(program: &str, args: &[&str], rows: u16, cols: u16) -> Session {
        Session::start_with_env(program, args, &[], rows, cols)
    }

    /// [`Session::start_program`] with more variables in the environment.
    pub fn start_with_env(
        program: &str,
        args: &[&str],
        env: &[(&str, &std::path::Path)],
        rows: u16,
        cols: u16,
    ) -> Session {
        let dir = tempfile::tempdir().unwrap();
        // Fixed ambiguous width: the terminal here does not answer the cursor-position probe.
        let cfg = dir.path().join("config.toml");
        std::fs::write(&cfg, "ambiguous_width = \"single\"\n").unwrap();
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        cmd.env("KIFVIEW_CONFIG", &cfg);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.cwd(env!("CARGO_MANIFEST_DIR"));
        let child = pair.slave.spawn_command(cmd).unwrap();
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _master = pair.master;
            let mut buf = [0u8; 8192];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Session {
            parser: vt100::Parser::new(rows, cols, 0),
            rx,
            writer,
            child,
            raw: Vec::new(),
            _dir: dir,
        }
    }

    pub fn pump(&mut self, wait: Duration) {
        if let Ok(b) = self.rx.recv_timeout(wait) {
            self.parser.process(&b);
            self.raw.extend_from_slice(&b);
        }
        while let Ok(b) = self.rx.try_recv() {
            self.parser.process(&b);
            self.raw.extend_from_slice(&b);
        }
    }

    pub fn screen(&self) -> String {
        self.parser.screen().contents()
    }

    /// Waits (up to a generous limit, so a broken build fails instead of hanging) until the
    /// screen shows `text`.
    pub fn wait_for(&mut self, text: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            self.pump(Duration::from_millis(50));
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "never saw {text:?}; screen:\n{s}"
            );
        }
    }

    /// Waits until the program has written `text` since `from` (a length of [`Session::raw`]):
    /// a line that is new, where an older one may still be on the screen.
    pub fn wait_written(&mut self, from: usize, text: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            self.pump(Duration::from_millis(50));
            if String::from_utf8_lossy(&self.raw[from..]).contains(text) {
                return;
            }
            let s = self.screen();
            assert!(
                Instant::now() < deadline,
                "never wrote {text:?}; screen:\n{s}"
            );
        }
    }

    /// Waits until `done` (something outside the screen: a file written or removed) holds,
    /// taking the program's output meanwhile.
    pub fn wait_until(&mut self, what: &str, mut done: impl FnMut() -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done() {
            self.pump(Duration::from_millis(50));
            let s = self.screen();
            assert!(Instant::now() < deadline, "never {what}; screen:\n{s}");
        }
    }

    /// Waits until the screen no longer shows `text`.
    pub fn wait_gone(&mut self, text: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            self.pump(Duration::from_millis(50));
            let s = self.screen();
            if !s.contains(text) {
                return;
            }
            assert!(Instant::now() < deadline, "{text:?} stayed; screen:\n{s}");
        }
    }

    pub fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    /// The program's process id.
    pub fn pid(&self) -> Option<u32> {
        self.child.process_id()
    }

    pub fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            self.pump(Duration::from_millis(50));
            if let Some(st) = self.child.try_wait().unwrap() {
                self.pump(Duration::from_millis(100));
                return st;
            }
            assert!(Instant::now() < deadline, "kifview did not exit");
        }
    }
}
