//! Saving a record: choose format and encoding, encode strictly, refuse silent loss, write
//! atomically (temporary file beside the target, fsync, rename) and notice outside changes.

use crate::core::notation::encoding::EncodeError;
use crate::core::notation::{self, Format, Newline, Target, TextEncoding, TextInfo};
use crate::core::record::Record;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Size and modification time of a file when it was opened or last saved.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DiskStamp {
    pub len: u64,
    pub modified: Option<SystemTime>,
}

impl DiskStamp {
    pub fn of(path: &Path) -> Option<DiskStamp> {
        let m = std::fs::metadata(path).ok()?;
        Some(DiskStamp {
            len: m.len(),
            modified: m.modified().ok(),
        })
    }
}

/// Has `path` changed on disk since `stamp` was taken (or appeared/disappeared)?
pub fn changed_on_disk(path: &Path, stamp: Option<DiskStamp>) -> bool {
    DiskStamp::of(path) != stamp
}

/// The format and text settings for writing to `path`.
///
/// Saving back to the file a record came from keeps its format, encoding, BOM and line endings
/// (`same_file`). Otherwise the extension decides: `.kif`/`.ki2` Shift_JIS; `.kifu`, `.ki2u`,
/// `.csa`, `.jkf`, `.usi`, `.sfen`, `.bod` UTF-8; line endings follow `newline`.
pub fn target_for(
    path: &Path,
    same_file: Option<(Format, TextInfo)>,
    newline: Newline,
) -> Option<(Target, TextInfo)> {
    if let Some((format, info)) = same_file {
        return Some((
            Target::new(format),
            TextInfo {
                lossy: false,
                ..info
            },
        ));
    }
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    let (format, encoding) = match ext.as_str() {
        "kif" => (Format::Kif, TextEncoding::ShiftJis),
        "kifu" => (Format::Kif, TextEncoding::Utf8),
        "ki2" => (Format::Ki2, TextEncoding::ShiftJis),
        "ki2u" => (Format::Ki2, TextEncoding::Utf8),
        _ => (Format::from_path(path)?, TextEncoding::Utf8),
    };
    let target = Target {
        declare_encoding: ext == "kif" && encoding != TextEncoding::ShiftJis,
        ..Target::new(format)
    };
    Some((
        target,
        TextInfo {
            encoding,
            bom: false,
            newline,
            lossy: false,
        },
    ))
}

/// Bytes ready to be written, and what the format cannot hold (to confirm before writing).
#[derive(Clone, Debug)]
pub struct SavePlan {
    pub path: PathBuf,
    pub target: Target,
    pub info: TextInfo,
    pub bytes: Vec<u8>,
    /// Things the target format cannot hold, in words (empty for KIF): each loss's `Display`.
    pub losses: Vec<String>,
}

/// Renders and encodes; an unmappable character is an error naming each one and its place.
pub fn plan(
    record: &Record,
    path: &Path,
    target: Target,
    info: TextInfo,
) -> Result<SavePlan, EncodeError> {
    let (bytes, losses) = notation::to_bytes(record, target, &info)?;
    Ok(SavePlan {
        path: path.to_path_buf(),
        target,
        info,
        bytes,
        losses: losses.iter().map(|l| l.to_string()).collect(),
    })
}

/// Writes the plan atomically: a temporary file in the same directory, fsync, rename, fsync of
/// the directory. A crash or a full disk leaves the old file untouched. Writes through a symlink.
pub fn commit(plan: &SavePlan) -> std::io::Result<DiskStamp> {
    write_atomic(&plan.path, &plan.bytes)?;
    DiskStamp::of(&plan.path).ok_or_else(|| std::io::Error::other("the saved file vanished"))
}

