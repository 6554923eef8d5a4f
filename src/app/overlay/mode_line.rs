//! What mode the keyboard is in, for the status line: every mode other than browsing shows
//! its name and its way out (`-- MOVE INPUT -- Esc: leave`), with the keys the keymap binds
//! (a rebound Esc shows the new key).

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::dispatch::input::{KeyCode, KeyEvent};
use crate::app::overlay::behaviour::Tag;
use crate::app::state::App;

/// A mode's name and how to leave it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ModeTag {
    /// `MOVE INPUT`, `COMMENT`, `TREE`, ...
    pub name: &'static str,
    /// `Enter: run`, `Esc: leave`: the keys and what they do, the way out last.
    pub keys: Vec<String>,
}

impl ModeTag {
    /// `-- COMMAND -- Enter: run  Esc: leave`.
    pub fn text(&self) -> String {
        if self.keys.is_empty() {
            self.short()
        } else {
            format!("-- {} -- {}", self.name, self.keys.join("  "))
        }
    }
    /// The name and the way out only: `-- COMMAND -- Esc: leave` (for a narrow line).
    pub fn compact(&self) -> String {
        match self.keys.last() {
            Some(k) => format!("-- {} -- {k}", self.name),
            None => format!("-- {} --", self.name),
        }
    }
    /// The name only: `-- COMMAND --`.
    pub fn short(&self) -> String {
        format!("-- {} --", self.name)
    }
}

impl App {
    /// The keys bound to `cmd` in `mode`, characters first.
    pub(crate) fn keys_for(&self, mode: KeyMode, cmd: Command) -> Vec<KeyEvent> {
        self.config
            .keymap
            .bindings(mode)
            .into_iter()
            .find(|(c, _)| *c == cmd)
            .map(|(_, keys)| keys)
            .unwrap_or_default()
    }

    /// The key bound to `cmd` in `mode`: Esc or Enter when it is one of them (the keys every
    /// mode shares), else the shortest.
    fn key_for(&self, mode: KeyMode, cmd: Command) -> Option<KeyEvent> {
        let keys = self.keys_for(mode, cmd);
        [KeyCode::Esc, KeyCode::Enter]
            .into_iter()
            .find_map(|code| keys.iter().copied().find(|k| *k == KeyEvent::plain(code)))
            .or_else(|| keys.first().copied())
    }

    /// The key that runs `cmd` in `mode`, as a message names it (`u`, `Ctrl-r`, `Esc`): the
    /// keymap's, so that a rebound key is the one named. A command with no key in that mode
    /// is named by its config name (`[undo]`).
    pub fn key_name(&self, mode: KeyMode, cmd: Command) -> String {
        match self.key_for(mode, cmd) {
            Some(k) => k.to_string(),
            None => format!("[{}]", cmd.name()),
        }
    }

    /// [`App::key_name`] for a key while browsing: `format!("{} undoes", app.key(Undo))`.
    pub fn key(&self, cmd: Command) -> String {
        self.key_name(KeyMode::Normal, cmd)
    }

    /// `u undoes`, with the key undo has now.
    pub(crate) fn undo_hint(&self) -> String {
        format!("{} undoes", self.key(Command::Undo))
    }

    /// `Enter: go  Esc: close` for a title or a message, from the keymap of `mode`.
    pub(crate) fn keys_hint(&self, mode: KeyMode, what: &[(Command, &str)]) -> String {
        self.keys_text(mode, what).join("  ")
    }

    /// `Enter: run`, `Esc: leave`: each command with its key, the ones without a key left out.
    fn keys_text(&self, mode: KeyMode, what: &[(Command, &str)]) -> Vec<String> {
        what.iter()
            .filter_map(|&(c, label)| Some(format!("{}: {label}", self.key_for(mode, c)?)))
            .collect()
    }

