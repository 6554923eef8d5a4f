//! Books of any size: an unsorted text book sorted once into a copy in the cache and looked
//! up there, `convert` through an external sort (its output equal to the in-memory
//! writers'), no temporary file left after a success, a failure or Ctrl-C.

use super::generated;
use assert_cmd::Command;
use kifview::book::{self, Book, Format, Lookup};
use std::path::{Path, PathBuf};

fn kifview(cache: &Path) -> Command {
    let mut c = Command::cargo_bin("kifview").expect("binary built");
    c.env("XDG_CACHE_HOME", cache);
    c
}

/// `book`'s text with its positions in reverse order, one of them with its hands written
/// in another order than YaneuraOu's (as a hand-edited book may have them).
fn unsorted_text(b: &Book) -> String {
    let text = String::from_utf8(book::encode(b, Format::YaneuraOu).unwrap().bytes).unwrap();
    let mut blocks: Vec<&str> = text.split("\nsfen ").collect();
    blocks[1..].reverse();
    let mut out = blocks.join("\nsfen ");
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn show_json(cache: &Path, path: &Path, key: &str) -> (String, String) {
    let out = kifview(cache)
        .args(["book", "show", "--json", "--sfen"])
        .arg(format!("{key} 1"))
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn an_unsorted_text_book_is_sorted_once_into_the_cache_and_answers_as_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let b = generated(40, 24, 11);
    let path = dir.path().join("mine.db");
    std::fs::write(&path, unsorted_text(&b)).unwrap();
    let keys: Vec<String> = b.iter().map(|(k, _)| k.to_string()).step_by(7).collect();
    let want = |k: &str| {
        let moves = b.moves(k).unwrap();
        let list: Vec<String> = moves
            .iter()
            .map(|m| {
                format!(
                    "{{\"usi\":\"{}\",\"value\":{},\"depth\":{},\"count\":{},\"comment\":{}}}",
                    m.usi.usi(),
                    m.value.map_or("null".into(), |v| v.to_string()),
                    m.depth,
                    m.count,
                    serde_json::to_string(&m.comment).unwrap()
                )
            })
            .collect();
        format!("{{\"moves\":[{}]}}\n", list.join(","))
    };
    // The first opening sorts it and says so.
    let (json, err) = show_json(&cache, &path, &keys[0]);
    assert_eq!(json, want(&keys[0]));
    assert!(err.contains("not sorted"), "{err}");
    assert!(err.contains("sorted once into"), "{err}");
    let copies = files_in(&cache.join("kifview/books"));
    assert_eq!(copies.len(), 1, "{copies:?}");
    // The copy is a sorted book holding every position.
    let copy = book::open(&copies[0]).unwrap();
    assert!(copy.note.is_none());
    assert_eq!(copy.book.len(), b.len());
    // Later openings use it, silently.
    for k in &keys[1..] {
        let (json, err) = show_json(&cache, &path, k);
        assert_eq!(json, want(k), "{k}");
        assert!(!err.contains("sorted once"), "{err}");
    }
    // A changed book gets a new copy; the old one goes.
    let mut more = b.clone();
    let k = keys[0].clone();
    more.get_mut(&k).unwrap().moves[0].count = 424242;
    std::fs::write(&path, unsorted_text(&more)).unwrap();
    let (json, err) = show_json(&cache, &path, &k);
    assert!(json.contains("\"count\":424242"), "{json}");
    assert!(err.contains("sorted once into"), "{err}");
    let now = files_in(&cache.join("kifview/books"));
    assert_eq!(now.len(), 1, "{now:?}");
    assert_ne!(now, copies);
}

#[test]
fn an_sfen_not_written_as_yaneuraou_writes_it_is_found_through_the_sorted_copy() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let path = dir.path().join("hands.db");
    // Sorted, but the hands of the one position written P before R.
    std::fs::write(
        &path,
        "#YANEURAOU-DB2016 1.00\nsfen 4k4/9/9/9/9/9/9/9/4K4 b PR2p 5\n5i5h none 12 3 4\n",
    )
    .unwrap();
    let (json, err) = show_json(&cache, &path, "4k4/9/9/9/9/9/9/9/4K4 b RP2p");
    assert_eq!(
        json,
        "{\"moves\":[{\"usi\":\"5i5h\",\"value\":12,\"depth\":3,\"count\":4,\"comment\":null}]}\n"
    );
    assert!(err.contains("not written as YaneuraOu writes it"), "{err}");
}

