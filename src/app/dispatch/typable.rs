//! The `:` commands, as a table like helix's `TYPABLE_COMMAND_LIST`: name, aliases,
//! argument, one-line doc and handler. Running a line, Tab completion, the help's command
//! list and the README's table all come from the table. A number goes to that ply.

use crate::app::config::KeyMode;
use crate::app::dispatch::command::Command;
use crate::app::document::{self, expand_path};
use crate::app::overlay::SaveHow;
use crate::app::overlay::behaviour::{Handler, OverlayState, Tag, clone_box, insert_each};
use crate::app::overlay::{CommandLine, Mode, Overlay};
use crate::app::state::{App, Level};
use crate::core::text::sanitize;

/// What a command's argument is (Tab completes file paths).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arg {
    None,
    /// A file path, which may be left out.
    OptionalPath,
    /// A file path, required.
    Path,
    /// Free text, which may be left out; shown as `[name]` in the help.
    OptionalText(&'static str),
}

/// One `:` command.
#[derive(Clone, Copy)]
pub struct TypableCommand {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub arg: Arg,
    pub doc: &'static str,
    /// Runs the command with its argument (trimmed; empty when none was given).
    pub handler: fn(&mut App, &str),
}

impl std::fmt::Debug for TypableCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl TypableCommand {
    /// `:w, :write [PATH]` as the help and the README show it.
    pub fn usage(&self) -> String {
        let names: Vec<String> = std::iter::once(self.name)
            .chain(self.aliases.iter().copied())
            .map(|n| format!(":{n}"))
            .collect();
        let arg = match self.arg {
            Arg::None => "",
            Arg::OptionalPath => " [PATH]",
            Arg::Path => " PATH",
            Arg::OptionalText(what) => return format!("{} [{what}]", names.join(", ")),
        };
        format!("{}{arg}", names.join(", "))
    }
}

fn path_arg(arg: &str) -> Option<std::path::PathBuf> {
    (!arg.is_empty()).then(|| expand_path(arg))
}

