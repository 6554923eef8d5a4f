//! Legal squares on the board (issue 21): a piece picked with the cursor or a click, or a
//! piece in hand, marks exactly the squares the rules allow, with a marker that needs no
//! colour (`＊` on an empty square, `*歩` on a piece that can be taken).

use crate::common::{press, screen, screen_rows};
use kifview::app::testing::app_with;
use kifview::app::{Action, Mode, update};
use kifview::core::notation::japanese::KANJI_DIGITS;
use kifview::core::rules::Square;
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;

fn viewer(sfen: &str) -> Viewer {
    Viewer::new(app_with(sfen), Theme::plain())
}

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank).unwrap()
}

/// The squares marked for the picked piece.
fn targets(v: &Viewer) -> Vec<Square> {
    let mut t = v.app.board_marks().expect("move input").targets.to_vec();
    t.sort_by_key(|s| (s.file(), s.rank()));
    t
}

/// What the square shows on the BOD board at 80x24 (colours off): two characters, the lead
/// cell and the piece (`v歩`, ` ・`, ` ＊`, `*歩`).
fn square_text(v: &mut Viewer, file: u8, rank: u8) -> String {
    let rows = screen_rows(&screen(v, 80, 24));
    let end = format!("|{}", KANJI_DIGITS[rank as usize]);
    let row = rows
        .iter()
        .find(|r| r.contains(&end))
        .unwrap_or_else(|| panic!("no board row {rank}:\n{}", rows.join("\n")));
    let cells: Vec<char> = row.chars().skip_while(|&c| c != '|').skip(1).collect();
    let col = 9 - file as usize;
    cells[2 * col..2 * col + 2].iter().collect()
}

#[test]
fn a_pinned_piece_marks_only_the_squares_along_its_pin() {
    // Gote's rook on ５一 pins sente's gold on ５八 to the king on ５九.
    let mut v = viewer("sfen 4r3k/9/9/9/9/9/9/4G4/4K4 b - 1");
    update(&mut v.app, Action::BoardClick(sq(5, 8)));
    assert_eq!(v.app.mode(), Mode::Board);
    assert_eq!(targets(&v), [sq(5, 7)]);
    assert_eq!(square_text(&mut v, 5, 7), " ＊");
    assert_eq!(square_text(&mut v, 4, 7), " ・");
    assert_eq!(square_text(&mut v, 6, 8), " ・");
}

#[test]
fn a_piece_that_can_be_taken_is_marked_without_colours() {
    // Sente's rook on ５五 can take the pawn on ５三 and go no further up the file.
    let mut v = viewer("sfen 4k4/9/4p4/9/4R4/9/9/9/K8 b - 1");
    assert_eq!(square_text(&mut v, 5, 3), "v歩");
    update(&mut v.app, Action::BoardClick(sq(5, 5)));
    let t = targets(&v);
    assert!(t.contains(&sq(5, 3)) && t.contains(&sq(5, 4)), "{t:?}");
    assert!(!t.contains(&sq(5, 2)), "{t:?}");
    assert_eq!(square_text(&mut v, 5, 3), "*歩");
    assert_eq!(square_text(&mut v, 5, 4), " ＊");
    assert_eq!(square_text(&mut v, 5, 2), " ・");
    // Put back (Esc): the marks go.
    press(&mut v, "⎋");
    assert_eq!(square_text(&mut v, 5, 3), "v歩");
}

#[test]
fn drops_leave_out_nifu_uchifuzume_and_dead_squares() {
    // Gote's king on １一 is held by sente's knight (３三) and gold (２三): a pawn dropped on
    // １二 would mate (打ち歩詰め). Sente already has a pawn on file 9 (二歩).
    let mut v = viewer("sfen 8k/9/6NG1/9/9/9/9/P8/4K4 b NP 1");
    press(&mut v, "iP");
    let t = targets(&v);
    assert!(!t.is_empty());
    assert!(!t.contains(&sq(1, 2)), "打ち歩詰め: {t:?}");
    assert!(t.contains(&sq(1, 3)), "{t:?}");
    assert!(t.iter().all(|s| s.file() != 9), "二歩: {t:?}");
    assert!(
        t.iter().all(|s| s.rank() != 1),
        "a pawn on rank 1 never moves: {t:?}"
    );
    assert_eq!(square_text(&mut v, 1, 2), " ・");
    assert_eq!(square_text(&mut v, 1, 3), " ＊");
    assert_eq!(square_text(&mut v, 9, 5), " ・");
    // A knight: never on the last two ranks.
    press(&mut v, "⎋N");
    let t = targets(&v);
    assert!(t.iter().all(|s| s.rank() >= 3), "{t:?}");
    assert!(t.contains(&sq(5, 3)), "{t:?}");
    assert_eq!(square_text(&mut v, 5, 2), " ・");
    assert_eq!(square_text(&mut v, 5, 3), " ＊");
}
