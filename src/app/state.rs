//! The application state and moving around the record. Keys and clicks reach it through
//! `dispatch/`; edits through `edit/`.

use super::LaunchOptions;
use super::config::Config;
use super::dispatch::command::Command;
use super::document::{self, Document, RecordSource, Watch};
use super::outline::Outline;
use super::overlay::stack::{HelpView, Mode, Overlay, Overlays};
use super::view::{Focus, Pane, View};
use crate::core::notation;
use crate::core::record::{NodeId, Record, Step};
use crate::core::rules::{Position, Square};
use std::collections::HashMap;
use std::time::Duration;

/// How important a message is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    Info,
    Warning,
    Error,
}

/// A line for the status bar.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Message {
    pub text: String,
    pub level: Level,
}

/// Something that changes the app.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    Run(Command),
    /// A character typed into the top overlay (the `:` line, a prompt, the comment editor,
    /// the paste prompt, or an answer to a question).
    Insert(char),
    /// Go to this ply of the current line.
    GotoPly(u32),
    /// Go to this node (switching the line to pass through it).
    JumpTo(NodeId),
    /// Select this tree row and go to it.
    TreeJumpRow(usize),
    /// Scroll a text pane by this many lines.
    Scroll(Pane, i32),
    /// A click on a square of the board (move input).
    BoardClick(Square),
}

/// Where the user is in the record: the current node, the line shown through it, and the
/// position there. Starts again at the root when the record is replaced.
#[derive(Debug)]
struct Cursor {
    cur: NodeId,
    /// The chosen child at each fork (parent -> child) the user has visited.
    chosen: HashMap<NodeId, NodeId>,
    /// The line being shown: root to the end, through `cur`; `line[i].ply == i`.
    line: Vec<NodeId>,
    /// The position at `cur`.
    position: Position,
    /// Positions along `line`, `stops[k]` at `line[k * STOP]`, as far as a move has needed
    /// them, for the record at revision `stops_rev`: going anywhere replays at most `STOP`
    /// moves past where the old and the new line part, not the whole line.
    stops: Vec<Position>,
    stops_rev: u64,
}

/// Plies between two kept positions of the line (`Cursor::stops`).
const STOP: usize = 16;

impl Cursor {
    fn at_start(record: &Record) -> Cursor {
        Cursor {
            cur: NodeId::ROOT,
            chosen: HashMap::new(),
            line: Vec::new(),
            position: record.initial.position.clone(),
            stops: Vec::new(),
            stops_rev: 0,
        }
    }

    /// Makes `line` the line, keeping the stops on the part it shares with the old one.
    fn set_line(&mut self, line: Vec<NodeId>) {
        let covered = (self.stops.len().saturating_sub(1) * STOP + 1).min(line.len());
        let shared = (self.line.iter().zip(&line[..covered]))
            .take_while(|(a, b)| a == b)
            .count();
        self.stops.truncate(shared.div_ceil(STOP));
        self.line = line;
    }

    /// The position at `line[i]` of `record` (at `revision`).
    fn position_on_line(&mut self, record: &Record, revision: u64, i: usize) -> Position {
        if self.stops_rev != revision {
            self.stops.clear();
            self.stops_rev = revision;
        }
        if self.stops.is_empty() {
            self.stops.push(record.initial.position.clone());
        }
        let play = |pos: &mut Position, ids: &[NodeId]| {
            for &n in ids {
                if let Step::Move(m) = &record.node(n).step {
                    let _ = pos.play_unchecked(m.mv);
                }
            }
        };
        while self.stops.len() <= i / STOP {
            let k = self.stops.len();
            let mut pos = self.stops[k - 1].clone();
            play(&mut pos, &self.line[(k - 1) * STOP + 1..=k * STOP]);
            self.stops.push(pos);
        }
        let k = i / STOP;
        let mut pos = self.stops[k].clone();
        play(&mut pos, &self.line[k * STOP + 1..=i]);
        pos
    }
}

