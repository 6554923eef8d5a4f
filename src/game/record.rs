//! A game as a record: the header (players, time control, 開始日時/終了日時, more), the moves
//! with the time each took in KIF form (spent and running total), their comments, and the
//! ending word; and back, the result a record's ending says.

use super::state::{EndReason, Game};
use super::time::TimeControl;
use crate::core::record::{Initial, MoveTime, NodeId, Record, Special, Step};
use crate::core::rules::Color;
use std::time::Duration;

/// What a game's record says besides its moves.
#[derive(Clone, Debug, Default)]
pub struct GameInfo {
    /// 先手 and 後手.
    pub black: String,
    pub white: String,
    pub time_control: Option<TimeControl>,
    /// `YYYY/MM/DD HH:MM:SS`, local time.
    pub started: String,
    pub ended: String,
    /// More header fields, in order (棋戦, the opening, the round …).
    pub extra: Vec<(String, String)>,
    /// How many of the game's first moves came from the opening (no time is written for them).
    pub opening_moves: usize,
}

/// The local time now as KIF writes it (`2026/11/29 01:23:45`).
pub fn now_text() -> String {
    chrono::Local::now().format("%Y/%m/%d %H:%M:%S").to_string()
}

/// The ending word for `reason`, for the side to move when it ended.
pub fn special_for(reason: &EndReason, winner: Option<Color>, to_move: Color) -> Special {
    match reason {
        EndReason::Mate => Special::Mate,
        EndReason::Resign => Special::Resign,
        EndReason::Declaration if winner.is_none() => Special::Impass,
        EndReason::Declaration => Special::EnteringKing,
        EndReason::Repetition => Special::RepetitionDraw,
        EndReason::MaxMoves => Special::MaxMoves,
        EndReason::AdjudicatedDraw(_) => Special::Draw,
        EndReason::Time => Special::Timeout,
        EndReason::Interrupted => Special::Interrupt,
        // A foul: the side to move loses (its own illegal move, false declaration, its engine's
        // fault) or wins (the other side's perpetual check).
        EndReason::PerpetualCheck
        | EndReason::FalseDeclaration(_)
        | EndReason::Illegal { .. }
        | EndReason::Fault(_) => {
            if winner == Some(to_move) {
                Special::FoulWin
            } else {
                Special::FoulLose
            }
        }
    }
}

/// What a record's ending says of the result: `Some(Some(winner))`, `Some(None)` for a draw,
/// None when it says nothing (no ending, an interruption, an unknown word).
pub fn result_of(special: &Special, to_move: Color) -> Option<Option<Color>> {
    match special {
        Special::Resign
        | Special::Mate
        | Special::Timeout
        | Special::FoulLose
        | Special::LossByDefault => Some(Some(to_move.flip())),
        Special::FoulWin | Special::EnteringKing | Special::WinByDefault => Some(Some(to_move)),
        Special::RepetitionDraw | Special::Impass | Special::MaxMoves | Special::Draw => Some(None),
        Special::Interrupt | Special::NoMate | Special::Other(_) => None,
    }
}

/// The result of a record's main line: its ending and who wins by it.
pub fn record_result(record: &Record) -> Option<(Special, Option<Color>)> {
    let line = record.main_line();
    let last = *line.last()?;
    let special = record.node(last).special()?.clone();
    let to_move = record.side_to_move_at(last);
    result_of(&special, to_move).map(|w| (special, w))
}

/// The record of `game`: from its start, its moves (times after the opening's moves, comments),
/// and its ending when it is over.
pub fn game_record(game: &Game, info: &GameInfo) -> Record {
    let start = game.start().clone();
    let handicap = crate::core::rules::Handicap::matching(&start);
    let mut record = Record::new(Initial {
        position: start,
        handicap,
    });
    let h = &mut record.header;
    if !info.started.is_empty() {
        h.set("開始日時", &info.started);
    }
    if !info.ended.is_empty() && game.is_over() {
        h.set("終了日時", &info.ended);
    }
    for (k, v) in &info.extra {
        h.set(k, v);
    }
    if let Some(tc) = info.time_control {
        h.set("持ち時間", &tc.kif_text());
    }
    h.set("先手", &info.black);
    h.set("後手", &info.white);
    let mut node = NodeId::ROOT;
    let mut totals = [0u64; 2];
    let mut pos = game.start().clone();
    for (i, p) in game.played().iter().enumerate() {
        let side = pos.side_to_move();
        let data = pos.play_move(p.mv).expect("a game's moves are legal");
        node = record.push_child(node, Step::Move(data));
        let timed = i >= info.opening_moves;
        if let Some(spent) = p.spent.filter(|_| timed) {
            totals[side.index()] += ms(spent);
        }
        if info.time_control.is_some() {
            record.node_mut(node).time = Some(MoveTime {
                spent_ms: p.spent.filter(|_| timed).map_or(0, ms),
                total_ms: Some(totals[side.index()]),
            });
        }
        record.node_mut(node).comment = p.comment.clone();
    }
    if let Some(o) = game.outcome() {
        let special = special_for(&o.reason, o.winner, o.to_move);
        node = record.push_child(node, Step::Special(special));
        let (spent, comment) = game.ending_extra();
        let side = o.to_move;
        if info.time_control.is_some() {
            totals[side.index()] += spent.map_or(0, ms);
            record.node_mut(node).time = Some(MoveTime {
                spent_ms: spent.map_or(0, ms),
                total_ms: Some(totals[side.index()]),
            });
        }
        // Why it ended, when the word alone does not say (a fault, a declaration, time).
        let mut text = comment.to_string();
        if !matches!(
            o.reason,
            EndReason::Mate | EndReason::Resign | EndReason::Repetition | EndReason::MaxMoves
        ) {
            let why = o.reason.describe();
            let said = format!("終局理由={why}");
            text = if text.is_empty() || text == why {
                said
            } else {
                format!("{said}\n{text}")
            };
        }
        record.node_mut(node).comment = crate::core::text::sanitize_lines(&text);
    }
    record
}

