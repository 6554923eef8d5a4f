//! What a new user tripped over in the collection (issue 35): `explore` in Japanese notation,
//! and the library's and the games list's behaviour a user sees.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

use crate::common;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

/// Three games from the start: two open ７六歩, one ２六歩.
fn small_collection(coll: &Path) {
    std::fs::create_dir_all(coll).unwrap();
    let head = "先手：甲\n後手：乙\n手数----指手---------消費時間--\n";
    for (name, moves) in [
        ("a.kif", "1 ７六歩(77)\n2 ３四歩(33)\n3 投了\n"),
        ("b.kif", "1 ７六歩(77)\n2 投了\n"),
        ("c.kif", "1 ２六歩(27)\n2 投了\n"),
    ] {
        std::fs::write(coll.join(name), format!("手合割：平手\n{head}{moves}")).unwrap();
    }
}

fn indexed() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    small_collection(&coll);
    let idx = dir.path().join("idx");
    let out = kifview()
        .arg("index")
        .arg(&coll)
        .arg("--index")
        .arg(&idx)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    (dir, idx)
}

fn explore(idx: &Path, extra: &[&str]) -> String {
    explore_at(idx, "startpos", extra)
}

fn explore_at(idx: &Path, position: &str, extra: &[&str]) -> String {
    let out = kifview()
        .args(["explore", "--position", position, "--index"])
        .arg(idx)
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn explore_prints_moves_in_japanese_by_default_and_usi_when_asked() {
    let (_dir, idx) = indexed();
    let ja = explore(&idx, &[]);
    let rows: Vec<&str> = ja.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{ja}");
    assert!(rows[0].starts_with("▲７六歩 "), "{ja}");
    assert!(rows[1].starts_with("▲２六歩 "), "{ja}");
    assert!(!ja.contains("7g7f"), "{ja}");
    // The columns line up whatever the notation: the counts end in the same column.
    let games_end = |l: &str| {
        use unicode_width::UnicodeWidthStr;
        let count = l.split_whitespace().nth(1).unwrap();
        let end = l.find(count).unwrap() + count.len();
        l[..end].width()
    };
    assert_eq!(games_end(rows[0]), games_end(rows[1]), "{ja}");
    assert_eq!(
        games_end(rows[0]),
        games_end(ja.lines().nth(1).unwrap()),
        "{ja}"
    );
    let usi = explore(&idx, &["--notation", "usi"]);
    assert!(usi.lines().nth(2).unwrap().starts_with("7g7f "), "{usi}");
    assert!(!usi.contains('▲'), "{usi}");
    // The same numbers either way.
    let nums = |t: &str| -> Vec<String> {
        t.lines()
            .skip(2)
            .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(nums(&ja), nums(&usi));
    // A notation that is not one is refused, naming the ones there are.
    let out = kifview()
        .args([
            "explore",
            "--position",
            "startpos",
            "--notation",
            "kif",
            "--index",
        ])
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr_of(&out).contains("ja"),
        "{}",
        common::stderr_of(&out)
    );
}

#[test]
fn explore_json_keeps_usi_and_adds_japanese() {
    let (_dir, idx) = indexed();
    for extra in [&[][..], &["--notation", "usi"][..]] {
        let mut args = vec!["--json"];
        args.extend_from_slice(extra);
        let v: Value = serde_json::from_str(explore(&idx, &args).trim()).unwrap();
        assert_eq!(v["games"], 3);
        assert_eq!(v["moves"][0]["usi"], "7g7f", "{v}");
        assert_eq!(v["moves"][0]["ja"], "▲７六歩", "{v}");
        assert_eq!(v["moves"][0]["games"], 2, "{v}");
        assert_eq!(v["moves"][1]["ja"], "▲２六歩", "{v}");
    }
    // After a move, gote's moves are marked △.
    let v: Value =
        serde_json::from_str(explore_at(&idx, "startpos moves 7g7f", &["--json"]).trim()).unwrap();
    assert_eq!(v["moves"][0]["ja"], "△３四歩", "{v}");
}

/// The 手数 column marks its sort as the others do (its head filled its four cells, and the
/// mark was cut).
#[test]
fn the_moves_column_shows_its_sort_mark() {
    use super::library::{library, text};
    use crate::common::press;
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    // 日付 → 先手 → 後手 → 棋戦 → 結果 → 手数.
    press(&mut v, "sssss");
    v.app.library_settle();
    assert_eq!(
        v.app.library().unwrap().sort(),
        (kifview::collection::SortBy::Moves, false)
    );
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        let shown = text(&mut v, w, h);
        assert!(shown.contains("手数▲"), "{w}x{h}:\n{shown}");
    }
    press(&mut v, "S");
    v.app.library_settle();
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("手数▼"), "{shown}");
    // The counts still line up under their head, right-aligned.
    let rows: Vec<&str> = shown.lines().collect();
    let head = rows.iter().position(|r| r.contains("手数▼")).unwrap();
    insta::assert_snapshot!("library_by_moves_80x24", rows[head..head + 6].join("\n"));
}
