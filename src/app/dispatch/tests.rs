//! The one entry for keys, mouse actions and paste: the same steps before and after each.

use crate::app::testing::app_with;
use crate::app::{Action, Command, Input, KeyCode, KeyEvent, Mode, Modifiers, update};

#[test]
fn a_mouse_action_clears_the_last_message_as_a_key_does() {
    let mut app = app_with("");
    app.handle_key(KeyEvent::char('h'));
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("start position")
    );
    // What a click or the wheel turns into (here: turn the board).
    update(&mut app, Action::Run(Command::FlipBoard));
    assert_eq!(app.message, None, "the old message went with the click");
    app.handle_key(KeyEvent::char('h'));
    update(&mut app, Input::Paste("x".into()));
    assert_ne!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("start position"),
        "pasting says something new or nothing"
    );
}

#[test]
fn ctrl_z_suspends_from_the_position_editor_through_the_same_entry() {
    let mut app = app_with("");
    app.handle_key(KeyEvent::char('S'));
    assert_eq!(app.mode(), Mode::PositionEditor);
    let ctrl = Modifiers {
        ctrl: true,
        ..Modifiers::default()
    };
    update(&mut app, KeyEvent::new(KeyCode::Char('z'), ctrl));
    assert!(app.suspend_requested);
    assert_eq!(app.mode(), Mode::PositionEditor, "the editor stays open");
}
