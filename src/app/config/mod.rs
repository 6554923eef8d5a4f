//! Settings: key bindings per mode, colours, ambiguous-width handling, save encoding, board
//! style. The defaults are `config.example.toml`, read by the same code as the user's
//! file; the user's file is merged over them key by key.

mod apply;
mod checks;
mod diagram;

use super::dispatch::command::Command;
use super::dispatch::input::KeyEvent;
use crate::core::notation::TextEncoding;
use crate::engine::EngineSpec;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The largest config file read: a config is a few kilobytes, and a larger file (or a device
/// that never ends) is refused before it fills memory.
pub const CONFIG_LIMIT: u64 = 1 << 20;

/// The embedded defaults.
pub const DEFAULT_CONFIG: &str = include_str!("../../../config.example.toml");

/// A config problem: `FILE:LINE: message`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConfigError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for ConfigError {}

/// The key-binding modes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum KeyMode {
    /// Browsing the record.
    Normal,
    /// The variation tree is open.
    Tree,
    /// The help or warning list is open.
    Help,
    /// Typing on the `:` command line, a prompt, or answering a question.
    Command,
    /// Entering a move with the board cursor.
    Board,
    /// Editing a comment.
    Editor,
    /// A list to pick from (bookmarks, endings, header fields).
    List,
    /// The copy menu (`y`) is open.
    Copy,
    /// The paste prompt (`p`, `:paste`) is open.
    Paste,
    /// The explorer pane has the focus (`X`).
    Explorer,
    /// The library's game list (`kifview DIR`, `O`).
    Library,
    /// The book pane has the focus (`Ctrl-t`).
    Book,
    /// The solve mode (`kifview train`).
    Train,
}

impl KeyMode {
    pub const ALL: [KeyMode; 13] = [
        KeyMode::Normal,
        KeyMode::Tree,
        KeyMode::Help,
        KeyMode::Command,
        KeyMode::Board,
        KeyMode::Editor,
        KeyMode::List,
        KeyMode::Copy,
        KeyMode::Paste,
        KeyMode::Explorer,
        KeyMode::Library,
        KeyMode::Book,
        KeyMode::Train,
    ];
    pub fn name(self) -> &'static str {
        match self {
            KeyMode::Normal => "normal",
            KeyMode::Tree => "tree",
            KeyMode::Help => "help",
            KeyMode::Command => "command",
            KeyMode::Board => "board",
            KeyMode::Editor => "editor",
            KeyMode::List => "list",
            KeyMode::Copy => "copy",
            KeyMode::Paste => "paste",
            KeyMode::Explorer => "explorer",
            KeyMode::Library => "library",
            KeyMode::Book => "book",
            KeyMode::Train => "train",
        }
    }
    fn from_name(s: &str) -> Option<KeyMode> {
        KeyMode::ALL.iter().copied().find(|m| m.name() == s)
    }
}

/// Key bindings of every mode.
#[derive(Clone, Debug, Default)]
pub struct Keymap {
    maps: HashMap<KeyMode, HashMap<KeyEvent, Command>>,
}

impl Keymap {
    pub fn get(&self, mode: KeyMode, key: &KeyEvent) -> Option<Command> {
        self.maps.get(&mode)?.get(key).copied()
    }
    pub fn bind(&mut self, mode: KeyMode, key: KeyEvent, cmd: Command) {
        let m = self.maps.entry(mode).or_default();
        if cmd == Command::NoOp {
            m.remove(&key);
        } else {
            m.insert(key, cmd);
        }
    }
    /// The shortest key bound to `cmd` in `mode` (for hints drawn every frame: no list of
    /// every binding is built).
    pub fn first_key(&self, mode: KeyMode, cmd: Command) -> Option<KeyEvent> {
        self.maps
            .get(&mode)?
            .iter()
            .filter(|(_, c)| **c == cmd)
            .map(|(k, _)| *k)
            .min_by_key(|k| (k.to_string().chars().count(), *k))
    }
    /// The keys bound to each command of `mode`, in command-table order (for help screens).
    pub fn bindings(&self, mode: KeyMode) -> Vec<(Command, Vec<KeyEvent>)> {
        let Some(m) = self.maps.get(&mode) else {
            return Vec::new();
        };
        super::dispatch::command::COMMANDS
            .iter()
            .filter_map(|info| {
                let c = info.command;
                let mut keys: Vec<KeyEvent> = m
                    .iter()
                    .filter(|(_, v)| **v == c)
                    .map(|(k, _)| *k)
                    .collect();
                keys.sort_by_key(|k| (k.to_string().chars().count() > 1, *k));
                (!keys.is_empty()).then_some((c, keys))
            })
            .collect()
    }
}

