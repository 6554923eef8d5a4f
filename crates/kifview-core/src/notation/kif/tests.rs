//! Tests of the KIF line grammar, reader and writer.

use super::line::*;
use super::write::{push_num, push_time};
use super::*;
use crate::notation::{DiagKind, Parsed};
use crate::record::{MoveTime, NodeId, Record, Special, Step};
use crate::rules::{PieceKind, Square, tsume_position};
use proptest::prelude::*;
use proptest::sample::select;

fn kinds(p: &Parsed) -> Vec<(usize, DiagKind)> {
    p.warnings.iter().map(|w| (w.line, w.kind)).collect()
}

fn usi_main(r: &Record) -> Vec<String> {
    r.main_line()
        .into_iter()
        .skip(1)
        .map(|id| match &r.node(id).step {
            Step::Move(m) => m.mv.usi(),
            Step::Special(s) => s.json_name(),
            Step::Root => String::new(),
        })
        .collect()
}

#[test]
fn move_line_grammar() {
    let l = parse_move_line(1, " ７六歩(77)   ( 0:16/00:00:16)").unwrap();
    assert_eq!(l.time.unwrap().spent_ms, 16_000);
    assert_eq!(l.time.unwrap().total_ms, Some(16_000));
    let l = parse_move_line(1, " 同　歩(77)").unwrap();
    assert!(matches!(l.body, Body::Move(RawMove { to: None, .. })));
    for s in [" 同歩(77)", " 同 歩(77)", " 同　　歩(77)"] {
        assert!(matches!(
            parse_move_line(1, s).unwrap().body,
            Body::Move(RawMove { to: None, .. })
        ));
    }
    let l = parse_move_line(1, " ３三角打(00) ( 0:07/00:01:00)").unwrap();
    assert!(matches!(l.body, Body::Move(RawMove { from: None, .. })));
    let l = parse_move_line(1, " 投了   (125:30/02:05:30)+").unwrap();
    assert_eq!(l.body, Body::Special("投了"));
    assert_eq!(l.time.unwrap().spent_ms, 7_530_000);
    let l = parse_move_line(1, " 中断 ( 0:03/ 0:00:19)").unwrap();
    assert_eq!(l.time.unwrap().total_ms, Some(19_000));
    assert!(parse_move_line(1, " ０六歩(77)").is_err());
    assert!(parse_move_line(1, " ７六犬(77)").is_err());
    assert!(parse_move_line(1, " ７六歩").is_err());
    let l = parse_move_line(1, " ２二角不成(88)").unwrap();
    assert!(matches!(l.body, Body::Move(RawMove { promote: false, .. })));
    let l = parse_move_line(1, " 7六歩(77) junk").unwrap();
    assert!(l.trailing.is_some());
}

fn sq(file: u8, rank: u8) -> Option<Square> {
    Square::new(file, rank)
}

