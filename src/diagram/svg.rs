//! The SVG of a [`Diagram`]: board lines and marks as shapes (no font needed), every word as
//! text in one font stack. Coordinates are whole user units (a square is 40 wide, 44 high);
//! `size` only sets the width and height attributes, so one layout serves every size.

use super::{Diagram, Side, Theme, hand_text};
use crate::core::rules::{Color, Square};
use std::fmt::Write;

/// The fonts tried after the theme's: the bundled one first (its family name), then common
/// Japanese mincho and gothic fonts of each system, then any serif font.
pub const FONT_STACK: &str = "'Noto Serif CJK JP', 'Source Han Serif JP', 'Hiragino Mincho ProN', \
'Yu Mincho', 'YuMincho', 'MS Mincho', 'IPAexMincho', 'IPAMincho', 'Noto Sans CJK JP', \
'Hiragino Sans', 'Yu Gothic', 'Meiryo', serif";

const MARGIN: i32 = 12;
const SQ_W: i32 = 40;
const SQ_H: i32 = 44;
const BOARD_W: i32 = 9 * SQ_W;
const BOARD_H: i32 = 9 * SQ_H;
/// The rank column right of the board.
const RANK_W: i32 = 24;
const LINE_H: i32 = 30;
const LABEL_H: i32 = 22;
const PIECE_SIZE: i32 = 32;
const LINE_SIZE: i32 = 19;
const LABEL_SIZE: i32 = 16;
/// Text is placed by its baseline: a CJK glyph's middle is 0.38 em above it.
const fn centre_to_baseline(size: i32) -> i32 {
    size * 38 / 100
}

/// The width and height of the layout in user units.
pub fn extent(d: &Diagram) -> (i32, i32) {
    let mut h = MARGIN + LINE_H + LABEL_H + BOARD_H + 6 + LINE_H;
    if !d.piece_box.is_empty() {
        h += LINE_H;
    }
    if d.caption.is_some() {
        h += LINE_H;
    }
    (MARGIN + BOARD_W + RANK_W + MARGIN, h + MARGIN)
}

/// The SVG document. `width`: the picture's width in pixels (default: one pixel per unit).
pub fn write(d: &Diagram, theme: &Theme, width: Option<u32>) -> String {
    let (w, h) = extent(d);
    let (pw, ph) = match width {
        Some(px) => (px as f64, px as f64 * h as f64 / w as f64),
        None => (w as f64, h as f64),
    };
    let mut font = theme.piece_font.trim().to_string();
    if !font.is_empty() {
        font.push_str(", ");
    }
    font.push_str(FONT_STACK);
    let mut s = String::with_capacity(8 * 1024);
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {w} {h}\" font-family=\"{}\">",
        num(pw),
        num(ph),
        esc(&font)
    );
    let _ = writeln!(
        s,
        "<rect width=\"{w}\" height=\"{h}\" fill=\"{}\"/>",
        esc(&theme.background)
    );
    let top = MARGIN + LINE_H + LABEL_H;
    // The side at the top: gote, or sente when flipped.
    let (upper, lower) = if d.flip {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    side_line(&mut s, d, upper, MARGIN, theme);
    board(&mut s, d, top, theme);
    let mut y = top + BOARD_H + 6;
    side_line(&mut s, d, lower, y, theme);
    y += LINE_H;
    if !d.piece_box.is_empty() {
        let text = format!("駒箱 {}", hand_text(&d.piece_box));
        text_line(&mut s, &text, y, theme);
        y += LINE_H;
    }
    if let Some(c) = &d.caption {
        text_line(&mut s, c, y, theme);
    }
    s.push_str("</svg>\n");
    s
}

/// The board: squares, the last move's mark, the grid, star points, labels and pieces.
fn board(s: &mut String, d: &Diagram, top: i32, theme: &Theme) {
    let left = MARGIN;
    let _ = writeln!(
        s,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{BOARD_W}\" height=\"{BOARD_H}\" fill=\"{}\"/>",
        esc(&theme.board)
    );
    if theme.mark_last_move
        && let Some(sq) = d.last_to
    {
        let (c, r) = cell(sq, d.flip);
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{SQ_W}\" height=\"{SQ_H}\" fill=\"{}\"/>",
            left + c * SQ_W,
            top + r * SQ_H,
            esc(&theme.highlight)
        );
    }
    let mut path = String::new();
    for i in 1..9 {
        let x = left + i * SQ_W;
        let y = top + i * SQ_H;
        let _ = write!(path, "M{x} {top}v{BOARD_H}M{left} {y}h{BOARD_W}");
    }
    let line = esc(&theme.line);
    let _ = writeln!(
        s,
        "<path d=\"{path}\" stroke=\"{line}\" stroke-width=\"1\" fill=\"none\"/>"
    );
    let _ = writeln!(
        s,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{BOARD_W}\" height=\"{BOARD_H}\" stroke=\"{line}\" stroke-width=\"2.5\" fill=\"none\"/>"
    );
    let _ = write!(s, "<g fill=\"{line}\">");
    for (i, j) in [(3, 3), (6, 3), (3, 6), (6, 6)] {
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"3\"/>",
            left + i * SQ_W,
            top + j * SQ_H
        );
    }
    s.push_str("</g>\n");
    labels(s, d.flip, top, theme);
    pieces(s, d, top, theme);
}

