//! KIF reader/writer: the corpus against its expected JSON, fixture folders, round trips and a
//! property test on random trees.

use kifview::core::notation::{self, DiagKind, Parsed, kif};
use kifview::core::record::{MoveData, MoveTime, NodeId, Record, Special, Step};
use kifview::core::rules::Position;
use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

use crate::common::{self, norm_comment};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kif")
}

fn files_with_ext(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.contains(&x))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Compares the line of nodes starting at `id` with an expected JSON line; returns the first
/// difference.
fn compare_line(
    r: &Record,
    first: Option<NodeId>,
    exp: &Value,
    times: bool,
    path: &str,
) -> Result<(), String> {
    let exp = exp.as_array().cloned().unwrap_or_default();
    let mut cur = first;
    for (i, e) in exp.iter().enumerate() {
        let here = format!("{path}[{i}]");
        let Some(id) = cur else {
            return Err(format!(
                "{here}: line ends early (expected {} nodes)",
                exp.len()
            ));
        };
        let n = r.node(id);
        if n.ply as u64 != e["ply"].as_u64().unwrap_or(0) {
            return Err(format!("{here}: ply {} vs {}", n.ply, e["ply"]));
        }
        let (usi, special) = match &n.step {
            Step::Move(m) => (Some(m.mv.usi()), None),
            Step::Special(s) => (None, Some(s.json_name())),
            Step::Root => (None, None),
        };
        if usi.as_deref() != e["usi"].as_str() || special.as_deref() != e["special"].as_str() {
            return Err(format!(
                "{here}: got {usi:?}/{special:?}, expected {}/{}",
                e["usi"], e["special"]
            ));
        }
        let c = norm_comment(&n.comment);
        let ec = norm_comment(e["comment"].as_str().unwrap_or(""));
        if c != ec {
            return Err(format!("{here}: comment {c:?} vs {ec:?}"));
        }
        if times {
            let t = n.time.map(|t| t.spent_ms / 1000);
            if t != e["time"].as_u64() {
                return Err(format!("{here}: time {t:?} vs {}", e["time"]));
            }
        }
        let vars = e["variations"].as_array().cloned().unwrap_or_default();
        let sibs = match n.parent {
            Some(p) if r.node(p).children.first() == Some(&id) => r.node(p).children.to_vec(),
            _ => vec![id],
        };
        if sibs.len() != vars.len() + 1 {
            return Err(format!(
                "{here}: {} branches vs {} expected",
                sibs.len(),
                vars.len() + 1
            ));
        }
        for (k, v) in vars.iter().enumerate() {
            compare_line(r, Some(sibs[k + 1]), v, times, &format!("{here}.var{k}"))?;
        }
        cur = n.children.first().copied();
    }
    if let Some(id) = cur {
        return Err(format!(
            "{path}: extra node {:?} after the expected end",
            r.node(id).step
        ));
    }
    Ok(())
}

fn compare(r: &Record, e: &Value, times: bool) -> Result<(), String> {
    let sfen = r.initial.position.to_sfen();
    if Some(sfen.as_str()) != e["initial_sfen"].as_str() {
        return Err(format!("initial {sfen} vs {}", e["initial_sfen"]));
    }
    let b = r.header.black_name().unwrap_or("");
    let w = r.header.white_name().unwrap_or("");
    if Some(b) != e["players"]["black"].as_str() || Some(w) != e["players"]["white"].as_str() {
        return Err(format!("players {b:?}/{w:?} vs {}", e["players"]));
    }
    let rc = norm_comment(&r.node(NodeId::ROOT).comment);
    let ec = norm_comment(e["tree"]["comment"].as_str().unwrap_or(""));
    if rc != ec {
        return Err(format!("root comment {rc:?} vs {ec:?}"));
    }
    let first = r.node(NodeId::ROOT).children.first().copied();
    // Root-level variations appear as variations of the first main-line node.
    compare_line(r, first, &e["tree"]["moves"], times, "moves")
}

