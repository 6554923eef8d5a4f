//! Helpers shared by the format tests: the corpus location, the expected-JSON comparison
//! (schema in ../shared/corpus/README.md) and record equality for round trips.
#![allow(dead_code)] // each test binary uses its own subset

use kifview::core::notation::encoding::{TextEncoding, decode};
use kifview::core::record::{MoveTime, NodeId, Record, Step};
use kifview::tui::Viewer;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn corpus() -> Option<PathBuf> {
    // `../shared/corpus` from the main checkout; worktrees live one level deeper.
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = ["../shared/corpus", "../../shared/corpus"]
        .iter()
        .map(|r| base.join(r))
        .find(|p| p.is_dir());
    if found.is_none() {
        let at = base.join("../shared/corpus");
        assert!(
            std::env::var_os("KIFVIEW_REQUIRE_CORPUS").is_none_or(|v| v != "1"),
            "corpus not found at {} and KIFVIEW_REQUIRE_CORPUS=1",
            at.display()
        );
        println!("corpus not found at {}: skipped", at.display());
    }
    found
}

/// The corpus file `rel` (a path under the corpus's root), or `None` when the corpus is not
/// here (a failure under `KIFVIEW_REQUIRE_CORPUS=1`, as [`corpus`] says). A corpus without the
/// file is a failure, never a skip: every test that reads the corpus finds it through these two.
pub fn corpus_file(rel: &str) -> Option<PathBuf> {
    let path = corpus()?.join(rel);
    assert!(
        path.exists(),
        "{} is missing from the corpus",
        path.display()
    );
    Some(path)
}

pub fn files_with_ext(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_with_ext(&p, exts, out);
        } else if let Some(e) = p.extension().and_then(|e| e.to_str())
            && exts.contains(&e)
        {
            out.push(p);
        }
    }
}

/// A file bundled in `assets/` (the samples the README opens).
pub fn asset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(name)
}

/// The viewer as `kifview` starts it with these options (default config, no colours).
pub fn viewer_with(opts: &kifview::app::LaunchOptions) -> Viewer {
    let app = kifview::app::App::open(opts, kifview::app::Config::defaults()).unwrap();
    Viewer::new(app, kifview::tui::theme::Theme::plain())
}

/// The viewer on `path`, at move `ply` when given (`kifview PATH +N`).
pub fn viewer_on(path: &Path, ply: Option<u32>) -> Viewer {
    viewer_with(&kifview::app::LaunchOptions {
        file: Some(path.to_path_buf()),
        ply,
        ..Default::default()
    })
}

/// What a finished command wrote to standard error.
pub fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn read_file(p: &Path) -> String {
    let bytes = std::fs::read(p).unwrap();
    decode(&bytes, TextEncoding::ShiftJis).text
}

pub fn norm_comment(c: &str) -> String {
    norm_comment_lines(c, false)
}

