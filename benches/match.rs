//! The match runner's own CPU per engine move (issue 34: under 1 ms), with instant fake
//! engines: two `tests/fixtures/engines/player.sh` processes replaying a 200-ply random legal
//! game at `600+0.1`, with the evaluation comments on, each game's record written to disk as
//! `kifview match` writes it. What is measured is kifview's own CPU (user + system, every
//! thread of the process: the game loop, the USI driver's reader, writer and watcher threads,
//! the record's writing; `getrusage(RUSAGE_SELF)`), not the engines', divided by the engine
//! moves played; the wall time a move takes is the fake engine's and is not the point.
//!
//! Run: `cargo bench --bench match` (release build; about a minute with the build done).

use criterion::{Criterion, criterion_group, criterion_main};
use kifview::core::rules::Position;
use kifview::engine::{EngineSpec, Timeouts};
use kifview::game::matches::{RecordFormat, process_cpu, write_record};
use kifview::game::runner::{GameSettings, Player, play_game};
use kifview::game::{GameInfo, SystemTime, TimeControl, TimeSource};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

#[path = "support/randgen.rs"]
#[allow(dead_code)]
mod randgen;
use randgen::{Rng, random_game};

/// A random legal game of at least 200 plies, as USI lines for the fake player.
fn moves_file(dir: &Path) -> std::path::PathBuf {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    loop {
        let r = random_game(&mut rng);
        let moves: Vec<String> = r
            .main_line()
            .iter()
            .filter_map(|&n| r.node(n).move_data().map(|m| m.mv.usi()))
            .collect();
        if moves.len() >= 200 {
            let path = dir.join("moves.txt");
            std::fs::write(&path, moves[..200].join("\n") + "\n").expect("write moves");
            return path;
        }
    }
}

fn runner(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let moves = moves_file(dir.path());
    let player = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/engines/player.sh");
    let mut spec = EngineSpec::new("/bin/sh");
    spec.args = vec![player.display().to_string(), moves.display().to_string()];
    let mut a = Player::new("a".into(), spec.clone(), Timeouts::default());
    let mut b = Player::new("b".into(), spec, Timeouts::default());
    let tc = TimeControl::parse("600+0.1").expect("valid");
    let settings = GameSettings {
        time_control: tc,
        ..GameSettings::default()
    };
    let time: Arc<dyn TimeSource> = Arc::new(SystemTime::default());
    let mut game_no = 0u32;
    let mut g = c.benchmark_group("match_runner");
    // Each measured move waits a few ms for the fake engine (its `sed`): keep the CPU
    // measured per sample small, so that a sample is a few hundred moves.
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(400));
    g.bench_function("cpu_per_engine_move", |bench| {
        bench.iter_custom(|iters| {
            let before = process_cpu();
            let mut moves = 0u64;
            while moves < iters {
                let played = play_game(
                    [&mut a, &mut b],
                    &Position::startpos(),
                    &[],
                    &settings,
                    time.clone(),
                );
                assert!(played.fault.is_none(), "a fake engine failed");
                moves += played.engine_moves as u64;
                game_no += 1;
                let record = played.record(GameInfo {
                    black: "a".into(),
                    white: "b".into(),
                    time_control: Some(tc),
                    ..GameInfo::default()
                });
                let path = dir.path().join(format!("game{game_no}.kifu"));
                write_record(&record, &path, RecordFormat::Kif, Some(tc)).expect("written");
                std::fs::remove_file(&path).expect("removed");
            }
            (process_cpu() - before).mul_f64(iters as f64 / moves as f64)
        })
    });
    g.finish();
}

criterion_group!(benches, runner);
criterion_main!(benches);
