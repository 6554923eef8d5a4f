//! The status line: file, format, [+], messages; or the `:` line, a prompt, a question.

use crate::app::{App, Level, Mode, Overlay};
use crate::tui::text::{clean, fit, width};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// The status line, or what the top overlay asks on it (the `:` line, a prompt, a question).
pub fn status_line(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let d = theme.double;
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
    if prompt_line(area, buf, app, theme, vs) {
        return;
    }
    let doc = &app.doc;
    let mut left = clean(&doc.name, d);
    if doc.record_count > 1 {
        left.push_str(&format!(" ({}/{})", doc.record_index + 1, doc.record_count));
    }
    if let (Some(f), Some(info)) = (doc.format, doc.info) {
        left.push_str(&format!(" {} {}", f.name(), info.encoding.name()));
        if info.bom {
            left.push_str(" BOM");
        }
        if info.newline == crate::core::notation::Newline::CrLf {
            left.push_str(" CRLF");
        }
    }
    if app.is_modified() {
        left.push_str(" [+]");
    }
    if app.watch.is_some() {
        left.push_str(" [watch]");
    }
    let mut spans = vec![Span::raw(format!(" {left} "))];
    if !doc.warnings.is_empty() {
        let n = doc.warnings.len();
        spans.push(Span::styled(
            format!(" {n} warning{} ", if n == 1 { "" } else { "s" }),
            theme.warning.add_modifier(Modifier::REVERSED),
        ));
    }
    if let Some(m) = &app.message {
        let style = match m.level {
            Level::Info => Style::new(),
            Level::Warning => theme.warning,
            Level::Error => theme.error,
        };
        spans.push(Span::styled(format!(" {}", clean(&m.text, d)), style));
    }
    let help = " ?:help ";
    let used: usize = spans.iter().map(|s| width(&s.content)).sum();
    let avail = area.width as usize;
    buf.set_line(area.x, area.y, &Line::from(spans), area.width);
    if used + help.len() < avail {
        buf.set_string(area.right() - help.len() as u16, area.y, help, Style::new());
    }
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
}

/// Prompts, questions and the `:` line on the status line. Returns false when there is none.
fn prompt_line(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) -> bool {
    let d = theme.double;
    let w = area.width as usize;
    let (text, cursor_at) = match app.overlays.top() {
        Some(Overlay::CommandLine(line)) => {
            let t = format!(":{}", clean(&line.text, d));
            if app.message.is_none() {
                // Only the line (the terminal cursor is placed by `ui::draw`).
                buf.set_stringn(area.x, area.y, fit(&t, w), w, Style::new());
                return true;
            }
            (t, None)
        }
        Some(Overlay::Prompt(p)) => {
            let t = clean(&format!("{}{}", p.label, p.text), d);
            let n = width(&t);
            (t, Some(n))
        }
        Some(Overlay::Confirm(q)) => {
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
        // The others draw elsewhere; the status line shows the file and the message.
        Some(
            Overlay::List(_)
            | Overlay::CommentEditor(_)
            | Overlay::BoardInput(_)
            | Overlay::Tree { .. }
            | Overlay::Help { .. }
            | Overlay::Warnings { .. }
            | Overlay::CopyMenu
            | Overlay::Paste(_)
            | Overlay::PositionEditor(_),
        )
        | None => return false,
    };
    let typing = matches!(app.mode(), Mode::Prompt | Mode::CommandLine);
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
    let mut spans = vec![Span::raw(text.clone())];
    if let (true, Some(m)) = (typing, &app.message) {
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
