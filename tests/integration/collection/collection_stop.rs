//! An update told to stop (issue 23: the viewer quits while its library indexes a folder):
//! it ends between steps, the step under way rolled back, with no journal and no segment file
//! left behind, an index every query reads as it is (its `games.bin` built from the catalog),
//! and the next update reads only the files not committed.

use kifview::app::LaunchOptions;
use kifview::collection::build::{Hook, set_hook};
use kifview::collection::{Filter, Index, Report, update, update_with};
use kifview::core::rules::Position;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::common::viewer_with;

/// `n` one-game CSA files in `root/coll` (each from the start position, `i` moves long);
/// returns the folder.
pub(crate) fn collection(root: &Path, n: usize) -> PathBuf {
    const MOVES: [&str; 4] = ["+7776FU", "-3334FU", "+2726FU", "-8384FU"];
    let coll = root.join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    for i in 0..n {
        let moves: String = MOVES
            .iter()
            .take(1 + i % 4)
            .map(|m| format!("{m}\n"))
            .collect();
        let text = format!("V2.2\nN+sente{i}\nN-gote{i}\nPI\n+\n{moves}%TORYO\n");
        std::fs::write(coll.join(format!("g{i}.csa")), text).unwrap();
    }
    coll
}

/// What an update leaves that a finished one does not: SQLite's journal, segment files no
/// catalog row names (the catalog names `segments`).
fn leftovers(idx: &Path, segments: usize) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(idx).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let seg = name
            .strip_prefix("pos-")
            .or_else(|| name.strip_prefix("moves-"))
            .and_then(|n| n.strip_suffix(".bin"))
            .and_then(|n| n.parse::<usize>().ok());
        if name.contains("journal") || name.starts_with("tmp-") || seg.is_some_and(|s| s > segments)
        {
            out.push(name);
        }
    }
    out
}

/// The index answers as its catalog says: every game listed starts at the start position,
/// and `find` there gives each of them.
fn answers(idx: &Path, games: u64) {
    let index = Index::open(idx).expect("a stopped update leaves a readable index");
    assert_eq!(index.count(&Filter::default()).unwrap(), games);
    let found = index
        .find(&Position::startpos(), &Filter::default())
        .unwrap();
    assert_eq!(found.len() as u64, games);
    let explored = index
        .explore(&Position::startpos(), &Filter::default())
        .unwrap();
    assert_eq!(explored.games, games);
    assert_eq!(explored.moves.first().map(|m| m.usi.as_str()), Some("7g7f"));
}

fn update_all(idx: &Path, coll: &Path) -> Report {
    update(idx, &[coll.to_path_buf()], Default::default(), &|_, _| {})
        .expect("the update runs: the one stopped has ended")
}

#[test]
fn an_update_stopped_midway_rolls_its_step_back_and_the_next_reads_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 9);
    let idx = dir.path().join("idx");
    // Batches of 2 files: step 1 = batch 1, step 2 = batches 2 and 3, step 3 = batches 4, 5.
    set_hook(
        &idx,
        Hook {
            batch: 2,
            after_step: Box::new(|_, _| {}),
        },
    );
    // Told to stop as the sixth file is read (batch 3): step 2 holds batch 2, not committed.
    let stop = AtomicBool::new(false);
    let read = AtomicU64::new(0);
    let progress = |done: u64, _: u64| {
        read.fetch_max(done, Ordering::SeqCst);
        if done == 6 {
            stop.store(true, Ordering::SeqCst);
        }
    };
    let commits = AtomicU64::new(0);
    let committed = || {
        commits.fetch_add(1, Ordering::SeqCst);
    };
    let r = update_with(
        &idx,
        std::slice::from_ref(&coll),
        Default::default(),
        &progress,
        &committed,
        &stop,
    )
    .unwrap();
    assert!(r.stopped);
    assert_eq!(
        commits.load(Ordering::SeqCst),
        2,
        "the first transaction, step 1"
    );
    assert_eq!(
        (r.files_read, r.games_added, r.games),
        (2, 2, 2),
        "the report is the committed steps'"
    );
    assert!(
        read.load(Ordering::SeqCst) < 9,
        "the files after the stop are not read"
    );
    assert_eq!(leftovers(&idx, 1), Vec::<String>::new());
    assert!(
        !idx.join("games.bin").exists(),
        "written only by an update that ends"
    );
    answers(&idx, 2);

    let r = update_all(&idx, &coll);
    assert!(!r.stopped);
    assert_eq!((r.files_unchanged, r.files_read, r.games), (2, 7, 9));
    assert!(idx.join("games.bin").is_file());
    answers(&idx, 9);
}

