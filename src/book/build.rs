//! `kifview book build`: an opening book from the user's games, from record files or from the
//! collection's index.
//!
//! Every position of the games' main lines before a move numbered within the plies (`--plies
//! A-B`: the moves A to B from each record's start) gets each move played there, with its
//! **count = the games that played it there**: a game counts once per position, at the first
//! time it reaches it, as the explorer counts (`Index::explore`): for an index built without
//! `--variations`, a move's count is the explorer's count for it under the same filter. A
//! move's value and depth come from the analysis comment of the move played (kifview's and
//! ShogiHome's `#評価値`/`#詰み`, a game's `*評価値`, and `#深さ`: see
//! `analyze::evals::parse_comment`), turned into the mover's view (a mate is ±(32000 − its
//! plies), as YaneuraOu scores one); with several games evaluating the same move, the deepest
//! evaluation is kept (the first met of equal depth). A move no comment evaluates has value 0
//! and depth 0. `--min-games N` drops moves played by fewer than N games (and positions left
//! with none), `--side` keeps one side's moves (a repertoire).
//!
//! From the index it is one pass over the segments' stored games
//! (`Index::each_main_line`): no position is looked up; only the files of the games the
//! catalog says hold evaluations are read again, for their comments (a file changed since it
//! was indexed is named and its evaluations left out).
//!
//! Positions are identified by two independent 64-bit Zobrist keys of board, hands and side to
//! move, both followed move by move as the index follows its own: the index's key and one of
//! other parts (`KeyWalker::salted`). A collision of both is beyond any collection's size.

use crate::analyze::evals::parse_comment;
use crate::collection::keys::{KeyWalker, decode_move, tree};
use crate::collection::{Filter, Index};
use crate::core::record::Record;
use crate::core::rules::{Color, Move, Position};
use crate::engine::Score;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Whose moves a book keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    Sente,
    Gote,
    #[default]
    Both,
}

impl Side {
    fn keeps(self, mover: Color) -> bool {
        match self {
            Side::Sente => mover == Color::Black,
            Side::Gote => mover == Color::White,
            Side::Both => true,
        }
    }
}

/// What `book build` keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The first and last move, numbered from each record's start (1 is its first move).
    pub plies: (u32, u32),
    /// Moves played by fewer games are left out.
    pub min_games: u64,
    pub side: Side,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            plies: (1, u32::MAX),
            min_games: 1,
            side: Side::Both,
        }
    }
}

/// `A-B`, `A-` or `N` (just move N) for `--plies`.
pub fn parse_plies(s: &str) -> Result<(u32, u32), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{s}': expected A-B (move numbers, e.g. 1-40)"))
    };
    let (a, b) = match s.split_once('-') {
        Some((a, b)) if b.trim().is_empty() => (num(a)?, u32::MAX),
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(s)?, num(s)?),
    };
    if a == 0 || b < a {
        return Err(format!(
            "'{s}': moves are numbered from 1, and the range must not be empty"
        ));
    }
    Ok((a, b))
}

/// A move of a built position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltMove {
    /// USI.
    pub usi: Move,
    /// Games that played it there.
    pub count: u64,
    /// The mover's view, centipawns (`None` when no comment evaluates it: 0 in a format that
    /// must hold one).
    pub value: Option<i32>,
    /// The evaluation's depth (0 when none).
    pub depth: u32,
}

/// A position of a built book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltPosition {
    /// The SFEN without its move number: board, side to move, hands.
    pub sfen: String,
    /// The smallest SFEN move number at which a game reached it.
    pub ply: u32,
    /// Most played first, then the best value, then by USI. Most positions have one or two
    /// (held inline: no allocation of their own).
    pub moves: smallvec::SmallVec<[BuiltMove; 2]>,
}

/// A built book and what was met on the way.
#[derive(Clone, Debug, Default)]
pub struct Built {
    /// Sorted by SFEN (byte order).
    pub positions: Vec<BuiltPosition>,
    /// Games read.
    pub games: u64,
    /// Files that could not be read, moves that could not be replayed, files changed since
    /// they were indexed: one line each, naming the file.
    pub warnings: Vec<String>,
}

