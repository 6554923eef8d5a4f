//! `kifview index`, `find`, `explore` and `games`: their arguments, and the calls into
//! [`kifview::collection`].

use super::{Out, print_messages};
use clap::{ArgGroup, Args, ValueEnum};
use kifview::collection::{
    self, Brief, Filter, Fork, GameResult, Index, Me, MeColor, MeResult, UpdateOptions,
};
use kifview::core::notation::usi;
use kifview::core::rules::{Move, Position};
use kifview::core::text::sanitize;
use kifview::load;
use serde::Serialize;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct IndexArgs {
    /// Folders (or files) of records: KIF, KIFU, KI2, KI2U, CSA, JKF. Regular files only: a
    /// FIFO, a device or a dangling link is named and skipped, as is a folder that cannot be
    /// read.
    #[arg(required_unless_present_any = ["forget", "check", "repair"], value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Drop FOLDER (or a file) from the index: its games are forgotten and it is not read
    /// again. It need not exist (a folder renamed or deleted; an indexed folder that is gone
    /// is dropped by every update anyway). May be given more than once.
    #[arg(long, value_name = "FOLDER")]
    pub forget: Vec<PathBuf>,
    /// Check the index (its catalog, every block of its segments, games.bin) and say what is
    /// damaged, changing nothing; exits 1 when something is.
    #[arg(long, conflicts_with_all = ["repair", "paths", "variations", "forget"])]
    pub check: bool,
    /// Repair the index: damaged segments are rebuilt from their files, a damaged catalog
    /// from the folders it held (those given, else the ones the index holds).
    #[arg(long)]
    pub repair: bool,
    /// The index folder (default: $KIFVIEW_INDEX, else the platform data directory's
    /// kifview/collection).
    #[arg(long, value_name = "IDX")]
    pub index: Option<PathBuf>,
    /// Index the positions of variations too (changing this rebuilds the index).
    #[arg(long)]
    pub variations: bool,
}

/// The position of a query.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("at").required(true).args(["sfen", "position", "file"])))]
pub struct PositionArgs {
    /// The position as SFEN (the move number may be left out).
    #[arg(long, value_name = "SFEN")]
    pub sfen: Option<String>,
    /// The position as USI: "startpos moves 7g7f 3c3d" or "sfen … moves …".
    #[arg(long, value_name = "USI")]
    pub position: Option<String>,
    /// The position of a record file, with --ply (and --record).
    #[arg(long, value_name = "F", requires = "ply")]
    pub file: Option<PathBuf>,
    /// Which record of a multi-record --file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = super::parse_record)]
    pub record: usize,
    /// After this move of --file's main line, numbered as the record numbers its moves.
    #[arg(long, value_name = "N", requires = "file")]
    pub ply: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ResultArg {
    Sente,
    Gote,
    Draw,
    Unknown,
}

/// The filters of `find`, `explore`, `games` (and `report`): every one given holds; a name,
/// event or tag option given twice is two conditions (`--player 羽生 --player 藤井`: the games
/// between the two).
#[derive(Args, Debug, Default, PartialEq)]
pub struct FilterArgs {
    /// Games where either side's name contains NAME (full/half width, case and spaces aside).
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// Games where sente's (下手's) name contains NAME.
    #[arg(long, value_name = "NAME")]
    pub sente: Vec<String>,
    /// Games where gote's (上手's) name contains NAME.
    #[arg(long, value_name = "NAME")]
    pub gote: Vec<String>,
    /// Games whose event (棋戦) contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub event: Vec<String>,
    /// Games on or after DATE (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long, value_name = "DATE", value_parser = collection::filter_text::parse_date)]
    pub from: Option<String>,
    /// Games on or before DATE (YYYY, YYYY-MM or YYYY-MM-DD: all of that year or month).
    #[arg(long, value_name = "DATE", value_parser = collection::filter_text::parse_date)]
    pub to: Option<String>,
    /// Games with this result.
    #[arg(long, value_enum)]
    pub result: Option<ResultArg>,
    /// Games with a tag of this family (美濃: 美濃囲い, 高美濃囲い, 銀冠, …), or this 戦型 header.
    #[arg(long, value_name = "TAG")]
    pub tag: Vec<String>,
    /// Games of files under this folder.
    #[arg(long, value_name = "FOLDER")]
    pub under: Option<PathBuf>,
    /// The viewer's filter language: "player:A player:B me:sente event:竜王 2020..2023
    /// -tag:穴熊" (see the README), with the options above.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub filter: Option<String>,
    /// Who "me" is (a name or an account; repeatable), instead of the config's
    /// `[collection] me`: the filter `me`, and me_color/me_result in --json.
    #[arg(long, value_name = "NAME")]
    pub me: Vec<String>,
    /// The config file whose `[collection] me` says who "me" is (default: $KIFVIEW_CONFIG,
    /// else the platform config directory).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct QueryArgs {
    #[command(flatten)]
    pub at: PositionArgs,
    /// The index folder (default: $KIFVIEW_INDEX, else the platform data directory's
    /// kifview/collection).
    #[arg(long, value_name = "IDX")]
    pub index: Option<PathBuf>,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// JSON output (see the README for its keys).
    #[arg(long)]
    pub json: bool,
}

/// How `explore` writes moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Notation {
    /// Japanese (`▲７六歩`).
    #[default]
    Ja,
    /// USI (`7g7f`).
    Usi,
}

