//! The state machine driven by the scripted fake engine `tests/fixtures/engines/replay.sh`.

use super::*;
use crate::core::rules::Move;
use crate::engine::OptionValue;
use crate::engine::pv::CheckedPv;
use crate::engine::search::*;
use crate::engine::test_support::{moves, until};
use std::path::PathBuf;

const HANDSHAKE: &str = "< usi\n> id name Fake\n> usiok\n< isready\n> readyok\n";

/// A fake engine running `script`; its received commands land in `log`.
struct Fake {
    dir: tempfile::TempDir,
    spec: EngineSpec,
}

impl Fake {
    fn new(script: &str) -> Fake {
        let dir = tempfile::tempdir().unwrap();
        let script_path = dir.path().join("script");
        std::fs::write(&script_path, script).unwrap();
        let replay =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/engines/replay.sh");
        let mut spec = EngineSpec::new("/bin/sh");
        spec.name = "fake".into();
        spec.args = vec![
            replay.display().to_string(),
            script_path.display().to_string(),
            dir.path().join("log").display().to_string(),
        ];
        Fake { dir, spec }
    }

    fn start(&self) -> Engine {
        Engine::start_with(self.spec.clone(), quick()).unwrap()
    }

    /// The commands the fake engine received.
    fn log(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("log"))
            .unwrap_or_default()
            .lines()
            .map(String::from)
            .collect()
    }
}

fn quick() -> Timeouts {
    Timeouts {
        handshake: Duration::from_secs(5),
        quit: Duration::from_secs(2),
        stop: Duration::from_secs(2),
    }
}

fn is_done(ev: &EngineEvent) -> bool {
    matches!(ev, EngineEvent::SearchDone { .. })
}

fn is_error(ev: &EngineEvent) -> bool {
    matches!(ev, EngineEvent::Error(_))
}

/// No process with this pid, not even a zombie: it was killed and reaped.
fn gone(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid as libc::pid_t, 0) != 0 }
}

fn req(moves_text: &str, limit: Limit) -> SearchRequest {
    SearchRequest {
        root: Position::startpos(),
        moves: moves(moves_text),
        limit,
    }
}

#[test]
fn handshake_options_and_a_normal_search() {
    let fake = Fake::new(
        "< usi\n> Fake engine 1.0 by nobody\n> id name Fake Engine\n> id author Someone\n>\n\
         > option name Multi Word Name type spin default 1 min 1 max 9\n> usiok\n\
         < isready\n> readyok\n< go\n\
         > info depth 1 seldepth 2 multipv 1 score cp 40 nodes 100 nps 1000 pv 3c3d 2g2f\n\
         > info depth 1 multipv 2 score cp -10 pv 8c8d\n\
         > info string thinking hard\n\
         > bestmove 3c3d ponder 2g2f\n",
    );
    let mut spec = fake.spec.clone();
    spec.options.insert("Threads".into(), OptionValue::Int(2));
    spec.options.insert("USI_Hash".into(), OptionValue::Int(64));
    let mut e = Engine::start_with(spec, quick()).unwrap();
    assert_eq!(e.state(), State::WaitingUsiOk);
    e.set_option("Multi Word Name", "3").unwrap();
    let id = e.search(req("7g7f", Limit::Depth(1))).unwrap();
    assert_eq!(e.analysis().status, AnalysisStatus::Waiting);
    let events = until(&mut e, 10, is_done);
    assert!(events.contains(&EngineEvent::Ready));
    assert!(
        events
            .iter()
            .any(|ev| matches!(ev, EngineEvent::Note(n) if n.contains("no option \"Threads\"")))
    );
    assert!(events.contains(&EngineEvent::SearchDone {
        search: id,
        outcome: SearchEnd::BestMove {
            mv: Move::from_usi("3c3d").unwrap(),
            ponder: Move::from_usi("2g2f"),
        },
        superseded: false,
    }));
    assert_eq!(e.info().name, "Fake Engine");
    assert_eq!(e.info().author, "Someone");
    assert_eq!(e.info().options[0].name, "Multi Word Name");
    assert!(e.recent_output().any(|l| l == "Fake engine 1.0 by nobody"));
    let a = e.analysis();
    assert_eq!(a.status, AnalysisStatus::Finished);
    assert_eq!(a.lines.len(), 2);
    assert_eq!(a.lines[0].japanese, "△３四歩▲２六歩");
    assert_eq!(a.score_text(&a.lines[0]), "-40");
    assert_eq!(a.lines[1].japanese, "△８四歩");
    assert_eq!(a.string.as_deref(), Some("thinking hard"));
    assert_eq!(e.state(), State::Ready);
    assert_eq!(
        fake.log(),
        [
            "usi",
            "setoption name Multi Word Name value 3",
            "setoption name Threads value 2",
            "setoption name USI_Hash value 64",
            "isready",
            "usinewgame",
            "position startpos moves 7g7f",
            "go depth 1",
        ]
    );
}

