//! The schedule on a fake clock, and two writers at once.

use super::*;
use chrono::Duration as Days;

fn t0() -> DateTime<Utc> {
    parse_now("2026-12-01T09:00:00Z").unwrap()
}

fn attempt(at: DateTime<Utc>, correct: bool) -> Attempt {
    Attempt {
        at,
        correct,
        millis: 4_000,
        answer: Some("7g7f".into()),
    }
}

fn keys(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("k{i}")).collect()
}

#[test]
fn a_wrong_answer_comes_back_sooner_than_a_right_one() {
    let d = tempfile::tempdir().unwrap();
    let mut h = History::open(&d.path().join("h.sqlite")).unwrap();
    let right = h
        .record("set", "next-move", "a", &attempt(t0(), true))
        .unwrap();
    let wrong = h
        .record("set", "next-move", "b", &attempt(t0(), false))
        .unwrap();
    assert!(wrong < right, "wrong {wrong}, right {right}");
    assert!(wrong > t0());
    // Right again the next day: longer still; wrong again: back within the day.
    let day = t0() + Days::days(1);
    let right2 = h
        .record("set", "next-move", "a", &attempt(day, true))
        .unwrap();
    let wrong2 = h
        .record("set", "next-move", "b", &attempt(day, false))
        .unwrap();
    assert!(right2 - day > right - t0(), "{right2} after {right}");
    assert!(wrong2 - day <= Days::days(1), "{wrong2}");
    assert_eq!(h.due_at("set", "a").unwrap(), Some(right2));
}

#[test]
fn a_problem_solved_the_first_time_waits_days_and_a_missed_one_comes_back_the_next_day() {
    // FSRS without its same-day learning steps: a right first answer is not asked again
    // within minutes (it was due 10 minutes later, so the next day held nothing new to say);
    // a wrong one is due the next day.
    let d = tempfile::tempdir().unwrap();
    let mut h = History::open(&d.path().join("h.sqlite")).unwrap();
    h.add_source("set", "next-move", &keys(2), t0()).unwrap();
    let right = h
        .record("set", "next-move", "k0", &attempt(t0(), true))
        .unwrap();
    let wrong = h
        .record("set", "next-move", "k1", &attempt(t0(), false))
        .unwrap();
    assert!(right - t0() >= Days::days(2), "right: due {right}");
    assert_eq!(wrong - t0(), Days::days(1), "wrong: due {wrong}");
    let next_day = t0() + Days::days(1);
    let s = h.stats(next_day).unwrap();
    assert_eq!((s.due, s.new), (1, 0), "only the missed one is due");
    assert_eq!(h.stats(t0() + Days::days(1) / 2).unwrap().due, 0);
    let later = right + Days::days(1) / 24;
    assert_eq!(h.stats(later).unwrap().due, 2, "both by {later}");
}

#[test]
fn due_and_new_counts_follow_the_days() {
    let d = tempfile::tempdir().unwrap();
    let mut h = History::open(&d.path().join("h.sqlite")).unwrap();
    assert_eq!(h.add_source("set", "next-move", &keys(3), t0()).unwrap(), 3);
    // Adding it again adds nothing.
    assert_eq!(h.add_source("set", "next-move", &keys(3), t0()).unwrap(), 0);
    let s = h.stats(t0()).unwrap();
    assert_eq!((s.attempts, s.correct, s.due, s.new), (0, 0, 0, 3));
    h.record("set", "next-move", "k0", &attempt(t0(), true))
        .unwrap();
    h.record("set", "next-move", "k1", &attempt(t0(), false))
        .unwrap();
    let s = h.stats(t0()).unwrap();
    assert_eq!((s.attempts, s.correct, s.due, s.new), (2, 1, 0, 1));
    // Four days on (a right first answer waits about three), both answered problems are due;
    // the new one is still new.
    let later = t0() + Days::days(4);
    let s = h.stats(later).unwrap();
    assert_eq!((s.due, s.new), (2, 1));
    assert_eq!(h.due(later).unwrap().len(), 2);
    assert_eq!(s.sources[0].source, "set");
    assert_eq!((s.sources[0].attempts, s.sources[0].millis), (2, 8_000));
    // Suspended: not due. Removed: neither due nor new, attempts kept in the file.
    assert!(h.suspend("set", "k1", true).unwrap());
    assert_eq!(h.stats(later).unwrap().due, 1);
    assert!(h.remove_source("set").unwrap());
    assert!(!h.remove_source("set").unwrap());
    assert_eq!(h.stats(later).unwrap(), Stats::default());
    // Added back: as it was.
    h.add_source("set", "next-move", &keys(3), later).unwrap();
    let s = h.stats(later).unwrap();
    assert_eq!((s.attempts, s.due, s.new), (2, 1, 1));
}

