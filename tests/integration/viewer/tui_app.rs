//! Whole-app tests: the viewer drawn into a TestBackend after key sequences.

use kifview::app::testing::push_line;
use kifview::app::{App, Config, LaunchOptions, RecordSource};
use kifview::core::record::{MoveTime, NodeId, Record, Special, Step};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::common::{asset, screen, screen_rows, viewer_on, viewer_with};

fn doc(name: &str) -> RecordSource {
    RecordSource::untitled(name)
}

/// A game with names, a comment, times, a bookmark and variations at plies 1, 3 and 4.
fn study() -> Record {
    let mut r = Record::default();
    r.header.set("棋戦", "テスト棋戦");
    r.header.set("先手", "羽生善治");
    r.header.set("後手", "藤井聡太");
    r.node_mut(NodeId::ROOT).comment = "初形のコメント".into();
    let end = push_line(&mut r, NodeId::ROOT, "7g7f 3c3d 8h2b+ 3a2b B*4e");
    r.push_child(end, Step::Special(Special::Resign));
    let line = r.main_line();
    r.node_mut(line[1]).time = Some(MoveTime {
        spent_ms: 5000,
        total_ms: Some(5000),
    });
    r.node_mut(line[3]).comment = "角交換。\x1b[31m危険な文字\x1b[0mは表示しない".into();
    r.node_mut(line[3]).bookmark = Some("角換わり".into());
    push_line(&mut r, NodeId::ROOT, "2g2f 8c8d");
    push_line(&mut r, line[2], "2g2f 4a3b");
    push_line(&mut r, line[3], "8c8d 2b3a");
    push_line(&mut r, line[3], "4a3b 2b1a");
    r
}

fn viewer(r: Record) -> Viewer {
    Viewer::new(
        App::new(r, doc("study.kif"), Config::defaults()),
        Theme::plain(),
    )
}

fn press(v: &mut Viewer, keys: &str) {
    for c in keys.chars() {
        let k = match c {
            '→' => KeyCode::Right,
            '←' => KeyCode::Left,
            '↓' => KeyCode::Down,
            '↑' => KeyCode::Up,
            '⏎' => KeyCode::Enter,
            '⇥' => KeyCode::Tab,
            '⎋' => KeyCode::Esc,
            c => KeyCode::Char(c),
        };
        v.handle(&Event::Key(KeyEvent::new(k, KeyModifiers::NONE)));
    }
}

#[test]
fn start_screen_80x24() {
    let mut v = viewer(study());
    let t = screen(&mut v, 80, 24);
    insta::assert_snapshot!(t.backend());
}

#[test]
fn after_moves_and_a_variation_80x24() {
    let mut v = viewer(study());
    press(&mut v, "lll");
    let t = screen(&mut v, 80, 24);
    let s = screen_rows(&t).join("\n");
    assert!(s.contains("手数＝3  ▲２二角成  まで"), "{s}");
    assert!(s.contains("&角換わり"), "{s}");
    assert!(!s.contains('\x1b'));
    press(&mut v, "j");
    let t = screen(&mut v, 80, 24);
    insta::assert_snapshot!(t.backend());
}

#[test]
fn large_screen_160x48_with_tree() {
    let mut v = viewer(study());
    press(&mut v, "llll");
    let t = screen(&mut v, 160, 48);
    insta::assert_snapshot!("large_160x48", t.backend());
    press(&mut v, "t");
    let t = screen(&mut v, 160, 48);
    insta::assert_snapshot!("tree_160x48", t.backend());
    press(&mut v, "jj⏎");
    assert_eq!(v.app.cur_index(), 3);
    assert_eq!(v.app.step_text(v.app.cur()), "▲２六歩(27)");
    press(&mut v, "l");
    assert_eq!(v.app.step_text(v.app.cur()), "△３二金(41)");
}

