//! Strategy and castle tags (戦型・囲い) of a game, computed from the positions of its main
//! line with kifview's own rules, written from the public definitions of each shape (castle
//! diagrams as board masks, the rook's file for 振り飛車). Terminal-free and pure.
//!
//! # The tags
//!
//! Every tag is a Japanese name. A tag about one side comes twice: plain (`美濃囲い`, so that a
//! filter finds a game whoever built it) and with the side (`後手美濃囲い`: `先手` is Black, the
//! side that moves first in an even game, `後手` is White; in a handicap game `先手` is 下手).
//! [`KNOWN`] lists every plain name; a sided name is `先手` or `後手` before one of them.
//!
//! - The game (even games only, from the start position): `相居飛車`, `対抗形` (居飛車 against
//!   振り飛車) or `相振り飛車`; then for 相居飛車 at most one of `横歩取り`, `一手損角換わり`
//!   (with `角換わり`), `角換わり`, `相掛かり`, `矢倉`, tried in that order, plus `雁木` and
//!   `右四間飛車` when a side plays them; `力戦` when none of these.
//! - Each side (even games only): `居飛車` or `振り飛車`, the file for 振り飛車 (`中飛車`,
//!   `四間飛車`, `三間飛車`, `向かい飛車`), `右四間飛車`, `石田流`, `ゴキゲン中飛車`.
//! - Each side's castles (every game): `片美濃囲い`, `美濃囲い`, `高美濃囲い`, `銀冠`,
//!   `振り飛車穴熊`, `居飛車穴熊` (both with `穴熊`), `舟囲い`, `エルモ囲い`, `左美濃`,
//!   `天守閣美濃`, `ミレニアム囲い` (`菊水矢倉` in a 相居飛車 game), `金矢倉`, `銀矢倉`,
//!   `平矢倉`, `片矢倉`, `土居矢倉`, `雁木囲い`, and `居玉` (the king still on its square
//!   after 40 plies).
//!
//! # The rules (squares from the side's own view: its camp is ranks 7–9, its rook starts on ２八)
//!
//! - The rook: the original rook is followed move by move over the first [`STYLE_PLIES`]
//!   plies. A side whose rook stood on files 5–9 of its own ranks 7–9 (or on ７六, 石田流's
//!   square) in at least 3 of those positions plays 振り飛車, on the file where it stood
//!   longest (the earlier on a tie; file 9 has no name); otherwise 居飛車, once the line is
//!   [`MIN_PLIES`] long (a shorter game gets no style). `右四間飛車`: a 居飛車 rook on file 4 of ranks 7–9 with the fourth-file pawn
//!   pushed, in 3 positions. `石田流`: a 三間飛車 rook on ７六 with its pawn on ７五.
//!   `ゴキゲン中飛車`: a White 中飛車 whose pawn reached ５五 with its bishop's diagonal open
//!   (its ７筋 pawn pushed, its ６筋 pawn not).
//! - Within [`OPENING_PLIES`] plies: `横歩取り` when Black's rook takes the pawn on ３四 or
//!   White's the pawn on ７六 (absolute squares); `角換わり` when both bishops have been
//!   exchanged (each side holds one, none on the board), `一手損角換わり` when White's bishop
//!   took Black's first with White's rook's pawn still short of ８五; `相掛かり` when both
//!   rook's pawns reached the fifth rank before either side opened its bishop's diagonal.
//!   `矢倉`: a side built one of the 矢倉 castles, or its silver ７七, gold ７八 and pawn ６六,
//!   within [`CASTLE_PLIES`].
//! - Castles: [`CASTLES`] holds each as the pieces it needs on squares of the side's camp. Every
//!   castle matched in a position of the first [`CASTLE_PLIES`] plies counts, except one that a
//!   castle also matched develops (美濃囲い over 片美濃囲い, 銀冠 over 高美濃囲い, 居飛車穴熊 over
//!   舟囲い, …): a game that went 美濃囲い → 高美濃囲い → 銀冠 is tagged 銀冠.
//!
//! # The header
//!
//! The header's `戦型` wins where it names tags kifview knows (also `先手の戦型`/`後手の戦型`,
//! `下手の戦型`/`上手の戦型`, and a few romanised names such as CSA's `YAGURA`): the game's
//! strategy tags are then the header's names with what they imply (`四間飛車` → `振り飛車`,
//! `角換わり` → `相居飛車` → `居飛車`, …), and a computed sided tag stays only when its plain
//! name is among them (`後手四間飛車` under a header `四間飛車`). `先手の囲い`/`後手の囲い`
//! (shogi-extend's headers) replace the computed castles of that side. A header naming nothing
//! kifview knows (`その他の戦型`) leaves the computed tags.

