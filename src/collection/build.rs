//! `kifview index`: builds or updates an index from folders of records.
//!
//! Incremental: a file whose size and modification time are unchanged is not read; a changed
//! one is read and hashed, and re-indexed only when its bytes changed; files gone from a folder
//! given are forgotten. An index that cannot be trusted (damaged, of another version, indexed
//! with another `--variations`) is rebuilt from the folders it held and the ones given.

use super::catalog::{CATALOG, Catalog, KnownFile};
use super::games_bin;
use super::hooks::pause_in_step;
pub use super::hooks::{AfterStep, Hook, set_hook};
use super::scan::{self, FileRead};
use super::segment::{Segment, SegmentWriter, segment_files};
use super::walk::{Found, key_path, path_key, walk};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Clone, Copy, Debug, Default)]
pub struct UpdateOptions {
    /// Index the positions of variations too.
    pub variations: bool,
}

/// What an update did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub files_read: usize,
    pub files_unchanged: usize,
    pub files_removed: usize,
    pub games_added: usize,
    pub games_removed: usize,
    pub pairs_added: u64,
    /// `FILE: why` for each file skipped.
    pub failures: Vec<String>,
    /// `FILE:LINE: message` reader warnings of the files read.
    pub warnings: Vec<String>,
    /// Why the index was rebuilt from scratch, when it was.
    pub rebuilt: Option<String>,
    /// What was repaired (a damaged segment dropped, its files read again), a line each.
    pub repaired: Vec<String>,
    /// Games in the index afterwards.
    pub games: u64,
    /// The segments merged into one after this update, when they were.
    pub compacted: Option<super::compact::Compacted>,
    /// The update was told to stop (`stop` of [`update_with`]) before it read every file: the
    /// steps committed stay, the files of the others are read by the next update.
    pub stopped: bool,
}

/// The file that says a folder is a kifview index: written first into the empty folder an
/// index is made in. kifview writes an index into no other folder (a non-empty folder without
/// it is refused, unless it holds a catalog of kifview's: an index made before the marker).
pub const MARKER: &str = "kifview-index";
const MARKER_TEXT: &str = "This folder is a kifview collection index (`kifview index`).\n\
kifview removes only the files its catalog names here; other files are left alone.\n";
/// A rebuild's catalog, renamed to [`CATALOG`] when whole: readers keep the old index until then.
pub const NEW_CATALOG: &str = "catalog.sqlite.new";
const BATCH_BYTES: i64 = 16 << 20;

/// `todo` cut into batches of at most `files` files and about [`BATCH_BYTES`] bytes.
fn batches(todo: &[Found], files: usize) -> Vec<&[Found]> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, f) in todo.iter().enumerate() {
        bytes += f.size.max(0);
        if i + 1 - start >= files || bytes >= BATCH_BYTES {
            out.push(&todo[start..=i]);
            (start, bytes) = (i + 1, 0);
        }
    }
    if start < todo.len() {
        out.push(&todo[start..]);
    }
    out
}

