//! The library (issue 23): `kifview DIR` indexes DIR and lists its games, through the same
//! constructor the binary calls (`App::open` with the folder as the file), driven by keys and
//! drawn into a TestBackend: the list newest first, a typed filter (and one that does not
//! read, which keeps the list), the sort cycled and reversed, Enter opens a game, `O` comes
//! back at the same row with the same filter, `}` / `{` step through the filtered list and
//! ask about unsaved edits first.

use kifview::app::{LaunchOptions, Mode};
use kifview::tui::Viewer;
use std::path::{Path, PathBuf};

use crate::common::{press, screen, screen_rows, tick_until, viewer_with};

/// (先手, 後手, date, event, moves, ending).
const GAMES: [(&str, &str, &str, &str, &str, &str); 5] = [
    (
        "羽生善治",
        "佐藤康光",
        "2001/05/01",
        "竜王戦",
        "+7776FU\n-3334FU\n",
        "%TORYO",
    ),
    (
        "藤井聡太",
        "豊島将之",
        "2020/07/16",
        "棋聖戦",
        "+2726FU\n-8384FU\n+2625FU\n",
        "%TORYO",
    ),
    (
        "藤井聡太",
        "渡辺明",
        "2021/01/01",
        "王将戦",
        "+7776FU\n",
        "%TORYO",
    ),
    (
        "羽生善治",
        "藤井聡太",
        "2018/02/17",
        "朝日杯",
        "+5756FU\n-3334FU\n",
        "%CHUDAN",
    ),
    (
        "佐藤康光",
        "森内俊之",
        "1999/03/03",
        "名人戦",
        "",
        "%SENNICHITE",
    ),
];

/// The games as CSA files in `root/coll`; returns the folder.
pub(super) fn collection(root: &Path) -> PathBuf {
    let coll = root.join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    for (i, (b, w, date, event, moves, end)) in GAMES.iter().enumerate() {
        let text = format!(
            "V2.2\nN+{b}\nN-{w}\n$EVENT:{event}\n$START_TIME:{date} 10:00:00\nPI\n+\n{moves}{end}\n"
        );
        std::fs::write(coll.join(format!("g{i}.csa")), text).unwrap();
    }
    coll
}

/// `kifview COLL --index IDX`, indexed and listed.
pub(super) fn library(root: &Path) -> Viewer {
    let coll = collection(root);
    let mut v = viewer_with(&LaunchOptions {
        file: Some(coll),
        index: Some(root.join("idx")),
        ..Default::default()
    });
    assert_eq!(v.app.mode(), Mode::Library, "the folder opens the library");
    v.app.library_settle();
    v
}

pub(super) fn text(v: &mut Viewer, w: u16, h: u16) -> String {
    let mut out = screen_rows(&screen(v, w, h)).join("\n");
    out.push('\n');
    out
}

/// The 先手 of the games listed, in order.
pub(super) fn sente_listed(v: &Viewer) -> Vec<String> {
    let l = v.app.library().unwrap();
    l.ids()
        .iter()
        .map(|&id| {
            l.row(id)
                .expect("fetched")
                .sente
                .clone()
                .unwrap_or_default()
        })
        .collect()
}

/// The dates listed, in order.
pub(super) fn dates_listed(v: &Viewer) -> Vec<String> {
    let l = v.app.library().unwrap();
    l.ids()
        .iter()
        .map(|&id| l.row(id).expect("fetched").date.clone().unwrap_or_default())
        .collect()
}

/// Types `filter` into the filter prompt (replacing what was there) and applies it.
pub(super) fn filter(v: &mut Viewer, filter: &str) {
    press(v, "/");
    let old = v.app.library().unwrap().filter_text().chars().count();
    press(v, &"⌫".repeat(old));
    press(v, &format!("{filter}⏎"));
    v.app.library_settle();
}

fn players(v: &Viewer) -> (String, String) {
    let h = &v.app.record().header;
    let get = |k: &str| h.get(k).unwrap_or("").to_string();
    (get("先手"), get("後手"))
}

