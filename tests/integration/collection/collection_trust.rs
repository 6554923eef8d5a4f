//! Issue 31, the index's own files: an index folder is kifview's only when it says so (and
//! kifview removes only what the index names), damage is detected and repaired, a killed or
//! concurrent update never leaves readers without an answer, and every answer reads one
//! snapshot of the catalog.

use assert_cmd::Command;
use kifview::collection::{Filter, Index, update};
use kifview::core::rules::Position;
use std::path::Path;

use crate::collection::collection_stop::collection;
use crate::common;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

/// `n` one-game files in `root/coll` ([`collection`]), indexed in `root/idx`.
fn indexed(root: &Path, n: usize) -> (std::path::PathBuf, std::path::PathBuf) {
    let coll = collection(root, n);
    let idx = root.join("idx");
    update_into(&coll, &idx);
    (coll, idx)
}

/// Indexes `coll` into `idx` (in this process).
fn update_into(coll: &Path, idx: &Path) {
    update(idx, &[coll.to_path_buf()], Default::default(), &|_, _| {}).unwrap();
}

/// `kifview index --check --index IDX`.
fn check_cli(idx: &Path) -> std::process::Output {
    kifview()
        .args(["index", "--check", "--index"])
        .arg(idx)
        .output()
        .unwrap()
}

fn index_cli(paths: &[&Path], idx: &Path) -> std::process::Output {
    index_cmd(paths, idx, &[]).output().unwrap()
}

/// `kifview index PATHS --index IDX EXTRA`.
fn index_cmd(paths: &[&Path], idx: &Path, extra: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_kifview"));
    c.arg("index")
        .args(paths)
        .arg("--index")
        .arg(idx)
        .args(extra);
    c
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Files a user keeps that look like an index's (the names the fault run lost).
const USERS: [&str; 6] = [
    "tmp-notes.txt",
    "tmp-game.kifu",
    "pos-7.bin",
    "moves-x.bin",
    "games.bin.txt",
    "catalog.sqlite.bak",
];

fn put_users_files(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for n in USERS {
        std::fs::write(dir.join(n), format!("the user's {n}")).unwrap();
    }
}

fn users_files_intact(dir: &Path) {
    for n in USERS {
        assert_eq!(
            std::fs::read_to_string(dir.join(n)).ok(),
            Some(format!("the user's {n}")),
            "{n} in {}",
            dir.display()
        );
    }
}

fn start_count(idx: &Path) -> u64 {
    Index::open(idx)
        .unwrap()
        .explore(&Position::startpos(), &Filter::default())
        .unwrap()
        .games
}

/// Point 1: `kifview index . --index .` and `--index ~` deleted the user's `tmp-*`, `pos-*`
/// … files. A non-empty folder that is not an index is refused, and nothing in it changes.
#[test]
fn an_index_into_a_folder_of_other_files_is_refused_and_deletes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 3);
    // The collection itself as the index folder, with the user's files in it.
    put_users_files(&coll);
    let before = names(&coll);
    let out = index_cli(&[&coll], &coll);
    let err = common::stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("not a kifview index") && err.contains("empty folder"),
        "{err}"
    );
    assert_eq!(names(&coll), before);
    users_files_intact(&coll);
    // A home-like folder with only the user's files.
    let home = dir.path().join("home");
    put_users_files(&home);
    let out = index_cli(&[&coll], &home);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr_of(&out));
    assert_eq!(names(&home).len(), USERS.len());
    users_files_intact(&home);
}

