//! JKF reader/writer: the real JKF files against their expected JSON, round trips with times,
//! presets, specials, and deep nesting handled without crashing.

use kifview::core::notation::{Lost, jkf, ki2};
use kifview::core::record::{MoveTime, NodeId, Record, Special, Step};
use kifview::core::rules::{Move, Position, Square};
use serde_json::Value;
use std::path::Path;

use crate::common;
use common::*;

#[test]
fn corpus_jkf_files_read_as_expected_and_round_trip() {
    let Some(root) = corpus() else { return };
    let mut files = Vec::new();
    files_with_ext(&root.join("real"), &["jkf", "json"], &mut files);
    files.retain(|f| !f.to_string_lossy().ends_with(".expected.json"));
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = read_file(f);
        if !jkf::looks_like(&text) {
            continue;
        }
        let parsed = jkf::read(&text);
        let Some(exp) = expected_for(f) else { continue };
        checked += 1;
        if let Err(e) = compare(&parsed.record, &exp, true) {
            failures.push(format!(
                "{}: {e} (warnings: {:?})",
                f.display(),
                parsed.warnings
            ));
            continue;
        }
        let written = jkf::write(&parsed.record);
        let again = jkf::read(&written.text);
        if let Err(e) = check_tree_equal(&parsed.record, &again.record)
            .and_then(|_| check_times_equal(&parsed.record, &again.record))
        {
            failures.push(format!("{}: round trip: {e}", f.display()));
        }
    }
    println!("{checked} JKF files compared with their expected JSON");
    assert!(checked >= 8, "only {checked} JKF files with expected JSON");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every generated record (read from its KI2 file, with times added) survives JKF: tree,
/// comments, times, headers, initial position.
#[test]
fn corpus_records_round_trip_through_jkf() {
    let Some(root) = corpus() else { return };
    let mut files = Vec::new();
    files_with_ext(&root.join("generated"), &["ki2"], &mut files);
    assert!(files.len() >= 60);
    for f in &files {
        let mut r = ki2::read(&read_file(f)).record;
        for (i, n) in r.nodes.iter_mut().enumerate().skip(1) {
            n.time = Some(MoveTime {
                spent_ms: (i as u64 * 7919) % 4000 * 1000,
                total_ms: Some(i as u64 * 61_000),
            });
        }
        let w = jkf::write(&r);
        serde_json::from_str::<Value>(&w.text)
            .unwrap_or_else(|e| panic!("{}: invalid JSON written: {e}", f.display()));
        let back = jkf::read(&w.text);
        assert!(
            back.warnings.is_empty(),
            "{}: {:?}",
            f.display(),
            back.warnings
        );
        check_tree_equal(&r, &back.record).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        check_times_equal(&r, &back.record).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        // Bookmarks are the one thing JKF cannot hold.
        let bookmarks = r.nodes.iter().filter(|n| n.bookmark.is_some()).count();
        assert_eq!(
            bookmarks > 0,
            w.losses.iter().any(|l| l.what == Lost::Bookmarks)
        );
    }
}

