//! The library (issue 23): the collection's games as a list, full screen: date, 先手, 後手,
//! event, result, moves, tags and file, sorted by any column (`s` cycles the column, `S`
//! reverses), filtered by a typed filter (`/` or `f`: the CLI's filter syntax,
//! `collection::filter_text`). `kifview DIR` indexes DIR into the index (the default one, or
//! `--index IDX`) on a thread, with its progress on the list's status line, and lists DIR's
//! games, the list filling as the indexing commits; `kifview --index IDX` lists that index's;
//! `O` opens it from the viewer.
//!
//! The list never queries on the key path for more than a page: a thread computes the
//! ordered ids of the games passing the filter once per filter and sort (`worker.rs`), the
//! list holds them, scrolling moves in them, and the same thread fetches the rows of the
//! pages around the screen by id before the list gets there (`state.rs`): a page step finds
//! its rows kept; only a jump (or a new list) fetches the page shown on the key path.
//!
//! Enter opens the game at its start in place of the record shown (asking first about
//! unsaved edits: save, discard or stay); `O` returns to the list at the same row with the
//! same filter; in a game opened from it, `}` / `{` open the next / previous game of the
//! filtered list (each record of a multi-record file is a game of the list, so they step
//! through its records too), asking the same question first.

pub mod screen;
pub mod state;
pub mod worker;

use crate::app::LaunchOptions;
use crate::app::document::{self, job::Then};
use crate::app::overlay::{Answer, Mode, Overlay};
use crate::app::state::{App, Level};
pub use screen::LibraryScreen;
pub use state::Library;
pub use state::Side;
use state::{Opened, SORTS};
use worker::{ListRequest, Reply};

impl App {
    /// At launch: `kifview DIR` (index DIR, list its games) or `kifview --index IDX` without
    /// a file (that index's games). True when the library opened.
    pub(crate) fn open_library_at_launch(&mut self, opts: &LaunchOptions) -> bool {
        let root = match &opts.file {
            Some(f) if f.is_dir() => match std::path::absolute(f) {
                Ok(abs) => Some(abs),
                Err(e) => {
                    self.info_level(format!("{}: {e}", f.display()), Level::Error);
                    return false;
                }
            },
            Some(_) => return false,
            None if opts.index.is_some() && !opts.setup && opts.handicap.is_none() => None,
            None => return false,
        };
        match crate::collection::index_dir(opts.index.clone()) {
            Ok(dir) => {
                self.new_library(dir, root);
                self.show_library();
                true
            }
            Err(e) => {
                self.info_level(e, Level::Error);
                false
            }
        }
    }

    /// A library of the index in `dir` (of the folder `root`'s games when given), its summary
    /// from my side when there is a "me", else from 先手's.
    fn new_library(&mut self, dir: std::path::PathBuf, root: Option<std::path::PathBuf>) {
        let mut l = Library::new(dir, root, self.session.events.clone());
        if !self.config.me.is_empty() {
            l.side = Side::Me;
        }
        self.collection.library = Some(Box::new(l));
    }

    /// `library_side` (`v`): the summary's results from the next side: 先手, 後手, then me
    /// (when there is a "me").
    pub(crate) fn library_side(&mut self) {
        let me = !self.config.me.is_empty();
        let Some(l) = self.collection.library.as_deref_mut() else {
            return;
        };
        l.side = match l.side {
            Side::Sente => Side::Gote,
            Side::Gote if me => Side::Me,
            Side::Gote | Side::Me => Side::Sente,
        };
        let side = l.side;
        self.info(match side {
            Side::Sente => "summary: results from 先手's side",
            Side::Gote => "summary: results from 後手's side",
            Side::Me => "summary: results from my side, my colour in each game",
        });
    }

    /// The library, when one was opened.
    pub fn library(&self) -> Option<&Library> {
        self.collection.library.as_deref()
    }

    /// `library` (`O`): the list, at the row and with the filter it had (the game shown
    /// selected when it came from it); the `--index` or default index's when none was open.
    pub(crate) fn open_library(&mut self) {
        if self.collection.library.is_none() {
            match crate::collection::index_dir(self.collection.index().cloned()) {
                Ok(dir) => self.new_library(dir, None),
                Err(e) => return self.info_level(e, Level::Error),
            }
        }
        if let Some(id) = self.library_game_shown()
            && let Some(l) = self.collection.library.as_deref_mut()
            && let Some(row) = l.ids().iter().position(|&x| x == id)
        {
            l.selected = row;
        }
        self.show_library();
    }

