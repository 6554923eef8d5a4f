//! [`Nodes`]: the arena of a record's nodes, held in fixed-size chunks that copies of the
//! record share.
//!
//! Copying a record (a recovery file's copy, a save's) is what the UI thread pays for
//! handing it to a thread that renders and writes it, so a copy must cost far less than a
//! key (1 ms) even at a 68,000-node study. A copy here takes one reference per full chunk
//! of [`CHUNK`] nodes and clones only the last, partly filled one; the first write to a
//! node of a shared chunk clones that chunk alone (`Arc::make_mut`), so a copy keeps what the
//! record held when it was taken, whatever is written into the record after.
//!
//! Reading a node by index is one more load than a `Vec`'s (its chunk, then the node), and
//! pushing goes into the unshared last chunk: readers building a record pay no atomic
//! operation per node.

use super::Node;
use std::fmt;
use std::ops::{Index, IndexMut};
use std::sync::Arc;

const SHIFT: u32 = 7;
/// Nodes per shared chunk: a write after a copy clones this many nodes at most (a few µs),
/// and a copy of a 68,000-node record takes 531 references.
pub const CHUNK: usize = 1 << SHIFT;
const MASK: usize = CHUNK - 1;

type Chunk = [Node; CHUNK];

/// The nodes of a record, indexed from 0 (the root) as a `Vec<Node>` is: see the module
/// documentation for how copies share them.
#[derive(Clone, Default)]
pub struct Nodes {
    /// Full chunks, `CHUNK` nodes each: nodes `i * CHUNK ..` of the arena, shared between
    /// copies until one of them writes into the chunk.
    full: Vec<Arc<Chunk>>,
    /// The nodes after the full chunks (fewer than `CHUNK`), owned by this copy.
    tail: Vec<Node>,
}

