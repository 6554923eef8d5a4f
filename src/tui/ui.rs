//! The screen's layout: where each pane goes, then each widget draws itself, then the open
//! overlays from the bottom of the stack up. Work per frame depends only on what is visible.

use super::text::width;
use super::theme::Theme;
pub use super::view::ViewState;
use super::widgets::board::{self, BoardWidget, board_column};
use super::widgets::large_board::{GRIDS, Grid, large_column};
use super::widgets::{
    analysis, book, clock, comment, confirm, copy_menu, explorer, graph, header, help, library,
    list, move_list, paste, position_editor, search, status, train, tree, variations,
};
use crate::app::config::BoardSize;
use crate::app::{App, Overlay};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Paragraph, Widget};

pub use super::widgets::help::help_lines;

/// Smallest terminal the viewer draws in.
pub const MIN_WIDTH: u16 = 64;
pub const MIN_HEIGHT: u16 = 18;
/// From this width on, the comment keeps its pane beside the analysis and the graph: a
/// column of its own beside the BOD board, or under the moves beside a large one.
const WIDE: u16 = 120;

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, vs: &mut ViewState) {
    let area = frame.area();
    let buf = frame.buffer_mut();
    render(area, buf, app, theme, vs);
    if let Some(Overlay::CommandLine(line)) = app.overlays().top() {
        let x = area.x + 1 + width(&line.text) as u16;
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
        library_top: vs.library_top,
        library_lines: std::mem::take(&mut vs.library_lines),
        ..ViewState::default()
    };
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        reduced(area, buf, app, theme, vs);
        return;
    }
    let status_h = status::status_height(app, theme, area.width);
    let [main, status] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(status_h)]).areas(area);
    // The library covers every pane: they are not drawn under it (a key in a list of
    // 100,000 games draws the list and the status line only).
    if app
        .overlays()
        .iter()
        .any(|o| matches!(o, Overlay::Library(_)))
    {
        status::status_line(status, buf, app, theme, vs);
        overlays(main, main, buf, app, theme, vs);
        if theme.double {
            skip_ambiguous_pads(buf);
        }
        return;
    }
    // The solve mode: the board and its pane, nothing of the record (no moves, no comment,
    // no engine).
    if app.train().is_some_and(|t| !t.away()) {
        let right = train_screen(main, buf, app, theme, vs);
        status::status_line(status, buf, app, theme, vs);
        overlays(main, right, buf, app, theme, vs);
        if theme.double {
            skip_ambiguous_pads(buf);
        }
        return;
    }
    // The grid is picked for the screen with a one-row status line, so that a message that
    // takes a second status row does not switch the board's size back and forth (auto keeps
    // 8 header rows below the board, which give way first).
    let stable = Rect {
        height: area.height.saturating_sub(1),
        ..main
    };
    let grid = pick_grid(app, stable, theme)
        .filter(|g| g.size(theme).1 <= main.height)
        .or_else(|| pick_grid(app, main, theme));
    let (board_w, wide) = match grid {
        Some(g) => {
            let w = g.size(theme).0 + 2;
            (w, main.width >= w + 80)
        }
        None => {
            let wide = main.width >= WIDE;
            (BoardWidget::size(theme).0 + if wide { 9 } else { 3 }, wide)
        }
    };
    if wide {
        wide_panes(main, buf, app, theme, vs, grid, board_w);
    } else {
        narrow_panes(main, buf, app, theme, vs, grid, board_w);
    }
    status::status_line(status, buf, app, theme, vs);
    search::highlight(buf, app, vs);
    let [_, beside] =
        Layout::horizontal([Constraint::Length(board_w), Constraint::Fill(1)]).areas(main);
    overlays(main, beside, buf, app, theme, vs);
    if theme.double {
        skip_ambiguous_pads(buf);
    }
}

/// The solve mode's screen: the board (large where it fits) and the training pane beside
/// it, which it returns.
fn train_screen(
    main: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
) -> Rect {
    let stable = Rect {
        height: main.height.saturating_sub(1),
        ..main
    };
    let grid = pick_grid(app, stable, theme).filter(|g| g.size(theme).1 <= main.height);
    let board_w = grid.map_or(BoardWidget::size(theme).0 + 3, |g| g.size(theme).0 + 2);
    let [left, right] =
        Layout::horizontal([Constraint::Length(board_w), Constraint::Fill(1)]).areas(main);
    board_or_grid(left, buf, app, theme, vs, grid);
    train::train_pane(right, buf, app, theme);
    right
}

