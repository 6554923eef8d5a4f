//! Collections: an index of every game under some folders, answering "which games reached this
//! position" ([`Index::find`]), "what was played from it and how did it score"
//! ([`Index::explore`]) and "which games match" ([`Index::games`]). Terminal-free; the CLI's
//! `index`, `find`, `explore` and `games` print what these return.
//!
//! An index is a folder, kifview's only when it says so:
//! - `kifview-index` ([`build::MARKER`]): written first into the new or empty folder an index
//!   is made in; `kifview index` refuses any other non-empty folder (one holding a catalog of
//!   kifview's, an index made before the marker, is recognised and marked), and removes no
//!   file the catalog does not name (its segments', and the ones it `owned`: the next
//!   segment's before it is written, a compaction's or a rebuild's old ones);
//! - `lock`: held (a POSIX record lock, `fcntl`, per process) while an update runs;
//! - `roots.json`: the folders the index holds, as in the catalog (`meta.roots`): what
//!   `kifview index --repair` rebuilds from when the catalog cannot be read ([`build::ROOTS`]);
//! - `catalog.sqlite`: the catalog of files and games (schema: [`catalog::SCHEMA`]), readable by
//!   `sqlite3`, pandas or Datasette; each row sealed with a checksum of its values at the
//!   commit that changed it, checked by every query that reads the row
//!   ([`catalog::Catalog::seal`]);
//! - `pos-N.bin` / `moves-N.bin`: one segment per step of an update that added games
//!   ([`segment`]; an update commits in steps, see [`build::update_with`]): sorted (position key, game) pairs, memory-mapped at query time, and each
//!   game's moves, replayed to confirm every candidate (so a key collision never puts a wrong
//!   game in an answer) and to read the move played next;
//! - `games.bin`: one byte per game id, its result, 0 for a game forgotten since (its pairs stay
//!   in their segment until [`compact`] merges the segments) or a copy of another game
//!   ([`duplicates`]: a game copied in several files or formats is counted once everywhere), and the catalog's generation in
//!   byte 0 (no game has id 0); then per game id the code of its first move when it starts at
//!   the start position, so a query there replays nothing ([`games_bin`]: written once at the
//!   end of an update; a query that finds none of the catalog's generation builds it from the
//!   catalog instead).
//!
//! Readers and updates: an update commits in steps ([`build::update_with`]), each a new
//! generation of the catalog ([`Index::generation`], `meta.generation`); a rebuild (an index
//! that cannot be trusted, of another version, or of another `--variations`) writes a new
//! catalog beside the old one (`catalog.sqlite.new`, its segments under new ids) and renames it
//! into place when whole, so a reader tells that the index changed by its generation, and that
//! it was rebuilt by the catalog file's identity ([`Index::replaced`]; `meta.build` is drawn
//! for each new catalog file too). Readers open the catalog writable when they may, so that a
//! hot journal an update killed mid-commit left is rolled back by the first reader (a
//! read-only connection could not read past it); the updater keeps a step's changes in memory
//! until its commit (no cache spill), so readers read the last committed state throughout.
//!
//! For a game list: [`Index::page`] (a filter, a sort by any column, offset and limit),
//! [`Index::count`], and [`Filter::parse`] for a typed filter ([`filter_text`]); the viewer's
//! library holds the ordered ids instead (`catalog::Catalog::ordered_ids`, then
//! `games_by_id` for the rows drawn). An [`Index`] is `Send`: queries can run on another
//! thread.
//!
//! Files are read with the project's reading path (`load::read_records`, every record of a
//! multi-record CSA file) on every core (`pool::map_in_order`).

pub mod build;
pub mod catalog;
pub mod compact;
pub mod duplicates;
pub mod filter_text;
pub mod games_bin;
mod hooks;
pub mod keys;
pub mod query;
pub mod repertoire;
pub mod report;
pub mod scan;
pub mod segment;
pub mod tags;
pub mod walk;

pub use build::{Report, UpdateOptions, update, update_with};
pub use catalog::SortBy;
pub use query::{Explored, Fork, Found, Index, NextMove, node_of};

use serde::Serialize;
use std::path::PathBuf;
use unicode_normalization::UnicodeNormalization;