use crate::core::record::{MoveData, Record, Step};
use crate::core::rules::{Color, Piece, PieceKind, Position, Square};

/// Plies over which the rook's file decides 居飛車 or 振り飛車.
pub const STYLE_PLIES: usize = 40;
/// Plies within which a bishop exchange, 横歩取り or 相掛かり is looked for.
pub const OPENING_PLIES: usize = 30;
/// Plies within which castles are looked for.
pub const CASTLE_PLIES: usize = 60;
/// A line shorter than this gets no 居飛車 tag (its rook may not have moved yet).
pub const MIN_PLIES: usize = 20;

/// A tag about one side: its plain name and its names with the side.
#[derive(Clone, Copy, Debug)]
pub struct Named {
    pub plain: &'static str,
    pub black: &'static str,
    pub white: &'static str,
}

impl Named {
    fn of(&self, c: Color) -> &'static str {
        match c {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

macro_rules! named {
    ($n:literal) => {
        Named {
            plain: $n,
            black: concat!("先手", $n),
            white: concat!("後手", $n),
        }
    };
}

const IBISHA: Named = named!("居飛車");
const FURIBISHA: Named = named!("振り飛車");
/// The 振り飛車 files 5 to 8 (index 0 is file 5).
const FILES: [Named; 4] = [
    named!("中飛車"),
    named!("四間飛車"),
    named!("三間飛車"),
    named!("向かい飛車"),
];
const MIGI_SHIKEN: Named = named!("右四間飛車");
const ISHIDA: Named = named!("石田流");
const GOKIGEN: Named = named!("ゴキゲン中飛車");
const ANAGUMA: Named = named!("穴熊");
const IGYOKU: Named = named!("居玉");
const KIKUSUI: Named = named!("菊水矢倉");

/// A castle: the pieces it needs (file, rank, kind) on the side's own view of the board, and
/// the castles it develops (tagged only when this one is not).
#[derive(Debug)]
pub struct Castle {
    pub name: Named,
    pub needs: &'static [(u8, u8, PieceKind)],
    pub develops: &'static [&'static str],
}

use PieceKind::{Gold as G, King as K, Knight as N, Lance as L, Pawn as P, Silver as S};

const MINO: &str = "美濃囲い";
const KATAMINO: &str = "片美濃囲い";
const TAKAMINO: &str = "高美濃囲い";
const FUNE: &str = "舟囲い";
const HIDARIMINO: &str = "左美濃";
const ELMO: &str = "エルモ囲い";
const TENSHU: &str = "天守閣美濃";
const MILLENNIUM: &str = "ミレニアム囲い";

/// Every castle, each as the squares of Black's camp (White's are the same, turned round).
/// A name may come twice: the shape on either side of the board, or two forms of it.
pub const CASTLES: &[Castle] = &[
    Castle {
        name: named!("片美濃囲い"),
        needs: &[(2, 8, K), (3, 8, S), (4, 9, G)],
        develops: &[],
    },
    Castle {
        name: named!("美濃囲い"),
        needs: &[(2, 8, K), (3, 8, S), (4, 9, G), (5, 8, G)],
        develops: &[KATAMINO],
    },
    Castle {
        name: named!("高美濃囲い"),
        needs: &[(2, 8, K), (3, 8, S), (4, 9, G), (4, 7, G)],
        develops: &[KATAMINO, MINO],
    },
    Castle {
        name: named!("高美濃囲い"),
        needs: &[(8, 8, K), (7, 8, S), (6, 9, G), (6, 7, G)],
        develops: &[HIDARIMINO, FUNE],
    },
    Castle {
        name: named!("銀冠"),
        needs: &[(2, 8, K), (2, 7, S), (3, 8, G)],
        develops: &[KATAMINO, MINO, TAKAMINO],
    },
    Castle {
        name: named!("銀冠"),
        needs: &[(8, 8, K), (8, 7, S), (7, 8, G)],
        develops: &[HIDARIMINO, TAKAMINO, FUNE, TENSHU],
    },
    Castle {
        name: named!("振り飛車穴熊"),
        needs: &[(1, 9, K), (1, 8, L), (2, 8, S)],
        develops: &[KATAMINO, MINO],
    },
    Castle {
        name: named!("居飛車穴熊"),
        needs: &[(9, 9, K), (9, 8, L), (8, 8, S)],
        develops: &[FUNE, HIDARIMINO, ELMO],
    },
    Castle {
        name: named!("舟囲い"),
        needs: &[(7, 8, K), (6, 9, G), (5, 8, G)],
        develops: &[],
    },
    Castle {
        name: named!("エルモ囲い"),
        needs: &[(7, 8, K), (6, 8, S), (7, 9, G)],
        develops: &[FUNE],
    },
    Castle {
        name: named!("左美濃"),
        needs: &[(8, 8, K), (7, 8, S), (6, 9, G)],
        develops: &[FUNE],
    },
    Castle {
        name: named!("天守閣美濃"),
        needs: &[(8, 7, K), (7, 8, S), (6, 9, G)],
        develops: &[FUNE, HIDARIMINO],
    },
    Castle {
        name: named!("ミレニアム囲い"),
        needs: &[(8, 9, K), (8, 8, S), (7, 7, N), (7, 9, G)],
        develops: &[FUNE, HIDARIMINO, ELMO],
    },
    Castle {
        name: named!("ミレニアム囲い"),
        needs: &[(8, 9, K), (8, 8, S), (7, 7, N), (7, 8, G)],
        develops: &[FUNE, HIDARIMINO, ELMO],
    },
    Castle {
        name: named!("金矢倉"),
        needs: &[(8, 8, K), (7, 7, S), (7, 8, G), (6, 7, G)],
        develops: &[],
    },
    Castle {
        name: named!("銀矢倉"),
        needs: &[(8, 8, K), (7, 7, S), (7, 8, G), (6, 7, S)],
        develops: &[],
    },
    Castle {
        name: named!("平矢倉"),
        needs: &[(8, 8, K), (7, 7, S), (7, 8, G), (6, 8, G)],
        develops: &[],
    },
    Castle {
        name: named!("片矢倉"),
        needs: &[(7, 8, K), (7, 7, S), (6, 7, G), (6, 8, G)],
        develops: &[],
    },
    Castle {
        name: named!("土居矢倉"),
        needs: &[(7, 8, K), (7, 7, S), (6, 7, G), (5, 8, G)],
        develops: &[],
    },
    Castle {
        name: named!("雁木囲い"),
        needs: &[(6, 7, S), (7, 8, G), (5, 8, G), (5, 7, S)],
        develops: &[],
    },
    Castle {
        name: named!("雁木囲い"),
        needs: &[(6, 7, S), (7, 8, G), (5, 8, G), (4, 7, S)],
        develops: &[],
    },
];

const _: () = assert!(
    CASTLES.len() <= 32,
    "castles_at keeps them as bits of a u32"
);

/// The strategies a game can have (none of them about one side).
const GAME: [&str; 10] = [
    "相居飛車",
    "対抗形",
    "相振り飛車",
    "横歩取り",
    "一手損角換わり",
    "角換わり",
    "相掛かり",
    "矢倉",
    "雁木",
    "力戦",
];

/// Every plain tag name [`tags`] can return (a sided one is `先手` or `後手` before one of
/// these).
pub const KNOWN: &[&str] = &[
    "相居飛車",
    "対抗形",
    "相振り飛車",
    "横歩取り",
    "一手損角換わり",
    "角換わり",
    "相掛かり",
    "矢倉",
    "雁木",
    "力戦",
    "居飛車",
    "振り飛車",
    "中飛車",
    "四間飛車",
    "三間飛車",
    "向かい飛車",
    "右四間飛車",
    "石田流",
    "ゴキゲン中飛車",
    "片美濃囲い",
    "美濃囲い",
    "高美濃囲い",
    "銀冠",
    "穴熊",
    "振り飛車穴熊",
    "居飛車穴熊",
    "舟囲い",
    "エルモ囲い",
    "左美濃",
    "天守閣美濃",
    "ミレニアム囲い",
    "菊水矢倉",
    "金矢倉",
    "銀矢倉",
    "平矢倉",
    "片矢倉",
    "土居矢倉",
    "雁木囲い",
    "居玉",
];

/// The families a filter's `tag:` word names (`tag:美濃` finds every 美濃 castle): the family's
/// word, then its members. Members kifview does not compute (`銀美濃`, `木村美濃`, …) are found
/// in a 戦型 header that names them.
pub const FAMILIES: &[(&str, &[&str])] = &[
    (
        "美濃",
        &[
            "美濃囲い",
            "片美濃囲い",
            "高美濃囲い",
            "銀美濃",
            "銀冠",
            "木村美濃",
            "ダイヤモンド美濃",
            "左美濃",
            "天守閣美濃",
        ],
    ),
    ("穴熊", &["穴熊", "振り飛車穴熊", "居飛車穴熊", "銀冠穴熊"]),
    (
        "矢倉",
        &[
            "矢倉",
            "金矢倉",
            "銀矢倉",
            "平矢倉",
            "片矢倉",
            "土居矢倉",
            "菊水矢倉",
        ],
    ),
    ("雁木", &["雁木", "雁木囲い"]),
    ("角換わり", &["角換わり", "一手損角換わり"]),
    ("中飛車", &["中飛車", "ゴキゲン中飛車"]),
    ("三間飛車", &["三間飛車", "石田流"]),
    ("ミレニアム", &["ミレニアム囲い"]),
    ("銀冠", &["銀冠", "銀冠穴熊"]),
];

/// The tag names a filter's `tag:WORD` finds: WORD's family ([`FAMILIES`]) when it names one
/// (`美濃`, or `美濃囲い`: a castle's name without `囲い` is the castle), else WORD and WORD
/// with `囲い` (`舟` is `舟囲い`). A `先手`/`後手` before the word names the sided tags of
/// the same family (`後手美濃` finds `後手高美濃囲い`). Compared after
/// [`super::name_key`]; WORD itself always comes first.
pub fn family(word: &str) -> Vec<String> {
    let key = super::name_key(word);
    let (side, plain) = ["先手", "後手"]
        .into_iter()
        .find_map(|s| key.strip_prefix(s).map(|rest| (s, rest)))
        .filter(|(_, rest)| !rest.is_empty())
        .unwrap_or(("", key.as_str()));
    let bare = plain.strip_suffix("囲い").unwrap_or(plain);
    let mut out = vec![key.clone()];
    let mut push = |name: &str| {
        let n = format!("{side}{name}");
        if !out.contains(&n) {
            out.push(n);
        }
    };
    match FAMILIES.iter().find(|(w, _)| *w == bare) {
        Some((_, members)) => members.iter().for_each(|m| push(m)),
        None => {
            push(bare);
            push(&format!("{bare}囲い"));
        }
    }
    out
}

/// The main line's first [`CASTLE_PLIES`] plies: `positions[i]` is the position after `i`
/// moves, `moves[i]` the move from `positions[i]`.
struct Line {
    positions: Vec<Position>,
    moves: Vec<MoveData>,
}

impl Line {
    fn read(record: &Record) -> Line {
        let mut pos = record.initial.position.clone();
        let mut line = Line {
            positions: vec![pos.clone()],
            moves: Vec::new(),
        };
        for id in record.main_line().into_iter().skip(1).take(CASTLE_PLIES) {
            let Step::Move(m) = record.node(id).step else {
                break;
            };
            if pos.play_unchecked(m.mv).is_none() {
                break;
            }
            line.moves.push(m);
            line.positions.push(pos.clone());
        }
        line
    }
    fn plies(&self) -> usize {
        self.moves.len()
    }
}

/// The square `(file, rank)` of `c`'s own view of the board.
fn square(c: Color, file: u8, rank: u8) -> Square {
    let (f, r) = match c {
        Color::Black => (file, rank),
        Color::White => (10 - file, 10 - rank),
    };
    Square::new(f, r).expect("file and rank 1-9")
}

/// `c`'s own view of `sq`: (file, rank).
fn view(c: Color, sq: Square) -> (u8, u8) {
    match c {
        Color::Black => (sq.file(), sq.rank()),
        Color::White => (10 - sq.file(), 10 - sq.rank()),
    }
}

/// Does `c` have a `kind` on its square `(file, rank)`?
fn has(pos: &Position, c: Color, file: u8, rank: u8, kind: PieceKind) -> bool {
    pos.piece_at(square(c, file, rank)) == Some(Piece::new(kind, c))
}

/// The castles of [`CASTLES`] that side `c` has in `pos`: bit `i` for `CASTLES[i]`.
fn castles_at(pos: &Position, c: Color) -> u32 {
    // The king's square, known without a look at the board, rules most castles out at once.
    let king = pos.king_square(c).map(|sq| view(c, sq));
    let holds = |&(f, r, k): &(u8, u8, PieceKind)| match k {
        K => king == Some((f, r)),
        _ => has(pos, c, f, r, k),
    };
    CASTLES
        .iter()
        .enumerate()
        .filter(|(_, castle)| castle.needs.iter().all(holds))
        .fold(0, |bits, (i, _)| bits | 1 << i)
}

/// The castle names of side `c` over the line, those that a castle also matched develops left
/// out, in [`CASTLES`] order; `居玉` when its king has not moved in 40 plies.
fn castles(line: &Line, c: Color) -> Vec<&'static Named> {
    // A position after the other side's move matches no castle of `c` the one before did not
    // (that move can only take `c`'s pieces away): only the first position and those after
    // `c`'s own moves are looked at.
    let bits = line
        .positions
        .iter()
        .enumerate()
        .filter(|(i, pos)| *i == 0 || pos.side_to_move() != c)
        .fold(0, |bits, (_, pos)| bits | castles_at(pos, c));
    let matched = || {
        CASTLES
            .iter()
            .enumerate()
            .filter(move |(i, _)| bits & 1 << i != 0)
            .map(|(_, castle)| castle)
    };
    let developed: Vec<&str> = matched().flat_map(|c| c.develops.iter().copied()).collect();
    let mut out: Vec<&'static Named> = Vec::new();
    for name in matched().map(|c| &c.name) {
        if !developed.contains(&name.plain) && !out.iter().any(|n| n.plain == name.plain) {
            out.push(name);
        }
    }
    if out.iter().any(|n| n.plain.ends_with("穴熊")) {
        out.push(&ANAGUMA);
    }
    if line.plies() >= STYLE_PLIES
        && line.positions[..=STYLE_PLIES]
            .iter()
            .all(|p| has(p, c, 5, 9, K))
    {
        out.push(&IGYOKU);
    }
    out
}

