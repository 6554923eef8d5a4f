//! What is known of the two kings' safety, carried from each position to the next.
//!
//! Judging a move asks whether the mover's king is attacked afterwards. Looking along all
//! eight lines around the king and at the two knight squares costs about 200 instructions,
//! asked of every move of every record read. Most of it can be skipped when the answer for
//! the position before the move is known: a move changes two squares, so a king that was not
//! attacked before can only be attacked along the line through the square the piece left
//! (or, for the other king, by the piece that arrived). The moves that are judged
//! (`play_checked`, `play`, `check`) keep both answers up to date; `play_unchecked` (a
//! replay, which asks nothing on the way) and anything else that changes the board forget
//! them, and they are looked up in full the next time they are asked.
//!
//! Debug builds (every test) check each remembered answer against the full look.

use super::{DIRECTIONS, Position, RAY_LENGTHS, REACHING, forward, index_step};
use crate::rules::types::{Color, Move, PieceKind, Square};

/// Whether the king of the side to move is attacked (in check) and whether the other king is
/// (a position an illegal move left behind), when known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Safety {
    known: bool,
    attacks: Attacks,
}

impl Safety {
    /// Nothing known: the next question looks at the board.
    pub(super) const UNKNOWN: Safety = Safety {
        known: false,
        attacks: Attacks::NONE,
    };
    /// Neither king attacked (a board without kings, for one).
    pub(super) const SAFE: Safety = Safety::known(Attacks::NONE);

    pub(super) const fn known(attacks: Attacks) -> Safety {
        Safety {
            known: true,
            attacks,
        }
    }
    /// The same facts with the other side to move.
    pub(super) fn swapped(self) -> Safety {
        Safety {
            known: self.known,
            attacks: Attacks {
                to_move: self.attacks.other,
                other: self.attacks.to_move,
            },
        }
    }
}

/// Is each king attacked: the side to move's (`to_move`, a check) and the other's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Attacks {
    pub(super) to_move: bool,
    pub(super) other: bool,
}

impl Attacks {
    const NONE: Attacks = Attacks {
        to_move: false,
        other: false,
    };
}

/// No line joins the two squares (see [`LINES`]).
const NO_LINE: u8 = 8;

/// For squares `a` and `b` (board indices), the direction (index in `DIRECTIONS`) of the line
/// from `a` through `b`, or `NO_LINE`.
static LINES: [[u8; 81]; 81] = {
    let mut out = [[NO_LINE; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let step = (DIRECTIONS[d].0 as isize) * 9 + DIRECTIONS[d].1 as isize;
            let mut b = a as isize;
            let mut n = 0;
            while n < RAY_LENGTHS[a][d] {
                b += step;
                out[a][b as usize] = d as u8;
                n += 1;
            }
            d += 1;
        }
        a += 1;
    }
    out
};

impl Position {
    /// Both kings' safety: remembered, or looked up in full.
    #[inline]
    pub(super) fn attacks(&self) -> Attacks {
        if self.safety.known {
            debug_assert_eq!(
                self.safety.attacks,
                self.look(),
                "remembered king safety of {self:?}"
            );
            self.safety.attacks
        } else {
            self.look()
        }
    }
    /// [`Position::attacks`], remembered from now on.
    #[inline]
    pub(super) fn attacks_remembered(&mut self) -> Attacks {
        if !self.safety.known {
            self.safety = Safety::known(self.look());
        }
        self.attacks()
    }
    /// Is the side to move in check (one look around one king when nothing is known)?
    pub(super) fn king_to_move_attacked(&self) -> bool {
        if self.safety.known {
            self.attacks().to_move
        } else {
            self.king_capturable(self.side.flip()) == Some(true)
        }
    }
    /// This position with its kings' safety known, for asking many moves of it (each then
    /// judged from the lines it changes).
    pub(super) fn with_known_safety(&self) -> std::borrow::Cow<'_, Position> {
        if self.safety.known {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut p = self.clone();
        p.attacks_remembered();
        std::borrow::Cow::Owned(p)
    }
    /// Both kings' safety, by looking around each king.
    fn look(&self) -> Attacks {
        Attacks {
            to_move: self.king_capturable(self.side.flip()) == Some(true),
            other: self.king_capturable(self.side) == Some(true),
        }
    }

    /// The kings' safety after `mv` (`self` is the position after it), from `before`, their
    /// safety in the position before it. `king_moved`: the piece that moved was the mover's
    /// king.
    #[inline(always)]
    pub(super) fn attacks_after(&self, before: Attacks, mv: Move, king_moved: bool) -> Attacks {
        let mover = self.side.flip();
        let to = mv.to().index();
        let from = mv.from().map(Square::index);
        // The mover's king (to move before the move). Unattacked before and still on its
        // square, it can only be attacked along the line the moving piece opened (a piece
        // dropped or arriving blocks lines, it opens none; a capture removes an attacker).
        let other = if king_moved || before.to_move {
            self.king_capturable(self.side) == Some(true)
        } else {
            match (self.kings[mover.index()], from) {
                (Some(k), Some(f)) => self.attacked_on_line(k.index(), f, self.side),
                _ => false,
            }
        };
        // The king of the side to move now: unattacked before, it can only be attacked by
        // the piece that arrived (along the line to it, or by a knight's jump), or along the
        // line through the square that piece left.
        let to_move = if before.other {
            self.king_capturable(mover) == Some(true)
        } else {
            match self.kings[self.side.index()] {
                Some(k) => {
                    let ki = k.index();
                    let line_to = LINES[ki][to];
                    let line_from = from.map_or(NO_LINE, |f| LINES[ki][f]);
                    (line_to != NO_LINE && self.attacked_along(ki, line_to as usize, mover))
                        || (line_from != NO_LINE
                            && line_from != line_to
                            && self.attacked_along(ki, line_from as usize, mover))
                        || self.knight_checks(mv.to(), k, mover)
                }
                None => false,
            }
        };
        Attacks { to_move, other }
    }

    /// Is the king on index `k` attacked by `attacker` along the line from it through index
    /// `through` (by the first piece on that line)? False when they share no line.
    #[inline(always)]
    fn attacked_on_line(&self, k: usize, through: usize, attacker: Color) -> bool {
        let d = LINES[k][through];
        d != NO_LINE && self.attacked_along(k, d as usize, attacker)
    }

    /// Does a knight of `attacker` on `knight` attack `king`?
    #[inline]
    fn knight_checks(&self, knight: Square, king: Square, attacker: Color) -> bool {
        king.rank() as i8 == knight.rank() as i8 + 2 * forward(attacker)
            && knight.file().abs_diff(king.file()) == 1
            && self.board[knight.index()].is_some_and(|p| p.kind == PieceKind::Knight)
    }

    /// Is the first piece from board index `k` in direction `d` (of `DIRECTIONS`) one of
    /// `attacker`'s that can move onto `k` from where it stands?
    #[inline(always)]
    pub(super) fn attacked_along(&self, k: usize, d: usize, attacker: Color) -> bool {
        let (near, far) = REACHING[attacker.index()][d];
        let step = index_step(d);
        let (mut i, mut kinds) = (k, near);
        for _ in 0..RAY_LENGTHS[k][d] {
            i = i.wrapping_add_signed(step);
            if let Some(p) = self.board[i] {
                return p.color == attacker && kinds & 1 << p.kind as u16 != 0;
            }
            kinds = far;
        }
        false
    }
}
