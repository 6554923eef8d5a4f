//! The command line against hostile inputs and awkward outputs: full disks, closed pipes,
//! devices, FIFOs, links, read-only files, missing directories, binary input, no terminal.
//!
//! `KIFVIEW_TEST_BIN=/path/to/kifview` runs these against another build (to see which fail
//! before a fix).
//!
//! Root-only or slow cases are `#[ignore]`d; run them with
//! `cargo test --test integration cli_files -- --ignored --test-threads=1`.

use crate::common::{asset, stderr_of};
use crate::pty::Session;
use assert_cmd::Command;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;

fn bin() -> PathBuf {
    std::env::var_os("KIFVIEW_TEST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_kifview")))
}

fn kifview() -> Command {
    Command::new(bin())
}

fn raw_kifview() -> std::process::Command {
    std::process::Command::new(bin())
}

/// `kifview convert assets/study.kif -o OUT`.
fn convert_study_to(out: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut c = kifview();
    c.arg("convert").arg(asset("study.kif")).arg("-o").arg(out);
    c
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A record of about `mb` megabytes (one long comment), for full-disk and kill tests.
fn big_record(dir: &Path, mb: usize) -> PathBuf {
    let p = dir.join("big.kifu");
    let mut s = String::from("手合割：平手\n手数----指手---------消費時間--\n");
    let line = format!("*{}\n", "長い解説の行です。".repeat(10));
    while s.len() < mb << 20 {
        s.push_str(&line);
    }
    s.push_str("   1 ７六歩(77)\n");
    std::fs::write(&p, s).unwrap();
    p
}

#[test]
fn a_full_disk_on_stdout_is_an_error() {
    for args in [
        vec!["convert", "STUDY", "--to", "kifu"],
        vec!["show", "STUDY"],
        vec!["check", "STUDY", "STUDY"],
    ] {
        let study = asset("study.kif");
        let args: Vec<&std::ffi::OsStr> = args
            .iter()
            .map(|a| {
                if *a == "STUDY" {
                    study.as_os_str()
                } else {
                    a.as_ref()
                }
            })
            .collect();
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = raw_kifview()
            .args(&args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = stderr_of(&out);
        if args[0] == "check" {
            // A clean check prints nothing: nothing to fail.
            assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
            continue;
        }
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to standard output: No space left on device (os error 28)"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let study = asset("study.kif");
    let bad = tempfile::tempdir().unwrap();
    let bad_file = bad.path().join("bad.kifu");
    std::fs::write(&bad_file, "手合割：平手\n   1 ５五歩(57)\n").unwrap();
    for args in [
        vec![
            "convert".as_ref(),
            study.as_os_str(),
            "--to".as_ref(),
            "kifu".as_ref(),
        ],
        vec!["show".as_ref(), study.as_os_str()],
        vec!["check".as_ref(), bad_file.as_os_str()],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = raw_kifview()
            .args(&args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        let want = if args[0] == "check" {
            [1, 141]
        } else {
            [0, 141]
        };
        assert!(
            out.status.code().is_some_and(|c| want.contains(&c)),
            "{args:?}: {:?} {err}",
            out.status
        );
    }
}

#[test]
fn output_to_a_fifo_goes_into_the_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.kifu");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid path string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // Our own read end (non-blocking, so opening does not wait) and a write end that keeps
    // it from seeing the end before kifview opens the FIFO. An old build renames a regular
    // file over the FIFO and never writes into it: then nothing arrives, and nothing hangs.
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut rd = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let wr = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    let status = raw_kifview()
        .arg("convert")
        .arg(asset("study.kif"))
        .arg("-o")
        .arg(&fifo)
        .status()
        .unwrap();
    drop(wr);
    // Read what arrived. A process another test starts at this moment can hold a copy of the
    // write end for an instant (between its fork and exec), so an empty non-blocking read is
    // tried again for a while instead of failing.
    let mut got = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let mut chunk = [0u8; 65536];
    loop {
        match rd.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if std::time::Instant::now() > deadline {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Err(e) => panic!("reading the FIFO: {e}"),
        }
    }
    assert!(status.success());
    assert!(
        String::from_utf8_lossy(&got).contains("７六歩"),
        "the record went into the FIFO"
    );
    assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
}

#[test]
fn output_to_dev_null_leaves_a_device() {
    if is_root() && std::env::var_os("KIFVIEW_TEST_BIN").is_some() {
        println!("skipped: an old build run as root would replace /dev/null");
        return;
    }
    kifview()
        .arg("convert")
        .arg(asset("study.kif"))
        .args(["--to", "kifu", "-o", "/dev/null"])
        .assert()
        .success();
    kifview()
        .arg("convert")
        .arg(asset("study.kif"))
        .args(["--to", "csa", "-o", "/dev/stdout"])
        .assert()
        .success()
        .stdout(predicates::str::contains("+7776FU"));
    let m = std::fs::symlink_metadata("/dev/null").unwrap();
    assert!(m.file_type().is_char_device());
}

#[test]
fn output_to_dev_stdout_appended_to_a_file_keeps_what_it_held() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.txt");
    std::fs::write(&log, "earlier\n").unwrap();
    let appending = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let st = raw_kifview()
        .arg("convert")
        .arg(asset("study.kif"))
        .args(["--to", "csa", "-o", "/dev/stdout"])
        .stdout(appending)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("earlier\nV2.2"), "{text}");
    assert!(std::fs::symlink_metadata(&log).unwrap().is_file());
}

/// Root only (`mknod`): a character device of our own is written into, not replaced.
/// `cargo test --test integration cli_files::a_device_node -- --ignored`
#[test]
#[ignore = "needs root (mknod)"]
fn a_device_node_is_written_into_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let node = dir.path().join("null.kif");
    let c = std::ffi::CString::new(node.to_str().unwrap()).unwrap();
    // SAFETY: a valid path string; makedev(1, 3) is the null device.
    let r = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) };
    assert_eq!(r, 0, "mknod: {}", std::io::Error::last_os_error());
    convert_study_to(&node).assert().success();
    let m = std::fs::symlink_metadata(&node).unwrap();
    assert!(m.file_type().is_char_device(), "replaced by a regular file");
}

