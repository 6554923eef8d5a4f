//! Opening books of 10^5, 10^6 and 10^7 positions: opening one and looking a position up, in
//! the YaneuraOu text (`.db`), `.ybb` and Apery (`.bin`) formats, and building a book from
//! 10^5 generated games (plies 1–40).
//!
//! - `cargo bench --bench book`: criterion. The books are generated once into
//!   `target/bench-books/<positions>/` (`book.db`, `book.ybb`, `book.bin` and `keys.txt`, keys
//!   of stored positions to look up) and reused when present: the 10^7 text book is about
//!   1.1 GB, the three sizes about 2.2 GB in all (delete the folder after). The text book is
//!   written by kifview's own streamed writer (`book::save_new_streamed`, an external sort),
//!   the `.ybb` from it the same way, the Apery book from the `.ybb`.
//!   `KIFVIEW_BENCH_BOOK_SIZES=100000,1000000` runs only those sizes.
//! - `book_open/<format>/<positions>`: `book::open` of the file (map it, check the header and,
//!   for the text, the order of 2,048 sampled `sfen` lines): the page cache is warm.
//! - `book_lookup/<format>/<positions>`: one `Lookup::moves` of a stored position (the keys of
//!   `keys.txt` in turn, spread over the book; a cold page costs more on a first lookup).
//! - `book_build/games_100k`: `book::build::Builder` over 10^5 generated games (`collgen`, as
//!   the collection and viewer benches make them), plies 1–40, in memory; the whole command
//!   on an index is measured by hand (README, "Books: speed").
//! - Converting the 10^7 text book to `.ybb` is measured by hand, with its peak memory:
//!   `/usr/bin/time -v target/release/kifview book convert target/bench-books/10000000/book.db
//!   -o /tmp/x.ybb` (the README gives the numbers).

use criterion::{Criterion, criterion_group, criterion_main};
use kifview::book::{self, Format};
use kifview::core::rules::Position;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "support/collgen.rs"]
mod collgen;

#[path = "support/bookgen.rs"]
mod bookgen;
use bookgen::random_book;

/// The folder of the books of about `n` positions, generated when missing.
fn books(n: usize) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/bench-books")
        .join(n.to_string());
    let done = dir.join("keys.txt");
    if done.exists() {
        return dir;
    }
    std::fs::create_dir_all(&dir).expect("create the books' folder");
    let t = Instant::now();
    let mut keys = Vec::new();
    let text = dir.join("book.db");
    book::save_new_streamed(
        &mut |f| random_book(n, &mut keys, f),
        &text,
        Format::YaneuraOu,
        true,
        None,
    )
    .expect("text book written");
    eprintln!(
        "book bench: {} written in {:.1?}",
        text.display(),
        t.elapsed()
    );
    let t = Instant::now();
    let opened = book::open(&text).expect("text book opened");
    let ybb = dir.join("book.ybb");
    book::save_new_streamed(&mut |f| opened.book.visit(f), &ybb, Format::Ybb, true, None)
        .expect(".ybb written");
    eprintln!(
        "book bench: {} written in {:.1?}",
        ybb.display(),
        t.elapsed()
    );
    let t = Instant::now();
    let opened = book::open(&ybb).expect(".ybb opened");
    let bin = dir.join("book.bin");
    book::save_new_streamed(
        &mut |f| opened.book.visit(f),
        &bin,
        Format::Apery,
        true,
        None,
    )
    .expect("Apery book written");
    eprintln!(
        "book bench: {} written in {:.1?}",
        bin.display(),
        t.elapsed()
    );
    std::fs::write(&done, keys.join("\n")).expect("keys written");
    dir
}

fn sizes() -> Vec<usize> {
    std::env::var("KIFVIEW_BENCH_BOOK_SIZES").map_or_else(
        |_| vec![100_000, 1_000_000, 10_000_000],
        |s| {
            s.split(',')
                .map(|n| n.trim().parse().expect("a number"))
                .collect()
        },
    )
}

fn open_and_lookup(c: &mut Criterion) {
    for n in sizes() {
        let dir = books(n);
        let keys: Vec<String> = std::fs::read_to_string(dir.join("keys.txt"))
            .expect("keys")
            .lines()
            .map(str::to_string)
            .collect();
        for (name, file) in [
            ("text", "book.db"),
            ("ybb", "book.ybb"),
            ("apery", "book.bin"),
        ] {
            let path = dir.join(file);
            let mut g = c.benchmark_group("book_open");
            g.sample_size(20).measurement_time(Duration::from_secs(3));
            g.bench_function(format!("{name}/{n}"), |b| {
                b.iter(|| black_box(book::open(&path).expect("opened")))
            });
            g.finish();
            let opened = book::open(&path).expect("opened");
            assert!(opened.note.is_none(), "a sorted book needs no copy");
            let found = keys
                .iter()
                .filter(|k| !opened.book.moves(k).expect("lookup").is_empty())
                .count();
            eprintln!(
                "book bench: {name}/{n}: {found} of {} sampled keys found",
                keys.len()
            );
            let mut g = c.benchmark_group("book_lookup");
            g.sample_size(50).measurement_time(Duration::from_secs(3));
            let mut i = 0;
            g.bench_function(format!("{name}/{n}"), |b| {
                b.iter(|| {
                    i = (i + 1) % keys.len();
                    black_box(opened.book.moves(&keys[i]).expect("lookup"))
                })
            });
            g.finish();
        }
    }
}

/// The seed of game `i`, as the collection and viewer benches seed theirs.
fn rng_for(i: usize) -> collgen::Rng {
    let mut z = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    collgen::Rng((z ^ (z >> 27)) | 1)
}

fn build(c: &mut Criterion) {
    // The games are made on every core (each the same as one at a time): one core took about
    // 25 minutes under load for 100,000, which the measured builds do not include.
    let t = Instant::now();
    // `KIFVIEW_BENCH_BUILD_GAMES=N` builds from N games instead (for profiling; the
    // benchmark's name stays `games_100k`, so only its default is the measured number).
    let n: usize = std::env::var("KIFVIEW_BENCH_BUILD_GAMES")
        .map_or(100_000, |s| s.parse().expect("a number"));
    let ids: Vec<usize> = (0..n).collect();
    let games: Vec<(Position, Vec<kifview::core::rules::Move>)> =
        kifview::pool::map_in_order(&ids, |&i| {
            let g = collgen::game(&mut rng_for(i), 40);
            let moves = g
                .main_line()
                .into_iter()
                .filter_map(|id| g.node(id).move_data().map(|m| m.mv))
                .collect();
            (g.initial.position.clone(), moves)
        });
    eprintln!("book bench: {n} games made in {:.1?}", t.elapsed());
    let mut g = c.benchmark_group("book_build");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("games_100k", |b| {
        b.iter(|| {
            let mut b = book::build::Builder::new(book::build::Options {
                plies: (1, 40),
                ..Default::default()
            });
            for (start, moves) in &games {
                let _ = b.add_game(start, moves, &[]);
            }
            black_box(b.finish().positions.len())
        })
    });
    g.finish();
}

criterion_group!(book_benches, open_and_lookup, build);
criterion_main!(book_benches);
