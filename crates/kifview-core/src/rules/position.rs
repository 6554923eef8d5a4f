//! `Position`: the board, hands and side to move, and the rules of movement on them.
//!
//! The board is a mailbox (one slot per square): whether a piece may go to a square, and whether
//! the mover's king is safe afterwards, are a few dozen array reads, asked of every move of
//! every record read. The rules crates (`shogi_core`, `shogi_legality_lite`) are the reference
//! the tests hold these rules to; where kifview's rules differ from theirs, the comments say so.

use super::types::{Color, Illegal, Move, MoveData, Piece, PieceKind, Square};
use std::fmt;

mod safety;
use safety::Safety;

/// A shogi position. Cheap to clone (under 200 bytes, no heap). Equal positions have the same
/// board, hands, side to move and move number.
#[derive(Clone)]
pub struct Position {
    /// Indexed by `Square::index`.
    board: [Option<Piece>; 81],
    /// Pieces in hand by colour and kind (`PieceKind as usize`: pawn 0 to rook 6).
    hands: [[u8; 7]; 2],
    side: Color,
    /// SFEN move number.
    ply: u16,
    /// Each colour's king square, `None` without a king (tsume diagrams). With two kings of one
    /// colour (a hand-made diagram) it is the one put last, or after a king is taken off the
    /// highest-indexed one left, as with shogi_core before.
    kings: [Option<Square>; 2],
    /// Whether each king is attacked, when known (see `safety`): not part of what a position
    /// is, only of how fast its questions are answered.
    safety: Safety,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.same_placement(other) && self.ply == other.ply && self.kings == other.kings
    }
}
impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

/// An SFEN string that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid SFEN: {0}")]
pub struct SfenError(pub String);

/// A kind of piece a position held more of than the 40-piece set has (see
/// [`Position::fit_to_set`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Excess {
    pub kind: PieceKind,
    /// How many there were, on the board and in the hands.
    pub count: u16,
    /// How many were taken out of the hands.
    pub removed: u16,
}

impl fmt::Display for Excess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let full = self.kind.set_count();
        write!(
            f,
            "{} {} on the board and in the hands, but the set has {full}",
            self.count,
            self.kind.csa()
        )?;
        let left = self.count - self.removed;
        if self.removed > 0 {
            write!(f, "; {} taken out of the hands", self.removed)?;
        }
        if left > u16::from(full) {
            write!(f, "; the board alone holds {left}")?;
        }
        Ok(())
    }
}

/// What `Position::play_unchecked` did: the piece that moved (before promotion) and what it took.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Played {
    pub piece: PieceKind,
    pub captured: Option<PieceKind>,
}

impl Played {
    /// `mv`, which this played, as a move of `color` (the side that was to move): with
    /// [`Position::move_data`], the one way a move played becomes [`MoveData`].
    pub fn data(self, mv: Move, color: Color) -> MoveData {
        MoveData {
            mv,
            color,
            piece: self.piece,
            captured: self.captured,
        }
    }

    /// Was `mv`, which this played, a king's move?
    fn king_moved(&self, mv: Move) -> bool {
        matches!(mv, Move::Normal { .. }) && self.piece == PieceKind::King
    }
}

/// The index into `Position::board` of file `f`, rank `r`, when that is on the board.
fn index_at(f: i8, r: i8) -> Option<usize> {
    ((1..=9).contains(&f) && (1..=9).contains(&r)).then(|| (f as usize - 1) * 9 + r as usize - 1)
}

/// The square of board index `i` (below 81).
fn square_of(i: usize) -> Square {
    Square::new((i / 9 + 1) as u8, (i % 9 + 1) as u8).expect("a board index")
}

/// Ranks `color` moves forward by (Black moves towards rank 1).
const fn forward(color: Color) -> i8 {
    match color {
        Color::Black => -1,
        Color::White => 1,
    }
}

/// Can `kind` of `color` go by (`df` files, `dr` ranks) in one step (a knight: one jump)?
const fn steps(kind: PieceKind, color: Color, df: i8, dr: i8) -> bool {
    use PieceKind as K;
    let ahead = dr * forward(color);
    let one = -1 <= df && df <= 1 && -1 <= ahead && ahead <= 1 && !(df == 0 && ahead == 0);
    match kind {
        K::Pawn => df == 0 && ahead == 1,
        K::Knight => (df == 1 || df == -1) && ahead == 2,
        K::Silver => one && (ahead == 1 || (ahead == -1 && df != 0)),
        K::Gold | K::ProPawn | K::ProLance | K::ProKnight | K::ProSilver => {
            one && (ahead >= 0 || df == 0)
        }
        K::King | K::Horse | K::Dragon => one,
        K::Lance | K::Bishop | K::Rook => false,
    }
}

