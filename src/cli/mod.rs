//! Command-line interface: the viewer launcher and the `convert`, `show` and `check` commands
//! (`analyze`, `mate`, `diagram`, and `index`/`find`/`explore`/`games` in files of their own).
//!
//! Exit codes: 0 success, 1 when any input failed (the others are still processed), 2 bad usage.

mod analyze;
mod collection;
mod diagram;

use clap::{Args, Parser, Subcommand, ValueEnum};
use kifview::app::LaunchOptions;
use kifview::app::text::sanitize;
use kifview::convert::{self, Settings};
use kifview::core::notation::TextEncoding;
use kifview::core::notation::filetype::{self, FileType};
use kifview::core::rules::{HANDICAPS, Handicap};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
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
    /// `+N`: open at move N, as the record numbers its moves (KifuBase convention).
    #[arg(value_name = "+N", allow_hyphen_values = false)]
    pub plus_ply: Option<String>,
    /// Open at move N of the main line, as the record numbers its moves (ShogiGUI convention).
    #[arg(short = 'n', value_name = "N")]
    pub ply: Option<u32>,
    /// Which record of a multi-record CSA file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = parse_record)]
    pub record: usize,
    /// Show the board from White's side.
    #[arg(long)]
    pub flip: bool,
    /// Config file (default: $KIFVIEW_CONFIG, else the platform config directory).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Start a new record from this handicap (平手, 香落ち, 角落ち, 飛車落ち, 二枚落ち, ...).
    #[arg(long, value_name = "NAME", value_parser = HandicapName)]
    pub handicap: Option<String>,
    /// Follow the file as another program writes it (a live broadcast): reload on change.
    #[arg(long)]
    pub watch: bool,
    /// Start in the position editor (局面編集): set up a position, Enter starts a record from it.
    #[arg(long)]
    pub setup: bool,
    /// USI engine for analysis (`a`): a configured [[engines]] name, a command or a path.
    #[arg(long, value_name = "NAME|PATH")]
    pub engine: Option<String>,
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
    Analyze(analyze::AnalyzeArgs),
    /// Search a position for a mate (USI go mate): prints 詰み N手: ▲…, 不詰 or 時間切れ.
    #[command(
        after_help = "Examples:\n  kifview mate tsume.kifu\n  kifview mate game.kif --ply 87 --time 30 --engine gpsusi"
    )]
    Mate(analyze::MateArgs),
    /// Index folders of records for `find`, `explore` and `games` (incremental).
    #[command(
        after_help = "Examples:\n  kifview index ~/kifu                     into the default index\n  kifview index /data/floodgate --index fg.idx\n  kifview index ~/kifu --variations        variations' positions too"
    )]
    Index(collection::IndexArgs),
    /// List the indexed games that reach a position.
    #[command(
        after_help = "Examples:\n  kifview find --position \"startpos moves 7g7f 3c3d 2g2f\"\n  kifview find --file game.kif --ply 30 --player 羽生 --json\n  kifview find --sfen \"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\" --index fg.idx"
    )]
    Find(collection::QueryArgs),
    /// The moves played from a position in the indexed games, with their results.
    #[command(
        after_help = "Examples:\n  kifview explore --position startpos\n  kifview explore --position \"startpos moves 7g7f\" --from 2020 --json"
    )]
    Explore(collection::QueryArgs),
    /// The catalog of indexed games, filtered.
    #[command(
        after_help = "Examples:\n  kifview games --player 藤井 --result sente\n  kifview games --tag 矢倉 --json | jq .path"
    )]
    Games(collection::GamesArgs),
    /// Draw positions as SVG or PNG diagrams: one, every bookmark, or whole collections.
    #[command(
        after_help = "Examples:\n  kifview diagram game.kif -o game.svg           the final position\n  kifview diagram game.kif --ply 40 -o p40.png\n  kifview diagram game.kif --bookmarks --out-dir pics/ --format png\n  kifview diagram -r games/ --out-dir pics/ --ply 30 --flip\n  kifview diagram --sfen '4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1' -o tsume.svg"
    )]
    Diagram(diagram::DiagramArgs),
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
    /// Output file (one input only; its directory must exist); without it and without
    /// --out-dir, write to stdout. Devices, FIFOs and /dev/stdout are written into.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUTPUT",
        conflicts_with = "out_dir"
    )]
    pub output: Option<PathBuf>,
    /// Directory for the outputs (needed with several inputs); created, with the
    /// subdirectories -r needs, if missing. (`-o` needs its directory to exist.)
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Output encoding (default: Shift_JIS for kif, UTF-8 for kifu and csa).
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
    /// Which record of a multi-record CSA input (1-based). Without it every record is
    /// converted: to CSA as one file, to another format as one file per record (NAME-2.kif, …).
    #[arg(long, value_name = "N", value_parser = parse_record)]
    pub record: Option<usize>,
    /// CSA version to write.
    #[arg(long, default_value = "2.2", value_parser = ["2.2", "3", "3.0"])]
    pub csa_version: String,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    pub file: PathBuf,
    /// The position after this move of the main line (default: the last), numbered as the
    /// record numbers its moves (from 81 after `手数＝80`, where 80 and below are the start);
    /// more than the main line holds is an error.
    #[arg(long)]
    pub ply: Option<u32>,
    /// Print SFEN instead of a BOD diagram.
    #[arg(long)]
    pub sfen: bool,
    /// Which record of a multi-record CSA file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = parse_record)]
    pub record: usize,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// `--record N`: a record number counts from 1.