    fn show_library(&mut self) {
        if self.mode() != Mode::Library {
            self.overlays
                .push(Overlay::Library(LibraryScreen::default()));
        }
        self.ask_list();
        self.library_tick();
    }

    /// The id of the game shown when it was opened from the list (and is still the record
    /// shown: `:e` or `Ctrl-o` leave it).
    fn library_game_shown(&self) -> Option<u32> {
        let o = self.library()?.opened.as_ref()?;
        let s = self.source();
        (s.path.as_ref() == Some(&o.path) && s.record_index == o.record).then_some(o.id)
    }

    /// Asks the lister for the list of the filter and sort now.
    fn ask_list(&mut self) {
        let Some(l) = self.collection.library.as_deref_mut() else {
            return;
        };
        l.generation += 1;
        l.asked = Some(l.generation);
        // Who "me" is: the config's (or --me), for my results over the list.
        let mut filter = l.filter.clone();
        filter.me_names = self.config.me.clone();
        l.worker.ask(ListRequest {
            generation: l.generation,
            filter,
            base: Library::base_of(l.root.as_ref()),
            sort: l.sort,
            descending: l.descending,
        });
    }

    /// Takes the threads' answers and fetches the rows shown. Cheap: the front end calls it
    /// after every key and every few milliseconds while [`Library::busy`]. True when the
    /// list changed.
    pub(crate) fn library_tick(&mut self) -> bool {
        let mut changed = false;
        while let Some(reply) = self
            .collection
            .library
            .as_ref()
            .and_then(|l| l.worker.try_reply())
        {
            changed |= self.library_reply(reply);
        }
        let mut relist = false;
        if let Some(l) = self.collection.library.as_deref_mut() {
            changed |= l.progress_moved();
            // The indexing committed games: the list grows (a rebuild may have replaced the
            // catalog's file since the rows were read).
            if l.indexing && l.worker.relist_due() {
                l.catalog = None;
                l.rows.clear();
                relist = true;
            }
        }
        if relist {
            self.ask_list();
        }
        changed | self.library_fetch()
    }

    /// Waits until the list is computed, the rows around the screen fetched and indexing has
    /// ended (tests, benchmarks).
    #[doc(hidden)]
    pub fn library_settle(&mut self) {
        self.library_tick();
        while self.library().is_some_and(Library::busy) {
            let Some(reply) = self.library().and_then(|l| l.worker.wait_reply()) else {
                break;
            };
            self.library_reply(reply);
            self.library_fetch();
        }
    }

    fn library_fetch(&mut self) -> bool {
        let Some(l) = self.collection.library.as_deref_mut() else {
            return false;
        };
        let before = l.rows.len();
        if l.ids.is_some()
            && let Err(e) = l.fetch_rows()
        {
            l.error = Some(e);
        }
        l.rows.len() != before
    }

    /// Takes an answer of the threads; true when it changes what the list shows.
    fn library_reply(&mut self, reply: Reply) -> bool {
        let Some(l) = self.collection.library.as_deref_mut() else {
            return false;
        };
        match reply {
            Reply::Rows {
                generation,
                seq,
                result,
            } => {
                l.take_rows(generation, seq, result);
                return false;
            }
            Reply::Listed { generation, result } => {
                if l.asked != Some(generation) {
                    return false;
                }
                l.asked = None;
                match result {
                    Ok(listed) => l.take_list(listed),
                    // No index yet while the first indexing runs: not an error.
                    Err(_) if l.indexing => l.worker.relist_again(),
                    Err(e) => l.error = Some(e),
                }
            }
            Reply::Indexed(result) => {
                l.indexing = false;
                let forgot = l.forgetting.take();
                if let Some(root) = l.reindex.take() {
                    l.indexing = true;
                    l.worker.index(root);
                }
                // A rebuild may have replaced the catalog's file.
                l.catalog = None;
                l.forget_rows();
                let text = match (result, forgot) {
                    (Ok(r), Some(f)) => forgot_note(&f, &r),
                    (Err(e), Some(f)) => format!("{} not forgotten: {e}", f.display()),
                    (Ok(r), None) => indexed_note(&r),
                    (Err(e), None) => format!("not indexed: {e}"),
                };
                let text = crate::core::text::sanitize(&text).into_owned();
                l.note = Some(text.clone());
                if self.mode() != Mode::Library {
                    self.info(text);
                }
                self.ask_list();
            }
            Reply::Changed => {
                // What is shown stays until the new list comes (`Library::take_list`).
                l.stale = true;
                l.catalog = None;
                self.ask_list();
            }
        }
        true
    }

