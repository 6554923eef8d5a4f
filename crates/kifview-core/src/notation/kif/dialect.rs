//! The dialect of a KIF file: how the program that wrote it lays out what the grammar leaves
//! open (the padding of the `手合割` line, the move and time columns, `竜` or `龍`, the closing
//! `まで…` lines). [`Scan`] reads it from the lines the reader classifies; the writer takes it
//! (through [`crate::notation::Target`]) so that saving a file back changes only what was
//! edited.
//! A new file or a conversion gets kifview's own style, [`KifDialect::default`] (Kifu for
//! Windows').

use super::line::{KifLine, is_ending_word, move_number, skip_spaces};
use crate::notation::japanese;

/// How a move's time is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TimeStyle {
    /// Kifu for Windows, ShogiHome, kifview: `( 0:16/00:00:16)`.
    #[default]
    Kakinoki,
    /// Shogidokoro: `(00:16 / 00:00:16)`.
    Shogidokoro,
    /// shogidb2: `(00:16/00:00:16)`.
    ZeroPadded,
}

/// How the closing line names a game ended by mate (`詰み`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum MateResult {
    /// `まで7手で先手の勝ち` (Kifu for Windows' games, kifview).
    #[default]
    Winner,
    /// `まで7手詰` (Kifu for Windows' tsume problems).
    Tsume,
    /// `まで7手で詰`.
    Short,
}

/// The layout choices of one KIF file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct KifDialect {
    /// The U+3000 after the `手合割` name (Kifu for Windows: two, `手合割：平手　　`).
    pub handicap_pad: u8,
    /// Move numbers right-aligned in 4 columns (`   1 ７六歩(77)`); else `1 ７六歩(77)`.
    pub padded_numbers: bool,
    /// The columns of the move before its time or `+` (13 in Kifu for Windows; 0: one
    /// space).
    pub move_field: u8,
    /// The columns a move without a time is padded to with trailing spaces (old Kifu for
    /// Windows: 12; 0: none).
    pub untimed_field: u8,
    /// `同　歩` (else `同歩`).
    pub same_space: bool,
    pub mate_result: MateResult,
    /// A line that ends without a closing line is followed by a blank line in its place
    /// (before the next `変化`; old Kifu for Windows).
    pub blank_for_result: bool,
    /// `move_field` counts characters (ShogiGUI: 15), not display columns.
    pub field_in_chars: bool,
    /// Moves with alternatives end in `+` (Shogidokoro writes none).
    pub plus_marks: bool,
    /// The dashes after `指手` on a `手数----指手--` line without `消費時間` (0: the whole
    /// `手数----指手---------消費時間--`).
    pub short_moves_header: u8,
    /// The `手合割` line a file has beside its board diagram (`手合割：平手　　` above a tsume
    /// diagram in Kifu for Windows), by name.
    pub board_handicap: Option<&'static str>,
    /// Hands of a board diagram end with `　` (`後手の持駒：飛　歩四　`).
    pub hand_pad: bool,
    /// Blank lines after the last line (a ShogiHome file ends with one).
    pub trailing_blanks: u8,
    /// The last line ends with a line break.
    pub final_newline: bool,
    pub time: TimeStyle,
    /// Moves of a dragon written `竜` (else `龍`).
    pub ryu: bool,
    /// A closing `まで…` line after the main line when it ends in an ending word.
    pub result_line: bool,
    /// A closing `まで…` line after each variation that ends in an ending word, too.
    pub variation_results: bool,
}

impl Default for KifDialect {
    fn default() -> Self {
        KifDialect {
            handicap_pad: 0,
            untimed_field: 0,
            same_space: true,
            mate_result: MateResult::Winner,
            blank_for_result: false,
            padded_numbers: true,
            move_field: 13,
            field_in_chars: false,
            plus_marks: true,
            short_moves_header: 0,
            board_handicap: None,
            hand_pad: true,
            trailing_blanks: 0,
            final_newline: true,
            time: TimeStyle::Kakinoki,
            ryu: false,
            result_line: true,
            variation_results: false,
        }
    }
}

