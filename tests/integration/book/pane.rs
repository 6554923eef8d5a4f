//! The book pane (issue 33), driven by keys through the whole app and drawn into a
//! TestBackend: several books at once, each move marked with its book, the explorer's games
//! beside them, the flipped lookup; Enter plays a book move (the record's, else a new
//! variation, one undo step); add, edit, delete, reorder, save, reopen; the modified mark is
//! exact; quitting with a modified book asks; the move list marks where the record leaves the
//! books.

use kifview::app::LaunchOptions;
use kifview::app::Mode;
use kifview::app::book::{BookRow, BookView};
use kifview::book::{self, Lookup};
use kifview::core::rules::{Move, Position};
use kifview::tui::Viewer;
use std::path::{Path, PathBuf};

use crate::common::{press, screen, screen_rows, viewer_with};

const START: &str = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const AFTER_76: &str = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
/// The start position with gote to move: its moves, turned round, are sente's at the start.
const START_W: &str = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";

fn write_books(dir: &Path) -> (PathBuf, PathBuf) {
    let a = dir.join("main.db");
    std::fs::write(
        &a,
        format!(
            "#YANEURAOU-DB2016 1.00\n{START}\n7g7f 3c3d 50 20 10\n#主流\n2g2f none 30 18 5\n\
             {AFTER_76}\n3c3d none -40 16 6\n8c8d none -55 12 2\n"
        ),
    )
    .unwrap();
    let b = dir.join("side.db");
    std::fs::write(
        &b,
        format!(
            "#YANEURAOU-DB2016 1.00\n{START}\n7g7f none 45 10 3\n5g5f none -80 8 1\n\
             {START_W}\n3c3d none 20 6 4\n"
        ),
    )
    .unwrap();
    (a, b)
}

/// A study: ▲7六歩 (analysed: +48 at depth 18) △8四歩 ▲2六歩.
fn study(dir: &Path) -> PathBuf {
    let f = dir.join("study.kif");
    std::fs::write(
        &f,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*互角\n*#評価値=48\n\
         *#深さ=18\n   2 ８四歩(83)\n   3 ２六歩(27)\n",
    )
    .unwrap();
    f
}

fn viewer(file: &Path, books: &[PathBuf]) -> Viewer {
    viewer_with(&LaunchOptions {
        file: Some(file.to_path_buf()),
        books: books.to_vec(),
        ..Default::default()
    })
}

fn rows(v: &Viewer) -> Vec<BookRow> {
    match v.app.book_view() {
        BookView::Rows { rows, error: None } => rows,
        other => panic!("no rows: {other:?}"),
    }
}

/// (book, label, value, depth, count, comment, flipped) of each row.
type Row = (usize, String, Option<i32>, u32, u64, Option<String>, bool);
fn table(v: &Viewer) -> Vec<Row> {
    rows(v)
        .into_iter()
        .map(|r| {
            (
                r.book, r.label, r.value, r.depth, r.count, r.comment, r.flipped,
            )
        })
        .collect()
}

fn r(book: usize, label: &str, v: Option<i32>, d: u32, c: u64, comment: Option<&str>) -> Row {
    (
        book,
        label.into(),
        v,
        d,
        c,
        comment.map(String::from),
        false,
    )
}

fn text(v: &mut Viewer, w: u16, h: u16) -> String {
    let mut out = screen_rows(&screen(v, w, h)).join("\n");
    out.push('\n');
    out
}