/// How one side placed its rook in the opening.
#[derive(Debug, Default)]
struct Rook {
    /// Positions with the original rook on each file (index file − 1) of the side's ranks 7–9
    /// (and on ７六).
    on_file: [usize; 9],
    /// The first position with it on each file there.
    first: [usize; 9],
    /// Positions with a 右四間飛車 (file 4, the fourth-file pawn pushed).
    right_four: usize,
    /// A position with 石田流's rook ７六 and pawn ７五.
    ishida: bool,
}

/// Follows side `c`'s original rook over the first [`STYLE_PLIES`] plies.
fn follow_rook(line: &Line, c: Color) -> Rook {
    let mut rook = Rook {
        first: [usize::MAX; 9],
        ..Rook::default()
    };
    let mut at = Some(square(c, 2, 8))
        .filter(|&sq| line.positions[0].piece_at(sq) == Some(Piece::new(PieceKind::Rook, c)));
    for (i, pos) in line.positions.iter().enumerate().take(STYLE_PLIES + 1) {
        if i > 0 {
            let m = &line.moves[i - 1];
            if m.color == c && at.is_some() && m.mv.from() == at {
                at = Some(m.mv.to()).filter(|_| !m.mv.is_promotion());
            } else if m.color != c && Some(m.mv.to()) == at {
                at = None;
            }
        }
        let Some((file, rank)) = at.map(|sq| view(c, sq)) else {
            continue;
        };
        // Its home ranks, or 石田流's ７六: a rook floating on the sixth rank elsewhere
        // (相掛かり's ▲５六飛) has not swung.
        if rank < 6 || (rank == 6 && file != 7) {
            continue;
        }
        let f = usize::from(file - 1);
        rook.on_file[f] += 1;
        rook.first[f] = rook.first[f].min(i);
        if file == 4 && !has(pos, c, 4, 7, P) {
            rook.right_four += 1;
        }
        if (file, rank) == (7, 6) && has(pos, c, 7, 5, P) {
            rook.ishida = true;
        }
    }
    rook
}

