//! The variation tree overlay: one row per branch, drawn as a tree (`├─`, `└─`, `│`), with
//! its first move, its number of moves and how many branches a fold hides. The row that
//! holds the cursor is selected and marked `*` (with the move the cursor is on when it is not
//! the branch's first); the board stays beside the tree when the screen leaves it room.
//! Drawing costs the rows shown times their depth.

use crate::app::outline::Outline;
use crate::app::overlay::TreeView;
use crate::app::{App, Command, KeyMode};
use crate::core::record::NodeId;
use crate::tui::draw::{block, keys_for};
use crate::tui::draw::{clear, overlay_rect};
use crate::tui::text::{clean, truncate};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

/// The tree needs this many columns beside the board; narrower, it covers the board.
const MIN_BESIDE: u16 = 44;
/// Levels drawn as lines; deeper branches show their depth (`»17`).
const MAX_LEVELS: usize = 16;

/// The variation tree. `beside` is the part of the screen right of the board.
pub fn tree_overlay(
    main: Rect,
    beside: Rect,
    buf: &mut Buffer,
    app: &App,
    view: &TreeView,
    theme: &Theme,
    vs: &mut ViewState,
) {
    let area = if beside.width >= MIN_BESIDE {
        beside
    } else {
        overlay_rect(main, 100)
    };
    clear(area, buf);
    let Some(outline) = app.outline_cached() else {
        return;
    };
    let n = outline.rows.len();
    let sel = view.selected.min(n.saturating_sub(1));
    let title = format!(
        "変化ツリー {n} branches  {}: fold",
        keys_for(app, KeyMode::Tree, Command::TreeFold)
    );
    let b = block(title, true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.tree_area = inner;
    vs.tree_rows.clear();
    let h = inner.height as usize;
    if h == 0 || n == 0 {
        return;
    }
    let folded = |id| view.is_folded(id);
    vs.tree_offset = first_row(outline, folded, vs.tree_offset.min(n - 1), sel, h);
    let mut i = Some(vs.tree_offset);
    for y in inner.y..inner.y + inner.height {
        let Some(row) = i else { break };
        let text = row_text(app, outline, view, row, theme.double);
        let line = truncate(&clean(&text, theme.double), inner.width as usize);
        buf.set_string(inner.x, y, line, Style::new());
        if row == sel {
            buf.set_style(Rect::new(inner.x, y, inner.width, 1), theme.selection);
        }
        vs.tree_rows.push(row);
        i = outline.next_shown(row, folded);
    }
}

/// The first row to draw so that `sel` shows among `h` rows, starting from `offset` when it
/// can (the view scrolls only as far as it must).
fn first_row(
    outline: &Outline,
    folded: impl Fn(NodeId) -> bool + Copy,
    offset: usize,
    sel: usize,
    h: usize,
) -> usize {
    let offset = outline.shown_row(offset, folded);
    if sel < offset {
        return sel;
    }
    let mut r = offset;
    for _ in 1..h {
        if r == sel {
            return offset;
        }
        match outline.next_shown(r, folded) {
            Some(next) => r = next,
            None => return offset,
        }
    }
    if r == sel {
        return offset;
    }
    // Below the view: it becomes the last row.
    let mut top = sel;
    for _ in 1..h {
        match outline.prev_shown(top, folded) {
            Some(p) => top = p,
            None => break,
        }
    }
    top
}

/// `* │  ├─ 12手目 △３四歩  (8手)  [+3]`: the mark, the lines of the levels above, the
/// branch's own line, its first move, its length and what its fold hides.
fn row_text(app: &App, outline: &Outline, view: &TreeView, row: usize, ascii: bool) -> String {
    let r = outline.rows[row];
    let cur = app.cur();
    let cur_row = outline.row_of(cur);
    let holds_cursor = outline.shown_row(cur_row, |id| view.is_folded(id)) == row;
    let mut s = String::from(if holds_cursor { "* " } else { "  " });
    s.push_str(&lines(outline, row, ascii));
    let rec = app.record();
    if r.start == NodeId::ROOT {
        s.push_str(&format!("本譜  ({}手)", r.len.saturating_sub(1)));
    } else {
        let number = rec.move_number(r.start);
        s.push_str(&format!(
            "{number}手目 {}  ({}手)",
            app.step_text(r.start),
            r.len
        ));
    }
    if view.is_folded(r.start) {
        s.push_str(&format!("  [+{}]", r.end as usize - row - 1));
    } else if outline.has_branches(row) {
        s.push_str("  [-]");
    }
    if cur_row == row && cur != r.start && cur != NodeId::ROOT {
        let number = rec.move_number(cur);
        s.push_str(&format!("  at {number}手目 {}", app.step_text(cur)));
    }
    s
}

/// The tree's lines left of a row: `│  ` for each level above whose branch goes on, then
/// `├─ ` (or `└─ ` for the last branch); ASCII in double-width mode.
fn lines(outline: &Outline, row: usize, ascii: bool) -> String {
    let r = outline.rows[row];
    let depth = r.depth as usize;
    if depth == 0 {
        return String::new();
    }
    let (bar, tee, elbow) = if ascii {
        ("|  ", "+- ", "`- ")
    } else {
        ("│  ", "├─ ", "└─ ")
    };
    // The levels above, from this row's parent up: does each go on below this row?
    let mut above = Vec::with_capacity(depth.min(MAX_LEVELS));
    let mut p = r.parent as usize;
    while p != 0 && above.len() < MAX_LEVELS {
        above.push(!outline.rows[p].last);
        p = outline.rows[p].parent as usize;
    }
    let mut s = String::new();
    if depth > MAX_LEVELS {
        s.push_str(&format!("»{depth} "));
    }
    for &goes_on in above.iter().rev() {
        s.push_str(if goes_on { bar } else { "   " });
    }
    s.push_str(if r.last { elbow } else { tee });
    s
}
