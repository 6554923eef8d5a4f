//! Queries over an index: which games reach a position, what was played from it.

use super::catalog::{CATALOG, Catalog, SortBy};
use super::games_bin::Games;
use super::keys::{decode_move, position_key};
use super::segment::{GameView, LineView, Segment};
use super::{Brief, Filter, GameInfo, GameResult, MeColor, MeSide, MeTally};
use crate::core::rules::Position;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// An index opened for queries (read-only: the collection and the index may be on read-only
/// media). It follows the index as updates change it: a query first looks at the catalog's
/// generation, and when an update committed since, opens the segments and `games.bin` again
/// (an update adds games, and a compaction gives the games new ids: answers from the old
/// segments would name other games).
pub struct Index {
    pub dir: PathBuf,
    catalog: Catalog,
    /// The catalog file opened (device, inode): a rebuild puts a new file in its place.
    identity: Option<(u64, u64)>,
    view: std::cell::RefCell<View>,
}

/// The identity (device, inode) of the file at `path`.
pub(crate) fn identity(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::metadata(path)
            .ok()
            .and_then(|m| m.modified().ok())
            .map(|t| {
                let d = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
                (d.as_secs(), u64::from(d.subsec_nanos()))
            })
    }
}

/// What a query reads beside the catalog, as of one generation of it.
struct View {
    generation: u64,
    segments: Vec<Segment>,
    /// `games.bin`, memory-mapped, or built from the catalog when it is not the current one.
    games: Games,
}

impl View {
    /// The segments and `games.bin` of the catalog in `dir`, from one snapshot of the catalog
    /// (its generation, its segments and, when `games.bin` is not the current one, the table
    /// built from it).
    fn load(dir: &Path, catalog: &Catalog) -> Result<View, String> {
        snapshot(catalog, || {
            let generation = catalog.generation()?;
            let mut segments = Vec::new();
            for id in catalog.segments()? {
                segments.push(Segment::open(dir, id)?);
            }
            let games = Games::open(dir, catalog, &segments)?;
            Ok(View {
                generation,
                segments,
                games,
            })
        })
    }
}

/// Runs `f` inside one read transaction of `catalog` ([`Catalog::snapshot`]).
fn snapshot<T>(catalog: &Catalog, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catalog.snapshot(f)
}

/// What [`Index::find_brief`] calls per game: its row, the ply and the variations taken
/// there (as [`Found`]'s).
pub type BriefEach<'a> = dyn FnMut(&Brief, u32, &[Fork]) -> Result<(), String> + 'a;

/// A game that reaches the position.
#[derive(Clone, Debug)]
pub struct Found {
    pub game: GameInfo,
    /// Plies from the record's start when the position is first reached (on the main line
    /// when it gets there, else on the variation that gets there first).
    pub ply: u32,
    /// The move the game played next there (USI), `None` when it ends there.
    pub next: Option<String>,
    /// Empty when the main line reaches the position; else the variations taken from the
    /// root to the line that does ([`Fork`]), outermost first.
    pub variation: Vec<Fork>,
}

/// A variation taken on the way to a node: at the fork after `ply` plies from the record's
/// start, its `alt`-th variation (1: the first, as a reader lists them after the move they
/// replace), then its first moves onwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Fork {
    pub ply: u32,
    pub alt: u32,
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
    /// From my side, when the filter is `me` ([`Filter::me`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub me: Option<MeTally>,
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
    /// From my side, when the filter is `me` ([`Filter::me`]): the games I played, scored as
    /// they went for me, whatever my colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub me: Option<MeTally>,
}

/// What [`Index::each_main_line`] calls per game: its id, its initial SFEN (`None`: the start
/// position) and its main line's move codes.
pub type MainLineFn<'a> = dyn FnMut(u32, Option<&str>, &[u8]) -> Result<(), String> + 'a;

