//! The application state and `update`, the one place it changes.

use super::LaunchOptions;
use super::command::Command;
use super::config::{Config, KeyMode};
use super::input::{KeyCode, KeyEvent};
use super::outline::Outline;
use crate::core::notation::{self, Diagnostic, Format, TextInfo};
use crate::core::record::{Initial, NodeId, Record, Step};
use crate::core::rules::{HANDICAPS, Handicap, Position};
use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;

/// What the keyboard is doing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Normal,
    /// Typing on the `:` line (`App::command_line`).
    CommandLine,
    /// The variation tree is open.
    Tree,
    /// The key help is open.
    Help,
    /// The reader's warnings are listed.
    Warnings,
    /// Entering a move with the board cursor.
    Board,
    /// Typing into a one-line prompt (`App::edit.prompt`).
    Prompt,
    /// Editing the current comment (`App::edit.comment`).
    Comment,
    /// A question waits for a one-key answer (`App::edit.confirm`).
    Confirm,
    /// A list to pick from (`App::edit.list`).
    List,
    /// The copy menu is open (`share.rs`).
    Copy,
    /// The paste prompt is open (`App::share.paste`).
    Paste,
}

impl Mode {
    pub fn key_mode(self) -> KeyMode {
        match self {
            Mode::Normal => KeyMode::Normal,
            Mode::CommandLine | Mode::Prompt | Mode::Confirm => KeyMode::Command,
            Mode::Board => KeyMode::Board,
            Mode::Comment => KeyMode::Editor,
            Mode::List => KeyMode::List,
            Mode::Tree => KeyMode::Tree,
            Mode::Help | Mode::Warnings => KeyMode::Help,
            Mode::Copy => KeyMode::Copy,
            Mode::Paste => KeyMode::Paste,
        }
    }
}

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
    fn step(self, d: isize) -> Focus {
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

/// Where the record came from and how to write it back.
#[derive(Clone, Debug)]
pub struct Document {
    /// The file, when there is one (`None` for stdin and new records).
    pub path: Option<PathBuf>,
    /// Name for the status line (`game.kif`, `[stdin]`, `[new]`).
    pub name: String,
    /// The format read (`None` for a new record).
    pub format: Option<Format>,
    pub info: Option<TextInfo>,
    /// Problems the reader found.
    pub warnings: Vec<Diagnostic>,
    /// Which record of the file (0-based) and how many there are.
    pub record_index: usize,
    pub record_count: usize,
    pub modified: bool,
}

impl Document {
    /// A document with no file behind it yet (a new record, pasted text in tests), shown as
    /// `name`.
    pub fn untitled(name: impl Into<String>) -> Document {
        Document {
            path: None,
            name: name.into(),
            format: None,
            info: None,
            warnings: Vec::new(),
            record_index: 0,
            record_count: 1,
            modified: false,
        }
    }

    /// Record `index` (0-based) of a file read into `loaded`, with the document describing it.
    /// `path` is `None` for standard input. `None` when the file has no such record.
    pub fn from_loaded(
        loaded: notation::Loaded,
        path: Option<PathBuf>,
        index: usize,
    ) -> Option<(Record, Document)> {
        let count = loaded.records.len();
        let parsed = loaded.records.into_iter().nth(index)?;
        let name = match &path {
            None => "[stdin]".to_string(),
            Some(p) => p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.display().to_string()),
        };
        Some((
            parsed.record,
            Document {
                path,
                name,
                format: Some(loaded.format),
                info: Some(loaded.info),
                warnings: parsed.warnings,
                record_index: index,
                record_count: count,
                modified: false,
            },
        ))
    }
}

/// Scrollable text panes whose offsets the app keeps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pane {
    Comment,
    Header,
    Overlay,
}

/// Something that changes the app.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    Run(Command),
    /// A character typed on the command line.
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
    BoardClick(crate::core::rules::Square),
}

