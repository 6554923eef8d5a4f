//! YaneuraOu's binary book, `.ybb` (`YANE-BINBOOK-V1`; spec: `BookMinerCpp/docs/04-ybb.md` in
//! yaneurao/YaneuraOu-ScriptCollection).
//!
//! Little-endian throughout: a 32-byte header (the magic `YANE-BINBOOK-V1\0`, the record count
//! (u64), flags (u64; bit 0: moves carry a depth)), then an index of 44-byte records strictly
//! sorted by their PackedSfen (32 bytes, [`super::packed`]; u64 offset of the position's moves
//! from the end of the index, u16 ply, u16 move count), then the moves: `Move16` (u16) and the
//! value (i16), and the depth (u16) when flag bit 0 is set.
//!
//! The format holds no count, reply or note: a book written as `.ybb` loses them (counted in
//! [`super::Losses`]); YaneuraOu reads every count as 0, and so does kifview. A value beyond
//! ±32767 is clamped, a missing value written as 0.
//!
//! [`Ybb`] answers lookups straight from the file (memory-mapped, binary search of the index):
//! opening costs the same for any size.

use super::packed::{self, PackedSfen};
use super::placement::Placement;
use super::{BookError, BookMove, Data, Encoded, Entry, Lookup, Losses, Read, Result, Warning};
use crate::core::rules::Position;

pub const MAGIC: &[u8; 16] = b"YANE-BINBOOK-V1\0";
const HEADER: usize = 32;
const RECORD: usize = 44;
/// Flag bit 0: each move has a depth.
pub const FLAG_DEPTH: u64 = 1;

/// A `.ybb` book in memory or mapped from its file.
pub struct Ybb {
    data: Data,
    count: usize,
    flags: u64,
}

/// One index record.
struct Record {
    packed: PackedSfen,
    offset: u64,
    ply: u16,
    moves: u16,
}

impl Ybb {
    /// Checks the header and that the index fits in the bytes (each position's moves are
    /// checked when read).
    pub fn new(data: Data) -> Result<Ybb> {
        let bytes: &[u8] = &data;
        if bytes.len() < HEADER || &bytes[..16] != MAGIC {
            return Err(BookError::format(
                "expected the magic `YANE-BINBOOK-V1` of a .ybb book at byte 0",
            ));
        }
        let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        let flags = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        if flags & !FLAG_DEPTH != 0 {
            return Err(BookError::format(format!(
                "unknown flags {flags:#x} in the .ybb header (known: 1, moves with a depth)"
            )));
        }
        let index_end = count
            .checked_mul(RECORD as u64)
            .and_then(|n| n.checked_add(HEADER as u64))
            .filter(|&n| n <= bytes.len() as u64)
            .ok_or_else(|| {
                BookError::format(format!(
                    "the header says {count} positions, whose index needs more than the file's {} bytes",
                    bytes.len()
                ))
            })?;
        let _ = index_end;
        Ok(Ybb {
            count: count as usize,
            flags,
            data,
        })
    }

    fn move_size(&self) -> usize {
        if self.flags & FLAG_DEPTH != 0 { 6 } else { 4 }
    }

    fn record(&self, i: usize) -> Record {
        let at = HEADER + i * RECORD;
        let r = &self.data[at..at + RECORD];
        Record {
            packed: r[..32].try_into().expect("32 bytes"),
            offset: u64::from_le_bytes(r[32..40].try_into().expect("8")),
            ply: u16::from_le_bytes(r[40..42].try_into().expect("2")),
            moves: u16::from_le_bytes(r[42..44].try_into().expect("2")),
        }
    }