/// Replaces `path` with `bytes` through a temporary file and a rename, without waiting for the
/// disk: for batches, which call [`flush_filesystem`] once at the end instead of one fsync per
/// file. Readers never see a half-written file; a power cut before the flush can lose the
/// batch's newest files, never an older one.
pub fn write_replace_unsynced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    // A new file (the usual case in a batch) has no link to follow: skip the realpath walk.
    let path = if std::fs::symlink_metadata(path).is_ok() {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    } else {
        path.to_path_buf()
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("no file name"))?
        .to_string_lossy()
        .into_owned();
    // The process id once (it is a system call each time, and a batch writes thousands).
    static PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let tmp = path.with_file_name(format!(
        ".{name}.{}.{}.tmp",
        PID.get_or_init(std::process::id),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, &path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Makes everything written under `dir` durable: one `syncfs` on Linux, else an fsync of each
/// file in `files`.
pub fn flush_filesystem(dir: &Path, files: &[PathBuf]) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let _ = files;
        let d = std::fs::File::open(dir)?;
        // SAFETY: `d` is an open descriptor for the duration of the call.
        if unsafe { libc::syncfs(d.as_raw_fd()) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        for f in files {
            std::fs::File::open(f)?.sync_all()?;
        }
        Ok(())
    }
}

/// Replaces `path` with `bytes` atomically (temporary file, fsync, rename), through symlinks.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut f = atomic_write_file::AtomicWriteFile::open(&path)?;
    f.write_all(bytes)?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_decides_format_and_encoding() {
        let (t, i) = target_for(Path::new("a.kif"), None, Newline::CrLf).unwrap();
        assert_eq!(
            (t.format, i.encoding, i.newline),
            (Format::Kif, TextEncoding::ShiftJis, Newline::CrLf)
        );
        let (t, i) = target_for(Path::new("a.KIFU"), None, Newline::Lf).unwrap();
        assert_eq!((t.format, i.encoding), (Format::Kif, TextEncoding::Utf8));
        let (t, _) = target_for(Path::new("a.csa"), None, Newline::Lf).unwrap();
        assert_eq!(t.format, Format::Csa);
        assert!(target_for(Path::new("a.txt"), None, Newline::Lf).is_none());
        let (t, i) = target_for(Path::new("a.ki2"), None, Newline::Lf).unwrap();
        assert_eq!(
            (t.format, i.encoding),
            (Format::Ki2, TextEncoding::ShiftJis)
        );
        let (t, i) = target_for(Path::new("a.ki2u"), None, Newline::Lf).unwrap();
        assert_eq!((t.format, i.encoding), (Format::Ki2, TextEncoding::Utf8));
        for (name, f) in [
            ("a.jkf", Format::Jkf),
            ("a.usi", Format::Usi),
            ("a.sfen", Format::Sfen),
            ("a.bod", Format::Bod),
        ] {
            let (t, i) = target_for(Path::new(name), None, Newline::Lf).unwrap();
            assert_eq!((t.format, i.encoding), (f, TextEncoding::Utf8), "{name}");
        }
        let same = TextInfo {
            encoding: TextEncoding::Utf8,
            bom: true,
            newline: Newline::CrLf,
            lossy: true,
        };
        let (_, i) =
            target_for(Path::new("a.kif"), Some((Format::Kif, same)), Newline::Lf).unwrap();
        assert_eq!(
            (i.encoding, i.bom, i.newline, i.lossy),
            (TextEncoding::Utf8, true, Newline::CrLf, false)
        );
    }

    #[test]
    fn atomic_save_replaces_and_notices_outside_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.kifu");
        std::fs::write(&path, "old").unwrap();
        let stamp = DiskStamp::of(&path);
        assert!(!changed_on_disk(&path, stamp));
        let plan = SavePlan {
            path: path.clone(),
            target: Target::new(Format::Kif),
            info: TextInfo::new(TextEncoding::Utf8),
            bytes: "new contents".into(),
            losses: Vec::new(),
        };
        let new_stamp = commit(&plan).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new contents");
        assert!(!changed_on_disk(&path, Some(new_stamp)));
        std::fs::write(&path, "someone else wrote this").unwrap();
        assert!(changed_on_disk(&path, Some(new_stamp)));
        // Nothing but the target is left in the directory (no stray temp files).
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // The batch variant too.
        write_replace_unsynced(&path, b"batch").unwrap();
        flush_filesystem(dir.path(), std::slice::from_ref(&path)).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"batch");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn saving_through_a_symlink_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.kifu");
        let link = dir.path().join("link.kifu");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let plan = SavePlan {
            path: link.clone(),
            target: Target::new(Format::Kif),
            info: TextInfo::new(TextEncoding::Utf8),
            bytes: "new".into(),
            losses: Vec::new(),
        };
        commit(&plan).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    }
}
