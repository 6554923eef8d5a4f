//! The screen at sizes a player uses (issue 21): the reduced layout below 64x18, the panes
//! at 120 columns, text that fits its pane, the move list's end when a file was not read to
//! its end, the graph on opening.

use crate::common::{press, screen, screen_rows};
use kifview::app::{App, Config, LaunchOptions};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use std::path::Path;
use unicode_width::UnicodeWidthStr;

/// `assets/study.kif` at ply `ply`, colours off (as with `NO_COLOR`).
fn study_at(ply: u32) -> Viewer {
    let opts = LaunchOptions {
        file: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/study.kif")),
        ..Default::default()
    };
    let mut v = Viewer::new(
        App::open(&opts, Config::defaults()).unwrap(),
        Theme::plain(),
    );
    for _ in 0..ply {
        press(&mut v, "l");
    }
    v
}

fn rows_at(v: &mut Viewer, w: u16, h: u16) -> Vec<String> {
    screen_rows(&screen(v, w, h))
}

#[test]
fn below_64x18_the_board_and_the_move_line_show() {
    let mut v = study_at(5);
    let rows = rows_at(&mut v, 63, 17);
    let all = rows.join("\n");
    assert!(all.contains("|v香v桂"), "{all}");
    assert!(all.contains("| 香 桂"), "{all}");
    assert!(all.contains("手数＝5"), "{all}");
    assert!(all.contains("の持駒："), "the hands as rows allow:\n{all}");
    assert!(!all.contains("needs a terminal"), "{all}");
    // The status line stays: a `:` line can be typed and the mode is named.
    press(&mut v, "i");
    let rows = rows_at(&mut v, 63, 17);
    assert!(rows[16].contains("MOVE INPUT"), "{}", rows.join("\n"));
    press(&mut v, "⎋");
    // The board and the move line alone at 31x13.
    let rows = rows_at(&mut v, 31, 13);
    assert!(rows[1].starts_with("+----"), "{}", rows.join("\n"));
    assert!(rows[12].starts_with("手数＝5"), "{}", rows.join("\n"));
    // Smaller than the board: the move line and the sizes needed.
    let rows = rows_at(&mut v, 30, 10);
    let all = rows.join("\n");
    assert!(rows[0].starts_with("手数＝5"), "{all}");
    assert!(all.contains("64x18"), "{all}");
    // Nothing to draw in: no panic.
    let _ = rows_at(&mut v, 1, 1);
}

#[test]
fn at_120_columns_the_analysis_and_the_comment_show_together() {
    use crate::engine::research::{Fake, key, until};
    use kifview::app::testing::push_line;
    use kifview::core::record::{NodeId, Record};
    let fake = Fake::new("< go\n> info depth 3 nodes 10 multipv 1 score cp 123 pv 7g7f 3c3d\n");
    let mut r = Record::default();
    r.node_mut(NodeId::ROOT).comment = "序盤の研究".into();
    push_line(&mut r, NodeId::ROOT, "7g7f 3c3d");
    let mut app = fake.app(r);
    key(&mut app, 'a');
    until(&mut app, "a line", |a| {
        a.analysis_is_current() && a.research().analysis().is_some_and(|x| !x.lines.is_empty())
    });
    let mut v = Viewer::new(app, Theme::plain());
    // 120x40 draws the large board (auto): the comment, the graph and the analysis share
    // the column beside it; 200x60 and 120x24 (the BOD board) have columns for each.
    key(&mut v.app, 'E');
    for (w, h) in [(120, 40), (120, 24), (200, 60)] {
        let all = rows_at(&mut v, w, h).join("\n");
        assert!(all.contains("検討 解析中"), "{w}x{h}:\n{all}");
        assert!(all.contains("序盤の研究"), "{w}x{h}:\n{all}");
        assert!(all.contains("+123"), "{w}x{h}:\n{all}");
    }
    // At 80x24 the analysis takes the comment's place (Tab shows the comment).
    let all = rows_at(&mut v, 80, 24).join("\n");
    assert!(
        all.contains("検討 解析中") && !all.contains("序盤の研究"),
        "{all}"
    );
}

#[test]
fn a_record_with_evaluations_opens_with_its_graph_where_it_fits() {
    let analysed = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph/analysed.kif");
    let open = || {
        let opts = LaunchOptions {
            file: Some(analysed.clone()),
            ..Default::default()
        };
        Viewer::new(
            App::open(&opts, Config::defaults()).unwrap(),
            Theme::plain(),
        )
    };
    let mut v = open();
    // Without `E`: beside the comment from 120 columns (the BOD board at 120x24, the large
    // one at 120x40 and 200x60).
    for (w, h) in [(120, 24), (120, 40), (200, 60)] {
        let all = rows_at(&mut v, w, h).join("\n");
        assert!(all.contains("評価値 ±2000"), "{w}x{h}:\n{all}");
        assert!(all.contains("コメント"), "{w}x{h}:\n{all}");
    }
    // `E` hides what is seen.
    press(&mut v, "E");
    let all = rows_at(&mut v, 200, 60).join("\n");
    assert!(!all.contains("評価値 ±2000"), "{all}");
    // At 80x24 it would take the comment's place: it waits for `E`, which shows it.
    let mut v = open();
    let all = rows_at(&mut v, 80, 24).join("\n");
    assert!(
        !all.contains("評価値 ±2000") && all.contains("コメント"),
        "{all}"
    );
    press(&mut v, "E");
    let all = rows_at(&mut v, 80, 24).join("\n");
    assert!(all.contains("評価値 ±2000"), "{all}");
    // A record without evaluations opens without it.
    let mut v = Viewer::new(kifview::app::testing::app_with(""), Theme::plain());
    let all = rows_at(&mut v, 200, 60).join("\n");
    assert!(!all.contains("評価値"), "{all}");
}

