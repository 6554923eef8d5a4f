//! Following a file (`--watch`, `F`): reloads keep the user's place, follow the end only when
//! the user was there, and a half-written file does not throw the user away.

use kifview::app::{App, Config, KeyEvent, LaunchOptions, Level, document::watch};
use std::path::{Path, PathBuf};

const HEAD: &str = "先手：甲\n後手：乙\n手数----指手---------消費時間--\n";
const MOVES: [&str; 6] = [
    "   1 ７六歩(77)\n",
    "   2 ３四歩(33)\n",
    "   3 ２六歩(27)\n",
    "   4 ８四歩(83)\n",
    "   5 ２五歩(26)\n",
    "   6 ８五歩(84)\n",
];

/// A KIF file with the first `n` main-line moves.
fn kif(n: usize) -> String {
    let mut s = HEAD.to_string();
    for m in &MOVES[..n] {
        s.push_str(m);
    }
    s
}

/// `n` main-line moves and, at ply 2, the alternative △８四歩 ▲２六歩 (plus `extra` more
/// moves of it).
fn kif_with_branch(n: usize, extra: &str) -> String {
    let mut s = HEAD.to_string();
    for (i, m) in MOVES[..n].iter().enumerate() {
        if i == 1 {
            s.push_str(&m.replace('\n', "+\n"));
        } else {
            s.push_str(m);
        }
    }
    s.push_str("\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n");
    s.push_str(extra);
    s
}

fn open(path: &Path) -> App {
    let opts = LaunchOptions {
        file: Some(path.to_path_buf()),
        watch: true,
        ..LaunchOptions::default()
    };
    let mut a = App::open(&opts, Config::defaults()).unwrap();
    watch::start(&mut a);
    assert!(a.watch().is_some());
    a
}

fn keys(a: &mut App, s: &str) {
    for c in s.chars() {
        a.handle_key(KeyEvent::char(c));
    }
}

fn message(a: &App) -> String {
    a.message()
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

fn file(dir: &tempfile::TempDir, text: &str) -> PathBuf {
    let p = dir.path().join("live.kifu");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn at_the_end_follows_the_newest_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, &kif(2));
    let mut a = open(&path);
    assert_eq!(
        message(&a),
        "following live.kifu: reloads when it changes (F stops)"
    );
    // Issue 12: a followed broadcast opens at its newest move.
    assert_eq!(a.cur_index(), 2, "--watch opens at the end");
    assert!(!watch::tick(&mut a), "nothing changed yet");
    std::fs::write(&path, kif(4)).unwrap();
    assert!(watch::tick(&mut a));
    assert_eq!(a.cur_index(), 4);
    assert_eq!(a.step_text(a.cur()), "△８四歩(83)");
    assert_eq!(message(&a), "reloaded: 2 new moves");
    std::fs::write(&path, kif(5)).unwrap();
    watch::tick(&mut a);
    assert_eq!(a.cur_index(), 5);
    assert_eq!(message(&a), "reloaded: 1 new move");
    assert!(a.watch().is_some(), "still following");
    // Not while the copy menu (or any prompt or list) is open; right after it closes.
    keys(&mut a, "y");
    std::fs::write(&path, kif(6)).unwrap();
    assert!(!watch::tick(&mut a));
    assert_eq!(a.mode(), kifview::app::Mode::Copy);
    assert_eq!(a.cur_index(), 5);
    a.handle_key(KeyEvent::plain(kifview::app::KeyCode::Esc));
    assert!(watch::tick(&mut a));
    assert_eq!(a.cur_index(), 6);
}

#[test]
fn elsewhere_the_user_keeps_the_ply_and_the_alternative() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, &kif_with_branch(3, ""));
    let mut a = open(&path);
    // Ply 2, the alternative △８四歩.
    keys(&mut a, "gllj");
    assert_eq!(a.step_text(a.cur()), "△８四歩(83)");
    kifview::app::testing::run_until(&mut a, kifview::app::Command::FlipBoard, 2, |a| a.flipped());
    // The main line grows: the user stays on the alternative at ply 2.
    std::fs::write(&path, kif_with_branch(5, "")).unwrap();
    assert!(watch::tick(&mut a));
    assert_eq!(a.cur_index(), 2);
    assert_eq!(a.step_text(a.cur()), "△８四歩(83)");
    assert_eq!(a.line().len(), 4, "the line shown is still the alternative");
    assert!(a.flipped());
    assert_eq!(message(&a), "reloaded: 2 new moves (G goes to the end)");
    // At the end of the alternative, moves added to it are followed.
    keys(&mut a, "G");
    assert_eq!(a.cur_index(), 3);
    std::fs::write(&path, kif_with_branch(5, "   4 ８五歩(84)\n")).unwrap();
    watch::tick(&mut a);
    assert_eq!(a.cur_index(), 4);
    assert_eq!(a.step_text(a.cur()), "△８五歩(84)");
    assert_eq!(message(&a), "reloaded: 1 new move");
}

#[test]
fn a_rewritten_line_keeps_the_part_that_still_exists() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, &kif(5));
    let mut a = open(&path);
    keys(&mut a, "gllll");
    // The writer took back moves 3-5 and played something else at 3.
    std::fs::write(&path, format!("{}   3 ６六歩(67)\n", kif(2))).unwrap();
    watch::tick(&mut a);
    assert_eq!(a.cur_index(), 2);
    assert_eq!(a.step_text(a.cur()), "△３四歩(33)");
    assert_eq!(message(&a), "reloaded: 2 moves fewer");
}