#[test]
fn help_is_generated_from_the_keymap() {
    let mut v = viewer(study());
    press(&mut v, "?");
    let t = screen(&mut v, 100, 40);
    let s = screen_rows(&t).join("\n");
    for c in kifview::app::COMMANDS {
        let (name, doc) = (c.name, c.doc);
        if name == "none" {
            continue;
        }
        let shown = kifview::tui::ui::help_lines(&v.app).join("\n");
        assert!(shown.contains(doc), "{name} missing from help");
    }
    assert!(s.contains("Next move along the current line"), "{s}");
    insta::assert_snapshot!(t.backend());
    // Rebinding changes the help.
    let cfg = Config::from_toml("u.toml", "[keys.normal]\n\"n\" = \"next_move\"\n").unwrap();
    let mut v2 = Viewer::new(App::new(study(), doc("x"), cfg), Theme::plain());
    let lines = kifview::tui::ui::help_lines(&v2.app);
    let row = lines
        .iter()
        .find(|l| l.contains("Next move along"))
        .unwrap();
    assert!(
        row.contains("n ") && row.contains("l ") && row.contains("Right"),
        "{row}"
    );
    press(&mut v2, "n");
    assert_eq!(v2.app.cur_index(), 1);
}

#[test]
fn too_small_terminal_says_how_big() {
    let mut v = viewer(study());
    let t = screen(&mut v, 50, 12);
    let s = screen_rows(&t).join("");
    assert!(s.contains("64x18") && s.contains("50x12"), "{s}");
}

#[test]
fn every_board_row_lines_up_in_the_full_screen() {
    let mut v = viewer(study());
    press(&mut v, "lll");
    for (w, h) in [(80, 24), (64, 18), (120, 30), (160, 48)] {
        // The BOD board (the large one is checked in `layout.rs`).
        kifview::app::testing::run_until(
            &mut v.app,
            kifview::app::Command::CycleBoardSize,
            3,
            |a| a.board_size() == kifview::app::config::BoardSize::Bod,
        );
        let t = screen(&mut v, w, h);
        let buf = t.backend().buffer();
        let rows: Vec<u16> = (0..h)
            .filter(|&y| buf[(0, y)].symbol() == "|" && buf[(28, y)].symbol() == "|")
            .collect();
        assert_eq!(rows.len(), 9, "{w}x{h}: {:?}", screen_rows(&t));
        for y in rows {
            for col in 0..9u16 {
                let s = buf[(2 + 3 * col, y)].symbol();
                assert_eq!(unicode_width::UnicodeWidthStr::width(s), 2, "{w}x{h} {y}");
            }
        }
    }
}

#[test]
fn double_width_mode_skips_pad_cells_and_uses_ascii_borders() {
    let cfg = Config::from_toml("u.toml", "ambiguous_width = \"double\"\n").unwrap();
    let theme = Theme::new(&cfg, false, true);
    let mut v = Viewer::new(App::new(study(), doc("s.kif"), cfg), theme);
    press(&mut v, "l");
    let t = screen(&mut v, 80, 24);
    // The pad cells are never sent to the terminal.
    assert!(
        screen_rows(&t)[0].starts_with("△ 後手"),
        "{}",
        screen_rows(&t)[0]
    );
    let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 80, 24));
    kifview::tui::ui::render(buf.area, &mut buf, &v.app, &v.theme, &mut v.view);
    let mut marks = 0;
    for y in 0..24 {
        for x in 0..79 {
            let c = &buf[(x, y)];
            if c.symbol() == "▲" || c.symbol() == "△" {
                marks += 1;
                assert_eq!(buf[(x + 1, y)].symbol(), "\u{a0}", "{x},{y}");
                assert_eq!(
                    buf[(x + 1, y)].diff_option,
                    ratatui::buffer::CellDiffOption::Skip
                );
            }
            assert!(
                !matches!(c.symbol(), "─" | "│" | "┌" | "┐" | "└" | "┘"),
                "box drawing at {x},{y}"
            );
        }
    }
    assert!(marks >= 3, "{marks}");
}

