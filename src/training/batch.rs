//! `kifview problems make` over files: read each record, analyse in memory those that hold no
//! analysis when asked to, find the problems with one engine, and say what was skipped.
//! The records' files are only read, never written.

use super::make::{Criteria, Maker, RecordOutcome, Stopped, has_analysis};
use super::set::ProblemSet;
use crate::analyze::batch::start_engine;
use crate::analyze::{self, Options};
use crate::engine::{EngineSpec, Limit};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// One record to take problems from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordSource {
    pub path: PathBuf,
    /// The record of a file of several (1-based); None: every record of the file.
    pub record: Option<u32>,
}

/// What `make` did, for the summary.
#[derive(Debug, Default)]
pub struct Made {
    pub set: Option<ProblemSet>,
    /// Records read.
    pub records: usize,
    /// `PATH: why` of each file that could not be read.
    pub unreadable: Vec<String>,
    /// The files whose records hold no analysis (and were not analysed).
    pub unanalysed: Vec<PathBuf>,
    /// Records analysed in memory (`--analyze`).
    pub analysed: usize,
    pub blunders: usize,
    pub searched: usize,
    /// Ctrl-C: the set holds what was found before it.
    pub interrupted: bool,
}

/// How to make a set.
#[derive(Clone, Debug)]
pub struct MakeOptions {
    pub criteria: Criteria,
    pub engine: EngineSpec,
    /// Analyse the records that hold none first (in memory), this long per position.
    pub analyze: Option<Duration>,
}

/// What `progress` is told as the work goes.
#[derive(Debug)]
pub enum Progress<'a> {
    /// A record is done, with what it gave.
    Record {
        path: &'a str,
        outcome: &'a RecordOutcome,
    },
    /// A record is being analysed first (`--analyze`).
    Analysing { path: &'a str },
}

/// Makes a set from `sources`; `now` is the set's `createdAt` (ISO 8601). Err: the engine
/// could not start or failed (nothing made).
pub fn make(
    sources: &[RecordSource],
    opts: &MakeOptions,
    now: String,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Made, String> {
    opts.criteria.check()?;
    let engine_opts = Options {
        limit: Limit::Time(opts.criteria.time),
        multipv: opts.criteria.multipv,
        ..Options::default()
    };
    let mut made = Made::default();
    let mut eng = start_engine(&opts.engine, &engine_opts)?;
    let name = analyze::game::written_name(&eng.info().name);
    let mut maker = Maker::new(&mut eng, opts.criteria.clone());
    'files: for src in sources {
        if maker.full() {
            break;
        }
        // A regular file only: a FIFO named on the command line would wait for a writer.
        let loaded = match crate::load::read_regular(&src.path).and_then(|b| {
            crate::load::read_records(&b, Some(&src.path))
                .map_err(|why| format!("{}: not a record: {why}", src.path.display()))
        }) {
            Ok(l) => l,
            Err(e) => {
                made.unreadable.push(e);
                continue;
            }
        };
        let shown = src.path.display().to_string();
        let mut unanalysed = false;
        for (i, parsed) in loaded.records.into_iter().enumerate() {
            if src.record.is_some_and(|r| r as usize != i + 1) {
                continue;
            }
            let mut record = parsed.record;
            made.records += 1;
            if !has_analysis(&record) {
                let Some(time) = opts.analyze else {
                    unanalysed = true;
                    continue;
                };
                progress(Progress::Analysing { path: &shown });
                let aopts = Options {
                    limit: Limit::Time(time),
                    ..Options::default()
                };
                // `maker` holds the engine: analyse with it between its searches.
                match maker.analyse(&mut record, &aopts, cancel) {
                    Ok(()) => made.analysed += 1,
                    Err(Stopped::Cancelled) => {
                        made.interrupted = true;
                        break 'files;
                    }
                    Err(Stopped::Engine(e)) => return Err(format!("{shown}: {e}")),
                }
            }
            // The spec's `source.path` is absolute.
            let absolute = std::path::absolute(&src.path).unwrap_or_else(|_| src.path.clone());
            match maker.add_record(&record, &absolute.display().to_string(), cancel) {
                Ok(o) => {
                    made.blunders += o.blunders;
                    made.searched += o.searched;
                    progress(Progress::Record {
                        path: &shown,
                        outcome: &o,
                    });
                }
                Err(Stopped::Cancelled) => {
                    made.interrupted = true;
                    break 'files;
                }
                Err(Stopped::Engine(e)) => return Err(e),
            }
            if maker.full() || cancel.load(Ordering::Relaxed) {
                made.interrupted |= cancel.load(Ordering::Relaxed);
                break 'files;
            }
        }
        if unanalysed {
            made.unanalysed.push(src.path.clone());
        }
    }
    let set = maker.finish(&name, now);
    eng.quit();
    made.set = Some(set);
    Ok(made)
}
