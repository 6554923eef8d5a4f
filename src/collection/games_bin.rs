//! `games.bin`: per game id its result and, for a game that starts at the start position, its
//! first move, so that a query there replays nothing.
//!
//! A header of 32 bytes (`KVGAM002`, the catalog's build and generation, N = the next game id,
//! little-endian); then N bytes, per game id 0 when gone, else 1 + its result (sente, gote,
//! draw, unknown; byte 0 unused: no game has id 0); then N two-byte codes (little-endian), per
//! game its first move's code when it starts at the start position ([`START_NO_MOVE`] with no
//! move), else [`NOT_AT_START`]; then the checksum ([`super::segment::block_sum`]) of all
//! before it, checked when the file is opened: a damaged, stale or foreign `games.bin` is not
//! used (the table is built from the catalog instead).
//!
//! Written once per update, after its last commit (and its compaction): an update removes the
//! file before its first commit, so a `games.bin` that exists is the one of the catalog's
//! current generation, and an update stopped or killed midway leaves none. A reader that
//! finds none, or one of another generation (from a kifview before this rule, or copied
//! from elsewhere), builds the same table in memory from the catalog and the segments
//! ([`table`]): slower to open (a catalog query over every game), never a wrong answer, never a
//! refusal.

use super::GameResult;
use super::catalog::Catalog;
use super::segment::{Segment, block_sum};
use std::path::Path;

pub const GAMES: &str = "games.bin";
/// In `games.bin`'s codes: a game that does not start at the start position.
pub const NOT_AT_START: u16 = 0xFFFF;
/// In `games.bin`'s codes: a game that starts at the start position and has no move.
pub const START_NO_MOVE: u16 = 0xFFFE;
const MAGIC: &[u8; 8] = b"KVGAM002";
const HEADER: usize = 32;

/// The table for the catalog as it is (inside the caller's transaction, for one snapshot) and
/// its open segments `segs` (the catalog's, in order): the file's bytes but its header and
/// checksum.
pub fn table(cat: &Catalog, segs: &[Segment]) -> Result<Vec<u8>, String> {
    let n = ids(segs);
    let mut bytes = vec![0u8; 3 * n];
    for (id, o) in cat.results()? {
        if let Some(b) = bytes.get_mut(id as usize).filter(|_| id > 0) {
            *b = 1 + o as u8;
        }
    }
    let (results, codes) = bytes.split_at_mut(n);
    codes.fill(0xFF);
    for seg in segs {
        for g in seg.game_ids() {
            if results.get(g as usize).is_none_or(|&r| r == 0) {
                continue;
            }
            let code = match seg.start_move(g)? {
                Some(Some(c)) => c,
                Some(None) => START_NO_MOVE,
                None => NOT_AT_START,
            };
            if let Some(c) = codes.get_mut(2 * g as usize..2 * g as usize + 2) {
                c.copy_from_slice(&code.to_le_bytes());
            }
        }
    }
    Ok(bytes)
}

/// Game ids the table covers for these segments: the next id (ids start at 1).
fn ids(segs: &[Segment]) -> usize {
    segs.iter()
        .map(|s| s.game_ids().end as usize)
        .max()
        .unwrap_or(1)
        .max(1)
}

fn header(build: u64, generation: u64, n: usize) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..16].copy_from_slice(&build.to_le_bytes());
    h[16..24].copy_from_slice(&generation.to_le_bytes());
    h[24..].copy_from_slice(&(n as u64).to_le_bytes());
    h
}