impl Keymap {
    /// The key table as Markdown (for the README), from the command table and this keymap.
    pub fn markdown_table(&self) -> String {
        let mut out =
            String::from("| mode | keys | command | what it does |\n| --- | --- | --- | --- |\n");
        for mode in KeyMode::ALL {
            for (cmd, keys) in self.bindings(mode) {
                let keys: Vec<String> = keys
                    .iter()
                    .map(|k| format!("`{}`", k.to_string().replace('|', "\\|")))
                    .collect();
                out.push_str(&format!(
                    "| {} | {} | `{}` | {} |\n",
                    mode.name(),
                    keys.join(" "),
                    cmd.name(),
                    cmd.doc()
                ));
            }
        }
        out
    }
}

/// A colour as written in the config (converted to terminal colours by the front end).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ColorSpec {
    /// The terminal's default colour.
    Reset,
    /// Swap foreground and background instead of colouring.
    Reversed,
    /// One of the 16 named colours (0 black .. 15 white, ANSI order).
    Named(u8),
    Indexed(u8),
    Rgb(u8, u8, u8),
}

const COLOR_NAMES: [(&str, u8); 17] = [
    ("black", 0),
    ("red", 1),
    ("green", 2),
    ("yellow", 3),
    ("blue", 4),
    ("magenta", 5),
    ("cyan", 6),
    ("gray", 7),
    ("grey", 7),
    ("darkgray", 8),
    ("lightred", 9),
    ("lightgreen", 10),
    ("lightyellow", 11),
    ("lightblue", 12),
    ("lightmagenta", 13),
    ("lightcyan", 14),
    ("white", 15),
];

impl ColorSpec {
    pub fn parse(s: &str) -> Result<ColorSpec, String> {
        let l = s.trim().to_ascii_lowercase().replace(['_', '-', ' '], "");
        if l == "reset" || l == "default" {
            return Ok(ColorSpec::Reset);
        }
        if l == "reversed" || l == "reverse" {
            return Ok(ColorSpec::Reversed);
        }
        if let Some((_, n)) = COLOR_NAMES.iter().find(|(n, _)| *n == l) {
            return Ok(ColorSpec::Named(*n));
        }
        if let Some(hex) = l.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii()) {
            let p = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16);
            if let (Ok(r), Ok(g), Ok(b)) = (p(0), p(2), p(4)) {
                return Ok(ColorSpec::Rgb(r, g, b));
            }
        }
        if let Ok(n) = l.parse::<u8>() {
            return Ok(ColorSpec::Indexed(n));
        }
        Err(format!(
            "unknown colour `{s}` (expected a colour name, \"#rrggbb\", 0-255, \"reset\" or \"reversed\")"
        ))
    }
}

/// The theme colours.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Colors {
    pub black_piece: ColorSpec,
    pub white_piece: ColorSpec,
    pub last_move: ColorSpec,
    pub check: ColorSpec,
    pub selection: ColorSpec,
    pub border: ColorSpec,
    pub focus_border: ColorSpec,
    pub dim: ColorSpec,
    pub variation_mark: ColorSpec,
    pub warning: ColorSpec,
    pub error: ColorSpec,
    /// The engine's best move on the board (research mode).
    pub best_move: ColorSpec,
}

