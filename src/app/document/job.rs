//! A save's job: where, in which format and text settings, what becomes of the session, what
//! the user has agreed to, and what follows ([`Then`]). Questions carry it (`app::overlay`'s
//! `Pending`), the save thread reads it; it names nothing of either.

use crate::core::notation::{Target, TextInfo};
use std::path::PathBuf;

/// What a save leads to once it has written the record: one continuation, carried by the
/// save's job through its questions and its thread, and by a quit that waits for the saves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Then {
    /// Nothing more: the session goes on.
    Stay,
    /// Quit (`force`: without asking about unsaved edits, `:q!` while a save runs). After a
    /// save that asked to quit, edits made while it ran are asked about first.
    Quit { force: bool },
    /// Show record `n` (0-based) of the file, once the record shown is on disk.
    ShowRecord(usize),
}

impl Then {
    /// The answer that says yes to leaving something out (`over`: of a file not read
    /// whole). Another record is not shown after such a save: the record shown still holds
    /// what the file does not.
    pub(super) fn yes(self, over: bool) -> &'static str {
        match (over, self) {
            (false, Then::Quit { .. }) => "save without them and quit",
            (false, _) => "save without them",
            (true, Then::Quit { .. }) => "save over it without them and quit",
            (true, _) => "save over it without them",
        }
    }
}

/// Format and text settings of a save.
#[derive(Clone, Copy, Debug)]
pub struct SaveJobTarget {
    pub target: Target,
    pub info: TextInfo,
}

/// What a save does to the session (vim's `:w`, `:w PATH`, `:saveas PATH`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SaveHow {
    /// Write the record's own file (or, when it has none yet, make PATH its file).
    Own,
    /// Write a copy; the session stays on its file.
    Copy,
    /// Write PATH and make it the session's file and format.
    SaveAs,
}

/// A save in progress (it may stop to ask questions).
#[derive(Clone, Debug)]
pub struct SaveJob {
    pub path: PathBuf,
    pub target: SaveJobTarget,
    pub how: SaveHow,
    /// Writing back to the file the record came from.
    pub same_file: bool,
    /// The user said yes to overwriting (the file changed on disk, or another file exists):
    /// asked before the bytes are made. The other questions come with the bytes
    /// (`background::Prepared`).
    pub overwrite_ok: bool,
    pub then: Then,
}
