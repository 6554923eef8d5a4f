//! 実戦詰め: tsume made from the endings of real games (`kifview problems tsume`).
//!
//! A game whose main line ends in checkmate ends with a run of the winner's checks. The
//! position before the winner's last `k` checks is a tsume of `2k − 1` plies when a mate engine
//! with a USI mate search (gpsusi, YaneuraOu) confirms a forced mate of exactly that length
//! from it: a shorter mate means the game's finish was not the shortest, a longer or no mate
//! that the loser's defence was not forced. The longest confirmed finish of each game is
//! kept, written as a KIF record that the solve mode reads as a tsume (its `作品名` header,
//! the game's finish as the answer, ending `詰み`).

use crate::analyze::mate::{MateResult, mate_search};
use crate::core::record::{Initial, Record, Special, Step};
use crate::core::rules::{Move, Position, setup};
use crate::core::text::sanitize;
use crate::engine::{Engine, EngineError};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One finish of a game: the position before the winner's last checks and the game's moves
/// from there to mate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    /// The number of moves played in the game before the position.
    pub before: u32,
    pub position: Position,
    pub moves: Vec<Move>,
}

/// The finishes of `record`'s main line, longest first: none when it does not end in
/// checkmate; else the position before each of the winner's last checks (the run of checks
/// that ends in the mate), from `min_plies` to `max_plies` long.
pub fn finishes(record: &Record, min_plies: usize, max_plies: usize) -> Vec<Finish> {
    let moves: Vec<Move> = (record.main_line().iter())
        .filter_map(|&id| record.node(id).move_data().map(|m| m.mv))
        .collect();
    // Replayed with the rules: a record holding an illegal move gives nothing.
    let mut pos = record.initial.position.clone();
    let mut positions = vec![pos.clone()];
    for &mv in &moves {
        if pos.play(mv).is_err() {
            return Vec::new();
        }
        positions.push(pos.clone());
    }
    if moves.is_empty() || !pos.is_checkmate() {
        return Vec::new();
    }
    let n = moves.len();
    let mut out = Vec::new();
    // The winner's moves from the end: n-1, n-3, ...; each must give check.
    let mut k = 1;
    while 2 * k - 1 <= n {
        let at = n - (2 * k - 1);
        if !positions[at + 1].in_check() {
            break;
        }
        let plies = 2 * k - 1;
        if (min_plies..=max_plies).contains(&plies) {
            let mut start = positions[at].clone();
            start.set_move_number(1);
            out.push(Finish {
                before: (record.moves_before() as usize + at) as u32,
                position: start,
                moves: moves[at..].to_vec(),
            });
        }
        k += 1;
    }
    out.reverse();
    out
}

/// How confirming a game's finishes ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Confirmed {
    /// This finish is a forced mate of its length.
    Tsume(Finish),
    /// None of them: each finish's length and what the engine answered, longest first.
    Not(Vec<(usize, String)>),
}

/// Why confirming a game's finishes stopped.
#[derive(Debug)]
pub enum NotConfirmed {
    /// The engine has no USI mate search (said in words): no game can be confirmed with it.
    Unsupported(String),
    /// The engine failed on this position (its SFEN): it is dead or killed, the game is left.
    Failed { sfen: String, error: EngineError },
}

/// The longest of `finishes` (longest first) that `eng`'s mate search confirms, each given
/// `time`.
pub fn confirm(
    eng: &mut Engine,
    finishes: &[Finish],
    time: Duration,
    cancel: &AtomicBool,
) -> Result<Confirmed, NotConfirmed> {
    let mut why = Vec::new();
    for f in finishes {
        let n = f.moves.len();
        // A position no game reaches (二歩 in a test record, more pieces than a set) is not a
        // problem, and engines may abort on one (gpsusi does on 二歩): not sent, said why, as
        // `kifview mate` says it without `--force`.
        if let Err(wrong) = setup::validate(&f.position) {
            why.push((n, format!("not sent to the engine: {}", wrong.join("; "))));
            continue;
        }
        let r =
            mate_search(eng, f.position.clone(), Vec::new(), time, cancel).map_err(|error| {
                NotConfirmed::Failed {
                    sfen: f.position.to_sfen(),
                    error,
                }
            })?;
        match &r {
            MateResult::Mate { moves, .. } if moves.len() == n => {
                return Ok(Confirmed::Tsume(f.clone()));
            }
            MateResult::NotSupported(w) => return Err(NotConfirmed::Unsupported(w.clone())),
            _ => why.push((n, r.text())),
        }
    }
    Ok(Confirmed::Not(why))
}

/// What the written tsume says of the game it comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// The game's file name (no folder) and record number in it.
    pub file: String,
    pub record: usize,
    pub black: Option<String>,
    pub white: Option<String>,
    pub date: Option<String>,
}

