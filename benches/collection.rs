//! Collections: building an index and answering `find`/`explore`, on generated collections
//! whose openings are shared as in real play (`support/collgen.rs`).
//!
//! - `cargo bench --bench collection`: criterion on 5,000 games (index build from files in the
//!   page cache, find/explore at the start position and at a rare one).
//! - Writing a collection for the whole-process measurements with the real binary:
//!   `KIFVIEW_COLLECTION_OUT=DIR KIFVIEW_COLLECTION_GAMES=100000 cargo bench --bench collection`
//!   writes one file per game (60% CSA, 30% Shift_JIS KIF, 10% KI2, 1,000 a folder);
//!   `KIFVIEW_COLLECTION_PER_FILE=1000` writes multi-record CSA files of 1,000 games instead.
//! - The 10^6-game collection from the 100,000-game one: `KIFVIEW_COLLECTION_FROM=DIR
//!   KIFVIEW_COLLECTION_OUT=DIR2 KIFVIEW_COLLECTION_COPIES=10 cargo bench --bench collection`
//!   writes its games 10 times as multi-record CSA files of 1,000 games (generating 10^6 games
//!   with the rules takes longer than a benchmark should).
//! - Comparing the two storage designs for positions on the same pairs:
//!   `KIFVIEW_COLLECTION_COMPARE=100000 cargo bench --bench collection` (sorted memory-mapped
//!   segment vs a SQLite table `(key, game)` WITHOUT ROWID): build time, bytes per pair, lookups.

use criterion::{Criterion, criterion_group, criterion_main};
use kifview::collection::segment::{Segment, SegmentWriter};
use kifview::collection::{self, Filter, Index, UpdateOptions, keys, scan};
use kifview::core::notation::Format;
use kifview::core::rules::Position;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

#[path = "support/collgen.rs"]
mod collgen;
use collgen::Rng;

/// The seed of game `i`: every game can be made on its own, on any thread.
fn rng_for(i: usize) -> Rng {
    let mut z = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    Rng((z ^ (z >> 27)) | 1)
}

/// Writes `games` games under `dir` (see the module docs), on every core.
fn generate(dir: &Path, games: usize, per_file: usize) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let files = games.div_ceil(per_file);
    std::thread::scope(|s| {
        for t in 0..threads {
            s.spawn(move || {
                for f in (t..files).step_by(threads) {
                    let sub = dir.join(format!("d{:04}", f / 1000));
                    std::fs::create_dir_all(&sub).expect("create dir");
                    if per_file > 1 {
                        let recs: Vec<_> = (f * per_file..((f + 1) * per_file).min(games))
                            .map(|i| collgen::game(&mut rng_for(i), 40))
                            .collect();
                        std::fs::write(sub.join(format!("m{f:06}.csa")), collgen::multi_csa(&recs))
                            .expect("write");
                        continue;
                    }
                    let g = collgen::game(&mut rng_for(f), 40);
                    let (name, bytes) = match f % 10 {
                        0..=5 => (
                            format!("g{f:07}.csa"),
                            collgen::bytes(&g, Format::Csa, false),
                        ),
                        6..=8 => (
                            format!("g{f:07}.kif"),
                            collgen::bytes(&g, Format::Kif, true),
                        ),
                        _ => (
                            format!("g{f:07}.ki2"),
                            collgen::bytes(&g, Format::Ki2, true),
                        ),
                    };
                    std::fs::write(sub.join(name), bytes).expect("write");
                }
            });
        }
    });
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// Writes the games of every file under `src` as multi-record CSA files of `per_file` games,
/// `copies` times (`dst/c0`, `dst/c1`, …): the 10^6-game collection made from the 100,000 one
/// (each position then has `copies` times the games; the distinct positions are the same).
fn replicate(src: &Path, dst: &Path, copies: usize, per_file: usize) {
    let files: Vec<_> = kifview::convert::expand_inputs(&[src.to_path_buf()], true)
        .expect("walk")
        .into_iter()
        .map(|i| i.path)
        .collect();
    for c in 0..copies {
        std::fs::create_dir_all(dst.join(format!("c{c}"))).expect("dir");
    }
    let chunks: Vec<&[std::path::PathBuf]> = files.chunks(per_file).collect();
    kifview::pool::map_in_order(&chunks, |chunk| {
        let recs: Vec<_> = chunk
            .iter()
            .flat_map(|f| kifview::load::load_input(f).expect("readable").records)
            .map(|p| p.record)
            .collect();
        let bytes = collgen::multi_csa(&recs);
        let name = chunk[0]
            .file_stem()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        for c in 0..copies {
            std::fs::write(dst.join(format!("c{c}/{name}.csa")), &bytes).expect("write");
        }
    });
}

