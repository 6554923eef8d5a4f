//! Writing one record of a CSA file of several (`/` between them) back into the file: the
//! record rendered in its place, the others as they were on disk (with the line ends and the
//! encoding declaration of the file they are written to).

use super::super::encoding::{DECLARED_IN, redeclare};
use super::super::{Newline, Target, TextInfo, Written, render};
use crate::record::Record;

/// A CSA file of several records as it is on disk: each record's text (decoded, separators
/// included; joined they are the whole file), which one is shown, and how the file was
/// written.
#[derive(Clone, Copy, Debug)]
pub struct Records<'a> {
    pub texts: &'a [String],
    pub index: usize,
    pub info: Option<TextInfo>,
}

/// Each record's text as the file is written with `record` rendered (for `target` and
/// `info`) in place of record `file.index`, the others as they were (with `info`'s line ends,
/// and its encoding declared where they declared another: a copy in another encoding must
/// not claim the old one); and what rendering `record` said. Joined, the pieces are the
/// file's text before encoding (`\n` line ends when `info` writes CRLF: the encoder turns
/// each `\n` into CRLF).
pub fn splice(
    file: Records<'_>,
    record: &Record,
    target: Target,
    info: &TextInfo,
) -> (Vec<String>, Written) {
    let i = file.index;
    let mut w = render(record, target, info);
    // The record keeps the `/` that closed it (the last one too, when it had one).
    let closed = i + 1 < file.texts.len()
        || file.texts[i]
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.trim() == "/");
    if !w.text.ends_with('\n') {
        w.text.push('\n');
    }
    if closed {
        w.text.push_str("/\n");
    }
    let own = file.info;
    // A copy with LF line ends loses the CRs of a CRLF file.
    let to_lf = info.newline == Newline::CrLf || own.is_some_and(|o| o.newline != info.newline);
    let redeclared = own.is_some_and(|o| o.encoding != info.encoding);
    let mut line = 0;
    let pieces = file
        .texts
        .iter()
        .enumerate()
        .map(|(j, t)| {
            let mut piece = if j == i {
                w.text.clone()
            } else if to_lf {
                t.replace("\r\n", "\n")
            } else {
                t.clone()
            };
            if redeclared && j != i && line < DECLARED_IN {
                piece = redeclare(&piece, DECLARED_IN - line, info.encoding);
            }
            line += line_breaks(&piece);
            piece
        })
        .collect();
    (pieces, w)
}

/// Line breaks in `t` (`\r\n`, `\r` or `\n`), as the readers count lines.
pub fn line_breaks(t: &str) -> usize {
    t.matches('\n').count() + t.matches('\r').count() - t.matches("\r\n").count()
}