/// The whole application state.
#[derive(Debug)]
pub struct App {
    pub record: Record,
    pub doc: Document,
    pub config: Config,
    pub mode: Mode,
    pub focus: Focus,
    pub flipped: bool,
    pub message: Option<Message>,
    /// Text typed after `:`.
    pub command_line: String,
    pub should_quit: bool,
    pub comment_scroll: u16,
    pub header_scroll: u16,
    pub overlay_scroll: u16,
    /// The selected row of the tree.
    pub tree_selected: usize,
    /// The mode to go back to when the help closes.
    help_return: Mode,
    /// Bumped by every edit of the record (caches compare against it).
    pub revision: u64,
    cur: NodeId,
    /// The chosen child at each fork (parent -> child) the user has visited.
    chosen: HashMap<NodeId, NodeId>,
    /// The line being shown: root to the end, through `cur`; `line[i].ply == i`.
    line: Vec<NodeId>,
    /// The position at `cur`.
    position: Position,
    outline: Option<(u64, Outline)>,
    /// The editor: undo history, move input, prompts, lists, questions.
    pub edit: super::edit::EditState,
    /// Copy, paste and `:e` state (`share.rs`).
    pub share: super::share::Share,
    /// Following the file (`--watch`, `watch.rs`); `None` when off.
    pub watch: Option<super::watch::Watch>,
}

