//! The paste prompt (`p`, `:paste`): the text so far, what it looks like, the keys.

use crate::app::overlay::PasteBox;
use crate::app::{App, Command, KeyMode};
use crate::core::notation::Format;
use crate::tui::draw::{block, clear, keys_for};
use crate::tui::text::{clean, fit, truncate, width};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

/// `p` / `:paste`: the text pasted or typed so far (its last lines), what it looks like, and
/// the keys that open or cancel it.
pub fn paste_prompt(
    main: Rect,
    buf: &mut Buffer,
    app: &App,
    p: &PasteBox,
    theme: &Theme,
    vs: &mut ViewState,
) {
    let d = theme.double;
    let area = {
        let w = main.width.saturating_sub(4).min(96);
        let h = main.height.saturating_sub(2);
        Rect::new(
            main.x + (main.width - w) / 2,
            main.y + (main.height - h) / 2,
            w,
            h,
        )
    };
    clear(area, buf);
    let submit = keys_for(app, KeyMode::Paste, Command::Submit);
    let cancel = keys_for(app, KeyMode::Paste, Command::Cancel);
    let title = format!("Paste a record  {submit}: open  {cancel}: cancel");
    let b = block(title, true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.overlay_area = inner;
    if inner.height < 2 {
        return;
    }
    let w = inner.width as usize;
    let text = &p.text;
    let info = if text.trim().is_empty() {
        "Paste (or type) KIF, KI2, CSA, SFEN, `position startpos moves …`, a BOD diagram or JKF"
            .to_string()
    } else {
        let lines = text.lines().count();
        let looks = match Format::detect_record(text) {
            Some(f) => format!("looks like {}", f.name()),
            None => "nothing here looks like a record".to_string(),
        };
        format!(
            "{lines} line{} · {looks}",
            if lines == 1 { "" } else { "s" }
        )
    };
    buf.set_string(inner.x, inner.y, fit(&clean(&info, d), w), theme.dim);
    let body = Rect::new(inner.x, inner.y + 1, inner.width, inner.height - 1);
    let lines: Vec<&str> = text.split('\n').collect();
    let h = body.height as usize;
    let first = lines.len().saturating_sub(h);
    for (row, l) in lines[first..].iter().enumerate() {
        let shown = truncate(&clean(l, d), w.saturating_sub(1));
        let y = body.y + row as u16;
        buf.set_string(body.x, y, &shown, Style::new());
        if first + row + 1 == lines.len() {
            // The cursor: where the next character goes.
            let x = body.x + width(&shown) as u16;
            if x < body.right() {
                buf.set_string(x, y, " ", Style::new().add_modifier(Modifier::REVERSED));
            }
        }
    }
}
