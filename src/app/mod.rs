//! Application state, commands, overlays, keymaps and config. Uses `core`; never the
//! terminal crates. A key becomes a `Command` through the keymap of the top overlay's mode
//! (`overlay.rs`); the command table (`command.rs`) and the `:` table (`typable.rs`) hold
//! the handlers; changes to the record go through `editing.rs` and its history; files go
//! through `document.rs` only. The `/` search: what matches and in which order in
//! `search.rs`, its keys and prompt in `searching.rs`. Research mode (`research.rs`) owns the
//! USI engine; the front end calls `App::research_tick` after each key and every 30 ms while
//! an engine runs.

pub mod config;
pub mod dispatch;
pub mod document;
pub mod edit;
mod lifecycle;
pub mod line_view;
pub mod outline;
pub mod overlay;
pub mod research;
pub mod search;
mod state;
#[doc(hidden)]
pub mod testing;
#[cfg(test)]
mod tests;

pub use config::{Config, ConfigError, KeyMode};
pub use dispatch::command::{COMMANDS, Command};
pub use dispatch::input::{KeyCode, KeyEvent, Modifiers};
pub use dispatch::update;
pub use document::Document;
pub use overlay::{Mode, Overlay};
pub use state::{Action, App, Focus, Level, Message, Pane};

use std::path::PathBuf;

/// How the viewer was asked to start (from the command line).
#[derive(Clone, Debug, Default)]
pub struct LaunchOptions {
    /// The record to open; `None` starts an empty 平手 record. `-` means standard input.
    pub file: Option<PathBuf>,
    /// Open at this ply of the main line (`+N` or `-n N`).
    pub ply: Option<u32>,
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
}
