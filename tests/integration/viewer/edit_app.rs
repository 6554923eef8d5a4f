//! The editor, driven by keys through the whole app and drawn into a TestBackend: move input on
//! the board and typed, drops, promotion, illegal moves, tree edits, undo/redo, comments,
//! bookmarks, header fields, saving in each format (read back) and the questions on the way.

use kifview::app::{App, Config, LaunchOptions, Mode};
use kifview::core::notation::{self, Format, TextEncoding};
use kifview::core::record::{NodeId, Record};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::{Backend, TestBackend};
use ratatui::crossterm::event::{Event, KeyCode, KeyModifiers};
use std::path::Path;

use crate::common::{key, press, screen, screen_rows, usi_line, viewer_on, viewer_with};

fn new_viewer() -> Viewer {
    let app = App::open(&LaunchOptions::default(), Config::defaults()).unwrap();
    Viewer::new(app, Theme::plain())
}

fn text(t: &Terminal<TestBackend>) -> String {
    let mut out = screen_rows(t).join("\n");
    out.push('\n');
    out
}

fn shown(v: &mut Viewer) -> String {
    text(&screen(v, 100, 30))
}

fn status(v: &mut Viewer) -> String {
    let rows = screen_rows(&screen(v, 100, 30));
    crate::common::status_rows(v, &rows, 100)
}

/// Types a move at the `m` prompt.
fn typed(v: &mut Viewer, mv: &str) {
    press(v, "m");
    press(v, mv);
    press(v, "⏎");
}

fn cur_text(v: &Viewer) -> String {
    v.app.step_text(v.app.cur())
}

#[test]
fn board_cursor_enters_a_main_line_move_and_a_variation() {
    let mut v = new_viewer();
    press(&mut v, "i");
    assert_eq!(v.app.mode(), Mode::Board);
    // The cursor starts on 5五; 7七 is two left and two down.
    press(&mut v, "hhjj⏎");
    let s = shown(&mut v);
    insta::assert_snapshot!("board_input_picked_77", s);
    assert!(s.contains("７七歩: choose the square"), "{s}");
    // The destination is marked; move up and take it.
    press(&mut v, "k⏎");
    assert_eq!(cur_text(&v), "▲７六歩(77)");
    assert_eq!(
        v.app.mode(),
        Mode::Normal,
        "a completed move leaves move input"
    );
    // White replies 3四歩 with the arrows: `i` starts on the last move's square, 7六; 3三 is
    // four right, three up.
    press(&mut v, "i→→→→↑↑↑⏎↓⏎");
    assert_eq!(cur_text(&v), "△３四歩(33)");
    assert_eq!(v.app.mode(), Mode::Normal);
    assert!(status(&mut v).contains("[+]"), "modified mark");
    // Back to ply 1 and enter 8四歩 instead: a variation after the existing move.
    press(&mut v, "hi");
    press(&mut v, "hkkk⏎j⏎");
    assert_eq!(cur_text(&v), "△８四歩(83)");
    assert!(
        status(&mut v).contains("variation 2/2"),
        "{}",
        status(&mut v)
    );
    let first = v.app.record().node(NodeId::ROOT).children[0];
    assert_eq!(usi_line(v.app.record(), NodeId::ROOT), vec!["7g7f", "3c3d"]);
    assert_eq!(v.app.record().node(first).children.len(), 2);
    // Entering a move that exists goes there instead of adding it again.
    press(&mut v, "h");
    typed(&mut v, "34歩");
    assert_eq!(cur_text(&v), "△３四歩(33)");
    assert_eq!(v.app.record().node(first).children.len(), 2);
    assert!(status(&mut v).contains("already in the record"));
}

#[test]
fn typed_moves_in_every_notation_and_ambiguity() {
    let mut v = new_viewer();
    for t in [
        "7g7f",
        "３四歩",
        "+2726FU",
        "8c8d",
        "2f2e",
        "８五歩",
        "2e2d",
        "同　歩",
    ] {
        let before = v.app.cur_index();
        typed(&mut v, t);
        assert_eq!(v.app.cur_index(), before + 1, "{t}: {}", status(&mut v));
    }
    let line: Vec<String> = v.app.line()[1..]
        .iter()
        .map(|&n| v.app.step_text(n))
        .collect();
    assert_eq!(
        line,
        [
            "▲７六歩(77)",
            "△３四歩(33)",
            "▲２六歩(27)",
            "△８四歩(83)",
            "▲２五歩(26)",
            "△８五歩(84)",
            "▲２四歩(25)",
            "△同　歩(23)"
        ]
        .map(String::from)
        .to_vec(),
        "{}",
        status(&mut v)
    );
    // A variation by typed notation at ply 2.
    press(&mut v, ":2⏎");
    typed(&mut v, "2f2e");
    // At ply 2 there is no pawn on 2六 yet.
    assert!(status(&mut v).contains("illegal"), "{}", status(&mut v));
    assert_eq!(
        v.app.mode(),
        Mode::Prompt,
        "the prompt stays open to fix the move"
    );
    press(&mut v, "⌫⌫⌫⌫58金右⏎");
    assert_eq!(cur_text(&v), "▲５八金(49)");
    assert_eq!(v.app.record().node(v.app.line()[2]).children.len(), 2);
    // 58金 alone is ambiguous: the candidates are listed.
    press(&mut v, "h");
    typed(&mut v, "58金");
    let s = status(&mut v);
    assert!(
        s.contains("which one?") && s.contains("５八金右") && s.contains("５八金左"),
        "{s}"
    );
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Normal);
}