#[test]
fn a_half_written_file_keeps_the_last_good_state() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, &kif(4));
    let mut a = open(&path);
    keys(&mut a, "gll");
    // A move line cut in the middle: the reader warns.
    std::fs::write(&path, format!("{}   5 ２", kif(4))).unwrap();
    assert!(watch::tick(&mut a));
    let m = a.message().cloned().unwrap();
    assert_eq!(m.level, Level::Warning);
    assert_eq!(
        m.text,
        "live.kifu is being written (1 warning); showing the last good state"
    );
    assert_eq!(a.record().len(), 5);
    assert!(a.source().warnings.is_empty());
    assert_eq!(a.cur_index(), 2);
    // Finished: the new move arrives, the place is kept.
    std::fs::write(&path, kif(5)).unwrap();
    watch::tick(&mut a);
    assert_eq!(a.record().len(), 6);
    assert!(a.source().warnings.is_empty());
    assert_eq!(a.cur_index(), 2);
    assert_eq!(message(&a), "reloaded: 1 new move (G goes to the end)");
    // A file that stays broken is shown after a few checks, with its warnings.
    std::fs::write(&path, format!("{}   6 ８", kif(5))).unwrap();
    let mut checks = 0;
    while a.source().warnings.is_empty() {
        assert!(checks < 20, "never shown");
        watch::tick(&mut a);
        checks += 1;
    }
    assert!(checks > 1, "{checks}");
    assert_eq!(a.record().len(), 6);
    assert!(
        message(&a).contains("1 warning (W lists them)"),
        "{}",
        message(&a)
    );
    // Then nothing more happens until the file changes again.
    assert!(!watch::tick(&mut a));
}

#[test]
fn unsaved_changes_are_not_thrown_away() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, &kif(2));
    let mut a = open(&path);
    touch(&mut a);
    std::fs::write(&path, kif(4)).unwrap();
    assert!(watch::tick(&mut a));
    assert_eq!(a.record().len(), 3);
    assert!(message(&a).contains("not reloaded because of unsaved changes"));
    assert!(!watch::tick(&mut a), "said once");
}

#[test]
fn a_vanished_file_is_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, &kif(2));
    let mut a = open(&path);
    std::fs::remove_file(&path).unwrap();
    assert!(!watch::tick(&mut a));
    assert_eq!(a.record().len(), 3);
    std::fs::write(&path, kif(3)).unwrap();
    assert!(watch::tick(&mut a));
    assert_eq!(a.record().len(), 4);
}

#[test]
fn f_toggles_following_and_e_moves_it_to_the_new_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, &kif(2));
    let opts = LaunchOptions {
        file: Some(path.clone()),
        ..LaunchOptions::default()
    };
    let mut a = App::open(&opts, Config::defaults()).unwrap();
    assert!(a.watch().is_none());
    keys(&mut a, "F");
    assert!(a.watch().is_some());
    keys(&mut a, "F");
    assert!(a.watch().is_none());
    assert_eq!(message(&a), "stopped following live.kifu");
    keys(&mut a, ":watch");
    a.handle_key(KeyEvent::plain(kifview::app::KeyCode::Enter));
    assert!(a.watch().is_some());

    let other = dir.path().join("other.kifu");
    std::fs::write(&other, kif(1)).unwrap();
    keys(&mut a, &format!(":e {}", other.display()));
    a.handle_key(KeyEvent::plain(kifview::app::KeyCode::Enter));
    assert_eq!(a.watch().as_ref().unwrap().path, other);
    std::fs::write(&other, kif(3)).unwrap();
    keys(&mut a, "G");
    watch::tick(&mut a);
    assert_eq!(a.cur_index(), 3);

    // A record with no file behind it cannot be followed.
    let mut n = App::open(&LaunchOptions::default(), Config::defaults()).unwrap();
    keys(&mut n, "F");
    assert!(n.watch().is_none());
    assert_eq!(message(&n), "[new] is not a file: nothing to follow");
}

#[test]
fn saving_as_another_file_stops_following_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, &kif(2));
    let mut a = open(&path);
    // A copy keeps following; :saveas moves the session to the new file.
    let copy = dir.path().join("copy.kifu");
    keys(&mut a, &format!(":w {}", copy.display()));
    a.handle_key(KeyEvent::plain(kifview::app::KeyCode::Enter));
    assert!(copy.exists() && a.watch().is_some(), "{}", message(&a));
    let other = dir.path().join("other.kifu");
    keys(&mut a, &format!(":saveas {}", other.display()));
    a.handle_key(KeyEvent::plain(kifview::app::KeyCode::Enter));
    assert!(other.exists(), "{}", message(&a));
    assert!(a.watch().is_none());
    // The old file changing does not touch the session.
    std::fs::write(&path, kif(5)).unwrap();
    assert!(!watch::tick(&mut a));
    assert_eq!(a.source().name, "other.kifu");
}

/// Makes an edit, so the record holds something that is on no disk.
fn touch(a: &mut kifview::app::App) {
    let edit = kifview::core::record::Edit::SetComment {
        node: kifview::core::record::NodeId::ROOT,
        text: "edited".into(),
    };
    kifview::app::testing::apply(a, edit).unwrap();
}
