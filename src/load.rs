//! The one loader: a path, standard input (`-`) or bytes already read become records, for the
//! viewer and every subcommand. One rule for what is empty (whitespace only: an error for the
//! batch commands, an empty record with a warning in the viewer, which opens such a file to
//! write into it), one rule for `--record N` ([`record_index`]), one way of reading
//! standard input, and one limit on what is read ([`size_limit`]: a record file larger is
//! refused with its size, an endless input once it gave that much). Folders are walked by
//! [`record_files`]: regular files only, the rest named.

use crate::core::notation::{self, Loaded, Parsed, filetype};
use std::io::Read;
use std::path::{Path, PathBuf};

/// An input holds nothing: no bytes, or whitespace only.
pub fn is_empty(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

/// Reads a file (or standard input for `-`) into its bytes, refusing one larger than the
/// limit ([`size_limit`]): a regular file by its size before a byte is read, anything else
/// (a device such as `/dev/zero`, a pipe, standard input) once it gave more than the limit.
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    read_limited(path, size_limit()?)
}

/// [`read_input`] with the limit given.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    if path == Path::new("-") {
        return read_stream(std::io::stdin().lock(), "standard input", limit, Vec::new());
    }
    let cannot = |e: std::io::Error| format!("{}: cannot read: {e}", path.display());
    let file = std::fs::File::open(path).map_err(cannot)?;
    read_opened(path, file, limit)
}

/// Reads a small text file of settings (the config) as UTF-8, refusing one over `limit`
/// bytes (a device such as `/dev/zero`, a FIFO that never ends) once it gave that much. The
/// error keeps its kind (`NotFound` for a missing file).
pub fn read_text_limited(path: &Path, limit: u64) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!("larger than {limit} bytes")));
    }
    // The one decode of these bytes: a settings file is read here and nowhere else, and is
    // UTF-8 (a record's bytes are decoded once, by `core::notation`, never here).
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Reads a record file that must be a regular file, within the limit ([`size_limit`]), for a
/// command that writes the record back in its place or beside it (`kifview analyze`). It is
/// opened without waiting (`O_NONBLOCK`: opening a FIFO for reading waits for a writer, and
/// under a signal handler with `SA_RESTART` that wait outlives the first Ctrl-C or SIGTERM),
/// and anything else than a regular file (a FIFO, a device, a socket, a folder) is refused
/// unread, saying what it is.
pub fn read_regular(path: &Path) -> Result<Vec<u8>, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let cannot = |e: std::io::Error| format!("{}: cannot read: {e}", path.display());
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(cannot)?;
    let ft = file.metadata().map_err(cannot)?.file_type();
    if !ft.is_file() {
        return Err(format!(
            "{}: not a regular file ({}): a record file is read and written back",
            path.display(),
            kind_of(ft)
        ));
    }
    read_opened(path, file, size_limit()?)
}

/// Opens `path` for reading if it is a regular file, without waiting (`O_NONBLOCK`: opening a
/// FIFO for reading waits for a writer); anything else is an error naming its kind ("not a
/// regular file (a FIFO)"). For files kifview maps or reads whole, such as an index's own.
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let ft = file.metadata()?.file_type();
    if !ft.is_file() {
        return Err(std::io::Error::other(format!(
            "not a regular file ({})",
            kind_of(ft)
        )));
    }
    Ok(file)
}

/// Reads `file` (opened from `path`) within `limit`.
fn read_opened(path: &Path, file: std::fs::File, limit: u64) -> Result<Vec<u8>, String> {
    let over = limit.saturating_add(1);
    let cannot = |e: std::io::Error| format!("{}: cannot read: {e}", path.display());
    // One `fstat`: a regular file too large is refused unread, and one that fits is read
    // into a buffer of its size (`Take` does not ask again).
    let meta = file.metadata().map_err(cannot)?;
    if meta.is_file() && meta.len() > limit {
        return Err(too_big(
            &path.display().to_string(),
            Some(meta.len()),
            limit,
        ));
    }
    if !meta.is_file() {
        return read_stream(file, &path.display().to_string(), limit, Vec::new());
    }
    let mut bytes = Vec::with_capacity((meta.len() + 1).min(over) as usize);
    file.take(over).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > limit {
        return Err(too_big(&path.display().to_string(), None, limit));
    }
    Ok(bytes)
}

/// What [`read_stream`] reads at a time, and the run of NUL bytes that says an input is not
/// a record file.
const BLOCK: usize = 64 * 1024;

