//! What a new user tripped over in the collection (issue 35): `explore` in Japanese notation,
//! and the library's and the games list's behaviour a user sees.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

use crate::common;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

/// Three games from the start: two open ７六歩, one ２六歩.
fn small_collection(coll: &Path) {
    std::fs::create_dir_all(coll).unwrap();
    let head = "先手：甲\n後手：乙\n手数----指手---------消費時間--\n";
    for (name, moves) in [
        ("a.kif", "1 ７六歩(77)\n2 ３四歩(33)\n3 投了\n"),
        ("b.kif", "1 ７六歩(77)\n2 投了\n"),
        ("c.kif", "1 ２六歩(27)\n2 投了\n"),
    ] {
        std::fs::write(coll.join(name), format!("手合割：平手\n{head}{moves}")).unwrap();
    }
}

fn indexed() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    small_collection(&coll);
    let idx = dir.path().join("idx");
    let out = kifview()
        .arg("index")
        .arg(&coll)
        .arg("--index")
        .arg(&idx)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    (dir, idx)
}

fn explore(idx: &Path, extra: &[&str]) -> String {
    explore_at(idx, "startpos", extra)
}

fn explore_at(idx: &Path, position: &str, extra: &[&str]) -> String {
    let out = kifview()
        .args(["explore", "--position", position, "--index"])
        .arg(idx)
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn explore_prints_moves_in_japanese_by_default_and_usi_when_asked() {
    let (_dir, idx) = indexed();
    let ja = explore(&idx, &[]);
    let rows: Vec<&str> = ja.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{ja}");
    assert!(rows[0].starts_with("▲７六歩 "), "{ja}");
    assert!(rows[1].starts_with("▲２六歩 "), "{ja}");
    assert!(!ja.contains("7g7f"), "{ja}");
    // The columns line up whatever the notation: the counts end in the same column.
    let games_end = |l: &str| {
        use unicode_width::UnicodeWidthStr;
        let count = l.split_whitespace().nth(1).unwrap();
        let end = l.find(count).unwrap() + count.len();
        l[..end].width()
    };
    assert_eq!(games_end(rows[0]), games_end(rows[1]), "{ja}");
    assert_eq!(
        games_end(rows[0]),
        games_end(ja.lines().nth(1).unwrap()),
        "{ja}"
    );
    let usi = explore(&idx, &["--notation", "usi"]);
    assert!(usi.lines().nth(2).unwrap().starts_with("7g7f "), "{usi}");
    assert!(!usi.contains('▲'), "{usi}");
    // The same numbers either way.
    let nums = |t: &str| -> Vec<String> {
        t.lines()
            .skip(2)
            .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(nums(&ja), nums(&usi));
    // A notation that is not one is refused, naming the ones there are.
    let out = kifview()
        .args([
            "explore",
            "--position",
            "startpos",
            "--notation",
            "kif",
            "--index",
        ])
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr_of(&out).contains("ja"),
        "{}",
        common::stderr_of(&out)
    );
}

#[test]
fn explore_json_keeps_usi_and_adds_japanese() {
    let (_dir, idx) = indexed();
    for extra in [&[][..], &["--notation", "usi"][..]] {
        let mut args = vec!["--json"];
        args.extend_from_slice(extra);
        let v: Value = serde_json::from_str(explore(&idx, &args).trim()).unwrap();
        assert_eq!(v["games"], 3);
        assert_eq!(v["moves"][0]["usi"], "7g7f", "{v}");
        assert_eq!(v["moves"][0]["ja"], "▲７六歩", "{v}");
        assert_eq!(v["moves"][0]["games"], 2, "{v}");
        assert_eq!(v["moves"][1]["ja"], "▲２六歩", "{v}");
    }
    // After a move, gote's moves are marked △.
    let v: Value =
        serde_json::from_str(explore_at(&idx, "startpos moves 7g7f", &["--json"]).trim()).unwrap();
    assert_eq!(v["moves"][0]["ja"], "△３四歩", "{v}");
}

/// The 手数 column marks its sort as the others do (its head filled its four cells, and the
/// mark was cut).
#[test]
fn the_moves_column_shows_its_sort_mark() {
    use super::library::{library, text};
    use crate::common::press;
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    // 日付 → 先手 → 後手 → 棋戦 → 結果 → 手数.
    press(&mut v, "sssss");
    v.app.library_settle();
    assert_eq!(
        v.app.library().unwrap().sort(),
        (kifview::collection::SortBy::Moves, false)
    );
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        let shown = text(&mut v, w, h);
        assert!(shown.contains("手数▲"), "{w}x{h}:\n{shown}");
    }
    press(&mut v, "S");
    v.app.library_settle();
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("手数▼"), "{shown}");
    // The counts still line up under their head, right-aligned.
    let rows: Vec<&str> = shown.lines().collect();
    let head = rows.iter().position(|r| r.contains("手数▼")).unwrap();
    insta::assert_snapshot!("library_by_moves_80x24", rows[head..head + 6].join("\n"));
}