/// Expected files whose reference reading is wrong, and what to do with them.
#[derive(Clone, Copy, PartialEq)]
enum Quirk {
    /// Shogidokoro writes times as `(00:31 / 00:00:31)`; the reference reader's time pattern
    /// does not allow the spaces around '/', so it reads 0 s for every move. kifview reads the
    /// times the file states; compare everything else.
    ShogidokoroTimes,
    /// Move 5 of a variation is `４二銀(31)` for Black: Black moving White's silver. The reference
    /// reader plays it anyway; kifview reports an impossible move and skips the rest of that
    /// line of play (checked in `fork_test_kif_skips_the_impossible_move`).
    OpponentPieceMoved,
}

const KNOWN_WRONG: &[(&str, Quirk)] = &[
    (
        "json-kifu-format/test/files/kif/shogidokoro.kifu",
        Quirk::ShogidokoroTimes,
    ),
    ("Kifuwarabe[shogidokoro].kifu", Quirk::ShogidokoroTimes),
    (
        "kif-parser/docs/examples/comment[handmade].kifu",
        Quirk::ShogidokoroTimes,
    ),
    (
        "shogi-kifu-converter/data/tests/kif/Shogidokoro.kif",
        Quirk::ShogidokoroTimes,
    ),
    (
        "shogi-kifu-converter/data/tests/kif/Shogidokoro.kifu",
        Quirk::ShogidokoroTimes,
    ),
    (
        "json-kifu-format/test/files/kif/fork-test.kif",
        Quirk::OpponentPieceMoved,
    ),
];

fn quirk(path: &Path) -> Option<Quirk> {
    let s = path.to_string_lossy();
    KNOWN_WRONG
        .iter()
        .find(|(f, _)| s.ends_with(f))
        .map(|&(_, q)| q)
}

struct Case {
    file: PathBuf,
    expected: Value,
    times: bool,
}

fn kif_cases(dir: &Path) -> Vec<Case> {
    let mut out = Vec::new();
    for p in files_with_ext(&dir.join("generated"), &["json"]) {
        let e: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        for (fname, info) in e["files"].as_object().unwrap() {
            if info["format"] != "kif" {
                continue;
            }
            let times = e["has_times"].as_bool().unwrap_or(false)
                && info["has_times"].as_bool().unwrap_or(false);
            out.push(Case {
                file: dir.join("generated").join(fname),
                expected: e.clone(),
                times,
            });
        }
    }
    for f in files_with_ext(&dir.join("real"), &["kif", "kifu"]) {
        let j = PathBuf::from(format!("{}.expected.json", f.display()));
        let Ok(text) = std::fs::read_to_string(&j) else {
            continue;
        };
        let e: Value = serde_json::from_str(&text).unwrap();
        out.push(Case {
            file: f,
            times: e["has_times"].as_bool().unwrap_or(false),
            expected: e,
        });
    }
    out
}

fn load(path: &Path) -> Parsed {
    let bytes = std::fs::read(path).unwrap();
    notation::load(&bytes, Some(path)).records.remove(0)
}

/// Everything a KIF round trip must keep.
fn same_record(a: &Record, b: &Record) -> Result<(), String> {
    if a.initial != b.initial {
        return Err(format!("initial {:?} vs {:?}", a.initial, b.initial));
    }
    if a.header != b.header {
        return Err(format!("header {:?} vs {:?}", a.header, b.header));
    }
    let pa = a.preorder();
    let pb = b.preorder();
    if pa.len() != pb.len() {
        return Err(format!("{} nodes vs {}", pa.len(), pb.len()));
    }
    for (&x, &y) in pa.iter().zip(&pb) {
        let (nx, ny) = (a.node(x), b.node(y));
        if nx.step != ny.step
            || nx.ply != ny.ply
            || nx.comment != ny.comment
            || nx.bookmark != ny.bookmark
            || nx.time != ny.time
            || nx.children.len() != ny.children.len()
        {
            return Err(format!("node {x:?}: {nx:?} vs {ny:?}"));
        }
    }
    Ok(())
}

