//! The KI2 reader: the header part as KIF has it (shared with the KIF reader), then lines of
//! moves with side marks, comments, bookmarks, `変化：N手` blocks and `まで…` endings.

use super::moves::{Token, parse_token, token_text};
use super::{is_mark, mark_color};
use crate::notation::bod;
use crate::notation::builder::{RecordBuilder, Style};
use crate::notation::diag::MoveName;
use crate::notation::japanese;
use crate::notation::kif::{Setup, board_line, header_field, header_line};
use crate::notation::{DiagKind, Parsed, lines};
use crate::record::Special;

fn strip_colon(s: &str) -> Option<&str> {
    s.strip_prefix('：').or_else(|| s.strip_prefix(':'))
}

/// How a `まで…` line ends the game (the text after `まで` and the move count).
pub(super) fn read_end_of_game(data: &str) -> Special {
    let clean: String = data.chars().filter(|&c| !japanese::is_space(c)).collect();
    if clean.starts_with("時間切れ") {
        Special::Timeout
    } else if clean.ends_with("反則勝ち") {
        Special::FoulWin
    } else if clean.ends_with("反則負け") {
        Special::FoulLose
    } else if clean.ends_with("入玉勝ち") {
        Special::EnteringKing
    } else if clean.ends_with("勝ち") {
        Special::Resign
    } else {
        Special::from_kif(&clean)
    }
}

/// Strips `まで`, an optional `、` and `N手で`.
pub(super) fn strip_made(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("まで")?;
    let rest = rest.strip_prefix('、').unwrap_or(rest);
    let digits = rest
        .char_indices()
        .find(|&(_, c)| !c.is_ascii_digit())
        .map_or(rest.len(), |(i, _)| i);
    if digits > 0
        && let Some(r) = rest[digits..].strip_prefix("手で")
    {
        return Some(r);
    }
    Some(rest)
}

/// The reader's state.
struct Reader {
    b: RecordBuilder,
    /// The header part until the moves start (`None` after).
    setup: Option<Setup>,
    /// The line of play is broken (a move could not be read) until the next `変化`.
    broken: bool,
}

