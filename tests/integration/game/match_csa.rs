//! `kifview match --format csa`: every game a CSA V3.0 record with the match's fields as `$KEY`
//! lines, times in milliseconds, the ending word and the engines' evaluations as `'*` comments;
//! read back by kifview (`match report` gives the match's JSON) and by cshogi
//! (`scripts/match_check_files.py`). Python is `$KIFVIEW_PYTHON`, else `python3`; without
//! cshogi the cshogi part says so and passes, except under `CI=true` or
//! `KIFVIEW_REQUIRE_PEERS=1`. tsshogi's check (`scripts/match_check_tsshogi.cjs`) is run by hand.

use super::match_cli::{config, kifview_json, records, report, run_match};
use crate::common::manifest;
use kifview::core::record::Special;
use std::process::Command;

fn cshogi_python() -> Option<String> {
    let py = std::env::var("KIFVIEW_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = Command::new(&py)
        .args(["-c", "import cshogi"])
        .output()
        .is_ok_and(|o| o.status.success());
    let required = std::env::var("CI").as_deref() == Ok("true")
        || std::env::var("KIFVIEW_REQUIRE_PEERS").as_deref() == Ok("1");
    if !ok {
        assert!(!required, "{py} cannot import cshogi (.ci/run installs it)");
        println!("{py} cannot import cshogi: the cshogi check is skipped");
        return None;
    }
    Some(py)
}

#[test]
fn csa_records_hold_the_match_fields_times_endings_and_evaluations_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let out = dir.path().join("games");
    // strong against weak (resigns at its ply 4 or 5) and against silent (never answers
    // from ply 2 on: loses on time).
    let json = run_match(
        &cfg,
        &out,
        &[
            "--engine", "strong", "--engine", "weak", "--rounds", "1", "--tc", "30+0.1",
            "--format", "csa",
        ],
    );
    assert_eq!(json["a"]["wins"], 2, "{json}");
    let timeouts = dir.path().join("timeouts");
    let json2 = run_match(
        &cfg,
        &timeouts,
        &[
            "--engine", "strong", "--engine", "silent", "--rounds", "1", "--tc", "1+0.1",
            "--margin", "100", "--format", "csa",
        ],
    );
    assert_eq!(json2["errors"]["time"], 2, "{json2}");
    for (folder, ending, json) in [
        (&out, Special::Resign, &json),
        (&timeouts, Special::Timeout, &json2),
    ] {
        let recs = records(folder);
        let names: Vec<&str> = recs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["round00001-1.csa", "round00001-2.csa"]);
        for (name, r) in &recs {
            let text = std::fs::read_to_string(folder.join(name)).unwrap();
            for want in [
                "V3.0",
                "$EVENT:kifview match",
                "$ROUND:1",
                "$START:平手",
                "'**評価値=",
                "'**エンジン=strong",
            ] {
                assert!(text.contains(want), "{name}: {want:?} not in\n{text}");
            }
            let (special, _) = kifview::game::record_result(r).unwrap();
            assert_eq!(special, ending, "{name}\n{text}");
            // Every move has its time, in milliseconds where it took any.
            let line = r.main_line();
            assert!(
                line[1..].iter().all(|&n| r.node(n).time.is_some()),
                "{name}\n{text}"
            );
            if ending == Special::Timeout {
                assert!(text.contains("$TIME:1+0+0.1"), "{name}\n{text}");
                assert!(text.contains("%TIME_UP\nT1."), "{name}\n{text}");
                assert!(text.contains("$ERROR:time (silent)"), "{name}\n{text}");
            } else {
                assert!(text.contains("%TORYO"), "{name}\n{text}");
            }
        }
        assert_eq!(
            report(&[folder]).trim(),
            kifview_json(json),
            "{}",
            folder.display()
        );
    }
    let Some(py) = cshogi_python() else {
        return;
    };
    for (folder, json) in [(&out, &json), (&timeouts, &json2)] {
        let saved = dir.path().join("match.json");
        std::fs::write(&saved, json.to_string()).unwrap();
        let o = Command::new(&py)
            .arg(manifest().join("scripts/match_check_files.py"))
            .arg(folder)
            .arg(&saved)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
