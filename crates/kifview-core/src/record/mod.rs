//! The record: header, initial position and the move tree (an arena of nodes).
//!
//! Node 0 is the root (the initial position). Each node keeps its parent and its ordered
//! children; child 0 is the main line. Nothing here recurses over the tree depth.

mod edit;
mod nodes;
mod special;
#[cfg(test)]
mod tests;

/// A move as played (kept with the rules, where a position makes it: `Position::move_data`).
pub use crate::rules::MoveData;
pub use edit::{Applied, Edit, EditError, History, Revision};
pub use nodes::Nodes;
pub use special::Special;

use crate::rules::{Color, Handicap, Move, Position};

/// Index of a node in `Record::nodes`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct NodeId(pub u32);

impl NodeId {
    pub const ROOT: NodeId = NodeId(0);
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a node holds.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Step {
    /// The initial position (node 0 only).
    Root,
    Move(MoveData),
    /// A special ending; it has no children.
    Special(Special),
}

/// Time on a move: spent on it and, when the file gave it, the player's running total.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct MoveTime {
    pub spent_ms: u64,
    pub total_ms: Option<u64>,
}

/// The children of a node, in order (child 0 continues the main line). Almost every node has
/// at most a few, held inline: reading a record allocates nothing per node for them.
pub type Children = smallvec::SmallVec<[NodeId; 4]>;

/// One node of the tree.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Node {
    pub parent: Option<NodeId>,
    pub children: Children,
    pub step: Step,
    /// Number of moves from the root (the root is 0; a special ending counts like a move).
    pub ply: u32,
    /// Comment lines joined with `\n` (no trailing newline).
    pub comment: String,
    /// Bookmark name (`&` in KIF).
    pub bookmark: Option<String>,
    pub time: Option<MoveTime>,
    /// Remark lines that stood after this node (for the root: after the start of the moves),
    /// without their mark: CSA's `'x` (not `'*x`) and KIF's and KI2's `#x`, the lines other
    /// programs skip. Not comments: a writer writes them as its format's remark, or names
    /// them as lost ([`crate::notation::Lost::ProgramLines`]).
    pub remarks: Vec<String>,
}

impl Node {
    pub fn move_data(&self) -> Option<&MoveData> {
        match &self.step {
            Step::Move(m) => Some(m),
            _ => None,
        }
    }
    pub fn special(&self) -> Option<&Special> {
        match &self.step {
            Step::Special(s) => Some(s),
            _ => None,
        }
    }
}

/// One header field, in file order. Keys are kept as written (`先手`, `棋戦`, `Rating`, ...).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HeaderField {
    pub key: String,
    pub value: String,
}

/// Header fields in file order; unknown keys are kept.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Header {
    pub fields: Vec<HeaderField>,
}

impl Header {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| f.key == key)
            .map(|f| f.value.as_str())
    }
    /// Sets `key`, replacing the first field of that name or appending.
    pub fn set(&mut self, key: &str, value: &str) {
        match self.fields.iter_mut().find(|f| f.key == key) {
            Some(f) => f.value = value.to_string(),
            None => self.fields.push(HeaderField {
                key: key.to_string(),
                value: value.to_string(),
            }),
        }
    }
    pub fn remove(&mut self, key: &str) -> Option<String> {
        let i = self.fields.iter().position(|f| f.key == key)?;
        Some(self.fields.remove(i).value)
    }
    /// Black's name: `先手`, else `下手`.
    pub fn black_name(&self) -> Option<&str> {
        self.get("先手").or_else(|| self.get("下手"))
    }
    /// White's name: `後手`, else `上手`.
    pub fn white_name(&self) -> Option<&str> {
        self.get("後手").or_else(|| self.get("上手"))
    }
}

/// How the record starts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Initial {
    pub position: Position,
    /// The preset this came from (`手合割`), if any; `None` means a custom diagram.
    pub handicap: Option<Handicap>,
}

impl Initial {
    pub fn even() -> Initial {
        Initial {
            position: Position::startpos(),
            handicap: Handicap::by_name("平手"),
        }
    }
    /// Handicap games use 下手/上手 for the players.
    pub fn is_handicap_game(&self) -> bool {
        self.handicap.is_some_and(|h| !h.is_even())
    }
}

/// How a KIF or KI2 file laid out its start, kept so that saving writes it back the same way.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct StartLayout {
    /// How many header fields stood before the `手合割` line or the board diagram (`None`: after
    /// all of them, as kifview writes a record that did not come from such a file).
    pub fields_before: Option<usize>,
    /// The file said whose turn it is (`先手番`/`後手番`): written back even for Black (a
    /// diagram with White to move always gets its `後手番` line).
    pub turn_line: bool,
}

