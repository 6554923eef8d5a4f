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
    let recovery = dir.path().join(".study.kif.kifview-recovery.kifu");
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
