//! Findings of the fuzz targets (issue 14, `fuzz/`), each through the public API with the input
//! that showed it (`tests/fixtures/fuzz/`, which `fuzz/run-smoke` also replays through every
//! target): what a user opening, converting or saving such a file gets.

use kifview::core::notation::{
    self, DiagKind, Format, Loss, Lost, Parsed, Target, TextEncoding, TextInfo, Written, usi,
};
use kifview::core::record::{NodeId, Record};
use kifview::core::rules::Position;
use std::path::{Path, PathBuf};

/// The fuzz crate's checks (`fuzz/src/lib.rs`: kifview and std only), so that the findings
/// are held to the same properties as the targets that found them.
#[allow(dead_code)]
#[path = "../../../fuzz/src/lib.rs"]
mod fuzz_checks;
use fuzz_checks::{jkf_outside_schema, kept_header, kif_funari_move_lines};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fuzz")
        .join(name)
}

/// The first record of a fixture, as opening the file gives it.
fn open(name: &str) -> Parsed {
    let p = fixture(name);
    let bytes = std::fs::read(&p).expect("fixture");
    notation::load(&bytes, Some(&p)).records.remove(0)
}

fn write(r: &Record, format: Format) -> Written {
    notation::render(r, Target::new(format), &TextInfo::new(TextEncoding::Utf8))
}

fn read(text: &str, format: Format) -> Parsed {
    let mut v = notation::read_text(text, format);
    assert_eq!(v.len(), 1, "{text}");
    v.remove(0)
}

fn main_line(r: &Record) -> Vec<String> {
    crate::common::usi_line(r, NodeId::ROOT)
}

/// Warnings other than the illegal moves a record may hold (every reader keeps those).
fn not_illegal(p: &Parsed) -> Vec<String> {
    p.warnings
        .iter()
        .filter(|w| w.kind != DiagKind::IllegalMove)
        .map(|w| w.to_string())
        .collect()
}

/// `+2822HI` (a rook jumping over its own pawn) is kept by the CSA reader; the KI2 writer wrote
/// `▲２二飛不成`, which names no rook that can go there, and the KI2 reader stopped the record
/// at it. KI2 now names the origin of such a move as KIF does, and reads it back.
#[test]
fn an_illegal_move_is_written_as_ki2_that_reads_back() {
    let p = open("csa-illegal-move-kept-ki2-writes-unreadable.csa");
    assert_eq!(main_line(&p.record), ["2h2b"]);
    assert_eq!(
        p.warnings[0].kind,
        DiagKind::IllegalMove,
        "{:?}",
        p.warnings
    );
    let w = write(&p.record, Format::Ki2);
    assert!(w.text.contains("▲２二飛不成(28)\n"), "{}", w.text);
    assert_eq!(w.losses, []);
    let back = read(&w.text, Format::Ki2);
    assert_eq!(main_line(&back.record), ["2h2b"], "{}", w.text);
    assert_eq!(not_illegal(&back), Vec::<String>::new(), "{}", w.text);
    assert_eq!(back.warnings.len(), 1, "the illegal move is said again");
    // Written again, the same text.
    assert_eq!(write(&back.record, Format::Ki2).text, w.text);
}

/// A pawn dropped on a file with a pawn (二歩) at move 9: KIF and CSA keep it with a warning,
/// the USI reader cut the line before it, so converting to USI lost the move.
#[test]
fn the_usi_reader_keeps_an_illegal_move_as_the_others_do() {
    let p = open("csa-two-pawns-drop-kept-usi-reader-cuts-the-line.csa");
    let moves = main_line(&p.record);
    assert_eq!(moves.len(), 9);
    assert_eq!(moves[8], "P*7g");
    for format in [Format::Kif, Format::Usi, Format::Jkf, Format::Ki2] {
        let w = write(&p.record, format);
        let back = read(&w.text, format);
        assert_eq!(main_line(&back.record), moves, "{format:?}:\n{}", w.text);
        assert_eq!(not_illegal(&back), Vec::<String>::new(), "{format:?}");
        let said = &back.warnings[0];
        assert!(said.message.contains("二歩"), "{format:?}: {said}");
    }
    let w = write(&p.record, Format::Usi);
    assert!(w.text.trim_end().ends_with("3f3g P*7g"), "{}", w.text);
}

