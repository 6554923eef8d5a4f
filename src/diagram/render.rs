//! Drawing a diagram's SVG into a PNG, or its text into outlines, with resvg and the bundled
//! font.
//!
//! Fonts: the bundled subset of Noto Serif CJK JP (`assets/fonts`) holds every glyph kifview
//! itself writes (pieces, labels, hands, captions), ASCII and kana, so a diagram draws the same
//! on a machine with no Japanese font. Installed fonts are looked at only when a diagram needs
//! them: a theme's `piece_font`, or a character of a name or bookmark the subset lacks. A
//! character no font has is drawn as 〓, and [`Fonts::prepare`] says which.

use super::{Diagram, Theme};
use resvg::usvg::{self, fontdb};
use std::sync::{Arc, OnceLock};

/// The bundled font: a subset of Noto Serif CJK JP Regular (SIL Open Font License 1.1,
/// `assets/fonts/OFL.txt`).
pub static BUNDLED_FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSerifCJKjp-diagram.otf");

/// What stands for a character no font has (下駄記号, the printers' mark for a missing glyph).
pub const MISSING: char = '〓';

/// The fonts diagrams are drawn with: the bundled one, and the installed ones loaded once, the
/// first time a diagram needs them (unless [`Fonts::bundled_only`]). Shared by the workers of
/// a batch.
pub struct Fonts {
    bundled: Arc<fontdb::Database>,
    system: OnceLock<Arc<fontdb::Database>>,
    use_system: bool,
}

impl Fonts {
    /// The bundled font, and the installed fonts when a diagram needs them.
    pub fn new() -> Fonts {
        Fonts::with_system(true)
    }

    /// The bundled font alone: what a machine with no fonts installed draws.
    pub fn bundled_only() -> Fonts {
        Fonts::with_system(false)
    }

    fn with_system(use_system: bool) -> Fonts {
        let mut db = fontdb::Database::new();
        db.load_font_data(BUNDLED_FONT.to_vec());
        Fonts {
            bundled: Arc::new(db),
            system: OnceLock::new(),
            use_system,
        }
    }

    fn system(&self) -> &Arc<fontdb::Database> {
        self.system.get_or_init(|| {
            let mut db = (*self.bundled).clone();
            db.load_system_fonts();
            Arc::new(db)
        })
    }

    /// Picks the fonts for `d` and replaces by [`MISSING`] each character of its names and
    /// caption that none of them has; returns those characters (each once, in order).
    pub fn prepare(&self, d: &mut Diagram, theme: &Theme) -> (Arc<fontdb::Database>, Vec<char>) {
        let needs_more = |s: &str| s.chars().any(|c| !bundled_has(c));
        let texts = || {
            d.sides
                .iter()
                .filter_map(|s| s.name.as_deref())
                .chain(d.caption.as_deref())
        };
        let wanted = texts().any(needs_more);
        let themed = !theme.piece_font.trim().is_empty();
        let system = self.use_system && (wanted || themed);
        if !system {
            if wanted {
                return (self.bundled.clone(), replace_missing(d, bundled_has));
            }
            return (self.bundled.clone(), Vec::new());
        }
        let db = self.system().clone();
        if !wanted {
            return (db, Vec::new());
        }
        let missing = replace_missing(d, |c| {
            bundled_has(c) || db.faces().any(|f| face_has(&db, f.id, c))
        });
        (db, missing)
    }
}

impl Default for Fonts {
    fn default() -> Fonts {
        Fonts::new()
    }
}

/// Replaces in the names and caption each character `has` says no font has.
fn replace_missing(d: &mut Diagram, has: impl Fn(char) -> bool) -> Vec<char> {
    let mut missing = Vec::new();
    let texts = d
        .sides
        .iter_mut()
        .filter_map(|s| s.name.as_mut())
        .chain(d.caption.as_mut());
    for t in texts {
        if t.chars().all(&has) {
            continue;
        }
        *t = t
            .chars()
            .map(|c| {
                if has(c) {
                    c
                } else {
                    if !missing.contains(&c) {
                        missing.push(c);
                    }
                    MISSING
                }
            })
            .collect();
    }
    missing
}

