//! What is read into an index and by every command (issue 31): only regular files, of a
//! bounded size; a folder that cannot be read skipped with a warning; a file counted once
//! however many links name it; kifview's own recovery files left out; names that are not
//! UTF-8 kept as they are; folders renamed or dropped forgotten; paths printed so that a shell
//! opens them.

use assert_cmd::Command;
use serde_json::Value;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common;

/// Long enough for any machine, short enough that a hang fails the test instead of the run.
const HANG: Duration = Duration::from_secs(120);

fn kifview() -> Command {
    let mut c = Command::cargo_bin("kifview").expect("binary built");
    c.timeout(HANG);
    c
}

fn kif(sente: &str) -> String {
    format!(
        "手合割：平手\n先手：{sente}\n後手：相手\n手数----指手---------消費時間--\n\
         1 ７六歩(77)\n2 ３四歩(33)\n3 投了\n"
    )
}

fn index(args: &[&std::ffi::OsStr], idx: &Path) -> std::process::Output {
    kifview()
        .arg("index")
        .args(args)
        .arg("--index")
        .arg(idx)
        .output()
        .unwrap()
}

/// `games --json`, one value per game.
fn games(idx: &Path) -> Vec<Value> {
    let out = kifview()
        .args(["games", "--json", "--index"])
        .arg(idx)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    out.stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).expect("one JSON object a line"))
        .collect()
}

/// What a command said, on either stream (`check` reports on standard output).
fn said(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        common::stderr_of(out)
    )
}

/// The file a printed path (`\xNN` for a byte that is not UTF-8, `\\` for a backslash) names.
fn printed_path(p: &str) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    let b = p.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < b.len() {
        match (b[i], b.get(i + 1)) {
            (b'\\', Some(b'\\')) => {
                out.push(b'\\');
                i += 2;
            }
            (b'\\', Some(b'x')) => {
                out.push(u8::from_str_radix(&p[i + 2..i + 4], 16).expect("\\xNN"));
                i += 4;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    PathBuf::from(std::ffi::OsString::from_vec(out))
}

/// A temporary folder and an empty `coll` folder in it.
fn collection_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).unwrap();
    (dir, coll)
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

#[test]
fn fifos_devices_and_dangling_links_are_skipped_by_name_and_never_read() {
    let (dir, coll) = collection_dir();
    std::fs::write(coll.join("good.kif"), kif("甲")).unwrap();
    mkfifo(&coll.join("pipe.kif"));
    std::os::unix::fs::symlink("/dev/zero", coll.join("zero.kif")).unwrap();
    std::os::unix::fs::symlink(coll.join("gone.kif"), coll.join("dangling.kif")).unwrap();
    let idx = dir.path().join("idx");
    let out = index(&[coll.as_os_str()], &idx);
    let err = common::stderr_of(&out);
    for (name, why) in [
        ("pipe.kif", "not a regular file"),
        ("zero.kif", "not a regular file"),
        ("dangling.kif", "dangling symbolic link"),
    ] {
        assert!(
            err.lines().any(|l| l.contains(name) && l.contains(why)),
            "{name}: {why}: {err}"
        );
    }
    assert!(err.contains(": 1 games (1 added"), "{err}");
    assert_eq!(games(&idx).len(), 1);
    // `check -r` walks the folder the same way.
    let out = kifview().args(["check", "-r"]).arg(&coll).output().unwrap();
    let err = said(&out);
    assert!(
        err.contains("pipe.kif") && err.contains("not a regular file"),
        "{err}"
    );
}

/// `diagram -r` and `analyze -r` walk folders as `index` does, and name each file they skip
/// (the walk left FIFOs and devices out without a word before).
#[test]
fn diagram_and_analyze_name_each_non_regular_file_their_walk_skips() {
    let (dir, coll) = collection_dir();
    std::fs::write(coll.join("good.kif"), kif("甲")).unwrap();
    mkfifo(&coll.join("pipe.kif"));
    std::os::unix::fs::symlink("/dev/zero", coll.join("zero.kif")).unwrap();
    let named = |what: &str, out: &std::process::Output| {
        let err = common::stderr_of(out);
        for name in ["pipe.kif", "zero.kif"] {
            assert!(
                err.lines()
                    .any(|l| l.contains(name) && l.contains("not a regular file")),
                "{what}: {name} not named: {err}"
            );
        }
    };
    let pics = dir.path().join("pics");
    let out = kifview()
        .args(["diagram", "-r"])
        .arg(&coll)
        .arg("--out-dir")
        .arg(&pics)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    named("diagram -r", &out);
    // The regular file was drawn, and nothing for the skipped ones.
    let drawn: Vec<_> = std::fs::read_dir(&pics)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        drawn.len() == 1 && drawn[0].starts_with("good"),
        "{drawn:?}"
    );
    let analysed = dir.path().join("analysed");
    let mut cmd = common::analyze(dir.path());
    cmd.timeout(HANG);
    let out = cmd
        .args(["--nodes", "1000", "-r"])
        .arg(&coll)
        .arg("--out-dir")
        .arg(&analysed)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    named("analyze -r", &out);
    assert!(
        common::stderr_of(&out).contains("analysed 1"),
        "{}",
        common::stderr_of(&out)
    );
}