#[test]
fn drop_from_the_hand_and_promotion_choice() {
    let mut v = new_viewer();
    for t in ["7g7f", "3c3d"] {
        typed(&mut v, t);
    }
    // The cursor starts on the last move's square, 3四; 8八 is five left and four down.
    press(&mut v, "ihhhhhjjjj⏎");
    assert!(status(&mut v).contains("８八角"), "{}", status(&mut v));
    // To 2二: promotion is optional, so it asks.
    press(&mut v, "llllllkkkkkk⏎");
    assert!(status(&mut v).contains("成りますか"), "{}", status(&mut v));
    press(&mut v, "n");
    assert_eq!(cur_text(&v), "▲２二角不成(88)");
    // A completed move leaves move input: the next key browses again, and the status line
    // says how to enter another (issue 12: `:9` then `r` went to the board cursor).
    assert_eq!(v.app.mode(), Mode::Normal);
    let s = status(&mut v);
    assert!(
        s.contains("i: next move") && !s.contains("MOVE INPUT"),
        "{s}"
    );
    // Undo and take it again, promoting this time.
    press(&mut v, "u");
    assert_eq!(
        v.app.cur_index(),
        2,
        "undo returns to where the move was entered"
    );
    press(&mut v, "ihhhhhjjjj⏎llllllkkkkkk⏎y");
    assert_eq!(cur_text(&v), "▲２二角成(88)");
    assert_eq!(v.app.mode(), Mode::Normal);
    typed(&mut v, "同銀");
    // Black has a bishop in hand: B, then the square 5五 (from 2二: three left, three down).
    press(&mut v, "iB");
    let s = shown(&mut v);
    assert!(s.contains("角打: choose the square"), "{s}");
    assert!(s.contains("＊"), "drop squares are marked:\n{s}");
    press(&mut v, "hhhjjj⏎");
    assert_eq!(cur_text(&v), "▲５五角打");
    // No rook in hand.
    press(&mut v, "iR");
    assert!(status(&mut v).contains("no 飛 in hand"));
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Normal);
    assert_eq!(
        usi_line(v.app.record(), NodeId::ROOT),
        ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]
    );
    let kids = &v.app.record().node(v.app.line()[2]).children;
    assert_eq!(kids.len(), 1, "the undone 不成 is gone, 成 is there");
    // A typed drop and typed promotion choices.
    press(&mut v, "h");
    typed(&mut v, "55角打");
    assert_eq!(cur_text(&v), "▲５五角打", "already there");
    press(&mut v, ":2⏎");
    typed(&mut v, "22角不成");
    assert_eq!(cur_text(&v), "▲２二角不成(88)");
    assert_eq!(v.app.record().node(v.app.line()[2]).children.len(), 2);
}

#[test]
fn illegal_moves_are_refused_with_the_reason() {
    let mut v = new_viewer();
    for t in [
        "2g2f", "8c8d", "2f2e", "8d8e", "2e2d", "2c2d", "2h2d", "8e8f",
    ] {
        typed(&mut v, t);
    }
    let n = v.app.record().len();
    // 二歩: a pawn dropped on file 7, where black has one.
    typed(&mut v, "75歩打");
    assert!(status(&mut v).contains("二歩"), "{}", status(&mut v));
    press(&mut v, "⎋");
    // The same on the board: P, then 7五.
    press(&mut v, "iP");
    kifview::app::update(
        &mut v.app,
        kifview::app::Action::BoardClick(kifview::core::rules::Square::new(7, 5).unwrap()),
    );
    assert!(status(&mut v).contains("二歩"), "{}", status(&mut v));
    // No piece there.
    press(&mut v, "⎋");
    kifview::app::update(
        &mut v.app,
        kifview::app::Action::BoardClick(kifview::core::rules::Square::new(5, 5).unwrap()),
    );
    assert!(
        status(&mut v).contains("no piece on ５五"),
        "{}",
        status(&mut v)
    );
    // The opponent's piece.
    kifview::app::update(
        &mut v.app,
        kifview::app::Action::BoardClick(kifview::core::rules::Square::new(5, 1).unwrap()),
    );
    assert!(status(&mut v).contains("opponent"), "{}", status(&mut v));
    press(&mut v, "⎋");
    // 王手放置 typed: the king may not walk into the rook's file... use a USI move that
    // leaves the king in check after 8f8g+ (white promotes, checking nothing); simpler:
    typed(&mut v, "5i4h");
    assert_eq!(v.app.record().len(), n + 1, "a legal king move is added");
    typed(&mut v, "8f8g+");
    typed(&mut v, "4h3h");
    // Not in check: legal. The rule checks themselves are unit-tested in the core.
    assert!(v.app.record().len() >= n + 3);
    typed(&mut v, "hello");
    assert!(status(&mut v).contains("type a move") || status(&mut v).contains("hello"));
}

#[test]
fn delete_reorder_make_main_line_undo_redo() {
    let mut v = new_viewer();
    for t in ["7g7f", "3c3d", "2g2f"] {
        typed(&mut v, t);
    }
    press(&mut v, "g");
    typed(&mut v, "2g2f");
    typed(&mut v, "8c8d");
    press(&mut v, "g");
    typed(&mut v, "5g5f");
    let root = NodeId::ROOT;
    let names = |v: &Viewer| -> Vec<String> {
        v.app
            .record()
            .node(root)
            .children
            .iter()
            .map(|&c| v.app.step_text(c))
            .collect()
    };
    assert_eq!(names(&v), ["▲７六歩(77)", "▲２六歩(27)", "▲５六歩(57)"]);
    // K moves the current alternative up.
    press(&mut v, "K");
    assert_eq!(names(&v), ["▲７六歩(77)", "▲５六歩(57)", "▲２六歩(27)"]);
    press(&mut v, "K");
    assert_eq!(names(&v), ["▲５六歩(57)", "▲７六歩(77)", "▲２六歩(27)"]);
    assert!(status(&mut v).contains("main line here"));
    press(&mut v, "J");
    assert_eq!(names(&v), ["▲７六歩(77)", "▲５六歩(57)", "▲２六歩(27)"]);
    // Make the 2六歩 line the main line from its second move.
    press(&mut v, "jl");
    assert_eq!(cur_text(&v), "△８四歩(83)");
    press(&mut v, "P");
    assert_eq!(usi_line(v.app.record(), root), ["2g2f", "8c8d"]);
    assert_eq!(cur_text(&v), "△８四歩(83)", "the cursor stays");
    // Undo puts the order back and the cursor where the edit was; redo again.
    press(&mut v, "u");
    assert_eq!(names(&v), ["▲７六歩(77)", "▲５六歩(57)", "▲２六歩(27)"]);
    assert_eq!(cur_text(&v), "△８四歩(83)");
    press(&mut v, "^r");
    assert_eq!(usi_line(v.app.record(), root), ["2g2f", "8c8d"]);
    // Delete the current move and what follows.
    press(&mut v, "h");
    assert_eq!(cur_text(&v), "▲２六歩(27)");
    press(&mut v, "d");
    assert_eq!(names(&v), ["▲７六歩(77)", "▲５六歩(57)"]);
    assert_eq!(v.app.cur(), root);
    assert!(status(&mut v).contains("deleted ▲２六歩(27) and the 1 move after it"));
    press(&mut v, "u");
    assert_eq!(names(&v)[0], "▲２六歩(27)");
    assert_eq!(
        cur_text(&v),
        "▲２六歩(27)",
        "undo returns to the deleted move"
    );
    // Cut after: everything after 7六歩 goes.
    press(&mut v, "gJl");
    assert_eq!(cur_text(&v), "▲２六歩(27)");
    press(&mut v, "D");
    assert!(v.app.record().node(v.app.cur()).children.is_empty());
    press(&mut v, "u");
    assert_eq!(v.app.record().node(v.app.cur()).children.len(), 1);
    // Navigation is not an edit: undo all the way, then nothing is modified.
    for _ in 0..20 {
        press(&mut v, "u");
    }
    assert!(status(&mut v).contains("nothing to undo"));
    assert!(v.app.record().node(root).children.is_empty());
    assert!(!status(&mut v).contains("[+]"));
}

