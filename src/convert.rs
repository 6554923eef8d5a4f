//! Batch work on record files: walking the inputs, planning outputs, converting and checking
//! on every core (through `crate::pool`; the files are read by `crate::load`), and the
//! position `show` prints. The CLI parses arguments and prints what these
//! functions return; nothing here writes to the terminal.
//!
//! Messages are returned as they are: they quote the files' own text, and the caller strips
//! control characters and escape sequences before they reach a terminal.

use crate::core::notation::filetype::FileType;
use crate::core::notation::{self, Newline, Parsed, Target, TextEncoding, TextInfo, bod};
use crate::core::record::Record;
use crate::load::{display_name, load_input, pick_record, read_input, read_records};
use crate::pool;
use crate::store::{self, SaveOptions};
use std::path::{Path, PathBuf};

pub use crate::core::notation::unread::Unread;

/// An input file and the directory its output path is relative to (for `convert -r`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub path: PathBuf,
    pub base: Option<PathBuf>,
}

/// One conversion: an input and where its output goes (`None`: standard output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub input: PathBuf,
    pub output: Option<PathBuf>,
    /// The output name had to keep the input's extension to avoid a clash.
    pub renamed: bool,
}

/// What converting or checking one input produced (printed in input order).
#[derive(Clone, Debug, Default)]
pub struct JobResult {
    /// Lines for standard error (warnings and errors), unsanitized.
    pub messages: Vec<String>,
    /// Bytes for standard output (a conversion without an output file).
    pub stdout: Vec<u8>,
    /// The text `stdout` encodes, as rendered (for a terminal, which is shown text, not
    /// bytes: no decoding of what was just encoded).
    pub stdout_text: String,
    pub failed: bool,
    /// The input could not be read as a record at all (no file, no bytes, nothing a reader
    /// understood), as opposed to a record read with warnings.
    pub unreadable: bool,
}

impl JobResult {
    fn fail(mut self, message: String) -> JobResult {
        self.messages.push(message);
        self.failed = true;
        self
    }
}

/// Warnings as `FILE:LINE: message` lines, sorted by line.
pub fn warning_lines(name: &str, parsed: &Parsed) -> impl Iterator<Item = String> {
    let mut sorted = parsed.warnings.clone();
    notation::by_line(&mut sorted);
    sorted.into_iter().map(move |w| w.with_file(name))
}

/// Files to convert: the inputs, with directories walked when `recursive` (files of the
/// extensions [`FileType::in_batches`] marks, as [`load::record_files`] walks them; what it
/// leaves out is not said: [`walk_inputs`] says it).
pub fn expand_inputs(inputs: &[PathBuf], recursive: bool) -> Result<Vec<Input>, String> {
    walk_inputs(inputs, recursive).map(|w| w.0)
}

/// [`expand_inputs`], and a line `PATH: why` for each file or folder the walk left out (a
/// FIFO, a device, a dangling link, a folder that cannot be read).
pub fn walk_inputs(
    inputs: &[PathBuf],
    recursive: bool,
) -> Result<(Vec<Input>, Vec<String>), String> {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            out.push(Input {
                path: input.clone(),
                base: None,
            });
            continue;
        }
        if !recursive {
            return Err(format!(
                "{} is a directory: use -r to convert the records in it",
                input.display()
            ));
        }
        let walked = crate::load::record_files(input);
        skipped.extend(walked.skipped);
        out.extend(walked.files.into_iter().map(|f| Input {
            path: f.path,
            base: Some(input.clone()),
        }));
    }
    Ok((out, skipped))
}