/// How wide East Asian Ambiguous characters (▲ △, box drawing) are in the terminal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AmbiguousWidth {
    Auto,
    Single,
    Double,
}

/// Encoding for saving records.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SaveEncoding {
    /// Keep the file's encoding (new records: by extension).
    Auto,
    Fixed(TextEncoding),
}

/// How pieces are drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardStyle {
    /// Gote's pieces carry a `v`, as in KIF diagrams.
    Bod,
    /// No `v`: colour only.
    Plain,
}

/// How the move list writes moves (`[move_list] notation`; `v` switches).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveNotation {
    /// `▲７六歩(77)`: the source square in brackets, as in KIF files.
    Kif,
    /// `▲７六歩`, `△同　銀右`: no source square, the JSA suffixes when two pieces could go.
    Ki2,
}

/// How big the board is drawn (`board.size`; `z` cycles it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardSize {
    /// The large board when the terminal has room for it, else the BOD board.
    Auto,
    /// Always the BOD diagram (three cells by one row per square).
    Bod,
    /// A grid with box-drawing lines and hands beside it, as large as fits (the BOD board
    /// when even the smallest grid does not).
    Large,
}

impl BoardSize {
    pub fn name(self) -> &'static str {
        match self {
            BoardSize::Auto => "auto",
            BoardSize::Bod => "bod",
            BoardSize::Large => "large",
        }
    }
    /// auto, bod, large, auto, ...
    pub fn next(self) -> BoardSize {
        match self {
            BoardSize::Auto => BoardSize::Bod,
            BoardSize::Bod => BoardSize::Large,
            BoardSize::Large => BoardSize::Auto,
        }
    }
}

/// All settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub keymap: Keymap,
    pub colors: Colors,
    pub ambiguous_width: AmbiguousWidth,
    pub save_encoding: SaveEncoding,
    /// `recovery_interval`: the least seconds between two writes of a document's recovery
    /// file while kifview runs (0: only when it is ended by a signal).
    pub recovery_interval: u64,
    pub board_style: BoardStyle,
    pub coordinates: bool,
    /// `[move_list] notation`.
    pub move_notation: MoveNotation,
    /// `board.size`: the BOD board, the large one, or whichever fits.
    pub board_size: BoardSize,
    /// `[[engines]]`: the engines `:engine` offers, the first one the default.
    pub engines: Vec<EngineSpec>,
    /// `[analysis]`: how research mode runs.
    pub analysis: AnalysisConfig,
    /// `[diagram]`: how pictures of positions look (`y` `d`, `kifview diagram`).
    pub diagram: crate::diagram::Theme,
    /// `[books] files`: the opening books the book pane opens at start (`~/` expanded).
    pub books: Vec<PathBuf>,
    /// `[collection] me`: who "me" is in the collection (names and accounts, matched as the
    /// filters match names): the `me` filter, results from my side, the explorer "as me".
    pub me: Vec<String>,
    /// Where the user's file came from, if one was read.
    pub source: Option<PathBuf>,
}

/// `[analysis]`: research mode's settings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct AnalysisConfig {
    /// Lines shown (the engine's `MultiPV`) unless the engine's own options set `MultiPV`.
    pub multipv: u32,
    /// Highlight the best move's squares on the board while analysing.
    pub best_move: bool,
    /// `:analyze`: the time per position, in milliseconds.
    pub analyze_time_ms: u64,
    /// `:mate`: how long the mate search may take, in milliseconds.
    pub mate_time_ms: u64,
    /// The solve mode's tsume (`kifview train`): how long the mate engine looks for a mate
    /// after each defence of a check the record does not play, in milliseconds.
    pub tsume_mate_time_ms: u64,
}

