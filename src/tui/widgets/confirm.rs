//! A question with what it is about (what would be lost, which characters) and the answers.

use crate::app::overlay::confirm::Confirm;
use crate::tui::draw::{block, clear, overlay_rect, scrolled_text};
use crate::tui::text::{clean, wrap};
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

/// A question with what it is about (what would be lost, which characters) and the answers.
pub fn confirm_overlay(main: Rect, buf: &mut Buffer, q: &Confirm, theme: &Theme) {
    let mut lines = vec![q.question.clone()];
    lines.extend(q.details.iter().cloned());
    lines.push(String::new());
    for (k, what) in &q.answers {
        lines.push(format!("  {k}: {what}"));
    }
    let area = overlay_rect(main, 76);
    let inner_w = area.width.saturating_sub(2) as usize;
    let wrapped: Vec<String> = lines
        .iter()
        .flat_map(|l| wrap(&clean(l, theme.double), inner_w))
        .collect();
    let h = (wrapped.len() as u16 + 2).min(area.height);
    let area = Rect {
        y: main.y + (main.height.saturating_sub(h)) / 2,
        height: h,
        ..area
    };
    clear(area, buf);
    let b = block("確認".to_string(), true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    scrolled_text(inner, buf, &wrapped, 0, Style::new());
}
