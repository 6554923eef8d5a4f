//! A save asks all its questions before it writes, and renders the record once (issue 20):
//! what the format cannot hold, a read-only file, the file changed on disk are asked one
//! after the other about the bytes made once, and only after the last yes are those bytes
//! written. Edits made while a question is open are not counted as saved.

use crate::common::{press, screen, screen_rows, viewer_on};
use kifview::app::Mode;
use kifview::core::notation;
use kifview::core::record::{Edit, NodeId};
use kifview::tui::Viewer;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn shown(v: &mut Viewer) -> String {
    screen_rows(&screen(v, 120, 40)).join("\n")
}

/// The study (variations and bookmarks, which CSA cannot hold) in `dir`.
fn study(dir: &Path) -> PathBuf {
    let file = dir.join("study.kif");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/study.kif");
    std::fs::copy(&src, &file).unwrap();
    file
}

fn read_only(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o444)).unwrap();
}

#[test]
fn yes_to_what_the_format_cannot_hold_writes_the_bytes_made_for_the_question() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = viewer_on(&study(dir.path()), None);
    let csa = dir.path().join("x.csa");
    press(&mut v, &format!(":w {}⏎", csa.display()));
    assert!(shown(&mut v).contains("CSA cannot hold 3 variations"));
    assert_eq!(v.app.save_renders(), 1);
    assert!(!csa.exists());
    press(&mut v, "y");
    assert!(csa.exists());
    assert_eq!(
        v.app.save_renders(),
        1,
        "the yes wrote what was rendered for the question"
    );
    let r = &notation::load(&std::fs::read(&csa).unwrap(), Some(&csa)).records[0].record;
    assert_eq!(r.main_line().len(), v.app.record().main_line().len());
}

/// Another file that exists, a format that cannot hold everything and a read-only file: the
/// three questions come one after the other and the file is as it was until the last yes.
#[test]
fn every_question_of_a_save_is_asked_before_the_file_changes() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = viewer_on(&study(dir.path()), None);
    let csa = dir.path().join("ro.csa");
    read_only(&csa, "old\n");
    press(&mut v, &format!(":w {}⏎", csa.display()));
    assert!(shown(&mut v).contains("ro.csa already exists. Overwrite it?"));
    press(&mut v, "y");
    assert!(shown(&mut v).contains("CSA cannot hold"));
    assert_eq!(std::fs::read_to_string(&csa).unwrap(), "old\n");
    press(&mut v, "y");
    let s = shown(&mut v);
    assert!(s.contains("ro.csa is read-only. Replace it anyway?"), "{s}");
    assert_eq!(std::fs::read_to_string(&csa).unwrap(), "old\n");
    // No to the last one: nothing was written.
    press(&mut v, "n");
    assert_ne!(v.app.mode(), Mode::Confirm);
    assert_eq!(std::fs::read_to_string(&csa).unwrap(), "old\n");
    assert_eq!(v.app.save_renders(), 1);
    // Yes to all three: written once, after the last, from the bytes made before the first.
    press(&mut v, &format!(":w {}⏎yy", csa.display()));
    assert_eq!(std::fs::read_to_string(&csa).unwrap(), "old\n");
    press(&mut v, "y");
    assert!(std::fs::read_to_string(&csa).unwrap().contains("+7776FU"));
    let mode = std::fs::metadata(&csa).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o444, "the file stays read-only");
    assert_eq!(v.app.save_renders(), 2, "one render per save");
}

/// The bytes are made for the record as it was when the save began; an edit made while a
/// question is open is not in the file and leaves the record modified.
#[test]
fn an_edit_made_while_a_question_is_open_stays_unsaved() {
    let dir = tempfile::tempdir().unwrap();
    let kifu = dir.path().join("ro.kifu");
    read_only(&kifu, "手合割：平手\n   1 ７六歩(77)\n");
    let mut v = viewer_on(&kifu, None);
    press(&mut v, "lc一⎋^s");
    assert!(shown(&mut v).contains("ro.kifu is read-only"));
    kifview::app::testing::apply(
        &mut v.app,
        Edit::SetComment {
            node: NodeId::ROOT,
            text: "二".into(),
        },
    )
    .unwrap();
    press(&mut v, "y");
    let written = std::fs::read_to_string(&kifu).unwrap();
    assert!(
        written.contains("*一") && !written.contains("*二"),
        "{written}"
    );
    assert!(v.app.is_modified(), "the later edit is not on disk");
    // Undoing it returns to the revision written.
    press(&mut v, "u");
    assert!(!v.app.is_modified());
}

