//! Bytes → damage to a collection index's files → open and query it (issue 31). Must hold:
//! opening and every query end, without a panic (a hang is libFuzzer's `-timeout`), with a
//! clear refusal (an error that says something) or an answer. When only the position index's
//! files were damaged (`pos-*.bin`, `moves-*.bin`, `games.bin`, the marker, the lock; their
//! blocks are checksummed), an answer is the undamaged index's answer exactly, and every game
//! it names is one of the collection's whose record, read from its file, reaches the position
//! at the node named (ply and variations): never a wrong game. When `catalog.sqlite` was
//! damaged, the same holds: every row a query reads is checked against the checksum written
//! with its commit (`collection::catalog`'s seal), so a changed value is refused, never
//! answered from; and every move `explore` lists is legal from the position.
//!
//! Each input asks [`ASKED`] of the positions (chosen by the input's bytes, so that a run
//! covers them all): asking every one made an execution take about a second.
//!
//! The index is built once per process, in two runs (two segments) with `--variations`, from
//! five records of `tests/fixtures` (KIF with nested variations, one starting at move 81, a
//! handicap board, a KI2 copy of a KIF game, a five-record CSA file), under the temporary
//! folder (`TMPDIR`); each input damages a copy of it. The folder is removed at exit.
//!
//! The input is a list of edits, 8 bytes each and the rest of the input as data: the file
//! (one of the index folder's files, by sorted name), what is done to it (flip bits at an
//! offset, write the data there, cut the file there, append the data, remove it, make it a
//! folder, make it a FIFO), and where.
#![no_main]
use kifview::collection::walk::key_path;
use kifview::collection::{Explored, Filter, Index, UpdateOptions, node_of, update};
use kifview::core::notation;
use kifview::core::rules::Position;
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The records indexed: (file name, bytes, first run or second).
const FILES: &[(&str, &[u8], bool)] = &[
    (
        "nested.kifu",
        include_bytes!("../../../tests/fixtures/kif/valid/variation-at-move-1-and-nesting.kifu"),
        true,
    ),
    (
        "late.kifu",
        include_bytes!("../../../tests/fixtures/fidelity/from_move_81.kifu"),
        true,
    ),
    (
        "handicap.kifu",
        include_bytes!("../../../tests/fixtures/kif/valid/handicap-with-board.kifu"),
        false,
    ),
    (
        "g020.ki2",
        include_bytes!("../../../tests/fixtures/ki2/valid/g4242_020.ki2"),
        false,
    ),
    (
        "g020.kif",
        include_bytes!("../../../tests/fixtures/kif/valid/g4242_020.kif"),
        true,
    ),
    (
        "five.csa",
        include_bytes!("../../../tests/fixtures/csa/valid/five_records.csa"),
        false,
    ),
];

/// A game found, as compared between two answers.
type Hit = (String, u32, u32, Vec<(u32, u32)>, Option<String>);

struct Fixture {
    /// The undamaged index.
    index: PathBuf,
    /// Where each input's copy goes.
    scratch: PathBuf,
    /// The index folder's files, sorted.
    names: Vec<String>,
    /// The collection's files (absolute).
    records: Vec<PathBuf>,
    /// The positions asked, with the undamaged answers.
    queries: Vec<(Position, Vec<Hit>, Explored)>,
}

static FIXTURE: OnceLock<Fixture> = OnceLock::new();

/// How many of the fixture's positions each input asks.
const ASKED: usize = 4;

/// The temporary folder of this process, removed at exit (libFuzzer ends with `exit`).
fn root() -> PathBuf {
    std::env::temp_dir().join(format!("kifview-fuzz-index-{}", std::process::id()))
}

extern "C" fn remove_root() {
    let _ = std::fs::remove_dir_all(root());
}

