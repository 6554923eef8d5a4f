//! `kifview analyze` and `mate` when things go wrong (issue 25): reruns that skip what an
//! earlier run wrote, configs that cannot be read, engines with odd names and answers.

use crate::common::{analyst, analyze, stderr_of};
use assert_cmd::Command;
use std::path::{Path, PathBuf};

const GAME: &str = "手合割：平手\n先手：A\n後手：B\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\n";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_rerun_into_an_out_dir_skips_what_it_wrote_before() {
    let d = tempfile::tempdir().unwrap();
    let inputs = d.path().join("in");
    write(&inputs, "a.kifu", GAME);
    write(&inputs, "b.kifu", GAME);
    let out = d.path().join("out");
    let run = || {
        analyze(d.path())
            .args(["--nodes", "1000", "-r"])
            .arg(&inputs)
            .arg("--out-dir")
            .arg(&out)
            .output()
            .unwrap()
    };
    let o = run();
    assert!(
        stderr_of(&o).contains("analysed 2, skipped 0"),
        "{}",
        stderr_of(&o)
    );
    let o = run();
    assert!(
        stderr_of(&o).contains("analysed 0, skipped 2"),
        "{}",
        stderr_of(&o)
    );
    // An input that changed since is analysed again.
    write(
        &inputs,
        "b.kifu",
        &GAME.replace("   4 投了\n", "   4 ８四歩(83)\n"),
    );
    let o = run();
    assert!(
        stderr_of(&o).contains("analysed 1, skipped 1"),
        "{}",
        stderr_of(&o)
    );
    // And -o for one file.
    let one = d.path().join("one.kifu");
    let o1 = || {
        analyze(d.path())
            .args(["--nodes", "1000", "-o"])
            .arg(&one)
            .arg(inputs.join("a.kifu"))
            .output()
            .unwrap()
    };
    assert!(stderr_of(&o1()).contains("analysed 1"));
    let o = o1();
    assert!(stderr_of(&o).contains("skipped 1"), "{}", stderr_of(&o));
}

/// An engine started through a wrapper script that leaves a child of its own behind
/// (`sleep 600 &`, its pid in `$ANALYST_STATE/child`) before it becomes the fake engine.
fn wrapper(dir: &Path) -> String {
    let p = dir.join("wrapper.sh");
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\nsleep 600 &\necho $! > \"$ANALYST_STATE/child\"\nexec /bin/sh {}\n",
            analyst()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.display().to_string()
}

fn wait_for_file(p: &Path) -> String {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Some(s) = std::fs::read_to_string(p)
            .ok()
            .filter(|s| s.ends_with('\n'))
        {
            return s;
        }
        assert!(
            std::time::Instant::now() < end,
            "{} never written",
            p.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Is process `pid` gone (or a zombie nobody reaps)? Waits as long as a loaded machine needs.
fn gone(pid: i32) -> bool {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::time::Instant::now() < end {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(s)
                if s.rsplit(')')
                    .next()
                    .is_some_and(|r| r.trim_start().starts_with('Z')) =>
            {
                return true;
            }
            Ok(_) => std::thread::sleep(std::time::Duration::from_millis(50)),
        }
    }
    false
}

/// Is process `pid` still running (not gone, not a zombie)? Looks once.
fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        !s.rsplit(')')
            .next()
            .is_some_and(|r| r.trim_start().starts_with('Z'))
    })
}

