//! `Position`: the board, hands and side to move, backed by `shogi_core::PartialPosition`.

use super::types::{Color, Illegal, Move, Piece, PieceKind, Square};
use shogi_core as sc;
use shogi_legality_lite as lite;
use std::fmt;

/// A shogi position. Cheap to clone (a few hundred bytes, no heap).
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    inner: sc::PartialPosition,
}

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

pub(crate) fn to_sc_color(c: Color) -> sc::Color {
    match c {
        Color::Black => sc::Color::Black,
        Color::White => sc::Color::White,
    }
}
fn from_sc_color(c: sc::Color) -> Color {
    match c {
        sc::Color::Black => Color::Black,
        sc::Color::White => Color::White,
    }
}
pub(crate) fn to_sc_kind(k: PieceKind) -> sc::PieceKind {
    use sc::PieceKind as K;
    match k {
        PieceKind::Pawn => K::Pawn,
        PieceKind::Lance => K::Lance,
        PieceKind::Knight => K::Knight,
        PieceKind::Silver => K::Silver,
        PieceKind::Gold => K::Gold,
        PieceKind::Bishop => K::Bishop,
        PieceKind::Rook => K::Rook,
        PieceKind::King => K::King,
        PieceKind::ProPawn => K::ProPawn,
        PieceKind::ProLance => K::ProLance,
        PieceKind::ProKnight => K::ProKnight,
        PieceKind::ProSilver => K::ProSilver,
        PieceKind::Horse => K::ProBishop,
        PieceKind::Dragon => K::ProRook,
    }
}
fn from_sc_kind(k: sc::PieceKind) -> PieceKind {
    use sc::PieceKind as K;
    match k {
        K::Pawn => PieceKind::Pawn,
        K::Lance => PieceKind::Lance,
        K::Knight => PieceKind::Knight,
        K::Silver => PieceKind::Silver,
        K::Gold => PieceKind::Gold,
        K::Bishop => PieceKind::Bishop,
        K::Rook => PieceKind::Rook,
        K::King => PieceKind::King,
        K::ProPawn => PieceKind::ProPawn,
        K::ProLance => PieceKind::ProLance,
        K::ProKnight => PieceKind::ProKnight,
        K::ProSilver => PieceKind::ProSilver,
        K::ProBishop => PieceKind::Horse,
        K::ProRook => PieceKind::Dragon,
    }
}
fn to_sc_sq(s: Square) -> sc::Square {
    // Safety of unwrap: our Square is always 1..=9 x 1..=9.
    sc::Square::new(s.file(), s.rank()).expect("valid square")
}
fn from_sc_sq(s: sc::Square) -> Square {
    Square::new(s.file(), s.rank()).expect("valid square")
}
fn to_sc_move(m: Move, side: Color) -> sc::Move {
    match m {
        Move::Normal { from, to, promote } => sc::Move::Normal {
            from: to_sc_sq(from),
            to: to_sc_sq(to),
            promote,
        },
        Move::Drop { kind, to } => sc::Move::Drop {
            piece: sc::Piece::new(to_sc_kind(kind), to_sc_color(side)),
            to: to_sc_sq(to),
        },
    }
}
fn from_sc_move(m: sc::Move) -> Move {
    match m {
        sc::Move::Normal { from, to, promote } => Move::Normal {
            from: from_sc_sq(from),
            to: from_sc_sq(to),
            promote,
        },
        sc::Move::Drop { piece, to } => Move::Drop {
            kind: from_sc_kind(piece.piece_kind()),
            to: from_sc_sq(to),
        },
    }
}

fn map_illegal(e: sc::IllegalMoveKind) -> Illegal {
    match e {
        sc::IllegalMoveKind::TwoPawns => Illegal::TwoPawns,
        sc::IllegalMoveKind::IgnoredCheck => Illegal::IgnoredCheck,
        sc::IllegalMoveKind::DropPawnMate => Illegal::DropPawnMate,
        sc::IllegalMoveKind::DropStuck => Illegal::DropStuck,
        sc::IllegalMoveKind::NormalStuck => Illegal::NormalStuck,
        _ => Illegal::CannotReach,
    }
}

