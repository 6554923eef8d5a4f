//! The library from a player's side (issue 35), driven by keys through the whole app: the
//! summary above the list (the games listed by result from the side chosen, their most
//! frequent tags) checked against a count made here from the records written; which set the
//! list counts (a folder's games, or the whole index's); a folder forgotten from the index
//! (`D`, asked first, the list following, the files left on disk); the help.

use kifview::app::library::Side;
use kifview::app::overlay::Overlay;
use kifview::app::{LaunchOptions, Mode};
use kifview::tui::Viewer;
use std::path::Path;

use super::index::{collgen, result_of};
use super::library::{collection, filter, library, study_viewer, text};
use crate::common::{press, viewer_with};

/// Two games in `root/more`, indexed into `root/idx` beside `collection`'s five.
fn more(root: &Path) {
    let more = root.join("more");
    std::fs::create_dir_all(&more).unwrap();
    for (i, (b, w)) in [("大山康晴", "升田幸三"), ("升田幸三", "大山康晴")]
        .iter()
        .enumerate()
    {
        let text = format!(
            "V2.2\nN+{b}\nN-{w}\n$START_TIME:1960/0{}/01 10:00:00\nPI\n+\n+7776FU\n%TORYO\n",
            i + 1
        );
        std::fs::write(more.join(format!("m{i}.csa")), text).unwrap();
    }
    kifview::collection::update(&root.join("idx"), &[more], Default::default(), &|_, _| {})
        .unwrap();
}

/// `kifview --index IDX`: the whole index's games.
fn index_library(root: &Path) -> Viewer {
    let mut v = viewer_with(&LaunchOptions {
        index: Some(root.join("idx")),
        ..Default::default()
    });
    assert_eq!(v.app.mode(), Mode::Library);
    v.app.library_settle();
    v
}

fn question(v: &Viewer) -> String {
    match v.app.overlays().top() {
        Some(Overlay::Confirm(q)) => format!("{} {}", q.question, q.details.join(" ")),
        other => panic!("no question: {other:?}"),
    }
}

#[test]
fn d_forgets_the_folder_of_the_game_selected_from_the_index_after_asking() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path());
    kifview::collection::update(
        &dir.path().join("idx"),
        &[coll],
        Default::default(),
        &|_, _| {},
    )
    .unwrap();
    more(dir.path());
    let mut v = index_library(dir.path());
    assert_eq!(v.app.library().unwrap().ids().len(), 7);
    // The oldest games are 大山's and 升田's (1960), in `more`: the last rows.
    press(&mut v, "G");
    press(&mut v, "D");
    assert_eq!(v.app.mode(), Mode::Confirm);
    let more = std::fs::canonicalize(dir.path().join("more")).unwrap();
    let asked = question(&v);
    assert!(
        asked.contains(&format!("Forget {} from the index?", more.display())),
        "{asked}"
    );
    assert!(asked.contains("the files stay on disk"), "{asked}");
    // No: nothing forgotten.
    press(&mut v, "n");
    assert_eq!(v.app.mode(), Mode::Library);
    v.app.library_settle();
    assert_eq!(v.app.library().unwrap().ids().len(), 7);
    // Yes: the list follows, the folder's files stay.
    press(&mut v, "Dy");
    assert_eq!(v.app.mode(), Mode::Library);
    v.app.library_settle();
    let l = v.app.library().unwrap();
    assert_eq!(l.ids().len(), 5, "more's two games left the list");
    let note = l.note().unwrap().to_string();
    assert!(note.contains("its 2 games left the index"), "{note}");
    assert!(more.join("m0.csa").is_file() && more.join("m1.csa").is_file());
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("5 games"), "{shown}");
    // The index no longer names the folder: an update of the index does not bring it back.
    let r =
        kifview::collection::update(&dir.path().join("idx"), &[], Default::default(), &|_, _| {})
            .unwrap();
    assert_eq!(r.games, 5);
}

