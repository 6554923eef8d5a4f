//! The checks a config must pass beyond its syntax: a way out of every mode, and where each
//! engine option was set (for naming the line when an engine refuses its value).

use super::{Config, ConfigError, KeyMode, line_of};
use crate::app::dispatch::command::Command;
use serde::Deserialize;
use std::collections::BTreeMap;

impl Config {
    /// Notes the config line of each engine option (`FILE:LINE`), so that a value the engine
    /// cannot take is named with it.
    pub(super) fn note_option_lines(&mut self, file: &str, text: &str) {
        #[derive(Deserialize)]
        struct Lines {
            #[serde(default)]
            engines: Vec<EngineLines>,
        }
        #[derive(Deserialize)]
        struct EngineLines {
            #[serde(default)]
            options: BTreeMap<String, toml::Spanned<toml::Value>>,
        }
        let Ok(lines) = toml::from_str::<Lines>(text) else {
            return;
        };
        for (spec, found) in self.engines.iter_mut().zip(lines.engines) {
            for (name, value) in found.options {
                let line = line_of(text, value.span().start);
                spec.option_origins.insert(name, format!("{file}:{line}"));
            }
        }
    }

    /// A keymap must leave a way to quit: a key for `quit` in normal mode, or one that opens
    /// the `:` line (for `:q`); and in every other mode a key that leaves it (`close`,
    /// `cancel`, `submit`, `quit`, `board_cancel`, `editor_done`, `editor_discard`). Without
    /// them kifview, or a view of it, could only be left by a signal.
    pub(super) fn check_way_out(&self, file: &str) -> Result<(), ConfigError> {
        let bound = |mode: KeyMode, want: &[Command]| {
            self.keymap
                .maps
                .get(&mode)
                .is_some_and(|m| m.values().any(|c| want.contains(c)))
        };
        let stuck = |message: String| ConfigError {
            file: file.to_string(),
            line: 0,
            message,
        };
        if !bound(KeyMode::Normal, &[Command::Quit, Command::GotoPlyPrompt]) {
            return Err(stuck("keys.normal: no key quits kifview (bind one to `quit`, or one to `goto_ply` for the : line and :q)".into()));
        }
        let exits = [
            Command::Quit,
            Command::Close,
            Command::Cancel,
            Command::Submit,
            Command::BoardCancel,
            Command::EditorDone,
            Command::EditorDiscard,
        ];
        match KeyMode::ALL[1..].iter().find(|&&m| !bound(m, &exits)) {
            Some(m) => Err(stuck(format!(
                "keys.{0}: no key leaves {0} mode once in it (bind one to {1})",
                m.name(),
                match m {
                    KeyMode::Command | KeyMode::Paste => "`cancel`",
                    KeyMode::Board => "`board_cancel`",
                    KeyMode::Editor => "`editor_done` or `editor_discard`",
                    _ => "`close`",
                }
            ))),
            None => Ok(()),
        }
    }
}
