//! A game against the scripted engine, key by key. The tests wait on the app's events (the
//! engine's threads send `Event::Engine` when it says something), never on time; the clocks
//! read a fake time that moves only when a test says so.

use crate::common::{screen, screen_rows};
use crate::engine::research::Fake;
use kifview::app::events::{Event, Events};
use kifview::app::{App, KeyCode, KeyEvent};
use kifview::core::record::{NodeId, Record, Special};
use kifview::game::FakeTime;
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// An app with `fake` as its engine, its events into a channel, its games on `time`.
pub(super) fn app_with(fake: &Fake, time: &FakeTime) -> (App, Receiver<Event>) {
    let mut app = fake.app(Record::default());
    let (tx, rx) = channel();
    app.connect_events(Events::new(move |e| tx.send(e).is_ok()));
    kifview::app::testing::play_time(&mut app, Arc::new(time.clone()));
    (app, rx)
}

pub(super) fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        let k = match c {
            '⏎' => KeyEvent::plain(KeyCode::Enter),
            '⌫' => KeyEvent::plain(KeyCode::Backspace),
            '⎋' => KeyEvent::plain(KeyCode::Esc),
            c => KeyEvent::char(c),
        };
        app.handle_key(k);
    }
}

/// Hands the app its events until `done` (fails after a minute without it: a broken build,
/// not a slow machine).
pub(super) fn until(app: &mut App, rx: &Receiver<Event>, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done(app) {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(e) => {
                app.handle_event(e);
            }
            Err(_) => panic!("never {what}; message: {:?}", app.message()),
        }
    }
}

/// The moves and ending of the main line, as USI and KIF words.
pub(super) fn line(r: &Record) -> Vec<String> {
    crate::common::usi_line(r, NodeId::ROOT)
}

/// `A`, ▲ (Enter), the fake (Enter), the time control typed over the offered one, the
/// names as offered: the game starts.
pub(super) fn start(app: &mut App, rx: &Receiver<Event>, tc: &str) {
    keys(app, "A⏎⏎");
    keys(app, &"⌫".repeat(20));
    keys(app, &format!("{tc}⏎⏎⏎"));
    assert!(app.playing(), "{:?}", app.message());
    until(app, rx, "started the engine", |a| {
        a.game().is_some_and(|m| m.engines_ready())
    });
}

pub(super) const REPLY: &str = "< go\n> info depth 2 score cp -35 pv 3c3d 2g2f\n> bestmove 3c3d\n";

#[test]
fn a_move_the_engines_reply_and_their_times_then_takeback_and_resign() {
    // The first reply comes once the test has moved the time on (the engine is charged
    // until its bestmove comes).
    let gate = tempfile::tempdir().unwrap();
    let gate = gate.path().join("open");
    let first = REPLY.replace("< go\n", &format!("< go\nwait {}\n", gate.display()));
    let fake = Fake::new(&format!("{first}{REPLY}"));
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    start(&mut app, &rx, "600+byo30");
    time.advance(Duration::from_secs(5));
    keys(&mut app, "m76歩⏎");
    assert!(app.game().unwrap().engine_thinking(), "{:?}", app.message());
    // Not the user's move while the engine thinks: a move of the engine's side, and one of
    // the user's own side typed ahead (read before as an illegal move of the engine's side).
    for typed in ["m34歩⏎", "m26歩⏎"] {
        keys(&mut app, typed);
        assert!(
            app.message().unwrap().text.contains("not your move"),
            "{typed}: {:?}",
            app.message()
        );
    }
    time.advance(Duration::from_millis(2500));
    std::fs::write(&gate, "").unwrap();
    until(&mut app, &rx, "got the reply", |a| a.record().len() >= 3);
    assert_eq!(line(app.record()), ["7g7f", "3c3d"]);
    let log = fake.log();
    assert!(
        log.iter().any(|l| l == "position startpos moves 7g7f"
            || l.starts_with("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f")),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|l| l == "go btime 595000 wtime 600000 byoyomi 29000"),
        "the engine is told the clocks after the user's 5 s, its byoyomi less a second: {log:?}"
    );
    let r = app.record();
    let ids = r.main_line();
    let spent = |i: usize| r.node(ids[i]).time.map(|t| t.spent_ms);
    // The engine's 2.5 s is kept as 2 s: a record holds whole seconds, as KIF does.
    assert_eq!((spent(1), spent(2)), (Some(5000), Some(2000)));
    let written = kifview::core::notation::kif::write(r, &Default::default());
    assert!(
        written.losses.is_empty(),
        "a played game saves as KIF with nothing to ask: {:?}",
        written.losses
    );
    assert_eq!(r.header.get("先手"), Some("You"));
    assert_eq!(r.header.get("後手"), Some("Fake"));
    assert_eq!(r.header.get("持ち時間"), Some("600秒+秒読み30秒"));
    assert!(r.header.get("開始日時").is_some());
    assert!(app.is_modified());
    assert_eq!(app.cur(), ids[2], "the board shows the reply");

    // Takeback: the user's move and the reply, one undo.
    keys(&mut app, "u");
    assert!(line(app.record()).is_empty(), "{:?}", line(app.record()));
    assert_eq!(app.cur(), NodeId::ROOT);
    assert!(app.playing(), "the game goes on");
    assert!(app.message().unwrap().text.contains("took back 2 moves"));

    // Again, then resign.
    time.advance(Duration::from_secs(1));
    keys(&mut app, "m76歩⏎");
    until(&mut app, &rx, "got the reply again", |a| {
        line(a.record()).len() == 2
    });
    time.advance(Duration::from_secs(3));
    keys(&mut app, "Ry");
    assert!(!app.playing());
    assert_eq!(line(app.record()), ["7g7f", "3c3d", "投了"]);
    let r = app.record();
    let end = *r.main_line().last().unwrap();
    assert_eq!(r.node(end).special(), Some(&Special::Resign));
    assert_eq!(r.node(end).time.map(|t| t.spent_ms), Some(3000));
    assert!(r.header.get("終了日時").is_some());
    let text = app.message().unwrap().text.clone();
    assert!(text.contains("まで2手で後手の勝ち"), "{text}");
    let kif = kifview::core::notation::kif::write(r, &Default::default()).text;
    assert!(kif.contains("投了"), "{kif}");
    // The second game's times: 1 s, then 3 s to resign (▲'s total 4 s).
    assert!(kif.contains("７六歩(77)   ( 0:01/00:00:01)"), "{kif}");
    assert!(kif.contains("投了         ( 0:03/00:00:04)"), "{kif}");
    assert!(kif.contains("まで2手で後手の勝ち"), "{kif}");
    // One undo takes the ending back; the game does not start again.
    keys(&mut app, "u");
    assert_eq!(line(app.record()), ["7g7f", "3c3d"]);
    assert!(!app.playing());
}