#[test]
fn corpus_kif_files_read_to_their_expected_json() {
    let Some(dir) = common::corpus() else {
        eprintln!("skipping: shared corpus not found");
        return;
    };
    let cases = kif_cases(&dir);
    let mut failures = Vec::new();
    for c in &cases {
        let p = load(&c.file);
        let times = match quirk(&c.file) {
            Some(Quirk::OpponentPieceMoved) => continue,
            Some(Quirk::ShogidokoroTimes) => false,
            None => c.times,
        };
        if let Err(d) = compare(&p.record, &c.expected, times) {
            failures.push(format!("{}: {d}", c.file.display()));
        }
    }
    eprintln!(
        "corpus KIF: {}/{} files match",
        cases.len() - failures.len(),
        cases.len()
    );
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    assert!(cases.len() > 100, "only {} KIF files found", cases.len());
    assert!(failures.is_empty(), "{} mismatches", failures.len());
}

#[test]
fn corpus_kif_files_round_trip_through_the_writer() {
    let Some(dir) = common::corpus() else {
        eprintln!("skipping: shared corpus not found");
        return;
    };
    let mut failures = Vec::new();
    let cases = kif_cases(&dir);
    for c in &cases {
        let first = load(&c.file).record;
        let w = kif::write(&first, &kif::KifOptions::default());
        let back = kif::read(&w.text);
        if !back
            .warnings
            .iter()
            .all(|w| w.kind == DiagKind::IllegalMove)
        {
            failures.push(format!(
                "{}: warnings on re-read {:?}",
                c.file.display(),
                back.warnings
            ));
        }
        if let Err(d) = same_record(&first, &back.record) {
            failures.push(format!("{}: {d}", c.file.display()));
        }
        // Writing again gives the same text.
        let w2 = kif::write(&back.record, &kif::KifOptions::default());
        if w2.text != w.text {
            failures.push(format!("{}: second write differs", c.file.display()));
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} round-trip failures",
        failures.len()
    );
}

// ---------------------------------------------------------------------------------------------
// Fixtures

fn read_file(path: &Path) -> Parsed {
    load(path)
}

#[test]
fn every_valid_fixture_reads_without_warnings_and_round_trips() {
    let files = files_with_ext(&fixtures().join("valid"), &["kif", "kifu"]);
    assert!(files.len() >= 10, "valid fixtures missing");
    for f in files {
        let p = read_file(&f);
        assert!(p.warnings.is_empty(), "{}: {:?}", f.display(), p.warnings);
        assert!(
            p.record.len() > 1 || f.to_string_lossy().contains("tsume"),
            "{}: no moves",
            f.display()
        );
        let w = kif::write(&p.record, &kif::KifOptions::default());
        let back = kif::read(&w.text);
        assert!(
            back.warnings.is_empty(),
            "{}: {:?}\n{}",
            f.display(),
            back.warnings,
            w.text
        );
        same_record(&p.record, &back.record)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", f.display(), w.text));
    }
}

