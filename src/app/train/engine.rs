//! The solve mode's engine: what a drill asks of an engine (a tsume's other mate confirmed
//! defence by defence with `go mate`, what a wrong move allows) runs on research mode's
//! engine (`--engine`, else the config's first `[[engines]]`, else one found installed),
//! through the event-driven driver as everything else there: a request is sent and the key
//! returns; [`App::research_tick`] hands each finished search here (`Event::Engine`), and a
//! dead engine (a crash, or one the driver killed for not answering in time: a mate search
//! is killed at its limit, a timed search 10 s after its `stop`) is said and handed to the
//! drill as "unavailable", never waited on.
//!
//! An engine that reads `go mate` as chess's mate-in-N (Fairy-Stockfish,
//! `analyze::mate::known_unsupported`) is given a timed search instead, and the mate is read
//! from its best line's score: a mate for the side to move whose line is all checks (a tsume's
//! mate) and ends in checkmate. The clock of the problem stops while the engine works.

use super::screen::Asked;
use crate::app::state::{App, Level};
use crate::core::notation::ki2::line_text;
use crate::core::rules::Position;
use crate::core::text::sanitize;
use crate::engine::pv::CheckedPv;
use crate::engine::{Limit, Score, SearchEnd, SearchId, State};
use crate::training::drill::{EngineAnswer, EngineRequest};
use std::time::{Duration, Instant};

/// The mate a timed search found for the side to move in `pos`, as `go mate` would answer:
/// the best line when its score is a mate for the side to move, every move of that side a
/// check, and the line ends in checkmate; else no mate found in the time.
fn mate_from_line(
    pos: &Position,
    score: Option<Score>,
    line: &[crate::core::rules::Move],
) -> SearchEnd {
    let attacker = pos.side_to_move();
    let mates = matches!(score, Some(Score::Mate { sente_wins, .. })
        if sente_wins == (attacker == crate::core::rules::Color::Black));
    if !mates || line.is_empty() || line.len().is_multiple_of(2) {
        return SearchEnd::MateTimeout;
    }
    let mut p = pos.clone();
    for &m in line {
        let checker = p.side_to_move() == attacker;
        if p.play(m).is_err() || (checker && !p.in_check()) {
            return SearchEnd::MateTimeout;
        }
    }
    if p.is_checkmate() {
        SearchEnd::Mate(CheckedPv {
            moves: line.to_vec(),
            cut: None,
        })
    } else {
        SearchEnd::MateTimeout
    }
}

impl App {
    /// Runs a drill's request on the engine; an engine that cannot start or take the search
    /// is handed to the drill as "unavailable" at once.
    pub(super) fn train_ask(&mut self, req: EngineRequest, depth: u8) {
        let Some((at, told, mate_time)) =
            (self.train()).map(|t| (t.at, t.mate_by_search, t.mate_time))
        else {
            return;
        };
        let mate_time = mate_time.unwrap_or(Duration::from_millis(
            self.config.analysis.tsume_mate_time_ms,
        ));
        if !self.ensure_engine() {
            // The viewer's own words for why (a path not found, a spawn error) are quoted.
            let why = match self.message() {
                Some(m) => format!("エンジンを起動できません ({})", m.text),
                None => "エンジンがありません".into(),
            };
            return self.train_answer_engine(EngineAnswer::unavailable(why), depth);
        }
        let Some(e) = self.research.engine.as_mut() else {
            return;
        };
        let name = e.spec().display_name();
        let mut search = req.search.clone();
        let by_search = match search.limit {
            // The drill's mate search takes the session's time (the option, else the config).
            Limit::Mate(Some(_)) => {
                let time = mate_time;
                search.limit = Limit::Mate(Some(time));
                let chess = told
                    || crate::analyze::mate::known_unsupported(&name).is_some()
                    || crate::analyze::mate::known_unsupported(&e.info().name).is_some();
                if chess {
                    search.limit = Limit::Time(time);
                }
                chess
            }
            _ => false,
        };
        let mate = matches!(search.limit, Limit::Mate(_)) || by_search;
        match e.search(search) {
            Ok(search) => {
                if let Some(t) = self.overlays.train_mut() {
                    t.asking = Some(Asked {
                        search,
                        at,
                        by_search,
                        since: Instant::now(),
                        entered: t.entered,
                        request: req,
                    });
                }
                let what = if mate {
                    "詰みを探しています"
                } else {
                    "この手の咎めを調べています"
                };
                self.info(format!("{} が{what}…", sanitize(&name)));
            }
            Err(err) => {
                let why = format!("{} が探索を受け付けません ({err})", sanitize(&name));
                self.train_answer_engine(EngineAnswer::unavailable(why), depth);
            }
        }
    }

