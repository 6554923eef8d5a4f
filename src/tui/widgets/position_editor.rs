//! The position editor (局面編集) drawn over the whole screen: gote's hand, the board with the
//! cursor, sente's hand, the side to move, the piece box, the last message and the keys.

use super::board::BoardWidget;
use crate::app::edit::position_editor::{PositionEditor, Region, SET};
use crate::app::overlay::PositionEditing;
use crate::app::overlay::board_input::BoardMarks;
use crate::core::rules::{Color, PieceKind};
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

/// The keys, shortest first so that narrow screens keep the essentials.
const HINT: &str = "←↑↓→ or 51: square · PLNSGBRK ▲ plnsgbrk △ (+P promoted, 歩…龍) · x empty · \
v turn · + promote · Tab hands/box · 0-9 +/- counts · a box→△hand · t side · f flip · \
^p preset · u/^r undo · Enter done · Esc cancel";

/// Draws the position editor over `area` (the screen above the status line).
pub fn position_editor_overlay(area: Rect, buf: &mut Buffer, p: &PositionEditing, theme: &Theme) {
    (&PositionEditorWidget {
        editor: &p.editor,
        theme,
        errors: &p.errors,
    })
        .render(area, buf);
}

pub struct PositionEditorWidget<'a> {
    pub editor: &'a PositionEditor,
    pub theme: &'a Theme,
    /// Reasons the last Enter was refused (shown until the next edit).
    pub errors: &'a [String],
}

impl Widget for &PositionEditorWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let e = self.editor;
        let t = self.theme;
        Clear.render(area, buf);
        let title = format!(
            "局面編集 (position editor) · {}",
            match e.region {
                Region::Board => format!("盤 {}", square_label(e)),
                r => r.name().to_string(),
            }
        );
        let block = Block::new()
            .borders(Borders::ALL)
            .border_style(t.focus_border)
            .title(title);
        let inner = block.inner(area);
        block.render(area, buf);
        let (bw, bh) = BoardWidget::size(t);
        if inner.width < bw || inner.height < bh + 6 {
            Paragraph::new("the position editor needs at least 33x20 cells")
                .style(t.warning)
                .render(inner, buf);
            return;
        }
        // Gote's hand on top and sente's below, as in a BOD diagram (swapped when flipped).
        let (top, bottom) = if e.flipped {
            (Color::Black, Color::White)
        } else {
            (Color::White, Color::Black)
        };
        let mut y = inner.y;
        hand_line(e, top, t).render(Rect::new(inner.x, y, inner.width, 1), buf);
        y += 1;
        let board = BoardWidget {
            position: e.position(),
            last_to: None,
            last_from: None,
            best: None,
            flipped: e.flipped,
            theme: t,
            marks: (e.region == Region::Board).then_some(BoardMarks {
                cursor: e.cursor,
                picked: None,
                targets: &[],
            }),
        };
        (&board).render(Rect::new(inner.x, y, bw, bh), buf);
        // Beside the board when there is room, else below it: the box and the side to move.
        let side_x = inner.x + bw + 2;
        let beside = inner.width >= bw + 2 + 24;
        let info = info_lines(e, t);
        y += bh;
        hand_line(e, bottom, t).render(Rect::new(inner.x, y, inner.width, 1), buf);
        y += 1;
        if beside {
            Paragraph::new(info).wrap(Wrap { trim: false }).render(
                Rect::new(side_x, inner.y + 1, inner.width - bw - 2, bh),
                buf,
            );
        } else {
            let h = info.len() as u16;
            Paragraph::new(info).render(Rect::new(inner.x, y, inner.width, h), buf);
            y += h;
        }
        let lines = self.message_lines();
        let rest = Rect::new(inner.x, y, inner.width, inner.bottom().saturating_sub(y));
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(rest, buf);
    }
}

/// The side to move, the piece box, and why the set is overdrawn (if it is).
fn info_lines(e: &PositionEditor, t: &Theme) -> Vec<Line<'static>> {
    let mut info = vec![
        Line::from(format!(
            "手番：{}",
            match e.position().side_to_move() {
                Color::Black => "▲先手",
                Color::White => "△後手",
            }
        )),
        box_line(e, t),
    ];
    if let Some(why) = e.overdrawn() {
        info.push(Line::styled(why, t.error));
    }
    info
}

impl PositionEditorWidget<'_> {
    /// Below the board: why the position cannot be used, the editor's message, the keys.
    fn message_lines(&self) -> Vec<Line<'static>> {
        let t = self.theme;
        let mut lines: Vec<Line> = Vec::new();
        for err in self.errors {
            lines.push(Line::styled(format!("✗ {err}"), t.error));
        }
        if let Some(m) = &self.editor.message {
            lines.push(Line::from(m.clone()));
        }
        lines.push(Line::styled(HINT, t.dim));
        lines
    }
}