/// Below `MIN_WIDTH`x`MIN_HEIGHT`: the board and the move line (with the hands, the names
/// and the status line as rows allow), or, when even the board does not fit, the move line
/// and what size the full layout needs.
fn reduced(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, vs: &mut ViewState) {
    if area.is_empty() {
        return;
    }
    let status_h = u16::from(area.height > BoardWidget::size(theme).1 + 1);
    let [main, status] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(status_h)]).areas(area);
    if status_h > 0 {
        status::status_line(status, buf, app, theme, vs);
    }
    if board::reduced_column(main, buf, app, theme, vs).is_some() {
        return;
    }
    buf.set_line(area.x, area.y, &board::move_line(app, theme), area.width);
    let msg = format!(
        "The board needs {}x{} and the full layout {MIN_WIDTH}x{MIN_HEIGHT}; this terminal is {}x{}.",
        BoardWidget::size(theme).0,
        BoardWidget::size(theme).1 + 1,
        area.width,
        area.height
    );
    let rest = Rect {
        y: area.y + 1,
        height: main.height.saturating_sub(1),
        ..area
    };
    Paragraph::new(msg)
        .wrap(ratatui::widgets::Wrap { trim: true })
        .render(rest, buf);
}

/// The panes of a wide screen: the board over the header, the moves over the variations, the
/// comment over the graph and the analysis.
fn wide_panes(
    main: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
    grid: Option<Grid>,
    board_w: u16,
) {
    let [left, mid, right] = Layout::horizontal([
        Constraint::Length(board_w),
        Constraint::Length(40),
        Constraint::Fill(1),
    ])
    .areas(main);
    let used = board_or_grid(left, buf, app, theme, vs, grid);
    let [_, header] = Layout::vertical([Constraint::Length(used), Constraint::Fill(1)]).areas(left);
    let header = clock::clock_rows(header, buf, app, theme);
    header::header_pane(header, buf, app, theme, vs);
    let [moves, vars] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(variations_height(app, 8)),
    ])
    .areas(mid);
    move_list::move_list(moves, buf, app, theme, vs);
    variations::variations(vars, buf, app, theme, vs);
    let right = explorer_beside(right, buf, app, theme);
    let pane_h = if analysis::visible(app, true) {
        analysis::wanted_height(app).min(right.height / 3)
    } else {
        0
    };
    // The graph gives up rows (down to 8) to a comment that does not fit.
    let graph_h = if graph_fits(app) {
        let h = (right.height * 2 / 5).clamp(8, 18);
        let comment_room = right.height.saturating_sub(h + pane_h);
        let short = comment::wanted_height(app, theme, right.width).saturating_sub(comment_room);
        h.saturating_sub(short).max(8)
    } else {
        0
    };
    let [comment, graph_area, pane] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(graph_h),
        Constraint::Length(pane_h),
    ])
    .areas(right);
    comment::comment_pane(comment, buf, app, theme, vs);
    if graph_h > 0 {
        graph::graph_pane(graph_area, buf, app, theme, vs);
    }
    if pane_h > 0 {
        analysis::analysis_pane(pane, buf, app, theme);
    }
}

