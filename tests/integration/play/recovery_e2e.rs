//! A game in the real binary, in a terminal, killed mid-game (`kill -9`): the moves played
//! are in the recovery file, and opening the record again restores them.

use crate::e2e::signals_e2e::recovery_files;
use crate::engine::research::Fake;
use crate::pty::Session;

#[test]
fn a_kill_during_a_game_keeps_its_moves_in_the_recovery_file() {
    let dir = tempfile::tempdir().unwrap();
    let study = dir.path().join("study.kif");
    std::fs::write(&study, "手数----指手---------消費時間--\n   1 ２六歩(27)\n").unwrap();
    let fake = Fake::new("< go\n> bestmove 3c3d\n< go\n");
    let args: Vec<String> = fake.spec.args.iter().map(|a| format!("{a:?}")).collect();
    let cfg = dir.path().join("config.toml");
    std::fs::write(
        &cfg,
        format!(
            "ambiguous_width = \"single\"\nrecovery_interval = 1\n[[engines]]\nname = \"Fake\"\ncommand = {:?}\nargs = [{}]\n",
            fake.spec.command.display().to_string(),
            args.join(", ")
        ),
    )
    .unwrap();
    let data = dir.path().join("data");
    let env = [
        ("XDG_DATA_HOME", data.as_path()),
        ("KIFVIEW_CONFIG", cfg.as_path()),
    ];
    let bin = env!("CARGO_BIN_EXE_kifview");
    let mut s = Session::start_with_env(bin, &[study.to_str().unwrap()], &env, 30, 120);
    s.wait_for("study.kif");
    // ▲ against Fake, 600+byo30, the names offered, a variation from the start.
    s.send("A");
    s.wait_for("先手を持つ");
    s.send("\r");
    s.wait_for("のエンジン");
    s.send("\r");
    s.wait_for("持ち時間");
    s.send("\r");
    s.wait_for("先手 (▲): You");
    s.send("\r");
    s.wait_for("後手 (△): Fake");
    s.send("\r");
    s.wait_for("対局の棋譜");
    s.send("\r");
    s.wait_for("対局開始");
    s.send("m76歩\r");
    s.wait_for("△３四歩");
    let kept = || {
        let files = recovery_files(dir.path(), ".study.kif.kifview-recovery-");
        files.first().and_then(|p| std::fs::read_to_string(p).ok())
    };
    s.wait_until("the game's moves kept", || {
        kept().is_some_and(|t| t.contains("３四歩"))
    });
    let pid = s.pid().expect("a child process") as i32;
    // SAFETY: sending a signal to our own child.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    s.wait_exit();
    let text = kept().expect("the recovery file outlives the kill");
    assert!(text.contains("７六歩(77)"), "{text}");
    assert!(text.contains("３四歩(33)"), "{text}");
    assert!(
        text.contains("２六歩(27)"),
        "the record's own move too:\n{text}"
    );
    // Opened again: the game comes back as the unsaved variation it was.
    let mut s = Session::start_with_env(bin, &[study.to_str().unwrap()], &env, 30, 120);
    s.wait_for("Restore the unsaved edits of study.kif");
    s.send("y");
    s.wait_for("unsaved edits restored");
    s.wait_for("７六歩");
    s.send("q");
    s.wait_for("unsaved changes");
    s.send("d");
    s.wait_exit();
}
