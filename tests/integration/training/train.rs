//! `kifview train add`, `remove` and `stats` on the history in `KIFVIEW_DATA_DIR`, with a fake
//! clock (`--now`): the JSON keys of the issue, due counts after days, a wrong answer back
//! sooner, two processes writing at once.

use crate::common::stderr_of;
use assert_cmd::Command;
use kifview::training::history::{Attempt, History, parse_now};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A set ShogiHome's tests wrote (collection.spec.ts), with a second problem.
fn write_set(dir: &Path, name: &str) -> PathBuf {
    let v = serde_json::json!({
        "format": "shogihome-next-move",
        "version": 1,
        "problems": [
            {
                "sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "candidates": [{ "usi": "2g2f", "score": 50, "accepted": true }],
                "actualMove": { "usi": "9g9f", "score": -100 }
            },
            {
                "sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1",
                "candidates": [{ "usi": "8c8d", "score": -20, "accepted": true }],
                "actualMove": { "usi": "9c9d", "score": 100 }
            }
        ]
    });
    let p = dir.join(name);
    std::fs::write(&p, v.to_string()).unwrap();
    p
}

fn train(data: &Path) -> Command {
    let mut c = Command::cargo_bin("kifview").unwrap();
    // Days in UTC, whatever the machine's zone.
    c.env("KIFVIEW_DATA_DIR", data)
        .env("TZ", "UTC")
        .arg("train");
    c
}