/// Display width of KIF text: ASCII is one column, everything else two.
pub(super) fn width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// A timed (or `+`) move line's layout: padded numbers, the move's display width, its
/// characters, the spaces after it, and the time style.
struct MoveLayout {
    padded: bool,
    width: usize,
    chars: usize,
    spaces: usize,
    time: Option<TimeStyle>,
}

fn move_layout(l: &str) -> Option<MoveLayout> {
    let (_, rest) = move_number(skip_spaces(l))?;
    let body = rest.strip_prefix(' ').unwrap_or(rest);
    let (moved, time) = match body.rfind('(') {
        Some(at) if body[at..].contains('/') => (&body[..at], Some(&body[at..])),
        _ => (body.strip_suffix('+')?, None),
    };
    let mv = moved.trim_end_matches(' ');
    let time = time.map(|t| {
        // (Bytes, not `contains(" / ")`: a string search costs a call per line.)
        if t.as_bytes()
            .windows(3)
            .any(|w| w[0] == b' ' && w[1] == b'/' && w[2] == b' ')
        {
            TimeStyle::Shogidokoro
        } else if t.starts_with("(0") {
            TimeStyle::ZeroPadded
        } else {
            TimeStyle::Kakinoki
        }
    });
    Some(MoveLayout {
        padded: l.starts_with(' '),
        width: width(mv),
        chars: mv.chars().count(),
        spaces: moved.len() - mv.len(),
        time,
    })
}

/// What the move lines measured say: the move field and whether it counts characters.
#[derive(Default)]
struct Fields {
    by_width: Option<Option<usize>>,
    by_chars: Option<Option<usize>>,
    compact: bool,
    untimed: Option<Option<usize>>,
}

/// Records `v` as the value seen, or `None` once two values differ.
fn same(seen: &mut Option<Option<usize>>, v: usize) {
    match seen {
        None => *seen = Some(Some(v)),
        Some(s) if *s != Some(v) => *s = None,
        _ => {}
    }
}

impl Fields {
    fn add(&mut self, m: &MoveLayout) {
        if m.spaces > 1 {
            same(&mut self.by_width, m.width + m.spaces);
            same(&mut self.by_chars, m.chars + m.spaces);
        } else {
            // One space: a move too long for the field, or no field at all.
            self.compact = true;
        }
    }
    fn untimed(&mut self, width: usize) {
        same(&mut self.untimed, width);
    }
    fn apply(&self, d: &mut KifDialect) {
        let field = |f: Option<Option<usize>>| f.flatten().and_then(|v| u8::try_from(v).ok());
        if let Some(w) = field(self.untimed) {
            d.untimed_field = w;
        }
        if self.compact && self.by_width.is_none() {
            d.move_field = 0;
        } else if let Some(w) = field(self.by_width) {
            d.move_field = w;
        } else if let Some(c) = field(self.by_chars) {
            d.move_field = c;
            d.field_in_chars = true;
        }
    }
}

/// The dialect of KIF text, read line by line from the reader's classified lines
/// ([`super::read_with_dialect`]); what the text does not show stays kifview's own.
pub(super) struct Scan {
    d: KifDialect,
    fields: Fields,
    measured: usize,
    numbers_seen: bool,
    in_variation: bool,
    plus_seen: bool,
    main_result: bool,
    main_ending: bool,
    handicap: Option<&'static str>,
    blanks: usize,
    after_move: bool,
}

impl Scan {
    pub(super) fn new() -> Scan {
        Scan {
            d: KifDialect::default(),
            fields: Fields::default(),
            measured: 0,
            numbers_seen: false,
            in_variation: false,
            plus_seen: false,
            main_result: false,
            main_ending: false,
            handicap: None,
            blanks: 0,
            after_move: false,
        }
    }

