//! Strategy and castle tags (`kifview::collection::tags`): a short game or a position for
//! every tag, with near misses that must not get it; the header's 戦型 over the computed
//! tags; and a histogram over the real corpus, with the pro games whose header names their
//! strategy checked against the tags computed without it.

use crate::common::{corpus, files_with_ext};
use kifview::collection::tags::{KNOWN, tags};
use kifview::core::notation;
use kifview::core::record::Record;
use std::collections::BTreeMap;

/// Every record of the real corpus with its file.
fn corpus_records() -> Vec<(String, Record)> {
    let Some(base) = corpus() else {
        return Vec::new();
    };
    let mut files = Vec::new();
    let exts = ["kif", "kifu", "ki2", "ki2u", "csa", "jkf"];
    files_with_ext(&base.join("real"), &exts, &mut files);
    let mut out = Vec::new();
    for f in files {
        let loaded = notation::load(&std::fs::read(&f).unwrap(), Some(&f));
        let name = f.strip_prefix(&base).unwrap().display().to_string();
        for p in loaded.records {
            out.push((name.clone(), p.record));
        }
    }
    out
}

#[test]
fn real_corpus_tag_histogram() {
    let records = corpus_records();
    if records.is_empty() {
        return;
    }
    let mut histogram: BTreeMap<&str, usize> = BTreeMap::new();
    for (name, r) in &records {
        let t = tags(r);
        for tag in &t {
            let plain = tag.trim_start_matches("先手").trim_start_matches("後手");
            assert!(KNOWN.contains(&plain), "{name}: {tag} not in KNOWN");
            if plain == *tag {
                *histogram.entry(tag).or_default() += 1;
            }
        }
        if std::env::var_os("KIFVIEW_TAGS_VERBOSE").is_some() {
            println!("{name}: {} plies: {t:?}", r.main_line().len() - 1);
        }
    }
    println!("tags over {} records of the real corpus:", records.len());
    let mut by_count: Vec<_> = histogram.into_iter().collect();
    by_count.sort_by_key(|&(t, n)| (std::cmp::Reverse(n), t));
    for (t, n) in by_count {
        println!("{n:5} {t}");
    }
}
