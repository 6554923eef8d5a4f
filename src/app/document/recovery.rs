//! Recovery files: the unsaved edits of a session ended by a signal (SIGTERM, SIGHUP,
//! SIGQUIT, SIGINT, a closed terminal), KIF in UTF-8 (it holds everything a record can).
//!
//! Every document with unsaved edits has one (the record shown and those left with
//! Ctrl-o/Ctrl-n): written when kifview is ended by a signal, and also while it runs, a few
//! seconds after edits (`recovery_interval`, off the key path: `Keeper`'s thread), so that
//! even `kill -9` or a crash leaves the edits; removed once the document is saved, its edits
//! are undone, it is closed or kifview quits cleanly.
//!
//! Each session writes files of its own (the session's start time, its process id and the
//! document's number in the name), so two viewers on one file never write over each other's
//! edits; every file of another session found is offered (a session's own are not: their
//! edits are in memory).
//! They go beside the record (`.NAME.kifview-recovery-TIME-PID.kifu`, with `.record-N` for
//! record N of a file of several) and, when that directory cannot be written (a read-only
//! mount, a full disk, a directory of another user), to the user's data directory
//! (`~/.local/share/kifview/recovery/NAME.HASH.kifview-recovery-TIME-PID.kifu`, HASH naming
//! the file's full path); a record with no file goes there too (`untitled-TIME-PID.kifu`).

use super::{RecordSource, file_name};
use crate::core::notation::{self, Format, Target, TextEncoding, TextInfo};
use crate::core::record::Record;
use crate::store::{self, SaveOptions};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::time::{Duration, Instant, SystemTime};

/// Where a recovery file went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub path: PathBuf,
    /// Why it is not beside the record, when it could not be written there.
    pub not_beside: Option<String>,
}

impl fmt::Display for Kept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(why) = &self.not_beside {
            write!(f, " (not beside the file: {why})")?;
        }
        Ok(())
    }
}

/// A recovery file found for the record shown, and what it holds.
#[derive(Clone, Debug)]
pub struct Recovery {
    pub path: PathBuf,
    pub kind: Kind,
    /// How long ago it was written.
    pub age: Option<Duration>,
}

/// What a recovery file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A record: its moves and comments.
    Record { moves: usize, comments: usize },
    /// Nothing that could be restored (an empty file, one that cannot be read): why.
    Unusable(String),
}

impl Recovery {
    fn of(path: PathBuf) -> Recovery {
        let age = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok());
        let kind = match read_recovery(&path) {
            Ok(r) => Kind::Record {
                moves: super::move_count(&r),
                comments: r.nodes.iter().filter(|n| !n.comment.is_empty()).count(),
            },
            Err(e) => {
                let shown = format!("{}: ", path.display());
                Kind::Unusable(e.strip_prefix(&shown).unwrap_or(&e).to_string())
            }
        };
        Recovery { path, kind, age }
    }

    /// `52 moves, 4 comments, written 3 min ago` (or why it cannot be restored).
    pub fn summary(&self) -> String {
        let when = self.age.map_or(String::new(), |e| {
            let m = e.as_secs() / 60;
            match m {
                0 => ", written less than a minute ago".to_string(),
                1..60 => format!(", written {m} min ago"),
                _ => format!(", written {} h ago", m / 60),
            }
        });
        match &self.kind {
            Kind::Record { moves, comments } => format!(
                "{moves} move{}, {comments} comment{}{when}",
                if *moves == 1 { "" } else { "s" },
                if *comments == 1 { "" } else { "s" }
            ),
            Kind::Unusable(why) => format!("no record: {why}"),
        }
    }
}

/// The start of the names of the recovery files of record `index` of `path` (`None`: a file
/// of one record).
fn prefix(path: &Path, index: Option<usize>) -> String {
    let record = index.map_or(String::new(), |i| format!("record-{}.", i + 1));
    format!("{}.{record}", file_name(path))
}

/// A name no other session gives its recovery files: when this session started and its
/// process id.
pub(super) fn session_tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| {
        let t = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        format!("{t}-{}", std::process::id())
    })
}

/// The user's directory for recovery files (`~/.local/share/kifview/recovery`).
fn data_dir() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "kifview")?;
    Some(dirs.data_local_dir().join("recovery"))
}