#[test]
fn mouse_click_and_wheel() {
    let mut v = viewer(study());
    let _ = screen(&mut v, 80, 24);
    let area = v.view.moves_area;
    let click = |row: u16| {
        Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: area.x + 3,
            row: area.y + row,
            modifiers: KeyModifiers::NONE,
        })
    };
    v.handle(&click(4));
    assert_eq!(v.app.cur_index(), 4);
    let wheel = Event::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollUp,
        column: area.x + 3,
        row: area.y,
        modifiers: KeyModifiers::NONE,
    });
    v.handle(&wheel);
    assert_eq!(v.app.cur_index(), 3);
}

#[test]
fn flipped_board_puts_gote_at_the_bottom() {
    let mut v = viewer(study());
    press(&mut v, "f");
    let t = screen(&mut v, 80, 24);
    let lines = screen_rows(&t);
    assert!(lines[0].starts_with("▲先手：羽生善治"), "{}", lines[0]);
    assert!(lines[2].starts_with("  １ ２ ３"), "{}", lines[2]);
    assert!(
        lines[4].starts_with("| 香 桂 銀 金 玉 金 銀 桂 香|九"),
        "{}",
        lines[4]
    );
}

/// The viewer on the corpus file `rel` (`None` when the corpus is not here: see
/// `common::corpus`).
fn open(rel: &str, ply: Option<u32>) -> Option<Viewer> {
    let file = crate::common::corpus_file(rel)?;
    let opts = LaunchOptions {
        file: Some(file),
        ply,
        ..Default::default()
    };
    let app = App::open(&opts, Config::defaults()).unwrap();
    assert!(app.record().len() > 1, "{rel}: no move was read");
    Some(Viewer::new(app, Theme::plain()))
}

#[test]
fn real_shift_jis_kif_at_a_ply() {
    let Some(mut v) = open(
        "real/json-kifu-format/test/files/kif/ryuou201409020101.kif",
        Some(30),
    ) else {
        return;
    };
    assert_eq!(v.app.cur_index(), 30);
    press(&mut v, "ll");
    let t = screen(&mut v, 80, 24);
    let s = screen_rows(&t).join("\n");
    assert!(s.contains("Shift_JIS"), "{s}");
    assert!(s.contains("糸谷哲郎"), "{s}");
    insta::assert_snapshot!(t.backend());
}

#[test]
fn real_variations_file() {
    let Some(mut v) = open("generated/g4242_052.kif", None) else {
        return;
    };
    press(&mut v, "lllljjj");
    let t = screen(&mut v, 80, 24);
    insta::assert_snapshot!("variations_80x24", t.backend());
    press(&mut v, "t");
    let t = screen(&mut v, 80, 24);
    insta::assert_snapshot!("variations_tree_80x24", t.backend());
}

#[test]
fn real_handicap_game() {
    let Some(mut v) = open(
        "real/json-kifu-format/test/files/kif/20081220kyoochi.kif",
        None,
    ) else {
        return;
    };
    press(&mut v, "l");
    let t = screen(&mut v, 80, 24);
    let s = screen_rows(&t).join("\n");
    assert!(s.contains("上手") && s.contains("下手"), "{s}");
    insta::assert_snapshot!(t.backend());
}

/// A 50,000-node study: a 400-ply main line of king shuffles with a 124-ply branch at every
/// ply. Built without replaying (the viewer does not need the moves to be legal).
fn big_study() -> Record {
    use kifview::core::record::MoveData;
    use kifview::core::rules::{Color, Move, PieceKind, Square};
    let sq = |f, r| Square::new(f, r).unwrap();
    let king = |ply: u32| -> MoveData {
        // Black 5i5h, White 5a5b, Black 5h5i, White 5b5a, ...
        let (color, from, to) = match ply % 4 {
            0 => (Color::Black, sq(5, 9), sq(5, 8)),
            1 => (Color::White, sq(5, 1), sq(5, 2)),
            2 => (Color::Black, sq(5, 8), sq(5, 9)),
            _ => (Color::White, sq(5, 2), sq(5, 1)),
        };
        MoveData {
            mv: Move::Normal {
                from,
                to,
                promote: false,
            },
            color,
            piece: PieceKind::King,
            captured: None,
        }
    };
    let mut r = Record::default();
    let mut main = vec![NodeId::ROOT];
    for ply in 0..400 {
        let n = r.push_child(*main.last().unwrap(), Step::Move(king(ply)));
        main.push(n);
    }
    for (i, &fork) in main.iter().enumerate().take(400) {
        // An alternative: the same shuffle one step later in the cycle is illegal but
        // physically possible; use a distinct edge pawn push as the branch's first move.
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let (from, to) = match color {
            Color::Black => (sq(1, 7), sq(1, 6)),
            Color::White => (sq(9, 3), sq(9, 4)),
        };
        let mut p = r.push_child(
            fork,
            Step::Move(MoveData {
                mv: Move::Normal {
                    from,
                    to,
                    promote: false,
                },
                color,
                piece: PieceKind::Pawn,
                captured: None,
            }),
        );
        for k in 0..123u32 {
            p = r.push_child(p, Step::Move(king(i as u32 + 1 + k)));
        }
    }
    assert!(r.len() > 50_000, "{}", r.len());
    r
}

