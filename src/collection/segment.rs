//! Segments: the position index of the games one step of a `kifview index` run added.
//!
//! A segment is two files, each ending in checksums per 16 KiB block ([`Checked`], verified on
//! opening for the trailer, header and footer, lazily per block read for the rest, and whole
//! by `kifview index` and `--check`). `pos-N.bin` is a sorted array of (key, game) pairs, 12
//! bytes each (64-bit key, 32-bit game id, little-endian) after a 16-byte header (`KVPOS002`,
//! the count):
//! looked up by binary search in a memory map, as chess_pos_db's and YaneuraOu's books are.
//! `moves-N.bin` holds each game's tree as lines, each move once (`KVMOV003`: the main line
//! first, then each variation with the line and ply it leaves from, [`StoredLine`]; numbers
//! and lengths in 32 bits) as two-byte moves, and its initial position when that is not the
//! start position,
//! with a footer of offsets: what the queries
//! replay to confirm a candidate and to read the move played next. The pairs are sorted by an
//! external sort (sorted chunks of at most [`CHUNK`] pairs on disk, merged), so building needs
//! bounded memory at any collection size.
//!
//! Why not SQLite, which holds the catalog: on the same 2.48 M (key, game) pairs
//! (`KIFVIEW_COLLECTION_COMPARE=20000 cargo bench --bench collection`) a segment was built in
//! 0.8 s at 12.0 bytes a pair (14.1 with the moves) and found the start position's 20,000 games
//! in 0.21 ms and a rare position in 0.15 µs; a SQLite table `(key, game)` WITHOUT ROWID took
//! 36.6 s, 17.7 bytes a pair, 6.0 ms and 3.4 µs.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

pub(crate) const POS_MAGIC: &[u8; 8] = b"KVPOS002";
const MOVES_MAGIC: &[u8; 8] = b"KVMOV003";
const PAIR: usize = 12;
/// Pairs sorted in memory before a chunk goes to disk (16 M pairs: 256 MB).
pub const CHUNK: usize = 1 << 24;

pub fn pos_path(dir: &Path, id: i64) -> PathBuf {
    dir.join(format!("pos-{id}.bin"))
}
pub fn moves_path(dir: &Path, id: i64) -> PathBuf {
    dir.join(format!("moves-{id}.bin"))
}
/// The folder of the sorted runs (`0.bin`, `1.bin`, …) an external sort writes while segment
/// `id` is built, removed when it is done.
pub fn runs_dir_name(id: i64) -> String {
    format!("tmp-{id}")
}

/// The names of segment `id`'s files: its positions, its moves, and the folder of the sorted
/// runs an external sort writes while it is built.
pub fn segment_files(id: i64) -> [String; 3] {
    [
        format!("pos-{id}.bin"),
        format!("moves-{id}.bin"),
        runs_dir_name(id),
    ]
}

/// One game as the segment stores it.
pub struct StoredGame {
    /// The initial position's SFEN when it is not the start position.
    pub initial: Option<String>,
    /// The lines of its tree (`keys::TreeLine`), the main line first, each line's moves once.
    pub lines: Vec<StoredLine>,
}

/// A line of a stored game: where it leaves its parent line (`parent` an earlier line, after
/// `from` plies from the root, as its `alt`-th variation there; all 0 for the main line) and
/// its move codes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredLine {
    pub parent: u32,
    pub from: u32,
    pub alt: u32,
    pub codes: Vec<u16>,
}

impl StoredLine {
    /// The main line of these moves.
    pub fn main(codes: Vec<u16>) -> StoredLine {
        StoredLine {
            codes,
            ..StoredLine::default()
        }
    }
}

/// A stored game as its bytes in the memory map.
pub struct GameView<'a> {
    pub initial: Option<&'a str>,
    /// Its lines, the main line first; a line's parent comes before it and it leaves it at
    /// one of the parent's plies (checked when read).
    pub lines: smallvec::SmallVec<[LineView<'a>; 2]>,
}

