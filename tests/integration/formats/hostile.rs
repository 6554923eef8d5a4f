//! Findings of fuzzing the readers and writers (issue 14), each through the public API with its
//! input as a fixture in `tests/fixtures/hostile/`: what the user gets from such a file.

use kifview::core::notation::{
    self, Format, Lost, Target, TextEncoding, TextInfo, csa, jkf, ki2, kif,
};
use kifview::core::record::{NodeId, Record, Special, Step};
use kifview::core::rules::{Color, Move, PieceKind, Position, Square};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile")
        .join(name)
}

fn load(name: &str) -> notation::Loaded {
    let p = fixture(name);
    let bytes = std::fs::read(&p).expect("fixture");
    notation::load(&bytes, Some(&p))
}

fn utf8() -> TextInfo {
    TextInfo::new(TextEncoding::Utf8)
}

fn write(r: &Record, format: Format) -> notation::Written {
    notation::render(r, Target::new(format), &utf8())
}

/// The main line as USI moves and KIF ending words.
fn usi_main(r: &Record) -> Vec<String> {
    crate::common::usi_line(r, NodeId::ROOT)
}

/// Each kind's total on the board and in the hands stays within the 40-piece set.
fn assert_within_the_set(pos: &Position) {
    let counts = pos.piece_counts();
    for kind in PieceKind::ALL[..8].iter() {
        assert!(
            counts[*kind as usize] <= u16::from(kind.set_count()),
            "{kind:?}: {} in {pos:?}",
            counts[*kind as usize]
        );
    }
}

/// Written as KIF and CSA and read back: no warnings, the same initial position.
fn writes_back(r: &Record) {
    for format in [
        Format::Kif,
        Format::Csa,
        Format::Ki2,
        Format::Jkf,
        Format::Usi,
    ] {
        let w = write(r, format);
        let back = &notation::read_text(&w.text, format)[0];
        assert!(
            back.warnings.is_empty(),
            "{format:?}: {:?}\n{}",
            back.warnings,
            w.text
        );
        assert_eq!(
            back.record.initial.position, r.initial.position,
            "{format:?}"
        );
    }
}

/// `P+00AL` after 255 pawns in Black's hand: the piece count overflowed a `u8` (a panic in
/// debug builds, 255 pawns gone in release). Now the hand is held to the set with a warning.
#[test]
fn al_after_255_pawns_is_held_to_the_set() {
    let l = load("csa_00al_after_255_pawns.csa");
    let p = &l.records[0];
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.contains("too many pieces: 273 FU")),
        "{:?}",
        p.warnings
    );
    let pos = &p.record.initial.position;
    assert_within_the_set(pos);
    // The board's 18 pawns are the set: none left in hand; 00AL gave White nothing else.
    assert_eq!(pos.hand_count(Color::Black, PieceKind::Pawn), 0);
    assert!(pos.hand(Color::White).is_empty());
    writes_back(&p.record);
}

/// 300 pawns in the hands, then written as CSA (the writer's `missing_pieces` overflowed).
#[test]
fn hundreds_of_pawns_in_hand_are_held_to_the_set_and_written() {
    let l = load("csa_300_pawns_in_hands.csa");
    let p = &l.records[0];
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.contains("300 FU") && w.message.contains("282 taken out")),
        "{:?}",
        p.warnings
    );
    let pos = &p.record.initial.position;
    assert_within_the_set(pos);
    assert_eq!(pos.hand_count(Color::Black, PieceKind::Pawn), 18);
    assert_eq!(pos.hand_count(Color::White, PieceKind::Pawn), 0);
    let w = csa::write(&p.record, &csa::CsaOptions::default());
    assert!(
        w.text.contains(&format!("P+{}\n", "00FU".repeat(18))),
        "{}",
        w.text
    );
    writes_back(&p.record);
}

/// `P+` with 40 pawns: `check` said nothing and the KIF writer wrote `歩四十`, which the KIF
/// reader refuses. One rule (the 40-piece set) for every reader and writer.
#[test]
fn an_impossible_hand_is_refused_with_a_warning() {
    let l = load("csa_40_pawns_in_hand.csa");
    let p = &l.records[0];
    assert!(
        p.warnings
            .iter()
            .any(|w| w.line == 12 && w.message.contains("40 FU") && w.message.contains("18")),
        "{:?}",
        p.warnings
    );
    assert_eq!(
        p.record
            .initial
            .position
            .hand_count(Color::Black, PieceKind::Pawn),
        18
    );
    assert_eq!(usi_main(&p.record), ["P*5e"]);
    let k = kif::write(&p.record, &kif::KifOptions::default());
    assert!(k.text.contains("歩十八"), "{}", k.text);
    writes_back(&p.record);
    // The same limit holds for the other readers' diagrams and hands.
    let sfen = kifview::core::notation::usi::read("sfen 4k4/9/9/9/9/9/9/9/4K4 b 18P18p 1").unwrap();
    assert!(
        sfen.warnings.iter().any(|w| w.message.contains("36 FU")),
        "{:?}",
        sfen.warnings
    );
    assert_within_the_set(&sfen.record.initial.position);
}