#[test]
fn presets_and_other_board() {
    let cases = [
        (
            "HIRATE",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ),
        (
            "KY",
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "KY_R",
            "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "KA",
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "HI",
            "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "HIKY",
            "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "2",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "3",
            "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "4",
            "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "5",
            "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "5_L",
            "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "6",
            "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "7_L",
            "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "7_R",
            "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "8",
            "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "10",
            "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
    ];
    for (preset, sfen) in cases {
        let text =
            format!("{{\"header\":{{}},\"initial\":{{\"preset\":\"{preset}\"}},\"moves\":[{{}}]}}");
        let p = jkf::read(&text);
        assert!(p.warnings.is_empty(), "{preset}: {:?}", p.warnings);
        assert_eq!(p.record.initial.position.to_sfen(), sfen, "{preset}");
        let w = jkf::write(&p.record).text;
        assert!(
            w.contains(&format!("\"preset\":\"{preset}\"")),
            "{preset}: {w}"
        );
    }
    // OTHER: a tsume position with hands, White to move (18 pawns in all: the set's).
    let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 w 2G17p 1").unwrap();
    let mut r = Record::new(kifview::core::record::Initial {
        position: pos,
        handicap: None,
    });
    r.push_child(NodeId::ROOT, Step::Special(Special::Resign));
    let w = jkf::write(&r).text;
    assert!(w.contains("\"OTHER\""), "{w}");
    let back = jkf::read(&w);
    assert_eq!(
        back.record.initial.position.to_sfen(),
        "4k4/9/4P4/9/9/9/9/9/9 w 2G17p 1"
    );
}

#[test]
fn every_special_name() {
    let cases = [
        ("TORYO", Special::Resign),
        ("CHUDAN", Special::Interrupt),
        ("SENNICHITE", Special::RepetitionDraw),
        ("TIME_UP", Special::Timeout),
        ("ILLEGAL_MOVE", Special::FoulLose),
        // after one Black move White is to move: Black (+) committed the foul, White wins
        ("+ILLEGAL_ACTION", Special::FoulWin),
        ("-ILLEGAL_ACTION", Special::FoulLose),
        ("JISHOGI", Special::Impass),
        ("KACHI", Special::EnteringKing),
        ("HIKIWAKE", Special::Draw),
        ("MATTA", Special::Other("MATTA".into())),
        ("TSUMI", Special::Mate),
        ("FUZUMI", Special::NoMate),
        ("ERROR", Special::Other("ERROR".into())),
    ];
    for (name, special) in cases {
        let text = format!(
            "{{\"header\":{{}},\"moves\":[{{}},{{\"move\":{{\"color\":0,\"piece\":\"FU\",\"from\":{{\"x\":7,\"y\":7}},\"to\":{{\"x\":7,\"y\":6}}}}}},{{\"special\":\"{name}\"}}]}}"
        );
        let p = jkf::read(&text);
        assert!(p.warnings.is_empty(), "{name}: {:?}", p.warnings);
        let line = p.record.main_line();
        assert_eq!(p.record.node(line[2]).special(), Some(&special), "{name}");
        let back = jkf::read(&jkf::write(&p.record).text);
        let l2 = back.record.main_line();
        assert_eq!(back.record.node(l2[2]).special(), Some(&special), "{name}");
    }
}

#[test]
fn forks_nest_and_keep_order() {
    let text = r#"{"header":{"先手":"A","後手":"B"},"moves":[
        {"comments":["root"]},
        {"move":{"color":0,"piece":"FU","from":{"x":7,"y":7},"to":{"x":7,"y":6}},
         "time":{"now":{"m":1,"s":5},"total":{"h":0,"m":1,"s":5}}},
        {"move":{"color":1,"piece":"FU","from":{"x":3,"y":3},"to":{"x":3,"y":4}},
         "forks":[
           [{"move":{"color":1,"piece":"FU","from":{"x":8,"y":3},"to":{"x":8,"y":4}},"comments":["a"]},
            {"move":{"color":0,"piece":"FU","from":{"x":2,"y":7},"to":{"x":2,"y":6}},
             "forks":[[{"move":{"color":0,"piece":"FU","from":{"x":5,"y":7},"to":{"x":5,"y":6}}}]]}],
           [{"move":{"color":1,"piece":"FU","from":{"x":4,"y":3},"to":{"x":4,"y":4}}}]
         ]},
        {"move":{"color":0,"piece":"KA","from":{"x":8,"y":8},"to":{"x":2,"y":2},"promote":true,"capture":"KA"}},
        {"move":{"color":1,"piece":"GI","from":{"x":3,"y":1},"same":true}},
        {"special":"TORYO"}
    ]}"#;
    let p = jkf::read(text);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let r = &p.record;
    assert_eq!(r.node(NodeId::ROOT).comment, "root");
    assert_eq!(r.header.black_name(), Some("A"));
    let l = r.main_line();
    let usi: Vec<String> = l
        .iter()
        .filter_map(|&i| r.node(i).move_data().map(|m| m.mv.usi()))
        .collect();
    assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b"]);
    assert_eq!(
        r.node(l[1]).time,
        Some(MoveTime {
            spent_ms: 65_000,
            total_ms: Some(65_000)
        })
    );
    let kids = &r.node(l[1]).children;
    let first = |i: usize| r.node(kids[i]).move_data().unwrap().mv.usi();
    assert_eq!(
        (kids.len(), first(1), first(2)),
        (3, "8c8d".to_string(), "4c4d".to_string())
    );
    let alt = kids[1];
    assert_eq!(r.node(alt).comment, "a");
    // 2g2f and its fork 5g5f are both children of 8c8d.
    let deeper: Vec<String> = r
        .node(alt)
        .children
        .iter()
        .map(|&c| r.node(c).move_data().unwrap().mv.usi())
        .collect();
    assert_eq!(deeper, ["2g2f", "5g5f"]);
    // The main line goes on after the forks: 8h2b+, 同銀 (same), 投了.
    assert_eq!(r.node(l[5]).special(), Some(&Special::Resign));
    let back = jkf::read(&jkf::write(r).text);
    check_tree_equal(r, &back.record).unwrap();
}

