//! Tsume in the solve mode (`kifview train FOLDER`), driven by keys through the whole app,
//! with the scripted fake engine (`tests/fixtures/engines/replay.sh`) answering `go mate`:
//! the record's answer played through with its defence and the splits; another mate the
//! engine confirms accepted as 余詰 with the longest defence played; a check that escapes;
//! a crashed engine said; the engine's refutation of a next-move answer the set does not
//! list; snapshots at three sizes; then the binary: folders, an index filter and the tags.

use crate::common::{press, screen, screen_rows, stderr_of};
use crate::engine::research::Fake;
use kifview::app::train::TrainOptions;
use kifview::app::{App, Config, LaunchOptions, Mode};
use kifview::engine::EngineSpec;
use kifview::training::ProblemSet;
use kifview::training::drill::{Drill, NextMove};
use kifview::training::history::parse_now;
use kifview::training::tsume;
use kifview::tui::Viewer;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The test tsume: ▲２一金打 △１二玉 ▲２二飛打; ▲２一飛打 △１二玉 ▲２二金打 mates too
/// (余詰); ▲１二金打 △同玉 escapes. Relative (tests run in the package's folder): the
/// screen names it so, the same on every machine.
fn fixture() -> PathBuf {
    PathBuf::from("tests/fixtures/training/tsume/3te.kifu")
}

struct Session {
    dir: tempfile::TempDir,
    history: PathBuf,
}

fn session() -> Session {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("training.sqlite");
    Session { dir, history }
}

/// The solve mode on `drills`, with `engine` as the only configured engine (none: the
/// config has none, and no engine is looked for: `--engine` names a missing one).
fn solve_with(s: &Session, drills: Vec<Box<dyn Drill>>, engine: Option<&Fake>) -> Viewer {
    solve_on(s, drills, engine.map(|f| f.spec.clone()), None)
}

/// The solve mode on `drills` with `engine` (a fake's or a real one's spec) as the only
/// configured engine, its mate searches given `mate_time` (`--mate-time`; None: the
/// config's, 3 s).
fn solve_on(
    s: &Session,
    drills: Vec<Box<dyn Drill>>,
    engine: Option<EngineSpec>,
    mate_time: Option<Duration>,
) -> Viewer {
    let mut config = Config::defaults();
    let choice = match engine {
        Some(spec) => {
            config.engines = vec![spec];
            None
        }
        None => Some(s.dir.path().join("no-engine").display().to_string()),
    };
    let opts = LaunchOptions {
        engine: choice,
        train: Some(TrainOptions {
            drills,
            history: s.history.clone(),
            now: Some(parse_now("2026-12-01T09:00:00Z").unwrap()),
            summary: Some("due: 0, new: 1".into()),
            mate_time,
        }),
        ..Default::default()
    };
    let app = App::open(&opts, config).unwrap();
    Viewer::new(app, kifview::tui::theme::Theme::plain())
}

fn tsume_drills() -> Vec<Box<dyn Drill>> {
    let (found, skipped) = tsume::load(&fixture());
    assert!(skipped.is_empty(), "{skipped:?}");
    found
        .into_iter()
        .map(|d| Box::new(d) as Box<dyn Drill>)
        .collect()
}

/// `row` with each time masked as `T`: the clock's `M:SS` after `時間 `, and the splits'
/// seconds (`4.2 s`): they run.
fn mask_times(row: &str) -> String {
    let chars: Vec<char> = row.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == ':' || chars[i] == '.') {
            i += 1;
        }
        if i == start {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let run: String = chars[start..i].iter().collect();
        let clock = run.contains(':') && out.ends_with("時間 ");
        let seconds = run.contains('.') && chars.get(i..i + 2) == Some(&[' ', 's'][..]);
        out.push_str(if clock || seconds { "T" } else { &run });
    }
    out
}

/// The screen at `w`x`h`, its times masked.
fn shown(v: &mut Viewer, w: u16, h: u16) -> String {
    screen_rows(&screen(v, w, h))
        .iter()
        .map(|r| mask_times(r) + "\n")
        .collect()
}