/// The whole application state. Its fields are the app layer's (`pub(super)`): the front end,
/// tests and benches read it through its methods and change it through the commands users'
/// keys run (`tests/integration/viewer/tui_layers.rs` checks that no field is `pub` and that there
/// are at most 15). What lives and dies with the record is in [`Document`].
#[derive(Debug)]
pub struct App {
    /// The record, its history and file.
    pub(super) doc: Document,
    /// The saves and the recovery files, which outlive a document.
    pub(super) session: document::session::Session,
    pub(super) config: Config,
    /// What is open over the record; the top decides what keys do.
    pub(super) overlays: Overlays<App>,
    pub(super) view: View,
    cursor: Cursor,
    pub(super) message: Option<Message>,
    pub(super) should_quit: bool,
    /// Ctrl-z was pressed: the front end suspends kifview (and clears this).
    pub(super) suspend_requested: bool,
    /// Where the board cursor was when move input last closed.
    pub(super) board_cursor: Option<Square>,
    /// Text waiting for the front end to put on the clipboard (`document/clipboard.rs`).
    pub(super) clipboard: Option<String>,
    /// Research mode: the engine and what it analyses (`research/`).
    pub(super) research: super::research::state::Research,
    /// The evaluation graph (`research/graph.rs`).
    pub(super) graph: super::research::state::GraphView,
    /// `/` search: the last query and its matches (`search/`).
    pub(super) search: super::search::matches::Search,
    /// The collection: its index, the explorer pane, the library, the records left for its
    /// games (`collection/`, `library/`).
    pub(super) collection: super::collection::state::Collection,
}

impl App {
    /// An app showing `record`.
    pub fn new(record: Record, source: RecordSource, config: Config) -> App {
        let config_best_move = config.analysis.best_move;
        let mut session = document::session::Session::default();
        let every = config.recovery_interval;
        session
            .recovery
            .set_interval((every > 0).then(|| Duration::from_secs(every)));
        let board_size = config.board_size;
        let graph_auto = graph_auto(&record);
        let mut app = App {
            cursor: Cursor::at_start(&record),
            doc: Document::new(record, source),
            config,
            overlays: Overlays::default(),
            view: View {
                focus: Focus::Moves,
                flipped: false,
                board_size,
                comment_scroll: 0,
                header_scroll: 0,
                drawn: None,
            },
            message: None,
            should_quit: false,
            suspend_requested: false,
            board_cursor: None,
            clipboard: None,
            session,
            research: super::research::state::Research::new(None, config_best_move),
            graph: super::research::state::GraphView {
                auto: graph_auto,
                ..Default::default()
            },
            search: Default::default(),
            collection: Default::default(),
        };
        app.rebuild_line();
        app.message = app.reading_message();
        app
    }

    /// The first of the reader's warnings, for the status line.
    fn reading_message(&self) -> Option<Message> {
        let source = self.doc.source();
        let w = source.warnings.first()?;
        let n = source.warnings.len();
        let more = if n > 1 {
            format!(
                " (and {} more; {} lists them)",
                n - 1,
                self.key(Command::ShowWarnings)
            )
        } else {
            String::new()
        };
        Some(Message {
            text: format!("{}{more}", w.with_file(&source.name)),
            level: Level::Warning,
        })
    }

    /// Opens what the command line asked for.
    pub fn open(opts: &LaunchOptions, mut config: Config) -> anyhow::Result<App> {
        if !opts.me.is_empty() {
            config.me = opts.me.clone();
        }
        // `kifview DIR`: the library of DIR over a new record.
        let folder = opts.file.as_ref().is_some_and(|f| f.is_dir());
        let (record, doc) = match folder {
            true => document::open(&LaunchOptions {
                file: None,
                ..opts.clone()
            })?,
            false => document::open(opts)?,
        };
        let mut app = App::new(record, doc, config);
        app.view.flipped = opts.flip;
        app.collection = super::collection::state::Collection::with_index(opts.index.clone());
        app.research = super::research::state::Research::new(
            opts.engine.clone(),
            app.config.analysis.best_move,
        );
        match opts.ply {
            Some(ply) if !opts.variation.is_empty() => app.goto_variation(&opts.variation, ply),
            Some(ply) => app.goto_ply(ply),
            // A followed broadcast is read from its newest move; a USI `position … moves …`
            // line names the position after its moves.
            None if opts.watch || app.doc.source().format.is_some_and(document::opens_at_end) => {
                app.go_end()
            }
            None => {}
        }
        app.offer_recovery();
        if opts.setup {
            app.open_position_editor();
        }
        app.open_library_at_launch(opts);
        if let Some(t) = &opts.train {
            app.start_training(t.clone());
        }
        let books: Vec<std::path::PathBuf> =
            (app.config.books.iter().chain(&opts.books).cloned()).collect();
        app.open_books_at_launch(&books, !opts.books.is_empty());
        Ok(app)
    }