#[derive(Args, Debug)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub query: QueryArgs,
    /// How the table writes moves: ja (`▲７六歩`, the default) or usi (`7g7f`). JSON has both:
    /// `usi` and `ja`.
    #[arg(long, value_enum, default_value_t = Notation::Ja)]
    pub notation: Notation,
}

#[derive(Args, Debug)]
pub struct GamesArgs {
    /// The index folder (default: $KIFVIEW_INDEX, else the platform data directory's
    /// kifview/collection).
    #[arg(long, value_name = "IDX")]
    pub index: Option<PathBuf>,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// One JSON object a line.
    #[arg(long)]
    pub json: bool,
    /// List the copies of games not counted (the same moves from the same start, and the
    /// same players, date and winner where both have them), each with the copy counted in its place:
    /// the one with the most comments and analysis.
    #[arg(long)]
    pub duplicates: bool,
}

/// The index folder: `--index`, else the default ([`kifview::collection::index_dir`]).
fn index_dir(given: Option<PathBuf>) -> Result<PathBuf, String> {
    kifview::collection::index_dir(given)
}

pub fn index(a: IndexArgs) -> ExitCode {
    let dir = match index_dir(a.index) {
        Ok(d) => d,
        Err(e) => return fail(2, "index", &e),
    };
    if a.check {
        return match collection::build::check_index(&dir) {
            Err(e) => fail(1, "index", &e),
            Ok(found) if found.is_empty() => {
                print_messages(&[format!("kifview index: {}: sound", dir.display())]);
                ExitCode::SUCCESS
            }
            Ok(found) => {
                print_messages(&found);
                print_messages(&[format!(
                    "kifview index: {}: {} problem(s); `kifview index --repair` repairs them",
                    dir.display(),
                    found.len()
                )]);
                ExitCode::from(1)
            }
        };
    }
    let mut paths = a.paths;
    if a.repair && paths.is_empty() {
        paths = collection::build::roots(&dir)
            .into_iter()
            .filter(|p| p.exists())
            .collect();
        if paths.is_empty() {
            return fail(
                2,
                "index",
                &format!(
                    "{}: the index names no folder that exists to repair it from: give them (kifview index --repair FOLDER…)",
                    dir.display()
                ),
            );
        }
    }
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::with_draw_target(Some(0), indicatif::ProgressDrawTarget::stderr())
    } else {
        indicatif::ProgressBar::hidden()
    };
    let progress = |done: u64, total: u64| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let opts = UpdateOptions {
        variations: a.variations,
    };
    // Ctrl-C (or SIGTERM, SIGHUP) stops the update between steps, the step under way rolled
    // back: what was committed stays, and the next `kifview index` reads the rest.
    let stop = kifview::analyze::progress::catch_interrupt();
    let report = collection::build::update_forgetting(
        &dir,
        &paths,
        &a.forget,
        opts,
        &progress,
        &|| {},
        stop,
    );
    bar.finish_and_clear();
    let r = match report {
        Ok(r) => r,
        Err(e) => return fail(1, "index", &e),
    };
    if let Some(why) = &r.rebuilt {
        print_messages(&[format!("kifview index: rebuilt {}: {why}", dir.display())]);
    }
    for what in &r.repaired {
        print_messages(&[format!("kifview index: {what}")]);
    }
    print_messages(&r.warnings);
    print_messages(&r.failures);
    if let Some(c) = &r.compacted {
        print_messages(&[format!(
            "kifview index: compacted ({}): {} position pairs, {} before",
            c.why, c.pairs_after, c.pairs_before
        )]);
    }
    print_messages(&[format!(
        "kifview index: {}: {} games ({} added, {} removed); files: {} read, {} unchanged, {} removed, {} skipped",
        dir.display(),
        r.games,
        r.games_added,
        r.games_removed,
        r.files_read,
        r.files_unchanged,
        r.files_removed,
        r.failures.len()
    )]);
    if r.stopped {
        print_messages(&[format!(
            "kifview index: interrupted: the index holds the {} games committed; kifview index again reads the rest",
            r.games
        )]);
        return ExitCode::from(kifview::analyze::progress::interrupted_exit_code());
    }
    if r.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

