//! Getting records in and out: the copy menu (`y`), the paste prompt (`p`, `:paste`) and
//! `:e PATH`. The app only decides what text to copy; the front end sends it to the terminal
//! (OSC 52) and turns the terminal's bracketed paste into `paste_text`.

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::document::{self, expand_path};
use crate::app::overlay::behaviour::{Handler, OverlayState, Tag, clone_box};
use crate::app::overlay::{Mode, Overlay, PasteBox};
use crate::app::state::{App, Level};
use crate::core::notation::{self, Format, Parsed, Target, TextEncoding, TextInfo, bod, usi};
use crate::core::rules::Position;
use crate::core::text::sanitize;

/// The most text the paste prompt holds (a long game with comments is well under this).
pub const PASTE_LIMIT: usize = 4 << 20;
/// Above this many bytes some terminals drop OSC 52 data; the message says so.
const CLIPBOARD_WARN: usize = 100_000;

/// What a copy command copies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Copy {
    Sfen,
    Bod,
    Usi,
    Kif,
    Ki2,
    Csa,
}

/// The copy menu's entries: command, what it copies.
pub const COPY_CHOICES: [(Command, &str); 7] = [
    (Command::CopySfen, "SFEN of this position"),
    (Command::CopyBod, "BOD diagram of this position"),
    (Command::CopyUsi, "USI: position … moves … up to here"),
    (Command::CopyKif, "KIF: the whole record"),
    (Command::CopyKi2, "KI2: the whole record"),
    (Command::CopyCsa, "CSA: the whole record (main line)"),
    (Command::SaveDiagram, "save the position as an SVG/PNG file"),
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

/// What a copy puts on the clipboard.
pub fn copy_text(app: &App, c: Copy) -> Copied {
    let rec = app.doc.record();
    let cur = app.cur();
    let (what, text, losses) = match c {
        Copy::Sfen => ("SFEN", usi::sfen_at(rec, cur), Vec::new()),
        Copy::Bod => ("BOD", bod::write_bod(rec, cur), Vec::new()),
        Copy::Usi => ("USI", usi::position_command(rec, cur), Vec::new()),
        Copy::Kif | Copy::Ki2 | Copy::Csa => {
            let (what, format) = match c {
                Copy::Kif => ("KIF", Format::Kif),
                Copy::Ki2 => ("KI2", Format::Ki2),
                Copy::Csa | Copy::Sfen | Copy::Bod | Copy::Usi => ("CSA", Format::Csa),
            };
            let w = notation::render(rec, Target::new(format), &TextInfo::new(TextEncoding::Utf8));
            (
                what,
                w.text,
                w.losses.iter().map(ToString::to_string).collect(),
            )
        }
    };
    Copied { what, text, losses }
}

/// Puts `c` on the clipboard (closing the copy menu), saying what the format lost.
pub fn copy(app: &mut App, c: Copy) {
    let copied = copy_text(app, c);
    if app.mode() == Mode::Copy {
        app.overlays.pop();
    }
    let n = copied.text.len();
    let mut msg = format!(
        "copied {} ({n} byte{})",
        copied.what,
        if n == 1 { "" } else { "s" }
    );
    let mut level = Level::Info;
    if !copied.losses.is_empty() {
        msg.push_str(&format!(
            "; {} lost: {}",
            copied.what,
            copied.losses.join(", ")
        ));
        level = Level::Warning;
    }
    if n > CLIPBOARD_WARN {
        msg.push_str("; some terminals drop clipboard data this large");
        level = Level::Warning;
    }
    app.info_level(msg, level);
    app.clipboard = Some(copied.text);
}

/// `y`: opens the copy menu, or closes it.
pub fn toggle_copy_menu(app: &mut App) {
    if app.mode() == Mode::Copy {
        app.overlays.pop();
    } else {
        app.overlays.push(Overlay::CopyMenu(Default::default()));
    }
}

/// The paste prompt's behaviour: typed and pasted text goes into it, Enter opens it.
impl OverlayState<App> for PasteBox {
    fn mode(&self) -> Mode {
        Mode::Paste
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Paste
    }
    fn takes_text(&self) -> bool {
        true
    }
    fn tag(&self) -> Tag {
        Tag::Keys(
            "PASTE",
            &[(Command::Submit, "open"), (Command::Cancel, "cancel")],
        )
    }
    fn submit(&self) -> Option<Handler> {
        Some(submit_paste)
    }
    fn cancel(&self) -> Handler {
        |app| {
            app.close_overlay();
            app.info("paste cancelled");
        }
    }
    fn insert(&mut self, _c: char) -> Option<fn(&mut App, char)> {
        Some(insert)
    }
    fn delete_back(&mut self) -> Option<Handler> {
        self.text.pop();
        None
    }
    fn paste(&mut self, _text: &str) -> Option<fn(&mut App, &str)> {
        Some(paste_text)
    }
    clone_box!();
}

/// Enter in the paste prompt: opens the text; when nothing opens, the text stays to be fixed.
pub fn submit_paste(app: &mut App) {
    let Some(Overlay::Paste(p)) = app.overlays.pop() else {
        return;
    };
    if let Err(text) = open_pasted(app, &p.text, p.force) {
        app.overlays.push(Overlay::Paste(PasteBox { text, ..p }));
    }
}

/// Opens the paste prompt (refused when there are unsaved changes, unless `force`).
pub fn open_prompt(app: &mut App, force: bool) {
    if app.is_modified() && !force {
        app.info_level(
            "unsaved changes: save first or :paste! to discard them".into(),
            Level::Error,
        );
        return;
    }
    match app.overlays.top_mut() {
        Some(Overlay::Paste(p)) => p.force = force,
        _ => app.overlays.push(Overlay::Paste(PasteBox {
            text: String::new(),
            force,
        })),
    }
}

/// A character typed into the paste prompt.
pub fn insert(app: &mut App, c: char) {
    if let Some(p) = app.overlays.paste_mut()
        && p.text.len() + c.len_utf8() <= PASTE_LIMIT
    {
        p.text.push(c);
    }
}

/// `\r\n` and lone `\r` (what terminals send for a pasted line break) become `\n`.
fn normalize_newlines(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// Text the terminal pasted (bracketed paste) into the paste prompt, or while browsing: it
/// opens the paste prompt with it.
pub fn paste_text(app: &mut App, text: &str) {
    let text = normalize_newlines(text);
    if app.mode() == Mode::Normal {
        app.message = None;
        open_prompt(app, false);
    }
    let Some(Overlay::Paste(p)) = app.overlays.top_mut() else {
        return;
    };
    let room = PASTE_LIMIT.saturating_sub(p.text.len());
    let mut end = text.len().min(room);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    p.text.push_str(&text[..end]);
    if end < text.len() {
        app.info_level(
            format!("the paste was cut at {PASTE_LIMIT} bytes"),
            Level::Warning,
        );
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
    if app.is_modified() && !force {
        app.info_level(
            "unsaved changes: save first or :paste! to discard them".into(),
            Level::Error,
        );
        return Err(text);
    }
    let (parsed, mut doc) = document::from_text(&text);
    let format = doc.format.unwrap_or(Format::Kif);
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
    let moves = document::move_count(&parsed.record);
    let clean = parsed.warnings.is_empty();
    doc.warnings = parsed.warnings;
    app.replace_record(parsed.record, doc);
    if document::opens_at_end(format) {
        app.go_end();
    }
    if app.doc.watch.take().is_some() {
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

/// `:e PATH` (`force`: `:e!`): opens another file in place of the current record. Without a
/// path it reads the current file again.
pub fn edit_file(app: &mut App, path: &str, force: bool) {
    let path = if path.is_empty() {
        match &app.doc.source().path {
            Some(p) => p.clone(),
            None => {
                app.info_level(
                    format!(
                        "{} is not a file: give a path (:e PATH)",
                        app.doc.source().name
                    ),
                    Level::Error,
                );
                return;
            }
        }
    } else {
        expand_path(path)
    };
    if app.is_modified() && !force {
        app.info_level(
            format!(
                "unsaved changes: save first or :e! {}",
                sanitize(&path.display().to_string())
            ),
            Level::Error,
        );
        return;
    }
    // Reading the same file again stays on the record shown.
    let same = app
        .doc
        .source()
        .path
        .as_deref()
        .is_some_and(|p| document::same_path(p, &path));
    let index = if same {
        app.doc.source().record_index
    } else {
        0
    };
    match document::read(&path, index) {
        Err(e) => app.info_level(e, Level::Error),
        Ok((record, doc)) => {
            let clean = doc.warnings.is_empty();
            let moves = document::move_count(&record);
            let name = doc.name.clone();
            let count = doc.record_count;
            app.replace_record(record, doc);
            if app.doc.watch.is_some() {
                crate::app::document::watch::start(app);
            } else if clean {
                let more = if count > 1 {
                    format!("; record {} of {count}", index + 1)
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
