use super::position::king_capturable;
use super::*;

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
    assert_eq!(
        pos("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -").to_sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
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

/// The pawn-drop fast path in `Position::check` against the rules crate's full search, over
/// random games from several starts. The crate also calls a drop 打ち歩詰め when it gives no
/// check but leaves the opponent without a legal move (or without a king): there the right
/// answer is the own-king-safety verdict alone.
#[test]
fn pawn_drop_fast_path_agrees_with_the_crate() {
    let starts = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "8k/9/6NG1/9/9/9/9/9/K8 b P 1",
        "7l1/7pk/7n1/8R/7N1/9/9/9/9 w r2b4g4s2n3l17p 1",
        "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1",
        "ln1g3nl/1r3kg2/p1sppsbpp/2p2pp2/1p7/2P1P1P2/PPSP1P1PP/1BG1GS1R1/LN2K2NL b - 1",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut compared, mut pawn_mates) = (0, 0);
    for sfen in starts {
        for _game in 0..6 {
            let mut p = pos(sfen);
            for _ply in 0..80 {
                let side = p.side_to_move();
                if p.hand_count(side, PieceKind::Pawn) > 0 {
                    for to in Square::all().filter(|&s| p.piece_at(s).is_none()) {
                        let mv = Move::Drop {
                            kind: PieceKind::Pawn,
                            to,
                        };
                        let ours = p.check(mv);
                        let theirs = p.check_pawn_drop_by_crate(to);
                        let mut after = p.clone();
                        after.play_unchecked(mv).unwrap();
                        let gives_check = after.in_check();
                        if theirs == Err(Illegal::DropPawnMate) && !gives_check {
                            let mut own = after.clone();
                            own.set_side_to_move(side);
                            let want = if own.in_check() {
                                Err(Illegal::IgnoredCheck)
                            } else {
                                Ok(())
                            };
                            assert_eq!(ours, want, "{} {}", p.to_sfen(), mv.usi());
                        } else {
                            assert_eq!(ours, theirs, "{} {}", p.to_sfen(), mv.usi());
                        }
                        pawn_mates += usize::from(ours == Err(Illegal::DropPawnMate));
                        compared += 1;
                    }
                }
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                p.play_unchecked(m).unwrap();
            }
        }
    }
    assert!(compared > 5_000, "{compared}");
    assert!(pawn_mates > 0, "no 打ち歩詰め case was exercised");
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

/// `king_capturable` against the rules crate's `will_king_be_captured` on random boards:
/// any pieces (promoted or not, of either colour) anywhere, one king, both kings or none,
/// either side to move, and on the positions of random games.
#[test]
fn king_capture_test_agrees_with_the_crate() {
    use shogi_core as sc;
    use shogi_legality_lite as lite;
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let kinds = [
        sc::PieceKind::Pawn,
        sc::PieceKind::Lance,
        sc::PieceKind::Knight,
        sc::PieceKind::Silver,
        sc::PieceKind::Gold,
        sc::PieceKind::Bishop,
        sc::PieceKind::Rook,
        sc::PieceKind::ProPawn,
        sc::PieceKind::ProLance,
        sc::PieceKind::ProKnight,
        sc::PieceKind::ProSilver,
        sc::PieceKind::ProBishop,
        sc::PieceKind::ProRook,
    ];
    let (mut captured, mut safe) = (0, 0);
    for _ in 0..20_000 {
        let mut p = sc::PartialPosition::empty();
        let n = 1 + next() % 24;
        for _ in 0..n {
            let s = sc::Square::new(1 + (next() % 9) as u8, 1 + (next() % 9) as u8).unwrap();
            let color = if next() % 2 == 0 {
                sc::Color::Black
            } else {
                sc::Color::White
            };
            let kind = kinds[(next() % kinds.len() as u64) as usize];
            p.piece_set(s, Some(sc::Piece::new(kind, color)));
        }
        for color in [sc::Color::Black, sc::Color::White] {
            if next() % 8 != 0 {
                let s = sc::Square::new(1 + (next() % 9) as u8, 1 + (next() % 9) as u8).unwrap();
                p.piece_set(s, Some(sc::Piece::new(sc::PieceKind::King, color)));
            }
        }
        for side in [sc::Color::Black, sc::Color::White] {
            p.side_to_move_set(side);
            let want = lite::prelegality::will_king_be_captured(&p);
            assert_eq!(king_capturable(&p), want, "{:?}", p.to_sfen_owned());
            captured += usize::from(want == Some(true));
            safe += usize::from(want == Some(false));
        }
    }
    assert!(captured > 5_000 && safe > 5_000, "{captured} {safe}");
    // Positions of random games, where kings are usually shielded.
    for _game in 0..30 {
        let mut p = Position::startpos();
        for _ply in 0..150 {
            for side in [Color::Black, Color::White] {
                let mut q = p.clone();
                q.set_side_to_move(side);
                let want = lite::prelegality::will_king_be_captured(q.raw());
                assert_eq!(king_capturable(q.raw()), want, "{}", q.to_sfen());
            }
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(next() % moves.len() as u64) as usize];
            p.play(m).unwrap();
        }
    }
}
