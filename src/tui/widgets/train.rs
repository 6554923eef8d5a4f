//! The solve mode's pane beside the board (`kifview train`): the problem's title, whose move
//! it is and the clock, the verdict, the answer, where the problem is from, the session's
//! tally. The text is the app's (`TrainScreen::lines`); this lays it out.

use crate::app::App;
use crate::app::train::TrainLine;
use crate::tui::draw::block;
use crate::tui::text::{clean, wrap};
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;
use std::time::Instant;

/// Draws the pane.
pub fn train_pane(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    if area.height < 3 || area.width < 4 {
        return;
    }
    let b = block("練習".to_string(), true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    let mut y = inner.y;
    for line in app.train_lines(Instant::now()) {
        let (text, style) = match &line {
            TrainLine::Title(t) => (t, Style::new().add_modifier(Modifier::BOLD)),
            TrainLine::Plain(t) => (t, Style::new()),
            TrainLine::Right(t) => (t, theme.best_move.add_modifier(Modifier::BOLD)),
            TrainLine::Wrong(t) => (t, theme.error),
            TrainLine::Dim(t) => (t, theme.dim),
        };
        if text.is_empty() {
            y += 1;
            continue;
        }
        let rows = wrap(&clean(text, theme.double), inner.width as usize);
        for r in rows
            .iter()
            .take(usize::from(inner.bottom().saturating_sub(y)))
        {
            buf.set_stringn(inner.x, y, r, inner.width as usize, style);
            y += 1;
        }
        if y >= inner.bottom() {
            break;
        }
    }
}
