//! The README's key table and `:` command table are generated from the default keymap and the
//! command tables; this test fails when they drift apart.
//! `UPDATE_README=1 cargo test --test integration readme` rewrites them.

use kifview::app::Config;

/// Checks (or, with `UPDATE_README`, rewrites) the text between the markers of `section`.
fn check_section(section: &str, table: &str) {
    let start = format!(
        "<!-- {section}:start (generated: UPDATE_README=1 cargo test --test integration readme) -->\n"
    );
    let end = format!("<!-- {section}:end -->");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let (Some(a), Some(b)) = (readme.find(&start), readme.find(&end)) else {
        panic!("README.md lacks the {section} table markers");
    };
    let current = &readme[a + start.len()..b];
    if current != table {
        if std::env::var_os("UPDATE_README").is_some() {
            let new = format!("{}{start}{table}{}", &readme[..a], &readme[b..]);
            std::fs::write(&path, new).expect("write README.md");
            return;
        }
        panic!(
            "README.md {section} table is out of date; run UPDATE_README=1 cargo test --test integration readme"
        );
    }
}

#[test]
fn readme_key_table_matches_the_keymap() {
    check_section("keys", &Config::defaults().keymap.markdown_table());
}

#[test]
fn readme_command_table_matches_the_typable_commands() {
    let table = kifview::app::dispatch::typable::markdown_table();
    for c in kifview::app::dispatch::typable::TYPABLE_COMMANDS {
        assert!(table.contains(c.doc), "{} missing", c.name);
    }
    check_section("commands", &table);
}