fn hits(idx: &Index, p: &Position) -> Result<Vec<Hit>, String> {
    let mut out: Vec<Hit> = idx
        .find(p, &Filter::default())?
        .into_iter()
        .map(|f| {
            let forks = f.variation.iter().map(|v| (v.ply, v.alt)).collect();
            (f.game.path, f.game.record, f.ply, forks, f.next)
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Every position of every line of the collection's records, a few per record, and the
/// start position.
fn positions(records: &[PathBuf]) -> Vec<Position> {
    let mut out = vec![Position::startpos()];
    for path in records {
        let bytes = std::fs::read(path).expect("fixture");
        for parsed in notation::load(&bytes, Some(path))
            .records
            .into_iter()
            .take(2)
        {
            let r = parsed.record;
            let ids = r.preorder();
            for id in ids.iter().step_by((ids.len() / 6).max(1)) {
                out.push(r.position_at(*id));
            }
        }
    }
    out
}

fn fixture() -> &'static Fixture {
    FIXTURE.get_or_init(|| {
        // The fixture is built once, with libFuzzer's SIGALRM held back (see `retrying`): an
        // interrupted write inside `update` would fail the setup, not the input. The alarm
        // is delivered when this returns.
        let _held = HeldAlarm::new();
        let root = root();
        let _ = std::fs::remove_dir_all(&root);
        // SAFETY: registers a function without arguments, called once at exit.
        unsafe { libc::atexit(remove_root) };
        let (first, second) = (root.join("first"), root.join("second"));
        std::fs::create_dir_all(&first).expect("temporary folder");
        std::fs::create_dir_all(&second).expect("temporary folder");
        let mut records = Vec::new();
        for (name, bytes, in_first) in FILES {
            let p = if *in_first { &first } else { &second }.join(name);
            std::fs::write(&p, bytes).expect("fixture written");
            records.push(std::fs::canonicalize(&p).expect("fixture"));
        }
        let index = root.join("index");
        let opts = UpdateOptions { variations: true };
        update(&index, &[first], opts, &|_, _| {}).expect("first run");
        update(&index, &[second], opts, &|_, _| {}).expect("second run");
        let mut names: Vec<String> = std::fs::read_dir(&index)
            .expect("index")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let idx = Index::open(&index).expect("the undamaged index opens");
        let queries = positions(&records)
            .into_iter()
            .map(|p| {
                let h = hits(&idx, &p).expect("undamaged find");
                let e = idx
                    .explore(&p, &Filter::default())
                    .expect("undamaged explore");
                (p, h, e)
            })
            .collect();
        assert!(
            names.iter().any(|n| n.starts_with("pos-2")),
            "two segments: {names:?}"
        );
        Fixture {
            index,
            scratch: root.join("damaged"),
            names,
            records,
            queries,
        }
    })
}

/// The position without its move number.
fn key(p: &Position) -> String {
    let sfen = p.to_sfen();
    sfen.rsplit_once(' ')
        .map_or(sfen.clone(), |(k, _)| k.to_string())
}

/// A game named by an answer is one of the collection's, and its record reaches `p` at the
/// node named.
fn check_hit(fx: &Fixture, h: &Hit, p: &Position) {
    let (path, record, ply, forks, _) = h;
    let path = key_path(path);
    assert!(
        fx.records.contains(&path),
        "a game of a file the collection does not hold: {}",
        path.display()
    );
    let bytes = std::fs::read(&path).expect("record file");
    let records = notation::load(&bytes, Some(&path)).records;
    let r = &records
        .get((*record as usize).wrapping_sub(1))
        .unwrap_or_else(|| panic!("{}: no record {record}", path.display()))
        .record;
    let forks: Vec<_> = forks
        .iter()
        .map(|&(ply, alt)| kifview::collection::Fork { ply, alt })
        .collect();
    let node = node_of(r, &forks, *ply)
        .unwrap_or_else(|| panic!("{}: no node at ply {ply} {forks:?}", path.display()));
    assert_eq!(
        key(&r.position_at(node)),
        key(p),
        "a wrong game: {} record {record} ply {ply} {forks:?}",
        path.display()
    );
}

/// Runs `f` again while it fails with EINTR: libFuzzer's timer (`-timeout`,
/// `-max_total_time`) sends SIGALRM without SA_RESTART, and `std::fs::copy` gives the
/// interrupted `copy_file_range` back as an error (CI, 554 s run: "copy: Interrupted
/// system call" in this harness, not in kifview).
fn retrying<T>(mut f: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    loop {
        match f() {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

/// Blocks SIGALRM on this thread while it lives.
struct HeldAlarm(libc::sigset_t);

impl HeldAlarm {
    fn new() -> Self {
        // SAFETY: sigset_t is plain data, filled by sigemptyset/sigaddset before use.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGALRM);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            HeldAlarm(set)
        }
    }
}

impl Drop for HeldAlarm {
    fn drop(&mut self) {
        // SAFETY: unblocks the set `new` blocked.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &self.0, std::ptr::null_mut()) };
    }
}

/// Copies the undamaged index into `to` (anew).
fn copy(fx: &Fixture, to: &Path) {
    let _ = retrying(|| std::fs::remove_dir_all(to));
    retrying(|| std::fs::create_dir_all(to)).expect("scratch folder");
    for n in &fx.names {
        retrying(|| std::fs::copy(fx.index.join(n), to.join(n))).expect("copy");
    }
}

/// Applies the edits the input describes.
fn damage(fx: &Fixture, dir: &Path, data: &[u8]) {
    let (edits, payload) = data.split_at((data.len().min(64) / 8) * 8);
    for e in edits.chunks_exact(8) {
        let name = &fx.names[e[0] as usize % fx.names.len()];
        let path = dir.join(name);
        let at = u32::from_le_bytes([e[2], e[3], e[4], e[5]]) as u64;
        let meta = std::fs::symlink_metadata(&path);
        // A file an earlier edit made a FIFO or a folder is not read here (it would wait).
        let regular = meta.as_ref().is_ok_and(|m| m.is_file());
        let len = meta.map_or(0, |m| m.len());
        let at = if len == 0 { 0 } else { at % (len + 1) };
        let kind = e[1] % 8;
        if kind < 5 && !regular {
            continue;
        }
        let result = match kind {
            0 | 1 => std::fs::read(&path).map(|mut b| {
                if let Some(byte) = b.get_mut(at as usize) {
                    *byte ^= e[6].max(1);
                }
                let _ = std::fs::write(&path, b);
            }),
            2 => std::fs::read(&path).map(|mut b| {
                let from = (at as usize).min(b.len());
                let n = payload.len().min(b.len() - from).min(e[6] as usize + 1);
                b[from..from + n].copy_from_slice(&payload[..n]);
                let _ = std::fs::write(&path, b);
            }),
            3 => std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .and_then(|f| f.set_len(at)),
            4 => std::fs::read(&path).map(|mut b| {
                b.extend_from_slice(payload);
                let _ = std::fs::write(&path, b);
            }),
            5 => std::fs::remove_file(&path).or_else(|_| std::fs::remove_dir_all(&path)),
            6 => {
                let _ = std::fs::remove_file(&path);
                std::fs::create_dir_all(&path)
            }
            _ => {
                let _ = std::fs::remove_file(&path);
                let _ = std::fs::remove_dir_all(&path);
                let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
                    .expect("no NUL in a path");
                // SAFETY: a valid C string.
                unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
                Ok(())
            }
        };
        let _ = result;
    }
}

fuzz_target!(|data: &[u8]| {
    let fx = fixture();
    let dir = &fx.scratch;
    copy(fx, dir);
    damage(fx, dir, data);
    let idx = match Index::open(dir) {
        Ok(idx) => idx,
        Err(e) => {
            assert!(!e.trim().is_empty(), "a refusal that says nothing");
            return;
        }
    };
    let first = data
        .iter()
        .fold(0usize, |h, &b| h.wrapping_mul(31).wrapping_add(b as usize));
    let n = fx.queries.len();
    for k in 0..ASKED.min(n) {
        let (p, want_hits, want_explored) = &fx.queries[(first + k * (n / ASKED).max(1)) % n];
        match hits(&idx, p) {
            Err(e) => assert!(!e.trim().is_empty(), "a refusal that says nothing"),
            Ok(got) => {
                for h in &got {
                    check_hit(fx, h, p);
                }
                assert_eq!(&got, want_hits, "find answered otherwise");
            }
        }
        match idx.explore(p, &Filter::default()) {
            Err(e) => assert!(!e.trim().is_empty(), "a refusal that says nothing"),
            Ok(got) => {
                assert_eq!(&got, want_explored, "explore answered otherwise");
                let legal: Vec<String> = p.legal_moves().iter().map(|m| m.usi()).collect();
                for m in &got.moves {
                    assert!(
                        legal.contains(&m.usi),
                        "explore lists {} from {}",
                        m.usi,
                        key(p)
                    );
                }
            }
        }
    }
    let _ = idx.games(&Filter::default());
});
