//! `:engine` and `:set`: which engine research uses (the configured ones, then those found
//! installed) and its options, listed or changed.

use super::{DEBOUNCE, lists};
use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::overlay::{CommandLine, Overlay};
use crate::app::state::{App, Level};
use crate::core::text::sanitize;
use crate::engine::{self, EngineSpec, State};
use std::time::Instant;

impl App {
    /// Every engine `:engine` offers: the configured ones, then those found installed.
    pub(crate) fn engine_choices(&self) -> Vec<EngineSpec> {
        let mut all = self.config.engines.clone();
        for s in engine::discover() {
            if !all
                .iter()
                .any(|c| c.display_name() == s.display_name() || c.command == s.command)
            {
                all.push(s);
            }
        }
        all
    }

    /// `:engine [NAME|PATH]`: lists the engines, or switches to one.
    pub(crate) fn engine_command(&mut self, arg: &str) {
        if arg.is_empty() {
            let all = self.engine_choices();
            if all.is_empty() {
                self.info_level(engine::discover::NO_ENGINE.into(), Level::Error);
                return;
            }
            let current = self.research.engine.as_ref().map(|e| e.spec().clone());
            let sel = all
                .iter()
                .position(|s| Some(s) == current.as_ref())
                .unwrap_or(0);
            let keys = self.keys_hint(
                KeyMode::List,
                &[
                    (Command::ListPick, "use this one"),
                    (Command::Close, "close"),
                ],
            );
            self.open_list(lists::Engines(all), &format!("エンジン  {keys}"));
            self.select_in_list(sel);
            return;
        }
        match engine::resolve(Some(arg), &self.config.engines) {
            Ok(spec) => self.switch_engine(spec),
            Err(msg) => self.info_level(sanitize(&msg).into_owned(), Level::Error),
        }
    }

    /// The rows of the engine list.
    pub(crate) fn engine_list_items(&self, all: &[EngineSpec]) -> Vec<String> {
        let current = self.research.engine.as_ref().map(|e| e.spec());
        all.iter()
            .map(|s| {
                let mark = if Some(s) == current { "*" } else { " " };
                format!(
                    "{mark} {}  {}",
                    sanitize(&s.display_name()),
                    sanitize(&s.command.display().to_string())
                )
            })
            .collect()
    }

    /// Uses `spec` from now on: quits the current engine; analysis goes on with the new one
    /// when it was on.
    pub(crate) fn switch_engine(&mut self, spec: EngineSpec) {
        if self.research.job.is_some() {
            self.cancel_job();
        }
        let was_on = self.research.on;
        self.research.retire();
        self.research.on = false;
        self.research.searched = None;
        self.research.picked = Some(spec.clone());
        if was_on {
            self.toggle_analysis();
        } else {
            self.info(format!(
                "engine: {} (a starts the analysis)",
                sanitize(&spec.display_name())
            ));
        }
    }

    /// `:set [NAME VALUE]`: sets an engine option for this session, or lists them.
    pub(crate) fn set_command(&mut self, arg: &str) {
        if arg.is_empty() {
            let keys = self.keys_hint(
                KeyMode::List,
                &[
                    (Command::ListPick, "change (:set NAME VALUE)"),
                    (Command::Close, "close"),
                ],
            );
            self.open_list(lists::EngineOptions, &format!("エンジン設定  {keys}"));
            return;
        }
        let (name, value) = match arg.rsplit_once(char::is_whitespace) {
            Some((n, v)) => (n.trim(), v.trim()),
            None => {
                self.info_level(
                    format!(
                        "give a value: :set {} VALUE (:set alone lists the options)",
                        sanitize(arg)
                    ),
                    Level::Error,
                );
                return;
            }
        };
        if let Some(e) = self.research.engine.as_mut()
            && e.state() != State::Dead
            && let Err(err) = e.set_option(name, value)
        {
            self.info_level(sanitize(&err.to_string()).into_owned(), Level::Error);
            return;
        }
        let (name, value) = (name.to_string(), value.to_string());
        self.research.session.retain(|(n, _)| *n != name);
        self.research.session.push((name.clone(), value.clone()));
        // The engine takes options between searches: search this position again.
        if self.research.on {
            self.research.searched = None;
            self.research.pending = Some((self.research_target(), Instant::now() - DEBOUNCE));
        }
        self.info(format!(
            "{} = {} for this session",
            sanitize(&name),
            sanitize(&value)
        ));
    }

    /// The rows of the option list: the engine's options with their values.
    pub(crate) fn option_list_items(&self) -> Vec<String> {
        let session = |name: &str| {
            self.research
                .session
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let Some(e) = self.research.engine.as_ref() else {
            let mut rows: Vec<String> = self
                .research
                .session
                .iter()
                .map(|(n, v)| format!("{}  {}", sanitize(n), sanitize(v)))
                .collect();
            rows.push("(start the analysis with a to see the engine's options)".into());
            return rows;
        };
        let spec = e.spec();
        e.info()
            .options
            .iter()
            .map(|o| {
                let value = session(&o.name)
                    .or_else(|| spec.options.get(&o.name).map(|v| v.to_string()))
                    .or_else(|| o.default.clone())
                    .unwrap_or_default();
                format!("{}  {}  ({})", sanitize(&o.name), sanitize(&value), o.kind)
            })
            .collect()
    }

    /// Enter in the option list: `:set NAME ` on the command line.
    pub(crate) fn pick_option(&mut self, index: usize) {
        let name = self
            .research
            .engine
            .as_ref()
            .and_then(|e| e.info().options.get(index))
            .map(|o| o.name.clone());
        if let Some(name) = name {
            self.overlays.pop();
            self.overlays.push(Overlay::CommandLine(CommandLine {
                text: format!("set {name} "),
                completion: None,
            }));
        }
    }
}
