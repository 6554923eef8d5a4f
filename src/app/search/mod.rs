//! The `/` search's commands: the prompt, going to a match (`n`, `N`), the list of matches
//! (`L`), `:search` and `:noh`. What matches and in which order: `matches.rs`.

pub mod matches;

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::overlay::behaviour::Tag;
use crate::app::overlay::{ListContent, Prompt};
use crate::app::search::matches::{Found, Index, Kind, Match, Query, find, snippet};
use crate::app::state::{App, Level};
use crate::core::record::NodeId;
use crate::core::text::sanitize;

/// `L`: the matches of the last search.
#[derive(Debug)]
struct SearchResults;

impl ListContent<App> for SearchResults {
    fn tag(&self) -> &'static str {
        "SEARCH RESULTS"
    }
    fn items(&self, app: &App) -> Vec<String> {
        app.search_list_items()
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.search_list_pick(selected);
    }
}

impl App {
    /// `/`: the search prompt.
    pub(crate) fn open_search_prompt(&mut self) {
        let prompt = Prompt::closing("/", String::new(), |app, text| app.search_submit(&text));
        let keys = &[(Command::Submit, "search"), (Command::Cancel, "cancel")];
        self.open_prompt(prompt.tagged(Tag::Keys("SEARCH", keys)));
    }

    /// Enter on the search prompt: search, and go to the first match at or after the current
    /// move. Empty: the last search again.
    pub(crate) fn search_submit(&mut self, text: &str) {
        let q = if text.is_empty() {
            match &self.search.query {
                Some(q) => q.clone(),
                None => {
                    self.info("no previous search: type what to find after /");
                    return;
                }
            }
        } else {
            Query::new(text)
        };
        self.search.query = Some(q);
        self.search.shown = true;
        self.run_search();
        let Some(found) = &self.search.found else {
            return;
        };
        let n = found.matches.len();
        if n == 0 {
            let typed = sanitize(&self.search.query.as_ref().expect("set").typed).into_owned();
            self.info_level(format!("no match for \"{typed}\""), Level::Warning);
            return;
        }
        let index = self.search.index.as_ref().expect("built");
        let cur = self.cur();
        let (i, wrapped) = if cur == NodeId::ROOT {
            (0, false)
        } else {
            let here = index.rank_of(&Match {
                node: cur,
                kind: Kind::Move,
            });
            match found.matches.iter().position(|m| index.rank_of(m) >= here) {
                Some(i) => (i, false),
                None => (0, true),
            }
        };
        self.go_to_match(i, wrapped);
        let off = self.search.found.as_ref().map_or(0, |f| {
            f.matches
                .iter()
                .filter(|m| !matches!(m.kind, Kind::Header(_)) && !self.on_line(m.node))
                .count()
        });
        let list = self.key(Command::SearchList);
        if off > 0
            && let Some(msg) = &mut self.message
        {
            let at = msg.text.find(": ").unwrap_or(msg.text.len());
            msg.text
                .insert_str(at, &format!(" ({off} off this line, {list} lists them)"));
        }
    }

    /// Is `id` on the line shown?
    fn on_line(&self, id: NodeId) -> bool {
        self.line().get(self.doc.record().node(id).ply as usize) == Some(&id)
    }

    /// Finds the matches of the query for the record as it is now (the index of the moves is
    /// rebuilt when the record changed).
    fn run_search(&mut self) {
        let Some(q) = self.search.query.clone() else {
            return;
        };
        let rev = self.doc.version();
        if self.search.index.as_ref().is_none_or(|i| i.revision != rev) {
            let rows = self.outline().rows.clone();
            self.search.index = Some(Index::build(self.doc.record(), &rows, rev));
        }
        let index = self.search.index.as_mut().expect("just built");
        if q.relative {
            index.prepare_ki2(self.doc.record(), &q);
        }
        let matches = find(self.doc.record(), index, &q);
        let mut hit = vec![false; self.doc.record().len()];
        for m in &matches {
            if !matches!(m.kind, Kind::Header(_)) {
                hit[m.node.index()] = true;
            }
        }
        self.search.found = Some(Found {
            revision: rev,
            matches,
            hit,
            current: None,
        });
    }

    /// The matches for the record as it is now (searching again after a change).
    fn fresh_matches(&mut self) -> bool {
        if self.search.query.is_none() {
            self.info("no previous search (/ searches)");
            return false;
        }
        if self
            .search
            .found
            .as_ref()
            .is_none_or(|f| f.revision != self.doc.version())
        {
            self.run_search();
        }
        self.search.shown = true;
        let n = self.search.found.as_ref().map_or(0, |f| f.matches.len());
        if n == 0 {
            let typed = sanitize(&self.search.query.as_ref().expect("set").typed).into_owned();
            self.info_level(format!("no match for \"{typed}\""), Level::Warning);
        }
        n > 0
    }

    /// After a key: when the record changed, the shown matches are found again.
    pub(crate) fn search_after_key(&mut self) {
        if self.search.shown
            && self
                .search
                .found
                .as_ref()
                .is_some_and(|f| f.revision != self.doc.version())
        {
            self.run_search();
        }
    }

