//! The rules `src/lib.rs` states about the layers, checked on the source text (`core` is the
//! crate `crates/kifview-core`, read here as the module `core` beside those of `src/`):
//! - `core` and `app` never name a terminal crate, and `core` depends on the crates `lib.rs`'s
//!   table names and no other (the compiler then holds `core` to naming only itself and them);
//! - `core` names only `core`; the library modules (everything but `app`, `tui`, `cli` and
//!   `main`) never name `app`, `tui` or `cli`; `app` never names `tui`, `cli` or `main`;
//! - `std::fs` appears in `app` only under `app/document/`;
//! - no cycles between the files of `src/` (a parent naming its own children is structure);
//! - in `app` and `tui`, no file over 600 lines of code outside tests and no function over
//!   80 lines (`LONG_FUNCTIONS` lists the ones that were longer when the rule came, each at
//!   most as long as it was then; a listed function that shrinks below the limit must leave
//!   the list).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[test]
fn core_and_app_never_mention_terminal_crates() {
    let mut stack = vec![core_src(), src_dir().join("app")];
    let mut checked = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap().to_lowercase();
                for bad in ["ratatui", "crossterm"] {
                    assert!(!text.contains(bad), "{} mentions {bad}", p.display());
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} files found");
}

/// The crate names in the `[dependencies]` table of a `Cargo.toml`.
fn dependencies_of(manifest: &str) -> BTreeSet<String> {
    let mut in_deps = false;
    let mut names = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
        } else if in_deps && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap_or("").trim();
            names.insert(name.to_string());
        }
    }
    names
}

#[test]
fn core_depends_on_the_crates_lib_rs_names_and_no_other() {
    let manifest = core_src().parent().unwrap().join("Cargo.toml");
    let deps = dependencies_of(&std::fs::read_to_string(&manifest).unwrap());
    let lib = std::fs::read_to_string(src_dir().join("lib.rs")).unwrap();
    let row = lib
        .lines()
        .find(|l| l.starts_with("//! | [`core`]"))
        .expect("lib.rs's layer table has a row for core");
    let uses = row.trim_end_matches('|').rsplit('|').next().unwrap();
    let named: BTreeSet<String> = uses
        .split(',')
        .map(|c| c.trim().trim_matches('`').to_string())
        .filter(|c| c != "std")
        .collect();
    assert!(
        deps.len() >= 2,
        "only {deps:?} read from {}",
        manifest.display()
    );
    assert_eq!(deps, named, "core's Cargo.toml against lib.rs's table");
    for bad in ["ratatui", "crossterm", "rusqlite", "resvg", "kifview"] {
        assert!(!deps.contains(bad), "core depends on {bad}");
    }
}

/// `src/` of the main crate.
fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// `src/` of the core crate (re-exported by the main crate as `core`).
fn core_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/kifview-core/src")
}

/// The module path of a source file (`src/app/state.rs` is `app::state`, `src/app/mod.rs`
/// is `app`; the core crate's files are under `core`: its `src/record/mod.rs` is
/// `core::record`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let core = core_src();
    let (root, prefix) = match file.strip_prefix(&core) {
        Ok(_) => (core.as_path(), vec!["core".to_string()]),
        Err(_) => (src, Vec::new()),
    };
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let mut m: Vec<String> = prefix;
    m.extend(
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if matches!(m.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        m.pop();
    }
    m
}

