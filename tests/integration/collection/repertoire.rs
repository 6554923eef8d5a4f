//! `kifview repertoire check` (issue 35): a player's games against a repertoire (a record with
//! variations, or a book), checked against a walk made here from the lines the repertoire was
//! written from and the games as generated (not from what kifview read back); transpositions
//! found by position; the opponents' replies it does not answer, with counts.

use super::index::{collgen, index, json_lines};
use crate::common;
use assert_cmd::Command;
use kifview::core::notation::Format;
use kifview::core::record::{Initial, MoveData, NodeId, Record, Special, Step};
use kifview::core::rules::{Color, Handicap, Move, Position};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

/// The player, as the files write them.
const ME: [&str; 3] = ["藤井聡太", "藤井 聡太", "藤井\u{3000}聡太竜王"];

fn placement(p: &Position) -> String {
    let s = p.to_sfen();
    s.rsplit_once(' ').expect("four fields").0.to_string()
}

fn mv(pos: &Position, usi: &str) -> Move {
    pos.legal_moves()
        .into_iter()
        .find(|m| m.usi() == usi)
        .unwrap_or_else(|| panic!("{usi} is not legal in {}", pos.to_sfen()))
}

/// A record of `moves` (USI) from `initial`, with its players, ending in 投了.
fn game(initial: Initial, moves: &[&str], sente: &str, gote: &str) -> Record {
    let mut r = Record::new(initial);
    r.header.set("先手", sente);
    r.header.set("後手", gote);
    let mut pos = r.initial.position.clone();
    let mut cur = NodeId::ROOT;
    for u in moves {
        let m = mv(&pos, u);
        cur = push(&mut r, cur, &mut pos, m);
    }
    r.push_child(cur, Step::Special(Special::Resign));
    r
}

fn push(r: &mut Record, parent: NodeId, pos: &mut Position, m: Move) -> NodeId {
    let color = pos.side_to_move();
    let played = pos.play(m).expect("legal");
    r.push_child(
        parent,
        Step::Move(MoveData {
            mv: m,
            color,
            piece: played.piece,
            captured: played.captured,
        }),
    )
}

/// A repertoire record holding `lines` (each from the start), variations where they part.
fn repertoire_record(lines: &[Vec<Move>]) -> Record {
    let mut r = Record::default();
    for line in lines {
        let mut pos = Position::startpos();
        let mut cur = NodeId::ROOT;
        for &m in line {
            cur = match r.find_move_child(cur, m) {
                Some(c) => {
                    pos.play(m).expect("legal");
                    c
                }
                None => push(&mut r, cur, &mut pos, m),
            };
        }
    }
    r
}

fn usi_line(text: &str) -> Vec<Move> {
    let mut pos = Position::startpos();
    text.split_whitespace()
        .map(|u| {
            let m = mv(&pos, u);
            pos.play(m).unwrap();
            m
        })
        .collect()
}

/// `kifview ARGS --index IDX` with a config that says nothing (no user's config says who "me"
/// is).
fn run(args: &[&str], idx: &Path) -> std::process::Output {
    let config = idx.with_extension("empty.toml");
    std::fs::write(&config, "").unwrap();
    kifview()
        .args(args)
        .arg("--index")
        .arg(idx)
        .env("KIFVIEW_CONFIG", config)
        .output()
        .unwrap()
}

/// What the check should say of a game: status, ply, who, played, expected (USI, sorted).
type Expect = (
    &'static str,
    Option<u64>,
    Option<&'static str>,
    Option<String>,
    BTreeSet<String>,
);

/// The walk of `moves` from the start through the positions `rep` (SFEN without the move
/// number → the moves the lines give there), the player being `mine`.
fn expected(rep: &HashMap<String, BTreeSet<String>>, moves: &[Move], mine: Color) -> Expect {
    let mut pos = Position::startpos();
    let Some(mut here) = rep.get(&placement(&pos)) else {
        return ("outside", None, None, None, BTreeSet::new());
    };
    for (i, &m) in moves.iter().enumerate() {
        let mover = pos.side_to_move();
        pos.play(m).unwrap();
        match rep.get(&placement(&pos)) {
            Some(next) => here = next,
            None if here.is_empty() => {
                return ("ended", Some(i as u64), None, None, BTreeSet::new());
            }
            None => {
                let who = if mover == mine { "player" } else { "opponent" };
                return (
                    "left",
                    Some(i as u64 + 1),
                    Some(who),
                    Some(m.usi()),
                    here.clone(),
                );
            }
        }
    }
    (
        "followed",
        Some(moves.len() as u64),
        None,
        None,
        BTreeSet::new(),
    )
}

