//! The KIF reader: a single pass over the lines with no regular expressions. Header lines and
//! an optional board diagram, then move lines, comments (`*`), bookmarks (`&`), remarks
//! (`#`) and `変化：N手` blocks. Each move is checked once against the rules in the position it
//! is played in; a variation starts from the position kept for its ply.

use super::dialect::{KifDialect, Scan};
use super::header::{Setup, board_line, header_field};
use super::line::{Body, KifLine, RawMove, classify, parse_move_line, skip_spaces};
use crate::notation::builder::{RecordBuilder, Style};
use crate::notation::japanese;
use crate::notation::{DiagKind, Parsed, lines};
use crate::record::Special;
use crate::rules::{Color, Move, Square};

struct Reader {
    b: RecordBuilder,
    /// The header part until the moves start (`None` after).
    setup: Option<Setup>,
    /// Skipping a broken line of play: resume at a `変化` line or a move numbered at most this.
    skip: Option<u32>,
    /// The number announced by the last `変化：N手` line, not yet used.
    pending_branch: Option<(usize, u32)>,
    /// Moves played before the record starts (`手数＝80`, or a first move line numbered 81):
    /// move line N is ply N - this.
    moves_before: u32,
}

impl Reader {
    /// Called for every move line; the work is in [`Self::set_up_moves`].
    fn start_moves(&mut self) {
        if self.setup.is_some() {
            self.set_up_moves();
        }
    }

    /// The moves start: the header and board diagram read so far make the initial position.
    /// Once per record: `cold` keeps it out of [`Self::start_moves`] so that inlines.
    #[cold]
    fn set_up_moves(&mut self) {
        if let Some(setup) = self.setup.take() {
            setup.start(&mut self.b);
            self.moves_before = self.b.record_mut().moves_before();
        }
    }

    /// The first move line of the record is numbered `n`: a record that starts from a
    /// diagram may start at any move (81 after `手数＝80`, or without it); a file that
    /// numbers its moves from 1 after a `手数＝N` line numbers them from 1.
    fn first_move_number(&mut self, n: u32) {
        let record = self.b.record_mut();
        let from_diagram = record.initial.handicap.is_none() || self.moves_before > 0;
        if !record.node(crate::record::NodeId::ROOT).children.is_empty()
            || n == 0
            || n > u32::from(u16::MAX)
            || n == self.moves_before + 1
            || !(from_diagram || n == 1)
        {
            return;
        }
        self.moves_before = n - 1;
        let next = u16::try_from(n).unwrap_or(u16::MAX);
        record.initial.position.set_move_number(next);
    }

    fn line(&mut self, no: usize, l: &str, kind: KifLine<'_>) {
        match kind {
            KifLine::Blank => {}
            KifLine::Result => self.trailing_remark(no, l, "the closing 'まで…' line"),
            // A `#` line of the head is the record's; among the moves, the move's.
            KifLine::Program if self.setup.is_some() => {
                self.b.record_mut().program_lines.push(l.to_string())
            }
            KifLine::Program => {
                if self.skip.is_none() {
                    self.b.remark_line(&l[1..]);
                }
            }
            KifLine::Comment(c) => {
                if self.skip.is_none() {
                    self.b.comment_line(c);
                }
            }
            KifLine::Bookmark(name) => {
                if self.skip.is_none() && self.b.bookmark(name.trim_end().to_string()) {
                    self.b.warn(
                        no,
                        DiagKind::Unsupported,
                        "a second bookmark on the same move replaces the first",
                    );
                }
            }
            KifLine::Move(n, rest) => {
                self.start_moves();
                self.move_line(no, n, rest);
            }
            KifLine::Variation(None) => self.b.warn(no, DiagKind::UnknownLine, "expected '変化：N手'"),
            KifLine::Variation(Some(r)) => {
                if self.setup.is_some() {
                    // Some writers leave a stray 変化 line in the header; it means nothing there.
                    self.b.warn(
                        no,
                        DiagKind::BadBranch,
                        "変化 line before any move; ignored",
                    );
                } else {
                    self.trailing_remark(no, l, "the '変化：' line");
                    self.variation_line(no, r);
                }
            }
            KifLine::MovesHeader => {
                self.trailing_remark(no, l, "the '手数----' line");
                self.start_moves();
            }
            KifLine::Board(line) => board_line(&mut self.setup, &mut self.b, no, line),
            KifLine::Header(key, value) => header_field(&mut self.setup, &mut self.b, no, key, value),
            KifLine::Unknown => self.b.warn(
                no,
                DiagKind::UnknownLine,
                format!(
                    "cannot read line '{}' (expected a header 'key：value', a move line, or a '*' comment)",
                    l.chars().take(40).collect::<String>()
                ),
            ),
        }
    }

