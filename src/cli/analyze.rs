//! `kifview analyze` and `kifview mate`: their arguments, and the calls into
//! [`kifview::analyze`].

use clap::{ArgGroup, Args};
use kifview::analyze::batch::{self, Batch, ShardSpec};
use kifview::analyze::{self, MarkConfig, Options, Output, mate};
use kifview::app::Config;
use kifview::core::notation;
use kifview::core::rules::{Move, Position, setup};
use kifview::core::text::sanitize;
use kifview::engine::{self, EngineSpec, Limit, OptionValue};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("limit").args(["nodes", "movetime", "depth"])))]
#[command(group(ArgGroup::new("out").args(["output", "out_dir", "in_place"])))]
pub struct AnalyzeArgs {
    /// Records to analyse (directories with -r).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Engine: a configured [[engines]] name, a command on PATH or in /usr/games, or a path.
    #[arg(long, value_name = "NAME|PATH")]
    pub engine: Option<String>,
    /// Nodes per position (`go nodes N`; not gpsusi).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Milliseconds per position (default 1000; `go infinite` then `stop`, every engine).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Depth per position (`go depth D`; not gpsusi).
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Lines per position; the first gives the evaluation, the others `#候補N=` lines.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub multipv: u32,
    /// First ply to comment (1 = the first move).
    #[arg(long = "from", value_name = "PLY", default_value_t = 1)]
    pub from: u32,
    /// Last ply to comment (default: the end of the main line).
    #[arg(long = "to", value_name = "PLY")]
    pub to: Option<u32>,
    /// Output file (one input; the format from its extension). Without -o, --out-dir or
    /// --in-place the record goes to standard output.
    #[arg(short = 'o', long = "output", value_name = "OUTPUT")]
    pub output: Option<PathBuf>,
    /// Directory for the outputs, keeping the layout under the directories given.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Write each record back into its file (atomically; encoding and line endings kept).
    #[arg(long)]
    pub in_place: bool,
    /// Engines in parallel (default: cores ÷ the engine's Threads option).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Take only the K-th of N stable shares of the inputs (by path hash), e.g. 3/16; `auto`
    /// or `auto/N`: this task's share of a Slurm job array (SLURM_ARRAY_TASK_ID, _COUNT, _MIN)
    /// or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX of N or JOB_COMPLETION_COUNT).
    #[arg(long, value_name = "K/N|auto[/N]")]
    pub shard: Option<ShardSpec>,
    /// Walk directories.
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// Analyse again files already analysed with the same engine and limit.
    #[arg(long)]
    pub force: bool,
    /// An engine option, NAME=VALUE (repeatable), e.g. --option Threads=2 --option USI_Hash=256.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Config file, for its [[engines]] (default: $KIFVIEW_CONFIG, else the platform config directory).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct MateArgs {
    pub file: PathBuf,
    /// Plies of the main line to play first (default 0: the start position, a tsume problem).
    #[arg(long, default_value_t = 0)]
    pub ply: u32,
    /// Seconds to search.
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    pub time: f64,
    /// Engine (default: one that has a USI mate search: gpsusi or YaneuraOu when installed).
    #[arg(long, value_name = "NAME|PATH")]
    pub engine: Option<String>,
    /// Which record of a multi-record CSA file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub record: usize,
    /// Config file, for its [[engines]] (default: $KIFVIEW_CONFIG, else the platform config directory).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Search a position the rules say cannot arise (二歩, a piece that can never move, ...)
    /// instead of refusing it.
    #[arg(long)]
    pub force: bool,
}

/// The config's `[[engines]]`; a config that cannot be read is an error (as in the viewer):
/// going on with another engine would analyse with what the user did not ask for.
pub(super) fn configured_engines(
    config: Option<&std::path::Path>,
) -> Result<Vec<EngineSpec>, String> {
    Config::load(config)
        .map(|c| c.engines)
        .map_err(|e| e.to_string())
}

