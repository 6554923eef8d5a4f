//! `kifview analyze` and `kifview mate` from the outside: comments, marks, re-analysis,
//! refusals, shards, a crashing engine, Ctrl-C; the real engines when installed.

use crate::common::{analyst, analyze, manifest, stderr_of};
use assert_cmd::Command;
use kifview::analyze::{Evaluator, main_line_evals};
use kifview::core::notation;
use kifview::core::record::Record;
use kifview::engine::Score;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn load(path: &Path) -> Record {
    let l = notation::load(&std::fs::read(path).unwrap(), Some(path));
    assert_eq!(l.records.len(), 1);
    l.records.into_iter().next().unwrap().record
}

const GAME: &str = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n*my own note\n*second line\n   2 ３四歩(33)   ( 0:02/00:00:02)\n   3 ２六歩(27)   ( 0:01/00:00:02)\n   4 ８四歩(83)   ( 0:01/00:00:03)\n   5 ２五歩(26)   ( 0:01/00:00:03)\n   6 投了   ( 0:01/00:00:04)\n";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    if let Some(d) = p.parent() {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn comments_in_shogihome_format_user_lines_kept_and_reanalysis_replaces() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kifu", GAME);
    let out = d.path().join("out.kifu");
    let o = analyze(d.path())
        .args(["--nodes", "1000", "-o"])
        .arg(&out)
        .arg(&input)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert!(stderr_of(&o).contains("analysed 1, skipped 0, failed 0"));
    let r = load(&out);
    let line = r.main_line();
    let c1 = &r.node(line[1]).comment;
    assert!(
        c1.contains("\n#評価値=") || c1.starts_with("#評価値="),
        "{c1}"
    );
    assert!(
        c1.contains("#深さ=3\n#ノード数=300\n#エンジン=Analyst 1.0\nmy own note\nsecond line"),
        "{c1}"
    );
    // Every move has its evaluation; the 投了 node and the input are untouched.
    let evals = main_line_evals(&r);
    assert_eq!(evals.len(), 6, "start + 5 moves");
    assert!(
        evals[1..]
            .iter()
            .all(|e| e.eval.is_some_and(|e| e.source == Evaluator::Research))
    );
    assert_eq!(r.node(*line.last().unwrap()).comment, "");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), GAME);
    assert_eq!(r.header.get("先手"), Some("A"));
    // The fake's scores swing: some moves are marked, as ShogiHome marks them.
    let marks = evals.iter().filter(|e| e.mark.is_some()).count();
    assert!(marks > 0, "{:?}", evals);
    let first = std::fs::read(&out).unwrap();

    // Again on the output: skipped (same engine and limit) …
    let o = analyze(d.path())
        .args(["--nodes", "1000", "--in-place"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(stderr_of(&o).contains("skipped 1"), "{}", stderr_of(&o));
    // … and with --force, one set of lines replaces the other: the same file again.
    let o = analyze(d.path())
        .args(["--nodes", "1000", "--in-place", "--force"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert_eq!(
        String::from_utf8(std::fs::read(&out).unwrap()).unwrap(),
        String::from_utf8(first).unwrap()
    );
    // Another limit is another analysis: not skipped, still one set of lines.
    let o = analyze(d.path())
        .args(["--depth", "5", "--in-place"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(stderr_of(&o).contains("analysed 1"), "{}", stderr_of(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.matches("#エンジン=").count(), 5, "{text}");
    assert_eq!(text.matches("#kifview-analyze").count(), 1);
    assert!(text.contains("limit=depth:5"));
    assert_eq!(text.matches("my own note").count(), 1);
}

#[test]
fn engines_by_their_configured_name() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kifu", GAME);
    let cfg = write(
        d.path(),
        "config.toml",
        &format!(
            "[[engines]]\nname = \"My Analyst\"\ncommand = \"{}\"\n",
            analyst()
        ),
    );
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .env("ANALYST_STATE", d.path())
        .args([
            "analyze",
            "--engine",
            "my analyst",
            "--nodes",
            "1",
            "--config",
        ])
        .arg(&cfg)
        .arg(&input)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("#エンジン=Analyst 1.0"));
}

#[test]
fn ranges_write_only_their_plies() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kifu", GAME);
    let o = analyze(d.path())
        .args(["--nodes", "1", "--from", "2", "--to", "3"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    let r = notation::read_text(&String::from_utf8(o.stdout).unwrap(), notation::Format::Kif)
        .remove(0)
        .record;
    let has: Vec<bool> = main_line_evals(&r)
        .iter()
        .map(|e| e.eval.is_some())
        .collect();
    assert_eq!(has, [false, false, true, true, false, false]);
}

#[test]
fn main_lines_ending_in_mate_resignation_and_repetition() {
    let d = tempfile::tempdir().unwrap();
    let tsume = manifest().join("assets/tsume.kifu");
    let mut repetition = String::from("手合割：平手\n手数----指手---------消費時間--\n");
    for (i, m) in ["５八玉(59)", "５二玉(51)", "５九玉(58)", "５一玉(52)"]
        .iter()
        .cycle()
        .take(12)
        .enumerate()
    {
        repetition.push_str(&format!("{:>4} {m}\n", i + 1));
    }
    repetition.push_str("  13 千日手\n");
    let rep = write(d.path(), "in/rep.kifu", &repetition);
    let res = write(d.path(), "in/res.kifu", GAME);
    std::fs::copy(&tsume, d.path().join("in/tsume.kifu")).unwrap();
    let o = analyze(d.path())
        .args(["--nodes", "1", "-r", "--out-dir"])
        .arg(d.path().join("out"))
        .arg(d.path().join("in"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert!(stderr_of(&o).contains("analysed 3"), "{}", stderr_of(&o));
    // 詰み: the mated position needs no engine; the user's comment stays under it.
    let t = load(&d.path().join("out/tsume.kifu"));
    let line = t.main_line();
    assert_eq!(
        t.node(line[1]).comment,
        "#詰み=先手勝ち\n正解。２三の歩が金を支えている。"
    );
    assert_eq!(
        t.node(line[2]).special().map(|s| s.kif_word().to_string()),
        Some("詰み".into())
    );
    // 千日手 and 投了: every move analysed, the ending kept without a comment.
    for (name, moves) in [("rep.kifu", 12), ("res.kifu", 5)] {
        let r = load(&d.path().join("out").join(name));
        let line = r.main_line();
        assert_eq!(line.len(), moves + 2, "{name}");
        let end = r.node(*line.last().unwrap());
        assert!(end.special().is_some() && end.comment.is_empty(), "{name}");
        let evals = main_line_evals(&r);
        assert!(evals[1..].iter().all(|e| e.eval.is_some()), "{name}");
    }
    let _ = (rep, res);
}

/// A position the engine gave no score for (stopped by the limit before it had one) is said,
/// with its ply, not left out silently; the others are commented.
#[test]
fn positions_the_engine_gave_no_score_are_named() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kifu", GAME);
    let out = d.path().join("out.kifu");
    let o = analyze(d.path())
        .env("ANALYST_NO_SCORE", "3")
        .args(["--nodes", "1000", "-o"])
        .arg(&out)
        .arg(&input)
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(
            "g.kifu: 1 of 5 positions got no score from the engine within the limit (ply 2): left without an analysis comment"
        ),
        "{err}"
    );
    let r = load(&out);
    let evals = main_line_evals(&r);
    let missing: Vec<usize> = (1..evals.len())
        .filter(|&i| evals[i].eval.is_none())
        .collect();
    assert_eq!(
        missing,
        [2],
        "the ply named has no evaluation, the others have"
    );
}

#[test]
fn engine_crash_at_file_3_of_10_fails_that_file_only() {
    let d = tempfile::tempdir().unwrap();
    for i in 0..10 {
        write(d.path(), &format!("in/g{i:02}.kifu"), GAME);
    }
    let o = analyze(d.path())
        .env("ANALYST_CRASH", "3")
        .args(["--nodes", "1", "--jobs", "1", "-r", "--out-dir"])
        .arg(d.path().join("out"))
        .arg(d.path().join("in"))
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("analysed 9, skipped 0, failed 1"), "{err}");
    assert!(err.contains("g02.kifu: engine failed at ply 0"), "{err}");
    assert!(
        err.contains("crashing on purpose"),
        "the engine's last words: {err}"
    );
    assert!(!d.path().join("out/g02.kifu").exists());
    for i in (0..10).filter(|&i| i != 2) {
        let r = load(&d.path().join(format!("out/g{i:02}.kifu")));
        assert!(
            main_line_evals(&r)[1..].iter().all(|e| e.eval.is_some()),
            "g{i:02}"
        );
    }
}

#[test]
fn an_engine_that_dies_between_files_is_restarted_without_failing_one() {
    let d = tempfile::tempdir().unwrap();
    for i in 0..3 {
        write(d.path(), &format!("in/g{i}.kifu"), GAME);
    }
    // Six searches per file (the start and five moves): each engine exits after its first file.
    let o = analyze(d.path())
        .env("ANALYST_EXIT", "6")
        .args(["--nodes", "1", "--jobs", "1", "-r", "--out-dir"])
        .arg(d.path().join("out"))
        .arg(d.path().join("in"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert!(
        stderr_of(&o).contains("analysed 3, skipped 0, failed 0"),
        "{}",
        stderr_of(&o)
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("games"))
            .unwrap()
            .trim(),
        "3"
    );
}

#[test]
fn shards_take_every_file_exactly_once() {
    let d = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..12).map(|i| format!("y{}/g{i}.kifu", i % 3)).collect();
    for n in &names {
        write(d.path(), &format!("in/{n}"), GAME);
    }
    let mut seen: Vec<String> = Vec::new();
    for k in 1..=3 {
        let out = d.path().join(format!("out{k}"));
        let o = analyze(d.path())
            .args([
                "--nodes",
                "1",
                "-r",
                "--shard",
                &format!("{k}/3"),
                "--out-dir",
            ])
            .arg(&out)
            .arg(d.path().join("in"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr_of(&o));
        let mut found = Vec::new();
        for n in &names {
            if out.join(n).exists() {
                found.push(n.clone());
            }
        }
        assert!(
            stderr_of(&o).contains(&format!("({} in other shards)", 12 - found.len())),
            "{}",
            stderr_of(&o)
        );
        seen.extend(found);
    }
    seen.sort();
    let mut all = names.clone();
    all.sort();
    assert_eq!(seen, all, "each file in exactly one shard");
    let o = analyze(d.path())
        .args(["--shard", "4/3", "x.kif"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// `kifview analyze --shard SPEC` of `in/` into `out`, with only the scheduler variables
/// `vars` set; the files it wrote (relative names) and its standard error.
fn analyze_shard(
    d: &Path,
    spec: &str,
    vars: &[(&str, &str)],
    out: &str,
) -> (Option<i32>, Vec<String>, String) {
    let mut c = analyze(d);
    for v in kifview::analyze::batch::SHARD_VARIABLES {
        c.env_remove(v);
    }
    c.envs(vars.iter().copied());
    let o = c
        .args(["--nodes", "1", "-r", "--shard", spec, "--out-dir"])
        .arg(d.join(out))
        .arg(d.join("in"))
        .output()
        .unwrap();
    let mut files = Vec::new();
    crate::common::files_with_ext(&d.join(out), &["kifu"], &mut files);
    let mut names: Vec<String> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(d.join(out)).unwrap();
            rel.to_string_lossy().into_owned()
        })
        .collect();
    names.sort();
    (o.status.code(), names, stderr_of(&o))
}

#[test]
fn shard_auto_takes_the_share_of_a_slurm_or_kubernetes_task() {
    let d = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..12).map(|i| format!("y{}/g{i}.kifu", i % 3)).collect();
    for n in &names {
        write(d.path(), &format!("in/{n}"), GAME);
    }
    let share = |k: u32| -> Vec<String> {
        let s = kifview::analyze::Shard { index: k, count: 3 };
        let mut v: Vec<String> = names.iter().filter(|n| s.holds(n)).cloned().collect();
        v.sort();
        v
    };
    let mut seen = Vec::new();
    for k in 1..=3u32 {
        // Slurm, --array=5-7: task ids 5, 6, 7 are shards 1, 2, 3.
        let id = (k + 4).to_string();
        let vars = [
            ("SLURM_ARRAY_TASK_ID", id.as_str()),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_MAX", "7"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ];
        let (code, got, err) = analyze_shard(d.path(), "auto", &vars, &format!("slurm{k}"));
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(got, share(k), "Slurm task {id}: {err}");
        assert!(
            err.contains(&format!("shard {k}/3 (SLURM_ARRAY_TASK_ID={id}")),
            "{err}"
        );
        seen.extend(got);
        // Kubernetes counts from 0; the count from auto/N.
        let index = (k - 1).to_string();
        let vars = [("JOB_COMPLETION_INDEX", index.as_str())];
        let (code, got, err) = analyze_shard(d.path(), "auto/3", &vars, &format!("k8s{k}"));
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(got, share(k), "index {index}: {err}");
    }
    seen.sort();
    let mut all = names.clone();
    all.sort();
    assert_eq!(seen, all, "the three tasks take every file once");
}

#[test]
fn shard_auto_without_a_scheduler_is_a_usage_error() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "in/g.kifu", GAME);
    let (code, got, err) = analyze_shard(d.path(), "auto", &[], "out");
    assert_eq!(code, Some(2), "{err}");
    assert!(got.is_empty());
    assert!(
        err.contains("SLURM_ARRAY_TASK_ID") && err.contains("JOB_COMPLETION_INDEX"),
        "{err}"
    );
    let (code, _, err) = analyze_shard(d.path(), "auto", &[("JOB_COMPLETION_INDEX", "0")], "out");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("JOB_COMPLETION_COUNT"), "{err}");
    let vars = [
        ("SLURM_ARRAY_TASK_ID", "9"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    let (code, _, err) = analyze_shard(d.path(), "auto", &vars, "out");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("task 10 of an array of 4"), "{err}");
}

#[test]
fn formats_without_comments_and_unsafe_rewrites_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kifu", GAME);
    let o = analyze(d.path())
        .args(["-o", "x.usi"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr_of(&o).contains("USI cannot hold comments"),
        "{}",
        stderr_of(&o)
    );
    let usi = write(d.path(), "g.usi", "position startpos moves 7g7f 3c3d\n");
    let o = analyze(d.path())
        .args(["--nodes", "1", "--in-place"])
        .arg(&usi)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr_of(&o).contains("cannot hold comments"),
        "{}",
        stderr_of(&o)
    );
    // A Floodgate file's plain ' lines would be lost by an in-place rewrite.
    let csa = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n'** 30 -3334FU\n-3334FU\n%TORYO\n'summary:toryo:a win:b lose\n";
    let f = write(d.path(), "f.csa", csa);
    let o = analyze(d.path())
        .args(["--nodes", "1", "--in-place"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr_of(&o).contains("not rewritten in place"),
        "{}",
        stderr_of(&o)
    );
    assert_eq!(std::fs::read_to_string(&f).unwrap(), csa);
    // A copy is fine, and the Floodgate evaluation is replaced by a research one.
    let out = d.path().join("f2.csa");
    let o = analyze(d.path())
        .args(["--nodes", "1", "-o"])
        .arg(&out)
        .arg(&f)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("'*#評価値=") && text.contains("'** 30 -3334FU"),
        "{text}"
    );
    // A read-only file is not analysed (and not touched).
    let ro = write(d.path(), "ro.kifu", GAME);
    let mut perm = std::fs::metadata(&ro).unwrap().permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(&ro, perm).unwrap();
    let o = analyze(d.path())
        .args(["--nodes", "1", "--in-place"])
        .arg(&ro)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr_of(&o).contains("read-only (for this user): not analysed"),
        "{}",
        stderr_of(&o)
    );
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), GAME);
    // Several inputs need somewhere to go.
    let o = analyze(d.path()).arg(&input).arg(&f).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr_of(&o).contains("--out-dir"), "{}", stderr_of(&o));
}

