//! The setup of a game (`:play`, `A`), one question after the other: the side taken (▲, △, or
//! neither: two engines, watched), the engine of each engine's side (the config's
//! `[[engines]]`, then those found installed), the time control (`600+byo30` byoyomi,
//! `10+0.1` Fischer, `300` sudden death, `nodes=1000` or `depth=8` per move), each side's
//! name, and, for a record that holds moves, where the game goes (a variation from here, or
//! a new record from this position). Each step is a list or a prompt carrying the next.

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::overlay::{ListContent, Prompt};
use crate::app::play::state::{Player, Settings};
use crate::app::state::{App, Level};
use crate::core::record::{Initial, Record};
use crate::core::rules::Color;
use crate::core::text::sanitize;
use crate::engine::EngineSpec;
use crate::game::TimeControl;

/// The time control offered the first time.
const DEFAULT_TC: &str = "600+byo30";

/// The setup's choices so far.
#[derive(Clone, Debug)]
struct Draft {
    /// The user's side; None: watch.
    human: Option<Color>,
    engines: [Option<EngineSpec>; 2],
    tc: TimeControl,
    names: [String; 2],
}

/// The sides offered, in the list's order.
const SIDES: [Option<Color>; 3] = [Some(Color::Black), Some(Color::White), None];

/// Step 1: which side the user takes.
#[derive(Debug)]
struct Sides;

impl ListContent<App> for Sides {
    fn tag(&self) -> &'static str {
        "PLAY"
    }
    fn items(&self, _app: &App) -> Vec<String> {
        vec![
            "▲ 先手を持つ (対エンジン)".into(),
            "△ 後手を持つ (対エンジン)".into(),
            "観戦 (エンジン同士)".into(),
        ]
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.close_list();
        let Some(&human) = SIDES.get(selected) else {
            return;
        };
        let draft = Draft {
            human,
            engines: [None, None],
            tc: TimeControl::default(),
            names: [String::new(), String::new()],
        };
        app.pick_play_engine(draft);
    }
}

/// Step 2: the engine of the next engine's side.
#[derive(Debug)]
struct Engines {
    draft: Draft,
    side: Color,
    all: Vec<EngineSpec>,
}

impl ListContent<App> for Engines {
    fn tag(&self) -> &'static str {
        "PLAY ENGINE"
    }
    fn items(&self, _app: &App) -> Vec<String> {
        self.all
            .iter()
            .map(|s| {
                format!(
                    "{}  {}",
                    sanitize(&s.display_name()),
                    sanitize(&s.command.display().to_string())
                )
            })
            .collect()
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.close_list();
        let Some(spec) = self.all.get(selected) else {
            return;
        };
        let mut draft = self.draft.clone();
        draft.engines[self.side.index()] = Some(spec.clone());
        app.pick_play_engine(draft);
    }
}

/// The last step, for a record with moves: a variation from here or a new record.
#[derive(Debug)]
struct Where(Settings);

impl ListContent<App> for Where {
    fn tag(&self) -> &'static str {
        "PLAY WHERE"
    }
    fn items(&self, _app: &App) -> Vec<String> {
        vec![
            "この局面からの変化 (この棋譜に)".into(),
            "この局面からの新しい棋譜".into(),
        ]
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.close_list();
        let mut s = self.0.clone();
        s.new_record = selected == 1;
        app.begin_game(s);
    }
}

impl App {
    /// `play` (`A`, `:play`): opens the setup of a game from the current position.
    pub(crate) fn open_play(&mut self) {
        if self.playing() {
            self.info_level(
                format!(
                    "a game is on: {} resigns (or stops watching), {} takes back",
                    self.key(Command::PlayResign),
                    self.key(Command::Undo)
                ),
                Level::Error,
            );
            return;
        }
        if self.says_the_line_ended() {
            return;
        }
        if self.position().legal_moves().is_empty() {
            self.info_level(
                "no game from here: the side to move has no legal move".into(),
                Level::Error,
            );
            return;
        }
        if let Err(e) = crate::engine::search::check_root(self.position()) {
            self.info_level(format!("no game from here: {e}"), Level::Error);
            return;
        }
        let keys = self.keys_hint(
            KeyMode::List,
            &[(Command::ListPick, "choose"), (Command::Close, "cancel")],
        );
        let to_move = match self.position().side_to_move() {
            Color::Black => "▲の手番",
            Color::White => "△の手番",
        };
        self.open_list(Sides, &format!("対局 ({to_move})  {keys}"));
        if let Some(last) = &self.research.play.last {
            let i = SIDES.iter().position(|&s| s == last.human()).unwrap_or(0);
            self.select_in_list(i);
        }
    }

