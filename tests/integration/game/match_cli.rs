//! `kifview match` with the fake player (`tests/fixtures/engines/player.sh`): every game a
//! record with its headers, times and ending; the JSON; `match report` reading the same back;
//! engines that crash, hang, go silent, answer illegal moves, flood or declare falsely lose
//! their games and the match goes on.

use crate::common::manifest;
use kifview::core::record::Special;
use kifview::core::rules::Color;
use std::path::{Path, PathBuf};

/// One game's moves: `long` has eleven, `short` four (its player resigns at ply 4 or 5).
pub(super) const LONG: &str = "7g7f\n3c3d\n2g2f\n8c8d\n2f2e\n8d8e\n6i7h\n4a3b\n2e2d\n2c2d\n2h2d\n";
pub(super) const SHORT: &str = "7g7f\n3c3d\n2g2f\n8c8d\n";

/// A config with fake players: `strong` (the long game), `weak` (the short one), and one
/// entry per fault, each playing the long game and misbehaving from ply 2 on.
pub(super) fn config(dir: &Path) -> PathBuf {
    std::fs::write(dir.join("long.txt"), LONG).unwrap();
    std::fs::write(dir.join("short.txt"), SHORT).unwrap();
    let player = manifest().join("tests/fixtures/engines/player.sh");
    let entry = |name: &str, moves: &str, fault: &str| {
        format!(
            "[[engines]]\nname = \"{name}\"\ncommand = \"/bin/sh\"\nargs = [\"{}\", \"{}\", \"{fault}\", \"2\"]\n\n",
            player.display(),
            dir.join(moves).display()
        )
    };
    let mut text = entry("strong", "long.txt", "none") + &entry("weak", "short.txt", "none");
    for f in [
        "crash", "hang", "silent", "stall", "illegal", "flood", "win",
    ] {
        text += &entry(f, "long.txt", f);
    }
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    path
}

pub(super) fn kifview() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("kifview").expect("binary built");
    c.env("NO_COLOR", "1");
    c
}

pub(super) fn run_match(config: &Path, out: &Path, args: &[&str]) -> serde_json::Value {
    let o = kifview()
        .args(["match", "--config"])
        .arg(config)
        .arg("--out")
        .arg(out)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

pub(super) fn report(paths: &[&Path]) -> String {
    let o = kifview()
        .args(["match", "report", "--json"])
        .args(paths)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The records in `dir`, sorted by name, read by kifview's loader.
pub(super) fn records(dir: &Path) -> Vec<(String, kifview::core::record::Record)> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| {
            let loaded = kifview::load::load_input(&p).unwrap();
            assert!(
                loaded.records[0].warnings.is_empty(),
                "{}: {:?}",
                p.display(),
                loaded.records[0].warnings
            );
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, loaded.records[0].record.clone())
        })
        .collect()
}

