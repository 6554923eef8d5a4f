//! The Japanese vocabulary shared by KIF, KI2 and BOD: digits, numbers, piece names.

use crate::record::MoveData;
use crate::rules::{Move, PieceKind, Square};

pub const FULL_DIGITS: [&str; 10] = ["０", "１", "２", "３", "４", "５", "６", "７", "８", "９"];
pub const KANJI_DIGITS: [&str; 10] = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// A digit 1..=9 written as ASCII, full-width or kanji.
pub fn digit(c: char) -> Option<u8> {
    let d = match c {
        '1'..='9' => c as u32 - '0' as u32,
        '１'..='９' => c as u32 - '０' as u32,
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    };
    Some(d as u8)
}

/// Reads a square written as two digits in any mix of styles (`７六`, `76`, `７６`, `7六`).
/// Returns the square and the number of bytes consumed.
pub fn square_prefix(s: &str) -> Option<(Square, usize)> {
    let mut it = s.char_indices();
    let (_, a) = it.next()?;
    let (i, b) = it.next()?;
    let sq = Square::new(digit(a)?, digit(b)?)?;
    Some((sq, i + b.len_utf8()))
}

/// `７六`: full-width file, kanji rank (the KIF style).
pub fn square_kif(sq: Square) -> String {
    format!(
        "{}{}",
        FULL_DIGITS[sq.file() as usize],
        KANJI_DIGITS[sq.rank() as usize]
    )
}

/// Reads a count written in kanji (`一`..`十八`) or digits (ASCII or full-width).
pub fn count(s: &str) -> Option<u32> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if s.chars()
        .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
    {
        let mut n: u32 = 0;
        for c in s.chars() {
            let d = if c.is_ascii_digit() {
                c as u32 - '0' as u32
            } else {
                c as u32 - '０' as u32
            };
            n = n.checked_mul(10)?.checked_add(d)?;
        }
        return Some(n);
    }
    let chars: Vec<char> = s.chars().collect();
    let kd = |c: char| -> Option<u32> {
        match c {
            '〇' => Some(0),
            _ => digit(c).filter(|_| !c.is_ascii_digit()).map(u32::from),
        }
    };
    match chars.as_slice() {
        [a] if *a == '十' => Some(10),
        [a] => kd(*a),
        ['十', b] => Some(10 + kd(*b)?),
        [a, '十'] => Some(kd(*a)? * 10),
        [a, '十', b] => Some(kd(*a)? * 10 + kd(*b)?),
        _ => None,
    }
}

/// `二`..`十八` for hand counts (1 is written as nothing by the caller).
pub fn kanji_count(n: u32) -> String {
    match n {
        0..=9 => KANJI_DIGITS[n as usize].to_string(),
        10 => "十".to_string(),
        11..=19 => format!("十{}", KANJI_DIGITS[(n - 10) as usize]),
        _ => n.to_string(),
    }
}

/// Piece names as written in moves, boards and hands, longest first: what [`piece_prefix`]
/// and [`piece_char`] read (the tests hold them to this table).
#[cfg(test)]
const PIECE_NAMES: [(&str, PieceKind); 22] = [
    ("成銀", PieceKind::ProSilver),
    ("成桂", PieceKind::ProKnight),
    ("成香", PieceKind::ProLance),
    ("歩", PieceKind::Pawn),
    ("香", PieceKind::Lance),
    ("桂", PieceKind::Knight),
    ("銀", PieceKind::Silver),
    ("金", PieceKind::Gold),
    ("角", PieceKind::Bishop),
    ("飛", PieceKind::Rook),
    ("玉", PieceKind::King),
    ("王", PieceKind::King),
    ("と", PieceKind::ProPawn),
    ("杏", PieceKind::ProLance),
    ("圭", PieceKind::ProKnight),
    ("全", PieceKind::ProSilver),
    ("馬", PieceKind::Horse),
    ("龍", PieceKind::Dragon),
    ("竜", PieceKind::Dragon),
    ("个", PieceKind::ProPawn),
    ("仝", PieceKind::ProLance),
    ("今", PieceKind::ProKnight),
];

/// Reads a piece name at the start of `s`; returns the kind and bytes consumed.
/// (The names of `PIECE_NAMES` by their first character: every reader asks this of every
/// move, and a table search compares up to 22 strings.)
pub fn piece_prefix(s: &str) -> Option<(PieceKind, usize)> {
    let mut chars = s.chars();
    let first = chars.next()?;
    if first == '成' {
        let kind = match chars.next()? {
            '銀' => PieceKind::ProSilver,
            '桂' => PieceKind::ProKnight,
            '香' => PieceKind::ProLance,
            _ => return None,
        };
        return Some((kind, 2 * '成'.len_utf8()));
    }
    piece_char(first).map(|k| (k, first.len_utf8()))
}

