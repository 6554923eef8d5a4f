//! Terminal events converted at the edge into the app's own keys and actions.

use super::view::ViewState;
use crate::app::{Action, App, Command, KeyCode, KeyEvent, Mode, Modifiers, Pane};
use crossterm::event::{
    self as ct, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

/// A crossterm key press as the app's key (`None` for releases and keys the app ignores).
pub fn to_key_event(k: &ct::KeyEvent) -> Option<KeyEvent> {
    if k.kind == KeyEventKind::Release {
        return None;
    }
    let code = match k.code {
        ct::KeyCode::Char(c) => KeyCode::Char(c),
        ct::KeyCode::Enter => KeyCode::Enter,
        ct::KeyCode::Esc => KeyCode::Esc,
        ct::KeyCode::Backspace => KeyCode::Backspace,
        ct::KeyCode::Tab => KeyCode::Tab,
        ct::KeyCode::BackTab => KeyCode::BackTab,
        ct::KeyCode::Left => KeyCode::Left,
        ct::KeyCode::Right => KeyCode::Right,
        ct::KeyCode::Up => KeyCode::Up,
        ct::KeyCode::Down => KeyCode::Down,
        ct::KeyCode::Home => KeyCode::Home,
        ct::KeyCode::End => KeyCode::End,
        ct::KeyCode::PageUp => KeyCode::PageUp,
        ct::KeyCode::PageDown => KeyCode::PageDown,
        ct::KeyCode::Insert => KeyCode::Insert,
        ct::KeyCode::Delete => KeyCode::Delete,
        ct::KeyCode::F(n) => KeyCode::F(n),
        _ => return None,
    };
    let mods = Modifiers {
        ctrl: k.modifiers.contains(KeyModifiers::CONTROL),
        alt: k.modifiers.contains(KeyModifiers::ALT),
        shift: k.modifiers.contains(KeyModifiers::SHIFT),
    };
    Some(KeyEvent::new(code, mods))
}

fn inside(r: Rect, col: u16, row: u16) -> bool {
    r.contains(Position::new(col, row))
}

/// What a mouse event means, given where things were last drawn.
pub fn mouse_action(app: &App, vs: &ViewState, m: &MouseEvent) -> Option<Action> {
    let (col, row) = (m.column, m.row);
    let wheel = match m.kind {
        MouseEventKind::ScrollDown => 1,
        MouseEventKind::ScrollUp => -1,
        MouseEventKind::Down(MouseButton::Left) => 0,
        _ => return None,
    };
    match app.mode() {
        Mode::Tree => {
            if wheel != 0 {
                let c = if wheel > 0 {
                    Command::TreeDown
                } else {
                    Command::TreeUp
                };
                return Some(Action::Run(c));
            }
            if inside(vs.tree_area, col, row) {
                let i = (row - vs.tree_area.y) as usize;
                return vs.tree_rows.get(i).map(|&r| Action::TreeJumpRow(r));
            }
            None
        }
        Mode::Normal | Mode::Board if wheel == 0 && inside(vs.board_squares, col, row) => {
            // Squares are `board_cell` apart (3x1 on the BOD board; on the large grid a
            // line belongs to the square on its left or above); file 9 is on the left
            // unless the board is flipped.
            let (cw, ch) = (vs.board_cell.0.max(1), vs.board_cell.1.max(1));
            let c = ((col - vs.board_squares.x) / cw).min(8) as u8;
            let r = ((row - vs.board_squares.y) / ch).min(8) as u8;
            let (file, rank) = if app.flipped() {
                (c + 1, 9 - r)
            } else {
                (9 - c, r + 1)
            };
            crate::core::rules::Square::new(file, rank).map(Action::BoardClick)
        }
        Mode::Library if wheel != 0 => Some(Action::Run(if wheel > 0 {
            Command::LibraryDown
        } else {
            Command::LibraryUp
        })),
        Mode::Help | Mode::Warnings | Mode::Panel(_) => {
            (wheel != 0).then_some(Action::Scroll(Pane::Overlay, wheel * 3))
        }
        Mode::Normal | Mode::CommandLine => {
            if wheel != 0 {
                if inside(vs.comment_area, col, row) {
                    return Some(Action::Scroll(Pane::Comment, wheel * 3));
                }
                if inside(vs.header_area, col, row) {
                    return Some(Action::Scroll(Pane::Header, wheel * 3));
                }
                let c = if wheel > 0 {
                    Command::NextMove
                } else {
                    Command::PrevMove
                };
                return Some(Action::Run(c));
            }
            if inside(vs.moves_area, col, row) {
                let i = vs.moves_offset + (row - vs.moves_area.y) as usize;
                return (i < app.line().len()).then_some(Action::GotoPly(i as u32));
            }
            if inside(vs.graph_area, col, row) {
                let ply = super::widgets::graph::ply_at(vs.graph_area, vs.graph_points, col)?;
                return app
                    .record()
                    .main_line()
                    .get(ply as usize)
                    .map(|&id| Action::JumpTo(id));
            }
            if inside(vs.variations_area, col, row) {
                let i = (row - vs.variations_area.y) as usize;
                return vs.variation_nodes.get(i).map(|&id| Action::JumpTo(id));
            }
            None
        }
        // The others take no mouse action.
        _ => None,
    }
}
