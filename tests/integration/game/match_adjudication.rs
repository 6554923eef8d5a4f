//! `kifview match --resign score=S moves=N` and `--draw score=S moves=N after=M`: games ended
//! by the engines' own scores (the fake player reports a fixed score), recorded as 投了 or
//! 引き分け with a comment saying why; off unless asked for.

use super::match_cli::{LONG, kifview_json, records, report, run_match};
use crate::common::manifest;
use kifview::core::record::Special;
use std::path::{Path, PathBuf};

/// Fake players that all play the long game (11 moves; then the side to move resigns),
/// each reporting one score for every move.
fn config(dir: &Path) -> PathBuf {
    std::fs::write(dir.join("long.txt"), LONG).unwrap();
    let player = manifest().join("tests/fixtures/engines/player.sh");
    let mut text = String::new();
    for (name, score) in [
        ("hopeful", "50"),
        ("lost", "-2000"),
        ("level", "0"),
        ("level5", "5"),
    ] {
        text += &format!(
            "[[engines]]\nname = \"{name}\"\ncommand = \"/bin/sh\"\nargs = [\"{}\", \"{}\", \"none\", \"0\", \"{score}\"]\n\n",
            player.display(),
            dir.join("long.txt").display()
        );
    }
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn endings(out: &Path) -> Vec<(usize, Special, String)> {
    records(out)
        .into_iter()
        .map(|(_, r)| {
            let line = r.main_line();
            let last = *line.last().unwrap();
            let (special, _) = kifview::game::record_result(&r).unwrap();
            (line.len() - 2, special, r.node(last).comment.clone())
        })
        .collect()
}

#[test]
fn a_side_whose_own_score_stays_lost_resigns_by_adjudication_and_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let args = [
        "--engine", "hopeful", "--engine", "lost", "--rounds", "1", "--tc", "30+0.1",
    ];
    // Without --resign the games are played out: the side to move at move 12 has no move
    // left and resigns, gote each time.
    let out = dir.path().join("off");
    let json = run_match(&cfg, &out, &args);
    assert_eq!(
        (&json["a"]["wins"], &json["b"]["wins"]),
        (&1.into(), &1.into()),
        "{json}"
    );
    assert!(
        endings(&out)
            .iter()
            .all(|(moves, s, _)| *moves == 11 && *s == Special::Resign)
    );
    // With it, `lost` resigns at its turn after three moves scored -2000: move 8 as gote,
    // move 7 as sente.
    let out = dir.path().join("on");
    let mut on = args.to_vec();
    on.extend(["--resign", "score=1000 moves=3"]);
    let json = run_match(&cfg, &out, &on);
    assert_eq!(json["a"]["wins"], 2, "{json}");
    let e = endings(&out);
    assert_eq!(e.iter().map(|x| x.0).collect::<Vec<_>>(), [7, 6]);
    for (_, special, why) in &e {
        assert_eq!(*special, Special::Resign);
        assert!(
            why.contains("adjudicated: lost's own evaluation was -1000 or worse for 3 moves"),
            "{why}"
        );
    }
    assert_eq!(report(&[&out]).trim(), kifview_json(&json));
}

#[test]
fn quiet_scores_from_the_move_number_on_draw_the_game_by_adjudication() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let play = |name: &str, draw: &str| {
        let out = dir.path().join(name);
        let json = run_match(
            &cfg,
            &out,
            &[
                "--engine", "level", "--engine", "level5", "--rounds", "1", "--tc", "30+0.1",
                "--draw", draw,
            ],
        );
        (out, json)
    };
    let (out, json) = play("drawn", "score=10 moves=4 after=6");
    assert_eq!(json["draws"], 2, "{json}");
    for (moves, special, why) in endings(&out) {
        assert_eq!((moves, special), (6, Special::Draw));
        assert!(why.contains("adjudicated a draw"), "{why}");
        assert!(why.contains("within ±10"), "{why}");
    }
    let text = std::fs::read_to_string(out.join("round00001-1.kifu")).unwrap();
    assert!(text.contains("   7 引き分け"), "{text}");
    assert_eq!(report(&[&out]).trim(), kifview_json(&json));
    // Not before move 20, nor where one engine's 5 is outside ±3: played out.
    for (name, rule) in [
        ("late", "score=10 moves=4 after=20"),
        ("tight", "score=3 moves=4"),
    ] {
        let (out, json) = play(name, rule);
        assert_eq!(json["draws"], 0, "{name}: {json}");
        assert!(
            endings(&out)
                .iter()
                .all(|(m, s, _)| *m == 11 && *s == Special::Resign)
        );
    }
}
