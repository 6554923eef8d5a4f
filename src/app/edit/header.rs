//! The header's fields (`e`): a list of them (and of the usual ones not set yet), whose
//! Enter edits a value, `a` adds a field (its name, then its value) and `d` deletes one.
//! Each prompt carries what its Enter does; every change is one undo step (`set_header`).

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::overlay::{ListContent, Prompt};
use crate::app::state::{App, Level};

/// The header list: the fields, then the usual ones the record does not have yet.
#[derive(Debug)]
struct HeaderList;

impl ListContent<App> for HeaderList {
    fn tag(&self) -> &'static str {
        "HEADER"
    }
    fn items(&self, app: &App) -> Vec<String> {
        app.record()
            .header
            .fields
            .iter()
            .map(|f| format!("{}：{}", f.key, f.value))
            .chain(
                app.header_placeholders()
                    .into_iter()
                    .map(|k| format!("{k}：（未設定）")),
            )
            .collect()
    }
    /// A field: edit its value; a usual field not set: give it one; past them: add a field.
    fn pick(&self, app: &mut App, selected: usize) {
        let n = app.record().header.fields.len();
        let Some(f) = app.record().header.fields.get(selected) else {
            match app.header_placeholders().get(selected - n) {
                Some(key) => app.open_prompt(new_value_prompt(key)),
                None => self.add(app),
            }
            return;
        };
        let prompt = value_prompt(selected, &f.key, f.value.clone());
        app.open_prompt(prompt);
    }
    fn add(&self, app: &mut App) {
        app.open_prompt(Prompt::new(
            "new field name (先手, 後手, 棋戦, 開始日時, 場所, ...): ",
            String::new(),
            App::submit_header_key,
        ));
    }
    fn delete(&self, app: &mut App, i: usize) {
        let mut h = app.record().header.clone();
        if i < h.fields.len() {
            let f = h.fields.remove(i);
            app.set_header(h);
            let u = app.key(Command::Undo);
            app.info(format!("removed {} ({u} undoes)", f.key));
        }
    }
}

/// The value of field number `i` (`key`), now `value`.
fn value_prompt(i: usize, key: &str, value: String) -> Prompt {
    Prompt::closing(format!("{key}："), value, move |app, text| {
        let mut h = app.record().header.clone();
        if let Some(f) = h.fields.get_mut(i)
            && f.value != text
        {
            f.value = text;
            app.set_header(h);
        }
    })
}

/// The value of a new field `key`; the list then selects it.
fn new_value_prompt(key: &str) -> Prompt {
    let label = format!("{key}：");
    let key = key.to_string();
    Prompt::closing(label, String::new(), move |app, text| {
        let mut h = app.record().header.clone();
        h.set(&key, &text);
        app.set_header(h);
        let last = app.record().header.fields.len().saturating_sub(1);
        app.select_in_list(last);
    })
}

impl App {
    /// `e`: the header's fields.
    pub(crate) fn open_header(&mut self) {
        let keys = self.keys_hint(
            KeyMode::List,
            &[
                (Command::ListPick, "edit"),
                (Command::ListAdd, "add"),
                (Command::ListDelete, "delete"),
                (Command::Close, "close"),
            ],
        );
        self.open_list(HeaderList, &format!("対局情報  {keys}"));
    }

    /// Usual header fields the record does not have yet (offered in the header list).
    pub(crate) fn header_placeholders(&self) -> Vec<&'static str> {
        let players = if self.record().initial.is_handicap_game() {
            ["下手", "上手"]
        } else {
            ["先手", "後手"]
        };
        players
            .into_iter()
            .chain(["棋戦", "開始日時", "場所", "持ち時間"])
            .filter(|k| self.record().header.get(k).is_none())
            .collect()
    }

    /// A new header field's name: an existing field edits its value, a new one asks for it.
    fn submit_header_key(&mut self, text: String) {
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
            self.next_prompt(value_prompt(i, &key, value));
            return;
        }
        self.next_prompt(new_value_prompt(&key));
    }
}
