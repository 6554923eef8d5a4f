//! `kifview train`: the sources of problems in the training history, and its statistics
//! ([`kifview::training::history`]).

use super::collection::{FilterArgs, fail, filter, open as open_index};
use clap::{Args, Subcommand};
use kifview::app::train::TrainOptions;
use kifview::core::text::sanitize;
use kifview::training::ProblemSet;
use kifview::training::drill::{Drill, NextMove};
use kifview::training::history::{self, History, Stats, TagFamily, TagStats};
use kifview::training::tsume::{self, Tsume};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TrainArgs {
    #[command(subcommand)]
    pub command: Option<TrainCommand>,
    /// What to solve now, added to the history: problem sets (ShogiHome's next-move format,
    /// whole or a copy holding some of its problems), tsume records (a file, or a folder of
    /// them walked with its subfolders); none: what is due today across the sources used
    /// before, then new problems.
    #[arg(value_name = "SOURCE", conflicts_with = "index")]
    pub sources: Vec<PathBuf>,
    /// The tsume among the games of this index (`kifview index`) that pass the filters.
    #[arg(long, value_name = "IDX")]
    pub index: Option<PathBuf>,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// The engine that checks moves off the answer (a tsume's other mates with its mate
    /// search, what a wrong move allows): a configured [[engines]] name, a command on PATH
    /// or in /usr/games, or a path (default: the config's first, else one found installed).
    #[arg(long, value_name = "NAME|PATH")]
    pub engine: Option<String>,
    /// Tsume: how long the mate engine looks for a mate after each defence of a check the
    /// record does not play, in milliseconds (default: the config's [analysis]
    /// tsume_mate_time_ms, 3000).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(10..=3_600_000))]
    pub mate_time: Option<u64>,
    /// As of this time instead of now: what is due, and when the attempts are written
    /// (2026-12-08, 2026-12-08T09:00, RFC 3339).
    #[arg(long, value_name = "DATETIME")]
    pub now: Option<String>,
    /// With no source: at most this many problems never answered, after the due ones.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub new: usize,
    /// Guess-the-move (棋譜並べ): replay this record with the next move hidden (--side:
    /// whose moves; both by default), each guess scored against the record's move and its
    /// analysis. Repeat for more records.
    #[arg(long, value_name = "RECORD")]
    pub guess: Vec<PathBuf>,
    /// Drill a repertoire for one side (--side sente|gote): an opening book (any format
    /// kifview reads) or a record whose variations are the lines.
    #[arg(long, value_name = "BOOK|RECORD")]
    pub repertoire: Vec<PathBuf>,
    /// Whose moves: sente, gote or both (--guess; --repertoire takes sente or gote).
    #[arg(long, value_enum, value_name = "SIDE")]
    pub side: Option<super::train_drills::Side>,
    /// Which record of a file of several (--guess, --repertoire), from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub record: usize,
    /// --repertoire: how many lines from the start (after the positions due again).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub lines: usize,
    /// --repertoire: the seed of the opponent's replies (the same seed, the same replies).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

#[derive(Subcommand, Debug)]
pub enum TrainCommand {
    /// Attempts, successes, due and new problems, in all and per source.
    #[command(
        after_help = "The history is $KIFVIEW_DATA_DIR/training.sqlite, else kifview/training.sqlite in the\nplatform data directory ($XDG_DATA_HOME, ~/.local/share).\n\nExamples:\n  kifview train stats\n  kifview train stats --json --now 2026-12-08"
    )]
    Stats(StatsArgs),
    /// Add problem sets (ShogiHome's next-move format) as sources: their problems become new.
    #[command(after_help = "Examples:\n  kifview train add mistakes.json")]
    Add(SourcesArgs),
    /// Remove sources: their problems are no longer due or new (their attempts are kept).
    #[command(after_help = "Examples:\n  kifview train remove mistakes.json")]
    Remove(SourcesArgs),
    /// Suspend a set's problems (never due), or bring them back with --resume.
    #[command(
        after_help = "Examples:\n  kifview train suspend mistakes.json 3 7\n  kifview train suspend mistakes.json 3 --resume"
    )]
    Suspend(SuspendArgs),
}

