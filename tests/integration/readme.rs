//! The README's key table is generated from the default keymap and the command table; this
//! test fails when they drift apart. `UPDATE_README=1 cargo test --test integration readme` rewrites it.

use kifview::app::Config;

const START: &str =
    "<!-- keys:start (generated: UPDATE_README=1 cargo test --test integration readme) -->\n";
const END: &str = "<!-- keys:end -->";

#[test]
fn readme_key_table_matches_the_keymap() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let table = Config::defaults().keymap.markdown_table();
    let (Some(a), Some(b)) = (readme.find(START), readme.find(END)) else {
        panic!("README.md lacks the key table markers");
    };
    let current = &readme[a + START.len()..b];
    if current != table {
        if std::env::var_os("UPDATE_README").is_some() {
            let new = format!("{}{START}{table}{}", &readme[..a], &readme[b..]);
            std::fs::write(&path, new).expect("write README.md");
            return;
        }
        panic!(
            "README.md key table is out of date; run UPDATE_README=1 cargo test --test integration readme"
        );
    }
}
