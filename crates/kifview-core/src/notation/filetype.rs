//! The one table of file name extensions: which format, encoding and line endings a file of
//! each extension gets, and when a KIF file must declare its encoding.
//!
//! Every rule that used to be spread over the app's save, the CLI and the loader is read from
//! [`FILE_TYPES`]: [`for_path`] / [`by_ext`] look an extension up, [`write_settings`] is what
//! saving to a path uses, [`read_encoding`] what reading a file of that name assumes when its
//! bytes do not say.

use super::{Format, Newline, Target, TextEncoding, TextInfo};
use std::path::Path;

/// What an extension means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FileType {
    /// Lowercase, without the dot.
    pub ext: &'static str,
    pub format: Format,
    /// The encoding files of this extension are written in, and read in when their bytes do
    /// not say (`.kif`/`.ki2` Shift_JIS as Kakinoki's programs write them, the rest UTF-8).
    pub encoding: TextEncoding,
    /// Line endings of a new file (an existing file keeps its own).
    pub newline: Newline,
    /// Picked up when converting a directory (`convert -r`); `.json` is not, since most JSON
    /// files are not records.
    pub in_batches: bool,
    /// Offered as an output format (`convert --to EXT`).
    pub writable: bool,
}

const fn t(
    ext: &'static str,
    format: Format,
    encoding: TextEncoding,
    newline: Newline,
    in_batches: bool,
) -> FileType {
    FileType {
        ext,
        format,
        encoding,
        newline,
        in_batches,
        writable: true,
    }
}

use Format as F;
use Newline::{CrLf, Lf};
use TextEncoding::{ShiftJis, Utf8};

/// Every extension kifview knows.
pub const FILE_TYPES: [FileType; 10] = [
    t("kif", F::Kif, ShiftJis, CrLf, true),
    t("kifu", F::Kif, Utf8, Lf, true),
    t("ki2", F::Ki2, ShiftJis, CrLf, true),
    t("ki2u", F::Ki2, Utf8, Lf, true),
    t("csa", F::Csa, Utf8, Lf, true),
    t("jkf", F::Jkf, Utf8, Lf, true),
    FileType {
        writable: false,
        ..t("json", F::Jkf, Utf8, Lf, false)
    },
    t("usi", F::Usi, Utf8, Lf, true),
    t("sfen", F::Sfen, Utf8, Lf, true),
    t("bod", F::Bod, Utf8, Lf, false),
];

/// The entry for an extension (any case, without the dot).
pub fn by_ext(ext: &str) -> Option<&'static FileType> {
    FILE_TYPES.iter().find(|t| t.ext.eq_ignore_ascii_case(ext))
}

/// The entry for a file name's extension.
pub fn for_path(path: &Path) -> Option<&'static FileType> {
    by_ext(path.extension()?.to_str()?)
}

/// The encoding a file of this name is read in when its bytes do not say.
pub fn read_encoding(path: Option<&Path>) -> TextEncoding {
    path.and_then(for_path).map_or(Utf8, |t| t.encoding)
}

impl FileType {
    /// Does a file of this type written in `encoding` need a `#KIF version=2.0 encoding=…`
    /// line? Only when the extension promises Shift_JIS (`.kif`) and the bytes are not: other
    /// programs would read it wrongly. (`.ki2` has no such line.)
    pub fn declares_encoding(&self, encoding: TextEncoding) -> bool {
        self.format == Format::Kif && self.encoding == ShiftJis && encoding != ShiftJis
    }

    /// The writer settings for this type in `encoding` (CSA V2.2 unless `csa_v3`).
    pub fn target(&self, encoding: TextEncoding, csa_v3: bool) -> Target {
        Target {
            format: self.format,
            csa_v3,
            declare_encoding: self.declares_encoding(encoding),
            kif_dialect: super::kif::KifDialect::default(),
        }
    }
}

