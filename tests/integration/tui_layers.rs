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