#[test]
fn links_read_only_files_and_new_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A dangling link: an error, the link stays.
    let dangling = d.join("dangling.kifu");
    std::os::unix::fs::symlink("nowhere/x.kifu", &dangling).unwrap();
    let out = convert_study_to(&dangling).output().unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("nowhere/x.kifu, which does not exist"),
        "{err}"
    );
    assert!(
        dangling
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );

    // A read-only file is not replaced.
    let ro = d.join("ro.kifu");
    std::fs::write(&ro, "old").unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = convert_study_to(&ro).output().unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("read-only"), "{err}");
    assert_eq!(std::fs::read(&ro).unwrap(), b"old");

    // Hard links stay linked.
    let a = d.join("a.kifu");
    let b = d.join("b.kifu");
    std::fs::write(&a, "old").unwrap();
    std::fs::hard_link(&a, &b).unwrap();
    convert_study_to(&a).assert().success();
    assert_eq!(std::fs::metadata(&a).unwrap().nlink(), 2);
    assert!(std::fs::read_to_string(&b).unwrap().contains("７六歩"));

    // A new file: the umask's mode, like any file this process creates.
    let reference = d.join("reference");
    std::fs::write(&reference, "x").unwrap();
    let new = d.join("new.kifu");
    convert_study_to(&new).assert().success();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o777;
    assert_eq!(mode(&new), mode(&reference));
    assert!(
        !names(d).iter().any(|n| n.ends_with(".tmp")),
        "{:?}",
        names(d)
    );
}

#[test]
fn a_trailing_slash_or_a_missing_directory_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let slash = format!("{}/sub.kifu/", dir.path().display());
    let out = raw_kifview()
        .arg("convert")
        .arg(asset("study.kif"))
        .args(["-o", &slash])
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    let deep = dir.path().join("a/b/c.kifu");
    let out = convert_study_to(&deep).output().unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("a/b does not exist"), "{err}");
    assert!(!err.contains("unchanged"), "{err}");
    assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
}

