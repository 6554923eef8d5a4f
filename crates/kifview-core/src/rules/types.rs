//! Board vocabulary: colours, piece kinds, squares and moves.
//!
//! These are kifview's own types; the rules crates are used only inside `core::rules`.

use std::fmt;

/// The side a piece belongs to. Black (先手/下手, ▲) moves first in an even game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// `▲` or `△`.
    pub fn mark(self) -> &'static str {
        match self {
            Color::Black => "▲",
            Color::White => "△",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A piece kind, promoted kinds included.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    Pawn,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
    ProPawn,
    ProLance,
    ProKnight,
    ProSilver,
    Horse,
    Dragon,
}

impl PieceKind {
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];
    /// Kinds that can be held in hand, in the conventional display order (飛 角 金 銀 桂 香 歩).
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
    ];

    pub fn promote(self) -> Option<PieceKind> {
        Some(match self {
            PieceKind::Pawn => PieceKind::ProPawn,
            PieceKind::Lance => PieceKind::ProLance,
            PieceKind::Knight => PieceKind::ProKnight,
            PieceKind::Silver => PieceKind::ProSilver,
            PieceKind::Bishop => PieceKind::Horse,
            PieceKind::Rook => PieceKind::Dragon,
            _ => return None,
        })
    }
    pub fn unpromote(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }
    pub fn is_promoted(self) -> bool {
        self.unpromote() != self
    }
    /// How many pieces of this kind the 40-piece set has (a promoted kind: its unpromoted
    /// kind's count).
    pub const fn set_count(self) -> u8 {
        match self {
            PieceKind::Pawn | PieceKind::ProPawn => 18,
            PieceKind::Lance
            | PieceKind::Knight
            | PieceKind::Silver
            | PieceKind::Gold
            | PieceKind::ProLance
            | PieceKind::ProKnight
            | PieceKind::ProSilver => 4,
            PieceKind::Bishop
            | PieceKind::Rook
            | PieceKind::King
            | PieceKind::Horse
            | PieceKind::Dragon => 2,
        }
    }
    pub fn can_promote(self) -> bool {
        self.promote().is_some()
    }
    pub fn is_hand_kind(self) -> bool {
        !self.is_promoted() && self != PieceKind::King
    }
    /// USI / SFEN letter of the unpromoted kind, uppercase (`P`, `L`, ... `K`).
    pub fn usi_letter(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Gold => 'G',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            _ => 'K',
        }
    }
    pub fn from_usi_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceKind::Pawn,
            'L' => PieceKind::Lance,
            'N' => PieceKind::Knight,
            'S' => PieceKind::Silver,
            'G' => PieceKind::Gold,
            'B' => PieceKind::Bishop,
            'R' => PieceKind::Rook,
            'K' => PieceKind::King,
            _ => return None,
        })
    }
    /// CSA two-letter code (`FU`, `KY`, ... `RY`).
    pub fn csa(self) -> &'static str {
        match self {
            PieceKind::Pawn => "FU",
            PieceKind::Lance => "KY",
            PieceKind::Knight => "KE",
            PieceKind::Silver => "GI",
            PieceKind::Gold => "KI",
            PieceKind::Bishop => "KA",
            PieceKind::Rook => "HI",
            PieceKind::King => "OU",
            PieceKind::ProPawn => "TO",
            PieceKind::ProLance => "NY",
            PieceKind::ProKnight => "NK",
            PieceKind::ProSilver => "NG",
            PieceKind::Horse => "UM",
            PieceKind::Dragon => "RY",
        }
    }
    pub fn from_csa(s: &str) -> Option<PieceKind> {
        PieceKind::ALL.iter().copied().find(|k| k.csa() == s)
    }
    /// One-character name used on a BOD board and in hands (歩 香 桂 銀 金 角 飛 玉 と 杏 圭 全 馬 龍).
    pub fn board_char(self) -> char {
        match self {
            PieceKind::Pawn => '歩',
            PieceKind::Lance => '香',
            PieceKind::Knight => '桂',
            PieceKind::Silver => '銀',
            PieceKind::Gold => '金',
            PieceKind::Bishop => '角',
            PieceKind::Rook => '飛',
            PieceKind::King => '玉',
            PieceKind::ProPawn => 'と',
            PieceKind::ProLance => '杏',
            PieceKind::ProKnight => '圭',
            PieceKind::ProSilver => '全',
            PieceKind::Horse => '馬',
            PieceKind::Dragon => '龍',
        }
    }
    /// Name used in KIF/KI2 move text (成銀 成桂 成香 for the promoted minor pieces).
    pub fn move_name(self) -> &'static str {
        match self {
            PieceKind::Pawn => "歩",
            PieceKind::Lance => "香",
            PieceKind::Knight => "桂",
            PieceKind::Silver => "銀",
            PieceKind::Gold => "金",
            PieceKind::Bishop => "角",
            PieceKind::Rook => "飛",
            PieceKind::King => "玉",
            PieceKind::ProPawn => "と",
            PieceKind::ProLance => "成香",
            PieceKind::ProKnight => "成桂",
            PieceKind::ProSilver => "成銀",
            PieceKind::Horse => "馬",
            PieceKind::Dragon => "龍",
        }
    }
}

