//! CSA standard records (V2, V2.1, V2.2, V3.0): reader and writer.
//!
//! The reader is lenient (collapsed board rows, `,`-joined statements, `$` fields anywhere,
//! `00AL`, decimal times, several records separated by `/`) and reports every problem as a
//! [`Diagnostic`](super::Diagnostic) with its line. The writer writes the main line only and
//! lists in [`Written::losses`] what CSA cannot hold.

mod read;
mod splice;
#[cfg(test)]
mod tests;
mod write;

pub use read::{read, read_with_ends};
pub use splice::{Records, line_breaks, splice};
pub use write::write;

use super::TextEncoding;

/// The CSA version to write.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum CsaVersion {
    /// `V2.2`: integer seconds in `T` lines.
    #[default]
    V22,
    /// `V3.0`: an encoding line first, decimal seconds where milliseconds are non-zero.
    V30,
}

/// Options for writing CSA.
#[derive(Clone, Debug)]
pub struct CsaOptions {
    pub version: CsaVersion,
    /// For V3.0: the encoding declared on the first line (`'CSA encoding=UTF-8` or
    /// `SHIFT_JIS`). The caller encodes the text accordingly.
    pub encoding: TextEncoding,
}

impl Default for CsaOptions {
    fn default() -> Self {
        CsaOptions {
            version: CsaVersion::V22,
            encoding: TextEncoding::Utf8,
        }
    }
}

/// CSA `$` keys and the header names kifview uses for them (KIF names where KIF has one).
const HEADER_KEYS: [(&str, &str); 8] = [
    ("EVENT", "棋戦"),
    ("SITE", "場所"),
    ("START_TIME", "開始日時"),
    ("END_TIME", "終了日時"),
    ("TIME_LIMIT", "持ち時間"),
    ("TIME", "持ち時間"),
    ("OPENING", "戦型"),
    ("NOTE", "備考"),
];

/// Does CSA text declare version 3 (`V3.0`) in its version line (the first line that is not
/// a comment)? Such a file is written back as V3.0: V2.2 would cut its times to whole seconds.
pub fn declares_v3(text: &str) -> bool {
    // Split lazily (the version line comes first): `lines` would look for lone CRs in the
    // whole text.
    text.split(['\n', '\r'])
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('\''))
        .is_some_and(|l| l.starts_with("V3"))
}

/// Is this `'` line the encoding declaration (`'CSA encoding=UTF-8`, `'encoding=Shift_JIS`)?
fn is_encoding_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('\'') else {
        return false;
    };
    // Compared byte-wise, ASCII case aside (no lower-case copy of every comment line).
    let starts = |s: &str, p: &str| s.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p));
    let rest = rest.trim_start();
    let rest = if starts(rest, "csa") {
        rest[3..].trim_start()
    } else {
        rest
    };
    starts(rest, "encoding=")
}
