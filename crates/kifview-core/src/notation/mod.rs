//! Notation readers and writers, and the one entry point that turns file bytes into records.

pub mod bod;
mod builder;
pub mod csa;
mod diag;
pub mod encoding;
pub mod filetype;
pub mod input;
pub mod japanese;
pub mod jkf;
mod json;
pub mod ki2;
pub mod kif;
pub mod loss;
mod source;
pub mod unread;
pub mod usi;

pub use diag::{DiagKind, Diagnostic, by_line, by_weight};
pub use encoding::{Newline, TextEncoding, TextInfo};
pub use loss::{Loss, Lost};

use crate::record::Record;
use std::path::Path;

/// A record read from text, with every problem found on the way.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub record: Record,
    pub warnings: Vec<Diagnostic>,
}

/// Text produced by a writer, and what the format could not hold.
#[derive(Clone, Debug, Default)]
pub struct Written {
    pub text: String,
    /// What the format could not hold, one entry per kind, with exact counts.
    pub losses: Vec<Loss>,
}

/// The record formats kifview knows.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Format {
    /// KIF / KIFU (Kakinoki), the same grammar in either encoding.
    Kif,
    /// KI2 / KI2U: moves without source squares.
    Ki2,
    /// CSA V2.2 / V3.0.
    Csa,
    /// USI: `position … moves …` of the main line (reads any SFEN/USI form).
    Usi,
    /// SFEN of one position (written: the end of the main line; read like `Usi`).
    Sfen,
    /// A BOD board diagram of one position (written: the end of the main line).
    Bod,
    /// JSON Kifu Format.
    Jkf,
}

impl Format {
    /// Every format, in the order menus and benchmarks list them.
    pub const ALL: [Format; 7] = [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Jkf,
        Format::Usi,
        Format::Sfen,
        Format::Bod,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Kif => "KIF",
            Format::Ki2 => "KI2",
            Format::Csa => "CSA",
            Format::Usi => "USI",
            Format::Sfen => "SFEN",
            Format::Bod => "BOD",
            Format::Jkf => "JKF",
        }
    }
    /// The format a file name's extension says, if any.
    pub fn from_path(path: &Path) -> Option<Format> {
        const EXTENSIONS: [(&str, Format); 10] = [
            ("kif", Format::Kif),
            ("kifu", Format::Kif),
            ("csa", Format::Csa),
            ("ki2", Format::Ki2),
            ("ki2u", Format::Ki2),
            ("usi", Format::Usi),
            ("sfen", Format::Sfen),
            ("bod", Format::Bod),
            ("jkf", Format::Jkf),
            ("json", Format::Jkf),
        ];
        let ext = path.extension()?.to_str()?;
        EXTENSIONS
            .iter()
            .find(|(e, _)| e.eq_ignore_ascii_case(ext))
            .map(|&(_, f)| f)
    }
    /// Can this format hold a whole game (as opposed to one position)?
    pub fn holds_moves(self) -> bool {
        !matches!(self, Format::Sfen | Format::Bod)
    }
    /// [`Format::detect`], or `None` when nothing in `text` looks like a record of any
    /// format (no line of KIF or CSA, no KI2 move, no board, no JKF or USI): the paste
    /// prompt says so instead of naming the format it would fall back to.
    pub fn detect_record(text: &str) -> Option<Format> {
        let format = Self::detect(text);
        let (csa, kif) = Self::kif_and_csa_lines(text.trim_start_matches('\u{feff}'));
        (format != Format::Kif || csa + kif > 0).then_some(format)
    }
    /// Guesses the format of text with no (or an unknown) extension: pasted text, stdin.
    pub fn detect(text: &str) -> Format {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if jkf::looks_like(t) {
            return Format::Jkf;
        }
        if usi::looks_like(t) {
            return Format::Usi;
        }
        let is_bod_row = |l: &str| {
            l.starts_with('|')
                && l.trim_end()
                    .ends_with(|c: char| "一二三四五六七八九".contains(c))
        };
        let has_board = lines(t).filter(|l| is_bod_row(l)).count() >= 9;
        let has_kif_moves = lines(t).any(|l| {
            let l = l.trim_start();
            l.starts_with(|c: char| c.is_ascii_digit()) && !l.starts_with("手数")
        });
        if ki2::looks_like(t) && !has_kif_moves {
            return Format::Ki2;
        }
        let fmt = Self::detect_kif_or_csa(t);
        if fmt == Format::Kif && has_board && !has_kif_moves && !t.contains("手数----") {
            return Format::Bod;
        }
        fmt
    }
    fn detect_kif_or_csa(text: &str) -> Format {
        let (csa, kif) = Self::kif_and_csa_lines(text);
        if csa > kif { Format::Csa } else { Format::Kif }
    }
    /// Lines among the first 200 that look like CSA, and like KIF.
    fn kif_and_csa_lines(text: &str) -> (usize, usize) {
        let mut csa = 0;
        let mut kif = 0;
        for line in lines(text).take(200) {
            let l = line.trim_start_matches('\u{feff}').trim_end();
            if l.is_empty() {
                continue;
            }
            let b = l.as_bytes();
            if l.starts_with("V2")
                || l.starts_with("V3")
                || l.starts_with("PI")
                || l.starts_with("N+")
                || l.starts_with("N-")
                || l.starts_with('$')
                || l.starts_with("'")
                || l.starts_with('%')
                || (b.len() >= 2 && b[0] == b'P' && (b'1'..=b'9').contains(&b[1]))
                || ((b[0] == b'+' || b[0] == b'-')
                    && b.len() >= 7
                    && b[1..5].iter().all(u8::is_ascii_digit))
            {
                csa += 1;
            } else if l.contains('：')
                || l.starts_with('*')
                || l.starts_with("手数")
                || l.trim_start().starts_with(|c: char| c.is_ascii_digit())
            {
                kif += 1;
            }
        }
        (csa, kif)
    }
}