/// An evaluation of a move: the score after it (sente's view) and its depth.
pub type MoveEval = Option<(Score, u32)>;

struct MoveAcc {
    mv: Move,
    count: u64,
    /// (value in the mover's view, depth).
    eval: Option<(i32, u32)>,
}

struct PosAcc {
    sfen: Box<str>,
    ply: u32,
    /// The last game counted here: a game counts once per position.
    last_game: u64,
    moves: smallvec::SmallVec<[MoveAcc; 2]>,
}

/// Counts games move by move ([`Builder::add_game`]), then [`Builder::finish`].
pub struct Builder {
    opts: Options,
    index: HashMap<(u64, u64), u32>,
    positions: Vec<PosAcc>,
    games: u64,
    warnings: Vec<String>,
    /// A new position's key is written here first.
    sfen: String,
}

/// The second key of a position (with the index's): another salt of its parts.
const SECOND_KEY: u64 = 0x6b69_6676_6965_7721;

/// The value of a score for the side that just moved (YaneuraOu's mate scale).
pub fn mover_value(score: Score, mover: Color) -> i32 {
    let sente = match score {
        Score::Cp(cp) => cp.clamp(-31_000, 31_000),
        Score::Mate { plies, sente_wins } => {
            let v = 32_000 - plies.unwrap_or(0).min(999) as i32;
            if sente_wins { v } else { -v }
        }
    };
    if mover == Color::Black { sente } else { -sente }
}

/// The depth an analysis comment gives (`#深さ=N`, the last such line), 0 without one.
fn comment_depth(comment: &str) -> u32 {
    comment
        .lines()
        .filter_map(|l| l.trim_end().strip_prefix("#深さ="))
        .filter_map(|d| d.split('/').next()?.trim().parse().ok())
        .next_back()
        .unwrap_or(0)
}

/// The evaluation a move's comment holds, if any.
pub fn move_eval(comment: &str) -> MoveEval {
    let (eval, _) = parse_comment(comment);
    eval.map(|e| (e.score, comment_depth(comment)))
}

impl Builder {
    pub fn new(opts: Options) -> Builder {
        Builder {
            opts,
            index: HashMap::new(),
            positions: Vec::new(),
            games: 0,
            warnings: Vec::new(),
            sfen: String::with_capacity(256),
        }
    }

    pub fn warn(&mut self, line: String) {
        self.warnings.push(line);
    }

    /// One game's main line from `initial`: `moves[i]` is its move numbered i + 1 from the
    /// start, `evals[i]` what its comment says (shorter or empty when unknown). A move that
    /// cannot be played ends the line there (`Err` with its number, the moves before it
    /// counted).
    pub fn add_game(
        &mut self,
        initial: &Position,
        moves: &[Move],
        evals: &[MoveEval],
    ) -> Result<(), u32> {
        self.games += 1;
        let game = self.games;
        let (first, last) = self.opts.plies;
        let mut pos = initial.clone();
        // The index's key follows the moves (what each changes), as the index's own walk
        // does: computing it again from the board at every position was a fifth of a build.
        let mut walk = KeyWalker::new(initial);
        let mut walk2 = KeyWalker::salted(initial, SECOND_KEY);
        for (i, &mv) in moves.iter().enumerate() {
            let number = i as u32 + 1;
            if number > last {
                break;
            }
            let mover = pos.side_to_move();
            if number >= first && self.opts.side.keeps(mover) {
                let eval = evals
                    .get(i)
                    .copied()
                    .flatten()
                    .map(|(s, d)| (mover_value(s, mover), d));
                debug_assert_eq!(walk.key(), crate::collection::keys::position_key(&pos));
                self.count(&pos, (walk.key(), walk2.key()), game, mv, eval);
            }
            let Some(played) = pos.play_unchecked(mv) else {
                return Err(number);
            };
            let data = played.data(mv, mover);
            walk.play(&data);
            walk2.play(&data);
        }
        Ok(())
    }

