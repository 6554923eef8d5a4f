//! What of a file the reader could not read: the lines a save over the file would remove
//! (a move that cannot be played and the rest of its line of play, lines that match nothing
//! the format allows, ...). The viewer asks before saving over such a file, `convert` says
//! what its output leaves out, and `analyze --in-place` refuses it: one rule for all three.

use super::{DiagKind, Diagnostic, Format};
use crate::record::{NodeId, Record};
use std::fmt;

/// The parts of a file a record read from it does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unread {
    /// Line ranges (1-based, inclusive), in order, not overlapping.
    pub spans: Vec<(usize, usize)>,
    /// The first and last move number written on those lines (KIF), when there are any.
    pub moves: Option<(u32, u32)>,
    /// Lines of moves in those lines.
    pub move_lines: usize,
    /// Comment lines in those lines.
    pub comments: usize,
}

/// Does a warning of this kind mean text of the file is not in the record? (An illegal move
/// and a move number out of place are kept; bytes replaced by � are counted on their own.)
pub fn loses_text(kind: DiagKind) -> bool {
    !matches!(
        kind,
        DiagKind::IllegalMove | DiagKind::BadMoveNumber | DiagKind::Encoding
    )
}

/// Does any of `warnings` say text of the file is not in the record?
pub fn loses_any(warnings: &[Diagnostic]) -> bool {
    warnings.iter().any(|w| w.line > 0 && loses_text(w.kind))
}

/// What of `text` (the file, decoded) the record read from it in `format` with `warnings`
/// does not hold; `None` when it holds everything.
pub fn unread(text: &str, format: Format, warnings: &[Diagnostic]) -> Option<Unread> {
    let lines: Vec<&str> = text.lines().collect();
    let spans: Vec<(usize, usize)> = spans(&lines, format, warnings)
        .into_iter()
        .map(|(a, b, _)| (a, b))
        .collect();
    Unread::of_spans(&lines, format, spans)
}

/// The line ranges not read, merged, each with the node the reader was at when it found the
/// first of them.
fn spans(lines: &[&str], format: Format, warnings: &[Diagnostic]) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::new();
    for w in warnings.iter().filter(|w| w.line > 0 && loses_text(w.kind)) {
        let end = if w.message.contains("skipped") {
            end_of_line_of_play(lines, w.line, format)
        } else {
            w.line
        };
        spans.push((w.line, end.max(w.line).min(lines.len().max(w.line)), w.at));
    }
    spans.sort_by_key(|&(a, b, _)| (a, b));
    let mut merged: Vec<Span> = Vec::new();
    for (a, b, at) in spans {
        match merged.last_mut() {
            Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
            _ => merged.push((a, b, at)),
        }
    }
    merged
}

/// First line, last line (1-based, inclusive), and the node read last before them.
type Span = (usize, usize, Option<NodeId>);

/// What [`keep`] did: the lines it kept in the record, and those it could not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    pub kept: Option<Unread>,
    pub left: Option<Unread>,
}

/// Keeps the lines of `text` that `record` (read from it in `format` with `warnings`) does
/// not hold, verbatim, as remark lines (KIF/KI2 `#`, CSA `'`, which other programs skip)
/// where they were: each run of lines becomes remarks of the node read last before it (the
/// head's remarks when the reader was in the header), so that saving the record writes them
/// back after that move instead of removing them. Blank lines ending a run hold nothing and
/// are not kept. Formats without remarks (JKF, USI) name them as a loss when written.
pub fn keep(text: &str, format: Format, warnings: &[Diagnostic], record: &mut Record) -> Kept {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = Vec::new();
    let mut left = Vec::new();
    for (a, b, at) in spans(&lines, format, warnings) {
        let Some(run) = lines.get(a - 1..b) else {
            left.push((a, b));
            continue;
        };
        let run = &run[..run.len() - run.iter().rev().take_while(|l| l.trim().is_empty()).count()];
        let run = run
            .iter()
            .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string());
        match at {
            Some(id) if id.index() < record.nodes.len() => {
                record.node_mut(id).remarks.extend(run);
            }
            _ => record.program_lines.extend(run.map(|l| format!("#{l}"))),
        }
        kept.push((a, b));
    }
    Kept {
        kept: Unread::of_spans(&lines, format, kept),
        left: Unread::of_spans(&lines, format, left),
    }
}