#[test]
fn a_folder_is_indexed_and_listed_newest_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    assert_eq!(
        dates_listed(&v),
        [
            "2021-01-01",
            "2020-07-16",
            "2018-02-17",
            "2001-05-01",
            "1999-03-03"
        ]
    );
    let l = v.app.library().unwrap();
    assert_eq!(l.total(), 5);
    assert!(
        l.note().unwrap().starts_with("indexed: 5 files read"),
        "{:?}",
        l.note()
    );
    insta::assert_snapshot!("library_80x24", text(&mut v, 80, 24));
    insta::assert_snapshot!("library_120x40", text(&mut v, 120, 40));
    insta::assert_snapshot!("library_200x60", text(&mut v, 200, 60));
}

#[test]
fn a_typed_filter_narrows_the_list_and_one_that_does_not_read_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    filter(&mut v, "羽生");
    assert_eq!(sente_listed(&v), ["羽生善治", "羽生善治"]);
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("2 / 5 games"), "{shown}");
    assert!(shown.contains("filter: 羽生"), "{shown}");
    // The prompt comes prefilled; the CLI's syntax.
    filter(&mut v, "player:藤井 2019..2021");
    assert_eq!(dates_listed(&v), ["2021-01-01", "2020-07-16"]);
    filter(&mut v, "result:maybe");
    assert_eq!(
        dates_listed(&v),
        ["2021-01-01", "2020-07-16"],
        "the list stays"
    );
    let shown = text(&mut v, 80, 24);
    assert!(
        shown.contains("filter not applied: result:maybe"),
        "{shown}"
    );
    filter(&mut v, "event:名人");
    assert_eq!(sente_listed(&v), ["佐藤康光"]);
    filter(&mut v, "");
    assert_eq!(v.app.library().unwrap().ids().len(), 5, "empty clears");
}

/// A filter's error longer than the screen is wide is read whole at 80x24 (wrapped onto the
/// rows above the last), not cut at the edge.
#[test]
fn a_long_filter_error_is_shown_whole_at_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    filter(&mut v, "date:2020..x");
    let error = v
        .app
        .library()
        .unwrap()
        .error()
        .expect("an error")
        .to_string();
    assert!(error.chars().count() > 60, "long enough to wrap: {error}");
    let shown = text(&mut v, 80, 24);
    for word in error.split_whitespace() {
        assert!(
            shown.contains(word),
            "{word:?} of {error:?} not shown:\n{shown}"
        );
    }
    insta::assert_snapshot!("library_filter_error_80x24", shown);
}

#[test]
fn s_cycles_the_sorted_column_and_capital_s_reverses_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    press(&mut v, "s");
    v.app.library_settle();
    // 先手, A to Z (code point order: 佐 < 羽 < 藤), then by index order.
    assert_eq!(
        sente_listed(&v),
        ["佐藤康光", "羽生善治", "羽生善治", "藤井聡太", "藤井聡太"]
    );
    assert!(text(&mut v, 80, 24).contains("先手▲"));
    press(&mut v, "S");
    v.app.library_settle();
    assert_eq!(
        sente_listed(&v),
        ["藤井聡太", "藤井聡太", "羽生善治", "羽生善治", "佐藤康光"]
    );
    assert!(text(&mut v, 80, 24).contains("先手▼"));
}

#[test]
fn enter_opens_a_game_and_o_returns_to_the_same_row_and_filter() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    filter(&mut v, "藤井");
    // 2021 王将戦, 2020 棋聖戦, 2018 朝日杯: the second.
    press(&mut v, "j⏎");
    assert_eq!(v.app.mode(), Mode::Normal);
    assert_eq!(players(&v), ("藤井聡太".into(), "豊島将之".into()));
    assert_eq!(v.app.cur_index(), 0, "at its start");
    assert_eq!(v.app.line().len(), 5, "the start, three moves and 投了");
    press(&mut v, "O");
    assert_eq!(v.app.mode(), Mode::Library);
    let l = v.app.library().unwrap();
    assert_eq!((l.selected(), l.filter_text()), (1, "藤井"));
    // Esc leaves the list for the game; q quits from the list.
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Normal);
    press(&mut v, "Oq");
    assert!(v.app.should_quit());
}

