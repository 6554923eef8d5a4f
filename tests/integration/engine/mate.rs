//! `kifview mate` and positions the rules say cannot arise: refused with the reasons (exit 2)
//! before any engine is asked, searched only with `--force`.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A USI engine that writes each `position` it is sent to `log` and answers every `go mate`
/// with `checkmate nomate`.
fn logging_engine(dir: &Path, log: &Path) -> String {
    let p = dir.join("fake-mate.sh");
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\nwhile read l; do case $l in usi) echo 'id name FakeMate'; echo usiok;; isready) echo readyok;; position*) echo \"$l\" >> '{}';; go*) echo 'checkmate nomate';; quit) exit 0;; esac; done\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.display().to_string()
}

#[test]
fn positions_that_cannot_arise_are_refused_with_the_reasons() {
    let d = tempfile::tempdir().unwrap();
    let log = d.path().join("sent.log");
    let engine = logging_engine(d.path(), &log);
    let cases = [
        (
            "nifu.sfen",
            "sfen 4k4/9/4P4/4P4/9/9/9/9/9 b G 1\n",
            "二歩: sente has 2 pawns on file 5",
        ),
        (
            "pawn.sfen",
            "sfen P3k4/9/4P4/9/9/9/9/9/9 b G 1\n",
            "行き所のない駒: sente's 歩 on ９一 can never move",
        ),
        (
            "lance.sfen",
            "sfen 4k4/9/4P4/9/9/9/9/9/4l4 b G 1\n",
            "行き所のない駒: gote's 香 on ５九 can never move",
        ),
        (
            "knight.sfen",
            "sfen 4k4/N8/4P4/9/9/9/9/9/9 b G 1\n",
            "行き所のない駒: sente's 桂 on ９二 can never move",
        ),
        (
            "pieces.sfen",
            "sfen 4k4/9/4P4/9/9/9/9/9/9 b 5G 1\n",
            "line 1: too many pieces: 5 KI on the board and in the hands, but the set has 4",
        ),
        (
            "nokings.sfen",
            "sfen 9/9/4P4/9/9/9/9/9/9 b G 1\n",
            "gote has no king",
        ),
        (
            "check.sfen",
            "sfen 4k4/4R4/9/9/9/9/9/9/4K4 b - 1\n",
            "gote is in check but it is sente's turn",
        ),
    ];
    for (name, text, why) in cases {
        let f = write(d.path(), name, text);
        kifview()
            .args(["mate", "--time", "1", "--engine", &engine])
            .arg(&f)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "{name}: the start position cannot arise in a game: {why}"
            )))
            .stderr(predicate::str::contains("--force"));
    }
    assert!(!log.exists(), "nothing was sent to the engine");
}

#[test]
fn force_sends_the_position_and_still_names_what_is_wrong() {
    let d = tempfile::tempdir().unwrap();
    let log = d.path().join("sent.log");
    let engine = logging_engine(d.path(), &log);
    let f = write(
        d.path(),
        "nifu.sfen",
        "sfen 4k4/9/4P4/4P4/9/9/9/9/9 b G 1\n",
    );
    kifview()
        .args(["mate", "--force", "--time", "1", "--engine", &engine])
        .arg(&f)
        .assert()
        .success()
        .stdout("不詰\n")
        .stderr(predicate::str::contains(
            "二歩: sente has 2 pawns on file 5",
        ))
        .stderr(predicate::str::contains("sent anyway (--force)"));
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains("4k4/9/4P4/4P4/9/9/9/9/9 b G"), "{sent}");
}

#[test]
fn a_position_a_game_reaches_is_searched_without_a_word() {
    // A tsume problem without sente's king is a position the rules allow a problem.
    let d = tempfile::tempdir().unwrap();
    let log = d.path().join("sent.log");
    let engine = logging_engine(d.path(), &log);
    let f = write(d.path(), "tsume.sfen", "sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1\n");
    kifview()
        .args(["mate", "--time", "1", "--engine", &engine])
        .arg(&f)
        .assert()
        .success()
        .stdout("不詰\n")
        .stderr("");
    // After moves of a game (the position searched is the one after --ply).
    let game = write(
        d.path(),
        "g.kifu",
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n",
    );
    kifview()
        .args(["mate", "--ply", "2", "--time", "1", "--engine", &engine])
        .arg(&game)
        .assert()
        .success()
        .stderr("");
}
