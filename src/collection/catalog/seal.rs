//! The catalog's checksums: every row of `games` and `files` carries a hash of its values
//! (`sum`), and `meta.seal` one of the bookkeeping tables, written with each commit and checked
//! by every query that reads a row ([`rows_sound`]), at every opening ([`Catalog::check_seal`])
//! and by `kifview index --check` and each update ([`Catalog::damaged_rows`]). A value changed
//! inside `catalog.sqlite` that keeps SQLite's structure (which SQLite's own checks cannot
//! see) is refused, never answered from.

use super::{Catalog, sql};
use rusqlite::{Connection, OptionalExtension};
use std::path::Path;

/// The values of a `games` row its `sum` covers, in order: every column but `sum`.
const GAME_SUMMED: &str = "games.id, games.file_id, games.record, games.sente, games.gote, \
    games.date, games.event, games.handicap, games.result, games.ending, games.moves, \
    games.first_move, games.opening, games.tags, games.evaluated, games.sente_inaccuracies, \
    games.sente_dubious, games.sente_mistakes, games.sente_blunders, games.gote_inaccuracies, \
    games.gote_dubious, games.gote_mistakes, games.gote_blunders, games.sente_loss, \
    games.gote_loss, games.sente_key, games.gote_key, games.event_key, games.moves_hash, \
    games.comments, games.same_as";

/// The values of a `files` row its `sum` covers, in order: every column but `sum`.
const FILE_SUMMED: &str = "files.id, files.path, files.size, files.mtime_ns, files.hash, \
    files.format, files.records, files.warnings, files.error, files.dev, files.ino";

/// A condition true of a game row of [`FROM`](super::FROM) whose values (its own and its file's) match
/// their sums, and an error (the query refused, naming the catalog and `--repair`) for any
/// other: every query that reads games through [`FROM`](super::FROM) checks each row it reads, first (so a
/// changed value neither shows nor moves a game into or out of a filter's answer).
pub(super) fn rows_sound() -> &'static str {
    static S: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        format!(
            "kifview_sound('games', games.sum, {GAME_SUMMED}) \
             AND kifview_sound('files', files.sum, {FILE_SUMMED})"
        )
    })
}

impl Catalog {
    /// Seals the catalog's values before a commit (or after its creation), so that a value
    /// changed later (a flipped bit, an edit with `sqlite3`) is found instead of answered
    /// from: each row of `games` and `files` changed since the last seal (its `sum` 0: new
    /// rows, and every update of a row sets it so) gets the hash of its values, `meta` the
    /// number of rows of each, and `meta.seal` the hash of `meta`, `segments` and `owned`
    /// (a few rows: checked at every opening, [`Catalog::check_seal`]). A row's sum is checked
    /// by every query that reads the row ([`rows_sound`]), every row's by `kifview index
    /// --check` and each update ([`Catalog::damaged_rows`]). The cost is the rows changed,
    /// found by a partial index, and two counts.
    pub fn seal(&self) -> Result<(), String> {
        self.db
            .execute_batch(&format!(
                "UPDATE games SET sum = kifview_sum({GAME_SUMMED}) WHERE sum = 0;
                 UPDATE files SET sum = kifview_sum({FILE_SUMMED}) WHERE sum = 0;"
            ))
            .map_err(sql)?;
        for table in ["games", "files"] {
            let n: i64 = self
                .db
                .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
                .map_err(sql)?;
            self.set_meta(&format!("{table}_rows"), &n.to_string())?;
        }
        let seal = self.bookkeeping_sum()?;
        self.set_meta("seal", &seal.to_string())
    }

    /// The hash of `meta` (but its seal), `segments` and `owned`, every row in order.
    fn bookkeeping_sum(&self) -> Result<i64, String> {
        let mut sum = Sum::new();
        for q in [
            "SELECT key, value FROM meta WHERE key != 'seal' ORDER BY key",
            "SELECT id, first_game, games, pairs FROM segments ORDER BY id",
            "SELECT name FROM owned ORDER BY name",
        ] {
            let mut st = self.db.prepare_cached(q).map_err(sql)?;
            let n = st.column_count();
            let mut rows = st.query([]).map_err(sql)?;
            while let Some(r) = rows.next().map_err(sql)? {
                for i in 0..n {
                    sum.value(r.get_ref(i).map_err(sql)?);
                }
            }
            sum.value(rusqlite::types::ValueRef::Blob(b"end of table"));
        }
        Ok(sum.finish())
    }

    /// Do `meta`, `segments` and `owned` match their seal ([`Catalog::seal`])?
    pub fn check_seal(&self) -> Result<(), String> {
        let stored = self.meta("seal")?.and_then(|s| s.parse::<i64>().ok());
        if stored != Some(self.bookkeeping_sum()?) {
            return Err(format!(
                "{} is damaged (its meta, segments or owned tables do not match their \
                 checksum); `kifview index --repair` rebuilds it",
                self.path()
            ));
        }
        Ok(())
    }