/// Does the bundled subset hold `c`? (`assets/fonts/make-subset.sh` makes it from exactly
/// these: the list of diagram glyphs, ASCII, full-width ASCII and kana.)
pub fn bundled_has(c: char) -> bool {
    const GLYPHS: &str = include_str!("../../assets/fonts/diagram-glyphs.txt");
    matches!(c, ' '..='~' | '\u{FF01}'..='\u{FF5E}' | '\u{3041}'..='\u{3096}' | '\u{309B}'..='\u{309C}' | '\u{30A1}'..='\u{30FA}' | 'ー')
        || (c != '\n' && GLYPHS.contains(c))
}

fn face_has(db: &fontdb::Database, id: fontdb::ID, c: char) -> bool {
    db.with_face_data(id, |data, index| {
        let font = skrifa::FontRef::from_index(data, index).ok()?;
        skrifa::MetadataProvider::charmap(&font).map(c)
    })
    .flatten()
    .is_some()
}

fn options(db: Arc<fontdb::Database>) -> usvg::Options<'static> {
    usvg::Options {
        fontdb: db,
        font_family: "Noto Serif CJK JP".into(),
        ..usvg::Options::default()
    }
}

/// The SVG drawn into a PNG of the size its width and height attributes say.
pub fn png(svg: &str, db: Arc<fontdb::Database>) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, &options(db)).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| format!("cannot draw {}x{} pixels", size.width(), size.height()))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap).map_err(|e| e.to_string())
}

/// The pixels as a PNG: RGB when every pixel is opaque (the usual diagram: a quarter less to
/// compress and store than tiny-skia's `encode_png`, always RGBA), else RGBA with the alpha
/// taken out of the colours. (`Compression::Fast` took half the time but made files 2.3 times
/// larger.)
fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let pixels = pixmap.pixels();
    let (colour, data): (png::ColorType, Vec<u8>) = if pixels.iter().all(|p| p.alpha() == 255) {
        let rgb = pixels.iter().flat_map(|p| [p.red(), p.green(), p.blue()]);
        (png::ColorType::Rgb, rgb.collect())
    } else {
        let rgba = pixels.iter().flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        });
        (png::ColorType::Rgba, rgba.collect())
    };
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    e.set_color(colour);
    e.set_depth(png::BitDepth::Eight);
    e.set_compression(png::Compression::Balanced);
    let mut w = e.write_header()?;
    w.write_image_data(&data)?;
    w.finish()?;
    Ok(out)
}

/// The SVG with its text turned into paths (`--outline-text`): it then needs no font at all.
pub fn outline(svg: &str, db: Arc<fontdb::Database>) -> Result<String, String> {
    let tree = usvg::Tree::from_str(svg, &options(db)).map_err(|e| e.to_string())?;
    // Two decimals of a unit (a square is 40 wide) and no indentation: 94 KB instead of 115 KB
    // for the start position with usvg's defaults (eight decimals, indented).
    let opts = usvg::WriteOptions {
        coordinates_precision: 2,
        transforms_precision: 3,
        indent: usvg::Indent::None,
        ..usvg::WriteOptions::default()
    };
    Ok(tree.to_string(&opts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_font_holds_what_bundled_has_says() {
        let db = Fonts::bundled_only().bundled;
        let id = db.faces().next().expect("the bundled face").id;
        let glyphs = include_str!("../../assets/fonts/diagram-glyphs.txt");
        for c in glyphs
            .chars()
            .filter(|&c| c != '\n')
            .chain(['A', 'ア', 'あ', '＃'])
        {
            assert!(bundled_has(c), "{c}");
            assert!(face_has(&db, id, c), "{c} is not in the bundled font");
        }
        for c in ['羽', '治', '😀'] {
            assert!(!bundled_has(c), "{c}");
            assert!(!face_has(&db, id, c), "{c}");
        }
    }
}
