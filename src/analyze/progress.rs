//! Running a batch for a person at a terminal: the progress bar (stderr, only on a terminal),
//! the records on stdout, and Ctrl-C.

use super::batch::{self, Batch, Event, FileResult, Job, Summary};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Each file counts this many units on the bar, spread over its searches.
const UNITS: u64 = 1000;

/// Files done and the position reached in each worker's file.
pub struct Bar {
    bar: ProgressBar,
    files: usize,
    done: usize,
    in_progress: Vec<u64>,
}

impl Bar {
    pub fn new(files: usize) -> Bar {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(files as u64 * UNITS), target);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {percent:>3}% ETA {eta_precise} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_message(format!("0/{files} files"));
        Bar {
            bar,
            files,
            done: 0,
            in_progress: Vec::new(),
        }
    }

    pub fn event(&mut self, ev: &Event, jobs: &[Job]) {
        match ev {
            Event::Progress {
                worker,
                done,
                total,
                ..
            } => {
                if self.in_progress.len() <= *worker {
                    self.in_progress.resize(worker + 1, 0);
                }
                self.in_progress[*worker] = (*done as u64 * UNITS) / (*total).max(1) as u64;
            }
            Event::Finished {
                worker,
                job,
                result,
            } => {
                if let Some(p) = self.in_progress.get_mut(*worker) {
                    *p = 0;
                }
                self.done += 1;
                let path = jobs[*job].input.display();
                // Failures are listed again in the summary: at once only above a live bar.
                let line = match result {
                    FileResult::Failed(why) if !self.bar.is_hidden() => {
                        Some(format!("failed: {path}: {why}"))
                    }
                    FileResult::Skipped(why) => Some(format!("skipped: {path}: {why}")),
                    FileResult::Analysed {
                        positions,
                        unscored,
                        ..
                    } if !unscored.is_empty() => {
                        Some(unscored_warning(&path, *positions, unscored))
                    }
                    _ => None,
                };
                if let Some(l) = line {
                    let l = crate::engine::clean(&l);
                    if self.bar.is_hidden() {
                        eprintln!("{l}");
                    } else {
                        self.bar.println(l);
                    }
                }
                self.bar
                    .set_message(format!("{}/{} files", self.done, self.files));
            }
            Event::Fatal(_) => {}
        }
        let partial: u64 = self.in_progress.iter().sum();
        self.bar.set_position(self.done as u64 * UNITS + partial);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// `warning: game.kif: 3 of 108 positions got no score …`: what the engine left unanalysed
/// (no score within the limit) is said, not left out silently.
fn unscored_warning(path: &impl std::fmt::Display, positions: usize, plies: &[u32]) -> String {
    let mut shown: Vec<String> = plies.iter().take(10).map(u32::to_string).collect();
    if plies.len() > shown.len() {
        shown.push("…".into());
    }
    format!(
        "warning: {path}: {} of {positions} positions got no score from the engine within the limit (ply {}): left without an analysis comment; a longer limit analyses them",
        plies.len(),
        shown.join(", ")
    )
}

/// Writes an analysed record to stdout: the exact bytes to a file or a pipe; to a terminal
/// its text as rendered, made safe for it (`core::text::sanitize` on each line: the record
/// quotes the file's and the engine's text), Shift_JIS shown as text.
fn write_record(rendered: &super::output::Rendered) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if !out.is_terminal() {
        let _ = out.write_all(&rendered.bytes);
        return;
    }
    for line in rendered.text.lines() {
        let _ = writeln!(out, "{}", crate::core::text::sanitize(line));
    }
}

/// The whole batch with a progress bar on a terminal (stderr) and the analysed record on
/// stdout for `Output::Stdout`.
pub fn run(b: &Batch, cancel: &AtomicBool) -> Result<Summary, String> {
    let (jobs, other) = batch::plan(b)?;
    let workers = b
        .jobs
        .unwrap_or_else(|| batch::default_jobs(&b.engine))
        .max(1);
    let mut bar = Bar::new(jobs.len());
    let mut summary = batch::run_jobs(b, &jobs, workers, cancel, &mut |ev| {
        bar.event(ev, &jobs);
        if let Event::Finished {
            result:
                FileResult::Analysed {
                    stdout: Some(rendered),
                    ..
                },
            ..
        } = ev
        {
            write_record(rendered);
        }
    });
    bar.finish();
    if let Ok(s) = summary.as_mut() {
        s.other_shards = other;
    }
    summary
}

/// Set by the first Ctrl-C (or SIGTERM, SIGHUP) once [`catch_interrupt`] ran.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The signal that set [`INTERRUPTED`].
static SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    // Only atomic stores: async-signal-safe.
    SIGNAL.store(sig, Ordering::Relaxed);
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Makes the first Ctrl-C (SIGINT), SIGTERM or SIGHUP (a supervisor, a closed terminal) set
/// [`INTERRUPTED`] instead of killing the process, so a batch finishes cleanly: the files
/// done are complete, the engines quit; a second one kills as usual (`SA_RESETHAND`).
/// Engines run in their own process groups and do not get the terminal's SIGINT.
pub fn catch_interrupt() -> &'static AtomicBool {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: the handler only stores to atomics; the sigaction struct is fully
        // initialised.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
            sa.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
    &INTERRUPTED
}

/// The batch's exit status: [`Summary::exit_code`], and after an interruption 128 + the
/// signal that caused it (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
pub fn exit_code(s: &Summary) -> u8 {
    if s.interrupted {
        interrupted_exit_code()
    } else {
        s.exit_code()
    }
}

/// The exit status of a command ended by the signal [`catch_interrupt`] caught: 128 + its
/// number (130 for Ctrl-C).
pub fn interrupted_exit_code() -> u8 {
    u8::try_from(128 + SIGNAL.load(Ordering::Relaxed).max(2)).unwrap_or(130)
}