#[test]
fn big_study_browses_and_draws() {
    // Speed is measured by the viewer group of `cargo bench`; this checks where the keys land.
    let mut v = viewer(big_study());
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut step = |v: &mut Viewer, keys: &str| {
        press(v, keys);
        t.draw(|f| v.draw(f)).unwrap();
    };
    step(&mut v, "G");
    assert_eq!(v.app.cur_index(), 400);
    step(&mut v, ":200⏎");
    assert_eq!(v.app.cur_index(), 200);
    step(&mut v, "j");
    assert_eq!(v.app.line().len(), 200 + 124);
    step(&mut v, "G");
    assert_eq!(v.app.cur_index(), 323);
    step(&mut v, "t");
    assert_eq!(v.app.outline_cached().unwrap().rows.len(), 401);
    step(&mut v, "G⏎");
    assert_eq!(v.app.cur_index(), 400);
    for _ in 0..20 {
        step(&mut v, "hj");
    }
    assert_eq!(v.app.cur_index(), 380);
}

#[test]
fn sample_study_variation_and_tree() {
    let mut v = viewer_on(&asset("study.kif"), None);
    assert!(v.app.record().len() > 40, "the KIF reader read the sample");
    press(&mut v, "llllll");
    let s = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(s.contains("変化 6手目 1/2"), "{s}");
    press(&mut v, "j");
    insta::assert_snapshot!("study_alternative_80x24", screen(&mut v, 80, 24).backend());
    press(&mut v, "hl");
    assert!(
        screen_rows(&screen(&mut v, 80, 24))
            .join("\n")
            .contains("手数＝6  △８四歩  まで")
    );
    press(&mut v, "t");
    insta::assert_snapshot!("study_tree_120x30", screen(&mut v, 120, 30).backend());
}

#[test]
fn sample_handicap_game() {
    let mut v = viewer_on(&asset("handicap-nimaiochi.kif"), None);
    press(&mut v, "ll");
    let t = screen(&mut v, 80, 24);
    let s = screen_rows(&t).join("\n");
    assert!(s.contains("上手の持駒") && s.contains("下手の持駒"), "{s}");
    insta::assert_snapshot!("handicap_80x24", t.backend());
}

#[test]
fn emoji_sequences_in_a_name_are_drawn_one_emoji_per_two_cells() {
    // 👨‍👩‍👧‍👦 is one cluster of width 2 for unicode-width and 8 cells in tmux: a terminal
    // without ZWJ shaping shifts the pane border by 6. The viewer draws the four emoji apart.
    let mut r = study();
    r.header.set("後手", "👨\u{200D}👩\u{200D}👧\u{200D}👦名人");
    let mut v = viewer(r);
    let t = screen(&mut v, 80, 24);
    let buf = t.backend().buffer();
    let mut emoji = 0;
    for cell in buf.content() {
        let sym = cell.symbol();
        assert!(
            !sym.contains('\u{200D}'),
            "a joined sequence reached a cell: {sym:?}"
        );
        if ["👨", "👩", "👧", "👦"].contains(&sym) {
            emoji += 1;
        }
    }
    // Four in the name over the board and four in the header pane.
    assert_eq!(emoji, 8, "{}", screen_rows(&t).join("\n"));
}

