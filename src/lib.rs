//! kifview: a terminal viewer and editor for shogi game records.
//!
//! Layers (see ARCHITECTURE in the shared notes): `core` (rules, record, notation; no terminal),
//! `app` (state and actions), `tui` (terminal). A layer uses only the layers before it.

pub mod core;