/// `"KEY" = "command"` of one mode, with positions for error messages.
type RawKeys = BTreeMap<Spanned<String>, Spanned<String>>;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    ambiguous_width: Option<Spanned<String>>,
    save_encoding: Option<Spanned<String>>,
    recovery_interval: Option<Spanned<i64>>,
    board: Option<RawBoard>,
    colors: Option<RawColors>,
    keys: Option<BTreeMap<Spanned<String>, RawKeys>>,
    engines: Option<Spanned<Vec<EngineSpec>>>,
    analysis: Option<RawAnalysis>,
    move_list: Option<RawMoveList>,
    diagram: Option<diagram::RawDiagram>,
    books: Option<RawBooks>,
    collection: Option<RawCollection>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawBooks {
    files: Option<Vec<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawCollection {
    me: Option<Vec<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawMoveList {
    notation: Option<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawAnalysis {
    multipv: Option<Spanned<i64>>,
    best_move: Option<bool>,
    analyze_time_ms: Option<Spanned<i64>>,
    mate_time_ms: Option<Spanned<i64>>,
    tsume_mate_time_ms: Option<Spanned<i64>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    style: Option<Spanned<String>>,
    coordinates: Option<bool>,
    size: Option<Spanned<String>>,
}

macro_rules! raw_colors {
    ($($f:ident),*) => {
        #[derive(Deserialize, Default)]
        #[serde(deny_unknown_fields)]
        struct RawColors { $($f: Option<Spanned<String>>,)* }
        fn apply_colors(file: &str, text: &str, c: &mut Colors, raw: RawColors) -> Result<(), ConfigError> {
            $(if let Some(v) = raw.$f {
                c.$f = ColorSpec::parse(v.get_ref()).map_err(|m| err_at(file, text, v.span(), format!("colors.{}: {m}", stringify!($f))))?;
            })*
            Ok(())
        }
        #[cfg(test)]
        fn colors_complete(raw: &RawColors) -> bool { true $(&& raw.$f.is_some())* }
    };
}
raw_colors!(
    black_piece,
    white_piece,
    last_move,
    check,
    selection,
    border,
    focus_border,
    dim,
    variation_mark,
    warning,
    error,
    best_move
);

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset.min(text.len()))
        .map(|t| t.bytes().filter(|&b| b == b'\n').count() + 1)
        .unwrap_or(0)
}

fn err_at(
    file: &str,
    text: &str,
    span: std::ops::Range<usize>,
    message: impl Into<String>,
) -> ConfigError {
    ConfigError {
        file: file.to_string(),
        line: line_of(text, span.start),
        message: message.into(),
    }
}

/// The value of `choices` named by a string option (`name` for the error).
fn choice<T: Copy>(
    file: &str,
    text: &str,
    v: &Spanned<String>,
    name: &str,
    choices: &[(&str, T)],
) -> Result<T, ConfigError> {
    let s = v.get_ref().as_str();
    match choices.iter().find(|(n, _)| *n == s) {
        Some(&(_, value)) => Ok(value),
        None => {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            let expected = match names.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => String::new(),
            };
            Err(err_at(
                file,
                text,
                v.span(),
                format!("{name}: unknown value `{s}` (expected {expected})"),
            ))
        }
    }
}

impl Config {
    /// Settings before any file is read (every field is then set by the embedded defaults).
    fn bare() -> Config {
        let c = ColorSpec::Reset;
        Config {
            keymap: Keymap::default(),
            colors: Colors {
                black_piece: c,
                white_piece: c,
                last_move: c,
                check: c,
                selection: ColorSpec::Reversed,
                border: c,
                focus_border: c,
                dim: c,
                variation_mark: c,
                warning: c,
                error: c,
                best_move: c,
            },
            ambiguous_width: AmbiguousWidth::Auto,
            save_encoding: SaveEncoding::Auto,
            recovery_interval: 5,
            board_style: BoardStyle::Bod,
            coordinates: true,
            move_notation: MoveNotation::Kif,
            board_size: BoardSize::Auto,
            engines: Vec::new(),
            analysis: AnalysisConfig {
                multipv: 3,
                best_move: true,
                analyze_time_ms: 1000,
                mate_time_ms: 10_000,
                tsume_mate_time_ms: 3000,
            },
            diagram: crate::diagram::Theme::default(),
            books: Vec::new(),
            me: Vec::new(),
            source: None,
        }
    }

