//! The move list (issue 12): a variation is marked (the title names the fork, the rows off
//! the main line carry `│`, `M` goes back to the main line), moves the reader warned about
//! carry `!` with the warning in the status line, and `v` switches KIF and KI2 notation.
//! Drawn with `Theme::plain()` (colours off, as with NO_COLOR): every mark must show without
//! colour.

use kifview::app::testing::push_line;
use kifview::app::{App, Config, LaunchOptions, RecordSource};
use kifview::core::notation::{self, Format};
use kifview::core::record::{NodeId, Record};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;

use crate::common::{asset, corpus, press, screen, screen_rows, viewer_on, viewer_with};

fn viewer(r: Record, config: Config) -> Viewer {
    Viewer::new(
        App::new(r, RecordSource::untitled("t.kif"), config),
        Theme::plain(),
    )
}

/// The move list's title (the top border of the pane that holds `棋譜`).
fn title(rows: &[String]) -> String {
    rows.iter()
        .find_map(|r| {
            let i = r.find("棋譜")?;
            let start = r[..i].rfind('┌')? + '┌'.len_utf8();
            Some(r[start..].split('─').next().unwrap_or("").to_string())
        })
        .unwrap_or_default()
}

/// The move list row of `ply` (`   6│△８四歩(83)+ …`), from its number on.
fn row(rows: &[String], ply: usize) -> String {
    let num = format!("{ply:>4}");
    rows.iter()
        .filter_map(|r| r.split('│').nth(1).map(|_| r))
        .find_map(|r| {
            let i = r.find(&format!("│{num}"))?;
            Some(r[i + '│'.len_utf8()..].trim_end_matches('│').to_string())
        })
        .unwrap_or_else(|| panic!("no row for ply {ply} in\n{}", rows.join("\n")))
}

/// Asserts that the row of `ply` starts with `start`.
fn assert_row(rows: &[String], ply: usize, start: &str) {
    let r = row(rows, ply);
    assert!(
        r.starts_with(start),
        "ply {ply}: {r:?} does not start with {start:?}"
    );
}

#[test]
fn a_variation_is_named_marked_and_left_with_m() {
    // study.kif: 6 △３三角 is the main line, 6 △８四歩 the second alternative.
    let mut v = viewer_on(&asset("study.kif"), Some(6));
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert_eq!(title(&rows), "棋譜 6/44");
    assert_row(&rows, 6, "   6 △３三角(22)+");

    press(&mut v, "jl");
    let t = screen(&mut v, 80, 24);
    let rows = screen_rows(&t);
    assert_eq!(title(&rows), "変化 6手目 2/2 · 棋譜 7/9 · M:本譜");
    assert_row(&rows, 5, "   5 ▲２五歩(26)");
    for (ply, mv) in [
        (6, "△８四歩"),
        (7, "▲２四歩"),
        (8, "△同　歩"),
        (9, "▲同　飛"),
    ] {
        assert_row(&rows, ply, &format!("{ply:>4}│{mv}"));
    }
    insta::assert_snapshot!("variation_marked_80x24", t.backend());
    insta::assert_snapshot!("variation_marked_160x48", screen(&mut v, 160, 48).backend());

    // M: the main line at this ply, the main line below it too.
    press(&mut v, "M");
    let rows = screen_rows(&screen(&mut v, 80, 24));
    let main = v.app.record().main_line();
    assert_eq!(v.app.cur(), main[7]);
    assert_eq!(v.app.line(), &main[..]);
    assert_eq!(title(&rows), "棋譜 7/44");
    assert_row(&rows, 7, "   7 ▲４八銀(39)");
    assert!(rows.iter().any(|r| r.contains("main line (本譜), ply 7")));
    press(&mut v, "M");
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert!(
        rows.iter()
            .any(|r| r.contains("this is the main line (本譜)"))
    );
}

