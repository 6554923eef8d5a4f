//! The tags a problem is counted under in `kifview train stats`:
//!
//! - a tsume's length: `N手詰`, the plies of its answer;
//! - a next-move problem's game strategy (戦型): the plain strategy names
//!   `collection::tags::tags` gives its source record (`四間飛車`, `対抗形`, `角換わり`, …; a
//!   header's `戦型` wins there), castles left out; none when the record cannot be read;
//! - its phase by the ply of the move to find ([`PHASES`]): `序盤` up to ply 30 (the plies
//!   within which `collection::tags` looks for the opening), `中盤` from 31 to 80, `終盤` from 81.

use super::history::{PHASES, Tag, TagFamily};
use super::set::{ProblemSet, position_key};
use crate::collection::tags::{CASTLES, KNOWN, tags};
use crate::core::record::Record;
use std::collections::HashMap;
use std::path::Path;

/// The phase of the problem whose move to find is the game's move `ply` (1 is the first).
pub fn phase(ply: u64) -> &'static str {
    PHASES
        .iter()
        .find(|(_, last)| ply <= *last)
        .map_or("終盤", |p| p.0)
}

/// The phases' bounds in words: `序盤 ≤30手, 中盤 31–80手, 終盤 81手–`.
pub fn phases_text() -> String {
    let mut first = 1;
    let parts: Vec<String> = PHASES
        .iter()
        .map(|&(name, last)| {
            let s = match (first, last) {
                (1, l) => format!("{name} ≤{l}手"),
                (f, u64::MAX) => format!("{name} {f}手–"),
                (f, l) => format!("{name} {f}–{l}手"),
            };
            first = last.saturating_add(1);
            s
        })
        .collect();
    parts.join(", ")
}

/// A tsume's length tag.
pub fn length(plies: usize) -> Tag {
    Tag::new(TagFamily::Length, format!("{plies}手詰"))
}

/// Is a plain tag of `collection::tags` a strategy (not a castle, nor 居玉)?
fn is_strategy(tag: &str) -> bool {
    KNOWN.contains(&tag)
        && !CASTLES.iter().any(|c| c.name.plain == tag)
        && !["穴熊", "居玉", "菊水矢倉"].contains(&tag)
}

/// The strategy tags of a game.
pub fn strategies(record: &Record) -> Vec<Tag> {
    tags(record)
        .into_iter()
        .filter(|t| is_strategy(t))
        .map(|t| Tag::new(TagFamily::Strategy, t))
        .collect()
}

/// The record of a file whose main line reaches `key` (a position key) at move `ply`; the
/// first record when none does (a set made before the record was edited).
fn record_at<'a>(records: &'a [Record], key: &str, ply: Option<u64>) -> Option<&'a Record> {
    let reaches = |r: &&Record| {
        let line = r.main_line();
        ply.and_then(|p| usize::try_from(p).ok())
            .and_then(|p| p.checked_sub(1 + r.moves_before() as usize))
            .and_then(|i| line.get(i))
            .is_some_and(|&id| position_key(&r.position_at(id).to_sfen()) == key)
    };
    records.iter().find(reaches).or(records.first())
}

/// Each problem of a set (by its key) with its tags: its phase from its source's ply, its
/// game's strategies from its source record when that can be read (each file read once).
pub fn for_set(set: &ProblemSet) -> Vec<(String, Vec<Tag>)> {
    let mut files: HashMap<String, Vec<Record>> = HashMap::new();
    set.problems
        .iter()
        .map(|p| {
            let key = p.key();
            let mut out = Vec::new();
            let source = p.source.as_ref();
            let ply = source.and_then(|s| s.ply);
            if let Some(path) = source.and_then(|s| s.path.as_deref()) {
                let records = files.entry(path.to_string()).or_insert_with(|| {
                    crate::load::load_input(Path::new(path))
                        .map(|l| l.records.into_iter().map(|p| p.record).collect())
                        .unwrap_or_default()
                });
                if let Some(r) = record_at(records, &key, ply) {
                    out.extend(strategies(r));
                }
            }
            if let Some(ply) = ply {
                out.push(Tag::new(TagFamily::Phase, phase(ply)));
            }
            (key, out)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_by_ply() {
        assert_eq!(
            [1, 30, 31, 80, 81, 300].map(phase),
            ["序盤", "序盤", "中盤", "中盤", "終盤", "終盤"]
        );
        assert_eq!(length(7).name, "7手詰");
        assert_eq!(phases_text(), "序盤 ≤30手, 中盤 31–80手, 終盤 81手–");
    }

    #[test]
    fn castles_are_not_strategies() {
        assert!(is_strategy("四間飛車") && is_strategy("角換わり") && is_strategy("対抗形"));
        assert!(!is_strategy("美濃囲い") && !is_strategy("穴熊") && !is_strategy("居玉"));
        assert!(!is_strategy("後手四間飛車"));
    }
}