/// The move lines `fast_move_line` is meant for, each with what it reads, then variants
/// only the general reader handles. Both paths are run on each line; where the fast one
/// answers, it must agree with the general one.
#[test]
fn move_line_variants() {
    use PieceKind::*;
    let mv = |to, piece, promote, from| {
        Body::Move(RawMove {
            to,
            piece,
            promote,
            from,
        })
    };
    // A time of `spent` seconds, `total` seconds in all (0: no total).
    let t = |spent: u64, total: u64| {
        Some(MoveTime {
            spent_ms: spent * 1000,
            total_ms: (total > 0).then_some(total * 1000),
        })
    };
    let p76 = mv(sq(7, 6), Pawn, false, sq(7, 7));
    let same = mv(None, Pawn, false, sq(7, 7));
    let b22 = |promote| mv(sq(2, 2), Bishop, promote, sq(8, 8));
    let b55 = |promote| mv(sq(5, 5), Bishop, promote, None);
    let unknown = Some(DiagKind::UnknownLine);
    let bad_time = Some(DiagKind::BadTime);
    // (text after the move number, body, time, trailing warning)
    let fast = [
        (" ７六歩(77)", p76, None, None),
        (" ７六歩(77)   ( 0:16/00:00:16)", p76, t(16, 16), None),
        (" ７六歩(77)   ( 0:16/00:00:16)+", p76, t(16, 16), None),
        (" ７六歩(77) ( 0:16/00:00:16) + ", p76, t(16, 16), None),
        (" ７六歩(77)+", p76, None, None),
        (" ７六歩(77)( 0:16/00:00:16)", p76, t(16, 16), None),
        ("   ７六歩(77) (10:00/01:02:03)", p76, t(600, 3723), None),
        (" ７六歩(77) (125:30/02:05:30)", p76, t(7530, 7530), None),
        (" ７六歩(77) ( 0:16/ 0:00:16)", p76, t(16, 16), None),
        (" ７六歩(77) (00:31 / 00:00:31)", p76, t(31, 31), None),
        (" ７六歩(77) ( 0:16/)", p76, t(16, 0), None),
        (" ７六歩(77) ( 0:16)", p76, t(16, 0), None),
        (" ７６歩(77)", p76, None, None),
        (" 同　歩(77)", same, None, None),
        (" 同歩(77)", same, None, None),
        (" 同 歩(77)", same, None, None),
        (" 同　　歩(77)", same, None, None),
        (" ２二角成(88)", b22(true), None, None),
        (" ２二角不成(88)", b22(false), None, None),
        (" ５五角打", b55(false), None, None),
        (" ５五角打(00)", b55(false), None, None),
        (" ５五角打(00) ( 0:07/00:01:00)", b55(false), t(7, 60), None),
        (" ５五角成打", b55(true), None, None),
        (
            " １一龍(21)",
            mv(sq(1, 1), Dragon, false, sq(2, 1)),
            None,
            None,
        ),
        (
            " ９九と(98)",
            mv(sq(9, 9), ProPawn, false, sq(9, 8)),
            None,
            None,
        ),
    ];
    let general = [
        (
            " ４四成銀(45)",
            mv(sq(4, 4), ProSilver, false, sq(4, 5)),
            None,
            None,
        ),
        (" 76歩(77)", p76, None, None),
        (" 7六歩(77)", p76, None, None),
        (" 七六歩(77)", p76, None, None),
        (" ▲７六歩(77)", p76, None, None),
        (" ７六歩　(77)", p76, None, None),
        (" ７六歩(７７)", p76, None, None),
        (" ７六歩(77)\t( 0:16/00:00:16)", p76, t(16, 16), None),
        (" ７六歩(77)　( 0:16/00:00:16)　", p76, t(16, 16), None),
        (" ７六歩(77) ( 0:16/00:00:16)\r", p76, t(16, 16), None),
        ("\t７六歩(77)", p76, None, None),
        ("　７六歩(77)", p76, None, None),
        (" 同\t歩(77)", same, None, None),
        (" ２二角生(88)", b22(false), None, None),
        (" ５五角(00)", b55(false), None, None),
        (" 投了", Body::Special("投了"), None, None),
        (
            " 投了   ( 0:03/00:00:19)+",
            Body::Special("投了"),
            t(3, 19),
            None,
        ),
        (" 61手詰", Body::Special("61手詰"), None, None),
        (" ７六歩(77) junk", p76, None, unknown),
        (" ７六歩(77) ++", p76, None, unknown),
        (" ７六歩(77)+( 0:16/00:00:16)", p76, None, unknown),
        (" ７六歩(77) ( 0:16/00:00:16) x", p76, t(16, 16), unknown),
        (
            " ７六歩打打",
            mv(sq(7, 6), Pawn, false, None),
            None,
            unknown,
        ),
        (" ７六歩(77) ( 0:1a/00:00:16)", p76, None, bad_time),
        (" ７六歩(77) ( 0:16/00:00:16", p76, None, bad_time),
        (" ７六歩(77) (0:16/16)", p76, None, bad_time),
    ];
    let cases = fast.iter().map(|c| (c, true));
    for (&(rest, body, time, trailing), is_fast) in cases.chain(general.iter().map(|c| (c, false)))
    {
        let read =
            general_move_line(3, rest).unwrap_or_else(|e| panic!("{rest:?} does not read: {e}"));
        let trailing_kind = read.trailing.as_ref().map(|t| t.0);
        assert_eq!(
            (read.body, read.time, trailing_kind),
            (body, time, trailing),
            "{rest:?}"
        );
        match fast_move_line(3, rest) {
            Some(f) => {
                assert!(is_fast, "{rest:?} was meant for the general path");
                assert_eq!(f, read, "{rest:?}");
            }
            None => assert!(!is_fast, "{rest:?} missed the fast path"),
        }
        assert_eq!(parse_move_line(3, rest), Ok(read), "{rest:?}");
    }
}