#[test]
fn the_title_names_the_fork_the_cursor_is_past_or_the_next_one() {
    // Main line 1-4; at ply 2 a second alternative, inside it at ply 4 a third one.
    let mut r = Record::default();
    push_line(&mut r, NodeId::ROOT, "7g7f 3c3d 2g2f 8c8d");
    let main = r.main_line();
    let var = push_line(&mut r, main[1], "8c8d 2g2f 4a3b");
    let fork = r.path(var)[3];
    push_line(&mut r, fork, "3c3d");
    let inner = push_line(&mut r, fork, "6a5b 6i7h");
    let mut v = viewer(r.clone(), Config::defaults());
    v.app.jump_to(inner);
    let rows = screen_rows(&screen(&mut v, 80, 24));
    // Plies 2- are off the main line; the title names the inner fork (ply 4, 3rd of 3).
    assert_eq!(title(&rows), "変化 4手目 3/3 · 棋譜 5/5 · M:本譜");
    for ply in 2..=5 {
        assert_row(&rows, ply, &format!("{ply:>4}│"));
    }
    assert_row(&rows, 1, "   1 ");
    // Between the two forks: the outer one.
    press(&mut v, "hh");
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert_eq!(title(&rows), "変化 2手目 2/2 · 棋譜 3/5 · M:本譜");
    // Before both (on moves the main line shares): the first fork after the cursor.
    press(&mut v, "hh");
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert_eq!(title(&rows), "変化 2手目 2/2 · 棋譜 1/5 · M:本譜");
    assert_row(&rows, 1, "   1 ");
    assert_row(&rows, 2, "   2│");
    // From the variation's end, M goes to the main line's end when it is shorter.
    v.app.jump_to(inner);
    press(&mut v, "M");
    assert_eq!(v.app.cur(), *r.main_line().last().unwrap());
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert!(
        rows.iter()
            .any(|r| r.contains("main line (本譜), ply 4; it ends at ply 4")),
        "{}",
        rows.join("\n")
    );
}

#[test]
fn the_title_drops_the_hint_before_the_fork_on_a_narrow_pane() {
    let mut v = viewer_on(&asset("study.kif"), Some(6));
    press(&mut v, "jl");
    // 64 columns (the smallest the viewer draws): the pane is narrower.
    let rows = screen_rows(&screen(&mut v, 64, 18));
    let t = title(&rows);
    assert!(t.starts_with("変化 6手目 2/2"), "{t}");
    assert!(rows.iter().all(|r| r.chars().count() <= 64));
}

/// A KIF record whose ply 3 is illegal (a rook moving like a bishop), read as a file is.
const ILLEGAL: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五飛(28)\n   4 ８四歩(83)\n   5 ２六歩(27)\n";

fn illegal_viewer() -> Viewer {
    let parsed = notation::read_text(ILLEGAL, Format::Kif).remove(0);
    let mut doc = RecordSource::untitled("illegal.kif");
    doc.warnings = parsed.warnings;
    Viewer::new(
        App::new(parsed.record, doc, Config::defaults()),
        Theme::plain(),
    )
}

#[test]
fn an_illegal_move_read_from_the_file_is_marked_where_it_is() {
    let mut v = illegal_viewer();
    press(&mut v, "ll");
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert_row(&rows, 3, "   3 ▲５五飛(28)!");
    for ply in [1, 2, 4, 5] {
        assert!(!row(&rows, ply).contains('!'), "{}", row(&rows, ply));
    }
    // Not on it: the status line does not repeat the warning.
    assert!(
        !rows.iter().any(|r| r.contains("! line")),
        "{}",
        rows.join("\n")
    );
    press(&mut v, "l");
    let t = screen(&mut v, 80, 24);
    let rows = screen_rows(&t);
    let status = rows.last().unwrap();
    assert!(
        status.contains("! line 5: move 3 (▲５五飛(28)) is illegal"),
        "{}",
        rows.join("\n")
    );
    insta::assert_snapshot!("illegal_move_80x24", t.backend());
    press(&mut v, "l");
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert!(
        !rows.iter().any(|r| r.contains("! line")),
        "{}",
        rows.join("\n")
    );
}

#[test]
fn the_real_shogigui_file_marks_its_king_left_in_check_at_281() {
    let Some(file) = crate::common::corpus_file(
        "real/kif-parser/20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22[shogigui].kif",
    ) else {
        return;
    };
    let opts = LaunchOptions {
        file: Some(file),
        ply: Some(280),
        ..Default::default()
    };
    let mut v = viewer_with(&opts);
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert_row(&rows, 281, " 281 ▲同　玉(59)!");
    assert!(!row(&rows, 280).contains('!'));
    press(&mut v, "l");
    let t = screen(&mut v, 160, 48);
    let rows = screen_rows(&t);
    assert!(
        rows.last()
            .unwrap()
            .contains("move 281 (▲同　玉(59)) is illegal: 王手放置"),
        "{}",
        rows.join("\n")
    );
    insta::assert_snapshot!("illegal_move_real_160x48", t.backend());
}