/// Both designs on the same (key, game) pairs of `games` generated games.
fn compare(games: usize) {
    let t = Instant::now();
    let all: Vec<_> = (0..games)
        .map(|i| scan::game(&collgen::game(&mut rng_for(i), 40), 1, false))
        .collect();
    let pairs: usize = all.iter().map(|g| g.keys.len()).sum();
    println!(
        "{games} games, {pairs} pairs, generated in {:.1?}",
        t.elapsed()
    );
    let start = keys::position_key(&Position::startpos());
    let rare = all[games / 2].keys[all[games / 2].keys.len() / 2];
    let work = tempfile::tempdir().expect("temp dir");

    // A: sorted, memory-mapped segment (what the index uses).
    let dir = work.path().join("seg");
    std::fs::create_dir_all(&dir).expect("dir");
    let t = Instant::now();
    let mut w = SegmentWriter::create(&dir, 1, 1).expect("create");
    for g in &all {
        w.add(&g.stored, &g.keys).expect("add");
    }
    w.finish().expect("finish");
    let build = t.elapsed();
    let seg = Segment::open(&dir, 1).expect("open");
    let pos_bytes = std::fs::metadata(dir.join("pos-1.bin")).expect("pos").len();
    let all_bytes = dir_bytes(&dir);
    let look = |key: u64| {
        let t = Instant::now();
        let mut n = 0;
        let mut out = Vec::new();
        for _ in 0..100 {
            out.clear();
            seg.games_with(key, &mut out).unwrap();
            n = out.len();
        }
        (n, t.elapsed() / 100)
    };
    let (ns, ts) = look(start);
    let (nr, tr) = look(rare);
    println!(
        "sorted mmap segment: build {build:.2?}, {:.2} B/pair (pairs only {:.2}), start {ns} games {ts:.2?}, rare {nr} games {tr:.2?}",
        all_bytes as f64 / pairs as f64,
        pos_bytes as f64 / pairs as f64
    );

    // B: SQLite, one row per pair in a WITHOUT ROWID table keyed (key, game).
    let path = work.path().join("pos.sqlite");
    let db = rusqlite::Connection::open(&path).expect("sqlite");
    db.execute_batch(
        "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
         CREATE TABLE pos(key INTEGER NOT NULL, game INTEGER NOT NULL, PRIMARY KEY(key, game)) WITHOUT ROWID;",
    )
    .expect("schema");
    let t = Instant::now();
    db.execute_batch("BEGIN").expect("begin");
    {
        let mut st = db
            .prepare("INSERT OR IGNORE INTO pos VALUES (?1, ?2)")
            .expect("prepare");
        for (id, g) in all.iter().enumerate() {
            for &k in &g.keys {
                st.execute((k as i64, id as i64)).expect("insert");
            }
        }
    }
    db.execute_batch("COMMIT").expect("commit");
    let build = t.elapsed();
    let bytes = std::fs::metadata(&path).expect("size").len();
    let mut st = db
        .prepare("SELECT game FROM pos WHERE key = ?1")
        .expect("prepare");
    let mut look = |key: u64| {
        let t = Instant::now();
        let mut n = 0;
        for _ in 0..20 {
            let rows: Vec<i64> = st
                .query_map([key as i64], |r| r.get(0))
                .expect("query")
                .collect::<Result<_, _>>()
                .expect("rows");
            n = rows.len();
        }
        (n, t.elapsed() / 20)
    };
    let (ns, ts) = look(start);
    let (nr, tr) = look(rare);
    println!(
        "SQLite WITHOUT ROWID: build {build:.2?}, {:.2} B/pair, start {ns} games {ts:.2?}, rare {nr} games {tr:.2?}",
        bytes as f64 / pairs as f64
    );
}

fn benches(c: &mut Criterion) {
    if let (Some(src), Some(out)) = (
        std::env::var_os("KIFVIEW_COLLECTION_FROM"),
        std::env::var_os("KIFVIEW_COLLECTION_OUT"),
    ) {
        let copies =
            std::env::var("KIFVIEW_COLLECTION_COPIES").map_or(10, |s| s.parse().expect("a number"));
        let per_file = std::env::var("KIFVIEW_COLLECTION_PER_FILE")
            .map_or(1000, |s| s.parse().expect("a number"));
        replicate(Path::new(&src), Path::new(&out), copies, per_file);
        return;
    }
    if let Some(out) = std::env::var_os("KIFVIEW_COLLECTION_OUT") {
        let games = std::env::var("KIFVIEW_COLLECTION_GAMES")
            .map_or(100_000, |s| s.parse().expect("a number"));
        let per_file = std::env::var("KIFVIEW_COLLECTION_PER_FILE")
            .map_or(1, |s| s.parse().expect("a number"));
        let t = Instant::now();
        generate(Path::new(&out), games, per_file);
        println!(
            "wrote {games} games to {} in {:.1?}",
            Path::new(&out).display(),
            t.elapsed()
        );
        return;
    }
    if let Ok(n) = std::env::var("KIFVIEW_COLLECTION_COMPARE") {
        compare(n.parse().expect("a number"));
        return;
    }
    let data = tempfile::tempdir().expect("temp dir");
    generate(data.path(), 5000, 1);
    let idx = data.path().join("idx");
    let roots = [data.path().to_path_buf()];
    let mut g = c.benchmark_group("collection");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("index_5000_games", |b| {
        b.iter(|| {
            let _ = std::fs::remove_dir_all(&idx);
            collection::update(&idx, &roots, UpdateOptions::default(), &|_, _| {}).expect("index")
        })
    });
    let _ = std::fs::remove_dir_all(&idx);
    collection::update(&idx, &roots, UpdateOptions::default(), &|_, _| {}).expect("index");
    let index = Index::open(&idx).expect("open");
    let start = Position::startpos();
    let rare = {
        let r = collgen::game(&mut rng_for(77), 40);
        r.position_at(r.main_line()[60])
    };
    let none = Filter::default();
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    g.bench_function("find_start", |b| {
        b.iter(|| black_box(index.find(&start, &none).expect("find")).len())
    });
    g.bench_function("explore_start", |b| {
        b.iter(|| black_box(index.explore(&start, &none).expect("explore")))
    });
    g.bench_function("find_rare", |b| {
        b.iter(|| black_box(index.find(&rare, &none).expect("find")).len())
    });
    g.bench_function("explore_rare", |b| {
        b.iter(|| black_box(index.explore(&rare, &none).expect("explore")))
    });
    g.finish();
}

criterion_group!(collection_benches, benches);
criterion_main!(collection_benches);
