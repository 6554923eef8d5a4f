//! The repertoire check (issue 35): a player's games against their repertoire, a record
//! with variations (every move of its tree is "in") or an opening book. For each game: the
//! first ply where it left the repertoire, who left it (the player or the opponent), the move
//! played and the moves the repertoire expected; or that it never left it (the repertoire
//! ended, or the game did). Positions, not paths, decide: a game is in the repertoire while
//! each move it plays is one the repertoire gives there or reaches a position some line of the
//! repertoire reaches (a transposition). Coverage: the opponents' replies, in positions
//! where the repertoire lists their moves, that it does not answer (the reply is not in it, or
//! the repertoire gives no move after it), with how many games played them.
//!
//! Terminal-free, and free of the book formats: a book answers through the [`Repertoire`]
//! trait, which `kifview repertoire check` (`cli/repertoire.rs`) implements for `book::open`'s
//! lookups; a record's tree is a [`Tree`].

use super::keys::decode_move;
use super::report::{At, at, position_text as key, side_of};
use super::segment::GameView;
use super::{Filter, GameInfo, Index, Me};
use crate::core::notation::ki2::{line_text, move_text};
use crate::core::record::Record;
use crate::core::rules::{Color, Move, Position};
use serde::Serialize;
use std::collections::HashMap;

/// What a repertoire says of a position.
pub trait Repertoire {
    /// The moves the repertoire gives in `pos` (board, hands and side to move; the ply does not
    /// count): `None` when no line of it reaches `pos`, empty when one does and ends there.
    fn moves(&self, pos: &Position) -> Result<Option<Vec<Move>>, String>;
}

/// A record's tree as a repertoire: every position a node of it reaches (main line and
/// variations), with the moves its nodes there continue with (the moves of every node reaching
/// the same position, in the order first met).
#[derive(Clone, Debug, Default)]
pub struct Tree {
    positions: HashMap<String, Vec<Move>>,
}

impl Tree {
    pub fn from_record(r: &Record) -> Tree {
        let mut positions: HashMap<String, Vec<Move>> = HashMap::new();
        // Depth first with the position carried along: each node's position is played once.
        let mut stack = vec![(r.root(), r.initial.position.clone())];
        while let Some((id, pos)) = stack.pop() {
            let moves = positions.entry(key(&pos)).or_default();
            let node = r.node(id);
            for &c in node.children.iter() {
                let Some(md) = r.node(c).move_data() else {
                    continue;
                };
                if !moves.contains(&md.mv) {
                    moves.push(md.mv);
                }
            }
            for &c in node.children.iter().rev() {
                let Some(md) = r.node(c).move_data() else {
                    continue;
                };
                let mut next = pos.clone();
                if next.play_unchecked(md.mv).is_some() {
                    stack.push((c, next));
                }
            }
        }
        Tree { positions }
    }

    /// How many positions the tree reaches.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

impl Repertoire for Tree {
    fn moves(&self, pos: &Position) -> Result<Option<Vec<Move>>, String> {
        Ok(self.positions.get(&key(pos)).cloned())
    }
}

/// Who played a move: the player whose games are checked, or their opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Who {
    Player,
    Opponent,
}

impl Who {
    pub fn word(self) -> &'static str {
        match self {
            Who::Player => "player",
            Who::Opponent => "opponent",
        }
    }
}

/// A move, in USI and in Japanese.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Named {
    pub usi: String,
    pub ja: String,
}

/// How a game went against the repertoire.
#[derive(Clone, Debug, PartialEq)]
pub enum RepertoireFit {
    /// The game's start position is in no line of the repertoire (a handicap, a game from a
    /// set position the repertoire does not hold); `at`: its start.
    Outside { at: At },
    /// The move at `at` left the repertoire.
    Left {
        at: At,
        by: Who,
        played: Named,
        /// What the repertoire gives in the position before it.
        expected: Vec<Named>,
    },
    /// The game stayed in the repertoire until it gave no move and the game's next move
    /// reached no position of it (after the move at `at`; ply 0 of the record when that is the
    /// start position).
    Ended { at: At },
    /// The game ended (after its move at `at`) with every move in the repertoire.
    Followed { at: At },
}