fn slow_analysis(d: &Path, engine: &str) -> std::process::Child {
    let input = write(d, "g.kifu", GAME);
    std::process::Command::new(env!("CARGO_BIN_EXE_kifview"))
        .env("ANALYST_STATE", d)
        .env("ANALYST_SLEEP", "30")
        .args(["analyze", "--engine", engine, "--nodes", "1000", "-o"])
        .arg(d.join("out.kifu"))
        .arg(input)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn the_children_of_an_engine_go_when_analyze_is_killed_with_sigkill() {
    let d = tempfile::tempdir().unwrap();
    let engine = wrapper(d.path());
    let mut kv = slow_analysis(d.path(), &engine);
    let child: i32 = wait_for_file(&d.path().join("child"))
        .trim()
        .parse()
        .unwrap();
    // Killed as soon as the wrapper's child exists, maybe before kifview has done anything
    // more with its engine: the engine's guardian was there before the engine.
    kv.kill().unwrap(); // SIGKILL: nothing of kifview runs any more
    kv.wait().unwrap();
    let alive = !gone(child);
    if alive {
        // SAFETY: the test's own grandchild, left behind by the fault under test.
        unsafe { libc::kill(child, libc::SIGKILL) };
    }
    assert!(!alive, "the engine's child outlived kifview");
}

#[test]
fn sigterm_ends_analyze_as_ctrl_c_does_and_its_engines_with_it() {
    let d = tempfile::tempdir().unwrap();
    let engine = wrapper(d.path());
    let kv = slow_analysis(d.path(), &engine);
    let child: i32 = wait_for_file(&d.path().join("child"))
        .trim()
        .parse()
        .unwrap();
    wait_for_file(&d.path().join("games"));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(kv.id() as i32, libc::SIGTERM) };
    let out = kv.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(gone(child), "the engine's child outlived kifview");
}

#[test]
fn a_config_that_cannot_be_read_is_an_error_not_another_engine() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kifu", GAME);
    let broken = write(d.path(), "broken.toml", "[[engines]\nname = \n");
    let o = analyze(d.path())
        .arg("--config")
        .arg(&broken)
        .args(["--nodes", "1000"])
        .arg(&input)
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("broken.toml"), "{err}");
    assert!(o.stdout.is_empty(), "nothing analysed");
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .args(["mate", "--config"])
        .arg(&broken)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr_of(&o));
}

/// An engine that answers the handshake and nothing else (no `checkmate`, not even after
/// `stop`).
fn silent(dir: &Path) -> String {
    let p = dir.join("silent.sh");
    std::fs::write(
        &p,
        "#!/bin/sh\nwhile read l; do case $l in usi) echo 'id name Silent'; echo usiok;; isready) echo readyok;; esac; done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.display().to_string()
}

#[test]
fn a_mate_search_that_never_answers_is_named_as_such() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kifu", GAME);
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .args(["mate", "--time", "1", "--engine", &silent(d.path())])
        .arg(&input)
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert!(!o.status.success());
    // Named at the limit asked for: the grace and the wait for checkmate fit in it (before,
    // 1 s + 1 s of grace + 2 s of waiting, named as 2 s).
    assert!(err.contains("did not answer checkmate within 1 s"), "{err}");
}

#[test]
fn an_engine_name_shift_jis_cannot_hold_never_fails_the_file() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kif", GAME);
    let script = std::fs::read_to_string(analyst())
        .unwrap()
        .replace("id name Analyst 1.0", "id name \u{C9}mile 1.0\u{202E}x");
    let engine = write(d.path(), "emile.sh", &script);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .env("ANALYST_STATE", d.path())
        .args(["analyze", "--engine"])
        .arg(&engine)
        .args(["--nodes", "1000", "-o"])
        .arg(d.path().join("out.kif"))
        .arg(&input)
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert!(err.contains("analysed 1, skipped 0, failed 0"), "{err}");
    let out = std::fs::read(d.path().join("out.kif")).unwrap();
    let text = kifview::core::notation::encoding::decode(
        &out,
        kifview::core::notation::TextEncoding::ShiftJis,
    )
    .text;
    assert!(text.contains("#エンジン=?mile 1.0x"), "{text}");
}

