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
    /// A game's clock: `go btime B wtime W` with `byoyomi Y` and/or `binc I winc I`
    /// (`byoyomi 0` when it has neither), each in milliseconds.
    Clock {
        btime: Duration,
        wtime: Duration,
        byoyomi: Duration,
        binc: Duration,
        winc: Duration,
    },
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
            Limit::Clock {
                btime,
                wtime,
                byoyomi,
                binc,
                winc,
            } => {
                let mut go = format!("go btime {} wtime {}", btime.as_millis(), wtime.as_millis());
                if !byoyomi.is_zero() || (binc.is_zero() && winc.is_zero()) {
                    go.push_str(&format!(" byoyomi {}", byoyomi.as_millis()));
                }
                if !binc.is_zero() || !winc.is_zero() {
                    go.push_str(&format!(
                        " binc {} winc {}",
                        binc.as_millis(),
                        winc.as_millis()
                    ));
                }
                go
            }
            Limit::Mate(None) => "go mate infinite".to_string(),
            Limit::Mate(Some(d)) => format!("go mate {}", ms(MateBudget::of(d).search)),
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

/// How long a mate search that was stopped (past its time) has to answer `checkmate`, at
/// most ([`MateBudget`]).
pub const MATE_STOP: Duration = Duration::from_secs(2);

/// How long past the time it was given a mate search runs before it is stopped, at most.
pub const MATE_STOP_GRACE: Duration = Duration::from_secs(1);

/// How a mate search's time limit is spent, so that it ends within that limit however the
/// engine behaves: it is told `go mate` for `search`, stopped at `stop_after` when it has not
/// answered, and killed at the limit when `checkmate` has not come by then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateBudget {
    pub limit: Duration,
    pub search: Duration,
    pub stop_after: Duration,
}

impl MateBudget {
    /// The answer wait is half the limit (at most [`MATE_STOP`]: gpsusi on a loaded machine
    /// was seen taking over half a second to answer `stop`), the grace an eighth (at most
    /// [`MATE_STOP_GRACE`]): `--time 2` is `go mate 750`, `stop` at 1 s, killed at 2 s;
    /// `--time 10` is `go mate 7000`, `stop` at 8 s, killed at 10 s.
    pub fn of(limit: Duration) -> MateBudget {
        let answer = MATE_STOP.min(limit / 2);
        let grace = MATE_STOP_GRACE.min(limit / 8);
        MateBudget {
            limit,
            search: limit - answer - grace,
            stop_after: limit - answer,
        }
    }
}