/// A FIFO in place of one of the index's own files (found by the `index` fuzz target): the
/// queries, `index --check` and the next update say so and end; before, opening it waited
/// for a writer for ever (`find` and `index --check` hung on `pos-1.bin`, `moves-1.bin` and
/// `games.bin`).
#[test]
fn a_fifo_in_place_of_an_index_file_is_refused_never_waited_on() {
    let (dir, coll) = collection_dir();
    std::fs::write(coll.join("a.kif"), kif("甲")).unwrap();
    let pristine = dir.path().join("pristine");
    assert!(index(&[coll.as_os_str()], &pristine).status.success());
    for name in ["pos-1.bin", "moves-1.bin", "games.bin"] {
        let idx = dir.path().join(format!("idx-{name}"));
        std::fs::create_dir_all(&idx).unwrap();
        for e in std::fs::read_dir(&pristine).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), idx.join(e.file_name())).unwrap();
        }
        std::fs::remove_file(idx.join(name)).unwrap();
        mkfifo(&idx.join(name));
        let out = kifview()
            .args(["find", "--position", "startpos", "--index"])
            .arg(&idx)
            .output()
            .unwrap();
        let err = said(&out);
        // games.bin is a cache: without it the answer is built from the catalog.
        if name == "games.bin" {
            assert!(out.status.success(), "{name}: {err}");
            assert!(err.contains("1 game"), "{name}: {err}");
        } else {
            assert!(!out.status.success(), "{name}: {err}");
            assert!(
                err.contains(name) && err.contains("not a regular file"),
                "{name}: {err}"
            );
        }
        let out = kifview()
            .args(["index", "--check", "--index"])
            .arg(&idx)
            .output()
            .unwrap();
        let err = said(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(name), "{name}: {err}");
        let out = index(&[coll.as_os_str()], &idx);
        assert!(out.status.success(), "{name}: {}", said(&out));
        assert_eq!(games(&idx).len(), 1, "{name}");
    }
}

