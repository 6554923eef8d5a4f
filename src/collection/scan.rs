//! Reading one file of a collection: its records, each turned into a catalog row, its stored
//! moves and its position keys.

use super::keys::{KeyWalker, encode_move, tree};
use super::segment::{StoredGame, StoredLine};
use super::{GameInfo, GameResult, tags};
use crate::analyze::{MarkConfig, main_line_evals, summary};
use crate::core::notation::{Format, filetype};
use crate::core::record::{NodeId, Record, Special};
use crate::core::rules::{Color, Position};
use std::path::Path;

/// One record, ready to be stored.
pub struct Game {
    /// `id` and `path` are filled in when stored.
    pub info: GameInfo,
    pub stored: StoredGame,
    /// Distinct keys of every position of its lines, sorted.
    pub keys: Vec<u64>,
}

/// What reading a file gave.
pub struct FileRead {
    pub size: i64,
    pub mtime_ns: i64,
    pub hash: String,
    /// The games, or why the file was skipped.
    pub games: Result<Vec<Game>, String>,
    pub format: Option<&'static str>,
    /// `FILE:LINE: message` lines.
    pub warnings: Vec<String>,
}

/// FNV-1a over 64-bit words (the tail byte by byte): a content hash for "did this file change".
pub fn content_hash(bytes: &[u8]) -> String {
    let h = super::segment::fnv64(FNV_SEED, bytes);
    format!("{h:016x}{:x}", bytes.len())
}

const FNV_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// [`content_hash`] over bytes that come in pieces (a file read record by record): the same
/// value as over them all at once.
pub struct ContentHash {
    h: u64,
    /// Bytes of a word not complete yet.
    carry: [u8; 8],
    carried: usize,
    len: u64,
}

impl Default for ContentHash {
    fn default() -> ContentHash {
        ContentHash {
            h: FNV_SEED,
            carry: [0; 8],
            carried: 0,
            len: 0,
        }
    }
}

impl ContentHash {
    pub fn update(&mut self, mut bytes: &[u8]) {
        use super::segment::fnv64;
        self.len += bytes.len() as u64;
        if self.carried > 0 {
            let take = (8 - self.carried).min(bytes.len());
            self.carry[self.carried..self.carried + take].copy_from_slice(&bytes[..take]);
            self.carried += take;
            bytes = &bytes[take..];
            if self.carried < 8 {
                return;
            }
            self.h = fnv64(self.h, &self.carry);
            self.carried = 0;
        }
        let whole = bytes.len() / 8 * 8;
        self.h = fnv64(self.h, &bytes[..whole]);
        let rest = &bytes[whole..];
        self.carry[..rest.len()].copy_from_slice(rest);
        self.carried = rest.len();
    }

    pub fn finish(self) -> String {
        let h = super::segment::fnv64(self.h, &self.carry[..self.carried]);
        format!("{h:016x}{:x}", self.len)
    }
}

/// Modification time in nanoseconds since the epoch (0 when the system does not say).
pub fn mtime_ns(m: &std::fs::Metadata) -> i64 {
    m.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i64)
}

/// Reads `path`, which had `size` and `mtime_ns` when the folder was walked. A file that changed
/// while being read is stored with size -1, so that the next run reads it again.
pub fn read_file(path: &Path, size: i64, mtime: i64, variations: bool) -> FileRead {
    let csa = filetype::for_path(path).is_some_and(|t| t.format == Format::Csa);
    if csa && size as u64 > crate::load::CSA_STREAM_OVER {
        return read_records_one_by_one(path, size, mtime, variations);
    }
    let mut out = FileRead {
        size,
        mtime_ns: mtime,
        hash: String::new(),
        games: Err(String::new()),
        format: None,
        warnings: Vec::new(),
    };
    let bytes = match crate::load::read_input(path) {
        Ok(b) => b,
        Err(e) => {
            out.games = Err(e);
            return out;
        }
    };
    let after = std::fs::metadata(path).map(|m| (m.len() as i64, mtime_ns(&m)));
    if bytes.len() as i64 != size || after.ok() != Some((size, mtime)) {
        out.size = -1;
    }
    out.hash = content_hash(&bytes);
    let loaded = match crate::load::read_records(&bytes, Some(path)) {
        Ok(l) => l,
        Err(why) => {
            out.games = Err(format!("{}: not a record: {why}", path.display()));
            return out;
        }
    };
    out.format = Some(loaded.format.name());
    let name = path.display().to_string();
    let mut games = Vec::with_capacity(loaded.records.len());
    for (i, parsed) in loaded.records.iter().enumerate() {
        out.warnings
            .extend(crate::convert::warning_lines(&name, parsed));
        games.push(game(&parsed.record, i as u32 + 1, variations));
    }
    out.games = Ok(games);
    out
}