#[test]
fn ending_from_the_list() {
    let mut v = new_viewer();
    typed(&mut v, "7g7f");
    press(&mut v, "r");
    assert_eq!(v.app.mode(), Mode::List);
    let s = shown(&mut v);
    for w in [
        "投了",
        "中断",
        "千日手",
        "持将棋",
        "詰み",
        "切れ負け",
        "反則勝ち",
        "反則負け",
        "入玉勝ち",
    ] {
        assert!(s.contains(w), "{w} missing:\n{s}");
    }
    press(&mut v, "jj⏎");
    assert_eq!(cur_text(&v), "千日手");
    press(&mut v, "m");
    assert!(status(&mut v).contains("ended here"), "{}", status(&mut v));
    assert_eq!(v.app.mode(), Mode::Normal);
    press(&mut v, "h");
    typed(&mut v, "投了");
    assert_eq!(cur_text(&v), "投了");
    assert_eq!(v.app.record().node(v.app.line()[1]).children.len(), 2);
}

#[test]
fn comment_editor_with_japanese_text() {
    let mut v = new_viewer();
    typed(&mut v, "7g7f");
    press(&mut v, "c");
    assert_eq!(v.app.mode(), Mode::Comment);
    press(&mut v, "角道を開ける⏎次はabc");
    // The terminal cursor sits after the text, counting full-width characters as two cells.
    let mut t = screen(&mut v, 80, 24);
    let area = v.view.comment_area;
    let pos = t.backend_mut().get_cursor_position().unwrap();
    assert_eq!((pos.x, pos.y), (area.x + 7, area.y + 1), "{}", text(&t));
    insta::assert_snapshot!("comment_editor_80x24", text(&t));
    press(&mut v, "←←←←");
    let mut t = screen(&mut v, 80, 24);
    let pos = t.backend_mut().get_cursor_position().unwrap();
    assert_eq!((pos.x, pos.y), (area.x + 2, area.y + 1));
    press(&mut v, "、");
    // Pasted text (bracketed paste) goes into the comment too, line breaks included.
    v.handle(&Event::Paste("\r\n貼り付け".into()));
    assert_eq!(v.app.overlays().comment().unwrap().editor.cursor(), (2, 4));
    press(&mut v, "⌫⌫⌫⌫⌫");
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Normal);
    let cur = v.app.cur();
    assert_eq!(v.app.record().node(cur).comment, "角道を開ける\n次、はabc");
    // Ctrl-c leaves throwing the changes away.
    press(&mut v, "cxyz^c");
    assert_eq!(v.app.record().node(cur).comment, "角道を開ける\n次、はabc");
    // One undo step for the whole edit; the start position has its own comment.
    press(&mut v, "u");
    assert_eq!(v.app.record().node(cur).comment, "");
    press(&mut v, "gc初形⎋");
    assert_eq!(v.app.record().node(NodeId::ROOT).comment, "初形");
    assert!(shown(&mut v).contains("コメント（開始局面）"));
    // A long line wraps inside the pane and the cursor follows it.
    press(&mut v, "c");
    press(&mut v, &"長".repeat(40));
    let mut t = screen(&mut v, 80, 24);
    let area = v.view.comment_area;
    let pos = t.backend_mut().get_cursor_position().unwrap();
    assert!(area.contains(pos), "cursor {pos:?} inside {area:?}");
    press(&mut v, "⎋");
}

#[test]
fn bookmarks_set_list_and_jump() {
    let mut v = new_viewer();
    for t in ["7g7f", "3c3d", "2g2f"] {
        typed(&mut v, t);
    }
    press(&mut v, "'");
    assert!(status(&mut v).contains("no bookmarks"));
    press(&mut v, "hb急所⏎");
    assert_eq!(
        v.app.record().node(v.app.cur()).bookmark.as_deref(),
        Some("急所")
    );
    assert!(shown(&mut v).contains("&急所"));
    press(&mut v, "g'");
    assert_eq!(v.app.mode(), Mode::List);
    assert!(shown(&mut v).contains("&急所  2手目 △３四歩(33)"));
    press(&mut v, "⏎");
    assert_eq!(v.app.cur_index(), 2);
    // Renaming: the prompt starts with the old name.
    press(&mut v, "b⌫⌫序盤⏎");
    assert_eq!(
        v.app.record().node(v.app.cur()).bookmark.as_deref(),
        Some("序盤")
    );
    press(&mut v, "u");
    assert_eq!(
        v.app.record().node(v.app.cur()).bookmark.as_deref(),
        Some("急所")
    );
}

