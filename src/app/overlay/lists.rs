//! Lists to pick from: the mechanics (open, move, refresh, and Enter, add and delete handed to
//! the list, and sorting and filtering to a list that sorts or filters). What a list shows
//! and does is its [`ListContent`], a type in its feature's
//! folder (bookmarks, endings and header fields in `app::edit`, the presets in
//! `app::edit::setup`, the engine's lists in `app::research`, the search's matches in
//! `app::search`, the collection's games in `app::collection`).

pub use crate::app::overlay::{ListContent, ListView};
use crate::app::overlay::{Mode, Overlay};
use crate::app::state::App;
use std::rc::Rc;

impl App {
    /// Opens a list of `content` titled `title` (in place of a list open on top), its
    /// first row selected.
    pub(crate) fn open_list(&mut self, content: impl ListContent<App> + 'static, title: &str) {
        self.overlays.replace_or_push(Overlay::List(ListView {
            content: Rc::new(content),
            title: title.to_string(),
            items: Vec::new(),
            selected: 0,
        }));
        self.refresh_list();
    }

    /// Selects row `i` of the list open (kept within its rows).
    pub(crate) fn select_in_list(&mut self, i: usize) {
        if let Some(l) = self.overlays.list_mut() {
            l.selected = i.min(l.items.len().saturating_sub(1));
        }
    }

    /// Closes the list on top.
    pub(crate) fn close_list(&mut self) {
        if self.mode() == Mode::List {
            self.overlays.pop();
        }
    }

    /// Makes the rows of the topmost list again from what it shows.
    pub(crate) fn refresh_list(&mut self) {
        let Some(l) = self.overlays.list() else {
            return;
        };
        let items = Rc::clone(&l.content).items(self);
        if let Some(l) = self.overlays.list_mut() {
            l.selected = l.selected.min(items.len().saturating_sub(1));
            l.items = items;
        }
    }

    pub(crate) fn list_move(&mut self, d: isize) {
        if let Some(l) = self.overlays.list_mut() {
            let n = l.items.len() as isize;
            l.selected = (l.selected as isize)
                .saturating_add(d)
                .clamp(0, (n - 1).max(0)) as usize;
        }
    }

    /// `list_page_down` / `list_page_up`: a screenful (the rows the list showed last, less
    /// one kept in sight).
    pub(crate) fn list_page(&mut self, pages: isize) {
        let rows = self.drawn().overlay_rows.max(2) - 1;
        self.list_move(pages * rows as isize);
    }

    /// The list open and its selected row.
    fn list_open(&self) -> Option<(Rc<dyn ListContent<App>>, usize)> {
        self.overlays
            .list()
            .map(|l| (Rc::clone(&l.content), l.selected))
    }

    /// `list_pick` (Enter): the list does what choosing its row means.
    pub(crate) fn list_pick(&mut self) {
        if let Some((content, selected)) = self.list_open() {
            content.pick(self, selected);
        }
    }

    /// `list_add`: the list adds an entry, if it adds.
    pub(crate) fn list_add(&mut self) {
        if let Some((content, _)) = self.list_open() {
            content.add(self);
        }
    }

    /// `list_delete`: the list deletes its selected entry, if it deletes.
    pub(crate) fn list_delete(&mut self) {
        if let Some((content, selected)) = self.list_open() {
            content.delete(self, selected);
        }
    }

    /// `list_sort` / `list_reverse`: the list sorts by its next column or reverses its
    /// order, if it sorts.
    pub(crate) fn list_sort(&mut self, reverse: bool) {
        if let Some((content, selected)) = self.list_open()
            && !content.sort(self, selected, reverse)
        {
            self.info("this list has one order");
        }
    }

    /// `list_filter`: the list asks for its filter, if it is filtered.
    pub(crate) fn list_filter(&mut self) {
        if let Some((content, _)) = self.list_open()
            && !content.filter(self)
        {
            self.info("this list has no filter");
        }
    }
}