    /// Every row of `games` and `files` checked against its sum, their numbers against the
    /// seal's, and each game's file: what is damaged, the first found (one pass over each
    /// table: `kifview index --check` and every update run it).
    pub fn damaged_rows(&self) -> Result<Option<String>, String> {
        for (table, summed) in [("games", GAME_SUMMED), ("files", FILE_SUMMED)] {
            let bad: Option<i64> = self
                .db
                .query_row(
                    &format!("SELECT id FROM {table} WHERE sum != kifview_sum({summed}) LIMIT 1"),
                    [],
                    |r| r.get(0),
                )
                .optional()
                .map_err(sql)?;
            if let Some(id) = bad {
                return Ok(Some(format!(
                    "{table} row {id} does not match its checksum"
                )));
            }
            let n: i64 = self
                .db
                .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
                .map_err(sql)?;
            let sealed = self.meta(&format!("{table}_rows"))?;
            if sealed.as_deref() != Some(n.to_string().as_str()) {
                return Ok(Some(format!(
                    "{table} has {n} rows, its seal says {}",
                    sealed.as_deref().unwrap_or("nothing")
                )));
            }
        }
        let orphan: Option<i64> = self
            .db
            .query_row(
                "SELECT id FROM games WHERE NOT EXISTS
                   (SELECT 1 FROM files WHERE files.id = games.file_id) LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(sql)?;
        Ok(orphan.map(|id| format!("games row {id} names a file the catalog does not hold")))
    }

    /// The error of a query whose positions (segments, `games.bin`, of the catalog's
    /// generation) name a game the catalog does not hold: damage (a row gone, an id changed).
    pub(super) fn missing(&self, id: u32) -> String {
        format!(
            "{} is damaged (game {id} of the index's positions has no row); \
             `kifview index --repair` rebuilds it",
            self.path()
        )
    }
}

/// A row's values hashed, eight bytes a step (each value's type, length and bytes; `h = (h ^
/// word) * K` with K odd is one-to-one in the word and in `h`, so a changed byte always
/// changes the sum); never 0, the sum of a row not sealed yet.
struct Sum(u64);

impl Sum {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    fn new() -> Sum {
        Sum(0xcbf2_9ce4_8422_2325)
    }
    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(Self::K).rotate_left(29);
    }
    fn bytes(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.word(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        let mut last = [0u8; 8];
        last[..words.remainder().len()].copy_from_slice(words.remainder());
        self.word(u64::from_le_bytes(last));
    }
    fn value(&mut self, v: rusqlite::types::ValueRef) {
        use rusqlite::types::ValueRef;
        match v {
            ValueRef::Null => self.word(0),
            ValueRef::Integer(i) => {
                self.word(1);
                self.word(i as u64);
            }
            ValueRef::Real(f) => {
                self.word(2);
                self.word(f.to_bits());
            }
            ValueRef::Text(t) | ValueRef::Blob(t) => {
                self.word(3 | (t.len() as u64) << 8);
                self.bytes(t);
            }
        }
    }
    fn finish(&self) -> i64 {
        if self.0 == 0 { 1 } else { self.0 as i64 }
    }
}

/// The catalog's SQL functions, on each connection: `kifview_sum(values…)`, a row's sum
/// ([`Catalog::seal`]), and `kifview_sound(table, sum, values…)`, 1 when the values match the
/// sum, else an error that refuses the query, naming the catalog (`path`), the row and
/// `kifview index --repair` ([`rows_sound`]).
pub(super) fn functions(db: &Connection, path: &Path) -> Result<(), String> {
    use rusqlite::functions::FunctionFlags;
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    let sum_of = |ctx: &rusqlite::functions::Context, from: usize| {
        let mut sum = Sum::new();
        for i in from..ctx.len() {
            sum.value(ctx.get_raw(i));
        }
        sum.finish()
    };
    db.create_scalar_function("kifview_sum", -1, flags, move |ctx| Ok(sum_of(ctx, 0)))
        .map_err(sql)?;
    let shown = path.display().to_string();
    db.create_scalar_function("kifview_sound", -1, flags, move |ctx| {
        let table = ctx.get_raw(0).as_str().unwrap_or("?").to_string();
        let damaged = |what: String| {
            rusqlite::Error::UserFunctionError(
                format!("{shown} is damaged ({what}); `kifview index --repair` rebuilds it").into(),
            )
        };
        match ctx.get_raw(1) {
            rusqlite::types::ValueRef::Integer(stored) if ctx.len() > 2 => {
                if stored == sum_of(ctx, 2) {
                    Ok(1)
                } else {
                    let id = ctx.get_raw(2).as_i64().unwrap_or(0);
                    Err(damaged(format!(
                        "{table} row {id} does not match its checksum"
                    )))
                }
            }
            _ => Err(damaged(format!("a game's row in {table} is missing"))),
        }
    })
    .map_err(sql)
}