/// Point 1: in a folder that is an index, the user's files that look like the index's stay
/// through a first build, updates, a rebuild and a compaction: only files the index names
/// are removed.
#[test]
fn an_index_removes_only_the_files_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 6);
    let idx = dir.path().join("idx");
    let out = index_cli(&[&coll], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    put_users_files(&idx);
    // An update with games forgotten (a compaction), then one with a new file.
    for i in 0..4 {
        std::fs::remove_file(coll.join(format!("g{i}.csa"))).unwrap();
    }
    let out = index_cli(&[&coll], &idx);
    let err = common::stderr_of(&out);
    assert!(out.status.success() && err.contains("compacted"), "{err}");
    users_files_intact(&idx);
    // A rebuild (the catalog of another version).
    let db = rusqlite::Connection::open(idx.join("catalog.sqlite")).unwrap();
    db.execute(
        "UPDATE meta SET value = 'kifview-collection-0' WHERE key = 'format'",
        [],
    )
    .unwrap();
    drop(db);
    let out = index_cli(&[&coll], &idx);
    let err = common::stderr_of(&out);
    assert!(out.status.success() && err.contains("rebuilt"), "{err}");
    users_files_intact(&idx);
    assert_eq!(start_count(&idx), 2);
}

/// Point 1: an index made before the marker (no marker file, a catalog of kifview's schema)
/// is still kifview's: updated (here rebuilt, being of an older version), with a message.
#[test]
fn an_index_made_before_the_marker_is_recognised() {
    let dir = tempfile::tempdir().unwrap();
    let (coll, idx) = indexed(dir.path(), 4);
    let marker = idx.join(kifview::collection::build::MARKER);
    std::fs::remove_file(&marker).unwrap();
    let db = rusqlite::Connection::open(idx.join("catalog.sqlite")).unwrap();
    db.execute(
        "UPDATE meta SET value = 'kifview-collection-2' WHERE key = 'format'",
        [],
    )
    .unwrap();
    drop(db);
    let out = index_cli(&[&coll], &idx);
    let err = common::stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("rebuilt") && err.contains("another version"),
        "{err}"
    );
    assert!(marker.is_file());
    assert_eq!(start_count(&idx), 4);
    // No segment of the old index is left: the old catalog named them.
    assert!(
        names(&idx).iter().filter(|n| n.starts_with("pos-")).count() == 1,
        "{:?}",
        names(&idx)
    );
}

/// `c` (a `kifview index`) with the debug build's test hooks in `env`, run until it
/// says `pause` on stderr; returns the child, paused (for the test to kill).
fn index_paused(
    mut c: std::process::Command,
    env: &[(&str, &str)],
    pause: &str,
) -> std::process::Child {
    use std::io::BufRead;
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.stderr(std::process::Stdio::piped()).spawn().unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        let n = err.read_line(&mut line).unwrap();
        seen.push_str(&line);
        if line.contains(pause) {
            break;
        }
        assert!(n > 0, "kifview index ended before its pause: {seen}");
    }
    child
}

/// What the CLI's queries answer: `games` (how many), `explore` at the start (how many).
fn cli_counts(idx: &Path) -> Result<(usize, u64), String> {
    let out = kifview()
        .args(["games", "--json", "--index"])
        .arg(idx)
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(common::stderr_of(&out));
    }
    let games = String::from_utf8_lossy(&out.stdout).lines().count();
    let out = kifview()
        .args(["explore", "--json", "--position", "startpos", "--index"])
        .arg(idx)
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(common::stderr_of(&out));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    Ok((games, v["games"].as_u64().unwrap()))
}

/// Point 4: an update killed (SIGKILL) in the middle of a step, its changes already in the
/// catalog file (a hot journal beside it): every reader reads the last committed state. Before,
/// `find`, `explore`, `games`, the explorer and the library failed with "attempt to write a
/// readonly database" until the next update.
#[test]
fn an_update_killed_inside_a_step_leaves_the_last_committed_state_readable() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 10);
    let idx = dir.path().join("idx");
    // Batches of 2 files: step 1 is files 1-2, step 2 files 3-6; killed inside step 2 with its
    // rows written to the catalog file.
    let mut child = index_paused(
        index_cmd(&[&coll], &idx, &[]),
        &[
            ("KIFVIEW_TEST_BATCH", "2"),
            ("KIFVIEW_TEST_PAUSE_IN_STEP", "2"),
        ],
        "test pause in step 2",
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let journal = std::fs::read(idx.join("catalog.sqlite-journal")).unwrap_or_default();
    assert!(
        journal.starts_with(&[0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]),
        "the kill leaves a hot journal (SQLite's header)"
    );
    assert_eq!(cli_counts(&idx), Ok((2, 2)));
    let index = Index::open(&idx).unwrap();
    assert_eq!(index.count(&Filter::default()).unwrap(), 2);
    drop(index);
    // The next update completes it.
    let out = index_cli(&[&coll], &idx);
    let err = common::stderr_of(&out);
    assert!(out.status.success() && err.contains("10 games"), "{err}");
    assert_eq!(cli_counts(&idx), Ok((10, 10)));
}

