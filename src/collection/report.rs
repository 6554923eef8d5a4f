//! Reports over a collection's games (issue 35): the tournament table players and organisers
//! make by hand (results by side, 千日手, 持将棋, 宣言勝ち, 反則 and 時間切れ counts, 先手勝率,
//! average plies with and without 千日手) with a grouping (strategy, castle, player, event,
//! year or month: count, share, 先手勝率), and a player's dossier ([`dossier`]). Terminal-free:
//! `kifview report` (`cli/report.rs`) prints what these return as text, JSON, CSV, Markdown or
//! HTML.
//!
//! Every number counts each game once (copies of a game are not counted: [`super::duplicates`]).
//!
//! - 先手勝率 (`sente_win_rate`): sente's wins over the decisive games (sente's and gote's
//!   wins), 0 when there is none.
//! - A share: the group's games over all the games reported.
//! - Groups by `strategy`: one per game, the header's 戦型 when it has one, else the first of
//!   [`STRATEGIES`] among the game's tags, else `未分類`; by `castle`: each castle (a plain name
//!   of [`super::tags::CASTLES`], or `居玉`) a side built, a game once per castle (a game
//!   without one in `なし`), so shares may add up past 1; by `player`: each side's name (a game
//!   in both players' groups); by `event`, `year` (`YYYY`), `month` (`YYYY-MM`): one per game,
//!   `不明` when the header does not say.

use super::{GameInfo, GameResult};
use serde::Serialize;
use std::collections::HashMap;

/// How a report groups its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    Strategy,
    Castle,
    Player,
    Event,
    Year,
    Month,
}

/// The strategy a game is grouped under, the first of these among its tags (after its 戦型
/// header): the specific openings first, then the 振り飛車 files, then the broad families.
pub const STRATEGIES: &[&str] = &[
    "横歩取り",
    "一手損角換わり",
    "角換わり",
    "相掛かり",
    "矢倉",
    "雁木",
    "右四間飛車",
    "相振り飛車",
    "ゴキゲン中飛車",
    "石田流",
    "中飛車",
    "四間飛車",
    "三間飛車",
    "向かい飛車",
    "対抗形",
    "力戦",
    "相居飛車",
];

/// The key of a game without the grouped field.
pub const UNKNOWN: &str = "不明";
/// The strategy of a game with no strategy tag.
pub const UNCLASSIFIED: &str = "未分類";
/// The castle group of a game where neither side built one.
pub const NO_CASTLE: &str = "なし";

/// Results of some games (for sente), with their endings and lengths.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub games: u64,
    pub sente: u64,
    pub gote: u64,
    pub draw: u64,
    pub unknown: u64,
    /// 千日手 (`repetitionDraw`).
    pub sennichite: u64,
    /// 持将棋 (`impass`).
    pub jishogi: u64,
    /// 宣言勝ち (`enteringOfKing`).
    pub declared: u64,
    /// 反則 (`foulWin`, `foulLose`).
    pub foul: u64,
    /// 時間切れ (`timeout`).
    pub timeout: u64,
    /// Moves of the main lines, summed: all games, and the games not ended by 千日手.
    pub plies: u64,
    pub plies_without_sennichite: u64,
}

impl Tally {
    pub fn add(&mut self, g: &GameInfo) {
        self.games += 1;
        match g.result {
            GameResult::Sente => self.sente += 1,
            GameResult::Gote => self.gote += 1,
            GameResult::Draw => self.draw += 1,
            GameResult::Unknown => self.unknown += 1,
        }
        let ending = g.ending.as_deref().unwrap_or("");
        match ending {
            "repetitionDraw" => self.sennichite += 1,
            "impass" => self.jishogi += 1,
            "enteringOfKing" => self.declared += 1,
            "foulWin" | "foulLose" => self.foul += 1,
            "timeout" => self.timeout += 1,
            _ => {}
        }
        self.plies += u64::from(g.moves);
        if ending != "repetitionDraw" {
            self.plies_without_sennichite += u64::from(g.moves);
        }
    }

    /// 先手勝率: sente's wins over the decisive games (0 without one).
    pub fn sente_win_rate(&self) -> f64 {
        ratio(self.sente, self.sente + self.gote)
    }

    pub fn average_plies(&self) -> f64 {
        ratio(self.plies, self.games)
    }

    pub fn average_plies_without_sennichite(&self) -> f64 {
        ratio(
            self.plies_without_sennichite,
            self.games - self.sennichite,
        )
    }
}

/// `n / of`, 0 when `of` is.
pub fn ratio(n: u64, of: u64) -> f64 {
    if of == 0 { 0.0 } else { n as f64 / of as f64 }
}

/// One group of a report.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub key: String,
    pub tally: Tally,
}

