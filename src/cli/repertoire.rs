//! `kifview repertoire check REP`: a player's games in the index against their repertoire,
//! a record with variations or an opening book (any format `kifview book` reads). The check
//! itself is `collection::repertoire`'s; this reads the repertoire and prints.

use super::collection::{FilterArgs, fail, finish, json_line, open};
use super::report::{Doc, Table, place, whose};
use super::{Out, print_messages};
use clap::{Args, Subcommand};
use kifview::book::{self, Lookup};
use kifview::collection::repertoire::{self, Check, Named, Repertoire, RepertoireFit, Tree, Who};
use kifview::core::rules::{Color, Move, Position};
use kifview::load;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct RepertoireArgs {
    #[command(subcommand)]
    pub command: RepertoireCommand,
}

#[derive(Subcommand, Debug)]
pub enum RepertoireCommand {
    /// A player's games against a repertoire (a record with variations, or a book): where
    /// each game left it, who left it, the move played and the moves expected; the opponents'
    /// replies it does not answer.
    #[command(
        after_help = "A position is in the repertoire when any line of it reaches the position (transpositions count).\n\nExamples:\n  kifview repertoire check mine.kif me\n  kifview repertoire check mine.kif --player 藤井 --from 2023\n  kifview repertoire check user_book1.db --me fujii_s --min-games 3 --json"
    )]
    Check(CheckArgs),
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The repertoire: a record (KIF, KI2, CSA, JKF, …) whose every move, variations
    /// included, is in it, or an opening book (.db, .ybb, Apery .bin, .sbk).
    #[arg(value_name = "REP")]
    pub repertoire: PathBuf,
    /// `me`: my games (who I am: --me NAME, else the config's `[collection] me`).
    #[arg(value_name = "me", value_parser = ["me"])]
    pub me_word: Option<String>,
    /// The index folder (default: $KIFVIEW_INDEX, else the platform data directory's
    /// kifview/collection).
    #[arg(long, value_name = "IDX")]
    pub index: Option<PathBuf>,
    /// Whose games: --player NAME (or `me`), --me NAME; and the filters of `games`.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Which record of a multi-record repertoire file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = super::parse_record)]
    pub record: usize,
    /// List an opponents' reply the repertoire does not answer when at least N games
    /// played it.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub min_games: u64,
    /// JSON lines (see the README for the keys).
    #[arg(long)]
    pub json: bool,
}

pub fn repertoire(a: RepertoireArgs) -> ExitCode {
    match a.command {
        RepertoireCommand::Check(c) => check(c),
    }
}

const WHO: &str = "repertoire check";

/// A book as a repertoire: the positions it stores, with their moves.
struct BookRepertoire(Box<dyn Lookup>);

impl Repertoire for BookRepertoire {
    fn moves(&self, pos: &Position) -> Result<Option<Vec<Move>>, String> {
        let entry = self
            .0
            .entry(&book::key_of(pos))
            .map_err(|e| e.to_string())?;
        Ok(entry.map(|e| e.moves.into_iter().map(|m| m.usi).collect()))
    }
}

/// The first bytes of a regular file, to tell a book (empty for standard input or anything else:
/// a record).
pub(super) fn head(path: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut head = Vec::with_capacity(64);
    if let Ok(f) = std::fs::File::open(path)
        && f.metadata().is_ok_and(|m| m.is_file())
    {
        let _ = f.take(64).read_to_end(&mut head);
    }
    head
}

/// The repertoire at `path` and how many positions it holds: a book when its name or its
/// first bytes say so (looked up in place, as `book::open` does, whatever its size), else a
/// record (read as every record is, within the limit on a record file's size).
fn read(path: &Path, record: usize) -> Result<(Box<dyn Repertoire>, usize), String> {
    if path != Path::new("-") && book::detect(path, &head(path)).is_some() {
        let opened = book::open(path).map_err(|e| e.to_string())?;
        let warnings: Vec<String> = opened
            .warnings
            .iter()
            .map(|w| format!("{}:{}: {}", path.display(), w.line, w.message))
            .collect();
        print_messages(&warnings);
        let n = opened.book.len();
        return Ok((Box::new(BookRepertoire(opened.book)), n));
    }
    let loaded = load::load_input(path)?;
    let parsed = load::pick_record(&loaded, record, path)?;
    let warnings: Vec<String> = parsed
        .warnings
        .iter()
        .map(|w| format!("{}: {w}", path.display()))
        .collect();
    print_messages(&warnings);
    let tree = Tree::from_record(&parsed.record);
    let n = tree.len();
    Ok((Box::new(tree), n))
}

