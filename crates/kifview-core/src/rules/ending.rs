//! The rules a game ends by that a single move does not show: the entering-king declaration
//! (入玉宣言, by the 27-point rule of CSA or the 24-point rule) and repetition (千日手, and
//! 連続王手の千日手, where the side that gave check all through the cycle loses).

use super::{Color, PieceKind, Position, Square};

/// Which declaration rule a game is played under (YaneuraOu's `EnteringKingRule`:
/// `CSARule27`, `CSARule24`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DeclarationRule {
    /// CSA's rule: sente needs 28 points, gote 27; a declaration that falls short loses.
    #[default]
    Points27,
    /// The 24-point rule: 31 points or more wins, 24 to 30 is a draw (持将棋), fewer loses.
    Points24,
}

impl DeclarationRule {
    /// The name engines know it by (`EnteringKingRule` option value).
    pub fn usi_name(self) -> &'static str {
        match self {
            DeclarationRule::Points27 => "CSARule27",
            DeclarationRule::Points24 => "CSARule24",
        }
    }
}

/// What a declaration decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    /// The declaring side wins (入玉勝ち).
    Win,
    /// A draw (持将棋), under the 24-point rule only.
    Draw,
    /// The declaration does not hold: the declaring side loses. Says which condition failed.
    Loss(DeclarationFault),
}

/// Why a declaration does not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclarationFault {
    /// The declaring side has no king.
    NoKing,
    /// Its king is not in the opponent's three ranks.
    KingOutside,
    /// Its king is in check.
    InCheck,
    /// Fewer than ten of its other pieces are in the opponent's three ranks.
    FewPieces(u32),
    /// Too few points (big pieces 5, others 1, over the pieces in the opponent's ranks and in
    /// hand): the count and the least needed.
    FewPoints { points: u32, needed: u32 },
}

impl DeclarationFault {
    pub fn describe(self) -> String {
        match self {
            DeclarationFault::NoKing => "the declaring side has no king".into(),
            DeclarationFault::KingOutside => "the king is not in the opponent's camp".into(),
            DeclarationFault::InCheck => "the king is in check".into(),
            DeclarationFault::FewPieces(n) => {
                format!("{n} pieces in the opponent's camp besides the king (10 needed)")
            }
            DeclarationFault::FewPoints { points, needed } => {
                format!("{points} points ({needed} needed)")
            }
        }
    }
}

/// What counts for a declaration by `side` in `pos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclarationCount {
    pub king_inside: bool,
    pub in_check: bool,
    /// Pieces other than the king in the opponent's three ranks.
    pub pieces_inside: u32,
    /// Rook and bishop (promoted or not) 5, every other piece 1, over the pieces inside and
    /// those in hand.
    pub points: u32,
}

fn piece_points(kind: PieceKind) -> u32 {
    match kind.unpromote() {
        PieceKind::Rook | PieceKind::Bishop => 5,
        PieceKind::King => 0,
        _ => 1,
    }
}

/// Counts what a declaration by the side to move of `pos` stands on.
pub fn declaration_count(pos: &Position) -> DeclarationCount {
    let side = pos.side_to_move();
    let mut count = DeclarationCount {
        king_inside: false,
        in_check: pos.in_check(),
        pieces_inside: 0,
        points: 0,
    };
    for sq in Square::all().filter(|s| s.in_promotion_zone(side)) {
        match pos.piece_at(sq) {
            Some(p) if p.color == side && p.kind == PieceKind::King => count.king_inside = true,
            Some(p) if p.color == side => {
                count.pieces_inside += 1;
                count.points += piece_points(p.kind);
            }
            _ => {}
        }
    }
    for (kind, n) in pos.hand(side) {
        count.points += piece_points(kind) * u32::from(n);
    }
    count
}

/// The side to move of `pos` declares a win by entering king (USI `bestmove win`, CSA
/// `%KACHI`): what the rule decides. The conditions besides points (the side's own move, its
/// king in the opponent's camp and not in check, ten other pieces there) are CSA's, under both
/// rules; the time left is the caller's to check (a flag that fell comes first).
pub fn declare(pos: &Position, rule: DeclarationRule) -> Declared {
    let side = pos.side_to_move();
    if pos.king_square(side).is_none() {
        return Declared::Loss(DeclarationFault::NoKing);
    }
    let c = declaration_count(pos);
    if !c.king_inside {
        return Declared::Loss(DeclarationFault::KingOutside);
    }
    if c.in_check {
        return Declared::Loss(DeclarationFault::InCheck);
    }
    if c.pieces_inside < 10 {
        return Declared::Loss(DeclarationFault::FewPieces(c.pieces_inside));
    }
    match rule {
        DeclarationRule::Points27 => {
            let needed = if side == Color::Black { 28 } else { 27 };
            if c.points >= needed {
                Declared::Win
            } else {
                Declared::Loss(DeclarationFault::FewPoints {
                    points: c.points,
                    needed,
                })
            }
        }
        DeclarationRule::Points24 => match c.points {
            31.. => Declared::Win,
            24..=30 => Declared::Draw,
            points => Declared::Loss(DeclarationFault::FewPoints { points, needed: 24 }),
        },
    }
}

