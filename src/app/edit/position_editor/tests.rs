use super::*;
use crate::app::dispatch::input::Modifiers;

fn keys(e: &mut PositionEditor, s: &str) -> AfterKey {
    let mut last = AfterKey::Continue;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let (code, ctrl) = match c {
            '⏎' => (KeyCode::Enter, false),
            '⎋' => (KeyCode::Esc, false),
            '⇥' => (KeyCode::Tab, false),
            '⇤' => (KeyCode::BackTab, false),
            '←' => (KeyCode::Left, false),
            '→' => (KeyCode::Right, false),
            '↑' => (KeyCode::Up, false),
            '↓' => (KeyCode::Down, false),
            '^' => (KeyCode::Char(chars.next().expect("ctrl key")), true),
            c => (KeyCode::Char(c), false),
        };
        last = e.key(KeyEvent {
            code,
            mods: Modifiers {
                ctrl,
                ..Modifiers::default()
            },
        });
    }
    last
}

fn sq(f: u8, r: u8) -> Square {
    Square::new(f, r).unwrap()
}

fn empty() -> PositionEditor {
    let mut e = PositionEditor::new(Position::startpos(), false);
    e.apply_preset(Preset::Empty);
    e
}

#[test]
fn the_box_holds_the_rules_set() {
    for (i, n) in SET.iter().enumerate() {
        assert_eq!(*n, u32::from(PieceKind::ALL[i].set_count()));
    }
}

#[test]
fn typing_square_and_piece_puts_it_there() {
    let mut e = empty();
    keys(&mut e, "51k52G");
    assert_eq!(
        e.position().piece_at(sq(5, 1)),
        Some(Piece::new(PieceKind::King, Color::White))
    );
    assert_eq!(
        e.position().piece_at(sq(5, 2)),
        Some(Piece::new(PieceKind::Gold, Color::Black))
    );
    // Kanji are sente's pieces; `+` before a letter promotes it.
    keys(&mut e, "33銀43+p");
    assert_eq!(
        e.position().piece_at(sq(3, 3)),
        Some(Piece::new(PieceKind::Silver, Color::Black))
    );
    assert_eq!(
        e.position().piece_at(sq(4, 3)),
        Some(Piece::new(PieceKind::ProPawn, Color::White))
    );
    assert_eq!(e.cursor, sq(4, 3));
}

#[test]
fn flip_owner_toggle_promotion_and_empty() {
    let mut e = empty();
    keys(&mut e, "77B");
    keys(&mut e, "v");
    assert_eq!(
        e.position().piece_at(sq(7, 7)),
        Some(Piece::new(PieceKind::Bishop, Color::White))
    );
    keys(&mut e, "+");
    assert_eq!(
        e.position().piece_at(sq(7, 7)).unwrap().kind,
        PieceKind::Horse
    );
    keys(&mut e, "+");
    assert_eq!(
        e.position().piece_at(sq(7, 7)).unwrap().kind,
        PieceKind::Bishop
    );
    keys(&mut e, "x");
    assert_eq!(e.position().piece_at(sq(7, 7)), None);
    keys(&mut e, "55G+");
    assert_eq!(e.message.as_deref(), Some("金 does not promote"));
}

#[test]
fn arrows_move_the_cursor_and_respect_the_flip() {
    let mut e = empty();
    keys(&mut e, "55←↑");
    assert_eq!(e.cursor, sq(6, 4));
    keys(&mut e, "f→↓↓");
    // Flipped: right on screen is towards file 9, down towards rank 1.
    assert_eq!(e.cursor, sq(7, 2));
    keys(&mut e, "f11→↑");
    assert_eq!(e.cursor, sq(1, 1), "the cursor stops at the edge");
}

#[test]
fn the_piece_box_gives_what_the_set_holds_and_no_more() {
    let mut e = empty();
    assert_eq!(e.in_box(), SET);
    keys(&mut e, "11R21R");
    assert_eq!(e.in_box()[PieceKind::Rook as usize], 0);
    keys(&mut e, "31R");
    assert_eq!(e.position().piece_at(sq(3, 1)), None);
    assert_eq!(
        e.message.as_deref(),
        Some("more pieces than the set holds: 飛 3 of 2")
    );
    // Replacing a piece gives the old one back to the box.
    keys(&mut e, "21B");
    assert_eq!(e.in_box()[PieceKind::Rook as usize], 1);
    assert_eq!(e.in_box()[PieceKind::Bishop as usize], 1);
    // A promoted piece counts as its kind.
    keys(&mut e, "31+r");
    assert_eq!(e.in_box()[PieceKind::Rook as usize], 0);
}

#[test]
fn a_piece_put_on_the_board_comes_from_a_hand_when_the_box_is_empty() {
    let mut e = PositionEditor::new(Position::startpos(), false);
    keys(&mut e, "^p");
    e.apply_preset(Preset::Tsume);
    keys(&mut e, "a");
    assert_eq!(e.position().hand_count(Color::White, PieceKind::Gold), 4);
    keys(&mut e, "52G");
    assert_eq!(e.position().hand_count(Color::White, PieceKind::Gold), 3);
    assert_eq!(e.in_box().iter().take(7).sum::<u32>(), 0);
}

#[test]
fn hands_take_digits_plus_and_minus() {
    let mut e = empty();
    keys(&mut e, "⇥");
    assert_eq!(e.region, Region::Hand(Color::Black));
    keys(&mut e, "2");
    assert_eq!(e.position().hand_count(Color::Black, PieceKind::Rook), 2);
    keys(&mut e, "+");
    assert_eq!(e.position().hand_count(Color::Black, PieceKind::Rook), 2);
    assert_eq!(
        e.message.as_deref(),
        Some("more pieces than the set holds: 飛 3 of 2")
    );
    keys(&mut e, "P18");
    assert_eq!(e.position().hand_count(Color::Black, PieceKind::Pawn), 18);
    keys(&mut e, "--");
    assert_eq!(e.position().hand_count(Color::Black, PieceKind::Pawn), 16);
    keys(&mut e, "⇥↑3");
    assert_eq!(e.region, Region::Hand(Color::White));
    assert_eq!(e.position().hand_count(Color::White, PieceKind::Lance), 3);
}

