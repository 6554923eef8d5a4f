//! BOD board diagrams (Kakinoki's text board, also the position part of a KIF header).
//!
//! ```text
//! 後手の持駒：飛　角　歩四
//!   ９ ８ ７ ６ ５ ４ ３ ２ １
//! +---------------------------+
//! |v香v桂 ・ ・ ・ ・ ・ ・ ・|一
//! ...
//! +---------------------------+
//! 先手の持駒：銀二　歩四
//! 手数＝171  ▲６二角成  まで
//!
//! 後手番
//! ```
//!
//! Reading is line by line ([`classify`] + [`BoardBuilder`]) so that the KIF reader can feed the
//! same code with the header lines of a record.

use super::japanese::{self, is_space};
use super::{DiagKind, Diagnostic};
use crate::record::{Record, Step};
use crate::rules::{Color, Piece, PieceKind, Position, Square};

/// What one line of a board diagram is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BodLine<'a> {
    /// `先手の持駒：...` / `後手の持駒：...` (also 下手/上手); the text after the colon.
    Hand(Color, &'a str),
    /// `|v香v桂 ・ ...|一`: the whole line.
    Row(&'a str),
    /// `  ９ ８ ７ ６ ５ ４ ３ ２ １`
    FileLabels,
    /// `+---------------------------+`
    Border,
    /// `先手番` / `後手番` / `下手番` / `上手番`.
    Turn(Color),
    /// `手数＝N ...` (the move count line of a pasted BOD): N moves were played before the
    /// position (`None` when the number cannot be read).
    MoveCount(Option<u32>),
}

/// The number at the start of `s` (ASCII or full-width digits), up to what a position's move
/// number can hold.
fn move_count(s: &str) -> Option<u32> {
    let digits: String = s
        .trim_start_matches(is_space)
        .chars()
        .map_while(|c| match c {
            '0'..='9' => Some(c),
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32),
            _ => None,
        })
        .collect();
    digits
        .parse::<u32>()
        .ok()
        .filter(|&n| n < u32::from(u16::MAX))
}

fn strip_colon(s: &str) -> Option<&str> {
    s.strip_prefix('：').or_else(|| s.strip_prefix(':'))
}

fn side_prefix(s: &str) -> Option<(Color, &str)> {
    for (p, c) in [
        ("先手", Color::Black),
        ("下手", Color::Black),
        ("後手", Color::White),
        ("上手", Color::White),
    ] {
        if let Some(rest) = s.strip_prefix(p) {
            return Some((c, rest));
        }
    }
    None
}

/// Says which kind of diagram line `line` is (`None` for anything else).
pub fn classify(line: &str) -> Option<BodLine<'_>> {
    let t = line.trim_end_matches(|c: char| c == '\r' || is_space(c));
    if t.starts_with('|') {
        return Some(BodLine::Row(t));
    }
    if t.starts_with("+-") && t.ends_with('+') && t[1..t.len() - 1].bytes().all(|b| b == b'-') {
        return Some(BodLine::Border);
    }
    let lead = t.trim_start_matches(is_space);
    if let Some(rest) = lead
        .strip_prefix("手数＝")
        .or_else(|| lead.strip_prefix("手数="))
    {
        return Some(BodLine::MoveCount(move_count(rest)));
    }
    if !lead.is_empty()
        && lead != t
        && lead
            .chars()
            .all(|c| is_space(c) || ('１'..='９').contains(&c) || c.is_ascii_digit())
    {
        return Some(BodLine::FileLabels);
    }
    if let Some((color, rest)) = side_prefix(t) {
        if let Some(rest) = rest
            .strip_prefix("の持駒")
            .or_else(|| rest.strip_prefix("の持ち駒"))
            .and_then(strip_colon)
        {
            return Some(BodLine::Hand(color, rest));
        }
        if rest == "番" {
            return Some(BodLine::Turn(color));
        }
    }
    None
}