    /// Takes the text to put on the clipboard, if a copy was chosen since the last call.
    pub fn take_clipboard(&mut self) -> Option<String> {
        self.clipboard.take()
    }
    /// The text waiting to go to the clipboard.
    pub fn pending_clipboard(&self) -> Option<&str> {
        self.clipboard.as_deref()
    }
    /// Shows another record in place of the current one: a fresh view of it (start
    /// position, no history, nothing open, scrolled to the top). The document is replaced as
    /// a whole (`Document::replaced_by`); what is the session's (board orientation, focus,
    /// board size, clipboard, watch, graph, the engine, the search's query) stays.
    pub fn replace_record(&mut self, record: Record, source: RecordSource) {
        self.doc.replaced_by(record, source);
        self.session.record_replaced();
        self.show_new_document();
    }

    /// Shows `doc` (a document put aside whole: record, history, edits) in place of the
    /// current one, which it returns, at the start position (the collection's back/forward
    /// stack of records, `collection/games.rs`).
    pub(crate) fn swap_document(&mut self, doc: Document) -> Document {
        let old = std::mem::replace(&mut self.doc, doc);
        self.session.record_replaced();
        self.show_new_document();
        old
    }

    /// A fresh view of the document just put in place (see `replace_record`).
    fn show_new_document(&mut self) {
        self.cursor = Cursor::at_start(self.doc.record());
        self.graph.auto = graph_auto(self.doc.record());
        self.overlays = Overlays::default();
        self.view.comment_scroll = 0;
        self.view.header_scroll = 0;
        self.board_cursor = None;
        self.search = self.search.carried();
        self.research.record_replaced();
        self.rebuild_line();
        self.message = self.reading_message();
    }

    // ----- what the screen reads (the fields are the app layer's own) -----

    /// The record shown.
    pub fn record(&self) -> &Record {
        self.doc.record()
    }
    /// Where the record came from and how it is written back.
    pub fn source(&self) -> &RecordSource {
        self.doc.source()
    }
    /// The document: the record with its history and saves.
    pub fn document(&self) -> &Document {
        &self.doc
    }
    /// The version of the record shown (bumped by every change; caches compare against it).
    pub fn version(&self) -> u64 {
        self.doc.version()
    }
    /// The config in use.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// What is open over the record, bottom first.
    pub fn overlays(&self) -> &Overlays<App> {
        &self.overlays
    }
    /// The focused pane.
    pub fn focus(&self) -> Focus {
        self.view.focus
    }
    /// Is White at the bottom?
    pub fn flipped(&self) -> bool {
        self.view.flipped
    }
    /// How big the board is drawn.
    pub fn board_size(&self) -> super::config::BoardSize {
        self.view.board_size
    }
    /// The status line's message.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }
    /// Has the user quit (the front end ends once the saves have ended)?
    pub fn should_quit(&self) -> bool {
        self.should_quit
    }
    /// The comment pane's scroll offset.
    pub fn comment_scroll(&self) -> u16 {
        self.view.comment_scroll
    }
    /// The header pane's scroll offset.
    pub fn header_scroll(&self) -> u16 {
        self.view.header_scroll
    }
    /// The followed file, when `--watch` follows one.
    pub fn watch(&self) -> Option<&Watch> {
        self.doc.watch.as_ref()
    }
    /// Research mode: the engine and its analysis.
    pub fn research(&self) -> &super::research::state::Research {
        &self.research
    }
    /// The `/` search.
    pub fn search(&self) -> &super::search::matches::Search {
        &self.search
    }
    /// The evaluation graph's settings.
    pub fn graph(&self) -> &super::research::state::GraphView {
        &self.graph
    }
    /// `flip_board`: turns the board around.
    pub(crate) fn flip_board(&mut self) {
        self.view.flipped = !self.view.flipped;
    }
    /// `focus_next` / `focus_prev`.
    pub(crate) fn step_focus(&mut self, d: isize) {
        self.view.focus = self.view.focus.step(d);
    }
    /// The record shown exists nowhere on disk (restored from a recovery file).
    pub(crate) fn mark_unsaved(&mut self) {
        self.doc.mark_unsaved();
    }
    /// Takes a Ctrl-z the front end has not acted on yet.
    pub fn take_suspend_request(&mut self) -> bool {
        std::mem::take(&mut self.suspend_requested)
    }

