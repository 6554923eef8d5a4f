//! Writing a file without ever leaving it torn, lost or replaced by something else.
//!
//! [`save`] is the one way kifview writes a record to disk (the CLI's `convert`, and the app's
//! document model):
//!
//! - A regular file is replaced atomically: the bytes go to a temporary file beside it
//!   (`.NAME.kifview-PID.tmp`), which is synced, renamed over the target, and the directory is
//!   synced. A crash, a full disk or `kill -9` leaves either the old file or the new one.
//! - Outputs that are not regular files (character devices such as `/dev/null`, FIFOs, and
//!   anything under `/dev/` or `/proc/`, e.g. `/dev/stdout`) are written in place, never
//!   renamed over.
//! - A symbolic link is followed to its target, which is replaced (the link stays); a link to
//!   nothing is an error.
//! - A read-only file (or one this user may not write) is [`SaveError::ReadOnly`]: the caller
//!   asks, then saves again with [`SaveOptions::replace_read_only`].
//! - A file with several hard links is written in place once the complete temporary copy is
//!   on disk and read back, so every link sees the new contents ([`SaveOptions::break_hard_links`]
//!   replaces it instead). So is a file that is a mount point (a single-file bind mount: the
//!   rename is refused with EBUSY).
//! - A new file gets the mode the umask gives (0666 less the umask); a replaced one keeps its
//!   mode (and owner, where allowed).
//! - Temporary files left by a kifview that died (`kill -9`, power cut) are removed by the next
//!   save into that directory: only names of this program's pattern, owned by this user,
//!   whose process is gone.
//! - A path ending in `/` and a missing directory are errors before anything is written.
//!
//! Errors carry the whole OS error; "(the file on disk is unchanged)" is said only of a file
//! that existed.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// How to save.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaveOptions {
    /// Do not sync each file: a batch calls [`flush_filesystem`] once at the end instead. Readers
    /// still never see a half-written file; a power cut before the flush can lose the batch's
    /// newest files, never an older one.
    pub deferred_sync: bool,
    /// Replace a read-only file (the user said yes); its mode is kept.
    pub replace_read_only: bool,
    /// Replace a hard-linked file by a new one (the other links keep the old contents) instead
    /// of writing it in place.
    pub break_hard_links: bool,
}

/// How the bytes reached the disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// A new file.
    Created,
    /// The old file was replaced atomically.
    Replaced,
    /// Written into the existing file: a device, a FIFO, or a file with other hard links.
    InPlace,
}

/// A successful save.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The file written: the target of a symbolic link, not the link.
    pub path: PathBuf,
    pub how: How,
}

/// Why nothing (or, for [`SaveError::InPlace`], not everything) was written.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("{}: the name ends in '/', so it is not a file name: nothing written", path.display())]
    TrailingSlash { path: PathBuf },
    #[error("{}: is a directory: nothing written", path.display())]
    IsDirectory { path: PathBuf },
    #[error("{}: the directory {} does not exist: nothing written", path.display(), dir.display())]
    MissingDirectory { path: PathBuf, dir: PathBuf },
    #[error("{}: a symbolic link to {}, which does not exist: nothing written", link.display(), target.display())]
    DanglingSymlink { link: PathBuf, target: PathBuf },
    /// The caller may ask and save again with [`SaveOptions::replace_read_only`].
    #[error("{}: the file is read-only (for this user): not replaced", path.display())]
    ReadOnly { path: PathBuf },
    #[error("{}: cannot {op}: {source}{}", path.display(), if *existed { " (the file on disk is unchanged)" } else { "" })]
    Io {
        path: PathBuf,
        op: &'static str,
        source: io::Error,
        /// The target existed before (and is unchanged).
        existed: bool,
    },
    /// Writing a hard-linked file in place failed part way: it may be torn, and the complete
    /// new contents are in `copy`.
    #[error("{}: writing in place failed: {source}; the complete new contents are in {}", path.display(), copy.display())]
    InPlace {
        path: PathBuf,
        copy: PathBuf,
        source: io::Error,
    },
    /// [`save_new`] found something at the path and was not told to replace it.
    #[error("{}: exists{}: not replaced", path.display(), if *link { " (a symbolic link)" } else { "" })]
    Exists { path: PathBuf, link: bool },
}

impl SaveError {
    /// The target is exactly as it was before the save.
    pub fn target_unchanged(&self) -> bool {
        !matches!(self, SaveError::InPlace { .. })
    }
}

