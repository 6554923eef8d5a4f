//! Copy menu, paste prompt and `:e`: what each copy choice puts on the clipboard, what each
//! pasted format opens, and the messages a user sees.

use kifview::app::document::clipboard::paste_text;
use kifview::app::testing::push_line;
use kifview::app::{App, Config, KeyCode, KeyEvent, Level, Mode, Modifiers, RecordSource};
use kifview::core::notation::{self, Format, Target, TextEncoding, TextInfo};
use kifview::core::record::{NodeId, Record, Special, Step};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn doc(name: &str) -> RecordSource {
    RecordSource::untitled(name)
}

/// 7g7f 3c3d 2g2f 8c8d 投了, with 2g2f as an alternative first move and a comment.
fn game() -> Record {
    let mut r = Record::default();
    r.header.set("先手", "先手さん");
    r.header.set("後手", "後手さん");
    let end = push_line(&mut r, NodeId::ROOT, "7g7f 3c3d 2g2f 8c8d");
    r.push_child(end, Step::Special(Special::Resign));
    push_line(&mut r, NodeId::ROOT, "2g2f");
    let line = r.main_line();
    r.node_mut(line[2]).comment = "角道を開ける".into();
    r
}

fn app(r: Record) -> App {
    App::new(r, doc("game.kif"), Config::defaults())
}

/// Presses keys: characters, `⎋` Esc, `⏎` Enter, `^d` Ctrl-d.
fn keys(a: &mut App, s: &str) {
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        let k = match c {
            '⎋' => KeyEvent::plain(KeyCode::Esc),
            '⏎' => KeyEvent::plain(KeyCode::Enter),
            '⌫' => KeyEvent::plain(KeyCode::Backspace),
            '^' => {
                let c = chars.next().expect("a key after ^");
                KeyEvent::new(
                    KeyCode::Char(c),
                    Modifiers {
                        ctrl: true,
                        ..Modifiers::default()
                    },
                )
            }
            c => KeyEvent::char(c),
        };
        a.handle_key(k);
    }
}