    /// What the keyboard is doing (the top overlay's mode).
    pub fn mode(&self) -> Mode {
        self.overlays.mode()
    }
    /// Is the record in a state that exists nowhere on disk?
    pub fn is_modified(&self) -> bool {
        self.doc.is_modified()
    }
    /// The current node.
    pub fn cur(&self) -> NodeId {
        self.cursor.cur
    }
    /// The line shown: root to its end, through the current node.
    pub fn line(&self) -> &[NodeId] {
        &self.cursor.line
    }
    /// Index of the current node in `line()` (= its ply).
    pub fn cur_index(&self) -> usize {
        self.doc.record().node(self.cursor.cur).ply as usize
    }
    /// The position at the current node.
    pub fn position(&self) -> &Position {
        &self.cursor.position
    }
    /// The alternatives shown in the variation pane: the current move's siblings when it has
    /// any, else the next move's alternatives. Returns the fork node, and the index of the
    /// selected one.
    pub fn alternatives(&self) -> Option<(NodeId, usize)> {
        let node = self.doc.record().node(self.cursor.cur);
        if let Some(p) = node
            .parent
            .filter(|&p| self.doc.record().node(p).children.len() > 1)
        {
            return Some((p, self.doc.record().sibling_index(self.cursor.cur)));
        }
        if node.children.len() > 1 {
            let next = self.cursor.line.get(self.cur_index() + 1).copied()?;
            return Some((self.cursor.cur, self.doc.record().sibling_index(next)));
        }
        None
    }
    /// The tree outline (built on first use after each change of the record).
    pub fn outline(&mut self) -> &Outline {
        self.doc.outline()
    }
    /// The outline if it is built and current.
    pub fn outline_cached(&self) -> Option<&Outline> {
        self.doc.outline_cached()
    }

    pub(crate) fn info_level(&mut self, text: String, level: Level) {
        self.message = Some(Message { text, level });
    }
    pub(crate) fn info(&mut self, text: impl Into<String>) {
        self.info_level(text.into(), Level::Info);
    }

    fn child_on_line(&self, n: NodeId) -> Option<NodeId> {
        let node = self.doc.record().node(n);
        self.cursor
            .chosen
            .get(&n)
            .copied()
            .filter(|c| node.children.contains(c))
            .or_else(|| node.children.first().copied())
    }

    /// Recomputes the line through `cur` and the position.
    fn rebuild_line(&mut self) {
        self.line_through(self.doc.record().path(self.cursor.cur));
    }

    /// Makes `path` (the root to the current node) and what follows it the line, and sets
    /// the position.
    fn line_through(&mut self, mut line: Vec<NodeId>) {
        let mut n = self.cursor.cur;
        while let Some(c) = self.child_on_line(n) {
            line.push(c);
            n = c;
        }
        self.cursor.set_line(line);
        let i = self.cur_index();
        self.cursor.position =
            (self.cursor).position_on_line(self.doc.record(), self.doc.version(), i);
    }

