//! `/` search over the whole record: the moves (as the move list writes them and as players
//! type them), the comments, the bookmarks and the header fields.
//!
//! # What matches
//!
//! - A move, written as the move list shows it (`▲７六歩(77)`, `△同　歩(77)`) or as players
//!   type it: `７六`, `76`, `7六`, `76歩`, `▲７六歩`, `同歩`, `同　歩`, the KI2 relative forms
//!   (`58金右`, `同銀直`). Digits in any width or in kanji, spaces of any width and the side
//!   marks' variants (`☗`/`▼`, `☖`/`▽`) are folded away, `竜` is `龍` and `王` is `玉`. The
//!   origin square `(77)` is searched only when the query has a `(`, so that `76` does not
//!   find `▲７五歩(76)`. A `同` move is also found by its square (`76歩` finds a `同　歩` to
//!   ７六). An ending (`投了`, `千日手`) is found by its word.
//! - A comment, a bookmark name (a leading `&` is allowed) or a header key or value that
//!   contains the query, with full-width letters and digits folded to ASCII, the ideographic
//!   space to a space, and ASCII letters in either case. A query that looks like a move (two
//!   digits, or `同`) also finds it written with kanji digits in a comment (`76歩` finds
//!   `７六歩では`).
//!
//! One match per field: a comment that names 歩 three times is one match.
//!
//! # Order
//!
//! Header fields first (in their order), then the moves in the order of the variation tree
//! (`t`): the main line by ply, then each variation as the tree lists it (the fork nearest the
//! start first; a variation's own variations right after it), each by ply. Within a move: the
//! move itself, its bookmark, its comment.
//!
//! `/` goes to the first match at or after the current move (from the start position: the
//! first match of all); `n` to the next one after, `N` to the one before; both wrap around
//! and say `search wrapped`. A match in a variation switches the line to it, as the tree's
//! jump does. An empty `/` repeats the last search, as in vim. `L` lists every match (those
//! off the current line too) to jump to one.
//!
//! # Speed
//!
//! The moves' searchable forms are built once per revision of the record, in one buffer. KI2's
//! relative forms need the position before the move: they are made only when a query names
//! 右 左 上 引 寄 or 直, for the moves the query could match (each from its own position), or
//! for every move in one walk of the tree when there are many. Comments and the header are
//! searched as they are. `benches/viewer.rs` times `/` and
//! `n` on a 68,000-node study.

use crate::app::outline::OutlineRow;
use crate::core::notation::{japanese, ki2};
use crate::core::record::{MoveData, NodeId, Record, Step};
use crate::core::rules::{Position, Square};
use crate::core::text::sanitize;
use std::borrow::Cow;

// ----- folding -----

/// Folding for text: full-width ASCII to ASCII, the ideographic space to a space, ASCII to
/// lower case. One character for one character.
pub fn fold_text_char(c: char) -> char {
    let c = match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        _ => c,
    };
    c.to_ascii_lowercase()
}

/// Folding for moves: text folding, then kanji digits to ASCII, spaces dropped, one mark per
/// side, one name per piece.
pub fn fold_move_char(c: char) -> Option<char> {
    let c = fold_text_char(c);
    Some(match c {
        ' ' | '\t' => return None,
        '☗' | '▼' => '▲',
        '☖' | '▽' => '△',
        '竜' => '龍',
        '王' => '玉',
        c if !c.is_ascii() => match japanese::digit(c) {
            Some(d) => (b'0' + d) as char,
            None => c,
        },
        c => c,
    })
}

fn fold_text(s: &str) -> Cow<'_, str> {
    if s.chars().all(|c| fold_text_char(c) == c) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.chars().map(fold_text_char).collect())
    }
}

fn fold_move(s: &str) -> String {
    s.chars().filter_map(fold_move_char).collect()
}

/// KI2's relative suffixes.
const RELATIVE: [char; 6] = ['右', '左', '上', '引', '寄', '直'];

/// The query, folded both ways.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// As typed.
    pub typed: String,
    text: String,
    mv: String,
    /// Looks like a move (two digits, or 同): comments are searched with move folding too.
    move_like: bool,
    /// Names a KI2 relative suffix: the KI2 forms are searched.
    pub(super) relative: bool,
    /// Has a `(`: the KIF form with the origin square is searched.
    origin: bool,
}

impl Query {
    pub fn new(typed: &str) -> Query {
        let text = fold_text(typed).into_owned();
        let mv = fold_move(typed);
        let chars: Vec<char> = mv.chars().collect();
        let move_like = mv.contains('同')
            || chars
                .windows(2)
                .any(|w| w.iter().all(|c| ('1'..='9').contains(c)));
        Query {
            typed: typed.to_string(),
            relative: mv.contains(RELATIVE),
            origin: mv.contains('('),
            text,
            mv,
            move_like,
        }
    }

