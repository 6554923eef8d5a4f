//! A book on disk being edited: the changed positions held in memory over the file, which is
//! still looked up where it is (a book of any size is edited without reading it). Saving
//! writes the book the overlay answers for ([`super::save`]): the viewer saves a
//! [`Overlay::snapshot`] on a thread of its own (the book on disk shared, the changes
//! copied), and once it is written looks the new file up under the changes made since
//! ([`Overlay::rebase`]).

use super::{Entry, Lookup, Result};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Changes over a book looked up where it is.
pub struct Overlay {
    base: Arc<dyn Lookup>,
    /// Each changed position as it is now (`None`: deleted).
    changed: BTreeMap<String, Option<Entry>>,
}

impl Overlay {
    pub fn new(base: Box<dyn Lookup>) -> Overlay {
        Overlay {
            base: Arc::from(base),
            changed: BTreeMap::new(),
        }
    }

    /// The book as it is now, for a save on another thread: the same book on disk under a
    /// copy of the changes (their size, never the book's); edits made to `self` after do not
    /// reach it.
    pub fn snapshot(&self) -> Overlay {
        Overlay {
            base: Arc::clone(&self.base),
            changed: self.changed.clone(),
        }
    }

    /// `saved` (a [`Overlay::snapshot`] of this book) was written to the file `base` looks
    /// up: the book is looked up there from now on, under the changes made since the
    /// snapshot (a change the snapshot held as it is now is in the file: dropped, so that the
    /// book answers what the file holds, less what its format could not hold).
    pub fn rebase(&mut self, base: Box<dyn Lookup>, saved: &Overlay) {
        self.changed
            .retain(|k, now| saved.changed.get(k) != Some(now));
        self.base = Arc::from(base);
    }

    /// The entry under `key` to change, made (at `ply`) when the book has none.
    pub fn entry_mut(&mut self, key: &str, ply: u32) -> Result<&mut Entry> {
        if !self.changed.contains_key(key) {
            let now = self.base.entry(key)?;
            self.changed.insert(key.to_string(), now);
        }
        let slot = self.changed.get_mut(key).expect("inserted above");
        Ok(slot.get_or_insert_with(|| Entry {
            ply,
            ..Entry::default()
        }))
    }

    /// Adds `mv` to the position `key` (made at `ply` when new), as [`super::Book::add_move`]
    /// does: a move already there is replaced in its place, a new one goes last. Returns
    /// whether it was new.
    pub fn add_move(&mut self, key: &str, ply: u32, mv: super::BookMove) -> Result<bool> {
        let e = self.entry_mut(key, ply)?;
        Ok(match e.moves.iter_mut().find(|m| m.usi == mv.usi) {
            Some(old) => {
                *old = mv;
                false
            }
            None => {
                e.moves.push(mv);
                true
            }
        })
    }

    /// Sets the position under `key` (`None`: removes it).
    pub fn set(&mut self, key: &str, entry: Option<Entry>) {
        self.changed.insert(key.to_string(), entry);
    }

    /// The positions changed, as they are now.
    pub fn changes(&self) -> impl Iterator<Item = (&str, Option<&Entry>)> {
        self.changed.iter().map(|(k, e)| (k.as_str(), e.as_ref()))
    }
}

impl Lookup for Overlay {
    fn entry(&self, key: &str) -> Result<Option<Entry>> {
        match self.changed.get(key) {
            Some(e) => Ok(e.clone()),
            None => self.base.entry(key),
        }
    }
    fn len(&self) -> usize {
        let mut n = self.base.len() as i64;
        for (k, e) in &self.changed {
            let was = self.base.entry(k).ok().flatten().is_some();
            n += e.is_some() as i64 - was as i64;
        }
        n.max(0) as usize
    }
    /// The base's positions in its order with the changes in place, then the new positions;
    /// in key order when the base visits in key order (a text book, a book in memory): the
    /// new positions go in where their keys fall.
    fn visit(&self, f: &mut dyn FnMut(&str, Entry) -> Result<()>) -> Result<()> {
        let mut seen = std::collections::HashSet::new();
        let mut pending = self.changed.iter().peekable();
        let ordered = self.base.in_key_order();
        self.base.visit(&mut |k, e| {
            if ordered {
                while let Some((ck, ce)) = pending.next_if(|(ck, _)| ck.as_str() < k) {
                    if let Some(ce) = ce {
                        f(ck, ce.clone())?;
                    }
                }
                if let Some((_, ce)) = pending.next_if(|(ck, _)| ck.as_str() == k) {
                    return match ce {
                        Some(ce) => f(k, ce.clone()),
                        None => Ok(()),
                    };
                }
                return f(k, e);
            }
            match self.changed.get(k) {
                Some(ce) => {
                    seen.insert(k.to_string());
                    match ce {
                        Some(ce) => f(k, ce.clone()),
                        None => Ok(()),
                    }
                }
                None => f(k, e),
            }
        })?;
        for (k, e) in pending {
            if let Some(e) = e
                && !seen.contains(k)
            {
                f(k, e.clone())?;
            }
        }
        Ok(())
    }
    fn in_key_order(&self) -> bool {
        self.base.in_key_order()
    }
}