#[test]
fn in_place_keeps_shift_jis_and_crlf() {
    let d = tempfile::tempdir().unwrap();
    let text = GAME.replace('\n', "\r\n");
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(&text);
    let f = d.path().join("g.kif");
    std::fs::write(&f, &sjis).unwrap();
    let o = analyze(d.path())
        .args(["--nodes", "1", "--in-place"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    let bytes = std::fs::read(&f).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "still Shift_JIS");
    let (back, _, bad) = encoding_rs::SHIFT_JIS.decode(&bytes);
    assert!(!bad);
    assert!(back.contains("*#評価値="));
    assert_eq!(
        back.matches("\r\n").count(),
        back.matches('\n').count(),
        "CRLF kept"
    );
    assert!(back.contains("*my own note\r\n"));
}

#[test]
fn ctrl_c_finishes_nothing_halfway() {
    let d = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = (0..6)
        .map(|i| write(d.path(), &format!("in/g{i}.kifu"), GAME))
        .collect();
    let bin = assert_cmd::cargo::cargo_bin("kifview");
    let child = std::process::Command::new(bin)
        .env("ANALYST_STATE", d.path())
        .env("ANALYST_SLEEP", "0.15")
        .args([
            "analyze",
            "--engine",
            &analyst(),
            "--nodes",
            "1",
            "--jobs",
            "1",
            "-r",
            "--in-place",
        ])
        .arg(d.path().join("in"))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first file to be rewritten, then interrupt while the second is analysed.
    let end = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&files[0]).unwrap() == GAME {
        assert!(Instant::now() < end, "the first file was never written");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let mut analysed = 0;
    let mut untouched = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        if text == GAME {
            untouched += 1;
            continue;
        }
        analysed += 1;
        let r = load(f);
        assert!(
            main_line_evals(&r)[1..].iter().all(|e| e.eval.is_some()),
            "{} is half done",
            f.display()
        );
    }
    assert!(
        analysed >= 1 && untouched >= 1,
        "{analysed} analysed, {untouched} untouched"
    );
    assert!(
        err.contains(&format!("analysed {analysed}, skipped 0, failed 0")),
        "{err}"
    );
}

