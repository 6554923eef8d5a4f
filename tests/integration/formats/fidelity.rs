//! File fidelity (issue 12): saving keeps the header's order and the turn lines of diagrams;
//! a record that starts at move 81 keeps its numbering in the list, the board and the files
//! written; a file with a few bytes its encoding cannot read is read in that encoding with
//! a warning naming each line, and saving it says that those bytes were replaced.

use kifview::core::notation::encoding::{TextEncoding, decode};
use kifview::core::notation::{self, Format, ki2, kif};
use std::path::{Path, PathBuf};

use crate::common::{corpus, files_with_ext, press, screen, screen_rows, viewer_on};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fidelity")
        .join(name)
}

fn load(name: &str) -> notation::Loaded {
    let p = fixture(name);
    notation::load(&std::fs::read(&p).unwrap(), Some(&p))
}

/// The header part of KIF/KI2 text as a player reads its order: each field's key, `START`
/// where the 手合割 line or the board diagram first stands, `手数＝N`; blank, `#` and `*`
/// lines and the rest of a diagram left out. The second value says whether it has a turn
/// line (先手番, 後手番, ...).
fn header_layout(text: &str) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    let mut turn = false;
    let mut started = false;
    for l in text.lines() {
        let t = l.trim_end_matches(['\r', ' ', '\u{3000}']);
        if t.starts_with("手数--")
            || t.starts_with(['▲', '△', '☗', '☖'])
            || t.trim_start().starts_with(|c: char| c.is_ascii_digit())
            || t.starts_with("変化")
        {
            break;
        }
        if t.is_empty() || t.starts_with(['#', '*', '&']) {
            continue;
        }
        if ["先手番", "後手番", "下手番", "上手番"].contains(&t) {
            turn = true;
            continue;
        }
        if t.starts_with("手数＝") {
            out.push(t.split_whitespace().next().unwrap_or(t).to_string());
            continue;
        }
        let key = t.split_once('：').map(|(k, _)| k);
        let diagram = t.starts_with(['|', '+', ' '])
            || key.is_some_and(|k| k == "手合割" || k.ends_with("の持駒"));
        if diagram {
            if !started {
                out.push("START".into());
                started = true;
            }
            continue;
        }
        if let Some(k) = key {
            out.push(k.to_string());
        }
    }
    (out, turn)
}

