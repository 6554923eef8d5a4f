//! Every format written and read back: what each holds comes back equal, what it cannot hold
//! is counted, lookups find every position, and no bytes make a reader panic.

use super::generated;
use kifview::book::{self, Book, Data, Format, Lookup, apery, sbk, ybb};

/// The book as `format` can hold it: (key, ply?, [(usi, value?, depth?, count?)]).
type Held = Vec<(String, Vec<(String, Option<i32>, u32, u64)>)>;

fn held(b: &dyn Lookup, value: bool, depth: bool, count: bool) -> Held {
    let mut out = Vec::new();
    b.visit(&mut |k, e| {
        let moves = e
            .moves
            .iter()
            .map(|m| {
                (
                    m.usi.usi(),
                    if value {
                        Some(m.value.unwrap_or(0))
                    } else {
                        None
                    },
                    if depth { m.depth } else { 0 },
                    if count {
                        m.count.min(u16::MAX as u64)
                    } else {
                        0
                    },
                )
            })
            .collect();
        out.push((k.to_string(), moves));
        Ok(())
    })
    .unwrap();
    out.sort();
    out
}

#[test]
fn ybb_keeps_positions_moves_values_depths_and_plies_and_finds_every_position() {
    let b = generated(40, 30, 1);
    let enc = book::encode(&b, Format::Ybb).unwrap();
    let names: Vec<&str> = enc.losses.items.iter().map(|(w, _)| *w).collect();
    assert!(
        names.contains(&"counts") && names.contains(&"missing values (written as 0)"),
        "{names:?}"
    );
    let y = ybb::Ybb::new(Data::Owned(enc.bytes.clone())).unwrap();
    assert_eq!(y.len(), b.len());
    assert_eq!(y.unsorted_at(), None);
    assert_eq!(held(&y, true, true, false), held(&b, true, true, false));
    for (k, e) in b.iter() {
        let found = y.entry(k).unwrap().expect("found by binary search");
        assert_eq!(found.ply, e.ply);
        assert_eq!(found.moves.len(), e.moves.len());
    }
    assert!(y.entry("4k4/9/9/9/9/9/9/9/4K4 b -").unwrap().is_none());
    // Read whole, the same.
    let r = book::decode(&enc.bytes, Format::Ybb).unwrap();
    assert!(r.warnings.is_empty());
    assert_eq!(
        held(&r.book, true, true, false),
        held(&b, true, true, false)
    );
}

#[test]
fn apery_keeps_positions_moves_values_and_counts_found_by_walking_from_the_start() {
    let b = generated(40, 30, 2);
    let enc = book::encode(&b, Format::Apery).unwrap();
    assert_eq!(enc.bytes.len(), 16 * b.move_count());
    let a = apery::Apery::new(Data::Owned(enc.bytes.clone())).unwrap();
    assert_eq!(a.len(), b.len());
    assert_eq!(held(&a, true, false, true), held(&b, true, false, true));
    assert_eq!(a.unreached(), 0);
    // A key no walk reaches is counted, not lost silently.
    let mut island = b.clone();
    island.add_move(
        "4k4/9/9/9/9/9/9/9/4K4 b G",
        1,
        book::BookMove::new(kifview::core::rules::Move::from_usi("G*5b").unwrap()),
    );
    let enc = book::encode(&island, Format::Apery).unwrap();
    let r = book::decode(&enc.bytes, Format::Apery).unwrap();
    assert_eq!(r.book.len(), b.len());
    assert!(
        r.warnings[0]
            .message
            .starts_with("1 positions of the book not reached"),
        "{:?}",
        r.warnings
    );
}

#[test]
fn sbk_keeps_positions_moves_counts_and_position_notes() {
    let mut b = generated(30, 24, 3);
    let start = book::key_of(&kifview::core::rules::Position::startpos());
    b.get_mut(&start).unwrap().comment = Some("初手\nふたつめ".into());
    let enc = book::encode(&b, Format::Sbk).unwrap();
    let names: Vec<&str> = enc.losses.items.iter().map(|(w, _)| *w).collect();
    assert!(
        names.contains(&"values") && names.contains(&"depths"),
        "{names:?}"
    );
    let r = book::decode(&enc.bytes, Format::Sbk).unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(
        held(&r.book, false, false, true),
        held(&b, false, false, true)
    );
    assert_eq!(
        r.book.get(&start).unwrap().comment.as_deref(),
        Some("初手\nふたつめ")
    );
}

