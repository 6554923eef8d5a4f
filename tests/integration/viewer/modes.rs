//! Issue 12, modes and lifecycle: where a file opens (`--watch` and USI lines at their newest
//! move, `+N` as asked), multi-record CSA files (`record 2/5`, `}`/`{`, `:record N`, saving
//! every record back), and Ctrl-z (the terminal given back and redrawn).

use crate::common::{five_records, pieces, press, screen, screen_rows, status_rows};
use kifview::app::{App, Config, LaunchOptions, Mode};
use kifview::tui::{Viewer, theme::Theme};
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
    let raw = fg_says_resumed(&mut s);
    let screen = s.screen();
    assert!(s.parser.screen().alternate_screen());
    assert!(
        screen.contains("手数＝1") && screen.contains("棋譜 1/44"),
        "{screen}"
    );
    assert!(raw.contains("\x1b[?1049h"), "the alternate screen again");
    assert!(
        raw.contains("\x1b[2J"),
        "cleared and redrawn whole: {raw:?}"
    );
    // Raw mode again: one key moves on, without Enter.
    s.send("l");
    s.wait_for("手数＝2");
    // Every `fg` says so: kifview knows each time that it was stopped (the SIGCONT that
    // continues it can be handled on any of its threads, and used to come too late for the
    // main thread, which then said "not suspended" about a suspension that happened).
    for ply in 3..=20 {
        s.wait_gone("resumed");
        let before = s.raw.len();
        s.send("\x1a");
        s.wait_written(before, "Stopped");
        fg_says_resumed(&mut s);
        s.send("l");
        s.wait_for(&format!("手数＝{ply}"));
    }
    s.send("q");
    s.wait_for("shell> ");
    s.send("exit\r");
    s.wait_exit();
}

/// `fg` to the shell of a pseudo-terminal where kifview is stopped: it comes back saying it
/// was resumed, and said nothing else on the way (it was stopped: not "not suspended").
/// Returns what it wrote.
fn fg_says_resumed(s: &mut crate::pty::Session) -> String {
    let before = s.raw.len();
    s.send("fg\r");
    s.wait_for("resumed (Ctrl-z suspends again)");
    let raw = String::from_utf8_lossy(&s.raw[before..]).into_owned();
    assert!(!raw.contains("not suspended"), "{raw:?}");
    raw
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
    // The position editor takes every key as it is, Ctrl-z too.
    s.send("S");
    s.wait_for("-- POSITION EDITOR --");
    s.wait_gone("not suspended");
    s.send("\x1a");
    s.wait_for("not suspended");
    s.send("\x1b");
    s.wait_gone("-- POSITION EDITOR --");
    s.send("q");
    assert!(s.wait_exit().success());
}

// ----- files of several records (CSA `/`) -----

fn viewer_for(path: &Path, record: usize) -> Viewer {
    let app = open_with(path, |o| o.record = record);
    Viewer::new(app, Theme::plain())
}

fn status_of(v: &mut Viewer) -> String {
    let rows = screen_rows(&screen(v, 80, 24));
    status_rows(v, &rows, 80)
}

fn black(v: &Viewer) -> String {
    v.app
        .record()
        .header
        .black_name()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn keys_and_record_n_switch_records_and_the_status_line_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = five_records(&dir, false);
    let mut v = viewer_for(&path, 0);
    assert!(
        status_of(&mut v).contains("five.csa record 1/5 CSA"),
        "{}",
        status_of(&mut v)
    );
    assert_eq!(black(&v), "鈴木　一郎");
    press(&mut v, "}");
    assert_eq!(black(&v), "伊藤～名人");
    let s = status_of(&mut v);
    assert!(
        s.contains("record 2/5") && s.contains("伊藤～名人 vs"),
        "{s}"
    );
    press(&mut v, "G");
    assert!(v.app.cur_index() > 0);
    press(&mut v, "{");
    assert_eq!(black(&v), "鈴木　一郎");
    assert_eq!(v.app.cur_index(), 0, "another record opens at its start");
    press(&mut v, "{");
    assert!(status_of(&mut v).contains("this is the first record (1/5)"));
    press(&mut v, ":record 5⏎");
    assert_eq!(black(&v), "山田太郎");
    assert!(status_of(&mut v).contains("record 5/5"));
    press(&mut v, "}");
    assert!(status_of(&mut v).contains("this is the last record (5/5)"));
    press(&mut v, ":record 9⏎");
    assert!(status_of(&mut v).contains(":record N takes a number from 1 to 5"));
    press(&mut v, ":record⏎");
    assert!(status_of(&mut v).contains("record 5/5 of five.csa"));
    // --record N opens there, and the keys go on from it.
    let mut v = viewer_for(&path, 3);
    assert_eq!(black(&v), "渡辺＠道場");
    press(&mut v, "{");
    assert_eq!(black(&v), "伊藤～名人");
    // A file of one record says so.
    let kif = write(&dir, "one.kifu", KIF3);
    let mut v = viewer_for(&kif, 0);
    press(&mut v, "}");
    assert!(status_of(&mut v).contains("one.kifu holds one record"));
}

