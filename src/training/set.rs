//! Problem sets in ShogiHome's next-move format (次の一手問題集, sunfish-shogi/shogihome
//! `specs/next-move-problem-format.md`, `src/common/nextmove/collection.ts`): one JSON object
//! `{"format":"shogihome-next-move","version":1,"metadata":{…},"problems":[…]}`.
//!
//! Reading checks what ShogiHome's `parseNextMoveCollection` checks, with the same refusals
//! (not JSON, not a set, a version above 1, a problem that is not an object, a bad SFEN, no
//! candidates, a move that is not legal in the problem's position, a previous move that does
//! not lead to it), each message naming the problem (`problems[3].candidates[1]: …`). Fields
//! this version does not know are kept, at every level, and written back on a rewrite (the
//! spec asks readers to ignore them; a rewrite that dropped them would lose another program's
//! data). Scores are from sente's side, in centipawns; `mate` counts plies, positive when
//! sente mates.

use crate::core::rules::{Move, Position};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The `format` of a next-move problem set.
pub const FORMAT: &str = "shogihome-next-move";
/// The version this reader knows; a higher one is refused.
pub const VERSION: u64 = 1;

/// Why a file is not a set kifview can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetError(pub String);

fn err(msg: impl Into<String>) -> SetError {
    SetError(msg.into())
}

/// A number of the metadata that may have a fraction (a percentage, seconds): written without
/// one when it is whole (`20`, not `20.0`), as ShogiHome writes it.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Deserialize)]
#[serde(transparent)]
pub struct Num(pub f64);

impl Serialize for Num {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.fract() == 0.0 && self.0.abs() < 1e15 {
            s.serialize_i64(self.0 as i64)
        } else {
            s.serialize_f64(self.0)
        }
    }
}

