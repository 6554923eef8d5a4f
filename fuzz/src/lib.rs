//! What the fuzz targets check, shared between them.
//!
//! A failed property panics with what differs (and the text written), so libFuzzer reports it
//! like any crash and saves the input under `artifacts/TARGET/`.

use kifview_core::notation::{
    self, DiagKind, Diagnostic, Format, Loss, Lost, Parsed, Target, TextEncoding, TextInfo, Written,
};
use kifview_core::record::{MoveData, NodeId, Record, Step};
use kifview_core::rules::Position;
use std::borrow::Cow;

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
/// kept by every reader (the record read may hold one), so it is not one of them; nor is the
/// warning that a board holds more than the 40-piece set when the position written does
/// (`over_the_set`: the readers keep a board as it is, with that warning, and take only the
/// hands' excess out).
pub fn unreadable(p: &Parsed, over_the_set: bool) -> Vec<String> {
    p.warnings
        .iter()
        .filter(|d| !matches!(d.kind, DiagKind::IllegalMove))
        .filter(|d| !(over_the_set && over_the_set_warning(d)))
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

/// The position with what is beyond the 40-piece set taken out, as every reader holds a
/// position it reads (`Position::fit_to_set`), and whether anything was beyond it.
fn held_to_the_set(p: &Position) -> (Position, bool) {
    let mut held = p.clone();
    let over = !held.fit_to_set().is_empty();
    (held, over)
}

/// The reader's warning about a position beyond the 40-piece set (builder: `too many pieces`).
fn over_the_set_warning(d: &Diagnostic) -> bool {
    d.kind == DiagKind::BadBoard && d.message.starts_with("too many pieces")
}

/// Header fields as KIF and KI2 hold them: every field whose key the writer did not name as
/// lost (`Lost::Headers`), line breaks in values as spaces, in order; `手合割` is the start
/// position there, not a field. (Also used by `tests/integration/formats/fuzz_findings.rs`.)
pub fn kept_header(r: &Record, losses: &[Loss]) -> Vec<(String, String)> {
    let lost: Vec<&String> = losses
        .iter()
        .flat_map(|l| match &l.what {
            Lost::Headers(keys) => keys.iter().collect(),
            _ => Vec::new(),
        })
        .collect();
    r.header
        .fields
        .iter()
        .filter(|f| f.key != "手合割" && !lost.contains(&&f.key))
        .map(|f| {
            let v = f.value.replace("\r\n", " ").replace(['\r', '\n'], " ");
            (f.key.clone(), v)
        })
        .collect()
}

/// KIF and KI2 keep every header field they do not list as lost, exactly: a writer never
/// emits a header line its reader reads as another field (a key with a colon, a line that
/// reads as a move, a comment or a diagram).
fn same_header(r0: &Record, w: &Written, r1: &Record, format: Format) {
    if !matches!(format, Format::Kif | Format::Ki2) {
        return;
    }
    let (h0, h1) = (kept_header(r0, &w.losses), kept_header(r1, &w.losses));
    if h0 != h1 {
        fail(
            "header changed",
            format,
            &w.text,
            &first_difference(&h0, &h1),
        );
    }
}

/// The move lines of KIF text that write `不成`: the KIF specification forbids it
/// (`不成の場合は、「不成」を表記しない`), and ShogiHome, json-kifu-format, cshogi and
/// shogi-kifu-converter stop at or skip such a line (issue 19).
pub fn kif_funari_move_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            let t = l.trim_start_matches([' ', '\u{3000}']);
            let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            digits > 0 && t[digits..].starts_with([' ', '\u{3000}']) && l.contains("不成")
        })
        .collect()
}

/// The `special` enum of the JKF JSON schema (json-kifu-format 5.5.0,
/// `specification/json-kifu-format.schema.json`, `$defs/special`), besides `null`.
const JKF_SCHEMA_SPECIALS: [&str; 14] = [
    "TORYO",
    "CHUDAN",
    "SENNICHITE",
    "TIME_UP",
    "ILLEGAL_MOVE",
    "+ILLEGAL_ACTION",
    "-ILLEGAL_ACTION",
    "JISHOGI",
    "KACHI",
    "HIKIWAKE",
    "MATTA",
    "TSUMI",
    "FUZUMI",
    "ERROR",
];

/// The JSON object that starts at `text[at]` (`{`), to its matching `}`: strings are skipped
/// with their escapes.
fn json_object(text: &str, at: usize) -> &str {
    let (mut depth, mut in_str, mut escaped) = (0usize, false, false);
    for (i, b) in text.bytes().enumerate().skip(at) {
        match (in_str, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_str = false,
            (true, false, _) => {}
            (false, _, b'"') => in_str = true,
            (false, _, b'{') => depth += 1,
            (false, _, b'}') => {
                depth -= 1;
                if depth == 0 {
                    return &text[at..=i];
                }
            }
            _ => {}
        }
    }
    &text[at..]
}

