//! Saving a record: encode strictly (a character the encoding cannot hold is an error naming
//! it), list what the format cannot hold, and notice outside changes. The bytes are written by
//! `crate::store` through `app::document`.

use crate::core::notation::encoding::EncodeError;
use crate::core::notation::{self, Target, TextInfo};
use crate::core::record::Record;
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
        losses: losses.iter().map(ToString::to_string).collect(),
    })
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