/// A square: file 1..=9 (right to left from Black's view), rank 1..=9 (top to bottom).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square {
    file: u8,
    rank: u8,
}

impl Square {
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        ((1..=9).contains(&file) && (1..=9).contains(&rank)).then_some(Square { file, rank })
    }
    pub fn file(self) -> u8 {
        self.file
    }
    pub fn rank(self) -> u8 {
        self.rank
    }
    /// 0..81, file-major like shogi_core (`(file-1)*9 + rank-1`).
    pub fn index(self) -> usize {
        (self.file as usize - 1) * 9 + self.rank as usize - 1
    }
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=9u8).flat_map(|f| (1..=9u8).map(move |r| Square { file: f, rank: r }))
    }
    /// USI form, e.g. `7g`.
    pub fn usi(self) -> String {
        format!("{}{}", self.file, (b'a' + self.rank - 1) as char)
    }
    /// Is this square in `color`'s promotion zone (the opponent's three ranks)?
    pub fn in_promotion_zone(self, color: Color) -> bool {
        match color {
            Color::Black => self.rank <= 3,
            Color::White => self.rank >= 7,
        }
    }
    /// Point-symmetric square (for flipping the board).
    pub fn flip(self) -> Square {
        Square {
            file: 10 - self.file,
            rank: 10 - self.rank,
        }
    }
}

/// A piece with its owner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub kind: PieceKind,
    pub color: Color,
}

impl Piece {
    pub fn new(kind: PieceKind, color: Color) -> Piece {
        Piece { kind, color }
    }
}

/// A move on the board or a drop from the hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Normal {
        from: Square,
        to: Square,
        promote: bool,
    },
    Drop {
        kind: PieceKind,
        to: Square,
    },
}

impl Move {
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }
    pub fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }
    /// USI text: `7g7f`, `8h2b+`, `P*5e`.
    pub fn usi(self) -> String {
        self.usi_bytes().as_str().to_string()
    }
    /// The USI text without allocating (for writers of many moves: a book's lines).
    pub fn usi_bytes(self) -> UsiText {
        let sq = |s: Square| [b'0' + s.file, b'a' + s.rank - 1];
        let mut b = [0u8; 5];
        let len = match self {
            Move::Normal { from, to, promote } => {
                b[..2].copy_from_slice(&sq(from));
                b[2..4].copy_from_slice(&sq(to));
                if promote {
                    b[4] = b'+';
                }
                4 + usize::from(promote)
            }
            Move::Drop { kind, to } => {
                b[0] = kind.usi_letter() as u8;
                b[1] = b'*';
                b[2..4].copy_from_slice(&sq(to));
                4
            }
        };
        UsiText { b, len: len as u8 }
    }
    /// Parses USI move text.
    pub fn from_usi(s: &str) -> Option<Move> {
        let b = s.as_bytes();
        let sq = |f: u8, r: u8| -> Option<Square> {
            if !(b'1'..=b'9').contains(&f) || !(b'a'..=b'i').contains(&r) {
                return None;
            }
            Square::new(f - b'0', r - b'a' + 1)
        };
        if b.len() == 4 && b[1] == b'*' {
            let kind = PieceKind::from_usi_letter(b[0] as char)?;
            if !b[0].is_ascii_uppercase() || kind == PieceKind::King {
                return None;
            }
            return Some(Move::Drop {
                kind,
                to: sq(b[2], b[3])?,
            });
        }
        if b.len() == 4 || (b.len() == 5 && b[4] == b'+') {
            return Some(Move::Normal {
                from: sq(b[0], b[1])?,
                to: sq(b[2], b[3])?,
                promote: b.len() == 5,
            });
        }
        None
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.usi_bytes().as_str())
    }
}

