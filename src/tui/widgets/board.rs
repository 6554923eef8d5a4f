//! The board in BOD style, with hands: exactly the diagrams of KIF files; and the board
//! column (names, hands, board, the `手数＝` line).

use crate::app::App;
use crate::app::overlay::board_input::BoardMarks;
use crate::core::notation::japanese::{FULL_DIGITS, KANJI_DIGITS, kanji_count};
use crate::core::record::Step;
use crate::core::rules::{Color, Position, Square};
use crate::tui::text::{clean, ellipsize, wrap};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

/// The 9x9 board with its frame (and coordinates when the theme says so).
pub struct BoardWidget<'a> {
    pub position: &'a Position,
    /// Destination and origin of the last move (highlighted).
    pub last_to: Option<Square>,
    pub last_from: Option<Square>,
    /// White at the bottom.
    pub flipped: bool,
    pub theme: &'a Theme,
    /// Move input: the cursor, the picked piece and its legal destinations.
    pub marks: Option<BoardMarks<'a>>,
    /// The engine's best move (from, to), highlighted in research mode.
    pub best: Option<(Option<Square>, Square)>,
}

/// One square as drawn: see [`BoardWidget::look`].
pub(crate) struct Look {
    pub text: String,
    pub style: Style,
    pub cursor: bool,
}

impl BoardWidget<'_> {
    /// Cells the board needs: 31x12 with coordinates, 29x11 without.
    pub fn size(theme: &Theme) -> (u16, u16) {
        if theme.coordinates {
            (31, 12)
        } else {
            (29, 11)
        }
    }
    /// What a square shows: three cells of text (`v歩`, ` 歩`, ` ・`; while a piece is picked, ` ＊` and `*歩` on its legal squares), its style (the
    /// last move, the best move, check, move input's marks) and whether the move-input
    /// cursor is on it. Both boards draw squares from this.
    pub(crate) fn look(&self, sq: Square) -> Look {
        let t = self.theme;
        let pos = self.position;
        let (mut text, mut style) = match pos.piece_at(sq) {
            None => (" ・".to_string(), t.dim),
            Some(p) => {
                let mark = if p.color == Color::White && t.gote_mark {
                    'v'
                } else {
                    ' '
                };
                let style = match p.color {
                    Color::Black => t.black_piece,
                    Color::White => t.white_piece,
                };
                (format!("{mark}{}", p.kind.board_char()), style)
            }
        };
        if Some(sq) == self.last_to {
            style = style.patch(t.last_move);
        } else if Some(sq) == self.last_from && t.color {
            style = style.patch(t.dim);
        }
        if let Some((from, to)) = self.best
            && (Some(sq) == from || sq == to)
        {
            style = style.patch(t.best_move);
        }
        if pos.king_square(pos.side_to_move()) == Some(sq) && pos.in_check() {
            style = style.patch(t.check);
        }
        let mut cursor = false;
        if let Some(m) = &self.marks {
            if m.targets.contains(&sq) {
                // A marker as well as the colour (NO_COLOR shows no colour): `＊` on an
                // empty square, `*` before a piece that can be taken (only the opponent's
                // pieces are ever targets, so `*` stands where gote's `v` would).
                text = match pos.piece_at(sq) {
                    None => " ＊".to_string(),
                    Some(p) => format!("*{}", p.kind.board_char()),
                };
                style = style.patch(t.variation_mark).add_modifier(Modifier::BOLD);
            }
            if Some(sq) == m.picked {
                style = style.add_modifier(Modifier::UNDERLINED | Modifier::BOLD);
            }
            cursor = m.cursor == sq;
        }
        Look {
            text,
            style,
            cursor,
        }
    }
    pub(crate) fn square_at(&self, row: u8, col: u8) -> Square {
        let (file, rank) = if self.flipped {
            (col + 1, 9 - row)
        } else {
            (9 - col, row + 1)
        };
        Square::new(file, rank).expect("row and col are 0..9")
    }
}

