//! The library's state: the list (ordered ids, the row selected, the rows' details cached by
//! id), the filter and the sort, the threads, the indexing's progress, the game opened from
//! it. Data and the cheap steps on it; the commands are in `mod.rs`.

use super::worker::{Listed, Worker};
use crate::collection::catalog::Catalog;
use crate::collection::{Filter, GameInfo, SortBy};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

/// Rows whose details are kept; more clears the cache (a page is fetched again in one query).
const CACHE: usize = 4096;

/// The columns in the order `library_sort` cycles through them.
pub const SORTS: [SortBy; 8] = [
    SortBy::Date,
    SortBy::Sente,
    SortBy::Gote,
    SortBy::Event,
    SortBy::Result,
    SortBy::Moves,
    SortBy::Tags,
    SortBy::Path,
];

/// The game shown in the viewer, opened from the list: its id and where it is.
#[derive(Clone, Debug)]
pub(crate) struct Opened {
    pub(crate) id: u32,
    pub(crate) path: PathBuf,
    /// 0-based record of the file.
    pub(crate) record: usize,
}

/// The collection's game list (`kifview DIR`, `kifview --index IDX`, `O`).
pub struct Library {
    /// The index folder.
    pub(super) dir: PathBuf,
    /// The folder `kifview DIR` indexed: the list holds its games only.
    pub(super) root: Option<PathBuf>,
    /// The filter as typed, and as read (with the folder's `under`).
    pub(super) filter_text: String,
    pub(super) filter: Filter,
    pub(super) sort: SortBy,
    pub(super) descending: bool,
    /// The games passing the filter, in order; `None` until the first list comes.
    pub(super) ids: Option<Vec<u32>>,
    /// Games of the library unfiltered.
    pub(super) total: u64,
    pub(super) selected: usize,
    /// The first row shown, and how many rows the screen showed last.
    pub(super) top: usize,
    pub(super) height: usize,
    pub(super) rows: HashMap<u32, GameInfo>,
    /// Bumped when the rows' details may have changed (a new indexing): what the screen
    /// made of them is made again.
    pub(super) rows_generation: u64,
    /// The app's own connection, for the rows' details (a page in one query).
    pub(super) catalog: Option<Catalog>,
    pub(super) worker: Worker,
    /// The list asked for (its generation) and the last one asked.
    pub(super) asked: Option<u64>,
    pub(super) generation: u64,
    /// Indexing the folder is under way.
    pub(super) indexing: bool,
    /// The progress last reported as a change (the screen redraws when it moves).
    pub(super) seen_progress: (u64, u64),
    /// What the last indexing said (files, games, failures), or why the list failed.
    pub(super) note: Option<String>,
    pub(super) error: Option<String>,
    pub(super) opened: Option<Opened>,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library")
            .field("dir", &self.dir)
            .field("filter", &self.filter_text)
            .field("selected", &self.selected)
            .finish_non_exhaustive()
    }
}

impl Library {
    pub(super) fn new(dir: PathBuf, root: Option<PathBuf>) -> Library {
        let filter = Library::base_of(root.as_ref());
        Library {
            worker: Worker::start(dir.clone(), root.clone()),
            indexing: root.is_some(),
            seen_progress: (0, 0),
            dir,
            root,
            filter_text: String::new(),
            filter,
            sort: SortBy::Date,
            descending: true,
            ids: None,
            total: 0,
            selected: 0,
            top: 0,
            height: 20,
            rows: HashMap::new(),
            rows_generation: 0,
            catalog: None,
            asked: None,
            generation: 0,
            note: None,
            error: None,
            opened: None,
        }
    }

    /// The folder's filter: its games only.
    pub(super) fn base_of(root: Option<&PathBuf>) -> Filter {
        Filter {
            under: root.map(|r| r.to_string_lossy().into_owned()),
            ..Filter::default()
        }
    }

