//! Diagrams: a position drawn as printed books and Kifu for Windows draw it, as SVG (text) or
//! PNG (through resvg), without a terminal, a browser or a system library.
//!
//! - [`Diagram`] is what one picture shows: the position, whose view, the last move's square,
//!   both sides' labels, names and hands, the piece box of a tsume problem and a caption.
//!   [`Diagram::at`] takes it from a record's node.
//! - [`svg::write`] lays it out: the 9x9 board with ９…１ above and 一…九 on the right, gote's
//!   pieces turned 180°, gote's hand above the board and sente's below (swapped by `flip`), the
//!   box and the caption under them. Lines and shapes need no font; the kanji are text with a
//!   font stack of common Japanese fonts.
//! - [`render`] draws that SVG into a PNG, or turns its text into outlines
//!   (`--outline-text`), with the bundled font (`assets/fonts`: a subset of Noto Serif CJK JP,
//!   OFL) so that the kanji show on a machine with no Japanese font. A character the subset
//!   lacks (a level-2 kanji of a name) comes from an installed font that has it, else it is drawn as 〓
//!   and a warning says so.
//! - [`names`] names output files (`game-ply040.svg`, a bookmark's name: no format
//!   characters, cut by bytes to stay under NAME_MAX); `kifview diagram` makes each input's
//!   stem unique in its run and writes through `store::save_new` (no link followed, no file
//!   replaced without `--force`).
//!
//! Text from files (names, bookmarks) is untrusted: control and format characters
//! ([`hidden`]) are dropped and the rest escaped before it goes into the SVG.

pub mod names;
pub mod render;
pub mod svg;

use crate::core::notation::japanese;
use crate::core::record::{NodeId, Record};
use crate::core::rules::{Color, PieceKind, Position, Square};

/// One side's line: `▲先手 NAME 持駒 飛 角 歩三`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// `先手`/`後手`, or `下手`/`上手` in a handicap game.
    pub label: &'static str,
    /// The player's name, when the record has one.
    pub name: Option<String>,
}

/// What one diagram shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    pub position: Position,
    /// Gote's view: gote's pieces upright at the bottom, file １ on the left.
    pub flip: bool,
    /// The square the last move went to (marked when the theme says so).
    pub last_to: Option<Square>,
    /// Sente's and gote's lines, in [`Color::index`] order.
    pub sides: [Side; 2],
    /// Pieces in the box (駒箱): a position without sente's king (a tsume problem) that is
    /// not a handicap game, with pieces of the 40-piece set on neither the board nor a hand.
    pub piece_box: Vec<(PieceKind, u8)>,
    /// `第40手 ▲７六歩まで`, or a bookmark's name; none at a record's start.
    pub caption: Option<String>,
}

/// How a diagram looks: colours are CSS colours (`#rrggbb`, a name), the font a CSS family list
/// put before the built-in stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Behind everything.
    pub background: String,
    /// The board's squares.
    pub board: String,
    /// Grid, border and star points.
    pub line: String,
    /// Pieces, hands, labels and the caption.
    pub text: String,
    /// Promoted pieces (と 杏 圭 全 馬 龍) on the board.
    pub promoted: String,
    /// The last move's square.
    pub highlight: String,
    /// Mark the last move's square.
    pub mark_last_move: bool,
    /// Font families tried before the built-in stack (`"Yu Mincho"`, `"'IPAexMincho', serif"`).
    pub piece_font: String,
}

impl Default for Theme {
    fn default() -> Theme {
        Theme {
            background: "#ffffff".into(),
            board: "#f6dfa6".into(),
            line: "#222222".into(),
            text: "#000000".into(),
            promoted: "#b00000".into(),
            highlight: "#f0a860".into(),
            mark_last_move: true,
            piece_font: String::new(),
        }
    }
}

impl Diagram {
    /// The diagram of the position at `node` of `record`, from sente's view unless `flip`.
    /// The caption is the node's bookmark, else `第N手 ▲７六歩まで` (none before any move).
    pub fn at(record: &Record, node: NodeId, flip: bool) -> Diagram {
        let position = record.position_at(node);
        let handicap = record.initial.is_handicap_game();
        let (bl, wl) = if handicap {
            ("下手", "上手")
        } else {
            ("先手", "後手")
        };
        let name = |n: Option<&str>| n.map(str::trim).filter(|n| !n.is_empty()).map(clean);
        let piece_box = if !handicap && position.king_square(Color::Black).is_none() {
            position.missing_pieces().into_iter().rev().collect()
        } else {
            Vec::new()
        };
        let last = last_move(record, node);
        let last_to = last
            .as_ref()
            .and_then(|(l, _)| record.node(*l).move_data())
            .map(|md| md.mv.to());
        let caption = match &record.node(node).bookmark {
            Some(b) if !b.trim().is_empty() => Some(clean(b.trim())),
            _ => last.map(|(l, text)| {
                let md = record.node(l).move_data().expect("a move node");
                let ply = record.moves_before() + record.node(l).ply;
                format!("第{ply}手 {}{text}まで", md.color.mark())
            }),
        };
        Diagram {
            last_to,
            position,
            flip,
            sides: [
                Side {
                    label: bl,
                    name: name(record.header.black_name()),
                },
                Side {
                    label: wl,
                    name: name(record.header.white_name()),
                },
            ],
            piece_box,
            caption,
        }
    }

    /// A bare position (`--sfen`): no names, no last move, no caption.
    pub fn of_position(position: Position, flip: bool) -> Diagram {
        let mut record = Record::new(crate::core::record::Initial {
            position,
            handicap: None,
        });
        record.header.fields.clear();
        Diagram::at(&record, record.root(), flip)
    }
}

/// The last move played up to `node` (a special such as 投了 shows the move before it) and its
/// KIF text without the origin (`７六歩`, `同　歩`).
fn last_move(record: &Record, node: NodeId) -> Option<(NodeId, String)> {
    let mut at = Some(node);
    while let Some(c) = at {
        if let Some(md) = record.node(c).move_data() {
            let prev_to = record
                .node(c)
                .parent
                .and_then(|p| record.node(p).move_data())
                .map(|m| m.mv.to());
            let text = japanese::kif_move(md, prev_to);
            let short = text.split('(').next().unwrap_or(&text).to_string();
            return Some((c, short));
        }
        at = record.node(c).parent;
    }
    None
}

/// A hand (or the box) as a diagram writes it: `飛 角 歩三`, `なし` when empty.
pub fn hand_text(pieces: &[(PieceKind, u8)]) -> String {
    if pieces.is_empty() {
        return "なし".into();
    }
    let mut out = String::new();
    for &(k, n) in pieces {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push(k.board_char());
        if n > 1 {
            out.push_str(&japanese::kanji_count(u32::from(n)));
        }
    }
    out
}

/// Text from a file without control characters (which XML cannot hold and terminals act on)
/// and format characters (U+202E turns the rest of a line around, U+200B is invisible).
fn clean(s: &str) -> String {
    s.chars().filter(|&c| !hidden(c)).collect()
}

/// A character a diagram's caption or file name leaves out: what a terminal must not get
/// ([`crate::core::text::is_unsafe`]: controls, bidirectional controls, invisible ones) and
/// the other format characters (soft hyphen, joiners, tags, interlinear annotation).
pub fn hidden(c: char) -> bool {
    crate::core::text::is_unsafe(c)
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{0600}'..='\u{0605}'
                | '\u{06DD}'
                | '\u{070F}'
                | '\u{180E}'
                | '\u{200D}'
                | '\u{206A}'..='\u{206F}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{110BD}'
                | '\u{E0000}'..='\u{E007F}'
        )
}
