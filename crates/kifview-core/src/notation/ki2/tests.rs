//! Tests of KI2 move notation and endings.

use super::moves::*;
use super::read::{read_end_of_game, strip_made};
use crate::record::Special;
use crate::rules::{Position, Square};

fn sq(f: u8, r: u8) -> Square {
    Square::new(f, r).unwrap()
}

#[test]
fn renders_and_reads_simple_moves() {
    let pos = Position::startpos();
    let t = parse_token(&pos, "７六歩", None).unwrap();
    let Token::Move(md) = t else { panic!() };
    assert_eq!(md.mv.usi(), "7g7f");
    assert_eq!(move_text(&pos, &md, None), "▲７六歩");
    // Two golds can reach 5h.
    let Token::Move(md) = parse_token(&pos, "５八金右", None).unwrap() else {
        panic!()
    };
    assert_eq!(md.mv.usi(), "4i5h");
    assert_eq!(move_text(&pos, &md, None), "▲５八金右");
    assert!(parse_token(&pos, "５八金", None).is_err());
    let Token::Move(md) = parse_token(&pos, "78金", None).unwrap() else {
        panic!()
    };
    assert_eq!(md.mv.from(), Some(sq(6, 9)));
}

#[test]
fn made_lines() {
    for (l, s) in [
        ("まで81手で後手の勝ち", Special::Resign),
        ("まで3手で中断", Special::Interrupt),
        ("まで3手で時間切れにより先手の勝ち", Special::Timeout),
        ("まで3手で後手の反則勝ち", Special::FoulWin),
        ("まで2手で先手の反則負け", Special::FoulLose),
        ("まで3手で先手の入玉勝ち", Special::EnteringKing),
        ("まで3手で千日手", Special::RepetitionDraw),
        ("まで3手で持将棋", Special::Impass),
        ("まで3手で詰", Special::Mate),
        ("まで3手で詰み", Special::Mate),
        ("まで3手で不詰", Special::NoMate),
        // The tsume convention (the last move mates), as json-kifu-format reads it.
        ("まで61手詰", Special::Mate),
        ("まで６１手詰", Special::Mate),
        ("まで3手で不戦勝", Special::WinByDefault),
        ("まで3手で不戦敗", Special::LossByDefault),
    ] {
        assert_eq!(read_end_of_game(strip_made(l).unwrap()), s, "{l}");
    }
}
