//! The library (`kifview DIR`, `O`): the collection's games as a table over the whole screen
//! but the status line. Columns fit the width: date, 先手, 後手, result, moves and as much of
//! the event as fits at 80 columns; tags and the file from 112 columns. The sorted column's head is
//! marked ▲ (ascending) or ▼; the title counts the games (`n / N` when filtered) and says
//! which set they are of (`in DIR`, `of the whole index`); above the heads, a summary of the
//! games listed (their results from the side chosen, their most frequent tags); the last row
//! is the filter (typed there after `/`), its error, or the indexing's progress. Text from
//! the catalog is untrusted: every cell goes through `clean`.

use crate::app::App;
use crate::app::library::{Library, LibraryScreen, Side};
use crate::app::{Command, KeyMode};
use crate::collection::{GameInfo, GameResult, Me, SortBy};
use crate::tui::draw::{block, clear, keys_for};
use crate::tui::text::{clean, fit, push_fit, width, wrap_hanging};
use crate::tui::theme::Theme;
use crate::tui::view::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

/// A column: its head, the sort it stands for (`None`: my result, `自分`), its width.
struct Column {
    head: &'static str,
    sort: Option<SortBy>,
    width: usize,
}

/// The columns for `w` cells: fixed ones (with `自分`, my result, when there is a "me"),
/// then the event, tags and file sharing the rest.
fn columns(w: usize, me: bool) -> Vec<Column> {
    let name = if w >= 160 {
        16
    } else if w >= 110 {
        14
    } else {
        12
    };
    let col = |head, sort, width| Column {
        head,
        sort: Some(sort),
        width,
    };
    let mut cols = vec![
        col("日付", SortBy::Date, 10),
        col("先手", SortBy::Sente, name),
        col("後手", SortBy::Gote, name),
        col("結果", SortBy::Result, 6),
    ];
    if me {
        cols.push(Column {
            head: "自分",
            sort: None,
            width: 4,
        });
    }
    // Six cells: the head and its sort mark (`手数▲`, the mark two cells in double-width
    // mode).
    cols.push(col("手数", SortBy::Moves, 6));
    let used: usize = cols.iter().map(|c| c.width + 1).sum();
    let rest = w.saturating_sub(used);
    if w < 110 {
        cols.push(col("棋戦", SortBy::Event, rest));
    } else {
        let event = (rest * 3 / 10).max(12);
        let tags = (rest * 3 / 10).max(12);
        cols.push(col("棋戦", SortBy::Event, event));
        cols.push(col("戦型", SortBy::Tags, tags));
        cols.push(col(
            "ファイル",
            SortBy::Path,
            rest.saturating_sub(event + tags + 2),
        ));
    }
    cols
}

fn result_word(o: GameResult) -> &'static str {
    match o {
        GameResult::Sente => "先手勝",
        GameResult::Gote => "後手勝",
        GameResult::Draw => "引分",
        GameResult::Unknown => "",
    }
}

/// The file of a game: its path under the folder listed (the whole path otherwise), `#N` for
/// a record after the first.
fn file_of(g: &GameInfo, root: Option<&std::path::PathBuf>) -> String {
    let p = std::path::Path::new(&g.path);
    let shown = root
        .and_then(|r| p.strip_prefix(r).ok())
        .unwrap_or(p)
        .to_string_lossy();
    if g.record > 1 {
        format!("{shown}#{}", g.record)
    } else {
        shown.into_owned()
    }
}

/// The text of a game's cell in column `sort` (`None`: my result, 勝 負 分 不明, or `-` in a
/// game I did not play).
fn cell(
    g: &GameInfo,
    sort: Option<SortBy>,
    root: Option<&std::path::PathBuf>,
    me: Option<&Me>,
) -> String {
    let text = |s: &Option<String>| s.clone().unwrap_or_default();
    let Some(sort) = sort else {
        return me
            .and_then(|me| me.color(g.sente.as_deref(), g.gote.as_deref()))
            .map_or("-", |c| c.result(g.result).kanji())
            .to_string();
    };
    match sort {
        SortBy::Date => text(&g.date),
        SortBy::Sente => text(&g.sente),
        SortBy::Gote => text(&g.gote),
        SortBy::Event => text(&g.event),
        SortBy::Result => result_word(g.result).to_string(),
        SortBy::Moves => format!("{:>5}", g.moves),
        SortBy::Tags => {
            let mut t = g.opening.clone().into_iter().collect::<Vec<_>>();
            t.extend(
                g.tags
                    .iter()
                    .filter(|x| Some(*x) != g.opening.as_ref())
                    .cloned(),
            );
            t.join(",")
        }
        SortBy::Path | SortBy::Id => file_of(g, root),
    }
}

