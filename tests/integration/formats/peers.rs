//! Other programs' rules, re-implemented for the suite (CI has only the Rust toolchain): what
//! ShogiHome reads from an analysis comment, what the JKF JSON schema allows, what a KIF move
//! line may say. Each says where it comes from; `interop.rs` holds kifview's output to them.

use kifview::core::notation::ki2::{Token, parse_token};
use kifview::core::rules::{Color, Position};
use serde_json::Value;

// ---- KIF ----

/// The move lines of KIF text that write `不成`, which the KIF specification forbids
/// (`不成の場合は、「不成」を表記しない`, Kakinoki, updated 2024-08-02) and on which ShogiHome
/// (tsshogi), json-kifu-format, cshogi and shogi-kifu-converter stop or skip.
pub fn kif_move_lines_with_funari(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| {
            let t = l.trim_start_matches([' ', '\u{3000}']);
            let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            digits > 0 && t[digits..].starts_with([' ', '\u{3000}']) && l.contains("不成")
        })
        .map(str::to_string)
        .collect()
}

// ---- ShogiHome's reading of analysis comments ----

/// What ShogiHome's `parseComment` (sunfish-shogi/shogihome `src/common/record/comment.ts`)
/// reads from one position's comment as research information (the `#` lines kifview writes).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShogiHomeResearch {
    /// `#詰み=(先手勝ち|後手勝ち)(?::([0-9]+)手)?`: the count (JS `Number`), `None` for no
    /// count (ShogiHome's `SCORE_MATE_INFINITE`), signed by the winner: gote's is negative.
    pub mate: Option<MateRead>,
    /// `#評価値=([+-]?[.0-9]+)` and the other research score forms, through JS's `||`: a
    /// score of 0 is falsy and reads as no score.
    pub score: Option<f64>,
}

/// A `#詰み` line as ShogiHome reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MateRead {
    pub sente_wins: bool,
    /// The count, `None` without one (infinite).
    pub count: Option<f64>,
}

impl MateRead {
    /// ShogiHome's number: `Number(count || SCORE_MATE_INFINITE) * (sente ? 1 : -1)`.
    pub fn value(self) -> f64 {
        let n = self.count.unwrap_or(f64::INFINITY);
        if self.sente_wins { n } else { -n }
    }
}

/// Strips an ASCII-digit-and-dot number with an optional sign from the start of `s`, as the
/// regex `[+-]?[.0-9]+` matches it, and parses it as JS `Number` would (NaN when it is not a
/// number, as `1.2.3`).
fn js_number_prefix(s: &str) -> Option<f64> {
    let sign = s.strip_prefix(['+', '-']).map_or(0, |_| 1);
    let body = s[sign..]
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(s.len(), |i| sign + i);
    if body == sign {
        return None;
    }
    Some(s[..body].parse::<f64>().unwrap_or(f64::NAN))
}