fn check(a: CheckArgs) -> ExitCode {
    let (f, who) = match whose(a.filter, a.me_word.is_some()) {
        Ok(w) => w,
        Err(e) => return fail(2, WHO, &e),
    };
    let Some((me, name)) = who else {
        return fail(
            2,
            WHO,
            "whose games? Give --player NAME, --me NAME or `me` (with `[collection] me` in the config)",
        );
    };
    let (rep, positions) = match read(&a.repertoire, a.record) {
        Ok(r) => r,
        Err(e) => return fail(1, WHO, &e),
    };
    let idx = match open(a.index, WHO) {
        Ok(i) => i,
        Err(c) => return c,
    };
    let c = match repertoire::check(&idx, &f, &me, rep.as_ref(), a.min_games) {
        Ok(c) => c,
        Err(e) => return fail(1, WHO, &e),
    };
    let mut out = Out::new();
    if a.json {
        for g in &c.games {
            out.write(json_line(&GameJson::of(g)).as_bytes());
        }
        for g in &c.gaps {
            out.write(
                json_line(&ReplyJson {
                    kind: "reply",
                    gap: g,
                })
                .as_bytes(),
            );
        }
        out.write(json_line(&Summary::of(&c)).as_bytes());
    } else {
        let doc = doc(&c, &a.repertoire, positions, &name, a.min_games);
        out.write(doc.text().as_bytes());
    }
    finish(out, WHO)
}

/// How many games ended each way.
#[derive(Serialize, Default)]
struct Summary {
    kind: &'static str,
    games: u64,
    left_by_player: u64,
    left_by_opponent: u64,
    ended: u64,
    followed: u64,
    outside: u64,
    transposed: u64,
}

impl Summary {
    fn of(c: &Check) -> Summary {
        let mut s = Summary {
            kind: "summary",
            ..Summary::default()
        };
        for g in &c.games {
            s.games += 1;
            match &g.outcome {
                RepertoireFit::Left {
                    by: Who::Player, ..
                } => s.left_by_player += 1,
                RepertoireFit::Left { .. } => s.left_by_opponent += 1,
                RepertoireFit::Ended { .. } => s.ended += 1,
                RepertoireFit::Followed { .. } => s.followed += 1,
                RepertoireFit::Outside { .. } => s.outside += 1,
            }
            s.transposed += u64::from(g.transposed.is_some());
        }
        s
    }
}

/// A game's line of `--json`.
#[derive(Serialize)]
struct GameJson<'a> {
    kind: &'static str,
    path: &'a str,
    record: u32,
    sente: Option<&'a str>,
    gote: Option<&'a str>,
    date: Option<&'a str>,
    color: &'static str,
    status: &'static str,
    ply: Option<u32>,
    by: Option<Who>,
    played: Option<&'a Named>,
    expected: Option<&'a [Named]>,
    transposed_ply: Option<u32>,
}