/// `１ ７六歩` twice as variations of the first move: the KIF reader kept both, the KI2 and JKF
/// readers merged them into one, so a KIF → KI2 → KIF conversion lost a variation.
#[test]
fn two_variations_with_the_same_first_move_stay_two() {
    let p = open("kif-same-move-twice-as-variations-ki2-merges-them.kif");
    let r = &p.record;
    let root = r.node(NodeId::ROOT);
    assert_eq!(root.children.len(), 2);
    let second = root.children[1];
    assert_eq!(
        crate::common::usi_line(r, second),
        ["7g7f", "3c3d"],
        "the second variation continues"
    );
    for format in [Format::Kif, Format::Ki2, Format::Jkf] {
        let w = write(r, format);
        let back = read(&w.text, format);
        assert_eq!(back.warnings.len(), 0, "{format:?}: {:?}", back.warnings);
        let b = &back.record;
        assert_eq!(
            b.node(NodeId::ROOT).children.len(),
            2,
            "{format:?}:\n{}",
            w.text
        );
        assert_eq!(main_line(b), main_line(r), "{format:?}");
        let second = b.node(NodeId::ROOT).children[1];
        assert_eq!(crate::common::usi_line(b, second), ["7g7f", "3c3d"]);
    }
}

/// `後手：` with no name: the CSA writer wrote `N-`, the CSA reader dropped it, so the second
/// conversion differed from the first. An empty `N-` is rejected by shogi-kifu-converter and
/// left out by tsshogi's writer (issue 19): the empty name is left out and named as lost; an
/// empty `$` value is kept.
#[test]
fn an_empty_name_is_left_out_of_csa_and_named() {
    let p = open("kif-empty-player-name-csa-round-trip-drops-it.kif");
    assert_eq!(p.record.header.get("後手"), Some(""));
    let w = write(&p.record, Format::Csa);
    assert!(!w.text.contains("\nN-"), "{}", w.text);
    assert_eq!(w.losses, [Loss::new(Lost::Headers(vec!["後手".into()]), 1)]);
    let back = read(&w.text, Format::Csa);
    assert_eq!(back.record.header.get("後手"), None);
    assert_eq!(write(&back.record, Format::Csa).text, w.text);
    let back = read("V2.2\n$EVENT:\nPI\n+\n", Format::Csa);
    assert_eq!(back.record.header.get("棋戦"), Some(""));
    assert!(
        write(&back.record, Format::Csa)
            .text
            .contains("\n$EVENT:\n")
    );
}

/// `先手：a　` (an ideographic space at the end): CSA readers trim their lines, so the CSA
/// writer's `N+a　` read back as `a` and the next conversion differed. CSA cannot hold white
/// space at the end of a value: the writer writes it trimmed and says so.
#[test]
fn white_space_at_the_end_of_a_csa_value_is_a_loss() {
    let p = open("kif-player-name-trailing-space-csa-round-trip-trims-it.kif");
    assert_eq!(p.record.header.get("先手"), Some("a\u{3000}"));
    let w = write(&p.record, Format::Csa);
    assert!(w.text.contains("\nN+a\n"), "{}", w.text);
    let trailing = Loss::new(
        Lost::TrailingSpace {
            place: "header value",
        },
        1,
    );
    assert_eq!(w.losses, std::slice::from_ref(&trailing));
    assert_eq!(
        trailing.to_string(),
        "white space at the end of a header value"
    );
    let back = read(&w.text, Format::Csa);
    assert_eq!(back.record.header.get("先手"), Some("a"));
    let again = write(&back.record, Format::Csa);
    assert_eq!(again.text, w.text);
    assert_eq!(again.losses, []);
    // White space in front is kept.
    let back = read("V2.2\nN+ a b\n$EVENT: x\nPI\n+\n", Format::Csa);
    assert_eq!(back.record.header.get("先手"), Some(" a b"));
    assert_eq!(back.record.header.get("棋戦"), Some(" x"));
}

