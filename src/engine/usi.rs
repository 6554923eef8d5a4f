//! Reading what a USI engine prints: a forgiving line parser.
//!
//! Real engines print more than the protocol: Fairy-Stockfish a banner before `id` and a blank
//! line, keys the spec does not list (`tbhits`), `nodes` beyond 2^31, option names with spaces
//! (`Debug Log File`); gpsusi diagnostics (`delay go (go 2 times, bestmove 1 times)`). So a line
//! that is not USI is `None`, an unknown `info` key is skipped with its value, and a number that
//! does not read leaves its field empty. Nothing here fails.

/// One message from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiMessage {
    IdName(String),
    IdAuthor(String),
    Option(UsiOption),
    UsiOk,
    ReadyOk,
    Info(Box<Info>),
    /// `bestmove X [ponder Y]`; `X` may be `resign` or `win`. Move text is not checked here.
    BestMove {
        best: String,
        ponder: Option<String>,
    },
    /// The answer to `go mate`.
    Checkmate(CheckmateReply),
}

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckmateReply {
    /// `checkmate <moves>`: the mating line, as the engine wrote it (moves separated by spaces).
    Mate(String),
    NoMate,
    Timeout,
    NotImplemented,
}

/// An engine option as declared after `usi`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UsiOption {
    /// Every word between `name` and `type`, joined by one space.
    pub name: String,
    /// `check`, `spin`, `combo`, `button`, `string`, `filename` (or what the engine wrote).
    pub kind: String,
    pub default: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// The choices of a `combo`.
    pub vars: Vec<String>,
}

/// Why `value` does not fit the option `o` as the engine declared it (`None`: it fits, or
/// the type is one kifview does not check). An engine given `Threads = many` may abort.
pub fn unfit_value(o: &UsiOption, value: &str) -> Option<String> {
    match o.kind.as_str() {
        "spin" => {
            let range = match (o.min, o.max) {
                (Some(a), Some(b)) => format!(" from {a} to {b}"),
                _ => String::new(),
            };
            let fits = value
                .parse::<i64>()
                .is_ok_and(|n| o.min.is_none_or(|a| n >= a) && o.max.is_none_or(|b| n <= b));
            (!fits).then(|| format!("a spin (a whole number{range})"))
        }
        "check" => (!matches!(value, "true" | "false")).then(|| "a check (true or false)".into()),
        "combo" if !o.vars.is_empty() => (!o.vars.iter().any(|v| v == value))
            .then(|| format!("a combo of {}", o.vars.join(", "))),
        _ => None,
    }
}

/// Whether a score is exact or only a bound (aspiration window failed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// The same bound seen from the other side.
    pub fn flip(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }
}

/// A score as the engine wrote it: from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawScore {
    /// Centipawns (`score cp 123`).
    Cp(i32),
    /// `score mate N`: `plies` is |N| (None for a plain `mate +` / `mate -`); `winning` is true
    /// when the side to move mates (`+`/positive), false when it is mated (`-`, negative, `0`).
    Mate { plies: Option<u32>, winning: bool },
}

/// One `info` line. Fields the line did not carry are `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    pub multipv: Option<u32>,
    pub score: Option<RawScore>,
    pub bound: Bound,
    pub currmove: Option<String>,
    /// The principal variation exactly as written (moves separated by single spaces).
    pub pv: Option<String>,
    /// `info string …`: free text to the end of the line.
    pub string: Option<String>,
}

/// Reads one line from an engine. `None` for anything that is not a USI message.
pub fn parse_line(line: &str) -> Option<UsiMessage> {
    let line = line.trim_matches(|c: char| c.is_ascii_whitespace());
    let (head, rest) = split_word(line);
    match head {
        "info" => Some(UsiMessage::Info(Box::new(parse_info(rest)))),
        "bestmove" => parse_bestmove(rest),
        "usiok" if rest.is_empty() => Some(UsiMessage::UsiOk),
        "readyok" if rest.is_empty() => Some(UsiMessage::ReadyOk),
        "id" => {
            let (key, value) = split_word(rest);
            match key {
                "name" => Some(UsiMessage::IdName(value.to_string())),
                "author" => Some(UsiMessage::IdAuthor(value.to_string())),
                _ => None,
            }
        }
        "option" => parse_option(rest).map(UsiMessage::Option),
        "checkmate" => Some(UsiMessage::Checkmate(match rest {
            "nomate" => CheckmateReply::NoMate,
            "timeout" => CheckmateReply::Timeout,
            "notimplemented" => CheckmateReply::NotImplemented,
            "" => return None,
            moves => CheckmateReply::Mate(join_words(moves)),
        })),
        _ => None,
    }
}

/// The first word of `s` and the rest, both trimmed.
fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start_matches(is_blank);
    match s.find(is_blank) {
        Some(i) => (&s[..i], s[i..].trim_matches(is_blank)),
        None => (s, ""),
    }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Words separated by single spaces.
