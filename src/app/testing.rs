//! Helpers that build records by hand, for tests and examples.

use crate::core::record::{MoveData, NodeId, Record, Step};
use crate::core::rules::Move;

/// Appends the USI move `usi` as a new child of `parent`. Panics if it is not legal there
/// (meant for hand-written test records).
pub fn push_usi(record: &mut Record, parent: NodeId, usi: &str) -> NodeId {
    let mut pos = record.position_at(parent);
    let mv = Move::from_usi(usi).unwrap_or_else(|| panic!("bad USI move {usi}"));
    let color = pos.side_to_move();
    let played = pos
        .play(mv)
        .unwrap_or_else(|e| panic!("illegal test move {usi}: {e}"));
    record.push_child(
        parent,
        Step::Move(MoveData {
            mv,
            color,
            piece: played.piece,
            captured: played.captured,
        }),
    )
}

/// Appends space-separated USI moves from `parent`; returns the last node.
pub fn push_line(record: &mut Record, parent: NodeId, moves: &str) -> NodeId {
    moves
        .split_whitespace()
        .fold(parent, |p, m| push_usi(record, p, m))
}

/// An app showing the first record of `text` (format detected as for a pasted record).
pub fn app_with(text: &str) -> super::App {
    let loaded = crate::core::notation::load(text.as_bytes(), None);
    let record = loaded.records.into_iter().next().expect("a record").record;
    super::App::new(
        record,
        super::Document::untitled("t.kif"),
        super::Config::defaults(),
    )
}
