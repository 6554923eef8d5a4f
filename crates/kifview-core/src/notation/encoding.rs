//! Text encodings: detect and decode once at the boundary, remember how the file was written,
//! and encode back the same way with a strict encoder (never `?` or `&#NNNN;`).

use encoding_rs::{EUC_JP, Encoding, SHIFT_JIS, UTF_8};
use std::fmt;

/// A character encoding kifview reads and writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum TextEncoding {
    Utf8,
    /// Shift_JIS as Windows writes it (CP932).
    ShiftJis,
    /// Old Unix archives; read only, written back as such.
    EucJp,
}

impl TextEncoding {
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::ShiftJis => "Shift_JIS",
            TextEncoding::EucJp => "EUC-JP",
        }
    }
    /// Reads an encoding name as users and files write it (`utf-8`, `sjis`, `cp932`, ...).
    pub fn from_label(label: &str) -> Option<TextEncoding> {
        let l = label.trim().to_ascii_lowercase();
        if l == "cp932" || l == "ms932" || l == "shift-jis" || l == "sjis" || l == "shift_jis" {
            return Some(TextEncoding::ShiftJis);
        }
        let enc = Encoding::for_label(l.as_bytes())?;
        if enc == UTF_8 {
            Some(TextEncoding::Utf8)
        } else if enc == SHIFT_JIS {
            Some(TextEncoding::ShiftJis)
        } else if enc == EUC_JP {
            Some(TextEncoding::EucJp)
        } else {
            None
        }
    }
    fn encoding(self) -> &'static Encoding {
        match self {
            TextEncoding::Utf8 => UTF_8,
            TextEncoding::ShiftJis => SHIFT_JIS,
            TextEncoding::EucJp => EUC_JP,
        }
    }
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Line endings of a file.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum Newline {
    #[default]
    Lf,
    CrLf,
}

impl Newline {
    pub fn as_str(self) -> &'static str {
        match self {
            Newline::Lf => "\n",
            Newline::CrLf => "\r\n",
        }
    }
}

/// How a file was written: kept so that saving writes it the same way.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct TextInfo {
    pub encoding: TextEncoding,
    pub bom: bool,
    pub newline: Newline,
    /// Decoding had to replace invalid bytes (U+FFFD): saving over the original loses data.
    pub lossy: bool,
}

impl TextInfo {
    pub fn new(encoding: TextEncoding) -> TextInfo {
        TextInfo {
            encoding,
            bom: false,
            newline: Newline::Lf,
            lossy: false,
        }
    }
}

/// The decoded text of a file.
#[derive(Clone, Debug)]
pub struct Decoded {
    pub text: String,
    pub info: TextInfo,
    /// What the user should know, each with its 1-based line (0: the whole file): bytes that
    /// were replaced by U+FFFD, a declaration that lied.
    pub warnings: Vec<(usize, String)>,
}

/// At most this many lines with replaced bytes are named one by one.
const NAMED_LINES: usize = 8;

/// The decoder looks for an encoding declaration in a file's first lines: as many as this.
pub const DECLARED_IN: usize = 10;

/// Finds `encoding=NAME` in the first lines (`#KIF version=2.0 encoding=UTF-8`,
/// `'CSA encoding=SHIFT_JIS`, `'encoding=Shift_JIS`).
fn declared(bytes: &[u8]) -> Option<TextEncoding> {
    for line in bytes.split(|&b| b == b'\n').take(DECLARED_IN) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !(line.starts_with(b"#") || line.starts_with(b"'")) {
            continue;
        }
        let s = String::from_utf8_lossy(line);
        if let Some(i) = s.find("encoding=") {
            let rest = &s[i + "encoding=".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if let Some(e) = TextEncoding::from_label(&name) {
                return Some(e);
            }
        }
    }
    None
}

fn detect_newline(text: &str) -> Newline {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => Newline::CrLf,
        _ => Newline::Lf,
    }
}

fn strict(enc: TextEncoding, bytes: &[u8]) -> Option<String> {
    enc.encoding()
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(|c| c.into_owned())
}