/// The encoding a file of this name is expected to use when its bytes do not say
/// (`.kif`/`.ki2` Shift_JIS, everything else UTF-8).
pub fn default_encoding_for(path: Option<&Path>) -> TextEncoding {
    let ext = path.and_then(|p| p.extension()).and_then(|e| e.to_str());
    if ext.is_some_and(|e| e.eq_ignore_ascii_case("kif") || e.eq_ignore_ascii_case("ki2")) {
        TextEncoding::ShiftJis
    } else {
        TextEncoding::Utf8
    }
}

/// A file read into records.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub format: Format,
    pub info: TextInfo,
    /// One per record in the file (CSA files may hold several, separated by `/`). Never empty.
    pub records: Vec<Parsed>,
    /// A CSA file of version 3 (`V3.0`): written back the same way ([`Loaded::own_target`]).
    pub csa_v3: bool,
    /// A KIF file's layout (read with the records: [`kif::read_with_dialect`]): written back
    /// the same way.
    pub kif_dialect: kif::KifDialect,
    /// The file's text as the readers read it (decoded once, here): what keeps the lines they
    /// could not read ([`Loaded::keep_unread`]) and the texts of a file of several records
    /// takes it from here instead of decoding the bytes again.
    pub text: String,
}

impl Loaded {
    /// The writer settings that write the file back as it was written (its format, and for
    /// CSA its version).
    pub fn own_target(&self) -> Target {
        Target {
            csa_v3: self.csa_v3,
            kif_dialect: self.kif_dialect,
            ..Target::new(self.format)
        }
    }

    /// Keeps the lines of the file that its records (those `picked`, by index) could not
    /// read, in them as remark lines ([`unread::keep`]): what was kept, and the first part
    /// that could not be.
    pub fn keep_unread(
        &mut self,
        picked: impl Fn(usize) -> bool,
    ) -> (Vec<unread::Unread>, Option<unread::Unread>) {
        let (mut kept, mut left) = (Vec::new(), None);
        for (i, p) in self.records.iter_mut().enumerate() {
            if picked(i) && unread::loses_any(&p.warnings) {
                let k = unread::keep(&self.text, self.format, &p.warnings, &mut p.record);
                kept.extend(k.kept);
                left = left.or(k.left);
            }
        }
        (kept, left)
    }
}

/// Reads text in `format` into records (never empty).
pub fn read_text(text: &str, format: Format) -> Vec<Parsed> {
    let mut v = match format {
        Format::Kif => vec![kif::read(text)],
        Format::Ki2 => vec![ki2::read(text)],
        Format::Csa => csa::read(text),
        Format::Jkf => vec![jkf::read(text)],
        Format::Usi | Format::Sfen => vec![usi::read(text).unwrap_or_else(|d| Parsed {
            record: Record::default(),
            warnings: vec![d],
        })],
        Format::Bod => vec![bod::read(text)],
    };
    if v.is_empty() {
        v.push(Parsed {
            record: Record::default(),
            warnings: vec![Diagnostic::new(0, DiagKind::UnknownLine, "no record found")],
        });
    }
    v
}