/// `kifview book convert IN -o OUT` and its stderr.
fn convert(cache: &Path, input: &Path, out: &Path) -> String {
    let r = kifview(cache)
        .args(["book", "convert"])
        .arg(input)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    let err = String::from_utf8(r.stderr).unwrap();
    assert!(r.status.success(), "{err}");
    err
}

#[test]
fn convert_sorts_through_files_and_writes_what_the_in_memory_writers_write() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let b = generated(60, 30, 5);
    let input = dir.path().join("in.db");
    std::fs::write(&input, unsorted_text(&b)).unwrap();
    let sorted = dir.path().join("sorted.db");
    convert(&cache, &input, &sorted);
    assert_eq!(
        std::fs::read(&sorted).unwrap(),
        book::encode(&b, Format::YaneuraOu).unwrap().bytes
    );
    let ybb = dir.path().join("out.ybb");
    let err = convert(&cache, &input, &ybb);
    assert!(err.contains("the ybb format cannot hold"), "{err}");
    assert_eq!(
        std::fs::read(&ybb).unwrap(),
        book::encode(&b, Format::Ybb).unwrap().bytes
    );
    // Apery, streamed through the sort: the entries of every position under its key, the
    // keys in order, each position's moves in the book's order (built here by hand).
    let bin = dir.path().join("out.bin");
    convert(&cache, &input, &bin);
    let mut want: Vec<(u64, [u8; 16])> = Vec::new();
    for (k, e) in b.iter() {
        let pos = kifview::core::rules::Position::from_sfen(k).unwrap();
        let ak = book::apery::key(&pos);
        for m in &e.moves {
            let mut x = [0u8; 16];
            x[..8].copy_from_slice(&ak.to_le_bytes());
            x[8..10].copy_from_slice(&book::packed::apery_move(m.usi).to_le_bytes());
            x[10..12].copy_from_slice(&(m.count.min(65535) as u16).to_le_bytes());
            x[12..].copy_from_slice(&m.value.unwrap_or(0).to_le_bytes());
            want.push((ak, x));
        }
    }
    want.sort_by_key(|w| w.0);
    let want: Vec<u8> = want.iter().flat_map(|w| w.1).collect();
    assert_eq!(std::fs::read(&bin).unwrap(), want);
    std::fs::remove_file(&bin).unwrap();
    // From the .ybb back to text: what the .ybb holds.
    let back = dir.path().join("back.db");
    convert(&cache, &ybb, &back);
    let read = book::read_file(&back).unwrap();
    let from_ybb = book::decode(&std::fs::read(&ybb).unwrap(), Format::Ybb).unwrap();
    assert_eq!(read.book, from_ybb.book);
    // No temporary file anywhere, and no sorted copy: convert reads the text as it comes.
    let mut names: Vec<String> = files_in(dir.path())
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["back.db", "in.db", "out.ybb", "sorted.db"]);
}

#[test]
fn a_position_given_twice_is_merged_by_the_external_sort_as_the_reader_merges_it() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let input = dir.path().join("twice.db");
    let text = "#YANEURAOU-DB2016 1.00\n\
        sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 3\n7g7f none 30 10 5\n\
        sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1\n5i5h none 0 0 1\n\
        sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 99 99 99\n2g2f none 20 10 3\n";
    std::fs::write(&input, text).unwrap();
    let out = dir.path().join("out.db");
    let err = convert(&cache, &input, &out);
    assert!(
        err.contains("1 positions given twice in the input (merged into one"),
        "{err}"
    );
    assert_eq!(
        book::read_file(&out).unwrap().book,
        book::decode(text.as_bytes(), Format::YaneuraOu)
            .unwrap()
            .book
    );
}