/// A whole game record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    pub header: Header,
    /// The initial position. Its SFEN move number is the number of the record's first move
    /// (1, or 81 for a diagram read with `手数＝80`): see [`Record::move_number`].
    pub initial: Initial,
    /// The tree's nodes, indexed by [`NodeId`]. A copy of the record shares them until one
    /// side writes (see [`Nodes`]): copying a record costs far less than a key.
    pub nodes: Nodes,
    /// Remark lines of the file's head, before the moves start, with KIF's `#` (KIF and KI2
    /// `#` lines; CSA `'` lines before the position, stored as `#` and the text). Remarks
    /// among the moves are the nodes' [`Node::remarks`].
    pub program_lines: Vec<String>,
    /// Where the file put its `手合割` or diagram and its turn line.
    pub layout: StartLayout,
    /// The text the record was read from, when the reader keeps it.
    pub source: SourceText,
}

/// The text a record was read from, kept by `core::notation` (which alone looks inside) so
/// that writing the record back in its own format reuses the file's own text for all that
/// did not change. Not part of what the record means: records that differ only in it are
/// equal.
#[derive(Clone, Default)]
pub struct SourceText(pub Option<std::sync::Arc<dyn std::any::Any + Send + Sync>>);

impl PartialEq for SourceText {
    fn eq(&self, _: &SourceText) -> bool {
        true
    }
}

impl Eq for SourceText {}

impl std::fmt::Debug for SourceText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "SourceText(kept)"
        } else {
            "SourceText(none)"
        })
    }
}

impl Default for Record {
    fn default() -> Self {
        Record::new(Initial::even())
    }
}