/// Reads a CSA file of many records (a Floodgate-style archive, up to GBs) one record at a
/// time: memory in proportion to the largest record, not the file, and no limit on the file's
/// size but on each record's (`load::size_limit`). Gives what [`read_file`] gives for the
/// file read whole: the same records, numbered the same (a piece between two `/` lines that
/// holds no record goes with the next), warnings with the file's line numbers, the same hash.
pub fn read_records_one_by_one(path: &Path, size: i64, mtime: i64, variations: bool) -> FileRead {
    let mut out = FileRead {
        size,
        mtime_ns: mtime,
        hash: String::new(),
        games: Err(String::new()),
        format: Some(Format::Csa.name()),
        warnings: Vec::new(),
    };
    let mut hash = ContentHash::default();
    let mut games = Vec::new();
    let read = crate::load::csa_pieces(
        path,
        |line| hash.update(line),
        |piece, first_line, content| {
            if content || games.is_empty() {
                take_records(piece, first_line, path, variations, &mut games, &mut out)?;
            }
            Ok(())
        },
    );
    if let Err(e) = read {
        out.games = Err(e);
        return out;
    }
    let after = std::fs::metadata(path).map(|m| (m.len() as i64, mtime_ns(&m)));
    if hash.len as i64 != size || after.ok() != Some((size, mtime)) {
        out.size = -1;
    }
    out.hash = hash.finish();
    out.games = Ok(games);
    out
}

/// The records of `piece`, which starts at line `first_line` of the file `path`, added to
/// `games` (numbered on from it) and their warnings to `out`.
fn take_records(
    piece: &[u8],
    first_line: usize,
    path: &Path,
    variations: bool,
    games: &mut Vec<Game>,
    out: &mut FileRead,
) -> Result<(), String> {
    let name = path.display().to_string();
    let loaded = crate::load::read_records(piece, Some(path))
        .map_err(|why| format!("{name}:{first_line}: not a record: {why}"))?;
    for mut parsed in loaded.records {
        for w in &mut parsed.warnings {
            if w.line > 0 {
                w.line += first_line - 1;
            }
        }
        out.warnings
            .extend(crate::convert::warning_lines(&name, &parsed));
        games.push(game(&parsed.record, games.len() as u32 + 1, variations));
    }
    Ok(())
}

/// The catalog row, stored moves and keys of one record: its tree stored once
/// ([`tree`]: each move in one line), and the keys of every position in it.
pub fn game(r: &Record, record: u32, variations: bool) -> Game {
    let lines = tree(r, variations);
    let mut keys = Vec::with_capacity(lines.iter().map(|l| l.nodes.len()).sum::<usize>() + 1);
    // The walker at each line's last node, for the lines that leave it (by node).
    let start = KeyWalker::new(&r.initial.position);
    keys.push(start.key());
    let mut at: std::collections::HashMap<NodeId, KeyWalker> = std::collections::HashMap::new();
    let mut coded = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let mut w = match line.nodes.first().and_then(|&n| r.node(n).parent) {
            Some(p) if i > 0 && p != NodeId::ROOT => match at.get(&p) {
                Some(w) => w.clone(),
                None => r
                    .path(p)
                    .iter()
                    .filter_map(|&n| r.node(n).move_data())
                    .fold(start.clone(), |mut w, m| {
                        w.play(m);
                        w
                    }),
            },
            _ => start.clone(),
        };
        let mut codes = Vec::with_capacity(line.nodes.len());
        for &id in &line.nodes {
            let m = r.node(id).move_data().expect("lines hold moves");
            w.play(m);
            keys.push(w.key());
            codes.push(encode_move(m.mv));
            if r.node(id).children.len() > 1 {
                at.insert(id, w.clone());
            }
        }
        coded.push(StoredLine {
            parent: line.parent,
            from: line.from,
            alt: line.alt,
            codes,
        });
    }
    keys.sort_unstable();
    keys.dedup();
    let initial = (!r.initial.position.same_placement(&Position::startpos()))
        .then(|| r.initial.position.to_sfen());
    let mut info = info(r, record, lines[0].nodes.len() as u32);
    info.moves_hash = moves_hash(initial.as_deref(), &coded[0].codes);
    Game {
        info,
        stored: StoredGame {
            initial,
            lines: coded,
        },
        keys,
    }
}