/// Does `kind` of `color` slide any distance along the unit step (`df`, `dr`)?
const fn slides(kind: PieceKind, color: Color, df: i8, dr: i8) -> bool {
    use PieceKind as K;
    let diagonal = df != 0 && dr != 0;
    match kind {
        K::Lance => df == 0 && dr == forward(color),
        K::Bishop | K::Horse => diagonal,
        K::Rook | K::Dragon => !diagonal,
        _ => false,
    }
}

/// The 8 unit steps (file, rank).
const DIRECTIONS: [(i8, i8); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// For each square and direction, how many squares there are that way before the edge.
const RAY_LENGTHS: [[u8; 8]; 81] = {
    let mut out = [[0; 8]; 81];
    let mut i = 0;
    while i < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            let (mut f, mut r) = ((i / 9) as i8 + 1 + df, (i % 9) as i8 + 1 + dr);
            while 1 <= f && f <= 9 && 1 <= r && r <= 9 {
                out[i][d] += 1;
                f += df;
                r += dr;
            }
            d += 1;
        }
        i += 1;
    }
    out
};

/// For each colour and direction from a square: the piece kinds (bits `1 << kind as u16`)
/// that can move onto the square from the next square that way, and those that can from
/// further along, with nothing in between (knights aside).
const REACHING: [[(u16, u16); 8]; 2] = {
    let mut out = [[(0, 0); 8]; 2];
    let mut d = 0;
    while d < 8 {
        // The piece stands that way from the square and moves back towards it.
        let (df, dr) = (-DIRECTIONS[d].0, -DIRECTIONS[d].1);
        let mut k = 0;
        while k < PieceKind::ALL.len() {
            let kind = PieceKind::ALL[k];
            let mut c = 0;
            while c < 2 {
                let color = [Color::Black, Color::White][c];
                if slides(kind, color, df, dr) {
                    out[c][d].0 |= 1 << kind as u16;
                    out[c][d].1 |= 1 << kind as u16;
                } else if steps(kind, color, df, dr) {
                    out[c][d].0 |= 1 << kind as u16;
                }
                c += 1;
            }
            k += 1;
        }
        d += 1;
    }
    out
};

/// The change of board index for one step in direction `d` of `DIRECTIONS`.
fn index_step(d: usize) -> isize {
    let (df, dr) = DIRECTIONS[d];
    df as isize * 9 + dr as isize
}

/// 行き所のない駒: would an unpromoted `kind` of `color` on `to` never move again?
fn is_stuck(kind: PieceKind, color: Color, to: Square) -> bool {
    let rank_from_far_end = match color {
        Color::Black => to.rank(),
        Color::White => 10 - to.rank(),
    };
    match kind {
        PieceKind::Pawn | PieceKind::Lance => rank_from_far_end == 1,
        PieceKind::Knight => rank_from_far_end <= 2,
        _ => false,
    }
}

