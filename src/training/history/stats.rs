//! What `kifview train stats` reports, read from the history in one transaction: attempts,
//! successes, average time, due and new problems, in all, per source and per tag, and the
//! success rate per day (the series, and [`chart`], its picture in text).
//!
//! A problem's tags ([`Tag`]) are set when its source is added ([`History::set_tags`]):
//! a tsume's length (`7手詰`), a next-move problem's game strategy (`四間飛車`, from
//! `collection::tags`) and its phase (`序盤`/`中盤`/`終盤`, by ply:
//! [`crate::training::tags::phase`]).

use super::{History, ms};
use chrono::{DateTime, Local, NaiveDate, Offset, TimeZone, Utc};
use rusqlite::{TransactionBehavior, params};
use serde::Serialize;

/// What a tag says of a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TagFamily {
    /// A tsume's length: `7手詰`.
    Length,
    /// The game's strategy (戦型): `四間飛車`, `角換わり`, …
    Strategy,
    /// Where in its game the position is: `序盤`, `中盤`, `終盤`.
    Phase,
}

impl TagFamily {
    /// The name stored in the history and written in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            TagFamily::Length => "length",
            TagFamily::Strategy => "strategy",
            TagFamily::Phase => "phase",
        }
    }

    fn parse(s: &str) -> Option<TagFamily> {
        [TagFamily::Length, TagFamily::Strategy, TagFamily::Phase]
            .into_iter()
            .find(|f| f.name() == s)
    }
}

/// The phases of a game and the last ply of each (the last has no end): the names a
/// [`TagFamily::Phase`] tag takes (`training::tags::phase` gives a problem its phase).
pub const PHASES: [(&str, u64); 3] = [("序盤", 30), ("中盤", 80), ("終盤", u64::MAX)];

/// One tag of a problem.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tag {
    pub family: TagFamily,
    pub name: String,
}

impl Tag {
    pub fn new(family: TagFamily, name: impl Into<String>) -> Tag {
        Tag {
            family,
            name: name.into(),
        }
    }
}

/// What `stats` reports. In the JSON, the keys (`attempts`, `correct`, `due`, `new`,
/// `sources`) first, then `avg_time_ms`, `tags` and `series`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub attempts: u64,
    pub correct: u64,
    /// Problems answered before whose time has come (suspended ones and removed sources'
    /// left out).
    pub due: u64,
    /// Problems never answered.
    pub new: u64,
    pub sources: Vec<SourceStats>,
    /// The average time an attempt took (null before any attempt).
    pub avg_time_ms: Option<u64>,
    /// Per tag: tsume lengths first (shortest first), then strategies (most attempted first),
    /// then phases (序盤, 中盤, 終盤).
    pub tags: Vec<TagStats>,
    /// Per local day with attempts, oldest first.
    pub series: Vec<DayStats>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SourceStats {
    pub source: String,
    pub attempts: u64,
    pub correct: u64,
    pub due: u64,
    pub new: u64,
    pub avg_time_ms: Option<u64>,
    /// The total time (for the averages).
    #[serde(skip)]
    pub millis: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TagStats {
    pub family: TagFamily,
    pub tag: String,
    pub attempts: u64,
    pub correct: u64,
    pub due: u64,
    pub new: u64,
    pub avg_time_ms: Option<u64>,
}

/// One day's attempts (the day in the local time zone as of `--now`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DayStats {
    /// `YYYY-MM-DD`.
    pub date: String,
    pub attempts: u64,
    pub correct: u64,
}

fn average(millis: u64, attempts: u64) -> Option<u64> {
    (attempts > 0).then(|| millis / attempts)
}

/// Each problem of an active source with its attempts, right answers and time, and whether
/// it is due (`?1`: now) or new.
const PER_PROBLEM: &str = "
WITH pa AS (
    SELECT p.id, p.source_id,
        (SELECT COUNT(*) FROM attempts a WHERE a.problem_id = p.id) AS n,
        (SELECT COUNT(*) FROM attempts a WHERE a.problem_id = p.id AND a.correct) AS c,
        (SELECT COALESCE(SUM(a.millis), 0) FROM attempts a WHERE a.problem_id = p.id) AS ms,
        (p.suspended = 0 AND p.due_ms IS NOT NULL AND p.due_ms <= ?1) AS due,
        (p.suspended = 0 AND p.due_ms IS NULL) AS new
    FROM problems p JOIN sources s ON s.id = p.source_id WHERE s.active = 1
)";

const DAY_MS: i64 = 86_400_000;

fn count(r: &rusqlite::Row, i: usize) -> rusqlite::Result<u64> {
    Ok(r.get::<_, Option<i64>>(i)?.unwrap_or(0).max(0) as u64)
}

