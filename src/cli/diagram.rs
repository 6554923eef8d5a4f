//! `kifview diagram`: its arguments, and the calls into [`kifview::diagram`].

use super::{Out, parse_record, print_messages};
use clap::{ArgGroup, Args, ValueEnum};
use kifview::app::Config;
use kifview::convert::{self, Input};
use kifview::core::notation::Parsed;
use kifview::diagram::names::{self, Pick};
use kifview::diagram::render::{self, Fonts, MISSING};
use kifview::diagram::{Diagram, Theme, svg};
use kifview::load;
use kifview::store::{self, SaveOptions};
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("which").args(["ply", "bookmarks", "every", "all"])))]
#[command(group(ArgGroup::new("bare").args(["position", "sfen"]).conflicts_with("inputs")))]
pub struct DiagramArgs {
    /// Records to draw (directories with -r).
    #[arg(value_name = "INPUT", required_unless_present_any = ["position", "sfen"])]
    pub inputs: Vec<PathBuf>,
    /// Draw every record file under the given directories, keeping their layout in --out-dir.
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// The position after this move of the main line, numbered as the record numbers its
    /// moves (default: the last).
    #[arg(long, value_name = "N")]
    pub ply: Option<u32>,
    /// Every bookmarked position, each file named after its bookmark.
    #[arg(long)]
    pub bookmarks: bool,
    /// The start and every N-th position of the main line.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub every: Option<u32>,
    /// Every position of the main line.
    #[arg(long)]
    pub all: bool,
    /// Which record of a multi-record CSA file (1-based; default: every record with
    /// --out-dir, each named NAME-recordN-…, else the first).
    #[arg(long, value_name = "N", value_parser = parse_record)]
    pub record: Option<usize>,
    /// Gote's view: gote's side at the bottom.
    #[arg(long)]
    pub flip: bool,
    /// Output format (default: from -o's extension, else svg).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// The picture's width in pixels (default: 408 for SVG, 816 for PNG).
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub size: Option<u32>,
    /// SVG: draw the text as outlines (paths) so that it needs no font where it is shown.
    #[arg(long)]
    pub outline_text: bool,
    /// Do not mark the last move's square.
    #[arg(long)]
    pub no_highlight: bool,
    /// Output file, NAME.svg or NAME.png (one diagram; its directory must exist). Without -o
    /// or --out-dir, one diagram goes to standard output.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUTPUT",
        conflicts_with = "out_dir"
    )]
    pub output: Option<PathBuf>,
    /// Directory for the diagrams (created if missing), named `NAME-ply040.svg` or after the
    /// bookmark, keeping the layout of the directories given with -r. Two inputs of one name
    /// never write the same file (the second is `NAME-csa-…` or `NAME-2-…`); a symbolic link
    /// in it is never written through.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Replace files that already exist (without it they are left alone and named).
    #[arg(long)]
    pub force: bool,
    /// Config file, for its [diagram] theme (default: $KIFVIEW_CONFIG, else the platform
    /// config directory).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Draw a bare position given as SFEN instead of a record.
    #[arg(long, value_name = "SFEN")]
    pub sfen: Option<String>,
    /// Draw a bare position given as text: `startpos moves 7g7f …`, a USI `position` line or a
    /// BOD diagram.
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    fn ext(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }
}

/// Everything a worker needs to draw and write.
struct Plan<'a> {
    pick: Pick,
    format: Format,
    size: Option<u32>,
    outline: bool,
    flip: bool,
    record: Option<usize>,
    force: bool,
    /// The files this run has written or is writing (lower case: a file system may not tell
    /// `Game` from `game`), so that no two diagrams of one run get one name.
    taken: Mutex<HashSet<String>>,
    theme: &'a Theme,
    fonts: &'a Fonts,
    /// Where every diagram of an input goes: one file, a directory, or standard output.
    to: To<'a>,
}

