//! `kifview match --timing FILE`: each move's allowed, charged and reported time and the
//! runner's gap between moves, read back by `scripts/match_timing.py`, which says who caused
//! each loss on time.

use super::match_cli::{config, kifview, records, run_match};
use crate::common::manifest;

#[test]
fn the_timing_log_has_every_engine_move_of_every_game_and_the_runners_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let out = dir.path().join("games");
    let log = dir.path().join("timing.jsonl");
    let log_arg = log.to_str().unwrap();
    let json = run_match(
        &cfg,
        &out,
        &[
            "--engine", "strong", "--engine", "silent", "--rounds", "1", "--tc", "1+0.1",
            "--margin", "200", "--timing", log_arg,
        ],
    );
    assert_eq!(json["errors"]["time"], 2, "{json}");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    let recs = records(&out);
    for (game, (name, r)) in lines[..2].iter().zip(&recs) {
        assert_eq!(game["file"].as_str(), Some(name.as_str()));
        assert_eq!(game["fault"], "time");
        assert_eq!(game["by"], "silent");
        let moves = game["moves"].as_array().unwrap();
        // Every engine turn: the record's moves and its last, lost, turn (the ending's node).
        assert_eq!(moves.len(), r.main_line().len() - 1, "{name}: {game}");
        for (i, m) in moves.iter().enumerate() {
            let allowed = m[2].as_f64().unwrap();
            let charged = m[3].as_f64().unwrap();
            assert_eq!(m[0].as_u64(), Some(i as u64 + 1));
            // The fake player says no time; the first turn has no gap before it.
            assert!(m[4].is_null(), "{m}");
            assert_eq!(m[5].is_null(), i == 0, "{m}");
            if i + 1 < moves.len() {
                assert!(charged <= allowed, "{name}: {m}");
            } else {
                // The silent engine: killed past its time and the 200 ms margin.
                assert!(charged > allowed + 150.0, "{name}: {m}");
            }
        }
    }
    let tail = &lines[2];
    let moves: u64 = lines[..2]
        .iter()
        .map(|g| g["moves"].as_array().unwrap().len() as u64)
        .sum();
    assert_eq!(tail["moves"].as_u64(), Some(moves));
    assert!(tail["cpu_per_move_us"].as_f64().unwrap() > 0.0, "{tail}");
    // The script puts both losses down to the engine... which said nothing: unknown.
    let o = std::process::Command::new("python3")
        .arg(manifest().join("scripts/match_timing.py"))
        .arg(&log)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        said.contains("losses on time: 2 (engine 0, overhead 0, unknown 2)"),
        "{said}"
    );
}

/// An engine killed as hung after saying it searched past its time is put down to the
/// engine by its own account. (Before, the killed turn's reported time was not kept: every
/// such loss read "unknown".)
#[test]
fn a_hung_engine_that_said_it_overstepped_is_put_down_to_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let log = dir.path().join("timing.jsonl");
    let json = run_match(
        &cfg,
        &dir.path().join("games"),
        &[
            "--engine",
            "strong",
            "--engine",
            "stall",
            "--rounds",
            "1",
            "--tc",
            "1+0.1",
            "--margin",
            "100",
            "--timing",
            log.to_str().unwrap(),
        ],
    );
    assert_eq!(json["errors"]["time"], 2, "{json}");
    let o = std::process::Command::new("python3")
        .arg(manifest().join("scripts/match_timing.py"))
        .arg(&log)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("losses on time: 2 (engine 2, overhead 0, unknown 0)"),
        "{said}"
    );
    assert!(
        said.contains("its own info time 99999.000 ms -> engine"),
        "{said}"
    );
}

#[test]
fn the_timing_log_never_replaces_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let log = dir.path().join("timing.jsonl");
    std::fs::write(&log, "mine\n").unwrap();
    let o = kifview()
        .args(["match", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(dir.path().join("games"))
        .args(["--engine", "strong", "--engine", "weak", "--timing"])
        .arg(&log)
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--timing") && err.contains("new file"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "mine\n");
    assert!(!dir.path().join("games").join("round00001-1.kifu").exists());
}
