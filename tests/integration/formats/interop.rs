//! Files other programs read as kifview means them (issue 19): no `不成` in KIF move lines,
//! CSA remarks kept as remarks (and comments always written as comments), JKF within its
//! schema, ending words other readers know, CSA header lines they accept, and `kifview
//! analyze` output read right by ShogiHome's rules. The peers' rules are re-implemented in
//! `peers.rs`.

use kifview::core::notation::{
    self, Format, Loss, Lost, Parsed, Target, TextEncoding, TextInfo, Written,
};
use kifview::core::record::{NodeId, Record, Special};
use serde_json::Value;
use std::path::{Path, PathBuf};

use crate::common::{self, files_with_ext};
use crate::formats::peers::{
    JKF_SCHEMA_SPECIALS, jkf_schema_errors, kif_move_lines_with_funari, shogihome_chart,
    shogihome_pv, shogihome_research, shogihome_situation,
};

fn write(r: &Record, format: Format) -> Written {
    notation::render(r, Target::new(format), &TextInfo::new(TextEncoding::Utf8))
}

fn read(text: &str, format: Format) -> Parsed {
    let mut v = notation::read_text(text, format);
    assert_eq!(v.len(), 1, "{text}");
    v.remove(0)
}

fn load(path: &Path) -> Vec<Parsed> {
    notation::load(&std::fs::read(path).expect("corpus file"), Some(path)).records
}

fn main_line(r: &Record) -> Vec<String> {
    common::usi_line(r, NodeId::ROOT)
}

/// A real corpus file, or `None` (skipped; a failure under `KIFVIEW_REQUIRE_CORPUS=1`).
fn real(rel: &str) -> Option<PathBuf> {
    common::corpus_file(&format!("real/{rel}"))
}

/// Every record file of `../shared/corpus/real` (each has an `.expected.json`).
fn real_records() -> Vec<PathBuf> {
    let Some(c) = common::corpus() else {
        return Vec::new();
    };
    let mut files = Vec::new();
    files_with_ext(
        &c.join("real"),
        &["kif", "kifu", "ki2", "ki2u", "csa", "jkf", "json"],
        &mut files,
    );
    files.retain(|f| {
        let s = f.to_string_lossy();
        !s.ends_with(".expected.json") && Path::new(&format!("{s}.expected.json")).is_file()
    });
    assert!(files.len() > 150, "{} real records", files.len());
    files
}

// ---- 不成 ----

/// A declined promotion (`▲２二角不成`): KIF writes `２二角(88)` (the KIF specification:
/// `不成の場合は、「不成」を表記しない`; ShogiHome dropped such a line and failed at the next
/// `同`), and reads it back as the same move; KI2 keeps `不成` (it has no origin square).
#[test]
fn a_declined_promotion_is_written_to_kif_without_funari() {
    let r = read("position startpos moves 7g7f 3c3d 8h2b 3a2b", Format::Usi).record;
    let kif = write(&r, Format::Kif);
    assert!(kif.text.contains("   3 ２二角(88)\n"), "{}", kif.text);
    assert!(kif.text.contains("   4 同　銀(31)\n"), "{}", kif.text);
    assert_eq!(kif_move_lines_with_funari(&kif.text), Vec::<String>::new());
    assert_eq!(
        main_line(&read(&kif.text, Format::Kif).record),
        main_line(&r)
    );
    let ki2 = write(&r, Format::Ki2);
    assert!(ki2.text.contains("▲２二角不成"), "{}", ki2.text);
    assert_eq!(
        main_line(&read(&ki2.text, Format::Ki2).record),
        main_line(&r)
    );
    // `不成` is still read.
    let lenient = kif.text.replace("２二角(88)", "２二角不成(88)");
    assert_eq!(
        main_line(&read(&lenient, Format::Kif).record),
        main_line(&r)
    );
}

