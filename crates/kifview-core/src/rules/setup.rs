//! The rules a position must meet before play can start from it (a set-up position, a tsume
//! problem, the position `kifview mate` sends an engine): pieces the set holds, 二歩, pieces that
//! can never move (行き所のない駒), kings, the side not to move in check.

use super::{Color, Piece, PieceKind, Position, Square};
use crate::notation::japanese::square_kif;

/// How many of each unpromoted kind the standard set holds (pawn, lance, knight, silver, gold,
/// bishop, rook, king: `PieceKind as usize`).
pub const SET: [u32; 8] = [18, 4, 4, 4, 4, 2, 2, 2];

/// A position that passed [`validate`], and the rules relaxed for it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Checked {
    pub position: Position,
    /// Rules relaxed because the position is a tsume problem (said to the user).
    pub relaxed: Vec<String>,
}

/// How many of each unpromoted kind the position uses (board and hands), by `PieceKind as usize`.
pub fn used(pos: &Position) -> [u32; 8] {
    let mut n = [0u32; 8];
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            n[p.kind.unpromote() as usize] += 1;
        }
    }
    for c in [Color::Black, Color::White] {
        for k in PieceKind::HAND {
            n[k as usize] += pos.hand_count(c, k) as u32;
        }
    }
    n
}

/// Names the kinds the position uses more of than the 40-piece set holds.
pub fn overdrawn(pos: &Position) -> Option<String> {
    let u = used(pos);
    let over: Vec<String> = (0..8)
        .filter(|&i| u[i] > SET[i])
        .map(|i| {
            // `PieceKind::ALL` starts with the eight unpromoted kinds in `as usize` order.
            let k = PieceKind::ALL[i];
            format!("{} {} of {}", k.board_char(), u[i], SET[i])
        })
        .collect();
    (!over.is_empty()).then(|| format!("more pieces than the set holds: {}", over.join(", ")))
}

/// Every rule a position must meet before play can start from it; kings are relaxed as tsume
/// allows (no sente king), and that is said.
pub fn validate(pos: &Position) -> Result<Checked, Vec<String>> {
    let mut errors = Vec::new();
    let mut relaxed = Vec::new();
    if let Some(why) = overdrawn(pos) {
        errors.push(why);
    }
    let mut kings = [0u32; 2];
    for c in [Color::Black, Color::White] {
        for file in 1..=9u8 {
            let pawns = (1..=9u8)
                .filter(|&r| {
                    pos.piece_at(Square::new(file, r).expect("valid"))
                        == Some(Piece::new(PieceKind::Pawn, c))
                })
                .count();
            if pawns > 1 {
                errors.push(format!(
                    "二歩: {} has {pawns} pawns on file {}",
                    side_name(c),
                    file
                ));
            }
        }
    }
    for sq in Square::all() {
        let Some(p) = pos.piece_at(sq) else { continue };
        if p.kind == PieceKind::King {
            kings[p.color.index()] += 1;
        }
        // Ranks left ahead of the piece, counted from its owner's side.
        let ahead = match p.color {
            Color::Black => sq.rank() - 1,
            Color::White => 9 - sq.rank(),
        };
        let stuck = match p.kind {
            PieceKind::Pawn | PieceKind::Lance => ahead == 0,
            PieceKind::Knight => ahead < 2,
            _ => false,
        };
        if stuck {
            errors.push(format!(
                "行き所のない駒: {}'s {} on {} can never move",
                side_name(p.color),
                p.kind.board_char(),
                square_kif(sq)
            ));
        }
    }
    for c in [Color::Black, Color::White] {
        if kings[c.index()] > 1 {
            errors.push(format!(
                "{} has {} kings (one at most)",
                side_name(c),
                kings[c.index()]
            ));
        }
    }
    match (kings[0], kings[1]) {
        (_, 0) => errors.push("gote has no king (a tsume problem needs gote's king)".into()),
        (0, _) => relaxed.push("tsume: sente has no king".into()),
        _ => {}
    }
    // The side not to move must not be in check: the side to move could take its king.
    let mut other = pos.clone();
    other.set_side_to_move(pos.side_to_move().flip());
    if kings[other.side_to_move().index()] == 1 && other.in_check() {
        errors.push(format!(
            "{} is in check but it is {}'s turn",
            side_name(other.side_to_move()),
            side_name(pos.side_to_move())
        ));
    }
    if errors.is_empty() {
        Ok(Checked {
            position: pos.clone(),
            relaxed,
        })
    } else {
        Err(errors)
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}
