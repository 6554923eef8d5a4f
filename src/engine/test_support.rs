//! Helpers shared by the engine module's tests.

use super::usi::{Info, UsiMessage, parse_line};
use super::{Engine, EngineEvent};
use crate::core::rules::Move;
use std::time::{Duration, Instant};

/// Collects events until one satisfies `done`; fails after `secs` seconds times three (the
/// suite runs beside other tests on two cores: a real engine can start slowly there, and only
/// a failing test ever waits this long).
pub fn until(e: &mut Engine, secs: u64, done: impl Fn(&EngineEvent) -> bool) -> Vec<EngineEvent> {
    let end = Instant::now() + Duration::from_secs(secs * 3);
    let mut all = Vec::new();
    while Instant::now() < end {
        let events = e.wait(Duration::from_millis(50));
        let hit = events.iter().any(&done);
        all.extend(events);
        if hit {
            return all;
        }
    }
    panic!("timed out; events so far: {all:?}");
}

/// USI moves separated by spaces.
pub fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| Move::from_usi(m).unwrap())
        .collect()
}

/// The `info` that `line` must be.
pub fn info(line: &str) -> Info {
    match parse_line(line) {
        Some(UsiMessage::Info(i)) => *i,
        other => panic!("not an info line: {line:?} -> {other:?}"),
    }
}