    /// A file was saved: when it is under the library's folder (or, for an index's library,
    /// under a folder of the index), that folder is indexed again on the indexer's thread,
    /// which reads only what changed (the file saved), and the list shows the game as saved.
    pub(crate) fn library_saved(&mut self, path: &std::path::Path) {
        let Some(l) = self.collection.library.as_deref_mut() else {
            return;
        };
        let Ok(path) = std::path::absolute(path) else {
            return;
        };
        let root = match &l.root {
            Some(r) => path.starts_with(r).then(|| r.clone()),
            // One query of the catalog, once a save.
            None => {
                (crate::collection::build::roots(&l.dir).into_iter()).find(|r| path.starts_with(r))
            }
        };
        let Some(root) = root else { return };
        if l.indexing {
            l.reindex = Some(root);
        } else {
            l.indexing = true;
            l.worker.index(root);
        }
    }

    /// Waits for the threads' next word (a list, rows, the indexing's end, or that the index
    /// changed) and takes it (tests: an index changed from outside is seen when the lister
    /// looks), then settles.
    #[doc(hidden)]
    pub fn library_wait_reply(&mut self) {
        if let Some(reply) = self.library().and_then(|l| l.worker.wait_reply()) {
            self.library_reply(reply);
        }
        self.library_settle();
    }

    /// `library_down`, `library_up`, `library_top`, `library_bottom`.
    pub(crate) fn library_move(&mut self, delta: isize) {
        if let Some(l) = self.collection.library.as_deref_mut() {
            l.move_by(delta);
        }
        // The rows fetched ahead that came since the last tick first.
        self.library_tick();
    }

    /// `library_page_down` / `library_page_up`: a screenful.
    pub(crate) fn library_page(&mut self, pages: isize) {
        let h = self.library().map_or(1, |l| l.height.max(2) - 1);
        self.library_move(pages * h as isize);
    }

    /// The screen showed `rows` rows of games (0: the library was not drawn): the rows it can
    /// show now are fetched when they are not kept (a resize; on the key path, never from
    /// drawing). True when rows came.
    pub(crate) fn library_height(&mut self, rows: usize) -> bool {
        match self.collection.library.as_deref_mut() {
            Some(l) if rows > 0 && l.height != rows => {
                l.height = rows;
                self.library_fetch()
            }
            _ => false,
        }
    }

    /// `library_sort` (`s`): sorts by the next column (dates newest first, the others A to Z).
    pub(crate) fn library_sort(&mut self) {
        let Some(l) = self.collection.library.as_deref_mut() else {
            return;
        };
        let i = SORTS.iter().position(|&s| s == l.sort).map_or(0, |i| i + 1);
        l.sort = SORTS[i % SORTS.len()];
        l.descending = l.sort == crate::collection::SortBy::Date;
        self.ask_list();
    }

    /// `library_reverse` (`S`): the other direction.
    pub(crate) fn library_reverse(&mut self) {
        if let Some(l) = self.collection.library.as_deref_mut() {
            l.descending = !l.descending;
            self.ask_list();
        }
    }

    /// `library_filter` (`/`, `f`): types a filter, prefilled with the current one.
    pub(crate) fn library_filter(&mut self) {
        let text = self.library().map(|l| l.filter_text.clone());
        if let Some(Overlay::Library(s)) = self.overlays.top_mut() {
            s.editing = text;
        }
    }

    /// Enter on the filter: applies it (empty clears it); one that does not read says why
    /// and keeps the list.
    pub(crate) fn library_filter_submit(&mut self) {
        let Some(Overlay::Library(s)) = self.overlays.top_mut() else {
            return;
        };
        let Some(text) = s.editing.take() else {
            return;
        };
        if self.collection.library.is_none() {
            return;
        }
        let text = text.trim().to_string();
        let parsed = self.typed_filter(&text);
        let Some(l) = self.collection.library.as_deref_mut() else {
            return;
        };
        match parsed {
            Ok(mut f) => {
                if f.under.is_none() {
                    f.under = Library::base_of(l.root.as_ref()).under;
                }
                l.filter = f;
                l.filter_text = text;
                l.error = None;
                l.selected = 0;
                self.ask_list();
            }
            Err(e) => {
                l.error = Some(format!("filter not applied: {e}"));
            }
        }
    }

    /// Esc on the filter: back to the list, the filter as it was.
    pub(crate) fn library_filter_cancel(&mut self) {
        if let Some(Overlay::Library(s)) = self.overlays.top_mut() {
            s.editing = None;
        }
    }

