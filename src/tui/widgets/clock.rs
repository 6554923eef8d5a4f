//! The clocks of a game (`app::play`), above the header pane under the board: each side's
//! name and main time left, its byoyomi (counting down once the main time is gone), the time
//! the side to move has thought on this move (◀), else the time its last move took; under
//! them the result once the game is over, and the engine's evaluation and line when shown.
//! An engine still starting says so (起動中): its clock runs only once it is ready.
//! Drawing reads the clock's time and changes nothing: the run loop draws again at the next
//! second the clocks show (`App::play_next_look`).

use crate::app::App;
use crate::app::play::SideView;
use crate::tui::draw::pane_rows;
use crate::tui::text::{ellipsize, width};
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use std::time::Duration;

/// Draws the clocks at the top of `area` while a game is on the board; returns what is left
/// below them (all of `area` without a game).
pub fn clock_rows(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) -> Rect {
    let Some(view) = app.play_view() else {
        return area;
    };
    let extra = [view.result.is_some(), view.eval.is_some()]
        .into_iter()
        .filter(|&b| b)
        .count() as u16;
    let h = (4 + extra).min(area.height);
    if h < 3 {
        return area;
    }
    let top = Rect { height: h, ..area };
    let title = format!("対局 {}", view.time_control);
    let Some(rows) = pane_rows(top, buf, title, false, theme) else {
        return area;
    };
    let w = rows.inner.width as usize;
    for (i, (mark, s)) in ["▲", "△"].into_iter().zip(&view.sides).enumerate() {
        let style = match s.thinking.is_some() {
            true => Style::new().add_modifier(Modifier::BOLD),
            false => Style::new(),
        };
        rows.put(buf, i, &side_row(mark, s, w, theme.double), style);
    }
    for (row, text) in (2..).zip([&view.result, &view.eval].into_iter().flatten()) {
        rows.put(buf, row, text, theme.dim);
    }
    Rect {
        y: area.y + h,
        height: area.height - h,
        ..area
    }
}

/// `▲You        9:58 +30 ◀12` : the name, the main time, the byoyomi, this move's time
/// (◀, the side to move) or the last move's (`(5)`), fitted to `w` columns (the name gives
/// way).
fn side_row(mark: &str, s: &SideView, w: usize, double: bool) -> String {
    let mut time = String::new();
    match (s.main, s.byoyomi) {
        (Some(main), Some(byo)) if main.is_zero() => time.push_str(&format!("秒読み{}", left(byo))),
        (Some(main), Some(byo)) => time.push_str(&format!("{} +{}", clock(main), left(byo))),
        (Some(main), None) => time.push_str(&clock(main)),
        (None, _) => {}
    }
    match (s.thinking, s.last) {
        (Some(t), _) => time.push_str(&format!(" ◀{}", secs(t))),
        (None, Some(t)) => time.push_str(&format!(" ({})", secs(t))),
        (None, None) => {}
    }
    if s.starting {
        // gpsusi takes 15-50 s to answer `usi` and `isready` on a loaded machine.
        time.push_str(" 起動中");
    }
    let room = w.saturating_sub(width(mark) + width(&time) + 1);
    let name = ellipsize(&s.name, room, double);
    let pad = room.saturating_sub(width(&name));
    format!("{mark}{name}{} {time}", " ".repeat(pad))
}

/// `9:58`, `1:05:00`: minutes and seconds left, rounded up (a clock shows 0:00 only at the
/// fall).
fn clock(d: Duration) -> String {
    let s = d.as_millis().div_ceil(1000) as u64;
    match s >= 3600 {
        true => format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60),
        false => format!("{}:{:02}", s / 60, s % 60),
    }
}

/// Whole seconds spent (rounded down).
fn secs(d: Duration) -> u64 {
    d.as_secs()
}

/// Whole seconds left, rounded up (a byoyomi of 30 shows 30 until a second has passed).
fn left(d: Duration) -> u64 {
    d.as_millis().div_ceil(1000) as u64
}