/// Lines that look like moves but are not: both paths refuse them (the fast one by leaving
/// them to the general one, which says what is wrong).
#[test]
fn move_line_lookalikes() {
    for rest in [
        "",
        " ",
        " ０六歩(77)",
        " ７〇歩(77)",
        " ７六犬(77)",
        " ７六歩",
        " ７六歩(7)",
        " ７六歩(77",
        " ７六歩(70)",
        " 同",
        " 同　",
        " 成銀(45)",
        " ７六",
        " (77)",
    ] {
        assert_eq!(fast_move_line(1, rest), None, "{rest:?}");
        let general = general_move_line(1, rest);
        assert!(general.is_err(), "{rest:?}: {general:?}");
        assert_eq!(parse_move_line(1, rest), general, "{rest:?}");
    }
}

/// Times as Kifu for Windows writes them go through one pattern; the field-by-field reader
/// must agree, and both must refuse what is not a time.
#[test]
fn time_variants() {
    for (text, spent_s, total_s) in [
        ("( 0:16/00:00:16)", 16, Some(16)),
        ("(10:00/01:02:03)", 600, Some(3723)),
        ("( 0: 6/ 0: 0: 6)", 6, Some(6)),
        ("(99:59/99:59:59)", 5999, Some(359_999)),
    ] {
        let time = MoveTime {
            spent_ms: spent_s * 1000,
            total_ms: total_s.map(|s: u64| s * 1000),
        };
        let fixed = kifu_for_windows_time(text.as_bytes());
        assert_eq!(fixed, Some((time, &b""[..])), "{text}");
        assert_eq!(general_time_fields(text.as_bytes()), fixed, "{text}");
    }
    for text in [
        "(x0:16/00:00:16)",
        "( 0:16/00:00:1 )",
        "(  :16/00:00:16)",
        "( 0:16/00:00:16(",
        "( 0:16-00:00:16)",
    ] {
        assert_eq!(kifu_for_windows_time(text.as_bytes()), None, "{text}");
    }
    assert!(parse_time("( 0:1 /00:00:16)").is_ok());
    assert_eq!(
        parse_time("( 0:16/00:00:1x) rest"),
        Err("cannot read time '( 0:16/00:00:1x)' (expected '( m:ss/hh:mm:ss)')".into())
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Move lines pieced together slot by slot from the variants real and broken lines
    /// have, with one more fragment put between two slots: wherever the fast path answers,
    /// the general reader answers the same.
    #[test]
    fn fast_move_line_agrees_with_general(
        lead in select(&["", " ", "   ", "\t", "\u{3000}", " ▲"]),
        to in select(&[
            "７六", "７６", "１九", "7六", "七六", "０六", "７〇", "同", "同\u{3000}", "同 ",
            "同\t", "1", "投了", "61手詰", "",
        ]),
        piece in select(&["歩", "と", "龍", "成銀", "犬", "", "\u{3000}歩"]),
        promote in select(&["", "", "成", "不成", "生", "\u{3000}"]),
        from in select(&[
            "(77)", "(19)", "(00)", "打", "打(00)", "(7)", "(77", "(７７)", "(70)", "",
        ]),
        gap in select(&["", " ", "   ", "\t", "\u{3000}", "+"]),
        time in select(&[
            "", "( 0:16/00:00:16)", "(125:30/02:05:30)", "( 0:16/)", "( 0:1x/00:00:16)",
            "(0:16/16)", "( 0:16/00:00:16", "x",
        ]),
        tail in select(&["", "", "+", " +", "+ ", "++", " ", "\r", "\u{3000}", " x"]),
        extra in select(&["", " ", "\u{3000}", "\t", "+", "(", ")", "成", "打", "x", "\r"]),
        at in 0..8usize,
    ) {
        let mut parts = vec![lead, to, piece, promote, from, gap, time, tail];
        parts.insert(at, extra);
        let rest = parts.concat();
        if let Some(fast) = fast_move_line(5, &rest) {
            prop_assert_eq!(Ok(fast), general_move_line(5, &rest), "{:?}", rest);
        }
    }

    /// Times with every field position a digit, a space or something else.
    #[test]
    fn fixed_time_agrees_with_general(
        chars in "\\( ?[0-9 x][0-9 ]:[0-9 x][0-9]/[0-9 ][0-9 x]:[0-9 ][0-9]:[0-9 x][0-9 ]\\)[+ ]?"
    ) {
        if let Some(fixed) = kifu_for_windows_time(chars.as_bytes()) {
            prop_assert_eq!(Some(fixed), general_time_fields(chars.as_bytes()));
        }
    }
}

/// Line ends (LF, CRLF, none at the end, blank lines) and the line numbers in warnings.
#[test]
fn line_splitting_and_numbers() {
    for (text, moves, warnings) in [
        ("", 0, vec![]),
        ("\n", 0, vec![]),
        ("   1 ７六歩(77)", 1, vec![]),
        ("   1 ７六歩(77)\n", 1, vec![]),
        ("   1 ７六歩(77)\r\n   2 ３四歩(33)\r\n", 2, vec![]),
        ("   1 ７六歩(77)\r\r\n\n\n   2 ３四歩(33)", 2, vec![]),
        (
            "\n\n   1 ７六歩(77) x\r\n",
            1,
            vec![(3, DiagKind::UnknownLine)],
        ),
        (
            "   1 ７六歩(77)\n\r\n   3 ３四歩(33)\n",
            2,
            vec![(3, DiagKind::BadMoveNumber)],
        ),
        ("   1 ７六歩(77)\n?\n", 1, vec![(2, DiagKind::UnknownLine)]),
    ] {
        let p = read(text);
        assert_eq!(kinds(&p), warnings, "{text:?}");
        assert_eq!(p.record.main_line().len(), moves + 1, "{text:?}");
    }
}

/// Whole records whose move lines take either path read alike, warnings included.
#[test]
fn fast_and_general_lines_in_a_record() {
    let fast = "   1 ７六歩(77)   ( 0:16/00:00:16)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 ２二角成(88) ( 0:02/00:00:18)\n   4 同　銀(31)   ( 0:03/00:00:04)\n   5 ４五角打     ( 0:04/00:00:22)\n   6 投了\n";
    let general = "1\t▲7六歩(77)\t( 0:16/00:00:16)\n2 △3四歩(33)\u{3000}(0:01/0:00:01)\n3 2二角成(88) (0:02/0:00:18)\n 4 同\t銀(31)\t( 0:03/ 0:00:04)\n5 ４五角　打 ( 0:04/00:00:22)\n6 投了\n";
    let a = read(fast);
    let b = read(general);
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    assert!(b.warnings.is_empty(), "{:?}", b.warnings);
    assert_eq!(a.record, b.record);
    assert_eq!(
        usi_main(&a.record),
        ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "resign"]
    );
    // The same mistakes give the same warnings on either path.
    let a = read("   1 ７六歩(77)   ( 0:16/00:00:16) junk\n   2 ３四歩(33) ( 0:1x/00:00:01)\n");
    let b = read("   1 7六歩(77)\t( 0:16/00:00:16) junk\n   2 3四歩(33) ( 0:1x/00:00:01)\n");
    assert_eq!(a.warnings, b.warnings);
    assert_eq!(
        kinds(&a),
        [(1, DiagKind::UnknownLine), (2, DiagKind::BadTime)]
    );
}