    /// `library_forget` (`D`): asks, then forgets a folder from the index, as `kifview index
    /// --forget` does (its games leave the index; the files stay): the library's folder, or in
    /// an index's library the folder of the index that holds the game selected. The list
    /// follows when the update ends.
    pub(crate) fn library_forget(&mut self) {
        let Some(l) = self.library() else { return };
        if l.indexing {
            return self.info("the index is being updated: forget a folder once that ends");
        }
        let (folder, games) = match &l.root {
            Some(r) => (r.clone(), Some(l.total())),
            None => {
                let path = (l.ids().get(l.selected).and_then(|&id| l.row(id)))
                    .map(|g| crate::collection::walk::key_path(&g.path));
                let Some(path) = path else {
                    return self.info("no game selected: select one of the folder to forget");
                };
                // One read of the catalog's folders, once a command.
                let roots = crate::collection::build::roots(&l.dir);
                match roots.into_iter().find(|r| path.starts_with(r)) {
                    Some(r) => (r, None),
                    None => {
                        let text = format!("{}: no folder of the index holds it", path.display());
                        return self.info_level(text, Level::Error);
                    }
                }
            }
        };
        let shown = crate::core::text::sanitize(&folder.display().to_string()).into_owned();
        let games = games.map_or_else(String::new, |n| format!(" {n}"));
        let index = l.dir.display().to_string();
        self.ask(
            format!("Forget {shown} from the index?"),
            vec![
                format!("Its{games} games leave the index {index}; the files stay on disk."),
                format!("kifview index {shown} puts them back."),
            ],
            vec![(Answer::Yes, "forget"), (Answer::No, "keep")],
            move |app, a| match a {
                Answer::Yes => app.library_forget_now(folder.clone()),
                _ => app.info("nothing forgotten"),
            },
        );
    }

    /// Forgets `folder` on the indexer's thread (the answer was yes).
    fn library_forget_now(&mut self, folder: std::path::PathBuf) {
        let Some(l) = self.collection.library.as_deref_mut() else {
            return;
        };
        if l.indexing {
            return self.info("the index is being updated: forget a folder once that ends");
        }
        l.indexing = true;
        l.forgetting = Some(folder.clone());
        l.worker.forget(folder);
    }

    /// `library_open` (Enter): the game selected, in the viewer.
    pub(crate) fn library_open(&mut self) {
        let Some(l) = self.library() else { return };
        let Some(&id) = l.ids().get(l.selected) else {
            return self.info("no game to open");
        };
        self.library_go(id);
    }

    /// `}` / `{` in a game opened from the list: the next or previous game of the list.
    /// False when the record shown is not the list's (the file's own records then).
    pub(crate) fn library_step(&mut self, delta: isize) -> bool {
        let Some(id) = self.library_game_shown() else {
            return false;
        };
        let Some(l) = self.library() else {
            return false;
        };
        let ids = l.ids();
        let Some(row) = ids.iter().position(|&x| x == id) else {
            self.info("this game is no longer in the list (O shows it)");
            return true;
        };
        let to = row as isize + delta;
        if to < 0 || to >= ids.len() as isize {
            let which = if delta < 0 { "first" } else { "last" };
            self.info(format!(
                "this is the {which} game of the list ({}/{})",
                row + 1,
                ids.len()
            ));
            return true;
        }
        self.library_go(ids[to as usize]);
        true
    }

    /// Opens game `id`, asking first when the record shown has unsaved edits.
    fn library_go(&mut self, id: u32) {
        if self.is_modified() {
            let name = self.source().name.clone();
            self.ask_save_first(
                format!("{name} has unsaved changes. Save it before opening another game?"),
                Vec::new(),
                ["save and go", "discard and go"],
                move |app, a| app.answer_library_game(id, a),
            );
            return;
        }
        self.library_show(id);
    }

    /// The answer to "save before opening another game?".
    fn answer_library_game(&mut self, id: u32, a: Answer) {
        match a {
            Answer::Save => self.save_or_ask_name(Then::LibraryGame(id)),
            Answer::Discard => self.library_show(id),
            _ => self.info("still here: nothing was saved or discarded"),
        }
    }

