//! The ways of playing: the engine's evaluation shown and hidden (`H`), two engines watched,
//! and where a game from a record with moves goes (a variation here, or a new record).

use super::game::{app_with, keys, line, start, until};
use crate::common::{screen, screen_rows, usi_line};
use crate::engine::research::Fake;
use kifview::app::events::{Event, Events};
use kifview::app::{App, Config, RecordSource};
use kifview::core::record::Record;
use kifview::game::FakeTime;
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

/// The screen at 120x40, one string.
fn shown(v: &mut Viewer) -> String {
    screen_rows(&screen(v, 120, 40)).join("\n")
}

#[test]
fn h_shows_and_hides_the_engines_evaluation_and_line() {
    let fake = Fake::new("< go\n> info depth 2 score cp -35 pv 3c3d 2g2f 8c8d\n> bestmove 3c3d\n");
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    start(&mut app, &rx, "600+byo30");
    keys(&mut app, "m76歩⏎");
    until(&mut app, &rx, "got the reply", |a| {
        line(a.record()).len() == 2
    });
    let mut v = Viewer::new(app, Theme::plain());
    // The line's third move (８四歩) is nowhere else on the screen.
    let hidden = shown(&mut v);
    assert!(!hidden.contains("８四歩"), "hidden at first:\n{hidden}");
    v.app.handle_key(kifview::app::KeyEvent::char('H'));
    let on = shown(&mut v);
    assert!(
        on.contains("△ +35"),
        "the engine (△) and its evaluation, from ▲'s side as everywhere:\n{on}"
    );
    assert!(on.contains("８四歩"), "the line:\n{on}");
    v.app.handle_key(kifview::app::KeyEvent::char('H'));
    let off = shown(&mut v);
    assert!(!off.contains("８四歩"), "hidden again:\n{off}");
    drop(rx);
}

/// An app with two fake engines (`a` first in the config), its events into a channel.
fn app_with_two(a: &Fake, b: &Fake, time: &FakeTime, record: Record) -> (App, Receiver<Event>) {
    let mut config = Config::defaults();
    let mut b_spec = b.spec.clone();
    b_spec.name = "FakeB".into();
    config.engines = vec![a.spec.clone(), b_spec];
    let mut app = App::new(record, RecordSource::untitled("study.kif"), config);
    let (tx, rx) = channel();
    app.connect_events(Events::new(move |e| tx.send(e).is_ok()));
    kifview::app::testing::play_time(&mut app, Arc::new(time.clone()));
    (app, rx)
}

#[test]
fn watching_two_engines_plays_both_sides_into_the_record_until_one_resigns() {
    let a = Fake::new("< go\n> bestmove 7g7f\n< go\n> bestmove 2g2f\n< go\n> bestmove resign\n");
    let b = Fake::new("< go\n> bestmove 3c3d\n< go\n> bestmove 8c8d\n");
    let time = FakeTime::default();
    let (mut app, rx) = app_with_two(&a, &b, &time, Record::default());
    // 観戦 (the third side), the first engine for ▲, the second for △, byo3, the names.
    keys(&mut app, "Ajj⏎⏎j⏎byo3⏎⏎⏎");
    assert!(app.playing(), "{:?}", app.message());
    assert!(app.message().unwrap().text.contains("watching"));
    until(&mut app, &rx, "the game ended", |a| !a.playing());
    assert_eq!(line(app.record()), ["7g7f", "3c3d", "2g2f", "8c8d", "投了"]);
    let r = app.record();
    assert_eq!(r.header.get("先手"), Some("Fake"));
    assert_eq!(r.header.get("後手"), Some("FakeB"));
    assert!(app.message().unwrap().text.contains("まで4手で後手の勝ち"));
    // Each engine was sent the game so far.
    assert!(
        b.log().iter().any(|l| l.ends_with("moves 7g7f 3c3d 2g2f")),
        "{:?}",
        b.log()
    );
    assert!(
        a.log()
            .iter()
            .any(|l| l.starts_with("go ") && l.contains("byoyomi 2400"))
    );
    drop(rx);
}

#[test]
fn watching_takes_nothing_back_and_r_stops_the_game() {
    let a = Fake::new("< go\n> bestmove 7g7f\n");
    let b = Fake::new("< go\n");
    let time = FakeTime::default();
    let (mut app, rx) = app_with_two(&a, &b, &time, Record::default());
    keys(&mut app, "Ajj⏎⏎j⏎byo3⏎⏎⏎");
    until(&mut app, &rx, "▲ moved", |a| line(a.record()).len() == 1);
    keys(&mut app, "u");
    assert!(app.message().unwrap().text.contains("nothing to take back"));
    assert_eq!(line(app.record()), ["7g7f"]);
    keys(&mut app, "R");
    assert!(!app.playing());
    assert_eq!(line(app.record()), ["7g7f", "中断"]);
    drop(rx);
}