#[test]
fn the_pane_shows_every_books_moves_follows_the_cursor_and_plays_one() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = write_books(dir.path());
    let mut v = viewer(&study(dir.path()), &[a, b]);
    assert!(v.app.books().shown(), "--book shows the pane");
    assert_eq!(
        table(&v),
        vec![
            r(0, "▲７六歩", Some(50), 20, 10, Some("主流")),
            r(0, "▲２六歩", Some(30), 18, 5, None),
            r(1, "▲７六歩", Some(45), 10, 3, None),
            r(1, "▲５六歩", Some(-80), 8, 1, None),
        ]
    );
    insta::assert_snapshot!("book_pane_start_80x24", text(&mut v, 80, 24));
    insta::assert_snapshot!("book_pane_start_120x40", text(&mut v, 120, 40));
    insta::assert_snapshot!("book_pane_start_200x60", text(&mut v, 200, 60));
    // One move on: gote's moves, in gote's notation.
    press(&mut v, "l");
    assert_eq!(
        table(&v),
        vec![
            r(0, "△３四歩", Some(-40), 16, 6, None),
            r(0, "△８四歩", Some(-55), 12, 2, None)
        ]
    );
    // The record leaves the books at ▲2六歩 (after △8四歩 no book has a move).
    let line = v.app.line().to_vec();
    assert_eq!(v.app.leaves_book_at(), Some(line[3]));
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("２六歩(27)~"), "{shown}");
    // Enter on a move the record has: it goes there (no new node); on another: a new
    // variation, one undo step.
    press(&mut v, "h^t");
    assert_eq!(v.app.mode(), kifview::app::book::focus::FOCUS);
    let root = kifview::core::record::NodeId::ROOT;
    let at_root = |v: &Viewer| v.app.record().node(root).children.len();
    press(&mut v, "⏎");
    assert_eq!(at_root(&v), 1);
    assert_eq!(v.app.cur(), line[1]);
    assert!(!v.app.is_modified());
    press(&mut v, "hjjj⏎");
    assert_eq!(at_root(&v), 2, "▲5六歩 added as a variation");
    assert_eq!(
        v.app.record().node(v.app.cur()).move_data().unwrap().mv,
        Move::from_usi("5g5f").unwrap()
    );
    press(&mut v, "u");
    assert_eq!(at_root(&v), 1, "one undo step");
    assert!(!v.app.is_modified());
    // The flipped lookup: side.db's move for the start with gote to move, turned round.
    press(&mut v, "h");
    press(&mut v, "f");
    let flipped: Vec<Row> = table(&v).into_iter().filter(|r| r.6).collect();
    assert_eq!(
        flipped,
        vec![(1, "▲７六歩".to_string(), Some(20), 6, 4, None, true)]
    );
    insta::assert_snapshot!("book_pane_focused_flipped_80x24", text(&mut v, 80, 24));
}

#[test]
fn the_explorers_games_stand_beside_the_books_moves() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir(&coll).unwrap();
    for (i, moves) in ["+7776FU\n-3334FU\n", "+7776FU\n", "+2726FU\n"]
        .iter()
        .enumerate()
    {
        std::fs::write(
            coll.join(format!("g{i}.csa")),
            format!("V2.2\nN+a{i}\nN-b{i}\nPI\n+\n{moves}%TORYO\n"),
        )
        .unwrap();
    }
    let idx = dir.path().join("idx");
    kifview::collection::update(&idx, &[coll], Default::default(), &|_, _| {}).unwrap();
    let (a, _) = write_books(dir.path());
    let mut v = viewer_with(&LaunchOptions {
        file: Some(study(dir.path())),
        books: vec![a],
        index: Some(idx),
        ..Default::default()
    });
    press(&mut v, "x");
    v.app.collection_settle();
    assert_eq!(
        v.app.explorer_games_for(Move::from_usi("7g7f").unwrap()),
        Some(2)
    );
    let shown = text(&mut v, 120, 40);
    assert!(shown.contains("棋譜"), "{shown}");
    insta::assert_snapshot!("book_pane_with_explorer_120x40", shown);
}

/// The book file read back: the moves at `sfen` as (usi, value, depth, count, comment).
type Saved = (String, Option<i32>, u32, u64, Option<String>);
fn saved(path: &Path, pos: &Position) -> Vec<Saved> {
    let b = book::read_file(path).unwrap().book;
    b.moves(&book::key_of(pos))
        .unwrap()
        .into_iter()
        .map(|m| (m.usi.usi(), m.value, m.depth, m.count, m.comment))
        .collect()
}

