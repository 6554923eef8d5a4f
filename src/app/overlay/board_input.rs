//! Entering a move on the board: a cursor picks a piece (or a piece in hand), then its
//! square; the promotion question; clicks on squares.

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
pub use crate::app::overlay::{BoardInput, BoardMarks, Picked};
use crate::app::overlay::{Mode, Overlay};
use crate::app::state::{App, Level};
use crate::core::rules::{Color, Move, PieceKind, Square};

/// Squares the piece on `from` may legally go to, asked of `Position::check` square by square:
/// the same judge, naming the rule a move breaks, that the move is finally played by.
fn destinations_from(pos: &crate::core::rules::Position, from: Square) -> Vec<Square> {
    Square::all()
        .filter(|&to| {
            [false, true]
                .into_iter()
                .any(|promote| pos.check(Move::Normal { from, to, promote }).is_ok())
        })
        .collect()
}

/// Squares `kind` may legally be dropped on (see `destinations_from`).
fn drop_destinations(pos: &crate::core::rules::Position, kind: PieceKind) -> Vec<Square> {
    Square::all()
        .filter(|&to| pos.check(Move::Drop { kind, to }).is_ok())
        .collect()
}

fn square_name(sq: Square) -> String {
    crate::core::notation::japanese::square_kif(sq)
}