#[test]
fn braces_step_through_the_filtered_list_asking_about_unsaved_edits() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    filter(&mut v, "藤井");
    press(&mut v, "⏎");
    assert_eq!(players(&v).1, "渡辺明");
    press(&mut v, "}");
    assert_eq!(players(&v).1, "豊島将之");
    press(&mut v, "}");
    assert_eq!(
        players(&v).1,
        "藤井聡太",
        "羽生 - 藤井, the third of the filter"
    );
    press(&mut v, "}");
    assert_eq!(players(&v).1, "藤井聡太", "the last game stays");
    press(&mut v, "{");
    assert_eq!(players(&v).1, "豊島将之");
    // An edit (a bookmark), then `}`: asked; c stays, d discards and goes.
    press(&mut v, "bmark⏎");
    assert!(v.app.is_modified());
    press(&mut v, "}");
    assert_eq!(v.app.mode(), Mode::Confirm);
    press(&mut v, "c");
    assert_eq!(players(&v).1, "豊島将之");
    assert!(v.app.is_modified(), "nothing discarded");
    press(&mut v, "}d");
    assert_eq!(players(&v).1, "藤井聡太");
    assert!(!v.app.is_modified());
    // s saves the game (a comment: CSA holds it), then goes.
    press(&mut v, "ckept⎋{s");
    v.app.wait_for_saves();
    assert_eq!(players(&v).1, "豊島将之");
    let saved = std::fs::read_to_string(dir.path().join("coll/g3.csa")).unwrap();
    assert!(saved.contains("kept"), "the bookmark was saved: {saved}");
    // Back in the list, the row is the game shown.
    press(&mut v, "O");
    assert_eq!(v.app.library().unwrap().selected(), 1);
}

/// The viewer on a record `study.kif` of `kif` (not in the collection), with the collection of
/// `GAMES` indexed into `root/idx` as its index.
pub(super) fn study_viewer(root: &Path, kif: &str) -> Viewer {
    let coll = collection(root);
    let idx = root.join("idx");
    kifview::collection::update(&idx, &[coll], Default::default(), &|_, _| {}).unwrap();
    let study = root.join("study.kif");
    std::fs::write(&study, kif).unwrap();
    viewer_with(&LaunchOptions {
        file: Some(study),
        index: Some(idx),
        ..Default::default()
    })
}

#[test]
fn o_opens_the_library_of_the_index_from_any_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = study_viewer(
        dir.path(),
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n",
    );
    assert_eq!(v.app.mode(), Mode::Normal, "a file opens the viewer");
    press(&mut v, "O");
    v.app.library_settle();
    assert_eq!(v.app.mode(), Mode::Library);
    assert_eq!(v.app.library().unwrap().ids().len(), 5);
    // `}` in a record not opened from the list is the file's own (one record here).
    press(&mut v, "⎋}");
    assert!(v.app.message().unwrap().text.contains("holds one record"));
}

/// Runs `while_held` while an update of `idx` (of `folder`) is held in the middle of reading
/// its files (it waits on a flag, not on time); then lets it finish, also when `while_held`
/// fails an assertion, and returns both results.
pub(super) fn while_an_update_is_held<T>(
    idx: &Path,
    folder: &Path,
    while_held: impl FnOnce() -> T,
) -> (T, Result<kifview::collection::Report, String>) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let (started, release) = (AtomicBool::new(false), AtomicBool::new(false));
    std::thread::scope(|s| {
        let first = s.spawn(|| {
            let hold = |_: u64, _: u64| {
                started.store(true, Ordering::SeqCst);
                while !release.load(Ordering::SeqCst) {
                    std::thread::yield_now();
                }
            };
            kifview::collection::update(idx, &[folder.to_path_buf()], Default::default(), &hold)
        });
        while !started.load(Ordering::SeqCst) {
            std::thread::yield_now();
        }
        // Released however this ends (a failed assertion too), so the scope can join.
        struct Release<'a>(&'a AtomicBool);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let released = Release(&release);
        let out = while_held();
        drop(released);
        (out, first.join().unwrap())
    })
}