/// Builds or updates the index in `dir` from `roots` (folders or files). `progress(done, total)`
/// is called from the workers as files are read.
pub fn update(
    dir: &Path,
    roots: &[PathBuf],
    opts: UpdateOptions,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Report, String> {
    update_with(dir, roots, opts, progress, &|| {}, &AtomicBool::new(false))
}

/// [`update`], calling `committed()` after each transaction it commits (readers of the
/// catalog see the games stored so far: the library's list grows as the indexing goes), and
/// stopping soon after `stop` is set (the viewer quits while it indexes a folder).
///
/// Committed in steps, each complete: a step's segment files (positions, moves) are written
/// and synced before the catalog transaction that adds its files, games and segment commits;
/// a kill at any moment leaves a catalog that names only games whose segment is on disk (a
/// segment file no catalog row names is removed by the next update, and a new segment's
/// files are created empty, never appended to), and the next update reads only the files not
/// committed yet. Steps hold 1, 2, 4, … batches, so a fresh index of up to 255 batches (10^6
/// files) has at most 8 segments and is not compacted; compaction runs once, at the end, and
/// `games.bin` is written once, last ([`games_bin`]: removed before the first commit, so
/// that none is ever behind the catalog).
///
/// `stop` is looked at between files and between batches: the step under way is rolled back
/// (its segment files removed, the report as before it) and the update returns at once with
/// [`Report::stopped`], without compacting or writing `games.bin` (queries build its table
/// from the catalog until the next update). A stop costs at most the file each core is
/// reading and a rollback; the work lost is the step under way, at most half of what was read.
pub fn update_with(
    dir: &Path,
    roots: &[PathBuf],
    opts: UpdateOptions,
    progress: &(dyn Fn(u64, u64) + Sync),
    committed: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<Report, String> {
    update_forgetting(dir, roots, &[], opts, progress, committed, stop)
}

/// [`update_with`], first dropping the folders (or files) `forget` from the index: their
/// files are forgotten and they are no folders of the index any more (a rebuild does not read
/// them again). They need not exist (`kifview index --forget A` after `mv A B`). A folder of
/// the index that no longer exists is dropped the same way by every update, named in
/// [`Report::warnings`].
pub fn update_forgetting(
    dir: &Path,
    roots: &[PathBuf],
    forget: &[PathBuf],
    opts: UpdateOptions,
    progress: &(dyn Fn(u64, u64) + Sync),
    committed: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<Report, String> {
    let mut roots_abs = Vec::new();
    for r in roots {
        let abs = std::fs::canonicalize(r).map_err(|e| {
            format!(
                "{}: cannot index: {e} (kifview index --forget {} drops a folder from the index)",
                r.display(),
                r.display()
            )
        })?;
        roots_abs.push(abs);
    }
    let forget: Vec<String> = forget
        .iter()
        .map(|f| {
            let abs = std::fs::canonicalize(f).or_else(|_| std::path::absolute(f));
            path_key(&abs.unwrap_or_else(|_| f.clone()))
        })
        .collect();
    claim(dir)?;
    // A folder where the index keeps a file of its own can never be written or removed:
    // moved aside (never removed: kifview did not make it), and said.
    let mut aside = Vec::new();
    for name in [
        "lock",
        CATALOG,
        NEW_CATALOG,
        games_bin::GAMES,
        "games.bin.tmp",
    ] {
        aside.extend(move_dir_aside(dir, name)?);
    }
    // One update at a time: a second would write the same segment's files.
    let _lock = Lock::take(dir)?;
    let hook = Hook::of(dir);
    let mut report = Report::default();
    let Opened {
        cat,
        rebuild,
        roots: mut all_roots,
        damaged,
    } = open_or_rebuild(dir, opts)?;
    report.rebuilt = rebuild.as_ref().map(|r| r.why.clone());
    report.repaired = aside;
    if !damaged.is_empty() {
        games_bin::remove(dir)?;
        report.repaired.extend(repair(dir, &cat, &damaged)?);
    }
    let mut cat = cat;
    let given: Vec<String> = roots_abs.iter().map(|r| path_key(r)).collect();
    let mut known: HashMap<String, KnownFile> = HashMap::new();
    // Folders dropped: asked to, or gone (renamed, deleted). Their files are known and never
    // seen, so the first step forgets them.
    for f in &forget {
        let files = cat.files_under(f)?;
        let held = all_roots.iter().any(|r| within(r, f));
        if files.is_empty() && !held {
            report.warnings.push(format!(
                "{}: not in the index: nothing to forget",
                key_path(f).display()
            ));
        }
        known.extend(files);
    }
    all_roots.retain(|r| !forget.iter().any(|f| within(r, f)));
    let mut kept = Vec::new();
    for r in std::mem::take(&mut all_roots) {
        if given.contains(&r) || key_path(&r).exists() {
            kept.push(r);
            continue;
        }
        let files = cat.files_under(&r)?;
        report.warnings.push(format!(
            "{}: no longer there: its {} file(s) forgotten",
            key_path(&r).display(),
            files.len()
        ));
        known.extend(files);
    }
    all_roots = kept;
    for s in given {
        if !all_roots.contains(&s) {
            all_roots.push(s);
        }
    }
    // After a rebuild or a repair every folder the index held is read again; otherwise the
    // ones given.
    let walk_roots: Vec<PathBuf> = if report.rebuilt.is_some() || !damaged.is_empty() {
        all_roots.iter().map(|r| key_path(r)).collect()
    } else {
        roots_abs.clone()
    };
    let walked = walk(&walk_roots, &all_roots);
    report.failures.extend(walked.skipped);
    let found = walked.found;
    for root in &walk_roots {
        known.extend(cat.files_under(&path_key(root))?);
    }
    let mut todo = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for f in found {
        let key = f.key.clone();
        match known.get(&f.key) {
            Some(k) if k.size == f.size && k.mtime_ns == f.mtime => report.files_unchanged += 1,
            _ => match counted_elsewhere(&cat, &f, &known)? {
                Some(other) => {
                    report.warnings.push(format!(
                        "{}: the same file as {} (a hard link): counted once, there",
                        f.path.display(),
                        key_path(&other).display()
                    ));
                    continue;
                }
                None => todo.push(f),
            },
        }
        seen.insert(key);
    }
    if stop.load(Ordering::Relaxed) && rebuild.is_none() {
        report.stopped = true;
        report.games = cat.counts()?.0;
        return Ok(report);
    }
    if rebuild.is_none() {
        games_bin::remove(dir)?;
    }
    let first = begin(&cat).and_then(|()| {
        forget_gone(&cat, &known, &seen, &mut report)?;
        own_next_segment(&cat)?;
        pause_in_step(&cat, 0);
        cat.set_meta(
            "roots",
            &serde_json::to_string(&all_roots).expect("strings"),
        )?;
        cat.set_meta("variations", if opts.variations { "1" } else { "0" })?;
        commit(&cat)?;
        if let Err(e) = write_roots(dir, &all_roots) {
            report.warnings.push(e);
        }
        (hook.after_step)(0, stop);
        committed();
        Ok(())
    });
    let result = first.and_then(|()| {
        let steps = Steps {
            dir,
            cat: &cat,
            known: &known,
            hook: &hook,
            committed,
            stop,
        };
        steps.run(&todo, opts, progress, &mut report)
    });
    let whole = match result {
        Ok(whole) => whole,
        Err(e) => {
            // Harmless when no transaction is open (the error only says so).
            let _ = cat.db.execute_batch("ROLLBACK");
            if rebuild.is_some() {
                drop(cat);
                drop_new_catalog(dir);
            }
            return Err(e);
        }
    };
    if whole && let Some(why) = super::compact::needed(&cat)? {
        // The update is committed: a compaction that fails leaves the index as it was.
        let (id, _) = next_segment(&cat)?;
        match super::compact::run(dir, &cat, id, why) {
            Ok(c) => report.compacted = Some(c),
            Err(e) => report
                .warnings
                .push(format!("{}: not compacted: {e}", dir.display())),
        }
        remove_owned(dir, &cat)?;
    }
    // A rebuild (whole, or stopped with its steps committed) replaces the old index now.
    if let Some(r) = rebuild {
        cat = finish_rebuild(dir, cat, &r.old_files)?;
    }
    if !whole {
        report.stopped = true;
        report.games = cat.counts()?.0;
        return Ok(report);
    }
    games_bin::write(dir, &cat)?;
    report.games = cat.counts()?.0;
    Ok(report)
}

/// The other name (key) under which the catalog counts the file `f`, when it does: a file
/// stored with `f`'s identity (device, inode) outside this update's walk (not in `known`),
/// whose name still names that file. Identities are checked against the file system, so a
/// stale one (a file replaced since it was read) never hides a file.
fn counted_elsewhere(
    cat: &Catalog,
    f: &Found,
    known: &HashMap<String, KnownFile>,
) -> Result<Option<String>, String> {
    use std::os::unix::fs::MetadataExt;
    for other in cat.paths_of_file(f.identity, &f.key)? {
        if known.contains_key(&other) {
            continue;
        }
        if std::fs::metadata(key_path(&other)).is_ok_and(|m| (m.dev(), m.ino()) == f.identity) {
            return Ok(Some(other));
        }
    }
    Ok(None)
}

/// Is the key `path` the key `folder` or under it?
fn within(path: &str, folder: &str) -> bool {
    path.strip_prefix(folder.trim_end_matches('/'))
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn begin(cat: &Catalog) -> Result<(), String> {
    cat.db.execute_batch("BEGIN").map_err(|e| e.to_string())
}

/// Ends the caller's transaction: the copies of a game marked ([`super::duplicates::mark`]),
/// a new generation.
fn commit(cat: &Catalog) -> Result<(), String> {
    super::duplicates::mark(cat)?;
    cat.bump_generation()?;
    cat.commit()
}

/// The index's lock (`lock` in its folder), held while an update runs: a second
/// `kifview index` or a second viewer indexing into the same folder is refused at once, with
/// a message that says why, instead of writing the same segment files; it is released when
/// the update ends, or when its process dies.
///
/// A POSIX record lock (`fcntl`), which belongs to the process: a child forked while an update
/// runs (another thread spawning a program) does not inherit it. (An `flock` belonged to the
/// open file, which the child's copy of the descriptor kept locked until its exec: an update
/// right after was refused, as `collection_stop::an_update_stopped_midway…` once was under
/// load.) Within the process, where record locks do not exclude, the folders locked are kept
/// in [`HELD`].
struct Lock {
    _file: std::fs::File,
    key: PathBuf,
}

/// What the error of an update refused because another runs says (the library waits for
/// that one instead of giving up).
pub const BUSY: &str = "another kifview is updating this index";

/// The index folders this process updates.
static HELD: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

impl Lock {
    fn take(dir: &Path) -> Result<Lock, String> {
        let busy = || format!("{}: {BUSY}; try again when it has finished", dir.display());
        let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let path = dir.join("lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut held = HELD.lock().unwrap_or_else(|p| p.into_inner());
        if held.contains(&key) {
            return Err(busy());
        }
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: a zeroed flock is a valid value; fcntl on a descriptor this owns.
            let mut l: libc::flock = unsafe { std::mem::zeroed() };
            l.l_type = libc::F_WRLCK as _;
            l.l_whence = libc::SEEK_SET as _;
            if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLK, &l) } != 0 {
                return Err(busy());
            }
        }
        held.push(key.clone());
        Ok(Lock { _file: file, key })
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let mut held = HELD.lock().unwrap_or_else(|p| p.into_inner());
        held.retain(|k| k != &self.key);
    }
}

/// Forgets the files gone from the folders walked (inside the caller's transaction).
fn forget_gone(
    cat: &Catalog,
    known: &HashMap<String, KnownFile>,
    seen: &std::collections::HashSet<String>,
    report: &mut Report,
) -> Result<(), String> {
    for (path, k) in known {
        if !seen.contains(path) {
            report.games_removed += games_of(cat, k.id)?;
            cat.forget_file(k.id)?;
            report.files_removed += 1;
        }
    }
    Ok(())
}

/// What storing the files read needs: the index, what it knew, and who hears of commits.
struct Steps<'a> {
    dir: &'a Path,
    cat: &'a Catalog,
    known: &'a HashMap<String, KnownFile>,
    hook: &'a Hook,
    committed: &'a (dyn Fn() + Sync),
    stop: &'a AtomicBool,
}

/// The step being stored: its segment (made at its first game), where its ids start, and the
/// report as it was before it (what a step rolled back leaves).
struct Step {
    writer: Option<SegmentWriter>,
    seg_id: i64,
    first_game: u32,
    before: Report,
}

impl Steps<'_> {
    /// Reads the files of `todo` and stores what changed, a step (1, 2, 4, … batches) per
    /// transaction (see [`update_with`]). On an error the caller rolls back the open step;
    /// told to stop, it rolls the open step back itself and returns `false`.
    fn run(
        &self,
        todo: &[Found],
        opts: UpdateOptions,
        progress: &(dyn Fn(u64, u64) + Sync),
        report: &mut Report,
    ) -> Result<bool, String> {
        let done = std::sync::atomic::AtomicU64::new(0);
        let total = todo.len() as u64;
        // A file not read (`None`) once the update is told to stop.
        let stop = self.stop;
        let read = |batch: &[Found]| {
            crate::pool::map_in_order(batch, |f| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let r = scan::read_file(&f.path, f.size, f.mtime, opts.variations);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                progress(n, total);
                Some(r)
            })
        };
        // The next batch is read while this one is stored: storing (SQLite, the segment) is
        // one thread's work, reading is every core's.
        let batches = batches(todo, self.hook.batch);
        let (mut step, mut in_step, mut step_len, mut steps) = (None, 0, 1, 0);
        std::thread::scope(|s| -> Result<bool, String> {
            let mut next = batches.first().map(|b| s.spawn(|| read(b)));
            for (i, batch) in batches.iter().enumerate() {
                let reads = next
                    .take()
                    .expect("spawned")
                    .join()
                    .expect("reader panicked");
                if self.stopping() {
                    return self.roll_back(step.take(), report);
                }
                next = batches.get(i + 1).map(|b| s.spawn(|| read(b)));
                let open = match step.as_mut() {
                    Some(open) => open,
                    None => step.insert(self.begin_step(report)?),
                };
                if !self.store_batch(batch, reads, open, report)? {
                    return self.roll_back(step.take(), report);
                }
                in_step += 1;
                if in_step == step_len || i + 1 == batches.len() {
                    if self.stopping() {
                        return self.roll_back(step.take(), report);
                    }
                    steps += 1;
                    self.end_step(step.take().expect("open"), steps, report)?;
                    (self.hook.after_step)(steps, self.stop);
                    (self.committed)();
                    (in_step, step_len) = (0, step_len * 2);
                }
            }
            Ok(true)
        })
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn begin_step(&self, report: &Report) -> Result<Step, String> {
        begin(self.cat)?;
        let (seg_id, first_game) = next_segment(self.cat)?;
        Ok(Step {
            writer: None,
            seg_id,
            first_game,
            before: report.clone(),
        })
    }

    /// Stores the files of a batch; `false` when told to stop before the last was stored.
    fn store_batch(
        &self,
        batch: &[Found],
        reads: Vec<Option<FileRead>>,
        step: &mut Step,
        report: &mut Report,
    ) -> Result<bool, String> {
        let cat = self.cat;
        for (f, r) in batch.iter().zip(reads) {
            let Some(r) = r.filter(|_| !self.stopping()) else {
                return Ok(false);
            };
            report.files_read += 1;
            if let Some(k) = self.known.get(&f.key) {
                if k.hash == r.hash && r.games.is_ok() {
                    cat.touch_file(k.id, r.size, r.mtime_ns)?;
                    continue;
                }
                report.games_removed += games_of(cat, k.id)?;
                cat.forget_file(k.id)?;
            }
            store_file(self.dir, cat, f, r, step, report)?;
        }
        Ok(true)
    }

    /// Syncs the step's segment, then commits the transaction that names it.
    fn end_step(&self, step: Step, number: u64, report: &mut Report) -> Result<(), String> {
        if let Some(w) = step.writer {
            let (games, pairs) = w.finish()?;
            self.cat
                .add_segment(step.seg_id, step.first_game, games, pairs)?;
            report.pairs_added += pairs;
            self.cat
                .set_meta("next_segment", &(step.seg_id + 1).to_string())?;
            own_next_segment(self.cat)?;
        }
        pause_in_step(self.cat, number);
        commit(self.cat)
    }

    /// Told to stop: the step under way (if one is) is rolled back, its segment's files
    /// removed and the report put back as it was before it. Returns `false` (stopped).
    fn roll_back(&self, step: Option<Step>, report: &mut Report) -> Result<bool, String> {
        if let Some(step) = step {
            drop(step.writer);
            self.cat
                .db
                .execute_batch("ROLLBACK")
                .map_err(|e| e.to_string())?;
            *report = step.before;
            for name in segment_files(step.seg_id) {
                remove_named(self.dir, &name);
            }
        }
        Ok(false)
    }
}

