//! kifview ended by a signal: the terminal is given back, unsaved edits go to a recovery file,
//! and opening the file again offers them.

use crate::common::asset;
use crate::pty::Session;

#[test]
fn sigterm_keeps_unsaved_edits_and_the_next_open_restores_them() {
    let dir = tempfile::tempdir().unwrap();
    let kif = dir.path().join("study.kif");
    std::fs::copy(asset("study.kif"), &kif).unwrap();
    let before = std::fs::read(&kif).unwrap();
    let mut s = Session::start(&[kif.to_str().unwrap()], 24, 80);
    s.wait_for("study.kif");
    s.send("llc");
    s.wait_for("編集中");
    s.send("signal test\x1b");
    s.wait_for("comment saved");
    let pid = s.pid().expect("a child process") as i32;
    // SAFETY: sending a signal to our own child.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = s.wait_exit();
    assert_eq!(status.exit_code(), 143, "128 + SIGTERM");
    // The terminal was given back: mouse reporting off, the alternate screen left.
    let raw = String::from_utf8_lossy(&s.raw);
    let tail = &raw[raw.rfind("signal test").unwrap_or(0)..];
    assert!(tail.contains("\x1b[?1049l"), "left the alternate screen");
    assert!(tail.contains("\x1b[?1000l"), "mouse reporting off");
    assert!(s.screen().contains("ended by SIGTERM"), "{}", s.screen());
    // The file is untouched; the edits are beside it.
    assert_eq!(std::fs::read(&kif).unwrap(), before);
    let recovery = recovery_files(dir.path(), ".study.kif.kifview-recovery-")
        .pop()
        .expect("a recovery file beside the record");
    assert!(
        std::fs::read_to_string(&recovery)
            .unwrap()
            .contains("signal test")
    );

    let mut s = Session::start(&[kif.to_str().unwrap()], 24, 80);
    s.wait_for("Restore the unsaved edits of study.kif");
    s.wait_for("d: delete them");
    s.send("y");
    s.wait_for("unsaved edits restored");
    s.send("ll");
    s.wait_for("ごく普通の出だし。signal");
    assert!(s.screen().contains("[+]"), "{}", s.screen());
    assert!(!recovery.exists(), "restored: the recovery file is gone");
    s.send("\x13");
    s.wait_for("saved");
    s.send("q");
    s.wait_exit();
    assert!(
        kifview::core::notation::load(&std::fs::read(&kif).unwrap(), Some(&kif)).records[0]
            .record
            .nodes
            .iter()
            .any(|n| n.comment.contains("signal test"))
    );
}

/// The files in `dir` whose names start with `start`.
pub fn recovery_files(dir: &std::path::Path, start: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(start))
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

/// kifview in a terminal on `args`, its data directory (`XDG_DATA_HOME`) in `data`.
fn start_with_data(args: &[&str], data: &std::path::Path) -> Session {
    Session::start_with_env(
        env!("CARGO_BIN_EXE_kifview"),
        args,
        &[("XDG_DATA_HOME", data)],
        24,
        100,
    )
}

/// Types a comment on the second move, so that the record has unsaved edits.
fn edit(s: &mut Session, name: &str, text: &str) {
    s.wait_for(name);
    s.send("llc");
    s.wait_for("編集中");
    s.send(&format!("{text}\x1b"));
    s.wait_for("comment saved");
}

fn signal(s: &Session, sig: i32) {
    let pid = s.pid().expect("a child process") as i32;
    // SAFETY: sending a signal to our own child.
    assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
}

#[test]
fn edits_go_to_the_data_directory_when_the_records_directory_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let sub = dir.path().join("games");
    std::fs::create_dir(&sub).unwrap();
    let kif = sub.join("study.kif");
    std::fs::copy(asset("study.kif"), &kif).unwrap();
    let mut s = start_with_data(&[kif.to_str().unwrap()], &data);
    edit(&mut s, "study.kif", "kept elsewhere");
    // The directory goes (as a read-only mount or a full disk would refuse the write; this
    // refuses it for root too).
    std::fs::remove_dir_all(&sub).unwrap();
    signal(&s, libc::SIGTERM);
    assert_eq!(s.wait_exit().exit_code(), 143);
    let shown = s.screen();
    assert!(shown.contains("not beside the file"), "{shown}");
    let kept = recovery_files(&data.join("kifview/recovery"), "study.kif.");
    assert_eq!(kept.len(), 1, "{shown}");
    assert!(
        std::fs::read_to_string(&kept[0])
            .unwrap()
            .contains("kept elsewhere")
    );
    // The file back where it was: opening it offers the edits from the data directory.
    std::fs::create_dir(&sub).unwrap();
    std::fs::copy(asset("study.kif"), &kif).unwrap();
    let mut s = start_with_data(&[kif.to_str().unwrap()], &data);
    s.wait_for("Restore the unsaved edits of study.kif");
    s.send("y");
    s.wait_for("unsaved edits restored");
    s.send("q");
    s.wait_for("unsaved changes");
    s.send("d");
    s.wait_exit();
}

