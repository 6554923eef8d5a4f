//! The solve mode (`kifview train`), driven by keys through the whole app and drawn into a
//! TestBackend: a next-move set's problems answered typed and on the board, the verdicts
//! (right, another good move, wrong with what it allows), the answer's line stepped
//! through, the source record opened and left, each attempt read back from the history;
//! then the real binary: `kifview train SET` and, a "day" later (`--now`), `kifview train`
//! with what is due.

use crate::common::{press, screen, screen_rows, stderr_of, viewer_with};
use kifview::app::train::TrainOptions;
use kifview::app::{LaunchOptions, Mode};
use kifview::training::ProblemSet;
use kifview::training::drill::{Drill, NextMove};
use kifview::training::history::parse_now;
use kifview::tui::Viewer;
use std::path::{Path, PathBuf};

/// The game the problems come from: ▲７六歩 △３四歩 ▲２六歩 △８四歩.
const GAME: &str = "手合割：平手\n先手：先手さん\n後手：後手さん\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８四歩(83)\n";

/// Two problems of that game: ▲ to move after △３四歩 (２六歩 the answer, ７八金 another good
/// move, ５八玉 wrong: it allows △８八角成), and △ to move after ▲２六歩.
fn set_json(source: &str) -> String {
    serde_json::json!({
        "format": "shogihome-next-move",
        "version": 1,
        "problems": [
            {
                "sfen": "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
                "candidates": [
                    { "usi": "2g2f", "score": 60, "accepted": true, "pv": ["2g2f", "8c8d", "2f2e"] },
                    { "usi": "6i7h", "score": 55, "accepted": true, "pv": ["6i7h", "8c8d"] },
                    { "usi": "5i5h", "score": -900, "accepted": false, "pv": ["5i5h", "2b8h+"] }
                ],
                "actualMove": { "usi": "5i5h", "score": -900 },
                "source": { "path": source, "ply": 3 }
            },
            {
                "sfen": "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4",
                "candidates": [ { "usi": "8c8d", "score": -50, "accepted": true, "pv": ["8c8d", "2f2e"] } ],
                "actualMove": { "usi": "8c8d" },
                "source": { "path": source, "ply": 4 }
            }
        ]
    })
    .to_string()
}

struct Fixture {
    dir: tempfile::TempDir,
    set: PathBuf,
    history: PathBuf,
    game: PathBuf,
}

/// The game and the set in a folder of their own; `source`: the path the set names (the
/// game's, or a fixed one for the snapshots).
fn fixture(source: Option<&str>) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.kif");
    std::fs::write(&game, GAME).unwrap();
    let set = dir.path().join("set.json");
    let src = source.map_or_else(|| game.display().to_string(), str::to_string);
    std::fs::write(&set, set_json(&src)).unwrap();
    let history = dir.path().join("data").join("training.sqlite");
    Fixture {
        set,
        history,
        game,
        dir,
    }
}

fn solve(f: &Fixture) -> Viewer {
    let text = std::fs::read_to_string(&f.set).unwrap();
    let set = ProblemSet::from_json(&text).unwrap();
    let name = f.set.display().to_string();
    let drills: Vec<Box<dyn Drill>> = NextMove::from_set(&name, &set)
        .unwrap()
        .into_iter()
        .map(|d| Box::new(d) as Box<dyn Drill>)
        .collect();
    viewer_with(&LaunchOptions {
        train: Some(TrainOptions {
            drills,
            history: f.history.clone(),
            now: Some(parse_now("2026-12-01T09:00:00Z").unwrap()),
            summary: Some("due: 0, new: 2".into()),
            mate_time: None,
        }),
        ..Default::default()
    })
}

/// The screen at `w`x`h`, the clock's time masked (it runs).
pub(super) fn shown(v: &mut Viewer, w: u16, h: u16) -> String {
    let mut out = String::new();
    for row in screen_rows(&screen(v, w, h)) {
        let mut row = row.as_str();
        while let Some(i) = row.find("時間 ") {
            let (head, tail) = row.split_at(i + "時間 ".len());
            out.push_str(head);
            let n = tail
                .find(|c: char| !(c.is_ascii_digit() || c == ':'))
                .unwrap_or(tail.len());
            out.push_str(if n > 0 { "M:SS" } else { "" });
            row = &tail[n..];
        }
        out.push_str(row);
        out.push('\n');
    }
    out
}