/// 居飛車 (`None`) or the 振り飛車 file (5–9) of a side, when the line decides it.
fn style(rook: &Rook, plies: usize) -> Option<Option<u8>> {
    let swung: usize = rook.on_file[4..].iter().sum();
    if swung >= 3 {
        let file = (5..=9u8)
            .max_by_key(|&f| {
                let i = usize::from(f - 1);
                (rook.on_file[i], std::cmp::Reverse(rook.first[i]))
            })
            .expect("files 5-9");
        Some(Some(file))
    } else if plies >= MIN_PLIES {
        Some(None)
    } else {
        None
    }
}

/// The tags of one side: its style and opening names, then its castles.
struct Side {
    style: Option<Option<u8>>,
    opening: Vec<&'static Named>,
    castles: Vec<&'static Named>,
}

fn side_opening(line: &Line, c: Color, even: bool) -> (Option<Option<u8>>, Vec<&'static Named>) {
    if !even {
        return (None, Vec::new());
    }
    let rook = follow_rook(line, c);
    let style = style(&rook, line.plies());
    let mut out: Vec<&'static Named> = Vec::new();
    match style {
        None => {}
        Some(None) => {
            out.push(&IBISHA);
            if rook.right_four >= 3 {
                out.push(&MIGI_SHIKEN);
            }
        }
        Some(Some(file)) => {
            out.push(&FURIBISHA);
            if let Some(name) = FILES.get(usize::from(file - 5)) {
                out.push(name);
            }
            if file == 7 && rook.ishida {
                out.push(&ISHIDA);
            }
            if file == 5 && c == Color::White && gokigen(line, c) {
                out.push(&GOKIGEN);
            }
        }
    }
    (style, out)
}