/// The attempts written, oldest first: (kind, correct, answer).
fn attempts(history: &Path) -> Vec<(String, bool, Option<String>)> {
    let db = rusqlite::Connection::open(history).unwrap();
    let mut st = db
        .prepare(
            "SELECT s.kind, a.correct, a.answer FROM attempts a
             JOIN problems p ON p.id = a.problem_id JOIN sources s ON s.id = p.source_id
             ORDER BY a.id",
        )
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

fn asking(v: &Viewer) -> bool {
    v.app.train().is_some_and(|t| t.asking())
}

/// Waits for the engine's answer to the move just entered, the app looked at as the run loop
/// does when the engine wakes it (`App::look`: the engine polled, a dead one seen), with a
/// generous limit so that a broken build fails instead of hanging.
fn answered(v: &mut Viewer) {
    answered_within(v, Duration::from_secs(30));
}

/// [`answered`] with its limit: a real engine's start (gpsusi's handshake can take seconds on
/// a loaded machine) is waited for longer; only a failing test waits the whole limit.
fn answered_within(v: &mut Viewer, limit: Duration) {
    let deadline = Instant::now() + limit;
    while asking(v) {
        v.app.look();
        assert!(
            Instant::now() < deadline,
            "the engine never answered: {:?}",
            v.app.message()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_records_answer_is_played_through_with_its_defence_and_the_splits() {
    let s = session();
    let mut v = solve_with(&s, tsume_drills(), None);
    assert_eq!(v.app.mode(), Mode::Train);
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("詰将棋 3手 3te.kifu"), "{shot}");
    assert!(shot.contains("☗先手の番"), "{shot}");
    press(&mut v, "m21金打⏎");
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("○ 正解 ▲２一金"), "{shot}");
    // The record's defence is on the board.
    assert_eq!(v.app.step_text(v.app.cur()), "△１二玉(11)");
    assert!(!v.app.train().unwrap().finished());
    assert!(
        shot.contains("☗先手の番"),
        "the solver's move again: {shot}"
    );
    assert!(shot.contains("1手 T s (計 T s)"), "the first split: {shot}");
    press(&mut v, "m22飛打⏎");
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("○ 正解 ▲２二飛"), "{shot}");
    assert!(shot.contains("1手 T s · 3手 T s (計 T s)"), "{shot}");
    assert!(shot.contains("答え: ▲２一金△１二玉▲２二飛"), "{shot}");
    assert!(v.app.train().unwrap().finished());
    v.app.train_settle();
    assert_eq!(
        attempts(&s.history),
        vec![("tsume".to_string(), true, Some("G*2a R*2b".to_string()))],
        "one attempt when the problem is over, the solver's moves as its answer"
    );
}

#[test]
fn another_mate_the_mate_engine_confirms_is_accepted_as_yozume_with_the_longest_defence() {
    // After ▲２一飛打 the only defence is △１二玉: the engine mates it with ▲２二金打.
    let fake = Fake::new("< go mate\n> checkmate G*2b\n");
    let s = session();
    let mut v = solve_with(&s, tsume_drills(), Some(&fake));
    press(&mut v, "m21飛打⏎");
    assert!(
        asking(&v),
        "the move is checked by the engine: {:?}",
        v.app.message()
    );
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("エンジンが ▲２一飛 を確認中…"), "{shot}");
    // A move entered while it checks is refused, and the screen answers.
    press(&mut v, "m22金打⏎");
    assert!(
        v.app
            .message()
            .is_some_and(|m| m.text.contains("前の手を確認中")),
        "{:?}",
        v.app.message()
    );
    answered(&mut v);
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("○ 別解 ▲２一飛"), "{shot}");
    assert!(shot.contains("余詰"), "{shot}");
    assert_eq!(v.app.step_text(v.app.cur()), "△１二玉(11)");
    assert!(
        fake.log().iter().any(|l| l == "go mate 1125"),
        "the config's tsume_mate_time_ms by default (3 s: go mate 1.125 s, stop at 1.5 s, \
         killed at 3 s, engine::MateBudget): {:?}",
        fake.log()
    );
    press(&mut v, "m22金打⏎");
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("○ 別解 ▲２二金"), "{shot}");
    assert!(shot.contains("余詰: 答えと別の手順で詰み"), "{shot}");
    v.app.train_settle();
    assert_eq!(
        attempts(&s.history),
        vec![("tsume".to_string(), true, Some("R*2a G*2b".to_string()))]
    );
}

