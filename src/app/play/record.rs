//! The game in the record, as it is played: each move with the time it took (KIF's
//! `( 0:05/00:01:23)`, the running total computed by the writer), the players' names, the
//! time control and 開始日時 at the start, the ending word and 終了日時 at the end. In a new or
//! empty record they are its header; a game played as a variation of a record that has its
//! own players says them in the comment of its first move instead (the header is the game
//! the record holds). Every change is an edit through the document: undo, the unsaved state
//! and the recovery files treat it as any other.

use crate::app::play::state::Match;
use crate::app::state::{App, Level};
use crate::core::record::{Edit, MoveTime};
use crate::core::rules::Move;
use crate::game::GameEnd;
use std::time::Duration;

/// The time a move took as the record keeps it: whole seconds, the part under a second cut
/// off, as shogi's clocks and the CSA server count the time used (1秒未満切り捨て). KIF and CSA
/// V2 hold whole seconds only: a played game then saves as it is, with no question about
/// fractions it cannot hold. The clock itself charges the exact time.
fn move_time(spent: Option<Duration>) -> Option<MoveTime> {
    spent.map(|d| MoveTime {
        spent_ms: d.as_secs().saturating_mul(1000),
        total_ms: None,
    })
}

/// The game's info as header fields: 先手, 後手, 持ち時間, 開始日時 (and 終了日時 when over).
fn info_fields(m: &Match, ended: Option<&str>) -> Vec<(&'static str, String)> {
    let mut f = vec![
        ("開始日時", m.started.clone()),
        ("持ち時間", m.settings.time_control.kif_text()),
        ("先手", m.settings.names[0].clone()),
        ("後手", m.settings.names[1].clone()),
    ];
    if let Some(e) = ended {
        f.insert(1, ("終了日時", e.to_string()));
    }
    f
}

impl App {
    /// The game starts: its info into the header (a new or empty record; one undo step).
    pub(super) fn write_game_start(&mut self) {
        let Some(m) = self.research.play.current() else {
            return;
        };
        if !m.in_header {
            return;
        }
        let mut h = self.record().header.clone();
        for (k, v) in info_fields(m, None) {
            h.set(k, &v);
        }
        let cur = self.cur();
        if let Err(e) = self.doc.apply(Edit::SetHeader(h), cur) {
            self.info_level(e.to_string(), Level::Error);
        }
    }

    /// `mv` played at the game's last move, with its time; `join`: part of the last undo step
    /// (the engine's reply to the user's move). The cursor goes to it.
    pub(super) fn write_game_move(&mut self, mv: Move, spent: Option<Duration>, join: bool) {
        let Some(m) = self.research.play.current() else {
            return;
        };
        let parent = m.tip();
        let first = m.nodes.is_empty() && !m.in_header;
        let comment = first.then(|| game_comment(m, None));
        let cur = self.cur();
        let mut edits = vec![Edit::AddMove { parent, mv }];
        let node = match join {
            true => self.doc.apply_joined(edits.remove(0), cur),
            false => self.doc.apply(edits.remove(0), cur),
        };
        let node = match node {
            Ok(n) => n,
            Err(e) => {
                self.info_level(format!("the game's move: {e}"), Level::Error);
                return;
            }
        };
        let mut more = vec![Edit::SetTime {
            node,
            time: move_time(spent),
        }];
        if let Some(text) = comment {
            more.push(Edit::SetComment { node, text });
        }
        let _ = self.doc.apply_joined(Edit::Batch(more), node);
        if let Some(m) = self.research.play.current.as_deref_mut() {
            m.nodes.push(node);
        }
        self.jump_to(node);
    }

    /// The game ended with `o`: its ending word after its last move (with the time of a
    /// resignation or a flag's fall), 終了日時 with the info: one undo step.
    pub(super) fn write_game_end(&mut self, o: &GameEnd) {
        let Some(m) = self.research.play.current() else {
            return;
        };
        let parent = m.tip();
        if !self.doc.record().is_attached(parent) {
            return;
        }
        let special = crate::game::special_for(&o.reason, o.winner, o.to_move);
        let (spent, _) = m.game.ending_extra();
        let ended = crate::game::record::now_text();
        let info = match m.in_header {
            true => {
                let mut h = self.record().header.clone();
                for (k, v) in info_fields(m, Some(&ended)) {
                    h.set(k, &v);
                }
                Some(Edit::SetHeader(h))
            }
            false => m.nodes.first().map(|&first| Edit::SetComment {
                node: first,
                text: game_comment(m, Some(&ended)),
            }),
        };
        let cur = self.cur();
        let node = match self.doc.apply(Edit::AddSpecial { parent, special }, cur) {
            Ok(n) => n,
            Err(e) => {
                self.info_level(format!("the game's ending: {e}"), Level::Error);
                return;
            }
        };
        let mut more = vec![Edit::SetTime {
            node,
            time: move_time(spent),
        }];
        more.extend(info);
        let _ = self.doc.apply_joined(Edit::Batch(more), node);
        self.jump_to(node);
    }
}

/// The comment on a variation game's first move: who played, the time control, when.
fn game_comment(m: &Match, ended: Option<&str>) -> String {
    info_fields(m, ended)
        .into_iter()
        .map(|(k, v)| format!("{k}：{v}"))
        .collect::<Vec<_>>()
        .join("\n")
}
