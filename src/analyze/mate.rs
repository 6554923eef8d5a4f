//! Mate search with USI `go mate` (`kifview mate`, the viewer's `:mate`).
//!
//! gpsusi and YaneuraOu answer `checkmate <moves>` / `checkmate nomate` / `checkmate timeout`
//! / `checkmate notimplemented`. Fairy-Stockfish takes `go mate N` as chess's "mate in N
//! moves" and answers `bestmove`: it is reported as not supported, before searching when its
//! name says so.
//!
//! [`mate_search`] blocks (the CLI). The viewer's `:mate` sends the same search itself
//! (`Limit::Mate(Some(time))`, after checking [`known_unsupported`]) and turns the
//! `SearchDone` outcome into words with [`MateResult::from_outcome`]; a found line can be
//! inserted as a variation from `MateResult::Mate::moves`.

use crate::core::rules::{Move, Position};
use crate::engine::{Engine, EngineError, EngineEvent, Limit, SearchEnd, SearchRequest};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a mate search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mate: the moves (legal, checked) and them in Japanese.
    Mate { moves: Vec<Move>, japanese: String },
    /// 不詰: the engine proved there is none.
    NoMate,
    /// 時間切れ.
    Timeout,
    /// The engine has no USI mate search.
    NotSupported(String),
}

impl MateResult {
    /// `詰み 3手: ▲２二金打`, `不詰`, `時間切れ`, `not supported by this engine (…)`.
    pub fn text(&self) -> String {
        match self {
            MateResult::Mate { moves, japanese } => format!("詰み {}手: {japanese}", moves.len()),
            MateResult::NoMate => "不詰".to_string(),
            MateResult::Timeout => "時間切れ".to_string(),
            MateResult::NotSupported(why) => format!("not supported by this engine ({why})"),
        }
    }

    /// What a search's outcome means, for the position searched (`prev_to`: where the move that
    /// led to it went, for `同`).
    pub fn from_outcome(
        outcome: &SearchEnd,
        position: &Position,
        prev_to: Option<crate::core::rules::Square>,
        engine: &str,
    ) -> MateResult {
        match outcome {
            SearchEnd::Mate(checked) if !checked.moves.is_empty() => MateResult::Mate {
                japanese: crate::core::notation::ki2::line_text(position, &checked.moves, prev_to),
                moves: checked.moves.clone(),
            },
            // A mate line with an illegal first move is no answer: say so rather than 不詰.
            SearchEnd::Mate(checked) => MateResult::NotSupported(format!(
                "{engine} gave a mate line kifview cannot play: {}",
                checked
                    .cut
                    .as_ref()
                    .map_or_else(|| "empty".to_string(), |c| c.note())
            )),
            SearchEnd::NoMate => MateResult::NoMate,
            SearchEnd::MateTimeout => MateResult::Timeout,
            SearchEnd::MateNotImplemented => {
                MateResult::NotSupported(format!("{engine} answered checkmate notimplemented"))
            }
            _ => MateResult::NotSupported(format!(
                "{engine} answered go mate with bestmove, not checkmate"
            )),
        }
    }
}

/// A backstop: how long past its time a mate search may go before the caller stops it. The
/// driver itself tells the engine less than the time, stops it and kills it when it has not
/// answered `checkmate`, all within the time (`engine::MateBudget`).
pub const MATE_GRACE: Duration = Duration::from_secs(1);

/// Engines known to answer `go mate` with a chess-style search.
pub fn known_unsupported(engine: &str) -> Option<String> {
    engine.to_ascii_lowercase().contains("fairy-stockfish").then(|| {
        format!("{engine} reads go mate as chess's mate-in-N and answers bestmove (gpsusi and YaneuraOu have a USI mate search)")
    })
}

/// Searches the position after `moves` from `root` for a mate for `time` (blocking). The
/// engine must be ready. `cancel` stops it (then `Timeout`).
pub fn mate_search(
    eng: &mut Engine,
    root: Position,
    moves: Vec<Move>,
    time: Duration,
    cancel: &AtomicBool,
) -> Result<MateResult, EngineError> {
    let name = eng.info().name.clone();
    if let Some(why) = known_unsupported(&name) {
        return Ok(MateResult::NotSupported(why));
    }
    let prev_to = moves.last().map(|m| m.to());
    let id = eng.search(SearchRequest {
        root,
        moves,
        limit: Limit::Mate(Some(time)),
    })?;
    // The engine keeps the time itself; stop it if it does not (the driver kills it when the
    // stop is not answered either).
    let give_up = Instant::now() + time + MATE_GRACE;
    let mut stopped = false;
    loop {
        for ev in eng.wait(Duration::from_millis(50)) {
            match ev {
                EngineEvent::SearchDone {
                    search, outcome, ..
                } if search == id => {
                    let a = eng.analysis();
                    return Ok(MateResult::from_outcome(
                        &outcome,
                        &a.position,
                        prev_to,
                        &name,
                    ));
                }
                EngineEvent::Error(e) => return Err(e),
                _ => {}
            }
        }
        if !stopped && (Instant::now() >= give_up || cancel.load(Ordering::Relaxed)) {
            eng.stop();
            stopped = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pv::check_pv;

    #[test]
    fn texts() {
        let p = Position::from_sfen("7nk/8l/7P1/9/9/9/9/9/9 b G2r2b3g4s3n3l17p 1").unwrap();
        let checked = check_pv(&p, "G*2b");
        let r = MateResult::from_outcome(&SearchEnd::Mate(checked), &p, None, "gps");
        assert_eq!(r.text(), "詰み 1手: ▲２二金");
        assert_eq!(MateResult::NoMate.text(), "不詰");
        assert_eq!(MateResult::Timeout.text(), "時間切れ");
        let r = MateResult::from_outcome(
            &SearchEnd::BestMove {
                mv: Move::from_usi("G*2b").unwrap(),
                ponder: None,
            },
            &p,
            None,
            "X",
        );
        assert!(
            r.text().starts_with("not supported by this engine"),
            "{}",
            r.text()
        );
        assert!(known_unsupported("Fairy-Stockfish 11.1 LB 64").is_some());
        assert!(known_unsupported("gpsshogi (smp)").is_none());
    }
}
