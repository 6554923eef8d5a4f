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

/// Draws one grid line: `┌───┬───┐` (`which` 0), `├───┼───┤` (1), `└───┴───┘` (2).
/// Cell by cell: a frame writes it ten times, and `set_string` would split it into
/// graphemes each time.
fn rule(buf: &mut Buffer, g: Grid, (x0, y): (u16, u16), which: usize, t: &Theme) {
    let (l, m, r, h) = if t.double {
        ("+", "+", "+", "-")
    } else {
        [
            ("┌", "┬", "┐", "─"),
            ("├", "┼", "┤", "─"),
            ("└", "┴", "┘", "─"),
        ][which]
    };
    for i in 0..=9 * g.cw {
        let sym = match i {
            0 => l,
            i if i == 9 * g.cw => r,
            i if i % g.cw == 0 => m,
            _ => h,
        };
        put(buf, x0 + i, y, sym, t.border);
    }
}

/// One cell of the grid's lines.
fn put(buf: &mut Buffer, x: u16, y: u16, sym: &str, style: Style) {
    if let Some(c) = buf.cell_mut((x, y)) {
        c.set_symbol(sym).set_style(style);
    }
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
    rule(buf, g, (gx, gy), 0, t);
    for row in 0..9u8 {
        let y0 = gy + row as u16 * g.ch + 1;
        for dy in 0..ih {
            for col in 0..=9u16 {
                put(buf, gx + col * g.cw, y0 + dy, vbar, t.border);
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
            // An empty square stays blank, unless a modifier marks it (the best move's
            // destination without colours is underlined).
            if look.text != " ・" {
                buf.set_string(inside.x + pad, y0 + mid, &look.text, look.style);
            } else if !look.style.add_modifier.is_empty() {
                buf.set_style(Rect::new(inside.x + pad, y0 + mid, 3, 1), look.style);
            }
            if look.cursor {
                buf.set_style(inside, Style::new().add_modifier(Modifier::REVERSED));
            }
        }
        if t.coordinates {
            let rank = w.square_at(row, 0).rank();
            buf.set_string(right + 2, y0 + mid, KANJI_DIGITS[rank as usize], t.dim);
        }
        let which = if row == 8 { 2 } else { 1 };
        rule(buf, g, (gx, y0 + ih), which, t);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::overlay::board_input::BoardMarks;
    use crate::core::rules::{Move, PieceKind, Square};
    use unicode_width::UnicodeWidthStr;

    fn widget<'a>(pos: &'a Position, theme: &'a Theme, flipped: bool) -> BoardWidget<'a> {
        BoardWidget {
            position: pos,
            last_to: None,
            last_from: None,
            flipped,
            theme,
            marks: None,
            best: None,
        }
    }

    /// Draws the grid at (1, 1) (the files above it on row 0) and returns the buffer.
    fn grid(w: &BoardWidget, g: Grid) -> Buffer {
        let mut buf = Buffer::empty(Rect::new(0, 0, 9 * g.cw + 6, 9 * g.ch + 3));
        draw_grid(w, g, 1, 1, &mut buf);
        buf
    }

    /// Row `y` of `buf` reads `expected` (symbol by symbol, as `Buffer::with_lines` lays
    /// it out), then nothing.
    #[track_caller]
    fn assert_row(buf: &Buffer, y: u16, expected: &str) {
        let exp = Buffer::with_lines([expected]);
        for x in 0..buf.area.width {
            let want = if x < exp.area.width {
                exp[(x, 0)].symbol()
            } else {
                " "
            };
            assert_eq!(buf[(x, y)].symbol(), want, "cell {x},{y} of {expected:?}");
        }
    }

    #[test]
    fn start_position_on_the_smallest_grid() {
        let theme = Theme::plain();
        let pos = Position::startpos();
        let buf = grid(&widget(&pos, &theme, false), Grid { cw: 4, ch: 2 });
        for (y, expected) in [
            "   ９  ８  ７  ６  ５  ４  ３  ２  １",
            " ┌───┬───┬───┬───┬───┬───┬───┬───┬───┐",
            " │v香│v桂│v銀│v金│v玉│v金│v銀│v桂│v香│ 一",
            " ├───┼───┼───┼───┼───┼───┼───┼───┼───┤",
            " │   │v飛│   │   │   │   │   │v角│   │ 二",
            " ├───┼───┼───┼───┼───┼───┼───┼───┼───┤",
        ]
        .into_iter()
        .enumerate()
        {
            assert_row(&buf, y as u16, expected);
        }
        assert_row(&buf, 18, " │ 香│ 桂│ 銀│ 金│ 玉│ 金│ 銀│ 桂│ 香│ 九");
        assert_row(&buf, 19, " └───┴───┴───┴───┴───┴───┴───┴───┴───┘");
    }

    #[test]
    fn every_grid_lines_up_and_centres_its_pieces() {
        let theme = Theme::plain();
        let pos = Position::startpos();
        for g in GRIDS {
            for flipped in [false, true] {
                let w = widget(&pos, &theme, flipped);
                let buf = grid(&w, g);
                let (gx, gy) = (1u16, 1u16);
                for r in 0..9u16 {
                    for dy in 1..g.ch {
                        let y = gy + r * g.ch + dy;
                        for c in 0..=9u16 {
                            assert_eq!(buf[(gx + c * g.cw, y)].symbol(), "│", "{g:?} {c},{y}");
                        }
                    }
                    // The piece's kanji in the middle of its square, on the middle row, and
                    // the file number right above the kanji of the top row.
                    let y = gy + r * g.ch + 1 + (g.ch - 2) / 2;
                    for c in 0..9u16 {
                        let sq = w.square_at(r as u8, c as u8);
                        let x = gx + c * g.cw + 1 + (g.cw - 4) / 2 + 1;
                        let want = pos.piece_at(sq).map(|p| p.kind.board_char().to_string());
                        let got = buf[(x, y)].symbol();
                        assert_eq!(want.as_deref().unwrap_or(" "), got, "{g:?} {sq:?}");
                        // Equal room left and right of the three cells `v歩`.
                        let left = x - 2 - (gx + c * g.cw);
                        let right = gx + (c + 1) * g.cw - (x + 2);
                        assert_eq!(left, right, "{g:?}");
                        if r == 0 {
                            let f = FULL_DIGITS[sq.file() as usize];
                            assert_eq!(buf[(x, gy - 1)].symbol(), f, "{g:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn flipped_puts_file_one_and_rank_nine_top_left_with_sente_upside_down() {
        let theme = Theme::plain();
        let pos = Position::startpos();
        let buf = grid(&widget(&pos, &theme, true), Grid { cw: 4, ch: 2 });
        assert_row(&buf, 0, "   １  ２  ３  ４  ５  ６  ７  ８  ９");
        // Sente's lance on 1九 is top left; gote's pieces (marked v) at the bottom.
        assert_row(&buf, 2, " │ 香│ 桂│ 銀│ 金│ 玉│ 金│ 銀│ 桂│ 香│ 九");
        assert_row(&buf, 18, " │v香│v桂│v銀│v金│v玉│v金│v銀│v桂│v香│ 一");
    }

    #[test]
    fn last_move_cursor_targets_and_best_move_without_colours() {
        let theme = Theme::plain();
        let mut pos = Position::startpos();
        pos.play(Move::from_usi("7g7f").unwrap()).unwrap();
        let sq = |f, r| Square::new(f, r).unwrap();
        let targets = [sq(2, 6)];
        let mut w = widget(&pos, &theme, false);
        w.last_to = Some(sq(7, 6));
        w.best = Some((Some(sq(3, 3)), sq(3, 4)));
        w.marks = Some(BoardMarks {
            cursor: sq(2, 7),
            picked: Some(sq(2, 7)),
            targets: &targets,
        });
        let g = Grid { cw: 6, ch: 3 };
        let buf = grid(&w, g);
        // The square's inside, and where its kanji is.
        let inside = |s: Square| {
            let (c, r) = (9 - s.file() as u16, s.rank() as u16 - 1);
            Rect::new(1 + c * g.cw + 1, 1 + r * g.ch + 1, g.cw - 1, g.ch - 1)
        };
        let kanji = |s: Square| {
            let i = inside(s);
            (i.x + 2, i.y)
        };
        let m = |p: (u16, u16)| buf[p].modifier;
        // The last move: underlined and bold (colours off), on the piece only.
        assert!(m(kanji(sq(7, 6))).contains(Modifier::UNDERLINED | Modifier::BOLD));
        let i = inside(sq(7, 6));
        assert!(!buf[(i.x, i.y + 1)].modifier.contains(Modifier::UNDERLINED));
        // The best move's two squares: italic.
        assert!(m(kanji(sq(3, 3))).contains(Modifier::ITALIC));
        assert!(m(kanji(sq(3, 4))).contains(Modifier::ITALIC));
        assert!(!m(kanji(sq(4, 4))).contains(Modifier::ITALIC));
        // Move input: the cursor reverses the whole square; an empty target shows ＊.
        let c = inside(sq(2, 7));
        for y in c.top()..c.bottom() {
            for x in c.left()..c.right() {
                assert!(buf[(x, y)].modifier.contains(Modifier::REVERSED));
            }
        }
        assert_eq!(buf[kanji(sq(2, 6))].symbol(), "＊");
        assert_eq!(buf[kanji(sq(5, 5))].symbol(), " ");
    }

    #[test]
    fn colours_fill_the_last_moves_square() {
        let theme = Theme::new(&crate::app::Config::defaults(), true, false);
        let pos = Position::startpos();
        let mut w = widget(&pos, &theme, false);
        let to = Square::new(5, 5).unwrap();
        w.last_to = Some(to);
        let g = Grid { cw: 8, ch: 4 };
        let buf = grid(&w, g);
        let (x0, y0) = (1 + 4 * g.cw + 1, 1 + 4 * g.ch + 1);
        let bg = theme.last_move.bg.expect("a background");
        for y in y0..y0 + g.ch - 1 {
            for x in x0..x0 + g.cw - 1 {
                assert_eq!(buf[(x, y)].bg, bg, "{x},{y}");
            }
        }
        assert_ne!(buf[(x0 - 1, y0)].bg, bg, "the line stays");
    }

    #[test]
    fn hands_list_each_kind_with_its_count() {
        let mut pos = Position::startpos();
        pos.set_hand_count(Color::Black, PieceKind::Pawn, 18);
        pos.set_hand_count(Color::Black, PieceKind::Rook, 1);
        assert_eq!(hand_column(&pos, Color::Black), ["▲持駒", "飛", "歩十八"]);
        assert_eq!(hand_column(&pos, Color::White), ["△持駒", "なし"]);
        // The longest fits the column.
        assert!(
            hand_column(&pos, Color::Black)
                .iter()
                .all(|l| l.width() <= HAND_W as usize)
        );
    }

    #[test]
    fn ascii_lines_in_double_width_mode() {
        let theme = Theme::new(&crate::app::Config::defaults(), false, true);
        let pos = Position::startpos();
        let buf = grid(&widget(&pos, &theme, false), Grid { cw: 4, ch: 2 });
        assert_row(&buf, 1, " +---+---+---+---+---+---+---+---+---+");
        assert_row(&buf, 2, " |v香|v桂|v銀|v金|v玉|v金|v銀|v桂|v香| 一");
    }

    #[test]
    fn without_coordinates_no_numbers_and_a_narrower_column() {
        let mut config = crate::app::Config::defaults();
        config.coordinates = false;
        let theme = Theme::new(&config, false, false);
        let g = Grid { cw: 4, ch: 2 };
        assert_eq!(g.size(&theme), (51, 22));
        assert_eq!(g.size(&Theme::plain()), (54, 23));
        let pos = Position::startpos();
        let buf = grid(&widget(&pos, &theme, false), g);
        assert_row(&buf, 0, "");
        assert_row(&buf, 2, " │v香│v桂│v銀│v金│v玉│v金│v銀│v桂│v香│");
    }
}