#[test]
fn pane_borders_stay_in_their_columns_with_full_width_text() {
    use kifview::core::rules::{Color, PieceKind};
    // Big hands (they wrap), long names, a comment mixing widths.
    let mut r = study();
    r.header
        .set("先手", "とても長い名前の先手さん（九段）ABCDEFGHIJKLMNOP");
    r.header.set(
        "備考",
        "全角ａｂｃと半角abcと▲△と記号★☆が混じる長い備考欄の文字列",
    );
    let mut pos = r.initial.position.clone();
    for (k, n) in [
        (PieceKind::Rook, 1),
        (PieceKind::Bishop, 1),
        (PieceKind::Gold, 2),
        (PieceKind::Silver, 3),
        (PieceKind::Knight, 2),
        (PieceKind::Lance, 3),
        (PieceKind::Pawn, 15),
    ] {
        pos.set_hand_count(Color::Black, k, n);
        pos.set_hand_count(Color::White, k, n);
    }
    r.initial.position = pos;
    r.node_mut(NodeId::ROOT).comment =
        "半角と全角が混ざる　コメント mixed width ▲７六歩 △３四歩".into();
    let mut v = viewer(r);
    for flip in [false, true] {
        if flip {
            press(&mut v, "f");
        }
        let t = screen(&mut v, 80, 24);
        let buf = t.backend().buffer();
        let lines = screen_rows(&t);
        // The right column's left border is at x = 34 on every row but the status line.
        for y in 0..23u16 {
            let s = buf[(34, y)].symbol();
            assert!(
                matches!(s, "│" | "┌" | "└"),
                "row {y}: {:?} at x=34 in {:?}",
                s,
                lines[y as usize]
            );
        }
        // The hands wrapped instead of running into the move list.
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("先手の持駒：飛　角　金二")),
            "{lines:#?}"
        );
    }
}

#[test]
fn move_list_times_line_up_whatever_the_move_text() {
    let mut v = viewer_on(&asset("study.kif"), None);
    let t = screen(&mut v, 80, 24);
    let buf = t.backend().buffer();
    let area = v.view.moves_area;
    let mut rows = 0;
    for y in area.y + 1..area.bottom() {
        // Each time ends at the pane's right edge: `m:ss/hh:mm:ss`.
        let right = area.right() - 1;
        let slash = right - 8;
        assert_eq!(
            buf[(slash, y)].symbol(),
            "/",
            "row {y}: {:?}",
            screen_rows(&t)[y as usize]
        );
        assert!(buf[(right, y)].symbol().chars().all(|c| c.is_ascii_digit()));
        rows += 1;
    }
    assert!(rows >= 8);
}

#[test]
fn reader_warnings_in_the_status_line_and_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.kifu");
    std::fs::write(
        &file,
        "先手：\x1b[31mred\x1b[0m\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ９九飛打\n   4 ぐちゃぐちゃ\n",
    )
    .unwrap();
    let opts = LaunchOptions {
        file: Some(file),
        ..Default::default()
    };
    let app = App::open(&opts, Config::defaults()).unwrap();
    assert!(!app.source().warnings.is_empty());
    let mut v = Viewer::new(app, Theme::plain());
    let t = screen(&mut v, 80, 24);
    let lines = screen_rows(&t);
    let status = &crate::common::status_rows(&v, &lines, 80);
    assert!(
        status.contains("bad.kifu") && status.contains("warning"),
        "{status}"
    );
    assert!(
        status.contains("bad.kifu:"),
        "first warning with its line: {status}"
    );
    assert!(!lines.concat().contains('\x1b'));
    press(&mut v, "W");
    let s = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(s.contains("Problems found while reading"), "{s}");
    for w in &v.app.source().warnings {
        assert!(s.contains(&format!("bad.kifu:{}:", w.line)), "{s}");
    }
    press(&mut v, "q");
    assert_eq!(v.app.mode(), kifview::app::Mode::Normal);
    assert!(!v.app.should_quit());
}