#[test]
fn header_fields_edit_add_remove() {
    let mut v = new_viewer();
    press(&mut v, "e");
    assert_eq!(v.app.mode(), Mode::List);
    assert_eq!(v.app.record().header.get("手合割"), Some("平手"));
    press(&mut v, "a先手⏎羽生善治⏎");
    press(&mut v, "a後手⏎藤井聡太⏎");
    press(&mut v, "a棋戦⏎研究会⏎");
    press(&mut v, "aRating⏎1500⏎");
    let s = shown(&mut v);
    assert!(
        s.contains("先手：羽生善治") && s.contains("Rating：1500"),
        "{s}"
    );
    // Edit the value of 先手 (the second field, after 手合割).
    press(&mut v, "kkkkkkj");
    assert_eq!(v.app.overlays().list().unwrap().selected, 1);
    press(&mut v, "⏎⌫⌫⌫⌫大山康晴⏎");
    assert_eq!(v.app.record().header.black_name(), Some("大山康晴"));
    // Delete 棋戦.
    press(&mut v, "jjd");
    assert_eq!(v.app.record().header.get("棋戦"), None);
    press(&mut v, "⎋");
    assert!(shown(&mut v).contains("▲先手：大山康晴"));
    press(&mut v, "u");
    assert_eq!(v.app.record().header.get("棋戦"), Some("研究会"));
}

#[test]
fn save_as_kif_kifu_and_csa_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = new_viewer();
    press(&mut v, "e");
    press(&mut v, "a先手⏎羽生善治⏎a後手⏎藤井聡太⏎⎋");
    for t in ["7g7f", "3c3d", "2g2f"] {
        typed(&mut v, t);
    }
    press(&mut v, "c角道を開ける⎋");
    press(&mut v, "r⏎");
    press(&mut v, "hhb急所⏎");
    press(&mut v, "h");
    typed(&mut v, "8c8d");
    assert!(status(&mut v).contains("[+]"));

    // .kif: Shift_JIS, CRLF.
    let kif = dir.path().join("game.kif");
    press(&mut v, &format!(":w {}⏎", kif.display()));
    assert!(status(&mut v).contains("saved"), "{}", status(&mut v));
    assert!(!status(&mut v).contains("[+]"));
    let bytes = std::fs::read(&kif).unwrap();
    assert!(bytes.windows(2).any(|w| w == b"\r\n"));
    let loaded = notation::load(&bytes, Some(&kif));
    assert_eq!(loaded.format, Format::Kif);
    assert_eq!(loaded.info.encoding, TextEncoding::ShiftJis);
    let r = &loaded.records[0].record;
    assert_eq!(r.header.black_name(), Some("羽生善治"));
    assert_eq!(usi_line(r, NodeId::ROOT), ["7g7f", "3c3d", "2g2f", "投了"]);
    let ply2 = r.main_line()[2];
    assert_eq!(r.node(ply2).bookmark.as_deref(), Some("急所"));
    let ply1 = r.main_line()[1];
    assert_eq!(r.node(ply1).children.len(), 2, "the variation was saved");
    assert_eq!(r.node(r.main_line()[3]).comment, "角道を開ける");

    // .kifu: UTF-8.
    let kifu = dir.path().join("game.kifu");
    press(&mut v, &format!(":w {}⏎", kifu.display()));
    let bytes = std::fs::read(&kifu).unwrap();
    assert!(std::str::from_utf8(&bytes).unwrap().contains("羽生善治"));
    let r2 = notation::load(&bytes, Some(&kifu)).records.remove(0).record;
    assert_eq!(usi_line(&r2, NodeId::ROOT), usi_line(r, NodeId::ROOT));

    // .csa: asks first, listing what CSA cannot hold.
    let csa = dir.path().join("game.csa");
    press(&mut v, &format!(":w {}⏎", csa.display()));
    assert_eq!(v.app.mode(), Mode::Confirm);
    let s = shown(&mut v);
    assert!(
        s.contains("CSA cannot hold") && s.contains("variation"),
        "{s}"
    );
    assert!(!csa.exists());
    press(&mut v, "n");
    assert!(!csa.exists(), "n cancels");
    press(&mut v, &format!(":w {}⏎y", csa.display()));
    let bytes = std::fs::read(&csa).unwrap();
    let loaded = notation::load(&bytes, Some(&csa));
    assert_eq!(loaded.format, Format::Csa);
    let r3 = &loaded.records[0].record;
    assert_eq!(usi_line(r3, NodeId::ROOT), ["7g7f", "3c3d", "2g2f", "投了"]);
    assert_eq!(r3.header.black_name(), Some("羽生善治"));
    // :w PATH wrote a copy: the session stays on game.kif (it has no file of its own before
    // the first :w, which made game.kif its file, as in vim).
    let s = status(&mut v);
    assert!(s.contains(" game.kif KIF") && s.contains("wrote"), "{s}");
    // Nothing is unsaved (game.kif holds every edit): the message says so, not `[+] stays`.
    assert!(!v.app.is_modified());
    let m = v.app.message().unwrap().text.clone();
    assert!(
        m.contains("without") && m.contains("game.kif holds them") && !m.contains("[+]"),
        "{m}"
    );
}

#[test]
fn save_as_ki2_jkf_and_usi_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = new_viewer();
    for t in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
        typed(&mut v, t);
    }
    press(&mut v, "c同銀で取り返す⎋");
    let want = ["7g7f", "3c3d", "8h2b+", "3a2b"];
    // KI2 keeps the tree and comments but not times: nothing here is lost, so no question.
    let ki2 = dir.path().join("game.ki2");
    press(&mut v, &format!(":w {}⏎", ki2.display()));
    assert!(status(&mut v).contains("saved"), "{}", status(&mut v));
    let bytes = std::fs::read(&ki2).unwrap();
    let loaded = notation::load(&bytes, Some(&ki2));
    assert_eq!(loaded.format, Format::Ki2);
    assert_eq!(loaded.info.encoding, TextEncoding::ShiftJis);
    let r = &loaded.records[0].record;
    assert_eq!(usi_line(r, NodeId::ROOT), want);
    assert_eq!(r.node(r.main_line()[4]).comment, "同銀で取り返す");
    // JKF in UTF-8.
    let jkf = dir.path().join("game.jkf");
    press(&mut v, &format!(":w {}⏎", jkf.display()));
    let bytes = std::fs::read(&jkf).unwrap();
    let loaded = notation::load(&bytes, Some(&jkf));
    assert_eq!(loaded.format, Format::Jkf);
    assert_eq!(usi_line(&loaded.records[0].record, NodeId::ROOT), want);
    // USI holds the moves but not the comment: asks first.
    let usi = dir.path().join("game.usi");
    press(&mut v, &format!(":w {}⏎", usi.display()));
    if v.app.mode() == Mode::Confirm {
        press(&mut v, "y");
    }
    let text = std::fs::read_to_string(&usi).unwrap();
    assert_eq!(text.trim(), "position startpos moves 7g7f 3c3d 8h2b+ 3a2b");
}

