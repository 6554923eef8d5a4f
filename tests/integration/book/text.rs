//! YaneuraOu's 2016 text book: what kifview reads of a file (unsorted, with notes, duplicates
//! and bad lines), what it writes (sorted by the `sfen` line's bytes, as YaneuraOu's
//! `BookOnTheFly` needs) and that no input makes it panic.

use kifview::book::{self, BookError, Format, Lookup, yaneuraou};
use kifview::core::rules::Position;
use std::path::Path;

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
const AFTER_76: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
const AFTER_26: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w -";

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/integration/book/fixtures")
        .join(name)
}

fn usi_fields(b: &dyn Lookup, key: &str) -> Vec<(String, Option<i32>, u32, u64)> {
    b.moves(key)
        .unwrap()
        .iter()
        .map(|m| (m.usi.usi(), m.value, m.depth, m.count))
        .collect()
}

#[test]
fn an_unsorted_book_reads_with_its_notes_and_names_each_bad_line() {
    let read = book::read_file(&fixture("unsorted.db")).unwrap();
    let b = &read.book;
    assert_eq!(b.len(), 3);
    // The start position of line 2, with the new move of its duplicate at line 10 merged in.
    assert_eq!(
        usi_fields(b, START),
        [
            ("7g7f".into(), Some(30), 20, 12),
            ("2g2f".into(), None, 0, 3),
            ("5g5f".into(), Some(0), 0, 1)
        ]
    );
    let e = b.get(START).unwrap();
    assert_eq!(e.ply, 1);
    assert_eq!(e.comment.as_deref(), Some("the start"));
    assert_eq!(e.moves[0].comment.as_deref(), Some("the usual"));
    assert_eq!(e.moves[0].ponder.unwrap().usi(), "3c3d");
    assert_eq!(usi_fields(b, AFTER_76).len(), 2);
    assert_eq!(usi_fields(b, AFTER_26), [("8c8d".into(), Some(0), 0, 1)]);
    let warnings: Vec<String> = read.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(warnings.len(), 4, "{warnings:#?}");
    assert!(
        warnings[0].starts_with("line 10: the position of line 2 again"),
        "{warnings:?}"
    );
    assert!(
        warnings[1].starts_with("line 13: not a position"),
        "{warnings:?}"
    );
    assert!(
        warnings[2].starts_with("line 17: expected `sfen ...`"),
        "{warnings:?}"
    );
    assert!(warnings[2].contains("\"banana 1 2 3\""), "{warnings:?}");
    assert!(
        warnings[3].starts_with("line 18: 3c3d: expected the value"),
        "{warnings:?}"
    );
}

#[test]
fn a_book_is_written_sorted_by_its_sfen_lines_with_notes_and_none_for_missing_values() {
    let read = book::read_file(&fixture("unsorted.db")).unwrap();
    let enc = book::encode(&read.book, Format::YaneuraOu).unwrap();
    let text = String::from_utf8(enc.bytes).unwrap();
    assert_eq!(
        text,
        "#YANEURAOU-DB2016 1.00\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
         3c3d 2g2f -20 18 10\n\
         8c8d 7f7e -40 18 2\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2\n\
         8c8d none 0 0 1\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
         #the start\n\
         7g7f 3c3d 30 20 12\n\
         #the usual\n\
         2g2f none none 0 3\n\
         5g5f none 0 0 1\n"
    );
    let sfen_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("sfen ")).collect();
    assert!(sfen_lines.is_sorted(), "byte order of the sfen lines");
    // Read back: the same book, and a sorted file with nothing to warn about.
    let (back, layout) = yaneuraou::read_with_layout(text.as_bytes()).unwrap();
    assert!(back.warnings.is_empty());
    assert_eq!(back.book, read.book);
    assert_eq!(layout.unsorted_at, None);
    let (_, layout) =
        yaneuraou::read_with_layout(&std::fs::read(fixture("unsorted.db")).unwrap()).unwrap();
    assert_eq!(layout.unsorted_at, Some(7));
    assert_eq!(layout.duplicates, [(10, 2)]);
}

#[test]
fn positions_are_looked_up_by_their_key_from_any_sfen_of_them() {
    let read = book::read_file(&fixture("unsorted.db")).unwrap();
    let key =
        book::key("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 40").unwrap();
    assert_eq!(key, book::key_of(&Position::startpos()));
    assert_eq!(read.book.moves(&key).unwrap().len(), 3);
    // Gote to move at the start: not in the book, but its flipped lookup is the start.
    let gote =
        Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
            .unwrap();
    assert!(read.book.moves(&book::key_of(&gote)).unwrap().is_empty());
    let flipped = read.book.moves(&book::flipped_key(&gote)).unwrap();
    assert_eq!(book::flip_move(flipped[0].usi).usi(), "3c3d");
}

