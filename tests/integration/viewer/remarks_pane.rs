//! The comment pane shows a move's remarks (CSA `'x`, KIF `#x`: Floodgate's `'summary:`, lines
//! a reader could not read) and, at the start, the file head's, after the comment and apart
//! from it: each starts with `#` (so without colours too) and is drawn dim.

use crate::common::{screen, viewer_on};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;

const GAME: &str = "'wdoor+floodgate-300-10F\nV2.2\nN+a\nN-b\nPI\n+\n+7776FU\n-3334FU\n'*良い手\n'summary:toryo:a win:b lose\n%TORYO\n";

/// The comment pane's inner rows, right-trimmed.
fn pane(
    v: &mut Viewer,
) -> (
    Vec<String>,
    ratatui::Terminal<ratatui::backend::TestBackend>,
) {
    let t = screen(v, 100, 30);
    let a = v.view.comment_area;
    let buf = t.backend().buffer();
    let rows = (a.y..a.y + a.height)
        .map(|y| {
            let mut s = String::new();
            let mut x = a.x;
            while x < a.x + a.width {
                let sym = buf[(x, y)].symbol();
                s.push_str(sym);
                x += unicode_width::UnicodeWidthStr::width(sym).max(1) as u16;
            }
            s.trim_end().to_string()
        })
        .filter(|r| !r.is_empty())
        .collect();
    (rows, t)
}

fn open(ply: u32, theme: Theme) -> Viewer {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.csa");
    std::fs::write(&path, GAME).unwrap();
    let v = viewer_on(&path, Some(ply));
    Viewer::new(v.app, theme)
}

#[test]
fn a_moves_remarks_follow_its_comment_marked_with_hash() {
    let mut v = open(2, Theme::plain());
    let (rows, _) = pane(&mut v);
    assert_eq!(rows, vec!["良い手", "#summary:toryo:a win:b lose"]);
    // The start position shows the head's remarks.
    let mut v = open(0, Theme::plain());
    let (rows, _) = pane(&mut v);
    assert_eq!(rows, vec!["#wdoor+floodgate-300-10F"]);
    // A move with neither: なし.
    let mut v = open(1, Theme::plain());
    assert_eq!(pane(&mut v).0, vec!["なし"]);
}

#[test]
fn remarks_are_drawn_dim_and_the_comment_is_not() {
    let theme = Theme::new(&kifview::app::Config::default(), true, false);
    let dim = theme.dim;
    assert_ne!(
        dim,
        ratatui::style::Style::new(),
        "the default theme has a dim colour"
    );
    let mut v = open(2, theme);
    let (_, t) = pane(&mut v);
    let a = v.view.comment_area;
    let buf = t.backend().buffer();
    let comment = &buf[(a.x, a.y)];
    assert_eq!(comment.symbol(), "良");
    assert_ne!(comment.fg, dim.fg.unwrap());
    let remark = &buf[(a.x, a.y + 1)];
    assert_eq!(remark.symbol(), "#");
    assert_eq!(remark.fg, dim.fg.unwrap());
}