/// Did side `c` push its pawn to ５五 with its bishop's diagonal open?
fn gokigen(line: &Line, c: Color) -> bool {
    line.positions
        .iter()
        .take(STYLE_PLIES + 1)
        .any(|p| has(p, c, 5, 5, P) && !has(p, c, 7, 7, P) && !has(p, c, 6, 6, P))
}

/// Did a rook take the other side's third-file pawn (Black on ３四, White on ７六)?
fn yokofudori(line: &Line) -> bool {
    line.moves.iter().take(OPENING_PLIES).any(|m| {
        m.piece == PieceKind::Rook && m.captured == Some(P) && view(m.color, m.mv.to()) == (3, 4)
    })
}

/// `Some(one_move_loss)` when the bishops were exchanged within [`OPENING_PLIES`].
fn bishop_exchange(line: &Line) -> Option<bool> {
    let bishops = |p: &Position| {
        Square::all().any(|sq| {
            p.piece_at(sq)
                .is_some_and(|x| matches!(x.kind, PieceKind::Bishop | PieceKind::Horse))
        })
    };
    let exchanged = line.positions.iter().take(OPENING_PLIES + 1).any(|p| {
        p.hand_count(Color::Black, PieceKind::Bishop) == 1
            && p.hand_count(Color::White, PieceKind::Bishop) == 1
            && !bishops(p)
    });
    if !exchanged {
        return None;
    }
    let Some(first) = line.moves.iter().position(|m| {
        m.piece == PieceKind::Bishop
            && matches!(m.captured, Some(PieceKind::Bishop | PieceKind::Horse))
    }) else {
        // Each bishop taken by another piece: an exchange nobody began with his bishop.
        return Some(false);
    };
    let by = line.moves[first].color;
    let before = &line.positions[first];
    let short = has(before, by, 2, 7, P) || has(before, by, 2, 6, P);
    Some(by == Color::White && short)
}