impl Widget for &BoardWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let (w, h) = BoardWidget::size(t);
        if area.width < w || area.height < h {
            return;
        }
        let (x0, mut y) = (area.x, area.y);
        if t.coordinates {
            let mut files = String::from(" ");
            for col in 0..9u8 {
                let f = self.square_at(0, col).file();
                files.push(' ');
                files.push_str(FULL_DIGITS[f as usize]);
            }
            buf.set_string(x0, y, files, t.dim);
            y += 1;
        }
        let rule = format!("+{}+", "-".repeat(27));
        buf.set_string(x0, y, &rule, t.border);
        y += 1;
        for row in 0..9u8 {
            buf.set_string(x0, y, "|", t.border);
            for col in 0..9u8 {
                let look = self.look(self.square_at(row, col));
                let x = x0 + 1 + 3 * col as u16;
                buf.set_string(x, y, &look.text, look.style);
                if look.cursor {
                    buf.set_style(
                        Rect::new(x, y, 3, 1),
                        Style::new().add_modifier(Modifier::REVERSED),
                    );
                }
            }
            buf.set_string(x0 + 28, y, "|", t.border);
            if t.coordinates {
                let rank = self.square_at(row, 0).rank();
                buf.set_string(x0 + 29, y, KANJI_DIGITS[rank as usize], t.dim);
            }
            y += 1;
        }
        buf.set_string(x0, y, &rule, t.border);
    }
}

/// `先手` / `後手`, or `下手` / `上手` in handicap games.
pub fn side_name(color: Color, handicap: bool) -> &'static str {
    match (color, handicap) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    }
}

/// `後手の持駒：飛　角　歩四` or `先手の持駒：なし`.
pub fn hand_text(pos: &Position, color: Color, handicap: bool) -> String {
    let mut s = format!("{}の持駒：", side_name(color, handicap));
    let hand = pos.hand(color);
    if hand.is_empty() {
        s.push_str("なし");
    }
    for (i, (kind, n)) in hand.into_iter().enumerate() {
        if i > 0 {
            s.push('\u{3000}');
        }
        s.push(kind.board_char());
        if n > 1 {
            s.push_str(&kanji_count(n as u32));
        }
    }
    s
}

/// `▲先手：name　手番`, cut to `w` cells.
pub(crate) fn name_line(app: &App, c: Color, w: usize, theme: &Theme) -> Line<'static> {
    let rec = app.record();
    let handicap = rec.initial.is_handicap_game();
    let name = match c {
        Color::Black => rec.header.black_name(),
        Color::White => rec.header.white_name(),
    };
    let mut text = format!("{}{}", c.mark(), side_name(c, handicap));
    if let Some(n) = name.filter(|n| !n.is_empty()) {
        text.push('：');
        text.push_str(n);
    }
    // A long name ends with `…` (room is kept for `　手番`).
    let text = ellipsize(
        &clean(&text, theme.double),
        w.saturating_sub(8),
        theme.double,
    );
    let mut spans = vec![Span::styled(
        text,
        match c {
            Color::Black => theme.black_piece,
            Color::White => theme.white_piece,
        }
        .add_modifier(Modifier::BOLD),
    )];
    let at_special = rec.node(app.cur()).special().is_some();
    if c == app.position().side_to_move() && !at_special {
        spans.push(Span::styled("　手番", theme.variation_mark));
    }
    Line::from(spans)
}

/// `手数＝5  ▲２五歩  まで` (or the ending's line), with `王手` / `詰み`.
pub(crate) fn move_line(app: &App, theme: &Theme) -> Line<'static> {
    let rec = app.record();
    let d = theme.double;
    let pos = app.position();
    let node = rec.node(app.cur());
    let at_special = node.special().is_some();
    let mut spans = Vec::new();
    match &node.step {
        Step::Root => spans.push(Span::raw(format!("手数＝{}", rec.moves_before()))),
        Step::Move(_) => {
            let t = app.step_text(app.cur());
            let t = t.split('(').next().unwrap_or(&t).to_string();
            spans.push(Span::raw(clean(
                &format!("手数＝{}  {t}  まで", rec.move_number(app.cur())),
                d,
            )));
        }
        Step::Special(s) => {
            let side = rec.side_to_move_at(app.cur());
            let handicap = rec.initial.is_handicap_game();
            spans.push(Span::raw(clean(
                &s.result_line(rec.move_number(app.cur()).saturating_sub(1), side, handicap),
                d,
            )));
        }
    }
    if pos.in_check() && !at_special {
        spans.push(Span::raw("  "));
        spans.push(Span::styled(
            if pos.is_checkmate() {
                "詰み"
            } else {
                "王手"
            },
            theme.check,
        ));
    }
    Line::from(spans)
}

