//! kifview suspended with Ctrl-z and brought back with `fg`: what the app does around it (the
//! front end gives the terminal back and stops the process); quitting, which asks first about
//! unsaved edits.

use super::state::App;
use crate::app::document::job::Then;
use crate::app::overlay::Answer;
use std::time::Duration;

impl App {
    /// `q`: quits, or asks first when there are unsaved edits.
    pub(crate) fn request_quit(&mut self, force: bool) {
        if self.quit_waits_for_save(force)
            || (!force && (self.stacked_unsaved() || self.books_unsaved()))
        {
            return;
        }
        if force || !self.is_modified() {
            self.should_quit = true;
            return;
        }
        let name = self.source().name.clone();
        self.ask_save_first(
            format!("{name} has unsaved changes. Save them?"),
            Vec::new(),
            ["save and quit", "discard and quit"],
            |app, a| match a {
                Answer::Save => app.save_or_ask_name(Then::Quit { force: false }),
                Answer::Discard => app.should_quit = true,
                _ => app.info("still here: nothing was saved or discarded"),
            },
        );
    }

    /// The process ids of the engines kifview runs, each the leader of its own process group
    /// (so the terminal's keys do not reach them): the front end stops them with kifview on
    /// Ctrl-z and continues them on `fg`, so a suspended analysis uses no CPU.
    pub fn engine_pids(&self) -> Vec<u32> {
        self.research
            .engine
            .as_ref()
            .and_then(crate::engine::Engine::pid)
            .into_iter()
            .collect()
    }

    /// Back from a suspension of `away`: the engine's deadlines move on by as much (it was
    /// stopped too), and the status line says so.
    pub fn resumed(&mut self, away: Duration) {
        if let Some(e) = self.research.engine.as_mut() {
            e.postpone(away);
        }
        self.info(format!(
            "resumed ({} suspends again)",
            self.key(super::Command::Suspend)
        ));
    }

    /// The viewer ends: the engine quits (`quit`, killed if it lingers).
    pub fn shutdown_engine(&mut self) {
        self.research.shutdown();
    }
}
