//! Opening books (定跡): the model, the formats and the lookup interface. Terminal-free; the
//! viewer's book pane and the CLI's `kifview book ...` use what this module gives.
//!
//! # The model
//!
//! A [`Book`] is held in memory and edited there: positions keyed by their SFEN **without the
//! ply** (board, side to move, hands, in the canonical form [`key_of`] writes, e.g.
//! `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -`), each an [`Entry`]: the ply
//! it was recorded at, an optional comment on the position, and an ordered list of
//! [`BookMove`]s (the order is the book's: kifview writes it back as it is; YaneuraOu sorts the
//! moves by count, then value, when it plays). A move holds the move itself ([`BookMove::usi`],
//! core's [`Move`]), the expected reply (`ponder`), the value in centipawns from the mover's
//! view (`None`: the book has none), the search depth, how many times it was played (`count`)
//! and a comment.
//!
//! # Looking a position up
//!
//! [`Lookup`] is the read-only interface every book answers, in memory ([`Book`]) or on disk
//! (opened with [`open`]): [`Lookup::moves`] (the moves stored for a key, in the book's order;
//! none when the position is not there), [`Lookup::entry`] (with the ply and the position's
//! comment), [`Lookup::len`] and [`Lookup::visit`] (every stored position in key order, for
//! `convert`, `merge` and `check`: not only those reachable from the start). Keys come from
//! [`key_of`] (a [`Position`]) or [`key`] (SFEN text, with or without `sfen ` and the ply, any
//! order of hands). The mirrored lookup (YaneuraOu's `FlippedBook`): [`flipped_key`] gives the
//! key of the position seen from the other side, and [`flip_move`] turns its moves back.
//!
//! ```no_run
//! use kifview::book::{self, Lookup};
//! use kifview::core::rules::Position;
//! let opened = book::open(std::path::Path::new("user_book1.db")).unwrap();
//! for mv in opened.book.moves(&book::key_of(&Position::startpos())).unwrap() {
//!     println!("{} {:?} {} {}", mv.usi, mv.value, mv.depth, mv.count);
//! }
//! ```
//!
//! # Formats
//!
//! - [`yaneuraou`]: YaneuraOu's 2016 text (`#YANEURAOU-DB2016 1.00`, `.db`): read sorted or not,
//!   with comments; written sorted by the `sfen` line's bytes (as YaneuraOu's `BookOnTheFly`
//!   binary search expects). Bad lines are named by number ([`Warning`]) and skipped; a
//!   position given twice is named and merged (the lower ply kept). It holds all of the model.
//! - [`ybb`]: YaneuraOu's binary book (`.ybb`): PackedSfen index ([`packed`]) and moves with
//!   values and depths; no counts, replies or notes.
//! - [`apery`]: Apery's `book.bin`: Zobrist keys (MT19937-64), moves, counts and values; its
//!   positions are found by walking from the start positions ([`Lookup::unreached`] counts the
//!   keys no walk finds).
//! - [`sbk`]: ShogiGUI's `.sbk` (protobuf): moves, counts and position notes.
//!
//! # Books built from games
//!
//! [`build`]: `kifview book build`, a book from the main lines of record files or of the
//! collection's index (counts, and values from analysis comments).
//!
//! [`encode`] returns the bytes and the [`Losses`] (what the format could not hold, counted);
//! [`decode`] a [`Read`] with its warnings. [`open`] answers lookups without loading a `.ybb`,
//! an Apery book or a text book of any size ([`onthefly`]: memory-mapped, binary search; an
//! unsorted text book through its sorted copy in the user's cache, [`cache`]); an SBK book is
//! read into memory. [`save_new_streamed`] writes a text, `.ybb` or Apery book of any size
//! through an external sort ([`extsort`]) without holding it.
//! Writing goes through [`save`] (atomic, through `store`, replacing the file: the viewer's
//! save of a book it opened) or [`save_new`] (`store::save_new`: never replaces a file unless
//! told, for `kifview book convert/merge -o` and `--force`).

