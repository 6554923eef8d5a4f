//! Widgets that draw parts of the app.

pub mod board;
pub mod edit;
pub mod position_editor;
pub mod share;
