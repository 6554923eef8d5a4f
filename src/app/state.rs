//! The application state and moving around the record. Keys and clicks reach it through
//! `dispatch/`; edits through `edit/`.

use super::LaunchOptions;
use super::config::Config;
use super::dispatch::command::Command;
use super::document::{self, Document, Watch};
use super::outline::Outline;
use super::overlay::{Mode, Overlay, Overlays};
use crate::core::notation;
use crate::core::record::{History, NodeId, Record, Step};
use crate::core::rules::{Position, Square};
use std::collections::HashMap;

/// The panes `Tab` cycles through.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Focus {
    Moves,
    Variations,
    Comment,
    Header,
}

impl Focus {
    const ORDER: [Focus; 4] = [
        Focus::Moves,
        Focus::Variations,
        Focus::Comment,
        Focus::Header,
    ];
    pub(crate) fn step(self, d: isize) -> Focus {
        let i = Focus::ORDER.iter().position(|&f| f == self).unwrap_or(0) as isize;
        Focus::ORDER[(i + d).rem_euclid(Focus::ORDER.len() as isize) as usize]
    }
}

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

/// Scrollable text panes whose offsets the app keeps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pane {
    Comment,
    Header,
    /// The top overlay (help, warnings).
    Overlay,
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

/// The whole application state.
#[derive(Debug)]
pub struct App {
    pub record: Record,
    pub doc: Document,
    pub config: Config,
    /// What is open over the record; the top decides what keys do.
    pub overlays: Overlays,
    pub focus: Focus,
    pub flipped: bool,
    /// How big the board is drawn (from `board.size`; `z` cycles it).
    pub board_size: super::config::BoardSize,
    pub message: Option<Message>,
    pub should_quit: bool,
    /// Ctrl-z was pressed: the front end suspends kifview (and clears this).
    pub suspend_requested: bool,
    pub comment_scroll: u16,
    pub header_scroll: u16,
    /// Bumped by every change of the record (caches compare against it).
    pub revision: u64,
    /// Undo and redo, and which revision was saved.
    pub history: History,
    /// Where the cursor was after each undoable edit (parallel to the history's undo stack),
    /// so redo returns there too.
    pub(crate) focus_undo: Vec<NodeId>,
    pub(crate) focus_redo: Vec<NodeId>,
    /// Where the board cursor was when move input last closed.
    pub(crate) board_cursor: Option<Square>,
    /// Text waiting for the front end to put on the clipboard (`document/clipboard.rs`).
    pub clipboard: Option<String>,
    /// Following the file (`--watch`, `document/watch.rs`); `None` when off.
    pub watch: Option<Watch>,
    /// Research mode: the engine and what it analyses (`research/`).
    pub research: super::research::state::Research,
    /// The evaluation graph (`research/graph.rs`).
    pub graph: super::research::state::GraphView,
    /// `/` search: the last query and its matches (`search/`).
    pub search: super::search::matches::Search,
    /// Saves running in the background (`document/save.rs`).
    pub saves: super::document::background::Saves,
    /// The collection: the explorer pane (`collection/`).
    pub(crate) collection: super::collection::state::Explorer,
    cur: NodeId,
    /// The chosen child at each fork (parent -> child) the user has visited.
    chosen: HashMap<NodeId, NodeId>,
    /// The line being shown: root to the end, through `cur`; `line[i].ply == i`.
    line: Vec<NodeId>,
    /// The position at `cur`.
    position: Position,
    outline: Option<(u64, Outline)>,
    /// The reader's warnings that name a move, by node (`line_view.rs`).
    pub(crate) move_warnings: Vec<(NodeId, usize)>,
}

