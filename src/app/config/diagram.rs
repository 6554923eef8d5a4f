//! The config's `[diagram]` section: how pictures of positions look (`y` `d` in the viewer,
//! `kifview diagram`), merged key by key over the defaults.

use crate::diagram::Theme;
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

/// `[diagram]` as the config file writes it; each key given replaces the default's.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDiagram {
    background: Option<Spanned<String>>,
    board: Option<Spanned<String>>,
    line: Option<Spanned<String>>,
    text: Option<Spanned<String>>,
    promoted: Option<Spanned<String>>,
    highlight: Option<Spanned<String>>,
    mark_last_move: Option<bool>,
    piece_font: Option<Spanned<String>>,
}

impl RawDiagram {
    /// Sets the keys given over `theme`; a colour that is not `#rgb`, `#rrggbb` or a name is an
    /// error at its place in the file.
    pub(crate) fn apply(self, theme: &mut Theme) -> Result<(), (Range<usize>, String)> {
        let colours = [
            (self.background, &mut theme.background, "background"),
            (self.board, &mut theme.board, "board"),
            (self.line, &mut theme.line, "line"),
            (self.text, &mut theme.text, "text"),
            (self.promoted, &mut theme.promoted, "promoted"),
            (self.highlight, &mut theme.highlight, "highlight"),
        ];
        for (value, field, name) in colours {
            let Some(v) = value else { continue };
            let c = v.get_ref().trim();
            if !is_colour(c) {
                return Err((
                    v.span(),
                    format!(
                        "diagram.{name}: `{c}` is not a colour (expected \"#rrggbb\", \"#rgb\" or a name such as \"white\")"
                    ),
                ));
            }
            *field = c.to_string();
        }
        if let Some(b) = self.mark_last_move {
            theme.mark_last_move = b;
        }
        if let Some(f) = self.piece_font {
            if f.get_ref().contains(['<', '>', '"', ';', '{', '}']) {
                return Err((
                    f.span(),
                    "diagram.piece_font: a font family list such as \"'Yu Mincho', serif\"".into(),
                ));
            }
            theme.piece_font = f.into_inner().trim().to_string();
        }
        Ok(())
    }
}

fn is_colour(c: &str) -> bool {
    match c.strip_prefix('#') {
        Some(hex) => matches!(hex.len(), 3 | 6) && hex.chars().all(|c| c.is_ascii_hexdigit()),
        None => !c.is_empty() && c.chars().all(|c| c.is_ascii_alphabetic()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_checked() {
        assert!(is_colour("#fff") && is_colour("#a0b1c2") && is_colour("white"));
        assert!(!is_colour("#ffff") && !is_colour("red\" onload=\"x") && !is_colour(""));
    }
}