/// A stored line ([`StoredLine`]) read in place: its move codes two little-endian bytes each.
#[derive(Clone, Copy, Debug)]
pub struct LineView<'a> {
    pub parent: u32,
    pub from: u32,
    pub alt: u32,
    pub codes: &'a [u8],
}

impl LineView<'_> {
    /// Its moves.
    pub fn len(&self) -> usize {
        self.codes.len() / 2
    }
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }
}

impl GameView<'_> {
    /// The move codes of a line.
    pub fn codes(line: &[u8]) -> impl Iterator<Item = u16> + '_ {
        line.chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
}

/// Every index file but the catalog ends in checksums: its payload, then one 8-byte sum
/// ([`block_sum`]) per [`BLOCK`] bytes of it, then a 32-byte trailer (the payload's length,
/// the sum of the sums, [`BLOCK`], [`SUM_MAGIC`]). A reader checks the trailer and the sums
/// on opening, and each block the first time it reads from it ([`Checked`]): a flipped bit
/// is a refusal naming the file, never a wrong answer.
pub const BLOCK: usize = 16 << 10;
pub(crate) const SUM_MAGIC: &[u8; 8] = b"KVSUM001";

/// FNV-1a over 64-bit words (the tail byte by byte), with the length: the checksum of a
/// block.
pub fn block_sum(bytes: &[u8]) -> u64 {
    fnv64(0xcbf2_9ce4_8422_2325 ^ bytes.len() as u64, bytes)
}

/// FNV-1a 64 from `seed` over 64-bit words (the tail byte by byte).
pub fn fnv64(seed: u64, bytes: &[u8]) -> u64 {
    let mut h = seed;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    for &b in words.remainder() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Writes a checksummed file ([`BLOCK`]): bytes in, sums kept per block, the sums and the
/// trailer written by [`finish`](Self::finish), which syncs the file.
pub(crate) struct SumWriter {
    w: BufWriter<File>,
    block: Vec<u8>,
    sums: Vec<u64>,
    len: u64,
}

impl SumWriter {
    pub(crate) fn create(path: &Path) -> Result<SumWriter, String> {
        let f = File::create(path).map_err(|e| io(path, e))?;
        Ok(SumWriter {
            w: BufWriter::with_capacity(1 << 20, f),
            block: Vec::with_capacity(BLOCK),
            sums: Vec::new(),
            len: 0,
        })
    }

    fn put(&mut self, mut bytes: &[u8]) -> std::io::Result<()> {
        self.len += bytes.len() as u64;
        while !bytes.is_empty() {
            let n = (BLOCK - self.block.len()).min(bytes.len());
            self.block.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
            if self.block.len() == BLOCK {
                self.end_block()?;
            }
        }
        Ok(())
    }

    fn end_block(&mut self) -> std::io::Result<()> {
        if self.block.is_empty() {
            return Ok(());
        }
        self.sums.push(block_sum(&self.block));
        self.w.write_all(&self.block)?;
        self.block.clear();
        Ok(())
    }

    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        if !self.block.is_empty() {
            self.end_block()?;
        }
        let mut table = Vec::with_capacity(self.sums.len() * 8);
        for s in &self.sums {
            table.extend_from_slice(&s.to_le_bytes());
        }
        self.w.write_all(&table)?;
        self.w.write_all(&self.len.to_le_bytes())?;
        self.w.write_all(&block_sum(&table).to_le_bytes())?;
        self.w.write_all(&(BLOCK as u64).to_le_bytes())?;
        self.w.write_all(SUM_MAGIC)?;
        self.w.into_inner().map_err(|e| e.into_error())?.sync_all()
    }
}

impl Write for SumWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.put(bytes)?;
        Ok(bytes.len())
    }
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.put(bytes)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A checksummed file ([`BLOCK`]), memory-mapped: its payload read through
/// [`get`](Self::get), which checks each block the first time it is read.
pub struct Checked {
    map: memmap2::Mmap,
    path: PathBuf,
    len: usize,
    sums_at: usize,
    /// Blocks found sound.
    sound: Vec<std::sync::atomic::AtomicBool>,
}