/// Every record of the corpus (real and generated) converted to KIF and KIFU (the same
/// writer, either encoding): no move line says `不成`, and the declined promotions read back
/// the same.
#[test]
fn no_corpus_record_converts_to_a_kif_move_line_with_funari() {
    let (mut records, mut declined) = (0, 0);
    let mut files = real_records();
    if let Some(c) = common::corpus() {
        files_with_ext(&c.join("generated"), &["kif", "ki2", "csa"], &mut files);
    }
    for f in files {
        for p in load(&f) {
            records += 1;
            for target in [
                Target::new(Format::Kif),
                Target {
                    declare_encoding: true,
                    ..Target::new(Format::Kif)
                },
            ] {
                let w = notation::render(&p.record, target, &TextInfo::new(TextEncoding::Utf8));
                let bad = kif_move_lines_with_funari(&w.text);
                assert!(bad.is_empty(), "{}: {bad:?}", f.display());
                let back = read(&w.text, Format::Kif);
                assert_eq!(
                    main_line(&back.record),
                    main_line(&p.record),
                    "{}",
                    f.display()
                );
            }
            let ki2 = write(&p.record, Format::Ki2).text;
            declined += ki2.matches("不成").count();
        }
    }
    println!("{records} corpus records to KIF and KIFU: no 不成 ({declined} declined promotions)");
    if records > 0 {
        assert!(declined > 0, "the corpus has declined promotions to write");
    }
}

// ---- Remarks ----

/// `'平手` in a CSA file is a remark (readers skip it): kifview keeps it as one, and KIF
/// writes `#平手`, not the comment `*'平手` that every other reader shows to the user.
#[test]
fn a_csa_remark_is_a_kif_hash_line_not_a_comment() {
    let Some(path) = real("shogi-kifu-converter/data/tests/csa/initial_hirate.csa") else {
        return;
    };
    let r = &load(&path)[0].record;
    assert!(r.nodes.iter().all(|n| !n.comment.contains("平手")));
    let kif = write(r, Format::Kif);
    assert!(kif.text.lines().any(|l| l == "#平手"), "{}", kif.text);
    assert!(!kif.text.contains("*'"), "{}", kif.text);
    let ki2 = write(r, Format::Ki2);
    assert!(ki2.text.lines().any(|l| l == "#平手"), "{}", ki2.text);
    // Back to CSA: the remark again.
    let back = read(&kif.text, Format::Kif);
    let csa = write(&back.record, Format::Csa);
    assert!(csa.text.lines().any(|l| l == "'平手"), "{}", csa.text);
    assert!(!csa.text.contains("'*'"), "{}", csa.text);
}

/// Remarks among the moves stay where they were, in KIF (`#x`), KI2 (`#x`) and CSA (`'x`);
/// JKF has no remark: they are a named loss.
#[test]
fn remarks_keep_their_place_and_jkf_names_them() {
    let csa = "V2.2\nPI\n+\n'before the first move\n+7776FU\n'after 1\n-3334FU\n%TORYO\n'summary\n";
    let r = read(csa, Format::Csa).record;
    let m = r.main_line();
    assert_eq!(r.node(m[0]).remarks, ["before the first move"]);
    assert_eq!(r.node(m[1]).remarks, ["after 1"]);
    assert_eq!(r.node(m[3]).remarks, ["summary"]);
    assert!(r.nodes.iter().all(|n| n.comment.is_empty()));
    let kif = write(&r, Format::Kif).text;
    assert!(
        kif.contains("   1 ７六歩(77)\n#after 1\n   2 ３四歩(33)\n"),
        "{kif}"
    );
    for (format, text) in [
        (Format::Kif, kif),
        (Format::Ki2, write(&r, Format::Ki2).text),
    ] {
        let mut back = read(&text, format).record;
        if format == Format::Ki2 {
            // KI2 has no line where the moves start: a remark of the start position is
            // written with the head's and read back as one of them (written again, the same).
            assert!(text.starts_with("#before the first move\n"), "{text}");
            assert_eq!(write(&back, Format::Ki2).text, text);
            assert_eq!(back.program_lines, ["#before the first move"], "{text}");
            back.node_mut(NodeId::ROOT).remarks = std::mem::take(&mut back.program_lines)
                .iter()
                .map(|l| l[1..].to_string())
                .collect();
        }
        let remarks: Vec<_> = back.nodes.iter().map(|n| n.remarks.clone()).collect();
        let want: Vec<_> = r.nodes.iter().map(|n| n.remarks.clone()).collect();
        assert_eq!(remarks, want, "{format:?}\n{text}");
        assert_eq!(write(&back, Format::Csa).text, write(&r, Format::Csa).text);
    }
    let jkf = write(&r, Format::Jkf);
    assert_eq!(jkf.losses, [Loss::new(Lost::ProgramLines, 3)]);
}