fn real_engine(name: &str) -> Option<String> {
    crate::common::engine_or_skip(name).map(|spec| spec.command.display().to_string())
}

#[test]
fn real_engines_analyse_a_game() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kifu", GAME);
    for (engine, limit) in [
        ("fairy-stockfish", ["--nodes", "3000"]),
        ("gpsusi", ["--movetime", "300"]),
    ] {
        let Some(path) = real_engine(engine) else {
            continue;
        };
        let out = d.path().join(format!("{engine}.kifu"));
        let o = Command::cargo_bin("kifview")
            .unwrap()
            .args(["analyze", "--engine", &path])
            .args(limit)
            .arg("-o")
            .arg(&out)
            .arg(&input)
            .output()
            .unwrap();
        assert!(o.status.success(), "{engine}: {}", stderr_of(&o));
        let r = load(&out);
        let evals = main_line_evals(&r);
        for e in &evals[1..] {
            let Some(Score::Cp(cp)) = e.eval.map(|e| e.score) else {
                panic!("{engine}: ply {} has no evaluation", e.ply)
            };
            assert!(cp.abs() < 3000, "{engine}: an opening is not lost: {cp}");
        }
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.contains("*#読み筋=△") && text.contains("*#読み筋=▲"),
            "{engine}: {text}"
        );
        // Using gpsusi with --nodes is refused before anything is written.
        if engine == "gpsusi" {
            let o = Command::cargo_bin("kifview")
                .unwrap()
                .args(["analyze", "--engine", &path, "--nodes", "100"])
                .arg(&input)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(1));
            assert!(
                stderr_of(&o).contains("cannot search with --nodes"),
                "{}",
                stderr_of(&o)
            );
        }
    }
}