#[test]
fn a_second_update_of_an_index_is_refused_while_one_runs() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path());
    let idx = dir.path().join("idx");
    let (second, first) = while_an_update_is_held(&idx, &coll, || {
        kifview::collection::update(
            &idx,
            std::slice::from_ref(&coll),
            Default::default(),
            &|_, _| {},
        )
    });
    let err = second.expect_err("the second update is refused");
    assert!(
        err.contains("another kifview is updating this index"),
        "{err}"
    );
    let report = first.expect("the first update ends well");
    assert_eq!(report.games, 5);
    // Released: the next update runs, and the index is whole.
    let r = kifview::collection::update(&idx, &[coll], Default::default(), &|_, _| {}).unwrap();
    assert_eq!((r.games, r.files_unchanged), (5, 5));
    let index = kifview::collection::Index::open(&idx).unwrap();
    assert_eq!(index.count(&Default::default()).unwrap(), 5);
}

#[test]
fn the_list_fills_while_the_folder_is_indexed() {
    use std::sync::{Arc, Barrier};
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path());
    let idx = dir.path().join("idx");
    // The update stops after its first transaction (no game yet) and after its first step
    // (one batch of two files), each time until released.
    let (paused, release) = (Arc::new(Barrier::new(2)), Arc::new(Barrier::new(2)));
    let (p, r) = (Arc::clone(&paused), Arc::clone(&release));
    kifview::collection::build::set_hook(
        &idx,
        kifview::collection::build::Hook {
            batch: 2,
            after_step: Box::new(move |step, _| {
                if step <= 1 {
                    p.wait();
                    r.wait();
                }
            }),
        },
    );
    let mut v = viewer_with(&LaunchOptions {
        file: Some(coll),
        index: Some(idx),
        ..Default::default()
    });
    // Ticks, as the front end's while the library is busy, until `done` (bounded: a list
    // that never comes fails here instead of hanging).
    let tick_until = |v: &mut Viewer, done: &dyn Fn(&kifview::app::library::Library) -> bool| {
        for _ in 0..6000 {
            v.app.collection_tick();
            if done(v.app.library().unwrap()) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("the list did not come");
    };
    paused.wait();
    tick_until(&mut v, &|l| l.listed());
    assert!(
        v.app.library().unwrap().ids().is_empty(),
        "no game committed yet"
    );
    release.wait();
    paused.wait();
    tick_until(&mut v, &|l| !l.ids().is_empty());
    assert!(v.app.library().unwrap().busy(), "the indexing still runs");
    assert_eq!(
        sente_listed(&v),
        ["藤井聡太", "羽生善治"],
        "g0 and g1, newest first"
    );
    let shown = text(&mut v, 120, 30);
    assert!(
        shown.contains("藤井聡太") && shown.contains("羽生善治"),
        "{shown}"
    );
    assert!(shown.contains(" / 5 files"), "the progress stays: {shown}");
    release.wait();
    v.app.library_settle();
    assert_eq!(v.app.library().unwrap().ids().len(), 5);
}

/// The list keeps its rows as drawn from frame to frame (issue 23: a scroll lays out only the
/// rows that came into view): moving the selection away and back, and drawing at another
/// width and back, draws the very cells, text and styles, of the first frame; the row
/// selected is drawn in another style than the others.
#[test]
fn rows_kept_between_frames_draw_the_same_cells_as_the_first_frame() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    let first = screen(&mut v, 120, 40).backend().buffer().clone();
    press(&mut v, "jj");
    let moved = screen(&mut v, 120, 40).backend().buffer().clone();
    // Row 4 is the list's first game, row 6 its third (after the frame's top, the summary's
    // two rows and the heads).
    let styles = |b: &ratatui::buffer::Buffer, y: u16| (b[(2, y)].style(), b[(2, y + 2)].style());
    let (top, third) = styles(&first, 4);
    assert_ne!(top, third, "the first game is selected at first");
    assert_eq!(
        styles(&moved, 4),
        (third, top),
        "the third game is selected after jj"
    );
    press(&mut v, "kk");
    screen(&mut v, 80, 24);
    assert_eq!(screen(&mut v, 120, 40).backend().buffer(), &first);
}

