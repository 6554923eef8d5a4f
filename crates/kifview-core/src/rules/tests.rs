use super::*;
use shogi_core as sc;
use shogi_legality_lite as lite;

fn sq(f: u8, r: u8) -> Square {
    Square::new(f, r).unwrap()
}
fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap()
}
fn mv(usi: &str) -> Move {
    Move::from_usi(usi).unwrap()
}

#[test]
fn perft_matches_published_table() {
    let p = Position::startpos();
    assert_eq!(p.perft(1), 30);
    assert_eq!(p.perft(2), 900);
    assert_eq!(p.perft(3), 25_470);
}

#[test]
fn sfen_round_trips() {
    for s in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "ln1g1g1nl/1ks2r3/1pppp1bpp/p3spp2/9/P1P1P4/1P1PSPPPP/1BK1GS1R1/LN1G3NL w 2Pp 40",
        "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1",
        "8k/9/9/9/9/9/9/9/K8 b RBGSNLP2rbgsnl17p 1",
        "+R+B+S+N+Lk3/9/9/9/9/9/9/9/8K w - 3",
    ] {
        assert_eq!(pos(s).to_sfen(), s);
    }
    assert_eq!(Position::startpos(), pos(STARTS[0]));
    assert_eq!(
        pos("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -").to_sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
}