fn parse_record(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("records are numbered from 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `--handicap NAME`: one of the KIF handicap names (or a known spelling of one); the names
/// are offered by shell completion.
#[derive(Clone, Copy)]
struct HandicapName;

impl clap::builder::TypedValueParser for HandicapName {
    type Value = String;
    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let name = value.to_string_lossy();
        if Handicap::by_name(&name).is_some() {
            return Ok(name.into_owned());
        }
        let names: Vec<&str> = HANDICAPS.iter().map(|h| h.name).collect();
        let mut e = clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd);
        use clap::error::{ContextKind, ContextValue};
        if let Some(a) = arg {
            e.insert(ContextKind::InvalidArg, ContextValue::String(a.to_string()));
        }
        e.insert(
            ContextKind::InvalidValue,
            ContextValue::String(name.into_owned()),
        );
        e.insert(
            ContextKind::ValidValue,
            ContextValue::Strings(names.iter().map(|n| n.to_string()).collect()),
        );
        Err(e)
    }
    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            HANDICAPS
                .iter()
                .map(|h| clap::builder::PossibleValue::new(h.name)),
        ))
    }
}

impl ToFormat {
    /// The extension table's entry for this format name.
    fn file_type(self) -> &'static FileType {
        let name = self.to_possible_value().expect("every format has a name");
        filetype::by_ext(name.get_name()).expect("every --to name is an extension")
    }
}

/// Prints lines on standard error, stripped of control characters and escape sequences:
/// they quote the files' own text.
fn print_messages(lines: &[String]) {
    let mut se = std::io::stderr().lock();
    for l in lines.iter().flat_map(|l| l.split('\n')) {
        let _ = writeln!(se, "{}", sanitize(l));
    }
}

/// `eprintln!` that never panics (standard error may be a closed pipe too) and strips control
/// characters (messages quote file names and file text).
macro_rules! say {
    ($($t:tt)*) => {
        print_messages(&[format!($($t)*)])
    };
}

/// Standard output that reports write errors once: a closed pipe ends the output quietly
/// (as `head` users expect); any other error (a full disk) is an error message and exit 1.
struct Out {
    out: std::io::StdoutLock<'static>,
    closed: bool,
    error: Option<std::io::Error>,
}

impl Out {
    fn new() -> Out {
        Out {
            out: std::io::stdout().lock(),
            closed: false,
            error: None,
        }
    }
    fn write(&mut self, bytes: &[u8]) {
        if self.closed || self.error.is_some() {
            return;
        }
        if let Err(e) = self.out.write_all(bytes) {
            self.failed(e);
        }
    }
    fn failed(&mut self, e: std::io::Error) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            self.closed = true;
        } else {
            self.error = Some(e);
        }
    }
    /// Flushes; `Err` with exit code 1 after a write error other than a closed pipe.
    fn finish(mut self, who: &str) -> Result<(), ExitCode> {
        if !self.closed
            && self.error.is_none()
            && let Err(e) = self.out.flush()
        {
            self.failed(e);
        }
        match self.error {
            Some(e) => {
                say!("{who}: cannot write to standard output: {e}");
                Err(ExitCode::from(1))
            }
            None => Ok(()),
        }
    }
}

pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        None => run_viewer(cli.view),
        Some(Command::Convert(a)) => convert(a),
        Some(Command::Show(a)) => show(a),
        Some(Command::Check(a)) => check(a),
        Some(Command::Analyze(a)) => analyze::analyze(a),
        Some(Command::Mate(a)) => analyze::mate(a),
        Some(Command::Index(a)) => collection::index(a),
        Some(Command::Find(a)) => collection::find(a),
        Some(Command::Explore(a)) => collection::explore(a),
        Some(Command::Games(a)) => collection::games(a),
        Some(Command::Diagram(a)) => diagram::diagram(a),
        Some(Command::Completions { shell }) => {
            use clap::CommandFactory;
            let mut cmd = Cli::command();
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut cmd, "kifview", &mut text);
            let mut out = Out::new();
            out.write(&text);
            match out.finish("kifview completions") {
                Ok(()) => ExitCode::SUCCESS,
                Err(c) => c,
            }
        }
    }
}

/// Can the viewer run: is standard output a terminal, and can keys be read from one
/// (standard input, or the controlling terminal when standard input holds the record)?
fn has_terminal() -> bool {
    std::io::stdout().is_terminal()
        && (std::io::stdin().is_terminal()
            || std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open("/dev/tty")
                .is_ok())
}