pub mod apery;
pub mod build;
pub mod cache;
pub mod extsort;
pub mod onthefly;
pub mod overlay;
pub mod packed;
pub mod placement;
pub mod sbk;
pub mod yaneuraou;
pub mod ybb;

use crate::core::rules::{Color, Move, Piece, Position, Square};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One move of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (its USI text is `usi.usi()` or `usi.to_string()`).
    pub usi: Move,
    /// The expected reply, if the book names one.
    pub ponder: Option<Move>,
    /// The evaluation in centipawns from the side to move's view; `None` when the book has none.
    pub value: Option<i32>,
    /// The search depth the value came from (0: none).
    pub depth: u32,
    /// How many times the move was played (or chosen).
    pub count: u64,
    /// A note on the move (lines joined by `\n`; no other control characters).
    pub comment: Option<String>,
}

impl BookMove {
    /// A move with no value, depth 0, count 1, no reply and no comment.
    pub fn new(usi: Move) -> BookMove {
        BookMove {
            usi,
            ponder: None,
            value: None,
            depth: 0,
            count: 1,
            comment: None,
        }
    }
}

/// A book position: the ply it was recorded at, a note, and its moves in the book's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The move number of the SFEN it was stored with (the `ply` of `sfen ... ply`).
    pub ply: u32,
    /// A note on the position (lines joined by `\n`).
    pub comment: Option<String>,
    pub moves: Vec<BookMove>,
}

/// A problem found reading a book, named by line (text formats) or record (binary ones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// 1-based line (text) or record number (binary).
    pub line: u64,
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            0 => f.write_str(&self.message),
            n => write!(f, "line {n}: {}", self.message),
        }
    }
}

/// A book's bytes: mapped from its file (read as needed) or owned.
pub enum Data {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Data {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Data::Mapped(m) => m,
            Data::Owned(v) => v,
        }
    }
}

impl Data {
    /// Maps the file at `path` (an empty file is owned: it cannot be mapped).
    pub fn map(path: &Path) -> Result<Data> {
        let io = |source| BookError::Io {
            path: path.to_path_buf(),
            source,
        };
        // Opened without blocking: a FIFO's open for reading would wait for a writer (the
        // save's thread, opening the book it just wrote, or `:book open`, would hang there).
        let file = std::os::unix::fs::OpenOptionsExt::custom_flags(
            std::fs::OpenOptions::new().read(true),
            libc::O_NONBLOCK,
        )
        .open(path)
        .map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(BookError::format("not a regular file").at(path));
        }
        if meta.len() == 0 {
            return Ok(Data::Owned(Vec::new()));
        }
        // SAFETY: the map is read-only; a book changed by another program while it is open
        // gives wrong answers or errors, which every reader of the bytes checks for (bounds,
        // codes), never undefined behaviour in safe code beyond what memmap2 documents.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        Ok(Data::Mapped(map))
    }
}

/// Why a book could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The bytes are not a book of the format (named with where and what was expected).
    #[error("{}{message}", path.as_ref().map(|p| format!("{}: ", p.display())).unwrap_or_default())]
    Format {
        path: Option<PathBuf>,
        message: String,
    },
    /// A key that is not an SFEN position.
    #[error("not a position: {0}")]
    BadKey(String),
    #[error(transparent)]
    Save(#[from] crate::store::SaveError),
}

impl BookError {
    fn format(message: impl Into<String>) -> BookError {
        BookError::Format {
            path: None,
            message: message.into(),
        }
    }
    /// The same error, naming `path` when it names none yet.
    pub fn at(self, path: &Path) -> BookError {
        match self {
            BookError::Format {
                path: None,
                message,
            } => BookError::Format {
                path: Some(path.to_path_buf()),
                message,
            },
            e => e,
        }
    }
}

pub type Result<T> = std::result::Result<T, BookError>;

/// What a streamed writer calls for the positions it writes: `f` is given every position
/// once (as [`Lookup::visit`] gives them, in any order).
pub type Visitor<'a> = &'a mut dyn FnMut(&str, Entry) -> Result<()>;