#[test]
fn stale_temporary_files_are_cleaned_by_the_next_save() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = format!(".out.kifu.kifview-{dead}.tmp");
    let foreign = ".out.kifu.swp".to_string();
    std::fs::write(dir.path().join(&stale), "half a record").unwrap();
    std::fs::write(dir.path().join(&foreign), "someone else's").unwrap();
    convert_study_to(dir.path().join("out.kifu"))
        .assert()
        .success();
    assert_eq!(names(dir.path()), [foreign.as_str(), "out.kifu"]);
}

#[test]
fn input_that_holds_no_record_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let elf = dir.path().join("program.kif");
    std::fs::write(
        &elf,
        b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0\x10\x10\0\0",
    )
    .unwrap();
    let jkf = dir.path().join("cut.jkf");
    std::fs::write(&jkf, "{\"header\":").unwrap();
    for (file, why) in [(&elf, "binary data"), (&jkf, "no JKF record found")] {
        for sub in [&["convert", "--to", "csa"][..], &["show"], &["check"]] {
            let out = raw_kifview()
                .arg(sub[0])
                .arg(file)
                .args(&sub[1..])
                .output()
                .unwrap();
            let text = format!(
                "{}{}",
                stderr_of(&out),
                String::from_utf8_lossy(&out.stdout)
            );
            assert_eq!(out.status.code(), Some(1), "{sub:?} {file:?}: {text}");
            assert!(
                text.contains("not a record") && text.contains(why),
                "{text}"
            );
        }
    }
}

#[test]
fn usage_mistakes_are_named() {
    for args in [
        &["convert", "X", "--to", "csa", "--record", "0"][..],
        &["show", "X", "--record", "0"],
        &["X", "--record", "0"],
    ] {
        let study = asset("study.kif");
        let out = raw_kifview()
            .args(args.iter().map(|a| {
                if *a == "X" {
                    study.as_os_str()
                } else {
                    a.as_ref()
                }
            }))
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("numbered from 1"), "{err}");
    }
    // --ply past the end names the main line's length.
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("g.kifu");
    kifview()
        .arg("convert")
        .arg(asset("tsume.kifu"))
        .arg("-o")
        .arg(&game)
        .assert()
        .success();
    let out = raw_kifview()
        .arg("show")
        .arg(&game)
        .args(["--ply", "999"])
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--ply 999: the main line has 1 move"), "{err}");
    assert!(out.stdout.is_empty());
    // Two names and no -o: the second was meant as the output.
    let out = raw_kifview()
        .arg("convert")
        .arg(asset("study.kif"))
        .arg(dir.path().join("b.csa"))
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("-o ") && err.contains("b.csa"), "{err}");
}

#[test]
fn the_viewer_without_a_terminal_points_at_show_and_convert() {
    let out = raw_kifview()
        .arg(asset("study.kif"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs a terminal"), "{err}");
    assert!(
        err.contains("kifview show") && err.contains("kifview convert"),
        "{err}"
    );
    assert!(!err.contains("os error"), "{err}");
}

#[test]
fn completions_offer_subcommands_and_handicaps() {
    for shell in ["bash", "zsh", "fish"] {
        let out = kifview().args(["completions", shell]).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        for word in ["convert", "show", "check", "香落ち", "二枚落ち", "十枚落ち"] {
            assert!(text.contains(word), "{shell}: {word}");
        }
    }
    kifview()
        .args(["--handicap", "三枚落ち", "--help"])
        .assert()
        .success();
    kifview()
        .args(["--handicap", "bogus"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("香落ち"));
}

/// A crafted comment that sets the window title and fills the clipboard (OSC 52).
const EVIL: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*\x1b]0;pwned\x07\x1b]52;c;aGk=\x07 comment\n";

#[test]
fn convert_to_a_terminal_strips_escapes_and_pipes_get_exact_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let evil = dir.path().join("evil.kifu");
    std::fs::write(&evil, EVIL).unwrap();
    let out = kifview()
        .arg("convert")
        .arg(&evil)
        .args(["--to", "kifu"])
        .output()
        .unwrap();
    let piped = String::from_utf8(out.stdout).unwrap();
    assert!(piped.contains("\x1b]52;c;aGk=\x07"), "{piped:?}");

    let mut s = Session::start(
        &["convert", evil.to_str().unwrap(), "--to", "kifu"],
        24,
        100,
    );
    let status = s.wait_exit();
    assert!(status.success());
    let raw = String::from_utf8_lossy(&s.raw).into_owned();
    assert!(raw.contains("comment"), "{raw:?}");
    assert!(raw.contains("７六歩"), "{raw:?}");
    assert!(
        !raw.contains("\x1b]"),
        "an OSC sequence reached the terminal: {raw:?}"
    );
    assert!(!raw.contains('\x07'), "{raw:?}");
    assert!(raw.contains("redirect to a file"), "{raw:?}");
}

