//! Render state is the front end's (issue 36): drawing a frame changes nothing in the app
//! (no offset clamped, no page size or height written back, no query started), and what a
//! key needs of the frame (how far a pane scrolls, a page's rows) goes with the key.

use crate::common::{asset, press, screen, screen_rows, viewer_on};

/// The screen as text.
fn text(v: &mut kifview::tui::Viewer, w: u16, h: u16) -> String {
    screen_rows(&screen(v, w, h)).join("\n")
}

/// The help scrolled far past its end (500 × `j`) shows its last page, and one `k` scrolls
/// up at once: the key knows from the frame it was pressed on how far the help could scroll
/// (before, the frame clamped the help's offset into the app after drawing); the frame
/// drawn leaves the app as it was.
#[test]
fn a_frame_changes_nothing_in_the_app_and_a_key_scrolls_from_what_it_showed() {
    let mut v = viewer_on(&asset("study.kif"), None);
    press(&mut v, "?");
    let top = text(&mut v, 80, 24);
    press(&mut v, &"j".repeat(500));
    let before = format!("{:?}", v.app);
    let end = text(&mut v, 80, 24);
    assert_eq!(format!("{:?}", v.app), before, "the frame changed the app");
    assert_ne!(end, top, "the help is longer than the screen");
    // The last page again: drawn twice from the same app.
    assert_eq!(text(&mut v, 80, 24), end);
    press(&mut v, "k");
    let up = text(&mut v, 80, 24);
    assert_ne!(up, end, "k after scrolling past the end scrolls at once");
    press(&mut v, "j");
    assert_eq!(text(&mut v, 80, 24), end, "j goes back to the last page");
}

/// Frames of several sizes leave the app as it was: the comment scrolled past its end before
/// any frame (fails with the old write-back, which clamped it into the app), then with the
/// graph (`E`) and the tree (`t`) shown.
#[test]
fn frames_of_every_size_leave_the_app_as_it_was() {
    let mut v = viewer_on(&asset("study.kif"), Some(12));
    press(&mut v, "\t\t");
    press(&mut v, &"j".repeat(300));
    for keys in ["", "E", "t"] {
        press(&mut v, keys);
        let before = format!("{:?}", v.app);
        for (w, h) in [(80, 24), (120, 40), (200, 60), (60, 16)] {
            screen(&mut v, w, h);
        }
        assert_eq!(format!("{:?}", v.app), before, "after {keys:?}");
    }
}
