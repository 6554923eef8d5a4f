//! kifview: a terminal viewer and editor for shogi game records.
//!
//! Layers: `core` (rules, record, notation; no terminal), `app` (state and actions; no
//! terminal), `tui` (terminal). A layer uses only the layers before it.

pub mod analyze;
pub mod app;
pub mod core;
pub mod engine;
pub mod tui;