fn ms(d: Duration) -> u64 {
    d.as_millis().min(u128::from(u64::MAX)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::{Format, Target, TextEncoding, TextInfo, render};
    use crate::core::rules::{Move, Position};
    use crate::game::GameRules;

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    #[test]
    fn a_game_becomes_a_kif_with_times_names_dates_and_ending() {
        let mut g = Game::new(Position::startpos(), GameRules::default());
        let s = |n| Some(Duration::from_millis(n));
        g.play(mv("7g7f"), None, String::new()).unwrap();
        g.play(mv("3c3d"), s(1500), "*評価値=-30".into()).unwrap();
        g.play(mv("8h2b+"), s(61_000), String::new()).unwrap();
        g.resign(s(2000), String::new());
        let info = GameInfo {
            black: "Fairy (skill 20)".into(),
            white: "Fairy (skill 0)".into(),
            time_control: Some(TimeControl::parse("600+byo30").unwrap()),
            started: "2026/11/29 01:00:00".into(),
            ended: "2026/11/29 01:05:00".into(),
            extra: vec![("棋戦".into(), "kifview match".into())],
            opening_moves: 1,
        };
        let r = game_record(&g, &info);
        let text = render(
            &r,
            Target::new(Format::Kif),
            &TextInfo::new(TextEncoding::Utf8),
        )
        .text;
        for want in [
            "開始日時：2026/11/29 01:00:00",
            "終了日時：2026/11/29 01:05:00",
            "棋戦：kifview match",
            "持ち時間：600秒+秒読み30秒",
            "先手：Fairy (skill 20)",
            "後手：Fairy (skill 0)",
            "   1 ７六歩(77)   ( 0:00/00:00:00)",
            "   2 ３四歩(33)   ( 0:01/00:00:01)",
            "*評価値=-30",
            "   3 ２二角成(88) ( 1:01/00:01:01)",
            "   4 投了         ( 0:02/00:00:03)",
        ] {
            assert!(text.contains(want), "{want:?} not in\n{text}");
        }
        assert_eq!(
            record_result(&r),
            Some((Special::Resign, Some(Color::Black)))
        );
    }

    #[test]
    fn every_ending_reads_back_as_its_result() {
        let cases: Vec<(EndReason, Option<Color>, Color)> = vec![
            (EndReason::Mate, Some(Color::Black), Color::White),
            (EndReason::Resign, Some(Color::White), Color::Black),
            (EndReason::Declaration, Some(Color::Black), Color::Black),
            (EndReason::Declaration, None, Color::White),
            (
                EndReason::FalseDeclaration("x".into()),
                Some(Color::White),
                Color::Black,
            ),
            (EndReason::Repetition, None, Color::Black),
            (EndReason::PerpetualCheck, Some(Color::White), Color::White),
            (EndReason::Time, Some(Color::White), Color::Black),
            (
                EndReason::Illegal {
                    text: "7g7e".into(),
                    reason: "r".into(),
                },
                Some(Color::Black),
                Color::White,
            ),
            (
                EndReason::Fault("crash".into()),
                Some(Color::White),
                Color::Black,
            ),
            (EndReason::MaxMoves, None, Color::White),
            (EndReason::AdjudicatedDraw("d".into()), None, Color::Black),
        ];
        for (reason, winner, to_move) in cases {
            let sp = special_for(&reason, winner, to_move);
            assert_eq!(result_of(&sp, to_move), Some(winner), "{reason:?} → {sp:?}");
        }
        assert_eq!(
            result_of(
                &special_for(&EndReason::Interrupted, None, Color::Black),
                Color::Black
            ),
            None
        );
    }
}