impl Reader {
    /// The move about to be read, as messages name it: its number and the file's own text
    /// (`move 30 (△５五角)`), as the KIF reader names its moves.
    fn named<'t>(&self, mark: char, tok: &'t str) -> MoveName<'t> {
        MoveName {
            number: self.b.record().moves_before() + self.b.ply() + 1,
            mark: Some(mark),
            text: tok,
        }
    }
    fn start_moves(&mut self) {
        if let Some(setup) = self.setup.take() {
            setup.start(&mut self.b);
        }
    }

    fn add_special(&mut self, line: usize, s: Special) {
        if self.b.ended().is_some() {
            self.b.warn(
                line,
                DiagKind::AfterEnd,
                "a second ending after the line already ended",
            );
            return;
        }
        self.b.end(s);
    }

    fn move_line(&mut self, line_no: usize, line: &str) {
        let l = line.trim_start_matches(japanese::is_space);
        // Split into tokens at each side mark.
        let mut tokens: Vec<(char, &str)> = Vec::new();
        let mut start: Option<(char, usize)> = None;
        for (i, c) in l.char_indices() {
            if is_mark(c) {
                if let Some((m, s)) = start {
                    tokens.push((m, &l[s..i]));
                }
                start = Some((c, i + c.len_utf8()));
            }
        }
        if let Some((m, s)) = start {
            tokens.push((m, &l[s..]));
        }
        for (mark, tok) in tokens {
            if self.broken {
                return;
            }
            if self.b.ended().is_some() {
                self.b.warn(
                    line_no,
                    DiagKind::AfterEnd,
                    format!("move '{}' after the end of the line", tok.trim()),
                );
                self.broken = true;
                return;
            }
            match parse_token(self.b.position(), tok, self.b.prev_to()) {
                Ok(Token::Special(s)) => self.add_special(line_no, s),
                Ok(Token::Move(md)) => {
                    let named = self.named(mark, tok);
                    if mark_color(mark) != md.color {
                        self.b.warn(
                            line_no,
                            DiagKind::BadMove,
                            format!("{named}: the side mark does not match the side to move"),
                        );
                    }
                    match self.b.play(md.mv) {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => self.b.warn(
                            line_no,
                            DiagKind::IllegalMove,
                            format!("{named} is illegal: {e}"),
                        ),
                        Err(why) => {
                            let why = why.map_or("it cannot be played", |e| e.describe());
                            self.b.warn(
                                line_no,
                                DiagKind::ImpossibleMove,
                                format!(
                                    "{named} cannot be played: {why}; the rest of this line of play is skipped"
                                ),
                            );
                            self.broken = true;
                        }
                    }
                }
                Err(msg) => {
                    let named = self.named(mark, tok);
                    let why = msg
                        .strip_prefix(&format!("'{}': ", token_text(tok)))
                        .unwrap_or(&msg);
                    self.b.warn(
                        line_no,
                        DiagKind::BadMove,
                        format!("{named}: {why}; the rest of this line of play is skipped"),
                    );
                    self.broken = true;
                }
            }
        }
    }

    fn branch(&mut self, line_no: usize, data: &str) {
        let t = data.trim_matches(japanese::is_space);
        let digits: String = t
            .chars()
            .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
            .collect();
        let Some(n) = japanese::count(&digits) else {
            self.b.warn(
                line_no,
                DiagKind::BadBranch,
                format!("expected a move number in '変化：{t}'"),
            );
            self.broken = true;
            return;
        };
        let cur_ply = self.b.ply();
        // Numbered as the moves are shown: from 81 in a record after `手数＝80`.
        let n = n.saturating_sub(self.b.record_mut().moves_before());
        if n == 0 || n > cur_ply + 1 {
            self.b.warn(
                line_no,
                DiagKind::BadBranch,
                format!("変化：{n}手 does not branch off the line above (it has {cur_ply} moves)"),
            );
            self.broken = true;
            return;
        }
        self.b.back_to_ply(n - 1);
        self.broken = false;
    }

    fn line(&mut self, line_no: usize, line: &str) {
        if line.trim_matches(japanese::is_space).is_empty() {
            return;
        }
        if let Some(remark) = line.strip_prefix('#') {
            // A `#` line of the head is the record's; among the moves, the move's.
            if self.setup.is_some() {
                self.b.record_mut().program_lines.push(line.to_string());
            } else if !self.broken {
                self.b.remark_line(remark);
            }
            return;
        }
        if let Some(l) = bod::classify(line) {
            board_line(&mut self.setup, &mut self.b, line_no, l);
            return;
        }
        let trimmed = line.trim_start_matches(japanese::is_space);
        let first = trimmed.chars().next().unwrap_or(' ');
        if line.starts_with(|c: char| c == ' ' || c.is_ascii_digit()) && {
            let t = line.trim_start_matches(' ');
            let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
            rest.len() < t.len() && rest.starts_with(' ')
        } {
            self.b.warn(
                line_no,
                DiagKind::UnknownLine,
                "a numbered KIF move line in a KI2 file (ignored)",
            );
            return;
        }
        if is_mark(first) {
            self.start_moves();
            self.move_line(line_no, trimmed);
            return;
        }
        if let Some(rest) = trimmed.strip_prefix("変化").and_then(strip_colon) {
            // A 変化 line before the moves is a known writer bug: ignore it.
            if self.setup.is_none() {
                self.branch(line_no, rest);
            }
            return;
        }
        if let Some(c) = line.strip_prefix('*') {
            if !self.broken {
                self.b.comment_line(c);
            }
            return;
        }
        if let Some(name) = line.strip_prefix('&') {
            if !self.broken && self.b.bookmark(name.trim_end().to_string()) {
                self.b.warn(
                    line_no,
                    DiagKind::Unsupported,
                    "a second bookmark on the same move replaces the first",
                );
            }
            return;
        }
        if let Some(rest) = strip_made(line) {
            self.start_moves();
            if !self.broken {
                self.add_special(line_no, read_end_of_game(rest));
            }
            return;
        }
        if let Some((key, value)) = header_line(line) {
            header_field(&mut self.setup, &mut self.b, line_no, key, value);
            return;
        }
        self.b.warn(
            line_no,
            DiagKind::UnknownLine,
            format!("unrecognised line '{}' (ignored)", line.trim()),
        );
    }
}

/// Would the KI2 reader read `line` as the header field `key`, `value`? (The writer asks
/// before writing a field.)
pub(super) fn reads_as_header(line: &str, key: &str, value: &str) -> bool {
    let trimmed = line.trim_start_matches(japanese::is_space);
    let claimed = trimmed.is_empty()
        || line.starts_with(['#', '*', '&', ' '])
        || line.starts_with(|c: char| c.is_ascii_digit())
        || bod::classify(line).is_some()
        || trimmed.starts_with(is_mark)
        || trimmed.starts_with("変化")
        || strip_made(line).is_some();
    !claimed && header_line(line) == Some((key, value))
}

/// Reads KI2 text. Never fails: problems become warnings and the record keeps what was read.
pub fn read(text: &str) -> Parsed {
    let mut r = Reader {
        b: RecordBuilder::new(Style { branches: true }),
        setup: Some(Setup::default()),
        broken: false,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // A move takes about 12 bytes (`▲７六歩　`).
    r.b.reserve(text.len() / 12);
    for (i, line) in lines(text).enumerate() {
        r.line(i + 1, line);
    }
    r.start_moves();
    r.b.finish()
}