fn store_file(
    dir: &Path,
    cat: &Catalog,
    f: &Found,
    r: FileRead,
    step: &mut Step,
    report: &mut Report,
) -> Result<(), String> {
    report.warnings.extend(r.warnings.iter().cloned());
    let (games, error) = match r.games {
        Ok(g) => (g, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    if let Some(e) = &error {
        report.failures.push(e.clone());
    }
    let file_id = cat.add_file(
        &f.key,
        r.size,
        r.mtime_ns,
        &r.hash,
        r.format,
        games.len(),
        r.warnings.len(),
        error.as_deref(),
        f.identity,
    )?;
    for g in games {
        let w = match step.writer.as_mut() {
            Some(w) => w,
            None => step
                .writer
                .insert(SegmentWriter::create(dir, step.seg_id, step.first_game)?),
        };
        let id = w.add(&g.stored, &g.keys)?;
        cat.add_game(id, file_id, &g.info)?;
        report.games_added += 1;
    }
    Ok(())
}

fn games_of(cat: &Catalog, file_id: i64) -> Result<usize, String> {
    cat.db
        .query_row(
            "SELECT count(*) FROM games WHERE file_id = ?1",
            [file_id],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n as usize)
        .map_err(|e| e.to_string())
}

/// The id of the next segment and of its first game (ids are never reused: the catalog keeps
/// the next segment's id in `meta`, past a segment repaired away).
fn next_segment(cat: &Catalog) -> Result<(i64, u32), String> {
    let (seg, game): (i64, u32) = cat
        .db
        .query_row(
            "SELECT coalesce(max(id), 0) + 1, coalesce(max(first_game + games), 1) FROM segments",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .map_err(|e| e.to_string())?;
    let meta = |k: &str| -> Result<i64, String> {
        Ok(cat.meta(k)?.and_then(|v| v.parse().ok()).unwrap_or(0))
    };
    let game = game.max(u32::try_from(meta("next_game")?).unwrap_or(0));
    Ok((seg.max(meta("next_segment")?), game))
}

/// Names the next segment's files in the catalog (inside the caller's transaction, committed
/// before they are written): an update killed while writing them leaves files the next one
/// knows as its own.
fn own_next_segment(cat: &Catalog) -> Result<(), String> {
    let (id, _) = next_segment(cat)?;
    cat.own(&segment_files(id))
}

/// When `name` in `dir` is a folder (where the index keeps a file): renames it to
/// `NAME.moved-aside[-N]` and says so.
fn move_dir_aside(dir: &Path, name: &str) -> Result<Option<String>, String> {
    let path = dir.join(name);
    if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
        return Ok(None);
    }
    let to = (0..)
        .map(|n| match n {
            0 => format!("{name}.moved-aside"),
            n => format!("{name}.moved-aside-{n}"),
        })
        .find(|n| !dir.join(n).exists())
        .expect("a free name");
    std::fs::rename(&path, dir.join(&to)).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(format!(
        "{}: a folder where the index keeps a file: moved aside to {to} (nothing in it removed)",
        path.display()
    )))
}

/// Is `name` one of the names an index gives its files (segments, their runs)? Only such
/// names are removed, whatever a damaged catalog says.
fn is_index_name(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let seg = |p: &str| {
        name.strip_prefix(p)
            .and_then(|n| n.strip_suffix(".bin"))
            .is_some_and(digits)
    };
    seg("pos-") || seg("moves-") || name.strip_prefix("tmp-").is_some_and(digits)
}

/// Removes the index's file (or runs folder) `name` in `dir` if it is there. A runs folder
/// loses only its `N.bin` runs, then goes if empty.
fn remove_named(dir: &Path, name: &str) {
    if !is_index_name(name) {
        return;
    }
    let path = dir.join(name);
    match std::fs::symlink_metadata(&path) {
        Ok(m) if m.is_dir() && name.starts_with("tmp-") => {
            for e in std::fs::read_dir(&path).into_iter().flatten().flatten() {
                let n = e.file_name().to_string_lossy().into_owned();
                if n.strip_suffix(".bin")
                    .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                {
                    let _ = std::fs::remove_file(e.path());
                }
            }
            let _ = std::fs::remove_dir(&path);
        }
        Ok(m) if !m.is_dir() => {
            let _ = std::fs::remove_file(&path);
        }
        _ => {}
    }
}

/// Removes the files the catalog owns that no segment names (a killed step's, a compaction's
/// old segments, an old index's after a rebuild) and forgets them, then names the next
/// segment's again, in one transaction of its own (no new generation: no game changes).
fn remove_owned(dir: &Path, cat: &Catalog) -> Result<(), String> {
    let live: Vec<String> = cat
        .segments()?
        .into_iter()
        .flat_map(segment_files)
        .collect();
    for name in cat.owned()? {
        if !live.contains(&name) {
            remove_named(dir, &name);
        }
    }
    begin(cat)?;
    let done = cat.disown_all().and_then(|()| own_next_segment(cat));
    if done.is_err() {
        let _ = cat.db.execute_batch("ROLLBACK");
    }
    done?;
    cat.commit()
}

/// Makes `dir` an index folder, or makes sure it is one: a folder that does not exist is made
/// and an empty one taken, each with [`MARKER`] written first; a folder with the marker, or
/// with a catalog of kifview's (an index made before the marker), is an index; any other
/// folder is refused, and nothing in it is touched.
fn claim(dir: &Path) -> Result<(), String> {
    let marker = dir.join(MARKER);
    let write_marker =
        || std::fs::write(&marker, MARKER_TEXT).map_err(|e| format!("{}: {e}", marker.display()));
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
            return write_marker();
        }
        Err(e) => return Err(format!("{}: {e}", dir.display())),
        Ok(m) if !m.is_dir() => {
            return Err(format!(
                "{}: not a folder (an index is a folder)",
                dir.display()
            ));
        }
        Ok(_) => {}
    }
    match std::fs::symlink_metadata(&marker) {
        Ok(m) if m.is_file() => return Ok(()),
        Ok(_) => {
            return Err(format!(
                "{}: not a file, so this folder does not say it is a kifview index; \
                 give --index a new folder",
                marker.display()
            ));
        }
        Err(_) => {}
    }
    let entries: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if entries.is_empty() || made_before_the_marker(dir) {
        return write_marker();
    }
    Err(format!(
        "{}: not a kifview index and not an empty folder ({} entries, such as {:?}): kifview \
         makes an index only in a new or empty folder (where it writes {MARKER} first), so that \
         it never removes a file it did not write; give --index a new folder",
        dir.display(),
        entries.len(),
        entries[0]
    ))
}