/// A confirmed hit: the game, where it first reaches the position and the code of the move
/// it played next (`None` when it ends there).
struct Hit {
    game: u32,
    outcome: GameResult,
    ply: u32,
    next: Option<u16>,
    /// Empty on the main line.
    variation: Vec<Fork>,
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
        // A rebuild that replaces the catalog between its opening and its segments' (whose
        // old files it then removes) is met by opening the new one.
        let mut tries = 0;
        loop {
            let id = identity(&cat_path);
            let opened = Catalog::open(&cat_path, true, false)
                .and_then(|catalog| Ok((View::load(dir, &catalog)?, catalog)));
            match opened {
                Ok((view, catalog)) => {
                    return Ok(Index {
                        dir: dir.to_path_buf(),
                        catalog,
                        identity: id,
                        view: std::cell::RefCell::new(view),
                    });
                }
                Err(_) if tries < 3 && identity(&cat_path) != id => tries += 1,
                Err(e) => return Err(damaged(e)),
            }
        }
    }

    /// Has the index been rebuilt since it was opened (a new catalog file in place of the
    /// one this reads)? Then this one answers from the old index, as it was, until dropped:
    /// open the index again. (Updates in place are followed by every query: see
    /// [`Index::generation`].)
    pub fn replaced(&self) -> bool {
        identity(&self.dir.join(CATALOG)) != self.identity
    }

    /// The catalog's generation: one more at every update's commit that changes games or
    /// their ids (an update adds games in steps, each a generation; a compaction renumbers
    /// them). Every query reads the current one; what was shown from an older one is stale.
    pub fn generation(&self) -> Result<u64, String> {
        self.catalog.generation()
    }

    /// The segments and `games.bin` of the catalog's current generation (opened again when an
    /// update committed since they were).
    fn view(&self) -> Result<std::cell::Ref<'_, View>, String> {
        if self.view.borrow().generation != self.catalog.generation()? {
            let fresh = View::load(&self.dir, &self.catalog).map_err(|e| {
                format!(
                    "{}: {e}; run `kifview index` on the collection to rebuild it",
                    self.dir.display()
                )
            })?;
            *self.view.borrow_mut() = fresh;
        }
        Ok(self.view.borrow())
    }

    /// Calls `each` with every game that reaches `target`, in id order (segments hold
    /// ascending ids, and a key's pairs are sorted by game).
    ///
    /// A candidate (a game with the key) is confirmed by replaying its stored moves, except
    /// when the target is the start position and so is the candidate's initial position: then
    /// it reaches it at ply 0 by construction, and the move played there is its first.
    fn each_hit(
        &self,
        target: &Position,
        filter: &Filter,
        each: &mut dyn FnMut(Hit),
    ) -> Result<(), String> {
        let key = position_key(target);
        let allowed = if filter.is_empty() {
            None
        } else {
            Some(self.catalog.filtered_ids(filter)?)
        };
        let start = Position::startpos();
        let at_start = target.same_placement(&start);
        let mut candidates = Vec::new();
        let view = self.view()?;
        for seg in &view.segments {
            candidates.clear();
            seg.games_with(key, &mut candidates)?;
            for &g in &candidates {
                let Some(outcome) = view.games.outcome(g) else {
                    continue;
                };
                if allowed
                    .as_ref()
                    .is_some_and(|a| a.binary_search(&g).is_err())
                {
                    continue;
                }
                if at_start && let Some(next) = view.games.start_code(g) {
                    each(Hit {
                        game: g,
                        outcome,
                        ply: 0,
                        next,
                        variation: Vec::new(),
                    });
                    continue;
                }
                let Some(stored) = seg.view(g)? else { continue };
                let initial = match stored.initial {
                    None => start.clone(),
                    Some(s) => match Position::from_sfen(s) {
                        Ok(p) => p,
                        Err(_) => continue,
                    },
                };
                if let Some(r) = first_reach(&initial, &stored.lines, target) {
                    each(Hit {
                        game: g,
                        outcome,
                        ply: r.ply,
                        next: r.next,
                        variation: forks(&stored.lines, r.line),
                    });
                }
            }
        }
        Ok(())
    }

    fn hits(&self, target: &Position, filter: &Filter) -> Result<Vec<Hit>, String> {
        let mut out = Vec::new();
        self.each_hit(target, filter, &mut |h| out.push(h))?;
        Ok(out)
    }

    /// The games that reach `target` (board, hands and side to move; the move number aside),
    /// in index order (path and record order for the files of one build; files added by a
    /// later update come after).
    pub fn find(&self, target: &Position, filter: &Filter) -> Result<Vec<Found>, String> {
        let mut out = Vec::new();
        self.find_each(target, filter, &mut |f| {
            out.push(f);
            Ok(())
        })?;
        Ok(out)
    }

    /// [`Index::find`] one game at a time, in the same order, without holding the games'
    /// rows (memory bounded by a few bytes a hit); an error from `each` stops it.
    pub fn find_each(
        &self,
        target: &Position,
        filter: &Filter,
        each: &mut dyn FnMut(Found) -> Result<(), String>,
    ) -> Result<(), String> {
        snapshot(&self.catalog, || {
            let hits = self.hits(target, filter)?;
            let ids: Vec<u32> = hits.iter().map(|h| h.game).collect();
            let mut i = 0;
            self.catalog
                .each_game(&Filter::default(), Some(&ids), &mut |game| {
                    // Rows come in id order, a subset of `ids`.
                    while hits[i].game < game.id {
                        i += 1;
                    }
                    each(Found {
                        ply: hits[i].ply,
                        next: hits[i].next.and_then(decode_move).map(|m| m.usi()),
                        variation: hits[i].variation.clone(),
                        game,
                    })
                })
        })
    }

    /// [`Index::find_each`] with only the columns `find` prints, borrowed ([`Brief`]), and the
    /// ply: what the CLI streams, nothing allocated per game.
    pub fn find_brief(
        &self,
        target: &Position,
        filter: &Filter,
        each: &mut BriefEach,
    ) -> Result<(), String> {
        snapshot(&self.catalog, || {
            let hits = self.hits(target, filter)?;
            let ids: Vec<u32> = hits.iter().map(|h| h.game).collect();
            let mut i = 0;
            self.catalog.each_brief(&ids, &mut |b| {
                // Rows come in id order, a subset of `ids`.
                while hits[i].game < b.id {
                    i += 1;
                }
                each(b, hits[i].ply, &hits[i].variation)
            })
        })
    }

    /// My colour in each of the games `filter` takes, when the filter is `me` (and someone
    /// is): `me:sente` and `me:gote` say it; with `me` it is sente in the games where sente's
    /// name is mine (sorted ids), gote in the others.
    fn me_sides(&self, filter: &Filter) -> Result<Option<(MeSide, Vec<u32>)>, String> {
        let Some(side) = filter.me.filter(|_| filter.me_who().is_some()) else {
            return Ok(None);
        };
        let as_sente = if side == MeSide::Either {
            self.catalog.filtered_ids(&Filter {
                me: Some(MeSide::Sente),
                me_names: filter.me_names.clone(),
                ..Filter::default()
            })?
        } else {
            Vec::new()
        };
        Ok(Some((side, as_sente)))
    }

    /// The moves played from `target` and how the games scored (and, when the filter is
    /// `me`, how they went for me: [`Explored::me`]).
    pub fn explore(&self, target: &Position, filter: &Filter) -> Result<Explored, String> {
        // Counted by outcome (sente, gote, draw, unknown): all games, and per next-move code.
        // Per code: a table of every two-byte code (2 MB of zeroed pages, only those touched
        // are ever written or read), no hashing per game. My results likewise, by
        // `MeResult` (win, loss, draw, unknown).
        let mut all = [0u64; 4];
        let mut by_code = vec![[0u64; 4]; 1 << 16];
        let mut seen: Vec<u16> = Vec::new();
        let mut me_all = [0u64; 4];
        let mut me_by_code: Vec<[u64; 4]> = Vec::new();
        snapshot(&self.catalog, || {
            let me = self.me_sides(filter)?;
            if me.is_some() {
                me_by_code = vec![[0u64; 4]; 1 << 16];
            }
            self.each_hit(target, filter, &mut |h| {
                let o = h.outcome as usize;
                all[o] += 1;
                let mine = me.as_ref().map(|(side, as_sente)| {
                    let color = match side {
                        MeSide::Sente => MeColor::Sente,
                        MeSide::Gote => MeColor::Gote,
                        MeSide::Either if as_sente.binary_search(&h.game).is_ok() => MeColor::Sente,
                        MeSide::Either => MeColor::Gote,
                    };
                    color.result(h.outcome) as usize
                });
                if let Some(r) = mine {
                    me_all[r] += 1;
                }
                if let Some(code) = h.next {
                    let c = &mut by_code[code as usize];
                    if *c == [0; 4] {
                        seen.push(code);
                    }
                    c[o] += 1;
                    if let Some(r) = mine {
                        me_by_code[code as usize][r] += 1;
                    }
                }
            })
        })?;
        let tally = |c: [u64; 4]| (c.iter().sum(), c[0], c[1], c[2], c[3]);
        let with_me = !me_by_code.is_empty();
        let (games, sente, gote, draw, unknown) = tally(all);
        let mut moves: Vec<NextMove> = seen
            .into_iter()
            .filter_map(|code| {
                let (games, sente, gote, draw, unknown) = tally(by_code[code as usize]);
                Some(NextMove {
                    usi: decode_move(code)?.usi(),
                    games,
                    sente,
                    gote,
                    draw,
                    unknown,
                    me: with_me.then(|| MeTally::from(me_by_code[code as usize])),
                })
            })
            .collect();
        moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.usi.cmp(&b.usi)));
        Ok(Explored {
            games,
            sente,
            gote,
            draw,
            unknown,
            moves,
            me: with_me.then(|| MeTally::from(me_all)),
        })
    }

    /// The catalog, filtered, in index order (as [`Index::find`]).
    pub fn games(&self, filter: &Filter) -> Result<Vec<GameInfo>, String> {
        let mut out = Vec::new();
        self.games_each(filter, &mut |g| {
            out.push(g);
            Ok(())
        })?;
        Ok(out)
    }

    /// [`Index::games`] one row at a time, without holding them; an error from `each` stops it.
    pub fn games_each(
        &self,
        filter: &Filter,
        each: &mut dyn FnMut(GameInfo) -> Result<(), String>,
    ) -> Result<(), String> {
        snapshot(&self.catalog, || self.catalog.each_game(filter, None, each))
    }

    /// One page of the game list: the games passing `filter`, sorted by `sort` (then by
    /// index order), `limit` of them from `offset`.
    pub fn page(
        &self,
        filter: &Filter,
        sort: SortBy,
        descending: bool,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<GameInfo>, String> {
        self.catalog.page(filter, sort, descending, offset, limit)
    }

    /// The copies of games that are not counted, each with the copy counted in its place
    /// ([`super::duplicates`]), by path and record.
    pub fn duplicates(&self) -> Result<Vec<super::duplicates::Duplicate>, String> {
        snapshot(&self.catalog, || super::duplicates::listed(&self.catalog))
    }

    /// Every tag of the games passing `filter`, with its count (by count, then name).
    pub fn tag_counts(&self, filter: &Filter) -> Result<Vec<(String, u64)>, String> {
        self.catalog.tag_counts(filter)
    }

    /// A game's start and main line, from its stored moves (`None`: no such game).
    pub fn main_line(
        &self,
        game: u32,
    ) -> Result<Option<(Position, Vec<crate::core::rules::Move>)>, String> {
        let view = self.view()?;
        let Some(seg) = view.segments.iter().find(|s| s.game_ids().contains(&game)) else {
            return Ok(None);
        };
        let Some(stored) = seg.view(game)? else {
            return Ok(None);
        };
        let initial = match stored.initial {
            None => Position::startpos(),
            Some(s) => Position::from_sfen(s).map_err(|e| format!("game {game}: {e}"))?,
        };
        let moves = stored
            .lines
            .first()
            .map(|l| GameView::codes(l.codes).map_while(decode_move).collect())
            .unwrap_or_default();
        Ok(Some((initial, moves)))
    }

    /// How many games pass `filter`.
    pub fn count(&self, filter: &Filter) -> Result<u64, String> {
        self.catalog.count(filter)
    }

    /// Runs `f` inside one read transaction of the catalog: every query it makes reads the same
    /// generation of the index (an update's commit waits until it ends).
    pub fn in_snapshot<T>(&self, f: impl FnOnce(&Index) -> Result<T, String>) -> Result<T, String> {
        snapshot(&self.catalog, || f(self))
    }

    /// Every game passing `filter` that the index holds, once, in id order, with its initial
    /// position's SFEN (`None`: the start position) and its main line's move codes (two
    /// little-endian bytes each, [`decode_move`]): one pass over the segments' stored games,
    /// no position looked up (what `kifview book build --index` reads). An error from `each`
    /// stops it.
    pub fn each_main_line(&self, filter: &Filter, each: &mut MainLineFn) -> Result<(), String> {
        snapshot(&self.catalog, || {
            let allowed = if filter.is_empty() {
                None
            } else {
                Some(self.catalog.filtered_ids(filter)?)
            };
            let view = self.view()?;
            for seg in &view.segments {
                for g in seg.game_ids() {
                    if view.games.outcome(g).is_none()
                        || allowed
                            .as_ref()
                            .is_some_and(|a| a.binary_search(&g).is_err())
                    {
                        continue;
                    }
                    let Some(stored) = seg.view(g)? else { continue };
                    let main = stored.lines.first().map_or(&[][..], |l| l.codes);
                    each(g, stored.initial, main)?;
                }
            }
            Ok(())
        })
    }

    /// (games, position pairs, bytes of the position index on disk).
    pub fn sizes(&self) -> Result<(u64, u64, u64), String> {
        snapshot(&self.catalog, || {
            let (live, _, _) = self.catalog.counts()?;
            let view = self.view()?;
            let pairs = view.segments.iter().map(|s| s.pairs() as u64).sum();
            let bytes = view.segments.iter().map(Segment::bytes).sum::<u64>()
                + view.games.bytes().len() as u64;
            Ok((live, pairs, bytes))
        })
    }
}

