//! Writing a file of several records (CSA `/`) somewhere else: `:w PATH` in CSA writes every
//! record (as a plain `:w` writes the file, in PATH's encoding and line endings); in a format
//! of one record per file it writes the record shown, asks first and says what is left out,
//! and never marks the edits saved; `:saveas PATH` in CSA writes every record and moves the
//! session there, in a one-record format it asks, saying that the file keeps its records.

use crate::common::{five_records, pieces, press, screen, screen_rows, status_rows, viewer_with};
use kifview::app::{LaunchOptions, Mode};
use kifview::core::notation::{self, Newline, TextEncoding, TextInfo};
use kifview::tui::Viewer;
use std::path::{Path, PathBuf};

/// The viewer on record `n` (1-based) of `path`.
fn at_record(path: &Path, n: usize) -> Viewer {
    viewer_with(&LaunchOptions {
        file: Some(path.to_path_buf()),
        record: n,
        ..LaunchOptions::default()
    })
}

/// The status line as a user sees it at `w` columns (its rows joined by spaces).
fn status_at(v: &mut Viewer, w: u16, h: u16) -> String {
    let rows = screen_rows(&screen(v, w, h));
    let s = status_rows(v, &rows, w);
    s.lines().map(str::trim).collect::<Vec<_>>().join(" ")
}

/// The status line at 160 columns.
fn status(v: &mut Viewer) -> String {
    status_at(v, 160, 48)
}

/// The whole screen at 160x48 (a question shows its details above the status line).
fn shown(v: &mut Viewer) -> String {
    screen_rows(&screen(v, 160, 48)).join("\n")
}

/// What a plain `:w` writes to five.csa after the comment `note` is added to the first move
/// of record `n`: the file a copy must equal (in `dir`, a directory of its own).
fn saved_whole(dir: &tempfile::TempDir, crlf: bool, n: usize, note: &str) -> String {
    let (path, _) = five_records(dir, crlf);
    let mut v = at_record(&path, n);
    press(&mut v, &format!("lc{note}⎋^s"));
    assert!(!v.app.is_modified(), "{}", status(&mut v));
    std::fs::read_to_string(&path).unwrap()
}

fn black_of(path: &Path) -> Vec<String> {
    let loaded = notation::load(&std::fs::read(path).unwrap(), Some(path));
    loaded
        .records
        .iter()
        .map(|r| r.record.header.black_name().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn w_path_in_csa_writes_every_record_as_a_plain_w_writes_the_file() {
    for crlf in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let (path, text) = five_records(&dir, crlf);
        let copy = dir.path().join("copy.csa");
        let mut v = at_record(&path, 2);
        press(&mut v, "lcstudy note⎋");
        press(&mut v, &format!(":w {}⏎", copy.display()));
        assert_eq!(v.app.mode(), Mode::Normal, "{}", shown(&mut v));
        let s = status(&mut v);
        assert!(
            s.contains(&format!(
                "wrote a copy: {} (all 5 records; CSA UTF-8,",
                copy.display()
            )) && s.contains("still editing five.csa"),
            "{s}"
        );
        // The copy is the file a plain :w writes, with a new .csa file's LF line ends.
        let written = std::fs::read_to_string(&copy).unwrap();
        let whole = saved_whole(&tempfile::tempdir().unwrap(), crlf, 2, "study note");
        assert_eq!(written, whole.replace("\r\n", "\n"), "crlf {crlf}");
        assert!(!written.contains('\r'));
        let now = pieces(&written);
        assert_eq!(now.len(), 5, "{written}");
        let before = pieces(&text.replace("\r\n", "\n"));
        for i in [0, 2, 3, 4] {
            assert_eq!(now[i], before[i], "record {} as it was", i + 1);
        }
        assert!(now[1].contains("'*study note"), "{}", now[1]);
        // The session stays on its file, which is as it was.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert_eq!(
            (v.app.source().name.as_str(), v.app.source().record_index),
            ("five.csa", 1)
        );
        press(&mut v, "}");
        assert_eq!(v.app.source().record_index, 2);
    }
}

