//! The editor's widgets: the comment editor, prompts and questions on the status line, and
//! the list and question overlays.

use crate::app::{App, Level, Mode};
use crate::tui::text::{clean, fit, is_ambiguous, width, wrap};
use crate::tui::theme::Theme;
use crate::tui::ui::{ViewState, block, clear, overlay_rect, scrolled_text};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthChar;

/// Cells a character takes on screen.
fn cells(c: char, double: bool) -> usize {
    let c = crate::app::text::sanitize(&c.to_string())
        .chars()
        .next()
        .unwrap_or(' ');
    if double && is_ambiguous(c) {
        2
    } else {
        c.width().unwrap_or(0)
    }
}

/// One screen row of the editor: which line, from which character, and its text.
struct Row {
    line: usize,
    start: usize,
    chars: Vec<char>,
}

/// Wraps `lines` to `w` cells, breaking anywhere (the text is mostly Japanese).
fn rows(lines: &[String], w: usize, double: bool) -> Vec<Row> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let mut row = Row {
            line: i,
            start: 0,
            chars: Vec::new(),
        };
        let mut used = 0;
        for (k, c) in l.chars().enumerate() {
            let cw = cells(c, double);
            if used + cw > w && !row.chars.is_empty() {
                out.push(std::mem::replace(
                    &mut row,
                    Row {
                        line: i,
                        start: k,
                        chars: Vec::new(),
                    },
                ));
                used = 0;
            }
            row.chars.push(c);
            used += cw;
        }
        out.push(row);
    }
    out
}

/// Draws the comment being edited into the comment pane's inner area and places the cursor.
/// Returns false when no comment is being edited.
pub fn comment_editor(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
) -> bool {
    let Some(ed) = app
        .edit
        .comment
        .as_ref()
        .filter(|_| app.mode == Mode::Comment)
    else {
        return false;
    };
    let (w, h) = (area.width as usize, area.height as usize);
    if w < 2 || h == 0 {
        return true;
    }
    let d = theme.double;
    let rows = rows(ed.editor.lines(), w, d);
    let (crow, ccol) = ed.editor.cursor();
    // The cursor's screen row: the last row of its line that starts at or before it.
    let mut vrow = 0;
    let mut x = 0;
    for (i, r) in rows.iter().enumerate() {
        if r.line == crow && r.start <= ccol {
            vrow = i;
            x = r.chars[..(ccol - r.start).min(r.chars.len())]
                .iter()
                .map(|&c| cells(c, d))
                .sum();
        }
    }
    if x >= w {
        vrow += 1;
        x = 0;
    }
    let offset = (vrow + 1).saturating_sub(h);
    for (i, r) in rows.iter().skip(offset).take(h).enumerate() {
        let text: String = r.chars.iter().collect();
        buf.set_stringn(area.x, area.y + i as u16, clean(&text, d), w, Style::new());
    }
    vs.cursor = Some((area.x + x as u16, area.y + (vrow - offset) as u16));
    true
}

/// Prompts and questions on the status line. Returns false when there is none.
pub fn prompt_line(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
) -> bool {
    let d = theme.double;
    let w = area.width as usize;
    let (text, cursor_at) = match app.mode {
        Mode::Prompt => {
            let Some(p) = &app.edit.prompt else {
                return false;
            };
            let t = clean(&format!("{}{}", p.label, p.text), d);
            let n = width(&t);
            (t, Some(n))
        }
        Mode::Confirm => {
            let Some(q) = &app.edit.confirm else {
                return false;
            };
            let answers: Vec<String> = q
                .answers
                .iter()
                .map(|(k, what)| format!("{k}: {what}"))
                .collect();
            (
                clean(&format!("{}  {}", q.question, answers.join("  ")), d),
                None,
            )
        }
        _ => return false,
    };
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
    let mut spans = vec![Span::raw(text.clone())];
    if let (Mode::Prompt, Some(m)) = (app.mode, &app.message) {
        let style = match m.level {
            Level::Info => Style::new(),
            Level::Warning => theme.warning,
            Level::Error => theme.error,
        };
        spans.push(Span::styled(format!("   {}", clean(&m.text, d)), style));
    }
    buf.set_line(area.x, area.y, &Line::from(spans), area.width);
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
    if let Some(n) = cursor_at {
        vs.cursor = Some((area.x + n.min(w.saturating_sub(1)) as u16, area.y));
    }
    true
}

/// A list overlay: bookmarks, endings or header fields.
pub fn list_overlay(main: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let Some(l) = &app.edit.list else {
        return;
    };
    let area = overlay_rect(main, 80);
    let area = Rect {
        height: area.height.min(l.items.len().max(1) as u16 + 2),
        ..area
    };
    clear(area, buf);
    let b = block(l.title.clone(), true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.overlay_area = inner;
    let h = inner.height as usize;
    if h == 0 {
        return;
    }
    if l.items.is_empty() {
        buf.set_string(inner.x, inner.y, "なし (a adds)", theme.dim);
        return;
    }
    let offset = (l.selected + 1).saturating_sub(h);
    for (row, (i, item)) in l.items.iter().enumerate().skip(offset).take(h).enumerate() {
        let text = fit(&clean(item, theme.double), inner.width as usize);
        let style = if i == l.selected {
            theme.selection
        } else {
            Style::new()
        };
        buf.set_string(inner.x, inner.y + row as u16, text, style);
    }
}

/// A question with what it is about (what would be lost, which characters) and the answers.
pub fn confirm_overlay(main: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let Some(q) = &app.edit.confirm else {
        return;
    };
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
