//! The large board (`board.size = "large"`, or `"auto"` on a big terminal): a 9x9 grid
//! drawn with box-drawing lines (ASCII in double-width mode), each piece centred in its
//! square, gote's pieces marked `v` as in BOD when colours cannot tell them apart, the file
//! numbers above and the rank kanji on the right, and each player's pieces in hand beside
//! the board as on a komadai: the top player's on the left, from the top; the bottom
//! player's on the right, down to the bottom.
//!
//! ```text
//! △後手：鈴木 花子　手番
//!          ９  ８  ７  ６  ５  ４  ３  ２  １
//! △持駒 ┌───┬───┬───┬───┬───┬───┬───┬───┬───┐
//! 角     │v香│v桂│v銀│v金│v玉│v金│v銀│v桂│v香│ 一
//! 歩二   ├───┼───┼───┼───┼───┼───┼───┼───┼───┤
//! ```

use super::board::{BoardWidget, move_line, name_line, top_bottom, widget_for};
use crate::app::App;
use crate::core::notation::japanese::{FULL_DIGITS, KANJI_DIGITS, kanji_count};
use crate::core::rules::{Color, Position};
use crate::tui::text::clean;
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

/// A grid's pitch: columns and rows from one square to the next, the line included (the
/// inside of a square is one column and one row less).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Grid {
    pub cw: u16,
    pub ch: u16,
}

/// The grids the large board is drawn with, largest first. Rows and columns come in the
/// ratio of a real board's squares (a cell is about twice as tall as it is wide).
pub const GRIDS: [Grid; 3] = [
    Grid { cw: 8, ch: 4 },
    Grid { cw: 6, ch: 3 },
    Grid { cw: 4, ch: 2 },
];

/// Cells of a hand column (`△持駒`, `歩十八`).
const HAND_W: u16 = 6;

impl Grid {
    /// Cells the whole column needs: hands, grid, coordinates, two names and the `手数＝` line.
    pub fn size(self, theme: &Theme) -> (u16, u16) {
        let coords = u16::from(theme.coordinates);
        let w = HAND_W + 1 + 9 * self.cw + 1 + 3 * coords + 1 + HAND_W;
        let h = 1 + coords + 9 * self.ch + 1 + 2;
        (w, h)
    }
}

/// The lines of one hand column: `▲持駒`, then `飛`, `歩十八`, ... or `なし`.
fn hand_column(pos: &Position, c: Color) -> Vec<String> {
    let mut out = vec![format!("{}持駒", c.mark())];
    let hand = pos.hand(c);
    if hand.is_empty() {
        out.push("なし".to_string());
    }
    for (kind, n) in hand {
        let count = if n > 1 {
            kanji_count(n as u32)
        } else {
            String::new()
        };
        out.push(format!("{}{count}", kind.board_char()));
    }
    out
}

/// One grid line: `┌───┬───┐` (`which` 0), `├───┼───┤` (1), `└───┴───┘` (2).
fn rule(g: Grid, which: usize, double: bool) -> String {
    let (l, m, r, h) = if double {
        ("+", "+", "+", "-")
    } else {
        [
            ("┌", "┬", "┐", "─"),
            ("├", "┼", "┤", "─"),
            ("└", "┴", "┘", "─"),
        ][which]
    };
    let seg = h.repeat(g.cw as usize - 1);
    let mut s = String::from(l);
    for i in 0..9 {
        s.push_str(&seg);
        s.push_str(if i == 8 { r } else { m });
    }
    s
}