/// What a damaged index file says: the file, what is wrong, and what mends it.
pub fn damaged(path: &Path, what: &str) -> String {
    format!(
        "{}: damaged ({what}); `kifview index --repair` rebuilds it",
        path.display()
    )
}

impl Checked {
    pub fn open(path: &Path) -> Result<Checked, String> {
        let map = map(path)?;
        let n = map.len();
        let bad = |what: &str| Err(damaged(path, what));
        if n < 32 || &map[n - 8..] != SUM_MAGIC {
            return bad("no checksums");
        }
        let le64 = |at: usize| u64::from_le_bytes(map[at..at + 8].try_into().expect("8"));
        let (len, table_sum, block) = (le64(n - 32), le64(n - 24), le64(n - 16));
        let blocks = len.div_ceil(BLOCK as u64);
        if block != BLOCK as u64
            || blocks.checked_mul(8).and_then(|t| t.checked_add(len + 32)) != Some(n as u64)
        {
            return bad("its checksums do not fit");
        }
        let (len, sums_at) = (len as usize, len as usize);
        if block_sum(&map[sums_at..n - 32]) != table_sum {
            return bad("its table of checksums does not match");
        }
        Ok(Checked {
            path: path.to_path_buf(),
            sound: (0..blocks)
                .map(|_| std::sync::atomic::AtomicBool::new(false))
                .collect(),
            map,
            len,
            sums_at,
        })
    }

    /// Payload bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The payload's bytes `range`, every block they touch checked (once).
    #[inline]
    pub fn get(&self, range: std::ops::Range<usize>) -> Result<&[u8], String> {
        if range.start > range.end || range.end > self.len {
            return Err(damaged(&self.path, "a length or offset out of the file"));
        }
        if range.start < range.end {
            for b in range.start / BLOCK..=(range.end - 1) / BLOCK {
                self.check(b)?;
            }
        }
        Ok(&self.map[range])
    }

    #[inline]
    fn check(&self, b: usize) -> Result<(), String> {
        use std::sync::atomic::Ordering::Relaxed;
        if self.sound[b].load(Relaxed) {
            return Ok(());
        }
        let block = &self.map[b * BLOCK..((b + 1) * BLOCK).min(self.len)];
        let at = self.sums_at + 8 * b;
        let want = u64::from_le_bytes(self.map[at..at + 8].try_into().expect("8"));
        if block_sum(block) != want {
            return Err(damaged(
                &self.path,
                &format!("block {b} does not match its checksum"),
            ));
        }
        self.sound[b].store(true, Relaxed);
        Ok(())
    }

    /// Checks every block.
    pub fn verify(&self) -> Result<(), String> {
        (0..self.sound.len()).try_for_each(|b| self.check(b))
    }

    /// Bytes on disk.
    pub fn file_len(&self) -> usize {
        self.map.len()
    }
}

/// Writes a segment: games in id order, their keys in any order.
pub struct SegmentWriter {
    dir: PathBuf,
    id: i64,
    first_game: u32,
    games: u32,
    /// `None` once finished.
    moves: Option<SumWriter>,
    offsets: Vec<u64>,
    written: u64,
    pairs: Vec<u128>,
    chunks: Vec<PathBuf>,
    count: u64,
    chunk: usize,
}

fn io(path: &Path, e: std::io::Error) -> String {
    format!("{}: {e}", path.display())
}

impl SegmentWriter {
    pub fn create(dir: &Path, id: i64, first_game: u32) -> Result<SegmentWriter, String> {
        let path = moves_path(dir, id);
        Ok(SegmentWriter {
            dir: dir.to_path_buf(),
            id,
            first_game,
            games: 0,
            moves: Some(SumWriter::create(&path)?),
            offsets: vec![0],
            written: 0,
            pairs: Vec::new(),
            chunks: Vec::new(),
            count: 0,
            chunk: CHUNK,
        })
    }

    /// Sorts at most `n` pairs in memory before spilling a chunk to disk (default [`CHUNK`]).
    pub fn chunk_size(mut self, n: usize) -> SegmentWriter {
        self.chunk = n.max(1);
        self
    }

