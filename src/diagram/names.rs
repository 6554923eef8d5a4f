//! Which positions of a record a command draws, and the names of their files:
//! `game-ply040.svg` for a ply, `game-NAME.svg` for a bookmark.

use crate::core::record::{NodeId, Record};

/// Which positions of a record to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The end of the main line.
    Last,
    /// The position after this move of the main line, as the record numbers its moves.
    Ply(u32),
    /// Every bookmarked node (in the order of the record's tree).
    Bookmarks,
    /// The start and every N-th move of the main line.
    Every(u32),
    /// Every position of the main line.
    All,
}

/// One position to draw and what its file is called after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picked {
    pub node: NodeId,
    /// The move number it follows, as the record numbers its moves.
    pub ply: u32,
    pub bookmark: Option<String>,
}

/// The positions `pick` names in `record`, or why there are none (a ply past the end).
pub fn pick(record: &Record, pick: Pick) -> Result<Vec<Picked>, String> {
    let before = record.moves_before();
    let line = record.main_line();
    let moves = record.main_line_moves() as usize;
    let at = |i: usize| Picked {
        node: line[i],
        ply: before + i as u32,
        bookmark: None,
    };
    Ok(match pick {
        Pick::Last => vec![at(moves)],
        Pick::Ply(p) => {
            let node = record.node_at_ply(Some(p))?;
            vec![Picked {
                node,
                ply: before.max(p),
                bookmark: None,
            }]
        }
        Pick::All => (0..=moves).map(at).collect(),
        Pick::Every(n) => (0..=moves).step_by(n.max(1) as usize).map(at).collect(),
        Pick::Bookmarks => record
            .preorder()
            .into_iter()
            .filter_map(|id| {
                let b = record.node(id).bookmark.as_deref()?.trim();
                (!b.is_empty()).then(|| Picked {
                    node: id,
                    ply: before + record.node(id).ply,
                    bookmark: Some(b.to_string()),
                })
            })
            .collect(),
    })
}

/// The most bytes of a file's stem (the record's name) in a diagram's name.
pub const MAX_STEM: usize = 96;
/// The most bytes of a bookmark's part of a diagram's name: with the stem, the ply numbers and
/// the extension a name stays under 216 bytes, which leaves room under NAME_MAX (255) for the
/// temporary file written beside it (`.NAME.kifview-PID-N.tmp`).
pub const MAX_BOOKMARK: usize = 80;

/// The file names of `picked` under the stem `stem` with extension `ext`: `stem-ply040.ext`,
/// `stem-NAME.ext` for a bookmark (characters a file name cannot hold replaced by `_`, format
/// characters left out, cut to [`MAX_BOOKMARK`] bytes); a name taken twice gets the ply after
/// it. `stem` is one [`stem`] made.
pub fn file_names(stem: &str, picked: &[Picked], ext: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    picked
        .iter()
        .map(|p| {
            let plain = format!("{stem}-ply{:03}", p.ply);
            let mut name = match &p.bookmark {
                Some(b) => format!("{stem}-{}", safe(b, MAX_BOOKMARK, "bookmark")),
                None => plain.clone(),
            };
            if !seen.insert(name.clone()) {
                name = format!("{name}-ply{:03}", p.ply);
                let mut n = 2;
                while !seen.insert(name.clone()) {
                    name = format!("{plain}-{n}");
                    n += 1;
                }
            }
            format!("{name}.{ext}")
        })
        .collect()
}

/// A record file's name (without its extension) as the start of its diagrams' names: what a
/// file name cannot hold replaced, format characters left out, at most [`MAX_STEM`] bytes.
pub fn stem(name: &str) -> String {
    safe(name, MAX_STEM, "record")
}

/// `s` as part of a file name: no path separators, control or shell-hostile characters, no
/// format characters (U+202E would turn the name around), no leading dot, at most `max` bytes
/// (cut on a character boundary); `empty` when nothing is left.
fn safe(s: &str, max: usize, empty: &str) -> String {
    let mut out = String::new();
    for c in s
        .chars()
        .filter(|&c| c == '\t' || c == '\n' || !super::hidden(c))
    {
        let c = match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c if c.is_control() || c.is_whitespace() => '_',
            c => c,
        };
        if out.len() + c.len_utf8() > max {
            break;
        }
        out.push(c);
    }
    if out.starts_with('.') {
        out.replace_range(..1, "_");
    }
    if out.is_empty() { empty.into() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(ply: u32, b: Option<&str>) -> Picked {
        Picked {
            node: NodeId(0),
            ply,
            bookmark: b.map(String::from),
        }
    }

    #[test]
    fn names_say_what_they_are_and_never_clash() {
        let picked = [
            p(40, None),
            p(7, Some("急所 ../x")),
            p(9, Some("急所 ../x")),
            p(40, None),
            p(3, Some("..")),
        ];
        assert_eq!(
            file_names("game", &picked, "svg"),
            [
                "game-ply040.svg",
                "game-急所_.._x.svg",
                "game-急所_.._x-ply009.svg",
                "game-ply040-ply040.svg",
                "game-_..svg"
            ]
        );
    }
}