impl Record {
    pub fn new(initial: Initial) -> Record {
        Record {
            header: Header::default(),
            initial,
            nodes: Nodes::from(vec![Node {
                parent: None,
                children: Children::new(),
                step: Step::Root,
                ply: 0,
                comment: String::new(),
                bookmark: None,
                time: None,
                remarks: Vec::new(),
            }]),
            program_lines: Vec::new(),
            layout: StartLayout::default(),
            source: SourceText::default(),
        }
    }
    /// The number of moves played before the record starts: 0, or 80 for a record whose first
    /// move is move 81 (a diagram with `手数＝80`, KIF move lines from 81, an SFEN with move
    /// number 81).
    pub fn moves_before(&self) -> u32 {
        u32::from(self.initial.position.move_number()).saturating_sub(1)
    }
    /// The number a player sees for the node `id`: its ply counted from the record's first
    /// move number ([`Record::moves_before`] plus the ply; the start position is
    /// `moves_before`).
    pub fn move_number(&self, id: NodeId) -> u32 {
        self.moves_before() + self.node(id).ply
    }
    pub fn root(&self) -> NodeId {
        NodeId::ROOT
    }
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }
    /// Appends a new last child of `parent` holding `step`.
    pub fn push_child(&mut self, parent: NodeId, step: Step) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        let ply = self.nodes[parent.index()].ply + 1;
        self.nodes.push(Node {
            parent: Some(parent),
            children: Children::new(),
            step,
            ply,
            comment: String::new(),
            bookmark: None,
            time: None,
            remarks: Vec::new(),
        });
        self.nodes[parent.index()].children.push(id);
        id
    }
    /// The child of `parent` that plays `mv`, if any.
    pub fn find_move_child(&self, parent: NodeId, mv: Move) -> Option<NodeId> {
        self.node(parent)
            .children
            .iter()
            .copied()
            .find(|&c| self.node(c).move_data().is_some_and(|m| m.mv == mv))
    }
    /// Nodes from the root to `id`, both included.
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut v = Vec::with_capacity(self.node(id).ply as usize + 1);
        let mut cur = Some(id);
        while let Some(c) = cur {
            v.push(c);
            cur = self.node(c).parent;
        }
        v.reverse();
        v
    }
    /// Follows the first child from `id` to the end of the line (`id` included).
    pub fn line_from(&self, id: NodeId) -> Vec<NodeId> {
        let mut v = vec![id];
        let mut cur = id;
        while let Some(&c) = self.node(cur).children.first() {
            v.push(c);
            cur = c;
        }
        v
    }
    /// The main line from the root (root included).
    pub fn main_line(&self) -> Vec<NodeId> {
        self.line_from(NodeId::ROOT)
    }
    /// The number of moves of the main line (specials such as 投了 are not moves).
    pub fn main_line_moves(&self) -> u32 {
        let line = self.main_line();
        line[1..]
            .iter()
            .take_while(|&&id| self.node(id).move_data().is_some())
            .count() as u32
    }

    /// The main-line node after `ply` moves (all of them for `None`); more moves than the main
    /// line holds is an error naming its length.
    pub fn node_at_ply(&self, ply: Option<u32>) -> Result<NodeId, String> {
        let line = self.main_line();
        let moves = self.main_line_moves();
        // Numbered as the record numbers its moves: from 81 after `手数＝80`, where any number up
        // to 80 is the start position.
        let before = self.moves_before();
        if let Some(p) = ply
            && p > before + moves
        {
            return Err(if before == 0 {
                format!(
                    "--ply {p}: the main line has {moves} move{}",
                    if moves == 1 { "" } else { "s" }
                )
            } else {
                format!(
                    "--ply {p}: the main line has moves {} to {}",
                    before + 1,
                    before + moves
                )
            });
        }
        let n = ply.map_or(moves, |p| p.saturating_sub(before)) as usize;
        Ok(line[n])
    }
    /// Which side is to move at `id` (for a special ending: the side that was to move).
    pub fn side_to_move_at(&self, id: NodeId) -> Color {
        let base = self.initial.position.side_to_move();
        let ply = match self.node(id).step {
            Step::Special(_) => self.node(id).ply - 1,
            _ => self.node(id).ply,
        };
        if ply % 2 == 0 { base } else { base.flip() }
    }
    /// The position at `id`, replayed from the root. Moves that the rules would reject are
    /// replayed too as long as they are physically possible (that is how they were read).
    pub fn position_at(&self, id: NodeId) -> Position {
        let mut pos = self.initial.position.clone();
        for n in self.path(id) {
            if let Step::Move(m) = &self.node(n).step {
                let _ = pos.play_unchecked(m.mv);
            }
        }
        pos
    }
    /// The last move played on the way to `id` (the node itself if it is a move).
    pub fn last_move_at(&self, id: NodeId) -> Option<&MoveData> {
        let mut cur = Some(id);
        while let Some(c) = cur {
            if let Some(m) = self.node(c).move_data() {
                return Some(m);
            }
            cur = self.node(c).parent;
        }
        None
    }
    /// Index of `id` among its siblings (0 = main line at this fork).
    pub fn sibling_index(&self, id: NodeId) -> usize {
        match self.node(id).parent {
            None => 0,
            Some(p) => self
                .node(p)
                .children
                .iter()
                .position(|&c| c == id)
                .unwrap_or(0),
        }
    }
    /// Node ids in depth-first pre-order, children in order (no recursion).
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![NodeId::ROOT];
        while let Some(id) = stack.pop() {
            out.push(id);
            for &c in self.node(id).children.iter().rev() {
                stack.push(c);
            }
        }
        out
    }
    /// Does any node below the root carry a branch (more than one child)?
    pub fn has_variations(&self) -> bool {
        self.preorder()
            .into_iter()
            .any(|id| self.node(id).children.len() > 1)
    }
    /// Each node's running total of time for its side (ms, indexed by node): the file's total
    /// where it gave one, else the side's previous total plus the time spent.
    pub fn running_totals(&self) -> Vec<u64> {
        let mut t = vec![0u64; self.nodes.len()];
        // Parents before children: readers append nodes that way, so index order does; after
        // edits that might not hold, and pre-order does.
        let mut in_order = true;
        for i in 1..self.nodes.len() {
            if self.nodes[i].parent.is_none_or(|p| p.index() >= i) {
                in_order = false;
                break;
            }
            t[i] = self.total_after(NodeId(i as u32), &t);
        }
        if !in_order {
            for id in self.preorder() {
                t[id.index()] = self.total_after(id, &t);
            }
        }
        t
    }

    /// The running total at `id`, given the totals of its ancestors in `t`.
    fn total_after(&self, id: NodeId, t: &[u64]) -> u64 {
        let n = self.node(id);
        let before = n
            .parent
            .and_then(|p| self.node(p).parent)
            .map_or(0, |g| t[g.index()]);
        match n.time {
            None => before,
            Some(MoveTime {
                total_ms: Some(x), ..
            }) => x,
            Some(time) => before + time.spent_ms,
        }
    }

    /// A record that carries times has a time on every move: a move or ending without one
    /// spent 0 s (as KIF's `( 0:00/…)`), with the side's running total carried over.
    pub fn fill_missing_times(&mut self) {
        if !self.nodes.iter().skip(1).any(|n| n.time.is_some()) {
            return;
        }
        let t = self.running_totals();
        for (i, n) in self.nodes.iter_mut().enumerate().skip(1) {
            if n.time.is_none() {
                n.time = Some(MoveTime {
                    spent_ms: 0,
                    total_ms: Some(t[i]),
                });
            }
        }
    }

    /// Does the record hold anything beyond an empty even-game start: a move, a header field,
    /// a comment, a bookmark, a remark, or another initial position?
    pub fn holds_anything(&self) -> bool {
        let root = self.node(NodeId::ROOT);
        !self.is_empty()
            || !self.header.fields.is_empty()
            || !root.comment.is_empty()
            || root.bookmark.is_some()
            || !root.remarks.is_empty()
            || !self.program_lines.is_empty()
            || self.initial != Initial::even()
    }

    /// How many remark lines the record holds: the head's and every node's.
    pub fn remark_count(&self) -> usize {
        self.program_lines.len() + self.nodes.iter().map(|n| n.remarks.len()).sum::<usize>()
    }

    /// How many times the position at `id` occurred on the path from the root (itself included).
    pub fn repetition_count(&self, id: NodeId) -> usize {
        let mut pos = self.initial.position.clone();
        let mut keys = vec![pos.hash_key()];
        for n in self.path(id).into_iter().skip(1) {
            if let Step::Move(m) = &self.node(n).step {
                let _ = pos.play_unchecked(m.mv);
                keys.push(pos.hash_key());
            }
        }
        let last = *keys.last().expect("root key");
        keys.iter().filter(|&&k| k == last).count()
    }
}