/// The end of `s` in at most `w` cells, `…` first when cut.
fn tail(s: &str, w: usize) -> String {
    if width(s) <= w {
        return s.to_string();
    }
    let mut out: Vec<char> = Vec::new();
    let mut used = 1;
    for c in s.chars().rev() {
        let cw = width(c.encode_utf8(&mut [0; 4]));
        if used + cw > w {
            break;
        }
        used += cw;
        out.push(c);
    }
    out.push('…');
    out.into_iter().rev().collect()
}

/// One line of cells, each fitted to its column.
fn line(cells: impl Iterator<Item = (String, usize)>) -> String {
    let mut out = String::with_capacity(256);
    for (i, (text, w)) in cells.enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_fit(&mut out, &text, w);
    }
    out
}

/// A game's row: its cells fitted to the columns, `w` cells in all.
fn row_text(
    g: &GameInfo,
    cols: &[Column],
    (root, me): (Option<&std::path::PathBuf>, Option<&Me>),
    double: bool,
    w: usize,
) -> String {
    let text = line(cols.iter().map(|c| {
        let t = clean(&cell(g, c.sort, root, me), double);
        // A long path keeps its end: the file's name.
        let t = match c.sort {
            Some(SortBy::Path) => tail(&t, c.width),
            _ => t,
        };
        (t, c.width)
    }));
    fit(&text, w)
}

/// `1,234`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The title: the games listed, of how many, and which set they are of (the folder listed, or
/// the whole index), in `w` cells (a long folder keeps its end).
fn title(l: &Library, w: usize) -> String {
    let n = l.ids().len() as u64;
    let count = if !l.listed() {
        "…".to_string()
    } else if l.filter_text().is_empty() {
        format!("{} games", thousands(n))
    } else {
        format!("{} / {} games", thousands(n), thousands(l.total()))
    };
    let head = format!("棋譜一覧  {count}");
    match l.root() {
        None => format!("{head} of the whole index"),
        Some(r) => {
            // The folder's name (its whole path is in what the indexing and `D` say).
            let name = r.file_name().map_or_else(
                || r.display().to_string(),
                |n| format!("{}/", n.to_string_lossy()),
            );
            let room = w.saturating_sub(width(&head) + 6).max(8);
            format!("{head} in {}", tail(&name, room))
        }
    }
}

/// The summary's first line: the results of the games listed from the side chosen, and the
/// key that chooses it (`先手から 5局 2勝1敗1分 不明1 勝率62%  (v: 先手/後手/自分)`).
fn summary_results(l: &Library, key: &str, me: bool) -> String {
    let who = match l.side() {
        Side::Sente => "先手から",
        Side::Gote => "後手から",
        Side::Me => "自分",
    };
    let choose = match me {
        true => format!("  ({key}: 先手/後手/自分)"),
        false => format!("  ({key}: 先手/後手)"),
    };
    let Some(t) = l.side_tally() else {
        return format!("{who} -  (no \"me\": [collection] me in the config, or --me){choose}");
    };
    let unknown = match t.unknown {
        0 => String::new(),
        u => format!(" 不明{}", thousands(u)),
    };
    let pct = t
        .win_percent()
        .map_or(String::new(), |p| format!(" 勝率{p:.0}%"));
    format!(
        "{who} {}局 {}勝{}敗{}分{unknown}{pct}{choose}",
        thousands(t.games),
        thousands(t.win),
        thousands(t.loss),
        thousands(t.draw),
    )
}

/// The summary's second line: the most frequent tags of the games listed, with counts.
fn summary_tags(l: &Library) -> String {
    let tags = l.summary().map_or(&[][..], |s| &s.tags[..]);
    if tags.is_empty() {
        return "戦型 -".to_string();
    }
    let each: Vec<String> = tags
        .iter()
        .map(|(t, n)| format!("{t} {}", thousands(*n)))
        .collect();
    format!("戦型 {}", each.join("  "))
}

/// The last row: the filter being typed, an error, the indexing's progress, the filter.
fn foot(l: &Library, s: &LibraryScreen) -> (String, bool) {
    if let Some(t) = &s.editing {
        return (format!("filter: {t}"), false);
    }
    if let Some(e) = l.error() {
        return (e.to_string(), true);
    }
    // The filter first: what is shown depends on it.
    let mut parts = Vec::new();
    if !l.filter_text().is_empty() {
        parts.push(format!("filter: {}", l.filter_text()));
    }
    if l.waiting() {
        parts.push("another kifview is updating this index: waiting for it…".to_string());
    } else if let Some(f) = l.forgetting() {
        parts.push(format!("forgetting {}…", f.display()));
    } else if let Some((done, total)) = l.progress() {
        parts.push(format!(
            "indexing {} / {} files",
            thousands(done),
            thousands(total)
        ));
    } else if let Some(n) = l.note() {
        parts.push(n.to_string());
    }
    (parts.join("  "), false)
}