/// Both rook's pawns on the fifth rank (or beyond) before either bishop's diagonal opened.
fn aigakari(line: &Line) -> bool {
    let advanced = |p: &Position, c: Color| !has(p, c, 2, 7, P) && !has(p, c, 2, 6, P);
    let opened = |p: &Position, c: Color| !has(p, c, 7, 7, P);
    for p in line.positions.iter().take(OPENING_PLIES + 1) {
        if opened(p, Color::Black) || opened(p, Color::White) {
            return false;
        }
        if advanced(p, Color::Black) && advanced(p, Color::White) {
            return true;
        }
    }
    false
}

/// A 矢倉 shape: silver ７七, gold ７八, pawn ６六 (the king need not be in yet).
fn yagura_shape(line: &Line, c: Color) -> bool {
    line.positions
        .iter()
        .any(|p| has(p, c, 7, 7, S) && has(p, c, 7, 8, G) && has(p, c, 6, 6, P))
}

/// The game-level strategy tags of a 相居飛車 game.
fn ai_ibisha(line: &Line, sides: &[Side; 2]) -> Vec<&'static str> {
    let has_castle = |name: &str| {
        sides
            .iter()
            .any(|s| s.castles.iter().any(|n| n.plain == name))
    };
    let yagura_castle = sides
        .iter()
        .any(|s| s.castles.iter().any(|n| n.plain.ends_with("矢倉")));
    let mut out = vec!["相居飛車"];
    if yokofudori(line) {
        out.push("横歩取り");
    } else if let Some(loss) = bishop_exchange(line) {
        if loss {
            out.push("一手損角換わり");
        }
        out.push("角換わり");
    } else if aigakari(line) {
        out.push("相掛かり");
    } else if yagura_castle
        || [Color::Black, Color::White]
            .iter()
            .any(|&c| yagura_shape(line, c))
    {
        out.push("矢倉");
    }
    if has_castle("雁木囲い") {
        out.push("雁木");
    }
    let right_four = sides
        .iter()
        .any(|s| s.opening.iter().any(|n| n.plain == MIGI_SHIKEN.plain));
    if out.len() == 1 && !right_four {
        out.push("力戦");
    }
    out
}

