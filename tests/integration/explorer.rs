//! The explorer pane (issue 23), driven by keys through the whole app on a small collection
//! indexed in the test, drawn into a TestBackend: the moves played from the position on the
//! board with their games and results, following the cursor; `X` then Enter plays one
//! (following the record's move, else a new variation, one undo step); no index: how to make
//! one.

use kifview::app::LaunchOptions;
use kifview::app::collection::{ExplorerRow, ExplorerView};
use kifview::tui::Viewer;
use std::path::{Path, PathBuf};

use crate::common::{press, screen, screen_rows, usi_line, viewer_with};

/// Five games: from the start 7g7f three times (3c3d twice, 8c8d once), 2g2f once, and one
/// that ends before its first move. Results: sente, gote, draw, unknown, gote.
const GAMES: [(&str, &str, &str); 5] = [
    ("2020/01/05", "+7776FU\n-3334FU\n+2726FU\n", "%TORYO"),
    ("2020/01/04", "+7776FU\n-8384FU\n", "%TORYO"),
    ("2020/01/03", "+7776FU\n-3334FU\n", "%SENNICHITE"),
    ("2020/01/02", "+2726FU\n-8384FU\n", "%CHUDAN"),
    ("2020/01/01", "", "%TORYO"),
];

/// A collection of `GAMES` as CSA files and its index; returns the index folder.
fn indexed(root: &Path) -> PathBuf {
    let coll = root.join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    for (i, (date, moves, end)) in GAMES.iter().enumerate() {
        let text = format!(
            "V2.2\nN+先手{i}\nN-後手{i}\n$START_TIME:{date} 10:00:00\nPI\n+\n{moves}{end}\n"
        );
        std::fs::write(coll.join(format!("g{i}.csa")), text).unwrap();
    }
    let idx = root.join("idx");
    kifview::collection::update(&idx, &[coll], Default::default(), &|_, _| {}).unwrap();
    idx
}

/// The viewer on a record kept outside the collection (▲7六歩 △8四歩 ▲2六歩), exploring `idx`.
fn viewer(root: &Path, idx: Option<PathBuf>) -> Viewer {
    let file = root.join("study.kif");
    std::fs::write(
        &file,
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ８四歩(83)\n   3 ２六歩(27)\n",
    )
    .unwrap();
    viewer_with(&LaunchOptions {
        file: Some(file),
        index: idx,
        ..Default::default()
    })
}

fn rows(v: &Viewer) -> Vec<ExplorerRow> {
    match v.app.explorer_view() {
        ExplorerView::Rows {
            rows,
            updating: false,
        } => rows,
        other => panic!("no answer for the position shown: {other:?}"),
    }
}

/// (label, games, sente, gote, draw, unknown) of each row.
fn table(v: &Viewer) -> Vec<(String, u64, u64, u64, u64, u64)> {
    rows(v)
        .into_iter()
        .map(|r| (r.label, r.games, r.sente, r.gote, r.draw, r.unknown))
        .collect()
}

fn text(v: &mut Viewer, w: u16, h: u16) -> String {
    let mut out = screen_rows(&screen(v, w, h)).join("\n");
    out.push('\n');
    out
}

fn row(label: &str, c: [u64; 5]) -> (String, u64, u64, u64, u64, u64) {
    (label.to_string(), c[0], c[1], c[2], c[3], c[4])
}

#[test]
fn the_pane_follows_the_cursor_with_the_collections_moves_and_results() {
    let dir = tempfile::tempdir().unwrap();
    let idx = indexed(dir.path());
    let mut v = viewer(dir.path(), Some(idx));
    assert!(!v.app.explorer().shown());
    press(&mut v, "x");
    assert!(v.app.explorer().shown());
    v.app.collection_settle();
    // The start position: every game, the total line first, moves by count.
    assert_eq!(
        table(&v),
        vec![
            row("全体", [5, 1, 2, 1, 1]),
            row("▲７六歩", [3, 1, 1, 1, 0]),
            row("▲２六歩", [1, 0, 0, 0, 1]),
        ]
    );
    insta::assert_snapshot!("explorer_start_80x24", text(&mut v, 80, 24));
    // One move on: the position after ▲7六歩, in gote's notation.
    press(&mut v, "l");
    v.app.collection_settle();
    assert_eq!(
        table(&v),
        vec![
            row("全体", [3, 1, 1, 1, 0]),
            row("△３四歩", [2, 1, 0, 1, 0]),
            row("△８四歩", [1, 0, 1, 0, 0]),
        ]
    );
    insta::assert_snapshot!("explorer_after_76fu_120x40", text(&mut v, 120, 40));
    // Before the answer for a new position comes, the previous one is shown as updating.
    press(&mut v, "l");
    let shown = text(&mut v, 80, 24);
    match v.app.explorer_view() {
        ExplorerView::Rows { updating: true, .. } => assert!(shown.contains("更新中"), "{shown}"),
        // The worker already answered: the new rows are shown.
        ExplorerView::Rows {
            updating: false, ..
        } => {}
        other => panic!("{other:?}"),
    }
    v.app.collection_settle();
    // After ▲7六歩 △8四歩 one game, which ended there.
    assert_eq!(table(&v), vec![row("全体", [1, 0, 1, 0, 0])]);
    // Back at the start: answered again at once.
    press(&mut v, "g");
    v.app.collection_tick();
    assert_eq!(table(&v)[0], row("全体", [5, 1, 2, 1, 1]));
    // x hides it: the comment pane is back.
    press(&mut v, "x");
    assert!(!text(&mut v, 80, 24).contains("棋譜DB"));
}

