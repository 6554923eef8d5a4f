//! KI2 (`.ki2` Shift_JIS, `.ki2u` UTF-8): KIF headers and board diagrams, then moves written
//! without source squares (`▲７六歩　△３四歩`, several per line), disambiguated with
//! 右 左 直 上 引 寄 and 打 as the JSA notation rules say, closed by a `まで…` line.
//!
//! Reading resolves each move among the pieces of the named kind that can reach the named square
//! by the rules' own movement (pins ignored, as real records contain illegal moves); writing
//! renders the same rules (the suffix logic follows tsshogi's `getDirectionModifier`, which the
//! corpus was made with). The header part is KIF's (`kif::Setup`), the record is built by the
//! shared record builder.

mod moves;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use moves::{Token, direction_suffix, line_text, move_text, parse_token};
pub use read::read;
pub use write::write;

use super::japanese::{self, square_prefix};
use crate::rules::Color;

/// Side marks accepted in front of a move.
const MARKS: [char; 6] = ['▲', '△', '▼', '▽', '☗', '☖'];

pub(super) fn is_mark(c: char) -> bool {
    MARKS.contains(&c)
}

pub(super) fn mark_color(c: char) -> Color {
    match c {
        '△' | '▽' | '☖' => Color::White,
        _ => Color::Black,
    }
}

/// Does this text look like KI2 (move tokens such as `▲７六歩` at line starts, no `(77)` source
/// squares and no numbered KIF move lines)?
pub fn looks_like(text: &str) -> bool {
    let mut ki2 = 0;
    let mut made = false;
    for line in super::lines(text).take(400) {
        let l = line
            .trim_start_matches('\u{feff}')
            .trim_start_matches(japanese::is_space);
        if l.starts_with("手数----") {
            return false;
        }
        let b = l.as_bytes();
        if !b.is_empty() && b[0].is_ascii_digit() {
            let rest = l.trim_start_matches(|c: char| c.is_ascii_digit());
            if rest.starts_with(' ') {
                // `   1 ７六歩(77)`: a KIF move line.
                return false;
            }
        }
        if l.starts_with("まで") {
            // `まで0手で…`: a KI2 record with no moves (KIF files number their ending line).
            made = true;
        }
        let mut chars = l.chars();
        if let Some(c) = chars.next()
            && is_mark(c)
        {
            let rest = chars.as_str().trim_start_matches(japanese::is_space);
            let target = rest.starts_with('同') || square_prefix(rest).is_some();
            if target && !has_source_square(l) {
                ki2 += 1;
            }
        }
    }
    ki2 > 0 || made
}

fn has_source_square(l: &str) -> bool {
    let b = l.as_bytes();
    b.windows(4)
        .any(|w| w[0] == b'(' && w[1].is_ascii_digit() && w[2].is_ascii_digit() && w[3] == b')')
}
