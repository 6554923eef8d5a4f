//! The CSA reader.

use super::HEADER_KEYS;
use crate::notation::builder::{RecordBuilder, Style};
use crate::notation::diag::MoveName;
use crate::notation::{DiagKind, Parsed, short_lines, trim_end, trim_start};
use crate::record::{Initial, MoveTime, NodeId, Special, Step};
use crate::rules::{Color, Handicap, Move, Piece, PieceKind, Position, Square};

/// Reads CSA text (already decoded) into records: one per `/`-separated record, never empty.
pub fn read(text: &str) -> Vec<Parsed> {
    read_with_ends(text).0
}

/// [`read`], and where each record's text ends: the byte offset in `text` just after the
/// `/` line that closes it (the text's length for the last). Cut at these offsets, `text`
/// gives one piece per record (a blank or comment-only piece between two `/` goes with the
/// record after it; whatever follows the last record goes with it), so that one record can
/// be written back among the others as they were.
pub fn read_with_ends(full: &str) -> (Vec<Parsed>, Vec<usize>) {
    let text = full.strip_prefix('\u{feff}').unwrap_or(full);
    let base = full.len() - text.len();
    let mut out = Vec::new();
    let mut ends = Vec::new();
    let mut r = Reader::new();
    // About one node per 12 bytes of a typical record (`+7776FU\nT12\n`): room for the first
    // record only (a file of 10^5 records must not reserve for all of them at once).
    r.b.record_mut().nodes.reserve(first_record_len(text) / 12);
    for (i, line) in short_lines(text).enumerate() {
        if line
            .as_bytes()
            .first()
            .is_some_and(|&b| b == b'/' || b == b' ')
            && line.trim() == "/"
        {
            if r.content {
                out.push(std::mem::replace(&mut r, Reader::new()).finish());
                ends.push(base + line_end(text, line));
            } else {
                r = Reader::new();
            }
            continue;
        }
        r.line(line, i + 1);
    }
    if r.content || out.is_empty() {
        out.push(r.finish());
        ends.push(full.len());
    } else if let Some(last) = ends.last_mut() {
        *last = full.len();
    }
    (out, ends)
}

/// The length of the first record of `text`: up to its first `/` line (the whole text when
/// there is none).
fn first_record_len(text: &str) -> usize {
    memchr::memmem::find_iter(text.as_bytes(), b"\n/")
        .find(|&at| {
            let rest = &text[at + 2..];
            rest.split(['\n', '\r'])
                .next()
                .is_some_and(|l| l.trim().is_empty())
        })
        .unwrap_or(text.len())
}

/// The offset in `text` just after `line` (a slice of it) and its line break.
fn line_end(text: &str, line: &str) -> usize {
    let end = line.as_ptr() as usize - text.as_ptr() as usize + line.len();
    let rest = &text.as_bytes()[end..];
    end + match rest {
        [b'\r', b'\n', ..] => 2,
        [b'\r' | b'\n', ..] => 1,
        _ => 0,
    }
}

/// Where the reader is in a record.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Before the turn line: version, names, `$` fields, position.
    Header,
    /// After the turn line (or the first move).
    Moves,
    /// After a move that could not be played: later moves are skipped.
    Stopped,
}

struct Reader {
    b: RecordBuilder,
    /// Empty comment lines (`'*`) that began a node's comment, by line: kept when more lines
    /// follow, named in a warning when they stay the node's only comment (a record holds no
    /// empty comment).
    lone_empty: Vec<(usize, crate::record::NodeId)>,
    phase: Phase,
    /// The position being set up (header phase).
    pos: Position,
    /// A `PI` or `P1`..`P9` line was seen.
    board_seen: bool,
    /// A `P+`/`P-` line was seen.
    pieces_seen: bool,
    /// `00AL` was given for this side.
    al: Option<Color>,
    /// A `%` ending was read.
    ended: bool,
    any_time: bool,
    /// Something other than blank lines and plain comments was read.
    content: bool,
    /// Number of move statements skipped after the record stopped.
    skipped: usize,
    /// The warning that stopped the moves (its message gets the number skipped).
    stop_warning: Option<usize>,
}