#[test]
fn unmappable_character_offers_utf8_and_never_writes_a_question_mark() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = new_viewer();
    typed(&mut v, "7g7f");
    press(&mut v, "c☗の好手⎋");
    let kif = dir.path().join("mark.kif");
    press(&mut v, &format!(":w {}⏎", kif.display()));
    let s = shown(&mut v);
    assert!(s.contains("Shift_JIS cannot hold 1 character"), "{s}");
    assert!(s.contains("'☗' (U+2617)") && s.contains("line "), "{s}");
    press(&mut v, "c");
    assert!(!kif.exists());
    press(&mut v, &format!(":w {}⏎u", kif.display()));
    let bytes = std::fs::read(&kif).unwrap();
    let t = String::from_utf8(bytes.clone()).expect("saved as UTF-8");
    assert!(t.starts_with("#KIF version=2.0 encoding=UTF-8"), "{t}");
    let loaded = notation::load(&bytes, Some(&kif));
    let r = &loaded.records[0].record;
    assert_eq!(r.node(r.main_line()[1]).comment, "☗の好手");
}

#[test]
fn save_back_keeps_format_encoding_and_line_endings_and_asks_on_outside_changes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("orig.kif");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/study.kif");
    std::fs::copy(&src, &file).unwrap();
    let before = notation::load(&std::fs::read(&file).unwrap(), Some(&file));
    let mut v = viewer_on(&file, None);
    press(&mut v, "lc研究⎋");
    press(&mut v, "^s");
    assert!(status(&mut v).contains("saved"), "{}", status(&mut v));
    let after = notation::load(&std::fs::read(&file).unwrap(), Some(&file));
    assert_eq!(after.info.encoding, before.info.encoding);
    assert_eq!(after.info.newline, before.info.newline);
    assert_eq!(after.info.bom, before.info.bom);
    let r = &after.records[0].record;
    assert!(r.node(r.main_line()[1]).comment.contains("研究"));
    assert_eq!(r.len(), before.records[0].record.len());
    // Someone else writes the file: saving asks first.
    std::fs::write(&file, "changed elsewhere").unwrap();
    press(&mut v, "c!⎋^s");
    assert_eq!(v.app.mode(), Mode::Confirm);
    assert!(shown(&mut v).contains("changed on disk"));
    press(&mut v, "x");
    assert_eq!(v.app.mode(), Mode::Confirm, "other keys are not an answer");
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Normal);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "changed elsewhere");
    press(&mut v, "^sy");
    assert!(std::fs::read(&file).unwrap().len() > 100);
}

#[test]
fn quitting_with_unsaved_edits_asks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.kifu");
    let mut v = viewer_on(&path, None);
    assert!(
        status(&mut v).contains("new.kifu [new]"),
        "{}",
        status(&mut v)
    );
    press(&mut v, "q");
    assert!(v.app.should_quit(), "nothing to save: quits at once");

    let mut v = viewer_on(&path, None);
    typed(&mut v, "7g7f");
    press(&mut v, "q");
    assert!(!v.app.should_quit());
    assert!(shown(&mut v).contains("unsaved changes"));
    press(&mut v, "c");
    assert!(!v.app.should_quit());
    assert_eq!(v.app.mode(), Mode::Normal);
    press(&mut v, ":q⏎");
    assert_eq!(v.app.mode(), Mode::Confirm);
    press(&mut v, "s");
    assert!(v.app.should_quit(), "saved, then quit");
    let r = notation::load(&std::fs::read(&path).unwrap(), Some(&path))
        .records
        .remove(0)
        .record;
    assert_eq!(usi_line(&r, NodeId::ROOT), ["7g7f"]);

    let mut v = viewer_on(&path, None);
    press(&mut v, "G");
    typed(&mut v, "3c3d");
    press(&mut v, "^c");
    assert_eq!(v.app.mode(), Mode::Confirm);
    press(&mut v, "d");
    assert!(v.app.should_quit());
    let mut v = viewer_on(&path, None);
    press(&mut v, "G");
    typed(&mut v, "3c3d");
    press(&mut v, ":q!⏎");
    assert!(v.app.should_quit());
    let mut v = viewer_on(&path, None);
    press(&mut v, "G");
    typed(&mut v, "3c3d");
    press(&mut v, ":wq⏎");
    assert!(v.app.should_quit());
    let r = notation::load(&std::fs::read(&path).unwrap(), Some(&path))
        .records
        .remove(0)
        .record;
    assert_eq!(usi_line(&r, NodeId::ROOT), ["7g7f", "3c3d"]);
}

#[test]
fn new_record_without_a_file_needs_a_name_and_handicap_records_save() {
    let dir = tempfile::tempdir().unwrap();
    let opts = LaunchOptions {
        handicap: Some("角落ち".into()),
        ..Default::default()
    };
    let mut v = viewer_with(&opts);
    typed(&mut v, "3c3d");
    // Ctrl-s with no file asks for a name.
    press(&mut v, "^s");
    assert!(status(&mut v).contains("save as"), "{}", status(&mut v));
    let path = dir.path().join("kakuochi.kif");
    press(&mut v, &format!("{}⏎", path.display()));
    let r = notation::load(&std::fs::read(&path).unwrap(), Some(&path))
        .records
        .remove(0)
        .record;
    assert_eq!(r.initial.handicap.map(|h| h.name), Some("角落ち"));
    assert_eq!(usi_line(&r, NodeId::ROOT), ["3c3d"]);
    press(
        &mut v,
        &format!(":w {}⏎", dir.path().join("x.txt").display()),
    );
    assert!(status(&mut v).contains("cannot tell the format"));
    // Quitting a new record with edits: s asks for a name, then saves and quits.
    let mut v = new_viewer();
    typed(&mut v, "7g7f");
    press(&mut v, "q");
    // Esc leaves the question without doing anything.
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Normal);
    assert!(!v.app.should_quit());
    press(&mut v, "qs");
    assert_eq!(v.app.mode(), Mode::Prompt);
    let path = dir.path().join("quit.kifu");
    press(&mut v, &format!("{}⏎", path.display()));
    assert!(v.app.should_quit());
    assert!(path.exists());
}

