//! The walk of an index's folders: which files of a folder are records to read, with what
//! `stat` said of them.

use super::scan;
use std::path::{Path, PathBuf};

/// A file found in a folder: its path (absolute) and what `stat` said.
pub struct Found {
    pub path: PathBuf,
    pub key: String,
    pub size: i64,
    pub mtime: i64,
}

/// The record files under `root` (or `root` itself), with their size and modification time.
pub fn walk(root: &Path) -> Result<Vec<Found>, String> {
    let inputs = if root.is_dir() {
        crate::convert::expand_inputs(&[root.to_path_buf()], true)?
            .into_iter()
            .map(|i| i.path)
            .collect()
    } else {
        vec![root.to_path_buf()]
    };
    Ok(inputs
        .into_iter()
        .filter_map(|p| {
            let m = std::fs::metadata(&p).ok()?;
            Some(Found {
                key: p.to_string_lossy().into_owned(),
                size: m.len() as i64,
                mtime: scan::mtime_ns(&m),
                path: p,
            })
        })
        .collect())
}
