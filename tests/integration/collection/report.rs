//! `kifview report` (issue 35): the tournament table's numbers against an independent count
//! from the records written (copies of games counted once), the JSON contract exactly, HTML
//! escaped with its charts, and a player's dossier naming `FILE +PLY`.

#[path = "../../../benches/support/collgen.rs"]
#[allow(clippy::duplicate_mod)]
mod collgen;

use assert_cmd::Command;
use collgen::Rng;
use kifview::core::notation::{Format, usi};
use kifview::core::record::{Record, Special, Step};
use kifview::core::rules::Color;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

use crate::common;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

fn run(args: &[&str], idx: &Path) -> String {
    let out = kifview()
        .args(args)
        .arg("--index")
        .arg(idx)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// The moves of a record's main line.
fn moves(r: &Record) -> usize {
    r.main_line()
        .iter()
        .filter(|&&id| r.node(id).move_data().is_some())
        .count()
}

fn ending(r: &Record) -> Option<Special> {
    let last = *r.main_line().last().unwrap();
    match &r.node(last).step {
        Step::Special(s) => Some(s.clone()),
        _ => None,
    }
}

/// The result for sente, from the ending and whose move it was.
fn result_of(r: &Record) -> &'static str {
    let Some(s) = ending(r) else { return "unknown" };
    let to_move = if moves(r).is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    let lost = |c: Color| if c == Color::Black { "gote" } else { "sente" };
    match s {
        Special::Resign | Special::Mate | Special::Timeout | Special::FoulLose => lost(to_move),
        Special::FoulWin | Special::EnteringKing => lost(to_move.flip()),
        Special::RepetitionDraw | Special::Impass | Special::Draw => "draw",
        _ => "unknown",
    }
}

fn game(line: &str, sente: &str, gote: &str, date: &str, event: &str, end: Special) -> Record {
    let mut r = usi::read(&format!("position startpos moves {line}"))
        .expect("USI")
        .record;
    r.header.set("先手", sente);
    r.header.set("後手", gote);
    r.header.set("開始日時", date);
    r.header.set("棋戦", event);
    let last = *r.main_line().last().unwrap();
    r.push_child(last, Step::Special(end));
    r
}

/// The collection: generated games and games with each ending the table counts, each written
/// once (KIF or CSA), and some copied again as KI2 (not counted). Returns the games counted.
fn write(dir: &Path) -> Vec<Record> {
    let mut rng = Rng(0x002e_9047);
    let mut games: Vec<Record> = (0..40).map(|_| collgen::game(&mut rng, 12)).collect();
    let specials = [
        ("7g7f 3c3d 2g2f 4c4d", Special::RepetitionDraw),
        ("7g7f 3c3d 2g2f 4c4d 2f2e", Special::Impass),
        ("2g2f 8c8d 2f2e", Special::EnteringKing),
        ("2g2f 8c8d", Special::FoulLose),
        ("5g5f 3c3d 5f5e", Special::Timeout),
        ("7g7f", Special::Interrupt),
    ];
    for (i, (line, end)) in specials.into_iter().enumerate() {
        games.push(game(
            line,
            &format!("特{i}"),
            "<script>alert(1)</script>",
            "2030/01/02",
            "特別棋戦",
            end,
        ));
    }
    for (i, g) in games.iter().enumerate() {
        let (ext, f) = if i % 2 == 0 {
            ("kif", Format::Kif)
        } else {
            ("csa", Format::Csa)
        };
        std::fs::write(dir.join(format!("g{i}.{ext}")), collgen::bytes(g, f, false)).unwrap();
        if i % 5 == 0 {
            std::fs::write(
                dir.join(format!("copy{i}.ki2")),
                collgen::bytes(g, Format::Ki2, true),
            )
            .unwrap();
        }
    }
    games
}

fn index(coll: &Path, idx: &Path) {
    let out = kifview()
        .arg("index")
        .arg(coll)
        .arg("--index")
        .arg(idx)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() < 1e-9
}

/// Counts of (games, sente, gote, draw) by a key of each game.
fn by(games: &[Record], key: impl Fn(&Record) -> String) -> BTreeMap<String, [u64; 4]> {
    let mut m: BTreeMap<String, [u64; 4]> = BTreeMap::new();
    for g in games {
        let c = m.entry(key(g)).or_default();
        c[0] += 1;
        match result_of(g) {
            "sente" => c[1] += 1,
            "gote" => c[2] += 1,
            "draw" => c[3] += 1,
            _ => {}
        }
    }
    m
}