/// Names the file `path` in the data directory: 64-bit FNV-1a of its full path, in hex.
fn path_hash(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    // Not canonical: the file (or its directory) may be gone when the edits are kept.
    let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in full.as_os_str().as_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Which record of its file `doc` shows, for the names (`None` for a file of one).
fn index_of(doc: &RecordSource) -> Option<usize> {
    (doc.record_count > 1).then_some(doc.record_index)
}

/// Where a document's recovery file goes: its file and which record of it (a copy of the
/// little of its [`RecordSource`] the names need, for the writer's thread), and its name.
#[derive(Clone, Debug)]
pub struct Place {
    pub path: Option<PathBuf>,
    pub index: Option<usize>,
    pub name: String,
}

impl Place {
    pub fn of(doc: &RecordSource) -> Place {
        Place {
            path: doc.path.clone(),
            index: index_of(doc),
            name: doc.name.clone(),
        }
    }
}

/// The directory beside the record and the start of its recovery files' names there; the
/// same for the data directory.
fn places(path: &Path, index: Option<usize>) -> Vec<(PathBuf, String)> {
    places_named(path, index, "recovery")
}

/// [`places`] for files named `kifview-WHAT` (`recovery` for records, `book-recovery` for
/// books).
pub(super) fn places_named(
    path: &Path,
    index: Option<usize>,
    what: &str,
) -> Vec<(PathBuf, String)> {
    let beside = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let p = prefix(path, index);
    let mut out = vec![(beside, format!(".{p}kifview-{what}"))];
    if let Some(d) = data_dir() {
        out.push((d, format!("{p}{}.kifview-{what}", path_hash(path))));
    }
    out
}

/// Writes `record` to the recovery file of document number `id` of this session, at `place`,
/// and says where it went: beside the file, or in the data directory when that cannot be
/// written.
pub fn write_recovery(record: &Record, place: &Place, id: u64) -> Result<Kept, String> {
    let (bytes, _) = notation::to_bytes(
        record,
        Target::new(Format::Kif),
        &TextInfo::new(TextEncoding::Utf8),
    )
    .map_err(|e| e.to_string())?;
    let tag = format!("{}-{id}", session_tag());
    let Some(path) = &place.path else {
        let dir = data_dir().ok_or("no data directory for a recovery file")?;
        let to = dir.join(format!("untitled-{tag}.kifu"));
        return write_in(&dir, &to, &bytes, true).map(|()| Kept {
            path: to,
            not_beside: None,
        });
    };
    keep_in(places(path, place.index), &format!("-{tag}.kifu"), &bytes)
}

/// Writes `bytes` to the first of `places` (a directory and the start of the name, `tail`
/// ending it) that can be written, and says where it went.
pub(super) fn keep_in(
    places: Vec<(PathBuf, String)>,
    tail: &str,
    bytes: &[u8],
) -> Result<Kept, String> {
    let mut why_not: Option<String> = None;
    for (dir, start) in places {
        let to = dir.join(format!("{start}{tail}"));
        let beside = why_not.is_none();
        match write_in(&dir, &to, bytes, !beside) {
            Ok(()) => {
                return Ok(Kept {
                    path: to,
                    not_beside: why_not,
                });
            }
            Err(e) => match &mut why_not {
                None => why_not = Some(e),
                Some(first) => {
                    return Err(format!("{first}; nor in the data directory: {e}"));
                }
            },
        }
    }
    Err(why_not.unwrap_or_else(|| "no place for a recovery file".into()))
}

/// Writes a recovery file into `dir` (created first when `create`: the data directory; the
/// record's own directory is never made again).
fn write_in(dir: &Path, to: &Path, bytes: &[u8], create: bool) -> Result<(), String> {
    if create {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    store::save(to, bytes, SaveOptions::default())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The recovery files of record `index` of `path` in every place but `own` (this session's,
/// whose edits are in memory), newest first.
fn found(path: &Path, index: Option<usize>, own: &[PathBuf]) -> Vec<PathBuf> {
    found_in(places(path, index), ".kifu", own)
}

/// The files of `places` (a directory and the start of the names) ending in `ext`, but
/// `own`, newest first.
pub(super) fn found_in(places: Vec<(PathBuf, String)>, ext: &str, own: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<(Option<SystemTime>, PathBuf)> = Vec::new();
    for (dir, start) in places {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            let rest = name.strip_prefix(start.as_str());
            // `.kifu` (the name before sessions had one each) or `-TIME-PID[-N].kifu`.
            if rest.is_some_and(|r| r == ext || (r.starts_with('-') && r.ends_with(ext)))
                && e.file_type().is_ok_and(|t| t.is_file())
                && !own.contains(&e.path())
            {
                let when = e.metadata().and_then(|m| m.modified()).ok();
                out.push((when, e.path()));
            }
        }
    }
    out.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    out.into_iter().map(|(_, p)| p).collect()
}

/// The recovery files other sessions left for the record `doc` shows (not `own`, this
/// session's: `Keeper::own`), newest first, each with what it holds.
pub fn find_recoveries(doc: &RecordSource, own: &[PathBuf]) -> Vec<Recovery> {
    let Some(path) = doc.path.as_deref() else {
        return Vec::new();
    };
    found(path, index_of(doc), own)
        .into_iter()
        .map(Recovery::of)
        .collect()
}

/// The other records of `doc`'s file (1-based) that have a recovery file (not `own`).
pub fn other_recoveries(doc: &RecordSource, own: &[PathBuf]) -> Vec<usize> {
    let Some(path) = doc.path.as_deref() else {
        return Vec::new();
    };
    (0..doc.record_count)
        .filter(|&i| i != doc.record_index && !found(path, Some(i), own).is_empty())
        .map(|i| i + 1)
        .collect()
}

/// Reads a recovery file back; one that holds no record (empty, cut short, not a record) is
/// an error saying so.
pub fn read_recovery(path: &Path) -> Result<Record, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(format!("{}: the file is empty", path.display()));
    }
    let loaded = notation::try_load(&bytes, Some(path))
        .map_err(|e| format!("{}: not a record: {e}", path.display()))?;
    loaded
        .records
        .into_iter()
        .next()
        .map(|p| p.record)
        .ok_or_else(|| format!("{}: no record", path.display()))
}

/// Deletes a recovery file (after it was restored or the user declined it).
pub fn remove_recovery(path: &Path) -> Result<(), String> {
    std::fs::remove_file(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The recovery files of this session's documents and the thread that writes them: each
/// document with unsaved edits has one, written at most every `interval` after its edits
/// (a copy of the record goes to the thread: rendering and writing stay off the key path,
/// and the copy shares the record's nodes, `record::Nodes`, so taking it costs microseconds),
/// and removed when the document has no unsaved edits any more or is closed. A signal writes
/// every one at once ([`Keeper::keep_all`]); a clean quit removes them ([`Keeper::finish`]).
#[derive(Debug)]
pub struct Keeper {
    /// The least time between two writes; `None`: only when kifview is ended by a signal.
    interval: Option<Duration>,
    /// When the next write may be made.
    next: Instant,
    /// Each document's version (`Document::version`) last sent to the thread, by its number.
    sent: HashMap<u64, u64>,
    shared: Arc<Mutex<Files>>,
    /// The thread's queue (started with the first write).
    tx: Option<mpsc::Sender<Job>>,
}

/// What the thread and a signal share: the file of each document, by its number.
#[derive(Debug, Default)]
struct Files {
    files: HashMap<u64, PathBuf>,
    /// Ended (a signal or a clean quit): nothing more is written or removed by the thread.
    stopped: bool,
    /// A write that failed, for the status line.
    failed: Option<String>,
}

#[derive(Debug)]
enum Job {
    Write {
        id: u64,
        record: Box<Record>,
        place: Place,
    },
    Remove(u64),
}

impl Default for Keeper {
    fn default() -> Keeper {
        Keeper {
            interval: None,
            next: Instant::now(),
            sent: HashMap::new(),
            shared: Arc::default(),
            tx: None,
        }
    }
}

impl Keeper {
    /// Writes recovery files while kifview runs, at most every `interval` (`None`: only when
    /// ended by a signal).
    pub fn set_interval(&mut self, interval: Option<Duration>) {
        self.interval = interval;
    }

    /// The least time between two writes; `None`: only when ended by a signal.
    pub(crate) fn interval(&self) -> Option<Duration> {
        self.interval
    }

    /// The run loop's turn, with every open document: writes the edits of those changed
    /// since their file was written (when the time has come), removes the files of those
    /// without unsaved edits and of those closed. Says when a write failed.
    pub(crate) fn tick<'a>(
        &mut self,
        now: Instant,
        docs: impl Iterator<Item = &'a super::Document>,
    ) -> Option<String> {
        let mut live: Vec<u64> = Vec::new();
        let mut wrote = false;
        let due = self.interval.is_some() && now >= self.next;
        for d in docs {
            let id = d.id();
            live.push(id);
            if !d.is_modified() {
                if self.sent.remove(&id).is_some() {
                    self.send(Job::Remove(id));
                }
            } else if due && self.sent.get(&id) != Some(&d.version()) {
                self.sent.insert(id, d.version());
                self.send(Job::Write {
                    id,
                    record: Box::new(d.record().clone()),
                    place: Place::of(d.source()),
                });
                wrote = true;
            }
        }
        if wrote && let Some(i) = self.interval {
            self.next = now + i;
        }
        let closed: Vec<u64> = (self.sent.keys())
            .filter(|id| !live.contains(id))
            .copied()
            .collect();
        for id in closed {
            self.sent.remove(&id);
            self.send(Job::Remove(id));
        }
        lock(&self.shared).failed.take()
    }

    fn send(&mut self, job: Job) {
        if self.tx.is_none() {
            let (tx, rx) = mpsc::channel();
            let shared = Arc::clone(&self.shared);
            let started = std::thread::Builder::new()
                .name("kifview-recovery".into())
                .spawn(move || run(&rx, &shared));
            if started.is_err() {
                return;
            }
            self.tx = Some(tx);
        }
        if let Some(tx) = &self.tx {
            let _ = tx.send(job);
        }
    }

    /// The recovery files this session has written and not removed (never offered to it:
    /// their edits are in memory).
    pub fn own(&self) -> Vec<PathBuf> {
        lock(&self.shared).files.values().cloned().collect()
    }

    /// kifview is being ended by a signal: writes the edits of every document that has
    /// unsaved ones, now, and stops the thread (waiting for a write under way). Each
    /// document's name with where its edits went.
    pub(crate) fn keep_all<'a>(
        &mut self,
        docs: impl Iterator<Item = &'a super::Document>,
    ) -> Vec<(String, Result<Kept, String>)> {
        let mut files = lock(&self.shared);
        files.stopped = true;
        let mut out = Vec::new();
        for d in docs.filter(|d| d.is_modified()) {
            let place = Place::of(d.source());
            let kept = write_recovery(d.record(), &place, d.id());
            if let Ok(k) = &kept {
                files.put(d.id(), k.path.clone());
            }
            out.push((place.name, kept));
        }
        out
    }

    /// A clean quit: the session's recovery files go (the user saved or discarded the
    /// edits), and the thread stops.
    pub(crate) fn finish(&mut self) {
        let mut files = lock(&self.shared);
        files.stopped = true;
        for (_, p) in files.files.drain() {
            let _ = std::fs::remove_file(p);
        }
    }
}

impl Files {
    /// Notes `path` as document `id`'s file, removing the one it had elsewhere.
    fn put(&mut self, id: u64, path: PathBuf) {
        if let Some(old) = self.files.insert(id, path.clone())
            && old != path
        {
            let _ = std::fs::remove_file(old);
        }
    }
}

/// The shared files, also after a thread panicked holding them.
fn lock(m: &Mutex<Files>) -> std::sync::MutexGuard<'_, Files> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The keeper's thread: one job after the other, each under the lock (so that a signal's
/// writes come after any write under way and nothing is written after them).
fn run(rx: &mpsc::Receiver<Job>, shared: &Mutex<Files>) {
    for job in rx {
        let mut files = lock(shared);
        if files.stopped {
            return;
        }
        match job {
            Job::Write { id, record, place } => match write_recovery(&record, &place, id) {
                Ok(k) => files.put(id, k.path),
                Err(e) => files.failed = Some(format!("{}: {e}", place.name)),
            },
            Job::Remove(id) => {
                if let Some(p) = files.files.remove(&id) {
                    let _ = std::fs::remove_file(p);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc_for(path: &Path) -> RecordSource {
        RecordSource {
            path: Some(path.to_path_buf()),
            ..RecordSource::untitled("g.kifu")
        }
    }

    #[test]
    fn two_documents_keep_two_files_and_only_other_sessions_files_are_offered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.kifu");
        std::fs::write(&path, "").unwrap();
        let place = Place::of(&doc_for(&path));
        let r = crate::app::document::record_from(crate::core::rules::Position::startpos());
        let a = write_recovery(&r, &place, 1).unwrap();
        let b = write_recovery(&r, &place, 2).unwrap();
        assert_ne!(a.path, b.path);
        assert_eq!(a.path.parent(), Some(dir.path()), "beside the file");
        assert!(a.not_beside.is_none());
        let got = found(&path, None, &[]);
        assert!(got.contains(&a.path) && got.contains(&b.path), "{got:?}");
        // A session's own files hold edits it has in memory: not offered to it.
        assert_eq!(
            found(&path, None, std::slice::from_ref(&a.path)),
            std::slice::from_ref(&b.path)
        );
        // The name older versions wrote is found too.
        let old = dir.path().join(".g.kifu.kifview-recovery.kifu");
        std::fs::write(&old, "x").unwrap();
        assert!(found(&path, None, &[]).contains(&old));
    }

    /// The keeper copies the record on the UI thread and its thread writes the copy later:
    /// edits made in between (into nodes the copy shares with the record) must not reach
    /// the file, which holds the record as it was when the copy was taken.
    #[test]
    fn a_recovery_file_holds_the_record_as_it_was_when_copied_not_the_edits_after() {
        use crate::core::record::{Edit, NodeId};
        use crate::core::rules::Move;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.kifu");
        std::fs::write(&path, "").unwrap();
        let mut doc = super::super::Document::new(
            crate::app::document::record_from(crate::core::rules::Position::startpos()),
            doc_for(&path),
        );
        // 600 moves (a rook going back and forth): nodes in several of the chunks copies
        // share.
        let shuffle = ["2h3h", "8b7b", "3h2h", "7b8b"].map(|m| Move::from_usi(m).unwrap());
        let moves = (0..600).map(|i| shuffle[i % 4]).collect();
        let line = Edit::AddLine {
            parent: NodeId::ROOT,
            moves,
        };
        doc.apply(line, NodeId::ROOT).unwrap();
        let kif = |r: &Record| {
            let info = TextInfo::new(TextEncoding::Utf8);
            notation::to_bytes(r, Target::new(Format::Kif), &info)
                .unwrap()
                .0
        };
        let want = kif(doc.record());
        let mut keeper = Keeper::default();
        keeper.set_interval(Some(Duration::ZERO));
        // The keeper's queue, with no thread at its end yet: the copy waits in it.
        let (tx, rx) = mpsc::channel();
        keeper.tx = Some(tx);
        assert_eq!(keeper.tick(Instant::now(), std::iter::once(&doc)), None);
        for edit in [
            Edit::SetComment {
                node: NodeId(3),
                text: "written after the copy".into(),
            },
            Edit::AddMove {
                parent: NodeId(200),
                mv: Move::from_usi("1g1f").unwrap(),
            },
            Edit::CutAfter { node: NodeId(400) },
            Edit::SetBookmark {
                node: NodeId(350),
                name: Some("after".into()),
            },
        ] {
            doc.apply(edit, NodeId::ROOT).unwrap();
        }
        assert_ne!(kif(doc.record()), want);
        let shared = Arc::clone(&keeper.shared);
        drop(keeper);
        // What the keeper's thread does with its queue.
        run(&rx, &shared);
        let written = lock(&shared).files.get(&doc.id()).cloned().unwrap();
        assert_eq!(
            String::from_utf8(std::fs::read(&written).unwrap()).unwrap(),
            String::from_utf8(want).unwrap()
        );
        assert_eq!(
            super::super::move_count(&read_recovery(&written).unwrap()),
            600
        );
    }

    #[test]
    fn an_empty_recovery_file_holds_no_record() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".g.kifu.kifview-recovery-1-2.kifu");
        std::fs::write(&p, "").unwrap();
        let r = Recovery::of(p);
        assert!(matches!(r.kind, Kind::Unusable(_)), "{r:?}");
        assert!(r.summary().contains("the file is empty"), "{}", r.summary());
    }
}