    /// The id the next game gets.
    pub fn next_game(&self) -> u32 {
        self.first_game + self.games
    }

    /// Adds the next game (id [`next_game`](Self::next_game)) and its distinct keys.
    pub fn add(&mut self, game: &StoredGame, keys: &[u64]) -> Result<u32, String> {
        let id = self.next_game();
        let mut buf = Vec::with_capacity(
            8 + game
                .lines
                .iter()
                .map(|l| 16 + 2 * l.codes.len())
                .sum::<usize>(),
        );
        match &game.initial {
            None => buf.push(0),
            Some(s) => {
                buf.push(1);
                let s = &s.as_bytes()[..s.len().min(u16::MAX as usize)];
                buf.extend_from_slice(&(s.len() as u16).to_le_bytes());
                buf.extend_from_slice(s);
            }
        }
        // Counts and lengths in 32 bits: a line of any length is stored whole (in 16 bits, a
        // line was cut at 65,535 plies while its positions' keys were all stored, so a game
        // reaching a position past that ply was never found). The main line is its length
        // and moves; a variation is its parent, `from`, `alt`, length and moves.
        let lines = &game.lines[..game.lines.len().min(u32::MAX as usize)];
        buf.extend_from_slice(&(lines.len() as u32).to_le_bytes());
        for (i, l) in lines.iter().enumerate() {
            if i > 0 {
                for f in [l.parent, l.from, l.alt] {
                    buf.extend_from_slice(&f.to_le_bytes());
                }
            }
            let codes = &l.codes[..l.codes.len().min(u32::MAX as usize)];
            buf.extend_from_slice(&(codes.len() as u32).to_le_bytes());
            for m in codes {
                buf.extend_from_slice(&m.to_le_bytes());
            }
        }
        self.write_moves(&buf)?;
        self.written += buf.len() as u64;
        self.offsets.push(self.written);
        self.games += 1;
        self.pairs
            .extend(keys.iter().map(|&k| (k as u128) << 32 | id as u128));
        self.count += keys.len() as u64;
        if self.pairs.len() >= self.chunk {
            self.spill()?;
        }
        Ok(id)
    }

    /// Adds the next game as the bytes [`Segment::raw`] gave (empty: a game forgotten, which
    /// keeps its id and reads as none), without keys: compaction writes the pairs itself.
    pub fn add_raw(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.write_moves(bytes)?;
        self.written += bytes.len() as u64;
        self.offsets.push(self.written);
        self.games += 1;
        Ok(())
    }

    /// The path of the next sorted run (its folder made with the first).
    fn next_run(&self) -> Result<PathBuf, String> {
        let runs = self.dir.join(runs_dir_name(self.id));
        if self.chunks.is_empty() {
            std::fs::create_dir(&runs).map_err(|e| io(&runs, e))?;
        }
        Ok(runs.join(format!("{}.bin", self.chunks.len())))
    }

    fn write_moves(&mut self, bytes: &[u8]) -> Result<(), String> {
        let path = moves_path(&self.dir, self.id);
        match self.moves.as_mut() {
            Some(w) => w.write_all(bytes).map_err(|e| io(&path, e)),
            None => Err(format!("{}: written after its end", path.display())),
        }
    }

    fn spill(&mut self) -> Result<(), String> {
        let path = self.next_run()?;
        write_pairs(&path, &mut self.pairs, false)?;
        self.pairs.clear();
        self.chunks.push(path);
        Ok(())
    }

    /// Writes the footer and the sorted pairs; returns (games, pairs).
    pub fn finish(mut self) -> Result<(u32, u64), String> {
        self.finish_moves()?;
        let ppath = pos_path(&self.dir, self.id);
        if self.chunks.is_empty() {
            write_pairs(&ppath, &mut self.pairs, true)?;
        } else {
            if !self.pairs.is_empty() {
                let path = self.next_run()?;
                write_pairs(&path, &mut self.pairs, false)?;
                self.chunks.push(path);
            }
            merge_chunks(&self.chunks, &ppath, self.count)?;
            for c in &self.chunks {
                let _ = std::fs::remove_file(c);
            }
            let _ = std::fs::remove_dir(self.dir.join(runs_dir_name(self.id)));
        }
        Ok((self.games, self.count))
    }