#[test]
fn ctrl_c_during_a_convert_writes_nothing_and_leaves_no_temporary_file() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let input = dir.path().join("pipe.db");
    let c = std::ffi::CString::new(input.to_str().unwrap()).unwrap();
    // SAFETY: a plain mkfifo on a path in our temporary directory.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
    let out = dir.path().join("out.ybb");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_kifview"))
        .env("XDG_CACHE_HOME", &cache)
        .args(["book", "convert"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut w = std::fs::OpenOptions::new()
        .write(true)
        .open(&input)
        .unwrap();
    let b = generated(20, 20, 3);
    w.write_all(&book::encode(&b, Format::YaneuraOu).unwrap().bytes)
        .unwrap();
    w.flush().unwrap();
    // The output's temporary copy exists once the book is being written: interrupt then.
    let end = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !files_in(dir.path())
        .iter()
        .any(|p| p.to_string_lossy().ends_with(".tmp"))
    {
        assert!(std::time::Instant::now() < end, "no temporary file made");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    drop(w);
    let r = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    // Only the input: no output, no temporary copy, no run of the sort.
    assert_eq!(files_in(dir.path()), [input]);
}

#[path = "../../../benches/support/bookgen.rs"]
mod bookgen;

/// The moves of a position as (move, value, depth, count), in move order.
fn fields(e: &book::Entry) -> Vec<(String, Option<i32>, u32, u64)> {
    let mut v: Vec<_> = e
        .moves
        .iter()
        .map(|m| (m.usi.usi(), m.value, m.depth, m.count))
        .collect();
    v.sort();
    v
}

/// Converts `from` to `to` with the binary, returning its stderr.
fn convert_to(from: &Path, to: &Path) -> String {
    let cache = from.parent().unwrap().join("cache");
    let t = std::time::Instant::now();
    let err = convert(&cache, from, to);
    eprintln!(
        "{} -> {}: {:.1?}, {} bytes",
        from.display(),
        to.display(),
        t.elapsed(),
        std::fs::metadata(to).unwrap().len()
    );
    err
}

/// Every position of `a` is in `b` with the same moves, and `same` holds for each move's
/// fields; `b` holds no other position.
fn each_position_matches(
    a: &dyn Lookup,
    b: &dyn Lookup,
    same: impl Fn(&(String, Option<i32>, u32, u64), &(String, Option<i32>, u32, u64)) -> bool,
) {
    assert_eq!(a.len(), b.len());
    let mut n = 0u64;
    a.visit(&mut |k, e| {
        let other = b.entry(k).unwrap().unwrap_or_else(|| panic!("{k} lost"));
        let (x, y) = (fields(&e), fields(&other));
        assert_eq!(x.len(), y.len(), "{k}");
        for (m, o) in x.iter().zip(&y) {
            assert!(same(m, o), "{k}: {m:?} became {o:?}");
        }
        n += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(n as usize, a.len());
}

/// The round trip at 10^6 positions: text → `.ybb` → Apery → text keeps every
/// position, move and value (values fit both formats); depths survive text → `.ybb` and
/// counts text → Apery → text. Counts cannot survive the `.ybb` (its spec,
/// `BookMinerCpp/docs/04-ybb.md`, has move16, eval and optionally depth per move: no count),
/// nor depths Apery. A few minutes in release:
/// `cargo test --release --test integration book::huge::a_million -- --ignored --nocapture`
#[test]
#[ignore = "minutes: cargo test --release --test integration book::huge::a_million -- --ignored"]
fn a_million_positions_go_text_ybb_apery_text_keeping_what_each_format_holds() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("book.db");
    let mut keys = Vec::new();
    book::save_new_streamed(
        &mut |f| bookgen::random_book(1_000_000, &mut keys, f),
        &text,
        Format::YaneuraOu,
        false,
        None,
    )
    .unwrap();
    let orig = book::open(&text).unwrap();
    eprintln!("{} positions", orig.book.len());
    assert!(orig.book.len() > 900_000);
    let ybb = dir.path().join("book.ybb");
    let bin = dir.path().join("book.bin");
    let back = dir.path().join("back.db");
    convert_to(&text, &ybb);
    convert_to(&ybb, &bin);
    let err = convert_to(&bin, &back);
    assert!(!err.contains("not reached"), "{err}");
    let y = book::open(&ybb).unwrap();
    each_position_matches(orig.book.as_ref(), y.book.as_ref(), |m, o| {
        (&m.0, m.1, m.2, 0) == (&o.0, o.1, o.2, o.3)
    });
    let b = book::open(&back).unwrap();
    each_position_matches(orig.book.as_ref(), b.book.as_ref(), |m, o| {
        (&m.0, m.1) == (&o.0, o.1) && o.2 == 0 && o.3 == 0
    });
    // Counts through Apery alone.
    let direct = dir.path().join("direct.bin");
    let again = dir.path().join("again.db");
    convert_to(&text, &direct);
    convert_to(&direct, &again);
    let a = book::open(&again).unwrap();
    each_position_matches(orig.book.as_ref(), a.book.as_ref(), |m, o| {
        (&m.0, m.1, m.3) == (&o.0, o.1, o.3)
    });
}