/// Comment lines with trailing (full-width) spaces and trailing empty lines removed; with
/// `skip_empty`, every empty line (CSA cannot hold them).
pub fn norm_comment_lines(c: &str, skip_empty: bool) -> String {
    let mut lines: Vec<&str> = c
        .split('\n')
        .map(|l| l.trim_end_matches(|ch: char| ch.is_whitespace() || ch == '\u{3000}'))
        .collect();
    if skip_empty {
        lines.retain(|l| !l.is_empty());
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

/// The plain `'` comment lines of a CSA file (`'rating:…`, `'summary:…`; not `'*` comments, not
/// the encoding line), as kifview keeps them: with their quote.
pub fn plain_csa_comments(text: &str) -> std::collections::HashSet<String> {
    // A comment takes the rest of its line, after statements joined by `,` (`+7776FU,'x`).
    let comment = |line: &str| -> Option<String> {
        let mut rest = line;
        loop {
            let s = rest.trim_start();
            if s.starts_with('\'') {
                return Some(s.to_string());
            }
            rest = &s[s.find(',')? + 1..];
        }
    };
    text.lines()
        .filter_map(comment)
        .filter(|c| !c.starts_with("'*") && !c.contains("encoding="))
        .collect()
}

/// `r` without the comment lines in `plain`: kifview keeps CSA plain comments where the
/// reference reader of the corpus drops them.
pub fn without_comment_lines(r: &Record, plain: &std::collections::HashSet<String>) -> Record {
    let mut r = r.clone();
    if plain.is_empty() {
        return r;
    }
    for n in &mut r.nodes {
        if n.comment.split('\n').any(|l| plain.contains(l)) {
            n.comment = n
                .comment
                .split('\n')
                .filter(|l| !plain.contains(*l))
                .collect::<Vec<_>>()
                .join("\n");
        }
    }
    r
}

/// The line from `from` to its end as USI moves, specials as their KIF words (`投了`).
pub fn usi_line(r: &Record, from: NodeId) -> Vec<String> {
    r.line_from(from)
        .into_iter()
        .filter_map(|n| match &r.node(n).step {
            Step::Move(m) => Some(m.mv.usi()),
            Step::Special(s) => Some(s.kif_word().to_string()),
            Step::Root => None,
        })
        .collect()
}

/// What a `TestBackend` shows, one string per row, wide characters once.
pub fn screen_rows(t: &Terminal<TestBackend>) -> Vec<String> {
    let buf = t.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            let mut s = String::new();
            let mut skip = 0;
            for x in 0..buf.area.width {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let sym = buf[(x, y)].symbol();
                skip = unicode_width::UnicodeWidthStr::width(sym).saturating_sub(1);
                s.push_str(sym);
            }
            s
        })
        .collect()
}

/// The status line's rows (one, or more when a long message has rows of its own), joined.
pub fn status_rows(v: &Viewer, rows: &[String], w: u16) -> String {
    let h = kifview::tui::widgets::status::status_height(&v.app, &v.theme, w) as usize;
    rows[rows.len() - h..].join("\n")
}

/// Draws the viewer on a `w`x`h` test terminal.
pub fn screen(v: &mut Viewer, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| v.draw(f)).unwrap();
    t
}

/// Compares a record with an expected JSON (corpus schema); `times` also compares seconds.
pub fn compare(record: &Record, exp: &Value, times: bool) -> Result<(), String> {
    let sfen = record.initial.position.to_sfen();
    if exp["initial_sfen"].as_str() != Some(sfen.as_str()) {
        return Err(format!("initial {sfen} != {}", exp["initial_sfen"]));
    }
    let black = record.header.black_name().unwrap_or("");
    let white = record.header.white_name().unwrap_or("");
    if exp["players"]["black"].as_str() != Some(black)
        || exp["players"]["white"].as_str() != Some(white)
    {
        return Err(format!("players {black}/{white} != {}", exp["players"]));
    }
    let root = record.node(NodeId::ROOT);
    let ec = exp["tree"]["comment"].as_str().unwrap_or("");
    if norm_comment(&root.comment) != norm_comment(ec) {
        return Err(format!("root comment {:?} != {:?}", root.comment, ec));
    }
    let empty = Vec::new();
    // (parent, expected line, index of the line's first node among the parent's children)
    let mut todo: Vec<(NodeId, &Vec<Value>, usize)> = vec![(
        NodeId::ROOT,
        exp["tree"]["moves"].as_array().unwrap_or(&empty),
        0,
    )];
    while let Some((mut parent, line, start)) = todo.pop() {
        for (i, en) in line.iter().enumerate() {
            let idx = if i == 0 { start } else { 0 };
            let kids = &record.node(parent).children;
            let id = *kids
                .get(idx)
                .ok_or_else(|| format!("ply {}: missing node (branch {idx})", en["ply"]))?;
            let node = record.node(id);
            let (usi, special) = match &node.step {
                Step::Move(m) => (Some(m.mv.usi()), None),
                Step::Special(s) => (None, Some(s.json_name())),
                Step::Root => (None, None),
            };
            if en["usi"].as_str().map(str::to_string) != usi
                || en["special"].as_str().map(str::to_string) != special
            {
                return Err(format!(
                    "ply {}: {:?}/{:?} != {}/{}",
                    en["ply"], usi, special, en["usi"], en["special"]
                ));
            }
            let c = en["comment"].as_str().unwrap_or("");
            if norm_comment(&node.comment) != norm_comment(c) {
                return Err(format!(
                    "ply {} comment {:?} != {:?}",
                    en["ply"], node.comment, c
                ));
            }
            if times && let Some(t) = en["time"].as_u64() {
                // A node without a time reads as 0 s where the record has times.
                let got = node.time.map_or(0, |t| t.spent_ms / 1000);
                if got != t {
                    return Err(format!("ply {} time {:?} != {t}", en["ply"], got));
                }
            }
            let variations = en["variations"].as_array().unwrap_or(&empty);
            if idx == 0 {
                if kids.len() != 1 + variations.len() {
                    return Err(format!(
                        "ply {}: {} branches != {}",
                        en["ply"],
                        kids.len(),
                        variations.len() + 1
                    ));
                }
                for (k, v) in variations.iter().enumerate() {
                    todo.push((parent, v.as_array().unwrap_or(&empty), k + 1));
                }
            }
            parent = id;
        }
        if !line.is_empty()
            && let Some(&extra) = record.node(parent).children.first()
        {
            return Err(format!(
                "extra node after ply {}: {:?}",
                record.node(parent).ply,
                record.node(extra).step
            ));
        }
    }
    Ok(())
}

