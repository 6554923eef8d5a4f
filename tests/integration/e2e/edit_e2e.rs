//! End to end: the editor in the real binary in a pseudo-terminal, driven by keys as a user
//! would (the Japanese text arrives as UTF-8, as a terminal input method sends it), and the
//! saved files read back.

use kifview::core::notation::{self, Format, TextEncoding};
use kifview::core::record::{NodeId, Record};

use crate::pty;
use pty::Session;

fn usi_line_root(r: &Record) -> Vec<String> {
    crate::common::usi_line(r, NodeId::ROOT)
}

const ESC: &str = "\x1b";
const CTRL_S: &str = "\x13";
const CTRL_R: &str = "\x12";

#[test]
fn build_a_new_record_annotate_and_save_as_kif_and_csa() {
    let out = tempfile::tempdir().unwrap();
    let kifu = out.path().join("new.kifu");
    let mut s = Session::start(&[kifu.to_str().unwrap()], 24, 80);
    s.wait_for("new.kifu [new]");
    // Board input: 7七 is two left and two down from 5五; pick it, then 7六.
    s.send("i");
    s.wait_for("move input");
    s.send("hhjj\r");
    s.wait_for("７七歩: choose the square");
    s.send("k\r");
    s.wait_for("手数＝1  ▲７六歩  まで");
    // The completed move left move input.
    s.wait_gone("-- MOVE INPUT --");
    // Typed moves in two notations.
    s.send("m");
    s.wait_for("move:");
    s.send("３四歩\r");
    s.wait_for("手数＝2  △３四歩  まで");
    s.send("m2g2f\r");
    s.wait_for("手数＝3  ▲２六歩  まで");
    // A variation at ply 3: back one and type 6八銀.
    s.send("hm68銀\r");
    s.wait_for("variation 2/2");
    s.wait_for("手数＝3  ▲６八銀  まで");
    // Japanese comment: the cursor ends after the text (two cells per character).
    s.send("c");
    s.wait_for("編集中");
    s.send("角道を開ける");
    s.wait_for("角道を開ける");
    let (row, col) = s.parser.screen().cursor_position();
    let line = s
        .screen()
        .lines()
        .nth(row as usize)
        .unwrap_or("")
        .to_string();
    assert!(line.contains("角道を開ける"), "cursor row {row}: {line}");
    let text_col = line
        .find("角道を開ける")
        .map(|b| unicode_width::UnicodeWidthStr::width(&line[..b]))
        .unwrap();
    assert_eq!(col as usize, text_col + 12, "{line}");
    s.send(ESC);
    s.wait_for("comment saved");
    // A bookmark, then make the variation the main line, undo it, redo it.
    s.send("b");
    s.wait_for("bookmark:");
    s.send("急所\r");
    s.wait_for("&急所");
    s.send("P");
    s.wait_for("now the main line");
    s.send("u");
    s.wait_for("undone");
    s.send(CTRL_R);
    s.wait_for("redone");
    // A header field.
    s.send("e");
    s.wait_for("対局情報  Enter: edit");
    s.send("a");
    s.wait_for("new field name");
    s.send("先手\r");
    s.send("羽生善治\r");
    s.wait_for("header changed");
    s.send(ESC);
    s.wait_gone("Enter: edit");
    // Save to the file named on the command line (UTF-8 KIF), then as Shift_JIS .kif and .csa.
    s.send(CTRL_S);
    let screen = s.wait_for("saved");
    assert!(!screen.contains("[+]"), "{screen}");
    let kif = out.path().join("game.kif");
    s.send(&format!(":w {}\r", kif.display()));
    s.wait_for("Shift_JIS");
    let csa = out.path().join("game.csa");
    s.send(&format!(":w {}\r", csa.display()));
    s.wait_for("CSA cannot hold");
    s.send("y");
    s.wait_for("game.csa");
    s.send("q");
    assert!(s.wait_exit().success());

    let read = |p: &std::path::Path| notation::load(&std::fs::read(p).unwrap(), Some(p));
    let a = read(&kifu);
    assert_eq!(a.info.encoding, TextEncoding::Utf8);
    let b = read(&kif);
    assert_eq!(b.info.encoding, TextEncoding::ShiftJis);
    let c = read(&csa);
    assert_eq!(c.format, Format::Csa);
    for l in [&a, &b, &c] {
        let r = &l.records[0].record;
        assert_eq!(usi_line_root(r), ["7g7f", "3c3d", "7i6h"]);
        assert_eq!(r.header.black_name(), Some("羽生善治"));
    }
    for l in [&a, &b] {
        let r = &l.records[0].record;
        let ply3 = r.main_line()[3];
        assert_eq!(r.node(ply3).comment, "角道を開ける");
        assert_eq!(r.node(ply3).bookmark.as_deref(), Some("急所"));
        assert_eq!(r.node(r.main_line()[2]).children.len(), 2, "variation kept");
    }
}

