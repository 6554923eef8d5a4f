//! Positions made in the position editor save in every format and read back identically.

use crate::common::{press, screen, screen_rows, viewer_with};
use kifview::app::dispatch::input::{KeyCode, KeyEvent, Modifiers};
use kifview::app::edit::position_editor::{PositionEditor, Preset};
use kifview::app::{LaunchOptions, Mode};
use kifview::core::notation::{self, Format, Target, TextEncoding, TextInfo};
use kifview::core::record::{Initial, Record};
use kifview::core::rules::{HANDICAPS, Handicap, Position};
use kifview::tui::Viewer;

fn edited(preset: Preset, keys: &str) -> Position {
    let mut e = PositionEditor::new(Position::startpos(), false);
    e.apply_preset(preset);
    for c in keys.chars() {
        let code = match c {
            '⇥' => KeyCode::Tab,
            c => KeyCode::Char(c),
        };
        e.key(KeyEvent {
            code,
            mods: Modifiers::default(),
        });
    }
    e.finish().expect("a valid position").position
}

fn record_of(position: Position) -> Record {
    Record::new(Initial {
        handicap: Handicap::matching(&position),
        position,
    })
}

fn utf8() -> TextInfo {
    TextInfo::new(TextEncoding::Utf8)
}

#[test]
fn edited_positions_read_back_identically_from_every_format() {
    let positions = [
        // A tsume problem: gote's king, sente's pieces, the rest in gote's hand.
        edited(Preset::Tsume, "22S32G13+p⇥G⇥a"),
        // Both kings, gote to move, pieces in both hands.
        edited(Preset::DoubleKingTsume, "t55+B⇥2⇥⇥P9"),
        // Every handicap, untouched.
        edited(Preset::Handicap(1), ""),
        edited(Preset::Handicap(15), ""),
        // A handicap position changed by hand (no longer the preset).
        edited(Preset::Handicap(3), "99x"),
    ];
    for pos in positions {
        let record = record_of(pos.clone());
        for format in Format::ALL {
            let w = notation::render(&record, Target::new(format), &utf8());
            let back = notation::read_text(&w.text, format);
            let got = &back[0].record.initial.position;
            assert_eq!(
                got.to_sfen(),
                pos.to_sfen(),
                "{format:?} of {}:\n{}",
                pos.to_sfen(),
                w.text
            );
            assert!(
                back[0].warnings.is_empty(),
                "{format:?}: {:?}",
                back[0].warnings
            );
        }
    }
}

#[test]
fn kif_writes_a_diagram_and_a_handicap_line_only_for_a_preset() {
    let tsume = record_of(edited(Preset::Tsume, "22S⇥G⇥a"));
    let kif = notation::render(&tsume, Target::new(Format::Kif), &utf8()).text;
    assert!(!kif.contains("手合割"), "{kif}");
    assert!(kif.contains("| ・ ・ ・ ・v玉 ・ ・ ・ ・|一"), "{kif}");
    assert!(kif.contains("先手の持駒：金"), "{kif}");
    let kyo = record_of(edited(Preset::Handicap(1), ""));
    let kif = notation::render(&kyo, Target::new(Format::Kif), &utf8()).text;
    assert!(
        kif.contains(&format!("手合割：{}", HANDICAPS[1].name)),
        "{kif}"
    );
    assert!(!kif.contains("+---"), "a preset needs no diagram: {kif}");
}

#[test]
fn csa_writes_the_board_and_00al_for_the_rest() {
    let tsume = record_of(edited(Preset::Tsume, "22S⇥G⇥a"));
    let csa = notation::render(&tsume, Target::new(Format::Csa), &utf8()).text;
    assert!(csa.contains("P1 *  *  *  * -OU"), "{csa}");
    assert!(csa.contains("P2 *  *  *  *  *  *  * +GI"), "{csa}");
    assert!(csa.contains("P+00KI"), "{csa}");
    assert!(csa.contains("P-00AL"), "{csa}");
}

// ----- the editor in the app -----

fn shown(v: &mut Viewer, w: u16, h: u16) -> String {
    screen_rows(&screen(v, w, h)).join("\n")
}

/// Presses the preset list's entry named `name` (Ctrl-p, down to it, Enter).
fn preset(v: &mut Viewer, name: &str) {
    let i = Preset::all().iter().position(|p| p.name() == name).unwrap();
    press(v, "^p");
    press(v, &"↓".repeat(i));
    press(v, "⏎");
}