/// A report: the table of all the games, and the groups (by count, then key).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub by: By,
    pub all: Tally,
    pub groups: Vec<Group>,
    /// Games by length: `HISTOGRAM_STEP` plies a bar (bar `i`: `i * STEP` to `(i + 1) * STEP - 1`
    /// moves).
    pub lengths: Vec<u64>,
}

/// The width of the length histogram's bars, in plies.
pub const HISTOGRAM_STEP: u32 = 20;

/// The keys a game is grouped under.
pub fn keys(g: &GameInfo, by: By) -> Vec<String> {
    let or_unknown = |s: Option<&str>| s.unwrap_or(UNKNOWN).to_string();
    match by {
        By::Strategy => vec![strategy(g).to_string()],
        By::Castle => {
            let mut out: Vec<String> = Vec::new();
            for t in &g.tags {
                if is_castle(t) && !out.iter().any(|o| o == t) {
                    out.push(t.clone());
                }
            }
            if out.is_empty() {
                out.push(NO_CASTLE.into());
            }
            out
        }
        By::Player => {
            let mut out = vec![or_unknown(g.sente.as_deref())];
            let gote = or_unknown(g.gote.as_deref());
            if gote != out[0] {
                out.push(gote);
            }
            out
        }
        By::Event => vec![or_unknown(g.event.as_deref())],
        By::Year => vec![or_unknown(g.date.as_deref().and_then(|d| d.get(..4)))],
        By::Month => vec![or_unknown(g.date.as_deref().and_then(|d| d.get(..7)))],
    }
}

/// The strategy a game is grouped under (see the module docs).
pub fn strategy(g: &GameInfo) -> &str {
    if let Some(o) = g.opening.as_deref() {
        return o;
    }
    STRATEGIES
        .iter()
        .find(|s| g.tags.iter().any(|t| t == *s))
        .copied()
        .unwrap_or(UNCLASSIFIED)
}

/// Is `tag` a plain castle name (or 居玉)?
fn is_castle(tag: &str) -> bool {
    tag == "居玉" || super::tags::CASTLES.iter().any(|c| c.name.plain == tag)
}

/// Builds a report from games given one at a time ([`Report::add`], then [`Report::finish`]).
pub struct Builder {
    by: By,
    all: Tally,
    groups: HashMap<String, Tally>,
    lengths: Vec<u64>,
}

impl Builder {
    pub fn new(by: By) -> Builder {
        Builder {
            by,
            all: Tally::default(),
            groups: HashMap::new(),
            lengths: Vec::new(),
        }
    }

    pub fn add(&mut self, g: &GameInfo) {
        self.all.add(g);
        for k in keys(g, self.by) {
            self.groups.entry(k).or_default().add(g);
        }
        let bar = (g.moves / HISTOGRAM_STEP) as usize;
        if self.lengths.len() <= bar {
            self.lengths.resize(bar + 1, 0);
        }
        self.lengths[bar] += 1;
    }

    pub fn finish(self) -> Report {
        let mut groups: Vec<Group> = self
            .groups
            .into_iter()
            .map(|(key, tally)| Group { key, tally })
            .collect();
        groups.sort_by(|a, b| b.tally.games.cmp(&a.tally.games).then(a.key.cmp(&b.key)));
        Report {
            by: self.by,
            all: self.all,
            groups,
            lengths: self.lengths,
        }
    }
}

/// `report --format json`, exactly the contract.
#[derive(Serialize)]
pub struct ReportJson<'a> {
    pub games: u64,
    pub sente: u64,
    pub gote: u64,
    pub draw: u64,
    pub unknown: u64,
    pub sennichite: u64,
    pub jishogi: u64,
    pub average_plies: f64,
    pub groups: Vec<GroupJson<'a>>,
}

#[derive(Serialize)]
pub struct GroupJson<'a> {
    pub key: &'a str,
    pub games: u64,
    pub share: f64,
    pub sente: u64,
    pub gote: u64,
    pub draw: u64,
    pub sente_win_rate: f64,
}

impl Report {
    pub fn json(&self) -> ReportJson<'_> {
        let a = &self.all;
        ReportJson {
            games: a.games,
            sente: a.sente,
            gote: a.gote,
            draw: a.draw,
            unknown: a.unknown,
            sennichite: a.sennichite,
            jishogi: a.jishogi,
            average_plies: a.average_plies(),
            groups: self
                .groups
                .iter()
                .map(|g| GroupJson {
                    key: &g.key,
                    games: g.tally.games,
                    share: self.share(g),
                    sente: g.tally.sente,
                    gote: g.tally.gote,
                    draw: g.tally.draw,
                    sente_win_rate: g.tally.sente_win_rate(),
                })
                .collect(),
        }
    }

    /// A group's games over all the games reported.
    pub fn share(&self, g: &Group) -> f64 {
        ratio(g.tally.games, self.all.games)
    }
}