/// The board widget for the current position (the last move, move input, the best move).
pub(crate) fn widget_for<'a>(app: &'a App, theme: &'a Theme) -> BoardWidget<'a> {
    let last = app.record().last_move_at(app.cur());
    BoardWidget {
        position: app.position(),
        last_to: last.map(|m| m.mv.to()),
        last_from: last.and_then(|m| m.mv.from()),
        flipped: app.flipped(),
        theme,
        marks: app.board_marks(),
        best: app.best_move_squares(),
    }
}

/// The top and bottom players (gote on top unless the board is flipped).
pub(crate) fn top_bottom(app: &App) -> (Color, Color) {
    if app.flipped() {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    }
}

/// Names, hands, the BOD board and the `手数＝` line (`large_board::large_column` draws the
/// large one). Returns the rows used.
pub fn board_column(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
) -> u16 {
    let pos = app.position();
    let handicap = app.record().initial.is_handicap_game();
    let (top, bottom) = top_bottom(app);
    let w = area.width as usize;
    let hand_lines = |c: Color| wrap(&hand_text(pos, c, handicap), w);
    let mut y = area.y;
    let put = |buf: &mut Buffer, line: Line<'_>, y: &mut u16| {
        if *y < area.bottom() {
            buf.set_line(area.x, *y, &line, area.width);
            *y += 1;
        }
    };
    put(buf, name_line(app, top, w, theme), &mut y);
    for l in hand_lines(top) {
        put(buf, Line::raw(l), &mut y);
    }
    let (bw, bh) = BoardWidget::size(theme);
    if y + bh <= area.bottom() {
        (&widget_for(app, theme)).render(Rect::new(area.x, y, bw.min(area.width), bh), buf);
        let top = y + if theme.coordinates { 2 } else { 1 };
        vs.board_squares = Rect::new(area.x + 1, top, 27, 9);
        vs.board_cell = (3, 1);
        y += bh;
    }
    for l in hand_lines(bottom) {
        put(buf, Line::raw(l), &mut y);
    }
    put(buf, name_line(app, bottom, w, theme), &mut y);
    put(buf, move_line(app, theme), &mut y);
    y - area.y
}