    fn moves_of(&self, i: usize, rec: &Record) -> Result<Vec<BookMove>> {
        let base = (HEADER + self.count * RECORD) as u64;
        let size = self.move_size();
        let start = base.checked_add(rec.offset);
        let end = start.and_then(|s| s.checked_add(rec.moves as u64 * size as u64));
        let (Some(start), Some(end)) = (start, end) else {
            return Err(self.bad(i, "its moves' offset is out of range"));
        };
        if end > self.data.len() as u64 {
            return Err(self.bad(i, "its moves run past the end of the file"));
        }
        let bytes = &self.data[start as usize..end as usize];
        bytes
            .chunks_exact(size)
            .map(|m| {
                let code = u16::from_le_bytes([m[0], m[1]]);
                let usi = packed::from_move16(code)
                    .ok_or_else(|| self.bad(i, &format!("the move code {code:#06x} is no move")))?;
                Ok(BookMove {
                    usi,
                    ponder: None,
                    value: Some(i16::from_le_bytes([m[2], m[3]]) as i32),
                    depth: if size == 6 {
                        u16::from_le_bytes([m[4], m[5]]) as u32
                    } else {
                        0
                    },
                    count: 0,
                    comment: None,
                })
            })
            .collect()
    }

    fn bad(&self, i: usize, what: &str) -> BookError {
        BookError::format(format!("position record {}: {what}", i + 1))
    }

    fn entry_at(&self, i: usize) -> Result<(String, Entry)> {
        let rec = self.record(i);
        let pos = packed::unpack(&rec.packed)
            .map_err(|e| self.bad(i, &format!("its PackedSfen is no position ({e})")))?;
        let moves = self.moves_of(i, &rec)?;
        Ok((
            super::key_of(&pos),
            Entry {
                ply: rec.ply as u32,
                comment: None,
                moves,
            },
        ))
    }

    /// The index of the record of `packed`, by binary search.
    fn find(&self, packed: &PackedSfen) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let at = HEADER + mid * RECORD;
            match self.data[at..at + 32].cmp(&packed[..]) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The first record not after the one before it in PackedSfen order (1-based), if any: a
    /// binary search cannot find every position of such a file.
    pub fn unsorted_at(&self) -> Option<u64> {
        (1..self.count)
            .find(|&i| {
                let a = HEADER + (i - 1) * RECORD;
                let b = HEADER + i * RECORD;
                self.data[a..a + 32] >= self.data[b..b + 32]
            })
            .map(|i| i as u64 + 1)
    }
}

impl Lookup for Ybb {
    fn entry(&self, key: &str) -> Result<Option<Entry>> {
        let pos = Position::from_sfen(key).map_err(|e| BookError::BadKey(e.0))?;
        let Ok(p) = packed::pack(&pos) else {
            return Ok(None);
        };
        match self.find(&p) {
            None => Ok(None),
            Some(i) => self.entry_at(i).map(|(_, e)| Some(e)),
        }
    }
    fn len(&self) -> usize {
        self.count
    }
    fn visit(&self, f: &mut dyn FnMut(&str, Entry) -> Result<()>) -> Result<()> {
        for i in 0..self.count {
            let (k, e) = self.entry_at(i)?;
            f(&k, e)?;
        }
        Ok(())
    }
}

/// Reads a `.ybb` book into memory; a record that cannot be read is named and skipped.
pub fn read(bytes: &[u8]) -> Result<Read> {
    let ybb = Ybb::new(Data::Owned(bytes.to_vec()))?;
    let mut out = Read::default();
    for i in 0..ybb.count {
        match ybb.entry_at(i) {
            Ok((k, e)) => {
                if out.book.insert(k, e).is_some() {
                    out.warnings.push(Warning {
                        line: 0,
                        message: format!(
                            "position record {}: a position given again: the last kept",
                            i + 1
                        ),
                    });
                }
            }
            Err(e) => out.warnings.push(Warning {
                line: 0,
                message: format!("{e}: skipped"),
            }),
        }
    }
    Ok(out)
}

/// One move as the file holds it: `Move16`, value, depth.
type Packed = (u16, i16, u16);