/// Reads a CSA two-letter piece code.
fn piece_code(b: &[u8]) -> Option<PieceKind> {
    Some(match b {
        b"FU" => PieceKind::Pawn,
        b"KY" => PieceKind::Lance,
        b"KE" => PieceKind::Knight,
        b"GI" => PieceKind::Silver,
        b"KI" => PieceKind::Gold,
        b"KA" => PieceKind::Bishop,
        b"HI" => PieceKind::Rook,
        b"OU" => PieceKind::King,
        b"TO" => PieceKind::ProPawn,
        b"NY" => PieceKind::ProLance,
        b"NK" => PieceKind::ProKnight,
        b"NG" => PieceKind::ProSilver,
        b"UM" => PieceKind::Horse,
        b"RY" => PieceKind::Dragon,
        _ => return None,
    })
}

fn digit(b: u8) -> Option<u8> {
    b.is_ascii_digit().then(|| b - b'0')
}

fn sign(c: Color) -> char {
    match c {
        Color::Black => '+',
        Color::White => '-',
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black (+)",
        Color::White => "White (-)",
    }
}

/// Parses a `T` time: `T12`, `T6.123` (seconds, decimals allowed) into milliseconds.
fn parse_time(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut secs = 0u64;
    while i < b.len() && b[i].is_ascii_digit() {
        if i >= 12 {
            return None;
        }
        secs = secs * 10 + u64::from(b[i] - b'0');
        i += 1;
    }
    if i == 0 {
        return None;
    }
    let mut ms = 0u64;
    if i < b.len() {
        if b[i] != b'.' {
            return None;
        }
        let mut scale = 100;
        for &d in &b[i + 1..] {
            if !d.is_ascii_digit() {
                return None;
            }
            ms += u64::from(d - b'0') * scale;
            scale /= 10;
        }
    }
    Some(secs * 1000 + ms)
}

impl Reader {
    fn new() -> Reader {
        Reader {
            b: RecordBuilder::new(Style { branches: false }),
            phase: Phase::Header,
            pos: Position::empty(),
            board_seen: false,
            pieces_seen: false,
            al: None,
            ended: false,
            any_time: false,
            content: false,
            skipped: 0,
            stop_warning: None,
            lone_empty: Vec::new(),
        }
    }

    fn warn(&mut self, line: usize, kind: DiagKind, msg: impl Into<String>) {
        self.b.warn(line, kind, msg);
    }

    /// Reads one line (without its line break).
    fn line(&mut self, line: &str, no: usize) {
        let t = trim_start(line);
        let first = t.as_bytes().first().copied();
        match first {
            None => {}
            Some(b'\'') | Some(b'N') | Some(b'$') => self.statement(t, no),
            Some(_) => {
                // `,` joins statements; a `'` comment takes the rest of the line.
                let mut rest = t;
                loop {
                    let s = trim_start(rest);
                    if s.starts_with('\'') {
                        self.statement(s, no);
                        break;
                    }
                    match s.bytes().position(|b| b == b',') {
                        Some(i) => {
                            self.statement(&s[..i], no);
                            rest = &s[i + 1..];
                        }
                        None => {
                            self.statement(s, no);
                            break;
                        }
                    }
                }
            }
        }
    }