/// ９…１ above the board and 一…九 on its right (reversed when flipped).
fn labels(s: &mut String, flip: bool, top: i32, theme: &Theme) {
    const FILES: [char; 9] = ['９', '８', '７', '６', '５', '４', '３', '２', '１'];
    const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let _ = write!(
        s,
        "<g font-size=\"{LABEL_SIZE}\" text-anchor=\"middle\" fill=\"{}\">",
        esc(&theme.text)
    );
    let file_y = top - LABEL_H / 2 + centre_to_baseline(LABEL_SIZE);
    for i in 0..9 {
        let k = if flip { 8 - i } else { i };
        let x = MARGIN + i as i32 * SQ_W + SQ_W / 2;
        let _ = write!(s, "<text x=\"{x}\" y=\"{file_y}\">{}</text>", FILES[k]);
    }
    let rank_x = MARGIN + BOARD_W + RANK_W / 2;
    for i in 0..9 {
        let k = if flip { 8 - i } else { i };
        let y = top + i as i32 * SQ_H + SQ_H / 2 + centre_to_baseline(LABEL_SIZE);
        let _ = write!(s, "<text x=\"{rank_x}\" y=\"{y}\">{}</text>", RANKS[k]);
    }
    s.push_str("</g>\n");
}

/// Each piece's kanji in its square, gote's turned 180° about the square's middle (sente's
/// when flipped), promoted pieces in the theme's colour.
fn pieces(s: &mut String, d: &Diagram, top: i32, theme: &Theme) {
    let _ = writeln!(
        s,
        "<g font-size=\"{PIECE_SIZE}\" text-anchor=\"middle\" fill=\"{}\">",
        esc(&theme.text)
    );
    let promoted = esc(&theme.promoted);
    for sq in Square::all() {
        let Some(p) = d.position.piece_at(sq) else {
            continue;
        };
        let (c, r) = cell(sq, d.flip);
        let cx = MARGIN + c * SQ_W + SQ_W / 2;
        let cy = top + r * SQ_H + SQ_H / 2;
        let y = cy + centre_to_baseline(PIECE_SIZE);
        s.push_str("<text");
        if (p.color == Color::White) != d.flip {
            let _ = write!(s, " transform=\"rotate(180 {cx} {cy})\"");
        }
        if p.kind.is_promoted() {
            let _ = write!(s, " fill=\"{promoted}\"");
        }
        let _ = writeln!(s, " x=\"{cx}\" y=\"{y}\">{}</text>", p.kind.board_char());
    }
    s.push_str("</g>\n");
}

/// A side's line: `▲先手 NAME　持駒 飛 角 歩三`, its top at `y`.
fn side_line(s: &mut String, d: &Diagram, color: Color, y: i32, theme: &Theme) {
    let Side { label, name } = &d.sides[color.index()];
    let mut text = format!("{}{label}", color.mark());
    if let Some(n) = name {
        text.push(' ');
        text.push_str(&shorten(n, 16));
    }
    text.push_str("　持駒 ");
    text.push_str(&hand_text(&d.position.hand(color)));
    text_line(s, &text, y, theme);
}

/// One line of text, its top at `y`, from the board's left edge, made smaller when it would
/// not fit the board's and labels' width.
fn text_line(s: &mut String, text: &str, y: i32, theme: &Theme) {
    let room = f64::from(BOARD_W + RANK_W);
    let ems = text_ems(text);
    let size = if ems * f64::from(LINE_SIZE) > room {
        (room / ems).max(8.0)
    } else {
        f64::from(LINE_SIZE)
    };
    let baseline = f64::from(y + LINE_H / 2) + size * 0.38;
    let _ = writeln!(
        s,
        "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"{}\" fill=\"{}\">{}</text>",
        num(baseline),
        num(size),
        esc(&theme.text),
        esc(text)
    );
}

/// The column and row (0..9, from the top left) where `sq` is drawn.
fn cell(sq: Square, flip: bool) -> (i32, i32) {
    let (f, r) = (i32::from(sq.file()), i32::from(sq.rank()));
    if flip { (f - 1, 9 - r) } else { (9 - f, r - 1) }
}

/// About how many ems `text` takes: a wide character one, others a half.
fn text_ems(text: &str) -> f64 {
    use unicode_width::UnicodeWidthChar;
    text.chars()
        .map(|c| c.width().unwrap_or(0) as f64 / 2.0)
        .sum()
}

/// At most `max` characters, the last one `…` when cut.
fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// A number with at most one decimal (`12`, `12.5`).
fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Text or a double-quoted attribute value escaped for XML.
pub(crate) fn esc(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains(['&', '<', '>', '"']) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),

            c => out.push(c),
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_from_files_is_escaped_and_shortened() {
        assert_eq!(esc("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c'");
        assert_eq!(shorten("一二三", 3), "一二三");
        assert_eq!(shorten("一二三四", 3), "一二…");
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.25), "12.3");
    }
}