/// The attempts written, oldest first: (correct, answer, millis, at in ms).
fn attempts(history: &Path) -> Vec<(bool, Option<String>, i64, i64)> {
    let db = rusqlite::Connection::open(history).unwrap();
    let mut st = db
        .prepare("SELECT correct, answer, millis, at_ms FROM attempts ORDER BY id")
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

#[test]
fn a_typed_answer_is_judged_at_once_and_its_attempt_is_written_with_its_time() {
    let f = fixture(None);
    let mut v = solve(&f);
    assert_eq!(v.app.mode(), Mode::Train);
    let s = shown(&mut v, 100, 30);
    assert!(s.contains("次の一手 1/2"), "{s}");
    assert!(s.contains("☗先手の番"), "{s}");
    assert!(s.contains("時間 M:SS"), "{s}");
    // Position only: no move list, no comment pane.
    assert!(!s.contains("指し手") && !s.contains("コメント"), "{s}");
    assert!(!f.history.exists() || attempts(&f.history).is_empty());
    press(&mut v, "m2g2f⏎");
    let s = shown(&mut v, 100, 30);
    assert!(s.contains("○ 正解 ▲２六歩"), "{s}");
    assert!(s.contains("答え: ▲２六歩△８四歩▲２五歩"), "{s}");
    v.app.train_settle();
    let a = attempts(&f.history);
    assert_eq!(a.len(), 1, "one attempt per verdict");
    assert!(a[0].0);
    assert_eq!(a[0].1.as_deref(), Some("2g2f"));
    assert!(a[0].2 >= 0);
    // Written as of --now (plus the seconds the test took).
    let at = parse_now("2026-12-01T09:00:00Z")
        .unwrap()
        .timestamp_millis();
    assert!(a[0].3 >= at && a[0].3 < at + 600_000, "{}", a[0].3);
    let s = shown(&mut v, 100, 30);
    assert!(s.contains("記録しました。次の出題"), "{s}");
    // A second move on a problem that is over is refused and writes nothing.
    press(&mut v, "m8c8d⏎");
    v.app.train_settle();
    assert_eq!(attempts(&f.history).len(), 1);
}

#[test]
fn the_board_enters_another_good_move_and_the_next_problem_turns_the_board() {
    let f = fixture(None);
    let mut v = solve(&f);
    // The board cursor starts on ５五: ６九 is one left and four down; ７八 one left, one up.
    press(&mut v, "ihjjjj⏎hk⏎");
    let s = shown(&mut v, 100, 30);
    assert!(s.contains("別解"), "{s}");
    assert!(!v.app.flipped());
    press(&mut v, "n");
    let s = shown(&mut v, 100, 30);
    assert!(s.contains("次の一手 2/2") && s.contains("☖後手の番"), "{s}");
    assert!(v.app.flipped(), "the solver's side at the bottom");
    v.app.train_settle();
    let a = attempts(&f.history);
    assert_eq!(a.len(), 1);
    assert!(a[0].0, "another good move counts right");
    assert_eq!(a[0].1.as_deref(), Some("6i7h"));
}

#[test]
fn a_wrong_move_says_what_it_allows_then_the_answer_is_stepped_and_the_source_opened() {
    let f = fixture(None);
    let mut v = solve(&f);
    press(&mut v, "m58玉⏎");
    let s = shown(&mut v, 100, 30);
    assert!(s.contains("× 不正解 ▲５八玉"), "{s}");
    assert!(s.contains("以下 △８八角成"), "{s}");
    // After the wrong move the line it allows is stepped with l.
    assert_eq!(v.app.cur_index(), 1);
    press(&mut v, "l");
    assert_eq!(v.app.step_text(v.app.cur()), "△８八角成(22)");
    // a: the answer's line.
    press(&mut v, "a");
    assert_eq!(v.app.step_text(v.app.cur()), "▲２六歩(27)");
    press(&mut v, "ll");
    assert_eq!(v.app.step_text(v.app.cur()), "▲２五歩(26)");
    // o: the game, before the move asked (its third); o again: back.
    press(&mut v, "o");
    assert_eq!(v.app.source().path.as_deref(), Some(f.game.as_path()));
    assert_eq!(v.app.cur_index(), 2);
    let s = shown(&mut v, 100, 30);
    assert!(s.contains("先手さん"), "the record's own screen: {s}");
    press(&mut v, "o");
    assert_eq!(v.app.source().path, None);
    assert_eq!(v.app.mode(), Mode::Train);
    let s = shown(&mut v, 100, 30);
    assert!(s.contains("× 不正解"), "{s}");
    // Esc from the source comes back too.
    press(&mut v, "o⎋");
    assert_eq!(v.app.mode(), Mode::Train);
    assert!(!v.app.train().unwrap().away());
    v.app.train_settle();
    let a = attempts(&f.history);
    assert_eq!(a.len(), 1);
    assert!(!a[0].0);
    assert_eq!(a[0].1.as_deref(), Some("5i5h"));
}

#[test]
fn giving_up_writes_a_wrong_attempt_and_skipping_writes_nothing() {
    let f = fixture(None);
    let mut v = solve(&f);
    press(&mut v, "n");
    press(&mut v, "a");
    let s = shown(&mut v, 100, 30);
    assert!(s.contains("× 不正解 (答えを見ました)"), "{s}");
    assert!(s.contains("答え: △８四歩▲２五歩"), "{s}");
    press(&mut v, "n");
    let s = shown(&mut v, 100, 30);
    assert!(s.contains("最後の問題でした"), "{s}");
    v.app.train_settle();
    let a = attempts(&f.history);
    assert_eq!(a.len(), 1, "the skipped problem wrote nothing: {a:?}");
    assert!(!a[0].0);
    assert_eq!(a[0].1, None);
}

#[test]
fn the_solve_mode_at_three_sizes() {
    let f = fixture(Some("/games/2026/game.kif"));
    let mut v = solve(&f);
    insta::assert_snapshot!("train_problem_80x24", shown(&mut v, 80, 24));
    press(&mut v, "m58玉⏎");
    insta::assert_snapshot!("train_wrong_80x24", shown(&mut v, 80, 24));
    insta::assert_snapshot!("train_wrong_120x40", shown(&mut v, 120, 40));
    insta::assert_snapshot!("train_wrong_200x60", shown(&mut v, 200, 60));
    v.app.train_settle();
    drop(f.dir);
}

// ----- the binary -----

pub(super) fn kifview(data: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("kifview").unwrap();
    c.env("KIFVIEW_DATA_DIR", data);
    c
}

#[test]
fn kifview_train_without_a_terminal_adds_the_set_and_says_what_it_needs() {
    let f = fixture(None);
    let data = f.dir.path().join("data");
    let o = kifview(&data)
        .args(["train", "--now", "2026-12-01"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "nothing to train now (due: 0, new: 0): kifview train SET.json adds a problem set"
    );
    let o = kifview(&data)
        .args(["train", f.set.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr_of(&o));
    assert!(
        stderr_of(&o).contains("needs a terminal"),
        "{}",
        stderr_of(&o)
    );
    let o = kifview(&data)
        .args(["train", "stats", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["new"], 2, "{v}");
    let o = kifview(&data)
        .args(["train", "--now", "yesterday"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = kifview(&data)
        .args(["train", f.dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr_of(&o).contains("no tsume found"),
        "{}",
        stderr_of(&o)
    );
}

#[test]
fn pty_two_days_a_set_then_what_is_due_the_wrong_one_first() {
    use crate::pty::Session;
    let f = fixture(None);
    let data = f.dir.path().join("data");
    let bin = env!("CARGO_BIN_EXE_kifview");
    let set = f.set.to_str().unwrap();
    let day1 = ["train", set, "--now", "2026-12-01T09:00:00Z"];
    let mut s = Session::start_with_env(bin, &day1, &[("KIFVIEW_DATA_DIR", &data)], 24, 80);
    s.wait_for("次の一手 1/2");
    s.wait_for("due: 0, new: 2");
    s.send("m2g2f\r");
    s.wait_for("正解");
    s.send("n");
    s.wait_for("次の一手 2/2");
    s.send("m9c9d\r");
    s.wait_for("不正解");
    s.send("q");
    s.wait_exit();
    let a = attempts(&data.join("training.sqlite"));
    assert_eq!(
        a.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![true, false],
        "both attempts written before kifview exited"
    );
    // A day later the wrong one is due, alone; four days later (a right first answer waits
    // about three) both are, the wrong one first (due sooner).
    let day2 = ["train", "--now", "2026-12-02T12:00:00Z"];
    let mut s = Session::start_with_env(bin, &day2, &[("KIFVIEW_DATA_DIR", &data)], 24, 80);
    s.wait_for("due: 1, new: 0");
    s.wait_for("次の一手 2/2");
    s.send("q");
    s.wait_exit();
    let day5 = ["train", "--now", "2026-12-05T09:00:00Z"];
    let mut s = Session::start_with_env(bin, &day5, &[("KIFVIEW_DATA_DIR", &data)], 24, 80);
    s.wait_for("due: 2, new: 0");
    s.wait_for("次の一手 2/2");
    s.send("q");
    s.wait_exit();
}