#[test]
fn deep_nesting_reads_and_writes_back() {
    // 300 nested forks: beyond serde_json's recursion limit (about 40 forks), read all the same.
    let mv = |x: u8| {
        format!(
            "{{\"move\":{{\"color\":0,\"piece\":\"FU\",\"from\":{{\"x\":{x},\"y\":7}},\"to\":{{\"x\":{x},\"y\":6}}}}"
        )
    };
    let mut s = String::new();
    for _ in 0..300 {
        s.push_str(&format!("[{},\"forks\":", mv(7)));
    }
    s.push_str("[]");
    for _ in 0..300 {
        s.push_str("}]");
    }
    let text = format!(
        "{{\"header\":{{}},\"moves\":[{{}},{},\"forks\":[{s}]}}]}}",
        mv(2)
    );
    let p = jkf::read(&text);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // Every fork is the same ７六歩 beside the main line's first move: one node.
    assert_eq!(p.record.len(), 3);
    assert_eq!(p.record.node(NodeId::ROOT).children.len(), 2);

    // Writing a record with 2000 nested variations neither recurses nor loses moves.
    let mut r = Record::default();
    let mut pos = Position::startpos();
    let mut cur = NodeId::ROOT;
    let sq = |f, rk| Square::new(f, rk).unwrap();
    let moves = [
        Move::Normal {
            from: sq(2, 8),
            to: sq(3, 8),
            promote: false,
        },
        Move::Normal {
            from: sq(8, 2),
            to: sq(7, 2),
            promote: false,
        },
        Move::Normal {
            from: sq(3, 8),
            to: sq(2, 8),
            promote: false,
        },
        Move::Normal {
            from: sq(7, 2),
            to: sq(8, 2),
            promote: false,
        },
    ];
    for i in 0..2000 {
        let mv = moves[i % 4];
        let played = pos.play(mv).unwrap();
        let md = kifview::core::record::MoveData {
            mv,
            color: if i % 2 == 0 {
                kifview::core::rules::Color::Black
            } else {
                kifview::core::rules::Color::White
            },
            piece: played.piece,
            captured: None,
        };
        // a main-line move and, beside it, the same-ply alternative that continues
        let parent = cur;
        r.push_child(parent, Step::Special(Special::Interrupt));
        cur = r.push_child(parent, Step::Move(md));
    }
    let w = jkf::write(&r);
    assert!(w.losses.is_empty(), "{:?}", w.losses);
    assert!(
        serde_json::from_str::<Value>(&w.text).is_err(),
        "expected serde_json to refuse the depth"
    );
    // kifview reads back all of what it wrote.
    let back = jkf::read(&w.text);
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    check_tree_equal(&r, &back.record).unwrap();
}

#[test]
fn bad_json_and_bad_moves_are_diagnostics() {
    let p = jkf::read("{\n\"header\": {},\n\"moves\": [\n{},\n{\"move\": }\n]}");
    assert_eq!(p.warnings[0].line, 5, "{}", p.warnings[0]);
    let p = jkf::read(
        r#"{"moves":[{},{"move":{"color":0,"piece":"FU","from":{"x":7,"y":7},"to":{"x":7,"y":6}}},{"move":{"color":1,"piece":"FU","from":{"x":5,"y":5},"to":{"x":5,"y":6}}},{"special":"TORYO"}]}"#,
    );
    assert_eq!(p.record.main_line().len(), 2);
    assert!(
        p.warnings[0].message.contains("moves[2]"),
        "{}",
        p.warnings[0]
    );
    for t in [
        "",
        "[]",
        "null",
        "{}",
        "{\"moves\":3}",
        "{\"moves\":[{\"move\":{}}]}",
        "{\"initial\":{\"preset\":\"X\"}}",
    ] {
        let _ = jkf::read(t);
    }
    assert!(jkf::looks_like("\u{feff} {\"header\":{}, \"moves\":[]}"));
    assert!(!jkf::looks_like("▲７六歩"));
}

#[test]
fn fixture_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jkf");
    let p = jkf::read(&read_file(&dir.join("valid/forks_times_handicap.jkf")));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let r = &p.record;
    assert_eq!(
        r.initial.position.to_sfen(),
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(
        (r.header.black_name(), r.header.white_name()),
        (Some("A"), Some("B"))
    );
    let l = r.main_line();
    let usi: Vec<String> = l
        .iter()
        .filter_map(|&i| r.node(i).move_data().map(|m| m.mv.usi()))
        .collect();
    assert_eq!(usi, ["3c3d", "7g7f", "2b8h+", "7i8h"]);
    assert_eq!(r.node(l[5]).special(), Some(&Special::Resign));
    assert_eq!(r.node(l[2]).time.unwrap().spent_ms, 60_000);
    let alts = &r.node(l[1]).children;
    assert_eq!(alts.len(), 3);
    assert_eq!(r.node(alts[2]).special(), Some(&Special::Resign));
    assert_eq!(r.node(alts[2]).comment, "早投げ");
    let back = jkf::read(&jkf::write(r).text);
    check_tree_equal(r, &back.record).unwrap();
    check_times_equal(r, &back.record).unwrap();

    for (name, line) in [("truncated.line6.jkf", 6), ("no_piece.line0.jkf", 0)] {
        let p = jkf::read(&read_file(&dir.join("invalid").join(name)));
        let d = p
            .warnings
            .first()
            .unwrap_or_else(|| panic!("{name}: no diagnostic"));
        assert_eq!(d.line, line, "{name}: {d}");
    }
}

/// A bad move inside a fork is named by its path through the forks.
#[test]
fn bad_moves_in_forks_are_named_by_their_path() {
    let p = jkf::read(
        r#"{"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6}},"forks":[[{"move":{"from":{"x":2,"y":7},"to":{"x":2,"y":6}},"forks":[[{"move":{"from":{"x":5,"y":5},"to":{"x":5,"y":4}}}]]}]]}]}"#,
    );
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    assert!(
        p.warnings[0]
            .message
            .starts_with("moves[1].forks[0][0].forks[0][0]: "),
        "{}",
        p.warnings[0]
    );
    assert_eq!(p.record.len(), 3);
}