    /// Writes the moves file's footer only: the pairs are the caller's (after
    /// [`add_raw`](Self::add_raw)). Returns the games.
    pub fn finish_raw(mut self) -> Result<u32, String> {
        self.finish_moves()
    }

    fn finish_moves(&mut self) -> Result<u32, String> {
        let mpath = moves_path(&self.dir, self.id);
        let mut footer = Vec::with_capacity(self.offsets.len() * 8 + 24);
        for o in &self.offsets {
            footer.extend_from_slice(&o.to_le_bytes());
        }
        footer.extend_from_slice(&self.first_game.to_le_bytes());
        footer.extend_from_slice(&self.games.to_le_bytes());
        footer.extend_from_slice(&self.written.to_le_bytes());
        footer.extend_from_slice(MOVES_MAGIC);
        self.write_moves(&footer)?;
        if let Some(w) = self.moves.take() {
            w.finish().map_err(|e| io(&mpath, e))?;
        }
        Ok(self.games)
    }
}

fn pair_bytes(p: u128) -> [u8; PAIR] {
    let mut b = [0; PAIR];
    b[..8].copy_from_slice(&((p >> 32) as u64).to_le_bytes());
    b[8..].copy_from_slice(&(p as u32).to_le_bytes());
    b
}

/// Sorts `pairs` (two halves on two threads) and writes them merged.
fn write_pairs(path: &Path, pairs: &mut [u128], header: bool) -> Result<(), String> {
    let (a, b) = pairs.split_at_mut(pairs.len() / 2);
    std::thread::scope(|s| {
        s.spawn(|| a.sort_unstable());
        b.sort_unstable();
    });
    let (a, b) = pairs.split_at(pairs.len() / 2);
    let emit = |w: &mut dyn Write| -> std::io::Result<()> {
        if header {
            w.write_all(POS_MAGIC)?;
            w.write_all(&(pairs.len() as u64).to_le_bytes())?;
        }
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let p = if j == b.len() || (i < a.len() && a[i] <= b[j]) {
                i += 1;
                a[i - 1]
            } else {
                j += 1;
                b[j - 1]
            };
            w.write_all(&pair_bytes(p))?;
        }
        Ok(())
    };
    let go = || -> std::io::Result<()> {
        if header {
            // The positions file, checksummed.
            let mut w = SumWriter::create(path).map_err(std::io::Error::other)?;
            emit(&mut w)?;
            w.finish()
        } else {
            // A sorted run (read once, then removed).
            let mut w = BufWriter::with_capacity(1 << 20, File::create(path)?);
            emit(&mut w)?;
            w.into_inner().map_err(|e| e.into_error())?.sync_all()
        }
    };
    go().map_err(|e| io(path, e))
}

/// Merges sorted chunk files into one positions file.
fn merge_chunks(chunks: &[PathBuf], out: &Path, count: u64) -> Result<(), String> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut readers = Vec::new();
    for c in chunks {
        readers.push(BufReader::with_capacity(
            1 << 20,
            File::open(c).map_err(|e| io(c, e))?,
        ));
    }
    let next = |r: &mut BufReader<File>| -> Option<u128> {
        let mut b = [0u8; PAIR];
        r.read_exact(&mut b).ok()?;
        let key = u64::from_le_bytes(b[..8].try_into().ok()?);
        let game = u32::from_le_bytes(b[8..].try_into().ok()?);
        Some((key as u128) << 32 | game as u128)
    };
    let mut heap = BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        if let Some(p) = next(r) {
            heap.push(Reverse((p, i)));
        }
    }
    let mut w = SumWriter::create(out)?;
    let go = || -> std::io::Result<()> {
        w.write_all(POS_MAGIC)?;
        w.write_all(&count.to_le_bytes())?;
        while let Some(Reverse((p, i))) = heap.pop() {
            w.write_all(&pair_bytes(p))?;
            if let Some(n) = next(&mut readers[i]) {
                heap.push(Reverse((n, i)));
            }
        }
        w.finish()
    };
    go().map_err(|e| io(out, e))
}

