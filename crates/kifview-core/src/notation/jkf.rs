//! JKF, the JSON Kifu Format (na2hiro/json-kifu-format): `header`, `initial` (`preset` and, for
//! `OTHER`, `data` with `board`, `hands` and `color`), and `moves`, whose first entry is the
//! initial position and whose entries may carry `forks` (alternative lines at that ply, nested).
//!
//! Reading walks the move lists with an explicit stack through the shared record builder, each
//! fork starting from the position kept for its branch point; the JSON itself is parsed without
//! recursion (`json`), so any depth of forks that kifview writes, it reads back. Writing emits
//! the JSON text with an explicit stack too, each line from the position kept for it: linear
//! however deep variations nest.

use super::builder::{RecordBuilder, Style};
use super::japanese;
use super::json::{self, Value};
use super::ki2::direction_suffix;
use super::loss::{Loss, Lost};
use super::{DiagKind, Diagnostic, Parsed, Written};
use crate::record::{Initial, MoveData, MoveTime, NodeId, Record, Special, Step};
use crate::rules::{Color, Handicap, Illegal, Move, Piece, PieceKind, Position, Square};

/// JKF preset names and the KIF handicap names they stand for.
const PRESETS: [(&str, &str); 16] = [
    ("HIRATE", "平手"),
    ("KY", "香落ち"),
    ("KY_R", "右香落ち"),
    ("KA", "角落ち"),
    ("HI", "飛車落ち"),
    ("HIKY", "飛香落ち"),
    ("2", "二枚落ち"),
    ("3", "三枚落ち"),
    ("4", "四枚落ち"),
    ("5", "五枚落ち"),
    ("5_L", "左五枚落ち"),
    ("6", "六枚落ち"),
    ("7_L", "左七枚落ち"),
    ("7_R", "右七枚落ち"),
    ("8", "八枚落ち"),
    ("10", "十枚落ち"),
];

/// Does this text look like JKF (a JSON object with `moves` or `header`)?
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with('{') && (t.contains("\"moves\"") || t.contains("\"header\""))
}

fn kind_of(v: Value) -> Option<PieceKind> {
    PieceKind::from_csa(v.as_str()?)
}

fn color_of(v: Option<Value>) -> Color {
    if v.and_then(|v| v.as_u64()) == Some(1) {
        Color::White
    } else {
        Color::Black
    }
}

fn square_of(v: Value) -> Option<Square> {
    let x = v.get("x")?.as_u64()?;
    let y = v.get("y")?.as_u64()?;
    Square::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?)
}

