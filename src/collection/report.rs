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

use super::{Filter, GameInfo, GameResult, Index, Me, MeColor};
use crate::analyze::{Mark, main_line_evals};
use crate::core::notation::ki2::{line_text, move_text};
use crate::core::rules::{Color, HANDICAPS, Move, Position};
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
        ratio(self.plies_without_sennichite, self.games - self.sennichite)
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

/// Results from one player's side.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Score {
    pub games: u64,
    pub win: u64,
    pub loss: u64,
    pub draw: u64,
    pub unknown: u64,
}

impl Score {
    pub fn add(&mut self, r: GameResult, side: Color) {
        self.games += 1;
        match (r, side) {
            (GameResult::Draw, _) => self.draw += 1,
            (GameResult::Unknown, _) => self.unknown += 1,
            (GameResult::Sente, Color::Black) | (GameResult::Gote, Color::White) => self.win += 1,
            _ => self.loss += 1,
        }
    }

    /// Wins and half the draws over the games with a result (0 without one).
    pub fn score(&self) -> f64 {
        let decided = self.win + self.loss + self.draw;
        if decided == 0 {
            0.0
        } else {
            (self.win as f64 + self.draw as f64 / 2.0) / decided as f64
        }
    }
}

/// A row of a dossier's table: a key and the player's results there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub key: String,
    #[serde(flatten)]
    pub score: Score,
}

/// A place in a game: its file (the catalog's path), record and the ply of the move meant,
/// as the record numbers its moves (`kifview FILE +PLY` opens there).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct At {
    pub path: String,
    pub record: u32,
    pub ply: u32,
}

/// A game that left the player's usual move in a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Left {
    /// The move played instead, in Japanese.
    pub played: String,
    pub at: At,
}

/// A position where the player's games most often first left their usual line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Deviation {
    /// The games' start: `平手`, a handicap's name (`香落ち`, …), or the SFEN of a set
    /// position (a record from `手数＝N`, a problem).
    pub start: String,
    /// The moves that reach it from that start, in Japanese (from the game that reached it
    /// first).
    pub line: String,
    /// The player's most played move there, in Japanese, and in how many games.
    pub usual: String,
    pub usual_games: u64,
    /// The games whose first move off the usual line was played here (another move).
    pub games: Vec<Left>,
}

/// A marked move of the player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Marked {
    pub mark: &'static str,
    pub phase: &'static str,
    pub played: String,
    pub at: At,
}

/// The player's marks per phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Phase {
    pub name: &'static str,
    /// 緩手, 疑問手, 悪手, 大悪手.
    pub marks: [u32; 4],
}

/// The player's mistakes, from the analysis comments of the games analysed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mistakes {
    /// Games with an evaluation or a mark in their comments.
    pub games: u64,
    pub phases: [Phase; 3],
    /// The 大悪手 then the 悪手, at most [`WORST`].
    pub worst: Vec<Marked>,
}

/// A player's dossier: results, strategies by side, opponents, years, where they leave their
/// usual line, and their mistakes by phase where games were analysed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dossier {
    pub player: String,
    pub all: Score,
    /// Strategies ([`strategy`]) of the games they played as 先手, then as 後手.
    pub as_sente: Vec<Row>,
    pub as_gote: Vec<Row>,
    /// The most frequent opponents, at most [`OPPONENTS`].
    pub opponents: Vec<Row>,
    pub years: Vec<Row>,
    /// At most [`DEVIATIONS`] per start position, the starts the player played most from
    /// first.
    pub deviations: Vec<Deviation>,
    /// `None` when none of their games was analysed.
    pub mistakes: Option<Mistakes>,
}

pub const OPPONENTS: usize = 20;
pub const DEVIATIONS: usize = 10;
pub const WORST: usize = 30;
/// The plies within which the dossier looks for where a player leaves their usual line.
pub const DEVIATION_PLIES: usize = 40;
/// A position counts for [`Dossier::deviations`] when the player was there in this many games.
pub const DEVIATION_GAMES: usize = 3;
/// 序盤: the first plies; 終盤: the last plies of a game (past the opening); 中盤 between.
pub const OPENING_PHASE: u32 = 30;
pub const ENDGAME_PHASE: u32 = 30;

