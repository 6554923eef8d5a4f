//! The attempt history and the schedule: one SQLite file in the user's data directory
//! (`training.sqlite` under `$KIFVIEW_DATA_DIR`, else the platform's data directory's
//! `kifview/`, which honours `$XDG_DATA_HOME`).
//!
//! - A **source** is where problems come from (a problem set's path); adding one registers
//!   its problems as new; removing one keeps its attempts but leaves it out of what is due.
//! - A **problem** is a source and a key (a set's problem: its position, [`set::position_key`]),
//!   with its FSRS card: stability, difficulty, state, due time. A problem can be suspended.
//! - An **attempt** is written, with the card it gives, in one transaction when its verdict is
//!   given: a kill loses nothing already answered.
//!
//! Scheduling is FSRS (the published algorithm and default weights, through the `rs-fsrs`
//! crate), in days, without the same-day learning steps: a right answer is rated Good, a
//! wrong one Again, so a wrong answer comes back sooner (the next day; a right first answer
//! after about three). Every time is given by the caller (`--now` makes the schedule testable).
//!
//! Two kifview processes at once: SQLite's locking, in WAL mode; a writer waits up to
//! [`BUSY_WAIT`] for the other, then says the history is busy.
//!
//! [`set::position_key`]: super::set::position_key

use chrono::{DateTime, TimeZone, Utc};
use rs_fsrs::{Card, FSRS, Parameters, Rating, State};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// FSRS with its default weights, in days only: without the same-day learning steps, which
/// bring a problem answered right back within ten minutes (a flash card's habit; a problem
/// solved is not worth asking again the same session). A right first answer waits about three
/// days, a wrong one a day; each later answer as FSRS's long-term schedule says.
fn scheduler() -> FSRS {
    FSRS::new(Parameters {
        enable_short_term: false,
        ..Parameters::default()
    })
}

/// How the history names a source file (a set, a tsume file, a drill's record or book): its
/// absolute path, links resolved when it exists.
pub fn source_name(p: &Path) -> String {
    std::fs::canonicalize(p)
        .or_else(|_| std::path::absolute(p))
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

/// How long a write waits for another kifview's before saying the history is busy.
pub const BUSY_WAIT: Duration = Duration::from_secs(10);

/// The history file's name in the data directory.
pub const FILE_NAME: &str = "training.sqlite";

/// The history file: `$KIFVIEW_DATA_DIR/training.sqlite`, else the platform data directory's
/// `kifview/training.sqlite` (`$XDG_DATA_HOME/kifview/…`, `~/.local/share/kifview/…`).
pub fn default_path() -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("KIFVIEW_DATA_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d).join(FILE_NAME));
    }
    directories::ProjectDirs::from("", "", "kifview")
        .map(|d| d.data_dir().join(FILE_NAME))
        .ok_or_else(|| "no home directory for the training history: set KIFVIEW_DATA_DIR".into())
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sources(
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    added_ms INTEGER NOT NULL,
    active INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS problems(
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id),
    key TEXT NOT NULL,
    suspended INTEGER NOT NULL DEFAULT 0,
    due_ms INTEGER,
    last_ms INTEGER,
    stability REAL NOT NULL DEFAULT 0,
    difficulty REAL NOT NULL DEFAULT 0,
    elapsed_days INTEGER NOT NULL DEFAULT 0,
    scheduled_days INTEGER NOT NULL DEFAULT 0,
    reps INTEGER NOT NULL DEFAULT 0,
    lapses INTEGER NOT NULL DEFAULT 0,
    state INTEGER NOT NULL DEFAULT 0,
    UNIQUE(source_id, key)
);
CREATE TABLE IF NOT EXISTS attempts(
    id INTEGER PRIMARY KEY,
    problem_id INTEGER NOT NULL REFERENCES problems(id),
    at_ms INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    millis INTEGER NOT NULL,
    answer TEXT
);
CREATE INDEX IF NOT EXISTS attempts_by_problem ON attempts(problem_id);
CREATE TABLE IF NOT EXISTS problem_tags(
    problem_id INTEGER NOT NULL REFERENCES problems(id),
    family TEXT NOT NULL,
    tag TEXT NOT NULL,
    PRIMARY KEY(problem_id, family, tag)
);
";

/// The history's format, in SQLite's `user_version`. 2 added `problem_tags`; a format-1 file
/// is brought up to 2 when it is opened (the table is made, nothing else changes).
const VERSION: i64 = 2;

/// One answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub at: DateTime<Utc>,
    pub correct: bool,
    /// Time taken.
    pub millis: u64,
    /// The move given (USI), if any.
    pub answer: Option<String>,
}

/// An open history.
pub struct History {
    db: Connection,
    path: PathBuf,
    /// How long a write waits for another's ([`BUSY_WAIT`] unless set).
    wait: Duration,
}

fn ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

