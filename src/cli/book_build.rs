//! `kifview book build`: an opening book from record files or the collection's index
//! (`kifview::book::build`), written in any book format (from the extension of `-o`).

use super::collection::{FilterArgs, filter};
use super::print_messages;
use clap::{Args, ValueEnum};
use kifview::book::build::{self, Options, Side};
use kifview::collection::Index;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    Sente,
    Gote,
    Both,
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Record files or folders (walked): every record of each file. Without any, the games of
    /// the index (`--index`, else the default one).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Build from this index's games (default without PATH: $KIFVIEW_INDEX, else the platform
    /// data directory's kifview/collection), filtered by the options below.
    #[arg(long, value_name = "IDX", conflicts_with = "paths")]
    pub index: Option<PathBuf>,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// The book to write; its format from the extension (`.db`: YaneuraOu text).
    #[arg(short = 'o', long = "output", value_name = "BOOK")]
    pub output: PathBuf,
    /// Only the moves numbered A to B from each record's start (`1-40`, `10-`, `5`).
    #[arg(long, value_name = "A-B", value_parser = build::parse_plies)]
    pub plies: Option<(u32, u32)>,
    /// Leave out moves played by fewer than N games.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_games: u64,
    /// Keep only sente's or gote's moves (a repertoire for one side).
    #[arg(long, value_enum, default_value_t = SideArg::Both)]
    pub side: SideArg,
    /// Replace BOOK if it exists.
    #[arg(long)]
    pub force: bool,
}

fn fail(code: u8, e: &str) -> ExitCode {
    print_messages(&[format!("kifview book build: {e}")]);
    ExitCode::from(code)
}

pub fn run(a: BuildArgs) -> ExitCode {
    let opts = Options {
        plies: a.plies.unwrap_or((1, u32::MAX)),
        min_games: a.min_games,
        side: match a.side {
            SideArg::Sente => Side::Sente,
            SideArg::Gote => Side::Gote,
            SideArg::Both => Side::Both,
        },
    };
    let Some(format) = kifview::book::Format::from_path(&a.output) else {
        return fail(
            2,
            &format!(
                "{}: no book format has this extension (.db: YaneuraOu text)",
                a.output.display()
            ),
        );
    };
    // A book already there is said before the build: its seconds are not spent only to be
    // thrown away. The save still checks again, atomically (something may appear meanwhile).
    if !a.force
        && let Ok(meta) = std::fs::symlink_metadata(&a.output)
    {
        let e = kifview::store::SaveError::Exists {
            path: a.output.clone(),
            link: meta.file_type().is_symlink(),
        };
        return fail(1, &format!("{e} (--force replaces it)"));
    }
    let built = if a.paths.is_empty() {
        let filter = match filter(a.filter) {
            Ok(f) => f,
            Err(e) => return fail(2, &e),
        };
        let dir = match kifview::collection::index_dir(a.index) {
            Ok(d) => d,
            Err(e) => return fail(2, &e),
        };
        let idx = match Index::open(&dir) {
            Ok(i) => i,
            Err(e) => return fail(1, &e),
        };
        match build::from_index(&idx, &filter, opts) {
            Ok(b) => b,
            Err(e) => return fail(1, &e),
        }
    } else {
        if a.filter != FilterArgs::default() {
            return fail(
                2,
                "the filters (--player, --from, ...) choose games of an index: give --index \
                 instead of PATH",
            );
        }
        let files = match super::batch_inputs("book build", "read", &a.paths, true) {
            Ok(f) => f,
            Err(c) => return c,
        };
        let paths: Vec<PathBuf> = files.into_iter().map(|i| i.path).collect();
        build::from_files(&paths, opts)
    };
    print_messages(&built.warnings);
    let (games, positions) = (built.games, built.positions.len());
    let moves: usize = built.positions.iter().map(|p| p.moves.len()).sum();
    match built.save_new(&a.output, format, a.force) {
        Ok(losses) => {
            for (what, n) in &losses.items {
                print_messages(&[format!(
                    "kifview book build: {}: the format cannot hold {n} {what}",
                    a.output.display()
                )]);
            }
            print_messages(&[format!(
                "kifview book build: {games} game(s): {positions} position(s), {moves} move(s) \
                 written to {}",
                a.output.display()
            )]);
            ExitCode::SUCCESS
        }
        Err(e) => {
            let hint = if a.output.exists() && !a.force {
                " (--force replaces it)"
            } else {
                ""
            };
            fail(1, &format!("{e}{hint}"))
        }
    }
}