/// Old Mac files end lines with a lone CR: they read as one header field with no moves
/// before, and `check` said nothing.
#[test]
fn cr_only_and_mixed_line_ends_read_as_lines() {
    for name in ["cr_only.kifu", "mixed_line_ends.kifu"] {
        let l = load(name);
        let p = &l.records[0];
        assert!(p.warnings.is_empty(), "{name}: {:?}", p.warnings);
        assert_eq!(usi_main(&p.record), ["7g7f", "3c3d", "投了"], "{name}");
        assert_eq!(p.record.header.black_name(), Some("A"), "{name}");
        assert_eq!(p.record.header.white_name(), Some("B"), "{name}");
    }
    let l = load("cr_only.kifu");
    assert_eq!(l.records[0].record.node(NodeId::ROOT).comment, "opening");
    // Pasted or piped (no file name), it is still told apart as KIF.
    let bytes = std::fs::read(fixture("cr_only.kifu")).unwrap();
    let l = notation::load(&bytes, None);
    assert_eq!(l.format, Format::Kif);
    assert_eq!(usi_main(&l.records[0].record), ["7g7f", "3c3d", "投了"]);
    // Every reader splits lines the same way.
    let csa = csa::read("V2.2\rPI\r+\r+7776FU\r-3334FU\r%TORYO\r");
    assert!(csa[0].warnings.is_empty(), "{:?}", csa[0].warnings);
    assert_eq!(usi_main(&csa[0].record), ["7g7f", "3c3d", "投了"]);
    let k2 = ki2::read("手合割：平手\r▲７六歩\r△３四歩\rまで2手で先手の勝ち\r");
    assert!(k2.warnings.is_empty(), "{:?}", k2.warnings);
    assert_eq!(usi_main(&k2.record), ["7g7f", "3c3d", "投了"]);
}

/// KIF written, read and written again gives the same text: for header keys with CR or
/// control characters (`\r：` lost its key on the second pass), keys a KIF reader reads as
/// something else, and a JKF header `手合割：平手　　`, which the KIF writer dropped.
#[test]
fn kif_write_read_write_is_identical() {
    for name in [
        "header_key_cr.kifu",
        "header_key_controls.kifu",
        "odd_header_keys.jkf",
        "made_with_text.ki2u",
    ] {
        let l = load(name);
        let first = kif::write(&l.records[0].record, &kif::KifOptions::default());
        let back = kif::read(&first.text);
        assert!(
            back.warnings.is_empty(),
            "{name}: {:?}\n{}",
            back.warnings,
            first.text
        );
        let second = kif::write(&back.record, &kif::KifOptions::default());
        assert_eq!(first.text, second.text, "{name}");
        assert!(second.losses.is_empty(), "{name}: {:?}", second.losses);
    }
    let l = load("header_key_controls.kifu");
    let keys: Vec<&str> = l.records[0]
        .record
        .header
        .fields
        .iter()
        .map(|f| f.key.as_str())
        .collect();
    assert_eq!(keys, ["\u{1}", "\u{b}", "先手"]);

    // The JKF header's 手合割 (padded as Kifu for Windows pads it) is the 手合割 line, not a
    // loss; keys KIF would read as something else are named in the losses, as are line
    // breaks in values.
    let l = load("odd_header_keys.jkf");
    let w = kif::write(&l.records[0].record, &kif::KifOptions::default());
    assert!(w.text.lines().any(|l| l == "手合割：平手"), "{}", w.text);
    let losses: Vec<String> = w.losses.iter().map(ToString::to_string).collect();
    assert_eq!(
        losses,
        [
            "the a:b, x y, 先手の持駒 and 変化 headers",
            "line breaks in a header value"
        ]
    );

    // A KI2 `まで…で<text>` ending KIF has no word for: written as 中断 and said.
    let l = load("made_with_text.ki2u");
    let r = &l.records[0].record;
    let last = *r.main_line().last().unwrap();
    assert_eq!(
        r.node(last).special(),
        Some(&Special::Other("封じ手(仮)".into()))
    );
    let w = kif::write(r, &kif::KifOptions::default());
    assert!(w.text.contains("   3 中断\n"), "{}", w.text);
    assert!(
        w.losses.iter().any(|l| l.what
            == Lost::Ending {
                word: "封じ手(仮)".into(),
                written_as: Some("中断".into())
            }),
        "{:?}",
        w.losses
    );
    // KI2 itself keeps it.
    let w = ki2::write(r);
    assert!(w.text.contains("まで2手で封じ手(仮)\n"), "{}", w.text);
    assert_eq!(ki2::read(&w.text).record, *r);
}