/// `text` with the encoding its first `lines` lines declare in a CSA comment (`'CSA
/// encoding=SHIFT_JIS`, `'encoding=Shift_JIS`) changed to `encoding`, as `declared` reads a
/// declaration: a copy in another encoding must not claim the old one.
pub fn redeclare(text: &str, lines: usize, encoding: TextEncoding) -> String {
    let label = match encoding {
        TextEncoding::Utf8 => "UTF-8",
        TextEncoding::ShiftJis => "SHIFT_JIS",
        TextEncoding::EucJp => "EUC-JP",
    };
    let mut out = String::with_capacity(text.len());
    for (n, l) in text.split_inclusive('\n').enumerate() {
        let from = l
            .find("encoding=")
            .filter(|_| n < lines && l.starts_with('\''))
            .map(|at| at + "encoding=".len());
        // As the decoder reads a declaration: a label it knows.
        let end = from.map(|from| {
            l[from..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .map_or(l.len(), |k| from + k)
        });
        match from.zip(end) {
            Some((from, end)) if TextEncoding::from_label(&l[from..end]).is_some() => {
                out.push_str(&l[..from]);
                out.push_str(label);
                out.push_str(&l[end..]);
            }
            _ => out.push_str(l),
        }
    }
    out
}

/// Bytes a decoder could not read, and where they start.
struct Malformed {
    at: usize,
    len: usize,
}

/// Decodes `bytes` as `enc`, replacing each malformed sequence by U+FFFD and noting where it
/// was.
fn decode_lossy(enc: &'static Encoding, bytes: &[u8]) -> (String, Vec<Malformed>) {
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(bytes.len() * 3 / 2 + 16);
    let mut bad = Vec::new();
    let mut done = 0;
    loop {
        let (result, read) =
            decoder.decode_to_string_without_replacement(&bytes[done..], &mut out, true);
        let end = done + read;
        match result {
            encoding_rs::DecoderResult::InputEmpty => break,
            encoding_rs::DecoderResult::OutputFull => out.reserve(bytes.len() - end + 16),
            encoding_rs::DecoderResult::Malformed(len, after) => {
                let len = usize::from(len);
                let at = end - usize::from(after) - len;
                bad.push(Malformed { at, len });
                if out.capacity() - out.len() < 3 {
                    out.reserve(bytes.len() - end + 16);
                }
                out.push('\u{FFFD}');
            }
        }
        done = end;
    }
    (out, bad)
}

/// Are `bytes` (not valid UTF-8) overwhelmingly UTF-8 ([`overwhelmingly`]): a UTF-8 file
/// with a stray byte? Stops at the ninth bad sequence if the bytes are not overwhelmingly
/// UTF-8 so far.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut good, mut bad) = (0usize, 0usize);
    let mut rest = bytes;
    loop {
        let (valid, skip) = match simdutf8::compat::from_utf8(rest) {
            Ok(_) => (rest.len(), None),
            Err(e) => (
                e.valid_up_to(),
                Some(e.error_len().unwrap_or(rest.len() - e.valid_up_to())),
            ),
        };
        // Each character of more than one byte has exactly one lead byte.
        good += rest[..valid].iter().filter(|&&b| b >= 0xC0).count();
        let Some(skip) = skip else {
            return overwhelmingly(good, bad);
        };
        bad += 1;
        rest = &rest[valid + skip..];
        // Shift_JIS text fails within its first few kanji. (A UTF-8 file whose bad bytes
        // come first is still read as UTF-8 when it reads best: see `decode`.)
        if bad > 8 && !overwhelmingly(good, bad) {
            return false;
        }
    }
}

