//! Diagrams: the SVG of typical positions (snapshots), PNGs drawn with the bundled font alone
//! (a machine without Japanese fonts), and `kifview diagram` from the command line.

use crate::common::asset;
use assert_cmd::Command;
use kifview::core::rules::Position;
use kifview::diagram::render::{self, Fonts, MISSING};
use kifview::diagram::{Diagram, Theme, svg};
use kifview::load::read_records;
use resvg::tiny_skia::Pixmap;

fn kifview() -> Command {
    Command::cargo_bin("kifview").expect("binary built")
}

/// The diagram after `ply` moves (all for `None`) of the record in `text`.
fn diagram_of(text: &str, ply: Option<u32>, flip: bool) -> Diagram {
    let loaded = read_records(text.as_bytes(), None).expect("a record");
    let record = &loaded.records[0].record;
    Diagram::at(record, record.node_at_ply(ply).unwrap(), flip)
}

fn sfen(s: &str) -> Diagram {
    Diagram::of_position(Position::from_sfen(s).unwrap(), false)
}

/// The SVG, checked to be one resvg reads.
fn svg_of(d: &Diagram) -> String {
    let s = svg::write(d, &Theme::default(), None);
    resvg::usvg::Tree::from_str(&s, &resvg::usvg::Options::default())
        .unwrap_or_else(|e| panic!("not an SVG resvg reads: {e}\n{s}"));
    s
}

#[test]
fn start_position() {
    let d = diagram_of("position startpos\n", None, false);
    let s = svg_of(&d);
    // Gote's pieces are turned, sente's are not; nothing is marked before a move.
    assert_eq!(s.matches("rotate(180").count(), 20);
    assert!(!s.contains("第"), "no caption at the start");
    insta::assert_snapshot!("diagram_start", s);
}

#[test]
fn handicap_game() {
    let text = std::fs::read(asset("handicap-nimaiochi.kif")).unwrap();
    let loaded = read_records(&text, Some(&asset("handicap-nimaiochi.kif"))).unwrap();
    let record = &loaded.records[0].record;
    let d = Diagram::at(record, record.root(), false);
    let s = svg_of(&d);
    assert!(s.contains("▲下手") && s.contains("△上手"), "{s}");
    assert!(
        !s.contains("駒箱"),
        "a handicap's missing pieces are not a box"
    );
    insta::assert_snapshot!("diagram_handicap", s);
}

#[test]
fn tsume_with_both_hands_and_the_box() {
    let d = sfen("7nk/9/7P1/9/9/9/9/9/9 b GS2r 1");
    let s = svg_of(&d);
    assert!(s.contains("▲先手　持駒 金 銀"), "{s}");
    assert!(s.contains("△後手　持駒 飛二"), "{s}");
    assert!(
        s.contains("駒箱 角二 金三 銀三 桂三 香四 歩十七"),
        "the rest of the set is in the box: {s}"
    );
    insta::assert_snapshot!("diagram_tsume", s);
}

#[test]
fn flipped_after_two_moves() {
    let d = diagram_of("position startpos moves 7g7f 3c3d\n", None, true);
    let s = svg_of(&d);
    // Gote's view: sente's pieces are the turned ones, 一 is at the bottom, the last move's
    // square (３四) is marked and named.
    assert_eq!(s.matches("rotate(180").count(), 20);
    assert!(s.contains("第2手 △３四歩まで"), "{s}");
    let sente_line = s.find("▲先手").unwrap();
    let board = s.find("<path").unwrap();
    assert!(
        sente_line < board,
        "sente's hand is above the board when flipped"
    );
    insta::assert_snapshot!("diagram_flipped", s);
}

#[test]
fn every_promoted_piece() {
    let d = sfen("4k4/9/+P+L+N+S+B+R3/9/9/9/3+r+b+s+n+l+p/9/4K4 b - 1");
    let s = svg_of(&d);
    for k in ['と', '杏', '圭', '全', '馬', '龍'] {
        assert_eq!(s.matches(&format!(">{k}<")).count(), 2, "{k}");
    }
    let promoted = Theme::default().promoted;
    assert_eq!(s.matches(&format!("fill=\"{promoted}\"")).count(), 12);
    insta::assert_snapshot!("diagram_promoted", s);
}