/// Every real KIF and KI2 file written back in its own format keeps the order of its header
/// (手合割 before 先手/後手 as Kifu for Windows writes it, fields after the diagram, ...) and
/// its turn line.
#[test]
fn real_files_keep_their_header_order_and_turn_lines() {
    let Some(dir) = corpus() else { return };
    let mut files = Vec::new();
    files_with_ext(
        &dir.join("real"),
        &["kif", "kifu", "ki2", "ki2u"],
        &mut files,
    );
    assert!(files.len() > 50, "{} files", files.len());
    let (mut checked, mut turn_lines, mut start_before_names) = (0, 0, 0);
    let mut bad = Vec::new();
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let loaded = notation::load(&bytes, Some(p));
        let text = decode(&bytes, TextEncoding::ShiftJis).text;
        let record = &loaded.records[0].record;
        let written = match loaded.format {
            Format::Kif => kif::write(record, &kif::KifOptions::default()),
            Format::Ki2 => ki2::write(record),
            _ => continue,
        };
        if !written.losses.is_empty() {
            continue; // a field that cannot be written back changes the order by design
        }
        let (before, turn) = header_layout(&text);
        let (mut after, turn_after) = header_layout(&written.text);
        // A file with neither 手合割 nor a diagram is 平手: the writer adds the line.
        if !before.iter().any(|k| k == "START") {
            after.retain(|k| k != "START");
        }
        checked += 1;
        turn_lines += usize::from(turn);
        let start = before.iter().position(|k| k == "START");
        let names = before.iter().position(|k| k == "先手" || k == "下手");
        start_before_names += usize::from(start.zip(names).is_some_and(|(s, n)| s < n));
        // KI2 always writes the turn line of a diagram; a line the file had is kept.
        if before != after || (turn && !turn_after) {
            bad.push(format!(
                "{}:\n  read    {before:?} turn {turn}\n  written {after:?} turn {turn_after}",
                p.display()
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(checked > 50, "{checked}");
    assert!(turn_lines >= 5, "{turn_lines} files with a turn line");
    assert!(start_before_names >= 20, "{start_before_names}");
}

#[test]
fn a_tsume_diagram_keeps_its_sente_ban_line_and_fields_after_the_diagram() {
    let l = load("tsume_sente_ban.kifu");
    assert!(
        l.records[0].warnings.is_empty(),
        "{:?}",
        l.records[0].warnings
    );
    let w = kif::write(&l.records[0].record, &kif::KifOptions::default());
    let original = std::fs::read_to_string(fixture("tsume_sente_ban.kifu")).unwrap();
    // The writer adds the closing line of the ending.
    assert_eq!(w.text, format!("{original}まで1手で先手の勝ち\n"));
    // Without the line the diagram is written without it (Black to move is the default).
    let no_turn = original.replace("先手番\n", "");
    let r = kif::read(&no_turn);
    assert_eq!(
        kif::write(&r.record, &kif::KifOptions::default()).text,
        format!("{no_turn}まで1手で先手の勝ち\n")
    );
}

#[test]
fn a_record_from_move_81_keeps_its_numbers_in_kif_ki2_and_bod() {
    for name in ["from_move_81.kifu", "numbered_from_81.kifu"] {
        let l = load(name);
        let p = &l.records[0];
        assert!(p.warnings.is_empty(), "{name}: {:?}", p.warnings);
        let r = &p.record;
        assert_eq!(r.moves_before(), 80, "{name}");
        let line = r.main_line();
        assert_eq!(line.len(), 7, "{name}");
        assert_eq!(r.move_number(line[1]), 81);
        assert_eq!(r.move_number(line[6]), 86);
        let w = kif::write(r, &kif::KifOptions::default());
        assert!(w.text.contains("\n手数＝80\n"), "{name}\n{}", w.text);
        assert!(w.text.contains("\n  81 ５三歩成(54)\n"), "{}", w.text);
        assert!(w.text.contains("\n変化：84手\n  84 ７七歩打"), "{}", w.text);
        assert!(!w.text.contains("\n   1 "), "{}", w.text);
        let back = kif::read(&w.text);
        assert!(back.warnings.is_empty(), "{:?}", back.warnings);
        assert_eq!(back.record.nodes, r.nodes);
        assert_eq!(back.record.moves_before(), 80);
        // KI2: the 手数＝ line and the variation's number.
        let k = ki2::write(r);
        assert!(k.text.contains("\n手数＝80\n"), "{}", k.text);
        assert!(k.text.contains("\n変化：84手\n"), "{}", k.text);
        let back = ki2::read(&k.text);
        assert!(back.warnings.is_empty(), "{:?}", back.warnings);
        assert_eq!(back.record.moves_before(), 80);
        assert_eq!(back.record.nodes.len(), r.nodes.len());
    }
    // The file's own text comes back the same (the 手数＝ line where it stood).
    let original = std::fs::read_to_string(fixture("from_move_81.kifu")).unwrap();
    let l = load("from_move_81.kifu");
    let w = kif::write(&l.records[0].record, &kif::KifOptions::default());
    let moves_part = |t: &str| t.split("手数----").next().unwrap_or_default().to_string();
    assert_eq!(moves_part(&w.text), moves_part(&original));
}

#[test]
fn a_bod_with_a_move_count_keeps_it_and_its_turn_line() {
    let l = load("from_move_81.bod");
    let r = &l.records[0].record;
    assert_eq!(r.moves_before(), 80);
    let original = std::fs::read_to_string(fixture("from_move_81.bod")).unwrap();
    let w = notation::render(r, notation::Target::new(Format::Bod), &l.info);
    // The last move is not known from a diagram alone.
    assert!(
        w.text.contains("\n手数＝80  まで\n\n先手番\n"),
        "{}",
        w.text
    );
    assert_eq!(
        original.replace("  △７四角打", ""),
        w.text,
        "everything else comes back as it was"
    );
    // `show --ply` counts as the record does: 83 is the position after move 83.
    let k = load("from_move_81.kifu");
    let rec = &k.records[0].record;
    let s = kifview::convert::position_text(rec, Some(83), false).unwrap();
    assert!(s.contains("手数＝83  ▲６六飛  まで"), "{s}");
    let s = kifview::convert::position_text(rec, Some(0), false).unwrap();
    assert!(s.contains("手数＝80  まで"), "{s}");
    let e = kifview::convert::position_text(rec, Some(87), false).unwrap_err();
    assert_eq!(e, "--ply 87: the main line has moves 81 to 86");
}

/// In the viewer the list numbers the moves from 81, the board says 手数＝80 at the start,
/// and `:85` goes to move 85.
#[test]
fn the_viewer_numbers_a_record_from_move_81() {
    let mut v = viewer_on(&fixture("from_move_81.kifu"), None);
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(rows.contains("手数＝80"), "{rows}");
    assert!(rows.contains("  81 ▲５三歩成"), "{rows}");
    assert!(rows.contains("  86 △４七角成"), "{rows}");
    assert!(!rows.contains("   1 ▲"), "{rows}");
    press(&mut v, ":85⏎");
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(rows.contains("手数＝85  ▲７五歩  まで"), "{rows}");
    press(&mut v, ":99⏎");
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(rows.contains("this line ends at move 86"), "{rows}");
}

#[test]
fn a_utf8_file_with_a_stray_byte_stays_utf8_with_a_warning_naming_the_line() {
    let l = load("utf8_stray_byte.kifu");
    assert_eq!(l.info.encoding, TextEncoding::Utf8);
    assert!(l.info.lossy);
    let p = &l.records[0];
    let shown: Vec<String> = p.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        ["12: a byte that is not UTF-8 (0xff) was replaced by �"]
    );
    assert_eq!(p.record.header.get("後手"), Some("藤井猛�"));
    assert_eq!(p.record.header.get("先手"), Some("羽生善治"));

    let l = load("sjis_bad_bytes.kif");
    assert_eq!(l.info.encoding, TextEncoding::ShiftJis);
    let shown: Vec<String> = l.records[0]
        .warnings
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        shown[..2],
        [
            "3: a byte that is not Shift_JIS (0xfd) was replaced by �",
            "21: 2 bytes that are not Shift_JIS (0xa0 0xfd) were replaced by �"
        ]
    );
    assert_eq!(l.records[0].record.header.get("先手"), Some("羽生善治"));

    // EUC-JP with a bad byte stays EUC-JP.
    let (euc, _, _) = encoding_rs::EUC_JP.encode("先手：羽生善治\n後手：藤井猛\n棋戦：順位戦\n");
    let mut euc = euc.into_owned();
    euc.insert(euc.len() - 1, 0xff);
    let d = decode(&euc, TextEncoding::ShiftJis);
    assert_eq!(d.info.encoding, TextEncoding::EucJp);
    assert_eq!(d.warnings.len(), 1);
    assert_eq!(d.warnings[0].0, 3);
}

/// Shift_JIS files of the corpus are not taken for UTF-8 with errors, nor UTF-8 ones for
/// anything else.
#[test]
fn real_files_keep_their_detected_encoding() {
    let Some(dir) = corpus() else { return };
    let mut files = Vec::new();
    files_with_ext(
        &dir.join("real"),
        &["kif", "kifu", "ki2", "ki2u", "csa"],
        &mut files,
    );
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let d = decode(&bytes, TextEncoding::ShiftJis);
        let valid_utf8 = std::str::from_utf8(&bytes).is_ok();
        let sjis = encoding_rs::SHIFT_JIS
            .decode_without_bom_handling_and_without_replacement(&bytes)
            .is_some();
        if !valid_utf8 && sjis {
            assert_eq!(d.info.encoding, TextEncoding::ShiftJis, "{}", p.display());
        }
        assert!(!d.info.lossy || !valid_utf8, "{}", p.display());
    }
}