/// "Save as UTF-8 instead" re-encodes the KIF text made for the question (no second
/// render), and the questions after it still come before the file changes.
#[test]
fn save_as_utf8_instead_reencodes_the_text_and_asks_the_rest_first() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("mark.kifu");
    std::fs::write(&src, "手合割：平手\n   1 ７六歩(77)\n*☗の好手\n").unwrap();
    let mut v = viewer_on(&src, None);
    let kif = dir.path().join("ro.kif");
    read_only(&kif, "old\n");
    press(&mut v, &format!(":w {}⏎y", kif.display()));
    assert!(shown(&mut v).contains("Shift_JIS cannot hold 1 character"));
    press(&mut v, "u");
    assert!(shown(&mut v).contains("ro.kif is read-only"));
    assert_eq!(std::fs::read_to_string(&kif).unwrap(), "old\n");
    press(&mut v, "y");
    let t = String::from_utf8(std::fs::read(&kif).unwrap()).expect("UTF-8");
    assert_eq!(
        t.lines().next(),
        Some("#KIF version=2.0 encoding=UTF-8"),
        "{t}"
    );
    let r = &notation::load(t.as_bytes(), Some(&kif)).records[0].record;
    assert_eq!(r.node(r.main_line()[1]).comment, "☗の好手");
    assert_eq!(v.app.save_renders(), 1);
}

/// Another program writes the file while a question is open: the save asks again before it
/// replaces what that program wrote, and `n` leaves it.
#[test]
fn a_file_changed_while_the_questions_are_open_is_asked_about_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = viewer_on(&study(dir.path()), None);
    let csa = dir.path().join("x.csa");
    press(&mut v, &format!(":w {}⏎", csa.display()));
    assert!(shown(&mut v).contains("CSA cannot hold"));
    std::fs::write(&csa, "another program's\n").unwrap();
    press(&mut v, "y");
    let s = shown(&mut v);
    assert!(
        s.contains("x.csa changed on disk while the save's questions were open. Overwrite it?"),
        "{s}"
    );
    press(&mut v, "n");
    assert_eq!(
        std::fs::read_to_string(&csa).unwrap(),
        "another program's\n"
    );
    // Asked again and answered yes: written, still from the one render.
    press(&mut v, &format!(":w {}⏎", csa.display()));
    assert!(shown(&mut v).contains("x.csa already exists. Overwrite it?"));
    press(&mut v, "yy");
    assert!(std::fs::read_to_string(&csa).unwrap().contains("+7776FU"));
    std::fs::write(&csa, "again\n").unwrap();
    press(&mut v, &format!(":w {}⏎y", csa.display()));
    std::fs::write(&csa, "changed meanwhile\n").unwrap();
    press(&mut v, "y");
    assert!(shown(&mut v).contains("changed on disk while"));
    press(&mut v, "y");
    assert!(std::fs::read_to_string(&csa).unwrap().contains("+7776FU"));
    assert_eq!(v.app.save_renders(), 3, "one render per save");
}

/// A file made read-only while a save's question is open: the read-only question, then
/// "changed on disk" (its change time moved), not a write that fails.
#[test]
fn a_file_made_read_only_while_a_question_is_open_is_asked_about() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mut v = viewer_on(&study(dir.path()), None);
    let csa = dir.path().join("x.csa");
    std::fs::write(&csa, "before\n").unwrap();
    press(&mut v, &format!(":w {}⏎", csa.display()));
    assert!(shown(&mut v).contains("x.csa already exists. Overwrite it?"));
    press(&mut v, "y");
    assert!(shown(&mut v).contains("CSA cannot hold"));
    std::fs::set_permissions(&csa, std::fs::Permissions::from_mode(0o444)).unwrap();
    press(&mut v, "y");
    let s = shown(&mut v);
    assert!(s.contains("x.csa is read-only. Replace it anyway?"), "{s}");
    press(&mut v, "y");
    assert!(shown(&mut v).contains("changed on disk while"));
    assert_eq!(std::fs::read_to_string(&csa).unwrap(), "before\n");
    press(&mut v, "y");
    assert!(std::fs::read_to_string(&csa).unwrap().contains("+7776FU"));
    assert_eq!(v.app.save_renders(), 1, "one render");
}
