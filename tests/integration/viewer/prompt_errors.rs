//! A prompt's error at 80 columns (issue 23): the message the prompt's Enter gave, beside the
//! text typed, is too long for the status line; it wraps onto rows below the prompt, whole,
//! instead of losing its tail, and the prompt stays open with its text to mend.

use kifview::app::{App, Config, LaunchOptions, Mode};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;

use crate::common::{press, screen, screen_rows, status_rows};

fn squeezed(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn a_prompt_error_too_long_for_its_line_wraps_below_it_whole() {
    let app = App::open(&LaunchOptions::default(), Config::defaults()).unwrap();
    let mut v = Viewer::new(app, Theme::plain());
    press(&mut v, "m7六abcdefghijklmnop⏎");
    assert_eq!(v.app.mode(), Mode::Prompt, "the prompt stays open to mend");
    let message = v.app.message().expect("the reader says why").text.clone();
    let t = screen(&mut v, 80, 24);
    let rows = screen_rows(&t);
    let status = status_rows(&v, &rows, 80);
    assert!(status.lines().count() > 1, "{status}");
    assert!(status.starts_with("move: 7六abcdefghijklmnop"), "{status}");
    assert!(
        squeezed(&status).contains(&squeezed(&message)),
        "the whole message:\n{message}\nshown:\n{status}"
    );
    let mut text = rows.join("\n");
    text.push('\n');
    insta::assert_snapshot!("prompt_error_80x24", text);
    // Mended: the message goes with the text that caused it, the status line is one row.
    press(&mut v, &"⌫".repeat(16));
    press(&mut v, "歩⏎");
    assert_eq!(v.app.mode(), Mode::Normal);
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert_eq!(status_rows(&v, &rows, 80).lines().count(), 1);
}