pub(super) fn engine_spec(
    choice: Option<&str>,
    options: &[String],
    configured: &[EngineSpec],
) -> Result<EngineSpec, String> {
    let mut spec = engine::resolve(choice, configured)?;
    // gpsusi answers opening positions from its book without a line: an analysis wants none
    // (as the viewer's research mode does), unless the config says otherwise.
    if spec.display_name().starts_with("gpsusi") && !configured.contains(&spec) {
        spec.options
            .entry("BookDepth".into())
            .or_insert(OptionValue::Int(0));
    }
    for o in options {
        let (k, v) = o
            .split_once('=')
            .ok_or_else(|| format!("--option {o}: expected NAME=VALUE"))?;
        spec.options.insert(
            k.trim().to_string(),
            OptionValue::Text(v.trim().to_string()),
        );
    }
    Ok(spec)
}

pub fn analyze(a: AnalyzeArgs) -> ExitCode {
    let usage = |m: &str| {
        eprintln!("kifview analyze: {}", sanitize(m));
        ExitCode::from(2)
    };
    let configured = match configured_engines(a.config.as_deref()) {
        Ok(c) => c,
        Err(m) => return usage(&m),
    };
    let engine = match engine_spec(a.engine.as_deref(), &a.options, &configured) {
        Ok(s) => s,
        Err(m) => return usage(&m),
    };
    let limit = match (a.nodes, a.movetime, a.depth) {
        (Some(n), _, _) => Limit::Nodes(n.max(1)),
        (_, Some(ms), _) => Limit::Time(Duration::from_millis(ms.max(1))),
        (_, _, Some(d)) => Limit::Depth(d.max(1)),
        _ => analyze::DEFAULT_LIMIT,
    };
    if a.to.is_some_and(|t| t < a.from) {
        return usage("--to is before --from");
    }
    let shard = match a.shard.map(|s| s.resolve(&|k: &str| std::env::var(k).ok())) {
        None => None,
        Some(Ok((s, from))) => {
            if let Some(from) = from {
                eprintln!(
                    "kifview analyze: --shard auto: shard {}/{} ({})",
                    s.index,
                    s.count,
                    sanitize(&from)
                );
            }
            Some(s)
        }
        Some(Err(m)) => return usage(&m),
    };
    let output = match (a.output, a.out_dir, a.in_place) {
        (Some(o), _, _) => Output::File(o),
        (_, Some(d), _) => Output::Dir(d),
        (_, _, true) => Output::InPlace,
        _ => Output::Stdout,
    };
    for s in batch::skipped_inputs(&a.inputs, a.recursive) {
        eprintln!("kifview analyze: {}", sanitize(&s));
    }
    let b = Batch {
        inputs: a.inputs,
        recursive: a.recursive,
        output,
        jobs: a.jobs,
        shard,
        force: a.force,
        game: Options {
            limit,
            multipv: a.multipv.max(1),
            from: a.from.max(1),
            to: a.to,
            marks: MarkConfig::default(),
        },
        engine,
    };
    let cancel = analyze::progress::catch_interrupt();
    match analyze::progress::run(&b, cancel) {
        Ok(s) => {
            for line in s.text().lines() {
                eprintln!("{}", sanitize(line));
            }
            ExitCode::from(analyze::progress::exit_code(&s))
        }
        Err(m) => {
            eprintln!("kifview analyze: {}", sanitize(&m));
            ExitCode::from(1)
        }
    }
}

/// The engine for `mate` when none is named: the first configured or installed one with a
/// USI mate search.
pub(super) fn mate_engine(
    choice: Option<&str>,
    configured: &[EngineSpec],
) -> Result<EngineSpec, String> {
    if choice.is_some() {
        return engine::resolve(choice, configured);
    }
    let found: Vec<EngineSpec> = configured
        .iter()
        .cloned()
        .chain(engine::discover())
        .collect();
    found
        .iter()
        .find(|s| mate::known_unsupported(&s.display_name()).is_none())
        .or(found.first())
        .cloned()
        .ok_or_else(|| engine::discover::NO_ENGINE.to_string())
}

