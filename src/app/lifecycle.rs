//! kifview suspended with Ctrl-z and brought back with `fg`: what the app does around it (the
//! front end gives the terminal back and stops the process); quitting, which asks first about
//! unsaved edits; the events of its workers (`app::events`) taken one by one, and the looks by
//! time the run loop makes for what only time moves.

use super::events::{Event, Events};
use super::state::App;
use crate::app::document::job::Then;
use crate::app::overlay::Answer;
use std::time::{Duration, Instant};

impl App {
    /// `q`: quits, or asks first when there are unsaved edits.
    pub(crate) fn request_quit(&mut self, force: bool) {
        self.interrupt_game("quit");
        if self.quit_waits_for_save(force)
            || self.quit_waits_for_book_save(force)
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
        (self.research.engine.iter())
            .chain(self.research.play.engines())
            .filter_map(crate::engine::Engine::pid)
            .collect()
    }

    /// Back from a suspension of `away`: the engine's deadlines move on by as much (it was
    /// stopped too), and the status line says so.
    pub fn resumed(&mut self, away: Duration) {
        if let Some(e) = self.research.engine.as_mut() {
            e.postpone(away);
        }
        for e in self.research.play.engines_mut() {
            e.postpone(away);
        }
        // The game's clocks did not run while kifview was stopped.
        if let Some(m) = self.research.play.current() {
            m.suspended(away);
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

/// How often a followed file (`--watch`) is looked at.
const WATCH_INTERVAL: Duration = Duration::from_millis(500);
/// How often the progress of a running save or indexing is drawn.
const PROGRESS: Duration = Duration::from_millis(50);

impl App {
    /// Connects the app's workers to `events`: the threads started from now on send into it,
    /// and the timers of the followed file and of the recovery files start.
    pub fn connect_events(&mut self, events: Events) {
        events.every(WATCH_INTERVAL, Event::Watch);
        if let Some(every) = self.session.recovery.interval() {
            let period = every.clamp(Duration::from_millis(50), Duration::from_secs(1));
            events.every(period, Event::Recovery);
        }
        self.session.events = events;
    }

    /// One event: the feature it names takes its news. True when the screen changed.
    pub fn handle_event(&mut self, event: Event) -> bool {
        match event {
            Event::Save => self.save_tick(),
            Event::Collection => self.collection_tick(),
            // Not while a save runs: the followed file may be the one being written (its
            // outcome gives the file's new stamp).
            Event::Watch => !self.save_running() && super::document::watch::tick(self),
            Event::Recovery => self.recovery_tick(),
            Event::Engine => self.research_tick(Instant::now()) | self.play_tick(),
            Event::Train => self.train_tick(),
            Event::Book => self.book_save_tick(),
        }
    }

    /// After a key, a click or a paste: what the input may have set going (a save continued
    /// after its question, the explorer asked about the position reached).
    pub fn after_input(&mut self) -> bool {
        self.save_tick() | self.collection_tick()
    }

    /// How soon the app must be looked at without an event: at the research's nearest
    /// deadline (`research_deadline`: the engine's lines come as `Event::Engine`, so an
    /// engine that only searches is never polled), or while the status line shows the
    /// progress of a save or of the indexing. `None`: only events and input change anything.
    pub fn next_look(&self) -> Option<Duration> {
        let now = Instant::now();
        let engine = (self.research_deadline(now)).map(|at| at.saturating_duration_since(now));
        let progress = (self.save_running() || self.collection().busy()).then_some(PROGRESS);
        // A game's clocks: the next second they show, a flag's fall.
        let clocks = self.play_next_look();
        let clock = self.train_next_look();
        (engine
            .into_iter()
            .chain(progress)
            .chain(clocks)
            .chain(clock))
        .min()
    }

    /// The look [`App::next_look`] asked for: the engine read, the progress drawn again
    /// (the library's list grows by time as well as by its events: `library_tick`).
    pub fn look(&mut self) -> bool {
        let engine = self.research_busy() && self.research_tick(Instant::now());
        let game = self.play_next_look().is_some() | self.play_tick();
        let collection = self.collection().busy() && self.collection_tick();
        engine || game || collection || self.save_running() || self.collection().busy()
    }
}
