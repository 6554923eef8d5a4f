//! The games at a position (`o`, issue 35): sorted by date, 先手, 後手, result or moves (`s`
//! cycles the column, `S` reverses, the title marks the column ▲/▼ as the library's head
//! does), filtered in the filter language (`/` or `f`: the explorer's filter, which the list
//! shares), the game selected kept through a sort, and `}` / `{` stepping in the order shown.
//! Driven by keys through the whole app on a collection indexed in the test.

use kifview::app::{LaunchOptions, Mode};
use kifview::tui::Viewer;
use std::path::Path;

use crate::common::{press, screen, screen_rows, viewer_with};

/// (date, 先手, 後手, moves, ending): every game reaches the start position. Results: the
/// side to move after the moves resigns (3 moves: 先手 wins; 2: 後手), 千日手 a draw, 中断
/// unknown.
const GAMES: [(&str, &str, &str, &str, &str); 5] = [
    (
        "2020/03/01",
        "羽生善治",
        "藤井聡太",
        "+7776FU\n-3334FU\n+2726FU\n",
        "%TORYO",
    ),
    (
        "2021/05/02",
        "藤井聡太",
        "佐藤康光",
        "+2726FU\n-8384FU\n",
        "%TORYO",
    ),
    (
        "2019/07/03",
        "佐藤康光",
        "羽生善治",
        "+7776FU\n",
        "%SENNICHITE",
    ),
    (
        "2022/01/04",
        "森内俊之",
        "羽生善治",
        "+5756FU\n-3334FU\n+7776FU\n-8384FU\n",
        "%CHUDAN",
    ),
    ("", "渡辺明", "森内俊之", "+7776FU\n-8384FU\n", "%TORYO"),
];

/// The viewer on a record outside the collection, exploring the collection of `GAMES`.
fn viewer(root: &Path) -> Viewer {
    let coll = root.join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    for (i, (date, b, w, moves, end)) in GAMES.iter().enumerate() {
        let date = match date {
            &"" => String::new(),
            d => format!("$START_TIME:{d} 10:00:00\n"),
        };
        let text = format!("V2.2\nN+{b}\nN-{w}\n{date}PI\n+\n{moves}{end}\n");
        std::fs::write(coll.join(format!("g{i}.csa")), text).unwrap();
    }
    let idx = root.join("idx");
    kifview::collection::update(&idx, &[coll], Default::default(), &|_, _| {}).unwrap();
    let file = root.join("study.kif");
    std::fs::write(&file, "手数----指手---------消費時間--\n   1 ７六歩(77)\n").unwrap();
    viewer_with(&LaunchOptions {
        file: Some(file),
        index: Some(idx),
        ..Default::default()
    })
}

/// The list's rows as (date, 先手) pairs, read from the rows the user sees.
fn listed(v: &Viewer) -> Vec<String> {
    let l = v.app.overlays().list().expect("the games list is open");
    l.items
        .iter()
        .map(|r| {
            let mut w = r.split_whitespace();
            let date = w.next().unwrap_or("").to_string();
            let sente = w.next().unwrap_or("").to_string();
            format!("{date} {sente}")
        })
        .collect()
}

fn title(v: &Viewer) -> String {
    v.app.overlays().list().unwrap().title.clone()
}

fn selected(v: &Viewer) -> usize {
    v.app.overlays().list().unwrap().selected
}

fn text(v: &mut Viewer, w: u16, h: u16) -> String {
    let mut out = screen_rows(&screen(v, w, h)).join("\n");
    out.push('\n');
    out
}

#[test]
fn the_games_at_a_position_sort_by_each_column_and_reverse_keeping_the_game_selected() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = viewer(dir.path());
    press(&mut v, "o");
    v.app.collection_settle();
    assert_eq!(v.app.mode(), Mode::List);
    // Newest first, the undated game last; the title says so as the library's head does.
    assert_eq!(
        listed(&v),
        [
            "2022-01-04 森内俊之",
            "2021-05-02 藤井聡太",
            "2020-03-01 羽生善治",
            "2019-07-03 佐藤康光",
            "---------- 渡辺明",
        ]
    );
    assert!(title(&v).contains("日付▼"), "{}", title(&v));
    insta::assert_snapshot!("games_list_by_date_80x24", text(&mut v, 80, 24));
    // Select 羽生's game (third), then sort by 先手, A to Z (code point order, as the
    // library's): the selection stays on that game.
    press(&mut v, "jjs");
    assert!(title(&v).contains("先手▲"), "{}", title(&v));
    assert_eq!(
        listed(&v),
        [
            "2019-07-03 佐藤康光",
            "2022-01-04 森内俊之",
            "---------- 渡辺明",
            "2020-03-01 羽生善治",
            "2021-05-02 藤井聡太",
        ]
    );
    assert_eq!(listed(&v)[selected(&v)], "2020-03-01 羽生善治");
    // S reverses.
    press(&mut v, "S");
    assert!(title(&v).contains("先手▼"), "{}", title(&v));
    assert_eq!(listed(&v)[0], "2021-05-02 藤井聡太");
    assert_eq!(listed(&v)[selected(&v)], "2020-03-01 羽生善治");
    insta::assert_snapshot!("games_list_by_sente_desc_120x40", text(&mut v, 120, 40));
    // 後手, then the result (先手勝, 後手勝, 引分, 不明), then the moves.
    press(&mut v, "s");
    assert!(title(&v).contains("後手▲"), "{}", title(&v));
    assert_eq!(
        listed(&v)[0],
        "2021-05-02 藤井聡太",
        "佐藤康光 first as 後手"
    );
    press(&mut v, "s");
    assert!(title(&v).contains("結果▲"), "{}", title(&v));
    let results: Vec<String> = (v.app.overlays().list().unwrap().items.iter())
        .map(|r| r.split_whitespace().nth(4).unwrap().to_string())
        .collect();
    assert_eq!(results, ["先手勝", "後手勝", "後手勝", "引分", "不明"]);
    press(&mut v, "s");
    assert!(title(&v).contains("手数▲"), "{}", title(&v));
    assert_eq!(listed(&v)[0], "2019-07-03 佐藤康光", "1 move");
    assert_eq!(listed(&v)[4], "2022-01-04 森内俊之", "4 moves");
    insta::assert_snapshot!("games_list_by_moves_200x60", text(&mut v, 200, 60));
    // Round again to the date, newest first.
    press(&mut v, "s");
    assert!(title(&v).contains("日付▼"), "{}", title(&v));
    // } and { step through the list in the order shown.
    press(&mut v, "S");
    assert_eq!(listed(&v)[0], "2019-07-03 佐藤康光");
    press(&mut v, "g⏎");
    assert_eq!(v.app.source().name, "g2.csa");
    press(&mut v, "}");
    assert_eq!(v.app.source().name, "g0.csa");
    press(&mut v, "}");
    assert_eq!(v.app.source().name, "g1.csa");
    // The order stays for the next list.
    press(&mut v, "^oo");
    v.app.collection_settle();
    assert!(title(&v).contains("日付▲"), "{}", title(&v));
}

