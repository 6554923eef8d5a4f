//! Issue 31: `kifview index --variations` stores each game's tree once (each move in one line:
//! a variation is stored from its fork, with the line and ply it leaves), so a variation at
//! every ply of a long line takes space linear in its moves, not quadratic; and every answer
//! stays what the lines from the root gave: each position of every line found, at the ply the
//! game first reaches it (the main line's when it gets there), a game counted once, with the
//! variations that lead there (issue 35: a match only a variation reaches names its node).

use kifview::collection::{Filter, Index, UpdateOptions, node_of, update};
use kifview::core::notation::{Format, read_text};
use kifview::core::record::{NodeId, Record, Step};
use kifview::core::rules::Position;
use std::path::Path;

use crate::common;

/// A KIF record: a main line of `n` plies (silvers going back and forth), and a one-move
/// variation at every ply (an edge pawn instead).
pub(crate) fn every_ply_branches(n: usize) -> String {
    let cycle = [
        ("４八銀", "39"),
        ("６二銀", "71"),
        ("３九銀", "48"),
        ("７一銀", "62"),
    ];
    let mut t = String::from("手合割：平手\n手数----指手---------消費時間--\n");
    for p in 1..=n {
        let (m, from) = cycle[(p - 1) % 4];
        t.push_str(&format!("{p} {m}({from})\n"));
    }
    for p in (1..=n).rev() {
        let alt = if p % 2 == 1 {
            "９六歩(97)"
        } else {
            "１四歩(13)"
        };
        t.push_str(&format!("\n変化：{p}手\n{p} {alt}\n"));
    }
    t
}

fn index_variations(coll: &Path, idx: &Path) {
    let opts = UpdateOptions { variations: true };
    update(idx, &[coll.to_path_buf()], opts, &|_, _| {}).unwrap();
}

/// Bytes of the position index on disk after indexing one record of `n` plies branching at
/// every ply.
fn bytes_for(n: usize) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    std::fs::write(coll.join("v.kif"), every_ply_branches(n)).unwrap();
    let idx = dir.path().join("idx");
    index_variations(&coll, &idx);
    Index::open(&idx).unwrap().sizes().unwrap().2
}

fn play(usi: &str) -> Position {
    let mut p = Position::startpos();
    for m in usi.split_whitespace() {
        p.play(kifview::core::rules::Move::from_usi(m).unwrap())
            .unwrap();
    }
    p
}

#[test]
fn a_variation_at_every_ply_is_stored_in_space_linear_in_its_moves() {
    // Stored as lines from the root, 2,000 plies took 2,000 lines of 1,000 moves on average
    // (4 MB); each move once, about 20 bytes a ply.
    let (small, large) = (bytes_for(1000), bytes_for(2000));
    assert!(
        large < 100 * 2000,
        "{large} bytes for 2,000 plies branching at each"
    );
    assert!(
        large * 10 < small * 23,
        "twice the plies, {small} -> {large} bytes: not linear"
    );
}

#[test]
fn a_position_only_a_deep_variation_reaches_is_found_at_its_first_ply_with_its_fork() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    let text = every_ply_branches(400);
    std::fs::write(coll.join("v.kif"), &text).unwrap();
    let idx = dir.path().join("idx");
    index_variations(&coll, &idx);
    let index = Index::open(&idx).unwrap();
    // After 3i4h 7a6b, sente's variation 9g9f: first reached at ply 3 (the variation of move
    // 3), again at 7, 11, ... : the game once, at ply 3, leaving the main line after 2 plies.
    let found = index
        .find(&play("3i4h 7a6b 9g9f"), &Filter::default())
        .unwrap();
    assert_eq!(found.len(), 1);
    let f = &found[0];
    assert_eq!((f.ply, f.next.as_deref()), (3, None));
    assert_eq!(f.variation, [kifview::collection::Fork { ply: 2, alt: 1 }]);
    // The node it names is that position in the record.
    let r = read_text(&text, Format::Kif).remove(0).record;
    let id = node_of(&r, &f.variation, f.ply).unwrap();
    assert!(r.position_at(id).same_placement(&play("3i4h 7a6b 9g9f")));
    // A main-line position: the main line's ply and move, no fork; counted once by explore.
    let found = index.find(&play("3i4h 7a6b"), &Filter::default()).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(
        (
            found[0].ply,
            found[0].next.as_deref(),
            found[0].variation.len()
        ),
        (2, Some("4h3i"), 0)
    );
    let e = index
        .explore(&play("3i4h 7a6b"), &Filter::default())
        .unwrap();
    assert_eq!(e.games, 1);
    assert_eq!(
        e.moves.iter().map(|m| m.usi.as_str()).collect::<Vec<_>>(),
        ["4h3i"]
    );
}