    /// `n` (forward) and `N`: the next or previous match from the last one gone to, or from
    /// the cursor when it moved since; wraps around.
    pub(crate) fn search_step(&mut self, forward: bool) {
        if !self.fresh_matches() {
            return;
        }
        let found = self.search.found.as_ref().expect("fresh");
        let index = self.search.index.as_ref().expect("built");
        let n = found.matches.len();
        let cur = self.cur();
        let from = match found.current {
            Some((i, at)) if at == cur => Some(i),
            _ => None,
        };
        let (i, wrapped) = match (from, forward) {
            (Some(i), true) => ((i + 1) % n, i + 1 == n),
            (Some(i), false) => ((i + n - 1) % n, i == 0),
            (None, _) => {
                let here = index.rank_of(&Match {
                    node: cur,
                    kind: Kind::Move,
                });
                let ranks = found.matches.iter().map(|m| index.rank_of(m));
                if forward {
                    match ranks.clone().position(|r| r > here) {
                        Some(i) => (i, false),
                        None => (0, true),
                    }
                } else {
                    match ranks.rev().position(|r| r < here) {
                        Some(k) => (n - 1 - k, false),
                        None => (n - 1, true),
                    }
                }
            }
        };
        self.go_to_match(i, wrapped);
    }

    /// Goes to match `i` and says which it is.
    fn go_to_match(&mut self, i: usize, wrapped: bool) {
        let Some(m) = self
            .search
            .found
            .as_ref()
            .and_then(|f| f.matches.get(i))
            .copied()
        else {
            return;
        };
        let n = self.search.found.as_ref().map_or(0, |f| f.matches.len());
        match m.kind {
            Kind::Header(f) => self.view.header_scroll = f as u16,
            Kind::Move | Kind::Bookmark | Kind::Comment => {
                if m.node != self.cur() && self.doc.record().is_attached(m.node) {
                    self.jump_to(m.node);
                }
            }
        }
        if m.kind == Kind::Comment
            && let Some(q) = &self.search.query
        {
            // Scroll the comment to the line of the first match.
            let line = self
                .doc
                .record()
                .node(m.node)
                .comment
                .lines()
                .position(|l| !q.spans(&l.chars().collect::<Vec<_>>()).is_empty())
                .unwrap_or(0);
            self.view.comment_scroll = line.saturating_sub(1) as u16;
        }
        let cur = self.cur();
        if let Some(f) = &mut self.search.found {
            f.current = Some((i, cur));
        }
        let what = self.describe(&m);
        let (text, level) = if wrapped {
            (
                format!("search wrapped; match {}/{n}: {what}", i + 1),
                Level::Warning,
            )
        } else {
            (format!("match {}/{n}: {what}", i + 1), Level::Info)
        };
        self.info_level(text, level);
    }

    /// Where a match is and what it is: `変化 34手目 △同　銀(31)`, `コメント 12手目 ▲２六歩:
    /// …text…`, `しおり &name 12手目 ▲２六歩`, `対局情報 棋戦：…`. Sanitized.
    fn describe(&self, m: &Match) -> String {
        let q = self.search.query.as_ref();
        if let Kind::Header(i) = m.kind {
            let f = self.doc.record().header.fields.get(i);
            let text = f.map_or(String::new(), |f| format!("{}：{}", f.key, f.value));
            return format!("対局情報 {}", sanitize(&text));
        }
        let node = self.doc.record().node(m.node);
        let main = self
            .search
            .index
            .as_ref()
            .is_none_or(|ix| (ix.rank_of(m) as usize) < ix.main_len);
        let var = if main { "" } else { "変化 " };
        let at = format!("{var}{}手目 {}", node.ply, self.step_text(m.node));
        match m.kind {
            Kind::Move | Kind::Header(_) => at,
            Kind::Bookmark => format!(
                "しおり &{} {at}",
                sanitize(node.bookmark.as_deref().unwrap_or(""))
            ),
            Kind::Comment => {
                let s = q.map_or(String::new(), |q| snippet(q, &node.comment));
                format!("コメント {at}: {s}")
            }
        }
    }

    /// `L`: the list of every match (`*`: on the current line).
    pub(crate) fn open_search_list(&mut self) {
        if !self.fresh_matches() {
            return;
        }
        let found = self.search.found.as_ref().expect("fresh");
        let sel = found.current.map_or_else(
            || {
                found
                    .matches
                    .iter()
                    .position(|m| !matches!(m.kind, Kind::Header(_)) && !self.on_line(m.node))
                    .unwrap_or(0)
            },
            |(i, _)| i,
        );
        let n = found.matches.len();
        let typed = sanitize(&self.search.query.as_ref().expect("fresh").typed).into_owned();
        let keys = self.keys_hint(
            KeyMode::List,
            &[(Command::ListPick, "go"), (Command::Close, "close")],
        );
        self.open_list(
            SearchResults,
            &format!("検索 \"{typed}\" {n}件 (* this line)  {keys}"),
        );
        self.select_in_list(sel.min(n.saturating_sub(1)));
    }

    /// The entries of the match list.
    pub(crate) fn search_list_items(&self) -> Vec<String> {
        let Some(found) = &self.search.found else {
            return Vec::new();
        };
        found
            .matches
            .iter()
            .map(|m| {
                let here = matches!(m.kind, Kind::Header(_)) || self.on_line(m.node);
                format!("{}{}", if here { "* " } else { "  " }, self.describe(m))
            })
            .collect()
    }

    /// Enter in the match list.
    fn search_list_pick(&mut self, i: usize) {
        self.close_list();
        if self
            .search
            .found
            .as_ref()
            .is_some_and(|f| f.revision == self.doc.version())
        {
            self.go_to_match(i, false);
        }
    }

    /// `:noh`: hides the highlight until the next search or `n`.
    pub(crate) fn hide_search_highlight(&mut self) {
        self.search.shown = false;
    }
}
