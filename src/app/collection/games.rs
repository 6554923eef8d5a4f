//! Games at this position (`o`): every game of the collection that reaches the position on the
//! board, newest first (date, players, result, the ply, the move played next), sorted by
//! another column with `s` (`S` reverses; the title marks the column ▲/▼) and filtered with
//! `/` or `f` (the explorer's filter, which the list shares: the worker is asked again); Enter opens one
//! at that ply. The record left stays in memory, whole (its edits, undo history and node), on a
//! back stack: `Ctrl-o` returns to it, and the game left then goes on a forward stack
//! (`Ctrl-n`), so no record with unsaved edits is ever dropped; quitting asks about them. In a
//! game opened from the list, `}` / `{` open the list's next and previous games the same way.

use super::state::{GameRef, GamesOrder, GamesSort, Stashed};
use super::worker::Request;
use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::document::{self, Document};
use crate::app::overlay::{ListContent, Mode};
use crate::app::state::{App, Level};
use crate::collection::{Found, GameResult, Me, MeResult, MeTally};
use crate::core::rules::Move;
use std::rc::Rc;

fn result_word(o: GameResult) -> &'static str {
    match o {
        GameResult::Sente => "先手勝",
        GameResult::Gote => "後手勝",
        GameResult::Draw => "引分",
        GameResult::Unknown => "不明",
    }
}

/// A game of the list `o` opens: its row (date, players, result, my result when there is a
/// "me", which `mine` counts, the move played next, the file) and where it opens.
fn game_ref(
    (seq, f): (usize, &Found),
    pos: &crate::core::rules::Position,
    me: Option<&Me>,
    mine: &mut MeTally,
) -> GameRef {
    let g = &f.game;
    // The move played next, numbered as the game numbers its moves.
    let number = g.first_move + f.ply;
    let next = (f.next.as_deref())
        .and_then(Move::from_usi)
        .map(|m| crate::core::notation::ki2::line_text(pos, &[m], None))
        .map_or_else(
            || format!("{}手で終局", number.saturating_sub(1)),
            |m| format!("{number}手目 {m}"),
        );
    let name = |n: &Option<String>| {
        let n = n.as_deref().map_or("", str::trim);
        if n.is_empty() { "?" } else { n }.to_string()
    };
    let file = std::path::Path::new(&g.path)
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let my = me.map(|me| {
        let r = me
            .color(g.sente.as_deref(), g.gote.as_deref())
            .map(|c| c.result(g.result));
        if let Some(r) = r {
            mine.add(r);
        }
        format!("  自分{}", r.map_or("-", MeResult::kanji))
    });
    let label = format!(
        "{}  {} - {}  {}{}  {next}  {file}",
        g.date.as_deref().unwrap_or("----------"),
        name(&g.sente),
        name(&g.gote),
        result_word(g.result),
        my.unwrap_or_default(),
    );
    GameRef {
        path: crate::collection::walk::key_path(&g.path),
        record: g.record,
        ply: f.ply,
        variation: f.variation.clone(),
        label,
        date: g.date.clone(),
        sente: name(&g.sente),
        gote: name(&g.gote),
        result: g.result,
        moves: g.moves,
        seq,
    }
}

/// Sorts `games` by `order`: undated games last either way; ties in the worker's order.
fn sort_games(games: &mut [GameRef], order: GamesOrder) {
    let rank = |r: GameResult| match r {
        GameResult::Sente => 0,
        GameResult::Gote => 1,
        GameResult::Draw => 2,
        GameResult::Unknown => 3,
    };
    games.sort_by(|a, b| {
        let by = match order.by {
            GamesSort::Date => {
                let undated = a.date.is_none().cmp(&b.date.is_none());
                if undated.is_ne() {
                    return undated;
                }
                a.date.cmp(&b.date)
            }
            GamesSort::Sente => a.sente.cmp(&b.sente),
            GamesSort::Gote => a.gote.cmp(&b.gote),
            GamesSort::Result => rank(a.result).cmp(&rank(b.result)),
            GamesSort::Moves => a.moves.cmp(&b.moves),
        };
        let by = if order.descending { by.reverse() } else { by };
        by.then(a.seq.cmp(&b.seq))
    });
}

/// The tag of the games list (`o`) on the status line.
const GAMES_TAG: &str = "COLLECTION GAMES";

/// `o`: the collection's games reaching the position, in `order`; `head` is its title
/// before the order (the count, the filter, my score).
#[derive(Debug)]
struct CollectionGames {
    games: Rc<[GameRef]>,
    head: String,
}