    /// Does this text (a comment, a bookmark, a header field) contain the query?
    fn in_text(&self, s: &str) -> bool {
        fold_text(s).contains(&self.text) || (self.move_like && fold_move(s).contains(&self.mv))
    }

    /// Where the query occurs in `chars`: ranges of indices into `chars`, in order and not
    /// overlapping (for highlighting what is on screen).
    pub fn spans(&self, chars: &[char]) -> Vec<(usize, usize)> {
        let mut out = find_folded(chars, &self.text, |c| Some(fold_text_char(c)));
        if self.move_like {
            for s in find_folded(chars, &self.mv, fold_move_char) {
                if !out.iter().any(|&(a, b)| s.0 < b && a < s.1) {
                    out.push(s);
                }
            }
            out.sort_unstable();
        }
        out
    }
}

/// Occurrences of `needle` (already folded) in `chars` folded by `fold`, as ranges of `chars`.
fn find_folded(
    chars: &[char],
    needle: &str,
    fold: impl Fn(char) -> Option<char>,
) -> Vec<(usize, usize)> {
    let needle: Vec<char> = needle.chars().collect();
    if needle.is_empty() {
        return Vec::new();
    }
    let folded: Vec<(char, usize)> = chars
        .iter()
        .enumerate()
        .filter_map(|(i, &c)| fold(c).map(|f| (f, i)))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + needle.len() <= folded.len() {
        if folded[i..i + needle.len()]
            .iter()
            .zip(&needle)
            .all(|(a, b)| a.0 == *b)
        {
            out.push((folded[i].1, folded[i + needle.len() - 1].1 + 1));
            i += needle.len();
        } else {
            i += 1;
        }
    }
    out
}

// ----- the index of the moves -----

/// One searchable string per node, all in one buffer (no allocation per node).
#[derive(Debug, Default)]
struct Forms {
    text: String,
    /// Node `i`'s string is `text[ends[i]..ends[i + 1]]`.
    ends: Vec<u32>,
}

impl Forms {
    fn with_capacity(nodes: usize) -> Forms {
        let mut ends = Vec::with_capacity(nodes + 1);
        ends.push(0);
        Forms {
            text: String::with_capacity(nodes * 16),
            ends,
        }
    }
    fn push_folded(&mut self, s: &str) {
        self.text.extend(s.chars().filter_map(fold_move_char));
    }
    /// Ends the current node's string.
    fn end(&mut self) {
        self.ends.push(self.text.len() as u32);
    }
    fn get(&self, i: usize) -> &str {
        match (self.ends.get(i), self.ends.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.text[a as usize..b as usize],
            _ => "",
        }
    }
}

/// The moves' searchable forms, built once per revision of the record.
#[derive(Debug, Default)]
pub(super) struct Index {
    pub(super) revision: u64,
    /// The attached nodes in reading order (the tree's rows, each by ply).
    order: Vec<NodeId>,
    /// Each node's place in `order` (`u32::MAX`: not attached).
    rank: Vec<u32>,
    /// Nodes of the main line (the first `main_len` of `order`).
    pub(super) main_len: usize,
    /// By node: the move without its origin (`▲76歩`, `▲同歩`, and `▲76歩` again for a 同
    /// move), move-folded, joined by U+001F.
    short: Forms,
    /// By node: the KIF text with the origin (`▲76歩(77)`), move-folded.
    full: Forms,
    /// By node: the KI2 forms (`▲58金右`), move-folded; empty until a query needs them.
    ki2: Vec<String>,
    /// `ki2` holds every move's (else only those that queries asked about).
    pub(super) ki2_all: bool,
}

/// A move's KI2 forms, move-folded (a 同 move's also with its square).
fn ki2_forms(pos: &Position, m: &MoveData, prev_to: Option<Square>) -> String {
    let mut s = fold_move(&ki2::move_text(pos, m, prev_to));
    if prev_to == Some(m.mv.to()) {
        s.push('\u{1f}');
        s.push_str(&fold_move(&ki2::move_text(pos, m, None)));
    }
    s
}

/// `text` up to its origin square `(77)`.
fn without_origin(text: &str) -> &str {
    text.split('(').next().unwrap_or(text)
}

/// Beyond this many moves to look at, a query in KI2 relative notation builds every move's
/// KI2 form in one walk of the tree instead of finding each move's position.
const KI2_ONE_BY_ONE: usize = 2_000;

