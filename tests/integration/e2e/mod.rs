//! The viewer end to end in a pseudo-terminal (the real binary; `crate::pty`).

mod edit_e2e;
mod research_e2e;
mod share_e2e;
pub(crate) mod signals_e2e;
mod tui_e2e;
