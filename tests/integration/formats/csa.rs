//! CSA reader and writer against the shared corpus, the fixture folders, round trips and
//! random legal games.

use kifview::core::notation::csa::{self, CsaOptions, CsaVersion};
use kifview::core::notation::{DiagKind, TextEncoding, load};
use kifview::core::record::{Header, Initial, MoveData, MoveTime, NodeId, Record, Special, Step};
use kifview::core::rules::{HANDICAPS, Position, tsume_position};
use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

use crate::common::{self, norm_comment_lines};

fn norm_comment(c: &str) -> String {
    norm_comment_lines(c, true)
}

fn csa_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            csa_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "csa") {
            out.push(p);
        }
    }
}

fn corpus_csa_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(c) = common::corpus() {
        csa_files(&c.join("generated"), &mut v);
        csa_files(&c.join("real"), &mut v);
    }
    v
}

fn node_usi(r: &Record, id: NodeId) -> (Option<String>, Option<String>) {
    match &r.node(id).step {
        Step::Move(m) => (Some(m.mv.usi()), None),
        Step::Special(s) => (None, Some(s.json_name())),
        Step::Root => (None, None),
    }
}

/// Compares a parsed record with an expected JSON; returns the differences.
fn compare(r: &Record, exp: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let sfen = r.initial.position.to_sfen();
    if exp["initial_sfen"].as_str() != Some(sfen.as_str()) {
        diffs.push(format!("initial {sfen} != {}", exp["initial_sfen"]));
    }
    for (side, got) in [
        ("black", r.header.black_name()),
        ("white", r.header.white_name()),
    ] {
        let want = exp["players"][side].as_str().unwrap_or("");
        if got.unwrap_or("") != want {
            diffs.push(format!("{side} name {got:?} != {want:?}"));
        }
    }
    let root_c = norm_comment(&r.node(NodeId::ROOT).comment);
    let want_c = norm_comment(exp["tree"]["comment"].as_str().unwrap_or(""));
    if root_c != want_c {
        diffs.push(format!("root comment {root_c:?} != {want_c:?}"));
    }
    let has_times = exp["has_times"].as_bool().unwrap_or(false);
    let line = r.main_line();
    let moves = exp["tree"]["moves"].as_array().cloned().unwrap_or_default();
    if line.len() - 1 != moves.len() {
        diffs.push(format!(
            "main line has {} nodes, expected {}",
            line.len() - 1,
            moves.len()
        ));
    }
    for (i, (&id, m)) in line.iter().skip(1).zip(moves.iter()).enumerate() {
        let (usi, special) = node_usi(r, id);
        if usi.as_deref() != m["usi"].as_str() || special.as_deref() != m["special"].as_str() {
            diffs.push(format!(
                "ply {}: {usi:?}/{special:?} != {}/{}",
                i + 1,
                m["usi"],
                m["special"]
            ));
            break;
        }
        let c = norm_comment(&r.node(id).comment);
        let wc = norm_comment(m["comment"].as_str().unwrap_or(""));
        if c != wc {
            diffs.push(format!("ply {} comment {c:?} != {wc:?}", i + 1));
        }
        if has_times {
            let got = r.node(id).time.map(|t| t.spent_ms / 1000);
            if got != m["time"].as_u64() {
                diffs.push(format!("ply {} time {got:?} != {}", i + 1, m["time"]));
            }
        }
    }
    diffs
}

/// Differences where the expected JSON is wrong (see the CSA report).
fn known_wrong_expectation(f: &Path, diff: &str) -> bool {
    // The file is EUC-JP (`N-` is bb b3 c5 c4 be ad b4 fd = 山田将棋); the reference reader
    // decoded it as Shift_JIS and got half-width katakana.
    f.ends_with("2005_YAMADA_GPS.csa")
        && diff.starts_with("white name Some(\"山田将棋 Version 2.18")
}