fn join_words(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split(is_blank).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

fn parse_bestmove(rest: &str) -> Option<UsiMessage> {
    let mut words = rest.split(is_blank).filter(|w| !w.is_empty());
    let best = words.next()?.to_string();
    let ponder = match (words.next(), words.next()) {
        (Some("ponder"), Some(p)) => Some(p.to_string()),
        _ => None,
    };
    Some(UsiMessage::BestMove { best, ponder })
}

/// Keys of `info` that take exactly one value.
fn set_number(info: &mut Info, key: &str, value: &str) {
    match key {
        "depth" => info.depth = value.parse().ok(),
        "seldepth" => info.seldepth = value.parse().ok(),
        "time" => info.time_ms = value.parse().ok(),
        "nodes" => info.nodes = value.parse().ok(),
        "nps" => info.nps = value.parse().ok(),
        "hashfull" => info.hashfull = value.parse().ok(),
        "tbhits" => info.tbhits = value.parse().ok(),
        "multipv" => info.multipv = value.parse().ok(),
        "currmove" => info.currmove = Some(value.to_string()),
        _ => {}
    }
}

/// The `info` keys a value follows (unknown keys are skipped as a key alone: if an unknown key
/// had a value, that value is then read as an unknown key too, which is just as harmless).
const VALUED: [&str; 9] = [
    "depth", "seldepth", "time", "nodes", "nps", "hashfull", "tbhits", "multipv", "currmove",
];

fn parse_info(rest: &str) -> Info {
    let mut info = Info::default();
    let mut s = rest;
    loop {
        let (key, after) = split_word(s);
        if key.is_empty() {
            break;
        }
        s = after;
        match key {
            "pv" => {
                let pv = join_words(s);
                info.pv = (!pv.is_empty()).then_some(pv);
                break;
            }
            "string" => {
                info.string = Some(s.to_string());
                break;
            }
            "score" => s = parse_score(&mut info, s),
            "lowerbound" => info.bound = Bound::Lower,
            "upperbound" => info.bound = Bound::Upper,
            k if VALUED.contains(&k) => {
                let (value, after) = split_word(s);
                set_number(&mut info, k, value);
                s = after;
            }
            _ => {}
        }
    }
    info
}

/// Reads `cp N` / `mate N|+|-` and an optional bound; returns what follows.
fn parse_score<'a>(info: &mut Info, s: &'a str) -> &'a str {
    let (kind, after) = split_word(s);
    let (value, mut rest) = split_word(after);
    info.score = match kind {
        "cp" => value.parse().ok().map(RawScore::Cp),
        "mate" => parse_mate(value),
        _ => return s,
    };
    let (next, after) = split_word(rest);
    match next {
        "lowerbound" => {
            info.bound = Bound::Lower;
            rest = after;
        }
        "upperbound" => {
            info.bound = Bound::Upper;
            rest = after;
        }
        _ => {}
    }
    rest
}

fn parse_mate(value: &str) -> Option<RawScore> {
    match value {
        "+" => Some(RawScore::Mate {
            plies: None,
            winning: true,
        }),
        "-" => Some(RawScore::Mate {
            plies: None,
            winning: false,
        }),
        v => {
            let n: i64 = v.parse().ok()?;
            let plies = u32::try_from(n.unsigned_abs()).ok()?;
            Some(RawScore::Mate {
                plies: Some(plies),
                winning: n > 0 || (n == 0 && v.starts_with('+')),
            })
        }
    }
}

/// `option name <words> type <kind> [default <words>] [min N] [max N] [var V]…`.
fn parse_option(rest: &str) -> Option<UsiOption> {
    let words: Vec<&str> = rest.split(is_blank).filter(|w| !w.is_empty()).collect();
    if words.first() != Some(&"name") {
        return None;
    }
    let type_at = words.iter().position(|w| *w == "type")?;
    let mut opt = UsiOption {
        name: words[1..type_at].join(" "),
        kind: words.get(type_at + 1)?.to_string(),
        ..UsiOption::default()
    };
    if opt.name.is_empty() {
        return None;
    }
    let mut i = type_at + 2;
    while i < words.len() {
        let key = words[i];
        let end = words[i + 1..]
            .iter()
            .position(|w| matches!(*w, "default" | "min" | "max" | "var"))
            .map_or(words.len(), |p| i + 1 + p);
        let value = words[i + 1..end].join(" ");
        match key {
            "default" => opt.default = Some(value),
            "min" => opt.min = value.parse().ok(),
            "max" => opt.max = value.parse().ok(),
            "var" => opt.vars.push(value),
            _ => {}
        }
        i = end;
    }
    Some(opt)
}

#[cfg(test)]
#[path = "usi_tests.rs"]
mod tests;