pub(super) fn fail(code: u8, who: &str, e: &str) -> ExitCode {
    print_messages(&[format!("kifview {who}: {e}")]);
    ExitCode::from(code)
}

/// The position the arguments name; `Err((exit code, message))`.
pub(super) fn target(p: &PositionArgs) -> Result<Position, (u8, String)> {
    if let Some(s) = &p.sfen {
        let mut text = s.trim().to_string();
        if text.split_whitespace().count() == 3 {
            text.push_str(" 1");
        }
        let text = text.strip_prefix("sfen ").unwrap_or(&text).to_string();
        return Position::from_sfen(&text).map_err(|e| (2, format!("--sfen: {e}")));
    }
    if let Some(s) = &p.position {
        let s = s.trim();
        let text = if s.starts_with("position ") {
            s.to_string()
        } else {
            format!("position {s}")
        };
        let parsed = usi::read(&text).map_err(|d| (2, format!("--position: {}", d.message)))?;
        if let Some(w) = parsed.warnings.first() {
            return Err((2, format!("--position: {}", w.message)));
        }
        let r = &parsed.record;
        return Ok(r.position_at(*r.main_line().last().expect("the root")));
    }
    let file = p.file.as_deref().expect("clap requires one");
    let loaded = load::load_input(file).map_err(|e| (1, e))?;
    let parsed = load::pick_record(&loaded, p.record, file).map_err(|e| (2, e))?;
    let node = parsed
        .record
        .node_at_ply(p.ply)
        .map_err(|e| (2, format!("{}: {e}", file.display())))?;
    Ok(parsed.record.position_at(node))
}

/// The filter the options and `--filter` say, with who "me" is (`--me`, else the config's):
/// `Err` with the message when they cannot be read. `report` reads its filters through this too.
pub(super) fn filter(f: FilterArgs) -> Result<Filter, String> {
    use collection::{Field, Term};
    let under = f.under.map(|u| {
        let abs = std::fs::canonicalize(&u)
            .or_else(|_| std::path::absolute(&u))
            .unwrap_or(u);
        collection::walk::path_key(&abs)
    });
    let mut flags = Filter {
        from: f.from,
        to: f.to,
        result: f.result.map(|r| match r {
            ResultArg::Sente => GameResult::Sente,
            ResultArg::Gote => GameResult::Gote,
            ResultArg::Draw => GameResult::Draw,
            ResultArg::Unknown => GameResult::Unknown,
        }),
        under,
        ..Filter::default()
    };
    for (values, field, flag) in [
        (f.player, Field::Player, "--player"),
        (f.sente, Field::Sente, "--sente"),
        (f.gote, Field::Gote, "--gote"),
        (f.event, Field::Event, "--event"),
        (f.tag, Field::Tag, "--tag"),
    ] {
        for v in values {
            if collection::name_key(&v).is_empty() {
                return Err(format!(
                    "{flag}: an empty value matches every game: leave it out"
                ));
            }
            flags.terms.push(Term::new(field, &v));
        }
    }
    let config_me = if f.me.is_empty() {
        kifview::app::Config::load(f.config.as_deref())
            .map_err(|e| e.to_string())?
            .me
    } else {
        Vec::new()
    };
    collection::filter_text::combine(flags, f.filter.as_deref(), &f.me, &config_me)
}

