//! The document: the record with its lifecycle ([`Document`], `doc.rs`), where it came from
//! and how to write it back ([`RecordSource`]). Every file the app
//! reads or writes goes through here (opening a path, standard input or pasted text, reading
//! again, saving, and looking at the file on disk); nothing else in `app` touches the disk.
//!
//! Writing goes through `crate::store` (atomic saves, links, devices, read-only files); the
//! format, encoding and line endings of a name come from `core::notation::filetype`.

pub(crate) mod background;
pub mod checks;
pub mod clipboard;
mod doc;
pub mod job;
mod picture;
pub mod questions;
pub(crate) mod records;
pub mod save;
pub mod session;
pub mod watch;

use crate::app::LaunchOptions;
use crate::core::notation::unread::{self, Unread};
use crate::core::notation::{self, Diagnostic, Format, Parsed, Target, TextInfo, Written};
use crate::core::record::{Initial, Record};
use crate::core::rules::{HANDICAPS, Handicap, Position};
use crate::load;
use crate::store::{self, SaveError, SaveOptions};
pub use checks::one_record_why;
use checks::{DiskStamp, KeptIn, OtherRecords, SavePlan, Unencodable};
use std::path::{Path, PathBuf};

pub use doc::Document;
pub(crate) use doc::Saved;

/// Where the record came from and how to write it back (the part of the [`Document`] a save
/// thread takes a copy of).
#[derive(Clone, Debug)]
pub struct RecordSource {
    /// The file, when there is one (`None` for stdin, pasted text and new records).
    pub path: Option<PathBuf>,
    /// Name for the status line (`game.kif`, `[stdin]`, `[new]`, `[paste]`).
    pub name: String,
    /// The format read (`None` for a new record).
    pub format: Option<Format>,
    pub info: Option<TextInfo>,
    /// Problems the reader found.
    pub warnings: Vec<Diagnostic>,
    /// Which record of the file (0-based) and how many there are.
    pub record_index: usize,
    pub record_count: usize,
    /// The file as it was on disk when opened or last saved (to notice outside changes).
    pub stamp: Option<DiskStamp>,
    /// Lines of the file with bytes its encoding could not read, which were replaced by �
    /// (the reader's encoding warnings); emptied once a save wrote over them.
    pub replaced_lines: Vec<usize>,
    /// A file of several records (CSA `/`): each record's text as on disk (decoded,
    /// separators included; joined they are the whole file), so that saving the one shown
    /// writes the others back as they were and `}` / `:record N` read another. Empty for a
    /// file of one record.
    pub record_texts: Vec<String>,
    /// The file (in a file of several records, the record shown) is CSA version 3 (`V3.0`):
    /// saving it back writes V3.0 (V2.2 would cut its times to whole seconds).
    pub csa_v3: bool,
    /// A KIF file's layout (`notation::kif::KifDialect`): saving it back keeps it.
    pub kif_dialect: notation::kif::KifDialect,
    /// The lines of the file the reader could not read (a move that cannot be played and
    /// the rest of its line, lines that match nothing): the record does not hold them, so a
    /// save over the file asks first. Cleared once a save wrote over them.
    pub unread: Option<Unread>,
    /// The lines the reader could not read that the record keeps as remark lines
    /// (`core::notation::unread::keep`): the move list names them where its line stops, and the save
    /// that writes them over the file says so. Cleared once a save wrote over them.
    pub kept: Option<Unread>,
}

impl RecordSource {
    /// A document with no file behind it yet (a new record, pasted text in tests), shown as
    /// `name`.
    pub fn untitled(name: impl Into<String>) -> RecordSource {
        RecordSource {
            path: None,
            name: name.into(),
            format: None,
            info: None,
            warnings: Vec::new(),
            record_index: 0,
            record_count: 1,
            stamp: None,
            replaced_lines: Vec::new(),
            record_texts: Vec::new(),
            csa_v3: false,
            kif_dialect: notation::kif::KifDialect::default(),
            unread: None,
            kept: None,
        }
    }

