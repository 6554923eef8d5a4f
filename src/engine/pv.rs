//! Engine move lines checked with kifview's rules (written in Japanese by
//! `core::notation::ki2::line_text`: `▲７六歩△３四歩`).

use crate::core::rules::{Illegal, Move, Position};

/// A line of moves from an engine, cut at the first move the rules do not allow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckedPv {
    /// The legal prefix.
    pub moves: Vec<Move>,
    /// Why the line stops early, when it does.
    pub cut: Option<PvCut>,
}

/// Where and why an engine's line was cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvCut {
    /// 0-based index of the first rejected move in the engine's line.
    pub index: usize,
    /// The rejected move as the engine wrote it (control characters removed).
    pub text: String,
    pub reason: String,
}

impl PvCut {
    /// One line for the status line or a note under the PV.
    pub fn note(&self) -> String {
        format!(
            "engine line cut at move {} ({}): {}",
            self.index + 1,
            self.text,
            self.reason
        )
    }
}

/// `Position::check`, except that a pawn drop is never 打ち歩詰め when the other side has no
/// king (tsume positions).
pub fn check_move(pos: &Position, mv: Move) -> Result<(), Illegal> {
    match pos.check(mv) {
        Err(Illegal::DropPawnMate) if pos.king_square(pos.side_to_move().flip()).is_none() => {
            Ok(())
        }
        r => r,
    }
}

/// Reads and checks a line of USI moves (separated by spaces) from `pos`.
pub fn check_pv(pos: &Position, pv: &str) -> CheckedPv {
    let mut out = CheckedPv::default();
    let mut p = pos.clone();
    for (index, text) in pv.split_ascii_whitespace().enumerate() {
        let verdict = match Move::from_usi(text) {
            None => Err("not a USI move".to_string()),
            Some(mv) => check_move(&p, mv)
                .map(|()| mv)
                .map_err(|e| e.describe().to_string()),
        };
        match verdict {
            Ok(mv) => {
                p.play_unchecked(mv);
                out.moves.push(mv);
            }
            Err(reason) => {
                out.cut = Some(PvCut {
                    index,
                    text: text.chars().filter(|c| !c.is_control()).take(16).collect(),
                    reason,
                });
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::ki2;
    use crate::core::rules::Square;

    fn after(moves: &str) -> Position {
        let mut p = Position::startpos();
        for m in moves.split_whitespace() {
            p.play(Move::from_usi(m).unwrap()).unwrap();
        }
        p
    }

    #[test]
    fn legal_line_in_japanese_starts_with_the_side_to_move() {
        let p = Position::startpos();
        let pv = check_pv(&p, "7g7f 3c3d 8h2b+ 3a2b B*4e");
        assert_eq!(pv.cut, None);
        assert_eq!(
            ki2::line_text(&p, &pv.moves, None),
            "▲７六歩△３四歩▲２二角成△同　銀▲４五角"
        );
        let w = after("7g7f");
        let pv = check_pv(&w, "3c3d 2g2f");
        assert_eq!(ki2::line_text(&w, &pv.moves, None), "△３四歩▲２六歩");
    }

    #[test]
    fn same_square_continues_from_the_game_move() {
        let p = after("7g7f 3c3d 8h2b+");
        let pv = check_pv(&p, "3a2b");
        assert_eq!(
            ki2::line_text(&p, &pv.moves, Some(Square::new(2, 2).unwrap())),
            "△同　銀"
        );
    }

    #[test]
    fn cut_at_the_first_illegal_move_with_a_note() {
        let p = Position::startpos();
        let pv = check_pv(&p, "7g7f 3c3d 8h2b+ 2a2b 3a2b");
        assert_eq!(pv.moves.len(), 3);
        let cut = pv.cut.unwrap();
        assert_eq!((cut.index, cut.text.as_str()), (3, "2a2b"));
        assert!(
            cut.note().starts_with("engine line cut at move 4 (2a2b): "),
            "{}",
            cut.note()
        );
        let pv = check_pv(&p, "7g7f zz\x1b[2J 3c3d");
        assert_eq!(pv.moves.len(), 1);
        let cut = pv.cut.unwrap();
        assert_eq!(cut.reason, "not a USI move");
        assert!(!cut.text.contains('\x1b'));
    }

    #[test]
    fn pawn_drop_mate_is_allowed_without_a_defending_king_only() {
        let p = Position::from_sfen("k8/9/1GN6/9/9/9/9/9/8K b P 1").unwrap();
        assert_eq!(check_pv(&p, "P*9b").cut.unwrap().index, 0, "打ち歩詰め");
        let tsume = Position::from_sfen("9/9/1GN6/9/9/9/9/9/8K b P 1").unwrap();
        assert_eq!(check_pv(&tsume, "P*9b").cut, None);
    }
}