impl RepertoireFit {
    pub fn word(&self) -> &'static str {
        match self {
            RepertoireFit::Outside { .. } => "outside",
            RepertoireFit::Left { .. } => "left",
            RepertoireFit::Ended { .. } => "ended",
            RepertoireFit::Followed { .. } => "followed",
        }
    }
}

/// One game checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    pub game: GameInfo,
    /// The player's colour in it.
    pub side: Color,
    pub outcome: RepertoireFit,
    /// The first move the repertoire does not give from the position it was played in but
    /// whose position a line of the repertoire reaches (the game came back in by transposition).
    pub transposed: Option<At>,
}

/// An opponent's reply the repertoire does not answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gap {
    /// The moves to the position the reply was played in, in Japanese (from the first game
    /// that played it; `(開始局面 the start)` when none).
    pub line: String,
    /// That position's SFEN without the move number.
    pub position: String,
    pub reply: Named,
    /// Whether the reply is in the repertoire (a line gives it, or reaches its position) but
    /// the repertoire gives no answer after it; otherwise the reply left it.
    pub in_repertoire: bool,
    pub games: u64,
    /// The games that played it, at the reply (at most [`GAP_EXAMPLES`]).
    pub examples: Vec<At>,
}

/// The games a [`Gap`] lists at most.
pub const GAP_EXAMPLES: usize = 5;

/// The check of a player's games.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The player's games in the order of the index.
    pub games: Vec<Checked>,
    /// The unanswered replies played in `min_games` games or more, most played first.
    pub gaps: Vec<Gap>,
}

/// Where a game's walk through the repertoire stopped, before it is named.
enum Walk {
    Outside,
    Left { ply: usize, expected: Vec<Move> },
    Ended { ply: usize },
    Followed { ply: usize },
}

/// Checks the games `filter` picks that `who` played against `rep`; `min_games`: how many
/// games an unanswered reply needs to be listed in [`Check::gaps`].
pub fn check(
    idx: &Index,
    filter: &Filter,
    who: &Me,
    rep: &dyn Repertoire,
    min_games: u64,
) -> Result<Check, String> {
    let mut mine: HashMap<u32, (GameInfo, Color)> = HashMap::new();
    let mut order: Vec<u32> = Vec::new();
    idx.in_snapshot(|idx| {
        idx.games_each(filter, &mut |g| {
            if let Some(side) = side_of(&g, who) {
                order.push(g.id);
                mine.insert(g.id, (g, side));
            }
            Ok(())
        })?;
        let mut out: HashMap<u32, Checked> = HashMap::with_capacity(mine.len());
        let mut gaps: HashMap<(String, Move), Gap> = HashMap::new();
        idx.each_main_line(filter, &mut |id, initial, codes| {
            let Some((g, side)) = mine.remove(&id) else {
                return Ok(());
            };
            let start = match initial {
                None => Position::startpos(),
                Some(s) => Position::from_sfen(s).map_err(|e| format!("{}: {e}", g.path))?,
            };
            let moves: Vec<Move> = GameView::codes(codes).map_while(decode_move).collect();
            let (walk, transposed) = walk(rep, &start, &moves)?;
            let checked = name(g, side, &start, &moves, walk, transposed, &mut gaps)?;
            out.insert(id, checked);
            Ok(())
        })?;
        let games = order.iter().filter_map(|id| out.remove(id)).collect();
        let mut gaps: Vec<Gap> = gaps
            .into_values()
            .filter(|g| g.games >= min_games)
            .collect();
        gaps.sort_by(|a, b| {
            b.games
                .cmp(&a.games)
                .then_with(|| a.line.cmp(&b.line))
                .then_with(|| a.reply.usi.cmp(&b.reply.usi))
        });
        Ok(Check { games, gaps })
    })
}

