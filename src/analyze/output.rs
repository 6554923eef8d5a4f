//! Where an analysed record goes, in which format and encoding, and the one function that
//! writes it.

use crate::core::notation::{self, DiagKind, Format, Loaded, Target, TextEncoding, TextInfo};
use crate::core::record::Record;
use crate::store::{self, SaveOptions};
use std::path::{Path, PathBuf};

/// Where the analysed records go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Standard output (one input).
    Stdout,
    /// This file (one input); the format from its extension.
    File(PathBuf),
    /// This directory, keeping the inputs' layout under the directories given with `-r`.
    Dir(PathBuf),
    /// Back into each input, atomically, in its format, encoding and line endings.
    InPlace,
}

/// Writes `bytes` to `path` through [`store::save`] (atomic, through links, keeping the
/// mode; read-only files refused), creating missing directories under `--out-dir` first. The
/// one place `kifview analyze` writes a file.
pub fn save(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        return Err(format!("cannot create {}: {e}", dir.display()));
    }
    store::save(path, bytes, SaveOptions::default())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Can `format` hold a comment per move?
pub fn holds_comments(format: Format) -> bool {
    matches!(
        format,
        Format::Kif | Format::Ki2 | Format::Csa | Format::Jkf
    )
}

/// Why a format cannot take the analysis.
pub fn no_comments(format: Format) -> String {
    format!(
        "{} cannot hold comments: write .kif, .kifu, .ki2, .csa or .jkf (e.g. -o game.kifu)",
        format.name()
    )
}

/// The format and text settings to write `out`, for a record read as `loaded`: the input's own
/// (encoding, BOM, line endings) when the format and the extension's encoding stay, else what
/// the extension table gives a new file (`filetype::write_settings`, as `convert` writes).
pub fn target(out: &Path, loaded: &Loaded) -> Result<(Target, TextInfo), String> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let format = Format::from_path(out).unwrap_or(loaded.format);
    if !holds_comments(format) {
        return Err(no_comments(format));
    }
    let same = format == loaded.format
        && match (ext.as_deref(), loaded.info.encoding) {
            (Some("kif" | "ki2"), e) => e != TextEncoding::Utf8 || declared_utf8(loaded),
            (Some("kifu" | "ki2u"), e) => e == TextEncoding::Utf8,
            _ => true,
        };
    // The input's own settings, as saving back to its file keeps them; for another kind of
    // file what `convert` writes for that extension.
    let own = same.then(|| (loaded.own_target(), loaded.info));
    notation::filetype::write_settings(out, own, None)
        .ok_or_else(|| format!("{}: cannot tell the format from the name", out.display()))
}

fn declared_utf8(loaded: &Loaded) -> bool {
    loaded.records.first().is_some_and(|p| {
        p.record
            .program_lines
            .iter()
            .any(|l| l.starts_with("#KIF") && l.to_ascii_uppercase().contains("UTF-8"))
    })
}

/// Why writing this file back over itself could lose something, if it could.
pub fn in_place_risk(loaded: &Loaded, text: &[u8]) -> Option<String> {
    if loaded.records.len() != 1 {
        return None; // refused earlier
    }
    if loaded.info.lossy {
        return Some("its bytes are not all valid text; writing it back would lose them".into());
    }
    // The rule the viewer's save and `convert` follow (`core::notation::unread`).
    let loses = crate::core::notation::unread::loses_text;
    let risky = |k: DiagKind| k == DiagKind::Encoding || loses(k);
    if let Some(w) = loaded.records[0].warnings.iter().find(|w| risky(w.kind)) {
        return Some(format!(
            "kifview could not read all of it ({}); writing it back would lose that",
            w.with_file("line")
        ));
    }
    if loaded.format == Format::Csa {
        // Plain `'` comments (Floodgate's rating and summary lines) are not kept by the reader.
        let plain = text
            .split(|&b| b == b'\n')
            .filter(|l| l.starts_with(b"'") && !l.starts_with(b"'*"))
            .filter(|l| !l.starts_with(b"'CSA encoding"))
            .count();
        if plain > 0 {
            return Some(format!(
                "it has {plain} CSA comment line(s) without '* (e.g. Floodgate's summary) that kifview does not keep"
            ));
        }
    }
    None
}

