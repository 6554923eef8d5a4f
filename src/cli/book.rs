//! `kifview book ...`: opening books from the command line (`convert`, `merge`, `show`,
//! `check`); the formats and lookups are `kifview::book`'s.

use super::collection::{PositionArgs, target};
use super::{Out, print_messages};
use clap::{Args, Subcommand};
use kifview::book::{self, Book, BookMove, Entry, Format, Lookup};
use kifview::core::notation::japanese::kif_move;
use kifview::core::rules::Position;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book from record files or the index's games: every position of their main
    /// lines, each move with the games that played it there and the evaluations their
    /// analysis comments hold.
    #[command(
        after_help = "Examples:\n  kifview book build ~/kifu -o mine.db --plies 1-30\n  kifview book build --index fg.idx --player 藤井 --side sente -o fujii-sente.db\n  kifview book build --from 2020 --min-games 3 -o recent.db"
    )]
    // Boxed: its filters (`FilterArgs`) make it far larger than the other variants.
    Build(Box<super::book_build::BuildArgs>),
    /// Convert a book to another format, every stored position (not only those reachable
    /// from the start); what the target cannot hold is counted on standard error.
    #[command(
        after_help = "Formats: yaneuraou (.db, YaneuraOu's text), ybb (.ybb, YaneuraOu's binary), apery (.bin), sbk (.sbk, ShogiGUI).\n\nExamples:\n  kifview book convert standard_book.db -o book.bin\n  kifview book convert book.bin -o user_book1.db\n  kifview book convert big.db -o big.ybb --force"
    )]
    Convert(ConvertArgs),
    /// Merge books into one: counts added, the deeper evaluation kept, notes joined.
    #[command(
        after_help = "Examples:\n  kifview book merge mine.db theirs.db -o merged.db\n  kifview book merge a.db b.sbk -o both.ybb"
    )]
    Merge(MergeArgs),
    /// The book's moves for a position (text, or JSON with --json).
    #[command(
        after_help = "JSON: {\"moves\":[{\"usi\":\"7g7f\",\"value\":30,\"depth\":20,\"count\":12,\"comment\":null}, ...]} (value null when the book has none).\n\nExamples:\n  kifview book show user_book1.db --position startpos\n  kifview book show book.bin --position \"startpos moves 7g7f\" --json\n  kifview book show user_book1.db --sfen \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1\" --flipped"
    )]
    Show(ShowArgs),
    /// Check a book: lines that cannot be read, illegal moves, positions that cannot arise,
    /// duplicates, an unsorted file. Exit 1 with the count when any.
    #[command(
        after_help = "Exit status: 0 nothing found, 1 problems (their count on standard error) or an unreadable book, 2 bad usage.\n\nExamples:\n  kifview book check user_book1.db\n  kifview book check book.ybb"
    )]
    Check(CheckArgs),
}

/// The book a command writes.
#[derive(Args, Debug)]
pub struct OutArgs {
    /// The book to write (its format from the extension unless --to).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// yaneuraou, ybb, apery or sbk.
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub to: Option<Format>,
    /// Replace OUT when it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    pub input: PathBuf,
    #[command(flatten)]
    pub out: OutArgs,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The books to merge, in order (the first's order of moves is kept).
    #[arg(required = true, num_args = 2..)]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub out: OutArgs,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    pub book: PathBuf,
    #[command(flatten)]
    pub at: PositionArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// When the position is not in the book, look up the same position seen from the other
    /// side (YaneuraOu's FlippedBook) and turn its moves round.
    #[arg(long)]
    pub flipped: bool,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    pub book: PathBuf,
}

fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| format!("{s}: expected yaneuraou, ybb, apery or sbk"))
}

pub fn run(a: BookArgs) -> ExitCode {
    match a.command {
        BookCommand::Convert(a) => convert(a),
        BookCommand::Merge(a) => merge(a),
        BookCommand::Show(a) => show(a),
        BookCommand::Check(a) => check(a),
        BookCommand::Build(a) => super::book_build::run(*a),
    }
}

fn fail(who: &str, code: u8, e: impl std::fmt::Display) -> ExitCode {
    print_messages(&[format!("kifview book {who}: {e}")]);
    ExitCode::from(code)
}

/// The output format: --to, else OUT's extension.
fn out_format(who: &str, o: &OutArgs) -> Result<Format, ExitCode> {
    let out = &o.output;
    o.to.or_else(|| Format::from_path(out)).ok_or_else(|| {
        fail(
            who,
            2,
            format!(
                "{}: no book format for this name: use --to, or .db, .ybb, .bin or .sbk",
                out.display()
            ),
        )
    })
}