/// The SFEN as the position's squares and hands spell it, with `fmt` (`to_sfen` before it was
/// written byte by byte): the oracle of `sfen_is_spelled_from_the_squares_and_hands`.
fn sfen_as_spelled(p: &Position) -> String {
    let mut s = String::with_capacity(96);
    for rank in 1..=9u8 {
        let mut empty = 0;
        for file in (1..=9u8).rev() {
            match p.piece_at(Square::new(file, rank).expect("valid")) {
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
    s.push(if p.side_to_move() == Color::Black {
        'b'
    } else {
        'w'
    });
    s.push(' ');
    let mut any = false;
    // SFEN hand order: R B G S N L P, Black first.
    for color in [Color::Black, Color::White] {
        for k in PieceKind::HAND {
            let n = p.hand_count(color, k);
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
    s.push_str(&p.move_number().to_string());
    s
}

#[test]
fn sfen_is_spelled_from_the_squares_and_hands() {
    let mut rng = Rng(0x5fe4_0000_0000_0001);
    let mut positions: Vec<Position> = (0..300).map(|_| random_board(&mut rng)).collect();
    for start in STARTS {
        positions.extend(game_positions(start, 150, &mut rng));
    }
    // Every square promoted, counts in hand of two and three digits, the largest move number.
    let mut full = Position::empty();
    for sq in Square::all() {
        full.set_piece(sq, Some(Piece::new(PieceKind::Dragon, Color::White)));
    }
    full.set_hand_count(Color::Black, PieceKind::Pawn, 18);
    full.set_hand_count(Color::White, PieceKind::Rook, 255);
    full.set_hand_count(Color::White, PieceKind::Lance, 100);
    full.set_move_number(u16::MAX);
    positions.push(full);
    for p in &positions {
        let sfen = p.to_sfen();
        assert_eq!(sfen, sfen_as_spelled(p));
        let mut key = String::from("x");
        p.push_sfen_key(&mut key);
        assert_eq!(Some(&key[1..]), sfen.rsplit_once(' ').map(|k| k.0));
    }
}

#[test]
fn bad_sfen_is_an_error_not_a_panic() {
    for s in [
        "",
        "9/9 b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 99P 1",
        "+k8/9/9/9/9/9/9/9/9 b - 1",
    ] {
        assert!(Position::from_sfen(s).is_err(), "{s}");
    }
    // More than 255 of a kind in hand: an error, not an overflow.
    let many = format!("4k4/9/9/9/9/9/9/9/4K4 b {} 1", "18P".repeat(15));
    let err = Position::from_sfen(&many).unwrap_err();
    assert!(err.0.starts_with("too many pieces in hand"), "{err}");
}

#[test]
fn usi_moves_parse_and_print() {
    for s in ["7g7f", "8h2b+", "P*5e", "R*1a"] {
        assert_eq!(mv(s).usi(), s);
    }
    for s in ["7g7", "p*5e", "K*5e", "0a1b", "7j7f", "7g7f=", "P*"] {
        assert!(Move::from_usi(s).is_none(), "{s}");
    }
}

#[test]
fn usi_text_on_the_stack_is_the_usi_text_and_sorts_as_it() {
    let mut all = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            for promote in [false, true] {
                all.push(Move::Normal { from, to, promote });
            }
        }
    }
    for kind in PieceKind::ALL[..7].iter().copied() {
        for to in Square::all() {
            all.push(Move::Drop { kind, to });
        }
    }
    for m in &all {
        // The text as the squares and the piece letter spell it.
        let text = match *m {
            Move::Normal { from, to, promote } => {
                format!(
                    "{}{}{}",
                    from.usi(),
                    to.usi(),
                    if promote { "+" } else { "" }
                )
            }
            Move::Drop { kind, to } => format!("{}*{}", kind.usi_letter(), to.usi()),
        };
        assert_eq!(m.usi_bytes().as_str(), text);
        assert_eq!(m.to_string(), text);
        assert_eq!(Move::from_usi(m.usi_bytes().as_str()), Some(*m));
    }
    let mut by_text = all.clone();
    by_text.sort_by_key(|m| m.usi());
    all.sort_by_key(|m| m.usi_bytes());
    assert_eq!(all, by_text);
}

#[test]
fn illegal_moves_say_why() {
    let start = Position::startpos();
    assert_eq!(start.check(mv("5e5d")), Err(Illegal::NoPiece));
    assert_eq!(start.check(mv("3c3d")), Err(Illegal::NotYourPiece));
    assert_eq!(start.check(mv("7g7e")), Err(Illegal::CannotReach));
    assert_eq!(start.check(mv("6i7i")), Err(Illegal::OwnPieceOnTarget));
    assert_eq!(start.check(mv("P*5e")), Err(Illegal::NotInHand));
    assert_eq!(start.check(mv("7g7f+")), Err(Illegal::CannotPromote));
    assert_eq!(start.check(mv("7g7f")), Ok(()));

    // 二歩
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert_eq!(p.check(mv("P*5e")), Err(Illegal::TwoPawns));
    assert_eq!(p.check(mv("P*4e")), Ok(()));
    // 行き所のない駒: pawn dropped on the last rank, knight on the last two.
    assert_eq!(p.check(mv("P*4a")), Err(Illegal::DropStuck));
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b N 1");
    assert_eq!(p.check(mv("N*4b")), Err(Illegal::DropStuck));
    // a pawn moving to the last rank must promote
    let p = pos("4k4/P8/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(p.check(mv("9b9a")), Err(Illegal::NormalStuck));
    assert_eq!(p.check(mv("9b9a+")), Ok(()));
    // 打ち歩詰め
    let p = pos("kn7/1p7/9/1N7/9/9/9/9/4K4 b P 1");
    assert_eq!(p.check(mv("P*9b")), Err(Illegal::DropPawnMate));
    // 王手放置: the pinned gold cannot leave the file
    let p = pos("4r4/9/9/9/9/9/9/4G4/4K4 b - 1");
    assert_eq!(p.check(mv("5h4h")), Err(Illegal::IgnoredCheck));
    assert_eq!(p.check(mv("5h5g")), Ok(()));
    // Drop onto an occupied square
    let p = pos("4k4/9/9/9/9/9/9/4G4/4K4 b P 1");
    assert_eq!(p.check(mv("P*5h")), Err(Illegal::DropOnOccupied));
}

#[test]
fn positions_without_a_black_king_still_play() {
    // A tsume position without a Black king: moves are still generated.
    let p = tsume_position();
    assert!(p.king_square(Color::Black).is_none());
    assert!(p.legal_moves().is_empty()); // Black holds nothing
    let p = pos("4k4/9/4P4/9/9/9/9/9/9 b G 1");
    assert!(p.check(mv("G*5b")).is_ok());
    let mut q = p.clone();
    q.play(mv("G*5b")).unwrap();
    assert!(q.in_check());
}

#[test]
fn check_and_mate_are_detected() {
    let mut p = pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    p.play(mv("G*5b")).unwrap();
    assert!(p.in_check());
    assert!(p.is_checkmate());
    assert!(!Position::startpos().in_check());
}

#[test]
fn play_records_piece_and_capture() {
    let mut p = Position::startpos();
    for m in ["7g7f", "3c3d"] {
        p.play(mv(m)).unwrap();
    }
    let played = p.play(mv("8h2b+")).unwrap();
    assert_eq!(played.piece, PieceKind::Bishop);
    assert_eq!(played.captured, Some(PieceKind::Bishop));
    assert_eq!(p.hand_count(Color::Black, PieceKind::Bishop), 1);
    assert_eq!(p.piece_at(sq(2, 2)).unwrap().kind, PieceKind::Horse);
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!(p.move_number(), 4);
}

#[test]
fn a_move_played_is_the_move_data_it_was_before_playing_however_it_is_played() {
    let mut p = Position::startpos();
    for m in ["7g7f", "3c3d"] {
        p.play(mv(m)).unwrap();
    }
    // A capture with promotion, and a drop of what was captured.
    for m in ["8h2b+", "3a2b", "B*5e"] {
        let before = p.move_data(mv(m)).unwrap();
        let color = p.side_to_move();
        let unchecked = p.clone().play_unchecked(mv(m)).unwrap().data(mv(m), color);
        assert_eq!(unchecked, before, "{m}");
        assert_eq!(p.play_move(mv(m)).unwrap(), before, "{m}");
    }
}

#[test]
fn illegal_but_possible_moves_can_still_be_replayed() {
    let mut p = Position::startpos();
    // A rook jumping over pieces: against the rules, but physically possible.
    assert!(p.check(mv("2h2c")).is_err());
    assert!(p.play_unchecked(mv("2h2c")).is_some());
    // No piece there: impossible.
    assert!(p.play_unchecked(mv("5e5d")).is_none());
}

#[test]
fn handicaps_have_the_expected_positions() {
    assert_eq!(HANDICAPS.len(), 16);
    assert_eq!(
        Handicap::by_name("平手").unwrap().sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    assert_eq!(
        Handicap::by_name("香落ち").unwrap().sfen(),
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(
        Handicap::by_name("左七枚落ち　")
            .unwrap()
            .position()
            .to_sfen(),
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(Handicap::by_name("飛落ち").unwrap().name, "飛車落ち");
    for h in HANDICAPS {
        assert_eq!(h.position(), pos(&h.sfen()), "{}", h.name);
        assert_eq!(Handicap::matching(&h.position()), Some(h));
        assert!(!h.position().legal_moves().is_empty());
    }
    assert!(Handicap::by_name("九枚落ち").is_none());
}

#[test]
fn promotion_choice() {
    let p = pos("4k4/9/9/4P4/9/9/9/9/4K4 b - 1");
    assert_eq!(p.promotion_choice(sq(5, 4), sq(5, 3)), (true, false));
    let p = pos("4k4/9/P8/9/9/9/9/9/4K4 b - 1");
    assert_eq!(p.promotion_choice(sq(9, 3), sq(9, 2)), (true, false));
    let p = pos("4k4/P8/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(p.promotion_choice(sq(9, 2), sq(9, 1)), (true, true));
    let p = Position::startpos();
    assert_eq!(p.promotion_choice(sq(7, 7), sq(7, 6)), (false, false));
}

#[test]
fn repetition_hash_ignores_move_number() {
    let mut p = Position::startpos();
    let h0 = p.hash_key();
    for m in ["2h3h", "8b7b", "3h2h", "7b8b"] {
        p.play(mv(m)).unwrap();
    }
    assert_eq!(p.hash_key(), h0);
    p.play(mv("7g7f")).unwrap();
    assert_ne!(p.hash_key(), h0);
}

#[test]
fn removing_a_king_is_remembered() {
    // A tsume diagram built over the start position: Black's king taken off the board.
    let mut p = Position::startpos();
    p.set_piece(sq(5, 9), None);
    assert_eq!(p.king_square(Color::Black), None);
    assert_eq!(
        p.to_sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1"
    );
    // With no Black king, nothing Black does can be 王手放置.
    let mut q = Position::from_sfen("4k4/9/9/9/9/9/9/9/4r4 b G 1").unwrap();
    q.set_piece(sq(5, 9), None);
    assert!(q.check(mv("G*5b")).is_ok());
    // No White king left: a pawn drop in front of where it stood is no 打ち歩詰め.
    let mut t = Position::from_sfen("4k4/4g4/9/9/9/9/9/9/4K4 b P 1").unwrap();
    assert_eq!(t.check(mv("P*5c")), Ok(()));
    t.set_piece(sq(5, 1), None);
    t.set_piece(sq(5, 2), None);
    assert_eq!(t.king_square(Color::White), None);
    assert_eq!(t.check(mv("P*5b")), Ok(()));
}

/// `play_checked` gives the same verdict as `check` and the same position as
/// `play_unchecked`, for every physically possible move of random games.
#[test]
fn play_checked_agrees_with_check_and_play() {
    let mut seed: u64 = 0x1234_5678_9abc_def1;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut illegal_seen = 0;
    for _game in 0..20 {
        let mut p = Position::startpos();
        for _ply in 0..120 {
            // Every move of every own piece to every square, legal or not, and some drops.
            for from in Square::all() {
                if p.piece_at(from)
                    .is_none_or(|pc| pc.color != p.side_to_move())
                {
                    continue;
                }
                for to in Square::all() {
                    for promote in [false, true] {
                        let mv = Move::Normal { from, to, promote };
                        let mut a = p.clone();
                        let got = a.play_checked(mv);
                        let mut b = p.clone();
                        let want = b.play_unchecked(mv).map(|pl| (pl, p.check(mv)));
                        assert_eq!(got, want, "{} {}", p.to_sfen(), mv.usi());
                        if got.is_some() {
                            assert_eq!(a, b);
                        }
                        illegal_seen += usize::from(matches!(got, Some((_, Err(_)))));
                    }
                }
            }
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(next() % moves.len() as u64) as usize];
            p.play(m).unwrap();
        }
    }
    assert!(illegal_seen > 1000);
}

#[test]
fn pawn_drops_are_legal_when_the_opponent_merely_has_no_move() {
    // White's king on 1a cannot move, but a pawn drop on 5e gives no check: it is legal, and
    // so is every other pawn drop that is not 二歩 or on the last rank.
    let p = pos("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    assert_eq!(p.check(mv("P*5e")), Ok(()));
    assert!(p.legal_moves().contains(&mv("P*5e")));
    assert!(p.drop_destinations(PieceKind::Pawn).contains(&sq(5, 5)));
    assert!(!p.drop_destinations(PieceKind::Pawn).contains(&sq(5, 1)));
    // A pawn drop that mates is still refused everywhere.
    let p = pos("kn7/1p7/9/1N7/9/9/9/9/4K4 b P 1");
    assert!(!p.legal_moves().contains(&mv("P*9b")));
    assert!(!p.drop_destinations(PieceKind::Pawn).contains(&sq(9, 2)));
}

/// Seeded xorshift, so that every run tests the same positions.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn square(&mut self) -> Square {
        sq(1 + self.below(9) as u8, 1 + self.below(9) as u8)
    }
    fn color(&mut self) -> Color {
        [Color::Black, Color::White][self.below(2)]
    }
}

// The rules crates as the reference: kifview's rules were these crates' until it got its own
// board, and must still give the same answers, save for the documented differences.

fn sc_color(c: Color) -> sc::Color {
    match c {
        Color::Black => sc::Color::Black,
        Color::White => sc::Color::White,
    }
}
fn sc_kind(k: PieceKind) -> sc::PieceKind {
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
fn sc_square(s: Square) -> sc::Square {
    sc::Square::new(s.file(), s.rank()).unwrap()
}
fn sc_piece(p: Piece) -> sc::Piece {
    sc::Piece::new(sc_kind(p.kind), sc_color(p.color))
}
fn sc_move(m: Move, side: Color) -> sc::Move {
    match m {
        Move::Normal { from, to, promote } => sc::Move::Normal {
            from: sc_square(from),
            to: sc_square(to),
            promote,
        },
        Move::Drop { kind, to } => sc::Move::Drop {
            piece: sc::Piece::new(sc_kind(kind), sc_color(side)),
            to: sc_square(to),
        },
    }
}
fn from_sc_move(m: sc::Move) -> Move {
    let square = |s: sc::Square| sq(s.file(), s.rank());
    match m {
        sc::Move::Normal { from, to, promote } => Move::Normal {
            from: square(from),
            to: square(to),
            promote,
        },
        sc::Move::Drop { piece, to } => Move::Drop {
            kind: *PieceKind::ALL
                .iter()
                .find(|&&k| sc_kind(k) == piece.piece_kind())
                .unwrap(),
            to: square(to),
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

/// `p` as the crate's position; the kings go on last so that it looks at the same ones.
fn to_sc(p: &Position) -> sc::PartialPosition {
    let mut s = sc::PartialPosition::empty();
    for at in Square::all() {
        s.piece_set(sc_square(at), p.piece_at(at).map(sc_piece));
    }
    for color in [Color::Black, Color::White] {
        if let Some(k) = p.king_square(color) {
            s.piece_set(sc_square(k), p.piece_at(k).map(sc_piece));
        }
        let hand = s.hand_of_a_player_mut(sc_color(color));
        for kind in PieceKind::HAND {
            for _ in 0..p.hand_count(color, kind) {
                *hand = hand.added(sc_kind(kind)).unwrap();
            }
        }
    }
    s.side_to_move_set(sc_color(p.side_to_move()));
    assert!(s.ply_set(p.move_number()));
    s
}

/// What `Position::check` said when it asked the crate (`s` is `p` as the crate's position):
/// our own first checks, which name the reason, then the crate's verdict. Pawn drops follow
/// our own rule: the crate calls a pawn drop 打ち歩詰め whenever the opponent is left without a
/// move or without a king, checking or not, and before looking at one's own king.
fn reference_check(p: &Position, s: &sc::PartialPosition, mv: Move) -> Result<(), Illegal> {
    let side = p.side_to_move();
    match mv {
        Move::Normal { from, to, promote } => {
            let piece = p.piece_at(from).ok_or(Illegal::NoPiece)?;
            if piece.color != side {
                return Err(Illegal::NotYourPiece);
            }
            if p.piece_at(to).is_some_and(|t| t.color == side) {
                return Err(Illegal::OwnPieceOnTarget);
            }
            if promote
                && (!piece.kind.can_promote()
                    || !(from.in_promotion_zone(side) || to.in_promotion_zone(side)))
            {
                return Err(Illegal::CannotPromote);
            }
        }
        Move::Drop { kind, to } => {
            if !kind.is_hand_kind() || p.hand_count(side, kind) == 0 {
                return Err(Illegal::NotInHand);
            }
            if p.piece_at(to).is_some() {
                return Err(Illegal::DropOnOccupied);
            }
        }
    }
    let verdict = lite::is_legal_partial(s, sc_move(mv, side)).map_err(map_illegal);
    match mv {
        Move::Drop {
            kind: PieceKind::Pawn,
            to,
        } if verdict == Err(Illegal::DropPawnMate) => {
            let mut after = s.clone();
            after.make_move(sc_move(mv, side)).unwrap();
            let front = Square::new(to.file(), (to.rank() as i8 + forward(side)) as u8);
            if lite::prelegality::will_king_be_captured(&after) == Some(true) {
                Err(Illegal::IgnoredCheck)
            } else if front.is_some() && p.king_square(side.flip()) == front {
                Err(Illegal::DropPawnMate)
            } else {
                Ok(())
            }
        }
        _ => verdict,
    }
}

fn forward(c: Color) -> i8 {
    match c {
        Color::Black => -1,
        Color::White => 1,
    }
}

/// The crate's `will_king_be_captured` for `attacker` in `p`, except that a pawn of
/// `attacker` on its last rank (left there by a move played although illegal) counts as the
/// defender's: the crate lets such a pawn take towards the far end of the next file (see
/// `a_pawn_on_its_last_rank_cannot_move`); as the defender's it blocks the same lines.
fn crate_king_capturable(p: &Position, attacker: Color) -> Option<bool> {
    let mut s = to_sc(p);
    for at in Square::all() {
        if p.piece_at(at) == Some(Piece::new(PieceKind::Pawn, attacker))
            && Square::new(at.file(), (at.rank() as i8 + forward(attacker)) as u8).is_none()
        {
            let defenders = Piece::new(PieceKind::Pawn, attacker.flip());
            s.piece_set(sc_square(at), Some(sc_piece(defenders)));
        }
    }
    s.side_to_move_set(sc_color(attacker));
    lite::prelegality::will_king_be_captured(&s)
}

/// `Position::legal_moves` as it was: the crate's list without its pawn drops, then the pawn
/// drops our rule allows.
fn reference_legal_moves(p: &Position, s: &sc::PartialPosition) -> Vec<Move> {
    let mut v: Vec<Move> = lite::all_legal_moves_partial(s)
        .into_iter()
        .map(from_sc_move)
        .filter(|&m| {
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
        Square::all()
            .map(|to| Move::Drop {
                kind: PieceKind::Pawn,
                to,
            })
            .filter(|&m| reference_check(p, s, m).is_ok()),
    );
    v
}

/// Starts for random games: the start position, pawn-drop mates in the making, a tsume diagram
/// without a Black king, a middle game.
const STARTS: [&str; 5] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "8k/9/6NG1/9/9/9/9/9/K8 b P 1",
    "7l1/7pk/7n1/8R/7N1/9/9/9/9 w r2b4g4s2n3l17p 1",
    "3gkg3/9/4p4/9/9/9/9/9/9 b RBG2SP 1",
    "ln1g3nl/1r3kg2/p1sppsbpp/2p2pp2/1p7/2P1P1P2/PPSP1P1PP/1BG1GS1R1/LN2K2NL b - 1",
];

/// The positions along a random game from `start` (moves picked from `legal_moves`).
fn game_positions(start: &str, plies: usize, rng: &mut Rng) -> Vec<Position> {
    let mut p = pos(start);
    let mut out = vec![p.clone()];
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.play(moves[rng.below(moves.len())]).unwrap();
        out.push(p.clone());
    }
    out
}

/// A random board: up to 30 pieces of any kind but king, of either colour, anywhere (knights
/// and lances on their last ranks too, not pawns: see `a_pawn_on_its_last_rank_cannot_move`),
/// a king of each colour (one time in eight none), pieces in hand and either side to move.
/// Many such boards have checks, pins and kings in reach.
fn random_board(rng: &mut Rng) -> Position {
    let mut p = Position::empty();
    for _ in 0..1 + rng.below(30) {
        let (kind, color, at) = (
            PieceKind::ALL[rng.below(PieceKind::ALL.len())],
            rng.color(),
            rng.square(),
        );
        let last_rank = Square::new(at.file(), (at.rank() as i8 + forward(color)) as u8).is_none();
        if kind != PieceKind::King && !(kind == PieceKind::Pawn && last_rank) {
            p.set_piece(at, Some(Piece::new(kind, color)));
        }
    }
    for color in [Color::Black, Color::White] {
        if rng.below(8) != 0 {
            p.set_piece(rng.square(), Some(Piece::new(PieceKind::King, color)));
        }
        for kind in PieceKind::HAND {
            if rng.below(3) == 0 {
                p.set_hand_count(color, kind, 1 + rng.below(2) as u8);
            }
        }
    }
    p.set_side_to_move(rng.color());
    p.set_move_number(1 + rng.below(300) as u16);
    p
}

/// Every conceivable move in many positions, against the rules crates: every normal move from
/// every square to every square with and without promotion, and every drop of every kind on
/// every square. `check` and `play_checked` give the reference verdict, `play_unchecked` (in
/// `play_checked`) the crate's position or refuses when it does, and `legal_moves` the
/// reference list, in its order.
#[test]
fn rules_agree_with_the_crate() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut positions: Vec<Position> = (0..150).map(|_| random_board(&mut rng)).collect();
    for start in STARTS {
        let game = game_positions(start, 120, &mut rng);
        positions.extend(game.into_iter().step_by(5));
    }
    let mut verdicts = std::collections::HashMap::new();
    let (mut moves, mut played, mut in_check) = (0, 0, 0);
    for p in &positions {
        let s = to_sc(p);
        let side = p.side_to_move();
        assert_eq!(Position::from_sfen(&p.to_sfen()).as_ref(), Ok(p));
        in_check += usize::from(p.in_check());
        let normal = Square::all().flat_map(|from| {
            Square::all()
                .flat_map(move |to| [false, true].map(|promote| Move::Normal { from, to, promote }))
        });
        let drops = PieceKind::ALL
            .into_iter()
            .flat_map(|kind| Square::all().map(move |to| Move::Drop { kind, to }));
        for mv in normal.chain(drops) {
            let want = reference_check(p, &s, mv);
            assert_eq!(p.check(mv), want, "{} {mv}", p.to_sfen());
            let mut ours = p.clone();
            let got = ours.play_checked(mv);
            let mut theirs = s.clone();
            if theirs.make_move(sc_move(mv, side)).is_none() {
                assert_eq!(got, None, "{} {mv}", p.to_sfen());
                assert_eq!(&ours, p);
            } else {
                let piece = match mv {
                    Move::Normal { from, .. } => p.piece_at(from).unwrap().kind,
                    Move::Drop { kind, .. } => kind,
                };
                let captured = mv.from().and(p.piece_at(mv.to())).map(|c| c.kind);
                assert_eq!(
                    got,
                    Some((Played { piece, captured }, want)),
                    "{} {mv}",
                    p.to_sfen()
                );
                assert_eq!(
                    ours.to_sfen(),
                    theirs.to_sfen_owned(),
                    "{} {mv}",
                    p.to_sfen()
                );
                for color in [Color::Black, Color::White] {
                    assert_eq!(
                        ours.king_square(color).map(sc_square),
                        theirs.king_position(sc_color(color)),
                        "{} {mv}",
                        p.to_sfen()
                    );
                    // Both kings' safety, as kept up to date move by move.
                    let mut q = ours.clone();
                    q.set_side_to_move(color);
                    let attacked = crate_king_capturable(&ours, color.flip());
                    assert_eq!(q.in_check(), attacked == Some(true), "{} {mv}", p.to_sfen());
                }
                played += 1;
            }
            *verdicts.entry(want).or_insert(0) += 1;
            moves += 1;
        }
        assert_eq!(
            p.legal_moves(),
            reference_legal_moves(p, &s),
            "{}",
            p.to_sfen()
        );
    }
    eprintln!(
        "{} positions ({in_check} in check), {moves} moves, {played} played: {verdicts:?}",
        positions.len()
    );
    // Every verdict is reached, most of them often.
    assert_eq!(verdicts.len(), 13, "{verdicts:?}");
    assert!(verdicts[&Ok(())] > 10_000 && verdicts[&Err(Illegal::IgnoredCheck)] > 1_000);
    assert!(in_check > 50, "{in_check}");
}

/// Pawn drops of random games against the reference, which has the crate search for 打ち歩詰め:
/// the positions where it matters come up in play, hardly on random boards.
#[test]
fn pawn_drops_agree_with_the_crate() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut compared, mut pawn_mates) = (0, 0);
    for start in STARTS {
        for _game in 0..6 {
            for p in game_positions(start, 80, &mut rng) {
                let s = to_sc(&p);
                for to in Square::all() {
                    let mv = Move::Drop {
                        kind: PieceKind::Pawn,
                        to,
                    };
                    let ours = p.check(mv);
                    assert_eq!(ours, reference_check(&p, &s, mv), "{} {mv}", p.to_sfen());
                    pawn_mates += usize::from(ours == Err(Illegal::DropPawnMate));
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 50_000, "{compared}");
    assert!(pawn_mates > 0, "no 打ち歩詰め case was exercised");
}

/// `king_capturable` against the crate's `will_king_be_captured` on random boards and on the
/// positions of random games, where kings are usually shielded.
#[test]
fn king_capture_test_agrees_with_the_crate() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut positions: Vec<Position> = (0..20_000).map(|_| random_board(&mut rng)).collect();
    for start in STARTS {
        for _game in 0..6 {
            positions.extend(game_positions(start, 150, &mut rng));
        }
    }
    let (mut capturable, mut safe) = (0, 0);
    for mut p in positions {
        for side in [Color::Black, Color::White] {
            p.set_side_to_move(side);
            let want = lite::prelegality::will_king_be_captured(&to_sc(&p));
            assert_eq!(p.king_capturable(side), want, "{}", p.to_sfen());
            p.set_side_to_move(side.flip());
            assert_eq!(p.in_check(), want == Some(true), "{}", p.to_sfen());
            capturable += usize::from(want == Some(true));
            safe += usize::from(want == Some(false));
        }
    }
    assert!(capturable > 5_000 && safe > 5_000, "{capturable} {safe}");
}

/// The king squares follow kings put, moved over and taken away as they did when shogi_core
/// held the board (it remembers where a king was put, never that one left; the wrapper then
/// rebuilt the position without it).
#[test]
fn king_squares_follow_set_piece() {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    for _ in 0..300 {
        let mut p = Position::empty();
        let mut s = sc::PartialPosition::empty();
        for _ in 0..40 {
            let at = rng.square();
            let piece = match rng.below(4) {
                0 => None,
                1 => Some(Piece::new(PieceKind::Gold, rng.color())),
                _ => Some(Piece::new(PieceKind::King, rng.color())),
            };
            p.set_piece(at, piece);
            let old = s.piece_at(sc_square(at));
            if old.is_some_and(|o| o.piece_kind() == sc::PieceKind::King)
                && old != piece.map(sc_piece)
            {
                let mut fresh = sc::PartialPosition::empty();
                for x in Square::all().filter(|&x| x != at) {
                    fresh.piece_set(sc_square(x), s.piece_at(sc_square(x)));
                }
                s = fresh;
            }
            s.piece_set(sc_square(at), piece.map(sc_piece));
            for color in [Color::Black, Color::White] {
                assert_eq!(
                    p.king_square(color).map(sc_square),
                    s.king_position(sc_color(color))
                );
            }
        }
    }
}

/// A pawn on its last rank (only in a hand-made diagram) cannot move, so it attacks nothing.
/// shogi_legality_lite lets it step to the far end of the next file (its square index ± 1).
#[test]
fn a_pawn_on_its_last_rank_cannot_move() {
    let p = pos("4P4/9/9/9/9/9/9/9/K8 b - 1");
    assert_eq!(p.check(mv("5a4i")), Err(Illegal::CannotReach));
    assert!(p.destinations_from(sq(5, 1)).is_empty());
    let theirs = lite::normal_from_candidates(&to_sc(&p), sc_square(sq(5, 1)));
    assert_eq!(theirs, sc::Bitboard::single(sc_square(sq(4, 9))));
    // The crate looks for attackers only when a piece of the attacker stands next to the king.
    let p = pos("4P4/9/9/9/9/9/9/5L3/5k3 w - 1");
    assert!(!p.in_check());
    let mut s = to_sc(&p);
    s.side_to_move_set(sc::Color::Black);
    assert_eq!(lite::prelegality::will_king_be_captured(&s), Some(true));
}

/// The kings' safety `play_unchecked` carries from move to move (see `position/safety.rs`)
/// stays what a full look says, through long runs of any moves that can be played, legal or
/// not: checks given and answered, kings walking into attack, kings left attacked for many
/// moves, discovered attacks, from random boards and from the start. The reference is the
/// rules crate's own king-capture test.
#[test]
fn remembered_king_safety_follows_any_moves() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut checks, mut left_attacked, mut moves) = (0, 0, 0);
    for game in 0..400 {
        let mut p = if game % 4 == 0 {
            Position::startpos()
        } else {
            random_board(&mut rng)
        };
        for _ in 0..400 {
            // A random move the board allows: a piece of the side to move, or a drop.
            let own: Vec<Square> = Square::all()
                .filter(|&s| p.piece_at(s).is_some_and(|x| x.color == p.side_to_move()))
                .collect();
            let candidate = if own.is_empty() || rng.below(4) == 0 {
                Move::Drop {
                    kind: PieceKind::HAND[rng.below(PieceKind::HAND.len())],
                    to: rng.square(),
                }
            } else {
                Move::Normal {
                    from: own[rng.below(own.len())],
                    to: rng.square(),
                    promote: rng.below(3) == 0,
                }
            };
            // Mostly moves the rules allow (so games go on), sometimes any.
            if rng.below(3) != 0 && p.check(candidate).is_err() {
                continue;
            }
            let verdict = match p.play_checked(candidate) {
                Some((_, verdict)) => verdict,
                None => continue,
            };
            moves += 1;
            let side = p.side_to_move();
            let mover_attacked = crate_king_capturable(&p, side) == Some(true);
            let to_move_attacked = crate_king_capturable(&p, side.flip()) == Some(true);
            assert_eq!(p.in_check(), to_move_attacked, "{}", p.to_sfen());
            if mover_attacked {
                assert!(verdict.is_err(), "{} left its king attacked", p.to_sfen());
            }
            checks += usize::from(to_move_attacked);
            left_attacked += usize::from(mover_attacked);
        }
    }
    assert!(
        moves > 10_000 && checks > 500 && left_attacked > 500,
        "{moves} moves, {checks} checks, {left_attacked} kings left attacked"
    );
}

/// `attackers` (what a KI2 reader asks of every move) names every square holding the piece
/// that reaches the target by its way of moving, in board order, on many random boards.
#[test]
fn attackers_are_the_squares_of_the_piece_that_reach_the_target() {
    let mut rng = Rng(0x5eed_f00d_a77a_c4e5);
    let mut found = 0;
    for _ in 0..300 {
        let p = random_board(&mut rng);
        for to in Square::all() {
            for kind in PieceKind::ALL {
                for color in [Color::Black, Color::White] {
                    let piece = Piece::new(kind, color);
                    let own_target = p.piece_at(to).is_some_and(|t| t.color == color);
                    let expected: Vec<Square> = Square::all()
                        .filter(|&s| {
                            !own_target && p.piece_at(s) == Some(piece) && p.reaches(piece, s, to)
                        })
                        .collect();
                    assert_eq!(p.attackers(to, piece).as_slice(), expected.as_slice());
                    found += expected.len();
                }
            }
        }
    }
    assert!(found > 10_000, "{found} attackers");
}
