//! All integration tests in one binary (one link, shared helpers in `common` and `pty`),
//! grouped as `src/` is: `formats` (the readers and writers), `viewer` (`app`, `tui`), `e2e`
//! (the viewer in a pseudo-terminal), `cli` (the subcommands), `collection` (the index, the
//! explorer, the library), `engine` (USI engines and analysis), `game` (matches and their statistics), `training` (problem sets and the schedule). Snapshots live in each
//! folder's `snapshots/`.

mod book;
mod cli;
mod collection;
mod common;
mod e2e;
mod engine;
mod formats;
mod game;
mod play;
mod pty;
mod training;
mod viewer;