impl App {
    /// An app showing `record`.
    pub fn new(record: Record, doc: Document, config: Config) -> App {
        let position = record.initial.position.clone();
        let config_best_move = config.analysis.best_move;
        // The warnings that name a move, by node, for the move list.
        let mut move_warnings: Vec<(NodeId, usize)> = (doc.warnings.iter().enumerate())
            .filter_map(|(i, w)| w.node.map(|n| (n, i)))
            .collect();
        move_warnings.sort_unstable();
        let board_size = config.board_size;
        let mut app = App {
            record,
            doc,
            config,
            overlays: Overlays::default(),
            focus: Focus::Moves,
            flipped: false,
            board_size,
            message: None,
            should_quit: false,
            suspend_requested: false,
            comment_scroll: 0,
            header_scroll: 0,
            revision: 0,
            history: History::new(),
            focus_undo: Vec::new(),
            focus_redo: Vec::new(),
            board_cursor: None,
            clipboard: None,
            watch: None,
            research: super::research::state::Research::new(None, config_best_move),
            graph: super::research::state::GraphView::default(),
            search: Default::default(),
            saves: Default::default(),
            collection: Default::default(),
            cur: NodeId::ROOT,
            chosen: HashMap::new(),
            line: Vec::new(),
            position,
            outline: None,
            move_warnings,
        };
        app.rebuild_line();
        if let Some(w) = app.doc.warnings.first() {
            let n = app.doc.warnings.len();
            let more = if n > 1 {
                format!(" (and {} more; W lists them)", n - 1)
            } else {
                String::new()
            };
            app.message = Some(Message {
                text: format!("{}{more}", w.with_file(&app.doc.name)),
                level: Level::Warning,
            });
        }
        app
    }

