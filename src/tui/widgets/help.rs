//! The key help (generated from the keymap and the command tables; opened from the library,
//! the explorer or the games at a position, their keys and the filter language first) and the
//! reader's warnings, as scrolling text overlays.

use crate::app::collection::focus::FOCUS;
use crate::app::overlay::behaviour::Panel;
use crate::app::overlay::{HelpView, Overlay};
use crate::app::{App, Command, KeyMode};
use crate::tui::draw::{block, keys_for};
use crate::tui::draw::{clear, overlay_rect, scrolled_text};
use crate::tui::text::{clean, fit, width, wrap_hanging};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

/// Lines of text in an overlay, wrapped, scrolled `scroll` rows past the start of line
/// `from` (the first when `None`).
fn text_overlay(
    main: Rect,
    buf: &mut Buffer,
    title: String,
    (lines, from): (Vec<String>, Option<usize>),
    scroll: u16,
    theme: &Theme,
    vs: &mut ViewState,
) {
    let area = overlay_rect(main, 96);
    clear(area, buf);
    let b = block(title, true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.overlay_area = inner;
    let mut start = 0;
    let mut wrapped: Vec<String> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if Some(i) == from {
            start = wrapped.len();
        }
        wrapped.extend(wrap_hanging(l, inner.width as usize, hang(l)));
    }
    let first = u16::try_from(start).unwrap_or(u16::MAX);
    let max = scrolled_text(
        inner,
        buf,
        &wrapped,
        first.saturating_add(scroll),
        Style::new(),
    );
    vs.overlay_max = max.saturating_sub(first);
}

/// Where a wrapped line of help continues: under the description of an entry (`  keys
/// description`, the keys and the description two spaces apart), else two cells in.
fn hang(line: &str) -> usize {
    let Some(body) = line.strip_prefix("  ") else {
        return 2;
    };
    match body.find("  ") {
        Some(i) => {
            let gap = body[i..].len() - body[i..].trim_start().len();
            2 + width(&body[..i]) + gap
        }
        None => 4,
    }
}

/// The filter language of the library, the explorer and the games at a position (the words of
/// `collection::filter_text`).
const FILTER_LANGUAGE: [&str; 12] = [
    "Filter language (the same words as --filter of kifview find, games, explore, report)",
    "  羽生                    a name either side contains (several bare words: one name)",
    "  player:藤井             either side; sente:, gote: one side; player:A player:B: their games",
    "  event:竜王              the event contains it",
    "  tag:美濃                a strategy or castle tag with its family (高美濃, 銀美濃)",
    "  result:sente            sente, gote, draw or unknown",
    "  2020..2023              dates: 2021, 2020-04.., ..2019; from:2020-01 to:2020-06",
    "  under:DIR               the games in a folder (relative to the current folder)",
    "  me  me:sente  me:gote   the games I played ([collection] me in the config, or --me)",
    "  -player:X  -tag:穴熊    excludes (player:, sente:, gote:, event:, tag:, a bare name)",
    "Names, events and tags match ignoring width, case and spaces (NFKC): 羽生善治 finds 羽生 善治竜王, 第27期 finds 第２７期. An empty filter shows every game.",
    "",
];