#[test]
fn d_in_a_folders_library_forgets_that_folder_and_the_list_empties() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    assert_eq!(v.app.library().unwrap().ids().len(), 5);
    press(&mut v, "D");
    let coll = std::fs::canonicalize(dir.path().join("coll")).unwrap();
    let asked = question(&v);
    assert!(
        asked.contains(&format!("Forget {}", coll.display())),
        "{asked}"
    );
    assert!(asked.contains("Its 5 games leave the index"), "{asked}");
    // Over the list, whole at 80 columns (no snapshot: the temporary folder's name, whose
    // length varies, wraps it).
    let shown = text(&mut v, 80, 24);
    assert!(
        shown.contains("y: forget") && shown.contains("n: keep"),
        "{shown}"
    );
    assert!(shown.contains("the files stay on"), "{shown}");
    press(&mut v, "y");
    v.app.library_settle();
    assert!(v.app.library().unwrap().ids().is_empty());
    assert!(coll.join("g0.csa").is_file(), "the files stay");
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("its 5 games left the index"), "{shown}");
}

/// The help's lines, as drawn from the app.
fn help(v: &Viewer) -> Vec<String> {
    kifview::tui::ui::help_lines(&v.app)
}

#[test]
fn help_in_the_library_starts_with_its_keys_and_the_filter_language() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    press(&mut v, "?");
    assert_eq!(v.app.mode(), Mode::Help);
    let lines = help(&v);
    assert!(
        lines[0].starts_with("Library: the collection's games"),
        "{lines:?}"
    );
    let at = |what: &str| {
        (lines.iter().position(|l| l.contains(what))).unwrap_or_else(|| panic!("{what}: {lines:?}"))
    };
    // Its keys, then the filter language, then every key as before.
    assert!(at("Library: forget a folder") < at("Filter language"));
    assert!(at("player:藤井") < at("Browsing"));
    assert!(at("me:sente") < at("Every key"));
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("Keys: library first"), "{shown}");
    insta::assert_snapshot!("library_help_80x24", shown);
    insta::assert_snapshot!("library_help_120x40", text(&mut v, 120, 40));
    // Browsing, the help is the whole one as before.
    press(&mut v, "⎋⎋?");
    assert_eq!(help(&v)[0], "Browsing");
}

/// The results of games as a tally from one side: (games, wins, losses, draws, unknown).
type Tally = (u64, u64, u64, u64, u64);

fn add(t: &mut Tally, result: &str, as_sente: bool) {
    t.0 += 1;
    match (result, as_sente) {
        ("sente", true) | ("gote", false) => t.1 += 1,
        ("sente", false) | ("gote", true) => t.2 += 1,
        ("draw", _) => t.3 += 1,
        _ => t.4 += 1,
    }
}

fn tally_of(v: &Viewer) -> Tally {
    let t = v.app.library().unwrap().side_tally().expect("a tally");
    (t.games, t.win, t.loss, t.draw, t.unknown)
}