impl Position {
    /// The even-game (平手) start position.
    pub fn startpos() -> Position {
        // Built once: every record read starts from it (40 pieces put one by one cost a
        // 100-file `kifview check` 1%).
        static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        START.get_or_init(Self::build_startpos).clone()
    }
    fn build_startpos() -> Position {
        use PieceKind as K;
        let (black, white) = (Color::Black, Color::White);
        let back = [
            K::Lance,
            K::Knight,
            K::Silver,
            K::Gold,
            K::King,
            K::Gold,
            K::Silver,
            K::Knight,
            K::Lance,
        ];
        let mut pos = Position::empty();
        let mut put = |file: u8, rank: u8, kind: K, color: Color| {
            let sq = Square::new(file, rank).expect("on the board");
            pos.set_piece(sq, Some(Piece::new(kind, color)));
        };
        for (file, kind) in (1..=9).zip(back) {
            put(file, 1, kind, white);
            put(file, 3, K::Pawn, white);
            put(file, 7, K::Pawn, black);
            put(file, 9, kind, black);
        }
        put(8, 2, K::Rook, white);
        put(2, 2, K::Bishop, white);
        put(8, 8, K::Bishop, black);
        put(2, 8, K::Rook, black);
        pos.attacks_remembered();
        pos
    }
    /// An empty board, no pieces in hand, Black to move.
    pub fn empty() -> Position {
        Position {
            board: [None; 81],
            hands: [[0; 7]; 2],
            side: Color::Black,
            ply: 1,
            kings: [None; 2],
            safety: Safety::SAFE,
        }
    }
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    pub fn set_side_to_move(&mut self, c: Color) {
        if c != self.side {
            self.safety = self.safety.swapped();
        }
        self.side = c;
    }
    /// SFEN move number (1 at the start of a record).
    pub fn move_number(&self) -> u16 {
        self.ply
    }
    pub fn set_move_number(&mut self, n: u16) {
        self.ply = n.max(1);
    }
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let old = std::mem::replace(&mut self.board[sq.index()], piece);
        self.safety = Safety::UNKNOWN;
        if old.is_some_and(|o| o.kind == PieceKind::King) && piece != old {
            // A king left: find the kings that remain (usually none of that colour).
            self.kings = [None; 2];
            for s in Square::all() {
                if let Some(p) = self.board[s.index()]
                    && p.kind == PieceKind::King
                {
                    self.kings[p.color.index()] = Some(s);
                }
            }
        }
        if let Some(p) = piece
            && p.kind == PieceKind::King
        {
            self.kings[p.color.index()] = Some(sq);
        }
    }
    /// Number of `kind` (unpromoted, not king) in `color`'s hand.
    pub fn hand_count(&self, color: Color, kind: PieceKind) -> u8 {
        if !kind.is_hand_kind() {
            return 0;
        }
        self.hands[color.index()][kind as usize]
    }
    /// Sets the number of `kind` in `color`'s hand. Returns false when `kind` cannot be in a
    /// hand.
    pub fn set_hand_count(&mut self, color: Color, kind: PieceKind, n: u8) -> bool {
        if !kind.is_hand_kind() {
            return false;
        }
        self.hands[color.index()][kind as usize] = n;
        true
    }
    /// Pieces in `color`'s hand in display order (飛 角 金 銀 桂 香 歩), with counts > 0.
    pub fn hand(&self, color: Color) -> Vec<(PieceKind, u8)> {
        PieceKind::HAND
            .iter()
            .map(|&k| (k, self.hand_count(color, k)))
            .filter(|&(_, n)| n > 0)
            .collect()
    }
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// Is the side to move in check?
    pub fn in_check(&self) -> bool {
        self.king_to_move_attacked()
    }
    /// Is the side to move checkmated (in check with no legal move)?
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && self.legal_moves().is_empty()
    }

    /// Checks `mv` against every rule and says why it is illegal.
    pub fn check(&self, mv: Move) -> Result<(), Illegal> {
        self.check_movement(mv)?;
        let mut after = self.clone();
        after.play_tracked(mv).ok_or(Illegal::CannotReach)?;
        after.check_outcome(mv)
    }

    /// The rules judged before playing `mv`: a piece of the side to move on the source square
    /// (or in hand), nothing of one's own on the target, promotion only where allowed, then as
    /// shogi_legality_lite orders them: no taking of a king, no piece left without a further
    /// move (行き所のない駒), a path the piece can take; for a pawn drop, 二歩.
    fn check_movement(&self, mv: Move) -> Result<(), Illegal> {
        let side = self.side;
        match mv {
            Move::Normal { from, to, promote } => {
                let piece = self.piece_at(from).ok_or(Illegal::NoPiece)?;
                if piece.color != side {
                    return Err(Illegal::NotYourPiece);
                }
                let target = self.piece_at(to);
                if target.is_some_and(|t| t.color == side) {
                    return Err(Illegal::OwnPieceOnTarget);
                }
                if promote
                    && (!piece.kind.can_promote()
                        || !(from.in_promotion_zone(side) || to.in_promotion_zone(side)))
                {
                    return Err(Illegal::CannotPromote);
                }
                if target.is_some_and(|t| t.kind == PieceKind::King) {
                    return Err(Illegal::CannotReach);
                }
                if !promote && is_stuck(piece.kind, side, to) {
                    return Err(Illegal::NormalStuck);
                }
                if !self.reaches(piece, from, to) {
                    return Err(Illegal::CannotReach);
                }
            }
            Move::Drop { kind, to } => {
                if self.hand_count(side, kind) == 0 {
                    return Err(Illegal::NotInHand);
                }
                if self.piece_at(to).is_some() {
                    return Err(Illegal::DropOnOccupied);
                }
                if is_stuck(kind, side, to) {
                    return Err(Illegal::DropStuck);
                }
                let own_pawn = Some(Piece::new(PieceKind::Pawn, side));
                let file = (to.file() as usize - 1) * 9;
                if kind == PieceKind::Pawn && self.board[file..file + 9].contains(&own_pawn) {
                    return Err(Illegal::TwoPawns);
                }
            }
        }
        Ok(())
    }

    /// Can `piece`, standing on `from`, go to `to` by its way of moving, with nothing in
    /// between? (What stands on `to` is for the caller.) A pawn on its last rank cannot move:
    /// shogi_legality_lite lets it step to the far end of the next file.
    pub(super) fn reaches(&self, piece: Piece, from: Square, to: Square) -> bool {
        let df = to.file() as i8 - from.file() as i8;
        let dr = to.rank() as i8 - from.rank() as i8;
        if steps(piece.kind, piece.color, df, dr) {
            return true;
        }
        let on_line = (df == 0) != (dr == 0) || (df != 0 && df.abs() == dr.abs());
        on_line
            && slides(piece.kind, piece.color, df.signum(), dr.signum())
            && self.clear_between(from, to)
    }

    /// The squares holding `piece` from which it can go to `to` by its way of moving, pins and
    /// checks ignored (KI2 names a move by its target and tells such pieces apart). Empty when
    /// `to` holds a piece of that colour.
    /// (Inline up to 4 squares: no allocation, it runs for every move a KI2 reader reads.)
    pub fn attackers(&self, to: Square, piece: Piece) -> smallvec::SmallVec<[Square; 4]> {
        if self.piece_at(to).is_some_and(|p| p.color == piece.color) {
            return smallvec::SmallVec::new();
        }
        // A piece that reaches `to` by a step or a slide is the first piece on one of the 8
        // lines from `to`; only a knight jumps. So look along those lines and at the two
        // knight squares instead of at every square, then put the finds in board order.
        let t = to.index();
        let mut out = smallvec::SmallVec::<[Square; 4]>::new();
        let mut consider = |i: usize| {
            if self.board[i] == Some(piece) {
                let sq = square_of(i);
                if self.reaches(piece, sq, to) {
                    out.push(sq);
                }
            }
        };
        for (d, &length) in RAY_LENGTHS[t].iter().enumerate() {
            let step = index_step(d);
            let mut i = t;
            for _ in 0..length {
                i = i.wrapping_add_signed(step);
                if self.board[i].is_some() {
                    consider(i);
                    break;
                }
            }
        }
        if piece.kind == PieceKind::Knight {
            let behind = to.rank() as i8 - 2 * forward(piece.color);
            for f in [to.file() as i8 - 1, to.file() as i8 + 1] {
                if let Some(i) = index_at(f, behind) {
                    consider(i);
                }
            }
        }
        out.sort_unstable_by_key(|s| s.index());
        out
    }

    /// Are the squares strictly between `from` and `to` (on one line) empty?
    fn clear_between(&self, from: Square, to: Square) -> bool {
        let df = to.file() as isize - from.file() as isize;
        let dr = to.rank() as isize - from.rank() as isize;
        let step = df.signum() * 9 + dr.signum();
        let (mut i, end) = (from.index(), to.index());
        loop {
            i = i.wrapping_add_signed(step);
            if i == end {
                return true;
            }
            if self.board.get(i) != Some(&None) {
                return false;
            }
        }
    }

    /// The rules judged on the position after `mv` (`self`): 王手放置 when the side that moved
    /// left its king capturable, then 打ち歩詰め. Only a pawn drop that gives check can be
    /// 打ち歩詰め, and only when the king cannot step away or take the pawn, so the search for
    /// replies runs for those alone. (shogi_legality_lite searches every reply of every pawn
    /// drop and calls a drop mate whenever the opponent is left without a move or a king,
    /// checking or not.)
    fn check_outcome(&self, mv: Move) -> Result<(), Illegal> {
        let mover = self.side.flip();
        if self.attacks().other {
            return Err(Illegal::IgnoredCheck);
        }
        if let Move::Drop {
            kind: PieceKind::Pawn,
            to,
        } = mv
        {
            let front = Square::new(to.file(), (to.rank() as i8 + forward(mover)) as u8);
            if front.is_some()
                && self.king_square(self.side) == front
                && !self.has_reply_to_pawn_check(to)
            {
                return Err(Illegal::DropPawnMate);
            }
        }
        Ok(())
    }

    /// Plays `mv` when it is physically possible (as `play_unchecked`) and says whether the
    /// rules allow it, in one pass: readers keep illegal moves of real files with a warning.
    /// Returns `None`, changing nothing, when the move cannot be played at all.
    pub fn play_checked(&mut self, mv: Move) -> Option<(Played, Result<(), Illegal>)> {
        let verdict = self.check_movement(mv);
        let played = self.play_tracked(mv)?;
        Some((played, verdict.and_then(|()| self.check_outcome(mv))))
    }

    /// After a pawn drop on `pawn` that checks the king in front of it: can the side to move
    /// answer? A pawn's check cannot be blocked, so only king moves and captures of the pawn
    /// count.
    fn has_reply_to_pawn_check(&self, pawn: Square) -> bool {
        let side = self.side;
        let Some(king) = self.king_square(side) else {
            return true;
        };
        let can_go = |from: Square, to: Square| {
            [false, true]
                .into_iter()
                .any(|promote| self.check(Move::Normal { from, to, promote }).is_ok())
        };
        Square::all().any(|to| can_go(king, to))
            || Square::all().any(|from| {
                from != king
                    && self.piece_at(from).is_some_and(|p| p.color == side)
                    && can_go(from, pawn)
            })
    }

    /// `mv` as it would be played here, without playing it: the side to move, the kind of the
    /// piece on `from` (or dropped) and of the piece on `to`; `None` when `from` is empty. With
    /// [`Played::data`] (which [`Self::play_move`] uses), the one way a move becomes [`MoveData`].
    pub fn move_data(&self, mv: Move) -> Option<MoveData> {
        let (piece, captured) = match mv {
            Move::Normal { from, to, .. } => (self.piece_at(from)?.kind, self.piece_at(to)),
            Move::Drop { kind, .. } => (kind, None),
        };
        Some(MoveData {
            mv,
            color: self.side_to_move(),
            piece,
            captured: captured.map(|p| p.kind),
        })
    }

    /// Plays `mv` if it is legal and returns it as played; otherwise changes nothing and says
    /// why.
    pub fn play_move(&mut self, mv: Move) -> Result<MoveData, Illegal> {
        let color = self.side_to_move();
        Ok(self.play(mv)?.data(mv, color))
    }

    /// Plays `mv` if it is legal; otherwise changes nothing and says why.
    pub fn play(&mut self, mv: Move) -> Result<Played, Illegal> {
        self.check(mv)?;
        self.play_tracked(mv).ok_or(Illegal::CannotReach)
    }

    /// Plays `mv` without the rules of movement, as long as it is physically possible
    /// (a piece of the side to move on `from` that can promote if asked to, no own piece and no
    /// king on `to`, the piece in hand for a drop). Real records contain illegal moves; this is
    /// how they are still read.
    pub fn play_unchecked(&mut self, mv: Move) -> Option<Played> {
        let played = self.play_on_board(mv)?;
        // A replay asks nothing of the positions on the way: what the kings' safety is after
        // the move is left to be looked up if asked.
        self.safety = Safety::UNKNOWN;
        Some(played)
    }

    /// [`Self::play_unchecked`] for a caller that asks about the position after the move (is
    /// the mover's king left attacked?): the kings' safety is worked out at once from what
    /// was known before (looked up first when nothing was), so that the next move can be
    /// judged the same way.
    #[inline]
    fn play_tracked(&mut self, mv: Move) -> Option<Played> {
        let before = self.attacks_remembered();
        let played = self.play_on_board(mv)?;
        self.safety = Safety::known(self.attacks_after(before, mv, played.king_moved(mv)));
        Some(played)
    }

    /// The board, hands and side to move after `mv` ([`Self::play_unchecked`]); the kings'
    /// safety is the caller's.
    #[inline(always)]
    fn play_on_board(&mut self, mv: Move) -> Option<Played> {
        let side = self.side;
        let played = match mv {
            Move::Normal { from, to, promote } => {
                let piece = self.piece_at(from).filter(|p| p.color == side)?;
                let placed = if promote {
                    piece.kind.promote()?
                } else {
                    piece.kind
                };
                let captured = self.piece_at(to);
                if let Some(c) = captured {
                    // A king cannot go to a hand: taking one is impossible, not just illegal.
                    if c.color == side || c.kind == PieceKind::King {
                        return None;
                    }
                    let n = &mut self.hands[side.index()][c.kind.unpromote() as usize];
                    *n = n.wrapping_add(1);
                }
                self.board[from.index()] = None;
                self.board[to.index()] = Some(Piece::new(placed, side));
                if placed == PieceKind::King {
                    self.kings[side.index()] = Some(to);
                }
                Played {
                    piece: piece.kind,
                    captured: captured.map(|c| c.kind),
                }
            }
            Move::Drop { kind, to } => {
                if !kind.is_hand_kind() || self.piece_at(to).is_some() {
                    return None;
                }
                let n = &mut self.hands[side.index()][kind as usize];
                *n = n.checked_sub(1)?;
                self.board[to.index()] = Some(Piece::new(kind, side));
                Played {
                    piece: kind,
                    captured: None,
                }
            }
        };
        self.side = side.flip();
        self.ply = self.ply.wrapping_add(1);
        Some(played)
    }

    /// Every legal move of the side to move: by source square, unpromoted moves before
    /// promotions, then drops from lance to rook, then pawn drops (the order of
    /// shogi_legality_lite's list followed by the pawn drops it got wrong).
    pub fn legal_moves(&self) -> Vec<Move> {
        let me = self.with_known_safety();
        let side = me.side;
        let mut moves = Vec::new();
        for from in Square::all().filter(|&s| me.piece_at(s).is_some_and(|p| p.color == side)) {
            for promote in [false, true] {
                moves.extend(
                    Square::all()
                        .map(|to| Move::Normal { from, to, promote })
                        .filter(|&mv| me.check(mv).is_ok()),
                );
            }
        }
        // Lance to rook, then pawns (the order the rules crate listed them in).
        let drops = PieceKind::ALL[1..7].iter().chain([&PieceKind::Pawn]);
        for &kind in drops {
            moves.extend(
                me.drop_destinations(kind)
                    .into_iter()
                    .map(|to| Move::Drop { kind, to }),
            );
        }
        moves
    }
    /// Legal destinations of the piece on `from` (with or without promotion).
    pub fn destinations_from(&self, from: Square) -> Vec<Square> {
        let me = self.with_known_safety();
        Square::all()
            .filter(|&to| {
                [false, true]
                    .into_iter()
                    .any(|promote| me.check(Move::Normal { from, to, promote }).is_ok())
            })
            .collect()
    }
    /// Legal drop squares for `kind` from the hand of the side to move.
    pub fn drop_destinations(&self, kind: PieceKind) -> Vec<Square> {
        if self.hand_count(self.side, kind) == 0 {
            return Vec::new();
        }
        let me = self.with_known_safety();
        Square::all()
            .filter(|&to| me.check(Move::Drop { kind, to }).is_ok())
            .collect()
    }
    /// Whether moving from `from` to `to` may promote and whether it must.
    pub fn promotion_choice(&self, from: Square, to: Square) -> (bool, bool) {
        let may = self
            .check(Move::Normal {
                from,
                to,
                promote: true,
            })
            .is_ok();
        let can_stay = self
            .check(Move::Normal {
                from,
                to,
                promote: false,
            })
            .is_ok();
        (may, may && !can_stay)
    }

    /// SFEN of this position, e.g. `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        self.push_sfen_key(&mut s);
        s.push(' ');
        let n = self.move_number();
        let digits = if n >= 10_000 {
            5
        } else if n >= 1000 {
            4
        } else if n >= 100 {
            3
        } else if n >= 10 {
            2
        } else {
            1
        };
        for d in (0..digits).rev() {
            s.push(char::from(b'0' + (n / 10u16.pow(d) % 10) as u8));
        }
        s
    }

    /// The SFEN without its move number (board, side to move, hands: an opening book's key),
    /// appended to `out`; [`Position::to_sfen`] is this, a space and the move number. Written
    /// byte by byte, without `fmt`: a book built from games writes millions.
    pub fn push_sfen_key(&self, out: &mut String) {
        // The letter of each kind (`PieceKind as usize`), promoted kinds their base's.
        const LETTER: [u8; 14] = *b"PLNSGBRKPLNSBR";
        // At most 81 promoted pieces and 9 separators, 2 + 1 for the side, 14 hand counts of
        // 3 digits and a letter.
        let mut b = [0u8; 256];
        let mut n = 0;
        for rank in 0..9 {
            let mut empty = 0u8;
            for file in (0..9).rev() {
                match self.board[file * 9 + rank] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            b[n] = b'0' + empty;
                            n += 1;
                            empty = 0;
                        }
                        let k = p.kind as usize;
                        if k > PieceKind::King as usize {
                            b[n] = b'+';
                            n += 1;
                        }
                        // Lowercase for gote: the ASCII case bit.
                        b[n] = LETTER[k] | (p.color as u8) << 5;
                        n += 1;
                    }
                }
            }
            if empty > 0 {
                b[n] = b'0' + empty;
                n += 1;
            }
            b[n] = if rank < 8 { b'/' } else { b' ' };
            n += 1;
        }
        b[n] = if self.side_to_move() == Color::Black {
            b'b'
        } else {
            b'w'
        };
        b[n + 1] = b' ';
        n += 2;
        let before = n;
        // SFEN hand order: R B G S N L P, Black first.
        for color in [Color::Black, Color::White] {
            for k in PieceKind::HAND {
                let c = self.hands[color.index()][k as usize];
                if c == 0 {
                    continue;
                }
                if c >= 100 {
                    b[n] = b'0' + c / 100;
                    n += 1;
                }
                if c >= 10 {
                    b[n] = b'0' + c / 10 % 10;
                    n += 1;
                }
                if c > 1 {
                    b[n] = b'0' + c % 10;
                    n += 1;
                }
                b[n] = LETTER[k as usize] | (color as u8) << 5;
                n += 1;
            }
        }
        if n == before {
            b[n] = b'-';
            n += 1;
        }
        // ASCII only: digits, letters, `+`, `/`, `-` and spaces.
        out.push_str(std::str::from_utf8(&b[..n]).unwrap_or_default());
    }

    /// Reads an SFEN (with or without the leading `sfen `; the move number may be missing).
    pub fn from_sfen(text: &str) -> Result<Position, SfenError> {
        let err = |m: &str| SfenError(format!("{m} in '{}'", text.trim()));
        let mut parts = text.split_whitespace();
        let mut board = parts.next().ok_or_else(|| err("empty"))?;
        if board == "sfen" {
            board = parts.next().ok_or_else(|| err("no board"))?;
        }
        let side = parts.next().ok_or_else(|| err("no side to move"))?;
        let hand = parts.next().unwrap_or("-");
        let num = parts.next();
        let mut pos = Position::empty();
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 9 {
            return Err(err("the board needs 9 ranks"));
        }
        for (ri, row) in ranks.iter().enumerate() {
            let mut file: i32 = 9;
            let mut promoted = false;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if promoted || d == 0 {
                        return Err(err("bad digit"));
                    }
                    file -= d as i32;
                    continue;
                }
                if c == '+' {
                    promoted = true;
                    continue;
                }
                let mut kind = PieceKind::from_usi_letter(c).ok_or_else(|| err("unknown piece"))?;
                if promoted {
                    kind = kind.promote().ok_or_else(|| err("piece cannot promote"))?;
                    promoted = false;
                }
                if file < 1 {
                    return Err(err("rank too long"));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                pos.set_piece(
                    Square::new(file as u8, ri as u8 + 1).expect("checked"),
                    Some(Piece::new(kind, color)),
                );
                file -= 1;
            }
            if file != 0 {
                return Err(err("a rank does not have 9 squares"));
            }
        }
        pos.set_side_to_move(match side {
            "b" => Color::Black,
            "w" => Color::White,
            _ => return Err(err("side to move must be b or w")),
        });
        if hand != "-" {
            let mut count = 0u32;
            for c in hand.chars() {
                if let Some(d) = c.to_digit(10) {
                    count = count * 10 + d;
                    if count > 18 {
                        return Err(err("hand count too large"));
                    }
                    continue;
                }
                let kind = PieceKind::from_usi_letter(c)
                    .filter(|k| k.is_hand_kind())
                    .ok_or_else(|| err("unknown piece in hand"))?;
                let color = if c.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let n = if count == 0 { 1 } else { count as u8 };
                // A kind given twice (`10p9p`) adds up to at most what one count may say, so
                // that the position writes back as SFEN that reads (`19p` would not).
                let total = pos.hand_count(color, kind).saturating_add(n);
                if total > 18 || !pos.set_hand_count(color, kind, total) {
                    return Err(err("too many pieces in hand"));
                }
                count = 0;
            }
        }
        if let Some(n) = num {
            let n: u16 = n.parse().map_err(|_| err("bad move number"))?;
            pos.set_move_number(n);
        }
        pos.attacks_remembered();
        Ok(pos)
    }

    /// Are board, hands and side to move the same (the move number aside)?
    pub fn same_placement(&self, other: &Position) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
    /// A 64-bit hash of board, hands and side to move (not the move number), for 千日手.
    pub fn hash_key(&self) -> u64 {
        // FNV-1a over a compact encoding; positions are small and this is only used along a path.
        let mut h: u64 = 0xcbf29ce484222325;
        let mut feed = |b: u8| {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        };
        for cell in self.board {
            feed(match cell {
                None => 0,
                Some(p) => 1 + p.kind as u8 + 16 * p.color as u8,
            });
        }
        for c in [Color::Black, Color::White] {
            for k in PieceKind::HAND {
                feed(self.hand_count(c, k));
            }
        }
        feed(self.side as u8);
        h
    }

    /// Number of each piece kind (unpromoted, indexed by `PieceKind as usize`; kings at 7) on
    /// the board and in both hands. Wide enough for any position a file can describe.
    pub fn piece_counts(&self) -> [u16; 8] {
        let mut n = [0u16; 8];
        for p in self.board.into_iter().flatten() {
            n[p.kind.unpromote() as usize] += 1;
        }
        for c in [Color::Black, Color::White] {
            for k in PieceKind::HAND {
                n[k as usize] += u16::from(self.hand_count(c, k));
            }
        }
        n
    }

    /// Counts of each hand kind that are on neither board nor in any hand (for `00AL`), pawn
    /// first.
    pub fn missing_pieces(&self) -> Vec<(PieceKind, u8)> {
        let have = self.piece_counts();
        PieceKind::HAND
            .iter()
            .rev()
            .map(|&k| {
                let missing = u16::from(k.set_count()).saturating_sub(have[k as usize]);
                (k, missing as u8)
            })
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// What a position may hold: at most the 40-piece set (18 pawns, 4 lances, ... 2 kings) of
    /// each kind, counting the board and both hands. Takes the pieces beyond the set out of
    /// the hands (White's first) and says, per kind over the set, how many there were and how
    /// many were taken out. Pieces on the board are never taken: when the board alone holds
    /// more than the set, the hands of that kind are emptied and the excess stays. Every
    /// reader applies this to the positions it reads, so writers never meet a hand they
    /// cannot write (a hand then holds at most the set's count of a kind).
    pub fn fit_to_set(&mut self) -> Vec<Excess> {
        let counts = self.piece_counts();
        let mut out = Vec::new();
        for kind in PieceKind::ALL[..8].iter().copied() {
            let have = counts[kind as usize];
            let full = u16::from(kind.set_count());
            if have <= full {
                continue;
            }
            let mut over = have - full;
            let mut removed = 0u16;
            for c in [Color::White, Color::Black] {
                let in_hand = u16::from(self.hand_count(c, kind));
                let take = in_hand.min(over);
                if take > 0 {
                    self.set_hand_count(c, kind, (in_hand - take) as u8);
                    over -= take;
                    removed += take;
                }
            }
            out.push(Excess {
                kind,
                count: have,
                removed,
            });
        }
        out
    }

    /// Perft node count (for tests of the rules).
    pub fn perft(&self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut p = self.clone();
                p.play_unchecked(m).expect("legal move");
                p.perft(depth - 1)
            })
            .sum()
    }

    /// Can `attacker` take the other side's king (`None` when that king is absent)? For the
    /// side to move this is shogi_legality_lite's `will_king_be_captured`. Looks from the king
    /// at the two knight squares and along its 8 lines to the first piece.
    pub(super) fn king_capturable(&self, attacker: Color) -> Option<bool> {
        let king = self.king_square(attacker.flip())?;
        // Knights: two squares behind the king (seen from the attacker), one file aside.
        let knight = Some(Piece::new(PieceKind::Knight, attacker));
        let behind = king.rank() as i8 - 2 * forward(attacker);
        for f in [king.file() as i8 - 1, king.file() as i8 + 1] {
            if index_at(f, behind).is_some_and(|i| self.board[i] == knight) {
                return Some(true);
            }
        }
        let k = king.index();
        Some((0..8).any(|d| self.attacked_along(k, d, attacker)))
    }
}