#[test]
fn board_input_snapshot_with_destinations() {
    let mut v = new_viewer();
    typed(&mut v, "7g7f");
    typed(&mut v, "3c3d");
    press(&mut v, "i");
    kifview::app::update(
        &mut v.app,
        kifview::app::Action::BoardClick(kifview::core::rules::Square::new(8, 8).unwrap()),
    );
    insta::assert_snapshot!(
        "board_bishop_destinations_80x24",
        text(&screen(&mut v, 80, 24))
    );
}

#[test]
fn board_cursor_and_picked_piece_are_drawn_and_lists_and_questions_snapshot() {
    use ratatui::style::Modifier;
    let mut v = new_viewer();
    press(&mut v, "i");
    let t = screen(&mut v, 80, 24);
    let buf = t.backend().buffer();
    // 5五 is row 5 of the board (y = 3 + 4 with names and hands above), column 4.
    let (x, y) = (1 + 3 * 4, 3 + 4 + 1);
    for dx in 0..2 {
        assert!(
            buf[(x + dx, y)].modifier.contains(Modifier::REVERSED),
            "cursor cell {dx} at {x},{y}:\n{}",
            text(&t)
        );
    }
    press(&mut v, "jj⏎");
    let t = screen(&mut v, 80, 24);
    let buf = t.backend().buffer();
    let picked = &buf[(x + 1, y + 2)];
    assert_eq!(picked.symbol(), "歩");
    assert!(picked.modifier.contains(Modifier::UNDERLINED));
    press(&mut v, "⎋⎋r");
    insta::assert_snapshot!("endings_list_80x24", text(&screen(&mut v, 80, 24)));
    press(&mut v, "⎋e");
    insta::assert_snapshot!("header_list_80x24", text(&screen(&mut v, 80, 24)));
    press(&mut v, "⎋");
    typed(&mut v, "7g7f");
    press(&mut v, "q");
    insta::assert_snapshot!("quit_question_80x24", text(&screen(&mut v, 80, 24)));
}

fn viewer_at(sfen: &str) -> Viewer {
    use kifview::app::RecordSource;
    use kifview::core::record::Initial;
    use kifview::core::rules::Position;
    let record = Record::new(Initial {
        position: Position::from_sfen(sfen).unwrap(),
        handicap: None,
    });
    let doc = RecordSource::untitled("t.kif");
    Viewer::new(App::new(record, doc, Config::defaults()), Theme::plain())
}

#[test]
fn every_rule_is_named_when_a_move_is_refused() {
    // 打ち歩詰め: the pawn drop on 1二 would mate (gold guards it, the knight covers 2一).
    let mut v = viewer_at("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    typed(&mut v, "P*1b");
    assert!(status(&mut v).contains("打ち歩詰め"), "{}", status(&mut v));
    press(&mut v, "⎋");
    // The same on the board: P, then the square (1二 is not offered, and says why).
    press(&mut v, "iP");
    assert!(
        !v.app
            .overlays()
            .board()
            .unwrap()
            .targets
            .contains(&kifview::core::rules::Square::new(1, 2).unwrap())
    );
    // From 5五: four right, three up.
    press(&mut v, "llllkkk⏎");
    assert!(status(&mut v).contains("打ち歩詰め"), "{}", status(&mut v));
    press(&mut v, "⎋⎋");
    // 行き所のない駒: a pawn dropped on the last rank.
    typed(&mut v, "P*9a");
    assert!(
        status(&mut v).contains("行き所のない駒"),
        "{}",
        status(&mut v)
    );
    press(&mut v, "⎋");
    // 王手放置: the gold on 5八 is pinned by the rook on 5一.
    let mut v = viewer_at("4r4/9/9/9/9/9/9/4G4/4K4 b - 1");
    typed(&mut v, "5h4h");
    assert!(status(&mut v).contains("王手放置"), "{}", status(&mut v));
    press(&mut v, "⎋");
    // On the board the pinned gold may only move along the file.
    press(&mut v, "ijjj⏎");
    let targets = v.app.overlays().board().unwrap().targets.clone();
    assert!(
        !targets.is_empty() && targets.iter().all(|s| s.file() == 5),
        "{targets:?}"
    );
    press(&mut v, "l⏎");
    assert!(status(&mut v).contains("王手放置"), "{}", status(&mut v));
    assert_eq!(v.app.record().len(), 1, "nothing was added");
}

#[test]
fn clicking_a_piece_and_a_square_enters_a_move() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut v = new_viewer();
    let _ = screen(&mut v, 80, 24);
    let area = v.view.board_squares;
    let click = |v: &mut Viewer, file: u16, rank: u16| {
        v.handle(&Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: area.x + 3 * (9 - file) + 1,
            row: area.y + rank - 1,
            modifiers: KeyModifiers::NONE,
        }));
        let _ = screen(v, 80, 24);
    };
    click(&mut v, 7, 7);
    assert_eq!(v.app.mode(), Mode::Board);
    click(&mut v, 7, 6);
    assert_eq!(cur_text(&v), "▲７六歩(77)");
    // Flipped: the same squares are elsewhere on the screen.
    press(&mut v, "f");
    let _ = screen(&mut v, 80, 24);
    let area = v.view.board_squares;
    let flip_click = |v: &mut Viewer, file: u16, rank: u16| {
        v.handle(&Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: area.x + 3 * (file - 1) + 1,
            row: area.y + 9 - rank,
            modifiers: KeyModifiers::NONE,
        }));
    };
    flip_click(&mut v, 3, 3);
    flip_click(&mut v, 3, 4);
    assert_eq!(cur_text(&v), "△３四歩(33)");
}

