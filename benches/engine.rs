//! Reading, replaying and writing records at scale.
//!
//! Data: 5,000 random legal games (seeded, 0-250 plies, ~150 on average) written as Shift_JIS KIF
//! and as CSA, one study with 50,000+ nodes, and one whose variations nest 100,000 deep. The
//! `floor` group measures what any reader must pay: reading the bytes from disk and decoding
//! Shift_JIS.
//!
//! Run: `cargo bench --bench engine` (add `-- floor` etc. to pick a group; `-- cli_100` times
//! `kifview check` and `kifview convert` per file on 100 of the games).

use criterion::{Criterion, criterion_group, criterion_main};
use kifview::convert;
use kifview::core::notation::{
    self, Format, Newline, Target, TextEncoding, TextInfo, csa, filetype, kif,
};
use kifview::core::record::Record;

#[path = "support/randgen.rs"]
mod randgen;
use randgen::{Rng, big_study, deep_study, random_game};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

struct Data {
    dir: tempfile::TempDir,
    kif_paths: Vec<PathBuf>,
    kif: Vec<Vec<u8>>,
    csa: Vec<Vec<u8>>,
    study_kif: Vec<u8>,
    moves: usize,
}

fn data() -> Data {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let dir = tempfile::tempdir().expect("temp dir");
    let sjis = TextInfo {
        encoding: TextEncoding::ShiftJis,
        bom: false,
        newline: Newline::CrLf,
        lossy: false,
    };
    let utf8 = TextInfo::new(TextEncoding::Utf8);
    let (mut kifs, mut csas, mut paths, mut moves) = (Vec::new(), Vec::new(), Vec::new(), 0);
    for i in 0..5000 {
        let g = random_game(&mut rng);
        moves += g.len() - 2;
        let k = notation::to_bytes(&g, Target::new(Format::Kif), &sjis).expect("encodable");
        let c = notation::to_bytes(&g, Target::new(Format::Csa), &utf8).expect("encodable");
        let p = dir.path().join(format!("g{i:04}.kif"));
        std::fs::write(&p, &k.0).expect("write");
        paths.push(p);
        kifs.push(k.0);
        csas.push(c.0);
    }
    let study = big_study(&mut rng, 50_500);
    let study_kif = notation::to_bytes(&study, Target::new(Format::Kif), &utf8)
        .expect("encodable")
        .0;
    let mb = kifs.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
    eprintln!(
        "bench data: 5000 games, {moves} moves, {mb:.1} MB of Shift_JIS KIF; study with {} nodes",
        study.len()
    );
    Data {
        dir,
        kif_paths: paths,
        kif: kifs,
        csa: csas,
        study_kif,
        moves,
    }
}