impl App {
    /// Highlights for the board while entering a move (on top).
    pub fn board_marks(&self) -> Option<BoardMarks<'_>> {
        match self.overlays.top() {
            Some(Overlay::BoardInput(b)) => Some(b.marks()),
            _ => None,
        }
    }

    /// Move input when it is on top.
    fn board_top(&mut self) -> Option<&mut BoardInput> {
        match self.overlays.top_mut() {
            Some(Overlay::BoardInput(b)) => Some(b),
            _ => None,
        }
    }

    /// Move input when it is on top and not waiting for the promotion answer.
    fn board_ready(&mut self) -> Option<&mut BoardInput> {
        self.board_top().filter(|b| b.promotion.is_none())
    }

    pub(crate) fn start_board(&mut self) {
        if self.says_the_line_ended() {
            return;
        }
        let last = self.record().last_move_at(self.cur()).map(|m| m.mv.to());
        let mut b = BoardInput::default();
        b.cursor = last.or(self.board_cursor).unwrap_or(b.cursor);
        self.overlays.replace_or_push(Overlay::BoardInput(b));
        self.board_hint();
    }

    pub(crate) fn board_hint(&mut self) {
        let Some(b) = self.overlays.board() else {
            return;
        };
        let text = match (b.promotion, b.picked) {
            (Some(_), _) => format!(
                "成りますか? {}",
                self.keys_hint(
                    KeyMode::Board,
                    &[
                        (Command::Promote, "成る"),
                        (Command::NoPromote, "不成"),
                        (Command::BoardCancel, "cancel"),
                    ],
                )
            ),
            (None, Some(p)) => {
                let what = match p {
                    Picked::Square(s) => format!(
                        "{}{}",
                        square_name(s),
                        self.position()
                            .piece_at(s)
                            .map_or('?', |p| p.kind.board_char())
                    ),
                    Picked::Hand(k) => format!("{}打", k.board_char()),
                };
                format!(
                    "{what}: choose the square ({}), {} puts it back",
                    self.key_name(KeyMode::Board, Command::BoardPick),
                    self.key_name(KeyMode::Board, Command::BoardCancel)
                )
            }
            (None, None) => format!(
                "move input: hjkl/arrows move, {} picks a piece, P L N S G B R drop from the hand, {} leaves",
                self.key_name(KeyMode::Board, Command::BoardPick),
                self.key_name(KeyMode::Board, Command::BoardCancel)
            ),
        };
        self.info(text);
    }

    pub(crate) fn move_cursor(&mut self, dx: i8, dy: i8) {
        // On screen, left is towards file 9 and up towards rank 1 (the other way when flipped).
        let s = if self.flipped() { -1 } else { 1 };
        let Some(b) = self.board_top() else {
            return;
        };
        let c = b.cursor;
        let file = (c.file() as i8 - dx * s).clamp(1, 9) as u8;
        let rank = (c.rank() as i8 + dy * s).clamp(1, 9) as u8;
        if let Some(sq) = Square::new(file, rank) {
            b.cursor = sq;
        }
        self.board_hint();
    }

    /// A click on a square: starts move input if needed, then picks there.
    pub(crate) fn board_click(&mut self, sq: Square) {
        if matches!(self.mode(), Mode::Normal | Mode::Train) {
            self.start_board();
        }
        let Some(b) = self.board_ready() else {
            return;
        };
        b.cursor = sq;
        self.board_pick();
    }

    pub(crate) fn board_pick(&mut self) {
        let Some(b) = self.board_ready() else {
            return;
        };
        let (sq, picked) = (b.cursor, b.picked);
        let side = self.position().side_to_move();
        let own = self.position().piece_at(sq).filter(|p| p.color == side);
        match picked {
            Some(Picked::Square(from)) if from == sq => self.board_cancel(),
            Some(Picked::Square(_)) if own.is_some() => self.pick_square(sq),
            Some(Picked::Square(from)) => self.board_move_to(from, sq),
            Some(Picked::Hand(kind)) => {
                self.finish_board_move(Move::Drop { kind, to: sq });
            }
            None => self.pick_square(sq),
        }
    }

    pub(crate) fn pick_square(&mut self, sq: Square) {
        let pos = self.position();
        let side = pos.side_to_move();
        match pos.piece_at(sq) {
            None => {
                self.info_level(
                    format!(
                        "no piece on {}: put the cursor on one of {}'s pieces (or P L N S G B R to drop)",
                        square_name(sq),
                        if side == Color::Black { "☗" } else { "☖" }
                    ),
                    Level::Error,
                );
            }
            Some(p) if p.color != side => {
                self.info_level(
                    format!(
                        "the {} on {} is the opponent's",
                        p.kind.board_char(),
                        square_name(sq)
                    ),
                    Level::Error,
                );
            }
            Some(p) => {
                let targets = destinations_from(pos, sq);
                if targets.is_empty() {
                    self.info_level(
                        format!(
                            "the {} on {} has no legal move",
                            p.kind.board_char(),
                            square_name(sq)
                        ),
                        Level::Error,
                    );
                    return;
                }
                if let Some(b) = self.board_top() {
                    b.picked = Some(Picked::Square(sq));
                    b.targets = targets;
                }
                self.board_hint();
            }
        }
    }

    pub(crate) fn pick_from_hand(&mut self, kind: PieceKind) {
        if self.board_ready().is_none() {
            return;
        }
        let pos = self.position();
        if pos.hand_count(pos.side_to_move(), kind) == 0 {
            self.info_level(format!("no {} in hand", kind.board_char()), Level::Error);
            return;
        }
        let targets = drop_destinations(pos, kind);
        if targets.is_empty() {
            self.info_level(
                format!("no square to drop the {} on", kind.board_char()),
                Level::Error,
            );
            return;
        }
        if let Some(b) = self.board_top() {
            b.picked = Some(Picked::Hand(kind));
            b.targets = targets;
        }
        self.board_hint();
    }

    pub(crate) fn board_move_to(&mut self, from: Square, to: Square) {
        let (may, must) = self.position().promotion_choice(from, to);
        if must {
            self.finish_board_move(Move::Normal {
                from,
                to,
                promote: true,
            });
        } else if may {
            if let Some(b) = self.board_top() {
                b.promotion = Some((from, to));
            }
            self.board_hint();
        } else {
            self.finish_board_move(Move::Normal {
                from,
                to,
                promote: false,
            });
        }
    }

    pub(crate) fn answer_promotion(&mut self, promote: bool) {
        if let Some((from, to)) = self.board_top().and_then(|b| b.promotion.take()) {
            self.finish_board_move(Move::Normal { from, to, promote });
        }
    }

    pub(crate) fn finish_board_move(&mut self, mv: Move) {
        if let Err(reason) = self.position().check(mv) {
            if let Some(b) = self.board_top() {
                b.promotion = None;
            }
            self.info_level(
                format!("{} is illegal: {reason}", square_name(mv.to())),
                Level::Error,
            );
            return;
        }
        if let Some(b) = self.board_top() {
            b.forget_pick();
            b.cursor = mv.to();
        }
        if self.enter_move(mv) {
            self.leave_board_after_move(mv.to());
        }
    }

    /// A completed move leaves move input (as a keyboard user expects: the next key browses
    /// again); the cursor stays on the move's square for the next `i`, and the message says
    /// how to enter another.
    fn leave_board_after_move(&mut self, to: Square) {
        if self.mode() == Mode::Board {
            self.overlays.pop();
        }
        self.board_cursor = Some(to);
        let again = self.keys_for(
            crate::app::config::KeyMode::Normal,
            crate::app::dispatch::command::Command::EnterMove,
        );
        if let (Some(k), Some(m)) = (again.first(), self.message.as_mut())
            && m.level == Level::Info
        {
            m.text.push_str(&format!("; {k}: next move"));
        }
    }

    pub(crate) fn board_cancel(&mut self) {
        let Some(b) = self.board_top() else {
            return;
        };
        if b.promotion.take().is_some() || b.picked.take().is_some() {
            b.targets.clear();
            self.board_hint();
        } else {
            self.board_cursor = Some(b.cursor);
            self.overlays.pop();
            self.info("left move input");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::testing::app_with;
    use crate::app::{Action, KeyEvent, Mode, update};
    use crate::core::rules::Square;

    #[test]
    fn a_click_while_browsing_starts_a_move_and_the_completed_move_leaves_input() {
        let mut app = app_with("");
        let sq = |f, r| Square::new(f, r).unwrap();
        update(&mut app, Action::BoardClick(sq(7, 7)));
        assert_eq!(app.mode(), Mode::Board, "the first click picks the pawn");
        assert_eq!(
            app.mode_tag().unwrap().text(),
            "-- MOVE INPUT -- Esc: leave"
        );
        update(&mut app, Action::BoardClick(sq(7, 6)));
        assert_eq!(app.cur_index(), 1, "the second click plays 7六歩");
        assert_eq!(app.mode(), Mode::Normal, "and leaves move input");
        assert_eq!(app.mode_tag(), None);
        // Issue 12: `:1` then `r` went to the board cursor; now `r` opens the endings.
        for c in ":1".chars() {
            app.handle_key(KeyEvent::char(c));
        }
        app.handle_key(KeyEvent::plain(crate::app::KeyCode::Enter));
        app.handle_key(KeyEvent::char('r'));
        assert_eq!(app.mode(), Mode::List);
        // `i` starts again on the last move's square.
        app.handle_key(KeyEvent::plain(crate::app::KeyCode::Esc));
        app.handle_key(KeyEvent::char('i'));
        assert_eq!(app.overlays.board().map(|b| b.cursor), Some(sq(7, 6)));
    }
}
