//! What the fuzz targets check, shared between them.
//!
//! A failed property panics with what differs (and the text written), so libFuzzer reports it
//! like any crash and saves the input under `artifacts/TARGET/`.

use kifview::core::notation::{self, DiagKind, Format, Parsed, Target, TextEncoding, TextInfo};
use kifview::core::record::{MoveData, NodeId, Record, Special, Step};
use kifview::core::rules::{Color, PieceKind, Position, Square};
use std::borrow::Cow;
use std::sync::OnceLock;

/// Fuzz bytes as text: invalid UTF-8 is replaced, so every input reaches the reader.
pub fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// At most this many records of one file go through the round trips (CSA files may hold many).
const MAX_RECORDS: usize = 3;

/// The records of a file as a user opening it gets them (encoding and format detected).
pub fn records(data: &[u8]) -> Vec<Record> {
    notation::load(data, None)
        .records
        .into_iter()
        .take(MAX_RECORDS)
        .map(|p| p.record)
        .collect()
}

/// A position without its move number (most formats cannot hold the number).
pub fn position_key(p: &Position) -> String {
    let sfen = p.to_sfen();
    match sfen.rsplit_once(' ') {
        Some((rest, _number)) => rest.to_string(),
        None => sfen,
    }
}

/// The moves of the main line.
pub fn main_moves(r: &Record) -> Vec<MoveData> {
    r.main_line()
        .into_iter()
        .filter_map(|id| r.node(id).move_data().copied())
        .collect()
}

/// The shape of the whole tree: for each node in pre-order, its parent's place in that order
/// and its move (`None` for a special ending).
pub fn tree_shape(r: &Record) -> Vec<(usize, Option<MoveData>)> {
    let order = r.preorder();
    let mut place = vec![0usize; r.nodes.len()];
    for (i, &id) in order.iter().enumerate() {
        place[id.index()] = i;
    }
    order
        .iter()
        .filter(|&&id| id != NodeId::ROOT)
        .map(|&id| {
            let parent = r.node(id).parent.map_or(0, |p| place[p.index()]);
            let mv = match &r.node(id).step {
                Step::Move(m) => Some(*m),
                _ => None,
            };
            (parent, mv)
        })
        .collect()
}

/// Warnings that mean the reader could not take what the writer wrote. An illegal move is
/// kept by every reader (the record read may hold one), so it is not one of them.
pub fn unreadable(p: &Parsed) -> Vec<String> {
    p.warnings
        .iter()
        .filter(|d| !matches!(d.kind, DiagKind::IllegalMove))
        .map(|d| format!("{:?} {d}", d.kind))
        .collect()
}

fn fail(what: &str, format: Format, written: &str, detail: &str) -> ! {
    panic!(
        "{} {what}: {detail}\n--- written ---\n{written}--- end ---",
        format.name()
    )
}

/// The first place two lists differ, for a readable failure.
fn first_difference<T: PartialEq + std::fmt::Debug>(a: &[T], b: &[T]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => format!("at {i}: {:?} became {:?}", a[i], b[i]),
        None => format!("length {} became {}", a.len(), b.len()),
    }
}

fn utf8() -> TextInfo {
    TextInfo::new(TextEncoding::Utf8)
}

/// Reads what `format`'s writer wrote back with its reader (exactly one record expected).
fn read_back(written: &str, format: Format) -> Parsed {
    let mut back = notation::read_text(written, format);
    if back.len() != 1 {
        fail(
            "writer wrote several records",
            format,
            written,
            &back.len().to_string(),
        );
    }
    back.remove(0)
}

/// Findings already reported (issue 14 and the fuzzing report) that would otherwise stop most
/// runs of the property targets. With `FUZZ_SKIP_KNOWN=1` a record showing one is not checked
/// in the formats it breaks, so that a long run looks for what else there is (`run-smoke` sets
/// it only with `FUZZ_NO_FINDINGS=1`). Drop a class here once it is fixed.
#[derive(Clone, Copy, Default, Debug)]
pub struct Known {
    /// More pieces of a kind than the 40-piece set has (the readers accept them).
    pub impossible_counts: bool,
    /// A move the rules reject, kept by the reader: KI2 cannot always name it, and the USI
    /// reader stops the line at it.
    pub illegal_moves: bool,
    /// An ending word kifview does not know (`Special::Other`): KIF/KI2 write it as a move line.
    pub odd_ending: bool,
    /// Variations nested deeper than JKF readers take (about 40).
    pub deep_nesting: bool,
    /// A header key the KIF/KI2 readers do not read as one (empty, with a space, a colon or a
    /// control character, or starting like a move, comment or 変化 line), or a value with a
    /// control character.
    pub odd_header: bool,
    /// A header value (player names included) that is empty, or starts or ends with white
    /// space or a control character: the CSA reader trims it or drops it.
    pub padded_value: bool,
    /// Two variations starting with the same move (the KIF reader keeps both; the KI2 and JKF
    /// readers merge them).
    pub duplicate_siblings: bool,
}