#[test]
fn the_mate_time_option_is_the_time_each_mate_search_is_given() {
    // `--mate-time 45000` (TrainOptions::mate_time): the engine's mate search gets 45 s, not
    // the config's 3 s, so a loaded machine or a long problem can be given more: `go mate`
    // for 42 s, the rest its time to answer a stop (engine::MateBudget).
    let fake = Fake::new("< go mate\n> checkmate G*2b\n");
    let s = session();
    let spec = fake.spec.clone();
    let mut v = solve_on(
        &s,
        tsume_drills(),
        Some(spec),
        Some(Duration::from_secs(45)),
    );
    press(&mut v, "m21飛打⏎");
    answered(&mut v);
    assert!(shown(&mut v, 100, 30).contains("○ 別解 ▲２一飛"));
    assert!(
        fake.log().iter().any(|l| l == "go mate 42000"),
        "{:?}",
        fake.log()
    );
}

#[test]
fn an_engine_answering_go_mate_with_bestmove_is_asked_again_by_a_timed_search() {
    // An engine kifview does not know by name, whose `go mate` is chess's mate-in-N: it
    // answers `bestmove`. The check is asked again as a timed search, and the mate read from
    // its line; its next mate searches are timed searches at once.
    let fake = Fake::new(
        "< go mate\n> bestmove G*2b\n< go\n> info depth 3 score mate 1 pv G*2b\n> bestmove G*2b\n",
    );
    let s = session();
    let mut v = solve_with(&s, tsume_drills(), Some(&fake));
    press(&mut v, "m21飛打⏎");
    answered(&mut v);
    let shot = shown(&mut v, 100, 30);
    assert!(
        shot.contains("余詰"),
        "the mate found by the timed search: {shot}"
    );
    assert_eq!(v.app.step_text(v.app.cur()), "△１二玉(11)");
    let gos: Vec<String> = fake
        .log()
        .into_iter()
        .filter(|l| l.starts_with("go"))
        .collect();
    assert_eq!(gos.len(), 2, "{gos:?}");
    assert!(gos[0].starts_with("go mate"), "{gos:?}");
    assert!(!gos[1].starts_with("go mate"), "{gos:?}");
}

#[test]
fn a_check_the_engine_finds_no_mate_after_shows_the_escape() {
    let fake = Fake::new("< go mate\n> checkmate nomate\n");
    let s = session();
    let mut v = solve_with(&s, tsume_drills(), Some(&fake));
    press(&mut v, "m12金打⏎");
    answered(&mut v);
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("× 不正解 ▲１二金"), "{shot}");
    assert!(shot.contains("以下 △同　玉"), "{shot}");
    assert!(shot.contains("△同　玉 で逃れ (不詰)"), "{shot}");
    v.app.train_settle();
    assert_eq!(
        attempts(&s.history),
        vec![("tsume".to_string(), false, Some("G*1b".to_string()))]
    );
}

#[test]
fn a_crashed_engine_is_said_and_the_move_judged_without_it() {
    let fake = Fake::new("< go mate\nexit 3\n");
    let s = session();
    let mut v = solve_with(&s, tsume_drills(), Some(&fake));
    press(&mut v, "m21飛打⏎");
    answered(&mut v);
    let shot = shown(&mut v, 200, 60); // wide: the note on one line
    assert!(shot.contains("× 不正解 ▲２一飛"), "{shot}");
    assert!(
        shot.contains(
            "詰将棋エンジンで詰みを確かめられません: Fake が止まりました (engine Fake exited"
        ),
        "{shot}"
    );
    assert!(
        !shot.contains("starts it again"),
        "research mode's hint: {shot}"
    );
    v.app.train_settle();
    assert_eq!(attempts(&s.history).len(), 1);
}

