//! The search's highlight, drawn over the panes after they are drawn: the move list's rows of
//! moves with a match (their move, bookmark or comment) underlined and bold, the query's
//! occurrences in the comment pane and the header pane reversed. Modifiers only, so it shows
//! with colours off (`NO_COLOR`).

use crate::app::App;
use crate::app::search::matches::{Highlight, Kind};
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use unicode_width::UnicodeWidthStr;

/// A move list row with a match.
pub const ROW: Style = Style::new().add_modifier(Modifier::UNDERLINED.union(Modifier::BOLD));
/// The query's text in the comment and header panes.
pub const TEXT: Style = Style::new().add_modifier(Modifier::REVERSED);

/// Highlights the current search's matches in what the panes drew (see `vs`).
pub fn highlight(buf: &mut Buffer, app: &App, vs: &ViewState) {
    let Some(h) = app.search().highlight(app.version()) else {
        return;
    };
    let area = vs.moves_area.intersection(buf.area);
    for row in 0..area.height {
        let Some(&id) = app.line().get(vs.moves_offset + row as usize) else {
            break;
        };
        if h.hit(id) {
            buf.set_style(Rect::new(area.x, area.y + row, area.width, 1), ROW);
        }
    }
    if app.mode() != crate::app::Mode::Comment && h.has(app.cur(), Kind::Comment) {
        mark_text(buf, vs.comment_area, &h);
    }
    if h.in_header() {
        mark_text(buf, vs.header_area, &h);
    }
}

/// Reverses the query's occurrences in each row of `area` as drawn (an occurrence cut by a
/// wrap is not found).
fn mark_text(buf: &mut Buffer, area: Rect, h: &Highlight) {
    let area = area.intersection(buf.area);
    for y in area.top()..area.bottom() {
        // Each character drawn, with its column and width (the cells a wide character
        // covers, and the pads after ambiguous ones in double-width mode, are skipped).
        let mut cells: Vec<(char, u16, u16)> = Vec::new();
        let mut x = area.left();
        while x < area.right() {
            let sym = buf[(x, y)].symbol();
            let w = sym.width().max(1) as u16;
            if let Some(c) = sym.chars().next().filter(|&c| c != '\u{a0}') {
                cells.push((c, x, w));
            }
            x += w;
        }
        let chars: Vec<char> = cells.iter().map(|c| c.0).collect();
        for (a, b) in h.query.spans(&chars) {
            let (x0, x1) = (cells[a].1, cells[b - 1].1 + cells[b - 1].2);
            let x1 = x1.min(area.right());
            buf.set_style(Rect::new(x0, y, x1 - x0, 1), TEXT);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::App;
    use crate::app::search::matches::tests::{STUDY, search};
    use crate::app::testing::app_with;
    use crate::tui::theme::Theme;
    use crate::tui::ui::{ViewState, render};
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::Modifier;
    use unicode_width::UnicodeWidthStr;

    /// The screen (no colours, as with NO_COLOR) and where the panes went.
    fn draw(app: &App, w: u16, h: u16) -> (Buffer, ViewState) {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        let mut vs = ViewState::default();
        render(buf.area, &mut buf, app, &Theme::plain(), &mut vs);
        (buf, vs)
    }

    /// The rows of `area` as text: a row drawn underlined starts with `_`, and reversed runs
    /// are in brackets.
    fn marked(buf: &Buffer, area: Rect) -> Vec<String> {
        (area.top()..area.bottom())
            .map(|y| {
                let under = buf[(area.x, y)].modifier.contains(Modifier::UNDERLINED);
                let mut s = String::from(if under { "_" } else { " " });
                let mut rev = false;
                let mut x = area.left();
                while x < area.right() {
                    let cell = &buf[(x, y)];
                    let r = cell.modifier.contains(Modifier::REVERSED);
                    if r != rev {
                        s.push(if r { '[' } else { ']' });
                        rev = r;
                    }
                    s.push_str(cell.symbol());
                    x += cell.symbol().width().max(1) as u16;
                }
                if rev {
                    s.push(']');
                }
                s.trim_end().to_string()
            })
            .collect()
    }

    #[test]
    fn matches_show_in_the_move_list_and_the_comment_without_colours() {
        let mut a = app_with(STUDY);
        search(&mut a, "歩");
        let (buf, vs) = draw(&a, 80, 24);
        // Every move with a match is underlined (the current one is also the selection);
        // ７八金 and ３二金 are not.
        assert_eq!(
            marked(&buf, vs.moves_area),
            [
                "    0 開始局面",
                "_[   1 ▲７六歩(77)                            ]",
                "_   2 △３四歩(33)",
                "_   3 ▲２六歩(27)&",
                "_   4 △８四歩(83)+",
                "_   5 ▲２五歩(26)",
                "_   6 △８五歩(84)",
                "    7 ▲７八金(69)",
                "    8 △３二金(41)",
                "_   9 ▲２四歩(25)",
                "_  10 △同　歩(23)",
            ]
        );
        assert_eq!(
            marked(&buf, vs.comment_area)[0],
            " 角道を開ける。７六[歩]は定跡。"
        );
        // Typed as a move, the query is found in the comment's ７六歩 too.
        search(&mut a, "76歩");
        let (buf, vs) = draw(&a, 80, 24);
        assert_eq!(
            marked(&buf, vs.comment_area)[0],
            " 角道を開ける。[７六歩]は定跡。"
        );
        search(&mut a, "藤井");
        let (buf, vs) = draw(&a, 80, 24);
        assert_eq!(
            marked(&buf, vs.header_area),
            [
                " 開始日時：2024/10/01",
                " 棋戦：竜王戦 第3局",
                " 先手：[藤井]聡太",
                " 後手：ＡＢＣ太郎"
            ]
        );
        // :noh hides it all.
        crate::app::dispatch::typable::run(&mut a, "noh");
        let (buf, vs) = draw(&a, 80, 24);
        assert_eq!(marked(&buf, vs.header_area)[2], " 先手：藤井聡太");
    }

    #[test]
    fn the_match_list_names_where_each_match_is() {
        let mut a = app_with(STUDY);
        search(&mut a, "歩");
        a.handle_key(crate::app::KeyEvent::char('L'));
        let (buf, vs) = draw(&a, 80, 24);
        let rows = marked(&buf, vs.overlay_area);
        assert_eq!(
            rows,
            [
                " [* 1手目 ▲７六歩(77)                                                       ]",
                " * コメント 1手目 ▲７六歩(77): 角道を開ける。７六歩は定跡。",
                " * 2手目 △３四歩(33)",
                " * 3手目 ▲２六歩(27)",
                " * 4手目 △８四歩(83)",
                " * 5手目 ▲２五歩(26)",
                " * 6手目 △８五歩(84)",
                " * 9手目 ▲２四歩(25)",
                " * 10手目 △同　歩(23)",
                "   変化 4手目 △４四歩(43)",
            ]
        );
        let title = marked(&buf, Rect::new(0, vs.overlay_area.y - 1, 80, 1));
        assert!(
            title[0].contains("┌検索 \"歩\" 10件 (* this line)  Enter: go  Esc: close─"),
            "{title:?}"
        );
    }
}