/// A comment whose first line starts with a quote (`*'quote` in KIF, `'*'quote` in CSA) is
/// written to CSA as a comment (`'*'quote`), which a reader that skips remarks still reads;
/// it was written as the bare remark `'quote`, which every other reader drops.
#[test]
fn a_comment_starting_with_a_quote_stays_a_comment_in_csa() {
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*'quote\n*plain\n";
    let r = read(kif, Format::Kif).record;
    let csa = write(&r, Format::Csa).text;
    assert!(csa.contains("+7776FU\n'*'quote\n'*plain\n"), "{csa}");
    let back = read(&csa, Format::Csa).record;
    assert_eq!(back.node(back.main_line()[1]).comment, "'quote\nplain");
    assert!(back.nodes.iter().all(|n| n.remarks.is_empty()));
    // Read from CSA and written back: the same comment line.
    assert_eq!(write(&back, Format::Csa).text, csa);
    // A reader that skips remarks (any `'` line not `'*`) still sees both comment lines.
    let seen: Vec<&str> = csa.lines().filter_map(|l| l.strip_prefix("'*")).collect();
    assert_eq!(seen, ["'quote", "plain"]);
}

// ---- #詰み ----

/// `kifview analyze` on a tsume whose last move mates: the mated position's `#詰み` line
/// reads in ShogiHome as sente's win (it was `:0手`, a mate score of 0, charted as gote's).
#[test]
fn a_mated_position_reads_as_the_winner_in_shogihome() {
    let d = tempfile::tempdir().unwrap();
    let tsume = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/tsume.kifu");
    let out = d.path().join("out.kifu");
    let o = analyze_cmd(d.path())
        .args(["--nodes", "1", "-o"])
        .arg(&out)
        .arg(&tsume)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::stderr_of(&o));
    let r = &load(&out)[0].record;
    let mated = r.main_line()[1];
    assert!(r.position_at(mated).is_checkmate());
    let sh = shogihome_research(&r.node(mated).comment);
    assert!(sh.mate.is_some(), "{}", r.node(mated).comment);
    assert_eq!(
        shogihome_chart(sh),
        Some(2000.0),
        "{}",
        r.node(mated).comment
    );
    check_analysis_with_shogihome_rules(r, "tsume");
}

// ---- JKF ----

