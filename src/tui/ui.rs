//! Layout and drawing of every pane. Work per frame depends only on what is visible.

use super::text::{clean, clean_lines, fit, truncate, width, wrap};
use super::theme::Theme;
use super::widgets::board::{BoardWidget, hand_text, side_name};
use super::widgets::edit as edit_widgets;
use crate::app::{App, Focus, KeyMode, Level, Mode};
use crate::core::record::{MoveTime, NodeId, Step};
use crate::core::rules::Color;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::symbols::border;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget};

/// Smallest terminal the viewer draws in.
pub const MIN_WIDTH: u16 = 64;
pub const MIN_HEIGHT: u16 = 18;
/// From this width on, the comment gets a column of its own.
const WIDE: u16 = 120;

const ASCII_BORDER: border::Set = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// Render-only state: scroll offsets and where things were drawn (for the mouse).
#[derive(Clone, Debug, Default)]
pub struct ViewState {
    pub moves_offset: usize,
    pub moves_area: Rect,
    pub variations_area: Rect,
    pub variations_offset: usize,
    /// The nodes listed in the variation pane.
    pub variation_nodes: Vec<NodeId>,
    pub comment_area: Rect,
    pub header_area: Rect,
    pub tree_area: Rect,
    pub tree_offset: usize,
    pub overlay_area: Rect,
    /// Largest useful scroll offsets found while drawing.
    pub comment_max: u16,
    pub header_max: u16,
    pub overlay_max: u16,
    /// The 9x9 squares of the board (3 cells by 1 row each), for the mouse.
    pub board_squares: Rect,
    /// Where the terminal cursor goes (prompts and the comment editor), if anywhere.
    pub cursor: Option<(u16, u16)>,
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, vs: &mut ViewState) {
    let area = frame.area();
    let buf = frame.buffer_mut();
    render(area, buf, app, theme, vs);
    if app.mode == Mode::CommandLine {
        let x = area.x + 1 + width(&app.command_line) as u16;
        frame.set_cursor_position((x.min(area.right().saturating_sub(1)), area.bottom() - 1));
    } else if let Some(p) = vs.cursor {
        frame.set_cursor_position(p);
    }
}

/// Draws into a buffer (the testable core of `draw`).
pub fn render(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    *vs = ViewState {
        moves_offset: vs.moves_offset,
        variations_offset: vs.variations_offset,
        tree_offset: vs.tree_offset,
        ..ViewState::default()
    };
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = format!(
            "kifview needs a terminal of at least {MIN_WIDTH}x{MIN_HEIGHT}; this one is {}x{}.",
            area.width, area.height
        );
        Paragraph::new(msg)
            .wrap(ratatui::widgets::Wrap { trim: true })
            .render(area, buf);
        return;
    }
    let [main, status] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    let board_w = BoardWidget::size(theme).0 + if main.width >= WIDE { 9 } else { 3 };
    if main.width >= WIDE {
        let [left, mid, right] = Layout::horizontal([
            Constraint::Length(board_w),
            Constraint::Length(40),
            Constraint::Fill(1),
        ])
        .areas(main);
        let used = board_column(left, buf, app, theme, vs);
        let [_, header] =
            Layout::vertical([Constraint::Length(used), Constraint::Fill(1)]).areas(left);
        header_pane(header, buf, app, theme, vs);
        let [moves, vars] = Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(variations_height(app, 8)),
        ])
        .areas(mid);
        move_list(moves, buf, app, theme, vs);
        variations(vars, buf, app, theme, vs);
        comment_pane(right, buf, app, theme, vs);
    } else {
        let [left, right] =
            Layout::horizontal([Constraint::Length(board_w), Constraint::Fill(1)]).areas(main);
        let used = board_column(left, buf, app, theme, vs);
        let [_, header] =
            Layout::vertical([Constraint::Length(used), Constraint::Fill(1)]).areas(left);
        header_pane(header, buf, app, theme, vs);
        let comment_h = (right.height / 3).max(5);
        let [moves, vars, comment] = Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(variations_height(app, 5)),
            Constraint::Length(comment_h),
        ])
        .areas(right);
        move_list(moves, buf, app, theme, vs);
        variations(vars, buf, app, theme, vs);
        comment_pane(comment, buf, app, theme, vs);
    }
    status_line(status, buf, app, theme, vs);
    match app.mode {
        Mode::Tree => tree_overlay(main, buf, app, theme, vs),
        Mode::Help => help_overlay(main, buf, app, theme, vs),
        Mode::Warnings => warnings_overlay(main, buf, app, theme, vs),
        Mode::List => edit_widgets::list_overlay(main, buf, app, theme, vs),
        Mode::Confirm => edit_widgets::confirm_overlay(main, buf, app, theme),
        Mode::Copy => super::widgets::share::copy_menu(main, buf, app, theme, vs),
        Mode::Paste => super::widgets::share::paste_prompt(main, buf, app, theme, vs),
        Mode::Normal | Mode::CommandLine | Mode::Board | Mode::Prompt | Mode::Comment => {}
    }
    if theme.double {
        skip_ambiguous_pads(buf);
    }
}

