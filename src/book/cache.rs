//! The sorted copies of unsorted text books: a YaneuraOu text book whose `sfen` lines are not
//! in byte order (or not written as YaneuraOu writes them) cannot be binary-searched, so
//! [`super::open`] sorts it once ([`super::yaneuraou::write_sorted`], an external sort) into
//! `<cache dir>/kifview/books/` (`~/.cache/kifview/books` on Linux) and looks it up there. The
//! copy's name is a hash of the book's full path, then a hash of its size, modification time
//! and first and last 64 KiB: a changed book gets a new copy, and the copies of its older
//! states are removed then. The copies are kifview's own files, written atomically (through
//! `store`), safe to delete at any time.

use super::{BookError, Result};
use std::path::{Path, PathBuf};

/// The directory of the sorted copies, when the user has a cache directory.
pub fn dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "kifview").map(|d| d.cache_dir().join("books"))
}

fn fnv(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x0100_0000_01b3);
    }
}

const FNV: u64 = 0xcbf2_9ce4_8422_2325;
const EDGE: usize = 64 << 10;

/// The copy's file name for the book at `path` with these bytes: `PATHHASH-STATEHASH.db`.
fn name(path: &Path, meta: &std::fs::Metadata, data: &[u8]) -> (String, String) {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;
    let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut p = FNV;
    fnv(&mut p, full.as_os_str().as_bytes());
    let mut s = FNV;
    fnv(&mut s, &meta.len().to_le_bytes());
    fnv(&mut s, &meta.mtime().to_le_bytes());
    fnv(&mut s, &meta.mtime_nsec().to_le_bytes());
    fnv(&mut s, &data[..data.len().min(EDGE)]);
    fnv(&mut s, &data[data.len().saturating_sub(EDGE)..]);
    let prefix = format!("{p:016x}-");
    (prefix.clone(), format!("{prefix}{s:016x}.db"))
}

/// The sorted copy of the text book at `path` (whose bytes are `data`): the one made before
/// when the book has not changed since, else a new one (the older copies of the book removed).
/// Returns its path and whether it was made now.
pub fn sorted_copy(path: &Path, data: &[u8]) -> Result<(PathBuf, bool)> {
    let io = |source| BookError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    let dir = dir().ok_or_else(|| BookError::format("no cache directory (no home directory)"))?;
    let (prefix, name) = name(path, &meta, data);
    let copy = dir.join(&name);
    if copy.is_file() {
        return Ok((copy, false));
    }
    std::fs::create_dir_all(&dir).map_err(|source| BookError::Io {
        path: dir.clone(),
        source,
    })?;
    super::save_new_streamed(
        &mut |visit| {
            let mut reader: &[u8] = data;
            super::yaneuraou::for_each_position(path, &mut reader, visit).map(|_| ())
        },
        &copy,
        super::Format::YaneuraOu,
        true,
        None,
    )?;
    // The copies of this book's older states.
    if let Ok(list) = std::fs::read_dir(&dir) {
        for e in list.flatten() {
            let n = e.file_name();
            let n = n.to_string_lossy();
            if n.starts_with(&prefix) && n.ends_with(".db") && n != name {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    Ok((copy, true))
}