#[test]
fn a_new_position_while_searching_sends_one_stop_holds_go_and_drops_stale_info() {
    let fake = Fake::new(&format!(
        "{HANDSHAKE}< go\n> info depth 1 score cp 10 pv 7g7f\n< stop\n\
         > info depth 2 score cp 11 pv 7g7f 3c3d\n> info depth 3 score cp 12 pv 7g7f 3c3d\n\
         > bestmove 7g7f\n< go\n> info depth 1 score cp -50 pv 8c8d\n> bestmove 8c8d\n"
    ));
    let mut e = fake.start();
    let a = e.search(req("", Limit::Infinite)).unwrap();
    while e.analysis().infos == 0 {
        until(&mut e, 10, |ev| matches!(ev, EngineEvent::Analysis(_)));
    }
    assert_eq!(e.state(), State::Searching);
    let b = e.search(req("2g2f", Limit::Infinite)).unwrap();
    assert_eq!(e.state(), State::Stopping);
    let c = e.search(req("7g7f", Limit::Infinite)).unwrap();
    assert_eq!(e.analysis().search, c);
    assert!(
        e.analysis().lines.is_empty(),
        "the old lines are gone at once"
    );
    let events = until(
        &mut e,
        10,
        |ev| matches!(ev, EngineEvent::SearchDone { search, .. } if *search == c),
    );
    assert!(events.iter().any(|ev| matches!(
        ev,
        EngineEvent::SearchDone { search, superseded: true, .. } if *search == a
    )));
    assert!(
        !events
            .iter()
            .any(|ev| matches!(ev, EngineEvent::SearchDone { search, .. } if *search == b))
    );
    let an = e.analysis();
    assert_eq!(an.stale_dropped, 2);
    assert_eq!(an.lines.len(), 1);
    assert_eq!(an.lines[0].japanese, "△８四歩");
    assert_eq!(an.score_text(&an.lines[0]), "+50");
    let log = fake.log();
    assert_eq!(log.iter().filter(|l| *l == "stop").count(), 1, "{log:?}");
    assert_eq!(
        log[log.len() - 3..],
        ["stop", "position startpos moves 7g7f", "go infinite"]
    );
    assert!(!log.iter().any(|l| l.contains("2g2f")), "B was never sent");
}

