//! Statistics per tag, the series over days, the chart, and a format-1 history brought up.

use super::super::{Attempt, parse_now};
use super::*;
use chrono::Duration as Days;
use rusqlite::Connection;

fn t0() -> DateTime<Utc> {
    parse_now("2026-12-01T09:00:00Z").unwrap()
}

fn attempt(at: DateTime<Utc>, correct: bool, millis: u64) -> Attempt {
    Attempt {
        at,
        correct,
        millis,
        answer: None,
    }
}

fn keys(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("k{i}")).collect()
}

fn tag(f: TagFamily, n: &str) -> Tag {
    Tag::new(f, n)
}

#[test]
fn per_tag_counts_rates_times_and_due_follow_the_answers() {
    let d = tempfile::tempdir().unwrap();
    let mut h = History::open(&d.path().join("h.sqlite")).unwrap();
    h.add_source("tsume", "tsume", &keys(3), t0()).unwrap();
    h.set_tags(
        "tsume",
        &[
            ("k0".into(), vec![tag(TagFamily::Length, "3手詰")]),
            ("k1".into(), vec![tag(TagFamily::Length, "11手詰")]),
            ("k2".into(), vec![tag(TagFamily::Length, "3手詰")]),
        ],
    )
    .unwrap();
    h.add_source("set", "next-move", &keys(2), t0()).unwrap();
    h.set_tags(
        "set",
        &[
            (
                "k0".into(),
                vec![
                    tag(TagFamily::Strategy, "四間飛車"),
                    tag(TagFamily::Phase, "終盤"),
                ],
            ),
            (
                "k1".into(),
                vec![
                    tag(TagFamily::Strategy, "角換わり"),
                    tag(TagFamily::Phase, "序盤"),
                ],
            ),
        ],
    )
    .unwrap();
    h.record("tsume", "tsume", "k0", &attempt(t0(), true, 2_000))
        .unwrap();
    h.record("tsume", "tsume", "k2", &attempt(t0(), false, 6_000))
        .unwrap();
    h.record("set", "next-move", "k1", &attempt(t0(), true, 9_000))
        .unwrap();
    h.record("set", "next-move", "k1", &attempt(t0(), true, 3_000))
        .unwrap();

    let s = h.stats_in(t0() + Days::days(3), 0).unwrap();
    // The tsume two are due three days on; the set's k1, right twice, not yet.
    assert_eq!((s.attempts, s.correct, s.due, s.new), (4, 3, 2, 2));
    assert_eq!(s.avg_time_ms, Some(5_000));
    let row = |name: &str| s.tags.iter().find(|t| t.tag == name).unwrap().clone();
    // 3手詰: one right in 2 s, one wrong in 6 s; both due three days on.
    assert_eq!(
        row("3手詰"),
        TagStats {
            family: TagFamily::Length,
            tag: "3手詰".into(),
            attempts: 2,
            correct: 1,
            due: 2,
            new: 0,
            avg_time_ms: Some(4_000)
        }
    );
    assert_eq!((row("11手詰").attempts, row("11手詰").new), (0, 1));
    assert_eq!(row("11手詰").avg_time_ms, None);
    assert_eq!((row("角換わり").attempts, row("角換わり").correct), (2, 2));
    assert_eq!(row("序盤").avg_time_ms, Some(6_000));
    // Lengths by number, strategies most attempted first, phases in the game's order.
    let order: Vec<&str> = s.tags.iter().map(|t| t.tag.as_str()).collect();
    assert_eq!(
        order,
        ["3手詰", "11手詰", "角換わり", "四間飛車", "序盤", "終盤"]
    );
    let tsume = s.sources.iter().find(|x| x.source == "tsume").unwrap();
    assert_eq!(
        (tsume.attempts, tsume.due, tsume.new, tsume.avg_time_ms),
        (2, 2, 1, Some(4_000))
    );
    // Tags read back, and replaced on a second set_tags.
    assert_eq!(
        h.tags("set", "k0").unwrap(),
        [
            tag(TagFamily::Strategy, "四間飛車"),
            tag(TagFamily::Phase, "終盤")
        ]
    );
    h.set_tags("set", &[("k0".into(), vec![tag(TagFamily::Phase, "中盤")])])
        .unwrap();
    assert_eq!(
        h.tags("set", "k0").unwrap(),
        [tag(TagFamily::Phase, "中盤")]
    );
    // A source the history does not know is said.
    let e = h.set_tags("nowhere", &[]).unwrap_err();
    assert!(
        e.contains("nowhere: not a source of the training history"),
        "{e}"
    );
}