    /// The mode shown on the status line (the top overlay's tag, with the keys the keymap
    /// binds); `None` while browsing with nothing running.
    pub fn mode_tag(&self) -> Option<ModeTag> {
        use Command as C;
        let Some(top) = self.overlays.top() else {
            let km = KeyMode::Normal;
            return if self.job_running() {
                Some(ModeTag {
                    name: "ANALYZING",
                    keys: self.keys_text(km, &[(C::CancelJob, "stop")]),
                })
            } else if self.research.on {
                Some(ModeTag {
                    name: "RESEARCH",
                    keys: self.keys_text(km, &[(C::ToggleAnalysis, "stop")]),
                })
            } else {
                None
            };
        };
        let state = top.state();
        match state.tag() {
            Tag::None => None,
            Tag::Keys(name, keys) => Some(ModeTag {
                name,
                keys: self.keys_text(state.key_mode(), keys),
            }),
            Tag::Fixed(name, keys) => Some(ModeTag {
                name,
                keys: keys.iter().map(|k| k.to_string()).collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::testing::app_with;
    use crate::app::{App, KeyEvent, Mode};

    fn press(app: &mut App, keys: &str) {
        for c in keys.chars() {
            app.handle_key(KeyEvent::char(c));
        }
    }

    #[test]
    fn every_mode_but_browsing_names_itself_and_its_way_out() {
        let mut app = app_with("");
        assert_eq!(app.mode_tag(), None, "browsing shows nothing");
        for (keys, mode, want) in [
            ("i", Mode::Board, "-- MOVE INPUT -- Esc: leave"),
            (
                ":",
                Mode::CommandLine,
                "-- COMMAND -- Enter: run  Esc: leave",
            ),
            (
                "c",
                Mode::Comment,
                "-- COMMENT -- Ctrl-c: discard  Esc: keep",
            ),
            ("t", Mode::Tree, "-- TREE -- o: fold  Enter: go  Esc: close"),
            ("?", Mode::Help, "-- HELP -- Esc: close"),
            ("y", Mode::Copy, "-- COPY -- Esc: close"),
            ("r", Mode::List, "-- ENDINGS -- Enter: choose  Esc: close"),
            ("m", Mode::Prompt, "-- PROMPT -- Enter: ok  Esc: cancel"),
            (
                "S",
                Mode::PositionEditor,
                "-- POSITION EDITOR -- Enter: use  Esc: cancel",
            ),
        ] {
            let mut app = app_with("");
            press(&mut app, keys);
            assert_eq!(app.mode(), mode, "{keys}");
            assert_eq!(
                app.mode_tag().map(|t| t.text()).as_deref(),
                Some(want),
                "{keys}"
            );
        }
        press(&mut app, "p");
        assert_eq!(
            app.mode_tag().unwrap().text(),
            "-- PASTE -- Ctrl-d: open  Esc: cancel"
        );
    }

    #[test]
    fn messages_name_the_keys_the_keymap_has_now() {
        use crate::app::{Config, KeyCode};
        use crate::core::record::Record;
        let said = |app: &App| app.message().map(|m| m.text.clone()).unwrap_or_default();
        let game = |config: Config| {
            App::new(
                Record::default(),
                crate::app::RecordSource::untitled("t.kif"),
                config,
            )
        };
        // The defaults: u undoes, Ctrl-r redoes.
        let mut app = game(Config::defaults());
        press(&mut app, "r");
        app.handle_key(KeyEvent::plain(KeyCode::Enter));
        assert!(said(&app).ends_with("(u undoes)"), "{}", said(&app));
        press(&mut app, "u");
        assert!(said(&app).ends_with("; Ctrl-r redoes"), "{}", said(&app));
        // Rebound: the same messages name the new keys.
        let config = Config::from_toml(
            "t.toml",
            "[keys.normal]\n\"U\" = \"undo\"\n\"u\" = \"none\"\n\"R\" = \"redo\"\n\"ctrl-r\" = \"none\"\n",
        )
        .unwrap();
        let mut app = game(config);
        press(&mut app, "r");
        app.handle_key(KeyEvent::plain(KeyCode::Enter));
        assert!(said(&app).ends_with("(U undoes)"), "{}", said(&app));
        press(&mut app, "U");
        assert!(said(&app).ends_with("; R redoes"), "{}", said(&app));
        // A command left without a key is named by its config name.
        let config = Config::from_toml("t.toml", "[keys.normal]\n\"u\" = \"none\"\n").unwrap();
        let mut app = game(config);
        press(&mut app, "r");
        app.handle_key(KeyEvent::plain(KeyCode::Enter));
        assert!(said(&app).ends_with("([undo] undoes)"), "{}", said(&app));
    }
}