#[test]
fn lines_beyond_the_multipv_asked_for_are_not_written() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kifu", GAME);
    let script = std::fs::read_to_string(analyst()).unwrap().replace(
        "bestmove resign\\n'",
        "info depth 3 multipv 999999 score cp 5 pv 1g1f\\nbestmove resign\\n'",
    );
    assert!(script.contains("999999"));
    let engine = write(d.path(), "flood.sh", &script);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .env("ANALYST_STATE", d.path())
        .args(["analyze", "--engine"])
        .arg(&engine)
        .args(["--nodes", "1000"])
        .arg(&input)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("#エンジン="), "{}", stderr_of(&o));
    assert!(!out.contains("#候補999999"), "{out}");
}

#[test]
fn an_option_value_the_engine_cannot_take_fails_the_batch_with_the_reason() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.kifu", GAME);
    let config = write(
        d.path(),
        "c.toml",
        &format!(
            "[[engines]]\nname = \"fake\"\ncommand = \"{}\"\n[engines.options]\nMultiPV = \"lots\"\n",
            analyst()
        ),
    );
    let o = Command::cargo_bin("kifview")
        .unwrap()
        .env("ANALYST_STATE", d.path())
        .args(["analyze", "--config"])
        .arg(&config)
        .args(["--engine", "fake", "--nodes", "1000"])
        .arg(&input)
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert!(!o.status.success(), "{err}");
    // Named with the config file and the line that set it.
    let at = format!(
        "option MultiPV = \"lots\" ({}:5, in the config's [[engines]] entry fake) not sent",
        config.display()
    );
    assert!(
        err.contains(&at) && err.contains("a spin (a whole number from 1 to 10)"),
        "{err}"
    );
}

/// A FIFO named to `analyze` (issue 31): opening one for reading waits for a writer, and under
/// analyze's signal handler (`SA_RESTART`) the first SIGTERM restarted that wait, so a second
/// signal was needed. Non-regular inputs are refused by name, unopened; the first SIGTERM
/// ends the command whatever it was doing. Waits on the process's exit (bounded only so that
/// a broken build fails instead of hanging).
#[test]
fn a_fifo_named_to_analyze_is_refused_and_one_sigterm_ends_it() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("pipe.kifu");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid path string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // The engine says when it starts: analyze's signal handler is in place by then, and the
    // worker goes on to open the input.
    let engine = d.path().join("engine.sh");
    std::fs::write(
        &engine,
        format!(
            "#!/bin/sh\necho started > \"$ANALYST_STATE/started\"\nexec /bin/sh {}\n",
            analyst()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let kv = std::process::Command::new(env!("CARGO_BIN_EXE_kifview"))
        .env("ANALYST_STATE", d.path())
        .args([
            "analyze",
            "--engine",
            engine.to_str().unwrap(),
            "--nodes",
            "1000",
            "-o",
        ])
        .arg(d.path().join("out.kifu"))
        .arg(&fifo)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = kv.id() as i32;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(kv.wait_with_output()));
    // Started (the engine ran) or ended (refused before any engine ran).
    let started = d.path().join("started");
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !started.exists() && running(pid) && std::time::Instant::now() < end {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: signalling our own child (a zombie if it already ended: nothing happens).
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let out = match rx.recv_timeout(std::time::Duration::from_secs(30)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SAFETY: our own child, still blocked: killed so that the test ends.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("one SIGTERM did not end `kifview analyze` on a FIFO");
        }
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    // Refused (when it got there before the signal) or interrupted: never a record written.
    assert!(
        err.contains("not a regular file (a FIFO)") || out.status.code() == Some(143),
        "{:?} {err}",
        out.status
    );
    assert!(!d.path().join("out.kifu").exists());
    // Without a signal: refused at once, by name.
    let o = analyze(d.path())
        .args(["--nodes", "1000", "-o"])
        .arg(d.path().join("out.kifu"))
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .unwrap();
    let err = stderr_of(&o);
    assert!(
        err.contains("pipe.kifu") && err.contains("not a regular file (a FIFO)"),
        "{err}"
    );
}
