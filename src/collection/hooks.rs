//! Test hooks of `kifview index` (`build`): files per batch, and pauses after or inside a
//! step, for tests that stop or kill an update at a known point.

use super::catalog::{Catalog, pause_in_step_wanted};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// A batch of files read before they are stored: at most this many files, or bytes (a few
/// multi-record files can hold 10^5 games).
pub(super) const BATCH: usize = 4096;

/// Test hooks: files per batch, and what to do after each step committed (its number: 0 for
/// the first transaction, which forgets the files gone; then 1, 2, … for the batches'; and
/// the update's `stop`). Set by [`set_hook`] for an index folder, or in debug builds only by
/// `KIFVIEW_TEST_BATCH` (files per batch) and `KIFVIEW_TEST_PAUSE_AFTER_STEP=N` (after step
/// N: a line on stderr, then the update waits until it is told to stop, or for ever: for a
/// test to kill it or to quit the viewer).
#[doc(hidden)]
pub struct Hook {
    pub batch: usize,
    pub after_step: AfterStep,
}

/// What [`Hook`] does after a step: given its number and the update's `stop`.
#[doc(hidden)]
pub type AfterStep = Box<dyn Fn(u64, &AtomicBool) + Send + Sync>;

type Hooks = Vec<(PathBuf, std::sync::Arc<Hook>)>;
static HOOKS: std::sync::Mutex<Hooks> = std::sync::Mutex::new(Vec::new());

/// Sets the hook of updates into `dir` (tests).
#[doc(hidden)]
pub fn set_hook(dir: &Path, hook: Hook) {
    if let Ok(mut h) = HOOKS.lock() {
        h.retain(|(d, _)| d != dir);
        h.push((dir.to_path_buf(), std::sync::Arc::new(hook)));
    }
}

impl Hook {
    pub(super) fn of(dir: &Path) -> std::sync::Arc<Hook> {
        let set = HOOKS.lock().ok().and_then(|h| {
            h.iter()
                .find(|(d, _)| d == dir)
                .map(|(_, h)| std::sync::Arc::clone(h))
        });
        set.unwrap_or_else(|| std::sync::Arc::new(Hook::from_env()))
    }

    fn from_env() -> Hook {
        let var = |name: &str| -> Option<u64> {
            if !cfg!(debug_assertions) {
                return None;
            }
            std::env::var(name).ok()?.parse().ok()
        };
        let pause = var("KIFVIEW_TEST_PAUSE_AFTER_STEP");
        Hook {
            batch: var("KIFVIEW_TEST_BATCH").map_or(BATCH, |n| (n as usize).max(1)),
            after_step: Box::new(move |step, stop| {
                if pause == Some(step) {
                    eprintln!("kifview: test pause after step {step}");
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::park_timeout(std::time::Duration::from_millis(10));
                    }
                }
            }),
        }
    }
}

/// Debug builds, for a test to kill an update in the middle of a step:
/// `KIFVIEW_TEST_PAUSE_IN_STEP=N` writes step N's changes into the catalog file before its
/// commit (a hot journal beside it, as a step larger than SQLite's cache left before the
/// updater turned cache spills off), says so on stderr and waits for
/// ever.
pub(super) fn pause_in_step(cat: &Catalog, step: u64) {
    let Some(pause) = pause_in_step_wanted() else {
        return;
    };
    if step == 0 {
        // A filler of a hundred pages, committed with the first transaction.
        let _ = cat.set_meta("test filler", "");
        let _ = cat.db.execute(
            "UPDATE meta SET value = hex(randomblob(300000)) WHERE key = 'test filler'",
            [],
        );
        return;
    }
    if pause != step {
        return;
    }
    // Rewriting the filler's hundred pages twice (the second time into pages the first freed)
    // through a cache this small spills them into the file, the journal synced first: a hot journal once the process dies.
    if let Err(e) = cat.db.execute_batch(
        "PRAGMA cache_size = 10;
         UPDATE meta SET value = hex(randomblob(300000)) WHERE key = 'test filler';
         UPDATE meta SET value = hex(randomblob(300000)) WHERE key = 'test filler'",
    ) {
        eprintln!("kifview: test pause: {e}");
    }
    eprintln!("kifview: test pause in step {step}");
    loop {
        std::thread::park();
    }
}