impl Fork {
    /// The variations `forks` as the viewer's `--variation` takes them (`3:1,7:2`: at move 3,
    /// as a record whose first move is numbered `first_move` numbers it, its first variation;
    /// then at move 7 its second); `None` on the main line.
    pub fn arg(first_move: u32, forks: &[Fork]) -> Option<String> {
        if forks.is_empty() {
            return None;
        }
        let each: Vec<String> = forks
            .iter()
            .map(|f| format!("{}:{}", u64::from(first_move) + u64::from(f.ply), f.alt))
            .collect();
        Some(each.join(","))
    }

    /// Reads [`Fork::arg`]'s text: (move number, variation) pairs, or why it is not one.
    pub fn parse_arg(text: &str) -> Result<Vec<(u32, u32)>, String> {
        text.split(',')
            .map(|one| {
                let (m, a) = one.split_once(':').unwrap_or((one, ""));
                match (m.trim().parse::<u32>(), a.trim().parse::<u32>()) {
                    (Ok(m), Ok(a)) if m > 0 && a > 0 => Ok((m, a)),
                    _ => Err(format!(
                        "--variation: expected MOVE:N[,MOVE:N…] (the Nth variation of that \
                         move, from 1), got '{}'",
                        crate::core::text::sanitize(one)
                    )),
                }
            })
            .collect()
    }