/// The text of a recovery file of a book's unsaved edits (`app::document::book_recovery`):
/// a YaneuraOu text book of the positions changed, each as it is now; a position deleted (or
/// left with no moves, which a save does not write either) is its `sfen` line alone.
pub fn recovery_text<'a>(changes: impl Iterator<Item = (&'a str, Option<&'a Entry>)>) -> Vec<u8> {
    let mut out = super::yaneuraou::HEADER.as_bytes().to_vec();
    out.push(b'\n');
    let mut losses = super::Losses::default();
    for (k, e) in changes {
        match e.filter(|e| !e.moves.is_empty()) {
            Some(e) => super::yaneuraou::write_entry(&mut out, k, e, &mut losses),
            None => {
                out.extend_from_slice(format!("sfen {k} {}\n", e.map_or(1, |e| e.ply)).as_bytes())
            }
        }
    }
    out
}

/// The changes a recovery file holds ([`recovery_text`]): each position as it was left, `None`
/// when it was deleted.
pub fn read_recovery_text(bytes: &[u8]) -> Result<Vec<(String, Option<Entry>)>> {
    let read = super::yaneuraou::read(bytes)?;
    Ok(read
        .book
        .iter()
        .map(|(k, e)| (k.to_string(), (!e.moves.is_empty()).then(|| e.clone())))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{Book, BookMove};
    use crate::core::rules::Move;

    fn entry(mv: &str, count: u64) -> Entry {
        Entry {
            ply: 1,
            comment: None,
            moves: vec![BookMove {
                count,
                ..BookMove::new(Move::from_usi(mv).unwrap())
            }],
        }
    }

    #[test]
    fn changes_show_through_in_key_order_and_deletions_hide_positions() {
        let mut base = Book::new();
        for (k, mv) in [("b", "7g7f"), ("d", "2g2f"), ("f", "5g5f")] {
            base.insert(k.into(), entry(mv, 1));
        }
        let mut o = Overlay::new(Box::new(base));
        o.entry_mut("d", 1).unwrap().moves[0].count = 9;
        o.set("a", Some(entry("1g1f", 2)));
        o.set("e", Some(entry("3g3f", 3)));
        o.set("g", Some(entry("4g4f", 4)));
        o.set("f", None);
        let mut seen = Vec::new();
        o.visit(&mut |k, e| {
            seen.push((k.to_string(), e.moves[0].count));
            Ok(())
        })
        .unwrap();
        let want = [("a", 2), ("b", 1), ("d", 9), ("e", 3), ("g", 4)];
        assert_eq!(
            seen,
            want.map(|(k, c)| (k.to_string(), c)).to_vec(),
            "key order, changes in place"
        );
        assert_eq!(o.len(), 5);
        assert_eq!(o.entry("f").unwrap(), None);
        assert_eq!(o.entry("d").unwrap().unwrap().moves[0].count, 9);
    }

    #[test]
    fn a_saved_snapshot_rebased_answers_the_new_file_under_the_edits_made_since() {
        let mut base = Book::new();
        base.insert("b".into(), entry("7g7f", 1));
        let mut o = Overlay::new(Box::new(base));
        o.set("a", Some(entry("1g1f", 2)));
        o.set("b", Some(entry("7g7f", 5)));
        let saved = o.snapshot();
        // Edited while the snapshot is written: "b" again, "c" new.
        o.set("b", Some(entry("7g7f", 6)));
        o.set("c", Some(entry("2g2f", 3)));
        assert_eq!(saved.entry("b").unwrap().unwrap().moves[0].count, 5);
        assert_eq!(saved.entry("c").unwrap(), None);
        // The file as written, less what its format could not hold ("a"'s count).
        let mut file = Book::new();
        file.insert("a".into(), entry("1g1f", 0));
        file.insert("b".into(), entry("7g7f", 5));
        o.rebase(Box::new(file), &saved);
        let counts: Vec<(String, u64)> = ["a", "b", "c"]
            .iter()
            .map(|k| (k.to_string(), o.entry(k).unwrap().unwrap().moves[0].count))
            .collect();
        assert_eq!(
            counts,
            [("a".into(), 0), ("b".into(), 6), ("c".into(), 3)],
            "the file's answer where nothing changed since, the edits made since over it"
        );
        assert_eq!(o.changes().count(), 2);
    }

    #[test]
    fn a_recovery_text_gives_back_the_changes_with_the_deletions() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        let other = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
        let mut e = entry("7g7f", 3);
        e.moves[0].comment = Some("a note".into());
        let text = recovery_text([(start, Some(&e)), (other, None)].into_iter());
        // In key order, as a book's positions come.
        assert_eq!(
            read_recovery_text(&text).unwrap(),
            [(other.to_string(), None), (start.to_string(), Some(e))]
        );
    }
}
