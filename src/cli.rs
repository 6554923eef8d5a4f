//! Command-line interface: the viewer launcher and the `convert`, `show` and `check` commands.
//!
//! Exit codes: 0 success, 1 when any input failed (the others are still processed), 2 bad usage.

use anyhow::Context;
use clap::{Args, Parser, Subcommand, ValueEnum};
use kifview::app::LaunchOptions;
use kifview::app::save::{flush_filesystem, write_atomic, write_replace_unsynced};
use kifview::app::text::sanitize;
use kifview::core::notation::{
    self, Diagnostic, Format, Loaded, Newline, Target, TextEncoding, TextInfo, bod,
};
use kifview::core::record::{NodeId, Record};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "kifview",
    version,
    about = "View, study and convert shogi game records (KIF, KIFU, KI2, CSA, SFEN/USI, JKF)",
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  kifview game.kif            open the viewer\n  kifview game.kif +40        open at move 40 (also: -n 40)\n  kifview convert game.kif --to csa -o game.csa\n  kifview show game.kif --ply 30\n  kifview check *.kif"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub view: ViewArgs,
}

/// Arguments of the viewer (no subcommand).
#[derive(Args, Debug, Default)]
pub struct ViewArgs {
    /// Record to open (`-` reads standard input); none starts an empty 平手 record.
    pub file: Option<PathBuf>,
    /// `+N`: open at ply N (KifuBase convention).
    #[arg(value_name = "+N", allow_hyphen_values = false)]
    pub plus_ply: Option<String>,
    /// Open at ply N of the main line (ShogiGUI convention).
    #[arg(short = 'n', value_name = "N")]
    pub ply: Option<u32>,
    /// Which record of a multi-record CSA file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub record: usize,
    /// Show the board from White's side.
    #[arg(long)]
    pub flip: bool,
    /// Config file (default: $KIFVIEW_CONFIG, else the platform config directory).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Start a new record from this handicap (平手, 香落ち, 角落ち, 飛車落ち, 二枚落ち, ...).
    #[arg(long, value_name = "NAME")]
    pub handicap: Option<String>,
    /// Follow the file as another program writes it (a live broadcast): reload on change.
    #[arg(long)]
    pub watch: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert records between formats.
    #[command(
        after_help = "Examples:\n  kifview convert game.kif --to csa             CSA on stdout\n  kifview convert game.kif -o game.kifu          format from the extension\n  kifview convert *.kif --to csa --out-dir out/\n  kifview convert game.kifu --to kif --encoding utf-8 -o game.kif"
    )]
    Convert(ConvertArgs),
    /// Print the position after N plies of the main line as a BOD diagram (or SFEN).
    #[command(
        after_help = "Examples:\n  kifview show game.kif              the final position\n  kifview show game.kif --ply 0      the start position\n  kifview show game.csa --ply 30 --sfen"
    )]
    Show(ShowArgs),
    /// Read and replay every line of every file; print FILE:LINE: message per problem.
    #[command(
        after_help = "Examples:\n  kifview check game.kif\n  kifview check records/*.kif && echo all good"
    )]
    Check(CheckArgs),
    /// Analyse every move with a USI engine; write the results into the comments (ShogiHome's format).
    #[command(
        after_help = "Examples:\n  kifview analyze game.kif -o game-analysed.kif\n  kifview analyze game.kifu --in-place --nodes 100000\n  kifview analyze -r games/ --out-dir analysed/ --jobs 2\n  kifview analyze -r /data/floodgate --in-place --shard 3/16"
    )]
    Analyze(crate::analyze_cli::AnalyzeArgs),
    /// Search a position for a mate (USI go mate): prints 詰み N手: ▲…, 不詰 or 時間切れ.
    #[command(
        after_help = "Examples:\n  kifview mate tsume.kifu\n  kifview mate game.kif --ply 87 --time 30 --engine gpsusi"
    )]
    Mate(crate::analyze_cli::MateArgs),
    /// Print shell completions.
    #[command(
        after_help = "Examples:\n  kifview completions bash > ~/.local/share/bash-completion/completions/kifview\n  kifview completions zsh > ~/.zfunc/_kifview\n  kifview completions fish > ~/.config/fish/completions/kifview.fish"
    )]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ToFormat {
    /// KIF (Shift_JIS unless --encoding says otherwise).
    Kif,
    /// KIF in UTF-8.
    Kifu,
    /// CSA (V2.2 unless --csa-version 3).
    Csa,
    /// KI2 (Shift_JIS unless --encoding says otherwise).
    Ki2,
    /// KI2 in UTF-8.
    Ki2u,
    /// JSON Kifu Format.
    Jkf,
    /// `position … moves …` of the main line.
    Usi,
    /// SFEN of the last position of the main line.
    Sfen,
    /// BOD diagram of the last position of the main line.
    Bod,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    #[value(
        name = "shift_jis",
        alias = "sjis",
        alias = "cp932",
        alias = "shift-jis"
    )]
    ShiftJis,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Input files (directories with -r).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Convert every record file under the given directories, keeping their layout in --out-dir.
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// Output format (default: from OUTPUT's extension).
    #[arg(long, value_enum)]
    pub to: Option<ToFormat>,
    /// Output file (one input only); without it and without --out-dir, write to stdout.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUTPUT",
        conflicts_with = "out_dir"
    )]
    pub output: Option<PathBuf>,
    /// Directory for the outputs (needed with several inputs).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Output encoding (default: Shift_JIS for kif, UTF-8 for kifu and csa).
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
    /// Which record of a multi-record CSA input (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub record: usize,
    /// CSA version to write.
    #[arg(long, default_value = "2.2", value_parser = ["2.2", "3", "3.0"])]
    pub csa_version: String,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    pub file: PathBuf,
    /// Plies of the main line to play (default: all).
    #[arg(long)]
    pub ply: Option<u32>,
    /// Print SFEN instead of a BOD diagram.
    #[arg(long)]
    pub sfen: bool,
    /// Which record of a multi-record CSA file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub record: usize,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Reads a file (or stdin for `-`) into records.