#[test]
fn names_and_bookmarks_from_files_are_escaped() {
    let text = "先手：<b>&amp\u{1b}[31m\n後手：\"x\"\n手合割：平手\n   1 ７六歩(77)\n&<script>\n";
    let d = diagram_of(text, None, false);
    let s = svg_of(&d);
    assert!(s.contains("&lt;b&gt;&amp;amp[31m"), "{s}");
    assert!(!s.contains('\u{1b}'));
    assert!(
        s.contains("&lt;script&gt;"),
        "the bookmark is the caption: {s}"
    );
}

/// The PNG of `d` drawn with the bundled font alone, decoded.
fn png_of(d: &mut Diagram, width: u32) -> (Pixmap, Vec<char>) {
    let fonts = Fonts::bundled_only();
    let theme = Theme::default();
    let (db, missing) = fonts.prepare(d, &theme);
    let bytes = render::png(&svg::write(d, &theme, Some(width)), db).unwrap();
    (Pixmap::decode_png(&bytes).unwrap(), missing)
}

/// How many pixels of the square (file, rank) are dark (a glyph's strokes), leaving out the
/// grid lines at its edges. The layout: squares 40x44 units from (12, 64), two pixels a unit.
fn dark_pixels(p: &Pixmap, file: u32, rank: u32) -> usize {
    let (x0, y0) = ((12 + (9 - file) * 40) * 2, (64 + (rank - 1) * 44) * 2);
    let mut n = 0;
    for y in y0 + 6..y0 + 88 - 6 {
        for x in x0 + 6..x0 + 80 - 6 {
            let c = p.pixel(x, y).unwrap();
            if u32::from(c.red()) + u32::from(c.green()) + u32::from(c.blue()) < 200 {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn png_draws_the_kanji_with_the_bundled_font_alone() {
    let mut d = diagram_of("position startpos moves 7g7f\n", None, false);
    let (p, missing) = png_of(&mut d, 816);
    assert!(missing.is_empty());
    assert_eq!(p.width(), 816);
    assert_eq!(p.height(), 538 * 2);
    // Every piece is drawn (its kanji has strokes), every empty square is not.
    for (file, rank) in [(5, 9), (8, 8), (2, 2), (5, 1), (7, 6), (1, 7), (9, 3)] {
        assert!(
            dark_pixels(&p, file, rank) > 150,
            "no kanji on {file}{rank}: {}",
            dark_pixels(&p, file, rank)
        );
    }
    for (file, rank) in [(5, 5), (7, 7), (1, 5)] {
        assert_eq!(dark_pixels(&p, file, rank), 0, "{file}{rank} is empty");
    }
}

#[test]
fn png_draws_a_character_no_font_has_as_the_replacement_mark() {
    // 髙 (an IBM extension) and 𠮷 (outside the BMP) are in no JIS X 0208 level: the bundled
    // font lacks them. The level-1 kanji of names (羽生善治, 藤井聡太) are bundled.
    let text = "先手：髙橋𠮷男\n後手：羽生善治\n手合割：平手\n";
    let mut d = diagram_of(text, None, false);
    let (_, missing) = png_of(&mut d, 408);
    assert_eq!(missing, ['髙', '𠮷']);
    let expected = format!("{MISSING}橋{MISSING}男");
    assert_eq!(d.sides[0].name.as_deref(), Some(expected.as_str()));
    assert_eq!(
        d.sides[1].name.as_deref(),
        Some("羽生善治"),
        "JIS level-1 kanji are bundled"
    );
}

#[test]
fn outline_text_leaves_no_text_to_find_a_font_for() {
    let mut d = diagram_of("position startpos\n", None, false);
    let theme = Theme::default();
    let (db, _) = Fonts::bundled_only().prepare(&mut d, &theme);
    let s = render::outline(&svg::write(&d, &theme, None), db).unwrap();
    assert!(!s.contains("<text"), "{s}");
    assert!(s.matches("<path").count() > 40, "the kanji became paths");
}

#[test]
fn command_writes_one_file_per_bookmark_named_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pics");
    kifview()
        .arg("diagram")
        .arg(asset("study.kifu"))
        .args(["--bookmarks", "--out-dir"])
        .arg(&out)
        .assert()
        .success();
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["study-仕掛け.svg", "study-開始局面.svg"]);
    let s = std::fs::read_to_string(out.join("study-仕掛け.svg")).unwrap();
    assert!(s.contains(">仕掛け<"), "the bookmark is the caption");
}

#[test]
fn command_draws_a_whole_directory_keeping_its_layout() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("games");
    std::fs::create_dir_all(src.join("club")).unwrap();
    std::fs::copy(asset("study.kif"), src.join("a.kif")).unwrap();
    std::fs::copy(asset("tsume.kifu"), src.join("club/b.kifu")).unwrap();
    std::fs::write(
        src.join("club/short.kif"),
        "手合割：平手\n   1 ７六歩(77)\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    kifview()
        .args(["diagram", "-r"])
        .arg(&src)
        .args(["--ply", "1", "--format", "png", "--out-dir"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "wrote 3 diagrams from 3 of 3 files",
        ));
    for f in ["a-ply001.png", "club/b-ply001.png", "club/short-ply001.png"] {
        let bytes = std::fs::read(out.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        let p = Pixmap::decode_png(&bytes).unwrap();
        assert_eq!(p.width(), 816, "{f}");
    }
}

#[test]
fn command_says_what_is_wrong() {
    // A ply past the end names the file and the length; the other inputs are still drawn.
    let dir = tempfile::tempdir().unwrap();
    let short = dir.path().join("short.kif");
    std::fs::write(&short, "手合割：平手\n   1 ７六歩(77)\n").unwrap();
    kifview()
        .arg("diagram")
        .arg(&short)
        .args(["--ply", "5"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "short.kif: --ply 5: the main line has 1 move",
        ));
    // Several diagrams need a directory.
    kifview()
        .arg("diagram")
        .arg(&short)
        .args(["--all", "-o", "x.svg"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--out-dir"));
    // A bare position: an SFEN on the command line, the SVG on standard output.
    kifview()
        .args(["diagram", "--sfen", "4k4/9/9/9/9/9/9/9/4K4 w - 1"])
        .assert()
        .success()
        .stdout(predicates::str::starts_with("<svg"));
    kifview()
        .args(["diagram", "--sfen", "not a position"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("position"));
}

/// Presses keys: characters, `⏎` Enter, `⌫` Backspace.
fn press(a: &mut kifview::app::App, s: &str) {
    use kifview::app::{KeyCode, KeyEvent};
    for c in s.chars() {
        a.handle_key(match c {
            '⏎' => KeyEvent::plain(KeyCode::Enter),
            '⌫' => KeyEvent::plain(KeyCode::Backspace),
            c => KeyEvent::char(c),
        });
    }
}

/// The viewer on `file` at its first move.
fn viewer_at_ply_1(file: &std::path::Path) -> kifview::app::App {
    use kifview::app::{App, Config, LaunchOptions};
    let opts = LaunchOptions {
        file: Some(file.to_path_buf()),
        ply: Some(1),
        ..LaunchOptions::default()
    };
    App::open(&opts, Config::defaults()).unwrap()
}

#[test]
fn the_copy_menu_saves_the_position_as_a_picture() {
    use kifview::app::overlay::Overlay;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.kif");
    std::fs::write(&file, "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n").unwrap();
    let mut a = viewer_at_ply_1(&file);
    press(&mut a, "yd");
    let Some(Overlay::Prompt(p)) = a.overlays().top() else {
        panic!("y d asks for the file");
    };
    let offered = dir.path().join("game-ply001.svg").display().to_string();
    assert_eq!(p.text, offered, "the record's name and the ply, beside it");
    press(&mut a, "⏎");
    let svg = std::fs::read_to_string(&offered).unwrap();
    assert!(svg.contains("第1手 ▲７六歩まで"), "{svg}");
    // Another name, as PNG.
    press(&mut a, "yd");
    let png = dir.path().join("p.png");
    let back = "⌫".repeat(offered.chars().count());
    press(&mut a, &format!("{back}{}⏎", png.display()));
    let p = Pixmap::decode_png(&std::fs::read(&png).unwrap()).unwrap();
    assert_eq!(p.width(), 816);
    assert!(
        a.message()
            .as_ref()
            .unwrap()
            .text
            .contains("saved the position as p.png")
    );
    // A name that is neither is refused with the reason.
    press(&mut a, "yd");
    press(
        &mut a,
        &format!("{back}{}⏎", dir.path().join("x.txt").display()),
    );
    assert!(
        a.message()
            .as_ref()
            .unwrap()
            .text
            .contains(".svg or NAME.png")
    );
    assert!(!dir.path().join("x.txt").exists());
}

#[test]
fn the_config_themes_the_pictures() {
    use kifview::app::Config;
    let c = Config::from_toml(
        "my.toml",
        "[diagram]\nboard = \"#ffffff\"\npiece_font = \"'IPAexMincho'\"\n",
    )
    .unwrap();
    // Keys given replace the default's; the others stay.
    assert_eq!(c.diagram.board, "#ffffff");
    assert_eq!(c.diagram.line, Theme::default().line);
    assert_eq!(Config::defaults().diagram, Theme::default());
    let s = svg::write(&sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1"), &c.diagram, None);
    assert!(s.contains("fill=\"#ffffff\""));
    assert!(
        s.contains("font-family=\"'IPAexMincho', 'Noto Serif CJK JP'"),
        "{s}"
    );
    let e = Config::from_toml("my.toml", "[diagram]\n\nline = \"red\\\" onload=\\\"x\"\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("my.toml:3: diagram.line:"), "{e}");
}

#[test]
fn command_takes_its_theme_from_the_config() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c.toml");
    std::fs::write(
        &config,
        "[diagram]\npromoted = \"#0000ff\"\nmark_last_move = false\n",
    )
    .unwrap();
    let out = kifview()
        .args(["diagram", "--position", "startpos moves 7g7f 3c3d 8h2b+"])
        .arg("--config")
        .arg(&config)
        .assert()
        .success();
    let s = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        s.contains("fill=\"#0000ff\" x="),
        "the promoted bishop in the theme's colour: {s}"
    );
    assert!(!s.contains(&Theme::default().highlight), "no mark: {s}");
    std::fs::write(&config, "[diagram]\nboard = \"no colour\"\n").unwrap();
    kifview()
        .args([
            "diagram",
            "--sfen",
            "4k4/9/9/9/9/9/9/9/4K4 b - 1",
            "--config",
        ])
        .arg(&config)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("c.toml:2: diagram.board"));
}

#[test]
fn a_record_from_standard_input_is_named_stdin() {
    let dir = tempfile::tempdir().unwrap();
    kifview()
        .args(["diagram", "-", "--all", "--out-dir"])
        .arg(dir.path())
        .write_stdin("手合割：平手\n   1 ７六歩(77)\n")
        .assert()
        .success();
    assert!(dir.path().join("stdin-ply000.svg").is_file());
    assert!(dir.path().join("stdin-ply001.svg").is_file());
}

#[test]
fn png_is_rgb_when_opaque_and_keeps_a_transparent_background() {
    let d = sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    let db = || {
        Fonts::bundled_only()
            .prepare(&mut d.clone(), &Theme::default())
            .0
    };
    let opaque = render::png(&svg::write(&d, &Theme::default(), None), db()).unwrap();
    // The IHDR's colour type: 2 is RGB, 6 is RGBA.
    assert_eq!(opaque[25], 2);
    let clear = Theme {
        background: "transparent".into(),
        ..Theme::default()
    };
    let png = render::png(&svg::write(&d, &clear, None), db()).unwrap();
    assert_eq!(png[25], 6);
    let p = Pixmap::decode_png(&png).unwrap();
    assert_eq!(
        p.pixel(1, 1).unwrap().alpha(),
        0,
        "outside the board is see-through"
    );
    let board = p.pixel(100, 100).unwrap();
    assert_eq!(
        (board.alpha(), board.red()),
        (255, 0xf6),
        "the board is not"
    );
}

// ---- Issue 31: diagrams never overwrite, never follow a planted link, say what they drew ----

/// The names of the files under `dir`, relative, sorted.
fn files_under(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.symlink_metadata().unwrap().is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

/// A short KIF game of `moves` (KIF move lines).
fn kif_game(moves: &[&str]) -> String {
    let mut s = "手合割：平手\n".to_string();
    for (i, m) in moves.iter().enumerate() {
        s.push_str(&format!("{:4} {m}\n", i + 1));
    }
    s
}

/// `a/game.kifu` and `b/game.kifu` (and `game.kif` beside `game.csa` under `-r`) wrote one
/// file and counted two: every input gets its own file, and the count is the files written.
#[test]
fn two_inputs_with_one_name_never_overwrite_each_other() {
    let dir = tempfile::tempdir().unwrap();
    for (sub, mv) in [("a", "７六歩(77)"), ("b", "２六歩(27)")] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        std::fs::write(dir.path().join(sub).join("game.kifu"), kif_game(&[mv])).unwrap();
    }
    // Draws `inputs` (`-r`: folders) into a new folder `out` beside them: both are written.
    let draw_both = |r: bool, inputs: &[&str], out: &str| {
        let out = dir.path().join(out);
        kifview()
            .arg("diagram")
            .args(r.then_some("-r"))
            .args(inputs.iter().map(|i| dir.path().join(i)))
            .arg("--out-dir")
            .arg(&out)
            .assert()
            .success()
            .stderr(predicates::str::contains(
                "wrote 2 diagrams from 2 of 2 files",
            ));
        out
    };
    let out = draw_both(false, &["a/game.kifu", "b/game.kifu"], "out");
    assert_eq!(files_under(&out), ["game-2-ply001.svg", "game-ply001.svg"]);
    let text = |n: &str| std::fs::read_to_string(out.join(n)).unwrap();
    assert!(text("game-ply001.svg").contains("７六歩"));
    assert!(text("game-2-ply001.svg").contains("２六歩"));

    // The same stem in one folder of a -r walk.
    let games = dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(games.join("game.kif"), kif_game(&["７六歩(77)"])).unwrap();
    std::fs::write(games.join("game.csa"), "PI\n+\n+2726FU\n").unwrap();
    let out = draw_both(true, &["games"], "out-r");
    assert_eq!(
        files_under(&out),
        ["game-kif-ply001.svg", "game-ply001.svg"]
    );
}

/// A file already in --out-dir (not written by this run) is not replaced unless --force; a
/// symbolic link planted there (a shared scratch folder) is never written through.
#[test]
fn an_existing_file_or_a_planted_link_is_never_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.kif");
    std::fs::write(&game, kif_game(&["７六歩(77)"])).unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("game-ply001.svg"), "mine").unwrap();
    let run = |force: bool| {
        let mut c = kifview();
        c.arg("diagram")
            .arg(&game)
            .args(["--all", "--out-dir"])
            .arg(&out);
        if force {
            c.arg("--force");
        }
        c.assert()
    };
    run(false)
        .code(1)
        .stderr(predicates::str::contains("game-ply001.svg: exists"))
        .stderr(predicates::str::contains("--force"));
    assert_eq!(
        std::fs::read_to_string(out.join("game-ply001.svg")).unwrap(),
        "mine"
    );
    assert!(
        out.join("game-ply000.svg").is_file(),
        "the other position is drawn"
    );
    run(true).success();
    assert!(
        std::fs::read_to_string(out.join("game-ply001.svg"))
            .unwrap()
            .starts_with("<svg")
    );

    // Links: to a file elsewhere, and a folder of the layout that is a link elsewhere.
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("victim"), "theirs").unwrap();
    std::fs::remove_file(out.join("game-ply001.svg")).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("victim"), out.join("game-ply001.svg")).unwrap();
    run(false)
        .code(1)
        .stderr(predicates::str::contains("game-ply001.svg"));
    assert_eq!(
        std::fs::read_to_string(elsewhere.join("victim")).unwrap(),
        "theirs"
    );
    run(true).success();
    assert_eq!(
        std::fs::read_to_string(elsewhere.join("victim")).unwrap(),
        "theirs",
        "--force replaces the link, not what it points to"
    );
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("club")).unwrap();
    std::fs::write(src.join("club/g.kif"), kif_game(&["７六歩(77)"])).unwrap();
    let out2 = dir.path().join("out2");
    std::fs::create_dir_all(&out2).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out2.join("club")).unwrap();
    for force in [false, true] {
        let mut c = kifview();
        c.args(["diagram", "-r"])
            .arg(&src)
            .arg("--out-dir")
            .arg(&out2);
        if force {
            c.arg("--force");
        }
        c.assert()
            .code(1)
            .stderr(predicates::str::contains("symbolic link"));
        assert_eq!(files_under(&elsewhere), ["victim"], "force {force}");
    }
}

