//! The status line: file, format, [+], messages; or the `:` line, a prompt, a question.

use crate::app::{App, Level, Mode, Overlay};
use crate::tui::text::{clean, fit, truncate, width, wrap_hanging};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// Rows the status line needs at this width: when a message does not fit beside the file name
/// it gets rows of its own below it (up to three) instead of being cut off.
pub fn status_height(app: &App, theme: &Theme, width_cells: u16) -> u16 {
    // A question wraps onto as many rows as it needs (at most four): its answers must show.
    if let Some(Overlay::Confirm(q)) = app.overlays().top() {
        let text = question_text(q, theme.double);
        return wrap_hanging(&text, width_cells as usize, 2)
            .len()
            .clamp(1, 4) as u16;
    }
    // A message beside the line being typed that does not fit after it: on rows below.
    if let Some((text, _)) = prompt_text(app, theme.double) {
        return match typing_message(app, theme.double) {
            Some(m) if width(&text) + 3 + width(&m) > width_cells as usize => {
                1 + message_rows(&m, width_cells as usize).len() as u16
            }
            _ => 1,
        };
    }
    match app.message() {
        Some(m) => {
            let d = theme.double;
            let used = width(&file_part(app, d))
                + 2
                + warnings_part(app).map_or(0, |w| width(&w))
                + mode_part(app, width_cells as usize).map_or(0, |t| width(&t) + 2);
            let text = clean(&m.text, d);
            if used + width(&text) + 1 + HELP.len() > width_cells as usize {
                1 + message_rows(&text, width_cells as usize).len() as u16
            } else {
                1
            }
        }
        _ => 1,
    }
}

const HELP: &str = " ?:help ";

/// `game.csa record 2/5 CSA UTF-8 CRLF [+] [watch]`.
fn file_part(app: &App, d: bool) -> String {
    file_part_within(app, d, usize::MAX)
}

/// `file_part` with the file name shortened in the middle (`very-lo…name.kif`) so that the
/// whole part takes at most `max` cells: the name gives way before anything else does.
fn file_part_within(app: &App, d: bool, max: usize) -> String {
    let doc = app.source();
    let name = clean(&doc.name, d);
    let rest = file_part_rest(app);
    let room = max.saturating_sub(width(&rest)).max(9);
    let mut left = if width(&name) > room {
        middle_ellipsis(&name, room)
    } else {
        name
    };
    left.push_str(&rest);
    left
}

/// `s` in at most `w` cells: its start and its end with `…` between.
fn middle_ellipsis(s: &str, w: usize) -> String {
    let keep = w.saturating_sub(1);
    let head = truncate(s, keep / 2);
    let tail_w = keep - width(&head);
    let rev: String = s.chars().rev().collect();
    let tail: String = truncate(&rev, tail_w).chars().rev().collect();
    format!("{head}…{tail}")
}

