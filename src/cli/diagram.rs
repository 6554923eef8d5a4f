//! `kifview diagram`: its arguments, and the calls into [`kifview::diagram`].

use super::{Out, parse_record, print_messages};
use clap::{ArgGroup, Args, ValueEnum};
use kifview::app::Config;
use kifview::convert::{self, Input};
use kifview::diagram::names::{self, Pick};
use kifview::diagram::render::{self, Fonts, MISSING};
use kifview::diagram::{Diagram, Theme, svg};
use kifview::load;
use kifview::store::{self, SaveOptions};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    /// Which record of a multi-record CSA file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = parse_record)]
    pub record: usize,
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
    /// Output file (one diagram; its directory must exist). Without -o or --out-dir, one
    /// diagram goes to standard output.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUTPUT",
        conflicts_with = "out_dir"
    )]
    pub output: Option<PathBuf>,
    /// Directory for the diagrams (created if missing), named `NAME-ply040.svg` or after the
    /// bookmark, keeping the layout of the directories given with -r.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
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
    record: usize,
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
    let format = match (a.format, &a.output) {
        (Some(f), _) => f,
        (None, Some(o)) => match o.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("png") => Format::Png,
            _ => Format::Svg,
        },
        (None, None) => Format::Svg,
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
        None => match convert::expand_inputs(&a.inputs, a.recursive) {
            Ok(i) => i,
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
        theme: &theme,
        fonts: &fonts,
        to,
    };
    let batch = inputs.len() > 1;
    let done =
        kifview::pool::map_in_order(&inputs, |i| draw_input(i, bare.as_deref(), &plan, batch));
    finish(&inputs, &done, &a)
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

/// Reads one input and draws the positions the plan picks.
fn draw_input(input: &Input, bare: Option<&str>, plan: &Plan, batch: bool) -> Done {
    let mut done = Done::default();
    let path = &input.path;
    let loaded = match bare {
        Some(text) => load::read_records(text.as_bytes(), None)
            .map_err(|why| format!("the position is not one kifview reads: {why}")),
        None => load::load_input(path),
    };
    let parsed = match loaded
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|l| load::pick_record(l, plan.record, path))
    {
        Ok(p) => p,
        Err(e) => return done.fail(e),
    };
    let name = path.display().to_string();
    done.messages.extend(convert::warning_lines(&name, parsed));
    let picked = match names::pick(&parsed.record, plan.pick) {
        Ok(p) => p,
        Err(e) => return done.fail(format!("{name}: {e}")),
    };
    if picked.is_empty() {
        done.messages
            .push(format!("{name}: no bookmarks: nothing drawn"));
        return done;
    }
    let mut stem = match path.file_stem() {
        Some(s) if path != Path::new("-") => s.to_string_lossy().into_owned(),
        _ => "stdin".into(),
    };
    if plan.record > 1 {
        stem = format!("{stem}-record{}", plan.record);
    }
    let files = names::file_names(&stem, &picked, plan.format.ext());
    for (p, file) in picked.iter().zip(files) {
        let mut d = Diagram::at(&parsed.record, p.node, plan.flip);
        let bytes = match draw(&mut d, plan) {
            Ok((bytes, missing)) => {
                if !missing.is_empty() {
                    let chars: String = missing.iter().collect();
                    done.messages.push(format!(
                        "{name}: no font here has {chars} (in a name or bookmark): drawn as {MISSING}"
                    ));
                }
                bytes
            }
            Err(e) => return done.fail(format!("{name}: cannot draw the diagram: {e}")),
        };
        let out = match plan.to {
            To::Stdout => {
                done.stdout = bytes;
                continue;
            }
            To::File(f) => f.to_path_buf(),
            To::Dir(dir) => {
                let rel = input
                    .base
                    .as_deref()
                    .and_then(|b| path.parent()?.strip_prefix(b).ok())
                    .unwrap_or(Path::new(""));
                dir.join(rel).join(file)
            }
        };
        if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty())
            && let Err(e) = std::fs::create_dir_all(parent)
        {
            return done.fail(format!("{}: cannot create: {e}", parent.display()));
        }
        let opts = SaveOptions {
            deferred_sync: batch || picked.len() > 1,
            ..SaveOptions::default()
        };
        if let Err(e) = store::save(&out, &bytes, opts) {
            return done.fail(e.to_string());
        }
        done.written.push(out);
    }
    done
}

impl Done {
    fn fail(mut self, message: String) -> Done {
        self.messages.push(message);
        self.failed = true;
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