impl<'a> GameJson<'a> {
    fn of(c: &'a repertoire::Checked) -> GameJson<'a> {
        let g = &c.game;
        let (ply, by, played, expected) = match &c.outcome {
            RepertoireFit::Outside { .. } => (None, None, None, None),
            RepertoireFit::Left {
                at,
                by,
                played,
                expected,
            } => (Some(at.ply), Some(*by), Some(played), Some(&expected[..])),
            RepertoireFit::Ended { at } | RepertoireFit::Followed { at } => {
                (Some(at.ply), None, None, None)
            }
        };
        GameJson {
            kind: "game",
            path: &g.path,
            record: g.record,
            sente: g.sente.as_deref(),
            gote: g.gote.as_deref(),
            date: g.date.as_deref(),
            color: color(c.side),
            status: c.outcome.word(),
            ply,
            by,
            played,
            expected,
            transposed_ply: c.transposed.as_ref().map(|t| t.ply),
        }
    }
}

/// An unanswered reply's line of `--json`.
#[derive(Serialize)]
struct ReplyJson<'a> {
    kind: &'static str,
    #[serde(flatten)]
    gap: &'a repertoire::Gap,
}

fn color(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}

fn doc(c: &Check, rep: &Path, positions: usize, name: &str, min_games: u64) -> Doc {
    let s = Summary::of(c);
    let summary = Table {
        title: "全体 all games".into(),
        columns: vec![("".into(), false), ("".into(), true)],
        rows: [
            ("対局数 games", s.games),
            ("自分が離れた left by the player", s.left_by_player),
            ("相手が離れた left by the opponent", s.left_by_opponent),
            ("定跡の終わりまで until the repertoire ended", s.ended),
            ("終局まで until the game ended", s.followed),
            ("開始局面が外 start not in it", s.outside),
            ("手順前後で戻った came back by transposition", s.transposed),
        ]
        .into_iter()
        .map(|(k, v)| vec![k.to_string(), v.to_string()])
        .collect(),
    };
    let games = Table {
        title: "対局 games".into(),
        columns: [
            "FILE +PLY",
            "手番 color",
            "結果 status",
            "誰 who",
            "指し手 played",
            "定跡 expected",
        ]
        .iter()
        .map(|c| (c.to_string(), false))
        .collect(),
        rows: c
            .games
            .iter()
            .map(|g| {
                let side = match g.side {
                    Color::Black => "先手 sente",
                    Color::White => "後手 gote",
                };
                let (at, status, who, played, expected) = match &g.outcome {
                    RepertoireFit::Outside { at } => (
                        place(at),
                        "開始局面が外 outside",
                        "",
                        String::new(),
                        String::new(),
                    ),
                    RepertoireFit::Left {
                        at,
                        by,
                        played,
                        expected,
                    } => (
                        place(at),
                        "離れた left",
                        match by {
                            Who::Player => "自分 player",
                            Who::Opponent => "相手 opponent",
                        },
                        played.ja.clone(),
                        expected
                            .iter()
                            .map(|m| m.ja.as_str())
                            .collect::<Vec<_>>()
                            .join(" "),
                    ),
                    RepertoireFit::Ended { at } => (
                        place(at),
                        "定跡の終わり ended",
                        "",
                        String::new(),
                        String::new(),
                    ),
                    RepertoireFit::Followed { at } => (
                        place(at),
                        "終局まで followed",
                        "",
                        String::new(),
                        String::new(),
                    ),
                };
                vec![at, side.into(), status.into(), who.into(), played, expected]
            })
            .collect(),
    };
    let gaps = Table {
        title: format!(
            "答えのない相手の手 opponents' replies it does not answer ({min_games} games or more)"
        ),
        columns: vec![
            ("局面 position (手順 line)".into(), false),
            ("相手の手 reply".into(), false),
            ("局数 games".into(), true),
            ("".into(), false),
            ("FILE +PLY".into(), false),
        ],
        rows: c
            .gaps
            .iter()
            .map(|g| {
                vec![
                    g.line.clone(),
                    g.reply.ja.clone(),
                    g.games.to_string(),
                    if g.in_repertoire {
                        "定跡にあるが答えがない in it, unanswered".into()
                    } else {
                        "定跡にない not in it".into()
                    },
                    g.examples.first().map(place).unwrap_or_default(),
                ]
            })
            .collect(),
    };
    Doc {
        title: format!(
            "kifview repertoire check: {} ({positions} positions), {name}",
            rep.display()
        ),
        tables: vec![summary, games, gaps],
        charts: Vec::new(),
        json: None,
    }
}