#[test]
fn a_hung_engine_is_not_waited_on_the_screen_answers_and_the_move_is_judged_at_its_limit() {
    // The mate search's limit (3 s): the driver stops the engine, then kills it.
    let fake = Fake::new("< go mate\nhang\n");
    let s = session();
    let mut v = solve_with(&s, tsume_drills(), Some(&fake));
    press(&mut v, "m21飛打⏎");
    assert!(asking(&v));
    // Keys are answered meanwhile: the source record opens, and stays open when the verdict
    // comes; coming back shows it.
    press(&mut v, "o");
    assert!(v.app.train().unwrap().away());
    answered(&mut v);
    assert!(v.app.train().unwrap().away());
    assert_eq!(v.app.source().path.as_deref(), Some(fixture().as_path()));
    press(&mut v, "o");
    assert!(!v.app.train().unwrap().away());
    let shot = shown(&mut v, 200, 60); // wide: the note on one line
    assert!(shot.contains("× 不正解 ▲２一飛"), "{shot}");
    assert!(
        shot.contains("詰将棋エンジンで詰みを確かめられません: Fake が止まりました (engine Fake did not answer"),
        "{shot}"
    );
}

#[test]
fn without_an_engine_a_move_off_the_record_is_judged_and_says_why() {
    let s = session();
    let mut v = solve_with(&s, tsume_drills(), None);
    press(&mut v, "m21飛打⏎");
    assert!(!asking(&v));
    let shot = shown(&mut v, 200, 60); // wide: the note on one line
    assert!(shot.contains("× 不正解 ▲２一飛"), "{shot}");
    assert!(
        shot.contains("詰将棋エンジンで詰みを確かめられません: エンジンを起動できません ("),
        "{shot}"
    );
}

/// A next-move set (ShogiHome writes every SFEN with move number 1): ▲ to move after ▲７六歩
/// △３四歩, the game's move 3; ５八玉 is not listed.
fn set_drills(dir: &Path) -> Vec<Box<dyn Drill>> {
    let json = serde_json::json!({
        "format": "shogihome-next-move",
        "version": 1,
        "problems": [{
            "sfen": "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1",
            "candidates": [{ "usi": "2g2f", "score": 60, "accepted": true, "pv": ["2g2f", "8c8d"] }],
            "actualMove": { "usi": "5i5h" },
            "source": { "path": dir.join("game.kif").display().to_string(), "ply": 3 }
        }]
    });
    let set = ProblemSet::from_json(&json.to_string()).unwrap();
    NextMove::from_set("set.json", &set)
        .unwrap()
        .into_iter()
        .map(|d| Box::new(d) as Box<dyn Drill>)
        .collect()
}

#[test]
fn a_wrong_move_the_set_does_not_list_gets_its_refutation_from_the_engine() {
    let fake = Fake::new(
        "< go\n> info depth 5 nodes 100 score cp 900 pv 2b8h+ 7i8h\n< stop\n> bestmove 2b8h+\n",
    );
    let s = session();
    let mut v = solve_with(&s, set_drills(s.dir.path()), Some(&fake));
    // The game's move 3: the position is after two moves.
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("手数＝2"), "{shot}");
    press(&mut v, "m58玉⏎");
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("× 不正解 ▲５八玉"), "at once: {shot}");
    answered(&mut v);
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("以下 △８八角成▲同　銀"), "{shot}");
    v.app.train_settle();
    assert_eq!(
        attempts(&s.history),
        vec![("next-move".to_string(), false, Some("5i5h".to_string()))],
        "the refutation writes nothing more"
    );
}

#[test]
fn tsume_in_the_solve_mode_at_three_sizes() {
    let fake = Fake::new("< go mate\n> checkmate G*2b\n");
    let s = session();
    let mut v = solve_with(&s, tsume_drills(), Some(&fake));
    insta::assert_snapshot!("tsume_problem_80x24", shown(&mut v, 80, 24));
    press(&mut v, "m21飛打⏎");
    answered(&mut v);
    insta::assert_snapshot!("tsume_yozume_120x40", shown(&mut v, 120, 40));
    press(&mut v, "m22金打⏎");
    insta::assert_snapshot!("tsume_solved_200x60", shown(&mut v, 200, 60));
    v.app.train_settle();
}

// ----- the binary -----

fn kifview(data: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("kifview").unwrap();
    c.env("KIFVIEW_DATA_DIR", data);
    c
}

