//! `kifview analyze` over many files: inputs, shards, engines in parallel, a summary.
//!
//! Each worker thread owns one engine (started in that thread: the driver ties the process's
//! life to it) and takes the next file from a shared list. A file is read, analysed and
//! written whole, or not written at all: a crash, a refused position or Ctrl-C leaves it as
//! it was. A crashed engine fails only its file; the next file starts a new engine.

use super::game::{self, Options, Stopped, analyse_record, marker, recorded_marker, set_marker};
use super::output::{self, Output};
use crate::convert;
use crate::core::notation::{self, filetype};
use crate::engine::{Engine, EngineEvent, EngineSpec, Limit, State, Timeouts};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// `--shard K/N`: the K-th (1-based) of N stable shares of the inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {s}: expected K/N with 1 ≤ K ≤ N (e.g. 3/16)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Is the file `key` (its path relative to the directory given, `/`-separated) in this
    /// shard? FNV-1a of the bytes: the same on every machine, build and Rust version.
    pub fn holds(&self, key: &str) -> bool {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in key.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h % u64::from(self.count) == u64::from(self.index - 1)
    }
}

/// `--shard`: a fixed `K/N`, or `auto` / `auto/N`: the shard of this task of a job
/// scheduler's array, read from its environment ([`ShardSpec::resolve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardSpec {
    Fixed(Shard),
    /// `auto` (`count: None`: the scheduler's count) or `auto/N`.
    Auto {
        count: Option<u32>,
    },
}

impl std::str::FromStr for ShardSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<ShardSpec, String> {
        let t = s.trim();
        if t == "auto" {
            return Ok(ShardSpec::Auto { count: None });
        }
        if let Some(n) = t.strip_prefix("auto/") {
            return match n.trim().parse::<u32>() {
                Ok(n) if n > 0 => Ok(ShardSpec::Auto { count: Some(n) }),
                _ => Err(format!(
                    "--shard {s}: expected auto/N with N ≥ 1 (e.g. auto/16)"
                )),
            };
        }
        s.parse()
            .map(ShardSpec::Fixed)
            .map_err(|e: String| format!("{e}, or auto, or auto/N"))
    }
}

/// The environment variables `--shard auto` reads (Slurm job arrays, Kubernetes Indexed Jobs).
pub const SHARD_VARIABLES: [&str; 7] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
    "JOB_COMPLETION_COUNT",
];

