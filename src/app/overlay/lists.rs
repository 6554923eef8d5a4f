//! Lists to pick from: bookmarks, endings, header fields.

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::edit::position_editor::Preset;
pub use crate::app::overlay::{ListKind, ListView};
use crate::app::overlay::{Mode, Overlay, PromptKind};
use crate::app::state::{App, Level};
use crate::core::record::{Edit, NodeId, Special};

/// The endings `r` offers.
pub const ENDINGS: [Special; 9] = [
    Special::Resign,
    Special::Interrupt,
    Special::RepetitionDraw,
    Special::Impass,
    Special::Mate,
    Special::Timeout,
    Special::FoulWin,
    Special::FoulLose,
    Special::EnteringKing,
];

impl App {
    pub(crate) fn open_list(&mut self, kind: ListKind, title: &str) {
        self.overlays.replace_or_push(Overlay::List(ListView {
            kind,
            title: title.to_string(),
            items: Vec::new(),
            selected: 0,
        }));
        self.refresh_list();
    }

    /// Closes the list on top.
    pub(crate) fn close_list(&mut self) {
        if self.mode() == Mode::List {
            self.overlays.pop();
        }
    }

    pub(crate) fn refresh_list(&mut self) {
        let Some(l) = self.overlays.list() else {
            return;
        };
        let items: Vec<String> = match &l.kind {
            ListKind::Bookmarks(ids) => ids
                .iter()
                .map(|&id| {
                    let n = self.record().node(id);
                    format!(
                        "&{}  {}手目 {}",
                        n.bookmark.as_deref().unwrap_or(""),
                        self.record().move_number(id),
                        self.step_text(id)
                    )
                })
                .collect(),
            ListKind::Endings => ENDINGS.iter().map(|s| s.kif_word().to_string()).collect(),
            ListKind::Presets => Preset::all()
                .into_iter()
                .map(|p| p.name().to_string())
                .collect(),
            ListKind::Header => self
                .record()
                .header
                .fields
                .iter()
                .map(|f| format!("{}：{}", f.key, f.value))
                .chain(
                    self.header_placeholders()
                        .into_iter()
                        .map(|k| format!("{k}：（未設定）")),
                )
                .collect(),
            ListKind::Engines(all) => self.engine_list_items(all),
            ListKind::EngineOptions => self.option_list_items(),
            ListKind::EngineLines => self.pv_list_items(),
            ListKind::Search => self.search_list_items(),
            ListKind::CollectionGames(games) => App::collection_games_items(games),
        };
        if let Some(l) = self.overlays.list_mut() {
            l.selected = l.selected.min(items.len().saturating_sub(1));
            l.items = items;
        }
    }

    pub(crate) fn open_bookmarks(&mut self) {
        let ids: Vec<NodeId> = self
            .record()
            .preorder()
            .into_iter()
            .filter(|&id| self.record().node(id).bookmark.is_some())
            .collect();
        if ids.is_empty() {
            let b = self.key(Command::EditBookmark);
            self.info(format!("no bookmarks ({b} sets one on the current move)"));
            return;
        }
        let cur = self.cur();
        let sel = ids.iter().position(|&i| i == cur).unwrap_or(0);
        let keys = self.keys_hint(
            KeyMode::List,
            &[(Command::ListPick, "go"), (Command::Close, "close")],
        );
        self.open_list(ListKind::Bookmarks(ids), &format!("しおり  {keys}"));
        if let Some(l) = self.overlays.list_mut() {
            l.selected = sel;
        }
    }