#[derive(Args, Debug)]
pub struct SuspendArgs {
    #[arg(value_name = "SET.json")]
    pub set: PathBuf,
    /// The problems, numbered from 1 in the set's order.
    #[arg(required = true, value_name = "N")]
    pub problems: Vec<usize>,
    /// Bring them back instead.
    #[arg(long)]
    pub resume: bool,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// One JSON object: {"attempts","correct","due","new","sources":[{"source","attempts","correct","due"}]}.
    #[arg(long)]
    pub json: bool,
    /// As of this time instead of now (2026-12-08, 2026-12-08T09:00, RFC 3339).
    #[arg(long, value_name = "DATETIME")]
    pub now: Option<String>,
}

#[derive(Args, Debug)]
pub struct SourcesArgs {
    #[arg(required = true, value_name = "SET.json")]
    pub sources: Vec<PathBuf>,
    /// As of this time instead of now.
    #[arg(long, value_name = "DATETIME")]
    pub now: Option<String>,
}

pub fn run(a: TrainArgs) -> ExitCode {
    match a.command {
        Some(TrainCommand::Stats(s)) => stats(s),
        Some(TrainCommand::Add(s)) => add(s),
        Some(TrainCommand::Remove(s)) => remove(s),
        Some(TrainCommand::Suspend(s)) => suspend(s),
        None => solve(a),
    }
}

/// `kifview train [SOURCE...]`: the solve mode in the viewer.
fn solve(mut a: TrainArgs) -> ExitCode {
    const WHO: &str = "train";
    let t = match now(a.now.as_deref(), WHO) {
        Ok(t) => t,
        Err(c) => return c,
    };
    let path = match history::default_path() {
        Ok(p) => p,
        Err(e) => return fail(1, WHO, &e),
    };
    let mut h = match open(WHO) {
        Ok(h) => h,
        Err(c) => return c,
    };
    // `--index IDX [filters]`: the tsume among its games.
    let from_index = match a.index.is_some().then(|| indexed(&mut a)) {
        Some(Ok(found)) => Some(found),
        Some(Err(c)) => return c,
        None => None,
    };
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let drills = super::train_drills::Wanted {
        guess: &a.guess,
        repertoire: &a.repertoire,
        side: a.side,
        record: a.record,
        lines: a.lines,
        seed,
    };
    let others = a.guess.is_empty() && a.repertoire.is_empty();
    let session = if let Some(found) = from_index {
        tsume_session(&mut h, found, t)
    } else if a.sources.is_empty() && others {
        // `--config` aside, a filter without an index is a mistake.
        let config = a.filter.config.take();
        let filtered = a.filter != FilterArgs::default();
        a.filter.config = config;
        if filtered {
            return fail(
                2,
                WHO,
                "the game filters (--player, --tag, ...) choose tsume of an index: give --index IDX",
            );
        }
        due_session(&h, t, a.new, seed)
    } else {
        sources_session(&mut h, &a.sources, &drills, t)
    };
    let (drills, summary) = match session {
        Ok(s) => s,
        Err(e) => return fail(1, WHO, &e),
    };
    if drills.is_empty() {
        println!("nothing to train now ({summary}): kifview train SET.json adds a problem set");
        return ExitCode::SUCCESS;
    }
    drop(h);
    if !super::has_terminal() {
        return fail(
            2,
            WHO,
            "the solve mode needs a terminal (standard output is not one); kifview train stats prints the history",
        );
    }
    let engine = a
        .engine
        .or_else(|| tsume_engine(&drills, a.filter.config.as_deref()));
    let opts = kifview::app::LaunchOptions {
        config: a.filter.config,
        engine,
        train: Some(TrainOptions {
            drills,
            history: path,
            now: a.now.is_some().then_some(t),
            summary: Some(summary),
            mate_time: a.mate_time.map(std::time::Duration::from_millis),
        }),
        ..Default::default()
    };
    match kifview::tui::run(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(1, WHO, &format!("{e:#}")),
    }
}