impl ShardSpec {
    /// The shard to take, and for `auto` where it came from (a line for the job's log).
    /// `var` reads the environment (`std::env::var` in the binary; a map in tests).
    ///
    /// - Slurm: the task's place in the array, `(SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) ÷
    ///   SLURM_ARRAY_TASK_STEP + 1`, of `SLURM_ARRAY_TASK_COUNT` (so `--array=0-63` and
    ///   `--array=1-64` both make shards 1/64 to 64/64). An array that is not one evenly
    ///   stepped range (`--array=1,4,9`) is refused: its tasks would not cover every shard.
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX + 1` (it counts from 0) of N from
    ///   `auto/N` or `JOB_COMPLETION_COUNT` (Kubernetes does not set a count: the Job's spec
    ///   sets it, equal to `completions`).
    ///
    /// `auto/N` must agree with the scheduler's count when it gives one.
    pub fn resolve(
        self,
        var: &dyn Fn(&str) -> Option<String>,
    ) -> Result<(Shard, Option<String>), String> {
        let count = match self {
            ShardSpec::Fixed(s) => return Ok((s, None)),
            ShardSpec::Auto { count } => count,
        };
        let num =
            |name: &str| -> Result<Option<u32>, String> {
                match var(name) {
                    None => Ok(None),
                    Some(v) if v.trim().is_empty() => Ok(None),
                    Some(v) => v.trim().parse().map(Some).map_err(|_| {
                        format!("--shard auto: {name}={v:?} is not a whole number ≥ 0")
                    }),
                }
            };
        let (slurm, k8s) = (num("SLURM_ARRAY_TASK_ID")?, num("JOB_COMPLETION_INDEX")?);
        let (place, total, from) = match (slurm, k8s) {
            (Some(_), Some(_)) => {
                return Err("--shard auto: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set: give --shard K/N".into());
            }
            (Some(id), None) => slurm_place(id, &num)?,
            (None, Some(i)) => (
                i,
                num("JOB_COMPLETION_COUNT")?.map(|n| (n, "JOB_COMPLETION_COUNT")),
                format!("JOB_COMPLETION_INDEX={i}"),
            ),
            (None, None) => {
                return Err("--shard auto: no job array found: SLURM_ARRAY_TASK_ID (a Slurm job array) and JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) are both unset; give --shard K/N".into());
            }
        };
        let count = match (count, total) {
            (Some(n), Some((t, name))) if n != t => {
                return Err(format!("--shard auto/{n}: the scheduler says {name}={t}"));
            }
            (Some(n), _) => n,
            (None, Some((t, _))) if t > 0 => t,
            (None, _) => {
                let wanted = if slurm.is_some() {
                    "SLURM_ARRAY_TASK_COUNT"
                } else {
                    "JOB_COMPLETION_COUNT"
                };
                return Err(format!(
                    "--shard auto: {from} but no count: set {wanted} or give --shard auto/N"
                ));
            }
        };
        if place >= count {
            return Err(format!(
                "--shard auto: {from} is task {} of an array of {count}",
                u64::from(place) + 1
            ));
        }
        let shard = Shard {
            index: place + 1,
            count,
        };
        Ok((shard, Some(from)))
    }
}

/// A Slurm task's 0-based place in its array, the array's count when Slurm gives it, and the
/// variables that decided it.
#[allow(clippy::type_complexity)]
fn slurm_place(
    id: u32,
    num: &dyn Fn(&str) -> Result<Option<u32>, String>,
) -> Result<(u32, Option<(u32, &'static str)>, String), String> {
    let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
    let step = num("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
    let count = num("SLURM_ARRAY_TASK_COUNT")?;
    let mut from = format!("SLURM_ARRAY_TASK_ID={id}");
    if min > 0 {
        from.push_str(&format!(", SLURM_ARRAY_TASK_MIN={min}"));
    }
    if step > 1 {
        from.push_str(&format!(", SLURM_ARRAY_TASK_STEP={step}"));
    }
    if id < min || !(id - min).is_multiple_of(step) {
        return Err(format!(
            "--shard auto: {from}: the task id is not in the array's range"
        ));
    }
    if let (Some(max), Some(n)) = (num("SLURM_ARRAY_TASK_MAX")?, count)
        && (max < min || (max - min) / step + 1 != n)
    {
        return Err(format!(
            "--shard auto: the Slurm array is not one evenly stepped range (SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_MAX={max}, SLURM_ARRAY_TASK_COUNT={n}): use --array=1-N, or --shard K/N"
        ));
    }
    Ok((
        (id - min) / step,
        count.map(|n| (n, "SLURM_ARRAY_TASK_COUNT")),
        from,
    ))
}

/// A batch: what `kifview analyze` was asked.
#[derive(Clone, Debug)]
pub struct Batch {
    pub inputs: Vec<PathBuf>,
    /// Walk directories.
    pub recursive: bool,
    pub output: Output,
    /// Engines in parallel; None: cores ÷ the engine's `Threads` option.
    pub jobs: Option<usize>,
    pub shard: Option<Shard>,
    /// Analyse files already analysed with the same engine and limit again.
    pub force: bool,
    pub game: Options,
    pub engine: EngineSpec,
}

/// One file to analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub input: PathBuf,
    /// Where it goes; None: standard output.
    pub output: Option<PathBuf>,
    /// Its path relative to the directory it was found in (the file name for files given).
    pub key: String,
}

/// What happened to one file.
#[derive(Clone, Debug, PartialEq)]
pub enum FileResult {
    Analysed {
        positions: usize,
        marks: usize,
        /// The plies left without a score ([`game::Report::unscored`]).
        unscored: Vec<u32>,
        /// The record rendered, when it goes to standard output.
        stdout: Option<output::Rendered>,
    },
    Skipped(String),
    Failed(String),
    /// Ctrl-C came while it was analysed: left as it was.
    Interrupted,
}

/// The outcome of a batch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub analysed: Vec<PathBuf>,
    pub skipped: Vec<(PathBuf, String)>,
    pub failed: Vec<(PathBuf, String)>,
    /// Files not analysed because of Ctrl-C (the one in progress included).
    pub not_done: usize,
    pub interrupted: bool,
    /// Files outside `--shard`.
    pub other_shards: usize,
}

impl Summary {
    /// The report printed at the end: one line per failure, then the counts.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for (p, why) in &self.failed {
            s.push_str(&format!("failed: {}: {why}\n", p.display()));
        }
        s.push_str(&format!(
            "analysed {}, skipped {}, failed {}",
            self.analysed.len(),
            self.skipped.len(),
            self.failed.len()
        ));
        if self.interrupted {
            s.push_str(&format!(", interrupted ({} not analysed)", self.not_done));
        }
        if self.other_shards > 0 {
            s.push_str(&format!(" ({} in other shards)", self.other_shards));
        }
        s.push('\n');
        s
    }

    /// 0 when everything was analysed or skipped, 1 when any file failed, 130 after Ctrl-C
    /// (`progress::exit_code` gives 128 + the signal after SIGTERM or SIGHUP).
    pub fn exit_code(&self) -> u8 {
        if self.interrupted {
            130
        } else if self.failed.is_empty() {
            0
        } else {
            1
        }
    }
}

/// The files of `inputs` (directories walked when `recursive`: the record files of formats
/// that hold comments), each with its key: its path relative to the directory given, or the
/// file name of a file given.
pub fn expand(inputs: &[PathBuf], recursive: bool) -> Result<Vec<(PathBuf, String)>, String> {
    let found = convert::expand_inputs(inputs, recursive)
        .map_err(|m| m.replace("to convert", "to analyse"))?;
    Ok(found
        .into_iter()
        .filter(|i| {
            i.base.is_none()
                || filetype::for_path(&i.path).is_some_and(|t| output::holds_comments(t.format))
        })
        .map(|i| {
            let rel = match &i.base {
                Some(b) => i.path.strip_prefix(b).unwrap_or(&i.path),
                None => i.path.file_name().map_or(i.path.as_path(), Path::new),
            };
            let key = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            (i.path, key)
        })
        .collect())
}

/// What the walk of `inputs` leaves out, a line `PATH: why` each (a FIFO, a device, a
/// dangling link, a folder that cannot be read), for `kifview analyze -r` to name before it
/// starts. The walk is a directory listing, cheap beside an engine's search, and [`plan`]
/// walks again for the files it analyses.
pub fn skipped_inputs(inputs: &[PathBuf], recursive: bool) -> Vec<String> {
    convert::walk_inputs(inputs, recursive).map_or_else(|_| Vec::new(), |w| w.1)
}

/// The jobs of a batch: inputs expanded, the shard taken, outputs decided. Errors are usage
/// errors (nothing was started).
pub fn plan(b: &Batch) -> Result<(Vec<Job>, usize), String> {
    let files = expand(&b.inputs, b.recursive)?;
    let total = files.len();
    let files: Vec<_> = match b.shard {
        Some(s) => files.into_iter().filter(|(_, k)| s.holds(k)).collect(),
        None => files,
    };
    let other = total - files.len();
    let single = matches!(b.output, Output::Stdout | Output::File(_));
    if single && total > 1 {
        return Err(format!(
            "{total} inputs: give --out-dir DIR or --in-place (-o takes one input)"
        ));
    }
    if let Output::File(o) = &b.output
        && let Some(f) = notation::Format::from_path(o)
        && !output::holds_comments(f)
    {
        return Err(output::no_comments(f));
    }
    let jobs = files
        .into_iter()
        .map(|(input, key)| {
            let output = match &b.output {
                Output::Stdout => None,
                Output::File(o) => Some(o.clone()),
                Output::InPlace => Some(input.clone()),
                Output::Dir(d) => Some(d.join(&key)),
            };
            Job { input, output, key }
        })
        .collect();
    Ok((jobs, other))
}

/// Can this engine search with `limit`? gpsusi aborts on `go nodes`, `go depth` and
/// `go movetime`.
pub fn limit_supported(engine_name: &str, command: &Path, limit: Limit) -> Result<(), String> {
    let gps =
        engine_name.starts_with("gpsshogi") || command.file_name().is_some_and(|n| n == "gpsusi");
    match limit {
        Limit::Nodes(_) | Limit::Depth(_) | Limit::MoveTime(_) if gps => Err(format!(
            "{engine_name} cannot search with --nodes or --depth (it aborts on `go nodes`/`go depth`): use --movetime MS"
        )),
        _ => Ok(()),
    }
}

/// Starts an engine and waits until it is ready. A batch gives it 60 s to answer `usi` and
/// `isready` (the viewer's 10 s are short for an engine loading a large evaluation file on a
/// busy machine or a network file system: gpsusi alone takes 3–5 s on a loaded 2-core VM).
pub fn start_engine(spec: &EngineSpec, opts: &Options) -> Result<Engine, String> {
    let timeouts = Timeouts {
        handshake: Duration::from_secs(60),
        ..Timeouts::default()
    };
    let mut eng = Engine::start_with(spec.clone(), timeouts).map_err(|e| e.to_string())?;
    if opts.multipv > 1 {
        eng.set_option("MultiPV", &opts.multipv.to_string())
            .map_err(|e| e.to_string())?;
    }
    loop {
        for ev in eng.wait(Duration::from_millis(200)) {
            match ev {
                EngineEvent::Ready => {
                    limit_supported(&eng.info().name, &spec.command, opts.limit)?;
                    return Ok(eng);
                }
                EngineEvent::Error(e) => return Err(e.to_string()),
                // A batch does not analyse with settings other than the ones asked for.
                EngineEvent::OptionRefused(why) => return Err(why),
                _ => {}
            }
        }
    }
}

/// The default `--jobs`: cores ÷ the engine's `Threads` option, at least 1.
pub fn default_jobs(spec: &EngineSpec) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = spec
        .options
        .get("Threads")
        .and_then(|v| v.to_string().parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    (cores / threads).max(1)
}

/// Something a worker tells the batch's owner.
#[derive(Debug)]
pub enum Event {
    /// Worker `worker` is at search `done` of `total` in job `job`.
    Progress {
        worker: usize,
        job: usize,
        done: usize,
        total: usize,
    },
    Finished {
        worker: usize,
        job: usize,
        result: FileResult,
    },
    /// The engine cannot be used at all (does not start, cannot take the limit).
    Fatal(String),
}

struct Shared<'a> {
    batch: &'a Batch,
    jobs: &'a [Job],
    next: AtomicUsize,
    stop: AtomicBool,
}

/// Runs the jobs with `workers` engines; `on_event` sees every event on the calling thread;
/// `cancel` (Ctrl-C) stops the batch after the searches in progress.
pub fn run_jobs(
    batch: &Batch,
    jobs: &[Job],
    workers: usize,
    cancel: &AtomicBool,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Summary, String> {
    let shared = Shared {
        batch,
        jobs,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let mut summary = Summary::default();
    let mut fatal = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for w in 0..workers.clamp(1, jobs.len().max(1)) {
            let tx = tx.clone();
            let shared = &shared;
            scope.spawn(move || worker(shared, w, &tx));
        }
        drop(tx);
        loop {
            if cancel.load(Ordering::Relaxed) && !summary.interrupted {
                summary.interrupted = true;
                shared.stop.store(true, Ordering::Relaxed);
            }
            let ev = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(ev) => ev,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            on_event(&ev);
            match ev {
                Event::Fatal(msg) => {
                    shared.stop.store(true, Ordering::Relaxed);
                    fatal.get_or_insert(msg);
                }
                Event::Finished { job, result, .. } => {
                    let path = jobs[job].input.clone();
                    match result {
                        FileResult::Analysed { .. } => summary.analysed.push(path),
                        FileResult::Skipped(why) => summary.skipped.push((path, why)),
                        FileResult::Failed(why) => summary.failed.push((path, why)),
                        FileResult::Interrupted => {}
                    }
                }
                Event::Progress { .. } => {}
            }
        }
    });
    if let Some(msg) = fatal {
        return Err(msg);
    }
    summary.not_done =
        jobs.len() - summary.analysed.len() - summary.skipped.len() - summary.failed.len();
    Ok(summary)
}

fn worker(s: &Shared, w: usize, tx: &mpsc::Sender<Event>) {
    let mut eng: Option<Engine> = None;
    let mut started_once = false;
    loop {
        if s.stop.load(Ordering::Relaxed) {
            break;
        }
        let job = s.next.fetch_add(1, Ordering::Relaxed);
        if job >= s.jobs.len() {
            break;
        }
        // An engine that died while idle is noticed here, not by failing the next file.
        if let Some(e) = eng.as_mut() {
            e.poll();
            if e.state() == State::Dead {
                eng = None;
            }
        }
        if eng.is_none() {
            match start_engine(&s.batch.engine, &s.batch.game) {
                Ok(e) => eng = Some(e),
                Err(msg) if !started_once => {
                    let _ = tx.send(Event::Fatal(msg));
                    break;
                }
                Err(msg) => {
                    let result =
                        FileResult::Failed(format!("engine could not be restarted: {msg}"));
                    let _ = tx.send(Event::Finished {
                        worker: w,
                        job,
                        result,
                    });
                    continue;
                }
            }
            started_once = true;
        }
        let Some(e) = eng.as_mut() else { break };
        let mut progress = |done, total| {
            let _ = tx.send(Event::Progress {
                worker: w,
                job,
                done,
                total,
            });
        };
        let (result, engine_dead) = analyse_file(s.batch, &s.jobs[job], e, &s.stop, &mut progress);
        if engine_dead {
            eng = None; // dropped: killed and reaped; the next file starts a new one
        }
        let _ = tx.send(Event::Finished {
            worker: w,
            job,
            result,
        });
    }
}

/// Reads, analyses and writes one file. Returns what happened and whether the engine died.
pub fn analyse_file(
    b: &Batch,
    job: &Job,
    eng: &mut Engine,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> (FileResult, bool) {
    let fail = |m: String| (FileResult::Failed(m), false);
    let bytes = match crate::load::read_regular(&job.input) {
        Ok(b) => b,
        Err(e) => {
            // The summary names the file already.
            let prefix = format!("{}: ", job.input.display());
            return fail(e.strip_prefix(&prefix).unwrap_or(&e).to_string());
        }
    };
    let mut loaded = notation::load(&bytes, Some(&job.input));
    if loaded.records.len() != 1 {
        return fail(format!(
            "holds {} records; kifview analyze takes files of one record",
            loaded.records.len()
        ));
    }
    let dest = job.output.clone().unwrap_or_else(|| job.input.clone());
    let (target, info) = match output::target(&dest, &loaded) {
        Ok(t) => t,
        Err(m) => return fail(m),
    };
    let same_file = job.output.as_deref().is_some_and(|o| {
        o == job.input || std::fs::canonicalize(o).ok() == std::fs::canonicalize(&job.input).ok()
    });
    if same_file && !writable(&job.input) {
        return fail("the file is read-only (for this user): not analysed".into());
    }
    if same_file && let Some(risk) = output::in_place_risk(&loaded, &bytes) {
        return fail(format!(
            "not rewritten in place: {risk} (write a copy with --out-dir)"
        ));
    }
    let mut record = loaded.records.remove(0).record;
    let first = record.main_line().get(1).copied();
    if first.is_none_or(|id| record.node(id).move_data().is_none()) {
        return (FileResult::Skipped("no moves".into()), false);
    }
    let mark = marker(&b.game, &game::written_name(&eng.info().name));
    let done_in_output = || {
        let out = job.output.as_deref().filter(|_| !same_file)?;
        Some(output::analysed_copy(out, &record, &mark))
    };
    if !b.force
        && (recorded_marker(&record) == Some(mark.as_str()) || done_in_output() == Some(true))
    {
        return (
            FileResult::Skipped(
                "already analysed with this engine and limit (--force redoes it)".into(),
            ),
            false,
        );
    }
    let report = match analyse_record(eng, &mut record, &b.game, stop, progress) {
        Ok(r) => r,
        Err(Stopped::Cancelled) => return (FileResult::Interrupted, false),
        Err(e @ Stopped::Engine { .. }) => return (FileResult::Failed(e.to_string()), true),
        Err(e @ Stopped::Refused { .. }) => return fail(e.to_string()),
    };
    set_marker(&mut record, &mark);
    let out = match output::render(&record, target, &info) {
        Ok(o) => o,
        Err(m) => return fail(m),
    };
    let stdout = match &job.output {
        None => Some(out),
        Some(p) => {
            if let Err(e) = output::save(p, &out.bytes) {
                // The summary names the file already.
                let prefix = format!("{}: ", p.display());
                return fail(e.strip_prefix(&prefix).unwrap_or(&e).to_string());
            }
            None
        }
    };
    (
        FileResult::Analysed {
            positions: report.written,
            marks: report.marks.len(),
            unscored: report.unscored,
            stdout,
        },
        false,
    )
}

/// May this user write `path`? As `store` decides: not when it has no write bit at all
/// (even for root), nor when `access` says no.
fn writable(path: &Path) -> bool {
    if std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly()) {
        return false;
    }
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated string for the duration of the call.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

pub use game::DEFAULT_LIMIT;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_every_file_into_exactly_one() {
        let keys: Vec<String> = (0..5000)
            .map(|i| format!("2024/{:02}/wdoor+floodgate-300-10F+a+b+{i}.csa", i % 12))
            .collect();
        for n in [1u32, 2, 3, 7, 16] {
            let mut counts = vec![0usize; n as usize];
            for k in &keys {
                let owners: Vec<u32> = (1..=n)
                    .filter(|&i| Shard { index: i, count: n }.holds(k))
                    .collect();
                assert_eq!(owners.len(), 1, "{k} in shards {owners:?} of {n}");
                counts[owners[0] as usize - 1] += 1;
            }
            let fair = keys.len() / n as usize;
            for c in counts {
                assert!(
                    c > fair * 8 / 10 && c < fair * 12 / 10,
                    "{n}: {c} vs {fair}"
                );
            }
        }
        // Stable: the same answer as on every other machine.
        assert!(
            Shard { index: 1, count: 2 }.holds("a.kif")
                != Shard { index: 2, count: 2 }.holds("a.kif")
        );
        assert_eq!(Shard { index: 3, count: 7 }.holds("2024/01/game.csa"), {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in "2024/01/game.csa".bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
            h % 7 == 2
        });
    }

    #[test]
    fn shard_text() {
        assert_eq!(
            "3/16".parse::<Shard>(),
            Ok(Shard {
                index: 3,
                count: 16
            })
        );
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", ""] {
            assert!(bad.parse::<Shard>().unwrap_err().contains("K/N"), "{bad}");
        }
    }

    fn auto(spec: &str, vars: &[(&str, &str)]) -> Result<(Shard, Option<String>), String> {
        let vars: std::collections::HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        spec.parse::<ShardSpec>()?
            .resolve(&|k: &str| vars.get(k).cloned())
    }

    fn shard(index: u32, count: u32) -> Shard {
        Shard { index, count }
    }

    #[test]
    fn shard_auto_from_slurm_arrays() {
        let slurm = |id: &str, min: &str, max: &str, count: &str| {
            vec![
                ("SLURM_ARRAY_TASK_ID", id.to_string()),
                ("SLURM_ARRAY_TASK_MIN", min.to_string()),
                ("SLURM_ARRAY_TASK_MAX", max.to_string()),
                ("SLURM_ARRAY_TASK_COUNT", count.to_string()),
            ]
        };
        let run = |spec: &str, v: Vec<(&str, String)>| {
            let v: Vec<(&str, &str)> = v.iter().map(|(k, x)| (*k, x.as_str())).collect();
            auto(spec, &v)
        };
        // --array=0-63 and --array=1-64 give the same shards.
        assert_eq!(
            run("auto", slurm("0", "0", "63", "64")).unwrap().0,
            shard(1, 64)
        );
        assert_eq!(
            run("auto", slurm("63", "0", "63", "64")).unwrap().0,
            shard(64, 64)
        );
        assert_eq!(
            run("auto", slurm("1", "1", "64", "64")).unwrap().0,
            shard(1, 64)
        );
        assert_eq!(
            run("auto", slurm("64", "1", "64", "64")).unwrap().0,
            shard(64, 64)
        );
        // --array=10-13
        let (s, from) = run("auto", slurm("12", "10", "13", "4")).unwrap();
        assert_eq!(s, shard(3, 4));
        assert!(from.unwrap().contains("SLURM_ARRAY_TASK_ID=12"));
        // --array=0-30:10 (0, 10, 20, 30)
        let mut v = slurm("20", "0", "30", "4");
        v.push(("SLURM_ARRAY_TASK_STEP", "10".into()));
        assert_eq!(run("auto", v).unwrap().0, shard(3, 4));
        // auto/N agrees with the count, or says where they differ.
        assert_eq!(
            run("auto/64", slurm("5", "1", "64", "64")).unwrap().0,
            shard(5, 64)
        );
        let e = run("auto/32", slurm("5", "1", "64", "64")).unwrap_err();
        assert!(e.contains("SLURM_ARRAY_TASK_COUNT=64"), "{e}");
        // A list with holes (--array=1,4,9) does not cover every shard.
        let e = run("auto", slurm("4", "1", "9", "3")).unwrap_err();
        assert!(e.contains("not one evenly stepped range"), "{e}");
        // Without a count: auto/N, or an error naming the variable.
        let v = vec![("SLURM_ARRAY_TASK_ID", "3".to_string())];
        assert_eq!(run("auto/8", v.clone()).unwrap().0, shard(4, 8));
        let e = run("auto", v).unwrap_err();
        assert!(e.contains("SLURM_ARRAY_TASK_COUNT"), "{e}");
        // A task beyond the count, or not a number.
        let e = run("auto/4", vec![("SLURM_ARRAY_TASK_ID", "4".into())]).unwrap_err();
        assert!(e.contains("task 5 of an array of 4"), "{e}");
        let e = run("auto", vec![("SLURM_ARRAY_TASK_ID", "x".into())]).unwrap_err();
        assert!(e.contains("SLURM_ARRAY_TASK_ID=\"x\""), "{e}");
    }

    #[test]
    fn shard_auto_from_kubernetes_indexed_jobs() {
        fn k(i: &str) -> [(&'static str, &str); 1] {
            [("JOB_COMPLETION_INDEX", i)]
        }
        assert_eq!(auto("auto/16", &k("0")).unwrap().0, shard(1, 16));
        assert_eq!(auto("auto/16", &k("15")).unwrap().0, shard(16, 16));
        assert!(
            auto("auto/16", &k("16"))
                .unwrap_err()
                .contains("of an array of 16")
        );
        let with_count = [("JOB_COMPLETION_INDEX", "2"), ("JOB_COMPLETION_COUNT", "5")];
        assert_eq!(auto("auto", &with_count).unwrap().0, shard(3, 5));
        assert!(
            auto("auto/6", &with_count)
                .unwrap_err()
                .contains("JOB_COMPLETION_COUNT=5")
        );
        let e = auto("auto", &k("2")).unwrap_err();
        assert!(
            e.contains("JOB_COMPLETION_COUNT") && e.contains("auto/N"),
            "{e}"
        );
    }

    #[test]
    fn shard_auto_needs_exactly_one_scheduler() {
        let e = auto("auto", &[]).unwrap_err();
        assert!(
            e.contains("SLURM_ARRAY_TASK_ID") && e.contains("JOB_COMPLETION_INDEX"),
            "{e}"
        );
        let both = [("SLURM_ARRAY_TASK_ID", "1"), ("JOB_COMPLETION_INDEX", "1")];
        assert!(auto("auto/4", &both).unwrap_err().contains("both"));
        // A fixed shard ignores the environment.
        assert_eq!(auto("2/3", &both).unwrap(), (shard(2, 3), None));
        for bad in ["auto/0", "auto/x", "automatic", "auto/"] {
            assert!(bad.parse::<ShardSpec>().is_err(), "{bad}");
        }
        assert!("0/3".parse::<ShardSpec>().unwrap_err().contains("auto/N"));
    }

    #[test]
    fn gpsusi_takes_only_time() {
        let g = Path::new("/usr/games/gpsusi");
        assert!(limit_supported("gpsshogi (smp)", g, Limit::Nodes(10)).is_err());
        assert!(limit_supported("x", g, Limit::Depth(3)).is_err());
        assert!(limit_supported("gpsshogi", g, DEFAULT_LIMIT).is_ok());
        assert!(
            limit_supported(
                "Fairy-Stockfish",
                Path::new("fairy-stockfish"),
                Limit::Nodes(1)
            )
            .is_ok()
        );
    }

    #[test]
    fn expand_walks_directories_and_keys_are_relative() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("a/b")).unwrap();
        for f in ["a/b/x.kif", "a/y.CSA", "z.kifu", "notes.txt", "a/pos.sfen"] {
            std::fs::write(d.path().join(f), "").unwrap();
        }
        let got = expand(&[d.path().to_path_buf()], true).unwrap();
        let keys: Vec<&str> = got.iter().map(|(_, k)| k.as_str()).collect();
        assert_eq!(keys, ["a/b/x.kif", "a/y.CSA", "z.kifu"]);
        assert!(
            expand(&[d.path().to_path_buf()], false)
                .unwrap_err()
                .contains("-r")
        );
    }
}