pub fn expected_for(p: &Path) -> Option<Value> {
    // generated: NAME.ki2 -> NAME.expected.json; real: FILE -> FILE.expected.json
    let real = PathBuf::from(format!("{}.expected.json", p.display()));
    let gen_ = p.with_extension("expected.json");
    let path = if real.exists() { real } else { gen_ };
    let text = std::fs::read_to_string(path).ok()?;
    let mut v = serde_json::from_str(&text).ok()?;
    counted_mate_is_mate(&mut v);
    Some(v)
}

/// The expected JSON keeps `まで61手詰` as an unknown ending (`other:61手詰`); it says the last
/// move mates, and kifview reads it as 詰み, as json-kifu-format does (issue 19). Every
/// `special` of that form in `v` becomes `mate`.
pub fn counted_mate_is_mate(v: &mut Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(s)) = m.get_mut("special")
                    && let Some(w) = s.strip_prefix("other:")
                    && w.ends_with("手詰")
                    && w.trim_end_matches("手詰")
                        .chars()
                        .all(|c| c.is_ascii_digit())
                {
                    *s = "mate".into();
                }
                stack.extend(m.values_mut());
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
}

pub fn check_tree_equal(a: &Record, b: &Record) -> Result<(), String> {
    if a.initial.position.to_sfen() != b.initial.position.to_sfen() {
        return Err("initial position differs".into());
    }
    let (pa, pb) = (a.preorder(), b.preorder());
    if pa.len() != pb.len() {
        return Err(format!("{} nodes != {} nodes", pa.len(), pb.len()));
    }
    for (&x, &y) in pa.iter().zip(&pb) {
        let (nx, ny) = (a.node(x), b.node(y));
        if nx.step != ny.step || nx.children.len() != ny.children.len() || nx.ply != ny.ply {
            return Err(format!(
                "node at ply {} differs: {:?} / {:?}",
                nx.ply, nx.step, ny.step
            ));
        }
        if norm_comment(&nx.comment) != norm_comment(&ny.comment) {
            return Err(format!("comment at ply {} differs", nx.ply));
        }
        if nx.bookmark != ny.bookmark {
            return Err(format!("bookmark at ply {} differs", nx.ply));
        }
    }
    if a.header != b.header {
        return Err(format!("headers differ: {:?} / {:?}", a.header, b.header));
    }
    Ok(())
}

pub fn check_times_equal(a: &Record, b: &Record) -> Result<(), String> {
    for (&x, &y) in a.preorder().iter().zip(&b.preorder()) {
        let (tx, ty) = (a.node(x).time, b.node(y).time);
        let secs =
            |t: Option<MoveTime>| t.map(|t| (t.spent_ms / 1000, t.total_ms.map(|v| v / 1000)));
        if secs(tx) != secs(ty) {
            return Err(format!(
                "time at ply {}: {:?} != {:?}",
                a.node(x).ply,
                tx,
                ty
            ));
        }
    }
    Ok(())
}