/// The panes of a narrow screen: the board over the header; the moves, the variations, and
/// the comment (or the graph and the analysis in its place).
fn narrow_panes(
    main: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
    grid: Option<Grid>,
    board_w: u16,
) {
    let [left, right] =
        Layout::horizontal([Constraint::Length(board_w), Constraint::Fill(1)]).areas(main);
    let used = board_or_grid(left, buf, app, theme, vs, grid);
    let [_, header] = Layout::vertical([Constraint::Length(used), Constraint::Fill(1)]).areas(left);
    let header = clock::clock_rows(header, buf, app, theme);
    header::header_pane(header, buf, app, theme, vs);
    let vars_h = variations_height(app, 5);
    if main.width >= WIDE {
        return stacked_panes(right, buf, app, theme, vs, vars_h);
    }
    // Research mode: the analysis pane takes the comment pane's place (the comment comes
    // back while it has the focus or is being edited).
    // So does the graph (both: the graph over the analysis).
    let commenting =
        app.mode() == crate::app::Mode::Comment || app.focus() == crate::app::Focus::Comment;
    let research = analysis::visible(app, false) && !commenting;
    let graphing = app.graph().shown && !commenting;
    // The explorer takes their place while shown.
    let exploring = book::shown(app) && !commenting;
    let comment_h = match (graphing, research) {
        _ if exploring => book::wanted_height(app).clamp(right.height / 3, right.height / 2),
        (true, true) => 7 + analysis::wanted_height(app).min(right.height / 4),
        (true, false) => (right.height * 2 / 5).max(8),
        (false, true) => analysis::wanted_height(app)
            .max(right.height / 3)
            .min(right.height / 2),
        (false, false) => comment_height(app, theme, right, vars_h),
    };
    let [moves, vars, comment] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(vars_h),
        Constraint::Length(comment_h),
    ])
    .areas(right);
    move_list::move_list(moves, buf, app, theme, vs);
    variations::variations(vars, buf, app, theme, vs);
    if exploring {
        book::panes(comment, buf, app, theme);
        explorer::comment_hint(comment, buf, app, theme);
    } else if graphing && research {
        let [g, a] = Layout::vertical([Constraint::Length(7), Constraint::Fill(1)]).areas(comment);
        graph::graph_pane(g, buf, app, theme, vs);
        analysis::analysis_pane(a, buf, app, theme);
    } else if graphing {
        graph::graph_pane(comment, buf, app, theme, vs);
    } else if research {
        analysis::analysis_pane(comment, buf, app, theme);
    } else {
        comment::comment_pane(comment, buf, app, theme, vs);
    }
}

/// The column beside a large board from `WIDE` columns on: the moves, the variations, the
/// comment, and under it the graph and the analysis when shown (none takes another's place).
fn stacked_panes(
    right: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
    vars_h: u16,
) {
    let pane_h = if analysis::visible(app, true) {
        analysis::wanted_height(app).min(right.height / 4)
    } else {
        0
    };
    let graph_h = if graph_fits(app) {
        (right.height / 4).max(8)
    } else {
        0
    };
    let rest = Rect {
        height: right.height.saturating_sub(pane_h + graph_h),
        ..right
    };
    // The explorer, when shown, takes the comment's place.
    let exploring = book::shown(app);
    let comment_h = match exploring {
        true => book::wanted_height(app).clamp(rest.height / 3, rest.height / 2),
        false => comment_height(app, theme, rest, vars_h),
    };
    let [moves, vars, comment, graph_area, pane] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(vars_h),
        Constraint::Length(comment_h),
        Constraint::Length(graph_h),
        Constraint::Length(pane_h),
    ])
    .areas(right);
    move_list::move_list(moves, buf, app, theme, vs);
    variations::variations(vars, buf, app, theme, vs);
    if exploring {
        book::panes(comment, buf, app, theme);
        explorer::comment_hint(comment, buf, app, theme);
    } else {
        comment::comment_pane(comment, buf, app, theme, vs);
    }
    if graph_h > 0 {
        graph::graph_pane(graph_area, buf, app, theme, vs);
    }
    if pane_h > 0 {
        analysis::analysis_pane(pane, buf, app, theme);
    }
}

/// Is the graph drawn where it has a pane of its own (from `WIDE` columns): when `E` showed
/// it, or by itself for a record whose comments hold evaluations.
fn graph_fits(app: &App) -> bool {
    app.graph().shown || app.graph().auto
}

/// Columns of the explorer pane beside the comment on a wide screen.
const EXPLORER_W: u16 = 48;

/// On a wide screen, the explorer (when shown) beside the comment column when there is room
/// for both, else above it; returns what is left for the comment, the graph and the analysis.
fn explorer_beside(right: Rect, buf: &mut Buffer, app: &App, theme: &Theme) -> Rect {
    if !book::shown(app) {
        return right;
    }
    if right.width >= EXPLORER_W * 2 {
        let [rest, pane] =
            Layout::horizontal([Constraint::Fill(1), Constraint::Length(EXPLORER_W)]).areas(right);
        book::panes(pane, buf, app, theme);
        return rest;
    }
    let h = book::wanted_height(app).min(right.height / 2);
    let [pane, rest] = Layout::vertical([Constraint::Length(h), Constraint::Fill(1)]).areas(right);
    book::panes(pane, buf, app, theme);
    rest
}