/// Does the record start from the even-game start position?
fn even_start(record: &Record) -> bool {
    record
        .initial
        .position
        .same_placement(&Position::startpos())
}

/// The game's strategy and castle tags (see the module docs): the game's strategy, then the
/// plain names of each side's tags, then the sided names (先手's, then 後手's), each once.
pub fn tags(record: &Record) -> Vec<&'static str> {
    let line = Line::read(record);
    let even = even_start(record);
    let mut sides = [Color::Black, Color::White].map(|c| {
        let (style, opening) = side_opening(&line, c, even);
        Side {
            style,
            opening,
            castles: castles(&line, c),
        }
    });
    let game: Vec<&'static str> = match (sides[0].style, sides[1].style) {
        (Some(None), Some(None)) => ai_ibisha(&line, &sides),
        (Some(Some(_)), Some(Some(_))) => vec!["相振り飛車"],
        (Some(_), Some(_)) => vec!["対抗形"],
        _ => Vec::new(),
    };
    if game.first() == Some(&"相居飛車") {
        for s in &mut sides {
            for n in &mut s.castles {
                if n.plain == MILLENNIUM {
                    *n = &KIKUSUI;
                }
            }
        }
    }
    let [black, white] = sides.map(|s| (s.opening, s.castles));
    Header::read(record).merge(game, [black, white])
}

/// Other names headers use for tags: CSA's romanised 戦型 (`'戦型:YAGURA`), shogi-extend's
/// `相振り`.
const ALIASES: &[(&str, &str)] = &[
    ("相振り", "相振り飛車"),
    ("AIFURIBISHA", "相振り飛車"),
    ("FURIBISHA", "振り飛車"),
    ("IBISHA", "居飛車"),
    ("YAGURA", "矢倉"),
    ("KAKUGAWARI", "角換わり"),
    ("AIGAKARI", "相掛かり"),
    ("YOKOFUDORI", "横歩取り"),
    ("NAKABISHA", "中飛車"),
    ("SHIKENBISHA", "四間飛車"),
    ("SANKENBISHA", "三間飛車"),
    ("MUKAIBISHA", "向かい飛車"),
    ("ANAGUMA", "穴熊"),
];

/// What a tag implies (applied until nothing changes).
const IMPLIES: &[(&str, &str)] = &[
    ("一手損角換わり", "角換わり"),
    ("ゴキゲン中飛車", "中飛車"),
    ("石田流", "三間飛車"),
    ("中飛車", "振り飛車"),
    ("四間飛車", "振り飛車"),
    ("三間飛車", "振り飛車"),
    ("向かい飛車", "振り飛車"),
    ("相振り飛車", "振り飛車"),
    ("矢倉", "相居飛車"),
    ("角換わり", "相居飛車"),
    ("相掛かり", "相居飛車"),
    ("横歩取り", "相居飛車"),
    ("雁木", "相居飛車"),
    ("相居飛車", "居飛車"),
    ("右四間飛車", "居飛車"),
    ("対抗形", "居飛車"),
    ("対抗形", "振り飛車"),
    ("居飛車穴熊", "穴熊"),
    ("振り飛車穴熊", "穴熊"),
];

/// A tag about one side, by its plain name.
fn side_named(plain: &str) -> Option<&'static Named> {
    const OTHERS: [&Named; 8] = [
        &IBISHA,
        &FURIBISHA,
        &MIGI_SHIKEN,
        &ISHIDA,
        &GOKIGEN,
        &ANAGUMA,
        &IGYOKU,
        &KIKUSUI,
    ];
    OTHERS
        .into_iter()
        .chain(FILES.iter())
        .chain(CASTLES.iter().map(|c| &c.name))
        .find(|n| n.plain == plain)
}

/// The known tag names in a header's text, each once (the longest name first, so that
/// `四間飛車` is not also found in `右四間飛車`), with what they imply.
fn names_in(text: &str) -> Vec<&'static str> {
    let mut rest = text.to_uppercase();
    let mut pairs: Vec<(&str, &'static str)> = KNOWN.iter().map(|&k| (k, k)).collect();
    for &(alias, name) in ALIASES {
        if let Some(k) = KNOWN.iter().find(|&&k| k == name) {
            pairs.push((alias, k));
        }
    }
    pairs.sort_by_key(|(said, _)| std::cmp::Reverse(said.chars().count()));
    let mut found = Vec::new();
    for (said, name) in pairs {
        if rest.contains(said) {
            rest = rest.replace(said, "|");
            push_unique(&mut found, name);
        }
    }
    implied(found)
}

