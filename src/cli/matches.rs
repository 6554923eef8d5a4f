//! `kifview match` (engine against engine, game pairs, SPRT, every game a record) and
//! `kifview match report DIR...` (the same summary from the records): arguments and printing;
//! the match itself is `kifview::game::matches`.

use clap::{ArgGroup, Args, Subcommand};
use kifview::core::rules::DeclarationRule;
use kifview::core::text::sanitize;
use kifview::engine::{self, EngineSpec, OptionValue, Timeouts};
use kifview::game::adjudicate::{Adjudication, DrawRule, ResignRule};
use kifview::game::matches::{
    self, Entrant, MatchSpec, Opening, RecordFormat, RoundShard, Summary,
};
use kifview::game::openings;
use kifview::game::runner::GameSettings;
use kifview::game::stats::Sprt;
use kifview::game::{GameRules, TimeControl};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Subcommand, Debug)]
pub enum MatchCommand {
    /// Merge the records of a match (or of its shards) into one result: the same JSON.
    #[command(
        after_help = "Examples:\n  kifview match report games/\n  kifview match report shard-1/ shard-2/ --sprt \"elo0=0 elo1=5\""
    )]
    Report(ReportArgs),
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Folders (or files) of a match's records.
    #[arg(required = true, value_name = "DIR")]
    pub paths: Vec<PathBuf>,
    /// The SPRT to compute on the pairs: elo0=E elo1=E [alpha=0.05 beta=0.05 model=normalized]
    /// (default: the one the records say the match ran).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Print only the one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("time").args(["tc", "byoyomi", "nodes", "depth"])))]
#[command(group(ArgGroup::new("count").args(["games", "rounds"])))]
#[command(group(ArgGroup::new("start").args(["openings", "openings_from", "book"])))]
pub struct RunArgs {
    /// The two engines, A then B: a configured [[engines]] name, a command (on PATH, in
    /// /usr/games) or a path, then `,name=SHOWN` and `,OPTION=VALUE` for its options:
    /// --engine 'fairy-stockfish,name=fs-0,Skill Level=0'.
    #[arg(long, value_name = "ENGINE[,name=N][,OPTION=V...]", num_args = 1)]
    pub engine: Vec<String>,
    /// Time control: 10+0.1 (seconds + increment), 600 (sudden death), 600+byo30.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Byoyomi only, in milliseconds per move.
    #[arg(long, value_name = "MS")]
    pub byoyomi: Option<u64>,
    /// Nodes per move (no clock).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Depth per move (no clock).
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Games (rounded up to whole pairs).
    #[arg(long, value_name = "N")]
    pub games: Option<u32>,
    /// Rounds: pairs of games, each opening with colours swapped (default 1; 10000 with --sprt,
    /// which stops the match).
    #[arg(long, value_name = "N")]
    pub rounds: Option<u32>,
    /// Pairs played at once (each with its own two engine processes); at most the cores.
    #[arg(long, value_name = "J", default_value_t = 1)]
    pub concurrency: usize,
    /// Openings: one USI position a line (startpos moves …, sfen … moves …), or a record file
    /// (each record's main line); round r plays opening r (cycling).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Openings from the collection's index: the distinct positions that its games passing the
    /// filter (the filter language of `kifview games`, "" for all) reach after --ply moves.
    #[arg(long, value_name = "FILTER", requires = "ply")]
    pub openings_from: Option<String>,
    /// The index for --openings-from (default: the user's).
    #[arg(long, value_name = "DIR", requires = "openings_from")]
    pub index: Option<PathBuf>,
    /// Openings drawn from an opening book (any format kifview reads): one walk of --ply moves
    /// from the start a round, each move drawn in proportion to its count (evenly where the
    /// book has none), the same for the same --seed.
    #[arg(long, value_name = "BOOK", requires = "ply")]
    pub book: Option<PathBuf>,
    /// The seed of --book's draws.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "book")]
    pub seed: u64,
    /// At most this many moves of each opening (--openings), the ply of the positions
    /// (--openings-from), the length of the walks (--book).
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Stop when the SPRT accepts or rejects: elo0=0 elo1=5 [alpha=0.05 beta=0.05
    /// model=normalized|logistic] (GSPRT on pentanomial pairs, as fastchess).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// The records' format: kif (UTF-8 KIF, .kifu) or csa (CSA V3.0, UTF-8, .csa: times in
    /// milliseconds).
    #[arg(long, value_enum, default_value_t = RecordFormatArg::Kif)]
    pub format: RecordFormatArg,
    /// The folder the records go into (made if missing; no file in it is ever replaced).
    #[arg(long, value_name = "DIR", default_value = "match")]
    pub out: PathBuf,
    /// Print one JSON object at the end (on standard output).
    #[arg(long)]
    pub json: bool,
    /// Play only the K-th of N shares of the rounds (pairs kept whole), e.g. 2/4; `auto` or
    /// `auto/N`: this task's share of a Slurm job array or a Kubernetes Indexed Job.
    #[arg(long, value_name = "K/N|auto")]
    pub shard: Option<kifview::analyze::batch::ShardSpec>,
    /// A game is drawn after this many moves (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 512)]
    pub max_moves: u32,
    /// Resign adjudication (off by default): a side whose own evaluation is -S or worse for N
    /// of its moves in a row resigns: 'score=S moves=N' (fastchess's movecount= too).
    #[arg(long, value_name = "score=S moves=N")]
    pub resign: Option<String>,
    /// Draw adjudication (off by default): from move M on, when both engines' last N moves
    /// scored within ±S, the game is drawn: 'score=S moves=N after=M' (movecount=,
    /// movenumber= too).
    #[arg(long, value_name = "score=S moves=N after=M")]
    pub draw: Option<String>,
    /// The entering-king rule: 27 (CSA) or 24.
    #[arg(long, value_name = "27|24", default_value_t = 27)]
    pub declaration: u32,
    /// How long past its time an engine may go before it is killed as hung, in ms.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub margin: u64,
    /// Write each move's times to FILE (a new file): per game one JSON line with, per move,
    /// [ply, side, allowed ms, charged ms, the engine's own `info time` ms, the runner's gap
    /// between the last answer and this `go` in µs]; a last line gives the runner's CPU per
    /// move. `scripts/match_timing.py FILE` says who caused each loss on time.
    #[arg(long, value_name = "FILE")]
    pub timing: Option<PathBuf>,
    /// The config file whose [[engines]] name the engines.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RecordFormatArg {
    Kif,
    Csa,
}

pub fn run(a: MatchArgs) -> ExitCode {
    match a.command {
        Some(MatchCommand::Report(r)) => report(r),
        None => run_match(a.run),
    }
}

/// An `--engine` value: the engine, then `,name=…` and `,OPTION=VALUE` parts.
fn entrant(text: &str, configured: &[EngineSpec]) -> Result<Entrant, String> {
    let mut parts = text.split(',');
    let which = parts.next().unwrap_or_default().trim();
    if which.is_empty() {
        return Err(format!("--engine {text:?}: no engine named"));
    }
    let mut spec = engine::resolve(Some(which), configured)?;
    let mut name = spec.display_name();
    for part in parts {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("--engine {text:?}: {part:?} is not NAME=VALUE"))?;
        let (k, v) = (k.trim(), v.trim());
        if k == "name" {
            name = v.to_string();
            continue;
        }
        let value = match v.parse::<i64>() {
            Ok(n) => OptionValue::Int(n),
            Err(_) if v == "true" || v == "false" => OptionValue::Bool(v == "true"),
            Err(_) => OptionValue::Text(v.to_string()),
        };
        spec.options.insert(k.to_string(), value);
    }
    if name.trim().is_empty() || name.chars().any(char::is_control) {
        return Err(format!(
            "--engine {text:?}: a name needs a visible character"
        ));
    }
    Ok(Entrant { name, spec })
}

