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
