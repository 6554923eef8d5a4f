//! YaneuraOu's 2016 text book (`#YANEURAOU-DB2016 1.00`, usually `.db`).
//!
//! ```text
//! #YANEURAOU-DB2016 1.00
//! sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
//! #a note on the position
//! 7g7f 3c3d 30 20 12
//! #a note on 7g7f
//! 2g2f none none 0 3
//! ```
//!
//! Per position a `sfen <board> <side> <hands> <ply>` line, then one line per move:
//! `<move> <ponder|none> <value> <depth> <count>` (value, depth and count may be missing:
//! YaneuraOu reads them as 0, 0 and 1; `none` is a value or depth the book does not have, as
//! ShogiHome writes it). Lines starting with `#` (after the header) or `//` are comments:
//! kifview, as ShogiHome, keeps one after a position line as the position's note and one after a
//! move line as that move's; YaneuraOu skips them. Text after the count on a move line is that
//! move's note too.
//!
//! Reading is lenient and exact about what it skips: each line it cannot read is a
//! [`Warning`] naming the line and what was expected; a position given twice is named and its
//! moves merged into the first (the lower ply kept, as YaneuraOu's own writer does); a move given
//! twice in a position is named and the first kept. A line longer than [`MAX_LINE`] is skipped
//! (a note is cut there), so no line costs more memory than that.
//!
//! Writing sorts the positions by the bytes of their `sfen` line (YaneuraOu's `BookOnTheFly`
//! binary-searches the file for that order), one line per move in the book's order, notes as
//! `#` lines; a position with no moves is not written (YaneuraOu and ShogiHome skip them too).

use super::{BookError, BookMove, Encoded, Entry, Lookup, Losses, Read, Result, Warning};
use crate::core::rules::{Move, Position};

/// The first line of the format.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// The longest line read (bytes); a longer one is skipped with a warning.
pub const MAX_LINE: usize = 1 << 16;

/// How the file was laid out, for `book check`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The line of the first `sfen` line that is not after the one before it in byte order
    /// (`None`: the file is sorted, as `BookOnTheFly` needs).
    pub unsorted_at: Option<u64>,
    /// Position lines whose SFEN is not in the form YaneuraOu writes (hands in another order,
    /// extra spaces): an on-the-fly lookup cannot find them.
    pub non_canonical: Vec<u64>,
    /// Positions given more than once: (line, line of the first).
    pub duplicates: Vec<(u64, u64)>,
}

/// Reads a YaneuraOu text book.
pub fn read(bytes: &[u8]) -> Result<Read> {
    read_with_layout(bytes).map(|(r, _)| r)
}

