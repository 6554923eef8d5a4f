//! KI2 move notation: the JSA suffixes (右 左 直 上 引 寄 打) that tell apart the pieces of one
//! kind that can reach a square, rendered and read with the rules' own movement
//! ([`Position::attackers`]). Reading names the pieces that can reach the square (pins ignored,
//! as real records contain illegal moves) and prefers the one the rules allow.

use crate::notation::japanese::{self, piece_prefix, square_prefix};
use crate::record::{MoveData, Special};
use crate::rules::{Color, Move, Piece, PieceKind, Position, Square};

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
    let attackers = pos.attackers(md.mv.to(), Piece::new(md.piece, md.color));
    suffix_among(&attackers, md)
}

/// [`direction_suffix`] among `attackers`, the pieces of the mover's kind that can reach the
/// destination.
fn suffix_among(attackers: &[Square], md: &MoveData) -> String {
    let to = md.mv.to();
    let from = match md.mv {
        Move::Normal { from, .. } => from,
        Move::Drop { .. } => {
            return if attackers.is_empty() {
                String::new()
            } else {
                "打".to_string()
            };
        }
    };
    let others: Vec<Square> = attackers.iter().copied().filter(|&s| s != from).collect();
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

/// `moves` from `pos` in Japanese with side marks, as KI2 writes them: `▲７六歩△３四歩`,
/// `△同　銀右` (an engine's line, a move of the explorer, a mate found). `prev_to` is the
/// destination of the move that led to `pos` (for `同`). Stops at the first move that cannot
/// be played.
pub fn line_text(pos: &Position, moves: &[Move], prev_to: Option<Square>) -> String {
    let mut out = String::with_capacity(moves.len() * 13);
    let mut p = pos.clone();
    let mut prev = prev_to;
    for &mv in moves {
        let Some(md) = p.move_data(mv) else { break };
        out.push_str(&move_text(&p, &md, prev));
        if p.play_unchecked(mv).is_none() {
            break;
        }
        prev = Some(mv.to());
    }
    out
}

/// A move in KI2 style with its side mark: `▲７六歩`, `△同　銀右`, `▲５五角打`, `▲２二角不成`.
/// `pos` is the position before the move; `prev_to` the previous move's destination (for 同).
///
/// A move no piece of its kind could make by the rules' movement (an illegal move kept from a
/// file: a rook jumping over a piece) has no KI2 name, since a KI2 move is found among the
/// pieces that can reach its square: it names its origin as KIF does, `▲２二飛不成(28)`,
/// which [`parse_token`] reads back as that move.
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
    let attackers = pos.attackers(to, Piece::new(md.piece, md.color));
    s.push_str(&suffix_among(&attackers, md));
    if let Move::Normal { from, promote, .. } = md.mv {
        if promote {
            s.push('成');
        } else if japanese::could_promote(md) {
            s.push_str("不成");
        }
        if !attackers.contains(&from) {
            s.push('(');
            s.push(char::from(b'0' + from.file()));
            s.push(char::from(b'0' + from.rank()));
            s.push(')');
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

/// A move token without its spaces, as messages quote it (`５五角`).
pub fn token_text(token: &str) -> String {
    token
        .chars()
        .filter(|&c| !japanese::is_space(c) && c != '\r')
        .collect()
}

/// Reads one move token (the text after `▲`/`△`, spaces allowed) in `pos`, where the side to move
/// plays it. Returns what it is, or a message saying what was expected.
pub fn parse_token(pos: &Position, token: &str, prev_to: Option<Square>) -> Result<Token, String> {
    let t = token_text(token);
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
        let mut cands: Vec<Square> = pos
            .attackers(to, piece)
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
