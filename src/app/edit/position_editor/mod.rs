//! The position editor (局面編集): a board, both hands and the piece box (駒箱) edited from the
//! keyboard, with presets, its own undo, and the checks a position must pass before it becomes
//! a record's start.
//!
//! Terminal-free: the app feeds it keys and reads its state; `tui` draws it.
//!
//! Keys on the board: arrows move the cursor; two digits jump to a square (`51` is ５一); an
//! SFEN letter puts a piece (`P L N S G B R K` sente's, `p l n s g b r k` gote's, `+` first for a
//! promoted piece) or its kanji (歩 香 桂 銀 金 角 飛 玉 と 杏 圭 全 馬 龍, sente's); `x`/Delete
//! empties the square; `v` flips the owner; `+` on an occupied square toggles promotion. In a
//! hand: a piece letter or kanji adds one of that kind, Up/Down pick a kind, digits set its
//! count, `+`/`-` add and take one. Everywhere:
//! Tab/Shift-Tab move between board, sente's hand, gote's hand and the box; `a` sends what is
//! left in the box to gote's hand; `t` changes the side to move; `f` flips the view; `u`/Ctrl-r
//! undo and redo; Ctrl-p picks a preset; Enter finishes; Esc discards.
//!
//! hjkl are not cursor keys here: `l` and `k` are gote's lance and king in SFEN.

use crate::app::dispatch::input::{KeyCode, KeyEvent};
use crate::core::notation::japanese::piece_char;
pub use crate::core::rules::setup::{Checked, SET, validate};
use crate::core::rules::setup::{overdrawn, used};
use crate::core::rules::{
    Color, HANDICAPS, Piece, PieceKind, Position, Square, double_king_tsume_position,
};

/// Where the cursor is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Region {
    Board,
    Hand(Color),
    /// The piece box: what the set holds that is neither on the board nor in a hand.
    Box,
}

impl Region {
    const ORDER: [Region; 4] = [
        Region::Board,
        Region::Hand(Color::Black),
        Region::Hand(Color::White),
        Region::Box,
    ];
    fn step(self, d: isize) -> Region {
        let i = Region::ORDER.iter().position(|&r| r == self).unwrap_or(0) as isize;
        Region::ORDER[(i + d).rem_euclid(4) as usize]
    }
    /// Name for the status line.
    pub fn name(self) -> &'static str {
        match self {
            Region::Board => "盤",
            Region::Hand(Color::Black) => "先手の持駒",
            Region::Hand(Color::White) => "後手の持駒",
            Region::Box => "駒箱",
        }
    }
}

/// A starting point offered by the editor.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Preset {
    /// One of the 16 KIF handicaps (`HANDICAPS[i]`; 0 is 平手).
    Handicap(usize),
    /// No pieces on the board, everything in the box.
    Empty,
    /// 詰将棋: gote's king on ５一, everything else in the box.
    Tsume,
    /// 双玉詰将棋: both kings, everything else in the box.
    DoubleKingTsume,
    /// The position the editor was opened on.
    Current,
}

impl Preset {
    /// Every preset, in menu order.
    /// 平手 and the tsume presets first (what composers use all day), then the handicaps.
    pub fn all() -> Vec<Preset> {
        let mut v = vec![
            Preset::Handicap(0),
            Preset::Tsume,
            Preset::DoubleKingTsume,
            Preset::Empty,
            Preset::Current,
        ];
        v.extend((1..HANDICAPS.len()).map(Preset::Handicap));
        v
    }
    pub fn name(self) -> &'static str {
        match self {
            Preset::Handicap(i) => HANDICAPS[i].name,
            Preset::Empty => "空の盤 (empty board)",
            Preset::Tsume => "詰将棋",
            Preset::DoubleKingTsume => "双玉詰将棋",
            Preset::Current => "今の局面 (the record's position)",
        }
    }
}

