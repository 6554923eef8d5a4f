//! `kifview problems make` with the scripted engine (`tests/fixtures/engines/replay.sh`): a
//! planted blunder found, searched again, its accepted answers; the set checked against
//! ShogiHome's format spec field by field.

use crate::common::{manifest, stderr_of};
use assert_cmd::Command;
use kifview::training::ProblemSet;
use serde_json::Value;
use std::path::PathBuf;

/// ShogiHome's detection test record (`detect.spec.ts`): move 3 (▲2六歩) takes sente from
/// 79.1 % to 41.7 %, move 4 (△8四歩) takes gote from 58.3 % to 30.3 %.
const GAME: &str = include_str!("../../fixtures/training/detect.kif");

/// The engine's answers, from the side to move. Before move 3 the best (角成) beats the move
/// played (2六歩, its third line) by 16.5 points and 6八銀 is within 5 points of the best;
/// before move 4 the search finds 8四歩 as good as the best: not a problem after all.
const SCRIPT: &str = "< usi
> id name Scripted 1.0
> option name MultiPV type spin default 1 min 1 max 10
> usiok
< isready
> readyok
< go
< stop
> info depth 10 multipv 1 score cp 300 pv 8h2b+ 3a2b
> info depth 10 multipv 2 score cp 270 pv 7i6h 4a3b
> info depth 9 multipv 3 score cp -100 pv 2g2f 2b8h+
> bestmove 8h2b+
< go
< stop
> info depth 10 multipv 1 score cp 100 pv 4a3b 2g2f
> info depth 10 multipv 2 score cp 90 pv 8c8d 2g2f
> bestmove 4a3b
";

struct Setup {
    dir: tempfile::TempDir,
    game: PathBuf,
    config: PathBuf,
    log: PathBuf,
}

fn setup(script: &str) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("games/g1.kif");
    std::fs::create_dir_all(game.parent().unwrap()).unwrap();
    std::fs::write(&game, GAME).unwrap();
    let sc = dir.path().join("engine.script");
    std::fs::write(&sc, script).unwrap();
    let log = dir.path().join("engine.log");
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[[engines]]\nname = \"scripted\"\ncommand = \"/bin/sh\"\nargs = [{:?}, {:?}, {:?}]\n",
            manifest()
                .join("tests/fixtures/engines/replay.sh")
                .display()
                .to_string(),
            sc.display().to_string(),
            log.display().to_string()
        ),
    )
    .unwrap();
    Setup {
        dir,
        game,
        config,
        log,
    }
}

fn make(s: &Setup, extra: &[&str]) -> std::process::Output {
    Command::cargo_bin("kifview")
        .unwrap()
        .args(["problems", "make", "--engine", "scripted", "--config"])
        .arg(&s.config)
        .args(["--time", "50", "--min-ply", "1"])
        .args(extra)
        .output()
        .unwrap()
}