/// Draws the summary at the top of `inner`, which keeps the rows under it: two rows when the
/// list keeps ten or more, else one, none on a tiny screen.
fn draw_summary(inner: &mut Rect, buf: &mut Buffer, app: &App, me: bool, theme: &Theme) {
    let Some(l) = app.library() else { return };
    let rows = match inner.height {
        0..8 => return,
        8..14 => 1,
        _ => 2,
    };
    let w = inner.width as usize;
    let key = keys_for(app, KeyMode::Library, Command::LibrarySide);
    let first = clean(&summary_results(l, &key, me), theme.double);
    buf.set_string(inner.x, inner.y, fit(&first, w), Style::new());
    if rows > 1 {
        let tags = clean(&summary_tags(l), theme.double);
        buf.set_string(inner.x, inner.y + 1, fit(&tags, w), theme.dim);
    }
    inner.y += rows;
    inner.height -= rows;
}

/// The library over `main`.
pub fn library_overlay(
    main: Rect,
    buf: &mut Buffer,
    app: &App,
    s: &LibraryScreen,
    theme: &Theme,
    vs: &mut ViewState,
) {
    let Some(l) = app.library() else { return };
    clear(main, buf);
    let b = block(title(l, main.width as usize), true, theme);
    let mut inner = b.inner(main);
    b.render(main, buf);
    if inner.height < 3 || inner.width < 20 {
        return;
    }
    let w = inner.width as usize;
    let me = Me::new(&app.config().me);
    draw_summary(&mut inner, buf, app, me.is_some(), theme);
    let cols = columns(w, me.is_some());
    let (sort, desc) = l.sort();
    let heads = cols.iter().map(|c| {
        let mark = if c.sort == Some(sort) {
            if desc { "▼" } else { "▲" }
        } else {
            ""
        };
        (clean(&format!("{}{mark}", c.head), theme.double), c.width)
    });
    let bold = Style::new().add_modifier(Modifier::BOLD);
    buf.set_string(inner.x, inner.y, line(heads), bold);
    let rows = inner.height as usize - 2;
    vs.library_rows = rows;
    let top = follow(vs.library_top, l.selected(), l.ids().len(), rows);
    vs.library_top = top;
    let lines = &mut vs.library_lines;
    lines.keep_for((inner.width, theme.double, l.rows_generation()));
    for (i, &id) in l.ids().iter().enumerate().skip(top).take(rows) {
        let y = inner.y + 1 + (i - top) as u16;
        let style = if i == l.selected() {
            theme.selection
        } else {
            Style::new()
        };
        match l.row(id) {
            Some(g) => lines.draw(id, (inner.x, y), buf, style, || {
                row_text(g, &cols, (l.root(), me.as_ref()), theme.double, w)
            }),
            None => {
                buf.set_string(inner.x, y, fit("…", w), style);
            }
        }
    }
    if l.listed() && l.ids().is_empty() {
        let why = if l.progress().is_some() {
            "indexing…"
        } else {
            "no game matches"
        };
        buf.set_string(inner.x, inner.y + 1, why, theme.dim);
    }
    let (text, error) = foot(l, s);
    let text = clean(&text, theme.double);
    let y = inner.bottom() - 1;
    if error {
        // An error is read whole: wrapped onto the rows above the last (at most three, over
        // the list's last rows; the third is cut).
        let mut rows = wrap_hanging(&text, w, 2);
        rows.truncate(3.min(inner.height as usize - 2));
        let top = y + 1 - rows.len() as u16;
        for (i, r) in rows.iter().enumerate() {
            buf.set_string(inner.x, top + i as u16, fit(r, w), theme.error);
        }
    } else {
        buf.set_string(inner.x, y, fit(&text, w), theme.dim);
    }
    if s.editing.is_some() {
        let x = inner.x + (width(&text) as u16).min(inner.width - 1);
        vs.cursor = Some((x, y));
    }
}

/// The list's first row shown: the last one, moved as little as keeps row `selected` of
/// `total` in view among `rows`.
fn follow(top: usize, selected: usize, total: usize, rows: usize) -> usize {
    let rows = rows.max(1);
    let top = if selected < top {
        selected
    } else if selected >= top + rows {
        selected + 1 - rows
    } else {
        top
    };
    top.min(total.saturating_sub(rows))
}
