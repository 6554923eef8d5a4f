//! Getting records in and out: the copy menu (`y`), the paste prompt (`p`, `:paste`) and
//! `:e PATH`. The app only decides what text to copy; the front end sends it to the terminal
//! (OSC 52) and turns the terminal's bracketed paste into `paste_text`.

use super::command::Command;
use super::state::{App, Document, Level, Mode};
use super::text::sanitize;
use crate::core::notation::{self, Format, Parsed, Target, TextEncoding, TextInfo, bod, usi};
use crate::core::record::Record;
use crate::core::rules::Position;
use std::path::{Path, PathBuf};

/// The most text the paste prompt holds (a long game with comments is well under this).
pub const PASTE_LIMIT: usize = 4 << 20;
/// Above this many bytes some terminals drop OSC 52 data; the message says so.
const CLIPBOARD_WARN: usize = 100_000;

/// Copy/paste state kept in the app.
#[derive(Clone, Debug, Default)]
pub struct Share {
    /// The text in the paste prompt.
    pub paste: String,
    /// The prompt was opened with `:paste!` (discard unsaved changes).
    paste_force: bool,
    /// Text waiting for the front end to put on the clipboard.
    clipboard: Option<String>,
}

impl Share {
    /// Takes the text to put on the clipboard, if a copy was chosen since the last call.
    pub fn take_clipboard(&mut self) -> Option<String> {
        self.clipboard.take()
    }
    /// The text waiting to go to the clipboard.
    pub fn pending_clipboard(&self) -> Option<&str> {
        self.clipboard.as_deref()
    }
}

/// The copy menu's entries: command, what it copies.
pub const COPY_CHOICES: [(Command, &str); 6] = [
    (Command::CopySfen, "SFEN of this position"),
    (Command::CopyBod, "BOD diagram of this position"),
    (Command::CopyUsi, "USI: position … moves … up to here"),
    (Command::CopyKif, "KIF: the whole record"),
    (Command::CopyKi2, "KI2: the whole record"),
    (Command::CopyCsa, "CSA: the whole record (main line)"),
];

/// Text made for the clipboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copied {
    /// `SFEN`, `BOD`, `USI`, `KIF`, `KI2`, `CSA`.
    pub what: &'static str,
    pub text: String,
    /// What the format could not hold, one line per kind.
    pub losses: Vec<String>,
}

/// What a copy command puts on the clipboard (`None` for other commands).
pub fn copy_text(app: &App, c: Command) -> Option<Copied> {
    let rec = &app.record;
    let cur = app.cur();
    let (what, text, losses) = match c {
        Command::CopySfen => ("SFEN", usi::sfen_at(rec, cur), Vec::new()),
        Command::CopyBod => ("BOD", bod::write_bod(rec, cur), Vec::new()),
        Command::CopyUsi => ("USI", usi::position_command(rec, cur), Vec::new()),
        Command::CopyKif | Command::CopyKi2 | Command::CopyCsa => {
            let (what, format) = match c {
                Command::CopyKif => ("KIF", Format::Kif),
                Command::CopyKi2 => ("KI2", Format::Ki2),
                _ => ("CSA", Format::Csa),
            };
            let w = notation::render(rec, Target::new(format), &TextInfo::new(TextEncoding::Utf8));
            (
                what,
                w.text,
                w.losses.iter().map(ToString::to_string).collect(),
            )
        }
        _ => return None,
    };
    Some(Copied { what, text, losses })
}

fn copy(app: &mut App, c: Command) {
    let Some(copied) = copy_text(app, c) else {
        return;
    };
    app.mode = Mode::Normal;
    let n = copied.text.len();
    let mut msg = format!(
        "copied {} ({n} byte{})",
        copied.what,
        if n == 1 { "" } else { "s" }
    );
    let mut level = Level::Info;
    if !copied.losses.is_empty() {
        // The short form (`3 variations`): the message line is one line.
        let short: Vec<&str> = copied
            .losses
            .iter()
            .map(|l| match l.rfind(" (") {
                Some(i) if l.ends_with(')') => &l[..i],
                _ => l.as_str(),
            })
            .collect();
        msg.push_str(&format!("; {} lost: {}", copied.what, short.join(", ")));
        level = Level::Warning;
    }
    if n > CLIPBOARD_WARN {
        msg.push_str("; some terminals drop clipboard data this large");
        level = Level::Warning;
    }
    app.info_level(msg, level);
    app.share.clipboard = Some(copied.text);
}