    /// The built-in defaults.
    pub fn defaults() -> Config {
        let mut c = Config::bare();
        c.merge_toml("config.example.toml", DEFAULT_CONFIG)
            .expect("the embedded default config is valid");
        c
    }

    /// Defaults with `text` (a user's config file named `file`) merged over them.
    pub fn from_toml(file: &str, text: &str) -> Result<Config, ConfigError> {
        let mut c = Config::defaults();
        c.merge_toml(file, text)?;
        Ok(c)
    }

    /// Reads the config (at most [`CONFIG_LIMIT`] bytes): `explicit` (`--config`), else
    /// `$KIFVIEW_CONFIG`, else
    /// `config.toml` in the platform config directory; a missing default-location file is
    /// not an error (a missing explicit one is).
    pub fn load(explicit: Option<&Path>) -> Result<Config, ConfigError> {
        let env = std::env::var_os("KIFVIEW_CONFIG").filter(|v| !v.is_empty());
        let (path, required) = match (explicit, env) {
            (Some(p), _) => (Some(p.to_path_buf()), true),
            (None, Some(e)) => (Some(PathBuf::from(e)), true),
            (None, None) => (
                directories::ProjectDirs::from("", "", "kifview")
                    .map(|d| d.config_dir().join("config.toml")),
                false,
            ),
        };
        let Some(path) = path else {
            return Ok(Config::defaults());
        };
        let name = path.display().to_string();
        match crate::load::read_text_limited(&path, CONFIG_LIMIT) {
            Ok(text) => {
                let mut c = Config::from_toml(&name, &text)?;
                c.source = Some(path);
                Ok(c)
            }
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => {
                Ok(Config::defaults())
            }
            Err(e) => Err(ConfigError {
                file: name,
                line: 0,
                message: format!("cannot read the config file: {e}"),
            }),
        }
    }

