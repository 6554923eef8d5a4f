//! KI2 (`.ki2` Shift_JIS, `.ki2u` UTF-8): KIF headers and board diagrams, then moves written
//! without source squares (`▲７六歩　△３四歩`, several per line), disambiguated with
//! 右 左 直 上 引 寄 and 打 as the JSA notation rules say, closed by a `まで…` line.
//!
//! Reading resolves each move among the pieces of the named kind that can reach the named square
//! (pins ignored, as real records contain illegal moves); writing renders the same rules
//! (the suffix logic follows tsshogi's `getDirectionModifier`, which the corpus was made with).

use super::bod::{self, BoardBuilder, BodLine};
use super::japanese::{self, piece_prefix, square_prefix};
use super::{DiagKind, Diagnostic, Parsed, Written};
use crate::core::record::{Initial, MoveData, NodeId, Record, Special, Step};
use crate::core::rules::{
    Color, Handicap, Move, Piece, PieceKind, Position, Square, double_king_tsume_position,
    tsume_position,
};
use std::collections::HashMap;

/// Side marks accepted in front of a move.
const MARKS: [char; 6] = ['▲', '△', '▼', '▽', '☗', '☖'];

fn is_mark(c: char) -> bool {
    MARKS.contains(&c)
}

fn mark_color(c: char) -> Color {
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
    for line in text.lines().take(400) {
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

// ---------------------------------------------------------------------------------------------
// Move geometry and the JSA suffixes
// ---------------------------------------------------------------------------------------------

type Deltas = &'static [(i8, i8)];

/// Step and slide directions of a piece kind, for Black (`dr` < 0 is forward). White negates.
fn moves_of(kind: PieceKind) -> (Deltas, Deltas) {
    const GOLD: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    const SILVER: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
    const KING: &[(i8, i8)] = &[
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];
    const DIAG: &[(i8, i8)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
    const ORTHO: &[(i8, i8)] = &[(0, -1), (-1, 0), (1, 0), (0, 1)];
    match kind {
        PieceKind::Pawn => (&[(0, -1)], &[]),
        PieceKind::Lance => (&[], &[(0, -1)]),
        PieceKind::Knight => (&[(-1, -2), (1, -2)], &[]),
        PieceKind::Silver => (SILVER, &[]),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => (GOLD, &[]),
        PieceKind::King => (KING, &[]),
        PieceKind::Bishop => (&[], DIAG),
        PieceKind::Rook => (&[], ORTHO),
        PieceKind::Horse => (ORTHO, DIAG),
        PieceKind::Dragon => (DIAG, ORTHO),
    }
}

/// Can `piece` standing on `from` move to `to` (ignoring pins and checks)?
fn reaches(pos: &Position, piece: Piece, from: Square, to: Square) -> bool {
    if from == to {
        return false;
    }
    let sign: i8 = if piece.color == Color::Black { 1 } else { -1 };
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    let (steps, slides) = moves_of(piece.kind);
    if steps.iter().any(|&(f, r)| f * sign == df && r * sign == dr) {
        return true;
    }
    for &(f, r) in slides {
        let (f, r) = (f * sign, r * sign);
        let (mut cf, mut cr) = (from.file() as i8 + f, from.rank() as i8 + r);
        while let Some(sq) = Square::new(cf as u8, cr as u8).filter(|_| cf >= 1 && cr >= 1) {
            if sq == to {
                return true;
            }
            if pos.piece_at(sq).is_some() {
                break;
            }
            cf += f;
            cr += r;
        }
    }
    false
}

/// Squares holding `piece` that can move to `to` (pins ignored).
fn attackers(pos: &Position, to: Square, piece: Piece) -> Vec<Square> {
    if pos.piece_at(to).is_some_and(|p| p.color == piece.color) {
        return Vec::new();
    }
    Square::all()
        .filter(|&sq| pos.piece_at(sq) == Some(piece) && reaches(pos, piece, sq, to))
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum VDir {
    Up,
    None,
    Down,
}
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum HDir {
    Left,
    None,
    Right,
}

/// The direction of a move from the mover's point of view.
fn direction(color: Color, from: Square, to: Square) -> (VDir, HDir) {
    let sign: i8 = if color == Color::Black { 1 } else { -1 };
    let dr = (to.rank() as i8 - from.rank() as i8) * sign;
    // Black's left is the 9 file: moving left raises the file number.
    let df = (to.file() as i8 - from.file() as i8) * sign;
    let v = match dr.signum() {
        -1 => VDir::Up,
        0 => VDir::None,
        _ => VDir::Down,
    };
    let h = match df.signum() {
        1 => HDir::Left,
        0 => HDir::None,
        _ => HDir::Right,
    };
    (v, h)
}

/// The JSA suffix (`右`, `左上`, `直`, `打`, ...) that tells this move apart from the other
/// pieces of the same kind that could reach the same square.
pub fn direction_suffix(pos: &Position, md: &MoveData) -> String {
    let piece = Piece::new(md.piece, md.color);
    let to = md.mv.to();
    let from = match md.mv {
        Move::Normal { from, .. } => from,
        Move::Drop { .. } => {
            return if attackers(pos, to, piece).is_empty() {
                String::new()
            } else {
                "打".to_string()
            };
        }
    };
    let others: Vec<Square> = attackers(pos, to, piece)
        .into_iter()
        .filter(|&s| s != from)
        .collect();
    if others.is_empty() {
        return String::new();
    }
    let (my_v, my_h) = direction(md.color, from, to);
    let dirs: Vec<(VDir, HDir)> = others.iter().map(|&s| direction(md.color, s, to)).collect();
    let v_dirs: Vec<VDir> = dirs.iter().filter(|d| d.1 == my_h).map(|d| d.0).collect();
    let h_dirs: Vec<HDir> = dirs.iter().filter(|d| d.0 == my_v).map(|d| d.1).collect();
    let mut s = String::new();
    let mut no_vertical = false;
    if let Some(&first) = h_dirs.first() {
        if matches!(md.piece, PieceKind::Horse | PieceKind::Dragon) {
            if my_h == HDir::Left || (my_h == HDir::None && first == HDir::Right) {
                s.push('右');
            } else if my_h == HDir::Right || (my_h == HDir::None && first == HDir::Left) {
                s.push('左');
            }
        } else {
            match my_h {
                HDir::Left => s.push('右'),
                HDir::None => {
                    s.push('直');
                    no_vertical = true;
                }
                HDir::Right => s.push('左'),
            }
        }
    }
    if !no_vertical && (!v_dirs.is_empty() || h_dirs.is_empty()) {
        s.push(match my_v {
            VDir::Down => '引',
            VDir::None => '寄',
            VDir::Up => '上',
        });
    }
    s
}

/// A move in KI2 style with its side mark: `▲７六歩`, `△同　銀右`, `▲５五角打`, `▲２二角不成`.
/// `pos` is the position before the move; `prev_to` the previous move's destination (for 同).
pub fn move_text(pos: &Position, md: &MoveData, prev_to: Option<Square>) -> String {
    let mut s = String::with_capacity(24);
    s.push_str(md.color.mark());
    let to = md.mv.to();
    if prev_to == Some(to) {
        s.push_str("同\u{3000}");
    } else {
        s.push_str(&japanese::square_kif(to));
    }
    s.push_str(md.piece.move_name());
    s.push_str(&direction_suffix(pos, md));
    if let Move::Normal { promote, .. } = md.mv {
        if promote {
            s.push('成');
        } else if japanese::could_promote(md) {
            s.push_str("不成");
        }
    }
    s
}

/// One token after its side mark, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    Move(MoveData),
    Special(Special),
}

/// Special endings that may stand in place of a move (`△投了`).
fn inline_special(t: &str) -> Option<Special> {
    const WORDS: [&str; 14] = [
        "投了",
        "中断",
        "千日手",
        "持将棋",
        "詰み",
        "詰",
        "不詰",
        "切れ負け",
        "時間切れ",
        "反則勝ち",
        "反則負け",
        "入玉勝ち",
        "不戦勝",
        "不戦敗",
    ];
    WORDS.contains(&t).then(|| Special::from_kif(t))
}

/// Reads one move token (the text after `▲`/`△`, spaces allowed) in `pos`, where the side to move
/// plays it. Returns what it is, or a message saying what was expected.
pub fn parse_token(pos: &Position, token: &str, prev_to: Option<Square>) -> Result<Token, String> {
    let t: String = token
        .chars()
        .filter(|&c| !japanese::is_space(c) && c != '\r')
        .collect();
    if let Some(s) = inline_special(&t) {
        return Ok(Token::Special(s));
    }
    let side = pos.side_to_move();
    let (to, rest) = if let Some(r) = t.strip_prefix('同') {
        let to = prev_to.ok_or_else(|| format!("'{t}': 同 with no previous move"))?;
        (to, r)
    } else if let Some((sq, n)) = square_prefix(&t) {
        (sq, &t[n..])
    } else {
        return Err(format!(
            "'{t}': expected a square (７六) or 同 after the side mark"
        ));
    };
    let (kind, n) = piece_prefix(rest)
        .ok_or_else(|| format!("'{t}': expected a piece name (歩 香 桂 銀 金 角 飛 玉 ...)"))?;
    let mut rest = &rest[n..];
    let (mut right, mut left, mut straight) = (false, false, false);
    let (mut up, mut down, mut side_way) = (false, false, false);
    let (mut drop, mut promote, mut from) = (false, false, None);
    while let Some(c) = rest.chars().next() {
        let mut len = c.len_utf8();
        match c {
            '右' => right = true,
            '左' => left = true,
            '直' => straight = true,
            '上' | '行' | '入' => up = true,
            '引' => down = true,
            '寄' => side_way = true,
            '打' => drop = true,
            '成' => promote = true,
            '生' => {}
            '不' if rest.starts_with("不成") => len = "不成".len(),
            '(' | '（' => {
                let inner = &rest[c.len_utf8()..];
                let (sq, m) = square_prefix(inner)
                    .ok_or_else(|| format!("'{t}': expected a source square inside ( )"))?;
                let close = inner[m..].chars().next();
                if !matches!(close, Some(')') | Some('）')) {
                    return Err(format!("'{t}': expected ')' after the source square"));
                }
                from = Some(sq);
                len = c.len_utf8() + m + close.map_or(0, char::len_utf8);
            }
            _ => return Err(format!("'{t}': unexpected '{c}' after the piece name")),
        }
        rest = &rest[len..];
    }
    let piece = Piece::new(kind, side);
    let mv = if let Some(from) = from {
        Move::Normal { from, to, promote }
    } else if drop {
        if !kind.is_hand_kind() {
            return Err(format!("'{t}': a {} cannot be dropped", kind.move_name()));
        }
        Move::Drop { kind, to }
    } else {
        let mut cands: Vec<Square> = attackers(pos, to, piece)
            .into_iter()
            .filter(|&sq| {
                let (v, h) = direction(side, sq, to);
                if (down && v != VDir::Down)
                    || (side_way && v != VDir::None)
                    || (up && v != VDir::Up)
                    || (straight && (h != HDir::None || v != VDir::Up))
                {
                    return false;
                }
                if matches!(kind, PieceKind::Horse | PieceKind::Dragon) {
                    !((left && h == HDir::Left) || (right && h == HDir::Right))
                } else {
                    !((left && h != HDir::Right) || (right && h != HDir::Left))
                }
            })
            .collect();
        if cands.len() == 2 && matches!(kind, PieceKind::Horse | PieceKind::Dragon) {
            // 左/右 on two horses or dragons: the one moving straight is not the one named.
            cands.retain(|&sq| direction(side, sq, to).1 != HDir::None);
        }
        if cands.len() > 1 {
            // Prefer the moves the rules allow (a pinned piece is not meant).
            let legal: Vec<Square> = cands
                .iter()
                .copied()
                .filter(|&from| {
                    pos.check(Move::Normal {
                        from,
                        to,
                        promote: promote && kind.can_promote(),
                    })
                    .is_ok()
                })
                .collect();
            if legal.len() == 1 {
                cands = legal;
            }
        }
        match cands.as_slice() {
            [from] => Move::Normal {
                from: *from,
                to,
                promote,
            },
            [] if kind.is_hand_kind() && pos.hand_count(side, kind) > 0 => Move::Drop { kind, to },
            [] => {
                return Err(format!(
                    "'{t}': no {} of the side to move can go to {}",
                    kind.move_name(),
                    japanese::square_kif(to)
                ));
            }
            _ => {
                return Err(format!(
                    "'{t}': {} pieces can go there; expected 右 左 直 上 引 寄 to tell them apart",
                    cands.len()
                ));
            }
        }
    };
    if let Move::Normal { from, promote, .. } = mv {
        match pos.piece_at(from) {
            Some(p) if p == piece => {}
            _ => {
                return Err(format!(
                    "'{t}': no {} of the side to move on the source square",
                    kind.move_name()
                ));
            }
        }
        if promote && !kind.can_promote() {
            return Err(format!("'{t}': a {} cannot promote", kind.move_name()));
        }
    }
    Ok(Token::Move(MoveData {
        mv,
        color: side,
        piece: kind,
        captured: pos.piece_at(to).map(|p| p.kind),
    }))
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/// The header part: board diagram, hands, turn (read by `bod`), and the 手合割 line.
#[derive(Default)]
struct Setup {
    board: BoardBuilder,
    /// The 手合割 value and its line.
    handicap: Option<(usize, String)>,
}

impl Setup {
    /// The initial position: the diagram if there is one, else the 手合割 preset with any hands
    /// and turn line applied (as the KIF reader does).
    fn initial(&self, warnings: &mut Vec<Diagnostic>) -> Initial {
        let mut initial = if self.board.has_board() {
            let missing = self.board.missing_ranks();
            if !missing.is_empty() {
                warnings.push(Diagnostic::new(
                    0,
                    DiagKind::BadBoard,
                    format!("the board diagram lacks rank(s) {missing:?}; they are read as empty"),
                ));
            }
            Initial {
                position: self.board.position(),
                handicap: None,
            }
        } else {
            let mut initial = Initial::even();
            if let Some((line, name)) = &self.handicap {
                let name = name.trim_matches(|c: char| japanese::is_space(c) || c.is_whitespace());
                if let Some(h) = Handicap::by_name(name) {
                    initial = Initial {
                        position: h.position(),
                        handicap: Some(h),
                    };
                } else if name == "詰将棋" {
                    initial.position = tsume_position();
                    initial.handicap = None;
                } else if name == "双玉詰将棋" {
                    initial.position = double_king_tsume_position();
                    initial.handicap = None;
                } else {
                    warnings.push(Diagnostic::new(
                        *line,
                        DiagKind::BadHeader,
                        format!(
                            "unknown 手合割 '{name}' with no board diagram (expected 平手, 香落ち, ... 十枚落ち, 詰将棋); read as 平手"
                        ),
                    ));
                }
            }
            if self.board.hands_seen || self.board.turn.is_some() {
                let before = initial.position.clone();
                self.board.apply_hands_and_turn(&mut initial.position);
                if initial.position != before {
                    initial.handicap = None;
                }
            }
            initial
        };
        // Rebuilt from its SFEN so that the rules crate's king cache matches the board.
        let mut position = Position::from_sfen(&initial.position.to_sfen())
            .unwrap_or_else(|_| initial.position.clone());
        position.set_move_number(1);
        if initial.handicap.is_none() {
            initial.handicap = Handicap::matching(&position);
        }
        initial.position = position;
        initial
    }
}

fn strip_colon(s: &str) -> Option<&str> {
    s.strip_prefix('：').or_else(|| s.strip_prefix(':'))
}

/// How a `まで…` line ends the game (the text after `まで` and the move count).
fn read_end_of_game(data: &str) -> Special {
    let clean: String = data.chars().filter(|&c| !japanese::is_space(c)).collect();
    if clean.starts_with("時間切れ") {
        Special::Timeout
    } else if clean.ends_with("反則勝ち") {
        Special::FoulWin
    } else if clean.ends_with("反則負け") {
        Special::FoulLose
    } else if clean.ends_with("入玉勝ち") {
        Special::EnteringKing
    } else if clean.ends_with("勝ち") {
        Special::Resign
    } else {
        Special::from_kif(&clean)
    }
}

/// Strips `まで`, an optional `、` and `N手で`.
fn strip_made(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("まで")?;
    let rest = rest.strip_prefix('、').unwrap_or(rest);
    let digits = rest
        .char_indices()
        .find(|&(_, c)| !c.is_ascii_digit())
        .map_or(rest.len(), |(i, _)| i);
    if digits > 0
        && let Some(r) = rest[digits..].strip_prefix("手で")
    {
        return Some(r);
    }
    Some(rest)
}

/// `Position::check`, except that a pawn drop cannot be 打ち歩詰め when the opponent has no king
/// (tsume positions): the rules crate reports that case as illegal.
fn check(pos: &Position, mv: Move) -> Result<(), crate::core::rules::Illegal> {
    use crate::core::rules::Illegal;
    match pos.check(mv) {
        Err(Illegal::DropPawnMate) if pos.king_square(pos.side_to_move().flip()).is_none() => {
            Ok(())
        }
        r => r,
    }
}

/// The reader's state in the move section.
struct Reader {
    record: Record,
    warnings: Vec<Diagnostic>,
    cur: NodeId,
    pos: Position,
    /// The line of play is broken (a move could not be read) until the next `変化`.
    broken: bool,
    /// Comment lines per node, joined at the end (so that empty lines are kept).
    comments: HashMap<NodeId, Vec<String>>,
}

impl Reader {
    fn warn(&mut self, line: usize, kind: DiagKind, msg: impl Into<String>) {
        self.warnings.push(Diagnostic::new(line, kind, msg));
    }

    fn prev_to(&self) -> Option<Square> {
        self.record.node(self.cur).move_data().map(|m| m.mv.to())
    }

    /// Appends `step` after the current node (reusing an identical existing child).
    fn append(&mut self, step: Step) -> NodeId {
        let existing = self
            .record
            .node(self.cur)
            .children
            .iter()
            .copied()
            .find(|&c| self.record.node(c).step == step);
        let id = existing.unwrap_or_else(|| self.record.push_child(self.cur, step));
        self.cur = id;
        id
    }

    fn add_special(&mut self, line: usize, s: Special) {
        if self.record.node(self.cur).special().is_some() {
            self.warn(
                line,
                DiagKind::AfterEnd,
                "a second ending after the line already ended",
            );
            return;
        }
        self.append(Step::Special(s));
    }

    fn move_line(&mut self, line_no: usize, line: &str) {
        let l = line.trim_start_matches(japanese::is_space);
        // Split into tokens at each side mark.
        let mut tokens: Vec<(char, &str)> = Vec::new();
        let mut start: Option<(char, usize)> = None;
        for (i, c) in l.char_indices() {
            if is_mark(c) {
                if let Some((m, s)) = start {
                    tokens.push((m, &l[s..i]));
                }
                start = Some((c, i + c.len_utf8()));
            }
        }
        if let Some((m, s)) = start {
            tokens.push((m, &l[s..]));
        }
        for (mark, tok) in tokens {
            if self.broken {
                return;
            }
            if self.record.node(self.cur).special().is_some() {
                self.warn(
                    line_no,
                    DiagKind::AfterEnd,
                    format!("move '{}' after the end of the line", tok.trim()),
                );
                self.broken = true;
                return;
            }
            match parse_token(&self.pos, tok, self.prev_to()) {
                Ok(Token::Special(s)) => self.add_special(line_no, s),
                Ok(Token::Move(md)) => {
                    if mark_color(mark) != md.color {
                        self.warn(
                            line_no,
                            DiagKind::BadMove,
                            format!(
                                "'{mark}{}': the side mark does not match the side to move",
                                tok.trim()
                            ),
                        );
                    }
                    let mut next = self.pos.clone();
                    match next.play_unchecked(md.mv) {
                        Some(played) => {
                            if let Err(e) = check(&self.pos, md.mv) {
                                self.warn(
                                    line_no,
                                    DiagKind::IllegalMove,
                                    format!("illegal move '{mark}{}': {e}", tok.trim()),
                                );
                            }
                            let md = MoveData {
                                piece: played.piece,
                                captured: played.captured,
                                ..md
                            };
                            self.append(Step::Move(md));
                            self.pos = next;
                        }
                        None => {
                            self.warn(
                                line_no,
                                DiagKind::ImpossibleMove,
                                format!("move '{mark}{}' cannot be played", tok.trim()),
                            );
                            self.broken = true;
                        }
                    }
                }
                Err(msg) => {
                    self.warn(line_no, DiagKind::BadMove, msg);
                    self.broken = true;
                }
            }
        }
    }

    fn branch(&mut self, line_no: usize, data: &str) {
        let t = data.trim_matches(japanese::is_space);
        let digits: String = t
            .chars()
            .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
            .collect();
        let Some(n) = japanese::count(&digits) else {
            self.warn(
                line_no,
                DiagKind::BadBranch,
                format!("expected a move number in '変化：{t}'"),
            );
            self.broken = true;
            return;
        };
        let cur_ply = self.record.node(self.cur).ply;
        if n == 0 || n > cur_ply + 1 {
            self.warn(
                line_no,
                DiagKind::BadBranch,
                format!("変化：{n}手 does not branch off the line above (it has {cur_ply} moves)"),
            );
            self.broken = true;
            return;
        }
        let mut id = self.cur;
        while self.record.node(id).ply > n - 1 {
            match self.record.node(id).parent {
                Some(p) => id = p,
                None => break,
            }
        }
        self.cur = id;
        self.pos = self.record.position_at(id);
        self.broken = false;
    }
}

/// Reads KI2 text. Never fails: problems become warnings and the record keeps what was read.
pub fn read(text: &str) -> Parsed {
    let mut setup = Setup::default();
    let mut header = crate::core::record::Header::default();
    let mut program_lines = Vec::new();
    let mut pre_comment: Vec<String> = Vec::new();
    let mut pre_bookmark: Option<String> = None;
    let mut warnings = Vec::new();
    let mut reader: Option<Reader> = None;

    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        if line.trim_matches(japanese::is_space).is_empty() {
            continue;
        }
        let start_moves = |reader: &mut Option<Reader>,
                           warnings: &mut Vec<Diagnostic>,
                           pre_comment: &mut Vec<String>,
                           pre_bookmark: &mut Option<String>,
                           setup: &Setup| {
            if reader.is_none() {
                let mut record = Record::new(setup.initial(warnings));
                record.node_mut(NodeId::ROOT).bookmark = pre_bookmark.take();
                let mut comments = HashMap::new();
                if !pre_comment.is_empty() {
                    comments.insert(NodeId::ROOT, std::mem::take(pre_comment));
                }
                let pos = record.initial.position.clone();
                *reader = Some(Reader {
                    record,
                    warnings: std::mem::take(warnings),
                    cur: NodeId::ROOT,
                    pos,
                    broken: false,
                    comments,
                });
            }
        };

        if line.starts_with('#') {
            program_lines.push(line.to_string());
            continue;
        }
        // Position lines (only before the moves).
        if let Some(rest) = line.strip_prefix("手合割").and_then(strip_colon) {
            match reader.as_mut() {
                Some(r) => r.warn(
                    line_no,
                    DiagKind::UnknownLine,
                    "position line after the moves started (ignored)",
                ),
                None => setup.handicap = Some((line_no, rest.to_string())),
            }
            continue;
        }
        if let Some(b) = bod::classify(line) {
            let decoration = matches!(
                b,
                BodLine::Border | BodLine::FileLabels | BodLine::MoveCount
            );
            match reader.as_mut() {
                Some(_) if decoration => {}
                Some(r) => r.warn(
                    line_no,
                    DiagKind::UnknownLine,
                    "position line after the moves started (ignored)",
                ),
                None => {
                    if let Err(m) = setup.board.feed(b) {
                        warnings.push(Diagnostic::new(line_no, DiagKind::BadBoard, m));
                    }
                }
            }
            continue;
        }

        let trimmed = line.trim_start_matches(japanese::is_space);
        let first = trimmed.chars().next().unwrap_or(' ');
        if line.starts_with(|c: char| c == ' ' || c.is_ascii_digit()) && {
            let t = line.trim_start_matches(' ');
            let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
            rest.len() < t.len() && rest.starts_with(' ')
        } {
            let w = Diagnostic::new(
                line_no,
                DiagKind::UnknownLine,
                "a numbered KIF move line in a KI2 file (ignored)",
            );
            match reader.as_mut() {
                Some(r) => r.warnings.push(w),
                None => warnings.push(w),
            }
            continue;
        }
        if is_mark(first) {
            start_moves(
                &mut reader,
                &mut warnings,
                &mut pre_comment,
                &mut pre_bookmark,
                &setup,
            );
            if let Some(r) = reader.as_mut() {
                r.move_line(line_no, trimmed);
            }
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("変化").and_then(strip_colon) {
            // A 変化 line before the moves is a known writer bug: ignore it.
            if let Some(r) = reader.as_mut() {
                r.branch(line_no, rest);
            }
            continue;
        }
        if let Some(c) = line.strip_prefix('*') {
            match reader.as_mut() {
                Some(r) if !r.broken => r.comments.entry(r.cur).or_default().push(c.to_string()),
                Some(_) => {}
                None => pre_comment.push(c.to_string()),
            }
            continue;
        }
        if let Some(b) = line.strip_prefix('&') {
            match reader.as_mut() {
                Some(r) if !r.broken => {
                    let cur = r.cur;
                    r.record.node_mut(cur).bookmark = Some(b.to_string());
                }
                Some(_) => {}
                None => pre_bookmark = Some(b.to_string()),
            }
            continue;
        }
        if let Some(rest) = strip_made(line) {
            start_moves(
                &mut reader,
                &mut warnings,
                &mut pre_comment,
                &mut pre_bookmark,
                &setup,
            );
            if let Some(r) = reader.as_mut()
                && !r.broken
            {
                r.add_special(line_no, read_end_of_game(rest));
            }
            continue;
        }
        if let Some(colon) = line.find(['：', ':']) {
            let key = &line[..colon];
            if !key.is_empty() && !key.contains(' ') {
                let value = &line[colon + line[colon..].chars().next().map_or(1, char::len_utf8)..];
                header.set(key, value);
                continue;
            }
        }
        let w = Diagnostic::new(
            line_no,
            DiagKind::UnknownLine,
            format!("unrecognised line '{}' (ignored)", line.trim()),
        );
        match reader.as_mut() {
            Some(r) => r.warnings.push(w),
            None => warnings.push(w),
        }
    }
    start_moves_final(
        reader,
        warnings,
        pre_comment,
        pre_bookmark,
        &setup,
        header,
        program_lines,
    )
}

fn start_moves_final(
    reader: Option<Reader>,
    warnings: Vec<Diagnostic>,
    pre_comment: Vec<String>,
    pre_bookmark: Option<String>,
    setup: &Setup,
    header: crate::core::record::Header,
    program_lines: Vec<String>,
) -> Parsed {
    let (mut record, warnings) = match reader {
        Some(mut r) => {
            for (id, lines) in std::mem::take(&mut r.comments) {
                r.record.node_mut(id).comment = lines.join("\n");
            }
            (r.record, r.warnings)
        }
        None => {
            let mut warnings = warnings;
            let mut record = Record::new(setup.initial(&mut warnings));
            record.node_mut(NodeId::ROOT).comment = pre_comment.join("\n");
            record.node_mut(NodeId::ROOT).bookmark = pre_bookmark;
            (record, warnings)
        }
    };
    record.header = header;
    record.program_lines = program_lines;
    Parsed { record, warnings }
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/// Handicap names that KI2 readers in the wild (tsshogi, ShogiHome) accept on a `手合割` line
/// alone; the others are written as a board diagram.
const WIDELY_KNOWN_HANDICAPS: [&str; 11] = [
    "平手",
    "香落ち",
    "右香落ち",
    "角落ち",
    "飛車落ち",
    "飛香落ち",
    "二枚落ち",
    "四枚落ち",
    "六枚落ち",
    "八枚落ち",
    "十枚落ち",
];

/// The `手合割` line or the board diagram for the initial position.
fn position_text(initial: &Initial) -> String {
    let pos = &initial.position;
    let preset = Handicap::matching(pos).filter(|h| WIDELY_KNOWN_HANDICAPS.contains(&h.name));
    if let Some(h) = preset {
        return format!("手合割：{}\n", h.name);
    }
    let handicap = initial.is_handicap_game();
    let mut s = String::new();
    bod::write_position(pos, &mut s, handicap);
    s.push_str(if pos.side_to_move() == Color::Black {
        if handicap {
            "下手番\n"
        } else {
            "先手番\n"
        }
    } else if handicap {
        "上手番\n"
    } else {
        "後手番\n"
    });
    s
}

struct Out {
    text: String,
    /// Moves on the current text line (0 = at a line start).
    in_line: usize,
    last_len: usize,
}

impl Out {
    fn end_line(&mut self) {
        if self.in_line > 0 {
            self.text.push('\n');
            self.in_line = 0;
        }
    }
    fn push_move(&mut self, s: &str) {
        if self.in_line > 0 {
            let pad = 12usize.saturating_sub(self.last_len * 2);
            self.text.extend(std::iter::repeat_n(' ', pad));
        }
        self.text.push_str(s);
        self.last_len = s.chars().count();
        self.in_line += 1;
        if self.in_line >= 6 {
            self.end_line();
        }
    }
    fn notes(&mut self, record: &Record, id: NodeId) {
        let node = record.node(id);
        if !node.comment.is_empty() {
            self.end_line();
            for l in node.comment.split('\n') {
                self.text.push('*');
                self.text.push_str(l);
                self.text.push('\n');
            }
        }
        if let Some(b) = &node.bookmark {
            self.end_line();
            self.text.push('&');
            self.text.push_str(b);
            self.text.push('\n');
        }
    }
}

/// Writes a record as KI2 (`\n` line ends). Times cannot be held and are listed as losses.
pub fn write(record: &Record) -> Written {
    let mut out = Out {
        text: String::new(),
        in_line: 0,
        last_len: 0,
    };
    for l in &record.program_lines {
        let lower = l.to_ascii_lowercase();
        if lower.contains("encoding=") {
            continue;
        }
        out.text.push_str(l);
        out.text.push('\n');
    }
    for f in &record.header.fields {
        out.text.push_str(&format!("{}：{}\n", f.key, f.value));
    }
    out.text.push_str(&position_text(&record.initial));
    out.notes(record, NodeId::ROOT);
    let handicap = record.initial.is_handicap_game();

    // Lines to write: each starts at a node; the root line starts at the root itself.
    let mut stack: Vec<NodeId> = vec![NodeId::ROOT];
    let mut losses = Vec::new();
    let mut timed = 0usize;
    let mut odd_specials = 0usize;
    while let Some(start) = stack.pop() {
        let mut pos;
        let mut chain = Vec::new();
        if start == NodeId::ROOT {
            pos = record.initial.position.clone();
            chain.push(start);
        } else {
            let parent = record.node(start).parent.unwrap_or(NodeId::ROOT);
            pos = record.position_at(parent);
            out.end_line();
            out.text
                .push_str(&format!("\n変化：{}手\n", record.node(start).ply));
            chain.push(start);
        }
        let mut id = start;
        loop {
            let node = record.node(id);
            if id != NodeId::ROOT {
                if node.time.is_some() {
                    timed += 1;
                }
                match &node.step {
                    Step::Move(md) => {
                        let prev_to = node
                            .parent
                            .and_then(|p| record.node(p).move_data())
                            .map(|m| m.mv.to());
                        let s = move_text(&pos, md, prev_to);
                        out.push_move(&s);
                        let _ = pos.play_unchecked(md.mv);
                    }
                    Step::Special(sp) => {
                        if matches!(sp, Special::WinByDefault | Special::LossByDefault) {
                            odd_specials += 1;
                        }
                        out.end_line();
                        let side = record.side_to_move_at(id);
                        out.text.push_str(&Special::result_line(
                            sp,
                            node.ply.saturating_sub(1),
                            side,
                            handicap,
                        ));
                        out.text.push('\n');
                    }
                    Step::Root => {}
                }
                out.notes(record, id);
            }
            match node.children.first() {
                Some(&c) => {
                    chain.push(c);
                    id = c;
                }
                None => break,
            }
        }
        out.end_line();
        // Alternatives along this line, deepest branch point first, each in branch order.
        for &n in chain.iter().skip(1) {
            let parent = record.node(n).parent.unwrap_or(NodeId::ROOT);
            for &alt in record.node(parent).children.iter().skip(1).rev() {
                stack.push(alt);
            }
        }
    }
    if timed > 0 {
        losses.push(format!("times on {timed} moves (KI2 holds no times)"));
    }
    if odd_specials > 0 {
        losses.push(format!(
            "{odd_specials} 不戦勝/不戦敗 endings (KI2 writes them as a win and reads them back as 投了)"
        ));
    }
    Written {
        text: out.text,
        losses,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(f: u8, r: u8) -> Square {
        Square::new(f, r).unwrap()
    }

    #[test]
    fn renders_and_reads_simple_moves() {
        let pos = Position::startpos();
        let t = parse_token(&pos, "７六歩", None).unwrap();
        let Token::Move(md) = t else { panic!() };
        assert_eq!(md.mv.usi(), "7g7f");
        assert_eq!(move_text(&pos, &md, None), "▲７六歩");
        // Two golds can reach 5h.
        let Token::Move(md) = parse_token(&pos, "５八金右", None).unwrap() else {
            panic!()
        };
        assert_eq!(md.mv.usi(), "4i5h");
        assert_eq!(move_text(&pos, &md, None), "▲５八金右");
        assert!(parse_token(&pos, "５八金", None).is_err());
        let Token::Move(md) = parse_token(&pos, "78金", None).unwrap() else {
            panic!()
        };
        assert_eq!(md.mv.from(), Some(sq(6, 9)));
    }

    #[test]
    fn made_lines() {
        for (l, s) in [
            ("まで81手で後手の勝ち", Special::Resign),
            ("まで3手で中断", Special::Interrupt),
            ("まで3手で時間切れにより先手の勝ち", Special::Timeout),
            ("まで3手で後手の反則勝ち", Special::FoulWin),
            ("まで2手で先手の反則負け", Special::FoulLose),
            ("まで3手で先手の入玉勝ち", Special::EnteringKing),
            ("まで3手で千日手", Special::RepetitionDraw),
            ("まで3手で持将棋", Special::Impass),
            ("まで3手で詰", Special::Mate),
            ("まで3手で詰み", Special::Mate),
            ("まで3手で不詰", Special::NoMate),
            ("まで61手詰", Special::Other("61手詰".into())),
        ] {
            assert_eq!(read_end_of_game(strip_made(l).unwrap()), s, "{l}");
        }
    }
}