/// A source of positions for the streamed writers: called once with the writer's visitor.
pub type PositionFeed<'a> = &'a mut dyn FnMut(Visitor<'_>) -> Result<()>;

/// The read-only interface of a book, in memory or on disk. Implementations are `Send + Sync`
/// so a pane can look up on a thread of its own.
pub trait Lookup: Send + Sync {
    /// The position stored under `key` (the SFEN without the ply, as [`key_of`] writes it).
    fn entry(&self, key: &str) -> Result<Option<Entry>>;
    /// The moves stored for `key` in the book's order; empty when the position is not there.
    fn moves(&self, key: &str) -> Result<Vec<BookMove>> {
        Ok(self.entry(key)?.map(|e| e.moves).unwrap_or_default())
    }
    /// How many positions the book holds.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Calls `f` with every stored position once (a [`Book`] and a text book in key order, a
    /// `.ybb` in its file's order, an Apery book as its walk finds them); stops at the first
    /// error `f` returns.
    fn visit(&self, f: &mut dyn FnMut(&str, Entry) -> Result<()>) -> Result<()>;
    /// How many stored positions the last [`Lookup::visit`] could not reach (an Apery book's
    /// keys that no walk from the start positions finds); 0 for the other formats.
    fn unreached(&self) -> u64 {
        0
    }
    /// Does [`Lookup::visit`] give the positions in key order (a text book's order)?
    fn in_key_order(&self) -> bool {
        false
    }
}

/// An opening book in memory, editable. Positions are kept in key order (the order a sorted
/// YaneuraOu file lists them in).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: BTreeMap<String, Entry>,
}

impl Book {
    pub fn new() -> Book {
        Book::default()
    }
    /// The entry under `key`, if any.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.get(key)
    }
    /// The entry under `key`, to edit.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Entry> {
        self.entries.get_mut(key)
    }
    /// The entry under `key`, made empty (ply `ply`) when missing.
    pub fn entry_mut(&mut self, key: &str, ply: u32) -> &mut Entry {
        self.entries
            .entry(key.to_string())
            .or_insert_with(|| Entry {
                ply,
                ..Entry::default()
            })
    }
    /// Stores `entry` under `key`, returning the entry it replaces.
    pub fn insert(&mut self, key: String, entry: Entry) -> Option<Entry> {
        self.entries.insert(key, entry)
    }
    /// Removes the position under `key`.
    pub fn remove(&mut self, key: &str) -> Option<Entry> {
        self.entries.remove(key)
    }
    /// Adds `mv` to the position `key` (made at `ply` when new): a move already there is
    /// replaced in its place, a new one goes last. Returns whether it was new.
    pub fn add_move(&mut self, key: &str, ply: u32, mv: BookMove) -> bool {
        let e = self.entry_mut(key, ply);
        match e.moves.iter_mut().find(|m| m.usi == mv.usi) {
            Some(old) => {
                *old = mv;
                false
            }
            None => {
                e.moves.push(mv);
                true
            }
        }
    }
    /// Every position, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.entries.iter().map(|(k, e)| (k.as_str(), e))
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// How many moves in all.
    pub fn move_count(&self) -> usize {
        self.entries.values().map(|e| e.moves.len()).sum()
    }
}

/// Every position, in key order, taken out of the book.
impl IntoIterator for Book {
    type Item = (String, Entry);
    type IntoIter = std::collections::btree_map::IntoIter<String, Entry>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl Lookup for Book {
    fn entry(&self, key: &str) -> Result<Option<Entry>> {
        Ok(self.entries.get(key).cloned())
    }
    fn len(&self) -> usize {
        self.entries.len()
    }
    fn visit(&self, f: &mut dyn FnMut(&str, Entry) -> Result<()>) -> Result<()> {
        for (k, e) in &self.entries {
            f(k, e.clone())?;
        }
        Ok(())
    }
    fn in_key_order(&self) -> bool {
        true
    }
}

/// The book key of `pos`: its SFEN without the move number.
pub fn key_of(pos: &Position) -> String {
    let mut s = pos.to_sfen();
    if let Some(i) = s.rfind(' ') {
        s.truncate(i);
    }
    s
}

/// The book key of an SFEN text (with or without the leading `sfen ` and the move number; hands
/// in any order), or why it is not a position.
pub fn key(sfen: &str) -> Result<String> {
    Position::from_sfen(sfen)
        .map(|p| key_of(&p))
        .map_err(|e| BookError::BadKey(e.0))
}

/// The position seen from the other side: the board turned round, the colours of the pieces and
/// of the hands swapped, the other side to move (YaneuraOu's `FlippedBook`). Its book moves
/// are this position's after [`flip_move`].
pub fn flip_position(pos: &Position) -> Position {
    let mut out = Position::empty();
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            out.set_piece(sq.flip(), Some(Piece::new(p.kind, p.color.flip())));
        }
    }
    for color in [Color::Black, Color::White] {
        for (kind, n) in pos.hand(color) {
            out.set_hand_count(color.flip(), kind, n);
        }
    }
    out.set_side_to_move(pos.side_to_move().flip());
    out.set_move_number(pos.move_number());
    out
}