/// A segment opened for queries: both files memory-mapped, read through their checksums
/// ([`Checked`]): a damaged block is an error naming the file.
pub struct Segment {
    pos: Checked,
    moves: Checked,
    count: usize,
    first_game: u32,
    games: u32,
    /// Where the offsets start in `moves`.
    offsets_at: usize,
}

fn map(path: &Path) -> Result<memmap2::Mmap, String> {
    // Never waits on a FIFO put in its place; a folder or a device is refused by name too.
    let f = crate::load::open_regular(path).map_err(|e| damaged(path, &e.to_string()))?;
    // SAFETY: the index files are written once and renamed into place, never modified while
    // mapped; a file truncated by another program is detected by the size checks below only
    // when it happens before opening (the same risk every mmap-based reader takes).
    unsafe { memmap2::Mmap::map(&f) }.map_err(|e| io(path, e))
}

impl Segment {
    /// Opens segment `id` in `dir`: the checksums' trailers and tables, the header and the
    /// footer are checked now, every other block when it is first read.
    pub fn open(dir: &Path, id: i64) -> Result<Segment, String> {
        let ppath = pos_path(dir, id);
        let mpath = moves_path(dir, id);
        let pos = Checked::open(&ppath)?;
        let moves = Checked::open(&mpath)?;
        if pos.len() < 16 || pos.get(0..8)? != POS_MAGIC {
            return Err(damaged(&ppath, "no header"));
        }
        let count = u64::from_le_bytes(pos.get(8..16)?.try_into().expect("8 bytes")) as usize;
        if count.checked_mul(PAIR).and_then(|n| n.checked_add(16)) != Some(pos.len()) {
            return Err(damaged(&ppath, "its size is not its count"));
        }
        let n = moves.len();
        if n < 24 || moves.get(n - 8..n)? != MOVES_MAGIC {
            return Err(damaged(&mpath, "no footer"));
        }
        let footer = moves.get(n - 24..n - 8)?;
        let le32 = |at: usize| u32::from_le_bytes(footer[at..at + 4].try_into().expect("4"));
        let first_game = le32(0);
        let games = le32(4);
        let data = u64::from_le_bytes(footer[8..16].try_into().expect("8")) as usize;
        let offsets_at = data;
        if (games as usize + 1)
            .checked_mul(8)
            .and_then(|o| o.checked_add(data.checked_add(24)?))
            != Some(n)
        {
            return Err(damaged(&mpath, "its footer does not fit"));
        }
        Ok(Segment {
            pos,
            moves,
            count,
            first_game,
            games,
            offsets_at,
        })
    }

    /// Checks every block of both files (`kifview index`, `--check`).
    pub fn verify(&self) -> Result<(), String> {
        self.pos.verify()?;
        self.moves.verify()
    }

    #[inline]
    fn key_at(&self, i: usize) -> Result<u64, String> {
        let at = 16 + i * PAIR;
        Ok(u64::from_le_bytes(
            self.pos.get(at..at + 8)?.try_into().expect("8 bytes"),
        ))
    }
    #[inline]
    fn game_at(&self, i: usize) -> Result<u32, String> {
        let at = 16 + i * PAIR + 8;
        Ok(u32::from_le_bytes(
            self.pos.get(at..at + 4)?.try_into().expect("4 bytes"),
        ))
    }

    /// The games whose keys include `key`, in id order.
    pub fn games_with(&self, key: u64, out: &mut Vec<u32>) -> Result<(), String> {
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.key_at(mid)? < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut i = lo;
        while i < self.count && self.key_at(i)? == key {
            out.push(self.game_at(i)?);
            i += 1;
        }
        Ok(())
    }

    /// The (key, game) pair at `i` (of [`pairs`](Self::pairs)), in order.
    pub fn pair(&self, i: usize) -> Result<(u64, u32), String> {
        Ok((self.key_at(i)?, self.game_at(i)?))
    }