/// Reads a hand: `飛　角　歩四　`, `飛 角 歩4`, `飛歩`, `歩十八`, `なし`, or nothing.
/// Returns the pieces with their counts (a kind may repeat; the caller adds them up).
pub fn parse_hand(s: &str) -> Result<Vec<(PieceKind, u32)>, String> {
    let s = s.trim_matches(|c: char| is_space(c) || c == '\r');
    let mut out = Vec::new();
    if s.is_empty() || s == "なし" {
        return Ok(out);
    }
    let mut rest = s;
    loop {
        rest = rest.trim_start_matches(is_space);
        if rest.is_empty() {
            break;
        }
        let Some((kind, n)) = japanese::piece_prefix(rest) else {
            let c = rest.chars().next().unwrap_or(' ');
            return Err(format!(
                "unknown piece '{c}' in hand (expected 飛 角 金 銀 桂 香 歩, each optionally followed by a count)"
            ));
        };
        if !kind.is_hand_kind() {
            return Err(format!(
                "'{}' cannot be held in hand",
                &rest[..n].to_string()
            ));
        }
        rest = &rest[n..];
        // The count: everything up to the next space or piece name.
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                is_space(c)
                    || !(japanese::digit(c).is_some()
                        || c.is_ascii_digit()
                        || matches!(c, '十' | '〇' | '０'))
            })
            .map(|(i, _)| i)
            .unwrap_or(rest.len());
        let count = if end == 0 {
            1
        } else {
            match japanese::count(&rest[..end]) {
                Some(n) if n >= 1 => n,
                _ => return Err(format!("bad count '{}' in hand", &rest[..end])),
            }
        };
        rest = &rest[end..];
        out.push((kind, count));
    }
    Ok(out)
}

/// Reads a board row `|v香v桂 ・ ・ ・ ・ ・ ・ ・|一`: its rank and the nine squares from file 9
/// to file 1.
pub fn parse_row(line: &str) -> Result<(u8, [Option<Piece>; 9]), String> {
    let t = line.trim_end_matches(|c: char| c == '\r' || is_space(c));
    let Some(body) = t.strip_prefix('|') else {
        return Err("a board row starts with '|'".into());
    };
    let mut cells = [None; 9];
    let mut it = body.chars();
    for (i, cell) in cells.iter_mut().enumerate() {
        let a = it.next();
        let b = it.next();
        let (Some(a), Some(b)) = (a, b) else {
            return Err(format!(
                "board row has {i} squares (expected 9, each ' ・', ' 歩' or 'v歩')"
            ));
        };
        let color = match a {
            ' ' | '\u{3000}' | '^' => Color::Black,
            'v' | 'V' => Color::White,
            _ => {
                return Err(format!(
                    "square {} of the row starts with '{a}' (expected ' ' for Black or 'v' for White)",
                    i + 1
                ));
            }
        };
        *cell = match b {
            '・' | ' ' | '\u{3000}' => None,
            _ => match japanese::piece_char(b) {
                Some(kind) => Some(Piece::new(kind, color)),
                None => {
                    return Err(format!(
                        "unknown piece '{b}' on the board (expected 歩 香 桂 銀 金 角 飛 玉 と 杏 圭 全 馬 龍 or ・)"
                    ));
                }
            },
        };
    }
    if it.next() != Some('|') {
        return Err("board row does not end with '|' after nine squares".into());
    }
    let rank = it
        .next()
        .and_then(japanese::digit)
        .ok_or_else(|| "board row lacks its rank (一..九) after the closing '|'".to_string())?;
    Ok((rank, cells))
}

/// Collects diagram lines into a position.
#[derive(Clone, Debug)]
pub struct BoardBuilder {
    pub pos: Position,
    rows: [bool; 9],
    rows_seen: usize,
    pub hands_seen: bool,
    pub turn: Option<Color>,
    /// Moves played before the position (`手数＝N`), when a line said so.
    pub moves_before: Option<u32>,
}

impl Default for BoardBuilder {
    fn default() -> Self {
        BoardBuilder {
            pos: Position::empty(),
            rows: [false; 9],
            rows_seen: 0,
            hands_seen: false,
            turn: None,
            moves_before: None,
        }
    }
}