/// The file [`save`] would refuse as [`SaveError::ReadOnly`] without
/// [`SaveOptions::replace_read_only`]: a regular file at `path` (a link followed) that is
/// read-only or that this user may not write. Read from its metadata alone, so that a caller
/// can ask before it writes anything (`None` for what [`save`] writes without asking).
pub fn read_only(path: &Path) -> Option<PathBuf> {
    if path.as_os_str().as_bytes().ends_with(b"/") || writes_into_descriptor(path) {
        return None;
    }
    let target = match std::fs::symlink_metadata(path).ok()? {
        m if m.file_type().is_symlink() => std::fs::canonicalize(path).ok()?,
        _ => path.to_path_buf(),
    };
    let meta = std::fs::metadata(&target).ok()?;
    (meta.is_file() && (meta.permissions().readonly() || !may_write(&target))).then_some(target)
}

/// Is `path` a descriptor (`/dev/stdout`, or a link to one), which [`save`] writes into?
fn writes_into_descriptor(path: &Path) -> bool {
    is_descriptor(path)
        || std::fs::read_link(path).is_ok_and(|t| is_descriptor(&parent_dir(path).join(t)))
}

/// Writes `bytes` to `path` as the module documentation says.
pub fn save(path: &Path, bytes: &[u8], opts: SaveOptions) -> Result<Saved, SaveError> {
    save_counted(path, bytes, opts, &AtomicU64::new(0))
}

/// [`save`], adding to `written` the bytes written so far as they go to the disk (another
/// thread may show it as progress). A hard-linked file counts its complete temporary copy.
pub fn save_counted(
    path: &Path,
    bytes: &[u8],
    opts: SaveOptions,
    written: &AtomicU64,
) -> Result<Saved, SaveError> {
    if path.as_os_str().as_bytes().ends_with(b"/") {
        return Err(SaveError::TrailingSlash {
            path: path.to_path_buf(),
        });
    }
    let io = |op: &'static str, existed: bool| {
        move |source: io::Error| SaveError::Io {
            path: path.to_path_buf(),
            op,
            source,
            existed,
        }
    };
    // Descriptors (`/dev/stdout` is a link to a pipe, a terminal or a file the shell opened):
    // write into them. (Devices such as `/dev/null` are found below by their type.)
    if writes_into_descriptor(path) {
        let existed = std::fs::metadata(path).is_ok();
        return write_into(path, bytes, written)
            .map(|()| Saved {
                path: path.to_path_buf(),
                how: How::InPlace,
            })
            .map_err(io("write", existed));
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io("read the file's status", false)(e)),
    };
    let (target, meta) = match meta {
        Some(m) if m.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(t) => {
                let m = std::fs::metadata(&t).map_err(io("read the file's status", true))?;
                (t, Some(m))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(SaveError::DanglingSymlink {
                    link: path.to_path_buf(),
                    target: std::fs::read_link(path).unwrap_or_default(),
                });
            }
            Err(e) => return Err(io("follow the link", true)(e)),
        },
        m => (path.to_path_buf(), m),
    };
    let Some(meta) = meta else {
        return replace(&target, bytes, None, opts, written).map(|()| Saved {
            path: target,
            how: How::Created,
        });
    };
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(SaveError::IsDirectory { path: target });
    }
    if !ft.is_file() {
        // A character or block device, a FIFO, a socket: never renamed over.
        write_into(&target, bytes, written).map_err(io("write", true))?;
        return Ok(Saved {
            path: target,
            how: How::InPlace,
        });
    }
    if !opts.replace_read_only && (meta.permissions().readonly() || !may_write(&target)) {
        return Err(SaveError::ReadOnly { path: target });
    }
    if meta.nlink() > 1 && !opts.break_hard_links {
        write_linked(&target, bytes, &meta, opts, written)?;
        return Ok(Saved {
            path: target,
            how: How::InPlace,
        });
    }
    match replace(&target, bytes, Some(&meta), opts, written) {
        // A file that is a mount point (a single-file bind mount, as containers use) cannot
        // be renamed over: written in place as a hard-linked file is, after a verified copy.
        Err(SaveError::Io { source, .. }) if source.raw_os_error() == Some(libc::EBUSY) => {
            write_linked(&target, bytes, &meta, opts, written)?;
            Ok(Saved {
                path: target,
                how: How::InPlace,
            })
        }
        r => r.map(|()| Saved {
            path: target,
            how: How::Replaced,
        }),
    }
}