/// Writes `games.bin` for the catalog in `dir` as it is now (a temporary file renamed into
/// place: a reader maps either the old file or the new one).
pub fn write(dir: &Path, cat: &Catalog) -> Result<(), String> {
    let mut segs = Vec::new();
    for id in cat.segments()? {
        segs.push(Segment::open(dir, id)?);
    }
    let table = table(cat, &segs)?;
    let mut bytes = header(cat.build()?, cat.generation()?, ids(&segs)).to_vec();
    bytes.extend_from_slice(&table);
    let sum = block_sum(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    let tmp = dir.join("games.bin.tmp");
    std::fs::write(&tmp, &bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, dir.join(GAMES)).map_err(|e| format!("{}: {e}", dir.display()))
}

/// Is `games.bin` in `dir` the current one of the catalog, whole? `Ok(false)` when there is
/// none; why not, when it is not.
pub fn check(dir: &Path, cat: &Catalog, segs: &[Segment]) -> Result<bool, String> {
    let path = dir.join(GAMES);
    if !path.exists() {
        return Ok(false);
    }
    let f = crate::load::open_regular(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    // SAFETY: games.bin is replaced by a rename, never written in place.
    let m = unsafe { memmap2::Mmap::map(&f) }.map_err(|e| format!("{}: {e}", path.display()))?;
    usable(&m, cat, segs)
        .map(|_| true)
        .map_err(|why| format!("{}: {why}", path.display()))
}

/// The table in `m` when it is the catalog's current one, whole.
fn usable<'a>(m: &'a [u8], cat: &Catalog, segs: &[Segment]) -> Result<&'a [u8], String> {
    let n = ids(segs);
    let want = header(cat.build()?, cat.generation()?, n);
    if m.len() != HEADER + 3 * n + 8 || m[..HEADER] != want {
        return Err("not the catalog's current one".into());
    }
    let (body, sum) = m.split_at(m.len() - 8);
    if block_sum(body).to_le_bytes() != sum {
        return Err("damaged (its checksum does not match)".into());
    }
    Ok(&body[HEADER..])
}

/// Removes `games.bin` before the catalog changes (see the module docs).
pub fn remove(dir: &Path) -> Result<(), String> {
    let path = dir.join(GAMES);
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("{}: {e}", path.display()))
        }
        _ => Ok(()),
    }
}

/// `games.bin` as a query reads it: the file mapped, or the table built in memory.
pub enum Games {
    Mapped(memmap2::Mmap),
    Built(Vec<u8>),
}

impl Games {
    /// The file in `dir` when it is there, whole, of the catalog's build and generation and of
    /// the size the segments `segs` need; else the table built from the catalog (see the
    /// module docs).
    pub fn open(dir: &Path, cat: &Catalog, segs: &[Segment]) -> Result<Games, String> {
        let mapped = crate::load::open_regular(&dir.join(GAMES))
            .ok()
            // SAFETY: games.bin is replaced by a rename, never written in place.
            .and_then(|f| unsafe { memmap2::Mmap::map(&f) }.ok())
            .filter(|m| usable(m, cat, segs).is_ok());
        match mapped {
            Some(m) => Ok(Games::Mapped(m)),
            None => table(cat, segs).map(Games::Built),
        }
    }

    /// The table (results, then codes).
    pub fn bytes(&self) -> &[u8] {
        match self {
            Games::Mapped(m) => &m[HEADER..m.len() - 8],
            Games::Built(v) => v,
        }
    }

    /// Game ids the table covers.
    fn ids(&self) -> usize {
        self.bytes().len() / 3
    }

    /// A live game's result (`None`: no such game, or forgotten since).
    pub fn outcome(&self, game: u32) -> Option<GameResult> {
        if game as usize >= self.ids() || game == 0 {
            return None;
        }
        match self.bytes().get(game as usize)? {
            0 => None,
            b => GameResult::ALL.get(*b as usize - 1).copied(),
        }
    }

    /// For a game that starts at the start position: `Some(its first move's code)` (`Some(None)`
    /// with no move); `None` for any other game.
    pub fn start_code(&self, game: u32) -> Option<Option<u16>> {
        let at = self.ids() + 2 * game as usize;
        match u16::from_le_bytes(self.bytes().get(at..at + 2)?.try_into().ok()?) {
            NOT_AT_START => None,
            START_NO_MOVE => Some(None),
            c => Some(Some(c)),
        }
    }
}
