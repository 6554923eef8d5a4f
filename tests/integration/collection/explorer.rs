//! The explorer pane (issue 23), driven by keys through the whole app on a small collection
//! indexed in the test, drawn into a TestBackend: the moves played from the position on the
//! board with their games and results, following the cursor; `X` then Enter plays one
//! (following the record's move, else a new variation, one undo step); no index: how to make
//! one.

use kifview::app::LaunchOptions;
use kifview::app::collection::{ExplorerRow, ExplorerView};
use kifview::tui::Viewer;
use std::path::{Path, PathBuf};

use crate::common::{press, screen, screen_rows, tick_until, usi_line, viewer_with};
use kifview::app::collection::focus::FOCUS;

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
    insta::assert_snapshot!("explorer_after_76fu_200x60", text(&mut v, 200, 60));
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
fn x_then_enter_plays_the_highlighted_move_following_the_record_or_adding_a_variation() {
    let dir = tempfile::tempdir().unwrap();
    let idx = indexed(dir.path());
    let mut v = viewer(dir.path(), Some(idx));
    press(&mut v, "xl");
    v.app.collection_settle();
    // X gives the pane the focus: its first move is highlighted.
    press(&mut v, "X");
    assert_eq!(v.app.mode(), FOCUS);
    assert_eq!(v.app.explorer_highlight(), Some(1));
    let shown = text(&mut v, 80, 24);
    insta::assert_snapshot!("explorer_focused_80x24", shown);
    assert!(
        shown.contains("EXPLORER"),
        "the status line names the mode: {shown}"
    );
    // △３四歩 (the first move of the pane) is not in the record: a new variation.
    press(&mut v, "⏎");
    assert_eq!(v.app.step_text(v.app.cur()), "△３四歩(33)");
    let root = kifview::core::record::NodeId::ROOT;
    let first = v.app.record().node(root).children[0];
    assert_eq!(v.app.record().node(first).children.len(), 2);
    assert!(v.app.is_modified());
    // The pane keeps the focus and follows the move.
    assert_eq!(v.app.mode(), FOCUS);
    // One undo step takes it away (u undoes in the pane too).
    press(&mut v, "u");
    assert_eq!(v.app.record().node(first).children.len(), 1);
    assert!(!v.app.is_modified());
    assert_eq!(usi_line(v.app.record(), root), ["7g7f", "8c8d", "2g2f"]);
    // h and l move through the record as when browsing; j (or Down) highlights △８四歩,
    // the record's move: followed, nothing added.
    press(&mut v, "hl");
    v.app.collection_settle();
    press(&mut v, "j");
    assert_eq!(v.app.explorer_highlight(), Some(2));
    press(&mut v, "j");
    assert_eq!(
        v.app.explorer_highlight(),
        Some(2),
        "the last move stays lit"
    );
    press(&mut v, "⏎");
    assert_eq!(v.app.step_text(v.app.cur()), "△８四歩(83)");
    assert_eq!(v.app.record().node(first).children.len(), 1);
    assert!(!v.app.is_modified());
    // The pane follows: after △8四歩, the one game that got there; Enter has no move to play.
    v.app.collection_settle();
    assert_eq!(table(&v), vec![row("全体", [1, 0, 1, 0, 0])]);
    assert_eq!(v.app.explorer_highlight(), None);
    press(&mut v, "⏎");
    assert_eq!(v.app.step_text(v.app.cur()), "△８四歩(83)");
    // Esc gives the focus back; x from the pane hides it and leaves the focus too.
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), kifview::app::Mode::Normal);
    assert_eq!(v.app.explorer_highlight(), None);
    press(&mut v, "Xx");
    assert_eq!(v.app.mode(), kifview::app::Mode::Normal);
    assert!(!v.app.explorer().shown());
}