    pub(super) fn line(&mut self, l: &str, kind: &KifLine<'_>) {
        if matches!(*kind, KifLine::Variation(_)) && self.blanks >= 2 && self.after_move {
            self.d.blank_for_result = true;
        }
        if matches!(*kind, KifLine::Blank) && l.is_empty() {
            self.blanks += 1;
        } else {
            self.after_move = matches!(*kind, KifLine::Move(..));
            self.blanks = 0;
        }
        match *kind {
            KifLine::Header("手合割", value) => {
                let pads = value.len() - value.trim_end_matches('\u{3000}').len();
                self.d.handicap_pad = u8::try_from(pads / 3).unwrap_or(0);
                self.handicap = board_handicap_name(value.trim_end_matches('\u{3000}'));
            }
            KifLine::Board(_) if l.contains("の持駒：") => {
                self.d.board_handicap = self.handicap;
                self.d.hand_pad = l.ends_with('\u{3000}') || l.ends_with("なし");
            }
            KifLine::MovesHeader if !l.contains("消費時間") => {
                let dashes = l.rsplit("指手").next().unwrap_or("");
                self.d.short_moves_header = u8::try_from(dashes.len()).unwrap_or(0);
            }
            KifLine::Move(_, rest) => {
                if !self.numbers_seen {
                    self.numbers_seen = true;
                    self.d.padded_numbers = l.starts_with(' ');
                }
                self.plus_seen |= l.ends_with('+');
                if self.measured < 400
                    && let Some(m) = move_layout(l)
                {
                    if self.measured == 0 {
                        self.d.padded_numbers = m.padded;
                        self.d.time = m.time.unwrap_or_default();
                    }
                    self.measured += 1;
                    self.fields.add(&m);
                }
                // The usual line has one space after its number.
                let body = match rest.strip_prefix(' ') {
                    Some(b) if !b.starts_with([' ', '\u{3000}', '\t']) => b,
                    _ => skip_spaces(rest),
                };
                let piece = piece_written(body);
                // A move (a square, or 同, then its piece) is never an ending word: only the
                // other lines are parsed again to see whether they are one.
                if !self.in_variation && piece.is_none() {
                    let word = body.split([' ', '\u{3000}', '(']).next();
                    if word.is_some_and(|w| !w.is_empty() && is_ending_word(w)) {
                        self.main_ending = true;
                    }
                }
                if let Some((same, piece)) = piece {
                    self.d.ryu |= piece.starts_with('竜');
                    if same == Same::Close && piece.starts_with(['歩', '銀']) {
                        self.d.same_space = false;
                    }
                }
                if let Some(w) = untimed_width(l) {
                    self.fields.untimed(w);
                }
            }
            KifLine::Variation(_) => {
                self.in_variation = true;
            }
            KifLine::Result => {
                if self.in_variation {
                    self.d.variation_results = true;
                } else {
                    self.main_result = true;
                }
                let m = mate_result(l.trim_end());
                if m != MateResult::Winner {
                    self.d.mate_result = m;
                }
            }
            _ => {}
        }
    }

    /// The dialect, once every line of `text` went through [`Scan::line`].
    pub(super) fn finish(self, text: &str) -> KifDialect {
        let mut d = self.d;
        self.fields.apply(&mut d);
        d.plus_marks = self.plus_seen || !self.in_variation;
        d.result_line = self.main_result || !self.main_ending;
        // `lines` gives an empty last line after a final line break.
        d.final_newline = text.ends_with(['\n', '\r']) || text.is_empty();
        d.trailing_blanks = u8::try_from(self.blanks.saturating_sub(1)).unwrap_or(u8::MAX);
        d
    }
}

/// How a move names its square: a square (`７六`), or `同` with or without the U+3000 after it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Same {
    Square,
    Spaced,
    Close,
}