fn stats(data: &Path) -> serde_json::Value {
    let o = kifview(data)
        .args(["train", "stats", "--json", "--now", "2026-12-01"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn a_folder_of_tsume_becomes_sources_counted_per_length_and_a_folder_without_is_refused() {
    let s = session();
    let data = s.dir.path().join("data");
    let folder = s.dir.path().join("tsume");
    std::fs::create_dir_all(folder.join("sub")).unwrap();
    std::fs::copy(fixture(), folder.join("sub/3te.kifu")).unwrap();
    std::fs::write(
        folder.join("game.kif"),
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n",
    )
    .unwrap();
    // No terminal: the sources are added, then it says what it needs.
    let o = kifview(&data)
        .args(["train", folder.to_str().unwrap(), "--now", "2026-12-01"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr_of(&o));
    assert!(
        stderr_of(&o).contains("1 record(s) or file(s) left out"),
        "{}",
        stderr_of(&o)
    );
    let st = stats(&data);
    assert_eq!(st["new"], 1, "{st}");
    let tags = st["tags"].to_string();
    assert!(tags.contains("3手詰"), "{st}");
    // With no source, the tsume is offered (read again from its file).
    let o = kifview(&data)
        .args(["train", "--now", "2026-12-01"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr_of(&o));
    // A folder with no tsume is refused, saying what a tsume is.
    let games = s.dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::copy(folder.join("game.kif"), games.join("game.kif")).unwrap();
    let o = kifview(&data)
        .args(["train", games.to_str().unwrap()])
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
fn an_index_filter_picks_the_tsume_among_its_games() {
    let s = session();
    let data = s.dir.path().join("data");
    let folder = s.dir.path().join("kifu");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(fixture(), folder.join("3te.kifu")).unwrap();
    std::fs::write(
        folder.join("game.kif"),
        "手合割：平手\n先手：甲\n後手：乙\n手数----指手---------消費時間--\n   1 ７六歩(77)\n",
    )
    .unwrap();
    let idx = s.dir.path().join("idx");
    let o = assert_cmd::Command::cargo_bin("kifview")
        .unwrap()
        .args(["index", folder.to_str().unwrap(), "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    let o = kifview(&data)
        .args([
            "train",
            "--index",
            idx.to_str().unwrap(),
            "--now",
            "2026-12-01",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr_of(&o));
    assert!(
        stderr_of(&o).contains("1 of the 2 game(s) the index gives are not tsume"),
        "{}",
        stderr_of(&o)
    );
    assert_eq!(stats(&data)["new"], 1);
    // A filter that leaves only the game: nothing to solve, said.
    let o = kifview(&data)
        .args(["train", "--index", idx.to_str().unwrap(), "--player", "甲"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr_of(&o).contains("none of the 1 game(s)"),
        "{}",
        stderr_of(&o)
    );
}

#[test]
fn a_copy_holding_some_of_a_sets_problems_is_a_set_too() {
    let s = session();
    let data = s.dir.path().join("data");
    let whole = serde_json::json!({
        "format": "shogihome-next-move",
        "version": 1,
        "title": "two",
        "problems": [
            {
                "sfen": "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1",
                "candidates": [{ "usi": "2g2f", "score": 60, "accepted": true }],
                "actualMove": { "usi": "5i5h" }
            },
            {
                "sfen": "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 1",
                "candidates": [{ "usi": "8c8d", "score": -50, "accepted": true }],
                "actualMove": { "usi": "8c8d" }
            }
        ]
    });
    let mut part = whole.clone();
    part["problems"].as_array_mut().unwrap().remove(0);
    let part_path = s.dir.path().join("part.json");
    std::fs::write(&part_path, part.to_string()).unwrap();
    let o = kifview(&data)
        .args(["train", part_path.to_str().unwrap(), "--now", "2026-12-01"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr_of(&o));
    let st = stats(&data);
    assert_eq!(st["new"], 1, "the copy's one problem: {st}");
    // Its problem is the whole set's second, under the same key.
    let text = std::fs::read_to_string(&part_path).unwrap();
    let set = ProblemSet::from_json(&text).unwrap();
    let whole_set = ProblemSet::from_json(&whole.to_string()).unwrap();
    assert_eq!(set.problems[0].key(), whole_set.problems[1].key());
    let d = NextMove::from_set("part.json", &set).unwrap();
    assert_eq!(d[0].title(), "次の一手 1/1");
}

// ----- the real mate engines -----

/// The test tsume three times on the real engine `name`: the record's answer (the engine not
/// asked), the other mate ▲２一飛打 (余詰: after its one defence △１二玉 the engine finds
/// ▲２二金打), and the wrong check ▲１二金打 whose escape △同玉 the engine does not mate.
/// Each mate search is given `mate_time`: long enough that no verdict depends on the
/// machine's load (gpsusi answers as soon as it proves a mate or none; a timed search takes
/// all of it).
fn three_verdicts_on(name: &str, mate_time: Duration) {
    let Some(spec) = crate::common::engine_or_skip(name) else {
        return;
    };
    let s = session();
    let drills = (0..3).flat_map(|_| tsume_drills()).collect();
    let mut v = solve_on(&s, drills, Some(spec), Some(mate_time));
    press(&mut v, "m21金打⏎");
    assert!(!asking(&v), "the record's move needs no engine");
    press(&mut v, "m22飛打⏎");
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("○ 正解 ▲２二飛"), "{shot}");
    assert!(v.app.train().unwrap().finished());

    press(&mut v, "n");
    press(&mut v, "m21飛打⏎");
    assert!(asking(&v), "{:?}", v.app.message());
    answered_within(&mut v, Duration::from_secs(300));
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("余詰"), "{name}: {shot}");
    assert_eq!(v.app.step_text(v.app.cur()), "△１二玉(11)", "{name}");
    press(&mut v, "m22金打⏎");
    assert!(v.app.train().unwrap().finished());

    press(&mut v, "n");
    press(&mut v, "m12金打⏎");
    answered_within(&mut v, Duration::from_secs(300));
    let shot = shown(&mut v, 100, 30);
    assert!(shot.contains("× 不正解 ▲１二金"), "{name}: {shot}");
    assert!(shot.contains("△同　玉"), "{name}: the escape shown: {shot}");
    v.app.train_settle();
    let verdicts: Vec<bool> = attempts(&s.history).iter().map(|a| a.1).collect();
    assert_eq!(verdicts, vec![true, true, false], "{name}");
    v.app.shutdown_engine();
}

#[test]
fn gpsusi_answers_go_mate_for_the_tsume_verdicts() {
    three_verdicts_on("gpsusi", Duration::from_secs(120));
}

#[test]
fn fairy_stockfish_gives_the_tsume_verdicts_by_a_timed_search() {
    three_verdicts_on("fairy-stockfish", Duration::from_secs(10));
}

#[test]
fn a_tsume_session_without_an_engine_named_takes_the_installed_mate_engine() {
    // No --engine and none configured: the tsume's checks go to gpsusi (a USI mate search),
    // not to fairy-stockfish, which kifview finds first among installed engines.
    let both = ["gpsusi", "fairy-stockfish"].map(crate::common::engine_or_skip);
    if both.iter().any(Option::is_none) {
        return;
    }
    use crate::pty::Session;
    let s = session();
    let data = s.dir.path().join("data");
    let bin = env!("CARGO_BIN_EXE_kifview");
    let f = fixture();
    let args = [
        "train",
        f.to_str().unwrap(),
        "--now",
        "2026-12-01T09:00:00Z",
        "--mate-time",
        "120000",
    ];
    let mut t = Session::start_with_env(bin, &args, &[("KIFVIEW_DATA_DIR", &data)], 24, 80);
    t.wait_for("詰将棋 3手");
    t.send("mR*2a\r");
    // The verdict: 余詰, gpsusi given 120 s (it answers once it finds the mate), so a busy
    // machine does not turn it into a move judged without the engine. Then which engine
    // was asked.
    let deadline = Instant::now() + Duration::from_secs(300);
    while !t.screen().contains("別解") {
        assert!(Instant::now() < deadline, "no verdict: {}", t.screen());
        t.pump(Duration::from_millis(200));
    }
    let said = String::from_utf8_lossy(&t.raw).into_owned();
    assert!(said.contains("gps"), "gpsusi named on the screen: {said}");
    assert!(!said.to_lowercase().contains("fairy"), "{said}");
    t.send("q");
    t.wait_exit();
}

// ----- 実戦詰め: `kifview problems tsume` -----

#[test]
fn problems_tsume_makes_tsume_from_games_ending_in_mate_that_train_solves() {
    let Some(gps) = crate::common::engine_or_skip("gpsusi") else {
        return;
    };
    let gps = gps.command.display().to_string();
    let s = session();
    let data = s.dir.path().join("data");
    let games = s.dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::copy(
        "tests/fixtures/training/jissen/game.kif",
        games.join("game.kif"),
    )
    .unwrap();
    std::fs::write(
        games.join("resigned.kif"),
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n",
    )
    .unwrap();
    let out = s.dir.path().join("jissen");
    let make = |data: &Path| {
        kifview(data)
            .args(["problems", "tsume", games.to_str().unwrap(), "-o"])
            .arg(&out)
            .args(["--engine", &gps, "--time", "30"])
            .output()
            .unwrap()
    };
    let o = make(&data);
    let err = stderr_of(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("3手詰 from move 3: wrote game-1-3.kifu"),
        "{err}"
    );
    assert!(
        err.contains("2 record(s), 1 ending in mate, 1 tsume written"),
        "{err}"
    );
    let text = std::fs::read_to_string(out.join("game-1-3.kifu")).unwrap();
    assert!(text.contains("作品名：実戦詰め 甲対乙 3手目から"), "{text}");
    assert!(text.contains("出典：game.kif (1局目) 2026/11/29"), "{text}");
    assert!(text.contains("手数：3"), "{text}");
    assert!(text.contains("1 ２一飛打"), "the game's finish: {text}");
    assert!(text.contains("   4 詰み"), "{text}");
    // The solve mode reads the folder as tsume: one, a 3手詰.
    let o = kifview(&data)
        .args(["train", out.to_str().unwrap(), "--now", "2026-12-01"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr_of(&o));
    let st = stats(&data);
    assert_eq!(st["new"], 1, "{st}");
    assert!(st["tags"].to_string().contains("3手詰"), "{st}");
    // Made again: the file there is kept, and said.
    let before = std::fs::read(out.join("game-1-3.kifu")).unwrap();
    std::fs::write(out.join("game-1-3.kifu"), "mine").unwrap();
    let o = make(&data);
    assert_eq!(o.status.code(), Some(1), "{}", stderr_of(&o));
    assert!(stderr_of(&o).contains("not written"), "{}", stderr_of(&o));
    assert_eq!(std::fs::read(out.join("game-1-3.kifu")).unwrap(), b"mine");
    assert!(!before.is_empty());
}

#[test]
fn problems_tsume_refuses_an_engine_without_a_usi_mate_search() {
    if crate::common::engine_or_skip("fairy-stockfish").is_none() {
        return;
    }
    let s = session();
    let o = kifview(&s.dir.path().join("data"))
        .args([
            "problems",
            "tsume",
            "tests/fixtures/training/jissen/game.kif",
            "-o",
        ])
        .arg(s.dir.path().join("out"))
        .args(["--engine", "fairy-stockfish"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr_of(&o));
    assert!(
        stderr_of(&o).contains("reads go mate as chess's mate-in-N"),
        "{}",
        stderr_of(&o)
    );
    assert!(!s.dir.path().join("out").exists(), "nothing made");
}

#[test]
fn problems_tsume_restarts_a_crashed_engine_and_goes_on_with_the_next_game() {
    // gpsusi aborts (SIGABRT) on some positions of the real corpus; the run named the crash
    // and stopped there. Now the game it crashed on is named with its position and skipped,
    // the engine is started again, and the next game is made.
    let s = session();
    let data = s.dir.path().join("data");
    let games = s.dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    for name in ["a.kif", "b.kif"] {
        std::fs::copy("tests/fixtures/training/jissen/game.kif", games.join(name)).unwrap();
    }
    let replay = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/engines/replay.sh");
    let hand = "< usi\n> id name Fake\n> usiok\n< isready\n> readyok\n";
    let crash = s.dir.path().join("crash");
    std::fs::write(&crash, format!("{hand}< go mate\nsignal ABRT\n")).unwrap();
    let mate = s.dir.path().join("mate");
    std::fs::write(
        &mate,
        format!(
            "{hand}< go mate\n> checkmate R*2a 1a1b G*2b\n< go mate\n> checkmate R*2a 1a1b G*2b\n"
        ),
    )
    .unwrap();
    // The first engine started crashes at its first search; every later one mates.
    let started = s.dir.path().join("started");
    let cmd = format!(
        "if [ -e '{m}' ]; then exec sh '{r}' '{ok}'; else touch '{m}'; exec sh '{r}' '{bad}'; fi",
        m = started.display(),
        r = replay.display(),
        ok = mate.display(),
        bad = crash.display()
    );
    let config = s.dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[[engines]]\nname = \"Fake\"\ncommand = \"/bin/sh\"\nargs = [\"-c\", {}]\n",
            serde_json::to_string(&cmd).unwrap()
        ),
    )
    .unwrap();
    let out = s.dir.path().join("jissen");
    let o = kifview(&data)
        .args(["problems", "tsume", games.to_str().unwrap(), "-o"])
        .arg(&out)
        .args(["--engine", "Fake", "--config", config.to_str().unwrap()])
        .args(["--min-plies", "3", "--max-plies", "3"])
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("a.kif (record 1): the engine failed on 8k/9/6N1l/9/p8/9/9/5K3/9 b"),
        "the game and position named: {err}"
    );
    assert!(err.contains("SIGABRT"), "{err}");
    assert!(
        err.contains("skipped; the engine is started again"),
        "{err}"
    );
    assert!(err.contains("wrote b-1-3.kifu"), "{err}");
    assert!(
        err.contains("2 record(s), 2 ending in mate, 1 tsume written"),
        "{err}"
    );
    assert!(
        err.contains("1 game(s) skipped because the engine failed"),
        "{err}"
    );
    assert!(out.join("b-1-3.kifu").exists());
    assert!(!out.join("a-1-3.kifu").exists());
}

#[test]
fn problems_tsume_never_sends_a_position_with_two_pawns_on_a_file() {
    // gpsusi aborts on a 二歩 position (the corpus's 9fu records end in one). The engine's
    // start-position check refuses it before it is sent: the game is said not confirmed, with
    // why, and the engine (here one that would abort) is never asked.
    let s = session();
    let games = s.dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let game = std::fs::read_to_string("tests/fixtures/training/jissen/game.kif")
        .unwrap()
        .replace("歩十八", "歩十六")
        .replace(
            "| ・ ・ ・ ・ ・ ・ 桂 ・v香|三",
            "| ・ ・ ・ ・v歩 ・ 桂 ・v香|三",
        )
        .replace(
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五",
            "| ・ ・ ・ ・v歩 ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五",
        );
    assert!(game.contains("v歩 ・ ・ ・ ・|四"), "{game}");
    std::fs::write(games.join("nifu.kif"), game).unwrap();
    let replay = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/engines/replay.sh");
    let script = s.dir.path().join("abort");
    std::fs::write(
        &script,
        "< usi\n> id name Fake\n> usiok\n< isready\n> readyok\n< go mate\nsignal ABRT\n",
    )
    .unwrap();
    let config = s.dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[[engines]]\nname = \"Fake\"\ncommand = \"/bin/sh\"\nargs = [{}, {}]\n",
            serde_json::to_string(&replay.display().to_string()).unwrap(),
            serde_json::to_string(&script.display().to_string()).unwrap()
        ),
    )
    .unwrap();
    let o = kifview(&s.dir.path().join("data"))
        .args(["problems", "tsume", games.to_str().unwrap(), "-o"])
        .arg(s.dir.path().join("jissen"))
        .args(["--engine", "Fake", "--config", config.to_str().unwrap()])
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(1), "nothing written: {err}");
    assert!(
        err.contains("nifu.kif (record 1): no finish confirmed (3手: not sent to the engine: 二歩: gote has 2 pawns on file 5)"),
        "{err}"
    );
    assert!(
        !err.contains("SIGABRT") && !err.contains("failed on"),
        "{err}"
    );
}
