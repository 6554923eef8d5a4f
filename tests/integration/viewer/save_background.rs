//! Saves in the background (issue 14): a save that has not ended goes on while keys are
//! handled, with its progress on the status line; the saved revision is the one the save
//! began with; a failed save counts as not saved; quitting waits for the save; a second save
//! waits for the first. A FIFO is the slow disk: the save thread blocks on it until the test
//! reads it, so nothing here depends on timing.

use crate::common::{press, screen, screen_rows, status_rows};
use kifview::app::document;
use kifview::app::{App, Config};
use kifview::core::notation;
use kifview::core::record::NodeId;
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

const GAME: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n";

/// A viewer on `dir/game.kif` whose saves go to the background at once.
pub(super) fn viewer(dir: &Path) -> (Viewer, PathBuf) {
    let path = dir.join("game.kif");
    std::fs::write(&path, GAME).unwrap();
    let (record, doc) = document::read(&path, 0).unwrap();
    let config = Config::defaults();
    let theme = Theme::new(&config, false, false);
    let mut app = App::new(record, doc, config);
    app.set_background_saves(Duration::ZERO);
    (Viewer::new(app, theme), path)
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

/// Reads everything written into the FIFO (on a thread: opening blocks until the writer
/// opens it too).
fn drain(fifo: &Path) -> std::thread::JoinHandle<Vec<u8>> {
    let fifo = fifo.to_path_buf();
    std::thread::spawn(move || {
        let mut b = Vec::new();
        std::fs::File::open(&fifo)
            .unwrap()
            .read_to_end(&mut b)
            .unwrap();
        b
    })
}

fn status_80x24(v: &mut Viewer) -> String {
    let t = screen(v, 80, 24);
    status_rows(v, &screen_rows(&t), 80)
}

#[test]
fn a_slow_save_shows_progress_while_keys_work_and_saves_the_revision_it_began_with() {
    let dir = tempfile::tempdir().unwrap();
    let (mut v, path) = viewer(dir.path());
    press(&mut v, "c最初のコメント⎋");
    assert!(v.app.is_modified());
    // The record's own file is now a slow one.
    std::fs::remove_file(&path).unwrap();
    mkfifo(&path);
    press(&mut v, "^s");
    // The file on disk changed since it was opened (it is a FIFO now): the usual question.
    assert!(status_80x24(&mut v).contains("changed on disk"));
    press(&mut v, "y");
    assert!(v.app.save_running());
    let status = status_80x24(&mut v);
    assert!(status.contains("saving game.kif…"), "{status}");
    assert!(
        status.contains("[+]"),
        "still unsaved while it runs: {status}"
    );
    // Keys are handled meanwhile: move and edit.
    let before = v.app.cur();
    press(&mut v, "→");
    assert_ne!(
        v.app.cur(),
        before,
        "a key moved the cursor during the save"
    );
    press(&mut v, "c後のコメント⎋");
    let reader = drain(&path);
    v.app.wait_for_saves();
    let written = reader.join().unwrap();
    assert!(!v.app.save_running());
    let status = status_80x24(&mut v);
    assert!(status.contains("saved"), "{status}");
    // What was written is the record as the save began: the later comment is not in it, and
    // the record stays modified.
    let read = notation::load(&written, Some(&path));
    let r = &read.records[0].record;
    let all: Vec<&str> = r.nodes.iter().map(|n| n.comment.as_str()).collect();
    assert!(all.contains(&"最初のコメント"), "{all:?}");
    assert!(!all.contains(&"後のコメント"), "{all:?}");
    assert!(
        v.app.is_modified(),
        "the edit made during the save is unsaved"
    );
    assert!(status.contains("[+]"), "{status}");
    // Undoing that edit returns to the saved revision.
    press(&mut v, "u");
    assert!(!v.app.is_modified());
}

#[test]
fn a_failed_slow_save_says_why_and_counts_as_not_saved() {
    let dir = tempfile::tempdir().unwrap();
    let (mut v, _) = viewer(dir.path());
    press(&mut v, "c変更⎋");
    // More than a pipe holds, so the writer is still writing when the reader goes away.
    kifview::app::testing::apply(
        &mut v.app,
        kifview::core::record::Edit::SetComment {
            node: NodeId::ROOT,
            text: "長い".repeat(200_000),
        },
    )
    .unwrap();
    let fifo = dir.path().join("slow.kifu");
    mkfifo(&fifo);
    press(&mut v, &format!(":w {}⏎y", fifo.display()));
    assert!(v.app.save_running());
    let f = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut b = [0u8; 1000];
        let mut file = std::fs::File::open(&f).unwrap();
        file.read_exact(&mut b).unwrap();
        // Closed early: the writer gets a broken pipe.
    });
    reader.join().unwrap();
    v.app.wait_for_saves();
    let status = status_80x24(&mut v);
    assert!(status.contains("not saved"), "{status}");
    assert!(v.app.is_modified());
    assert!(status.contains("[+]"), "{status}");
}

/// An edit, then Ctrl-s of the record's own file, which has become a FIFO (the save runs
/// until [`drain`] reads it).
fn saving_into_own_fifo(dir: &Path) -> (Viewer, PathBuf) {
    let (mut v, path) = viewer(dir);
    press(&mut v, "c変更⎋");
    std::fs::remove_file(&path).unwrap();
    mkfifo(&path);
    // `y`: the file changed on disk since it was opened.
    press(&mut v, "^sy");
    assert!(v.app.save_running());
    (v, path)
}