fn par_map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1));
    std::thread::scope(|s| {
        let hs: Vec<_> = items
            .chunks(chunk.max(1))
            .map(|c| s.spawn(|| c.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        hs.into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    })
}

fn benches(c: &mut Criterion) {
    let d = data();
    let _ = d.moves;
    let _ = d.dir.path();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());

    let mut g = c.benchmark_group("floor");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function("read_files_5000", |b| {
        b.iter(|| {
            d.kif_paths
                .iter()
                .map(|p| std::fs::read(p).expect("read").len())
                .sum::<usize>()
        })
    });
    g.bench_function("decode_sjis_5000", |b| {
        b.iter(|| {
            d.kif
                .iter()
                .map(|k| {
                    notation::encoding::decode(k, TextEncoding::ShiftJis)
                        .text
                        .len()
                })
                .sum::<usize>()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("games_5000");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.bench_function("kif_read_validate", |b| {
        b.iter(|| {
            d.kif
                .iter()
                .map(|k| notation::load(k, None).records[0].record.len())
                .sum::<usize>()
        })
    });
    g.bench_function("csa_read_validate", |b| {
        b.iter(|| {
            d.csa
                .iter()
                .map(|k| notation::load(k, None).records[0].record.len())
                .sum::<usize>()
        })
    });
    let records: Vec<Record> = d
        .kif
        .iter()
        .map(|k| notation::load(k, None).records.remove(0).record)
        .collect();
    g.bench_function("replay_to_end", |b| {
        b.iter(|| {
            records
                .iter()
                .map(|r| {
                    let last = *r.main_line().last().expect("root");
                    r.position_at(last).move_number() as usize
                })
                .sum::<usize>()
        })
    });
    g.bench_function("kif_write", |b| {
        b.iter(|| {
            records
                .iter()
                .map(|r| kif::write(r, &kif::KifOptions::default()).text.len())
                .sum::<usize>()
        })
    });
    g.bench_function("csa_write", |b| {
        b.iter(|| {
            records
                .iter()
                .map(|r| csa::write(r, &csa::CsaOptions::default()).text.len())
                .sum::<usize>()
        })
    });
    let utf8 = TextInfo::new(TextEncoding::Utf8);
    let convert = |bytes: &Vec<u8>, to: Format| {
        let l = notation::load(bytes, None);
        notation::to_bytes(&l.records[0].record, Target::new(to), &utf8)
            .map(|x| x.0.len())
            .unwrap_or(0)
    };
    for t in [1, threads] {
        g.bench_function(format!("convert_kif_to_csa_{t}_threads"), |b| {
            b.iter(|| par_map(&d.kif, t, |k| convert(k, Format::Csa)).len())
        });
        g.bench_function(format!("convert_csa_to_kif_{t}_threads"), |b| {
            b.iter(|| par_map(&d.csa, t, |k| convert(k, Format::Kif)).len())
        });
    }
    g.finish();

    // What `kifview check` and `kifview convert --out-dir` do per file (read from disk, load,
    // warnings; write through the store), on 100 files and one thread: the CLI's own path.
    let mut g = c.benchmark_group("cli_100");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    let csa_paths: Vec<PathBuf> = d.csa[..100]
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let p = d.dir.path().join(format!("c{i:04}.csa"));
            std::fs::write(&p, c).expect("write");
            p
        })
        .collect();
    let out = tempfile::tempdir().expect("temp dir");
    for (name, paths) in [("kif", &d.kif_paths[..100]), ("csa", &csa_paths[..])] {
        g.bench_function(format!("check_{name}"), |b| {
            b.iter(|| {
                paths
                    .iter()
                    .filter(|p| !convert::check_one(p).failed)
                    .count()
            })
        });
    }
    for (name, paths, to) in [
        ("kif_to_csa", &d.kif_paths[..100], "csa"),
        ("csa_to_kif", &csa_paths[..], "kif"),
    ] {
        let ft = filetype::by_ext(to).expect("a known extension");
        let s = convert::Settings::new(ft, None, false, Some(1));
        let jobs: Vec<convert::Job> = paths
            .iter()
            .map(|p| convert::Job {
                input: p.clone(),
                output: Some(
                    out.path()
                        .join(p.with_extension(to).file_name().expect("name")),
                ),
                renamed: false,
            })
            .collect();
        g.bench_function(format!("convert_{name}"), |b| {
            b.iter(|| {
                jobs.iter()
                    .filter(|j| !convert::convert_one(j, &s, true).failed)
                    .count()
            })
        });
    }
    g.finish();

    // Batch conversion of the KIF set into every output format, on one core and on all.
    let mut g = c.benchmark_group("batch_from_kif");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for to in Format::ALL {
        for t in [1, threads] {
            g.bench_function(format!("{}_{t}_threads", to.name()), |b| {
                b.iter(|| par_map(&d.kif, t, |k| convert(k, to)).len())
            });
        }
    }
    g.finish();

    let mut g = c.benchmark_group("study_50k");
    g.sample_size(10);
    g.bench_function("read_validate", |b| {
        b.iter(|| black_box(notation::load(&d.study_kif, None).records[0].record.len()))
    });
    let study = notation::load(&d.study_kif, None).records.remove(0).record;
    g.bench_function("kif_write", |b| {
        b.iter(|| black_box(kif::write(&study, &kif::KifOptions::default()).text.len()))
    });
    g.bench_function("preorder", |b| b.iter(|| black_box(study.preorder().len())));
    g.finish();

    // Variations nested 100,000 deep (each one holds the next): every writer, and reading back
    // the formats that hold variations. Writers and readers keep the position at each branch
    // point; replaying from the root per variation made KI2 and JKF quadratic (over a minute).
    let mut g = c.benchmark_group("deep_variations_100k");
    g.sample_size(10);
    let deep = deep_study(100_000);
    for to in Format::ALL {
        g.bench_function(format!("{}_write", to.name()), |b| {
            b.iter(|| black_box(notation::render(&deep, Target::new(to), &utf8).text.len()))
        });
    }
    for from in [Format::Kif, Format::Ki2, Format::Jkf] {
        let text = notation::render(&deep, Target::new(from), &utf8).text;
        g.bench_function(format!("{}_read", from.name()), |b| {
            b.iter(|| black_box(notation::read_text(&text, from)[0].record.len()))
        });
    }
    g.finish();
    usi_infos(c);
    analyze_positions(c);
}

/// 10,000 real `info` lines (Fairy-Stockfish's, recorded): parsing them (the reader thread's
/// work) and applying them to an analysis with one refresh (what one `Engine::poll` does).
fn usi_infos(c: &mut Criterion) {
    use kifview::engine::usi::{UsiMessage, parse_line};
    use kifview::engine::{Analysis, SearchId};
    let recorded = include_str!("../tests/fixtures/engines/fairy-stockfish.out");
    let real: Vec<&str> = recorded
        .lines()
        .filter(|l| l.starts_with("info "))
        .collect();
    let lines: Vec<&str> = real.iter().copied().cycle().take(10_000).collect();
    let mut g = c.benchmark_group("usi_10k_infos");
    g.sample_size(20);
    g.bench_function("parse", |b| {
        b.iter(|| lines.iter().filter_map(|l| parse_line(l)).count())
    });
    g.bench_function("parse_apply_refresh", |b| {
        b.iter(|| {
            let start = kifview::core::rules::Position::startpos();
            let mut a = Analysis::new(SearchId(1), start, None);
            for l in &lines {
                if let Some(UsiMessage::Info(i)) = parse_line(l) {
                    a.apply(*i);
                }
            }
            a.refresh();
            black_box(a.lines.len())
        })
    });
    g.finish();
}

/// kifview's own work per analysed position (the engine's time aside): a real 117-move game
/// (竜王戦 2014, from the corpus), each position given a 12-move line and a score as an engine
/// would, turned into its comment and mark, and the record written as KIF at the end.
fn analyze_positions(c: &mut Criterion) {
    use kifview::analyze::{Options, Plan, Searched};
    use kifview::core::notation::{Format, read_text};
    use kifview::engine::usi::{UsiMessage, parse_line};
    use kifview::engine::{Analysis, SearchId};
    const GAME: &str = "position startpos moves 7g7f 3c3d 2g2f 4a3b 2f2e 2b8h+ 7i8h 3a2b 3i3h 2b3c 5i6h 7a7b 8h7g 6c6d 3h2g 7b6c 2g2f 1c1d 3g3f 4c4d 3f3e 8b4b 3e3d 3c3d 4i5h 7c7d 6h7h 6a7b 2f3g 3b3c 7h8h 8a7c 6g6f 4d4e 6i7h 5a6b 5h6g 9c9d 9g9f 3d3e 3g2f 3e4d 5g5f B*4i 7h6h P*3h B*5g 6d6e 2f3g 6c5d 2e2d 2c2d 3g4h 4e4f 5g4f 4d4e 4f3e 3h3i+ 4h3i 3c3d 3e5g 7c8e 7g8f P*4f 3i4h 8c8d 6f6e 5d6e 4g4f 4e4f 5g8d 7b7c 8d7c+ 6b7c 8f8e P*6f 6g7g 6e5f 7g6f B*3c P*4d 3c4d G*7g P*6g 6h6i 4f5e P*4e 4d3c 6f5f 5e5f P*3e 3d4e 3e3d 3c5e 2h2d 4b8b 8e7d 7c7d 3d3c+ 7d8c N*7e 8c9b S*8c 8b8c 7e8c+ 9b8c R*8e 8c7b 2d2a+ 6g6h+ 2a8a 7b6c 8e5e 6h6i N*7e 6c6d B*7c";
    let record = read_text(GAME, Format::Usi).remove(0).record;
    let usi: Vec<&str> = GAME.split_whitespace().skip(3).collect();
    let mut g = c.benchmark_group("analyze_117_plies");
    g.sample_size(20);
    g.bench_function("comments_marks_and_kif", |b| {
        b.iter(|| {
            let mut r = record.clone();
            let mut plan = Plan::new(&r, &Options::default());
            for i in 0..plan.len() {
                let req = plan.request(i);
                let mut pos = req.root.clone();
                for &m in &req.moves {
                    pos.play_unchecked(m);
                }
                let ply = req.moves.len();
                let pv = usi[ply..(ply + 12).min(usi.len())].join(" ");
                let line = format!(
                    "info depth 18 seldepth 24 nodes 100000 nps 500000 time 200 score cp {} pv {pv}",
                    (ply as i32 * 97) % 900 - 450
                );
                let mut a = Analysis::new(SearchId(1), pos, req.moves.last().map(|m| m.to()));
                if let Some(UsiMessage::Info(info)) = parse_line(&line) {
                    a.apply(*info);
                }
                a.refresh();
                let result = plan.mated_here(i).unwrap_or_else(|| Searched::from_analysis(&a, "Bench"));
                if let Some((node, text, _)) = plan.finish(&r, i, result) {
                    r.node_mut(node).comment = text;
                }
            }
            let text = kifview::core::notation::render(
                &r,
                kifview::core::notation::Target::new(Format::Kif),
                &kifview::core::notation::TextInfo::new(kifview::core::notation::TextEncoding::Utf8),
            );
            black_box(text.text.len())
        })
    });
    g.finish();
}

criterion_group!(engine, benches);
criterion_main!(engine);