#[derive(Clone, Copy)]
enum To<'a> {
    Stdout,
    File(&'a Path),
    Dir(&'a Path),
}

/// What drawing one input did.
#[derive(Default)]
struct Done {
    messages: Vec<String>,
    stdout: Vec<u8>,
    written: Vec<PathBuf>,
    failed: bool,
}

pub fn diagram(a: DiagramArgs) -> ExitCode {
    let usage = |m: &str| {
        say(format!("kifview diagram: {m}"));
        ExitCode::from(2)
    };
    let format = match output_format(a.format, a.output.as_deref()) {
        Ok(f) => f,
        Err(m) => return usage(&m),
    };
    let pick = match (a.ply, a.bookmarks, a.every, a.all) {
        (Some(p), ..) => Pick::Ply(p),
        (_, true, ..) => Pick::Bookmarks,
        (_, _, Some(n), _) => Pick::Every(n),
        (.., true) => Pick::All,
        _ => Pick::Last,
    };
    let bare = bare_text(&a);
    let inputs = match &bare {
        Some(_) => vec![Input {
            path: PathBuf::from("position"),
            base: None,
        }],
        // Each file the walk leaves out (a FIFO, a device, a dangling link, a folder that
        // cannot be read) is named, as `index` names it.
        None => match convert::walk_inputs(&a.inputs, a.recursive) {
            Ok((i, skipped)) => {
                let lines: Vec<String> = skipped
                    .iter()
                    .map(|s| format!("kifview diagram: {s}"))
                    .collect();
                print_messages(&lines);
                i
            }
            Err(m) => return usage(&m),
        },
    };
    let single = inputs.len() == 1 && !a.recursive && matches!(pick, Pick::Last | Pick::Ply(_));
    let to = match (&a.output, &a.out_dir) {
        (Some(o), _) if single => To::File(o),
        (Some(_), _) => return usage("-o writes one diagram; for several use --out-dir DIR"),
        (None, Some(d)) => To::Dir(d),
        (None, None) if single => To::Stdout,
        (None, None) => return usage("several diagrams need --out-dir DIR"),
    };
    if matches!(to, To::Stdout) && format == Format::Png && std::io::stdout().is_terminal() {
        return usage("a PNG is not shown on a terminal: use -o FILE.png or redirect the output");
    }
    if let Some(d) = &a.out_dir
        && let Err(e) = std::fs::create_dir_all(d)
    {
        say(format!(
            "kifview diagram: {}: cannot create: {e}",
            d.display()
        ));
        return ExitCode::from(1);
    }
    let theme = match Config::load(a.config.as_deref()) {
        Ok(c) => Theme {
            mark_last_move: c.diagram.mark_last_move && !a.no_highlight,
            ..c.diagram
        },
        Err(e) => {
            say(format!("kifview diagram: {e}"));
            return ExitCode::from(2);
        }
    };
    let fonts = Fonts::new();
    let plan = Plan {
        pick,
        format,
        size: a.size.or((format == Format::Png).then_some(816)),
        outline: a.outline_text,
        flip: a.flip,
        record: a.record,
        force: a.force,
        taken: Mutex::new(HashSet::new()),
        theme: &theme,
        fonts: &fonts,
        to,
    };
    let batch = inputs.len() > 1;
    let stems = stems(&inputs, bare.is_some());
    let jobs: Vec<(&Input, &String)> = inputs.iter().zip(&stems).collect();
    let done = kifview::pool::map_in_order(&jobs, |(i, stem)| {
        draw_input(i, stem, bare.as_deref(), &plan, batch)
    });
    finish(&inputs, &done, &a)
}

/// The format `--format` and `-o NAME` say: NAME's extension is `.svg` or `.png` (or none, as
/// `/dev/stdout` has), and says the same as `--format`.
fn output_format(format: Option<Format>, output: Option<&Path>) -> Result<Format, String> {
    let ext = output.and_then(|o| Some((o, o.extension()?.to_string_lossy())));
    let by_name = match &ext {
        None => None,
        Some((_, e)) if e.eq_ignore_ascii_case("svg") => Some(Format::Svg),
        Some((_, e)) if e.eq_ignore_ascii_case("png") => Some(Format::Png),
        Some((o, _)) => {
            return Err(format!(
                "{}: a diagram is written as NAME.svg or NAME.png",
                o.display()
            ));
        }
    };
    match (format, by_name) {
        (Some(f), Some(n)) if f != n => Err(format!(
            "{}: --format {} is written as NAME.svg or NAME.png to match",
            ext.map(|(o, _)| o.display().to_string())
                .unwrap_or_default(),
            f.ext()
        )),
        (f, n) => Ok(f.or(n).unwrap_or(Format::Svg)),
    }
}

/// The folder under --out-dir where an input's diagrams go: its folder under the directory
/// given with -r, else --out-dir itself.
fn rel_dir(input: &Input) -> &Path {
    input
        .base
        .as_deref()
        .and_then(|b| input.path.parent()?.strip_prefix(b).ok())
        .unwrap_or(Path::new(""))
}

/// Each input's stem for its diagrams' names, unique among the inputs that write into one
/// folder: `game`; `game-csa` for a `game.csa` after a `game.kif`; else `game-2`, `game-3`, …
/// (never another input's own stem). Decided before drawing, in input order, so that a run
/// names its files the same every time.
fn stems(inputs: &[Input], bare: bool) -> Vec<String> {
    let natural: Vec<(PathBuf, String)> = inputs
        .iter()
        .map(|i| {
            let stem = match i.path.file_stem() {
                _ if bare => "position".into(),
                Some(s) if i.path != Path::new("-") => names::stem(&s.to_string_lossy()),
                _ => "stdin".into(),
            };
            (rel_dir(i).to_path_buf(), stem)
        })
        .collect();
    let key = |dir: &Path, stem: &str| (dir.to_path_buf(), stem.to_lowercase());
    let own: HashSet<_> = natural.iter().map(|(d, s)| key(d, s)).collect();
    // Each stem taken, with the extension of the input that took it.
    let mut used: std::collections::HashMap<(PathBuf, String), Option<String>> =
        std::collections::HashMap::new();
    natural
        .iter()
        .zip(inputs)
        .map(|((dir, stem), input)| {
            let ext = input
                .path
                .extension()
                .map(|e| e.to_string_lossy().to_lowercase());
            let free = |s: &str| !used.contains_key(&key(dir, s)) && !own.contains(&key(dir, s));
            let mut chosen = stem.clone();
            if let Some(first) = used.get(&key(dir, stem)) {
                chosen = ext
                    .as_ref()
                    .filter(|&e| Some(e) != first.as_ref())
                    .map(|e| format!("{stem}-{}", names::stem(e)))
                    .filter(|s| free(s))
                    .unwrap_or_else(|| {
                        (2..)
                            .map(|n| format!("{stem}-{n}"))
                            .find(|s| free(s))
                            .expect("a free number")
                    });
            }
            used.insert(key(dir, &chosen), ext);
            chosen
        })
        .collect()
}

/// The text of `--sfen` / `--position`, as a record reader takes it.
fn bare_text(a: &DiagramArgs) -> Option<String> {
    if let Some(s) = &a.sfen {
        let s = s.trim();
        return Some(if s.starts_with("sfen ") || s.starts_with("position ") {
            s.to_string()
        } else {
            format!("sfen {s}")
        });
    }
    a.position.as_ref().map(|p| {
        let p = p.trim();
        if p.starts_with("startpos") || p.starts_with("sfen ") {
            format!("position {p}")
        } else {
            p.to_string()
        }
    })
}

/// Prints what every input said, flushes a batch to disk, sums up; the exit code.
fn finish(inputs: &[Input], done: &[Done], a: &DiagramArgs) -> ExitCode {
    let mut out = Out::new();
    let mut failures = Vec::new();
    for (i, d) in inputs.iter().zip(done) {
        print_messages(&d.messages);
        out.write(&d.stdout);
        if d.failed {
            failures.push(i.path.display().to_string());
        }
    }
    if let Err(code) = out.finish("kifview diagram") {
        return code;
    }
    let written: Vec<PathBuf> = done.iter().flat_map(|d| d.written.clone()).collect();
    if written.len() > 1
        && let Some(dir) = &a.out_dir
        && let Err(e) = store::flush_filesystem(dir, &written)
    {
        say(format!(
            "kifview diagram: {}: could not flush to disk: {e}",
            dir.display()
        ));
        return ExitCode::from(1);
    }
    if inputs.len() > 1 || written.len() > 1 {
        say(format!(
            "wrote {} diagrams from {} of {} files, {} failed{}",
            written.len(),
            inputs.len() - failures.len(),
            inputs.len(),
            failures.len(),
            if failures.is_empty() {
                String::new()
            } else {
                format!(": {}", failures.join(", "))
            }
        ));
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Reads one input and draws the positions the plan picks, of every record it holds when the
/// plan writes into a folder and names no record.
fn draw_input(input: &Input, stem: &str, bare: Option<&str>, plan: &Plan, batch: bool) -> Done {
    let mut done = Done::default();
    let path = &input.path;
    let loaded = match bare {
        Some(text) => load::read_records(text.as_bytes(), None)
            .map_err(|why| format!("the position is not one kifview reads: {why}")),
        None => load::load_input(path),
    };
    let loaded = match loaded {
        Ok(l) => l,
        Err(e) => return done.fail(e),
    };
    let name = path.display().to_string();
    let count = loaded.records.len();
    let records: Vec<usize> = match plan.record {
        Some(n) => vec![n],
        None if count > 1 && matches!(plan.to, To::Dir(_)) => (1..=count).collect(),
        None => {
            if count > 1 {
                done.messages.push(format!(
                    "{name}: holds {count} records: drew the first (--record N draws another, \
                     --out-dir DIR every one)"
                ));
            }
            vec![1]
        }
    };
    for n in records {
        let parsed = match load::pick_record(&loaded, n, path) {
            Ok(p) => p,
            Err(e) => return done.fail(e),
        };
        let stem = if n > 1 || (count > 1 && plan.record.is_none()) {
            format!("{stem}-record{n}")
        } else {
            stem.to_string()
        };
        done.draw_record(input, parsed, &stem, plan, batch);
    }
    done
}

impl Done {
    /// Draws the positions the plan picks of one record, into files named after `stem`.
    fn draw_record(
        &mut self,
        input: &Input,
        parsed: &Parsed,
        stem: &str,
        plan: &Plan,
        batch: bool,
    ) {
        let name = input.path.display().to_string();
        self.messages.extend(convert::warning_lines(&name, parsed));
        let picked = match names::pick(&parsed.record, plan.pick) {
            Ok(p) => p,
            Err(e) => return self.failed(format!("{name}: {e}")),
        };
        if picked.is_empty() {
            self.messages
                .push(format!("{name}: no bookmarks: nothing drawn"));
            return;
        }
        let files = names::file_names(stem, &picked, plan.format.ext());
        let several = batch || picked.len() > 1;
        for (p, file) in picked.iter().zip(files) {
            let mut d = Diagram::at(&parsed.record, p.node, plan.flip);
            let bytes = match draw(&mut d, plan) {
                Ok((bytes, missing)) => {
                    if !missing.is_empty() {
                        let chars: String = missing.iter().collect();
                        self.messages.push(format!(
                            "{name}: no font here has {chars} (in a name or bookmark): drawn as {MISSING}"
                        ));
                    }
                    bytes
                }
                Err(e) => return self.failed(format!("{name}: cannot draw the diagram: {e}")),
            };
            match plan.to {
                To::Stdout => self.stdout = bytes,
                To::File(f) => match write_file(f, &bytes, plan.force) {
                    Ok(()) => self.written.push(f.to_path_buf()),
                    Err(e) => self.failed(e),
                },
                To::Dir(dir) => match write_in(dir, rel_dir(input), &file, &bytes, plan, several) {
                    Ok(out) => self.written.push(out),
                    Err(e) => self.failed(e),
                },
            }
        }
    }

    fn failed(&mut self, message: String) {
        self.messages.push(message);
        self.failed = true;
    }
}

/// Writes `-o FILE`: a file already there is replaced only with --force (a device or a FIFO
/// is written into).
fn write_file(path: &Path, bytes: &[u8], force: bool) -> Result<(), String> {
    if !force && let Ok(m) = std::fs::symlink_metadata(path) {
        let target = std::fs::metadata(path).ok();
        if m.is_symlink() && target.is_none() || target.is_some_and(|t| t.is_file()) {
            return Err(format!(
                "{}: exists: not replaced (--force replaces it)",
                path.display()
            ));
        }
    }
    store::save(path, bytes, SaveOptions::default())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Writes one diagram as `file` in the folder `rel` under `dir`, creating the folders: a
/// name this run already wrote gets a number; a symbolic link in the folders under `dir` or
/// at the name is never written through; a file there is replaced only with --force. The
/// path written.
fn write_in(
    dir: &Path,
    rel: &Path,
    file: &str,
    bytes: &[u8],
    plan: &Plan,
    several: bool,
) -> Result<PathBuf, String> {
    let mut at = dir.to_path_buf();
    for part in rel.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.is_symlink() => {
                return Err(format!(
                    "{}: a symbolic link in --out-dir: not written through",
                    at.display()
                ));
            }
            Ok(_) => {}
            Err(_) => std::fs::create_dir(&at)
                .or_else(|e| match e.kind() {
                    std::io::ErrorKind::AlreadyExists => Ok(()),
                    _ => Err(e),
                })
                .map_err(|e| format!("{}: cannot create: {e}", at.display()))?,
        }
    }
    let out = at.join(unique_name(&at, file, &plan.taken));
    let opts = SaveOptions {
        deferred_sync: several,
        ..SaveOptions::default()
    };
    match store::save_new(&out, bytes, opts, plan.force) {
        Ok(()) => Ok(out),
        Err(e @ store::SaveError::Exists { .. }) => Err(format!("{e} (--force replaces it)")),
        Err(e) => Err(e.to_string()),
    }
}

/// `file` in `folder`, or `NAME-2.ext`, `NAME-3.ext`, … when this run has taken that name.
fn unique_name(folder: &Path, file: &str, taken: &Mutex<HashSet<String>>) -> String {
    let mut taken = taken.lock().unwrap_or_else(|p| p.into_inner());
    let key = |f: &str| folder.join(f).to_string_lossy().to_lowercase();
    let (stem, ext) = file.rsplit_once('.').unwrap_or((file, ""));
    let mut name = file.to_string();
    let mut n = 2;
    while !taken.insert(key(&name)) {
        name = format!("{stem}-{n}.{ext}");
        n += 1;
    }
    name
}

impl Done {
    fn fail(mut self, message: String) -> Done {
        self.failed(message);
        self
    }
}

/// The diagram's bytes in the plan's format, and the characters drawn as 〓.
fn draw(d: &mut Diagram, plan: &Plan) -> Result<(Vec<u8>, Vec<char>), String> {
    if plan.format == Format::Svg && !plan.outline {
        return Ok((
            svg::write(d, plan.theme, plan.size).into_bytes(),
            Vec::new(),
        ));
    }
    let (db, missing) = plan.fonts.prepare(d, plan.theme);
    let text = svg::write(d, plan.theme, plan.size);
    let bytes = match plan.format {
        Format::Png => render::png(&text, db)?,
        Format::Svg => render::outline(&text, db)?.into_bytes(),
    };
    Ok((bytes, missing))
}

/// A message on standard error, stripped of control characters (it quotes file names).
fn say(message: String) {
    print_messages(&[message]);
}
