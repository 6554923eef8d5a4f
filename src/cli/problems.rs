//! `kifview problems make`: next-move problems from analysed games, into a set in ShogiHome's
//! format ([`kifview::training`]); `kifview problems tsume`: 実戦詰め, tsume records made from
//! the mating finishes of games, confirmed by a mate engine ([`kifview::training::jissen`]).

use super::collection::{FilterArgs, fail, filter, open};
use clap::{Args, Subcommand, ValueEnum};
use kifview::core::text::sanitize;
use kifview::training::batch::{self, MakeOptions, Progress, RecordSource};
use kifview::training::make::{Criteria, Players};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ProblemsArgs {
    #[command(subcommand)]
    pub command: ProblemsCommand,
}

#[derive(Subcommand, Debug)]
pub enum ProblemsCommand {
    /// Make next-move problems (次の一手) from analysed games: the moves whose mover's winning
    /// chance fell, searched again with MultiPV; a set in ShogiHome's format.
    #[command(
        after_help = "The thresholds are ShogiHome's (specs/next-move-problem.md): a move is a candidate when the\nmover's win % (100/(1+e^(-cp/600)) from the analysis comments) fell by --drop points from at\nleast --min-win-rate %; kept when the best move beats it by --adoption points; the moves within\n--acceptable points of the best are accepted answers.\n\nExamples:\n  kifview problems make ~/kifu -o mistakes.json\n  kifview problems make --index ~/kifu.idx --player 藤井 --mover 藤井 -o mine.json --max 20\n  kifview problems make game.kif --analyze -o game-problems.json --time 3000"
    )]
    Make(MakeArgs),
    /// Make tsume (実戦詰め) from the games that end in checkmate: the position before the
    /// winner's last checks, confirmed by a mate engine's go mate as a forced mate of that
    /// length; one KIF record per game, into a folder `kifview train` solves.
    #[command(
        after_help = "The engine needs a USI mate search (gpsusi, YaneuraOu): the first configured or installed one\nwith it unless --engine names one. Of each game ending in 詰み, the longest finish (from\n--max-plies down to --min-plies) that the engine mates in exactly its length is kept.\n\nExamples:\n  kifview problems tsume ~/kifu -o ~/tsume/jissen\n  kifview problems tsume --index ~/kifu.idx --player 藤井 -o fujii-tsume --max-plies 9\n  kifview train ~/tsume/jissen"
    )]
    Tsume(TsumeArgs),
}

/// The games problems are made from: records and folders, or an index's games that pass the
/// filters (`problems make` and `problems tsume` alike).
#[derive(Args, Debug)]
pub struct Games {
    /// Records, or folders of records (walked with their subfolders).
    #[arg(
        value_name = "PATH",
        required_unless_present = "index",
        conflicts_with = "index"
    )]
    pub inputs: Vec<PathBuf>,
    /// Take the games of this index (`kifview index`) that pass the filters instead.
    #[arg(long, value_name = "IDX")]
    pub index: Option<PathBuf>,
    #[command(flatten)]
    pub filter: FilterArgs,
}

#[derive(Args, Debug)]
pub struct TsumeArgs {
    #[command(flatten)]
    pub games: Games,
    /// The folder the tsume records are written to (made if missing).
    #[arg(short = 'o', long = "output", value_name = "DIR", required = true)]
    pub output: PathBuf,
    /// Replace tsume files of the same name in the folder (else they are kept and said).
    #[arg(long)]
    pub force: bool,
    /// The mate engine: a configured [[engines]] name, a command on PATH or in /usr/games, or
    /// a path.
    #[arg(long, value_name = "NAME|PATH")]
    pub engine: Option<String>,
    /// Seconds of mate search per position.
    #[arg(long, value_name = "S", default_value_t = 5.0)]
    pub time: f64,
    /// The shortest tsume kept, in plies.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub min_plies: usize,
    /// The longest finish tried, in plies.
    #[arg(long, value_name = "N", default_value_t = 15)]
    pub max_plies: usize,
    /// At most this many tsume.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max: usize,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Side {
    Sente,
    Gote,
}