/// The key of the flipped position ([`flip_position`]).
pub fn flipped_key(pos: &Position) -> String {
    key_of(&flip_position(pos))
}

/// A move turned round with the board (its squares point-mirrored).
pub fn flip_move(mv: Move) -> Move {
    match mv {
        Move::Normal { from, to, promote } => Move::Normal {
            from: from.flip(),
            to: to.flip(),
            promote,
        },
        Move::Drop { kind, to } => Move::Drop {
            kind,
            to: to.flip(),
        },
    }
}

/// The formats kifview reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// YaneuraOu's 2016 text (`.db`).
    YaneuraOu,
    /// YaneuraOu's binary book (`.ybb`).
    Ybb,
    /// Apery's book (`.bin`).
    Apery,
    /// ShogiGUI's book (`.sbk`).
    Sbk,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::YaneuraOu, Format::Ybb, Format::Apery, Format::Sbk];
    /// The format a file name's extension says (`.db`, `.ybb`, `.bin`), if any.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Format::ALL.into_iter().find(|f| f.extension() == ext)
    }
    /// The format named on the command line (`yaneuraou`, `ybb`, `apery`).
    pub fn from_name(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "yaneuraou" | "yane2016" | "db" => Some(Format::YaneuraOu),
            "ybb" => Some(Format::Ybb),
            "apery" | "bin" => Some(Format::Apery),
            "sbk" | "shogigui" => Some(Format::Sbk),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Format::YaneuraOu => "yaneuraou",
            Format::Ybb => "ybb",
            Format::Apery => "apery",
            Format::Sbk => "sbk",
        }
    }
    /// The file name extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::YaneuraOu => "db",
            Format::Ybb => "ybb",
            Format::Apery => "bin",
            Format::Sbk => "sbk",
        }
    }
}

/// A book read from bytes or a file, with what its reader could not read.
#[derive(Debug, Default)]
pub struct Read {
    pub book: Book,
    pub warnings: Vec<Warning>,
}

/// What a format could not hold of a book written in it: counts by kind, for the user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Losses {
    /// (what, how many), e.g. ("comments", 3); only kinds with a count above 0.
    pub items: Vec<(&'static str, u64)>,
}