#[test]
fn reads_a_simple_game() {
    let p = read(
        "手合割：平手　　\n先手：A\n後手:B\n手数----指手---------消費時間--\n*start\n   1 ７六歩(77)   ( 0:16/00:00:16)\n*c1\n**engine\n&mark\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 投了\n*after end\nまで2手で後手の勝ち\n",
    );
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let r = &p.record;
    assert_eq!(r.header.black_name(), Some("A"));
    assert_eq!(r.header.white_name(), Some("B"));
    assert_eq!(usi_main(r), ["7g7f", "3c3d", "resign"]);
    assert_eq!(r.node(NodeId::ROOT).comment, "start");
    let m = r.main_line();
    assert_eq!(r.node(m[1]).comment, "c1\n*engine");
    assert_eq!(r.node(m[1]).bookmark.as_deref(), Some("mark"));
    assert_eq!(r.node(m[3]).comment, "after end");
}

#[test]
fn variations_and_implied_branches() {
    let text = "   1 ７六歩(77)+\n   2 ３四歩(33)+\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n\n変化：1手\n   1 ２六歩(27)\n   2 ８四歩(83)\n   1 ５六歩(57)\n";
    let p = read(text);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let r = &p.record;
    assert_eq!(r.node(NodeId::ROOT).children.len(), 3);
    let m1 = r.node(NodeId::ROOT).children[0];
    assert_eq!(r.node(m1).children.len(), 2);
}