#[test]
fn mate_solves_the_tsume_sample() {
    let tsume = manifest().join("assets/tsume.kifu");
    if let Some(gps) = real_engine("gpsusi") {
        let o = Command::cargo_bin("kifview")
            .unwrap()
            .args(["mate", "--engine", &gps, "--time", "10"])
            .arg(&tsume)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr_of(&o));
        assert_eq!(String::from_utf8_lossy(&o.stdout), "詰み 1手: ▲２二金\n");
        // An opening has no mate: gpsusi proves it (or, on a loaded machine, runs out of time).
        // 5 s leaves it 2 s to answer stop (within 2 s, the wait is 1 s: too short for gpsusi
        // while the whole suite runs on two cores).
        let d = tempfile::tempdir().unwrap();
        let game = write(d.path(), "g.kifu", GAME);
        let o = Command::cargo_bin("kifview")
            .unwrap()
            .args(["mate", "--engine", &gps, "--time", "5", "--ply", "3"])
            .arg(&game)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr_of(&o));
        let said = String::from_utf8_lossy(&o.stdout);
        assert!(said == "不詰\n" || said == "時間切れ\n", "{said}");
    }
    if let Some(fairy) = real_engine("fairy-stockfish") {
        let o = Command::cargo_bin("kifview")
            .unwrap()
            .args(["mate", "--engine", &fairy])
            .arg(&tsume)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&o.stdout).starts_with("not supported by this engine"));
    }
}
