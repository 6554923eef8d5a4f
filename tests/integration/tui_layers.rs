//! Layering: `src/core` and `src/app` never use the terminal crates.

use std::path::Path;

#[test]
fn core_and_app_never_mention_terminal_crates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![root.join("core"), root.join("app")];
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

/// The module path of a source file (`src/app/state.rs` is `app::state`, `src/app/mod.rs`
/// is `app`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut m: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
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
        let mut depth = 0;
        let mut end = after.len();
        for (k, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
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

#[test]
fn app_and_tui_files_import_each_other_without_cycles_and_stay_small() {
    use std::collections::{BTreeMap, BTreeSet};
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut stack = vec![src.clone()];
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
    let known: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    let mut big = Vec::new();
    for f in &files {
        let m = module_of(&src, f);
        let code = code_outside_tests(&std::fs::read_to_string(f).unwrap());
        let watched = matches!(m.first().map(String::as_str), Some("app" | "tui"));
        let lines = code.lines().filter(|l| !l.trim().is_empty()).count();
        if watched && lines > 1000 {
            big.push(format!("{} has {lines} lines of code", f.display()));
        }
        let deps: BTreeSet<Vec<String>> = named_paths(&code)
            .iter()
            .filter_map(|p| resolve(&m, p, &known))
            // A parent naming its own children (re-exports, `mod` wiring) is structure.
            .filter(|d| *d != m && !(d.len() > m.len() && d[..m.len()] == m[..]))
            .collect();
        for d in &deps {
            let (a, b) = (m.first().map(String::as_str), d.first().map(String::as_str));
            assert!(
                !(a == Some("core") && b != Some("core")),
                "{} (core) uses {d:?}",
                f.display()
            );
            assert!(
                !(a == Some("app") && matches!(b, Some("tui" | "cli" | "main"))),
                "{} (app) uses {d:?}",
                f.display()
            );
        }
        edges.insert(m, deps);
    }
    assert!(big.is_empty(), "{big:?}");
    // A cycle: a module that reaches itself.
    for start in edges
        .keys()
        .filter(|m| matches!(m.first().map(String::as_str), Some("app" | "tui")))
    {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&Vec<String>> = edges[start].iter().collect();
        while let Some(m) = todo.pop() {
            assert!(m != start, "{start:?} imports itself through a cycle");
            if seen.insert(m.clone()) {
                todo.extend(edges.get(m).into_iter().flatten());
            }
        }
    }
    assert!(edges.len() > 40, "only {} files", edges.len());
}
