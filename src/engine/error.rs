//! What can go wrong with an engine, worded for the status line.

use std::time::Duration;

/// Why the engine cannot go on, or why a request was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("cannot start engine {name} ({command}): {message}")]
    Spawn {
        name: String,
        command: String,
        message: String,
    },
    #[error(
        "engine {name} did not answer {waiting_for} within {} s; it was killed{}",
        .after.as_secs_f32(),
        last_words(.last_output)
    )]
    Timeout {
        name: String,
        waiting_for: &'static str,
        after: Duration,
        /// The engine's last lines that were not USI (as in `Exited`).
        last_output: Vec<String>,
    },
    #[error("engine {name} exited ({status}){}", last_words(.last_output))]
    Exited {
        name: String,
        status: String,
        last_output: Vec<String>,
    },
    #[error("engine {name} stopped reading commands ({message}); it was killed")]
    Write { name: String, message: String },
    #[error("move {} ({text}) cannot be sent to the engine: {reason}", .index + 1)]
    IllegalMove {
        index: usize,
        text: String,
        reason: String,
    },
    #[error("the position cannot be sent to an engine: {0}")]
    Position(String),
    /// An option or raw command that would break the protocol (control characters, no name).
    #[error("not sent to the engine: {0}")]
    Refused(String),
    #[error("the engine is not running")]
    NotRunning,
}

fn last_words(lines: &[String]) -> String {
    match lines.last() {
        Some(l) => format!(": {l}"),
        None => String::new(),
    }
}
