//! `kifview report`: the tournament table of the games a filter picks, grouped, or with
//! `--player NAME` that player's dossier; as text, JSON, CSV, Markdown or HTML (one
//! self-contained file with SVG charts). The numbers are `collection::report`'s.

use super::Out;
use super::collection::{FilterArgs, fail, filter, finish, json_line, number, open, shell_word};
use clap::{Args, ValueEnum};
use kifview::collection::report::{self, At, By, Dossier, Report, Row, Score};
use kifview::collection::{Filter, Me, MeSide};
use kifview::core::text::sanitize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use unicode_width::UnicodeWidthStr;

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The index folder (default: $KIFVIEW_INDEX, else the platform data directory's
    /// kifview/collection).
    #[arg(long, value_name = "IDX")]
    pub index: Option<PathBuf>,
    /// The filters of `games`; `--player NAME` makes the report that player's dossier
    /// (`--player me` or `--me NAME`: mine).
    #[command(flatten)]
    pub filter: FilterArgs,
    /// How the table groups the games (a game without the field: 不明).
    #[arg(long, value_enum, default_value = "strategy")]
    pub by: ByArg,
    /// Output: a table to read, JSON (the issue's contract), CSV, Markdown, or one HTML file
    /// with charts.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ByArg {
    Strategy,
    Castle,
    Player,
    Event,
    Year,
    Month,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Csv,
    Md,
    Html,
}

impl ByArg {
    fn by(self) -> By {
        match self {
            ByArg::Strategy => By::Strategy,
            ByArg::Castle => By::Castle,
            ByArg::Player => By::Player,
            ByArg::Event => By::Event,
            ByArg::Year => By::Year,
            ByArg::Month => By::Month,
        }
    }
    fn heading(self) -> &'static str {
        match self {
            ByArg::Strategy => "戦型 strategy",
            ByArg::Castle => "囲い castle",
            ByArg::Player => "対局者 player",
            ByArg::Event => "棋戦 event",
            ByArg::Year => "年 year",
            ByArg::Month => "月 month",
        }
    }
}

pub fn report(a: ReportArgs) -> ExitCode {
    let idx = match open(a.index, "report") {
        Ok(i) => i,
        Err(c) => return c,
    };
    let (f, who) = match whose(a.filter, false) {
        Ok(w) => w,
        Err(e) => return fail(2, "report", &e),
    };
    let doc = match &who {
        Some((me, name)) => match report::dossier(&idx, &f, me, name) {
            Ok(d) => dossier_doc(&d, a.format),
            Err(e) => return fail(1, "report", &e),
        },
        None => {
            let mut b = report::Builder::new(a.by.by());
            if let Err(e) = idx.games_each(&f, &mut |g| {
                b.add(&g);
                Ok(())
            }) {
                return fail(1, "report", &e);
            }
            let r = b.finish();
            if a.format == Format::Json {
                let mut out = Out::new();
                out.write(json_line(&r.json()).as_bytes());
                return finish(out, "report");
            }
            table_doc(&r, a.by)
        }
    };
    let text = match a.format {
        Format::Text => doc.text(),
        Format::Json => doc.json.clone().unwrap_or_default(),
        Format::Csv => doc.csv(),
        Format::Md => doc.markdown(),
        Format::Html => doc.html(),
    };
    let mut out = Out::new();
    out.write(text.as_bytes());
    finish(out, "report")
}

/// Whose games a report or a check is about, with the filter of the options: one
/// `--player NAME`, or me (`--player me`, `--me NAME`, `--filter me`, or `me_word`: the word
/// `me` given as an argument), who is then `--me`'s names, else the config's (`--me` with a
/// `--player NAME` only says who "me" is). The player's games
/// are the filter's (a `--player NAME` is one of its conditions, and me adds `me`). `None`:
/// nobody named.
pub(super) fn whose(
    mut fa: FilterArgs,
    me_word: bool,
) -> Result<(Filter, Option<(Me, String)>), String> {
    let player_me = fa.player.len() == 1 && fa.player[0].trim().eq_ignore_ascii_case("me");
    if player_me {
        fa.player.clear();
    }
    let as_me = me_word || player_me || (!fa.me.is_empty() && fa.player.is_empty());
    let player = match &fa.player[..] {
        [one] if !as_me => Some(one.clone()),
        _ => None,
    };
    let mut f = filter(fa)?;
    if as_me && f.me.is_none() {
        f.me = Some(MeSide::Either);
    }
    f.check_me()?;
    let who = match player {
        Some(name) => Me::new(std::slice::from_ref(&name)).map(|m| (m, name)),
        None if f.me.is_some() => f
            .me_who()
            .map(|m| (m, format!("me ({})", f.me_names.join(", ")))),
        None => None,
    };
    Ok((f, who))
}

