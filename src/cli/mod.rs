//! Command-line interface: the arguments, the viewer launcher, and one file per subcommand
//! (`convert`, `show`, `check`, `analyze` with `mate`, `diagram`, `collection` for
//! `index`/`find`/`explore`/`games`, `report`, `repertoire` (`check`), `book` for `kifview book
//! ...`, `problems` for `kifview problems make` (`problems_tsume` for `kifview problems
//! tsume`), `train` for `kifview train ...`, and `matches` for `kifview match` and `kifview
//! match report`).
//!
//! Exit codes: 0 success, 1 when any input failed (the others are still processed) or a batch's
//! inputs hold no record file, 2 bad usage.

mod analyze;
mod book;
mod book_build;
mod collection;
mod diagram;
mod matches;
mod problems;
mod problems_tsume;
mod repertoire;
mod report;
mod train;
mod train_drills;

use clap::{Args, Parser, Subcommand};
use kifview::app::LaunchOptions;
use kifview::core::rules::{HANDICAPS, Handicap};
use kifview::core::text::sanitize;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "kifview",
    version,
    about = "View, study and convert shogi game records (KIF, KIFU, KI2, CSA, SFEN/USI, JKF)",
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  kifview game.kif            open the viewer\n  kifview game.kif +40        open at move 40 (also: -n 40)\n  kifview ~/kifu              the library: index the folder, list its games\n  kifview convert game.kif --to csa -o game.csa\n  kifview show game.kif --ply 30\n  kifview check *.kif"
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
    /// Record to open (`-` reads standard input); none starts an empty 平手 record. A folder
    /// opens the library: the folder indexed into the index, its games listed.
    pub file: Option<PathBuf>,
    /// `+N`: open at move N, as the record numbers its moves (KifuBase convention).
    #[arg(value_name = "+N", allow_hyphen_values = false)]
    pub plus_ply: Option<String>,
    /// Open at move N of the main line, as the record numbers its moves (ShogiGUI convention).
    #[arg(short = 'n', value_name = "N")]
    pub ply: Option<u32>,
    /// With +N: move N of a variation, `M:A[,M:A…]` (at move M its A-th variation, from 1; as
    /// `kifview find` prints it for a position only a variation reaches).
    #[arg(long, value_name = "M:A[,M:A…]")]
    pub variation: Option<String>,
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
    /// The collection the explorer pane (`x`) and the library (`O`) read (default:
    /// $KIFVIEW_INDEX, else the platform data directory's kifview/collection, as `kifview
    /// index` makes it); without a file, the library of that index opens.
    #[arg(long, value_name = "IDX")]
    pub index: Option<PathBuf>,
    /// An opening book (YaneuraOu .db) for the book pane (`T`); repeat it for several. The
    /// config's `[books] files` open too.
    #[arg(long, value_name = "FILE")]
    pub book: Vec<PathBuf>,
    /// Who "me" is in the collection (a name or an account; repeatable), instead of the
    /// config's `[collection] me`: the filter `me`, results from my side, the explorer as me.
    #[arg(long, value_name = "NAME")]
    pub me: Vec<String>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert records between formats.
    #[command(
        after_help = "Examples:\n  kifview convert game.kif --to csa             CSA on stdout\n  kifview convert game.kif -o game.kifu          format from the extension\n  kifview convert *.kif --to csa --out-dir out/\n  kifview convert game.kifu --to kif --encoding utf-8 -o game.kif"
    )]
    Convert(convert::ConvertArgs),
    /// Print the position after N plies of the main line as a BOD diagram (or SFEN).
    #[command(
        after_help = "Examples:\n  kifview show game.kif              the final position\n  kifview show game.kif --ply 0      the start position\n  kifview show game.csa --ply 30 --sfen"
    )]
    Show(show::ShowArgs),
    /// Read and replay every line of every file; print FILE:LINE: message per problem.
    #[command(
        after_help = "Exit status: 0 every file clean, 1 any file with a warning or unreadable (or no record file found), 2 bad usage.\n\nExamples:\n  kifview check game.kif\n  kifview check records/*.kif && echo all good\n  kifview check -r records/"
    )]
    Check(check::CheckArgs),
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
        after_help = "Examples:\n  kifview index ~/kifu                     into the default index\n  kifview index /data/floodgate --index fg.idx\n  kifview index ~/kifu --variations        variations' positions too\n  kifview index --forget ~/old-kifu         drop a folder (renamed, deleted) from the index"
    )]
    Index(collection::IndexArgs),
    /// List the indexed games that reach a position.
    #[command(
        after_help = "Examples:\n  kifview find --position \"startpos moves 7g7f 3c3d 2g2f\"\n  kifview find --file game.kif --ply 30 --player 羽生 --json\n  kifview find --sfen \"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\" --index fg.idx"
    )]
    Find(collection::QueryArgs),
    /// The moves played from a position in the indexed games, with their results.
    #[command(
        after_help = "Examples:\n  kifview explore --position startpos\n  kifview explore --position startpos --notation usi\n  kifview explore --position \"startpos moves 7g7f\" --from 2020 --json"
    )]
    Explore(collection::ExploreArgs),
    /// The catalog of indexed games, filtered.
    #[command(
        after_help = "Examples:\n  kifview games --player 藤井 --result sente\n  kifview games --tag 矢倉 --json | jq .path"
    )]
    Games(collection::GamesArgs),
    /// Every strategy and castle tag of the indexed games (filtered), with its count.
    #[command(after_help = "Examples:\n  kifview tags\n  kifview tags --player 藤井 --json")]
    Tags(collection::GamesArgs),
    /// The tournament table of the indexed games (results by side, 千日手, 持将棋, 先手勝率,
    /// average plies) grouped by strategy, castle, player, event, year or month; with
    /// --player NAME (or me: --player me, --me NAME), that player's dossier.
    #[command(
        after_help = "Examples:\n  kifview report --event 竜王戦 --by strategy\n  kifview report --from 2024 --by month --format json\n  kifview report --event WCSC --format html > wcsc.html\n  kifview report --player 藤井 --format md\n  kifview report --player me --from 2024"
    )]
    Report(report::ReportArgs),
    /// A player's games against their repertoire (a record with variations, or a book).
    Repertoire(repertoire::RepertoireArgs),
    /// Draw positions as SVG or PNG diagrams: one, every bookmark, or whole collections.
    #[command(
        after_help = "Examples:\n  kifview diagram game.kif -o game.svg           the final position\n  kifview diagram game.kif --ply 40 -o p40.png\n  kifview diagram game.kif --bookmarks --out-dir pics/ --format png\n  kifview diagram -r games/ --out-dir pics/ --ply 30 --flip\n  kifview diagram --sfen '4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1' -o tsume.svg"
    )]
    Diagram(diagram::DiagramArgs),
    /// Opening books: convert between formats, merge, show a position's moves, check.
    Book(book::BookArgs),
    /// Training: next-move problems (次の一手) made from your analysed games, and tsume (実戦詰め)
    /// from the mating finishes of your games.
    Problems(problems::ProblemsArgs),
    /// Training: the history of your attempts (FSRS schedule) and its sources.
    Train(train::TrainArgs),
    /// Engine against engine: game pairs with colours swapped, SPRT, every game a record.
    #[command(
        after_help = "Examples:\n  kifview match --engine yane --engine 'yane,name=yane-new,EvalDir=new' --tc 10+0.1 --sprt 'elo0=0 elo1=5' --concurrency 2 --out games/\n  kifview match --engine 'fairy-stockfish,name=fs0,Skill Level=0' --engine fairy-stockfish --nodes 2000 --games 20 --json\n  kifview match report games/ --json"
    )]
    Match(matches::MatchArgs),
    /// Print shell completions.
    #[command(
        after_help = "Examples:\n  kifview completions bash > ~/.local/share/bash-completion/completions/kifview\n  kifview completions zsh > ~/.zfunc/_kifview\n  kifview completions fish > ~/.config/fish/completions/kifview.fish"
    )]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// `--record N`: a record number counts from 1.