/// Rows of the variation pane: its list (at most `max - 2`) and borders.
fn variations_height(app: &App, max: u16) -> u16 {
    let n = app
        .alternatives()
        .map_or(1, |(fork, _)| app.record.node(fork).children.len());
    (n as u16).clamp(1, max - 2) + 2
}

/// In double-width mode the terminal draws each ambiguous character over two cells: the pad
/// cell after it must not be drawn.
fn skip_ambiguous_pads(buf: &mut Buffer) {
    let area = buf.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right().saturating_sub(1) {
            let amb = buf[(x, y)]
                .symbol()
                .chars()
                .next()
                .is_some_and(super::text::is_ambiguous);
            if amb && buf[(x + 1, y)].symbol() == "\u{a0}" {
                buf[(x + 1, y)].set_diff_option(ratatui::buffer::CellDiffOption::Skip);
            }
        }
    }
}

pub(crate) fn block<'a>(title: String, focused: bool, theme: &Theme) -> Block<'a> {
    let mut b = Block::new()
        .borders(Borders::ALL)
        .title(Span::raw(clean(&title, theme.double)))
        .border_style(if focused {
            theme.focus_border
        } else {
            theme.border
        });
    if theme.double {
        b = b.border_set(ASCII_BORDER);
    }
    b
}

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

/// Names, hands, board and the `手数＝` line. Returns the rows used.
fn board_column(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) -> u16 {
    let rec = &app.record;
    let pos = app.position();
    let handicap = rec.initial.is_handicap_game();
    let (top, bottom) = if app.flipped {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    let w = area.width as usize;
    let d = theme.double;
    let at_special = rec.node(app.cur()).special().is_some();
    let to_move = pos.side_to_move();
    let name_line = |c: Color| -> Line<'static> {
        let name = match c {
            Color::Black => rec.header.black_name(),
            Color::White => rec.header.white_name(),
        };
        let mut text = format!("{}{}", c.mark(), side_name(c, handicap));
        if let Some(n) = name.filter(|n| !n.is_empty()) {
            text.push('：');
            text.push_str(n);
        }
        let text = truncate(&clean(&text, d), w.saturating_sub(8));
        let mut spans = vec![Span::styled(
            text,
            match c {
                Color::Black => theme.black_piece,
                Color::White => theme.white_piece,
            }
            .add_modifier(Modifier::BOLD),
        )];
        if c == to_move && !at_special {
            spans.push(Span::styled("　手番", theme.variation_mark));
        }
        Line::from(spans)
    };
    let hand_lines = |c: Color| wrap(&hand_text(pos, c, handicap), w);
    let mut y = area.y;
    let put = |buf: &mut Buffer, line: Line<'_>, y: &mut u16| {
        if *y < area.bottom() {
            buf.set_line(area.x, *y, &line, area.width);
            *y += 1;
        }
    };
    put(buf, name_line(top), &mut y);
    for l in hand_lines(top) {
        put(buf, Line::raw(l), &mut y);
    }
    let (bw, bh) = BoardWidget::size(theme);
    if y + bh <= area.bottom() {
        let last = rec.last_move_at(app.cur());
        let widget = BoardWidget {
            position: pos,
            last_to: last.map(|m| m.mv.to()),
            last_from: last.and_then(|m| m.mv.from()),
            flipped: app.flipped,
            theme,
            marks: app.board_marks(),
        };
        (&widget).render(Rect::new(area.x, y, bw.min(area.width), bh), buf);
        let top = y + if theme.coordinates { 2 } else { 1 };
        vs.board_squares = Rect::new(area.x + 1, top, 27, 9);
        y += bh;
    }
    for l in hand_lines(bottom) {
        put(buf, Line::raw(l), &mut y);
    }
    put(buf, name_line(bottom), &mut y);
    // 手数＝N  ▲７六歩  まで
    let node = rec.node(app.cur());
    let mut spans = Vec::new();
    match &node.step {
        Step::Root => spans.push(Span::raw("手数＝0")),
        Step::Move(_) => {
            let t = app.step_text(app.cur());
            let t = t.split('(').next().unwrap_or(&t).to_string();
            spans.push(Span::raw(clean(
                &format!("手数＝{}  {t}  まで", node.ply),
                d,
            )));
        }
        Step::Special(s) => {
            let side = rec.side_to_move_at(app.cur());
            spans.push(Span::raw(clean(
                &s.result_line(node.ply.saturating_sub(1), side, handicap),
                d,
            )));
        }
    }
    if pos.in_check() && !at_special {
        spans.push(Span::raw("  "));
        spans.push(Span::styled(
            if pos.is_checkmate() {
                "詰み"
            } else {
                "王手"
            },
            theme.check,
        ));
    }
    put(buf, Line::from(spans), &mut y);
    y - area.y
}