#[test]
fn two_viewers_ended_together_keep_both_their_edits() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let kif = dir.path().join("study.kif");
    std::fs::copy(asset("study.kif"), &kif).unwrap();
    let mut a = start_with_data(&[kif.to_str().unwrap()], &data);
    let mut b = start_with_data(&[kif.to_str().unwrap()], &data);
    edit(&mut a, "study.kif", "first viewer");
    edit(&mut b, "study.kif", "second viewer");
    signal(&a, libc::SIGHUP);
    signal(&b, libc::SIGHUP);
    assert_eq!(a.wait_exit().exit_code(), 129);
    assert_eq!(b.wait_exit().exit_code(), 129);
    let kept = recovery_files(dir.path(), ".study.kif.kifview-recovery-");
    assert_eq!(kept.len(), 2, "{kept:?}");
    let all: String = kept
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(all.contains("first viewer") && all.contains("second viewer"));
    // Both are offered: the newest first, then (after it is deleted) the other.
    let mut s = start_with_data(&[kif.to_str().unwrap()], &data);
    s.wait_for("2 sessions kept edits");
    s.send("d");
    s.wait_for("Restore the unsaved edits of study.kif");
    s.send("n");
    s.send("q");
    s.wait_exit();
}

#[test]
fn an_empty_recovery_file_is_not_restored() {
    let dir = tempfile::tempdir().unwrap();
    let kif = dir.path().join("study.kif");
    std::fs::copy(asset("study.kif"), &kif).unwrap();
    let before = std::fs::read(&kif).unwrap();
    let empty = dir.path().join(".study.kif.kifview-recovery.kifu");
    std::fs::write(&empty, "").unwrap();
    let mut s = start_with_data(&[kif.to_str().unwrap()], &dir.path().join("data"));
    s.wait_for("holds no record (the file is empty)");
    // No `y` here: only delete or leave.
    s.send("y");
    s.pump(std::time::Duration::from_millis(300));
    assert!(s.screen().contains("holds no record"), "{}", s.screen());
    s.send("d");
    s.wait_for("recovery file deleted");
    assert!(!empty.exists());
    s.send("\x13");
    s.wait_for("saved");
    s.send("q");
    s.wait_exit();
    assert_eq!(
        kifview::core::notation::load(&std::fs::read(&kif).unwrap(), Some(&kif)).records[0]
            .record
            .main_line()
            .len(),
        kifview::core::notation::load(&before, Some(&kif)).records[0]
            .record
            .main_line()
            .len(),
        "the record is the file's, not an empty one"
    );
}

#[test]
fn sigint_from_outside_keeps_the_edits_and_gives_the_terminal_back() {
    let dir = tempfile::tempdir().unwrap();
    let kif = dir.path().join("study.kif");
    std::fs::copy(asset("study.kif"), &kif).unwrap();
    let mut s = start_with_data(&[kif.to_str().unwrap()], &dir.path().join("data"));
    edit(&mut s, "study.kif", "interrupted");
    signal(&s, libc::SIGINT);
    assert_eq!(s.wait_exit().exit_code(), 130, "128 + SIGINT");
    let raw = String::from_utf8_lossy(&s.raw);
    let tail = &raw[raw.rfind("interrupted").unwrap_or(0)..];
    assert!(tail.contains("\x1b[?1049l"), "left the alternate screen");
    assert!(tail.contains("\x1b[?1000l"), "mouse reporting off");
    assert!(s.screen().contains("ended by SIGINT"), "{}", s.screen());
    let kept = recovery_files(dir.path(), ".study.kif.kifview-recovery-");
    assert_eq!(kept.len(), 1);
    assert!(
        std::fs::read_to_string(&kept[0])
            .unwrap()
            .contains("interrupted")
    );
}

/// A study (▲7六歩 △8四歩 ▲2六歩) in `dir`, and a collection of two games that reach ▲7六歩,
/// indexed in `dir/idx`: `o` at ply 1 lists them, Enter opens `g0.csa` (the newest) and puts
/// the study on the back stack.
fn study_and_collection(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let study = dir.join("study.kif");
    std::fs::write(
        &study,
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ８四歩(83)\n   3 ２六歩(27)\n",
    )
    .unwrap();
    let coll = dir.join("coll");
    std::fs::create_dir(&coll).unwrap();
    for (i, (date, moves)) in [
        ("2020/01/05", "+7776FU\n-3334FU\n"),
        ("2020/01/04", "+7776FU\n"),
    ]
    .iter()
    .enumerate()
    {
        let text = format!(
            "V2.2\nN+先手{i}\nN-後手{i}\n$START_TIME:{date} 10:00:00\nPI\n+\n{moves}%TORYO\n"
        );
        std::fs::write(coll.join(format!("g{i}.csa")), text).unwrap();
    }
    let idx = dir.join("idx");
    kifview::collection::update(&idx, &[coll], Default::default(), &|_, _| {}).unwrap();
    (study, idx)
}