#[test]
fn record_option_picks_a_record_of_a_multi_record_csa_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.csa");
    std::fs::write(
        &file,
        "V2.2\nN+Alpha\nN-Beta\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nV2.2\nN+Gamma\nN-Delta\nPI\n+\n+2726FU\n%CHUDAN\n",
    )
    .unwrap();
    let open = |record| {
        App::open(
            &LaunchOptions {
                file: Some(file.clone()),
                record,
                ..Default::default()
            },
            Config::defaults(),
        )
    };
    let app = open(2).unwrap();
    assert_eq!(app.record().header.black_name(), Some("Gamma"));
    let mut v = Viewer::new(app, Theme::plain());
    let status = screen_rows(&screen(&mut v, 80, 24))[23].clone();
    assert!(status.contains("two.csa record 2/2 CSA"), "{status}");
    assert_eq!(open(1).unwrap().record().header.black_name(), Some("Alpha"));
    let e = open(3).unwrap_err().to_string();
    assert!(e.contains("--record 3") && e.contains("2 records"), "{e}");
    // One `--record N` rule: the subcommands answer as the viewer does, word for word.
    let viewer_says = e.trim().to_string();
    for args in [
        &["show", "--record", "3"][..],
        &["convert", "--to", "kifu", "--record", "3"],
        &["diagram", "-o", "x.svg", "--record", "3"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kifview"))
            .args(&args[..1])
            .arg(&file)
            .args(&args[1..])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            err.contains(&viewer_says),
            "{args:?}: {err} (the viewer: {viewer_says})"
        );
    }
}

#[test]
fn colon_commands_complete_and_name_close_matches() {
    let mut v = viewer(study());
    let status = |v: &mut Viewer| {
        let t = screen(v, 100, 30);
        screen_rows(&t).last().cloned().unwrap_or_default()
    };
    // A typo: says so and offers the close ones.
    press(&mut v, ":wrtie⏎");
    let s = status(&mut v);
    assert!(
        s.contains("unknown command :wrtie; did you mean :write?"),
        "{s}"
    );
    // Tab completes a command name; again, the next match.
    press(&mut v, ":sa⇥");
    assert!(status(&mut v).starts_with(":sav"), "{}", status(&mut v));
    press(&mut v, "⇥");
    assert!(status(&mut v).starts_with(":saveas"), "{}", status(&mut v));
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), kifview::app::Mode::Normal);
    // A single match gets a space when it takes a path; then Tab completes the file name.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("only-one.kif"), "").unwrap();
    press(&mut v, ":edi⇥");
    assert!(status(&mut v).starts_with(":edit"), "{}", status(&mut v));
    press(&mut v, "⎋:e ");
    press(&mut v, &format!("{}/on⇥", dir.path().display()));
    let want = format!(":e {}/only-one.kif", dir.path().display());
    assert!(status(&mut v).starts_with(&want), "{}", status(&mut v));
    press(&mut v, "⎋");
    // The help lists the : commands from their table.
    let help = kifview::tui::ui::help_lines(&v.app).join("\n");
    for c in kifview::app::dispatch::typable::TYPABLE_COMMANDS {
        assert!(
            help.contains(&c.usage()),
            "{} missing from the help",
            c.name
        );
    }
}

#[test]
fn overlays_stack_and_close_back_to_the_one_below() {
    use kifview::app::Mode;
    let mut v = viewer(study());
    // The tree, help over it, closing help returns to the tree, closing it to browsing.
    press(&mut v, "t?");
    assert_eq!(v.app.mode(), Mode::Help);
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Tree);
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Normal);
    // The header list, a prompt over it (drawn on the status line while the list stays on
    // screen), Esc back to the list with nothing changed.
    press(&mut v, "e⏎");
    assert_eq!(v.app.mode(), Mode::Prompt);
    let t = screen(&mut v, 100, 30);
    let s = screen_rows(&t).join("\n");
    assert!(
        s.contains("対局情報  Enter: edit"),
        "the list stays under the prompt: {s}"
    );
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::List);
    press(&mut v, "⎋");
    assert_eq!(v.app.mode(), Mode::Normal);
    assert!(v.app.overlays().is_empty());
}