    fn merge_toml(&mut self, file: &str, text: &str) -> Result<(), ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| ConfigError {
            file: file.to_string(),
            line: e.span().map(|s| line_of(text, s.start)).unwrap_or(0),
            message: e.message().trim().to_string(),
        })?;
        let engines = raw.engines.is_some();
        self.apply(file, text, raw)?;
        if engines {
            self.note_option_lines(file, text);
        }
        Ok(())
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::defaults()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::dispatch::input::KeyCode;

    #[test]
    fn defaults_set_every_option() {
        let raw: RawConfig = toml::from_str(DEFAULT_CONFIG).unwrap();
        assert!(raw.ambiguous_width.is_some() && raw.save_encoding.is_some());
        let b = raw.board.as_ref().unwrap();
        assert!(b.style.is_some() && b.coordinates.is_some() && b.size.is_some());
        assert!(colors_complete(raw.colors.as_ref().unwrap()));
        let c = Config::defaults();
        assert_eq!(
            c.keymap.get(KeyMode::Normal, &KeyEvent::char('l')),
            Some(Command::NextMove)
        );
        assert_eq!(
            c.keymap
                .get(KeyMode::Normal, &KeyEvent::plain(KeyCode::PageDown)),
            Some(Command::Forward10)
        );
        assert_eq!(c.colors.white_piece, ColorSpec::Named(1));
    }

    /// A config file is a few kilobytes: one of megabytes (or a device that never ends,
    /// `--config /dev/zero`) is refused, with its name and the limit, before it fills memory.
    #[test]
    fn a_config_file_over_a_mebibyte_is_refused_with_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.toml");
        std::fs::write(&path, "# a comment line\n".repeat(80_000)).unwrap();
        let e = Config::load(Some(&path)).unwrap_err();
        assert!(
            e.file.ends_with("big.toml") && e.message.contains("larger than 1048576 bytes"),
            "{e:?}"
        );
        let e = Config::load(Some(Path::new("/dev/zero"))).unwrap_err();
        assert!(e.message.contains("larger than"), "{e:?}");
    }

    #[test]
    fn markdown_key_table_lists_every_bound_command() {
        let t = Config::defaults().keymap.markdown_table();
        assert!(
            t.contains("| normal | `l` `Right` | `next_move` | Next move along the current line |"),
            "{t}"
        );
        assert!(t.contains("`toggle_tree`"));
        assert!(t.contains("| tree |"));
    }

    #[test]
    fn user_file_merges_key_by_key() {
        let c = Config::from_toml(
            "u.toml",
            "[keys.normal]\n\"n\" = \"next_move\"\n\"l\" = \"none\"\n[colors]\nwhite_piece = \"#00ff80\"\n",
        )
        .unwrap();
        let n = KeyMode::Normal;
        assert_eq!(
            c.keymap.get(n, &KeyEvent::char('n')),
            Some(Command::NextMove)
        );
        assert_eq!(c.keymap.get(n, &KeyEvent::char('l')), None);
        assert_eq!(
            c.keymap.get(n, &KeyEvent::char('h')),
            Some(Command::PrevMove)
        );
        assert_eq!(c.colors.white_piece, ColorSpec::Rgb(0, 255, 128));
    }

    #[test]
    fn errors_name_the_bad_string_and_line() {
        let e =
            Config::from_toml("u.toml", "\n[keys.normal]\n\"x\" = \"jump_around\"\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("jump_around"), "{e}");
        assert!(e.to_string().starts_with("u.toml:3: "), "{e}");

        let e = Config::from_toml("u.toml", "[keys.normal]\n\"ctrl-pagedwn\" = \"quit\"\n")
            .unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("ctrl-pagedwn"), "{e}");

        let e = Config::from_toml("u.toml", "[keys.insert]\n\"x\" = \"quit\"\n").unwrap_err();
        // A keymap with no way out is refused: every quit key and `:` unbound.
        let none = "[keys.normal]\n\"q\" = \"none\"\n\"ctrl-c\" = \"none\"\n\":\" = \"none\"\n";
        let stuck = Config::from_toml("u.toml", none).unwrap_err();
        assert!(
            stuck.to_string().contains("no key quits kifview"),
            "{stuck}"
        );
        let still = "[keys.normal]\n\"q\" = \"none\"\n\"ctrl-c\" = \"none\"\n";
        assert!(
            Config::from_toml("u.toml", still).is_ok(),
            ": and :q remain"
        );
        // Every mode that can be entered needs a way out too: the help with none is refused,
        // with one key left it is fine.
        let help = "[keys.help]\n\"?\" = \"none\"\n\"Esc\" = \"none\"\n\"q\" = \"none\"\n\"ctrl-c\" = \"none\"\n";
        let h = Config::from_toml("u.toml", help).unwrap_err();
        assert!(
            h.to_string()
                .contains("keys.help: no key leaves help mode once in it (bind one to `close`)"),
            "{h}"
        );
        let one_left = help.replace("\"q\" = \"none\"", "\"q\" = \"close\"");
        assert!(Config::from_toml("u.toml", &one_left).is_ok());
        for (mode, keys) in [
            ("list", &["Esc", "q", "ctrl-c"][..]),
            ("command", &["Enter", "Esc", "ctrl-c"][..]),
            ("editor", &["Esc", "ctrl-c"][..]),
            ("board", &["Esc", "q", "ctrl-c"][..]),
            ("paste", &["ctrl-d", "alt-Enter", "Esc", "ctrl-c"][..]),
            ("tree", &["t", "Esc", "q", "ctrl-c"][..]),
            ("copy", &["Esc", "q", "y", "ctrl-c"][..]),
        ] {
            let unbound: String = keys
                .iter()
                .map(|k| format!("\"{k}\" = \"none\"\n"))
                .collect();
            let Err(e) = Config::from_toml("u.toml", &format!("[keys.{mode}]\n{unbound}")) else {
                panic!("keys.{mode} without a way out was taken");
            };
            assert!(
                e.to_string()
                    .contains(&format!("keys.{mode}: no key leaves")),
                "{e}"
            );
        }
        assert_eq!(e.line, 1);
        assert!(e.message.contains("insert"), "{e}");

        let e = Config::from_toml("u.toml", "\n\nambigous_width = \"double\"\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("ambigous_width"), "{e}");

        let e = Config::from_toml("u.toml", "ambiguous_width = \"wide\"\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("wide"), "{e}");

        let e = Config::from_toml("u.toml", "[colors]\n\ncheck = \"purpleish\"\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("purpleish"), "{e}");

        let e = Config::from_toml("u.toml", "[board]\nstyle = 3\n").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn move_list_notation() {
        assert_eq!(Config::defaults().move_notation, MoveNotation::Kif);
        let c = Config::from_toml("u.toml", "[move_list]\nnotation = \"ki2\"\n").unwrap();
        assert_eq!(c.move_notation, MoveNotation::Ki2);
        let e = Config::from_toml("u.toml", "[move_list]\n\nnotation = \"csa\"\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.message
                .contains("move_list.notation: unknown value `csa`"),
            "{e}"
        );
    }

    #[test]
    fn engines_and_analysis_settings() {
        let d = Config::defaults();
        assert!(d.engines.is_empty(), "none configured: discovery decides");
        assert_eq!(
            d.analysis,
            AnalysisConfig {
                multipv: 3,
                best_move: true,
                analyze_time_ms: 1000,
                mate_time_ms: 10_000,
                tsume_mate_time_ms: 3000,
            }
        );
        let c = Config::from_toml(
            "u.toml",
            "[analysis]\nmultipv = 5\nbest_move = false\nanalyze_time_ms = 250\ntsume_mate_time_ms = 20000\n\n[[engines]]\nname = \"Yane\"\ncommand = \"/opt/yane/YaneuraOu\"\noptions = { Threads = 4, MultiPV = 2 }\n\n[[engines]]\ncommand = \"fairy-stockfish\"\n",
        )
        .unwrap();
        assert_eq!(
            c.analysis,
            AnalysisConfig {
                multipv: 5,
                best_move: false,
                analyze_time_ms: 250,
                mate_time_ms: 10_000,
                tsume_mate_time_ms: 20_000,
            }
        );
        let e = Config::from_toml("u.toml", "[analysis]\nmate_time_ms = 0\n").unwrap_err();
        assert!(e.message.contains("mate_time_ms: 0 is out of range"), "{e}");
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].display_name(), "Yane");
        assert_eq!(c.engines[0].options["Threads"].to_string(), "4");
        assert_eq!(c.engines[0].option_origins["MultiPV"], "u.toml:10");
        assert_eq!(c.engines[1].display_name(), "fairy-stockfish");
        let e = Config::from_toml("u.toml", "\n[[engines]]\nname = \"x\"\ncomand = \"y\"\n")
            .unwrap_err();
        assert!(e.message.contains("comand"), "{e}");
        assert!(e.line >= 2, "{e}");
        let e = Config::from_toml("u.toml", "[[engines]]\ncommand = \"\"\n").unwrap_err();
        assert!(e.message.contains("empty command"), "{e}");
        let e = Config::from_toml("u.toml", "[analysis]\nmultipv = 0\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("multipv"), "{e}");
    }
}
