//! The vocabulary of a search: what to search, how long, how it ended.

use super::clean;
use super::error::EngineError;
use super::pv::{self, CheckedPv};
use crate::core::rules::{Color, Move, PieceKind, Position};
use std::time::Duration;

/// Identifies one search; ids grow with each [`Engine::search`](super::Engine::search).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SearchId(pub u64);

/// How long to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `go infinite`, until [`Engine::stop`](super::Engine::stop) or another search.
    Infinite,
    /// `go infinite`, and the driver sends `stop` after this long. Works with every engine
    /// (gpsusi aborts on `go movetime`, `go nodes` and `go depth`).
    Time(Duration),
    /// `go movetime N`.
    MoveTime(Duration),
    /// `go btime 0 wtime 0 byoyomi N`.
    Byoyomi(Duration),
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
    /// A game's clocks: `go btime B wtime W byoyomi Y` (Japanese byoyomi) or
    /// `go btime B wtime W binc I winc J` (Fischer), each side's main time left.
    Clock(ClockTimes),
    /// `go mate N|infinite`: answered by `checkmate …` (engines that are not USI-exact, such
    /// as Fairy-Stockfish, answer `bestmove`).
    Mate(Option<Duration>),
}

impl Limit {
    pub(crate) fn go(self) -> String {
        let ms = |d: Duration| d.as_millis().max(1);
        match self {
            Limit::Infinite | Limit::Time(_) => "go infinite".to_string(),
            Limit::MoveTime(d) => format!("go movetime {}", ms(d)),
            Limit::Byoyomi(d) => format!("go btime 0 wtime 0 byoyomi {}", ms(d)),
            Limit::Nodes(n) => format!("go nodes {n}"),
            Limit::Depth(n) => format!("go depth {n}"),
            Limit::Clock(t) => t.go(),
            Limit::Mate(None) => "go mate infinite".to_string(),
            Limit::Mate(Some(d)) => format!("go mate {}", ms(super::MateBudget::of(d).search)),
        }
    }
}

/// What `go` is told of a game's clocks: each side's main time left, the byoyomi and the
/// increments (USI allows byoyomi or increments, not both: byoyomi wins when both are set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockTimes {
    pub btime: Duration,
    pub wtime: Duration,
    pub byoyomi: Duration,
    pub binc: Duration,
    pub winc: Duration,
}

impl ClockTimes {
    fn go(self) -> String {
        let ms = |d: Duration| d.as_millis();
        let (b, w) = (ms(self.btime), ms(self.wtime));
        if self.byoyomi.is_zero() && !(self.binc.is_zero() && self.winc.is_zero()) {
            let (bi, wi) = (ms(self.binc), ms(self.winc));
            format!("go btime {b} wtime {w} binc {bi} winc {wi}")
        } else {
            format!("go btime {b} wtime {w} byoyomi {}", ms(self.byoyomi))
        }
    }
}

/// What to search: the position after `moves` from `root`. Send the game's start and every
/// move played (engines use the history for repetitions); the last move also gives `同` in
/// the Japanese lines.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub root: Position,
    pub moves: Vec<Move>,
    pub limit: Limit,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// `bestmove` with a legal move; `ponder` kept only when legal too.
    BestMove {
        mv: Move,
        ponder: Option<Move>,
    },
    Resign,
    /// `bestmove win` (entering-king declaration).
    Win,
    /// `checkmate <moves>`, checked with the rules (cut at an illegal move).
    Mate(CheckedPv),
    NoMate,
    MateTimeout,
    MateNotImplemented,
    /// A `bestmove` that is not legal in the searched position.
    Illegal {
        text: String,
        reason: String,
    },
}

/// Refuses positions an engine cannot take: more pieces than a set has (gpsusi aborts on
/// those), a missing king for the side to move's opponent is fine (tsume), but the side not
/// to move must not be in check.
pub(crate) fn check_root(pos: &Position) -> Result<(), EngineError> {
    const NAMES: [(PieceKind, &str); 8] = [
        (PieceKind::Pawn, "pawns"),
        (PieceKind::Lance, "lances"),
        (PieceKind::Knight, "knights"),
        (PieceKind::Silver, "silvers"),
        (PieceKind::Gold, "golds"),
        (PieceKind::Bishop, "bishops"),
        (PieceKind::Rook, "rooks"),
        (PieceKind::King, "kings"),
    ];
    let counts = pos.piece_counts();
    for (kind, name) in NAMES {
        let n = counts[kind as usize];
        let max = kind.set_count();
        if n > u16::from(max) {
            return Err(EngineError::Position(format!(
                "{n} {name} (a set has {max})"
            )));
        }
    }
    let mut other = pos.clone();
    other.set_side_to_move(pos.side_to_move().flip());
    if other.in_check() {
        let who = match pos.side_to_move() {
            Color::Black => "gote",
            Color::White => "sente",
        };
        return Err(EngineError::Position(format!(
            "{who} is in check but it is not {who}'s move"
        )));
    }
    Ok(())
}

pub(crate) fn bestmove_outcome(pos: &Position, best: &str, ponder: Option<&str>) -> SearchEnd {
    match best {
        "resign" => return SearchEnd::Resign,
        "win" => return SearchEnd::Win,
        _ => {}
    }
    let checked = pv::check_pv(pos, best);
    let Some(&mv) = checked.moves.first() else {
        let reason = checked
            .cut
            .map_or_else(|| "empty".to_string(), |c| c.reason);
        return SearchEnd::Illegal {
            text: clean(best).chars().take(16).collect(),
            reason,
        };
    };
    let ponder = ponder.and_then(|p| {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        pv::check_pv(&after, p).moves.first().copied()
    });
    SearchEnd::BestMove { mv, ponder }
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    #[test]
    fn a_games_clocks_go_out_as_byoyomi_or_increments() {
        let s = |n| Duration::from_secs(n);
        let byo = ClockTimes {
            btime: s(600),
            wtime: s(590),
            byoyomi: s(30),
            ..ClockTimes::default()
        };
        assert_eq!(
            Limit::Clock(byo).go(),
            "go btime 600000 wtime 590000 byoyomi 30000"
        );
        let fischer = ClockTimes {
            btime: s(10),
            wtime: s(9),
            binc: Duration::from_millis(100),
            winc: Duration::from_millis(100),
            ..ClockTimes::default()
        };
        assert_eq!(
            Limit::Clock(fischer).go(),
            "go btime 10000 wtime 9000 binc 100 winc 100"
        );
        let sudden = ClockTimes {
            btime: s(60),
            wtime: s(60),
            ..ClockTimes::default()
        };
        assert_eq!(
            Limit::Clock(sudden).go(),
            "go btime 60000 wtime 60000 byoyomi 0"
        );
    }
}