pub(super) fn open(given: Option<PathBuf>, who: &str) -> Result<Index, ExitCode> {
    let dir = index_dir(given).map_err(|e| fail(2, who, &e))?;
    Index::open(&dir).map_err(|e| fail(1, who, &e))
}

/// A game as `find --json` prints it.
#[derive(Serialize)]
struct FoundJson<'a> {
    path: &'a str,
    record: u32,
    /// Plies played from the record's start position to the match.
    ply: u32,
    /// The record's number of the move that reaches the match (`FILE +N`'s N: `ply` after a
    /// record that starts at `手数＝80` is this less 80).
    #[serde(rename = "move")]
    move_number: u32,
    result: GameResult,
    sente: &'a str,
    gote: &'a str,
    date: Option<&'a str>,
    event: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    me_color: Option<Option<MeColor>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    me_result: Option<Option<MeResult>>,
    /// The variations leading to the position when the main line does not get there, as
    /// the viewer's `--variation` takes them.
    #[serde(skip_serializing_if = "Option::is_none")]
    variation: Option<String>,
}

/// `me_color` and `me_result` of a game's JSON line: absent without a "me", `null` in a game
/// I did not play.
fn me_fields(me: Option<&Me>, g: &Brief) -> (Option<Option<MeColor>>, Option<Option<MeResult>>) {
    match me {
        None => (None, None),
        Some(me) => {
            let c = me.color(g.sente, g.gote);
            (Some(c), Some(c.map(|c| c.result(g.result))))
        }
    }
}

/// A game as `games --json` prints it.
#[derive(Serialize)]
struct GameJson<'a> {
    path: &'a str,
    record: u32,
    result: GameResult,
    sente: &'a str,
    gote: &'a str,
    date: Option<&'a str>,
    event: Option<&'a str>,
    moves: u32,
    handicap: Option<&'a str>,
    tags: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    me_color: Option<Option<MeColor>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    me_result: Option<Option<MeResult>>,
}

/// JSON text with every control or bidirectional-override character escaped (`\u….`): the
/// same data for a program, nothing a terminal would act on.
pub(super) fn json_line<T: Serialize>(v: &T) -> String {
    let mut raw = serde_json::to_string(v).expect("plain data");
    // Also U+2028/U+2029, which JavaScript before ES2019 reads as line breaks inside a string.
    let acts = kifview::core::text::is_unsafe;
    // Most lines hold nothing to escape: they are written as they are.
    if !raw.contains(acts) {
        raw.push('\n');
        return raw;
    }
    let mut out = String::with_capacity(raw.len() + 1);
    for c in raw.chars() {
        if acts(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.push('\n');
    out
}

fn name<'a>(s: &Option<&'a str>) -> &'a str {
    s.unwrap_or("")
}

/// The record's number of the move that reaches a match `ply` plies after the record's
/// start: what `FILE +N`, `--variation` and `--file … --ply` number moves with.
fn move_number(g: &Brief, ply: u32) -> u32 {
    (g.first_move.max(1) - 1).saturating_add(ply)
}

/// The human-readable line of a game, and the line that opens it (`FILE +N [--record R]`),
/// written into `t`.
fn human(t: &mut Vec<u8>, g: &Brief, ply: Option<u32>, variation: &[Fork]) {
    let put = |t: &mut Vec<u8>, s: &str| t.extend_from_slice(s.as_bytes());
    put(t, g.date.unwrap_or("----------"));
    put(t, "  ");
    let word = g.result.word();
    put(t, word);
    put(t, &"       "[word.len().min(7)..]);
    put(t, "  ");
    put(t, &sanitize(name(&g.sente)));
    put(t, " - ");
    put(t, &sanitize(name(&g.gote)));
    if let Some(e) = g.event {
        put(t, "  [");
        put(t, &sanitize(e));
        put(t, "]");
    }
    put(t, "\n  ");
    shell_word(t, g.path);
    if let Some(p) = ply {
        put(t, " +");
        number(t, move_number(g, p));
        if let Some(v) = Fork::arg(g.first_move, variation) {
            put(t, " --variation ");
            put(t, &v);
        }
    }
    if g.record > 1 {
        put(t, " --record ");
        number(t, g.record);
    }
    put(t, "\n");
}