#[test]
fn a_copy_holds_the_saved_edits_of_other_records_and_not_the_discarded_ones() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = five_records(&dir, false);
    let before = pieces(&text);
    let mut v = at_record(&path, 2);
    // Record 2: saved when switching away. Record 3: discarded. Record 4: unsaved.
    press(&mut v, "lcsaved two⎋}s");
    assert_eq!(v.app.source().record_index, 2);
    press(&mut v, "lcthrown away⎋}d");
    assert_eq!(v.app.source().record_index, 3);
    press(&mut v, "lcunsaved four⎋");
    let copy = dir.path().join("copy.csa");
    press(&mut v, &format!(":w {}⏎", copy.display()));
    let written = std::fs::read_to_string(&copy).unwrap();
    let now = pieces(&written);
    assert_eq!(now.len(), 5, "{written}");
    assert!(now[1].contains("'*saved two"), "{}", now[1]);
    assert_eq!(now[2], before[2], "the discarded edit is nowhere");
    assert!(now[3].contains("'*unsaved four"), "{}", now[3]);
    assert_eq!((&now[0], &now[4]), (&before[0], &before[4]));
    assert!(!written.contains("thrown away"));
    // five.csa has the saved edit only.
    let on_disk = std::fs::read_to_string(&path).unwrap();
    assert!(on_disk.contains("'*saved two") && !on_disk.contains("unsaved four"));
}

#[test]
fn w_path_in_a_one_record_format_asks_and_says_which_record_it_wrote() {
    for (ext, format) in [
        ("kif", "KIF"),
        ("kifu", "KIF"),
        ("ki2", "KI2"),
        ("jkf", "JKF"),
        ("usi", "USI"),
        ("sfen", "SFEN"),
        ("bod", "BOD"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (path, text) = five_records(&dir, false);
        let copy = dir.path().join(format!("copy.{ext}"));
        let mut v = at_record(&path, 2);
        press(&mut v, "lcnote⎋");
        press(&mut v, &format!(":w {}⏎", copy.display()));
        assert_eq!(v.app.mode(), Mode::Confirm, "{ext}: {}", shown(&mut v));
        let q = shown(&mut v);
        assert!(
            q.contains("the other 4 records of five.csa")
                && q.contains(&format!("{format} holds one record per file")),
            "{ext}: {q}"
        );
        press(&mut v, "n");
        assert!(!copy.exists(), "{ext}: no means nothing is written");
        assert!(status(&mut v).contains("not saved"), "{}", status(&mut v));
        press(&mut v, &format!(":w {}⏎", copy.display()));
        press(&mut v, "y");
        assert!(copy.exists(), "{ext}");
        let s = status(&mut v);
        assert!(
            s.contains(&format!(
                "wrote {}: record 2 of 5 only ({format} holds one record per file)",
                copy.display()
            )),
            "{ext}: {s}"
        );
        // Nothing is marked saved: five.csa does not hold the edit, and quitting asks.
        assert!(
            s.contains("[+] stays: five.csa does not hold the edits"),
            "{s}"
        );
        assert!(v.app.is_modified(), "{ext}");
        press(&mut v, "q");
        assert!(!v.app.should_quit(), "{ext}: quit asks");
        assert_eq!(v.app.mode(), Mode::Confirm);
        press(&mut v, "c");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{ext}");
        // The copy holds record 2 (the formats with player names name its players).
        if matches!(ext, "kif" | "kifu" | "ki2" | "jkf") {
            assert_eq!(black_of(&copy), ["伊藤～名人"], "{ext}");
        }
        // Still at record 2 of five.csa, and its edit is still there.
        assert_eq!(
            (v.app.source().name.as_str(), v.app.source().record_index),
            ("five.csa", 1)
        );
    }
}

#[test]
fn w_path_of_an_unedited_record_in_a_one_record_format_still_says_what_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = five_records(&dir, false);
    let copy = dir.path().join("copy.kifu");
    let mut v = at_record(&path, 4);
    press(&mut v, &format!(":w {}⏎y", copy.display()));
    let s = status(&mut v);
    assert!(
        s.contains(&format!(
            "wrote {}: record 4 of 5 only (KIF holds one record per file)",
            copy.display()
        )) && !s.contains("[+]"),
        "{s}"
    );
    assert_eq!(black_of(&copy).len(), 1);
    // At 80 columns the status line still leads with what was left out.
    let narrow = status_at(&mut v, 80, 24);
    assert!(narrow.contains("record 4 of 5 only"), "{narrow}");
    press(&mut v, "q");
    assert!(v.app.should_quit(), "nothing was edited");
}