#[test]
fn add_edit_delete_reorder_save_and_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let (_, side) = write_books(dir.path());
    let side_before = std::fs::read(&side).unwrap();
    let file = study(dir.path());
    let mut v = viewer(&file, std::slice::from_ref(&side));
    let new = dir.path().join("new.db");
    press(&mut v, &format!(":book new {}⏎", new.display()));
    assert!(!new.exists(), "written by its first save");
    // ▲7六歩 added with the analysis comment's value and depth.
    press(&mut v, "l^ta");
    assert_eq!(v.app.mode(), Mode::Prompt);
    press(&mut v, "⏎");
    assert!(v.app.books().names()[1].1, "modified");
    press(&mut v, "h");
    assert_eq!(table(&v)[2..], [r(1, "▲７六歩", Some(48), 18, 1, None)]);
    // ▲5六歩 from side.db played, then added to new.db (the last opened) with no value.
    press(&mut v, "k⏎");
    press(&mut v, "a⏎h");
    assert_eq!(
        table(&v)[2..],
        [
            r(1, "▲７六歩", Some(48), 18, 1, None),
            r(1, "▲５六歩", None, 0, 1, None)
        ]
    );
    // Reordered, changed, the other deleted.
    press(&mut v, "jjjK");
    press(&mut v, "e⌫⌫⌫⌫⌫-5 3 2 sharp⏎");
    assert_eq!(
        table(&v)[2..],
        [
            r(1, "▲５六歩", Some(-5), 3, 2, Some("sharp")),
            r(1, "▲７六歩", Some(48), 18, 1, None)
        ]
    );
    insta::assert_snapshot!("book_pane_edited_80x24", text(&mut v, 80, 24));
    press(&mut v, "jd");
    assert_eq!(table(&v).len(), 3);
    // Saved: the file holds what the pane shows; side.db, not changed, is not written.
    press(&mut v, "s");
    assert!(!v.app.books().names()[1].1, "saved: not modified");
    let start = Position::startpos();
    assert_eq!(
        saved(&new, &start),
        [("5g5f".into(), Some(-5), 3, 2, Some("sharp".into()))]
    );
    assert_eq!(std::fs::read(&side).unwrap(), side_before);
    // The modified mark is exact: a change undone by hand leaves the book unmodified.
    let retype = |fields: &str| format!("e{}{fields}⏎", "⌫".repeat(12));
    press(&mut v, "jj");
    press(&mut v, &retype("-5 3 9 sharp"));
    assert!(v.app.books().names()[1].1);
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("2:new.db*"), "{shown}");
    press(&mut v, &retype("-5 3 2 sharp"));
    assert!(!v.app.books().names()[1].1, "back as saved");
    // Quitting with a modified book asks first; discarding quits, the file as saved.
    press(&mut v, &retype("-5 3 7 sharp"));
    press(&mut v, "⎋q");
    assert_eq!(v.app.mode(), Mode::Confirm);
    assert!(text(&mut v, 80, 24).contains("new.db has unsaved changes"));
    press(&mut v, "d");
    // Then the record's own question (its variation ▲5六歩 is not saved either).
    assert_eq!(v.app.mode(), Mode::Confirm);
    press(&mut v, "d");
    assert!(v.app.should_quit());
    assert_eq!(saved(&new, &start)[0].3, 2);
    // Reopened: as saved.
    let v = viewer(&file, &[new]);
    assert_eq!(table(&v), [r(0, "▲５六歩", Some(-5), 3, 2, Some("sharp"))]);
}

#[test]
fn no_book_says_how_to_open_one_and_a_bad_book_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = study(dir.path());
    let mut v = viewer(&file, &[]);
    press(&mut v, "T");
    assert_eq!(v.app.book_view(), BookView::NoBook);
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains(":book open FILE"), "{shown}");
    let bad = dir.path().join("bad.db");
    std::fs::write(&bad, "\u{1b}[2Jnot a book\n").unwrap();
    press(&mut v, &format!(":book open {}⏎", bad.display()));
    let shown = text(&mut v, 80, 24);
    assert!(!shown.contains('\u{1b}'), "{shown}");
    assert!(shown.contains("bad.db"), "{shown}");
    press(&mut v, ":book frob⏎");
    assert!(text(&mut v, 80, 24).contains("expected :book open FILE"));
}

#[test]
fn an_edit_to_a_book_on_disk_saves_every_other_position_as_it_was() {
    // Text (looked up in place) and .ybb: the edit is held over the file, and the save writes
    // the file's positions with it.
    let dir = tempfile::tempdir().unwrap();
    let file = study(dir.path());
    let mut b = super::generated(150, 30, 21);
    let start = Position::startpos();
    b.remove(&book::key_of(&start));
    for ext in ["db", "ybb"] {
        let path = dir.path().join(format!("big.{ext}"));
        let format = book::Format::from_path(&path).unwrap();
        book::save_new(&b, &path, format, true).unwrap();
        let before = book::read_file(&path).unwrap().book;
        let mut v = viewer(&file, std::slice::from_ref(&path));
        press(&mut v, "l^ta⏎s");
        assert!(!v.app.books().names()[0].1, "saved");
        let mut want = before.clone();
        let mut m = book::BookMove::new(Move::from_usi("7g7f").unwrap());
        (m.value, m.depth) = (Some(48), 18);
        if ext == "ybb" {
            m.count = 0;
        }
        want.add_move(&book::key_of(&start), 1, m);
        let after = book::read_file(&path).unwrap().book;
        assert_eq!(after.len(), before.len() + 1, "{ext}");
        assert_eq!(after, want, "{ext}");
    }
}