pub fn load_path(path: &Path) -> anyhow::Result<Loaded> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("reading standard input")?;
        return Ok(notation::load(&bytes, None));
    }
    // `fs::read` (and `File::read_to_end`) ask the file's size and position first: two more
    // system calls per file of a batch. Records are small: start with room for a typical one,
    // let larger ones grow, and read through `Take`, which does not ask.
    let mut bytes = Vec::with_capacity(64 * 1024);
    std::fs::File::open(path)
        .and_then(|f| f.take(u64::MAX).read_to_end(&mut bytes))
        .with_context(|| format!("{}: cannot read", path.display()))?;
    Ok(notation::load(&bytes, Some(path)))
}

fn pick_record(loaded: &Loaded, n: usize, path: &Path) -> anyhow::Result<usize> {
    if n == 0 || n > loaded.records.len() {
        anyhow::bail!(
            "{}: --record {n}: the file holds {} record(s)",
            path.display(),
            loaded.records.len()
        );
    }
    Ok(n - 1)
}

/// Diagnostics quote the file's own text: like everything shown from a file, they are
/// stripped of control characters and escape sequences first.
fn print_warnings(name: &str, warnings: &[Diagnostic], out: &mut impl Write) {
    for w in warnings {
        let _ = writeln!(out, "{}", sanitize(&w.with_file(name)));
    }
}

pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        None => run_viewer(cli.view),
        Some(Command::Convert(a)) => convert(a),
        Some(Command::Show(a)) => show(a),
        Some(Command::Check(a)) => check(a),
        Some(Command::Analyze(a)) => crate::analyze_cli::analyze(a),
        Some(Command::Mate(a)) => crate::analyze_cli::mate(a),
        Some(Command::Completions { shell }) => {
            use clap::CommandFactory;
            let mut cmd = Cli::command();
            clap_complete::generate(shell, &mut cmd, "kifview", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
    }
}

