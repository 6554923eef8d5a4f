use super::*;
use crate::engine::test_support::info;

const FAIRY: &str = include_str!("../../tests/fixtures/engines/fairy-stockfish.out");
const GPS: &str = include_str!("../../tests/fixtures/engines/gpsusi.out");

#[test]
fn every_recorded_line_reads_without_panic_and_usi_lines_are_recognised() {
    for text in [FAIRY, GPS] {
        for line in text.lines() {
            let msg = parse_line(line);
            let head = line.split(' ').next().unwrap_or("");
            let is_usi = matches!(
                head,
                "info" | "bestmove" | "usiok" | "readyok" | "id" | "option" | "checkmate"
            );
            assert_eq!(msg.is_some(), is_usi, "{line:?} -> {msg:?}");
        }
    }
}

#[test]
fn fairy_stockfish_info_with_tbhits_reads_every_field() {
    let i = info(
        "info depth 11 seldepth 18 multipv 1 score cp 159 nodes 104602 nps 383157 tbhits 0 \
         time 273 pv 4i3h 5a4b 5i4i",
    );
    assert_eq!(i.depth, Some(11));
    assert_eq!(i.seldepth, Some(18));
    assert_eq!(i.multipv, Some(1));
    assert_eq!(i.score, Some(RawScore::Cp(159)));
    assert_eq!(i.bound, Bound::Exact);
    assert_eq!(i.nodes, Some(104_602));
    assert_eq!(i.nps, Some(383_157));
    assert_eq!(i.tbhits, Some(0));
    assert_eq!(i.time_ms, Some(273));
    assert_eq!(i.pv.as_deref(), Some("4i3h 5a4b 5i4i"));
}

#[test]
fn recorded_upperbound_hashfull_and_mate_lines() {
    let upper = FAIRY
        .lines()
        .find(|l| l.contains("upperbound"))
        .expect("the recording has an upperbound line");
    let i = info(upper);
    assert_eq!(i.score, Some(RawScore::Cp(146)));
    assert_eq!(i.bound, Bound::Upper);
    assert_eq!(i.hashfull, Some(366));
    assert_eq!(i.pv.as_deref(), Some("7i6h 7c7d"));

    let mate = FAIRY.lines().find(|l| l.contains("score mate 1")).unwrap();
    let i = info(mate);
    assert_eq!(
        i.score,
        Some(RawScore::Mate {
            plies: Some(1),
            winning: true
        })
    );
    assert_eq!(i.pv.as_deref(), Some("G*5b"));
}

#[test]
fn nodes_beyond_two_to_the_31_and_lowerbound_after_mate() {
    let i = info("info depth 40 nodes 5000000000 nps 3000000000 score mate -7 lowerbound pv 1a1b");
    assert_eq!(i.nodes, Some(5_000_000_000));
    assert_eq!(i.nps, Some(3_000_000_000));
    assert_eq!(
        i.score,
        Some(RawScore::Mate {
            plies: Some(7),
            winning: false
        })
    );
    assert_eq!(i.bound, Bound::Lower);
    assert_eq!(i.pv.as_deref(), Some("1a1b"));
}

#[test]
fn plain_mate_signs_and_mate_zero() {
    let s = |l: &str| info(l).score;
    assert_eq!(
        s("info score mate + pv G*5b"),
        Some(RawScore::Mate {
            plies: None,
            winning: true
        })
    );
    assert_eq!(
        s("info score mate -"),
        Some(RawScore::Mate {
            plies: None,
            winning: false
        })
    );
    assert_eq!(
        s("info score mate 0"),
        Some(RawScore::Mate {
            plies: Some(0),
            winning: false
        })
    );
    assert_eq!(
        s("info score mate +3"),
        Some(RawScore::Mate {
            plies: Some(3),
            winning: true
        })
    );
}

#[test]
fn gpsusi_lines_without_multipv_and_partial_infos() {
    let i =
        info("info depth 6 seldepth 10 time 500 score cp 57 nodes 117307 nps 234376 pv 5g5f 7b8b");
    assert_eq!(i.multipv, None);
    assert_eq!(i.score, Some(RawScore::Cp(57)));
    assert_eq!(i.pv.as_deref(), Some("5g5f 7b8b"));
    assert_eq!(info("info currmove 5g5f").currmove.as_deref(), Some("5g5f"));
    let i = info("info time 1169 nodes 259625 nps 221908");
    assert_eq!(
        (i.time_ms, i.nodes, i.pv),
        (Some(1169), Some(259_625), None)
    );
    assert_eq!(info("info hashfull 43").hashfull, Some(43));
    assert_eq!(
        info("info depth 6"),
        Info {
            depth: Some(6),
            ..Info::default()
        }
    );
}

