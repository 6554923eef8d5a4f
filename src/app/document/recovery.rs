//! Recovery files: the unsaved edits of a session ended by a signal (SIGTERM, SIGHUP,
//! SIGQUIT, SIGINT, a closed terminal), KIF in UTF-8 (it holds everything a record can).
//!
//! Each session writes a file of its own (the time and its process id in the name), so two
//! viewers on one file never write over each other's edits; every file found is offered.
//! They go beside the record (`.NAME.kifview-recovery-TIME-PID.kifu`, with `.record-N` for
//! record N of a file of several) and, when that directory cannot be written (a read-only
//! mount, a full disk, a directory of another user), to the user's data directory
//! (`~/.local/share/kifview/recovery/NAME.HASH.kifview-recovery-TIME-PID.kifu`, HASH naming
//! the file's full path); a record with no file goes there too (`untitled-TIME-PID.kifu`).

use super::{RecordSource, file_name};
use crate::core::notation::{self, Format, Target, TextEncoding, TextInfo};
use crate::core::record::Record;
use crate::store::{self, SaveOptions};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Where a recovery file went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub path: PathBuf,
    /// Why it is not beside the record, when it could not be written there.
    pub not_beside: Option<String>,
}

impl fmt::Display for Kept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(why) = &self.not_beside {
            write!(f, " (not beside the file: {why})")?;
        }
        Ok(())
    }
}

/// A recovery file found for the record shown, and what it holds.
#[derive(Clone, Debug)]
pub struct Recovery {
    pub path: PathBuf,
    pub kind: Kind,
    /// How long ago it was written.
    pub age: Option<Duration>,
}

/// What a recovery file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A record: its moves and comments.
    Record { moves: usize, comments: usize },
    /// Nothing that could be restored (an empty file, one that cannot be read): why.
    Unusable(String),
}

impl Recovery {
    fn of(path: PathBuf) -> Recovery {
        let age = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok());
        let kind = match read_recovery(&path) {
            Ok(r) => Kind::Record {
                moves: super::move_count(&r),
                comments: r.nodes.iter().filter(|n| !n.comment.is_empty()).count(),
            },
            Err(e) => {
                let shown = format!("{}: ", path.display());
                Kind::Unusable(e.strip_prefix(&shown).unwrap_or(&e).to_string())
            }
        };
        Recovery { path, kind, age }
    }

    /// `52 moves, 4 comments, written 3 min ago` (or why it cannot be restored).
    pub fn summary(&self) -> String {
        let when = self.age.map_or(String::new(), |e| {
            let m = e.as_secs() / 60;
            match m {
                0 => ", written less than a minute ago".to_string(),
                1..60 => format!(", written {m} min ago"),
                _ => format!(", written {} h ago", m / 60),
            }
        });
        match &self.kind {
            Kind::Record { moves, comments } => format!(
                "{moves} move{}, {comments} comment{}{when}",
                if *moves == 1 { "" } else { "s" },
                if *comments == 1 { "" } else { "s" }
            ),
            Kind::Unusable(why) => format!("no record: {why}"),
        }
    }
}

/// The start of the names of the recovery files of record `index` of `path` (`None`: a file
/// of one record).
fn prefix(path: &Path, index: Option<usize>) -> String {
    let record = index.map_or(String::new(), |i| format!("record-{}.", i + 1));
    format!("{}.{record}", file_name(path))
}

/// A name no other session gives its recovery file: the time and this process's id.
fn session_tag() -> String {
    let t = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    format!("{t}-{}", std::process::id())
}

/// The user's directory for recovery files (`~/.local/share/kifview/recovery`).
fn data_dir() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "kifview")?;
    Some(dirs.data_local_dir().join("recovery"))
}

