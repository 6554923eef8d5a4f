//! The rules `src/lib.rs` states about the layers, checked on the source text (`core` is the
//! crate `crates/kifview-core`, read here as the module `core` beside those of `src/`):
//! - `core` depends on the crates `lib.rs`'s table names and no other (the compiler then holds
//!   `core` to naming only itself and them);
//! - only `tui`, `cli` and `main.rs` name a terminal crate;
//! - each layer names only the layers its row of the table says it uses (`allowed`);
//! - `std::fs` appears in `app` only under `app/document/`;
//! - no files use each other round a loop that the module file holding them all is not on (a
//!   folder's `mod.rs` and its parts may use each other; its parts round a loop without it
//!   may not): a file uses the file that defines what it names, a path led through
//!   re-exports (`crate::app::App` is `app/state.rs`'s); a parent's use of its children
//!   counts, `stack::Overlay` in `overlay/mod.rs`, and so does a name it re-exports and uses
//!   itself; `mod x;` and a re-export alone, `pub use`, do not; with no exception (the ten
//!   uses that closed loops when the rule came are all cut);
//! - only `Host for App` (`app/overlay/mod.rs`, `Overlay::state`/`state_mut`) and `tui::ui`
//!   name every kind of overlay;
//! - drawing writes nothing back into the app, and workers and the engine reach the run loop
//!   as events;
//! - `App` has at most 15 fields, none visible outside `app`;
//! - in `app` and `tui`, no file over 600 lines of code outside tests and no function over
//!   80 lines (`LONG_FUNCTIONS` lists the ones that were longer when the rule came, each at
//!   most as long as it was then; a listed function that shrinks below the limit must leave
//!   the list).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Only the front end (`tui`) and the binary (`main.rs`, `cli`) name a terminal crate.
#[test]
fn only_the_front_end_and_the_binary_name_a_terminal_crate() {
    let (src, files) = source_files();
    let mut broken = Vec::new();
    for f in &files {
        if matches!(layer(&module_of(&src, f)), "tui" | "cli" | "main") {
            continue;
        }
        let code = blank_literals(&std::fs::read_to_string(f).unwrap());
        for bad in ["ratatui", "crossterm"] {
            if code.contains(bad) {
                broken.push(format!("{} names {bad}", f.display()));
            }
        }
    }
    assert!(files.len() > 100, "only {} files found", files.len());
    assert!(broken.is_empty(), "{broken:#?}");
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
/// `core::record`, its `src/lib.rs` `core`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let core = core_src();
    let (root, mut m) = match file.strip_prefix(&core) {
        Ok(_) => (core.as_path(), vec!["core".to_string()]),
        Err(_) => (src, Vec::new()),
    };
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    m.extend(
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    // `main.rs` is the binary's root, `main`; `lib.rs` the library's, the empty path.
    if matches!(m.last().map(String::as_str), Some("mod" | "lib")) {
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

/// A path a file names, and whether it names it only to re-export it (`pub use child::X;`:
/// structure, the module's interface, not a use).
#[derive(Debug)]
struct Named {
    path: String,
    reexport: bool,
}

/// The `use` statements of `code` (past attributes), each with whether it is `pub` (any
/// `pub(..)`): the statement's text from `use`, and the code without the `pub` ones.
fn use_statements(code: &str) -> (Vec<(bool, String)>, String) {
    let mut uses = Vec::new();
    let mut body = String::new();
    for stmt in code.split_inclusive(';') {
        let mut s = stmt.trim_start();
        while s.starts_with("#[") {
            s = s.find(']').map_or("", |e| s[e + 1..].trim_start());
        }
        let (public, s) = match s.strip_prefix("pub") {
            Some(r) if r.starts_with('(') => {
                (true, r[r.find(')').map_or(0, |c| c + 1)..].trim_start())
            }
            Some(r) if r.starts_with(' ') => (true, r.trim_start()),
            _ => (false, s),
        };
        match s.strip_prefix("use ") {
            Some(tree) => {
                uses.push((public, tree.trim_end_matches(';').to_string()));
                // A `pub use` is the module's interface; a private one is a use like any.
                body.push_str(if public { ";" } else { stmt });
            }
            None => body.push_str(stmt),
        }
    }
    (uses, body)
}

/// The paths a file names: its `use` trees, the `crate::`/`super::`/`self::` paths in its
/// code, and the paths through a child module (`stack::Overlay` in `overlay/mod.rs`), which
/// `resolve` tells from other relative paths (`std::fs`).
fn named_paths(code: &str) -> Vec<Named> {
    let (uses, body) = use_statements(code);
    let mut out = Vec::new();
    for (reexport, tree) in uses {
        let mut paths = Vec::new();
        expand_use("", &tree, &mut paths);
        out.extend(paths.into_iter().map(|path| Named { path, reexport }));
    }
    for (i, _) in body.match_indices("::") {
        // The path this `::` continues: back to its first segment.
        let start = body[..i]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .map_or(0, |s| s + 1);
        if body[start..i].contains("::") || start == i {
            continue; // not the path's first `::`
        }
        let end = body[i..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .map_or(body.len(), |e| i + e);
        out.push(Named {
            path: body[start..end].trim_end_matches(':').to_string(),
            reexport: false,
        });
    }
    out
}

/// The module a path in `from` refers to: the longest known prefix. `crate::` (and, in the
/// binary's files, `kifview::`) from the root, `self::`/`super::` from `from`, and a first
/// segment that is a child module of `from` from `from`; other paths (`std::`, a crate's,
/// a type's `Self::`) name no file of `src/`.
fn resolve(from: &[String], path: &str, known: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    resolve_at(from, path, known).map(|(m, _)| m)
}

/// `resolve`, and the segments of the path past the module (`crate::app::App`: `app` and
/// `App`; a last `X as Y` is `X`).
fn resolve_at(
    from: &[String],
    path: &str,
    known: &BTreeSet<Vec<String>>,
) -> Option<(Vec<String>, Vec<String>)> {
    let parts: Vec<&str> = path
        .split("::")
        .map(|p| p.split(" as ").next().unwrap_or(p).trim())
        .filter(|p| !p.is_empty())
        .collect();
    let in_binary = matches!(layer(from), "main" | "cli");
    let (mut base, rest) = match parts.first().copied() {
        Some("crate") if in_binary => (vec!["main".to_string()], &parts[1..]),
        // The core crate's `crate::` is `core`.
        Some("crate") if layer(from) == "core" => (vec!["core".to_string()], &parts[1..]),
        Some("crate") => (Vec::new(), &parts[1..]),
        Some("kifview") if in_binary => (Vec::new(), &parts[1..]),
        Some("self") => (from.to_vec(), &parts[1..]),
        Some("super") => {
            // `super` is the parent of the file's module; each further `super` one more up.
            let ups = parts.iter().take_while(|&&p| p == "super").count();
            let keep = from.len().saturating_sub(ups);
            (from[..keep].to_vec(), &parts[ups..])
        }
        Some(head) if known.contains(&[from, &[head.to_string()]].concat()) => {
            (from.to_vec(), &parts[..])
        }
        _ => return None,
    };
    // The binary's root is `main.rs`; its `crate::cli` is `src/cli`.
    if base == ["main"] && rest.first() == Some(&"cli") {
        base.clear();
    }
    base.extend(rest.iter().map(|p| p.to_string()));
    (1..=base.len())
        .rev()
        .find(|&k| known.contains(&base[..k]))
        .map(|k| (base[..k].to_vec(), base[k..].to_vec()))
}

/// Every `.rs` file under `src/` and under the core crate's `src/`.
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

/// The layers a file of layer `from` may name besides its own (the "uses" column of
/// `lib.rs`'s table); `None`: every layer.
fn allowed(from: &str) -> Option<&'static [&'static str]> {
    Some(match from {
        "core" => &[],
        "engine" | "load" | "pool" | "store" => &["core"],
        "convert" => &["core", "load", "pool", "store"],
        "analyze" => &["core", "engine", "convert", "load", "store"],
        "collection" => &["core", "load", "pool", "convert", "analyze"],
        "book" => &[
            "core",
            "engine",
            "load",
            "pool",
            "store",
            "analyze",
            "collection",
        ],
        "diagram" => &["core"],
        "training" => &["core", "engine", "load", "store", "analyze", "collection"],
        "game" => &[
            "core",
            "engine",
            "load",
            "pool",
            "store",
            "analyze",
            "collection",
            "book",
        ],
        "app" => &[
            "core",
            "engine",
            "load",
            "pool",
            "convert",
            "store",
            "analyze",
            "collection",
            "book",
            "diagram",
            "game",
            "training",
        ],
        "tui" => &["app", "core", "analyze", "collection", "engine", "game"],
        "cli" | "main" | "lib" => return None,
        other => panic!("layer {other} is not in lib.rs's table: add it there and here"),
    })
}

fn forbidden(from: &str, to: &str) -> bool {
    from != to && allowed(from).is_some_and(|ok| !ok.contains(&to))
}

/// The name a `use` path brings in: its last segment, or what it is renamed `as`.
fn imported_name(path: &str) -> &str {
    let last = path.rsplit("::").next().unwrap_or(path);
    last.rsplit(" as ").next().unwrap_or(last).trim()
}

/// Does `code` name `name` as a word of its own (not a segment of another path, `a::name`)?
fn names_word(code: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    !matches!(name, "" | "self" | "*")
        && code.match_indices(name).any(|(i, _)| {
            let before = code[..i].chars().next_back();
            let after = code[i + name.len()..].chars().next();
            !before.is_some_and(|c| ident(c) || c == ':') && !after.is_some_and(ident)
        })
}

/// The modules of `src/` (each file's) and what each names: `uses` are the modules whose
/// items it uses (a parent's use of its children included), `reexports` the ones it only
/// re-exports (`pub use`), `imports` the files that define what it uses (see
/// `no_file_of_src_imports_itself_through_a_cycle`). Every file is checked against `check`
/// first.
struct Graph {
    uses: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    reexports: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    imports: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    /// For each edge of `imports`, a path that makes it (the first found).
    why: BTreeMap<(Vec<String>, Vec<String>), String>,
    /// Each module's file, relative to the project (`src/app/state.rs`).
    files: BTreeMap<Vec<String>, String>,
}

/// What each module re-exports (`pub use`, any `pub(..)`): the name it gives (an `as` name,
/// a module's own name for `x::{self}`) and the path it names, as written.
type Exports = BTreeMap<Vec<String>, BTreeMap<String, String>>;

fn exports_of(code: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (_, tree) in use_statements(code).0.into_iter().filter(|(p, _)| *p) {
        let mut paths = Vec::new();
        expand_use("", &tree, &mut paths);
        for path in paths {
            let plain = path.split(" as ").next().unwrap_or(&path).trim();
            let plain = plain.strip_suffix("::self").unwrap_or(plain);
            let name = match path.split_once(" as ") {
                Some((_, to)) => to.trim(),
                None => plain.rsplit("::").next().unwrap_or(plain),
            };
            out.insert(name.to_string(), plain.to_string());
        }
    }
    out
}

/// The module whose file defines what `path` (named in `from`) names: the module `resolve`
/// finds, and where that module only re-exports the next segment (`pub use state::App;` in
/// `app/mod.rs` for `crate::app::App`), the module its re-export names, and so on. `None`
/// for a path out of `src/` (`std::fs`, a re-export of another crate's item).
fn defining(
    from: &[String],
    path: &str,
    known: &BTreeSet<Vec<String>>,
    exports: &Exports,
) -> Option<Vec<String>> {
    let (mut module, mut rest) = resolve_at(from, path, known)?;
    // Each step leaves a re-export for what it names; a loop of re-exports does not compile,
    // so a chain longer than the modules is a misreading: stop there.
    for _ in 0..known.len() {
        let Some(to) = rest
            .first()
            .and_then(|name| exports.get(&module)?.get(name))
        else {
            break;
        };
        let on = std::iter::once(to.clone())
            .chain(rest[1..].iter().cloned())
            .collect::<Vec<_>>()
            .join("::");
        (module, rest) = resolve_at(&module, &on, known)?;
    }
    Some(module)
}

fn module_graph(mut check: impl FnMut(&Path, &[String], &str)) -> Graph {
    let (src, files) = source_files();
    let root = src.parent().unwrap().to_path_buf();
    let read: Vec<(&PathBuf, Vec<String>, String)> = files
        .iter()
        .map(|f| {
            let code = code_outside_tests(&blank_literals(&std::fs::read_to_string(f).unwrap()));
            (f, module_of(&src, f), code)
        })
        .collect();
    let known: BTreeSet<Vec<String>> = read.iter().map(|(_, m, _)| m.clone()).collect();
    let exports: Exports = read
        .iter()
        .map(|(_, m, code)| (m.clone(), exports_of(code)))
        .collect();
    let mut g = Graph {
        uses: BTreeMap::new(),
        reexports: BTreeMap::new(),
        imports: BTreeMap::new(),
        why: BTreeMap::new(),
        files: BTreeMap::new(),
    };
    for (f, m, code) in &read {
        check(f, m, code);
        let (mut uses, mut reexports, mut imports) =
            (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
        let body = use_statements(code).1;
        for n in named_paths(code) {
            let Some(d) = resolve(m, &n.path, &known).filter(|d| d != m) else {
                continue;
            };
            // A name the file re-exports and uses itself (`pub use behaviour::OverlayState;`
            // and `Box<dyn OverlayState>`) is a use.
            if !n.reexport || names_word(&body, imported_name(&n.path)) {
                uses.insert(d.clone());
                if let Some(to) = defining(m, &n.path, &known, &exports).filter(|d| d != m) {
                    g.why
                        .entry((m.clone(), to.clone()))
                        .or_insert(n.path.clone());
                    imports.insert(to);
                }
            }
            if n.reexport {
                reexports.insert(d);
            }
        }
        g.uses.insert(m.clone(), uses);
        g.reexports.insert(m.clone(), reexports);
        g.imports.insert(m.clone(), imports);
        let rel = f.strip_prefix(&root).unwrap_or(f);
        g.files
            .insert(m.clone(), rel.to_string_lossy().into_owned());
    }
    assert!(g.uses.len() > 100, "only {} files", g.uses.len());
    g
}

#[test]
fn every_layer_names_only_the_layers_it_may_use() {
    let mut broken = Vec::new();
    let g = module_graph(|_, _, _| {});
    for (m, uses) in &g.uses {
        for d in uses.iter().chain(&g.reexports[m]) {
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
            let uses_fs = named_paths(code)
                .iter()
                .any(|p| p.path.starts_with("std::fs"))
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

/// The modules `from` reaches through `edges` (itself only when through a cycle).
fn reachable(
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    from: &Vec<String>,
) -> BTreeSet<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&Vec<String>> = edges[from].iter().collect();
    while let Some(m) = todo.pop() {
        if seen.insert(m.clone()) {
            todo.extend(edges.get(m).into_iter().flatten());
        }
    }
    seen
}

/// The shortest way from `from` to `to` through `edges` within `set` (both ends included).
fn shortest_way(
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    set: &BTreeSet<Vec<String>>,
    from: &Vec<String>,
    to: &Vec<String>,
) -> Vec<Vec<String>> {
    let mut came_from: BTreeMap<&Vec<String>, &Vec<String>> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(m) = queue.pop_front() {
        if m == to {
            let mut way = vec![m.clone()];
            let mut at = m;
            while at != from {
                at = came_from[at];
                way.push(at.clone());
            }
            way.reverse();
            return way;
        }
        for next in edges[m].iter().filter(|n| set.contains(*n)) {
            if next != from && !came_from.contains_key(next) {
                came_from.insert(next, m);
                queue.push_back(next);
            }
        }
    }
    unreachable!("{from:?} and {to:?} are in one strongly connected set")
}

/// The loops of `edges` that a module file does not hold: each loop whose files all lie under
/// a module that is not on it (a loop through a folder's parts and not its `mod.rs`). A loop
/// through the module file that holds all its files (`book/mod.rs` -> `book/apery.rs` ->
/// `book/extsort.rs` -> `book/mod.rs`: the module and its parts) is that module's inside.
/// For each module (the root too), the files strictly under it are taken with the edges
/// between them; in each set of them that use each other round a loop (a strongly connected
/// set), an edge between two of its parts (`app::overlay::stack` -> `app::train::screen`)
/// lies on such a loop: the shortest one through it is reported, with the whole set when it
/// holds more. (A loop inside one part is that part's to answer for, one level down.)
fn cycles_of(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Loop> {
    let mut tops: BTreeSet<&[String]> = BTreeSet::new();
    for m in edges.keys() {
        tops.extend((0..m.len()).map(|k| &m[..k]));
    }
    let mut loops: Vec<Loop> = Vec::new();
    for top in tops {
        let n = top.len();
        let under: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = (edges.iter())
            .filter(|(m, _)| m.len() > n && m[..n] == *top)
            .map(|(m, to)| {
                let inside = to.iter().filter(|t| t.len() > n && t[..n] == *top);
                (m.clone(), inside.cloned().collect())
            })
            .collect();
        let reach: BTreeMap<&Vec<String>, BTreeSet<Vec<String>>> =
            under.keys().map(|m| (m, reachable(&under, m))).collect();
        let mut seen: BTreeSet<Vec<String>> = BTreeSet::new();
        for (m, r) in &reach {
            if !r.contains(*m) || seen.contains(*m) {
                continue;
            }
            let set: BTreeSet<Vec<String>> = (r.iter())
                .filter(|o| reach[o].contains(*m))
                .cloned()
                .collect();
            seen.extend(set.iter().cloned());
            let between_parts = set.iter().find_map(|u| {
                (under[u].iter())
                    .find(|v| set.contains(*v) && v[n] != u[n])
                    .map(|v| (u, v))
            });
            if let Some((u, v)) = between_parts {
                let mut way = vec![u.clone()];
                way.extend(shortest_way(&under, &set, v, u));
                loops.push(Loop { way, set });
            }
        }
    }
    loops
}

/// One loop of `cycles_of`: a way round (its first module last again) and the set of
/// modules it lies in.
struct Loop {
    way: Vec<Vec<String>>,
    set: BTreeSet<Vec<String>>,
}

/// No files of `src/` (or of the core crate) use each other round a loop that a module file
/// does not hold (`cycles_of`): a folder's `mod.rs` and its parts may use each other, its
/// parts round a loop without it may not, with no exception (the ten uses that closed loops
/// when this rule came, which it listed and cut from the graph, are all gone: what they used
/// moved where both sides may use it).
///
/// The edges, file to file: a file uses the file that defines an item it names. It names
/// what it writes as a path, in a `use` (a private one; a `pub use` counts only when the file
/// also uses the name itself) or in its code: `crate::…`, `super::…`, `self::…`, a child
/// module's `stack::Overlay`. The path leads to the longest module it names, and on through
/// each re-export (`pub use`) of the next segment to the file that defines the item:
/// `crate::app::App`, which `app/mod.rs` re-exports from `state.rs`, is a use of
/// `app/state.rs`, not of `app/mod.rs`. Not edges: a parent's `mod x;` (it declares its
/// child and uses nothing of it), a re-export alone (`pub use x::Y;` in a `mod.rs`, its
/// interface), paths out of the crates (`std::`, other crates, a re-export of theirs), and
/// method calls (they name no file). A `mod.rs`'s use of its part in its own code
/// (`apery::write` in `book/mod.rs`) is an edge, and its parts' `super::BookError` one back.
///
/// Planted and failed (then taken out), each naming its loop: `Asked` moved back from
/// `app/train/screen.rs` into `app/train/engine.rs`, the loop `app/overlay/stack.rs` ->
/// `app/train/screen.rs` -> `app/train/engine.rs` -> `app/state.rs` ->
/// `app/overlay/stack.rs` that the former rule let pass (all its files are under `app`, and
/// `app/mod.rs`, to which every `crate::app::X` led, was in its set); and a sibling's use
/// back, `super::record::move_time` in `app/play/state.rs` (record.rs uses its `Match`): the
/// loop `app/play/record.rs` -> `app/play/state.rs` -> `app/play/record.rs`.
#[test]
fn no_file_of_src_imports_itself_through_a_cycle() {
    let mut g = module_graph(|_, _, _| {});
    let edges: usize = g.imports.values().map(BTreeSet::len).sum();
    assert!(edges > 500, "only {edges} uses between files were found");
    let mut broken = Vec::new();
    // The loops, each with the use that closes it; then again without those uses, so that
    // the message lists every use a loop-free graph would lose.
    let mut cuts = Vec::new();
    loop {
        let loops = cycles_of(&g.imports);
        if loops.is_empty() {
            break;
        }
        for l in loops {
            broken.push(said_loop(&g, &l));
            let (u, v) = (&l.way[l.way.len() - 2], &l.way[l.way.len() - 1]);
            let cut = format!("{} -> {}", g.files[u], g.files[v]);
            if !cuts.contains(&cut) {
                cuts.push(cut);
            }
            g.imports.get_mut(u).unwrap().remove(v);
        }
    }
    assert!(
        broken.is_empty(),
        "these files use each other round a loop: {broken:#?}\n(the uses that close them: \
         {cuts:#?})"
    );
}

/// A loop as its files with the path that makes each step, and its whole set when that holds
/// more.
fn said_loop(g: &Graph, l: &Loop) -> String {
    let file = |m: &Vec<String>| g.files[m].clone();
    let mut said = file(&l.way[0]);
    for step in l.way.windows(2) {
        let why = &g.why[&(step[0].clone(), step[1].clone())];
        said.push_str(&format!(" -> ({why}) {}", file(&step[1])));
    }
    if l.set.len() + 1 > l.way.len() {
        let all: Vec<String> = l.set.iter().map(file).collect();
        said.push_str(&format!(
            " (in a loop of {} files: {})",
            all.len(),
            all.join(", ")
        ));
    }
    said
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

/// The variants of `pub enum $name` (generic or not) in `src/app/overlay/stack.rs`.
fn overlay_variants(name: &str) -> Vec<String> {
    let (src, _) = source_files();
    let text = std::fs::read_to_string(src.join("app/overlay/stack.rs")).unwrap();
    let code = code_outside_tests(&text);
    let at = code.find(&format!("pub enum {name}")).expect("the enum");
    let open = at + code[at..].find('{').expect("its body");
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

/// Where `code` names the app mutably: `&mut` before `App` itself or a path to it
/// (`&mut App`, `&mut crate::app::App`, `&'a mut app::App`).
fn mut_app(code: &str) -> Option<usize> {
    code.match_indices("mut ").map(|(i, _)| i).find(|&i| {
        let before = code[..i].trim_end();
        let after = code[i + 4..].trim_start();
        let stem = before.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_');
        let borrowed = before.ends_with('&') || stem.ends_with("&'");
        let path: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        borrowed && path.rsplit("::").next() == Some("App")
    })
}

/// Drawing changes nothing in the app (`lib.rs`, a key's path, step 5): every file of `tui`
/// but the run loop's (`tui/mod.rs`) has the app only as `&App` (no `&mut App`, no
/// `.app`); in `tui/mod.rs`, `Viewer::draw` names the app only as `&self.app`; and no file of
/// `app` holds a `Cell` or a `RefCell`, through which `&App` could change. What a key needs of
/// the frame goes with the key (`app::update_on`), and after a frame that drew other sizes
/// the run loop hands them over as an input of its own (`Viewer::hand_over_sizes`).
/// Planted once each: a `RefCell` in `app/state.rs`, and `fn planted(app: &mut
/// crate::app::App)` in `tui/widgets/status.rs` (which the plain `&mut App` check missed).
#[test]
fn drawing_writes_nothing_back_into_the_app() {
    let (src, files) = source_files();
    let mut broken = Vec::new();
    let mut draw_seen = false;
    for f in files.iter().filter(|f| !is_test_file(f)) {
        let m = module_of(&src, f);
        let code = blank_literals(&code_outside_tests(&std::fs::read_to_string(f).unwrap()));
        match layer(&m) {
            "tui" if m.len() > 1 => {
                for bad in ["mut app", ".app."] {
                    if code.contains(bad) {
                        broken.push(format!("{} names {bad}", f.display()));
                    }
                }
                if let Some(at) = mut_app(&code) {
                    let what: String = code[at..].chars().take(24).collect();
                    broken.push(format!("{} names the app mutably: {what}", f.display()));
                }
            }
            "tui" => {
                let at = code.find("pub fn draw(&mut self").expect("Viewer::draw");
                let open = at + code[at..].find('{').unwrap();
                let body = &code[open..block_end(&code, open)];
                let apps = body.matches("app").count();
                if apps != body.matches("&self.app").count() {
                    broken.push(format!("Viewer::draw uses the app mutably:\n{body}"));
                }
                draw_seen = true;
            }
            "app" => {
                let ident = |c: char| c.is_alphanumeric() || c == '_';
                for bad in ["Cell", "RefCell", "UnsafeCell"] {
                    let named = code.match_indices(bad).any(|(i, _)| {
                        !code[..i].chars().next_back().is_some_and(ident)
                            && !code[i + bad.len()..].chars().next().is_some_and(ident)
                    });
                    if named {
                        broken.push(format!("{} holds a {bad}", f.display()));
                    }
                }
            }
            _ => {}
        }
    }
    assert!(draw_seen, "tui/mod.rs read");
    assert!(broken.is_empty(), "{broken:#?}");
}

/// Background work comes to the run loop as events, the engine's too (`lib.rs`, "Work that
/// outlives a key press"): in `app` an engine is started only with a waker
/// (`Engine::start_waking`, whose callback sends `Event::Engine`), never with `Engine::start`
/// or `start_with`, which would leave it to be polled; in `engine` the process's threads reach
/// the driver only through the waking sender `Tx` (the raw `SyncSender` named once, in it);
/// and `tui` names no feature's tick (the run loop hands events to `App::handle_event`).
#[test]
fn workers_and_the_engine_reach_the_run_loop_as_events() {
    let (src, files) = source_files();
    let mut broken = Vec::new();
    let mut raw_senders = 0;
    for f in files.iter().filter(|f| !is_test_file(f)) {
        let m = module_of(&src, f);
        let code = blank_literals(&code_outside_tests(&std::fs::read_to_string(f).unwrap()));
        match layer(&m) {
            "app" => {
                for bad in ["Engine::start(", "Engine::start_with("] {
                    if code.contains(bad) {
                        broken.push(format!(
                            "{} starts an engine without a waker: {bad}",
                            f.display()
                        ));
                    }
                }
            }
            "engine" => raw_senders += code.matches("SyncSender<").count(),
            "tui" => {
                let ticks = [
                    "research_tick",
                    "save_tick",
                    "collection_tick",
                    "recovery_tick",
                ];
                for bad in ticks {
                    if names_word(&code, bad) {
                        broken.push(format!("{} calls {bad}", f.display()));
                    }
                }
            }
            _ => {}
        }
    }
    if raw_senders != 1 {
        broken.push(format!(
            "engine names the raw sender {raw_senders} times: its threads send through Tx only"
        ));
    }
    assert!(broken.is_empty(), "{broken:#?}");
}