#[test]
fn a_history_stays_across_opens() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("deep/er/h.sqlite");
    History::open(&p)
        .unwrap()
        .record("set", "next-move", "a", &attempt(t0(), true))
        .unwrap();
    let h = History::open(&p).unwrap();
    assert_eq!(h.stats(t0()).unwrap().attempts, 1);
}

#[test]
fn two_writers_at_once_lose_nothing_and_leave_a_sound_file() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("h.sqlite");
    History::open(&p).unwrap();
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let p = p.clone();
            std::thread::spawn(move || {
                let mut h = History::open(&p).unwrap();
                for i in 0..50 {
                    let at = t0() + Days::seconds(i);
                    h.record(
                        &format!("set{w}"),
                        "next-move",
                        &format!("k{}", i % 7),
                        &attempt(at, i % 3 == 0),
                    )
                    .unwrap();
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let h = History::open(&p).unwrap();
    let s = h.stats(t0()).unwrap();
    assert_eq!(s.attempts, 100);
    assert_eq!(s.sources.len(), 2);
    assert_eq!(h.integrity().unwrap(), "ok");
}

#[test]
fn a_newer_history_is_refused_not_changed() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("h.sqlite");
    {
        let c = Connection::open(&p).unwrap();
        c.execute_batch("PRAGMA user_version = 9;").unwrap();
    }
    let e = History::open(&p).err().unwrap();
    assert!(
        e.contains("a training history of a newer kifview (format 9"),
        "{e}"
    );
}

#[test]
fn now_in_its_forms() {
    assert_eq!(parse_now("2026-12-01T18:00:00+09:00").unwrap(), t0());
    assert!(parse_now("2026-12-01").is_ok());
    assert!(parse_now("2026-12-01T09:00").is_ok());
    assert!(
        parse_now("tomorrow")
            .unwrap_err()
            .contains("expected a date and time")
    );
}

#[test]
fn a_busy_history_is_said_and_reading_it_still_works() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("h.sqlite");
    let mut h = History::open(&p).unwrap();
    h.record("set", "next-move", "a", &attempt(t0(), true))
        .unwrap();
    // Another kifview holds the write lock (as one writing an attempt does).
    let other = Connection::open(&p).unwrap();
    other.execute_batch("BEGIN IMMEDIATE;").unwrap();
    h.set_busy_wait(std::time::Duration::from_millis(100))
        .unwrap();
    let e = h
        .record("set", "next-move", "b", &attempt(t0(), false))
        .unwrap_err();
    assert!(
        e.contains(
            "the training history is busy: another kifview has been writing it for 0.1 s; try again"
        ),
        "{e}"
    );
    assert!(e.starts_with(&p.display().to_string()), "{e}");
    // Reading is not held up by the writer (WAL), and the failed attempt left nothing.
    assert_eq!(h.stats(t0()).unwrap().attempts, 1);
    other.execute_batch("COMMIT;").unwrap();
    h.record("set", "next-move", "b", &attempt(t0(), false))
        .unwrap();
    assert_eq!(h.stats(t0()).unwrap().attempts, 2);
}

#[test]
fn a_source_is_named_by_its_absolute_path_with_links_resolved() {
    let d = tempfile::tempdir().unwrap();
    let real = d.path().join("set.json");
    std::fs::write(&real, "{}").unwrap();
    let link = d.path().join("link.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let resolved = std::fs::canonicalize(&real).unwrap();
    assert_eq!(source_name(&link), resolved.display().to_string());
    // One that is not there (moved since it was added) keeps its absolute path.
    let gone = Path::new("no-such-folder/set.json");
    let absolute = std::env::current_dir().unwrap().join(gone);
    assert_eq!(source_name(gone), absolute.display().to_string());
}
