//! Queries over an index: which games reach a position, what was played from it.

use super::build::{CATALOG, GAMES};
use super::catalog::Catalog;
use super::keys::{decode_move, position_key};
use super::segment::{GameView, Segment};
use super::{Filter, GameInfo, Outcome};
use crate::core::rules::{Move, Position};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// An index opened for queries (read-only: the collection and the index may be on read-only
/// media).
pub struct Index {
    pub dir: PathBuf,
    catalog: Catalog,
    segments: Vec<Segment>,
    /// `games.bin`, memory-mapped.
    games: memmap2::Mmap,
}

/// A game that reaches the position.
#[derive(Clone, Debug)]
pub struct Found {
    pub game: GameInfo,
    /// Plies from the record's start when the position is first reached (on the main line
    /// when it gets there, else on the variation that gets there first).
    pub ply: u32,
}

/// One move played from the position, with the results of the games that played it.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct NextMove {
    pub usi: String,
    pub games: u64,
    pub sente: u64,
    pub gote: u64,
    pub draw: u64,
    pub unknown: u64,
}

/// What was played from a position.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Explored {
    /// Every game reaching the position, those ending there too.
    pub games: u64,
    pub sente: u64,
    pub gote: u64,
    pub draw: u64,
    pub unknown: u64,
    /// By count, then USI.
    pub moves: Vec<NextMove>,
}

/// A confirmed hit: the game, where it first reaches the position and what it played next.
struct Hit {
    game: u32,
    ply: u32,
    next: Option<Move>,
}

impl Index {
    /// Opens the index in `dir`; a missing, damaged or other-version index is an error saying so.
    pub fn open(dir: &Path) -> Result<Index, String> {
        let cat_path = dir.join(CATALOG);
        if !cat_path.is_file() {
            return Err(format!(
                "{}: no index there (build one with `kifview index FOLDER`)",
                dir.display()
            ));
        }
        let damaged = |why: String| {
            format!(
                "{}: {why}; run `kifview index` on the collection to rebuild it",
                dir.display()
            )
        };
        let catalog = Catalog::open(&cat_path, true, false).map_err(damaged)?;
        let mut segments = Vec::new();
        for id in catalog.segments().map_err(damaged)? {
            segments.push(Segment::open(dir, id).map_err(damaged)?);
        }
        let gpath = dir.join(GAMES);
        let f = std::fs::File::open(&gpath)
            .map_err(|e| damaged(format!("{}: {e}", gpath.display())))?;
        // SAFETY: games.bin is replaced by a rename, never written in place.
        let games = unsafe { memmap2::Mmap::map(&f) }.map_err(|e| damaged(e.to_string()))?;
        Ok(Index {
            dir: dir.to_path_buf(),
            catalog,
            segments,
            games,
        })
    }

    fn outcome(&self, game: u32) -> Option<Outcome> {
        match self.games.get(game as usize)? {
            0 => None,
            b => Outcome::ALL.get(*b as usize - 1).copied(),
        }
    }

    fn hits(&self, target: &Position, filter: &Filter) -> Result<Vec<Hit>, String> {
        let key = position_key(target);
        let allowed = if filter.is_empty() {
            None
        } else {
            Some(self.catalog.filtered_ids(filter)?)
        };
        let mut out = Vec::new();
        let mut candidates = Vec::new();
        let start = Position::startpos();
        for seg in &self.segments {
            candidates.clear();
            seg.games_with(key, &mut candidates);
            for &g in &candidates {
                if self.outcome(g).is_none()
                    || allowed
                        .as_ref()
                        .is_some_and(|a| a.binary_search(&g).is_err())
                {
                    continue;
                }
                let Some(stored) = seg.view(g) else { continue };
                let initial = match stored.initial {
                    None => start.clone(),
                    Some(s) => match Position::from_sfen(s) {
                        Ok(p) => p,
                        Err(_) => continue,
                    },
                };
                let mut best: Option<(u32, Option<Move>)> = None;
                for (i, line) in stored.lines.iter().enumerate() {
                    if let Some(h) = first_reach(&initial, line, target)
                        && best.is_none_or(|b| h.0 < b.0)
                    {
                        best = Some(h);
                        if i == 0 {
                            break; // the main line's ply wins
                        }
                    }
                }
                if let Some((ply, next)) = best {
                    out.push(Hit { game: g, ply, next });
                }
            }
        }
        out.sort_by_key(|h| h.game);
        Ok(out)
    }

    /// The games that reach `target` (board, hands and side to move; the move number aside),
    /// ordered by path and record.
    pub fn find(&self, target: &Position, filter: &Filter) -> Result<Vec<Found>, String> {
        let hits = self.hits(target, filter)?;
        let ids: Vec<u32> = hits.iter().map(|h| h.game).collect();
        let rows = self.catalog.games(&Filter::default(), Some(&ids))?;
        Ok(rows
            .into_iter()
            .filter_map(|game| {
                let i = ids.binary_search(&game.id).ok()?;
                Some(Found {
                    ply: hits[i].ply,
                    game,
                })
            })
            .collect())
    }

    /// The moves played from `target` and how the games scored.
    pub fn explore(&self, target: &Position, filter: &Filter) -> Result<Explored, String> {
        let mut out = Explored::default();
        let mut moves: std::collections::HashMap<Move, NextMove> = Default::default();
        for h in self.hits(target, filter)? {
            let o = self.outcome(h.game).unwrap_or(Outcome::Unknown);
            count(
                &mut out.games,
                [
                    &mut out.sente,
                    &mut out.gote,
                    &mut out.draw,
                    &mut out.unknown,
                ],
                o,
            );
            if let Some(mv) = h.next {
                let m = moves.entry(mv).or_insert_with(|| NextMove {
                    usi: mv.usi(),
                    ..NextMove::default()
                });
                count(
                    &mut m.games,
                    [&mut m.sente, &mut m.gote, &mut m.draw, &mut m.unknown],
                    o,
                );
            }
        }
        out.moves = moves.into_values().collect();
        out.moves
            .sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.usi.cmp(&b.usi)));
        Ok(out)
    }

    /// The catalog, filtered, ordered by path and record.
    pub fn games(&self, filter: &Filter) -> Result<Vec<GameInfo>, String> {
        self.catalog.games(filter, None)
    }

    /// (games, position pairs, bytes of the position index on disk).
    pub fn sizes(&self) -> Result<(u64, u64, u64), String> {
        let (live, _, _) = self.catalog.counts()?;
        let pairs = self.segments.iter().map(|s| s.pairs() as u64).sum();
        let bytes = self.segments.iter().map(Segment::bytes).sum::<u64>() + self.games.len() as u64;
        Ok((live, pairs, bytes))
    }
}

fn count(total: &mut u64, by: [&mut u64; 4], o: Outcome) {
    *total += 1;
    let i = Outcome::ALL.iter().position(|x| *x == o).unwrap_or(3);
    let [a, b, c, d] = by;
    *[a, b, c, d].into_iter().nth(i).expect("four outcomes") += 1;
}

/// The first ply at which the line from `initial` reaches `target`, and the move played there.
fn first_reach(initial: &Position, line: &[u8], target: &Position) -> Option<(u32, Option<Move>)> {
    let mut pos = initial.clone();
    let mut codes = GameView::codes(line);
    for ply in 0.. {
        let next = codes.next();
        if pos.same_placement(target) {
            return Some((ply, next.and_then(decode_move)));
        }
        pos.play_unchecked(decode_move(next?)?)?;
    }
    None
}