/// Input that holds nothing a record could hold is an error with the reason, not an empty
/// 平手 record: a truncated JKF file, a binary file named `.kif`.
#[test]
fn unreadable_input_is_not_an_empty_record() {
    for (name, reason) in [
        ("truncated_header.jkf", "not JKF: EOF while parsing"),
        ("elf_binary.kif", "binary data (a NUL byte"),
    ] {
        let p = fixture(name);
        let bytes = std::fs::read(&p).unwrap();
        let e = notation::try_load(&bytes, Some(&p)).unwrap_err();
        assert!(e.to_string().contains(reason), "{name}: {e}");
    }
    let p = fixture("truncated_header.jkf");
    let e = notation::try_load(&std::fs::read(&p).unwrap(), Some(&p)).unwrap_err();
    assert_eq!(e.format, Format::Jkf);
    assert_eq!(
        e.to_string(),
        "no JKF record found: 1: not JKF: EOF while parsing a value at line 1 column 11"
    );
    // Blank input is an empty record; a record with only a header is a record.
    for (text, path) in [
        ("", "new.kif"),
        ("\r\n  \n", "new.csa"),
        ("先手：A\n", "a.kif"),
    ] {
        let l = notation::try_load(text.as_bytes(), Some(Path::new(path)));
        assert!(l.is_ok(), "{text:?}: {:?}", l.err());
    }
    // A CSA or KIF file of garbage text: every line unreadable, nothing read.
    let e = notation::try_load(b"garbage\nmore garbage\n", Some(Path::new("x.csa"))).unwrap_err();
    assert!(e.reason.contains("unreadable line 'garbage'"), "{e}");
    let e = notation::try_load(b"garbage\n", Some(Path::new("x.kif"))).unwrap_err();
    assert!(e.reason.contains("cannot read line 'garbage'"), "{e}");
}

/// A study whose variations nest `depth` deep: at every ply the main line ends (中断) and the
/// alternative beside it goes on, so each variation holds the next.
fn deep_study(depth: usize) -> Record {
    let mut r = Record::default();
    let mut pos = Position::startpos();
    let mut cur = NodeId::ROOT;
    let sq = |f, rk| Square::new(f, rk).unwrap();
    let moves = [
        (sq(2, 8), sq(3, 8)),
        (sq(8, 2), sq(7, 2)),
        (sq(3, 8), sq(2, 8)),
        (sq(7, 2), sq(8, 2)),
    ];
    for i in 0..depth {
        let (from, to) = moves[i % 4];
        let mv = Move::Normal {
            from,
            to,
            promote: false,
        };
        let color = pos.side_to_move();
        let played = pos.play(mv).unwrap();
        r.push_child(cur, Step::Special(Special::Interrupt));
        cur = r.push_child(
            cur,
            Step::Move(kifview::core::record::MoveData {
                mv,
                color,
                piece: played.piece,
                captured: None,
            }),
        );
    }
    r
}

/// Variations nested 20,000 deep write and read back in every format that holds them (KI2
/// and JKF writing replayed every variation from the root: quadratic; the speed is measured
/// by the `deep_variations` benchmark group).
#[test]
fn deep_variations_write_and_read_back() {
    let r = deep_study(20_000);
    for format in [Format::Kif, Format::Ki2, Format::Jkf] {
        let w = write(&r, format);
        assert!(w.losses.is_empty(), "{format:?}: {:?}", w.losses);
        let back = &notation::read_text(&w.text, format)[0];
        assert!(
            back.warnings.is_empty(),
            "{format:?}: {:?}",
            &back.warnings[..1]
        );
        assert_eq!(back.record.nodes.len(), r.nodes.len(), "{format:?}");
        assert_eq!(back.record.preorder().len(), r.nodes.len(), "{format:?}");
        let deepest = back.record.nodes.iter().map(|n| n.ply).max();
        assert_eq!(deepest, Some(20_000), "{format:?}");
    }
}

#[test]
fn jkf_of_the_deep_study_reads_back_identically() {
    let r = deep_study(3_000);
    let w = jkf::write(&r);
    let back = jkf::read(&w.text);
    assert!(back.warnings.is_empty());
    assert_eq!(jkf::write(&back.record).text, w.text);
}

/// Milliseconds (CSA V3.0 `T6.123`) survive JKF; KIF, which has whole seconds, says it drops
/// them instead of dropping them silently.
#[test]
fn fractions_of_seconds_are_kept_or_said() {
    let p = &csa::read("V3.0\nPI\n+\n+7776FU\nT6.123\n-3334FU\nT2\n%TORYO\n")[0];
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let w = jkf::write(&p.record);
    assert!(w.losses.is_empty(), "{:?}", w.losses);
    let back = jkf::read(&w.text);
    let first = back.record.main_line()[1];
    assert_eq!(back.record.node(first).time.map(|t| t.spent_ms), Some(6123));
    let w = kif::write(&p.record, &kif::KifOptions::default());
    let losses: Vec<String> = w.losses.iter().map(ToString::to_string).collect();
    assert_eq!(losses, ["fractions of a second in 1 time"]);
}
