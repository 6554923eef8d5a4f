//! Nothing the user had is lost (issue 25): a file read only in part is not cut short by a
//! save, every record of a file of several is converted, recovery files always find a place
//! and never share one, outside changes are noticed however they were made.

use crate::common::{press, screen, screen_rows};
use kifview::app::Mode;
use kifview::tui::Viewer;
use std::path::Path;

/// The whole screen at 160x48 (a question shows its details above the status line).
fn shown(v: &mut Viewer) -> String {
    screen_rows(&screen(v, 160, 48)).join("\n")
}

fn viewer(path: &Path) -> Viewer {
    let mut v = crate::common::viewer_on(path, None);
    v.app
        .set_background_saves(std::time::Duration::from_secs(3600));
    v
}

/// Move 3 (５五角) cannot be played: the reader stops that line there, and lines 4–7 (moves
/// 3–4 and a comment) are not in the record.
const CUT: &str = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五角(22)\n*a comment on move 3\n   4 ８四歩(83)\n\n変化：3手\n   3 ２六歩(27)\n";

/// CUT saved back: the lines that could not be read are remark lines after move 2, the last
/// move read before them (other programs skip `#` lines, as kifview's reader keeps them).
const CUT_SAVED: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n#   3 ５五角(22)\n#*a comment on move 3\n#   4 ８四歩(83)\n   3 ２六歩(27)\n";

#[test]
fn saving_a_file_read_in_part_writes_the_unread_lines_back_as_remarks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.kifu");
    std::fs::write(&path, CUT).unwrap();
    let mut v = viewer(&path);
    // The player is told that they were kept, and where (the comment pane shows them).
    let warned = v.app.source().warnings.iter().any(|w| {
        w.message.contains(
            "the rest of this line of play is skipped (kept as # remark lines after the last move read, written back on save)",
        )
    });
    assert!(warned, "{:?}", v.app.source().warnings);
    press(&mut v, "^s");
    v.app.wait_for_saves();
    assert_ne!(v.app.mode(), Mode::Confirm, "nothing is lost: no question");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), CUT_SAVED);
    // Read again, the file is read whole and written back the same.
    let mut v = viewer(&path);
    assert!(v.app.source().unread.is_none());
    press(&mut v, "^s");
    v.app.wait_for_saves();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), CUT_SAVED);
}

/// The no-edit save of CUT says that the lines not read are in the file as `#` lines (it
/// said only `saved cut.kifu (...)`), and `kifview check` then warns about the remark lines
/// that hold moves, so that the problem is not hidden by the save (it said nothing).
#[test]
fn a_save_says_it_kept_unread_lines_and_check_still_names_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.kifu");
    std::fs::write(&path, CUT).unwrap();
    let mut v = viewer(&path);
    press(&mut v, "^s");
    v.app.wait_for_saves();
    let said = v.app.message().map(|m| m.text.clone()).unwrap_or_default();
    assert!(said.starts_with("saved "), "{said}");
    assert!(
        said.contains("lines 4–7 of the file (moves 3–4, 1 comment)")
            && said.contains("as # remark lines"),
        "{said}"
    );
    // Saved again, the file reads whole: nothing more to say.
    press(&mut v, "^s");
    v.app.wait_for_saves();
    let said = v.app.message().map(|m| m.text.clone()).unwrap_or_default();
    assert!(!said.contains("remark lines"), "{said}");
    let out = kifview().arg("check").arg(&path).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        crate::common::stderr_of(&out)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "cut.kifu:5: remark lines 5–7 hold 2 moves that are not part of the record (from '   3 ５五角(22)')"
        ),
        "{text}"
    );
    // A remark that is only text is not a move.
    std::fs::write(
        &path,
        "手合割：平手\n   1 ７六歩(77)\n#1 good game\n#同じ形\n",
    )
    .unwrap();
    let out = kifview().arg("check").arg(&path).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A no-edit save of `comment[handmade].kifu` dropped three `#コメント` fragments (after the
/// `手数----` line, the `まで` line and the `変化：` line) that no warning named: each is
/// named by the reader now, and the save keeps all fifteen.
#[test]
fn a_no_edit_save_keeps_every_remark_fragment() {
    let Some(src) =
        crate::common::corpus_file("real/kif-parser/docs/examples/comment[handmade].kifu")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("comment.kifu");
    // Written, not copied: the corpus's files are read-only.
    std::fs::write(&path, std::fs::read(&src).unwrap()).unwrap();
    let mut v = viewer(&path);
    for line in [5, 11, 13] {
        assert!(
            v.app.source().warnings.iter().any(|w| w.line == line),
            "line {line}: {:?}",
            v.app.source().warnings
        );
    }
    press(&mut v, "^s");
    v.app.wait_for_saves();
    assert_ne!(v.app.mode(), Mode::Confirm, "{}", shown(&mut v));
    let saved = std::fs::read_to_string(&path).unwrap();
    for n in 1..=15 {
        assert!(
            saved.contains(&format!("#コメント{n}\n")),
            "#コメント{n}:\n{saved}"
        );
    }
}

/// A real game (Shift_JIS, CRLF, 181 moves) damaged on purpose: move 30 names a square that
/// holds the opponent's piece, so the reader stops at move 29. Saved back, every line from
/// move 30 to the end is in the file, verbatim after a `#`, right after move 29.
#[test]
fn a_real_game_with_an_impossible_move_saved_back_keeps_every_line() {
    let Some(src) = crate::common::corpus_file("real/python-shogi/data/games/habu-fujii-2006.kif")
    else {
        return;
    };
    let orig = std::fs::read(&src).unwrap();
    let (text, _, bad) = encoding_rs::SHIFT_JIS.decode(&orig);
    assert!(!bad);
    let damaged = text.replacen("  30 ７四歩(73)", "  30 ５五角(99)", 1);
    assert_ne!(damaged, text, "move 30 is where the test expects it");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.kif");
    std::fs::write(&path, encoding_rs::SHIFT_JIS.encode(&damaged).0).unwrap();
    let mut v = viewer(&path);
    press(&mut v, "^s");
    v.app.wait_for_saves();
    assert_ne!(v.app.mode(), Mode::Confirm, "{}", shown(&mut v));
    let written = std::fs::read(&path).unwrap();
    // The encoding and the line endings are kept.
    let (saved, _, bad) = encoding_rs::SHIFT_JIS.decode(&written);
    assert!(!bad);
    assert!(!saved.replace("\r\n", "").contains('\n'), "CRLF throughout");
    let lines: Vec<&str> = damaged.split("\r\n").collect();
    let from = lines.iter().position(|l| l.starts_with("  30 ")).unwrap();
    let last = lines.iter().rposition(|l| !l.trim().is_empty()).unwrap();
    let kept: String = lines[from..=last]
        .iter()
        .map(|l| format!("#{l}\r\n"))
        .collect();
    let move29 = lines[from - 1].trim_end();
    let at = saved.find(move29).expect("move 29 is written");
    let after29 = &saved[at..];
    let next = after29.find("\r\n").unwrap() + 2;
    assert!(
        after29[next..].starts_with(&kept),
        "the lines from move 30 on follow move 29:\n{saved}"
    );
    assert!(saved.contains("#まで181手で先手の勝ち\r\n"), "{saved}");
}

fn kifview() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_kifview"))
}

