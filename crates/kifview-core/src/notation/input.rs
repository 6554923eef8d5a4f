//! Moves typed by the user: USI (`7g7f`, `P*5e`, `8h2b+`), CSA (`7776FU`, `+7776FU`) and
//! Japanese in KIF or KI2 style (`７六歩`, `76歩`, `7六歩`, `同歩`, `同　歩`, `55角打`,
//! `22角成`, `22角不成`, `58金右`, `７六歩(77)`), or an ending word (`投了`).

use super::ki2::{self, Token};
use crate::record::{MoveData, Special};
use crate::rules::{Color, Illegal, Move, PieceKind, Position, Square};
use std::fmt;

/// What the user entered.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Entered {
    Move(Move),
    Special(Special),
}

/// Why typed text is not a move that can be played here.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum InputError {
    /// Nothing matches: the message says what was expected.
    Unreadable(String),
    /// A move that breaks a rule.
    Illegal { text: String, reason: Illegal },
    /// Several moves fit; these are their names (KI2 style), to pick one.
    Ambiguous(Vec<String>),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Unreadable(m) => f.write_str(m),
            InputError::Illegal { text, reason } => write!(f, "{text}: illegal ({reason})"),
            InputError::Ambiguous(c) => write!(f, "which one? {}", c.join(" / ")),
        }
    }
}

fn checked(pos: &Position, text: &str, mv: Move) -> Result<Entered, InputError> {
    pos.check(mv)
        .map(|()| Entered::Move(mv))
        .map_err(|reason| InputError::Illegal {
            text: text.to_string(),
            reason,
        })
}

/// CSA move text: `7776FU`, `+0055KA` (the piece after the move decides promotion).
fn parse_csa(pos: &Position, t: &str) -> Option<Move> {
    let t = t.strip_prefix(['+', '-']).unwrap_or(t);
    let b = t.as_bytes();
    if b.len() != 6 || !b[..4].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let kind = PieceKind::from_csa(&t[4..])?;
    let to = Square::new(b[2] - b'0', b[3] - b'0')?;
    if &t[..2] == "00" {
        return Some(Move::Drop { kind, to });
    }
    let from = Square::new(b[0] - b'0', b[1] - b'0')?;
    let on_board = pos.piece_at(from).map(|p| p.kind);
    let promote = on_board.is_some_and(|k| k != kind && k.promote() == Some(kind));
    Some(Move::Normal { from, to, promote })
}

/// Names of the legal moves that fit a KI2 token whose suffixes did not tell them apart.
fn candidates(pos: &Position, to: Square, kind: PieceKind, prev_to: Option<Square>) -> Vec<String> {
    pos.legal_moves()
        .into_iter()
        .filter(|m| m.to() == to)
        .filter_map(|mv| {
            let md = pos.move_data(mv)?;
            (md.piece == kind).then(|| ki2::move_text(pos, &md, prev_to))
        })
        .collect()
}

