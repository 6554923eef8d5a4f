//! One widget per pane and overlay. Widgets draw from the app and the theme, record where
//! they drew in the `ViewState`, and use the helpers of `draw.rs`; none uses `ui.rs`, which
//! lays them out.

pub mod analysis;
pub mod board;
pub mod book;
pub mod clock;
pub mod comment;
pub mod confirm;
pub mod copy_menu;
pub mod explorer;
pub mod graph;
pub mod header;
pub mod help;
pub mod large_board;
pub mod library;
pub mod list;
pub mod move_list;
pub mod paste;
pub mod position_editor;
pub mod search;
pub mod status;
pub mod train;
pub mod tree;
pub mod variations;