#[test]
fn a_match_writes_every_game_as_a_record_and_its_json_and_report_agree() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let out = dir.path().join("games");
    let json = run_match(
        &cfg,
        &out,
        &[
            "--engine",
            "strong",
            "--engine",
            "weak",
            "--rounds",
            "3",
            "--tc",
            "30+0.1",
            "--sprt",
            "elo0=0 elo1=200",
        ],
    );
    // strong wins every game: 3 pairs of WW; no finite Elo at a score of 1.
    let text = json.to_string();
    assert_eq!(
        text,
        r#"{"a":{"name":"strong","wins":6},"b":{"name":"weak","wins":0},"draws":0,"elo":null,"elo_ci":[null,null],"errors":{"crash":0,"illegal":0,"time":0},"games":6,"pentanomial":[0,0,0,0,3],"sprt":{"llr":1.468,"lower":-2.944,"result":null,"upper":2.944}}"#
    );
    let recs = records(&out);
    let names: Vec<&str> = recs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "round00001-1.kifu",
            "round00001-2.kifu",
            "round00002-1.kifu",
            "round00002-2.kifu",
            "round00003-1.kifu",
            "round00003-2.kifu"
        ]
    );
    for (name, r) in &recs {
        let h = &r.header;
        let a_black = name.ends_with("-1.kifu");
        let (black, white) = if a_black {
            ("strong", "weak")
        } else {
            ("weak", "strong")
        };
        assert_eq!((h.black_name(), h.white_name()), (Some(black), Some(white)));
        assert_eq!(h.get("持ち時間"), Some("30秒+0.1秒"));
        assert_eq!(h.get("開始局面"), Some("平手"));
        assert!(h.get("開始日時").is_some() && h.get("終了日時").is_some());
        let (special, winner) = kifview::game::record_result(r).unwrap();
        assert_eq!(special, Special::Resign, "{name}");
        let strong = if a_black { Color::Black } else { Color::White };
        assert_eq!(winner, Some(strong), "{name}");
        // Every move has its time and its engine's evaluation as a player's comment.
        let line = r.main_line();
        let first = r.node(line[1]);
        assert!(first.time.is_some(), "{name}");
        assert!(
            first.comment.contains("*評価値="),
            "{name}: {:?}",
            first.comment
        );
        assert!(
            first.comment.contains(&format!("*エンジン={black}")),
            "{name}"
        );
    }
    // The report reads the same result back from the files, its SPRT included.
    assert_eq!(report(&[&out]).trim(), kifview_json(&json));
    // A second match into the same folder replaces nothing.
    let before = std::fs::read(out.join("round00001-1.kifu")).unwrap();
    let o = kifview()
        .args(["match", "--config"])
        .arg(&cfg)
        .args(["--engine", "strong", "--engine", "weak", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already exists"));
    assert_eq!(
        std::fs::read(out.join("round00001-1.kifu")).unwrap(),
        before
    );
}

/// The JSON as kifview prints it: in the issue's order.
pub(super) fn kifview_json(v: &serde_json::Value) -> String {
    let s = &v["sprt"];
    format!(
        r#"{{"games":{},"a":{},"b":{},"draws":{},"elo":{},"elo_ci":{},"pentanomial":{},"sprt":{},"errors":{{"time":{},"crash":{},"illegal":{}}}}}"#,
        v["games"],
        format_args!(r#"{{"name":{},"wins":{}}}"#, v["a"]["name"], v["a"]["wins"]),
        format_args!(r#"{{"name":{},"wins":{}}}"#, v["b"]["name"], v["b"]["wins"]),
        v["draws"],
        v["elo"],
        v["elo_ci"],
        v["pentanomial"],
        if s.is_null() {
            "null".to_string()
        } else {
            format!(
                r#"{{"llr":{},"lower":{},"upper":{},"result":{}}}"#,
                s["llr"], s["lower"], s["upper"], s["result"]
            )
        },
        v["errors"]["time"],
        v["errors"]["crash"],
        v["errors"]["illegal"],
    )
}

#[test]
fn faulty_engines_lose_their_games_and_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    // fault, the error counted per game, the ending word of its games.
    for (fault, errors, ending) in [
        ("crash", [0, 2, 0], Special::FoulLose),
        ("hang", [2, 0, 0], Special::Timeout),
        ("silent", [2, 0, 0], Special::Timeout),
        ("illegal", [0, 0, 2], Special::FoulLose),
        ("win", [0, 0, 2], Special::FoulLose),
    ] {
        let out = dir.path().join(fault);
        // 1 s + 0.1 s a move and 0.2 s past it: a hung engine is killed after about 1.3 s.
        let json = run_match(
            &cfg,
            &out,
            &[
                "--engine", fault, "--engine", "strong", "--rounds", "1", "--tc", "1+0.1",
                "--margin", "200",
            ],
        );
        assert_eq!(json["games"], 2, "{fault}: {json}");
        assert_eq!(json["b"]["wins"], 2, "{fault}: {json}");
        let e = &json["errors"];
        assert_eq!(
            [&e["time"], &e["crash"], &e["illegal"]].map(|v| v.as_u64().unwrap()),
            errors,
            "{fault}: {json}"
        );
        for (name, r) in records(&out) {
            let (special, _) = kifview::game::record_result(&r).unwrap();
            assert_eq!(special, ending, "{fault} {name}");
            let last = *r.main_line().last().unwrap();
            let why = &r.node(last).comment;
            assert!(why.contains("終局理由="), "{fault} {name}: {why:?}");
            assert!(
                r.header.get("エラー").is_some_and(|e| e.contains(fault)),
                "{fault} {name}: the engine is named"
            );
        }
        assert_eq!(report(&[&out]).trim(), kifview_json(&json), "{fault}");
    }
    // A flood of info lines is only noise: the games are played out.
    let out = dir.path().join("flood");
    let json = run_match(
        &cfg,
        &out,
        &[
            "--engine", "flood", "--engine", "weak", "--rounds", "1", "--tc", "30+0.1",
        ],
    );
    assert_eq!(json["a"]["wins"], 2, "{json}");
    assert_eq!(json["errors"]["time"], 0, "{json}");
}

#[test]
fn shards_keep_pairs_whole_and_report_merges_them() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let (one, two) = (dir.path().join("s1"), dir.path().join("s2"));
    let args = |shard: &'static str| {
        [
            "--engine", "strong", "--engine", "weak", "--rounds", "5", "--tc", "30+0.1", "--shard",
            shard,
        ]
    };
    let a = run_match(&cfg, &one, &args("1/2"));
    let b = run_match(&cfg, &two, &args("2/2"));
    assert_eq!(
        (a["games"].as_u64(), b["games"].as_u64()),
        (Some(6), Some(4))
    );
    let mut rounds: Vec<String> = records(&one)
        .into_iter()
        .chain(records(&two))
        .map(|(n, _)| n)
        .collect();
    rounds.sort();
    assert_eq!(rounds.len(), 10);
    let merged: serde_json::Value = serde_json::from_str(&report(&[&one, &two])).unwrap();
    assert_eq!(merged["games"], 10);
    assert_eq!(merged["pentanomial"], serde_json::json!([0, 0, 0, 0, 5]));
}

