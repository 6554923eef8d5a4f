//! An external sort of records (a key and a payload, both bytes) for books too big to sort in
//! memory, as YaneuraOu's conversion scripts sort theirs: records are gathered in a chunk of
//! at most [`CHUNK`] bytes, each full chunk is sorted in memory and spilled to a run file
//! (`.kifview-sort-PID-N.tmp` in the directory given: beside the output, or the cache's), and
//! [`ExternalSort::finish`] merges the runs (a k-way merge through a heap) handing the records
//! back in key order; records with equal keys come back in the order they were pushed. Memory
//! is the chunk's, whatever the number of records. The run files are removed when the sort is
//! dropped: on success, on an error and when a stop flag (Ctrl-C) ends it early.

use super::{BookError, Result};
use std::cmp::Ordering as CmpOrdering;
use std::collections::BinaryHeap;
use std::collections::binary_heap::PeekMut;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The bytes of keys and payloads a chunk holds before it is spilled.
pub const CHUNK: usize = 96 << 20;

/// What [`ExternalSort::finish`] hands each record (key, payload) to.
pub type Each<'a> = &'a mut dyn FnMut(&[u8], &[u8]) -> Result<()>;

/// The sort: push records, then [`ExternalSort::finish`].
pub struct ExternalSort<'a> {
    dir: PathBuf,
    runs: Vec<PathBuf>,
    /// The chunk: keys and payloads one after another, and (start, key length, payload length).
    arena: Vec<u8>,
    index: Vec<(usize, u32, u32)>,
    limit: usize,
    stop: Option<&'a AtomicBool>,
    pushed: u64,
}

/// Why a sort stopped early (the stop flag was set: Ctrl-C, SIGTERM).
pub const INTERRUPTED: &str = "interrupted: nothing written (the temporary files are removed)";

impl<'a> ExternalSort<'a> {
    /// A sort spilling its runs into `dir`; `stop`, when set, ends it with an error.
    pub fn new(dir: &Path, stop: Option<&'a AtomicBool>) -> ExternalSort<'a> {
        ExternalSort::with_chunk(dir, stop, CHUNK)
    }

    /// [`ExternalSort::new`] with a chunk of `limit` bytes (tests use small ones to spill).
    pub fn with_chunk(dir: &Path, stop: Option<&'a AtomicBool>, limit: usize) -> ExternalSort<'a> {
        ExternalSort {
            dir: dir.to_path_buf(),
            runs: Vec::new(),
            arena: Vec::new(),
            index: Vec::new(),
            limit: limit.max(1),
            stop,
            pushed: 0,
        }
    }

    fn check_stop(&self) -> Result<()> {
        match self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            true => Err(BookError::format(INTERRUPTED)),
            false => Ok(()),
        }
    }

    /// How many records were pushed.
    pub fn len(&self) -> u64 {
        self.pushed
    }

    pub fn is_empty(&self) -> bool {
        self.pushed == 0
    }

    /// How many run files were spilled so far.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Adds a record.
    pub fn push(&mut self, key: &[u8], payload: &[u8]) -> Result<()> {
        let (Ok(k), Ok(p)) = (u32::try_from(key.len()), u32::try_from(payload.len())) else {
            return Err(BookError::format("a book record of more than 4 GiB"));
        };
        self.index.push((self.arena.len(), k, p));
        self.arena.extend_from_slice(key);
        self.arena.extend_from_slice(payload);
        self.pushed += 1;
        if self.arena.len() >= self.limit {
            self.check_stop()?;
            self.spill()?;
        }
        Ok(())
    }

    fn key(&self, i: usize) -> &[u8] {
        let (at, k, _) = self.index[i];
        &self.arena[at..at + k as usize]
    }

    /// The chunk's record order, sorted by key (stable: equal keys in push order).
    fn sorted_order(&self) -> Vec<usize> {
        // Each record with its key's first 8 bytes as a big-endian number (zeros past a short
        // key), which order as those bytes do: most comparisons end there, without reaching
        // into the chunk. Equal prefixes fall back to the whole keys, then to the push order,
        // so the unstable sort gives the stable order.
        let mut order: Vec<(u64, usize)> = (0..self.index.len())
            .map(|i| {
                let key = self.key(i);
                let mut prefix = [0u8; 8];
                let n = key.len().min(8);
                prefix[..n].copy_from_slice(&key[..n]);
                (u64::from_be_bytes(prefix), i)
            })
            .collect();
        order.sort_unstable_by(|a, b| {
            (a.0.cmp(&b.0))
                .then_with(|| self.key(a.1).cmp(self.key(b.1)))
                .then(a.1.cmp(&b.1))
        });
        order.into_iter().map(|(_, i)| i).collect()
    }

    /// Sorts the chunk and writes it to a new run file.
    fn spill(&mut self) -> Result<()> {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let order = self.sorted_order();
        let path = self.dir.join(format!(
            ".kifview-sort-{}-{}.tmp",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        let io = |source| BookError::Io {
            path: path.clone(),
            source,
        };
        let file = File::create(&path).map_err(io)?;
        // Named before anything is written, so that a failure below still removes it.
        self.runs.push(path.clone());
        let mut w = BufWriter::with_capacity(1 << 20, file);
        for i in order {
            let (at, k, p) = self.index[i];
            w.write_all(&k.to_le_bytes()).map_err(io)?;
            w.write_all(&p.to_le_bytes()).map_err(io)?;
            w.write_all(&self.arena[at..at + k as usize + p as usize])
                .map_err(io)?;
        }
        w.flush().map_err(io)?;
        self.arena.clear();
        self.index.clear();
        Ok(())
    }

    /// Calls `f` with every record in key order (equal keys in push order), then removes the
    /// run files. Stops at the first error `f` returns.
    pub fn finish(mut self, f: Each<'_>) -> Result<()> {
        self.check_stop()?;
        if self.runs.is_empty() {
            // Everything fits in memory: no file.
            for i in self.sorted_order() {
                let (at, k, p) = self.index[i];
                let rec = &self.arena[at..at + k as usize + p as usize];
                f(&rec[..k as usize], &rec[k as usize..])?;
            }
            return Ok(());
        }
        if !self.index.is_empty() {
            self.spill()?;
        }
        self.arena = Vec::new();
        self.index = Vec::new();
        let mut readers = Vec::with_capacity(self.runs.len());
        for p in &self.runs {
            let file = File::open(p).map_err(|source| BookError::Io {
                path: p.clone(),
                source,
            })?;
            readers.push(Run {
                r: BufReader::with_capacity(256 << 10, file),
                path: p.clone(),
            });
        }
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            let mut h = Head {
                key: Vec::new(),
                run: i,
                payload: Vec::new(),
            };
            if r.next(&mut h)? {
                heap.push(h);
            }
        }
        let mut n = 0u64;
        // The smallest head is handed on, then refilled in place from its run (its buffers
        // reused) and sifted down, or taken out when the run ends.
        while let Some(mut top) = heap.peek_mut() {
            f(&top.key, &top.payload)?;
            n += 1;
            if n.is_multiple_of(1 << 16) {
                self.check_stop()?;
            }
            if !readers[top.run].next(&mut top)? {
                PeekMut::pop(top);
            }
        }
        Ok(())
    }
}

impl Drop for ExternalSort<'_> {
    fn drop(&mut self) {
        for p in &self.runs {
            let _ = std::fs::remove_file(p);
        }
    }
}

struct Run {
    r: BufReader<File>,
    path: PathBuf,
}

impl Run {
    /// Reads the run's next record into `head`; false at the run's end.
    fn next(&mut self, head: &mut Head) -> Result<bool> {
        let io = |source| BookError::Io {
            path: self.path.clone(),
            source,
        };
        let mut len = [0u8; 8];
        match self.r.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(false),
            Err(e) => return Err(io(e)),
        }
        let k = u32::from_le_bytes(len[..4].try_into().expect("4")) as usize;
        let p = u32::from_le_bytes(len[4..].try_into().expect("4")) as usize;
        head.key.resize(k, 0);
        head.payload.resize(p, 0);
        self.r.read_exact(&mut head.key).map_err(io)?;
        self.r.read_exact(&mut head.payload).map_err(io)?;
        Ok(true)
    }
}