#[test]
fn quitting_with_unsaved_edits_asks_and_promotion_is_asked() {
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("p.kif");
    let mut s = Session::start(&[path.to_str().unwrap()], 24, 80);
    s.wait_for("p.kif [new]");
    s.send("m7g7f\r");
    s.wait_for("手数＝1");
    s.send("m3c3d\r");
    s.wait_for("手数＝2");
    // 8八角 to 2二 on the board: asked, answered y.
    s.send("i");
    s.wait_for("move input");
    s.send("hhhhhjjjj\r");
    s.wait_for("８八角: choose the square");
    s.send("llllllkkkkkk\r");
    s.wait_for("成りますか");
    s.send("y");
    s.wait_for("手数＝3  ▲２二角成  まで");
    // The completed move left move input.
    s.wait_gone("-- MOVE INPUT --");
    s.send("q");
    s.wait_for("unsaved changes");
    s.send("c");
    s.wait_for("still here");
    s.send("q");
    s.wait_for("unsaved changes");
    s.send("s");
    assert!(s.wait_exit().success());
    let l = notation::load(&std::fs::read(&path).unwrap(), Some(&path));
    assert_eq!(l.info.encoding, TextEncoding::ShiftJis);
    assert_eq!(
        usi_line_root(&l.records[0].record),
        ["7g7f", "3c3d", "8h2b+"]
    );
}

#[test]
fn drop_illegal_move_delete_reorder_and_ending() {
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("d.kifu");
    let mut s = Session::start(&[path.to_str().unwrap()], 24, 80);
    s.wait_for("d.kifu [new]");
    for (mv, ply) in [("7g7f", 1), ("3c3d", 2), ("8h2b+", 3), ("3a2b", 4)] {
        s.send(&format!("m{mv}\r"));
        s.wait_for(&format!("手数＝{ply}"));
    }
    // Drop the bishop from the hand on 5五 (from 2二: three left, three down).
    s.send("iB");
    s.wait_for("角打: choose the square");
    s.send("hhhjjj\r");
    s.wait_for("手数＝5  ▲５五角打  まで");
    // The completed move left move input.
    s.wait_gone("-- MOVE INPUT --");
    // A move that cannot be played is refused with the reason in words.
    s.send("m8c8d\r");
    s.wait_for("手数＝6");
    s.send("m");
    s.wait_for("move:");
    s.send("P*7e\r");
    s.wait_for("illegal (no such piece in hand)");
    s.send(ESC);
    s.wait_gone("move:");
    // Two alternatives at ply 6, reordered with K, then the first one deleted.
    s.send("hm4a3b\r");
    s.wait_for("variation 2/2");
    s.send("K");
    s.wait_for("main line here");
    s.send("d");
    s.wait_for("deleted △３二金(41)");
    // End the line with 投了 from the list.
    s.send("lr");
    s.wait_for("終局");
    s.send("\r");
    s.wait_for("ended the line with 投了");
    s.send(":wq\r");
    assert!(s.wait_exit().success());
    let l = notation::load(&std::fs::read(&path).unwrap(), Some(&path));
    let r = &l.records[0].record;
    assert_eq!(
        usi_line_root(r),
        ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e", "8c8d", "投了"]
    );
    assert_eq!(
        r.node(r.main_line()[5]).children.len(),
        1,
        "the deleted variation is gone"
    );
}