/// Runs the commands of this module; `false` for every other command (and for the prompt's
/// submit/cancel/delete outside the paste prompt).
pub(super) fn run(app: &mut App, c: Command) -> bool {
    match c {
        Command::CopyMenu => {
            app.mode = if app.mode == Mode::Copy {
                Mode::Normal
            } else {
                Mode::Copy
            };
        }
        Command::CopySfen
        | Command::CopyBod
        | Command::CopyUsi
        | Command::CopyKif
        | Command::CopyKi2
        | Command::CopyCsa => copy(app, c),
        Command::Paste => open_prompt(app, false),
        Command::ToggleWatch => super::watch::toggle(app),
        Command::Newline if app.mode == Mode::Paste => insert(app, '\n'),
        Command::Newline => {}
        Command::Submit if app.mode == Mode::Paste => {
            let text = std::mem::take(&mut app.share.paste);
            let force = app.share.paste_force;
            app.mode = Mode::Normal;
            if let Err(text) = open_pasted(app, &text, force) {
                // Nothing opened: keep the text so it can be fixed.
                app.share.paste = text;
                app.mode = Mode::Paste;
            }
        }
        Command::Cancel if app.mode == Mode::Paste => {
            app.share.paste.clear();
            app.mode = Mode::Normal;
            app.info("paste cancelled");
        }
        Command::DeleteBack if app.mode == Mode::Paste => {
            app.share.paste.pop();
        }
        _ => return false,
    }
    true
}

/// Opens the paste prompt (refused when there are unsaved changes, unless `force`).
fn open_prompt(app: &mut App, force: bool) {
    if app.doc.modified && !force {
        app.info_level(
            "unsaved changes: save first or :paste! to discard them".into(),
            Level::Error,
        );
        return;
    }
    if app.mode != Mode::Paste {
        app.share.paste.clear();
    }
    app.share.paste_force = force;
    app.mode = Mode::Paste;
}

/// A character typed into the paste prompt.
pub(super) fn insert(app: &mut App, c: char) {
    if app.share.paste.len() + c.len_utf8() <= PASTE_LIMIT {
        app.share.paste.push(c);
    }
}