/// Every `:` command, in the order of the help.
pub const TYPABLE_COMMANDS: &[TypableCommand] = &[
    TypableCommand {
        name: "write",
        aliases: &["w"],
        arg: Arg::OptionalPath,
        doc: "Save to the record's file; with PATH, write a copy there (the session stays on its file)",
        handler: |a, arg| {
            a.save_to(
                path_arg(arg),
                SaveHow::Copy,
                crate::app::document::job::Then::Stay,
            )
        },
    },
    TypableCommand {
        name: "wq",
        aliases: &["x"],
        arg: Arg::OptionalPath,
        doc: "Save as :w does, then quit",
        handler: |a, arg| {
            a.save_to(
                path_arg(arg),
                SaveHow::Copy,
                crate::app::document::job::Then::Quit { force: false },
            )
        },
    },
    TypableCommand {
        name: "saveas",
        aliases: &["sav"],
        arg: Arg::Path,
        doc: "Save to PATH and go on with that file, in its format",
        handler: |a, arg| match path_arg(arg) {
            Some(p) => a.save_to(
                Some(p),
                SaveHow::SaveAs,
                crate::app::document::job::Then::Stay,
            ),
            None => a.info_level(
                "give a file name: :saveas PATH (.kif Shift_JIS, .kifu UTF-8, .csa)".into(),
                Level::Error,
            ),
        },
    },
    TypableCommand {
        name: "quit",
        aliases: &["q"],
        arg: Arg::None,
        doc: "Quit (asks first while an edit exists nowhere on disk)",
        handler: |a, _| a.request_quit(false),
    },
    TypableCommand {
        name: "quit!",
        aliases: &["q!"],
        arg: Arg::None,
        doc: "Quit, throwing unsaved edits away",
        handler: |a, _| a.request_quit(true),
    },
    TypableCommand {
        name: "record",
        aliases: &[],
        arg: Arg::OptionalText("N"),
        doc: "Show record N of a file that holds several (CSA /; } and { step); without N, say which is shown",
        handler: |a, arg| a.record_command(arg),
    },
    TypableCommand {
        name: "edit",
        aliases: &["e"],
        arg: Arg::OptionalPath,
        doc: "Open another file (without PATH: read this one again); refused with unsaved edits",
        handler: |a, arg| crate::app::document::clipboard::edit_file(a, arg, false),
    },
    TypableCommand {
        name: "edit!",
        aliases: &["e!"],
        arg: Arg::OptionalPath,
        doc: "Open another file (or read this one again), throwing unsaved edits away",
        handler: |a, arg| crate::app::document::clipboard::edit_file(a, arg, true),
    },
    TypableCommand {
        name: "paste",
        aliases: &[],
        arg: Arg::None,
        doc: "Open the paste prompt: paste a KIF, KI2, CSA, SFEN/USI, BOD or JKF record",
        handler: |a, _| crate::app::document::clipboard::open_prompt(a, false),
    },
    TypableCommand {
        name: "paste!",
        aliases: &[],
        arg: Arg::None,
        doc: "Open the paste prompt, throwing unsaved edits away",
        handler: |a, _| crate::app::document::clipboard::open_prompt(a, true),
    },
    TypableCommand {
        name: "setup",
        aliases: &[],
        arg: Arg::None,
        doc: "Set up a position (局面編集), starting from the current one",
        handler: |a, _| a.open_position_editor(),
    },
    TypableCommand {
        name: "watch",
        aliases: &["follow"],
        arg: Arg::None,
        doc: "Follow the file: reload when another program writes it (again: stop)",
        handler: |a, _| crate::app::document::watch::toggle(a),
    },
    TypableCommand {
        name: "book",
        aliases: &[],
        arg: Arg::OptionalText("open FILE | new FILE | save | stop | close"),
        doc: "Opening books: open a book file (YaneuraOu .db) into the book pane, start a new one (written by its first save), save the modified ones (on a thread; stop stops the save), close one; alone: list the open books",
        handler: |a, arg| a.book_command(arg),
    },
    TypableCommand {
        name: "engine",
        aliases: &[],
        arg: Arg::OptionalText("ENGINE"),
        doc: "List the USI engines (configured, then found installed) to choose one; with a configured name, a command or a path, use that one",
        handler: |a, arg| a.engine_command(arg),
    },
    TypableCommand {
        name: "analyze",
        aliases: &[],
        arg: Arg::None,
        doc: "Analyse every move of the main line in the background (the comments get #評価値, #読み筋 and marks such as 【悪手】; one undo step); again or Esc: stop",
        handler: |a, _| a.analyze_command(),
    },
    TypableCommand {
        name: "play",
        aliases: &[],
        arg: Arg::None,
        doc: "Play a game against the engine from this position, or watch two engines: the side, the engine, the time control (600+byo30, 10+0.1, nodes=1000), the names; the game goes into the record with its times",
        handler: |a, _| a.open_play(),
    },
    TypableCommand {
        name: "mate",
        aliases: &[],
        arg: Arg::OptionalText("SECONDS"),
        doc: "Search the current position for a mate (USI go mate; gpsusi, YaneuraOu): 詰み N手 with the line (I inserts it), 不詰 or 時間切れ",
        handler: |a, arg| a.mate_command(arg),
    },
    TypableCommand {
        name: "set",
        aliases: &[],
        arg: Arg::OptionalText("OPTION VALUE"),
        doc: "Set an engine option for this session (:set MultiPV 3); alone: list the engine's options",
        handler: |a, arg| a.set_command(arg),
    },
    TypableCommand {
        name: "search",
        aliases: &[],
        arg: Arg::OptionalText("TEXT"),
        doc: "Search the record as / does (moves, comments, bookmarks, header); alone: the last search again",
        handler: |a, arg| a.search_submit(arg),
    },
    TypableCommand {
        name: "nohlsearch",
        aliases: &["noh"],
        arg: Arg::None,
        doc: "Hide the search's highlight (n shows it again)",
        handler: |a, _| a.hide_search_highlight(),
    },
    TypableCommand {
        name: "help",
        aliases: &["h"],
        arg: Arg::OptionalText("COMMAND"),
        doc: "Show the keys and these commands; with a command, the help at it",
        handler: help_command,
    },
];

/// `:help [COMMAND]`: the help, at COMMAND's line when one is named.
fn help_command(app: &mut App, arg: &str) {
    let name = arg.trim_start_matches(':');
    if name.is_empty() {
        return app.open_help();
    }
    match find(name) {
        Some(c) => app.open_help_at(c.name),
        None => app.info_level(
            format!(
                "no command :{} (:help alone lists them all)",
                sanitize(name)
            ),
            Level::Error,
        ),
    }
}