/// One position as the file holds it (its PackedSfen, ply and moves), counting in `losses`
/// what the format cannot hold; `None` when it is not written (no moves, or no PackedSfen).
fn prepare(
    key: &str,
    entry: Entry,
    losses: &mut Losses,
) -> Result<Option<(PackedSfen, u16, Vec<Packed>)>> {
    if entry.moves.is_empty() {
        losses.add(
            "notes of positions with no moves",
            entry.comment.is_some() as u64,
        );
        return Ok(None);
    }
    // A key as `key_of` writes it is packed from its text; another is read as a position.
    let packed = match Placement::parse_key(key.as_bytes()) {
        Some(placement) => packed::pack_placement(&placement),
        None => packed::pack(&Position::from_sfen(key).map_err(|e| BookError::BadKey(e.0))?),
    };
    let Ok(p) = packed else {
        losses.add("positions a set of pieces cannot make (not packable)", 1);
        return Ok(None);
    };
    losses.add("notes", entry.comment.is_some() as u64);
    if entry.ply > u16::MAX as u32 {
        losses.add("plies above 65535 (written as 65535)", 1);
    }
    let mut moves = entry.moves;
    if moves.len() > u16::MAX as usize {
        losses.add(
            "moves past 65535 in a position",
            (moves.len() - u16::MAX as usize) as u64,
        );
        moves.truncate(u16::MAX as usize);
    }
    let packed_moves = moves
        .iter()
        .map(|m| {
            losses.add("counts", (m.count != 0) as u64);
            losses.add("replies (ponder)", m.ponder.is_some() as u64);
            losses.add("notes", m.comment.is_some() as u64);
            let v = match m.value {
                None => {
                    losses.add("missing values (written as 0)", 1);
                    0
                }
                Some(v) if v > i16::MAX as i32 || v < -(i16::MAX as i32) => {
                    losses.add("values beyond ±32767 (clamped)", 1);
                    v.clamp(-(i16::MAX as i32), i16::MAX as i32) as i16
                }
                Some(v) => v as i16,
            };
            if m.depth > u16::MAX as u32 {
                losses.add("depths above 65535 (written as 65535)", 1);
            }
            (
                packed::move16(m.usi),
                v,
                m.depth.min(u16::MAX as u32) as u16,
            )
        })
        .collect();
    Ok(Some((
        p,
        entry.ply.min(u16::MAX as u32) as u16,
        packed_moves,
    )))
}

/// Appends a position's moves, with their depths when `depth`.
fn put_moves(out: &mut Vec<u8>, moves: impl Iterator<Item = Packed>, depth: bool) {
    for (code, v, d) in moves {
        out.extend_from_slice(&code.to_le_bytes());
        out.extend_from_slice(&v.to_le_bytes());
        if depth {
            out.extend_from_slice(&d.to_le_bytes());
        }
    }
}

fn header(count: u64, depth: bool) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&(if depth { FLAG_DEPTH } else { 0 }).to_le_bytes());
    out
}

fn index_record(p: &PackedSfen, offset: u64, ply: u16, moves: usize) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[..32].copy_from_slice(p);
    r[32..40].copy_from_slice(&offset.to_le_bytes());
    r[40..42].copy_from_slice(&ply.to_le_bytes());
    r[42..44].copy_from_slice(&(moves as u16).to_le_bytes());
    r
}

/// Writes `book` as `.ybb`: positions sorted by PackedSfen, moves in the book's order.
pub fn write(book: &dyn Lookup) -> Result<Encoded> {
    let mut losses = Losses::default();
    let mut all = Vec::with_capacity(book.len());
    book.visit(&mut |key, entry| {
        all.extend(prepare(key, entry, &mut losses)?);
        Ok(())
    })?;
    all.sort_unstable_by_key(|a| a.0);
    let depth = all.iter().any(|(_, _, ms)| ms.iter().any(|m| m.2 > 0));
    let size = if depth { 6 } else { 4 };
    let moves_len: usize = all.iter().map(|r| r.2.len() * size).sum();
    let mut out = Vec::with_capacity(HEADER + all.len() * RECORD + moves_len);
    out.extend_from_slice(&header(all.len() as u64, depth));
    let mut offset = 0u64;
    for (p, ply, moves) in &all {
        out.extend_from_slice(&index_record(p, offset, *ply, moves.len()));
        offset += (moves.len() * size) as u64;
    }
    for (_, _, moves) in all {
        put_moves(&mut out, moves.into_iter(), depth);
    }
    Ok(Encoded { bytes: out, losses })
}

