//! What a writer could not put in its format: a typed value with exact counts, whose `Display`
//! is the phrase shown to the user (`3 variations (17 moves)`, `5 comments`,
//! `the 先手省略名 header`).

use crate::record::{NodeId, Record, Special, Step};
use std::fmt;

/// One kind of thing a format cannot hold, and how many of it the record has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    pub what: Lost,
    /// How many: variations, comments, bookmarks, header fields, ... (never 0).
    pub count: usize,
}

/// The kinds of loss.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lost {
    /// Variations (alternatives to the main line) with `moves` moves and endings in all.
    Variations {
        moves: usize,
    },
    /// Moves of the main line (a format that holds one position).
    Moves,
    /// Comments (one per move or position that has one).
    Comments,
    /// Empty lines inside comments (CSA cannot write `'*` alone).
    EmptyCommentLines,
    Bookmarks,
    /// Times on moves.
    Times,
    /// Times whose milliseconds a format drops (KIF, CSA V2.2); `hint` says where they are
    /// kept, if anywhere.
    SecondFractions {
        hint: Option<&'static str>,
    },
    /// Header fields, by key, in record order.
    Headers(Vec<String>),
    /// Line breaks inside one-line text: `place` is what holds them (`header value`).
    LineBreaks {
        place: &'static str,
    },
    /// White space at the end of one-line text that the format cannot keep there (CSA
    /// readers trim lines): `place` is what held it (`header value`); it was written trimmed.
    TrailingSpace {
        place: &'static str,
    },
    /// Remark lines (KIF's and KI2's `#`, CSA's `'`: lines other programs skip).
    ProgramLines,
    /// `開始日時`/`終了日時` fields whose text is not a date CSA can hold (`$START_TIME` takes
    /// `YYYY/MM/DD HH:MM:SS`): written as remarks instead, by key.
    NotCsaDates(Vec<String>),
    /// The numbering of a record that starts after move 1 (`手数＝80`: its first move is 81),
    /// in a format that numbers every record from 1 (CSA, JKF).
    MoveNumbers {
        first: u32,
    },
    /// An ending the format has no word for; `written_as` says what was written instead
    /// (`None`: the ending was left out).
    Ending {
        word: String,
        written_as: Option<String>,
    },
}

impl Loss {
    pub fn new(what: Lost, count: usize) -> Loss {
        Loss { what, count }
    }
    /// `Some` when `count` is not 0.
    pub fn some(what: Lost, count: usize) -> Option<Loss> {
        (count > 0).then_some(Loss { what, count })
    }
}

/// `1 comment`, `5 comments`.
fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.count;
        match &self.what {
            Lost::Variations { moves } => write!(
                f,
                "{} ({})",
                counted(n, "variation", "variations"),
                counted(*moves, "move", "moves")
            ),
            Lost::Moves => f.write_str(&counted(n, "move", "moves")),
            Lost::Comments => f.write_str(&counted(n, "comment", "comments")),
            Lost::EmptyCommentLines => {
                f.write_str(&counted(n, "empty comment line", "empty comment lines"))
            }
            Lost::Bookmarks => f.write_str(&counted(n, "bookmark", "bookmarks")),
            Lost::Times => write!(f, "times on {}", counted(n, "move", "moves")),
            Lost::SecondFractions { hint } => {
                write!(
                    f,
                    "fractions of a second in {}",
                    counted(n, "time", "times")
                )?;
                match hint {
                    Some(h) => write!(f, " ({h})"),
                    None => Ok(()),
                }
            }
            Lost::Headers(keys) => write!(
                f,
                "the {} header{}",
                and_list(keys),
                if keys.len() == 1 { "" } else { "s" }
            ),
            Lost::LineBreaks { place } => {
                if n == 1 {
                    write!(f, "line breaks in a {place}")
                } else {
                    write!(f, "line breaks in {n} {place}s")
                }
            }
            Lost::TrailingSpace { place } => {
                if n == 1 {
                    write!(f, "white space at the end of a {place}")
                } else {
                    write!(f, "white space at the end of {n} {place}s")
                }
            }
            Lost::ProgramLines => f.write_str(&counted(
                n,
                "remark line (# in KIF, ' in CSA)",
                "remark lines (# in KIF, ' in CSA)",
            )),
            Lost::NotCsaDates(keys) => write!(
                f,
                "the {} header{} (not a date CSA can hold: written as a remark)",
                and_list(keys),
                if keys.len() == 1 { "" } else { "s" }
            ),
            Lost::MoveNumbers { first } => write!(
                f,
                "the move numbers (the record starts at move {first}; read back, it starts at 1)"
            ),
            Lost::Ending { word, written_as } => {
                let what = if n == 1 {
                    format!("the ending {word}")
                } else {
                    format!("{n} endings {word}")
                };
                match written_as {
                    Some(w) => write!(f, "{what} (written as {w})"),
                    None => f.write_str(&what),
                }
            }
        }
    }
}