    /// The forks of `Fork::parse_arg`'s pairs in a record whose moves are numbered after
    /// `moves_before` (a move numbered at or before it names no fork).
    pub fn from_numbers(pairs: &[(u32, u32)], moves_before: u32) -> Option<Vec<Fork>> {
        pairs
            .iter()
            .map(|&(m, alt)| {
                Some(Fork {
                    ply: m.checked_sub(moves_before + 1)?,
                    alt,
                })
            })
            .collect()
    }
}

/// The node of `record` a [`Found`] names: `ply` plies from the record's start, on the main
/// line, or on the variations `variation` names (each at its fork). `None` when the record
/// has no such node (it changed since it was indexed).
pub fn node_of(
    record: &crate::core::record::Record,
    variation: &[Fork],
    ply: u32,
) -> Option<crate::core::record::NodeId> {
    let mut id = crate::core::record::NodeId::ROOT;
    let mut forks = variation.iter().peekable();
    for at in 0..ply {
        let alt = match forks.peek() {
            Some(f) if f.ply == at => forks.next().map_or(0, |f| f.alt as usize),
            _ => 0,
        };
        id = *record.node(id).children.get(alt)?;
    }
    forks.next().is_none().then_some(id)
}

/// Where a stored game first reaches a position.
struct Reach {
    ply: u32,
    /// The move played there, `None` when the line ends there.
    next: Option<u16>,
    /// The line it is on.
    line: usize,
}

