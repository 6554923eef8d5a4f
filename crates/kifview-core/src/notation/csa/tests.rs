//! Unit tests for the CSA reader and writer, one reading rule at a time.

use super::*;
use crate::notation::{DiagKind, Parsed};
use crate::record::{MoveTime, NodeId, Record, Special, Step};
use crate::rules::{Color, Handicap, Move, Position};

fn one(text: &str) -> Parsed {
    let mut v = read(text);
    assert_eq!(v.len(), 1, "one record expected");
    v.remove(0)
}

/// Reads `text` and checks it gives no warnings.
fn clean(text: &str) -> Record {
    let p = one(text);
    assert!(
        p.warnings.is_empty(),
        "unexpected warnings: {:?}",
        p.warnings
    );
    p.record
}

fn usi_line(r: &Record) -> Vec<String> {
    r.main_line()
        .into_iter()
        .skip(1)
        .map(|id| match &r.node(id).step {
            Step::Move(m) => m.mv.usi(),
            Step::Special(s) => format!("%{}", s.json_name()),
            Step::Root => String::new(),
        })
        .collect()
}

fn kinds(p: &Parsed) -> Vec<(usize, DiagKind)> {
    p.warnings.iter().map(|w| (w.line, w.kind)).collect()
}

fn node(r: &Record, ply: usize) -> &crate::record::Node {
    r.node(r.main_line()[ply])
}

const EVEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

// ---- versions, names, fields ----

#[test]
fn every_version_line_is_accepted() {
    for v in ["V2", "V2.1", "V2.2", "V3.0"] {
        let r = clean(&format!("{v}\nPI\n+\n+7776FU\n"));
        assert_eq!(usi_line(&r), ["7g7f"]);
    }
    let p = one("V9.9\nPI\n+\n");
    assert_eq!(kinds(&p), [(1, DiagKind::Unsupported)]);
}

#[test]
fn encoding_line_is_skipped_and_plain_lines_are_remarks() {
    let r = clean(
        "'CSA encoding=SHIFT_JIS\nV3.0\n' a plain comment\nPI\n+\n'another\n+7776FU\n'summary:toryo\n",
    );
    assert_eq!(usi_line(&r), ["7g7f"]);
    // Remarks, which readers skip: not comments.
    assert_eq!(r.node(NodeId::ROOT).comment, "");
    assert_eq!(r.program_lines, ["# a plain comment"]);
    assert_eq!(r.node(NodeId::ROOT).remarks, ["another"]);
    assert_eq!(node(&r, 1).comment, "");
    assert_eq!(node(&r, 1).remarks, ["summary:toryo"]);
    let r = clean("' encoding=UTF-8\nPI\n+\n");
    assert_eq!(r.node(NodeId::ROOT).comment, "");
}

#[test]
fn names_become_sente_and_gote() {
    let r = clean("V2.2\nN+Habu Yoshiharu\nN-藤井聡太\nPI\n+\n");
    assert_eq!(r.header.get("先手"), Some("Habu Yoshiharu"));
    assert_eq!(r.header.get("後手"), Some("藤井聡太"));
    // Handicap records keep 先手/後手 too (as the reference reader does).
    let r = clean("V2.2\nN+shitate\nN-uwate\nPI82HI22KA\n-\n");
    assert_eq!(r.header.black_name(), Some("shitate"));
    assert_eq!(r.header.get("後手"), Some("uwate"));
}

#[test]
fn dollar_fields_map_to_kif_names_and_are_read_anywhere() {
    let r = clean(
        "V2.2\n$EVENT:竜王戦\n$SITE:東京\n$START_TIME:2003/05/03 10:30:00\n$TIME_LIMIT:00:25+00\n\
         $OPENING:YAGURA\n$NOTE:memo\n$MAX_MOVES:256\n$END_TIME:\nPI\n+\n+7776FU\n%TORYO\n\
         $END_TIME:2003/05/03 11:11:05\n",
    );
    let h = &r.header;
    assert_eq!(h.get("棋戦"), Some("竜王戦"));
    assert_eq!(h.get("場所"), Some("東京"));
    assert_eq!(h.get("開始日時"), Some("2003/05/03 10:30:00"));
    assert_eq!(h.get("終了日時"), Some("2003/05/03 11:11:05"));
    assert_eq!(h.get("持ち時間"), Some("00:25+00"));
    assert_eq!(h.get("戦型"), Some("YAGURA"));
    assert_eq!(h.get("備考"), Some("memo"));
    assert_eq!(h.get("MAX_MOVES"), Some("256"));
    let p = one("$EVENT\nPI\n+\n");
    assert_eq!(kinds(&p), [(1, DiagKind::BadHeader)]);
}