#[test]
fn the_summary_counts_the_games_listed_by_result_from_the_side_chosen_and_their_top_tags() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    // 60 games, 20 of them 藤井's, his name written five ways, in either colour by turns.
    let written = collgen::write_player_collection(&coll, &mut collgen::Rng(12), 60, 20);
    // The count made here: each record read back, its result from its moves and ending, its
    // tags from `tags::tags` of the record.
    let (mut sente, mut gote, mut me, mut me_sente) = <[Tally; 4]>::default().into();
    let mut tags: std::collections::BTreeMap<String, u64> = Default::default();
    for (path, star) in &written {
        let loaded = kifview::load::load_input(path).unwrap();
        let r = &loaded.records[0].record;
        let result = result_of(r);
        add(&mut sente, result, true);
        add(&mut gote, result, false);
        if let Some(as_sente) = *star {
            add(&mut me, result, as_sente);
            if as_sente {
                add(&mut me_sente, result, true);
            }
        }
        // Plain tags only (a sided one, 先手振り飛車, names its side's plain one again).
        for t in kifview::collection::tags::tags(r) {
            if !t.starts_with("先手") && !t.starts_with("後手") {
                *tags.entry(t.to_string()).or_default() += 1;
            }
        }
    }
    let mut top: Vec<(String, u64)> = tags.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    top.truncate(8);
    let mut v = viewer_with(&LaunchOptions {
        file: Some(coll),
        index: Some(dir.path().join("idx")),
        me: vec!["藤井聡太".into(), "fujii_s".into()],
        ..Default::default()
    });
    v.app.library_settle();
    let l = v.app.library().unwrap();
    assert_eq!(l.ids().len(), 60);
    // With a "me", the summary is from my side first.
    assert_eq!(l.side(), Side::Me);
    assert_eq!(tally_of(&v), me);
    assert_eq!(me.0, 20);
    assert_eq!(v.app.library().unwrap().summary().unwrap().tags, top);
    let shown = text(&mut v, 80, 24);
    let pct = |t: Tally| {
        let known = (t.1 + t.2 + t.3) as f64;
        format!(
            "勝率{:.0}%",
            100.0 * (t.1 as f64 + t.3 as f64 / 2.0) / known
        )
    };
    let line = |who: &str, t: Tally| {
        let unknown = if t.4 > 0 {
            format!(" 不明{}", t.4)
        } else {
            String::new()
        };
        format!(
            "{who} {}局 {}勝{}敗{}分{unknown} {}",
            t.0,
            t.1,
            t.2,
            t.3,
            pct(t)
        )
    };
    assert!(shown.contains(&line("自分", me)), "{shown}");
    assert!(
        shown.contains(&format!("戦型 {} {}", top[0].0, top[0].1)),
        "{shown}"
    );
    insta::assert_snapshot!("library_summary_me_80x24", shown);
    // v: 先手's side, then 後手's, then mine again.
    press(&mut v, "v");
    assert_eq!(tally_of(&v), sente);
    let shown = text(&mut v, 120, 40);
    assert!(shown.contains(&line("先手から", sente)), "{shown}");
    insta::assert_snapshot!("library_summary_sente_120x40", shown);
    press(&mut v, "v");
    assert_eq!(tally_of(&v), gote);
    let shown = text(&mut v, 200, 60);
    assert!(shown.contains(&line("後手から", gote)), "{shown}");
    insta::assert_snapshot!("library_summary_gote_200x60", shown);
    press(&mut v, "v");
    assert_eq!(v.app.library().unwrap().side(), Side::Me);
    // A filter: the summary counts the games it keeps (my games as sente).
    filter(&mut v, "me:sente");
    assert_eq!(v.app.library().unwrap().ids().len(), 10);
    assert_eq!(tally_of(&v), me_sente);
    // Another sort of the same games: the same summary.
    let before = v.app.library().unwrap().summary().cloned();
    press(&mut v, "s");
    v.app.library_settle();
    assert_eq!(v.app.library().unwrap().summary().cloned(), before);
}

#[test]
fn the_summary_without_a_me_counts_from_sentes_side_and_v_skips_me() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    assert_eq!(v.app.library().unwrap().side(), Side::Sente);
    // GAMES: 先手 won twice, 後手 once, a draw (千日手), an unfinished game.
    assert_eq!(tally_of(&v), (5, 2, 1, 1, 1));
    press(&mut v, "v");
    assert_eq!(v.app.library().unwrap().side(), Side::Gote);
    assert_eq!(tally_of(&v), (5, 1, 2, 1, 1));
    press(&mut v, "v");
    assert_eq!(v.app.library().unwrap().side(), Side::Sente);
    let shown = text(&mut v, 80, 24);
    assert!(
        shown.contains("先手から 5局 2勝1敗1分 不明1 勝率62%  (v: 先手/後手)"),
        "{shown}"
    );
}

/// The session-11 complaint: the library said "indexed: 8 games" while its title said 5. The
/// title says which set it counts (the folder's games, or the whole index's), and what the
/// indexing says of the index names it as the whole index.
#[test]
fn the_library_says_which_set_it_counts_a_folder_or_the_whole_index() {
    let dir = tempfile::tempdir().unwrap();
    more(dir.path());
    let mut v = library(dir.path());
    let l = v.app.library().unwrap();
    assert_eq!(l.ids().len(), 5);
    let note = l.note().unwrap().to_string();
    assert!(note.ends_with("the whole index holds 7 games"), "{note}");
    assert!(!note.contains("indexed: 7"), "{note}");
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("棋譜一覧  5 games in coll/"), "{shown}");
    insta::assert_snapshot!("library_scope_folder_80x24", shown);
    let mut v = index_library(dir.path());
    let shown = text(&mut v, 80, 24);
    assert!(
        shown.contains("棋譜一覧  7 games of the whole index"),
        "{shown}"
    );
}