#[test]
fn unknown_keys_and_bad_numbers_are_skipped() {
    let i = info("info depth x wdl 500 300 200 multipv 2 score cp 12abc nodes 7 pv 7g7f");
    assert_eq!(i.depth, None);
    assert_eq!(i.multipv, Some(2));
    assert_eq!(i.score, None);
    assert_eq!(i.nodes, Some(7));
    assert_eq!(i.pv.as_deref(), Some("7g7f"));
    let i = info("info score lowerbound pv");
    assert_eq!((i.score, i.bound, i.pv), (None, Bound::Lower, None));
}

#[test]
fn string_runs_to_the_end_of_the_line() {
    let i = info("info depth 3 string hello  pv 7g7f world");
    assert_eq!(i.depth, Some(3));
    assert_eq!(i.string.as_deref(), Some("hello  pv 7g7f world"));
    assert_eq!(i.pv, None);
}

#[test]
fn bestmove_forms() {
    assert_eq!(
        parse_line("bestmove 6i6h ponder 2b8h"),
        Some(UsiMessage::BestMove {
            best: "6i6h".into(),
            ponder: Some("2b8h".into())
        })
    );
    assert_eq!(
        parse_line("bestmove resign"),
        Some(UsiMessage::BestMove {
            best: "resign".into(),
            ponder: None
        })
    );
    assert_eq!(
        parse_line("bestmove win\r"),
        Some(UsiMessage::BestMove {
            best: "win".into(),
            ponder: None
        })
    );
    assert_eq!(parse_line("bestmove"), None);
}

#[test]
fn checkmate_forms_from_gpsusi() {
    let replies: Vec<_> = GPS
        .lines()
        .filter_map(|l| match parse_line(l) {
            Some(UsiMessage::Checkmate(c)) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(replies[0], CheckmateReply::Mate("G*5b".into()));
    assert!(replies[1..].iter().all(|r| *r == CheckmateReply::NoMate));
    assert_eq!(
        parse_line("checkmate timeout"),
        Some(UsiMessage::Checkmate(CheckmateReply::Timeout))
    );
    assert_eq!(
        parse_line("checkmate notimplemented"),
        Some(UsiMessage::Checkmate(CheckmateReply::NotImplemented))
    );
    assert_eq!(
        parse_line("checkmate G*5b  5a4a G*4b"),
        Some(UsiMessage::Checkmate(CheckmateReply::Mate(
            "G*5b 5a4a G*4b".into()
        )))
    );
}

#[test]
fn ids_and_handshake_from_the_recordings() {
    assert_eq!(
        parse_line("id name Fairy-Stockfish 11.1 LB 64"),
        Some(UsiMessage::IdName("Fairy-Stockfish 11.1 LB 64".into()))
    );
    assert_eq!(
        parse_line("id author teamgps"),
        Some(UsiMessage::IdAuthor("teamgps".into()))
    );
    assert_eq!(parse_line("usiok"), Some(UsiMessage::UsiOk));
    assert_eq!(parse_line("readyok "), Some(UsiMessage::ReadyOk));
    for noise in [
        "",
        "Fairy-Stockfish 11.1 LB 64 by Fabian Fichter",
        "No such option: USI_Hash",
        "delay go (go 2 times, bestmove 1 times)",
        "osl::SimpleState::setPiece! maybe too many pieces PAWN OFF -",
        "usiokay",
        "id",
    ] {
        assert_eq!(parse_line(noise), None, "{noise:?}");
    }
}

#[test]
fn options_with_spaces_defaults_ranges_and_vars() {
    let opts: Vec<UsiOption> = FAIRY
        .lines()
        .chain(GPS.lines())
        .filter_map(|l| match parse_line(l) {
            Some(UsiMessage::Option(o)) => Some(o),
            _ => None,
        })
        .collect();
    let get = |n: &str| opts.iter().find(|o| o.name == n).unwrap();
    let d = get("Debug Log File");
    assert_eq!(
        (d.kind.as_str(), d.default.as_deref()),
        ("string", Some(""))
    );
    let m = get("MultiPV");
    assert_eq!(
        (m.kind.as_str(), m.default.as_deref(), m.min, m.max),
        ("spin", Some("1"), Some(1), Some(500))
    );
    let a = get("Analysis Contempt");
    assert_eq!(a.vars, ["Both", "Off", "White", "Black"]);
    assert_eq!(get("Clear Hash").kind, "button");
    assert_eq!(get("MultiPVWidth").max, Some(1000));
    assert_eq!(get("CSAFile").default.as_deref(), Some("<empty>"));
    assert_eq!(get("UCI_Variant").vars.len(), 77);
    assert!(parse_line("option name type spin").is_none());
    assert!(parse_line("option foo").is_none());
}