    /// Record `index` (0-based) of a file read into `loaded`, with the document describing it.
    /// `path` is `None` for standard input. `None` when the file has no such record.
    pub fn from_loaded(
        loaded: notation::Loaded,
        path: Option<PathBuf>,
        index: usize,
    ) -> Option<(Record, RecordSource)> {
        let count = loaded.records.len();
        let (csa_v3, kif_dialect) = (loaded.csa_v3, loaded.kif_dialect);
        let mut parsed = loaded.records.into_iter().nth(index)?;
        // The status line and the `W` list show the heaviest problem first.
        notation::by_weight(&mut parsed.warnings);
        let name = match &path {
            None => "[stdin]".to_string(),
            Some(p) => file_name(p),
        };
        let replaced_lines = if loaded.info.lossy {
            parsed
                .warnings
                .iter()
                .filter(|w| w.kind == notation::DiagKind::Encoding && w.line > 0)
                .map(|w| w.line)
                .collect()
        } else {
            Vec::new()
        };
        Some((
            parsed.record,
            RecordSource {
                replaced_lines,
                stamp: path.as_deref().and_then(DiskStamp::of),
                path,
                name,
                format: Some(loaded.format),
                info: Some(loaded.info),
                warnings: parsed.warnings,
                record_index: index,
                record_count: count,
                record_texts: Vec::new(),
                csa_v3,
                kif_dialect,
                unread: None,
                kept: None,
            },
        ))
    }

    /// Record `index` (0-based) of a file of several, read from its text as it is on disk
    /// (the record shown was saved or its edits discarded first), with its warnings' lines
    /// counted from the start of the file.
    pub fn record_at(&self, index: usize) -> Result<(Record, RecordSource), String> {
        let text = self.record_texts.get(index).ok_or_else(|| {
            format!(
                "there is no record {} (the file holds {})",
                index + 1,
                self.record_count
            )
        })?;
        let first_line: usize = self.record_texts[..index]
            .iter()
            .map(|t| notation::csa::line_breaks(t))
            .sum();
        let parsed = notation::csa::read(text).swap_remove(0);
        // What the decoding said (line 0) holds for every record.
        let mut warnings: Vec<Diagnostic> = self
            .warnings
            .iter()
            .filter(|w| w.line == 0 && w.kind == notation::DiagKind::Encoding)
            .cloned()
            .collect();
        warnings.extend(parsed.warnings.into_iter().map(|mut w| {
            if w.line > 0 {
                w.line += first_line;
            }
            w
        }));
        notation::by_weight(&mut warnings);
        let mut doc = RecordSource {
            warnings,
            record_index: index,
            csa_v3: notation::csa::declares_v3(text),
            unread: None,
            ..self.clone()
        };
        let mut record = parsed.record;
        doc.keep_unread(&mut record, &self.record_texts.concat(), Format::Csa);
        Ok((record, doc))
    }

    /// A save wrote the record shown over `s.path`, which is the session's file now: it
    /// holds no unreadable bytes nor unread lines any more, and (unless it is a file of
    /// several records written whole) this record only.
    fn wrote_over(&mut self, s: Saved<'_>) {
        self.replaced_lines.clear();
        self.unread = None;
        self.kept = None;
        self.stamp = Some(s.stamp);
        self.path = Some(s.path.to_path_buf());
        self.name = file_name(s.path);
        self.format = Some(s.format);
        self.info = Some(s.info);
        if let Some(texts) = s.texts {
            // A file of several records: each one's text is now what was written.
            self.record_texts = texts;
        } else {
            self.record_count = 1;
            self.record_index = 0;
            self.record_texts.clear();
        }
    }

    /// The writer settings that write the record back as its file was written: its format,
    /// and for CSA its version (`None` for a new record).
    pub fn own_target(&self) -> Option<Target> {
        self.format.map(|format| Target {
            csa_v3: self.csa_v3,
            kif_dialect: self.kif_dialect,
            ..Target::new(format)
        })
    }

    /// Does this document show one record of a CSA file of several (whose texts are kept)?
    fn holds_several_csa_records(&self) -> bool {
        self.format == Some(Format::Csa) && self.record_count > 1
    }

    /// Keeps what of the file (its `text`, as the reader decoded it) the reader could not read
    /// in `record`, as remark lines where it was (`core::notation::unread::keep`), with a
    /// warning that says so; what cannot be kept is noted as [`RecordSource::unread`].
    fn note_unread(&mut self, record: &mut Record, text: &str) {
        if let (Some(format), true) = (self.format, unread::loses_any(&self.warnings)) {
            self.keep_unread(record, text, format);
        }
    }

    /// [`RecordSource::note_unread`] for the decoded `text` of the file.
    fn keep_unread(&mut self, record: &mut Record, text: &str, format: Format) {
        let kept = unread::keep(text, format, &self.warnings, record);
        if let Some(k) = &kept.kept {
            // Said with the warnings that lost the text (their count stays what the file has).
            for w in self.warnings.iter_mut() {
                let in_kept = k.spans.iter().any(|&(a, b)| (a..=b).contains(&w.line));
                if in_kept && unread::loses_text(w.kind) {
                    w.message.push_str(
                        " (kept as # remark lines after the last move read, written back on save)",
                    );
                }
            }
        }
        self.unread = kept.left;
        self.kept = kept.kept;
    }