    /// Shows game `id` of the catalog at its start (the edits of the record shown were saved
    /// or discarded).
    pub(crate) fn library_show(&mut self, id: u32) {
        let Some(l) = self.collection.library.as_deref_mut() else {
            return;
        };
        if l.stale && !l.rows.contains_key(&id) {
            return self.info("the index changed: listing its games again…");
        }
        if l.catalog.is_none() {
            l.catalog = worker::open_catalog(&l.dir).ok();
        }
        if !l.rows.contains_key(&id) {
            let got = (l.catalog.as_ref())
                .ok_or_else(|| "the catalog is not open".to_string())
                .and_then(|c| c.games_by_id(&[id]));
            match got {
                Ok(games) => l.rows.extend(games.into_iter().map(|g| (g.id, g))),
                Err(e) => return self.info_level(e, Level::Error),
            }
        }
        let Some(g) = l.rows.get(&id).cloned() else {
            return self.info_level(format!("game {id} is gone from the index"), Level::Error);
        };
        let path = crate::collection::walk::key_path(&g.path);
        let record = g.record.saturating_sub(1) as usize;
        let (rec, source) = match document::read(&path, record) {
            Ok(r) => r,
            Err(e) => return self.info_level(e, Level::Error),
        };
        let row = l.ids().iter().position(|&x| x == id);
        if let Some(row) = row {
            l.selected = row;
        }
        l.opened = Some(Opened { id, path, record });
        let n = l.ids().len();
        self.replace_record(rec, source);
        let names = format!(
            "{} - {}",
            g.sente.as_deref().unwrap_or("?"),
            g.gote.as_deref().unwrap_or("?")
        );
        let names = crate::core::text::sanitize(&names).into_owned();
        let at = row.map_or_else(String::new, |r| format!("game {}/{n}: ", r + 1));
        self.info(format!(
            "{at}{names}  ({{ }} previous/next game, {} back to the list)",
            self.key(crate::app::Command::Library)
        ));
        self.offer_recovery();
    }
}

/// What forgetting `folder` did, in one line.
fn forgot_note(folder: &std::path::Path, r: &crate::collection::Report) -> String {
    let s = if r.games_removed == 1 { "" } else { "s" };
    format!(
        "forgot {}: its {} game{s} left the index (the files stay); the index holds {} games",
        folder.display(),
        r.games_removed,
        r.games
    )
}

/// What an indexing did, in one line: files read, failures and warnings, and the games of the
/// whole index (said as such: the list may count one folder's, which its title says).
fn indexed_note(r: &crate::collection::Report) -> String {
    let files = if r.files_read == 1 { "file" } else { "files" };
    let mut text = format!(
        "indexed: {} {files} read, {} unchanged",
        r.files_read, r.files_unchanged
    );
    if !r.failures.is_empty() {
        text.push_str(&format!("; {} files skipped", r.failures.len()));
    }
    if !r.warnings.is_empty() {
        text.push_str(&format!("; {} warnings", r.warnings.len()));
    }
    text.push_str(&format!("; the whole index holds {} games", r.games));
    text
}

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::overlay::behaviour::{Handler, OverlayState, Tag, clone_box, insert_each};

impl OverlayState<App> for LibraryScreen {
    fn mode(&self) -> Mode {
        Mode::Library
    }
    /// The library's keys; the command line's while a filter is typed (Enter applies it,
    /// Esc leaves it).
    fn key_mode(&self) -> KeyMode {
        if self.editing.is_some() {
            KeyMode::Command
        } else {
            KeyMode::Library
        }
    }
    fn takes_text(&self) -> bool {
        self.editing.is_some()
    }
    fn tag(&self) -> Tag {
        if self.editing.is_some() {
            return Tag::Keys(
                "FILTER",
                &[(Command::Submit, "apply"), (Command::Cancel, "leave")],
            );
        }
        Tag::Keys(
            "LIBRARY",
            &[
                (Command::LibraryOpen, "open"),
                (Command::LibraryFilter, "filter"),
                (Command::LibrarySort, "sort"),
                (Command::LibraryReverse, "reverse"),
                (Command::Close, "close"),
            ],
        )
    }
    fn submit(&self) -> Option<Handler> {
        self.editing
            .is_some()
            .then_some(App::library_filter_submit as Handler)
    }
    fn cancel(&self) -> Handler {
        if self.editing.is_some() {
            App::library_filter_cancel
        } else {
            App::close_overlay
        }
    }
    fn insert(&mut self, c: char) -> Option<fn(&mut App, char)> {
        if let Some(t) = &mut self.editing
            && t.chars().count() < 512
        {
            t.push(c);
        }
        None
    }
    fn delete_back(&mut self) -> Option<Handler> {
        if let Some(t) = &mut self.editing {
            t.pop();
        }
        None
    }
    /// The first line, without control characters (a filter is one line).
    fn paste(&mut self, text: &str) -> Option<fn(&mut App, &str)> {
        insert_each(self, text.lines().next().unwrap_or(""))
    }
    clone_box!();
}
