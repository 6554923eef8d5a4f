//! Saving a record: encode strictly (a character the encoding cannot hold is an error naming
//! it), list what the format cannot hold, and notice outside changes. The bytes are written by
//! `crate::store` through `app::document`.

use crate::core::notation::encoding::{EncodeError, GETA};
use crate::core::notation::unread::Unread;
use crate::core::notation::{self, Format, Loss, Target, TextEncoding, TextInfo};
use crate::core::record::Record;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// What a file was when it was opened or last saved: its size and modification time, and
/// what no other program can set back: its inode (a file put in its place by a rename, as
/// `rsync -t` does) and its change time (every write and `touch -r` moves it on), so that
/// `cp -p` of a file of the same size is noticed too.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DiskStamp {
    pub len: u64,
    pub modified: Option<SystemTime>,
    /// Device and inode.
    pub file: (u64, u64),
    /// Change time (seconds, nanoseconds).
    pub changed: (i64, i64),
}

impl DiskStamp {
    pub fn of(path: &Path) -> Option<DiskStamp> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some(DiskStamp {
            len: m.len(),
            modified: m.modified().ok(),
            file: (m.dev(), m.ino()),
            changed: (m.ctime(), m.ctime_nsec()),
        })
    }
}

/// Has `path` changed on disk since `stamp` was taken (or appeared/disappeared)?
pub fn changed_on_disk(path: &Path, stamp: Option<DiskStamp>) -> bool {
    DiskStamp::of(path) != stamp
}

/// Bytes ready to be written, and what the format cannot hold (to confirm before writing).
#[derive(Clone, Debug)]
pub struct SavePlan {
    pub path: PathBuf,
    pub target: Target,
    pub info: TextInfo,
    pub bytes: Vec<u8>,
    /// What the target format cannot hold (empty for KIF).
    pub losses: Vec<Loss>,
}

/// A save's first phase: the bytes, made once, and every reason to ask before writing them.
#[derive(Debug)]
pub struct Prepared {
    /// The bytes (none when the encoding cannot hold the record: `unencodable` says why).
    pub plan: SavePlan,
    /// A file of several records written whole: the text of each record as written.
    pub texts: Option<Vec<String>>,
    pub unencodable: Option<Unencodable>,
    /// What the file written will not hold: the format's losses, then the session's.
    pub losses: Vec<SaveLoss>,
    /// The file is read-only (its metadata says so; nothing was written).
    pub read_only: Option<PathBuf>,
}

impl Prepared {
    /// Nothing to ask: the bytes can be written at once.
    pub(super) fn asks_nothing(&self) -> bool {
        self.unencodable.is_none() && self.losses.is_empty() && self.read_only.is_none()
    }

    /// The bytes in UTF-8 (the answer "save as UTF-8 instead", `info` its settings) from the
    /// text already rendered, when the format is KIF: its text differs in UTF-8 only by the
    /// first line, which declares the encoding. `None` for the other formats, whose text the
    /// encoding changes in more places (a CSA file's own text is reused in its own encoding
    /// only): they render again.
    pub(super) fn as_utf8(&self, info: TextInfo) -> Option<Prepared> {
        let u = self.unencodable.as_ref()?;
        let plan = &self.plan;
        if plan.target.format != Format::Kif || self.texts.is_some() {
            return None;
        }
        // The writer's own declaration, when it wrote one: the record's are left out.
        let body = match u.text.split_once('\n') {
            Some((first, rest)) if first.starts_with("#KIF version=2.0 encoding=") => rest,
            _ => u.text.as_str(),
        };
        let text = format!("{}\n{body}", notation::kif::UTF8_DECLARATION);
        let bytes = notation::encoding::encode(&text, &info).ok()?;
        let losses = self.losses.iter().cloned().map(|l| match l {
            SaveLoss::ReplacedBytes { lines, read, .. } => SaveLoss::ReplacedBytes {
                lines,
                read,
                writing: info.encoding,
            },
            l => l,
        });
        Some(Prepared {
            plan: SavePlan {
                path: plan.path.clone(),
                target: Target {
                    declare_encoding: true,
                    ..plan.target
                },
                info,
                bytes,
                losses: plan.losses.clone(),
            },
            texts: None,
            unencodable: None,
            losses: losses.collect(),
            read_only: self.read_only.clone(),
        })
    }
}