fn time(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

impl History {
    /// Opens (creating it and its folder if needed) the history at `path`.
    pub fn open(path: &Path) -> Result<History, String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: cannot create the folder: {e}", dir.display()))?;
        }
        let db = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let h = History {
            db,
            path: path.to_path_buf(),
            wait: BUSY_WAIT,
        };
        h.db.busy_timeout(BUSY_WAIT).map_err(|e| h.err(e))?;
        // WAL: a reader never waits for a writer; one writer at a time, the other waits.
        h.db.pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| h.err(e))?;
        let version: i64 =
            h.db.query_row("PRAGMA user_version", [], |r| r.get(0))
                .map_err(|e| h.err(e))?;
        if version > VERSION {
            return Err(format!(
                "{}: a training history of a newer kifview (format {version}; this one reads {VERSION})",
                path.display()
            ));
        }
        h.db.execute_batch(&format!(
            "BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {VERSION}; COMMIT;"
        ))
        .map_err(|e| h.err(e))?;
        Ok(h)
    }

    /// Opens the history at [`default_path`].
    pub fn open_default() -> Result<History, String> {
        History::open(&default_path()?)
    }

    /// Waits `wait` (instead of [`BUSY_WAIT`]) for another kifview's write before saying the
    /// history is busy.
    pub fn set_busy_wait(&mut self, wait: Duration) -> Result<(), String> {
        self.db.busy_timeout(wait).map_err(|e| self.err(e))?;
        self.wait = wait;
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A message for the user: a busy database said as such.
    fn err(&self, e: rusqlite::Error) -> String {
        let busy = matches!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        );
        if busy {
            format!(
                "{}: the training history is busy: another kifview has been writing it for {:.1} s; try again",
                self.path.display(),
                self.wait.as_secs_f64()
            )
        } else {
            format!("{}: {e}", self.path.display())
        }
    }

    fn source_id(
        tx: &rusqlite::Transaction,
        source: &str,
        kind: &str,
        now: i64,
    ) -> rusqlite::Result<i64> {
        tx.execute(
            "INSERT INTO sources(source, kind, added_ms) VALUES (?1, ?2, ?3)
             ON CONFLICT(source) DO UPDATE SET active = 1",
            params![source, kind, now],
        )?;
        tx.query_row("SELECT id FROM sources WHERE source = ?1", [source], |r| {
            r.get(0)
        })
    }

    /// Adds (or adds back) a source with its problems' keys; returns how many problems were
    /// new to the history.
    pub fn add_source(
        &mut self,
        source: &str,
        kind: &str,
        keys: &[String],
        now: DateTime<Utc>,
    ) -> Result<usize, String> {
        let r = (|| {
            let tx = self
                .db
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let id = Self::source_id(&tx, source, kind, ms(now))?;
            let mut added = 0;
            for k in keys {
                added += tx.execute(
                    "INSERT OR IGNORE INTO problems(source_id, key) VALUES (?1, ?2)",
                    params![id, k],
                )?;
            }
            tx.commit()?;
            Ok(added)
        })();
        r.map_err(|e| self.err(e))
    }

    /// Leaves a source out of what is due and new (its attempts stay); false when the
    /// history does not know it.
    pub fn remove_source(&mut self, source: &str) -> Result<bool, String> {
        self.db
            .execute(
                "UPDATE sources SET active = 0 WHERE source = ?1 AND active = 1",
                [source],
            )
            .map(|n| n > 0)
            .map_err(|e| self.err(e))
    }

    /// Suspends a problem (or brings it back); false when the history does not know it.
    pub fn suspend(&mut self, source: &str, key: &str, suspended: bool) -> Result<bool, String> {
        self.db
            .execute(
                "UPDATE problems SET suspended = ?3
                 WHERE key = ?2 AND source_id = (SELECT id FROM sources WHERE source = ?1)",
                params![source, key, suspended],
            )
            .map(|n| n > 0)
            .map_err(|e| self.err(e))
    }

    /// Writes an attempt and the card it gives, in one transaction; the problem (and its
    /// source) are registered if the history did not know them. Returns when it is due next.
    pub fn record(
        &mut self,
        source: &str,
        kind: &str,
        key: &str,
        a: &Attempt,
    ) -> Result<DateTime<Utc>, String> {
        let r = (|| {
            let tx = self
                .db
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let sid = Self::source_id(&tx, source, kind, ms(a.at))?;
            tx.execute(
                "INSERT OR IGNORE INTO problems(source_id, key) VALUES (?1, ?2)",
                params![sid, key],
            )?;
            let (pid, card) = tx.query_row(
                "SELECT id, due_ms, last_ms, stability, difficulty, elapsed_days,
                        scheduled_days, reps, lapses, state
                 FROM problems WHERE source_id = ?1 AND key = ?2",
                params![sid, key],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        Card {
                            due: time(r.get::<_, Option<i64>>(1)?.unwrap_or(0)),
                            last_review: time(r.get::<_, Option<i64>>(2)?.unwrap_or(0)),
                            stability: r.get(3)?,
                            difficulty: r.get(4)?,
                            elapsed_days: r.get(5)?,
                            scheduled_days: r.get(6)?,
                            reps: r.get(7)?,
                            lapses: r.get(8)?,
                            state: state_of(r.get(9)?),
                        },
                    ))
                },
            )?;
            let rating = if a.correct {
                Rating::Good
            } else {
                Rating::Again
            };
            let next = scheduler().next(card, a.at, rating).card;
            tx.execute(
                "INSERT INTO attempts(problem_id, at_ms, correct, millis, answer)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    pid,
                    ms(a.at),
                    a.correct,
                    i64::try_from(a.millis).unwrap_or(i64::MAX),
                    a.answer
                ],
            )?;
            tx.execute(
                "UPDATE problems SET due_ms = ?2, last_ms = ?3, stability = ?4, difficulty = ?5,
                    elapsed_days = ?6, scheduled_days = ?7, reps = ?8, lapses = ?9, state = ?10
                 WHERE id = ?1",
                params![
                    pid,
                    ms(next.due),
                    ms(next.last_review),
                    next.stability,
                    next.difficulty,
                    next.elapsed_days,
                    next.scheduled_days,
                    next.reps,
                    next.lapses,
                    next.state as i64
                ],
            )?;
            tx.commit()?;
            Ok(next.due)
        })();
        r.map_err(|e| self.err(e))
    }

    /// When a problem is due next (None: never answered, or unknown).
    pub fn due_at(&self, source: &str, key: &str) -> Result<Option<DateTime<Utc>>, String> {
        self.db
            .query_row(
                "SELECT p.due_ms FROM problems p JOIN sources s ON s.id = p.source_id
                 WHERE s.source = ?1 AND p.key = ?2",
                params![source, key],
                |r| r.get::<_, Option<i64>>(0),
            )
            .optional()
            .map(|d| d.flatten().map(time))
            .map_err(|e| self.err(e))
    }

    /// The problems due at `now` (answered before, not suspended, of an active source),
    /// soonest first, as (source, key).
    pub fn due(&self, now: DateTime<Utc>) -> Result<Vec<(String, String)>, String> {
        let r = (|| {
            let mut st = self.db.prepare(
                "SELECT s.source, p.key FROM problems p JOIN sources s ON s.id = p.source_id
                 WHERE s.active = 1 AND p.suspended = 0 AND p.due_ms IS NOT NULL
                   AND p.due_ms <= ?1
                 ORDER BY p.due_ms, p.id",
            )?;
            st.query_map([ms(now)], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<Vec<_>>>()
        })();
        r.map_err(|e| self.err(e))
    }

    /// At most `limit` problems never answered (not suspended, of an active source), in the
    /// order they were added, as (source, key).
    pub fn new_problems(&self, limit: usize) -> Result<Vec<(String, String)>, String> {
        let r = (|| {
            let mut st = self.db.prepare(
                "SELECT s.source, p.key FROM problems p JOIN sources s ON s.id = p.source_id
                 WHERE s.active = 1 AND p.suspended = 0 AND p.due_ms IS NULL
                 ORDER BY p.id LIMIT ?1",
            )?;
            st.query_map([i64::try_from(limit).unwrap_or(i64::MAX)], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()
        })();
        r.map_err(|e| self.err(e))
    }

    /// The kind a source was added as (`next-move`, …), if the history knows it.
    pub fn kind_of(&self, source: &str) -> Result<Option<String>, String> {
        self.db
            .query_row(
                "SELECT kind FROM sources WHERE source = ?1",
                [source],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// SQLite's own check of the file: "ok" when sound.
    pub fn integrity(&self) -> Result<String, String> {
        self.db
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }
}

fn state_of(n: i64) -> State {
    match n {
        1 => State::Learning,
        2 => State::Review,
        3 => State::Relearning,
        _ => State::New,
    }
}

/// Reads a `--now`: RFC 3339 (`2026-12-01T09:00:00+09:00`), or a local date and time
/// (`2026-12-01`, `2026-12-01T09:00`, `2026-12-01 09:00:00`).
pub fn parse_now(text: &str) -> Result<DateTime<Utc>, String> {
    let t = text.trim();
    if let Ok(d) = DateTime::parse_from_rfc3339(t) {
        return Ok(d.with_timezone(&Utc));
    }
    let naive = [
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M",
    ]
    .iter()
    .find_map(|f| chrono::NaiveDateTime::parse_from_str(t, f).ok())
    .or_else(|| {
        chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.and_hms_opt(0, 0, 0))
    });
    let Some(n) = naive else {
        return Err(format!(
            "--now {text:?}: expected a date and time, e.g. 2026-12-01T09:00:00+09:00 or 2026-12-01"
        ));
    };
    chrono::Local
        .from_local_datetime(&n)
        .earliest()
        .map(|d| d.with_timezone(&Utc))
        .ok_or_else(|| format!("--now {text:?}: not a time that exists here"))
}

mod stats;
pub use stats::{DayStats, PHASES, SourceStats, Stats, Tag, TagFamily, TagStats, chart};

#[cfg(test)]
mod tests;