#[test]
fn crash_mid_search_is_reported_with_its_last_words_and_restart_works() {
    let fake = Fake::new(&format!(
        "{HANDSHAKE}< go\n> info depth 1 score cp 10 pv 7g7f\n\
         > osl::SimpleState::setPiece! maybe too many pieces\nsleep 0.1\nsignal ABRT\n"
    ));
    let mut e = fake.start();
    e.search(req("", Limit::Infinite)).unwrap();
    let pid = e.pid().unwrap();
    let events = until(&mut e, 10, is_error);
    let Some(EngineEvent::Error(err)) = events.iter().find(|ev| is_error(ev)) else {
        unreachable!()
    };
    let msg = err.to_string();
    assert!(msg.contains("SIGABRT"), "{msg}");
    assert!(msg.contains("setPiece! maybe too many pieces"), "{msg}");
    assert_eq!(e.state(), State::Dead);
    assert_eq!(e.analysis().status, AnalysisStatus::Failed);
    assert_eq!(e.analysis().lines.len(), 1, "what it said before is kept");
    assert!(gone(pid), "killed and reaped");
    assert_eq!(
        e.search(req("", Limit::Infinite)),
        Err(EngineError::NotRunning)
    );

    e.restart().unwrap();
    let events = until(&mut e, 10, |ev| *ev == EngineEvent::Ready);
    assert!(!events.iter().any(is_error));
    assert_ne!(e.pid(), Some(pid));
}

#[test]
fn exit_while_idle_is_a_crash_too() {
    let fake = Fake::new(&format!("{HANDSHAKE}sleep 0.2\nexit 3\n"));
    let mut e = fake.start();
    let events = until(&mut e, 10, is_error);
    assert!(events.iter().any(|ev| matches!(
        ev,
        EngineEvent::Error(EngineError::Exited { status, .. }) if status == "exit code 3"
    )));
}

#[test]
fn hangs_time_out_at_usiok_readyok_and_stop_and_the_engine_is_reaped() {
    for (script, waiting_for) in [
        ("< usi\nhang\n".to_string(), "usiok"),
        (
            "< usi\n> usiok\n< isready\n> info string Error! open eval failed\nhang\n".to_string(),
            "readyok",
        ),
        (
            format!("{HANDSHAKE}< go\n> info depth 1 pv 7g7f\nhang\n"),
            "bestmove",
        ),
    ] {
        let fake = Fake::new(&script);
        let short = Duration::from_millis(300);
        let timeouts = match waiting_for {
            "bestmove" => Timeouts {
                stop: short,
                ..quick()
            },
            _ => Timeouts {
                handshake: short,
                ..quick()
            },
        };
        let mut e = Engine::start_with(fake.spec.clone(), timeouts).unwrap();
        let pid = e.pid().unwrap();
        if waiting_for == "bestmove" {
            e.search(req("", Limit::Infinite)).unwrap();
            until(&mut e, 10, |ev| matches!(ev, EngineEvent::Analysis(_)));
            while e.analysis().infos == 0 {
                e.wait(Duration::from_millis(20));
            }
            e.stop();
        }
        let events = until(&mut e, 10, is_error);
        assert!(
            events.iter().any(|ev| matches!(
                ev,
                EngineEvent::Error(EngineError::Timeout { waiting_for: w, .. }) if *w == waiting_for
            )),
            "{waiting_for}: {events:?}"
        );
        assert_eq!(e.state(), State::Dead);
        assert!(gone(pid), "{waiting_for}: killed and reaped");
        if waiting_for == "readyok" {
            assert!(
                e.recent_output()
                    .any(|l| l == "info string Error! open eval failed")
            );
        }
    }
}

#[test]
fn garbage_output_is_skipped_and_cleaned() {
    let long = "x".repeat(70_000);
    let fake = Fake::new(&format!(
        "< usi\n> \u{1b}[2J\u{1b}]0;evil\u{7}\n> id name Evil\u{1b}[31mRed\n> usiok\n\
         < isready\n> \u{0}\u{1}binary\u{ff}\n> readyok\n< go\n> {long}\n\
         > info depth 99999999999 nodes -5 score cp x multipv 0 pv\n> bestmove\n\
         > checkmate\n> info depth 2 score mate + pv 7g7f\n> bestmove 7g7f\n"
    ));
    let mut e = fake.start();
    e.search(req("", Limit::Infinite)).unwrap();
    let events = until(&mut e, 10, is_done);
    assert!(!events.iter().any(is_error), "{events:?}");
    assert_eq!(e.info().name, "Evil[31mRed");
    let recent: Vec<&str> = e.recent_output().collect();
    assert!(
        recent.iter().all(|l| !l.chars().any(char::is_control)),
        "{recent:?}"
    );
    assert!(
        recent.contains(&"(line over 65536 bytes dropped)"),
        "{recent:?}"
    );
    let a = e.analysis();
    assert_eq!(a.lines.len(), 1);
    assert_eq!(a.score_text(&a.lines[0]), "詰");
    assert_eq!(a.depth, Some(2));
}