    /// Opens what the command line asked for.
    pub fn open(opts: &LaunchOptions, config: Config) -> anyhow::Result<App> {
        let (record, doc) = document::open(opts)?;
        let mut app = App::new(record, doc, config);
        app.flipped = opts.flip;
        app.collection = super::collection::state::Explorer::with_index(opts.index.clone());
        app.research = super::research::state::Research::new(
            opts.engine.clone(),
            app.config.analysis.best_move,
        );
        match opts.ply {
            Some(ply) => app.goto_ply(ply),
            // A followed broadcast is read from its newest move; a USI `position … moves …`
            // line names the position after its moves.
            None if opts.watch || app.doc.format.is_some_and(document::opens_at_end) => {
                app.go_end()
            }
            None => {}
        }
        app.offer_recovery();
        if opts.setup {
            app.open_position_editor();
        }
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
    /// Shows another record in place of the current one: a fresh view (start position, no
    /// history, nothing open) that keeps the board orientation, focus, clipboard and watch.
    pub fn replace_record(&mut self, record: Record, doc: Document) {
        let mut fresh = App::new(record, doc, self.config.clone());
        fresh.flipped = self.flipped;
        fresh.focus = self.focus;
        fresh.clipboard = self.clipboard.take();
        fresh.watch = self.watch.take();
        fresh.graph = self.graph;
        fresh.search = self.search.carried();
        fresh.research = std::mem::take(&mut self.research);
        fresh.research.record_replaced();
        fresh.saves = std::mem::take(&mut self.saves).for_replaced_record();
        fresh.collection = std::mem::take(&mut self.collection);
        *self = fresh;
    }

    // ----- what the screen reads (the fields are the app layer's own) -----

    /// The record shown.
    pub fn record(&self) -> &Record {
        &self.record
    }
    /// Where the record came from and how it is written back.
    pub fn source(&self) -> &Document {
        &self.doc
    }
    /// The revision of the record shown (bumped by every change; caches compare against it).
    pub fn revision(&self) -> u64 {
        self.revision
    }
    /// The config in use.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// What is open over the record, bottom first.
    pub fn overlays(&self) -> &Overlays {
        &self.overlays
    }
    /// The focused pane.
    pub fn focus(&self) -> Focus {
        self.focus
    }
    /// Is White at the bottom?
    pub fn flipped(&self) -> bool {
        self.flipped
    }
    /// How big the board is drawn.
    pub fn board_size(&self) -> super::config::BoardSize {
        self.board_size
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
        self.comment_scroll
    }
    /// The header pane's scroll offset.
    pub fn header_scroll(&self) -> u16 {
        self.header_scroll
    }
    /// The followed file, when `--watch` follows one.
    pub fn watch(&self) -> Option<&Watch> {
        self.watch.as_ref()
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
        self.flipped = !self.flipped;
    }
    /// `focus_next` / `focus_prev`.
    pub(crate) fn step_focus(&mut self, d: isize) {
        self.focus = self.focus.step(d);
    }
    /// The record shown exists nowhere on disk (restored from a recovery file).
    pub(crate) fn mark_unsaved(&mut self) {
        self.history = History::unsaved();
    }

    /// What the keyboard is doing (the top overlay's mode).
    pub fn mode(&self) -> Mode {
        self.overlays.mode()
    }
    /// Is the record in a state that exists nowhere on disk?
    pub fn is_modified(&self) -> bool {
        self.history.is_modified()
    }
    /// The current node.
    pub fn cur(&self) -> NodeId {
        self.cur
    }
    /// The line shown: root to its end, through the current node.
    pub fn line(&self) -> &[NodeId] {
        &self.line
    }
    /// Index of the current node in `line()` (= its ply).
    pub fn cur_index(&self) -> usize {
        self.record.node(self.cur).ply as usize
    }
    /// The position at the current node.
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The alternatives shown in the variation pane: the current move's siblings when it has
    /// any, else the next move's alternatives. Returns the fork node, and the index of the
    /// selected one.
    pub fn alternatives(&self) -> Option<(NodeId, usize)> {
        let node = self.record.node(self.cur);
        if let Some(p) = node
            .parent
            .filter(|&p| self.record.node(p).children.len() > 1)
        {
            return Some((p, self.record.sibling_index(self.cur)));
        }
        if node.children.len() > 1 {
            let next = self.line.get(self.cur_index() + 1).copied()?;
            return Some((self.cur, self.record.sibling_index(next)));
        }
        None
    }
    /// The tree outline (built on first use after each change of the record).
    pub fn outline(&mut self) -> &Outline {
        let stale = !matches!(&self.outline, Some((rev, _)) if *rev == self.revision);
        if stale {
            self.outline = Some((self.revision, Outline::build(&self.record)));
        }
        &self.outline.as_ref().expect("just built").1
    }
    /// The outline if it is built and current.
    pub fn outline_cached(&self) -> Option<&Outline> {
        match &self.outline {
            Some((rev, o)) if *rev == self.revision => Some(o),
            _ => None,
        }
    }

    pub(crate) fn info_level(&mut self, text: String, level: Level) {
        self.message = Some(Message { text, level });
    }
    pub(crate) fn info(&mut self, text: impl Into<String>) {
        self.info_level(text.into(), Level::Info);
    }

    fn child_on_line(&self, n: NodeId) -> Option<NodeId> {
        let node = self.record.node(n);
        self.chosen
            .get(&n)
            .copied()
            .filter(|c| node.children.contains(c))
            .or_else(|| node.children.first().copied())
    }

    /// Recomputes the line through `cur` and the position.
    fn rebuild_line(&mut self) {
        let mut line = self.record.path(self.cur);
        let mut n = self.cur;
        while let Some(c) = self.child_on_line(n) {
            line.push(c);
            n = c;
        }
        self.line = line;
        self.position = self.record.position_at(self.cur);
    }

    /// Moves to ply `index` of the current line.
    pub(crate) fn go_on_line(&mut self, index: usize) {
        if let Some(&id) = self.line.get(index).filter(|&&id| id != self.cur) {
            self.cur = id;
            self.position = self.record.position_at(id);
            self.comment_scroll = 0;
        }
    }

    /// Goes to move `n` of the current line as the move list numbers it (its end when the
    /// line is shorter; its start for a number at or before the record's start, which is
    /// after move 80 in a record read with `手数＝80`).
    pub(crate) fn goto_ply(&mut self, n: u32) {
        let before = self.record.moves_before();
        let n = n.saturating_sub(before);
        let last = self.line.len().saturating_sub(1);
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

    /// Goes to ply `ply` of the main line (its end when shorter) and shows the main line below
    /// it too (the choices made at its forks are forgotten). Returns the ply reached.
    pub(crate) fn go_main_line(&mut self, ply: usize) -> usize {
        let mut id = NodeId::ROOT;
        let mut target = id;
        loop {
            self.chosen.remove(&id);
            if self.record.node(id).ply as usize <= ply {
                target = id;
            }
            match self.record.node(id).children.first() {
                Some(&c) => id = c,
                None => break,
            }
        }
        self.cur = target;
        self.comment_scroll = 0;
        self.rebuild_line();
        self.cur_index()
    }

    pub(crate) fn go_end(&mut self) {
        self.go_on_line(self.line.len().saturating_sub(1));
    }

    /// Moves to any node, making the line pass through it (and remembering that choice).
    pub fn jump_to(&mut self, id: NodeId) {
        if id.index() >= self.record.len() {
            return;
        }
        let path = self.record.path(id);
        for w in path.windows(2) {
            self.chosen.insert(w[0], w[1]);
        }
        self.cur = id;
        self.comment_scroll = 0;
        self.rebuild_line();
    }

    pub(crate) fn switch_alternative(&mut self, d: isize) {
        let Some((fork, sel)) = self.alternatives() else {
            self.info("no alternative move here");
            return;
        };
        let children = &self.record.node(fork).children;
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
        self.chosen.insert(fork, target);
        if fork != self.cur {
            // The current move's own alternatives: go to the other one. (Alternatives of the
            // next move: stay here, change the line below.)
            self.cur = target;
            self.comment_scroll = 0;
        }
        self.rebuild_line();
    }

    pub(crate) fn step(&mut self, d: isize) {
        let i = self.cur_index() as isize;
        let last = self.line.len() as isize - 1;
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

    pub(crate) fn toggle_tree(&mut self) {
        if self.mode() == Mode::Tree {
            self.overlays.pop();
        } else {
            let cur = self.cur;
            let selected = self.outline().row_of(cur);
            self.overlays.push(Overlay::Tree { selected });
        }
    }

    pub(crate) fn tree_move(&mut self, d: isize) {
        let n = self.outline().rows.len() as isize;
        if let Some(Overlay::Tree { selected }) = self.overlays.top_mut() {
            *selected = (*selected as isize + d).clamp(0, (n - 1).max(0)) as usize;
        }
    }

    pub(crate) fn tree_jump_selected(&mut self) {
        if let Some(row) = self.overlays.tree_selected() {
            self.tree_jump(row);
        }
    }

    pub(crate) fn tree_jump(&mut self, row: usize) {
        let Some(r) = self.outline().rows.get(row).copied() else {
            return;
        };
        // Keep the current node when it lies on the chosen branch.
        let cur = self.cur;
        if self.outline().row_of(cur) != row {
            self.jump_to(r.start);
        }
        if self.mode() == Mode::Tree {
            self.overlays.pop();
        }
    }

    pub(crate) fn show_warnings(&mut self) {
        if self.doc.warnings.is_empty() {
            self.info("the file was read without problems");
        } else {
            self.overlays
                .replace_or_push(Overlay::Warnings { scroll: 0 });
        }
    }

    /// `z`: auto, bod, large, auto, ...
    pub(crate) fn cycle_board_size(&mut self) {
        use super::config::BoardSize;
        self.board_size = self.board_size.next();
        let what = match self.board_size {
            BoardSize::Auto => "auto (large when it fits)",
            BoardSize::Bod => "bod",
            BoardSize::Large => "large",
        };
        self.info_level(format!("board: {what}"), Level::Info);
    }

    pub(crate) fn open_help(&mut self) {
        if self.mode() != Mode::Help {
            self.overlays.push(Overlay::Help { scroll: 0 });
        }
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
        match self.focus {
            Focus::Moves => self.step(d as isize),
            Focus::Variations => self.switch_alternative(d as isize),
            Focus::Comment => self.scroll(Pane::Comment, d),
            Focus::Header => self.scroll(Pane::Header, d),
        }
    }

    fn scroll_value(&mut self, pane: Pane) -> Option<&mut u16> {
        match pane {
            Pane::Comment => Some(&mut self.comment_scroll),
            Pane::Header => Some(&mut self.header_scroll),
            Pane::Overlay => self.overlays.scroll_mut(),
        }
    }

    pub(crate) fn scroll(&mut self, pane: Pane, d: i32) {
        if let Some(v) = self.scroll_value(pane) {
            *v = (*v as i32 + d).clamp(0, u16::MAX as i32) as u16;
        }
    }

    /// Keeps scroll offsets within what the front end found it can show.
    pub fn clamp_scroll(&mut self, pane: Pane, max: u16) {
        if let Some(v) = self.scroll_value(pane) {
            *v = (*v).min(max);
        }
    }

    /// `▲７六歩` for a move node, the ending word for a special one.
    pub fn step_text(&self, id: NodeId) -> String {
        let node = self.record.node(id);
        match &node.step {
            Step::Root => "開始局面".to_string(),
            Step::Special(s) => s.kif_word().to_string(),
            Step::Move(m) => {
                let prev_to = node
                    .parent
                    .and_then(|p| self.record.node(p).move_data())
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