/// The engine for a session holding tsume when `--engine` is not given: the first configured
/// or installed one with a USI mate search (gpsusi, YaneuraOu), as `kifview mate` takes,
/// named so that the viewer finds it (a configured one by its name, an installed one by its
/// path); None (the viewer's usual choice) when there is none, or no tsume.
fn tsume_engine(drills: &[Box<dyn Drill>], config: Option<&Path>) -> Option<String> {
    if !drills.iter().any(|d| d.id().kind == "tsume") {
        return None;
    }
    let configured = super::analyze::configured_engines(config).ok()?;
    let spec = super::analyze::mate_engine(None, &configured).ok()?;
    if kifview::analyze::mate::known_unsupported(&spec.display_name()).is_some() {
        return None;
    }
    Some(if configured.contains(&spec) {
        spec.display_name()
    } else {
        spec.command.display().to_string()
    })
}

/// The problems of the sources named, each added to the history; the summary counts what
/// of them is due and new.
fn sources_session(
    h: &mut History,
    sources: &[PathBuf],
    others: &super::train_drills::Wanted,
    t: chrono::DateTime<chrono::Utc>,
) -> Result<(Vec<Box<dyn Drill>>, String), String> {
    let mut drills: Vec<Box<dyn Drill>> = Vec::new();
    let mut names = Vec::new();
    for p in sources {
        if !p.is_dir() && is_set_file(p) {
            let set = read_set(p)?;
            let name = history::source_name(p);
            let keys: Vec<String> = set.problems.iter().map(|p| p.key()).collect();
            h.add_source(&name, "next-move", &keys, t)?;
            h.set_tags(&name, &kifview::training::tags::for_set(&set))?;
            for d in NextMove::from_set(&name, &set)? {
                drills.push(Box::new(d));
            }
            names.push(name);
            continue;
        }
        let (found, skipped) = tsume::load(p);
        if found.is_empty() {
            let why = skipped.first().map_or(String::new(), |w| format!(": {w}"));
            return Err(format!(
                "{}: no tsume found (a tsume is a record whose side to move has no king, or whose header says 詰将棋){why}",
                p.display()
            ));
        }
        say_left_out(p, &skipped);
        add_tsume(h, &found, t, &mut names)?;
        drills.extend(found.into_iter().map(|d| Box::new(d) as Box<dyn Drill>));
    }
    let (more, more_names) = super::train_drills::session(h, others, t)?;
    drills.extend(more);
    names.extend(more_names);
    summary(h, drills, &names, t)
}
/// Is `p` a next-move set (ShogiHome's format) rather than a record? A `.json` file that
/// says it is one (a JKF record is JSON too).
fn is_set_file(p: &Path) -> bool {
    let json = p
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    json && kifview::load::read_regular(p)
        .map(|b| String::from_utf8_lossy(&b).contains("shogihome-next-move"))
        .unwrap_or(true)
}

/// Says how many records of a tsume source were left out (not tsume, unreadable), before the
/// solve mode takes the screen (it stays on the terminal after it).
fn say_left_out(p: &Path, skipped: &[String]) {
    if let Some(first) = skipped.first() {
        eprintln!(
            "kifview train: {}: {} record(s) or file(s) left out, e.g. {}",
            sanitize(&p.display().to_string()),
            skipped.len(),
            sanitize(first)
        );
    }
}

/// Each tsume's file as a source of the history (kind `tsume`), its problems' length tags.
fn add_tsume(
    h: &mut History,
    found: &[Tsume],
    t: chrono::DateTime<chrono::Utc>,
    names: &mut Vec<String>,
) -> Result<(), String> {
    // Each file (a source) with its problems' keys and tags, in the order found.
    type Tagged = Vec<(String, Vec<history::Tag>)>;
    let mut by_file: Vec<(String, Tagged)> = Vec::new();
    for d in found {
        let id = d.id();
        let entry = (id.key, d.tags());
        match by_file.iter_mut().find(|(s, _)| *s == id.source) {
            Some((_, v)) => v.push(entry),
            None => by_file.push((id.source, vec![entry])),
        }
    }
    for (source, tags) in by_file {
        let keys: Vec<String> = tags.iter().map(|(k, _)| k.clone()).collect();
        h.add_source(&source, "tsume", &keys, t)?;
        h.set_tags(&source, &tags)?;
        names.push(source);
    }
    Ok(())
}