#[test]
fn the_series_counts_each_day_in_the_time_zone_given() {
    let d = tempfile::tempdir().unwrap();
    let mut h = History::open(&d.path().join("h.sqlite")).unwrap();
    // Day one (09:00 UTC): two of three right; day two: all wrong; 23:30 UTC on day two is
    // day three in Tokyo.
    h.record("s", "next-move", "a", &attempt(t0(), true, 1_000))
        .unwrap();
    h.record("s", "next-move", "b", &attempt(t0(), true, 1_000))
        .unwrap();
    h.record("s", "next-move", "c", &attempt(t0(), false, 1_000))
        .unwrap();
    let day2 = t0() + Days::days(1);
    h.record("s", "next-move", "c", &attempt(day2, false, 1_000))
        .unwrap();
    let late = t0() + Days::days(1) + Days::minutes(14 * 60 + 30);
    h.record("s", "next-move", "a", &attempt(late, true, 1_000))
        .unwrap();
    let day = |date: &str, attempts, correct| DayStats {
        date: date.into(),
        attempts,
        correct,
    };
    let utc = h.stats_in(late, 0).unwrap().series;
    assert_eq!(utc, [day("2026-12-01", 3, 2), day("2026-12-02", 2, 1)]);
    let tokyo = h.stats_in(late, 9 * 3600).unwrap().series;
    assert_eq!(
        tokyo,
        [
            day("2026-12-01", 3, 2),
            day("2026-12-02", 1, 0),
            day("2026-12-03", 1, 1)
        ]
    );
}

#[test]
fn the_chart_draws_each_days_rate_within_the_width() {
    let day = |date: &str, attempts, correct| DayStats {
        date: date.into(),
        attempts,
        correct,
    };
    let today = NaiveDate::from_ymd_opt(2026, 12, 4).unwrap();
    let series = [
        day("2026-12-01", 4, 4),
        day("2026-12-02", 4, 2),
        day("2026-12-04", 3, 0),
    ];
    let text = chart(&series, today, 80);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "success rate (by day):");
    // Four columns: 100 % full, 50 % half, no attempts, 0 %.
    assert_eq!(lines[1], "100% │█   ");
    assert_eq!(lines[2], "     │█   ");
    assert_eq!(lines[3], "     │██  ");
    assert_eq!(lines[4], "  0% │██·_");
    assert_eq!(lines[5], "      2026-12-01 – 2026-12-04");
    // Sixty days in 40 columns: two days a column, nothing wider than asked.
    let start = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    let long: Vec<DayStats> = (0..60)
        .map(|i| {
            let d = start + chrono::Duration::days(i);
            day(&d.format("%Y-%m-%d").to_string(), 2, (i % 3) as u64)
        })
        .collect();
    let today = start + chrono::Duration::days(59);
    let text = chart(&long, today, 40);
    assert!(
        text.starts_with("success rate (a column is 2 days):"),
        "{text}"
    );
    for l in text.lines() {
        assert!(unicode_width::UnicodeWidthStr::width(l) <= 40, "{l:?}");
    }
    assert!(
        text.contains("2026-10-01") && text.contains("2026-11-29"),
        "{text}"
    );
    assert_eq!(
        chart(&[], today, 80),
        "success rate by day: no attempts yet\n"
    );
}

#[test]
fn a_format_1_history_is_brought_up_keeping_its_attempts() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("h.sqlite");
    {
        // The format-1 schema as session 12 wrote it, with one attempt.
        let c = Connection::open(&p).unwrap();
        c.execute_batch(
            "CREATE TABLE sources(id INTEGER PRIMARY KEY, source TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL, added_ms INTEGER NOT NULL, active INTEGER NOT NULL DEFAULT 1);
             CREATE TABLE problems(id INTEGER PRIMARY KEY,
                source_id INTEGER NOT NULL REFERENCES sources(id), key TEXT NOT NULL,
                suspended INTEGER NOT NULL DEFAULT 0, due_ms INTEGER, last_ms INTEGER,
                stability REAL NOT NULL DEFAULT 0, difficulty REAL NOT NULL DEFAULT 0,
                elapsed_days INTEGER NOT NULL DEFAULT 0, scheduled_days INTEGER NOT NULL DEFAULT 0,
                reps INTEGER NOT NULL DEFAULT 0, lapses INTEGER NOT NULL DEFAULT 0,
                state INTEGER NOT NULL DEFAULT 0, UNIQUE(source_id, key));
             CREATE TABLE attempts(id INTEGER PRIMARY KEY,
                problem_id INTEGER NOT NULL REFERENCES problems(id), at_ms INTEGER NOT NULL,
                correct INTEGER NOT NULL, millis INTEGER NOT NULL, answer TEXT);
             CREATE INDEX attempts_by_problem ON attempts(problem_id);
             INSERT INTO sources VALUES (1, 'set', 'next-move', 0, 1);
             INSERT INTO problems(id, source_id, key) VALUES (1, 1, 'k0');
             INSERT INTO attempts VALUES (1, 1, 1764579600000, 1, 7000, '7g7f');
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let mut h = History::open(&p).unwrap();
    let version: i64 =
        h.db.query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
    assert_eq!(version, 2);
    let s = h.stats_in(t0(), 0).unwrap();
    assert_eq!((s.attempts, s.correct, s.avg_time_ms), (1, 1, Some(7_000)));
    h.set_tags("set", &[("k0".into(), vec![tag(TagFamily::Phase, "序盤")])])
        .unwrap();
    assert_eq!(h.stats_in(t0(), 0).unwrap().tags[0].attempts, 1);
    assert_eq!(h.integrity().unwrap(), "ok");
}