#[test]
fn illegal_and_impossible_moves() {
    // 二歩 is illegal but possible: kept with a warning.
    let p = read("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩打\n");
    assert_eq!(kinds(&p), [(3, DiagKind::ImpossibleMove)]);
    let p = read("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五飛(28)\n   4 ８四歩(83)\n");
    assert_eq!(kinds(&p), [(3, DiagKind::IllegalMove)]);
    assert_eq!(p.record.main_line().len(), 5);
    let p = read("   1 ７六歩(55)\n   2 ３四歩(33)\n\n変化：1手\n   1 ２六歩(27)\n");
    assert_eq!(kinds(&p), [(1, DiagKind::ImpossibleMove)]);
    assert_eq!(usi_main(&p.record), ["2g2f"]);
    let p = read("   1 ７六飛(77)\n");
    assert_eq!(kinds(&p), [(1, DiagKind::BadMove)]);
    assert_eq!(usi_main(&p.record), ["7g7f"]);
    let p = read("   1 投了\n   2 ７六歩(77)\n");
    assert_eq!(kinds(&p), [(2, DiagKind::AfterEnd)]);
}

#[test]
fn handicap_and_diagram() {
    let p = read("手合割：香落ち\n   1 ３四歩(33)\n");
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(p.record.initial.handicap.map(|h| h.name), Some("香落ち"));
    let p = read("手合割：詰将棋\n");
    assert_eq!(p.record.initial.position, tsume_position());
    let p = read("手合割：謎落ち\n");
    assert_eq!(kinds(&p), [(1, DiagKind::BadHeader)]);
}