/// 封じ手 (a sealed move, `まで52手で封じ手`) has no JKF word: it was written as
/// `"special":"封じ手"`, outside the schema. Now `CHUDAN`, named in the losses.
#[test]
fn an_ending_jkf_has_no_word_for_is_chudan_and_named() {
    let Some(path) = real("json-kifu-format/test/files/kif/meijinsen_20180508_M7_10034.kif") else {
        return;
    };
    let r = &load(&path)[0].record;
    let last = *r.main_line().last().unwrap();
    assert_eq!(
        r.node(last).special(),
        Some(&Special::Other("封じ手".into()))
    );
    let w = write(r, Format::Jkf);
    let v: Value = serde_json::from_str(&w.text).unwrap();
    assert_eq!(jkf_schema_errors(&v), Vec::<String>::new());
    assert!(w.text.contains("\"special\":\"CHUDAN\""), "{}", w.text);
    assert!(
        w.losses
            .iter()
            .any(|l| matches!(&l.what, Lost::Ending { word, .. } if word == "封じ手")),
        "{:?}",
        w.losses
    );
    // CSA's `%MAX_MOVES` is not in JKF's enum either.
    let r = read("V2.2\nPI\n+\n+7776FU\n%MAX_MOVES\n", Format::Csa).record;
    let w = write(&r, Format::Jkf);
    assert!(w.text.contains("\"special\":\"CHUDAN\""), "{}", w.text);
    assert_eq!(w.losses.len(), 1, "{:?}", w.losses);
}

/// The schema's enum, as kifview's JKF writer knows it: the same list (cited from
/// json-kifu-format 5.5.0's `specification/json-kifu-format.schema.json`, `$defs/special`).
#[test]
fn the_jkf_writer_knows_the_schemas_special_enum() {
    assert_eq!(notation::jkf::JKF_SPECIALS, JKF_SCHEMA_SPECIALS);
    // Every ending kifview can hold is written as one of them.
    let mut all = Special::menu();
    all.extend([
        Special::Other("封じ手".into()),
        Special::Other("MATTA".into()),
    ]);
    for s in all {
        let mut r = read("position startpos moves 7g7f", Format::Usi).record;
        let last = r.main_line()[1];
        r.push_child(last, kifview::core::record::Step::Special(s.clone()));
        let w = write(&r, Format::Jkf);
        let v: Value = serde_json::from_str(&w.text).unwrap();
        assert_eq!(jkf_schema_errors(&v), Vec::<String>::new(), "{s:?}");
    }
}

/// Every real record of the corpus, written as JKF, validates against the JKF schema's rules.
#[test]
fn every_real_record_writes_schema_valid_jkf() {
    let mut n = 0;
    for f in real_records() {
        for p in load(&f) {
            let w = write(&p.record, Format::Jkf);
            let v: Value = serde_json::from_str(&w.text)
                .unwrap_or_else(|e| panic!("{}: {e}\n{}", f.display(), w.text));
            let errors = jkf_schema_errors(&v);
            assert!(errors.is_empty(), "{}: {errors:?}", f.display());
            n += 1;
        }
    }
    println!("{n} real records written as schema-valid JKF");
}

// ---- Ending words ----

/// `まで61手詰` (9fu.ki2, a tsume: the last move mates) is 詰み; it was kept as an unknown
/// ending and written back as the KIF move line `  62 61手詰` that no reader knows.
#[test]
fn a_counted_mate_ending_is_mate() {
    let Some(path) = real("json-kifu-format/test/files/ki2/9fu.ki2") else {
        return;
    };
    let r = &load(&path)[0].record;
    let last = *r.main_line().last().unwrap();
    assert_eq!(r.node(last).special(), Some(&Special::Mate));
    let kif = write(r, Format::Kif).text;
    assert!(kif.contains("  62 詰み\n"), "{kif}");
    assert!(!kif.contains("61手詰"), "{kif}");
    assert!(kif.ends_with("まで61手で先手の勝ち\n"), "{kif}");
    let ki2 = write(r, Format::Ki2).text;
    assert!(ki2.ends_with("まで61手で詰み\n"), "{ki2}");
    for (f, text) in [(Format::Kif, &kif), (Format::Ki2, &ki2)] {
        let back = read(text, f).record;
        let end = *back.main_line().last().unwrap();
        assert_eq!(back.node(end).special(), Some(&Special::Mate), "{f:?}");
    }
    let jkf = write(r, Format::Jkf);
    assert!(jkf.text.contains("\"special\":\"TSUMI\""));
    assert_eq!(jkf.losses, []);
}

