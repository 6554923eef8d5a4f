//! The explorer pane (`x`): the moves the collection's games played from the position on the
//! board, the total line first, each with its number of games, a bar of the results (先手
//! wins, draws, unknown, 後手 wins) and sente's win, draw and unknown shares in numbers. The
//! rows come ready from `App::explorer_view`; while the answer for a new position is on its
//! way the previous rows stay, dimmed, and the title says 更新中. The title shows which games
//! it counts (the filter in force, `一覧: coll/ …` following the library, `all indexed`); with the focus (`X`) the border takes the focus colour and a move is highlighted.

use crate::app::collection::{ExplorerRow, ExplorerView};
use crate::app::{App, Command};
use crate::tui::draw::pane_rows;
use crate::tui::text::{clean, ellipsize, fit, width};
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

/// Cells of the results bar.
const BAR: usize = 10;
/// Cells of the move column (`▲２三銀右成` takes 12: cut to 11, the 成 stays readable from
/// the board).
const MOVE_W: usize = 11;

/// Rows the pane wants: borders, the column heads, the total line and its moves (at most 12).
pub fn wanted_height(app: &App) -> u16 {
    let n = match app.explorer_view() {
        ExplorerView::Rows { rows, .. } => rows.len().min(13),
        _ => 3,
    };
    n as u16 + 3
}

/// The row's counts as drawn: (games, 先手 wins, draws, unknown, 後手 wins), or as me (my
/// games: wins, draws, unknown, losses).
fn counts(r: &ExplorerRow) -> (u64, [u64; 4]) {
    match &r.me {
        Some(m) => (m.games, [m.win, m.draw, m.unknown, m.loss]),
        None => (r.games, [r.sente, r.draw, r.unknown, r.gote]),
    }
}

/// The results bar: 先手 wins `█`, draws `▒`, unknown `░`, 後手 wins `·` (as me: my wins,
/// draws, unknown, my losses; ASCII in double-width mode), each share of `BAR` cells rounded
/// at its cumulative edge.
fn bar(r: &ExplorerRow, double: bool) -> String {
    let marks = if double {
        ['#', '=', '?', '-']
    } else {
        ['█', '▒', '░', '·']
    };
    let (games, parts) = counts(r);
    if games == 0 {
        return " ".repeat(BAR);
    }
    let mut out = String::with_capacity(BAR * 3);
    let mut drawn = 0;
    let mut sum = 0;
    for (n, mark) in parts.into_iter().zip(marks) {
        sum += n;
        let edge = ((sum * BAR as u64 + games / 2) / games) as usize;
        for _ in drawn..edge.min(BAR) {
            out.push(mark);
        }
        drawn = drawn.max(edge.min(BAR));
    }
    out
}

/// `52%`: a share of the games, rounded.
fn pct(n: u64, of: u64) -> String {
    if of == 0 {
        return "-".to_string();
    }
    format!("{}%", (n * 100 + of / 2) / of)
}

/// One row: `▲７六歩       1234 ████▒░····  52%   3%   1%` (43 cells: it fits the pane
/// beside the BOD board at 80 columns).
/// As me: my games, the bar from my side, my score (a win 1, a draw ½, unknown results left
/// out), draws and unknown.
fn row_text(r: &ExplorerRow, double: bool) -> String {
    let (games, [first, draw, unknown, _]) = counts(r);
    let first = match &r.me {
        Some(m) => m
            .win_percent()
            .map_or("-".to_string(), |p| format!("{p:.0}%")),
        None => pct(first, games),
    };
    format!(
        "{} {:>5} {}{:>5}{:>5}{:>5}",
        fit(&clean(&r.label, double), MOVE_W),
        games,
        bar(r, double),
        first,
        pct(draw, games),
        pct(unknown, games),
    )
}

/// The title, `棋譜DB 1234局 [player:藤井 2020..2023] 更新中… (X: 選ぶ)`, in `w` cells: the
/// filter in force shortened with … to fit (the key hint goes first when it cannot).
fn title(view: &ExplorerView, filter: &str, hint: &str, w: usize, double: bool) -> String {
    let head = match view {
        ExplorerView::Rows { rows, updating } => {
            let games = rows.first().map_or(0, |r| counts(r).0);
            let state = if *updating { " 更新中…" } else { "" };
            let me = if rows.first().is_some_and(|r| r.me.is_some()) {
                " 自分"
            } else {
                ""
            };
            format!("棋譜DB{me} {games}局{state}")
        }
        ExplorerView::Opening => "棋譜DB 読み込み中…".to_string(),
        ExplorerView::NoIndex(_) | ExplorerView::Failed(_) => "棋譜DB".to_string(),
    };
    let filter = clean(filter, double);
    if filter.is_empty() {
        return format!("{head}{hint}");
    }
    // ` [` and `]` around the filter; at least `[藤井…]` of it, else the hint gives way.
    let room = |tail: &str| w.saturating_sub(width(&head) + width(tail) + 3);
    let hint = if room(hint) >= 6 { hint } else { "" };
    let f = ellipsize(&filter, room(hint).max(2), double);
    format!("{head} [{f}]{hint}")
}