/// The phase of the move at `ply` (1-based) of a game of `moves` moves.
pub fn phase(ply: u32, moves: u32) -> &'static str {
    if ply <= OPENING_PHASE {
        "序盤 opening"
    } else if ply + ENDGAME_PHASE > moves {
        "終盤 endgame"
    } else {
        "中盤 middlegame"
    }
}

/// The side `who` played in `g` (names as filters compare them; sente first).
pub fn side_of(g: &GameInfo, who: &Me) -> Option<Color> {
    match who.color(g.sente.as_deref(), g.gote.as_deref())? {
        MeColor::Sente => Some(Color::Black),
        MeColor::Gote => Some(Color::White),
    }
}

fn rows(map: HashMap<String, Score>) -> Vec<Row> {
    let mut v: Vec<Row> = map
        .into_iter()
        .map(|(key, score)| Row { key, score })
        .collect();
    v.sort_by(|a, b| b.score.games.cmp(&a.score.games).then(a.key.cmp(&b.key)));
    v
}

/// The dossier of the player `who` (called `name`) over the games `filter` picks that they
/// played (a side's name holds one of their names).
pub fn dossier(idx: &Index, filter: &Filter, who: &Me, name: &str) -> Result<Dossier, String> {
    let mut games: Vec<(GameInfo, Color)> = Vec::new();
    idx.games_each(filter, &mut |g| {
        if let Some(side) = side_of(&g, who) {
            games.push((g, side));
        }
        Ok(())
    })?;
    let mut all = Score::default();
    let (mut as_sente, mut as_gote, mut opponents, mut years) = Default::default();
    for (g, side) in &games {
        all.add(g.result, *side);
        let by_side: &mut HashMap<String, Score> = match side {
            Color::Black => &mut as_sente,
            Color::White => &mut as_gote,
        };
        by_side
            .entry(strategy(g).to_string())
            .or_default()
            .add(g.result, *side);
        let opponent = match side {
            Color::Black => &g.gote,
            Color::White => &g.sente,
        };
        let opponents: &mut HashMap<String, Score> = &mut opponents;
        opponents
            .entry(opponent.clone().unwrap_or_else(|| UNKNOWN.into()))
            .or_default()
            .add(g.result, *side);
        let years: &mut HashMap<String, Score> = &mut years;
        years
            .entry(
                g.date
                    .as_deref()
                    .and_then(|d| d.get(..4))
                    .unwrap_or(UNKNOWN)
                    .to_string(),
            )
            .or_default()
            .add(g.result, *side);
    }
    let mut opponents = rows(opponents);
    opponents.truncate(OPPONENTS);
    let mut years = rows(years);
    // Newest first, the games without a date last.
    years.sort_by(|a, b| (a.key == UNKNOWN, &b.key).cmp(&(b.key == UNKNOWN, &a.key)));
    Ok(Dossier {
        player: name.to_string(),
        all,
        as_sente: rows(as_sente),
        as_gote: rows(as_gote),
        opponents,
        years,
        deviations: deviations(idx, &games)?,
        mistakes: mistakes(&games),
    })
}

/// The place of the move at `ply` (from 1, 0: the start) of the game `g`.
pub(crate) fn at(g: &GameInfo, ply: u32) -> At {
    At {
        path: g.path.clone(),
        record: g.record,
        ply: g.first_move - 1 + ply,
    }
}

/// A position as its SFEN without the move number (board, side to move, hands): the key of a
/// position the dossier and the repertoire check (`super::repertoire::Tree`) compare whole.
pub fn position_text(pos: &Position) -> String {
    let mut s = pos.to_sfen();
    if let Some(i) = s.rfind(' ') {
        s.truncate(i);
    }
    s
}