/// Strips an integer with an optional sign (`[+-]?[0-9]+`).
fn js_int_prefix(s: &str) -> Option<f64> {
    let sign = s.strip_prefix(['+', '-']).map_or(0, |_| 1);
    let end = s[sign..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(s.len(), |i| sign + i);
    (end > sign).then(|| s[..end].parse::<f64>().unwrap_or(f64::NAN))
}

/// `/^#詰み=(先手勝ち|後手勝ち)(?::([0-9]+)手)?/`
fn research_mate(line: &str) -> Option<MateRead> {
    let rest = line.strip_prefix("#詰み=")?;
    let (sente_wins, rest) = match rest {
        r if r.starts_with("先手勝ち") => (true, &r["先手勝ち".len()..]),
        r if r.starts_with("後手勝ち") => (false, &r["後手勝ち".len()..]),
        _ => return None,
    };
    // The optional group needs `:`, digits and `手`; otherwise the line still matches without it.
    let count = rest.strip_prefix(':').and_then(|r| {
        let d = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        (d > 0 && r[d..].starts_with('手')).then(|| r[..d].parse::<f64>().unwrap_or(f64::NAN))
    });
    Some(MateRead { sente_wins, count })
}

/// ShogiHome's research score forms, in its order: `#評価値=`, ShogiGUI's `*解析 … 評価値 N`,
/// 棋神アナリティクス' `* … 評価値 N`, K-Shogi's `#形勢[N]` / `#指し手[N]`.
fn research_score(line: &str) -> Option<f64> {
    let after_word = |prefix: &str| -> Option<f64> {
        let rest = line.strip_prefix(prefix)?;
        // `.* 評価値 ([+-]?[0-9]+)`: the last ` 評価値 ` followed by a number (greedy `.*`).
        rest.rmatch_indices(" 評価値 ")
            .find_map(|(i, w)| js_int_prefix(&rest[i + w.len()..]))
    };
    let kshogi = || -> Option<f64> {
        let rest = line
            .strip_prefix("#形勢[")
            .or_else(|| line.strip_prefix("#指し手["))?;
        let n = js_int_prefix(rest)?;
        let len = rest.find(|c: char| !(c.is_ascii_digit() || c == '+' || c == '-'))?;
        rest[len..].starts_with(']').then_some(n)
    };
    // JS `a || b || c || d`: a falsy 0 (or NaN) falls through to the next form.
    let truthy = |v: Option<f64>| v.filter(|x| *x != 0.0 && !x.is_nan());
    truthy(line.strip_prefix("#評価値=").and_then(js_number_prefix))
        .or_else(|| truthy(after_word("*解析 ")))
        .or_else(|| truthy(after_word("* ")))
        .or_else(kshogi)
}

/// ShogiHome's `parseComment`, research part: the last line of each kind wins.
pub fn shogihome_research(comment: &str) -> ShogiHomeResearch {
    let mut r = ShogiHomeResearch::default();
    for line in comment.split('\n') {
        if let Some(m) = research_mate(line) {
            r.mate = Some(m);
        }
        if let Some(s) = research_score(line) {
            r.score = Some(s);
        }
    }
    r
}

/// What ShogiHome's evaluation chart draws for a position: a mate as ±its mate value by the
/// sign of `mate` (`mate > 0 ? +MATE : -MATE`), else the score.
pub fn shogihome_chart(r: ShogiHomeResearch) -> Option<f64> {
    const MATE: f64 = 2000.0;
    match (r.mate, r.score) {
        (Some(m), _) => Some(if m.value() > 0.0 { MATE } else { -MATE }),
        (None, s) => s,
    }
}

/// ShogiHome's `getSituationText` (`src/renderer/helpers/score.ts`).
pub fn shogihome_situation(score: f64) -> &'static str {
    match score {
        s if s >= 1500.0 => "先手勝勢",
        s if s >= 600.0 => "先手優勢",
        s if s >= 400.0 => "先手有利",
        s if s >= 200.0 => "先手有望",
        s if s >= -200.0 => "互角",
        s if s >= -400.0 => "後手有望",
        s if s >= -600.0 => "後手有利",
        s if s >= -1500.0 => "後手優勢",
        _ => "後手勝勢",
    }
}

