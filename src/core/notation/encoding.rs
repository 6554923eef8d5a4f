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
    /// Something the user should know (a lossy decode, a declaration that lied).
    pub warning: Option<String>,
}

/// Finds `encoding=NAME` in the first lines (`#KIF version=2.0 encoding=UTF-8`,
/// `'CSA encoding=SHIFT_JIS`, `'encoding=Shift_JIS`).
fn declared(bytes: &[u8]) -> Option<TextEncoding> {
    for line in bytes.split(|&b| b == b'\n').take(10) {
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

/// Decodes a file: BOM, then a declared `encoding=`, then valid UTF-8, then strict Shift_JIS,
/// then strict EUC-JP; otherwise Shift_JIS with replacement characters and a warning.
/// `prefer` is used only for pure ASCII input (what to write back).
pub fn decode(bytes: &[u8], prefer: TextEncoding) -> Decoded {
    let finish = |text: String, enc: TextEncoding, bom: bool, lossy: bool, warning| {
        let newline = detect_newline(&text);
        Decoded {
            text,
            info: TextInfo {
                encoding: enc,
                bom,
                newline,
                lossy,
            },
            warning,
        }
    };
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        let (text, had_errors) = UTF_8.decode_without_bom_handling(rest);
        let w = had_errors.then(|| "invalid UTF-8 bytes after the BOM were replaced".to_string());
        return finish(text.into_owned(), TextEncoding::Utf8, true, had_errors, w);
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
            Some("UTF-16 file: it will be saved as UTF-8".to_string()),
        );
    }
    if let Some(enc) = declared(bytes)
        && let Some(text) = strict(enc, bytes)
    {
        return finish(text, enc, false, false, None);
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
            .map(|d| format!("the file declares {d} but its bytes are UTF-8; read as UTF-8"));
        return finish(s.to_string(), enc, false, false, w);
    }
    for enc in [TextEncoding::ShiftJis, TextEncoding::EucJp] {
        if let Some(text) = strict(enc, bytes) {
            return finish(text, enc, false, false, None);
        }
    }
    let (text, _) = SHIFT_JIS.decode_without_bom_handling(bytes);
    finish(
        text.into_owned(),
        TextEncoding::ShiftJis,
        false,
        true,
        Some(
            "the file is neither valid UTF-8 nor valid Shift_JIS; unreadable bytes were replaced by �"
                .to_string(),
        ),
    )
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
        TextEncoding::ShiftJis => encode_shift_jis(text, crlf, &mut out),
        TextEncoding::EucJp => {
            let text = if crlf {
                std::borrow::Cow::Owned(text.replace('\n', "\r\n"))
            } else {
                std::borrow::Cow::Borrowed(text)
            };
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

/// Shift_JIS bytes of every BMP character (WHATWG's Shift_JIS encoder, which is what
/// encoding_rs implements): 0 for a character Shift_JIS cannot hold, a value below 0x100 for
/// one byte, else `lead << 8 | trail`. encoding_rs finds each kanji by a linear search of its
/// index (about a thousand instructions a character, half the time of a CSA→KIF conversion);
/// this table is built once from encoding_rs's own decoder, and a test checks it against
/// encoding_rs's encoder for every BMP character.
fn shift_jis_table() -> &'static [u16] {
    static TABLE: std::sync::OnceLock<Box<[u16]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0u16; 0x10000].into_boxed_slice();
        for b in 0..0x80u16 {
            t[usize::from(b)] = b;
        }
        // The WHATWG encoder's one-byte extras: U+0080, yen sign, overline, half-width kana.
        t[0x80] = 0x80;
        t[0xA5] = 0x5C;
        t[0x203E] = 0x7E;
        for c in 0xFF61..=0xFF9Fu32 {
            t[c as usize] = (c - 0xFF61 + 0xA1) as u16;
        }
        let mut decoder_out = [0u8; 8];
        // Two-byte codes in pointer order, so the first (lowest) pointer of a character wins.
        for lead in (0x81..=0x9Fu8).chain(0xE0..=0xFC) {
            for trail in (0x40..=0x7Eu8).chain(0x80..=0xFC) {
                let pointer = (usize::from(lead) - if lead < 0xA0 { 0x81 } else { 0xC1 }) * 188
                    + usize::from(trail)
                    - if trail < 0x7F { 0x40 } else { 0x41 };
                // NEC-selected IBM extensions (the encoder prefers the IBM rows) and user-defined
                // characters (decoded to the private use area, never encoded).
                if (8272..=10715).contains(&pointer) {
                    continue;
                }
                let mut decoder = SHIFT_JIS.new_decoder_without_bom_handling();
                let (result, _, written) = decoder.decode_to_utf8_without_replacement(
                    &[lead, trail],
                    &mut decoder_out,
                    true,
                );
                if result != encoding_rs::DecoderResult::InputEmpty {
                    continue;
                }
                let Some(c) = std::str::from_utf8(&decoder_out[..written])
                    .ok()
                    .and_then(|s| s.chars().next())
                else {
                    continue;
                };
                let slot = &mut t[c as usize];
                if c as u32 >= 0x80 && *slot == 0 {
                    *slot = u16::from(lead) << 8 | u16::from(trail);
                }
            }
        }
        // The encoder writes U+2212 MINUS SIGN as the full-width hyphen-minus.
        t[0x2212] = t[0xFF0D];
        t
    })
}

/// Strict Shift_JIS (CP932) encoding with `\n` → `\r\n` when `crlf`; returns the characters
/// it could not write.
fn encode_shift_jis(text: &str, crlf: bool, out: &mut Vec<u8>) -> Vec<Unmappable> {
    let table = shift_jis_table();
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
        let code = table.get(c as usize).copied().unwrap_or(0);
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
        assert!(d.warning.is_some());
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