impl ListContent<App> for CollectionGames {
    fn tag(&self) -> &'static str {
        GAMES_TAG
    }
    fn items(&self, _app: &App) -> Vec<String> {
        self.games.iter().map(|g| g.label.clone()).collect()
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.open_collection_game(Rc::clone(&self.games), selected);
    }
    /// `s`: the next column (dates newest first, the others A to Z, as the library); `S`:
    /// the other direction. The game selected stays selected.
    fn sort(&self, app: &mut App, selected: usize, reverse: bool) -> bool {
        let mut order = app.collection.explorer.games_order;
        if reverse {
            order.descending = !order.descending;
        } else {
            let all = GamesSort::ALL;
            let i = all.iter().position(|&s| s == order.by).map_or(0, |i| i + 1);
            order.by = all[i % all.len()];
            order.descending = order.by == GamesSort::Date;
        }
        app.collection.explorer.games_order = order;
        let at = self.games.get(selected).map(|g| g.seq);
        app.show_games_list(self.games.to_vec(), self.head.clone(), at);
        true
    }
    /// `/` or `f`: the explorer's filter (the list and the pane look at the same games); the
    /// list is asked for again with it.
    fn filter(&self, app: &mut App) -> bool {
        app.open_explorer_filter();
        true
    }
}

impl App {
    /// `collection_games` (`o`): asks the worker for the games reaching the cursor's position;
    /// the list opens when they come.
    pub(crate) fn open_collection_games(&mut self) {
        self.collection.start_explorer(&self.session.events);
        let key = self.collection_key();
        let position = self.position().clone();
        let filter = self.explorer_filter();
        let e = &mut self.collection.explorer;
        if let Some(why) = &e.missing {
            let why = why.clone();
            self.info_level(
                format!("no collection to search ({why}); kifview index DIR makes one"),
                Level::Error,
            );
            return;
        }
        let Some(w) = &e.worker else {
            return;
        };
        w.ask_find(Request {
            key: key.clone(),
            position,
            filter,
        });
        e.finding = Some(key);
        self.info("searching the collection for this position…");
    }

    /// The worker's answer to `o`: opens the list when the cursor is still there.
    pub(super) fn games_found(&mut self, key: String, result: Result<Vec<Found>, String>) {
        if self.collection.explorer.finding.as_ref() != Some(&key) {
            return;
        }
        self.collection.explorer.finding = None;
        // Still there, with the same filter, and browsing (or in the pane, or in the list
        // itself: a filter typed there).
        let relist = self.games_list_open();
        let here = relist || matches!(self.mode(), Mode::Normal | super::focus::FOCUS);
        if key != self.collection_key() || !here {
            return;
        }
        let found = match result {
            Ok(f) => f,
            Err(e) => return self.info_level(e, Level::Error),
        };
        let scope = self.explorer_scope();
        let said = match scope.as_str() {
            "" => "no game of the collection reaches this position".to_string(),
            f => format!("no game with {f} reaches this position"),
        };
        // The list open stays open, empty, to filter again.
        if found.is_empty() && !relist {
            return self.info(said);
        }
        let pos = self.position().clone();
        // With a "me": each game's result from my side, and my score over the list.
        let me = crate::collection::Me::new(&self.config.me);
        let mut mine = MeTally::default();
        let games: Vec<GameRef> = (found.iter().enumerate())
            .map(|f| game_ref(f, &pos, me.as_ref(), &mut mine))
            .collect();
        let n = games.len();
        self.info(match n {
            0 => said,
            1 => "1 game reaches this position".to_string(),
            n => format!("{n} games reach this position"),
        });
        let mut filter = match scope.as_str() {
            "" => String::new(),
            f => format!(" [{f}]"),
        };
        if self.collection.explorer.as_me {
            filter.push_str(" [as me]");
        }
        let score = match (&me, mine.win_percent()) {
            (None, _) => String::new(),
            (Some(_), None) => format!("  自分 {}局", mine.games),
            (Some(_), Some(p)) => format!(
                "  自分 {}局 {}勝{}敗{}分 勝率{p:.0}%",
                mine.games, mine.win, mine.loss, mine.draw
            ),
        };
        let head = format!("この局面の対局 {n}局{filter}{score}");
        self.show_games_list(games, head, None);
    }

    /// Is the games list (`o`) the list on top?
    pub(super) fn games_list_open(&self) -> bool {
        self.mode() == Mode::List
            && self
                .overlays
                .list()
                .is_some_and(|l| l.content.tag() == GAMES_TAG)
    }

    /// Opens the games list (in place of the one open) in the order in force, its title
    /// `head` and the order (`日付▼`), the game `at` (its place in the worker's answer)
    /// selected when given.
    fn show_games_list(&mut self, mut games: Vec<GameRef>, head: String, at: Option<usize>) {
        let order = self.collection.explorer.games_order;
        sort_games(&mut games, order);
        let row = at.and_then(|seq| games.iter().position(|g| g.seq == seq));
        let mark = if order.descending { "▼" } else { "▲" };
        let keys = self.keys_hint(
            KeyMode::List,
            &[
                (Command::ListPick, "open"),
                (Command::ListSort, "sort"),
                (Command::ListFilter, "filter"),
            ],
        );
        let title = format!("{head}  {}{mark}  {keys}", order.by.head());
        self.open_list(
            CollectionGames {
                games: games.into(),
                head,
            },
            &title,
        );
        if let Some(row) = row {
            self.select_in_list(row);
        }
    }