fn run_viewer(v: ViewArgs) -> ExitCode {
    let mut ply = v.ply;
    if let Some(p) = &v.plus_ply {
        match p.strip_prefix('+').and_then(|n| n.parse::<u32>().ok()) {
            Some(n) => ply = Some(n),
            None => {
                say!("kifview: expected +N (a ply number) after the file, got '{p}'");
                return ExitCode::from(2);
            }
        }
    }
    if !has_terminal() {
        let file = v
            .file
            .as_deref()
            .map_or("FILE".into(), |f| f.display().to_string());
        let why = if std::io::stdout().is_terminal() {
            "a terminal to read keys from, and there is none (standard input is not one and \
             /dev/tty cannot be opened)"
        } else {
            "a terminal, and standard output is not one"
        };
        say!(
            "kifview: the viewer needs {why}.\n\
             To print the record without one: `kifview show {file}` (a board diagram), \
             `kifview convert {file} --to kifu` (the whole record), `kifview check {file}`."
        );
        return ExitCode::from(2);
    }
    let opts = LaunchOptions {
        file: v.file,
        ply,
        record: v.record,
        flip: v.flip,
        config: v.config,
        handicap: v.handicap,
        watch: v.watch,
        setup: v.setup,
        engine: v.engine,
    };
    match kifview::tui::run(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("kifview: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn convert(a: ConvertArgs) -> ExitCode {
    let usage = |m: &str| {
        say!("kifview convert: {m}");
        ExitCode::from(2)
    };
    // `kifview convert a.kif b.csa`: the second name is an output, not an input.
    if let [first, second] = a.inputs.as_slice()
        && a.output.is_none()
        && a.out_dir.is_none()
        && !a.recursive
        && !second.is_dir()
        && filetype::for_path(second).is_some_and(|t| t.writable)
    {
        return usage(&format!(
            "two inputs and no --out-dir; to write {0}, say `kifview convert {1} -o {0}`",
            second.display(),
            first.display()
        ));
    }
    let file_type = match (a.to, &a.output) {
        (Some(t), _) => t.file_type(),
        (None, Some(o)) => match filetype::for_path(o).filter(|t| t.writable) {
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
    let inputs = match convert::expand_inputs(&a.inputs, a.recursive) {
        Ok(i) => i,
        Err(m) => return usage(&m),
    };
    if (inputs.len() > 1 || a.recursive) && a.out_dir.is_none() {
        return usage("several inputs need --out-dir DIR");
    }
    let jobs = convert::plan_outputs(
        inputs,
        a.output.as_deref(),
        a.out_dir.as_deref(),
        file_type.ext,
    );
    // --out-dir and the layout under it are created (every directory once, before the
    // workers start); `-o` needs its directory to exist.
    if let Some(d) = &a.out_dir {
        let mut dirs = convert::missing_dirs(&jobs);
        if !d.is_dir() {
            dirs.insert(0, d.clone());
        }
        for d in dirs {
            if let Err(e) = std::fs::create_dir_all(&d) {
                say!("kifview convert: {}: cannot create: {e}", d.display());
                return ExitCode::from(1);
            }
        }
    }
    let encoding = a.encoding.map(|e| match e {
        EncodingArg::Utf8 => TextEncoding::Utf8,
        EncodingArg::ShiftJis => TextEncoding::ShiftJis,
    });
    let settings = Settings::new(file_type, encoding, a.csa_version != "2.2", a.record);
    let progress = if jobs.len() > 1 {
        indicatif::ProgressBar::with_draw_target(
            Some(jobs.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    let results = convert::convert_all(&jobs, &settings, a.out_dir.as_deref(), || progress.inc(1));
    progress.finish_and_clear();
    let results = match results {
        Ok(r) => r,
        Err(e) => {
            say!("kifview convert: {e}");
            return ExitCode::from(1);
        }
    };
    let terminal = std::io::stdout().is_terminal();
    let mut out = Out::new();
    let (mut failures, mut warned) = (Vec::new(), 0);
    for (job, r) in jobs.iter().zip(&results) {
        print_messages(&r.messages);
        if terminal && !r.stdout.is_empty() {
            write_for_terminal(&mut out, &r.stdout, settings.encoding);
        } else {
            out.write(&r.stdout);
        }
        if r.failed {
            failures.push(job.input.display().to_string());
        } else if !r.messages.is_empty() {
            warned += 1;
        }
    }
    if let Err(code) = out.finish("kifview convert") {
        return code;
    }
    if jobs.len() > 1 {
        let summary = format!(
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
        print_messages(&[summary]);
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// A conversion shown on a terminal: the text as the viewer would show it (control characters
/// and escape sequences replaced, Shift_JIS shown as text), with a note when that changed
/// anything. Files and pipes get the exact bytes.
fn write_for_terminal(out: &mut Out, bytes: &[u8], encoding: TextEncoding) {
    let text = kifview::core::notation::encoding::decode(bytes, encoding).text;
    let mut shown = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let clean = sanitize(line.trim_end_matches(['\n', '\r']));
        changed |= matches!(clean, std::borrow::Cow::Owned(_));
        shown.push_str(&clean);
        if line.ends_with('\n') {
            shown.push('\n');
        }
    }
    let mut notes = Vec::new();
    if changed {
        notes.push("control characters and escape sequences were replaced by \u{FFFD}");
    }
    if encoding != TextEncoding::Utf8 {
        notes.push("Shift_JIS is shown as text");
    }
    out.write(shown.as_bytes());
    if !notes.is_empty() {
        print_messages(&[format!(
            "kifview convert: standard output is a terminal: {}; redirect to a file or a pipe for the exact bytes",
            notes.join("; ")
        )]);
    }
}

fn show(a: ShowArgs) -> ExitCode {
    let loaded = match convert::load_input(&a.file) {
        Ok(l) => l,
        Err(e) => {
            print_messages(&[e]);
            return ExitCode::from(1);
        }
    };
    let parsed = match convert::pick_record(&loaded, a.record, &a.file) {
        Ok(p) => p,
        Err(e) => {
            print_messages(&[e]);
            return ExitCode::from(2);
        }
    };
    let name = a.file.display().to_string();
    let warnings: Vec<String> = convert::warning_lines(&name, parsed).collect();
    print_messages(&warnings);
    let text = match convert::position_text(&parsed.record, a.ply, a.sfen) {
        Ok(t) => t,
        Err(e) => {
            print_messages(&[format!("{name}: {e}")]);
            return ExitCode::from(2);
        }
    };
    let mut out = Out::new();
    out.write(text.as_bytes());
    match out.finish("kifview show") {
        Ok(()) => ExitCode::SUCCESS,
        Err(c) => c,
    }
}

fn check(a: CheckArgs) -> ExitCode {
    let results = convert::check_all(&a.files);
    let mut failed = false;
    let mut out = Out::new();
    for r in &results {
        let mut text = String::new();
        for l in &r.messages {
            text.push_str(&sanitize(l));
            text.push('\n');
        }
        out.write(text.as_bytes());
        failed |= r.failed;
    }
    if let Err(code) = out.finish("kifview check") {
        return code;
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn every_output_format_is_a_writable_entry_of_the_table() {
        for t in ToFormat::value_variants() {
            let ty = t.file_type();
            assert!(ty.writable, "{}", ty.ext);
        }
        assert_eq!(ToFormat::Kif.file_type().encoding, TextEncoding::ShiftJis);
        assert_eq!(ToFormat::Ki2u.file_type().encoding, TextEncoding::Utf8);
    }

    #[test]
    fn record_numbers_start_at_one() {
        assert_eq!(parse_record("3"), Ok(3));
        assert!(parse_record("0").unwrap_err().contains("from 1"));
        assert!(parse_record("x").is_err());
    }
}