fn time_control(a: &RunArgs) -> Result<TimeControl, String> {
    Ok(match (&a.tc, a.byoyomi, a.nodes, a.depth) {
        (Some(tc), ..) => TimeControl::parse(tc)?,
        (_, Some(ms), ..) if ms > 0 => {
            TimeControl::byoyomi(Duration::ZERO, Duration::from_millis(ms))
        }
        (_, Some(_), ..) => return Err("--byoyomi must be at least 1 ms".into()),
        (_, _, Some(n), _) if n > 0 => TimeControl::nodes(n),
        (_, _, _, Some(d)) if d > 0 => TimeControl::depth(d),
        (None, None, None, None) => TimeControl::parse("10+0.1")?,
        _ => return Err("--nodes and --depth must be at least 1".into()),
    })
}

/// The match's openings: from --openings, --openings-from or --book (none: the even start).
fn openings(a: &RunArgs, rounds: u32) -> Result<Vec<Opening>, String> {
    if let Some(p) = &a.openings {
        return matches::read_openings(p, a.ply);
    }
    let ply = a.ply.unwrap_or_default();
    if ply == 0 && (a.openings_from.is_some() || a.book.is_some()) {
        return Err("--ply must be at least 1 with --openings-from or --book".into());
    }
    if let Some(text) = &a.openings_from {
        let filter = kifview::collection::Filter::parse(text)
            .map_err(|e| format!("--openings-from: {e}"))?;
        let dir = kifview::collection::index_dir(a.index.clone())?;
        let idx = kifview::collection::Index::open(&dir)?;
        return openings::from_index(&idx, &filter, ply);
    }
    if let Some(path) = &a.book {
        let opened = kifview::book::open(path).map_err(|e| e.to_string())?;
        let name = path.file_name().map_or_else(
            || kifview::load::display_name(path),
            |n| n.to_string_lossy().into_owned(),
        );
        return openings::from_book(opened.book.as_ref(), &name, ply, rounds, a.seed);
    }
    Ok(Vec::new())
}

