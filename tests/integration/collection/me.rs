//! "Me", head-to-head and names as people write them (issue 35): `find`, `explore` and
//! `games` with `--me`, `--filter` and repeated `player:` on a generated collection whose
//! names are written with and without spaces, in full width and with a title after them,
//! checked against a count made here from who each game's players are (not from their text).

use super::index::{collgen, index, result_of};
use crate::common;
use assert_cmd::Command;
use kifview::core::notation::Format;
use kifview::core::record::Record;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// Who plays: each person with the ways their name is written in the files.
const PEOPLE: [(&str, [&str; 3]); 5] = [
    ("fujii", ["藤井聡太", "藤井 聡太", "藤井\u{3000}聡太竜王"]),
    ("fujii_s", ["fujii_s", "FUJII_S", "ｆｕｊｉｉ＿ｓ"]),
    ("habu", ["羽生善治", "羽生 善治九段", "羽生\u{3000}善治"]),
    ("sato", ["佐藤康光", "佐藤 康光", "佐藤康光九段"]),
    ("kimura", ["Ｋｉｍｕｒａ", "kimura", "KIMURA 一基"]),
];

/// A game as written and who played it.
struct Game {
    path: String,
    sente: &'static str,
    gote: &'static str,
    event27: bool,
    result: &'static str,
    first: Option<String>,
}

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

/// 60 games between every pair of people, each side written one of its ways; events 第27期
/// in half or full width, or 第28期.
fn write(root: &Path) -> Vec<Game> {
    let mut rng = collgen::Rng(35);
    let mut out = Vec::new();
    for i in 0..60 {
        let s = i % 5;
        let g = (s + 1 + (i / 5) % 4) % 5;
        let (sente, gote) = (PEOPLE[s], PEOPLE[g]);
        let mut r: Record = collgen::game(&mut rng, 12);
        r.header.set("先手", sente.1[i % 3]);
        r.header.set("後手", gote.1[(i / 3) % 3]);
        let event = ["第27期竜王戦", "第２７期 竜王戦", "第28期竜王戦"][i % 3];
        r.header.set("棋戦", event);
        let p = root.join(format!("g{i:02}.kif"));
        std::fs::write(&p, collgen::bytes(&r, Format::Kif, i % 2 == 0)).unwrap();
        let first = r
            .main_line()
            .get(1)
            .and_then(|&id| r.node(id).move_data().map(|m| m.mv.usi()));
        out.push(Game {
            path: std::fs::canonicalize(&p)
                .unwrap()
                .to_string_lossy()
                .into_owned(),
            sente: sente.0,
            gote: gote.0,
            event27: i % 3 != 2,
            result: result_of(&r),
            first,
        });
    }
    out
}

fn indexed(dir: &Path) -> (std::path::PathBuf, Vec<Game>) {
    let coll = dir.join("coll");
    std::fs::create_dir(&coll).unwrap();
    let games = write(&coll);
    let idx = dir.join("idx");
    index(&coll, &idx);
    (idx, games)
}

/// A config that says nothing (so that no user's config says who "me" is).
fn no_config(idx: &Path) -> std::path::PathBuf {
    let p = idx.with_extension("empty.toml");
    std::fs::write(&p, "").unwrap();
    p
}

/// `kifview ARGS --index IDX --json` (with [`no_config`]), one value a line.
fn run(idx: &Path, args: &[&str]) -> Vec<Value> {
    let out = kifview()
        .args(args)
        .arg("--index")
        .arg(idx)
        .arg("--json")
        .env("KIFVIEW_CONFIG", no_config(idx))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        common::stderr_of(&out)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON lines"))
        .collect()
}