/// The command called `name` (or one of its aliases).
pub fn find(name: &str) -> Option<&'static TypableCommand> {
    TYPABLE_COMMANDS
        .iter()
        .find(|c| c.name == name || c.aliases.contains(&name))
}

/// Edit distance between two short names.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Command names close to `name` (a typo, or the start of one), closest first.
pub fn close_matches(name: &str) -> Vec<&'static str> {
    let mut found: Vec<(usize, &'static str)> = TYPABLE_COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .filter_map(|n| {
            let d = if n.starts_with(name) {
                0
            } else {
                distance(name, n)
            };
            (d <= 2.min(name.chars().count())).then_some((d, n))
        })
        .collect();
    found.sort();
    found.dedup_by_key(|(_, n)| *n);
    found.into_iter().map(|(_, n)| n).take(4).collect()
}

/// The `:` line's behaviour: typed text goes into it, Enter runs it.
impl OverlayState<App> for CommandLine {
    fn mode(&self) -> Mode {
        Mode::CommandLine
    }
    fn key_mode(&self) -> KeyMode {
        KeyMode::Command
    }
    fn takes_text(&self) -> bool {
        true
    }
    fn tag(&self) -> Tag {
        Tag::Keys(
            "COMMAND",
            &[(Command::Submit, "run"), (Command::Cancel, "leave")],
        )
    }
    fn submit(&self) -> Option<Handler> {
        Some(submit_line)
    }
    fn insert(&mut self, c: char) -> Option<fn(&mut App, char)> {
        self.completion = None;
        if self.text.chars().count() < 1024 {
            self.text.push(c);
        }
        None
    }
    /// On an empty line it leaves the line, as vim does.
    fn delete_back(&mut self) -> Option<Handler> {
        self.completion = None;
        self.text.pop().is_none().then_some(App::cancel)
    }
    /// The first line, without control characters.
    fn paste(&mut self, text: &str) -> Option<fn(&mut App, &str)> {
        insert_each(self, text.lines().next().unwrap_or(""))
    }
    clone_box!();
}

/// `:` (and `goto_ply`): opens the command line.
pub fn open(app: &mut App) {
    app.overlays
        .replace_or_push(Overlay::CommandLine(CommandLine::default()));
}

/// `1２3` as a number (full-width digits count).
fn ply_number(text: &str) -> Option<u32> {
    let t: String = text
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            _ => c,
        })
        .collect();
    t.parse().ok()
}

/// Enter on the `:` line: closes it and runs what was typed.
pub fn submit_line(app: &mut App) {
    let Some(Overlay::CommandLine(line)) = app.overlays.pop() else {
        return;
    };
    run(app, line.text.trim());
}

