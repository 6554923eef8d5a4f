//! The viewer (`app`, `tui`): screens, keys, editing, saving, following a file, and the layer
//! rules of `src/`.

mod data_loss;
mod edit_app;
mod events;
mod graph;
mod layout;
mod legal_squares;
mod modes;
mod move_list;
mod multirec_save;
mod position_editor;
mod prompt_errors;
mod readme;
mod remarks_pane;
mod render_state;
mod save_background;
mod save_questions;
mod screen_fit;
mod share;
mod terminal_safety;
mod tree;
mod tui_app;
mod tui_layers;
mod warnings_list;
mod watch;
