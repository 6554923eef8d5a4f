//! The large board (`board.size`, `z`), how the panes share the screen at 80x24, 160x48 and
//! 200x60, and the comment pane's scroll indicator and growth.

use crate::common::{press, screen, screen_rows};
use kifview::app::config::BoardSize;
use kifview::app::testing::push_line;
use kifview::app::{App, Config, LaunchOptions, RecordSource};
use kifview::core::record::{NodeId, Record};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use ratatui::crossterm::event::{Event, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use std::path::Path;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// `assets/study.kif` at ply `ply`, colours off (as with `NO_COLOR`).
fn study_at(ply: u32, config: Config) -> Viewer {
    let opts = LaunchOptions {
        file: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/study.kif")),
        ..Default::default()
    };
    let mut v = Viewer::new(App::open(&opts, config).unwrap(), Theme::plain());
    for _ in 0..ply {
        press(&mut v, "l");
    }
    v
}

/// Squares' pitch on screen after drawing at `w`x`h`: (3, 1) is the BOD board.
fn cell_at(v: &mut Viewer, w: u16, h: u16) -> (u16, u16) {
    let _ = screen(v, w, h);
    v.view.board_cell
}

#[test]
fn large_board_snapshots_at_160x48_200x60_flipped_and_bod_at_80x24() {
    let mut v = study_at(5, Config::defaults());
    let t = screen(&mut v, 160, 48);
    insta::assert_snapshot!("study_160x48", t.backend());
    let t = screen(&mut v, 200, 60);
    insta::assert_snapshot!("study_200x60", t.backend());
    let t = screen(&mut v, 80, 24);
    insta::assert_snapshot!("study_80x24", t.backend());
    press(&mut v, "f");
    let t = screen(&mut v, 160, 48);
    insta::assert_snapshot!("study_160x48_flipped", t.backend());
    let t = screen(&mut v, 100, 32);
    insta::assert_snapshot!("study_100x32_flipped", t.backend());
}

#[test]
fn auto_picks_the_largest_grid_that_fits_and_z_cycles() {
    let mut v = study_at(5, Config::defaults());
    // The thresholds documented in config.example.toml.
    for ((w, h), cell) in [
        ((80, 24), (3, 1)),
        ((95, 40), (3, 1)),
        ((96, 31), (3, 1)),
        ((96, 32), (4, 2)),
        ((113, 48), (4, 2)),
        ((114, 41), (6, 3)),
        ((160, 48), (6, 3)),
        ((160, 49), (6, 3)),
        ((132, 50), (8, 4)),
        ((200, 60), (8, 4)),
    ] {
        assert_eq!(cell_at(&mut v, w, h), cell, "{w}x{h}");
    }
    // z: auto -> bod -> large -> auto, saying which.
    press(&mut v, "z");
    assert_eq!(v.app.board_size(), BoardSize::Bod);
    assert!(v.app.message().as_ref().unwrap().text.contains("bod"));
    assert_eq!(cell_at(&mut v, 160, 48), (3, 1));
    let t = screen(&mut v, 160, 48);
    assert!(screen_rows(&t)[3].starts_with("+---------------------------+"));
    press(&mut v, "z");
    assert_eq!(v.app.board_size(), BoardSize::Large);
    assert_eq!(cell_at(&mut v, 160, 48), (8, 4));
    // Large takes the grid even where auto would not (the header pane gives way).
    assert_eq!(cell_at(&mut v, 80, 24), (4, 2));
    let t = screen(&mut v, 80, 24);
    let s = screen_rows(&t).join("\n");
    assert!(s.contains("┌───┬───┬"), "{s}");
    assert!(s.contains("手数＝5"), "{s}");
    // ... and the BOD board where even 4x2 does not fit.
    assert_eq!(cell_at(&mut v, 70, 24), (3, 1));
    press(&mut v, "z");
    assert_eq!(v.app.board_size(), BoardSize::Auto);
    assert_eq!(cell_at(&mut v, 80, 24), (3, 1));
}

#[test]
fn board_size_in_the_config() {
    // `large` takes the largest grid that fits beside a narrow move list.
    for (value, cell) in [("bod", (3, 1)), ("large", (8, 4)), ("auto", (6, 3))] {
        let c = Config::from_toml("c.toml", &format!("[board]\nsize = \"{value}\"\n")).unwrap();
        let mut v = study_at(0, c);
        assert_eq!(cell_at(&mut v, 160, 48), cell, "{value}");
    }
    let e = Config::from_toml("c.toml", "\n[board]\nsize = \"huge\"\n").unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.message.contains("board.size") && e.message.contains("\"large\""));
}