#[test]
fn binary_files_are_refused_and_empty_files_open_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let elf = dir.path().join("prog.kif");
    std::fs::write(
        &elf,
        b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0GCC: (Debian)\n",
    )
    .unwrap();
    let opts = LaunchOptions {
        file: Some(elf.clone()),
        ..Default::default()
    };
    let err = App::open(&opts, Config::defaults())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("prog.kif: not a record") && err.contains("binary"),
        "{err}"
    );

    let empty = dir.path().join("empty.kif");
    std::fs::write(&empty, b"").unwrap();
    let opts = LaunchOptions {
        file: Some(empty),
        ..Default::default()
    };
    let app = App::open(&opts, Config::defaults()).unwrap();
    assert!(app.record().is_empty());
    let mut v = Viewer::new(app, Theme::plain());
    let rows = screen_rows(&screen(&mut v, 100, 30));
    let status = crate::common::status_rows(&v, &rows, 100);
    assert!(status.contains("1 warning"), "{status}");
    press(&mut v, "W");
    let shown = screen_rows(&screen(&mut v, 100, 30)).join("\n");
    assert!(shown.contains("the file is empty"), "{shown}");
}

#[test]
fn a_long_file_name_gives_way_to_the_warning_count() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir
        .path()
        .join("a-very-long-file-name-of-a-study-group-session-2026-11-23-final-v3.kifu");
    std::fs::write(
        &file,
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ９九飛打\n",
    )
    .unwrap();
    let opts = LaunchOptions {
        file: Some(file),
        ..Default::default()
    };
    let mut v = viewer_with(&opts);
    let rows = screen_rows(&screen(&mut v, 80, 24));
    let status = crate::common::status_rows(&v, &rows, 80);
    let first = status.lines().next().unwrap();
    assert!(first.contains("1 warning"), "{status}");
    assert!(
        first.contains('…') && first.contains("final-v3.kifu"),
        "{status}"
    );
    assert!(first.starts_with(" a-very-long"), "{status}");
}

/// The position panel (`Ctrl-p`, a panel added in three files) shows the SFEN, each side's
/// pieces and points and the mates in one, and Esc closes it. A pawn drop that would mate is
/// no mate in one (打ち歩詰め).
#[test]
fn ctrl_p_shows_the_position_panel_and_esc_closes_it() {
    use kifview::core::record::Initial;
    use kifview::core::rules::Position;
    let at = |sfen: &str| {
        let record = Record::new(Initial {
            position: Position::from_sfen(sfen).unwrap(),
            handicap: None,
        });
        Viewer::new(
            App::new(record, doc("t.kif"), Config::defaults()),
            Theme::plain(),
        )
    };
    let ctrl_p = Event::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL));
    let mut v = at("4k4/9/4G4/9/9/9/9/9/4K4 b G 1");
    v.handle(&ctrl_p);
    let shown = screen_rows(&screen(&mut v, 100, 30)).join("\n");
    for line in [
        "The start position",
        "Side to move: ▲ sente (先手)",
        "SFEN: 4k4/9/4G4/9/9/9/9/9/4K4 b G 1",
        "金2 (in hand: 金), 2 points",
        "(in hand: none), 0 points",
        "In check: no",
        "Mate in one: ▲５二金打",
        "-- POSITION --",
    ] {
        assert!(shown.contains(line), "{line:?} not in\n{shown}");
    }
    press(&mut v, "⎋");
    let shown = screen_rows(&screen(&mut v, 100, 30)).join("\n");
    assert!(!shown.contains("SFEN:"), "Esc closes it:\n{shown}");

    let mut v = at("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    v.handle(&ctrl_p);
    let shown = screen_rows(&screen(&mut v, 100, 30)).join("\n");
    let mates = shown.lines().find(|l| l.contains("Mate in one:")).unwrap();
    assert!(!mates.contains('歩'), "打ち歩詰め is no mate: {mates}");
}