fn info(r: &Record, record: u32, moves: u32) -> GameInfo {
    let h = &r.header;
    let text = |k: &str| {
        h.get(k)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
    };
    let end = r.main_line().last().copied();
    let special = end.and_then(|id| r.node(id).special().map(|s| (id, s)));
    let (result, ending) = match special {
        Some((id, s)) => (outcome(s, r.side_to_move_at(id)), Some(s.json_name())),
        None => (GameResult::Unknown, None),
    };
    // Most collections have no comments: the evaluations are only looked for when there are.
    let commented = r
        .main_line()
        .iter()
        .any(|&id| !r.node(id).comment.is_empty());
    let evals = if commented {
        main_line_evals(r)
    } else {
        Vec::new()
    };
    let sides = summary(r, &evals, &MarkConfig::default());
    GameInfo {
        id: 0,
        path: String::new(),
        record,
        sente: h.black_name().map(|s| s.trim().to_string()),
        gote: h.white_name().map(|s| s.trim().to_string()),
        date: ["開始日時", "終了日時", "対局日"]
            .iter()
            .find_map(|k| h.get(k).and_then(normal_date)),
        event: text("棋戦"),
        handicap: r.initial.handicap.map(|h| h.name.to_string()),
        result,
        ending,
        moves,
        first_move: r.moves_before() + 1,
        opening: text("戦型"),
        tags: tags::tags(r).into_iter().map(String::from).collect(),
        evaluated: evals.iter().filter(|e| e.eval.is_some()).count() as u32,
        marks: sides.map(|s| s.marks.map(|n| n as u32)),
        loss: sides.map(|s| s.average_loss),
        moves_hash: 0,
        comments: r.nodes.iter().filter(|n| !n.comment.is_empty()).count() as u32,
    }
}

/// The result for sente of a main line ending in `s` with `to_move` to move.
pub fn outcome(s: &Special, to_move: Color) -> GameResult {
    let side = |c: Color| match c {
        Color::Black => GameResult::Sente,
        Color::White => GameResult::Gote,
    };
    match s {
        Special::Resign | Special::Mate | Special::Timeout | Special::FoulLose => {
            side(to_move.flip())
        }
        Special::FoulWin | Special::EnteringKing => side(to_move),
        Special::RepetitionDraw | Special::Impass | Special::Draw => GameResult::Draw,
        _ => GameResult::Unknown,
    }
}

/// `YYYY-MM-DD` from a header date: `2024/01/02 10:00:00`, `2024/1/2(火)`, `2024年1月2日`,
/// `2024-01-02T…`; `None` without a year, month and day.
pub fn normal_date(s: &str) -> Option<String> {
    let mut nums = Vec::with_capacity(3);
    let mut cur: Option<u32> = None;
    for c in s.trim().chars() {
        match c.to_digit(10).or_else(|| {
            // full-width digits
            ('０'..='９').contains(&c).then(|| c as u32 - '０' as u32)
        }) {
            Some(d) => cur = Some(cur.unwrap_or(0).saturating_mul(10).saturating_add(d)),
            None => {
                if let Some(n) = cur.take() {
                    nums.push(n);
                    if nums.len() == 3 {
                        break;
                    }
                }
                if !matches!(c, '/' | '-' | '年' | '月' | '.' | ' ') {
                    break;
                }
            }
        }
    }
    if let Some(n) = cur
        && nums.len() < 3
    {
        nums.push(n);
    }
    match nums[..] {
        [y, m, d, ..]
            if (1000..=9999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d) =>
        {
            Some(format!("{y:04}-{m:02}-{d:02}"))
        }
        _ => None,
    }
}