#[test]
fn text_to_ybb_to_apery_to_text_keeps_positions_moves_and_values() {
    let b = generated(60, 30, 4);
    let text = book::encode(&b, Format::YaneuraOu).unwrap().bytes;
    let mut cur = book::decode(&text, Format::YaneuraOu).unwrap().book;
    for f in [Format::Ybb, Format::Apery, Format::YaneuraOu] {
        let bytes = book::encode(&cur, f).unwrap().bytes;
        cur = book::decode(&bytes, f).unwrap().book;
    }
    // Counts do not survive .ybb (it has none); values (missing ones as 0) and moves do.
    assert_eq!(held(&cur, true, false, false), held(&b, true, false, false));
    // Without .ybb, counts come back too.
    let bin = book::encode(&b, Format::Apery).unwrap().bytes;
    let back = book::decode(&bin, Format::Apery).unwrap().book;
    let text2 = book::encode(&back, Format::YaneuraOu).unwrap().bytes;
    let again: Book = book::decode(&text2, Format::YaneuraOu).unwrap().book;
    assert_eq!(held(&again, true, false, true), held(&b, true, false, true));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Any bytes, and any bytes after a real header: an answer (a book or an error), never a
    /// panic or a huge allocation.
    #[test]
    fn no_bytes_make_a_binary_reader_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400), cut in 0usize..400) {
        for f in [Format::Ybb, Format::Apery, Format::Sbk] {
            let _ = book::decode(&bytes, f);
        }
        let mut y = ybb::MAGIC.to_vec();
        y.extend_from_slice(&bytes);
        let _ = book::decode(&y, Format::Ybb);
        let good = book::encode(&generated(2, 6, 9), Format::Sbk).unwrap().bytes;
        let mut s = good[..cut.min(good.len())].to_vec();
        s.extend_from_slice(&bytes[..bytes.len().min(20)]);
        let _ = sbk::read(&s);
        let good = book::encode(&generated(2, 6, 9), Format::Ybb).unwrap().bytes;
        let mut t = good.clone();
        for (i, b) in bytes.iter().take(8).enumerate() {
            let at = (cut + i * 37) % t.len();
            t[at] ^= b;
        }
        let mut text = b"#YANEURAOU-DB2016 1.00\nsfen ".to_vec();
        for (i, b) in bytes.iter().enumerate() {
            text.push(*b);
            if i % 37 == cut % 37 {
                text.extend_from_slice(b"\nsfen 4k4/9/9/9/9/9/9/9/4K4 b - 1\n5i5h x\n");
            }
        }
        if let Ok(tb) = book::onthefly::TextBook::new(Data::Owned(text)) {
            let _ = tb.len();
            let _ = tb.entry("4k4/9/9/9/9/9/9/9/4K4 b -");
            let _ = tb.visit(&mut |_, _| Ok(()));
        }
        if let Ok(y) = ybb::Ybb::new(Data::Owned(t)) {
            let _ = y.visit(&mut |_, _| Ok(()));
            let _ = y.entry("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -");
        }
    }
}

#[test]
fn a_ybb_header_claiming_more_positions_than_its_bytes_is_refused() {
    let mut bytes = ybb::MAGIC.to_vec();
    bytes.extend_from_slice(&u64::MAX.to_le_bytes());
    bytes.extend_from_slice(&0u64.to_le_bytes());
    let e = book::decode(&bytes, Format::Ybb).unwrap_err().to_string();
    assert!(e.contains("says 18446744073709551615 positions"), "{e}");
    let e = book::decode(&[0; 17], Format::Apery)
        .unwrap_err()
        .to_string();
    assert!(e.contains("whole number of 16-byte entries"), "{e}");
}

#[test]
fn a_sorted_text_book_answers_in_place_as_it_does_read_whole() {
    let b = generated(60, 30, 5);
    let bytes = book::encode(&b, Format::YaneuraOu).unwrap().bytes;
    let t = book::onthefly::TextBook::new(Data::Owned(bytes.clone())).unwrap();
    assert_eq!(t.len(), b.len());
    for (k, e) in b.iter() {
        assert_eq!(t.entry(k).unwrap().as_ref(), Some(e), "{k}");
    }
    // Positions not in the book, before, between and after its keys.
    for k in [
        "+B8/9/9/9/9/9/9/9/9 b -",
        "4k4/9/9/9/9/9/9/9/4K4 b -",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
        "s8/9/9/9/9/9/9/9/9 w -",
    ] {
        assert_eq!(t.entry(k).unwrap(), None, "{k}");
    }
    let mut n = 0;
    t.visit(&mut |k, e| {
        assert_eq!(b.get(k), Some(&e));
        n += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(n, b.len());
    // An unsorted file is refused here; `book::open` reads it whole instead.
    let text = String::from_utf8(bytes).unwrap();
    let mut blocks: Vec<&str> = text.split("\nsfen ").collect();
    blocks[1..].reverse();
    let unsorted = blocks.join("\nsfen ");
    let e = book::onthefly::TextBook::new(Data::Owned(unsorted.into_bytes()))
        .err()
        .unwrap();
    assert!(e.to_string().contains("not sorted"), "{e}");
}
