//! Issue 31, the index's own files: an index folder is kifview's only when it says so (and
//! kifview removes only what the index names), damage is detected and repaired, a killed or
//! concurrent update never leaves readers without an answer, and every answer reads one
//! snapshot of the catalog.

use assert_cmd::Command;
use kifview::collection::{Filter, Index, update};
use kifview::core::rules::Position;
use std::path::{Path, PathBuf};

use crate::common;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

/// `n` one-game CSA files in `root/coll` (from the start position, 1 to 4 moves, players
/// `sente{i}` and `gote{i}`); returns the folder.
fn collection(root: &Path, n: usize) -> PathBuf {
    const MOVES: [&str; 4] = ["+7776FU", "-3334FU", "+2726FU", "-8384FU"];
    let coll = root.join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    for i in 0..n {
        let moves: String = MOVES
            .iter()
            .take(1 + i % 4)
            .map(|m| format!("{m}\n"))
            .collect();
        let text = format!("V2.2\nN+sente{i}\nN-gote{i}\nPI\n+\n{moves}%TORYO\n");
        std::fs::write(coll.join(format!("g{i}.csa")), text).unwrap();
    }
    coll
}

fn index_cli(paths: &[&Path], idx: &Path) -> std::process::Output {
    let mut c = kifview();
    c.arg("index");
    for p in paths {
        c.arg(p);
    }
    c.arg("--index").arg(idx).output().unwrap()
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Files a user keeps that look like an index's (the names the fault run lost).
const USERS: [&str; 6] = [
    "tmp-notes.txt",
    "tmp-game.kifu",
    "pos-7.bin",
    "moves-x.bin",
    "games.bin.txt",
    "catalog.sqlite.bak",
];

fn put_users_files(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for n in USERS {
        std::fs::write(dir.join(n), format!("the user's {n}")).unwrap();
    }
}

fn users_files_intact(dir: &Path) {
    for n in USERS {
        assert_eq!(
            std::fs::read_to_string(dir.join(n)).ok(),
            Some(format!("the user's {n}")),
            "{n} in {}",
            dir.display()
        );
    }
}

fn start_count(idx: &Path) -> u64 {
    Index::open(idx)
        .unwrap()
        .explore(&Position::startpos(), &Filter::default())
        .unwrap()
        .games
}

/// Point 1: `kifview index . --index .` and `--index ~` deleted the user's `tmp-*`, `pos-*`
/// … files. A non-empty folder that is not an index is refused, and nothing in it changes.
#[test]
fn an_index_into_a_folder_of_other_files_is_refused_and_deletes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 3);
    // The collection itself as the index folder, with the user's files in it.
    put_users_files(&coll);
    let before = names(&coll);
    let out = index_cli(&[&coll], &coll);
    let err = common::stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("not a kifview index") && err.contains("empty folder"),
        "{err}"
    );
    assert_eq!(names(&coll), before);
    users_files_intact(&coll);
    // A home-like folder with only the user's files.
    let home = dir.path().join("home");
    put_users_files(&home);
    let out = index_cli(&[&coll], &home);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr_of(&out));
    assert_eq!(names(&home).len(), USERS.len());
    users_files_intact(&home);
}

/// Point 1: in a folder that is an index, the user's files that look like the index's stay
/// through a first build, updates, a rebuild and a compaction: only files the index names
/// are removed.
#[test]
fn an_index_removes_only_the_files_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 6);
    let idx = dir.path().join("idx");
    let out = index_cli(&[&coll], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    put_users_files(&idx);
    // An update with games forgotten (a compaction), then one with a new file.
    for i in 0..4 {
        std::fs::remove_file(coll.join(format!("g{i}.csa"))).unwrap();
    }
    let out = index_cli(&[&coll], &idx);
    let err = common::stderr_of(&out);
    assert!(out.status.success() && err.contains("compacted"), "{err}");
    users_files_intact(&idx);
    // A rebuild (the catalog of another version).
    let db = rusqlite::Connection::open(idx.join("catalog.sqlite")).unwrap();
    db.execute(
        "UPDATE meta SET value = 'kifview-collection-0' WHERE key = 'format'",
        [],
    )
    .unwrap();
    drop(db);
    let out = index_cli(&[&coll], &idx);
    let err = common::stderr_of(&out);
    assert!(out.status.success() && err.contains("rebuilt"), "{err}");
    users_files_intact(&idx);
    assert_eq!(start_count(&idx), 2);
}

/// Point 1: an index made before the marker (no marker file, a catalog of kifview's schema)
/// is still kifview's: updated (here rebuilt, being of an older version), with a message.
#[test]
fn an_index_made_before_the_marker_is_recognised() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 4);
    let idx = dir.path().join("idx");
    update(
        &idx,
        std::slice::from_ref(&coll),
        Default::default(),
        &|_, _| {},
    )
    .unwrap();
    let marker = idx.join(kifview::collection::build::MARKER);
    std::fs::remove_file(&marker).unwrap();
    let db = rusqlite::Connection::open(idx.join("catalog.sqlite")).unwrap();
    db.execute(
        "UPDATE meta SET value = 'kifview-collection-2' WHERE key = 'format'",
        [],
    )
    .unwrap();
    drop(db);
    let out = index_cli(&[&coll], &idx);
    let err = common::stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("rebuilt") && err.contains("another version"),
        "{err}"
    );
    assert!(marker.is_file());
    assert_eq!(start_count(&idx), 4);
    // No segment of the old index is left: the old catalog named them.
    assert!(
        names(&idx).iter().filter(|n| n.starts_with("pos-")).count() == 1,
        "{:?}",
        names(&idx)
    );
}
