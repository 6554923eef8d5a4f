//! A move or an ending given by name: the move prompt (`m`: `7g7f`, `７六歩`, `同歩`, `投了`)
//! and the list of endings (`r`).

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::overlay::{ListContent, Prompt};
use crate::app::state::{App, Level};
use crate::core::notation::input::{self, Entered, InputError};
use crate::core::record::Special;

/// The endings `r` offers.
pub const ENDINGS: [Special; 9] = [
    Special::Resign,
    Special::Interrupt,
    Special::RepetitionDraw,
    Special::Impass,
    Special::Mate,
    Special::Timeout,
    Special::FoulWin,
    Special::FoulLose,
    Special::EnteringKing,
];

/// The list of [`ENDINGS`].
#[derive(Debug)]
struct Endings;

impl ListContent<App> for Endings {
    fn tag(&self) -> &'static str {
        "ENDINGS"
    }
    fn items(&self, _app: &App) -> Vec<String> {
        ENDINGS.iter().map(|s| s.kif_word().to_string()).collect()
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.close_list();
        if let Some(s) = ENDINGS.get(selected) {
            app.add_ending(s.clone());
        }
    }
}

impl App {
    /// The line has ended at the current move (no move can follow it): says so, true.
    pub(crate) fn says_the_line_ended(&mut self) -> bool {
        let Some(s) = self.record().node(self.cur()).special() else {
            return false;
        };
        let word = s.kif_word().to_string();
        self.info_level(
            format!("the line has ended here ({word}); go back a move to add a variation"),
            Level::Error,
        );
        true
    }

    /// `m`: type a move.
    pub(crate) fn open_move_prompt(&mut self) {
        if self.says_the_line_ended() {
            return;
        }
        self.open_prompt(Prompt::new("move: ", String::new(), App::submit_move));
    }

    /// A typed move (or an ending word): entered, or the error stays on the status line.
    fn submit_move(&mut self, text: String) {
        if text.is_empty() {
            self.close_prompt();
            return;
        }
        if self.not_the_users_move() {
            self.close_prompt();
            return;
        }
        let cur = self.cur();
        let prev_to = self.record().node(cur).move_data().map(|m| m.mv.to());
        match input::parse(self.position(), prev_to, &text) {
            Ok(Entered::Move(mv)) => {
                self.close_prompt();
                self.enter_move(mv);
            }
            Ok(Entered::Special(s)) => {
                self.close_prompt();
                self.add_ending(s);
            }
            Err(e) => {
                let msg = match &e {
                    InputError::Ambiguous(c) => {
                        format!("which one? {} (type one of them)", c.join(" / "))
                    }
                    _ => e.to_string(),
                };
                self.info_level(crate::core::text::sanitize(&msg).into_owned(), Level::Error);
            }
        }
    }

    /// `r`: end the line here.
    pub(crate) fn open_endings(&mut self) {
        if let Some(s) = self.record().node(self.cur()).special() {
            let word = s.kif_word().to_string();
            self.info_level(format!("the line has already ended ({word})"), Level::Error);
            return;
        }
        let keys = self.keys_hint(
            KeyMode::List,
            &[
                (Command::ListPick, "end the line here"),
                (Command::Close, "cancel"),
            ],
        );
        self.open_list(Endings, &format!("終局  {keys}"));
    }
}
