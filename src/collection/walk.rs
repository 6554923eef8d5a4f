//! The walk of an index's folders (which files are records to read, with what `stat` said of
//! them), and the catalog's form of a path ([`path_key`]).
//!
//! A folder is walked by `load::record_files`: regular files only (a FIFO, a device, a
//! dangling link are named and skipped, never read; a folder that cannot be read is named and
//! skipped, the rest indexed). A file is indexed once however many names reach it: names of
//! one file (its device and inode) found in one walk count as the first in path order, a name
//! found later of a file the catalog holds under another name that still names it (a hard link
//! under another folder, indexed by another run: `files.dev`, `files.ino`) is left to that
//! name, and a symbolic link to a record file under a folder of the index is left to that file.

use super::scan;
use std::collections::HashMap;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A file found in a folder: its path (absolute), its key ([`path_key`]) and what `stat` said.
pub struct Found {
    pub path: PathBuf,
    pub key: String,
    pub size: i64,
    pub mtime: i64,
    /// The file's identity (device, inode): names of one file in two runs are one game.
    pub identity: (u64, u64),
}

/// What walking the folders of an update found.
#[derive(Default)]
pub struct Walk {
    /// By key, each file once.
    pub found: Vec<Found>,
    /// `PATH: why` for each file or folder left out.
    pub skipped: Vec<String>,
}

/// The record files under `roots` (each a folder, or a file), with their size and
/// modification time; `indexed` are the keys of every folder of the index (a link to a file
/// under one of them is that file's, not a second game).
pub fn walk(roots: &[PathBuf], indexed: &[String]) -> Walk {
    let mut out = Walk::default();
    // (device, inode) → where in `found`.
    let mut ids: HashMap<(u64, u64), usize> = HashMap::new();
    let mut files = Vec::new();
    for root in roots {
        if root.is_dir() {
            let w = crate::load::record_files(root);
            out.skipped.extend(w.skipped);
            files.extend(w.files.into_iter().map(|f| (f.path, f.link)));
        } else {
            match std::fs::symlink_metadata(root)
                .map_err(|e| e.to_string())
                .and_then(|m| crate::load::regular(root, m.file_type()))
            {
                Ok(link) => files.push((root.clone(), link)),
                Err(why) => out.skipped.push(format!("{}: {why}", root.display())),
            }
        }
    }
    files.sort();
    files.dedup_by(|a, b| a.0 == b.0);
    for (p, link) in files {
        if link && links_into(&p, indexed) {
            continue;
        }
        let m = match std::fs::metadata(&p) {
            Ok(m) => m,
            Err(e) => {
                out.skipped.push(format!("{}: {e}", p.display()));
                continue;
            }
        };
        if ids.insert((m.dev(), m.ino()), out.found.len()).is_some() {
            continue;
        }
        out.found.push(Found {
            key: path_key(&p),
            size: m.len() as i64,
            mtime: scan::mtime_ns(&m),
            identity: (m.dev(), m.ino()),
            path: p,
        });
    }
    out.found.sort_by(|a, b| a.key.cmp(&b.key));
    out
}

/// Does the link `p` name a record file under one of the folders `indexed` (which the index
/// reads as itself)?
fn links_into(p: &Path, indexed: &[String]) -> bool {
    let Ok(target) = std::fs::canonicalize(p) else {
        return false;
    };
    let record = crate::core::notation::filetype::for_path(&target).is_some_and(|t| t.in_batches);
    let key = path_key(&target);
    record
        && indexed.iter().any(|r| {
            key.strip_prefix(r.as_str())
                .is_some_and(|rest| rest.starts_with('/') || r.ends_with('/'))
        })
}

/// The catalog's text for a path: its bytes as UTF-8 where they are, `\xNN` for each byte
/// that is not (a file name in Latin-1 or Shift_JIS), and `\\` for a backslash, so that two
/// names differing in such a byte stay two and [`key_path`] gives the path back exactly.
/// Folders compare as text prefixes of their files' keys.
pub fn path_key(p: &Path) -> String {
    let bytes = p.as_os_str().as_bytes();
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid();
        if valid.contains('\\') {
            out.push_str(&valid.replace('\\', r"\\"));
        } else {
            out.push_str(valid);
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The path a catalog key ([`path_key`]) names. A key written before keys escaped anything
/// (a lone backslash) reads as it is.
pub fn key_path(key: &str) -> PathBuf {
    if !key.contains('\\') {
        return PathBuf::from(key);
    }
    let b = key.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = key
            .get(i + 2..i + 4)
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], b.get(i + 1), hex) {
            (b'\\', Some(b'\\'), _) => {
                out.push(b'\\');
                i += 2;
            }
            (b'\\', Some(b'x'), Some(byte)) => {
                out.push(byte);
                i += 4;
            }
            (c, ..) => {
                out.push(c);
                i += 1;
            }
        }
    }
    PathBuf::from(std::ffi::OsString::from_vec(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_give_their_paths_back_and_keep_names_apart() {
        let names: [&[u8]; 6] = [
            b"/a/plain.kif",
            b"/a/x\xff.kif",
            b"/a/x\xfe.kif",
            b"/a/back\\xff.kif",
            b"/a/\\\\two",
            b"/a/\xe6\x97\xa5\xe6.kif",
        ];
        let mut keys = std::collections::HashSet::new();
        for n in names {
            let p = PathBuf::from(std::ffi::OsStr::from_bytes(n));
            let k = path_key(&p);
            assert_eq!(key_path(&k), p, "{k}");
            assert!(keys.insert(k));
        }
        assert_eq!(path_key(Path::new("/a/plain.kif")), "/a/plain.kif");
        assert_eq!(
            path_key(&PathBuf::from(std::ffi::OsStr::from_bytes(b"/a/x\xff.kif"))),
            r"/a/x\xff.kif"
        );
    }
}