/// Opens a book, naming what its reader skipped.
fn open(who: &str, path: &Path) -> Result<book::Opened, ExitCode> {
    let opened = book::open(path).map_err(|e| fail(who, 1, e))?;
    let lines: Vec<String> = opened
        .warnings
        .iter()
        .map(|w| format!("kifview book {who}: {}: {w}", path.display()))
        .chain(
            opened
                .note
                .iter()
                .map(|n| format!("kifview book {who}: {n}")),
        )
        .collect();
    print_messages(&lines);
    Ok(opened)
}

/// Writes `book` as a new file (replacing one only with --force) and names the losses.
fn write_out(who: &str, book: &dyn Lookup, o: &OutArgs) -> Result<(), ExitCode> {
    let format = out_format(who, o)?;
    let out = &o.output;
    let losses = book::save_new(book, out, format, o.force).map_err(|e| save_failed(who, e))?;
    name_losses(who, o, format, &losses);
    Ok(())
}

fn save_failed(who: &str, e: book::BookError) -> ExitCode {
    match e {
        book::BookError::Save(kifview::store::SaveError::Exists { .. }) => {
            fail(who, 1, format!("{e} (--force replaces it)"))
        }
        e => fail(who, 1, e),
    }
}

/// Names on stderr what the output's format could not hold.
fn name_losses(who: &str, o: &OutArgs, format: Format, losses: &book::Losses) {
    let out = &o.output;
    if !losses.is_empty() {
        let items: Vec<String> = losses
            .items
            .iter()
            .map(|(what, n)| format!("{n} {what}"))
            .collect();
        print_messages(&[format!(
            "kifview book {who}: {}: the {} format cannot hold: {}",
            out.display(),
            format.name(),
            items.join(", ")
        )]);
    }
}

fn name_unreached(who: &str, path: &Path, book: &dyn Lookup) {
    let n = book.unreached();
    if n > 0 {
        print_messages(&[format!(
            "kifview book {who}: {}: {n} positions not reached from the start positions by the book's moves: not converted (an Apery key is a hash, not a position)",
            path.display()
        )]);
    }
}

/// Converts without holding the book: a text input is read a position at a time, another
/// looked up where it is, and a text or `.ybb` output written through an external sort
/// spilling beside it (`book::save_new_streamed`); Ctrl-C stops it with nothing written and
/// no temporary file left.
fn convert(a: ConvertArgs) -> ExitCode {
    let stop = kifview::analyze::progress::catch_interrupt();
    let run = || -> Result<(), ExitCode> {
        let format = out_format("convert", &a.out)?;
        let input = &a.input;
        // Opened once and peeked at (the input may be a pipe).
        let file = std::fs::File::open(input)
            .map_err(|e| fail("convert", 1, format!("{}: {e}", input.display())))?;
        let mut r = std::io::BufReader::with_capacity(1 << 20, file);
        let head = std::io::BufRead::fill_buf(&mut r)
            .map_err(|e| fail("convert", 1, format!("{}: {e}", input.display())))?;
        let text = book::detect(input, &head[..head.len().min(64)]) == Some(Format::YaneuraOu);
        let mut warnings = Vec::new();
        let saved = if text {
            book::save_new_streamed(
                &mut |f| {
                    warnings = book::yaneuraou::for_each_position(input, &mut r, f)?;
                    Ok(())
                },
                &a.out.output,
                format,
                a.out.force,
                Some(stop),
            )
        } else {
            drop(r);
            let opened = open("convert", input)?;
            let saved = book::save_new_streamed(
                &mut |f| opened.book.visit(f).map_err(|e| e.at(input)),
                &a.out.output,
                format,
                a.out.force,
                Some(stop),
            );
            name_unreached("convert", input, opened.book.as_ref());
            saved
        };
        print_messages(
            &(warnings.iter())
                .map(|w| format!("kifview book convert: {}: {w}", input.display()))
                .collect::<Vec<_>>(),
        );
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            print_messages(&[format!(
                "kifview book convert: {}",
                book::extsort::INTERRUPTED
            )]);
            return Err(ExitCode::from(
                kifview::analyze::progress::interrupted_exit_code(),
            ));
        }
        let losses = saved.map_err(|e| save_failed("convert", e))?;
        name_losses("convert", &a.out, format, &losses);
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(c) => c,
    }
}

/// Merges `entry` into `into`: counts added, the value and depth of the deeper search kept
/// (the first book's on a tie), notes joined (a note already there not repeated), the lower
/// ply. Returns the moves added.
pub fn merge_entry(into: &mut Entry, entry: Entry) -> u64 {
    into.ply = into.ply.min(entry.ply);
    join(&mut into.comment, entry.comment);
    let mut added = 0;
    for m in entry.moves {
        match into.moves.iter_mut().find(|x| x.usi == m.usi) {
            None => {
                into.moves.push(m);
                added += 1;
            }
            Some(x) => {
                x.count = x.count.saturating_add(m.count);
                if m.depth > x.depth || x.value.is_none() && m.value.is_some() && m.depth == x.depth
                {
                    x.value = m.value;
                    x.depth = m.depth;
                }
                if x.ponder.is_none() {
                    x.ponder = m.ponder;
                }
                join(&mut x.comment, m.comment);
            }
        }
    }
    added
}