    /// Moves to ply `index` of the current line.
    pub(crate) fn go_on_line(&mut self, index: usize) {
        if let Some(&id) = self
            .cursor
            .line
            .get(index)
            .filter(|&&id| id != self.cursor.cur)
        {
            self.cursor.cur = id;
            self.cursor.position =
                (self.cursor).position_on_line(self.doc.record(), self.doc.version(), index);
            self.view.comment_scroll = 0;
        }
    }

    /// Goes to move `n` of the current line as the move list numbers it (its end when the
    /// line is shorter; its start for a number at or before the record's start, which is
    /// after move 80 in a record read with `手数＝80`).
    pub(crate) fn goto_ply(&mut self, n: u32) {
        let before = self.doc.record().moves_before();
        let n = n.saturating_sub(before);
        let last = self.cursor.line.len().saturating_sub(1);
        if n as usize > last {
            let msg = if before == 0 {
                format!("this line has only {last} plies; went to the end")
            } else {
                format!(
                    "this line ends at move {}; went to the end",
                    before as usize + last
                )
            };
            self.info_level(msg, Level::Warning);
        }
        self.go_on_line((n as usize).min(last));
    }

    /// Goes to move `n` (as the record numbers its moves) of the variations `forks` name
    /// ((move number, which variation from 1) pairs: `--variation`); when the record holds
    /// no such node (it changed since), to move `n` of the main line, saying so.
    pub(crate) fn goto_variation(&mut self, forks: &[(u32, u32)], n: u32) {
        let before = self.doc.record().moves_before();
        let node = crate::collection::Fork::from_numbers(forks, before).and_then(|f| {
            crate::collection::node_of(self.doc.record(), &f, n.checked_sub(before)?)
        });
        match node {
            Some(id) => self.jump_to(id),
            None => {
                self.goto_ply(n);
                self.info_level(
                    "the record has no such variation: opened at the main line's move".into(),
                    Level::Warning,
                );
            }
        }
    }

    /// Goes to ply `ply` of the main line (its end when shorter) and shows the main line below
    /// it too (the choices made at its forks are forgotten). Returns the ply reached.
    pub(crate) fn go_main_line(&mut self, ply: usize) -> usize {
        let mut id = NodeId::ROOT;
        let mut target = id;
        loop {
            self.cursor.chosen.remove(&id);
            if self.doc.record().node(id).ply as usize <= ply {
                target = id;
            }
            match self.doc.record().node(id).children.first() {
                Some(&c) => id = c,
                None => break,
            }
        }
        self.cursor.cur = target;
        self.view.comment_scroll = 0;
        self.rebuild_line();
        self.cur_index()
    }

    pub(crate) fn go_end(&mut self) {
        self.go_on_line(self.cursor.line.len().saturating_sub(1));
    }

    /// Moves to any node, making the line pass through it (and remembering that choice).
    pub fn jump_to(&mut self, id: NodeId) {
        if id.index() >= self.doc.record().len() {
            return;
        }
        let path = self.doc.record().path(id);
        for w in path.windows(2) {
            self.cursor.chosen.insert(w[0], w[1]);
        }
        self.cursor.cur = id;
        self.view.comment_scroll = 0;
        self.line_through(path);
    }

    pub(crate) fn switch_alternative(&mut self, d: isize) {
        let Some((fork, sel)) = self.alternatives() else {
            self.info("no alternative move here");
            return;
        };
        let children = &self.doc.record().node(fork).children;
        let n = children.len() as isize;
        let next = sel as isize + d;
        if !(0..n).contains(&next) {
            self.info(if d > 0 {
                "this is the last alternative"
            } else {
                "this is the first alternative"
            });
            return;
        }
        let target = children[next as usize];
        self.cursor.chosen.insert(fork, target);
        if fork != self.cursor.cur {
            // The current move's own alternatives: go to the other one. (Alternatives of the
            // next move: stay here, change the line below.)
            self.cursor.cur = target;
            self.view.comment_scroll = 0;
        }
        self.rebuild_line();
    }