/// The hint on the bottom border of the panes that took the comment's place (the explorer,
/// the book pane): that the comment is hidden, whether the move has one, and the keys that
/// hide them and bring it back (`コメントあり (x: コメントに戻す)`).
pub fn comment_hint(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let mut keys = Vec::new();
    if app.explorer().shown() {
        keys.push(app.key(Command::ToggleExplorer));
    }
    if app.books().shown() {
        keys.push(app.key(Command::ToggleBook));
    }
    if keys.is_empty() || area.height < 2 {
        return;
    }
    let has = !app.record().node(app.cur()).comment.trim().is_empty();
    let text = format!(
        " {}({}: コメントに戻す) ",
        if has { "コメントあり " } else { "" },
        keys.join(" ")
    );
    let text = clean(&text, theme.double);
    let w = width(&text) as u16;
    if area.width < w + 4 {
        return;
    }
    let style = if has { theme.warning } else { theme.dim };
    buf.set_string(area.right() - w - 2, area.bottom() - 1, text, style);
}

/// Draws the pane (its border in the focus colour and the highlighted move when `X` gave it
/// the focus).
pub fn explorer_pane(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let view = app.explorer_view();
    let focused = app.explorer_focused();
    let hint = match focused {
        true => String::new(),
        false => format!(" ({}: 選ぶ)", app.key(Command::ExplorerMoves)),
    };
    // Which games it counts: the filter, the library's (一覧:), else every indexed game.
    let filter = match app.explorer_scope() {
        s if s.is_empty() => "all indexed".to_string(),
        s => s,
    };
    let w = area.width.saturating_sub(2) as usize;
    let title = title(&view, &filter, &hint, w, theme.double);
    let Some(pane) = pane_rows(area, buf, title, focused, theme) else {
        return;
    };
    let d = theme.double;
    let put =
        |buf: &mut Buffer, row: usize, text: &str, style: Style| pane.put(buf, row, text, style);
    let (rows, updating) = match view {
        ExplorerView::Rows { rows, updating } => (rows, updating),
        ExplorerView::Opening => return put(buf, 0, "索引を開いています…", theme.dim),
        ExplorerView::NoIndex(why) => {
            put(buf, 0, "no collection index to explore:", theme.warning);
            put(buf, 1, &why, theme.dim);
            put(
                buf,
                2,
                "make one with `kifview index DIR` (or start with --index IDX)",
                Style::new(),
            );
            return;
        }
        ExplorerView::Failed(why) => return put(buf, 0, &why, theme.error),
    };
    // Over the columns of `row_text`: the bar runs from 先手's wins to 後手's.
    let as_me = rows.first().is_some_and(|r| r.me.is_some());
    let head = match as_me {
        true => format!("{}  局数 勝ち--負け 勝率 引分 不明", fit("指し手", MOVE_W)),
        false => format!("{}  局数 先手--後手 先勝 引分 不明", fit("指し手", MOVE_W)),
    };
    put(buf, 0, &head, theme.dim);
    let base = if updating { theme.dim } else { Style::new() };
    let Some(total) = rows.first() else {
        return;
    };
    put(
        buf,
        1,
        &row_text(total, d),
        base.add_modifier(Modifier::BOLD),
    );
    if rows.len() == 1 {
        put(buf, 2, "この局面から先の対局はありません", theme.dim);
    }
    // The moves under the total line, scrolled so that the highlighted one is in sight.
    let room = pane.height().saturating_sub(2).max(1);
    let lit = app.explorer_highlight();
    let skip = lit.map_or(0, |i| i.saturating_sub(room));
    for (n, (i, r)) in rows.iter().enumerate().skip(1 + skip).enumerate() {
        let style = if lit == Some(i) {
            base.patch(theme.selection)
        } else {
            base
        };
        put(buf, n + 2, &row_text(r, d), style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(sente: u64, gote: u64, draw: u64, unknown: u64) -> ExplorerRow {
        ExplorerRow {
            label: "▲７六歩".into(),
            mv: None,
            games: sente + gote + draw + unknown,
            sente,
            gote,
            draw,
            unknown,
            me: None,
        }
    }

    #[test]
    fn the_bar_splits_ten_cells_by_result() {
        assert_eq!(bar(&row(5, 5, 0, 0), false), "█████·····");
        assert_eq!(bar(&row(1, 1, 1, 1), false), "███▒▒░░░··");
        assert_eq!(bar(&row(0, 0, 0, 0), false), "          ");
        assert_eq!(bar(&row(2, 0, 1, 0), true), "#######===");
        assert_eq!(pct(1, 3), "33%");
        assert_eq!(pct(0, 0), "-");
    }

    #[test]
    fn the_title_shows_the_filter_shortened_to_fit() {
        let view = ExplorerView::Rows {
            rows: vec![row(3, 2, 0, 0)],
            updating: false,
        };
        let t = |f: &str, w: usize| title(&view, f, " (X: 選ぶ)", w, false);
        assert_eq!(t("", 40), "棋譜DB 5局 (X: 選ぶ)");
        assert_eq!(t("player:藤井", 40), "棋譜DB 5局 [player:藤井] (X: 選ぶ)");
        // Too long: cut with …, the whole title in its cells.
        let long = t("player:藤井 event:竜王戦 2020..2023 tag:四間飛車", 40);
        assert_eq!(long, "棋譜DB 5局 [player:藤井 even…] (X: 選ぶ)");
        assert_eq!(width(&long), 40);
        // Narrower still: the key hint gives way to the filter.
        assert_eq!(t("player:藤井", 18), "棋譜DB 5局 [play…]");
        let updating = ExplorerView::Rows {
            rows: vec![row(3, 2, 0, 0)],
            updating: true,
        };
        assert_eq!(
            title(&updating, "2020", "", 40, false),
            "棋譜DB 5局 更新中… [2020]"
        );
    }
}