#[test]
fn the_highlight_stays_on_its_move_when_the_answer_changes_and_it_is_still_there() {
    let dir = tempfile::tempdir().unwrap();
    let idx = indexed(dir.path());
    let mut v = viewer(dir.path(), Some(idx));
    // X shows the pane when hidden and gives it the focus.
    press(&mut v, "lX");
    v.app.collection_settle();
    assert_eq!(v.app.mode(), FOCUS);
    let lit = |v: &Viewer| rows(v)[v.app.explorer_highlight().unwrap()].label.clone();
    assert_eq!(lit(&v), "△３四歩");
    press(&mut v, "j");
    assert_eq!(lit(&v), "△８四歩");
    assert_eq!(v.app.explorer_highlight(), Some(2));
    // The games of 2020-01-03 (△３四歩) and 2020-01-04 (△８四歩): △８四歩 is still lit,
    // though no longer first by count.
    filter(&mut v, "2020-01-03..2020-01-04");
    v.app.collection_settle();
    assert_eq!(
        table(&v),
        vec![
            row("全体", [2, 0, 1, 1, 0]),
            row("△３四歩", [1, 0, 0, 1, 0]),
            row("△８四歩", [1, 0, 1, 0, 0])
        ]
    );
    assert_eq!(lit(&v), "△８四歩");
    // Only 2020-01-05's (△３四歩): △８四歩 is gone, the first move is lit.
    filter(&mut v, "2020-01-05");
    v.app.collection_settle();
    assert_eq!(
        table(&v),
        vec![
            row("全体", [1, 1, 0, 0, 0]),
            row("△３四歩", [1, 1, 0, 0, 0])
        ]
    );
    assert_eq!(lit(&v), "△３四歩");
}

/// Sets the explorer's filter from the focused pane: `/`, clears the prefilled text, types
/// `text`, Enter.
fn filter(v: &mut Viewer, text: &str) {
    press(v, "/");
    assert_eq!(v.app.mode(), kifview::app::Mode::Prompt);
    let old = v.app.explorer().filter_text().chars().count();
    press(v, &"⌫".repeat(old));
    press(v, text);
    press(v, "⏎");
}

#[test]
fn the_filter_is_set_from_the_pane_shown_in_its_title_and_shared_by_the_games_list() {
    let dir = tempfile::tempdir().unwrap();
    let idx = indexed(dir.path());
    let mut v = viewer(dir.path(), Some(idx));
    press(&mut v, "xX");
    v.app.collection_settle();
    // Games from 2020-01-03 to 2020-01-05 (three: 7g7f each), by a name both sides share.
    filter(&mut v, "2020-01-03..2020-01-05   player:手");
    assert_eq!(v.app.mode(), FOCUS);
    assert_eq!(
        v.app.explorer().filter_text(),
        "2020-01-03..2020-01-05 player:手"
    );
    let said = v.app.message().unwrap().text.clone();
    assert!(said.contains("2020-01-03..2020-01-05 player:手"), "{said}");
    v.app.collection_settle();
    assert_eq!(
        table(&v),
        vec![
            row("全体", [3, 1, 1, 1, 0]),
            row("▲７六歩", [3, 1, 1, 1, 0])
        ]
    );
    insta::assert_snapshot!("explorer_filtered_80x24", text(&mut v, 80, 24));
    insta::assert_snapshot!("explorer_filtered_120x40", text(&mut v, 120, 40));
    insta::assert_snapshot!("explorer_filtered_200x60", text(&mut v, 200, 60));
    // The prompt comes prefilled with the filter in force.
    press(&mut v, "/");
    let prompt = v.app.overlays().prompt().unwrap().text.clone();
    assert_eq!(prompt, "2020-01-03..2020-01-05 player:手");
    // A filter that does not read: the parser's message, whole on the status line at 80
    // columns; the old filter stays in force; / brings the text back to mend, once.
    press(&mut v, " result:win⏎");
    assert_eq!(v.app.mode(), FOCUS);
    let said = v.app.message().unwrap().text.clone();
    assert!(
        said.contains("result:win: expected sente, gote, draw or unknown"),
        "{said}"
    );
    let shown = text(&mut v, 80, 24);
    assert!(
        shown
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains("expected sente, gote, draw or unknown (/ mends it)"),
        "{shown}"
    );
    press(&mut v, "/");
    let prompt = v.app.overlays().prompt().unwrap().text.clone();
    assert_eq!(prompt, "2020-01-03..2020-01-05 player:手 result:win");
    press(&mut v, "⎋/");
    let prompt = v.app.overlays().prompt().unwrap().text.clone();
    assert_eq!(prompt, "2020-01-03..2020-01-05 player:手");
    press(&mut v, "⎋");
    assert_eq!(
        v.app.explorer().filter_text(),
        "2020-01-03..2020-01-05 player:手"
    );
    assert_eq!(table(&v)[0], row("全体", [3, 1, 1, 1, 0]));
    // The games list (o) looks at the same games, and says so in its title.
    press(&mut v, "lo");
    v.app.collection_settle();
    let list = v.app.overlays().list().unwrap().clone();
    assert_eq!(list.items.len(), 3, "{:?}", list.items);
    assert!(
        list.title.contains("[2020-01-03..2020-01-05 player:手]"),
        "{}",
        list.title
    );
    insta::assert_snapshot!("collection_games_filtered_80x24", text(&mut v, 80, 24));
    press(&mut v, "⎋h");
    // An empty filter clears it: every game again.
    filter(&mut v, "");
    assert_eq!(v.app.explorer().filter_text(), "");
    v.app.collection_settle();
    assert_eq!(table(&v)[0], row("全体", [5, 1, 2, 1, 1]));
    let shown = text(&mut v, 80, 24);
    assert!(
        shown.contains("[all indexed]"),
        "no filter: every game, said: {shown}"
    );
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
    // Keys go on working; X says there is nothing to explore and keeps browsing.
    press(&mut v, "lX");
    assert_eq!(v.app.step_text(v.app.cur()), "▲７六歩(77)");
    assert_eq!(v.app.mode(), kifview::app::Mode::Normal);
}