/// Saving a file read with replaced bytes asks first and says what happened to them; once
/// saved, the next save does not ask again. A Shift_JIS file keeps its encoding (〓 for �).
#[test]
fn saving_a_file_with_replaced_bytes_asks_once() {
    for (name, written_as) in [("utf8_stray_byte.kifu", "�"), ("sjis_bad_bytes.kif", "〓")] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::copy(fixture(name), &path).unwrap();
        let mut v = viewer_on(&path, None);
        press(&mut v, ":w⏎");
        let rows = screen_rows(&screen(&mut v, 160, 48)).join("\n");
        assert!(
            rows.contains("the original bytes that were not"),
            "{name}: {rows}"
        );
        assert!(
            rows.contains(&format!("written as {written_as})")),
            "{rows}"
        );
        press(&mut v, "y");
        let bytes = std::fs::read(&path).unwrap();
        let d = decode(&bytes, TextEncoding::ShiftJis);
        assert!(!d.info.lossy, "{name}");
        assert!(d.text.contains(written_as), "{name}");
        assert_eq!(
            d.info.encoding,
            if written_as == "〓" {
                TextEncoding::ShiftJis
            } else {
                TextEncoding::Utf8
            }
        );
        press(&mut v, ":w⏎");
        let rows = screen_rows(&screen(&mut v, 160, 48)).join("\n");
        assert!(rows.contains("saved"), "{name}: {rows}");
    }
}