fn odd_header_key(key: &str) -> bool {
    let first = key.chars().next().unwrap_or(' ');
    key.chars()
        .any(|c| c.is_control() || c.is_whitespace() || c == ':' || c == '：')
        || first.is_ascii_digit()
        || ('０'..='９').contains(&first)
        || "▲△☗☖*#&|+-".contains(first)
        || ["変化", "手数", "まで"].iter().any(|p| key.starts_with(p))
}

/// Lone CRs (not before an LF) are not line ends for the readers yet (issue 14).
pub fn known_lone_cr(data: &[u8]) -> bool {
    skip_known()
        && (data.last() == Some(&b'\r') || data.windows(2).any(|w| w[0] == b'\r' && w[1] != b'\n'))
}

fn skip_known() -> bool {
    static SKIP: OnceLock<bool> = OnceLock::new();
    *SKIP.get_or_init(|| std::env::var_os("FUZZ_SKIP_KNOWN").is_some_and(|v| v == "1"))
}

impl Known {
    /// What `r` shows, or nothing when `FUZZ_SKIP_KNOWN` is not set.
    pub fn of(r: &Record) -> Known {
        if !skip_known() {
            return Known::default();
        }
        Known {
            impossible_counts: impossible_counts(&r.initial.position),
            illegal_moves: has_illegal_move(r),
            odd_ending: r
                .nodes
                .iter()
                .any(|n| matches!(n.special(), Some(Special::Other(_)))),
            deep_nesting: nesting(r) > 40,
            odd_header: r
                .header
                .fields
                .iter()
                .any(|f| odd_header_key(&f.key) || f.value.chars().any(char::is_control)),
            padded_value: r.header.fields.iter().any(|f| {
                let v = &f.value;
                v.trim() != v || v.is_empty() || v.chars().any(char::is_control)
            }),
            duplicate_siblings: r.nodes.iter().any(|n| {
                let moves: Vec<_> = n
                    .children
                    .iter()
                    .filter_map(|&c| r.node(c).move_data().map(|m| m.mv))
                    .collect();
                moves
                    .iter()
                    .enumerate()
                    .any(|(i, m)| moves[..i].contains(m))
            }),
        }
    }
    /// Is the check of `format` skipped?
    pub fn skips(&self, format: Format) -> bool {
        self.impossible_counts
            || match format {
                Format::Kif => self.odd_ending || self.odd_header,
                Format::Ki2 => {
                    self.illegal_moves
                        || self.odd_ending
                        || self.odd_header
                        || self.duplicate_siblings
                }
                Format::Usi => self.illegal_moves,
                Format::Csa => self.padded_value,
                Format::Jkf => self.deep_nesting || self.duplicate_siblings,
                _ => false,
            }
    }
}

/// More of a kind (promoted or not, board and hands) than the full set.
fn impossible_counts(p: &Position) -> bool {
    let full = [18u32, 4, 4, 4, 4, 2, 2, 2];
    let mut n = [0u32; 8];
    for sq in Square::all() {
        if let Some(piece) = p.piece_at(sq) {
            n[piece.kind.unpromote() as usize] += 1;
        }
    }
    for c in [Color::Black, Color::White] {
        for k in PieceKind::HAND {
            n[k as usize] += u32::from(p.hand_count(c, k));
        }
    }
    n.iter().zip(full).any(|(&have, max)| have > max)
}

/// Does any move of the tree break the rules in its position?
fn has_illegal_move(r: &Record) -> bool {
    let mut positions = vec![None; r.nodes.len()];
    positions[0] = Some(r.initial.position.clone());
    for id in r.preorder() {
        let Some(pos) = positions[id.index()].clone() else {
            continue;
        };
        for &c in &r.node(id).children {
            if let Some(m) = r.node(c).move_data() {
                if pos.check(m.mv).is_err() {
                    return true;
                }
                let mut next = pos.clone();
                let _ = next.play_unchecked(m.mv);
                positions[c.index()] = Some(next);
            }
        }
    }
    false
}

/// How many forks deep the tree goes (a move that is not its parent's first child opens one).
fn nesting(r: &Record) -> usize {
    let mut depth = vec![0usize; r.nodes.len()];
    let mut deepest = 0;
    for id in r.preorder() {
        for (i, &c) in r.node(id).children.iter().enumerate() {
            depth[c.index()] = depth[id.index()] + usize::from(i > 0);
            deepest = deepest.max(depth[c.index()]);
        }
    }
    deepest
}