/// The tsume among the games `--index` and its filters name (the others left out).
fn indexed(a: &mut TrainArgs) -> Result<Vec<Tsume>, ExitCode> {
    const WHO: &str = "train";
    let idx = open_index(a.index.take(), WHO)?;
    let config = a.filter.config.clone();
    let f = filter(std::mem::replace(
        &mut a.filter,
        FilterArgs {
            config,
            ..FilterArgs::default()
        },
    ))
    .map_err(|e| fail(2, WHO, &e))?;
    let mut games = Vec::new();
    idx.games_each(&f, &mut |g| {
        games.push((PathBuf::from(&g.path), g.record));
        Ok(())
    })
    .map_err(|e| fail(1, WHO, &e))?;
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    for (path, record) in &games {
        match tsume::load_record(path, *record as usize) {
            Ok(d) => found.push(d),
            Err(e) => skipped.push(e),
        }
    }
    if found.is_empty() {
        return Err(fail(
            1,
            WHO,
            &format!(
                "none of the {} game(s) the index and filters give is a tsume (a record whose side to move has no king, or whose header says 詰将棋)",
                games.len()
            ),
        ));
    }
    if !skipped.is_empty() {
        eprintln!(
            "kifview train: {} of the {} game(s) the index gives are not tsume; left out",
            skipped.len(),
            games.len()
        );
    }
    Ok(found)
}

/// The tsume an index gave, each file added to the history.
fn tsume_session(
    h: &mut History,
    found: Vec<Tsume>,
    t: chrono::DateTime<chrono::Utc>,
) -> Result<(Vec<Box<dyn Drill>>, String), String> {
    let mut names = Vec::new();
    add_tsume(h, &found, t, &mut names)?;
    let drills = found
        .into_iter()
        .map(|d| Box::new(d) as Box<dyn Drill>)
        .collect();
    summary(h, drills, &names, t)
}

/// The drills with `due: N, new: M` counted over the sources `names`.
fn summary(
    h: &History,
    drills: Vec<Box<dyn Drill>>,
    names: &[String],
    t: chrono::DateTime<chrono::Utc>,
) -> Result<(Vec<Box<dyn Drill>>, String), String> {
    let s = h.stats(t)?;
    let (due, new) = s
        .sources
        .iter()
        .filter(|x| names.contains(&x.source))
        .fold((0, 0), |(d, n), x| (d + x.due, n + x.new));
    Ok((drills, format!("due: {due}, new: {new}")))
}

/// What is due at `t` across the history's sources, soonest first, then at most `new`
/// problems never answered. A source gone from the disk is said and left out.
fn due_session(
    h: &History,
    t: chrono::DateTime<chrono::Utc>,
    new: usize,
    seed: u64,
) -> Result<(Vec<Box<dyn Drill>>, String), String> {
    let due = h.due(t)?;
    let fresh = h.new_problems(new)?;
    let stats = h.stats(t)?;
    let mut sets: HashMap<String, Option<Loaded>> = HashMap::new();
    let mut drills: Vec<Box<dyn Drill>> = Vec::new();
    // Guess-the-move and repertoire sources: their keys, each source's drills made at once.
    let mut other: Vec<(String, String, Vec<String>)> = Vec::new();
    for (source, key) in due.iter().chain(&fresh) {
        if let Some(o) = other.iter_mut().find(|o| o.0 == *source) {
            o.2.push(key.clone());
            continue;
        }
        if !sets.contains_key(source) {
            let kind = h.kind_of(source)?;
            if let Some(k @ ("guess" | "repertoire")) = kind.as_deref() {
                other.push((source.clone(), k.to_string(), vec![key.clone()]));
                continue;
            }
            let gone = |e: String| {
                eprintln!(
                    "kifview train: {}; left out (kifview train remove {} forgets it)",
                    sanitize(&e),
                    sanitize(source)
                );
            };
            let set = match kind.as_deref() {
                Some("next-move") => read_set(Path::new(source))
                    .map(|s| Loaded::Set(Box::new(s)))
                    .map_err(gone)
                    .ok(),
                Some("tsume") => {
                    let (found, mut skipped) = tsume::load(Path::new(source));
                    if found.is_empty() {
                        gone(
                            skipped
                                .pop()
                                .unwrap_or_else(|| format!("{source}: no tsume")),
                        );
                        None
                    } else {
                        Some(Loaded::Tsume(found))
                    }
                }
                other => {
                    eprintln!(
                        "kifview train: {}: a source of kind {} is not read yet; left out",
                        sanitize(source),
                        sanitize(other.unwrap_or("unknown"))
                    );
                    None
                }
            };
            sets.insert(source.clone(), set);
        }
        match sets.get(source) {
            Some(Some(Loaded::Set(set))) => {
                let of = set.problems.len();
                if let Some((i, p)) = set
                    .problems
                    .iter()
                    .enumerate()
                    .find(|(_, p)| p.key() == *key)
                {
                    drills.push(Box::new(NextMove::new(source, i, of, p.clone())?));
                }
            }
            Some(Some(Loaded::Tsume(found))) => {
                if let Some(d) = found.iter().find(|d| d.id().key == *key) {
                    drills.push(Box::new(d.clone()));
                }
            }
            _ => {}
        }
    }
    for (source, kind, keys) in other {
        match super::train_drills::due(&source, &kind, &keys, seed) {
            Some(Ok(d)) => drills.extend(d),
            Some(Err(e)) => eprintln!(
                "kifview train: {}; left out (kifview train remove {} forgets it)",
                sanitize(&e),
                sanitize(&source)
            ),
            None => {}
        }
    }
    Ok((drills, format!("due: {}, new: {}", stats.due, stats.new)))
}