/// Quitting the viewer drops its app, and so its library: the update it runs is told to stop
/// and waited for, and ends after the step it was in; before, the thread went on (here,
/// paused until told to stop, for ever) and the process ended in the middle of a step.
#[test]
fn quitting_the_viewer_while_its_library_indexes_stops_the_update_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 5);
    let idx = dir.path().join("idx");
    let paused = Arc::new(AtomicBool::new(false));
    let p = Arc::clone(&paused);
    // Step 1 (the first two files) committed, the update waits until told to stop.
    set_hook(
        &idx,
        Hook {
            batch: 2,
            after_step: Box::new(move |step, stop| {
                if step == 1 {
                    p.store(true, Ordering::SeqCst);
                    while !stop.load(Ordering::SeqCst) {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                }
            }),
        },
    );
    let v = viewer_with(&LaunchOptions {
        file: Some(coll.clone()),
        index: Some(idx.clone()),
        ..Default::default()
    });
    for _ in 0..60_000 {
        if paused.load(Ordering::SeqCst) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(
        paused.load(Ordering::SeqCst),
        "the indexing never reached step 1"
    );
    drop(v);
    // Ended: no journal, no stray segment, the lock free (an update runs at once).
    assert_eq!(leftovers(&idx, 1), Vec::<String>::new());
    answers(&idx, 2);
    set_hook(
        &idx,
        Hook {
            batch: 2,
            after_step: Box::new(|_, _| {}),
        },
    );
    let r = update_all(&idx, &coll);
    assert_eq!((r.files_unchanged, r.files_read, r.games), (2, 3, 5));
    answers(&idx, 5);
}

/// `kifview index` and Ctrl-C: the update stops after the step it is in (here paused after
/// step 1 by the debug build's test hook), says so, and exits 130; the index holds the step
/// committed, with no journal and no stray segment, and the next `kifview index` reads the
/// rest. Before, Ctrl-C killed it in the middle of a step.
#[test]
fn ctrl_c_stops_kifview_index_cleanly() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 5);
    let idx = dir.path().join("idx");
    let index = || {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_kifview"));
        c.arg("index").arg(&coll).arg("--index").arg(&idx);
        c
    };
    let mut child = index()
        .env("KIFVIEW_TEST_BATCH", "2")
        .env("KIFVIEW_TEST_PAUSE_AFTER_STEP", "1")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("test pause after step 1") {
        line.clear();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "kifview index ended before its pause"
        );
    }
    // SAFETY: a plain kill(2) of the child's pid.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(
        rest.contains("kifview index: interrupted: the index holds the 2 games committed"),
        "{rest}"
    );
    assert_eq!(leftovers(&idx, 1), Vec::<String>::new());
    answers(&idx, 2);
    let out = index().output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("files: 3 read, 2 unchanged"), "{said}");
    answers(&idx, 5);
}

/// Point 9 of issue 31: `an_update_stopped_midway…` failed once under load in CI. What it
/// shared: the index's lock was an `flock` on a descriptor, and a child process another test
/// forks while an update runs holds a copy of that descriptor until it has exec'd, so the lock
/// outlived the update and the test's next update was refused ("another kifview is updating
/// this index"). Here a forked child keeps the copy for as long as the test wants: the next
/// update runs all the same (the lock is the process's, not its descriptors').
#[test]
fn a_child_forked_during_an_update_does_not_keep_its_lock() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path(), 3);
    let idx = dir.path().join("idx");
    let child = Arc::new(AtomicU64::new(0));
    let c = Arc::clone(&child);
    /// Kills and reaps the forked child however the test ends (it holds the harness's pipes).
    struct Reap(Arc<AtomicU64>);
    impl Drop for Reap {
        fn drop(&mut self) {
            let pid = self.0.swap(0, Ordering::SeqCst) as libc::pid_t;
            if pid > 0 {
                // SAFETY: kill and reap the child this test forked.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, std::ptr::null_mut(), 0);
                }
            }
        }
    }
    let reap = Reap(Arc::clone(&child));
    set_hook(
        &idx,
        Hook {
            batch: 2,
            after_step: Box::new(move |step, _| {
                // Once: the second update (which runs this hook too) forks nothing.
                if step == 1 && c.load(Ordering::SeqCst) == 0 {
                    // SAFETY: the child only waits for its signal (async-signal-safe calls).
                    let pid = unsafe { libc::fork() };
                    if pid == 0 {
                        loop {
                            unsafe { libc::pause() };
                        }
                    }
                    c.store(pid as u64, Ordering::SeqCst);
                }
            }),
        },
    );
    let r = update_all(&idx, &coll);
    assert_eq!(r.games, 3);
    let pid = child.load(Ordering::SeqCst) as libc::pid_t;
    assert!(pid > 0, "the hook forked");
    std::fs::write(coll.join("g9.csa"), "V2.2\nPI\n+\n+7776FU\n%TORYO\n").unwrap();
    let again = update(
        &idx,
        std::slice::from_ref(&coll),
        Default::default(),
        &|_, _| {},
    );
    drop(reap);
    assert_eq!(again.map(|r| r.games), Ok(4));
}