/// Writes the positions `visit` gives as `.ybb` to `out` without holding them: an external
/// sort by PackedSfen spilling into `tmp` (beside the output), the index streamed to `out` and
/// the moves to a temporary file in `tmp` appended after it (removed in any case); `stop`
/// ends it early. For `kifview book convert` of books of any size. A position given twice
/// (a text book's duplicate) keeps its first record, counted in the losses.
pub fn write_stream(
    visit: super::PositionFeed<'_>,
    out: &mut std::fs::File,
    tmp: &std::path::Path,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<Losses> {
    use std::io::{Seek, SeekFrom, Write};
    let mut losses = Losses::default();
    let mut sort = super::extsort::ExternalSort::new(tmp, stop);
    let mut depth = false;
    let mut payload = Vec::new();
    visit(&mut |key, entry| {
        let Some((p, ply, moves)) = prepare(key, entry, &mut losses)? else {
            return Ok(());
        };
        depth |= moves.iter().any(|m| m.2 > 0);
        payload.clear();
        payload.extend_from_slice(&ply.to_le_bytes());
        put_moves(&mut payload, moves.into_iter(), true);
        sort.push(&p, &payload)
    })?;
    let moves_path = tmp.join(format!(".kifview-sort-{}-moves.tmp", std::process::id()));
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| BookError::Io { path, source }
    };
    let guard = RemoveOnDrop(&moves_path);
    let mut moves_file = std::fs::File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(guard.0)
        .map_err(io(guard.0))?;
    let mut index = std::io::BufWriter::with_capacity(1 << 20, &mut *out);
    let mut moves_out = std::io::BufWriter::with_capacity(1 << 20, &mut moves_file);
    index.write_all(&header(0, depth)).map_err(io(tmp))?;
    let (mut count, mut offset, mut last) = (0u64, 0u64, None::<PackedSfen>);
    let mut bytes = Vec::new();
    sort.finish(&mut |key, payload| {
        let p: PackedSfen = key.try_into().expect("32 bytes pushed");
        if last == Some(p) {
            losses.add("positions given twice (the first kept)", 1);
            return Ok(());
        }
        last = Some(p);
        let ply = u16::from_le_bytes([payload[0], payload[1]]);
        let n = (payload.len() - 2) / 6;
        bytes.clear();
        put_moves(
            &mut bytes,
            payload[2..].chunks_exact(6).map(|m| {
                (
                    u16::from_le_bytes([m[0], m[1]]),
                    i16::from_le_bytes([m[2], m[3]]),
                    u16::from_le_bytes([m[4], m[5]]),
                )
            }),
            depth,
        );
        index
            .write_all(&index_record(&p, offset, ply, n))
            .map_err(io(tmp))?;
        moves_out.write_all(&bytes).map_err(io(guard.0))?;
        offset += bytes.len() as u64;
        count += 1;
        Ok(())
    })?;
    moves_out.flush().map_err(io(guard.0))?;
    drop(moves_out);
    index.flush().map_err(io(tmp))?;
    drop(index);
    moves_file.seek(SeekFrom::Start(0)).map_err(io(guard.0))?;
    std::io::copy(&mut moves_file, out).map_err(io(tmp))?;
    out.seek(SeekFrom::Start(0)).map_err(io(tmp))?;
    out.write_all(&header(count, depth)).map_err(io(tmp))?;
    out.seek(SeekFrom::End(0)).map_err(io(tmp))?;
    Ok(losses)
}

/// Removes a temporary file when dropped (on success, an error or an early stop).
struct RemoveOnDrop<'a>(&'a std::path::Path);

impl Drop for RemoveOnDrop<'_> {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.0);
    }
}
