//! Guess-the-move (棋譜並べ) and the repertoire drill in the solve mode, driven by keys through
//! the whole app and drawn into a TestBackend: guesses that hit the record's move, miss it
//! (a near miss by the analysis's loss) and the summary; a repertoire line with a hit, a miss
//! and the opponent's reply fixed by the seed; each attempt read back from the history. Then
//! the real binary in a terminal: `kifview train --guess` on one day and what is due the next,
//! and `kifview train --repertoire BOOK --seed N` with the book's counts.

use super::solve::{kifview, shown};
use crate::common::{press, stderr_of, viewer_with};
use kifview::app::train::TrainOptions;
use kifview::app::{LaunchOptions, Mode};
use kifview::core::notation;
use kifview::core::record::Record;
use kifview::core::rules::{Color, Move, Position};
use kifview::core::seeded::SplitMix;
use kifview::training::drill::Drill;
use kifview::training::guess::{Ask, Guess};
use kifview::training::history::parse_now;
use kifview::training::repertoire_drill::{RepertoireDrill, TreeLines};
use kifview::tui::Viewer;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// ▲７六歩 △３四歩 ▲２六歩 △８四歩, analysed at the start (best ▲２六歩; ▲７六歩 +40,
/// ▲５八玉 −120, ▲１六歩 −400) and after △３四歩 (best ▲２六歩).
const ANALYSED: &str = include_str!("../../fixtures/training/guess-analysed.kif");

/// A repertoire for sente as a record: ▲７六歩, then △３四歩 (▲２六歩 △８四歩 ▲２五歩) or
/// △８四歩 (▲６八銀).
const REPERTOIRE: &str = "手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)+
   3 ２六歩(27)
   4 ８四歩(83)
   5 ２五歩(26)

変化：2手
   2 ８四歩(83)
   3 ６八銀(79)
";

