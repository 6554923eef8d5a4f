//! Issue 12, modes and lifecycle: where a file opens (`--watch` and USI lines at their newest
//! move, `+N` as asked), multi-record CSA files (`record 2/5`, `}`/`{`, `:record N`, saving
//! every record back), and Ctrl-z (the terminal given back and redrawn).

use kifview::app::{App, Config, LaunchOptions};
use std::path::{Path, PathBuf};

fn open_with(path: &Path, f: impl FnOnce(&mut LaunchOptions)) -> App {
    let mut opts = LaunchOptions {
        file: Some(path.to_path_buf()),
        ..LaunchOptions::default()
    };
    f(&mut opts);
    App::open(&opts, Config::defaults()).unwrap()
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const KIF3: &str =
    "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n";

#[test]
fn watch_and_usi_lines_open_at_the_newest_move_and_plus_n_still_wins() {
    let dir = tempfile::tempdir().unwrap();
    let kif = write(&dir, "live.kifu", KIF3);
    assert_eq!(
        open_with(&kif, |_| {}).cur_index(),
        0,
        "a record opens at the start"
    );
    assert_eq!(open_with(&kif, |o| o.watch = true).cur_index(), 3);
    let at2 = open_with(&kif, |o| {
        o.watch = true;
        o.ply = Some(2);
    });
    assert_eq!(at2.cur_index(), 2, "+2 with --watch opens at ply 2");
    let usi = write(
        &dir,
        "line.usi",
        "position startpos moves 7g7f 3c3d 2g2f 8c8d\n",
    );
    assert_eq!(open_with(&usi, |_| {}).cur_index(), 4);
    assert_eq!(open_with(&usi, |o| o.ply = Some(1)).cur_index(), 1);
}

/// kifview run as a job of an interactive shell in a pseudo-terminal, as a user runs it.
#[test]
fn ctrl_z_gives_the_terminal_back_and_fg_redraws_everything() {
    use crate::pty::Session;
    let bash = ["/bin/bash", "/usr/bin/bash"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    let Some(bash) = bash else {
        println!("no bash: skipped");
        return;
    };
    let mut s = Session::start_program(bash, &["--norc", "--noprofile", "-i"], 24, 80);
    s.send("PS1='shell> '\r");
    s.wait_for("shell> ");
    let exe = env!("CARGO_BIN_EXE_kifview");
    s.send(&format!("'{exe}' assets/study.kif\r"));
    s.wait_for("study.kif KIF");
    s.send("l");
    s.wait_for("手数＝1");
    let before = s.raw.len();
    s.send("\x1a");
    let screen = s.wait_for("Stopped");
    // The terminal was given back: the alternate screen left, mouse reporting and bracketed
    // paste off; the shell's screen shows again.
    let raw = String::from_utf8_lossy(&s.raw[before..]).into_owned();
    assert!(
        raw.contains("\x1b[?1049l"),
        "left the alternate screen: {raw:?}"
    );
    assert!(raw.contains("\x1b[?1000l"), "mouse reporting off: {raw:?}");
    assert!(raw.contains("\x1b[?2004l"), "bracketed paste off: {raw:?}");
    assert!(!s.parser.screen().alternate_screen());
    assert!(!screen.contains("手数＝1"), "the shell's screen:\n{screen}");
    // Typed text reaches the shell, echoed as in cooked mode.
    s.send("echo back-in-the-$((6*7))\r");
    s.wait_for("back-in-the-42");
    let before = s.raw.len();
    s.send("fg\r");
    let screen = s.wait_for("resumed (Ctrl-z suspends again)");
    assert!(s.parser.screen().alternate_screen());
    assert!(
        screen.contains("手数＝1") && screen.contains("棋譜 1/44"),
        "{screen}"
    );
    let raw = String::from_utf8_lossy(&s.raw[before..]).into_owned();
    assert!(raw.contains("\x1b[?1049h"), "the alternate screen again");
    assert!(
        raw.contains("\x1b[2J"),
        "cleared and redrawn whole: {raw:?}"
    );
    // Raw mode again: one key moves on, without Enter.
    s.send("l");
    s.wait_for("手数＝2");
    s.send("q");
    s.wait_for("shell> ");
    s.send("exit\r");
    s.wait_exit();
}

/// Without job control (a session no shell watches), Ctrl-z cannot stop kifview: it says so
/// and goes on, with the screen whole.
#[test]
fn ctrl_z_without_job_control_says_so() {
    let mut s = crate::pty::Session::start(&["assets/study.kif"], 24, 80);
    s.wait_for("study.kif KIF");
    s.send("\x1a");
    let screen = s.wait_for("not suspended");
    assert!(screen.contains("棋譜 0/44"), "{screen}");
    s.send("q");
    assert!(s.wait_exit().success());
}
