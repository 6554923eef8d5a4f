//! The command-line contract: `convert`, `show`, `check`, `completions`, exit codes.

use crate::common::asset;
use assert_cmd::Command;
use kifview::core::notation;
use predicates::prelude::*;
use std::path::Path;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

fn main_line_usi(path: &Path) -> Vec<String> {
    let l = notation::load(&std::fs::read(path).unwrap(), Some(path));
    let r = &l.records[0].record;
    r.main_line()
        .into_iter()
        .filter_map(|n| r.node(n).move_data().map(|m| m.mv.usi()))
        .collect()
}

#[test]
fn convert_to_csa_on_stdout() {
    kifview()
        .args(["convert"])
        .arg(asset("study.kif"))
        .args(["--to", "csa"])
        .assert()
        .success()
        .stdout(predicate::str::contains("N+佐藤 一郎"))
        .stdout(predicate::str::contains("+7776FU"))
        .stdout(predicate::str::contains("%TORYO"))
        // CSA cannot hold the variations and bookmarks: said on stderr.
        .stderr(predicate::str::contains("variation"));
}

#[test]
fn convert_to_file_by_extension_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["kifu", "kif", "csa"] {
        let out = dir.path().join(format!("study.{ext}"));
        kifview()
            .arg("convert")
            .arg(asset("study.kif"))
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        assert_eq!(
            main_line_usi(&out),
            main_line_usi(&asset("study.kif")),
            "{ext}"
        );
    }
    // .kif is Shift_JIS by default, .kifu UTF-8.
    let kif = std::fs::read(dir.path().join("study.kif")).unwrap();
    assert!(std::str::from_utf8(&kif).is_err());
    let kifu = std::fs::read(dir.path().join("study.kifu")).unwrap();
    assert!(std::str::from_utf8(&kifu).is_ok());
}

#[test]
fn convert_usage_errors_exit_2() {
    kifview().args(["convert", "a.kif"]).assert().code(2);
    kifview()
        .args(["convert", "a.kif", "b.kif", "--to", "csa"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--out-dir"));
    kifview()
        .args(["convert", "a.kif", "-o", "out.txt"])
        .assert()
        .code(2);
    kifview().args(["convert", "--bogus"]).assert().code(2);
}

#[test]
fn one_failed_input_does_not_stop_the_others() {
    let dir = tempfile::tempdir().unwrap();
    kifview()
        .arg("convert")
        .arg(asset("study.kif"))
        .arg(dir.path().join("missing.kif"))
        .arg(asset("handicap-nimaiochi.kif"))
        .args(["--to", "csa", "--out-dir"])
        .arg(dir.path().join("out"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("missing.kif"))
        .stderr(predicate::str::contains("1 failed"));
    assert!(dir.path().join("out/study.csa").exists());
    assert!(dir.path().join("out/handicap-nimaiochi.csa").exists());
}

#[test]
fn unmappable_characters_are_named_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("mark.kifu");
    std::fs::write(
        &src,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*☗の好手\n",
    )
    .unwrap();
    let out = dir.path().join("mark.kif");
    kifview()
        .arg("convert")
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("☗"))
        .stderr(predicate::str::contains("U+2617"));
    assert!(!out.exists(), "nothing is written when a character is lost");
    // Asking for UTF-8 keeps it.
    kifview()
        .arg("convert")
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .args(["--encoding", "utf-8"])
        .assert()
        .success();
    assert!(std::fs::read_to_string(&out).unwrap().contains("☗の好手"));
}

#[test]
fn recursive_conversion_keeps_the_layout() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("in");
    std::fs::create_dir_all(src.join("a/b")).unwrap();
    std::fs::copy(asset("study.kif"), src.join("a/b/one.kif")).unwrap();
    std::fs::copy(asset("tsume.kifu"), src.join("a/two.kifu")).unwrap();
    std::fs::write(src.join("a/notes.txt"), "not a record").unwrap();
    kifview()
        .arg("convert")
        .arg(&src)
        .args(["-r", "--to", "csa", "--out-dir"])
        .arg(dir.path().join("out"))
        .assert()
        .success()
        .stderr(predicate::str::contains("converted 2 of 2 files"));
    assert!(dir.path().join("out/a/b/one.csa").exists());
    assert!(dir.path().join("out/a/two.csa").exists());
    assert!(!dir.path().join("out/a/notes.csa").exists());
    kifview()
        .arg("convert")
        .arg(&src)
        .args(["--to", "csa", "--out-dir"])
        .arg(dir.path().join("out2"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("-r"));
}

#[test]
fn show_prints_bod_and_sfen() {
    kifview()
        .arg("show")
        .arg(asset("study.kif"))
        .args(["--ply", "0", "--sfen"])
        .assert()
        .success()
        .stdout("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n");
    kifview()
        .arg("show")
        .arg(asset("study.kif"))
        .args(["--ply", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("  ９ ８ ７ ６ ５ ４ ３ ２ １"))
        .stdout(predicate::str::contains("|v香v桂v銀v金v玉v金v銀v桂v香|一"))
        .stdout(predicate::str::contains("| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六"))
        .stdout(predicate::str::contains("手数＝1"))
        .stdout(predicate::str::contains("７六歩"))
        .stdout(predicate::str::contains("後手番"));
    // The last position by default; the tsume's mate position.
    kifview()
        .arg("show")
        .arg(asset("tsume.kifu"))
        .arg("--sfen")
        .assert()
        .success()
        .stdout("7nk/7Gl/7P1/9/9/9/9/9/9 w 2r2b3g4s3n3l17p 2\n");
}

#[test]
fn check_reports_file_line_and_exit_code() {
    kifview()
        .arg("check")
        .arg(asset("study.kif"))
        .arg(asset("study.kifu"))
        .arg(asset("handicap-nimaiochi.kif"))
        .arg(asset("tsume.kifu"))
        .assert()
        .success()
        .stdout("");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.kifu");
    std::fs::write(
        &bad,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 ２二銀(31)\n   5 ５五角打\n",
    )
    .unwrap();
    // Move 5: Black has a bishop in hand after 2b? No: 8h2b+ took the bishop, and the
    // recapture took the horse, so Black holds a bishop; dropping on 5e is legal.
    kifview().arg("check").arg(&bad).assert().success();
    std::fs::write(
        &bad,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五歩(57)\n",
    )
    .unwrap();
    kifview()
        .arg("check")
        .arg(&bad)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("bad.kifu:5:"));
}

#[test]
fn completions_and_help() {
    kifview()
        .args(["completions", "bash"])
        .assert()
        .success()
        .stdout(predicate::str::contains("kifview"));
    for sub in ["convert", "show", "check"] {
        kifview()
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Examples:"));
    }
}

#[test]
fn check_never_prints_escape_sequences_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("evil.kifu");
    std::fs::write(
        &bad,
        "手合割：平手\n\x1b]52;c;aGk=\x07\x1b[2J garbage line\n手数----指手---------消費時間--\n   1 ７六歩(77)\n",
    )
    .unwrap();
    let out = kifview().arg("check").arg(&bad).assert().code(1);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("evil.kifu:2:"), "{stdout}");
    assert!(
        !stdout.contains('\x1b') && !stdout.contains('\x07'),
        "{stdout:?}"
    );
}