impl BoardBuilder {
    /// Did any board row arrive?
    pub fn has_board(&self) -> bool {
        self.rows_seen > 0
    }
    /// Ranks that never arrived (1-based).
    pub fn missing_ranks(&self) -> Vec<u8> {
        (1..=9u8).filter(|&r| !self.rows[r as usize - 1]).collect()
    }
    /// Feeds one classified line; returns a message when the line could not be used.
    pub fn feed(&mut self, line: BodLine<'_>) -> Result<(), String> {
        match line {
            BodLine::Row(text) => {
                let (rank, cells) = parse_row(text)?;
                if self.rows[rank as usize - 1] {
                    return Err(format!("rank {rank} appears twice in the board diagram"));
                }
                self.rows[rank as usize - 1] = true;
                self.rows_seen += 1;
                for (i, cell) in cells.iter().enumerate() {
                    if let Some(sq) = Square::new(9 - i as u8, rank) {
                        self.pos.set_piece(sq, *cell);
                    }
                }
                Ok(())
            }
            BodLine::Hand(color, text) => {
                let pieces = parse_hand(text)?;
                self.hands_seen = true;
                self.set_hand(color, &pieces)
            }
            BodLine::Turn(c) => {
                self.turn = Some(c);
                Ok(())
            }
            BodLine::MoveCount(n) => {
                self.moves_before = n.or(self.moves_before);
                Ok(())
            }
            BodLine::FileLabels | BodLine::Border => Ok(()),
        }
    }
    fn set_hand(&mut self, color: Color, pieces: &[(PieceKind, u32)]) -> Result<(), String> {
        let mut counts = [0u32; 7];
        for &(k, n) in pieces {
            if let Some(i) = PieceKind::HAND.iter().position(|&h| h == k) {
                counts[i] = counts[i].saturating_add(n);
            }
        }
        for (i, &k) in PieceKind::HAND.iter().enumerate() {
            let n = counts[i];
            if n > 18 || !self.pos.set_hand_count(color, k, n as u8) {
                return Err(format!("too many {} in hand ({n})", k.board_char()));
            }
        }
        Ok(())
    }
    /// Applies hands and side to move read so far onto another position (a preset).
    pub fn apply_hands_and_turn(&self, target: &mut Position) {
        if self.hands_seen {
            for c in [Color::Black, Color::White] {
                for k in PieceKind::HAND {
                    target.set_hand_count(c, k, self.pos.hand_count(c, k));
                }
            }
        }
        if let Some(t) = self.turn {
            target.set_side_to_move(t);
        }
    }
    /// The position read (side to move from the turn line, Black when there was none; its
    /// move number follows `手数＝N`: the next move is N + 1).
    pub fn position(&self) -> Position {
        let mut p = self.pos.clone();
        p.set_side_to_move(self.turn.unwrap_or(Color::Black));
        self.apply_move_number(&mut p);
        p
    }
    /// Sets the move number of `p` from the `手数＝N` line (1 when there was none).
    pub fn apply_move_number(&self, p: &mut Position) {
        let next = self.moves_before.map_or(1, |n| n + 1);
        p.set_move_number(u16::try_from(next).unwrap_or(u16::MAX));
    }
}

/// Reads a BOD file into a record without moves (its start position, the `手数＝N` of the
/// diagram as the number of its first move, and whether it had a turn line).
pub fn read(text: &str) -> super::Parsed {
    let mut b = super::builder::RecordBuilder::new(super::builder::Style { branches: false });
    match read_bod(text) {
        Ok(position) => {
            let handicap = crate::rules::Handicap::matching(&position);
            b.set_initial(crate::record::Initial { position, handicap }, 0);
            b.record_mut().layout.turn_line = text
                .split('\n')
                .any(|l| matches!(classify(l), Some(BodLine::Turn(_))));
        }
        Err(d) => b.warnings_mut().push(d),
    }
    b.finish()
}