#[test]
fn openings_are_played_from_the_file_with_colours_swapped() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let openings = dir.path().join("openings.txt");
    std::fs::write(
        &openings,
        "# two openings\nstartpos moves 7g7f 3c3d\nstartpos moves 7g7f\n",
    )
    .unwrap();
    let out = dir.path().join("games");
    let json = run_match(
        &cfg,
        &out,
        &[
            "--engine",
            "strong",
            "--engine",
            "weak",
            "--rounds",
            "2",
            "--tc",
            "30+0.1",
            "--openings",
        ]
        .into_iter()
        .chain([openings.to_str().unwrap()])
        .collect::<Vec<_>>(),
    );
    assert_eq!(json["games"], 4);
    for (name, r) in records(&out) {
        let label = r.header.get("開始局面").unwrap();
        let want = if name.starts_with("round00001") {
            ":2"
        } else {
            ":3"
        };
        assert!(label.ends_with(want), "{name}: {label}");
        // The opening's moves carry no time spent.
        let first = r.node(r.main_line()[1]);
        assert_eq!(first.time.map(|t| t.spent_ms), Some(0), "{name}");
    }
    // An illegal opening is refused before any game, naming its line.
    std::fs::write(&openings, "startpos moves 7g7f 7g7f\n").unwrap();
    let o = kifview()
        .args(["match", "--config"])
        .arg(&cfg)
        .args(["--engine", "strong", "--engine", "weak", "--openings"])
        .arg(&openings)
        .arg("--out")
        .arg(dir.path().join("none"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("openings.txt:1"), "{err}");
}

/// The SPRT stops the match: games still being played then are neither written nor counted,
/// so the result is the one the test reached and `report` reads the same back. (Before, two
/// workers' last games were written and counted after the stop, and a result could flip back
/// to null: a real match of 48 games ended with LLR −2.465 after passing −2.944.)
#[test]
fn the_sprt_stops_the_match_and_the_records_are_exactly_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let out = dir.path().join("games");
    let json = run_match(
        &cfg,
        &out,
        &[
            "--engine",
            "strong",
            "--engine",
            "weak",
            "--tc",
            "30+0.1",
            "--concurrency",
            "2",
            "--sprt",
            "elo0=0 elo1=200",
        ],
    );
    // Each WW pair adds 0.489 to the LLR: the seventh crosses 2.944. The other worker's first
    // game of its pair may have come in before: 14 or 15 games, never more.
    assert_eq!(
        json["pentanomial"],
        serde_json::json!([0, 0, 0, 0, 7]),
        "{json}"
    );
    let games = json["games"].as_u64().unwrap();
    assert!(games == 14 || games == 15, "{json}");
    assert_eq!(json["sprt"]["result"], "H1", "{json}");
    assert_eq!(records(&out).len() as u64, games);
    assert_eq!(report(&[&out]).trim(), kifview_json(&json));
}