/// Reads a file's bytes: detects the encoding, then the format (extension first, then content).
pub fn load(bytes: &[u8], path: Option<&Path>) -> Loaded {
    let decoded = encoding::decode(bytes, default_encoding_for(path));
    let format = path
        .and_then(Format::from_path)
        .unwrap_or_else(|| Format::detect(&decoded.text));
    let (mut records, kif_dialect) = if format == Format::Kif {
        let (parsed, dialect) = kif::read_with_dialect(&decoded.text);
        (vec![parsed], dialect)
    } else {
        (read_text(&decoded.text, format), kif::KifDialect::default())
    };
    let csa_v3 = format == Format::Csa && csa::declares_v3(&decoded.text);
    if let [one] = records.as_mut_slice()
        && one.warnings.is_empty()
        && decoded.warnings.is_empty()
    {
        source::keep(
            &mut one.record,
            &decoded.text,
            format,
            &decoded.info,
            csa_v3,
        );
    }
    if !decoded.warnings.is_empty() {
        for r in &mut records {
            let w = decoded
                .warnings
                .iter()
                .map(|(line, w)| Diagnostic::new(*line, DiagKind::Encoding, w.clone()));
            r.warnings.splice(0..0, w);
            by_line(&mut r.warnings);
        }
    }
    Loaded {
        csa_v3,
        kif_dialect,
        format,
        info: decoded.info,
        records,
        text: decoded.text,
    }
}

/// Bytes that hold nothing a record could hold (a truncated JKF file, a binary file named
/// `.kif`): the format they were read as and why nothing came of them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no {} record found: {reason}", format.name())]
pub struct NotARecord {
    pub format: Format,
    /// The first problem met (with its line when it has one), e.g.
    /// `1: not JKF: EOF while parsing a value at line 1 column 11`.
    pub reason: String,
}

impl Loaded {
    /// `Some` when nothing a record could hold came of the bytes: every record empty and
    /// something unreadable on the way ([`try_load`] also lets blank input through).
    fn not_a_record(&self) -> Option<NotARecord> {
        if self.records.iter().any(|p| p.record.holds_anything()) {
            return None;
        }
        let first = self.records.iter().flat_map(|p| &p.warnings).next()?;
        Some(NotARecord {
            format: self.format,
            reason: first.to_string(),
        })
    }
}

/// [`load`], refusing bytes that hold nothing a record could hold ([`Loaded::not_a_record`]):
/// what the CLI's `convert` and `check` and the viewer's open use to say "this is not a record"
/// instead of showing an empty 平手 record.
/// Blank input (nothing but white space) is an empty record. Bytes with a NUL are binary data,
/// which no record format holds.
pub fn try_load(bytes: &[u8], path: Option<&Path>) -> Result<Loaded, NotARecord> {
    let format = || path.and_then(Format::from_path).unwrap_or(Format::Kif);
    // UTF-16 text (with its byte-order mark) is full of NUL bytes and is still text.
    let utf16 = bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
    if let Some(at) = memchr::memchr(0, &bytes[..bytes.len().min(1 << 16)]).filter(|_| !utf16) {
        return Err(NotARecord {
            format: format(),
            reason: format!("binary data (a NUL byte at byte {at}), not text"),
        });
    }
    let loaded = load(bytes, path);
    if bytes
        .strip_prefix(b"\xef\xbb\xbf")
        .unwrap_or(bytes)
        .iter()
        .all(u8::is_ascii_whitespace)
    {
        return Ok(loaded);
    }
    match loaded.not_a_record() {
        Some(e) => Err(e),
        None => Ok(loaded),
    }
}

/// What to write: the format and its options.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Target {
    pub format: Format,
    /// CSA only: write V3.0 instead of V2.2.
    pub csa_v3: bool,
    /// KIF only: write a `#KIF version=2.0 encoding=…` first line (for UTF-8 in a `.kif`).
    pub declare_encoding: bool,
    /// KIF only: the layout to write ([`kif::KifDialect`]): the file's own when saving it back,
    /// kifview's own otherwise.
    pub kif_dialect: kif::KifDialect,
}

impl Target {
    pub fn new(format: Format) -> Target {
        Target {
            format,
            csa_v3: false,
            declare_encoding: false,
            kif_dialect: kif::KifDialect::default(),
        }
    }
}