/// 255 pawns in hand then `00AL`: the hand is held to the set, which leaves the even-game
/// position; KIF wrote it as a diagram that read back as 平手, so the second write differed.
/// A position held to the set that equals a preset is that preset.
#[test]
fn a_position_held_to_the_set_is_its_preset() {
    let p = open("csa-00AL-after-255-pawns-overflows-piece-counts.csa");
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.starts_with("too many pieces")),
        "{:?}",
        p.warnings
    );
    assert_eq!(
        p.record.initial.handicap.map(|h| h.name),
        Some("平手"),
        "{:?}",
        p.record.initial
    );
    let w = write(&p.record, Format::Kif);
    assert!(w.text.starts_with("手合割：平手\n"), "{}", w.text);
    let back = read(&w.text, Format::Kif);
    assert_eq!(write(&back.record, Format::Kif).text, w.text);
}

/// `10p9p` read as 19 pawns in White's hand, which SFEN writes as `19p`, which no SFEN reader
/// takes (a count is at most 18). A kind given twice adds up to at most 18 too.
#[test]
fn a_hand_kind_given_twice_is_held_to_one_count() {
    let text = std::fs::read_to_string(fixture(
        "sfen-hand-10p9p-reads-19-pawns-writes-unreadable-19p.sfen",
    ))
    .unwrap();
    let e = Position::from_sfen(text.trim()).unwrap_err();
    assert!(e.to_string().contains("too many pieces in hand"), "{e}");
    let e = usi::read(&text).unwrap_err();
    assert!(e.message.contains("too many pieces in hand"), "{e}");
    // Within the limit it adds up, and writes back as one count.
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 10p8p 1").unwrap();
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b 18p 1");
}

/// A byte-order mark at the start of a header line mid-file (files put together from several)
/// was read as part of the key; KIF wrote that field first, where the reader drops a text's
/// byte-order mark, so `\u{feff}先手` became `先手` on the second pass. The mark is not part of
/// a key; a key that starts with one (from JKF) is not written and is named as lost.
#[test]
fn a_byte_order_mark_before_a_header_key_is_not_part_of_it() {
    let p = open("kif-header-key-after-a-stray-bom-loses-it-on-round-trip.kifu");
    assert_eq!(
        p.record.header.get("先手"),
        Some("a"),
        "{:?}",
        p.record.header
    );
    let w = write(&p.record, Format::Kif);
    assert!(w.text.starts_with("先手：a\n"), "{}", w.text);
    assert_eq!(
        write(&read(&w.text, Format::Kif).record, Format::Kif).text,
        w.text
    );
    let jkf = read(
        "{\"header\": {\"\u{feff}先手\": \"a\", \"後手\": \"b\"}, \"moves\": [{}]}",
        Format::Jkf,
    );
    let w = write(&jkf.record, Format::Kif);
    assert!(w.text.starts_with("後手：b\n"), "{}", w.text);
    assert_eq!(
        w.losses,
        [Loss::new(Lost::Headers(vec!["\u{feff}先手".into()]), 1)]
    );
}

/// `%%+ILLEGAL_ACTION` reads as an unknown ending `+ILLEGAL_ACTION`, which the CSA writer wrote
/// as `%+ILLEGAL_ACTION`, a foul by Black read back as 反則負け. A word that would read as another
/// ending is not written; the loss names it.
#[test]
fn a_csa_ending_word_is_not_written_as_another_ending() {
    let p = open("csa-ending-word-read-as-another-ending-on-round-trip.csa");
    assert_eq!(
        main_line(&p.record),
        ["+ILLEGAL_ACTION"],
        "{:?}",
        p.record.nodes
    );
    let w = write(&p.record, Format::Csa);
    assert!(!w.text.contains("ILLEGAL"), "{}", w.text);
    assert!(
        w.losses
            .iter()
            .any(|l| matches!(&l.what, Lost::Ending { word, .. } if word == "+ILLEGAL_ACTION")),
        "{:?}",
        w.losses
    );
    assert_eq!(
        write(&read(&w.text, Format::Csa).record, Format::Csa).text,
        w.text
    );
}