/// Follows `moves` from `start` through the repertoire: where the game stopped being in it,
/// and the first move that came back in by transposition (its ply, from 1).
fn walk(
    rep: &dyn Repertoire,
    start: &Position,
    moves: &[Move],
) -> Result<(Walk, Option<usize>), String> {
    let Some(mut here) = rep.moves(start)? else {
        return Ok((Walk::Outside, None));
    };
    let mut pos = start.clone();
    let mut transposed = None;
    for (i, &mv) in moves.iter().enumerate() {
        let listed = here.contains(&mv);
        let mut next = pos.clone();
        if next.play_unchecked(mv).is_none() {
            return Ok((Walk::Followed { ply: i }, transposed));
        }
        match rep.moves(&next)? {
            Some(after) => {
                if !listed && transposed.is_none() {
                    transposed = Some(i + 1);
                }
                here = after;
            }
            // A book gives a move whose position it does not store: the repertoire ends there.
            None if listed => here = Vec::new(),
            None if here.is_empty() => return Ok((Walk::Ended { ply: i }, transposed)),
            None => {
                return Ok((
                    Walk::Left {
                        ply: i + 1,
                        expected: here,
                    },
                    transposed,
                ));
            }
        }
        pos = next;
    }
    Ok((Walk::Followed { ply: moves.len() }, transposed))
}

/// A move in Japanese in `pos`, after a move to `prev`.
fn named(pos: &Position, mv: Move, prev: Option<Move>) -> Named {
    Named {
        usi: mv.usi(),
        ja: pos
            .move_data(mv)
            .map(|md| move_text(pos, &md, prev.map(|m| m.to())))
            .unwrap_or_else(|| mv.usi()),
    }
}

/// The [`Checked`] of a game's walk, adding its unanswered reply (if it ended on one) to `gaps`.
fn name(
    g: GameInfo,
    side: Color,
    start: &Position,
    moves: &[Move],
    walk: Walk,
    transposed: Option<usize>,
    gaps: &mut HashMap<(String, Move), Gap>,
) -> Result<Checked, String> {
    // The position before the move at `ply` (1-based) and the move before that one.
    let before = |ply: usize| {
        let mut pos = start.clone();
        for &m in &moves[..ply - 1] {
            pos.play_unchecked(m);
        }
        (pos, ply.checked_sub(2).map(|i| moves[i]))
    };
    let mut gap = |ply: usize, in_repertoire: bool| {
        let (pos, prev) = before(ply);
        let mv = moves[ply - 1];
        let e = gaps.entry((key(&pos), mv)).or_insert_with(|| Gap {
            line: if ply == 1 {
                "(開始局面 the start)".into()
            } else {
                line_text(start, &moves[..ply - 1], None)
            },
            position: key(&pos),
            reply: named(&pos, mv, prev),
            in_repertoire,
            games: 0,
            examples: Vec::new(),
        });
        e.games += 1;
        if e.examples.len() < GAP_EXAMPLES {
            e.examples.push(at(&g, ply as u32));
        }
    };
    let who = |ply: usize| {
        // The mover at `ply`: the start's side to move on odd plies.
        let mover = if ply % 2 == 1 {
            start.side_to_move()
        } else {
            start.side_to_move().flip()
        };
        if mover == side {
            Who::Player
        } else {
            Who::Opponent
        }
    };
    let outcome = match walk {
        Walk::Outside => RepertoireFit::Outside { at: at(&g, 0) },
        Walk::Left { ply, expected } => {
            let by = who(ply);
            if by == Who::Opponent {
                gap(ply, false);
            }
            let (pos, prev) = before(ply);
            RepertoireFit::Left {
                at: at(&g, ply as u32),
                by,
                played: named(&pos, moves[ply - 1], prev),
                expected: expected.into_iter().map(|m| named(&pos, m, prev)).collect(),
            }
        }
        Walk::Ended { ply } => {
            // The repertoire gives no answer to the opponent's last move.
            if ply > 0 && who(ply) == Who::Opponent {
                gap(ply, true);
            }
            RepertoireFit::Ended {
                at: at(&g, ply as u32),
            }
        }
        Walk::Followed { ply } => RepertoireFit::Followed {
            at: at(&g, ply as u32),
        },
    };
    Ok(Checked {
        transposed: transposed.map(|p| at(&g, p as u32)),
        game: g,
        side,
        outcome,
    })
}
