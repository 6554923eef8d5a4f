//! Positions made in the position editor save in every format and read back identically.

use kifview::app::input::{KeyCode, KeyEvent, Modifiers};
use kifview::app::position_editor::{PositionEditor, Preset};
use kifview::core::notation::{self, Format, Target, TextEncoding, TextInfo};
use kifview::core::record::{Initial, Record};
use kifview::core::rules::{HANDICAPS, Handicap, Position};

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