/// A source of the history, read.
enum Loaded {
    Set(Box<ProblemSet>),
    Tsume(Vec<Tsume>),
}

fn now(given: Option<&str>, who: &str) -> Result<chrono::DateTime<chrono::Utc>, ExitCode> {
    match given {
        None => Ok(chrono::Utc::now()),
        Some(t) => history::parse_now(t).map_err(|e| fail(2, who, &e)),
    }
}

fn open(who: &str) -> Result<History, ExitCode> {
    History::open_default().map_err(|e| fail(1, who, &e))
}

/// A set file (a regular file, within the size limit for records), read and checked.
fn read_set(p: &Path) -> Result<ProblemSet, String> {
    let bytes = kifview::load::read_regular(p)?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", p.display()))?;
    ProblemSet::from_json(&text).map_err(|e| format!("{}: {e}", p.display()))
}

fn add(a: SourcesArgs) -> ExitCode {
    const WHO: &str = "train add";
    let t = match now(a.now.as_deref(), WHO) {
        Ok(t) => t,
        Err(c) => return c,
    };
    let mut h = match open(WHO) {
        Ok(h) => h,
        Err(c) => return c,
    };
    let mut code = ExitCode::SUCCESS;
    for p in &a.sources {
        let set = match read_set(p) {
            Ok(s) => s,
            Err(e) => {
                code = fail(1, WHO, &e);
                continue;
            }
        };
        let keys: Vec<String> = set.problems.iter().map(|p| p.key()).collect();
        let name = history::source_name(p);
        let added = h.add_source(&name, "next-move", &keys, t).and_then(|n| {
            Ok((
                n,
                h.set_tags(&name, &kifview::training::tags::for_set(&set))?,
            ))
        });
        match added.map(|(n, ())| n) {
            Ok(n) => println!(
                "{}: {} problem(s), {n} new to the history",
                sanitize(&p.display().to_string()),
                keys.len()
            ),
            Err(e) => code = fail(1, WHO, &e),
        }
    }
    code
}

fn remove(a: SourcesArgs) -> ExitCode {
    const WHO: &str = "train remove";
    let mut h = match open(WHO) {
        Ok(h) => h,
        Err(c) => return c,
    };
    let mut code = ExitCode::SUCCESS;
    for p in &a.sources {
        let name = history::source_name(p);
        match h.remove_source(&name) {
            Ok(true) => println!("{}: removed (its attempts are kept)", sanitize(&name)),
            Ok(false) => {
                code = fail(
                    1,
                    WHO,
                    &format!("{name}: not a source of the training history"),
                )
            }
            Err(e) => code = fail(1, WHO, &e),
        }
    }
    code
}

