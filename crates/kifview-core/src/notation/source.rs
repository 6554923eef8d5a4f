//! Writing a CSA or KI2 file back in its own words: the text a clean file was read from is
//! kept with its record ([`keep`], into [`Record::source`]), and writing the record back in
//! the same format, encoding (and CSA version) reuses that text for every part whose meaning
//! did not change ([`reuse`]).
//!
//! The text is cut into parts at each move (CSA: a `+`/`-` move or `%` statement; KI2: a side
//! mark on a move line): the head before the first move, then one part per move with what
//! follows it up to the next (its time, comments, the closing lines). The writer's text for
//! the record as read is cut the same way; where the file and that text have as many parts,
//! each part of the new text that is the same as the writer's part for the record as read is
//! replaced by the file's own part (the head alone, then the same moves from the start and
//! from the end; what lies between, the edit, is the writer's). A file saved without edits is
//! the file; an edit changes only its own part.
//!
//! The result is read back and must give the same record as the writer's own text (else the
//! writer's head is tried, then the writer's text alone is used): the file never means
//! something else for reusing its text, and what the writer would write otherwise (a
//! `$START_TIME` that is not a CSA date) is written the writer's way.

use super::{Format, Target, TextEncoding, TextInfo, ki2, read_text};
use crate::record::{Record, SourceText};
use std::sync::Arc;

/// The text of a clean CSA or KI2 file, as its reader saw it (`\n` line ends), and how it was
/// written.
#[derive(Debug)]
struct Text {
    format: Format,
    encoding: TextEncoding,
    csa_v3: bool,
    text: String,
}