#[test]
fn illegal_pv_is_cut_with_a_note_and_an_illegal_bestmove_is_reported() {
    let fake = Fake::new(&format!(
        "{HANDSHAKE}< go\n> info depth 3 score cp 5 pv 7g7f 3c3d 8h2b+ 2a2b 3a2b\n\
         > bestmove 5a4b\n"
    ));
    let mut e = fake.start();
    e.search(req("", Limit::Nodes(1000))).unwrap();
    let events = until(&mut e, 10, is_done);
    assert!(events.iter().any(|ev| matches!(
        ev,
        EngineEvent::SearchDone { outcome: SearchEnd::Illegal { text, .. }, .. } if text == "5a4b"
    )));
    let line = &e.analysis().lines[0];
    assert_eq!(line.pv.moves.len(), 3);
    assert_eq!(line.japanese, "▲７六歩△３四歩▲２二角成");
    assert!(line.note().unwrap().contains("move 4 (2a2b)"));
    assert_eq!(fake.log().last().unwrap(), "go nodes 1000");
}

#[test]
fn the_driver_stops_a_timed_search_and_stop_keeps_the_lines() {
    let fake = Fake::new(&format!(
        "{HANDSHAKE}< go\n> info depth 1 score cp 3 pv 7g7f\n< stop\n> bestmove 7g7f\n\
         < go\n> info depth 1 score cp 4 pv 2g2f\n< stop\n> bestmove 2g2f\n"
    ));
    let mut e = fake.start();
    let t = e
        .search(req("", Limit::Time(Duration::from_millis(200))))
        .unwrap();
    until(&mut e, 10, is_done);
    assert_eq!(e.analysis().search, t);
    assert_eq!(e.analysis().status, AnalysisStatus::Finished);

    let u = e.search(req("", Limit::Infinite)).unwrap();
    while e.analysis().infos == 0 {
        until(&mut e, 10, |ev| matches!(ev, EngineEvent::Analysis(_)));
    }
    e.stop();
    assert_eq!(e.state(), State::Stopping);
    until(&mut e, 10, is_done);
    let a = e.analysis();
    assert_eq!((a.search, a.status), (u, AnalysisStatus::Stopped));
    assert_eq!(a.lines[0].japanese, "▲２六歩");
    let log = fake.log();
    assert_eq!(
        log[log.len() - 5..],
        [
            "go infinite",
            "stop",
            "position startpos",
            "go infinite",
            "stop"
        ][..]
    );
}