/// The fields of ShogiHome's spec (`specs/next-move-problem-format.md`) with their JSON types;
/// none other (kifview adds nothing of its own).
fn check_against_spec(v: &Value) {
    fn fields(v: &Value, allowed: &[(&str, &str)], required: &[&str], at: &str) {
        let o = v
            .as_object()
            .unwrap_or_else(|| panic!("{at}: not an object"));
        for r in required {
            assert!(o.contains_key(*r), "{at}: {r} is required");
        }
        for (k, val) in o {
            let ty = allowed
                .iter()
                .find(|(n, _)| n == k)
                .unwrap_or_else(|| panic!("{at}.{k}: not a field of the spec"))
                .1;
            let ok = match ty {
                "string" => val.is_string(),
                "number" => val.is_number(),
                "integer" => val.is_i64() || val.is_u64(),
                "boolean" => val.is_boolean(),
                "object" => val.is_object(),
                "array" => val.is_array(),
                _ => unreachable!(),
            };
            assert!(ok, "{at}.{k}: {val} is not a {ty}");
        }
    }
    fields(
        v,
        &[
            ("format", "string"),
            ("version", "number"),
            ("metadata", "object"),
            ("problems", "array"),
        ],
        &["format", "version", "problems"],
        "top",
    );
    assert_eq!(v["format"], "shogihome-next-move");
    assert_eq!(v["version"], 1);
    let m = &v["metadata"];
    fields(
        m,
        &[
            ("title", "string"),
            ("createdAt", "string"),
            ("appVersion", "string"),
            ("engine", "object"),
            ("criteria", "object"),
        ],
        &[],
        "metadata",
    );
    fields(
        &m["engine"],
        &[
            ("name", "string"),
            ("multiPV", "number"),
            ("maxSecondsPerPosition", "number"),
        ],
        &[],
        "metadata.engine",
    );
    fields(
        &m["criteria"],
        &[
            ("winRateDropThreshold", "number"),
            ("adoptionWinRateDiff", "number"),
            ("acceptableWinRateDiff", "number"),
            ("minWinRate", "number"),
            ("coefficientInSigmoid", "number"),
            ("minPly", "number"),
            ("maxPly", "number"),
        ],
        &[],
        "metadata.criteria",
    );
    // ISO 8601 with its offset.
    let created = m["createdAt"].as_str().unwrap();
    assert!(
        chrono::DateTime::parse_from_rfc3339(created).is_ok(),
        "{created}"
    );
    for (i, p) in v["problems"].as_array().unwrap().iter().enumerate() {
        let at = format!("problems[{i}]");
        fields(
            p,
            &[
                ("sfen", "string"),
                ("candidates", "array"),
                ("actualMove", "object"),
                ("previousMove", "object"),
                ("analysis", "object"),
                ("source", "object"),
            ],
            &["sfen", "candidates", "actualMove"],
            &at,
        );
        let sfen = p["sfen"].as_str().unwrap();
        assert_eq!(sfen.split(' ').count(), 4, "{sfen}");
        assert!(sfen.ends_with(" 1"), "the move number is 1: {sfen}");
        let cands = p["candidates"].as_array().unwrap();
        assert!(cands.len() >= 2, "best and second best");
        assert_eq!(cands[0]["accepted"], true, "the best is always accepted");
        for (j, c) in cands.iter().enumerate() {
            let at = format!("{at}.candidates[{j}]");
            fields(
                c,
                &[
                    ("usi", "string"),
                    ("score", "integer"),
                    ("mate", "integer"),
                    ("depth", "integer"),
                    ("accepted", "boolean"),
                    ("pv", "array"),
                ],
                &["usi"],
                &at,
            );
            assert!(
                !(c.get("score").is_some() && c.get("mate").is_some()),
                "{at}: one of score and mate"
            );
            if let Some(pv) = c["pv"].as_array() {
                assert_eq!(pv[0], c["usi"], "{at}: the line starts with the move");
            }
        }
        fields(
            &p["actualMove"],
            &[
                ("usi", "string"),
                ("score", "integer"),
                ("mate", "integer"),
                ("scoreSource", "string"),
            ],
            &["usi"],
            &format!("{at}.actualMove"),
        );
        let src = p["actualMove"]["scoreSource"].as_str().unwrap();
        assert!(src == "research" || src == "comment", "{src}");
        if p.get("previousMove").is_some() {
            fields(
                &p["previousMove"],
                &[("usi", "string"), ("sfen", "string")],
                &["usi", "sfen"],
                &format!("{at}.previousMove"),
            );
        }
        fields(
            &p["analysis"],
            &[("scoreBeforeMove", "number"), ("scoreAfterMove", "number")],
            &[],
            &format!("{at}.analysis"),
        );
        fields(
            &p["source"],
            &[
                ("path", "string"),
                ("ply", "number"),
                ("blackPlayer", "string"),
                ("whitePlayer", "string"),
                ("date", "string"),
            ],
            &[],
            &format!("{at}.source"),
        );
    }
}