    /// A search ended (from [`App::research_tick`]): when it is the solve mode's, its answer
    /// goes to the drill that asked. True when it was.
    pub(crate) fn train_search_done(&mut self, search: SearchId, outcome: &SearchEnd) -> bool {
        let Some(t) = self.overlays.train_mut() else {
            return false;
        };
        let Some(asked) = t.asking.clone().filter(|a| a.search == search) else {
            return false;
        };
        t.stop_asking(Instant::now());
        if asked.at != t.at {
            return true;
        }
        if !asked.by_search
            && matches!(asked.request.search.limit, Limit::Mate(_))
            && matches!(outcome, SearchEnd::BestMove { .. })
        {
            // `go mate` answered with `bestmove`: no USI mate search (an engine kifview does
            // not know by name). Its searches are timed from now on, this one again.
            t.mate_by_search = true;
            self.train_ask(asked.request, 0);
            return true;
        }
        let (lines, best_score, root) = match self.research.engine.as_ref() {
            Some(e) if e.analysis().search == search => {
                let a = e.analysis();
                let lines: Vec<_> = a.lines.iter().map(|l| l.pv.moves.clone()).collect();
                (
                    lines,
                    a.lines.first().and_then(|l| l.score),
                    a.position.clone(),
                )
            }
            _ => (Vec::new(), None, Position::empty()),
        };
        let end = if asked.by_search {
            mate_from_line(&root, best_score, lines.first().map_or(&[][..], |l| l))
        } else {
            outcome.clone()
        };
        self.train_answer_engine(
            EngineAnswer {
                end: Ok(end),
                lines,
            },
            0,
        );
        true
    }

    /// After the engine was polled (`Event::Engine`, its deadline): when it died (a crash,
    /// or killed for not answering in time) with a request running, the request is answered
    /// "unavailable" with why (research mode's `failure`). True when it was.
    pub(crate) fn train_engine_tick(&mut self) -> bool {
        let dead = self
            .research
            .engine
            .as_ref()
            .is_none_or(|e| e.state() == State::Dead);
        let Some(t) = self.overlays.train_mut() else {
            return false;
        };
        let Some(asked) = t.asking.clone().filter(|_| dead) else {
            return false;
        };
        t.stop_asking(Instant::now());
        if asked.at == t.at {
            // In the solve mode's words; the engine's error quoted, without research mode's
            // hint to start it again (the next check starts it).
            let name = (self.research.engine.as_ref())
                .map(|e| sanitize(&e.spec().display_name()).into_owned())
                .unwrap_or_else(|| "エンジン".into());
            let why = match &self.research.cause {
                Some(cause) => format!("{name} が止まりました ({cause})"),
                None => format!("{name} が止まりました"),
            };
            self.train_answer_engine(EngineAnswer::unavailable(why), 0);
        }
        true
    }

    /// Hands an engine's answer to the problem shown and takes the step it gives.
    fn train_answer_engine(&mut self, answer: EngineAnswer, depth: u8) {
        if let Err(why) = &answer.end {
            self.info_level(
                format!("エンジンがこの手を確認できませんでした: {}", sanitize(why)),
                Level::Warning,
            );
        }
        let Some(t) = self.overlays.train_mut() else {
            return;
        };
        let Some(d) = t.drills.get_mut(t.at) else {
            return;
        };
        let step = d.engine_answer(answer);
        self.train_step(step, depth + 1);
    }

    /// Stops the engine's work for the problem shown (the next problem, leaving).
    pub(super) fn train_cancel_engine(&mut self) {
        let Some(t) = self.overlays.train_mut() else {
            return;
        };
        if t.asking.is_some() {
            t.stop_asking(Instant::now());
            if let Some(e) = self.research.engine.as_mut() {
                e.stop();
            }
        }
    }

    /// What the engine is doing for the problem shown, for the screen: the moves it looks
    /// after, in Japanese.
    pub(super) fn train_asking_text(&self) -> Option<String> {
        let t = self.train()?;
        let asked = t.asking.as_ref()?;
        let d = t.drill()?;
        // A move being checked is not played yet; a refutation is asked after it.
        let prev = d.played().last().map(|m| m.to());
        Some(match asked.entered {
            Some(m) if d.position().check(m).is_ok() => format!(
                "エンジンが {} を確認中…",
                line_text(d.position(), &[m], prev)
            ),
            _ => format!(
                "エンジンが {} 以下を調べています…",
                line_text(d.start(), d.played(), None)
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rules::Move;

    #[test]
    fn a_mate_by_search_is_a_mate_only_when_its_line_is_checks_ending_in_mate() {
        // ▲ to move, △ king on 5a: G*5b is mate in one (the gold on 5c guards it).
        let pos = Position::from_sfen("4k4/9/4G4/9/9/9/9/9/4K4 b G 1").unwrap();
        let mate = Some(Score::Mate {
            plies: Some(1),
            sente_wins: true,
        });
        let g5b = Move::from_usi("G*5b").unwrap();
        assert!(matches!(
            mate_from_line(&pos, mate, &[g5b]),
            SearchEnd::Mate(ref pv) if pv.moves == vec![g5b]
        ));
        // A score for the other side, or a line that does not mate, is no mate.
        let lost = Some(Score::Mate {
            plies: Some(1),
            sente_wins: false,
        });
        assert_eq!(mate_from_line(&pos, lost, &[g5b]), SearchEnd::MateTimeout);
        let g4b = Move::from_usi("G*4b").unwrap();
        assert_eq!(mate_from_line(&pos, mate, &[g4b]), SearchEnd::MateTimeout);
        // A first move that is not a check is no tsume mate.
        let quiet = Move::from_usi("G*9i").unwrap();
        let pv = [quiet, Move::from_usi("5a4a").unwrap(), g4b];
        assert_eq!(mate_from_line(&pos, mate, &pv), SearchEnd::MateTimeout);
    }
}
