//! The viewer's engines when they answer slowly or not at all (issue 25): switching engines
//! does not wait for the old one to go.

use crate::common::press;
use kifview::app::{App, Config, RecordSource};
use kifview::core::record::Record;
use kifview::engine::EngineSpec;
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use std::path::Path;
use std::time::{Duration, Instant};

/// An engine that answers the handshake and never quits when asked (only a kill ends it).
fn stubborn(dir: &Path, name: &str) -> EngineSpec {
    let p = dir.join(format!("{name}.sh"));
    std::fs::write(
        &p,
        format!(
            "while read l; do case $l in usi) echo 'id name {name}'; echo usiok;; isready) echo readyok;; esac; done\n"
        ),
    )
    .unwrap();
    let mut spec = EngineSpec::new("/bin/sh");
    spec.name = name.into();
    spec.args = vec![p.display().to_string()];
    spec
}

/// Is process `pid` gone (or a zombie nobody reaps)?
fn gone_now(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(s) => s
            .rsplit(')')
            .next()
            .is_some_and(|r| r.trim_start().starts_with('Z')),
    }
}

#[test]
fn switching_engines_does_not_wait_for_the_old_one_to_quit() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::defaults();
    config.engines = vec![stubborn(dir.path(), "Old"), stubborn(dir.path(), "New")];
    let app = App::new(Record::default(), RecordSource::untitled("t.kif"), config);
    let mut v = Viewer::new(app, Theme::plain());
    press(&mut v, "a");
    let pids = v.app.engine_pids();
    let [old] = pids.as_slice() else {
        panic!("no engine: {:?}", v.app.message())
    };
    let old = *old;
    press(&mut v, ":engine New⏎");
    // The key has been handled: the old engine (which ignores `quit`) is still on its way out,
    // in the background, not waited for.
    assert!(
        !gone_now(old),
        "the switch waited for the old engine to be killed"
    );
    assert_ne!(v.app.engine_pids(), vec![old]);
    // It goes all the same (killed after the quit timeout).
    let end = Instant::now() + Duration::from_secs(60);
    while !gone_now(old) {
        assert!(Instant::now() < end, "the old engine never went");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The replay engine (`tests/fixtures/engines/replay.sh`) running `script` from the start.
fn replay(dir: &Path, name: &str, script: &str) -> EngineSpec {
    let path = dir.join(format!("{name}.script"));
    std::fs::write(&path, script).unwrap();
    let replay = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/engines/replay.sh");
    let mut spec = EngineSpec::new("/bin/sh");
    spec.name = name.into();
    spec.args = vec![replay.display().to_string(), path.display().to_string()];
    spec
}

#[test]
fn mate_waits_for_an_engine_that_is_ready_late_and_then_searches() {
    let dir = tempfile::tempdir().unwrap();
    // `readyok` comes 5 s after `isready` (gpsusi under load), well after the 0.5 s asked for
    // (and the grace after it).
    let spec = replay(
        dir.path(),
        "Slow",
        "< usi\n> id name Slow\n> usiok\n< isready\nsleep 5\n> readyok\n< go mate\n> checkmate nomate\n",
    );
    let mut config = Config::defaults();
    config.engines = vec![spec];
    let app = App::new(Record::default(), RecordSource::untitled("t.kif"), config);
    let mut v = Viewer::new(app, Theme::plain());
    press(&mut v, ":mate 0.5⏎");
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        v.app.research_tick(Instant::now());
        if v.app
            .message()
            .as_ref()
            .is_some_and(|m| m.text.contains("不詰"))
        {
            break;
        }
        assert!(
            Instant::now() < end,
            "the mate search never ran: {:?}",
            v.app.message()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn mate_with_an_engine_without_a_mate_search_names_one_that_has() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::defaults();
    config.engines = vec![
        stubborn(dir.path(), "Fairy-Stockfish 11"),
        stubborn(dir.path(), "Mater"),
    ];
    let app = App::new(Record::default(), RecordSource::untitled("t.kif"), config);
    let mut v = Viewer::new(app, Theme::plain());
    press(&mut v, ":mate⏎");
    let msg = v
        .app
        .message()
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(msg.contains("not supported by this engine"), "{msg}");
    assert!(msg.contains(":engine Mater"), "{msg}");
}