#[test]
fn a_tsume_set_up_from_the_keyboard_becomes_the_start_of_an_empty_record() {
    let mut v = viewer_with(&LaunchOptions::default());
    press(&mut v, "S");
    assert_eq!(v.app.mode(), Mode::PositionEditor);
    preset(&mut v, "詰将棋");
    // Gote king 5一, sente silver 2二 and gold 3二, a gold in hand, the rest to gote.
    press(&mut v, "22S32G⇥G⇥a");
    let screen = shown(&mut v, 80, 24);
    insta::assert_snapshot!("position_editor_tsume_80x24", screen);
    press(&mut v, "⏎");
    assert_eq!(v.app.mode(), Mode::Normal);
    let start = v.app.record().initial.position.to_sfen();
    assert_eq!(start, "4k4/6GS1/9/9/9/9/9/9/9 b G2r2b2g3s4n4l18p 1");
    assert!(v.app.is_modified());
    let status = shown(&mut v, 100, 30);
    assert!(status.contains("tsume: sente has no king"), "{status}");
    // One undo step back to the 平手 start, which is the saved state again.
    press(&mut v, "u");
    assert_eq!(
        v.app.record().initial.position.to_sfen(),
        Position::startpos().to_sfen()
    );
    assert!(!v.app.is_modified());
    press(&mut v, "^r");
    assert_eq!(v.app.record().initial.position.to_sfen(), start);
}

#[test]
fn every_validation_rule_keeps_the_editor_open_and_says_why() {
    let mut v = viewer_with(&LaunchOptions::default());
    press(&mut v, ":setup⏎");
    assert_eq!(v.app.mode(), Mode::PositionEditor);
    preset(&mut v, "空の盤 (empty board)");
    // Two pawns on file 5, a pawn that cannot move, a knight on rank 2, no gote king.
    press(&mut v, "55P57P13P92N");
    press(&mut v, "⏎");
    assert_eq!(v.app.mode(), Mode::PositionEditor);
    let screen = shown(&mut v, 100, 32);
    for why in [
        "✗ 二歩: sente has 2 pawns on file 5",
        "✗ 行き所のない駒: sente's 桂 on ９二 can never move",
        "✗ gote has no king (a tsume problem needs gote's king)",
    ] {
        assert!(screen.contains(why), "{why}\n{screen}");
    }
    // Kings: two for gote; then gote in check with sente to move.
    press(&mut v, "57x92x51k59k");
    press(&mut v, "⏎");
    assert!(shown(&mut v, 100, 32).contains("✗ gote has 2 kings (one at most)"));
    press(&mut v, "59x52R");
    press(&mut v, "⏎");
    assert!(shown(&mut v, 100, 32).contains("✗ gote is in check but it is sente's turn"));
    // Esc leaves the record as it was.
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Normal);
    assert!(!v.app.is_modified());
}

#[test]
fn a_record_with_moves_starts_a_new_record_after_asking() {
    let mut v = viewer_with(&LaunchOptions::default());
    press(&mut v, "m7g7f⏎");
    assert!(v.app.is_modified());
    press(&mut v, "S");
    preset(&mut v, "香落ち");
    press(&mut v, "⏎");
    let screen = shown(&mut v, 100, 30);
    assert!(
        screen.contains("has unsaved changes. Start a new record from this position?"),
        "{screen}"
    );
    press(&mut v, "n");
    assert_eq!(v.app.mode(), Mode::PositionEditor);
    press(&mut v, "⏎y");
    assert_eq!(v.app.mode(), Mode::Normal);
    assert_eq!(v.app.record().len(), 1, "a new record has no moves");
    assert_eq!(
        v.app.record().initial.handicap.map(|h| h.name),
        Some("香落ち")
    );
    assert_eq!(v.app.record().header.get("手合割"), Some("香落ち"));
    // 上手 (gote) moves first in a handicap game.
    press(&mut v, "m3c3d⏎");
    assert_eq!(v.app.record().len(), 2);
}

#[test]
fn setup_on_the_command_line_starts_in_the_editor() {
    let mut v = viewer_with(&LaunchOptions {
        setup: true,
        ..Default::default()
    });
    assert_eq!(v.app.mode(), Mode::PositionEditor);
    let screen = shown(&mut v, 160, 48);
    assert!(screen.contains("局面編集"), "{screen}");
    assert!(screen.contains("駒箱：玉0 飛0"), "{screen}");
}

// ----- in the real binary -----

#[test]
fn pty_tsume_set_up_saved_and_read_back_with_show() {
    use crate::pty::Session;
    let out = tempfile::tempdir().unwrap();
    let kif = out.path().join("tsume3.kif");
    let mut s = Session::start(&["--setup", kif.to_str().unwrap()], 24, 80);
    s.wait_for("局面編集");
    // The 詰将棋 preset (Ctrl-p, Down, Enter), then gote 玉 １一, sente 馬 ２三, 角 in hand.
    s.send("\x10");
    s.wait_for("presets");
    s.send("\x1b[B\r");
    s.wait_for("preset: 詰将棋");
    s.send("51x11k23+B\tB\ta");
    s.wait_for("the box's pieces are in gote's hand");
    s.send("\r");
    s.wait_for("the record starts from the edited position");
    s.send("\x13");
    s.wait_for("saved");
    s.send("q");
    s.wait_exit();
    let shown = std::process::Command::new(env!("CARGO_BIN_EXE_kifview"))
        .args(["show", "--sfen", kif.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(shown.status.success(), "{shown:?}");
    assert_eq!(
        String::from_utf8_lossy(&shown.stdout).trim(),
        "8k/9/7+B1/9/9/9/9/9/9 b B2r4g4s4n4l18p 1"
    );
}