/// Reads a pasted BOD diagram (hands, nine ranks, optional turn line; other lines are ignored).
pub fn read_bod(text: &str) -> Result<Position, Diagnostic> {
    let mut b = BoardBuilder::default();
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.trim_start_matches('\u{feff}');
        if let Some(l) = classify(line) {
            b.feed(l)
                .map_err(|m| Diagnostic::new(i + 1, DiagKind::BadBoard, m))?;
        }
    }
    if !b.has_board() {
        return Err(Diagnostic::new(
            0,
            DiagKind::BadBoard,
            "no board diagram found (expected nine rows like '| ・ ・ ・ ・ ・ ・ ・ ・ ・|一')",
        ));
    }
    let missing = b.missing_ranks();
    if !missing.is_empty() {
        return Err(Diagnostic::new(
            0,
            DiagKind::BadBoard,
            format!("the board diagram lacks rank(s) {missing:?} (expected nine rows 一..九)"),
        ));
    }
    Ok(b.position())
}

fn hand_text(pos: &Position, color: Color, out: &mut String) {
    let hand = pos.hand(color);
    if hand.is_empty() {
        out.push_str("なし");
        return;
    }
    for (k, n) in hand {
        out.push(k.board_char());
        if n > 1 {
            out.push_str(&japanese::kanji_count(n as u32));
        }
        out.push('\u{3000}');
    }
}

/// Writes hands and board as in KIF files (no turn line). `handicap_names` uses 上手/下手.
pub fn write_position(pos: &Position, out: &mut String, handicap_names: bool) {
    let (bn, wn) = if handicap_names {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    out.push_str(wn);
    out.push_str("の持駒：");
    hand_text(pos, Color::White, out);
    out.push('\n');
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n");
    out.push_str("+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("1..=9");
            match pos.piece_at(sq) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(p.kind.board_char());
                }
            }
        }
        out.push('|');
        out.push_str(japanese::KANJI_DIGITS[rank as usize]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    out.push_str(bn);
    out.push_str("の持駒：");
    hand_text(pos, Color::Black, out);
    out.push('\n');
}

