//! A real match: Fairy-Stockfish at Skill Level 20 against Skill Level 0 until the SPRT
//! (elo0=0 elo1=200) accepts H1, and every record read by cshogi (legal moves, its ending, the
//! W/D/L of the files equal to the JSON). Minutes of two engines: run by hand,
//! `cargo test --test integration game::real_match -- --ignored` (needs
//! `apt-get install fairy-stockfish` and `pip install cshogi`).

use crate::common::manifest;

#[test]
#[ignore = "a real engine match: minutes; run with --ignored"]
fn fairy_stockfish_skill_20_beats_skill_0_and_the_sprt_accepts_h1() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    let o = assert_cmd::Command::cargo_bin("kifview")
        .unwrap()
        .args([
            "match",
            "--engine",
            "fairy-stockfish,name=fs-skill20,Skill Level=20",
            "--engine",
            "fairy-stockfish,name=fs-skill0,Skill Level=0",
            "--byoyomi",
            "300",
            "--concurrency",
            "2",
            "--sprt",
            "elo0=0 elo1=200",
            "--json",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["sprt"]["result"], "H1", "{json}");
    let saved = dir.path().join("match.json");
    std::fs::write(&saved, &o.stdout).unwrap();
    let check = std::process::Command::new("python3")
        .arg(manifest().join("scripts/match_check_files.py"))
        .arg(&out)
        .arg(&saved)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
}