    /// The lines not read (kept as remarks or not) from the one a warning names: `(first,
    /// last)`, 1-based.
    pub fn unread_span(&self, line: usize) -> Option<(usize, usize)> {
        let left = self.unread.iter().flat_map(|u| u.spans.iter());
        let kept = self.kept.iter().flat_map(|k| k.spans.iter());
        kept.chain(left)
            .find(|&&(a, b)| (a..=b).contains(&line))
            .copied()
    }

    /// Keeps each record's text when `text` (a whole CSA file, decoded) holds several.
    fn keep_record_texts(&mut self, text: &str) {
        if !self.holds_several_csa_records() {
            return;
        }
        let (records, ends) = notation::csa::read_with_ends(text);
        if records.len() != self.record_count {
            return;
        }
        let mut start = 0;
        self.record_texts = ends
            .iter()
            .map(|&end| {
                let piece = text[start..end].to_string();
                start = end;
                piece
            })
            .collect();
        // Each record of the file has its own version line.
        self.csa_v3 = self
            .record_texts
            .get(self.record_index)
            .is_some_and(|t| notation::csa::declares_v3(t));
    }

    /// Each record's text as a file of several records is written with `record` (the one
    /// shown) in its place (`notation::csa::splice`), and what rendering `record` said.
    /// `None` unless the file holds several records and `target` is CSA.
    fn splice(
        &self,
        record: &Record,
        target: Target,
        info: &TextInfo,
    ) -> Option<(Vec<String>, Written)> {
        if self.record_texts.len() < 2 || target.format != Format::Csa {
            return None;
        }
        let file = notation::csa::Records {
            texts: &self.record_texts,
            index: self.record_index,
            info: self.info,
        };
        Some(notation::csa::splice(file, record, target, info))
    }

    /// Is a save of the record shown in `format` a save of the whole file: a file of one
    /// record, or CSA with the text of each of its records kept?
    pub fn written_whole_as(&self, format: Format) -> bool {
        self.record_count < 2 || (format == Format::Csa && self.record_texts.len() >= 2)
    }

    /// What writing the record shown in `format` leaves out of a file of several records:
    /// the others, unless it is written whole ([`RecordSource::written_whole_as`]).
    /// `file_keeps_them`: the save leaves the session's file as it is (a copy, `:saveas`).
    pub fn other_records_loss(
        &self,
        format: Format,
        file_keeps_them: bool,
    ) -> Option<OtherRecords> {
        if self.written_whole_as(format) {
            return None;
        }
        Some(OtherRecords {
            others: self.record_count - 1,
            name: self.name.clone(),
            format,
            shown: self.record_index + 1,
            kept: match (&self.path, file_keeps_them) {
                (Some(_), true) => KeptIn::File,
                (Some(_), false) => KeptIn::Lost,
                (None, _) => KeptIn::NoFile,
            },
        })
    }
}

/// The followed file.
#[derive(Clone, Debug)]
pub struct Watch {
    pub path: PathBuf,
    /// Size and time of the version shown.
    pub stamp: Option<DiskStamp>,
    /// A version not shown yet because it read worse, and how many ticks it has been so.
    pub pending: Option<(DiskStamp, u32)>,
}

/// Formats whose text names the position after its moves (`position startpos moves …`):
/// opened (from a file or pasted) at the last move, not at the start.
pub fn opens_at_end(format: Format) -> bool {
    matches!(format, Format::Usi | Format::Sfen)
}

/// Moves (not endings) in the record.
pub fn move_count(r: &Record) -> usize {
    r.nodes.iter().filter(|n| n.move_data().is_some()).count()
}

/// The last part of `p`, for the status line.
pub fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}

/// A new record: 平手, or the handicap `--handicap` names.
fn new_record(handicap: Option<&str>) -> anyhow::Result<Record> {
    let position = match handicap {
        None => Position::startpos(),
        Some(name) => Handicap::by_name(name)
            .ok_or_else(|| {
                let names: Vec<&str> = HANDICAPS.iter().map(|h| h.name).collect();
                anyhow::anyhow!(
                    "unknown handicap `{name}` (expected one of: {})",
                    names.join(" ")
                )
            })?
            .position(),
    };
    Ok(record_from(position))
}