fn square_label(e: &PositionEditor) -> String {
    crate::core::notation::japanese::square_kif(e.cursor)
}

/// `△後手の持駒：飛0 角1 …` with the hand cursor shown when the hand has the focus.
fn hand_line(e: &PositionEditor, color: Color, t: &Theme) -> Line<'static> {
    let focused = e.region == Region::Hand(color);
    let name = match color {
        Color::Black => "▲先手の持駒：",
        Color::White => "△後手の持駒：",
    };
    let mut spans = vec![Span::styled(
        name,
        if focused {
            t.focus_border.add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        },
    )];
    for (i, k) in PieceKind::HAND.into_iter().enumerate() {
        let n = e.position().hand_count(color, k);
        let style = if focused && i == e.hand_kind {
            Style::new().add_modifier(Modifier::REVERSED)
        } else if n == 0 {
            t.dim
        } else {
            Style::new()
        };
        spans.push(Span::styled(format!("{}{n}", k.board_char()), style));
        spans.push(Span::raw(" "));
    }
    Line::from(spans)
}

/// `駒箱：玉1 飛0 …`: what is neither on the board nor in a hand.
fn box_line(e: &PositionEditor, t: &Theme) -> Line<'static> {
    let left = e.in_box();
    let focused = e.region == Region::Box;
    let mut spans = vec![Span::styled(
        "駒箱：",
        if focused {
            t.focus_border.add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        },
    )];
    let kinds = std::iter::once(PieceKind::King).chain(PieceKind::HAND);
    for k in kinds {
        let i = k as usize;
        let n = left[i];
        spans.push(Span::styled(
            format!("{}{n}", k.board_char()),
            if n == 0 { t.dim } else { Style::new() },
        ));
        spans.push(Span::raw(" "));
    }
    let total: u32 = left.iter().sum();
    let all: u32 = SET.iter().sum();
    spans.push(Span::styled(format!("({total}/{all})"), t.dim));
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::dispatch::input::{KeyCode, KeyEvent, Modifiers};
    use crate::core::rules::Position;

    fn draw(e: &PositionEditor, w: u16, h: u16, errors: &[String]) -> Vec<String> {
        let theme = Theme::plain();
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        (&PositionEditorWidget {
            editor: e,
            theme: &theme,
            errors,
        })
            .render(buf.area, &mut buf);
        (0..h)
            .map(|y| {
                let mut s = String::new();
                let mut skip = 0;
                for x in 0..w {
                    if skip > 0 {
                        skip -= 1;
                        continue;
                    }
                    let sym = buf[(x, y)].symbol();
                    skip = unicode_width::UnicodeWidthStr::width(sym).saturating_sub(1);
                    s.push_str(sym);
                }
                s.trim_end().to_string()
            })
            .collect()
    }

    fn typed(e: &mut PositionEditor, s: &str) {
        for c in s.chars() {
            let code = if c == '\t' {
                KeyCode::Tab
            } else {
                KeyCode::Char(c)
            };
            e.key(KeyEvent {
                code,
                mods: Modifiers::default(),
            });
        }
    }

    #[test]
    fn tsume_setup_at_80x24() {
        let mut e = PositionEditor::new(Position::startpos(), false);
        e.apply_preset(crate::app::edit::position_editor::Preset::Tsume);
        typed(&mut e, "22S32G\t");
        let rows = draw(&e, 80, 24, &[]);
        let screen = rows.join("\n");
        assert!(rows[0].contains("局面編集"), "{screen}");
        assert!(rows[0].contains("先手の持駒"), "{screen}");
        assert!(
            rows[1].starts_with("│△後手の持駒：飛0 角0 金0 銀0 桂0 香0 歩0"),
            "{screen}"
        );
        assert!(
            screen.contains("| ・ ・ ・ ・v玉 ・ ・ ・ ・|一"),
            "{screen}"
        );
        assert!(
            screen.contains("駒箱：玉1 飛2 角2 金3 銀3 桂4 香4 歩18"),
            "{screen}"
        );
        assert!(screen.contains("(37/40)"), "{screen}");
        assert!(screen.contains("手番：▲先手"), "{screen}");
        assert!(
            screen.contains("Esc cancel"),
            "the whole key line fits: {screen}"
        );
    }

    #[test]
    fn refusals_are_listed() {
        let e = PositionEditor::new(Position::empty(), false);
        let errs = vec!["gote has no king (a tsume problem needs gote's king)".to_string()];
        let screen = draw(&e, 100, 32, &errs).join("\n");
        assert!(screen.contains("✗ gote has no king"), "{screen}");
    }

    #[test]
    fn too_small_says_so() {
        let e = PositionEditor::new(Position::startpos(), false);
        let screen = draw(&e, 40, 12, &[]).join("\n");
        assert!(screen.contains("needs at least"), "{screen}");
    }
}
