//! Application state, commands, overlays, keymaps and config. Uses `core` and the library
//! modules; never the terminal crates.
//!
//! The top level holds `App` and moving around the record (`state.rs`), how the record is
//! shown and what the last frame drew (`view.rs`), the config and keymaps (`config/`, with
//! the `[diagram]` theme in `config/diagram.rs`), what the move list shows of a line
//! (`line_view.rs`), the variation tree as an outline (`outline.rs`), the workers' one
//! channel (`events.rs`), suspending with Ctrl-z, quitting and the workers' events taken one
//! by one (`lifecycle.rs`) and records built by hand for tests (`testing.rs`); each feature
//! has a folder with its state and behaviour:
//!
//! - `dispatch/`: a key becomes a `Command` through the keymap of the top overlay's mode;
//!   `update` (in `dispatch/mod.rs`) is the one entry for keys, mouse actions and paste, with
//!   one set of steps before and after; the command
//!   table (`command.rs`) and the `:` table (`typable.rs`) hold the handlers; `input.rs` the
//!   app's own key events.
//! - `overlay/`: the stack of everything open over the record (`mod.rs`), prompts, questions,
//!   lists, the comment editor (`textedit.rs`), move input on the board (`board_input.rs`),
//!   the variation tree (`tree.rs`), the reader's warnings (`warnings.rs`), the mode line and the
//!   names of keys in messages (`mode_line.rs`).
//! - `document/`: the [`Document`] (`doc.rs`: the record with its history, revision, undo
//!   focus and the following of its file, and its [`RecordSource`], where it came from), the
//!   session (`session.rs`: the saves and the recovery files, which outlive a document), and
//!   every file the app reads
//!   or writes (nothing else in `app` names `std::fs`): opening, saving with its questions
//!   (`save.rs`, the questions about the bytes it made: `questions.rs`), a save's job and what
//!   follows it (`job.rs`: one `Then`, to quit or to show another record), what a save checks
//!   and its typed losses (`checks.rs`), the save thread (`background.rs`: make the bytes
//!   once, then write them),
//!   the records of a
//!   multi-record file (`records.rs`), following a file (`watch.rs`), recovery files, copy and
//!   paste and `:e` (`clipboard.rs`), the copy menu's picture of the position (`picture.rs`).
//! - `edit/`: changes to the record through `App::apply` and its history (`mod.rs`), the
//!   position editor (`position_editor/`) and its place in the app (`setup.rs`).
//! - `search/`: the `/` search's commands (`mod.rs`); what matches and in which order
//!   (`matches.rs`).
//! - `research/`: research mode owns the USI engine (`mod.rs`; its threads send
//!   `Event::Engine` when it sends a line, and `App::research_tick` also runs at the
//!   research's nearest deadline, `App::research_deadline`, which `App::next_look` gives), its state
//!   (`state.rs`), `:analyze` and `:mate` (`analyze.rs`), the evaluation graph (`graph.rs`).
//! - `play/`: playing a game against the engine, or watching two, from the position at the
//!   cursor (`mod.rs`: the turns, the engines' moves, the clocks, takeback, resign, 入玉宣言,
//!   the ending), its state (`state.rs`), the setup's questions (`setup.rs`), the game into
//!   the record as it is played (`record.rs`); the rules and the clock are `crate::game`'s.
//! - `collection/`: the collection in the viewer, one struct that `App` owns
//!   (`state::Collection`: the index it reads, the explorer pane, the library once opened, the
//!   records left for its games, the open books; `state.rs`), the explorer pane's behaviour (`mod.rs`), the
//!   thread that owns the index and answers its queries off the key path (`worker.rs`), the
//!   pane's focus (`X`: the highlighted move, the filter; `focus.rs`), the games reaching a
//!   position and the back/forward stack of records (`games.rs`).
//! - `train/`: the solve mode (`kifview train`): its screen on the overlay stack, the
//!   moves entered handed to the drill, the verdict and the answer's line, the source
//!   record and back (`mod.rs`); the screen's state as data, which the overlay stack holds
//!   (`screen.rs`); the thread that writes each attempt to the training history
//!   (`writer.rs`); the drills' engine requests (a tsume's other mate, a wrong move's
//!   refutation) run on research mode's engine, answered through `Event::Engine` (`engine.rs`).
//! - `library/`: the collection's game list, full screen (`kifview DIR`, `--index IDX`, `O`):
//!   its commands (`mod.rs`), the list, its filter, sort and row cache (`state.rs`), the
//!   threads that compute the ordered list and index the folder (`worker.rs`), its screen on
//!   the overlay stack (`screen.rs`).

pub mod book;
pub mod collection;
pub mod config;
pub mod dispatch;
pub mod document;
pub mod edit;
pub mod events;
pub mod library;
mod lifecycle;
pub mod line_view;
pub mod outline;
pub mod overlay;
pub mod play;
pub mod research;
pub mod search;
mod state;
#[doc(hidden)]
pub mod testing;
#[cfg(test)]
mod tests;
pub mod train;
mod view;

pub use config::{Config, ConfigError, KeyMode};
pub use dispatch::command::{COMMANDS, Command};
pub use dispatch::input::{KeyCode, KeyEvent, Modifiers};
pub use dispatch::{Input, update, update_on};
pub use document::{Document, RecordSource};
pub use overlay::{Mode, Overlay};
pub use state::{Action, App, Level, Message};
pub use view::{Drawn, Focus, Pane};

use std::path::PathBuf;

/// How the viewer was asked to start (from the command line).
#[derive(Clone, Debug, Default)]
pub struct LaunchOptions {
    /// The record to open; `None` starts an empty 平手 record. `-` means standard input.
    pub file: Option<PathBuf>,
    /// Open at this ply of the main line (`+N` or `-n N`).
    pub ply: Option<u32>,
    /// With `ply`: of the variations these (move number, which variation from 1) pairs name
    /// (`--variation`, as `kifview find` prints them: `collection::Fork::arg`).
    pub variation: Vec<(u32, u32)>,
    /// Which record of a multi-record file (1-based; 0 means the first).
    pub record: usize,
    /// Start with the board flipped (White at the bottom).
    pub flip: bool,
    /// Config file given with `--config`.
    pub config: Option<PathBuf>,
    /// Start a new record from this handicap (`--handicap NAME`).
    pub handicap: Option<String>,
    /// Follow the file: reload when another program changes it (`--watch`).
    pub watch: bool,
    /// Start in the position editor (`--setup`).
    pub setup: bool,
    /// The engine for analysis (`--engine NAME|PATH`); None: the config's first, else one
    /// found installed.
    pub engine: Option<String>,
    /// The collection the explorer reads (`--index IDX`); None: the default index.
    pub index: Option<PathBuf>,
    /// Opening books the book pane opens (`--book FILE`, repeatable), after the config's.
    pub books: Vec<PathBuf>,
    /// Who "me" is (`--me NAME`, repeatable): replaces the config's `[collection] me`.
    pub me: Vec<String>,
    /// `kifview train`: open the solve mode with these problems.
    pub train: Option<train::screen::TrainOptions>,
}