/// kifview on the study with the collection, its config (`extra` lines) and data directory in
/// `dir`; the study gets a comment, then the first game of `o` at ply 1 is opened (the study
/// goes on the back stack, Ctrl-o) and gets a comment too.
fn edit_study_then_a_game(dir: &std::path::Path, extra: &str) -> Session {
    let (study, idx) = study_and_collection(dir);
    let cfg = dir.join("config.toml");
    std::fs::write(&cfg, format!("ambiguous_width = \"single\"\n{extra}")).unwrap();
    let data = dir.join("data");
    let mut s = Session::start_with_env(
        env!("CARGO_BIN_EXE_kifview"),
        &[study.to_str().unwrap(), "--index", idx.to_str().unwrap()],
        &[("XDG_DATA_HOME", &data), ("KIFVIEW_CONFIG", &cfg)],
        30,
        120,
    );
    s.wait_for("study.kif");
    s.send("lc");
    s.wait_for("編集中");
    s.send("edit of the study\x1b");
    s.wait_for("comment saved");
    s.send("o");
    s.wait_for("この局面の対局");
    s.send("\r");
    s.wait_for("opened g0.csa");
    s.send("c");
    s.wait_for("編集中");
    s.send("edit of the game\x1b");
    s.wait_for("comment saved");
    s
}

/// The text of the recovery file of `name` in `dir` (exactly one), if there is one.
fn kept_text(dir: &std::path::Path, name: &str) -> Option<String> {
    let files = recovery_files(dir, &format!(".{name}.kifview-recovery-"));
    assert!(files.len() <= 1, "{files:?}");
    files.first().and_then(|p| std::fs::read_to_string(p).ok())
}

#[test]
fn sigterm_keeps_the_edits_of_a_record_left_with_ctrl_o_as_well_as_the_one_shown() {
    let dir = tempfile::tempdir().unwrap();
    // No periodic writes: only the signal keeps the edits.
    let mut s = edit_study_then_a_game(dir.path(), "recovery_interval = 0\n");
    assert_eq!(kept_text(dir.path(), "study.kif"), None);
    signal(&s, libc::SIGTERM);
    assert_eq!(s.wait_exit().exit_code(), 143);
    let said = s.screen();
    assert!(said.contains("unsaved edits of study.kif are in"), "{said}");
    assert!(said.contains("unsaved edits of g0.csa are in"), "{said}");
    let study = kept_text(dir.path(), "study.kif").expect("the study's edits kept");
    assert!(study.contains("edit of the study"), "{study}");
    let game = kept_text(&dir.path().join("coll"), "g0.csa").expect("the game's edits kept");
    assert!(game.contains("edit of the game"), "{game}");
}

#[test]
fn sigkill_loses_no_edit_older_than_the_recovery_interval_and_a_clean_quit_removes_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    let has = |d: &std::path::Path, name: &str, text: &str| {
        kept_text(d, name).is_some_and(|t| t.contains(text))
    };
    let mut s = edit_study_then_a_game(dir.path(), "recovery_interval = 1\n");
    // Written while kifview runs: the record on the back stack and the one shown.
    s.wait_until("kept the study's edits", || {
        has(dir.path(), "study.kif", "edit of the study")
    });
    s.wait_until("kept the game's edits", || {
        has(&coll, "g0.csa", "edit of the game")
    });
    signal(&s, libc::SIGKILL);
    s.wait_exit();
    // Opening the study again offers its edits.
    let data = dir.path().join("data");
    let study = dir.path().join("study.kif");
    let mut s = start_with_data(&[study.to_str().unwrap()], &data);
    s.wait_for("Restore the unsaved edits of study.kif");
    s.send("y");
    s.wait_for("unsaved edits restored");
    s.send("l"); // the comment is at move 1 (two keys may be drawn in one frame)
    s.wait_for("edit of the study");
    s.send("q");
    s.wait_for("unsaved changes");
    s.send("d");
    s.wait_exit();
    assert_eq!(
        kept_text(dir.path(), "study.kif"),
        None,
        "restored, then quit"
    );
    // The game's edits, opened and saved: the file that kept them goes.
    let game = coll.join("g0.csa");
    let cfg = dir.path().join("config.toml");
    let mut s = Session::start_with_env(
        env!("CARGO_BIN_EXE_kifview"),
        &[game.to_str().unwrap()],
        &[("XDG_DATA_HOME", &data), ("KIFVIEW_CONFIG", &cfg)],
        24,
        100,
    );
    s.wait_for("Restore the unsaved edits of g0.csa");
    s.send("y");
    s.wait_for("unsaved edits restored");
    // Restored, the edits are unsaved again: kept again by this session.
    s.wait_until("kept the restored edits", || {
        has(&coll, "g0.csa", "edit of the game")
    });
    s.send("\x13");
    s.wait_for("saved");
    s.wait_until("removed the kept edits once saved", || {
        kept_text(&coll, "g0.csa").is_none()
    });
    s.send("q");
    s.wait_exit();
    assert!(
        std::fs::read_to_string(&game)
            .unwrap()
            .contains("edit of the game")
    );
}
