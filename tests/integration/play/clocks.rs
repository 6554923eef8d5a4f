//! The clocks through a game: a takeback gives the time back, time suspended is not charged,
//! and an engine is charged up to the moment its `bestmove` came, not the moment the app got
//! to it. The engine answers when the test opens its gate (`wait FILE` in its script), after
//! the fake time moved: what it is charged does not depend on the machine's speed.

use super::game::{app_with, keys, line, start, until};
use crate::engine::research::Fake;
use kifview::app::App;
use kifview::app::events::Event;
use kifview::game::FakeTime;
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::Duration;

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

/// The main time left on each side's clock, as the clocks' widget shows it.
fn main_left(app: &App) -> [Option<Duration>; 2] {
    let v = app.play_view().expect("a game on the board");
    [v.sides[0].main, v.sides[1].main]
}

/// The time recorded for each move of the main line, in seconds.
fn times(app: &App) -> Vec<Option<u64>> {
    let r = app.record();
    r.main_line()[1..]
        .iter()
        .map(|&id| r.node(id).time.map(|t| t.spent_ms / 1000))
        .collect()
}

/// A script that answers each `go` with `moves` in turn, each once `gate`N exists (N from 1).
fn gated(gate: &Path, moves: &[&str]) -> String {
    let mut s = String::new();
    for (i, m) in moves.iter().enumerate() {
        let g = gate.join((i + 1).to_string());
        s.push_str(&format!("< go\nwait {}\n> bestmove {m}\n", g.display()));
    }
    s
}

fn open(gate: &Path, n: usize) {
    std::fs::write(gate.join(n.to_string()), "").unwrap();
}

#[test]
fn a_takeback_gives_both_sides_the_time_of_the_moves_taken_back() {
    let gate = tempfile::tempdir().unwrap();
    let fake = Fake::new(&gated(gate.path(), &["3c3d", "8c8d"]));
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    start(&mut app, &rx, "600+byo30");
    time.advance(secs(5));
    keys(&mut app, "m76歩⏎");
    time.advance(secs(7));
    open(gate.path(), 1);
    until(&mut app, &rx, "got the reply", |a| {
        line(a.record()).len() == 2
    });
    assert_eq!(main_left(&app), [Some(secs(595)), Some(secs(593))]);
    // ▲ thinks 4 s on its next move, then takes back: the moves and their time go.
    time.advance(secs(4));
    keys(&mut app, "u");
    assert!(line(app.record()).is_empty());
    assert_eq!(
        main_left(&app),
        [Some(secs(600)), Some(secs(600))],
        "the clocks as before the moves taken back"
    );
    // The user's move taken back while the engine thinks on it: the engine is not charged.
    time.advance(secs(2));
    keys(&mut app, "m26歩⏎");
    assert!(app.game().unwrap().engine_thinking());
    time.advance(secs(9));
    keys(&mut app, "u");
    assert!(line(app.record()).is_empty());
    assert_eq!(main_left(&app), [Some(secs(600)), Some(secs(600))]);
    assert!(app.playing());
    drop(rx);
}

#[test]
fn time_suspended_is_not_charged() {
    let fake = Fake::new("< go\n> bestmove 3c3d\n");
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    start(&mut app, &rx, "byo10");
    time.advance(secs(2));
    // Ctrl-z, a minute in the shell, `fg`: the run loop hands the app the time away.
    time.advance(secs(60));
    app.resumed(secs(60));
    app.look();
    assert!(app.playing(), "{:?}", app.message());
    let v = app.play_view().unwrap();
    assert_eq!(v.sides[0].byoyomi, Some(secs(8)), "{v:?}");
    time.advance(secs(1));
    keys(&mut app, "m76歩⏎");
    assert_eq!(times(&app), [Some(3)], "the move took 3 s, not 63");
    drop(rx);
}

/// Hands the app its events until an `Event::Engine` comes, which it keeps unhandled.
fn next_engine_event(app: &mut App, rx: &Receiver<Event>) -> Event {
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(e @ Event::Engine) => return e,
            Ok(e) => {
                app.handle_event(e);
            }
            Err(_) => panic!("the engine never answered: {:?}", app.message()),
        }
    }
}

#[test]
fn an_engine_is_charged_until_its_bestmove_came_not_until_the_app_read_it() {
    let gate = tempfile::tempdir().unwrap();
    let fake = Fake::new(&gated(gate.path(), &["3c3d"]));
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    start(&mut app, &rx, "600+byo30");
    keys(&mut app, "m76歩⏎");
    time.advance(secs(2));
    // Nothing is waiting: the engine's next event is its bestmove.
    while let Ok(e) = rx.try_recv() {
        app.handle_event(e);
    }
    app.play_tick();
    open(gate.path(), 1);
    let came = next_engine_event(&mut app, &rx);
    // The app is busy for 5 s before it reads the answer.
    time.advance(secs(5));
    app.handle_event(came);
    until(&mut app, &rx, "played the reply", |a| {
        line(a.record()).len() == 2
    });
    assert_eq!(times(&app), [Some(0), Some(2)]);
    assert_eq!(main_left(&app), [Some(secs(600)), Some(secs(598))]);
    drop(rx);
}