/// The index folder: `given` (`--index`), else `$KIFVIEW_INDEX`, else
/// `<data dir>/kifview/collection` (`~/.local/share/kifview/collection` on Linux): outside the
/// collection, which may be read-only. The CLI's commands and the viewer's explorer use it.
pub fn index_dir(given: Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(p) = given {
        return Ok(p);
    }
    if let Some(p) = std::env::var_os("KIFVIEW_INDEX").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    directories::ProjectDirs::from("", "", "kifview")
        .map(|d| d.data_dir().join("collection"))
        .ok_or_else(|| "no home directory for the default index: use --index IDX".into())
}

/// How a game ended, for sente.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    Sente = 0,
    Gote = 1,
    Draw = 2,
    Unknown = 3,
}

impl GameResult {
    pub const ALL: [GameResult; 4] = [
        GameResult::Sente,
        GameResult::Gote,
        GameResult::Draw,
        GameResult::Unknown,
    ];
    pub fn word(self) -> &'static str {
        match self {
            GameResult::Sente => "sente",
            GameResult::Gote => "gote",
            GameResult::Draw => "draw",
            GameResult::Unknown => "unknown",
        }
    }
    pub fn parse(s: &str) -> GameResult {
        GameResult::ALL
            .into_iter()
            .find(|o| o.word() == s)
            .unwrap_or(GameResult::Unknown)
    }
}

/// A name, event or tag as filters compare them (and as the catalog stores them beside the
/// text, `sente_key`, `gote_key`, `event_key`): Unicode NFKC, lower case, no spaces of any
/// width. NFKC (the `unicode-normalization` crate) folds every compatibility form at once:
/// full-width ASCII, half-width katakana, circled and other compatibility characters.
pub fn name_key(s: &str) -> String {
    s.nfkc()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Which games a query looks at: every condition holds (a repeated key is one more
/// condition: `player:羽生 player:藤井` are the games between the two). Names, events and tags
/// match after [`name_key`] (NFKC, case, spaces), names and events as substrings,
/// tags by family ([`tags::family`]); dates compare as `YYYY-MM-DD` text (`to` as a prefix:
/// `--to 2020` takes all of 2020); `under` is an absolute path. [`Filter::parse`] reads the
/// typed filter; [`filter_text::combine`] adds it to the CLI's options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// Name, event and tag conditions, each one a game must meet (or, excluded, must not).
    pub terms: Vec<Term>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub result: Option<GameResult>,
    pub under: Option<String>,
    /// The games "I" played (`me`, `me:sente`, `me:gote`), "I" being [`Filter::me_names`].
    pub me: Option<MeSide>,
    /// Who "me" is (the config's `[collection] me`, `--me`): names and accounts, matched as
    /// `player:` matches. Not a condition by itself: it says who `me` and the results from my
    /// side ([`Me`]) are about.
    pub me_names: Vec<String>,
}

/// What a [`Term`] looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Either side's name.
    Player,
    Sente,
    Gote,
    Event,
    Tag,
}

/// One condition of a [`Filter`]: `field` contains `value` (a tag: is of its family), or
/// with `exclude` does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub field: Field,
    /// As typed (normalised when the query is made).
    pub value: String,
    pub exclude: bool,
}

impl Term {
    pub fn new(field: Field, value: &str) -> Term {
        Term {
            field,
            value: value.to_string(),
            exclude: false,
        }
    }
}

/// Which of my games `me` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeSide {
    Either,
    Sente,
    Gote,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
            && self.from.is_none()
            && self.to.is_none()
            && self.result.is_none()
            && self.under.is_none()
            && self.me.is_none()
    }

    /// The filter with one more condition.
    pub fn with(mut self, term: Term) -> Filter {
        self.terms.push(term);
        self
    }

    /// Who "me" is, normalised, when [`Filter::me_names`] names someone.
    pub fn me_who(&self) -> Option<Me> {
        Me::new(&self.me_names)
    }
}

/// Who "me" is, normalised ([`name_key`]): a game is mine when a side's name
/// contains one of my names (sente's looked at first: in a game where both sides' names match,
/// I am sente).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Me {
    keys: Vec<String>,
}

/// My colour in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MeColor {
    Sente,
    Gote,
}

/// A game's result from my side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MeResult {
    Win,
    Loss,
    Draw,
    Unknown,
}