    /// Enter on game `at` of the list `games`: opens it at the ply where it reaches the
    /// position; the record left goes on the back stack (Ctrl-o returns to it). `}` / `{` in
    /// it open the list's next and previous games.
    pub(crate) fn open_collection_game(&mut self, games: Rc<[GameRef]>, at: usize) {
        let Some(g) = games.get(at).cloned() else {
            return;
        };
        self.close_list();
        let index = g.record.saturating_sub(1) as usize;
        let (record, source) = match document::read(&g.path, index) {
            Ok(r) => r,
            Err(e) => return self.info_level(e, Level::Error),
        };
        let left = self.stash_for(Document::new(record, source));
        self.collection.back.push(left);
        // A new way forward: the old one is dropped, but for records with unsaved edits.
        self.collection.forward.retain(Stashed::modified);
        self.collection.walked = Some((games, at));
        let name = self.source().name.clone();
        if g.variation.is_empty() {
            self.go_on_line(g.ply as usize);
        } else if let Some(id) = crate::collection::node_of(self.doc.record(), &g.variation, g.ply)
        {
            self.jump_to(id);
        } else {
            self.go_on_line(g.ply as usize);
            return self.info_level(
                format!(
                    "opened {name} at ply {} of the main line: the variation that reached the \
                     position is no longer in the file (kifview index updates the collection)",
                    g.ply
                ),
                Level::Warning,
            );
        }
        let on = if g.variation.is_empty() {
            ""
        } else {
            " of a variation"
        };
        self.info(format!(
            "opened {name} at ply {}{on} (Ctrl-o: back to the record you were in)",
            g.ply
        ));
    }

    /// `}` / `{` in a game opened from the games list (`o`): the next or previous game of
    /// that list, at the position, as Enter opens it. False when the record shown is not
    /// the list's game (the library's or the file's own records then).
    pub(crate) fn collection_games_step(&mut self, delta: isize) -> bool {
        let Some((games, at)) = self.collection.walked.clone() else {
            return false;
        };
        let g = &games[at];
        let s = self.source();
        if s.path.as_ref() != Some(&g.path) || s.record_index + 1 != g.record as usize {
            return false;
        }
        let to = at as isize + delta;
        if to < 0 || to >= games.len() as isize {
            let which = if delta < 0 { "first" } else { "last" };
            let n = games.len();
            self.info(format!(
                "this is the {which} game of the list ({}/{n})",
                at + 1
            ));
            return true;
        }
        self.open_collection_game(games, to as usize);
        true
    }

    /// `collection_back` (`Ctrl-o`): back to the record left for a collection game.
    pub(crate) fn collection_back(&mut self) {
        let Some(prev) = self.collection.back.pop() else {
            return self.info("nothing to go back to (o lists the collection's games here)");
        };
        let here = self.unstash(prev);
        self.collection.forward.push(here);
        let name = self.source().name.clone();
        self.info(format!("back to {name} (Ctrl-n: forward again)"));
    }

    /// `collection_forward` (`Ctrl-n`): forward again to the game left with `Ctrl-o`.
    pub(crate) fn collection_forward(&mut self) {
        let Some(next) = self.collection.forward.pop() else {
            return self.info("nothing to go forward to");
        };
        let here = self.unstash(next);
        self.collection.back.push(here);
        let name = self.source().name.clone();
        self.info(format!("forward to {name} (Ctrl-o: back)"));
    }

    /// Quitting: true (and says so) when a record on the back or forward stack has unsaved
    /// edits, which quitting would lose.
    pub(crate) fn stacked_unsaved(&mut self) -> bool {
        let e = &self.collection;
        let n = (e.back.iter().chain(e.forward.iter()))
            .filter(|s| s.modified())
            .count();
        if n == 0 {
            return false;
        }
        let s = if n == 1 { "" } else { "s" };
        self.info_level(
            format!(
                "{n} record{s} left with Ctrl-o/Ctrl-n have unsaved edits: go back to save them \
                 (:q! quits anyway)"
            ),
            Level::Error,
        );
        true
    }

    /// Shows `doc` in place of the record shown, which it returns put aside whole.
    fn stash_for(&mut self, doc: Document) -> Stashed {
        let cur = self.cur();
        Stashed {
            doc: self.swap_document(doc),
            cur,
        }
    }

    /// Shows a record put aside, as it was (its edits, undo history and node); returns the
    /// one it replaces, put aside whole.
    fn unstash(&mut self, s: Stashed) -> Stashed {
        let left = self.stash_for(s.doc);
        self.jump_to(s.cur);
        left
    }
}