#[test]
fn saveas_csa_writes_every_record_and_moves_the_session_there() {
    for crlf in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let (path, text) = five_records(&dir, crlf);
        let all = dir.path().join("all.csa");
        let mut v = at_record(&path, 2);
        press(&mut v, "lcstudy note⎋");
        press(&mut v, &format!(":saveas {}⏎", all.display()));
        let s = status(&mut v);
        assert!(
            s.contains(&format!(
                "saved {} (all 5 records; CSA UTF-8,",
                all.display()
            )),
            "{s}"
        );
        let written = std::fs::read_to_string(&all).unwrap();
        let whole = saved_whole(&tempfile::tempdir().unwrap(), crlf, 2, "study note");
        assert_eq!(written, whole.replace("\r\n", "\n"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert!(!v.app.is_modified());
        assert!(
            status(&mut v).contains("all.csa record 2/5"),
            "{}",
            status(&mut v)
        );
        // The other records are all.csa's now: `}` reads them, a save writes them all back.
        press(&mut v, "}");
        assert_eq!(v.app.source().record_index, 2);
        press(&mut v, "lcthird⎋^s");
        let now = pieces(&std::fs::read_to_string(&all).unwrap());
        assert_eq!(now.len(), 5);
        let was = pieces(&written);
        assert!(now[2].contains("'*third"), "{}", now[2]);
        for i in [0, 1, 3, 4] {
            assert_eq!(now[i], was[i], "record {}", i + 1);
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}

#[test]
fn saveas_in_a_one_record_format_asks_and_says_the_file_keeps_its_records() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = five_records(&dir, false);
    let one = dir.path().join("one.kif");
    let mut v = at_record(&path, 2);
    press(&mut v, "lcnote⎋");
    press(&mut v, &format!(":saveas {}⏎", one.display()));
    assert_eq!(v.app.mode(), Mode::Confirm);
    let q = shown(&mut v);
    assert!(
        q.contains("the other 4 records of five.csa")
            && q.contains("KIF holds one record per file")
            && q.contains("five.csa keeps them"),
        "{q}"
    );
    press(&mut v, "n");
    assert!(!one.exists());
    assert_eq!(
        (v.app.source().name.as_str(), v.app.source().record_count),
        ("five.csa", 5)
    );
    assert!(v.app.is_modified());
    press(&mut v, &format!(":saveas {}⏎y", one.display()));
    let s = status(&mut v);
    assert!(
        s.contains(&format!(
            "saved {}: record 2 of 5 only (KIF holds one record per file); KIF Shift_JIS,",
            one.display()
        )) && s.contains("five.csa keeps its 5 records as they are on disk"),
        "{s}"
    );
    // The session is on one.kif, which holds everything it shows: nothing is unsaved.
    assert_eq!(
        (v.app.source().name.as_str(), v.app.source().record_count),
        ("one.kif", 1)
    );
    assert!(!v.app.is_modified());
    assert_eq!(black_of(&one), ["伊藤～名人"]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    press(&mut v, "}");
    assert!(status(&mut v).contains("one.kif holds one record"));
}

/// five.csa as a Shift_JIS CRLF file that says so on its second line
/// (`'CSA encoding=SHIFT_JIS`), and the black player of each record.
fn five_in_shift_jis(dir: &tempfile::TempDir) -> (PathBuf, Vec<String>) {
    let (_, text) = five_records(dir, false);
    let sjis_text = text.replace("'CSA encoding=UTF-8", "'CSA encoding=SHIFT_JIS");
    assert_ne!(sjis_text, text);
    let info = TextInfo {
        newline: Newline::CrLf,
        ..TextInfo::new(TextEncoding::ShiftJis)
    };
    let bytes = notation::encoding::encode(&sjis_text, &info).unwrap();
    let path: PathBuf = dir.path().join("sjis.csa");
    std::fs::write(&path, &bytes).unwrap();
    let names = black_of(&path);
    assert_eq!(names.len(), 5);
    (path, names)
}

#[test]
fn a_copy_in_another_encoding_declares_the_encoding_it_is_written_in() {
    let dir = tempfile::tempdir().unwrap();
    let (path, names) = five_in_shift_jis(&dir);
    let mut v = at_record(&path, 3);
    let copy = dir.path().join("copy.csa");
    press(&mut v, &format!(":w {}⏎", copy.display()));
    let written = std::fs::read(&copy).unwrap();
    let as_utf8 = String::from_utf8(written).expect("a new .csa file is UTF-8");
    assert!(as_utf8.contains("'CSA encoding=UTF-8") && !as_utf8.contains('\r'));
    assert_eq!(
        black_of(&copy),
        names,
        "the copy reads back as the file did"
    );
}

#[test]
fn saving_a_shift_jis_file_as_utf8_changes_its_declaration_too() {
    let dir = tempfile::tempdir().unwrap();
    let (path, names) = five_in_shift_jis(&dir);
    let mut v = at_record(&path, 3);
    // 𠮷 is not in Shift_JIS: the save asks, u writes the whole file in UTF-8.
    press(&mut v, "lc𠮷⎋^s");
    assert_eq!(v.app.mode(), Mode::Confirm, "{}", shown(&mut v));
    press(&mut v, "u");
    let text = String::from_utf8(std::fs::read(&path).unwrap()).expect("UTF-8 now");
    assert!(text.contains("'CSA encoding=UTF-8") && text.contains("'*𠮷"));
    assert!(!text.replace("\r\n", "").contains('\n'), "CRLF kept");
    assert_eq!(black_of(&path), names, "the file reads back as it did");
    assert!(!v.app.is_modified(), "{}", status(&mut v));
}

#[test]
fn saveas_in_a_format_that_also_loses_comments_keeps_the_edits_unsaved() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = five_records(&dir, false);
    let usi = dir.path().join("line.usi");
    let mut v = at_record(&path, 2);
    press(&mut v, "lcnote⎋");
    press(&mut v, &format!(":saveas {}⏎", usi.display()));
    let q = shown(&mut v);
    assert!(
        q.contains("the other 4 records of five.csa") && q.contains("comment"),
        "one question names every loss: {q}"
    );
    press(&mut v, "y");
    let s = status(&mut v);
    assert!(
        s.contains(&format!(
            "saved {}: record 2 of 5 only (USI holds one record per file) without",
            usi.display()
        )) && s.contains("[+] stays: only this session holds them")
            && s.contains("five.csa keeps its 5 records as they are on disk"),
        "{s}"
    );
    assert_eq!(v.app.source().name, "line.usi");
    assert!(v.app.is_modified());
    press(&mut v, "q");
    assert!(!v.app.should_quit(), "the comment exists nowhere on disk");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn pasted_records_are_all_written_to_csa_and_a_kif_save_says_the_others_are_in_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = five_records(&dir, false);
    let paste = |v: &mut Viewer| {
        press(v, "p");
        kifview::app::document::clipboard::paste_text(&mut v.app, &text);
        press(v, "^d");
        assert_eq!(v.app.source().record_count, 5);
    };
    let mut v = at_record(&path, 1);
    paste(&mut v);
    let all = dir.path().join("all.csa");
    press(&mut v, &format!(":w {}⏎", all.display()));
    // Record 1 is written as a plain :w writes the record shown; the others as pasted.
    let (now, before) = (
        pieces(&std::fs::read_to_string(&all).unwrap()),
        pieces(&text),
    );
    assert_eq!((now.len(), &now[1..]), (5, &before[1..]));
    assert!(
        status(&mut v).contains("all 5 records"),
        "{}",
        status(&mut v)
    );
    // A format of one record per file: the other pasted records would be in no file.
    let mut v = at_record(&path, 1);
    paste(&mut v);
    let one = dir.path().join("one.kifu");
    press(&mut v, &format!(":w {}⏎", one.display()));
    let q = shown(&mut v);
    assert!(
        q.contains("the other 4 records of [paste]") && q.contains("they are in no file"),
        "{q}"
    );
    press(&mut v, "n");
    assert!(!one.exists());
}

/// Each record of a file of several keeps its own CSA version when saved: record 1 of
/// five.csa is V3.0 and stays V3.0 (it was written as V2.2), record 2 is V2.2 and stays so,
/// and the records around the one saved are as they were.
#[test]
fn a_saved_record_keeps_its_own_version() {
    for (n, version) in [(1, "V3.0"), (2, "V2.2"), (4, "V3.0")] {
        let dir = tempfile::tempdir().unwrap();
        let (path, text) = five_records(&dir, false);
        let before = pieces(&text);
        assert!(
            before[n - 1].lines().any(|l| l == version),
            "{}",
            before[n - 1]
        );
        let mut v = at_record(&path, n);
        press(&mut v, "lcversion kept⎋^s");
        assert!(!v.app.is_modified(), "record {n}: {}", status(&mut v));
        let after = pieces(&std::fs::read_to_string(&path).unwrap());
        assert_eq!(after.len(), 5);
        let saved = &after[n - 1];
        assert!(saved.contains("'*version kept"), "{saved}");
        assert!(saved.lines().any(|l| l == version), "record {n}: {saved}");
        for i in (0..5).filter(|&i| i != n - 1) {
            assert_eq!(after[i], before[i], "record {} as it was", i + 1);
        }
    }
}