/// The reduced layout of a terminal too small for the panes: the BOD board and the `手数＝`
/// line, then, as rows allow, the hands and the players' names around the board. Returns
/// the rows used, or `None` (nothing drawn) when the board itself does not fit.
pub fn reduced_column(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
) -> Option<u16> {
    let (bw, bh) = BoardWidget::size(theme);
    if area.width < bw || area.height < bh + 1 {
        return None;
    }
    let pos = app.position();
    let handicap = app.record().initial.is_handicap_game();
    let (top, bottom) = top_bottom(app);
    let w = area.width as usize;
    let mut spare = area.height - bh - 1;
    // What goes above and below the board, most wanted first: the hands, then the names.
    let mut above: Vec<Line<'static>> = Vec::new();
    let mut below: Vec<Line<'static>> = Vec::new();
    for (c, upper) in [(top, true), (bottom, false)] {
        let lines = wrap(&hand_text(pos, c, handicap), w);
        if lines.len() as u16 <= spare {
            spare -= lines.len() as u16;
            let lines = lines.into_iter().map(Line::raw);
            if upper {
                above.extend(lines)
            } else {
                below.extend(lines)
            }
        }
    }
    for (c, upper) in [(top, true), (bottom, false)] {
        if spare > 0 {
            spare -= 1;
            let line = name_line(app, c, w, theme);
            if upper {
                above.insert(0, line)
            } else {
                below.push(line)
            }
        }
    }
    let mut y = area.y;
    for line in &above {
        buf.set_line(area.x, y, line, area.width);
        y += 1;
    }
    (&widget_for(app, theme)).render(Rect::new(area.x, y, bw, bh), buf);
    vs.board_squares = Rect::new(area.x + 1, y + if theme.coordinates { 2 } else { 1 }, 27, 9);
    vs.board_cell = (3, 1);
    y += bh;
    for line in below.iter().chain([&move_line(app, theme)]) {
        buf.set_line(area.x, y, line, area.width);
        y += 1;
    }
    Some(y - area.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rules::Move;

    fn render(pos: &Position, flipped: bool, last: Option<Square>) -> Buffer {
        let theme = Theme::plain();
        let mut buf = Buffer::empty(Rect::new(0, 0, 31, 12));
        let w = BoardWidget {
            position: pos,
            last_to: last,
            last_from: None,
            flipped,
            theme: &theme,
            marks: None,
            best: None,
        };
        (&w).render(buf.area, &mut buf);
        buf
    }

    #[test]
    fn start_position_is_a_bod_diagram() {
        let buf = render(&Position::startpos(), false, None);
        let expected = Buffer::with_lines([
            "  ９ ８ ７ ６ ５ ４ ３ ２ １",
            "+---------------------------+",
            "|v香v桂v銀v金v玉v金v銀v桂v香|一",
            "| ・v飛 ・ ・ ・ ・ ・v角 ・|二",
            "|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三",
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四",
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五",
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六",
            "| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七",
            "| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八",
            "| 香 桂 銀 金 玉 金 銀 桂 香|九",
        ]);
        // Compare symbols only (styles differ).
        for y in 0..11 {
            for x in 0..31 {
                assert_eq!(
                    buf[(x, y)].symbol(),
                    expected[(x, y)].symbol(),
                    "cell {x},{y}"
                );
            }
        }
    }

    #[test]
    fn every_row_lines_up_column_exactly() {
        let mut pos = Position::startpos();
        pos.play(Move::from_usi("7g7f").unwrap()).unwrap();
        let buf = render(&pos, true, Some(Square::new(7, 6).unwrap()));
        for y in 2..11u16 {
            // Frame columns are at 0 and 28, the rank kanji at 29, in every row.
            assert_eq!(buf[(0, y)].symbol(), "|");
            assert_eq!(buf[(28, y)].symbol(), "|");
            assert!(!buf[(29, y)].symbol().trim().is_empty());
            // Every piece or dot starts at a column 2 + 3k and is two cells wide.
            for col in 0..9u16 {
                let s = buf[(2 + 3 * col, y)].symbol();
                assert_eq!(
                    unicode_width::UnicodeWidthStr::width(s),
                    2,
                    "{s} at {col},{y}"
                );
            }
        }
        // Flipped: file 1 on the left, rank 九 at the top, sente's pieces upside up.
        assert_eq!(buf[(2, 0)].symbol(), "１");
        assert_eq!(buf[(29, 2)].symbol(), "九");
        assert_eq!(buf[(1, 2)].symbol(), " ");
        assert_eq!(buf[(2, 2)].symbol(), "香");
        assert_eq!(buf[(1, 10)].symbol(), "v");
        // The last move's square is highlighted (underlined without colours).
        let sq76 = (1 + 3 * 6, 2 + 3);
        assert_eq!(buf[(sq76.0 + 1, sq76.1)].symbol(), "歩");
        assert!(
            buf[(sq76.0 + 1, sq76.1)]
                .modifier
                .contains(ratatui::style::Modifier::UNDERLINED)
        );
    }

    #[test]
    fn hands_in_bod_form() {
        let mut pos = Position::startpos();
        assert_eq!(hand_text(&pos, Color::White, false), "後手の持駒：なし");
        let (r, b, p) = (
            crate::core::rules::PieceKind::Rook,
            crate::core::rules::PieceKind::Bishop,
            crate::core::rules::PieceKind::Pawn,
        );
        pos.set_hand_count(Color::White, p, 4);
        pos.set_hand_count(Color::White, b, 1);
        pos.set_hand_count(Color::White, r, 1);
        assert_eq!(
            hand_text(&pos, Color::White, false),
            "後手の持駒：飛　角　歩四"
        );
        assert_eq!(hand_text(&pos, Color::Black, true), "下手の持駒：なし");
    }
}
