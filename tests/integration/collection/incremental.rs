//! Issue 31: an index updated run by run answers as an index built from scratch of the same
//! files (what `scripts/faults/kill_loop.py` checks after every finished update).

use assert_cmd::Command;
use std::path::Path;
use std::time::Duration;

use crate::common;

fn kifview() -> Command {
    let mut c = Command::cargo_bin("kifview").expect("binary built");
    c.timeout(Duration::from_secs(120));
    c
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

fn find_start(idx: &Path) -> String {
    let out = kifview()
        .args(["find", "--json", "--position", "startpos", "--index"])
        .arg(idx)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// Two copies of one game with as much in each: the copy counted is the first by path, not
/// the first indexed, so that the answer does not depend on the order the files came in.
/// Before, the incremental index named `b.kif` (indexed first) where the scratch one named
/// `a.kif`: the kill -9 loop's finished updates differed from scratch on every such pair.
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
    let (got, want) = (find_start(&step), find_start(&scratch));
    assert_eq!(got.lines().count(), 1, "{got}");
    assert!(want.contains("/coll/a.kif"), "{want}");
    assert_eq!(got, want);
}