/// Everything after the file name: record number, format, encoding, BOM, CRLF, [+], [watch].
fn file_part_rest(app: &App) -> String {
    let doc = app.source();
    let mut left = String::new();
    if doc.record_count > 1 {
        left.push_str(&format!(
            " record {}/{}",
            doc.record_index + 1,
            doc.record_count
        ));
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
    if app.watch().is_some() {
        left.push_str(" [watch]");
    }
    left
}

/// The mode the keyboard is in and its way out (`-- MOVE INPUT -- Esc: leave`), as much as
/// fits in a line of `w` cells beside the file part (at least the name and the way out).
fn mode_part(app: &App, w: usize) -> Option<String> {
    let tag = app.mode_tag()?;
    // Room left for the file name (shortened to 9 cells at worst), the rest and `?:help`.
    let others = width(&file_part_rest(app)) + 9 + warnings_part(app).map_or(0, |w| width(&w));
    let room = w.saturating_sub(others + HELP.len() + 3);
    [tag.text(), tag.compact()]
        .into_iter()
        .find(|t| width(t) <= room)
        .or(Some(tag.compact()))
}

/// ` 3 warnings ` when the reader found problems.
fn warnings_part(app: &App) -> Option<String> {
    let n = app.source().warnings.len();
    (n > 0).then(|| format!(" {n} warning{} ", if n == 1 { "" } else { "s" }))
}

/// The status line, or what the top overlay asks on it (the `:` line, a prompt, a question).
/// Given two rows (see [`status_height`]), the message takes the second.
pub fn status_line(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let d = theme.double;
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
    if prompt_line(area, buf, app, theme, vs) {
        return;
    }
    // Room for the mode, the warnings count and `?:help`: the file name is shortened first.
    let mode = mode_part(app, area.width as usize);
    let mode_w = mode.as_ref().map_or(0, |t| width(t) + 2);
    let warn_w = warnings_part(app).map_or(0, |w| width(&w));
    let left = file_part_within(
        app,
        d,
        (area.width as usize).saturating_sub(mode_w + warn_w + HELP.len() + 2),
    );
    let mut spans = Vec::new();
    if let Some(t) = mode {
        spans.push(Span::styled(
            format!(" {t} "),
            Style::new().add_modifier(Modifier::BOLD),
        ));
    }
    spans.push(Span::raw(format!(" {left} ")));
    if let Some(w) = warnings_part(app) {
        spans.push(Span::styled(
            w,
            theme.warning.add_modifier(Modifier::REVERSED),
        ));
    }
    if let Some(s) = app.save_status() {
        spans.push(Span::styled(format!(" {}", clean(&s, d)), theme.warning));
    }
    let message = app.message().as_ref().map(|m| {
        let style = level_style(m.level, theme);
        Span::styled(format!(" {}", clean(&m.text, d)), style)
    });
    let own_row = area.height >= 2;
    if let (Some(m), false) = (&message, own_row) {
        spans.push(m.clone());
    }
    let help = HELP;
    let used: usize = spans.iter().map(|s| width(&s.content)).sum();
    let avail = area.width as usize;
    buf.set_line(area.x, area.y, &Line::from(spans), area.width);
    if used + help.len() < avail {
        buf.set_string(area.right() - help.len() as u16, area.y, help, Style::new());
    }
    if let (Some(m), true) = (message, own_row) {
        draw_message_below(area, buf, m.content.trim_start(), m.style);
    }
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
}

/// A message on rows of its own, wrapped at `w` cells (one cell of margin): at most three
/// (the last is cut).
fn message_rows(text: &str, w: usize) -> Vec<String> {
    let mut rows = wrap_hanging(text, w.saturating_sub(1), 2);
    rows.truncate(3);
    if rows.is_empty() {
        rows.push(String::new());
    }
    rows
}

/// The message on the rows of `area` below its first (see [`message_rows`]).
fn draw_message_below(area: Rect, buf: &mut Buffer, text: &str, style: Style) {
    let w = area.width as usize;
    let rows = message_rows(text, w);
    for (i, row) in rows.iter().take(area.height as usize - 1).enumerate() {
        buf.set_line(
            area.x,
            area.y + 1 + i as u16,
            &Line::from(Span::styled(fit(&format!(" {row}"), w), style)),
            area.width,
        );
    }
}

/// The text of the `:` line or a prompt as drawn, and where the cursor goes in it (`None`:
/// placed by `ui::draw`); `None` when neither is open.
fn prompt_text(app: &App, d: bool) -> Option<(String, Option<usize>)> {
    match app.overlays().top() {
        Some(Overlay::CommandLine(line)) => Some((format!(":{}", clean(&line.text, d)), None)),
        Some(Overlay::Prompt(p)) => {
            let t = clean(&format!("{}{}", p.label, p.text), d);
            let n = width(&t);
            Some((t, Some(n)))
        }
        _ => None,
    }
}

/// The message shown beside a line being typed, cleaned.
fn typing_message(app: &App, d: bool) -> Option<String> {
    let typing = matches!(app.mode(), Mode::Prompt | Mode::CommandLine);
    let m = app.message().filter(|_| typing)?;
    Some(clean(&m.text, d))
}

/// A question and its answer keys, as one text (wrapped by the caller).
fn question_text(q: &crate::app::overlay::confirm::Confirm, d: bool) -> String {
    let answers: Vec<String> = q
        .answers
        .iter()
        .map(|(k, what)| format!("{k}: {what}"))
        .collect();
    clean(&format!("{}  {}", q.question, answers.join("  ")), d)
}

/// Prompts, questions and the `:` line on the status line. Returns false when there is none.
fn prompt_line(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) -> bool {
    let d = theme.double;
    let w = area.width as usize;
    if let Some(Overlay::Confirm(q)) = app.overlays().top() {
        let rows = wrap_hanging(&question_text(q, d), w, 2);
        for (i, row) in rows.iter().take(area.height as usize).enumerate() {
            buf.set_stringn(area.x, area.y + i as u16, fit(row, w), w, Style::new());
        }
        buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
        return true;
    }
    // The others draw elsewhere; the status line shows the file and the message.
    let Some((text, cursor_at)) = prompt_text(app, d) else {
        return false;
    };
    if cursor_at.is_none() && app.message().is_none() {
        // Only the `:` line (the terminal cursor is placed by `ui::draw`).
        buf.set_stringn(area.x, area.y, fit(&text, w), w, Style::new());
        right_tag(area, buf, app, width(&text));
        return true;
    }
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
    let mut spans = vec![Span::raw(text)];
    // The message beside the text typed, or on the rows below when it does not fit there
    // (`status_height` gave them).
    let message = typing_message(app, d).zip(app.message());
    let mut below = None;
    if let Some((m, msg)) = message {
        let style = level_style(msg.level, theme);
        if area.height >= 2 {
            below = Some((m, style));
        } else {
            spans.push(Span::styled(format!("   {m}"), style));
        }
    }
    let used: usize = spans.iter().map(|s| width(&s.content)).sum();
    buf.set_line(area.x, area.y, &Line::from(spans), area.width);
    right_tag(area, buf, app, used);
    if let Some((m, style)) = below {
        draw_message_below(area, buf, &m, style);
    }
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
    // Text offered (typing replaces it) shows selected: the other way round from the line.
    if let Some(Overlay::Prompt(p)) = app.overlays().top()
        && p.offered
    {
        let from = width(&clean(&p.label, d)).min(w);
        let to = (from + width(&clean(&p.text, d))).min(w);
        let sel = Rect::new(area.x + from as u16, area.y, (to - from) as u16, 1);
        buf.set_style(sel, Style::new().remove_modifier(Modifier::REVERSED));
    }
    if let Some(n) = cursor_at {
        vs.cursor = Some((area.x + n.min(w.saturating_sub(1)) as u16, area.y));
    }
    true
}

/// The mode's name and keys at the right end of the `:` line or a prompt, when they fit
/// after the `used` cells typed there (the text typed always wins).
fn right_tag(area: Rect, buf: &mut Buffer, app: &App, used: usize) {
    let Some(tag) = app.mode_tag() else {
        return;
    };
    let w = area.width as usize;
    let Some(t) = [tag.text(), tag.compact()]
        .into_iter()
        .find(|t| used + width(t) + 3 <= w)
    else {
        return;
    };
    let x = area.right() - width(&t) as u16 - 1;
    buf.set_string(x, area.y, &t, Style::new().add_modifier(Modifier::BOLD));
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
}

/// How a message of this level looks.
fn level_style(level: Level, theme: &Theme) -> Style {
    match level {
        Level::Info => Style::new(),
        Level::Warning => theme.warning,
        Level::Error => theme.error,
    }
}
