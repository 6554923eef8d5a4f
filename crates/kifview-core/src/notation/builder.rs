//! `RecordBuilder`: how every reader (KIF, KI2, CSA, JKF, USI) turns what it read into a
//! record. It plays each move with the rules in the position it is played in (keeping
//! illegal but possible moves, as real records contain them, and saying why they are
//! illegal), branches back to a ply of the line read so far, attaches comments, bookmarks,
//! times and endings, collects warnings, and applies the rules' limit on what a position may
//! hold to the initial position.
//!
//! Positions along the current line are kept (one per ply) when the reader branches, so a
//! variation starts from a stored position instead of a replay from the root: reading stays
//! linear however deep the variations nest.

use super::{DiagKind, Diagnostic, Parsed};
use crate::record::{Initial, MoveTime, NodeId, Record, Special, Step};
use crate::rules::{Handicap, Illegal, Move, Position, Square};

/// Builds one record.
pub(crate) struct RecordBuilder {
    record: Record,
    warnings: Vec<Diagnostic>,
    cur: NodeId,
    /// Positions along the path to `cur`: `trail[i]` is the position at ply `base + i`; the
    /// last one is the position at `cur`. Without `keep_trail` only that last one is kept.
    trail: Vec<Position>,
    base: u32,
    keep_trail: bool,
    /// The node that received the last comment line.
    comment_node: Option<NodeId>,
    /// The last move played that the rules reject (kept in the record): an `IllegalMove`
    /// warning given while it is the current node names it.
    illegal_node: Option<NodeId>,
}

/// How the builder is to treat lines of play.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Style {
    /// The reader branches back (`変化`, forks): keep the positions along the line.
    pub branches: bool,
}

/// Why a move could not be played at all (no piece of the side to move there, ...): the rules'
/// reason when they give one.
pub(crate) type Unplayable = Option<Illegal>;

impl RecordBuilder {
    /// A builder for a record starting from the even-game position (see [`Self::set_initial`]).
    pub fn new(style: Style) -> RecordBuilder {
        let record = Record::default();
        RecordBuilder {
            trail: vec![record.initial.position.clone()],
            record,
            warnings: Vec::new(),
            cur: NodeId::ROOT,
            base: 0,
            keep_trail: style.branches,
            comment_node: None,
            illegal_node: None,
        }
    }

    /// Sets how the record starts (before any move). The position is held to the 40-piece set
    /// (`Position::fit_to_set`), with a warning at `line` per kind over it; a position that
    /// then equals a preset is that preset, as a diagram of it reads.
    pub fn set_initial(&mut self, mut initial: Initial, line: usize) {
        debug_assert!(self.record.node(NodeId::ROOT).children.is_empty());
        // A preset's position fits the set (counting every square and hand is 2% of reading a
        // short record).
        let preset = initial
            .handicap
            .is_some_and(|h| h.position().same_placement(&initial.position));
        let excess = if preset {
            Vec::new()
        } else {
            initial.position.fit_to_set()
        };
        for e in &excess {
            self.warn(line, DiagKind::BadBoard, format!("too many pieces: {e}"));
        }
        if !excess.is_empty() {
            initial.handicap = Handicap::matching(&initial.position);
        }
        self.trail.clear();
        self.trail.push(initial.position.clone());
        self.base = 0;
        self.record.initial = initial;
    }

    /// Adds a warning. An `IllegalMove` warning given right after [`Self::play`] kept an
    /// illegal move names that move's node (a reader that refuses a move without playing it
    /// names none).
    pub fn warn(&mut self, line: usize, kind: DiagKind, msg: impl Into<String>) {
        let mut d = Diagnostic::new(line, kind, msg);
        d.at = Some(self.cur);
        if kind == DiagKind::IllegalMove && self.illegal_node == Some(self.cur) {
            d.node = Some(self.cur);
        }
        self.warnings.push(d);
    }
    /// Warnings so far (a reader may amend its last one).
    pub fn warnings_mut(&mut self) -> &mut Vec<Diagnostic> {
        &mut self.warnings
    }