/// Decides every output path: `output` for one input, else under `out_dir` with the input's
/// relative path and the extension `ext`, else standard output. Two inputs never write the
/// same file (the second keeps its old extension before the new one).
pub fn plan_outputs(
    inputs: Vec<Input>,
    output: Option<&Path>,
    out_dir: Option<&Path>,
    ext: &str,
) -> Vec<Job> {
    let mut seen = std::collections::HashSet::new();
    inputs
        .into_iter()
        .map(|Input { path: input, base }| {
            let (output, renamed) = match (output, out_dir) {
                (Some(o), _) => (Some(o.to_path_buf()), false),
                (None, Some(d)) => {
                    let rel = base
                        .as_deref()
                        .and_then(|b| input.strip_prefix(b).ok())
                        .map(Path::to_path_buf)
                        .unwrap_or_else(|| {
                            PathBuf::from(input.file_name().unwrap_or_else(|| "stdin".as_ref()))
                        });
                    let mut p = d.join(&rel);
                    p.set_extension(ext);
                    let mut renamed = false;
                    if !seen.insert(p.clone()) {
                        let mut name = rel.file_name().unwrap_or_default().to_os_string();
                        name.push(".");
                        name.push(ext);
                        p = d.join(&rel).with_file_name(name);
                        seen.insert(p.clone());
                        renamed = true;
                    }
                    (Some(p), renamed)
                }
                (None, None) => (None, false),
            };
            Job {
                input,
                output,
                renamed,
            }
        })
        .collect()
}

/// The directories a batch writes into that do not exist yet (each once, parents first).
pub fn missing_dirs(jobs: &[Job]) -> Vec<PathBuf> {
    let dirs: std::collections::BTreeSet<&Path> = jobs
        .iter()
        .filter_map(|j| j.output.as_deref()?.parent())
        .filter(|d| !d.as_os_str().is_empty())
        .collect();
    dirs.into_iter()
        .filter(|d| !d.is_dir())
        .map(Path::to_path_buf)
        .collect()
}

/// What to write.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub file_type: &'static FileType,
    pub target: Target,
    pub encoding: TextEncoding,
    /// Which record of a multi-record input (1-based); `None`: every record.
    pub record: Option<usize>,
}

impl Settings {
    /// The settings for a file type, in `encoding` (default: the type's own).
    pub fn new(
        file_type: &'static FileType,
        encoding: Option<TextEncoding>,
        csa_v3: bool,
        record: Option<usize>,
    ) -> Settings {
        let encoding = encoding.unwrap_or(file_type.encoding);
        Settings {
            file_type,
            target: file_type.target(encoding, csa_v3),
            encoding,
            record,
        }
    }
}

/// Converts one input. In a batch, files are replaced without one sync each (the caller
/// flushes the file system once at the end: [`store::flush_filesystem`]); a single output is
/// fully synced. Output files keep the input's line endings; standard output gets `\n`.
///
/// A file of several records (CSA `/`) without `--record` is converted whole: to CSA as a
/// file of as many records, to a format of one record per file as one file per record
/// (`game.kif`, `game-2.kif`, …), and to standard output in such a format not at all (the
/// count is said). Lines the reader could not read are named: the output does not hold them.
pub fn convert_one(job: &Job, s: &Settings, batch: bool) -> JobResult {
    let r = JobResult::default();
    let name = display_name(&job.input);
    let bytes = match read_input(&job.input) {
        Ok(b) => b,
        Err(e) => return r.fail(e),
    };
    let named = (job.input != Path::new("-")).then_some(job.input.as_path());
    let mut loaded = match read_records(&bytes, named) {
        Ok(l) => l,
        Err(why) => return r.fail(format!("{name}: not a record: {why}")),
    };
    if let Some(n) = s.record
        && let Err(e) = pick_record(&loaded, n, &job.input)
    {
        return r.fail(e);
    }
    let (kept, unread) = loaded.keep_unread(|i| s.record.is_none_or(|n| n == i + 1));
    let picked: Vec<&Parsed> = match s.record {
        Some(n) => match pick_record(&loaded, n, &job.input) {
            Ok(p) => vec![p],
            Err(e) => return r.fail(e),
        },
        None => loaded.records.iter().collect(),
    };
    let mut r = r;
    for p in &picked {
        r.messages.extend(warning_lines(&name, p));
    }
    for k in &kept {
        r.messages.push(format!(
            "{name}: warning: {k}: kept as remark lines (#) where they were"
        ));
    }
    // The rule `analyze --in-place` and the viewer's save follow: a file read in part is not
    // written over with what was read. Kept as remarks, the lines are written back only by a
    // format that holds every remark (KIF, KI2; CSA the lines of a CSA file).
    let holds = match s.target.format {
        notation::Format::Kif | notation::Format::Ki2 => true,
        notation::Format::Csa => loaded.format == notation::Format::Csa,
        _ => false,
    };
    // Both paths resolved only for a file that would lose lines: `canonicalize` reads every
    // component's link (20 system calls for a path 10 folders deep), per file of a batch.
    let over_itself = || {
        job.output.as_deref().is_some_and(|o| {
            std::fs::canonicalize(o).ok() == std::fs::canonicalize(&job.input).ok()
        })
    };
    let lost = unread.as_ref().or(kept.first().filter(|_| !holds));
    if let Some(u) = lost
        && over_itself()
    {
        return r.fail(format!(
            "{name}: not converted over itself: {u}, and writing it would remove them (write to another file)"
        ));
    }
    if let Some(u) = &unread {
        r.messages.push(format!(
            "{name}: warning: {u}; the output does not hold them"
        ));
    }
    let info = TextInfo {
        encoding: s.encoding,
        bom: false,
        newline: if job.output.is_some() {
            loaded.info.newline
        } else {
            Newline::Lf
        },
        lossy: false,
    };
    let outputs = match outputs(job, s, &name, &picked, &info) {
        Ok(o) => o,
        Err(e) => return r.fail(e),
    };
    if outputs.len() > 1 {
        let names: Vec<String> = outputs
            .iter()
            .filter_map(|o| Some(o.0.as_deref()?.display().to_string()))
            .collect();
        r.messages.push(format!(
            "{name}: {} records, {} holds one record per file: written as {}",
            outputs.len(),
            s.target.format.name(),
            names.join(", ")
        ));
    }
    for (out, rendered) in outputs {
        let (bytes, text, losses) = match rendered {
            Ok(x) => x,
            Err(e) => {
                return r.fail(format!(
                    "{name}: not converted: {e} (use --encoding utf-8 to keep these characters)"
                ));
            }
        };
        r.messages.extend(losses);
        if let Err(e) = write_output(job, out.as_deref(), (bytes, text), batch, &mut r) {
            return r.fail(e);
        }
    }
    r
}