impl History {
    /// Tags the problems of a source (registering those the history does not know): each
    /// key's tags replace what it had.
    pub fn set_tags(&mut self, source: &str, tags: &[(String, Vec<Tag>)]) -> Result<(), String> {
        let r = (|| {
            let tx = self
                .db
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let sid: Option<i64> = tx
                .query_row("SELECT id FROM sources WHERE source = ?1", [source], |r| {
                    r.get(0)
                })
                .ok();
            let Some(sid) = sid else {
                return Ok(false);
            };
            for (key, list) in tags {
                tx.execute(
                    "INSERT OR IGNORE INTO problems(source_id, key) VALUES (?1, ?2)",
                    params![sid, key],
                )?;
                let pid: i64 = tx.query_row(
                    "SELECT id FROM problems WHERE source_id = ?1 AND key = ?2",
                    params![sid, key],
                    |r| r.get(0),
                )?;
                tx.execute("DELETE FROM problem_tags WHERE problem_id = ?1", [pid])?;
                for t in list {
                    tx.execute(
                        "INSERT OR IGNORE INTO problem_tags(problem_id, family, tag)
                         VALUES (?1, ?2, ?3)",
                        params![pid, t.family.name(), t.name],
                    )?;
                }
            }
            tx.commit()?;
            Ok(true)
        })();
        match r.map_err(|e| self.err(e))? {
            true => Ok(()),
            false => Err(format!(
                "{source}: not a source of the training history: add it first"
            )),
        }
    }