    fn statement(&mut self, s: &str, no: usize) {
        let b = s.as_bytes();
        let Some(&c0) = b.first() else { return };
        if c0 == b'\'' {
            match s.strip_prefix("'*") {
                Some(text) => self.comment(text, no),
                // A plain `'` line (Floodgate's `'summary:…`, `'rating:…`, a program's notes)
                // is a remark, which readers skip: kept as one, not as a comment; the encoding
                // declaration is neither.
                None if !super::is_encoding_line(s) => self.remark(&s[1..]),
                None => {}
            }
            return;
        }
        let s = trim_end(s);
        let b = s.as_bytes();
        self.content = true;
        match c0 {
            b'+' | b'-' if b.len() == 1 => self.turn(if c0 == b'+' { Color::Black } else { Color::White }, no),
            b'+' | b'-' => self.mv(s, no),
            b'T' => self.time(s, no),
            b'%' => self.special(s, no),
            b'P' => self.position_line(s, no),
            b'N' if b.len() >= 2 && (b[1] == b'+' || b[1] == b'-') => {
                // An empty name is kept (the writer writes `N+` back).
                let key = if b[1] == b'+' { "先手" } else { "後手" };
                self.b.record_mut().header.set(key, &s[2..]);
            }
            b'$' => self.field(s, no),
            b'V' => {
                if !matches!(s, "V1" | "V2" | "V2.1" | "V2.2" | "V3.0") {
                    self.warn(
                        no,
                        DiagKind::Unsupported,
                        format!("unknown CSA version '{s}' (expected V2, V2.1, V2.2 or V3.0); read anyway"),
                    );
                }
            }
            _ => self.warn(
                no,
                DiagKind::UnknownLine,
                format!(
                    "unreadable line '{}': expected a move (+7776FU), a time (T12), an ending (%TORYO), a comment ('*), a name (N+), a field ($EVENT:), a position (PI, P1..P9, P+, P-) or a turn (+/-)",
                    short(s)
                ),
            ),
        }
    }

    fn comment(&mut self, text: &str, no: usize) {
        if self.phase == Phase::Stopped {
            return;
        }
        let id = self.b.cur();
        if text.is_empty() && self.b.record_mut().node(id).comment.is_empty() {
            self.lone_empty.push((no, id));
        }
        self.b.comment_line(text);
    }

    /// A remark line (`'x`): the record's before the position, else the current node's.
    fn remark(&mut self, text: &str) {
        match self.phase {
            Phase::Stopped => {}
            Phase::Header => self.b.record_mut().program_lines.push(format!("#{text}")),
            _ => self.b.remark_line(text),
        }
    }