/// `names` with everything they imply.
fn implied(mut names: Vec<&'static str>) -> Vec<&'static str> {
    let mut i = 0;
    while i < names.len() {
        for &(from, to) in IMPLIES {
            if names[i] == from
                && let Some(k) = KNOWN.iter().find(|&&k| k == to)
            {
                push_unique(&mut names, k);
            }
        }
        i += 1;
    }
    names
}

fn push_unique(v: &mut Vec<&'static str>, name: &'static str) {
    if !v.contains(&name) {
        v.push(name);
    }
}

/// What the header says of the strategy and the castles.
struct Header {
    /// `戦型`.
    game: Vec<&'static str>,
    /// Each side's `の戦型` (Black, White).
    opening: [Vec<&'static str>; 2],
    /// Each side's `の囲い`.
    castles: [Vec<&'static str>; 2],
}

impl Header {
    fn read(record: &Record) -> Header {
        let h = &record.header;
        let field = |keys: &[&str]| {
            keys.iter()
                .find_map(|k| h.get(k))
                .map(names_in)
                .unwrap_or_default()
        };
        Header {
            game: field(&["戦型"]),
            opening: [
                field(&["先手の戦型", "下手の戦型"]),
                field(&["後手の戦型", "上手の戦型"]),
            ],
            castles: [
                field(&["先手の囲い", "下手の囲い"]),
                field(&["後手の囲い", "上手の囲い"]),
            ],
        }
    }

    /// The computed tags with the header's over them (module docs, "The header"):
    /// `game` is the computed game-level strategy, `sides` each side's opening and castles.
    fn merge(self, game: Vec<&'static str>, sides: [SideTags; 2]) -> Vec<&'static str> {
        let said = implied(
            self.game
                .iter()
                .chain(self.opening.iter().flatten())
                .copied()
                .collect(),
        );
        let class = class_kept(&game, &said);
        let mut sided: Vec<Vec<&'static Named>> = Vec::new();
        for (i, (opening, castles)) in sides.into_iter().enumerate() {
            let mut opening = opening;
            if !said.is_empty() {
                opening.retain(|n| said.contains(&n.plain) || style_fits(n.plain, class));
                for n in self.opening[i].iter().filter_map(|t| side_named(t)) {
                    if !opening.iter().any(|k| k.plain == n.plain) {
                        opening.push(n);
                    }
                }
            }
            let named: Vec<&'static Named> = self.castles[i]
                .iter()
                .filter_map(|t| side_named(t))
                .collect();
            let castles = if named.is_empty() { castles } else { named };
            sided.push(opening.into_iter().chain(castles).collect());
        }
        let mut out = if said.is_empty() {
            game
        } else {
            class
                .into_iter()
                .chain(said.iter().copied().filter(|t| GAME.contains(t)))
                .collect()
        };
        for &t in said.iter().filter(|t| !GAME.contains(t)) {
            push_unique(&mut out, t);
        }
        for n in sided.iter().flatten() {
            push_unique(&mut out, n.plain);
        }
        for (c, names) in [Color::Black, Color::White].into_iter().zip(&sided) {
            for n in names {
                push_unique(&mut out, n.of(c));
            }
        }
        out
    }
}

/// The computed class (`相居飛車`, `対抗形`, `相振り飛車`) kept under a header that names
/// none and does not contradict it (`四間飛車` keeps `対抗形`, not `相居飛車`).
fn class_kept(game: &[&'static str], said: &[&'static str]) -> Option<&'static str> {
    const CLASSES: [&str; 3] = ["相居飛車", "対抗形", "相振り飛車"];
    if said.iter().any(|t| CLASSES.contains(t)) {
        return None;
    }
    let class = *game.first().filter(|t| CLASSES.contains(t))?;
    let fits = match class {
        "相居飛車" => !said.contains(&FURIBISHA.plain),
        "相振り飛車" => !said.contains(&IBISHA.plain),
        _ => true,
    };
    fits.then_some(class)
}

/// Does a side's computed style (`居飛車`, `振り飛車`) agree with the game's class?
fn style_fits(plain: &str, class: Option<&str>) -> bool {
    matches!(
        (plain, class),
        ("居飛車", Some("相居飛車" | "対抗形")) | ("振り飛車", Some("相振り飛車" | "対抗形"))
    )
}

/// One side's opening tags and castles.
type SideTags = (Vec<&'static Named>, Vec<&'static Named>);