/// Draws the grid with its pieces and coordinates, its top-left corner at (`gx`, `gy`).
fn draw_grid(w: &BoardWidget, g: Grid, gx: u16, gy: u16, buf: &mut Buffer) {
    let t = w.theme;
    let (iw, ih) = (g.cw - 1, g.ch - 1);
    // The piece's three cells (`v歩`) centred in the square, on its middle row.
    let (pad, mid) = ((iw - 3) / 2, (ih - 1) / 2);
    let vbar = if t.double { "|" } else { "│" };
    let right = gx + 9 * g.cw;
    if t.coordinates {
        for col in 0..9u8 {
            let f = w.square_at(0, col).file();
            let x = gx + col as u16 * g.cw + 1 + pad + 1;
            buf.set_string(x, gy - 1, FULL_DIGITS[f as usize], t.dim);
        }
    }
    buf.set_string(gx, gy, rule(g, 0, t.double), t.border);
    for row in 0..9u8 {
        let y0 = gy + row as u16 * g.ch + 1;
        for dy in 0..ih {
            for col in 0..=9u16 {
                buf.set_string(gx + col * g.cw, y0 + dy, vbar, t.border);
            }
        }
        for col in 0..9u8 {
            let look = w.look(w.square_at(row, col));
            let inside = Rect::new(gx + col as u16 * g.cw + 1, y0, iw, ih);
            // A background (colours on) fills the square; modifiers (colours off: underline,
            // bold) only the piece, so a square is never underlined three times.
            if let Some(bg) = look.style.bg {
                buf.set_style(inside, Style::new().bg(bg));
            }
            let text = if look.text == " ・" {
                "   "
            } else {
                &look.text
            };
            buf.set_string(inside.x + pad, y0 + mid, text, look.style);
            if look.cursor {
                buf.set_style(inside, Style::new().add_modifier(Modifier::REVERSED));
            }
        }
        if t.coordinates {
            let rank = w.square_at(row, 0).rank();
            buf.set_string(right + 2, y0 + mid, KANJI_DIGITS[rank as usize], t.dim);
        }
        let which = if row == 8 { 2 } else { 1 };
        buf.set_string(gx, y0 + ih, rule(g, which, t.double), t.border);
    }
}

/// The large board's column: names, hands beside the grid, the `手数＝` line. Returns the
/// rows used (nothing is drawn when `area` is too small).
pub fn large_column(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
    g: Grid,
) -> u16 {
    let (bw, bh) = g.size(theme);
    if area.width < bw || area.height < bh {
        return 0;
    }
    let w = area.width as usize;
    let (top, bottom) = top_bottom(app);
    let widget = widget_for(app, theme);
    let coords = u16::from(theme.coordinates);
    let (x0, y0) = (area.x, area.y);
    buf.set_line(x0, y0, &name_line(app, top, w, theme), area.width);
    let gx = x0 + HAND_W + 1;
    let gy = y0 + 1 + coords;
    draw_grid(&widget, g, gx, gy, buf);
    let grid_h = 9 * g.ch + 1;
    let side = |c: Color| match c {
        Color::Black => theme.black_piece,
        Color::White => theme.white_piece,
    };
    let pos = app.position();
    // The top player's hand on the left, from the first row of squares down.
    for (i, l) in hand_column(pos, top)
        .iter()
        .enumerate()
        .take(9 * g.ch as usize - 1)
    {
        let style = if i == 0 {
            side(top).add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        buf.set_stringn(
            x0,
            gy + 1 + i as u16,
            clean(l, theme.double),
            HAND_W as usize,
            style,
        );
    }
    // The bottom player's on the right, up from the last row of squares.
    let rx = gx + 9 * g.cw + 1 + 3 * coords + 1;
    let lines = hand_column(pos, bottom);
    let n = lines.len().min(9 * g.ch as usize - 1) as u16;
    for (i, l) in lines.iter().take(n as usize).enumerate() {
        let style = if i == 0 {
            side(bottom).add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        let y = gy + grid_h - 1 - n + i as u16;
        buf.set_stringn(rx, y, clean(l, theme.double), HAND_W as usize, style);
    }
    let y = gy + grid_h;
    buf.set_line(x0, y, &name_line(app, bottom, w, theme), area.width);
    buf.set_line(x0, y + 1, &move_line(app, theme), area.width);
    vs.board_squares = Rect::new(gx + 1, gy + 1, 9 * g.cw - 1, 9 * g.ch - 1);
    vs.board_cell = (g.cw, g.ch);
    bh
}