// ---- positions ----

#[test]
fn pi_with_removals_gives_the_handicap_preset() {
    let r = clean("PI82HI22KA\n-\n-5142OU\n");
    assert_eq!(r.initial.handicap.map(|h| h.name), Some("二枚落ち"));
    assert_eq!(
        r.initial.position.to_sfen(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(usi_line(&r), ["5a4b"]);
    let r = clean("PI\n+\n");
    assert_eq!(r.initial.position.to_sfen(), EVEN);
    assert_eq!(r.initial.handicap.map(|h| h.name), Some("平手"));
    let p = one("PI55FU\n+\n");
    assert_eq!(kinds(&p), [(1, DiagKind::BadBoard)]);
}

#[test]
fn full_board_rows_with_collapsed_or_missing_spaces() {
    let full = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n\
                P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \n\
                P6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \n\
                P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n";
    assert_eq!(clean(full).initial.position.to_sfen(), EVEN);
    let collapsed = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI * * * * * -KA *\n\
                     P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4\nP5 *  *  *\nP6\nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n\
                     P8 * +KA *  *  *  *  * +HI\nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n";
    let r = clean(collapsed);
    assert_eq!(r.initial.position.to_sfen(), EVEN);
    assert_eq!(r.initial.handicap.map(|h| h.name), Some("平手"));
    let p = one("P1-KY-KE-XX\n+\n");
    assert_eq!(kinds(&p), [(1, DiagKind::BadBoard)]);
}

#[test]
fn piece_lists_with_hands_board_squares_and_al() {
    let r = clean("P-11OU21FU22FU\nP+00HI00HI00KY\nP-00AL\n+\n");
    let pos = &r.initial.position;
    assert_eq!(pos.hand_count(Color::Black, PieceKind::Rook), 2);
    assert_eq!(pos.hand_count(Color::Black, PieceKind::Lance), 1);
    assert_eq!(pos.hand_count(Color::White, PieceKind::Lance), 3);
    assert_eq!(pos.hand_count(Color::White, PieceKind::Pawn), 16);
    assert_eq!(pos.hand_count(Color::White, PieceKind::Rook), 0);
    assert!(r.initial.handicap.is_none());
    let p = one("PI\nP+00OU\n+\n");
    assert_eq!(kinds(&p), [(2, DiagKind::BadBoard)]);
}

#[test]
fn turn_line_sets_the_side_to_move() {
    let r = clean("PI\n-\n-3334FU\n");
    assert_eq!(r.initial.position.side_to_move(), Color::White);
    // Missing turn line: taken from the first move, with a warning.
    let p = one("PI\n-3334FU\n");
    assert_eq!(kinds(&p), [(2, DiagKind::BadBoard)]);
    assert_eq!(usi_line(&p.record), ["3c3d"]);
}

// ---- moves ----

use crate::rules::PieceKind;

#[test]
fn promotion_is_read_from_the_piece_after_the_move() {
    let r = clean("PI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0055KA\n");
    assert_eq!(usi_line(&r), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]);
    let m = node(&r, 3).move_data().copied().unwrap();
    assert_eq!(m.piece, PieceKind::Bishop);
    assert_eq!(m.captured, Some(PieceKind::Bishop));
    // An already promoted piece moving keeps its code and is no promotion.
    let r = clean("PI\n+\n+7776FU\n-3334FU\n+8822UM\n-4132KI\n+2211UM\n");
    assert!(!node(&r, 5).move_data().unwrap().mv.is_promotion());
}

#[test]
fn a_piece_code_that_does_not_match_the_board_is_reported() {
    let p = one("PI\n+\n+7776KI\n-3334FU\n");
    assert_eq!(kinds(&p), [(3, DiagKind::BadMove)]);
    assert_eq!(usi_line(&p.record), ["7g7f", "3c3d"]);
}

#[test]
fn illegal_but_possible_moves_are_kept_with_the_reason() {
    // 二歩: a second pawn dropped on file 7 (the pawn in hand is the one missing from 1七).
    let p = one("PI17FU\nP+00FU\n+\n+0075FU\n-3334FU\n");
    assert_eq!(kinds(&p), [(4, DiagKind::IllegalMove)]);
    assert!(p.warnings[0].message.contains("二歩"), "{}", p.warnings[0]);
    assert_eq!(usi_line(&p.record), ["P*7e", "3c3d"]);
    // A rook jumping over pieces.
    let p = one("PI\n+\n+2822HI\n");
    assert_eq!(kinds(&p), [(3, DiagKind::IllegalMove)]);
    assert_eq!(usi_line(&p.record), ["2h2b"]);
}

#[test]
fn impossible_moves_stop_the_record_with_one_warning() {
    let p = one("PI\n+\n+7776FU\n-5554FU\n+2726FU\n-3334FU\n%TORYO\n");
    assert_eq!(kinds(&p), [(4, DiagKind::ImpossibleMove)]);
    assert!(
        p.warnings[0].message.contains("3 skipped"),
        "{}",
        p.warnings[0]
    );
    assert_eq!(usi_line(&p.record), ["7g7f"]);
    // The wrong side.
    let p = one("PI\n+\n+7776FU\n+2726FU\n");
    assert_eq!(kinds(&p), [(4, DiagKind::ImpossibleMove)]);
    // Not in hand.
    let p = one("PI\n+\n+0055KA\n");
    assert_eq!(kinds(&p), [(3, DiagKind::ImpossibleMove)]);
    // Unreadable.
    let p = one("PI\n+\n+77FU\n-3334FU\n");
    assert_eq!(kinds(&p), [(3, DiagKind::BadMove)]);
    assert!(usi_line(&p.record).is_empty());
}

#[test]
fn pawn_drops_without_a_king_to_mate_are_legal() {
    // Tsume position: Black has no king; White's pawn drop cannot be 打ち歩詰め.
    let r = clean("P1 *  *  *  *  *  *  *  * -OU\nP+00KI\nP-00AL\n-\n-0055FU\n");
    assert_eq!(usi_line(&r), ["P*5e"]);
    // A real 打ち歩詰め is reported (and kept).
    let p = one(
        "P1 *  *  *  *  *  *  * -KE-OU\nP3 *  *  *  *  *  *  * +KI * \nP+00FU\nP-00AL\n+\n+0012FU\n",
    );
    assert_eq!(kinds(&p), [(6, DiagKind::IllegalMove)]);
    assert!(
        p.warnings[0].message.contains("打ち歩詰め"),
        "{}",
        p.warnings[0]
    );
    assert_eq!(usi_line(&p.record), ["P*1b"]);
}

// ---- times, endings, comments ----

#[test]
fn times_keep_milliseconds_and_running_totals() {
    let r = clean("V3.0\nPI\n+\n+7776FU\nT6.123\n-3334FU\nT5\n+2726FU\nT1.5\n%TORYO\nT2\n");
    let t: Vec<Option<MoveTime>> = r
        .main_line()
        .iter()
        .skip(1)
        .map(|&i| r.node(i).time)
        .collect();
    let mt = |s, t| {
        Some(MoveTime {
            spent_ms: s,
            total_ms: Some(t),
        })
    };
    assert_eq!(
        t,
        [
            mt(6123, 6123),
            mt(5000, 5000),
            mt(1500, 7623),
            mt(2000, 7000)
        ]
    );
    // A move without a T line in a timed record spent 0.
    let r = clean("PI\n+\n+7776FU\nT3\n-3334FU\n+2726FU\nT4\n");
    assert_eq!(node(&r, 2).time, mt(0, 0));
    assert_eq!(node(&r, 3).time, mt(4000, 7000));
    // No T lines: no times.
    assert_eq!(node(&clean("PI\n+\n+7776FU\n"), 1).time, None);
    let p = one("PI\n+\n+7776FU\nTx\n");
    assert_eq!(kinds(&p), [(4, DiagKind::BadTime)]);
    let p = one("PI\n+\nT5\n");
    assert_eq!(kinds(&p), [(3, DiagKind::BadTime)]);
}

#[test]
fn every_ending_is_read() {
    let cases = [
        ("%TORYO", Special::Resign),
        ("%CHUDAN", Special::Interrupt),
        ("%SENNICHITE", Special::RepetitionDraw),
        ("%JISHOGI", Special::Impass),
        ("%TSUMI", Special::Mate),
        ("%FUZUMI", Special::NoMate),
        ("%TIME_UP", Special::Timeout),
        ("%ILLEGAL_MOVE", Special::FoulLose),
        ("%KACHI", Special::EnteringKing),
        ("%MAX_MOVES", Special::MaxMoves),
        ("%HIKIWAKE", Special::Draw),
        ("%MATTA", Special::Other("MATTA".into())),
        // Black (+) made the foul; White is to move and wins.
        ("%+ILLEGAL_ACTION", Special::FoulWin),
        ("%-ILLEGAL_ACTION", Special::FoulLose),
    ];
    for (word, want) in cases {
        let r = clean(&format!("PI\n+\n+7776FU\n{word}\n"));
        assert_eq!(node(&r, 2).special(), Some(&want), "{word}");
    }
    let p = one("PI\n+\n%TORYO\n+7776FU\n");
    assert_eq!(kinds(&p), [(4, DiagKind::AfterEnd)]);
    // A repeated identical ending (servers do this) is not an error.
    let r = clean("PI\n+\n+7776FU\n%KACHI\nT3\n%KACHI\n");
    assert_eq!(usi_line(&r), ["7g7f", "%enteringOfKing"]);
}

#[test]
fn comments_go_to_the_last_node_and_evaluations_keep_a_star() {
    let r = clean(
        "V2.2\n'*before the position\nPI\n+\n'*root 2\n+7776FU\n'*first\n'** 30 -3334FU\n'plain\n'*\n-3334FU\n%TORYO\n'*after end\n",
    );
    assert_eq!(r.node(NodeId::ROOT).comment, "before the position\nroot 2");
    // The empty comment line (`'*`) is kept: an empty last line of the comment.
    assert_eq!(node(&r, 1).comment, "first\n* 30 -3334FU\n");
    assert_eq!(node(&r, 1).remarks, ["plain"]);
    assert_eq!(node(&r, 2).comment, "");
    assert_eq!(node(&r, 3).comment, "after end");
}

#[test]
fn comma_joined_statements() {
    let r = clean("PI\n+\n+7776FU,T12,-3334FU,T5\n+2726FU,'* a, b, c\n%KACHI,'* -5000 win\n");
    assert_eq!(usi_line(&r), ["7g7f", "3c3d", "2g2f", "%enteringOfKing"]);
    assert_eq!(node(&r, 2).time.map(|t| t.spent_ms), Some(5000));
    assert_eq!(node(&r, 3).comment, " a, b, c");
    assert_eq!(node(&r, 4).comment, " -5000 win");
    // Names and fields are never split.
    let r = clean("N+a,b\n$EVENT:x,y\nPI\n+\n");
    assert_eq!(r.header.get("先手"), Some("a,b"));
    assert_eq!(r.header.get("棋戦"), Some("x,y"));
}

#[test]
fn blank_lines_crlf_and_bom() {
    let r = clean("\u{feff}V2.2\r\n\r\nN+x \r\nPI\r\n+\r\n\r\n+7776FU\r\nT1\r\n'*c \r\n");
    assert_eq!(usi_line(&r), ["7g7f"]);
    assert_eq!(r.header.get("先手"), Some("x"));
    assert_eq!(node(&r, 1).comment, "c ");
}

#[test]
fn unreadable_lines_are_reported_and_skipped() {
    let p = one("PI\n+\nhello\n+7776FU\n");
    assert_eq!(kinds(&p), [(3, DiagKind::UnknownLine)]);
    assert_eq!(usi_line(&p.record), ["7g7f"]);
    let p = one("PI\n+\n+7776FU\nP1 *\n");
    assert_eq!(kinds(&p), [(4, DiagKind::BadBoard)]);
}

#[test]
fn several_records_separated_by_slash() {
    let v = read("V2.2\nN+a\nPI\n+\n+7776FU\n%TORYO\n/\nV2.2\nN+b\nPI\n+\n+2726FU\nbad\n/\n");
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].record.header.get("先手"), Some("a"));
    assert_eq!(usi_line(&v[1].record), ["2g2f"]);
    // Line numbers count from the top of the file.
    assert_eq!(kinds(&v[1]), [(13, DiagKind::UnknownLine)]);
}

