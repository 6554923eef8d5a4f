//! A sorted YaneuraOu text book searched in place: the file is memory-mapped and a lookup is a
//! binary search by line starts (the first `sfen ` line at or after the middle of the range,
//! compared by its position key), as YaneuraOu's `BookOnTheFly` searches it. Opening reads
//! nothing but the header and a sample of the file's `sfen` lines to check their order and
//! form, so it costs the same for any size; memory does not grow with the book.
//!
//! Like `BookOnTheFly`, it finds the lines written as YaneuraOu writes them (hands in the
//! usual order, one space between fields); `kifview book check` names the others, and
//! `kifview book convert` writes any book that way.

use super::{BookError, Data, Entry, Lookup, Result, yaneuraou};
use memchr::{memchr, memmem};
use std::sync::OnceLock;

/// A text book opened for lookups without loading it.
pub struct TextBook {
    data: Data,
    count: OnceLock<usize>,
}

/// How many `sfen` lines, evenly spread, [`TextBook::new`] checks the order of.
const SAMPLE: usize = 2048;

impl TextBook {
    /// Checks the header and the order of a sample of the `sfen` lines; an unsorted sample is
    /// an error (such a book is sorted into a copy instead: [`super::open`] does).
    pub fn new(data: Data) -> Result<TextBook> {
        let book = TextBook::unchecked(data)?;
        match book.unsearchable() {
            Some(why) => Err(BookError::format(why)),
            None => Ok(book),
        }
    }

    /// Checks only the header: a text book whose order is not known yet.
    pub fn unchecked(data: Data) -> Result<TextBook> {
        let head = &data[..data.len().min(4096)];
        let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
        if !(head.starts_with(b"#YANEURAOU-DB2016") || head.starts_with(b"sfen ")) {
            return Err(BookError::format(format!(
                "line 1: expected `{}` (a YaneuraOu text book)",
                yaneuraou::HEADER
            )));
        }
        Ok(TextBook {
            data,
            count: OnceLock::new(),
        })
    }

    /// Why a binary search cannot find every position, judged from [`SAMPLE`] `sfen` lines
    /// spread evenly over the file (so that it costs the same for any size): two out of
    /// order, or an SFEN not written as YaneuraOu writes it (hands in another order, extra
    /// spaces). `None`: it can, as far as the sample shows (`kifview book check` reads every
    /// line).
    pub fn unsearchable(&self) -> Option<String> {
        let step = (self.data.len() / SAMPLE).max(1);
        let mut last: Option<&[u8]> = None;
        let mut at = 0;
        while at < self.data.len() {
            let s = self.sfen_line_from(at)?;
            let key = self.key_at(s);
            if let Some(prev) = last
                && prev >= key
            {
                return Some(format!(
                    "the `sfen` lines are not sorted (near byte {s}): a binary search cannot find every position"
                ));
            }
            // The key's bytes from the mapped file, decoded for the first time (to parse it).
            let text = String::from_utf8_lossy(key);
            if super::key(&text).is_ok_and(|k| k != text) {
                return Some(format!(
                    "an SFEN not written as YaneuraOu writes it (near byte {s}): a binary search cannot find it"
                ));
            }
            last = Some(key);
            at = (s + 1).max(at + step);
        }
        None
    }

    /// The file's bytes.
    pub fn data(&self) -> &Data {
        &self.data
    }

    /// The start of the first line at or after `from` that begins with `sfen `.
    fn sfen_line_from(&self, from: usize) -> Option<usize> {
        let d = &self.data[..];
        let mut p = from;
        if p > 0 && d[p - 1] != b'\n' {
            p += memchr(b'\n', &d[p..])? + 1;
        }
        loop {
            if d[p..].starts_with(b"sfen ") {
                return Some(p);
            }
            p += memmem::find(&d[p..], b"\nsfen ")? + 1;
        }
    }

    fn line_end(&self, at: usize) -> usize {
        memchr(b'\n', &self.data[at..]).map_or(self.data.len(), |n| at + n)
    }

    /// The key of the `sfen` line at `at`: the text after `sfen ` up to the last field (the ply).
    fn key_at(&self, at: usize) -> &[u8] {
        let line = self.data[at + 5..self.line_end(at)].trim_ascii_end();
        match line.iter().rposition(|&b| b == b' ') {
            // Three fields and the ply: the key is all but the ply.
            Some(i) if line.iter().filter(|&&b| b == b' ').count() >= 3 => &line[..i],
            _ => line,
        }
    }

    /// The entry of the `sfen` line at `at`: its lines up to the next `sfen` line.
    fn entry_at(&self, at: usize) -> Result<Option<(String, Entry)>> {
        let end = memmem::find(&self.data[at + 1..], b"\nsfen ")
            .map_or(self.data.len(), |n| at + 1 + n + 1);
        let mut chunk = Vec::with_capacity(yaneuraou::HEADER.len() + 1 + end - at);
        chunk.extend_from_slice(yaneuraou::HEADER.as_bytes());
        chunk.push(b'\n');
        chunk.extend_from_slice(&self.data[at..end]);
        let read = yaneuraou::read(&chunk)?;
        Ok(read
            .book
            .iter()
            .next()
            .map(|(k, e)| (k.to_string(), e.clone())))
    }
}

impl Lookup for TextBook {
    fn entry(&self, key: &str) -> Result<Option<Entry>> {
        let want = key.as_bytes();
        let (mut lo, mut hi) = (0, self.data.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let Some(s) = self.sfen_line_from(mid).filter(|&s| s < hi) else {
                hi = mid;
                continue;
            };
            match want.cmp(self.key_at(s)) {
                std::cmp::Ordering::Equal => return Ok(self.entry_at(s)?.map(|(_, e)| e)),
                std::cmp::Ordering::Less => hi = mid,
                std::cmp::Ordering::Greater => lo = self.line_end(s).max(mid + 1),
            }
        }
        Ok(None)
    }
    fn len(&self) -> usize {
        *self.count.get_or_init(|| {
            let d = &self.data[..];
            memmem::find_iter(d, b"\nsfen ").count() + d.starts_with(b"sfen ") as usize
        })
    }
    fn visit(&self, f: &mut dyn FnMut(&str, Entry) -> Result<()>) -> Result<()> {
        let mut at = self.sfen_line_from(0);
        while let Some(s) = at {
            if let Some((k, e)) = self.entry_at(s)? {
                f(&k, e)?;
            }
            at = memmem::find(&self.data[s + 1..], b"\nsfen ").map(|n| s + 1 + n + 1);
        }
        Ok(())
    }
    /// As the file is sorted (the sample says so: [`TextBook::new`]).
    fn in_key_order(&self) -> bool {
        true
    }
}