#[test]
fn writes_kifu_for_windows_lines() {
    let p = read(
        "   1 ７六歩(77)   ( 0:16/00:00:16)+\n   2 投了   ( 0:05/00:10:00)\n変化：1手\n   1 ２二角成(88)   ( 0:01/00:00:01)\n",
    );
    let w = write(&p.record, &KifOptions::default());
    assert!(
        w.text.contains("\n   1 ７六歩(77)   ( 0:16/00:00:16)+\n"),
        "{}",
        w.text
    );
    assert!(
        w.text
            .contains("\n   2 投了         ( 0:05/00:10:00)\nまで1手で先手の勝ち\n"),
        "{}",
        w.text
    );
    assert!(
        w.text
            .contains("\n\n変化：1手\n   1 ２二角成(88) ( 0:01/00:00:01)\n"),
        "{}",
        w.text
    );
    assert!(w.text.starts_with("手合割：平手\n"));
}

#[test]
fn time_fields_are_padded_like_kifu_for_windows() {
    let time = |spent: u64, total: u64| {
        let mut s = String::new();
        push_time(&mut s, spent * 1000, total * 1000);
        s
    };
    assert_eq!(time(16, 16), "( 0:16/00:00:16)");
    assert_eq!(time(0, 0), "( 0:00/00:00:00)");
    assert_eq!(time(9 * 60 + 5, 3600 + 61), "( 9:05/01:01:01)");
    assert_eq!(time(99 * 60 + 59, 99 * 3600 + 3599), "(99:59/99:59:59)");
    assert_eq!(time(125 * 60 + 30, 2 * 3600 + 330), "(125:30/02:05:30)");
    assert_eq!(time(61, 100 * 3600), "( 1:01/100:00:00)");
    let mut s = String::new();
    push_num(&mut s, 7, 4, false);
    push_num(&mut s, 12345, 2, true);
    push_num(&mut s, 3, 0, false);
    assert_eq!(s, "   7123453");
}

#[test]
fn counted_mate_words_are_endings() {
    let p = read("手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 61手詰\n");
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let r = &p.record;
    let last = *r.main_line().last().unwrap();
    // `61手詰` says the last move mates: 詰み, written back as the KIF word.
    assert_eq!(r.node(last).special(), Some(&Special::Mate));
    let text = write(r, &KifOptions::default()).text;
    assert!(text.contains("   2 詰み\n"), "{text}");
    let back = read(&text);
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
}

/// 手数＝N before the moves: the first move is N + 1; a file that numbers its moves from 1
/// anyway is read from 1; a preset whose moves start at 5 is a numbering mistake (warned);
/// a number before the record's first move is refused with a warning.
#[test]
fn the_first_move_number() {
    let diagram = "後手の持駒：なし\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ 金 ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ 玉|九\n+---------------------------+\n先手の持駒：金\n";
    let p = read(&format!(
        "{diagram}手数＝１０  ▲１一金  まで\n  11 １二金(23)\n  12 詰み\n"
    ));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(p.record.moves_before(), 10);
    let w = write(&p.record, &KifOptions::default()).text;
    assert!(w.contains("\n手数＝10\n手数----"), "{w}");
    assert!(w.contains("\n  11 １二金(23)\n  12 詰み\n"), "{w}");
    assert!(w.contains("まで11手で"), "{w}");

    let p = read(&format!("{diagram}手数＝10\n   1 １二金(23)\n"));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(p.record.moves_before(), 0);

    let p = read("手合割：平手\n   5 ７六歩(77)\n");
    assert_eq!(p.record.moves_before(), 0);
    assert_eq!(p.warnings[0].kind, DiagKind::BadMoveNumber);

    let p = read(&format!("{diagram}  11 １二金(23)\n   3 １一金(12)\n"));
    assert_eq!(p.record.moves_before(), 10);
    assert!(
        p.warnings[0]
            .message
            .contains("move number 3 (this record's moves start at 11)"),
        "{:?}",
        p.warnings
    );
}