fn click(v: &mut Viewer, x: u16, y: u16) {
    v.handle(&Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    }));
}

/// A cell inside square (`file`, `rank`) at offset (`dx`, `dy`) from its top-left cell.
fn square_cell(v: &Viewer, file: u16, rank: u16, dx: u16, dy: u16) -> (u16, u16) {
    let a = v.view.board_squares;
    let (cw, ch) = v.view.board_cell;
    let (c, r) = if v.app.flipped() {
        (file - 1, 9 - rank)
    } else {
        (9 - file, rank - 1)
    };
    (a.x + c * cw + dx, a.y + r * ch + dy)
}

#[test]
fn clicks_on_the_large_board_pick_the_right_squares() {
    for (w, h) in [(100, 32), (160, 48), (200, 60)] {
        for flipped in [false, true] {
            let mut v = study_at(0, Config::defaults());
            kifview::app::testing::run_until(
                &mut v.app,
                kifview::app::Command::FlipBoard,
                2,
                |a| a.flipped() == flipped,
            );
            let _ = screen(&mut v, w, h);
            assert_ne!(v.view.board_cell, (3, 1), "{w}x{h}");
            let (cw, ch) = v.view.board_cell;
            // The piece on 7七 (its top-left cell), then 7六 (its bottom-right cell, next to
            // the lines).
            let (x, y) = square_cell(&v, 7, 7, 0, 0);
            click(&mut v, x, y);
            let _ = screen(&mut v, w, h);
            let (x, y) = square_cell(&v, 7, 6, cw - 2, ch - 2);
            click(&mut v, x, y);
            assert_eq!(
                v.app.step_text(v.app.cur()),
                "▲７六歩(77)",
                "{w}x{h} flipped {flipped}"
            );
            // Gote answers 3三 -> 3四, clicked in the middle of the squares.
            let _ = screen(&mut v, w, h);
            let (x, y) = square_cell(&v, 3, 3, cw / 2, ch / 2);
            click(&mut v, x, y);
            let _ = screen(&mut v, w, h);
            let (x, y) = square_cell(&v, 3, 4, cw / 2, ch / 2);
            click(&mut v, x, y);
            assert_eq!(v.app.step_text(v.app.cur()), "△３四歩(33)", "{w}x{h}");
        }
    }
}

/// Rows of the pane whose top border starts with `┌title` at column `x`: (inner rows, rows
/// with text).
fn pane_rows(rows: &[String], title: &str) -> (usize, usize) {
    let top = rows
        .iter()
        .position(|r| r.contains(&format!("┌{title}")))
        .unwrap_or_else(|| panic!("no {title} in\n{}", rows.join("\n")));
    let byte = rows[top].find(&format!("┌{title}")).unwrap();
    let col = UnicodeWidthStr::width(&rows[top][..byte]);
    // The rest of a row from display column `col` on.
    let from = |r: &str| -> String {
        let mut w = 0;
        r.chars()
            .skip_while(|c| {
                let skip = w < col;
                w += UnicodeWidthChar::width(*c).unwrap_or(0);
                skip
            })
            .collect()
    };
    let mut inner = 0;
    let mut used = 0;
    for r in &rows[top + 1..] {
        let rest = from(r);
        if rest.starts_with('└') {
            break;
        }
        inner += 1;
        let text: String = rest.chars().skip(1).take_while(|&c| c != '│').collect();
        if !text.trim().is_empty() {
            used += 1;
        }
    }
    (inner, used)
}

#[test]
fn panes_share_the_rest_at_160x48_and_200x60() {
    let mut v = study_at(5, Config::defaults());
    for (w, h) in [(160, 48), (200, 60)] {
        let t = screen(&mut v, w, h);
        let rows = screen_rows(&t);
        // The header shows all its fields (study.kif has ten, one wrapped at most) and is
        // left with few empty rows.
        let (inner, used) = pane_rows(&rows, "対局情報");
        assert!(
            used >= 10 && inner - used <= 6,
            "{w}x{h}: {inner} rows, {used} used"
        );
        // The move list keeps most of the height: 40 of the game's 45 lines at least, and
        // empty rows only when it shows them all.
        let (inner, used) = pane_rows(&rows, "棋譜");
        assert!(
            used >= 40 && (used == inner || used == 45),
            "{w}x{h}: {inner}, {used}"
        );
        // The comment column is at least 40 wide.
        let c = v.view.comment_area;
        assert!(c.width >= 40, "{w}x{h}: {c:?}");
    }
}