    fn field(&mut self, s: &str, no: usize) {
        let Some((key, value)) = s[1..].split_once(':') else {
            self.warn(
                no,
                DiagKind::BadHeader,
                format!("field '{}' has no ':' (expected $KEY:value)", short(s)),
            );
            return;
        };
        if key.is_empty() {
            self.warn(
                no,
                DiagKind::BadHeader,
                "field with an empty key (expected $KEY:value)",
            );
            return;
        }
        // An empty value is kept (`$EVENT:` is written back as it was).
        let name = HEADER_KEYS
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, n)| *n)
            .unwrap_or(key);
        // Every field is kept, as in the file: `$TIME_LIMIT` and V3.0's `$TIME` are both
        // 持ち時間 (a file may hold both), and a repeated key is a field of its own; only an
        // empty one written early (`$END_TIME:` before the moves) is filled in.
        let fields = &mut self.b.record_mut().header.fields;
        match fields
            .iter_mut()
            .find(|f| f.key == name && f.value.is_empty())
        {
            Some(f) => f.value = value.to_string(),
            None => fields.push(crate::record::HeaderField {
                key: name.to_string(),
                value: value.to_string(),
            }),
        }
    }

    // ---- position ----

    fn position_line(&mut self, s: &str, no: usize) {
        if self.phase != Phase::Header {
            self.warn(
                no,
                DiagKind::BadBoard,
                format!(
                    "position line '{}' after the moves began; ignored",
                    short(s)
                ),
            );
            return;
        }
        let b = s.as_bytes();
        match b.get(1) {
            Some(b'I') => self.pi(s, no),
            Some(&d @ b'1'..=b'9') => self.rank(d - b'0', &s[2..], no),
            Some(b'+') => self.pieces(Color::Black, &s[2..], no),
            Some(b'-') => self.pieces(Color::White, &s[2..], no),
            _ => self.warn(
                no,
                DiagKind::BadBoard,
                format!(
                    "unreadable position line '{}' (expected PI, P1..P9, P+ or P-)",
                    short(s)
                ),
            ),
        }
    }

    fn pi(&mut self, s: &str, no: usize) {
        if self.board_seen || self.pieces_seen {
            self.warn(
                no,
                DiagKind::BadBoard,
                "PI after another position line; it replaces the position",
            );
        }
        self.board_seen = true;
        self.pos = Position::startpos();
        let rest = s[2..].trim().as_bytes();
        for chunk in rest.chunks(4) {
            let parsed = (chunk.len() == 4)
                .then(|| {
                    let sq = Square::new(digit(chunk[0])?, digit(chunk[1])?)?;
                    Some((sq, piece_code(&chunk[2..4])?))
                })
                .flatten();
            let Some((sq, kind)) = parsed else {
                self.warn(
                    no,
                    DiagKind::BadBoard,
                    format!(
                        "unreadable removal '{}' in PI (expected square and piece, e.g. 82HI)",
                        String::from_utf8_lossy(chunk)
                    ),
                );
                continue;
            };
            match self.pos.piece_at(sq) {
                Some(p) if p.kind == kind => self.pos.set_piece(sq, None),
                _ => self.warn(
                    no,
                    DiagKind::BadBoard,
                    format!(
                        "PI removes {}{}{} but there is no such piece there",
                        sq.file(),
                        sq.rank(),
                        kind.csa()
                    ),
                ),
            }
        }
    }

    fn rank(&mut self, rank: u8, cells: &str, no: usize) {
        self.board_seen = true;
        let b = cells.as_bytes();
        let mut i = 0;
        let mut col = 0u8; // 0 = file 9
        while i < b.len() {
            match b[i] {
                b' ' | b'\t' => i += 1,
                b'*' => {
                    if col < 9
                        && let Some(sq) = Square::new(9 - col, rank)
                    {
                        self.pos.set_piece(sq, None);
                    }
                    col += 1;
                    i += 1;
                }
                c @ (b'+' | b'-') if i + 3 <= b.len() => {
                    let color = if c == b'+' {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let Some(kind) = piece_code(&b[i + 1..i + 3]) else {
                        self.warn(
                            no,
                            DiagKind::BadBoard,
                            format!(
                                "unknown piece '{}' in row P{rank} (expected FU, KY, KE, GI, KI, KA, HI, OU, TO, NY, NK, NG, UM or RY)",
                                String::from_utf8_lossy(&b[i + 1..i + 3])
                            ),
                        );
                        return;
                    };
                    if col < 9
                        && let Some(sq) = Square::new(9 - col, rank)
                    {
                        self.pos.set_piece(sq, Some(Piece::new(kind, color)));
                    }
                    col += 1;
                    i += 3;
                }
                _ => {
                    self.warn(
                        no,
                        DiagKind::BadBoard,
                        format!(
                            "unreadable cell in row P{rank} at '{}' (expected ' * ' or a piece such as +FU / -KA)",
                            short(String::from_utf8_lossy(&b[i..]).as_ref())
                        ),
                    );
                    return;
                }
            }
        }
        if col > 9 {
            self.warn(
                no,
                DiagKind::BadBoard,
                format!("row P{rank} has {col} cells; only the first 9 are used"),
            );
        }
        // Fewer than 9 cells: the missing trailing cells are empty squares (copied text often
        // loses trailing spaces). Clear them in case a P+/P- line put pieces there.
        while col < 9 {
            if let Some(sq) = Square::new(9 - col, rank) {
                self.pos.set_piece(sq, None);
            }
            col += 1;
        }
    }

    fn pieces(&mut self, color: Color, list: &str, no: usize) {
        self.pieces_seen = true;
        let b = list.trim().as_bytes();
        for chunk in b.chunks(4) {
            if chunk == b"00AL" {
                if self.al.is_some() {
                    self.warn(
                        no,
                        DiagKind::BadBoard,
                        "00AL given twice; the first one counts",
                    );
                } else {
                    self.al = Some(color);
                }
                continue;
            }
            let parsed = (chunk.len() == 4)
                .then(|| {
                    let f = digit(chunk[0])?;
                    let r = digit(chunk[1])?;
                    let kind = piece_code(&chunk[2..4])?;
                    Some((f, r, kind))
                })
                .flatten();
            let Some((f, r, kind)) = parsed else {
                self.warn(
                    no,
                    DiagKind::BadBoard,
                    format!(
                        "unreadable piece '{}' in P{} (expected e.g. 00FU for a piece in hand, 55KA on the board, or 00AL)",
                        String::from_utf8_lossy(chunk),
                        sign(color)
                    ),
                );
                continue;
            };
            if f == 0 && r == 0 {
                if !kind.is_hand_kind() {
                    self.warn(
                        no,
                        DiagKind::BadBoard,
                        format!("{} cannot be held in hand", kind.csa()),
                    );
                    continue;
                }
                let n = self.pos.hand_count(color, kind);
                if !self.pos.set_hand_count(color, kind, n.saturating_add(1)) {
                    self.warn(
                        no,
                        DiagKind::BadBoard,
                        format!("too many {} in hand", kind.csa()),
                    );
                }
            } else if let Some(sq) = Square::new(f, r) {
                self.pos.set_piece(sq, Some(Piece::new(kind, color)));
            } else {
                self.warn(
                    no,
                    DiagKind::BadBoard,
                    format!("no square {f}{r} in P{}", sign(color)),
                );
            }
        }
    }

    /// Ends the header: completes the position and starts the moves with `side` to move.
    fn begin_moves(&mut self, side: Color, no: usize) {
        if !self.board_seen && !self.pieces_seen {
            self.warn(
                no,
                DiagKind::BadBoard,
                "no initial position (PI or P1..P9) before the moves; 平手 assumed",
            );
            self.pos = Position::startpos();
        }
        if let Some(c) = self.al {
            for (kind, missing) in self.pos.missing_pieces() {
                let n = self.pos.hand_count(c, kind);
                self.pos.set_hand_count(c, kind, n.saturating_add(missing));
            }
        }
        self.pos.set_side_to_move(side);
        self.pos.set_move_number(1);
        let handicap = Handicap::matching(&self.pos);
        let initial = Initial {
            position: std::mem::replace(&mut self.pos, Position::empty()),
            handicap,
        };
        self.b.set_initial(initial, no);
        self.phase = Phase::Moves;
    }

    fn turn(&mut self, side: Color, no: usize) {
        if self.phase != Phase::Header {
            self.warn(
                no,
                DiagKind::UnknownLine,
                "a second turn line (+ or -) after the moves began; ignored",
            );
            return;
        }
        self.begin_moves(side, no);
    }

    /// Common checks before a move or an ending; false when it must be skipped.
    fn before_step(&mut self, s: &str, side: Color, no: usize) -> bool {
        if self.phase == Phase::Header {
            self.warn(
                no,
                DiagKind::BadBoard,
                format!(
                    "no turn line (+ or -) before the first move; {} to move assumed",
                    side_name(side)
                ),
            );
            self.begin_moves(side, no);
        }
        if self.phase == Phase::Stopped {
            self.skipped += 1;
            return false;
        }
        if self.ended {
            self.stop(
                no,
                DiagKind::AfterEnd,
                format!("'{}' after the game ended", short(s)),
            );
            self.skipped = 1;
            return false;
        }
        true
    }

    fn stop(&mut self, no: usize, kind: DiagKind, msg: String) {
        self.stop_warning = Some(self.b.warnings_mut().len());
        self.warn(
            no,
            kind,
            format!("{msg}; the rest of the moves are skipped"),
        );
        self.phase = Phase::Stopped;
    }

    fn mv(&mut self, s: &str, no: usize) {
        let b = s.as_bytes();
        let color = if b[0] == b'+' {
            Color::Black
        } else {
            Color::White
        };
        let side = if self.phase == Phase::Header {
            color
        } else {
            self.b.position().side_to_move()
        };
        if !self.before_step(s, side, no) {
            return;
        }
        let side = self.b.position().side_to_move();
        // The move as messages name it: its number, as KIF numbers it, and the file's own text.
        let n = self.b.record().moves_before() + self.b.ply() + 1;
        let m = MoveName {
            number: n,
            mark: None,
            text: s,
        };
        let parsed = (b.len() == 7)
            .then(|| {
                Some((
                    digit(b[1])?,
                    digit(b[2])?,
                    Square::new(digit(b[3])?, digit(b[4])?)?,
                    piece_code(&b[5..7])?,
                ))
            })
            .flatten();
        let Some((ff, fr, to, code)) = parsed else {
            self.stop(
                no,
                DiagKind::BadMove,
                format!(
                    "move {n}: unreadable '{}' (expected e.g. +7776FU: sign, from, to, piece)",
                    short(s)
                ),
            );
            return;
        };
        if color != side {
            self.stop(
                no,
                DiagKind::ImpossibleMove,
                format!(
                    "{m} is {}'s but {} is to move",
                    side_name(color),
                    side_name(side)
                ),
            );
            return;
        }
        let mv = if ff == 0 && fr == 0 {
            if !code.is_hand_kind() {
                self.stop(
                    no,
                    DiagKind::BadMove,
                    format!("{m} drops {}, which cannot be dropped", code.csa()),
                );
                return;
            }
            Move::Drop { kind: code, to }
        } else {
            let Some(from) = Square::new(ff, fr) else {
                self.stop(
                    no,
                    DiagKind::BadMove,
                    format!("{m} starts on no square ({ff}{fr})"),
                );
                return;
            };
            let Some(p) = self.b.position().piece_at(from) else {
                self.stop(
                    no,
                    DiagKind::ImpossibleMove,
                    format!("{m}: no piece on {ff}{fr}"),
                );
                return;
            };
            if p.color != side {
                self.stop(
                    no,
                    DiagKind::ImpossibleMove,
                    format!("{m}: the piece on {ff}{fr} is {}'s", side_name(p.color)),
                );
                return;
            }
            let promote = if code == p.kind {
                false
            } else if p.kind.promote() == Some(code) {
                true
            } else {
                let promote = code.is_promoted() && p.kind.can_promote();
                self.warn(
                    no,
                    DiagKind::BadMove,
                    format!(
                        "{m} names {} but the piece on {ff}{fr} is {}; read as {}",
                        code.csa(),
                        p.kind.csa(),
                        if promote {
                            "a promotion"
                        } else {
                            "a move of that piece"
                        }
                    ),
                );
                promote
            };
            Move::Normal { from, to, promote }
        };
        match self.b.play(mv) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => self.warn(
                no,
                DiagKind::IllegalMove,
                format!("{m} is illegal: {}", e.describe()),
            ),
            Err(why) => {
                // Not playable at all (rare): the rules say why.
                let why = why.map_or("it cannot be played", |e| e.describe());
                self.stop(
                    no,
                    DiagKind::ImpossibleMove,
                    format!("{m} cannot be played: {why}"),
                );
            }
        }
    }

    fn special(&mut self, s: &str, no: usize) {
        if self.ended
            && self.phase == Phase::Moves
            && self.b.ended() == Some(&Special::from_csa(s, self.b.position().side_to_move()))
        {
            // Servers repeat the ending (`%KACHI` then `%KACHI`): the same ending again adds nothing.
            return;
        }
        let side = if self.phase == Phase::Header {
            Color::Black
        } else {
            self.b.position().side_to_move()
        };
        if !self.before_step(s, side, no) {
            return;
        }
        if s.len() < 2 {
            self.warn(
                no,
                DiagKind::BadMove,
                "'%' with no word (expected e.g. %TORYO)",
            );
            return;
        }
        let sp = Special::from_csa(s, self.b.position().side_to_move());
        if let Special::Other(w) = &sp
            && !w.bytes().all(|b| {
                b.is_ascii_uppercase() || b.is_ascii_digit() || matches!(b, b'_' | b'+' | b'-')
            })
        {
            self.warn(
                no,
                DiagKind::BadMove,
                format!(
                    "unknown ending '{}' (CSA endings are words such as %TORYO); kept as written",
                    short(s)
                ),
            );
        }
        self.b.end(sp);
        self.ended = true;
    }

    fn time(&mut self, s: &str, no: usize) {
        if self.phase == Phase::Stopped {
            return;
        }
        let Some(ms) = parse_time(&s[1..]) else {
            self.warn(
                no,
                DiagKind::BadTime,
                format!(
                    "unreadable time '{}' (expected T and seconds, e.g. T12 or T6.5)",
                    short(s)
                ),
            );
            return;
        };
        if self.b.cur() == NodeId::ROOT {
            self.warn(
                no,
                DiagKind::BadTime,
                format!("time '{s}' before the first move; ignored"),
            );
            return;
        }
        if self.b.record().node(self.b.cur()).time.is_some() {
            self.warn(
                no,
                DiagKind::BadTime,
                format!("a second time '{s}' for one move; ignored"),
            );
            return;
        }
        self.b.time(Some(MoveTime {
            spent_ms: ms,
            total_ms: None,
        }));
        self.any_time = true;
    }

    fn finish(mut self) -> Parsed {
        for (no, id) in std::mem::take(&mut self.lone_empty) {
            if self.b.record_mut().node(id).comment.is_empty() {
                self.warn(
                    no,
                    DiagKind::Unsupported,
                    "an empty comment line ('*) with no other comment line on its move is not kept",
                );
            }
        }
        if !self.content {
            self.warn(0, DiagKind::UnknownLine, "no CSA record found");
        }
        if self.phase == Phase::Header {
            if self.board_seen || self.pieces_seen {
                self.begin_moves(Color::Black, 0);
                self.warn(
                    0,
                    DiagKind::BadBoard,
                    "no turn line (+ or -) after the position; Black to move assumed",
                );
            } else if self.content {
                self.pos = Position::startpos();
                self.begin_moves(Color::Black, 0);
            }
        }
        if let Some(w) = self
            .stop_warning
            .and_then(|i| self.b.warnings_mut().get_mut(i))
        {
            match self.skipped {
                0 => {}
                1 => w.message.push_str(" (1 skipped)"),
                n => w.message.push_str(&format!(" ({n} skipped)")),
            }
        }
        if self.any_time {
            // Running totals per player; moves without a `T` line spent 0 seconds.
            let mut totals = [0u64; 2];
            let record = self.b.record_mut();
            let first = record.initial.position.side_to_move();
            for n in record.nodes.iter_mut().skip(1) {
                let color = match &n.step {
                    Step::Move(m) => m.color,
                    _ if (n.ply - 1) % 2 == 0 => first,
                    _ => first.flip(),
                };
                let t = n.time.get_or_insert_with(MoveTime::default);
                totals[color.index()] += t.spent_ms;
                t.total_ms = Some(totals[color.index()]);
            }
        }
        self.b.finish()
    }
}

/// The start of `s`, for messages.
fn short(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}