    /// A problem's tags, in the order stored.
    pub fn tags(&self, source: &str, key: &str) -> Result<Vec<Tag>, String> {
        let r = (|| {
            let mut st = self.db.prepare(
                "SELECT t.family, t.tag FROM problem_tags t
                 JOIN problems p ON p.id = t.problem_id JOIN sources s ON s.id = p.source_id
                 WHERE s.source = ?1 AND p.key = ?2 ORDER BY t.rowid",
            )?;
            st.query_map(params![source, key], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()
        })();
        Ok(r.map_err(|e| self.err(e))?
            .into_iter()
            .filter_map(|(f, name)| Some(Tag::new(TagFamily::parse(&f)?, name)))
            .collect())
    }

    /// [`History::stats_in`] with the days of the local time zone as of `now`.
    pub fn stats(&self, now: DateTime<Utc>) -> Result<Stats, String> {
        let offset = Local
            .offset_from_utc_datetime(&now.naive_utc())
            .fix()
            .local_minus_utc();
        self.stats_in(now, offset)
    }

    /// Attempts, successes, due and new problems, in all, per source (active ones, by name)
    /// and per tag, as of `now`, and the series of days `utc_offset` seconds east of UTC.
    /// Read in one transaction: one consistent state.
    pub fn stats_in(&self, now: DateTime<Utc>, utc_offset: i32) -> Result<Stats, String> {
        let r = (|| {
            let tx = self.db.unchecked_transaction()?;
            let sources = tx
                .prepare(&format!(
                    "{PER_PROBLEM}
                     SELECT s.source, SUM(pa.n), SUM(pa.c), SUM(pa.due), SUM(pa.new), SUM(pa.ms)
                     FROM sources s LEFT JOIN pa ON pa.source_id = s.id
                     WHERE s.active = 1 GROUP BY s.id ORDER BY s.source"
                ))?
                .query_map([ms(now)], |r| {
                    let (attempts, millis) = (count(r, 1)?, count(r, 5)?);
                    Ok(SourceStats {
                        source: r.get(0)?,
                        attempts,
                        correct: count(r, 2)?,
                        due: count(r, 3)?,
                        new: count(r, 4)?,
                        avg_time_ms: average(millis, attempts),
                        millis,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let tags = tx
                .prepare(&format!(
                    "{PER_PROBLEM}
                     SELECT t.family, t.tag, SUM(pa.n), SUM(pa.c), SUM(pa.due), SUM(pa.new),
                        SUM(pa.ms)
                     FROM problem_tags t JOIN pa ON pa.id = t.problem_id
                     GROUP BY t.family, t.tag"
                ))?
                .query_map([ms(now)], |r| {
                    let (attempts, millis) = (count(r, 2)?, count(r, 6)?);
                    Ok((
                        r.get::<_, String>(0)?,
                        TagStats {
                            family: TagFamily::Strategy,
                            tag: r.get(1)?,
                            attempts,
                            correct: count(r, 3)?,
                            due: count(r, 4)?,
                            new: count(r, 5)?,
                            avg_time_ms: average(millis, attempts),
                        },
                    ))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let days = tx
                .prepare(
                    "SELECT (a.at_ms + ?1) / ?2 AS day, COUNT(*), SUM(a.correct)
                     FROM attempts a JOIN problems p ON p.id = a.problem_id
                     JOIN sources s ON s.id = p.source_id
                     WHERE s.active = 1 GROUP BY day ORDER BY day",
                )?
                .query_map(params![i64::from(utc_offset) * 1000, DAY_MS], |r| {
                    Ok((r.get::<_, i64>(0)?, count(r, 1)?, count(r, 2)?))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            tx.finish()?;
            Ok((sources, tags, days))
        })();
        let (sources, tags, days) = r.map_err(|e| self.err(e))?;
        let sum = |f: fn(&SourceStats) -> u64| sources.iter().map(f).sum();
        let (attempts, millis) = (sum(|s| s.attempts), sum(|s| s.millis));
        let mut tags: Vec<TagStats> = tags
            .into_iter()
            .filter_map(|(family, t)| {
                Some(TagStats {
                    family: TagFamily::parse(&family)?,
                    ..t
                })
            })
            .collect();
        tags.sort_by_key(|t| (t.family, tag_order(t), t.tag.clone()));
        Ok(Stats {
            attempts,
            correct: sum(|s| s.correct),
            due: sum(|s| s.due),
            new: sum(|s| s.new),
            avg_time_ms: average(millis, attempts),
            sources,
            tags,
            series: days
                .into_iter()
                .map(|(day, attempts, correct)| DayStats {
                    date: day_date(day).format("%Y-%m-%d").to_string(),
                    attempts,
                    correct,
                })
                .collect(),
        })
    }
}

/// Lengths by their number, strategies most attempted first, phases in the game's order.
fn tag_order(t: &TagStats) -> i64 {
    match t.family {
        TagFamily::Length => t
            .tag
            .trim_end_matches("手詰")
            .parse::<i64>()
            .unwrap_or(i64::MAX),
        TagFamily::Strategy => -(t.attempts as i64),
        TagFamily::Phase => PHASES
            .iter()
            .position(|p| p.0 == t.tag)
            .map_or(i64::MAX, |i| i as i64),
    }
}

fn day_date(day: i64) -> NaiveDate {
    NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default() + chrono::Duration::days(day)
}

/// Rows of the chart (each a quarter of 100 %).
const ROWS: usize = 4;
const EIGHTHS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The success rate over time as text at most `width` columns wide: one column per day from
/// the series' first day to `today` (several days a column when they do not fit), a bar as
/// high as the column's rate (`_` for 0 %, `·` for a column without attempts), the dates
/// below.
pub fn chart(series: &[DayStats], today: NaiveDate, width: usize) -> String {
    let parsed: Vec<(NaiveDate, u64, u64)> = series
        .iter()
        .filter_map(|d| {
            let date = NaiveDate::parse_from_str(&d.date, "%Y-%m-%d").ok()?;
            Some((date, d.attempts, d.correct))
        })
        .collect();
    let (Some(first), Some(last)) = (parsed.first(), parsed.last()) else {
        return "success rate by day: no attempts yet\n".into();
    };
    let first = first.0;
    let last = last.0.max(today);
    let days = (last - first).num_days() as usize + 1;
    // "100% │" before the bars.
    const LABEL: usize = 6;
    let cols = width.saturating_sub(LABEL).max(8);
    let per = days.div_ceil(cols);
    let ncols = days.div_ceil(per);
    let mut buckets = vec![(0u64, 0u64); ncols];
    for (date, attempts, correct) in &parsed {
        let i = (*date - first).num_days() as usize / per;
        if let Some(b) = buckets.get_mut(i) {
            b.0 += attempts;
            b.1 += correct;
        }
    }
    let what = if per == 1 {
        "by day".to_string()
    } else {
        format!("a column is {per} days")
    };
    let mut out = format!("success rate ({what}):\n");
    for row in (0..ROWS).rev() {
        let label = match row {
            r if r == ROWS - 1 => "100%",
            0 => "  0%",
            _ => "",
        };
        out.push_str(&format!("{label:>4} │"));
        for &(attempts, correct) in &buckets {
            let c = if attempts == 0 {
                if row == 0 { '·' } else { ' ' }
            } else {
                let level = (correct as f64 / attempts as f64 * (ROWS * 8) as f64).round() as usize;
                match level.saturating_sub(row * 8).min(8) {
                    0 if row == 0 => '_',
                    0 => ' ',
                    n => EIGHTHS[n - 1],
                }
            };
            out.push(c);
        }
        out.push('\n');
    }
    let (a, b) = (first.format("%Y-%m-%d"), last.format("%Y-%m-%d"));
    let dates = if ncols >= 22 {
        format!("{a}{:pad$}{b}", "", pad = ncols - 20)
    } else {
        format!("{a} – {b}")
    };
    out.push_str(&format!("{:LABEL$}{dates}\n", ""));
    out
}

#[cfg(test)]
mod tests;