    fn count(
        &mut self,
        pos: &Position,
        key: (u64, u64),
        game: u64,
        mv: Move,
        eval: Option<(i32, u32)>,
    ) {
        let ply = u32::from(pos.move_number());
        let at = *self.index.entry(key).or_insert_with(|| {
            self.sfen.clear();
            pos.push_sfen_key(&mut self.sfen);
            let sfen = self.sfen.as_str().into();
            self.positions.push(PosAcc {
                sfen,
                ply,
                last_game: 0,
                moves: smallvec::SmallVec::new(),
            });
            self.positions.len() as u32 - 1
        });
        let p = &mut self.positions[at as usize];
        if p.last_game == game {
            return; // reached again (a repetition): the first time counts
        }
        p.last_game = game;
        p.ply = p.ply.min(ply);
        let m = match p.moves.iter_mut().position(|m| m.mv == mv) {
            Some(i) => &mut p.moves[i],
            None => {
                p.moves.push(MoveAcc {
                    mv,
                    count: 0,
                    eval: None,
                });
                p.moves.last_mut().expect("pushed")
            }
        };
        m.count += 1;
        if let Some(e) = eval
            && m.eval.is_none_or(|old| e.1 > old.1)
        {
            m.eval = Some(e);
        }
    }

    /// The book: moves below `--min-games` and positions left empty dropped, sorted.
    pub fn finish(self) -> Built {
        let min = self.opts.min_games.max(1);
        drop(self.index); // not needed any more: its memory goes before the sort's
        let mut positions: Vec<BuiltPosition> = self
            .positions
            .into_iter()
            .filter_map(|p| {
                let mut moves: smallvec::SmallVec<[BuiltMove; 2]> = p
                    .moves
                    .into_iter()
                    .filter(|m| m.count >= min)
                    .map(|m| BuiltMove {
                        usi: m.mv,
                        count: m.count,
                        value: m.eval.map(|e| e.0),
                        depth: m.eval.map_or(0, |e| e.1),
                    })
                    .collect();
                moves.sort_by(|a, b| {
                    b.count
                        .cmp(&a.count)
                        .then(b.value.unwrap_or(0).cmp(&a.value.unwrap_or(0)))
                        .then_with(|| a.usi.usi_bytes().cmp(&b.usi.usi_bytes()))
                });
                (!moves.is_empty()).then(|| BuiltPosition {
                    sfen: p.sfen.into(),
                    ply: p.ply,
                    moves,
                })
            })
            .collect();
        positions.sort_unstable_by(|a, b| a.sfen.cmp(&b.sfen));
        Built {
            positions,
            games: self.games,
            warnings: self.warnings,
        }
    }
}

impl BuiltPosition {
    /// The position as the book model holds it: no reply, no comment.
    fn entry(&self) -> super::Entry {
        super::Entry {
            ply: self.ply,
            comment: None,
            moves: self
                .moves
                .iter()
                .map(|m| super::BookMove {
                    value: m.value,
                    depth: m.depth,
                    count: m.count,
                    ..super::BookMove::new(m.usi)
                })
                .collect(),
        }
    }
}

impl Built {
    /// The book model (`book::Book`): each position at its SFEN key and smallest ply, its
    /// moves in the order above, no reply, no comment.
    pub fn into_book(self) -> super::Book {
        let mut book = super::Book::new();
        for p in self.positions {
            let entry = p.entry();
            book.insert(p.sfen, entry);
        }
        book
    }

    /// Writes the book to a new file at `path` in `format` as `book::save_new` does (atomic,
    /// through `store::save_new`: a file already there stays unless `replace`). A YaneuraOu
    /// text book is written straight from the sorted positions, each freed once written, with
    /// no `Book` map and no copy of the file in memory: byte for byte what the `Book` path
    /// writes (`yaneuraou::write`, whose line writers it uses). The other formats are
    /// encoded from the positions through [`Lookup`](super::Lookup) (`.ybb` and Apery
    /// order them by their own keys, SBK is a message of the whole book), without the map
    /// too. Returns what the format cannot hold (nothing for the text).
    pub fn save_new(
        self,
        path: &Path,
        format: super::Format,
        replace: bool,
    ) -> super::Result<super::Losses> {
        if format != super::Format::YaneuraOu {
            return super::save_new(&self, path, format, replace);
        }
        let mut positions = self.positions;
        crate::store::save_new_with(
            path,
            crate::store::SaveOptions::default(),
            replace,
            &mut |f| write_text(std::mem::take(&mut positions), f),
        )?;
        Ok(super::Losses::default())
    }
}

