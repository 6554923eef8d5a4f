//! The evaluation graph pane (`E`): drawn from the evaluations a record's comments already
//! hold (a real Floodgate CSA file from the corpus, a KIF analysed by `kifview analyze`), at
//! 80x24 and 160x48; `]`/`[` between marked moves; a click on the graph jumps to that ply.

use kifview::app::{App, Config, KeyEvent, LaunchOptions};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::style::Modifier;
use std::path::{Path, PathBuf};

use crate::common::{screen, screen_rows};

fn viewer(path: &Path, ply: Option<u32>) -> Viewer {
    let opts = LaunchOptions {
        file: Some(path.to_path_buf()),
        ply,
        ..LaunchOptions::default()
    };
    let app = App::open(&opts, Config::defaults()).unwrap();
    Viewer::new(app, Theme::plain())
}

fn keys(v: &mut Viewer, keys: &str) {
    for c in keys.chars() {
        v.app.handle_key(KeyEvent::char(c));
    }
}

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph/analysed.kif")
}

fn floodgate() -> Option<PathBuf> {
    crate::common::corpus_file("real/shogi-kifu-converter/data/tests/csa/floodgate.csa")
}

fn click(v: &mut Viewer, column: u16, row: u16) {
    v.handle(&Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }));
}

#[test]
fn floodgate_csa_shows_its_graph_on_opening() {
    let Some(path) = floodgate() else { return };
    let mut v = viewer(&path, Some(30));
    keys(&mut v, "E");
    assert_eq!(v.app.cur_index(), 30);
    let t = screen(&mut v, 80, 24);
    let rows = screen_rows(&t).join("\n");
    // The title: the scale and the player's evaluation at ply 30 (Floodgate's `'** 43 …`).
    assert!(rows.contains("評価値 ±2000 · 30手 +43 (対局者)"), "{rows}");
    // The plot is braille; the comment pane gave way to it.
    assert!(rows.contains('⠉') || rows.contains('⠤'), "{rows}");
    assert!(!rows.contains("コメント"), "{rows}");
    insta::assert_snapshot!("graph_floodgate_80x24", t.backend());
    let t = screen(&mut v, 160, 48);
    let rows = screen_rows(&t).join("\n");
    assert!(
        rows.contains("コメント") && rows.contains("評価値 ±2000"),
        "{rows}"
    );
    insta::assert_snapshot!("graph_floodgate_160x48", t.backend());
    // Win % instead of centipawns.
    keys(&mut v, "%");
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(rows.contains("勝率 · 30手 ▲52% (対局者)"), "{rows}");
    // E hides it: the comment is back.
    keys(&mut v, "E");
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(
        rows.contains("コメント") && !rows.contains("勝率"),
        "{rows}"
    );
}

/// On the main line's ending (投了, the last node) the title said `本譜外` (off the main line):
/// it shows the position after the last move, as on that move.
#[test]
fn the_ending_of_the_main_line_is_on_the_main_line() {
    let mut v = viewer(&fixture(), Some(117));
    keys(&mut v, "E");
    let on_move = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    let title = |rows: &str| {
        rows.lines()
            .find(|l| l.contains("評価値 ±2000 · "))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no graph title in {rows}"))
    };
    assert!(title(&on_move).contains("117手 "), "{on_move}");
    crate::common::key(&mut v, KeyCode::Right, KeyModifiers::NONE);
    assert!(v.app.record().node(v.app.cur()).special().is_some());
    let on_end = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(!on_end.contains("本譜外"), "{on_end}");
    assert_eq!(title(&on_end), title(&on_move));
}