/// Where the game whose tree is `lines` (from `initial`) first reaches `target`: on the main
/// line when it gets there, else at the lowest ply of any variation (the earlier line on a
/// tie). Each move is replayed at most once: a line starts from the position its parent line
/// had at the fork, kept while the parent was replayed, and no line is replayed past the best
/// ply found.
fn first_reach(initial: &Position, lines: &[LineView], target: &Position) -> Option<Reach> {
    let main = lines.first()?;
    if lines.len() == 1 {
        return line_reach(initial.clone(), main, target, u32::MAX, &mut |_, _| {})
            .map(|(ply, next)| Reach { ply, next, line: 0 });
    }
    // The lines leaving each line, by the ply they leave it at (parents come first).
    let mut forks: Vec<(u32, u32, u32)> = (1..lines.len())
        .map(|i| (lines[i].parent, lines[i].from, i as u32))
        .collect();
    forks.sort_unstable();
    let mut starts: Vec<Option<Position>> = vec![None; lines.len()];
    starts[0] = Some(initial.clone());
    let mut best: Option<Reach> = None;
    for (i, line) in lines.iter().enumerate() {
        let Some(start) = starts[i].take() else {
            continue; // its parent ended before the fork (or was not replayed that far)
        };
        let limit = best.as_ref().map_or(u32::MAX, |b| b.ply);
        if line.from >= limit {
            continue;
        }
        let lo = forks.partition_point(|f| f.0 < i as u32);
        let hi = forks.partition_point(|f| f.0 <= i as u32);
        let mut k = lo;
        let found = line_reach(start, line, target, limit, &mut |ply, pos| {
            while k < hi && forks[k].1 < ply {
                k += 1;
            }
            while k < hi && forks[k].1 == ply {
                starts[forks[k].2 as usize] = Some(pos.clone());
                k += 1;
            }
        });
        if let Some((ply, next)) = found {
            best = Some(Reach { ply, next, line: i });
            if i == 0 {
                break; // the main line's ply wins
            }
        }
    }
    best
}

/// The first ply below `limit` at which `line`, from `pos` at its fork, reaches `target`, and
/// the move played there; `at(ply, position)` sees each position before it is compared.
fn line_reach(
    mut pos: Position,
    line: &LineView,
    target: &Position,
    limit: u32,
    at: &mut dyn FnMut(u32, &Position),
) -> Option<(u32, Option<u16>)> {
    let mut codes = GameView::codes(line.codes);
    let mut ply = line.from;
    while ply < limit {
        at(ply, &pos);
        let next = codes.next();
        if pos.same_placement(target) {
            return Some((ply, next));
        }
        pos.play_unchecked(decode_move(next?)?)?;
        ply += 1;
    }
    None
}

/// The variations taken from the root to line `line` of `lines`, outermost first.
fn forks(lines: &[LineView], mut line: usize) -> Vec<Fork> {
    let mut out = Vec::new();
    while line > 0 {
        let l = &lines[line];
        out.push(Fork {
            ply: l.from,
            alt: l.alt,
        });
        line = l.parent as usize;
    }
    out.reverse();
    out
}
