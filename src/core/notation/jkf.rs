//! JKF, the JSON Kifu Format (na2hiro/json-kifu-format): `header`, `initial` (`preset` and, for
//! `OTHER`, `data` with `board`, `hands` and `color`), and `moves`, whose first entry is the
//! initial position and whose entries may carry `forks` (alternative lines at that ply, nested).
//!
//! Reading walks the move lists with an explicit stack; the JSON itself is parsed by serde_json,
//! whose recursion limit (128) turns absurdly deep nesting into a diagnostic instead of a crash.
//! Writing emits the JSON text with an explicit stack too, so no depth of variations recurses.

use super::ki2::direction_suffix;
use super::{DiagKind, Diagnostic, Parsed, Written};
use crate::core::record::{Initial, MoveData, MoveTime, NodeId, Record, Special, Step};
use crate::core::rules::{Color, Handicap, Move, Piece, PieceKind, Position, Square};
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;

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

/// Header fields in file order (serde_json's `Value` would sort them).
#[derive(Default)]
struct OrderedMap(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for OrderedMap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OrderedMap;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of header fields")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedMap, A::Error> {
                let mut v = Vec::new();
                while let Some((k, val)) = map.next_entry::<String, Value>()? {
                    v.push((k, val));
                }
                Ok(OrderedMap(v))
            }
            fn visit_unit<E>(self) -> Result<OrderedMap, E> {
                Ok(OrderedMap::default())
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
struct Jkf {
    #[serde(default)]
    header: OrderedMap,
    #[serde(default)]
    initial: Option<Value>,
    #[serde(default)]
    moves: Option<Value>,
}

/// Does this text look like JKF (a JSON object with `moves` or `header`)?
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with('{') && (t.contains("\"moves\"") || t.contains("\"header\""))
}

fn kind_of(v: &Value) -> Option<PieceKind> {
    PieceKind::from_csa(v.as_str()?)
}

fn color_of(v: &Value) -> Color {
    if v.as_u64() == Some(1) {
        Color::White
    } else {
        Color::Black
    }
}

fn square_of(v: &Value) -> Option<Square> {
    let x = v.get("x")?.as_u64()?;
    let y = v.get("y")?.as_u64()?;
    Square::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?)
}