/// The piece of a move as `body` writes it (the text after its square, from the piece's name
/// on) and how its square is written; `None` for what does not start with a square or `同`
/// (an ending word). A side mark (`▲`) before the square is passed over. Reads a few bytes:
/// this runs for every move line of every KIF file read.
fn piece_written(body: &str) -> Option<(Same, &str)> {
    let mut b = body;
    // The side marks all start with the byte 0xE2 (see `parse_move_body`).
    if b.as_bytes().first() == Some(&0xE2) {
        b = b.strip_prefix(['▲', '△', '▼', '▽', '☗', '☖'])?;
    }
    if let Some(after) = b.strip_prefix('同') {
        return Some(match after.strip_prefix('\u{3000}') {
            Some(piece) => (Same::Spaced, piece),
            None => (Same::Close, after),
        });
    }
    // The usual square, `７六`: a full-width digit (EF BC 91..99) and a kanji numeral.
    // (一 二 三 四 五 六 七 八 九 by their bytes: nine string compares cost more.)
    if let [0xEF, 0xBC, 0x91..=0x99, r0, r1, r2, ..] = *b.as_bytes()
        && matches!(
            [r0, r1, r2],
            [0xE4, 0xB8, 0x80 | 0x89 | 0x83]
                | [0xE4, 0xBA, 0x8C | 0x94]
                | [0xE5, 0x9B, 0x9B]
                | [0xE5, 0x85, 0xAD | 0xAB]
                | [0xE4, 0xB9, 0x9D]
        )
    {
        return Some((Same::Square, &b[6..]));
    }
    // Another square (`76`), then the piece; `61手詰` (an ending word) starts as a square.
    let (_, n) = japanese::square_prefix(b)?;
    let piece = &b[n..];
    if piece.starts_with(|c: char| c == '手' || c.is_ascii_digit() || ('０'..='９').contains(&c))
    {
        return None;
    }
    Some((Same::Square, piece))
}

/// The display width a move line without a time or `+` is padded to with trailing spaces, if
/// it is.
fn untimed_width(l: &str) -> Option<usize> {
    let body = l.strip_suffix(' ')?;
    if body.ends_with([')', '+']) && body.contains('/') {
        return None;
    }
    let (_, rest) = move_number(skip_spaces(l))?;
    let rest = rest.strip_prefix(' ')?;
    Some(width(rest))
}

/// The wording of a closing line after a mate.
fn mate_result(l: &str) -> MateResult {
    let Some(rest) = l.strip_prefix("まで") else {
        return MateResult::Winner;
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    match rest {
        "手詰" => MateResult::Tsume,
        "手で詰" => MateResult::Short,
        _ => MateResult::Winner,
    }
}

/// The name of a `手合割` line written beside a board diagram, as the writer writes it.
fn board_handicap_name(name: &str) -> Option<&'static str> {
    if name == "その他" {
        return Some("その他");
    }
    crate::rules::Handicap::by_name(name).map(|h| h.name)
}

#[cfg(test)]
mod tests {
    use super::{Same, piece_written};

    #[test]
    fn the_piece_of_a_move_is_found_after_its_square() {
        for (body, expected) in [
            ("７六歩(77)", Some((Same::Square, "歩(77)"))),
            ("２二竜(28)", Some((Same::Square, "竜(28)"))),
            ("▲２二龍(28)", Some((Same::Square, "龍(28)"))),
            ("同　歩(76)", Some((Same::Spaced, "歩(76)"))),
            ("同歩(76)", Some((Same::Close, "歩(76)"))),
            ("△同銀(77)", Some((Same::Close, "銀(77)"))),
            ("同成銀(77)", Some((Same::Close, "成銀(77)"))),
            ("５五角打", Some((Same::Square, "角打"))),
            ("投了", None),
            ("61手詰", None),
            ("131手詰", None),
            ("76歩(77)", Some((Same::Square, "歩(77)"))),
            ("１", None),
            ("１十歩", None),
            ("", None),
            ("▲", None),
        ] {
            assert_eq!(piece_written(body), expected, "{body}");
        }
        // Every square as the writer writes it.
        for file in 1..=9 {
            for rank in 1..=9 {
                let sq = crate::rules::Square::new(file, rank).unwrap();
                let body = format!("{}金(11)", crate::notation::japanese::square_kif(sq));
                assert_eq!(
                    piece_written(&body),
                    Some((Same::Square, "金(11)")),
                    "{body}"
                );
            }
        }
    }
}
