//! USI engines, without a terminal: start one, analyse positions, read its lines.
//!
//! Layered above `core` (rules, notation) and below `app`. Std only: one process per engine, one
//! reader thread per engine that parses its output (stdout and stderr, merged) and sends it over
//! an mpsc channel; the owner drives the state machine with [`Engine::poll`], which never
//! blocks. See [`Engine`] for the contract.
//!
//! - [`usi`]: the forgiving line parser.
//! - [`driver`]: [`Engine`], the state machine of ShogiHome's `EngineProcess`.
//! - [`analysis`]: [`Analysis`], the latest line per MultiPV index, checked and in Japanese.
//! - [`search`]: requests, limits, outcomes.
//! - [`score`], [`pv`]: scores from sente's side, engine lines checked with the rules.
//! - [`discover`](mod@discover): finding an engine when none is configured.
//!
//! How a UI uses it (research mode):
//!
//! ```no_run
//! use kifview::core::rules::{Move, Position};
//! use kifview::engine::{self, Engine, EngineEvent, EngineSpec, Limit, SearchRequest};
//! use std::time::Duration;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let configured: Vec<EngineSpec> = Vec::new(); // the config's [[engines]]
//! // `--engine NAME|PATH`, else the first configured, else a known engine installed;
//! // Err is a message for the user (it says how to install one).
//! let spec = engine::resolve(None, &configured)?;
//! let mut eng = Engine::start(spec)?; // returns at once; the handshake runs in the background
//! eng.set_option("MultiPV", "3")?;
//!
//! // The cursor moved (debounce ~100 ms): the game's start and the moves to the cursor.
//! let (start, path): (Position, Vec<Move>) = (Position::startpos(), vec![]);
//! eng.search(SearchRequest { root: start, moves: path, limit: Limit::Infinite })?;
//!
//! loop {
//!     // In the UI loop: poll at least every ~30 ms while an engine runs (e.g. as the
//!     // timeout of crossterm's event::poll); redraw when something changed.
//!     std::thread::sleep(Duration::from_millis(30));
//!     for event in eng.poll() {
//!         match event {
//!             EngineEvent::Analysis(_) => { /* redraw the pane (at most once per poll) */ }
//!             EngineEvent::Error(e) => eprintln!("{e}"), // status line; `eng.restart()` later
//!             EngineEvent::Note(n) => eprintln!("{n}"),
//!             _ => {}
//!         }
//!     }
//!     let a = eng.analysis(); // render from this snapshot; nothing to compute
//!     for line in &a.lines {
//!         let win = line.score.map(|s| s.win_percent()).unwrap_or(50.0);
//!         println!("{} {:>5} {win:.0}% {}", a.score_text(line), line.depth_text(), line.japanese);
//!     }
//!     # break;
//! }
//! eng.quit(); // or just drop it: quit, 200 ms, then kill and reap
//! # Ok(())
//! # }
//! ```

pub mod analysis;
pub mod discover;
pub mod driver;
mod error;
mod guard;
mod process;
pub mod pv;
pub mod score;
pub mod search;
pub mod usi;

pub use analysis::{Analysis, AnalysisStatus, Line};
pub use discover::{discover, resolve};
pub use driver::{Engine, EngineEvent, EngineInfo, State, Timeouts};
pub use error::EngineError;
pub use process::Waker;
pub use score::Score;
pub use search::{
    Limit, MATE_STOP, MATE_STOP_GRACE, MateBudget, SearchEnd, SearchId, SearchRequest,
};

use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// How to start one engine: an `[[engines]]` entry of the config file.
///
/// ```toml
/// [[engines]]
/// name = "YaneuraOu"
/// command = "/opt/yane/YaneuraOu-by-gcc"
/// args = []
/// dir = "/opt/yane"            # working directory (eval files are found relative to it)
/// options = { Threads = 2, USI_Hash = 256, MultiPV = 3 }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSpec {
    /// What kifview calls it; empty means the command's file name.
    #[serde(default)]
    pub name: String,
    pub command: PathBuf,
    #[serde(default)]
    pub args: Vec<String>,
    /// Working directory; None: kifview's own.
    #[serde(default)]
    pub dir: Option<PathBuf>,
    /// `setoption` values sent after `usiok`, in name order.
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    /// Where each of `options` was set (`FILE:LINE` of the config), for messages about it.
    #[serde(skip)]
    pub option_origins: BTreeMap<String, String>,
}

impl EngineSpec {
    /// A spec for `command` with nothing else set.
    pub fn new(command: impl Into<PathBuf>) -> EngineSpec {
        EngineSpec {
            command: command.into(),
            ..EngineSpec::default()
        }
    }

    /// The configured name, or the command's file name.
    pub fn display_name(&self) -> String {
        if !self.name.is_empty() {
            return self.name.clone();
        }
        self.command
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.command.display().to_string())
    }
}

/// An option value from the config: `true`, `256`, `"path/to/eval"`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(n) => write!(f, "{n}"),
            OptionValue::Text(s) => f.write_str(s),
        }
    }
}

/// Removes what is unsafe for a terminal (`core::text::is_unsafe`: escape sequences, CR,
/// NUL, bidi controls, U+2028 …) from engine text; tabs become spaces. Engine output is
/// untrusted: nothing from it reaches the screen without this.
pub(crate) fn clean(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if crate::core::text::is_unsafe(c) => None,
            c => Some(c),
        })
        .collect()
}

#[cfg(test)]
mod spec_tests {
    use super::*;

    #[test]
    fn spec_reads_from_a_toml_engines_table() {
        #[derive(Debug, Deserialize)]
        struct Config {
            engines: Vec<EngineSpec>,
        }
        let c: Config = toml::from_str(
            r#"
            [[engines]]
            name = "Yane"
            command = "/opt/yane/YaneuraOu"
            dir = "/opt/yane"
            options = { Threads = 2, USI_Ponder = false, EvalDir = "eval" }

            [[engines]]
            command = "fairy-stockfish"
            "#,
        )
        .unwrap();
        assert_eq!(c.engines[0].display_name(), "Yane");
        assert_eq!(c.engines[0].options["Threads"].to_string(), "2");
        assert_eq!(c.engines[0].options["USI_Ponder"].to_string(), "false");
        assert_eq!(c.engines[0].options["EvalDir"].to_string(), "eval");
        assert_eq!(c.engines[1].display_name(), "fairy-stockfish");
        assert!(c.engines[1].args.is_empty());
        let bad = toml::from_str::<Config>("[[engines]]\ncomand = \"x\"\n");
        assert!(bad.unwrap_err().to_string().contains("comand"));
    }
}

#[cfg(test)]
mod real_tests;
#[cfg(test)]
mod test_support;
