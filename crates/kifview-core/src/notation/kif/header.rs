//! What KIF and KI2 share before the moves: header fields (`key：value`, every field kept in
//! file order, a repeated key too), the `手合割` line and the board diagram, and how they make
//! the initial position; and, for the writers, the header fields written back so that they
//! read back the same.

use super::super::bod::{BoardBuilder, BodLine};
use super::super::builder::RecordBuilder;
use super::super::loss::{Loss, Lost};
use super::super::{DiagKind, Diagnostic};
use crate::record::{HeaderField, Initial, Record, StartLayout};
use crate::rules::{Handicap, double_king_tsume_position, tsume_position};

/// `key：value` or `key:value` (key non-empty, without spaces). A byte-order mark in front
/// is not part of the key: files put together from several keep theirs mid-file, and at the
/// start of a text the readers drop it, so a key starting with one would not read back.
pub(crate) fn header_line(l: &str) -> Option<(&str, &str)> {
    let l = l.trim_start_matches('\u{feff}');
    let i = l.find(['：', ':'])?;
    let key = &l[..i];
    if key.is_empty() || key.contains([' ', '\t']) {
        return None;
    }
    let sep = if l[i..].starts_with('：') {
        '：'.len_utf8()
    } else {
        1
    };
    Some((key, &l[i + sep..]))
}

/// The header part of a KIF or KI2 file read so far: board diagram, hands and turn (read by
/// `bod`), and the `手合割` line.
#[derive(Default)]
pub(crate) struct Setup {
    board: BoardBuilder,
    /// The 手合割 value and its line.
    handicap: Option<(usize, String)>,
    /// How many header fields came before the 手合割 line or the diagram's first line.
    fields_before: Option<usize>,
}

/// A board diagram line: part of the setup before the moves (`setup` is `Some`); after them
/// it is ignored with a warning (the diagram's border and labels silently).
pub(crate) fn board_line(
    setup: &mut Option<Setup>,
    b: &mut RecordBuilder,
    no: usize,
    line: BodLine,
) {
    let decoration = matches!(
        line,
        BodLine::Border | BodLine::FileLabels | BodLine::MoveCount(_)
    );
    match setup {
        Some(s) => {
            if !matches!(line, BodLine::Turn(_) | BodLine::MoveCount(_)) {
                s.fields_before
                    .get_or_insert(b.record_mut().header.fields.len());
            }
            if let Err(e) = s.board.feed(line) {
                b.warn(no, DiagKind::BadBoard, e);
            }
        }
        None if decoration => {}
        None => b.warn(
            no,
            DiagKind::BadBoard,
            "board diagram line after the moves started; ignored",
        ),
    }
}

/// A `key：value` line: `手合割` sets the start (before the moves only), anything else is a
/// header field wherever it stands.
pub(crate) fn header_field(
    setup: &mut Option<Setup>,
    b: &mut RecordBuilder,
    no: usize,
    key: &str,
    value: &str,
) {
    if key != "手合割" {
        b.record_mut().header.fields.push(HeaderField {
            key: key.to_string(),
            value: value.to_string(),
        });
        return;
    }
    match setup {
        Some(s) => {
            s.fields_before
                .get_or_insert(b.record_mut().header.fields.len());
            s.handicap = Some((no, value.to_string()));
        }
        None => b.warn(
            no,
            DiagKind::BadHeader,
            "手合割 after the moves started; ignored",
        ),
    }
}

impl Setup {
    /// The moves start: the diagram if there is one, else the `手合割` preset with any hands
    /// and turn line applied. A position equal to a preset is that preset (as every reader
    /// says).
    pub fn start(self, b: &mut RecordBuilder) {
        b.record_mut().layout = StartLayout {
            fields_before: self.fields_before,
            turn_line: self.board.turn.is_some(),
        };
        let mut warnings = Vec::new();
        let initial = self.initial(&mut warnings);
        b.warnings_mut().extend(warnings);
        b.set_initial(initial, 0);
    }