/// What a key did, for the app to act on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AfterKey {
    /// Keep editing.
    Continue,
    /// Enter: the position passed the checks (`PositionEditor::finish` has the result).
    Finish,
    /// Esc: leave without changing anything.
    Cancel,
    /// Ctrl-p: the app shows `Preset::all()` and calls `apply_preset` with the choice.
    PickPreset,
}

/// The editor's whole state.
#[derive(Clone, Debug)]
pub struct PositionEditor {
    pos: Position,
    opened_on: Position,
    pub region: Region,
    /// The board cursor.
    pub cursor: Square,
    /// The hand cursor: an index into `PieceKind::HAND` (rook first, as hands are shown).
    pub hand_kind: usize,
    pub flipped: bool,
    /// A `+` typed on an empty square: the next piece letter is promoted.
    promote_next: bool,
    /// The first digit of a square (board) or of a count (hand).
    digit: Option<u8>,
    undo: Vec<Position>,
    redo: Vec<Position>,
    /// What the last key did or why it was refused.
    pub message: Option<String>,
}

impl PositionEditor {
    pub fn new(pos: Position, flipped: bool) -> PositionEditor {
        PositionEditor {
            opened_on: pos.clone(),
            pos,
            region: Region::Board,
            cursor: Square::new(5, 5).expect("valid square"),
            hand_kind: 0,
            flipped,
            promote_next: false,
            digit: None,
            undo: Vec::new(),
            redo: Vec::new(),
            message: None,
        }
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Is there anything to undo (edits since the editor opened)?
    pub fn is_changed(&self) -> bool {
        self.pos != self.opened_on
    }

    /// How many of each unpromoted kind (`PieceKind as usize`, king last) are in use.
    pub fn used(&self) -> [u32; 8] {
        used(&self.pos)
    }

    /// The piece box: per hand kind (pawn..rook) and the king, how many are left.
    pub fn in_box(&self) -> [u32; 8] {
        let u = self.used();
        std::array::from_fn(|i| SET[i].saturating_sub(u[i]))
    }

    /// A short line naming what is wrong with the piece counts, if anything.
    pub fn overdrawn(&self) -> Option<String> {
        overdrawn(&self.pos)
    }

    /// Handles one key.
    pub fn key(&mut self, k: KeyEvent) -> AfterKey {
        self.message = None;
        let digit = self.digit.take();
        if k.mods.ctrl {
            match k.code {
                KeyCode::Char('r') => self.redo(),
                KeyCode::Char('p') => return AfterKey::PickPreset,
                _ => {}
            }
            return AfterKey::Continue;
        }
        match k.code {
            KeyCode::Enter => return AfterKey::Finish,
            KeyCode::Esc => return AfterKey::Cancel,
            KeyCode::Tab => self.region = self.region.step(1),
            KeyCode::BackTab => self.region = self.region.step(-1),
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('t') => {
                let mut p = self.pos.clone();
                p.set_side_to_move(p.side_to_move().flip());
                self.commit(p);
            }
            KeyCode::Char('f') => self.flipped = !self.flipped,
            KeyCode::Char('a') => self.box_to_gote(),
            _ => match self.region {
                Region::Board => self.board_key(k.code, digit),
                Region::Hand(c) => self.hand_key(c, k.code, digit),
                Region::Box => self.box_key(k.code),
            },
        }
        AfterKey::Continue
    }

    fn board_key(&mut self, code: KeyCode, digit: Option<u8>) {
        let (df, dr): (i8, i8) = match code {
            KeyCode::Left => (1, 0),
            KeyCode::Right => (-1, 0),
            KeyCode::Up => (0, -1),
            KeyCode::Down => (0, 1),
            KeyCode::Char(c @ '1'..='9') => {
                let d = c as u8 - b'0';
                match digit {
                    None => {
                        self.digit = Some(d);
                        self.message = Some(format!("{d}: now the rank (一 to 九 as 1 to 9)"));
                    }
                    Some(f) => self.cursor = Square::new(f, d).expect("1..=9"),
                }
                return;
            }
            KeyCode::Char('x') | KeyCode::Delete | KeyCode::Backspace => {
                return self.set(self.cursor, None);
            }
            KeyCode::Char('v') => {
                return match self.pos.piece_at(self.cursor) {
                    Some(p) => self.set(self.cursor, Some(Piece::new(p.kind, p.color.flip()))),
                    None => self.message = Some("no piece on this square to turn".into()),
                };
            }
            KeyCode::Char('+') => {
                return match self.pos.piece_at(self.cursor) {
                    Some(p) => self.toggle_promotion(p),
                    None => {
                        self.promote_next = true;
                        self.message = Some("+: now the piece to put promoted".into());
                    }
                };
            }
            KeyCode::Char(c) => {
                let promote = std::mem::take(&mut self.promote_next);
                return match typed_piece(c) {
                    Some(mut p) => {
                        if promote {
                            match p.kind.promote() {
                                Some(k) => p.kind = k,
                                None => {
                                    self.message =
                                        Some(format!("{} does not promote", p.kind.board_char()));
                                    return;
                                }
                            }
                        }
                        self.set(self.cursor, Some(p));
                    }
                    None => self.message = Some(format!("'{c}' is not a piece")),
                };
            }
            _ => return,
        };
        let step = |v: u8, d: i8, flip: bool| {
            let d = if flip { -d } else { d };
            (v as i8 + d).clamp(1, 9) as u8
        };
        self.cursor = Square::new(
            step(self.cursor.file(), df, self.flipped),
            step(self.cursor.rank(), dr, self.flipped),
        )
        .expect("clamped");
    }

    fn toggle_promotion(&mut self, p: Piece) {
        let kind = if p.kind.is_promoted() {
            p.kind.unpromote()
        } else if let Some(k) = p.kind.promote() {
            k
        } else {
            self.message = Some(format!("{} does not promote", p.kind.board_char()));
            return;
        };
        self.set(self.cursor, Some(Piece::new(kind, p.color)));
    }

    fn hand_key(&mut self, color: Color, code: KeyCode, digit: Option<u8>) {
        let n = PieceKind::HAND.len();
        let kind = PieceKind::HAND[self.hand_kind];
        let have = self.pos.hand_count(color, kind) as u32;
        let want = match code {
            KeyCode::Up => {
                self.hand_kind = self.hand_kind.saturating_sub(1);
                return;
            }
            KeyCode::Down => {
                self.hand_kind = (self.hand_kind + 1).min(n - 1);
                return;
            }
            KeyCode::Char(c) if c.is_ascii_digit() => {
                let d = c as u32 - '0' as u32;
                // Two digits in a row make a two-digit count (歩 up to 18).
                let v = match digit {
                    Some(first) if first as u32 * 10 + d <= SET[kind as usize] => {
                        first as u32 * 10 + d
                    }
                    _ => d,
                };
                self.digit = (v < 10).then_some(v as u8);
                v
            }
            KeyCode::Char('+') | KeyCode::Right => have + 1,
            KeyCode::Char('-') | KeyCode::Left | KeyCode::Char('x') | KeyCode::Delete
                if have > 0 =>
            {
                if matches!(code, KeyCode::Char('x') | KeyCode::Delete) {
                    0
                } else {
                    have - 1
                }
            }
            KeyCode::Char(c) => {
                // A piece letter or kanji adds one of that kind (and moves the cursor to it).
                match typed_piece(c).and_then(|p| PieceKind::HAND.iter().position(|&k| k == p.kind))
                {
                    Some(i) => {
                        self.hand_kind = i;
                        let kind = PieceKind::HAND[i];
                        self.pos.hand_count(color, kind) as u32 + 1
                    }
                    None => {
                        self.message = Some(format!("'{c}' is not a piece a hand can hold"));
                        return;
                    }
                }
            }
            _ => return,
        };
        let kind = PieceKind::HAND[self.hand_kind];
        let have = self.pos.hand_count(color, kind) as u32;
        let mut p = self.pos.clone();
        p.set_hand_count(color, kind, want.min(u8::MAX as u32) as u8);
        if let Some(why) = overdrawn(&p)
            && want > have
        {
            self.message = Some(why);
            return;
        }
        self.commit(p);
    }

    fn box_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Char('x') | KeyCode::Delete => {
                // Clear everything back into the box (an empty board).
                let mut p = Position::empty();
                p.set_side_to_move(self.pos.side_to_move());
                self.commit(p);
            }
            _ => {
                self.message = Some(
                    "the box holds what is left: put pieces on the board or in a hand, \
                     or `a` to give them all to gote"
                        .into(),
                );
            }
        }
    }

    /// Sends everything left in the box (kings aside) to gote's hand: the tsume convention.
    pub fn box_to_gote(&mut self) {
        let left = self.in_box();
        let mut p = self.pos.clone();
        for k in PieceKind::HAND {
            let n = p.hand_count(Color::White, k) as u32 + left[k as usize];
            p.set_hand_count(Color::White, k, n as u8);
        }
        self.commit(p);
        self.message = Some("the box's pieces are in gote's hand".into());
    }

    /// Puts `piece` on `sq` (or empties it), refusing what the set cannot supply.
    fn set(&mut self, sq: Square, piece: Option<Piece>) {
        let mut p = self.pos.clone();
        p.set_piece(sq, piece);
        if piece.is_some()
            && let Some(why) = overdrawn(&p)
        {
            // Take the piece from a hand that holds one, as a player would from the box.
            let kind = piece.expect("some").kind.unpromote();
            let from = [Color::White, Color::Black]
                .into_iter()
                .find(|&c| kind != PieceKind::King && p.hand_count(c, kind) > 0);
            match from {
                Some(c) => {
                    p.set_hand_count(c, kind, p.hand_count(c, kind) - 1);
                }
                None => {
                    self.message = Some(why);
                    return;
                }
            }
        }
        self.commit(p);
    }

    fn commit(&mut self, p: Position) {
        if p != self.pos {
            self.undo.push(std::mem::replace(&mut self.pos, p));
            self.redo.clear();
        }
    }

    pub fn undo(&mut self) {
        match self.undo.pop() {
            Some(p) => self.redo.push(std::mem::replace(&mut self.pos, p)),
            None => self.message = Some("nothing to undo".into()),
        }
    }

    pub fn redo(&mut self) {
        match self.redo.pop() {
            Some(p) => self.undo.push(std::mem::replace(&mut self.pos, p)),
            None => self.message = Some("nothing to redo".into()),
        }
    }

    /// Replaces the position with a preset (one undo step).
    pub fn apply_preset(&mut self, preset: Preset) {
        let side = self.pos.side_to_move();
        let p = match preset {
            Preset::Handicap(i) => HANDICAPS[i].position(),
            Preset::Empty => {
                let mut p = Position::empty();
                p.set_side_to_move(side);
                p
            }
            Preset::Tsume => {
                let mut p = Position::empty();
                p.set_piece(
                    Square::new(5, 1).expect("valid"),
                    Some(Piece::new(PieceKind::King, Color::White)),
                );
                p
            }
            Preset::DoubleKingTsume => {
                let mut p = double_king_tsume_position();
                for k in PieceKind::HAND {
                    p.set_hand_count(Color::White, k, 0);
                }
                p
            }
            Preset::Current => self.opened_on.clone(),
        };
        self.commit(p);
        self.message = Some(format!("preset: {}", preset.name()));
    }

    /// The checks on leaving: the position, or every reason it cannot be played from.
    pub fn finish(&self) -> Result<Checked, Vec<String>> {
        validate(&self.pos)
    }
}

/// The piece a typed character names: an SFEN letter (case is the owner) or a kanji (sente's).
fn typed_piece(c: char) -> Option<Piece> {
    if let Some(k) = PieceKind::from_usi_letter(c.to_ascii_uppercase()) {
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        return Some(Piece::new(k, color));
    }
    piece_char(c).map(|k| Piece::new(k, Color::Black))
}

#[cfg(test)]
mod tests;