/// Every writer's text reads back with its reader: no warning, the same initial position and
/// main line (formats holding moves) or the same position (SFEN, BOD).
pub fn check_every_writer(r0: &Record) {
    let known = Known::of(r0);
    for format in Format::ALL {
        if known.skips(format) {
            continue;
        }
        let written = notation::render(r0, Target::new(format), &utf8()).text;
        let back = read_back(&written, format);
        let bad = unreadable(&back);
        if !bad.is_empty() {
            fail(
                "reader rejects its writer's text",
                format,
                &written,
                &bad.join("; "),
            );
        }
        let r1 = &back.record;
        if format.holds_moves() {
            same_start_and_main_line(r0, r1, format, &written);
        } else {
            let want = position_key(&r0.position_at(notation::last_position(r0)));
            let got = position_key(&r1.initial.position);
            if want != got {
                fail(
                    "position changed",
                    format,
                    &written,
                    &format!("{want} became {got}"),
                );
            }
        }
    }
}

fn same_start_and_main_line(r0: &Record, r1: &Record, format: Format, written: &str) {
    let (a, b) = (
        position_key(&r0.initial.position),
        position_key(&r1.initial.position),
    );
    if a != b {
        fail(
            "initial position changed",
            format,
            written,
            &format!("{a} became {b}"),
        );
    }
    let (m0, m1) = (main_moves(r0), main_moves(r1));
    if m0 != m1 {
        fail(
            "main line changed",
            format,
            written,
            &first_difference(&m0, &m1),
        );
    }
}

/// Writes `r0` in `target`, reads it back, and writes that again: the reader takes the text
/// without a warning, keeps the initial position and the main line (and the whole tree when
/// `whole_tree`), and the second text is the first one exactly.
pub fn check_round_trip(r0: &Record, target: Target, whole_tree: bool) {
    let format = target.format;
    if Known::of(r0).skips(format) {
        return;
    }
    let t1 = notation::render(r0, target, &utf8()).text;
    let p1 = read_back(&t1, format);
    let bad = unreadable(&p1);
    if !bad.is_empty() {
        fail(
            "reader rejects its writer's text",
            format,
            &t1,
            &bad.join("; "),
        );
    }
    let r1 = &p1.record;
    same_start_and_main_line(r0, r1, format, &t1);
    if whole_tree {
        let (s0, s1) = (tree_shape(r0), tree_shape(r1));
        if s0 != s1 {
            fail(
                "move tree changed",
                format,
                &t1,
                &first_difference(&s0, &s1),
            );
        }
    }
    let t2 = notation::render(r1, target, &utf8()).text;
    if t1 != t2 {
        let (l1, l2): (Vec<&str>, Vec<&str>) = (t1.lines().collect(), t2.lines().collect());
        fail(
            "second write differs from the first",
            format,
            &t1,
            &format!("line {}", first_difference(&l1, &l2)),
        );
    }
}

/// `data` with every CRLF and every lone CR made LF.
pub fn lf_only(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut i = 0;
    while i < data.len() {
        if data[i] == b'\r' {
            out.push(b'\n');
            if data.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
        } else {
            out.push(data[i]);
        }
        i += 1;
    }
    out
}

/// What a record holds, for comparing two reads of the same content: header, initial
/// position, and per node of the tree its place, move or ending, and comment.
struct Contents {
    header: Vec<(String, String)>,
    initial: String,
    nodes: Vec<(usize, Step, String)>,
}

fn contents(r: &Record) -> Contents {
    let header = r
        .header
        .fields
        .iter()
        .map(|f| (f.key.clone(), f.value.clone()))
        .collect();
    let order = r.preorder();
    let mut place = vec![0usize; r.nodes.len()];
    for (i, &id) in order.iter().enumerate() {
        place[id.index()] = i;
    }
    let nodes = order
        .iter()
        .map(|&id| {
            let n = r.node(id);
            let parent = n.parent.map_or(0, |p| place[p.index()]);
            (parent, n.step.clone(), n.comment.clone())
        })
        .collect();
    Contents {
        header,
        initial: position_key(&r.initial.position),
        nodes,
    }
}

/// Reading `data` and reading it with LF line ends give the same records.
pub fn check_newlines(data: &[u8]) {
    let lf = lf_only(data);
    if lf == data || known_lone_cr(data) {
        return;
    }
    let (a, b) = (records(data), records(&lf));
    if a.len() != b.len() {
        panic!("{} records, {} with LF line ends", a.len(), b.len());
    }
    for (ra, rb) in a.iter().zip(&b) {
        let (ca, cb) = (contents(ra), contents(rb));
        if ca.header != cb.header {
            panic!(
                "header {:?} became {:?} with LF line ends",
                ca.header, cb.header
            );
        }
        if ca.initial != cb.initial {
            panic!(
                "initial position {} became {} with LF line ends",
                ca.initial, cb.initial
            );
        }
        if ca.nodes != cb.nodes {
            panic!(
                "tree differs with LF line ends: {}",
                first_difference(&ca.nodes, &cb.nodes)
            );
        }
    }
}