/// Root only (mounts a small tmpfs): a full disk leaves the old file and no temporary file.
/// `cargo test --test integration cli_files::a_full_disk -- --ignored`
#[test]
#[ignore = "needs root (mount)"]
fn a_full_disk_leaves_the_old_file_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let big = big_record(dir.path(), 2);
    let mnt = dir.path().join("small");
    std::fs::create_dir(&mnt).unwrap();
    let st = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(&mnt)
        .status()
        .unwrap();
    assert!(st.success(), "mount failed");
    let target = mnt.join("out.kifu");
    std::fs::write(&target, "the old record").unwrap();
    let out = raw_kifview()
        .arg("convert")
        .arg(&big)
        .arg("-o")
        .arg(&target)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    let left = names(&mnt);
    let old = std::fs::read(&target).unwrap();
    let to_full = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} convert {} --to kifu > {}/stdout.kifu",
            bin().display(),
            big.display(),
            mnt.display()
        ))
        .output()
        .unwrap();
    let _ = std::process::Command::new("umount").arg(&mnt).status();
    println!(
        "-o onto a full disk: exit {:?}, stderr: {err}",
        out.status.code()
    );
    println!(
        "> onto a full disk: exit {:?}, stderr: {}",
        to_full.status.code(),
        stderr_of(&to_full)
    );
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("No space left on device (os error 28) (the file on disk is unchanged)"),
        "{err}"
    );
    assert_eq!(old, b"the old record");
    assert_eq!(left, ["out.kifu"]);
    assert_eq!(to_full.status.code(), Some(1));
    assert!(stderr_of(&to_full).contains("No space left on device"));
}

/// Slow (about a minute): `kill -9` during saves leaves no temporary file once the next save
/// into the directory is done, and never a torn record.
/// `cargo test --release --test integration cli_files::kill_9 -- --ignored --nocapture`
#[test]
#[ignore = "slow: kills 60 saves"]
fn kill_9_during_saves_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let big = big_record(dir.path(), 3);
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let target = out_dir.join("big.kifu");
    let started = std::time::Instant::now();
    kifview()
        .arg("convert")
        .arg(&big)
        .arg("-o")
        .arg(&target)
        .assert()
        .success();
    // Kills land in the last third of a save, where it writes.
    let save_ms = started.elapsed().as_millis() as u64;
    let want = std::fs::read(&target).unwrap();
    let (mut seen_tmp, mut rounds) = (0, 0);
    for i in 0..60u64 {
        let mut child = raw_kifview()
            .arg("convert")
            .arg(&big)
            .arg("-o")
            .arg(&target)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let at = save_ms * (70 + (i * 7) % 35) / 100;
        std::thread::sleep(std::time::Duration::from_millis(at));
        let _ = child.kill();
        let _ = child.wait();
        rounds += 1;
        seen_tmp += names(&out_dir)
            .iter()
            .filter(|n| n.ends_with(".tmp"))
            .count();
        if let Ok(b) = std::fs::read(&target) {
            assert_eq!(b, want, "a torn record after round {i}");
        }
    }
    kifview()
        .arg("convert")
        .arg(&big)
        .arg("-o")
        .arg(&target)
        .assert()
        .success();
    println!("{rounds} kills, {seen_tmp} temporary files seen between kills");
    assert_eq!(names(&out_dir), ["big.kifu"]);
}