pub fn mate(a: MateArgs) -> ExitCode {
    let fail = |m: &str, code: u8| {
        eprintln!("kifview mate: {}", sanitize(m));
        ExitCode::from(code)
    };
    if !(a.time > 0.0 && a.time < 1e6) {
        return fail("--time: expected seconds > 0", 2);
    }
    let (position, moves) = match mate_position(&a) {
        Ok(p) => p,
        Err((m, code)) => return fail(&m, code),
    };
    let configured = match configured_engines(a.config.as_deref()) {
        Ok(c) => c,
        Err(m) => return fail(&m, 2),
    };
    let spec = match mate_engine(a.engine.as_deref(), &configured) {
        Ok(s) => s,
        Err(m) => return fail(&m, 2),
    };
    let opts = Options {
        limit: Limit::Mate(None),
        ..Options::default()
    };
    let mut eng = match batch::start_engine(&spec, &opts) {
        Ok(e) => e,
        Err(m) => return fail(&m, 1),
    };
    let time = Duration::from_secs_f64(a.time);
    let cancel = AtomicBool::new(false);
    match mate::mate_search(&mut eng, position, moves, time, &cancel) {
        Ok(r) => {
            println!("{}", sanitize(&r.text()));
            eng.quit();
            if matches!(r, analyze::MateResult::NotSupported(_)) {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => fail(&e.to_string(), 1),
    }
}

/// The start position and the moves to play for `mate`, after the rules' checks on the position
/// searched: one that cannot arise (二歩, a piece that can never move, more pieces than the set
/// holds, no gote king, the side not to move in check) is refused (exit 2) unless `--force`,
/// and named on standard error either way. Engines answer such positions with nonsense, or
/// crash.
fn mate_position(a: &MateArgs) -> Result<(Position, Vec<Move>), (String, u8)> {
    let name = a.file.display();
    let bytes = std::fs::read(&a.file).map_err(|e| (format!("{name}: {e}"), 1))?;
    let mut loaded = notation::load(&bytes, Some(&a.file));
    if a.record == 0 || a.record > loaded.records.len() {
        let n = loaded.records.len();
        return Err((
            format!("--record {}: the file holds {n} record(s)", a.record),
            2,
        ));
    }
    let parsed = loaded.records.swap_remove(a.record - 1);
    // A board the reader had to change (more pieces than the set holds, a row it could not
    // read) is not the position the file gives: a reason too.
    let board: Vec<String> = parsed
        .warnings
        .iter()
        .filter(|w| w.kind == notation::DiagKind::BadBoard)
        .map(|w| format!("line {}: {}", w.line, w.message))
        .collect();
    let record = parsed.record;
    let line = record.main_line();
    let moves: Vec<_> = line
        .iter()
        .filter_map(|&id| record.node(id).move_data().map(|m| m.mv))
        .collect();
    if a.ply as usize > moves.len() {
        let why = format!("--ply {}: the main line has {} moves", a.ply, moves.len());
        return Err((why, 2));
    }
    let searched = record.position_at(line[a.ply as usize]);
    let mut why = setup::validate(&searched).err().unwrap_or_default();
    why.extend(board);
    if !why.is_empty() {
        let at = match a.ply {
            0 => "the start position".to_string(),
            n => format!("the position after {n} moves"),
        };
        let said = format!("{name}: {at} cannot arise in a game: {}", why.join("; "));
        if !a.force {
            let hint = "an engine may answer it with nonsense or crash; --force sends it anyway";
            return Err((format!("{said} ({hint})"), 2));
        }
        eprintln!("kifview mate: {}; sent anyway (--force)", sanitize(&said));
    }
    let moves = moves[..a.ply as usize].to_vec();
    Ok((record.initial.position.clone(), moves))
}