#[test]
fn every_invalid_fixture_reports_its_kind_at_its_line() {
    let files = files_with_ext(&fixtures().join("invalid"), &["kif", "kifu"]);
    assert!(files.len() >= 15, "invalid fixtures missing");
    for f in files {
        // NAME.KIND.LINE.kifu
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let parts: Vec<&str> = name.split('.').collect();
        assert_eq!(
            parts.len(),
            4,
            "fixture name {name} is not NAME.KIND.LINE.ext"
        );
        let (kind, line): (&str, usize) = (parts[1], parts[2].parse().unwrap());
        let p = read_file(&f);
        assert!(
            p.warnings
                .iter()
                .any(|w| format!("{:?}", w.kind) == kind && w.line == line),
            "{name}: expected {kind} at line {line}, got {:?}",
            p.warnings
        );
        for w in &p.warnings {
            assert!(!w.message.is_empty());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading rules, one by one

fn usi_line(r: &Record, from: NodeId) -> Vec<String> {
    r.line_from(from)
        .into_iter()
        .skip(1)
        .map(|id| match &r.node(id).step {
            Step::Move(m) => m.mv.usi(),
            Step::Special(s) => s.json_name(),
            Step::Root => String::new(),
        })
        .collect()
}

fn main_usi(text: &str) -> Vec<String> {
    let p = kif::read(text);
    assert!(p.warnings.is_empty(), "{text}: {:?}", p.warnings);
    usi_line(&p.record, NodeId::ROOT)
}

#[test]
fn header_colons_names_and_trailing_spaces() {
    let p = kif::read("先手：黒\n後手:白\n手合割：平手　　\n棋戦：テスト\n");
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let r = &p.record;
    assert_eq!(r.header.black_name(), Some("黒"));
    assert_eq!(r.header.white_name(), Some("白"));
    assert_eq!(
        r.header.get("手合割"),
        None,
        "手合割 is the initial position, not a header"
    );
    let keys: Vec<&str> = r.header.fields.iter().map(|f| f.key.as_str()).collect();
    assert_eq!(keys, ["先手", "後手", "棋戦"]);
    assert_eq!(r.initial.handicap.map(|h| h.name), Some("平手"));
    let p = kif::read("下手：下\n上手：上\n手合割：角落ち\n");
    assert_eq!(p.record.header.black_name(), Some("下"));
    assert_eq!(p.record.header.white_name(), Some("上"));
    assert_eq!(
        p.record.initial.position.to_sfen(),
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
}

#[test]
fn no_handicap_and_no_diagram_is_even() {
    let p = kif::read("先手：a\n   1 ７六歩(77)\n");
    assert_eq!(p.record.initial.position, Position::startpos());
}

#[test]
fn same_square_spellings() {
    for same in ["同　歩(37)", "同歩(37)", "同 歩(37)", "同　　歩(37)"] {
        let text = format!(
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ３五歩(34)\n   5 ２五歩(26)\n   6 ３六歩(35)\n   7 {same}\n"
        );
        assert_eq!(main_usi(&text)[6], "3g3f");
    }
}

#[test]
fn digit_styles_in_squares() {
    for m in [
        "７六歩(77)",
        "7六歩(77)",
        "76歩(77)",
        "七六歩(77)",
        "７６歩(７７)",
    ] {
        assert_eq!(main_usi(&format!("   1 {m}\n")), ["7g7f"], "{m}");
    }
}

#[test]
fn piece_spellings_promotions_and_drops() {
    let base = "   1 ７六歩(77)\n   2 ３四歩(33)\n";
    assert_eq!(main_usi(&format!("{base}   3 ２二角成(88)\n"))[2], "8h2b+");
    assert_eq!(main_usi(&format!("{base}   3 ２二角不成(88)\n"))[2], "8h2b");
    let drop = format!("{base}   3 ２二角成(88)\n   4 同　銀(31)\n   5 ５五角打\n");
    assert_eq!(main_usi(&drop)[4], "B*5e");
    let drop00 = format!("{base}   3 ２二角成(88)\n   4 同　銀(31)\n   5 ５五角打(00)\n");
    assert_eq!(main_usi(&drop00)[4], "B*5e");
    let king = "   1 ６八王(59)\n   2 ４二玉(51)\n";
    assert_eq!(main_usi(king), ["5i6h", "5a4b"]);
    // 竜/龍, 全/成銀, 圭/成桂, 杏/成香 on a custom board.
    let board = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| 龍 ・ 竜 ・ ・ ・ ・ ・ ・|八\n| 全 圭 杏 ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：なし\n";
    for (mv, usi) in [
        ("９七竜(98)", "9h9g"),
        ("７七龍(78)", "7h7g"),
        ("８八成桂(89)", "8i8h"),
        ("８八圭(89)", "8i8h"),
        ("６八成香(79)", "7i6h"),
        ("６八杏(79)", "7i6h"),
        ("９八全(99)", "9i9h"),
    ] {
        let text = format!("{board}   1 {mv}\n");
        if mv.starts_with("９八") {
            // 9h holds the dragon: move it first.
            let text = format!("{board}   1 ９七龍(98)\n   2 ５二玉(51)\n   3 {mv}\n");
            assert_eq!(main_usi(&text)[2], usi, "{mv}");
            continue;
        }
        assert_eq!(main_usi(&text), [usi], "{mv}");
    }
}

#[test]
fn time_formats() {
    let times = |text: &str| -> Vec<(u64, Option<u64>)> {
        let p = kif::read(text);
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        p.record
            .main_line()
            .into_iter()
            .skip(1)
            .map(|id| {
                let t = p.record.node(id).time.unwrap();
                (t.spent_ms / 1000, t.total_ms.map(|x| x / 1000))
            })
            .collect()
    };
    assert_eq!(
        times(
            "   1 ７六歩(77)   ( 0:16/00:00:16)\n   2 ３四歩(33)   (125:30/02:05:30)\n   3 ２六歩(27)   ( 0:03/ 0:00:19)\n   4 ８四歩(83)   (00:00/00:00:00)\n"
        ),
        [
            (16, Some(16)),
            (7530, Some(7530)),
            (3, Some(19)),
            (0, Some(0))
        ]
    );
    assert_eq!(times("1 ７六歩(77) ( 0:01/00:00:01)\n"), [(1, Some(1))]);
    let p = kif::read("   1 ７六歩(77)\n");
    assert_eq!(p.record.node(p.record.main_line()[1]).time, None);
}

#[test]
fn trailing_plus_and_result_lines_are_not_moves() {
    assert_eq!(
        main_usi(
            "   1 ７六歩(77)   ( 0:01/00:00:01)+\n   2 投了   ( 0:01/00:00:01)\nまで1手で先手の勝ち\n"
        ),
        ["7g7f", "resign"]
    );
}

#[test]
fn every_special_ending_word() {
    for (w, name) in [
        ("投了", "resign"),
        ("中断", "interrupt"),
        ("千日手", "repetitionDraw"),
        ("持将棋", "impass"),
        ("詰み", "mate"),
        ("詰", "mate"),
        ("不詰", "noMate"),
        ("切れ負け", "timeout"),
        ("反則勝ち", "foulWin"),
        ("反則負け", "foulLose"),
        ("入玉勝ち", "enteringOfKing"),
        ("封じ手", "other:封じ手"),
    ] {
        assert_eq!(
            main_usi(&format!("   1 ７六歩(77)\n   2 {w}\n")),
            ["7g7f", name],
            "{w}"
        );
    }
}

#[test]
fn comments_bookmarks_and_program_lines_go_where_they_belong() {
    let p = kif::read(
        "#head\n*root 1\n手数----指手---------消費時間--\n*root 2\n   1 ７六歩(77)\n*one\n**two\n&mark\n#mid\n   2 投了\n*end\n",
    );
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let r = &p.record;
    let m = r.main_line();
    assert_eq!(r.node(m[0]).comment, "root 1\nroot 2");
    assert_eq!(r.node(m[1]).comment, "one\n*two");
    assert_eq!(r.node(m[1]).bookmark.as_deref(), Some("mark"));
    assert_eq!(r.node(m[2]).comment, "end");
    // A `#` line of the head is the record's; among the moves, a remark of the move before.
    assert_eq!(r.program_lines, ["#head"]);
    assert_eq!(r.node(m[1]).remarks, ["mid"]);
}

#[test]
fn crlf_and_bom() {
    assert_eq!(main_usi("\u{feff}先手：a\r\n   1 ７六歩(77)\r\n"), ["7g7f"]);
    let p = kif::read("\u{feff}先手：a\r\n");
    assert_eq!(p.record.header.fields[0].key, "先手");
    assert_eq!(p.record.header.fields[0].value, "a");
}

#[test]
fn variations_branch_off_the_last_line_read() {
    let text = "   1 ７六歩(77)+\n   2 ３四歩(33)+\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)+\n   3 ６八銀(79)\n\n変化：2手\n   2 ５四歩(53)\n\n変化：1手\n   1 ２六歩(27)\n";
    let p = kif::read(text);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let r = &p.record;
    let root = r.node(NodeId::ROOT);
    assert_eq!(root.children.len(), 2);
    let first = root.children[0];
    let at2: Vec<String> = r
        .node(first)
        .children
        .iter()
        .map(|&c| r.node(c).move_data().unwrap().mv.usi())
        .collect();
    assert_eq!(at2, ["3c3d", "8c8d", "5c5d"]);
    assert_eq!(usi_line(r, r.node(first).children[1]), ["7i6h"]);
}

#[test]
fn diagram_wins_over_handicap_line_in_either_order() {
    let board = std::fs::read_to_string(fixtures().join("valid/board-diagram.kifu")).unwrap();
    let diagram: String = board
        .lines()
        .take_while(|l| !l.starts_with("手数"))
        .map(|l| format!("{l}\n"))
        .collect();
    let a = kif::read(&format!("手合割：平手\n{diagram}"));
    let b = kif::read(&format!("{diagram}手合割：平手\n"));
    assert!(a.warnings.is_empty() && b.warnings.is_empty());
    assert_eq!(a.record.initial, b.record.initial);
    assert_eq!(a.record.initial.handicap, None);
    assert_eq!(
        a.record.initial.position.side_to_move(),
        kifview::core::rules::Color::White
    );
}

#[test]
fn tsume_names_without_a_diagram() {
    use kifview::core::rules::{double_king_tsume_position, tsume_position};
    assert_eq!(
        kif::read("手合割：詰将棋\n").record.initial.position,
        tsume_position()
    );
    assert_eq!(
        kif::read("手合割：双玉詰将棋\n").record.initial.position,
        double_king_tsume_position()
    );
}

#[test]
fn a_bad_line_of_play_is_skipped_until_the_next_variation() {
    let p = kif::read(
        "   1 ７六歩(77)+\n   2 ３四犬(33)\n   3 ２六歩(27)\n*lost\n\n変化：1手\n   1 ５六歩(57)\n   2 ５四歩(53)\n",
    );
    let kinds: Vec<(usize, DiagKind)> = p.warnings.iter().map(|w| (w.line, w.kind)).collect();
    assert_eq!(kinds, [(2, DiagKind::BadMove)]);
    let r = &p.record;
    assert_eq!(usi_line(r, NodeId::ROOT), ["7g7f"]);
    assert_eq!(usi_line(r, r.node(NodeId::ROOT).children[1]), ["5c5d"]);
    assert!(r.nodes.iter().all(|n| n.comment != "lost"));
}

// ---------------------------------------------------------------------------------------------
// Writer

#[test]
fn writer_layout() {
    let p = kif::read(
        "#KIF version=2.0 encoding=Shift_JIS\n# ---- Kifu for Windows ----\n先手：a\n*root\n   1 ７六歩(77)   ( 0:16/00:00:16)+\n&bm\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 投了   ( 0:05/00:00:21)\n\n変化：1手\n   1 ２六歩(27)   ( 0:02/00:00:02)\n",
    );
    let w = kif::write(&p.record, &kif::KifOptions::utf8_kif());
    assert_eq!(
        w.text,
        "#KIF version=2.0 encoding=UTF-8\n# ---- Kifu for Windows ----\n先手：a\n手合割：平手\n手数----指手---------消費時間--\n*root\n   1 ７六歩(77)   ( 0:16/00:00:16)+\n&bm\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 投了         ( 0:05/00:00:21)\nまで2手で後手の勝ち\n\n変化：1手\n   1 ２六歩(27)   ( 0:02/00:00:02)\n"
    );
    assert!(w.losses.is_empty());
    // Default options write no encoding line and drop stale ones.
    let w = kif::write(&p.record, &kif::KifOptions::default());
    assert!(!w.text.contains("encoding="));
}

#[test]
fn writer_custom_position_white_to_move() {
    let text = std::fs::read_to_string(fixtures().join("valid/board-diagram.kifu")).unwrap();
    let p = kif::read(&text);
    let w = kif::write(&p.record, &kif::KifOptions::default());
    assert!(w.text.contains("後手の持駒：飛　歩　\n"), "{}", w.text);
    assert!(
        w.text.contains("| 龍 ・ ・ ・ ・ ・ ・ ・ ・|八\n"),
        "{}",
        w.text
    );
    assert!(
        w.text.contains("先手の持駒：歩十七　\n後手番\n手数----"),
        "{}",
        w.text
    );
    assert!(!w.text.contains("手合割"));
}

// ---------------------------------------------------------------------------------------------
// Property: read(write(x)) == x on random trees

const TRICKY_LINES: &[&str] = &[
    "",
    "*",
    "**double",
    "#not a program line",
    "変化：3手",
    "まで9手で先手の勝ち",
    "先手：x",
    "手合割：香落ち",
    "&not a bookmark",
    "   1 ７六歩(77)   ( 0:01/00:00:01)",
    "  leading spaces",
    "trailing spaces  ",
    "全角　スペース",
    "|v香v桂 ・ ・ ・ ・ ・ ・ ・|一",
    "plain ASCII",
];

fn special_choices() -> Vec<Special> {
    let mut v = Special::menu();
    v.push(Special::Other("封じ手".into()));
    v
}

#[derive(Debug, Clone)]
struct Plan {
    initial: usize,
    ops: Vec<(u8, u16, u16)>,
    comments: Vec<(u16, Vec<usize>)>,
    bookmarks: Vec<(u16, u8)>,
    headers: Vec<(u8, u8)>,
    times: bool,
    programs: u8,
}

fn plan() -> impl Strategy<Value = Plan> {
    (
        0usize..5,
        prop::collection::vec((0u8..12, any::<u16>(), any::<u16>()), 0..120),
        prop::collection::vec(
            (
                any::<u16>(),
                prop::collection::vec(0usize..TRICKY_LINES.len(), 1..4),
            ),
            0..8,
        ),
        prop::collection::vec((any::<u16>(), 0u8..4), 0..3),
        prop::collection::vec((0u8..6, 0u8..4), 0..5),
        any::<bool>(),
        0u8..3,
    )
        .prop_map(
            |(initial, ops, comments, bookmarks, headers, times, programs)| Plan {
                initial,
                ops,
                comments,
                bookmarks,
                headers,
                times,
                programs,
            },
        )
}

fn build(plan: &Plan) -> Record {
    use kifview::core::record::Initial;
    use kifview::core::rules::{HANDICAPS, Handicap};
    let initial = match plan.initial {
        0 => Initial::even(),
        1 => Initial {
            position: HANDICAPS[6].position(),
            handicap: Some(HANDICAPS[6]),
        },
        2 => Initial {
            position: Handicap::by_name("右七枚落ち").unwrap().position(),
            handicap: Handicap::by_name("右七枚落ち"),
        },
        3 => Initial {
            position: Position::from_sfen(
                "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w rb 1",
            )
            .unwrap(),
            handicap: None,
        },
        _ => Initial {
            position: Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1").unwrap(),
            handicap: None,
        },
    };
    let mut r = Record::new(initial);
    let specials = special_choices();
    let mut positions = vec![r.initial.position.clone()];
    for &(kind, a, b) in &plan.ops {
        // Mostly extend the newest node (deep lines), sometimes branch anywhere.
        let last = NodeId((r.nodes.len() - 1) as u32);
        let parent = if kind >= 4 && r.node(last).special().is_none() {
            last
        } else {
            NodeId((a as usize % r.nodes.len()) as u32)
        };
        if r.node(parent).special().is_some() {
            continue;
        }
        let pos = positions[parent.index()].clone();
        let step = if kind == 0 {
            Step::Special(specials[b as usize % specials.len()].clone())
        } else {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                Step::Special(Special::Mate)
            } else {
                let mv = moves[b as usize % moves.len()];
                if r.find_move_child(parent, mv).is_some() {
                    continue;
                }
                let mut next = pos.clone();
                let played = next.play(mv).unwrap();
                positions.push(next);
                let md = MoveData {
                    mv,
                    color: pos.side_to_move(),
                    piece: played.piece,
                    captured: played.captured,
                };
                let id = r.push_child(parent, Step::Move(md));
                assert_eq!(id.index() + 1, positions.len());
                continue;
            }
        };
        if r.node(parent)
            .children
            .iter()
            .any(|&c| r.node(c).step == step)
        {
            continue;
        }
        r.push_child(parent, step);
        positions.push(pos);
    }
    for (at, lines) in &plan.comments {
        let id = NodeId((*at as usize % r.nodes.len()) as u32);
        let text: Vec<&str> = lines.iter().map(|&i| TRICKY_LINES[i]).collect();
        r.node_mut(id).comment = text.join("\n");
        if r.node(id).comment.is_empty() {
            continue;
        }
    }
    for (at, k) in &plan.bookmarks {
        let id = NodeId((*at as usize % r.nodes.len()) as u32);
        r.node_mut(id).bookmark = Some(["開始局面", "基本図", "x", "&&"][*k as usize].to_string());
    }
    let keys = ["先手", "後手", "棋戦", "備考", "Rating", "開始日時"];
    let values = ["名人", "", "A  B", "2024/01/01 10:00"];
    for &(k, v) in &plan.headers {
        r.header.set(keys[k as usize], values[v as usize]);
    }
    for i in 0..plan.programs {
        r.program_lines.push(format!("# program line {i}"));
    }
    if plan.times {
        let mut totals = vec![0u64; r.nodes.len()];
        for id in r.preorder().into_iter().skip(1) {
            let n = r.node(id);
            let spent = u64::from(n.ply * 7919 % 4000) * 1000;
            let g = n
                .parent
                .and_then(|p| r.node(p).parent)
                .map_or(0, |g| totals[g.index()]);
            totals[id.index()] = g + spent;
            r.node_mut(id).time = Some(MoveTime {
                spent_ms: spent,
                total_ms: Some(g + spent),
            });
        }
    }
    r
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn random_trees_round_trip(p in plan()) {
        let r = build(&p);
        let w = kif::write(&r, &kif::KifOptions::default());
        let back = kif::read(&w.text);
        prop_assert!(back.warnings.is_empty(), "{:?}\n{}", back.warnings, w.text);
        if let Err(e) = same_record(&r, &back.record) {
            prop_assert!(false, "{e}\n{}", w.text);
        }
        prop_assert_eq!(&r.program_lines, &back.record.program_lines);
        prop_assert_eq!(r.node(NodeId::ROOT).bookmark.clone(), back.record.node(NodeId::ROOT).bookmark.clone());
    }
}

const FRAGMENTS: &[&str] = &[
    "   1 ",
    "  12 ",
    "0 ",
    "４294967296 ",
    "99999999999999999999 ",
    "７六歩(77)",
    "同　",
    "同",
    "歩",
    "成銀",
    "不成",
    "打",
    "(00)",
    "(7",
    "( 0:16/00:00:16)",
    "(:/)",
    "(99999999999999:99/)",
    "+",
    "投了",
    "*",
    "&",
    "#",
    "変化：",
    "変化：0手",
    "変化：3手",
    "手合割：",
    "詰将棋",
    "後手の持駒：",
    "歩4294967295",
    "十八",
    "なし",
    "|",
    "v香",
    " ・",
    "|一",
    "+---------------------------+",
    "後手番",
    "先手：",
    "まで",
    "手数----",
    "\r",
    "\n",
    "\u{feff}",
    "\u{3000}",
    " ",
    "x",
    "ｱ",
    "😀",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    /// Any text made of KIF-like pieces reads without panicking, and what it reads can be
    /// written and read again.
    #[test]
    fn garbage_never_panics(parts in prop::collection::vec(0usize..FRAGMENTS.len(), 0..80)) {
        let text: String = parts.iter().map(|&i| FRAGMENTS[i]).collect();
        let p = kif::read(&text);
        for w in &p.warnings {
            prop_assert!(!w.message.is_empty());
        }
        let _ = kifview::core::notation::bod::read_bod(&text);
        let w = kif::write(&p.record, &kif::KifOptions::default());
        let back = kif::read(&w.text);
        prop_assert_eq!(p.record.nodes.len(), back.record.nodes.len(), "{}", w.text);
    }
}

/// An ending word that ends with `+` (from CSA `%%39手----+`): a KIF move line loses a
/// trailing `+` (the mark of a move with alternatives), so the word read back was `39手----`
/// and the second write differed (found by kif_roundtrip in a longer run; the input is in
/// tests/fixtures/fuzz). It is named as lost and written as 中断, which reads back the same.
#[test]
fn an_ending_word_ending_with_plus_is_named_not_mangled() {
    let csa = "V2.2\nPI\n+\n+7776FU\n%%39手----+\n";
    let r = notation::csa::read(csa).swap_remove(0).record;
    let w = kif::write(&r, &kif::KifOptions::default());
    assert!(
        w.losses.iter().any(|l| l.to_string().contains("39手----+")),
        "{:?}",
        w.losses
    );
    assert!(w.text.contains("   2 中断\n"), "{}", w.text);
    let back = kif::read(&w.text);
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    let again = kif::write(&back.record, &kif::KifOptions::default());
    assert_eq!(again.text, w.text);
}