/// 200 games of `GAMES`' players, each numbered after its 先手 (newest first: game 199
/// first), in `root/coll`, listed by `kifview COLL --index IDX`.
fn two_hundred_games(root: &Path) -> Viewer {
    let coll = root.join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    for i in 0..200 {
        let (b, w, _, event, moves, end) = GAMES[i % GAMES.len()];
        let text = format!(
            "V2.2\nN+{b}{i}\nN-{w}\n$EVENT:{event}\n$START_TIME:2000/01/01 10:{:02}:{:02}\nPI\n+\n{moves}{end}\n",
            i / 60,
            i % 60
        );
        std::fs::write(coll.join(format!("g{i:03}.csa")), text).unwrap();
    }
    let mut v = viewer_with(&LaunchOptions {
        file: Some(coll),
        index: Some(root.join("idx")),
        ..Default::default()
    });
    v.app.library_settle();
    v
}

/// The rows of the pages around the screen are fetched by the lister before the list gets
/// there (issue 23: a page step never queries the catalog on the key path): after `G`, the
/// rows of the three pages above the last one are kept once the lister has answered.
#[test]
fn the_rows_of_three_pages_either_side_are_fetched_before_the_list_gets_there() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = two_hundred_games(dir.path());
    screen(&mut v, 80, 24);
    press(&mut v, "G");
    v.app.library_settle();
    screen(&mut v, 80, 24);
    let l = v.app.library().unwrap();
    // 23 rows above the status line: the frame's two, the summary's two, the heads and the
    // last row leave 17 for the games.
    let (n, h) = (l.ids().len(), 17);
    assert_eq!(
        (n, v.view.library_top),
        (200, n - h),
        "G shows the last page"
    );
    let missing: Vec<usize> = (n - 4 * h..n)
        .filter(|&i| l.row(l.ids()[i]).is_none())
        .collect();
    assert!(missing.is_empty(), "rows not fetched ahead: {missing:?}");
    // Three pages up (Ctrl-b, 16 rows each): the selection on row 151, the top one, game 48
    // (newest first).
    press(&mut v, "^b^b^b");
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("羽生善治48"), "{shown}");
}

/// Drawing starts no query (issue 36: the library's height was written back by the frame,
/// which fetched the rows from the catalog inside the draw): a frame far taller than the last
/// one draws the rows it has (the others as `…`) without a query; handed the frame's sizes
/// after it, as the run loop does, the library fetches the rows now shown in one query, and
/// the next frame shows them.
#[test]
fn a_taller_frame_queries_nothing_and_its_rows_come_when_its_sizes_are_handed_over() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = two_hundred_games(dir.path());
    // A short screen first: a few rows of games, the pages around them fetched ahead.
    screen(&mut v, 80, 18);
    assert!(
        (1..16).contains(&v.view.library_rows),
        "{}",
        v.view.library_rows
    );
    v.hand_over_sizes();
    v.app.library_settle();
    let queries = v.app.library().unwrap().catalog_queries();
    let before = format!("{:?}", v.app);
    let tall = text(&mut v, 120, 100);
    assert_eq!(format!("{:?}", v.app), before, "the frame changed the app");
    assert_eq!(
        v.app.library().unwrap().catalog_queries(),
        queries,
        "the frame queried the catalog"
    );
    // Newest first: game 199 on the first row; the last row's (under the summary's two
    // rows), game 107, is not kept yet.
    assert!(
        tall.contains("佐藤康光199") && !tall.contains("藤井聡太107"),
        "{tall}"
    );
    assert!(v.hand_over_sizes(), "the rows shown came");
    assert_eq!(v.app.library().unwrap().catalog_queries(), queries + 1);
    assert!(
        !v.hand_over_sizes(),
        "the same sizes again hand nothing over"
    );
    let tall = text(&mut v, 120, 100);
    assert!(tall.contains("藤井聡太107"), "{tall}");
}

/// Each row listed is the game its id names in the index as it is now.
fn rows_true_to_the_index(v: &Viewer, idx: &Path) {
    let l = v.app.library().unwrap();
    let cat = kifview::collection::catalog::Catalog::open(
        &idx.join(kifview::collection::catalog::CATALOG),
        true,
        false,
    )
    .unwrap();
    let truth = cat.games_by_id(l.ids()).unwrap();
    for g in truth {
        let shown = l.row(g.id).expect("fetched");
        assert_eq!(
            (&shown.path, &shown.sente),
            (&g.path, &g.sente),
            "game {}",
            g.id
        );
    }
}