impl Index {
    pub(super) fn build(record: &Record, rows: &[OutlineRow], revision: u64) -> Index {
        let n = record.len();
        let mut order = Vec::with_capacity(n);
        for r in rows {
            let mut id = r.start;
            for _ in 0..r.len {
                order.push(id);
                match record.node(id).children.first() {
                    Some(&c) => id = c,
                    None => break,
                }
            }
        }
        let main_len = rows.first().map_or(0, |r| r.len as usize);
        let mut rank = vec![u32::MAX; n];
        for (i, &id) in order.iter().enumerate() {
            rank[id.index()] = i as u32;
        }
        let mut short = Forms::with_capacity(n);
        let mut full = Forms::with_capacity(n);
        let mut buf = String::with_capacity(32);
        for node in &record.nodes {
            match &node.step {
                Step::Root => {}
                Step::Special(s) => {
                    short.push_folded(s.kif_word());
                    full.push_folded(s.kif_word());
                }
                Step::Move(m) => {
                    let prev_to = node
                        .parent
                        .and_then(|p| record.node(p).move_data())
                        .map(|pm| pm.mv.to());
                    buf.clear();
                    buf.push_str(m.color.mark());
                    japanese::push_kif_move(&mut buf, m, prev_to);
                    full.push_folded(&buf);
                    short.push_folded(without_origin(&buf));
                    if prev_to == Some(m.mv.to()) {
                        buf.clear();
                        buf.push_str(m.color.mark());
                        japanese::push_kif_move(&mut buf, m, None);
                        short.text.push('\u{1f}');
                        short.push_folded(without_origin(&buf));
                    }
                }
            }
            short.end();
            full.end();
        }
        Index {
            revision,
            order,
            rank,
            main_len,
            short,
            full,
            ki2: vec![String::new(); n],
            ki2_all: false,
        }
    }

    /// Makes the KI2 forms that `q` (a query in relative notation) can match: those of the
    /// moves whose KIF form holds the query without its 右 左 上 引 寄 直, each from its own
    /// position when they are few, else every move's in one walk of the tree.
    pub(super) fn prepare_ki2(&mut self, record: &Record, q: &Query) {
        if self.ki2_all {
            return;
        }
        let base: String = q.mv.chars().filter(|c| !RELATIVE.contains(c)).collect();
        let wanted: Vec<NodeId> = if base.is_empty() {
            Vec::new()
        } else {
            self.order
                .iter()
                .copied()
                .filter(|id| self.short.get(id.index()).contains(&base))
                .take(KI2_ONE_BY_ONE + 1)
                .collect()
        };
        if base.is_empty() || wanted.len() > KI2_ONE_BY_ONE {
            return self.build_ki2(record);
        }
        for id in wanted {
            let node = record.node(id);
            if !self.ki2[id.index()].is_empty() {
                continue;
            }
            let (Some(parent), Step::Move(m)) = (node.parent, &node.step) else {
                continue;
            };
            let pos = record.position_at(parent);
            let prev_to = record.node(parent).move_data().map(|pm| pm.mv.to());
            self.ki2[id.index()] = ki2_forms(&pos, m, prev_to);
        }
    }

    /// Builds every move's KI2 forms: a walk of the tree with the position before each move.
    fn build_ki2(&mut self, record: &Record) {
        let mut stack = vec![(NodeId::ROOT, record.initial.position.clone())];
        while let Some((n, pos)) = stack.pop() {
            let prev_to = record.node(n).move_data().map(|m| m.mv.to());
            let children = &record.node(n).children;
            let mut pos = Some(pos);
            for (k, &c) in children.iter().enumerate() {
                let (Step::Move(m), Some(p)) = (&record.node(c).step, &pos) else {
                    continue;
                };
                self.ki2[c.index()] = ki2_forms(p, m, prev_to);
                if record.node(c).children.is_empty() {
                    continue;
                }
                // The last child takes the position itself, the others a copy.
                let mut after = if k + 1 == children.len() {
                    pos.take().expect("checked")
                } else {
                    p.clone()
                };
                let _ = after.play_unchecked(m.mv);
                stack.push((c, after));
            }
        }
        self.ki2_all = true;
    }

    fn move_matches(&self, q: &Query, id: NodeId) -> bool {
        let i = id.index();
        self.short.get(i).contains(&q.mv)
            || (q.origin && self.full.get(i).contains(&q.mv))
            || (q.relative && self.ki2.get(i).is_some_and(|s| s.contains(&q.mv)))
    }

    /// The place of a match in reading order: header fields before every move.
    pub(super) fn rank_of(&self, m: &Match) -> i64 {
        match m.kind {
            Kind::Header(_) => -1,
            _ => self
                .rank
                .get(m.node.index())
                .map_or(i64::MAX, |&r| r as i64),
        }
    }
}

