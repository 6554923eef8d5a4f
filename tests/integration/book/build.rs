//! `kifview book build`: its counts are the explorer's (`kifview explore --json`) for the same
//! games and filter, from the index and from the files alike; values come from the analysis
//! comments in the mover's view; an existing file is never replaced without `--force`.

// The generator `collection::index` uses too: one module per test file, as each stands alone.
#[path = "../../../benches/support/collgen.rs"]
#[allow(clippy::duplicate_mod)]
mod collgen;

use assert_cmd::Command;
use collgen::Rng;
use kifview::book::{self, Lookup};
use kifview::collection::{Filter, Index};
use kifview::core::notation::Format;
use kifview::core::rules::Position;
use serde_json::Value;
use std::path::Path;

use crate::common;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

/// A collection of generated games (shared openings, transpositions) and one analysed game.
fn collection(root: &Path) {
    let mut rng = Rng(0x5eed_b00c);
    for i in 0..30 {
        let g = collgen::game(&mut rng, 14);
        let (ext, f) = if i % 2 == 0 {
            ("kif", Format::Kif)
        } else {
            ("csa", Format::Csa)
        };
        std::fs::write(
            root.join(format!("g{i:02}.{ext}")),
            collgen::bytes(&g, f, i % 3 == 0),
        )
        .unwrap();
    }
    std::fs::write(
        root.join("analysed.kif"),
        "先手：解析 太郎\n後手：相手\n手合割：平手\n手数----指手---------消費時間--\n\
         1 ７六歩(77)\n*互角\n*#評価値=48\n*#深さ=18\n2 ３四歩(33)\n*#評価値=-120\n*#深さ=9\n\
         3 ２六歩(27)\n4 投了\n",
    )
    .unwrap();
}

