//! `kifview book convert/merge/show/check` as a user runs them.

use assert_cmd::Command;
use std::path::Path;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/integration/book/fixtures")
        .join(name)
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn show_prints_the_documented_json_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let want = r#"{"moves":[{"usi":"2g2f","value":20,"depth":20,"count":5,"comment":null},{"usi":"7g7f","value":30,"depth":20,"count":12,"comment":null},{"usi":"5g5f","value":-10,"depth":20,"count":4,"comment":null}]}"#;
    let got = stdout(
        kifview()
            .args(["book", "show"])
            .arg(fixture("engine.db"))
            .args(["--position", "startpos", "--json"]),
    );
    assert_eq!(got.trim_end(), want);
    for (ext, want) in [
        (
            "bin",
            r#"{"usi":"2g2f","value":20,"depth":0,"count":5,"comment":null}"#,
        ),
        (
            "ybb",
            r#"{"usi":"2g2f","value":20,"depth":20,"count":0,"comment":null}"#,
        ),
        (
            "sbk",
            r#"{"usi":"2g2f","value":null,"depth":0,"count":5,"comment":null}"#,
        ),
    ] {
        let out = dir.path().join(format!("b.{ext}"));
        kifview()
            .args(["book", "convert"])
            .arg(fixture("engine.db"))
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        let got = stdout(kifview().args(["book", "show"]).arg(&out).args([
            "--position",
            "startpos",
            "--json",
        ]));
        assert!(
            got.starts_with(&format!("{{\"moves\":[{want},")),
            "{ext}: {got}"
        );
    }
}

#[test]
fn show_looks_up_the_mirrored_position_with_flipped() {
    // Gote to move at the start is not in the book; mirrored, it is sente's start.
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    let got = stdout(
        kifview()
            .args(["book", "show"])
            .arg(fixture("engine.db"))
            .args(["--sfen", sfen, "--json"]),
    );
    assert_eq!(got.trim_end(), r#"{"moves":[]}"#);
    let got = stdout(
        kifview()
            .args(["book", "show"])
            .arg(fixture("engine.db"))
            .args(["--sfen", sfen, "--json", "--flipped"]),
    );
    assert!(
        got.starts_with(r#"{"moves":[{"usi":"8c8d","value":20"#),
        "{got}"
    );
    let text = stdout(
        kifview()
            .args(["book", "show"])
            .arg(fixture("engine.db"))
            .args(["--position", "startpos moves 7g7f"]),
    );
    assert_eq!(
        text.lines().next().unwrap(),
        "8c8d   △８四歩(83)  value -40  depth 20  count 2"
    );
}

#[test]
fn convert_never_replaces_a_file_without_force_and_names_what_the_target_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book.bin");
    std::fs::write(&out, "not mine to lose").unwrap();
    let r = kifview()
        .args(["book", "convert"])
        .arg(fixture("engine.db"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("exists: not replaced (--force replaces it)")
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "not mine to lose");
    let r = kifview()
        .args(["book", "convert", "--force"])
        .arg(fixture("engine.db"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(r.status.success());
    let err = String::from_utf8_lossy(&r.stderr).to_string();
    assert!(
        err.contains("book.bin: the apery format cannot hold: "),
        "{err}"
    );
    assert!(
        err.contains("4 replies (ponder)") && err.contains("7 depths"),
        "{err}"
    );
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 16 * 7);
    let r = kifview()
        .args(["book", "convert"])
        .arg(fixture("engine.db"))
        .arg("-o")
        .arg(dir.path().join("x.txt"))
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2));
}

#[test]
fn merge_adds_counts_keeps_the_deeper_evaluation_and_joins_notes() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.db");
    let b = dir.path().join("b.db");
    std::fs::write(&a, "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 30 10 2\n#mine\n").unwrap();
    std::fs::write(&b, "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 50 20 3\n#theirs\n2g2f none 40 20 1\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n3c3d none 0 0 1\n").unwrap();
    let c = dir.path().join("c.db");
    let r = kifview()
        .args(["book", "merge"])
        .arg(&a)
        .arg(&b)
        .arg("-o")
        .arg(&c)
        .output()
        .unwrap();
    assert!(r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("b.db: 1 positions and 2 moves added"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&c).unwrap(),
        "#YANEURAOU-DB2016 1.00\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n3c3d none 0 0 1\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 50 20 5\n#mine\n#theirs\n2g2f none 40 20 1\n"
    );
}