/// One warning per line with replaced bytes (`line 12: a byte that is not UTF-8 (0xff) was
/// replaced by �`), the first [`NAMED_LINES`] lines named, then one for the rest.
fn malformed_warnings(bytes: &[u8], bad: &[Malformed], enc: TextEncoding) -> Vec<(usize, String)> {
    // Lines end at LF, or at CR in a file without LF (old Mac files).
    let end = if memchr::memchr(b'\n', bytes).is_some() {
        b'\n'
    } else {
        b'\r'
    };
    let mut per_line: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut line = 1;
    let mut counted = 0;
    for m in bad {
        line += memchr::memchr_iter(end, &bytes[counted..m.at]).count();
        counted = m.at;
        let b = &bytes[m.at..m.at + m.len];
        match per_line.last_mut() {
            Some((l, v)) if *l == line => v.extend_from_slice(b),
            _ => per_line.push((line, b.to_vec())),
        }
    }
    let name = enc.name();
    let mut out: Vec<(usize, String)> = per_line
        .iter()
        .take(NAMED_LINES)
        .map(|(line, b)| {
            let hex: Vec<String> = b.iter().take(6).map(|x| format!("0x{x:02x}")).collect();
            let more = if b.len() > 6 { " …" } else { "" };
            let what = if b.len() == 1 {
                format!("a byte that is not {name} ({}) was", hex.join(" "))
            } else {
                format!(
                    "{} bytes that are not {name} ({}{more}) were",
                    b.len(),
                    hex.join(" ")
                )
            };
            (*line, format!("{what} replaced by �"))
        })
        .collect();
    if per_line.len() > NAMED_LINES {
        let rest = &per_line[NAMED_LINES..];
        let n: usize = rest.iter().map(|(_, b)| b.len()).sum();
        out.push((
            rest[0].0,
            format!(
                "and {n} more bytes that are not {name} on {} more lines, replaced by �",
                rest.len()
            ),
        ));
    }
    out
}

/// Decodes a file: BOM, then a declared `encoding=`, then valid UTF-8, then strict Shift_JIS,
/// then strict EUC-JP. Text none of them reads whole is read in the one that reads most of
/// it, each unreadable byte sequence replaced by U+FFFD with a warning naming its line: a
/// UTF-8 file with a stray byte stays UTF-8 (it is tried first when its bytes are
/// overwhelmingly UTF-8), a Shift_JIS file with a few bad bytes stays Shift_JIS.
/// `prefer` is used only for pure ASCII input (what to write back).
pub fn decode(bytes: &[u8], prefer: TextEncoding) -> Decoded {
    let finish = |text: String, enc: TextEncoding, bom: bool, lossy: bool, warnings| {
        let newline = detect_newline(&text);
        Decoded {
            text,
            info: TextInfo {
                encoding: enc,
                bom,
                newline,
                lossy,
            },
            warnings,
        }
    };
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        let (text, bad) = decode_lossy(UTF_8, rest);
        let w = malformed_warnings(rest, &bad, TextEncoding::Utf8);
        return finish(text, TextEncoding::Utf8, true, !bad.is_empty(), w);
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        let (text, _, had_errors) = Encoding::for_bom(bytes)
            .map(|(e, _)| e)
            .unwrap_or(UTF_8)
            .decode(bytes);
        return finish(
            text.into_owned(),
            TextEncoding::Utf8,
            false,
            had_errors,
            vec![(0, "UTF-16 file: it will be saved as UTF-8".to_string())],
        );
    }
    if let Some(enc) = declared(bytes)
        && let Some(text) = strict(enc, bytes)
    {
        return finish(text, enc, false, false, Vec::new());
    }
    // simdutf8 validates Japanese text several times faster than `std::str::from_utf8` (6% of
    // `kifview check` on a large UTF-8 study); it answers the same yes/no.
    if let Ok(s) = simdutf8::basic::from_utf8(bytes) {
        let enc = if bytes.is_ascii() {
            prefer
        } else {
            TextEncoding::Utf8
        };
        let w = declared(bytes)
            .filter(|&d| d != TextEncoding::Utf8 && !bytes.is_ascii())
            .map(|d| {
                (
                    0,
                    format!("the file declares {d} but its bytes are UTF-8; read as UTF-8"),
                )
            })
            .into_iter()
            .collect();
        return finish(s.to_string(), enc, false, false, w);
    }
    // Nearly valid UTF-8 (a stray byte in a UTF-8 file): Shift_JIS text almost never holds
    // more than a few valid UTF-8 sequences, so many of them and few errors mean UTF-8.
    if mostly_utf8(bytes) {
        let (text, bad) = decode_lossy(UTF_8, bytes);
        let w = malformed_warnings(bytes, &bad, TextEncoding::Utf8);
        return finish(text, TextEncoding::Utf8, false, true, w);
    }
    for enc in [TextEncoding::ShiftJis, TextEncoding::EucJp] {
        if let Some(text) = strict(enc, bytes) {
            return finish(text, enc, false, false, Vec::new());
        }
    }
    let (utf8_text, utf8_bad) = decode_lossy(UTF_8, bytes);
    // The encoding that reads the most; on a tie the declared one, else Shift_JIS, EUC-JP,
    // UTF-8 in that order.
    let mut order = vec![declared(bytes).unwrap_or(TextEncoding::ShiftJis)];
    for e in [
        TextEncoding::ShiftJis,
        TextEncoding::EucJp,
        TextEncoding::Utf8,
    ] {
        if !order.contains(&e) {
            order.push(e);
        }
    }
    let mut utf8 = Some((utf8_text, utf8_bad));
    let mut best: Option<(String, Vec<Malformed>, TextEncoding)> = None;
    for e in order {
        let (t, b) = match (e, utf8.take()) {
            (TextEncoding::Utf8, Some(u)) => u,
            (_, u) => {
                utf8 = u;
                decode_lossy(e.encoding(), bytes)
            }
        };
        if best.as_ref().is_none_or(|(_, bb, _)| b.len() < bb.len()) {
            best = Some((t, b, e));
        }
    }
    let (text, bad, enc) = best.expect("three encodings were tried");
    let w = malformed_warnings(bytes, &bad, enc);
    finish(text, enc, false, true, w)
}