/// `\r\n` and lone `\r` (what terminals send for a pasted line break) become `\n`.
fn normalize_newlines(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// Text the terminal pasted (bracketed paste). In the paste prompt it is added to the text;
/// on the `:` line its first line is typed; while browsing it opens the paste prompt with it.
pub fn paste_text(app: &mut App, text: &str) {
    let text = normalize_newlines(text);
    match app.mode {
        Mode::Paste => {
            let room = PASTE_LIMIT.saturating_sub(app.share.paste.len());
            let mut end = text.len().min(room);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            app.share.paste.push_str(&text[..end]);
            if end < text.len() {
                app.info_level(
                    format!("the paste was cut at {PASTE_LIMIT} bytes"),
                    Level::Warning,
                );
            }
        }
        Mode::CommandLine => {
            let line = text.lines().next().unwrap_or("");
            for c in line.chars().filter(|c| !c.is_control()) {
                super::state::update(app, super::state::Action::Insert(c));
            }
        }
        Mode::Normal => {
            app.message = None;
            open_prompt(app, false);
            if app.mode == Mode::Paste {
                paste_text(app, &text);
            }
        }
        _ => {}
    }
}

/// Has the reader found anything at all in the text?
fn recognizable(p: &Parsed) -> bool {
    p.warnings.is_empty()
        || !p.record.is_empty()
        || !p.record.header.fields.is_empty()
        || p.record.initial.position.to_sfen() != Position::startpos().to_sfen()
        || p.record.nodes.iter().any(|n| !n.comment.is_empty())
}

/// Reads pasted text as a record and shows it. `Err` gives the text back when nothing was
/// opened (the message line says why).
pub fn open_pasted(app: &mut App, text: &str, force: bool) -> Result<(), String> {
    let text = normalize_newlines(text);
    if text.trim().is_empty() {
        app.info("nothing pasted");
        return Err(text);
    }
    if app.doc.modified && !force {
        app.info_level(
            "unsaved changes: save first or :paste! to discard them".into(),
            Level::Error,
        );
        return Err(text);
    }
    let format = Format::detect(&text);
    let mut records = notation::read_text(&text, format);
    let count = records.len();
    let parsed = records.swap_remove(0);
    if !recognizable(&parsed) {
        let why = parsed
            .warnings
            .first()
            .map(|w| format!(" (read as {}: {})", format.name(), w.with_file("paste")))
            .unwrap_or_default();
        app.info_level(
            format!(
                "no record found in the pasted text{why}; expected KIF, KI2, CSA, SFEN/USI, a BOD diagram or JKF"
            ),
            Level::Error,
        );
        return Err(text);
    }
    let moves = move_count(&parsed.record);
    let clean = parsed.warnings.is_empty();
    let doc = Document {
        path: None,
        name: "[paste]".into(),
        format: Some(format),
        info: Some(TextInfo::new(TextEncoding::Utf8)),
        warnings: parsed.warnings,
        record_index: 0,
        record_count: count,
        modified: false,
    };
    replace_record(app, parsed.record, doc);
    if app.watch.take().is_some() {
        app.info("opened the paste; stopped following the file");
    } else if clean && moves == 0 {
        app.info(format!("opened pasted {} (a position)", format.name()));
    } else if clean {
        app.info(format!(
            "opened pasted {} ({moves} move{})",
            format.name(),
            if moves == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

/// Moves (not endings) in the record.
pub fn move_count(r: &Record) -> usize {
    r.nodes.iter().filter(|n| n.move_data().is_some()).count()
}

/// Shows another record in place of the current one: a fresh view (start position, no history)
/// that keeps the board orientation, focus, copy/paste and watch state.
pub fn replace_record(app: &mut App, record: Record, doc: Document) {
    let mut fresh = App::new(record, doc, app.config.clone());
    fresh.flipped = app.flipped;
    fresh.focus = app.focus;
    fresh.share = std::mem::take(&mut app.share);
    fresh.watch = app.watch.take();
    *app = fresh;
}

/// Reads record `index` (0-based; the last one when the file has fewer) of the file at `path`.
pub fn read_document(path: &Path, index: usize) -> Result<(Record, Document), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let loaded = notation::load(&bytes, Some(path));
    let index = index.min(loaded.records.len().saturating_sub(1));
    Document::from_loaded(loaded, Some(path.to_path_buf()), index)
        .ok_or_else(|| format!("{}: no record", path.display()))
}

/// `~/x` as a path in the home directory.
fn expand_home(p: &str) -> PathBuf {
    if let Some(rest) = p.strip_prefix("~/")
        && let Some(home) = std::env::var_os("HOME")
    {
        return PathBuf::from(home).join(rest);
    }
    PathBuf::from(p)
}

/// `:e PATH` (`force`: `:e!`): opens another file in place of the current record. Without a
/// path it reads the current file again.
pub fn edit_file(app: &mut App, path: &str, force: bool) {
    let path = if path.is_empty() {
        match &app.doc.path {
            Some(p) => p.clone(),
            None => {
                app.info_level(
                    format!("{} is not a file: give a path (:e PATH)", app.doc.name),
                    Level::Error,
                );
                return;
            }
        }
    } else {
        expand_home(path)
    };
    if app.doc.modified && !force {
        app.info_level(
            format!(
                "unsaved changes: save first or :e! {}",
                sanitize(&path.display().to_string())
            ),
            Level::Error,
        );
        return;
    }
    match read_document(&path, 0) {
        Err(e) => app.info_level(e, Level::Error),
        Ok((record, doc)) => {
            let clean = doc.warnings.is_empty();
            let moves = move_count(&record);
            let name = doc.name.clone();
            let count = doc.record_count;
            replace_record(app, record, doc);
            if app.watch.is_some() {
                super::watch::start(app);
            } else if clean {
                let more = if count > 1 {
                    format!("; record 1 of {count}")
                } else {
                    String::new()
                };
                app.info(format!(
                    "opened {name} ({moves} move{}{more})",
                    if moves == 1 { "" } else { "s" }
                ));
            }
        }
    }
}

/// The `:` commands of this module; `false` when `text` is none of them.
pub(super) fn submit(app: &mut App, text: &str) -> bool {
    let (cmd, arg) = match text.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (text, ""),
    };
    match cmd {
        "e" | "edit" => edit_file(app, arg, false),
        "e!" | "edit!" => edit_file(app, arg, true),
        "paste" | "paste!" if arg.is_empty() => open_prompt(app, cmd.ends_with('!')),
        "watch" | "follow" if arg.is_empty() => super::watch::toggle(app),
        _ => return false,
    }
    true
}
