//! Compaction: a game forgotten by an update (its file deleted or changed) leaves its pairs and
//! moves in the segment that stored it, skipped by queries. Once such games are a quarter of
//! the stored ones, or there are more than [`MAX_SEGMENTS`] segments, every segment is merged
//! into one holding only the catalog's games, renumbered in the same order (ids `first..`, no
//! holes), so the position index shrinks back to the live games.
//!
//! Crash-safe in this order: the new segment's files are written under a new id; then one
//! catalog transaction renumbers the games and swaps the segments (before it, the old
//! segments are the index; the new files are the catalog's next segment's, which it owns and
//! the next update removes), which also makes the old segments' files the catalog's to remove
//! (`owned`: a kill before they are gone leaves them to the next update); then the old
//! files are removed and the update writes `games.bin`, which it removed before its first
//! commit: an index killed before that has none, and queries build its table from the
//! catalog (`super::games_bin`), never read stale ids.

use super::catalog::Catalog;
use super::segment::{Segment, SegmentWriter, SumWriter, pos_path};
use std::io::Write;
use std::path::Path;

/// More segments than this are merged even without forgotten games (each is a binary search
/// per query).
pub const MAX_SEGMENTS: usize = 8;

/// Why the segments should be merged now, if they should.
pub fn needed(cat: &Catalog) -> Result<Option<String>, String> {
    let segments = cat.segments()?.len();
    let (live, _, stored) = cat.counts()?;
    let dead = stored.saturating_sub(live);
    if segments > MAX_SEGMENTS {
        return Ok(Some(format!("{segments} segments")));
    }
    if dead > 0 && dead * 4 >= stored {
        return Ok(Some(format!("{dead} of {stored} stored games forgotten")));
    }
    Ok(None)
}

/// What a compaction did: pairs (position, game) before and after.
#[derive(Clone, Debug, Default)]
pub struct Compacted {
    pub why: String,
    pub pairs_before: u64,
    pub pairs_after: u64,
}

/// Merges every segment of the index in `dir` into one of the catalog's games (see the module
/// docs); `new_id` is the id the merged segment gets.
pub fn run(dir: &Path, cat: &Catalog, new_id: i64, why: String) -> Result<Compacted, String> {
    let ids = cat.segments()?;
    let mut segs = Vec::with_capacity(ids.len());
    for &id in &ids {
        segs.push(Segment::open(dir, id)?);
    }
    let live = cat.live_ids()?;
    let first = segs.first().map_or(1, |s| s.game_ids().start);
    let end = segs.last().map_or(first, |s| s.game_ids().end);
    // Old id -> new id (0: not kept).
    let mut remap = vec![0u32; end as usize];
    let mut writer = SegmentWriter::create(dir, new_id, first)?;
    for (kept, &g) in live.iter().enumerate() {
        // A game with no stored bytes (none should be) stays in no answer, under its new id.
        let bytes = match segs.iter().find(|s| s.holds(g)) {
            Some(s) => s.raw(g)?,
            None => None,
        };
        writer.add_raw(bytes.unwrap_or_default())?;
        if let Some(slot) = remap.get_mut(g as usize) {
            *slot = first + kept as u32;
        }
    }
    let games = writer.finish_raw()?;
    let pairs_before = segs.iter().map(|s| s.pairs() as u64).sum();
    let pairs = merge_pairs(&segs, &remap, &pos_path(dir, new_id))?;
    drop(segs);
    cat.db.execute_batch("BEGIN").map_err(|e| e.to_string())?;
    // The old segments' files become the catalog's to remove (after the commit).
    let old: Vec<String> = ids
        .iter()
        .flat_map(|&id| super::segment::segment_files(id))
        .collect();
    let swapped = cat
        .renumber(&remap)
        .and_then(|()| cat.replace_segments(new_id, first, games, pairs))
        .and_then(|()| cat.own(&old))
        .and_then(|()| cat.set_meta("next_segment", &(new_id + 1).to_string()));
    if let Err(e) = swapped {
        let _ = cat.db.execute_batch("ROLLBACK");
        return Err(e);
    }
    cat.commit()?;
    Ok(Compacted {
        why,
        pairs_before,
        pairs_after: pairs,
    })
}

/// Writes the pairs of every segment whose game is kept, with its new id, sorted (a k-way
/// merge of the sorted segments: renumbering keeps the order of games). Returns the count.
fn merge_pairs(segs: &[Segment], remap: &[u32], out: &Path) -> Result<u64, String> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let io = |e: std::io::Error| format!("{}: {e}", out.display());
    let mut at = vec![0usize; segs.len()];
    let mut heap = BinaryHeap::new();
    for (i, s) in segs.iter().enumerate() {
        if s.pairs() > 0 {
            heap.push(Reverse((s.pair(0)?, i)));
        }
    }
    // The count first (the header holds it, and the file's checksums are written as it goes).
    let mut count = 0u64;
    for s in segs {
        for i in 0..s.pairs() {
            let (_, game) = s.pair(i)?;
            if remap.get(game as usize).is_some_and(|&n| n != 0) {
                count += 1;
            }
        }
    }
    let mut w = SumWriter::create(out)?;
    w.write_all(super::segment::POS_MAGIC).map_err(io)?;
    w.write_all(&count.to_le_bytes()).map_err(io)?;
    while let Some(Reverse(((key, game), i))) = heap.pop() {
        let new = remap.get(game as usize).copied().unwrap_or(0);
        if new != 0 {
            w.write_all(&key.to_le_bytes()).map_err(io)?;
            w.write_all(&new.to_le_bytes()).map_err(io)?;
        }
        at[i] += 1;
        if at[i] < segs[i].pairs() {
            heap.push(Reverse((segs[i].pair(at[i])?, i)));
        }
    }
    w.finish().map_err(io)?;
    Ok(count)
}