/// A YaneuraOu book for sente with counts: ▲７六歩 (10) / ▲２六歩 (1); △３四歩 (3) / △８四歩
/// (1); then ▲２六歩 (2) or ▲６八銀 (1); its positions sorted as YaneuraOu sorts them.
fn book_text() -> String {
    type Entry<'a> = (&'a [&'a str], &'a [(&'a str, u32)]);
    let entries: [Entry; 4] = [
        (&[], &[("7g7f", 10), ("2g2f", 1)]),
        (&["7g7f"], &[("3c3d", 3), ("8c8d", 1)]),
        (&["7g7f", "3c3d"], &[("2g2f", 2)]),
        (&["7g7f", "8c8d"], &[("7i6h", 1)]),
    ];
    let mut positions: Vec<String> = entries
        .iter()
        .map(|(line, moves)| {
            let mut p = Position::startpos();
            for m in *line {
                p.play(mv(m)).unwrap();
            }
            let mut text = format!("sfen {}\n", p.to_sfen());
            for (m, count) in *moves {
                text.push_str(&format!("{m} none 0 0 {count}\n"));
            }
            text
        })
        .collect();
    positions.sort();
    format!("#YANEURAOU-DB2016 1.00\n{}", positions.concat())
}

fn record(text: &str) -> Record {
    notation::load(text.as_bytes(), Some(Path::new("g.kif")))
        .records
        .remove(0)
        .record
}

fn mv(u: &str) -> Move {
    Move::from_usi(u).unwrap()
}

fn train(drills: Vec<Box<dyn Drill>>, history: &Path) -> Viewer {
    viewer_with(&LaunchOptions {
        train: Some(TrainOptions {
            drills,
            history: history.to_path_buf(),
            now: Some(parse_now("2026-12-01T09:00:00Z").unwrap()),
            summary: Some("due: 0, new: 2".into()),
            mate_time: None,
        }),
        ..Default::default()
    })
}

/// Guess-the-move of [`ANALYSED`] for sente, as if read from `path`.
fn guessing(path: &str, history: &Path) -> Viewer {
    let g = Guess::new(
        Path::new(path),
        path,
        1,
        &record(ANALYSED),
        &Ask::Side(Color::Black),
    )
    .unwrap();
    train(vec![Box::new(g)], history)
}

/// The attempts written, oldest first: (problem key, correct, answer).
fn attempts(history: &Path) -> Vec<(String, bool, Option<String>)> {
    let db = rusqlite::Connection::open(history).unwrap();
    let mut st = db
        .prepare(
            "SELECT p.key, a.correct, a.answer FROM attempts a JOIN problems p ON p.id = a.problem_id
             ORDER BY a.id",
        )
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

#[test]
fn guess_a_near_miss_then_the_game_s_move_and_the_summary_each_guess_written() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("training.sqlite");
    let mut v = guessing("/games/g.kif", &history);
    assert_eq!(v.app.mode(), Mode::Train);
    let s = shown(&mut v, 120, 40);
    assert!(s.contains("棋譜並べ g.kif 1手目/4"), "{s}");
    assert!(s.contains("☗先手の番"), "{s}");
    // A miss: the record played ▲７六歩 (and gote's reply comes at once); the analysis
    // scored ▲５八玉 about 7 % below its best: a near miss.
    press(&mut v, "m58玉⏎");
    let s = shown(&mut v, 120, 40);
    assert!(s.contains("× 不正解 ▲５八玉"), "{s}");
    assert!(s.contains("1手目: 棋譜の手は ▲７六歩"), "{s}");
    assert!(s.contains("解析: 最善 ▲２六歩, あなたの手 −7.1 %"), "{s}");
    assert!(s.contains("進行: ▲７六歩△３四歩"), "{s}");
    assert!(s.contains("棋譜並べ g.kif 3手目/4"), "{s}");
    assert_eq!(
        v.app.cur_index(),
        2,
        "the board is after the record's moves"
    );
    // A hit: the game's move; the record is over, the summary comes.
    press(&mut v, "m26歩⏎");
    let s = shown(&mut v, 120, 40);
    assert!(s.contains("○ 正解 ▲２六歩"), "{s}");
    assert!(s.contains("棋譜並べ終了: 成績"), "{s}");
    assert!(
        s.contains("一致 1/2 (50 %) · 最善・好手 0 · 惜しい 1 · 外れ 0"),
        "{s}"
    );
    assert!(s.contains("惜しい: 1手目 ▲５八玉 (−7.1 %)"), "{s}");
    v.app.train_settle();
    assert_eq!(
        attempts(&history),
        vec![
            ("1:0".to_string(), false, Some("5i5h".to_string())),
            ("1:2".to_string(), true, Some("2g2f".to_string())),
        ]
    );
}

#[test]
fn guess_the_analysis_s_best_is_another_good_move_and_o_opens_the_game_there() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("g.kif");
    std::fs::write(&game, ANALYSED).unwrap();
    let history = dir.path().join("training.sqlite");
    let mut v = guessing(game.to_str().unwrap(), &history);
    press(&mut v, "m2g2f⏎");
    let s = shown(&mut v, 120, 40);
    assert!(s.contains("別解"), "{s}");
    // o: the game itself, at the position guessed next (after two moves).
    press(&mut v, "o");
    assert_eq!(v.app.source().path.as_deref(), Some(game.as_path()));
    assert_eq!(v.app.cur_index(), 2);
    press(&mut v, "o");
    assert_eq!(v.app.mode(), Mode::Train);
    v.app.train_settle();
    assert_eq!(
        attempts(&history),
        vec![("1:0".to_string(), true, Some("2g2f".to_string()))]
    );
}

/// The first seed from 0 whose first draw between two moves of weight 1 is `which`.
fn seed_drawing(which: usize) -> u64 {
    (0..)
        .find(|&s| SplitMix::new(s).pick(&[1, 1]) == Some(which))
        .unwrap()
}

fn drilling(seed: u64, history: &Path) -> Viewer {
    let lines = Arc::new(TreeLines(
        kifview::collection::repertoire::Tree::from_record(&record(REPERTOIRE)),
    ));
    let d = RepertoireDrill::new(
        lines,
        PathBuf::from("/books/rep.kif"),
        "/books/rep.kif",
        Color::Black,
        Position::startpos(),
        seed,
    )
    .unwrap();
    train(vec![Box::new(d)], history)
}

#[test]
fn repertoire_a_hit_a_miss_and_the_opponent_s_reply_fixed_by_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("training.sqlite");
    // The seed that draws △８四歩 (the variation): the reply shown and played.
    let mut v = drilling(seed_drawing(1), &history);
    press(&mut v, "m76歩⏎");
    let s = shown(&mut v, 120, 40);
    assert!(s.contains("○ 正解 ▲７六歩"), "{s}");
    assert!(s.contains("相手の応手: △８四歩"), "{s}");
    // The seed that draws △３四歩 (the main line).
    let mut v = drilling(seed_drawing(0), &history);
    let s = shown(&mut v, 120, 40);
    assert!(
        s.contains("定跡 rep.kif (先手)") && s.contains("☗先手の番"),
        "{s}"
    );
    press(&mut v, "m76歩⏎");
    let s = shown(&mut v, 120, 40);
    assert!(s.contains("相手の応手: △３四歩"), "{s}");
    // A miss: the repertoire's move is shown and played, the line goes on.
    press(&mut v, "m58玉⏎");
    let s = shown(&mut v, 120, 40);
    assert!(s.contains("× 不正解 ▲５八玉"), "{s}");
    assert!(s.contains("3手目: 定跡の手は ▲２六歩 (1)"), "{s}");
    assert!(s.contains("相手の応手: △８四歩"), "{s}");
    press(&mut v, "m25歩⏎");
    let s = shown(&mut v, 120, 40);
    assert!(s.contains("○ 正解 ▲２五歩"), "{s}");
    assert!(s.contains("定跡どおり 2/3手"), "{s}");
    assert!(s.contains("手順終了: 定跡に相手の応手がありません"), "{s}");
    assert!(v.app.train().unwrap().finished());
    v.app.train_settle();
    let a = attempts(&history);
    assert_eq!(
        a.iter().map(|x| (x.1, x.2.as_deref())).collect::<Vec<_>>(),
        vec![
            (true, Some("7g7f")),
            (true, Some("7g7f")),
            (false, Some("5i5h")),
            (true, Some("2f2e"))
        ]
    );
    // Each attempt's problem is the position it was played in.
    assert_eq!(
        a[0].0,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"
    );
    assert_eq!(a[0].0, a[1].0, "the same position, the same problem");
}

#[test]
fn guess_and_repertoire_at_three_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("training.sqlite");
    let mut v = guessing("/games/2026/g.kif", &history);
    press(&mut v, "m58玉⏎");
    insta::assert_snapshot!("guess_miss_80x24", shown(&mut v, 80, 24));
    press(&mut v, "m26歩⏎");
    insta::assert_snapshot!("guess_summary_80x24", shown(&mut v, 80, 24));
    insta::assert_snapshot!("guess_summary_120x40", shown(&mut v, 120, 40));
    insta::assert_snapshot!("guess_summary_200x60", shown(&mut v, 200, 60));
    let mut v = drilling(seed_drawing(0), &history);
    press(&mut v, "m76歩⏎m58玉⏎");
    insta::assert_snapshot!("repertoire_miss_80x24", shown(&mut v, 80, 24));
    insta::assert_snapshot!("repertoire_miss_120x40", shown(&mut v, 120, 40));
    insta::assert_snapshot!("repertoire_miss_200x60", shown(&mut v, 200, 60));
    v.app.train_settle();
}

