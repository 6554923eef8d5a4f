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

/// What the status line says after the `:` line `line`.
fn said_after(line: &str) -> (crate::app::App, String) {
    let mut app = app_with("");
    crate::app::dispatch::typable::run(&mut app, line);
    let said = app
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    (app, said)
}

#[test]
fn every_command_that_takes_no_argument_says_so_when_given_one() {
    use crate::app::dispatch::typable::{Arg, TYPABLE_COMMANDS};
    let none: Vec<_> = TYPABLE_COMMANDS
        .iter()
        .filter(|c| c.arg == Arg::None)
        .collect();
    assert!(none.len() >= 8, "{none:?}");
    for c in none {
        for name in std::iter::once(c.name).chain(c.aliases.iter().copied()) {
            let (app, said) = said_after(&format!("{name} x\u{1b}y"));
            assert_eq!(
                said,
                format!(":{} takes no argument (got x\u{fffd}y)", c.name),
                ":{name} x"
            );
            assert_eq!(app.mode(), Mode::Normal, ":{name} x did nothing");
            assert!(!app.should_quit, ":{name} x did not quit");
        }
    }
}

#[test]
fn help_with_a_command_shows_the_help_at_it_or_says_there_is_none() {
    let (app, said) = said_after("help write");
    assert_eq!(app.mode(), Mode::Help, "{said}");
    assert_eq!(
        app.overlays.iter().last().and_then(|o| match o {
            crate::app::Overlay::Help(h) => h.at,
            _ => None,
        }),
        Some("write")
    );
    // An alias, with its colon, finds the command too.
    let (app, _) = said_after("h :q");
    assert!(matches!(
        app.overlays.iter().last(),
        Some(crate::app::Overlay::Help(h)) if h.at == Some("quit")
    ));
    let (app, said) = said_after("help nosuch");
    assert_eq!(app.mode(), Mode::Normal);
    assert_eq!(said, "no command :nosuch (:help alone lists them all)");
    let (app, _) = said_after("help");
    assert!(matches!(
        app.overlays.iter().last(),
        Some(crate::app::Overlay::Help(h)) if h.at.is_none()
    ));
}