/// The answer the lines from the root gave for one game: for `target`, the ply it is first
/// reached at (the main line's when it gets there, else the lowest of any line, the first
/// line in pre-order on a tie) and the move played there.
fn by_lines(r: &Record, target: &Position) -> Option<(u32, Option<String>)> {
    let moves = |path: Vec<NodeId>| -> Vec<NodeId> {
        path.into_iter()
            .filter(|&id| id != NodeId::ROOT)
            .take_while(|&id| matches!(r.node(id).step, Step::Move(_)))
            .collect()
    };
    let mut lines = vec![moves(r.main_line())];
    for id in r.preorder() {
        if r.sibling_index(id) > 0 {
            let mut path = r.path(id);
            path.extend(r.line_from(id).into_iter().skip(1));
            lines.push(moves(path));
        }
    }
    let mut best: Option<(u32, Option<String>)> = None;
    for (i, line) in lines.iter().enumerate() {
        let mut pos = r.initial.position.clone();
        for ply in 0..=line.len() {
            if pos.same_placement(target) {
                let next = line
                    .get(ply)
                    .and_then(|&id| r.node(id).move_data())
                    .map(|m| m.mv.usi());
                if best.as_ref().is_none_or(|b| (ply as u32) < b.0) {
                    best = Some((ply as u32, next));
                }
                break;
            }
            if let Some(&id) = line.get(ply) {
                pos.play_unchecked(r.node(id).move_data().unwrap().mv);
            }
        }
        if i == 0 && best.is_some() {
            break;
        }
    }
    best
}

#[test]
fn every_position_of_every_line_is_answered_as_the_lines_from_the_root_answer_it() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    // Variations nested 45 deep, a study with variations, and one whose variations transpose
    // into main-line positions and branch from a variation's variation.
    let files =
        [
            (
                "nested.kifu",
                std::fs::read_to_string(common::manifest().join(
                    "tests/fixtures/fuzz/kif-variations-nested-45-jkf-writes-unreadable.kifu",
                ))
                .unwrap(),
            ),
            (
                "study.kifu",
                std::fs::read_to_string(common::asset("study.kifu")).unwrap(),
            ),
            (
                "transpose.kifu",
                "手合割：平手\n手数----指手---------消費時間--\n\
             1 ７六歩(77)\n2 ３四歩(33)\n3 ２六歩(27)\n4 ８四歩(83)\n5 ２五歩(26)\n6 投了\n\n\
             変化：6手\n6 ８五歩(84)\n7 ７八金(69)\n\n\
             変化：3手\n3 ２六歩(27)\n\n\
             変化：1手\n1 ２六歩(27)\n2 ３四歩(33)\n3 ７六歩(77)\n4 ８四歩(83)\n5 ２五歩(26)\n\n\
             変化：4手\n4 ４四歩(43)\n5 ４八銀(39)\n\n\
             変化：5手\n5 ６八銀(79)\n\n\
             変化：2手\n2 ８四歩(83)\n3 ２五歩(26)\n"
                    .to_string(),
            ),
        ];
    let mut records = Vec::new();
    for (name, text) in &files {
        std::fs::write(coll.join(name), text).unwrap();
        let path = std::fs::canonicalize(coll.join(name)).unwrap();
        records.push((path, read_text(text, Format::Kif).remove(0).record));
    }
    let idx = dir.path().join("idx");
    index_variations(&coll, &idx);
    let index = Index::open(&idx).unwrap();
    let mut checked = 0;
    for (_, r) in &records {
        for id in r.preorder() {
            if !matches!(r.node(id).step, Step::Move(_) | Step::Root) {
                continue;
            }
            let target = r.position_at(id);
            let found = index.find(&target, &Filter::default()).unwrap();
            for (path, rec) in &records {
                let want = by_lines(rec, &target);
                let got: Vec<_> = found
                    .iter()
                    .filter(|f| Path::new(&f.game.path) == path)
                    .collect();
                assert_eq!(
                    got.iter()
                        .map(|f| (f.ply, f.next.clone()))
                        .collect::<Vec<_>>(),
                    want.iter().cloned().collect::<Vec<_>>(),
                    "{} at node {id:?} of another record",
                    path.display()
                );
                for f in got {
                    let node = node_of(rec, &f.variation, f.ply)
                        .unwrap_or_else(|| panic!("{:?} names no node", f.variation));
                    assert!(
                        rec.position_at(node).same_placement(&target),
                        "{:?} +{} names another position",
                        f.variation,
                        f.ply
                    );
                }
            }
            let e = index.explore(&target, &Filter::default()).unwrap();
            assert_eq!(e.games as usize, found.len());
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} positions");
}

