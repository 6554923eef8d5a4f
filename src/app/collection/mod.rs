//! The collection in the viewer (issue 23). The explorer pane (`x`): for the position on the
//! board, the moves the games of the collection played there and how they scored, from the
//! `--index IDX` collection or the default one (`collection::index_dir`), whatever record is
//! open. A query never runs on the key path: a thread owns the index (`worker.rs`), the app
//! asks it for the cursor's position after each key ([`App::collection_tick`], which also runs
//! on the event each answer sends, `app::events::Event::Collection`) and shows the previous answer marked as updating
//! until the new one comes. The worker follows the index (`worker::follow`): an update or a
//! rebuild from outside is seen within `worker::CHECK`, and every answer kept is asked again.
//! `X` gives the pane the focus (`focus.rs`): a highlighted move that
//! Enter plays (following the record's move when it has it, else adding it as a variation:
//! one undo step), and the filter of the games it looks at (`player:藤井 2020..2023`, the
//! CLI's syntax), which its title shows and the games list (`o`, `games.rs`) shares.

pub mod focus;
pub mod games;
pub(crate) mod mailbox;
pub mod state;
pub mod worker;

use crate::app::state::{App, Level};
use crate::collection::{Explored, Filter};
use crate::core::rules::{Move, Position, Square};
use state::Answer;
pub use state::{Collection, Explorer, ExplorerRow, ExplorerView, GamesOrder, GamesSort};
use worker::{Reply, Request};

/// Answers kept for positions already seen (going back shows them at once).
const CACHE: usize = 512;

/// The position's part of the key an answer is filed under: the SFEN without its move
/// number.
fn key_of(p: &Position) -> String {
    let sfen = p.to_sfen();
    match sfen.rfind(' ') {
        Some(i) => sfen[..i].to_string(),
        None => sfen,
    }
}

/// The pane's rows for `explored` at `pos` (reached by a move to `prev_to`).
fn rows_of(explored: &Explored, pos: &Position, prev_to: Option<Square>) -> Vec<ExplorerRow> {
    let total = ExplorerRow {
        label: "全体".to_string(),
        mv: None,
        games: explored.games,
        sente: explored.sente,
        gote: explored.gote,
        draw: explored.draw,
        unknown: explored.unknown,
        me: explored.me,
    };
    let moves = explored.moves.iter().filter_map(|m| {
        let mv = Move::from_usi(&m.usi)?;
        Some(ExplorerRow {
            label: crate::core::notation::ki2::line_text(pos, &[mv], prev_to),
            mv: Some(mv),
            games: m.games,
            sente: m.sente,
            gote: m.gote,
            draw: m.draw,
            unknown: m.unknown,
            me: m.me,
        })
    });
    std::iter::once(total).chain(moves).collect()
}