/// A run's next record in the merge's heap: the smallest key first, then the earliest run.
struct Head {
    key: Vec<u8>,
    run: usize,
    payload: Vec<u8>,
}

impl PartialEq for Head {
    fn eq(&self, o: &Head) -> bool {
        self.cmp(o) == CmpOrdering::Equal
    }
}
impl Eq for Head {}
impl PartialOrd for Head {
    fn partial_cmp(&self, o: &Head) -> Option<CmpOrdering> {
        Some(self.cmp(o))
    }
}
impl Ord for Head {
    fn cmp(&self, o: &Head) -> CmpOrdering {
        // Reversed: BinaryHeap pops the greatest.
        (&o.key, o.run).cmp(&(&self.key, self.run))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spilled_runs_merge_in_key_order_keep_push_order_on_ties_and_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = ExternalSort::with_chunk(dir.path(), None, 64);
        let mut want = Vec::new();
        for i in 0..500u32 {
            let key = format!("{:03}", (i * 7919) % 101);
            let payload = i.to_le_bytes();
            s.push(key.as_bytes(), &payload).unwrap();
            want.push((key.into_bytes(), i));
        }
        assert!(s.runs() > 5, "spilled");
        want.sort_by(|a, b| a.0.cmp(&b.0));
        let mut got = Vec::new();
        s.finish(&mut |k, p| {
            got.push((k.to_vec(), u32::from_le_bytes(p.try_into().unwrap())));
            Ok(())
        })
        .unwrap();
        assert_eq!(got, want);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_stop_flag_ends_the_sort_and_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let stop = AtomicBool::new(false);
        let mut s = ExternalSort::with_chunk(dir.path(), Some(&stop), 16);
        for i in 0..50u32 {
            s.push(&i.to_be_bytes(), b"x").unwrap();
        }
        assert!(s.runs() > 0);
        stop.store(true, Ordering::Relaxed);
        let e = s.finish(&mut |_, _| Ok(())).unwrap_err();
        assert!(e.to_string().contains("interrupted"), "{e}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