    /// The next side without its engine gets one from a list; then the time control.
    fn pick_play_engine(&mut self, draft: Draft) {
        let next = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| Some(c) != draft.human && draft.engines[c.index()].is_none());
        let Some(side) = next else {
            self.ask_time_control(draft);
            return;
        };
        let all = self.engine_choices();
        if all.is_empty() {
            self.info_level(crate::engine::discover::NO_ENGINE.into(), Level::Error);
            return;
        }
        let last = self
            .research
            .play
            .last
            .as_ref()
            .and_then(|s| match &s.players[side.index()] {
                Player::Engine(spec) => all.iter().position(|a| a == spec),
                Player::Human => None,
            });
        let keys = self.keys_hint(
            KeyMode::List,
            &[(Command::ListPick, "choose"), (Command::Close, "cancel")],
        );
        let title = format!("{}のエンジン  {keys}", side_name(side));
        self.open_list(Engines { draft, side, all }, &title);
        self.select_in_list(last.unwrap_or(0));
    }

    /// The time control's prompt (the last one used, else `600+byo30`), offered: typing
    /// replaces it.
    fn ask_time_control(&mut self, draft: Draft) {
        let text = self
            .research
            .play
            .last
            .as_ref()
            .map_or_else(|| DEFAULT_TC.to_string(), |s| s.time_control.to_string());
        let label = "持ち時間 (600+byo30, byo3, 10+0.1, 300, nodes=1000, depth=8): ";
        self.open_prompt(
            Prompt::new(label, text, move |app, text| {
                match TimeControl::parse(&text) {
                    Ok(tc) => {
                        let mut d = draft.clone();
                        d.tc = tc;
                        app.ask_name(d, Color::Black);
                    }
                    Err(e) => app.info_level(sanitize(&e).into_owned(), Level::Error),
                }
            })
            .offering(),
        );
    }

    /// The prompt for `side`'s name (the user's from `[collection] me`, an engine's its
    /// name), offered: typing replaces it; after 後手's, the game starts.
    fn ask_name(&mut self, draft: Draft, side: Color) {
        let text = match &draft.engines[side.index()] {
            Some(spec) => spec.display_name(),
            None => self
                .config
                .me
                .first()
                .cloned()
                .unwrap_or_else(|| "You".into()),
        };
        let label = format!("{}: ", side_name(side));
        let prompt = Prompt::new(label, text, move |app, text| {
            let mut d = draft.clone();
            d.names[side.index()] = text;
            match side {
                Color::Black => app.ask_name(d, Color::White),
                Color::White => {
                    app.close_prompt();
                    app.setup_done(d);
                }
            }
        });
        self.next_prompt(prompt.offering());
    }

    /// Every choice made: where the game goes (asked when the record holds moves), then the
    /// game.
    fn setup_done(&mut self, d: Draft) {
        let player = |c: Color| match &d.engines[c.index()] {
            Some(spec) => Player::Engine(spec.clone()),
            None => Player::Human,
        };
        let s = Settings {
            players: [player(Color::Black), player(Color::White)],
            time_control: d.tc,
            names: d.names.clone(),
            new_record: false,
        };
        if self
            .record()
            .node(crate::core::record::NodeId::ROOT)
            .children
            .is_empty()
        {
            self.begin_game(s);
            return;
        }
        let keys = self.keys_hint(
            KeyMode::List,
            &[(Command::ListPick, "choose"), (Command::Close, "cancel")],
        );
        self.open_list(Where(s), &format!("対局の棋譜  {keys}"));
    }

    /// Starts `s`: in a new record from the position (asking first about unsaved edits), or
    /// here.
    fn begin_game(&mut self, s: Settings) {
        if !s.new_record {
            self.start_game(s);
            return;
        }
        if !self.is_modified() {
            self.start_in_new_record(s);
            return;
        }
        let name = self.source().name.clone();
        self.ask_save_first(
            format!("{name} has unsaved changes. Save them before the new record?"),
            Vec::new(),
            ["save, then play", "discard them, then play"],
            move |app, a| match a {
                crate::app::overlay::Answer::Save => {
                    app.save_or_ask_name(crate::app::document::job::Then::Stay);
                    if !app.is_modified() {
                        app.start_in_new_record(s.clone());
                    } else {
                        app.info("saving; start the game again once it is saved (A)");
                    }
                }
                crate::app::overlay::Answer::Discard => app.start_in_new_record(s.clone()),
                _ => app.info("no game: nothing was saved or discarded"),
            },
        );
    }

    /// A new record from the position at the cursor, and the game in it.
    fn start_in_new_record(&mut self, s: Settings) {
        let position = self.position().clone();
        let handicap = crate::core::rules::Handicap::matching(&position);
        let record = Record::new(Initial { position, handicap });
        self.replace_record(record, crate::app::RecordSource::untitled("game.kif"));
        self.start_game(s);
    }
}

/// `先手 (▲)`, `後手 (△)`.
fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "先手 (▲)",
        Color::White => "後手 (△)",
    }
}
