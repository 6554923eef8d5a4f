//! The collection's state in [`App`](crate::app::App), [`Collection`]: the index it reads, the
//! explorer pane (shown, its worker, the answers, the filter), the library (the full-screen
//! list, `app::library`) and the back/forward stack of records. Data only: the behaviour is in
//! `mod.rs`, `games.rs` and `app::library`.

use super::worker::Worker;
use crate::app::document::Document;
use crate::collection::{Filter, MeTally};
use crate::core::record::NodeId;
use crate::core::rules::{Move, Position, Square};
use std::collections::HashMap;
use std::path::PathBuf;

/// One row of the pane: the total line (no move) or a move with the games that played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerRow {
    /// `全体` for the total line, else the move in Japanese for the side to move (`▲７六歩`).
    pub label: String,
    pub mv: Option<Move>,
    pub games: u64,
    pub sente: u64,
    pub gote: u64,
    pub draw: u64,
    pub unknown: u64,
    /// As me (`explorer_as_me`): my games of these, scored from my side.
    pub me: Option<MeTally>,
}

/// What the pane shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplorerView {
    /// Waiting for the first answer (the index is being opened).
    Opening,
    /// No index, or it cannot be read: why, and how to make one.
    NoIndex(String),
    /// A query failed.
    Failed(String),
    /// The rows (the total line first); `updating`: they are of an earlier position and the
    /// answer for this one is on its way.
    Rows {
        rows: Vec<ExplorerRow>,
        updating: bool,
    },
}

/// An answer and the position it is about.
#[derive(Clone, Debug)]
pub(super) struct Answer {
    pub(super) key: String,
    pub(super) rows: Vec<ExplorerRow>,
}

/// The collection in the viewer, owned whole by `App`: which index it reads, and the three
/// things that read it or come from it, each owning its own thread (the explorer's worker,
/// the library's lister and indexer): the explorer pane, the library once opened, and the
/// records left for a collection game.
#[derive(Debug, Default)]
pub struct Collection {
    /// `--index IDX`; `None`: the default index.
    pub(super) index: Option<PathBuf>,
    pub(crate) explorer: Explorer,
    /// The game list (`app::library`), once opened.
    pub(crate) library: Option<Box<crate::app::library::state::Library>>,
    /// Records left for a collection game (`Ctrl-o` returns), and those left going back
    /// (`Ctrl-n`).
    pub(super) back: Vec<Stashed>,
    pub(super) forward: Vec<Stashed>,
    /// The games list (`o`) a game was last opened from, and which of its games (`}` / `{`
    /// step through it).
    pub(super) walked: Option<(std::rc::Rc<[GameRef]>, usize)>,
    /// The open opening books and their pane (`app::book`): what the user has beside the
    /// record, as the collection is.
    pub(crate) books: crate::app::book::state::Books,
}

impl Collection {
    /// The collection of `--index IDX`, or `None` for the default.
    pub fn with_index(index: Option<PathBuf>) -> Collection {
        Collection {
            index,
            ..Collection::default()
        }
    }

    /// `--index IDX`, when given.
    pub(crate) fn index(&self) -> Option<&PathBuf> {
        self.index.as_ref()
    }

    pub fn explorer(&self) -> &Explorer {
        &self.explorer
    }

    /// Is an answer awaited, of the explorer or the library?
    pub fn busy(&self) -> bool {
        self.explorer.busy() || self.library.as_ref().is_some_and(|l| l.busy())
    }

    /// Starts the explorer's worker on the index, unless it runs or there is none; its
    /// answers wake the run loop through `events`.
    pub(super) fn start_explorer(&mut self, events: &crate::app::events::Events) {
        self.explorer.start(self.index.clone(), events);
    }

    /// The documents left with Ctrl-o/Ctrl-n (open, not shown).
    pub(crate) fn stacked(&self) -> impl Iterator<Item = &Document> {
        self.back.iter().chain(self.forward.iter()).map(|s| &s.doc)
    }
}