/// What a save leaves out, typed until a question or a message shows it (its `Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveLoss {
    /// What the format cannot hold (the writer's list, counted).
    Format(Loss),
    /// Lines of the file the reader could not read: written over, they are removed.
    Unread(Unread),
    /// The other records of a file of several, when only the record shown is written.
    OtherRecords(OtherRecords),
    /// The bytes of the file its encoding could not read (read as �), on these lines.
    ReplacedBytes {
        lines: Vec<usize>,
        read: TextEncoding,
        writing: TextEncoding,
    },
}

/// The other records of a file of several that a save of the record shown leaves out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtherRecords {
    /// How many there are besides the one shown.
    pub others: usize,
    /// The file's name (`five.csa`).
    pub name: String,
    /// The format written (why one record only).
    pub format: Format,
    /// The record written (1-based).
    pub shown: usize,
    /// What becomes of the others.
    pub kept: KeptIn,
}

/// Where the records a save leaves out stay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeptIn {
    /// The session's file keeps them (a copy, `:saveas`).
    File,
    /// The session's file is written over: it loses them.
    Lost,
    /// The records came from no file (pasted).
    NoFile,
}

impl fmt::Display for SaveLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveLoss::Format(l) => l.fmt(f),
            SaveLoss::Unread(u) => write!(f, "{u} and would be removed"),
            SaveLoss::OtherRecords(o) => o.fmt(f),
            SaveLoss::ReplacedBytes {
                lines,
                read,
                writing,
            } => {
                let shown: Vec<String> = lines.iter().take(5).map(ToString::to_string).collect();
                let more = match lines.len() {
                    0..=5 => String::new(),
                    n => format!(" and {} more", n - 5),
                };
                write!(
                    f,
                    "the original bytes that were not {read} on line{} {}{more} (read as �, written as {})",
                    if lines.len() == 1 { "" } else { "s" },
                    shown.join(", "),
                    if *writing == TextEncoding::Utf8 {
                        "�"
                    } else {
                        GETA
                    }
                )
            }
        }
    }
}

impl fmt::Display for OtherRecords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kept = match self.kept {
            KeptIn::File => format!("; {} keeps them", self.name),
            KeptIn::Lost => format!("; {} loses them", self.name),
            KeptIn::NoFile => "; they are in no file".to_string(),
        };
        let others = if self.others == 1 {
            "record".to_string()
        } else {
            format!("{} records", self.others)
        };
        write!(
            f,
            "the other {others} of {} ({}: only record {} is written{kept})",
            self.name,
            one_record_why(self.format),
            self.shown
        )
    }
}

/// Text rendered for a save that its encoding cannot hold: every character that it cannot,
/// with its place, and the text (KIF saved as UTF-8 instead re-encodes it:
/// [`Prepared::as_utf8`]).
#[derive(Debug)]
pub struct Unencodable {
    pub error: EncodeError,
    pub text: String,
}

/// Renders and encodes; an unmappable character is an error naming each one and its place.
pub fn plan(
    record: &Record,
    path: &Path,
    target: Target,
    info: TextInfo,
) -> Result<SavePlan, Unencodable> {
    let w = notation::render(record, target, &info);
    match notation::encoding::encode(&w.text, &info) {
        Ok(bytes) => Ok(SavePlan {
            path: path.to_path_buf(),
            target,
            info,
            bytes,
            losses: w.losses,
        }),
        Err(error) => Err(Unencodable {
            error,
            text: w.text,
        }),
    }
}

/// Why a save in `format` writes one record of a file of several.
pub fn one_record_why(format: Format) -> String {
    if format == Format::Csa {
        "its records could not be told apart".to_string()
    } else {
        format!("{} holds one record per file", format.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_notices_outside_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.kifu");
        std::fs::write(&path, "old").unwrap();
        let stamp = DiskStamp::of(&path);
        assert!(!changed_on_disk(&path, stamp));
        std::fs::write(&path, "someone else wrote this").unwrap();
        assert!(changed_on_disk(&path, stamp));
        std::fs::remove_file(&path).unwrap();
        assert!(changed_on_disk(&path, stamp));
    }

    #[test]
    fn a_change_that_keeps_the_size_and_puts_the_time_back_is_noticed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.kifu");
        std::fs::write(&path, "old text").unwrap();
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        let stamp = DiskStamp::of(&path);
        // `cp -p`: other bytes of the same size, the time set back.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, "new text").unwrap();
        let f = std::fs::File::options().write(true).open(&path).unwrap();
        f.set_modified(mtime).unwrap();
        drop(f);
        let now = DiskStamp::of(&path).unwrap();
        assert_eq!((now.len, now.modified), (8, Some(mtime)));
        assert!(changed_on_disk(&path, stamp));
    }
}