/// What `Position::play_unchecked` did: the piece that moved (before promotion) and what it took.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Played {
    pub piece: PieceKind,
    pub captured: Option<PieceKind>,
}

impl Position {
    /// The even-game (平手) start position.
    pub fn startpos() -> Position {
        Position {
            inner: sc::PartialPosition::startpos(),
        }
    }
    /// An empty board, no pieces in hand, Black to move.
    pub fn empty() -> Position {
        Position {
            inner: sc::PartialPosition::empty(),
        }
    }
    pub fn side_to_move(&self) -> Color {
        from_sc_color(self.inner.side_to_move())
    }
    pub fn set_side_to_move(&mut self, c: Color) {
        self.inner.side_to_move_set(to_sc_color(c));
    }
    /// SFEN move number (1 at the start of a record).
    pub fn move_number(&self) -> u16 {
        self.inner.ply()
    }
    pub fn set_move_number(&mut self, n: u16) {
        let _ = self.inner.ply_set(n.max(1));
    }
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.inner.piece_at(to_sc_sq(sq)).map(|p| {
            let (k, c) = p.to_parts();
            Piece::new(from_sc_kind(k), from_sc_color(c))
        })
    }
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let old = self.piece_at(sq);
        if let Some(o) = old
            && o.kind == PieceKind::King
            && piece != old
        {
            // shogi_core only records where a king is put, never that it left: rebuild the
            // position without this king so that "no king" (tsume diagrams) stays true.
            let mut fresh = sc::PartialPosition::empty();
            for s in Square::all() {
                if s != sq
                    && let Some(p) = self.inner.piece_at(to_sc_sq(s))
                {
                    fresh.piece_set(to_sc_sq(s), Some(p));
                }
            }
            for c in [sc::Color::Black, sc::Color::White] {
                *fresh.hand_of_a_player_mut(c) = self.inner.hand_of_a_player(c);
            }
            fresh.side_to_move_set(self.inner.side_to_move());
            let _ = fresh.ply_set(self.inner.ply());
            self.inner = fresh;
        }
        self.inner.piece_set(
            to_sc_sq(sq),
            piece.map(|p| sc::Piece::new(to_sc_kind(p.kind), to_sc_color(p.color))),
        );
    }
    /// Number of `kind` (unpromoted, not king) in `color`'s hand.
    pub fn hand_count(&self, color: Color, kind: PieceKind) -> u8 {
        if !kind.is_hand_kind() {
            return 0;
        }
        self.inner
            .hand_of_a_player(to_sc_color(color))
            .count(to_sc_kind(kind))
            .unwrap_or(0)
    }
    /// Sets the number of `kind` in `color`'s hand. Returns false when `kind` cannot be in a
    /// hand or `n` is too large to store.
    pub fn set_hand_count(&mut self, color: Color, kind: PieceKind, n: u8) -> bool {
        if !kind.is_hand_kind() {
            return false;
        }
        let hand = self.inner.hand_of_a_player_mut(to_sc_color(color));
        let k = to_sc_kind(kind);
        let mut h = *hand;
        while h.count(k).unwrap_or(0) > 0 {
            h = h.removed(k).expect("count > 0");
        }
        for _ in 0..n {
            match h.added(k) {
                Some(x) => h = x,
                None => return false,
            }
        }
        *hand = h;
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
        self.inner.king_position(to_sc_color(color)).map(from_sc_sq)
    }

    /// Is the side to move in check?
    pub fn in_check(&self) -> bool {
        let mut p = self.inner.clone();
        p.side_to_move_set(p.side_to_move().flip());
        king_capturable(&p) == Some(true)
    }
    /// Is the side to move checkmated (in check with no legal move)?
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && lite::all_legal_moves_partial(&self.inner).is_empty()
    }

    /// Checks `mv` against every rule and says why it is illegal.
    pub fn check(&self, mv: Move) -> Result<(), Illegal> {
        self.precheck(mv)?;
        if let Move::Drop {
            kind: PieceKind::Pawn,
            to,
        } = mv
        {
            return self.check_pawn_drop(to);
        }
        self.check_by_crate(mv)
    }

    /// The checks that need no move generation: a piece of the side to move on the source
    /// square (or in hand), nothing of one's own on the target, promotion only where allowed.
    fn precheck(&self, mv: Move) -> Result<(), Illegal> {
        let side = self.side_to_move();
        match mv {
            Move::Normal { from, to, promote } => {
                let p = self.piece_at(from).ok_or(Illegal::NoPiece)?;
                if p.color != side {
                    return Err(Illegal::NotYourPiece);
                }
                if let Some(t) = self.piece_at(to)
                    && t.color == side
                {
                    return Err(Illegal::OwnPieceOnTarget);
                }
                if promote
                    && (!p.kind.can_promote()
                        || !(from.in_promotion_zone(side) || to.in_promotion_zone(side)))
                {
                    return Err(Illegal::CannotPromote);
                }
            }
            Move::Drop { kind, to } => {
                if !kind.is_hand_kind() || self.hand_count(side, kind) == 0 {
                    return Err(Illegal::NotInHand);
                }
                if self.piece_at(to).is_some() {
                    return Err(Illegal::DropOnOccupied);
                }
            }
        }
        Ok(())
    }

    /// Plays `mv` when it is physically possible (as `play_unchecked`) and says whether the
    /// rules allow it, in one pass: readers keep illegal moves of real files with a warning.
    /// Returns `None`, changing nothing, when the move cannot be played at all.
    pub fn play_checked(&mut self, mv: Move) -> Option<(Played, Result<(), Illegal>)> {
        if matches!(
            mv,
            Move::Drop {
                kind: PieceKind::Pawn,
                ..
            }
        ) {
            let verdict = self.check(mv);
            return self.play_unchecked(mv).map(|p| (p, verdict));
        }
        let side = self.side_to_move();
        let scm = to_sc_move(mv, side);
        let verdict = self.precheck(mv).and_then(|()| {
            lite::prelegality::is_valid_with_error(&self.inner, scm).map_err(map_illegal)
        });
        let played = self.play_unchecked(mv)?;
        let verdict = verdict.and_then(|()| {
            if king_capturable(&self.inner) == Some(true) {
                Err(Illegal::IgnoredCheck)
            } else {
                Ok(())
            }
        });
        Some((played, verdict))
    }

    /// The rules crate's verdict (after the cheap checks above), kept apart so tests can
    /// compare the pawn-drop fast path with it.
    fn check_by_crate(&self, mv: Move) -> Result<(), Illegal> {
        let side = self.side_to_move();
        let scm = to_sc_move(mv, side);
        match lite::is_legal_partial(&self.inner, scm) {
            // The crate calls any pawn drop in front of an empty king square mate when the
            // opponent has no king (tsume positions); without a king there is no mate.
            Err(sc::IllegalMoveKind::DropPawnMate) if self.king_square(side.flip()).is_none() => {
                let mut next = self.inner.clone();
                if next.make_move(scm).is_none() {
                    return Err(Illegal::CannotReach);
                }
                return if king_capturable(&next) == Some(true) {
                    Err(Illegal::IgnoredCheck)
                } else {
                    Ok(())
                };
            }
            r => r,
        }
        .map_err(map_illegal)
    }

    /// A pawn drop on an empty square, from a hand that has a pawn. The rules crate searches
    /// every reply of every pawn drop for 打ち歩詰め; only a drop that gives check can be one, and
    /// only when the king cannot step away, so the search runs for those alone.
    fn check_pawn_drop(&self, to: Square) -> Result<(), Illegal> {
        let side = self.side_to_move();
        let last = match side {
            Color::Black => 1,
            Color::White => 9,
        };
        if to.rank() == last {
            return Err(Illegal::DropStuck);
        }
        let own_pawn = Some(Piece::new(PieceKind::Pawn, side));
        if (1..=9u8).any(|r| Square::new(to.file(), r).and_then(|sq| self.piece_at(sq)) == own_pawn)
        {
            return Err(Illegal::TwoPawns);
        }
        let mv = Move::Drop {
            kind: PieceKind::Pawn,
            to,
        };
        let mut after = self.clone();
        after.play_unchecked(mv).ok_or(Illegal::NotInHand)?;
        // Own king left in check?
        if king_capturable(&after.inner) == Some(true) {
            return Err(Illegal::IgnoredCheck);
        }
        let front = match side {
            Color::Black => Square::new(to.file(), to.rank() - 1),
            Color::White => Square::new(to.file(), to.rank() + 1),
        };
        let gives_check = front.is_some_and(|f| {
            self.king_square(side.flip()) == Some(f)
                && self
                    .piece_at(f)
                    .is_some_and(|p| p.kind == PieceKind::King && p.color != side)
        });
        if gives_check && !after.has_reply_to_pawn_check(to) {
            return Err(Illegal::DropPawnMate);
        }
        Ok(())
    }

    /// After a pawn drop on `pawn` that checks the king in front of it: can the side to move
    /// answer? A pawn's check cannot be blocked, so only king moves and captures of the pawn
    /// count (a full legal-move generation here would cost a mate search per pawn drop).
    fn has_reply_to_pawn_check(&self, pawn: Square) -> bool {
        let side = self.side_to_move();
        let Some(king) = self.king_square(side) else {
            return true;
        };
        if !self.destinations_from(king).is_empty() {
            return true;
        }
        Square::all().any(|sq| {
            sq != king
                && self.piece_at(sq).is_some_and(|p| p.color == side)
                && lite::normal_from_candidates(&self.inner, to_sc_sq(sq)).contains(to_sc_sq(pawn))
        })
    }

    /// For tests: the rules crate's position.
    #[cfg(test)]
    pub(crate) fn raw(&self) -> &sc::PartialPosition {
        &self.inner
    }

    /// For tests: the crate's own verdict on a pawn drop, without the fast path.
    #[cfg(test)]
    pub(crate) fn check_pawn_drop_by_crate(&self, to: Square) -> Result<(), Illegal> {
        self.check_by_crate(Move::Drop {
            kind: PieceKind::Pawn,
            to,
        })
    }

    /// Plays `mv` if it is legal; otherwise changes nothing and says why.
    pub fn play(&mut self, mv: Move) -> Result<Played, Illegal> {
        self.check(mv)?;
        self.play_unchecked(mv).ok_or(Illegal::CannotReach)
    }

    /// Plays `mv` without the rules of movement, as long as it is physically possible
    /// (a piece of the side to move on `from`, no own piece on `to`, the piece in hand for a
    /// drop). Real records contain illegal moves; this is how they are still read.
    pub fn play_unchecked(&mut self, mv: Move) -> Option<Played> {
        let side = self.side_to_move();
        let piece = match mv {
            Move::Normal { from, .. } => self.piece_at(from)?.kind,
            Move::Drop { kind, .. } => kind,
        };
        let captured = match mv {
            Move::Normal { to, .. } => self.piece_at(to).map(|p| p.kind),
            Move::Drop { .. } => None,
        };
        self.inner.make_move(to_sc_move(mv, side))?;
        Some(Played { piece, captured })
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        // The crate leaves out every pawn drop when the opponent would have no legal reply,
        // checking or not; pawn drops come from our own rule instead.
        let mut v: Vec<Move> = lite::all_legal_moves_partial(&self.inner)
            .into_iter()
            .map(from_sc_move)
            .filter(|m| {
                !matches!(
                    m,
                    Move::Drop {
                        kind: PieceKind::Pawn,
                        ..
                    }
                )
            })
            .collect();
        v.extend(
            self.drop_destinations(PieceKind::Pawn)
                .into_iter()
                .map(|to| Move::Drop {
                    kind: PieceKind::Pawn,
                    to,
                }),
        );
        v
    }
    /// Legal destinations of the piece on `from`, each with whether promotion is possible /
    /// forced there.
    pub fn destinations_from(&self, from: Square) -> Vec<Square> {
        lite::normal_from_candidates(&self.inner, to_sc_sq(from))
            .into_iter()
            .map(from_sc_sq)
            .collect()
    }
    /// Legal drop squares for `kind` from the hand of the side to move.
    pub fn drop_destinations(&self, kind: PieceKind) -> Vec<Square> {
        if !kind.is_hand_kind() || self.hand_count(self.side_to_move(), kind) == 0 {
            return Vec::new();
        }
        if kind == PieceKind::Pawn {
            return Square::all()
                .filter(|&to| self.piece_at(to).is_none() && self.check_pawn_drop(to).is_ok())
                .collect();
        }
        let piece = sc::Piece::new(to_sc_kind(kind), to_sc_color(self.side_to_move()));
        lite::drop_candidates(&self.inner, piece)
            .into_iter()
            .map(from_sc_sq)
            .collect()
    }
    /// Whether moving from `from` to `to` may promote and whether it must.
    pub fn promotion_choice(&self, from: Square, to: Square) -> (bool, bool) {
        let side = self.side_to_move();
        let Some(p) = self.piece_at(from) else {
            return (false, false);
        };
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
        let _ = (side, p);
        (may, may && !can_stay)
    }

    /// SFEN of this position, e.g. `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in 1..=9u8 {
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                match self.piece_at(Square::new(file, rank).expect("valid")) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        if p.kind.is_promoted() {
                            s.push('+');
                        }
                        let c = p.kind.usi_letter();
                        s.push(if p.color == Color::Black {
                            c
                        } else {
                            c.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank < 9 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side_to_move() == Color::Black {
            'b'
        } else {
            'w'
        });
        s.push(' ');
        let mut any = false;
        // SFEN hand order: R B G S N L P, Black first.
        for color in [Color::Black, Color::White] {
            for k in PieceKind::HAND {
                let n = self.hand_count(color, k);
                if n == 0 {
                    continue;
                }
                any = true;
                if n > 1 {
                    s.push_str(&n.to_string());
                }
                let c = k.usi_letter();
                s.push(if color == Color::Black {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        s.push_str(&self.move_number().to_string());
        s
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
                let have = pos.hand_count(color, kind);
                if !pos.set_hand_count(color, kind, have + n) {
                    return Err(err("too many pieces in hand"));
                }
                count = 0;
            }
        }
        if let Some(n) = num {
            let n: u16 = n.parse().map_err(|_| err("bad move number"))?;
            pos.set_move_number(n);
        }
        Ok(pos)
    }

    /// A 64-bit hash of board, hands and side to move (not the move number), for 千日手.
    pub fn hash_key(&self) -> u64 {
        // FNV-1a over a compact encoding; positions are small and this is only used along a path.
        let mut h: u64 = 0xcbf29ce484222325;
        let mut feed = |b: u8| {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        };
        for sq in Square::all() {
            feed(match self.piece_at(sq) {
                None => 0,
                Some(p) => 1 + p.kind as u8 + 16 * p.color as u8,
            });
        }
        for c in [Color::Black, Color::White] {
            for k in PieceKind::HAND {
                feed(self.hand_count(c, k));
            }
        }
        feed(self.side_to_move() as u8);
        h
    }

    /// Number of each piece kind (unpromoted) on board and in hands, for sanity checks.
    pub fn piece_counts(&self) -> [u8; 8] {
        let mut n = [0u8; 8];
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                n[p.kind.unpromote() as usize] += 1;
            }
        }
        for c in [Color::Black, Color::White] {
            for k in PieceKind::HAND {
                n[k as usize] += self.hand_count(c, k);
            }
        }
        n
    }

    /// Counts of each hand kind that are on neither board nor in any hand (for `00AL`).
    pub fn missing_pieces(&self) -> Vec<(PieceKind, u8)> {
        let full = [18u8, 4, 4, 4, 4, 2, 2];
        let have = self.piece_counts();
        PieceKind::HAND
            .iter()
            .rev()
            .map(|&k| (k, full[k as usize].saturating_sub(have[k as usize])))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Perft node count (for tests of the rules).
    pub fn perft(&self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = lite::all_legal_moves_partial(&self.inner);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut p = self.clone();
                p.inner.make_move(m).expect("legal move");
                p.perft(depth - 1)
            })
            .sum()
    }
}