/// An Apery book whose entries are sorted but for two neighbours that the sample of its
/// opening does not compare (the start position's entry and the next): the start's lookup
/// cannot find it where a binary search looks. The pane says the book is not sorted (it
/// showed "not in the book" and nothing else before), naming the entry, and points to
/// `kifview book check`.
#[test]
fn an_apery_book_out_of_order_where_a_lookup_lands_is_named_in_the_pane() {
    let dir = tempfile::tempdir().unwrap();
    let start = Position::startpos();
    let entry = |key: u64, mv: &str, count: u16, value: i32| {
        let mut e = key.to_le_bytes().to_vec();
        let mv = book::packed::apery_move(Move::from_usi(mv).unwrap());
        e.extend_from_slice(&mv.to_le_bytes());
        e.extend_from_slice(&count.to_le_bytes());
        e.extend_from_slice(&value.to_le_bytes());
        e
    };
    // 6,000 keys of no position (a SplitMix64 sequence) and the start's.
    let mut z = 0x1234_5678_u64;
    let mut keys: Vec<u64> = (0..6000)
        .map(|_| {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            x ^ (x >> 31)
        })
        .collect();
    let s = book::apery::key(&start);
    keys.push(s);
    keys.sort_unstable();
    // The start's entry at an even index (the sample compares entry i with i - 1 for even i
    // when there are between 4,096 and 6,143 entries): drop a key before it when it is odd.
    if keys.iter().position(|&k| k == s).unwrap() % 2 == 1 {
        keys.remove(0);
    }
    let j = keys.iter().position(|&k| k == s).unwrap();
    let mut bytes: Vec<u8> = keys
        .iter()
        .flat_map(|&k| match k == s {
            true => entry(k, "7g7f", 10, 50),
            false => entry(k, "2g2f", 1, 0),
        })
        .collect();
    let path = dir.path().join("book.bin");
    std::fs::write(&path, &bytes).unwrap();
    let v = viewer(&study(dir.path()), std::slice::from_ref(&path));
    assert_eq!(rows(&v).len(), 1, "sorted: the start's move is found");
    // Sorted, no lookup meets an order problem (the positions after each of the start's
    // moves and their replies, none of them in the book).
    let sorted = book::open(&path).unwrap().book;
    for mv in start.legal_moves() {
        let mut p = start.clone();
        p.play(mv).unwrap();
        for reply in p.legal_moves() {
            let mut q = p.clone();
            q.play(reply).unwrap();
            assert_eq!(sorted.moves(&book::key_of(&q)).unwrap(), vec![]);
        }
    }
    // The start's entry and the next swapped.
    let (a, rest) = bytes.split_at_mut((j + 1) * 16);
    a[j * 16..].swap_with_slice(&mut rest[..16]);
    std::fs::write(&path, &bytes).unwrap();
    let opened = book::open(&path).expect("the sample of the opening finds it sorted");
    let err = opened.book.moves(&book::key_of(&start)).unwrap_err();
    // Named by the pair the search compared: the start's entry now at j + 1, or the one
    // before it at j.
    let err = err.to_string();
    assert!(
        [j, j + 1]
            .iter()
            .any(|i| err.contains(&format!("near entry {i})"))),
        "{err} (swapped {j} and {})",
        j + 1
    );
    // `book show` fails with it.
    let out = assert_cmd::Command::cargo_bin("kifview")
        .expect("binary built")
        .args(["book", "show"])
        .arg(&path)
        .args(["--sfen", START])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("book.bin: not sorted by key"), "{stderr}");
    let mut v = viewer(&study(dir.path()), &[path]);
    match v.app.book_view() {
        BookView::Rows { rows, error } => {
            assert!(rows.is_empty(), "{rows:?}");
            let e = error.expect("the error is shown");
            assert!(e.starts_with("book.bin: not sorted by key"), "{e}");
            assert!(e.contains("kifview book check"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    let shown = text(&mut v, 200, 60);
    assert!(shown.contains("book.bin: not sorted by key"), "{shown}");
}