    /// The games listed, in order.
    pub fn ids(&self) -> &[u32] {
        self.ids.as_deref().unwrap_or(&[])
    }
    /// Has a list come yet?
    pub fn listed(&self) -> bool {
        self.ids.is_some()
    }
    pub fn selected(&self) -> usize {
        self.selected
    }
    /// The first row shown.
    pub fn top(&self) -> usize {
        self.top
    }
    pub fn total(&self) -> u64 {
        self.total
    }
    pub fn filter_text(&self) -> &str {
        &self.filter_text
    }
    pub fn sort(&self) -> (SortBy, bool) {
        (self.sort, self.descending)
    }
    /// Why the last filter or list failed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
    /// What the last indexing said.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }
    /// (files read, files to read) while the folder is being indexed.
    pub fn progress(&self) -> Option<(u64, u64)> {
        self.indexing.then(|| {
            let p = &self.worker.progress;
            (
                p.done.load(Ordering::Relaxed),
                p.total.load(Ordering::Relaxed),
            )
        })
    }
    /// Is an answer awaited (the front end polls every few milliseconds)?
    pub fn busy(&self) -> bool {
        self.asked.is_some() || self.indexing
    }
    /// The details of game `id`, when fetched.
    pub fn row(&self, id: u32) -> Option<&GameInfo> {
        self.rows.get(&id)
    }
    /// Changes when the rows' details may have changed (the screen keeps the lines it drew
    /// for one generation).
    pub fn rows_generation(&self) -> u64 {
        self.rows_generation
    }
    /// The folder indexed, when the library is a folder's.
    pub fn root(&self) -> Option<&PathBuf> {
        self.root.as_ref()
    }

    /// Forgets the rows' details (an indexing may have changed them).
    pub(super) fn forget_rows(&mut self) {
        self.rows.clear();
        self.rows_generation += 1;
    }

    /// Has the indexing's progress moved since last asked?
    pub(super) fn progress_moved(&mut self) -> bool {
        let now = self.progress().unwrap_or_default();
        let moved = now != self.seen_progress;
        self.seen_progress = now;
        moved
    }

    /// Takes a computed list, keeping the game selected when it is still there.
    pub(super) fn take_list(&mut self, listed: Listed) {
        let keep = self.ids().get(self.selected).copied();
        self.selected = keep
            .and_then(|id| listed.ids.iter().position(|&x| x == id))
            .unwrap_or(0);
        self.total = listed.total;
        self.ids = Some(listed.ids);
        self.error = None;
        self.scroll_to_selected();
    }

    /// Moves the selection by `delta` rows (clamped).
    pub(super) fn move_by(&mut self, delta: isize) {
        let n = self.ids().len();
        if n == 0 {
            return;
        }
        self.selected = self.selected.saturating_add_signed(delta).min(n - 1);
        self.scroll_to_selected();
    }

    /// The first row shown follows the selection.
    pub(super) fn scroll_to_selected(&mut self) {
        let h = self.height.max(1);
        if self.selected < self.top {
            self.top = self.selected;
        } else if self.selected >= self.top + h {
            self.top = self.selected + 1 - h;
        }
        let n = self.ids().len();
        self.top = self.top.min(n.saturating_sub(h));
    }

    /// Fetches the details of the rows shown and two pages either side when one shown is
    /// missing: one query of at most five pages, so that stepping a page either way hits
    /// the cache at least twice before the next query.
    pub(super) fn fetch_rows(&mut self) -> Result<(), String> {
        let h = self.height.max(1);
        let ids = self.ids.as_deref().unwrap_or(&[]);
        let shown = ids.iter().skip(self.top).take(h);
        if shown.clone().all(|id| self.rows.contains_key(id)) {
            return Ok(());
        }
        if self.catalog.is_none() {
            self.catalog = Some(super::worker::open_catalog(&self.dir)?);
        }
        if self.rows.len() > CACHE {
            self.rows.clear();
        }
        let from = self.top.saturating_sub(2 * h);
        let want: Vec<u32> = (ids.iter().skip(from).take(5 * h))
            .filter(|id| !self.rows.contains_key(id))
            .copied()
            .collect();
        let cat = self.catalog.as_ref().expect("opened above");
        for g in cat.games_by_id(&want)? {
            self.rows.insert(g.id, g);
        }
        Ok(())
    }
}