/// What a line is.
enum Line<'a> {
    Blank,
    Comment(&'a [u8]),
    Position(&'a [u8]),
    Move(&'a [u8]),
}

fn classify(line: &[u8]) -> Line<'_> {
    let t = line.trim_ascii();
    if t.is_empty() {
        Line::Blank
    } else if let Some(c) = t.strip_prefix(b"#") {
        Line::Comment(c)
    } else if let Some(c) = t.strip_prefix(b"//") {
        Line::Comment(c)
    } else if let Some(s) = t.strip_prefix(b"sfen ") {
        Line::Position(s)
    } else {
        Line::Move(t)
    }
}

/// The text of a note line read from a file's bytes: decoded here, once (the book's bytes
/// come straight from the file or its map; invalid UTF-8 replaced), then cleaned as
/// [`clean_note`] cleans it.
fn note_text(bytes: &[u8]) -> String {
    clean_note(&String::from_utf8_lossy(bytes))
}

/// A note line as a book keeps it: control characters (but tabs) made spaces, no space at the
/// end (a line's end is trimmed when read, so a note writes back the same).
fn clean_note(text: &str) -> String {
    let mut s: String = text
        .chars()
        .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
        .collect();
    s.truncate(s.trim_end().len());
    s
}

/// A note of several lines (`\n`-separated), each cleaned as [`note_text`] does.
pub(crate) fn note(bytes: &[u8]) -> String {
    bytes
        .split(|&b| b == b'\n')
        .map(note_text)
        .collect::<Vec<_>>()
        .join("\n")
}

fn join_note(note: &mut Option<String>, line: String) {
    match note {
        Some(n) => {
            n.push('\n');
            n.push_str(&line);
        }
        None => *note = Some(line),
    }
}

/// Reads a YaneuraOu text book, and how its file was laid out.
pub fn read_with_layout(bytes: &[u8]) -> Result<(Read, Layout)> {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if memchr::memchr(0, &text[..text.len().min(4096)]).is_some() {
        return Err(BookError::format(
            "line 1: expected `#YANEURAOU-DB2016 1.00` (a YaneuraOu text book), found binary data",
        ));
    }
    let mut out = Read::default();
    let mut layout = Layout::default();
    let warn =
        |out: &mut Read, line: u64, message: String| out.warnings.push(Warning { line, message });
    // The key of the position the move lines belong to (`None` before the first position and
    // after one that could not be read), and the line of each key's first `sfen` line.
    let mut current: Option<String> = None;
    let mut first_line: std::collections::HashMap<String, u64> = Default::default();
    // The last `sfen` line's bytes, for the order check.
    let mut last_sfen: Option<&[u8]> = None;
    let mut in_duplicate = false;
    let mut seen_header = false;
    let mut seen_content = false;
    let mut note_to = NoteTo::Nothing;
    for (i, raw) in text.split(|&b| b == b'\n').enumerate() {
        let n = i as u64 + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.len() > MAX_LINE {
            warn(
                &mut out,
                n,
                format!(
                    "a line of {} bytes, longer than {MAX_LINE}: skipped",
                    raw.len()
                ),
            );
            continue;
        }
        let line = classify(raw);
        if !seen_content {
            match line {
                Line::Blank => continue,
                Line::Comment(c) if !seen_header && raw.trim_ascii().starts_with(b"#") => {
                    seen_header = true;
                    let c = c.trim_ascii();
                    if c == &HEADER.as_bytes()[1..] {
                        continue;
                    }
                    if c.starts_with(b"YANEURAOU-DB2016") {
                        warn(
                            &mut out,
                            n,
                            format!(
                                "header {:?}: read as `{HEADER}`",
                                note_text(raw.trim_ascii())
                            ),
                        );
                        continue;
                    }
                    return Err(not_a_book(n, raw));
                }
                Line::Position(_) => {
                    if !seen_header {
                        warn(
                            &mut out,
                            n,
                            format!("no `{HEADER}` line before the first position"),
                        );
                    }
                    seen_content = true;
                }
                Line::Comment(_) => {
                    warn(
                        &mut out,
                        n,
                        "a note before the first position: not kept (kifview keeps notes on positions and moves)".into(),
                    );
                    continue;
                }
                Line::Move(_) => return Err(not_a_book(n, raw)),
            }
        }
        match line {
            Line::Blank => {}
            Line::Comment(c) => {
                let text = note_text(c);
                match (&current, note_to) {
                    (Some(k), NoteTo::Position) => {
                        let e = out.book.get_mut(k).expect("current position is stored");
                        join_note(&mut e.comment, text);
                    }
                    (Some(k), NoteTo::Move(m)) => {
                        let e = out.book.get_mut(k).expect("current position is stored");
                        join_note(&mut e.moves[m].comment, text);
                    }
                    _ => {}
                }
            }
            Line::Position(rest) => {
                in_duplicate = false;
                let sfen_line = raw.trim_ascii();
                if let Some(prev) = last_sfen
                    && prev >= sfen_line
                    && layout.unsorted_at.is_none()
                {
                    layout.unsorted_at = Some(n);
                }
                last_sfen = Some(sfen_line);
                // The line's bytes from the file, decoded for the first time.
                let parsed = std::str::from_utf8(rest)
                    .map_err(|_| "expected `sfen <board> <side> <hands> <ply>`, found bytes that are not UTF-8".to_string())
                    .and_then(parse_position);
                match parsed {
                    Ok((key, ply, canonical)) => {
                        if !canonical {
                            layout.non_canonical.push(n);
                        }
                        if let Some(&first) = first_line.get(&key) {
                            layout.duplicates.push((n, first));
                            warn(
                                &mut out,
                                n,
                                format!(
                                    "the position of line {first} again: merged into it (its moves not there yet added, the lower ply kept)"
                                ),
                            );
                            let e = out.book.get_mut(&key).expect("stored");
                            e.ply = e.ply.min(ply);
                            in_duplicate = true;
                        } else {
                            first_line.insert(key.clone(), n);
                            out.book.insert(
                                key.clone(),
                                Entry {
                                    ply,
                                    ..Entry::default()
                                },
                            );
                        }
                        current = Some(key);
                        note_to = NoteTo::Position;
                    }
                    Err(message) => {
                        warn(
                            &mut out,
                            n,
                            format!("{message}: the position and its moves skipped"),
                        );
                        current = None;
                        note_to = NoteTo::Nothing;
                    }
                }
            }
            Line::Move(t) => {
                let Some(key) = &current else {
                    // The moves of a position that could not be read, named with it.
                    continue;
                };
                note_to = NoteTo::Nothing;
                match parse_move(t) {
                    Ok(mv) => {
                        let e = out.book.get_mut(key).expect("stored");
                        if e.moves.iter().any(|m| m.usi == mv.usi) {
                            if !in_duplicate {
                                warn(
                                    &mut out,
                                    n,
                                    format!(
                                        "the move {} again in this position: the first kept",
                                        mv.usi
                                    ),
                                );
                            }
                        } else {
                            e.moves.push(mv);
                            note_to = NoteTo::Move(e.moves.len() - 1);
                        }
                    }
                    Err(message) => warn(&mut out, n, format!("{message}: skipped")),
                }
            }
        }
    }
    if !seen_content && !seen_header {
        return Err(BookError::format(format!(
            "expected `{HEADER}` (a YaneuraOu text book), found an empty file"
        )));
    }
    Ok((out, layout))
}

/// Where a note line goes.
#[derive(Clone, Copy)]
enum NoteTo {
    Nothing,
    Position,
    Move(usize),
}

fn not_a_book(n: u64, raw: &[u8]) -> BookError {
    BookError::format(format!(
        "line {n}: expected `{HEADER}` or `sfen <position> <ply>` (a YaneuraOu text book), found {:?}",
        note_text(&raw[..raw.len().min(60)])
    ))
}

/// Reads `<board> <side> <hands> [<ply>]` into (key, ply, whether it is written as YaneuraOu
/// writes it).
fn parse_position(text: &str) -> std::result::Result<(String, u32, bool), String> {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if fields.len() < 3 || fields.len() > 4 {
        return Err(format!(
            "expected `sfen <board> <side> <hands> <ply>`, found {} fields",
            fields.len()
        ));
    }
    let ply = match fields.get(3) {
        None => 1,
        Some(p) => p
            .parse::<u32>()
            .map_err(|_| format!("expected the ply (a number) after the hands, found {p:?}"))?,
    };
    // A line written as YaneuraOu (and kifview) writes it holds its key as it is: read as the
    // general path below reads it, without making the position and writing it back.
    let given = text.trim_ascii();
    if fields.len() == 4
        && let Some(key) = given
            .strip_suffix(fields[3])
            .and_then(|k| k.strip_suffix(' '))
        && super::placement::Placement::parse_key(key.as_bytes()).is_some()
    {
        return Ok((key.to_string(), ply, true));
    }
    let pos = Position::from_sfen(&fields[..3].join(" "))
        .map_err(|e| format!("not a position: {}", e.0))?;
    let key = super::key_of(&pos);
    let canonical = given.len() > key.len()
        && given.starts_with(&key)
        && given.as_bytes()[key.len()] == b' '
        && fields.len() == 4
        && given[key.len() + 1..] == *fields[3];
    Ok((key, ply, canonical))
}

fn parse_move(line: &[u8]) -> std::result::Result<BookMove, String> {
    // The line's bytes from the file, decoded for the first time.
    let text = std::str::from_utf8(line)
        .map_err(|_| "expected a move line, found bytes that are not UTF-8".to_string())?;
    let mut rest = text;
    let mut field = || -> Option<&str> {
        let t = rest.trim_start_matches([' ', '\t']);
        if t.is_empty() {
            return None;
        }
        let end = t.find([' ', '\t']).unwrap_or(t.len());
        let (f, r) = t.split_at(end);
        rest = r;
        Some(f)
    };
    let first = field().unwrap_or_default();
    let usi = Move::from_usi(first).ok_or_else(|| {
        format!(
            "expected `sfen ...`, a comment or a move line `<move> <ponder> <value> <depth> <count>`, found {:?}",
            note_text(&line[..line.len().min(60)])
        )
    })?;
    let ponder = match field() {
        None | Some("none") | Some("resign") | Some("(none)") => None,
        Some(p) => Some(Move::from_usi(p).ok_or_else(|| {
            format!("{first}: expected the reply (a USI move or none), found {p:?}")
        })?),
    };
    let value =
        match field() {
            None | Some("none") | Some("") => None,
            Some(v) => Some(v.parse::<i32>().map_err(|_| {
                format!("{first}: expected the value (a number or none), found {v:?}")
            })?),
        };
    let depth = match field() {
        None | Some("none") => 0,
        Some(d) => d.parse::<u32>().map_err(|_| {
            format!("{first}: expected the depth (a number from 0 or none), found {d:?}")
        })?,
    };
    let count = match field() {
        None => 1,
        Some(c) => c
            .parse::<u64>()
            .map_err(|_| format!("{first}: expected the count (a number from 0), found {c:?}"))?,
    };
    let tail = rest.trim();
    let tail = tail
        .strip_prefix('#')
        .or_else(|| tail.strip_prefix("//"))
        .unwrap_or(tail);
    let comment = (!tail.is_empty()).then(|| clean_note(tail));
    Ok(BookMove {
        usi,
        ponder,
        value,
        depth,
        count,
        comment,
    })
}

/// Writes `book` as YaneuraOu text, sorted. Nothing of kifview's model is lost but the notes of
/// positions without moves (not written).
pub fn write(book: &dyn Lookup) -> Result<Encoded> {
    if !book.in_key_order() {
        // Sorted in memory first (a `.ybb`, an Apery book visit in their own orders).
        let mut all = super::Book::new();
        book.visit(&mut |k, e| {
            all.insert(k.to_string(), e);
            Ok(())
        })?;
        return write(&all);
    }
    let mut out = Vec::with_capacity(64 + book.len() * 96);
    out.extend_from_slice(HEADER.as_bytes());
    out.push(b'\n');
    let mut losses = Losses::default();
    book.visit(&mut |key, entry| {
        write_entry(&mut out, key, &entry, &mut losses);
        Ok(())
    })?;
    Ok(Encoded { bytes: out, losses })
}

/// Appends one position (its `sfen` line, note and moves) to `out`.
pub fn write_entry(out: &mut Vec<u8>, key: &str, entry: &Entry, losses: &mut Losses) {
    if entry.moves.is_empty() {
        losses.add(
            "notes of positions with no moves",
            entry.comment.is_some() as u64,
        );
        return;
    }
    push_position_line(out, key, entry.ply);
    write_note(out, entry.comment.as_deref());
    for m in &entry.moves {
        push_move_line(out, m.usi, m.ponder, m.value, m.depth, m.count);
        write_note(out, m.comment.as_deref());
    }
}

/// Appends a position's line, `sfen KEY PLY` (every writer of the text's lines writes them
/// with this and [`push_move_line`]: [`write_entry`], and a book built from games).
pub fn push_position_line(out: &mut Vec<u8>, key: &str, ply: u32) {
    out.extend_from_slice(b"sfen ");
    out.extend_from_slice(key.as_bytes());
    out.push(b' ');
    out.extend_from_slice(itoa::Buffer::new().format(ply).as_bytes());
    out.push(b'\n');
}

/// Appends a move's line, `move ponder value depth count` (`none` for no reply, no value),
/// without `fmt`: a big book has millions.
pub fn push_move_line(
    out: &mut Vec<u8>,
    mv: Move,
    ponder: Option<Move>,
    value: Option<i32>,
    depth: u32,
    count: u64,
) {
    let mut num = itoa::Buffer::new();
    out.extend_from_slice(mv.usi_bytes().as_bytes());
    out.push(b' ');
    match ponder {
        Some(p) => out.extend_from_slice(p.usi_bytes().as_bytes()),
        None => out.extend_from_slice(b"none"),
    }
    out.push(b' ');
    match value {
        Some(v) => out.extend_from_slice(num.format(v).as_bytes()),
        None => out.extend_from_slice(b"none"),
    }
    out.push(b' ');
    out.extend_from_slice(num.format(depth).as_bytes());
    out.push(b' ');
    out.extend_from_slice(num.format(count).as_bytes());
    out.push(b'\n');
}

fn write_note(out: &mut Vec<u8>, note: Option<&str>) {
    if let Some(note) = note {
        for line in note.split('\n') {
            out.push(b'#');
            out.extend_from_slice(clean_note(line).as_bytes());
            out.push(b'\n');
        }
    }
}

/// Reads the next line of `r` into `line` (without its `\n` or `\r\n`), keeping at most
/// [`MAX_LINE`] + 1 bytes of it (a longer line is cut there: its reader skips it). False at
/// the end.
fn read_line(r: &mut dyn std::io::BufRead, line: &mut Vec<u8>) -> std::io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        let room = (MAX_LINE + 1).saturating_sub(line.len());
        line.extend_from_slice(&buf[..take.min(room)]);
        r.consume(take + done as usize);
        if done {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(any)
}

/// The most warnings a streamed read keeps (the rest are counted in one more).
const MAX_WARNINGS: usize = 1000;

/// Reads a text book from `r` a position at a time, calling `f` with each position's key and
/// entry in the file's order (a position given twice comes twice), without holding more than
/// one position: for books too big to read whole. Returns the warnings, named by line as
/// [`read`] names them (at most [`MAX_WARNINGS`], then how many more).
pub fn for_each_position(
    path: &std::path::Path,
    r: &mut dyn std::io::BufRead,
    f: &mut dyn FnMut(&str, Entry) -> Result<()>,
) -> Result<Vec<Warning>> {
    let mut warnings = Vec::new();
    let mut more = 0u64;
    let mut line = Vec::new();
    // The current position's lines, after a header line so that `read` takes them alone.
    let mut block: Vec<u8> = Vec::new();
    let mut block_line = 0u64;
    let mut n = 0u64;
    let mut flush = |block: &mut Vec<u8>, at: u64, warnings: &mut Vec<Warning>| -> Result<()> {
        if block.is_empty() {
            return Ok(());
        }
        let read = read(block).map_err(|e| e.at(path))?;
        block.clear();
        for mut w in read.warnings {
            if w.line > 1 {
                w.line = at + w.line - 2;
            }
            match warnings.len() < MAX_WARNINGS {
                true => warnings.push(w),
                false => more += 1,
            }
        }
        for (k, e) in read.book {
            f(&k, e)?;
        }
        Ok(())
    };
    let mut first = true;
    loop {
        let io = |source| BookError::Io {
            path: path.to_path_buf(),
            source,
        };
        if !read_line(r, &mut line).map_err(io)? {
            break;
        }
        n += 1;
        let mut l: &[u8] = &line;
        if first {
            l = l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(l);
            first = false;
        }
        if l.trim_ascii_start().starts_with(b"sfen ") {
            flush(&mut block, block_line, &mut warnings)?;
            block.extend_from_slice(HEADER.as_bytes());
            block.push(b'\n');
            block_line = n;
        } else if block.is_empty() {
            // The header, and notes before the first position (not kept, as `read` says).
            if n == 1 && !l.starts_with(b"#") && !l.trim_ascii().is_empty() {
                return Err(not_a_book(n, l).at(path));
            }
            continue;
        }
        block.extend_from_slice(l);
        block.push(b'\n');
    }
    flush(&mut block, block_line, &mut warnings)?;
    if more > 0 {
        warnings.push(Warning {
            line: 0,
            message: format!("{more} more problems (kifview book check lists them all)"),
        });
    }
    Ok(warnings)
}

/// Writes the positions `visit` gives as a sorted text book to `out`, through an external
/// sort spilling beside it in `tmp` (memory stays the sort's chunk, whatever the book's size;
/// `stop` ends it early): the streamed form of [`write`] for `kifview book convert` and the
/// cache of an unsorted book. A position given twice is merged as [`read`] merges one (its
/// moves not there yet added, the lower ply kept) and counted in the losses.
pub fn write_sorted(
    visit: super::PositionFeed<'_>,
    out: &mut dyn std::io::Write,
    tmp: &std::path::Path,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<Losses> {
    let mut losses = Losses::default();
    let mut sort = super::extsort::ExternalSort::new(tmp, stop);
    let mut payload = Vec::new();
    visit(&mut |key, entry| {
        payload.clear();
        write_entry(&mut payload, key, &entry, &mut losses);
        match payload.is_empty() {
            true => Ok(()),
            false => sort.push(key.as_bytes(), &payload),
        }
    })?;
    let io = |source| BookError::Io {
        path: tmp.to_path_buf(),
        source,
    };
    out.write_all(HEADER.as_bytes()).map_err(io)?;
    out.write_all(b"\n").map_err(io)?;
    // The last key's payload, and the payloads of that key given again (merged when written).
    let mut pending: Option<(Vec<u8>, Vec<u8>, bool)> = None;
    let mut put = |p: (Vec<u8>, Vec<u8>, bool), losses: &mut Losses| -> Result<()> {
        let (_, bytes, again) = p;
        if !again {
            return out.write_all(&bytes).map_err(io);
        }
        let mut text = HEADER.as_bytes().to_vec();
        text.push(b'\n');
        text.extend_from_slice(&bytes);
        let read = read(&text)?;
        losses.add(
            "positions given twice in the input (merged into one, as a reader merges them)",
            read.warnings
                .iter()
                .filter(|w| w.message.contains("again: merged"))
                .count() as u64,
        );
        let mut merged = Vec::new();
        for (k, e) in read.book.iter() {
            write_entry(&mut merged, k, e, losses);
        }
        out.write_all(&merged).map_err(io)
    };
    sort.finish(&mut |key, bytes| {
        match &mut pending {
            Some((k, b, again)) if k.as_slice() == key => {
                b.extend_from_slice(bytes);
                *again = true;
            }
            _ => {
                if let Some(p) = pending.take() {
                    put(p, &mut losses)?;
                }
                pending = Some((key.to_vec(), bytes.to_vec(), false));
            }
        }
        Ok(())
    })?;
    if let Some(p) = pending.take() {
        put(p, &mut losses)?;
    }
    out.flush().map_err(io)?;
    Ok(losses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Book;

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";

    #[test]
    fn a_move_line_with_missing_fields_reads_as_yaneuraou_does() {
        let mv = parse_move(b"7g7f").unwrap();
        assert_eq!(
            (mv.ponder, mv.value, mv.depth, mv.count),
            (None, None, 0, 1)
        );
        let mv = parse_move(b"7g7f 3c3d -12 20 3 #a note").unwrap();
        assert_eq!(mv.ponder.unwrap().usi(), "3c3d");
        assert_eq!((mv.value, mv.depth, mv.count), (Some(-12), 20, 3));
        assert_eq!(mv.comment.as_deref(), Some("a note"));
        assert!(parse_move(b"7g7f none x").unwrap_err().contains("value"));
    }

    #[test]
    fn write_then_read_gives_the_same_book() {
        let mut b = Book::new();
        let mut m = BookMove::new(Move::from_usi("7g7f").unwrap());
        m.value = Some(30);
        m.depth = 12;
        m.count = 7;
        m.comment = Some("one\ntwo".into());
        m.ponder = Move::from_usi("3c3d");
        b.add_move(START, 1, m);
        b.add_move(START, 1, BookMove::new(Move::from_usi("2g2f").unwrap()));
        b.get_mut(START).unwrap().comment = Some("start".into());
        let enc = write(&b).unwrap();
        assert!(enc.losses.is_empty());
        let back = read(&enc.bytes).unwrap();
        assert!(back.warnings.is_empty(), "{:?}", back.warnings);
        assert_eq!(back.book, b);
    }
}
