//! Saving a record: encode strictly (a character the encoding cannot hold is an error naming
//! it), list what the format cannot hold, and notice outside changes. The bytes are written by
//! `crate::store` through `app::document`.

use crate::core::notation::encoding::EncodeError;
use crate::core::notation::{self, Target, TextInfo};
use crate::core::record::Record;
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
}