fn message(a: &App) -> String {
    a.message()
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

fn clipboard(a: &mut App) -> String {
    a.take_clipboard().expect("something was copied")
}

fn main_line_usi(r: &Record) -> Vec<String> {
    r.main_line()
        .iter()
        .filter_map(|&id| r.node(id).move_data().map(|m| m.mv.usi()))
        .collect()
}

#[test]
fn copy_position_as_sfen_bod_and_usi() {
    let mut a = app(game());
    keys(&mut a, "ll");
    keys(&mut a, "y");
    assert_eq!(a.mode(), Mode::Copy);
    keys(&mut a, "s");
    assert_eq!(a.mode(), Mode::Normal);
    let sfen = clipboard(&mut a);
    assert_eq!(
        sfen,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    );
    assert_eq!(message(&a), format!("copied SFEN ({} bytes)", sfen.len()));

    keys(&mut a, "yu");
    assert_eq!(clipboard(&mut a), "position startpos moves 7g7f 3c3d");
    assert!(message(&a).starts_with("copied USI ("), "{}", message(&a));

    keys(&mut a, "yb");
    let bod = clipboard(&mut a);
    assert!(bod.contains("手数＝2  △３四歩  まで"), "{bod}");
    assert!(bod.contains("|v歩v歩v歩v歩v歩v歩 ・v歩v歩|三"), "{bod}");
    // The BOD reads back as the same position.
    let back = notation::read_text(&bod, Format::detect(&bod));
    assert_eq!(
        back[0]
            .record
            .initial
            .position
            .to_sfen()
            .rsplit_once(' ')
            .unwrap()
            .0,
        sfen.rsplit_once(' ').unwrap().0
    );

    // On the alternative first move, the USI line follows that branch.
    keys(&mut a, "gl");
    keys(&mut a, "j");
    keys(&mut a, "yu");
    assert_eq!(clipboard(&mut a), "position startpos moves 2g2f");
    // At the start: no `moves`.
    keys(&mut a, "gyu");
    assert_eq!(clipboard(&mut a), "position startpos");
}

#[test]
fn copy_whole_record_and_what_is_lost() {
    let r = game();
    let mut a = app(r.clone());
    keys(&mut a, "lll");
    keys(&mut a, "yk");
    let kif = clipboard(&mut a);
    assert!(kif.contains("先手：先手さん"), "{kif}");
    assert!(kif.contains("   1 ７六歩(77)"), "{kif}");
    assert!(kif.contains("変化：1手"), "{kif}");
    assert_eq!(a.message().as_ref().unwrap().level, Level::Info);
    let back = notation::read_text(&kif, Format::Kif);
    assert_eq!(back[0].record, {
        // What the KIF writer writes for this record, read back: the same tree.
        let w = notation::render(
            &r,
            Target::new(Format::Kif),
            &TextInfo::new(TextEncoding::Utf8),
        );
        notation::read_text(&w.text, Format::Kif).remove(0).record
    });
    assert_eq!(main_line_usi(&back[0].record), main_line_usi(&r));

    keys(&mut a, "y2");
    let ki2 = clipboard(&mut a);
    assert!(ki2.contains("▲７六歩"), "{ki2}");
    assert!(!ki2.contains("(77)"), "{ki2}");

    keys(&mut a, "yc");
    let csa = clipboard(&mut a);
    assert!(csa.contains("+7776FU"), "{csa}");
    assert!(csa.contains("%TORYO"), "{csa}");
    let m = a.message().cloned().unwrap();
    assert_eq!(m.level, Level::Warning);
    assert!(
        m.text
            .starts_with(&format!("copied CSA ({} bytes); CSA lost: ", csa.len())),
        "{}",
        m.text
    );
    assert!(m.text.contains("variation"), "{}", m.text);
    // The current place is unchanged by copying.
    assert_eq!(a.cur_index(), 3);
}

#[test]
fn escape_closes_the_copy_menu_without_copying() {
    let mut a = app(game());
    keys(&mut a, "y⎋");
    assert_eq!(a.mode(), Mode::Normal);
    assert!(a.pending_clipboard().is_none());
    keys(&mut a, "yy");
    assert_eq!(a.mode(), Mode::Normal);
    keys(&mut a, "y?⎋");
    assert_eq!(a.mode(), Mode::Copy, "help returns to the menu");
}

/// Opens the paste prompt, pastes `text` as the terminal would (bracketed), and opens it.
fn paste(a: &mut App, text: &str) {
    keys(a, "p");
    assert_eq!(a.mode(), Mode::Paste, "{}", message(a));
    paste_text(a, text);
    keys(a, "^d");
}

#[test]
fn paste_every_format() {
    let r = game();
    let info = TextInfo::new(TextEncoding::Utf8);
    for (format, expect_moves) in [
        // The alternative first move counts where the format holds it.
        (Format::Kif, 5),
        (Format::Ki2, 5),
        (Format::Csa, 4),
        (Format::Jkf, 5),
        (Format::Usi, 4),
    ] {
        let text = notation::render(&r, Target::new(format), &info).text;
        // Terminals send pasted line breaks as CR.
        let text = text.replace('\n', "\r");
        let mut a = app(Record::default());
        paste(&mut a, &text);
        assert_eq!(a.mode(), Mode::Normal, "{format:?}: {}", message(&a));
        assert_eq!(a.source().format, Some(format), "{format:?}");
        assert_eq!(a.source().name, "[paste]");
        assert!(
            a.source().warnings.is_empty(),
            "{format:?}: {:?}",
            a.source().warnings
        );
        assert_eq!(
            main_line_usi(a.record()),
            ["7g7f", "3c3d", "2g2f", "8c8d"],
            "{format:?}"
        );
        assert_eq!(
            message(&a),
            format!("opened pasted {} ({expect_moves} moves)", format.name())
        );
    }
}

#[test]
fn paste_engine_lines_sfen_and_bod() {
    let after = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    for text in [
        "position startpos moves 7g7f 3c3d",
        "startpos moves 7g7f 3c3d",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d\n",
    ] {
        let mut a = app(game());
        paste(&mut a, text);
        assert_eq!(a.source().format, Some(Format::Usi), "{text}");
        assert_eq!(main_line_usi(a.record()), ["7g7f", "3c3d"], "{text}");
        // Issue 12: the line names the position after its moves: it opens there.
        assert_eq!(a.cur_index(), 2, "{text}");
        assert_eq!(a.position().to_sfen(), after, "{text}");
    }
    for text in [after.to_string(), format!("sfen {after}")] {
        let mut a = app(game());
        paste(&mut a, &text);
        assert_eq!(a.source().format, Some(Format::Usi), "{text}");
        assert_eq!(a.record().len(), 1);
        assert_eq!(a.position().to_sfen(), after);
        assert_eq!(message(&a), "opened pasted USI (a position)");
    }
    // A BOD diagram (as copied with `y b`), pasted.
    let mut src = app(game());
    keys(&mut src, "llyb");
    let bod = clipboard(&mut src);
    let mut a = app(Record::default());
    paste(&mut a, &bod.replace('\n', "\r\n"));
    assert_eq!(a.source().format, Some(Format::Bod));
    assert_eq!(
        a.position().to_sfen().rsplit_once(' ').unwrap().0,
        after.rsplit_once(' ').unwrap().0
    );
    assert_eq!(message(&a), "opened pasted BOD (a position)");
}

#[test]
fn typed_lines_and_backspace_in_the_prompt() {
    let mut a = app(Record::default());
    keys(&mut a, "pstartpos moves 7g7f⏎");
    keys(&mut a, "3c3x⌫d");
    assert_eq!(
        a.overlays().paste().unwrap().text,
        "startpos moves 7g7f\n3c3d"
    );
    // A second line that continues the first is taken as the longer line.
    keys(&mut a, "^d");
    assert_eq!(a.mode(), Mode::Normal, "{}", message(&a));
    assert_eq!(main_line_usi(a.record()), ["7g7f"]);
    keys(&mut a, "p⎋");
    assert_eq!(a.mode(), Mode::Normal);
    assert_eq!(message(&a), "paste cancelled");
    assert_eq!(main_line_usi(a.record()), ["7g7f"]);
}

#[test]
fn unrecognizable_paste_changes_nothing() {
    let mut a = app(game());
    keys(&mut a, "lll");
    for text in [
        "hello world\nthis is not a game",
        "   \n  ",
        "{\"moves\": [1,",
    ] {
        paste(&mut a, text);
        let m = a.message().cloned().unwrap();
        assert_eq!(a.source().name, "game.kif", "{text:?}");
        assert_eq!(a.cur_index(), 3);
        assert_eq!(main_line_usi(a.record()), ["7g7f", "3c3d", "2g2f", "8c8d"]);
        if text.trim().is_empty() {
            assert_eq!(m.text, "nothing pasted");
        } else {
            assert_eq!(m.level, Level::Error);
            assert!(
                m.text.starts_with("no record found in the pasted text"),
                "{}",
                m.text
            );
            assert!(m.text.contains("expected KIF, KI2, CSA"), "{}", m.text);
        }
        // The prompt stays open with the text, to fix or cancel.
        assert_eq!(a.mode(), Mode::Paste);
        keys(&mut a, "⎋");
    }
}

#[test]
fn unsaved_changes_block_paste_and_open_until_forced() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.kifu");
    std::fs::write(&other, "手数----指手--\n   1 ２六歩(27)\n").unwrap();
    let mut a = app(game());
    touch(&mut a);
    keys(&mut a, "p");
    assert_eq!(a.mode(), Mode::Normal);
    assert_eq!(
        message(&a),
        "unsaved changes: save first or :paste! to discard them"
    );
    keys(&mut a, &format!(":e {}⏎", other.display()));
    assert_eq!(
        message(&a),
        format!("unsaved changes: save first or :e! {}", other.display())
    );
    assert_eq!(a.source().name, "game.kif");
    keys(&mut a, &format!(":e! {}⏎", other.display()));
    assert_eq!(a.source().name, "other.kifu");
    assert_eq!(main_line_usi(a.record()), ["2g2f"]);
    assert!(!a.is_modified());
    assert_eq!(message(&a), "opened other.kifu (1 move)");

    touch(&mut a);
    keys(&mut a, ":paste!⏎");
    assert_eq!(a.mode(), Mode::Paste);
    paste_text(&mut a, "startpos moves 7g7f");
    keys(&mut a, "^d");
    assert_eq!(main_line_usi(a.record()), ["7g7f"]);
}