// ----- matches -----

/// What part of the record matched.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A header field (its index in the header).
    Header(usize),
    Move,
    Bookmark,
    Comment,
}

/// One match: a field of a node (the root for header fields).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Match {
    pub node: NodeId,
    pub kind: Kind,
}

/// The matches of the last search, at one revision of the record.
#[derive(Debug, Default)]
pub(super) struct Found {
    pub(super) revision: u64,
    pub(super) matches: Vec<Match>,
    /// By node: has a match (its move, bookmark or comment).
    pub(super) hit: Vec<bool>,
    /// The match last gone to, and the node the cursor was on then.
    pub(super) current: Option<(usize, NodeId)>,
}

/// The search state: the last query, its matches, and the index of the moves.
#[derive(Debug, Default)]
pub struct Search {
    pub(super) query: Option<Query>,
    pub(super) found: Option<Found>,
    pub(super) index: Option<Index>,
    /// Matches are highlighted (`:noh` hides them until the next search or `n`).
    pub(super) shown: bool,
}

/// What the front end highlights: the current search's matches, valid for the record shown.
#[derive(Clone, Copy, Debug)]
pub struct Highlight<'a> {
    pub query: &'a Query,
    found: &'a Found,
}

impl Highlight<'_> {
    /// Does this node have a match (its move, bookmark or comment)?
    pub fn hit(&self, id: NodeId) -> bool {
        self.found.hit.get(id.index()).copied().unwrap_or(false)
    }
    /// Does this node have a match of this kind?
    pub fn has(&self, id: NodeId, kind: Kind) -> bool {
        self.hit(id)
            && self
                .found
                .matches
                .iter()
                .any(|m| m.node == id && m.kind == kind)
    }
    /// Does a header field match?
    pub fn in_header(&self) -> bool {
        self.found
            .matches
            .first()
            .is_some_and(|m| matches!(m.kind, Kind::Header(_)))
    }
}

impl Search {
    /// The last query, if any.
    pub fn query(&self) -> Option<&Query> {
        self.query.as_ref()
    }
    /// The search to carry to another record: the query, not its matches.
    pub fn carried(&self) -> Search {
        Search {
            query: self.query.clone(),
            ..Search::default()
        }
    }
    /// What to highlight, when the matches are shown and belong to this revision.
    pub fn highlight(&self, revision: u64) -> Option<Highlight<'_>> {
        let found = self.found.as_ref().filter(|f| f.revision == revision)?;
        Some(Highlight {
            query: self.query.as_ref().filter(|_| self.shown)?,
            found,
        })
    }
}

/// Finds every match of `q` in reading order.
pub(super) fn find(record: &Record, index: &Index, q: &Query) -> Vec<Match> {
    let mut out = Vec::new();
    for (i, f) in record.header.fields.iter().enumerate() {
        if q.in_text(&f.key) || q.in_text(&f.value) {
            out.push(Match {
                node: NodeId::ROOT,
                kind: Kind::Header(i),
            });
        }
    }
    let bookmark_q = q.typed.strip_prefix(['&', '＆']).map(Query::new);
    for &id in &index.order {
        let node = record.node(id);
        let mut push = |kind| out.push(Match { node: id, kind });
        if index.move_matches(q, id) {
            push(Kind::Move);
        }
        if let Some(b) = &node.bookmark
            && (q.in_text(b) || bookmark_q.as_ref().is_some_and(|bq| bq.in_text(b)))
        {
            push(Kind::Bookmark);
        }
        if !node.comment.is_empty() && q.in_text(&node.comment) {
            push(Kind::Comment);
        }
    }
    out
}

/// A piece of a comment around the first match: its line, cut to about 30 characters.
pub(super) fn snippet(q: &Query, text: &str) -> String {
    let line = text
        .lines()
        .find(|l| !q.spans(&l.chars().collect::<Vec<_>>()).is_empty())
        .unwrap_or_else(|| text.lines().next().unwrap_or(""));
    let chars: Vec<char> = line.trim().chars().collect();
    let start = q.spans(&chars).first().map_or(0, |s| s.0);
    // Keep the line's start unless the match is far into it.
    let from = if start <= 16 { 0 } else { start - 8 };
    let to = (from + 30).min(chars.len());
    let mut s = String::new();
    if from > 0 {
        s.push('…');
    }
    s.extend(&chars[from..to]);
    if to < chars.len() {
        s.push('…');
    }
    sanitize(&s).into_owned()
}

#[cfg(test)]
#[path = "matches_tests.rs"]
pub(crate) mod tests;