impl App {
    /// An app showing `record`.
    pub fn new(record: Record, doc: Document, config: Config) -> App {
        let position = record.initial.position.clone();
        let edit = super::edit::EditState::new(doc.path.as_deref());
        let mut app = App {
            record,
            doc,
            config,
            mode: Mode::Normal,
            focus: Focus::Moves,
            flipped: false,
            message: None,
            command_line: String::new(),
            should_quit: false,
            comment_scroll: 0,
            header_scroll: 0,
            overlay_scroll: 0,
            tree_selected: 0,
            help_return: Mode::Normal,
            revision: 0,
            cur: NodeId::ROOT,
            chosen: HashMap::new(),
            line: Vec::new(),
            position,
            outline: None,
            edit,
            share: Default::default(),
            watch: None,
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
        let missing = opts
            .file
            .as_ref()
            .filter(|p| p.as_os_str() != "-" && !p.exists())
            .filter(|p| {
                p.parent()
                    .is_none_or(|d| d.as_os_str().is_empty() || d.is_dir())
            });
        let (record, doc) = match &opts.file {
            _ if opts.file.is_none() || missing.is_some() => {
                let initial = match &opts.handicap {
                    None => Initial::even(),
                    Some(name) => {
                        let h = Handicap::by_name(name).ok_or_else(|| {
                            let names: Vec<&str> = HANDICAPS.iter().map(|h| h.name).collect();
                            anyhow::anyhow!(
                                "unknown handicap `{name}` (expected one of: {})",
                                names.join(" ")
                            )
                        })?;
                        Initial {
                            position: h.position(),
                            handicap: Some(h),
                        }
                    }
                };
                let mut record = Record::new(initial);
                if let Some(h) = record.initial.handicap {
                    record.header.set("手合割", h.name);
                }
                let name = missing
                    .and_then(|p| p.file_name())
                    .map(|n| format!("{} [new]", n.to_string_lossy()))
                    .unwrap_or_else(|| "[new]".into());
                (
                    record,
                    Document {
                        path: missing.cloned(),
                        ..Document::untitled(name)
                    },
                )
            }
            None => unreachable!("handled above"),
            Some(path) => {
                let stdin = path.as_os_str() == "-";
                let bytes = if stdin {
                    let mut b = Vec::new();
                    std::io::stdin()
                        .read_to_end(&mut b)
                        .map_err(|e| anyhow::anyhow!("cannot read standard input: {e}"))?;
                    b
                } else {
                    std::fs::read(path)
                        .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))?
                };
                let loaded = notation::load(&bytes, (!stdin).then_some(path.as_path()));
                let count = loaded.records.len();
                let want = opts.record.max(1);
                Document::from_loaded(loaded, (!stdin).then(|| path.clone()), want - 1).ok_or_else(
                    || {
                        anyhow::anyhow!(
                            "{}: --record {want}: the file holds {count} record{}",
                            path.display(),
                            if count == 1 { "" } else { "s" }
                        )
                    },
                )?
            }
        };
        let mut app = App::new(record, doc, config);
        app.flipped = opts.flip;
        if let Some(ply) = opts.ply {
            update(&mut app, Action::GotoPly(ply));
        }
        Ok(app)
    }

    /// What the keyboard is doing.
    pub fn mode(&self) -> Mode {
        self.mode
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

    /// The action a key means in the current mode.
    pub fn action_for_key(&self, key: KeyEvent) -> Option<Action> {
        if let Some(c) = self.config.keymap.get(self.mode.key_mode(), &key) {
            return Some(Action::Run(c));
        }
        match (self.mode, key.code) {
            (
                Mode::CommandLine | Mode::Paste | Mode::Prompt | Mode::Comment | Mode::Confirm,
                KeyCode::Char(c),
            ) if !key.mods.ctrl && !key.mods.alt => Some(Action::Insert(c)),
            _ => None,
        }
    }

    /// Handles one key press: clears the last message, then runs what the key is bound to.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if self.mode != Mode::CommandLine {
            self.message = None;
        }
        match self.action_for_key(key) {
            Some(a) => update(self, a),
            None if self.mode == Mode::Normal => self.info_level(
                format!("{key} is not bound (? lists the keys)"),
                Level::Info,
            ),
            None => {}
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

    /// Recomputes the line through `cur` and the position (only when the node changes).
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

    /// Moves to `id`, which is on the current line.
    fn go_on_line(&mut self, index: usize) {
        if let Some(&id) = self.line.get(index).filter(|&&id| id != self.cur) {
            self.cur = id;
            self.position = self.record.position_at(id);
            self.comment_scroll = 0;
        }
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

    fn switch_alternative(&mut self, d: isize) {
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
        if fork == self.cur {
            // Alternatives of the next move: stay here, change the line below.
            self.rebuild_line();
        } else {
            self.cur = target;
            self.comment_scroll = 0;
            self.rebuild_line();
        }
    }

    fn step(&mut self, d: isize) {
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

    fn tree_move(&mut self, d: isize) {
        let n = self.outline().rows.len() as isize;
        let t = (self.tree_selected as isize + d).clamp(0, (n - 1).max(0));
        self.tree_selected = t as usize;
    }

    // The last arm (the editor's commands) makes clippy want `if`s folded into guards.
    #[allow(clippy::collapsible_match)]
    fn run(&mut self, c: Command) {
        if self.run_edit(c) || super::share::run(self, c) {
            return;
        }
        match c {
            Command::NextMove => self.step(1),
            Command::PrevMove => self.step(-1),
            Command::Forward10 => self.step(10),
            Command::Back10 => self.step(-10),
            Command::GoStart => self.go_on_line(0),
            Command::GoEnd => self.go_on_line(self.line.len().saturating_sub(1)),
            Command::NextVariation => self.switch_alternative(1),
            Command::PrevVariation => self.switch_alternative(-1),
            Command::GotoPlyPrompt => {
                self.mode = Mode::CommandLine;
                self.command_line.clear();
            }
            Command::ToggleTree => {
                if self.mode == Mode::Tree {
                    self.mode = Mode::Normal;
                } else {
                    let cur = self.cur;
                    self.tree_selected = self.outline().row_of(cur);
                    self.mode = Mode::Tree;
                }
            }
            Command::FlipBoard => self.flipped = !self.flipped,
            Command::FocusNext => self.focus = self.focus.step(1),
            Command::FocusPrev => self.focus = self.focus.step(-1),
            Command::ScrollDown | Command::ScrollUp => {
                let d = if c == Command::ScrollDown { 1 } else { -1 };
                match (self.mode, self.focus) {
                    (Mode::Help | Mode::Warnings, _) => self.scroll(Pane::Overlay, d),
                    (_, Focus::Moves) => self.step(d as isize),
                    (_, Focus::Variations) => self.switch_alternative(d as isize),
                    (_, Focus::Comment) => self.scroll(Pane::Comment, d),
                    (_, Focus::Header) => self.scroll(Pane::Header, d),
                }
            }
            Command::ShowWarnings => {
                if self.doc.warnings.is_empty() {
                    self.info("the file was read without problems");
                } else {
                    self.overlay_scroll = 0;
                    self.mode = Mode::Warnings;
                }
            }
            Command::Help => {
                if self.mode != Mode::Help {
                    self.help_return = self.mode;
                }
                self.overlay_scroll = 0;
                self.mode = Mode::Help;
            }
            Command::Quit => self.should_quit = true,
            Command::TreeDown => self.tree_move(1),
            Command::TreeUp => self.tree_move(-1),
            Command::TreePageDown => self.tree_move(10),
            Command::TreePageUp => self.tree_move(-10),
            Command::TreeTop => self.tree_move(isize::MIN / 2),
            Command::TreeBottom => self.tree_move(isize::MAX / 2),
            Command::TreeJump => {
                let row = self.tree_selected;
                self.tree_jump(row);
            }
            Command::Close => {
                self.mode = match self.mode {
                    Mode::Help => std::mem::replace(&mut self.help_return, Mode::Normal),
                    _ => Mode::Normal,
                }
            }
            Command::Submit => {
                self.mode = Mode::Normal;
                let text = std::mem::take(&mut self.command_line);
                self.submit(&text);
            }
            Command::Cancel => {
                self.mode = Mode::Normal;
                self.command_line.clear();
            }
            Command::DeleteBack => {
                if self.command_line.pop().is_none() {
                    self.mode = Mode::Normal;
                }
            }
            // Handled by `share::run` above.
            Command::CopyMenu
            | Command::CopySfen
            | Command::CopyBod
            | Command::CopyUsi
            | Command::CopyKif
            | Command::CopyKi2
            | Command::CopyCsa
            | Command::Paste
            | Command::Newline
            | Command::ToggleWatch => {}
            Command::NoOp => {}
            // The editor's commands are handled in `edit.rs` (`run_edit`).
            _ => {}
        }
    }

    fn tree_jump(&mut self, row: usize) {
        let Some(r) = self.outline().rows.get(row).copied() else {
            return;
        };
        self.tree_selected = row;
        // Keep the current node when it lies on the chosen branch.
        let cur = self.cur;
        let in_row = self.outline().row_of(cur) == row;
        if !in_row {
            self.jump_to(r.start);
        }
        self.mode = Mode::Normal;
    }

    fn submit(&mut self, text: &str) {
        if super::share::submit(self, text.trim()) || self.ex_command(text.trim()) {
            return;
        }
        let t: String = text
            .trim()
            .chars()
            .map(|c| match c {
                '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
                _ => c,
            })
            .collect();
        if t.is_empty() {
            return;
        }
        match t.parse::<u32>() {
            Ok(n) => update(self, Action::GotoPly(n)),
            Err(_) => self.info_level(
                format!("not a ply number: {}", super::text::sanitize(&t)),
                Level::Error,
            ),
        }
    }

    fn scroll(&mut self, pane: Pane, d: i32) {
        let v = match pane {
            Pane::Comment => &mut self.comment_scroll,
            Pane::Header => &mut self.header_scroll,
            Pane::Overlay => &mut self.overlay_scroll,
        };
        *v = (*v as i32 + d).clamp(0, u16::MAX as i32) as u16;
    }

    /// Keeps scroll offsets within what the front end found it can show.
    pub fn clamp_scroll(&mut self, pane: Pane, max: u16) {
        let v = match pane {
            Pane::Comment => &mut self.comment_scroll,
            Pane::Header => &mut self.header_scroll,
            Pane::Overlay => &mut self.overlay_scroll,
        };
        *v = (*v).min(max);
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

/// Applies one action.
pub fn update(app: &mut App, action: Action) {
    match action {
        Action::Run(c) => app.run(c),
        Action::Insert(c) if app.mode == Mode::Paste => super::share::insert(app, c),
        Action::Insert(c) => {
            if app.insert_edit(c) {
                return;
            }
            if app.command_line.chars().count() < 1024 {
                app.command_line.push(c);
            }
        }
        Action::GotoPly(n) => {
            let last = app.line.len().saturating_sub(1);
            if n as usize > last {
                app.info_level(
                    format!("this line has only {last} plies; went to the end"),
                    Level::Warning,
                );
            }
            app.go_on_line((n as usize).min(last));
        }
        Action::JumpTo(id) => app.jump_to(id),
        Action::TreeJumpRow(r) => app.tree_jump(r),
        Action::Scroll(p, d) => app.scroll(p, d),
        Action::BoardClick(sq) => app.board_click(sq),
    }
}