#[test]
fn check_names_each_problem_and_exits_1_with_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.db");
    std::fs::write(&bad, "#YANEURAOU-DB2016 1.00\n\
        sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f 3c3d 0 0 1\n7g7e none 0 0 1\n\
        sfen 4k4/9/9/9/9/9/9/9/4K4 b PR 1\n5i5h none 0 0 1\n\
        sfen P3k4/9/9/9/9/9/9/9/4K4 b - 1\n5i5h none 0 0 1\n").unwrap();
    let r = kifview()
        .args(["book", "check"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    let out = String::from_utf8_lossy(&r.stdout).to_string();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].ends_with(":5: not sorted (this position line comes before the one above it in byte order): YaneuraOu's BookOnTheFly cannot find every position (kifview book convert writes it sorted)"), "{out}");
    assert!(
        lines[1].contains(":5: the SFEN is not written as YaneuraOu writes it"),
        "{out}"
    );
    assert!(out.contains(":2: sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -: 7g7e is illegal here"), "{out}");
    assert!(
        out.contains(":7: sfen P3k4/9/9/9/9/9/9/9/4K4 b -: a position that cannot arise"),
        "{out}"
    );
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("bad.db: 4 problems (3 positions, 4 moves)")
    );
    // The fixture is not sorted; what convert writes is clean.
    let r = kifview()
        .args(["book", "check"])
        .arg(fixture("engine.db"))
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    let sorted = dir.path().join("sorted.db");
    kifview()
        .args(["book", "convert"])
        .arg(fixture("engine.db"))
        .arg("-o")
        .arg(&sorted)
        .assert()
        .success();
    let r = kifview()
        .args(["book", "check"])
        .arg(&sorted)
        .output()
        .unwrap();
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stdout)
    );
    assert!(
        String::from_utf8_lossy(&r.stderr)
            .ends_with("sorted.db: 3 positions, 7 moves: no problem found\n")
    );
}

/// `book check` reads the order of every entry of an Apery book (opening one checks 2,048 of
/// them): two neighbours swapped where that sample does not look are named by index.
#[test]
fn check_finds_an_apery_entry_out_of_order_that_the_sample_of_open_misses() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.bin");
    let b = super::generated(300, 40, 11);
    kifview::book::save_new(&b, &path, kifview::book::Format::Apery, true).unwrap();
    let r = kifview()
        .args(["book", "check"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stdout)
    );
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len() / 16;
    let step = n / 2048;
    assert!(step >= 2, "{n} entries");
    let key = |b: &[u8], i: usize| u64::from_le_bytes(b[i * 16..i * 16 + 8].try_into().unwrap());
    // An entry the sample checks, followed by one it does not, of a greater key.
    let j = (step..n - 1)
        .step_by(step)
        .find(|&j| (j + 1) % step != 0 && key(&bytes, j) < key(&bytes, j + 1))
        .unwrap();
    let (a, rest) = bytes.split_at_mut((j + 1) * 16);
    a[j * 16..].swap_with_slice(&mut rest[..16]);
    std::fs::write(&path, &bytes).unwrap();
    let r = kifview()
        .args(["book", "check"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    let out = String::from_utf8_lossy(&r.stdout).to_string();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.contains(&format!(
            "book.bin: entry {} (byte {}): its key is below the key of entry {j} before it: not sorted by key",
            j + 1,
            (j + 1) * 16
        )),
        "{out}"
    );
    assert!(String::from_utf8_lossy(&r.stderr).contains("book.bin: 1 problems"));
}
