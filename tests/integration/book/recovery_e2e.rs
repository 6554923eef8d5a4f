//! An edited book's unsaved edits kept when kifview is ended by a signal (SIGTERM) or killed
//! (`kill -9`, after the periodic write), offered when the book is opened again, restored
//! unsaved or deleted; the file that kept them goes once the book is saved.

use crate::pty::Session;
use std::path::{Path, PathBuf};

const START: &str = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const BOOK: &str = "#YANEURAOU-DB2016 1.00\n\
    sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n2g2f none 30 18 5\n";

/// A book of one position (▲2六歩 at the start) and a study whose first move, ▲7六歩, is
/// analysed (+48 at depth 18), with a config (`interval` seconds between recovery writes).
fn setup(dir: &Path, interval: u32) -> (PathBuf, PathBuf, PathBuf) {
    let book = dir.join("main.db");
    std::fs::write(&book, BOOK).unwrap();
    let study = dir.join("study.kif");
    std::fs::write(
        &study,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*#評価値=48\n*#深さ=18\n   2 ８四歩(83)\n",
    )
    .unwrap();
    let cfg = dir.join("config.toml");
    std::fs::write(
        &cfg,
        format!("ambiguous_width = \"single\"\nrecovery_interval = {interval}\n"),
    )
    .unwrap();
    (book, study, cfg)
}

fn start(dir: &Path, study: &Path, book: &Path, cfg: &Path) -> Session {
    let data = dir.join("data");
    let cache = dir.join("cache");
    Session::start_with_env(
        env!("CARGO_BIN_EXE_kifview"),
        &[study.to_str().unwrap(), "--book", book.to_str().unwrap()],
        &[
            ("XDG_DATA_HOME", &data),
            ("XDG_CACHE_HOME", &cache),
            ("KIFVIEW_CONFIG", cfg),
        ],
        24,
        100,
    )
}

/// ▲7六歩 added to the book at the start (its fields from the analysis comment).
fn add_the_first_move(s: &mut Session) {
    s.wait_for("main.db");
    s.send("l\x14a");
    s.wait_for("value depth count comment: 48 18 1");
    s.send("\r");
    s.wait_for("main.db*");
}

fn kept(dir: &Path) -> Vec<PathBuf> {
    crate::e2e::signals_e2e::recovery_files(dir, ".main.db.kifview-book-recovery-")
}

fn signal(s: &Session, sig: i32) {
    let pid = s.pid().expect("a child process") as i32;
    // SAFETY: sending a signal to our own child.
    assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
}

/// The book's moves at the start as (usi, value, depth, count).
fn moves_at_start(book: &Path) -> Vec<(String, Option<i32>, u32, u64)> {
    use kifview::book::Lookup;
    let b = kifview::book::read_file(book).unwrap().book;
    b.moves(&kifview::book::key(START).unwrap())
        .unwrap()
        .into_iter()
        .map(|m| (m.usi.usi(), m.value, m.depth, m.count))
        .collect()
}

#[test]
fn sigterm_keeps_a_books_unsaved_edits_and_opening_it_again_restores_them() {
    let dir = tempfile::tempdir().unwrap();
    let (book, study, cfg) = setup(dir.path(), 0);
    let mut s = start(dir.path(), &study, &book, &cfg);
    add_the_first_move(&mut s);
    assert!(
        kept(dir.path()).is_empty(),
        "no periodic write (interval 0)"
    );
    signal(&s, libc::SIGTERM);
    assert_eq!(s.wait_exit().exit_code(), 143);
    assert!(
        s.screen().contains("unsaved edits of main.db are in"),
        "{}",
        s.screen()
    );
    // The book is as it was; its edits are beside it.
    assert_eq!(std::fs::read_to_string(&book).unwrap(), BOOK);
    let files = kept(dir.path());
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(
        std::fs::read_to_string(&files[0])
            .unwrap()
            .contains("7g7f none 48 18 1")
    );

    let mut s = start(dir.path(), &study, &book, &cfg);
    s.wait_for("Restore the unsaved edits of main.db");
    s.send("y");
    s.wait_for("restored");
    s.wait_for("main.db*");
    assert!(
        !files[0].exists(),
        "restored: the file that kept them is gone"
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap(), BOOK, "unsaved");
    s.send(":book save\r");
    s.wait_for("saved main.db");
    s.send("q");
    s.wait_exit();
    assert_eq!(
        moves_at_start(&book),
        [
            ("2g2f".into(), Some(30), 18, 5),
            ("7g7f".into(), Some(48), 18, 1)
        ]
    );
    assert!(kept(dir.path()).is_empty());
}

#[test]
fn kill_9_loses_no_book_edit_older_than_the_recovery_interval() {
    let dir = tempfile::tempdir().unwrap();
    let (book, study, cfg) = setup(dir.path(), 1);
    let mut s = start(dir.path(), &study, &book, &cfg);
    add_the_first_move(&mut s);
    let has_edit = |d: &Path| {
        kept(d)
            .iter()
            .any(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains("7g7f none 48 18 1")))
    };
    s.wait_until("kept the book's edits", || has_edit(dir.path()));
    // Saved: the file that kept them goes.
    s.send("s");
    s.wait_for("saved main.db");
    s.wait_until("removed the kept edits once saved", || {
        kept(dir.path()).is_empty()
    });
    // Another edit (the move's count), kept, then kill -9.
    s.send("a");
    s.wait_for("value depth count comment: 48 18 1");
    s.send("\x7f7\r");
    s.wait_for("changed in main.db");
    s.wait_until("kept the new edit", || {
        kept(dir.path())
            .iter()
            .any(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains("7g7f none 48 18 7")))
    });
    signal(&s, libc::SIGKILL);
    s.wait_exit();
    assert_eq!(moves_at_start(&book)[1], ("7g7f".into(), Some(48), 18, 1));
    // Opened again: offered; deleted, the book stays as saved.
    let mut s = start(dir.path(), &study, &book, &cfg);
    s.wait_for("Restore the unsaved edits of main.db");
    s.send("d");
    s.wait_for("deleted");
    assert!(kept(dir.path()).is_empty());
    s.send("q");
    s.wait_exit();
    assert_eq!(moves_at_start(&book)[1], ("7g7f".into(), Some(48), 18, 1));
}