    pub(crate) fn open_endings(&mut self) {
        if let Some(s) = self.record().node(self.cur()).special() {
            let word = s.kif_word().to_string();
            self.info_level(format!("the line has already ended ({word})"), Level::Error);
            return;
        }
        let keys = self.keys_hint(
            KeyMode::List,
            &[
                (Command::ListPick, "end the line here"),
                (Command::Close, "cancel"),
            ],
        );
        self.open_list(ListKind::Endings, &format!("終局  {keys}"));
    }

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
        self.open_list(ListKind::Header, &format!("対局情報  {keys}"));
    }

    pub(crate) fn list_move(&mut self, d: isize) {
        if let Some(l) = self.overlays.list_mut() {
            let n = l.items.len() as isize;
            l.selected = (l.selected as isize + d).clamp(0, (n - 1).max(0)) as usize;
        }
    }

    pub(crate) fn list_pick(&mut self) {
        let Some(l) = self.overlays.list().cloned() else {
            return;
        };
        match l.kind {
            ListKind::Bookmarks(ids) => {
                self.close_list();
                if let Some(&id) = ids.get(l.selected)
                    && self.record().is_attached(id)
                {
                    self.jump_to(id);
                }
            }
            ListKind::Presets => {
                self.close_list();
                self.pick_preset(l.selected);
            }
            ListKind::Endings => {
                self.close_list();
                if let Some(s) = ENDINGS.get(l.selected) {
                    self.add_ending(s.clone());
                }
            }
            ListKind::Header => {
                let n = self.record().header.fields.len();
                let Some(f) = self.record().header.fields.get(l.selected) else {
                    match self.header_placeholders().get(l.selected - n) {
                        Some(key) => self.open_prompt(
                            PromptKind::HeaderNewValue(key.to_string()),
                            &format!("{key}："),
                            String::new(),
                        ),
                        None => self.list_add(),
                    }
                    return;
                };
                let (label, value) = (format!("{}：", f.key), f.value.clone());
                self.open_prompt(PromptKind::HeaderValue(l.selected), &label, value);
            }
            ListKind::Engines(all) => {
                self.close_list();
                if let Some(spec) = all.get(l.selected) {
                    self.switch_engine(spec.clone());
                }
            }
            ListKind::EngineOptions => self.pick_option(l.selected),
            ListKind::EngineLines => {
                self.close_list();
                self.insert_pv(l.selected);
            }
            ListKind::Search => self.search_list_pick(l.selected),
            ListKind::CollectionGames(games) => {
                if let Some(g) = games.get(l.selected) {
                    self.open_collection_game(g.clone());
                }
            }
        }
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

    pub(crate) fn list_add(&mut self) {
        if matches!(
            self.overlays.list().map(|l| &l.kind),
            Some(ListKind::Header)
        ) {
            self.open_prompt(
                PromptKind::HeaderNewKey,
                "new field name (先手, 後手, 棋戦, 開始日時, 場所, ...): ",
                String::new(),
            );
        }
    }

    pub(crate) fn list_delete(&mut self) {
        let Some(l) = self.overlays.list().cloned() else {
            return;
        };
        match l.kind {
            ListKind::Header => {
                let i = l.selected;
                let mut h = self.record().header.clone();
                if i < h.fields.len() {
                    let f = h.fields.remove(i);
                    self.set_header(h);
                    let u = self.key(Command::Undo);
                    self.info(format!("removed {} ({u} undoes)", f.key));
                }
            }
            ListKind::Bookmarks(ids) => {
                if let Some(&node) = ids.get(l.selected) {
                    let mut ids = ids.clone();
                    ids.remove(l.selected);
                    if self
                        .apply_or_say(Edit::SetBookmark { node, name: None })
                        .is_some()
                    {
                        if ids.is_empty() {
                            self.close_list();
                        } else if let Some(l) = self.overlays.list_mut() {
                            l.kind = ListKind::Bookmarks(ids);
                            self.refresh_list();
                        }
                        let u = self.key(Command::Undo);
                        self.info(format!("bookmark removed ({u} undoes)"));
                    }
                }
            }
            // The endings, the presets and the engine lists offer nothing to delete.
            ListKind::Endings
            | ListKind::Presets
            | ListKind::Engines(_)
            | ListKind::EngineOptions
            | ListKind::EngineLines
            | ListKind::Search
            | ListKind::CollectionGames(_) => {}
        }
    }
}