#[test]
fn empty_input_gives_one_record_with_a_warning() {
    for t in ["", "\n\n", "'only a comment\n"] {
        let v = read(t);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].warnings.len(), 1);
        assert_eq!(v[0].record.initial.position.to_sfen(), EVEN);
    }
}

#[test]
fn garbage_never_panics() {
    let samples = [
        "+",
        "-",
        "P",
        "P1",
        "P+",
        "P+00",
        "PI8",
        "T",
        "T.",
        "%",
        "$",
        ":",
        "N",
        "N+",
        "'",
        ",,,",
        "+0000FU",
        "+1010FU",
        "+99",
        "P1+",
        "P1-FU-",
        "PI\n+\n+0011KY",
        "PI\n+\n+1911KY\n-1112KY",
    ];
    for s in samples {
        let v = read(s);
        assert!(!v.is_empty(), "{s}");
    }
}

// ---- writer ----

fn game(text: &str) -> Record {
    clean(text)
}

#[test]
fn writes_handicaps_as_pi_with_removals() {
    let r = Record::new(crate::record::Initial {
        position: Handicap::by_name("二枚落ち").unwrap().position(),
        handicap: Handicap::by_name("二枚落ち"),
    });
    let w = write(&r, &CsaOptions::default());
    assert_eq!(w.text, "V2.2\nPI82HI22KA\n-\n");
    let w = write(&Record::default(), &CsaOptions::default());
    assert_eq!(w.text, "V2.2\nPI\n+\n");
}