impl Losses {
    pub fn add(&mut self, what: &'static str, n: u64) {
        if n == 0 {
            return;
        }
        match self.items.iter_mut().find(|(w, _)| *w == what) {
            Some((_, c)) => *c += n,
            None => self.items.push((what, n)),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// A book encoded in a format, and what the format could not hold.
#[derive(Debug)]
pub struct Encoded {
    pub bytes: Vec<u8>,
    pub losses: Losses,
}

/// Encodes `book` in `format`.
pub fn encode(book: &dyn Lookup, format: Format) -> Result<Encoded> {
    match format {
        Format::YaneuraOu => yaneuraou::write(book),
        Format::Ybb => ybb::write(book),
        Format::Apery => apery::write(book),
        Format::Sbk => sbk::write(book),
    }
}

/// Decodes `bytes` as a book of `format`.
pub fn decode(bytes: &[u8], format: Format) -> Result<Read> {
    match format {
        Format::YaneuraOu => yaneuraou::read(bytes),
        Format::Ybb => ybb::read(bytes),
        Format::Apery => apery::read(bytes),
        Format::Sbk => sbk::read(bytes),
    }
}

/// The format of a file: its first bytes when they say (a text book's header, a `.ybb`'s
/// magic), else its extension.
pub fn detect(path: &Path, head: &[u8]) -> Option<Format> {
    let t = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if t.starts_with(b"#YANEURAOU") || t.starts_with(b"sfen ") {
        return Some(Format::YaneuraOu);
    }
    if head.starts_with(ybb::MAGIC) {
        return Some(Format::Ybb);
    }
    Format::from_path(path)
}

const NOT_A_BOOK: &str =
    "not a book kifview knows (expected a YaneuraOu text book .db, a .ybb or an Apery .bin)";

/// Reads the whole book at `path` into memory (its format from the name, else the contents).
pub fn read_file(path: &Path) -> Result<Read> {
    let bytes = std::fs::read(path).map_err(|source| BookError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let format = detect(path, &bytes).ok_or_else(|| BookError::format(NOT_A_BOOK).at(path))?;
    decode(&bytes, format).map_err(|e| e.at(path))
}

/// A book opened for lookups.
pub struct Opened {
    pub book: Box<dyn Lookup>,
    pub format: Format,
    pub warnings: Vec<Warning>,
    /// Something to tell the user once (not a problem): an unsorted text book sorted into
    /// a copy the first time it is opened.
    pub note: Option<String>,
    /// The file's size in bytes.
    pub bytes: u64,
}

/// Opens the book at `path` for lookups without reading it: a `.ybb`, an Apery book and a
/// sorted text book are searched in place (memory-mapped, binary search: [`onthefly`]), at
/// any size; an unsorted text book is sorted once into a copy in the user's cache
/// ([`cache`]) and searched there (the `note` says so when the copy is made). An SBK book is
/// read into memory. A text book's lines that cannot be read are not named here (the
/// positions they hold are not found): `kifview book check` names them.
pub fn open(path: &Path) -> Result<Opened> {
    let data = Data::map(path)?;
    let format = detect(path, &data[..data.len().min(64)])
        .ok_or_else(|| BookError::format(NOT_A_BOOK).at(path))?;
    let mut note = None;
    let bytes = data.len() as u64;
    let (book, warnings): (Box<dyn Lookup>, Vec<Warning>) = match format {
        Format::Ybb => (
            Box::new(ybb::Ybb::new(data).map_err(|e| e.at(path))?),
            vec![],
        ),
        Format::Apery => (
            Box::new(apery::Apery::open(data).map_err(|e| e.at(path))?),
            vec![],
        ),
        Format::YaneuraOu => {
            let text = onthefly::TextBook::unchecked(data).map_err(|e| e.at(path))?;
            match text.unsearchable() {
                None => (Box::new(text), vec![]),
                Some(why) => match cache::sorted_copy(path, &text.data()[..]) {
                    Ok((copy, made)) => {
                        let sorted =
                            onthefly::TextBook::new(Data::map(&copy)?).map_err(|e| e.at(&copy))?;
                        if made {
                            note = Some(format!(
                                "{}: {why}: sorted once into {} (looked up there until the book changes)",
                                path.display(),
                                copy.display()
                            ));
                        }
                        (Box::new(sorted), vec![])
                    }
                    Err(e) => {
                        // No copy could be made: read whole (the answers stay right, the
                        // memory is the book's).
                        let mut read = decode(&text.data()[..], format).map_err(|e| e.at(path))?;
                        read.warnings.insert(
                            0,
                            Warning {
                                line: 0,
                                message: format!(
                                    "{why}; no sorted copy ({e}): read whole into memory (kifview book convert writes it sorted)"
                                ),
                            },
                        );
                        (Box::new(read.book), read.warnings)
                    }
                },
            }
        }
        Format::Sbk => {
            let read = decode(&data, format).map_err(|e| e.at(path))?;
            (Box::new(read.book), read.warnings)
        }
    };
    Ok(Opened {
        book,
        format,
        warnings,
        note,
        bytes,
    })
}

/// Writes `book` to `path` in `format`, atomically, replacing the file there (the viewer's save
/// of a book it opened or made). Returns what the format could not hold. The book is never
/// held whole: a text, `.ybb` or Apery book is streamed into the temporary copy that replaces
/// the file (`store::save_with`), the text straight from a book that visits its positions in
/// key order (a text book on disk with its edits over it, a book in memory), the others
/// through an external sort ([`extsort`]); an SBK book is encoded in memory.
pub fn save(book: &dyn Lookup, path: &Path, format: Format) -> Result<Losses> {
    save_watched(book, path, format, &SaveWatch::default())
}

/// What a save running on another thread shares with the thread that started it (the
/// viewer's): how far it is, and a flag that stops it.
#[derive(Debug, Default)]
pub struct SaveWatch {
    /// The positions the book holds (0 until the save has counted them).
    pub total: std::sync::atomic::AtomicU64,
    /// The positions read and written so far (a `.ybb` or Apery book, or an unsorted text
    /// one, is then sorted and written: [`extsort`]).
    pub done: std::sync::atomic::AtomicU64,
    /// Set: the save ends early with [`extsort::INTERRUPTED`], the file as it was and no
    /// temporary file left.
    pub stop: std::sync::atomic::AtomicBool,
}

/// [`save`], counting the positions into `watch` as they are written and stopping when its
/// flag is set.
pub fn save_watched(
    book: &dyn Lookup,
    path: &Path,
    format: Format,
    watch: &SaveWatch,
) -> Result<Losses> {
    use std::sync::atomic::Ordering::Relaxed;
    let dir = spill_dir(path);
    let mut failed = None;
    let mut losses = Losses::default();
    let stopped = || match watch.stop.load(Relaxed) {
        true => Err(BookError::format(extsort::INTERRUPTED)),
        false => Ok(()),
    };
    stopped()?;
    watch.total.store(book.len() as u64, Relaxed);
    let saved = crate::store::save_with(path, crate::store::SaveOptions::default(), &mut |f| {
        let r = write_to(
            &mut |v| {
                book.visit(&mut |k, e| {
                    stopped()?;
                    watch.done.fetch_add(1, Relaxed);
                    v(k, e)
                })
            },
            book.in_key_order(),
            f,
            format,
            &dir,
            Some(&watch.stop),
        );
        took(r, &mut losses, &mut failed)
    });
    if let Some(e) = failed {
        return Err(e);
    }
    saved?;
    Ok(losses)
}

/// Writes `book` to a new file at `path` in `format`: whatever is already there stays unless
/// `replace` (`--force`), see `store::save_new`. Returns what the format could not hold.
pub fn save_new(book: &dyn Lookup, path: &Path, format: Format, replace: bool) -> Result<Losses> {
    let enc = encode(book, format)?;
    crate::store::save_new(
        path,
        &enc.bytes,
        crate::store::SaveOptions::default(),
        replace,
    )?;
    Ok(enc.losses)
}

/// Where an external sort for the file at `path` spills its runs: beside it.
fn spill_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A writer's outcome as `store`'s fill takes it: the losses kept, an error kept for the
/// caller (the temporary copy is then removed).
fn took(
    r: Result<Losses>,
    losses: &mut Losses,
    failed: &mut Option<BookError>,
) -> std::io::Result<()> {
    match r {
        Ok(l) => {
            *losses = l;
            Ok(())
        }
        Err(e) => {
            *failed = Some(e);
            Err(std::io::Error::other("not written"))
        }
    }
}

/// Writes the positions `visit` gives to `f` in `format` without holding them (an SBK book
/// in memory): a text book straight when `in_key_order`, else through the external sort
/// spilling into `dir`, as `.ybb` and Apery always are.
fn write_to(
    visit: PositionFeed<'_>,
    in_key_order: bool,
    f: &mut std::fs::File,
    format: Format,
    dir: &Path,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<Losses> {
    let io = |source| BookError::Io {
        path: dir.to_path_buf(),
        source,
    };
    match format {
        Format::YaneuraOu if in_key_order => {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, &mut *f);
            let mut losses = Losses::default();
            let mut buf = Vec::new();
            std::io::Write::write_all(&mut w, yaneuraou::HEADER.as_bytes()).map_err(io)?;
            std::io::Write::write_all(&mut w, b"\n").map_err(io)?;
            visit(&mut |k, e| {
                buf.clear();
                yaneuraou::write_entry(&mut buf, k, &e, &mut losses);
                std::io::Write::write_all(&mut w, &buf).map_err(io)
            })?;
            std::io::Write::flush(&mut w).map_err(io)?;
            Ok(losses)
        }
        Format::YaneuraOu => {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, &mut *f);
            yaneuraou::write_sorted(visit, &mut w, dir, stop)
        }
        Format::Ybb => ybb::write_stream(visit, f, dir, stop),
        Format::Apery => {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, &mut *f);
            apery::write_stream(visit, &mut w, dir, stop)
        }
        Format::Sbk => {
            let mut all = Book::new();
            visit(&mut |k, e| {
                all.insert(k.to_string(), e);
                Ok(())
            })?;
            let enc = encode(&all, format)?;
            std::io::Write::write_all(f, &enc.bytes).map_err(io)?;
            Ok(enc.losses)
        }
    }
}

/// Writes the positions `visit` gives to a new file at `path` in `format` as [`save_new`]
/// does, without holding the book when the format is the YaneuraOu text, `.ybb` or Apery (an
/// external sort spilling beside `path`, [`extsort`]; an SBK book is encoded in memory). `stop`
/// (Ctrl-C) ends it early: nothing is written and no temporary file stays.
pub fn save_new_streamed(
    visit: PositionFeed<'_>,
    path: &Path,
    format: Format,
    replace: bool,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<Losses> {
    let dir = spill_dir(path);
    let mut failed = None;
    let mut losses = Losses::default();
    let saved = crate::store::save_new_with(
        path,
        crate::store::SaveOptions::default(),
        replace,
        &mut |f| {
            let r = write_to(visit, false, f, format, &dir, stop);
            took(r, &mut losses, &mut failed)
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    saved?;
    Ok(losses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_drops_the_ply_and_orders_the_hands() {
        assert_eq!(
            key("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").unwrap(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"
        );
        assert_eq!(
            key("4k4/9/9/9/9/9/9/9/4K4 b PR2p 5").unwrap(),
            "4k4/9/9/9/9/9/9/9/4K4 b RP2p"
        );
        assert!(matches!(key("nonsense"), Err(BookError::BadKey(_))));
    }

    #[test]
    fn the_flipped_start_position_is_the_start_with_gote_to_move() {
        let start = Position::startpos();
        assert_eq!(
            flipped_key(&start),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -"
        );
        let mv = Move::from_usi("7g7f").unwrap();
        assert_eq!(flip_move(mv).usi(), "3c3d");
        assert_eq!(flip_move(Move::from_usi("P*5e").unwrap()).usi(), "P*5e");
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b RP2p 1").unwrap();
        assert_eq!(flipped_key(&pos), "4k4/9/9/9/9/9/9/9/4K4 w 2Prp");
    }

    #[test]
    fn add_move_replaces_in_place_and_appends_new_moves() {
        let mut b = Book::new();
        let k = key_of(&Position::startpos());
        assert!(b.add_move(&k, 1, BookMove::new(Move::from_usi("7g7f").unwrap())));
        assert!(b.add_move(&k, 1, BookMove::new(Move::from_usi("2g2f").unwrap())));
        let mut again = BookMove::new(Move::from_usi("7g7f").unwrap());
        again.count = 5;
        assert!(!b.add_move(&k, 1, again));
        let moves = b.moves(&k).unwrap();
        assert_eq!(
            moves
                .iter()
                .map(|m| (m.usi.usi(), m.count))
                .collect::<Vec<_>>(),
            [("7g7f".to_string(), 5), ("2g2f".to_string(), 1)]
        );
        assert!(b.moves("9/9/9/9/9/9/9/9/9 b -").unwrap().is_empty());
    }
}
