//! SFEN / USI reading and writing: every prefix form, errors with line and token, round trips.

use kifview::core::notation::encoding::{TextEncoding, decode};
use kifview::core::notation::{DiagKind, ki2, usi};
use kifview::core::record::{NodeId, Record};
use std::path::{Path, PathBuf};

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

fn main_usi(r: &Record) -> Vec<String> {
    r.main_line()
        .into_iter()
        .filter_map(|id| r.node(id).move_data().map(|m| m.mv.usi()))
        .collect()
}

#[test]
fn every_prefix_form() {
    let two = ["7g7f", "3c3d"];
    let cases: &[(&str, &str, &[&str])] = &[
        ("position startpos moves 7g7f 3c3d", START, &two),
        ("startpos moves 7g7f 3c3d", START, &two),
        ("moves 7g7f 3c3d", START, &two),
        ("startpos", START, &[]),
        ("position startpos", START, &[]),
        (
            &format!("position sfen {START} moves 7g7f 3c3d"),
            START,
            &two,
        ),
        (&format!("sfen {START} moves 7g7f 3c3d"), START, &two),
        (&format!("{START} moves 7g7f 3c3d"), START, &two),
        (&format!("sfen {START}"), START, &[]),
        (START, START, &[]),
        (
            "  position   startpos\tmoves  7g7f   3c3d  \r\n",
            START,
            &two,
        ),
        ("\u{feff}startpos moves 7g7f 3c3d", START, &two),
        // SFEN without hand or move number
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b moves 7g7f 3c3d",
            START,
            &two,
        ),
        // A handicap position, White to move
        (
            "sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d",
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            &["3c3d"],
        ),
        // Pieces in hand and a drop
        (
            "sfen 4k4/9/9/9/9/9/9/9/4K4 b 2G 1 moves G*5b",
            "4k4/9/9/9/9/9/9/9/4K4 b 2G 1",
            &["G*5b"],
        ),
    ];
    for (text, sfen, moves) in cases {
        let p = usi::read(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(p.warnings.is_empty(), "{text}: {:?}", p.warnings);
        assert_eq!(p.record.initial.position.to_sfen(), *sfen, "{text}");
        assert_eq!(main_usi(&p.record), *moves, "{text}");
        assert!(usi::looks_like(text), "{text}");
    }
}

#[test]
fn several_lines_take_the_first_or_its_continuation() {
    let p = usi::read("not usi\nstartpos moves 7g7f\nstartpos moves 7g7f 3c3d 2g2f\n").unwrap();
    assert_eq!(main_usi(&p.record), ["7g7f", "3c3d", "2g2f"]);
    // A later line that is another game does not replace the first.
    let p = usi::read("startpos moves 7g7f\nstartpos moves 2g2f 8c8d\n").unwrap();
    assert_eq!(main_usi(&p.record), ["7g7f"]);
}

#[test]
fn illegal_moves_are_kept_bad_ones_stop_with_line_and_token() {
    // An illegal move is kept with a warning, as the KIF and CSA readers keep it.
    let p = usi::read("\nposition startpos moves 7g7f 3c3d 7f7e 3d3e 7e7a 4a3b\n").unwrap();
    assert_eq!(
        main_usi(&p.record),
        ["7g7f", "3c3d", "7f7e", "3d3e", "7e7a", "4a3b"]
    );
    assert_eq!(p.warnings.len(), 1);
    let w = &p.warnings[0];
    assert_eq!((w.line, w.kind), (2, DiagKind::IllegalMove));
    assert!(w.message.contains("token 8"), "{w}");
    // A move that cannot be played at all (no piece there) stops the line.
    let p = usi::read("startpos moves 7g7f 7g7f 3c3d").unwrap();
    assert_eq!(main_usi(&p.record), ["7g7f"]);
    assert_eq!(p.warnings[0].kind, DiagKind::ImpossibleMove);
    assert!(
        p.warnings[0].message.contains("token 4"),
        "{}",
        p.warnings[0]
    );
    let p = usi::read("startpos moves 7g7f xyz 3c3d").unwrap();
    assert_eq!(main_usi(&p.record), ["7g7f"]);
    assert_eq!(p.warnings[0].kind, DiagKind::BadMove);
    assert!(
        p.warnings[0].message.contains("token 4"),
        "{}",
        p.warnings[0]
    );
    // 二歩: kept, with the reason.
    let p = usi::read("sfen 4k4/9/9/9/9/9/4P4/9/4K4 b P 1 moves P*5e").unwrap();
    assert_eq!(main_usi(&p.record), ["P*5e"]);
    assert!(p.warnings[0].message.contains("二歩"), "{}", p.warnings[0]);
}

#[test]
fn invalid_text_is_a_diagnostic_at_the_line() {
    for (text, line) in [
        ("", 0),
        ("\n\nhello world\n", 3),
        ("sfen", 1),
        ("sfen lnsgkgsnl/9 b - 1", 1),
        (
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
            1,
        ),
        ("startpos 7g7f", 1),
        ("position", 1),
    ] {
        let e = usi::read(text)
            .err()
            .unwrap_or_else(|| panic!("{text:?} read"));
        assert_eq!(e.line, line, "{text:?}: {e}");
    }
}

#[test]
fn writers() {
    let p = usi::read("startpos moves 7g7f 3c3d").unwrap();
    let r = &p.record;
    let last = *r.main_line().last().unwrap();
    assert_eq!(
        usi::position_command(r, last),
        "position startpos moves 7g7f 3c3d"
    );
    assert_eq!(usi::position_command(r, NodeId::ROOT), "position startpos");
    assert_eq!(usi::sfen_at(r, NodeId::ROOT), START);
    let p = usi::read("sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b 5a5b").unwrap();
    let r = &p.record;
    let line = r.main_line();
    assert_eq!(
        usi::position_command(r, line[1]),
        "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b"
    );
    assert_eq!(usi::sfen_at(r, line[2]), "9/4k4/9/9/9/9/9/9/4K4 b g 3");
}

use crate::common;
use common::corpus;

/// Every generated record (read from its KI2 file) keeps its initial position and main line
/// through USI.
#[test]
fn corpus_main_lines_round_trip() {
    let Some(root) = corpus() else { return };
    let mut n = 0;
    let mut entries: Vec<PathBuf> = std::fs::read_dir(root.join("generated"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ki2"))
        .collect();
    entries.sort();
    for f in entries {
        let text = decode(&std::fs::read(&f).unwrap(), TextEncoding::ShiftJis).text;
        let r = ki2::read(&text).record;
        let w = usi::write(&r);
        let back = usi::read(&w.text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(
            back.warnings.is_empty(),
            "{}: {:?}",
            f.display(),
            back.warnings
        );
        assert_eq!(
            back.record.initial.position.to_sfen(),
            r.initial.position.to_sfen(),
            "{}",
            f.display()
        );
        assert_eq!(main_usi(&back.record), main_usi(&r), "{}", f.display());
        n += 1;
    }
    assert!(n >= 60, "{n}");
}

#[test]
fn fixture_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/usi");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        // First line: `# moves N` or `# error LINE`.
        let head = text.lines().next().unwrap();
        let body: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
        let mut it = head.trim_start_matches("# ").split(' ');
        let (what, n) = (
            it.next().unwrap(),
            it.next().unwrap().parse::<usize>().unwrap(),
        );
        match what {
            "moves" => {
                let p = usi::read(&body).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                assert_eq!(main_usi(&p.record).len(), n, "{}", f.display());
            }
            _ => {
                let e = usi::read(&body).err().unwrap();
                assert_eq!(e.line, n, "{}: {e}", f.display());
            }
        }
    }
}