#[test]
fn writes_custom_positions_as_rows_and_piece_lists() {
    let pos = Position::from_sfen("8k/9/9/9/9/9/9/9/9 b 2G2r2b2g4s4n4l18p 1").unwrap();
    let r = Record::new(crate::record::Initial {
        position: pos.clone(),
        handicap: None,
    });
    let w = write(&r, &CsaOptions::default());
    assert!(
        w.text.contains("P1 *  *  *  *  *  *  *  * -OU\n"),
        "{}",
        w.text
    );
    assert!(w.text.contains("P+00KI00KI\nP-00AL\n+\n"), "{}", w.text);
    assert_eq!(clean(&w.text).initial.position, pos);
    // A position with both kings lists White's hand.
    let pos = Position::from_sfen("8k/9/9/9/9/9/9/9/K8 w P 1").unwrap();
    let r = Record::new(crate::record::Initial {
        position: pos.clone(),
        handicap: None,
    });
    let w = write(&r, &CsaOptions::default());
    assert!(
        w.text
            .ends_with("P9+OU *  *  *  *  *  *  *  * \nP+00FU\n-\n"),
        "{}",
        w.text
    );
    assert_eq!(clean(&w.text).initial.position.to_sfen(), pos.to_sfen());
}

#[test]
fn writes_names_fields_and_full_dates() {
    let mut r = Record::default();
    for (k, v) in [
        ("先手", "羽生"),
        ("後手", "谷川"),
        ("棋戦", "名人戦"),
        ("開始日時", "2018/08/25(土) 23:56"),
        ("終了日時", "2018/08/26"),
        ("場所", "東京"),
        ("表題", "第1局"),
        ("持ち時間", "各9時間"),
        ("MAX_MOVES", "256"),
        ("レーティング", "1500"),
    ] {
        r.header.set(k, v);
    }
    let w = write(&r, &CsaOptions::default());
    assert_eq!(
        w.text,
        "V2.2\nN+羽生\nN-谷川\n$EVENT:名人戦\n$START_TIME:2018/08/25 23:56:00\n$END_TIME:2018/08/26\n\
         $SITE:東京\n$TIME_LIMIT:各9時間\n$MAX_MOVES:256\nPI\n+\n"
    );
    assert_eq!(
        w.losses.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["the 表題 and レーティング headers"]
    );
    assert_eq!(
        write::csa_date("2018/08/25(土) 23:56:07").as_deref(),
        Some("2018/08/25 23:56:07")
    );
    assert_eq!(
        write::csa_date("２０１８年８月２５日").as_deref(),
        Some("2018/08/25")
    );
    assert_eq!(write::csa_date("昭和"), None);
    assert_eq!(write::csa_date("2005/11/29･30日"), None);
}