/// The closing line follows Kifu for Windows: a game ended by 詰み names the winner
/// (`まで149手で先手の勝ち`; it was `まで149手で詰み`, and cshogi lost the winner); 投了 keeps
/// its line (jt201409130101.kif); the KIF specification's 不戦勝, 不戦敗 and 不詰 are read and
/// written as such.
#[test]
fn closing_lines_follow_kifu_for_windows() {
    let game = |end: &str| {
        format!("手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 {end}\n")
    };
    let r = read(&game("詰み"), Format::Kif).record;
    let kif = write(&r, Format::Kif).text;
    assert!(kif.ends_with("   2 詰み\nまで1手で先手の勝ち\n"), "{kif}");
    for (word, special) in [
        ("不戦勝", Special::WinByDefault),
        ("不戦敗", Special::LossByDefault),
        ("不詰", Special::NoMate),
    ] {
        let r = read(&game(word), Format::Kif).record;
        let end = *r.main_line().last().unwrap();
        assert_eq!(r.node(end).special(), Some(&special), "{word}");
        for f in [Format::Kif, Format::Ki2] {
            let w = write(&r, f);
            assert_eq!(w.losses, [], "{word} {f:?}");
            assert!(w.text.contains(&format!("まで1手で{word}\n")), "{}", w.text);
            let back = read(&w.text, f).record;
            let end = *back.main_line().last().unwrap();
            assert_eq!(back.node(end).special(), Some(&special), "{word} {f:?}");
        }
    }
    let Some(path) = real("json-kifu-format/test/files/kif/jt201409130101.kif") else {
        return;
    };
    let r = &load(&path)[0].record;
    let kif = write(r, Format::Kif).text;
    assert!(
        kif.ends_with("投了         ( 0:00/00:00:00)\nまで107手で先手の勝ち\n"),
        "{kif}"
    );
}

// ---- CSA header lines ----

/// An empty name is left out of CSA (an empty `N-` made shogi-kifu-converter reject the
/// file) and named; a date CSA cannot hold (`2005/11/29･30日`) is not copied into
/// `$START_TIME` but kept as a remark and named; a KIF date with a full-width colon
/// (`2014/09/13 14：59`) is written in CSA's form.
#[test]
fn csa_header_lines_other_readers_accept() {
    let kif = "開始日時：2005/11/29･30日\n先手：A\n後手：\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    let r = read(kif, Format::Kif).record;
    let w = write(&r, Format::Csa);
    assert!(w.text.contains("N+A\n"), "{}", w.text);
    assert!(!w.text.contains("N-"), "{}", w.text);
    assert!(!w.text.contains("$START_TIME"), "{}", w.text);
    assert!(
        w.text.contains("\n'開始日時：2005/11/29･30日\n"),
        "{}",
        w.text
    );
    let said: Vec<String> = w.losses.iter().map(ToString::to_string).collect();
    assert_eq!(
        said,
        [
            "the 後手 header",
            "the 開始日時 header (not a date CSA can hold: written as a remark)"
        ]
    );
    // Written again from what it reads back: the same text.
    let back = read(&w.text, Format::Csa).record;
    assert_eq!(write(&back, Format::Csa).text, w.text);
    let Some(path) = real("json-kifu-format/test/files/kif/jt201409130101.kif") else {
        return;
    };
    let csa = write(&load(&path)[0].record, Format::Csa).text;
    assert!(csa.contains("\n$START_TIME:2014/09/13 14:59:00\n"), "{csa}");
}

