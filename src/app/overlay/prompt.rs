//! One-line prompts on the status line: a typed move, a bookmark name, header values and
//! new fields, a file name to save to.

use crate::app::document::expand_path;
use crate::app::overlay::{Mode, Overlay, SaveHow};
pub use crate::app::overlay::{Prompt, PromptKind};
use crate::app::state::{App, Level};
use crate::core::notation::input::{self, Entered, InputError};
use crate::core::record::Edit;

impl App {
    pub(crate) fn open_prompt(&mut self, kind: PromptKind, label: &str, text: String) {
        if kind == PromptKind::Move
            && let Some(s) = self.record().node(self.cur()).special()
        {
            let word = s.kif_word().to_string();
            self.info_level(
                format!("the line has ended here ({word}); go back a move to add a variation"),
                Level::Error,
            );
            return;
        }
        self.overlays.replace_or_push(Overlay::Prompt(Prompt {
            kind,
            label: label.to_string(),
            text,
        }));
    }

    /// `m`: type a move.
    pub(crate) fn open_move_prompt(&mut self) {
        self.open_prompt(PromptKind::Move, "move: ", String::new());
    }

    /// `b`: set, rename or remove the current move's bookmark.
    pub(crate) fn open_bookmark_prompt(&mut self) {
        let cur = self.record().node(self.cur()).bookmark.clone();
        self.open_prompt(PromptKind::Bookmark, "bookmark: ", cur.unwrap_or_default());
    }

    /// Closes the prompt, back to what is below it (a list shows what changed).
    pub(crate) fn close_prompt(&mut self) {
        if self.mode() == Mode::Prompt {
            self.overlays.pop();
        }
        if self.mode() == Mode::List {
            self.refresh_list();
        }
    }

    /// Replaces the open prompt with another (header: the name, then the value).
    fn next_prompt(&mut self, p: Prompt) {
        if let Some(Overlay::Prompt(top)) = self.overlays.top_mut() {
            *top = p;
        }
    }

    pub(crate) fn prompt_submit(&mut self) {
        let Some(Overlay::Prompt(p)) = self.overlays.top().cloned() else {
            return;
        };
        let text = p.text.trim().to_string();
        match p.kind {
            PromptKind::Move => self.submit_move(&text),
            PromptKind::Search => {
                self.close_prompt();
                self.search_submit(&text);
            }
            PromptKind::SaveAs { then } => {
                self.close_prompt();
                if !text.is_empty() {
                    self.save_to(Some(expand_path(&text)), SaveHow::Own, then);
                }
            }
            PromptKind::Diagram => {
                self.close_prompt();
                if !text.is_empty() {
                    self.save_diagram(expand_path(&text));
                }
            }
            PromptKind::Bookmark => self.submit_bookmark(text),
            PromptKind::HeaderValue(i) => {
                self.close_prompt();
                let mut h = self.record().header.clone();
                if let Some(f) = h.fields.get_mut(i)
                    && f.value != text
                {
                    f.value = text;
                    self.set_header(h);
                }
            }
            PromptKind::HeaderNewKey => self.submit_header_key(&text),
            PromptKind::ExplorerFilter => self.submit_explorer_filter(&text),
            PromptKind::HeaderNewValue(key) => {
                self.close_prompt();
                let mut h = self.record().header.clone();
                h.set(&key, &text);
                self.set_header(h);
                let last = self.record().header.fields.len().saturating_sub(1);
                if let Some(l) = self.overlays.list_mut() {
                    l.selected = last;
                }
            }
        }
    }

    /// A typed move (or an ending word): entered, or the error stays on the status line.
    fn submit_move(&mut self, text: &str) {
        if text.is_empty() {
            self.close_prompt();
            return;
        }
        let cur = self.cur();
        let prev_to = self.record().node(cur).move_data().map(|m| m.mv.to());
        match input::parse(self.position(), prev_to, text) {
            Ok(Entered::Move(mv)) => {
                self.close_prompt();
                self.enter_move(mv);
            }
            Ok(Entered::Special(s)) => {
                self.close_prompt();
                self.add_ending(s);
            }
            Err(e) => {
                let msg = match &e {
                    InputError::Ambiguous(c) => {
                        format!("which one? {} (type one of them)", c.join(" / "))
                    }
                    _ => e.to_string(),
                };
                self.info_level(crate::core::text::sanitize(&msg).into_owned(), Level::Error);
            }
        }
    }

    /// A bookmark name for the current move (empty: the bookmark is removed).
    fn submit_bookmark(&mut self, text: String) {
        self.close_prompt();
        let node = self.cur();
        let name = (!text.is_empty()).then(|| text.clone());
        if self.record().node(node).bookmark == name {
            return;
        }
        if self
            .apply_or_say(Edit::SetBookmark { node, name })
            .is_some()
        {
            self.info(if text.is_empty() {
                "bookmark removed".to_string()
            } else {
                format!("bookmark &{text} set ('  lists the bookmarks)")
            });
        }
    }

    /// A new header field's name: an existing field edits its value, a new one asks for it.
    fn submit_header_key(&mut self, text: &str) {
        let key = text.trim_end_matches([':', '：']).trim().to_string();
        if key.is_empty() {
            self.close_prompt();
            return;
        }
        if key.contains(['：', '\n']) || key.starts_with('#') {
            self.info_level(
                "a field name cannot contain '：' or start with '#'".into(),
                Level::Error,
            );
            return;
        }
        if let Some(i) = self
            .record()
            .header
            .fields
            .iter()
            .position(|f| f.key == key)
        {
            let value = self.record().header.fields[i].value.clone();
            self.next_prompt(Prompt {
                kind: PromptKind::HeaderValue(i),
                label: format!("{key}："),
                text: value,
            });
            return;
        }
        self.next_prompt(Prompt {
            kind: PromptKind::HeaderNewValue(key.clone()),
            label: format!("{key}："),
            text: String::new(),
        });
    }
}