#[test]
fn save_back_keeps_bom_and_crlf_and_every_record_of_a_csa_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bom.kifu");
    let text =
        "\u{feff}先手：甲\r\n後手：乙\r\n手数----指手---------消費時間--\r\n   1 ７六歩(77)\r\n";
    std::fs::write(&file, text).unwrap();
    let mut v = viewer_on(&file, None);
    press(&mut v, "G");
    typed(&mut v, "3c3d");
    press(&mut v, "^s");
    assert!(status(&mut v).contains("saved"), "{}", status(&mut v));
    let bytes = std::fs::read(&file).unwrap();
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"), "BOM kept");
    let t = String::from_utf8(bytes[3..].to_vec()).unwrap();
    assert!(t.contains("３四歩(33)\r\n"), "{t}");
    assert!(
        !t.replace("\r\n", "").contains('\n'),
        "CRLF everywhere: {t:?}"
    );

    // A file of two CSA records: saving back writes both (issue 12; it used to write only
    // the one shown, after asking).
    let two = dir.path().join("two.csa");
    let other = "V2.2\nN+C\nN-D\nPI\n+\n+2726FU\n%CHUDAN\n";
    std::fs::write(
        &two,
        format!("V2.2\nN+A\nN-B\nPI\n+\n+7776FU\n%TORYO\n/\n{other}"),
    )
    .unwrap();
    let mut v = viewer_on(&two, None);
    press(&mut v, "lcnote⎋^s");
    assert!(status(&mut v).contains("saved"), "{}", shown(&mut v));
    let back = std::fs::read_to_string(&two).unwrap();
    assert!(back.contains("'*note\n"), "{back}");
    assert!(back.ends_with(&format!("/\n{other}")), "{back}");
}

// ----- edits that must never be lost (issue 9) -----

fn study_copy(dir: &Path, name: &str) -> std::path::PathBuf {
    let file = dir.join(name);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/study.kif");
    std::fs::copy(&src, &file).unwrap();
    file
}

#[test]
fn save_undo_and_a_different_edit_is_unsaved() {
    let dir = tempfile::tempdir().unwrap();
    let file = study_copy(dir.path(), "orig.kif");
    let mut v = viewer_on(&file, None);
    press(&mut v, "lc一⎋^s");
    assert!(!status(&mut v).contains("[+]"), "{}", status(&mut v));
    // An edit undone brings back exactly the saved state: nothing to save.
    press(&mut v, "c三⎋");
    assert!(status(&mut v).contains("[+]"));
    press(&mut v, "u");
    assert!(!status(&mut v).contains("[+]"), "{}", status(&mut v));
    // Undo past the save, then a different edit: neither state is the saved one.
    press(&mut v, "u");
    assert!(status(&mut v).contains("[+]"));
    press(&mut v, "c二⎋");
    assert!(status(&mut v).contains("[+]"), "{}", status(&mut v));
    press(&mut v, "q");
    assert!(
        !v.app.should_quit(),
        "quit must ask: 二 exists nowhere on disk"
    );
    assert!(shown(&mut v).contains("unsaved changes"));
    press(&mut v, "c");
    // Redo is gone (the new edit replaced it) and undo returns to the saved state.
    press(&mut v, "u");
    assert!(status(&mut v).contains("[+]"), "the state before the save");
}

#[test]
fn write_copy_keeps_the_session_and_saveas_switches() {
    let dir = tempfile::tempdir().unwrap();
    let file = study_copy(dir.path(), "orig.kif");
    let mut v = viewer_on(&file, None);
    press(&mut v, "lc研究⎋");
    // :w PATH in a format that cannot hold the variations: a copy; the session stays.
    let copy = dir.path().join("copy.csa");
    press(&mut v, &format!(":w {}⏎", copy.display()));
    assert_eq!(v.app.mode(), Mode::Confirm);
    press(&mut v, "y");
    assert!(copy.exists());
    let s = status(&mut v);
    assert!(s.contains("orig.kif") && s.contains("[+]"), "{s}");
    press(&mut v, "q");
    assert!(
        !v.app.should_quit(),
        "the comment and variations are not on disk"
    );
    press(&mut v, "c");
    // Ctrl-s writes the record's own file (KIF holds everything): clean.
    press(&mut v, "^s");
    assert!(!status(&mut v).contains("[+]"), "{}", status(&mut v));
    let r = notation::load(&std::fs::read(&file).unwrap(), Some(&file));
    assert!(
        r.records[0]
            .record
            .nodes
            .iter()
            .any(|n| n.comment == "研究")
    );
    // A lossless copy of an edit: the edit is on disk, nothing to ask at quit.
    press(&mut v, "c研究2⎋");
    let kifu = dir.path().join("copy.kifu");
    press(&mut v, &format!(":w {}⏎", kifu.display()));
    let s = status(&mut v);
    assert!(s.contains("orig.kif") && !s.contains("[+]"), "{s}");
    // :saveas switches to the new file and its format; lossy, so still modified.
    press(&mut v, "c研究3⎋");
    let other = dir.path().join("other.csa");
    press(&mut v, &format!(":saveas {}⏎", other.display()));
    assert_eq!(v.app.mode(), Mode::Confirm);
    press(&mut v, "y");
    let s = status(&mut v);
    assert!(s.contains("other.csa") && s.contains("CSA"), "{s}");
    assert!(s.contains("[+]"), "CSA lost the variations: {s}");
    // A plain save over the CSA file asks again, every time.
    press(&mut v, "^s");
    assert_eq!(v.app.mode(), Mode::Confirm);
    press(&mut v, "n");
    press(&mut v, ":q⏎");
    assert!(!v.app.should_quit());
    assert_eq!(v.app.mode(), Mode::Confirm);
    // :sav is :saveas; back to a KIF file: everything is on disk again.
    press(&mut v, "c");
    let back = dir.path().join("back.kif");
    press(&mut v, &format!(":sav {}⏎", back.display()));
    let s = status(&mut v);
    assert!(s.contains("back.kif") && !s.contains("[+]"), "{s}");
    press(&mut v, "q");
    assert!(v.app.should_quit());
}