#[test]
fn corpus_csa_files_read_as_expected() {
    let files = corpus_csa_files();
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in &files {
        let exp_path = PathBuf::from(format!("{}.expected.json", f.display()));
        let exp_path = if exp_path.exists() {
            exp_path
        } else {
            // generated: NAME.expected.json beside NAME.csa
            f.with_extension("expected.json")
        };
        let Ok(exp_text) = std::fs::read_to_string(&exp_path) else {
            continue;
        };
        let exp: Value = serde_json::from_str(&exp_text).expect("expected JSON parses");
        let bytes = std::fs::read(f).expect("read corpus file");
        let loaded = load(&bytes, Some(f));
        assert_eq!(loaded.records.len(), 1, "{}", f.display());
        let p = &loaded.records[0];
        // The reference reader drops plain `'` comments, which kifview keeps.
        let plain = common::plain_csa_comments(&common::read_file(f));
        let r = common::without_comment_lines(&p.record, &plain);
        let mut diffs = compare(&r, &exp);
        diffs.retain(|d| !known_wrong_expectation(f, d));
        for w in &p.warnings {
            if w.kind != DiagKind::Encoding {
                diffs.push(format!("warning {w}"));
            }
        }
        if !diffs.is_empty() {
            failures.push(format!("{}:\n  {}", f.display(), diffs.join("\n  ")));
        }
        checked += 1;
    }
    println!("{checked} corpus CSA files checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Compares what CSA carries: initial position, names, main line (moves and endings),
/// comments (without empty lines) and times (whole seconds, or exact milliseconds).
fn same_csa_content(a: &Record, b: &Record, exact_ms: bool) -> Result<(), String> {
    if a.initial.position.to_sfen() != b.initial.position.to_sfen() {
        return Err(format!(
            "initial {} != {}",
            a.initial.position.to_sfen(),
            b.initial.position.to_sfen()
        ));
    }
    if a.header.black_name() != b.header.black_name()
        || a.header.white_name() != b.header.white_name()
    {
        return Err(format!(
            "names {:?}/{:?} != {:?}/{:?}",
            a.header.black_name(),
            a.header.white_name(),
            b.header.black_name(),
            b.header.white_name()
        ));
    }
    let (la, lb) = (a.main_line(), b.main_line());
    if la.len() != lb.len() {
        return Err(format!("main line {} != {} nodes", la.len(), lb.len()));
    }
    for (i, (&x, &y)) in la.iter().zip(lb.iter()).enumerate() {
        let (nx, ny) = (a.node(x), b.node(y));
        if nx.step != ny.step {
            return Err(format!("ply {i}: {:?} != {:?}", nx.step, ny.step));
        }
        let strip = |c: &str| {
            c.split('\n')
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join("\n")
        };
        if strip(&nx.comment) != strip(&ny.comment) {
            return Err(format!(
                "ply {i}: comment {:?} != {:?}",
                nx.comment, ny.comment
            ));
        }
        let t = |n: &kifview::core::record::Node| {
            n.time.map(|t| {
                if exact_ms {
                    t.spent_ms
                } else {
                    t.spent_ms / 1000
                }
            })
        };
        if t(nx) != t(ny) {
            return Err(format!("ply {i}: time {:?} != {:?}", nx.time, ny.time));
        }
    }
    Ok(())
}

fn v3(encoding: TextEncoding) -> CsaOptions {
    CsaOptions {
        version: CsaVersion::V30,
        encoding,
    }
}

#[test]
fn corpus_csa_files_round_trip() {
    let files = corpus_csa_files();
    let mut failures = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).expect("read corpus file");
        let first = load(&bytes, Some(f)).records.remove(0);
        for opts in [CsaOptions::default(), v3(TextEncoding::ShiftJis)] {
            let written = csa::write(&first.record, &opts);
            let again = csa::read(&written.text);
            if again.len() != 1 {
                failures.push(format!(
                    "{}: {} records after writing",
                    f.display(),
                    again.len()
                ));
                continue;
            }
            if !again[0].warnings.is_empty() {
                failures.push(format!(
                    "{}: warnings after writing: {:?}",
                    f.display(),
                    again[0].warnings
                ));
            }
            if let Err(e) = same_csa_content(
                &first.record,
                &again[0].record,
                opts.version == CsaVersion::V30,
            ) {
                failures.push(format!("{} ({:?}): {e}", f.display(), opts.version));
            }
            let third = csa::write(&again[0].record, &opts);
            if third.text != written.text {
                failures.push(format!("{}: writing is not stable", f.display()));
            }
        }
    }
    println!("{} corpus CSA files round-tripped", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A random legal game from `initial` with comments, times and maybe an ending.
fn random_record(
    initial: Position,
    choices: &[u16],
    comments: &[(usize, String)],
    times: &[u64],
    ending: Option<usize>,
) -> Record {
    let mut r = Record::new(Initial {
        position: initial.clone(),
        handicap: None,
    });
    let mut pos = initial;
    let mut cur = NodeId::ROOT;
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[c as usize % moves.len()];
        let color = pos.side_to_move();
        let Ok(played) = pos.play(mv) else { break };
        cur = r.push_child(
            cur,
            Step::Move(MoveData {
                mv,
                color,
                piece: played.piece,
                captured: played.captured,
            }),
        );
    }
    if let Some(e) = ending {
        let endings = [
            Special::Resign,
            Special::Interrupt,
            Special::RepetitionDraw,
            Special::Impass,
            Special::Timeout,
            Special::FoulWin,
            Special::FoulLose,
            Special::EnteringKing,
            Special::MaxMoves,
            Special::Draw,
            Special::NoMate,
        ];
        r.push_child(cur, Step::Special(endings[e % endings.len()].clone()));
    }
    let n = r.nodes.len();
    for (i, c) in comments {
        r.nodes[i % n].comment = c.clone();
    }
    for (i, node) in r.nodes.iter_mut().enumerate().skip(1) {
        if let Some(&t) = times.get(i % times.len().max(1)) {
            node.time = Some(MoveTime {
                spent_ms: t,
                total_ms: None,
            });
        }
    }
    r
}

fn comment_line() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ,.'%*+-]{1,20}",
        "[あ-んア-ン漢字将棋　 ]{1,12}",
        Just("* 30 -3334FU".to_string()),
        Just("+7776FU,T12".to_string()),
        Just("%TORYO".to_string()),
        Just(" leading space".to_string()),
        Just("'* nested".to_string()),
    ]
}