/// The last line of the line of play that `line` is in: the line before the next variation
/// (KIF, KI2: `変化：`), record (CSA: `/`), or the file's last line.
fn end_of_line_of_play(lines: &[&str], line: usize, format: Format) -> usize {
    let next = lines.iter().enumerate().skip(line).find(|(_, l)| {
        let t = l.trim();
        match format {
            Format::Kif | Format::Ki2 => t.starts_with("変化"),
            Format::Csa => t == "/",
            _ => false,
        }
    });
    next.map_or(lines.len(), |(i, _)| i)
}

impl Unread {
    fn of_spans(lines: &[&str], format: Format, spans: Vec<(usize, usize)>) -> Option<Unread> {
        if spans.is_empty() {
            return None;
        }
        let mut u = Unread {
            spans,
            moves: None,
            move_lines: 0,
            comments: 0,
        };
        for &(a, b) in &u.spans.clone() {
            for l in lines.iter().take(b).skip(a - 1) {
                u.count_line(l.trim_start(), format);
            }
        }
        Some(u)
    }

    fn count_line(&mut self, l: &str, format: Format) {
        match format {
            Format::Csa => {
                if l.starts_with("'*") {
                    self.comments += 1;
                } else if l.starts_with(['+', '-']) && l.len() > 1 {
                    self.move_lines += 1;
                }
            }
            _ => {
                if l.starts_with(['*', '＊']) {
                    self.comments += 1;
                } else if let Some(n) = leading_number(l) {
                    self.move_lines += 1;
                    self.moves = Some(match self.moves {
                        None => (n, n),
                        Some((a, b)) => (a.min(n), b.max(n)),
                    });
                } else if l.starts_with(['▲', '△', '☗', '☖']) {
                    self.move_lines += 1;
                }
            }
        }
    }

    /// `lines 300–566 of the file (moves 40–104, 65 comments)`.
    pub fn lines_text(&self) -> String {
        let span = |&(a, b): &(usize, usize)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}–{b}")
            }
        };
        let total: usize = self.spans.iter().map(|(a, b)| b - a + 1).sum();
        let mut shown: Vec<String> = self.spans.iter().take(3).map(span).collect();
        if self.spans.len() > 3 {
            shown.push(format!("{} more", self.spans.len() - 3));
        }
        let mut what = Vec::new();
        match self.moves {
            Some((a, b)) if a == b => what.push(format!("move {a}")),
            Some((a, b)) => what.push(format!("moves {a}–{b}")),
            None if self.move_lines > 0 => what.push(plural(self.move_lines, "move")),
            None => {}
        }
        if self.comments > 0 {
            what.push(plural(self.comments, "comment"));
        }
        let what = if what.is_empty() {
            String::new()
        } else {
            format!(" ({})", what.join(", "))
        };
        format!(
            "line{} {} of the file{what}",
            if total == 1 { "" } else { "s" },
            shown.join(", ")
        )
    }
}