/// Point 4: a rebuild is built beside the old index and replaces it whole: queries during it
/// answer from the old index (before, it was removed first: "no index there", or a partial
/// answer), a rebuild killed midway leaves the old index answering, and the next update
/// removes what the killed one wrote.
#[test]
fn a_rebuild_replaces_the_index_whole_and_queries_meanwhile_read_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 10);
    let idx = dir.path().join("idx");
    let out = index_cli(&[&coll], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let files_before = names(&idx);
    // A rebuild (--variations changes what is indexed), paused after its second step.
    let mut child = index_paused(
        index_cmd(&[&coll], &idx, &["--variations"]),
        &[
            ("KIFVIEW_TEST_BATCH", "2"),
            ("KIFVIEW_TEST_PAUSE_AFTER_STEP", "2"),
        ],
        "test pause after step 2",
    );
    assert_eq!(cli_counts(&idx), Ok((10, 10)), "the old index answers");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        cli_counts(&idx),
        Ok((10, 10)),
        "the old index still answers"
    );
    // The next rebuild removes the killed one's files and ends with the index alone.
    let out = index_cmd(&[&coll], &idx, &["--variations"])
        .output()
        .unwrap();
    let err = common::stderr_of(&out);
    assert!(out.status.success() && err.contains("rebuilt"), "{err}");
    assert_eq!(cli_counts(&idx), Ok((10, 10)));
    let after = names(&idx);
    assert_eq!(
        after.len(),
        files_before.len(),
        "before {files_before:?}, after {after:?}"
    );
    assert!(!after.iter().any(|n| n.contains(".new")), "{after:?}");
}

/// Point 5: an answer of fewer than 2,000 games read its rows one statement per game, so an
/// update committing in the middle mixed two states (9 torn answers in 8,000 during
/// removals). Here a writer removes the first and the last game of a `find` while its answer
/// is being read: the answer is the state before (the writer waits, or fails as here with no
/// patience) or the one after, never a mix.
#[test]
fn an_answer_reads_one_snapshot_while_an_update_commits() {
    let dir = tempfile::tempdir().unwrap();
    let (_, idx) = indexed(dir.path(), 12);
    let index = Index::open(&idx).unwrap();
    let filter = Filter::default().with(kifview::collection::Term::new(
        kifview::collection::Field::Player,
        "sente",
    ));
    let all: Vec<u32> = index
        .find(&Position::startpos(), &filter)
        .unwrap()
        .iter()
        .map(|f| f.game.id)
        .collect();
    assert_eq!(all.len(), 12);
    let (first, last) = (all[0], all[11]);
    let mut got = Vec::new();
    let mut wrote = None;
    index
        .find_each(&Position::startpos(), &filter, &mut |f| {
            if got.is_empty() {
                let db = rusqlite::Connection::open(idx.join("catalog.sqlite")).unwrap();
                db.busy_timeout(std::time::Duration::ZERO).unwrap();
                db.execute_batch("BEGIN IMMEDIATE").unwrap();
                db.execute("DELETE FROM games WHERE id IN (?1, ?2)", [first, last])
                    .unwrap();
                db.execute(
                    "UPDATE meta SET value = value + 1 WHERE key = 'generation'",
                    [],
                )
                .unwrap();
                let commit = db.execute_batch("COMMIT");
                if commit.is_err() {
                    db.execute_batch("ROLLBACK").unwrap();
                }
                wrote = Some(commit.is_ok());
            }
            got.push(f.game.id);
            Ok(())
        })
        .unwrap();
    let after: Vec<u32> = all[1..11].to_vec();
    assert!(
        got == all || got == after,
        "a torn answer: {got:?} (the writer committed: {wrote:?})"
    );
}