/// Names the file `path` in the data directory: 64-bit FNV-1a of its full path, in hex.
fn path_hash(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    // Not canonical: the file (or its directory) may be gone when the edits are kept.
    let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in full.as_os_str().as_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Which record of its file `doc` shows, for the names (`None` for a file of one).
fn index_of(doc: &RecordSource) -> Option<usize> {
    (doc.record_count > 1).then_some(doc.record_index)
}

/// The directory beside the record and the start of its recovery files' names there; the
/// same for the data directory.
fn places(path: &Path, index: Option<usize>) -> Vec<(PathBuf, String)> {
    let beside = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let p = prefix(path, index);
    let mut out = vec![(beside, format!(".{p}kifview-recovery"))];
    if let Some(d) = data_dir() {
        out.push((d, format!("{p}{}.kifview-recovery", path_hash(path))));
    }
    out
}

/// Writes `record` to a recovery file of its own for the record `doc` shows and says where
/// it went: beside the file, or in the data directory when that cannot be written.
pub fn write_recovery(record: &Record, doc: &RecordSource) -> Result<Kept, String> {
    let (bytes, _) = notation::to_bytes(
        record,
        Target::new(Format::Kif),
        &TextInfo::new(TextEncoding::Utf8),
    )
    .map_err(|e| e.to_string())?;
    let tag = session_tag();
    let Some(path) = &doc.path else {
        let dir = data_dir().ok_or("no data directory for a recovery file")?;
        let to = dir.join(format!("untitled-{tag}.kifu"));
        return write_in(&dir, &to, &bytes, true).map(|()| Kept {
            path: to,
            not_beside: None,
        });
    };
    let mut why_not: Option<String> = None;
    for (dir, start) in places(path, index_of(doc)) {
        let to = dir.join(format!("{start}-{tag}.kifu"));
        let beside = why_not.is_none();
        match write_in(&dir, &to, &bytes, !beside) {
            Ok(()) => {
                return Ok(Kept {
                    path: to,
                    not_beside: why_not,
                });
            }
            Err(e) => match &mut why_not {
                None => why_not = Some(e),
                Some(first) => {
                    return Err(format!("{first}; nor in the data directory: {e}"));
                }
            },
        }
    }
    Err(why_not.unwrap_or_else(|| "no place for a recovery file".into()))
}

/// Writes a recovery file into `dir` (created first when `create`: the data directory; the
/// record's own directory is never made again).
fn write_in(dir: &Path, to: &Path, bytes: &[u8], create: bool) -> Result<(), String> {
    if create {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    store::save(to, bytes, SaveOptions::default())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The recovery files of record `index` of `path` in every place, newest first.
fn found(path: &Path, index: Option<usize>) -> Vec<PathBuf> {
    let mut out: Vec<(Option<SystemTime>, PathBuf)> = Vec::new();
    for (dir, start) in places(path, index) {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            let rest = name.strip_prefix(start.as_str());
            // `.kifu` (the name before sessions had one each) or `-TIME-PID.kifu`.
            if rest.is_some_and(|r| r == ".kifu" || (r.starts_with('-') && r.ends_with(".kifu")))
                && e.file_type().is_ok_and(|t| t.is_file())
            {
                let when = e.metadata().and_then(|m| m.modified()).ok();
                out.push((when, e.path()));
            }
        }
    }
    out.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    out.into_iter().map(|(_, p)| p).collect()
}

/// The recovery files earlier sessions left for the record `doc` shows, newest first, each
/// with what it holds.
pub fn find_recoveries(doc: &RecordSource) -> Vec<Recovery> {
    let Some(path) = doc.path.as_deref() else {
        return Vec::new();
    };
    found(path, index_of(doc))
        .into_iter()
        .map(Recovery::of)
        .collect()
}

/// The other records of `doc`'s file (1-based) that have a recovery file.
pub fn other_recoveries(doc: &RecordSource) -> Vec<usize> {
    let Some(path) = doc.path.as_deref() else {
        return Vec::new();
    };
    (0..doc.record_count)
        .filter(|&i| i != doc.record_index && !found(path, Some(i)).is_empty())
        .map(|i| i + 1)
        .collect()
}

/// Reads a recovery file back; one that holds no record (empty, cut short, not a record) is
/// an error saying so.
pub fn read_recovery(path: &Path) -> Result<Record, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(format!("{}: the file is empty", path.display()));
    }
    let loaded = notation::try_load(&bytes, Some(path))
        .map_err(|e| format!("{}: not a record: {e}", path.display()))?;
    loaded
        .records
        .into_iter()
        .next()
        .map(|p| p.record)
        .ok_or_else(|| format!("{}: no record", path.display()))
}

/// Deletes a recovery file (after it was restored or the user declined it).
pub fn remove_recovery(path: &Path) -> Result<(), String> {
    std::fs::remove_file(path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc_for(path: &Path) -> RecordSource {
        RecordSource {
            path: Some(path.to_path_buf()),
            ..RecordSource::untitled("g.kifu")
        }
    }

    #[test]
    fn two_sessions_keep_two_files_and_both_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.kifu");
        std::fs::write(&path, "").unwrap();
        let doc = doc_for(&path);
        let r = crate::app::document::record_from(crate::core::rules::Position::startpos());
        let a = write_recovery(&r, &doc).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        let b = write_recovery(&r, &doc).unwrap();
        assert_ne!(a.path, b.path);
        assert_eq!(a.path.parent(), Some(dir.path()), "beside the file");
        assert!(a.not_beside.is_none());
        let got: Vec<PathBuf> = found(&path, None);
        assert!(got.contains(&a.path) && got.contains(&b.path), "{got:?}");
        // The name older versions wrote is found too.
        let old = dir.path().join(".g.kifu.kifview-recovery.kifu");
        std::fs::write(&old, "x").unwrap();
        assert!(found(&path, None).contains(&old));
    }

    #[test]
    fn an_empty_recovery_file_holds_no_record() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".g.kifu.kifview-recovery-1-2.kifu");
        std::fs::write(&p, "").unwrap();
        let r = Recovery::of(p);
        assert!(matches!(r.kind, Kind::Unusable(_)), "{r:?}");
        assert!(r.summary().contains("the file is empty"), "{}", r.summary());
    }
}
