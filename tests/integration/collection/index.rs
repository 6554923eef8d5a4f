//! `kifview index`, `find`, `explore` and `games` on a generated collection that mixes every
//! format, nested folders, a multi-record CSA file, Shift_JIS and UTF-8, checked against an
//! independent count: each game replayed with the rules here, its positions collected by SFEN.

#[path = "../../../benches/support/collgen.rs"]
pub(super) mod collgen;

use assert_cmd::Command;
use collgen::Rng;
use kifview::core::notation::{Format, usi};
use kifview::core::record::{Record, Special, Step};
use kifview::core::rules::{Color, Position};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::common;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

/// A game as written: where, which record, and the record itself.
struct Written {
    path: String,
    record: u32,
    rec: Record,
}

/// SFEN without the move number.
fn placement(p: &Position) -> String {
    let s = p.to_sfen();
    s.rsplit_once(' ').expect("four fields").0.to_string()
}

/// The result for sente, from the ending and whose move it was (the table).
pub(super) fn result_of(r: &Record) -> &'static str {
    let line = r.main_line();
    let last = *line.last().unwrap();
    let Step::Special(s) = &r.node(last).step else {
        return "unknown";
    };
    let moves = line.len() - 2;
    let to_move = if moves.is_multiple_of(2) {
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

/// What the index should answer for a position: per game (path, record) its first ply, the
/// move played there and the result.
type Oracle = HashMap<String, BTreeMap<(String, u32), (u32, Option<String>, &'static str)>>;

fn oracle(games: &[Written]) -> Oracle {
    let mut o: Oracle = HashMap::new();
    for g in games {
        let r = &g.rec;
        let mut pos = r.initial.position.clone();
        let moves: Vec<_> = r
            .main_line()
            .into_iter()
            .filter_map(|id| r.node(id).move_data().copied())
            .collect();
        for ply in 0..=moves.len() {
            let entry = o.entry(placement(&pos)).or_default();
            entry.entry((g.path.clone(), g.record)).or_insert((
                ply as u32,
                moves.get(ply).map(|m| m.mv.usi()),
                result_of(r),
            ));
            if let Some(m) = moves.get(ply) {
                pos.play(m.mv).expect("generated games are legal");
            }
        }
    }
    o
}

fn from_usi(text: &str) -> Record {
    usi::read(text).expect("USI").record
}

/// Writes the collection under `root`; returns every game written.
fn write_collection(root: &Path, rng: &mut Rng) -> Vec<Written> {
    let mut out = Vec::new();
    let mut put = |rel: &str, bytes: Vec<u8>, recs: Vec<Record>| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        let path = std::fs::canonicalize(&p)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for (i, rec) in recs.into_iter().enumerate() {
            out.push(Written {
                path: path.clone(),
                record: i as u32 + 1,
                rec,
            });
        }
    };
    // Two move orders to one position (a transposition), one with a 戦型 header.
    let mut a = from_usi("position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e");
    a.header.set("先手", "転置 一号");
    a.header.set("後手", "相手");
    a.header.set("戦型", "矢倉");
    a.header.set("開始日時", "2001/02/03");
    let mut b = from_usi("position startpos moves 2g2f 8c8d 7g7f 3c3d 6i7h");
    b.header.set("先手", "転置 二号");
    b.header.set("後手", "相手");
    put(
        "kif/transposed-a.kif",
        collgen::bytes(&a, Format::Kif, true),
        vec![a],
    );
    put(
        "ki2/transposed-b.ki2u",
        collgen::bytes(&b, Format::Ki2, false),
        vec![b],
    );
    let formats: [(&str, Format, bool); 6] = [
        ("kif/g{}.kif", Format::Kif, true),
        ("kif/deep/er/g{}.kifu", Format::Kif, false),
        ("ki2/g{}.ki2", Format::Ki2, true),
        ("csa/g{}.csa", Format::Csa, false),
        ("jkf/g{}.jkf", Format::Jkf, false),
        ("ki2/u/g{}.ki2u", Format::Ki2, false),
    ];
    for i in 0..24 {
        let (pat, f, sjis) = formats[i % formats.len()];
        let g = collgen::game(rng, 12);
        put(
            &pat.replace("{}", &i.to_string()),
            collgen::bytes(&g, f, sjis),
            vec![g],
        );
    }
    let multi: Vec<Record> = (0..4).map(|_| collgen::game(rng, 12)).collect();
    put("csa/multi.csa", collgen::multi_csa(&multi), multi);
    out
}

pub(super) fn index(coll: &Path, idx: &Path) -> String {
    let out = kifview()
        .args(["index"])
        .arg(coll)
        .arg("--index")
        .arg(idx)
        .output()
        .unwrap();
    let err = common::stderr_of(&out);
    assert!(out.status.success(), "{err}");
    err
}

pub(super) fn json_lines(out: &std::process::Output) -> Vec<Value> {
    assert!(out.status.success(), "{}", common::stderr_of(out));
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

fn find(idx: &Path, sfen: &str, extra: &[&str]) -> BTreeMap<(String, u32), (u32, String)> {
    let out = kifview()
        .args(["find", "--json", "--sfen", sfen, "--index"])
        .arg(idx)
        .args(extra)
        .output()
        .unwrap();
    json_lines(&out)
        .into_iter()
        .map(|v| {
            (
                (
                    v["path"].as_str().unwrap().to_string(),
                    v["record"].as_u64().unwrap() as u32,
                ),
                (
                    v["ply"].as_u64().unwrap() as u32,
                    v["result"].as_str().unwrap().to_string(),
                ),
            )
        })
        .collect()
}

/// The oracle's answer for `find`, restricted to the games `keep` accepts.
fn expected_find(
    o: &Oracle,
    key: &str,
    keep: &dyn Fn(&(String, u32)) -> bool,
) -> BTreeMap<(String, u32), (u32, String)> {
    o.get(key)
        .into_iter()
        .flatten()
        .filter(|(k, _)| keep(k))
        .map(|(k, (ply, _, res))| (k.clone(), (*ply, res.to_string())))
        .collect()
}

fn expected_explore(o: &Oracle, key: &str) -> Value {
    let mut total = BTreeMap::<&str, u64>::new();
    let mut moves = BTreeMap::<String, BTreeMap<&str, u64>>::new();
    for (ply_move, res) in o
        .get(key)
        .into_iter()
        .flatten()
        .map(|(_, (_, m, r))| (m, *r))
    {
        *total.entry(res).or_default() += 1;
        if let Some(m) = ply_move {
            *moves.entry(m.clone()).or_default().entry(res).or_default() += 1;
        }
    }
    let n = |m: &BTreeMap<&str, u64>, k: &str| m.get(k).copied().unwrap_or(0);
    let mut list: Vec<Value> = moves
        .iter()
        .map(|(usi, m)| {
            serde_json::json!({"usi": usi, "games": m.values().sum::<u64>(), "sente": n(m, "sente"),
                "gote": n(m, "gote"), "draw": n(m, "draw"), "unknown": n(m, "unknown")})
        })
        .collect();
    list.sort_by(|a, b| {
        b["games"]
            .as_u64()
            .cmp(&a["games"].as_u64())
            .then(a["usi"].as_str().cmp(&b["usi"].as_str()))
    });
    serde_json::json!({"games": total.values().sum::<u64>(), "sente": n(&total, "sente"),
        "gote": n(&total, "gote"), "draw": n(&total, "draw"), "unknown": n(&total, "unknown"),
        "moves": list})
}

/// Positions worth asking about: the start, some along several games, the last of a few.
fn probes(games: &[Written]) -> Vec<String> {
    let mut v = BTreeSet::new();
    v.insert(placement(&Position::startpos()));
    for (i, g) in games.iter().enumerate().step_by(3) {
        let line = g.rec.main_line();
        for ply in [2, 5, 9, 14, 30, line.len() - 2] {
            if let Some(&id) = line.get(ply.min(line.len() - 1)) {
                let id = if g.rec.node(id).special().is_some() {
                    line[line.len() - 2]
                } else {
                    id
                };
                v.insert(placement(&g.rec.position_at(id)));
            }
        }
        if i > 18 {
            break;
        }
    }
    v.into_iter().collect()
}

fn check_against(idx: &Path, games: &[Written]) {
    let o = oracle(games);
    for key in probes(games) {
        let sfen = format!("{key} 1");
        let got = find(idx, &sfen, &[]);
        assert_eq!(got, expected_find(&o, &key, &|_| true), "find {sfen}");
        let out = kifview()
            .args(["explore", "--json", "--sfen", &sfen, "--index"])
            .arg(idx)
            .output()
            .unwrap();
        let mut v = json_lines(&out);
        assert_eq!(v.len(), 1);
        // Each move's Japanese names the side to move (its text is the KI2 writer's, tested
        // with it); the numbers are checked against the oracle without it.
        let mark = if key.split(' ').nth(1) == Some("b") {
            '▲'
        } else {
            '△'
        };
        for m in v[0]["moves"].as_array_mut().unwrap() {
            let ja = m.as_object_mut().unwrap().remove("ja").expect("ja");
            assert!(ja.as_str().unwrap().starts_with(mark), "{ja} at {sfen}");
        }
        assert_eq!(v[0], expected_explore(&o, &key), "explore {sfen}");
    }
}

/// Each filter, against the oracle restricted by the written headers.
fn check_filters(idx: &Path, coll: &Path, games: &[Written]) {
    let o = oracle(games);
    // The tags are the tagger's (tested on its own): `--tag` must select the games it tagged.
    let out = kifview()
        .args(["games", "--json", "--index"])
        .arg(idx)
        .output()
        .unwrap();
    let tagged: HashMap<(String, u32), Vec<String>> = json_lines(&out)
        .into_iter()
        .map(|v| {
            let k = (
                v["path"].as_str().unwrap().to_string(),
                v["record"].as_u64().unwrap() as u32,
            );
            let t = v["tags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string());
            (k, t.collect())
        })
        .collect();
    assert!(
        tagged
            .iter()
            .any(|(k, t)| k.0.ends_with("transposed-a.kif") && t.contains(&"矢倉".to_string()))
    );
    let start = placement(&Position::startpos());
    let sfen = format!("{start} 1");
    let header = |k: &(String, u32), key: &str| -> Option<String> {
        games
            .iter()
            .find(|g| g.path == k.0 && g.record == k.1)
            .and_then(|g| g.rec.header.get(key).map(String::from))
    };
    let someone = games[5].rec.header.get("先手").unwrap().to_string();
    type Keep<'a> = Box<dyn Fn(&(String, u32)) -> bool + 'a>;
    let cases: Vec<(Vec<String>, Keep)> = vec![
        (
            vec!["--player".into(), someone.clone()],
            Box::new(|k| {
                [header(k, "先手"), header(k, "後手")]
                    .iter()
                    .any(|n| n.as_deref().is_some_and(|n| n.contains(&someone)))
            }),
        ),
        (
            vec!["--gote".into(), "相手".into()],
            Box::new(|k| header(k, "後手").is_some_and(|n| n.contains("相手"))),
        ),
        (
            vec!["--result".into(), "sente".into()],
            Box::new(|k| o[&start][k].2 == "sente"),
        ),
        (
            vec![
                "--under".into(),
                coll.join("kif").to_string_lossy().into_owned(),
            ],
            Box::new(|k| k.0.contains("/coll/kif/")),
        ),
        (
            vec!["--event".into(), "竜王戦".into()],
            Box::new(|k| header(k, "棋戦").is_some_and(|e| e.contains("竜王戦"))),
        ),
        (
            vec![
                "--from".into(),
                "2012-03".into(),
                "--to".into(),
                "2016".into(),
            ],
            Box::new(|k| {
                header(k, "開始日時").is_some_and(|d| {
                    let d = d.replace('/', "-");
                    d[..7] >= *"2012-03" && d[..4] <= *"2016"
                })
            }),
        ),
        (
            vec!["--tag".into(), "矢倉".into()],
            Box::new(|k| {
                tagged
                    .get(k)
                    .is_some_and(|t| t.contains(&"矢倉".to_string()))
            }),
        ),
    ];
    for (args, keep) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let want = expected_find(&o, &start, keep.as_ref());
        assert!(!want.is_empty(), "{args:?} selects nothing: a weak test");
        assert_eq!(find(idx, &sfen, &args), want, "{args:?}");
    }
}

#[test]
fn find_and_explore_agree_with_replaying_every_game_and_follow_updates() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    let idx = dir.path().join("idx");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut games = write_collection(&coll, &mut rng);
    assert_eq!(games.len(), 30);
    let err = index(&coll, &idx);
    assert!(err.contains("30 games (30 added, 0 removed)"), "{err}");
    check_against(&idx, &games);

    // The transposition: both orders reach the position after 4 plies.
    let after4 = placement(&games[0].rec.position_at(games[0].rec.main_line()[4]));
    let t = find(&idx, &format!("{after4} 1"), &[]);
    let names: Vec<&str> = t
        .keys()
        .map(|(p, _)| p.rsplit('/').next().unwrap())
        .collect();
    assert!(
        names.contains(&"transposed-a.kif") && names.contains(&"transposed-b.ki2u"),
        "{t:?}"
    );
    assert!(t.values().all(|(ply, _)| *ply == 4), "{t:?}");

    // A position no game reaches.
    let nowhere = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
    assert!(find(&idx, nowhere, &[]).is_empty());

    check_filters(&idx, &coll, &games);

    // games: the whole catalog with its keys.
    let out = kifview()
        .args(["games", "--json", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 30);
    let a = rows
        .iter()
        .find(|r| r["path"].as_str().unwrap().ends_with("transposed-a.kif"))
        .unwrap();
    assert_eq!(a["sente"], "転置 一号");
    assert_eq!(a["date"], "2001-02-03");
    assert_eq!(a["moves"], 5);
    assert_eq!(a["handicap"], "平手");
    assert_eq!(a["result"], "unknown");
    // The header's 戦型 wins: its tag is there (with what it implies).
    assert!(
        a["tags"].as_array().unwrap().contains(&"矢倉".into()),
        "{a}"
    );
    let multi: Vec<_> = rows
        .iter()
        .filter(|r| r["path"].as_str().unwrap().ends_with("multi.csa"))
        .collect();
    assert_eq!(
        multi
            .iter()
            .map(|r| r["record"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );

    // An update: one file deleted, one rewritten with another game, one added.
    let gone = games
        .iter()
        .position(|g| g.path.ends_with("/g0.kif"))
        .unwrap();
    std::fs::remove_file(&games[gone].path).unwrap();
    let gone_path = games.remove(gone).path;
    let rewritten = games
        .iter()
        .position(|g| g.path.ends_with("/g3.csa"))
        .unwrap();
    let fresh = collgen::game(&mut rng, 12);
    std::fs::write(
        &games[rewritten].path,
        collgen::bytes(&fresh, Format::Csa, false),
    )
    .unwrap();
    games[rewritten].rec = fresh;
    let added = coll.join("new/more/x.kifu");
    std::fs::create_dir_all(added.parent().unwrap()).unwrap();
    let extra = collgen::game(&mut rng, 12);
    std::fs::write(&added, collgen::bytes(&extra, Format::Kif, false)).unwrap();
    games.push(Written {
        path: std::fs::canonicalize(&added)
            .unwrap()
            .to_string_lossy()
            .into_owned(),
        record: 1,
        rec: extra,
    });
    let err = index(&coll, &idx);
    assert!(err.contains("30 games (2 added, 2 removed)"), "{err}");
    assert!(err.contains("2 read, 25 unchanged, 1 removed"), "{err}");
    check_against(&idx, &games);
    let sfen = format!("{} 1", placement(&Position::startpos()));
    assert!(!find(&idx, &sfen, &[]).keys().any(|(p, _)| *p == gone_path));

    // Nothing changed: nothing read.
    let err = index(&coll, &idx);
    assert!(err.contains("0 read, 27 unchanged"), "{err}");
}

#[test]
fn bad_positions_missing_and_damaged_indexes_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    let idx = dir.path().join("idx");
    let mut rng = Rng(7);
    let games = write_collection(&coll, &mut rng);
    // No index yet.
    let out = kifview()
        .args(["find", "--position", "startpos", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stderr_of(&out).contains("no index there"),
        "{}",
        common::stderr_of(&out)
    );
    index(&coll, &idx);
    for (flag, text) in [
        ("--position", "startpos moves 7g7x"),
        ("--position", "startpos moves 7g7f 7g7f"),
        ("--sfen", "not a position"),
    ] {
        let out = kifview()
            .args(["explore", flag, text, "--index"])
            .arg(&idx)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} {text}");
        assert!(
            common::stderr_of(&out).contains(flag),
            "{}",
            common::stderr_of(&out)
        );
    }
    // --position and --file give the same answers as --sfen.
    let by_usi = kifview()
        .args([
            "find",
            "--json",
            "--position",
            "startpos moves 2g2f 8c8d 7g7f 3c3d",
            "--index",
        ])
        .arg(&idx)
        .output()
        .unwrap();
    let by_file = kifview()
        .args([
            "find",
            "--json",
            "--ply",
            "4",
            "--file",
            &games[1].path,
            "--index",
        ])
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(json_lines(&by_usi), json_lines(&by_file));
    assert_eq!(json_lines(&by_usi).len(), 2);
    // A collection folder that vanished.
    let out = kifview()
        .args(["index"])
        .arg(dir.path().join("gone"))
        .arg("--index")
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stderr_of(&out).contains("gone"),
        "{}",
        common::stderr_of(&out)
    );
    // A damaged segment: queries refuse it, `index` rebuilds it.
    let pos = idx.join("pos-1.bin");
    let len = std::fs::metadata(&pos).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&pos)
        .unwrap()
        .set_len(len - 5)
        .unwrap();
    let out = kifview()
        .args(["find", "--position", "startpos", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stderr_of(&out).contains("damaged"),
        "{}",
        common::stderr_of(&out)
    );
    let err = index(&coll, &idx);
    assert!(
        err.contains("repaired") && err.contains("30 added"),
        "{err}"
    );
    let out = kifview()
        .args(["find", "--json", "--position", "startpos", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(json_lines(&out).len(), 30);
    // An index of another version.
    let db = rusqlite::Connection::open(idx.join("catalog.sqlite")).unwrap();
    // The catalog is one plain file (no WAL, whose -shm file a read-only place cannot hold).
    let mode: String = db
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");
    db.execute(
        "UPDATE meta SET value = 'kifview-collection-0' WHERE key = 'format'",
        [],
    )
    .unwrap();
    drop(db);
    let out = kifview()
        .args(["games", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stderr_of(&out).contains("another version"),
        "{}",
        common::stderr_of(&out)
    );
    let err = index(&coll, &idx);
    assert!(err.contains("rebuilt"), "{err}");
}

#[test]
fn a_damaged_file_is_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    let idx = dir.path().join("idx");
    write_collection(&coll, &mut Rng(3));
    std::fs::write(coll.join("kif/broken.kif"), b"\x7fELF\0\0\0binary").unwrap();
    let out = kifview()
        .arg("index")
        .arg(&coll)
        .arg("--index")
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = common::stderr_of(&out);
    assert!(
        err.contains("broken.kif: not a record") && err.contains("30 games"),
        "{err}"
    );
}

#[test]
fn the_real_corpus_indexes_without_a_failure_and_reports_its_warnings() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = kifview()
        .arg("index")
        .arg(corpus.join("real"))
        .arg("--index")
        .arg(dir.path())
        .output()
        .unwrap();
    let err = common::stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(" 0 skipped"), "{err}");
    // Every file's warnings, as `kifview check` reports them, are in the report.
    let mut files = Vec::new();
    common::files_with_ext(
        &corpus.join("real"),
        &["kif", "kifu", "ki2", "ki2u", "csa", "jkf"],
        &mut files,
    );
    let mut warned = 0;
    for f in &files {
        let c = kifview().arg("check").arg(f).output().unwrap();
        for line in String::from_utf8_lossy(&c.stdout)
            .lines()
            .filter(|l| l.contains(": "))
        {
            let rest = line.split_once(": ").map_or(line, |(_, r)| r);
            assert!(err.contains(rest), "{line} missing from\n{err}");
            warned += 1;
        }
    }
    assert!(warned > 0, "the corpus has warnings to report");
}

#[test]
fn variations_are_indexed_when_asked_and_the_table_opens_at_the_position() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    let kif = "手合割：平手\n先手：甲\n後手：乙\n手数----指手---------消費時間--\n\
               1 ７六歩(77)\n2 ３四歩(33)+\n3 投了\n\n変化：2手\n2 ８四歩(83)\n3 ２六歩(27)\n";
    std::fs::write(coll.join("v.kifu"), kif).unwrap();
    // After 7g7f 8c8d 2g2f: only the variation gets there.
    let varpos = "lnsgkgsnl/1r5b1/p1ppppppp/1p7/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4";
    let idx = dir.path().join("idx");
    index(&coll, &idx);
    assert!(find(&idx, varpos, &[]).is_empty());
    let out = kifview()
        .arg("index")
        .arg(&coll)
        .arg("--variations")
        .arg("--index")
        .arg(&idx)
        .output()
        .unwrap();
    let err = common::stderr_of(&out);
    assert!(
        out.status.success() && err.contains("rebuilt") && err.contains("--variations"),
        "{err}"
    );
    let got = find(&idx, varpos, &[]);
    assert_eq!(
        got.values().map(|v| v.0).collect::<Vec<_>>(),
        [3],
        "{got:?}"
    );
    // The table a person reads: the game, and the line that opens the file there.
    let out = kifview()
        .args(["find", "--position", "startpos moves 7g7f", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let path = std::fs::canonicalize(coll.join("v.kifu")).unwrap();
    assert!(text.contains("甲 - 乙"), "{text}");
    assert!(
        text.contains(&format!("  {} +1\n", path.display())),
        "{text}"
    );
    assert!(text.ends_with("1 game(s)\n"), "{text}");
    // explore counts the game once, with the main line's next move.
    let out = kifview()
        .args([
            "explore",
            "--json",
            "--position",
            "startpos moves 7g7f",
            "--index",
        ])
        .arg(&idx)
        .output()
        .unwrap();
    let v = &json_lines(&out)[0];
    assert_eq!(v["games"], 1);
    assert_eq!(v["moves"][0]["usi"], "3c3d");
}

#[test]
fn names_a_terminal_would_act_on_come_out_escaped_in_json_and_cleaned_in_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    // One game a name: DEL, a C1 control (CSI), a bidirectional override, an escape
    // sequence (and a harmless U+2015 beside it).
    let names = ["甲\u{7f}前", "乙\u{9b}31m", "丙\u{202e}逆", "丁\u{1b}[2J―"];
    for (i, n) in names.iter().enumerate() {
        let kif = format!(
            "手合割：平手\n先手：{n}\n後手：相手\n手数----指手---------消費時間--\n\
             1 ７六歩(77)\n2 投了\n"
        );
        std::fs::write(coll.join(format!("c{i}.kif")), kif).unwrap();
    }
    let idx = dir.path().join("idx");
    index(&coll, &idx);
    let acts = |s: &str| {
        s.chars().any(|c| {
            c.is_control() && c != '\n'
                || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        })
    };
    for cmd in ["find", "games"] {
        let mut c = kifview();
        c.args([cmd, "--json", "--index"]).arg(&idx);
        if cmd == "find" {
            c.args(["--position", "startpos"]);
        }
        let out = c.output().unwrap();
        let text = String::from_utf8(out.stdout.clone()).unwrap();
        assert!(!acts(&text), "{cmd}: {text:?}");
        let got: Vec<_> = json_lines(&out)
            .iter()
            .map(|v| v["sente"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(got, names, "{cmd}");
    }
    let out = kifview()
        .args(["find", "--position", "startpos", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success() && text.contains("4 game(s)"), "{text}");
    assert!(!acts(&text), "{text:?}");
}

/// Bytes of the position index: every `pos-N.bin` and `moves-N.bin`.
fn segment_bytes(idx: &Path) -> (u64, usize) {
    let mut bytes = 0;
    let mut files = 0;
    for e in std::fs::read_dir(idx).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".bin") && (name.starts_with("pos-") || name.starts_with("moves-")) {
            bytes += e.metadata().unwrap().len();
            files += 1;
        }
    }
    (bytes, files)
}

#[test]
fn forgotten_games_are_compacted_away_and_answers_stay_exact() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    let idx = dir.path().join("idx");
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut games = write_collection(&coll, &mut rng);
    index(&coll, &idx);
    let (full, _) = segment_bytes(&idx);

    // A small change: below a quarter forgotten, nothing merged (the old pairs are skipped).
    let first = games
        .iter()
        .position(|g| g.path.ends_with("/g1.kifu"))
        .unwrap();
    std::fs::remove_file(&games[first].path).unwrap();
    games.remove(first);
    let err = index(&coll, &idx);
    assert!(!err.contains("compacted"), "{err}");
    check_against(&idx, &games);

    // Most single-game files deleted, one rewritten: the segments merge into one of the
    // games left, smaller, and the answers are those of the files left.
    let mut deleted = 0;
    games.retain(|g| {
        let drop = g.path.contains("/g") && !g.path.ends_with("/g6.kif") && deleted < 12;
        if drop {
            std::fs::remove_file(&g.path).unwrap();
            deleted += 1;
        }
        !drop
    });
    let rewritten = games
        .iter()
        .position(|g| g.path.ends_with("/g6.kif"))
        .unwrap();
    let fresh = collgen::game(&mut rng, 12);
    std::fs::write(
        &games[rewritten].path,
        collgen::bytes(&fresh, Format::Kif, true),
    )
    .unwrap();
    games[rewritten].rec = fresh;
    let before_merge = std::fs::read(idx.join("games.bin")).unwrap();
    // An index opened before the merge (the viewer's explorer, open while the library
    // updates the index) follows it: the games' ids change, its answers do not.
    let early = kifview::collection::Index::open(&idx).unwrap();
    let err = index(&coll, &idx);
    assert!(err.contains("compacted ("), "{err}");
    let fresh = kifview::collection::Index::open(&idx).unwrap();
    let (start, all) = (Position::startpos(), kifview::collection::Filter::default());
    assert_eq!(
        early.explore(&start, &all).unwrap(),
        fresh.explore(&start, &all).unwrap()
    );
    let paths = |i: &kifview::collection::Index| -> Vec<(String, u32)> {
        let found = i.find(&start, &all).unwrap();
        found
            .into_iter()
            .map(|f| (f.game.path, f.game.record))
            .collect()
    };
    assert_eq!(paths(&early), paths(&fresh));
    assert_eq!(paths(&fresh).len(), games.len());
    drop((early, fresh));
    assert!(
        err.contains(&format!("{} games (1 added, 13 removed)", games.len())),
        "{err}"
    );
    let (after, files) = segment_bytes(&idx);
    assert_eq!(files, 2, "one segment left");
    assert!(after * 10 < full * 7, "{after} bytes after, {full} before");
    check_against(&idx, &games);
    // A games.bin behind the catalog (the one from before the merge, of the old ids: what a
    // crash between the catalog's commit and the file's rename left) is not read, nor is
    // one missing refused: the answers come from the catalog, as exact.
    let gb = idx.join("games.bin");
    std::fs::write(&gb, &before_merge).unwrap();
    check_against(&idx, &games);
    std::fs::remove_file(&gb).unwrap();
    check_against(&idx, &games);

    // Updates go on from the merged segment.
    let added = coll.join("later/y.csa");
    std::fs::create_dir_all(added.parent().unwrap()).unwrap();
    let extra = collgen::game(&mut rng, 12);
    std::fs::write(&added, collgen::bytes(&extra, Format::Csa, false)).unwrap();
    games.push(Written {
        path: std::fs::canonicalize(&added)
            .unwrap()
            .to_string_lossy()
            .into_owned(),
        record: 1,
        rec: extra,
    });
    index(&coll, &idx);
    check_against(&idx, &games);

    assert!(gb.is_file(), "the next update writes games.bin again");
}

#[test]
fn games_without_moves_and_handicap_games_at_their_first_position() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    let head = "先手：甲\n後手：乙\n手数----指手---------消費時間--\n";
    let files = [
        ("empty.kif", format!("手合割：平手\n{head}1 投了\n")),
        (
            "one.kif",
            format!("手合割：平手\n{head}1 ７六歩(77)\n2 投了\n"),
        ),
        ("lance.kif", format!("手合割：香落ち\n{head}1 ３四歩(33)\n")),
    ];
    for (name, text) in &files {
        std::fs::write(coll.join(name), text).unwrap();
    }
    let idx = dir.path().join("idx");
    index(&coll, &idx);
    let start = format!("{} 1", placement(&Position::startpos()));
    let got = find(&idx, &start, &[]);
    let names: Vec<(&str, u32)> = got
        .iter()
        .map(|((p, _), (ply, _))| (p.rsplit('/').next().unwrap(), *ply))
        .collect();
    assert_eq!(names, [("empty.kif", 0), ("one.kif", 0)]);
    let out = kifview()
        .args(["explore", "--json", "--sfen", &start, "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    let v = &json_lines(&out)[0];
    assert_eq!(
        (v["games"].as_u64(), v["gote"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["moves"][0]["usi"], "7g7f");
    assert_eq!(v["moves"][0]["games"], 1);
    // The handicap game at its own first position, ply 0, and its first move.
    let lance = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    let got = find(&idx, lance, &[]);
    assert_eq!(
        got.values().map(|v| v.0).collect::<Vec<_>>(),
        [0],
        "{got:?}"
    );
    let out = kifview()
        .args(["explore", "--json", "--sfen", lance, "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(json_lines(&out)[0]["moves"][0]["usi"], "3c3d");
}

#[test]
fn the_game_list_pages_sorted_and_typed_filters_and_queries_on_another_thread() {
    use kifview::collection::{Filter, Index, SortBy};
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    let idx_dir = dir.path().join("idx");
    let mut rng = Rng(0x1234_5678_9abc_def1);
    write_collection(&coll, &mut rng);
    index(&coll, &idx_dir);
    let idx = Index::open(&idx_dir).unwrap();
    let all = idx.games(&Filter::default()).unwrap();
    assert_eq!(idx.count(&Filter::default()).unwrap(), 30);
    // Pages of 7 sorted by moves, longest first (then index order, reversed), make the list.
    let mut want = all.clone();
    want.sort_by(|a, b| b.moves.cmp(&a.moves).then(b.id.cmp(&a.id)));
    let mut got = Vec::new();
    for page in 0..5 {
        got.extend(
            idx.page(&Filter::default(), SortBy::Moves, true, page * 7, 7)
                .unwrap(),
        );
    }
    assert_eq!(got, want);
    let by_path = |descending: bool| -> Vec<_> {
        let page = idx.page(&Filter::default(), SortBy::Path, descending, 0, 100);
        page.unwrap()
            .iter()
            .map(|g| (g.path.clone(), g.record))
            .collect()
    };
    let mut paths: Vec<_> = all.iter().map(|g| (g.path.clone(), g.record)).collect();
    paths.sort();
    assert_eq!(by_path(false), paths);
    // Descending, both keys turn: the last path first, its last record first.
    paths.reverse();
    assert_eq!(by_path(true), paths);
    // A typed filter selects what the CLI's options select.
    let typed = Filter::parse("転置 2001..2001").unwrap();
    let page = idx.page(&typed, SortBy::Date, false, 0, 100).unwrap();
    let out = kifview()
        .args([
            "games", "--json", "--player", "転置", "--from", "2001", "--to", "2001", "--index",
        ])
        .arg(&idx_dir)
        .output()
        .unwrap();
    let cli: Vec<String> = json_lines(&out)
        .iter()
        .map(|v| v["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(page.iter().map(|g| g.path.clone()).collect::<Vec<_>>(), cli);
    assert_eq!(cli.len(), 1, "{cli:?}");
    assert_eq!(idx.count(&typed).unwrap(), 1);
    // The index moves to another thread (the viewer queries off the key path).
    let start = Position::startpos();
    let here = idx.explore(&start, &Filter::default()).unwrap();
    let there = std::thread::spawn(move || idx.explore(&start, &Filter::default()).unwrap())
        .join()
        .unwrap();
    assert_eq!(here, there);
    assert_eq!(here.games, 30);
}

/// `kifview index` stopped for good after its second step committed (a test hook of debug
/// builds pauses it there; then SIGKILL), with a half-written segment left beside it.
fn index_killed_after_two_steps(coll: &Path, idx: &Path) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("kifview"))
        .args(["index"])
        .arg(coll)
        .arg("--index")
        .arg(idx)
        .env("KIFVIEW_TEST_BATCH", "4")
        .env("KIFVIEW_TEST_PAUSE_AFTER_STEP", "2")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = Vec::new();
    loop {
        let mut line = Vec::new();
        let n = err.read_until(b'\n', &mut line).unwrap();
        seen.extend_from_slice(&line);
        if line.windows(24).any(|w| w == b"test pause after step 2\n") {
            break;
        }
        assert!(
            n > 0,
            "the update ended without its pause: {}",
            String::from_utf8_lossy(&seen)
        );
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // What a kill in the middle of the next step leaves: its segment files, half-written.
    let next = (1..)
        .find(|n| !idx.join(format!("pos-{n}.bin")).exists())
        .unwrap();
    assert_eq!(next, 3, "one segment a step");
    std::fs::write(idx.join("pos-3.bin"), b"KVPOS\0 half").unwrap();
    std::fs::write(idx.join("moves-3.bin"), b"half a game").unwrap();
}

fn explore_start(idx: &Path) -> Value {
    let sfen = format!("{} 1", placement(&Position::startpos()));
    let out = kifview()
        .args(["explore", "--json", "--sfen", &sfen, "--index"])
        .arg(idx)
        .output()
        .unwrap();
    json_lines(&out).remove(0)
}

#[test]
fn an_update_killed_midway_leaves_a_readable_index_that_the_next_one_completes() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    let idx = dir.path().join("idx");
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    let games = write_collection(&coll, &mut rng);
    index_killed_after_two_steps(&coll, &idx);

    // Two steps of 1 and 2 batches of 4 files are in the index, each game with its positions.
    let out = kifview()
        .args(["games", "--json", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    let listed: BTreeSet<(String, u32)> = json_lines(&out)
        .into_iter()
        .map(|v| {
            let path = v["path"].as_str().unwrap().to_string();
            (path, v["record"].as_u64().unwrap() as u32)
        })
        .collect();
    let files: BTreeSet<&String> = listed.iter().map(|(p, _)| p).collect();
    assert_eq!(files.len(), 12, "{listed:?}");
    let committed: Vec<Written> = games
        .iter()
        .filter(|g| listed.contains(&(g.path.clone(), g.record)))
        .map(|g| Written {
            path: g.path.clone(),
            record: g.record,
            rec: g.rec.clone(),
        })
        .collect();
    assert_eq!(committed.len(), listed.len());
    // Read without a games.bin (the killed update removed it before its first commit, and
    // writes it only when it ends): the queries build its table from the catalog.
    assert!(!idx.join("games.bin").exists());
    check_against(&idx, &committed);

    // The next update reads only the rest, and ends where one not stopped does.
    let err = index(&coll, &idx);
    assert!(err.contains("12 unchanged"), "{err}");
    assert!(err.contains("30 games"), "{err}");
    assert!(idx.join("games.bin").is_file());
    check_against(&idx, &games);
    let whole = dir.path().join("whole");
    index(&coll, &whole);
    assert_eq!(explore_start(&idx), explore_start(&whole));
}