/// [`save`] with the contents written by `fill` into the temporary copy, for a file too big to
/// hold in memory (the viewer's save of an edited book of any size). A new file, or a regular
/// file with one link (a symbolic link followed to it), is replaced by the copy as [`save`]
/// replaces it (its mode and owner kept, synced, renamed over). What [`save`] writes in place
/// (a device, a descriptor, a file with other hard links, a mount point) is filled into a
/// temporary copy in the system's temporary directory, read back and given to [`save`]: only
/// then is it held in memory. A read-only file is refused before `fill` runs.
pub fn save_with(
    path: &Path,
    opts: SaveOptions,
    fill: &mut dyn FnMut(&mut File) -> io::Result<()>,
) -> Result<Saved, SaveError> {
    if path.as_os_str().as_bytes().ends_with(b"/") {
        return Err(SaveError::TrailingSlash {
            path: path.to_path_buf(),
        });
    }
    if !opts.replace_read_only
        && let Some(target) = read_only(path)
    {
        return Err(SaveError::ReadOnly { path: target });
    }
    let target = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).ok(),
        Ok(_) => Some(path.to_path_buf()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Some(path.to_path_buf()),
        Err(_) => None,
    };
    let streamed = target.filter(|t| !writes_into_descriptor(path) && !is_descriptor(t));
    let meta = streamed.as_ref().map(std::fs::metadata);
    match (streamed, meta) {
        (Some(t), Some(Err(e))) if e.kind() == io::ErrorKind::NotFound => {
            replace_with(&t, None, opts, fill).map(|()| Saved {
                path: t,
                how: How::Created,
            })
        }
        (Some(t), Some(Ok(m))) if m.is_file() && m.nlink() == 1 => {
            match replace_with(&t, Some(&m), opts, fill) {
                Err(SaveError::Io { source, .. }) if source.raw_os_error() == Some(libc::EBUSY) => {
                    save_filled(path, opts, fill)
                }
                r => r.map(|()| Saved {
                    path: t,
                    how: How::Replaced,
                }),
            }
        }
        _ => save_filled(path, opts, fill),
    }
}

/// [`save`] of what `fill` writes, held in memory (through a temporary file in the system's
/// temporary directory, removed after).
fn save_filled(
    path: &Path,
    opts: SaveOptions,
    fill: &mut dyn FnMut(&mut File) -> io::Result<()>,
) -> Result<Saved, SaveError> {
    let io = |op: &'static str| {
        move |source: io::Error| SaveError::Io {
            path: path.to_path_buf(),
            op,
            source,
            existed: std::fs::symlink_metadata(path).is_ok(),
        }
    };
    let name = path.file_name().unwrap_or(std::ffi::OsStr::new("file"));
    let (mut f, tmp) =
        create_temp(&std::env::temp_dir().join(name)).map_err(io("create a temporary file"))?;
    let bytes = (|| {
        fill(&mut f)?;
        drop(f);
        std::fs::read(&tmp)
    })();
    let _ = std::fs::remove_file(&tmp);
    save(path, &bytes.map_err(io("write"))?, opts)
}

/// [`replace`] with the temporary copy written by `fill`.
fn replace_with(
    target: &Path,
    old: Option<&std::fs::Metadata>,
    opts: SaveOptions,
    fill: &mut dyn FnMut(&mut File) -> io::Result<()>,
) -> Result<(), SaveError> {
    let dir = parent_dir(target);
    clean_stale_once(dir);
    let sync = !opts.deferred_sync;
    let tmp = write_temp_with(target, old, sync, fill)?;
    rename_into_place(&tmp, target, old.is_some(), sync)
}

/// Renames the complete copy `tmp` over `target` (removing it when that fails) and syncs
/// the directory when `sync`.
fn rename_into_place(
    tmp: &Path,
    target: &Path,
    existed: bool,
    sync: bool,
) -> Result<(), SaveError> {
    if let Err(source) = std::fs::rename(tmp, target) {
        let _ = std::fs::remove_file(tmp);
        return Err(SaveError::Io {
            path: target.to_path_buf(),
            op: "replace",
            source,
            existed,
        });
    }
    if sync {
        sync_dir(parent_dir(target), target)?;
    }
    Ok(())
}

/// Writes a new file at `path`, for a batch writing into a folder another user may share
/// (`kifview diagram --out-dir`): a complete temporary copy beside it (synced unless
/// deferred) becomes `path`, and a symbolic link at `path` is never followed. Without
/// `replace`, whatever is already at `path` (a file, a link, even a dangling one) stays as it
/// is and the answer is [`SaveError::Exists`] (the copy is linked to the name, which fails
/// when the name exists, so another writer cannot slip in between); with `replace`, it is
/// replaced (a link itself, not what it points to; a directory is refused).
pub fn save_new(
    path: &Path,
    bytes: &[u8],
    opts: SaveOptions,
    replace: bool,
) -> Result<(), SaveError> {
    save_new_with(path, opts, replace, &mut |f| f.write_all(bytes))
}