/// The bytes of one output and the text they encode (or why the text could not be encoded),
/// and its loss warnings.
type Rendered = Result<(Vec<u8>, String, Vec<String>), notation::encoding::EncodeError>;

/// What `picked` (the records of one input to convert) become: one output (`None`: standard
/// output), or one per record in a format of one record per file.
fn outputs(
    job: &Job,
    s: &Settings,
    name: &str,
    picked: &[&Parsed],
    info: &TextInfo,
) -> Result<Vec<(Option<PathBuf>, Rendered)>, String> {
    let format = s.target.format;
    let losses = |n: Option<usize>, l: Vec<notation::Loss>| -> Vec<String> {
        let which = n.map_or(String::new(), |n| format!("record {n}: "));
        l.iter()
            .map(|l| {
                format!(
                    "{name}: {which}warning: {} cannot hold {l}; not written",
                    format.name()
                )
            })
            .collect()
    };
    let encoded = |w: notation::Written, n: Option<usize>| -> Rendered {
        let bytes = notation::encoding::encode(&w.text, info)?;
        Ok((bytes, w.text, losses(n, w.losses)))
    };
    if picked.len() == 1 {
        let w = notation::render(&picked[0].record, s.target, info);
        return Ok(vec![(job.output.clone(), encoded(w, None))]);
    }
    if format == notation::Format::Csa {
        let mut text = String::new();
        let mut lost = Vec::new();
        for (i, p) in picked.iter().enumerate() {
            let w = notation::render(&p.record, s.target, info);
            if i > 0 {
                text.push_str("/\n");
            }
            text.push_str(&w.text);
            if !text.ends_with('\n') {
                text.push('\n');
            }
            lost.extend(losses(Some(i + 1), w.losses));
        }
        let rendered = notation::encoding::encode(&text, info).map(|b| (b, text, lost));
        return Ok(vec![(job.output.clone(), rendered)]);
    }
    let Some(out) = &job.output else {
        return Err(format!(
            "{name}: holds {} records and {} holds one record per file: nothing written \
             (give --record N for one, or -o FILE / --out-dir DIR for one file per record)",
            picked.len(),
            format.name()
        ));
    };
    Ok(picked
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let path = if i == 0 {
                out.clone()
            } else {
                numbered(out, i + 1)
            };
            let w = notation::render(&p.record, s.target, info);
            (Some(path), encoded(w, Some(i + 1)))
        })
        .collect())
}