/// A path (a catalog key, `collection::walk::path_key`) as one shell word that opens the
/// file: as it is when it holds only plain characters, else quoted (`'…'`), and as `$'…'`
/// with `\t`, `\n` and `\xNN` escapes when it holds a control character, a character a
/// terminal acts on or a byte that is not UTF-8 (bash, zsh and ksh read `$'…'`), so that
/// nothing in it reaches the terminal as it is and a copied line opens the file.
pub(super) fn shell_word(t: &mut Vec<u8>, key: &str) {
    use std::os::unix::ffi::OsStrExt;
    let plain_byte = |b: u8| b.is_ascii_alphanumeric() || b"/._-+,:@%".contains(&b);
    let plain = |c: char| c.is_alphanumeric() || "/._-+,:@%".contains(c);
    // Most paths are plain ASCII: checked byte by byte, without decoding.
    if !key.is_empty() && key.bytes().all(plain_byte) {
        t.extend_from_slice(key.as_bytes());
        return;
    }
    let path = collection::walk::key_path(key);
    let bytes = path.as_os_str().as_bytes();
    // Not a file's text decoded again: a path's own bytes, looked at once to choose how to
    // quote them.
    match std::str::from_utf8(bytes) {
        Ok(s) if !s.is_empty() && s.chars().all(plain) => t.extend_from_slice(bytes),
        Ok(s) if !s.contains(kifview::core::text::is_unsafe) => {
            t.extend_from_slice(format!("'{}'", s.replace('\'', r"'\''")).as_bytes());
        }
        _ => ansi_c_quoted(t, bytes),
    }
}

/// `bytes` as a `$'…'` word: printable ASCII and safe characters as they are, the rest
/// escaped byte by byte.
fn ansi_c_quoted(t: &mut Vec<u8>, bytes: &[u8]) {
    t.extend_from_slice(b"$'");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => t.extend_from_slice(br"\\"),
                '\'' => t.extend_from_slice(br"\'"),
                '\t' => t.extend_from_slice(br"\t"),
                '\n' => t.extend_from_slice(br"\n"),
                '\r' => t.extend_from_slice(br"\r"),
                c if kifview::core::text::is_unsafe(c) => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        t.extend_from_slice(format!("\\x{b:02x}").as_bytes());
                    }
                }
                c => {
                    let mut buf = [0u8; 4];
                    t.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        for b in chunk.invalid() {
            t.extend_from_slice(format!("\\x{b:02x}").as_bytes());
        }
    }
    t.push(b'\'');
}

/// Text written to standard output as it is made, in blocks; `Err` once the reader is gone
/// (`find … | head`), which stops the query.
struct Stream {
    out: Out,
    text: Vec<u8>,
    count: u64,
}

/// `n` in decimal.
pub(super) fn number(t: &mut Vec<u8>, mut n: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    t.extend_from_slice(&buf[i..]);
}

/// Why a stream stopped early (not an error: the reader closed the pipe).
const CLOSED: &str = "\0closed";