/// Exactly `shogi_legality_lite::prelegality::will_king_be_captured`: can the side to move
/// take the other side's king (`None` when that king is absent)? The crate builds attack
/// bitboards for every piece kind; this looks from the king along its 8 lines and at the two
/// knight squares, which costs a fraction of that on every move of every record read.
pub(crate) fn king_capturable(p: &sc::PartialPosition) -> Option<bool> {
    use sc::PieceKind as K;
    let attacker = p.side_to_move();
    let king = p.king_position(attacker.flip())?;
    // `Square::file` and `Square::rank` are C-exported and not inlined; the index is.
    let k = king.array_index() as i8;
    let (kf, kr) = (k / 9 + 1, k % 9 + 1);
    // The attacker's forward direction in ranks (Black moves towards rank 1).
    let fwd: i8 = match attacker {
        sc::Color::Black => -1,
        sc::Color::White => 1,
    };
    let at = |f: i8, r: i8| -> Option<Option<sc::Piece>> {
        if (1..=9).contains(&f) && (1..=9).contains(&r) {
            sc::Square::new(f as u8, r as u8).map(|s| p.piece_at(s))
        } else {
            None
        }
    };
    // Knights: two squares behind the king (seen from the attacker), one file aside.
    for df in [-1i8, 1] {
        if let Some(Some(pc)) = at(kf + df, kr - 2 * fwd)
            && pc.color() == attacker
            && pc.piece_kind() == K::Knight
        {
            return Some(true);
        }
    }
    for (df, dr) in [
        (0i8, -1i8),
        (0, 1),
        (-1, 0),
        (1, 0),
        (-1, -1),
        (-1, 1),
        (1, -1),
        (1, 1),
    ] {
        let diagonal = df != 0 && dr != 0;
        // The attacker's step towards the king, in its own frame: -1 forward, 0 sideways,
        // 1 backward.
        let step = if dr == 0 {
            0
        } else {
            if dr == fwd { 1 } else { -1 }
        };
        let (mut f, mut r) = (kf + df, kr + dr);
        let mut dist = 1;
        while let Some(sq) = at(f, r) {
            if let Some(pc) = sq {
                if pc.color() != attacker {
                    break;
                }
                let k = pc.piece_kind();
                let hit = match k {
                    K::Bishop => diagonal,
                    K::Rook => !diagonal,
                    K::ProBishop => diagonal || dist == 1,
                    K::ProRook => !diagonal || dist == 1,
                    K::Lance => !diagonal && step == -1,
                    _ if dist > 1 => false,
                    K::King => true,
                    K::Pawn => !diagonal && step == -1,
                    K::Silver => step == -1 || (diagonal && step == 1),
                    K::Gold | K::ProPawn | K::ProLance | K::ProKnight | K::ProSilver => {
                        step == -1 || !diagonal
                    }
                    K::Knight => false,
                };
                if hit {
                    return Some(true);
                }
                break;
            }
            f += df;
            r += dr;
            dist += 1;
        }
    }
    Some(false)
}