#[test]
fn analysed_kif_marks_summary_brackets_and_clicks() {
    let mut v = viewer(&fixture(), None);
    keys(&mut v, "E");
    let t = screen(&mut v, 80, 24);
    let rows = screen_rows(&t).join("\n");
    assert!(rows.contains("評価値 ±2000 · 0手"), "{rows}");
    insta::assert_snapshot!("graph_analysed_80x24", t.backend());
    // The summary counts what the comments say, per side.
    let data = kifview::app::research::graph::GraphData::new(v.app.record());
    let [s, g] = data.sides;
    assert!(rows.contains(&format!("▲{}", s.text())), "{rows}");
    let marks: usize = s.counts.iter().chain(g.counts.iter()).sum();
    assert!(marks > 2, "the fixture has marks: {s:?} {g:?}");
    // ] goes to the first marked move, [ back from the second to it.
    let marked: Vec<u32> = data
        .points
        .iter()
        .filter(|p| p.mark.is_some())
        .map(|p| p.ply)
        .collect();
    keys(&mut v, "]");
    assert_eq!(v.app.cur_index() as u32, marked[0]);
    let msg = v.app.message().cloned().unwrap().text;
    assert!(
        msg.starts_with('【') && msg.ends_with(&format!("(1/{})", marked.len())),
        "{msg}"
    );
    keys(&mut v, "]");
    assert_eq!(v.app.cur_index() as u32, marked[1]);
    keys(&mut v, "[");
    assert_eq!(v.app.cur_index() as u32, marked[0]);
    // The current ply is a reversed column of the plot, and only that one.
    let t = screen(&mut v, 80, 24);
    let area = v.view.graph_area;
    let buf = t.backend().buffer();
    let reversed: Vec<u16> = (area.x..area.right())
        .filter(|&x| {
            (area.y..area.bottom()).all(|y| buf[(x, y)].modifier.contains(Modifier::REVERSED))
        })
        .collect();
    let col = |ply: u32| {
        (f64::from(ply) * f64::from(area.width - 1) / (data.points.len() - 1) as f64).round() as u16
            + area.x
    };
    assert_eq!(reversed, vec![col(marked[0])]);
    // A click on the plot's last column goes to the last ply; on its first, to the start.
    let t = screen(&mut v, 160, 48);
    insta::assert_snapshot!("graph_analysed_160x48", t.backend());
    let area = v.view.graph_area;
    assert!(area.width > 40 && area.height > 4, "{area:?}");
    let last = data.points.len() - 1;
    click(&mut v, area.right() - 1, area.y + 1);
    assert_eq!(v.app.cur_index(), last);
    click(&mut v, area.x, area.y);
    assert_eq!(v.app.cur_index(), 0);
    click(&mut v, area.x + area.width / 2, area.bottom() - 1);
    let mid = v.app.cur_index() as i64;
    assert!((mid - last as i64 / 2).abs() <= 2, "{mid} of {last}");
}

#[test]
fn no_evaluations_says_how_to_get_them() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph/plain.kif");
    let mut v = viewer(&path, None);
    keys(&mut v, "E");
    assert!(
        v.app.message().as_ref().unwrap().text.contains(":analyze"),
        "{:?}",
        v.app.message()
    );
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(rows.contains("評価値がありません"), "{rows}");
    keys(&mut v, "]");
    assert!(
        v.app
            .message()
            .as_ref()
            .unwrap()
            .text
            .starts_with("no marked moves")
    );
}

/// A record that starts at move 81 names its moves from 81 in the graph's title too, as the
/// move list and the board do.
#[test]
fn a_record_from_move_81_is_numbered_from_81_in_the_graph() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("from81.kifu");
    std::fs::write(
        &path,
        "手合割：平手\n手数＝80\n手数----指手---------消費時間--\n  81 ７六歩(77)\n*#評価値=50\n  82 ３四歩(33)\n*#評価値=-30\n  83 ２六歩(27)\n*#評価値=80\n",
    )
    .unwrap();
    let mut v = viewer(&path, Some(82));
    keys(&mut v, "E");
    let rows = screen_rows(&screen(&mut v, 160, 48)).join("\n");
    assert!(rows.contains("82手 -30"), "{rows}");
    assert!(!rows.contains(" 2手 "), "{rows}");
}

/// A mate written as a huge centipawn score (ShogiGUI's `評価値 1000001`, ShogiHome's ±30000
/// in that form) reads as a mate in the graph's title, not as `+1000001`.
#[test]
fn a_mate_written_as_centipawns_reads_as_a_mate_in_the_title() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mate.kifu");
    std::fs::write(
        &path,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n**対局 深さ 2 ノード数 554 評価値 1000001 読み筋 ▲３三角(88)\n   2 ３四歩(33)\n**対局 深さ 9 ノード数 1000 評価値 -30000 読み筋 △８八角成(22)\n   3 ２六歩(27)\n**対局 深さ 9 ノード数 1000 評価値 29999 読み筋 △８四歩(83)\n",
    )
    .unwrap();
    let title = |ply: u32| {
        let mut v = viewer(&path, Some(ply));
        keys(&mut v, "E");
        let rows = screen_rows(&screen(&mut v, 160, 48));
        rows.into_iter()
            .find(|l| l.contains("評価値 ±2000 · "))
            .unwrap_or_default()
    };
    assert!(title(1).contains("1手 ▲勝 詰 (対局者)"), "{}", title(1));
    assert!(title(2).contains("2手 △勝 詰 (対局者)"), "{}", title(2));
    assert!(title(3).contains("3手 +29999 (対局者)"), "{}", title(3));
}