/// Every real record converted to CSA: `N+`/`N-` never empty, `$START_TIME`/`$END_TIME` only
/// in CSA's date form.
#[test]
fn real_records_write_csa_header_lines_in_csa_form() {
    let date = |v: &str| {
        let b = v.as_bytes();
        let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
        (v.len() == 10 || v.len() == 19)
            && digits(0..4)
            && b[4] == b'/'
            && digits(5..7)
            && b[7] == b'/'
            && digits(8..10)
            && (v.len() == 10
                || (b[10] == b' '
                    && digits(11..13)
                    && b[13] == b':'
                    && digits(14..16)
                    && b[16] == b':'
                    && digits(17..19)))
    };
    for f in real_records() {
        for p in load(&f) {
            let csa = write(&p.record, Format::Csa).text;
            for l in csa.lines() {
                assert!(l != "N+" && l != "N-", "{}: {l}", f.display());
                if let Some(v) = l
                    .strip_prefix("$START_TIME:")
                    .or_else(|| l.strip_prefix("$END_TIME:"))
                {
                    assert!(v.is_empty() || date(v), "{}: {l}", f.display());
                }
            }
        }
    }
}

// ---- kifview analyze, read by ShogiHome's rules ----

fn analyze_cmd(state: &Path) -> assert_cmd::Command {
    let analyst = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/engines/analyst.sh");
    let mut c = assert_cmd::Command::cargo_bin("kifview").expect("binary built");
    c.env("ANALYST_STATE", state)
        .args(["analyze", "--engine"])
        .arg(analyst);
    c
}

/// Every analysed main-line position of `r`: what ShogiHome reads from its comment (mate,
/// score, the situation words, the PV) means what kifview means by it.
fn check_analysis_with_shogihome_rules(r: &Record, label: &str) -> usize {
    let mut checked = 0;
    for p in kifview::analyze::main_line_evals(r) {
        let Some(eval) = p.eval else { continue };
        let comment = &r.node(p.node).comment;
        let sh = shogihome_research(comment);
        let at = format!("{label} ply {}: {comment:?}", p.ply);
        match eval.score {
            kifview::engine::Score::Mate { sente_wins, .. } => {
                let m = sh.mate.unwrap_or_else(|| panic!("{at}: no mate read"));
                assert_eq!(m.sente_wins, sente_wins, "{at}");
                let chart = shogihome_chart(sh).unwrap();
                assert_eq!(chart > 0.0, sente_wins, "{at}: charted for the other side");
            }
            kifview::engine::Score::Cp(cp) => {
                assert!(sh.mate.is_none(), "{at}");
                // ShogiHome's `||` reads a score of 0 as none (its own files too).
                let want = (cp != 0).then_some(f64::from(cp));
                assert_eq!(sh.score, want, "{at}");
                let situation = shogihome_situation(f64::from(cp));
                assert!(
                    comment.contains(&format!("{situation}\n#評価値={cp}")),
                    "{at}: ShogiHome's situation is {situation}"
                );
            }
        }
        if let Some(pv) = comment.lines().find_map(|l| l.strip_prefix("#読み筋=")) {
            let pos = r.position_at(p.node);
            let n = shogihome_pv(&pos, pv).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(n > 0, "{at}");
        }
        checked += 1;
    }
    checked
}