/// The overlays, bottom first, so the top one is drawn last (over the others). `beside` is
/// the part of the screen right of the board, for those that keep the board in sight.
fn overlays(
    main: Rect,
    beside: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
) {
    for o in app.overlays().iter() {
        match o {
            Overlay::Tree(t) => tree::tree_overlay(main, beside, buf, app, t, theme, vs),
            Overlay::Help(h) => help::help_overlay(main, buf, app, h, theme, vs),
            Overlay::Warnings(w) => help::warnings_overlay(main, buf, app, w.scroll, theme, vs),
            Overlay::List(l) => list::list_overlay(main, buf, l, theme, vs),
            Overlay::Confirm(q) => confirm::confirm_overlay(main, buf, q, theme),
            Overlay::CopyMenu(_) => copy_menu::copy_menu(main, buf, app, theme, vs),
            Overlay::Paste(p) => paste::paste_prompt(main, buf, app, p, theme, vs),
            Overlay::PositionEditor(p) => {
                position_editor::position_editor_overlay(main, buf, p, theme)
            }
            Overlay::Library(s) => library::library_overlay(main, buf, app, s, theme, vs),
            // The explorer's focus: its pane draws the highlight.
            Overlay::Panel(p) if p.mode() == crate::app::collection::focus::FOCUS => {}
            // The book pane's focus: its pane draws the highlight.
            Overlay::Panel(p) if p.mode() == crate::app::book::focus::FOCUS => {}
            Overlay::Panel(p) => {
                let scroll = p.scroll();
                help::panel_overlay(main, buf, &p.panel(app), scroll, theme, vs)
            }
            // Drawn in their panes (the status line, the comment pane, the board; the solve
            // mode's screen).
            Overlay::Train(_)
            | Overlay::CommandLine(_)
            | Overlay::Prompt(_)
            | Overlay::CommentEditor(_)
            | Overlay::BoardInput(_) => {}
        }
    }
}

/// The board column: the large board when a grid was picked, else the BOD one.
fn board_or_grid(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    theme: &Theme,
    vs: &mut ViewState,
    grid: Option<Grid>,
) -> u16 {
    match grid {
        Some(g) => large_column(area, buf, app, theme, vs, g),
        None => board_column(area, buf, app, theme, vs),
    }
}

/// Rows kept for the move list when the comment pane grows (borders and five moves).
const MIN_MOVES_H: u16 = 7;

/// The comment pane's rows below the move list: a third of the column (at least 5), or,
/// when the comment has more lines, up to all of them, taken from the move list (which
/// keeps `MIN_MOVES_H`). It grows in steps of four rows, so stepping through moves whose
/// comments differ by a line or two does not move the list each time.
fn comment_height(app: &App, theme: &Theme, right: Rect, vars_h: u16) -> u16 {
    let base = (right.height / 3).max(5);
    let wanted = comment::wanted_height(app, theme, right.width);
    if wanted <= base {
        return base;
    }
    let cap = right.height.saturating_sub(vars_h + MIN_MOVES_H).max(base);
    (base + (wanted - base).div_ceil(4) * 4).min(cap)
}

/// The large board's grid, when `board.size` (or `z`) asks for it and one fits: `large`
/// takes the largest grid that fits beside a narrow move list; `auto` the largest that
/// leaves the move list 40 columns and the header pane 8 rows (the smallest grid, 4x2,
/// from 96x32 cells; 6x3 from 114x41; 8x4 from 132x50).
pub fn pick_grid(app: &App, main: Rect, theme: &Theme) -> Option<Grid> {
    let (others_w, header_h) = match app.board_size() {
        BoardSize::Bod => return None,
        BoardSize::Auto => (40, 8),
        BoardSize::Large => (24, 0),
    };
    GRIDS.into_iter().find(|g| {
        let (w, h) = g.size(theme);
        w + 2 + others_w <= main.width && h + header_h <= main.height
    })
}

/// Rows of the variation pane: its list (at most `max - 2`) and borders.
fn variations_height(app: &App, max: u16) -> u16 {
    let n = app
        .alternatives()
        .map_or(1, |(fork, _)| app.record().node(fork).children.len());
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
