//! The driver with Debian's real engines (`apt-get install fairy-stockfish gpsshogi`). Each test
//! skips with a message when its engine is missing, and fails then when
//! `KIFVIEW_REQUIRE_ENGINES=1`.

use super::test_support::{moves, until};
use super::*;
use crate::core::rules::{Move, Position};
use std::time::Duration;

fn engine_or_skip(name: &str) -> Option<EngineSpec> {
    match resolve(Some(name), &[]) {
        Ok(spec) => Some(spec),
        Err(e) => {
            assert!(
                std::env::var("KIFVIEW_REQUIRE_ENGINES").as_deref() != Ok("1"),
                "KIFVIEW_REQUIRE_ENGINES=1 but {name} is missing: {e}"
            );
            eprintln!(
                "skipped: {name} is not installed (apt-get install fairy-stockfish gpsshogi)"
            );
            None
        }
    }
}

fn done_outcome(events: &[EngineEvent], id: SearchId) -> SearchEnd {
    events
        .iter()
        .find_map(|ev| match ev {
            EngineEvent::SearchDone {
                search, outcome, ..
            } if *search == id => Some(outcome.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no result for {id:?}: {events:?}"))
}

fn is_done(id: SearchId) -> impl Fn(&EngineEvent) -> bool {
    move |ev| matches!(ev, EngineEvent::SearchDone { search, .. } if *search == id)
}

fn tsume(sfen: &str, limit: Limit) -> SearchRequest {
    SearchRequest {
        root: Position::from_sfen(sfen).unwrap(),
        moves: vec![],
        limit,
    }
}

#[test]
fn fairy_stockfish_handshake_multipv_search_position_change_and_quit() {
    if engine_or_skip("fairy-stockfish").is_none() {
        return;
    }
    // A bare name starts even when /usr/games is not on PATH.
    let mut spec = EngineSpec::new("fairy-stockfish");
    spec.options.insert("MultiPV".into(), OptionValue::Int(2));
    spec.options.insert("Threads".into(), OptionValue::Int(1));
    let mut e = Engine::start_with(spec, patient()).unwrap();
    until(&mut e, 15, |ev| *ev == EngineEvent::Ready);
    assert!(
        e.info().name.starts_with("Fairy-Stockfish"),
        "{:?}",
        e.info()
    );
    assert!(e.info().options.iter().any(|o| o.name == "Debug Log File"));
    assert!(
        e.recent_output().any(|l| l.contains("by Fabian Fichter")),
        "the banner is kept as output"
    );

    let root = Position::startpos();
    let id = e
        .search(SearchRequest {
            root: root.clone(),
            moves: moves("7g7f 3c3d"),
            limit: Limit::Nodes(30_000),
        })
        .unwrap();
    let events = until(&mut e, 30, is_done(id));
    let SearchEnd::BestMove { mv, .. } = done_outcome(&events, id) else {
        panic!("{events:?}");
    };
    let a = e.analysis();
    assert_eq!(a.status, AnalysisStatus::Finished);
    assert_eq!(a.lines.len(), 2, "MultiPV 2");
    assert_eq!(a.best().unwrap().first_move(), Some(mv));
    for line in &a.lines {
        eprintln!(
            "{} {:>6} {} {:.0}% {}",
            line.multipv,
            a.score_text(line),
            line.depth_text(),
            line.score.map_or(50.0, |s| s.win_percent()),
            line.japanese
        );
        assert!(line.japanese.starts_with('▲'), "{}", line.japanese);
        assert!(line.note().is_none(), "{:?}", line.note());
        assert!(line.score.is_some());
    }

    // Change the position mid-search: one stop, stale lines dropped, the new one searched.
    let first = e
        .search(SearchRequest {
            root: root.clone(),
            moves: vec![],
            limit: Limit::Infinite,
        })
        .unwrap();
    while e.analysis().infos == 0 {
        until(&mut e, 10, |ev| matches!(ev, EngineEvent::Analysis(_)));
    }
    let second = e
        .search(SearchRequest {
            root,
            moves: moves("7g7f"),
            limit: Limit::Depth(6),
        })
        .unwrap();
    let events = until(&mut e, 30, is_done(second));
    assert!(events.iter().any(|ev| matches!(
        ev,
        EngineEvent::SearchDone { search, superseded: true, .. } if *search == first
    )));
    let a = e.analysis();
    assert!(
        a.lines.iter().all(|l| l.japanese.starts_with('△')),
        "{:?}",
        a.lines
    );

    // Mate in one: a mate score in plies, from sente's side.
    let id = e
        .search(tsume("4k4/9/4G4/9/9/9/9/9/4K4 b G 1", Limit::Depth(5)))
        .unwrap();
    let events = until(&mut e, 30, is_done(id));
    assert_eq!(
        done_outcome(&events, id),
        SearchEnd::BestMove {
            mv: Move::from_usi("G*5b").unwrap(),
            ponder: None
        }
    );
    let a = e.analysis();
    let best = a.best().unwrap();
    assert_eq!(a.score_text(best), "詰 1");
    assert_eq!(best.japanese, "▲５二金打");

    let pid = e.pid().unwrap();
    e.quit();
    let events = until(&mut e, 10, |ev| matches!(ev, EngineEvent::Quit { .. }));
    assert!(events.contains(&EngineEvent::Quit { killed: false }));
    // SAFETY: signal 0 only checks that the process exists.
    assert!(unsafe { libc::kill(pid as libc::pid_t, 0) } != 0, "reaped");
}

#[test]
fn gpsusi_search_mate_search_and_crash_on_an_impossible_sfen() {
    let Some(mut spec) = engine_or_skip("gpsusi") else {
        return;
    };
    spec.options.insert("BookDepth".into(), OptionValue::Int(0));
    let mut e = Engine::start_with(spec, patient()).unwrap();
    until(&mut e, READY_WAIT, |ev| *ev == EngineEvent::Ready);
    assert!(e.info().name.starts_with("gpsshogi"), "{:?}", e.info());

    // gpsusi aborts on `go nodes`, `go movetime` and `go depth`: the driver's own timer works.
    let id = e
        .search(SearchRequest {
            root: Position::startpos(),
            moves: moves("7g7f 3c3d"),
            limit: Limit::Time(Duration::from_secs(3)),
        })
        .unwrap();
    let events = until(&mut e, 30, is_done(id));
    assert!(
        matches!(done_outcome(&events, id), SearchEnd::BestMove { .. }),
        "{events:?}"
    );
    let best = e.analysis().best().expect("gpsusi sent a line").clone();
    assert!(best.japanese.starts_with('▲'), "{}", best.japanese);
    assert_eq!(best.multipv, 1, "gpsusi lines carry no multipv: line 1");

    // `go mate` with a time, as the viewer sends it. The time is only a bound: gpsusi answers
    // as soon as it has proved the mate or that there is none (a few hundred ms when idle),
    // but its first mate search costs it about 0.9 s of CPU, which took 10.2 s at load 12 on
    // a two-core machine (5 s killed it there 4 times in 4 runs).
    let id = e
        .search(tsume(
            "4k4/9/4G4/9/9/9/9/9/4K4 b G 1",
            Limit::Mate(Some(MATE_BOUND)),
        ))
        .unwrap();
    let events = until(&mut e, 30, is_done(id));
    let SearchEnd::Mate(pv) = done_outcome(&events, id) else {
        panic!("{events:?}");
    };
    assert_eq!(pv.moves, moves("G*5b"));
    let id = e
        .search(tsume(
            "4k4/9/9/9/9/9/9/9/4K4 b G 1",
            Limit::Mate(Some(MATE_BOUND)),
        ))
        .unwrap();
    let events = until(&mut e, 30, is_done(id));
    assert_eq!(done_outcome(&events, id), SearchEnd::NoMate);

    // The driver refuses impossible positions; sent raw, gpsusi aborts: a real crash.
    let pid = e.pid().unwrap();
    e.send_raw("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 10p 1")
        .unwrap();
    e.send_raw("go infinite").unwrap();
    let events = until(&mut e, 10, |ev| matches!(ev, EngineEvent::Error(_)));
    let msg = events
        .iter()
        .find_map(|ev| match ev {
            EngineEvent::Error(err) => Some(err.to_string()),
            _ => None,
        })
        .unwrap();
    assert!(msg.contains("SIGABRT"), "{msg}");
    assert!(msg.contains("too many pieces"), "{msg}");
    assert_eq!(e.state(), State::Dead);
    // SAFETY: signal 0 only checks that the process exists.
    assert!(unsafe { libc::kill(pid as libc::pid_t, 0) } != 0, "reaped");
    e.restart().unwrap();
    until(&mut e, READY_WAIT, |ev| *ev == EngineEvent::Ready);
}

/// The time given to gpsusi's mate searches: far above what they need, so that a loaded
/// machine does not turn them into timeouts (`until(.., 30, ..)` waits 90 s, past it).
const MATE_BOUND: Duration = Duration::from_secs(60);

/// How long `until` waits for gpsusi to be ready (three times as many seconds: 135 s), past
/// the driver's own deadlines (`patient`: 60 s for `usiok`, then 60 s for `readyok`), so that
/// a slow start fails with the driver's message or not at all. gpsusi took 25-32 s to answer
/// `usiok` at load 11-13 on a two-core machine.
const READY_WAIT: u64 = 45;

/// The driver's timeouts with a longer handshake: on a loaded two-core machine gpsusi has
/// needed more than 10 s to answer `usiok` while the rest of the suite runs.
fn patient() -> super::Timeouts {
    super::Timeouts {
        handshake: std::time::Duration::from_secs(60),
        ..super::Timeouts::default()
    }
}