impl Nodes {
    pub fn new() -> Nodes {
        Nodes::default()
    }
    /// Where the full chunks end.
    fn full_len(&self) -> usize {
        self.full.len() * CHUNK
    }
    pub fn len(&self) -> usize {
        self.full_len() + self.tail.len()
    }
    pub fn is_empty(&self) -> bool {
        self.full.is_empty() && self.tail.is_empty()
    }
    #[inline]
    pub fn get(&self, i: usize) -> Option<&Node> {
        match self.full.get(i >> SHIFT) {
            Some(c) => Some(&c[i & MASK]),
            None => self.tail.get(i - self.full_len()),
        }
    }
    /// The node at `i` to change; when its chunk is shared with a copy, the chunk is cloned
    /// first (the copy keeps the old one).
    #[inline]
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Node> {
        let full = self.full_len();
        match self.full.get_mut(i >> SHIFT) {
            Some(c) => Some(&mut Arc::make_mut(c)[i & MASK]),
            None => self.tail.get_mut(i - full),
        }
    }
    pub fn first(&self) -> Option<&Node> {
        self.get(0)
    }
    pub fn last(&self) -> Option<&Node> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }
    pub fn last_mut(&mut self) -> Option<&mut Node> {
        self.len().checked_sub(1).and_then(|i| self.get_mut(i))
    }
    /// Appends a node (into the unshared last chunk; a full one becomes shareable).
    pub fn push(&mut self, node: Node) {
        self.tail.push(node);
        if self.tail.len() == CHUNK {
            let chunk: Arc<[Node]> = self.tail.drain(..).collect();
            match Arc::<Chunk>::try_from(chunk) {
                Ok(c) => self.full.push(c),
                // Cannot happen (the tail held `CHUNK` nodes); keeping them as they were
                // loses nothing.
                Err(back) => self.tail.extend(back.iter().cloned()),
            }
        }
    }
    /// Makes room for `additional` more nodes without allocating again.
    pub fn reserve(&mut self, additional: usize) {
        let chunks = (self.len() + additional) / CHUNK;
        self.full.reserve(chunks.saturating_sub(self.full.len()));
        self.tail
            .reserve(additional.min(CHUNK).saturating_sub(self.tail.len()));
    }
    /// How many nodes the room reserved holds: the chunks' slots and the last chunk's room.
    pub fn capacity(&self) -> usize {
        self.full.capacity() * CHUNK + self.tail.capacity()
    }
    /// Keeps the first `len` nodes (all of them when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        let full = self.full_len();
        if len >= full {
            self.tail.truncate(len - full);
            return;
        }
        self.tail.clear();
        let keep = len >> SHIFT;
        self.full.truncate(keep + 1);
        if let Some(c) = self.full.pop() {
            let part = len & MASK;
            match Arc::try_unwrap(c) {
                Ok(nodes) => self.tail.extend(nodes.into_iter().take(part)),
                Err(shared) => self.tail.extend(shared[..part].iter().cloned()),
            }
        }
    }
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            chunks: self.full.iter(),
            cur: [].iter(),
            tail: &self.tail,
            left: self.len(),
        }
    }
    /// Every node to change; each shared chunk is cloned as the iteration reaches it.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        let left = self.len();
        IterMut {
            chunks: self.full.iter_mut(),
            cur: [].iter_mut(),
            tail: &mut self.tail,
            left,
        }
    }
    /// Do `self` and `other` share the chunk holding node `i` (a write into one would clone
    /// it)? For tests of the sharing.
    pub fn shares_chunk_with(&self, other: &Nodes, i: usize) -> bool {
        match (self.full.get(i >> SHIFT), other.full.get(i >> SHIFT)) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Index<usize> for Nodes {
    type Output = Node;
    #[inline]
    fn index(&self, i: usize) -> &Node {
        match self.full.get(i >> SHIFT) {
            Some(c) => &c[i & MASK],
            None => &self.tail[i - self.full_len()],
        }
    }
}

impl IndexMut<usize> for Nodes {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Node {
        let full = self.full_len();
        match self.full.get_mut(i >> SHIFT) {
            Some(c) => &mut Arc::make_mut(c)[i & MASK],
            None => &mut self.tail[i - full],
        }
    }
}

impl PartialEq for Nodes {
    fn eq(&self, other: &Nodes) -> bool {
        self.len() == other.len()
            && self
                .full
                .iter()
                .zip(&other.full)
                .all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
            && self.tail == other.tail
    }
}

impl Eq for Nodes {}

impl fmt::Debug for Nodes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<Node>> for Nodes {
    fn from(v: Vec<Node>) -> Nodes {
        v.into_iter().collect()
    }
}

impl FromIterator<Node> for Nodes {
    fn from_iter<I: IntoIterator<Item = Node>>(iter: I) -> Nodes {
        let mut n = Nodes::new();
        n.extend(iter);
        n
    }
}

impl Extend<Node> for Nodes {
    fn extend<I: IntoIterator<Item = Node>>(&mut self, iter: I) {
        for node in iter {
            self.push(node);
        }
    }
}

impl<'a> IntoIterator for &'a Nodes {
    type Item = &'a Node;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Nodes {
    type Item = &'a mut Node;
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

/// The nodes in index order ([`Nodes::iter`]).
#[derive(Clone)]
pub struct Iter<'a> {
    chunks: std::slice::Iter<'a, Arc<Chunk>>,
    cur: std::slice::Iter<'a, Node>,
    tail: &'a [Node],
    left: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Node;
    #[inline]
    fn next(&mut self) -> Option<&'a Node> {
        loop {
            if let Some(n) = self.cur.next() {
                self.left -= 1;
                return Some(n);
            }
            self.cur = match self.chunks.next() {
                Some(c) => c.iter(),
                None if !self.tail.is_empty() => std::mem::take(&mut self.tail).iter(),
                None => return None,
            };
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl std::iter::FusedIterator for Iter<'_> {}

/// The nodes in index order, to change ([`Nodes::iter_mut`]).
pub struct IterMut<'a> {
    chunks: std::slice::IterMut<'a, Arc<Chunk>>,
    cur: std::slice::IterMut<'a, Node>,
    tail: &'a mut [Node],
    left: usize,
}

impl<'a> Iterator for IterMut<'a> {
    type Item = &'a mut Node;
    #[inline]
    fn next(&mut self) -> Option<&'a mut Node> {
        loop {
            if let Some(n) = self.cur.next() {
                self.left -= 1;
                return Some(n);
            }
            self.cur = match self.chunks.next() {
                Some(c) => Arc::make_mut(c).iter_mut(),
                None if !self.tail.is_empty() => std::mem::take(&mut self.tail).iter_mut(),
                None => return None,
            };
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for IterMut<'_> {}

impl std::iter::FusedIterator for IterMut<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Children, Step};
    use proptest::prelude::*;

    fn node(tag: usize) -> Node {
        Node {
            parent: None,
            children: Children::new(),
            step: Step::Root,
            ply: tag as u32,
            comment: format!("node {tag}"),
            bookmark: None,
            time: None,
            remarks: Vec::new(),
        }
    }

    #[derive(Clone, Debug)]
    enum Op {
        Push,
        Write(usize),
        WriteAll,
        Truncate(usize),
        Copy,
        DropCopy(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            8 => Just(Op::Push),
            4 => any::<usize>().prop_map(Op::Write),
            1 => Just(Op::WriteAll),
            1 => any::<usize>().prop_map(Op::Truncate),
            2 => Just(Op::Copy),
            1 => any::<usize>().prop_map(Op::DropCopy),
        ]
    }

    /// `n` holds what `want` holds, read every way `Nodes` is read.
    fn same(n: &Nodes, want: &[Node]) -> Result<(), TestCaseError> {
        prop_assert_eq!(n.len(), want.len());
        prop_assert_eq!(n.is_empty(), want.is_empty());
        prop_assert!(n.iter().eq(want.iter()));
        prop_assert_eq!(n.iter().len(), want.len());
        prop_assert_eq!(n.first(), want.first());
        prop_assert_eq!(n.last(), want.last());
        prop_assert!(n.get(want.len()).is_none());
        for (i, w) in want.iter().enumerate() {
            prop_assert_eq!(&n[i], w);
        }
        Ok(())
    }

    proptest! {
        /// Copies share chunks with the nodes they were copied from; whatever is pushed,
        /// written, cut or copied after, each copy keeps exactly what it held when taken,
        /// and the nodes read as a `Vec` given the same changes reads.
        #[test]
        fn each_copy_keeps_what_it_held_whatever_is_written_after(
            start in 0usize..700,
            ops in proptest::collection::vec(op(), 1..120),
        ) {
            let mut nodes: Nodes = (0..start).map(node).collect();
            let mut want: Vec<Node> = (0..start).map(node).collect();
            let mut copies: Vec<(Nodes, Vec<Node>)> = Vec::new();
            let mut next = start;
            for op in ops {
                match op {
                    Op::Push => {
                        nodes.push(node(next));
                        want.push(node(next));
                        next += 1;
                    }
                    Op::Write(i) if !want.is_empty() => {
                        let i = i % want.len();
                        nodes[i].comment.push_str(" written");
                        want[i].comment.push_str(" written");
                        if let Some(n) = nodes.get_mut(i) {
                            n.ply += 1;
                        }
                        want[i].ply += 1;
                    }
                    Op::Write(_) => {}
                    Op::WriteAll => {
                        for n in &mut nodes {
                            n.remarks.push("all".into());
                        }
                        for n in &mut want {
                            n.remarks.push("all".into());
                        }
                    }
                    Op::Truncate(k) => {
                        let len = k % (want.len() + 2);
                        nodes.truncate(len);
                        want.truncate(len);
                    }
                    Op::Copy => copies.push((nodes.clone(), want.clone())),
                    Op::DropCopy(i) if !copies.is_empty() => {
                        copies.remove(i % copies.len());
                    }
                    Op::DropCopy(_) => {}
                }
                same(&nodes, &want)?;
            }
            for (copy, held) in &copies {
                same(copy, held)?;
            }
        }
    }

    /// A copy takes the full chunks by reference; a write clones its own chunk only, and the
    /// other chunks stay shared.
    #[test]
    fn a_copy_shares_every_full_chunk_and_a_write_parts_only_its_own() {
        let mut nodes: Nodes = (0..10 * CHUNK + 5).map(node).collect();
        let copy = nodes.clone();
        assert!((0..10).all(|c| nodes.shares_chunk_with(&copy, c * CHUNK)));
        nodes[3 * CHUNK + 1].comment = "changed".into();
        assert!(!nodes.shares_chunk_with(&copy, 3 * CHUNK));
        assert!(
            (0..10)
                .filter(|&c| c != 3)
                .all(|c| nodes.shares_chunk_with(&copy, c * CHUNK))
        );
        assert_eq!(
            copy[3 * CHUNK + 1].comment,
            format!("node {}", 3 * CHUNK + 1)
        );
        assert_eq!(nodes[3 * CHUNK + 1].comment, "changed");
        assert_ne!(nodes, copy);
    }
}