#[test]
fn mate_search_answers() {
    let fake = Fake::new(&format!(
        "{HANDSHAKE}< go mate\n> checkmate G*5b\n< go mate\n> checkmate nomate\n\
         < go mate\n> checkmate timeout\n< go mate\n> checkmate notimplemented\n\
         < go mate\n> bestmove G*5b\n"
    ));
    let mut e = fake.start();
    let tsume = Position::from_sfen("4k4/9/4G4/9/9/9/9/9/4K4 b G 1").unwrap();
    let mut outcomes = Vec::new();
    for limit in [
        Limit::Mate(Some(Duration::from_secs(3))),
        Limit::Mate(None),
        Limit::Mate(None),
        Limit::Mate(None),
        Limit::Mate(None),
    ] {
        e.search(SearchRequest {
            root: tsume.clone(),
            moves: vec![],
            limit,
        })
        .unwrap();
        let events = until(&mut e, 10, is_done);
        let done = events.iter().find(|ev| is_done(ev)).unwrap();
        let EngineEvent::SearchDone { outcome, .. } = done else {
            unreachable!()
        };
        outcomes.push(outcome.clone());
        if outcomes.len() == 5 {
            assert!(events.iter().any(
                |ev| matches!(ev, EngineEvent::Note(n) if n.contains("not a USI mate search"))
            ));
        }
    }
    let g5b = Move::from_usi("G*5b").unwrap();
    assert_eq!(
        outcomes,
        [
            SearchEnd::Mate(CheckedPv {
                moves: vec![g5b],
                cut: None
            }),
            SearchEnd::NoMate,
            SearchEnd::MateTimeout,
            SearchEnd::MateNotImplemented,
            SearchEnd::BestMove {
                mv: g5b,
                ponder: None
            },
        ]
    );
    let log = fake.log();
    assert!(log.contains(&"position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1".to_string()));
    // 3 s in all: the engine is told 3 s less the grace and the wait for its answer.
    assert!(log.contains(&"go mate 1125".to_string()), "{log:?}");
    assert!(log.contains(&"go mate infinite".to_string()));
}

#[test]
fn illegal_moves_and_impossible_positions_are_never_sent() {
    let fake = Fake::new(HANDSHAKE);
    let mut e = fake.start();
    let err = e.search(req("7g7f 7g7f", Limit::Infinite)).unwrap_err();
    assert!(
        matches!(err, EngineError::IllegalMove { index: 1, .. }),
        "{err}"
    );
    assert!(
        err.to_string().starts_with("move 2 (7g7f) cannot be sent"),
        "{err}"
    );
    let too_many =
        Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1")
            .unwrap();
    let err = e
        .search(SearchRequest {
            root: too_many,
            moves: vec![],
            limit: Limit::Infinite,
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the position cannot be sent to an engine: 19 pawns (a set has 18)"
    );
    let check = Position::from_sfen("4k4/4R4/9/9/9/9/9/9/4K4 b - 1").unwrap();
    let err = e
        .search(SearchRequest {
            root: check,
            moves: vec![],
            limit: Limit::Infinite,
        })
        .unwrap_err();
    assert!(err.to_string().contains("gote is in check"), "{err}");
    assert!(e.set_option("Bad", "1\nquit").is_err());
    until(&mut e, 10, |ev| *ev == EngineEvent::Ready);
    assert!(
        !fake
            .log()
            .iter()
            .any(|l| l.starts_with("position") || l.starts_with("go"))
    );
}

#[test]
fn quit_cleanly_or_by_kill_after_the_timeout() {
    let fake = Fake::new(&format!("{HANDSHAKE}< quit\nexit 0\n"));
    let mut e = fake.start();
    until(&mut e, 10, |ev| *ev == EngineEvent::Ready);
    let pid = e.pid().unwrap();
    e.quit();
    assert_eq!(e.state(), State::Quitting);
    let events = until(&mut e, 10, |ev| matches!(ev, EngineEvent::Quit { .. }));
    assert!(events.contains(&EngineEvent::Quit { killed: false }));
    assert!(gone(pid));
    assert_eq!(e.state(), State::Dead);

    let fake = Fake::new(&format!("{HANDSHAKE}hang\n"));
    let mut e = fake.start();
    until(&mut e, 10, |ev| *ev == EngineEvent::Ready);
    let pid = e.pid().unwrap();
    e.quit();
    let events = until(&mut e, 10, |ev| matches!(ev, EngineEvent::Quit { .. }));
    assert!(events.contains(&EngineEvent::Quit { killed: true }));
    assert!(gone(pid));
}

#[test]
fn spawn_failures_are_errors_not_panics() {
    let mut spec = EngineSpec::new("/bin/sh");
    spec.dir = Some("/nonexistent/dir".into());
    let err = Engine::start(spec).err().unwrap();
    assert!(
        err.to_string()
            .ends_with("working directory /nonexistent/dir does not exist"),
        "{err}"
    );
    let err = Engine::start(EngineSpec::new("no-such-engine-kifview"))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "cannot start engine no-such-engine-kifview (no-such-engine-kifview): \
         not found on PATH or in /usr/games"
    );
    let err = Engine::start(EngineSpec::new("/nonexistent/engine"))
        .err()
        .unwrap();
    assert!(
        err.to_string()
            .starts_with("cannot start engine engine (/nonexistent/engine)"),
        "{err}"
    );
}