    /// A `#` remark written at the end of a line that holds no move (`まで…`, `変化：N手`,
    /// `手数----`): the record has no place for it there, so it is named (and the loader keeps
    /// the line as a remark line, written back on save).
    fn trailing_remark(&mut self, no: usize, l: &str, what: &str) {
        if let Some(at) = l.find('#') {
            let text: String = l[at..].trim_end().chars().take(40).collect();
            self.b.warn(
                no,
                DiagKind::UnknownLine,
                format!(
                    "unexpected text '{text}' after {what} (a '#' remark is a line of its own)"
                ),
            );
        }
    }

    fn variation_line(&mut self, no: usize, r: &str) {
        let r = skip_spaces(r);
        let digits: String = r
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
        let n: Option<u32> = digits.parse().ok();
        self.skip = None;
        self.pending_branch = None;
        match n {
            Some(n) if n > self.moves_before && n - self.moves_before <= self.b.ply() + 1 => {
                self.pending_branch = Some((no, n));
            }
            _ => {
                let ply = self.b.ply();
                self.b.warn(
                    no,
                    DiagKind::BadBranch,
                    format!(
                        "'変化：{r}' does not branch off the line read so far (it has {ply} moves); its moves are skipped"
                    ),
                );
                self.skip = Some(0);
            }
        }
    }

    fn move_line(&mut self, no: usize, n: u32, rest: &str) {
        if let Some(limit) = self.skip {
            if n == 0 || n > limit {
                return;
            }
            self.skip = None;
        }
        let parsed = match parse_move_line(n, rest) {
            Ok(p) => p,
            Err(e) => {
                self.b.warn(
                    no,
                    DiagKind::BadMove,
                    format!("move {n}: {e}; the rest of this line of play is skipped"),
                );
                self.skip = Some(n);
                return;
            }
        };
        if let Some((bline, b)) = self.pending_branch.take()
            && b != n
        {
            self.b.warn(
                no,
                DiagKind::BadBranch,
                format!("'変化：{b}手' on line {bline} is followed by move {n}"),
            );
        }
        self.first_move_number(n);
        let first = self.moves_before + 1;
        if n < first {
            self.b.warn(
                no,
                DiagKind::BadMoveNumber,
                format!("move number {n} (this record's moves start at {first})"),
            );
            self.skip = Some(0);
            return;
        }
        let cur_ply = self.b.ply();
        let ply = n - first;
        if ply < cur_ply {
            self.b.back_to_ply(ply);
        } else if ply > cur_ply {
            let expected = self.moves_before + cur_ply + 1;
            self.b.warn(
                no,
                DiagKind::BadMoveNumber,
                format!("move number {n} where {expected} was expected; read as move {expected}"),
            );
        }
        if let Some(s) = self.b.ended() {
            let word = s.kif_word().to_string();
            self.b.warn(
                no,
                DiagKind::AfterEnd,
                format!(
                    "move {n} comes after the special ending '{word}'; the rest of this line of play is skipped"
                ),
            );
            self.skip = Some(n);
            return;
        }
        if let Some((kind, t)) = &parsed.trailing {
            self.b.warn(no, *kind, format!("move {n}: {t}"));
        }
        match parsed.body {
            Body::Special(w) => self.b.end(Special::from_kif(w)),
            Body::Move(raw) => {
                if !self.play(no, n, raw) {
                    self.skip = Some(n);
                    return;
                }
            }
        }
        self.b.time(parsed.time);
    }