/// What the last move's repetition decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeated {
    /// The position has now occurred four times: a draw (千日手).
    Draw,
    /// Four times, and every move of `checker` since the position's first occurrence gave
    /// check (連続王手の千日手): `checker` loses.
    PerpetualCheck { checker: Color },
}

/// The positions of a game, for 千日手: push the start, then each position after a move.
#[derive(Clone, Debug, Default)]
pub struct Repetition {
    /// Per position: its key, who moved into it (None for the start), and whether that move
    /// gave check.
    seen: Vec<(u64, Option<Color>, bool)>,
}

impl Repetition {
    pub fn new(start: &Position) -> Repetition {
        Repetition {
            seen: vec![(start.hash_key(), None, false)],
        }
    }

    /// Records the position `after` a move by the other side than its side to move, and says
    /// whether the game ends by repetition there.
    pub fn push(&mut self, after: &Position) -> Option<Repeated> {
        let key = after.hash_key();
        let mover = after.side_to_move().flip();
        self.seen.push((key, Some(mover), after.in_check()));
        let mut at = self.seen.iter().enumerate().filter(|(_, s)| s.0 == key);
        let first = at.next().map(|(i, _)| i)?;
        if at.count() + 1 < 4 {
            return None;
        }
        // The moves from the first occurrence to now: did one side give check with each?
        let cycle = &self.seen[first + 1..];
        for checker in [mover, mover.flip()] {
            let mut moves = cycle.iter().filter(|s| s.1 == Some(checker)).peekable();
            if moves.peek().is_some() && moves.all(|s| s.2) {
                return Some(Repeated::PerpetualCheck { checker });
            }
        }
        Some(Repeated::Draw)
    }

    /// Forgets the last `n` positions (a takeback).
    pub fn pop(&mut self, n: usize) {
        let keep = self.seen.len().saturating_sub(n).max(1);
        self.seen.truncate(keep);
    }

    /// How many positions it holds (the start included).
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Move;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    /// Sente's king on 5b with ten pawns in gote's camp, and big pieces in hand.
    #[test]
    fn the_27_point_rule_counts_camp_and_hand() {
        // Inside: 10 pawns (10 points); hand: 2 rooks 2 bishops (20): 30 ≥ 28.
        let p = pos("PPPPPPPPP/4K3P/9/9/9/9/9/9/4k4 b 2R2B 1");
        let c = declaration_count(&p);
        assert_eq!((c.king_inside, c.pieces_inside, c.points), (true, 10, 30));
        assert_eq!(declare(&p, DeclarationRule::Points27), Declared::Win);
        // 2 rooks 1 bishop: 25 points, short of 28 for sente.
        let p = pos("PPPPPPPPP/4K3P/9/9/9/9/9/9/4k4 b 2RB 1");
        assert_eq!(
            declare(&p, DeclarationRule::Points27),
            Declared::Loss(DeclarationFault::FewPoints {
                points: 25,
                needed: 28
            })
        );
        // 27 points is enough for gote: 10 pawns inside, 2 rooks, 1 bishop, 2 golds in hand.
        let p = pos("4K4/9/9/9/9/9/9/p3k4/ppppppppp w 2rb2g 1");
        assert_eq!(declaration_count(&p).points, 27);
        assert_eq!(declare(&p, DeclarationRule::Points27), Declared::Win);
        let p = pos("4K4/9/9/9/9/9/9/p3k4/ppppppppp w 2rbg 1");
        assert!(matches!(
            declare(&p, DeclarationRule::Points27),
            Declared::Loss(DeclarationFault::FewPoints { needed: 27, .. })
        ));
    }

