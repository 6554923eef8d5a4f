//! Whether the evaluation graph is shown, kept in [`App`](crate::app::App) (the behaviour is in
//! `graph.rs`).

/// Whether the graph is shown and on which scale (part of [`App`](crate::app::App)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GraphView {
    pub shown: bool,
    /// Sente's win % instead of centipawns (clamped to ±2,000).
    pub win_percent: bool,
}