/// Reads a piece name that is the whole of `s`.
pub fn piece_name(s: &str) -> Option<PieceKind> {
    piece_prefix(s)
        .filter(|&(_, n)| n == s.len())
        .map(|(k, _)| k)
}

/// Is `c` a space of any width (ASCII or U+3000)?
pub fn is_space(c: char) -> bool {
    c == ' ' || c == '\u{3000}' || c == '\t'
}

/// Could this move have promoted (so that not promoting is written 不成)?
pub fn could_promote(md: &MoveData) -> bool {
    match md.mv {
        Move::Normal { from, to, .. } => {
            md.piece.can_promote()
                && (from.in_promotion_zone(md.color) || to.in_promotion_zone(md.color))
        }
        Move::Drop { .. } => false,
    }
}

/// A move in KIF style, without the side mark: `７六歩(77)`, `同　歩(77)`, `２二角成(88)`,
/// `２二角不成(88)`, `５五角打`. `prev_to` is the destination of the previous move (for 同).
pub fn kif_move(md: &MoveData, prev_to: Option<Square>) -> String {
    let mut s = String::with_capacity(24);
    push_kif_move(&mut s, md, prev_to);
    s
}

/// Appends [`kif_move`]'s text to `out` without allocating (the screen, search).
pub fn push_kif_move(out: &mut String, md: &MoveData, prev_to: Option<Square>) {
    push_move(out, md, prev_to, true);
}

/// Appends a move as a KIF file's move line says it: like [`push_kif_move`] but a declined
/// promotion is the move without `成` and without `不成` (`８二銀(71)`), as the KIF
/// specification says (`不成の場合は、「不成」を表記しない`) and Kifu for Windows writes; the
/// origin square says the rest, and ShogiHome (tsshogi), json-kifu-format and cshogi reject
/// or skip a `不成` move line.
pub fn push_kif_file_move(out: &mut String, md: &MoveData, prev_to: Option<Square>) {
    push_move(out, md, prev_to, false);
}

fn push_move(out: &mut String, md: &MoveData, prev_to: Option<Square>, declined: bool) {
    let to = md.mv.to();
    if prev_to == Some(to) {
        out.push_str("同\u{3000}");
    } else {
        out.push_str(FULL_DIGITS[to.file() as usize]);
        out.push_str(KANJI_DIGITS[to.rank() as usize]);
    }
    out.push_str(md.piece.move_name());
    match md.mv {
        Move::Normal { from, promote, .. } => {
            if promote {
                out.push('成');
            } else if declined && could_promote(md) {
                out.push_str("不成");
            }
            out.push('(');
            out.push((b'0' + from.file()) as char);
            out.push((b'0' + from.rank()) as char);
            out.push(')');
        }
        Move::Drop { .. } => out.push('打'),
    }
}