impl fmt::Display for Unread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} could not be read", self.lines_text())
    }
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Does a remark's text (after its `#` or `'`) hold a move line: a KIF move (`   3 ５五角(22)`,
/// `  12 同　歩(23)`), a KI2 move (`▲７六歩`) or a CSA move (`+7776FU`)? Text that only
/// starts with a number (`1 good game`) does not.
pub fn holds_move(remark: &str) -> bool {
    let t = remark.trim_start_matches([' ', '\u{3000}', '\t']);
    if t.starts_with(['▲', '△', '☗', '☖']) {
        return true;
    }
    let b = t.as_bytes();
    if b.len() >= 7
        && matches!(b[0], b'+' | b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..7].iter().all(u8::is_ascii_uppercase)
    {
        return true;
    }
    if leading_number(t).is_none() {
        return false;
    }
    let rest = t.trim_start_matches(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    let after = rest.trim_start_matches([' ', '\u{3000}', '\t']);
    after.len() < rest.len() && after.starts_with(|c: char| ('１'..='９').contains(&c) || c == '同')
}

/// The runs of remark lines (`#…`, CSA `'…`) of `text` that hold moves ([`holds_move`]): first
/// and last line (1-based), how many moves, and the first move's text.
pub fn remark_runs_with_moves(text: &str) -> Vec<(usize, usize, usize, String)> {
    let mut runs: Vec<(usize, usize, usize, String)> = Vec::new();
    let mut open = false;
    for (i, l) in text.lines().enumerate() {
        let Some(r) = l.strip_prefix('#').or_else(|| l.strip_prefix('\'')) else {
            open = false;
            continue;
        };
        let no = i + 1;
        let is_move = holds_move(r);
        match runs.last_mut() {
            Some(run) if open => {
                run.1 = no;
                run.2 += usize::from(is_move);
            }
            _ if is_move => {
                let first = crate::text::sanitize(r.trim_end())
                    .chars()
                    .take(40)
                    .collect();
                runs.push((no, no, 1, first));
                open = true;
            }
            _ => {}
        }
    }
    // A run ends at its last move, not at the remarks after it.
    for run in &mut runs {
        let lines: Vec<&str> = text
            .lines()
            .skip(run.0 - 1)
            .take(run.1 - run.0 + 1)
            .collect();
        let last = lines
            .iter()
            .rposition(|l| holds_move(&l[1..]))
            .expect("a run holds a move");
        run.1 = run.0 + last;
    }
    runs
}

/// The move number a KIF move line starts with (ASCII or full-width digits).
fn leading_number(l: &str) -> Option<u32> {
    let digits: String = l
        .chars()
        .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
        .map(|c| {
            if c.is_ascii_digit() {
                c
            } else {
                char::from(b'0' + (c as u32 - '０' as u32) as u8)
            }
        })
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation;

    fn of(text: &str, format: Format) -> Option<Unread> {
        let loaded = notation::load(text.as_bytes(), None);
        unread(text, format, &loaded.records[0].warnings)
    }

    #[test]
    fn remarks_that_hold_moves_are_told_from_text() {
        for m in [
            "   3 ５五角(22)",
            "  12 同　歩(23)",
            "▲７六歩",
            "+7776FU",
            "１０ ２六歩(27)",
        ] {
            assert!(holds_move(m), "{m}");
        }
        for t in ["1 good game", "同じ形", "KIF version=2.0", "", "+", "   5"] {
            assert!(!holds_move(t), "{t}");
        }
        let text = "a\n#   3 ５五角(22)\n#*c\n#   4 ８四歩(83)\n#note\nb\n#x\n";
        assert_eq!(
            remark_runs_with_moves(text),
            [(2, 4, 2, "   3 ５五角(22)".to_string())]
        );
    }

    #[test]
    fn a_move_that_cannot_be_played_loses_the_rest_of_its_line_of_play() {
        let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五角(22)\n*gone\n   4 ８四歩(83)\n\n変化：3手\n   3 ２六歩(27)\n";
        let u = of(text, Format::Kif).expect("lines 4-7 are not read");
        assert_eq!(u.spans, vec![(4, 7)]);
        assert_eq!(
            u.to_string(),
            "lines 4–7 of the file (moves 3–4, 1 comment) could not be read"
        );
        let whole = "手合割：平手\n   1 ７六歩(77)\n";
        assert_eq!(of(whole, Format::Kif), None);
    }

    #[test]
    fn a_line_that_matches_nothing_is_one_line() {
        let u = of("手合割：平手\n   1 ７六歩(77)\nこれは何\n", Format::Kif).unwrap();
        assert_eq!(u.to_string(), "line 3 of the file could not be read");
    }
}