/// Where JKF text kifview wrote breaks the JKF schema in what its writer could get wrong: a
/// `special` outside the schema's enum, a required field missing (`header` and `moves` of the
/// record, `color`, `to` and `piece` of a move, `now` and `total` of a time, `preset` of the
/// initial position). A key inside a JSON string is escaped (`\"special\":`): only the
/// writer's own keys match.
pub fn jkf_outside_schema(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !text.starts_with("{\n  \"header\": {") || !text.contains("\n  \"moves\": [") {
        out.push("the record's header or moves is missing".into());
    }
    for (at, _) in text.match_indices("\"special\":") {
        let rest = &text[at + "\"special\":".len()..];
        let ok = rest.starts_with("null")
            || JKF_SCHEMA_SPECIALS
                .iter()
                .any(|s| rest.starts_with(&format!("\"{s}\"")));
        if !ok {
            out.push(format!(
                "special {}",
                rest.chars().take(20).collect::<String>()
            ));
        }
    }
    let required: [(&str, &[&str]); 3] = [
        ("\"move\":{", &["\"color\":", "\"to\":", "\"piece\":"]),
        ("\"time\":{", &["\"now\":", "\"total\":"]),
        ("\"initial\": {", &["\"preset\":"]),
    ];
    for (key, fields) in required {
        for (at, _) in text.match_indices(key) {
            let obj = json_object(text, at + key.len() - 1);
            for f in fields {
                if !obj.contains(f) {
                    out.push(format!("{key} without {f}: {obj}"));
                }
            }
        }
    }
    out
}

/// A comment kifview wrote to CSA is a comment (`'*`) for a reader that skips remarks (every
/// `'` line that is not `'*`): reading the text without its remark lines gives every node of
/// the main line the comment it has in `r0` (empty lines aside: CSA cannot write them).
fn same_csa_comments(r0: &Record, written: &str) {
    let skipped: String = written
        .lines()
        .filter(|l| !l.starts_with('\'') || l.starts_with("'*"))
        .map(|l| format!("{l}\n"))
        .collect();
    let back = read_back(&skipped, Format::Csa).record;
    let norm = |c: &str| -> Vec<String> {
        c.split(['\n', '\r'])
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    };
    for (a, b) in r0.main_line().into_iter().zip(back.main_line()) {
        let (ca, cb) = (norm(&r0.node(a).comment), norm(&back.node(b).comment));
        if ca != cb {
            fail(
                "comment lost to a reader that skips remarks",
                Format::Csa,
                written,
                &format!("{ca:?} became {cb:?}"),
            );
        }
    }
}

/// What a file kifview writes must mean in other programs (issue 19): KIF without `不成`
/// move lines, JKF within its schema, CSA comments as comments.
fn means_the_same_elsewhere(r0: &Record, format: Format, written: &str) {
    match format {
        Format::Kif => {
            let bad = kif_funari_move_lines(written);
            if !bad.is_empty() {
                fail("move line with 不成", format, written, &bad.join(" / "));
            }
        }
        Format::Jkf => {
            let bad = jkf_outside_schema(written);
            if !bad.is_empty() {
                fail("outside the JKF schema", format, written, &bad.join("; "));
            }
        }
        Format::Csa => same_csa_comments(r0, written),
        _ => {}
    }
}

/// Every writer's text reads back with its reader: no warning, the same initial position and
/// main line (formats holding moves) or the same position (SFEN, BOD; held to the 40-piece
/// set as every reader holds what it reads); and means the same in other programs
/// ([`means_the_same_elsewhere`]).
pub fn check_every_writer(r0: &Record) {
    let (_, initial_over) = held_to_the_set(&r0.initial.position);
    for format in Format::ALL {
        let w = notation::render(r0, Target::new(format), &utf8());
        let written = &w.text;
        means_the_same_elsewhere(r0, format, written);
        let back = read_back(written, format);
        let r1 = &back.record;
        if format.holds_moves() {
            no_warning(&back, initial_over, format, written);
            same_start_and_main_line(r0, r1, format, written);
            same_header(r0, &w, r1, format);
        } else {
            let (last, over) = held_to_the_set(&r0.position_at(notation::last_position(r0)));
            no_warning(&back, over, format, written);
            let want = position_key(&last);
            let got = position_key(&r1.initial.position);
            if want != got {
                fail(
                    "position changed",
                    format,
                    written,
                    &format!("{want} became {got}"),
                );
            }
        }
    }
}

fn no_warning(back: &Parsed, over_the_set: bool, format: Format, written: &str) {
    let bad = unreadable(back, over_the_set);
    if !bad.is_empty() {
        fail(
            "reader rejects its writer's text",
            format,
            written,
            &bad.join("; "),
        );
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
    let w1 = notation::render(r0, target, &utf8());
    let t1 = w1.text.clone();
    means_the_same_elsewhere(r0, format, &t1);
    let p1 = read_back(&t1, format);
    no_warning(&p1, held_to_the_set(&r0.initial.position).1, format, &t1);
    let r1 = &p1.record;
    same_start_and_main_line(r0, r1, format, &t1);
    same_header(r0, &w1, r1, format);
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
    // The first write may hold the input's own text where nothing changed (a clean CSA or KI2
    // file's text kept with its record, `core::record::SourceText`, such as a blank line); the
    // text read back keeps none, so the second write is compared with the writer's own text.
    let own = || {
        let mut bare = r0.clone();
        bare.source = kifview_core::record::SourceText(None);
        notation::render(&bare, target, &utf8()).text
    };
    if t1 != t2 && own() != t2 {
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

/// Reading `data` and reading it with LF line ends give the same records. Text in UTF-16 (a
/// UTF-16 byte-order mark first) is left out: a CR byte there is half of some character.
pub fn check_newlines(data: &[u8]) {
    if data.starts_with(b"\xFF\xFE") || data.starts_with(b"\xFE\xFF") {
        return;
    }
    let lf = lf_only(data);
    if lf == data {
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
                first_difference(
                    &ca.nodes.iter().collect::<Vec<_>>(),
                    &cb.nodes.iter().collect::<Vec<_>>()
                )
            );
        }
    }
}