impl Stream {
    fn new() -> Stream {
        Stream {
            out: Out::new(),
            text: Vec::with_capacity(1 << 17),
            count: 0,
        }
    }
    fn push(&mut self, line: &str) -> Result<(), String> {
        self.text.extend_from_slice(line.as_bytes());
        self.written()
    }
    /// Pushes a game as the table a person reads shows it.
    fn push_human(
        &mut self,
        g: &Brief,
        ply: Option<u32>,
        variation: &[Fork],
    ) -> Result<(), String> {
        human(&mut self.text, g, ply, variation);
        self.written()
    }
    /// Pushes `v` as a JSON line ([`json_line`]), serialized in place.
    fn push_json<T: Serialize>(&mut self, v: &T) -> Result<(), String> {
        let at = self.text.len();
        serde_json::to_writer(&mut self.text, v).map_err(|e| e.to_string())?;
        // Bytes that may start a character a terminal acts on (DEL, C1 controls in U+0080..,
        // U+2000.. for the bidirectional overrides): escaped the slow way. serde_json already
        // escapes the C0 controls.
        if self.text[at..]
            .iter()
            .any(|&b| matches!(b, 0x7F | 0xC2 | 0xE2))
        {
            self.text.truncate(at);
            let line = json_line(v);
            return self.push(&line);
        }
        self.text.push(b'\n');
        self.written()
    }
    /// Pushes a game as `find --json` prints it, written by hand: the common line (no string
    /// holding a quote, a backslash, a control or a byte that may start one a terminal acts
    /// on) without serde's machinery; any other line through [`push_json`](Self::push_json).
    fn push_found(
        &mut self,
        g: &Brief,
        ply: u32,
        variation: &[Fork],
        me: Option<&Me>,
    ) -> Result<(), String> {
        let variation = Fork::arg(g.first_move, variation);
        let at = self.text.len();
        let t = &mut self.text;
        let mut plain = true;
        let mut field = |t: &mut Vec<u8>, key: &[u8], v: Option<&str>| {
            t.extend_from_slice(key);
            match v {
                None => t.extend_from_slice(b"null"),
                Some(v) => {
                    // Without a branch per byte.
                    let odd = v.bytes().fold(false, |odd, b| {
                        odd | (b < 0x20)
                            | (b == b'"')
                            | (b == b'\\')
                            | (b == 0x7F)
                            | (b == 0xC2)
                            | (b == 0xE2)
                    });
                    plain &= !odd;
                    t.push(b'"');
                    t.extend_from_slice(v.as_bytes());
                    t.push(b'"');
                }
            }
        };
        field(t, b"{\"path\":", Some(g.path));
        t.extend_from_slice(b",\"record\":");
        number(t, g.record);
        t.extend_from_slice(b",\"ply\":");
        number(t, ply);
        t.extend_from_slice(b",\"move\":");
        number(t, move_number(g, ply));
        field(t, b",\"result\":", Some(g.result.word()));
        field(t, b",\"sente\":", Some(name(&g.sente)));
        field(t, b",\"gote\":", Some(name(&g.gote)));
        field(t, b",\"date\":", g.date);
        field(t, b",\"event\":", g.event);
        let (me_color, me_result) = me_fields(me, g);
        if let (Some(c), Some(r)) = (me_color, me_result) {
            field(t, b",\"me_color\":", c.map(MeColor::word));
            field(t, b",\"me_result\":", r.map(MeResult::word));
        }
        if variation.is_some() {
            field(t, b",\"variation\":", variation.as_deref());
        }
        if !plain {
            t.truncate(at);
            return self.push_json(&FoundJson {
                path: g.path,
                record: g.record,
                ply,
                move_number: move_number(g, ply),
                result: g.result,
                sente: name(&g.sente),
                gote: name(&g.gote),
                date: g.date,
                event: g.event,
                me_color,
                me_result,
                variation,
            });
        }
        t.extend_from_slice(b"}\n");
        self.written()
    }
    fn written(&mut self) -> Result<(), String> {
        self.count += 1;
        if self.text.len() > 1 << 16 {
            self.out.write(&self.text);
            self.text.clear();
            if self.out.closed {
                return Err(CLOSED.into());
            }
        }
        Ok(())
    }
    /// Ends the stream: the query's outcome, the count line of the table, the flush.
    fn end(self, r: Result<(), String>, json: bool, who: &str) -> ExitCode {
        self.end_counting(r, (!json).then_some("game(s)"), who)
    }

    /// [`Stream::end`], the count line (when there is one) naming what it counts.
    fn end_counting(mut self, r: Result<(), String>, what: Option<&str>, who: &str) -> ExitCode {
        match r {
            Err(e) if e != CLOSED => {
                self.out.write(&self.text);
                let _ = self.out.finish(&format!("kifview {who}"));
                return fail(1, who, &e);
            }
            _ => {}
        }
        if let Some(what) = what {
            let count = format!("{} {what}\n", self.count);
            self.text.extend_from_slice(count.as_bytes());
        }
        self.out.write(&self.text);
        finish(self.out, who)
    }
}

