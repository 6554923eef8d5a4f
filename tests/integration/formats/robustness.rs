//! Bad input never panics: corpus files mangled the ways files get mangled (bytes flipped,
//! lines dropped, doubled or swapped, cut short) go through every reader and every writer.

use kifview::core::notation::{self, Format, Target, TextEncoding, TextInfo};
use std::path::{Path, PathBuf};

use crate::common;

struct Rng(u64);
impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

fn mangle(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    for _ in 0..1 + rng.below(4) {
        let n = lines.len();
        match rng.below(6) {
            0 if n > 1 => {
                lines.remove(rng.below(n));
            }
            1 => {
                let i = rng.below(n);
                let l = lines[i].clone();
                lines.insert(rng.below(n), l);
            }
            2 if n > 1 => {
                let (a, b) = (rng.below(n), rng.below(n));
                lines.swap(a, b);
            }
            3 => {
                let i = rng.below(n);
                if !lines[i].is_empty() {
                    let j = rng.below(lines[i].len());
                    lines[i][j] = rng.next_u64() as u8;
                }
            }
            4 => {
                let i = rng.below(n);
                let cut = rng.below(lines[i].len() + 1);
                lines[i].truncate(cut);
            }
            _ => {
                let i = rng.below(n);
                lines.truncate(i + 1);
            }
        }
    }
    lines.join(&b'\n')
}

/// Record files under `dir` (every extension kifview reads; not the expected JSON).
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    common::files_with_ext(dir, &["kif", "kifu", "ki2", "ki2u", "csa", "jkf"], &mut out);
    out
}

#[test]
fn mangled_records_never_panic_in_any_reader_or_writer() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let all = files(&corpus.join("real"));
    let generated = files(&corpus.join("generated"));
    let picked: Vec<&PathBuf> = all.iter().chain(generated.iter().step_by(7)).collect();
    assert!(picked.len() > 100, "{}", picked.len());
    let utf8 = TextInfo::new(TextEncoding::Utf8);
    let mut runs = 0;
    for path in picked {
        let bytes = std::fs::read(path).unwrap();
        for _ in 0..4 {
            let bad = mangle(&bytes, &mut rng);
            // As named, and with the format guessed from the content (pasted text).
            for loaded in [notation::load(&bad, Some(path)), notation::load(&bad, None)] {
                for p in &loaded.records {
                    let r = &p.record;
                    for id in [*r.main_line().last().unwrap(), r.root()] {
                        let _ = r.position_at(id);
                    }
                    for f in Format::ALL {
                        let w = notation::render(r, Target::new(f), &utf8);
                        // What was written reads again without panicking either.
                        let _ = notation::read_text(&w.text, f);
                    }
                    runs += 1;
                }
            }
        }
    }
    assert!(runs > 800, "{runs}");
}
