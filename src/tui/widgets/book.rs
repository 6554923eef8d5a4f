//! The book pane (`T`): the moves the open books hold for the position on the board, each
//! row `1 ▲７六歩  +48  18     2  note`: its book's number, the move, the value (the mover's
//! view), the depth, the count and the comment, with the explorer's games for the move in a
//! column of its own while the explorer pane shows this position; a move of the mirrored
//! position (the flipped lookup) is marked `反` beside its book. The title names the books,
//! a modified one with `*`. With the focus (`Ctrl-t`) the border takes the focus colour and a
//! move is highlighted. The rows come ready from `App::book_view`.
//!
//! The pane shares the explorer's places ([`panes`]): where the explorer pane would be, the
//! book pane alone, or both (the books above).

use crate::app::book::{BookRow, BookView};
use crate::app::{App, Command};
use crate::tui::draw::pane_rows;
use crate::tui::text::{clean, ellipsize, fit, width};
use crate::tui::theme::Theme;
use crate::tui::widgets::explorer;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;

/// Cells of the move column (as the explorer's).
const MOVE_W: usize = 11;

/// Is the book pane or the explorer shown (the place they share is taken)?
pub fn shown(app: &App) -> bool {
    app.books().shown() || app.explorer().shown()
}

/// Rows the book pane wants: borders, the heads, its moves (at most 12).
fn book_height(app: &App) -> u16 {
    let n = match app.book_view() {
        BookView::Rows { rows, .. } => rows.len().clamp(1, 12),
        BookView::NoBook => 2,
    };
    n as u16 + 3
}

/// Rows the shown panes want together.
pub fn wanted_height(app: &App) -> u16 {
    match (app.books().shown(), app.explorer().shown()) {
        (true, true) => book_height(app) + explorer::wanted_height(app),
        (true, false) => book_height(app),
        _ => explorer::wanted_height(app),
    }
}

/// Draws the shown panes in `area`: the book pane, the explorer, or both (the books above,
/// each its share of the rows).
pub fn panes(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    match (app.books().shown(), app.explorer().shown()) {
        (true, true) => {
            let want = book_height(app);
            let h = want.min(area.height.saturating_sub(area.height / 2).max(want.min(6)));
            let [top, bottom] =
                Layout::vertical([Constraint::Length(h), Constraint::Fill(1)]).areas(area);
            book_pane(top, buf, app, theme);
            explorer::explorer_pane(bottom, buf, app, theme);
        }
        (true, false) => book_pane(area, buf, app, theme),
        _ => explorer::explorer_pane(area, buf, app, theme),
    }
}

/// `+48`, `-120`, `-` (no value).
fn value_text(v: Option<i32>) -> String {
    match v {
        Some(v) if v > 0 => format!("+{v}"),
        Some(v) => v.to_string(),
        None => "-".to_string(),
    }
}

/// One row's text (`explorer`: the explorer's games for the move, when its column shows).
fn row_text(r: &BookRow, explorer: Option<Option<u64>>, double: bool) -> String {
    let mark = if r.flipped { "反" } else { "  " };
    let mut t = format!(
        "{}{mark}{} {:>6} {:>4} {:>6}",
        (r.book + 1) % 10,
        fit(&clean(&r.label, double), MOVE_W),
        value_text(r.value),
        r.depth,
        r.count,
    );
    if let Some(games) = explorer {
        t.push_str(&format!(
            " {:>5}",
            games.map_or("-".into(), |g| g.to_string())
        ));
    }
    if let Some(c) = &r.comment {
        t.push_str("  ");
        t.push_str(&clean(&c.replace('\n', " "), double));
    }
    t
}

/// The title: `定跡 1:mine.db* 2:yane.db 反 (C-t: 選ぶ)` in `w` cells (the names shortened with
/// … to fit, the hint dropped first).
fn title(names: &[(String, bool)], flipped: bool, hint: &str, w: usize, double: bool) -> String {
    let mut head = "定跡".to_string();
    for (i, (n, modified)) in names.iter().enumerate() {
        head.push_str(&format!(
            " {}:{}{}",
            i + 1,
            clean(n, double),
            if *modified { "*" } else { "" }
        ));
    }
    if flipped {
        head.push_str(" +反");
    }
    if width(&head) + width(hint) <= w {
        return format!("{head}{hint}");
    }
    ellipsize(&head, w, double)
}

/// Draws the pane.
pub fn book_pane(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let view = app.book_view();
    let focused = app.book_focused();
    let hint = match focused {
        true => String::new(),
        false => format!(" ({}: 選ぶ)", app.key(Command::BookMoves)),
    };
    let w = area.width.saturating_sub(2) as usize;
    let names = app.books().names();
    let title = title(&names, app.books().flipped(), &hint, w, theme.double);
    let Some(pane) = pane_rows(area, buf, title, focused, theme) else {
        return;
    };
    let d = theme.double;
    let put =
        |buf: &mut Buffer, row: usize, text: &str, style: Style| pane.put(buf, row, text, style);
    let (rows, error) = match view {
        BookView::NoBook => {
            put(buf, 0, "定跡ファイルが開かれていません", theme.dim);
            put(
                buf,
                1,
                ":book open FILE / :book new FILE / --book FILE",
                Style::new(),
            );
            return;
        }
        BookView::Rows { rows, error } => (rows, error),
    };
    let with_explorer = app.explorer().shown();
    let mut head = format!("本  {}  評価値 深さ   回数", fit("指し手", MOVE_W));
    if with_explorer {
        head.push_str("  棋譜");
    }
    head.push_str("  コメント");
    put(buf, 0, &head, theme.dim);
    let mut line = 1;
    if let Some(e) = error {
        put(buf, line, &e, theme.error);
        line += 1;
    }
    if rows.is_empty() {
        put(buf, line, "この局面は定跡にありません", theme.dim);
        return;
    }
    let room = pane.height().saturating_sub(line).max(1);
    let lit = app.book_highlight();
    let skip = lit.map_or(0, |i| (i + 1).saturating_sub(room));
    for (n, (i, r)) in rows.iter().enumerate().skip(skip).enumerate() {
        let style = if lit == Some(i) {
            theme.selection
        } else {
            Style::new()
        };
        let games = with_explorer.then(|| app.explorer_games_for(r.mv));
        put(buf, line + n, &row_text(r, games, d), style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_the_title_fit_their_cells() {
        let r = BookRow {
            book: 1,
            label: "▲７六歩".into(),
            mv: crate::core::rules::Move::from_usi("7g7f").unwrap(),
            value: Some(48),
            depth: 18,
            count: 2,
            comment: Some("主流\n2行目".into()),
            flipped: true,
        };
        assert_eq!(
            row_text(&r, Some(Some(31)), false),
            "2反▲７六歩        +48   18      2    31  主流 2行目"
        );
        let names = vec![
            ("mine.db".to_string(), true),
            ("yane.db".to_string(), false),
        ];
        assert_eq!(
            title(&names, false, " (C-t: 選ぶ)", 60, false),
            "定跡 1:mine.db* 2:yane.db (C-t: 選ぶ)"
        );
        let short = title(&names, true, " (C-t: 選ぶ)", 16, false);
        assert!(width(&short) <= 16, "{short}");
    }
}