/// [`save_new`] with the contents written by `fill` into the temporary copy, for a file too
/// big to hold in memory (`kifview book convert` of a huge book): the file may be sought
/// (a header written last). An error from `fill` removes the copy and leaves `path` as it was.
pub fn save_new_with(
    path: &Path,
    opts: SaveOptions,
    replace: bool,
    fill: &mut dyn FnMut(&mut File) -> io::Result<()>,
) -> Result<(), SaveError> {
    if path.as_os_str().as_bytes().ends_with(b"/") {
        return Err(SaveError::TrailingSlash {
            path: path.to_path_buf(),
        });
    }
    let there = std::fs::symlink_metadata(path).ok();
    if let Some(m) = &there {
        if m.is_dir() {
            return Err(SaveError::IsDirectory {
                path: path.to_path_buf(),
            });
        }
        if !replace {
            return Err(SaveError::Exists {
                path: path.to_path_buf(),
                link: m.file_type().is_symlink(),
            });
        }
    }
    let dir = parent_dir(path);
    clean_stale_once(dir);
    let sync = !opts.deferred_sync;
    let tmp = write_temp_with(path, None, sync, fill)?;
    let placed = if replace {
        std::fs::rename(&tmp, path)
    } else {
        // A file system without hard links (FAT): the name created exclusively, which no
        // link at it can redirect either.
        std::fs::hard_link(&tmp, path).or_else(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => Err(e),
            _ => OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .and_then(|mut f| {
                    io::copy(&mut File::open(&tmp)?, &mut f)?;
                    if sync {
                        f.sync_all()?;
                    }
                    Ok(())
                }),
        })
    };
    let _ = std::fs::remove_file(&tmp);
    if let Err(source) = placed {
        return Err(match source.kind() {
            io::ErrorKind::AlreadyExists => SaveError::Exists {
                path: path.to_path_buf(),
                link: std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()),
            },
            _ => SaveError::Io {
                path: path.to_path_buf(),
                op: if replace { "replace" } else { "create" },
                source,
                existed: there.is_some(),
            },
        });
    }
    if sync {
        sync_dir(dir, path)?;
    }
    Ok(())
}

/// A name for an open file descriptor: `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
/// `/proc/self/fd/N` (and `/proc/PID/fd/N`, `/proc/thread-self/fd/N`).
fn is_descriptor(path: &Path) -> bool {
    let p = path.as_os_str().as_bytes();
    matches!(p, b"/dev/stdout" | b"/dev/stderr" | b"/dev/stdin")
        || p.starts_with(b"/dev/fd/")
        || (p.starts_with(b"/proc/")
            && path
                .components()
                .nth(3)
                .is_some_and(|c| c.as_os_str() == "fd"))
}