#[test]
fn drop_kills_and_reaps_an_engine_that_ignores_quit() {
    let fake = Fake::new(&format!("{HANDSHAKE}hang\n"));
    let mut e = fake.start();
    until(&mut e, 10, |ev| *ev == EngineEvent::Ready);
    let pid = e.pid().unwrap();
    drop(e);
    assert!(gone(pid));
}

/// Not run on its own: the orphan test below runs this in a child process, then kills that
/// process with SIGKILL.
#[test]
#[ignore = "helper of engine_dies_with_a_killed_kifview"]
fn orphan_helper() {
    let Some(pidfile) = std::env::var_os("KIFVIEW_ORPHAN_PIDFILE") else {
        return;
    };
    let fake = Fake::new(&format!("{HANDSHAKE}hang\n"));
    let mut e = fake.start();
    until(&mut e, 10, |ev| *ev == EngineEvent::Ready);
    std::fs::write(pidfile, e.pid().unwrap().to_string()).unwrap();
    std::thread::sleep(Duration::from_secs(30));
}

/// A process that is gone or a zombie (its parent died; init may reap it later).
#[cfg(target_os = "linux")]
fn dead_or_zombie(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(s) => s
            .rsplit(')')
            .next()
            .is_some_and(|r| r.trim_start().starts_with('Z')),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn engine_dies_with_a_killed_kifview() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let mut helper = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "engine::driver::tests::orphan_helper",
            "--exact",
            "--ignored",
            "--quiet",
        ])
        .env("KIFVIEW_ORPHAN_PIDFILE", &pidfile)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let end = Instant::now() + Duration::from_secs(20);
    let pid: u32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pidfile)
            .ok()
            .and_then(|s| s.parse().ok())
        {
            break pid;
        }
        assert!(Instant::now() < end, "helper never started its engine");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!dead_or_zombie(pid));
    helper.kill().unwrap();
    helper.wait().unwrap();
    let end = Instant::now() + Duration::from_secs(5);
    while !dead_or_zombie(pid) {
        if Instant::now() > end {
            // SAFETY: kills the orphan this test made, so that a failure leaves nothing behind.
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
            panic!("engine {pid} outlived its killed parent");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_flood_of_info_lines_is_coalesced_into_one_event_per_poll() {
    let mut script = format!("{HANDSHAKE}< go\n");
    for i in 1..=20_000 {
        script.push_str(&format!(
            "> info depth {} multipv {} score cp {i} nodes {i}000 pv 7g7f 3c3d\n",
            i / 3,
            i % 3 + 1
        ));
    }
    script.push_str("> bestmove 7g7f\n");
    let fake = Fake::new(&script);
    let mut e = fake.start();
    e.search(req("", Limit::Infinite)).unwrap();
    let end = Instant::now() + Duration::from_secs(60);
    let mut polls = 0;
    loop {
        let events = e.poll();
        polls += 1;
        let analysis_events = events
            .iter()
            .filter(|ev| matches!(ev, EngineEvent::Analysis(_)))
            .count();
        assert!(
            analysis_events <= 1,
            "{analysis_events} analysis events in one poll"
        );
        if events.iter().any(is_done) {
            break;
        }
        assert!(Instant::now() < end, "no bestmove after {polls} polls");
        std::thread::sleep(Duration::from_millis(5));
    }
    let a = e.analysis();
    assert_eq!(a.infos, 20_000);
    assert_eq!(a.lines.len(), 3);
    assert_eq!(a.lines[2].score, Some(crate::engine::Score::Cp(20_000)));
    assert_eq!(a.nodes, Some(20_000_000));
}

#[test]
fn an_option_value_of_the_wrong_type_is_not_sent_and_said() {
    let fake = Fake::new(
        "< usi\n> id name Typed\n\
         > option name Threads type spin default 1 min 1 max 512\n\
         > option name Ponder type check default false\n\
         > option name Style type combo default Normal var Normal var Risky\n\
         > usiok\n< isready\n> readyok\n",
    );
    let mut spec = fake.spec.clone();
    spec.options
        .insert("Threads".into(), OptionValue::Text("many".into()));
    spec.options
        .insert("Ponder".into(), OptionValue::Text("yes".into()));
    spec.options
        .insert("Style".into(), OptionValue::Text("Risky".into()));
    let mut e = Engine::start_with(spec, quick()).unwrap();
    let events = until(&mut e, 10, |ev| *ev == EngineEvent::Ready);
    let notes: Vec<&String> = events
        .iter()
        .filter_map(|ev| match ev {
            EngineEvent::OptionRefused(n) => Some(n),
            _ => None,
        })
        .collect();
    assert!(
        notes.iter().any(|n| n.contains("Threads = \"many\"")
            && n.contains("a spin (a whole number from 1 to 512)")
            && n.contains("[[engines]] entry fake")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.contains("Ponder = \"yes\"")),
        "{notes:?}"
    );
    drop(e);
    let log = fake.log();
    assert!(!log.iter().any(|l| l.contains("Threads")), "{log:?}");
    assert!(!log.iter().any(|l| l.contains("Ponder")), "{log:?}");
    assert!(
        log.iter().any(|l| l == "setoption name Style value Risky"),
        "{log:?}"
    );
}

#[test]
fn a_mate_search_that_never_answers_ends_at_the_limit_asked_for() {
    // The engine reads go mate and stop and answers neither.
    let fake = Fake::new(&format!("{HANDSHAKE}< go mate\n"));
    let mut e = fake.start();
    e.search(SearchRequest {
        root: Position::from_sfen("4k4/9/4G4/9/9/9/9/9/4K4 b G 1").unwrap(),
        moves: vec![],
        limit: Limit::Mate(Some(Duration::from_secs(2))),
    })
    .unwrap();
    let events = until(&mut e, 10, |ev| matches!(ev, EngineEvent::Error(_)));
    let err = events
        .iter()
        .find_map(|ev| match ev {
            EngineEvent::Error(err) => Some(err.to_string()),
            _ => None,
        })
        .unwrap();
    // The whole search, its grace and the wait for checkmate fit in the 2 s asked for: the
    // engine is told 0.75 s, stopped at 1 s and killed at 2 s.
    assert!(
        err.starts_with("engine Fake did not answer checkmate within 2 s"),
        "{err}"
    );
    let log = fake.log();
    let go = log.iter().position(|l| l == "go mate 750");
    assert!(go.is_some(), "{log:?}");
    assert!(log[go.unwrap()..].iter().any(|l| l == "stop"), "{log:?}");
}

#[test]
fn a_mate_budget_fits_in_its_limit() {
    let b = MateBudget::of(Duration::from_secs(10));
    assert_eq!(
        (b.search, b.stop_after),
        (Duration::from_secs(7), Duration::from_secs(8))
    );
    let b = MateBudget::of(Duration::from_millis(500));
    assert!(b.search < b.stop_after && b.stop_after < b.limit, "{b:?}");
}
