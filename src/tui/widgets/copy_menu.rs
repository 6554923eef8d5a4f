//! The copy menu (`y`): what can be copied, each with its key.

use crate::app::document::clipboard::COPY_CHOICES;
use crate::app::{App, Command, KeyMode};
use crate::tui::draw::{block, centered, clear, keys_for};
use crate::tui::text::{clean, fit, truncate, width};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

/// `y`: what can be copied, each with its key.
pub fn copy_menu(main: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let d = theme.double;
    let mut rows: Vec<(String, &str)> = COPY_CHOICES
        .iter()
        .map(|&(c, label)| (keys_for(app, KeyMode::Copy, c), label))
        .collect();
    let close = keys_for(app, KeyMode::Copy, Command::Close);
    let key_w = rows.iter().map(|(k, _)| width(k)).max().unwrap_or(1).max(1);
    rows.retain(|(k, _)| !k.is_empty());
    let notes = [
        format!("{close}: close"),
        "Copies through the terminal (OSC 52), also over SSH;".to_string(),
        "in tmux: set -g set-clipboard on".to_string(),
    ];
    let h = rows.len() as u16 + notes.len() as u16 + 3;
    let area = centered(main, 56, h);
    clear(area, buf);
    let b = block(
        "Copy to the clipboard, or save a picture".into(),
        true,
        theme,
    );
    let inner = b.inner(area);
    b.render(area, buf);
    vs.overlay_area = inner;
    let w = inner.width as usize;
    let mut y = inner.y;
    for (keys, label) in &rows {
        if y >= inner.bottom() {
            return;
        }
        let k = fit(&clean(keys, d), key_w);
        buf.set_string(
            inner.x + 1,
            y,
            &k,
            theme.variation_mark.add_modifier(Modifier::BOLD),
        );
        let x = inner.x + 1 + width(&k) as u16 + 2;
        let room = w.saturating_sub(width(&k) + 3);
        buf.set_string(x, y, truncate(&clean(label, d), room), Style::new());
        y += 1;
    }
    y += 1;
    for n in &notes {
        if y >= inner.bottom() {
            return;
        }
        buf.set_string(
            inner.x + 1,
            y,
            truncate(&clean(n, d), w.saturating_sub(1)),
            theme.dim,
        );
        y += 1;
    }
}
