//! Styles from the configured colours. With colours off (`NO_COLOR`) only modifiers are
//! used, so everything stays readable.

use crate::app::config::{BoardStyle, ColorSpec, Config};
use ratatui::style::{Color, Modifier, Style};

/// The resolved styles the widgets use.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    pub color: bool,
    /// Draw ambiguous characters as two cells and use ASCII borders.
    pub double: bool,
    /// Mark gote's pieces with `v`.
    pub gote_mark: bool,
    pub coordinates: bool,
    pub black_piece: Style,
    pub white_piece: Style,
    pub last_move: Style,
    pub check: Style,
    pub selection: Style,
    pub border: Style,
    pub focus_border: Style,
    pub dim: Style,
    pub variation_mark: Style,
    pub warning: Style,
    pub error: Style,
    /// The engine's best move (from and to squares).
    pub best_move: Style,
}

fn fg(c: ColorSpec) -> Style {
    match c {
        ColorSpec::Reset => Style::new(),
        ColorSpec::Reversed => Style::new().add_modifier(Modifier::REVERSED),
        ColorSpec::Named(n) => Style::new().fg(named(n)),
        ColorSpec::Indexed(n) => Style::new().fg(Color::Indexed(n)),
        ColorSpec::Rgb(r, g, b) => Style::new().fg(Color::Rgb(r, g, b)),
    }
}

fn bg(c: ColorSpec) -> Style {
    match c {
        ColorSpec::Reset => Style::new(),
        ColorSpec::Reversed => Style::new().add_modifier(Modifier::REVERSED),
        ColorSpec::Named(n) => Style::new().bg(named(n)).fg(Color::Black),
        ColorSpec::Indexed(n) => Style::new().bg(Color::Indexed(n)).fg(Color::Black),
        ColorSpec::Rgb(r, g, b) => Style::new().bg(Color::Rgb(r, g, b)).fg(Color::Black),
    }
}

fn named(n: u8) -> Color {
    const C: [Color; 16] = [
        Color::Black,
        Color::Red,
        Color::Green,
        Color::Yellow,
        Color::Blue,
        Color::Magenta,
        Color::Cyan,
        Color::Gray,
        Color::DarkGray,
        Color::LightRed,
        Color::LightGreen,
        Color::LightYellow,
        Color::LightBlue,
        Color::LightMagenta,
        Color::LightCyan,
        Color::White,
    ];
    C[(n as usize).min(15)]
}

impl Theme {
    /// `color`: false when `NO_COLOR` is set; `double`: ambiguous characters take two cells.
    pub fn new(config: &Config, color: bool, double: bool) -> Theme {
        let c = &config.colors;
        let gote_mark = !color || config.board_style == BoardStyle::Bod;
        if !color {
            let m = |m: Modifier| Style::new().add_modifier(m);
            return Theme {
                color,
                double,
                gote_mark,
                coordinates: config.coordinates,
                black_piece: Style::new(),
                white_piece: Style::new(),
                last_move: m(Modifier::UNDERLINED | Modifier::BOLD),
                check: m(Modifier::REVERSED | Modifier::BOLD),
                selection: m(Modifier::REVERSED),
                border: Style::new(),
                focus_border: m(Modifier::BOLD),
                dim: Style::new(),
                variation_mark: m(Modifier::BOLD),
                warning: m(Modifier::BOLD),
                error: m(Modifier::BOLD),
                best_move: m(Modifier::ITALIC | Modifier::UNDERLINED),
            };
        }
        Theme {
            color,
            double,
            gote_mark,
            coordinates: config.coordinates,
            black_piece: fg(c.black_piece),
            white_piece: fg(c.white_piece),
            last_move: bg(c.last_move),
            check: bg(c.check).add_modifier(Modifier::BOLD),
            selection: bg(c.selection),
            border: fg(c.border),
            focus_border: fg(c.focus_border).add_modifier(Modifier::BOLD),
            dim: fg(c.dim),
            variation_mark: fg(c.variation_mark).add_modifier(Modifier::BOLD),
            warning: fg(c.warning),
            error: fg(c.error).add_modifier(Modifier::BOLD),
            best_move: bg(c.best_move),
        }
    }
    /// Plain defaults (for tests).
    pub fn plain() -> Theme {
        Theme::new(&Config::defaults(), false, false)
    }
}
