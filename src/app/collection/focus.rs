//! The explorer pane with the focus (`X`): a move of the pane is highlighted, `j`/`k` move
//! the highlight, Enter plays it (the record's move when it has it, else a new variation: one
//! undo step), `l`/`h` go on through the record as when browsing, `/` sets the filter of the
//! games the pane looks at (a prompt prefilled with the filter in force, in the CLI's syntax,
//! `collection::Filter::parse`), Esc gives the focus back. An overlay known by its behaviour
//! (`Overlay::Panel`) with a keymap of its own (`[keys.explorer]`); the pane draws the
//! highlight, so the panel draws nothing.

use super::state::ExplorerRow;
use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::overlay::behaviour::{OverlayState, Tag, clone_box};
use crate::app::overlay::{Mode, Overlay, Prompt};
use crate::app::state::{App, Level};

/// The mode while the pane has the focus.
pub const FOCUS: Mode = Mode::Panel("EXPLORER");

/// The pane's focus (the highlighted move lives in the explorer's state, which the answers
/// update).
#[derive(Clone, Copy, Debug, Default)]
pub struct ExplorerFocus;

impl OverlayState<App> for ExplorerFocus {
    fn mode(&self) -> Mode {
        FOCUS
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Explorer
    }
    fn tag(&self) -> Tag {
        Tag::Keys(
            "EXPLORER",
            &[
                (Command::ExplorerPlay, "play"),
                (Command::ExplorerFilter, "filter"),
                (Command::CollectionGames, "games"),
                (Command::Close, "back"),
            ],
        )
    }
    clone_box!();
}

/// The row of `rows` to highlight: the one of `selected` when it is there, else the first
/// move; `None` when there is no move.
pub fn highlighted(
    rows: &[ExplorerRow],
    selected: Option<crate::core::rules::Move>,
) -> Option<usize> {
    let first = rows.iter().position(|r| r.mv.is_some())?;
    Some(
        selected
            .and_then(|m| rows.iter().position(|r| r.mv == Some(m)))
            .unwrap_or(first),
    )
}

impl App {
    /// Does the explorer pane have the focus (anywhere on the stack: a list or the help
    /// opened from it keeps its highlight)?
    pub fn explorer_focused(&self) -> bool {
        self.overlays.contains(FOCUS)
    }

    /// The row the pane highlights, when it has the focus and shows rows.
    pub fn explorer_highlight(&self) -> Option<usize> {
        if !self.explorer_focused() {
            return None;
        }
        match self.explorer_view() {
            super::ExplorerView::Rows { rows, .. } => {
                highlighted(&rows, self.collection.explorer.selected)
            }
            _ => None,
        }
    }

    /// `explorer_moves` (`X`): gives the pane the focus (showing it first when hidden).
    pub(crate) fn focus_explorer(&mut self) {
        if !self.collection.explorer.shown {
            self.toggle_explorer();
        }
        if let Some(why) = &self.collection.explorer.missing {
            let text = format!("no collection to explore ({why})");
            return self.info_level(text, Level::Warning);
        }
        if !self.explorer_focused() {
            self.collection.explorer.selected = None;
            self.overlays.push(Overlay::Panel(Box::new(ExplorerFocus)));
        }
    }

    /// Closes the focus (when the pane is hidden).
    pub(super) fn unfocus_explorer(&mut self) {
        while self.explorer_focused() {
            self.overlays.pop();
        }
    }

    /// `explorer_down` / `explorer_up`: moves the highlight `d` moves on (stops at the ends).
    pub(crate) fn explorer_select(&mut self, d: isize) {
        let super::ExplorerView::Rows { rows, .. } = self.explorer_view() else {
            return;
        };
        let moves: Vec<_> = rows.iter().filter_map(|r| r.mv).collect();
        let Some(at) = highlighted(&rows, self.collection.explorer.selected) else {
            return;
        };
        // The total line comes first: the highlight's place among the moves is one less.
        let i = (at as isize - 1 + d).clamp(0, moves.len() as isize - 1) as usize;
        self.collection.explorer.selected = Some(moves[i]);
    }

    /// `explorer_play` (Enter): plays the highlighted move when the pane shows the cursor's
    /// position (the record's move when it has it, else a new variation: one undo step).
    pub(crate) fn explorer_play_selected(&mut self) {
        let view = self.explorer_view();
        let super::ExplorerView::Rows {
            rows,
            updating: false,
        } = view
        else {
            let text = "the explorer has no answer for this position yet".to_string();
            return self.info_level(text, Level::Warning);
        };
        let Some(i) = highlighted(&rows, self.collection.explorer.selected) else {
            return self.info("no game of the collection goes on from this position");
        };
        if let Some(mv) = rows[i].mv {
            self.enter_move(mv);
            self.collection.explorer.selected = None;
            self.collection_tick();
        }
    }

    /// `explorer_filter` (`/` in the pane): a prompt prefilled with the filter in force (or,
    /// right after a filter that did not read, with that one to mend).
    pub(crate) fn open_explorer_filter(&mut self) {
        let e = &mut self.collection.explorer;
        let text = e.rejected.take().unwrap_or_else(|| e.filter_text.clone());
        self.open_prompt(Prompt::new("filter: ", text, |app, text| {
            app.submit_explorer_filter(&text)
        }));
        self.info("e.g. player:藤井 event:竜王 2020..2023 tag:四間飛車 result:sente; empty: all");
    }

    /// The filter typed: in force when it reads (the pane asks again); else the old filter
    /// stays in force and the parser's message takes the status line whole (beside an open
    /// prompt it would be cut at 80 columns), and `/` brings the text back to mend; empty
    /// clears the filter.
    fn submit_explorer_filter(&mut self, text: &str) {
        self.close_prompt();
        let filter = match self.typed_filter(text) {
            Ok(f) => f,
            Err(e) => {
                self.collection.explorer.rejected = Some(text.to_string());
                let e = crate::core::text::sanitize(&e).into_owned();
                let again = self.key_name(KeyMode::Explorer, Command::ExplorerFilter);
                let text = format!("filter not changed: {e} ({again} mends it)");
                return self.info_level(text, Level::Error);
            }
        };
        self.collection.explorer.rejected = None;
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let e = &mut self.collection.explorer;
        // A filter of its own: the pane no longer follows the library.
        e.follows = false;
        e.filter = filter;
        e.filter_text = text.clone();
        e.failed = None;
        self.info(if text.is_empty() {
            "explorer: every game (filter cleared)".to_string()
        } else {
            format!("explorer: games with {text}")
        });
        self.collection_tick();
        // Typed in the games list (`o`): the list follows.
        if self.games_list_open() {
            self.open_collection_games();
        }
    }
}