/// Runs one `:` line (without the `:`).
pub fn run(app: &mut App, text: &str) {
    if text.is_empty() {
        return;
    }
    if let Some(n) = ply_number(text) {
        app.goto_ply(n);
        return;
    }
    let (name, arg) = match text.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (text, ""),
    };
    if let Some(c) = find(name) {
        // The command's signature says whether it takes an argument: checked here, once.
        if c.arg == Arg::None && !arg.is_empty() {
            let msg = format!(":{} takes no argument (got {})", c.name, sanitize(arg));
            return app.info_level(msg, Level::Error);
        }
        (c.handler)(app, arg);
        return;
    }
    let shown = sanitize(name);
    let msg = if name.starts_with(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c)) {
        format!("not a ply number: {}", sanitize(text))
    } else {
        match close_matches(name).as_slice() {
            [] => format!("unknown command :{shown} (:help lists the commands)"),
            close => format!(
                "unknown command :{shown}; did you mean {}?",
                close
                    .iter()
                    .map(|n| format!(":{n}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        }
    };
    app.info_level(msg, Level::Error);
}

/// What Tab offers for `text`: command names while the name is typed, file paths in the
/// argument of a command that takes one. Each candidate is the whole new line.
pub fn candidates(text: &str) -> Vec<String> {
    match text.split_once(' ') {
        None => {
            let mut names: Vec<String> = TYPABLE_COMMANDS
                .iter()
                .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
                .filter(|n| n.starts_with(text))
                .map(str::to_string)
                .collect();
            names.sort();
            names.dedup();
            names
        }
        Some((name, arg)) => match find(name).map(|c| c.arg) {
            Some(Arg::Path | Arg::OptionalPath) => document::complete_path(arg.trim_start())
                .into_iter()
                .map(|p| format!("{name} {p}"))
                .collect(),
            Some(Arg::None | Arg::OptionalText(_)) | None => Vec::new(),
        },
    }
}

/// `complete` (Tab on the `:` line): completes the command name or file path; pressed again
/// it shows the next match.
pub fn complete(app: &mut App) {
    if let Some(Overlay::Prompt(p)) = app.overlays.top_mut() {
        // A prompt for a file name: Tab completes the path (the longest common start).
        if p.completes_paths {
            let list = document::complete_path(&p.text);
            if !list.is_empty() {
                p.text = common_prefix(&list);
            }
        }
        return;
    }
    if app.mode() != Mode::CommandLine {
        return;
    }
    let Some(line) = app.overlays.command_line_mut() else {
        return;
    };
    if let Some((list, i)) = &mut line.completion {
        *i = (*i + 1) % list.len();
        line.text = list[*i].clone();
        return;
    }
    let list = candidates(&line.text);
    match list.len() {
        0 => {}
        1 => {
            let only = &list[0];
            let takes_arg = !only.contains(' ') && find(only).is_some_and(|c| c.arg != Arg::None);
            line.text = if takes_arg {
                format!("{only} ")
            } else {
                only.clone()
            };
        }
        n => {
            let common = common_prefix(&list);
            if common.len() > line.text.len() {
                line.text = common;
            } else {
                // Start cycling at the first match that changes the line.
                let i = list.iter().position(|c| *c != line.text).unwrap_or(0);
                line.text = list[i].clone();
                line.completion = Some((list.clone(), i));
            }
            let shown: Vec<&str> = list
                .iter()
                .take(12)
                .map(|c| c.rsplit(['/', ' ']).next().unwrap_or(c))
                .collect();
            let more = if n > 12 {
                format!(" (+{})", n - 12)
            } else {
                String::new()
            };
            app.info(format!("{}{more}", shown.join("  ")));
        }
    }
}

fn common_prefix(list: &[String]) -> String {
    let first = &list[0];
    let mut end = first.len();
    for s in &list[1..] {
        end = end.min(
            first
                .char_indices()
                .zip(s.chars())
                .find(|((_, a), b)| a != b)
                .map_or(end.min(s.len()), |((i, _), _)| i),
        );
    }
    first[..end].to_string()
}

/// The commands for the help overlay, one per line.
pub fn help_lines() -> Vec<String> {
    let mut out =
        vec!["  :N  go to move N of the current line (as the move list numbers it)".to_string()];
    for c in TYPABLE_COMMANDS {
        out.push(format!("  {}  {}", c.usage(), c.doc));
    }
    out
}

/// The commands as a Markdown table (for the README).
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| command | what it does |\n| --- | --- |\n| `:N` | Go to move N of the current line (as the move list numbers it) |\n",
    );
    for c in TYPABLE_COMMANDS {
        out.push_str(&format!("| `{}` | {} |\n", c.usage(), c.doc));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for c in TYPABLE_COMMANDS {
            for n in std::iter::once(c.name).chain(c.aliases.iter().copied()) {
                assert!(seen.insert(n), "{n} twice");
                assert_eq!(find(n).map(|f| f.name), Some(c.name));
            }
            assert!(!c.doc.is_empty());
        }
    }

    #[test]
    fn close_matches_find_typos_and_prefixes() {
        assert_eq!(close_matches("wrtie"), ["write"]);
        assert!(close_matches("sav").contains(&"saveas"));
        assert!(close_matches("qiut").contains(&"quit"));
        assert!(close_matches("zzzzzz").is_empty());
    }

    #[test]
    fn candidates_complete_names_then_paths() {
        assert_eq!(candidates("sa"), ["sav", "saveas"]);
        assert!(candidates("q").contains(&"quit!".to_string()));
        assert!(candidates("quit x").is_empty(), "quit takes no path");
        assert_eq!(common_prefix(&["sav".into(), "saveas".into()]), "sav");
    }
}