/// A new record without moves starting from `position`, with the 手合割 it matches (in the
/// header too).
pub fn record_from(position: Position) -> Record {
    let handicap = Handicap::matching(&position);
    let mut record = Record::new(Initial { position, handicap });
    if let Some(h) = handicap {
        record.header.set("手合割", h.name);
    }
    record
}

/// Opens what the command line asked for: a file, standard input (`-`), or a new record (no
/// file, or a file that does not exist yet in an existing directory: it is created on save).
pub fn open(opts: &LaunchOptions) -> anyhow::Result<(Record, RecordSource)> {
    let Some(path) = &opts.file else {
        return Ok((
            new_record(opts.handicap.as_deref())?,
            RecordSource::untitled("[new]"),
        ));
    };
    let stdin = path.as_os_str() == "-";
    let missing = !stdin
        && !path.exists()
        && path
            .parent()
            .is_none_or(|d| d.as_os_str().is_empty() || d.is_dir());
    if missing {
        let doc = RecordSource {
            path: Some(path.clone()),
            ..RecordSource::untitled(format!("{} [new]", file_name(path)))
        };
        return Ok((new_record(opts.handicap.as_deref())?, doc));
    }
    let bytes = load::read_input(path).map_err(|e| anyhow::anyhow!(e))?;
    let shown = load::display_name(path);
    let mut loaded = load_checked(&bytes, (!stdin).then_some(path.as_path()), &shown)
        .map_err(|e| anyhow::anyhow!(e))?;
    let text = std::mem::take(&mut loaded.text);
    let index = load::record_index(&shown, opts.record, loaded.records.len())
        .map_err(|e| anyhow::anyhow!(e))?;
    let (record, mut doc) =
        RecordSource::from_loaded(loaded, (!stdin).then(|| path.clone()), index)
            .ok_or_else(|| anyhow::anyhow!("{}: no record", path.display()))?;
    doc.keep_record_texts(&text);
    let mut record = record;
    doc.note_unread(&mut record, &text);
    Ok((record, doc))
}

/// Reads `bytes` into records, refusing what holds none (binary data, text no reader
/// understood: `notation::try_load`); an empty file is an empty record with a warning that
/// says so.
fn load_checked(
    bytes: &[u8],
    path: Option<&Path>,
    shown: &str,
) -> Result<notation::Loaded, String> {
    let mut loaded =
        notation::try_load(bytes, path).map_err(|e| format!("{shown}: not a record: {e}"))?;
    if load::is_empty(bytes) {
        for r in &mut loaded.records {
            r.warnings.insert(
                0,
                Diagnostic::new(
                    0,
                    notation::DiagKind::UnknownLine,
                    "the file is empty: a new 平手 record",
                ),
            );
        }
    }
    Ok(loaded)
}

/// Reads record `index` (0-based; the last one when the file has fewer) of the file at
/// `path` (`:e`, and reloading a followed file).
pub fn read(path: &Path, index: usize) -> Result<(Record, RecordSource), String> {
    // As every reader of a record file that is written back: a regular file only, opened
    // without waiting (a FIFO would block the keys until a writer came), within the limit.
    let bytes = crate::load::read_regular(path).map_err(|e| format!("cannot open {e}"))?;
    let mut loaded = load_checked(&bytes, Some(path), &path.display().to_string())?;
    let text = std::mem::take(&mut loaded.text);
    let index = index.min(loaded.records.len().saturating_sub(1));
    let (record, mut doc) = RecordSource::from_loaded(loaded, Some(path.to_path_buf()), index)
        .ok_or_else(|| format!("{}: no record", path.display()))?;
    doc.keep_record_texts(&text);
    let mut record = record;
    doc.note_unread(&mut record, &text);
    Ok((record, doc))
}

/// Reads pasted text: the first record, the document describing it, and how many records the
/// text holds.
pub fn from_text(text: &str) -> (Parsed, RecordSource) {
    let format = Format::detect(text);
    let mut records = notation::read_text(text, format);
    let count = records.len();
    let parsed = records.swap_remove(0);
    let mut doc = RecordSource {
        format: Some(format),
        info: Some(TextInfo::new(notation::TextEncoding::Utf8)),
        warnings: Vec::new(),
        record_count: count,
        ..RecordSource::untitled("[paste]")
    };
    doc.keep_record_texts(text);
    (parsed, doc)
}

