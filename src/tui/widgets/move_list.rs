//! The move list: the current line, the current move highlighted, times on the right.

use crate::app::{App, Command, Focus, KeyMode};
use crate::core::record::MoveTime;
use crate::tui::draw::block;
use crate::tui::text::{clean, truncate, width};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

/// `m:ss` of time spent, and `/hh:mm:ss` of the running total when `long`.
fn fmt_time(t: &MoveTime, long: bool) -> String {
    let s = t.spent_ms / 1000;
    let mut out = format!("{}:{:02}", s / 60, s % 60);
    if let (true, Some(total)) = (long, t.total_ms) {
        let s = total / 1000;
        out.push_str(&format!(
            "/{:02}:{:02}:{:02}",
            s / 3600,
            s / 60 % 60,
            s % 60
        ));
    }
    out
}

/// The title: the ply, and when the line leaves the main line, the fork it names
/// (`変化 6手目 2/2`, see `App::line_departure`) and the key back to the main line; parts are
/// dropped from the end when the pane is too narrow.
fn title(app: &App, width_avail: usize, double: bool) -> String {
    let line = app.line();
    // Move numbers as the player sees them: a record may start at move 81 (手数＝80).
    let before = app.record().moves_before() as usize;
    let ply = format!(
        "棋譜 {}/{}",
        before + app.cur_index(),
        before + line.len().saturating_sub(1)
    );
    let Some(d) = app.line_departure() else {
        return ply;
    };
    let fork = format!("変化 {}手目 {}/{}", before + d.at, d.index, d.count);
    let back = app
        .config()
        .keymap
        .first_key(KeyMode::Normal, Command::MainLine)
        .map(|k| format!(" · {k}:本譜"))
        .unwrap_or_default();
    let full = format!("{fork} · {ply}{back}");
    let fits = |t: &str| width(&clean(t, double)) <= width_avail;
    if fits(&full) {
        return full;
    }
    let short = format!("{fork} · {ply}");
    if fits(&short) { short } else { fork }
}

/// The move list of the current line, kept scrolled so the current move shows. Rows of a
/// variation (from the first move off the main line) carry a `│` between the number and the
/// move and the variation colour; a move the reader warned about (an illegal move kept as
/// read) carries `!` in the error style; `+` marks a move with alternatives, `&` a bookmark,
/// `~` the first move no open book holds (where the record leaves the books).
pub fn move_list(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let line = app.line();
    let cur = app.cur_index();
    let b = block(
        title(app, area.width.saturating_sub(2) as usize, theme.double),
        app.focus() == Focus::Moves,
        theme,
    );
    let inner = b.inner(area);
    b.render(area, buf);
    vs.moves_area = inner;
    let h = inner.height as usize;
    if h == 0 {
        return;
    }
    let cut = cut_short(app);
    let total = line.len() + usize::from(cut.is_some());
    vs.moves_offset = scrolled(vs.moves_offset, cur, total, h);
    let w = inner.width as usize;
    let long_time = w >= 36;
    let rows = vs.moves_offset..line.len().min(vs.moves_offset + h);
    let texts = app.move_texts(rows.clone());
    let variation_from = app.first_departure().unwrap_or(usize::MAX);
    let rule = if theme.double { "|" } else { "│" };
    let variation_body = theme.variation_mark.remove_modifier(Modifier::BOLD);
    for ((row, idx), text) in rows.enumerate().zip(texts) {
        let id = line[idx];
        let node = app.record().node(id);
        let alt = node
            .parent
            .is_some_and(|p| app.record().node(p).children.len() > 1);
        let warned = app.move_warning(id).is_some();
        let in_variation = idx >= variation_from;
        let time = node.time.as_ref().map(|t| fmt_time(t, long_time));
        let time_w = time.as_ref().map_or(0, |t| width(t) + 1);
        let num = format!("{:>4}", app.record().move_number(id));
        let gutter = if in_variation { rule } else { " " };
        let body = clean(&text, theme.double);
        let mut mark = String::new();
        if alt {
            mark.push('+');
        }
        if node.bookmark.is_some() {
            mark.push('&');
        }
        mark.extend((app.leaves_book_at() == Some(id)).then_some('~'));
        let warn_mark = if warned { "!" } else { "" };
        let marks_w = mark.len() + warn_mark.len();
        let body_w = w.saturating_sub(5 + time_w + marks_w).max(1);
        let body = truncate(&body, body_w);
        let pad = w.saturating_sub(5 + width(&body) + marks_w + time_w);
        let body_style = if warned {
            theme.error
        } else if in_variation {
            variation_body
        } else {
            Style::new()
        };
        let mut spans = vec![
            Span::styled(num, theme.dim),
            Span::styled(gutter, theme.variation_mark),
            Span::styled(body, body_style),
            Span::styled(warn_mark, theme.error),
            Span::styled(mark, theme.variation_mark),
            Span::raw(" ".repeat(pad)),
        ];
        if let Some(t) = time {
            spans.push(Span::styled(format!(" {t}"), theme.dim));
        }
        let y = inner.y + row as u16;
        buf.set_line(inner.x, y, &Line::from(spans), inner.width);
        if idx == cur {
            buf.set_style(Rect::new(inner.x, y, inner.width, 1), theme.selection);
        }
    }
    if let Some(text) = cut {
        cut_row(inner, buf, line.len(), vs.moves_offset, &text, theme);
    }
}

/// The list's new offset: row `cur` of `total` in view among `h` rows, with a little context.
fn scrolled(offset: usize, cur: usize, total: usize, h: usize) -> usize {
    let margin = if h > 6 { 2 } else { 0 };
    let offset = if cur < offset + margin {
        cur.saturating_sub(margin)
    } else if cur + margin >= offset + h {
        (cur + margin + 1).saturating_sub(h)
    } else {
        offset
    };
    offset.min(total.saturating_sub(h))
}

/// Draws the `… 以下読めず` row as list row `row` when the list scrolled to `offset` shows it.
fn cut_row(inner: Rect, buf: &mut Buffer, row: usize, offset: usize, text: &str, theme: &Theme) {
    let h = inner.height as usize;
    if (offset..offset + h).contains(&row) {
        let w = inner.width as usize;
        let y = inner.y + (row - offset) as u16;
        let text = truncate(&clean(text, theme.double), w);
        buf.set_stringn(inner.x, y, text, w, theme.warning);
    }
}

/// `     … 以下読めず (lines 125–566)`: the reader stopped this line of play at its last
/// move (a move that cannot be played, moves after the ending); the lines not read follow
/// it in the file.
fn cut_short(app: &App) -> Option<String> {
    let last = *app.line().last()?;
    let w = app.source().warnings.iter().find(|w| {
        w.at == Some(last) && w.message.contains("the rest of") && w.message.contains("skipped")
    })?;
    Some(match app.source().unread_span(w.line) {
        Some((a, b)) if b > a => format!("     … 以下読めず (lines {a}–{b})"),
        _ => format!("     … 以下読めず (line {})", w.line),
    })
}
