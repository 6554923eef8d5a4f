//! Realistic collections for the collection benchmarks and tests: games whose openings are
//! shared as in real play (a few main lines played by most games, a long tail of sidelines),
//! then random legal moves; players, events and dates drawn from pools; endings mostly 投了.
//!
//! At each ply of the opening the legal moves are ranked by a fixed hash of the ply and the
//! move, and the k-th is taken with probability 2^-(k+1): the same position at the same ply
//! gives the same order, so games share a tree of openings whose popularity falls off
//! geometrically. A game leaves the book after 4 to 40 plies.

#![allow(dead_code)]

use kifview::core::notation::{self, Format, Target, TextInfo};
use kifview::core::record::{MoveData, NodeId, Record, Special, Step};
use kifview::core::rules::{Move, Position};

// A target that includes both generators (benches/viewer.rs) has this module twice: two
// `Rng` types of the same code, as each generator stands alone.
#[path = "rng.rs"]
#[allow(clippy::duplicate_mod)]
mod rng;
pub use rng::Rng;

fn rank(ply: usize, mv: Move) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ ply as u64;
    for b in mv.usi().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

const FAMILY: [&str; 12] = [
    "佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田",
];
const GIVEN: [&str; 10] = [
    "一郎", "二郎", "花子", "康光", "聡太", "善治", "光", "歩", "誠", "翔",
];
const EVENTS: [&str; 8] = [
    "竜王戦",
    "名人戦",
    "王位戦",
    "棋聖戦",
    "順位戦",
    "floodgate",
    "練習対局",
    "朝日杯",
];

/// Player `i` of a pool of 120.
pub fn player(i: usize) -> String {
    format!("{}{}", FAMILY[i % 12], GIVEN[(i / 12) % 10])
}

/// One game. `book_depth` caps the shared opening (the default collections use 40).
pub fn game(rng: &mut Rng, book_depth: usize) -> Record {
    let mut r = Record::default();
    let s = rng.below(120);
    let g = (s + 1 + rng.below(119)) % 120;
    r.header.set(
        "開始日時",
        &format!(
            "{}/{:02}/{:02} 10:00:00",
            2008 + rng.below(18),
            1 + rng.below(12),
            1 + rng.below(28)
        ),
    );
    r.header.set("棋戦", EVENTS[rng.below(EVENTS.len())]);
    r.header.set("先手", &player(s));
    r.header.set("後手", &player(g));
    let leave = 4 + rng.below(book_depth.saturating_sub(3).max(1));
    let plies = 50 + rng.below(150);
    let mut pos = Position::startpos();
    let mut cur = NodeId::ROOT;
    let mut ended = false;
    for ply in 0..plies {
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            r.push_child(cur, Step::Special(Special::Mate));
            ended = true;
            break;
        }
        let mv = if ply < leave {
            moves.sort_by_key(|m| rank(ply, *m));
            let mut k = 0;
            while k + 1 < moves.len() && rng.below(2) == 1 {
                k += 1;
            }
            moves[k]
        } else {
            moves[rng.below(moves.len())]
        };
        let color = pos.side_to_move();
        let Some(played) = pos.play_unchecked(mv) else {
            break;
        };
        cur = r.push_child(
            cur,
            Step::Move(MoveData {
                mv,
                color,
                piece: played.piece,
                captured: played.captured,
            }),
        );
    }
    if !ended {
        let end = match rng.below(20) {
            0 => Special::RepetitionDraw,
            1 => Special::Interrupt,
            2 => Special::Timeout,
            3 => Special::Impass,
            _ => Special::Resign,
        };
        r.push_child(cur, Step::Special(end));
    }
    r
}

/// The record's bytes in `format` (UTF-8 unless `sjis`).
pub fn bytes(r: &Record, format: Format, sjis: bool) -> Vec<u8> {
    let mut info = TextInfo::new(notation::TextEncoding::Utf8);
    if sjis {
        info.encoding = notation::TextEncoding::ShiftJis;
    }
    notation::to_bytes(r, Target::new(format), &info)
        .expect("encodable")
        .0
}

/// Several records as one multi-record CSA file.
pub fn multi_csa(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b"/\n");
        }
        out.extend_from_slice(&bytes(r, Format::Csa, false));
    }
    out
}

/// How the one player of [`write_player_collection`] is written in its files: with and without
/// a space, a full-width space and a title after the name, and an account in full width.
pub const STAR: [&str; 5] = [
    "藤井聡太",
    "藤井 聡太",
    "藤井\u{3000}聡太竜王",
    "fujii_s",
    "ｆｕｊｉｉ＿ｓ",
];

/// Writes `games` games as KIF files (`gNNNNN.kif`, 1,000 to a folder) under `root`, of which
/// `star_games` have one player, written each time as one of [`STAR`] (in either colour, by
/// turns); the others are [`game`]'s. Returns, per game written, the file and the colour the
/// player had (`Some(true)` sente, `Some(false)` gote, `None` not there): the count a check
/// compares with. Used for trying `me` by hand (`cargo run --example gen_collection`) and by
/// tests that want a player's own games among others.
pub fn write_player_collection(
    root: &std::path::Path,
    rng: &mut Rng,
    games: usize,
    star_games: usize,
) -> Vec<(std::path::PathBuf, Option<bool>)> {
    let every = (games / star_games.max(1)).max(1);
    let mut out = Vec::with_capacity(games);
    let mut starred = 0;
    for i in 0..games {
        let mut r = game(rng, 40);
        let star = (starred < star_games && i % every == 0).then(|| {
            starred += 1;
            let sente = starred % 2 == 1;
            let name = STAR[starred % STAR.len()];
            r.header.set(if sente { "先手" } else { "後手" }, name);
            sente
        });
        let dir = root.join(format!("{:03}", i / 1000));
        std::fs::create_dir_all(&dir).expect("a folder for the games");
        let path = dir.join(format!("g{i:05}.kif"));
        std::fs::write(&path, bytes(&r, Format::Kif, false)).expect("the game written");
        out.push((path, star));
    }
    out
}