impl App {
    /// A filter as typed in the library or the explorer ([`Filter::parse`]): a relative
    /// `under:` from the current folder, as on the command line, and "me" the config's
    /// (`[collection] me`, or `--me`); `me` with nobody to be is an error saying how.
    pub(crate) fn typed_filter(&self, text: &str) -> Result<Filter, String> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let mut f = Filter::parse(text)?.absolute_under(&cwd);
        f.me_names = self.config.me.clone();
        f.check_me()?;
        Ok(f)
    }

    /// The explorer's state.
    pub fn explorer(&self) -> &Explorer {
        &self.collection.explorer
    }

    /// The collection: its index, the explorer, the library.
    pub fn collection(&self) -> &Collection {
        &self.collection
    }

    /// `toggle_explorer` (`x`): shows or hides the explorer pane.
    pub(crate) fn toggle_explorer(&mut self) {
        let e = &mut self.collection.explorer;
        e.shown = !e.shown;
        if e.shown {
            self.collection.start_explorer(&self.session.events);
            self.collection_tick();
        } else {
            self.unfocus_explorer();
        }
    }

    /// Asks for the cursor's position when the pane shows another, and takes the worker's
    /// answers. Cheap (a key, a lock, a channel): the front end calls it after every key and
    /// every few milliseconds while [`Explorer::busy`]. True when the pane changed.
    pub fn collection_tick(&mut self) -> bool {
        let library = self.library_tick();
        if !self.collection.explorer.shown && !self.collection.explorer.finding() {
            return library;
        }
        let mut changed = self.take_replies(false);
        if self.collection.explorer.shown {
            changed |= self.ask_here();
        }
        changed | library
    }

    /// Waits for the answer about the cursor's position (tests, benchmarks).
    #[doc(hidden)]
    pub fn collection_settle(&mut self) {
        self.collection_tick();
        while self.collection.busy() {
            if !self.take_replies(true) {
                break;
            }
            if self.collection.explorer.shown {
                self.ask_here();
            }
        }
    }

    /// Sends the cursor's position to the worker unless it is the one shown or asked.
    fn ask_here(&mut self) -> bool {
        let key = self.collection_key();
        let prev_to = (self.record().node(self.cur()).move_data()).map(|m| m.mv.to());
        let e = &mut self.collection.explorer;
        if e.shown_answer.as_ref().is_some_and(|a| a.key == key)
            || e.asked.as_ref().is_some_and(|a| a.0 == key)
        {
            return false;
        }
        if let Some(rows) = e.cache.get(&key) {
            e.shown_answer = Some(Answer {
                key,
                rows: rows.clone(),
            });
            e.asked = None;
            return true;
        }
        if e.worker.is_none() {
            return false;
        }
        let position = self.position().clone();
        let filter = self.explorer_filter();
        let e = &mut self.collection.explorer;
        let Some(w) = &e.worker else {
            return false;
        };
        w.ask(Request {
            key: key.clone(),
            position: position.clone(),
            filter,
        });
        e.asked = Some((key, position, prev_to));
        true
    }

    /// Takes what the worker sent (waiting for one reply when `block`). True when something
    /// came.
    fn take_replies(&mut self, block: bool) -> bool {
        let Some(w) = &self.collection.explorer.worker else {
            return false;
        };
        let mut got = false;
        let mut first = block.then(|| w.wait_reply()).flatten();
        while let Some(reply) = first
            .take()
            .or_else(|| self.collection.explorer.worker.as_ref()?.try_reply())
        {
            got = true;
            let e = &mut self.collection.explorer;
            match reply {
                Reply::NoIndex(why) => {
                    if e.finding.take().is_some() {
                        let text = format!("no collection to search ({why})");
                        self.info_level(text, Level::Error);
                    }
                    let e = &mut self.collection.explorer;
                    e.missing = Some(why);
                    e.asked = None;
                }
                Reply::Found { key, result } => self.games_found(key, result),
                Reply::Changed => {
                    // Every answer kept is of the index as it was: the one shown stays,
                    // marked as updating, until the position is asked again.
                    e.cache.clear();
                    if let Some(a) = e.shown_answer.as_mut() {
                        a.key.clear();
                    }
                    e.asked = None;
                }
                Reply::Explored { key, result } => {
                    // An answer for a position the cursor has already left is dropped: the
                    // newest request is on its way.
                    let Some((asked, pos, prev_to)) = e.asked.as_ref() else {
                        continue;
                    };
                    if *asked != key {
                        continue;
                    }
                    match result {
                        Ok(explored) => {
                            let rows = rows_of(&explored, pos, *prev_to);
                            if e.cache.len() >= CACHE {
                                e.cache.clear();
                            }
                            e.cache.insert(key.clone(), rows.clone());
                            e.shown_answer = Some(Answer { key, rows });
                            e.failed = None;
                        }
                        Err(why) => e.failed = Some(why),
                    }
                    e.asked = None;
                }
            }
        }
        let e = &mut self.collection.explorer;
        if block && !got {
            // The worker stopped without a word: say so rather than wait again.
            e.finding = None;
            e.missing = Some("the explorer's worker stopped".to_string());
            e.asked = None;
        }
        got
    }

    /// Waits for the worker's next word (an answer, or that the index changed) and takes
    /// it, then asks for the cursor's position again when needed (tests: an index changed
    /// from outside is seen when the worker looks).
    #[doc(hidden)]
    pub fn collection_wait_reply(&mut self) {
        self.take_replies(true);
        if self.collection.explorer.shown {
            self.ask_here();
        }
    }

    /// What the pane shows now.
    pub fn explorer_view(&self) -> ExplorerView {
        let e = &self.collection.explorer;
        if let Some(why) = &e.missing {
            return ExplorerView::NoIndex(why.clone());
        }
        if let Some(why) = &e.failed {
            return ExplorerView::Failed(why.clone());
        }
        match &e.shown_answer {
            None => ExplorerView::Opening,
            Some(a) => ExplorerView::Rows {
                rows: a.rows.clone(),
                updating: a.key != self.collection_key(),
            },
        }
    }

    /// The key answers for the cursor's position are filed under: the games looked at
    /// (`explorer_scope`, the library's filter and folder too when it follows it) and the
    /// position (`key_of`), so that the cache holds each filter's answers apart and an answer
    /// for an earlier filter is never taken for this one.
    pub(super) fn collection_key(&self) -> String {
        let e = &self.collection.explorer;
        let me = if e.as_me { "\n(as me)" } else { "" };
        let under = match self.followed_library() {
            Some(l) => format!("{:?}", l.filter().under),
            None => String::new(),
        };
        let scope = self.explorer_scope();
        format!("{scope}{under}{me}\n{}", key_of(self.position()))
    }

    /// The library the pane follows, when it does and one is open.
    fn followed_library(&self) -> Option<&crate::app::library::Library> {
        let l = self.collection.library.as_deref()?;
        self.collection.explorer.follows.then_some(l)
    }

    /// The filter the pane and the games list (`o`) ask with: the pane's own, or the library's
    /// (its folder's games, its filter) when the pane follows it; as me, my games of it.
    pub(super) fn explorer_filter(&self) -> Filter {
        let e = &self.collection.explorer;
        match self.followed_library() {
            Some(l) => {
                let mut f = l.filter().clone();
                f.me_names = self.config.me.clone();
                e.as_me_of(f)
            }
            None => e.as_me_of(e.filter.clone()),
        }
    }

    /// Which games the pane counts, as its title says: the filter typed; following the
    /// library, `一覧` with the library's folder (`coll/`, or nothing for the whole index) and
    /// filter; empty: every indexed game.
    pub fn explorer_scope(&self) -> String {
        let Some(l) = self.followed_library() else {
            return self.collection.explorer.filter_text.clone();
        };
        let folder =
            (l.root().and_then(|r| r.file_name())).map(|n| format!(" {}/", n.to_string_lossy()));
        let filter = match l.filter_text() {
            "" => String::new(),
            f => format!(" {f}"),
        };
        format!("一覧:{}{filter}", folder.unwrap_or_default())
    }

    /// `explorer_follow_library` (`L` in the pane): the games of the library's folder and
    /// filter, following them as they change; again: the pane's own filter.
    pub(crate) fn toggle_explorer_follow(&mut self) {
        let e = &self.collection.explorer;
        if !e.follows && self.collection.library.is_none() {
            let key = self.key(crate::app::Command::Library);
            let text =
                format!("no library to follow ({key} opens the index's, kifview DIR a folder's)");
            return self.info_level(text, Level::Error);
        }
        let e = &mut self.collection.explorer;
        e.follows = !e.follows;
        let text = match e.follows {
            true => format!("explorer: the library's games ({})", self.explorer_scope()),
            false => match self.collection.explorer.filter_text.as_str() {
                "" => "explorer: every indexed game (no longer the library's)".to_string(),
                f => format!("explorer: games with {f} (no longer the library's)"),
            },
        };
        self.info(text);
        self.collection_tick();
    }

    /// `explorer_as_me` (`m` in the pane): my games only, scored from my side; again:
    /// everyone's. Nobody named as me: says how to name oneself.
    pub(crate) fn toggle_explorer_as_me(&mut self) {
        if self.config.me.is_empty() {
            let text = "as me: who is me? Set `[collection] me = [\"NAME\", …]` in the config, \
                        or start with --me NAME";
            return self.info_level(text.to_string(), Level::Error);
        }
        let e = &mut self.collection.explorer;
        e.as_me = !e.as_me;
        e.filter.me_names = self.config.me.clone();
        let as_me = e.as_me;
        self.info(if as_me {
            format!("explorer: as me ({})", self.config.me.join(", "))
        } else {
            "explorer: everyone's games".to_string()
        });
        self.collection_tick();
    }
}