/// `explore --json` after 7g7f (the games replayed, not read from games.bin): the output, or
/// the failure's message.
fn explore_after_7g7f(idx: &Path) -> Result<String, String> {
    let out = kifview()
        .args(["explore", "--json", "--index"])
        .arg(idx)
        .args(["--position", "startpos moves 7g7f"])
        .output()
        .unwrap();
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(common::stderr_of(&out))
    }
}

/// Flips 16 bits spread over the games' bytes of a segment's moves file.
fn flip_16_bits(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let data = bytes.len() / 3;
    for i in 0..16 {
        bytes[1 + i * data / 16] ^= 1 << (i % 8);
    }
    std::fs::write(path, bytes).unwrap();
}

/// Point 2: 16 flipped bits in `moves-1.bin` gave wrong answers (`explore` listed `4h4h`),
/// and the next `kifview index` spread them into `games.bin`. Now a query refuses the
/// damaged file by name, `index --check` reports it, and `index --repair` (or any update)
/// rebuilds the segment from its files.
#[test]
fn a_damaged_segment_is_refused_by_name_reported_and_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let (coll, idx) = indexed(dir.path(), 12);
    let truth = explore_after_7g7f(&idx).unwrap();
    flip_16_bits(&idx.join("moves-1.bin"));
    let err = explore_after_7g7f(&idx).expect_err("a damaged segment is refused");
    assert!(
        err.contains("moves-1.bin") && err.contains("damaged") && err.contains("--repair"),
        "{err}"
    );
    let check = check_cli(&idx);
    let said = common::stderr_of(&check);
    assert_eq!(check.status.code(), Some(1), "{said}");
    assert!(
        said.contains("moves-1.bin") && said.contains("damaged"),
        "{said}"
    );
    let repair = kifview()
        .args(["index", "--repair", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    let said = common::stderr_of(&repair);
    assert!(repair.status.success(), "{said}");
    assert!(
        said.contains("repaired") && said.contains("12 files read again"),
        "{said}"
    );
    assert_eq!(explore_after_7g7f(&idx), Ok(truth.clone()));
    let check = check_cli(&idx);
    assert!(check.status.success(), "{}", common::stderr_of(&check));
    // A plain update repairs too (it no longer builds games.bin from damaged moves).
    let seg = names(&idx)
        .into_iter()
        .find(|n| n.starts_with("moves-"))
        .unwrap();
    flip_16_bits(&idx.join(&seg));
    let out = index_cli(&[&coll], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    assert_eq!(explore_after_7g7f(&idx), Ok(truth));
    // A damaged games.bin is reported, and never read.
    let gb = idx.join("games.bin");
    let mut bytes = std::fs::read(&gb).unwrap();
    bytes[40] ^= 0x10;
    std::fs::write(&gb, bytes).unwrap();
    let check = check_cli(&idx);
    let said = common::stderr_of(&check);
    assert!(
        !check.status.success() && said.contains("games.bin"),
        "{said}"
    );
    assert_eq!(start_count(&idx), 12);
}

/// Point 3: five kinds of damage `kifview index` could never repair (every run failed, though
/// its messages said it would): text that is not UTF-8 in the catalog, a segment or the
/// catalog replaced by a folder, `games.bin` or `lock` a folder. Each is repaired or rebuilt;
/// a folder in the place of the index's file is moved aside (never removed), and said.
#[test]
fn damage_index_could_not_repair_is_repaired_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let (coll, idx) = indexed(dir.path(), 6);
    let run = |what: &str| {
        let out = index_cli(&[&coll], &idx);
        let said = common::stderr_of(&out);
        assert!(out.status.success(), "{what}: {said}");
        assert_eq!(cli_counts(&idx), Ok((6, 6)), "{what}: {said}");
        said
    };
    // Not UTF-8.
    let db = rusqlite::Connection::open(idx.join("catalog.sqlite")).unwrap();
    db.execute(
        "UPDATE games SET sente = CAST(X'FF41' AS TEXT) WHERE id = 1",
        [],
    )
    .unwrap();
    drop(db);
    let said = run("not UTF-8");
    assert!(said.contains("rebuilt") && said.contains("UTF-8"), "{said}");
    // Folders in the place of files.
    for name in ["games.bin", "lock", "seg", "catalog.sqlite"] {
        let name = if name == "seg" {
            names(&idx)
                .into_iter()
                .find(|n| n.starts_with("pos-"))
                .unwrap()
        } else {
            name.to_string()
        };
        let path = idx.join(&name);
        let _ = std::fs::remove_file(&path);
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("keep.txt"), "the user's").unwrap();
        let said = run(&name);
        assert!(
            said.contains(&name) && said.contains("moved aside"),
            "{name}: {said}"
        );
        assert_eq!(
            std::fs::read_to_string(idx.join(format!("{name}.moved-aside/keep.txt"))).ok(),
            Some("the user's".into()),
            "{name}"
        );
        std::fs::remove_dir_all(idx.join(format!("{name}.moved-aside"))).unwrap();
    }
}

