//! Special endings of a line (投了, 中断, ...).

use crate::rules::Color;

/// How a line ends when it does not end with a move.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub enum Special {
    /// 投了: the side to move resigns.
    Resign,
    /// 中断: the game was interrupted.
    Interrupt,
    /// 千日手: draw by fourfold repetition.
    RepetitionDraw,
    /// 持将棋: impasse.
    Impass,
    /// 詰み: the side to move is checkmated.
    Mate,
    /// 不詰: a tsume problem has no mate.
    NoMate,
    /// 切れ負け: the side to move lost on time.
    Timeout,
    /// 反則勝ち: the side to move wins (the previous move was a foul).
    FoulWin,
    /// 反則負け: the side to move loses by a foul.
    FoulLose,
    /// 入玉勝ち: the side to move declares a win by entering king.
    EnteringKing,
    /// 不戦勝: win by default.
    WinByDefault,
    /// 不戦敗: loss by default.
    LossByDefault,
    /// CSA `%MAX_MOVES`: the move limit was reached.
    MaxMoves,
    /// CSA `%HIKIWAKE`: draw.
    Draw,
    /// Any other word (e.g. 封じ手), kept verbatim.
    Other(String),
}

const KIF_WORDS: [(&str, Special); 14] = [
    ("投了", Special::Resign),
    ("中断", Special::Interrupt),
    ("千日手", Special::RepetitionDraw),
    ("持将棋", Special::Impass),
    ("詰み", Special::Mate),
    ("不詰", Special::NoMate),
    ("切れ負け", Special::Timeout),
    ("反則勝ち", Special::FoulWin),
    ("反則負け", Special::FoulLose),
    ("入玉勝ち", Special::EnteringKing),
    ("不戦勝", Special::WinByDefault),
    ("不戦敗", Special::LossByDefault),
    ("最大手数", Special::MaxMoves),
    ("引き分け", Special::Draw),
];

/// Is `w` a count of moves and `手詰` (`61手詰`, `６１手詰`)?
fn is_counted_mate(w: &str) -> bool {
    let is_digit = |c: char| c.is_ascii_digit() || ('０'..='９').contains(&c);
    let rest = w.trim_start_matches(is_digit);
    rest.len() < w.len() && rest == "手詰"
}