/// Renders `record` as text in `target` format (for a file that will be encoded as `info` says).
pub fn render(record: &Record, target: Target, info: &TextInfo) -> Written {
    match target.format {
        Format::Kif => {
            // Declare the encoding when asked (UTF-8 in a `.kif`) or when the file did.
            let declared = record
                .program_lines
                .iter()
                .any(|l| l.starts_with("#KIF") && l.contains("encoding="));
            let encoding_line = (target.declare_encoding || declared).then(|| {
                format!(
                    "#KIF version=2.0 encoding={}",
                    match info.encoding {
                        TextEncoding::Utf8 => "UTF-8",
                        TextEncoding::ShiftJis => "Shift_JIS",
                        TextEncoding::EucJp => "EUC-JP",
                    }
                )
            });
            kif::write(
                record,
                &kif::KifOptions {
                    encoding_line,
                    dialect: target.kif_dialect,
                    ..kif::KifOptions::default()
                },
            )
        }
        Format::Ki2 => {
            let w = ki2::write(record);
            Written {
                text: source::reuse(record, target, info, w.text),
                ..w
            }
        }
        Format::Jkf => jkf::write(record),
        Format::Usi => {
            let mut w = usi::write(record);
            if !w.text.ends_with('\n') {
                w.text.push('\n');
            }
            w
        }
        Format::Sfen => Written {
            text: format!("{}\n", usi::sfen_at(record, last_position(record))),
            losses: position_only_losses(record),
        },
        Format::Bod => Written {
            text: bod::write_bod(record, last_position(record)),
            losses: position_only_losses(record),
        },
        Format::Csa => {
            let w = csa::write(
                record,
                &csa::CsaOptions {
                    version: if target.csa_v3 {
                        csa::CsaVersion::V30
                    } else {
                        csa::CsaVersion::V22
                    },
                    encoding: info.encoding,
                },
            );
            Written {
                text: source::reuse(record, target, info, w.text),
                ..w
            }
        }
    }
}

/// Renders and encodes `record`: the bytes to write and what the format could not hold.
/// A character the encoding cannot hold is an error that names it and its place.
pub fn to_bytes(
    record: &Record,
    target: Target,
    info: &TextInfo,
) -> Result<(Vec<u8>, Vec<Loss>), encoding::EncodeError> {
    let w = render(record, target, info);
    let bytes = encoding::encode(&w.text, info)?;
    Ok((bytes, w.losses))
}

/// The last main-line node that is a position (a special ending is not).
pub fn last_position(record: &Record) -> crate::record::NodeId {
    let line = record.main_line();
    line.iter()
        .rev()
        .copied()
        .find(|&id| record.node(id).special().is_none())
        .unwrap_or(crate::record::NodeId::ROOT)
}

/// What a one-position format (SFEN, BOD of the end of the main line) leaves out.
fn position_only_losses(record: &Record) -> Vec<Loss> {
    let c = loss::Census::of(record);
    let mut out: Vec<Loss> = Loss::some(Lost::Moves, c.main_moves).into_iter().collect();
    out.extend(loss::beyond_the_moves(record, &c));
    out
}

/// The lines of `text`: a line ends at `\n`, `\r\n` or a lone `\r` (old Mac files, and files
/// whose line ends are mixed). The text after the last line end is a line too (empty when the
/// text ends with one). `memchr` finds the line ends (it looks at many bytes at once), at LFs
/// only, each line then losing the CR before its LF; text with a lone CR (rare) is searched in a
/// copy whose lone CRs are LFs ([`line_ends`]).
pub(crate) fn lines(text: &str) -> Lines<'_> {
    Lines {
        text,
        ends: line_ends(text.as_bytes()),
        start: Some(0),
    }
}

/// The bytes to look for LFs in when cutting `b` into lines: `None` for `b` itself (every CR
/// comes right before an LF, as in LF and CRLF files: nearly all), else a copy whose lone CRs
/// are LFs. The copy has the same length, so a line found in it is cut from `b` at the same
/// places (and is the same text: only line ends differ).
fn line_ends(b: &[u8]) -> Option<Vec<u8>> {
    let first = memchr::memchr(b'\r', b)?;
    let b2 = &b[first..];
    // No early exit: the compiler checks many pairs at once (a `memchr` call per CR cost
    // CRLF files one call per line).
    let lone = b2
        .iter()
        .zip(&b2[1..])
        .fold(false, |acc, (&x, &y)| acc | ((x == b'\r') & (y != b'\n')))
        || b2.last() == Some(&b'\r');
    lone.then(|| {
        let mut v = b.to_vec();
        let n = v.len();
        for i in memchr::memchr_iter(b'\r', b) {
            if i + 1 == n || b[i + 1] != b'\n' {
                v[i] = b'\n';
            }
        }
        v
    })
}