/// `game-2.kif` for record 2 of what goes to `game.kif`.
pub fn numbered(out: &Path, n: usize) -> PathBuf {
    let stem = out.file_stem().unwrap_or_default().to_string_lossy();
    match out.extension() {
        Some(ext) => out.with_file_name(format!("{stem}-{n}.{}", ext.to_string_lossy())),
        None => out.with_file_name(format!("{stem}-{n}")),
    }
}

/// Writes one output (standard output when `out` is `None`).
fn write_output(
    job: &Job,
    out: Option<&Path>,
    (bytes, text): (Vec<u8>, String),
    batch: bool,
    r: &mut JobResult,
) -> Result<(), String> {
    let Some(out) = out else {
        r.stdout = bytes;
        r.stdout_text = text;
        return Ok(());
    };
    if job.renamed {
        r.messages.push(format!(
            "{}: written as {} (another input has the same name)",
            display_name(&job.input),
            out.display()
        ));
    }
    let opts = SaveOptions {
        deferred_sync: batch,
        ..SaveOptions::default()
    };
    store::save(out, &bytes, opts).map(|_| ()).map_err(|e| {
        let hint = match e {
            store::SaveError::ReadOnly { .. } => " (make it writable to replace it)",
            _ => "",
        };
        format!("{e}{hint}")
    })
}

/// Converts every job on every core; `done` is called after each. Batches (more than one job)
/// are flushed to disk once at the end, under `out_dir`.
pub fn convert_all(
    jobs: &[Job],
    s: &Settings,
    out_dir: Option<&Path>,
    done: impl Fn() + Sync,
) -> Result<Vec<JobResult>, String> {
    let batch = jobs.len() > 1;
    let results = pool::map_in_order(jobs, |job| {
        let r = convert_one(job, s, batch);
        done();
        r
    });
    if batch && let Some(d) = out_dir {
        let written: Vec<PathBuf> = jobs
            .iter()
            .zip(&results)
            .filter(|(_, r)| !r.failed)
            .filter_map(|(j, _)| j.output.clone())
            .collect();
        store::flush_filesystem(d, &written)
            .map_err(|e| format!("{}: could not flush to disk: {e}", d.display()))?;
    }
    Ok(results)
}

/// Reads and replays every record of one file: its problems as `FILE:LINE: message` lines.
pub fn check_one(path: &Path) -> JobResult {
    let r = JobResult::default();
    let name = display_name(path);
    if is_csa_archive(path) {
        return check_csa_record_by_record(path, &name);
    }
    match load_input(path) {
        Err(e) => JobResult {
            unreadable: true,
            ..r.fail(e)
        },
        Ok(l) => {
            let mut r = r;
            for p in &l.records {
                r.messages.extend(warning_lines(&name, p));
                r.failed |= !p.warnings.is_empty();
            }
            let kept = moves_in_remarks(&l, 0);
            r.failed |= !kept.is_empty();
            r.messages
                .extend(kept.into_iter().map(|m| format!("{name}:{m}")));
            r
        }
    }
}

/// A regular CSA file over [`crate::load::CSA_STREAM_OVER`]: an archive of many games, checked one
/// piece at a time.
fn is_csa_archive(path: &Path) -> bool {
    path != Path::new("-")
        && notation::filetype::for_path(path).is_some_and(|t| t.format == notation::Format::Csa)
        && std::fs::metadata(path)
            .is_ok_and(|m| m.is_file() && m.len() > crate::load::CSA_STREAM_OVER)
}