fn initial_position() -> impl Strategy<Value = Position> {
    prop_oneof![
        Just(Position::startpos()),
        (0..HANDICAPS.len()).prop_map(|i| HANDICAPS[i].position()),
        Just(tsume_position()),
        // A middle-game position with pieces in hand (written as P1..P9 and P+/P-).
        proptest::collection::vec(any::<u16>(), 10..40).prop_map(|ch| {
            let mut p = Position::startpos();
            for c in ch {
                let m = p.legal_moves();
                if m.is_empty() {
                    break;
                }
                let _ = p.play(m[c as usize % m.len()]);
            }
            p.set_move_number(1);
            p
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_games_round_trip(
        initial in initial_position(),
        choices in proptest::collection::vec(any::<u16>(), 0..80),
        comments in proptest::collection::vec(
            (any::<usize>(), proptest::collection::vec(comment_line(), 1..4).prop_map(|v| v.join("\n"))),
            0..6,
        ),
        secs in proptest::collection::vec(0u64..4000, 0..5),
        ms in proptest::collection::vec(0u64..4_000_000, 0..5),
        ending in proptest::option::of(any::<usize>()),
        names in (proptest::option::of("[a-zA-Z 将棋]{1,10}"), proptest::option::of("[a-zA-Z 将棋]{1,10}")),
    ) {
        let whole: Vec<u64> = secs.iter().map(|s| s * 1000).collect();
        for (opts, times) in [(CsaOptions::default(), &whole), (v3(TextEncoding::Utf8), &ms)] {
            let mut r = random_record(initial.clone(), &choices, &comments, times, ending);
            let mut h = Header::default();
            // Leading white space is kept; white space at the end is not, nor an empty name
            // (losses of their own, tested with the fuzz findings).
            for (key, n) in [("先手", &names.0), ("後手", &names.1)] {
                if let Some(n) = n.as_deref().map(str::trim_end).filter(|n| !n.is_empty()) {
                    h.set(key, n);
                }
            }
            r.header = h;
            let written = csa::write(&r, &opts);
            prop_assert!(written.losses.is_empty(), "losses {:?}", written.losses);
            let back = csa::read(&written.text);
            prop_assert_eq!(back.len(), 1);
            prop_assert!(back[0].warnings.is_empty(), "{:?}\n{}", back[0].warnings, written.text);
            let exact = opts.version == CsaVersion::V30;
            if let Err(e) = same_csa_content(&r, &back[0].record, exact) {
                return Err(TestCaseError::fail(format!("{e}\n{}", written.text)));
            }
        }
    }
}

fn fixtures(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/csa")
        .join(kind);
    let mut v = Vec::new();
    csa_files(&dir, &mut v);
    assert!(!v.is_empty(), "no fixtures in {}", dir.display());
    v
}

/// Values of `'KEY: value` lines (plain CSA comments, which the reader ignores).
fn directives(text: &str, key: &str) -> Vec<String> {
    let prefix = format!("'{key}: ");
    text.lines()
        .filter_map(|l| l.strip_prefix(&prefix).map(|s| s.trim().to_string()))
        .collect()
}

#[test]
fn valid_fixtures_read_without_warnings() {
    for f in fixtures("valid") {
        let bytes = std::fs::read(&f).expect("read fixture");
        let loaded = load(&bytes, Some(&f));
        let text = String::from_utf8_lossy(&bytes);
        let want_records: usize = directives(&text, "records")
            .first()
            .map_or(1, |n| n.parse().expect("record count"));
        assert_eq!(loaded.records.len(), want_records, "{}", f.display());
        for p in &loaded.records {
            assert!(p.warnings.is_empty(), "{}: {:?}", f.display(), p.warnings);
            assert!(
                !p.record.is_empty(),
                "{}: a record without moves",
                f.display()
            );
        }
    }
}

#[test]
fn invalid_fixtures_report_the_expected_kind_at_the_expected_line() {
    for f in fixtures("invalid") {
        let text = std::fs::read_to_string(&f).expect("fixtures are UTF-8");
        let mut want: Vec<String> = directives(&text, "expect");
        assert!(!want.is_empty(), "{}: no 'expect: line", f.display());
        want.sort();
        let mut got: Vec<String> = csa::read(&text)
            .iter()
            .flat_map(|p| {
                p.warnings
                    .iter()
                    .map(|w| format!("{} {:?}", w.line, w.kind))
            })
            .collect();
        got.sort();
        assert_eq!(got, want, "{}", f.display());
    }
}

#[test]
fn multi_record_files_keep_every_record() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/csa/valid/multi_record.csa");
    let text = std::fs::read_to_string(&f).expect("fixture");
    let v = csa::read(&text);
    let names: Vec<Option<&str>> = v.iter().map(|p| p.record.header.black_name()).collect();
    assert_eq!(names, [Some("a"), Some("c"), None]);
    let ends: Vec<String> = v
        .iter()
        .map(|p| {
            let last = *p.record.main_line().last().expect("root");
            p.record
                .node(last)
                .special()
                .map(|s| s.json_name())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(ends, ["resign", "interrupt", "mate"]);
    assert_eq!(v[1].record.initial.handicap.map(|h| h.name), Some("香落ち"));
}

fn csa_token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("PI".to_string()),
        Just("+".to_string()),
        Just("-".to_string()),
        Just("/".to_string()),
        Just("P-00AL".to_string()),
        Just("%TORYO".to_string()),
        Just("'* c".to_string()),
        "[+-][0-9]{4}(FU|KY|KE|GI|KI|KA|HI|OU|TO|UM|RY|XX)",
        "T[0-9.]{0,5}",
        "P[1-9+\\-I][ *+\\-A-Z0-9]{0,30}",
        "[$N%V'T,+\\- a-zA-Z0-9:.*]{0,12}",
        "[^\n]{0,8}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn any_text_reads_without_panic(lines in proptest::collection::vec(csa_token(), 0..40), sep in prop_oneof![Just("\n"), Just("\r\n"), Just(",")]) {
        let text = lines.join(sep);
        let v = csa::read(&text);
        prop_assert!(!v.is_empty());
        // Lines end at LF, CRLF or a lone CR.
        let n_lines = text.replace("\r\n", "\n").split(['\n', '\r']).count();
        for p in &v {
            for w in &p.warnings {
                prop_assert!(w.line <= n_lines, "{w} beyond {n_lines} lines");
            }
            // Whatever was read is written and read back the same (warnings included).
            let written = csa::write(&p.record, &v3(TextEncoding::Utf8));
            let back = csa::read(&written.text);
            prop_assert_eq!(back.len(), 1);
            if written.losses.is_empty()
                && let Err(e) = same_csa_content(&p.record, &back[0].record, true)
            {
                return Err(TestCaseError::fail(format!("{e}\n--- in:\n{text}\n--- out:\n{}", written.text)));
            }
        }
    }
}

/// A Floodgate game (real file): its plain `'` lines (`'wdoor+floodgate…` before the version
/// line, `'rating:…` before the first move, `'summary:toryo:…` and the final position after
/// `%TORYO`) are remarks, which CSA readers skip (issue 19): kifview keeps them as remarks of
/// the record's head and of the node they follow, not as comments; KIF writes them as `#`
/// lines at the same place (no `*'summary` comment another program would show) and CSA writes
/// them back as they were.
#[test]
fn floodgate_remarks_are_kept_as_remarks_and_converted() {
    let Some(path) = common::corpus_file("real/shogi-kifu-converter/data/tests/csa/floodgate.csa")
    else {
        return;
    };
    let bytes = std::fs::read(&path).expect("the Floodgate file of the corpus");
    let p = &load(&bytes, Some(&path)).records[0];
    let r = &p.record;
    assert_eq!(
        r.program_lines,
        [
            "#wdoor+floodgate-300-10F+10b_n003_1060+40b_n007_1050Ti+20210405160009.csa",
            "#Max_Moves:256",
            "#Least_Time_Per_Move:0",
            "#Increment:10"
        ]
    );
    let root = r.node(NodeId::ROOT);
    assert!(
        root.remarks
            .iter()
            .any(|l| l == "black_rate:10b_n003_1060+507782308a74bb96974b7f14cd6f50d1:3382.0"),
        "{:?}",
        root.remarks
    );
    let last = *r.main_line().last().unwrap();
    assert_eq!(r.node(last).special(), Some(&Special::Resign));
    let end = &r.node(last).remarks;
    assert!(
        end.iter()
            .any(|l| l == "summary:toryo:10b_n003_1060 win:40b_n007_1050Ti lose"),
        "{end:?}"
    );
    assert_eq!(
        end.last().map(String::as_str),
        Some("$END_TIME:2021/04/05 16:25:34")
    );
    // No comment holds a remark.
    assert!(r.nodes.iter().all(|n| !n.comment.starts_with('\'')));
    // An engine's `'**` comment is still the move's comment, without the quote.
    let first = r.main_line()[1];
    assert!(r.node(first).comment.starts_with("* 113 -3334FU"));

    // To KIF and back: `#` lines where they stood, read back as the same remarks.
    let w = kifview::core::notation::kif::write(r, &Default::default());
    assert!(
        w.text
            .contains("\n#summary:toryo:10b_n003_1060 win:40b_n007_1050Ti lose\n"),
        "{}",
        w.text
    );
    assert!(!w.text.contains("*'"), "{}", w.text);
    let back = kifview::core::notation::kif::read(&w.text);
    assert_eq!(back.record.program_lines, r.program_lines);
    for (a, b) in r.nodes.iter().zip(&back.record.nodes) {
        assert_eq!((&a.comment, &a.remarks), (&b.comment, &b.remarks));
    }

    // CSA writes them back as plain lines, and reads the same again.
    let w = csa::write(r, &CsaOptions::default());
    assert!(
        w.text
            .contains("%TORYO\nT0\n'P1-KY-KI * +TO *  *  * -KE-KY\n"),
        "{}",
        w.text
    );
    assert!(w.text.contains("\n'rating:10b_n003_1060+"), "{}", w.text);
    let back = &csa::read(&w.text)[0];
    for (a, b) in r.nodes.iter().zip(&back.record.nodes) {
        assert_eq!((&a.comment, &a.remarks), (&b.comment, &b.remarks));
    }
    assert_eq!(
        csa::write(&back.record, &CsaOptions::default()).text,
        w.text
    );
}

/// A file with both `$TIME_LIMIT` and V3.0's `$TIME` (both 持ち時間): the reader used to keep
/// only the last one, so the time limit vanished on reading (found by csa_roundtrip with a
/// longer run). A repeated `$EVENT` is kept as a field of its own too.
#[test]
fn time_limit_and_time_are_both_kept() {
    let text = "V3.0\n$TIME_LIMIT:10分切れ負け\n$TIME:30+0+5\n$EVENT:A\n$EVENT:B\nPI\n+\n+7776FU\n";
    let r = csa::read(text).swap_remove(0).record;
    let values: Vec<(&str, &str)> = r
        .header
        .fields
        .iter()
        .map(|f| (f.key.as_str(), f.value.as_str()))
        .collect();
    assert_eq!(
        values,
        [
            ("持ち時間", "10分切れ負け"),
            ("持ち時間", "30+0+5"),
            ("棋戦", "A"),
            ("棋戦", "B")
        ]
    );
    let w = csa::write(&r, &v3(TextEncoding::Utf8));
    assert!(
        w.text
            .contains("$TIME_LIMIT:10分切れ負け\n$TIME:30+0+5\n$EVENT:A\n"),
        "{}",
        w.text
    );
    // CSA holds one $EVENT: the second is named as lost, not dropped silently.
    assert!(
        w.losses.iter().any(|l| l.to_string().contains("棋戦")),
        "{:?}",
        w.losses
    );
}