/// The piece a single character names on a board, in a hand or in a move (`歩`, `竜`/`龍`,
/// `王`/`玉`, `全`, `圭`, `杏`, ...); the two-character names (`成銀` ...) are not single
/// characters. A `match` instead of a table search, for the readers' inner loops.
pub fn piece_char(c: char) -> Option<PieceKind> {
    Some(match c {
        '歩' => PieceKind::Pawn,
        '香' => PieceKind::Lance,
        '桂' => PieceKind::Knight,
        '銀' => PieceKind::Silver,
        '金' => PieceKind::Gold,
        '角' => PieceKind::Bishop,
        '飛' => PieceKind::Rook,
        '玉' | '王' => PieceKind::King,
        'と' | '个' => PieceKind::ProPawn,
        '杏' | '仝' => PieceKind::ProLance,
        '圭' | '今' => PieceKind::ProKnight,
        '全' => PieceKind::ProSilver,
        '馬' => PieceKind::Horse,
        '龍' | '竜' => PieceKind::Dragon,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Color;

    #[test]
    fn kif_move_text() {
        let sq = |f, r| Square::new(f, r).unwrap();
        let md = |mv, piece| MoveData {
            mv,
            color: Color::Black,
            piece,
            captured: None,
        };
        let n = |from, to, promote| Move::Normal { from, to, promote };
        assert_eq!(
            kif_move(&md(n(sq(7, 7), sq(7, 6), false), PieceKind::Pawn), None),
            "７六歩(77)"
        );
        assert_eq!(
            kif_move(
                &md(n(sq(8, 8), sq(2, 2), true), PieceKind::Bishop),
                Some(sq(2, 2))
            ),
            "同　角成(88)"
        );
        assert_eq!(
            kif_move(&md(n(sq(8, 8), sq(2, 2), false), PieceKind::Bishop), None),
            "２二角不成(88)"
        );
        assert_eq!(
            kif_move(
                &md(
                    Move::Drop {
                        kind: PieceKind::Bishop,
                        to: sq(5, 5)
                    },
                    PieceKind::Bishop
                ),
                None
            ),
            "５五角打"
        );
        assert_eq!(
            kif_move(
                &md(n(sq(4, 5), sq(4, 4), false), PieceKind::ProSilver),
                None
            ),
            "４四成銀(45)"
        );
    }

    #[test]
    fn push_kif_move_matches_kif_move() {
        let sq = |f, r| Square::new(f, r).unwrap();
        for (mv, piece, prev) in [
            (
                Move::Normal {
                    from: sq(7, 7),
                    to: sq(7, 6),
                    promote: false,
                },
                PieceKind::Pawn,
                None,
            ),
            (
                Move::Normal {
                    from: sq(8, 8),
                    to: sq(2, 2),
                    promote: true,
                },
                PieceKind::Bishop,
                Some(sq(2, 2)),
            ),
            (
                Move::Normal {
                    from: sq(8, 8),
                    to: sq(2, 2),
                    promote: false,
                },
                PieceKind::Bishop,
                None,
            ),
            (
                Move::Drop {
                    kind: PieceKind::Gold,
                    to: sq(5, 5),
                },
                PieceKind::Gold,
                None,
            ),
        ] {
            let md = MoveData {
                mv,
                color: Color::Black,
                piece,
                captured: None,
            };
            let mut s = String::from("x");
            push_kif_move(&mut s, &md, prev);
            assert_eq!(s, format!("x{}", kif_move(&md, prev)));
        }
    }

    #[test]
    fn digits_and_squares() {
        for s in ["７六", "76", "７６", "7六"] {
            let (sq, n) = square_prefix(s).unwrap();
            assert_eq!((sq.file(), sq.rank(), n), (7, 6, s.len()));
        }
        assert!(square_prefix("０六").is_none());
        assert_eq!(square_kif(Square::new(1, 9).unwrap()), "１九");
    }

    #[test]
    fn counts() {
        for (s, n) in [
            ("一", 1),
            ("九", 9),
            ("十", 10),
            ("十一", 11),
            ("十八", 18),
            ("二十", 20),
            ("18", 18),
            ("１８", 18),
        ] {
            assert_eq!(count(s), Some(n), "{s}");
        }
        assert_eq!(count("歩"), None);
        assert_eq!(count(""), None);
        assert_eq!(kanji_count(18), "十八");
        assert_eq!(kanji_count(2), "二");
    }

    #[test]
    fn piece_char_agrees_with_piece_name() {
        for (name, kind) in PIECE_NAMES {
            let mut chars = name.chars();
            let c = chars.next().unwrap();
            if chars.next().is_none() {
                assert_eq!(piece_char(c), Some(kind), "{name}");
            }
        }
        assert_eq!(piece_char('成'), None);
        assert_eq!(piece_char('x'), None);
    }

    #[test]
    fn piece_prefix_agrees_with_the_table() {
        let firsts = ["", "x", "成", "成x", "成成銀", "金将", "と金"];
        let mut texts: Vec<String> = firsts.iter().map(|s| s.to_string()).collect();
        for (name, _) in PIECE_NAMES {
            for tail in ["", "(45)", "成", "銀", "\u{3000}"] {
                texts.push(format!("{name}{tail}"));
            }
        }
        for text in texts {
            let by_table = PIECE_NAMES
                .iter()
                .find(|(n, _)| text.starts_with(n))
                .map(|&(n, k)| (k, n.len()));
            assert_eq!(piece_prefix(&text), by_table, "{text}");
        }
    }

    #[test]
    fn pieces() {
        assert_eq!(piece_prefix("成銀(45)"), Some((PieceKind::ProSilver, 6)));
        assert_eq!(piece_prefix("竜"), Some((PieceKind::Dragon, 3)));
        assert_eq!(piece_name("王"), Some(PieceKind::King));
        assert_eq!(piece_name("金将"), None);
    }
}