impl MeResult {
    pub fn word(self) -> &'static str {
        match self {
            MeResult::Win => "win",
            MeResult::Loss => "loss",
            MeResult::Draw => "draw",
            MeResult::Unknown => "unknown",
        }
    }
    /// 勝, 負, 分 or 不明: the library's column.
    pub fn kanji(self) -> &'static str {
        match self {
            MeResult::Win => "勝",
            MeResult::Loss => "負",
            MeResult::Draw => "分",
            MeResult::Unknown => "不明",
        }
    }
}

/// My games and how they went for me (my colour in each game).
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct MeTally {
    pub games: u64,
    pub win: u64,
    pub loss: u64,
    pub draw: u64,
    pub unknown: u64,
}

impl MeTally {
    /// Counts one more game of mine.
    pub fn add(&mut self, r: MeResult) {
        self.add_many(r, 1);
    }

    /// Counts `n` more games of mine, each `r`.
    pub fn add_many(&mut self, r: MeResult, n: u64) {
        self.games += n;
        *match r {
            MeResult::Win => &mut self.win,
            MeResult::Loss => &mut self.loss,
            MeResult::Draw => &mut self.draw,
            MeResult::Unknown => &mut self.unknown,
        } += n;
    }

    fn from(c: [u64; 4]) -> MeTally {
        MeTally {
            games: c.iter().sum(),
            win: c[0],
            loss: c[1],
            draw: c[2],
            unknown: c[3],
        }
    }
    /// My score in percent (a win 1, a draw ½; games of unknown result left out), `None`
    /// without a known result.
    pub fn win_percent(&self) -> Option<f64> {
        let known = self.win + self.loss + self.draw;
        (known > 0).then(|| 100.0 * (self.win as f64 + self.draw as f64 / 2.0) / known as f64)
    }
}

impl Me {
    /// `None` when `names` holds no name (blank ones are left out).
    pub fn new(names: &[String]) -> Option<Me> {
        let keys: Vec<String> = names
            .iter()
            .map(|n| name_key(n))
            .filter(|k| !k.is_empty())
            .collect();
        (!keys.is_empty()).then_some(Me { keys })
    }

    /// Is one of my names in `name`?
    pub fn is(&self, name: Option<&str>) -> bool {
        let Some(name) = name else { return false };
        let key = name_key(name);
        self.keys.iter().any(|k| key.contains(k.as_str()))
    }

    /// My colour in the game between `sente` and `gote`; `None` when I did not play it.
    pub fn color(&self, sente: Option<&str>, gote: Option<&str>) -> Option<MeColor> {
        if self.is(sente) {
            Some(MeColor::Sente)
        } else if self.is(gote) {
            Some(MeColor::Gote)
        } else {
            None
        }
    }

    /// The normalised names, for the catalog's query.
    pub(crate) fn keys(&self) -> &[String] {
        &self.keys
    }
}

impl MeColor {
    pub fn word(self) -> &'static str {
        match self {
            MeColor::Sente => "sente",
            MeColor::Gote => "gote",
        }
    }
    /// The game's result from this side.
    pub fn result(self, r: GameResult) -> MeResult {
        match (self, r) {
            (MeColor::Sente, GameResult::Sente) | (MeColor::Gote, GameResult::Gote) => {
                MeResult::Win
            }
            (_, GameResult::Sente | GameResult::Gote) => MeResult::Loss,
            (_, GameResult::Draw) => MeResult::Draw,
            (_, GameResult::Unknown) => MeResult::Unknown,
        }
    }
}

/// What `find` prints of a game, borrowed from the catalog's row ([`Index::find_brief`]).
#[derive(Clone, Copy, Debug)]
pub struct Brief<'a> {
    pub id: u32,
    /// Absolute.
    pub path: &'a str,
    /// 1-based record in the file.
    pub record: u32,
    pub sente: Option<&'a str>,
    pub gote: Option<&'a str>,
    /// `YYYY-MM-DD`.
    pub date: Option<&'a str>,
    pub event: Option<&'a str>,
    pub result: GameResult,
    /// The number the record gives its first move.
    pub first_move: u32,
}

impl<'a> Brief<'a> {
    pub(crate) const COLUMNS: &'static str =
        "games.id, files.path, record, sente, gote, date, event, result, first_move";

