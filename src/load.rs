//! The one loader: a path, standard input (`-`) or bytes already read become records, for the
//! viewer and every subcommand. One rule for what is empty (whitespace only: an error for the
//! batch commands, an empty record with a warning in the viewer, which opens such a file to
//! write into it), one rule for `--record N` ([`record_index`]), and one way of reading
//! standard input.

use crate::core::notation::{self, Loaded, Parsed};
use std::io::Read;
use std::path::Path;

/// An input holds nothing: no bytes, or whitespace only.
pub fn is_empty(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

/// Reads a file (or standard input for `-`) into its bytes.
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        return Ok(bytes);
    }
    // `fs::read` (and `File::read_to_end`) ask the file's size and position first: two more
    // system calls per file of a batch. Records are small: start with room for a typical one,
    // let larger ones grow, and read through `Take`, which does not ask.
    let mut bytes = Vec::with_capacity(64 * 1024);
    std::fs::File::open(path)
        .and_then(|f| f.take(u64::MAX).read_to_end(&mut bytes))
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    Ok(bytes)
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