/// The full BOD of the position at `node`: hands, board, `手数＝N  ▲７六歩  まで`, and
/// `後手番` (after a blank line) when White is to move.
pub fn write_bod(record: &Record, node: crate::record::NodeId) -> String {
    let pos = record.position_at(node);
    let handicap = record.initial.is_handicap_game();
    let mut out = String::with_capacity(512);
    write_position(&pos, &mut out, handicap);
    let n = record.node(node);
    let played = record.moves_before()
        + match n.step {
            Step::Special(_) => n.ply.saturating_sub(1),
            _ => n.ply,
        };
    out.push_str(&format!("手数＝{played}  "));
    // The last move played and the one before it (for 同).
    let mut last = Some(node);
    while let Some(c) = last {
        if record.node(c).move_data().is_some() {
            break;
        }
        last = record.node(c).parent;
    }
    if let Some(l) = last
        && let Some(md) = record.node(l).move_data()
    {
        let prev_to = record
            .node(l)
            .parent
            .and_then(|p| record.node(p).move_data())
            .map(|m| m.mv.to());
        let text = japanese::kif_move(md, prev_to);
        let short = text.split('(').next().unwrap_or(&text);
        out.push_str(md.color.mark());
        out.push_str(short);
        out.push_str("  ");
    }
    out.push_str("まで\n");
    // White to move is always said; Black when the diagram read said so.
    let white = pos.side_to_move() == Color::White;
    if white || (record.layout.turn_line && node == record.root()) {
        out.push('\n');
        out.push_str(match (white, handicap) {
            (true, true) => "上手番",
            (true, false) => "後手番",
            (false, true) => "下手番",
            (false, false) => "先手番",
        });
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIAGRAM: &str = "後手の持駒：飛　角　歩四　
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂 ・ ・ ・ ・ ・ ・ ・|一
| ・ ・ ・ 馬 ・ ・ 龍 ・ ・|二
| ・ ・v玉 ・v歩 ・ ・ ・ ・|三
|v歩 ・ ・ ・v金 ・ ・ ・ ・|四
| ・ ・v銀 ・ ・ ・v歩 ・ ・|五
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|六
| 歩 歩 ・ 歩 歩v歩 歩 ・ 歩|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| 香 桂v金 ・v金 ・ ・ 桂 香|九
+---------------------------+
先手の持駒：銀二　歩四　
";

    #[test]
    fn reads_and_writes_a_diagram() {
        let pos = read_bod(DIAGRAM).unwrap();
        assert_eq!(pos.hand_count(Color::White, PieceKind::Rook), 1);
        assert_eq!(pos.hand_count(Color::White, PieceKind::Pawn), 4);
        assert_eq!(pos.hand_count(Color::Black, PieceKind::Silver), 2);
        assert_eq!(
            pos.piece_at(Square::new(9, 1).unwrap()),
            Some(Piece::new(PieceKind::Lance, Color::White))
        );
        assert_eq!(
            pos.piece_at(Square::new(3, 2).unwrap()),
            Some(Piece::new(PieceKind::Dragon, Color::Black))
        );
        assert_eq!(pos.side_to_move(), Color::Black);
        let mut out = String::new();
        write_position(&pos, &mut out, false);
        assert_eq!(out, DIAGRAM);
    }

    #[test]
    fn turn_line_and_variants() {
        let text = DIAGRAM
            .replace('龍', "竜")
            .replace("先手の持駒：銀二　歩四　", "下手の持駒：銀2 歩四")
            + "手数＝171  ▲６二角成  まで\n\n後手番\n";
        let pos = read_bod(&text).unwrap();
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(pos.hand_count(Color::Black, PieceKind::Silver), 2);
        assert_eq!(
            pos.piece_at(Square::new(3, 2).unwrap()).map(|p| p.kind),
            Some(PieceKind::Dragon)
        );
    }

    #[test]
    fn hands() {
        use PieceKind::*;
        assert_eq!(parse_hand("なし").unwrap(), vec![]);
        assert_eq!(parse_hand("").unwrap(), vec![]);
        assert_eq!(parse_hand("飛歩").unwrap(), vec![(Rook, 1), (Pawn, 1)]);
        assert_eq!(
            parse_hand("飛 角　歩十八　").unwrap(),
            vec![(Rook, 1), (Bishop, 1), (Pawn, 18)]
        );
        assert_eq!(parse_hand("歩10香2").unwrap(), vec![(Pawn, 10), (Lance, 2)]);
        assert!(parse_hand("玉").is_err());
        assert!(parse_hand("x").is_err());
    }

    #[test]
    fn rows() {
        let (r, cells) = parse_row("| 全 圭 杏v王 ・ ・ ・ ・ ・|九").unwrap();
        assert_eq!(r, 9);
        assert_eq!(
            cells[0],
            Some(Piece::new(PieceKind::ProSilver, Color::Black))
        );
        assert_eq!(cells[3], Some(Piece::new(PieceKind::King, Color::White)));
        assert!(parse_row("| ・ ・|一").is_err());
        assert!(parse_row("| ・ ・ ・ ・ ・ ・ ・ ・ 犬|一").is_err());
        assert!(parse_row("| ・ ・ ・ ・ ・ ・ ・ ・ ・|").is_err());
    }

    #[test]
    fn missing_rank_is_an_error() {
        let text: String = DIAGRAM
            .lines()
            .filter(|l| !l.ends_with('五'))
            .map(|l| format!("{l}\n"))
            .collect();
        let e = read_bod(&text).unwrap_err();
        assert_eq!(e.kind, DiagKind::BadBoard);
    }

    #[test]
    fn bod_of_a_record() {
        let mut rec = Record::default();
        let pos = rec.initial.position.clone();
        let mv = crate::rules::Move::from_usi("7g7f").unwrap();
        let mut p2 = pos.clone();
        let played = p2.play(mv).unwrap();
        let id = rec.push_child(
            rec.root(),
            Step::Move(crate::record::MoveData {
                mv,
                color: Color::Black,
                piece: played.piece,
                captured: None,
            }),
        );
        let s = write_bod(&rec, id);
        assert!(s.contains("手数＝1  ▲７六歩  まで\n"), "{s}");
        assert!(s.ends_with("まで\n\n後手番\n"), "{s}");
        let s0 = write_bod(&rec, rec.root());
        assert!(s0.ends_with("手数＝0  まで\n"), "{s0}");
    }
}