fn check_groups(json: &Value, want: &BTreeMap<String, [u64; 4]>, total: u64) {
    let groups = json["groups"].as_array().unwrap();
    assert_eq!(groups.len(), want.len(), "{groups:?}");
    for g in groups {
        let keys: Vec<&str> = g.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            [
                "draw",
                "games",
                "gote",
                "key",
                "sente",
                "sente_win_rate",
                "share"
            ]
        );
        let c = want[g["key"].as_str().unwrap()];
        assert_eq!(
            [&g["games"], &g["sente"], &g["gote"], &g["draw"]].map(|v| v.as_u64().unwrap()),
            c,
            "{g}"
        );
        assert!(close(&g["share"], c[0] as f64 / total as f64), "{g}");
        let decisive = c[1] + c[2];
        let rate = if decisive == 0 {
            0.0
        } else {
            c[1] as f64 / decisive as f64
        };
        assert!(close(&g["sente_win_rate"], rate), "{g}");
    }
    let counts: Vec<u64> = groups
        .iter()
        .map(|g| g["games"].as_u64().unwrap())
        .collect();
    assert!(
        counts.windows(2).all(|w| w[0] >= w[1]),
        "by count: {counts:?}"
    );
}

#[test]
fn the_tournament_table_matches_an_independent_count_with_copies_counted_once() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    let games = write(&coll);
    let idx = dir.path().join("idx");
    index(&coll, &idx);

    let text = run(&["report", "--format", "json", "--by", "year"], &idx);
    assert_eq!(text.lines().count(), 1);
    assert!(text.starts_with("{\"games\":46,\"sente\":"), "{text}");
    let order = [
        "\"games\":",
        "\"sente\":",
        "\"gote\":",
        "\"draw\":",
        "\"unknown\":",
        "\"sennichite\":",
        "\"jishogi\":",
        "\"average_plies\":",
        "\"groups\":[",
    ];
    let at: Vec<usize> = order.iter().map(|k| text.find(k).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        json.as_object().unwrap().len(),
        order.len(),
        "exactly the contract's keys"
    );
    let count = |r: &str| games.iter().filter(|g| result_of(g) == r).count() as u64;
    let ended = |s: Special| {
        games
            .iter()
            .filter(|g| ending(g) == Some(s.clone()))
            .count() as u64
    };
    assert_eq!(json["games"], games.len() as u64);
    assert_eq!(json["sente"], count("sente"));
    assert_eq!(json["gote"], count("gote"));
    assert_eq!(json["draw"], count("draw"));
    assert_eq!(json["unknown"], count("unknown"));
    assert_eq!(json["sennichite"], ended(Special::RepetitionDraw));
    assert_eq!(json["jishogi"], ended(Special::Impass));
    assert!(
        json["sennichite"].as_u64() >= Some(1),
        "the table has a 千日手 to count"
    );
    let plies: usize = games.iter().map(moves).sum();
    assert!(close(
        &json["average_plies"],
        plies as f64 / games.len() as f64
    ));
    let total = games.len() as u64;
    check_groups(
        &json,
        &by(&games, |g| {
            g.header.get("開始日時").unwrap()[..4].to_string()
        }),
        total,
    );
    let json: Value =
        serde_json::from_str(&run(&["report", "--format", "json", "--by", "event"], &idx)).unwrap();
    check_groups(
        &json,
        &by(&games, |g| g.header.get("棋戦").unwrap().to_string()),
        total,
    );
    // Every game in one strategy group.
    let json: Value = serde_json::from_str(&run(&["report", "--format", "json"], &idx)).unwrap();
    let sum: u64 = json["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["games"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, total);

    // The table to read: the endings' counts and the averages.
    let text = run(&["report", "--by", "event"], &idx);
    for want in [
        "対局数 games",
        "千日手 sennichite",
        "宣言勝ち declared wins",
        "反則 fouls",
        "時間切れ timeouts",
        "特別棋戦",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
    let line = |label: &str| {
        text.lines()
            .find(|l| l.starts_with(label))
            .unwrap()
            .split_whitespace()
            .last()
            .unwrap()
            .to_string()
    };
    assert_eq!(line("宣言勝ち"), "1");
    assert_eq!(line("反則"), "1");
    assert_eq!(line("時間切れ"), (ended(Special::Timeout)).to_string());
    let without: Vec<&Record> = games
        .iter()
        .filter(|g| ending(g) != Some(Special::RepetitionDraw))
        .collect();
    let avg = without.iter().map(|g| moves(g)).sum::<usize>() as f64 / without.len() as f64;
    assert_eq!(line("平均手数（千日手を除く）"), format!("{avg:.1}"));

    // CSV and Markdown hold the groups; HTML is one file with its charts, names escaped.
    let csv = run(&["report", "--by", "event", "--format", "csv"], &idx);
    assert!(csv.contains("特別棋戦,6,"), "{csv}");
    let md = run(&["report", "--by", "player", "--format", "md"], &idx);
    assert!(
        md.contains("| &lt;script&gt;alert(1)&lt;/script&gt; | 6 |"),
        "{md}"
    );
    let html = run(&["report", "--by", "player", "--format", "html"], &idx);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(
        html.matches("<svg").count(),
        3,
        "shares, win rates, lengths"
    );
    assert!(!html.contains("<script>"), "names are escaped");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(
        !html.contains("src=") && !html.contains("href="),
        "self-contained"
    );
}

#[test]
fn a_players_dossier_scores_from_their_side_and_names_file_and_ply() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    // 甲 as sente: three times ▲７六歩, once ▲２六歩 (leaving the usual line at the start);
    // as gote once. The ▲２六歩 game is analysed: 甲's third move a 悪手.
    let games = [
        (
            "7g7f 3c3d 2g2f",
            "甲 太郎",
            "乙",
            "2023/01/01",
            Special::Resign,
        ),
        (
            "7g7f 8c8d 2g2f",
            "甲太郎",
            "丙",
            "2023/02/01",
            Special::Resign,
        ),
        (
            "7g7f 3c3d 6g6f 8c8d",
            "甲太郎",
            "乙",
            "2024/03/01",
            Special::Resign,
        ),
        (
            "2g2f 8c8d 2f2e",
            "甲太郎",
            "丙",
            "2024/04/01",
            Special::RepetitionDraw,
        ),
        ("7g7f 3c3d", "乙", "甲太郎", "2024/05/01", Special::Resign),
    ];
    for (i, (line, s, g, date, end)) in games.into_iter().enumerate() {
        let mut r = game(line, s, g, date, "練習", end);
        if i == 3 {
            let third = r.main_line()[3];
            r.node_mut(third).comment = "【悪手】\n#評価値=-500\n".into();
            let second = r.main_line()[2];
            r.node_mut(second).comment = "#評価値=100\n".into();
        }
        std::fs::write(
            coll.join(format!("d{i}.kif")),
            collgen::bytes(&r, Format::Kif, false),
        )
        .unwrap();
    }
    let idx = dir.path().join("idx");
    index(&coll, &idx);
    let d: Value = serde_json::from_str(&run(
        &["report", "--player", "甲太郎", "--format", "json"],
        &idx,
    ))
    .unwrap();
    // From 甲's side: wins where the other side resigned.
    let all = &d["all"];
    assert_eq!(all["games"], 5);
    // d0 (3 moves, gote to move resigns): win; d1 win; d2 (4 moves, sente to move): loss;
    // d3 draw; d4 as gote, sente to move resigned after 2: win for 甲.
    assert_eq!(
        [&all["win"], &all["loss"], &all["draw"]].map(|v| v.as_u64()),
        [Some(3), Some(1), Some(1)]
    );
    let opp: Vec<(&str, u64)> = d["opponents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["key"].as_str().unwrap(), o["games"].as_u64().unwrap()))
        .collect();
    assert_eq!(opp, [("乙", 3), ("丙", 2)]);
    let years: Vec<&str> = d["years"]
        .as_array()
        .unwrap()
        .iter()
        .map(|y| y["key"].as_str().unwrap())
        .collect();
    assert_eq!(years, ["2024", "2023"]);
    let dev = &d["deviations"][0];
    assert_eq!(dev["usual"], "▲７六歩");
    assert_eq!(dev["usual_games"], 3);
    assert_eq!(dev["games"][0]["played"], "▲２六歩");
    let d3 = std::fs::canonicalize(coll.join("d3.kif")).unwrap();
    assert_eq!(dev["games"][0]["at"]["path"], d3.to_str().unwrap());
    assert_eq!(dev["games"][0]["at"]["ply"], 1);
    let m = &d["mistakes"];
    assert_eq!(m["games"], 1);
    assert_eq!(m["phases"][0]["marks"], serde_json::json!([0, 0, 1, 0]));
    assert_eq!(m["worst"][0]["at"]["ply"], 3);
    // The text names each game as FILE +PLY.
    let text = run(&["report", "--player", "甲太郎"], &idx);
    assert!(text.contains(&format!("{} +1", d3.display())), "{text}");
    assert!(text.contains(&format!("{} +3", d3.display())), "{text}");
}

/// Games of `lines` (USI from `sfen`, or the start position when `None`) with their players,
/// written as KIF files `NAME{i}.kif`.
fn write_games(coll: &Path, name: &str, sfen: Option<&str>, games: &[(&str, &str, &str)]) {
    for (i, (line, s, g)) in games.iter().enumerate() {
        let start = sfen.map_or("startpos".to_string(), |s| format!("sfen {s}"));
        let mut r = usi::read(&format!("position {start} moves {line}"))
            .expect("USI")
            .record;
        r.header.set("先手", s);
        r.header.set("後手", g);
        let last = *r.main_line().last().unwrap();
        r.push_child(last, Step::Special(Special::Resign));
        std::fs::write(
            coll.join(format!("{name}{i}.kif")),
            collgen::bytes(&r, Format::Kif, false),
        )
        .unwrap();
    }
}

#[test]
fn a_dossier_counts_where_each_game_first_leaves_the_usual_line_from_every_start() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    // (Other opponents each time: the same game twice would be one game and its copy.)
    // 甲's usual line: ▲７六歩 △３四歩 ▲２六歩 △８四歩 ▲２五歩. Two games leave it at once
    // (▲２六歩 first), then reach the usual position after four moves by transposition and
    // play ▲６六歩 there: each game left the usual line once, at its first move.
    write_games(
        &coll,
        "e",
        None,
        &[
            ("7g7f 3c3d 2g2f 8c8d 2f2e", "甲", "乙"),
            ("7g7f 3c3d 2g2f 8c8d 2f2e", "甲", "丙"),
            ("7g7f 3c3d 2g2f 8c8d 2f2e", "甲", "丁"),
            ("2g2f 3c3d 7g7f 8c8d 6g6f", "甲", "丙"),
            ("2g2f 3c3d 7g7f 8c8d 6g6f", "甲", "乙"),
        ],
    );
    // 香落ち games (上手 moves first), 甲 as 下手: the usual ▲７六歩 after △３四歩, left once.
    let kyo = kifview::core::rules::Handicap::by_name("香落ち")
        .unwrap()
        .position()
        .to_sfen();
    write_games(
        &coll,
        "k",
        Some(&kyo),
        &[
            ("3c3d 7g7f 8c8d", "甲", "乙"),
            ("3c3d 7g7f 8c8d", "甲", "丁"),
            ("3c3d 7g7f 4c4d", "甲", "丙"),
            ("3c3d 2g2f 8c8d", "甲", "丙"),
        ],
    );
    let idx = dir.path().join("idx");
    index(&coll, &idx);
    let d: Value = serde_json::from_str(&run(
        &["report", "--player", "甲", "--format", "json"],
        &idx,
    ))
    .unwrap();
    let devs = d["deviations"].as_array().unwrap();
    // (start, line, usual, [(file, ply)]) of each deviation.
    type Seen<'a> = (&'a str, &'a str, &'a str, Vec<(String, u64)>);
    let seen: Vec<Seen> = devs
        .iter()
        .map(|v| {
            (
                v["start"].as_str().unwrap(),
                v["line"].as_str().unwrap(),
                v["usual"].as_str().unwrap(),
                v["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|g| {
                        let p = g["at"]["path"].as_str().unwrap();
                        (
                            p.rsplit('/').next().unwrap().to_string(),
                            g["at"]["ply"].as_u64().unwrap(),
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (
                "平手",
                "(開始局面 the start)",
                "▲７六歩",
                vec![("e3.kif".to_string(), 1), ("e4.kif".to_string(), 1)]
            ),
            (
                "香落ち",
                "△３四歩",
                "▲７六歩",
                vec![("k3.kif".to_string(), 2)]
            ),
        ]
    );

    // `--player me`, `--me NAME` and `--filter me` are the same dossier: mine.
    let config = dir.path().join("empty.toml");
    std::fs::write(&config, "").unwrap();
    let me = |args: &[&str]| -> Value {
        let out = kifview()
            .args(["report", "--format", "json", "--index"])
            .arg(&idx)
            .args(args)
            .env("KIFVIEW_CONFIG", &config)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", common::stderr_of(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let filter_me = me(&["--filter", "me", "--me", "甲"]);
    assert_eq!(filter_me["all"]["games"], 9);
    assert_eq!(me(&["--player", "me", "--me", "甲"]), filter_me);
    assert_eq!(me(&["--me", "甲"]), filter_me);
}
