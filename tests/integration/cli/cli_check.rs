//! `kifview check` over many files and folders (`-r`), its summary and exit status, and batch
//! commands pointed at a folder that holds no record.

use crate::common::asset;
use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

/// A folder of one clean record, one with an illegal move and a damaged line, one unreadable
/// file and one file that is not a record at all.
fn folder(dir: &Path) {
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::copy(asset("study.kif"), dir.join("study.kif")).unwrap();
    std::fs::write(
        dir.join("sub/bad.kifu"),
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五歩(57)\n",
    )
    .unwrap();
    std::fs::write(dir.join("x.csa"), b"\x7fELF\x02\x01\x01\0\0\0\0\0").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a record").unwrap();
}

#[test]
fn check_r_walks_a_folder_and_ends_with_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path());
    let out = kifview()
        .args(["check", "-r"])
        .arg(dir.path())
        .assert()
        .code(1);
    let o = out.get_output();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    // The move named as a player writes it, on its line.
    assert!(
        stdout.contains("bad.kifu:5: move 3 (▲５五歩(57)) is illegal"),
        "{stdout}"
    );
    assert!(stdout.contains("x.csa: not a record"), "{stdout}");
    assert!(!stdout.contains("notes.txt"), "{stdout}");
    assert!(
        stderr
            .trim_end()
            .ends_with("checked 3 files: 1 clean, 1 with warnings, 1 unreadable"),
        "{stderr}"
    );
    // A folder without -r is a usage error that says what to do.
    kifview()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use -r to check"));
}

#[test]
fn check_of_several_files_without_r_ends_with_a_summary_one_file_does_not() {
    kifview()
        .arg("check")
        .arg(asset("study.kif"))
        .arg(asset("tsume.kifu"))
        .assert()
        .success()
        .stdout("")
        .stderr("checked 2 files: 2 clean, 0 with warnings, 0 unreadable\n");
    kifview()
        .arg("check")
        .arg(asset("study.kif"))
        .assert()
        .success()
        .stdout("")
        .stderr("");
}

#[test]
fn check_sorts_a_files_messages_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("two.kifu");
    // A damaged header line (2) after which an illegal move (5) is found; the reader weighs
    // the move first, check lists them in file order.
    std::fs::write(
        &f,
        "手合割：平手\n開始日時：きのう\x01\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ５五歩(53)\n   3 ２二角成(88)\n   4 同　角(31)\n",
    )
    .unwrap();
    let out = kifview().arg("check").arg(&f).assert().code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<usize> = stdout
        .lines()
        .map(|l| {
            let rest = l.split_once("two.kifu:").expect("FILE:LINE").1;
            rest.split(':')
                .next()
                .unwrap()
                .parse()
                .expect("a line number")
        })
        .collect();
    assert!(lines.len() >= 2, "{stdout}");
    assert!(lines.is_sorted(), "{stdout}");
}

#[test]
fn a_folder_with_no_record_files_is_said_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(empty.join("deeper")).unwrap();
    std::fs::write(empty.join("notes.txt"), "not a record").unwrap();
    for cmd in ["check", "convert"] {
        let mut c = kifview();
        c.args([cmd, "-r"]).arg(&empty);
        if cmd == "convert" {
            c.args(["--to", "csa", "--out-dir"])
                .arg(dir.path().join("out"));
        }
        c.assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(
                "empty: no record files in it or under it",
            ));
    }
    assert!(!dir.path().join("out").exists());
    // Beside a folder that has records, the empty one is named and the rest is done.
    let full = dir.path().join("full");
    folder(&full);
    std::fs::remove_file(full.join("x.csa")).unwrap();
    std::fs::remove_file(full.join("sub/bad.kifu")).unwrap();
    kifview()
        .args(["check", "-r"])
        .arg(&empty)
        .arg(&full)
        .assert()
        .success()
        .stderr(predicate::str::contains("empty: no record files"))
        .stderr(predicate::str::contains(
            "checked 1 file: 1 clean, 0 with warnings, 0 unreadable",
        ));
}

#[test]
fn csa_ki2_and_jkf_messages_name_moves_as_the_file_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let csa = dir.path().join("a.csa");
    std::fs::write(&csa, "V2.2\nPI\n+\n+7776FU\n-3334FU\n+5755FU\n").unwrap();
    let ki2 = dir.path().join("b.ki2");
    std::fs::write(
        &ki2,
        "手合割：平手\n▲２六歩 △８四歩 ▲２五歩 △８五歩\n▲２四歩 △同歩 ▲同飛 △２三歩\n▲５五歩打 △１四歩 ▲９九角成\n",
    )
    .unwrap();
    let jkf = dir.path().join("c.jkf");
    let mv = |from: (u8, u8), to: (u8, u8), color: u8| {
        format!(
            r#"{{"move":{{"from":{{"x":{},"y":{}}},"to":{{"x":{},"y":{}}},"color":{color},"piece":"FU"}}}}"#,
            from.0, from.1, to.0, to.1
        )
    };
    std::fs::write(
        &jkf,
        format!(
            r#"{{"header":{{}},"initial":{{"preset":"HIRATE"}},"moves":[{{}},{},{},{}]}}"#,
            mv((7, 7), (7, 6), 0),
            mv((3, 3), (3, 4), 1),
            mv((5, 7), (5, 5), 0)
        ),
    )
    .unwrap();
    let out = kifview()
        .arg("check")
        .arg(&csa)
        .arg(&ki2)
        .arg(&jkf)
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let expected = [
        "a.csa:6: move 3 (+5755FU) is illegal: the piece cannot move there",
        "b.ki2:4: move 9 (▲５五歩打) is illegal: 二歩 (two unpromoted pawns on one file)",
        "b.ki2:4: move 11 (▲９九角成): no 角 of the side to move can go to ９九; the rest of this line of play is skipped",
        "c.jkf: moves[3]: move 3 (▲５五歩(57)) is illegal: the piece cannot move there",
    ];
    for e in expected {
        assert!(stdout.contains(e), "expected {e:?} in:\n{stdout}");
    }
    // Never USI's squares (5g5e). The temporary folder's random name may hold "5e": look at
    // the messages only.
    let messages = stdout.replace(&dir.path().display().to_string(), "DIR");
    assert!(!messages.contains("5e"), "{stdout}");
}
