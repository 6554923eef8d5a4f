//! End to end in a pseudo-terminal: `--watch` shows moves appended to the file, and the copy
//! menu sends the text to the terminal's clipboard with OSC 52.

use std::io::Write;

use crate::pty;
use pty::Session;

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
    // Issue 12: it opens at the newest move.
    s.wait_for("棋譜 2/2");
    s.wait_for("[watch]");
    s.wait_for("手数＝2  △３四歩  まで");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all("   3 ２六歩(27)\n".as_bytes()).unwrap();
    file.flush().unwrap();
    s.wait_for("手数＝3  ▲２六歩  まで");
    // (The frame may arrive in more than one read: wait for its last row too.)
    let screen = s.wait_for("reloaded: 1 new move");
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
