//! End to end: the real binary in a pseudo-terminal, driven by keys, read back with vt100.

use crate::pty;
use pty::Session;

#[test]
fn empty_record_keys_and_clean_exit() {
    let mut s = Session::start(&[], 24, 80);
    let screen = s.wait_for("手数＝0");
    assert!(screen.contains("後手の持駒：なし"), "{screen}");
    assert!(
        screen.contains("|v香v桂v銀v金v玉v金v銀v桂v香|一"),
        "{screen}"
    );
    assert!(screen.contains("[new]"), "{screen}");
    s.send("f");
    let screen = s.wait_for("  １ ２ ３ ４ ５ ６ ７ ８ ９");
    assert!(screen.contains("▲先手　手番"), "{screen}");
    s.send("?");
    s.wait_for("Next move along the current line");
    s.send("?");
    s.send("Q");
    s.wait_for("Q is not bound");
    s.send("q");
    let st = s.wait_exit();
    assert!(st.success(), "{st:?}");
    // The terminal was given back: alternate screen left, cursor shown, mouse released.
    let tail = String::from_utf8_lossy(&s.raw);
    let leave = tail
        .rfind("\x1b[?1049l")
        .expect("left the alternate screen");
    assert!(tail.rfind("\x1b[?1049h").unwrap() < leave);
    assert!(tail.contains("\x1b[?1000l"), "mouse capture released");
    assert!(!s.parser.screen().hide_cursor(), "cursor visible again");
}

#[test]
fn handicap_start_and_too_small_terminal() {
    // Below 64x18: the board and the move line (issue 21), and smaller still, the sizes.
    let mut s = Session::start(&["--handicap", "角落ち"], 14, 50);
    s.wait_for("| ・v飛 ・ ・ ・ ・ ・ ・ ・|二");
    s.wait_for("手数＝0");
    s.send("q");
    assert!(s.wait_exit().success());
    let mut s = Session::start(&["--handicap", "角落ち"], 10, 40);
    s.wait_for("64x18; this terminal is 40x10");
    s.send("q");
    assert!(s.wait_exit().success());

    let mut s = Session::start(&["--handicap", "角落ち"], 24, 80);
    s.wait_for("| ・v飛 ・ ・ ・ ・ ・ ・ ・|二");
    let screen = s.wait_for("手合割：角落ち");
    assert!(screen.contains("上手の持駒：なし"), "{screen}");
    assert!(screen.contains("△上手　手番"), "{screen}");
    s.send("q");
    assert!(s.wait_exit().success());
}

#[test]
fn real_kif_file_browse_and_jump() {
    let Some(file) = crate::common::corpus_file("generated/g4242_052.kif") else {
        return;
    };
    let f = file.to_str().unwrap();
    let mut s = Session::start(&[f, "+4"], 24, 80);
    s.wait_for("手数＝4  △７四歩  まで");
    // Right arrow, then the next alternative at ply 5.
    s.send("\x1b[C");
    s.wait_for("手数＝5  ▲５八金  まで");
    s.send("j");
    let screen = s.wait_for("手数＝5  ▲４八玉  まで");
    assert!(screen.contains("変化 5手目 2/3"), "{screen}");
    s.send("hl");
    s.wait_for("手数＝5  ▲４八玉  まで");
    s.send(":20\r");
    s.wait_for("手数＝20  △６二玉  まで");
    s.send("g");
    s.wait_for("手数＝0");
    s.send("q");
    assert!(s.wait_exit().success());
}