/// The format and text settings for writing to `path` (replaces the app's
/// `save::target_for`).
///
/// Saving back to the file a record came from keeps its format (and CSA version), encoding, BOM
/// and line endings (`same_file`). Otherwise the extension decides everything ([`FILE_TYPES`]); `encoding`
/// overrides the extension's encoding for KIF and KI2 (the user's `save_encoding` setting).
/// `None` when the extension names no format.
pub fn write_settings(
    path: &Path,
    same_file: Option<(Target, TextInfo)>,
    encoding: Option<TextEncoding>,
) -> Option<(Target, TextInfo)> {
    if let Some((target, info)) = same_file {
        let info = TextInfo {
            lossy: false,
            ..info
        };
        return Some((target, info));
    }
    let ty = for_path(path)?;
    let encoding = match encoding {
        Some(e) if matches!(ty.format, Format::Kif | Format::Ki2) => e,
        _ => ty.encoding,
    };
    Some((
        ty.target(encoding, false),
        TextInfo {
            encoding,
            bom: false,
            newline: ty.newline,
            lossy: false,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_decides_format_encoding_and_line_endings() {
        let (t, i) = write_settings(Path::new("a.kif"), None, None).unwrap();
        assert_eq!(
            (t.format, i.encoding, i.newline, t.declare_encoding),
            (Format::Kif, ShiftJis, CrLf, false)
        );
        let (t, i) = write_settings(Path::new("a.KIFU"), None, None).unwrap();
        assert_eq!(
            (t.format, i.encoding, i.newline, t.declare_encoding),
            (Format::Kif, Utf8, Lf, false)
        );
        let (t, i) = write_settings(Path::new("a.ki2"), None, None).unwrap();
        assert_eq!(
            (t.format, i.encoding, i.newline),
            (Format::Ki2, ShiftJis, CrLf)
        );
        let (t, i) = write_settings(Path::new("a.ki2u"), None, None).unwrap();
        assert_eq!((t.format, i.encoding), (Format::Ki2, Utf8));
        for (name, f) in [
            ("a.csa", Format::Csa),
            ("a.jkf", Format::Jkf),
            ("a.json", Format::Jkf),
            ("a.usi", Format::Usi),
            ("a.sfen", Format::Sfen),
            ("a.bod", Format::Bod),
        ] {
            let (t, i) = write_settings(Path::new(name), None, None).unwrap();
            assert_eq!((t.format, i.encoding, i.newline), (f, Utf8, Lf), "{name}");
        }
        assert!(write_settings(Path::new("a.txt"), None, None).is_none());
        assert!(write_settings(Path::new("kif"), None, None).is_none());
    }

    #[test]
    fn a_utf8_kif_declares_its_encoding_and_nothing_else_does() {
        let (t, i) = write_settings(Path::new("a.kif"), None, Some(Utf8)).unwrap();
        assert_eq!((i.encoding, t.declare_encoding), (Utf8, true));
        let (t, _) = write_settings(Path::new("a.ki2"), None, Some(Utf8)).unwrap();
        assert!(!t.declare_encoding);
        // The override is for KIF and KI2 only: CSA stays UTF-8.
        let (t, i) = write_settings(Path::new("a.csa"), None, Some(ShiftJis)).unwrap();
        assert_eq!((i.encoding, t.declare_encoding), (Utf8, false));
    }

    #[test]
    fn the_same_file_keeps_its_own_settings() {
        let same = TextInfo {
            encoding: Utf8,
            bom: true,
            newline: CrLf,
            lossy: true,
        };
        let (t, i) = write_settings(
            Path::new("a.kif"),
            Some((Target::new(Format::Kif), same)),
            None,
        )
        .unwrap();
        assert_eq!(t.format, Format::Kif);
        assert_eq!(
            (i.encoding, i.bom, i.newline, i.lossy),
            (Utf8, true, CrLf, false)
        );
    }

    #[test]
    fn reading_assumes_the_extensions_encoding() {
        assert_eq!(read_encoding(Some(Path::new("x/a.KIF"))), ShiftJis);
        assert_eq!(read_encoding(Some(Path::new("a.ki2"))), ShiftJis);
        assert_eq!(read_encoding(Some(Path::new("a.kifu"))), Utf8);
        assert_eq!(read_encoding(None), Utf8);
        // The loader's rules agree with the table.
        for ty in FILE_TYPES {
            let p = format!("a.{}", ty.ext);
            assert_eq!(Format::from_path(Path::new(&p)), Some(ty.format), "{p}");
            assert_eq!(
                super::super::default_encoding_for(Some(Path::new(&p))),
                ty.encoding,
                "{p}"
            );
        }
    }
}