#[test]
fn a_record_file_over_the_limit_is_refused_with_its_size_and_endless_inputs_end() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.kif");
    let mut text = kif("甲");
    while text.len() < 3 << 20 {
        text.push_str("*コメント行です。\n");
    }
    std::fs::write(&big, &text).unwrap();
    let size = text.len().to_string();
    for cmd in [&["check"][..], &["show"], &["convert", "--to", "csa"]] {
        let out = kifview()
            .args(cmd)
            .arg(&big)
            .env("KIFVIEW_MAX_FILE", "1M")
            .output()
            .unwrap();
        let err = said(&out);
        assert!(!out.status.success(), "{cmd:?}: {err}");
        assert!(
            err.contains("big.kif") && err.contains(&size) && err.contains("KIFVIEW_MAX_FILE"),
            "{cmd:?}: {err}"
        );
    }
    // The default limit takes it.
    let out = kifview().arg("check").arg(&big).output().unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    // Endless inputs: refused at the limit, not read for ever.
    let idx = dir.path().join("idx");
    let idx = idx.to_str().unwrap();
    for cmd in [
        &["show", "/dev/zero"][..],
        &["check", "/dev/zero"],
        &["find", "--ply", "1", "--file", "/dev/zero", "--index", idx],
    ] {
        let out = kifview()
            .args(cmd)
            .env("KIFVIEW_MAX_FILE", "1M")
            .output()
            .unwrap();
        let err = said(&out);
        assert!(
            !out.status.success() && err.contains("/dev/zero") && err.contains("NUL bytes"),
            "{cmd:?}: {err}"
        );
    }
    let out = kifview()
        .arg("check")
        .arg(&big)
        .env("KIFVIEW_MAX_FILE", "lots")
        .output()
        .unwrap();
    let err = said(&out);
    assert!(err.contains("KIFVIEW_MAX_FILE"), "{err}");
}

/// An endless input of zeros (`/dev/zero`, the session-12 fault run: 280 MB of memory before
/// the refusal at the 256 MiB limit) is refused after its first 64 KiB, named, by every
/// command that reads a record: no record file holds 64 KiB of NUL bytes. Before: "more than
/// the limit of 268435456 bytes" once that much was read.
#[test]
fn an_endless_input_of_zeros_is_refused_after_its_first_block_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let idx = dir.path().join("idx");
    let idx = idx.to_str().unwrap();
    let svg = dir.path().join("zero.svg");
    for cmd in [
        &["show", "/dev/zero"][..],
        &["check", "/dev/zero"],
        &["find", "--ply", "1", "--file", "/dev/zero", "--index", idx],
        &["diagram", "/dev/zero", "-o", svg.to_str().unwrap()],
        &["convert", "--to", "csa", "/dev/zero"],
    ] {
        let out = kifview().args(cmd).output().unwrap();
        let err = said(&out);
        assert!(!out.status.success(), "{cmd:?}: {err}");
        assert!(
            err.contains("/dev/zero")
                && err.contains("not a record file")
                && err.contains("NUL bytes"),
            "{cmd:?}: {err}"
        );
    }
    assert!(!svg.exists());
}

/// Makes `depth` nested folders of 200-byte names under `root` (through their descriptors:
/// the path grows past PATH_MAX) and a record file at the bottom.
fn too_deep(root: &Path, depth: usize) {
    let name = std::ffi::CString::new("d".repeat(200)).unwrap();
    let c = std::ffi::CString::new(root.as_os_str().as_bytes()).unwrap();
    // SAFETY: valid C strings; every descriptor opened is closed.
    unsafe {
        let mut fd = libc::open(c.as_ptr(), libc::O_DIRECTORY | libc::O_RDONLY);
        assert!(fd >= 0);
        for _ in 0..depth {
            assert_eq!(libc::mkdirat(fd, name.as_ptr(), 0o755), 0, "mkdirat");
            let next = libc::openat(fd, name.as_ptr(), libc::O_DIRECTORY | libc::O_RDONLY);
            libc::close(fd);
            assert!(next >= 0);
            fd = next;
        }
        let file = std::ffi::CString::new("deep.kif").unwrap();
        let f = libc::openat(fd, file.as_ptr(), libc::O_CREAT | libc::O_WRONLY, 0o644);
        assert!(f >= 0);
        let text = kif("深");
        libc::write(f, text.as_ptr().cast(), text.len());
        libc::close(f);
        libc::close(fd);
    }
}