#[test]
fn enter_on_an_explorer_move_follows_the_record_or_adds_a_variation_as_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let idx = indexed(dir.path());
    let mut v = viewer(dir.path(), Some(idx));
    press(&mut v, "xl");
    v.app.collection_settle();
    // △３四歩 (the first move of the list) is not in the record: a new variation.
    press(&mut v, "X");
    insta::assert_snapshot!("explorer_moves_list_80x24", text(&mut v, 80, 24));
    press(&mut v, "⏎");
    assert_eq!(v.app.step_text(v.app.cur()), "△３四歩(33)");
    let root = kifview::core::record::NodeId::ROOT;
    let first = v.app.record().node(root).children[0];
    assert_eq!(v.app.record().node(first).children.len(), 2);
    assert!(v.app.is_modified());
    // One undo step takes it away.
    press(&mut v, "u");
    assert_eq!(v.app.record().node(first).children.len(), 1);
    assert!(!v.app.is_modified());
    assert_eq!(usi_line(v.app.record(), root), ["7g7f", "8c8d", "2g2f"]);
    // △８四歩 (the second) is the record's move: followed, nothing added.
    press(&mut v, "h");
    press(&mut v, "l");
    v.app.collection_settle();
    press(&mut v, "X↓⏎");
    assert_eq!(v.app.step_text(v.app.cur()), "△８四歩(83)");
    assert_eq!(v.app.record().node(first).children.len(), 1);
    assert!(!v.app.is_modified());
    // The pane follows: after △8四歩, the one game that got there.
    v.app.collection_settle();
    assert_eq!(table(&v), vec![row("全体", [1, 0, 1, 0, 0])]);
}

#[test]
fn without_an_index_the_pane_says_how_to_make_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = viewer(dir.path(), Some(dir.path().join("no-index")));
    press(&mut v, "x");
    v.app.collection_settle();
    assert!(matches!(v.app.explorer_view(), ExplorerView::NoIndex(_)));
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("kifview index DIR"), "{shown}");
    // Keys go on working; X says there is nothing to list.
    press(&mut v, "lX");
    assert_eq!(v.app.step_text(v.app.cur()), "▲７六歩(77)");
    assert_eq!(v.app.mode(), kifview::app::Mode::Normal);
}

#[test]
fn games_at_this_position_open_one_at_its_ply_and_come_back_with_edits_and_undo_intact() {
    let dir = tempfile::tempdir().unwrap();
    let idx = indexed(dir.path());
    let mut v = viewer(dir.path(), Some(idx));
    // Explore, play △３四歩 from the pane (a new variation: an unsaved edit).
    press(&mut v, "xl");
    v.app.collection_settle();
    press(&mut v, "X⏎");
    assert_eq!(v.app.step_text(v.app.cur()), "△３四歩(33)");
    assert!(v.app.is_modified());
    let edited = v.app.record().clone();
    let here = v.app.cur();
    // The games reaching ▲7六歩 △3四歩: two, newest first.
    press(&mut v, "o");
    v.app.collection_settle();
    assert_eq!(v.app.mode(), kifview::app::Mode::List);
    let list = text(&mut v, 80, 24);
    insta::assert_snapshot!("collection_games_80x24", list);
    insta::assert_snapshot!("collection_games_120x40", text(&mut v, 120, 40));
    let items = v.app.overlays().list().unwrap().items.clone();
    assert_eq!(items.len(), 2, "{items:?}");
    assert!(
        items[0].starts_with("2020-01-05  先手0 - 後手0  先手勝  3手目 ▲２六歩"),
        "{items:?}"
    );
    assert!(
        items[1].starts_with("2020-01-03  先手2 - 後手2  引分  2手で終局"),
        "{items:?}"
    );
    // Enter opens the first at the position (ply 2), the record left stays aside.
    press(&mut v, "⏎");
    assert_eq!(v.app.mode(), kifview::app::Mode::Normal);
    assert_eq!(v.app.source().name, "g0.csa");
    assert_eq!(v.app.cur_index(), 2);
    assert_eq!(v.app.step_text(v.app.cur()), "△３四歩(33)");
    assert!(!v.app.is_modified());
    // An edit in the game (cut after the position), then back: the study as it was.
    press(&mut v, "D");
    assert!(v.app.is_modified());
    press(&mut v, "^o");
    assert_eq!(v.app.source().name, "study.kif");
    assert_eq!(v.app.record(), &edited);
    assert_eq!(v.app.cur(), here);
    assert!(v.app.is_modified());
    // Quitting now would lose the game's edit (on the forward stack): refused, said.
    press(&mut v, "q");
    assert!(!v.app.should_quit());
    let said = v.app.message().unwrap().text.clone();
    assert!(
        said.contains("1 record left with Ctrl-o/Ctrl-n have unsaved edits"),
        "{said}"
    );
    // Forward: the game with its edit; its undo brings the cut moves back.
    press(&mut v, "^n");
    assert_eq!(v.app.source().name, "g0.csa");
    assert!(v.app.is_modified());
    press(&mut v, "u");
    assert!(!v.app.is_modified());
    assert_eq!(
        usi_line(v.app.record(), kifview::core::record::NodeId::ROOT),
        ["7g7f", "3c3d", "2g2f", "投了"]
    );
    // Back again: the study's undo takes the explorer's move away in one step.
    press(&mut v, "^o");
    press(&mut v, "u");
    assert!(!v.app.is_modified());
    assert_eq!(
        usi_line(v.app.record(), kifview::core::record::NodeId::ROOT),
        ["7g7f", "8c8d", "2g2f"]
    );
    press(&mut v, "^o");
    assert_eq!(v.app.source().name, "study.kif");
}
