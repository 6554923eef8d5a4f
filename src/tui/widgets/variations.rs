//! The variation pane: the alternatives at the fork nearest the current move.

use crate::app::App;
use crate::app::Focus;
use crate::tui::draw::block;
use crate::tui::text::{clean, fit};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

/// The alternatives at the nearest fork, the chosen one highlighted.
pub fn variations(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let alts = app.alternatives();
    let title = match alts {
        Some((fork, sel)) => format!(
            "変化 {}手目 {}/{}",
            app.record().move_number(fork) + 1,
            sel + 1,
            app.record().node(fork).children.len()
        ),
        None => "変化".to_string(),
    };
    let b = block(title, app.focus() == Focus::Variations, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.variations_area = inner;
    let Some((fork, sel)) = alts else {
        buf.set_string(inner.x, inner.y, "なし", theme.dim);
        return;
    };
    let children = &app.record().node(fork).children;
    let h = inner.height as usize;
    if h == 0 {
        return;
    }
    if sel < vs.variations_offset {
        vs.variations_offset = sel;
    } else if sel >= vs.variations_offset + h {
        vs.variations_offset = sel + 1 - h;
    }
    vs.variations_offset = vs.variations_offset.min(children.len().saturating_sub(h));
    for (row, i) in (vs.variations_offset..children.len().min(vs.variations_offset + h)).enumerate()
    {
        let id = children[i];
        vs.variation_nodes.push(id);
        let text = format!(
            "{}{}",
            if i == 0 { "本 " } else { "   " },
            app.step_text(id)
        );
        let text = fit(&clean(&text, theme.double), inner.width as usize);
        let y = inner.y + row as u16;
        let style = if i == sel {
            theme.selection
        } else {
            Style::new()
        };
        buf.set_string(inner.x, y, text, style);
    }
}