#[test]
fn writes_moves_times_comments_and_endings() {
    let mut r = game("PI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0055KA\n%TORYO\n");
    r.node_mut(NodeId::ROOT).comment = "root\n\n* 30 -3334FU".into();
    let ids = r.main_line();
    r.node_mut(ids[1]).time = Some(MoveTime {
        spent_ms: 12_345,
        total_ms: None,
    });
    r.node_mut(ids[6]).time = Some(MoveTime {
        spent_ms: 5_000,
        total_ms: None,
    });
    r.node_mut(ids[6]).comment = "resigned".into();
    let w = write(&r, &CsaOptions::default());
    assert_eq!(
        w.text,
        "V2.2\nPI\n+\n'*root\n'*\n'** 30 -3334FU\n+7776FU\nT12\n-3334FU\n+8822UM\n-3122GI\n+0055KA\n%TORYO\nT5\n'*resigned\n"
    );
    assert_eq!(
        w.losses.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["fractions of a second in 1 time (V2.2 has whole seconds; V3.0 keeps them)"]
    );
    let v3 = CsaOptions {
        version: CsaVersion::V30,
        encoding: crate::notation::TextEncoding::ShiftJis,
    };
    let w = write(&r, &v3);
    assert!(
        w.text.starts_with("'CSA encoding=SHIFT_JIS\nV3.0\n"),
        "{}",
        w.text
    );
    assert!(w.text.contains("+7776FU\nT12.345\n"), "{}", w.text);
    assert!(w.losses.is_empty(), "{:?}", w.losses);
}