/// `:e` of a FIFO is refused at once, as every reader of a record file to be written back
/// refuses one, and the record shown stays. Before, `:e` read it as a file: it waited for a
/// writer (here a thread that writes a record into it) and opened what came.
#[test]
fn open_a_fifo_is_refused_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("slow.kif");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            // Opening for writing waits for a reader; what it writes may meet none.
            if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&fifo) {
                let _ = f.write_all("手数----指手--\n   1 ２六歩(27)\n".as_bytes());
            }
        })
    };
    let mut a = app(game());
    keys(&mut a, &format!(":e {}⏎", fifo.display()));
    let m = a.message().cloned().unwrap();
    assert_eq!(m.level, Level::Error, "{}", m.text);
    assert!(m.text.contains("not a regular file (a FIFO)"), "{}", m.text);
    assert_eq!(a.source().name, "game.kif");
    // Let the writer end: it may still wait for a reader.
    while !writer.is_finished() {
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo);
        std::thread::yield_now();
    }
    writer.join().unwrap();
}

#[test]
fn open_another_file_and_its_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = app(game());
    keys(&mut a, "ll");
    // Missing file: an error on the message line; the record stays.
    let missing = dir.path().join("no such game.kif");
    keys(&mut a, &format!(":e {}⏎", missing.display()));
    let m = a.message().cloned().unwrap();
    assert_eq!(m.level, Level::Error);
    assert!(
        m.text
            .starts_with(&format!("cannot open {}: ", missing.display())),
        "{}",
        m.text
    );
    assert_eq!(a.cur_index(), 2);
    assert_eq!(a.source().name, "game.kif");
    // A directory cannot be read as a record.
    keys(&mut a, &format!(":e {}⏎", dir.path().display()));
    assert_eq!(a.message().as_ref().unwrap().level, Level::Error);
    assert_eq!(a.source().name, "game.kif");
    // No path and no file behind the record.
    keys(&mut a, ":e⏎");
    assert_eq!(message(&a), "game.kif is not a file: give a path (:e PATH)");

    // A file with reader warnings opens, and says so as a normal open does.
    let bad = dir.path().join("warned.kifu");
    std::fs::write(
        &bad,
        "先手：甲\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ９九王(11)\n",
    )
    .unwrap();
    kifview::app::testing::run_until(&mut a, kifview::app::Command::FlipBoard, 2, |a| a.flipped());
    keys(&mut a, &format!(":e {}⏎", bad.display()));
    assert_eq!(a.source().name, "warned.kifu");
    assert_eq!(a.source().path.as_deref(), Some(bad.as_path()));
    assert_eq!(main_line_usi(a.record()), ["7g7f", "3c3d"]);
    assert_eq!(a.cur_index(), 0, "a new file opens at the start");
    assert!(a.flipped(), "the board stays turned");
    let m = a.message().cloned().unwrap();
    assert_eq!(m.level, Level::Warning);
    assert!(m.text.starts_with("warned.kifu:5: "), "{}", m.text);
    // `:e` alone reads the same file again.
    std::fs::write(&bad, "手数----指手--\n   1 ２六歩(27)\n").unwrap();
    keys(&mut a, ":e⏎");
    assert_eq!(main_line_usi(a.record()), ["2g2f"]);
}

