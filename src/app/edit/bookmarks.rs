//! Bookmarks (しおり): the prompt that sets, renames or removes the current move's (`b`), and
//! the list of them that jumps to one or removes it (`'`).

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::overlay::{ListContent, Prompt};
use crate::app::state::App;
use crate::core::record::{Edit, NodeId};

/// The bookmarked nodes, in the record's order.
#[derive(Debug)]
struct Bookmarks(Vec<NodeId>);

impl ListContent<App> for Bookmarks {
    fn tag(&self) -> &'static str {
        "BOOKMARKS"
    }
    fn items(&self, app: &App) -> Vec<String> {
        self.0
            .iter()
            .map(|&id| {
                let n = app.record().node(id);
                format!(
                    "&{}  {}手目 {}",
                    n.bookmark.as_deref().unwrap_or(""),
                    app.record().move_number(id),
                    app.step_text(id)
                )
            })
            .collect()
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.close_list();
        if let Some(&id) = self.0.get(selected)
            && app.record().is_attached(id)
        {
            app.jump_to(id);
        }
    }
    fn delete(&self, app: &mut App, selected: usize) {
        let Some(&node) = self.0.get(selected) else {
            return;
        };
        let mut ids = self.0.clone();
        ids.remove(selected);
        if app
            .apply_or_say(Edit::SetBookmark { node, name: None })
            .is_some()
        {
            if ids.is_empty() {
                app.close_list();
            } else if let Some(l) = app.overlays.list_mut() {
                l.content = std::rc::Rc::new(Bookmarks(ids));
                app.refresh_list();
            }
            let u = app.key(Command::Undo);
            app.info(format!("bookmark removed ({u} undoes)"));
        }
    }
}

impl App {
    /// `b`: set, rename or remove the current move's bookmark.
    pub(crate) fn open_bookmark_prompt(&mut self) {
        let cur = self.record().node(self.cur()).bookmark.clone();
        self.open_prompt(Prompt::closing(
            "bookmark: ",
            cur.unwrap_or_default(),
            App::set_bookmark,
        ));
    }

    /// A bookmark name for the current move (empty: the bookmark is removed).
    fn set_bookmark(&mut self, text: String) {
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

    /// `'`: the bookmarks, the current move's selected.
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
        self.open_list(Bookmarks(ids), &format!("しおり  {keys}"));
        self.select_in_list(sel);
    }
}