/// The hash of a game's start (`initial`: its SFEN, `None` for the start position) and its
/// main line's move codes; 0 for a game without a move (never taken for a copy).
pub fn moves_hash(initial: Option<&str>, codes: &[u16]) -> i64 {
    if codes.is_empty() {
        return 0;
    }
    let mut bytes = Vec::with_capacity(codes.len() * 2 + 96);
    bytes.extend_from_slice(initial.unwrap_or("startpos").as_bytes());
    bytes.push(0);
    for c in codes {
        bytes.extend_from_slice(&c.to_le_bytes());
    }
    let h = super::segment::fnv64(0xcbf2_9ce4_8422_2325, &bytes) as i64;
    if h == 0 { 1 } else { h }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csa_file_read_record_by_record_gives_what_reading_it_whole_gives() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archive.csa");
        let rec = |who: &str, extra: &str| {
            format!("V2.2\nN+{who}\nN-相手\nPI\n+\n+7776FU\nT3\n-3334FU\nT5\n{extra}%TORYO\n")
        };
        // A blank piece and a comment-only piece between records, a bad move in the third
        // (a warning at line 35 of the file), text after the last `/`.
        let text = format!(
            "{}/\n/\n'only a comment\n/\n{}/\n{}/\n' trailing\n",
            rec("甲", ""),
            rec("乙", ""),
            rec("丙", "+9999FU\n")
        );
        std::fs::write(&path, &text).unwrap();
        let m = std::fs::metadata(&path).unwrap();
        let (size, mtime) = (m.len() as i64, mtime_ns(&m));
        let whole = read_file(&path, size, mtime, false);
        let streamed = read_records_one_by_one(&path, size, mtime, false);
        assert_eq!(streamed.hash, whole.hash);
        assert_eq!(streamed.hash, content_hash(text.as_bytes()));
        assert_eq!(streamed.size, size);
        assert_eq!(streamed.warnings, whole.warnings);
        assert!(
            whole.warnings.iter().any(|w| w.contains(":35:")),
            "{:?}",
            whole.warnings
        );
        let rows = |r: &FileRead| -> Vec<_> {
            r.games
                .as_ref()
                .unwrap()
                .iter()
                .map(|g| {
                    (
                        g.info.record,
                        g.info.sente.clone(),
                        g.info.moves,
                        g.keys.clone(),
                    )
                })
                .collect()
        };
        assert_eq!(rows(&streamed), rows(&whole));
        assert_eq!(rows(&whole).len(), 3);
    }

    #[test]
    fn the_hash_of_bytes_in_pieces_is_the_hash_of_them_whole() {
        let bytes: Vec<u8> = (0..100u8).collect();
        for cut in [vec![], vec![3], vec![1, 2, 7, 8, 9, 50], vec![8, 16, 99]] {
            let mut h = ContentHash::default();
            let mut at = 0;
            for &c in &cut {
                h.update(&bytes[at..c]);
                at = c;
            }
            h.update(&bytes[at..]);
            assert_eq!(h.finish(), content_hash(&bytes), "{cut:?}");
        }
    }

    #[test]
    fn header_dates_are_normalised() {
        assert_eq!(
            normal_date("2024/01/02 10:00:00").as_deref(),
            Some("2024-01-02")
        );
        assert_eq!(
            normal_date("2024/1/2(火) 10:00").as_deref(),
            Some("2024-01-02")
        );
        assert_eq!(normal_date("2003年5月3日").as_deref(), Some("2003-05-03"));
        assert_eq!(
            normal_date("２０１０年１２月１日").as_deref(),
            Some("2010-12-01")
        );
        assert_eq!(
            normal_date("2018-08-25T23:56:00").as_deref(),
            Some("2018-08-25")
        );
        assert_eq!(normal_date("2018/13/01"), None);
        assert_eq!(normal_date("平成20年"), None);
        assert_eq!(normal_date(""), None);
    }

    #[test]
    fn analysed_records_fill_the_summary_columns() {
        let text = "手合割：平手\n先手：甲\n後手：乙\n開始日時：2024/01/02(火) 10:00\n棋戦：テスト\n\
                    手数----指手---------消費時間--\n*#評価値=30\n1 ７六歩(77)\n*#評価値=40\n\
                    2 ３四歩(33)\n*#評価値=900\n*【悪手】\n3 投了\n";
        let r = crate::core::notation::read_text(text, crate::core::notation::Format::Kif)
            .remove(0)
            .record;
        let g = game(&r, 1, false);
        let i = &g.info;
        assert_eq!(i.evaluated, 3);
        assert_eq!(i.marks[1], [0, 0, 1, 0], "gote's 悪手");
        assert_eq!(i.marks[0], [0; 4]);
        assert_eq!(i.result, GameResult::Gote, "sente to move resigned");
        assert_eq!(i.ending.as_deref(), Some("resign"));
        assert_eq!(i.date.as_deref(), Some("2024-01-02"));
        assert_eq!(i.event.as_deref(), Some("テスト"));
        assert_eq!((i.moves, i.first_move), (2, 1));
        assert_eq!(g.keys.len(), 3);
        assert!(g.stored.initial.is_none());
    }

    #[test]
    fn endings_give_results_for_the_right_side() {
        use Color::{Black, White};
        assert_eq!(outcome(&Special::Resign, White), GameResult::Sente);
        assert_eq!(outcome(&Special::Mate, Black), GameResult::Gote);
        assert_eq!(outcome(&Special::Timeout, Black), GameResult::Gote);
        assert_eq!(outcome(&Special::FoulLose, White), GameResult::Sente);
        assert_eq!(outcome(&Special::FoulWin, White), GameResult::Gote);
        assert_eq!(outcome(&Special::EnteringKing, Black), GameResult::Sente);
        assert_eq!(outcome(&Special::RepetitionDraw, Black), GameResult::Draw);
        assert_eq!(outcome(&Special::Impass, White), GameResult::Draw);
        assert_eq!(outcome(&Special::Draw, White), GameResult::Draw);
        assert_eq!(outcome(&Special::Interrupt, White), GameResult::Unknown);
        assert_eq!(outcome(&Special::MaxMoves, White), GameResult::Unknown);
    }
}