/// Where the help was opened from, when that place has keys of its own (the overlay right
/// under the help): its keymap, its name and what to say of it before its keys.
fn context(app: &App) -> Option<(KeyMode, &'static str, &'static [&'static str])> {
    let stack: Vec<&Overlay> = app.overlays().iter().collect();
    let help = stack.iter().rposition(|o| matches!(o, Overlay::Help(_)))?;
    match stack.get(help.checked_sub(1)?)? {
        Overlay::Library(_) => Some((
            KeyMode::Library,
            "library",
            &[
                "Library: the collection's games, full screen. kifview DIR lists the games of DIR (its title says \"in DIR\"), kifview --index IDX and O the whole index's. The summary above the list counts the games the filter keeps: their results from the side chosen (先手, 後手 or me) and their most frequent tags. In a game opened from the list, } and { open the next and previous game of the list.",
            ],
        )),
        Overlay::Panel(p) if p.mode() == FOCUS => Some((
            KeyMode::Explorer,
            "explorer",
            &[
                "Explorer: the moves the collection's games played from the position on the board and how they scored (先手 wins, draws, unknown, 後手 wins), among the games its title names: its filter, as me (my games, scored from my side), or the library's folder and filter when it follows the library.",
            ],
        )),
        Overlay::List(l) if l.content.tag() == "COLLECTION GAMES" => Some((
            KeyMode::List,
            "games at this position",
            &[
                "The games at this position: sorted by date, 先手, 後手, result or moves (the title marks the column ▲/▼), filtered with the explorer's filter (the pane follows it). Enter opens a game there; } and { then step through the list.",
            ],
        )),
        _ => None,
    }
}

/// The key help, generated from the keymap and the command table; opened from the library,
/// the explorer or the games at a position, that place's keys and the filter language first.
pub fn help_lines(app: &App) -> Vec<String> {
    let mut out = Vec::new();
    if let Some((mode, _, intro)) = context(app) {
        out.extend(intro.iter().map(|l| l.to_string()));
        push_keys(&mut out, app, mode);
        out.push(String::new());
        out.extend(FILTER_LANGUAGE.iter().map(|l| l.to_string()));
        out.push("Every key".to_string());
        out.push(String::new());
    }
    for (mode, title) in [
        (KeyMode::Normal, "Browsing"),
        (KeyMode::Tree, "Variation tree (t)"),
        (KeyMode::Board, "Move input on the board (i, Enter)"),
        (
            KeyMode::Editor,
            "Comment editor (c); typed text goes into the comment",
        ),
        (
            KeyMode::List,
            "Lists: bookmarks ('), endings (r), header fields (e)",
        ),
        (KeyMode::Command, "Command line (:), prompts and questions"),
        (KeyMode::Help, "Help and problem list"),
        (KeyMode::Copy, "Copy menu (y)"),
        (KeyMode::Paste, "Paste prompt (p, :paste)"),
        (KeyMode::Explorer, "Explorer pane with the focus (X)"),
        (KeyMode::Book, "Book pane with the focus (Ctrl-t)"),
        (
            KeyMode::Library,
            "Library (kifview DIR, O): the collection's games; in a game opened from it } and { step through the list",
        ),
        (
            KeyMode::Train,
            "Solve mode (kifview train): answer on the board or typed, then step the line, the answer, the source",
        ),
    ] {
        out.push(title.to_string());
        push_keys(&mut out, app, mode);
        out.push(String::new());
    }
    out.push("Mouse: click a move or a branch to go there; the wheel steps through moves".into());
    out.push("and scrolls the comment; click a piece, then a square, to enter a move.".into());
    out.push(String::new());
    out.push("Commands (after :; Tab completes names and file paths)".into());
    out.extend(crate::app::dispatch::typable::help_lines());
    out.push(String::new());
    out.push("Copying goes through the terminal (OSC 52) and works over SSH; in tmux it".into());
    out.push("needs `set -g set-clipboard on`. Pasting uses the terminal's own paste.".into());
    out
}

/// The keys of `mode`, a line each: the keys, then what the command does.
fn push_keys(out: &mut Vec<String>, app: &App, mode: KeyMode) {
    for (cmd, keys) in app.config().keymap.bindings(mode) {
        let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        out.push(format!("  {}  {}", fit(&keys.join(" "), 22), cmd.doc()));
    }
}

/// The key help, scrolled to `view.scroll` (from the line of the `:` command `view.at`).
pub fn help_overlay(
    main: Rect,
    buf: &mut Buffer,
    app: &App,
    view: &HelpView,
    theme: &Theme,
    vs: &mut ViewState,
) {
    let lines: Vec<String> = help_lines(app)
        .into_iter()
        .map(|l| clean(&l, theme.double))
        .collect();
    // The command's own line: the first of the commands' that starts with its usage.
    let at = view.at.and_then(|name| {
        let usage = crate::app::dispatch::typable::find(name)?.usage();
        lines
            .iter()
            .position(|l| l.strip_prefix("  ").is_some_and(|l| l.starts_with(&usage)))
    });
    let title = match context(app) {
        Some((_, name, _)) => format!("Keys: {name} first (? or Esc closes)"),
        None => "Keys (? or Esc closes)".to_string(),
    };
    text_overlay(main, buf, title, (lines, at), view.scroll, theme, vs);
}

/// An overlay known by its behaviour (`Overlay::Panel`): its title and lines, scrolled.
pub fn panel_overlay(
    main: Rect,
    buf: &mut Buffer,
    panel: &Panel,
    scroll: u16,
    theme: &Theme,
    vs: &mut ViewState,
) {
    let d = theme.double;
    let lines = panel.lines.iter().map(|l| clean(l, d)).collect();
    text_overlay(
        main,
        buf,
        clean(&panel.title, d),
        (lines, None),
        scroll,
        theme,
        vs,
    );
}

/// The reader's warnings, one selected (`selected`, which j/k move): Enter goes to the move it
/// names. The list scrolls to keep the selected one in view.
pub fn warnings_overlay(
    main: Rect,
    buf: &mut Buffer,
    app: &App,
    selected: u16,
    theme: &Theme,
    vs: &mut ViewState,
) {
    let warnings = &app.source().warnings;
    let n = warnings.len();
    let title = format!(
        "Problems found while reading ({n})  {}: go to the move",
        keys_for(app, KeyMode::Help, Command::WarningJump)
    );
    let area = overlay_rect(main, 96);
    clear(area, buf);
    let b = block(title, true, theme);
    let inner = b.inner(area);
    b.render(area, buf);
    vs.overlay_area = inner;
    vs.overlay_max = n.saturating_sub(1) as u16;
    let sel = (selected as usize).min(n.saturating_sub(1));
    // Each warning's rows, wrapped; the selected one marked `>` (seen without colour too).
    let mut rows: Vec<(usize, String)> = Vec::new();
    for (i, w) in warnings.iter().enumerate() {
        let mark = if i == sel { "> " } else { "  " };
        let text = clean(
            &format!("{mark}{}", w.with_file(&app.source().name)),
            theme.double,
        );
        for line in wrap_hanging(&text, inner.width.max(4) as usize, 2) {
            rows.push((i, line));
        }
    }
    let h = inner.height as usize;
    let last_sel_row = rows.iter().rposition(|(i, _)| *i == sel).unwrap_or(0);
    let top = (last_sel_row + 1).saturating_sub(h);
    for (y, (i, line)) in rows.iter().skip(top).take(h).enumerate() {
        let y = inner.y + y as u16;
        buf.set_stringn(inner.x, y, line, inner.width as usize, Style::new());
        if *i == sel {
            buf.set_style(Rect::new(inner.x, y, inner.width, 1), theme.selection);
        }
    }
}