fn suspend(a: SuspendArgs) -> ExitCode {
    const WHO: &str = "train suspend";
    let set = match read_set(&a.set) {
        Ok(s) => s,
        Err(e) => return fail(1, WHO, &e),
    };
    let mut h = match open(WHO) {
        Ok(h) => h,
        Err(c) => return c,
    };
    let name = history::source_name(&a.set);
    let mut code = ExitCode::SUCCESS;
    for &n in &a.problems {
        let Some(p) = n.checked_sub(1).and_then(|i| set.problems.get(i)) else {
            code = fail(
                2,
                WHO,
                &format!(
                    "{name}: no problem {n} (the set holds {})",
                    set.problems.len()
                ),
            );
            continue;
        };
        match h.suspend(&name, &p.key(), !a.resume) {
            Ok(true) => println!(
                "{}: problem {n} {}",
                sanitize(&name),
                if a.resume { "back" } else { "suspended" }
            ),
            Ok(false) => {
                code = fail(
                    1,
                    WHO,
                    &format!(
                        "{name}: problem {n} is not in the training history: kifview train add it first"
                    ),
                )
            }
            Err(e) => code = fail(1, WHO, &e),
        }
    }
    code
}

fn stats(a: StatsArgs) -> ExitCode {
    const WHO: &str = "train stats";
    let t = match now(a.now.as_deref(), WHO) {
        Ok(t) => t,
        Err(c) => return c,
    };
    let h = match open(WHO) {
        Ok(h) => h,
        Err(c) => return c,
    };
    let s = match h.stats(t) {
        Ok(s) => s,
        Err(e) => return fail(1, WHO, &e),
    };
    if a.json {
        println!("{}", serde_json::to_string(&s).expect("stats are JSON"));
    } else {
        let today = t.with_timezone(&chrono::Local).date_naive();
        print!("{}", table(&s));
        print!("{}", tag_table(&s.tags));
        print!("\n{}", history::chart(&s.series, today, width()));
    }
    ExitCode::SUCCESS
}

/// The width the chart may take: the terminal's, else `$COLUMNS`, else 80.
fn width() -> usize {
    use std::io::IsTerminal;
    let term = std::io::stdout()
        .is_terminal()
        .then(crossterm::terminal::size)
        .and_then(Result::ok)
        .map(|(w, _)| usize::from(w));
    term.or_else(|| std::env::var("COLUMNS").ok()?.trim().parse().ok())
        .filter(|&w| w > 0)
        .unwrap_or(80)
}

fn rate(correct: u64, attempts: u64) -> String {
    if attempts == 0 {
        "-".into()
    } else {
        format!("{:.0}%", 100.0 * correct as f64 / attempts as f64)
    }
}

fn avg(ms: Option<u64>) -> String {
    ms.map_or_else(|| "-".into(), |ms| format!("{:.1} s", ms as f64 / 1000.0))
}

/// One row: attempts, correct, rate, average time, due, new, then the name.
fn row(attempts: u64, correct: u64, avg_ms: Option<u64>, due: u64, new: u64, name: &str) -> String {
    format!(
        "{:>8} {:>8} {:>5} {:>9} {:>5} {:>5}  {}\n",
        attempts,
        correct,
        rate(correct, attempts),
        avg(avg_ms),
        due,
        new,
        sanitize(name)
    )
}

fn header(what: &str) -> String {
    format!(
        "{:>8} {:>8} {:>5} {:>9} {:>5} {:>5}  {what}\n",
        "attempts", "correct", "rate", "avg time", "due", "new"
    )
}

/// The statistics per source, then in all, then `due: N, new: M`.
fn table(s: &Stats) -> String {
    let mut out = header("source");
    for x in &s.sources {
        out.push_str(&row(
            x.attempts,
            x.correct,
            x.avg_time_ms,
            x.due,
            x.new,
            &x.source,
        ));
    }
    out.push_str(&row(
        s.attempts,
        s.correct,
        s.avg_time_ms,
        s.due,
        s.new,
        "all",
    ));
    out.push_str(&format!("due: {}, new: {}\n", s.due, s.new));
    out
}

/// The statistics per tag, under a heading per family (nothing when no problem has a tag).
fn tag_table(tags: &[TagStats]) -> String {
    let mut out = String::new();
    let mut family = None;
    let phases = format!("phase ({})", kifview::training::tags::phases_text());
    for t in tags {
        if family != Some(t.family) {
            family = Some(t.family);
            let what = match t.family {
                TagFamily::Length => "tsume length",
                TagFamily::Strategy => "strategy (戦型)",
                TagFamily::Phase => &phases,
            };
            out.push('\n');
            out.push_str(&header(what));
        }
        out.push_str(&row(
            t.attempts,
            t.correct,
            t.avg_time_ms,
            t.due,
            t.new,
            &t.tag,
        ));
    }
    out
}