fn positions_of(lines: &[Vec<Move>]) -> HashMap<String, BTreeSet<String>> {
    let mut rep: HashMap<String, BTreeSet<String>> = HashMap::new();
    for line in lines {
        let mut pos = Position::startpos();
        for &m in line {
            rep.entry(placement(&pos)).or_default().insert(m.usi());
            pos.play(m).unwrap();
        }
        rep.entry(placement(&pos)).or_default();
    }
    rep
}

fn got(line: &Value) -> Expect {
    let expected: BTreeSet<String> = line["expected"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|m| m["usi"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default();
    let status: &'static str = match line["status"].as_str().unwrap() {
        "left" => "left",
        "ended" => "ended",
        "followed" => "followed",
        "outside" => "outside",
        s => panic!("status {s}"),
    };
    let by: Option<&'static str> = match line["by"].as_str() {
        Some("player") => Some("player"),
        Some("opponent") => Some("opponent"),
        None => None,
        Some(s) => panic!("by {s}"),
    };
    (
        status,
        line["ply"].as_u64(),
        by,
        line["played"]["usi"].as_str().map(str::to_string),
        expected,
    )
}

#[test]
fn a_players_games_against_a_repertoire_with_variations_match_an_independent_walk() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir(&coll).unwrap();
    let mut rng = collgen::Rng(1235);
    // 60 games sharing their openings: 45 of the player's (either colour, the name written
    // three ways), 15 of others.
    let mut games: Vec<(String, Vec<Move>, Option<Color>)> = Vec::new();
    for i in 0..60 {
        let mut r = collgen::game(&mut rng, 10);
        let mine = match i % 4 {
            0 | 1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        };
        match mine {
            Some(Color::Black) => r.header.set("先手", ME[i % 3]),
            Some(Color::White) => r.header.set("後手", ME[i % 3]),
            None => {}
        }
        let p = coll.join(format!("g{i:02}.kif"));
        std::fs::write(&p, collgen::bytes(&r, Format::Kif, i % 2 == 1)).unwrap();
        let moves: Vec<Move> = r
            .main_line()
            .iter()
            .filter_map(|&id| r.node(id).move_data().map(|m| m.mv))
            .collect();
        let path = std::fs::canonicalize(&p)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        games.push((path, moves, mine));
    }
    // The repertoire: the first 3 to 8 plies of six of the games, as one tree.
    let lines: Vec<Vec<Move>> = (0..6).map(|k| games[k * 7].1[..3 + k].to_vec()).collect();
    let rep_path = dir.path().join("rep.kif");
    std::fs::write(
        &rep_path,
        collgen::bytes(&repertoire_record(&lines), Format::Kif, false),
    )
    .unwrap();
    let idx = dir.path().join("idx");
    index(&coll, &idx);

    let rep = positions_of(&lines);
    let rep_arg = rep_path.to_str().unwrap();
    let out = run(
        &[
            "repertoire",
            "check",
            rep_arg,
            "--player",
            "藤井聡太",
            "--min-games",
            "2",
            "--json",
        ],
        &idx,
    );
    let lines_out = json_lines(&out);
    let got_games: BTreeMap<String, Expect> = lines_out
        .iter()
        .filter(|l| l["kind"] == "game")
        .map(|l| (l["path"].as_str().unwrap().to_string(), got(l)))
        .collect();
    let mine: Vec<&(String, Vec<Move>, Option<Color>)> =
        games.iter().filter(|g| g.2.is_some()).collect();
    let want: BTreeMap<String, Expect> = mine
        .iter()
        .map(|(p, m, c)| (p.clone(), expected(&rep, m, c.unwrap())))
        .collect();
    assert_eq!(got_games, want);
    // The walk is worth checking: games leave by either side, and some stay in throughout.
    let count = |s: &str, by: Option<&str>| want.values().filter(|e| e.0 == s && e.2 == by).count();
    assert!(
        count("left", Some("player")) > 0 && count("left", Some("opponent")) > 0,
        "{want:?}"
    );
    assert!(count("ended", None) > 0, "{want:?}");

    // Coverage: the opponents' replies out of the repertoire, by position and reply, in 2
    // games or more, with their counts.
    let mut replies: BTreeMap<(String, String), u64> = BTreeMap::new();
    for (p, m, _) in &mine {
        let e = &want[p];
        if e.0 == "left" && e.2 == Some("opponent") {
            let ply = e.1.unwrap() as usize;
            let mut pos = Position::startpos();
            for &x in &m[..ply - 1] {
                pos.play(x).unwrap();
            }
            *replies
                .entry((placement(&pos), m[ply - 1].usi()))
                .or_default() += 1;
        }
    }
    replies.retain(|_, n| *n >= 2);
    let got_replies: BTreeMap<(String, String), u64> = lines_out
        .iter()
        .filter(|l| l["kind"] == "reply" && l["in_repertoire"] == false)
        .map(|l| {
            (
                (
                    l["position"].as_str().unwrap().to_string(),
                    l["reply"]["usi"].as_str().unwrap().to_string(),
                ),
                l["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got_replies, replies);
    let summary = lines_out.last().unwrap();
    assert_eq!(summary["kind"], "summary");
    assert_eq!(summary["games"], json!(mine.len()));
    assert_eq!(
        summary["left_by_opponent"],
        json!(count("left", Some("opponent")))
    );

    // The same games through `me`, and in the text a person reads (FILE +PLY).
    let me = run(
        &[
            "repertoire",
            "check",
            rep_arg,
            "me",
            "--me",
            "藤井 聡太",
            "--json",
        ],
        &idx,
    );
    assert_eq!(json_lines(&me), lines_out);
    let text = run(
        &["repertoire", "check", rep_arg, "--player", "藤井聡太"],
        &idx,
    );
    let text = String::from_utf8(text.stdout).unwrap();
    let (p, e) = want.iter().find(|(_, e)| e.0 == "left").unwrap();
    assert!(text.contains(&format!("{p} +{}", e.1.unwrap())), "{text}");
}

#[test]
fn a_transposition_stays_in_the_repertoire_and_a_book_is_a_repertoire_too() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir(&coll).unwrap();
    let even = Initial::even;
    let put = |name: &str, r: &Record| {
        std::fs::write(coll.join(name), collgen::bytes(r, Format::Kif, false)).unwrap();
    };
    // By another order of moves to the repertoire's position after ▲7六歩△3四歩▲2六歩, then on.
    put(
        "transposed.kif",
        &game(
            even(),
            &["2g2f", "3c3d", "7g7f", "8c8d", "2f2e"],
            ME[0],
            "相手A",
        ),
    );
    // The opponent answers ▲7六歩 with △8四歩, which the repertoire does not give.
    put(
        "left.kif",
        &game(even(), &["7g7f", "8c8d", "2g2f"], ME[1], "相手B"),
    );
    put(
        "left2.kif",
        &game(even(), &["7g7f", "8c8d", "6g6f"], ME[2], "相手C"),
    );
    // The player, as gote, leaves: △4四歩 where the repertoire gives △3四歩.
    put("mine.kif", &game(even(), &["7g7f", "4c4d"], "相手D", ME[0]));
    // A handicap game starts from a position the repertoire does not hold.
    let kyo = Initial {
        position: Handicap::by_name("香落ち").unwrap().position(),
        handicap: Handicap::by_name("香落ち"),
    };
    put("kyo.kif", &game(kyo, &["3c3d", "7g7f"], ME[0], "相手E"));
    let idx = dir.path().join("idx");
    index(&coll, &idx);
    let rep = dir.path().join("rep.kif");
    std::fs::write(
        &rep,
        collgen::bytes(
            &repertoire_record(&[
                usi_line("7g7f 3c3d 2g2f 8c8d 2f2e"),
                usi_line("2g2f 3c3d"),
                usi_line("7g7f 3c3d 6g6f"),
            ]),
            Format::Kif,
            false,
        ),
    )
    .unwrap();
    let check = |rep: &Path| {
        let out = run(
            &[
                "repertoire",
                "check",
                rep.to_str().unwrap(),
                "--player",
                "藤井聡太",
                "--json",
                "--min-games",
                "1",
            ],
            &idx,
        );
        let lines = json_lines(&out);
        let by_file: BTreeMap<String, Value> = lines
            .iter()
            .filter(|l| l["kind"] == "game")
            .map(|l| {
                let p = l["path"].as_str().unwrap();
                (p.rsplit('/').next().unwrap().to_string(), l.clone())
            })
            .collect();
        (by_file, lines)
    };
    let (g, lines) = check(&rep);
    // ▲2六歩△3四歩 leads off the tree's path at ▲7六歩 (the variation ends there) but reaches
    // the main line's position: the game follows the repertoire to its end.
    assert_eq!(g["transposed.kif"]["status"], "followed", "{g:?}");
    assert_eq!(g["transposed.kif"]["transposed_ply"], 3);
    assert_eq!(g["left.kif"]["status"], "left");
    assert_eq!(g["left.kif"]["by"], "opponent");
    assert_eq!(g["left.kif"]["ply"], 2);
    assert_eq!(g["left.kif"]["played"]["ja"], "△８四歩");
    assert_eq!(
        g["left.kif"]["expected"],
        json!([{"usi": "3c3d", "ja": "△３四歩"}])
    );
    assert_eq!(g["mine.kif"]["by"], "player");
    assert_eq!(g["mine.kif"]["color"], "gote");
    assert_eq!(g["mine.kif"]["played"]["usi"], "4c4d");
    assert_eq!(g["kyo.kif"]["status"], "outside");
    let replies: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "reply").collect();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert_eq!(replies[0]["reply"]["usi"], "8c8d");
    assert_eq!(replies[0]["games"], 2);
    assert_eq!(replies[0]["line"], "▲７六歩");

    // The same repertoire as a YaneuraOu book: the same answers.
    let mut book = String::from("#YANEURAOU-DB2016 1.00\n");
    let mut by_pos: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in ["7g7f 3c3d 2g2f 8c8d 2f2e", "2g2f 3c3d", "7g7f 3c3d 6g6f"] {
        let mut pos = Position::startpos();
        for m in usi_line(line) {
            by_pos.entry(placement(&pos)).or_default().insert(m.usi());
            pos.play(m).unwrap();
        }
    }
    for (k, moves) in &by_pos {
        book.push_str(&format!("sfen {k} 1\n"));
        for m in moves {
            book.push_str(&format!("{m} none 0 0 1\n"));
        }
    }
    let db = dir.path().join("rep.db");
    std::fs::write(&db, book).unwrap();
    let (b, _) = check(&db);
    for f in ["left.kif", "left2.kif", "mine.kif", "kyo.kif"] {
        assert_eq!(b[f], g[f], "{f}");
    }
    // The book stores no position after the last moves of its lines: the repertoire ends there.
    assert_eq!(b["transposed.kif"]["transposed_ply"], 3);

    // A book is looked up in place, whatever the limit on a record file's size (books run to
    // gigabytes): here the limit is below the book's size.
    let size = std::fs::metadata(&db).unwrap().len();
    assert!(size > 512, "{size}");
    let out = kifview()
        .args([
            "repertoire",
            "check",
            db.to_str().unwrap(),
            "--player",
            "藤井聡太",
            "--json",
        ])
        .arg("--index")
        .arg(&idx)
        .env("KIFVIEW_MAX_FILE", "512")
        .env("KIFVIEW_CONFIG", idx.with_extension("empty.toml"))
        .output()
        .unwrap();
    let limited: Vec<Value> = json_lines(&out)
        .into_iter()
        .filter(|l| l["kind"] == "game")
        .collect();
    assert_eq!(limited.len(), b.len());
}

#[test]
fn whose_games_must_be_said() {
    let dir = tempfile::tempdir().unwrap();
    let idx = dir.path().join("idx");
    let rep = dir.path().join("rep.kif");
    std::fs::write(
        &rep,
        collgen::bytes(&repertoire_record(&[usi_line("7g7f")]), Format::Kif, false),
    )
    .unwrap();
    let out = run(&["repertoire", "check", rep.to_str().unwrap()], &idx);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr_of(&out).contains("--player NAME"),
        "{}",
        common::stderr_of(&out)
    );
    let out = run(&["repertoire", "check", rep.to_str().unwrap(), "me"], &idx);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr_of(&out).contains("who is me"),
        "{}",
        common::stderr_of(&out)
    );
}