fn ms_of(t: &Value) -> Option<u64> {
    let n = |k: &str| t.get(k).and_then(Value::as_f64).unwrap_or(0.0);
    let secs = n("h") * 3600.0 + n("m") * 60.0 + n("s");
    (t.is_object() && secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
}

/// The JKF special name (CSA's without `%`) and the kifview ending.
fn special_of(name: &str, side: Color) -> Special {
    Special::from_csa(&format!("%{name}"), side)
}

fn read_initial(v: &Value, warnings: &mut Vec<Diagnostic>) -> Initial {
    let preset = v.get("preset").and_then(Value::as_str).unwrap_or("HIRATE");
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
        pos.set_side_to_move(color_of(data.get("color").unwrap_or(&Value::Null)));
        if let Some(files) = data.get("board").and_then(Value::as_array) {
            for (x, col) in files.iter().take(9).enumerate() {
                for (y, cell) in col.as_array().into_iter().flatten().take(9).enumerate() {
                    let Some(kind) = cell.get("kind").and_then(kind_of) else {
                        continue;
                    };
                    let color = color_of(cell.get("color").unwrap_or(&Value::Null));
                    if let Some(sq) = Square::new(x as u8 + 1, y as u8 + 1) {
                        pos.set_piece(sq, Some(Piece::new(kind, color)));
                    }
                }
            }
        }
        if let Some(hands) = data.get("hands").and_then(Value::as_array) {
            for (i, hand) in hands.iter().take(2).enumerate() {
                let color = if i == 0 { Color::Black } else { Color::White };
                let Some(obj) = hand.as_object() else {
                    continue;
                };
                for (k, n) in obj {
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
    // Rebuilt from its SFEN so that the rules crate's king cache matches the board.
    let pos = Position::from_sfen(&pos.to_sfen()).unwrap_or(pos);
    let handicap = Handicap::matching(&pos);
    Initial {
        position: pos,
        handicap,
    }
}

/// Reads JKF text. Never fails: invalid JSON gives an empty record and a diagnostic at the line
/// serde_json names; bad moves stop their line of play with a warning.
pub fn read(text: &str) -> Parsed {
    let text = text.trim_start_matches('\u{feff}');
    let mut warnings = Vec::new();
    let jkf: Jkf = match serde_json::from_str(text) {
        Ok(j) => j,
        Err(e) => {
            let msg = if e.to_string().contains("recursion limit") {
                "the JSON nests too deeply (more than about 40 levels of forks)".to_string()
            } else {
                format!("not JKF: {e}")
            };
            return Parsed {
                record: Record::default(),
                warnings: vec![Diagnostic::new(e.line(), DiagKind::UnknownLine, msg)],
            };
        }
    };
    let initial = match &jkf.initial {
        Some(v) if v.is_object() => read_initial(v, &mut warnings),
        _ => Initial::even(),
    };
    let mut record = Record::new(initial);
    for (k, v) in &jkf.header.0 {
        let value = match v {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            other => other.to_string(),
        };
        record.header.set(k, &value);
    }
    let empty = Vec::new();
    let top = jkf
        .moves
        .as_ref()
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    // (node to continue from, entries, path for messages)
    let mut stack: Vec<(NodeId, &[Value], String)> = vec![(NodeId::ROOT, top, "moves".into())];
    while let Some((start, entries, path)) = stack.pop() {
        let mut cur = start;
        let mut pos = record.position_at(cur);
        let mut forks_here: Vec<(NodeId, &[Value], String)> = Vec::new();
        for (i, m) in entries.iter().enumerate() {
            let before = cur;
            let here = format!("{path}[{i}]");
            if let Some(mv) = m.get("move").filter(|v| v.is_object()) {
                match read_move(&record, cur, &pos, mv) {
                    Ok(md) => {
                        if let Err(e) = pos.check(md.mv)
                            && !(e == crate::core::rules::Illegal::DropPawnMate
                                && pos.king_square(pos.side_to_move().flip()).is_none())
                        {
                            warnings.push(Diagnostic::new(
                                0,
                                DiagKind::IllegalMove,
                                format!("{here}: illegal move {}: {e}", md.mv.usi()),
                            ));
                        }
                        let mut next = pos.clone();
                        match next.play_unchecked(md.mv) {
                            Some(p) => {
                                let md = MoveData {
                                    piece: p.piece,
                                    captured: p.captured,
                                    ..md
                                };
                                cur = append(&mut record, cur, Step::Move(md));
                                pos = next;
                            }
                            None => {
                                warnings.push(Diagnostic::new(
                                    0,
                                    DiagKind::ImpossibleMove,
                                    format!("{here}: move {} cannot be played", md.mv.usi()),
                                ));
                                break;
                            }
                        }
                    }
                    Err(msg) => {
                        warnings.push(Diagnostic::new(
                            0,
                            DiagKind::BadMove,
                            format!("{here}: {msg}"),
                        ));
                        break;
                    }
                }
            } else if let Some(name) = m.get("special").and_then(Value::as_str) {
                if record.node(cur).special().is_some() {
                    warnings.push(Diagnostic::new(
                        0,
                        DiagKind::AfterEnd,
                        format!("{here}: a second ending after the line already ended"),
                    ));
                    break;
                }
                let side = pos.side_to_move();
                cur = append(&mut record, cur, Step::Special(special_of(name, side)));
            }
            if let Some(t) = m.get("time").filter(|t| t.is_object())
                && cur != NodeId::ROOT
            {
                let spent = t.get("now").and_then(ms_of);
                let total = t.get("total").and_then(ms_of);
                if let Some(spent_ms) = spent {
                    record.node_mut(cur).time = Some(MoveTime {
                        spent_ms,
                        total_ms: total,
                    });
                }
            }
            if let Some(c) = m.get("comments").and_then(Value::as_array) {
                let lines: Vec<&str> = c.iter().map(|l| l.as_str().unwrap_or("")).collect();
                record.node_mut(cur).comment = lines.join("\n");
            }
            if let Some(forks) = m.get("forks").and_then(Value::as_array) {
                for (k, f) in forks.iter().enumerate() {
                    if let Some(line) = f.as_array() {
                        forks_here.push((before, line, format!("{here}.forks[{k}]")));
                    }
                }
            }
        }
        // Forks are read after their line, in order (the stack pops the last pushed first).
        stack.extend(forks_here.into_iter().rev());
    }
    record.fill_missing_times();
    Parsed { record, warnings }
}

/// Appends `step` after `cur`, reusing an identical existing child.
fn append(record: &mut Record, cur: NodeId, step: Step) -> NodeId {
    if let Some(c) = record
        .node(cur)
        .children
        .iter()
        .copied()
        .find(|&c| record.node(c).step == step)
    {
        return c;
    }
    record.push_child(cur, step)
}

fn read_move(record: &Record, cur: NodeId, pos: &Position, mv: &Value) -> Result<MoveData, String> {
    // The side to move plays it; a contradicting `color` field is ignored, as other readers do.
    let side = pos.side_to_move();
    let piece = mv.get("piece").and_then(kind_of);
    let to = match mv.get("to").and_then(square_of) {
        Some(sq) => sq,
        None if mv.get("same").and_then(Value::as_bool) == Some(true) => record
            .node(cur)
            .move_data()
            .map(|m| m.mv.to())
            .ok_or("'same' with no previous move")?,
        None => return Err("expected 'to' {x, y} with x and y in 1..9".into()),
    };
    let promote = mv.get("promote").and_then(Value::as_bool) == Some(true);
    let m = match mv.get("from").filter(|f| !f.is_null()) {
        Some(f) => {
            let from = square_of(f).ok_or("expected 'from' {x, y} with x and y in 1..9")?;
            Move::Normal { from, to, promote }
        }
        None => {
            if mv
                .get("relative")
                .and_then(Value::as_str)
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

fn time_json(spent: u64, total: u64) -> String {
    let s = spent / 1000;
    let t = total / 1000;
    format!(
        "\"time\":{{\"now\":{{\"m\":{},\"s\":{}}},\"total\":{{\"h\":{},\"m\":{},\"s\":{}}}}}",
        s / 60,
        s % 60,
        t / 3600,
        t / 60 % 60,
        t % 60
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
                Some(w) => w.trim_start_matches('%').to_string(),
                None => {
                    losses.specials += 1;
                    s.kif_word().to_string()
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
    specials: usize,
    bookmarks: usize,
}

/// What is left to emit.
enum Task {
    Text(String),
    /// The entries of a line starting at this node (comma-separated, no brackets).
    Line(NodeId),
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
    let mut stack = vec![Task::Text("\n  ]\n}\n".into()), Task::Line(NodeId::ROOT)];
    let mut max_depth = 0usize;
    let mut depth_of: HashMap<NodeId, usize> = HashMap::new();
    let totals = record.running_totals();
    while let Some(task) = stack.pop() {
        let start = match task {
            Task::Text(t) => {
                out.push_str(&t);
                continue;
            }
            Task::Line(s) => s,
        };
        let depth = depth_of.get(&start).copied().unwrap_or(0);
        max_depth = max_depth.max(depth);
        let chain = record.line_from(start);
        let mut pos = if start == NodeId::ROOT {
            record.initial.position.clone()
        } else {
            record.position_at(record.node(start).parent.unwrap_or(NodeId::ROOT))
        };
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
                    depth_of.insert(alt, depth + 1);
                    pieces.push(Task::Line(alt));
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
    if losses.specials > 0 {
        l.push(format!(
            "{} endings with no JKF name (written as their Japanese word)",
            losses.specials
        ));
    }
    if losses.bookmarks > 0 {
        l.push(format!("{} bookmarks (JKF has none)", losses.bookmarks));
    }
    if max_depth > 40 {
        l.push(format!(
            "variations nested {max_depth} deep: JSON readers (kifview included) stop at about 40"
        ));
    }
    if !record.program_lines.is_empty() {
        l.push(format!(
            "{} program comment lines",
            record.program_lines.len()
        ));
    }
    Written {
        text: out,
        losses: l,
    }
}