/// The explorer pane's state: shown or not, its worker, the answers, the filter.
#[derive(Debug, Default)]
pub struct Explorer {
    pub(super) shown: bool,
    pub(super) worker: Option<Worker>,
    /// Why there is no index to ask.
    pub(super) missing: Option<String>,
    /// The request last sent: its key, position and the square of the move that led there.
    pub(super) asked: Option<(String, Position, Option<Square>)>,
    /// The answer last shown.
    pub(super) shown_answer: Option<Answer>,
    pub(super) failed: Option<String>,
    /// Answers by key (the filter's text and the position: `App::collection_key`).
    pub(super) cache: HashMap<String, Vec<ExplorerRow>>,
    /// The games the pane and the games list look at: the filter as typed (normalised to
    /// single spaces; empty: every game) and as read.
    pub(super) filter_text: String,
    pub(super) filter: Filter,
    /// The move highlighted while the pane has the focus (`X`): kept across answers while
    /// the new rows still have it, else the first move is.
    pub(super) selected: Option<Move>,
    /// As me (`explorer_as_me`): the games I played only, scored from my side.
    pub(super) as_me: bool,
    /// Following the library (`explorer_follow_library`): the games of its folder and filter
    /// instead of the pane's own filter.
    pub(super) follows: bool,
    /// A filter typed that did not read: the next `/` offers it again to mend.
    pub(super) rejected: Option<String>,
    /// The key of the position whose games `o` asked for.
    pub(super) finding: Option<String>,
    /// The order of the games list (`o`), kept for the next list.
    pub(super) games_order: GamesOrder,
}

/// What the games list (`o`) is sorted by: the library's columns a game of it has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GamesSort {
    #[default]
    Date,
    Sente,
    Gote,
    Result,
    Moves,
}

impl GamesSort {
    /// The columns in the order `list_sort` cycles through them.
    pub const ALL: [GamesSort; 5] = [
        GamesSort::Date,
        GamesSort::Sente,
        GamesSort::Gote,
        GamesSort::Result,
        GamesSort::Moves,
    ];

    /// Its head, as the library's column (`日付`).
    pub fn head(self) -> &'static str {
        match self {
            GamesSort::Date => "日付",
            GamesSort::Sente => "先手",
            GamesSort::Gote => "後手",
            GamesSort::Result => "結果",
            GamesSort::Moves => "手数",
        }
    }
}

/// The games list's column and direction: newest first unless changed, as the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamesOrder {
    pub by: GamesSort,
    pub descending: bool,
}

impl Default for GamesOrder {
    fn default() -> GamesOrder {
        GamesOrder {
            by: GamesSort::Date,
            descending: true,
        }
    }
}

impl Explorer {
    /// The filter `f` the pane asks with, and as me my games of it (the side the filter
    /// names, else either).
    pub(super) fn as_me_of(&self, mut f: Filter) -> Filter {
        if self.as_me && f.me.is_none() {
            f.me = Some(crate::collection::MeSide::Either);
        }
        f
    }

    pub fn shown(&self) -> bool {
        self.shown
    }

    /// The filter as typed (empty: every game).
    pub fn filter_text(&self) -> &str {
        &self.filter_text
    }

    /// Does the pane follow the library's folder and filter?
    pub fn follows_library(&self) -> bool {
        self.follows
    }

    /// Is the pane "as me" (my games, from my side)?
    pub fn as_me(&self) -> bool {
        self.as_me
    }

    /// Is an answer awaited?
    pub fn busy(&self) -> bool {
        ((self.shown && self.asked.is_some()) || self.finding()) && self.missing.is_none()
    }

    fn start(&mut self, index: Option<PathBuf>, events: &crate::app::events::Events) {
        if self.worker.is_some() || self.missing.is_some() {
            return;
        }
        match crate::collection::index_dir(index) {
            Ok(dir) => self.worker = Some(Worker::start(dir, events.clone())),
            Err(e) => self.missing = Some(e),
        }
    }
}

/// A game of the list: where it is and the label the list shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRef {
    pub path: PathBuf,
    /// 1-based record in the file.
    pub record: u32,
    /// Plies from the record's start when it reaches the position.
    pub ply: u32,
    /// The variations that lead there when the main line does not (`collection::Found`'s).
    pub variation: Vec<crate::collection::Fork>,
    pub label: String,
    /// What the list sorts by: the date, the players, the result, the game's moves, and
    /// its place in the worker's answer (ties keep it).
    pub date: Option<String>,
    pub sente: String,
    pub gote: String,
    pub result: crate::collection::GameResult,
    pub moves: u32,
    pub seq: usize,
}

/// A record put aside, whole: what `Ctrl-o` / `Ctrl-n` bring back (its document: the record,
/// its edits and undo history, where it came from, whether it is followed; the node shown).
#[derive(Debug)]
pub(crate) struct Stashed {
    pub(super) doc: Document,
    pub(super) cur: NodeId,
}

impl Stashed {
    pub(super) fn modified(&self) -> bool {
        self.doc.is_modified()
    }
}

impl Explorer {
    /// Is the games list awaited?
    pub(super) fn finding(&self) -> bool {
        self.finding.is_some()
    }
}