/// A record whose first move has a comment of 20 lines (40 at 80x24, where each wraps).
fn long_comment() -> Record {
    let mut r = Record::default();
    let end = push_line(&mut r, NodeId::ROOT, "7g7f 3c3d 2g2f");
    let line = r.main_line();
    let long: Vec<String> = (1..=20)
        .map(|i| format!("長いコメントの{i}行目。ここでは角道を開ける手の意味を説明する。"))
        .collect();
    r.node_mut(line[1]).comment = long.join("\n");
    r.node_mut(line[2]).comment = "短いコメント。".into();
    let _ = end;
    r
}

fn viewer(r: Record) -> Viewer {
    Viewer::new(
        App::new(r, RecordSource::untitled("long.kif"), Config::defaults()),
        Theme::plain(),
    )
}

/// The screen row of the comment pane's bottom border (the pane is on the right).
fn comment_bottom(v: &mut Viewer, w: u16, h: u16) -> String {
    let t = screen(v, w, h);
    let a = v.view.comment_area;
    screen_rows(&t)[(a.y + a.height) as usize]
        .trim_end()
        .to_string()
}

#[test]
fn comment_pane_shows_how_much_more_there_is_and_grows() {
    let mut v = viewer(long_comment());
    let base = {
        let _ = screen(&mut v, 80, 24);
        v.view.comment_area.height
    };
    assert_eq!(base, 5);
    let t = screen(&mut v, 80, 24);
    assert!(
        !screen_rows(&t).join("").contains("/40"),
        "no indicator at ply 0"
    );
    press(&mut v, "l");
    let b = comment_bottom(&mut v, 80, 24);
    let grown = v.view.comment_area.height;
    // The pane took rows from the move list (which keeps five moves).
    assert!(grown > base && grown >= 9, "{grown}");
    assert!(v.view.moves_area.height >= 5);
    assert!(b.ends_with(&format!("(1-{grown}/40 ↓)┘")), "{b}");
    // Scrolling the focused comment moves the indicator (wrapped lines count).
    press(&mut v, "⇥⇥");
    press(&mut v, "^e^e^e");
    let b = comment_bottom(&mut v, 80, 24);
    assert!(b.ends_with(&format!("(4-{}/40 ↑↓)┘", grown + 3)), "{b}");
    for _ in 0..50 {
        press(&mut v, "^e");
    }
    let b = comment_bottom(&mut v, 80, 24);
    assert!(b.ends_with(&format!("({}-40/40 ↑)┘", 41 - grown)), "{b}");
    // A move with a short comment: back to the usual size, no indicator.
    press(&mut v, "⇥⇥l");
    let b = comment_bottom(&mut v, 80, 24);
    assert_eq!(v.view.comment_area.height, base);
    assert!(!b.contains('('), "{b}");
    // On a wide screen the comment has a column of its own: all 20 lines fit.
    press(&mut v, "h");
    let _ = screen(&mut v, 160, 48);
    assert!(v.view.comment_area.height >= 20);
    let t = screen(&mut v, 160, 48);
    assert!(!screen_rows(&t).join("").contains("/20"));
}

#[test]
fn comment_pane_grows_in_steps_so_close_lengths_keep_the_layout() {
    // Comments of 8 and 9 lines: the same pane height, so stepping between them does not
    // move the move list.
    let mut r = Record::default();
    push_line(&mut r, NodeId::ROOT, "7g7f 3c3d 2g2f");
    let line = r.main_line();
    let lines = |n: usize| {
        (1..=n)
            .map(|i| format!("{i}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    r.node_mut(line[1]).comment = lines(8);
    r.node_mut(line[2]).comment = lines(9);
    let mut v = viewer(r);
    press(&mut v, "l");
    let _ = screen(&mut v, 80, 24);
    let a = v.view.comment_area;
    press(&mut v, "l");
    let _ = screen(&mut v, 80, 24);
    assert_eq!(v.view.comment_area, a);
    assert!(a.height >= 9, "{a:?}");
}