    /// The ids this segment holds: `first..end`.
    pub fn game_ids(&self) -> std::ops::Range<u32> {
        self.first_game..self.first_game + self.games
    }

    /// A stored game's bytes as [`SegmentWriter::add_raw`] takes them (`None` when not held
    /// here).
    pub fn raw(&self, game: u32) -> Result<Option<&[u8]>, String> {
        if !self.holds(game) {
            return Ok(None);
        }
        let i = (game - self.first_game) as usize;
        let off = |k: usize| -> Result<usize, String> {
            let at = self.offsets_at + k * 8;
            Ok(u64::from_le_bytes(self.moves.get(at..at + 8)?.try_into().expect("8")) as usize)
        };
        let (a, b) = (off(i)?, off(i + 1)?);
        if a > b || b > self.offsets_at {
            return Err(damaged(&self.moves.path, &format!("game {game}'s offsets")));
        }
        self.moves.get(a..b).map(Some)
    }

    /// For a stored game that starts at the start position: `Some(its first move's code)`
    /// (`Some(None)` when it has no move); `None` for any other game. Reads three fields of its
    /// bytes, not the whole game ([`view`](Self::view)).
    pub fn start_move(&self, game: u32) -> Result<Option<Option<u16>>, String> {
        Ok(match self.raw(game)? {
            // No initial position, then the number of lines, the main line's length, its moves.
            Some([0, _, _, _, _, a, b, c, d, rest @ ..]) => {
                Some(match (u32::from_le_bytes([*a, *b, *c, *d]), rest) {
                    (1.., [c, d, ..]) => Some(u16::from_le_bytes([*c, *d])),
                    _ => None,
                })
            }
            Some([0, ..]) => Some(None),
            _ => None,
        })
    }

    pub fn holds(&self, game: u32) -> bool {
        game >= self.first_game && game - self.first_game < self.games
    }

    /// The stored game, read in place (`None` when it is not in this segment).
    pub fn view(&self, game: u32) -> Result<Option<GameView<'_>>, String> {
        let Some(raw) = self.raw(game)? else {
            return Ok(None);
        };
        parse_game(raw)
            .map(Some)
            .ok_or_else(|| damaged(&self.moves.path, &format!("game {game}'s bytes")))
    }

    /// The stored game, copied out.
    pub fn game(&self, game: u32) -> Option<StoredGame> {
        let v = self.view(game).ok()??;
        Some(StoredGame {
            initial: v.initial.map(String::from),
            lines: v
                .lines
                .iter()
                .map(|l| StoredLine {
                    parent: l.parent,
                    from: l.from,
                    alt: l.alt,
                    codes: GameView::codes(l.codes).collect(),
                })
                .collect(),
        })
    }

    pub fn pairs(&self) -> usize {
        self.count
    }
    /// Bytes on disk (both files).
    pub fn bytes(&self) -> u64 {
        (self.pos.file_len() + self.moves.file_len()) as u64
    }
}