#[test]
fn remarks_write_back_as_they_were_read() {
    let text = "V2.2\n'wdoor+floodgate-300-10F\nPI\n+\n'*root\n'rating:a:b\n+7776FU\nT12\n'** 30 -3334FU\n%TORYO\n'summary:toryo:a win:b lose\n";
    let r = game(text);
    assert_eq!(r.node(NodeId::ROOT).comment, "root");
    assert_eq!(r.program_lines, ["#wdoor+floodgate-300-10F"]);
    assert_eq!(r.node(NodeId::ROOT).remarks, ["rating:a:b"]);
    let w = write(&r, &CsaOptions::default());
    assert_eq!(
        w.text,
        "V2.2\n'wdoor+floodgate-300-10F\nPI\n+\n'*root\n'rating:a:b\n+7776FU\nT12\n'** 30 -3334FU\n%TORYO\nT0\n'summary:toryo:a win:b lose\n"
    );
    assert_eq!(w.losses, []);
    // Comment lines that would read as something else get `'*`: `'*x` and an encoding line.
    let mut r = game("PI\n+\n");
    r.node_mut(NodeId::ROOT).comment = "'*x\n'CSA encoding=EUC-JP".into();
    let w = write(&r, &CsaOptions::default());
    assert!(
        w.text.ends_with("\n'*'*x\n'*'CSA encoding=EUC-JP\n"),
        "{}",
        w.text
    );
    assert_eq!(
        game(&w.text).node(NodeId::ROOT).comment,
        r.node(NodeId::ROOT).comment
    );
}

#[test]
fn foul_win_names_the_side_that_fouled() {
    let mut r = game("PI\n+\n+7776FU\n");
    let last = *r.main_line().last().unwrap();
    r.push_child(last, Step::Special(Special::FoulWin));
    assert!(
        write(&r, &CsaOptions::default())
            .text
            .ends_with("+7776FU\n%+ILLEGAL_ACTION\n")
    );
    let back = clean(&write(&r, &CsaOptions::default()).text);
    assert_eq!(node(&back, 2).special(), Some(&Special::FoulWin));
}