/// `kifview analyze` with the scripted engine on games ending in 詰み, 千日手 and 投了, and
/// with the real engines (when installed) on a real game: every analysed position reads in
/// ShogiHome with kifview's meaning.
#[test]
fn analyze_output_reads_right_by_shogihomes_rules() {
    let d = tempfile::tempdir().unwrap();
    let input = d.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    let tsume = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/tsume.kifu");
    std::fs::copy(&tsume, input.join("tsume.kifu")).unwrap();
    let game = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角不成(88)\n   4 同　銀(31)\n   5 投了\n";
    std::fs::write(input.join("game.kifu"), game).unwrap();
    let o = analyze_cmd(d.path())
        .args(["--nodes", "1", "-r", "--out-dir"])
        .arg(d.path().join("out"))
        .arg(&input)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::stderr_of(&o));
    let mut checked = 0;
    for name in ["tsume.kifu", "game.kifu"] {
        let out = d.path().join("out").join(name);
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(kif_move_lines_with_funari(&text), Vec::<String>::new());
        checked += check_analysis_with_shogihome_rules(&load(&out)[0].record, name);
    }
    assert!(checked >= 5, "{checked}");
    let Some(real_game) = real("json-kifu-format/test/files/kif/jt201409130101.kif") else {
        return;
    };
    for engine in ["fairy-stockfish", "gpsusi"] {
        let Some(spec) = common::engine_or_skip(engine) else {
            continue;
        };
        let out = d.path().join(format!("{engine}.kifu"));
        // gpsusi only takes time limits, and stopped before its first iteration ends it sends
        // `bestmove` with no score: the position is left unanalysed. 50 ms left 7 of 60
        // searches without a score at load 12 on a two-core machine (98 positions of 108
        // analysed: this test failed); 200 ms left none of 100 there.
        let limit: [&str; 2] = if engine == "gpsusi" {
            ["--movetime", "200"]
        } else {
            ["--nodes", "2000"]
        };
        let o = assert_cmd::Command::cargo_bin("kifview")
            .unwrap()
            .args(["analyze", "--engine"])
            .arg(&spec.command)
            .args(limit)
            .arg("-o")
            .arg(&out)
            .arg(&real_game)
            .output()
            .unwrap();
        assert!(o.status.success(), "{engine}: {}", common::stderr_of(&o));
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(kif_move_lines_with_funari(&text), Vec::<String>::new());
        let r = &load(&out)[0].record;
        let n = check_analysis_with_shogihome_rules(r, engine);
        assert!(n > 100, "{engine}: {n} positions analysed");
        println!("{engine}: {n} positions read right by ShogiHome's rules");
    }
}

/// The ShogiHome rules of `peers.rs` on ShogiHome's own lines (from `buildSearchComment`):
/// the helper reads what ShogiHome reads.
#[test]
fn the_shogihome_rules_read_shogihomes_own_comments() {
    let r = shogihome_research("互角\n#評価値=-35\n#読み筋=▲２五歩");
    assert_eq!((r.mate, r.score), (None, Some(-35.0)));
    let r = shogihome_research("#詰み=後手勝ち:7手\n#読み筋=△１二玉");
    assert_eq!(r.mate.map(|m| m.value()), Some(-7.0));
    assert_eq!(shogihome_chart(r), Some(-2000.0));
    let r = shogihome_research("#詰み=先手勝ち");
    assert_eq!(shogihome_chart(r), Some(2000.0));
    // What kifview wrote before issue 19: a mate of 0, charted as gote's win.
    let r = shogihome_research("#詰み=先手勝ち:0手");
    assert_eq!(shogihome_chart(r), Some(-2000.0));
    assert_eq!(shogihome_research("#評価値=0").score, None);
    assert_eq!(shogihome_situation(199.0), "互角");
    assert_eq!(shogihome_situation(-1500.0), "後手優勢");
    let start = kifview::core::rules::Position::startpos();
    assert_eq!(shogihome_pv(&start, "▲７六歩△３四歩▲２二角成"), Ok(3));
    assert!(shogihome_pv(&start, "△３四歩").is_err());
}

/// Saving a remark a Shift_JIS file cannot hold: the question says where the character is
/// (remarks are not comments any more, and were not searched).
#[test]
fn saving_names_a_remark_the_encoding_cannot_hold() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("r.kifu");
    std::fs::write(
        &src,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n#☗の好手\n",
    )
    .unwrap();
    let mut v = common::viewer_on(&src, None);
    let kif = d.path().join("r.kif");
    common::press(&mut v, &format!(":w {}⏎", kif.display()));
    let rows = common::screen_rows(&common::screen(&mut v, 100, 30)).join("\n");
    assert!(rows.contains("Shift_JIS cannot hold 1 character"), "{rows}");
    assert!(rows.contains("in a remark (# line) at move 1"), "{rows}");
    assert!(!kif.exists());
}