#[test]
fn the_whole_path_explore_play_from_the_pane_list_the_games_open_one_and_back_keeps_edits_and_undo()
{
    let dir = tempfile::tempdir().unwrap();
    let idx = indexed(dir.path());
    let mut v = viewer(dir.path(), Some(idx));
    // Explore, play △３四歩 from the pane (a new variation: an unsaved edit).
    press(&mut v, "xl");
    v.app.collection_settle();
    press(&mut v, "X⏎");
    assert_eq!(v.app.step_text(v.app.cur()), "△３四歩(33)");
    assert_eq!(v.app.mode(), FOCUS);
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
    insta::assert_snapshot!("collection_games_200x60", text(&mut v, 200, 60));
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
    // Enter opens the first at the position (ply 2), the record left stays aside; a record
    // opened starts browsing (the pane stays shown).
    press(&mut v, "⏎");
    assert_eq!(v.app.mode(), kifview::app::Mode::Normal);
    assert!(v.app.explorer().shown());
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

/// The total line's games.
fn total_games(v: &Viewer) -> Option<u64> {
    match v.app.explorer_view() {
        ExplorerView::Rows {
            rows,
            updating: false,
        } => Some(rows[0].games),
        _ => None,
    }
}

#[test]
fn the_pane_follows_the_index_updated_and_rebuilt_from_outside() {
    let dir = tempfile::tempdir().unwrap();
    let idx = indexed(dir.path());
    let coll = dir.path().join("coll");
    let mut v = viewer(dir.path(), Some(idx.clone()));
    press(&mut v, "x");
    v.app.collection_settle();
    assert_eq!(total_games(&v), Some(5));
    // ▲7六歩 seen, then back: its answer is kept.
    press(&mut v, "l");
    v.app.collection_settle();
    assert_eq!(total_games(&v), Some(3));
    press(&mut v, "h");
    v.app.collection_settle();
    // From outside: a game more, ▲7六歩 too.
    let game = "V2.2\nN+先手9\nN-後手9\n$START_TIME:2020/02/01 10:00:00\nPI\n+\n+7776FU\n%TORYO\n";
    std::fs::write(coll.join("g9.csa"), game).unwrap();
    kifview::collection::update(
        &idx,
        std::slice::from_ref(&coll),
        Default::default(),
        &|_, _| {},
    )
    .unwrap();
    tick_until(&mut v, "showed the new game at the start", |v| {
        total_games(v) == Some(6)
    });
    // The position seen before the update is asked again, not shown from before.
    press(&mut v, "l");
    v.app.collection_settle();
    assert_eq!(total_games(&v), Some(4));
    // A rebuild (another --variations: a new catalog file, the old one's files deleted), with
    // another game.
    std::fs::write(coll.join("g10.csa"), game.replace("2020/02", "2020/03")).unwrap();
    let opts = kifview::collection::UpdateOptions { variations: true };
    let r = kifview::collection::update(&idx, &[coll], opts, &|_, _| {}).unwrap();
    assert!(r.rebuilt.is_some(), "{r:?}");
    tick_until(&mut v, "answered from the rebuilt index", |v| {
        total_games(v) == Some(5)
    });
    let shown = text(&mut v, 80, 24);
    assert!(!shown.contains("deleted"), "{shown}");
}

/// As me (`m` in the pane): only the games I played, scored from my side whatever my colour;
/// the games list (`o`) shows each game's result from my side and my score; `m` again:
/// everyone's. Nobody named as me: `m` says how to name oneself.
#[test]
fn as_me_counts_my_games_from_my_side_following_my_colour() {
    let dir = tempfile::tempdir().unwrap();
    let idx = indexed(dir.path());
    let file = dir.path().join("study.kif");
    std::fs::write(&file, "手数----指手---------消費時間--\n   1 ７六歩(77)\n").unwrap();
    // Me: sente of game 0 (sente won), gote of games 1 (gote won) and 2 (千日手).
    let mut v = viewer_with(&LaunchOptions {
        file: Some(file),
        index: Some(idx.clone()),
        me: vec!["先手0".into(), "後手 1".into(), "後手２".into()],
        ..Default::default()
    });
    press(&mut v, "xX");
    v.app.collection_settle();
    assert_eq!(table(&v)[0], row("全体", [5, 1, 2, 1, 1]));
    assert!(rows(&v)[0].me.is_none());
    press(&mut v, "m");
    assert!(v.app.explorer().as_me());
    v.app.collection_settle();
    let me = |r: &ExplorerRow| {
        let m = r.me.expect("as me");
        (r.label.clone(), [m.games, m.win, m.loss, m.draw, m.unknown])
    };
    let mine: Vec<_> = rows(&v).iter().map(me).collect();
    assert_eq!(
        mine,
        vec![
            ("全体".to_string(), [3, 2, 0, 1, 0]),
            ("▲７六歩".to_string(), [3, 2, 0, 1, 0]),
        ]
    );
    let shown = text(&mut v, 80, 24);
    assert!(
        shown.contains("棋譜DB 自分 3局") && shown.contains("勝率"),
        "{shown}"
    );
    insta::assert_snapshot!("explorer_as_me_80x24", shown);
    // The games list: my games, my result in each, my score in its title.
    press(&mut v, "o");
    v.app.collection_settle();
    let list = v.app.overlays().list().unwrap().clone();
    assert_eq!(list.items.len(), 3, "{:?}", list.items);
    let results: Vec<bool> = list.items.iter().map(|i| i.contains("自分勝")).collect();
    assert_eq!(
        results.iter().filter(|w| **w).count(),
        2,
        "{:?}",
        list.items
    );
    assert!(
        list.items.iter().any(|i| i.contains("自分分")),
        "{:?}",
        list.items
    );
    assert!(
        list.title.contains("[as me]") && list.title.contains("2勝0敗1分 勝率83%"),
        "{}",
        list.title
    );
    insta::assert_snapshot!("collection_games_as_me_80x24", text(&mut v, 80, 24));
    // Everyone's again.
    press(&mut v, "⎋m");
    assert!(!v.app.explorer().as_me());
    v.app.collection_settle();
    assert_eq!(table(&v)[0], row("全体", [5, 1, 2, 1, 1]));
    assert!(rows(&v)[0].me.is_none());
    // Nobody is me: m says how to name oneself, and nothing changes.
    let mut v = viewer(dir.path(), Some(idx));
    press(&mut v, "xXm");
    assert!(!v.app.explorer().as_me());
    let said = v.app.message().unwrap().text.clone();
    assert!(
        said.contains("[collection] me") && said.contains("--me"),
        "{said}"
    );
}