#[test]
fn a_folder_that_cannot_be_read_is_skipped_with_a_warning_and_the_rest_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(coll.join("a")).unwrap();
    std::fs::write(coll.join("a/one.kif"), kif("甲")).unwrap();
    std::fs::write(coll.join("two.kif"), kif("乙")).unwrap();
    too_deep(&coll.join("a"), 25);
    let idx = dir.path().join("idx");
    let out = index(&[coll.as_os_str()], &idx);
    let err = common::stderr_of(&out);
    assert!(err.contains(": 2 games (2 added"), "{err}");
    assert!(
        err.lines()
            .any(|l| l.contains("cannot read the folder") && l.contains("ddd")),
        "{err}"
    );
    assert_eq!(games(&idx).len(), 2);
}

#[test]
fn a_file_counts_once_however_many_links_name_it_and_recovery_files_are_not_games() {
    let dir = tempfile::tempdir().unwrap();
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(coll.join("sub")).unwrap();
    std::fs::write(coll.join("a.kif"), kif("甲")).unwrap();
    std::os::unix::fs::symlink(coll.join("a.kif"), coll.join("link.kif")).unwrap();
    std::os::unix::fs::symlink("../a.kif", coll.join("sub/rel.kif")).unwrap();
    std::fs::hard_link(coll.join("a.kif"), coll.join("hard.kif")).unwrap();
    std::fs::write(
        coll.join(".a.kif.kifview-recovery-1700000000000-42.kifu"),
        kif("回復"),
    )
    .unwrap();
    let idx = dir.path().join("idx");
    let out = index(&[coll.as_os_str()], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let g = games(&idx);
    assert_eq!(g.len(), 1, "{g:?}");
    assert_eq!(g[0]["sente"], "甲");
    // A second root naming the same files adds nothing either.
    let out = index(&[coll.join("sub").as_os_str()], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    assert_eq!(games(&idx).len(), 1);
}

/// A hard link found by a later run, under another folder, to a file an earlier run indexed
/// is the same game: the catalog keeps each file's identity (device, inode), and the later
/// name is skipped with a note while the first name is there. Before, the second run added
/// it again (2 games).
#[test]
fn a_hard_link_found_by_a_later_run_to_a_file_already_indexed_counts_once() {
    let (dir, coll) = collection_dir();
    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(coll.join("a.kif"), kif("甲")).unwrap();
    let idx = dir.path().join("idx");
    let out = index(&[coll.as_os_str()], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    assert_eq!(games(&idx).len(), 1);
    std::fs::hard_link(coll.join("a.kif"), other.join("same.kif")).unwrap();
    std::fs::write(other.join("b.kif"), kif("乙")).unwrap();
    let out = index(&[other.as_os_str()], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let err = common::stderr_of(&out);
    assert!(
        err.lines()
            .any(|l| l.contains("same.kif") && l.contains("a.kif") && l.contains("same file")),
        "{err}"
    );
    let g = games(&idx);
    let names: Vec<_> = g.iter().map(|g| g["sente"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2, "{g:?}");
    assert!(names.contains(&"甲") && names.contains(&"乙"), "{names:?}");
    // Both runs again, in either order: still one game for the file.
    for roots in [[&coll, &other], [&other, &coll]] {
        let out = index(&[roots[0].as_os_str(), roots[1].as_os_str()], &idx);
        assert!(out.status.success(), "{}", common::stderr_of(&out));
        assert_eq!(games(&idx).len(), 2);
    }
    // The first name gone: the next run of the other folder counts the file under its name.
    std::fs::remove_file(coll.join("a.kif")).unwrap();
    let out = index(&[coll.as_os_str()], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let out = index(&[other.as_os_str()], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let g = games(&idx);
    assert_eq!(g.len(), 2, "{g:?}");
    assert!(
        g.iter()
            .any(|g| g["path"].as_str().unwrap().ends_with("other/same.kif")),
        "{g:?}"
    );
}

#[test]
fn file_names_that_are_not_utf8_stay_two_games_with_paths_that_open() {
    use std::os::unix::ffi::OsStringExt;
    let (dir, coll) = collection_dir();
    let name = |b: u8| std::ffi::OsString::from_vec(vec![b'x', b, b'.', b'k', b'i', b'f']);
    std::fs::write(coll.join(name(0xff)), kif("甲")).unwrap();
    std::fs::write(coll.join(name(0xfe)), kif("乙")).unwrap();
    std::fs::write(coll.join(r"back\xff.kif"), kif("丙")).unwrap();
    let idx = dir.path().join("idx");
    let out = index(&[coll.as_os_str()], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let g = games(&idx);
    assert_eq!(g.len(), 3, "{g:?}");
    let mut paths: Vec<PathBuf> = g
        .iter()
        .map(|v| printed_path(v["path"].as_str().unwrap()))
        .collect();
    paths.sort();
    let mut want = vec![
        coll.join(name(0xff)),
        coll.join(name(0xfe)),
        coll.join(r"back\xff.kif"),
    ];
    want.sort();
    assert_eq!(paths, want);
    // The table's line opens the file: the path as a shell word.
    let out = kifview()
        .args(["games", "--player", "甲", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(shell_paths(&out.stdout), [coll.join(name(0xff))]);
}

/// The paths of a table's `FILE +N` lines, as bash reads each line's first word.
fn shell_paths(table: &[u8]) -> Vec<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let text = String::from_utf8(table.to_vec()).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("  "))
        .map(|l| {
            let out = std::process::Command::new("bash")
                .arg("-c")
                .arg(format!("set -- {l}; printf %s \"$1\""))
                .output()
                .unwrap();
            assert!(out.status.success(), "{l}");
            PathBuf::from(std::ffi::OsString::from_vec(out.stdout))
        })
        .collect()
}

#[test]
fn paths_with_tabs_and_newlines_print_as_shell_words_and_json_escapes_separators() {
    let (dir, coll) = collection_dir();
    let odd = coll.join("a\tb\nc 'q'.kif");
    std::fs::write(&odd, kif("甲\u{2028}乙\u{2029}丙")).unwrap();
    let idx = dir.path().join("idx");
    let out = index(&[coll.as_os_str()], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let out = kifview()
        .args(["find", "--position", "startpos", "--index"])
        .arg(&idx)
        .output()
        .unwrap();
    assert_eq!(shell_paths(&out.stdout), std::slice::from_ref(&odd));
    for cmd in [&["find", "--position", "startpos"][..], &["games"]] {
        let out = kifview()
            .args(cmd)
            .arg("--json")
            .arg("--index")
            .arg(&idx)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            !text.contains(['\u{2028}', '\u{2029}']) && text.contains(r"\u2028"),
            "{cmd:?}: {text:?}"
        );
        let v: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(v["sente"], "甲\u{2028}乙\u{2029}丙");
        assert_eq!(printed_path(v["path"].as_str().unwrap()), odd);
    }
}

#[test]
fn a_renamed_folder_is_forgotten_and_index_forget_drops_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("A");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::write(a.join("one.kif"), kif("甲")).unwrap();
    std::fs::write(a.join("two.kif"), kif("乙")).unwrap();
    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("three.kif"), kif("丙")).unwrap();
    let idx = dir.path().join("idx");
    for root in [&a, &other] {
        let out = index(&[root.as_os_str()], &idx);
        assert!(out.status.success(), "{}", common::stderr_of(&out));
    }
    let b = dir.path().join("B");
    std::fs::rename(&a, &b).unwrap();
    let out = index(&[b.as_os_str()], &idx);
    let err = common::stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.lines()
            .any(|l| l.contains(&a.display().to_string()) && l.contains("forgotten")),
        "{err}"
    );
    let g = games(&idx);
    assert_eq!(g.len(), 3, "{g:?}");
    for v in &g {
        let p = printed_path(v["path"].as_str().unwrap());
        assert!(p.exists(), "{p:?}");
    }
    // A folder still there is dropped on request, and gone for good (a rebuild does not
    // read it again).
    let forget = std::ffi::OsStr::new("--forget");
    let out = index(&[forget, other.as_os_str()], &idx);
    let err = common::stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(games(&idx).len(), 2);
    let out = index(&[forget, a.as_os_str()], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    let out = index(&["--variations".as_ref(), b.as_os_str()], &idx);
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    assert_eq!(games(&idx).len(), 2);
}

#[test]
fn a_csa_archive_larger_than_the_file_limit_is_indexed_record_by_record() {
    let (dir, coll) = collection_dir();
    let rec =
        |i: usize| format!("V2.2\nN+先手{i}\nN-後手{i}\nPI\n+\n+7776FU\nT3\n-3334FU\nT5\n%TORYO\n");
    let mut text = String::new();
    let mut n = 0;
    while text.len() < 6 << 20 {
        if n > 0 {
            text.push_str("/\n");
        }
        text.push_str(&rec(n));
        n += 1;
    }
    std::fs::write(coll.join("archive.csa"), &text).unwrap();
    let idx = dir.path().join("idx");
    let out = kifview()
        .arg("index")
        .arg(&coll)
        .arg("--index")
        .arg(&idx)
        .env("KIFVIEW_MAX_FILE", "1M")
        .output()
        .unwrap();
    let err = common::stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&format!(": {n} games ({n} added")), "{err}");
    let g = games(&idx);
    assert_eq!(g.len(), n);
    assert_eq!(g[n - 1]["sente"], format!("先手{}", n - 1));
    assert_eq!(g[n - 1]["record"], n);
}

/// `kifview check` reads a CSA archive record by record too, as `index` does: memory in
/// proportion to the largest record (a 235 MB Floodgate-style archive took 590 MB and more than
/// 15 minutes read whole), so a file over the size limit is checked, and a bad move deep in it
/// is named at its line in the file. Failed before: "over the limit … for a record file".
#[test]
fn check_reads_a_csa_archive_larger_than_the_file_limit_record_by_record() {
    let (_dir, coll) = collection_dir();
    let rec = |i: usize, bad: bool| {
        let reply = if bad { "-3355FU" } else { "-3334FU" };
        format!("V2.2\nN+先手{i}\nN-後手{i}\nPI\n+\n+7776FU\nT3\n{reply}\nT5\n%TORYO\n")
    };
    let (mut text, mut n, mut bad_line) = (String::new(), 0, 0);
    while text.len() < 6 << 20 {
        if n > 0 {
            text.push_str("/\n");
        }
        let bad = n == 40_000;
        if bad {
            bad_line = text.lines().count() + 8;
        }
        text.push_str(&rec(n, bad));
        n += 1;
    }
    assert!(bad_line > 0, "the archive holds the bad record");
    let path = coll.join("archive.csa");
    std::fs::write(&path, &text).unwrap();
    let out = kifview()
        .arg("check")
        .arg(&path)
        .env("KIFVIEW_MAX_FILE", "1M")
        .output()
        .unwrap();
    let (stdout, err) = (
        String::from_utf8_lossy(&out.stdout),
        common::stderr_of(&out),
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}{err}");
    assert!(!err.contains("over the limit"), "{err}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(
        lines[0].starts_with(&format!("{}:{bad_line}:", path.display())),
        "{stdout}"
    );
    // The same archive with no bad move is clean.
    std::fs::write(&path, text.replace("-3355FU", "-3334FU")).unwrap();
    let out = kifview()
        .arg("check")
        .arg(&path)
        .env("KIFVIEW_MAX_FILE", "1M")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_of(&out));
    assert!(out.stdout.is_empty());
}