/// The name of a start position: `平手` or a handicap's, else its SFEN without the move
/// number.
fn start_name(pos: &Position) -> String {
    let key = position_text(pos);
    HANDICAPS
        .iter()
        .find(|h| position_text(&h.position()) == key)
        .map_or(key, |h| h.name.to_string())
}

/// Where the player's games first leave their usual line: the usual move in a position (the
/// player to move there in at least [`DEVIATION_GAMES`] games, one move played in at least 2
/// of them and more than any other) is their most played one; each game is followed from its
/// start (within [`DEVIATION_PLIES`]) to the first position where the player played another
/// move than the usual one, which counts that game, once. A game stops counting at the first
/// position of the player's with no usual move (too few games there). Positions are compared
/// whole (board, hands, side to move), so a game that comes back to the usual line by
/// transposition is still one that left it where it first did; games from other starts
/// (handicaps, set positions) count from their own start and are grouped by it.
fn deviations(idx: &Index, games: &[(GameInfo, Color)]) -> Result<Vec<Deviation>, String> {
    let key = position_text;
    // Per game: its start, moves, and the (ply, position, move) where the player was to move.
    type Turn = (usize, String, Move);
    let mut played: Vec<(Position, Vec<Move>, Vec<Turn>)> = Vec::with_capacity(games.len());
    // Per position: the moves the player played there, with their games.
    let mut seen: HashMap<String, Vec<(Move, u64)>> = HashMap::new();
    for (g, side) in games {
        let (start, moves) = idx
            .main_line(g.id)?
            .unwrap_or_else(|| (Position::startpos(), Vec::new()));
        let mut pos = start.clone();
        let mut turns = Vec::new();
        for (ply, &mv) in moves.iter().enumerate().take(DEVIATION_PLIES) {
            if pos.side_to_move() == *side {
                let k = key(&pos);
                let counts = seen.entry(k.clone()).or_default();
                match counts.iter_mut().find(|(m, _)| *m == mv) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((mv, 1)),
                }
                turns.push((ply, k, mv));
            }
            if pos.play_unchecked(mv).is_none() {
                break;
            }
        }
        played.push((start, moves, turns));
    }
    // The usual move of each position that has one, and in how many games.
    let usual: HashMap<&String, (Move, u64)> = seen
        .iter()
        .filter_map(|(k, counts)| {
            let visits: u64 = counts.iter().map(|c| c.1).sum();
            let mut best = counts.clone();
            best.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.usi().cmp(&b.0.usi())));
            let (mv, n) = best[0];
            let unique = best.get(1).is_none_or(|b| b.1 < n);
            (visits >= DEVIATION_GAMES as u64 && n >= 2 && unique).then_some((k, (mv, n)))
        })
        .collect();
    // Per position left: the first game's (index, ply), and the games (index, ply, move).
    type Hits = ((usize, usize), Vec<(usize, usize, Move)>);
    let mut left: HashMap<&String, Hits> = HashMap::new();
    for (i, (_, _, turns)) in played.iter().enumerate() {
        for (ply, k, mv) in turns {
            let Some(&(u, _)) = usual.get(k) else { break };
            if *mv != u {
                let e = left.entry(k).or_insert(((i, *ply), Vec::new()));
                // The line shown: the game that got there in the fewest moves.
                if *ply < e.0.1 {
                    e.0 = (i, *ply);
                }
                e.1.push((i, *ply, *mv));
                break;
            }
        }
    }
    // The starts, the one the player played most from first.
    let mut starts: HashMap<String, u64> = HashMap::new();
    let names: Vec<String> = played.iter().map(|p| start_name(&p.0)).collect();
    for n in &names {
        *starts.entry(n.clone()).or_default() += 1;
    }
    let mut out: Vec<(u64, usize, Deviation)> = Vec::new();
    for (k, ((first, ply), hits)) in left {
        let (start, moves, _) = &played[first];
        let line = &moves[..ply];
        let mut pos = start.clone();
        for &m in line {
            pos.play_unchecked(m);
        }
        let prev = line.last().map(|m| m.to());
        let ja = |mv: Move| {
            pos.move_data(mv)
                .map(|md| move_text(&pos, &md, prev))
                .unwrap_or_else(|| mv.usi())
        };
        let (u, usual_games) = usual[k];
        let mut games_left: Vec<Left> = hits
            .iter()
            .map(|&(i, ply, mv)| Left {
                played: ja(mv),
                at: at(&games[i].0, ply as u32 + 1),
            })
            .collect();
        games_left.sort_by(|a, b| (&a.at.path, a.at.record).cmp(&(&b.at.path, b.at.record)));
        let name = names[first].clone();
        out.push((
            starts[&name],
            ply,
            Deviation {
                line: if line.is_empty() {
                    "(開始局面 the start)".into()
                } else {
                    line_text(start, line, None)
                },
                start: name,
                usual: ja(u),
                usual_games,
                games: games_left,
            },
        ));
    }
    out.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| a.2.start.cmp(&b.2.start))
            .then_with(|| b.2.games.len().cmp(&a.2.games.len()))
            .then(a.1.cmp(&b.1))
            .then_with(|| a.2.line.cmp(&b.2.line))
    });
    let mut per_start: HashMap<String, usize> = HashMap::new();
    Ok(out
        .into_iter()
        .filter(|(_, _, d)| {
            let n = per_start.entry(d.start.clone()).or_default();
            *n += 1;
            *n <= DEVIATIONS
        })
        .map(|(_, _, d)| d)
        .collect())
}