impl Origin {
    /// The names and date of `record`, read from its header (text from a file: sanitized).
    pub fn of(file: &str, record_no: usize, record: &Record) -> Origin {
        let h = &record.header;
        let clean = |s: Option<&str>| {
            s.map(|v| sanitize(v.trim()).into_owned())
                .filter(|v| !v.is_empty())
        };
        Origin {
            file: sanitize(file).into_owned(),
            record: record_no,
            black: clean(h.black_name()),
            white: clean(h.white_name()),
            date: clean(h.get("開始日時").or_else(|| h.get("対局日"))),
        }
    }
}

/// The tsume record of `finish`: its position as a diagram, the game's moves to mate, and the
/// headers `作品名` (実戦詰め: the players and the move it starts at), `出典` (the game's
/// file, record and date) and `手数`.
pub fn record(finish: &Finish, origin: &Origin) -> Record {
    let mut r = Record::new(Initial {
        position: finish.position.clone(),
        handicap: None,
    });
    let players = match (&origin.black, &origin.white) {
        (Some(b), Some(w)) => format!(" {b}対{w}"),
        _ => String::new(),
    };
    r.header.set(
        "作品名",
        &format!("実戦詰め{players} {}手目から", finish.before + 1),
    );
    let mut source = format!("{} ({}局目)", origin.file, origin.record);
    if let Some(d) = &origin.date {
        source.push_str(&format!(" {d}"));
    }
    r.header.set("出典", &source);
    r.header.set("手数", &finish.moves.len().to_string());
    let mut pos = finish.position.clone();
    let mut node = r.root();
    for &mv in &finish.moves {
        let Ok(data) = pos.play_move(mv) else {
            break;
        };
        node = r.push_child(node, Step::Move(data));
    }
    r.push_child(node, Step::Special(Special::Mate));
    r
}

/// The KIF text of [`record`] (UTF-8, for a `.kifu` file).
pub fn kif_text(finish: &Finish, origin: &Origin) -> String {
    crate::core::notation::kif::write(&record(finish, origin), &Default::default()).text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game ending ▲２二金打 mate after ▲２一飛打 △１二玉 ... built on an SFEN.
    fn game(moves: &[&str]) -> Record {
        let start = Position::from_sfen("8k/9/6N1l/9/9/9/9/9/4K4 b RGr2b3g4s3n3l18p 1").unwrap();
        let mut r = Record::new(Initial {
            position: start.clone(),
            handicap: None,
        });
        let mut pos = start;
        let mut node = r.root();
        for m in moves {
            let data = pos.play_move(Move::from_usi(m).unwrap()).unwrap();
            node = r.push_child(node, Step::Move(data));
        }
        r
    }

    #[test]
    fn the_winners_last_checks_are_the_finishes_longest_first() {
        // ▲４八玉 △９五歩打 (quiet moves), then ▲２一飛打 △１二玉 ▲２二金打 mate.
        let r = game(&["5i4h", "P*9e", "R*2a", "1a1b", "G*2b"]);
        let f = finishes(&r, 1, 99);
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!(f[0].moves.len(), 3);
        assert_eq!(f[0].before, 2);
        assert_eq!(f[0].position.move_number(), 1);
        assert_eq!(f[1].moves.len(), 1);
        // The bounds on the length.
        assert_eq!(finishes(&r, 3, 99).len(), 1);
        assert!(finishes(&r, 5, 99).is_empty());
        assert_eq!(finishes(&r, 1, 1).len(), 1);
        // A game not ending in mate has none.
        let r = game(&["5i4h", "P*9e", "R*2a", "1a1b"]);
        assert!(finishes(&r, 1, 99).is_empty());
    }

    #[test]
    fn the_tsume_record_reads_back_as_a_tsume_with_the_finish_as_its_answer() {
        let r = game(&["5i4h", "P*9e", "R*2a", "1a1b", "G*2b"]);
        let f = &finishes(&r, 3, 99)[0];
        let origin = Origin {
            file: "game.kif".into(),
            record: 1,
            black: Some("甲".into()),
            white: Some("乙".into()),
            date: Some("2026/11/29".into()),
        };
        let text = kif_text(f, &origin);
        assert!(text.contains("作品名：実戦詰め 甲対乙 3手目から"), "{text}");
        assert!(text.contains("出典：game.kif (1局目) 2026/11/29"), "{text}");
        assert!(text.contains("手数：3"), "{text}");
        assert!(text.contains("   4 詰み"), "{text}");
        let back = crate::core::notation::load(text.as_bytes(), None);
        let rec = &back.records[0].record;
        assert!(super::super::tsume::is_tsume(rec));
        let t = super::super::tsume::Tsume::new(std::path::Path::new("t.kifu"), 1, rec).unwrap();
        assert_eq!(t.length(), 3);
        assert_eq!(rec.initial.position.to_sfen(), f.position.to_sfen());
    }
}