#[test]
fn pasted_control_characters_never_reach_the_screen() {
    let mut v = Viewer::new(app(Record::default()), Theme::plain());
    let evil = "先手：\x1b]52;c;ZXZpbA==\x07悪\x1b[2J\n手数----指手--\n   1 ７六歩(77)\n*\x1b[31m赤\u{202e}逆\n";
    keys(&mut v.app, "p");
    paste_text(&mut v.app, evil);
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| v.draw(f)).unwrap();
    let shown = format!("{:?}", t.backend());
    assert!(
        !shown.contains('\x1b') && !shown.contains('\u{202e}'),
        "{shown}"
    );
    assert!(shown.contains("悪"), "{shown}");
    keys(&mut v.app, "^dl");
    assert_eq!(v.app.source().format, Some(Format::Kif));
    t.draw(|f| v.draw(f)).unwrap();
    let shown = format!("{:?}", t.backend());
    assert!(
        !shown.contains('\x1b') && !shown.contains('\u{202e}'),
        "{shown}"
    );
    assert!(shown.contains("赤"), "{shown}");
}

#[test]
fn copy_menu_snapshot() {
    let mut v = Viewer::new(app(game()), Theme::plain());
    keys(&mut v.app, "lly");
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| v.draw(f)).unwrap();
    insta::assert_snapshot!(t.backend());
}

#[test]
fn paste_prompt_snapshot() {
    let mut v = Viewer::new(app(game()), Theme::plain());
    keys(&mut v.app, "p");
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| v.draw(f)).unwrap();
    insta::assert_snapshot!("paste_prompt_empty", t.backend());
    paste_text(
        &mut v.app,
        "開始日時：2024/01/01\r先手：甲\r後手：乙\r\r▲７六歩    △３四歩    ▲２六歩\r",
    );
    t.draw(|f| v.draw(f)).unwrap();
    insta::assert_snapshot!("paste_prompt_ki2", t.backend());
}

#[test]
fn the_paste_prompt_says_when_nothing_looks_like_a_record() {
    let mut v = Viewer::new(app(game()), Theme::plain());
    keys(&mut v.app, "p");
    paste_text(&mut v.app, "hello, world\rsee you\r");
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| v.draw(f)).unwrap();
    let shown = crate::common::screen_rows(&t).join("\n");
    assert!(
        shown.contains("2 lines · nothing here looks like a record")
            && !shown.contains("looks like KIF"),
        "{shown}"
    );
    // A record's text still names its format.
    paste_text(&mut v.app, "+7776FU\r");
    t.draw(|f| v.draw(f)).unwrap();
    let shown = crate::common::screen_rows(&t).join("\n");
    assert!(shown.contains("looks like CSA"), "{shown}");
}

/// Makes an edit, so the record holds something that is on no disk.
fn touch(a: &mut kifview::app::App) {
    let edit = kifview::core::record::Edit::SetComment {
        node: kifview::core::record::NodeId::ROOT,
        text: "edited".into(),
    };
    kifview::app::testing::apply(a, edit).unwrap();
}