/// Every input that fuzzing once failed on, opened as a user opens it and written in every
/// format: each writer's text reads back with its reader without a warning (illegal moves and
/// a board beyond the 40-piece set are said again, as they are kept), with the same initial
/// position and main line (SFEN and BOD: the same last position); KIF and KI2 keep every
/// header field they do not list as lost.
#[test]
fn every_fuzz_finding_writes_back_in_every_format() {
    let dir = fixture("");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    assert!(names.len() >= 15, "{names:?}");
    for path in names {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for p in notation::load(&bytes, Some(&path)).records {
            let r = &p.record;
            // The properties the fuzz targets check, as they check them.
            fuzz_checks::check_every_writer(r);
            for format in Format::ALL {
                let w = write(r, format);
                let back = read(&w.text, format);
                let said: Vec<_> = back
                    .warnings
                    .iter()
                    .filter(|d| d.kind != DiagKind::IllegalMove)
                    .filter(|d| !d.message.starts_with("too many pieces"))
                    .collect();
                assert!(
                    said.is_empty(),
                    "{name} as {format:?}: {said:?}\n{}",
                    w.text
                );
                let b = &back.record;
                if matches!(format, Format::Kif | Format::Ki2) {
                    assert_eq!(
                        kept_header(b, &w.losses),
                        kept_header(r, &w.losses),
                        "{name} as {format:?}:\n{}",
                        w.text
                    );
                }
                if format.holds_moves() {
                    // A format without move numbers says so (a record from move 81 reads
                    // back from move 1); the position itself is the same.
                    let numbers_lost = w
                        .losses
                        .iter()
                        .any(|l| matches!(l.what, Lost::MoveNumbers { .. }));
                    let sfen = |r: &Record| {
                        let s = r.initial.position.to_sfen();
                        match s.rsplit_once(' ') {
                            Some((pos, _)) if numbers_lost => pos.to_string(),
                            _ => s,
                        }
                    };
                    assert_eq!(sfen(b), sfen(r), "{name} as {format:?}");
                    let moves = |r: &Record| -> Vec<String> {
                        r.main_line()
                            .into_iter()
                            .filter_map(|id| r.node(id).move_data().map(|m| m.mv.usi()))
                            .collect()
                    };
                    assert_eq!(moves(b), moves(r), "{name} as {format:?}");
                    let (m0, m1) = (main_line(r), main_line(b));
                    // An ending the format has no word for is named in the losses.
                    if m0 != m1 {
                        assert!(
                            w.losses
                                .iter()
                                .any(|l| matches!(l.what, Lost::Ending { .. })),
                            "{name} as {format:?}: {m0:?} became {m1:?}, losses {:?}",
                            w.losses
                        );
                    }
                } else {
                    let mut last = r.position_at(notation::last_position(r));
                    last.fit_to_set();
                    assert!(
                        b.initial.position.same_placement(&last),
                        "{name} as {format:?}:\n{}",
                        w.text
                    );
                }
            }
        }
    }
}

/// The fuzz targets' checks of what other programs read (issue 19) catch what they look for:
/// a KIF move line with `不成`, a JKF `special` outside the schema or a move without a
/// required field; the texts kifview writes pass them.
#[test]
fn the_fuzz_checks_of_other_readers_catch_what_they_look_for() {
    let kif =
        "手数----指手---------消費時間--\n 101 ８二銀不成(71)\n*８二銀不成 is fine in a comment\n";
    assert_eq!(kif_funari_move_lines(kif), [" 101 ８二銀不成(71)"]);
    let r = read("position startpos moves 7g7f 3c3d 8h2b", Format::Usi).record;
    assert_eq!(
        kif_funari_move_lines(&write(&r, Format::Kif).text),
        Vec::<&str>::new()
    );
    let jkf = write(&r, Format::Jkf).text;
    assert_eq!(jkf_outside_schema(&jkf), Vec::<String>::new());
    let bad = jkf.replacen("\"piece\":\"FU\",", "", 1);
    assert_eq!(jkf_outside_schema(&bad).len(), 1, "{bad}");
    let mut r = r;
    let last = *r.main_line().last().unwrap();
    r.push_child(
        last,
        kifview::core::record::Step::Special(kifview::core::record::Special::Resign),
    );
    let jkf = write(&r, Format::Jkf).text;
    assert!(jkf.contains("\"special\":\"TORYO\""), "{jkf}");
    let bad = jkf.replace("\"TORYO\"", "\"61手詰\"");
    assert_eq!(jkf_outside_schema(&bad).len(), 1, "{bad}");
    // A comment that merely quotes the key is not the key.
    r.node_mut(last).comment = "\"special\":\"x\"".into();
    assert_eq!(
        jkf_outside_schema(&write(&r, Format::Jkf).text),
        Vec::<String>::new()
    );
}