fn join(into: &mut Option<String>, more: Option<String>) {
    match (into.as_mut(), more) {
        (_, None) => {}
        (None, Some(m)) => *into = Some(m),
        (Some(a), Some(m)) => {
            if !a.split('\n').any(|l| l == m) && *a != m {
                a.push('\n');
                a.push_str(&m);
            }
        }
    }
}

fn merge(a: MergeArgs) -> ExitCode {
    let run = || -> Result<(), ExitCode> {
        out_format("merge", &a.out)?;
        let mut all = Book::new();
        for path in &a.inputs {
            let opened = open("merge", path)?;
            let (mut positions, mut moves) = (0u64, 0u64);
            opened
                .book
                .visit(&mut |k, e| {
                    match all.get_mut(k) {
                        Some(into) => moves += merge_entry(into, e),
                        None => {
                            positions += 1;
                            moves += e.moves.len() as u64;
                            all.insert(k.to_string(), e);
                        }
                    }
                    Ok(())
                })
                .map_err(|e| fail("merge", 1, e.at(path)))?;
            name_unreached("merge", path, opened.book.as_ref());
            print_messages(&[format!(
                "kifview book merge: {}: {positions} positions and {moves} moves added",
                path.display()
            )]);
        }
        write_out("merge", &all, &a.out)
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(c) => c,
    }
}

/// The moves `book` holds for `pos`, turned round from the mirrored position when `flipped`
/// and the position itself is not there.
pub fn moves_at(book: &dyn Lookup, pos: &Position, flipped: bool) -> book::Result<Vec<BookMove>> {
    let moves = book.moves(&book::key_of(pos))?;
    if !moves.is_empty() || !flipped {
        return Ok(moves);
    }
    let mut moves = book.moves(&book::flipped_key(pos))?;
    for m in &mut moves {
        m.usi = book::flip_move(m.usi);
        m.ponder = m.ponder.map(book::flip_move);
    }
    Ok(moves)
}

fn show(a: ShowArgs) -> ExitCode {
    let pos = match target(&a.at) {
        Ok(p) => p,
        Err((code, e)) => return fail("show", code, e),
    };
    let opened = match open("show", &a.book) {
        Ok(o) => o,
        Err(c) => return c,
    };
    let moves = match moves_at(opened.book.as_ref(), &pos, a.flipped) {
        Ok(m) => m,
        Err(e) => return fail("show", 1, e.at(&a.book)),
    };
    let mut out = Out::new();
    if a.json {
        // The keys in the documented order (serde_json's map would sort them).
        let list: Vec<String> = moves
            .iter()
            .map(|m| {
                format!(
                    "{{\"usi\":{},\"value\":{},\"depth\":{},\"count\":{},\"comment\":{}}}",
                    serde_json::Value::from(m.usi.usi()),
                    m.value.map_or("null".into(), |v| v.to_string()),
                    m.depth,
                    m.count,
                    serde_json::to_string(&m.comment).expect("a string"),
                )
            })
            .collect();
        let text = format!("{{\"moves\":[{}]}}", list.join(","));
        out.write(text.as_bytes());
        out.write(b"\n");
    } else if moves.is_empty() {
        print_messages(&["kifview book show: the position is not in the book".into()]);
    } else {
        for m in &moves {
            out.write(show_line(&pos, m).as_bytes());
        }
    }
    match out.finish("kifview book show") {
        Ok(()) => ExitCode::SUCCESS,
        Err(c) => c,
    }
}

/// `7g7f  ▲７六歩(77)  value 30  depth 20  count 12  note`, the note on one line.
fn show_line(pos: &Position, m: &BookMove) -> String {
    let label = match pos.move_data(m.usi) {
        Some(md) => format!("{}{}", pos.side_to_move().mark(), kif_move(&md, None)),
        None => "(illegal here)".into(),
    };
    let value = m.value.map_or("-".to_string(), |v| v.to_string());
    let mut line = format!(
        "{:<6} {label}  value {value}  depth {}  count {}",
        m.usi.usi(),
        m.depth,
        m.count
    );
    if let Some(c) = &m.comment {
        line.push_str("  ");
        line.push_str(&kifview::core::text::sanitize(&c.replace('\n', " / ")));
    }
    line.push('\n');
    line
}

