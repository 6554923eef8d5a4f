//! Strategy and castle tags (戦型/囲い) of a game.
//!
//! Placeholder: only the header's `戦型` when it names a known tag. The rules that compute the
//! tags from the positions replace this body (same signature).

use crate::core::record::Record;

/// The tag names this module can return.
pub const KNOWN: &[&str] = &[
    "居飛車",
    "振り飛車",
    "相振り飛車",
    "中飛車",
    "四間飛車",
    "三間飛車",
    "向かい飛車",
    "矢倉",
    "角換わり",
    "相掛かり",
    "横歩取り",
    "雁木",
    "美濃囲い",
    "高美濃囲い",
    "銀冠",
    "穴熊",
    "舟囲い",
];

/// The game's strategy and castle tags, each once, in [`KNOWN`] order.
pub fn tags(record: &Record) -> Vec<&'static str> {
    let Some(header) = record.header.get("戦型") else {
        return Vec::new();
    };
    KNOWN
        .iter()
        .copied()
        .filter(|t| header.trim() == *t)
        .collect()
}