/// A record of three moves (▲7六歩 △3四歩 ▲2六歩) with players of its own, the cursor on
/// ▲7六歩.
fn three_moves() -> Record {
    let text = "先手：羽生\n後手：藤井\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n";
    kifview::core::notation::load(text.as_bytes(), None).records[0]
        .record
        .clone()
}

#[test]
fn a_game_from_a_record_with_moves_is_a_variation_here_or_a_new_record_as_chosen() {
    for new_record in [false, true] {
        let fake = Fake::new("< go\n> bestmove 2g2f\n");
        let time = FakeTime::default();
        let (mut app, rx) = app_with_two(&fake, &fake, &time, three_moves());
        keys(&mut app, "l");
        // △ (you, to move here), the engine for ▲, the time control, the names, where.
        keys(&mut app, "Aj⏎⏎byo3⏎⏎⏎");
        assert!(!app.playing(), "asks where the game goes first");
        keys(&mut app, if new_record { "j⏎" } else { "⏎" });
        assert!(app.playing(), "{:?}", app.message());
        until(&mut app, &rx, "the engine is ready", |a| {
            a.game().is_some_and(|m| m.engines_ready())
        });
        keys(&mut app, "m84歩⏎");
        until(&mut app, &rx, "got the reply", |a| {
            a.game().is_some_and(|m| m.game().played().len() == 2)
        });
        let r = app.record();
        if new_record {
            assert_eq!(app.source().name, "game.kif");
            assert_eq!(line(r), ["8c8d", "2g2f"], "the game from the position");
            assert!(
                r.initial
                    .position
                    .to_sfen()
                    .starts_with("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w")
            );
            assert_eq!(r.header.get("後手"), Some("You"));
            assert_eq!(r.header.get("先手"), Some("Fake"));
        } else {
            assert_eq!(app.source().name, "study.kif");
            assert_eq!(line(r), ["7g7f", "3c3d", "2g2f"], "the main line is kept");
            let ply1 = r.main_line()[1];
            let branch = r.node(ply1).children[1];
            assert_eq!(usi_line(r, branch), ["8c8d", "2g2f"]);
            assert_eq!(
                r.header.get("先手"),
                Some("羽生"),
                "the record's own players"
            );
            let first = &r.node(branch).comment;
            assert!(first.contains("You") && first.contains("Fake"), "{first}");
            assert_eq!(app.cur(), r.node(branch).children[0]);
        }
        drop(rx);
    }
}

#[test]
fn the_offered_time_control_and_names_are_replaced_by_what_is_typed() {
    let fake = Fake::new("< go\n");
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    // ▲, the engine; the time control offered is selected: Backspace clears it whole.
    keys(&mut app, "A⏎⏎");
    let mut v = Viewer::new(app, Theme::plain());
    assert!(shown(&mut v).contains("depth=8): 600+byo30"));
    v.app.handle_key(kifview::app::KeyEvent::plain(
        kifview::app::KeyCode::Backspace,
    ));
    let rows = shown(&mut v);
    assert!(rows.contains("depth=8): "), "{rows}");
    assert!(!rows.contains("depth=8): 6"), "cleared:\n{rows}");
    let mut app = v.app;
    // Typed over what is offered: the time control, then 先手's name; 後手's taken as offered.
    keys(&mut app, "10+1⏎Hanako⏎⏎");
    assert!(app.playing(), "{:?}", app.message());
    let r = app.record();
    assert_eq!(r.header.get("持ち時間"), Some("10秒+1秒"));
    assert_eq!(r.header.get("先手"), Some("Hanako"));
    assert_eq!(r.header.get("後手"), Some("Fake"), "Enter takes the offer");
    drop(rx);
}

#[test]
fn typing_over_the_offered_time_control_replaces_it() {
    let fake = Fake::new("< go\n");
    let time = FakeTime::default();
    let (mut app, rx) = app_with(&fake, &time);
    keys(&mut app, "A⏎⏎byo5⏎⏎⏎");
    assert!(app.playing(), "{:?}", app.message());
    assert_eq!(app.record().header.get("持ち時間"), Some("0秒+秒読み5秒"));
    drop(rx);
}