/// Reads what the user typed as a move (or ending) in `pos`; `prev_to` is where the previous
/// move went (for 同).
pub fn parse(pos: &Position, prev_to: Option<Square>, text: &str) -> Result<Entered, InputError> {
    let trimmed = text.trim();
    // A side mark (`▲`/`△`, CSA's `+`/`-`) must be the side to move's.
    let marked = match trimmed.chars().next() {
        Some('▲' | '☗' | '+') => Some(Color::Black),
        Some('△' | '▽' | '☖' | '▼' | '-') => Some(Color::White),
        _ => None,
    };
    let side = pos.side_to_move();
    if let Some(c) = marked
        && c != side
    {
        let who = |c: Color| match c {
            Color::Black => ("sente", "▲"),
            Color::White => ("gote", "△"),
        };
        let ((turn, mark), (other, _)) = (who(side), who(c));
        return Err(InputError::Unreadable(format!(
            "it is {turn}'s turn ({mark}): {trimmed} would be {other}'s move"
        )));
    }
    let t = trimmed
        .trim_start_matches(['▲', '△', '▽', '☗', '☖', '▼'])
        .trim();
    if t.is_empty() {
        return Err(InputError::Unreadable(
            "type a move: 7g7f, ７六歩, 76歩, 同歩, 58金右, 7776FU ...".into(),
        ));
    }
    if let Some(mv) = Move::from_usi(t) {
        return checked(pos, t, mv);
    }
    // CSA piece names in any case (`7776fu`).
    if let Some(mv) = parse_csa(pos, &t.to_ascii_uppercase()) {
        return checked(pos, t, mv);
    }
    let explicit_promotion = t.contains('成') || t.contains('打') || t.contains('(');
    match ki2::parse_token(pos, t, prev_to) {
        Ok(Token::Special(s)) => Ok(Entered::Special(s)),
        Ok(Token::Move(md)) => {
            // `22角` where promotion is optional: ask rather than guess.
            if !explicit_promotion && let Move::Normal { from, to, .. } = md.mv {
                let (may, must) = pos.promotion_choice(from, to);
                if must {
                    return checked(
                        pos,
                        t,
                        Move::Normal {
                            from,
                            to,
                            promote: true,
                        },
                    );
                }
                if may {
                    let stay = Move::Normal {
                        from,
                        to,
                        promote: false,
                    };
                    let up = Move::Normal {
                        from,
                        to,
                        promote: true,
                    };
                    let name = |mv: Move| ki2::move_text(pos, &MoveData { mv, ..md }, prev_to);
                    return Err(InputError::Ambiguous(vec![name(up), name(stay)]));
                }
            }
            checked(pos, t, md.mv)
        }
        Err(msg) => {
            if msg.contains("tell them apart") {
                let to = if t.starts_with('同') {
                    prev_to
                } else {
                    super::japanese::square_prefix(t).map(|(s, _)| s)
                };
                let rest = t.trim_start_matches('同').trim_start_matches(|c: char| {
                    super::japanese::digit(c).is_some() || super::japanese::is_space(c)
                });
                if let (Some(to), Some((kind, _))) = (to, super::japanese::piece_prefix(rest)) {
                    let c = candidates(pos, to, kind, prev_to);
                    if c.len() > 1 {
                        return Err(InputError::Ambiguous(c));
                    }
                }
            }
            Err(InputError::Unreadable(msg))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }
    fn mv(s: &str) -> Entered {
        Entered::Move(Move::from_usi(s).unwrap())
    }
    fn sq(f: u8, r: u8) -> Square {
        Square::new(f, r).unwrap()
    }

    #[test]
    fn every_notation_reads_the_same_move() {
        let p = Position::startpos();
        for t in [
            "7g7f",
            "７六歩",
            "76歩",
            "7六歩",
            "７６歩",
            "▲７六歩",
            "7776FU",
            "+7776FU",
            "７六歩(77)",
            " 76歩 ",
        ] {
            assert_eq!(parse(&p, None, t), Ok(mv("7g7f")), "{t}");
        }
    }

    #[test]
    fn same_square_drops_and_promotion() {
        let mut p = Position::startpos();
        for m in ["7g7f", "3c3d"] {
            p.play(Move::from_usi(m).unwrap()).unwrap();
        }
        let prev = Some(sq(3, 4));
        assert_eq!(parse(&p, prev, "8h2b+"), Ok(mv("8h2b+")));
        assert_eq!(parse(&p, prev, "22角成"), Ok(mv("8h2b+")));
        assert_eq!(parse(&p, prev, "22角不成"), Ok(mv("8h2b")));
        assert_eq!(parse(&p, prev, "8822UM"), Ok(mv("8h2b+")));
        match parse(&p, prev, "22角") {
            Err(InputError::Ambiguous(c)) => assert_eq!(c, vec!["▲２二角成", "▲２二角不成"]),
            other => panic!("{other:?}"),
        }
        p.play(Move::from_usi("8h2b+").unwrap()).unwrap();
        let prev = Some(sq(2, 2));
        for t in ["同銀", "同　銀", "同 銀", "3122GI"] {
            assert_eq!(parse(&p, prev, t), Ok(mv("3a2b")), "{t}");
        }
        p.play(Move::from_usi("3a2b").unwrap()).unwrap();
        for t in ["55角打", "55角", "P*5e", "B*5e", "0055KA"] {
            let r = parse(&p, None, t);
            if t == "P*5e" {
                assert!(
                    matches!(
                        r,
                        Err(InputError::Illegal {
                            reason: Illegal::NotInHand,
                            ..
                        })
                    ),
                    "{r:?}"
                );
            } else {
                assert_eq!(r, Ok(mv("B*5e")), "{t}");
            }
        }
    }

    #[test]
    fn disambiguation_and_ambiguity() {
        // Two golds can go to 5h: 右 and 左 tell them apart.
        let p = pos("4k4/9/9/9/9/9/9/9/3GKG3 b - 1");
        assert_eq!(parse(&p, None, "58金右"), Ok(mv("4i5h")));
        assert_eq!(parse(&p, None, "58金左"), Ok(mv("6i5h")));
        match parse(&p, None, "58金") {
            Err(InputError::Ambiguous(c)) => {
                assert_eq!(c.len(), 2);
                assert!(
                    c.contains(&"▲５八金右".to_string()) && c.contains(&"▲５八金左".to_string()),
                    "{c:?}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn illegal_moves_are_refused_with_the_reason() {
        let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
        match parse(&p, None, "55歩打") {
            Err(InputError::Illegal { reason, .. }) => assert_eq!(reason, Illegal::TwoPawns),
            other => panic!("{other:?}"),
        }
        let p = Position::startpos();
        match parse(&p, None, "7g7e") {
            Err(InputError::Illegal { reason, .. }) => assert_eq!(reason, Illegal::CannotReach),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse(&p, None, "55飛"),
            Err(InputError::Unreadable(_))
        ));
        assert!(matches!(
            parse(&p, None, "hello"),
            Err(InputError::Unreadable(_))
        ));
        assert!(matches!(
            parse(&p, None, ""),
            Err(InputError::Unreadable(_))
        ));
        assert!(matches!(
            parse(&p, None, "同歩"),
            Err(InputError::Unreadable(_))
        ));
    }

    #[test]
    fn a_side_mark_must_be_the_side_to_move_and_csa_takes_any_case() {
        let start = Position::startpos();
        for typed in ["△７六歩", "-7776FU", "▽76歩"] {
            let e = parse(&start, None, typed).unwrap_err().to_string();
            assert!(e.starts_with("it is sente's turn (▲):"), "{typed}: {e}");
            assert!(e.ends_with("would be gote's move"), "{typed}: {e}");
        }
        assert_eq!(parse(&start, None, "+7776FU").unwrap(), mv("7g7f"));
        assert_eq!(parse(&start, None, "▲７六歩").unwrap(), mv("7g7f"));
        assert_eq!(parse(&start, None, "7776fu").unwrap(), mv("7g7f"));
        assert_eq!(parse(&start, None, "+7776Fu").unwrap(), mv("7g7f"));
        let mut after = start.clone();
        after.play(Move::from_usi("7g7f").unwrap()).unwrap();
        let e = parse(&after, None, "▲２六歩").unwrap_err().to_string();
        assert_eq!(e, "it is gote's turn (△): ▲２六歩 would be sente's move");
        assert_eq!(parse(&after, None, "-3334fu").unwrap(), mv("3c3d"));
    }

    #[test]
    fn endings_can_be_typed() {
        let p = Position::startpos();
        assert_eq!(
            parse(&p, None, "投了"),
            Ok(Entered::Special(Special::Resign))
        );
    }

    #[test]
    fn forced_promotion_needs_no_question() {
        let p = pos("4k4/P8/9/9/9/9/9/9/4K4 b - 1");
        assert_eq!(parse(&p, None, "91歩"), Ok(mv("9b9a+")));
    }
}