/// Do two paths name the same file (once both exist, by their canonical form)?
pub fn same_path(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Is there anything at `path` (a file, a folder, a link, even a dangling one)?
pub fn path_exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// `~/x.kif` expanded with `$HOME`.
pub fn expand_path(s: &str) -> PathBuf {
    if let Some(rest) = s.strip_prefix("~/")
        && let Some(home) = std::env::var_os("HOME")
    {
        return PathBuf::from(home).join(rest);
    }
    PathBuf::from(s)
}

/// [`checks::plan`] for the record shown of `doc`: in a CSA file of several records the others are
/// written back as they were, around this one (to the file itself or to a copy), and the
/// text of each record as written comes back with the plan.
pub fn plan_in_file(
    record: &Record,
    doc: Option<&RecordSource>,
    path: &Path,
    target: Target,
    info: TextInfo,
) -> Result<(SavePlan, Option<Vec<String>>), Unencodable> {
    let Some((pieces, w)) = doc.and_then(|d| d.splice(record, target, &info)) else {
        return Ok((checks::plan(record, path, target, info)?, None));
    };
    let text = pieces.concat();
    let bytes = match notation::encoding::encode(&text, &info) {
        Ok(b) => b,
        Err(error) => return Err(Unencodable { error, text }),
    };
    let plan = SavePlan {
        path: path.to_path_buf(),
        target,
        info,
        bytes,
        losses: w.losses,
    };
    Ok((plan, Some(pieces)))
}

/// Writes a planned save safely (`store::save`: atomic, through links, devices in place,
/// read-only files only when `replace_read_only`), adding the bytes written to `written` as
/// they go; returns the written file's new stamp.
pub fn write(
    plan: &SavePlan,
    replace_read_only: bool,
    written: &std::sync::atomic::AtomicU64,
) -> Result<DiskStamp, SaveError> {
    let saved = store::save_counted(
        &plan.path,
        &plan.bytes,
        SaveOptions {
            replace_read_only,
            ..SaveOptions::default()
        },
        written,
    )?;
    // The stamp of the file written (a link's target), so a later save notices outside changes.
    DiskStamp::of(&saved.path).ok_or_else(|| SaveError::Io {
        path: saved.path.clone(),
        op: "read back what was saved",
        source: std::io::Error::other("the saved file cannot be read"),
        existed: false,
    })
}

/// Names of the entries of the directory part of `partial` that start with its file part,
/// as `partial` completed (directories end in `/`). For Tab on the `:` line.
pub fn complete_path(partial: &str) -> Vec<String> {
    let (dir, stem) = match partial.rfind('/') {
        Some(i) => (&partial[..=i], &partial[i + 1..]),
        None => ("", partial),
    };
    let read_from = if dir.is_empty() {
        PathBuf::from(".")
    } else {
        expand_path(dir)
    };
    let Ok(rd) = std::fs::read_dir(&read_from) else {
        return Vec::new();
    };
    let mut out: Vec<String> = rd
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            if !name.starts_with(stem) || (name.starts_with('.') && !stem.starts_with('.')) {
                return None;
            }
            let slash = if e.path().is_dir() { "/" } else { "" };
            Some(format!("{dir}{name}{slash}"))
        })
        .take(1000)
        .collect();
    out.sort();
    out
}

// ----- recovery files (kifview ended by a signal with unsaved edits): `recovery.rs` -----

mod book_recovery;
mod recovery;
mod recovery_question;
pub use book_recovery::{
    find_book_recoveries, read_book_recovery, remove_book_recovery, write_book_recovery,
};
pub use recovery::{
    Keeper, Kept, Kind as RecoveryKind, Place, Recovery, find_recoveries, other_recoveries,
    read_recovery, remove_recovery, write_recovery,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::record_index;

    #[test]
    fn record_numbers_are_one_based_and_checked() {
        assert_eq!(record_index("f", 0, 3), Ok(0));
        assert_eq!(record_index("f", 1, 3), Ok(0));
        assert_eq!(record_index("f", 3, 3), Ok(2));
        let e = record_index("f.csa", 4, 3).unwrap_err();
        assert_eq!(e, "f.csa: --record 4: the file holds 3 records");
        assert!(record_index("f", 2, 1).unwrap_err().ends_with("1 record"));
    }

    #[test]
    fn completes_file_names_in_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("game1.kif"), "").unwrap();
        std::fs::write(dir.path().join("game2.csa"), "").unwrap();
        std::fs::create_dir(dir.path().join("games")).unwrap();
        let base = format!("{}/", dir.path().display());
        let got = complete_path(&format!("{base}game"));
        assert_eq!(
            got,
            [
                format!("{base}game1.kif"),
                format!("{base}game2.csa"),
                format!("{base}games/")
            ]
        );
        assert!(complete_path(&format!("{base}x")).is_empty());
    }
}