/// A table of a report: its title, its columns (numbers right-aligned) and rows.
pub(super) struct Table {
    pub(super) title: String,
    pub(super) columns: Vec<(String, bool)>,
    pub(super) rows: Vec<Vec<String>>,
}

/// A bar chart: a label and a value in `0..=max` per bar.
pub(super) struct Chart {
    title: String,
    bars: Vec<(String, f64)>,
    max: f64,
    /// A mark across the bars (50% for win rates).
    rule: Option<f64>,
    /// The value written after a bar.
    percent: bool,
}

/// What a report prints, in any format.
pub(super) struct Doc {
    pub(super) title: String,
    pub(super) tables: Vec<Table>,
    pub(super) charts: Vec<Chart>,
    /// The JSON of a dossier (the tournament table's is written directly).
    pub(super) json: Option<String>,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn table_doc(r: &Report, by: ByArg) -> Doc {
    let a = &r.all;
    let summary = Table {
        title: "全体 all games".into(),
        columns: vec![("".into(), false), ("".into(), true)],
        rows: [
            ("対局数 games", a.games.to_string()),
            ("先手勝ち sente wins", a.sente.to_string()),
            ("後手勝ち gote wins", a.gote.to_string()),
            ("引き分け draws", a.draw.to_string()),
            ("不明 unknown", a.unknown.to_string()),
            ("千日手 sennichite", a.sennichite.to_string()),
            ("持将棋 jishogi", a.jishogi.to_string()),
            ("宣言勝ち declared wins", a.declared.to_string()),
            ("反則 fouls", a.foul.to_string()),
            ("時間切れ timeouts", a.timeout.to_string()),
            ("先手勝率 sente win rate", pct(a.sente_win_rate())),
            (
                "平均手数 average plies",
                format!("{:.1}", a.average_plies()),
            ),
            (
                "平均手数（千日手を除く） without sennichite",
                format!("{:.1}", a.average_plies_without_sennichite()),
            ),
        ]
        .into_iter()
        .map(|(k, v)| vec![k.to_string(), v])
        .collect(),
    };
    let groups = Table {
        title: by.heading().into(),
        columns: vec![
            (by.heading().into(), false),
            ("局数 games".into(), true),
            ("割合 share".into(), true),
            ("先手勝 sente".into(), true),
            ("後手勝 gote".into(), true),
            ("分 draw".into(), true),
            ("先手勝率 sente win rate".into(), true),
        ],
        rows: r
            .groups
            .iter()
            .map(|g| {
                let t = &g.tally;
                vec![
                    g.key.clone(),
                    t.games.to_string(),
                    pct(r.share(g)),
                    t.sente.to_string(),
                    t.gote.to_string(),
                    t.draw.to_string(),
                    pct(t.sente_win_rate()),
                ]
            })
            .collect(),
    };
    let top = r.groups.iter().take(CHART_BARS);
    let charts = vec![
        Chart {
            title: format!("{}: 割合 share", by.heading()),
            bars: top.clone().map(|g| (g.key.clone(), r.share(g))).collect(),
            max: r.groups.iter().map(|g| r.share(g)).fold(0.0, f64::max),
            rule: None,
            percent: true,
        },
        Chart {
            title: format!("{}: 先手勝率 sente win rate", by.heading()),
            bars: top
                .map(|g| (g.key.clone(), g.tally.sente_win_rate()))
                .collect(),
            max: 1.0,
            rule: Some(0.5),
            percent: true,
        },
        Chart {
            title: "手数 length (plies)".into(),
            bars: r
                .lengths
                .iter()
                .enumerate()
                .map(|(i, &n)| {
                    let from = i as u32 * report::HISTOGRAM_STEP;
                    (
                        format!("{from}–{}", from + report::HISTOGRAM_STEP - 1),
                        n as f64,
                    )
                })
                .collect(),
            max: r.lengths.iter().copied().max().unwrap_or(0) as f64,
            rule: None,
            percent: false,
        },
    ];
    Doc {
        title: format!("kifview report: {} games", a.games),
        tables: vec![summary, groups],
        charts,
        json: None,
    }
}

/// The bars of a chart at most.
const CHART_BARS: usize = 30;

fn score_columns(first: &str) -> Vec<(String, bool)> {
    [
        first,
        "局数 games",
        "勝 win",
        "負 loss",
        "分 draw",
        "不明 unknown",
        "勝率 score",
    ]
    .iter()
    .enumerate()
    .map(|(i, c)| (c.to_string(), i > 0))
    .collect()
}

fn score_row(key: &str, s: &Score) -> Vec<String> {
    vec![
        key.to_string(),
        s.games.to_string(),
        s.win.to_string(),
        s.loss.to_string(),
        s.draw.to_string(),
        s.unknown.to_string(),
        pct(s.score()),
    ]
}

fn dossier_doc(d: &Dossier, format: Format) -> Doc {
    let scored = |title: &str, first: &str, rows: &[Row]| Table {
        title: title.into(),
        columns: score_columns(first),
        rows: rows.iter().map(|r| score_row(&r.key, &r.score)).collect(),
    };
    let all = [Row {
        key: "全体 all".into(),
        score: d.all.clone(),
    }];
    let mut tables = vec![
        scored("成績 results", "", &all),
        scored(
            "先手番の戦型 strategies as 先手",
            "戦型 strategy",
            &d.as_sente,
        ),
        scored(
            "後手番の戦型 strategies as 後手",
            "戦型 strategy",
            &d.as_gote,
        ),
        scored("対戦相手 opponents", "相手 opponent", &d.opponents),
        scored("年別 by year", "年 year", &d.years),
    ];
    tables.push(Table {
        title: "いつもの手から離れた局面 where their games first leave their usual line".into(),
        columns: vec![
            ("開始 start".into(), false),
            ("局面 position (手順 line)".into(), false),
            ("いつもの手 usual".into(), false),
            ("局数 games".into(), true),
            ("離れた手 played instead".into(), false),
            ("FILE +PLY".into(), false),
        ],
        rows: d
            .deviations
            .iter()
            .flat_map(|v| {
                v.games.iter().enumerate().map(move |(i, g)| {
                    let first = i == 0;
                    vec![
                        if first {
                            v.start.clone()
                        } else {
                            String::new()
                        },
                        if first { v.line.clone() } else { String::new() },
                        if first {
                            format!("{} ({})", v.usual, v.usual_games)
                        } else {
                            String::new()
                        },
                        if first {
                            v.games.len().to_string()
                        } else {
                            String::new()
                        },
                        g.played.clone(),
                        place(&g.at),
                    ]
                })
            })
            .collect(),
    });
    if let Some(m) = &d.mistakes {
        let mut rows: Vec<Vec<String>> = m
            .phases
            .iter()
            .map(|p| {
                let mut r = vec![p.name.to_string()];
                r.extend(p.marks.iter().map(u32::to_string));
                r
            })
            .collect();
        rows.push(vec![
            format!("解析済み analysed games: {}", m.games),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
        ]);
        tables.push(Table {
            title: "局面別の悪手 mistakes by phase".into(),
            columns: vec![
                ("局面 phase".into(), false),
                ("緩手".into(), true),
                ("疑問手".into(), true),
                ("悪手".into(), true),
                ("大悪手".into(), true),
            ],
            rows,
        });
        tables.push(Table {
            title: "悪手・大悪手 the worst moves".into(),
            columns: vec![
                ("".into(), false),
                ("局面 phase".into(), false),
                ("指し手 move".into(), false),
                ("FILE +PLY".into(), false),
            ],
            rows: m
                .worst
                .iter()
                .map(|w| {
                    vec![
                        w.mark.to_string(),
                        w.phase.to_string(),
                        w.played.clone(),
                        place(&w.at),
                    ]
                })
                .collect(),
        });
    }
    let json = (format == Format::Json).then(|| json_line(d));
    Doc {
        title: format!("kifview report: {}", d.player),
        tables,
        charts: Vec::new(),
        json,
    }
}

/// `FILE +PLY [--record R]`: what opens the game at the move.
pub(super) fn place(a: &At) -> String {
    let mut t = Vec::new();
    shell_word(&mut t, &a.path);
    t.extend_from_slice(b" +");
    number(&mut t, a.ply);
    if a.record > 1 {
        t.extend_from_slice(b" --record ");
        number(&mut t, a.record);
    }
    // Not a file's text decoded again: the bytes `shell_word` just wrote, which are UTF-8
    // (a path's bytes that are not are written as `\xNN` escapes), so nothing is replaced.
    String::from_utf8_lossy(&t).into_owned()
}

/// `s` padded to `width` columns of a terminal (left or right).
fn pad(s: &str, width: usize, right: bool) -> String {
    let fill = " ".repeat(width.saturating_sub(s.width()));
    if right {
        format!("{fill}{s}")
    } else {
        format!("{s}{fill}")
    }
}

impl Doc {
    pub(super) fn text(&self) -> String {
        let mut t = format!("{}\n", sanitize(&self.title));
        for tab in &self.tables {
            let _ = write!(t, "\n{}\n", sanitize(&tab.title));
            let clean: Vec<Vec<String>> = tab
                .rows
                .iter()
                .map(|r| r.iter().map(|c| sanitize(c).into_owned()).collect())
                .collect();
            let heads = tab.columns.iter().any(|(c, _)| !c.is_empty());
            let widths: Vec<usize> = (0..tab.columns.len())
                .map(|i| {
                    clean
                        .iter()
                        .map(|r| r.get(i).map_or(0, |c| c.width()))
                        .chain([if heads { tab.columns[i].0.width() } else { 0 }])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let line = |cells: &[String]| {
                let mut l = cells
                    .iter()
                    .enumerate()
                    .map(|(i, c)| pad(c, widths[i], tab.columns[i].1))
                    .collect::<Vec<_>>()
                    .join("  ");
                l.truncate(l.trim_end().len());
                l + "\n"
            };
            if heads {
                let h: Vec<String> = tab.columns.iter().map(|c| c.0.clone()).collect();
                t.push_str(&line(&h));
            }
            for r in &clean {
                t.push_str(&line(r));
            }
        }
        t
    }

    fn csv(&self) -> String {
        let mut t = String::new();
        for (i, tab) in self.tables.iter().enumerate() {
            if i > 0 {
                t.push('\n');
            }
            let _ = writeln!(t, "{}", csv_cell(&tab.title));
            let head: Vec<String> = tab.columns.iter().map(|c| csv_cell(&c.0)).collect();
            let _ = writeln!(t, "{}", head.join(","));
            for r in &tab.rows {
                let row: Vec<String> = r.iter().map(|c| csv_cell(c)).collect();
                let _ = writeln!(t, "{}", row.join(","));
            }
        }
        t
    }

    fn markdown(&self) -> String {
        let mut t = format!("# {}\n", md_cell(&self.title));
        for tab in &self.tables {
            let _ = write!(t, "\n## {}\n\n", md_cell(&tab.title));
            let head: Vec<String> = tab.columns.iter().map(|c| md_cell(&c.0)).collect();
            let _ = writeln!(t, "| {} |", head.join(" | "));
            let rule: Vec<&str> = tab
                .columns
                .iter()
                .map(|c| if c.1 { "---:" } else { "---" })
                .collect();
            let _ = writeln!(t, "| {} |", rule.join(" | "));
            for r in &tab.rows {
                let row: Vec<String> = r.iter().map(|c| md_cell(c)).collect();
                let _ = writeln!(t, "| {} |", row.join(" | "));
            }
        }
        t
    }

    fn html(&self) -> String {
        let mut t =
            String::from("<!DOCTYPE html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n");
        let _ = writeln!(t, "<title>{}</title>", html_text(&self.title));
        t.push_str(
            "<style>body{font-family:sans-serif;margin:2em;color:#222}\
             table{border-collapse:collapse;margin:1em 0}\
             td,th{border:1px solid #bbb;padding:.2em .6em}td.n{text-align:right}\
             th{background:#eee}svg{display:block;margin:1em 0}</style>\n</head>\n<body>\n",
        );
        let _ = writeln!(t, "<h1>{}</h1>", html_text(&self.title));
        for tab in &self.tables {
            let _ = writeln!(t, "<h2>{}</h2>\n<table>", html_text(&tab.title));
            if tab.columns.iter().any(|c| !c.0.is_empty()) {
                t.push_str("<tr>");
                for c in &tab.columns {
                    let _ = write!(t, "<th>{}</th>", html_text(&c.0));
                }
                t.push_str("</tr>\n");
            }
            for r in &tab.rows {
                t.push_str("<tr>");
                for (i, c) in r.iter().enumerate() {
                    let class = if tab.columns.get(i).is_some_and(|c| c.1) {
                        " class=\"n\""
                    } else {
                        ""
                    };
                    let _ = write!(t, "<td{class}>{}</td>", html_text(c));
                }
                t.push_str("</tr>\n");
            }
            t.push_str("</table>\n");
        }
        for c in &self.charts {
            let _ = writeln!(t, "<h2>{}</h2>", html_text(&c.title));
            t.push_str(&svg_chart(c));
        }
        t.push_str("</body>\n</html>\n");
        t
    }
}

/// A horizontal bar chart as inline SVG.
fn svg_chart(c: &Chart) -> String {
    const LABEL: f64 = 220.0;
    const WIDTH: f64 = 420.0;
    const ROW: f64 = 22.0;
    let h = ROW * c.bars.len().max(1) as f64 + 10.0;
    let mut t = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{h}\" \
         role=\"img\" font-family=\"sans-serif\" font-size=\"13\">\n",
        LABEL + WIDTH + 80.0
    );
    let _ = writeln!(t, "<title>{}</title>", html_text(&c.title));
    for (i, (label, v)) in c.bars.iter().enumerate() {
        let y = 5.0 + i as f64 * ROW;
        let w = if c.max > 0.0 { WIDTH * v / c.max } else { 0.0 };
        let value = if c.percent { pct(*v) } else { format!("{v}") };
        let _ = writeln!(
            t,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{LABEL}\" y=\"{y}\" width=\"{w:.1}\" height=\"{}\" fill=\"#4a7ab5\"/>\
             <text x=\"{:.1}\" y=\"{}\">{}</text>",
            LABEL - 6.0,
            y + 15.0,
            html_text(&shorten(label, 30)),
            ROW - 6.0,
            LABEL + w + 4.0,
            y + 15.0,
            html_text(&value)
        );
    }
    if let Some(r) = c.rule {
        let x = LABEL + WIDTH * r / c.max.max(f64::MIN_POSITIVE);
        let _ = writeln!(
            t,
            "<line x1=\"{x:.1}\" y1=\"0\" x2=\"{x:.1}\" y2=\"{h}\" stroke=\"#c33\" \
             stroke-dasharray=\"4 3\"/>"
        );
    }
    t.push_str("</svg>\n");
    t
}

/// `s` cut to `n` characters (with `…`).
fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let mut out: String = s.chars().take(n - 1).collect();
    out.push('…');
    out
}

/// Text for HTML: control characters removed, `& < > " '` escaped.
fn html_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in sanitize(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A CSV field (RFC 4180): control characters removed, quoted when it holds a comma, a quote
/// or a line break; a field a spreadsheet would read as a formula (`=`, `+`, `-`, `@` first)
/// gets a `'` before it, unless it is a number.
fn csv_cell(s: &str) -> String {
    let mut v = sanitize(s).into_owned();
    let number = v.trim_end_matches('%').parse::<f64>().is_ok();
    if !number && v.starts_with(['=', '+', '-', '@']) {
        v.insert(0, '\'');
    }
    if v.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", v.replace('"', "\"\""))
    } else {
        v
    }
}

/// A Markdown table cell: control characters removed, `|`, `\`, `<`, `>` and the characters
/// that start emphasis or code escaped.
fn md_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in sanitize(s).chars() {
        match c {
            '|' | '\\' | '*' | '_' | '`' | '[' | ']' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untrusted_text_is_escaped_in_every_format() {
        assert_eq!(
            html_text("<script>alert('x')</script>&"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;"
        );
        assert_eq!(csv_cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_cell("-12.5%"), "-12.5%");
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(md_cell("a|b<i>"), "a\\|b&lt;i&gt;");
        assert!(!html_text("x\u{1b}[31m").contains('\u{1b}'));
    }
}