    /// Matches a written move with the position and plays it. False when it cannot be played.
    fn play(&mut self, no: usize, n: u32, raw: RawMove) -> bool {
        let pos = self.b.position();
        let side = pos.side_to_move();
        let to = match raw.to.or_else(|| self.b.prev_to()) {
            Some(t) => t,
            None => {
                self.b.warn(
                    no,
                    DiagKind::BadMove,
                    format!(
                        "move {n}: 同 with no previous move; the rest of this line of play is skipped"
                    ),
                );
                return false;
            }
        };
        let mv = match raw.from {
            Some(from) => {
                if let Some(p) = pos.piece_at(from)
                    && p.color == side
                    && p.kind != raw.piece
                {
                    self.b.warn(
                        no,
                        DiagKind::BadMove,
                        format!(
                            "move {n}: the line names {} but the piece on {}{} is {}",
                            raw.piece.move_name(),
                            from.file(),
                            from.rank(),
                            p.kind.move_name()
                        ),
                    );
                }
                Move::Normal {
                    from,
                    to,
                    promote: raw.promote,
                }
            }
            None => {
                if !raw.piece.is_hand_kind() || raw.promote {
                    self.b.warn(
                        no,
                        DiagKind::ImpossibleMove,
                        format!(
                            "move {n}: cannot drop {}; the rest of this line of play is skipped",
                            raw.piece.move_name()
                        ),
                    );
                    return false;
                }
                Move::Drop {
                    kind: raw.piece,
                    to,
                }
            }
        };
        match self.b.play(mv) {
            Ok(Ok(())) => true,
            Ok(Err(why)) => {
                self.b.warn(
                    no,
                    DiagKind::IllegalMove,
                    format!("move {n} ({}) is illegal: {why}", written(side, raw, to)),
                );
                true
            }
            Err(why) => {
                let why = why.map(|w| w.to_string()).unwrap_or_default();
                self.b.warn(
                    no,
                    DiagKind::ImpossibleMove,
                    format!(
                        "move {n} ({}) cannot be played: {why}; the rest of this line of play is skipped",
                        written(side, raw, to)
                    ),
                );
                false
            }
        }
    }
}

/// A move as players write it in messages: `▲７六歩(77)`, `△同　角成(88)`, `▲５五角打`.
fn written(side: Color, raw: RawMove, to: Square) -> String {
    let mut s = String::from(if side == Color::Black { "▲" } else { "△" });
    match raw.to {
        Some(_) => s.push_str(&japanese::square_kif(to)),
        None => s.push_str("同\u{3000}"),
    }
    s.push_str(raw.piece.move_name());
    if raw.promote {
        s.push('成');
    }
    match raw.from {
        Some(f) => s.push_str(&format!("({}{})", f.file(), f.rank())),
        None => s.push('打'),
    }
    s
}

/// Reads KIF text (already decoded). Never panics; every problem is a warning.
pub fn read(text: &str) -> Parsed {
    read_lines(text, |_, _| {})
}

/// [`read`], and the file's dialect from the same pass over its lines (for writing it back as
/// it was written).
pub fn read_with_dialect(text: &str) -> (Parsed, KifDialect) {
    let mut scan = Scan::new();
    let parsed = read_lines(text, |l, kind| scan.line(l, kind));
    (parsed, scan.finish(text))
}

/// [`read`], showing each classified line to `also` as well.
fn read_lines(text: &str, mut also: impl FnMut(&str, &KifLine<'_>)) -> Parsed {
    let mut r = Reader {
        b: RecordBuilder::new(Style { branches: true }),
        setup: Some(Setup::default()),
        skip: None,
        pending_branch: None,
        moves_before: 0,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Roughly one node per 40 bytes of move text; comments make it an overestimate.
    r.b.reserve(text.len() / 40);
    for (i, line) in lines(text).enumerate() {
        let kind = classify(line);
        also(line, &kind);
        r.line(i + 1, line, kind);
    }
    r.start_moves();
    let mut p = r.b.finish();
    p.record.fill_missing_times();
    p
}