/// A move's USI text held on the stack ([`Move::usi_bytes`]): 4 or 5 ASCII bytes, the rest
/// zeros (so that the derived order is the texts' byte order).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct UsiText {
    b: [u8; 5],
    len: u8,
}

impl UsiText {
    pub fn as_bytes(&self) -> &[u8] {
        &self.b[..usize::from(self.len)]
    }
    pub fn as_str(&self) -> &str {
        // Digits, `a`–`i`, `*`, `+` and a piece letter: always ASCII.
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

/// Why a move cannot be played. Each reason reads as a sentence for the user.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Illegal {
    /// There is no piece on the source square.
    NoPiece,
    /// The piece on the source square belongs to the opponent.
    NotYourPiece,
    /// The side to move has no such piece in hand.
    NotInHand,
    /// The destination holds a piece of the side to move.
    OwnPieceOnTarget,
    /// A drop onto an occupied square.
    DropOnOccupied,
    /// The piece cannot move that way (or something is in the way).
    CannotReach,
    /// Promotion asked for a piece that cannot promote there.
    CannotPromote,
    /// 二歩: a second unpromoted pawn on the same file.
    TwoPawns,
    /// 王手放置: the move leaves (or puts) one's own king in check.
    IgnoredCheck,
    /// 打ち歩詰め: checkmate by dropping a pawn.
    DropPawnMate,
    /// 行き所のない駒: a dropped piece that could never move again.
    DropStuck,
    /// 行き所のない駒: a moved piece (not promoted) that could never move again.
    NormalStuck,
}

impl Illegal {
    pub fn describe(self) -> &'static str {
        match self {
            Illegal::NoPiece => "no piece on the source square",
            Illegal::NotYourPiece => "the piece on the source square belongs to the opponent",
            Illegal::NotInHand => "no such piece in hand",
            Illegal::OwnPieceOnTarget => "own piece on the destination square",
            Illegal::DropOnOccupied => "cannot drop onto an occupied square",
            Illegal::CannotReach => "the piece cannot move there",
            Illegal::CannotPromote => "this piece cannot promote on this move",
            Illegal::TwoPawns => "二歩 (two unpromoted pawns on one file)",
            Illegal::IgnoredCheck => "王手放置 (the king would be in check)",
            Illegal::DropPawnMate => "打ち歩詰め (checkmate by a pawn drop)",
            Illegal::DropStuck => "行き所のない駒 (a dropped piece with no further move)",
            Illegal::NormalStuck => {
                "行き所のない駒 (the piece would have no further move; it must promote)"
            }
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A move as played (in a record, an engine's line, a move typed), with what a writer needs
/// without replaying: made from a position by [`super::Position::move_data`] or
/// [`super::Position::play_move`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveData {
    pub mv: Move,
    /// Who played it.
    pub color: Color,
    /// The kind of the moving piece before the move (before promotion).
    pub piece: PieceKind,
    /// The kind of the piece taken, as it stood on the board.
    pub captured: Option<PieceKind>,
}

impl MoveData {
    /// The kind on the destination square after the move.
    pub fn piece_after(&self) -> PieceKind {
        if self.mv.is_promotion() {
            self.piece.promote().unwrap_or(self.piece)
        } else {
            self.piece
        }
    }
}
