//! Copies of one game in several files and formats (issue 35): found at index time, counted
//! once by `games`, `find` and `explore`, listed by `games --duplicates`; the copy counted is
//! the one with the most information.

#[path = "../../../benches/support/collgen.rs"]
#[allow(clippy::duplicate_mod)]
mod collgen;

use assert_cmd::Command;
use collgen::Rng;
use kifview::core::notation::Format;
use serde_json::{Value, json};
use std::path::Path;

use crate::common;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

fn run(args: &[&str], idx: &Path) -> std::process::Output {
    let out = kifview()
        .args(args)
        .arg("--index")
        .arg(idx)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    out
}

fn json_lines(out: &std::process::Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

fn index(coll: &Path, idx: &Path) {
    let out = kifview()
        .arg("index")
        .arg(coll)
        .arg("--index")
        .arg(idx)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
}

fn canon(dir: &Path, rel: &str) -> String {
    std::fs::canonicalize(dir.join(rel))
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// Three games, each in KIF, CSA and KI2 (the KIF of the second with a comment: the copy with
/// the most information), and a near miss: the first game's moves between other players.
fn write(dir: &Path) {
    let mut rng = Rng(0x5eed_d0b1e);
    for i in 0..3 {
        let mut g = collgen::game(&mut rng, 12);
        for (ext, f, sjis) in [
            ("ki2", Format::Ki2, true),
            ("csa", Format::Csa, false),
            ("kif", Format::Kif, true),
        ] {
            if i == 1 && ext == "kif" {
                let first = g.main_line()[1];
                g.node_mut(first).comment = "*研究: ここで▲２六歩もある。".into();
            }
            let p = dir.join(ext).join(format!("g{i}.{ext}"));
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, collgen::bytes(&g, f, sjis)).unwrap();
        }
        if i == 0 {
            g.header.set("先手", "別人一号");
            g.header.set("後手", "別人二号");
            std::fs::write(
                dir.join("other.kif"),
                collgen::bytes(&g, Format::Kif, false),
            )
            .unwrap();
        }
    }
}

#[test]
fn the_same_games_copied_in_kif_csa_and_ki2_count_once() {
    let coll = tempfile::tempdir().unwrap();
    let idx = tempfile::tempdir().unwrap();
    write(coll.path());
    index(coll.path(), &idx.path().join("i"));
    let idx = idx.path().join("i");
    let c = |rel: &str| canon(coll.path(), rel);

    // Counted once: the first indexed copy (csa/ sorts first), but the commented KIF of g1.
    let games = json_lines(&run(&["games", "--json"], &idx));
    let mut paths: Vec<&str> = games.iter().map(|g| g["path"].as_str().unwrap()).collect();
    paths.sort();
    let mut want = vec![
        c("csa/g0.csa"),
        c("kif/g1.kif"),
        c("csa/g2.csa"),
        c("other.kif"),
    ];
    want.sort();
    assert_eq!(paths, want);

    let found = json_lines(&run(&["find", "--json", "--position", "startpos"], &idx));
    assert_eq!(found.len(), 4, "{found:?}");
    let explored = json_lines(&run(&["explore", "--json", "--position", "startpos"], &idx));
    assert_eq!(explored[0]["games"], 4);
    let moves: u64 = explored[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["games"].as_u64().unwrap())
        .sum();
    assert_eq!(moves, 4);
    // A filter passes only the copies counted: under kif/, the commented g1 alone.
    let kif = coll.path().join("kif").to_string_lossy().into_owned();
    let under = json_lines(&run(&["games", "--json", "--under", &kif], &idx));
    assert_eq!(under.len(), 1, "{under:?}");
    assert_eq!(under[0]["path"], c("kif/g1.kif"));

    // Listed: one line per copy not counted, exactly the contract's keys.
    let dups = json_lines(&run(&["games", "--duplicates", "--json"], &idx));
    let at = |p: String| json!({"path": p, "record": 1});
    let mut want = vec![
        json!({"path": c("ki2/g0.ki2"), "record": 1, "same_as": at(c("csa/g0.csa"))}),
        json!({"path": c("kif/g0.kif"), "record": 1, "same_as": at(c("csa/g0.csa"))}),
        json!({"path": c("csa/g1.csa"), "record": 1, "same_as": at(c("kif/g1.kif"))}),
        json!({"path": c("ki2/g1.ki2"), "record": 1, "same_as": at(c("kif/g1.kif"))}),
        json!({"path": c("ki2/g2.ki2"), "record": 1, "same_as": at(c("csa/g2.csa"))}),
        json!({"path": c("kif/g2.kif"), "record": 1, "same_as": at(c("csa/g2.csa"))}),
    ];
    want.sort_by_key(|v| v["path"].as_str().unwrap().to_string());
    assert_eq!(dups, want);
    let text = String::from_utf8(run(&["games", "--duplicates"], &idx).stdout).unwrap();
    assert!(text.ends_with("6 duplicate(s), not counted\n"), "{text}");
    assert!(
        text.contains(&format!(
            "{}\n  same as {}\n",
            c("csa/g1.csa"),
            c("kif/g1.kif")
        )),
        "{text}"
    );

    // The copy counted gone: another copy is counted in its place.
    std::fs::remove_file(coll.path().join("kif/g1.kif")).unwrap();
    index(coll.path(), &idx);
    let games = json_lines(&run(&["games", "--json"], &idx));
    assert_eq!(games.len(), 4);
    assert!(
        games.iter().any(|g| g["path"] == c("csa/g1.csa")),
        "{games:?}"
    );
    let dups = json_lines(&run(&["games", "--duplicates", "--json"], &idx));
    assert_eq!(dups.len(), 5);
}

/// Two copies of one game with as much in each: the copy counted is the first by path, not
/// the first indexed, so that an index updated run by run answers as one built from scratch
/// (issue 31: what `scripts/faults/kill_loop.py` checks after every finished update). Before,
/// the updated index named `b.kif` (indexed first) where the scratch one named `a.kif`: the
/// kill -9 loop's finished updates differed from scratch on such pairs.
#[test]
fn the_copy_counted_is_the_same_whatever_order_the_copies_were_indexed_in() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    let game = "手合割：平手\n先手：甲\n後手：乙\n手数----指手---------消費時間--\n\
                1 ７六歩(77)\n2 ３四歩(33)\n3 投了\n";
    std::fs::write(coll.join("b.kif"), game).unwrap();
    let step = dir.path().join("step");
    index(&coll, &step);
    std::fs::write(coll.join("a.kif"), game).unwrap();
    index(&coll, &step);
    let scratch = dir.path().join("scratch");
    index(&coll, &scratch);
    let find = |idx: &Path| json_lines(&run(&["find", "--json", "--position", "startpos"], idx));
    let (got, want) = (find(&step), find(&scratch));
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        want[0]["path"].as_str().unwrap().ends_with("/coll/a.kif"),
        "{want:?}"
    );
    assert_eq!(got, want);
}