#[test]
fn quitting_waits_for_a_running_save() {
    let dir = tempfile::tempdir().unwrap();
    let (mut v, path) = saving_into_own_fifo(dir.path());
    press(&mut v, "q");
    assert!(
        !v.app.should_quit(),
        "q does not end kifview while the save runs"
    );
    let status = status_80x24(&mut v);
    assert!(status.contains(", then quit"), "{status}");
    let reader = drain(&path);
    v.app.wait_for_saves();
    reader.join().unwrap();
    assert!(
        v.app.should_quit(),
        "the save ended with nothing unsaved: quits"
    );
}

#[test]
fn quitting_after_a_save_with_later_edits_still_asks() {
    let dir = tempfile::tempdir().unwrap();
    let (mut v, path) = saving_into_own_fifo(dir.path());
    press(&mut v, "c後の変更⎋q");
    let reader = drain(&path);
    v.app.wait_for_saves();
    reader.join().unwrap();
    assert!(!v.app.should_quit());
    let status = status_80x24(&mut v);
    assert!(status.contains("unsaved changes"), "{status}");
}

#[test]
fn a_second_save_waits_for_the_first_and_a_third_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (mut v, path) = viewer(dir.path());
    press(&mut v, "c変更⎋");
    let fifo = dir.path().join("slow.kifu");
    mkfifo(&fifo);
    press(&mut v, &format!(":w {}⏎y", fifo.display()));
    assert!(v.app.save_running());
    press(&mut v, "c二つ目⎋^s");
    let status = status_80x24(&mut v);
    assert!(
        status.contains("game.kif is saved when it ends"),
        "{status}"
    );
    let other = dir.path().join("other.kif");
    press(&mut v, &format!(":w {}⏎", other.display()));
    let status = status_80x24(&mut v);
    assert!(
        status.contains("a save is running and another waits"),
        "{status}"
    );
    // Nothing was written to game.kif yet: one save at a time.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), GAME);
    let reader = drain(&fifo);
    v.app.wait_for_saves();
    let copy = reader.join().unwrap();
    assert!(!other.exists());
    // The waiting save ran after the first and wrote the record as it was when it started.
    let own = std::fs::read(&path).unwrap();
    let r = &notation::load(&own, Some(&path)).records[0].record;
    assert!(r.nodes.iter().any(|n| n.comment.contains("二つ目")));
    let c = &notation::load(&copy, Some(&fifo)).records[0].record;
    assert!(!c.nodes.iter().any(|n| n.comment.contains("二つ目")));
    assert!(!v.app.is_modified());
}

/// A CSA file of several records is written back from the texts the session keeps, which a
/// save brings up to date when it ends: switching records while it runs is refused.
#[test]
fn records_are_not_switched_while_a_save_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("five.csa");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/csa/valid/five_records.csa"),
        &path,
    )
    .unwrap();
    let (record, doc) = document::read(&path, 0).unwrap();
    let config = Config::defaults();
    let theme = Theme::new(&config, false, false);
    let mut app = App::new(record, doc, config);
    app.set_background_saves(Duration::ZERO);
    let mut v = Viewer::new(app, theme);
    let fifo = dir.path().join("slow.csa");
    mkfifo(&fifo);
    press(&mut v, &format!(":w {}⏎y", fifo.display()));
    assert!(v.app.save_running());
    press(&mut v, "}");
    let status = status_80x24(&mut v);
    assert!(status.contains("a save is running"), "{status}");
    assert_eq!(v.app.source().record_index, 0);
    let reader = drain(&fifo);
    v.app.wait_for_saves();
    assert!(!reader.join().unwrap().is_empty());
    press(&mut v, "}");
    assert_eq!(v.app.source().record_index, 1);
}

/// "Save the file before going to record 2?" `s`: the switch waits for the save (which may
/// ask first and run in the background), then happens; it is not decided while the save
/// still runs.
#[test]
fn save_and_go_to_another_record_goes_once_the_save_has_written_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = crate::common::five_records(&dir, false);
    let (record, doc) = document::read(&path, 0).unwrap();
    let mut app = App::new(record, doc, Config::defaults());
    app.set_background_saves(Duration::ZERO);
    let mut v = Viewer::new(app, Theme::plain());
    press(&mut v, "lc変更⎋");
    // The disk is slow: the file is now a FIFO that takes the bytes when the test reads them.
    std::fs::remove_file(&path).unwrap();
    mkfifo(&path);
    press(&mut v, "}s");
    let q = screen_rows(&screen(&mut v, 120, 40)).join("\n");
    assert!(q.contains("changed on disk"), "{q}");
    press(&mut v, "y");
    assert!(v.app.save_running());
    assert_eq!(
        v.app.source().record_index,
        0,
        "not switched while the save runs"
    );
    let bytes = drain(&path).join().unwrap();
    v.app.wait_for_saves();
    assert!(String::from_utf8(bytes).unwrap().contains("変更"));
    assert_eq!(
        v.app.source().record_index,
        1,
        "{:?}",
        v.app.message().map(|m| &m.text)
    );
    assert!(!v.app.is_modified());
}
