//! One sanitizer for everything that reaches a terminal (issue 25): line and paragraph
//! separators, invisible marks and bidi controls from files never reach it raw, on the CLIs'
//! standard error, in `convert` to a terminal, nor in `analyze`'s record on standard output.

use crate::common::stderr_of;
use crate::pty::Session;
use assert_cmd::Command;

/// Characters a terminal must not get raw.
const HOSTILE: [char; 6] = [
    '\u{2028}', '\u{2029}', '\u{061C}', '\u{FEFF}', '\u{200B}', '\u{202E}',
];

fn hostile_text() -> String {
    HOSTILE.iter().collect()
}

fn assert_clean(what: &str, text: &str) {
    for c in HOSTILE {
        assert!(
            !text.contains(c),
            "{what} holds U+{:04X} raw: {text:?}",
            c as u32
        );
    }
}

#[test]
fn warnings_hold_nothing_raw() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("g.kifu");
    std::fs::write(
        &f,
        format!(
            "手合割：平手\n   1 ７六歩(77)\nこれは{}何\n",
            hostile_text()
        ),
    )
    .unwrap();
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .arg("check")
        .arg(&f)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("これは"), "{said}");
    assert_clean("check's report", &said);
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .args(["convert", "--to", "csa"])
        .arg(&f)
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert!(err.contains("これは"), "{err}");
    assert_clean("convert's stderr", &err);
}

#[test]
fn convert_and_analyze_to_a_terminal_show_nothing_raw() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("g.kifu");
    std::fs::write(
        &f,
        format!(
            "手合割：平手\n   1 ７六歩(77)\n*note{}end\n   2 ３四歩(33)\n",
            hostile_text()
        ),
    )
    .unwrap();
    let path = f.to_str().unwrap();
    let mut s = Session::start(&["convert", "--to", "kifu", path], 24, 100);
    s.wait_for("３四歩");
    s.wait_exit();
    assert_clean("convert to a terminal", &String::from_utf8_lossy(&s.raw));

    let analyst = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/engines/analyst.sh")
        .display()
        .to_string();
    let mut s = Session::start_with_env(
        env!("CARGO_BIN_EXE_kifview"),
        &["analyze", "--engine", &analyst, "--nodes", "1000", path],
        &[("ANALYST_STATE", d.path())],
        24,
        100,
    );
    s.wait_for("analysed 1");
    s.wait_exit();
    let raw = String::from_utf8_lossy(&s.raw);
    assert!(raw.contains("#エンジン=Analyst"), "{raw}");
    assert_clean("analyze's record on a terminal", &raw);
}