fn run_viewer(v: ViewArgs) -> ExitCode {
    let mut ply = v.ply;
    if let Some(p) = &v.plus_ply {
        match p.strip_prefix('+').and_then(|n| n.parse::<u32>().ok()) {
            Some(n) => ply = Some(n),
            None => {
                eprintln!("kifview: expected +N (a ply number) after the file, got '{p}'");
                return ExitCode::from(2);
            }
        }
    }
    let opts = LaunchOptions {
        file: v.file,
        ply,
        record: v.record,
        flip: v.flip,
        config: v.config,
        handicap: v.handicap,
        watch: v.watch,
    };
    match kifview::tui::run(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kifview: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn ext_format(path: &Path) -> Option<ToFormat> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    <ToFormat as ValueEnum>::value_variants()
        .iter()
        .copied()
        .find(|t| t.ext() == ext)
}

impl ToFormat {
    fn ext(self) -> &'static str {
        match self {
            ToFormat::Kif => "kif",
            ToFormat::Kifu => "kifu",
            ToFormat::Csa => "csa",
            ToFormat::Ki2 => "ki2",
            ToFormat::Ki2u => "ki2u",
            ToFormat::Jkf => "jkf",
            ToFormat::Usi => "usi",
            ToFormat::Sfen => "sfen",
            ToFormat::Bod => "bod",
        }
    }
    fn default_encoding(self) -> TextEncoding {
        match self {
            ToFormat::Kif | ToFormat::Ki2 => TextEncoding::ShiftJis,
            _ => TextEncoding::Utf8,
        }
    }
    fn format(self) -> Format {
        match self {
            ToFormat::Kif | ToFormat::Kifu => Format::Kif,
            ToFormat::Ki2 | ToFormat::Ki2u => Format::Ki2,
            ToFormat::Csa => Format::Csa,
            ToFormat::Jkf => Format::Jkf,
            ToFormat::Usi => Format::Usi,
            ToFormat::Sfen => Format::Sfen,
            ToFormat::Bod => Format::Bod,
        }
    }
}

struct Job {
    input: PathBuf,
    output: Option<PathBuf>,
    /// The output name had to keep the input's extension to avoid a clash.
    renamed: bool,
}

/// Extensions of the files a recursive conversion picks up.
const RECORD_EXTENSIONS: &[&str] = &["kif", "kifu", "csa", "ki2", "ki2u", "jkf", "usi", "sfen"];

/// Files to convert: the inputs, with directories walked when `recursive`. Each entry is the
/// file and the directory its output path is relative to.
fn expand_inputs(
    inputs: &[PathBuf],
    recursive: bool,
) -> Result<Vec<(PathBuf, Option<PathBuf>)>, String> {
    let mut out = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            out.push((input.clone(), None));
            continue;
        }
        if !recursive {
            return Err(format!(
                "{} is a directory: use -r to convert the records in it",
                input.display()
            ));
        }
        let mut files = Vec::new();
        let mut stack = vec![input.clone()];
        while let Some(d) = stack.pop() {
            let rd = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
            for e in rd.flatten() {
                let p = e.path();
                let ft = e.file_type().map_err(|e| format!("{}: {e}", p.display()))?;
                if ft.is_dir() {
                    stack.push(p);
                } else if p
                    .extension()
                    .and_then(|x| x.to_str())
                    .is_some_and(|x| RECORD_EXTENSIONS.contains(&x.to_ascii_lowercase().as_str()))
                {
                    files.push(p);
                }
            }
        }
        files.sort();
        out.extend(files.into_iter().map(|f| (f, Some(input.clone()))));
    }
    Ok(out)
}

/// Decides every output path; two inputs never write the same file.
fn plan_outputs(
    inputs: Vec<(PathBuf, Option<PathBuf>)>,
    a: &ConvertArgs,
    to: ToFormat,
) -> Vec<Job> {
    let mut seen = std::collections::HashSet::new();
    inputs
        .into_iter()
        .map(|(input, base)| {
            let (output, renamed) = match (&a.output, &a.out_dir) {
                (Some(o), _) => (Some(o.clone()), false),
                (None, Some(d)) => {
                    let rel = base
                        .as_deref()
                        .and_then(|b| input.strip_prefix(b).ok())
                        .map(Path::to_path_buf)
                        .unwrap_or_else(|| {
                            PathBuf::from(input.file_name().unwrap_or_else(|| "stdin".as_ref()))
                        });
                    let mut p = d.join(&rel);
                    p.set_extension(to.ext());
                    let mut renamed = false;
                    if !seen.insert(p.clone()) {
                        let mut name = rel.file_name().unwrap_or_default().to_os_string();
                        name.push(".");
                        name.push(to.ext());
                        p = d.join(&rel).with_file_name(name);
                        seen.insert(p.clone());
                        renamed = true;
                    }
                    (Some(p), renamed)
                }
                (None, None) => (None, false),
            };
            Job {
                input,
                output,
                renamed,
            }
        })
        .collect()
}

/// What converting one input produced (printed in input order).
struct JobResult {
    stderr: Vec<u8>,
    stdout: Vec<u8>,
    failed: bool,
}