fn move_list(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let line = app.line();
    let cur = app.cur_index();
    let title = format!("棋譜 {}/{}", cur, line.len().saturating_sub(1));
    let b = block(title, app.focus == Focus::Moves, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.moves_area = inner;
    let h = inner.height as usize;
    if h == 0 {
        return;
    }
    // Keep the current move in view with a little context.
    let margin = if h > 6 { 2 } else { 0 };
    if cur < vs.moves_offset + margin {
        vs.moves_offset = cur.saturating_sub(margin);
    } else if cur + margin >= vs.moves_offset + h {
        vs.moves_offset = (cur + margin + 1).saturating_sub(h);
    }
    vs.moves_offset = vs.moves_offset.min(line.len().saturating_sub(h));
    let w = inner.width as usize;
    let long_time = w >= 36;
    for (row, idx) in (vs.moves_offset..line.len().min(vs.moves_offset + h)).enumerate() {
        let id = line[idx];
        let node = app.record.node(id);
        let alt = node
            .parent
            .is_some_and(|p| app.record.node(p).children.len() > 1);
        let time = node.time.as_ref().map(|t| fmt_time(t, long_time));
        let time_w = time.as_ref().map_or(0, |t| width(t) + 1);
        let num = format!("{idx:>4} ");
        let body = clean(&app.step_text(id), theme.double);
        let mark = match (alt, node.bookmark.is_some()) {
            (true, true) => "+&",
            (true, false) => "+",
            (false, true) => "&",
            (false, false) => "",
        };
        let body_w = w.saturating_sub(5 + time_w + mark.len()).max(1);
        let body = truncate(&body, body_w);
        let pad = w.saturating_sub(5 + width(&body) + mark.len() + time_w);
        let mut spans = vec![
            Span::styled(num, theme.dim),
            Span::raw(body),
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
}

fn variations(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let alts = app.alternatives();
    let title = match alts {
        Some((fork, sel)) => format!(
            "変化 {}手目 {}/{}",
            app.record.node(fork).ply + 1,
            sel + 1,
            app.record.node(fork).children.len()
        ),
        None => "変化".to_string(),
    };
    let b = block(title, app.focus == Focus::Variations, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.variations_area = inner;
    let Some((fork, sel)) = alts else {
        buf.set_string(inner.x, inner.y, "なし", theme.dim);
        return;
    };
    let children = &app.record.node(fork).children;
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

pub(crate) fn scrolled_text(
    area: Rect,
    buf: &mut Buffer,
    lines: &[String],
    scroll: u16,
    style: Style,
) -> u16 {
    let max = lines.len().saturating_sub(area.height as usize) as u16;
    let scroll = scroll.min(max);
    for (row, l) in lines
        .iter()
        .skip(scroll as usize)
        .take(area.height as usize)
        .enumerate()
    {
        buf.set_stringn(area.x, area.y + row as u16, l, area.width as usize, style);
    }
    max
}

fn comment_pane(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let node = app.record.node(app.cur());
    let mut title = if node.ply == 0 {
        "コメント（開始局面）".to_string()
    } else {
        "コメント".to_string()
    };
    if let Some(bm) = &node.bookmark {
        title.push_str(&format!(" &{bm}"));
    }
    if app.mode == Mode::Comment {
        title.push_str(" 編集中  Esc: keep  Ctrl-c: discard");
    }
    let b = block(title, app.focus == Focus::Comment, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.comment_area = inner;
    if edit_widgets::comment_editor(inner, buf, app, theme, vs) {
        return;
    }
    if node.comment.is_empty() {
        buf.set_string(inner.x, inner.y, "なし", theme.dim);
        return;
    }
    let lines = wrap(
        &clean_lines(&node.comment, theme.double),
        inner.width as usize,
    );
    vs.comment_max = scrolled_text(inner, buf, &lines, app.comment_scroll, Style::new());
}

fn header_pane(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    if area.height < 3 {
        return;
    }
    let b = block("対局情報".to_string(), app.focus == Focus::Header, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.header_area = inner;
    let rec = &app.record;
    let mut fields: Vec<String> = rec
        .header
        .fields
        .iter()
        .map(|f| format!("{}：{}", f.key, f.value))
        .collect();
    if let Some(h) = rec
        .initial
        .handicap
        .filter(|_| rec.header.get("手合割").is_none())
    {
        fields.insert(0, format!("手合割：{}", h.name));
    }
    if fields.is_empty() {
        buf.set_string(inner.x, inner.y, "なし", theme.dim);
        return;
    }
    let lines: Vec<String> = fields
        .iter()
        .flat_map(|f| wrap(&clean(f, theme.double), inner.width as usize))
        .collect();
    vs.header_max = scrolled_text(inner, buf, &lines, app.header_scroll, Style::new());
}

fn status_line(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let d = theme.double;
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
    if edit_widgets::prompt_line(area, buf, app, theme, vs) {
        return;
    }
    if app.mode == Mode::CommandLine {
        let text = format!(":{}", clean(&app.command_line, d));
        buf.set_stringn(
            area.x,
            area.y,
            fit(&text, area.width as usize),
            area.width as usize,
            Style::new(),
        );
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
    if doc.modified {
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

/// Clears `area` for an overlay, including wide characters cut by its left edge.
pub(crate) fn clear(area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    if area.x > buf.area.x {
        for y in area.top()..area.bottom() {
            let left = &mut buf[(area.x - 1, y)];
            if width(left.symbol()) > 1 {
                left.set_symbol(" ");
            }
        }
    }
}

pub(crate) fn overlay_rect(main: Rect, max_w: u16) -> Rect {
    let w = main.width.saturating_sub(4).min(max_w);
    let h = main.height.saturating_sub(2);
    Rect::new(
        main.x + (main.width - w) / 2,
        main.y + (main.height - h) / 2,
        w,
        h,
    )
}

fn text_overlay(
    main: Rect,
    buf: &mut Buffer,
    title: String,
    lines: Vec<String>,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
) {
    let area = overlay_rect(main, 96);
    clear(area, buf);
    let b = block(title, true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.overlay_area = inner;
    let wrapped: Vec<String> = lines
        .iter()
        .flat_map(|l| wrap(l, inner.width as usize))
        .collect();
    vs.overlay_max = scrolled_text(inner, buf, &wrapped, app.overlay_scroll, Style::new());
}

/// The key help, generated from the keymap and the command table.
pub fn help_lines(app: &App) -> Vec<String> {
    let mut out = Vec::new();
    for (mode, title) in [
        (KeyMode::Normal, "Browsing"),
        (KeyMode::Tree, "Variation tree (t)"),
        (KeyMode::Board, "Move input on the board (i, Enter)"),
        (
            KeyMode::Editor,
            "Comment editor (c); typed text goes into the comment",
        ),
        (
            KeyMode::List,
            "Lists: bookmarks ('), endings (r), header fields (e)",
        ),
        (KeyMode::Command, "Command line (:), prompts and questions"),
        (KeyMode::Help, "Help and problem list"),
        (KeyMode::Copy, "Copy menu (y)"),
        (KeyMode::Paste, "Paste prompt (p, :paste)"),
    ] {
        out.push(title.to_string());
        for (cmd, keys) in app.config.keymap.bindings(mode) {
            let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
            out.push(format!("  {}  {}", fit(&keys.join(" "), 22), cmd.doc()));
        }
        out.push(String::new());
    }
    out.push("Mouse: click a move or a branch to go there; the wheel steps through moves".into());
    out.push("and scrolls the comment; click a piece, then a square, to enter a move.".into());
    out.push(String::new());
    out.push("Commands: :N go to ply N; :w save; :w PATH save as (.kif Shift_JIS, .kifu".into());
    out.push(
        "UTF-8, .csa); :wq save and quit; :q quit (asks about unsaved edits); :q! quit".into(),
    );
    out.push(
        "without saving; :e PATH open another file (:e! drops unsaved changes); :paste".into(),
    );
    out.push("open pasted text; :watch follow the file (also --watch).".into());
    out.push("Copying goes through the terminal (OSC 52) and works over SSH; in tmux it".into());
    out.push("needs `set -g set-clipboard on`. Pasting uses the terminal's own paste.".into());
    out
}

fn help_overlay(main: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let lines = help_lines(app)
        .into_iter()
        .map(|l| clean(&l, theme.double))
        .collect();
    text_overlay(
        main,
        buf,
        "Keys (? or Esc closes)".into(),
        lines,
        app,
        theme,
        vs,
    );
}

fn warnings_overlay(main: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let lines = app
        .doc
        .warnings
        .iter()
        .map(|w| clean(&w.with_file(&app.doc.name), theme.double))
        .collect();
    let title = format!("Problems found while reading ({})", app.doc.warnings.len());
    text_overlay(main, buf, title, lines, app, theme, vs);
}

fn tree_overlay(main: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    let area = overlay_rect(main, 100);
    clear(area, buf);
    let Some(outline) = app.outline_cached() else {
        return;
    };
    let n = outline.rows.len();
    let title = format!(
        "変化ツリー {}/{}  Enter: go  t/Esc: close",
        app.tree_selected + 1,
        n
    );
    let b = block(title, true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.tree_area = inner;
    let h = inner.height as usize;
    if h == 0 {
        return;
    }
    let sel = app.tree_selected.min(n.saturating_sub(1));
    if sel < vs.tree_offset {
        vs.tree_offset = sel;
    } else if sel >= vs.tree_offset + h {
        vs.tree_offset = sel + 1 - h;
    }
    vs.tree_offset = vs.tree_offset.min(n.saturating_sub(h));
    let cur_row = outline.row_of(app.cur());
    let rec = &app.record;
    for (row, i) in (vs.tree_offset..n.min(vs.tree_offset + h)).enumerate() {
        let r = outline.rows[i];
        let depth = r.depth as usize;
        let indent = if depth <= 16 {
            "  ".repeat(depth)
        } else {
            format!("{}»{depth} ", "  ".repeat(15))
        };
        let node = rec.node(r.start);
        let text = if r.start == NodeId::ROOT {
            format!("本譜 ({}手)", r.len.saturating_sub(1))
        } else {
            format!("{}手目 {}  ({}手)", node.ply, app.step_text(r.start), r.len)
        };
        let mark = if i == cur_row { "* " } else { "  " };
        let line = fit(
            &clean(&format!("{mark}{indent}{text}"), theme.double),
            inner.width as usize,
        );
        let style = if i == sel {
            theme.selection
        } else {
            Style::new()
        };
        buf.set_string(inner.x, inner.y + row as u16, line, style);
    }
}
