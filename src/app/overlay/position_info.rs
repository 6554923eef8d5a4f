//! The position's info (`Ctrl-p`): the move it stands after, the side to move, its SFEN,
//! each side's pieces with their points (the 24-point count of 持将棋: rook and bishop 5,
//! the others 1, the king none), check, the number of legal moves and the mates in one. A
//! panel (`Overlay::Panel`): this file, its line in `dispatch::command::panels!` and its default key
//! are all it took.

use crate::app::overlay::behaviour::text_panel;
use crate::app::state::App;
use crate::core::notation::ki2;
use crate::core::rules::{Color, PieceKind, Position, Square};

text_panel!(
    /// The position panel, scrolled this far.
    PositionInfo,
    "POSITION",
    "Position",
    position_lines
);

/// The panel's lines.
fn position_lines(app: &App) -> Vec<String> {
    let pos = app.position();
    let (record, cur) = (app.record(), app.cur());
    let ply = record.node(cur).ply;
    let last = record.last_move_at(cur);
    let mut lines = vec![match last {
        Some(md) => {
            let before = record.node(cur).parent.map(|p| record.position_at(p));
            let text = match before {
                Some(before) => ki2::move_text(&before, md, None),
                None => md.mv.usi(),
            };
            format!("After move {}: {text}", record.move_number(cur))
        }
        None if ply == 0 => "The start position".into(),
        None => format!("After move {} (an ending)", record.move_number(cur)),
    }];
    let side = match pos.side_to_move() {
        Color::Black => "▲ sente (先手)",
        Color::White => "△ gote (後手)",
    };
    lines.push(format!("Side to move: {side}"));
    lines.push(format!("SFEN: {}", pos.to_sfen()));
    lines.push(String::new());
    lines.extend([Color::Black, Color::White].map(|c| material_line(pos, c)));
    lines.push(String::new());
    let moves = pos.legal_moves();
    lines.push(format!(
        "In check: {}",
        if pos.in_check() { "yes" } else { "no" }
    ));
    lines.push(match (moves.len(), pos.in_check()) {
        (0, true) => "Legal moves: none (checkmate)".into(),
        (0, false) => "Legal moves: none".into(),
        (n, _) => format!("Legal moves: {n}"),
    });
    let prev_to = last.map(|md| md.mv.to());
    let mates = mates_in_one(pos, &moves, prev_to);
    lines.push(if mates.is_empty() {
        "Mate in one: none".into()
    } else {
        format!("Mate in one: {}", mates.join(" "))
    });
    lines
}

/// The pieces in the order a hand is written: the king, then the hand's order.
const KINDS: [PieceKind; 8] = {
    let h = PieceKind::HAND;
    [PieceKind::King, h[0], h[1], h[2], h[3], h[4], h[5], h[6]]
};

/// One side's pieces (promoted ones counted as what they were), its hand and its points.
fn material_line(pos: &Position, color: Color) -> String {
    let mut count = [0u32; KINDS.len()];
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq).filter(|p| p.color == color) {
            let kind = p.kind.unpromote();
            if let Some(i) = KINDS.iter().position(|&k| k == kind) {
                count[i] += 1;
            }
        }
    }
    let mut hand = Vec::new();
    for (kind, n) in pos.hand(color) {
        if let Some(i) = KINDS.iter().position(|&k| k == kind) {
            count[i] += u32::from(n);
        }
        hand.push(piece_count(kind, u32::from(n)));
    }
    let points: u32 = (KINDS.iter().zip(count))
        .map(|(k, n)| match k {
            PieceKind::King => 0,
            PieceKind::Rook | PieceKind::Bishop => 5 * n,
            _ => n,
        })
        .sum();
    let pieces: Vec<String> = (KINDS.iter().zip(count))
        .filter(|(_, n)| *n > 0)
        .map(|(&k, n)| piece_count(k, n))
        .collect();
    let hand = if hand.is_empty() {
        "none".into()
    } else {
        hand.join(" ")
    };
    let who = match color {
        Color::Black => "▲ sente",
        Color::White => "△ gote",
    };
    format!(
        "{who}: {} (in hand: {hand}), {points} points",
        pieces.join(" ")
    )
}

/// `金2`, or `角` for one.
fn piece_count(kind: PieceKind, n: u32) -> String {
    let c = kind.board_char();
    if n == 1 { c.to_string() } else { format!("{c}{n}") }
}

/// The legal moves after which the other side is checkmated, in KI2 (a pawn drop that
/// mates is not legal, so it is not among them).
fn mates_in_one(
    pos: &Position,
    moves: &[crate::core::rules::Move],
    prev_to: Option<Square>,
) -> Vec<String> {
    let mut mates = Vec::new();
    for &mv in moves {
        let mut after = pos.clone();
        let Ok(md) = after.play_move(mv) else {
            continue;
        };
        if after.in_check() && after.is_checkmate() {
            mates.push(ki2::move_text(pos, &md, prev_to));
        }
    }
    mates
}