#[test]
fn the_lossy_save_question_names_and_counts_what_goes() {
    let dir = tempfile::tempdir().unwrap();
    let file = study_copy(dir.path(), "orig.kif");
    let mut v = viewer_on(&file, None);
    let csa = dir.path().join("x.csa");
    press(&mut v, &format!(":w {}⏎", csa.display()));
    let s = shown(&mut v);
    // The question itself (the status line) names what goes, not only the overlay.
    let last = status(&mut v);
    assert!(last.contains("variation"), "{last}");
    assert!(s.contains("3 variations"), "{s}");
    assert!(s.contains("2 bookmarks"), "{s}");
    press(&mut v, "n");
    // An encoding that cannot hold a character names it and its place.
    press(&mut v, "Gc𠮷⎋");
    let sjis = dir.path().join("x.kif");
    press(&mut v, &format!(":w {}⏎", sjis.display()));
    let s = shown(&mut v);
    assert!(s.contains("'𠮷'") && s.contains("comment at move"), "{s}");
}

/// A record of `n` moves on the main line (no variations).
fn long_record(n: usize) -> kifview::core::record::Record {
    let mut r = kifview::core::record::Record::default();
    let mut at = NodeId::ROOT;
    for _ in 0..n {
        let pos = r.position_at(at);
        let mv = pos.legal_moves()[0];
        at = kifview::app::testing::push_usi(&mut r, at, &mv.usi());
    }
    r
}

#[test]
fn deleting_counts_every_node_asks_when_large_and_undo_restores_all() {
    // study.kif: ply 5 has branches inside branches; d reports the whole subtree.
    let dir = tempfile::tempdir().unwrap();
    let file = study_copy(dir.path(), "orig.kif");
    let mut v = viewer_on(&file, None);
    let before = v.app.record().clone();
    let attached = |r: &kifview::core::record::Record| r.preorder().len();
    // Find a move whose subtree holds a fork below it.
    let target = before
        .main_line()
        .into_iter()
        .skip(1)
        .find(|&id| {
            let sub = before.preorder_from(id);
            sub.len() <= 50
                && sub
                    .iter()
                    .skip(1)
                    .any(|&n| before.node(n).children.len() > 1)
        })
        .expect("a move with branches below it");
    let removed = before.preorder_from(target).len();
    press(&mut v, &format!(":{}⏎", before.node(target).ply));
    press(&mut v, "d");
    assert_eq!(attached(v.app.record()), attached(&before) - removed);
    let s = status(&mut v);
    assert!(
        s.contains(&format!("and the {} moves after it", removed - 1)),
        "{removed} nodes removed: {s}"
    );
    press(&mut v, "u");
    assert_eq!(attached(v.app.record()), attached(&before));

    // More than 50 nodes: asks first; n keeps them.
    let mut v = Viewer::new(
        App::new(
            long_record(60),
            kifview::app::RecordSource::untitled("long.kif"),
            Config::defaults(),
        ),
        Theme::plain(),
    );
    press(&mut v, "l");
    press(&mut v, "d");
    assert_eq!(v.app.mode(), Mode::Confirm);
    assert!(shown(&mut v).contains("60 moves"), "{}", shown(&mut v));
    press(&mut v, "n");
    assert_eq!(attached(v.app.record()), 61);
    // D at ply 0 empties the record (after asking); undo restores all of it.
    press(&mut v, "gD");
    assert_eq!(v.app.mode(), Mode::Confirm);
    press(&mut v, "y");
    assert_eq!(attached(v.app.record()), 1);
    assert!(status(&mut v).contains("60 moves"), "{}", status(&mut v));
    press(&mut v, "u");
    assert_eq!(attached(v.app.record()), 61);
    assert_eq!(v.app.line().len(), 61);
}

#[test]
fn tab_completes_the_file_name_to_save_as() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("records")).unwrap();
    let mut v = new_viewer();
    typed(&mut v, "7g7f");
    press(&mut v, "^s");
    assert_eq!(v.app.mode(), Mode::Prompt);
    press(&mut v, &format!("{}/rec", dir.path().display()));
    key(&mut v, KeyCode::Tab, KeyModifiers::NONE);
    press(&mut v, "game.kifu⏎");
    let saved = dir.path().join("records/game.kifu");
    assert!(saved.exists(), "{}", status(&mut v));
    assert!(!status(&mut v).contains("[+]"));
}

#[test]
fn saving_over_a_read_only_file_asks_and_a_trailing_slash_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let kifu = dir.path().join("ro.kifu");
    std::fs::write(&kifu, "手数----指手---------消費時間--\n").unwrap();
    std::fs::set_permissions(&kifu, std::fs::Permissions::from_mode(0o444)).unwrap();
    let mut v = viewer_on(&kifu, None);
    typed(&mut v, "7g7f");
    press(&mut v, "^s");
    let shown = shown(&mut v);
    assert!(
        shown.contains("ro.kifu is read-only. Replace it anyway?"),
        "{shown}"
    );
    press(&mut v, "n");
    assert!(status(&mut v).contains("[+]"), "{}", status(&mut v));
    assert!(!std::fs::read_to_string(&kifu).unwrap().contains("７六歩"));
    press(&mut v, "^sy");
    assert!(!status(&mut v).contains("[+]"), "{}", status(&mut v));
    assert!(std::fs::read_to_string(&kifu).unwrap().contains("７六歩"));
    let mode = std::fs::metadata(&kifu).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o444, "the file stays read-only");

    // `:w DIR/sub.kif/` names no file: nothing is written, and the message says why.
    let sub = dir.path().join("sub.kif");
    press(&mut v, &format!(":w {}/⏎", sub.display()));
    let line = status(&mut v);
    assert!(line.contains("not a file name"), "{line}");
    assert!(!sub.exists());
}

#[test]
fn backspace_on_an_empty_prompt_keeps_it_open() {
    let mut v = new_viewer();
    press(&mut v, "m");
    assert_eq!(v.app.mode(), Mode::Prompt);
    press(&mut v, "7⌫⌫");
    assert_eq!(v.app.mode(), Mode::Prompt, "the empty prompt stays open");
    assert!(status(&mut v).contains("Esc leaves"), "{}", status(&mut v));
    // The Enter that follows answers the prompt; it does not start move input.
    press(&mut v, "⏎");
    assert_ne!(v.app.mode(), Mode::Board);
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Normal);
}
