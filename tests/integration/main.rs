//! All integration tests in one binary (one link, shared helpers in `common` and `pty`).

mod analyze;
mod analyze_viewer;
mod cli;
mod cli_files;
mod common;
mod corpus;
mod csa;
mod edit_app;
mod edit_e2e;
mod graph;
mod jkf;
mod ki2;
mod kif;
mod position_editor;
mod pty;
mod readme;
mod research;
mod research_e2e;
mod robustness;
mod share;
mod share_e2e;
mod tui_app;
mod tui_e2e;
mod tui_layers;
mod usi;
mod watch;