/// Two golds that can both reach a square (右, 上), a promotion and a capture (同).
fn relative_moves() -> Record {
    let mut r = Record::default();
    push_line(&mut r, NodeId::ROOT, "4i5h 6a5b 7g7f 3c3d 8h2b+ 3a2b 6i6h");
    r
}

#[test]
fn v_switches_the_move_list_to_ki2_notation() {
    let mut v = viewer(relative_moves(), Config::defaults());
    press(&mut v, "G");
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert_row(&rows, 1, "   1 ▲５八金(49)");
    assert_row(&rows, 6, "   6 △同　銀(31)");
    press(&mut v, "v");
    let t = screen(&mut v, 80, 24);
    let rows = screen_rows(&t);
    for (ply, text) in [
        (1, "▲５八金右"),
        (2, "△５二金右"),
        (3, "▲７六歩"),
        (5, "▲２二角成"),
        (6, "△同　銀"),
        (7, "▲６八金上"),
    ] {
        assert_row(&rows, ply, &format!("{ply:>4} {text} "));
    }
    assert!(rows.iter().any(|r| r.contains("move list: KI2 notation")));
    insta::assert_snapshot!("ki2_notation_80x24", t.backend());
    press(&mut v, "v");
    let rows = screen_rows(&screen(&mut v, 80, 24));
    assert_row(&rows, 1, "   1 ▲５八金(49)");
}

#[test]
fn the_config_starts_the_move_list_in_ki2() {
    let cfg = Config::from_toml("u.toml", "[move_list]\nnotation = \"ki2\"\n").unwrap();
    let mut v = viewer(relative_moves(), cfg);
    let rows = screen_rows(&screen(&mut v, 160, 48));
    assert_row(&rows, 2, "   2 △５二金右");
}

#[test]
fn ki2_rows_agree_with_the_ki2_writer_on_generated_records() {
    // Every move of each main line as the KI2 writer writes it, drawn a screen at a time.
    let Some(base) = corpus() else {
        return;
    };
    let cfg = Config::from_toml("u.toml", "[move_list]\nnotation = \"ki2\"\n").unwrap();
    let mut files = Vec::new();
    crate::common::files_with_ext(&base.join("generated"), &["kifu"], &mut files);
    assert!(files.len() >= 50, "{}", files.len());
    let mut relative = 0;
    for f in &files {
        let n = f.display();
        let text = std::fs::read_to_string(f).unwrap();
        let record = notation::read_text(&text, Format::Kif).remove(0).record;
        let written = notation::ki2::write(&record).text;
        let body = written.split("\n変化：").next().unwrap();
        // Tokens start at a side mark (`△同　歩` holds an ideographic space; a long token
        // may touch the next one).
        let want: Vec<&str> = body
            .lines()
            .filter(|l| l.starts_with(['▲', '△']))
            .flat_map(|l| {
                l.match_indices(['▲', '△'])
                    .map(|(i, _)| i)
                    .chain([l.len()])
                    .collect::<Vec<_>>()
                    .windows(2)
                    .map(|w| l[w[0]..w[1]].trim_end_matches(' '))
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut v = viewer(record, cfg.clone());
        let got = v.app.move_texts(1..v.app.line().len());
        let got: Vec<&str> = got.iter().map(String::as_str).collect();
        // The writer ends with a まで line, not a move token; endings are words in the list.
        assert_eq!(&got[..want.len()], &want[..], "{n}");
        relative += want
            .iter()
            .filter(|t| t.contains(['右', '左', '上', '引', '寄', '直']))
            .count();
        // Drawn from the middle of the line, the rows say the same.
        let mid = want.len() / 2;
        if mid == 0 {
            continue;
        }
        press(&mut v, &"l".repeat(mid));
        let rows = screen_rows(&screen(&mut v, 80, 24));
        let r = row(&rows, mid);
        assert!(
            r[4..].trim_start_matches(' ').starts_with(want[mid - 1]),
            "{n}: {r} vs {}",
            want[mid - 1]
        );
    }
    assert!(
        relative > 20,
        "only {relative} moves with 右 左 上 引 寄 直"
    );
}