/// Is `out` (an output of an earlier run: `--out-dir`, `-o`) the analysis of `record` with
/// `marker` already: it bears the marker and holds the same main line? A rerun then skips it.
pub fn analysed_copy(out: &Path, record: &Record, marker: &str) -> bool {
    let Ok(bytes) = std::fs::read(out) else {
        return false;
    };
    let loaded = notation::load(&bytes, Some(out));
    let [parsed] = loaded.records.as_slice() else {
        return false;
    };
    let moves = |r: &Record| -> Vec<String> {
        r.main_line()
            .into_iter()
            .filter_map(|n| r.node(n).move_data().map(|m| m.mv.usi()))
            .collect()
    };
    super::game::recorded_marker(&parsed.record) == Some(marker)
        && moves(&parsed.record) == moves(record)
}

/// A record rendered: its text, and the bytes that encode it for the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    pub text: String,
    pub bytes: Vec<u8>,
}

/// Renders and encodes the record (the text kept, for a terminal that shows it).
pub fn render(record: &Record, target: Target, info: &TextInfo) -> Result<Rendered, String> {
    let w = notation::render(record, target, info);
    let bytes = notation::encoding::encode(&w.text, info).map_err(|e| e.to_string())?;
    Ok(Rendered {
        text: w.text,
        bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(text: &str, name: &str) -> Loaded {
        notation::load(text.as_bytes(), Some(Path::new(name)))
    }

    #[test]
    fn a_csa_v3_input_is_written_as_v3() {
        let l = loaded("V3.0\nPI\n+\n+7776FU\nT1.5\n", "a.csa");
        assert!(target(Path::new("out/a.csa"), &l).unwrap().0.csa_v3);
        let l = loaded("V2.2\nPI\n+\n+7776FU\nT1\n", "a.csa");
        assert!(!target(Path::new("out/a.csa"), &l).unwrap().0.csa_v3);
    }

    #[test]
    fn same_format_keeps_the_inputs_text_settings() {
        let l = loaded("手合割：平手\r\n   1 ７六歩(77)\r\n", "a.kifu");
        let (t, i) = target(Path::new("out/a.kifu"), &l).unwrap();
        assert_eq!(t.format, Format::Kif);
        assert_eq!(i.encoding, TextEncoding::Utf8);
        assert_eq!(i.newline, l.info.newline);
        let (_, i) = target(Path::new("b.kif"), &l).unwrap();
        assert_eq!(i.encoding, TextEncoding::ShiftJis, "a .kif is Shift_JIS");
        let (t, i) = target(Path::new("b.csa"), &l).unwrap();
        assert_eq!((t.format, i.encoding), (Format::Csa, TextEncoding::Utf8));
    }

    #[test]
    fn formats_without_comments_are_refused() {
        let l = loaded("手合割：平手\n   1 ７六歩(77)\n", "a.kifu");
        for name in ["a.usi", "a.sfen", "a.bod"] {
            let e = target(Path::new(name), &l).unwrap_err();
            assert!(e.contains("cannot hold comments"), "{e}");
        }
        let usi = loaded("position startpos moves 7g7f\n", "g.usi");
        assert!(target(Path::new("g.usi"), &usi).is_err());
    }

    #[test]
    fn in_place_refuses_what_would_be_lost() {
        let text = "V2.2\nPI\n+\n'summary:toryo:a win:b lose\n+7776FU\n";
        let l = loaded(text, "f.csa");
        assert!(
            in_place_risk(&l, text.as_bytes())
                .unwrap()
                .contains("summary")
        );
        let ok = "V2.2\nPI\n+\n+7776FU\n'*fine\n";
        assert_eq!(in_place_risk(&loaded(ok, "f.csa"), ok.as_bytes()), None);
        let bad = "手合割：平手\n   1 ７六歩(77)\nこれは何\n";
        assert!(in_place_risk(&loaded(bad, "f.kifu"), bad.as_bytes()).is_some());
    }
}
