//! The variation tree (`t`, issue 21): a tree of branches drawn with lines, the cursor's
//! branch marked, moving through it moves the board, branches fold, each row says how many
//! moves it has; the board stays beside it.

use kifview::app::testing::push_line;
use kifview::app::{App, Config, Mode, RecordSource};
use kifview::core::record::{NodeId, Record};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;

use crate::common::{press, screen, screen_rows};

/// Main line of 8 moves; at move 1 also 2g2f (2 moves), at move 3 also 2g2f (3 moves) with
/// its own branch at its second move (1 move), at move 5 also 4i5h (1 move).
fn study() -> (Record, [NodeId; 4]) {
    let mut r = Record::default();
    push_line(
        &mut r,
        NodeId::ROOT,
        "7g7f 3c3d 8h2b+ 3a2b 2g2f 8c8d 2f2e 8d8e",
    );
    let main = r.main_line();
    let a = push_line(&mut r, NodeId::ROOT, "2g2f");
    push_line(&mut r, a, "3c3d");
    let b = push_line(&mut r, main[2], "2g2f");
    let b2 = push_line(&mut r, b, "8c8d");
    push_line(&mut r, b2, "2f2e");
    let c = push_line(&mut r, b, "4a3b");
    let d = push_line(&mut r, main[4], "4i5h");
    (r, [a, b, c, d])
}

fn viewer(r: Record) -> Viewer {
    Viewer::new(
        App::new(r, RecordSource::untitled("study.kif"), Config::defaults()),
        Theme::plain(),
    )
}

fn tree_rows(v: &mut Viewer, w: u16, h: u16) -> String {
    screen_rows(&screen(v, w, h)).join("\n")
}

#[test]
fn the_tree_draws_branches_with_lines_counts_and_the_cursor() {
    let (r, _) = study();
    let mut v = viewer(r);
    press(&mut v, "lll");
    press(&mut v, "t");
    assert_eq!(v.app.mode(), Mode::Tree);
    let s = tree_rows(&mut v, 120, 40);
    for want in [
        "* 本譜  (8手)  [-]  at 3手目 ▲２二角成(88)",
        "  ├─ 1手目 ▲２六歩(27)  (2手)",
        "  ├─ 3手目 ▲２六歩(27)  (3手)  [-]",
        "  │  └─ 4手目 △３二金(41)  (1手)",
        "  └─ 5手目 ▲５八金(49)  (1手)",
    ] {
        assert!(s.contains(want), "{want:?} missing:\n{s}");
    }
    insta::assert_snapshot!("tree_120x40", screen(&mut v, 120, 40).backend());
    insta::assert_snapshot!("tree_80x24", screen(&mut v, 80, 24).backend());
}

#[test]
fn the_board_stays_beside_the_tree_at_120_columns() {
    let (r, _) = study();
    let mut v = viewer(r);
    press(&mut v, "t");
    let s = tree_rows(&mut v, 120, 40);
    // The board's top rank and its file numbers are left of the tree.
    let board_row = s.lines().find(|l| l.contains("香")).unwrap_or("");
    assert!(
        board_row.contains("変化") || s.contains("変化ツリー"),
        "the tree is drawn:\n{s}"
    );
    let tree_col = s
        .lines()
        .find_map(|l| l.find("変化ツリー"))
        .expect("the tree's title");
    assert!(tree_col > 20, "the tree starts right of the board:\n{s}");
    assert!(
        s.lines().any(|l| l.contains("香") && l.contains("│")),
        "the board shows beside the tree:\n{s}"
    );
}

#[test]
fn moving_through_the_tree_moves_the_board_and_enter_stays() {
    let (r, [a, b, c, d]) = study();
    let mut v = viewer(r);
    press(&mut v, "t");
    assert_eq!(v.app.overlays().tree_selected(), Some(0), "the main line");
    press(&mut v, "j");
    assert_eq!(v.app.cur(), a, "the first branch's first move");
    press(&mut v, "l");
    assert_eq!(v.app.record().node(v.app.cur()).parent, Some(a), "along it");
    press(&mut v, "jj");
    assert_eq!(v.app.cur(), c, "into the branch of a branch");
    press(&mut v, "k");
    assert_eq!(v.app.cur(), b);
    press(&mut v, "G");
    assert_eq!(v.app.cur(), d);
    press(&mut v, "⏎");
    assert_eq!(v.app.mode(), Mode::Normal);
    assert_eq!(v.app.cur(), d, "Enter stays where the tree went");
    // Opening again selects the cursor's branch; Esc closes where it stands too.
    press(&mut v, "tk⎋");
    assert_eq!(v.app.cur(), c);
    assert_eq!(v.app.mode(), Mode::Normal);
}

#[test]
fn folding_hides_a_branchs_branches_and_says_how_many() {
    let (r, [_, b, c, _]) = study();
    let mut v = viewer(r);
    press(&mut v, "tjj");
    assert_eq!(v.app.cur(), b);
    press(&mut v, " ");
    let s = tree_rows(&mut v, 120, 40);
    assert!(
        s.contains("3手目 ▲２六歩(27)  (3手)  [+1]"),
        "folded, with what it hides:\n{s}"
    );
    assert!(
        !s.contains("４手目 △３二金"),
        "the hidden row is gone:\n{s}"
    );
    // Down skips the folded branch.
    press(&mut v, "j");
    assert_ne!(v.app.cur(), c);
    assert_eq!(v.app.overlays().tree_selected(), Some(4));
    press(&mut v, "k ");
    press(&mut v, "j");
    assert_eq!(v.app.cur(), c, "unfolded: down goes into it again");
    // On a branch none leaves, the fold key folds the one it leaves.
    press(&mut v, "o");
    assert_eq!(v.app.overlays().tree_selected(), Some(2));
}
