//! A save's job: where, in which format and text settings, what becomes of the session, what
//! the user has agreed to, and what follows ([`Then`]); and a save waiting for answers
//! ([`SaveQuestions`]: the job with the bytes made for it). Questions carry them
//! (in the continuations of their questions), the save thread reads the job; they name
//! nothing of either.

use crate::app::document::checks::Prepared;
use crate::core::notation::{Target, TextInfo};
use crate::core::record::Revision;
use std::path::PathBuf;
use std::sync::Arc;

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
    /// Show game `id` of the library, once the record shown is on disk.
    LibraryGame(u32),
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

/// A save waiting for answers: its job, the bytes made for the record at `revision`, and
/// which question is open.
#[derive(Clone, Debug)]
pub struct SaveQuestions {
    pub(super) job: SaveJob,
    pub(super) prepared: Arc<Prepared>,
    /// The revision the bytes hold: what a save after the last yes marks as on disk (edits
    /// made while the questions were open stay unsaved).
    pub(super) revision: Revision,
    /// The question open: [`Stage`].
    pub(super) at: Stage,
    /// The user said yes to replacing a read-only file.
    pub(super) read_only_ok: bool,
    /// The file at the save's path when its bytes were made (`None`: nothing there): a file
    /// that another program changes while the questions are open is asked about again.
    pub(super) disk: Option<super::checks::DiskStamp>,
}

/// The questions, in the order they are asked.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Stage {
    Encoding,
    Losses,
    ReadOnly,
    /// The file changed on disk while the questions were open.
    Disk,
    /// Every question was answered yes.
    Done,
}

impl Stage {
    pub(super) fn next(self) -> Stage {
        match self {
            Stage::Encoding => Stage::Losses,
            Stage::Losses => Stage::ReadOnly,
            Stage::ReadOnly => Stage::Disk,
            Stage::Disk | Stage::Done => Stage::Done,
        }
    }
}