// ----- the binary -----

#[test]
fn kifview_train_guess_and_repertoire_say_what_is_wrong_without_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let game = dir.path().join("g.kif");
    std::fs::write(&game, ANALYSED).unwrap();
    let g = game.to_str().unwrap();
    let o = kifview(&data)
        .args(["train", "--repertoire", g])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr_of(&o).contains("--side sente or --side gote"),
        "{}",
        stderr_of(&o)
    );
    let o = kifview(&data)
        .args(["train", "--guess", g, "--record", "2"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr_of(&o).contains("--record 2: the file holds 1 record"),
        "{}",
        stderr_of(&o)
    );
    // Added to the history (its two sente moves new), then refused for want of a terminal.
    let o = kifview(&data)
        .args(["train", "--guess", g, "--side", "sente"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr_of(&o));
    let o = kifview(&data)
        .args(["train", "stats", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["new"], 2, "{v}");
    // The same file as a repertoire: refused, it is a guess source.
    let o = kifview(&data)
        .args(["train", "--repertoire", g, "--side", "sente"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr_of(&o).contains("already a source of kind guess"),
        "{}",
        stderr_of(&o)
    );
}

#[test]
fn pty_guess_on_one_day_and_the_missed_move_due_the_next() {
    use crate::pty::Session;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let game = dir.path().join("g.kif");
    std::fs::write(&game, ANALYSED).unwrap();
    let bin = env!("CARGO_BIN_EXE_kifview");
    let g = game.to_str().unwrap();
    let env = [("KIFVIEW_DATA_DIR", data.as_path())];
    let day1 = [
        "train",
        "--guess",
        g,
        "--side",
        "sente",
        "--now",
        "2026-12-01T09:00:00Z",
    ];
    let mut s = Session::start_with_env(bin, &day1, &env, 24, 80);
    s.wait_for("棋譜並べ g.kif 1手目/4");
    s.send("m1g1f\r");
    s.wait_for("不正解");
    s.send("m2g2f\r");
    s.wait_for("棋譜並べ終了");
    s.send("q");
    s.wait_exit();
    // A day later the missed move is due, alone (the move guessed right waits about three
    // days): the replay asks it.
    let day2 = ["train", "--now", "2026-12-02T12:00:00Z"];
    let mut s = Session::start_with_env(bin, &day2, &env, 24, 80);
    s.wait_for("due: 1, new: 0");
    s.wait_for("棋譜並べ g.kif 1手目/4");
    s.send("q");
    s.wait_exit();
}

#[test]
fn pty_repertoire_from_a_book_the_reply_drawn_by_count_with_the_seed() {
    use crate::pty::Session;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let book = dir.path().join("mine.db");
    std::fs::write(&book, book_text()).unwrap();
    let bin = env!("CARGO_BIN_EXE_kifview");
    // The seed whose first draw among △３四歩 (3) and △８四歩 (1) is the rare one.
    let seed = (0..)
        .find(|&s| SplitMix::new(s).pick(&[3, 1]) == Some(1))
        .unwrap()
        .to_string();
    let args = [
        "train",
        "--repertoire",
        book.to_str().unwrap(),
        "--side",
        "sente",
        "--lines",
        "1",
        "--seed",
        &seed,
    ];
    let cache = dir.path().join("cache");
    let env = [
        ("KIFVIEW_DATA_DIR", data.as_path()),
        ("XDG_CACHE_HOME", cache.as_path()),
    ];
    let mut s = Session::start_with_env(bin, &args, &env, 24, 80);
    s.wait_for("定跡 mine.db (先手)");
    s.send("m5i5h\r");
    s.wait_for("定跡の手は ▲７六歩 (10),");
    s.wait_for("相手の応手: △８四歩");
    s.send("m7i6h\r");
    s.wait_for("手順終了");
    s.send("q");
    s.wait_exit();
}