fn five(dir: &tempfile::TempDir) -> std::path::PathBuf {
    crate::common::five_records(dir, false).0
}

#[test]
fn convert_writes_every_record_of_a_csa_file_to_csa() {
    let dir = tempfile::tempdir().unwrap();
    let input = five(&dir);
    let out = dir.path().join("out.csa");
    let o = kifview()
        .args(["convert"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", crate::common::stderr_of(&o));
    let loaded = kifview::core::notation::load(&std::fs::read(&out).unwrap(), Some(&out));
    assert_eq!(loaded.records.len(), 5);
    let orig = kifview::core::notation::load(&std::fs::read(&input).unwrap(), Some(&input));
    for (a, b) in orig.records.iter().zip(&loaded.records) {
        assert_eq!(
            crate::common::usi_line(&a.record, kifview::core::record::NodeId::ROOT),
            crate::common::usi_line(&b.record, kifview::core::record::NodeId::ROOT)
        );
    }
}

#[test]
fn convert_writes_one_file_per_record_in_a_one_record_format() {
    let dir = tempfile::tempdir().unwrap();
    let input = five(&dir);
    let out = dir.path().join("g.kifu");
    let o = kifview()
        .args(["convert"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = crate::common::stderr_of(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("5 records, KIF holds one record per file"),
        "{err}"
    );
    for name in ["g.kifu", "g-2.kifu", "g-3.kifu", "g-4.kifu", "g-5.kifu"] {
        assert!(dir.path().join(name).is_file(), "{name}: {err}");
    }
    // To standard output, one record per file cannot be: refused with the count.
    let o = kifview()
        .args(["convert", "--to", "kifu"])
        .arg(&input)
        .output()
        .unwrap();
    let err = crate::common::stderr_of(&o);
    assert!(!o.status.success());
    assert!(err.contains("holds 5 records"), "{err}");
    assert!(o.stdout.is_empty());
    // --record N picks one, as before.
    let o = kifview()
        .args(["convert", "--to", "kifu", "--record", "2"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(o.status.success());
}

#[test]
fn convert_names_the_lines_it_could_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cut.kifu");
    std::fs::write(&input, CUT).unwrap();
    let o = kifview()
        .args(["convert", "--to", "csa"])
        .arg(&input)
        .output()
        .unwrap();
    let err = crate::common::stderr_of(&o);
    assert!(
        err.contains("lines 4–7 of the file (moves 3–4, 1 comment) could not be read: kept as remark lines (#) where they were"),
        "{err}"
    );
}

#[test]
fn an_outside_change_of_the_same_size_with_its_time_put_back_is_asked_about() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.kifu");
    let text = "手合割：平手\n   1 ７六歩(77)\n";
    std::fs::write(&path, text).unwrap();
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    let mut v = viewer(&path);
    // Another program writes text of the same size and sets the time back (`cp -p`).
    std::thread::sleep(std::time::Duration::from_millis(20));
    let other = text.replace("７六歩(77)", "２六歩(27)");
    assert_eq!(other.len(), text.len());
    std::fs::write(&path, &other).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    press(&mut v, "^s");
    let s = shown(&mut v);
    assert!(s.contains("changed on disk since it was opened"), "{s}");
    press(&mut v, "n");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), other);
}

#[test]
fn convert_over_itself_keeps_what_it_could_not_read_or_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cut.kifu");
    std::fs::write(&input, CUT).unwrap();
    // To a format without remarks (JKF), the lines would go: refused, the file left as it is.
    let o = kifview()
        .args(["convert", "--to", "jkf"])
        .arg(&input)
        .arg("-o")
        .arg(&input)
        .output()
        .unwrap();
    let err = crate::common::stderr_of(&o);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("not converted over itself: lines 4–7"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&input).unwrap(), CUT);
    // KIF holds them as remark lines: written where they were.
    let o = kifview()
        .args(["convert"])
        .arg(&input)
        .arg("-o")
        .arg(&input)
        .output()
        .unwrap();
    let err = crate::common::stderr_of(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), CUT_SAVED);
}