pub fn find(a: QueryArgs) -> ExitCode {
    let pos = match target(&a.at) {
        Ok(p) => p,
        Err((code, e)) => return fail(code, "find", &e),
    };
    let idx = match open(a.index, "find") {
        Ok(i) => i,
        Err(c) => return c,
    };
    let filter = match filter(a.filter) {
        Ok(f) => f,
        Err(e) => return fail(2, "find", &e),
    };
    let me = filter.me_who();
    let mut s = Stream::new();
    let r = idx.find_brief(&pos, &filter, &mut |g, ply, variation| {
        if a.json {
            s.push_found(g, ply, variation, me.as_ref())
        } else {
            s.push_human(g, Some(ply), variation)
        }
    });
    s.end(r, a.json, "find")
}

pub(super) fn finish(out: Out, who: &str) -> ExitCode {
    match out.finish(&format!("kifview {who}")) {
        Ok(()) => ExitCode::SUCCESS,
        Err(c) => c,
    }
}

pub fn explore(args: ExploreArgs) -> ExitCode {
    let a = args.query;
    let pos = match target(&a.at) {
        Ok(p) => p,
        Err((code, e)) => return fail(code, "explore", &e),
    };
    let idx = match open(a.index, "explore") {
        Ok(i) => i,
        Err(c) => return c,
    };
    let filter = match filter(a.filter) {
        Ok(f) => f,
        Err(e) => return fail(2, "explore", &e),
    };
    let e = match idx.explore(&pos, &filter) {
        Ok(e) => e,
        Err(e) => return fail(1, "explore", &e),
    };
    // Each move in Japanese for the side to move (`▲７六歩`), beside its USI.
    let ja = |m: &collection::NextMove| {
        Move::from_usi(&m.usi).map_or_else(
            || m.usi.clone(),
            |mv| kifview::core::notation::ki2::line_text(&pos, &[mv], None),
        )
    };
    let mut out = Out::new();
    if a.json {
        out.write(explored_json(&e, ja).as_bytes());
    } else {
        let pct = |n: u64, of: u64| {
            if of == 0 {
                0.0
            } else {
                100.0 * n as f64 / of as f64
            }
        };
        let mut t = format!(
            "{} game(s): sente {} ({:.1}%), gote {} ({:.1}%), draw {}, unknown {}\n",
            e.games,
            e.sente,
            pct(e.sente, e.games),
            e.gote,
            pct(e.gote, e.games),
            e.draw,
            e.unknown
        );
        let score = |m: &collection::MeTally| {
            m.win_percent()
                .map_or("    -".to_string(), |p| format!("{p:>5.1}"))
        };
        if let Some(me) = &e.me {
            t.push_str(&format!(
                "me: {} game(s): win {}, loss {}, draw {}, unknown {} (score {}%)\n",
                me.games,
                me.win,
                me.loss,
                me.draw,
                me.unknown,
                score(me).trim()
            ));
        }
        // The move column: as wide as the longest Japanese move (`▲２三銀右成`).
        let (col, heads) = match args.notation {
            Notation::Ja => (
                12usize,
                "指し手        games   sente%  gote%  draw  unknown",
            ),
            Notation::Usi => (8, "move      games   sente%  gote%  draw  unknown"),
        };
        t.push_str(heads);
        t.push_str(if e.me.is_some() { "    me%\n" } else { "\n" });
        for m in &e.moves {
            let name = match args.notation {
                Notation::Ja => sanitize(&ja(m)).into_owned(),
                Notation::Usi => m.usi.clone(),
            };
            let pad = col.saturating_sub(unicode_width::UnicodeWidthStr::width(name.as_str()));
            t.push_str(&format!(
                "{name}{:pad$}{:>7}   {:>5.1}  {:>5.1}  {:>4}  {:>7}",
                "",
                m.games,
                pct(m.sente, m.games),
                pct(m.gote, m.games),
                m.draw,
                m.unknown
            ));
            if let Some(me) = &m.me {
                t.push_str(&format!("  {}", score(me)));
            }
            t.push('\n');
        }
        out.write(t.as_bytes());
    }
    finish(out, "explore")
}