#[test]
fn the_games_at_a_position_are_filtered_in_the_filter_language_shared_with_the_explorer() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = viewer(dir.path());
    press(&mut v, "o");
    v.app.collection_settle();
    press(&mut v, "s");
    // `/` types a filter (prefilled with the one in force, none yet).
    press(&mut v, "/");
    assert_eq!(v.app.mode(), Mode::Prompt);
    assert_eq!(v.app.overlays().prompt().unwrap().text, "");
    press(&mut v, "player:羽生 -sente:佐藤⏎");
    v.app.collection_settle();
    assert_eq!(v.app.mode(), Mode::List, "back in the list");
    assert_eq!(
        listed(&v),
        ["2022-01-04 森内俊之", "2020-03-01 羽生善治"],
        "羽生's games but those 佐藤 played first, still by 先手"
    );
    assert!(
        title(&v).contains("2局 [player:羽生 -sente:佐藤]"),
        "{}",
        title(&v)
    );
    assert!(title(&v).contains("先手▲"), "{}", title(&v));
    assert_eq!(v.app.explorer().filter_text(), "player:羽生 -sente:佐藤");
    insta::assert_snapshot!("games_list_filtered_80x24", text(&mut v, 80, 24));
    // `f` too, prefilled; a filter nothing passes leaves the list open, empty, to mend.
    press(&mut v, "f");
    assert_eq!(
        v.app.overlays().prompt().unwrap().text,
        "player:羽生 -sente:佐藤"
    );
    press(&mut v, " 2030⏎");
    v.app.collection_settle();
    assert_eq!(v.app.mode(), Mode::List);
    assert!(listed(&v).is_empty());
    assert!(title(&v).contains("0局"), "{}", title(&v));
    let said = v.app.message().unwrap().text.clone();
    assert!(
        said.contains("no game with player:羽生 -sente:佐藤 2030"),
        "{said}"
    );
    // One that does not read says why; the list stays as it was.
    press(&mut v, "/");
    press(&mut v, &"⌫".repeat(40));
    press(&mut v, "result:win⏎");
    assert_eq!(v.app.mode(), Mode::List);
    let said = v.app.message().unwrap().text.clone();
    assert!(
        said.contains("expected sente, gote, draw or unknown"),
        "{said}"
    );
    // Cleared: every game again.
    press(&mut v, "/");
    press(&mut v, &"⌫".repeat(40));
    press(&mut v, "⏎");
    v.app.collection_settle();
    assert_eq!(listed(&v).len(), 5);
}

#[test]
fn help_in_the_explorer_and_the_games_list_starts_with_their_keys() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = viewer(dir.path());
    press(&mut v, "X");
    v.app.collection_settle();
    press(&mut v, "?");
    let lines = kifview::tui::ui::help_lines(&v.app);
    assert!(lines[0].starts_with("Explorer: the moves"), "{lines:?}");
    assert!(
        lines[..20].iter().any(|l| l.contains("Explorer: as me")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("Filter language")));
    insta::assert_snapshot!("explorer_help_80x24", text(&mut v, 80, 24));
    press(&mut v, "⎋o");
    v.app.collection_settle();
    press(&mut v, "?");
    let lines = kifview::tui::ui::help_lines(&v.app);
    assert!(
        lines[0].starts_with("The games at this position"),
        "{lines:?}"
    );
    assert!(
        lines[..20]
            .iter()
            .any(|l| l.contains("List: sort by the next column"))
    );
    insta::assert_snapshot!("games_list_help_200x60", text(&mut v, 200, 60));
}
