//! The copy menu and the paste prompt overlays.

use crate::app::share::COPY_CHOICES;
use crate::app::{App, Command, KeyMode};
use crate::core::notation::Format;
use crate::tui::text::{clean, fit, truncate, width};
use crate::tui::theme::Theme;
use crate::tui::ui::{ViewState, block, clear};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

/// The keys bound to `cmd` in `mode`, as `a/b` (empty when unbound).
fn keys_for(app: &App, mode: KeyMode, cmd: Command) -> String {
    app.config
        .keymap
        .bindings(mode)
        .into_iter()
        .find(|(c, _)| *c == cmd)
        .map(|(_, keys)| {
            keys.iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join("/")
        })
        .unwrap_or_default()
}

fn centered(main: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(main.width.saturating_sub(2));
    let h = h.min(main.height.saturating_sub(2));
    Rect::new(
        main.x + (main.width - w) / 2,
        main.y + (main.height - h) / 2,
        w,
        h,
    )
}

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
    let b = block("Copy to the clipboard".into(), true, theme);
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

/// `p` / `:paste`: the text pasted or typed so far (its last lines), what it looks like, and
/// the keys that open or cancel it.
pub fn paste_prompt(main: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
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
    let text = &app.share.paste;
    let info = if text.trim().is_empty() {
        "Paste (or type) KIF, KI2, CSA, SFEN, `position startpos moves …`, a BOD diagram or JKF"
            .to_string()
    } else {
        let lines = text.lines().count();
        format!(
            "{lines} line{} · looks like {}",
            if lines == 1 { "" } else { "s" },
            Format::detect(text).name()
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