fn convert(a: ConvertArgs) -> ExitCode {
    let usage = |m: &str| {
        eprintln!("kifview convert: {m}");
        ExitCode::from(2)
    };
    let to = match (a.to, &a.output) {
        (Some(t), _) => t,
        (None, Some(o)) => match ext_format(o) {
            Some(t) => t,
            None => {
                return usage(&format!(
                    "cannot tell the output format from '{}': use --to FORMAT",
                    o.display()
                ));
            }
        },
        (None, None) => {
            return usage("say the output format with --to kif|kifu|csa|ki2|ki2u|jkf|usi|sfen|bod");
        }
    };
    let inputs = match expand_inputs(&a.inputs, a.recursive) {
        Ok(i) => i,
        Err(m) => return usage(&m),
    };
    if (inputs.len() > 1 || a.recursive) && a.out_dir.is_none() {
        return usage("several inputs need --out-dir DIR");
    }
    if let Some(d) = &a.out_dir
        && let Err(e) = std::fs::create_dir_all(d)
    {
        eprintln!("kifview convert: {}: {e}", d.display());
        return ExitCode::from(1);
    }
    let jobs = plan_outputs(inputs, &a, to);
    // Every output directory once, before the workers start (not once per file).
    let dirs: std::collections::BTreeSet<&Path> = jobs
        .iter()
        .filter_map(|j| j.output.as_deref()?.parent())
        .filter(|d| !d.as_os_str().is_empty())
        .collect();
    for d in dirs {
        if let Err(e) = std::fs::create_dir_all(d) {
            eprintln!("kifview convert: {}: cannot create: {e}", d.display());
            return ExitCode::from(1);
        }
    }
    let encoding = a
        .encoding
        .map(|e| match e {
            EncodingArg::Utf8 => TextEncoding::Utf8,
            EncodingArg::ShiftJis => TextEncoding::ShiftJis,
        })
        .unwrap_or(to.default_encoding());
    let target = Target {
        format: to.format(),
        csa_v3: a.csa_version != "2.2",
        // A UTF-8 `.kif` says so, or other programs would read it as Shift_JIS.
        declare_encoding: to == ToFormat::Kif && encoding == TextEncoding::Utf8,
    };
    let progress = if jobs.len() > 1 {
        indicatif::ProgressBar::with_draw_target(
            Some(jobs.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    let batch = jobs.len() > 1;
    let results = run_parallel(&jobs, |job| {
        let r = convert_one(job, target, encoding, a.record, batch);
        progress.inc(1);
        r
    });
    progress.finish_and_clear();
    if batch && let Some(d) = &a.out_dir {
        let written: Vec<PathBuf> = jobs
            .iter()
            .zip(&results)
            .filter(|(_, r)| !r.failed)
            .filter_map(|(j, _)| j.output.clone())
            .collect();
        if let Err(e) = flush_filesystem(d, &written) {
            eprintln!(
                "kifview convert: {}: could not flush to disk: {e}",
                d.display()
            );
            return ExitCode::from(1);
        }
    }
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let (mut so, mut se) = (stdout.lock(), stderr.lock());
    let (mut failures, mut warned) = (Vec::new(), 0);
    for (job, r) in jobs.iter().zip(&results) {
        let _ = se.write_all(&r.stderr);
        let _ = so.write_all(&r.stdout);
        if r.failed {
            failures.push(job.input.display().to_string());
        } else if !r.stderr.is_empty() {
            warned += 1;
        }
    }
    let _ = so.flush();
    if jobs.len() > 1 {
        let _ = writeln!(
            se,
            "converted {} of {} files ({warned} with warnings), {} failed{}",
            jobs.len() - failures.len(),
            jobs.len(),
            failures.len(),
            if failures.is_empty() {
                String::new()
            } else {
                format!(": {}", failures.join(", "))
            }
        );
    }
    if !failures.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs `f` over `jobs` on every core; results come back in input order.
fn run_parallel<T: Send>(jobs: &[Job], f: impl Fn(&Job) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(jobs.len())
        .max(1);
    if threads == 1 {
        return jobs.iter().map(&f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut slots: Vec<Option<T>> = (0..jobs.len()).map(|_| None).collect();
    let parts: Vec<Vec<(usize, T)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= jobs.len() {
                            break;
                        }
                        mine.push((i, f(&jobs[i])));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker panicked"))
            .collect()
    });
    for (i, t) in parts.into_iter().flatten() {
        slots[i] = Some(t);
    }
    slots
        .into_iter()
        .map(|t| t.expect("every job ran"))
        .collect()
}

/// Converts one input. In a batch, files are replaced by rename without one fsync each (the
/// caller flushes the file system once at the end); a single output is fully synced.
fn convert_one(
    job: &Job,
    target: Target,
    encoding: TextEncoding,
    record: usize,
    batch: bool,
) -> JobResult {
    let mut r = JobResult {
        stderr: Vec::new(),
        stdout: Vec::new(),
        failed: false,
    };
    let name = job.input.display().to_string();
    let loaded = match load_path(&job.input) {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(r.stderr, "{e:#}");
            r.failed = true;
            return r;
        }
    };
    let idx = match pick_record(&loaded, record, &job.input) {
        Ok(i) => i,
        Err(e) => {
            let _ = writeln!(r.stderr, "{e}");
            r.failed = true;
            return r;
        }
    };
    let parsed = &loaded.records[idx];
    print_warnings(&name, &parsed.warnings, &mut r.stderr);
    let info = TextInfo {
        encoding,
        bom: false,
        newline: loaded.info.newline,
        lossy: false,
    };
    let info = if job.output.is_none() {
        TextInfo {
            newline: Newline::Lf,
            ..info
        }
    } else {
        info
    };
    let (bytes, losses) = match notation::to_bytes(&parsed.record, target, &info) {
        Ok(x) => x,
        Err(e) => {
            let _ = writeln!(
                r.stderr,
                "{name}: not converted: {e} (use --encoding utf-8 to keep these characters)"
            );
            r.failed = true;
            return r;
        }
    };
    for l in &losses {
        let line = format!(
            "{name}: warning: {} cannot hold {l}; not written",
            target.format.name()
        );
        let _ = writeln!(r.stderr, "{}", sanitize(&line));
    }
    match &job.output {
        None => r.stdout = bytes,
        Some(out) => {
            if job.renamed {
                let _ = writeln!(
                    r.stderr,
                    "{name}: written as {} (another input has the same name)",
                    out.display()
                );
            }
            let written = if batch {
                write_replace_unsynced(out, &bytes)
            } else {
                write_atomic(out, &bytes)
            };
            if let Err(e) = written {
                let _ = writeln!(r.stderr, "{}: cannot write: {e}", out.display());
                r.failed = true;
            }
        }
    }
    r
}

fn show(a: ShowArgs) -> ExitCode {
    let loaded = match load_path(&a.file) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e:#}");
            return ExitCode::from(1);
        }
    };
    let idx = match pick_record(&loaded, a.record, &a.file) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let parsed = &loaded.records[idx];
    print_warnings(
        &a.file.display().to_string(),
        &parsed.warnings,
        &mut std::io::stderr(),
    );
    let node = node_at_ply(&parsed.record, a.ply);
    let text = if a.sfen {
        let mut s = parsed.record.position_at(node).to_sfen();
        s.push('\n');
        s
    } else {
        bod::write_bod(&parsed.record, node)
    };
    print!("{text}");
    ExitCode::SUCCESS
}

/// The main-line node after `ply` moves (special endings are not positions: stop before them).
fn node_at_ply(r: &Record, ply: Option<u32>) -> NodeId {
    let line = r.main_line();
    let mut node = NodeId::ROOT;
    for &id in &line[1..] {
        if r.node(id).move_data().is_none() {
            break;
        }
        if ply.is_some_and(|p| r.node(id).ply > p) {
            break;
        }
        node = id;
    }
    node
}

fn check(a: CheckArgs) -> ExitCode {
    let jobs: Vec<Job> = a
        .files
        .iter()
        .map(|f| Job {
            input: f.clone(),
            output: None,
            renamed: false,
        })
        .collect();
    let results = run_parallel(&jobs, |job| {
        let mut out = Vec::new();
        let name = job.input.display().to_string();
        match load_path(&job.input) {
            Err(e) => {
                let _ = writeln!(out, "{e:#}");
                (out, true)
            }
            Ok(l) => {
                let mut bad = false;
                for p in &l.records {
                    print_warnings(&name, &p.warnings, &mut out);
                    bad |= !p.warnings.is_empty();
                }
                (out, bad)
            }
        }
    });
    let mut failed = false;
    let stdout = std::io::stdout();
    let mut so = stdout.lock();
    for (text, bad) in results {
        let _ = so.write_all(&text);
        failed |= bad;
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