    pub fn record(&self) -> &Record {
        &self.record
    }
    /// The record, for what the builder does not manage (header fields, program lines).
    pub fn record_mut(&mut self) -> &mut Record {
        &mut self.record
    }

    /// The node the next move follows.
    pub fn cur(&self) -> NodeId {
        self.cur
    }
    /// Its ply (0 at the root).
    pub fn ply(&self) -> u32 {
        self.record.node(self.cur).ply
    }
    /// Makes room for about `moves` nodes (and for the positions of a line that long when
    /// the trail is kept: the trail holds one line, so a few hundred at most), so that a
    /// record is not copied over as it grows.
    pub fn reserve(&mut self, moves: usize) {
        self.record.nodes.reserve(moves.min(1 << 20));
        if self.keep_trail {
            self.trail.reserve(moves.min(512));
        }
    }
    /// The position at [`Self::cur`].
    pub fn position(&self) -> &Position {
        self.trail
            .last()
            .expect("the trail holds the current position")
    }
    /// The ending at [`Self::cur`], if the line has ended.
    pub fn ended(&self) -> Option<&Special> {
        self.record.node(self.cur).special()
    }
    /// Where the previous move went (for 同).
    pub fn prev_to(&self) -> Option<Square> {
        self.record.node(self.cur).move_data().map(|m| m.mv.to())
    }

    /// Plays `mv` after the current node and makes it current. `Ok` holds the rules' verdict
    /// (an illegal move is kept); `Err` when it cannot be played at all (nothing changes).
    // Inlined into each reader: as a call its prologue and result cost as much as the
    // builder's own work per move (callgrind).
    #[inline(always)]
    pub fn play(&mut self, mv: Move) -> Result<Result<(), Illegal>, Unplayable> {
        let side = self.position().side_to_move();
        self.illegal_node = None;
        if self.keep_trail {
            // The position before the move stays in the trail for variations; the copy is
            // made straight into the trail (a clone then a push copied it twice).
            let n = self.trail.len();
            self.trail.extend_from_within(n - 1..n);
        }
        // `play_checked` changes nothing when the move cannot be played.
        let played = self
            .trail
            .last_mut()
            .expect("current position")
            .play_checked(mv);
        if played.is_none() && self.keep_trail {
            self.trail.pop();
        }
        let Some((played, verdict)) = played else {
            return Err(self.position().check(mv).err());
        };
        self.append(Step::Move(played.data(mv, side)));
        self.illegal_node = verdict.is_err().then_some(self.cur);
        Ok(verdict)
    }

    /// Ends the current line with `special` (it becomes the current node).
    pub fn end(&mut self, special: Special) {
        self.append(Step::Special(special));
        if self.keep_trail {
            // An ending is a ply of its own: the position stays.
            let pos = self.position().clone();
            self.trail.push(pos);
        }
    }

    // Inlined: as a call it cost a fifth of the builder's own work per move (callgrind).
    #[inline(always)]
    fn append(&mut self, step: Step) {
        // Every step read is a node of its own: two variations starting with the same move
        // stay two, as the file has them (no reader merges them).
        self.cur = self.record.push_child(self.cur, step);
    }

    /// Goes back to the ancestor of the current node at `ply` (the next move branches there).
    pub fn back_to_ply(&mut self, ply: u32) {
        let mut id = self.cur;
        while self.record.node(id).ply > ply {
            match self.record.node(id).parent {
                Some(p) => id = p,
                None => break,
            }
        }
        self.cur = id;
        let ply = self.record.node(id).ply;
        if self.keep_trail && ply >= self.base {
            self.trail.truncate((ply - self.base) as usize + 1);
        } else {
            self.trail = vec![self.record.position_at(id)];
            self.base = ply;
        }
    }

    /// Continues from `node`, whose position the reader kept (`position`).
    pub fn resume_at(&mut self, node: NodeId, position: Position) {
        self.cur = node;
        self.base = self.record.node(node).ply;
        self.trail.clear();
        self.trail.push(position);
    }

