//! The copy menu's "save the position as an SVG/PNG file" (`y` `d`), with the config's
//! `[diagram]` theme (`app::config::diagram`).

use crate::app::document;
use crate::app::document::expand_path;
use crate::app::overlay::{Answer, Mode, Prompt};
use crate::app::state::{App, Level};
use crate::diagram::render::{self, Fonts, MISSING};
use crate::diagram::{Diagram, svg};
use std::path::{Path, PathBuf};

/// The width of a PNG saved from the viewer, in pixels.
const PNG_WIDTH: u32 = 816;

impl App {
    /// The copy menu's "save the position as a picture": asks for the file, offering
    /// `NAME-ply040.svg` beside the record.
    pub(crate) fn open_diagram_prompt(&mut self) {
        if self.mode() == Mode::Copy {
            self.overlays.pop();
        }
        let default = default_path(self.doc.source().path.as_deref(), self.ply_number());
        self.open_prompt(Prompt::closing(
            "save the position as (.svg or .png): ",
            default,
            |app, text| {
                if !text.is_empty() {
                    app.save_diagram(expand_path(&text));
                }
            },
        ));
    }

    /// The current position's move number, as the record numbers its moves.
    fn ply_number(&self) -> u32 {
        self.doc.record().moves_before() + self.doc.record().node(self.cur()).ply
    }

    /// Draws the current position (as the board shows it: flipped or not) into `path`, SVG or
    /// PNG by its extension, with the config's theme; asks first when something is there.
    pub(crate) fn save_diagram(&mut self, path: PathBuf) {
        if picture_kind(&path).is_none() {
            self.info_level(
                "a picture is saved as NAME.svg or NAME.png".into(),
                Level::Error,
            );
            return;
        }
        if std::fs::symlink_metadata(&path).is_ok() {
            let name = document::file_name(&path);
            self.ask(
                format!("{name} exists: replace it with the picture?"),
                Vec::new(),
                vec![(Answer::Yes, "replace"), (Answer::No, "keep it")],
                move |app, a| match a {
                    Answer::Yes => app.write_diagram(path.clone()),
                    _ => app.info(format!(
                        "{}: not saved; the file is as it was",
                        document::file_name(&path)
                    )),
                },
            );
            return;
        }
        self.write_diagram(path);
    }

    /// [`App::save_diagram`] once the answer is yes.
    fn write_diagram(&mut self, path: PathBuf) {
        let png = picture_kind(&path) == Some(true);
        let theme = &self.config.diagram;
        let mut d = Diagram::at(self.doc.record(), self.cur(), self.view.flipped);
        let mut missing = Vec::new();
        let bytes = if png {
            let (db, m) = Fonts::new().prepare(&mut d, theme);
            missing = m;
            render::png(&svg::write(&d, theme, Some(PNG_WIDTH)), db)
        } else {
            Ok(svg::write(&d, theme, None).into_bytes())
        };
        let result = bytes.and_then(|b| {
            crate::store::save(&path, &b, crate::store::SaveOptions::default())
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        let name = document::file_name(&path);
        match result {
            Ok(()) if missing.is_empty() => self.info(format!("saved the position as {name}")),
            Ok(()) => {
                let chars: String = missing.into_iter().collect();
                self.info_level(
                    format!(
                        "saved the position as {name}; no font here has {chars}: drawn as {MISSING}"
                    ),
                    Level::Warning,
                );
            }
            Err(e) => self.info_level(format!("{name}: not saved: {e}"), Level::Error),
        }
    }
}

/// Whether `path` names a PNG (else an SVG), or `None` for neither.
fn picture_kind(path: &Path) -> Option<bool> {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("png") => Some(true),
        Some(e) if e.eq_ignore_ascii_case("svg") => Some(false),
        _ => None,
    }
}

/// `game-ply040.svg` beside `record` (in the current directory for a record without a file).
fn default_path(record: Option<&Path>, ply: u32) -> String {
    let stem = record
        .and_then(Path::file_stem)
        .map_or("position".into(), |s| s.to_string_lossy().into_owned());
    let name = format!("{stem}-ply{ply:03}.svg");
    match record
        .and_then(Path::parent)
        .filter(|p| !p.as_os_str().is_empty())
    {
        Some(dir) => dir.join(name).display().to_string(),
        None => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_name_says_the_record_and_the_ply() {
        assert_eq!(
            default_path(Some(Path::new("games/a.kif")), 40),
            "games/a-ply040.svg"
        );
        assert_eq!(default_path(Some(Path::new("a.kif")), 0), "a-ply000.svg");
        assert_eq!(default_path(None, 7), "position-ply007.svg");
    }
}
