//! The run loop's one wait (`tui::wake`): a worker's event wakes it without a key, and the
//! feature it names takes its news (`App::handle_event`).

use crate::common::press;
use kifview::tui::wake::{Wake, Woken};
use std::time::Duration;

/// A save going on in the background ends on its thread: its event wakes the wait (no key,
/// no timeout: the wait is a minute long), and handing the event to the app finishes the
/// save (the file written, the record no longer modified, the status line says so).
#[test]
fn a_background_save_wakes_the_loop_without_a_key_and_its_event_finishes_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut v, path) = super::save_background::viewer(dir.path());
    let wake = Wake::new().unwrap();
    v.app.connect_events(wake.events());
    press(&mut v, "cイベント⎋");
    press(&mut v, "^s");
    let mut events = Vec::new();
    // The save's thread may end before the wait begins: the pipe keeps its byte.
    while v.app.save_running() {
        assert_eq!(wake.wait(Duration::from_secs(60), false), Woken::Event);
        for ev in wake.take() {
            events.push(ev);
            v.app.handle_event(ev);
        }
    }
    assert!(
        events.contains(&kifview::app::events::Event::Save),
        "{events:?}"
    );
    assert!(!v.app.is_modified());
    assert!(std::fs::read_to_string(&path).unwrap().contains("イベント"));
    let status = v.app.message().map(|m| m.text.clone()).unwrap_or_default();
    assert!(status.contains("saved"), "{status}");
}

/// With nothing running, the wait ends by its timeout (no event was sent).
#[test]
fn with_no_worker_the_wait_ends_by_its_timeout() {
    let wake = Wake::new().unwrap();
    assert_eq!(wake.wait(Duration::ZERO, false), Woken::Timeout);
    assert!(wake.take().is_empty());
}