#[test]
fn the_move_list_ends_with_a_marker_where_the_reader_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.kif");
    // Line 5: no piece on ５六 to play; lines 5–7 are not read into the line of play.
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五角(56)\n   4 ８四歩(83)\n   5 投了\n";
    std::fs::write(&path, kif).unwrap();
    let opts = LaunchOptions {
        file: Some(path),
        ..Default::default()
    };
    let mut v = Viewer::new(
        App::open(&opts, Config::defaults()).unwrap(),
        Theme::plain(),
    );
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        let rows = rows_at(&mut v, w, h);
        let i = rows
            .iter()
            .position(|r| r.contains("△３四歩(33)"))
            .unwrap_or_else(|| panic!("{}", rows.join("\n")));
        assert!(
            rows[i + 1].contains("… 以下読めず (lines 5–7)"),
            "{w}x{h}:\n{}",
            rows.join("\n")
        );
    }
    // A file read to its end has no marker.
    let mut v = study_at(0);
    assert!(!rows_at(&mut v, 80, 24).join("\n").contains("以下読めず"));
}

/// The comment pane's rows at 80x24 (its inside, as drawn).
fn comment_rows(v: &mut Viewer) -> Vec<String> {
    let t = screen(v, 80, 24);
    let a = v.view.comment_area;
    assert!(a.width > 0, "no comment pane");
    let buf = t.backend().buffer();
    (a.top()..a.bottom())
        .map(|y| {
            let mut s = String::new();
            let mut x = a.left();
            while x < a.right() {
                let sym = buf[(x, y)].symbol();
                s.push_str(sym);
                x += UnicodeWidthStr::width(sym).max(1) as u16;
            }
            s
        })
        .collect()
}

#[test]
fn comment_lines_never_start_with_closing_punctuation() {
    // 21 kanji, then `い。」`: at 80x24 the pane holds 22 full-width characters a row, so a
    // break by width alone put `。」` at the start of the second row.
    let comment = format!("{}い。」と言った（本当）。", "研".repeat(21));
    let mut r = kifview::core::record::Record::default();
    r.node_mut(kifview::core::record::NodeId::ROOT).comment = comment.clone();
    let app = App::new(
        r,
        kifview::app::RecordSource::untitled("t.kif"),
        Config::defaults(),
    );
    let mut v = Viewer::new(app, Theme::plain());
    let check = |rows: &[String]| {
        let text: Vec<&str> = rows.iter().map(|r| r.trim_end()).collect();
        assert_eq!(text[0], "研".repeat(21), "{text:?}");
        assert!(text[1].starts_with("い。」と言った"), "{text:?}");
        for t in &text {
            assert!(!t.starts_with(['、', '。', '」', '）']), "{text:?}");
        }
    };
    check(&comment_rows(&mut v));
    // The comment editor wraps the same way.
    press(&mut v, "c");
    assert_eq!(v.app.mode(), kifview::app::Mode::Comment);
    check(&comment_rows(&mut v));
}

#[test]
fn a_long_player_name_ends_with_an_ellipsis() {
    let mut r = kifview::core::record::Record::default();
    r.header
        .set("先手", "第八十二期名人戦七番勝負挑戦者決定リーグ優勝者");
    r.header.set("後手", "羽生");
    let app = App::new(
        r,
        kifview::app::RecordSource::untitled("t.kif"),
        Config::defaults(),
    );
    let mut v = Viewer::new(app, Theme::plain());
    for (w, h) in [(80, 24), (120, 40)] {
        let rows = rows_at(&mut v, w, h);
        let row = rows
            .iter()
            .find(|r| r.starts_with("▲先手："))
            .unwrap_or_else(|| panic!("{}", rows.join("\n")));
        assert!(row.contains("…　手番"), "{w}x{h}: {row}");
        assert!(
            rows.iter().any(|r| r.starts_with("△後手：羽生 ")),
            "{w}x{h}"
        );
    }
}

#[test]
fn engine_lines_at_80x24_end_on_a_whole_move() {
    use crate::engine::research::{Fake, key, until};
    let fake = Fake::new(
        "< go\n> info depth 9 nodes 10 multipv 1 score cp 50 pv 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d\n",
    );
    let mut app = fake.app(kifview::core::record::Record::default());
    key(&mut app, 'a');
    until(&mut app, "a line", |a| {
        a.analysis_is_current() && a.research().analysis().is_some_and(|x| !x.lines.is_empty())
    });
    let full = app.research().analysis().unwrap().lines[0].japanese.clone();
    let mut v = Viewer::new(app, Theme::plain());
    let rows = rows_at(&mut v, 80, 24);
    let row = rows
        .iter()
        .find(|r| r.contains("+50"))
        .unwrap_or_else(|| panic!("{}", rows.join("\n")));
    let pv: String = row
        .chars()
        .skip_while(|&c| c != '▲')
        .take_while(|&c| c != '│')
        .collect();
    let shown = pv
        .trim_end()
        .strip_suffix('…')
        .unwrap_or_else(|| panic!("{row}"));
    assert!(full.starts_with(shown), "{full} / {shown}");
    assert!(
        full[shown.len()..].starts_with(['▲', '△']),
        "cut inside a move: {row}"
    );
}