/// A whole problem set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProblemSet {
    pub format: String,
    /// As read (`1`); kept as a JSON number so that a rewrite writes it as it was.
    pub version: serde_json::Number,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
    pub problems: Vec<Problem>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// ISO 8601.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineMetadata>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criteria: Option<CriteriaMetadata>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineMetadata {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, rename = "multiPV", skip_serializing_if = "Option::is_none")]
    pub multi_pv: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_seconds_per_position: Option<Num>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The thresholds a set was made with (percentages of the mover's winning chance).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CriteriaMetadata {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_rate_drop_threshold: Option<Num>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adoption_win_rate_diff: Option<Num>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acceptable_win_rate_diff: Option<Num>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_win_rate: Option<Num>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coefficient_in_sigmoid: Option<Num>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_ply: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_ply: Option<u64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One problem: a position, the moves a search found in it, and the move played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// Four-field SFEN, move number 1; the side to move answers.
    pub sfen: String,
    /// Best first (from the side to move's view); the first is always accepted.
    pub candidates: Vec<Candidate>,
    pub actual_move: ActualMove,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_move: Option<PreviousMove>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<ProblemAnalysis>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<ProblemSource>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub usi: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv: Option<Vec<String>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Candidate {
    /// `accepted` (absent means no).
    pub fn is_accepted(&self) -> bool {
        self.accepted == Some(true)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActualMove {
    pub usi: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<i64>,
    /// `"research"` (the re-search's line for it) or `"comment"` (the record's analysis).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_source: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PreviousMove {
    pub usi: String,
    /// The position before it (four fields, move number 1).
    pub sfen: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProblemAnalysis {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_before_move: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_after_move: Option<i64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProblemSource {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The move's number in the game (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_player: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_player: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The SFEN with its move number set to 1 (ShogiHome's `normalizeProblemSFEN`).
pub fn normalize_sfen(sfen: &str) -> String {
    format!("{} 1", position_key(sfen))
}

/// What tells two problems' positions apart: the SFEN's board, side and hands, without the
/// move number (ShogiHome's `getProblemPositionKey`).
pub fn position_key(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let f: &[&str] = match f.first() {
        Some(&"sfen") => &f[1..],
        _ => &f,
    };
    f.iter().take(3).copied().collect::<Vec<_>>().join(" ")
}

/// A legal move of `pos` from USI text, or why not.
pub fn legal_usi(pos: &Position, usi: &str) -> Result<Move, String> {
    let mv = Move::from_usi(usi).ok_or_else(|| format!("not a USI move: {usi:?}"))?;
    pos.check(mv)
        .map_err(|why| format!("{usi} is not legal here: {why}"))?;
    Ok(mv)
}

impl Problem {
    /// The problem's position.
    pub fn position(&self) -> Result<Position, String> {
        Position::from_sfen(&self.sfen).map_err(|e| format!("invalid SFEN: {e}"))
    }

    /// [`position_key`] of the problem's SFEN.
    pub fn key(&self) -> String {
        position_key(&self.sfen)
    }

    /// The candidate `mv` is, if the set lists it.
    pub fn candidate(&self, mv: Move) -> Option<&Candidate> {
        let usi = mv.usi();
        self.candidates.iter().find(|c| c.usi == usi)
    }

    /// Is `mv` an accepted answer?
    pub fn accepts(&self, mv: Move) -> bool {
        self.candidate(mv).is_some_and(Candidate::is_accepted)
    }

    fn validate(&self) -> Result<(), String> {
        let pos = self.position()?;
        if self.candidates.is_empty() {
            return Err("no candidates".into());
        }
        for (i, c) in self.candidates.iter().enumerate() {
            legal_usi(&pos, &c.usi).map_err(|e| format!("candidates[{i}]: {e}"))?;
        }
        legal_usi(&pos, &self.actual_move.usi).map_err(|e| format!("actualMove: {e}"))?;
        if let Some(prev) = &self.previous_move {
            let mut before = Position::from_sfen(&prev.sfen)
                .map_err(|e| format!("previousMove: invalid SFEN: {e}"))?;
            let mv = legal_usi(&before, &prev.usi).map_err(|e| format!("previousMove: {e}"))?;
            before.play(mv).map_err(|e| format!("previousMove: {e}"))?;
            if position_key(&before.to_sfen()) != self.key() {
                return Err(format!(
                    "previousMove: {} from its sfen does not lead to the problem's position",
                    prev.usi
                ));
            }
        }
        Ok(())
    }
}

impl ProblemSet {
    /// An empty set of this format and version.
    pub fn new(metadata: Option<Metadata>) -> ProblemSet {
        ProblemSet {
            format: FORMAT.to_string(),
            version: VERSION.into(),
            metadata,
            problems: Vec::new(),
            extra: Map::new(),
        }
    }

    /// Reads a set from its JSON text, checking it as ShogiHome does.
    pub fn from_json(text: &str) -> Result<ProblemSet, SetError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let data: Value = serde_json::from_str(text).map_err(|e| err(format!("not JSON: {e}")))?;
        let Value::Object(mut top) = data else {
            return Err(err("not a next-move problem set (not a JSON object)"));
        };
        match top.get("format") {
            Some(Value::String(f)) if f == FORMAT => {}
            other => {
                return Err(err(format!(
                    "not a next-move problem set: \"format\" is {}, not \"{FORMAT}\"",
                    other.map_or("missing".to_string(), Value::to_string)
                )));
            }
        }
        match top.get("version") {
            Some(Value::Number(n)) if n.as_f64() == Some(1.0) => {}
            other => {
                return Err(err(format!(
                    "unsupported version: {} (kifview reads version {VERSION})",
                    other.map_or("missing".to_string(), Value::to_string)
                )));
            }
        }
        let problems = match top.remove("problems") {
            Some(Value::Array(p)) => p,
            _ => return Err(err("no \"problems\" array")),
        };
        let mut set: ProblemSet = {
            top.insert("problems".into(), Value::Array(Vec::new()));
            serde_json::from_value(Value::Object(top)).map_err(|e| err(format!("metadata: {e}")))?
        };
        for (i, p) in problems.into_iter().enumerate() {
            if !p.is_object() {
                return Err(err(format!("problems[{i}]: not a problem (an object)")));
            }
            let problem: Problem =
                serde_json::from_value(p).map_err(|e| err(format!("problems[{i}]: {e}")))?;
            problem
                .validate()
                .map_err(|e| err(format!("problems[{i}]: {e}")))?;
            set.problems.push(problem);
        }
        Ok(set)
    }

    /// The set as JSON text, two spaces of indent as ShogiHome writes it, and a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a set is always JSON");
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests;
