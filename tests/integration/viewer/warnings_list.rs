//! The problem list (`W`, issue 21): a warning is selected, and Enter goes to the move it
//! names.

use kifview::app::{App, Config, LaunchOptions, Mode};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;

use crate::common::{press, screen, screen_rows};

fn viewer_on_text(text: &str) -> (tempfile::TempDir, Viewer) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.kifu");
    std::fs::write(&file, text).unwrap();
    let opts = LaunchOptions {
        file: Some(file),
        ..Default::default()
    };
    let app = App::open(&opts, Config::defaults()).unwrap();
    (dir, Viewer::new(app, Theme::plain()))
}

#[test]
fn enter_in_the_problem_list_goes_to_the_move_it_names() {
    // Move 3 drops a rook nobody holds: the reader stops there, and the warning names the
    // last move it read (move 2).
    let (_dir, mut v) = viewer_on_text(
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ９九飛打\n   4 ８四歩(83)\n",
    );
    assert_eq!(v.app.cur_index(), 0);
    press(&mut v, "W");
    assert_eq!(v.app.mode(), Mode::Warnings);
    let s = screen_rows(&screen(&mut v, 100, 30)).join("\n");
    assert!(
        s.contains("> bad.kifu:4:"),
        "the first problem is selected: {s}"
    );
    assert!(s.contains("Enter: go to the move"), "{s}");
    press(&mut v, "⏎");
    assert_eq!(v.app.mode(), Mode::Normal, "the list closed");
    assert_eq!(v.app.cur_index(), 2, "on the move the warning names");
}

#[test]
fn a_problem_that_names_no_move_says_so_and_the_list_stays() {
    let (_dir, mut v) = viewer_on_text("");
    press(&mut v, "W");
    assert_eq!(v.app.mode(), Mode::Warnings);
    press(&mut v, "⏎");
    assert_eq!(v.app.mode(), Mode::Warnings);
    let said = v.app.message().map(|m| m.text.clone()).unwrap_or_default();
    assert!(said.contains("names no move"), "{said}");
}