/// Reads an input that is not a regular file (a pipe, a device, standard input) block by
/// block, within `limit`: one whose block is all NUL bytes (`/dev/zero`) is refused there,
/// after 64 KiB (no record file, in any encoding kifview reads, holds 64 KiB of NUL bytes),
/// instead of being read up to the limit.
fn read_stream(
    mut input: impl Read,
    name: &str,
    limit: u64,
    mut bytes: Vec<u8>,
) -> Result<Vec<u8>, String> {
    let cannot = |e: std::io::Error| format!("{name}: cannot read: {e}");
    loop {
        let start = bytes.len();
        let got = (&mut input)
            .take(BLOCK as u64)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        if bytes.len() as u64 > limit {
            return Err(too_big(name, None, limit));
        }
        if got == BLOCK && bytes[start..].iter().all(|&b| b == 0) {
            return Err(format!(
                "{name}: not a record file ({} KiB of NUL bytes at byte {start}; nothing past \
                 them was read)",
                BLOCK / 1024
            ));
        }
        if got < BLOCK {
            return Ok(bytes);
        }
    }
}

/// The largest record file read by default: 256 MiB. The largest records in use are
/// archives of many games in one CSA file (a month of Floodgate is tens of MB); a file read
/// whole is held with its text and records, several times its size, so 256 MiB keeps one
/// file's reading to a few GB at most, while an endless input (`/dev/zero`, a symbolic link
/// to a device) is refused after reading no more than that.
pub const DEFAULT_SIZE_LIMIT: u64 = 256 << 20;

/// The largest record file any command or the viewer reads: `$KIFVIEW_MAX_FILE` (bytes, or
/// with `K`, `M` or `G`: `512M`), else [`DEFAULT_SIZE_LIMIT`]. A value that is not a size is an
/// error naming the variable.
pub fn size_limit() -> Result<u64, String> {
    static LIMIT: std::sync::OnceLock<Result<u64, String>> = std::sync::OnceLock::new();
    LIMIT
        .get_or_init(|| match std::env::var("KIFVIEW_MAX_FILE") {
            Err(_) => Ok(DEFAULT_SIZE_LIMIT),
            Ok(v) => parse_size(&v).ok_or_else(|| {
                format!(
                    "KIFVIEW_MAX_FILE={}: expected a size in bytes, or with K, M or G (as 512M)",
                    crate::core::text::sanitize(&v)
                )
            }),
        })
        .clone()
}

/// `123`, `64K`, `512M`, `2G` (powers of 1024); `None` for anything else or 0.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, unit) = match s.as_bytes().last()? {
        b'K' | b'k' => (&s[..s.len() - 1], 1 << 10),
        b'M' | b'm' => (&s[..s.len() - 1], 1 << 20),
        b'G' | b'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.trim()
        .parse::<u64>()
        .ok()?
        .checked_mul(unit)
        .filter(|&n| n > 0)
}

/// Why an input over the limit is refused: its size when known, else that it gave more.
fn too_big(name: &str, size: Option<u64>, limit: u64) -> String {
    let what = match size {
        Some(n) => format!("{n} bytes, over the limit"),
        None => "more than the limit".to_string(),
    };
    format!("{name}: {what} of {limit} bytes for a record file (KIFVIEW_MAX_FILE=SIZE raises it)")
}

/// Reads a file (or standard input for `-`) into records. An input that yields nothing a
/// record could hold (an empty file, binary data, text no reader understood) is an error that
/// says why.
pub fn load_input(path: &Path) -> Result<Loaded, String> {
    let bytes = read_input(path)?;
    let named = (path != Path::new("-")).then_some(path);
    read_records(&bytes, named)
        .map_err(|why| format!("{}: not a record: {why}", display_name(path)))
}

/// The records in `bytes`, or why there are none: an empty input, or what
/// `notation::try_load` refuses (binary data, text no reader understood).
pub fn read_records(bytes: &[u8], named: Option<&Path>) -> Result<Loaded, String> {
    if is_empty(bytes) {
        return Err("the file is empty".into());
    }
    notation::try_load(bytes, named).map_err(|e| e.to_string())
}

/// How messages name an input: its path, or `standard input` for `-`.
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}

/// The record `n` (1-based) of a loaded file.
pub fn pick_record<'a>(loaded: &'a Loaded, n: usize, path: &Path) -> Result<&'a Parsed, String> {
    let i = record_index(&display_name(path), n, loaded.records.len())?;
    Ok(&loaded.records[i])
}

/// Which record of a file `--record N` means (1-based; 0 is the first), as an index, or why
/// there is none: the one rule for `--record N`, in the viewer and every subcommand.
pub fn record_index(what: &str, want: usize, count: usize) -> Result<usize, String> {
    let want = want.max(1);
    if want <= count {
        Ok(want - 1)
    } else {
        Err(format!(
            "{what}: --record {want}: the file holds {count} record{}",
            if count == 1 { "" } else { "s" }
        ))
    }
}

/// A record file found in a folder: its path, and whether the folder holds a symbolic link
/// there (to a regular file: the only links followed).
pub struct FoundFile {
    pub path: PathBuf,
    pub link: bool,
}

/// What a walk found: the record files (by path), and a line `PATH: why` for each one or
/// folder left out.
#[derive(Default)]
pub struct Walked {
    pub files: Vec<FoundFile>,
    pub skipped: Vec<String>,
}