/// `n` CSA games `g00.csa`…, dated one a day in the order of their names (the first oldest),
/// 先手 `P00`….
fn dated_games(coll: &Path, n: usize) {
    std::fs::create_dir_all(coll).unwrap();
    for i in 0..n {
        let text = format!(
            "V2.2\nN+P{i:02}\nN-Q{i:02}\n$START_TIME:2020/01/{:02} 10:00:00\nPI\n+\n+7776FU\n%TORYO\n",
            i + 1
        );
        std::fs::write(coll.join(format!("g{i:02}.csa")), text).unwrap();
    }
}

/// The first indexing of a folder lists its games as they commit; the list was left where the
/// first game listed had gone (mid-scroll, the newest games hidden above it). A list the user
/// has not moved in stays at its head: the newest game selected and shown.
#[test]
fn the_first_indexing_leaves_the_list_at_its_head() {
    use kifview::app::{LaunchOptions, Mode};
    use std::sync::{Arc, Barrier};
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    dated_games(&coll, 30);
    let idx = dir.path().join("idx");
    // Two files a step; the update waits after its first step (the two oldest games) until
    // released.
    let (paused, release) = (Arc::new(Barrier::new(2)), Arc::new(Barrier::new(2)));
    let (p, r) = (Arc::clone(&paused), Arc::clone(&release));
    kifview::collection::build::set_hook(
        &idx,
        kifview::collection::build::Hook {
            batch: 2,
            after_step: Box::new(move |step, _| {
                if step == 1 {
                    p.wait();
                    r.wait();
                }
            }),
        },
    );
    let mut v = common::viewer_with(&LaunchOptions {
        file: Some(coll),
        index: Some(idx),
        ..Default::default()
    });
    assert_eq!(v.app.mode(), Mode::Library);
    paused.wait();
    // The front end's ticks while the library is busy (bounded: a list that never comes fails
    // here instead of hanging).
    for _ in 0..6000 {
        v.app.collection_tick();
        if v.app.library().unwrap().ids().len() == 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let shown = super::library::text(&mut v, 80, 24);
    assert!(shown.contains("P01"), "{shown}");
    release.wait();
    v.app.library_settle();
    let shown = super::library::text(&mut v, 80, 24);
    let l = v.app.library().unwrap();
    assert_eq!(l.ids().len(), 30);
    assert_eq!((l.selected(), v.view.library_top), (0, 0), "{shown}");
    let rows: Vec<&str> = shown.lines().collect();
    assert!(
        rows[4].contains("2020-01-30") && rows[4].contains("P29"),
        "{shown}"
    );
}

/// `kifview DIR` while another kifview updates the same index: the library's indexing was
/// refused ("not indexed: another kifview is updating this index") and DIR's games never
/// came. It waits for the other update, saying so, then indexes DIR and lists its games.
#[test]
fn the_library_waits_for_another_update_of_its_index_then_indexes() {
    use kifview::app::LaunchOptions;
    let dir = tempfile::tempdir().unwrap();
    let coll = super::library::collection(dir.path());
    let other = dir.path().join("other");
    dated_games(&other, 3);
    let idx = dir.path().join("idx");
    // Another update (of another folder), held while it reads its files.
    let (mut v, first) = super::library::while_an_update_is_held(&idx, &other, || {
        let mut v = common::viewer_with(&LaunchOptions {
            file: Some(coll.clone()),
            index: Some(idx.clone()),
            ..Default::default()
        });
        let mut shown = String::new();
        for _ in 0..3000 {
            v.app.collection_tick();
            shown = super::library::text(&mut v, 80, 24);
            if shown.contains("waiting") || shown.contains("not indexed") {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(
            shown.contains("another kifview is updating this index: waiting for it"),
            "{shown}"
        );
        v
    });
    first.expect("the other update ends well");
    v.app.library_settle();
    let shown = super::library::text(&mut v, 80, 24);
    assert_eq!(v.app.library().unwrap().ids().len(), 5, "{shown}");
    assert!(shown.contains("indexed: "), "{shown}");
    assert!(!shown.contains("waiting"), "{shown}");
}

/// A game opened from the library, edited and saved: back in the list (`O`), its row shows
/// what was saved (the library indexes its folder again: only the file saved is read).
#[test]
fn the_library_shows_a_game_as_saved_in_the_viewer() {
    use crate::common::press;
    use kifview::app::Mode;
    let dir = tempfile::tempdir().unwrap();
    let mut v = super::library::library(dir.path());
    // The newest: 藤井聡太 - 渡辺明 (2021, 王将戦).
    press(&mut v, "⏎");
    assert_eq!(v.app.mode(), Mode::Normal);
    press(&mut v, "e");
    let items = v.app.overlays().list().unwrap().items.clone();
    let row = items.iter().position(|i| i.contains("後手")).expect("後手");
    press(&mut v, &"j".repeat(row));
    press(&mut v, &format!("⏎{}大山康晴⏎⎋", "⌫".repeat(3)));
    assert_eq!(v.app.record().header.white_name(), Some("大山康晴"));
    press(&mut v, "^s");
    v.app.wait_for_saves();
    assert!(!v.app.is_modified());
    press(&mut v, "O");
    v.app.library_settle();
    let shown = super::library::text(&mut v, 80, 24);
    let rows: Vec<&str> = shown.lines().collect();
    assert!(
        rows[4].contains("藤井聡太") && rows[4].contains("大山康晴"),
        "{shown}"
    );
    assert!(!shown.contains("渡辺明"), "{shown}");
    assert!(
        shown.contains("indexed: 1 file read, 4 unchanged; the whole index holds 5 games"),
        "{shown}"
    );
    assert_eq!(
        v.app.library().unwrap().selected(),
        0,
        "the game saved stays selected"
    );
}

/// The viewer on a study (▲７六歩) exploring an index of 30 games that all open ▲７６歩,
/// at the position after it, with the games list (`o`) open.
fn games_list(root: &Path) -> kifview::tui::Viewer {
    use crate::common::press;
    use kifview::app::{LaunchOptions, Mode};
    let coll = root.join("coll");
    dated_games(&coll, 30);
    let idx = root.join("idx");
    kifview::collection::update(&idx, &[coll], Default::default(), &|_, _| {}).unwrap();
    let study = root.join("study.kif");
    std::fs::write(&study, "手数----指手---------消費時間--\n   1 ７六歩(77)\n").unwrap();
    let mut v = common::viewer_with(&LaunchOptions {
        file: Some(study),
        index: Some(idx),
        ..Default::default()
    });
    press(&mut v, "lo");
    v.app.collection_settle();
    assert_eq!(v.app.mode(), Mode::List);
    assert_eq!(v.app.overlays().list().unwrap().items.len(), 30);
    v
}

fn list_selected(v: &kifview::tui::Viewer) -> usize {
    v.app.overlays().list().unwrap().selected
}

/// The games at a position (`o`) page like the library: `G` the last, `g` the first,
/// PageDown / PageUp a screenful (the rows the list shows), in any list.
#[test]
fn the_games_list_pages_with_g_capital_g_and_page_keys() {
    use crate::common::{key, press};
    use crossterm::event::{KeyCode, KeyModifiers};
    let dir = tempfile::tempdir().unwrap();
    let mut v = games_list(dir.path());
    let shown = super::library::text(&mut v, 80, 24);
    let page = shown.lines().filter(|l| l.contains(".csa")).count();
    assert!(page > 3 && page < 30, "{shown}");
    press(&mut v, "G");
    assert_eq!(list_selected(&v), 29);
    let shown = super::library::text(&mut v, 80, 24);
    assert!(
        shown.contains("2020-01-01  P00"),
        "the oldest shown:\n{shown}"
    );
    press(&mut v, "g");
    assert_eq!(list_selected(&v), 0);
    // A screenful is what the last frame showed (the message gone, a row more).
    let shown = super::library::text(&mut v, 80, 24);
    let page = shown.lines().filter(|l| l.contains(".csa")).count();
    key(&mut v, KeyCode::PageDown, KeyModifiers::NONE);
    assert_eq!(list_selected(&v), page - 1, "a screenful less the row kept");
    key(&mut v, KeyCode::PageDown, KeyModifiers::NONE);
    assert_eq!(list_selected(&v), (2 * (page - 1)).min(29));
    key(&mut v, KeyCode::PageUp, KeyModifiers::NONE);
    assert_eq!(list_selected(&v), (2 * (page - 1)).min(29) - (page - 1));
    key(&mut v, KeyCode::End, KeyModifiers::NONE);
    assert_eq!(list_selected(&v), 29);
    key(&mut v, KeyCode::PageDown, KeyModifiers::NONE);
    assert_eq!(list_selected(&v), 29, "the last stays");
    key(&mut v, KeyCode::Home, KeyModifiers::NONE);
    assert_eq!(list_selected(&v), 0);
}

/// In a game opened from the games list, `}` / `{` open the next / previous game of that
/// list at the position, as they do for the library's list; the game left goes on the back
/// stack as Enter's does (Ctrl-o returns to it, edits and all).
#[test]
fn braces_step_through_the_games_at_the_position() {
    use crate::common::press;
    let dir = tempfile::tempdir().unwrap();
    let mut v = games_list(dir.path());
    press(&mut v, "j⏎");
    assert_eq!(v.app.source().name, "g28.csa");
    assert_eq!(v.app.cur_index(), 1, "at the position");
    press(&mut v, "}");
    assert_eq!(v.app.source().name, "g27.csa");
    assert_eq!(v.app.cur_index(), 1);
    press(&mut v, "{{");
    assert_eq!(v.app.source().name, "g29.csa");
    press(&mut v, "{");
    assert_eq!(v.app.source().name, "g29.csa", "the first stays");
    let said = v.app.message().unwrap().text.clone();
    assert!(said.contains("first game of the list (1/30)"), "{said}");
    // Back through the games stepped, then the study.
    press(&mut v, "^o");
    assert_eq!(v.app.source().name, "g28.csa");
    press(&mut v, "^o^o^o");
    assert_eq!(v.app.source().name, "study.kif");
    // The study is not a game of the list: `}` is its own (one record).
    press(&mut v, "}");
    assert!(v.app.message().unwrap().text.contains("holds one record"));
}