#[test]
fn the_users_flag_falls_on_the_fake_clock() {
    let fake = Fake::new(REPLY);
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    start(&mut app, &rx, "byo3");
    time.advance(Duration::from_millis(2900));
    assert!(!app.play_tick(), "not yet");
    assert!(app.playing());
    time.advance(Duration::from_millis(200));
    app.look();
    assert!(!app.playing(), "lost on time");
    assert_eq!(line(app.record()), ["切れ負け"]);
    let text = app.message().unwrap().text.clone();
    assert!(text.contains("まで0手で後手の勝ち"), "{text}");
    // No move after the fall.
    keys(&mut app, "m76歩⏎");
    assert_eq!(line(app.record()), ["切れ負け"]);
}

#[test]
fn an_engine_that_never_moves_loses_on_time() {
    let fake = Fake::new("< go\n");
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    start(&mut app, &rx, "byo3");
    keys(&mut app, "m76歩⏎");
    assert!(app.game().unwrap().engine_thinking());
    time.advance(Duration::from_millis(3001));
    app.look();
    assert!(!app.playing());
    assert_eq!(line(app.record()), ["7g7f", "切れ負け"]);
    let text = app.message().unwrap().text.clone();
    assert!(text.contains("まで1手で先手の勝ち"), "{text}");
}

#[test]
fn an_illegal_bestmove_loses_and_illegal_user_moves_cannot_be_entered() {
    let fake = Fake::new("< go\n> bestmove 7g7f\n");
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    start(&mut app, &rx, "byo3");
    keys(&mut app, "m75歩⏎");
    assert!(line(app.record()).is_empty(), "an illegal move is refused");
    keys(&mut app, "⎋");
    keys(&mut app, "m76歩⏎");
    until(&mut app, &rx, "the engine answered", |a| !a.playing());
    assert_eq!(line(app.record()), ["7g7f", "反則負け"]);
}

/// `rows` with the time of 開始日時 as `YYYY/MM/DD hh:mm:ss` (a snapshot of any day).
fn undated(rows: &str) -> String {
    let mut out = String::new();
    let mut rest = rows;
    while let Some(i) = rest.find("開始日時：") {
        let (head, tail) = rest.split_at(i + "開始日時：".len());
        out.push_str(head);
        out.push_str("YYYY/MM/DD hh:mm:ss");
        rest = tail.get(19..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

#[test]
fn clocks_on_screen_at_80x24_and_120x40() {
    let fake = Fake::new(REPLY);
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    start(&mut app, &rx, "600+byo30");
    time.advance(Duration::from_millis(12_300));
    let mut v = Viewer::new(app, Theme::plain());
    for (w, h) in [(80, 24), (120, 40)] {
        let rows = screen_rows(&screen(&mut v, w, h)).join("\n");
        assert!(rows.contains("対局 600+byo30"), "{w}x{h}:\n{rows}");
        assert!(rows.contains("▲You"), "{w}x{h}:\n{rows}");
        assert!(rows.contains("9:48 +30 ◀12"), "{w}x{h}:\n{rows}");
        assert!(rows.contains("△Fake"), "{w}x{h}:\n{rows}");
        assert!(rows.contains("10:00 +30"), "{w}x{h}:\n{rows}");
        insta::assert_snapshot!(format!("clocks_{w}x{h}"), undated(&rows));
    }
    drop(rx);
}

#[test]
fn an_engine_still_starting_says_so_on_its_clock_until_it_is_ready() {
    let fake = Fake::new("< go\n");
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    // △ (you), the engine ▲; its handshake is not read until the app handles its events.
    keys(&mut app, "Aj⏎⏎byo3⏎⏎⏎");
    assert!(app.playing(), "{:?}", app.message());
    assert!(app.play_view().unwrap().sides[0].starting);
    let mut v = Viewer::new(app, Theme::plain());
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(rows.contains("秒読み3 起動中"), "{rows}");
    let mut app = v.app;
    until(&mut app, &rx, "the engine is ready", |a| {
        a.game().is_some_and(|m| m.engines_ready())
    });
    assert!(app.playing());
    assert!(!app.play_view().unwrap().sides[0].starting);
}