fn stats(data: &Path, now: &str) -> Value {
    let o = train(data)
        .args(["stats", "--json", "--now", now])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

#[test]
fn stats_json_has_the_issues_keys_and_counts_due_after_days() {
    let d = tempfile::tempdir().unwrap();
    let data = d.path().join("data");
    let set = write_set(d.path(), "set.json");
    let o = train(&data)
        .args(["add", "--now", "2026-12-01T09:00:00Z"])
        .arg(&set)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("2 problem(s), 2 new to the history"));

    let v = stats(&data, "2026-12-01T09:00:00Z");
    // The issue's keys, and beside them the average time, the tags and the series.
    assert_eq!(
        keys(&v),
        [
            "attempts",
            "avg_time_ms",
            "correct",
            "due",
            "new",
            "series",
            "sources",
            "tags"
        ]
    );
    assert_eq!(
        keys(&v["sources"][0]),
        ["attempts", "avg_time_ms", "correct", "due", "new", "source"]
    );
    assert_eq!(
        (v["attempts"].as_u64(), v["new"].as_u64()),
        (Some(0), Some(2))
    );
    let source = std::fs::canonicalize(&set).unwrap().display().to_string();
    assert_eq!(v["sources"][0]["source"], source);

    // Answers given (as the solve mode gives them): the first right, the second wrong.
    let key = |i: usize| {
        kifview::training::ProblemSet::from_json(&std::fs::read_to_string(&set).unwrap())
            .unwrap()
            .problems[i]
            .key()
    };
    let mut h = History::open(&data.join("training.sqlite")).unwrap();
    let t0 = parse_now("2026-12-01T09:00:00Z").unwrap();
    let answer = |correct| Attempt {
        at: t0,
        correct,
        millis: 3_000,
        answer: None,
    };
    let right = h
        .record(&source, "next-move", &key(0), &answer(true))
        .unwrap();
    let wrong = h
        .record(&source, "next-move", &key(1), &answer(false))
        .unwrap();
    assert!(
        wrong < right,
        "a wrong answer comes back sooner: {wrong} vs {right}"
    );
    drop(h);

    let v = stats(&data, "2026-12-01T09:00:30Z");
    assert_eq!(
        v,
        serde_json::json!({"attempts": 2, "correct": 1, "due": 0, "new": 0,
            "sources": [{"source": source, "attempts": 2, "correct": 1, "due": 0, "new": 0,
                "avg_time_ms": 3000}],
            "avg_time_ms": 3000, "tags": [],
            "series": [{"date": "2026-12-01", "attempts": 2, "correct": 1}]})
    );
    // Five minutes on, neither is asked again; a day on, the wrong one is; four days on
    // (a right first answer waits about three), both are.
    assert_eq!(stats(&data, "2026-12-01T09:05:00Z")["due"], 0);
    assert_eq!(stats(&data, "2026-12-02T09:00:00Z")["due"], 1);
    assert_eq!(stats(&data, "2026-12-05T09:00:00Z")["due"], 2);

    // The table says the same.
    let o = train(&data)
        .args(["stats", "--now", "2026-12-05T09:00:00Z"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("due: 2, new: 0"), "{text}");
    assert!(text.contains("50%") && text.contains("3.0 s"), "{text}");

    // Suspended: not due; back: due again. A number the set does not hold is refused.
    let o = train(&data)
        .arg("suspend")
        .arg(&set)
        .arg("2")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert_eq!(stats(&data, "2026-12-05T09:00:00Z")["due"], 1);
    let o = train(&data)
        .arg("suspend")
        .arg(&set)
        .args(["2", "--resume"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert_eq!(stats(&data, "2026-12-05T09:00:00Z")["due"], 2);
    let o = train(&data)
        .arg("suspend")
        .arg(&set)
        .arg("3")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr_of(&o).contains("no problem 3 (the set holds 2)"));

    // Removed: out of the counts.
    let o = train(&data).arg("remove").arg(&set).output().unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert_eq!(stats(&data, "2026-12-05T09:00:00Z")["due"], 0);
}

#[test]
fn two_processes_adding_at_once_both_land() {
    let d = tempfile::tempdir().unwrap();
    let data = d.path().join("data");
    let sets: Vec<PathBuf> = (0..6)
        .map(|i| write_set(d.path(), &format!("set{i}.json")))
        .collect();
    let spawn = |sets: &[PathBuf]| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("kifview"))
            .env("KIFVIEW_DATA_DIR", &data)
            .arg("train")
            .arg("add")
            .args(sets)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let a = spawn(&sets[..3]);
    let b = spawn(&sets[3..]);
    for c in [a, b] {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let v = stats(&data, "2026-12-01T09:00:00Z");
    assert_eq!(v["sources"].as_array().unwrap().len(), 6);
    assert_eq!(v["new"], 12);
    let h = History::open(&data.join("training.sqlite")).unwrap();
    assert_eq!(h.integrity().unwrap(), "ok");
}

#[test]
fn a_file_that_is_not_a_set_is_named_and_nothing_added() {
    let d = tempfile::tempdir().unwrap();
    let data = d.path().join("data");
    let bad = d.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"format":"shogihome-next-move","version":2,"problems":[]}"#,
    )
    .unwrap();
    let o = train(&data).arg("add").arg(&bad).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr_of(&o);
    assert!(err.contains("bad.json: unsupported version: 2"), "{err}");
    assert_eq!(stats(&data, "2026-12-01")["sources"], serde_json::json!([]));
    let o = train(&data)
        .args(["stats", "--now", "someday"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// A game whose header names its strategy, and a set with a problem from its third move.
fn write_tagged_set(dir: &Path) -> PathBuf {
    let game = dir.join("game.kif");
    std::fs::write(
        &game,
        "戦型：四間飛車\n先手：A\n後手：B\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ６六歩(67)\n",
    )
    .unwrap();
    let v = serde_json::json!({
        "format": "shogihome-next-move",
        "version": 1,
        "problems": [{
            "sfen": "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1",
            "candidates": [{ "usi": "6g6f", "score": 50, "accepted": true }],
            "actualMove": { "usi": "9g9f", "score": -300 },
            "source": { "path": game.display().to_string(), "ply": 3 }
        }]
    });
    let p = dir.join("tagged.json");
    std::fs::write(&p, v.to_string()).unwrap();
    p
}

#[test]
fn stats_count_per_strategy_and_phase_and_chart_the_rate_over_two_days() {
    let d = tempfile::tempdir().unwrap();
    let data = d.path().join("data");
    let set = write_tagged_set(d.path());
    let o = train(&data)
        .args(["add", "--now", "2026-12-01T09:00:00Z"])
        .arg(&set)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    let source = std::fs::canonicalize(&set).unwrap().display().to_string();
    let key = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -";
    // Day one: wrong, then right; day two: right.
    let mut h = History::open(&data.join("training.sqlite")).unwrap();
    for (at, correct, millis) in [
        ("2026-12-01T09:00:00Z", false, 20_000),
        ("2026-12-01T09:10:00Z", true, 10_000),
        ("2026-12-02T09:00:00Z", true, 6_000),
    ] {
        let a = Attempt {
            at: parse_now(at).unwrap(),
            correct,
            millis,
            answer: None,
        };
        h.record(&source, "next-move", key, &a).unwrap();
    }
    drop(h);

    let v = stats(&data, "2026-12-02T12:00:00Z");
    assert_eq!(v["avg_time_ms"], 12_000);
    let tag = |name: &str| {
        v["tags"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["tag"] == name)
            .unwrap_or_else(|| panic!("no tag {name} in {}", v["tags"]))
            .clone()
    };
    assert_eq!(
        tag("四間飛車"),
        serde_json::json!({"family": "strategy", "tag": "四間飛車", "attempts": 3,
            "correct": 2, "due": 0, "new": 0, "avg_time_ms": 12000})
    );
    assert_eq!(tag("序盤")["family"], "phase");
    assert_eq!(tag("序盤")["attempts"], 3);
    assert_eq!(
        v["series"],
        serde_json::json!([{"date": "2026-12-01", "attempts": 2, "correct": 1},
            {"date": "2026-12-02", "attempts": 1, "correct": 1}])
    );

    // The table per tag and the chart, as wide as COLUMNS says.
    let o = train(&data)
        .env("COLUMNS", "50")
        .args(["stats", "--now", "2026-12-02T12:00:00Z"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", stderr_of(&o));
    let line = |start: &str| {
        text.lines()
            .find(|l| l.contains(start))
            .unwrap_or_else(|| panic!("no line {start:?} in\n{text}"))
            .to_string()
    };
    assert!(line("strategy (戦型)").contains("attempts"), "{text}");
    assert_eq!(
        line("四間飛車"),
        "       3        2   67%    12.0 s     0     0  四間飛車"
    );
    assert!(line("phase (").contains("序盤 ≤30手, 中盤 31–80手, 終盤 81手–"));
    assert!(text.contains("success rate (by day):"), "{text}");
    assert!(text.contains("100% │ █\n"), "{text}");
    assert!(text.contains("  0% │██\n"), "{text}");
    assert!(text.contains("2026-12-01 – 2026-12-02"), "{text}");
}
