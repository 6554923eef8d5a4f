//! Reader diagnostics: what was wrong, where, and what was expected.

use crate::record::NodeId;
use std::fmt;

/// The kind of a problem found while reading a record. Each kind is one class of mistake.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum DiagKind {
    /// The bytes were not valid in any supported encoding.
    Encoding,
    /// A line that matches nothing the format allows.
    UnknownLine,
    /// A header line whose value could not be used (an unknown handicap name, ...).
    BadHeader,
    /// A board-diagram row or hand line that could not be read.
    BadBoard,
    /// A move whose text could not be read.
    BadMove,
    /// A move that can be read but breaks the rules in its position (kept in the record).
    IllegalMove,
    /// A move that cannot be played at all (no such piece); it and what follows on the line are dropped.
    ImpossibleMove,
    /// A move number that does not fit the moves before it.
    BadMoveNumber,
    /// A time field that could not be read.
    BadTime,
    /// A variation header or branch that points nowhere.
    BadBranch,
    /// Content after the end of a line of play (moves after 投了, ...).
    AfterEnd,
    /// Something the format allows but kifview cannot keep.
    Unsupported,
}

impl DiagKind {
    /// How much the problem matters to a player, heaviest first (0): moves not read (a line
    /// of play cut short, a line skipped), then an illegal move kept, then header and
    /// diagram problems, then replaced bytes.
    pub fn weight(self) -> u8 {
        match self {
            DiagKind::ImpossibleMove
            | DiagKind::BadMove
            | DiagKind::UnknownLine
            | DiagKind::BadBranch
            | DiagKind::AfterEnd => 0,
            DiagKind::IllegalMove => 1,
            DiagKind::BadHeader
            | DiagKind::BadBoard
            | DiagKind::BadMoveNumber
            | DiagKind::BadTime
            | DiagKind::Unsupported => 2,
            DiagKind::Encoding => 3,
        }
    }
}

/// Orders a record's warnings by weight ([`DiagKind::weight`]), then by line: what the
/// status line and the warnings list show first.
pub fn by_weight(warnings: &mut [Diagnostic]) {
    warnings.sort_by_key(|w| (w.kind.weight(), w.line));
}

/// Orders warnings by line (a whole-file problem, line 0, first): what `kifview check`
/// prints.
pub fn by_line(warnings: &mut [Diagnostic]) {
    warnings.sort_by_key(|w| w.line);
}

/// One problem in a file: `LINE: message` (line is 1-based; 0 means the whole file).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    pub line: usize,
    pub kind: DiagKind,
    pub message: String,
    /// The node the problem is about, when it is one the record holds (an illegal move that
    /// was kept): the viewer marks that move in the move list.
    pub node: Option<NodeId>,
    /// The reader's current node when it found the problem (the last one read before it), so
    /// that text it could not read can be kept there (`convert::unread::keep`).
    pub at: Option<NodeId>,
}

impl Diagnostic {
    pub fn new(line: usize, kind: DiagKind, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            line,
            kind,
            message: message.into(),
            node: None,
            at: None,
        }
    }
    /// `FILE:LINE: message`.
    pub fn with_file(&self, file: &str) -> String {
        if self.line == 0 {
            format!("{file}: {}", self.message)
        } else {
            format!("{file}:{}: {}", self.line, self.message)
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.line, self.message)
        }
    }
}

/// A move as the readers' messages name it: its number, as KIF numbers it, and the file's own
/// text (`move 30 (+7776FU)`, `move 30 (△５５角)`). Written out only when a message is: the
/// readers name every move they read, and few have anything to say.
pub(crate) struct MoveName<'a> {
    pub(crate) number: u32,
    /// The side mark a KI2 token follows; the token is then shown without its spaces.
    pub(crate) mark: Option<char>,
    pub(crate) text: &'a str,
}

impl fmt::Display for MoveName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        write!(f, "move {} (", self.number)?;
        match self.mark {
            None => f.write_str(self.text)?,
            Some(mark) => {
                f.write_char(mark)?;
                let shown = |c: &char| !crate::notation::japanese::is_space(*c) && *c != '\r';
                for c in self.text.chars().filter(shown) {
                    f.write_char(c)?;
                }
            }
        }
        f.write_char(')')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_named_by_number_and_text() {
        let csa = MoveName {
            number: 3,
            mark: None,
            text: "+5755FU",
        };
        assert_eq!(csa.to_string(), "move 3 (+5755FU)");
        let ki2 = MoveName {
            number: 30,
            mark: Some('△'),
            text: "５五 角\u{3000}\r",
        };
        assert_eq!(ki2.to_string(), "move 30 (△５五角)");
    }

    #[test]
    fn the_heaviest_problem_comes_first_then_the_line() {
        let mut w = vec![
            Diagnostic::new(105, DiagKind::Encoding, "replaced byte"),
            Diagnostic::new(3, DiagKind::BadHeader, "header"),
            Diagnostic::new(40, DiagKind::IllegalMove, "illegal"),
            Diagnostic::new(30, DiagKind::ImpossibleMove, "skipped"),
            Diagnostic::new(20, DiagKind::IllegalMove, "illegal too"),
        ];
        by_weight(&mut w);
        let lines: Vec<usize> = w.iter().map(|d| d.line).collect();
        assert_eq!(lines, [30, 20, 40, 3, 105]);
        by_line(&mut w);
        let lines: Vec<usize> = w.iter().map(|d| d.line).collect();
        assert_eq!(lines, [3, 20, 30, 40, 105]);
    }
}