/// The player's marked moves in the games with analysis comments, read from their files
/// (only those games are read).
fn mistakes(games: &[(GameInfo, Color)]) -> Option<Mistakes> {
    let mut m = Mistakes {
        games: 0,
        phases: ["序盤 opening", "中盤 middlegame", "終盤 endgame"].map(|name| Phase {
            name,
            marks: [0; 4],
        }),
        worst: Vec::new(),
    };
    for (g, side) in games {
        let marked: u32 = g.marks.iter().flatten().sum();
        if g.evaluated == 0 && marked == 0 {
            continue;
        }
        m.games += 1;
        if g.marks[side.index()].iter().sum::<u32>() == 0 {
            continue;
        }
        let path = super::walk::key_path(&g.path);
        let Ok(bytes) = crate::load::read_input(&path) else {
            continue;
        };
        let Ok(loaded) = crate::load::read_records(&bytes, Some(&path)) else {
            continue;
        };
        let Some(parsed) = loaded.records.get(g.record as usize - 1) else {
            continue;
        };
        let r = &parsed.record;
        for e in main_line_evals(r) {
            let Some(mark) = e.mark.filter(|_| e.ply > 0) else {
                continue;
            };
            if r.side_to_move_at(e.node).flip() != *side {
                continue;
            }
            let ph = phase(e.ply, g.moves);
            let i = m.phases.iter().position(|p| p.name == ph).expect("a phase");
            m.phases[i].marks[mark as usize] += 1;
            if mark >= Mark::Mistake {
                let played = r
                    .node(e.node)
                    .move_data()
                    .map(|md| {
                        let before = r.position_at(r.node(e.node).parent.expect("a move"));
                        move_text(&before, md, None)
                    })
                    .unwrap_or_default();
                m.worst.push(Marked {
                    mark: mark.word(),
                    phase: ph,
                    played,
                    at: at(g, e.ply),
                });
            }
        }
    }
    m.worst.sort_by(|a, b| {
        (b.mark == "大悪手")
            .cmp(&(a.mark == "大悪手"))
            .then((&a.at.path, a.at.record, a.at.ply).cmp(&(&b.at.path, b.at.record, b.at.ply)))
    });
    m.worst.truncate(WORST);
    (m.games > 0).then_some(m)
}