pub(crate) fn parse_record(s: &str) -> Result<usize, String> {
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

/// Prints lines on standard error, stripped of control characters and escape sequences:
/// they quote the files' own text.
pub(crate) fn print_messages(lines: &[String]) {
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

mod check;
mod convert;
mod show;

/// The files a batch command (`convert`, `check`) works on: the inputs, with directories walked
/// when `recursive` (the record files [`kifview::convert::walk_inputs`] selects, each file or
/// folder it leaves out named on standard error: a FIFO, a device, a dangling link, a folder
/// that cannot be read). A directory
/// given without `-r` is bad usage (exit 2). A directory in which `-r` finds no record file is
/// named on standard error, and when the inputs come to no file at all that is an error (exit 1):
/// a script pointed at the wrong folder hears it instead of succeeding with nothing done.
pub(crate) fn batch_inputs(
    who: &str,
    verb: &str,
    inputs: &[PathBuf],
    recursive: bool,
) -> Result<Vec<kifview::convert::Input>, ExitCode> {
    let found = match kifview::convert::walk_inputs(inputs, recursive) {
        Ok((found, skipped)) => {
            for s in skipped {
                say!("kifview {who}: {s}");
            }
            found
        }
        Err(m) => {
            say!("kifview {who}: {}", m.replace("to convert", verb));
            return Err(ExitCode::from(2));
        }
    };
    let exts: Vec<String> = kifview::core::notation::filetype::FILE_TYPES
        .iter()
        .filter(|t| t.in_batches)
        .map(|t| format!(".{}", t.ext))
        .collect();
    for dir in inputs.iter().filter(|d| d.is_dir()) {
        if !found.iter().any(|i| i.base.as_ref() == Some(dir)) {
            say!(
                "kifview {who}: {}: no record files in it or under it (looked for {})",
                dir.display(),
                exts.join(", ")
            );
        }
    }
    // Only directories come to nothing, and each was named above.
    if found.is_empty() {
        return Err(ExitCode::from(1));
    }
    Ok(found)
}

/// Standard output that reports write errors once: a closed pipe ends the output quietly
/// (as `head` users expect); any other error (a full disk) is an error message and exit 1.
pub(crate) struct Out {
    out: std::io::StdoutLock<'static>,
    closed: bool,
    error: Option<std::io::Error>,
}

impl Out {
    pub(crate) fn new() -> Out {
        Out {
            out: std::io::stdout().lock(),
            closed: false,
            error: None,
        }
    }
    pub(crate) fn write(&mut self, bytes: &[u8]) {
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
    pub(crate) fn finish(mut self, who: &str) -> Result<(), ExitCode> {
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
        Some(Command::Convert(a)) => convert::run(a),
        Some(Command::Show(a)) => show::run(a),
        Some(Command::Check(a)) => check::run(a),
        Some(Command::Analyze(a)) => analyze::analyze(a),
        Some(Command::Mate(a)) => analyze::mate(a),
        Some(Command::Index(a)) => collection::index(a),
        Some(Command::Find(a)) => collection::find(a),
        Some(Command::Explore(a)) => collection::explore(a),
        Some(Command::Games(a)) => collection::games(a),
        Some(Command::Tags(a)) => collection::tags(a),
        Some(Command::Report(a)) => report::report(a),
        Some(Command::Repertoire(a)) => repertoire::repertoire(a),
        Some(Command::Diagram(a)) => diagram::diagram(a),
        Some(Command::Book(a)) => book::run(a),
        Some(Command::Problems(a)) => match a.command {
            problems::ProblemsCommand::Tsume(t) => problems_tsume::run(t),
            problems::ProblemsCommand::Make(m) => problems::make(m),
        },
        Some(Command::Train(a)) => train::run(a),
        Some(Command::Match(a)) => matches::run(a),
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
pub(crate) fn has_terminal() -> bool {
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
    let variation = match v
        .variation
        .as_deref()
        .map(kifview::collection::Fork::parse_arg)
    {
        None => Vec::new(),
        Some(Ok(_)) if ply.is_none() => {
            say!("kifview: --variation names the variation of a move: give the move too (+N)");
            return ExitCode::from(2);
        }
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            say!("kifview: {e}");
            return ExitCode::from(2);
        }
    };
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
        variation,
        record: v.record,
        flip: v.flip,
        config: v.config,
        handicap: v.handicap,
        watch: v.watch,
        setup: v.setup,
        engine: v.engine,
        index: v.index,
        books: v.book,
        me: v.me,
        train: None,
    };
    match kifview::tui::run(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("kifview: {e:#}");
            ExitCode::from(1)
        }
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
    fn record_numbers_start_at_one() {
        assert_eq!(parse_record("3"), Ok(3));
        assert!(parse_record("0").unwrap_err().contains("from 1"));
        assert!(parse_record("x").is_err());
    }
}