/// Does `dir` hold a catalog of kifview's (any version)?
fn made_before_the_marker(dir: &Path) -> bool {
    let path = dir.join(CATALOG);
    if !path.is_file() {
        return false;
    }
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    rusqlite::Connection::open_with_flags(&path, flags)
        .and_then(|db| {
            db.query_row("SELECT value FROM meta WHERE key = 'format'", [], |r| {
                r.get::<_, String>(0)
            })
        })
        .is_ok_and(|f| f.starts_with(super::catalog::FORMAT_PREFIX))
}

/// The catalog an update writes.
struct Opened {
    cat: Catalog,
    /// A rebuild: the catalog is [`NEW_CATALOG`], renamed into place when whole.
    rebuild: Option<Rebuild>,
    /// The folders the index held.
    roots: Vec<String>,
    /// Segments found damaged (id, why): repaired by the update.
    damaged: Vec<(i64, String)>,
}

struct Rebuild {
    why: String,
    /// The files of the index replaced (its segments, the files it owned), removed after.
    old_files: Vec<String>,
}

/// Opens the catalog in `dir`, or makes a new one: in place when there is none; beside it
/// ([`NEW_CATALOG`]) when the one there cannot be trusted (then with the reason, and the
/// folders it held when they can be read).
fn open_or_rebuild(dir: &Path, opts: UpdateOptions) -> Result<Opened, String> {
    drop_new_catalog(dir);
    let path = dir.join(CATALOG);
    if !path.exists() {
        // Made beside and renamed into place whole: a first build killed while the catalog is
        // made leaves no catalog ("no index there"; the next update drops the new one), never
        // one without its format, which every reader refused as "not a kifview index".
        let new = dir.join(NEW_CATALOG);
        drop(Catalog::create(&new)?);
        std::fs::rename(&new, &path).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(Opened {
            cat: Catalog::open(&path, false, false)?,
            rebuild: None,
            roots: Vec::new(),
            damaged: Vec::new(),
        });
    }
    let why = match Catalog::open(&path, false, true) {
        Ok(cat) => match check(&cat, opts) {
            Ok(roots) => {
                remove_owned(dir, &cat)?;
                let damaged = damaged_segments(dir, &cat)?;
                return Ok(Opened {
                    cat,
                    rebuild: None,
                    roots,
                    damaged,
                });
            }
            Err(why) => why,
        },
        Err(why) => why,
    };
    let (old_files, roots) = what_a_catalog_names(&path);
    // The new segments take ids no file of the old index has: its readers keep mapping them.
    let mut base = old_files
        .iter()
        .filter_map(|n| {
            n.strip_prefix("pos-")?
                .strip_suffix(".bin")?
                .parse::<i64>()
                .ok()
        })
        .max()
        .unwrap_or(0)
        + 1;
    while segment_files(base).iter().any(|n| dir.join(n).exists()) {
        base += 1;
    }
    let new = dir.join(NEW_CATALOG);
    let cat = Catalog::create(&new)?;
    cat.set_meta("next_segment", &base.to_string())?;
    cat.seal()?;
    Ok(Opened {
        cat,
        rebuild: Some(Rebuild { why, old_files }),
        roots,
        damaged: Vec::new(),
    })
}