/// A tag as `tags --json` prints it.
#[derive(Serialize)]
struct TagJson<'a> {
    tag: &'a str,
    games: u64,
}

pub fn tags(a: GamesArgs) -> ExitCode {
    let filter = match filter(a.filter) {
        Ok(f) => f,
        Err(e) => return fail(2, "tags", &e),
    };
    let idx = match open(a.index, "tags") {
        Ok(i) => i,
        Err(c) => return c,
    };
    let counts = match idx.tag_counts(&filter) {
        Ok(c) => c,
        Err(e) => return fail(1, "tags", &e),
    };
    let mut t = String::new();
    for (tag, games) in &counts {
        if a.json {
            t.push_str(&json_line(&TagJson { tag, games: *games }));
        } else {
            t.push_str(&format!("{games:>8}  {}\n", sanitize(tag)));
        }
    }
    let mut out = Out::new();
    out.write(t.as_bytes());
    finish(out, "tags")
}

/// `explore --json`: the answer's object with each move's Japanese (`"ja"`) beside its
/// `"usi"`.
fn explored_json(e: &collection::Explored, ja: impl Fn(&collection::NextMove) -> String) -> String {
    let mut v = serde_json::to_value(e).unwrap_or_default();
    if let Some(moves) = v.get_mut("moves").and_then(|m| m.as_array_mut()) {
        for (m, next) in moves.iter_mut().zip(&e.moves) {
            if let Some(m) = m.as_object_mut() {
                m.insert("ja".to_string(), ja(next).into());
            }
        }
    }
    json_line(&v)
}

pub fn games(a: GamesArgs) -> ExitCode {
    let idx = match open(a.index, "games") {
        Ok(i) => i,
        Err(c) => return c,
    };
    if a.duplicates {
        return duplicates(&idx, a.json);
    }
    let filter = match filter(a.filter) {
        Ok(f) => f,
        Err(e) => return fail(2, "games", &e),
    };
    let me = filter.me_who();
    let mut s = Stream::new();
    let r = idx.games_each(&filter, &mut |g| {
        if a.json {
            let (me_color, me_result) = me_fields(me.as_ref(), &g.brief());
            s.push_json(&GameJson {
                path: &g.path,
                record: g.record,
                result: g.result,
                sente: g.sente.as_deref().unwrap_or(""),
                gote: g.gote.as_deref().unwrap_or(""),
                date: g.date.as_deref(),
                event: g.event.as_deref(),
                moves: g.moves,
                handicap: g.handicap.as_deref(),
                tags: &g.tags,
                me_color,
                me_result,
            })
        } else {
            s.push_human(&g.brief(), None, &[])
        }
    });
    s.end(r, a.json, "games")
}

/// A copy as `games --duplicates --json` prints it.
#[derive(Serialize)]
struct DuplicateJson<'a> {
    path: &'a str,
    record: u32,
    same_as: PlaceJson<'a>,
}

#[derive(Serialize)]
struct PlaceJson<'a> {
    path: &'a str,
    record: u32,
}

/// `games --duplicates`: every copy not counted, and the copy counted in its place.
fn duplicates(idx: &Index, json: bool) -> ExitCode {
    let list = match idx.duplicates() {
        Ok(l) => l,
        Err(e) => return fail(1, "games", &e),
    };
    let mut s = Stream::new();
    let place = |t: &mut Vec<u8>, path: &str, record: u32| {
        shell_word(t, path);
        if record > 1 {
            t.extend_from_slice(b" --record ");
            number(t, record);
        }
    };
    let mut r = Ok(());
    for d in &list {
        r = if json {
            s.push_json(&DuplicateJson {
                path: &d.path,
                record: d.record,
                same_as: PlaceJson {
                    path: &d.same_as_path,
                    record: d.same_as_record,
                },
            })
        } else {
            place(&mut s.text, &d.path, d.record);
            s.text.extend_from_slice(b"\n  same as ");
            place(&mut s.text, &d.same_as_path, d.same_as_record);
            s.text.push(b'\n');
            s.written()
        };
        if r.is_err() {
            break;
        }
    }
    s.end_counting(r, (!json).then_some("duplicate(s), not counted"), "games")
}