/// The moves of a `#読み筋=` line as ShogiHome's `parsePV` takes them from `pos`: each
/// `▲`/`△` move in turn, legal where it is played. Returns how many moves it read, or what
/// stopped it.
pub fn shogihome_pv(pos: &Position, pv: &str) -> Result<usize, String> {
    let mut p = pos.clone();
    let mut prev_to = None;
    let mut n = 0;
    let mut tokens = Vec::new();
    let mut cur = String::new();
    for c in pv.chars() {
        if matches!(c, '▲' | '△' | '☗' | '☖') && !cur.is_empty() {
            tokens.push(std::mem::take(&mut cur));
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    for t in tokens {
        let mut chars = t.chars();
        let side = match chars.next() {
            Some('▲' | '☗') => Color::Black,
            Some('△' | '☖') => Color::White,
            _ => return Err(format!("'{t}' has no side mark")),
        };
        if side != p.side_to_move() {
            return Err(format!("'{t}' is played by the side not to move"));
        }
        let md = match parse_token(&p, chars.as_str(), prev_to) {
            Ok(Token::Move(md)) => md,
            Ok(Token::Special(_)) => return Err(format!("'{t}' is an ending")),
            Err(e) => return Err(format!("'{t}': {e}")),
        };
        p.play(md.mv)
            .map_err(|e| format!("'{t}' is illegal: {e:?}"))?;
        prev_to = Some(md.mv.to());
        n += 1;
    }
    Ok(n)
}

// ---- The JKF JSON schema ----

/// The `special` enum of the JKF JSON schema: `$defs/special` of
/// `specification/json-kifu-format.schema.json` in the npm package json-kifu-format 5.5.0
/// (besides `null`).
pub const JKF_SCHEMA_SPECIALS: [&str; 14] = [
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

/// `$defs/preset`.
const PRESETS: [&str; 17] = [
    "HIRATE", "KY", "KY_R", "KA", "HI", "HIKY", "2", "3", "4", "5", "5_L", "6", "7_L", "7_R", "8",
    "10", "OTHER",
];

/// `$defs/kind`; `$defs/capturablekind` is the same without `OU`.
const KINDS: [&str; 14] = [
    "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];

/// Where `v` breaks the JKF JSON schema (json-kifu-format 5.5.0): required fields, closed
/// objects (`additionalProperties: false`), enums and types. Empty when it validates.
/// `relative` is held to the whole of its pattern's alternatives (`[LCR]|[UMD]|[LCR][UD]|[LR]M|H`),
/// which is stricter than the schema's unanchored pattern.
pub fn jkf_schema_errors(v: &Value) -> Vec<String> {
    let mut e = Vec::new();
    check_record(v, &mut e);
    e
}

fn closed(v: &Value, at: &str, allowed: &[&str], required: &[&str], e: &mut Vec<String>) -> bool {
    let Some(o) = v.as_object() else {
        e.push(format!("{at}: not an object"));
        return false;
    };
    for k in o.keys() {
        if !allowed.contains(&k.as_str()) {
            e.push(format!("{at}: property '{k}' is not allowed"));
        }
    }
    for k in required {
        if !o.contains_key(*k) {
            e.push(format!("{at}: required property '{k}' is missing"));
        }
    }
    true
}

fn in_enum(v: &Value, at: &str, values: &[&str], e: &mut Vec<String>) {
    if !v.as_str().is_some_and(|s| values.contains(&s)) {
        e.push(format!("{at}: {v} is not one of {values:?}"));
    }
}

fn color(v: &Value, at: &str, e: &mut Vec<String>) {
    if !matches!(v.as_u64(), Some(0 | 1)) {
        e.push(format!("{at}: color {v} is not 0 or 1"));
    }
}

fn integer(v: &Value, at: &str, e: &mut Vec<String>) {
    if !(v.is_i64() || v.is_u64()) {
        e.push(format!("{at}: {v} is not an integer"));
    }
}

fn check_record(v: &Value, e: &mut Vec<String>) {
    if !closed(
        v,
        "$",
        &["header", "initial", "moves"],
        &["header", "moves"],
        e,
    ) {
        return;
    }
    match v["header"].as_object() {
        Some(h) => {
            for (k, x) in h {
                if !x.is_string() {
                    e.push(format!("$.header.{k}: not a string"));
                }
            }
        }
        None => e.push("$.header: not an object".into()),
    }
    if let Some(init) = v.get("initial").filter(|i| !i.is_null()) {
        check_initial(init, e);
    }
    match v["moves"].as_array() {
        Some(moves) => {
            if moves.first().is_some_and(|m| !m.is_object()) {
                e.push("$.moves[0]: not an object".into());
            }
            for (i, m) in moves.iter().enumerate().skip(1) {
                check_entry(m, &format!("$.moves[{i}]"), e);
            }
        }
        None => e.push("$.moves: not an array".into()),
    }
}

fn check_initial(v: &Value, e: &mut Vec<String>) {
    if !closed(v, "$.initial", &["preset", "data"], &["preset"], e) {
        return;
    }
    in_enum(&v["preset"], "$.initial.preset", &PRESETS, e);
    let Some(d) = v.get("data").filter(|d| !d.is_null()) else {
        return;
    };
    // `initialData` is not closed.
    if !d.is_object() {
        e.push("$.initial.data: not an object".into());
        return;
    }
    for k in ["color", "board", "hands"] {
        if d.get(k).is_none() {
            e.push(format!(
                "$.initial.data: required property '{k}' is missing"
            ));
        }
    }
    color(&d["color"], "$.initial.data.color", e);
    match &d["board"] {
        Value::Object(o) if o.is_empty() => {}
        Value::Array(cols) => {
            for (x, col) in cols.iter().enumerate() {
                let Some(col) = col.as_array() else {
                    e.push(format!("$.initial.data.board[{x}]: not an array"));
                    continue;
                };
                for (y, sq) in col.iter().enumerate() {
                    let at = format!("$.initial.data.board[{x}][{y}]");
                    if closed(sq, &at, &["color", "kind"], &[], e) {
                        if !sq.get("color").is_none_or(Value::is_null) {
                            color(&sq["color"], &at, e);
                        }
                        if !sq.get("kind").is_none_or(Value::is_null) {
                            in_enum(&sq["kind"], &at, &KINDS, e);
                        }
                    }
                }
            }
        }
        b => e.push(format!(
            "$.initial.data.board: {b} is neither {{}} nor a board"
        )),
    }
    match d["hands"].as_array() {
        Some(h) if h.len() == 2 => {
            for (i, hand) in h.iter().enumerate() {
                let at = format!("$.initial.data.hands[{i}]");
                if closed(hand, &at, &KINDS, &[], e) {
                    for (k, n) in hand.as_object().into_iter().flatten() {
                        integer(n, &format!("{at}.{k}"), e);
                    }
                }
            }
        }
        _ => e.push("$.initial.data.hands: not an array of two hands".into()),
    }
}

fn check_entry(v: &Value, at: &str, e: &mut Vec<String>) {
    let keys = ["comments", "move", "time", "special", "forks"];
    if !closed(v, at, &keys, &[], e) {
        return;
    }
    match v.get("comments") {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) if a.iter().all(Value::is_string) => {}
        Some(c) => e.push(format!("{at}.comments: {c} is not an array of strings")),
    }
    if let Some(m) = v.get("move").filter(|m| !m.is_null()) {
        check_move(m, &format!("{at}.move"), e);
    }
    if let Some(t) = v.get("time").filter(|t| !t.is_null()) {
        let at = format!("{at}.time");
        if closed(t, &at, &["now", "total"], &["now", "total"], e) {
            for k in ["now", "total"] {
                let at = format!("{at}.{k}");
                let x = &t[k];
                if closed(x, &at, &["h", "m", "s"], &["m", "s"], e) {
                    integer(&x["m"], &at, e);
                    integer(&x["s"], &at, e);
                    if !x.get("h").is_none_or(Value::is_null) {
                        integer(&x["h"], &at, e);
                    }
                }
            }
        }
    }
    if let Some(s) = v.get("special").filter(|s| !s.is_null()) {
        in_enum(s, &format!("{at}.special"), &JKF_SCHEMA_SPECIALS, e);
    }
    match v.get("forks") {
        None | Some(Value::Null) => {}
        Some(Value::Array(forks)) => {
            for (i, f) in forks.iter().enumerate() {
                match f.as_array() {
                    Some(line) => {
                        for (j, m) in line.iter().enumerate() {
                            check_entry(m, &format!("{at}.forks[{i}][{j}]"), e);
                        }
                    }
                    None => e.push(format!("{at}.forks[{i}]: not an array")),
                }
            }
        }
        Some(f) => e.push(format!("{at}.forks: {f} is not an array")),
    }
}

fn check_move(m: &Value, at: &str, e: &mut Vec<String>) {
    let keys = [
        "color", "from", "to", "piece", "same", "promote", "capture", "relative",
    ];
    if !closed(m, at, &keys, &["color", "to", "piece"], e) {
        return;
    }
    color(&m["color"], &format!("{at}.color"), e);
    let place = |p: &Value, at: &str, e: &mut Vec<String>| {
        if closed(p, at, &["x", "y"], &["x", "y"], e) {
            integer(&p["x"], at, e);
            integer(&p["y"], at, e);
        }
    };
    place(&m["to"], &format!("{at}.to"), e);
    if !m.get("from").is_none_or(Value::is_null) {
        place(&m["from"], &format!("{at}.from"), e);
    }
    in_enum(&m["piece"], &format!("{at}.piece"), &KINDS, e);
    for k in ["same", "promote"] {
        if !m.get(k).is_none_or(|b| b.is_boolean() || b.is_null()) {
            e.push(format!("{at}.{k}: not a boolean"));
        }
    }
    if let Some(c) = m.get("capture").filter(|c| !c.is_null()) {
        // `$defs/capturablekind`: every kind but OU.
        let capturable: Vec<&str> = KINDS.iter().copied().filter(|&k| k != "OU").collect();
        in_enum(c, &format!("{at}.capture"), &capturable, e);
    }
    if let Some(r) = m.get("relative").filter(|r| !r.is_null()) {
        let ok = r.as_str().is_some_and(|s| {
            let b = s.as_bytes();
            match b {
                [c] => b"LCRUMDH".contains(c),
                [a, b] => {
                    (b"LCR".contains(a) && b"UD".contains(b)) || (b"LR".contains(a) && *b == b'M')
                }
                _ => false,
            }
        });
        if !ok {
            e.push(format!(
                "{at}.relative: {r} does not match the schema's pattern"
            ));
        }
    }
}