#[test]
fn a_planted_blunder_becomes_a_problem_with_its_accepted_answers() {
    let s = setup(SCRIPT);
    let out = s.dir.path().join("set.json");
    let o = make(
        &s,
        &[
            s.dir.path().join("games").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
    );
    let err = stderr_of(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(
            "1 record(s), 0 analysed here, 2 candidate move(s), 2 searched, 1 problem(s): wrote"
        ),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    check_against_spec(&v);
    // kifview reads back what it wrote, with ShogiHome's checks.
    let set = ProblemSet::from_json(&text).unwrap();
    assert_eq!(set.problems.len(), 1);
    let p = &v["problems"][0];
    // The position before move 3, sente to move; the previous move is 3四歩 from its position.
    assert_eq!(
        p["sfen"],
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    assert_eq!(p["previousMove"]["usi"], "3c3d");
    assert_eq!(
        p["previousMove"]["sfen"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    let usis: Vec<&str> = p["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["usi"].as_str().unwrap())
        .collect();
    assert_eq!(usis, ["8h2b+", "7i6h", "2g2f"]);
    let accepted: Vec<bool> = p["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["accepted"].as_bool().unwrap())
        .collect();
    assert_eq!(accepted, [true, true, false], "6八銀 is within 5 points");
    assert_eq!(
        p["candidates"][0]["pv"],
        serde_json::json!(["8h2b+", "3a2b"])
    );
    assert_eq!(p["candidates"][0]["score"], 300);
    // The move played was among the lines: its score is the search's.
    assert_eq!(
        p["actualMove"],
        serde_json::json!({"usi": "2g2f", "score": -100, "scoreSource": "research"})
    );
    assert_eq!(
        p["analysis"],
        serde_json::json!({"scoreBeforeMove": 800, "scoreAfterMove": -200})
    );
    assert_eq!(p["source"]["ply"], 3);
    assert_eq!(p["source"]["blackPlayer"], "先手太郎");
    assert_eq!(p["source"]["whitePlayer"], "後手次郎");
    assert_eq!(p["source"]["path"], s.game.display().to_string());
    assert_eq!(v["metadata"]["engine"]["name"], "Scripted 1.0");
    assert_eq!(v["metadata"]["engine"]["multiPV"], 3);
    assert_eq!(v["metadata"]["criteria"]["minWinRate"], 40);
    // The engine searched the positions before moves 3 and 4, with three lines.
    let log = std::fs::read_to_string(&s.log).unwrap();
    assert!(log.contains("setoption name MultiPV value 3"), "{log}");
    assert!(log.contains("position startpos moves 7g7f 3c3d\n"), "{log}");
    assert!(
        log.contains("position startpos moves 7g7f 3c3d 2g2f\n"),
        "{log}"
    );
    // The game's file is only read.
    assert_eq!(std::fs::read_to_string(&s.game).unwrap(), GAME);
}

#[test]
fn an_existing_set_is_replaced_only_with_force() {
    let s = setup(SCRIPT);
    let out = s.dir.path().join("set.json");
    std::fs::write(&out, "mine").unwrap();
    let o = make(&s, &[s.game.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr_of(&o).contains("exists: not replaced (--force replaces it)"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
    let o = make(
        &s,
        &[
            s.game.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--force",
        ],
    );
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert!(ProblemSet::from_json(&std::fs::read_to_string(&out).unwrap()).is_ok());
}

#[test]
fn records_without_analysis_are_named_with_what_to_do() {
    let s = setup(SCRIPT);
    let bare = s.dir.path().join("games/bare.kif");
    std::fs::write(&bare, "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n").unwrap();
    let out = s.dir.path().join("set.json");
    let o = make(&s, &[bare.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("1 file(s) hold no analysis in their comments"),
        "{err}"
    );
    assert!(err.contains(bare.to_str().unwrap()), "{err}");
    assert!(
        err.contains("kifview analyze") && err.contains("--analyze"),
        "{err}"
    );
    assert!(err.contains("no problem found, nothing written"), "{err}");
    assert!(!out.exists());
}

#[test]
fn filters_without_an_index_are_refused() {
    let s = setup(SCRIPT);
    let out = s.dir.path().join("set.json");
    let o = make(
        &s,
        &[
            s.game.to_str().unwrap(),
            "--player",
            "太郎",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr_of(&o).contains("give --index IDX"),
        "{}",
        stderr_of(&o)
    );
}

#[test]
fn the_thresholds_are_options_and_checked() {
    let s = setup(SCRIPT);
    let out = s.dir.path().join("set.json");
    let o = make(
        &s,
        &[
            s.game.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--acceptable",
            "20",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr_of(&o).contains("--acceptable must be from 0 to below --adoption"));
    // A higher drop threshold leaves only move 3 (37.4 points): one search.
    let o = make(
        &s,
        &[
            s.game.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--drop",
            "30",
        ],
    );
    let err = stderr_of(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("1 candidate move(s), 1 searched, 1 problem(s)"),
        "{err}"
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["metadata"]["criteria"]["winRateDropThreshold"], 30);
}

#[test]
fn the_second_position_is_not_searched_when_the_set_is_full() {
    let s = setup(SCRIPT);
    let out = s.dir.path().join("set.json");
    let o = make(
        &s,
        &[
            s.game.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--max",
            "1",
        ],
    );
    let err = stderr_of(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("2 candidate move(s), 1 searched, 1 problem(s)"),
        "{err}"
    );
}

#[test]
fn the_games_of_an_index_that_pass_its_filters() {
    let s = setup(SCRIPT);
    let other = s.dir.path().join("games/other.kif");
    std::fs::write(&other, GAME.replace("先手太郎", "別人")).unwrap();
    let idx = s.dir.path().join("idx");
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .args(["index", "--index"])
        .arg(&idx)
        .arg(s.dir.path().join("games"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    let out = s.dir.path().join("set.json");
    let o = make(
        &s,
        &[
            "--index",
            idx.to_str().unwrap(),
            "--sente",
            "太郎",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    let err = stderr_of(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("1 record(s),"),
        "only the game the filter keeps: {err}"
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        v["problems"][0]["source"]["path"],
        s.game.display().to_string()
    );
}

#[test]
fn analyze_analyses_a_bare_record_in_memory_and_leaves_its_file() {
    let d = tempfile::tempdir().unwrap();
    let bare = d.path().join("bare.kif");
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８四歩(83)\n";
    std::fs::write(&bare, text).unwrap();
    let out = d.path().join("set.json");
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .env("ANALYST_STATE", d.path())
        .args(["problems", "make", "--engine", &crate::common::analyst()])
        .args([
            "--time",
            "20",
            "--analyze",
            "20",
            "--min-ply",
            "1",
            "--drop",
            "1",
        ])
        .args(["--min-win-rate", "0"])
        .arg(&bare)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert!(err.contains("bare.kif: analysing first"), "{err}");
    // The fake engine's one line per search accepts its own best: no problem, but the
    // evaluations it wrote in memory made candidates that were searched.
    assert!(err.contains("1 record(s), 1 analysed here,"), "{err}");
    assert!(!err.contains("hold no analysis"), "{err}");
    assert!(!err.contains(" 0 searched"), "{err}");
    assert_eq!(std::fs::read_to_string(&bare).unwrap(), text);
}

#[test]
fn a_folder_of_records_without_analysis_is_named_twenty_at_most() {
    let s = setup(SCRIPT);
    let bare = s.dir.path().join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    for i in 0..25 {
        std::fs::write(
            bare.join(format!("g{i:02}.kif")),
            "手合割：平手\n   1 ７六歩(77)\n",
        )
        .unwrap();
    }
    let out = s.dir.path().join("set.json");
    let o = make(&s, &[bare.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let err = stderr_of(&o);
    assert!(err.contains("25 file(s) hold no analysis"), "{err}");
    assert!(err.contains("g19.kif") && !err.contains("g20.kif"), "{err}");
    assert!(err.contains("  and 5 more"), "{err}");
}

#[test]
fn the_source_path_is_absolute_as_the_spec_says() {
    let s = setup(SCRIPT);
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .current_dir(s.dir.path())
        .args(["problems", "make", "--engine", "scripted", "--config"])
        .arg(&s.config)
        .args([
            "--time",
            "50",
            "--min-ply",
            "1",
            "games/g1.kif",
            "-o",
            "set.json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(s.dir.path().join("set.json")).unwrap())
            .unwrap();
    let path = v["problems"][0]["source"]["path"].as_str().unwrap();
    assert!(std::path::Path::new(path).is_absolute(), "{path}");
    assert!(path.ends_with("games/g1.kif"), "{path}");
}

#[test]
fn a_fifo_among_the_inputs_is_skipped_unread_not_waited_on() {
    let s = setup(SCRIPT);
    let fifo = s.dir.path().join("pipe.kif");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid path string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let out = s.dir.path().join("set.json");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kifview"))
        .args(["problems", "make", "--engine", "scripted", "--config"])
        .arg(&s.config)
        .args(["--time", "50", "--min-ply", "1"])
        .arg(&fifo)
        .arg(&s.game)
        .arg("-o")
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A guard against a hang, not a timing: the command ends on its own well before.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("problems make waited on the FIFO");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("pipe.kif") && err.contains("FIFO"), "{err}");
    assert!(err.contains("1 problem(s): wrote"), "{err}");
}
