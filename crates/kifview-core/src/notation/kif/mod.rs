//! KIF / KIFU (Kakinoki) reader and writer.
//!
//! The reader is a single pass over the lines with no regular expressions: header lines and an
//! optional board diagram, then move lines (`   1 ７六歩(77)   ( 0:16/00:00:16)`), comments
//! (`*`), bookmarks (`&`), remarks (`#`: the head's, or the move's they follow) and `変化：N手` blocks. Each move is checked once
//! against the rules in the position it is played in (through the shared record builder); a
//! variation starts from the position kept for its ply. The header part is shared with KI2.
//!
//! The writer produces Kifu for Windows style text; see [`write`].

mod dialect;
mod header;
mod line;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use dialect::{KifDialect, TimeStyle};
pub(crate) use header::{
    Setup, board_line, handicap_line, header_field, header_line, moves_before_line, one_line,
    write_fields,
};
pub use read::{read, read_with_dialect};
pub use write::write;

/// The encoding declaration Kifu for Windows writes at the top of a UTF-8 `.kif`.
pub const UTF8_DECLARATION: &str = "#KIF version=2.0 encoding=UTF-8";

/// Options for writing KIF.
#[derive(Clone, Debug)]
pub struct KifOptions {
    /// A first line declaring the encoding (e.g. [`UTF8_DECLARATION`] when a `.kif` is written
    /// in UTF-8). Program lines of the record that declare an encoding are never copied.
    pub encoding_line: Option<String>,
    /// Write the closing `まで…` line after the main line when it ends in a special ending.
    pub result_line: bool,
    /// The layout of the file written back ([`KifDialect`]; kifview's own by default).
    pub dialect: KifDialect,
}

impl Default for KifOptions {
    fn default() -> Self {
        KifOptions {
            encoding_line: None,
            result_line: true,
            dialect: KifDialect::default(),
        }
    }
}

impl KifOptions {
    /// Options for UTF-8 text in a `.kif` file (adds [`UTF8_DECLARATION`]).
    pub fn utf8_kif() -> KifOptions {
        KifOptions {
            encoding_line: Some(UTF8_DECLARATION.to_string()),
            ..KifOptions::default()
        }
    }
}