/// Keeps `text` (the decoded file, whose line ends are `newline`) with `record` for writing
/// it back ([`reuse`]); only CSA and KI2, the caller keeps it only for a file read without a
/// warning.
pub(super) fn keep(record: &mut Record, text: &str, format: Format, info: &TextInfo, csa_v3: bool) {
    if !matches!(format, Format::Csa | Format::Ki2) {
        return;
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = if info.newline == super::Newline::CrLf {
        text.replace("\r\n", "\n")
    } else {
        text.to_string()
    };
    record.source = SourceText(Some(Arc::new(Text {
        format,
        encoding: info.encoding,
        csa_v3,
        text,
    })));
}

/// `generated` (the writer's text of `record` for `target`), with the file's own text for
/// every part that did not change when `record` keeps the text of a file of this format,
/// encoding and version.
pub(super) fn reuse(record: &Record, target: Target, info: &TextInfo, generated: String) -> String {
    let Some(src) = record
        .source
        .0
        .as_ref()
        .and_then(|s| s.downcast_ref::<Text>())
    else {
        return generated;
    };
    if src.format != target.format
        || src.encoding != info.encoding
        || (src.format == Format::Csa && src.csa_v3 != target.csa_v3)
    {
        return generated;
    }
    let mut read = read_text(&src.text, src.format);
    if read.len() != 1 || !read[0].warnings.is_empty() {
        return generated;
    }
    let mut as_read = read.swap_remove(0).record;
    as_read.source = SourceText::default();
    let before = super::render(&as_read, target, info).text;
    // The file's text whole, when the record writes as it did and the file says nothing the
    // writer would say otherwise (a `$START_TIME` that is not a CSA date, written as a remark).
    if before == generated && means_the_same(&src.text, &generated, src.format) {
        return src.text.clone();
    }
    let own = parts(&src.text, src.format);
    let old = parts(&before, src.format);
    let new = parts(&generated, src.format);
    if own.len() != old.len() {
        return generated;
    }
    // The file's own head and moves; else its moves under the writer's head.
    [true, false]
        .into_iter()
        .map(|head| splice(&own, &old, &new, head))
        .find(|text| means_the_same(text, &generated, src.format))
        .unwrap_or(generated)
}

/// The parts of `new` in order, each replaced by the file's own (`own[i]`) where it is the
/// writer's old part `old[i]` (but for the spaces and line breaks that end it): the head's two
/// parts each (unless not `head`), then the moves matched from the start and from the end.
fn splice(own: &[&str], old: &[&str], new: &[&str], head: bool) -> String {
    let same = |i: usize, j: usize| old[i].trim_end() == new[j].trim_end();
    let (n, o) = (new.len(), old.len());
    let mut pick: Vec<Option<usize>> = vec![None; n];
    for (i, p) in pick.iter_mut().enumerate().take(HEAD_PARTS) {
        *p = (head && same(i, i)).then_some(i);
    }
    let mut front = HEAD_PARTS;
    while front < n.min(o) && same(front, front) {
        pick[front] = Some(front);
        front += 1;
    }
    let mut back = 0;
    while back < n.min(o) - front && same(o - 1 - back, n - 1 - back) {
        pick[n - 1 - back] = Some(o - 1 - back);
        back += 1;
    }
    let mut text = String::with_capacity(own.iter().map(|p| p.len()).sum::<usize>() + 64);
    let mut last = None;
    for (j, part) in new.iter().enumerate() {
        // A part after one it did not follow in its text, which ends without a separator (the
        // file's last line without its line break, `△６二金左上▲８六歩`), gets a line break.
        let follows = matches!((last, pick[j]), (Some(a), Some(b)) if b == a + 1);
        if !follows && !text.is_empty() && !part.is_empty() && !text.ends_with(char::is_whitespace)
        {
            text.push('\n');
        }
        last = pick[j];
        match pick[j] {
            None => text.push_str(part),
            // The file's part, but for the last part of a record cut after it, which ends as
            // the writer ends it (with its line break, not the spaces before the next move).
            Some(i) if j + 1 == new.len() && i + 1 != own.len() => {
                text.push_str(own[i].trim_end());
                text.push_str(&part[part.trim_end().len()..]);
            }
            Some(i) => text.push_str(own[i]),
        }
    }
    text
}

/// Does `text` read as the writer's own text for the record (`generated`), with as many
/// warnings? (Where the file put its `手合割` line, or none for 平手, is not what it means, nor
/// is a `#KI2 version=2.0 encoding=…` line: the file is written in the encoding it declares.)
fn means_the_same(text: &str, generated: &str, format: Format) -> bool {
    let read = |t: &str| {
        let mut r = read_text(t, format);
        for p in &mut r {
            p.record.layout = Default::default();
            p.record
                .program_lines
                .retain(|l| !(l.starts_with("#KI") && l.contains("encoding=")));
        }
        r
    };
    let (a, b) = (read(text), read(generated));
    a.len() == 1
        && b.len() == 1
        && a[0].warnings.len() == b[0].warnings.len()
        && a[0].record == b[0].record
}

/// The parts of the head: what comes before the root's comments, and those comments.
const HEAD_PARTS: usize = 2;

/// `text` cut before each move: the head (in [`HEAD_PARTS`] parts: cut where the root's
/// comments start, or empty), then one part per move.
fn parts(text: &str, format: Format) -> Vec<&str> {
    let (starts, comments) = match format {
        Format::Csa => csa_moves(text),
        _ => ki2_moves(text),
    };
    let first = starts.first().copied().unwrap_or(text.len());
    let cut = comments.filter(|&c| c <= first).unwrap_or(first);
    let mut out = Vec::with_capacity(starts.len() + HEAD_PARTS);
    let mut from = 0;
    for s in std::iter::once(cut).chain(starts) {
        out.push(&text[from..s]);
        from = s;
    }
    out.push(&text[from..]);
    out
}

/// Where each CSA move or `%` statement starts (statements are joined by `,`; a `'` comment,
/// an `N` or `$` line has none), and where the line after the first turn line (`+`, `-`)
/// starts.
fn csa_moves(text: &str) -> (Vec<usize>, Option<usize>) {
    let mut out = Vec::new();
    let mut turn = None;
    let mut ending = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let line_at = at;
        at += line.len();
        if turn.is_none() && matches!(line.trim(), "+" | "-") {
            turn = Some(at);
            continue;
        }
        if matches!(
            line.trim_start().as_bytes().first(),
            Some(b'\'' | b'N' | b'$') | None
        ) {
            continue;
        }
        let mut off = 0;
        for stmt in line.split(',') {
            let lead = stmt.len() - stmt.trim_start().len();
            let s = stmt.trim_start().as_bytes();
            if s.first() == Some(&b'\'') {
                break;
            }
            let is_move = matches!(s, [b'+' | b'-', d, ..] if d.is_ascii_digit());
            // The ending said again (`%KACHI` then `%KACHI`) adds nothing to the record.
            let word = s.first() == Some(&b'%');
            if is_move || (word && ending != Some(stmt.trim())) {
                out.push(line_at + off + lead);
            }
            if is_move {
                ending = None;
            } else if word {
                ending = Some(stmt.trim());
            }
            off += stmt.len() + 1;
        }
    }
    (out, turn)
}

/// Where each KI2 move starts: each side mark of a move line; and where the first comment
/// line (`*`) starts.
fn ki2_moves(text: &str) -> (Vec<usize>, Option<usize>) {
    let mut out = Vec::new();
    let mut comment = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let line_at = at;
        at += line.len();
        if comment.is_none() && line.starts_with('*') {
            comment = Some(line_at);
        }
        let t = line.trim_start_matches(super::japanese::is_space);
        if !t.starts_with(ki2::is_mark) {
            continue;
        }
        out.extend(
            line.char_indices()
                .filter(|&(_, c)| ki2::is_mark(c))
                .map(|(i, _)| line_at + i),
        );
    }
    (out, comment)
}