#[test]
fn box_to_gote_is_the_tsume_convention() {
    let mut e = PositionEditor::new(Position::startpos(), false);
    e.apply_preset(Preset::Tsume);
    assert_eq!(
        e.position().piece_at(sq(5, 1)),
        Some(Piece::new(PieceKind::King, Color::White))
    );
    keys(&mut e, "22S32G");
    keys(&mut e, "a");
    let p = e.position();
    assert_eq!(p.hand_count(Color::White, PieceKind::Pawn), 18);
    assert_eq!(p.hand_count(Color::White, PieceKind::Gold), 3);
    assert_eq!(p.hand_count(Color::White, PieceKind::Silver), 3);
    assert_eq!(p.hand_count(Color::White, PieceKind::Rook), 2);
    // The kings stay in the box: the other king is not given to gote.
    assert_eq!(e.in_box()[PieceKind::King as usize], 1);
}

#[test]
fn undo_and_redo_single_edits() {
    let mut e = empty();
    keys(&mut e, "51k52G");
    keys(&mut e, "u");
    assert_eq!(e.position().piece_at(sq(5, 2)), None);
    keys(&mut e, "u");
    assert_eq!(e.position().piece_at(sq(5, 1)), None);
    keys(&mut e, "^r");
    assert!(e.position().piece_at(sq(5, 1)).is_some());
    keys(&mut e, "t");
    assert_eq!(e.position().side_to_move(), Color::White);
    keys(&mut e, "u");
    assert_eq!(e.position().side_to_move(), Color::Black);
}

#[test]
fn every_preset() {
    for preset in Preset::all() {
        let mut e = PositionEditor::new(Position::startpos(), false);
        keys(&mut e, "55x");
        e.apply_preset(preset);
        let p = e.position();
        match preset {
            Preset::Handicap(i) => assert_eq!(p.to_sfen(), HANDICAPS[i].sfen()),
            Preset::Empty => assert_eq!(p.to_sfen(), "9/9/9/9/9/9/9/9/9 b - 1"),
            Preset::Tsume => {
                assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/9 b - 1");
                assert_eq!(e.in_box()[..7], SET[..7]);
            }
            Preset::DoubleKingTsume => assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b - 1"),
            // The position the editor was opened on, not the edited one.
            Preset::Current => assert_eq!(p.to_sfen(), Position::startpos().to_sfen()),
        }
        assert!(e.message.as_deref().unwrap().contains(preset.name()));
    }
    assert_eq!(Preset::all().len(), 20);
}

fn errors(sfen: &str) -> Vec<String> {
    validate(&Position::from_sfen(sfen).unwrap()).unwrap_err()
}

#[test]
fn validation_names_each_rule() {
    assert_eq!(
        errors("4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1"),
        ["二歩: sente has 2 pawns on file 5"]
    );
    assert_eq!(
        errors("4k4/9/9/9/9/9/9/9/4K3p b - 1"),
        ["行き所のない駒: gote's 歩 on １九 can never move"]
    );
    assert_eq!(
        errors("4k4/9/9/9/9/9/9/9/4K3l b - 1"),
        ["行き所のない駒: gote's 香 on １九 can never move"]
    );
    assert_eq!(
        errors("N3k4/9/9/9/9/9/9/9/4K4 b - 1"),
        ["行き所のない駒: sente's 桂 on ９一 can never move"]
    );
    assert_eq!(
        errors("4k4/N8/9/9/9/9/9/9/4K4 b - 1"),
        ["行き所のない駒: sente's 桂 on ９二 can never move"]
    );
    assert_eq!(
        errors("3kk4/9/9/9/9/9/9/9/4K4 b - 1"),
        [
            "more pieces than the set holds: 玉 3 of 2",
            "gote has 2 kings (one at most)"
        ]
    );
    assert_eq!(
        errors("9/9/9/9/9/9/9/9/4K4 b - 1"),
        ["gote has no king (a tsume problem needs gote's king)"]
    );
    assert_eq!(
        errors("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"),
        ["gote is in check but it is sente's turn"]
    );
    // The same check with gote to move is a position gote must answer: fine.
    assert!(validate(&Position::from_sfen("4k4/4R4/9/9/9/9/9/9/4K4 w - 1").unwrap()).is_ok());
    // Too many pieces for the set.
    assert_eq!(
        errors("4k4/9/9/9/9/9/9/9/4K4 b 3R 1"),
        ["more pieces than the set holds: 飛 3 of 2"]
    );
}

#[test]
fn tsume_relaxes_only_sentes_king_and_says_so() {
    let ok = validate(&Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap()).unwrap();
    assert_eq!(ok.relaxed, ["tsume: sente has no king"]);
    let even = validate(&Position::startpos()).unwrap();
    assert!(even.relaxed.is_empty());
}

#[test]
fn enter_esc_and_preset_keys_report_to_the_app() {
    let mut e = empty();
    assert_eq!(keys(&mut e, "^p"), AfterKey::PickPreset);
    assert_eq!(keys(&mut e, "⎋"), AfterKey::Cancel);
    assert_eq!(keys(&mut e, "⏎"), AfterKey::Finish);
    assert!(e.finish().is_err(), "an empty board has no gote king");
    keys(&mut e, "51k");
    assert!(e.finish().is_ok());
}