/// The iterator of [`lines`]: `start` is where the next line starts (`None` after the last).
pub(crate) struct Lines<'a> {
    text: &'a str,
    /// Where to look for the LFs that end lines (see [`line_ends`]).
    ends: Option<Vec<u8>>,
    start: Option<usize>,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;
    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        // Lines are cut at ASCII bytes, which keeps every piece valid UTF-8.
        let from = self.start?;
        let b = self.ends.as_deref().unwrap_or(self.text.as_bytes());
        let Some(k) = memchr::memchr(b'\n', &b[from..]) else {
            self.start = None;
            return Some(&self.text[from..]);
        };
        let i = from + k;
        self.start = Some(i + 1);
        let end = if i > from && b[i - 1] == b'\r' {
            i - 1
        } else {
            i
        };
        Some(&self.text[from..end])
    }
}

/// `s.trim_start()`, answered at once for the usual line that starts with a visible ASCII
/// character (every white space character is below `!` or not ASCII).
#[inline]
pub(crate) fn trim_start(s: &str) -> &str {
    match s.as_bytes().first() {
        Some(&b) if b > b' ' && b < 0x80 => s,
        _ => s.trim_start(),
    }
}

/// `s.trim_end()`, answered at once when `s` ends with a visible ASCII character.
#[inline]
pub(crate) fn trim_end(s: &str) -> &str {
    match s.as_bytes().last() {
        Some(&b) if b > b' ' && b < 0x80 => s,
        _ => s.trim_end(),
    }
}

/// [`lines`] for text of short lines (CSA: `+7776FU`, `T12`): a plain byte scan, whose cost
/// per line is less than a `memchr` call's setup.
pub(crate) fn short_lines(text: &str) -> impl Iterator<Item = &str> {
    let ends = line_ends(text.as_bytes());
    let mut start = Some(0);
    std::iter::from_fn(move || {
        let from = start?;
        let b = ends.as_deref().unwrap_or(text.as_bytes());
        // Splitting at ASCII bytes keeps both halves valid UTF-8.
        let Some(k) = b[from..].iter().position(|&c| c == b'\n') else {
            start = None;
            return Some(&text[from..]);
        };
        let i = from + k;
        start = Some(i + 1);
        let end = if i > from && b[i - 1] == b'\r' {
            i - 1
        } else {
            i
        };
        Some(&text[from..end])
    })
}

#[cfg(test)]
mod tests {
    use super::{lines, short_lines};

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr() {
        for (text, want) in [
            ("", vec![""]),
            ("a", vec!["a"]),
            ("a\n", vec!["a", ""]),
            ("a\r\nb", vec!["a", "b"]),
            ("a\rb", vec!["a", "b"]),
            ("a\r", vec!["a", ""]),
            ("a\r\r\n", vec!["a", "", ""]),
            ("a\n\rb\r\n\nc", vec!["a", "", "b", "", "c"]),
            ("ａ\rｂ\r\nｃ", vec!["ａ", "ｂ", "ｃ"]),
            ("\r", vec!["", ""]),
            ("\r\n", vec!["", ""]),
            ("\r\r", vec!["", "", ""]),
            ("a\r\rb\r\n", vec!["a", "", "b", ""]),
            ("a\r\nb\r\nc\rd", vec!["a", "b", "c", "d"]),
            ("a\r\nb\r\nc\r\n", vec!["a", "b", "c", ""]),
        ] {
            assert_eq!(lines(text).collect::<Vec<_>>(), want, "{text:?}");
            assert_eq!(short_lines(text).collect::<Vec<_>>(), want, "{text:?}");
        }
    }

    #[test]
    fn quick_trims_agree_with_str() {
        for s in [
            "",
            " ",
            "a",
            " a ",
            "\ta\r",
            "\x0ba\x0b",
            "\u{3000}a\u{3000}",
            "a\u{85}",
            "+7776FU",
            "\u{1f}a\u{1f}",
        ] {
            assert_eq!(super::trim_start(s), s.trim_start(), "{s:?}");
            assert_eq!(super::trim_end(s), s.trim_end(), "{s:?}");
        }
    }
}
