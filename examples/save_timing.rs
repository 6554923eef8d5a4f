//! Times a save of the 68,000-node study (the viewer bench's) as CSA, which cannot hold its
//! variations: the question, then `y`. Run: `cargo run --example save_timing [--release]`.

#[path = "../benches/support/randgen.rs"]
#[allow(dead_code)]
mod randgen;

use kifview::app::document::job::{SaveHow, Then};
use kifview::app::{App, Config, KeyEvent, Mode, RecordSource};
use std::time::Instant;

fn main() {
    let mut rng = randgen::Rng(0x9e37_79b9_7f4a_7c15);
    let study = randgen::big_study(&mut rng, 68_000);
    let dir = tempfile::tempdir().unwrap();
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let mut ask = Vec::new();
    let mut yes = Vec::new();
    for i in 0..n {
        let mut app = App::new(
            study.clone(),
            RecordSource::untitled("study.kifu"),
            Config::defaults(),
        );
        let path = dir.path().join(format!("s{i}.csa"));
        let t = Instant::now();
        app.save_to(Some(path.clone()), SaveHow::Copy, Then::Stay);
        app.wait_for_saves();
        assert_eq!(app.mode(), Mode::Confirm);
        let t1 = t.elapsed();
        let t = Instant::now();
        kifview::app::update(&mut app, KeyEvent::char('y'));
        app.wait_for_saves();
        let t2 = t.elapsed();
        assert!(path.exists());
        ask.push(t1.as_secs_f64() * 1e3);
        yes.push(t2.as_secs_f64() * 1e3);
    }
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "{} nodes, {n} runs: to the question {:.1} ms, y to saved {:.1} ms (medians)",
        study.len(),
        med(&mut ask),
        med(&mut yes)
    );
}