#[test]
fn losses_name_what_csa_cannot_hold() {
    let mut r = game("PI\n+\n+7776FU\n-3334FU\n");
    let first = r.main_line()[1];
    let mut pos = Position::startpos();
    let _ = pos.play(Move::from_usi("7g7f").unwrap());
    let alt = Move::from_usi("8c8d").unwrap();
    let played = pos.play(alt).unwrap();
    let v = r.push_child(
        first,
        Step::Move(crate::record::MoveData {
            mv: alt,
            color: Color::White,
            piece: played.piece,
            captured: None,
        }),
    );
    r.node_mut(v).bookmark = Some("b".into());
    r.node_mut(first).bookmark = Some("a".into());
    let end = r.main_line()[2];
    r.push_child(end, Step::Special(Special::WinByDefault));
    // A remark of the head is written as one; a remark in a variation goes with it.
    r.program_lines.push("# KIF".into());
    r.node_mut(v).remarks.push("in the variation".into());
    let w = write(&r, &CsaOptions::default());
    assert!(w.text.starts_with("V2.2\n' KIF\n"), "{}", w.text);
    assert_eq!(
        w.losses.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "the ending 不戦勝",
            "1 variation (1 move)",
            "2 bookmarks",
            "1 remark line (# in KIF, ' in CSA)"
        ]
    );
    assert!(w.text.ends_with("-3334FU\n"));
}

#[test]
fn unknown_csa_endings_are_written_back_as_read() {
    let r = game("PI\n+\n+7776FU\n%MATTA\n");
    let w = write(&r, &CsaOptions::default());
    assert!(w.text.ends_with("+7776FU\n%MATTA\n"), "{}", w.text);
    assert!(w.losses.is_empty());
    // A KIF word such as 封じ手 has no CSA form: reported, not written.
    let mut r = game("PI\n+\n+7776FU\n");
    let last = r.main_line()[1];
    r.push_child(last, Step::Special(Special::Other("封じ手".into())));
    let w = write(&r, &CsaOptions::default());
    assert!(w.text.ends_with("+7776FU\n"), "{}", w.text);
    assert_eq!(
        w.losses.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["the ending 封じ手"]
    );
}

#[test]
fn the_version_line_says_whether_a_file_is_v3() {
    assert!(super::declares_v3(
        "'CSA encoding=UTF-8\r\nV3.0\r\nPI\r\n+\r\n"
    ));
    assert!(super::declares_v3("\n' a comment\n\nV3.0\n"));
    assert!(!super::declares_v3("V2.2\nPI\n+\n"));
    assert!(!super::declares_v3("PI\n+\n+7776FU\n"));
    // A V3.0 further down (a second record's) is not this file's version line.
    assert!(!super::declares_v3("V2.2\nPI\n+\n/\nV3.0\n"));
}

#[test]
fn a_remark_with_a_line_break_is_one_line_and_said() {
    let mut r = game("PI\n+\n+7776FU\n");
    let first = r.main_line()[1];
    r.node_mut(first).remarks.push("a\nb".into());
    r.node_mut(first).remarks.push("*not a comment".into());
    let w = write(&r, &CsaOptions::default());
    assert!(w.text.ends_with("+7776FU\n'a b\n"), "{}", w.text);
    assert_eq!(
        w.losses.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "1 remark line (# in KIF, ' in CSA)",
            "line breaks in a remark"
        ]
    );
}

#[test]
fn empty_comment_lines_are_kept_or_named() {
    // Between comment lines, first or last: kept, and written back as `'*`.
    let text = "V2.2\nPI\n+\n+7776FU\n'*\n'*a\n'*\n'*b\n'*\n-3334FU\n";
    let p = one(text);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(node(&p.record, 1).comment, "\na\n\nb\n");
    let w = write(&p.record, &CsaOptions::default());
    assert_eq!(w.text, text);
    assert!(w.losses.is_empty(), "{:?}", w.losses);
    // Alone on its move, a record cannot hold it: the reader says so, naming the line.
    let p = one("PI\n+\n+7776FU\n'*\n-3334FU\n");
    assert_eq!(kinds(&p), [(4, DiagKind::Unsupported)]);
    assert!(
        p.warnings[0].message.contains("empty comment line"),
        "{:?}",
        p.warnings
    );
}

#[test]
fn each_record_of_a_file_of_several_reserves_for_itself_not_for_the_file() {
    // A short first record, then a long one: the first must not hold room for the file.
    let mut text = String::from("V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nV2.2\nPI\n+\n");
    for _ in 0..20_000 {
        text.push_str("+5958OU\nT1\n-5152OU\nT1\n+5859OU\nT1\n-5251OU\nT1\n");
    }
    let v = read(&text);
    assert_eq!(v.len(), 2);
    let first = &v[0].record.nodes;
    assert!(
        first.capacity() < 64,
        "{} nodes reserved for a record of {}",
        first.capacity(),
        first.len()
    );
}