    pub(crate) fn from_row(r: &'a rusqlite::Row) -> rusqlite::Result<Brief<'a>> {
        // simdutf8: the text of 100,000 rows is checked in a fraction of `str::from_utf8`'s time.
        let text = |i: usize| -> rusqlite::Result<Option<&'a str>> {
            match r.get_ref(i)? {
                rusqlite::types::ValueRef::Null => Ok(None),
                rusqlite::types::ValueRef::Text(b) => match simdutf8::basic::from_utf8(b) {
                    Ok(s) => Ok(Some(s)),
                    // The standard check, for its error.
                    Err(_) => std::str::from_utf8(b)
                        .map(Some)
                        .map_err(|e| rusqlite::Error::Utf8Error(i, e)),
                },
                v => Err(rusqlite::Error::InvalidColumnType(
                    i,
                    String::new(),
                    v.data_type(),
                )),
            }
        };
        Ok(Brief {
            id: r.get(0)?,
            path: text(1)?.unwrap_or(""),
            record: r.get(2)?,
            sente: text(3)?,
            gote: text(4)?,
            date: text(5)?,
            event: text(6)?,
            result: GameResult::parse(text(7)?.unwrap_or("")),
            first_move: r.get(8)?,
        })
    }
}

/// A game of the catalog.
#[derive(Clone, Debug, PartialEq)]
pub struct GameInfo {
    pub id: u32,
    /// Absolute.
    pub path: String,
    /// 1-based record in the file.
    pub record: u32,
    pub sente: Option<String>,
    pub gote: Option<String>,
    /// `YYYY-MM-DD`.
    pub date: Option<String>,
    pub event: Option<String>,
    pub handicap: Option<String>,
    pub result: GameResult,
    /// The main line's ending (`resign`, `mate`, … as JKF names them).
    pub ending: Option<String>,
    pub moves: u32,
    /// The number the record gives its first move.
    pub first_move: u32,
    /// The header's 戦型.
    pub opening: Option<String>,
    pub tags: Vec<String>,
    /// Main-line positions with an evaluation in their comment.
    pub evaluated: u32,
    /// Marks per side (sente, gote): 緩手, 疑問手, 悪手, 大悪手.
    pub marks: [[u32; 4]; 2],
    /// Mean win-% loss per judged move, per side.
    pub loss: [Option<f64>; 2],
    /// The game's start and main-line moves, hashed: copies of one game share it
    /// ([`duplicates`]).
    pub moves_hash: i64,
    /// Nodes with a comment, any line: how much a copy holds beside its moves.
    pub comments: u32,
}

impl GameInfo {
    /// The columns `find` prints, borrowed.
    pub fn brief(&self) -> Brief<'_> {
        Brief {
            id: self.id,
            path: &self.path,
            record: self.record,
            sente: self.sente.as_deref(),
            gote: self.gote.as_deref(),
            date: self.date.as_deref(),
            event: self.event.as_deref(),
            result: self.result,
            first_move: self.first_move,
        }
    }

    pub(crate) const COLUMNS: &'static str = "id, path, record, sente, gote, date, event, \
        handicap, result, ending, moves, first_move, opening, tags, evaluated, \
        sente_inaccuracies, sente_dubious, sente_mistakes, sente_blunders, \
        gote_inaccuracies, gote_dubious, gote_mistakes, gote_blunders, sente_loss, gote_loss, \
        moves_hash, comments";

    pub(crate) fn from_row(r: &rusqlite::Row) -> rusqlite::Result<GameInfo> {
        let tags: String = r.get(13)?;
        let mut marks = [[0; 4]; 2];
        for (i, m) in marks.iter_mut().flatten().enumerate() {
            *m = r.get(15 + i)?;
        }
        Ok(GameInfo {
            id: r.get(0)?,
            path: r.get(1)?,
            record: r.get(2)?,
            sente: r.get(3)?,
            gote: r.get(4)?,
            date: r.get(5)?,
            event: r.get(6)?,
            handicap: r.get(7)?,
            result: GameResult::parse(&r.get::<_, String>(8)?),
            ending: r.get(9)?,
            moves: r.get(10)?,
            first_move: r.get(11)?,
            opening: r.get(12)?,
            tags: tags
                .split(',')
                .filter(|t| !t.is_empty())
                .map(String::from)
                .collect(),
            evaluated: r.get(14)?,
            marks,
            loss: [r.get(23)?, r.get(24)?],
            moves_hash: r.get(25)?,
            comments: r.get(26)?,
        })
    }
}