/// The paths of the games a `games` or `find` answer lists.
fn paths(lines: &[Value]) -> Vec<String> {
    let mut v: Vec<String> = lines
        .iter()
        .map(|l| l["path"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

fn expected(games: &[Game], keep: impl Fn(&Game) -> bool) -> Vec<String> {
    let mut v: Vec<String> = games
        .iter()
        .filter(|g| keep(g))
        .map(|g| g.path.clone())
        .collect();
    v.sort();
    v
}

const ME: [&str; 4] = ["--me", "藤井聡太", "--me", "fujii_s"];

fn mine(who: &str) -> bool {
    who == "fujii" || who == "fujii_s"
}

/// My colour and result in `g`, from who played it.
fn me_of(g: &Game) -> (Value, Value) {
    let color = if mine(g.sente) {
        "sente"
    } else if mine(g.gote) {
        "gote"
    } else {
        return (Value::Null, Value::Null);
    };
    let result = match g.result {
        "draw" => "draw",
        "unknown" => "unknown",
        r if r == color => "win",
        _ => "loss",
    };
    (json!(color), json!(result))
}

#[test]
fn names_are_found_as_people_write_them_and_repeated_players_are_head_to_head() {
    let dir = tempfile::tempdir().unwrap();
    let (idx, games) = indexed(dir.path());
    let has = |g: &Game, who: &str| g.sente == who || g.gote == who;
    // Every way 羽生善治 is written, titles after the name kept.
    let habu = run(&idx, &["games", "--player", "羽生善治"]);
    assert_eq!(paths(&habu), expected(&games, |g| has(g, "habu")));
    assert_eq!(
        paths(&run(&idx, &["games", "--filter", "羽生 善治"])),
        expected(&games, |g| has(g, "habu"))
    );
    // Full-width, half-width and either case.
    assert_eq!(
        paths(&run(&idx, &["games", "--filter", "player:KIMURA"])),
        expected(&games, |g| has(g, "kimura"))
    );
    // Head-to-head: both names, in either colour (before: the last player: won).
    let h2h = run(
        &idx,
        &["games", "--filter", "player:羽生善治 player:藤井聡太"],
    );
    let want = expected(&games, |g| has(g, "habu") && has(g, "fujii"));
    assert!(!want.is_empty());
    assert_eq!(paths(&h2h), want);
    assert_eq!(
        paths(&run(
            &idx,
            &["games", "--player", "羽生善治", "--player", "藤井聡太"]
        )),
        want
    );
    // -player: excludes.
    assert_eq!(
        paths(&run(
            &idx,
            &["games", "--player", "羽生", "--filter", "-player:藤井聡太"]
        )),
        expected(&games, |g| has(g, "habu") && !has(g, "fujii"))
    );
    // 第27期 finds 第２７期, not 第28期.
    assert_eq!(
        paths(&run(&idx, &["games", "--filter", "event:第27期"])),
        expected(&games, |g| g.event27)
    );
    // sente: and gote: likewise.
    assert_eq!(
        paths(&run(
            &idx,
            &["games", "--filter", "sente:佐藤康光 gote:羽生善治"]
        )),
        expected(&games, |g| g.sente == "sato" && g.gote == "habu")
    );
}

#[test]
fn me_filters_and_scores_my_games_from_my_side() {
    let dir = tempfile::tempdir().unwrap();
    let (idx, games) = indexed(dir.path());
    // games --json: me_color and me_result on every line when a me is set.
    let all = run(&idx, &[&["games"][..], &ME].concat());
    assert_eq!(all.len(), games.len());
    let by_path: BTreeMap<&str, &Game> = games.iter().map(|g| (g.path.as_str(), g)).collect();
    for line in &all {
        let g = by_path[line["path"].as_str().unwrap()];
        let (c, r) = me_of(g);
        assert_eq!((&line["me_color"], &line["me_result"]), (&c, &r), "{line}");
    }
    // Without a me, no such fields.
    let plain = run(&idx, &["games"]);
    assert!(
        plain
            .iter()
            .all(|l| l.get("me_color").is_none() && l.get("me_result").is_none())
    );
    // me, me:sente, me:gote.
    for (word, keep) in [
        (
            "me",
            &(|g: &Game| mine(g.sente) || mine(g.gote)) as &dyn Fn(&Game) -> bool,
        ),
        ("me:sente", &|g: &Game| mine(g.sente)),
        ("me:gote", &|g: &Game| mine(g.gote)),
    ] {
        let got = run(&idx, &[&["games", "--filter", word][..], &ME].concat());
        assert_eq!(paths(&got), expected(&games, keep), "{word}");
    }
    // The config's me, when no --me.
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[collection]\nme = [\"藤井 聡太\", \"FUJII_S\"]\n").unwrap();
    let out = kifview()
        .args(["games", "--json", "--filter", "me", "--index"])
        .arg(&idx)
        .env("KIFVIEW_CONFIG", &config)
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        paths(&lines),
        expected(&games, |g| mine(g.sente) || mine(g.gote))
    );
    // `me` without anyone to be: an error saying how to name oneself.
    let out = kifview()
        .args(["games", "--filter", "me", "--index"])
        .arg(&idx)
        .env("KIFVIEW_CONFIG", no_config(&idx))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = common::stderr_of(&out);
    assert!(
        err.contains("--me") && err.contains("[collection] me"),
        "{err}"
    );
    // find: the same fields, at the start position every game reaches.
    let found = run(
        &idx,
        &[
            &[
                "find",
                "--sfen",
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "--filter",
                "me",
            ][..],
            &ME,
        ]
        .concat(),
    );
    assert_eq!(
        paths(&found),
        expected(&games, |g| mine(g.sente) || mine(g.gote))
    );
    for line in &found {
        let (c, r) = me_of(by_path[line["path"].as_str().unwrap()]);
        assert_eq!((&line["me_color"], &line["me_result"]), (&c, &r), "{line}");
    }
}

#[test]
fn explore_as_me_counts_my_results_in_the_total_and_per_move() {
    let dir = tempfile::tempdir().unwrap();
    let (idx, games) = indexed(dir.path());
    let e = run(
        &idx,
        &[
            &["explore", "--position", "startpos", "--filter", "me"][..],
            &ME,
        ]
        .concat(),
    );
    assert_eq!(e.len(), 1);
    let e = &e[0];
    // The independent count: my games, by first move, by my result.
    let tally = |keep: &dyn Fn(&Game) -> bool| {
        let mut t = BTreeMap::from([
            ("games", 0),
            ("win", 0),
            ("loss", 0),
            ("draw", 0),
            ("unknown", 0),
        ]);
        for g in games.iter().filter(|g| keep(g)) {
            let (_, r) = me_of(g);
            *t.get_mut("games").unwrap() += 1;
            *t.get_mut(r.as_str().unwrap()).unwrap() += 1;
        }
        json!(t)
    };
    let is_mine = |g: &Game| mine(g.sente) || mine(g.gote);
    assert_eq!(e["me"], tally(&is_mine));
    assert_eq!(e["games"], e["me"]["games"]);
    let moves = e["moves"].as_array().unwrap();
    assert!(moves.len() > 1, "{e}");
    for m in moves {
        let usi = m["usi"].as_str().unwrap();
        assert_eq!(
            m["me"],
            tally(&|g: &Game| is_mine(g) && g.first.as_deref() == Some(usi)),
            "{usi}"
        );
    }
    // Without the me filter: no me counts.
    let e = run(
        &idx,
        &[&["explore", "--position", "startpos"][..], &ME].concat(),
    );
    assert!(e[0].get("me").is_none() && e[0]["moves"][0].get("me").is_none());
}

#[test]
fn impossible_dates_and_bad_filters_are_errors_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let (idx, _) = indexed(dir.path());
    for (args, what) in [
        (&["games", "--filter", "2024-02-30"][..], "2024-02-30"),
        (&["games", "--from", "2023-02-29"][..], "2023-02-29"),
        (&["games", "--filter", "-result:sente"][..], "-result:sente"),
        (&["games", "--player", " "][..], "--player"),
    ] {
        let out = kifview()
            .args(args)
            .arg("--index")
            .arg(&idx)
            .env("KIFVIEW_CONFIG", no_config(&idx))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = common::stderr_of(&out);
        assert!(err.contains(what), "{args:?}: {err}");
    }
}

#[test]
fn tags_lists_every_tag_with_its_count_and_tag_finds_its_family() {
    let dir = tempfile::tempdir().unwrap();
    let (idx, games) = indexed(dir.path());
    let listed = run(&idx, &["tags"]);
    // The independent count: each game's tags as `games --json` lists them.
    let all = run(&idx, &["games"]);
    assert_eq!(all.len(), games.len());
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for g in &all {
        for t in g["tags"].as_array().unwrap() {
            *counts.entry(t.as_str().unwrap().to_string()).or_default() += 1;
        }
    }
    let got: BTreeMap<String, u64> = listed
        .iter()
        .map(|l| {
            (
                l["tag"].as_str().unwrap().to_string(),
                l["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, counts);
    assert!(!got.is_empty());
    // By count, most first.
    let n: Vec<u64> = listed
        .iter()
        .map(|l| l["games"].as_u64().unwrap())
        .collect();
    assert!(n.windows(2).all(|w| w[0] >= w[1]), "{n:?}");
    // tag:美濃 = the games with a tag of the family, as listed by games --json.
    let family = kifview::collection::tags::family("美濃");
    let want: Vec<String> = {
        let mut v: Vec<String> = all
            .iter()
            .filter(|g| {
                g["tags"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|t| family.iter().any(|f| f == t.as_str().unwrap()))
            })
            .map(|g| g["path"].as_str().unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(paths(&run(&idx, &["games", "--tag", "美濃"])), want);
    let not: Vec<String> = paths(&run(&idx, &["games", "--filter", "-tag:美濃"]));
    assert_eq!(not.len() + want.len(), games.len());
}