/// The files a catalog names (its segments' and those it owns) and the folders it held, read
/// as far as it can be (a catalog of any version, or damaged: what cannot be read is left).
fn what_a_catalog_names(path: &Path) -> (Vec<String>, Vec<String>) {
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let Ok(db) = rusqlite::Connection::open_with_flags(path, flags) else {
        return (Vec::new(), Vec::new());
    };
    let column = |q: &str| -> Vec<rusqlite::types::Value> {
        let Ok(mut st) = db.prepare(q) else {
            return Vec::new();
        };
        st.query_map([], |r| r.get(0))
            .map(|rows| rows.flatten().collect())
            .unwrap_or_default()
    };
    let mut files = Vec::new();
    for v in column("SELECT id FROM segments") {
        if let rusqlite::types::Value::Integer(id) = v {
            files.extend(segment_files(id));
        }
    }
    for v in column("SELECT name FROM owned") {
        if let rusqlite::types::Value::Text(n) = v {
            files.push(n);
        }
    }
    let roots = column("SELECT value FROM meta WHERE key = 'roots'")
        .into_iter()
        .find_map(|v| match v {
            rusqlite::types::Value::Text(t) => serde_json::from_str(&t).ok(),
            _ => None,
        })
        .unwrap_or_default();
    (files, roots)
}