#[derive(Args, Debug)]
pub struct MakeArgs {
    #[command(flatten)]
    pub games: Games,
    /// The set to write (JSON; an existing file is replaced only with --force).
    #[arg(short = 'o', long = "output", value_name = "SET.json", required = true)]
    pub output: PathBuf,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Engine: a configured [[engines]] name, a command on PATH or in /usr/games, or a path.
    #[arg(long, value_name = "NAME|PATH")]
    pub engine: Option<String>,
    /// An engine option, NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Milliseconds of search per position (ShogiHome: 10 s).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub time: u64,
    /// At most this many problems.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max: usize,
    /// Lines searched per position (at least 2).
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub multipv: u32,
    /// Win-% points the mover must lose for a move to be a candidate.
    #[arg(long, value_name = "POINTS", default_value_t = 20.0)]
    pub drop: f64,
    /// The mover's least win % before the move (and after the best move).
    #[arg(long, value_name = "PERCENT", default_value_t = 40.0)]
    pub min_win_rate: f64,
    /// Win-% points the best move must beat the move played by.
    #[arg(long, value_name = "POINTS", default_value_t = 15.0)]
    pub adoption: f64,
    /// Moves within these win-% points of the best are accepted answers.
    #[arg(long, value_name = "POINTS", default_value_t = 5.0)]
    pub acceptable: f64,
    /// The sigmoid's scale: win % = 100/(1+e^(-cp/COEF)).
    #[arg(long, value_name = "COEF", default_value_t = 600.0)]
    pub coefficient: f64,
    /// The first move number looked at.
    #[arg(long, value_name = "PLY", default_value_t = 20)]
    pub min_ply: u32,
    /// The last move number looked at.
    #[arg(long, value_name = "PLY", default_value_t = 120)]
    pub max_ply: u32,
    /// Only the moves of this side.
    #[arg(long, value_enum, conflicts_with = "mover")]
    pub side: Option<Side>,
    /// Only the moves of the player whose name contains NAME.
    #[arg(long, value_name = "NAME")]
    pub mover: Option<String>,
    /// Analyse the records that hold no analysis first, in memory (their files are not
    /// changed), this many milliseconds per position.
    #[arg(long, value_name = "MS", num_args = 0..=1, default_missing_value = "1000")]
    pub analyze: Option<u64>,
    /// The set's title.
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
}

const WHO: &str = "problems make";

/// The records `--index` and its filters name.
fn indexed(
    index: Option<PathBuf>,
    given: FilterArgs,
    who: &str,
) -> Result<Vec<RecordSource>, ExitCode> {
    let idx = open(index, who)?;
    let f = filter(given).map_err(|e| fail(2, who, &e))?;
    let mut out = Vec::new();
    idx.games_each(&f, &mut |g| {
        out.push(RecordSource {
            path: PathBuf::from(&g.path),
            record: Some(g.record),
        });
        Ok(())
    })
    .map_err(|e| fail(1, who, &e))?;
    Ok(out)
}

/// The records of the inputs (files, folders walked), or of the index's games that pass the
/// filters; `kifview problems make` and `tsume` both take them so.
pub(super) fn sources(games: &mut Games, who: &str) -> Result<Vec<RecordSource>, ExitCode> {
    let given = std::mem::take(&mut games.filter);
    games.filter.config = given.config.clone();
    let index = games.index.take();
    if index.is_some() {
        return indexed(index, given, who);
    }
    if (FilterArgs {
        config: None,
        ..given
    }) != FilterArgs::default()
    {
        return Err(fail(
            2,
            who,
            "the game filters (--player, --tag, ...) choose games of an index: give --index IDX",
        ));
    }
    let (inputs, skipped) =
        kifview::convert::walk_inputs(&games.inputs, true).map_err(|e| fail(2, who, &e))?;
    for s in skipped {
        eprintln!("kifview {who}: skipped {}", sanitize(&s));
    }
    Ok(inputs
        .into_iter()
        .map(|i| RecordSource {
            path: i.path,
            record: None,
        })
        .collect())
}

