//! USI engines (`engine`, `analyze`, `app::research`): analysis, mate search, the engine pane.

mod analyze;
mod analyze_safety;
mod analyze_viewer;
mod engine_safety;
mod mate;
pub(crate) mod research;