/// Is text with `good` multi-byte characters and `bad` malformed sequences overwhelmingly
/// in the encoding (at least 8 good characters for each bad sequence, and a few good ones)?
fn overwhelmingly(good: usize, bad: usize) -> bool {
    good >= 4 && good >= bad.saturating_mul(8)
}

/// A character the target encoding cannot hold.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Unmappable {
    pub ch: char,
    /// 1-based line and column (in characters) in the text being written.
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Unmappable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: '{}' (U+{:04X})",
            self.line, self.column, self.ch, self.ch as u32
        )
    }
}

/// Encoding failed: every character that cannot be written, with its place.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{} cannot hold {}", .encoding, .chars.iter().map(|u| u.to_string()).collect::<Vec<_>>().join("; "))]
pub struct EncodeError {
    pub encoding: TextEncoding,
    pub chars: Vec<Unmappable>,
}

/// Encodes `text` (with `\n` line ends) as `info` says: newline style, BOM, strict encoder.
pub fn encode(text: &str, info: &TextInfo) -> Result<Vec<u8>, EncodeError> {
    let crlf = info.newline == Newline::CrLf;
    let mut out = Vec::with_capacity(text.len() + text.len() / 16 + 3);
    let chars = match info.encoding {
        TextEncoding::Utf8 => {
            if info.bom {
                out.extend_from_slice(b"\xEF\xBB\xBF");
            }
            push_lines(&mut out, text.as_bytes(), crlf);
            return Ok(out);
        }
        TextEncoding::ShiftJis => encode_shift_jis(text, crlf, info.lossy, &mut out),
        TextEncoding::EucJp => {
            let mut text = std::borrow::Cow::Borrowed(text);
            if crlf {
                text = std::borrow::Cow::Owned(text.replace('\n', "\r\n"));
            }
            if info.lossy {
                text = std::borrow::Cow::Owned(text.replace('\u{FFFD}', GETA));
            }
            encode_with(EUC_JP, &text, &mut out)
        }
    };
    if chars.is_empty() {
        Ok(out)
    } else {
        Err(EncodeError {
            encoding: info.encoding,
            chars,
        })
    }
}

/// Appends `bytes`, turning each `\n` into `\r\n` when `crlf`.
fn push_lines(out: &mut Vec<u8>, bytes: &[u8], crlf: bool) {
    if !crlf {
        out.extend_from_slice(bytes);
        return;
    }
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        match line.strip_suffix(b"\n") {
            Some(l) => {
                out.extend_from_slice(l);
                out.extend_from_slice(b"\r\n");
            }
            None => out.extend_from_slice(line),
        }
    }
}

/// Where the character starting at byte `at` of `text` is, for an error message.
fn place(text: &str, at: usize, ch: char) -> Unmappable {
    let upto = &text[..at];
    let line = upto.matches('\n').count() + 1;
    let column = upto.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Unmappable { ch, line, column }
}