fn build(args: &[&str], out: &Path) -> std::process::Output {
    kifview()
        .args(["book", "build"])
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

fn read(p: &Path) -> book::Book {
    book::read_file(p).expect("the book reads back").book
}

/// Every position of `b`: its moves' counts are exactly what the explorer counts there for
/// `filter` (the explorer's list may hold more moves: those played outside the plies).
fn same_counts_as_explorer(b: &book::Book, idx: &Index, filter: &Filter) -> usize {
    let mut checked = 0;
    for (key, entry) in b.iter() {
        let pos = Position::from_sfen(&format!("{key} 1")).unwrap();
        let explored = idx.explore(&pos, filter).unwrap();
        for m in &entry.moves {
            let there = explored.moves.iter().find(|e| e.usi == m.usi.usi());
            assert_eq!(
                there.map(|e| e.games),
                Some(m.count),
                "{key}: {}",
                m.usi.usi()
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn counts_are_the_explorers_from_the_index_and_from_the_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (coll, idx_dir) = (tmp.path().join("coll"), tmp.path().join("idx"));
    std::fs::create_dir(&coll).unwrap();
    collection(&coll);
    let out = kifview()
        .arg("index")
        .arg(&coll)
        .arg("--index")
        .arg(&idx_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let idx = Index::open(&idx_dir).unwrap();

    let from_index = tmp.path().join("idx.db");
    let out = build(&["--index", idx_dir.to_str().unwrap()], &from_index);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    assert!(
        common::stderr_of(&out).contains("31 game(s)"),
        "{}",
        common::stderr_of(&out)
    );
    let bi = read(&from_index);
    assert!(same_counts_as_explorer(&bi, &idx, &Filter::default()) > 100);

    // The same games read from the files: the same book.
    let from_files = tmp.path().join("files.db");
    let out = build(&[coll.to_str().unwrap()], &from_files);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    assert_eq!(
        std::fs::read_to_string(&from_files).unwrap(),
        std::fs::read_to_string(&from_index).unwrap()
    );

    // A filter: the explorer's counts under the same filter.
    let filtered = tmp.path().join("sato.db");
    let out = build(
        &["--index", idx_dir.to_str().unwrap(), "--player", "佐藤"],
        &filtered,
    );
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let bf = read(&filtered);
    let sato = Filter::parse("player:佐藤").unwrap();
    assert!(same_counts_as_explorer(&bf, &idx, &sato) > 0);
    assert!(bf.move_count() < bi.move_count());

    // And `kifview explore --json` itself, at the start and after 7g7f.
    for (usi_line, key) in [
        ("startpos", book::key_of(&Position::startpos())),
        (
            "startpos moves 7g7f",
            book::key("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -").unwrap(),
        ),
    ] {
        let out = kifview()
            .args(["explore", "--json", "--position", usi_line, "--index"])
            .arg(&idx_dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", common::stderr_of(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut explored: Vec<(String, u64)> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["usi"].as_str().unwrap().to_string(),
                    m["games"].as_u64().unwrap(),
                )
            })
            .collect();
        let mut ours: Vec<(String, u64)> = bi
            .moves(&key)
            .unwrap()
            .iter()
            .map(|m| (m.usi.usi(), m.count))
            .collect();
        explored.sort();
        ours.sort();
        assert_eq!(ours, explored, "{usi_line}");
    }
}

#[test]
fn values_plies_side_and_existing_files() {
    let tmp = tempfile::tempdir().unwrap();
    let coll = tmp.path().join("coll");
    std::fs::create_dir(&coll).unwrap();
    collection(&coll);
    let out_path = tmp.path().join("b.db");
    let out = build(
        &[
            coll.join("analysed.kif").to_str().unwrap(),
            "--plies",
            "1-2",
        ],
        &out_path,
    );
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let b = read(&out_path);
    assert_eq!(b.len(), 2, "moves 1 and 2 only");
    let start = b.moves(&book::key_of(&Position::startpos())).unwrap();
    assert_eq!(
        (
            start[0].usi.usi(),
            start[0].value,
            start[0].depth,
            start[0].count
        ),
        ("7g7f".to_string(), Some(48), 18, 1)
    );
    let mut p = Position::startpos();
    p.play(kifview::core::rules::Move::from_usi("7g7f").unwrap())
        .unwrap();
    let reply = b.moves(&book::key_of(&p)).unwrap();
    // Sente's −120 after 3c3d is gote's +120.
    assert_eq!((reply[0].value, reply[0].depth), (Some(120), 9));

    // A file already there stays unless --force.
    std::fs::write(&out_path, "mine\n").unwrap();
    let out = build(&[coll.to_str().unwrap()], &out_path);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stderr_of(&out).contains("--force"),
        "{}",
        common::stderr_of(&out)
    );
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), "mine\n");
    let out = build(
        &[coll.to_str().unwrap(), "--force", "--side", "gote"],
        &out_path,
    );
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let g = read(&out_path);
    assert!(g.iter().all(|(k, _)| k.contains(" w ")));

    // Bad usage: filters with files, a bad range.
    let out = build(
        &[coll.to_str().unwrap(), "--player", "x"],
        &tmp.path().join("c.db"),
    );
    assert_eq!(out.status.code(), Some(2));
    let out = build(
        &[coll.to_str().unwrap(), "--plies", "9-3"],
        &tmp.path().join("c.db"),
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_existing_book_is_refused_before_any_game_is_read() {
    // Without --force, a book already at the output is said at once: the build (seconds on a
    // large index) is not run only to be thrown away. The bad file would be named if it were.
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    std::fs::create_dir(&games).unwrap();
    collection(&games);
    std::fs::write(games.join("bad.kif"), "手数----指手--\n   1 ９九王(11)\n").unwrap();
    let out_path = tmp.path().join("b.db");
    std::fs::write(&out_path, "mine\n").unwrap();
    let out = build(&[games.to_str().unwrap()], &out_path);
    let err = common::stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("b.db: exists: not replaced (--force replaces it)"),
        "{err}"
    );
    assert!(!err.contains("bad.kif"), "no game was read: {err}");
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), "mine\n");
    // The bad file is named when the build runs.
    let out = build(&[games.to_str().unwrap()], &tmp.path().join("new.db"));
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    assert!(
        common::stderr_of(&out).contains("bad.kif"),
        "{}",
        common::stderr_of(&out)
    );
}