/// Can this user write the file (`access(W_OK)`; root can write a 0444 file, which the mode
/// check catches)?
fn may_write(path: &Path) -> bool {
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated string for the duration of the call.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// Writes `bytes` into an existing device, FIFO or descriptor (never creating it), in append
/// mode: `/dev/stdout` may be a file the shell opened for appending (`>> log`) or has just
/// truncated (`> out`); either way what it held stays.
fn write_into(path: &Path, bytes: &[u8], written: &AtomicU64) -> io::Result<()> {
    let mut f = OpenOptions::new().append(true).open(path)?;
    write_counted(&mut f, bytes, written)?;
    f.flush()
}

/// How much is written between two updates of the progress count.
const CHUNK: usize = 256 * 1024;

/// `write_all`, a chunk at a time, adding each chunk to `written`.
fn write_counted(f: &mut File, bytes: &[u8], written: &AtomicU64) -> io::Result<()> {
    for chunk in bytes.chunks(CHUNK) {
        f.write_all(chunk)?;
        written.fetch_add(chunk.len() as u64, Ordering::Relaxed);
    }
    Ok(())
}

/// A new temporary file beside `target`, named `.NAME.kifview-PID[-N].tmp`.
fn create_temp(target: &Path) -> io::Result<(File, PathBuf)> {
    static N: AtomicU64 = AtomicU64::new(0);
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::other("no file name"))?
        .to_string_lossy();
    let pid = pid();
    loop {
        let n = N.fetch_add(1, Ordering::Relaxed);
        let tmp_name = if n == 0 {
            format!(".{name}.kifview-{pid}.tmp")
        } else {
            format!(".{name}.kifview-{pid}-{n}.tmp")
        };
        let tmp = target.with_file_name(tmp_name);
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((f, tmp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The process id, asked once (a batch writes thousands of files).
fn pid() -> u32 {
    static PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *PID.get_or_init(std::process::id)
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes the temporary copy: contents, mode and owner of the old file, synced unless deferred.
fn write_temp(
    target: &Path,
    bytes: &[u8],
    old: Option<&std::fs::Metadata>,
    sync: bool,
    written: &AtomicU64,
) -> Result<PathBuf, SaveError> {
    write_temp_with(target, old, sync, &mut |f| write_counted(f, bytes, written))
}

/// [`write_temp`] with the contents written by `fill` into the temporary file.
fn write_temp_with(
    target: &Path,
    old: Option<&std::fs::Metadata>,
    sync: bool,
    fill: &mut dyn FnMut(&mut File) -> io::Result<()>,
) -> Result<PathBuf, SaveError> {
    let existed = old.is_some();
    let (mut f, tmp) = create_temp(target).map_err(|source| {
        let dir = parent_dir(target);
        if source.kind() == io::ErrorKind::NotFound && !dir.exists() {
            SaveError::MissingDirectory {
                path: target.to_path_buf(),
                dir: dir.to_path_buf(),
            }
        } else {
            SaveError::Io {
                path: target.to_path_buf(),
                op: "create a temporary file beside it",
                source,
                existed,
            }
        }
    })?;
    let written = (|| {
        fill(&mut f)?;
        if let Some(m) = old {
            let _ = std::os::unix::fs::fchown(&f, Some(m.uid()), Some(m.gid()));
            f.set_permissions(m.permissions())?;
        }
        if sync {
            f.sync_all()?;
        }
        Ok(())
    })();
    drop(f);
    if let Err(source) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(SaveError::Io {
            path: target.to_path_buf(),
            op: "write",
            source,
            existed,
        });
    }
    Ok(tmp)
}

/// Replaces (or creates) `target` by renaming a complete temporary copy over it.
fn replace(
    target: &Path,
    bytes: &[u8],
    old: Option<&std::fs::Metadata>,
    opts: SaveOptions,
    written: &AtomicU64,
) -> Result<(), SaveError> {
    let dir = parent_dir(target);
    clean_stale_once(dir);
    let sync = !opts.deferred_sync;
    let tmp = write_temp(target, bytes, old, sync, written)?;
    rename_into_place(&tmp, target, old.is_some(), sync)
}

/// Syncs `dir`, the folder of `target`: a rename (or a link) into it is durable after that.
fn sync_dir(dir: &Path, target: &Path) -> Result<(), SaveError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|source| SaveError::Io {
            path: target.to_path_buf(),
            op: "sync the directory",
            source,
            existed: false,
        })
}

/// Writes a hard-linked file in place, after a complete copy is on disk and read back.
fn write_linked(
    target: &Path,
    bytes: &[u8],
    meta: &std::fs::Metadata,
    opts: SaveOptions,
    written: &AtomicU64,
) -> Result<(), SaveError> {
    let unchanged = |op: &'static str| {
        move |source: io::Error| SaveError::Io {
            path: target.to_path_buf(),
            op,
            source,
            existed: true,
        }
    };
    // Opened first: a file this process cannot write is an error before anything changes.
    let mut file = OpenOptions::new()
        .write(true)
        .open(target)
        .map_err(unchanged("open for writing"))?;
    clean_stale_once(parent_dir(target));
    let tmp = write_temp(target, bytes, Some(meta), true, written)?;
    let mut back = Vec::with_capacity(bytes.len());
    let verified = File::open(&tmp)
        .and_then(|f| f.take(u64::MAX).read_to_end(&mut back))
        .and_then(|_| {
            if back == bytes {
                Ok(())
            } else {
                Err(io::Error::other("the temporary copy reads back different"))
            }
        });
    if let Err(e) = verified {
        let _ = std::fs::remove_file(&tmp);
        return Err(unchanged("verify the temporary copy")(e));
    }
    let written = (|| {
        file.set_len(0)?;
        file.write_all(bytes)?;
        if !opts.deferred_sync {
            file.sync_data()?;
        }
        Ok(())
    })();
    match written {
        Ok(()) => {
            let _ = std::fs::remove_file(&tmp);
            Ok(())
        }
        Err(source) => Err(SaveError::InPlace {
            path: target.to_path_buf(),
            copy: tmp,
            source,
        }),
    }
}

/// Removes this program's stale temporary files in `dir`, once per directory per process.
fn clean_stale_once(dir: &Path) {
    use std::collections::HashSet;
    use std::sync::Mutex;
    /// The directories done, and the last one asked about (a batch writes many files to
    /// one directory: a comparison instead of hashing the path each time).
    type Done = (Option<PathBuf>, HashSet<PathBuf>);
    static DONE: Mutex<Option<Done>> = Mutex::new(None);
    let first = {
        let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
        let (last, done) = done.get_or_insert_with(Default::default);
        if last
            .as_deref()
            .is_some_and(|l| l.as_os_str() == dir.as_os_str())
        {
            false
        } else {
            *last = Some(dir.to_path_buf());
            !done.contains(dir) && done.insert(dir.to_path_buf())
        }
    };
    if first {
        clean_stale(dir);
    }
}

/// The process id in a name of our temporary-file pattern (`.NAME.kifview-PID[-N].tmp`).
fn temp_owner(file_name: &[u8]) -> Option<u32> {
    let s = std::str::from_utf8(file_name).ok()?;
    let rest = s.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (name, tag) = rest.rsplit_once(".kifview-")?;
    if name.is_empty() {
        return None;
    }
    let pid = tag.split_once('-').map_or(tag, |(p, n)| {
        if n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty() {
            p
        } else {
            ""
        }
    });
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Removes temporary files of kifview processes that no longer run: regular files of our
/// pattern, owned by this user, whose process is gone. Anything else is left alone.
pub fn clean_stale(dir: &Path) -> usize {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let mut removed = 0;
    for e in rd.flatten() {
        let Some(owner) = temp_owner(e.file_name().as_bytes()) else {
            continue;
        };
        if owner == pid() || process_alive(owner) {
            continue;
        }
        let Ok(m) = std::fs::symlink_metadata(e.path()) else {
            continue;
        };
        if m.file_type().is_file() && m.uid() == me && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Is there a process with this id (one we may not signal counts as running)?
fn process_alive(pid: u32) -> bool {
    let Ok(p) = libc::pid_t::try_from(pid) else {
        return true;
    };
    if p <= 0 {
        return true;
    }
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(p, 0) };
    r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Makes everything written under `dir` durable: one `syncfs` on Linux, else an fsync of each
/// file in `files`.
pub fn flush_filesystem(dir: &Path, files: &[PathBuf]) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let _ = files;
        let d = File::open(dir)?;
        // SAFETY: `d` is an open descriptor for the duration of the call.
        if unsafe { libc::syncfs(d.as_raw_fd()) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        for f in files {
            File::open(f)?.sync_all()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};

    fn opts() -> SaveOptions {
        SaveOptions::default()
    }
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn replaces_atomically_and_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("game.kifu");
        let s = save(&p, b"one", opts()).unwrap();
        assert_eq!(s.how, How::Created);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        let s = save(&p, b"two", opts()).unwrap();
        assert_eq!((s.how, s.path), (How::Replaced, p.clone()));
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(mode(&p), 0o640, "a replaced file keeps its mode");
        let deferred = SaveOptions {
            deferred_sync: true,
            ..opts()
        };
        save(&p, b"three", deferred).unwrap();
        flush_filesystem(dir.path(), std::slice::from_ref(&p)).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"three");
        assert_eq!(names(dir.path()), ["game.kifu"]);
    }

    #[test]
    fn counts_what_it_writes_in_every_way_of_saving() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = vec![b'x'; 3 * CHUNK + 5];
        let p = dir.path().join("big.kifu");
        let count = |p: &Path| {
            let n = AtomicU64::new(0);
            save_counted(p, &bytes, opts(), &n).unwrap();
            n.into_inner()
        };
        // Created, replaced, and in place (a file with a second hard link).
        assert_eq!(count(&p), bytes.len() as u64);
        assert_eq!(count(&p), bytes.len() as u64);
        std::fs::hard_link(&p, dir.path().join("other.kifu")).unwrap();
        assert_eq!(count(&p), bytes.len() as u64);
        assert_eq!(std::fs::read(dir.path().join("other.kifu")).unwrap(), bytes);
    }

    #[test]
    fn new_files_get_the_umask_mode() {
        let dir = tempfile::tempdir().unwrap();
        let reference = dir.path().join("ref");
        std::fs::write(&reference, "x").unwrap();
        let p = dir.path().join("new.kif");
        save(&p, b"x", opts()).unwrap();
        assert_eq!(mode(&p), mode(&reference));
    }

    #[test]
    fn save_new_never_follows_a_link_and_replaces_only_when_told() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("pic.svg");
        let target = dir.path().join("elsewhere");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = save_new(&link, b"new", SaveOptions::default(), false).unwrap_err();
        assert!(matches!(e, SaveError::Exists { link: true, .. }), "{e}");
        assert!(!target.exists(), "a dangling link is not followed");
        save_new(&link, b"new", SaveOptions::default(), true).unwrap();
        assert!(!target.exists(), "the link itself is replaced");
        assert_eq!(std::fs::read(&link).unwrap(), b"new");
        let fresh = dir.path().join("fresh.svg");
        save_new(&fresh, b"a", SaveOptions::default(), false).unwrap();
        assert!(matches!(
            save_new(&fresh, b"b", SaveOptions::default(), false),
            Err(SaveError::Exists { link: false, .. })
        ));
        assert_eq!(std::fs::read(&fresh).unwrap(), b"a");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporary file is left");
    }

    #[test]
    fn symlinks_are_followed_and_a_dangling_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.kif");
        let link = dir.path().join("link.kif");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink("real.kif", &link).unwrap();
        let s = save(&link, b"new", opts()).unwrap();
        assert_eq!(s.path, real.canonicalize().unwrap());
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");

        let dangling = dir.path().join("dangling.kif");
        std::os::unix::fs::symlink("nowhere/gone.kif", &dangling).unwrap();
        let e = save(&dangling, b"x", opts()).unwrap_err();
        assert!(matches!(e, SaveError::DanglingSymlink { .. }), "{e}");
        assert!(e.to_string().contains("nowhere/gone.kif"), "{e}");
        assert!(
            dangling
                .symlink_metadata()
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(names(dir.path()), ["dangling.kif", "link.kif", "real.kif"]);
    }

    #[test]
    fn a_read_only_file_is_reported_then_replaced_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ro.kif");
        std::fs::write(&p, "old").unwrap();
        assert_eq!(read_only(&p), None);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o444)).unwrap();
        // Known before anything is written, through a link too.
        assert_eq!(read_only(&p), Some(p.clone()));
        let link = dir.path().join("link.kif");
        std::os::unix::fs::symlink("ro.kif", &link).unwrap();
        assert_eq!(read_only(&link), Some(p.canonicalize().unwrap()));
        assert_eq!(read_only(&dir.path().join("new.kif")), None);
        let e = save(&p, b"new", opts()).unwrap_err();
        assert!(matches!(e, SaveError::ReadOnly { .. }), "{e}");
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        let yes = SaveOptions {
            replace_read_only: true,
            ..opts()
        };
        save(&p, b"new", yes).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(mode(&p), 0o444);
    }

    #[test]
    fn hard_links_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.kif");
        let b = dir.path().join("b.kif");
        std::fs::write(&a, "old").unwrap();
        std::fs::hard_link(&a, &b).unwrap();
        let s = save(&a, b"new contents", opts()).unwrap();
        assert_eq!(s.how, How::InPlace);
        assert_eq!(std::fs::read(&b).unwrap(), b"new contents");
        assert_eq!(std::fs::metadata(&a).unwrap().nlink(), 2);
        assert_eq!(names(dir.path()), ["a.kif", "b.kif"]);
        // Asked to break them: the other link keeps the old contents.
        let brk = SaveOptions {
            break_hard_links: true,
            ..opts()
        };
        assert_eq!(save(&a, b"mine", brk).unwrap().how, How::Replaced);
        assert_eq!(std::fs::read(&b).unwrap(), b"new contents");
    }

    #[test]
    fn save_with_streams_a_replacement_as_save_writes_it_and_writes_links_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let fill = |text: &'static [u8]| move |f: &mut File| f.write_all(text);
        // A new file, then replaced keeping its mode, through a symbolic link too.
        let a = dir.path().join("a.db");
        assert_eq!(
            save_with(&a, opts(), &mut fill(b"one")).unwrap().how,
            How::Created
        );
        std::fs::set_permissions(&a, std::fs::Permissions::from_mode(0o640)).unwrap();
        let s = save_with(&a, opts(), &mut fill(b"two")).unwrap();
        assert_eq!(
            (s.how, std::fs::read(&a).unwrap()),
            (How::Replaced, b"two".to_vec())
        );
        assert_eq!(mode(&a), 0o640);
        let link = dir.path().join("link.db");
        std::os::unix::fs::symlink(&a, &link).unwrap();
        save_with(&link, opts(), &mut fill(b"three")).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&a).unwrap(), b"three");
        // A hard-linked file: in place, both names see it.
        let b = dir.path().join("b.db");
        std::fs::hard_link(&a, &b).unwrap();
        assert_eq!(
            save_with(&a, opts(), &mut fill(b"four")).unwrap().how,
            How::InPlace
        );
        assert_eq!(std::fs::read(&b).unwrap(), b"four");
        // A failing fill leaves the file and no temporary copy.
        let e = save_with(&a, opts(), &mut |_| Err(io::Error::other("no"))).unwrap_err();
        assert!(e.target_unchanged(), "{e}");
        assert_eq!(std::fs::read(&a).unwrap(), b"four");
        std::fs::remove_file(&b).unwrap();
        let e = save_with(&a, opts(), &mut |_| Err(io::Error::other("no"))).unwrap_err();
        assert!(e.to_string().contains("unchanged"), "{e}");
        assert_eq!(names(dir.path()), ["a.db", "link.db"]);
        // Read-only: refused before anything is written.
        std::fs::set_permissions(&a, std::fs::Permissions::from_mode(0o444)).unwrap();
        let mut called = false;
        let e = save_with(&a, opts(), &mut |_| {
            called = true;
            Ok(())
        });
        assert!(matches!(e, Err(SaveError::ReadOnly { .. })) && !called);
    }

    /// Needs root (mount): `sudo -E cargo test --lib store::tests::a_bind_mounted_file -- --ignored`.
    #[test]
    #[ignore = "needs root to bind-mount a file"]
    fn a_bind_mounted_file_is_written_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let (src, dst) = (dir.path().join("src.kif"), dir.path().join("dst.kif"));
        std::fs::write(&src, "old").unwrap();
        std::fs::write(&dst, "").unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["--bind"])
            .arg(&src)
            .arg(&dst)
            .status()
            .is_ok_and(|s| s.success());
        assert!(mounted, "mount --bind failed: run this test as root");
        let saved = save(&dst, b"new text", opts());
        let _ = std::process::Command::new("umount").arg(&dst).status();
        let saved = saved.unwrap();
        assert_eq!(saved.how, How::InPlace);
        assert_eq!(
            std::fs::read(&src).unwrap(),
            b"new text",
            "through the mount"
        );
        assert_eq!(
            names(dir.path()),
            ["dst.kif", "src.kif"],
            "no temporary file left"
        );
    }

    #[test]
    fn a_fifo_is_written_into_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid path string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        let s = save(&fifo, b"through the pipe", opts()).unwrap();
        assert_eq!(s.how, How::InPlace);
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
    }

    #[test]
    fn descriptors_are_names_for_open_files_and_dev_shm_is_a_directory() {
        for d in [
            "/dev/stdout",
            "/dev/fd/1",
            "/proc/self/fd/1",
            "/proc/123/fd/4",
        ] {
            assert!(is_descriptor(Path::new(d)), "{d}");
        }
        for d in [
            "/dev/null",
            "/dev/shm/a.kif",
            "/proc/self/status",
            "/devx/fd/1",
        ] {
            assert!(!is_descriptor(Path::new(d)), "{d}");
        }
        if !Path::new("/dev/shm").is_dir() {
            println!("no /dev/shm: skipped");
            return;
        }
        let dir = tempfile::tempdir_in("/dev/shm").unwrap();
        let p = dir.path().join("a.kif");
        assert_eq!(save(&p, b"one", opts()).unwrap().how, How::Created);
        assert_eq!(save(&p, b"two", opts()).unwrap().how, How::Replaced);
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
    }

    #[test]
    fn a_character_device_stays_one() {
        let s = save(Path::new("/dev/null"), b"discarded", opts()).unwrap();
        assert_eq!(s.how, How::InPlace);
        let m = std::fs::symlink_metadata("/dev/null").unwrap();
        assert!(m.file_type().is_char_device());
    }

    #[test]
    fn a_trailing_slash_or_a_missing_directory_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let p = format!("{}/sub.kif/", dir.path().display());
        let e = save(Path::new(&p), b"x", opts()).unwrap_err();
        assert!(matches!(e, SaveError::TrailingSlash { .. }), "{e}");
        assert!(!e.to_string().contains("unchanged"), "{e}");
        let p = dir.path().join("a/b/c.kifu");
        let e = save(&p, b"x", opts()).unwrap_err();
        assert!(e.to_string().contains("a/b does not exist"), "{e}");
        assert!(names(dir.path()).is_empty());
    }

    #[test]
    fn errors_carry_the_whole_os_error_and_say_unchanged_only_of_existing_files() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain");
        std::fs::write(&file, "x").unwrap();
        let e = save(&file.join("x.kif"), b"x", opts()).unwrap_err();
        let m = e.to_string();
        assert!(m.contains("Not a directory (os error 20)"), "{m}");
        assert!(!m.contains("unchanged"), "{m}");
        let e = SaveError::Io {
            path: "a.kif".into(),
            op: "write",
            source: io::Error::from_raw_os_error(libc::ENOSPC),
            existed: true,
        };
        assert_eq!(
            e.to_string(),
            "a.kif: cannot write: No space left on device (os error 28) (the file on disk is unchanged)"
        );
    }

    #[test]
    fn stale_temporary_files_of_dead_kifviews_are_cleaned_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = format!(".g.kif.kifview-{dead}.tmp");
        let stale2 = format!(".h.kif.kifview-{dead}-7.tmp");
        let alive = ".g.kif.kifview-1.tmp".to_string();
        let others = [
            ".g.kif.vim-1234.tmp",
            "g.kifview-99999999.tmp",
            ".x.kifview-.tmp",
        ];
        for n in [&stale, &stale2, &alive]
            .into_iter()
            .chain(&others.map(String::from))
        {
            std::fs::write(dir.path().join(n), "junk").unwrap();
        }
        save(&dir.path().join("g.kif"), b"x", opts()).unwrap();
        let left = names(dir.path());
        assert!(
            !left.contains(&stale) && !left.contains(&stale2),
            "{left:?}"
        );
        assert!(left.contains(&alive), "{left:?}");
        for o in others {
            assert!(left.iter().any(|l| l == o), "{o} {left:?}");
        }
        assert_eq!(temp_owner(b".a.kif.kifview-12.tmp"), Some(12));
        assert_eq!(temp_owner(b".a.kif.kifview-12-3.tmp"), Some(12));
        assert_eq!(temp_owner(b".kifview-12.tmp"), None);
        assert_eq!(temp_owner(b".a.kifview-12-x.tmp"), None);
    }
}
