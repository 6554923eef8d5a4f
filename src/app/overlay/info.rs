//! The record's info (`Ctrl-g`, as vim's file info): the file, its format, encoding, BOM,
//! line endings and KIF layout (what saving back keeps), the record's place in a file of
//! several, the reader's warnings, then the header fields. A panel (`Overlay::Panel`): this
//! file, its line in `dispatch::command::panels!` and its default key are all it takes.

use crate::app::overlay::behaviour::text_panel;
use crate::app::state::App;
use crate::core::notation::{Format, Newline};

text_panel!(
    /// The info panel, scrolled this far.
    RecordInfo,
    "INFO",
    "Record info",
    info_lines
);

/// The panel's lines.
fn info_lines(app: &App) -> Vec<String> {
    let src = app.source();
    let mut lines = vec![match &src.path {
        Some(p) => format!("File: {}", p.display()),
        None => format!("File: {} (none on disk)", src.name),
    }];
    if src.record_count > 1 {
        let (i, n) = (src.record_index + 1, src.record_count);
        lines.push(format!("Record: {i} of {n}"));
    }
    lines.push(match src.format {
        Some(f) => format!("Format: {}", f.name()),
        None => "Format: none yet (a new record)".into(),
    });
    if let Some(info) = src.info {
        let bom = if info.bom { ", with BOM" } else { "" };
        lines.push(format!("Encoding: {}{bom}", info.encoding.name()));
        let nl = match info.newline {
            Newline::Lf => "LF",
            Newline::CrLf => "CRLF",
        };
        lines.push(format!("Line endings: {nl}"));
    }
    if src.format == Some(Format::Kif) {
        let d = &src.kif_dialect;
        let numbers = if d.padded_numbers { "padded" } else { "plain" };
        let same = if d.same_space { "同　歩" } else { "同歩" };
        let dragon = if d.ryu { "竜" } else { "龍" };
        lines.push(format!(
            "KIF layout: move numbers {numbers}, {same}, {dragon} (saving back keeps it)"
        ));
    }
    if src.csa_v3 {
        lines.push("CSA version: 3.0 (saving back keeps it)".into());
    }
    lines.push(format!(
        "Problems found while reading: {}",
        src.warnings.len()
    ));
    lines.push(String::new());
    let header = &app.record().header.fields;
    if header.is_empty() {
        lines.push("Header: no fields".into());
    }
    lines.extend(header.iter().map(|f| format!("{}: {}", f.key, f.value)));
    lines
}

#[cfg(test)]
mod tests {
    use crate::app::{App, Config, KeyCode, KeyEvent, Mode, Modifiers, RecordSource};
    use crate::core::notation;

    #[test]
    fn ctrl_g_shows_the_format_and_header_j_scrolls_esc_closes() {
        let text = "開始日時：2024/01/02\r\n先手：羽生\r\n後手：藤井\r\n1 ７六歩(77)\r\n";
        let loaded = notation::load(text.as_bytes(), Some(std::path::Path::new("g.kif")));
        let (record, source) = RecordSource::from_loaded(loaded, None, 0).expect("a record");
        let mut app = App::new(record, source, Config::defaults());
        let ctrl = Modifiers {
            ctrl: true,
            ..Modifiers::default()
        };
        let ctrl_g = KeyEvent::new(KeyCode::Char('g'), ctrl);
        app.handle_key(ctrl_g);
        assert_eq!(app.mode(), Mode::Panel("INFO"));
        let top = app.overlays().top().expect("open");
        let panel = top.state().panel(&app);
        let text = panel.lines.join("\n");
        assert!(text.contains("Format: KIF"), "{text}");
        assert!(text.contains("Encoding: UTF-8"), "{text}");
        assert!(text.contains("Line endings: CRLF"), "{text}");
        assert!(text.contains("先手: 羽生"), "{text}");
        assert_eq!(
            app.mode_tag().map(|t| t.text()).as_deref(),
            Some("-- INFO -- Esc: close")
        );
        app.handle_key(KeyEvent::char('j'));
        assert_eq!(app.overlays().scroll(), 1, "j scrolls it as the help");
        app.handle_key(KeyEvent::plain(KeyCode::Esc));
        assert_eq!(app.mode(), Mode::Normal);
    }
}