    fn initial(self, warnings: &mut Vec<Diagnostic>) -> Initial {
        let board = self.board;
        let mut initial = if board.has_board() {
            let missing = board.missing_ranks();
            if !missing.is_empty() {
                warnings.push(Diagnostic::new(
                    0,
                    DiagKind::BadBoard,
                    format!("the board diagram lacks rank(s) {missing:?}; they are read as empty"),
                ));
            }
            Initial {
                position: board.position(),
                handicap: None,
            }
        } else {
            let mut initial = Initial::even();
            if let Some((line, name)) = self.handicap {
                let name = name.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
                if let Some(h) = Handicap::by_name(name) {
                    initial = Initial {
                        position: h.position(),
                        handicap: Some(h),
                    };
                } else if name == "詰将棋" || name == "双玉詰将棋" {
                    // A problem's diagram: no handicap.
                    initial = Initial {
                        position: if name == "詰将棋" {
                            tsume_position()
                        } else {
                            double_king_tsume_position()
                        },
                        handicap: None,
                    };
                } else {
                    warnings.push(Diagnostic::new(
                        line,
                        DiagKind::BadHeader,
                        format!(
                            "unknown 手合割 '{name}' with no board diagram (expected 平手, 香落ち, ... 十枚落ち, 詰将棋); read as 平手"
                        ),
                    ));
                }
            }
            if board.hands_seen || board.turn.is_some() {
                let before = initial.position.clone();
                board.apply_hands_and_turn(&mut initial.position);
                if initial.position != before {
                    initial.handicap = None;
                }
            }
            initial
        };
        if initial.handicap.is_none() {
            initial.handicap = Handicap::matching(&initial.position);
        }
        board.apply_move_number(&mut initial.position);
        initial
    }
}

/// Replaces line breaks (`\r\n`, `\n`, `\r`) with spaces; counts the text as one with breaks.
pub(crate) fn one_line(s: &str, with_breaks: &mut usize) -> String {
    if s.contains(['\n', '\r']) {
        *with_breaks += 1;
        s.replace("\r\n", " ").replace(['\n', '\r'], " ")
    } else {
        s.to_string()
    }
}

/// The `手合割` line for `h`. A `手合割` header field of the record (JKF keeps one, Kifu for
/// Windows pads it: `平手　　`) that names the same preset is this line: the writers keep it
/// as the preset's name, so that the text reads back and writes again the same.
pub(crate) fn handicap_line(h: Handicap, out: &mut String) {
    out.push_str("手合割：");
    out.push_str(h.name);
    out.push('\n');
}

/// The preset a writer writes as a `手合割` line: the record's handicap when the initial
/// position is that preset's (whatever its move number: `手数＝N` is written beside it).
pub(crate) fn written_preset(initial: &Initial) -> Option<Handicap> {
    initial.handicap.filter(|h| {
        let mut p = h.position();
        p.set_move_number(initial.position.move_number());
        p == initial.position
    })
}

/// The `手数＝N` line of a record whose first move is move N + 1 (nothing when it is move 1).
pub(crate) fn moves_before_line(record: &Record, out: &mut String) {
    let n = record.moves_before();
    if n > 0 {
        out.push_str("手数＝");
        out.push_str(&n.to_string());
        out.push('\n');
    }
}

/// Writes the header fields (except `手合割`) as `key：value` lines, with the start (the
/// `手合割` line or the board diagram, written by `start`) where the file had it: before the
/// field it preceded ([`StartLayout::fields_before`]), or where a `手合割` field stands (JKF
/// keeps one), else after them all. `reads_back(line, key, value)` says whether the reader
/// reads the line as that field: a field that would not (a key with a colon, a key that looks
/// like a move or a diagram line, ...) is left out and named in the losses, as are line breaks
/// in values.
pub(crate) fn write_fields(
    record: &Record,
    out: &mut String,
    losses: &mut Vec<Loss>,
    reads_back: impl Fn(&str, &str, &str) -> bool,
    start_written: Option<Handicap>,
    start: impl FnOnce(&mut String),
) {
    let mut breaks = 0;
    let mut lost = Vec::new();
    let mut line = String::new();
    let at = record
        .layout
        .fields_before
        .or_else(|| record.header.fields.iter().position(|f| f.key == "手合割"));
    let mut start = Some(start);
    for (i, f) in record.header.fields.iter().enumerate() {
        if Some(i) == at
            && let Some(s) = start.take()
        {
            s(out);
        }
        if f.key == "手合割" {
            let kept = start_written.is_some_and(|h| {
                Handicap::by_name(&f.value) == Some(h) && !f.value.contains(['\r', '\n'])
            });
            if !kept && !lost.contains(&f.key) {
                lost.push(f.key.clone());
            }
            continue;
        }
        let value = one_line(&f.value, &mut breaks);
        line.clear();
        line.push_str(&f.key);
        line.push('：');
        line.push_str(&value);
        if f.key.contains(['\r', '\n']) || !reads_back(&line, &f.key, &value) {
            if !lost.contains(&f.key) {
                lost.push(f.key.clone());
            }
            continue;
        }
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(s) = start.take() {
        s(out);
    }
    if let Some(l) = Loss::some(Lost::Headers(lost.clone()), lost.len()) {
        losses.push(l);
    }
    if let Some(l) = Loss::some(
        Lost::LineBreaks {
            place: "header value",
        },
        breaks,
    ) {
        losses.push(l);
    }
}