/// Format characters (U+202E turns the rest of a name around, U+200B is invisible) stay out
/// of file names and captions; an 80-kanji bookmark makes a name within NAME_MAX (cut by
/// bytes on a character boundary) and the next bookmark is still drawn.
#[test]
fn bookmark_names_are_safe_and_short_enough() {
    let dir = tempfile::tempdir().unwrap();
    let long = "長".repeat(80);
    let text = format!(
        "手合割：平手\n   1 ７六歩(77)\n&gnp.\u{202E}exe\u{200B}\n   2 ３四歩(33)\n&{long}\n   3 ２六歩(27)\n&次\n"
    );
    let game = dir.path().join("game.kif");
    std::fs::write(&game, text).unwrap();
    let out = dir.path().join("out");
    kifview()
        .arg("diagram")
        .arg(&game)
        .args(["--bookmarks", "--out-dir"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicates::str::contains("wrote 3 diagrams"));
    let names = files_under(&out);
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.contains(&"game-gnp.exe.svg".to_string()), "{names:?}");
    assert!(names.contains(&"game-次.svg".to_string()), "{names:?}");
    for n in &names {
        assert!(n.len() <= 255 - 40, "{n}: {} bytes", n.len());
        assert!(!n.contains(['\u{202E}', '\u{200B}']), "{n:?}");
        let s = std::fs::read_to_string(out.join(n)).unwrap();
        assert!(!s.contains(['\u{202E}', '\u{200B}']), "{n}: the caption");
    }
    assert!(
        names.iter().any(|n| n.starts_with("game-長長")),
        "{names:?}"
    );
}

