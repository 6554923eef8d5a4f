//! `kifview analyze` and `mate` when things go wrong (issue 25): reruns that skip what an
//! earlier run wrote, configs that cannot be read, engines with odd names and answers.

use crate::common::stderr_of;
use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn analyst() -> String {
    manifest()
        .join("tests/fixtures/engines/analyst.sh")
        .display()
        .to_string()
}

/// `kifview analyze` with the fake engine, its counters in `state`.
fn analyze(state: &Path) -> Command {
    let mut c = Command::cargo_bin("kifview").expect("binary built");
    c.env("ANALYST_STATE", state)
        .args(["analyze", "--engine", &analyst()]);
    c
}

const GAME: &str = "手合割：平手\n先手：A\n後手：B\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\n";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_rerun_into_an_out_dir_skips_what_it_wrote_before() {
    let d = tempfile::tempdir().unwrap();
    let inputs = d.path().join("in");
    write(&inputs, "a.kifu", GAME);
    write(&inputs, "b.kifu", GAME);
    let out = d.path().join("out");
    let run = || {
        analyze(d.path())
            .args(["--nodes", "1000", "-r"])
            .arg(&inputs)
            .arg("--out-dir")
            .arg(&out)
            .output()
            .unwrap()
    };
    let o = run();
    assert!(
        stderr_of(&o).contains("analysed 2, skipped 0"),
        "{}",
        stderr_of(&o)
    );
    let o = run();
    assert!(
        stderr_of(&o).contains("analysed 0, skipped 2"),
        "{}",
        stderr_of(&o)
    );
    // An input that changed since is analysed again.
    write(
        &inputs,
        "b.kifu",
        &GAME.replace("   4 投了\n", "   4 ８四歩(83)\n"),
    );
    let o = run();
    assert!(
        stderr_of(&o).contains("analysed 1, skipped 1"),
        "{}",
        stderr_of(&o)
    );
    // And -o for one file.
    let one = d.path().join("one.kifu");
    let o1 = || {
        analyze(d.path())
            .args(["--nodes", "1000", "-o"])
            .arg(&one)
            .arg(inputs.join("a.kifu"))
            .output()
            .unwrap()
    };
    assert!(stderr_of(&o1()).contains("analysed 1"));
    let o = o1();
    assert!(stderr_of(&o).contains("skipped 1"), "{}", stderr_of(&o));
}
