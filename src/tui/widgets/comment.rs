//! The comment pane, and the comment editor drawn in it.

use crate::app::App;
use crate::app::{Focus, Mode, Overlay};
use crate::tui::draw::block;
use crate::tui::text::{clean, clean_lines, is_ambiguous, row_starts, wrap};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthChar;

/// The comment of the current move (or the editor, while it is open).
pub fn comment_pane(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let node = app.record().node(app.cur());
    let mut title = if node.ply == 0 {
        "コメント（開始局面）".to_string()
    } else {
        "コメント".to_string()
    };
    if let Some(bm) = &node.bookmark {
        title.push_str(&format!(" &{bm}"));
    }
    if app.mode() == Mode::Comment {
        title.push_str(" 編集中  Esc: keep  Ctrl-c: discard");
    }
    let mut b = block(title, app.focus() == Focus::Comment, theme);
    let inner = b.inner(area);
    vs.comment_area = inner;
    if editing(app) {
        b.render(area, buf);
        comment_editor(inner, buf, app, theme, vs);
        return;
    }
    let lines = pane_lines(app, theme, inner.width as usize);
    if lines.is_empty() {
        b.render(area, buf);
        buf.set_string(inner.x, inner.y, "なし", theme.dim);
        return;
    }
    if let Some(s) = scroll_indicator(lines.len(), inner.height as usize, app.comment_scroll()) {
        b = b.title_bottom(Line::from(clean(&s, theme.double)).right_aligned());
    }
    b.render(area, buf);
    let max = lines.len().saturating_sub(inner.height as usize) as u16;
    let scroll = app.comment_scroll().min(max);
    for (row, (l, style)) in lines
        .iter()
        .skip(scroll as usize)
        .take(inner.height as usize)
        .enumerate()
    {
        buf.set_stringn(
            inner.x,
            inner.y + row as u16,
            l,
            inner.width as usize,
            *style,
        );
    }
    vs.comment_max = max;
}

/// The pane's rows at `w` columns: the current node's comment, then its remarks (for the
/// start position, the file head's remarks first), each remark starting with `#` and dim, so
/// that it stands apart from the comment without colours too.
fn pane_lines(app: &App, theme: &Theme, w: usize) -> Vec<(String, Style)> {
    let node = app.record().node(app.cur());
    let mut out: Vec<(String, Style)> = Vec::new();
    if !node.comment.is_empty() {
        let text = clean_lines(&node.comment, theme.double);
        out.extend(wrap(&text, w).into_iter().map(|l| (l, Style::new())));
    }
    let head = if node.ply == 0 {
        &app.record().program_lines[..]
    } else {
        &[]
    };
    let remarks = head
        .iter()
        .map(|l| l.to_string())
        .chain(node.remarks.iter().map(|r| format!("#{r}")));
    for r in remarks {
        let text = clean_lines(&r, theme.double);
        out.extend(wrap(&text, w).into_iter().map(|l| (l, theme.dim)));
    }
    out
}

/// `(6-10/20 ↑↓)`: the lines shown of how many, and which way there is more; `None` when
/// everything fits. Text, so it shows without colours too.
fn scroll_indicator(total: usize, shown: usize, scroll: u16) -> Option<String> {
    if total <= shown || shown == 0 {
        return None;
    }
    let first = (scroll as usize).min(total - shown);
    let last = first + shown;
    let up = if first > 0 { "↑" } else { "" };
    let down = if last < total { "↓" } else { "" };
    Some(format!("({}-{last}/{total} {up}{down})", first + 1))
}

/// Is the comment editor open (on top)?
fn editing(app: &App) -> bool {
    matches!(app.overlays().top(), Some(Overlay::CommentEditor(_)))
}

/// Rows the comment pane would like at `width` columns (borders included): every wrapped
/// line of the comment, or of the text being edited and one more for the cursor.
pub fn wanted_height(app: &App, theme: &Theme, width: u16) -> u16 {
    let w = width.saturating_sub(2) as usize;
    let n = match app.overlays().top() {
        Some(Overlay::CommentEditor(ed)) => {
            rows(ed.editor.lines(), w.max(2), theme.double).len() + 1
        }
        _ => pane_lines(app, theme, w).len().max(1),
    };
    (n.min(u16::MAX as usize - 2) as u16) + 2
}

/// Cells a character takes on screen.
fn cells(c: char, double: bool) -> usize {
    let c = crate::core::text::sanitize(&c.to_string())
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

/// Wraps `lines` to `w` cells as the comment pane wraps text (`text::row_starts`: between
/// words, never before `、。」）`), keeping every character (spaces too) for the cursor.
fn rows(lines: &[String], w: usize, double: bool) -> Vec<Row> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let chars: Vec<char> = l.chars().collect();
        let starts = row_starts(l, w, w, |c| cells(c, double));
        for (k, &start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(chars.len());
            out.push(Row {
                line: i,
                start,
                chars: chars[start..end].to_vec(),
            });
        }
    }
    out
}

/// Draws the comment being edited into the comment pane's inner area and places the cursor.
/// Returns false when no comment is being edited.
fn comment_editor(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
) -> bool {
    let Some(Overlay::CommentEditor(ed)) = app.overlays().top() else {
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
