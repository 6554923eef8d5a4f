//! The library's state: the list (ordered ids, the row selected, the rows' details cached by
//! id), the summary above it and the side it counts for, the filter and the sort, the threads, the indexing's progress, the game opened from
//! it. Data and the cheap steps on it; the commands are in `mod.rs`.

use super::worker::{Listed, RowsRequest, Summary, Worker};
use crate::app::events::Events;
use crate::collection::catalog::Catalog;
use crate::collection::{Filter, GameInfo, MeTally, SortBy};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::Ordering;

/// Rows whose details are kept; more keeps only those of the pages around the screen.
const CACHE: usize = 4096;

/// Pages either side of the screen whose rows the lister fetches before the list gets there
/// (a page step finds its rows kept, and never queries the catalog on the key path).
const AHEAD: usize = 3;

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

/// Whose results the summary above the list counts: 先手's, 後手's, or mine (my colour in
/// each game, with a "me").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Sente,
    Gote,
    Me,
}

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
    /// With a "me": my games of the list, from my side.
    pub(super) me: Option<MeTally>,
    /// The summary above the list (the games by result, their most frequent tags), and the
    /// side whose results it shows.
    pub(super) summary: Option<Summary>,
    pub(super) side: Side,
    pub(super) selected: usize,
    /// How many rows the screen showed, as the front end last handed over
    /// (`App::take_drawn`); where the rows start is the screen's (`tui::view`), which keeps the
    /// selected row in view.
    pub(super) height: usize,
    pub(super) rows: HashMap<u32, GameInfo>,
    /// Bumped when the rows' details may have changed (a new indexing): what the screen
    /// made of them is made again.
    pub(super) rows_generation: u64,
    /// The app's own connection, for the rows' details (a page in one query) when the rows
    /// shown are not kept yet (a jump, a new list).
    pub(super) catalog: Option<Catalog>,
    /// Queries of the catalog made on the key path (tests: none is made while drawing).
    pub(super) queries: u64,
    /// The pages around the screen last asked of the lister (list generation, first and
    /// end rows), and the rows requests asked and answered (`Library::busy` until the last
    /// is).
    pub(super) ahead: Option<(u64, usize, usize)>,
    pub(super) rows_asked: u64,
    pub(super) rows_answered: u64,
    pub(super) worker: Worker,
    /// The list asked for (its generation) and the last one asked.
    pub(super) asked: Option<u64>,
    pub(super) generation: u64,
    /// Indexing the folder is under way.
    pub(super) indexing: bool,
    /// A folder to index again once the indexing under way ends (a file of it was saved
    /// meanwhile).
    pub(super) reindex: Option<PathBuf>,
    /// The folder being forgotten (`library_forget`), while the update that forgets it runs.
    pub(super) forgetting: Option<PathBuf>,
    /// The index changed since the list was computed (`Reply::Changed`): its ids may name
    /// other games now, so no row is fetched for them and none opened that is not shown, until
    /// the new list comes.
    pub(super) stale: bool,
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
    pub(super) fn new(dir: PathBuf, root: Option<PathBuf>, events: Events) -> Library {
        let filter = Library::base_of(root.as_ref());
        Library {
            worker: Worker::start(dir.clone(), root.clone(), events),
            indexing: root.is_some(),
            reindex: None,
            forgetting: None,
            stale: false,
            seen_progress: (0, 0),
            dir,
            root,
            filter_text: String::new(),
            filter,
            sort: SortBy::Date,
            descending: true,
            ids: None,
            total: 0,
            me: None,
            summary: None,
            side: Side::Sente,
            selected: 0,
            height: 20,
            rows: HashMap::new(),
            rows_generation: 0,
            catalog: None,
            queries: 0,
            ahead: None,
            rows_asked: 0,
            rows_answered: 0,
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
            under: root.map(|r| crate::collection::walk::path_key(r)),
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
    /// With a "me": my games of the list and how they went for me.
    pub fn me_tally(&self) -> Option<&MeTally> {
        self.me.as_ref()
    }
    /// The summary above the list, once a list came.
    pub fn summary(&self) -> Option<&Summary> {
        self.summary.as_ref()
    }
    /// The side whose results the summary shows.
    pub fn side(&self) -> Side {
        self.side
    }
    /// The results of the games listed from the side chosen, as a tally (`None`: as me with
    /// nobody named as me, or no list yet).
    pub fn side_tally(&self) -> Option<MeTally> {
        let [s, g, d, u] = self.summary.as_ref()?.results;
        let (win, loss) = match self.side {
            Side::Sente => (s, g),
            Side::Gote => (g, s),
            Side::Me => return self.me,
        };
        Some(MeTally {
            games: s + g + d + u,
            win,
            loss,
            draw: d,
            unknown: u,
        })
    }
    pub fn total(&self) -> u64 {
        self.total
    }
    /// The filter in force, as read (the folder's `under` with it).
    pub(crate) fn filter(&self) -> &Filter {
        &self.filter
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
    /// The folder being forgotten from the index, while it is.
    pub fn forgetting(&self) -> Option<&PathBuf> {
        self.forgetting.as_ref()
    }
    /// Is the indexing waiting for another kifview's update of the index to end?
    pub fn waiting(&self) -> bool {
        self.indexing && self.worker.progress.waiting.load(Ordering::Relaxed)
    }
    /// Is an answer awaited (the front end polls every few milliseconds)?
    pub fn busy(&self) -> bool {
        self.asked.is_some() || self.indexing || self.rows_asked != self.rows_answered
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
    /// How many times the app queried the catalog for rows itself (on the key path).
    #[doc(hidden)]
    pub fn catalog_queries(&self) -> u64 {
        self.queries
    }
    /// The folder indexed, when the library is a folder's.
    pub fn root(&self) -> Option<&PathBuf> {
        self.root.as_ref()
    }

    /// Forgets the rows' details (an indexing may have changed them).
    pub(super) fn forget_rows(&mut self) {
        self.rows.clear();
        self.ahead = None;
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
        self.selected = match self.stale {
            // The ids of the old list may name other games now: the same row, not the id.
            true => self.selected.min(listed.ids.len().saturating_sub(1)),
            false => keep
                .and_then(|id| listed.ids.iter().position(|&x| x == id))
                .unwrap_or(0),
        };
        if std::mem::take(&mut self.stale) {
            self.forget_rows();
            self.opened = None;
        }
        self.total = listed.total;
        self.me = listed.me;
        self.summary = Some(listed.summary);
        self.ids = Some(listed.ids);
        self.error = None;
    }

    /// Moves the selection by `delta` rows (clamped).
    pub(super) fn move_by(&mut self, delta: isize) {
        let n = self.ids().len();
        if n == 0 {
            return;
        }
        self.selected = self.selected.saturating_add_signed(delta).min(n - 1);
    }

    /// The rows the screen can show: whatever row it starts at, the selected one is in view,
    /// so they are within a screen's height of it either way.
    fn on_screen(&self) -> (usize, usize) {
        let h = self.height.max(1);
        let n = self.ids().len();
        (
            self.selected.saturating_sub(h - 1).min(n),
            (self.selected + h).min(n),
        )
    }

    /// Fetches the details of the rows the screen can show that are not kept (one query, on
    /// the key path: only after a jump or a new list), then asks the lister for the pages
    /// around them.
    pub(super) fn fetch_rows(&mut self) -> Result<(), String> {
        if self.stale {
            return Ok(());
        }
        let (from, to) = self.on_screen();
        let ids = self.ids.as_deref().unwrap_or(&[]);
        let want: Vec<u32> = (ids[from..to].iter())
            .filter(|id| !self.rows.contains_key(id))
            .copied()
            .collect();
        if !want.is_empty() {
            if self.catalog.is_none() {
                self.catalog = Some(super::worker::open_catalog(&self.dir)?);
            }
            let cat = self.catalog.as_ref().expect("opened above");
            let games = cat.games_by_id(&want)?;
            self.queries += 1;
            self.keep_rows(games);
        }
        self.fetch_ahead();
        Ok(())
    }

    /// The rows of the pages around the screen, `AHEAD` either side.
    fn around(&self) -> (usize, usize) {
        let h = self.height.max(1);
        let (from, to) = self.on_screen();
        let n = self.ids().len();
        (from.saturating_sub(AHEAD * h), (to + AHEAD * h).min(n))
    }

    /// Asks the lister for the rows around the screen not kept, when some of the nearer
    /// pages' are missing (so once every page or two, not for each row `j` brings into
    /// view), and once per screen's place.
    fn fetch_ahead(&mut self) {
        let h = self.height.max(1);
        let (from, to) = self.on_screen();
        let near = from.saturating_sub((AHEAD - 1) * h)..to + (AHEAD - 1) * h;
        let ids = self.ids();
        let near = &ids[near.start.min(ids.len())..near.end.min(ids.len())];
        if near.iter().all(|id| self.rows.contains_key(id)) {
            return;
        }
        let (from, to) = self.around();
        let at = Some((self.generation, from, to));
        if self.ahead == at {
            return;
        }
        self.ahead = at;
        let ids: Vec<u32> = (self.ids()[from..to].iter())
            .filter(|id| !self.rows.contains_key(id))
            .copied()
            .collect();
        if ids.is_empty() {
            return;
        }
        self.rows_asked += 1;
        self.worker.ask_rows(RowsRequest {
            generation: self.generation,
            seq: self.rows_asked,
            ids,
        });
    }

    /// Keeps the details of `games`; past `CACHE` rows, only those around the screen stay.
    pub(super) fn keep_rows(&mut self, games: Vec<GameInfo>) {
        if self.rows.len() + games.len() > CACHE {
            let (from, to) = self.around();
            let near: HashSet<u32> = self.ids()[from..to].iter().copied().collect();
            self.rows.retain(|id, _| near.contains(id));
        }
        self.rows.extend(games.into_iter().map(|g| (g.id, g)));
    }

    /// The lister's answer to a request for rows ahead (one for an older list is dropped).
    pub(super) fn take_rows(
        &mut self,
        generation: u64,
        seq: u64,
        games: Result<Vec<GameInfo>, String>,
    ) {
        self.rows_answered = self.rows_answered.max(seq);
        if generation != self.generation {
            return;
        }
        // A failure is not shown: the rows are fetched when the screen gets there.
        if let Ok(games) = games {
            self.keep_rows(games);
        }
    }
}