/// A CSA file of several records draws every one of them into --out-dir; drawn to one file
/// or standard output, it says that only the first was drawn.
#[test]
fn every_record_of_a_multi_record_csa_file_is_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let csa = dir.path().join("games.csa");
    std::fs::write(&csa, "PI\n+\n+7776FU\n/\nPI\n+\n+2726FU\n-8384FU\n").unwrap();
    let out = dir.path().join("out");
    kifview()
        .arg("diagram")
        .arg(&csa)
        .arg("--out-dir")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicates::str::contains("wrote 2 diagrams"));
    assert_eq!(
        files_under(&out),
        ["games-record1-ply001.svg", "games-record2-ply002.svg"]
    );
    kifview()
        .arg("diagram")
        .arg(&csa)
        .assert()
        .success()
        .stderr(predicates::str::contains("holds 2 records: drew the first"));
    // --record N picks one, as before.
    kifview()
        .arg("diagram")
        .arg(&csa)
        .args(["--record", "2", "--out-dir"])
        .arg(dir.path().join("two"))
        .assert()
        .success();
    assert_eq!(
        files_under(&dir.path().join("two")),
        ["games-record2-ply002.svg"]
    );
}

/// `-o x.jpg` wrote SVG text into a `.jpg`: an output name says SVG or PNG, or it is refused.
#[test]
fn an_output_name_of_another_format_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (args, out) in [
        (&[][..], "x.jpg"),
        (&["--format", "svg"][..], "x.jpg"),
        (&["--format", "png"][..], "x.svg"),
    ] {
        let path = dir.path().join(out);
        kifview()
            .args(["diagram", "--sfen", "4k4/9/9/9/9/9/9/9/4K4 b - 1"])
            .args(args)
            .arg("-o")
            .arg(&path)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(out))
            .stderr(predicates::str::contains(".svg or"));
        assert!(!path.exists(), "{out}");
    }
}

/// The copy menu's `d` asks before it replaces a file: n leaves it, y replaces it.
#[test]
fn the_copy_menu_asks_before_replacing_a_picture() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.kif");
    std::fs::write(&file, kif_game(&["７六歩(77)"])).unwrap();
    let pic = dir.path().join("game-ply001.svg");
    std::fs::write(&pic, "mine").unwrap();
    let mut a = viewer_at_ply_1(&file);
    press(&mut a, "yd⏎");
    assert!(a.overlays().top().is_some(), "a question");
    press(&mut a, "n");
    assert_eq!(std::fs::read_to_string(&pic).unwrap(), "mine");
    assert!(
        a.message().as_ref().unwrap().text.contains("not saved"),
        "{:?}",
        a.message()
    );
    press(&mut a, "yd⏎y");
    assert!(std::fs::read_to_string(&pic).unwrap().starts_with("<svg"));
    assert!(
        a.message()
            .as_ref()
            .unwrap()
            .text
            .contains("saved the position as game-ply001.svg")
    );
}