fn check(a: CheckArgs) -> ExitCode {
    let path = &a.book;
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return fail("check", 1, format!("{}: {e}", path.display())),
    };
    let Some(format) = book::detect(path, &bytes[..bytes.len().min(64)]) else {
        return fail(
            "check",
            1,
            format!("{}: not a book kifview knows", path.display()),
        );
    };
    let mut problems: Vec<String> = Vec::new();
    let name = path.display().to_string();
    // Where each position's `sfen` line is, for a text book.
    let mut line_of = std::collections::HashMap::new();
    let read = match format {
        Format::YaneuraOu => match book::yaneuraou::read_with_layout(&bytes) {
            Ok((read, layout)) => {
                if let Some(n) = layout.unsorted_at {
                    problems.push(format!(
                        "{name}:{n}: not sorted (this position line comes before the one above it in byte order): YaneuraOu's BookOnTheFly cannot find every position (kifview book convert writes it sorted)"
                    ));
                }
                for n in &layout.non_canonical {
                    problems.push(format!(
                        "{name}:{n}: the SFEN is not written as YaneuraOu writes it (hands in another order, extra spaces): BookOnTheFly cannot find it"
                    ));
                }
                for (n, text) in bytes.split(|&b| b == b'\n').enumerate() {
                    if let Some(rest) = text.strip_prefix(b"sfen ")
                        && let Ok(k) = book::key(&String::from_utf8_lossy(rest))
                    {
                        line_of.entry(k).or_insert(n as u64 + 1);
                    }
                }
                read
            }
            Err(e) => return fail("check", 1, e.at(path)),
        },
        Format::Ybb => {
            match book::ybb::Ybb::new(book::Data::Owned(bytes.clone())) {
                Ok(y) => {
                    if let Some(n) = y.unsorted_at() {
                        problems.push(format!(
                            "{name}: position record {n}: not after the one before it in PackedSfen order: a binary search cannot find every position"
                        ));
                    }
                }
                Err(e) => return fail("check", 1, e.at(path)),
            }
            match book::decode(&bytes, format) {
                Ok(r) => r,
                Err(e) => return fail("check", 1, e.at(path)),
            }
        }
        Format::Apery => {
            // Every entry's order, in one pass (opening a book checks a sample only).
            if let Some(i) = book::apery::Apery::unsorted_at(&bytes) {
                problems.push(format!(
                    "{name}: entry {i} (byte {}): its key is below the key of entry {} before it: not sorted by key, so Apery's lookup (a binary search) and kifview's cannot find every position (kifview book convert writes it sorted)",
                    i * 16,
                    i - 1
                ));
            }
            match book::decode(&bytes, format) {
                Ok(r) => r,
                Err(e) => return fail("check", 1, e.at(path)),
            }
        }
        Format::Sbk => match book::decode(&bytes, format) {
            Ok(r) => r,
            Err(e) => return fail("check", 1, e.at(path)),
        },
    };
    for w in &read.warnings {
        problems.push(match w.line {
            0 => format!("{name}: {}", w.message),
            n => format!("{name}:{n}: {}", w.message),
        });
    }
    for (key, entry) in read.book.iter() {
        let at = line_of.get(key).map_or(format!("{name}: sfen {key}"), |n| {
            format!("{name}:{n}: sfen {key}")
        });
        let Ok(pos) = Position::from_sfen(key) else {
            continue;
        };
        if let Err(reasons) = kifview::core::rules::setup::validate(&pos) {
            problems.push(format!(
                "{at}: a position that cannot arise: {}",
                reasons.join("; ")
            ));
            continue;
        }
        for m in &entry.moves {
            if let Err(why) = pos.check(m.usi) {
                problems.push(format!(
                    "{at}: {} is illegal here: {}",
                    m.usi,
                    why.describe()
                ));
            } else if let Some(p) = m.ponder {
                let mut next = pos.clone();
                let _ = next.play(m.usi);
                if let Err(why) = next.check(p) {
                    problems.push(format!(
                        "{at}: {}'s reply {p} is illegal after it: {}",
                        m.usi,
                        why.describe()
                    ));
                }
            }
        }
    }
    let mut out = Out::new();
    for p in &problems {
        out.write(kifview::core::text::sanitize(p).as_bytes());
        out.write(b"\n");
    }
    if let Err(c) = out.finish("kifview book check") {
        return c;
    }
    let moves: usize = read.book.move_count();
    if problems.is_empty() {
        print_messages(&[format!(
            "kifview book check: {name}: {} positions, {moves} moves: no problem found",
            read.book.len()
        )]);
        ExitCode::SUCCESS
    } else {
        print_messages(&[format!(
            "kifview book check: {name}: {} problems ({} positions, {moves} moves)",
            problems.len(),
            read.book.len()
        )]);
        ExitCode::from(1)
    }
}