impl Special {
    /// Reads a KIF ending word (`投了`, `詰`, `時間切れ`, ...); unknown words become `Other`.
    pub fn from_kif(word: &str) -> Special {
        let w = word.trim();
        if let Some((_, s)) = KIF_WORDS.iter().find(|(k, _)| *k == w) {
            return s.clone();
        }
        match w {
            "詰" => Special::Mate,
            "時間切れ" | "切れ負け" => Special::Timeout,
            "持将棋宣言" => Special::Impass,
            "入玉宣言" => Special::EnteringKing,
            "引分け" | "引分" => Special::Draw,
            // `61手詰` (`まで61手詰`: how tsume records end, the last move mates).
            _ if is_counted_mate(w) => Special::Mate,
            _ => Special::Other(w.to_string()),
        }
    }
    /// The KIF word for this ending.
    pub fn kif_word(&self) -> &str {
        if let Special::Other(w) = self {
            return w;
        }
        KIF_WORDS
            .iter()
            .find(|(_, s)| s == self)
            .map(|(k, _)| *k)
            .unwrap_or("中断")
    }
    /// Reads a CSA `%` word. `side` is the side to move at that point.
    pub fn from_csa(word: &str, side: Color) -> Special {
        match word {
            "%TORYO" => Special::Resign,
            "%CHUDAN" => Special::Interrupt,
            "%SENNICHITE" => Special::RepetitionDraw,
            "%JISHOGI" => Special::Impass,
            "%TSUMI" => Special::Mate,
            "%FUZUMI" => Special::NoMate,
            "%TIME_UP" => Special::Timeout,
            "%ILLEGAL_MOVE" => Special::FoulLose,
            "%KACHI" => Special::EnteringKing,
            "%MAX_MOVES" => Special::MaxMoves,
            "%HIKIWAKE" => Special::Draw,
            "%+ILLEGAL_ACTION" | "%-ILLEGAL_ACTION" => {
                let fouler = if word.as_bytes()[1] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                if fouler == side {
                    Special::FoulLose
                } else {
                    Special::FoulWin
                }
            }
            w => Special::Other(w.trim_start_matches('%').to_string()),
        }
    }
    /// The CSA word for this ending, if CSA has one. `side` is the side to move.
    pub fn csa_word(&self, side: Color) -> Option<String> {
        Some(
            match self {
                Special::Resign => "%TORYO",
                Special::Interrupt => "%CHUDAN",
                Special::RepetitionDraw => "%SENNICHITE",
                Special::Impass => "%JISHOGI",
                Special::Mate => "%TSUMI",
                Special::NoMate => "%FUZUMI",
                Special::Timeout => "%TIME_UP",
                Special::FoulLose => "%ILLEGAL_MOVE",
                Special::FoulWin => match side {
                    // The previous mover (the other side) committed the foul.
                    Color::White => "%+ILLEGAL_ACTION",
                    Color::Black => "%-ILLEGAL_ACTION",
                },
                Special::EnteringKing => "%KACHI",
                Special::MaxMoves => "%MAX_MOVES",
                Special::Draw => "%HIKIWAKE",
                Special::WinByDefault | Special::LossByDefault | Special::Other(_) => {
                    return None;
                }
            }
            .to_string(),
        )
    }
    /// The name used by the corpus's expected JSON (`resign`, `mate`, `other:封じ手`, ...).
    pub fn json_name(&self) -> String {
        match self {
            Special::Resign => "resign".into(),
            Special::Interrupt => "interrupt".into(),
            Special::RepetitionDraw => "repetitionDraw".into(),
            Special::Impass => "impass".into(),
            Special::Mate => "mate".into(),
            Special::NoMate => "noMate".into(),
            Special::Timeout => "timeout".into(),
            Special::FoulWin => "foulWin".into(),
            Special::FoulLose => "foulLose".into(),
            Special::EnteringKing => "enteringOfKing".into(),
            Special::WinByDefault => "winByDefault".into(),
            Special::LossByDefault => "lossByDefault".into(),
            Special::MaxMoves => "maxMoves".into(),
            Special::Draw => "draw".into(),
            Special::Other(w) => format!("other:{w}"),
        }
    }
    /// Every kind a user can pick to end a line (the editor's menu).
    pub fn menu() -> Vec<Special> {
        KIF_WORDS.iter().map(|(_, s)| s.clone()).collect()
    }
    /// The KI2/KIF closing line, e.g. `まで77手で先手の勝ち`, `まで61手詰`. `plies` counts the moves played,
    /// `side` is the side to move at the ending, `handicap` uses 下手/上手 names.
    pub fn result_line(&self, plies: u32, side: Color, handicap: bool) -> String {
        let name = |c: Color| match (c, handicap) {
            (Color::Black, false) => "先手",
            (Color::White, false) => "後手",
            (Color::Black, true) => "下手",
            (Color::White, true) => "上手",
        };
        let mover = name(side);
        let other = name(side.flip());
        match self {
            Special::Resign => format!("まで{plies}手で{other}の勝ち"),
            Special::Timeout => format!("まで{plies}手で時間切れにより{other}の勝ち"),
            Special::FoulWin => format!("まで{plies}手で{mover}の反則勝ち"),
            Special::FoulLose => format!("まで{plies}手で{mover}の反則負け"),
            Special::EnteringKing => format!("まで{plies}手で{mover}の入玉勝ち"),
            // As Kifu for Windows writes a game ended by mate: the winner, named.
            Special::Mate => format!("まで{plies}手で{other}の勝ち"),
            Special::Other(w) => {
                // `まで61手詰`: the word already carries the count.
                let digits = w.chars().take_while(char::is_ascii_digit).count();
                if digits > 0 && w[digits..].starts_with('手') {
                    format!("まで{w}")
                } else {
                    format!("まで{plies}手で{w}")
                }
            }
            // 中断, 千日手, 持将棋, 不詰, 不戦勝, 不戦敗, ...: the word itself, so that KI2 reads
            // the same ending back.
            s => format!("まで{plies}手で{}", s.kif_word()),
        }
    }
}
