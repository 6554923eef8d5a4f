//! CSA reader and writer against the shared corpus, the fixture folders, round trips and
//! random legal games.

use kifview::core::notation::csa::{self, CsaOptions, CsaVersion};
use kifview::core::notation::{DiagKind, Parsed, TextEncoding, load};
use kifview::core::record::{NodeId, Record, Step};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `../shared/corpus` from the crate root (`../../shared/corpus` from a worktree under `wt/`).
fn corpus_dir() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for rel in ["../shared/corpus", "../../shared/corpus"] {
        let p = root.join(rel);
        if p.is_dir() {
            return Some(p);
        }
    }
    println!(
        "corpus not found at {}/../shared/corpus; skipped",
        root.display()
    );
    None
}

fn csa_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            csa_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "csa") {
            out.push(p);
        }
    }
}

fn corpus_csa_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(c) = corpus_dir() {
        csa_files(&c.join("generated"), &mut v);
        csa_files(&c.join("real"), &mut v);
    }
    v
}

/// Comment lines with trailing whitespace removed; empty lines dropped (CSA cannot carry them).
fn norm_comment(c: &str) -> String {
    c.split('\n')
        .map(|l| l.trim_end_matches(|ch: char| ch.is_whitespace() || ch == '\u{3000}'))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn node_usi(r: &Record, id: NodeId) -> (Option<String>, Option<String>) {
    match &r.node(id).step {
        Step::Move(m) => (Some(m.mv.usi()), None),
        Step::Special(s) => (None, Some(s.json_name())),
        Step::Root => (None, None),
    }
}

/// Compares a parsed record with an expected JSON; returns the differences.
fn compare(p: &Parsed, exp: &Value) -> Vec<String> {
    let r = &p.record;
    let mut diffs = Vec::new();
    let sfen = r.initial.position.to_sfen();
    if exp["initial_sfen"].as_str() != Some(sfen.as_str()) {
        diffs.push(format!("initial {sfen} != {}", exp["initial_sfen"]));
    }
    for (side, got) in [
        ("black", r.header.black_name()),
        ("white", r.header.white_name()),
    ] {
        let want = exp["players"][side].as_str().unwrap_or("");
        if got.unwrap_or("") != want {
            diffs.push(format!("{side} name {got:?} != {want:?}"));
        }
    }
    let root_c = norm_comment(&r.node(NodeId::ROOT).comment);
    let want_c = norm_comment(exp["tree"]["comment"].as_str().unwrap_or(""));
    if root_c != want_c {
        diffs.push(format!("root comment {root_c:?} != {want_c:?}"));
    }
    let has_times = exp["has_times"].as_bool().unwrap_or(false);
    let line = r.main_line();
    let moves = exp["tree"]["moves"].as_array().cloned().unwrap_or_default();
    if line.len() - 1 != moves.len() {
        diffs.push(format!(
            "main line has {} nodes, expected {}",
            line.len() - 1,
            moves.len()
        ));
    }
    for (i, (&id, m)) in line.iter().skip(1).zip(moves.iter()).enumerate() {
        let (usi, special) = node_usi(r, id);
        if usi.as_deref() != m["usi"].as_str() || special.as_deref() != m["special"].as_str() {
            diffs.push(format!(
                "ply {}: {usi:?}/{special:?} != {}/{}",
                i + 1,
                m["usi"],
                m["special"]
            ));
            break;
        }
        let c = norm_comment(&r.node(id).comment);
        let wc = norm_comment(m["comment"].as_str().unwrap_or(""));
        if c != wc {
            diffs.push(format!("ply {} comment {c:?} != {wc:?}", i + 1));
        }
        if has_times {
            let got = r.node(id).time.map(|t| t.spent_ms / 1000);
            if got != m["time"].as_u64() {
                diffs.push(format!("ply {} time {got:?} != {}", i + 1, m["time"]));
            }
        }
    }
    diffs
}

/// Differences where the expected JSON is wrong (see the CSA report).
fn known_wrong_expectation(f: &Path, diff: &str) -> bool {
    // The file is EUC-JP (`N-` is bb b3 c5 c4 be ad b4 fd = 山田将棋); the reference reader
    // decoded it as Shift_JIS and got half-width katakana.
    f.ends_with("2005_YAMADA_GPS.csa")
        && diff.starts_with("white name Some(\"山田将棋 Version 2.18")
}

#[test]
fn corpus_csa_files_read_as_expected() {
    let files = corpus_csa_files();
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in &files {
        let exp_path = PathBuf::from(format!("{}.expected.json", f.display()));
        let exp_path = if exp_path.exists() {
            exp_path
        } else {
            // generated: NAME.expected.json beside NAME.csa
            f.with_extension("expected.json")
        };
        let Ok(exp_text) = std::fs::read_to_string(&exp_path) else {
            continue;
        };
        let exp: Value = serde_json::from_str(&exp_text).expect("expected JSON parses");
        let bytes = std::fs::read(f).expect("read corpus file");
        let loaded = load(&bytes, Some(f));
        assert_eq!(loaded.records.len(), 1, "{}", f.display());
        let p = &loaded.records[0];
        let mut diffs = compare(p, &exp);
        diffs.retain(|d| !known_wrong_expectation(f, d));
        for w in &p.warnings {
            if w.kind != DiagKind::Encoding {
                diffs.push(format!("warning {w}"));
            }
        }
        if !diffs.is_empty() {
            failures.push(format!("{}:\n  {}", f.display(), diffs.join("\n  ")));
        }
        checked += 1;
    }
    println!("{checked} corpus CSA files checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
