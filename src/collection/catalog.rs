//! The catalog: files, games and segments in SQLite (`catalog.sqlite` in the index folder).
//! The schema is [`SCHEMA`], documented in the README for `sqlite3`, pandas or Datasette.

use super::{Brief, Field, Filter, GameInfo, GameResult, MeSide, MeTally, name_key, tags};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;

mod seal;
use seal::{functions, rows_sound};

/// The version of the index's layout: an index of another version is refused (and rebuilt by
/// `kifview index`).
pub const FORMAT: &str = "kifview-collection-7";

/// The prefix of every version's format: a catalog whose format starts so is kifview's (an
/// index made before the marker file, [`super::build::MARKER`], is recognised by it).
pub const FORMAT_PREFIX: &str = "kifview-collection-";

/// The catalog's file in the index folder.
pub const CATALOG: &str = "catalog.sqlite";

pub const SCHEMA: &str = "
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,      -- absolute
  size INTEGER NOT NULL,          -- bytes when read (-1: it changed while being read)
  mtime_ns INTEGER NOT NULL,
  hash TEXT NOT NULL,             -- FNV-1a 64 of the bytes, hex
  format TEXT,                    -- kif, ki2, csa, jkf (NULL when unreadable)
  records INTEGER NOT NULL,       -- records indexed from the file
  warnings INTEGER NOT NULL,      -- reader warnings
  error TEXT,                     -- why the file was skipped, or NULL
  dev INTEGER NOT NULL,           -- the file's identity when read (device, inode; as signed
  ino INTEGER NOT NULL,           -- 64-bit): another name of it found later is not a new game
  sum INTEGER NOT NULL DEFAULT 0  -- the row's other values hashed (0 until its commit)
);
CREATE INDEX files_identity ON files(ino, dev);
CREATE INDEX files_unsealed ON files(id) WHERE sum = 0;
CREATE TABLE segments(
  id INTEGER PRIMARY KEY,         -- pos-ID.bin and moves-ID.bin
  first_game INTEGER NOT NULL,
  games INTEGER NOT NULL,
  pairs INTEGER NOT NULL
);
CREATE TABLE games(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id),
  record INTEGER NOT NULL,        -- 1-based record in the file
  sente TEXT, gote TEXT,          -- 先手/後手 (下手/上手 in handicap games)
  date TEXT,                      -- YYYY-MM-DD from 開始日時 / $START_TIME (else 終了日時)
  event TEXT,                     -- 棋戦
  handicap TEXT,                  -- 手合割 name (平手, 香落ち, …); NULL for a custom position
  result TEXT NOT NULL,           -- sente, gote, draw, unknown
  ending TEXT,                    -- the main line's ending (resign, mate, timeout, …)
  moves INTEGER NOT NULL,         -- moves of the main line
  first_move INTEGER NOT NULL,    -- the record's number of its first move (1, or 81 after 手数＝80)
  opening TEXT,                   -- the header's 戦型
  tags TEXT NOT NULL,             -- strategy and castle tags, comma-separated
  evaluated INTEGER NOT NULL,     -- main-line positions with an evaluation in their comment
  sente_inaccuracies INTEGER NOT NULL, sente_dubious INTEGER NOT NULL,
  sente_mistakes INTEGER NOT NULL, sente_blunders INTEGER NOT NULL,
  gote_inaccuracies INTEGER NOT NULL, gote_dubious INTEGER NOT NULL,
  gote_mistakes INTEGER NOT NULL, gote_blunders INTEGER NOT NULL,
  sente_loss REAL, gote_loss REAL, -- mean win-% loss per judged move
  sente_key TEXT NOT NULL,        -- sente, gote and event as filters compare them: NFKC,
  gote_key TEXT NOT NULL,         -- lower case, no spaces ('' when absent)
  event_key TEXT NOT NULL,
  moves_hash INTEGER NOT NULL,    -- the start and the main line's moves hashed (0: no move)
  comments INTEGER NOT NULL,      -- nodes with a comment
  same_as INTEGER,                -- a copy of this game (same moves, players and date where
                                  -- both have them): NULL, or the id of the copy counted
  sum INTEGER NOT NULL DEFAULT 0  -- the row's other values hashed (0 until its commit)
);
CREATE INDEX games_file ON games(file_id);
CREATE INDEX games_unsealed ON games(id) WHERE sum = 0;
CREATE INDEX games_hash ON games(moves_hash);
CREATE TABLE owned(
  name TEXT PRIMARY KEY           -- a file this index writes or wrote that no segment names (the
                                  -- next segment's, a replaced one's): the only files it removes
);
CREATE VIEW game_list AS
  SELECT games.*, files.path AS path FROM games JOIN files ON files.id = games.file_id;
";