#[test]
fn switching_away_from_edits_asks_and_saving_writes_every_record_back() {
    for crlf in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let (path, text) = five_records(&dir, crlf);
        let before = pieces(&text);
        assert_eq!(before.len(), 5);
        let mut v = viewer_for(&path, 2);
        press(&mut v, "lcstudy note⎋");
        assert!(v.app.is_modified());
        // Going to another record asks; c stays with the edits.
        press(&mut v, "}");
        assert_eq!(v.app.mode(), Mode::Confirm);
        let s = status_of(&mut v);
        assert!(
            s.contains("record 2/5 has unsaved changes") && s.contains("c: cancel"),
            "{s}"
        );
        press(&mut v, "c");
        assert!(v.app.is_modified() && v.app.source().record_index == 1);
        // s saves the whole file, then goes.
        press(&mut v, "}s");
        let s = status_of(&mut v);
        assert_eq!(v.app.source().record_index, 2, "{s}");
        assert!(!v.app.is_modified());
        let after = std::fs::read_to_string(&path).unwrap();
        let now = pieces(&after);
        assert_eq!(now.len(), 5, "every record is still in the file:\n{after}");
        for i in [0, 2, 3, 4] {
            assert_eq!(
                now[i],
                before[i],
                "record {} is byte for byte as it was",
                i + 1
            );
        }
        assert!(now[1].contains("'*study note"), "{}", now[1]);
        assert_eq!(
            after.contains('\n') && !after.replace("\r\n", "").contains('\n'),
            crlf,
            "the file's line endings are kept"
        );
        // Back at record 2: the saved edit is there; the file read again agrees.
        press(&mut v, "{l");
        assert_eq!(v.app.record().node(v.app.cur()).comment, "study note");
        let loaded = kifview::core::notation::load(after.as_bytes(), Some(&path));
        assert_eq!(loaded.records.len(), 5);
        // d throws an edit away and goes; the file stays as saved.
        press(&mut v, "cmore⎋}d");
        assert_eq!(v.app.source().record_index, 2);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), after);
        press(&mut v, "{l");
        assert_eq!(v.app.record().node(v.app.cur()).comment, "study note");
    }
}

#[test]
fn warnings_of_another_record_name_the_file_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = "V2.2\nPI\n+\n+7776FU\n/\nV2.2\nPI\n+\n+7776FU\n-3334FU\n+9999XX\n";
    let path = write(&dir, "bad.csa", text);
    let mut v = viewer_for(&path, 0);
    assert!(v.app.source().warnings.is_empty());
    press(&mut v, "}");
    let lines: Vec<usize> = v.app.source().warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, [11], "{:?}", v.app.source().warnings);
    assert!(status_of(&mut v).contains("1 warning"));
    // The same as --record 2 reads.
    let direct = viewer_for(&path, 2);
    assert_eq!(direct.app.source().warnings, v.app.source().warnings);
}

#[test]
fn edits_kept_by_a_signal_go_back_to_their_own_record() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = five_records(&dir, false);
    let before = pieces(&text);
    let mut v = viewer_for(&path, 3);
    press(&mut v, "lckept⎋");
    // What the run loop does on SIGTERM.
    let kept = v.app.keep_unsaved_edits().pop().unwrap().1.unwrap().path;
    let name = kept.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with(".five.csa.record-3.kifview-recovery-") && name.ends_with(".kifu"),
        "{}",
        kept.display()
    );
    // Opened again at record 1: nothing to restore there, and it says where the edits are.
    let mut v = viewer_for(&path, 0);
    assert_eq!(v.app.mode(), Mode::Normal);
    assert!(
        status_of(&mut v).contains("unsaved edits of record 3 were kept"),
        "{}",
        status_of(&mut v)
    );
    press(&mut v, ":record 3⏎");
    assert!(
        status_of(&mut v).contains("Restore the unsaved edits"),
        "{}",
        status_of(&mut v)
    );
    press(&mut v, "y");
    assert!(v.app.is_modified() && v.app.source().record_index == 2);
    press(&mut v, "^s");
    let now = pieces(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(now.len(), 5);
    assert!(now[2].contains("'*kept"), "{}", now[2]);
    for i in [0, 1, 3, 4] {
        assert_eq!(now[i], before[i]);
    }
    assert!(!kept.exists());
}

/// `:help write` shows the help with `:write`'s line first (at 80 columns, where the lines
/// above it wrap), and j scrolls on from there.
#[test]
fn help_with_a_command_opens_at_its_line() {
    let mut v = crate::common::viewer_with(&LaunchOptions::default());
    press(&mut v, ":help write⏎");
    assert_eq!(v.app.mode(), Mode::Help);
    let rows = screen_rows(&screen(&mut v, 80, 24));
    let first = rows
        .iter()
        .find(|r| r.contains(":write, :w [PATH]"))
        .unwrap_or_else(|| panic!("{rows:#?}"));
    let at = rows.iter().position(|r| r == first).unwrap();
    assert!(at <= 2, "the line is at the top, row {at}: {rows:#?}");
    press(&mut v, "j");
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert!(
        !rows.iter().any(|r| r.contains(":write, :w [PATH]")),
        "j scrolled past it: {rows:#?}"
    );
}
