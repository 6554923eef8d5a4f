//! `kifview train`: the sources of problems in the training history, and its statistics
//! ([`kifview::training::history`]).

use super::collection::fail;
use clap::{Args, Subcommand};
use kifview::app::train::TrainOptions;
use kifview::core::text::sanitize;
use kifview::training::ProblemSet;
use kifview::training::drill::{Drill, NextMove};
use kifview::training::history::{self, History, Stats, TagFamily, TagStats};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TrainArgs {
    #[command(subcommand)]
    pub command: Option<TrainCommand>,
    /// Problem sets (ShogiHome's next-move format, whole or a copy holding some of its
    /// problems) to solve now, added to the history; none: what is due today across the
    /// sources used before, then new problems.
    #[arg(value_name = "SOURCE")]
    pub sources: Vec<PathBuf>,
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
    /// Config file (default: ~/.config/kifview/config.toml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
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
fn solve(a: TrainArgs) -> ExitCode {
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
    let session = if a.sources.is_empty() && a.guess.is_empty() && a.repertoire.is_empty() {
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
    let opts = kifview::app::LaunchOptions {
        config: a.config,
        train: Some(TrainOptions {
            drills,
            history: path,
            now: a.now.is_some().then_some(t),
            summary: Some(summary),
        }),
        ..Default::default()
    };
    match kifview::tui::run(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(1, WHO, &format!("{e:#}")),
    }
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
        if p.is_dir() {
            return Err(format!(
                "{}: a folder: kifview train reads next-move problem sets (ShogiHome's format,                  made by kifview problems make); tsume folders are not read yet",
                p.display()
            ));
        }
        let set = read_set(p)?;
        let name = source_name(p);
        let keys: Vec<String> = set.problems.iter().map(|p| p.key()).collect();
        h.add_source(&name, "next-move", &keys, t)?;
        for d in NextMove::from_set(&name, &set)? {
            drills.push(Box::new(d));
        }
        names.push(name);
    }
    let (more, more_names) = super::train_drills::session(h, others, t)?;
    drills.extend(more);
    names.extend(more_names);
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
    let mut sets: HashMap<String, Option<ProblemSet>> = HashMap::new();
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
            let set = match kind.as_deref() {
                Some("next-move") => match read_set(Path::new(source)) {
                    Ok(s) => Some(s),
                    Err(e) => {
                        eprintln!(
                            "kifview train: {}; left out (kifview train remove {} forgets it)",
                            sanitize(&e),
                            sanitize(source)
                        );
                        None
                    }
                },
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
        let Some(Some(set)) = sets.get(source) else {
            continue;
        };
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

fn now(given: Option<&str>, who: &str) -> Result<chrono::DateTime<chrono::Utc>, ExitCode> {
    match given {
        None => Ok(chrono::Utc::now()),
        Some(t) => history::parse_now(t).map_err(|e| fail(2, who, &e)),
    }
}

fn open(who: &str) -> Result<History, ExitCode> {
    History::open_default().map_err(|e| fail(1, who, &e))
}

/// How the history names a set: its absolute path (links resolved when it exists).
pub(super) fn source_name(p: &Path) -> String {
    std::fs::canonicalize(p)
        .or_else(|_| std::path::absolute(p))
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
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
        let name = source_name(p);
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
        let name = source_name(p);
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
    let name = source_name(&a.set);
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