/// Games with their file's path, games in id order: a `LEFT JOIN` keeps `games` the outer loop
/// (SQLite does not reorder it), so rows come in id order without a sort, each path found by
/// the files' primary key; a game whose file row is missing (damage) is met by the checks of
/// [`rows_sound`], not silently left out.
const FROM: &str = "games LEFT JOIN files ON files.id = games.file_id";

/// A column of the game list ([`Catalog::page`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortBy {
    Date,
    Sente,
    Gote,
    Event,
    Result,
    Moves,
    Tags,
    Path,
    /// Index order (path and record order within one build).
    Id,
}

impl SortBy {
    fn column(self) -> &'static str {
        match self {
            SortBy::Date => "date",
            SortBy::Sente => "sente",
            SortBy::Gote => "gote",
            SortBy::Event => "event",
            SortBy::Result => "result",
            SortBy::Moves => "moves",
            SortBy::Tags => "tags",
            SortBy::Path => "files.path",
            SortBy::Id => "games.id",
        }
    }

    /// The `ORDER BY` of the list sorted by this column: every key in the same direction
    /// (a path's records follow it; ties in index order).
    fn order_by(self, descending: bool) -> String {
        let o = if descending { "DESC" } else { "ASC" };
        match self {
            SortBy::Path => format!("files.path {o}, record {o}"),
            SortBy::Id => format!("games.id {o}"),
            s => format!("{} {o}, games.id {o}", s.column()),
        }
    }
}

pub struct Catalog {
    pub db: Connection,
}

fn sql(e: rusqlite::Error) -> String {
    format!("catalog: {e}")
}

/// A file as the catalog remembers it.
pub struct KnownFile {
    pub id: i64,
    pub size: i64,
    pub mtime_ns: i64,
    pub hash: String,
}

impl Catalog {
    /// Creates an empty catalog at `path`.
    pub fn create(path: &Path) -> Result<Catalog, String> {
        let db = Connection::open(path).map_err(sql)?;
        functions(&db, path)?;
        // SQLite's defaults (a rollback journal, full sync): the catalog is one plain file
        // between updates, which a read-only connection opens anywhere (WAL would need its
        // `-shm` file, or a writable folder to make one).
        writer_settings(&db)?;
        db.execute_batch(SCHEMA).map_err(sql)?;
        pause_in_create();
        db.execute(
            "INSERT INTO meta(key, value) VALUES ('format', ?1), ('build', ?2)",
            [FORMAT, &new_build_id().to_string()],
        )
        .map_err(sql)?;
        let cat = Catalog { db };
        cat.seal()?;
        Ok(cat)
    }

