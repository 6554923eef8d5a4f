//! Saving a book never freezes the viewer (issue 33): the save of a large book runs on a
//! thread while keys are answered, the status line says how far it is, its end comes as an
//! event, the edits made meanwhile stay unsaved (the mark exact), and a stopped save leaves
//! the file as it was. A FIFO is the slow disk: the save's thread blocks on it until the test
//! reads it, so nothing here depends on timing.

use crate::common::{press, screen, screen_rows, status_rows, viewer_with};
use kifview::app::LaunchOptions;
use kifview::app::book::BookView;
use kifview::book::{self, Lookup, SaveWatch};
use kifview::core::rules::{Move, Position};
use kifview::tui::Viewer;
use kifview::tui::wake::{Wake, Woken};
use std::io::Read;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

fn status(v: &mut Viewer) -> String {
    let t = screen(v, 120, 40);
    status_rows(v, &screen_rows(&t), 120)
}

/// The moves the pane shows, in USI.
fn shown(v: &Viewer) -> Vec<String> {
    match v.app.book_view() {
        BookView::Rows { rows, .. } => rows.iter().map(|r| r.mv.usi()).collect(),
        BookView::NoBook => Vec::new(),
    }
}

#[test]
fn a_large_books_save_runs_while_keys_are_answered_and_edits_made_meanwhile_stay_unsaved() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("study.kif");
    std::fs::write(
        &record,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ８四歩(83)\n",
    )
    .unwrap();
    // A generated book of some 16,000 positions, without the two the test edits.
    let mut big = super::generated(400, 40, 7);
    let start = Position::startpos();
    let mut after76 = Position::startpos();
    after76.play(Move::from_usi("7g7f").unwrap()).unwrap();
    big.remove(&book::key_of(&start));
    big.remove(&book::key_of(&after76));
    assert!(big.len() > 12_000, "{}", big.len());
    let path = dir.path().join("big.db");
    book::save_new(&big, &path, book::Format::YaneuraOu, true).unwrap();
    let mut v = viewer_with(&LaunchOptions {
        file: Some(record),
        books: vec![path.clone()],
        ..Default::default()
    });
    v.app.set_background_saves(Duration::ZERO);
    let wake = Wake::new().unwrap();
    v.app.connect_events(wake.events());
    // ▲7六歩 added at the start.
    press(&mut v, "l^ta⏎");
    assert!(v.app.books().names()[0].1, "modified");
    // The book's own file is now a slow one (the book is still looked up in the file that
    // was there: its map stays).
    std::fs::remove_file(&path).unwrap();
    mkfifo(&path);
    let (go, wait) = std::sync::mpsc::channel::<()>();
    let fifo = path.clone();
    let reader = std::thread::spawn(move || {
        // Told to read once the keys were answered; should the save hold the keys (the
        // fault this test is for), it reads after a while so that the test fails, not hangs.
        let _ = wait.recv_timeout(Duration::from_secs(30));
        let mut b = Vec::new();
        std::fs::File::open(&fifo)
            .unwrap()
            .read_to_end(&mut b)
            .unwrap();
        b
    });
    press(&mut v, "s");
    assert!(
        v.app.save_running(),
        "the book's save runs on after the key"
    );
    let s = status(&mut v);
    assert!(s.contains("saving big.db…"), "{s}");
    assert!(s.contains(":book stop"), "{s}");
    // Keys are answered meanwhile: the cursor moves, the pane looks the book up, and an
    // edit is made (△8四歩 after ▲7六歩).
    press(&mut v, "⎋h");
    assert_eq!(v.app.cur(), kifview::core::record::NodeId::ROOT);
    assert_eq!(shown(&v), ["7g7f"]);
    press(&mut v, "ll^ta⏎");
    press(&mut v, "h");
    assert_eq!(shown(&v), ["8c8d"]);
    assert!(
        v.app.save_running(),
        "still saving: the FIFO is not read yet"
    );
    go.send(()).unwrap();
    // Its end comes as an event (the timers' events come too: a save that never ends fails
    // the test after a long while instead of hanging it).
    let mut events = Vec::new();
    let give_up = std::time::Instant::now() + Duration::from_secs(300);
    while v.app.save_running() {
        assert!(std::time::Instant::now() < give_up, "the save never ended");
        assert_eq!(wake.wait(Duration::from_secs(60), false), Woken::Event);
        for ev in wake.take() {
            events.push(ev);
            v.app.handle_event(ev);
        }
    }
    assert!(
        events.contains(&kifview::app::events::Event::Book),
        "{events:?}"
    );
    let written = reader.join().unwrap();
    let s = status(&mut v);
    assert!(s.contains("saved big.db"), "{s}");
    // The save did not wait for the FIFO it wrote to be written again (the book is still
    // looked up in the file it was opened from), nor does opening one wait for a writer.
    let other = dir.path().join("other.db");
    mkfifo(&other);
    press(&mut v, &format!("⎋:book open {}⏎", other.display()));
    let s = status(&mut v);
    assert!(s.contains("not a regular file"), "{s}");
    press(&mut v, "^t");
    // What was written is the book as the save began: every position, ▲7六歩 at the start,
    // and not the edit made during the save, which stays unsaved.
    let read = book::decode(&written, book::Format::YaneuraOu)
        .unwrap()
        .book;
    assert_eq!(read.len(), big.len() + 1);
    let at_start: Vec<String> = (read.moves(&book::key_of(&start)).unwrap().iter())
        .map(|m| m.usi.usi())
        .collect();
    assert_eq!(at_start, ["7g7f"]);
    assert!(read.moves(&book::key_of(&after76)).unwrap().is_empty());
    for (k, e) in big.iter().take(500) {
        assert_eq!(read.get(k), Some(e), "{k}");
    }
    assert!(
        v.app.books().names()[0].1,
        "the edit made during the save is unsaved"
    );
    let all = screen_rows(&screen(&mut v, 120, 40)).join("\n");
    assert!(all.contains("big.db*"), "{all}");
    // Deleting that edit by hand leaves the book as saved: unmodified.
    press(&mut v, "d");
    assert!(!v.app.books().names()[0].1, "as saved");
}

#[test]
fn a_stopped_save_leaves_the_book_as_it_was_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let b = super::generated(50, 20, 3);
    for ext in ["db", "ybb", "bin"] {
        let path = dir.path().join(format!("b.{ext}"));
        let format = book::Format::from_path(&path).unwrap();
        book::save_new(&b, &path, format, true).unwrap();
        let before = std::fs::read(&path).unwrap();
        let mut edited = book::read_file(&path).unwrap().book;
        edited.remove(&book::key_of(&Position::startpos()));
        let watch = SaveWatch::default();
        watch.stop.store(true, Ordering::Relaxed);
        let e = book::save_watched(&edited, &path, format, &watch).unwrap_err();
        assert!(e.to_string().contains("interrupted"), "{ext}: {e}");
        assert_eq!(std::fs::read(&path).unwrap(), before, "{ext}");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.starts_with(&format!("b.{ext}")) || n.starts_with('.'))
            .collect();
        assert_eq!(names, [format!("b.{ext}")], "{ext}");
        // Not stopped: the whole book, its positions counted.
        let watch = SaveWatch::default();
        book::save_watched(&edited, &path, format, &watch).unwrap();
        let n = edited.len() as u64;
        assert_eq!(
            (watch.total.into_inner(), watch.done.into_inner()),
            (n, n),
            "{ext}"
        );
    }
}
