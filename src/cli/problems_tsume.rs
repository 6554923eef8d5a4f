//! `kifview problems tsume`: 実戦詰め, tsume records made from the games that end in
//! checkmate, each finish confirmed by a mate engine's `go mate`
//! ([`kifview::training::jissen`]), written into a folder that `kifview train` solves.

use super::collection::fail;
use super::problems::{TsumeArgs, sources};
use kifview::analyze::Options;
use kifview::analyze::batch::start_engine;
use kifview::core::text::sanitize;
use kifview::engine::Limit;
use kifview::training::jissen::{self, Confirmed, NotConfirmed, Origin};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

const WHO: &str = "problems tsume";

/// The engine failing on this many games one after another stops the run: it fails on
/// everything, not on one position.
const FAILURES_IN_A_ROW: u32 = 3;

/// The file a game's tsume is written to: `STEM-R-PLY.kifu` (the game's file name, its
/// record, the move the tsume starts at), its name stripped of what a file name should not
/// hold.
fn file_name(game: &Path, record: usize, start: u32) -> String {
    let stem = game
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    let stem: String = sanitize(&stem)
        .chars()
        .map(|c| if c == '/' || c == '\\' { '_' } else { c })
        .collect();
    format!("{stem}-{record}-{start}.kifu")
}

pub fn run(mut a: TsumeArgs) -> ExitCode {
    if !(a.time > 0.0 && a.time < 1e6) {
        return fail(2, WHO, "--time: expected seconds > 0");
    }
    if a.min_plies == 0 || a.min_plies > a.max_plies {
        return fail(
            2,
            WHO,
            "--min-plies must be at least 1 and at most --max-plies",
        );
    }
    let configured = match super::analyze::configured_engines(a.games.filter.config.as_deref()) {
        Ok(c) => c,
        Err(m) => return fail(2, WHO, &m),
    };
    let spec = match super::analyze::mate_engine(a.engine.as_deref(), &configured) {
        Ok(s) => s,
        Err(m) => return fail(2, WHO, &m),
    };
    if let Some(why) = kifview::analyze::mate::known_unsupported(&spec.display_name()) {
        return fail(2, WHO, &why);
    }
    let records = match sources(&mut a.games, WHO) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if records.is_empty() {
        return fail(1, WHO, "no record file among the inputs");
    }
    if let Err(e) = std::fs::create_dir_all(&a.output) {
        return fail(1, WHO, &format!("{}: {e}", a.output.display()));
    }
    let opts = Options {
        limit: Limit::Mate(None),
        ..Options::default()
    };
    let mut eng = match start_engine(&spec, &opts) {
        Ok(e) => e,
        Err(m) => return fail(1, WHO, &m),
    };
    let cancel = kifview::analyze::progress::catch_interrupt();
    let time = Duration::from_secs_f64(a.time);
    let mut count = Count::default();
    let mut failed_in_a_row = 0;
    'files: for src in &records {
        let shown = sanitize(&src.path.display().to_string()).into_owned();
        let loaded = match kifview::load::load_input(&src.path) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("kifview {WHO}: skipped {}", sanitize(&e));
                continue;
            }
        };
        for (i, parsed) in loaded.records.iter().enumerate() {
            let no = i + 1;
            if src.record.is_some_and(|r| r as usize != no) {
                continue;
            }
            if cancel.load(Ordering::Relaxed) || count.written >= a.max {
                break 'files;
            }
            count.records += 1;
            let finishes = jissen::finishes(&parsed.record, a.min_plies, a.max_plies);
            if finishes.is_empty() {
                continue;
            }
            count.mated += 1;
            let confirmed = match jissen::confirm(&mut eng, &finishes, time, cancel) {
                Ok(c) => {
                    failed_in_a_row = 0;
                    c
                }
                Err(NotConfirmed::Unsupported(why)) => {
                    eng.quit();
                    return fail(1, WHO, &why);
                }
                Err(NotConfirmed::Failed { sfen, error }) => {
                    // An engine that crashes on one position (gpsusi aborts on some) costs
                    // that game only: it is named, and a new engine takes the next one.
                    count.failed += 1;
                    failed_in_a_row += 1;
                    eprintln!(
                        "kifview {WHO}: {shown} (record {no}): the engine failed on {sfen}: {}; \
                         skipped; the engine is started again",
                        sanitize(&error.to_string())
                    );
                    eng.quit();
                    if failed_in_a_row >= FAILURES_IN_A_ROW {
                        return fail(
                            1,
                            WHO,
                            &format!(
                                "the engine failed on {FAILURES_IN_A_ROW} games in a row; stopped \
                                 ({} tsume written)",
                                count.written
                            ),
                        );
                    }
                    eng = match start_engine(&spec, &opts) {
                        Ok(e) => e,
                        Err(m) => {
                            return fail(
                                1,
                                WHO,
                                &format!("the engine could not be restarted: {m}"),
                            );
                        }
                    };
                    continue;
                }
            };
            let f = match confirmed {
                Confirmed::Tsume(f) => f,
                Confirmed::Not(why) => {
                    let why: Vec<String> = why.iter().map(|(n, w)| format!("{n}手: {w}")).collect();
                    eprintln!(
                        "kifview {WHO}: {shown} (record {no}): no finish confirmed ({})",
                        why.join(", ")
                    );
                    continue;
                }
            };
            let name = file_name(&src.path, no, f.before + 1);
            let out: PathBuf = a.output.join(&name);
            let origin = Origin::of(
                &src.path
                    .file_name()
                    .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned()),
                no,
                &parsed.record,
            );
            let text = jissen::kif_text(&f, &origin);
            match kifview::store::save_new(&out, text.as_bytes(), Default::default(), a.force) {
                Ok(()) => {
                    count.written += 1;
                    eprintln!(
                        "kifview {WHO}: {shown} (record {no}): {}手詰 from move {}: wrote {}",
                        f.moves.len(),
                        f.before + 1,
                        sanitize(&name)
                    );
                }
                Err(e) => eprintln!("kifview {WHO}: {shown} (record {no}): not written: {e}"),
            }
        }
    }
    eng.quit();
    eprintln!(
        "kifview {WHO}: {} record(s), {} ending in mate, {} tsume written to {}",
        count.records,
        count.mated,
        count.written,
        sanitize(&a.output.display().to_string())
    );
    if count.failed > 0 {
        eprintln!(
            "kifview {WHO}: {} game(s) skipped because the engine failed on them (above)",
            count.failed
        );
    }
    if cancel.load(Ordering::Relaxed) {
        return ExitCode::from(kifview::analyze::progress::interrupted_exit_code());
    }
    if count.written == 0 {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

#[derive(Default)]
struct Count {
    records: usize,
    mated: usize,
    written: usize,
    /// Games the engine failed on (skipped).
    failed: usize,
}