/// encoding_rs's strict encoder (used for EUC-JP, which kifview writes only when saving back
/// an EUC-JP file).
fn encode_with(enc: &'static Encoding, text: &str, out: &mut Vec<u8>) -> Vec<Unmappable> {
    let mut encoder = enc.new_encoder();
    let mut chars = Vec::new();
    let mut src = text;
    let mut buf = vec![0u8; text.len() * 2 + 16];
    loop {
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(src, &mut buf, true);
        out.extend_from_slice(&buf[..written]);
        let done = text.len() - src.len() + read;
        src = &src[read..];
        match result {
            encoding_rs::EncoderResult::InputEmpty => break,
            encoding_rs::EncoderResult::OutputFull => continue,
            encoding_rs::EncoderResult::Unmappable(ch) => {
                chars.push(place(text, done - ch.len_utf8(), ch));
            }
        }
    }
    chars
}

/// Shift_JIS bytes of a character (WHATWG's Shift_JIS encoder, which is what encoding_rs
/// implements): 0 for a character Shift_JIS cannot hold, a value below 0x100 for one byte,
/// else `lead << 8 | trail`. encoding_rs finds each kanji by a linear search of its index
/// (about a thousand instructions a character); a record uses a few hundred distinct
/// characters, so each is asked of encoding_rs once per process and remembered (a table
/// built up front for every character cost 2.6 million instructions, more than converting a
/// hundred records). A test checks every BMP character against encoding_rs's encoder.
fn shift_jis_code(c: char) -> u16 {
    use std::sync::atomic::{AtomicU16, Ordering};
    /// Per BMP character: 0 while not asked yet, `CANNOT` for one Shift_JIS cannot hold.
    static CODES: [AtomicU16; 0x10000] = [const { AtomicU16::new(0) }; 0x10000];
    const CANNOT: u16 = u16::MAX;
    if c.is_ascii() {
        return c as u16;
    }
    let Some(slot) = CODES.get(c as usize) else {
        return 0;
    };
    match slot.load(Ordering::Relaxed) {
        0 => {
            let code = encode_one_shift_jis(c);
            // Racing threads store the same value.
            slot.store(if code == 0 { CANNOT } else { code }, Ordering::Relaxed);
            code
        }
        CANNOT => 0,
        code => code,
    }
}

/// encoding_rs's Shift_JIS bytes for `c` ([`shift_jis_code`]'s form).
fn encode_one_shift_jis(c: char) -> u16 {
    let mut utf8 = [0u8; 4];
    let mut out = [0u8; 4];
    let mut encoder = SHIFT_JIS.new_encoder();
    let (result, _, written) =
        encoder.encode_from_utf8_without_replacement(c.encode_utf8(&mut utf8), &mut out, true);
    match (result, written) {
        (encoding_rs::EncoderResult::InputEmpty, 1) => u16::from(out[0]),
        (encoding_rs::EncoderResult::InputEmpty, 2) => u16::from_be_bytes([out[0], out[1]]),
        _ => 0,
    }
}

/// What a file read with replaced bytes ([`TextInfo::lossy`]) gets for each U+FFFD when it is
/// written in Shift_JIS or EUC-JP, which have no U+FFFD: 〓 (GETA MARK), the mark Japanese
/// text uses for a character that could not be read.
pub const GETA: &str = "〓";

/// Strict Shift_JIS (CP932) encoding with `\n` → `\r\n` when `crlf`; returns the characters
/// it could not write. With `lossy`, U+FFFD is written as 〓 ([`GETA`]).
fn encode_shift_jis(text: &str, crlf: bool, lossy: bool, out: &mut Vec<u8>) -> Vec<Unmappable> {
    let mut chars = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Copy the ASCII run (most of a record's bytes) in one go.
        let run = bytes[i..]
            .iter()
            .position(|&b| b >= 0x80)
            .unwrap_or(bytes.len() - i);
        push_lines(out, &bytes[i..i + run], crlf);
        i += run;
        let Some(c) = text[i..].chars().next() else {
            break;
        };
        let c = if lossy && c == '\u{FFFD}' { '〓' } else { c };
        let code = shift_jis_code(c);
        match code {
            0 => chars.push(place(text, i, c)),
            1..=0xFF => out.push(code as u8),
            _ => out.extend_from_slice(&code.to_be_bytes()),
        }
        i += c.len_utf8();
    }
    chars
}