/// Issue 35: a match only a variation reaches printed `FILE +3`, which opened the main line's
/// move 3. The line names the variation (`--variation 3:1`: the first variation of move 3),
/// `find --json` too, and the viewer opens that node, from the command line and from the
/// games-at-position list (`o`, Enter).
#[test]
fn a_match_only_a_variation_reaches_is_printed_and_opened_at_the_variations_node() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    std::fs::write(coll.join("v.kif"), every_ply_branches(40)).unwrap();
    let idx = dir.path().join("idx");
    index_variations(&coll, &idx);
    let path = std::fs::canonicalize(coll.join("v.kif")).unwrap();
    let find = |extra: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("kifview")
            .unwrap()
            .args([
                "find",
                "--position",
                "startpos moves 3i4h 7a6b 9g9f",
                "--index",
            ])
            .arg(&idx)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", common::stderr_of(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let text = find(&[]);
    assert!(
        text.contains(&format!("  {} +3 --variation 3:1\n", path.display())),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(find(&["--json"]).trim()).unwrap();
    assert_eq!(json["variation"], "3:1", "{json}");
    // A main-line match names no variation.
    let main = assert_cmd::Command::cargo_bin("kifview")
        .unwrap()
        .args(["find", "--position", "startpos moves 3i4h", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    let main = String::from_utf8(main.stdout).unwrap();
    assert!(
        main.contains(" +1\n") && !main.contains("--variation"),
        "{main}"
    );
    // The viewer opened as the line says: at the variation's move.
    let v = common::viewer_with(&kifview::app::LaunchOptions {
        file: Some(path.clone()),
        ply: Some(3),
        variation: vec![(3, 1)],
        ..Default::default()
    });
    assert_eq!(v.app.cur_index(), 3);
    assert_eq!(v.app.step_text(v.app.cur()), "▲９六歩(97)");
    // From the games at a position: a study that plays the variation's moves, `o`, Enter.
    let study = dir.path().join("study.kif");
    std::fs::write(
        &study,
        "手数----指手---------消費時間--\n1 ４八銀(39)\n2 ６二銀(71)\n3 ９六歩(97)\n",
    )
    .unwrap();
    let mut v = common::viewer_with(&kifview::app::LaunchOptions {
        file: Some(study),
        index: Some(idx.clone()),
        ..Default::default()
    });
    common::press(&mut v, "lll");
    common::press(&mut v, "o");
    v.app.collection_settle();
    assert_eq!(v.app.mode(), kifview::app::Mode::List);
    common::press(&mut v, "⏎");
    assert_eq!(v.app.source().name, "v.kif");
    assert_eq!(v.app.cur_index(), 3);
    assert_eq!(v.app.step_text(v.app.cur()), "▲９六歩(97)");
    assert_eq!(v.app.record().sibling_index(v.app.cur()), 1);
}

/// A record that starts after move 80 (`手数＝80`): `find --json`'s `move` is the number the
/// table's `FILE +N` gives and the viewer opens (the record's own move numbers, as
/// `--variation` and `--file … --ply` take them), and `ply` counts the plies from the
/// record's start, as documented. Before, the JSON had only `ply` (3), which opened move 3
/// (the record's start) instead of move 83.
#[test]
fn find_json_names_the_move_that_file_plus_n_opens_in_a_record_that_starts_at_move_81() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    let fixture = common::manifest().join("tests/fixtures/fidelity/from_move_81.kifu");
    let text = std::fs::read_to_string(fixture).unwrap();
    std::fs::write(coll.join("late.kifu"), &text).unwrap();
    // The same start with the variation at 84 as its main line: its position after move 84
    // is one `late.kifu` reaches only through its variation.
    let (head, _) = text.split_once("  84 ６四歩打").unwrap();
    std::fs::write(
        dir.path().join("alt.kifu"),
        format!("{head}  84 ７七歩打\n  85 同　桂(89)\n"),
    )
    .unwrap();
    let idx = dir.path().join("idx");
    index_variations(&coll, &idx);
    let late = std::fs::canonicalize(coll.join("late.kifu")).unwrap();
    let find = |file: &Path, at: &str, json: bool| {
        let mut c = assert_cmd::Command::cargo_bin("kifview").unwrap();
        c.args(["find", "--file"])
            .arg(file)
            .args(["--ply", at, "--index"])
            .arg(&idx);
        if json {
            c.arg("--json");
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{}", common::stderr_of(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    // On the main line: after move 83.
    let text = find(&late, "83", false);
    assert!(
        text.contains(&format!("  {} +83\n", late.display())),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(find(&late, "83", true).trim()).unwrap();
    assert_eq!(json["move"], 83, "{json}");
    assert_eq!(json["ply"], 3, "{json}");
    let v = common::viewer_with(&kifview::app::LaunchOptions {
        file: Some(late.clone()),
        ply: Some(json["move"].as_u64().unwrap() as u32),
        ..Default::default()
    });
    assert_eq!(v.app.step_text(v.app.cur()), "▲６六飛(56)");
    // Through the variation at move 84.
    let text = find(&dir.path().join("alt.kifu"), "84", false);
    assert!(
        text.contains(&format!("  {} +84 --variation 84:1\n", late.display())),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(find(&dir.path().join("alt.kifu"), "84", true).trim()).unwrap();
    assert_eq!(
        (&json["move"], &json["ply"], &json["variation"]),
        (
            &serde_json::json!(84),
            &serde_json::json!(4),
            &serde_json::json!("84:1")
        ),
        "{json}"
    );
    let v = common::viewer_with(&kifview::app::LaunchOptions {
        file: Some(late),
        ply: Some(84),
        variation: vec![(84, 1)],
        ..Default::default()
    });
    assert_eq!(v.app.step_text(v.app.cur()), "△７七歩打");
    assert_eq!(v.app.record().sibling_index(v.app.cur()), 1);
}
