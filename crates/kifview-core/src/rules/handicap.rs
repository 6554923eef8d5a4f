//! The 16 KIF handicap presets (手合割) and the tsume presets.

use super::position::Position;
use std::sync::OnceLock;

const BELOW: &str = "ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

/// A named starting position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Handicap {
    /// KIF `手合割` name.
    pub name: &'static str,
    /// Ranks 1 and 2 of White's camp in SFEN.
    top: &'static str,
    /// Who moves first: false = Black (平手), true = White (handicap games: 上手 moves first).
    white_first: bool,
}

/// Every handicap KIF defines, in Kakinoki's order.
pub const HANDICAPS: [Handicap; 16] = [
    h("平手", "lnsgkgsnl/1r5b1", false),
    h("香落ち", "lnsgkgsn1/1r5b1", true),
    h("右香落ち", "1nsgkgsnl/1r5b1", true),
    h("角落ち", "lnsgkgsnl/1r7", true),
    h("飛車落ち", "lnsgkgsnl/7b1", true),
    h("飛香落ち", "lnsgkgsn1/7b1", true),
    h("二枚落ち", "lnsgkgsnl/9", true),
    h("三枚落ち", "lnsgkgsn1/9", true),
    h("四枚落ち", "1nsgkgsn1/9", true),
    h("五枚落ち", "2sgkgsn1/9", true),
    h("左五枚落ち", "1nsgkgs2/9", true),
    h("六枚落ち", "2sgkgs2/9", true),
    h("左七枚落ち", "2sgkg3/9", true),
    h("右七枚落ち", "3gkgs2/9", true),
    h("八枚落ち", "3gkg3/9", true),
    h("十枚落ち", "4k4/9", true),
];

const fn h(name: &'static str, top: &'static str, white_first: bool) -> Handicap {
    Handicap {
        name,
        top,
        white_first,
    }
}

/// Other spellings seen in real files.
const ALIASES: [(&str, &str); 6] = [
    ("飛落ち", "飛車落ち"),
    ("飛車香落ち", "飛香落ち"),
    ("左香落ち", "香落ち"),
    ("2枚落ち", "二枚落ち"),
    ("4枚落ち", "四枚落ち"),
    ("6枚落ち", "六枚落ち"),
];

impl Handicap {
    pub fn by_name(name: &str) -> Option<Handicap> {
        let name = name.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
        let name = ALIASES
            .iter()
            .find(|(a, _)| *a == name)
            .map(|(_, b)| *b)
            .unwrap_or(name);
        HANDICAPS.iter().copied().find(|h| h.name == name)
    }
    pub fn sfen(&self) -> String {
        format!(
            "{}/{} {} - 1",
            self.top,
            BELOW,
            if self.white_first { "w" } else { "b" }
        )
    }
    /// The preset's position (built once per preset).
    pub fn position(&self) -> Position {
        let i = HANDICAPS.iter().position(|h| h == self).expect("a preset");
        if i == 0 {
            // The even game, which most records start from: no need to build the others.
            return Position::startpos();
        }
        presets()[i].clone()
    }
    /// The preset whose position equals `pos` (board, hands, side), if any. The presets'
    /// positions are built once; comparing them (a few short `memcmp`s) costs less than
    /// hashing `pos` square by square did.
    pub fn matching(pos: &Position) -> Option<Handicap> {
        if pos.same_placement(&Position::startpos()) {
            return Some(HANDICAPS[0]);
        }
        let i = presets().iter().position(|p| p.same_placement(pos))?;
        Some(HANDICAPS[i])
    }
    pub fn is_even(&self) -> bool {
        !self.white_first
    }
}

/// Each preset's position, built once, in the order of [`HANDICAPS`].
fn presets() -> &'static [Position] {
    static PRESETS: OnceLock<Vec<Position>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        HANDICAPS
            .iter()
            .map(|h| Position::from_sfen(&h.sfen()).expect("preset SFEN is valid"))
            .collect()
    })
}

/// `詰将棋`: White king on 5一, every other piece in White's hand.
pub fn tsume_position() -> Position {
    Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1").expect("valid")
}
/// `双玉詰将棋`: both kings, every other piece in White's hand.
pub fn double_king_tsume_position() -> Position {
    Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1").expect("valid")
}