/// The record files under the folder `root` (the extensions `FileType::in_batches` marks),
/// sorted: regular files and links to regular files only. A FIFO (reading it would wait for
/// a writer for ever), a device (`/dev/zero` never ends), a socket and a dangling link are
/// named in [`Walked::skipped`] with why, as is a folder that cannot be read (permissions, a
/// path over PATH_MAX): the walk goes on without it. Links to folders are not followed (no
/// cycles), and kifview's own recovery files (`.NAME.kifview-recovery-…`) are not records of
/// the collection.
pub fn record_files(root: &Path) -> Walked {
    let mut out = Walked::default();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let cannot = |e: std::io::Error| format!("{}: cannot read the folder: {e}", d.display());
        let rd = match std::fs::read_dir(&d) {
            Ok(rd) => rd,
            Err(e) => {
                out.skipped.push(cannot(e));
                continue;
            }
        };
        for e in rd {
            let e = match e {
                Ok(e) => e,
                Err(e) => {
                    out.skipped.push(cannot(e));
                    break;
                }
            };
            let p = e.path();
            let ft = match e.file_type() {
                Ok(ft) => ft,
                Err(e) => {
                    out.skipped.push(format!("{}: {e}", p.display()));
                    continue;
                }
            };
            if ft.is_dir() {
                stack.push(p);
                continue;
            }
            let record = filetype::for_path(&p).is_some_and(|t| t.in_batches);
            if !record || is_recovery_file(&e.file_name()) {
                continue;
            }
            match regular(&p, ft) {
                Ok(link) => out.files.push(FoundFile { path: p, link }),
                Err(why) => out.skipped.push(format!("{}: {why}", p.display())),
            }
        }
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Is the file at `p` (of type `ft`, not followed) a regular file, or a link to one
/// (`Ok(true)`)? Else why it is skipped.
pub fn regular(p: &Path, ft: std::fs::FileType) -> Result<bool, String> {
    if ft.is_file() {
        return Ok(false);
    }
    let link = ft.is_symlink();
    let target = if link {
        match std::fs::metadata(p) {
            Ok(m) => m.file_type(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let to = std::fs::read_link(p).unwrap_or_default();
                return Err(format!(
                    "dangling symbolic link (to {}): skipped",
                    to.display()
                ));
            }
            Err(e) => return Err(format!("cannot follow the symbolic link: {e}")),
        }
    } else {
        ft
    };
    if target.is_file() {
        return Ok(link);
    }
    Err(format!(
        "not a regular file ({}{}): skipped",
        if link { "a link to " } else { "" },
        kind_of(target)
    ))
}

/// What a file that is not a regular file is, for a message.
fn kind_of(ft: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_char_device() {
        "a character device"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

/// Is `name` one of kifview's own recovery files (`app::document::recovery`'s names)?
pub fn is_recovery_file(name: &std::ffi::OsStr) -> bool {
    memchr::memmem::find(name.as_encoded_bytes(), b".kifview-recovery").is_some()
}

/// A CSA file larger than this is read record by record ([`csa_pieces`]) by `kifview index`
/// and `kifview check`: an archive of many games (a month of Floodgate) then takes memory in
/// proportion to its largest record, not to the file.
pub const CSA_STREAM_OVER: u64 = 4 << 20;

/// Reads the CSA file `path` one piece at a time: a piece ends at a `/` line that follows a
/// line with content (not blank, not a `'` comment), and holds the records between two such
/// lines. `line` sees every line of the file in order (to hash it); `piece` gets each piece's
/// bytes, the file's line number of its first line, and whether it holds content (only the
/// last piece, which no `/` ends, may not: the caller decides whether an empty tail counts).
/// A piece over [`size_limit`] is an error naming its first line; there is no limit on the
/// file's size. The file is opened without waiting and only if it is a regular file.
pub fn csa_pieces(
    path: &Path,
    mut line: impl FnMut(&[u8]),
    mut piece: impl FnMut(&[u8], usize, bool) -> Result<(), String>,
) -> Result<(), String> {
    use std::io::BufRead;
    let name = path.display().to_string();
    let limit = size_limit()?;
    let file = open_regular(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let (mut bytes, mut text) = (Vec::new(), Vec::new());
    let (mut first_line, mut line_no, mut content) = (1, 0, false);
    loop {
        text.clear();
        match reader.read_until(b'\n', &mut text) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("{name}: cannot read: {e}")),
        }
        line(&text);
        line_no += 1;
        bytes.extend_from_slice(&text);
        let t = text.trim_ascii();
        if t == b"/" && content {
            piece(&bytes, first_line, true)?;
            bytes.clear();
            (first_line, content) = (line_no + 1, false);
            continue;
        }
        content |= !t.is_empty() && t != b"/" && !t.starts_with(b"'");
        if bytes.len() as u64 > limit {
            return Err(format!(
                "{name}:{first_line}: a record of more than the limit of {limit} bytes (KIFVIEW_MAX_FILE=SIZE raises it)"
            ));
        }
    }
    piece(&bytes, first_line, content)
}