/// A stored game's bytes read ([`SegmentWriter::add`]'s layout); `None` when they do not
/// parse.
fn parse_game(mut r: &[u8]) -> Option<GameView<'_>> {
    let mut take = |n: usize| -> Option<&[u8]> {
        let (a, b) = (r.get(..n)?, r.get(n..)?);
        r = b;
        Some(a)
    };
    let u16_of = |b: &[u8]| u16::from_le_bytes([b[0], b[1]]);
    let u32_of = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let initial = match take(1)?[0] {
        0 => None,
        _ => {
            let len = u16_of(take(2)?) as usize;
            Some(std::str::from_utf8(take(len)?).ok()?)
        }
    };
    let n = u32_of(take(4)?) as usize;
    let mut lines: smallvec::SmallVec<[LineView; 2]> = smallvec::SmallVec::new();
    for i in 0..n {
        let (parent, from, alt) = if i == 0 {
            (0, 0, 0)
        } else {
            (u32_of(take(4)?), u32_of(take(4)?), u32_of(take(4)?))
        };
        // A variation leaves an earlier line at one of its plies (after its last move too:
        // a variation of its ending), as a variation (alt 1 or more).
        if i > 0 {
            let p = lines.get(parent as usize)?;
            if from < p.from || u64::from(from) > u64::from(p.from) + p.len() as u64 || alt == 0 {
                return None;
            }
        }
        let len = u32_of(take(4)?) as usize;
        let codes = take(len.checked_mul(2)?)?;
        lines.push(LineView {
            parent,
            from,
            alt,
            codes,
        });
    }
    Some(GameView { initial, lines })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_written_in_any_order_are_found_by_key_with_their_games() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = SegmentWriter::create(dir.path(), 1, 10).unwrap();
        let g = StoredGame {
            initial: None,
            lines: vec![StoredLine::main(vec![1, 2, 3])],
        };
        assert_eq!(w.add(&g, &[5, 1, 9]).unwrap(), 10);
        let h = StoredGame {
            initial: Some("9/9/9/9/9/9/9/9/9 b - 1".into()),
            lines: vec![
                StoredLine::main(vec![]),
                StoredLine {
                    parent: 0,
                    from: 0,
                    alt: 1,
                    codes: vec![7],
                },
            ],
        };
        assert_eq!(w.add(&h, &[9, 4]).unwrap(), 11);
        assert_eq!(w.finish().unwrap(), (2, 5));
        let s = Segment::open(dir.path(), 1).unwrap();
        let mut out = Vec::new();
        s.games_with(9, &mut out).unwrap();
        assert_eq!(out, [10, 11]);
        out.clear();
        s.games_with(3, &mut out).unwrap();
        assert!(out.is_empty());
        assert_eq!(
            s.game(10).unwrap().lines,
            vec![StoredLine::main(vec![1, 2, 3])]
        );
        let back = s.game(11).unwrap();
        assert_eq!(back.initial.as_deref(), Some("9/9/9/9/9/9/9/9/9 b - 1"));
        assert_eq!(back.lines[1].codes, vec![7]);
        assert_eq!((back.lines[1].from, back.lines[1].alt), (0, 1));
        assert!(s.game(12).is_none());
    }

    #[test]
    fn pairs_sorted_in_chunks_on_disk_merge_into_one_sorted_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = SegmentWriter::create(dir.path(), 2, 1)
            .unwrap()
            .chunk_size(4);
        let g = StoredGame {
            initial: None,
            lines: vec![StoredLine::main(vec![])],
        };
        let mut want = Vec::new();
        for game in 1..=9u32 {
            let keys: Vec<u64> = (0..3)
                .map(|k| u64::from((game * 7 + k * 13) % 11))
                .collect();
            let mut keys = keys;
            keys.sort_unstable();
            keys.dedup();
            want.extend(keys.iter().map(|&k| (k, game)));
            w.add(&g, &keys).unwrap();
        }
        let (games, pairs) = w.finish().unwrap();
        assert_eq!((games, pairs as usize), (9, want.len()));
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 2, "chunks removed: {names:?}");
        let s = Segment::open(dir.path(), 2).unwrap();
        for key in 0..11u64 {
            let mut got = Vec::new();
            s.games_with(key, &mut got).unwrap();
            let mut exp: Vec<u32> = want.iter().filter(|p| p.0 == key).map(|p| p.1).collect();
            exp.sort_unstable();
            assert_eq!(got, exp, "key {key}");
        }
    }

    #[test]
    fn a_truncated_file_is_damaged_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = SegmentWriter::create(dir.path(), 1, 0).unwrap();
        w.add(
            &StoredGame {
                initial: None,
                lines: vec![StoredLine::main(vec![1])],
            },
            &[1, 2],
        )
        .unwrap();
        w.finish().unwrap();
        let p = pos_path(dir.path(), 1);
        let len = std::fs::metadata(&p).unwrap().len();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&p)
            .unwrap()
            .set_len(len - 3)
            .unwrap();
        let e = Segment::open(dir.path(), 1).err().unwrap();
        assert!(e.contains("damaged"), "{e}");
    }
}