    /// Adds a comment line to the current node (lines of one comment are joined with `\n`;
    /// an empty line is kept inside a comment).
    pub fn comment_line(&mut self, text: &str) {
        let id = self.cur;
        let continuing = self.comment_node == Some(id);
        let c = &mut self.record.node_mut(id).comment;
        if continuing || !c.is_empty() {
            c.push('\n');
        } else {
            // Room for a few lines at once: a comment grown line by line was copied over
            // at nearly every line.
            c.reserve(text.len().max(120));
        }
        c.push_str(text);
        self.comment_node = Some(id);
    }

    /// Adds a remark line (CSA `'x`, KIF `#x`, without the mark) to the current node.
    pub fn remark_line(&mut self, text: &str) {
        let id = self.cur;
        self.record.node_mut(id).remarks.push(text.to_string());
    }

    /// Sets the whole comment of the current node.
    pub fn set_comment(&mut self, text: String) {
        let id = self.cur;
        self.record.node_mut(id).comment = text;
    }

    /// Bookmarks the current node; returns true when that replaced a bookmark.
    pub fn bookmark(&mut self, name: String) -> bool {
        let id = self.cur;
        self.record.node_mut(id).bookmark.replace(name).is_some()
    }

    /// The time of the current node.
    pub fn time(&mut self, time: Option<MoveTime>) {
        let id = self.cur;
        self.record.node_mut(id).time = time;
    }

    /// The record read and every warning.
    pub fn finish(self) -> Parsed {
        Parsed {
            record: self.record,
            warnings: self.warnings,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::{DiagKind, Format, Parsed, read_text};
    use crate::record::NodeId;

    fn one(text: &str, format: Format) -> Parsed {
        read_text(text, format).remove(0)
    }

    /// The warning of the kept illegal move names that move's node; the other warnings none.
    fn illegal_at(p: &Parsed) -> Vec<Option<NodeId>> {
        p.warnings
            .iter()
            .filter(|w| w.kind == DiagKind::IllegalMove)
            .map(|w| w.node)
            .collect()
    }

    #[test]
    fn an_illegal_move_kept_in_the_record_is_named_by_its_warning() {
        // A rook moving diagonally (KIF), jumping over pieces (CSA), a pawn dropped on the last
        // rank (KI2, also 二歩): each is kept, and its warning names its node.
        let p = one(
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五飛(28)\n   4 ８四歩(83)\n",
            Format::Kif,
        );
        assert_eq!(illegal_at(&p), [Some(p.record.main_line()[3])]);
        let p = one("PI\n+\n+7776FU\n-3334FU\n+2822HI\n", Format::Csa);
        assert_eq!(illegal_at(&p), [Some(p.record.main_line()[3])]);
        let p = one(
            "▲７六歩 △３四歩 ▲２六歩 △８四歩 ▲２五歩 △８五歩\n▲２四歩 △同　歩 ▲同　飛 △３二金 ▲４一歩打 △８六歩\n",
            Format::Ki2,
        );
        assert_eq!(illegal_at(&p), [Some(p.record.main_line()[11])]);
        // In a variation too.
        let p = one(
            "   1 ７六歩(77)\n   2 ３四歩(33)\n\n変化：2手\n   2 ８四歩(83)\n   3 ５五飛(28)\n",
            Format::Kif,
        );
        let var = p.record.node(p.record.main_line()[1]).children[1];
        let illegal = p.record.node(var).children[0];
        assert_eq!(illegal_at(&p), [Some(illegal)]);
    }

    #[test]
    fn a_refused_move_names_no_node() {
        // USI keeps an illegal move that can be played, as the other readers do.
        let p = one("position startpos moves 7g7f 3c3d 2h5e 8c8d", Format::Usi);
        assert_eq!(illegal_at(&p), [Some(p.record.main_line()[3])]);
        // An illegal move then an impossible one: the impossible one names nothing (it is not
        // the illegal move before it).
        let p = one(
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五飛(28)\n   4 ７五歩打\n",
            Format::Kif,
        );
        assert_eq!(illegal_at(&p), [Some(p.record.main_line()[3])]);
        assert!(
            p.warnings
                .iter()
                .filter(|w| w.kind != DiagKind::IllegalMove)
                .all(|w| w.node.is_none()),
            "{:?}",
            p.warnings
        );
    }
}
