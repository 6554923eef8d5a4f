//! End to end with a real engine (Fairy-Stockfish): the binary in a pseudo-terminal opens the
//! sample study, analyses, follows the cursor, inserts the engine's line, saves a copy and
//! quits; the copy is read back, and the engine process must be gone (no zombie, no orphan).
//! Skips when the engine is not installed; fails then under `KIFVIEW_REQUIRE_ENGINES=1`.

use kifview::core::notation;
use kifview::core::record::{NodeId, Record};
use std::time::{Duration, Instant};

use crate::pty::Session;

/// The processes whose parent is `pid` (from /proc).
/// The child processes of `pid` that are not kifview itself: each engine has a guardian
/// (`engine::guard`), a fork of kifview, beside it.
fn engine_children(pid: u32) -> Vec<u32> {
    let comm = |p: u32| std::fs::read_to_string(format!("/proc/{p}/comm")).unwrap_or_default();
    let own = comm(pid);
    children(pid)
        .into_iter()
        .filter(|&c| comm(c) != own)
        .collect()
}

fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(child) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid …`; comm may hold spaces, so read after the last `)`.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(pid) {
            out.push(child);
        }
    }
    out
}

fn read(p: &std::path::Path) -> Record {
    let loaded = notation::load(&std::fs::read(p).unwrap(), Some(p));
    loaded.records.into_iter().next().unwrap().record
}

/// Nodes with more than one child.
fn forks(r: &Record) -> usize {
    r.preorder()
        .into_iter()
        .filter(|&n| r.node(n).children.len() > 1)
        .count()
}

#[test]
fn analyse_browse_insert_the_line_save_and_quit_with_fairy_stockfish() {
    if crate::common::engine_or_skip("fairy-stockfish").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let study = dir.path().join("study.kif");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/study.kif"),
        &study,
    )
    .unwrap();
    let before = read(&study);
    let mut s = Session::start(
        &["--engine", "fairy-stockfish", study.to_str().unwrap()],
        24,
        80,
    );
    s.wait_for("手数＝0");
    s.send("a");
    s.wait_for("analysing with fairy-stockfish");
    s.wait_for("解析中 (a: stop)");
    s.wait_for("深さ");
    let pid = s.pid().expect("kifview's pid");
    let engines = engine_children(pid);
    assert_eq!(engines.len(), 1, "one engine process: {engines:?}");
    // Browse: the pane follows to ply 2 (gote's 3四歩 played; sente to move).
    s.send("ll");
    s.wait_for("手数＝2");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        s.pump(Duration::from_millis(100));
        let screen = s.screen();
        let following = screen.contains("[前の局面]") || screen.contains("追従中");
        if !following && screen.contains("深さ") && screen.contains("% ") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the pane never followed:\n{screen}"
        );
    }
    std::thread::sleep(Duration::from_millis(500));
    s.send("I");
    let screen = s.wait_for("(u undoes");
    assert!(screen.contains("variation "), "{screen}");
    assert!(screen.contains("[+]"), "{screen}");
    let out = dir.path().join("out.kifu");
    s.send(&format!(":w {}\r", out.display()));
    s.wait_for("wrote a copy");
    s.send(":q!\r");
    assert!(s.wait_exit().success());
    // The engine went with kifview: reaped by it, not left behind.
    let deadline = Instant::now() + Duration::from_secs(6);
    while engines
        .iter()
        .any(|e| std::path::Path::new(&format!("/proc/{e}")).exists())
    {
        assert!(
            Instant::now() < deadline,
            "engine {engines:?} outlived kifview"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    let after = read(&out);
    assert!(after.len() > before.len(), "the line was added");
    assert_eq!(forks(&after), forks(&before) + 1, "as one new variation");
    // The new branch starts at ply 3 or later (the cursor was at ply 2; moves already in
    // the record are followed), and the main line is unchanged.
    let main_before = crate::common::usi_line(&before, NodeId::ROOT);
    assert_eq!(crate::common::usi_line(&after, NodeId::ROOT), main_before);
    let fork = after
        .preorder()
        .into_iter()
        .find(|&n| after.node(n).children.len() > 1 && before.node(n).children.len() < 2)
        .or_else(|| {
            after
                .preorder()
                .into_iter()
                .find(|&n| after.node(n).children.len() > before.node(n).children.len())
        })
        .expect("the fork");
    assert!(
        after.node(fork).ply >= 2,
        "fork at ply {}",
        after.node(fork).ply
    );
}