/// Counts of what a record holds beyond its main line of moves, for writers that keep part
/// of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Alternatives to the main line (children other than the first).
    pub variations: usize,
    /// Nodes off the main line (moves and endings in variations).
    pub variation_nodes: usize,
    /// Moves on the main line.
    pub main_moves: usize,
    /// Nodes with a comment, and those of them on the main line (root included).
    pub comments: usize,
    pub main_comments: usize,
    pub bookmarks: usize,
    /// Nodes with a time.
    pub times: usize,
}

impl Census {
    pub fn of(record: &Record) -> Census {
        Census::along(record, &record.main_line())
    }
    /// [`Census::of`] for a caller that has the main line (root included) at hand. A record
    /// without variations (most files) is counted in one pass over its nodes.
    pub fn along(record: &Record, main: &[NodeId]) -> Census {
        let mut c = Census::default();
        let mut moves = 0;
        for n in &record.nodes {
            c.variations += n.children.len().saturating_sub(1);
            c.comments += usize::from(!n.comment.is_empty());
            c.bookmarks += usize::from(n.bookmark.is_some());
            c.times += usize::from(n.time.is_some());
            moves += usize::from(matches!(n.step, Step::Move(_)));
        }
        c.variation_nodes = record.nodes.len() - main.len();
        if c.variation_nodes == 0 {
            // Every node is on the main line.
            c.main_moves = moves;
            c.main_comments = c.comments;
            return c;
        }
        for &id in main {
            let n = record.node(id);
            c.main_moves += usize::from(matches!(n.step, Step::Move(_)));
            c.main_comments += usize::from(!n.comment.is_empty());
        }
        c
    }
    /// `N variations (M moves)` when there are any.
    pub fn variations_loss(&self) -> Option<Loss> {
        Loss::some(
            Lost::Variations {
                moves: self.variation_nodes,
            },
            self.variations,
        )
    }
}

/// Ending words the format's reader would not read back as themselves, written as 中断: one
/// loss per word, counted (KIF and KI2).
pub fn endings_written_as_interrupt(losses: &mut Vec<Loss>, words: Vec<String>) {
    for word in words {
        match losses
            .iter_mut()
            .find(|l| matches!(&l.what, Lost::Ending { word: w, .. } if *w == word))
        {
            Some(l) => l.count += 1,
            None => losses.push(Loss::new(
                Lost::Ending {
                    word,
                    written_as: Some(Special::Interrupt.kif_word().to_string()),
                },
                1,
            )),
        }
    }
}

/// The numbering of a record whose first move is not move 1, for a format that numbers
/// from 1.
pub fn move_numbers(record: &Record) -> Option<Loss> {
    let before = record.moves_before();
    (before > 0).then(|| Loss::new(Lost::MoveNumbers { first: before + 1 }, 1))
}

/// What a format that holds the main line's moves and nothing else (USI) leaves out:
/// variations, comments, bookmarks, times, program lines, header fields and the ending.
pub fn beyond_the_moves(record: &Record, c: &Census) -> Vec<Loss> {
    let mut out: Vec<Loss> = [
        c.variations_loss(),
        Loss::some(Lost::Comments, c.comments),
        Loss::some(Lost::Bookmarks, c.bookmarks),
        Loss::some(Lost::Times, c.times),
        Loss::some(Lost::ProgramLines, record.remark_count()),
    ]
    .into_iter()
    .flatten()
    .collect();
    let keys: Vec<String> = record.header.fields.iter().map(|f| f.key.clone()).collect();
    out.extend(Loss::some(Lost::Headers(keys.clone()), keys.len()));
    let last = *record
        .main_line()
        .last()
        .expect("the main line holds the root");
    if let Some(s) = record.node(last).special() {
        out.push(Loss::new(
            Lost::Ending {
                word: s.kif_word().to_string(),
                written_as: None,
            },
            1,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_name_and_count() {
        let l = |what, count| Loss::new(what, count).to_string();
        assert_eq!(
            l(Lost::Variations { moves: 17 }, 3),
            "3 variations (17 moves)"
        );
        assert_eq!(l(Lost::Variations { moves: 1 }, 1), "1 variation (1 move)");
        assert_eq!(l(Lost::Comments, 5), "5 comments");
        assert_eq!(l(Lost::Comments, 1), "1 comment");
        assert_eq!(l(Lost::Bookmarks, 2), "2 bookmarks");
        assert_eq!(l(Lost::Times, 12), "times on 12 moves");
        assert_eq!(
            l(Lost::Headers(vec!["先手省略名".into()]), 1),
            "the 先手省略名 header"
        );
        assert_eq!(
            l(Lost::Headers(vec!["a".into(), "b".into(), "c".into()]), 3),
            "the a, b and c headers"
        );
        assert_eq!(
            l(
                Lost::LineBreaks {
                    place: "header value"
                },
                1
            ),
            "line breaks in a header value"
        );
        assert_eq!(
            l(
                Lost::LineBreaks {
                    place: "header value"
                },
                2
            ),
            "line breaks in 2 header values"
        );
        assert_eq!(
            l(
                Lost::TrailingSpace {
                    place: "header value"
                },
                2
            ),
            "white space at the end of 2 header values"
        );
        assert_eq!(
            l(
                Lost::Ending {
                    word: "封じ手".into(),
                    written_as: None
                },
                1
            ),
            "the ending 封じ手"
        );
    }
}