/// Removes what a rebuild that did not finish left (its catalog and the files it names).
fn drop_new_catalog(dir: &Path) {
    let new = dir.join(NEW_CATALOG);
    if !new.is_file() {
        return;
    }
    let (files, _) = what_a_catalog_names(&new);
    for f in files {
        remove_named(dir, &f);
    }
    let _ = std::fs::remove_file(&new);
    let _ = std::fs::remove_file(dir.join(format!("{NEW_CATALOG}-journal")));
}

/// Puts a rebuild's catalog in place of the old one (a rename: a reader opens one or the
/// other, whole), then removes the old index's files, which the new catalog owns first (a kill
/// on the way leaves them to the next update). Returns the catalog opened at its place.
fn finish_rebuild(dir: &Path, cat: Catalog, old_files: &[String]) -> Result<Catalog, String> {
    begin(&cat)?;
    let owned = cat.own(old_files);
    if owned.is_err() {
        let _ = cat.db.execute_batch("ROLLBACK");
    }
    owned?;
    cat.commit()?;
    drop(cat);
    // The old catalog's journal, if an update of it was killed: it belongs to that file, and
    // SQLite would play it into the new one.
    let journal = dir.join(format!("{CATALOG}-journal"));
    if journal.is_file() {
        let _ = std::fs::remove_file(&journal);
    }
    // The old index's games.bin is not the new catalog's.
    games_bin::remove(dir)?;
    let path = dir.join(CATALOG);
    std::fs::rename(dir.join(NEW_CATALOG), &path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let cat = Catalog::open(&path, false, false)?;
    remove_owned(dir, &cat)?;
    Ok(cat)
}

fn roots_of(cat: &Catalog) -> Vec<String> {
    cat.meta("roots")
        .ok()
        .flatten()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default()
}

/// Can the index be updated in place: its text UTF-8, the same `--variations`? (A damaged
/// segment is repaired, not a reason to rebuild: [`damaged_segments`].)
fn check(cat: &Catalog, opts: UpdateOptions) -> Result<Vec<String>, String> {
    cat.text_is_utf8()?;
    if let Some(why) = cat.damaged_rows()? {
        return Err(format!("damaged ({why})"));
    }
    let want = if opts.variations { "1" } else { "0" };
    if let Some(v) = cat.meta("variations")?
        && v != want
    {
        return Err(format!(
            "it was built {} --variations",
            if v == "1" { "with" } else { "without" }
        ));
    }
    Ok(roots_of(cat))
}

/// The folders the index in `dir` holds (`kifview index --repair` without folders reads them
/// again), as far as its catalog can be read.
pub fn roots(dir: &Path) -> Vec<PathBuf> {
    let mut roots = what_a_catalog_names(&dir.join(CATALOG)).1;
    if roots.is_empty() {
        // A catalog cut short, or a folder in its place: the copy beside it.
        roots = crate::load::read_text_limited(&dir.join(ROOTS), 16 << 20)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
    }
    roots.iter().map(|r| key_path(r)).collect()
}

/// The folders the index holds, beside the catalog's `meta.roots`: what `kifview index
/// --repair` rebuilds a catalog from when the catalog itself cannot be read.
pub const ROOTS: &str = "roots.json";

/// Writes [`ROOTS`] (a new file renamed over the old one: whole or not at all).
fn write_roots(dir: &Path, roots: &[String]) -> Result<(), String> {
    let path = dir.join(ROOTS);
    let tmp = dir.join(format!("{ROOTS}.tmp"));
    let text = serde_json::to_string(roots).expect("strings");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// What `kifview index --check` finds wrong with the index in `dir`, a line each (nothing:
/// sound), without changing anything: the marker, the catalog (SQLite's integrity check, its
/// version, text that is not UTF-8), every block of every segment, and `games.bin`.
pub fn check_index(dir: &Path) -> Result<Vec<String>, String> {
    let path = dir.join(CATALOG);
    if !path.is_file() {
        return Err(format!(
            "{}: no index there{}",
            dir.display(),
            if path.exists() {
                " (catalog.sqlite is not a file)"
            } else {
                ""
            }
        ));
    }
    let mut out = Vec::new();
    if !dir.join(MARKER).is_file() {
        out.push(format!(
            "{}: no {MARKER} (an index made before it; the next update writes it)",
            dir.display()
        ));
    }
    let cat = match Catalog::open(&path, true, true) {
        Ok(c) => c,
        Err(e) => {
            out.push(format!("{}: {e}", path.display()));
            return Ok(out);
        }
    };
    if let Err(e) = cat.text_is_utf8() {
        out.push(format!("{}: {e}", path.display()));
    }
    if let Some(why) = cat.damaged_rows()? {
        out.push(format!(
            "{}: damaged ({why}); `kifview index --repair` rebuilds it",
            path.display()
        ));
    }
    for (_, why) in damaged_segments(dir, &cat)? {
        out.push(why);
    }
    let mut segs = Vec::new();
    for id in cat.segments()? {
        if let Ok(s) = Segment::open(dir, id) {
            segs.push(s);
        }
    }
    if let Err(why) = games_bin::check(dir, &cat, &segs) {
        out.push(format!(
            "{why} (queries build its table from the catalog meanwhile)"
        ));
    }
    Ok(out)
}

/// The catalog's segments that cannot be read whole (every block checked): (id, why).
pub fn damaged_segments(dir: &Path, cat: &Catalog) -> Result<Vec<(i64, String)>, String> {
    let mut out = Vec::new();
    for s in cat.segments()? {
        if let Err(why) = Segment::open(dir, s).and_then(|seg| seg.verify()) {
            out.push((s, why));
        }
    }
    Ok(out)
}

/// Repairs the damaged segments `damaged` (id, why): each is dropped from the catalog with the
/// files whose games it held (so the update reads them again), in one transaction, then its
/// files are removed. Returns what was done, a line per segment.
fn repair(dir: &Path, cat: &Catalog, damaged: &[(i64, String)]) -> Result<Vec<String>, String> {
    let mut said = Vec::new();
    begin(cat)?;
    let done = (|| -> Result<(), String> {
        for (id, why) in damaged {
            let (first, games): (i64, i64) = cat
                .db
                .query_row(
                    "SELECT first_game, games FROM segments WHERE id = ?1",
                    [id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .map_err(|e| e.to_string())?;
            let files: Vec<i64> = {
                let mut st = cat
                    .db
                    .prepare("SELECT DISTINCT file_id FROM games WHERE id >= ?1 AND id < ?1 + ?2")
                    .map_err(|e| e.to_string())?;
                let rows = st
                    .query_map([first, games], |r| r.get(0))
                    .map_err(|e| e.to_string())?;
                rows.collect::<Result<_, _>>().map_err(|e| e.to_string())?
            };
            for &f in &files {
                cat.forget_file(f)?;
            }
            cat.db
                .execute("DELETE FROM segments WHERE id = ?1", [id])
                .map_err(|e| e.to_string())?;
            cat.own(&segment_files(*id))?;
            let next: i64 = cat
                .meta("next_game")?
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            cat.set_meta("next_game", &next.max(first + games).to_string())?;
            let next: i64 = cat
                .meta("next_segment")?
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            cat.set_meta("next_segment", &next.max(id + 1).to_string())?;
            said.push(format!(
                "{why}: repaired: segment {id} dropped, its {} files read again",
                files.len()
            ));
            for n in &segment_files(*id)[..2] {
                said.extend(move_dir_aside(dir, n)?);
            }
        }
        Ok(())
    })();
    if let Err(e) = done {
        let _ = cat.db.execute_batch("ROLLBACK");
        return Err(e);
    }
    commit(cat)?;
    remove_owned(dir, cat)?;
    Ok(said)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::hooks::BATCH;

    fn found(size: i64) -> Found {
        Found {
            path: PathBuf::new(),
            key: String::new(),
            size,
            mtime: 0,
            identity: (0, 0),
        }
    }

    #[test]
    fn batches_hold_a_bounded_number_of_files_and_bytes() {
        let big: Vec<Found> = (0..5).map(|_| found(BATCH_BYTES / 2)).collect();
        let b = batches(&big, BATCH);
        assert_eq!(b.iter().map(|b| b.len()).collect::<Vec<_>>(), [2, 2, 1]);
        let small: Vec<Found> = (0..BATCH + 3).map(|_| found(10)).collect();
        let b = batches(&small, BATCH);
        assert_eq!(b.iter().map(|b| b.len()).collect::<Vec<_>>(), [BATCH, 3]);
        assert!(batches(&[], BATCH).is_empty());
    }
}