    pub(crate) fn step(&mut self, d: isize) {
        let i = self.cur_index() as isize;
        let last = self.cursor.line.len() as isize - 1;
        let t = (i + d).clamp(0, last.max(0));
        if t == i {
            self.info(if d > 0 {
                "end of the line"
            } else {
                "start position"
            });
        }
        self.go_on_line(t as usize);
    }

    // ----- overlays that only look -----

    pub(crate) fn show_warnings(&mut self) {
        if self.doc.source().warnings.is_empty() {
            self.info("the file was read without problems");
        } else {
            self.overlays
                .replace_or_push(Overlay::Warnings(Default::default()));
        }
    }

    /// `z`: auto, bod, large, auto, ...
    pub(crate) fn cycle_board_size(&mut self) {
        use super::config::BoardSize;
        self.view.board_size = self.view.board_size.next();
        let what = match self.view.board_size {
            BoardSize::Auto => "auto (large when it fits)",
            BoardSize::Bod => "bod",
            BoardSize::Large => "large",
        };
        self.info_level(format!("board: {what}"), Level::Info);
    }

    pub(crate) fn open_help(&mut self) {
        if self.mode() != Mode::Help {
            self.overlays.push(Overlay::Help(Default::default()));
        }
    }

    /// `:help COMMAND`: the help, at the line of the `:` command named `name`.
    pub(crate) fn open_help_at(&mut self, name: &'static str) {
        let help = HelpView {
            scroll: 0,
            at: Some(name),
        };
        self.overlays.replace_or_push(Overlay::Help(help));
    }

    /// Closes the top overlay, returning to the one below.
    pub(crate) fn close_overlay(&mut self) {
        self.overlays.pop();
    }

    /// `scroll_down`/`scroll_up`: the help or warnings when open, else the focused pane.
    pub(crate) fn scroll_focused(&mut self, d: i32) {
        if self.overlays.scroll_mut().is_some() {
            self.scroll(Pane::Overlay, d);
            return;
        }
        match self.view.focus {
            Focus::Moves => self.step(d as isize),
            Focus::Variations => self.switch_alternative(d as isize),
            Focus::Comment => self.scroll(Pane::Comment, d),
            Focus::Header => self.scroll(Pane::Header, d),
        }
    }

    fn scroll_value(&mut self, pane: Pane) -> Option<&mut u16> {
        match pane {
            Pane::Comment => Some(&mut self.view.comment_scroll),
            Pane::Header => Some(&mut self.view.header_scroll),
            Pane::Overlay => self.overlays.scroll_mut(),
        }
    }

    /// Scrolls `pane` by `d` rows, within what the last frame could show of it (from where
    /// it showed it: an offset past the end after the text got shorter counts as the end).
    pub(crate) fn scroll(&mut self, pane: Pane, d: i32) {
        let max = self.view.drawn.map(|s| s.scroll_max(pane));
        if let Some(v) = self.scroll_value(pane) {
            let from = max.map_or(*v, |m| (*v).min(m));
            let to = i32::from(from).saturating_add(d);
            *v = to.clamp(0, i32::from(max.unwrap_or(u16::MAX))) as u16;
        }
    }

    /// `▲７六歩` for a move node, the ending word for a special one.
    pub fn step_text(&self, id: NodeId) -> String {
        let node = self.doc.record().node(id);
        match &node.step {
            Step::Root => "開始局面".to_string(),
            Step::Special(s) => s.kif_word().to_string(),
            Step::Move(m) => {
                let prev_to = node
                    .parent
                    .and_then(|p| self.doc.record().node(p).move_data())
                    .map(|pm| pm.mv.to());
                format!(
                    "{}{}",
                    m.color.mark(),
                    notation::japanese::kif_move(m, prev_to)
                )
            }
        }
    }
}

/// Whether the graph shows by itself (where it fits): the main line's comments hold
/// evaluations.
fn graph_auto(record: &Record) -> bool {
    crate::analyze::main_line_evals(record)
        .iter()
        .any(|p| p.eval.is_some())
}
