//! The position editor in the app: opening it (`edit_position`, `:setup`, `--setup`), giving
//! it the keys, its preset list, and what Enter does with the position (a new record, or the
//! start of a record that has no moves yet, one undo step).

use crate::app::dispatch::input::KeyEvent;
use crate::app::document::{self, RecordSource};
use crate::app::edit::position_editor::{AfterKey, PositionEditor, Preset};
use crate::app::overlay::{Answer, ListContent, Overlay, PositionEditing};
use crate::app::state::{App, Level};
use crate::core::record::{Edit, Initial, NodeId};
use crate::core::rules::{Handicap, Position};

impl App {
    /// `edit_position`: opens the position editor on the current position.
    pub(crate) fn open_position_editor(&mut self) {
        if self.overlays.position_editor().is_some() {
            return;
        }
        let pos = self.doc.record().position_at(self.cur());
        self.overlays
            .push(Overlay::PositionEditor(Box::new(PositionEditing {
                editor: PositionEditor::new(pos, self.view.flipped),
                errors: Vec::new(),
            })));
        self.info("局面編集: Enter uses the position, Esc leaves it unchanged, Ctrl-p presets");
    }

    /// A key while the position editor is on top: it takes every key as it is.
    pub(crate) fn position_editor_key(&mut self, key: KeyEvent) {
        let Some(ed) = self.overlays.position_editor_mut() else {
            return;
        };
        ed.errors.clear();
        let outcome = ed.editor.key(key);
        let finished = (outcome == AfterKey::Finish).then(|| ed.editor.finish());
        match (outcome, finished) {
            (AfterKey::Cancel, _) => {
                self.overlays.pop();
                self.info("position editor closed; nothing changed");
            }
            (AfterKey::PickPreset, _) => {
                self.open_list(Presets, "局面の初期配置 (presets)  Enter: use  Esc: back")
            }
            (AfterKey::Finish, Some(Err(errors))) => {
                self.info_level(format!("not used: {}", errors.join("; ")), Level::Error);
                if let Some(ed) = self.overlays.position_editor_mut() {
                    ed.errors = errors;
                }
            }
            (AfterKey::Finish, Some(Ok(checked))) => {
                self.use_position(checked.position);
                if !checked.relaxed.is_empty() {
                    let said = self.message.take().map(|m| m.text).unwrap_or_default();
                    self.info(format!("{said} ({})", checked.relaxed.join(", ")));
                }
            }
            (AfterKey::Continue | AfterKey::Finish, _) => {}
        }
    }

    /// The preset list's choice goes to the editor below it.
    fn pick_preset(&mut self, index: usize) {
        if let (Some(p), Some(ed)) = (
            Preset::all().get(index).copied(),
            self.overlays.position_editor_mut(),
        ) {
            ed.editor.apply_preset(p);
        }
    }

    /// Enter in the editor: a record without moves gets the position as its start (one
    /// undo step); otherwise a new record starts from it, after asking when edits would be
    /// lost.
    fn use_position(&mut self, pos: Position) {
        if self.doc.record().node(NodeId::ROOT).children.is_empty() {
            let mut header = self.doc.record().header.clone();
            let handicap = Handicap::matching(&pos);
            if header.get("手合割").is_some() {
                match handicap {
                    Some(h) => header.set("手合割", h.name),
                    None => {
                        header.remove("手合割");
                    }
                }
            }
            let edit = Edit::SetStart {
                initial: Box::new(Initial {
                    position: pos,
                    handicap,
                }),
                header,
            };
            self.overlays.pop();
            if self.apply_or_say(edit).is_some() {
                self.info(format!(
                    "the record starts from the edited position ({})",
                    self.undo_hint()
                ));
            }
            return;
        }
        if self.is_modified() {
            self.ask(
                format!(
                    "{} has unsaved changes. Start a new record from this position?",
                    self.doc.source().name
                ),
                Vec::new(),
                vec![
                    (Answer::Yes, "discard them"),
                    (Answer::No, "back to the editor"),
                ],
                move |app, a| match a {
                    Answer::Yes => {
                        app.overlays.clear();
                        app.new_record_from(pos.clone());
                    }
                    _ => app.info("back in the position editor"),
                },
            );
            return;
        }
        self.new_record_from(pos);
    }

    /// Replaces the record with a new one that starts from `pos`.
    pub(crate) fn new_record_from(&mut self, pos: Position) {
        self.replace_record(document::record_from(pos), RecordSource::untitled("[new]"));
        self.info("a new record from the edited position (:saveas PATH to save it)");
    }
}

/// The position editor's presets (`Ctrl-p`), over the editor.
#[derive(Debug)]
struct Presets;

impl ListContent<App> for Presets {
    fn tag(&self) -> &'static str {
        "PRESETS"
    }
    fn items(&self, _app: &App) -> Vec<String> {
        Preset::all()
            .into_iter()
            .map(|p| p.name().to_string())
            .collect()
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.close_list();
        app.pick_preset(selected);
    }
}