/// Sends one key to the viewer.
pub fn key(v: &mut Viewer, code: KeyCode, mods: KeyModifiers) {
    v.handle(&Event::Key(KeyEvent::new(code, mods)));
}

/// Presses keys: `→←↓↑` arrows, `⏎` Enter, `⎋` Esc, `⌫` Backspace, `⇥` Tab, `^x` Ctrl-x; anything
/// else is typed as a character.
pub fn press(v: &mut Viewer, keys: &str) {
    let mut chars = keys.chars();
    while let Some(c) = chars.next() {
        let (code, mods) = match c {
            '→' => (KeyCode::Right, KeyModifiers::NONE),
            '←' => (KeyCode::Left, KeyModifiers::NONE),
            '↓' => (KeyCode::Down, KeyModifiers::NONE),
            '↑' => (KeyCode::Up, KeyModifiers::NONE),
            '⏎' => (KeyCode::Enter, KeyModifiers::NONE),
            '⎋' => (KeyCode::Esc, KeyModifiers::NONE),
            '⌫' => (KeyCode::Backspace, KeyModifiers::NONE),
            '⇥' => (KeyCode::Tab, KeyModifiers::NONE),
            '^' => (
                KeyCode::Char(chars.next().expect("a key after ^")),
                KeyModifiers::CONTROL,
            ),
            c => (KeyCode::Char(c), KeyModifiers::NONE),
        };
        key(v, code, mods);
    }
}

/// The installed engine called `name`, or `None` after printing that the test skips; with
/// `KIFVIEW_REQUIRE_ENGINES=1` (set by `.ci/run`) a missing engine fails the test instead.
pub fn engine_or_skip(name: &str) -> Option<kifview::engine::EngineSpec> {
    match kifview::engine::resolve(Some(name), &[]) {
        Ok(spec) => Some(spec),
        Err(e) => {
            assert!(
                std::env::var("KIFVIEW_REQUIRE_ENGINES").as_deref() != Ok("1"),
                "KIFVIEW_REQUIRE_ENGINES=1 but {name} is missing: {e}"
            );
            eprintln!(
                "skipped: {name} is not installed (apt-get install fairy-stockfish gpsshogi)"
            );
            None
        }
    }
}

// ----- files of several records (CSA `/`) -----

/// Five records from the generated corpus (g4242_001..005), joined with `/` lines.
pub fn five_records(dir: &tempfile::TempDir, crlf: bool) -> (PathBuf, String) {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/csa/valid/five_records.csa");
    let mut text = std::fs::read_to_string(src).unwrap();
    if crlf {
        text = text.replace('\n', "\r\n");
    }
    let path = dir.path().join("five.csa");
    std::fs::write(&path, &text).unwrap();
    (path, text)
}

/// The text of each record of a file, `/` lines included (as the file was cut).
pub fn pieces(text: &str) -> Vec<String> {
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let sep = format!("{nl}/{nl}");
    let mut out: Vec<String> = text.split(&sep).map(|p| format!("{p}{sep}")).collect();
    let last = out.pop().unwrap();
    out.push(last.strip_suffix(&sep).unwrap().to_string());
    out
}

pub fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn analyst() -> String {
    manifest()
        .join("tests/fixtures/engines/analyst.sh")
        .display()
        .to_string()
}

/// `kifview analyze` with the fake engine (`tests/fixtures/engines/analyst.sh`), its counters in `state`.
pub fn analyze(state: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("kifview").expect("binary built");
    c.env("ANALYST_STATE", state)
        .args(["analyze", "--engine", &analyst()]);
    c
}

/// Runs the app's turns (`App::collection_tick`, as the run loop does between keys) until
/// `done` holds: an index changed from outside is seen when the viewer's threads look, so
/// this waits for that event, with a generous limit so that a broken build fails instead of
/// hanging.
pub fn tick_until(v: &mut Viewer, what: &str, mut done: impl FnMut(&mut Viewer) -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        v.app.collection_tick();
        v.app.library_settle();
        if done(v) {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "never {what}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