    /// Opens an existing catalog, refusing one of another version; `check` runs SQLite's
    /// quick_check as well (a damaged file is an error).
    pub fn open(path: &Path, read_only: bool, check: bool) -> Result<Catalog, String> {
        use rusqlite::OpenFlags;
        // A reader opens the file for writing too when it may (SQLite falls back to reading
        // only on a read-only file or medium): an update killed in the middle of a transaction
        // leaves a hot journal, which only a connection that can write rolls back; a read-only
        // one fails with "attempt to write a readonly database" until the next update. It never
        // writes otherwise (`query_only`).
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let db = Connection::open_with_flags(path, flags).map_err(sql)?;
        functions(&db, path)?;
        if read_only {
            // Queries read the pages in place instead of copying them into SQLite's cache.
            db.execute_batch("PRAGMA mmap_size = 1073741824; PRAGMA query_only = ON")
                .map_err(sql)?;
            // A reader waits for an update's commit (the writer holds its lock for as long as
            // the commit's writes and syncs take).
            db.busy_timeout(std::time::Duration::from_secs(30))
                .map_err(sql)?;
        } else {
            writer_settings(&db)?;
        }
        let format: Option<String> = db
            .query_row("SELECT value FROM meta WHERE key = 'format'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sql)?;
        match format.as_deref() {
            Some(FORMAT) => {}
            Some(other) if other.starts_with(FORMAT_PREFIX) => {
                return Err(format!(
                    "the index is of another version ({other}, this kifview reads {FORMAT})"
                ));
            }
            Some(other) => {
                return Err(format!(
                    "not a kifview index (its catalog's format is {other:?})"
                ));
            }
            None => return Err("not a kifview index (no format in its catalog)".into()),
        }
        if check {
            let ok: String = db
                .query_row("PRAGMA quick_check", [], |r| r.get(0))
                .map_err(sql)?;
            if ok != "ok" {
                return Err(format!("the catalog is damaged ({ok})"));
            }
        }
        let cat = Catalog { db };
        cat.snapshot(|| cat.check_seal())?;
        Ok(cat)
    }

    /// Commits the transaction under way, sealed ([`Catalog::seal`]).
    pub fn commit(&self) -> Result<(), String> {
        self.seal()?;
        self.db.execute_batch("COMMIT").map_err(sql)
    }

    /// The catalog file's path, as SQLite has it.
    fn path(&self) -> String {
        self.db.path().unwrap_or("catalog.sqlite").to_string()
    }

    /// The catalog's build: a number drawn when the catalog file was made, so that a reader
    /// tells a rebuilt index (a new catalog file) from the one it opened, and `games.bin` is
    /// never taken for another catalog's.
    pub fn build(&self) -> Result<u64, String> {
        Ok(self
            .meta("build")?
            .and_then(|g| g.parse().ok())
            .unwrap_or(0))
    }

    /// Is every text of the catalog UTF-8 (SQLite does not check what it is given)? The first
    /// that is not, named.
    pub fn text_is_utf8(&self) -> Result<(), String> {
        let tables = [
            ("files", "path, hash, format, error"),
            (
                "games",
                "sente, gote, date, event, handicap, result, ending, opening, tags, sente_key, gote_key, event_key",
            ),
            ("meta", "key, value"),
        ];
        for (table, cols) in tables {
            let n = cols.split(", ").count();
            let mut st = self
                .db
                .prepare(&format!("SELECT rowid, {cols} FROM {table}"))
                .map_err(sql)?;
            let mut rows = st.query([]).map_err(sql)?;
            while let Some(r) = rows.next().map_err(sql)? {
                for i in 1..=n {
                    if let rusqlite::types::ValueRef::Text(b) = r.get_ref(i).map_err(sql)?
                        && simdutf8::basic::from_utf8(b).is_err()
                    {
                        let rowid: i64 = r.get(0).map_err(sql)?;
                        let col = cols.split(", ").nth(i - 1).unwrap_or("?");
                        return Err(format!(
                            "damaged (text that is not UTF-8: {table} row {rowid}, {col})"
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The files the index wrote that no segment names ([`SCHEMA`]'s `owned`).
    pub fn owned(&self) -> Result<Vec<String>, String> {
        let mut st = self
            .db
            .prepare("SELECT name FROM owned ORDER BY name")
            .map_err(sql)?;
        let rows = st.query_map([], |r| r.get(0)).map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// Names files the index writes (or wrote) so that it may remove them.
    pub fn own(&self, names: &[String]) -> Result<(), String> {
        for n in names {
            self.db
                .execute("INSERT OR IGNORE INTO owned(name) VALUES (?1)", [n])
                .map_err(sql)?;
        }
        Ok(())
    }

    pub fn disown_all(&self) -> Result<(), String> {
        self.db
            .execute("DELETE FROM owned", [])
            .map(|_| ())
            .map_err(sql)
    }

    pub fn meta(&self, key: &str) -> Result<Option<String>, String> {
        self.db
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(sql)
    }
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), String> {
        self.db
            .execute(
                "INSERT INTO meta(key, value) VALUES (?1, ?2)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [key, value],
            )
            .map(|_| ())
            .map_err(sql)
    }

    /// Every file the catalog knows under `root` (a file or a folder), by path.
    /// The paths (keys) of the files stored with the identity `id` (device, inode), but
    /// `except`.
    pub fn paths_of_file(&self, id: (u64, u64), except: &str) -> Result<Vec<String>, String> {
        let mut st = self
            .db
            .prepare_cached("SELECT path FROM files WHERE ino = ?1 AND dev = ?2 AND path != ?3")
            .map_err(sql)?;
        let rows = st
            .query_map(params![id.1 as i64, id.0 as i64, except], |r| r.get(0))
            .map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    pub fn files_under(
        &self,
        root: &str,
    ) -> Result<std::collections::HashMap<String, KnownFile>, String> {
        let mut st = self
            .db
            .prepare(
                "SELECT id, path, size, mtime_ns, hash FROM files
                 WHERE path = ?1 OR substr(path, 1, length(?2)) = ?2",
            )
            .map_err(sql)?;
        let folder = format!("{}/", root.trim_end_matches('/'));
        let rows = st
            .query_map([root, folder.as_str()], |r| {
                Ok((
                    r.get::<_, String>(1)?,
                    KnownFile {
                        id: r.get(0)?,
                        size: r.get(2)?,
                        mtime_ns: r.get(3)?,
                        hash: r.get(4)?,
                    },
                ))
            })
            .map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// The highest game id (0 when there is none).
    pub fn max_game(&self) -> Result<u32, String> {
        self.db
            .query_row("SELECT coalesce(max(id), 0) FROM games", [], |r| r.get(0))
            .map_err(sql)
    }

    pub fn segments(&self) -> Result<Vec<i64>, String> {
        let mut st = self
            .db
            .prepare("SELECT id FROM segments ORDER BY id")
            .map_err(sql)?;
        let rows = st.query_map([], |r| r.get(0)).map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// Each counted game's id and result (a copy of another game, `same_as`, is not counted:
    /// `games.bin` gives it no result, so position queries pass it by).
    pub fn results(&self) -> Result<Vec<(u32, GameResult)>, String> {
        let mut st = self
            .db
            .prepare(&format!(
                "SELECT games.id, result FROM {FROM} WHERE {} AND same_as IS NULL",
                rows_sound()
            ))
            .map_err(sql)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, u32>(0)?,
                    GameResult::parse(&r.get::<_, String>(1)?),
                ))
            })
            .map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// The ids of the games that pass `filter`, in id order.
    pub fn filtered_ids(&self, filter: &Filter) -> Result<Vec<u32>, String> {
        let (clause, args) = where_clause(filter);
        let mut st = self
            .db
            .prepare(&format!(
                "SELECT games.id FROM {FROM}{clause} ORDER BY games.id"
            ))
            .map_err(sql)?;
        let rows = st
            .query_map(rusqlite::params_from_iter(args.iter()), |r| r.get(0))
            .map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// Calls `each` with the catalog row of every game passing `filter` (with `ids`, sorted:
    /// of those games only), in id order, one row at a time: nothing is sorted or held, so
    /// memory stays the same for 10^2 or 10^6 games. Few ids are looked up one statement each:
    /// call it inside one read transaction (as [`super::Index`] does), or an update committing
    /// between two of them tears the answer.
    pub fn each_game(
        &self,
        filter: &Filter,
        ids: Option<&[u32]>,
        each: &mut dyn FnMut(GameInfo) -> Result<(), String>,
    ) -> Result<(), String> {
        let cols = format!("games.{}", GameInfo::COLUMNS);
        if let Some(ids) = ids.filter(|ids| ids.len() < 2000) {
            let mut st = self
                .db
                .prepare(&format!(
                    "SELECT {cols} FROM {FROM} WHERE games.id = ?1 AND {}",
                    rows_sound()
                ))
                .map_err(sql)?;
            for id in ids {
                match st
                    .query_row([id], GameInfo::from_row)
                    .optional()
                    .map_err(sql)?
                {
                    Some(g) => each(g)?,
                    None => return Err(self.missing(*id)),
                }
            }
            return Ok(());
        }
        let (clause, args) = where_clause(filter);
        let mut st = self
            .db
            .prepare(&format!(
                "SELECT {cols} FROM {FROM}{clause} ORDER BY games.id"
            ))
            .map_err(sql)?;
        let mut rows = st
            .query(rusqlite::params_from_iter(args.iter()))
            .map_err(sql)?;
        let mut wanted = ids.map(|ids| ids.iter().peekable());
        while let Some(row) = rows.next().map_err(sql)? {
            if let Some(w) = wanted.as_mut() {
                let id: u32 = row.get(0).map_err(sql)?;
                if let Some(&gone) = w.next_if(|&&x| x < id) {
                    return Err(self.missing(gone));
                }
                if w.next_if_eq(&&id).is_none() {
                    if w.peek().is_none() {
                        break;
                    }
                    continue;
                }
            }
            each(GameInfo::from_row(row).map_err(sql)?)?;
        }
        match wanted.and_then(|mut w| w.next().copied()) {
            Some(gone) => Err(self.missing(gone)),
            None => Ok(()),
        }
    }

    /// Calls `each` with the columns `find` prints of the games `ids` (sorted), in id order,
    /// borrowed from SQLite's row: nothing allocated per game. Few ids are looked up one by
    /// one; many are read in one pass from the first.
    pub fn each_brief(
        &self,
        ids: &[u32],
        each: &mut dyn FnMut(&Brief) -> Result<(), String>,
    ) -> Result<(), String> {
        let cols = Brief::COLUMNS;
        let (Some(&first), Some(&last)) = (ids.first(), ids.last()) else {
            return Ok(());
        };
        let sound = rows_sound();
        if ids.len() < 2000 {
            let mut st = self
                .db
                .prepare(&format!(
                    "SELECT {cols} FROM {FROM} WHERE games.id = ?1 AND {sound}"
                ))
                .map_err(sql)?;
            for id in ids {
                let mut rows = st.query([id]).map_err(sql)?;
                match rows.next().map_err(sql)? {
                    Some(row) => each(&Brief::from_row(row).map_err(sql)?)?,
                    None => return Err(self.missing(*id)),
                }
            }
            return Ok(());
        }
        let mut st = self
            .db
            .prepare(&format!(
                "SELECT {cols} FROM {FROM} WHERE games.id BETWEEN ?1 AND ?2 AND {sound} \
                 ORDER BY games.id"
            ))
            .map_err(sql)?;
        let mut rows = st.query([first, last]).map_err(sql)?;
        let mut wanted = ids.iter().peekable();
        while let Some(row) = rows.next().map_err(sql)? {
            let id: u32 = row.get(0).map_err(sql)?;
            if let Some(&gone) = wanted.next_if(|&&x| x < id) {
                return Err(self.missing(gone));
            }
            if wanted.next_if_eq(&&id).is_some() {
                each(&Brief::from_row(row).map_err(sql)?)?;
            } else if wanted.peek().is_none() {
                break;
            }
        }
        match wanted.next() {
            Some(&gone) => Err(self.missing(gone)),
            None => Ok(()),
        }
    }

    /// One page of the games passing `filter`, sorted by `sort` (then by id), from `offset`.
    pub fn page(
        &self,
        filter: &Filter,
        sort: SortBy,
        descending: bool,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<GameInfo>, String> {
        let (clause, args) = where_clause(filter);
        let n = args.len();
        let mut st = self
            .db
            .prepare(&format!(
                "SELECT games.{} FROM {FROM}{clause} ORDER BY {} LIMIT ?{} OFFSET ?{}",
                GameInfo::COLUMNS,
                sort.order_by(descending),
                n + 1,
                n + 2
            ))
            .map_err(sql)?;
        let mut values: Vec<rusqlite::types::Value> = args.into_iter().map(Into::into).collect();
        values.push((limit.min(i64::MAX as u64) as i64).into());
        values.push((offset.min(i64::MAX as u64) as i64).into());
        let rows = st
            .query_map(rusqlite::params_from_iter(values), GameInfo::from_row)
            .map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// The ids of the games passing `filter`, in the order of `sort` (then of id): the
    /// viewer's game list holds these and scrolls through them without asking again.
    pub fn ordered_ids(
        &self,
        filter: &Filter,
        sort: SortBy,
        descending: bool,
    ) -> Result<Vec<u32>, String> {
        let (clause, args) = where_clause(filter);
        let mut st = self
            .db
            .prepare(&format!(
                "SELECT games.id FROM {FROM}{clause} ORDER BY {}",
                sort.order_by(descending)
            ))
            .map_err(sql)?;
        let rows = st
            .query_map(rusqlite::params_from_iter(args.iter()), |r| r.get(0))
            .map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// The catalog rows of the games `ids` (in any order; a game gone is left out), in id
    /// order: one query for a page of the game list.
    pub fn games_by_id(&self, ids: &[u32]) -> Result<Vec<GameInfo>, String> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let mut st = self
            .db
            .prepare(&format!(
                "SELECT games.{} FROM {FROM} WHERE games.id IN ({list}) AND {} ORDER BY games.id",
                GameInfo::COLUMNS,
                rows_sound()
            ))
            .map_err(sql)?;
        let rows = st.query_map([], GameInfo::from_row).map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// My games among those passing `filter` and how they went for me (`None` when nobody is
    /// "me": [`Filter::me_names`]): one grouped count on the catalog's name keys, my colour
    /// as [`super::Me::color`] says (sente when sente's name is mine), or as `me:sente` or
    /// `me:gote` says.
    pub fn me_tally(&self, filter: &Filter) -> Result<Option<MeTally>, String> {
        let Some(me) = filter.me_who() else {
            return Ok(None);
        };
        let side = filter.me.unwrap_or(MeSide::Either);
        let (clause, mut args) = where_clause(&Filter {
            me: Some(side),
            ..filter.clone()
        });
        let as_sente = match side {
            MeSide::Sente => "1".to_string(),
            MeSide::Gote => "0".to_string(),
            MeSide::Either => {
                let parts: Vec<String> = me
                    .keys()
                    .iter()
                    .map(|k| {
                        args.push(k.clone());
                        format!("instr(sente_key, ?{}) > 0", args.len())
                    })
                    .collect();
                format!("({})", parts.join(" OR "))
            }
        };
        let mut st = self
            .db
            .prepare(&format!(
                "SELECT result, {as_sente}, count(*) FROM {FROM}{clause} GROUP BY 1, 2"
            ))
            .map_err(sql)?;
        let mut rows = st
            .query(rusqlite::params_from_iter(args.iter()))
            .map_err(sql)?;
        let mut t = MeTally::default();
        while let Some(r) = rows.next().map_err(sql)? {
            let result = GameResult::parse(&r.get::<_, String>(0).map_err(sql)?);
            let color = match r.get::<_, i64>(1).map_err(sql)? {
                0 => super::MeColor::Gote,
                _ => super::MeColor::Sente,
            };
            let n: i64 = r.get(2).map_err(sql)?;
            t.add_many(color.result(result), n.max(0) as u64);
        }
        Ok(Some(t))
    }

    /// Every tag of the games passing `filter` with how many games have it: by count, then
    /// name.
    pub fn tag_counts(&self, filter: &Filter) -> Result<Vec<(String, u64)>, String> {
        let (clause, args) = where_clause(filter);
        let mut st = self
            .db
            .prepare(&format!("SELECT tags FROM {FROM}{clause}"))
            .map_err(sql)?;
        let mut rows = st
            .query(rusqlite::params_from_iter(args.iter()))
            .map_err(sql)?;
        let mut counts: std::collections::HashMap<String, u64> = Default::default();
        while let Some(r) = rows.next().map_err(sql)? {
            let tags: String = r.get(0).map_err(sql)?;
            for t in tags.split(',').filter(|t| !t.is_empty()) {
                *counts.entry(t.to_string()).or_default() += 1;
            }
        }
        let mut out: Vec<(String, u64)> = counts.into_iter().collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(out)
    }

    /// The games passing `filter` by result: (sente wins, gote wins, draws, unknown), one
    /// grouped count.
    pub fn result_counts(&self, filter: &Filter) -> Result<[u64; 4], String> {
        let (clause, args) = where_clause(filter);
        let mut st = self
            .db
            .prepare(&format!(
                "SELECT result, count(*) FROM {FROM}{clause} GROUP BY 1"
            ))
            .map_err(sql)?;
        let mut rows = st
            .query(rusqlite::params_from_iter(args.iter()))
            .map_err(sql)?;
        let mut out = [0u64; 4];
        while let Some(r) = rows.next().map_err(sql)? {
            let i = match GameResult::parse(&r.get::<_, String>(0).map_err(sql)?) {
                GameResult::Sente => 0,
                GameResult::Gote => 1,
                GameResult::Draw => 2,
                GameResult::Unknown => 3,
            };
            out[i] += r.get::<_, i64>(1).map_err(sql)?.max(0) as u64;
        }
        Ok(out)
    }

    /// How many games pass `filter`.
    pub fn count(&self, filter: &Filter) -> Result<u64, String> {
        let (clause, args) = where_clause(filter);
        self.db
            .query_row(
                &format!("SELECT count(*) FROM {FROM}{clause}"),
                rusqlite::params_from_iter(args.iter()),
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n as u64)
            .map_err(sql)
    }

    /// The ids of the catalog's games, in order.
    pub fn live_ids(&self) -> Result<Vec<u32>, String> {
        let mut st = self
            .db
            .prepare("SELECT id FROM games ORDER BY id")
            .map_err(sql)?;
        let rows = st.query_map([], |r| r.get(0)).map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// Gives every game the id `remap[old id]` (ids not in `remap` are kept; the new ids must
    /// be distinct), inside the caller's transaction.
    pub fn renumber(&self, remap: &[u32]) -> Result<(), String> {
        self.db
            .execute_batch(
                "CREATE TEMP TABLE IF NOT EXISTS remap(old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
                 DELETE FROM remap;",
            )
            .map_err(sql)?;
        {
            let mut st = self
                .db
                .prepare("INSERT INTO remap(old, new) VALUES (?1, ?2)")
                .map_err(sql)?;
            for (old, &new) in remap.iter().enumerate() {
                if new != 0 && new as usize != old {
                    st.execute([old as i64, new as i64]).map_err(sql)?;
                }
            }
        }
        // Through negative ids: no new id meets an old one on the way. The copies' `same_as`
        // follow their game.
        self.db
            .execute_batch(
                "UPDATE games SET same_as = (SELECT new FROM remap WHERE old = games.same_as),
                   sum = 0 WHERE same_as IN (SELECT old FROM remap);
                 UPDATE games SET id = -(SELECT new FROM remap WHERE old = games.id), sum = 0
                   WHERE id IN (SELECT old FROM remap);
                 UPDATE games SET id = -id WHERE id < 0;
                 DELETE FROM remap;",
            )
            .map_err(sql)
    }

    /// Replaces every segment by one (compaction), inside the caller's transaction.
    pub fn replace_segments(
        &self,
        id: i64,
        first_game: u32,
        games: u32,
        pairs: u64,
    ) -> Result<(), String> {
        self.db.execute("DELETE FROM segments", []).map_err(sql)?;
        self.add_segment(id, first_game, games, pairs)?;
        self.bump_generation()
    }

    /// Runs `f` inside one read transaction (or the one already open): every statement of an
    /// answer reads the same snapshot (an update's commit waits until it ends), so an answer
    /// made of several statements (a list's ids and its count, a query's hits and rows) is
    /// never torn between two states of the index.
    pub fn snapshot<T>(&self, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
        if !self.db.is_autocommit() {
            return f();
        }
        self.db.execute_batch("BEGIN").map_err(sql)?;
        let out = f();
        let _ = self.db.execute_batch("COMMIT");
        out
    }

    /// The catalog's generation: one more at every change of games or ids, written with
    /// `games.bin` so a `games.bin` left from before a change is recognised.
    pub fn generation(&self) -> Result<u64, String> {
        Ok(self
            .meta("generation")?
            .and_then(|g| g.parse().ok())
            .unwrap_or(0))
    }

    pub fn bump_generation(&self) -> Result<(), String> {
        let g = self.generation()? + 1;
        self.set_meta("generation", &g.to_string())
    }

    /// Forgets a file and its games.
    pub fn forget_file(&self, id: i64) -> Result<(), String> {
        self.db
            .execute("DELETE FROM games WHERE file_id = ?1", [id])
            .map_err(sql)?;
        self.db
            .execute("DELETE FROM files WHERE id = ?1", [id])
            .map_err(sql)?;
        Ok(())
    }

    pub fn touch_file(&self, id: i64, size: i64, mtime_ns: i64) -> Result<(), String> {
        self.db
            .execute(
                "UPDATE files SET size = ?2, mtime_ns = ?3, sum = 0 WHERE id = ?1",
                params![id, size, mtime_ns],
            )
            .map(|_| ())
            .map_err(sql)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn add_file(
        &self,
        path: &str,
        size: i64,
        mtime_ns: i64,
        hash: &str,
        format: Option<&str>,
        records: usize,
        warnings: usize,
        error: Option<&str>,
        identity: (u64, u64),
    ) -> Result<i64, String> {
        self.db
            .prepare_cached(
                "INSERT INTO files(path, size, mtime_ns, hash, format, records, warnings, error,
                                   dev, ino)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )
            .and_then(|mut st| {
                st.execute(params![
                    path,
                    size,
                    mtime_ns,
                    hash,
                    format,
                    records as i64,
                    warnings as i64,
                    error,
                    identity.0 as i64,
                    identity.1 as i64
                ])
            })
            .map_err(sql)?;
        Ok(self.db.last_insert_rowid())
    }

    pub fn add_game(&self, id: u32, file_id: i64, g: &GameInfo) -> Result<(), String> {
        let key = |t: &Option<String>| t.as_deref().map(name_key).unwrap_or_default();
        let mut st = self
            .db
            .prepare_cached(
                "INSERT INTO games(id, file_id, record, sente, gote, date, event, handicap,
                   result, ending, moves, first_move, opening, tags, evaluated,
                   sente_inaccuracies, sente_dubious, sente_mistakes, sente_blunders,
                   gote_inaccuracies, gote_dubious, gote_mistakes, gote_blunders,
                   sente_loss, gote_loss, sente_key, gote_key, event_key, moves_hash, comments)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,
                   ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30)",
            )
            .map_err(sql)?;
        let m = &g.marks;
        st.execute(params![
            id,
            file_id,
            g.record,
            g.sente,
            g.gote,
            g.date,
            g.event,
            g.handicap,
            g.result.word(),
            g.ending,
            g.moves,
            g.first_move,
            g.opening,
            g.tags.join(","),
            g.evaluated,
            m[0][0],
            m[0][1],
            m[0][2],
            m[0][3],
            m[1][0],
            m[1][1],
            m[1][2],
            m[1][3],
            g.loss[0],
            g.loss[1],
            key(&g.sente),
            key(&g.gote),
            key(&g.event),
            g.moves_hash,
            g.comments,
        ])
        .map_err(sql)?;
        Ok(())
    }

    pub fn add_segment(
        &self,
        id: i64,
        first_game: u32,
        games: u32,
        pairs: u64,
    ) -> Result<(), String> {
        self.db
            .execute(
                "INSERT INTO segments(id, first_game, games, pairs) VALUES (?1, ?2, ?3, ?4)",
                params![id, first_game, games, pairs as i64],
            )
            .map(|_| ())
            .map_err(sql)
    }

    /// (live games, pairs stored in segments, games stored in segments).
    pub fn counts(&self) -> Result<(u64, u64, u64), String> {
        let live: i64 = self
            .db
            .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
            .map_err(sql)?;
        let (pairs, stored): (i64, i64) = self
            .db
            .query_row(
                "SELECT coalesce(sum(pairs), 0), coalesce(sum(games), 0) FROM segments",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(sql)?;
        Ok((live as u64, pairs as u64, stored as u64))
    }
}

/// What the updater's connection needs: a transaction's changes stay in memory until its
/// commit (no cache spill: a spill would take the write lock for the rest of the step, and
/// readers would wait that long), and a commit waits for readers to finish their answer.
fn writer_settings(db: &Connection) -> Result<(), String> {
    // (Left on for the test hook that makes a hot journal as spills did.)
    if pause_in_step_wanted().is_none() {
        db.execute_batch("PRAGMA cache_spill = OFF").map_err(sql)?;
    }
    db.busy_timeout(std::time::Duration::from_secs(600))
        .map_err(sql)
}

/// A number for a new catalog's build ([`Catalog::build`]): the clock and the process.
fn new_build_id() -> i64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut h = crate::collection::scan::content_hash(
        &[t.to_le_bytes(), u64::from(std::process::id()).to_le_bytes()].concat(),
    );
    h.truncate(15);
    i64::from_str_radix(&h, 16).unwrap_or(t as i64 & i64::MAX)
}

/// ` WHERE …` for a filter (empty without conditions) and its arguments. Names and events
/// are compared on their keys ([`name_key`]), which the catalog stores beside them: one
/// `instr` a row, as fast as on the text itself.
fn where_clause(f: &Filter) -> (String, Vec<String>) {
    // A copy of another game is counted once, as that game ([`super::duplicates`]).
    // Every row read checked first ([`rows_sound`]).
    let mut conds: Vec<String> = vec![rows_sound().into(), "same_as IS NULL".into()];
    let mut args: Vec<String> = Vec::new();
    let arg = |v: String, args: &mut Vec<String>| {
        args.push(v);
        format!("?{}", args.len())
    };
    // `column` contains one of `keys`.
    let any_in = |column: &str, keys: &[String], args: &mut Vec<String>| {
        let parts: Vec<String> = keys
            .iter()
            .map(|k| format!("instr({column}, {}) > 0", arg(k.clone(), args)))
            .collect();
        format!("({})", parts.join(" OR "))
    };
    for t in &f.terms {
        let cond = match t.field {
            Field::Tag => {
                let parts: Vec<String> = tags::family(&t.value)
                    .into_iter()
                    .map(|name| {
                        let a = arg(name, &mut args);
                        format!("instr(',' || tags || ',', ',' || {a} || ',') > 0 OR opening = {a}")
                    })
                    .collect();
                format!("coalesce({}, 0)", parts.join(" OR "))
            }
            field => {
                let key = [name_key(&t.value)];
                match field {
                    Field::Sente => any_in("sente_key", &key, &mut args),
                    Field::Gote => any_in("gote_key", &key, &mut args),
                    Field::Event => any_in("event_key", &key, &mut args),
                    _ => format!(
                        "({} OR {})",
                        any_in("sente_key", &key, &mut args),
                        any_in("gote_key", &key, &mut args)
                    ),
                }
            }
        };
        conds.push(if t.exclude {
            format!("NOT ({cond})")
        } else {
            cond
        });
    }
    if let Some(side) = f.me {
        // Nobody is "me": no game is mine ([`Filter::check_me`] says so before a query).
        let keys = f.me_who().map(|m| m.keys().to_vec()).unwrap_or_default();
        conds.push(if keys.is_empty() {
            "0".to_string()
        } else {
            match side {
                MeSide::Sente => any_in("sente_key", &keys, &mut args),
                MeSide::Gote => any_in("gote_key", &keys, &mut args),
                MeSide::Either => format!(
                    "({} OR {})",
                    any_in("sente_key", &keys, &mut args),
                    any_in("gote_key", &keys, &mut args)
                ),
            }
        });
    }
    let result = f.result.map(|r| r.word().to_string());
    let single = [
        (&f.from, "date >= {a}"),
        (&f.to, "substr(date, 1, length({a})) <= {a}"),
        // Not `result = ?`: SQLite would put the value in place of the column in every other
        // condition ("constant propagation"), the rows' checks too, which then fail.
        (&result, "+result = {a}"),
    ];
    for (value, sql) in single {
        if let Some(v) = value {
            let a = arg(v.clone(), &mut args);
            conds.push(sql.replace("{a}", &a));
        }
    }
    if let Some(u) = &f.under {
        let a = arg(u.clone(), &mut args);
        let b = arg(format!("{}/", u.trim_end_matches('/')), &mut args);
        conds.push(format!(
            "(path = {a} OR substr(path, 1, length({b})) = {b})"
        ));
    }
    (format!(" WHERE {}", conds.join(" AND ")), args)
}

/// The step a test asks an update to stop in (`KIFVIEW_TEST_PAUSE_IN_STEP`, debug builds only).
pub(crate) fn pause_in_step_wanted() -> Option<u64> {
    if !cfg!(debug_assertions) {
        return None;
    }
    std::env::var("KIFVIEW_TEST_PAUSE_IN_STEP")
        .ok()?
        .parse()
        .ok()
}

/// Debug builds, for a test to kill an update inside a catalog's creation (its tables made,
/// its format not yet written): `KIFVIEW_TEST_PAUSE_IN_CREATE=1` says so on stderr and waits
/// for ever.
fn pause_in_create() {
    if cfg!(debug_assertions) && std::env::var_os("KIFVIEW_TEST_PAUSE_IN_CREATE").is_some() {
        eprintln!("kifview: test pause in create");
        loop {
            std::thread::park();
        }
    }
}