fn ms_of(t: Value) -> Option<u64> {
    let n = |k: &str| t.get(k).and_then(|v| v.as_f64()).unwrap_or(0.0);
    let secs = n("h") * 3600.0 + n("m") * 60.0 + n("s");
    (t.is_object() && secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
}

/// The JKF special name (CSA's without `%`) and the kifview ending.
fn special_of(name: &str, side: Color) -> Special {
    Special::from_csa(&format!("%{name}"), side)
}

fn read_initial(v: Value, warnings: &mut Vec<Diagnostic>) -> Initial {
    let preset = v.get("preset").and_then(|v| v.as_str()).unwrap_or("HIRATE");
    if let Some(h) = PRESETS
        .iter()
        .find(|(p, _)| *p == preset)
        .and_then(|(_, n)| Handicap::by_name(n))
    {
        return Initial {
            position: h.position(),
            handicap: Some(h),
        };
    }
    if preset != "OTHER" {
        warnings.push(Diagnostic::new(
            0,
            DiagKind::BadHeader,
            format!("unknown initial preset '{preset}' (expected HIRATE, KY, ..., 10 or OTHER)"),
        ));
        return Initial::even();
    }
    let mut pos = Position::empty();
    if let Some(data) = v.get("data").filter(|d| d.is_object()) {
        pos.set_side_to_move(color_of(data.get("color")));
        if let Some(files) = data.get("board").and_then(|v| v.as_array()) {
            for (x, col) in files.take(9).enumerate() {
                for (y, cell) in col.as_array().into_iter().flatten().take(9).enumerate() {
                    let Some(kind) = cell.get("kind").and_then(kind_of) else {
                        continue;
                    };
                    let color = color_of(cell.get("color"));
                    if let Some(sq) = Square::new(x as u8 + 1, y as u8 + 1) {
                        pos.set_piece(sq, Some(Piece::new(kind, color)));
                    }
                }
            }
        }
        if let Some(hands) = data.get("hands").and_then(|v| v.as_array()) {
            for (i, hand) in hands.take(2).enumerate() {
                let color = if i == 0 { Color::Black } else { Color::White };
                let Some(fields) = hand.fields() else {
                    continue;
                };
                for (k, n) in fields {
                    let (Some(kind), Some(n)) = (PieceKind::from_csa(k), n.as_u64()) else {
                        continue;
                    };
                    if n > 0
                        && (!kind.is_hand_kind()
                            || !pos.set_hand_count(color, kind, u8::try_from(n).unwrap_or(255)))
                    {
                        warnings.push(Diagnostic::new(
                            0,
                            DiagKind::BadBoard,
                            format!("initial hand: {n} × {k} cannot be held"),
                        ));
                    }
                }
            }
        }
    }
    let handicap = Handicap::matching(&pos);
    Initial {
        position: pos,
        handicap,
    }
}

/// Reads JKF text. Never fails: invalid JSON gives an empty record and a diagnostic at the line
/// where the JSON stops; bad moves stop their line of play with a warning.
pub fn read(text: &str) -> Parsed {
    let text = text.trim_start_matches('\u{feff}');
    let doc = match json::parse(text) {
        Ok(d) => d,
        Err(e) => {
            return Parsed {
                record: Record::default(),
                warnings: vec![Diagnostic::new(
                    e.line,
                    DiagKind::UnknownLine,
                    format!("not JKF: {e}"),
                )],
            };
        }
    };
    let root = doc.root();
    if !root.is_object() {
        return Parsed {
            record: Record::default(),
            warnings: vec![Diagnostic::new(
                1,
                DiagKind::UnknownLine,
                "not JKF: expected a JSON object with header, initial and moves",
            )],
        };
    }
    let mut b = RecordBuilder::new(Style { branches: true });
    if let Some(v) = root.get("initial").filter(Value::is_object) {
        let mut warnings = Vec::new();
        let initial = read_initial(v, &mut warnings);
        b.warnings_mut().extend(warnings);
        b.set_initial(initial, 0);
    }
    let fields = root.get("header").and_then(|h| h.fields());
    for (k, v) in fields.into_iter().flatten() {
        let value = match v.as_str() {
            Some(s) => s.to_string(),
            None if v.is_null() => String::new(),
            None => v.to_json(),
        };
        b.record_mut().header.set(k, &value);
    }
    // (node to continue from, the position there, entries, the fork they are for messages)
    let mut stack: Vec<(NodeId, Position, Value, Option<usize>)> = Vec::new();
    let mut forks_seen = Forks::default();
    if let Some(top) = root.get("moves").filter(Value::is_array) {
        let pos = b.position().clone();
        stack.push((NodeId::ROOT, pos, top, None));
    }
    while let Some((start, pos, entries, fork)) = stack.pop() {
        b.resume_at(start, pos);
        let mut forks_here: Vec<(NodeId, Position, Value, Option<usize>)> = Vec::new();
        for (i, m) in entries.as_array().into_iter().flatten().enumerate() {
            let before = b.cur();
            let here = || forks_seen.path(fork, i);
            let forks = m.get("forks").filter(Value::is_array);
            let before_pos = forks.map(|_| b.position().clone());
            if let Some(mv) = m.get("move").filter(Value::is_object) {
                if !play(&mut b, mv, here) {
                    break;
                }
            } else if let Some(name) = m.get("special").and_then(|v| v.as_str()) {
                if b.ended().is_some() {
                    b.warn(
                        0,
                        DiagKind::AfterEnd,
                        format!("{}: a second ending after the line already ended", here()),
                    );
                    break;
                }
                let side = b.position().side_to_move();
                b.end(special_of(name, side));
            }
            if let Some(t) = m.get("time").filter(Value::is_object)
                && b.cur() != NodeId::ROOT
                && let Some(spent_ms) = t.get("now").and_then(ms_of)
            {
                let total_ms = t.get("total").and_then(ms_of);
                b.time(Some(MoveTime { spent_ms, total_ms }));
            }
            if let Some(c) = m.get("comments").and_then(|c| c.as_array()) {
                let lines: Vec<&str> = c.map(|l| l.as_str().unwrap_or("")).collect();
                b.set_comment(lines.join("\n"));
            }
            if let (Some(forks), Some(before_pos)) = (forks, before_pos) {
                for (k, f) in forks.as_array().into_iter().flatten().enumerate() {
                    if f.is_array() {
                        let id = forks_seen.add(fork, i, k);
                        forks_here.push((before, before_pos.clone(), f, Some(id)));
                    }
                }
            }
        }
        // Forks are read after their line, in order (the stack pops the last pushed first).
        stack.extend(forks_here.into_iter().rev());
    }
    let mut p = b.finish();
    p.record.fill_missing_times();
    p
}

/// Where each fork read is, for messages (`moves[3].forks[0][2]`): its fork, the entry it
/// hangs from and its index there. Kept as links and spelled out only for a message, so that
/// forks nested 100,000 deep cost nothing more (a path string per fork made reading quadratic).
#[derive(Default)]
struct Forks(Vec<(Option<usize>, usize, usize)>);

impl Forks {
    fn add(&mut self, parent: Option<usize>, entry: usize, index: usize) -> usize {
        self.0.push((parent, entry, index));
        self.0.len() - 1
    }
    /// The path of entry `entry` of the line of `fork` (`None`: the main line).
    fn path(&self, fork: Option<usize>, entry: usize) -> String {
        let mut steps = Vec::new();
        let mut cur = fork;
        while let Some(f) = cur {
            let (parent, i, k) = self.0[f];
            steps.push((i, k));
            cur = parent;
        }
        let mut s = String::from("moves");
        for (i, k) in steps.into_iter().rev() {
            s.push_str(&format!("[{i}].forks[{k}]"));
        }
        s.push_str(&format!("[{entry}]"));
        s
    }
}

/// Reads and plays one `move` entry; false when its line of play stops there. `here` names
/// the entry for messages.
fn play(b: &mut RecordBuilder, mv: Value, here: impl Fn() -> String) -> bool {
    let md = match read_move(b, mv) {
        Ok(md) => md,
        Err(msg) => {
            b.warn(0, DiagKind::BadMove, format!("{}: {msg}", here()));
            return false;
        }
    };
    // The move as players write it (`move 30 (△５五角(22))`), as the KIF reader names its moves.
    let named = format!(
        "move {} ({}{})",
        b.record().moves_before() + b.ply() + 1,
        if md.color == Color::Black {
            '▲'
        } else {
            '△'
        },
        japanese::kif_move(&md, b.prev_to())
    );
    let illegal = |b: &mut RecordBuilder, e: Illegal| {
        b.warn(
            0,
            DiagKind::IllegalMove,
            format!("{}: {named} is illegal: {e}", here()),
        );
    };
    match b.play(md.mv) {
        Ok(Ok(())) => true,
        Ok(Err(e)) => {
            illegal(b, e);
            true
        }
        Err(why) => {
            if let Some(e) = why {
                illegal(b, e);
            }
            b.warn(
                0,
                DiagKind::ImpossibleMove,
                format!("{}: {named} cannot be played", here()),
            );
            false
        }
    }
}

fn read_move(b: &RecordBuilder, mv: Value) -> Result<MoveData, String> {
    let pos = b.position();
    // The side to move plays it; a contradicting `color` field is ignored, as other readers do.
    let side = pos.side_to_move();
    let piece = mv.get("piece").and_then(kind_of);
    let to = match mv.get("to").and_then(square_of) {
        Some(sq) => sq,
        None if mv.get("same").and_then(|v| v.as_bool()) == Some(true) => {
            b.prev_to().ok_or("'same' with no previous move")?
        }
        None => return Err("expected 'to' {x, y} with x and y in 1..9".into()),
    };
    let promote = mv.get("promote").and_then(|v| v.as_bool()) == Some(true);
    let m = match mv.get("from").filter(|f| !f.is_null()) {
        Some(f) => {
            let from = square_of(f).ok_or("expected 'from' {x, y} with x and y in 1..9")?;
            Move::Normal { from, to, promote }
        }
        None => {
            if mv
                .get("relative")
                .and_then(|v| v.as_str())
                .is_some_and(|r| r != "H")
            {
                return Err(
                    "a board move without 'from' (unnormalized JKF) is not supported".into(),
                );
            }
            let kind = piece.ok_or("expected 'piece' (FU, KY, ...) for a drop")?;
            if !kind.is_hand_kind() {
                return Err(format!("a {} cannot be dropped", kind.csa()));
            }
            Move::Drop { kind, to }
        }
    };
    let kind = match m {
        Move::Normal { from, .. } => pos
            .piece_at(from)
            .filter(|p| p.color == side)
            .map(|p| p.kind)
            .ok_or_else(|| format!("no piece of the side to move on {}", from.usi()))?,
        Move::Drop { kind, .. } => kind,
    };
    if promote && !kind.can_promote() {
        return Err(format!("a {} cannot promote", kind.csa()));
    }
    Ok(MoveData {
        mv: m,
        color: side,
        piece: kind,
        captured: pos.piece_at(to).map(|p| p.kind),
    })
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn initial_json(initial: &Initial) -> String {
    let pos = &initial.position;
    if let Some(h) = Handicap::matching(pos)
        && let Some((p, _)) = PRESETS.iter().find(|(_, n)| *n == h.name)
    {
        return format!("{{\"preset\":{}}}", json_str(p));
    }
    let mut board = Vec::with_capacity(9);
    for x in 1..=9u8 {
        let mut col = Vec::with_capacity(9);
        for y in 1..=9u8 {
            let sq = Square::new(x, y).expect("valid square");
            col.push(match pos.piece_at(sq) {
                None => "{}".to_string(),
                Some(p) => format!(
                    "{{\"color\":{},\"kind\":\"{}\"}}",
                    p.color as u8,
                    p.kind.csa()
                ),
            });
        }
        board.push(format!("[{}]", col.join(",")));
    }
    let hand = |c: Color| {
        let items: Vec<String> = pos
            .hand(c)
            .iter()
            .map(|(k, n)| format!("\"{}\":{n}", k.csa()))
            .collect();
        format!("{{{}}}", items.join(","))
    };
    format!(
        "{{\"preset\":\"OTHER\",\"data\":{{\"color\":{},\"board\":[{}],\"hands\":[{},{}]}}}}",
        pos.side_to_move() as u8,
        board.join(","),
        hand(Color::Black),
        hand(Color::White)
    )
}

/// `"time":{"now":{"m":0,"s":16},"total":{"h":0,"m":0,"s":16}}`; milliseconds, when there are
/// any, as decimals of the seconds (`"s":6.5`), which the reader reads back.
fn time_json(spent: u64, total: u64) -> String {
    fn secs(ms: u64) -> String {
        let (s, frac) = (ms / 1000 % 60, ms % 1000);
        if frac == 0 {
            s.to_string()
        } else {
            format!("{s}.{frac:03}").trim_end_matches('0').to_string()
        }
    }
    let (s, t) = (spent / 1000, total / 1000);
    format!(
        "\"time\":{{\"now\":{{\"m\":{},\"s\":{}}},\"total\":{{\"h\":{},\"m\":{},\"s\":{}}}}}",
        s / 60,
        secs(spent),
        t / 3600,
        t / 60 % 60,
        secs(total)
    )
}

fn relative_code(suffix: &str) -> String {
    suffix
        .chars()
        .filter_map(|c| match c {
            '左' => Some('L'),
            '直' => Some('C'),
            '右' => Some('R'),
            '上' => Some('U'),
            '寄' => Some('M'),
            '引' => Some('D'),
            '打' => Some('H'),
            _ => None,
        })
        .collect()
}

/// The values JKF's `special` may take: the `special` enum of the JKF JSON schema
/// (`specification/json-kifu-format.schema.json` of json-kifu-format 5.5.0), CSA's words
/// without `%`. An ending outside it (`MAX_MOVES`, 不戦勝, 封じ手, ...) is written as
/// `CHUDAN` and named in the losses, as KIF writes such an ending as 中断.
pub const JKF_SPECIALS: [&str; 14] = [
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

/// One entry's fields before `forks` (without braces).
fn entry_fields(
    record: &Record,
    id: NodeId,
    pos: &Position,
    totals: &[u64],
    losses: &mut Losses,
) -> Vec<String> {
    let node = record.node(id);
    let mut f = Vec::new();
    match &node.step {
        Step::Root => {}
        Step::Move(md) => {
            let mut m = vec![
                format!("\"color\":{}", md.color as u8),
                format!("\"piece\":\"{}\"", md.piece.csa()),
                format!(
                    "\"to\":{{\"x\":{},\"y\":{}}}",
                    md.mv.to().file(),
                    md.mv.to().rank()
                ),
            ];
            if let Move::Normal { from, promote, .. } = md.mv {
                m.push(format!(
                    "\"from\":{{\"x\":{},\"y\":{}}}",
                    from.file(),
                    from.rank()
                ));
                let prev_to = node
                    .parent
                    .and_then(|p| record.node(p).move_data())
                    .map(|p| p.mv.to());
                if prev_to == Some(md.mv.to()) {
                    m.push("\"same\":true".into());
                }
                if promote {
                    m.push("\"promote\":true".into());
                } else if super::japanese::could_promote(md) {
                    m.push("\"promote\":false".into());
                }
                if let Some(c) = md.captured {
                    m.push(format!("\"capture\":\"{}\"", c.csa()));
                }
            }
            let rel = relative_code(&direction_suffix(pos, md));
            if !rel.is_empty() {
                m.push(format!("\"relative\":\"{rel}\""));
            }
            f.push(format!("\"move\":{{{}}}", m.join(",")));
        }
        Step::Special(s) => {
            let side = record.side_to_move_at(id);
            let name = match s.csa_word(side) {
                Some(w) if JKF_SPECIALS.contains(&w.trim_start_matches('%')) => {
                    w.trim_start_matches('%').to_string()
                }
                // `MATTA`, `ERROR`: read from a JKF or CSA file, written back as they were
                // (unless they would read as another ending).
                None if matches!(s, Special::Other(w)
                    if JKF_SPECIALS.contains(&w.as_str()) && special_of(w, side) == *s) =>
                {
                    s.kif_word().to_string()
                }
                _ => {
                    losses.specials.push(s.kif_word().to_string());
                    "CHUDAN".to_string()
                }
            };
            f.push(format!("\"special\":{}", json_str(&name)));
        }
    }
    if let Some(t) = node.time
        && id != NodeId::ROOT
    {
        let total = t.total_ms.unwrap_or(totals[id.index()]);
        f.push(time_json(t.spent_ms, total));
    }
    if !node.comment.is_empty() {
        let lines: Vec<String> = node.comment.split('\n').map(json_str).collect();
        f.push(format!("\"comments\":[{}]", lines.join(",")));
    }
    if node.bookmark.is_some() {
        losses.bookmarks += 1;
    }
    f
}

#[derive(Default)]
struct Losses {
    /// Endings without a JKF name, by word.
    specials: Vec<String>,
    bookmarks: usize,
}

/// What is left to emit.
enum Task {
    Text(String),
    /// The entries of a line starting at this node (comma-separated, no brackets), with the
    /// position before it.
    Line(NodeId, Position),
}

/// Writes a record as JKF (one JSON object, `\n`-terminated).
pub fn write(record: &Record) -> Written {
    let mut losses = Losses::default();
    let mut out = String::new();
    out.push_str("{\n  \"header\": {");
    let fields: Vec<String> = record
        .header
        .fields
        .iter()
        .map(|f| format!("\n    {}: {}", json_str(&f.key), json_str(&f.value)))
        .collect();
    out.push_str(&fields.join(","));
    if !fields.is_empty() {
        out.push_str("\n  ");
    }
    out.push_str("},\n  \"initial\": ");
    out.push_str(&initial_json(&record.initial));
    out.push_str(",\n  \"moves\": [\n    ");
    let mut stack = vec![
        Task::Text("\n  ]\n}\n".into()),
        Task::Line(NodeId::ROOT, record.initial.position.clone()),
    ];
    let totals = record.running_totals();
    while let Some(task) = stack.pop() {
        let (start, mut pos) = match task {
            Task::Text(t) => {
                out.push_str(&t);
                continue;
            }
            Task::Line(s, pos) => (s, pos),
        };
        let chain = record.line_from(start);
        // Build this line's pieces in order, then push them reversed.
        let mut pieces: Vec<Task> = Vec::new();
        let sep = if start == NodeId::ROOT {
            ",\n    "
        } else {
            ","
        };
        for (i, &id) in chain.iter().enumerate() {
            let mut text = String::new();
            if i > 0 {
                text.push_str(sep);
            }
            text.push('{');
            let fields = entry_fields(record, id, &pos, &totals, &mut losses);
            text.push_str(&fields.join(","));
            let node = record.node(id);
            let alts: Vec<NodeId> = match node.parent {
                Some(p) if i > 0 || start == NodeId::ROOT => {
                    let kids = &record.node(p).children;
                    if kids.first() == Some(&id) {
                        kids[1..].to_vec()
                    } else {
                        Vec::new()
                    }
                }
                _ => Vec::new(),
            };
            if alts.is_empty() {
                text.push('}');
                pieces.push(Task::Text(text));
            } else {
                if !fields.is_empty() {
                    text.push(',');
                }
                text.push_str("\"forks\":[");
                pieces.push(Task::Text(text));
                for (k, &alt) in alts.iter().enumerate() {
                    pieces.push(Task::Text(if k == 0 { "[".into() } else { ",[".into() }));
                    pieces.push(Task::Line(alt, pos.clone()));
                    pieces.push(Task::Text("]".into()));
                }
                pieces.push(Task::Text("]}".into()));
            }
            if let Some(md) = node.move_data() {
                let _ = pos.play_unchecked(md.mv);
            }
        }
        stack.extend(pieces.into_iter().rev());
    }
    let mut l = Vec::new();
    let mut words = losses.specials;
    words.sort();
    for group in words.chunk_by(|a, b| a == b) {
        l.push(Loss::new(
            Lost::Ending {
                word: group[0].clone(),
                written_as: Some("中断 (CHUDAN): JKF has no word for it".into()),
            },
            group.len(),
        ));
    }
    l.extend(Loss::some(Lost::Bookmarks, losses.bookmarks));
    l.extend(Loss::some(Lost::ProgramLines, record.remark_count()));
    l.extend(super::loss::move_numbers(record));
    Written {
        text: out,
        losses: l,
    }
}