fn spec_of(a: &RunArgs) -> Result<MatchSpec, String> {
    if a.engine.len() != 2 {
        return Err(format!(
            "kifview match needs two engines (--engine A --engine B), {} given",
            a.engine.len()
        ));
    }
    let configured = kifview::app::Config::load(a.config.as_deref())
        .map(|c| c.engines)
        .map_err(|e| e.to_string())?;
    let entrants = [
        entrant(&a.engine[0], &configured)?,
        entrant(&a.engine[1], &configured)?,
    ];
    if entrants[0].name == entrants[1].name {
        return Err(format!(
            "both engines are named {:?}: name them apart (--engine 'ENGINE,name=…') so that the records tell them apart",
            entrants[0].name
        ));
    }
    let sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    let rounds = match (a.games, a.rounds) {
        (Some(g), _) => g.div_ceil(2),
        (_, Some(r)) => r,
        (None, None) if sprt.is_some() => 10_000,
        (None, None) => 1,
    };
    if rounds == 0 {
        return Err("no games to play (--games or --rounds 0)".into());
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if a.concurrency == 0 || a.concurrency > cores {
        return Err(format!(
            "--concurrency {}: between 1 and the {cores} cores of this machine",
            a.concurrency
        ));
    }
    let openings = openings(a, rounds)?;
    let declaration = match a.declaration {
        27 => DeclarationRule::Points27,
        24 => DeclarationRule::Points24,
        n => return Err(format!("--declaration {n}: 27 or 24")),
    };
    let shard = match a.shard.map(|s| s.resolve(&|k: &str| std::env::var(k).ok())) {
        None => None,
        Some(Ok((s, from))) => {
            if let Some(from) = from {
                eprintln!("kifview match: shard {}/{} (from {from})", s.index, s.count);
            }
            Some(RoundShard {
                index: s.index,
                count: s.count,
            })
        }
        Some(Err(e)) => return Err(e),
    };
    Ok(MatchSpec {
        entrants,
        settings: GameSettings {
            time_control: time_control(a)?,
            rules: GameRules {
                max_moves: a.max_moves,
                declaration,
            },
            margin: Duration::from_millis(a.margin),
            adjudication: Adjudication {
                resign: a.resign.as_deref().map(ResignRule::parse).transpose()?,
                draw: a.draw.as_deref().map(DrawRule::parse).transpose()?,
            },
            ..GameSettings::default()
        },
        rounds,
        concurrency: a.concurrency,
        openings,
        sprt,
        out: a.out.clone(),
        shard,
        timeouts: Timeouts {
            handshake: Duration::from_secs(60),
            ..Timeouts::default()
        },
        timing: a.timing.clone(),
        format: match a.format {
            RecordFormatArg::Kif => RecordFormat::Kif,
            RecordFormatArg::Csa => RecordFormat::Csa,
        },
    })
}

fn run_match(a: RunArgs) -> ExitCode {
    let spec = match spec_of(&a) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kifview match: {}", sanitize(&e));
            return ExitCode::from(2);
        }
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(0);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let sprt = spec.sprt;
    let result = matches::run(&spec, &mut |s: &Summary, total: u32| {
        if let Some(b) = &bar {
            b.set_length(u64::from(total));
            b.set_position(u64::from(s.tally.games() + s.unscored));
            b.set_message(sanitize(&s.line(sprt.as_ref())).into_owned());
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    match result {
        Ok(s) => {
            print_summary(&s, sprt.as_ref(), a.json, &spec.out);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("kifview match: {}", sanitize(&e));
            ExitCode::from(1)
        }
    }
}

fn print_summary(s: &Summary, sprt: Option<&Sprt>, json: bool, out: &std::path::Path) {
    if json {
        println!("{}", s.json(sprt));
        return;
    }
    println!("{}", sanitize(&s.line(sprt)));
    let e = &s.errors;
    if e.time + e.crash + e.illegal > 0 {
        println!(
            "errors: {} on time, {} crashed, {} illegal",
            e.time, e.crash, e.illegal
        );
    }
    if let Some(v) = s.verdict(sprt) {
        println!("SPRT: {v:?} accepted");
    }
    println!(
        "{} records in {}",
        s.files.len(),
        sanitize(&out.display().to_string())
    );
}

fn report(r: ReportArgs) -> ExitCode {
    let sprt = match r.sprt.as_deref().map(Sprt::parse).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kifview match report: {e}");
            return ExitCode::from(2);
        }
    };
    match matches::report(&r.paths) {
        Ok((s, recorded, warnings)) => {
            let sprt = sprt.or(recorded);
            for w in warnings {
                eprintln!("kifview match report: {}", sanitize(&w));
            }
            if r.json {
                println!("{}", s.json(sprt.as_ref()));
            } else {
                println!("{}", sanitize(&s.line(sprt.as_ref())));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("kifview match report: {}", sanitize(&e));
            ExitCode::from(1)
        }
    }
}