#[test]
fn the_list_follows_the_index_updated_compacted_and_rebuilt_from_outside() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    let (coll, idx) = (dir.path().join("coll"), dir.path().join("idx"));
    assert_eq!(v.app.library().unwrap().total(), 5);
    // From outside: two games go (2 of 5 dead: the update compacts, renumbering the ids).
    std::fs::remove_file(coll.join("g0.csa")).unwrap();
    std::fs::remove_file(coll.join("g4.csa")).unwrap();
    let r = kifview::collection::update(
        &idx,
        std::slice::from_ref(&coll),
        Default::default(),
        &|_, _| {},
    )
    .unwrap();
    assert!(r.compacted.is_some(), "{r:?}");
    tick_until(&mut v, "listed the 3 games left", |v| {
        v.app.library().unwrap().total() == 3
    });
    assert_eq!(dates_listed(&v), ["2021-01-01", "2020-07-16", "2018-02-17"]);
    rows_true_to_the_index(&v, &idx);
    // A rebuild (another --variations: a new catalog file) with a game more.
    // (g1's moves on another day: a copy of g1 would be the same game, counted once.)
    let g1 = std::fs::read_to_string(coll.join("g1.csa")).unwrap();
    std::fs::write(coll.join("g9.csa"), g1.replace("2020/07/16", "2020/07/17")).unwrap();
    let opts = kifview::collection::UpdateOptions { variations: true };
    let r =
        kifview::collection::update(&idx, std::slice::from_ref(&coll), opts, &|_, _| {}).unwrap();
    assert!(r.rebuilt.is_some(), "{r:?}");
    tick_until(&mut v, "listed the rebuilt index's 4 games", |v| {
        v.app.library().unwrap().total() == 4
    });
    rows_true_to_the_index(&v, &idx);
    // Enter opens the game the row shows: the newest, 2021 王将戦.
    press(&mut v, "g⏎");
    assert_eq!(players(&v), ("藤井聡太".into(), "渡辺明".into()));
}

/// With a "me" (`--me`, the config's `[collection] me`): a 自分 column with my result in each
/// game (勝 負 分 不明, `-` in a game I did not play) and my record and score over the list in
/// the title; the filter `me:gote` lists my games as gote.
#[test]
fn with_a_me_the_list_shows_my_result_and_my_score() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path());
    let mut v = viewer_with(&LaunchOptions {
        file: Some(coll),
        index: Some(dir.path().join("idx")),
        me: vec!["藤井 聡太".into()],
        ..Default::default()
    });
    v.app.library_settle();
    // 藤井聡太: sente won twice (resigned after 3 and after 1 move), gote of an unfinished game.
    let m = *v.app.library().unwrap().me_tally().expect("a me");
    assert_eq!((m.games, m.win, m.loss, m.draw, m.unknown), (3, 2, 0, 0, 1));
    let shown = text(&mut v, 80, 24);
    assert!(
        shown.contains("自分 3局 2勝0敗0分 不明1 勝率100%"),
        "{shown}"
    );
    let mine: Vec<String> = shown
        .lines()
        .filter(|l| l.contains("藤井聡太"))
        .map(|l| l.split_whitespace().nth(4).unwrap_or("").to_string())
        .collect();
    assert_eq!(mine.iter().filter(|w| *w == "勝").count(), 2, "{shown}");
    insta::assert_snapshot!("library_me_80x24", shown);
    filter(&mut v, "me:gote");
    assert_eq!(sente_listed(&v), ["羽生善治"]);
    let shown = text(&mut v, 80, 24);
    assert!(
        shown.contains("自分 1局") && shown.contains("不明"),
        "{shown}"
    );
    // Without a me: no column, no score.
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    assert!(v.app.library().unwrap().me_tally().is_none());
    let shown = text(&mut v, 80, 24);
    assert!(!shown.contains("自分"), "{shown}");
}