/// CSA and JKF number every record from 1: saving a record that starts at move 81 names
/// the numbering as a loss. USI keeps it in the SFEN's move number.
#[test]
fn formats_without_a_first_move_number_say_so() {
    let l = load("from_move_81.kifu");
    let r = &l.records[0].record;
    for format in [Format::Csa, Format::Jkf] {
        let w = notation::render(r, notation::Target::new(format), &l.info);
        let losses: Vec<String> = w.losses.iter().map(ToString::to_string).collect();
        assert!(
            losses.contains(
                &"the move numbers (the record starts at move 81; read back, it starts at 1)"
                    .to_string()
            ),
            "{format:?}: {losses:?}"
        );
    }
    let w = notation::render(r, notation::Target::new(Format::Usi), &l.info);
    assert!(w.text.contains(" 81 moves 5d5c+"), "{}", w.text);
    let back = notation::read_text(&w.text, Format::Usi);
    assert_eq!(back[0].record.moves_before(), 80);
    // A record from move 1 loses nothing of the kind.
    let plain = notation::read_text("手合割：平手\n   1 ７六歩(77)\n", Format::Kif);
    let w = notation::render(
        &plain[0].record,
        notation::Target::new(Format::Csa),
        &l.info,
    );
    assert!(w.losses.is_empty(), "{:?}", w.losses);
}

/// A CSA V3.0 file is saved back as V3.0: its times keep their fractions of a second, and
/// saving asks nothing (it was written as V2.2, which asked to cut 12.345 s to 12 s). A V2.2
/// file stays V2.2.
#[test]
fn a_csa_v3_file_is_saved_back_as_v3() {
    let v3 = "'CSA encoding=UTF-8\nV3.0\nN+先手\nN-後手\nPI\n+\n+7776FU\nT12.345\n-3334FU\nT5.5\n%TORYO\n";
    let v22 = "V2.2\nN+先手\nN-後手\nPI\n+\n+7776FU\nT12\n-3334FU\nT5\n%TORYO\n";
    for (text, version) in [(v3, "V3.0"), (v22, "V2.2")] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.csa");
        std::fs::write(&path, text).unwrap();
        let mut v = viewer_on(&path, None);
        press(&mut v, "lc良い手⎋:w⏎");
        let rows = screen_rows(&screen(&mut v, 160, 48)).join("\n");
        assert!(rows.contains("saved"), "{version}: {rows}");
        let saved = std::fs::read_to_string(&path).unwrap();
        assert!(saved.lines().any(|l| l == version), "{saved}");
        assert!(saved.contains("'*良い手"), "{saved}");
        if version == "V3.0" {
            assert!(
                saved.contains("T12.345\n") && saved.contains("T5.5\n"),
                "{saved}"
            );
        }
    }
}
