//! `kifview match --openings-from FILTER --ply N` (the positions an index's games reach) and
//! `--book BOOK --ply N --seed S` (walks through a book drawn by count): each opening played
//! twice with colours swapped, its moves in the records untimed, its source in 開始局面.

use super::match_cli::{config, kifview, records, run_match};
use kifview::core::record::Record;
use std::path::Path;

/// The first `n` moves of a record's main line, as USI.
fn first_moves(r: &Record, n: usize) -> Vec<String> {
    r.main_line()[1..=n]
        .iter()
        .map(|&id| r.node(id).move_data().unwrap().mv.usi())
        .collect()
}

/// A round's two games start from the same opening, with the engines' colours swapped and
/// no time spent on the opening's moves.
fn assert_pairs(out: &Path, ply: usize) -> Vec<(String, Vec<String>)> {
    let recs = records(out);
    let mut openings = Vec::new();
    for pair in recs.chunks(2) {
        let [(n1, r1), (n2, r2)] = pair else {
            panic!("unpaired records")
        };
        assert_eq!(first_moves(r1, ply), first_moves(r2, ply), "{n1} {n2}");
        assert_eq!(r1.header.black_name(), r2.header.white_name());
        for r in [r1, r2] {
            for &id in &r.main_line()[1..=ply] {
                assert_eq!(r.node(id).time.map(|t| t.spent_ms), Some(0), "{n1}");
            }
        }
        openings.push((
            r1.header.get("開始局面").unwrap().to_string(),
            first_moves(r1, ply),
        ));
    }
    openings
}

#[test]
fn openings_from_an_index_are_the_positions_its_filtered_games_reach_at_the_ply() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let games = dir.path().join("collection");
    std::fs::create_dir(&games).unwrap();
    let csa = |black: &str, white: &str, moves: &str| {
        format!("V2.2\nN+{black}\nN-{white}\nPI\n+\n{moves}%TORYO\n")
    };
    // alice's two games reach two positions at ply 2 (the same one twice in one of them);
    // carol's game is one move short of it.
    let files = [
        ("a1.csa", csa("alice", "bob", "+7776FU\n-3334FU\n+2726FU\n")),
        ("a2.csa", csa("bob", "alice", "+7776FU\n-3334FU\n")),
        ("a3.csa", csa("alice", "dave", "+2726FU\n-3334FU\n")),
        ("c1.csa", csa("carol", "dave", "+7776FU\n")),
    ];
    for (name, text) in &files {
        std::fs::write(games.join(name), text).unwrap();
    }
    let idx = dir.path().join("idx");
    let o = kifview()
        .arg("index")
        .arg(&games)
        .arg("--index")
        .arg(&idx)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.path().join("games");
    let json = run_match(
        &cfg,
        &out,
        &[
            "--engine",
            "strong",
            "--engine",
            "weak",
            "--rounds",
            "2",
            "--tc",
            "30+0.1",
            "--openings-from",
            "player:alice",
            "--ply",
            "2",
            "--index",
            idx.to_str().unwrap(),
        ],
    );
    assert_eq!(json["games"], 4, "{json}");
    let mut openings: Vec<Vec<String>> =
        assert_pairs(&out, 2).into_iter().map(|(_, m)| m).collect();
    openings.sort();
    assert_eq!(
        openings,
        [["2g2f", "3c3d"], ["7g7f", "3c3d"]].map(|v| v.map(String::from).to_vec())
    );
    // No game of carol's reaches move 2: refused before any game, saying so.
    let o = kifview()
        .args(["match", "--config"])
        .arg(&cfg)
        .args(["--engine", "strong", "--engine", "weak", "--ply", "2"])
        .args(["--openings-from", "player:carol", "--index"])
        .arg(&idx)
        .arg("--out")
        .arg(dir.path().join("none"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("none of the 1 games") && err.contains("move 2"),
        "{err}"
    );
}

#[test]
fn book_openings_are_walks_of_the_book_repeated_by_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    // A YaneuraOu book: 7g7f (count 3) or 2g2f (count 1) at the start; 3c3d after 7g7f,
    // 8c8d after 2g2f.
    let book = dir.path().join("book.db");
    std::fs::write(
        &book,
        "#YANEURAOU-DB2016 1.00\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
         7g7f none 0 0 3\n2g2f none 0 0 1\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
         3c3d none 0 0 1\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2\n\
         8c8d none 0 0 1\n",
    )
    .unwrap();
    let play = |out: &Path, seed: &str| {
        run_match(
            &cfg,
            out,
            &[
                "--engine",
                "strong",
                "--engine",
                "weak",
                "--rounds",
                "4",
                "--tc",
                "30+0.1",
                "--book",
                book.to_str().unwrap(),
                "--ply",
                "2",
                "--seed",
                seed,
            ],
        );
        assert_pairs(out, 2)
    };
    let first = play(&dir.path().join("s5"), "5");
    assert_eq!(first.len(), 4);
    for (label, moves) in &first {
        assert!(
            moves == &["7g7f", "3c3d"] || moves == &["2g2f", "8c8d"],
            "{moves:?}"
        );
        assert!(
            label.starts_with("book.db (seed 5, round ") && label.ends_with(&moves.join(" ")),
            "{label}"
        );
    }
    assert_eq!(play(&dir.path().join("again"), "5"), first);
}