/// The text without `#[cfg(test)] mod … { … }` blocks and `//` comments.
fn code_outside_tests(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let Some(open) = after.find('{').filter(|&o| after[..o].contains("mod ")) else {
            out.push_str("#[cfg(test)]");
            rest = &after["#[cfg(test)]".len()..];
            continue;
        };
        rest = &after[block_end(after, open)..];
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where the block opening at `open` (a `{`) ends: just past its matching `}` (the end of
/// the text when it has none).
fn block_end(text: &str, open: usize) -> usize {
    let mut depth = 0;
    for (k, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + k + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// Every path a `use` tree names: `super::{a, b::{c, d}}` is `super::a`, `super::b::c`,
/// `super::b::d`.
fn expand_use(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    match tree.find('{') {
        None => out.push(format!("{prefix}{tree}")),
        Some(i) => {
            let head = format!("{prefix}{}", &tree[..i]);
            let inner = &tree[i + 1..tree.rfind('}').unwrap_or(tree.len())];
            let (mut depth, mut start) = (0, 0);
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand_use(&head, &inner[start..k], out);
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            if !inner[start..].trim().is_empty() {
                expand_use(&head, &inner[start..], out);
            }
        }
    }
}

/// The crate paths a file names: its `use` trees and the `crate::`/`super::` paths in code.
fn named_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for stmt in code.split(';') {
        // Past attributes (`#[allow(...)]`) to the statement itself.
        let mut s = stmt.trim_start();
        while s.starts_with("#[") {
            s = s.find(']').map_or("", |e| s[e + 1..].trim_start());
        }
        let s = s.strip_prefix("pub(crate) ").unwrap_or(s);
        let s = s.strip_prefix("pub ").unwrap_or(s);
        if let Some(tree) = s.strip_prefix("use ") {
            expand_use("", tree, &mut out);
        }
    }
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(start) {
            let prev = code[..i].chars().last();
            if prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let end = code[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| i + e);
            out.push(code[i..end].trim_end_matches(':').to_string());
        }
    }
    out
}

/// The module a path in `from` refers to: the longest known prefix.
fn resolve(
    from: &[String],
    path: &str,
    known: &std::collections::BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
    let (mut base, rest) = match parts.first().copied() {
        // `crate` in the core crate is `core`.
        Some("crate") if layer(from) == "core" => (vec!["core".to_string()], &parts[1..]),
        Some("crate") => (Vec::new(), &parts[1..]),
        Some("self") => (from.to_vec(), &parts[1..]),
        Some("super") => {
            // `super` is the parent of the file's module; each further `super` one more up.
            let ups = parts.iter().take_while(|&&p| p == "super").count();
            let keep = from.len().saturating_sub(ups);
            (from[..keep].to_vec(), &parts[ups..])
        }
        _ => return None,
    };
    base.extend(rest.iter().map(|p| p.to_string()));
    (1..=base.len())
        .rev()
        .map(|k| base[..k].to_vec())
        .find(|m| known.contains(m))
}

/// Every `.rs` file under `src/` and the core crate's `src/`.
fn source_files() -> (PathBuf, Vec<PathBuf>) {
    let src = src_dir();
    let mut files = Vec::new();
    let mut stack = vec![src.clone(), core_src()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    (src, files)
}

/// A file of tests only (`tests.rs`, `*_tests.rs`, included under `#[cfg(test)]`).
fn is_test_file(f: &Path) -> bool {
    let name = f
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    name == "tests" || name.ends_with("_tests")
}

fn layer(m: &[String]) -> &str {
    m.first().map_or("lib", String::as_str)
}

/// Which layers a file of layer `from` may not name (`lib.rs`'s table).
fn forbidden(from: &str, to: &str) -> bool {
    match from {
        "core" => to != "core",
        "app" => matches!(to, "tui" | "cli" | "main"),
        "tui" => matches!(to, "cli" | "main"),
        "cli" | "main" | "lib" => false,
        // The library modules: engine, convert, store, analyze, collection, ...
        _ => matches!(to, "app" | "tui" | "cli" | "main"),
    }
}

/// The module graph of `src/` (each file's module and the modules it names), after checking
/// every file against `check`.
fn module_graph(
    mut check: impl FnMut(&Path, &[String], &str),
) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let (src, files) = source_files();
    let known: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut edges = BTreeMap::new();
    for f in &files {
        let m = module_of(&src, f);
        let code = code_outside_tests(&blank_literals(&std::fs::read_to_string(f).unwrap()));
        check(f, &m, &code);
        let deps: BTreeSet<Vec<String>> = named_paths(&code)
            .iter()
            .filter_map(|p| resolve(&m, p, &known))
            // A parent naming its own children (re-exports, `mod` wiring) is structure.
            .filter(|d| *d != m && !(d.len() > m.len() && d[..m.len()] == m[..]))
            .collect();
        edges.insert(m, deps);
    }
    assert!(edges.len() > 100, "only {} files", edges.len());
    edges
}

#[test]
fn every_layer_names_only_the_layers_it_may_use() {
    let mut broken = Vec::new();
    let edges = module_graph(|_, _, _| {});
    for (m, deps) in &edges {
        for d in deps {
            if forbidden(layer(m), layer(d)) {
                broken.push(format!(
                    "{} ({}) names {}",
                    m.join("::"),
                    layer(m),
                    d.join("::")
                ));
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

#[test]
fn only_app_document_touches_the_disk_in_app() {
    let mut broken = Vec::new();
    module_graph(|f, m, code| {
        let in_app = layer(m) == "app";
        let in_document = m.get(1).is_some_and(|s| s == "document");
        if in_app && !in_document && !is_test_file(f) {
            let uses_fs = named_paths(code).iter().any(|p| p.starts_with("std::fs"))
                || code.contains("std::fs");
            if uses_fs {
                broken.push(f.display().to_string());
            }
        }
    });
    assert!(
        broken.is_empty(),
        "std::fs outside app/document/: {broken:#?}"
    );
}

#[test]
fn no_file_of_src_imports_itself_through_a_cycle() {
    let edges = module_graph(|_, _, _| {});
    let mut cycles = Vec::new();
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&Vec<String>> = edges[start].iter().collect();
        while let Some(m) = todo.pop() {
            if m == start {
                cycles.push(start.join("::"));
                break;
            }
            if seen.insert(m.clone()) {
                todo.extend(edges.get(m).into_iter().flatten());
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "these import themselves through a cycle: {cycles:#?}"
    );
}

/// Functions of `app` and `tui` that were over 80 lines when the limit came, and their
/// length then (file, function, lines): none may grow, and each leaves the list once split.
const LONG_FUNCTIONS: &[(&str, &str, usize)] = &[];
/// Files of `app` and `tui` over 600 lines of code when the limit came (file, lines then).
const LARGE_FILES: &[(&str, usize)] = &[];
const MAX_FUNCTION: usize = 80;
const MAX_FILE: usize = 600;

/// Lines that are not blank.
fn lines_of(code: &str) -> usize {
    code.lines().filter(|l| !l.trim().is_empty()).count()
}

/// Each function with a body: its name and its lines (signature to closing brace).
fn functions(code: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for (i, _) in code.match_indices("fn ") {
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let name: String = code[i + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Some(open) = code[i..].find(['{', ';']).map(|k| i + k) else {
            continue;
        };
        if name.is_empty() || bytes[open] == b';' {
            continue;
        }
        out.push((name, lines_of(&code[i..block_end(code, open)])));
    }
    out
}

#[test]
fn files_and_functions_of_app_and_tui_stay_small() {
    let (src, files) = source_files();
    let root = src.parent().unwrap();
    let mut broken = Vec::new();
    let mut listed_seen = BTreeSet::new();
    for f in &files {
        let m = module_of(&src, f);
        if !matches!(layer(&m), "app" | "tui") || is_test_file(f) {
            continue;
        }
        let rel = f.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        let code = code_outside_tests(&blank_literals(&std::fs::read_to_string(f).unwrap()));
        let lines = lines_of(&code);
        let limit = LARGE_FILES
            .iter()
            .find(|(p, _)| *p == rel)
            .map_or(MAX_FILE, |l| l.1);
        if lines > limit {
            broken.push(format!("{rel} has {lines} lines of code (at most {limit})"));
        }
        for (name, n) in functions(&code) {
            let listed = LONG_FUNCTIONS
                .iter()
                .find(|(p, f, _)| *p == rel && *f == name);
            if let Some(l) = listed {
                listed_seen.insert((l.0, l.1));
                if n <= MAX_FUNCTION {
                    broken.push(format!(
                        "{rel}: {name} is {n} lines now: take it off LONG_FUNCTIONS"
                    ));
                }
            }
            let limit = listed.map_or(MAX_FUNCTION, |l| l.2);
            if n > limit {
                broken.push(format!("{rel}: fn {name} has {n} lines (at most {limit})"));
            }
        }
    }
    for (p, f, _) in LONG_FUNCTIONS {
        if !listed_seen.contains(&(*p, *f)) {
            broken.push(format!("{p}: {f} is gone: take it off LONG_FUNCTIONS"));
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

/// The text with the insides of string and character literals and of comments blanked (line
/// breaks kept), so that braces and `//` in them count for nothing.
fn blank_literals(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let keep_breaks = |from: &[char], out: &mut String| {
        out.extend(from.iter().filter(|&&ch| ch == '\n'));
    };
    while i < c.len() {
        let ident_before = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let start = i;
            i += 2;
            while i < c.len() && !(c[i] == '*' && c.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i = (i + 2).min(c.len());
            keep_breaks(&c[start..i], &mut out);
        } else if !ident_before && (c[i] == 'r' || (c[i] == 'b' && c.get(i + 1) == Some(&'r'))) && {
            let k = i + if c[i] == 'b' { 2 } else { 1 };
            let hashes = c[k..].iter().take_while(|&&ch| ch == '#').count();
            c.get(k + hashes) == Some(&'"')
        } {
            let k = i + if c[i] == 'b' { 2 } else { 1 };
            let hashes = c[k..].iter().take_while(|&&ch| ch == '#').count();
            let start = i;
            i = k + hashes + 1;
            while i < c.len()
                && !(c[i] == '"'
                    && c[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes)
            {
                i += 1;
            }
            i = (i + 1 + hashes).min(c.len());
            out.push_str("\"\"");
            keep_breaks(&c[start..i], &mut out);
        } else if c[i] == '"' {
            let start = i;
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(c.len());
            out.push_str("\"\"");
            keep_breaks(&c[start..i.min(c.len())], &mut out);
        } else if c[i] == '\'' && c.get(i + 1) == Some(&'\\') {
            // '\n', '\'', '\u{..}'
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Fields of `App` (in `src/app/state.rs`): their names and what visibility each declares
/// (`""` for private).
fn app_fields() -> Vec<(String, String)> {
    let (src, _) = source_files();
    let text = blank_literals(&std::fs::read_to_string(src.join("app/state.rs")).unwrap());
    let start = text.find("pub struct App {").expect("App in app/state.rs");
    let open = start + text[start..].find('{').unwrap();
    let body = &text[open + 1..block_end(&text, open) - 1];
    let mut fields = Vec::new();
    let mut depth = 0i32;
    for line in body.lines() {
        let t = line.trim();
        if depth == 0 && !t.is_empty() && !t.starts_with('#') {
            let (vis, rest) = match t.strip_prefix("pub") {
                Some(r) if r.starts_with('(') => {
                    let close = r.find(')').unwrap();
                    (format!("pub{}", &r[..=close]), r[close + 1..].trim_start())
                }
                Some(r) => ("pub".to_string(), r.trim_start()),
                None => (String::new(), t),
            };
            if let Some((name, _)) = rest.split_once(':') {
                fields.push((name.trim().to_string(), vis));
            }
        }
        depth += line.matches(['{', '(', '<']).count() as i32;
        depth -= line.matches(['}', ')', '>']).count() as i32;
    }
    fields
}

/// `App` keeps what the screen needs, and only the app layer changes it: tests, benches and
/// the front end go through its methods (the ones users' keys run), never around the
/// history. A field may be private or `pub(super)` (the app layer's), never `pub` or
/// `pub(crate)`; at most 15 of them (what lives and dies with the record is in `Document`).
#[test]
fn app_fields_are_few_and_the_app_layers_own() {
    let fields = app_fields();
    assert!(
        fields.len() > 5,
        "the App fields were not found: {fields:?}"
    );
    let open: Vec<_> = fields
        .iter()
        .filter(|(_, vis)| !vis.is_empty() && vis != "pub(super)")
        .collect();
    assert!(open.is_empty(), "App fields visible outside app: {open:?}");
    assert!(
        fields.len() <= 15,
        "App has {} fields (at most 15): {fields:?}",
        fields.len()
    );
}

/// The variants of `pub enum $name` in `src/app/overlay/mod.rs`.
fn overlay_variants(name: &str) -> Vec<String> {
    let (src, _) = source_files();
    let text = std::fs::read_to_string(src.join("app/overlay/mod.rs")).unwrap();
    let code = code_outside_tests(&text);
    let open = code.find(&format!("pub enum {name} {{")).expect("the enum") + 10 + name.len();
    let body = &code[open..block_end(&code, open)];
    body.lines()
        .map(str::trim)
        .filter_map(|l| {
            let v: String = l.chars().take_while(|c| c.is_alphanumeric()).collect();
            (v.chars().next().is_some_and(char::is_uppercase)).then_some(v)
        })
        .collect()
}

/// A new overlay teaches its behaviour to nothing but its own state (`OverlayState`): the
/// only files that name every kind of overlay are the app's one `match` (`Overlay::state`)
/// and the front end's (`tui::ui`, which picks the widget); none names every `Mode`.
/// Planted once: a `match` over every `Overlay` variant in `tui/widgets/status.rs` failed it.
#[test]
fn only_two_files_match_on_every_overlay() {
    let (src, files) = source_files();
    let root = src.parent().unwrap();
    for (name, allowed) in [
        ("Overlay", &["src/app/overlay/mod.rs", "src/tui/ui.rs"][..]),
        ("Mode", &[][..]),
    ] {
        let variants = overlay_variants(name);
        assert!(variants.len() >= 10, "{name}: {variants:?}");
        let naming_all: Vec<String> = files
            .iter()
            .filter(|f| !is_test_file(f))
            .filter(|f| {
                let code = code_outside_tests(&std::fs::read_to_string(f).unwrap());
                variants
                    .iter()
                    .all(|v| code.contains(&format!("{name}::{v}")))
            })
            .map(|f| f.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(naming_all, allowed, "files that name every {name}");
    }
}