/// `kifview problems make` (`cli/mod.rs` runs `kifview problems tsume` with `problems_tsume`,
/// which uses this file).
pub fn make(mut a: MakeArgs) -> ExitCode {
    let config = a.games.filter.config.clone();
    let configured = match super::analyze::configured_engines(config.as_deref()) {
        Ok(c) => c,
        Err(m) => return fail(2, WHO, &m),
    };
    let engine = match super::analyze::engine_spec(a.engine.as_deref(), &a.options, &configured) {
        Ok(s) => s,
        Err(m) => return fail(2, WHO, &m),
    };
    let criteria = Criteria {
        win_rate_drop: a.drop,
        min_win_rate: a.min_win_rate,
        adoption_diff: a.adoption,
        acceptable_diff: a.acceptable,
        coefficient: a.coefficient,
        min_ply: a.min_ply,
        max_ply: a.max_ply,
        players: match (a.side, a.mover.take()) {
            (Some(Side::Sente), _) => Players::Black,
            (Some(Side::Gote), _) => Players::White,
            (None, Some(name)) => Players::Named(name),
            (None, None) => Players::All,
        },
        multipv: a.multipv,
        time: Duration::from_millis(a.time.max(1)),
        max_problems: a.max,
    };
    if let Err(e) = criteria.check() {
        return fail(2, WHO, &e);
    }
    if !a.force && std::fs::symlink_metadata(&a.output).is_ok() {
        return fail(
            2,
            WHO,
            &format!(
                "{}: exists: not replaced (--force replaces it)",
                a.output.display()
            ),
        );
    }
    let sources = match sources(&mut a.games, WHO) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if sources.is_empty() {
        return fail(1, WHO, "no record file among the inputs");
    }
    let opts = MakeOptions {
        criteria,
        engine,
        analyze: a.analyze.map(|ms| Duration::from_millis(ms.max(1))),
    };
    let cancel = kifview::analyze::progress::catch_interrupt();
    let now = chrono::Local::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, false);
    let mut report = |p: Progress| match p {
        Progress::Analysing { path } => {
            eprintln!("kifview {WHO}: {}: analysing first", sanitize(path))
        }
        Progress::Record { path, outcome } if outcome.blunders > 0 => eprintln!(
            "kifview {WHO}: {}: {} candidate move(s), {} searched, {} problem(s)",
            sanitize(path),
            outcome.blunders,
            outcome.searched,
            outcome.adopted
        ),
        Progress::Record { .. } => {}
    };
    let made = match batch::make(&sources, &opts, now, cancel, &mut report) {
        Ok(m) => m,
        Err(e) => return fail(1, WHO, &e),
    };
    finish(a, made)
}

/// Says what was skipped and why, and writes the set.
fn finish(a: MakeArgs, made: batch::Made) -> ExitCode {
    for u in &made.unreadable {
        eprintln!("kifview {WHO}: skipped {}", sanitize(u));
    }
    if !made.unanalysed.is_empty() {
        eprintln!(
            "kifview {WHO}: {} file(s) hold no analysis in their comments, so no problem can come from them:",
            made.unanalysed.len()
        );
        const SHOWN: usize = 20;
        for p in made.unanalysed.iter().take(SHOWN) {
            eprintln!("  {}", sanitize(&p.display().to_string()));
        }
        if made.unanalysed.len() > SHOWN {
            eprintln!("  and {} more", made.unanalysed.len() - SHOWN);
        }
        eprintln!(
            "  analyse them first (kifview analyze -r FILES... --in-place), or give --analyze to analyse them in memory here"
        );
    }
    let mut set = made
        .set
        .unwrap_or_else(|| kifview::training::ProblemSet::new(None));
    if let (Some(t), Some(m)) = (a.title, set.metadata.as_mut()) {
        m.title = Some(t);
    }
    let summary = format!(
        "{} record(s), {} analysed here, {} candidate move(s), {} searched, {} problem(s)",
        made.records,
        made.analysed,
        made.blunders,
        made.searched,
        set.problems.len()
    );
    if set.problems.is_empty() {
        eprintln!("kifview {WHO}: {summary}: no problem found, nothing written");
        return ExitCode::from(1);
    }
    let out = a.output.display().to_string();
    if let Err(e) = kifview::store::save_new(
        &a.output,
        set.to_json().as_bytes(),
        Default::default(),
        a.force,
    ) {
        return fail(1, WHO, &e.to_string());
    }
    eprintln!("kifview {WHO}: {summary}: wrote {}", sanitize(&out));
    if made.interrupted {
        eprintln!("kifview {WHO}: interrupted: the set holds the problems found before");
        return ExitCode::from(kifview::analyze::progress::interrupted_exit_code());
    }
    ExitCode::SUCCESS
}