    #[test]
    fn declaration_conditions_besides_points() {
        // King outside the camp.
        let p = pos("PPPPPPPPP/8P/9/4K4/9/9/9/9/4k4 b 2R2B 1");
        assert_eq!(
            declare(&p, DeclarationRule::Points27),
            Declared::Loss(DeclarationFault::KingOutside)
        );
        // Nine pieces inside only.
        let p = pos("PPPPPPPPP/4K4/9/9/9/9/9/9/4k4 b 2R2BP 1");
        assert_eq!(
            declare(&p, DeclarationRule::Points27),
            Declared::Loss(DeclarationFault::FewPieces(9))
        );
        // In check (a gote rook on 5e).
        let p = pos("PPPPPPPPP/4K3P/9/9/4r4/9/9/9/4k4 b 2R2B 1");
        assert_eq!(
            declare(&p, DeclarationRule::Points27),
            Declared::Loss(DeclarationFault::InCheck)
        );
        // No king.
        let p = pos("PPPPPPPPP/8P/9/9/9/9/9/9/4k4 b 2R2B 1");
        assert_eq!(
            declare(&p, DeclarationRule::Points27),
            Declared::Loss(DeclarationFault::NoKing)
        );
    }

    #[test]
    fn the_24_point_rule_wins_at_31_draws_from_24() {
        // 10 pawns + 2R2B = 30: a draw under 24, a win under 27.
        let p = pos("PPPPPPPPP/4K3P/9/9/9/9/9/9/4k4 b 2R2B 1");
        assert_eq!(declare(&p, DeclarationRule::Points24), Declared::Draw);
        let p = pos("PPPPPPPPP/4K3P/9/9/9/9/9/9/4k4 b 2R2BG 1");
        assert_eq!(declare(&p, DeclarationRule::Points24), Declared::Win);
        // 10 + 5 + 5 + 3 golds = 23: a loss.
        let p = pos("PPPPPPPPP/4K3P/9/9/9/9/9/9/4k4 b RB3G 1");
        assert_eq!(
            declare(&p, DeclarationRule::Points24),
            Declared::Loss(DeclarationFault::FewPoints {
                points: 23,
                needed: 24
            })
        );
    }

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    /// Plays `moves` from `start` and returns what repetition said at each move.
    fn run(start: &str, moves: &[&str]) -> Vec<Option<Repeated>> {
        let mut p = if start == "startpos" {
            Position::startpos()
        } else {
            pos(start)
        };
        let mut r = Repetition::new(&p);
        moves
            .iter()
            .map(|m| {
                p.play(mv(m)).unwrap();
                r.push(&p)
            })
            .collect()
    }

    #[test]
    fn fourfold_repetition_is_a_draw_on_the_fourth_occurrence() {
        let cycle = ["5i5h", "5a5b", "5h5i", "5b5a"];
        let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        let said = run("startpos", &moves);
        // The start occurs again after moves 4, 8 and 12: the fourth time is the 12th move.
        assert!(said[..11].iter().all(Option::is_none), "{said:?}");
        assert_eq!(said[11], Some(Repeated::Draw));
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        // Sente's rook between 5c and 4c checks a king stepping between 5a and 4a.
        let start2 = "4k4/9/4R4/9/9/9/9/9/K8 w - 1";
        let moves = [
            "5a4a", "5c4c", "4a5a", "4c5c", // back to the start (2nd)
            "5a4a", "5c4c", "4a5a", "4c5c", // 3rd
            "5a4a", "5c4c", "4a5a", "4c5c", // 4th
        ];
        let said = run(start2, &moves);
        assert!(said[..11].iter().all(Option::is_none), "{said:?}");
        assert_eq!(
            said[11],
            Some(Repeated::PerpetualCheck {
                checker: Color::Black
            })
        );
        // The same cycle with one quiet rook move in it is a plain draw.
        let moves = [
            "5a4a", "5c4c", "4a5a", "4c5c", "5a4a", "5c6c", "4a5a", "6c5c", //
            "5a4a", "5c4c", "4a5a", "4c5c", "5a4a", "5c4c", "4a5a", "4c5c",
        ];
        let said = run(start2, &moves);
        let first = said.iter().position(Option::is_some);
        assert_eq!(first, Some(11), "{said:?}");
        assert_eq!(said[11], Some(Repeated::Draw));
    }

    #[test]
    fn takeback_forgets_positions() {
        let p0 = Position::startpos();
        let mut r = Repetition::new(&p0);
        let mut p = p0.clone();
        for m in ["5i5h", "5a5b", "5h5i", "5b5a"].iter().cycle().take(11) {
            p.play(mv(m)).unwrap();
            assert_eq!(r.push(&p), None);
        }
        r.pop(3);
        assert_eq!(r.len(), 9);
        r.pop(100);
        assert_eq!(r.len(), 1, "the start stays");
    }
}