/// The explorer's total games, once it has answered for the position shown.
fn explorer_games(v: &mut Viewer) -> u64 {
    v.app.collection_settle();
    match v.app.explorer_view() {
        kifview::app::collection::ExplorerView::Rows {
            rows,
            updating: false,
        } => rows[0].games,
        other => panic!("no answer: {other:?}"),
    }
}

/// The explorer counts every indexed game, saying so; `L` makes it follow the library's folder
/// and filter (the title says `一覧: coll/ …`), as they change; again, or a filter of its own,
/// and it counts its own games again.
#[test]
fn the_explorer_follows_the_librarys_folder_and_filter_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    more(dir.path());
    let mut v = library(dir.path());
    // A game of the folder, at its start: the explorer counts the whole index (7 games).
    press(&mut v, "⏎X");
    assert_eq!(explorer_games(&mut v), 7);
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("棋譜DB 7局 [all indexed]"), "{shown}");
    // L: the library's games, the folder's five.
    press(&mut v, "L");
    assert!(v.app.explorer().follows_library());
    assert_eq!(explorer_games(&mut v), 5);
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("棋譜DB 5局 [一覧: coll/]"), "{shown}");
    insta::assert_snapshot!("explorer_follows_library_80x24", shown);
    // The library's filter changes: the pane follows.
    press(&mut v, "⎋O");
    filter(&mut v, "羽生");
    press(&mut v, "⎋");
    assert_eq!(explorer_games(&mut v), 2);
    let shown = text(&mut v, 120, 40);
    assert!(shown.contains("[一覧: coll/ 羽生]"), "{shown}");
    // The games at the position are the library's too.
    press(&mut v, "o");
    v.app.collection_settle();
    let list = v.app.overlays().list().unwrap().clone();
    assert_eq!(list.items.len(), 2, "{:?}", list.items);
    assert!(list.title.contains("[一覧: coll/ 羽生]"), "{}", list.title);
    press(&mut v, "⎋");
    // L again: every indexed game.
    press(&mut v, "XL");
    assert!(!v.app.explorer().follows_library());
    assert_eq!(explorer_games(&mut v), 7);
    // A filter of the pane's own ends the following too.
    press(&mut v, "L");
    assert_eq!(explorer_games(&mut v), 2);
    press(&mut v, "/sente:大山⏎");
    assert!(!v.app.explorer().follows_library());
    assert_eq!(explorer_games(&mut v), 1);
}

#[test]
fn the_explorer_without_a_library_to_follow_says_how_to_open_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = study_viewer(
        dir.path(),
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n",
    );
    press(&mut v, "XL");
    assert!(!v.app.explorer().follows_library());
    let said = v.app.message().unwrap().text.clone();
    assert!(said.contains("no library to follow (O opens"), "{said}");
}

/// At 120x40 the explorer takes the comment's place: its bottom border says so, whether the
/// move has a comment, and which key brings it back.
#[test]
fn where_the_explorer_hides_the_comment_a_hint_names_the_key_that_brings_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = study_viewer(
        dir.path(),
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n*角道を開ける手\n   2 ３四歩(33)\n",
    );
    press(&mut v, "l");
    let shown = text(&mut v, 120, 40);
    assert!(
        shown.contains("角道を開ける手"),
        "the comment at first: {shown}"
    );
    press(&mut v, "x");
    v.app.collection_settle();
    let shown = text(&mut v, 120, 40);
    assert!(!shown.contains("角道を開ける手"), "{shown}");
    assert!(
        shown.contains("コメントあり (x: コメントに戻す)"),
        "{shown}"
    );
    insta::assert_snapshot!("explorer_comment_hint_120x40", shown);
    // A move without a comment: the hint says only the key.
    press(&mut v, "l");
    v.app.collection_settle();
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("(x: コメントに戻す)"), "{shown}");
    assert!(!shown.contains("コメントあり"), "{shown}");
    // x: the comment is back.
    press(&mut v, "hx");
    assert!(text(&mut v, 120, 40).contains("角道を開ける手"));
}