#[test]
fn what_is_not_a_text_book_is_refused_with_the_line_and_what_was_expected() {
    let err = |bytes: &[u8]| match yaneuraou::read(bytes) {
        Err(BookError::Format { message, .. }) => message,
        other => panic!("expected a format error, got {other:?}"),
    };
    assert!(err(b"").contains("empty file"));
    assert!(err(b"\x00\x01\x02binary").contains("binary data"));
    let m = err(b"\n\n[Event \"x\"]\n1. P-76\n");
    assert!(
        m.starts_with("line 3: expected `#YANEURAOU-DB2016 1.00`"),
        "{m}"
    );
    // A header of another version is read with a warning, a missing header too.
    let r = yaneuraou::read(b"#YANEURAOU-DB2016 2.00\nsfen 4k4/9/9/9/9/9/9/9/4K4 b - 1\n5i5h\n")
        .unwrap();
    assert_eq!((r.book.len(), r.warnings.len()), (1, 1));
    let r = yaneuraou::read(b"sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1\r\n5i5h none 0 0 2\r\n").unwrap();
    assert_eq!(
        r.book.moves("4k4/9/9/9/9/9/9/9/4K4 b -").unwrap()[0].count,
        2
    );
    assert!(
        r.warnings[0]
            .to_string()
            .starts_with("line 1: no `#YANEURAOU-DB2016 1.00` line")
    );
}

#[test]
fn a_line_too_long_is_skipped_and_a_note_holds_no_control_character() {
    let mut bytes =
        b"#YANEURAOU-DB2016 1.00\nsfen 4k4/9/9/9/9/9/9/9/4K4 b - 1\n5i5h none 0 0 1\n#".to_vec();
    bytes.extend(std::iter::repeat_n(b'x', yaneuraou::MAX_LINE + 1));
    bytes.extend_from_slice(b"\n#\x1b[31mred\x07\n");
    let r = yaneuraou::read(&bytes).unwrap();
    assert_eq!(r.warnings.len(), 1);
    assert!(
        r.warnings[0]
            .to_string()
            .starts_with("line 4: a line of 65538 bytes"),
        "{}",
        r.warnings[0]
    );
    let m = &r.book.moves("4k4/9/9/9/9/9/9/9/4K4 b -").unwrap()[0];
    assert_eq!(m.comment.as_deref(), Some(" [31mred"));
}

#[test]
fn save_new_never_replaces_a_file_without_being_told() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("user_book1.db");
    std::fs::write(&out, "mine").unwrap();
    let read = book::read_file(&fixture("unsorted.db")).unwrap();
    let e = book::save_new(&read.book, &out, Format::YaneuraOu, false).unwrap_err();
    assert!(e.to_string().contains("exists"), "{e}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
    book::save_new(&read.book, &out, Format::YaneuraOu, true).unwrap();
    assert_eq!(book::read_file(&out).unwrap().book, read.book);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    /// Any bytes after a header: an answer, never a panic; what is read writes and reads back
    /// the same.
    #[test]
    fn any_text_reads_without_panic_and_round_trips(lines in proptest::collection::vec(
        proptest::prop_oneof![
            proptest::strategy::Just("sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1".to_string()),
            proptest::strategy::Just("sfen 4k4/9/9/9/9/9/9/9/4K4 w P 3".to_string()),
            proptest::strategy::Just("5i5h none 0 0 1".to_string()),
            proptest::strategy::Just("5a5b 5i5h -3 4".to_string()),
            "[ -~]{0,40}",
            "#[^\n]{0,20}",
        ], 0..30)) {
        let text = format!("#YANEURAOU-DB2016 1.00\n{}", lines.join("\n"));
        if let Ok(r) = yaneuraou::read(text.as_bytes()) {
            let enc = yaneuraou::write(&r.book).unwrap();
            let back = yaneuraou::read(&enc.bytes).unwrap();
            // Positions without moves are not written.
            let mut kept = r.book.clone();
            let empty: Vec<String> = kept.iter().filter(|(_, e)| e.moves.is_empty()).map(|(k, _)| k.to_string()).collect();
            for k in empty { kept.remove(&k); }
            proptest::prop_assert_eq!(back.book, kept);
        }
    }
}
