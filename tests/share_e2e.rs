//! End to end in a pseudo-terminal: `--watch` shows moves appended to the file, and the copy
//! menu sends the text to the terminal's clipboard with OSC 52.

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

// The pty session of tests/tui_e2e.rs.
struct Session {
    parser: vt100::Parser,
    rx: mpsc::Receiver<Vec<u8>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    raw: Vec<u8>,
    _dir: tempfile::TempDir,
}

impl Session {
    fn start(args: &[&str], rows: u16, cols: u16) -> Session {
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
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_kifview"));
        cmd.args(args);
        cmd.env("KIFVIEW_CONFIG", &cfg);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
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

    fn pump(&mut self, wait: Duration) {
        if let Ok(b) = self.rx.recv_timeout(wait) {
            self.parser.process(&b);
            self.raw.extend_from_slice(&b);
        }
        while let Ok(b) = self.rx.try_recv() {
            self.parser.process(&b);
            self.raw.extend_from_slice(&b);
        }
    }

    fn screen(&self) -> String {
        self.parser.screen().contents()
    }

    /// Waits (up to a generous limit, so a broken build fails instead of hanging) until the
    /// screen shows `text`.
    fn wait_for(&mut self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
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

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(20);
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

/// Standard base64 (what OSC 52 carries).
fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in data.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                out.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn base64_matches_the_rfc_examples() {
    assert_eq!(base64(b"foob"), "Zm9vYg==");
    assert_eq!(base64(b"fooba"), "Zm9vYmE=");
    assert_eq!(base64(b"foobar"), "Zm9vYmFy");
}

const HEAD: &str =
    "先手：甲\n後手：乙\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";

#[test]
fn watch_shows_moves_appended_to_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.kifu");
    std::fs::write(&path, HEAD).unwrap();
    let f = path.to_str().unwrap();
    let mut s = Session::start(&["--watch", f], 24, 80);
    s.wait_for("棋譜 0/2");
    s.wait_for("[watch]");
    s.send("G");
    s.wait_for("手数＝2  △３四歩  まで");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all("   3 ２六歩(27)\n".as_bytes()).unwrap();
    file.flush().unwrap();
    let screen = s.wait_for("手数＝3  ▲２六歩  まで");
    assert!(screen.contains("reloaded: 1 new move"), "{screen}");
    assert!(screen.contains("棋譜 3/3"), "{screen}");
    // F stops following: the status line says so.
    s.send("F");
    let screen = s.wait_for("stopped following live.kifu");
    assert!(!screen.contains("[watch]"), "{screen}");
    s.send("q");
    assert!(s.wait_exit().success());
}

#[test]
fn copy_menu_sends_osc52() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.kifu");
    std::fs::write(&path, HEAD).unwrap();
    let f = path.to_str().unwrap();
    let mut s = Session::start(&[f], 24, 80);
    s.wait_for("棋譜 0/2");
    s.send("l");
    s.wait_for("手数＝1");
    s.send("y");
    s.wait_for("Copy to the clipboard");
    s.send("s");
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    s.wait_for(&format!("copied SFEN ({} bytes)", sfen.len()));
    let raw = String::from_utf8_lossy(&s.raw).into_owned();
    // OSC 52, ended by ST (ESC backslash).
    let osc = format!("\x1b]52;c;{}\x1b\\", base64(sfen.as_bytes()));
    assert!(
        raw.contains(&osc),
        "no {osc:?} in the output: {:?}",
        &raw[raw.find("\x1b]52").unwrap_or(0)..][..80.min(raw.len())]
    );
    s.send("q");
    assert!(s.wait_exit().success());
}