/// Characters of `text` that `encoding` cannot hold (empty when all can be written).
pub fn unmappable(text: &str, encoding: TextEncoding) -> Vec<Unmappable> {
    match encode(text, &TextInfo::new(encoding)) {
        Ok(_) => Vec::new(),
        Err(e) => e.chars,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_declares_the_encoding_it_is_written_in_within_the_first_lines() {
        let text =
            "'records: 2\n'CSA encoding=SHIFT_JIS\r\nV3.0\n'encoding=sjis is a comment here\n";
        assert_eq!(
            redeclare(text, 2, TextEncoding::Utf8),
            "'records: 2\n'CSA encoding=UTF-8\r\nV3.0\n'encoding=sjis is a comment here\n"
        );
        assert_eq!(
            redeclare("'encoding=utf-8\n", 10, TextEncoding::ShiftJis),
            "'encoding=SHIFT_JIS\n"
        );
        // Lines that are not `'` lines, lines past the first ones, and labels that name no
        // encoding (the decoder does not take them for a declaration) are left alone.
        let moves = "N+encoding=x\n+7776FU\n'memo: encoding=mine\n";
        assert_eq!(redeclare(moves, 10, TextEncoding::Utf8), moves);
    }

    #[test]
    fn detection_order() {
        let sjis = SHIFT_JIS.encode("先手：羽生").0.into_owned();
        let d = decode(&sjis, TextEncoding::Utf8);
        assert_eq!(d.info.encoding, TextEncoding::ShiftJis);
        assert_eq!(d.text, "先手：羽生");

        let d = decode("先手：羽生\r\n".as_bytes(), TextEncoding::ShiftJis);
        assert_eq!(d.info.encoding, TextEncoding::Utf8);
        assert_eq!(d.info.newline, Newline::CrLf);
        assert!(!d.info.bom);

        let d = decode(b"\xEF\xBB\xBF\xE5\x85\x88", TextEncoding::ShiftJis);
        assert!(d.info.bom);
        assert_eq!(d.text, "先");

        let d = decode(b"V2.2\n", TextEncoding::ShiftJis);
        assert_eq!(d.info.encoding, TextEncoding::ShiftJis);

        let mut declared_sjis = b"'CSA encoding=SHIFT_JIS\n".to_vec();
        declared_sjis.extend_from_slice(&sjis);
        let d = decode(&declared_sjis, TextEncoding::Utf8);
        assert_eq!(d.info.encoding, TextEncoding::ShiftJis);

        let d = decode(b"\x82\xA0\xFF\xFF", TextEncoding::Utf8);
        assert!(d.info.lossy);
        assert!(!d.warnings.is_empty());
    }

    #[test]
    fn strict_encoder_names_unmappable_characters() {
        let info = TextInfo {
            encoding: TextEncoding::ShiftJis,
            bom: false,
            newline: Newline::CrLf,
            lossy: false,
        };
        assert_eq!(
            encode("▲７六歩\n", &info).unwrap(),
            SHIFT_JIS.encode("▲７六歩\r\n").0.into_owned()
        );
        let err = encode("a\n☗７六歩〜", &info).unwrap_err();
        assert_eq!(err.chars.len(), 2);
        assert_eq!(
            err.chars[0],
            Unmappable {
                ch: '☗',
                line: 2,
                column: 1
            }
        );
        assert_eq!(err.chars[1].column, 5);
        assert!(err.to_string().contains("U+2617"));
    }

    /// The table-driven Shift_JIS encoder agrees with encoding_rs's encoder on every character.
    #[test]
    fn shift_jis_table_matches_encoding_rs() {
        let info = TextInfo::new(TextEncoding::ShiftJis);
        let mut mapped = 0;
        for cp in (0..0x10000u32).chain([0x1F600, 0x20B9F]) {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let s = c.to_string();
            let (expected, _, unmappable) = SHIFT_JIS.encode(&s);
            let ours = encode(&s, &info);
            if unmappable {
                assert!(ours.is_err(), "U+{cp:04X} should be unmappable");
            } else {
                assert_eq!(ours.as_deref(), Ok(&expected[..]), "U+{cp:04X}");
                mapped += 1;
            }
        }
        // ASCII, U+0080, ¥, ‾, 63 half-width kana and the two-byte JIS X 0208 + CP932 set.
        assert!(mapped > 7_000, "{mapped}");
    }

    #[test]
    fn labels() {
        assert_eq!(
            TextEncoding::from_label("cp932"),
            Some(TextEncoding::ShiftJis)
        );
        assert_eq!(TextEncoding::from_label("UTF8"), Some(TextEncoding::Utf8));
        assert_eq!(TextEncoding::from_label("utf-8"), Some(TextEncoding::Utf8));
        assert_eq!(TextEncoding::from_label("latin9"), None);
    }
}
#[cfg(test)]
mod lossy_tests {
    use super::*;

    /// A file read with replaced bytes writes each U+FFFD as 〓 in the encodings that have
    /// no U+FFFD; any other file refuses it as an unmappable character.
    #[test]
    fn replacement_characters_are_written_as_geta_when_the_file_was_lossy() {
        let mut info = TextInfo::new(TextEncoding::ShiftJis);
        assert!(encode("棋戦\u{FFFD}：順位戦\n", &info).is_err());
        info.lossy = true;
        let b = encode("棋戦\u{FFFD}：順位戦\n", &info).unwrap();
        assert_eq!(SHIFT_JIS.decode(&b).0, "棋戦〓：順位戦\n");
        info.encoding = TextEncoding::EucJp;
        let b = encode("\u{FFFD}\n", &info).unwrap();
        assert_eq!(EUC_JP.decode(&b).0, "〓\n");
    }
}

#[cfg(test)]
mod malformed_tests {
    use super::*;

    #[test]
    fn many_bad_lines_are_named_up_to_a_limit_then_counted() {
        let mut bytes = Vec::new();
        for i in 0..12 {
            bytes.extend_from_slice(format!("先手：名前{i}").as_bytes());
            bytes.push(0xff);
            bytes.push(b'\n');
        }
        for _ in 0..40 {
            bytes.extend_from_slice("*コメントの行\n".as_bytes());
        }
        let d = decode(&bytes, TextEncoding::ShiftJis);
        assert_eq!(d.info.encoding, TextEncoding::Utf8);
        assert!(d.info.lossy);
        assert_eq!(d.warnings.len(), NAMED_LINES + 1);
        assert_eq!(
            d.warnings[0],
            (
                1,
                "a byte that is not UTF-8 (0xff) was replaced by �".to_string()
            )
        );
        assert_eq!(
            d.warnings[NAMED_LINES],
            (
                9,
                "and 4 more bytes that are not UTF-8 on 4 more lines, replaced by �".to_string()
            )
        );
        assert_eq!(d.text.matches('\u{FFFD}').count(), 12);
    }

    /// Shift_JIS text is never taken for UTF-8 with errors, however short.
    #[test]
    fn shift_jis_is_not_overwhelmingly_utf8() {
        for s in [
            "先手：羽生善治\n",
            "▲７六歩　△３四歩\n",
            "あ",
            "手合割：平手\n後手：藤井猛\n",
        ] {
            let (b, _, _) = SHIFT_JIS.encode(s);
            assert_eq!(
                decode(&b, TextEncoding::Utf8).info.encoding,
                TextEncoding::ShiftJis,
                "{s}"
            );
        }
    }
}

#[cfg(test)]
mod utf8_first_tests {
    use super::*;

    /// Bad bytes at the start of a long UTF-8 file: not taken for UTF-8 at once, but UTF-8
    /// reads it best, so it is UTF-8 with its bad bytes replaced.
    #[test]
    fn a_utf8_file_whose_bad_bytes_come_first_is_still_utf8() {
        let mut bytes = b"\xf8\xf9\xfa\xfb\xfc\xfd\xf7\xf6\xf5\xf4 header\n".to_vec();
        for _ in 0..50 {
            bytes.extend_from_slice("*羽生善治の一手\n".as_bytes());
        }
        assert!(!mostly_utf8(&bytes));
        let d = decode(&bytes, TextEncoding::ShiftJis);
        assert_eq!(d.info.encoding, TextEncoding::Utf8);
        assert!(
            d.text.ends_with("*羽生善治の一手\n"),
            "{:?}",
            &d.text[d.text.len() - 60..]
        );
        assert_eq!(d.warnings.len(), 1);
        assert_eq!(d.warnings[0].0, 1);
    }
}