/// Point 6: a game longer than 65,535 plies was not found past that ply (its lines were stored
/// cut at `u16::MAX`, its positions' keys whole). Here the rooks shuffle for 70,000 plies and
/// 7g7f is played at ply 70,001: the game is found there.
#[test]
fn a_game_longer_than_65535_plies_is_found_past_that_ply() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    let mut text = String::from("V2.2\nN+long\nN-game\nPI\n+\n");
    for _ in 0..17_500 {
        text.push_str("+2818HI\n-8292HI\n+1828HI\n-9282HI\n");
    }
    text.push_str("+7776FU\n%TORYO\n");
    std::fs::write(coll.join("long.csa"), text).unwrap();
    let idx = dir.path().join("idx");
    update_into(&coll, &idx);
    let mut target = Position::startpos();
    let m = kifview::core::rules::Move::from_usi("7g7f").unwrap();
    target.play(m).unwrap();
    let found = Index::open(&idx)
        .unwrap()
        .find(&target, &Filter::default())
        .unwrap();
    assert_eq!(
        found
            .iter()
            .map(|f| (f.game.moves, f.ply))
            .collect::<Vec<_>>(),
        [(70_001, 70_001)]
    );
}

/// A first build killed while its catalog is being made (tables made, format not yet written)
/// leaves no catalog in place: queries say there is no index yet, and the next update builds
/// it. Before, the catalog stayed in place without its format and every query said "not a
/// kifview index (no format in its catalog)" until the next update (65 failed queries in the
/// session-12 kill loop, all after such a kill).
#[test]
fn a_first_build_killed_while_its_catalog_is_made_leaves_no_half_made_catalog() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 4);
    let idx = dir.path().join("idx");
    let mut child = index_paused(
        index_cmd(&[&coll], &idx, &[]),
        &[("KIFVIEW_TEST_PAUSE_IN_CREATE", "1")],
        "test pause in create",
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let err = cli_counts(&idx).unwrap_err();
    assert!(!err.contains("not a kifview index"), "{err}");
    assert!(err.contains("no index there"), "{err}");
    let out = index_cli(&[&coll], &idx);
    let err = common::stderr_of(&out);
    assert!(out.status.success() && err.contains("4 games"), "{err}");
    assert_eq!(cli_counts(&idx), Ok((4, 4)));
    assert!(
        !idx.join("catalog.sqlite.new").exists(),
        "the killed build's catalog is dropped"
    );
}