/// Writes `positions` (sorted by SFEN) as a YaneuraOu text book: the header, then each
/// position's line and its moves' lines, a position with no moves left out (as
/// `yaneuraou::write` leaves it). Each position is freed once written; the lines go out in
/// blocks of about 1 MB.
fn write_text(positions: Vec<BuiltPosition>, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    use super::yaneuraou::{HEADER, push_move_line, push_position_line};
    const BLOCK: usize = 1 << 20;
    let mut buf = Vec::with_capacity(BLOCK + 4096);
    buf.extend_from_slice(HEADER.as_bytes());
    buf.push(b'\n');
    for p in positions {
        if p.moves.is_empty() {
            continue;
        }
        push_position_line(&mut buf, &p.sfen, p.ply);
        for m in &p.moves {
            push_move_line(&mut buf, m.usi, None, m.value, m.depth, m.count);
        }
        if buf.len() >= BLOCK {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

/// A built book answers lookups as the `Book` of it would (its positions are in key order).
impl super::Lookup for Built {
    fn entry(&self, key: &str) -> super::Result<Option<super::Entry>> {
        Ok(self
            .positions
            .binary_search_by(|p| p.sfen.as_str().cmp(key))
            .ok()
            .map(|i| self.positions[i].entry()))
    }
    fn len(&self) -> usize {
        self.positions.len()
    }
    fn visit(
        &self,
        f: &mut dyn FnMut(&str, super::Entry) -> super::Result<()>,
    ) -> super::Result<()> {
        for p in &self.positions {
            f(&p.sfen, p.entry())?;
        }
        Ok(())
    }
    fn in_key_order(&self) -> bool {
        true
    }
}

/// A record's main line: its moves and what their comments say.
fn main_line(record: &Record) -> (Vec<Move>, Vec<MoveEval>) {
    let line = tree(record, false).swap_remove(0).nodes;
    let mut moves = Vec::with_capacity(line.len());
    let mut evals = Vec::with_capacity(line.len());
    for id in line {
        let node = record.node(id);
        let Some(m) = node.move_data() else { break };
        moves.push(m.mv);
        evals.push(move_eval(&node.comment));
    }
    (moves, evals)
}

/// Files read per round (each round read on every core, then counted in order).
const FILES_PER_ROUND: usize = 256;

/// A book from record files (every record of each file, as the index reads them): `files`
/// as `convert::walk_inputs` found them, in that order.
pub fn from_files(files: &[PathBuf], opts: Options) -> Built {
    let mut b = Builder::new(opts);
    for round in files.chunks(FILES_PER_ROUND) {
        let read = crate::pool::map_in_order(round, |path| {
            crate::load::load_input(path).map(|loaded| {
                loaded
                    .records
                    .iter()
                    .map(|p| (p.record.initial.position.clone(), main_line(&p.record)))
                    .collect::<Vec<_>>()
            })
        });
        for (path, got) in round.iter().zip(read) {
            match got {
                Err(e) => b.warn(e),
                Ok(records) => {
                    for (i, (initial, (moves, evals))) in records.into_iter().enumerate() {
                        if let Err(n) = b.add_game(&initial, &moves, &evals) {
                            b.warn(unplayable(path, i + 1, n));
                        }
                    }
                }
            }
        }
    }
    b.finish()
}

fn unplayable(path: &Path, record: usize, number: u32) -> String {
    format!(
        "{} (record {record}): move {number} cannot be played; the moves after it are left out",
        path.display()
    )
}

/// A book from the games of the index passing `filter`: one pass over its stored main lines,
/// the evaluations read from the files of the games the catalog says hold some.
pub fn from_index(idx: &Index, filter: &Filter, opts: Options) -> Result<Built, String> {
    idx.in_snapshot(|idx| {
        let mut b = Builder::new(opts);
        let evals = indexed_evals(idx, filter, &mut b)?;
        idx.each_main_line(filter, &mut |id, initial, codes| {
            let initial = match initial {
                None => Position::startpos(),
                Some(s) => match Position::from_sfen(s) {
                    Ok(p) => p,
                    Err(e) => {
                        b.warn(format!("game {id} of the index: {e}; left out"));
                        return Ok(());
                    }
                },
            };
            let moves: Vec<Move> = codes
                .chunks_exact(2)
                .map_while(|c| decode_move(u16::from_le_bytes([c[0], c[1]])))
                .collect();
            let game_evals = match evals.get(&id) {
                Some((path, moves_then, e)) if *moves_then != moves => {
                    b.warn(format!(
                        "{path}: changed since it was indexed; its evaluations are left out \
                         (run `kifview index` on it)"
                    ));
                    &[][..]
                }
                Some((_, _, e)) => &e[..],
                None => &[][..],
            };
            if let Err(n) = b.add_game(&initial, &moves, game_evals) {
                b.warn(format!("game {id} of the index: move {n} cannot be played"));
            }
            Ok(())
        })?;
        Ok(b.finish())
    })
}

/// Per game id that the catalog says holds evaluations: its file, its main line as the file
/// holds it now, and its moves' evaluations (its files read on every core).
type Evals = HashMap<u32, (String, Vec<Move>, Vec<MoveEval>)>;

fn indexed_evals(idx: &Index, filter: &Filter, b: &mut Builder) -> Result<Evals, String> {
    let mut wanted: Vec<(u32, String, u32)> = Vec::new();
    idx.games_each(filter, &mut |g| {
        if g.evaluated > 0 {
            wanted.push((g.id, g.path, g.record));
        }
        Ok(())
    })?;
    let read = crate::pool::map_in_order(&wanted, |(_, path, record)| {
        let loaded = crate::load::load_input(Path::new(path))?;
        let parsed = crate::load::pick_record(&loaded, *record as usize, Path::new(path))?;
        Ok::<_, String>(main_line(&parsed.record))
    });
    let mut out = HashMap::new();
    for ((id, path, _), got) in wanted.into_iter().zip(read) {
        match got {
            Ok((moves, evals)) => {
                out.insert(id, (path, moves, evals));
            }
            Err(e) => b.warn(format!("{e}; its evaluations are left out")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::{Format, read_text};

    fn book(texts: &[&str], opts: Options) -> Built {
        let mut b = Builder::new(opts);
        for t in texts {
            let r = read_text(t, Format::Kif).remove(0).record;
            let (moves, evals) = main_line(&r);
            b.add_game(&r.initial.position, &moves, &evals).unwrap();
        }
        b.finish()
    }

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    const G1: &str = "手合割：平手\n1 ７六歩(77)\n*#評価値=40\n*#深さ=12\n2 ３四歩(33)\n*#評価値=30\n3 ２六歩(27)\n";
    const G2: &str =
        "手合割：平手\n1 ７六歩(77)\n*#評価値=55\n*#深さ=20\n2 ８四歩(83)\n*#評価値=-200\n";
    const G3: &str = "手合割：平手\n1 ２六歩(27)\n2 ３四歩(33)\n";

    #[test]
    fn counts_are_games_values_are_the_movers_and_the_deepest_evaluation_wins() {
        let b = book(&[G1, G2, G3], Options::default());
        assert_eq!(b.games, 3);
        let start = b.positions.iter().find(|p| p.sfen == START).unwrap();
        assert_eq!(start.ply, 1);
        let got: Vec<_> = start
            .moves
            .iter()
            .map(|m| (m.usi.usi(), m.count, m.value, m.depth))
            .collect();
        assert_eq!(
            got,
            [
                ("7g7f".into(), 2, Some(55), 20),
                ("2g2f".into(), 1, None, 0)
            ]
        );
        // After 7g7f, gote's moves: sente's +30 is gote's −30; −200 is gote's +200.
        let after = b
            .positions
            .iter()
            .find(|p| p.sfen.starts_with("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/"))
            .unwrap();
        assert_eq!(after.ply, 2);
        let got: Vec<_> = after.moves.iter().map(|m| (m.usi.usi(), m.value)).collect();
        assert_eq!(
            got,
            [("8c8d".into(), Some(200)), ("3c3d".into(), Some(-30))]
        );
    }

    #[test]
    fn plies_side_and_min_games_select_moves() {
        let opts = Options {
            plies: (2, 2),
            ..Options::default()
        };
        let b = book(&[G1, G2, G3], opts);
        assert!(b.positions.iter().all(|p| p.ply == 2), "{:?}", b.positions);
        assert_eq!(b.positions.len(), 2);
        let gote_only = book(
            &[G1, G2, G3],
            Options {
                side: Side::Gote,
                ..Options::default()
            },
        );
        assert!(gote_only.positions.iter().all(|p| p.sfen.contains(" w ")));
        let common = book(
            &[G1, G2, G3],
            Options {
                min_games: 2,
                ..Options::default()
            },
        );
        assert_eq!(common.positions.len(), 1);
        assert_eq!(common.positions[0].moves.len(), 1);
    }

    #[test]
    fn a_position_reached_twice_in_a_game_counts_its_first_move_once() {
        let rep =
            "手合割：平手\n1 ４八銀(39)\n2 ４二銀(31)\n3 ３九銀(48)\n4 ３一銀(42)\n5 ２六歩(27)\n";
        let b = book(&[rep], Options::default());
        let start = b.positions.iter().find(|p| p.sfen == START).unwrap();
        assert_eq!(start.moves.len(), 1);
        assert_eq!(
            (start.moves[0].usi.usi(), start.moves[0].count),
            ("3i4h".into(), 1)
        );
    }

    #[test]
    fn the_streamed_text_book_is_the_one_the_book_model_writes() {
        // Moves with and without values (negative ones too), a promotion, a drop, several
        // positions at several plies.
        const G4: &str = "手合割：平手\n1 ７六歩(77)\n*#評価値=-12\n*#深さ=3\n2 ３四歩(33)\n3 ２二角成(88)\n4 同　銀(31)\n5 ４五角打\n";
        let built = book(&[G1, G2, G3, G4, G1], Options::default());
        assert_eq!(built.positions.len(), 6, "{:?}", built.positions);
        let dir = tempfile::tempdir().unwrap();
        let (streamed, mapped) = (dir.path().join("s.db"), dir.path().join("m.db"));
        let book = built.clone().into_book();
        let losses = built
            .clone()
            .save_new(&streamed, super::super::Format::YaneuraOu, false);
        assert!(losses.unwrap().is_empty());
        super::super::save_new(&book, &mapped, super::super::Format::YaneuraOu, false).unwrap();
        let text = std::fs::read_to_string(&streamed).unwrap();
        assert_eq!(text, std::fs::read_to_string(&mapped).unwrap());
        for line in [
            "B*4e none none 0 1\n",
            "7g7f none 55 20 4\n",
            "8c8d none 200 0 1\n",
        ] {
            assert!(text.contains(line), "{line:?} in\n{text}");
        }
        // A file already there stays.
        let again = built
            .clone()
            .save_new(&streamed, super::super::Format::YaneuraOu, false);
        assert!(again.is_err());
        assert_eq!(std::fs::read_to_string(&streamed).unwrap(), text);
        // The other formats from the positions are what they are from the book model.
        for format in super::super::Format::ALL {
            let (a, b) = (
                super::super::encode(&built, format).unwrap(),
                super::super::encode(&book, format).unwrap(),
            );
            assert!(a.bytes == b.bytes && a.losses == b.losses, "{format:?}");
        }
    }

    #[test]
    fn mates_and_depths_read_from_comments() {
        assert_eq!(comment_depth("#評価値=3\n#深さ=12\n"), 12);
        assert_eq!(comment_depth("#深さ=12/20"), 12);
        assert_eq!(comment_depth("no depth"), 0);
        let m = Score::Mate {
            plies: Some(5),
            sente_wins: false,
        };
        assert_eq!(mover_value(m, Color::White), 31_995);
        assert_eq!(mover_value(m, Color::Black), -31_995);
    }

    #[test]
    fn plies_are_parsed_or_refused_with_the_form_expected() {
        assert_eq!(parse_plies("1-40"), Ok((1, 40)));
        assert_eq!(parse_plies("5-"), Ok((5, u32::MAX)));
        assert_eq!(parse_plies("7"), Ok((7, 7)));
        assert!(parse_plies("0-3").unwrap_err().contains("from 1"));
        assert!(parse_plies("9-3").is_err());
        assert!(parse_plies("x").unwrap_err().contains("A-B"));
    }
}