/// [`check_one`] of a CSA archive, one piece between `/` lines at a time (as `kifview index`
/// reads it): memory in proportion to the largest record, not the file, and the same lines as
/// the file read whole, numbered as in the file.
fn check_csa_record_by_record(path: &Path, name: &str) -> JobResult {
    let mut r = JobResult::default();
    let mut records = 0;
    let read = crate::load::csa_pieces(
        path,
        |_| {},
        |piece, first_line, content| {
            if !content && records > 0 {
                return Ok(());
            }
            let mut l = read_records(piece, Some(path))
                .map_err(|why| format!("{name}:{first_line}: not a record: {why}"))?;
            for p in &mut l.records {
                for w in &mut p.warnings {
                    if w.line > 0 {
                        w.line += first_line - 1;
                    }
                }
                r.messages.extend(warning_lines(name, p));
                r.failed |= !p.warnings.is_empty();
                records += 1;
            }
            let kept = moves_in_remarks(&l, first_line - 1);
            r.failed |= !kept.is_empty();
            r.messages
                .extend(kept.into_iter().map(|m| format!("{name}:{m}")));
            Ok(())
        },
    );
    match read {
        Ok(()) => r,
        Err(e) => JobResult {
            unreadable: true,
            ..r.fail(e)
        },
    }
}

/// `LINE: message` for each run of remark lines of the file that hold moves (a save kept
/// lines the reader could not read as remarks: they read back cleanly, but they are not part
/// of the record).
fn moves_in_remarks(l: &notation::Loaded, lines_before: usize) -> Vec<String> {
    notation::unread::remark_runs_with_moves(&l.text)
        .into_iter()
        .map(|(a, b, moves, first)| {
            let (a, b) = (a + lines_before, b + lines_before);
            let lines = if a == b {
                "a remark line holds a move".to_string()
            } else {
                format!(
                    "remark lines {a}–{b} hold {moves} move{}",
                    if moves == 1 { "" } else { "s" }
                )
            };
            format!(
                "{a}: {lines} that {} not part of the record (from '{first}'): kept as text by a save of a file read in part; play {} again or delete the lines",
                if moves == 1 { "is" } else { "are" },
                if moves == 1 { "it" } else { "them" },
            )
        })
        .collect()
}

/// Checks every file on every core (results in input order).
pub fn check_all(files: &[PathBuf]) -> Vec<JobResult> {
    pool::map_in_order(files, |f| check_one(f))
}

/// The position after `ply` main-line moves, as a BOD diagram or an SFEN line.
pub fn position_text(r: &Record, ply: Option<u32>, sfen: bool) -> Result<String, String> {
    let node = r.node_at_ply(ply)?;
    Ok(if sfen {
        let mut s = r.position_at(node).to_sfen();
        s.push('\n');
        s
    } else {
        bod::write_bod(r, node)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(bytes: &[u8], name: &str) -> Result<notation::Loaded, String> {
        read_records(bytes, Some(Path::new(name)))
    }

    #[test]
    fn inputs_that_hold_nothing_say_why() {
        assert_eq!(why(b"", "a.kif").unwrap_err(), "the file is empty");
        let elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0";
        let e = why(elf, "a.kif").unwrap_err();
        assert!(e.contains("binary data"), "{e}");
        let e = why(b"{\"header\":", "a.jkf").unwrap_err();
        assert!(e.contains("JKF"), "{e}");
        // A real record, a bare position, a header alone: something.
        assert!(why("手合割：平手\n   1 ７六歩(77)\n".as_bytes(), "a.kif").is_ok());
        assert!(why(b"sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1\n", "a.sfen").is_ok());
        assert!(why("先手：A\n".as_bytes(), "a.kif").is_ok());
        // UTF-16 has NUL bytes and is text.
        let mut u16 = vec![0xFF, 0xFE];
        for c in "先手：A\n".encode_utf16() {
            u16.extend(c.to_le_bytes());
        }
        assert!(why(&u16, "a.kif").is_ok());
    }

    #[test]
    fn outputs_never_clash() {
        let inputs = vec![
            Input {
                path: "in/a.kif".into(),
                base: None,
            },
            Input {
                path: "other/a.kif".into(),
                base: None,
            },
            Input {
                path: "in/sub/b.kif".into(),
                base: Some("in".into()),
            },
        ];
        let jobs = plan_outputs(inputs, None, Some(Path::new("out")), "csa");
        let outs: Vec<_> = jobs.iter().map(|j| j.output.clone().unwrap()).collect();
        assert_eq!(
            outs,
            [
                PathBuf::from("out/a.csa"),
                PathBuf::from("out/a.kif.csa"),
                PathBuf::from("out/sub/b.csa")
            ]
        );
        assert_eq!(
            jobs.iter().map(|j| j.renamed).collect::<Vec<_>>(),
            [false, true, false]
        );
    }
}
