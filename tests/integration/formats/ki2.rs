//! KI2 reader/writer: the corpus (generated and real files against their expected JSON),
//! round trips, and fixtures for every disambiguation suffix and ending wording.

use kifview::core::notation::{DiagKind, ki2};
use kifview::core::record::{NodeId, Record, Special};
use std::path::Path;

use crate::common;
use common::*;

#[test]
fn corpus_ki2_files_read_as_expected_and_round_trip() {
    let Some(root) = corpus() else { return };
    let mut files = Vec::new();
    files_with_ext(&root.join("generated"), &["ki2", "ki2u"], &mut files);
    files_with_ext(&root.join("real"), &["ki2", "ki2u"], &mut files);
    assert!(files.len() > 60, "only {} KI2 files found", files.len());
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = read_file(f);
        let parsed = ki2::read(&text);
        // Generated records are legal throughout: any warning is a reader bug (tsume diagrams
        // without a black king once produced false 王手放置 warnings).
        if f.to_string_lossy().contains("generated") && !parsed.warnings.is_empty() {
            failures.push(format!("{}: warnings {:?}", f.display(), parsed.warnings));
        }
        if let Some(exp) = expected_for(f) {
            checked += 1;
            if let Err(e) = compare(&parsed.record, &exp, false) {
                failures.push(format!(
                    "{}: {e} (warnings: {:?})",
                    f.display(),
                    parsed.warnings
                ));
                continue;
            }
        }
        let written = ki2::write(&parsed.record);
        let again = ki2::read(&written.text);
        if let Err(e) = check_tree_equal(&parsed.record, &again.record) {
            failures.push(format!(
                "{}: round trip: {e}\n{}",
                f.display(),
                written.text
            ));
        }
    }
    println!(
        "{checked} KI2 files compared with their expected JSON, {} read",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn read_ok(text: &str) -> Record {
    let p = ki2::read(text);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    p.record
}

fn main_usi(r: &Record) -> Vec<String> {
    r.main_line()
        .into_iter()
        .filter_map(|id| r.node(id).move_data().map(|m| m.mv.usi()))
        .collect()
}

#[test]
fn digits_marks_and_same_square_spellings() {
    for text in [
        "▲７六歩　△３四歩　▲２二角成　△同　銀",
        "▲76歩 △34歩 ▲22角成 △同銀",
        "☗７６歩☖３４歩☗２二角成☖同銀",
        "▲七六歩 ▽三四歩 ▲二二角成 ▽同　銀",
    ] {
        let r = read_ok(text);
        assert_eq!(main_usi(&r), ["7g7f", "3c3d", "8h2b+", "3a2b"], "{text}");
    }
}

#[test]
fn fixtures_read_as_their_expected_json() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ki2/valid");
    let mut files = Vec::new();
    files_with_ext(&dir, &["ki2", "ki2u"], &mut files);
    assert!(!files.is_empty());
    for f in files {
        let text = read_file(&f);
        let parsed = ki2::read(&text);
        assert!(
            parsed.warnings.is_empty(),
            "{}: {:?}",
            f.display(),
            parsed.warnings
        );
        let exp = expected_for(&f).unwrap_or_else(|| panic!("{}: no expected JSON", f.display()));
        compare(&parsed.record, &exp, false).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        // Writing gives back the same text for these hand-written fixtures' moves.
        let again = ki2::read(&ki2::write(&parsed.record).text);
        check_tree_equal(&parsed.record, &again.record).unwrap();
    }
}

#[test]
fn invalid_fixtures_report_the_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ki2/invalid");
    let mut files = Vec::new();
    files_with_ext(&dir, &["ki2", "ki2u"], &mut files);
    assert!(!files.is_empty());
    for f in files {
        // First line: `*expect LINE KIND`.
        let text = read_file(&f);
        let first = text.lines().next().unwrap();
        let mut it = first.trim_start_matches("*expect ").split(' ');
        let line: usize = it.next().unwrap().parse().unwrap();
        let kind = it.next().unwrap();
        let parsed = ki2::read(&text);
        let d = parsed
            .warnings
            .first()
            .unwrap_or_else(|| panic!("{}: no diagnostic", f.display()));
        assert_eq!(d.line, line, "{}: {d}", f.display());
        assert_eq!(format!("{:?}", d.kind), kind, "{}: {d}", f.display());
        let _ = DiagKind::BadMove;
    }
}

/// An SFEN from `(usi square, sfen piece)` pairs, e.g. `("5h", "G")`, `("5b", "+r")`.
fn sfen_of(pieces: &[(&str, &str)], side: char, hand: &str) -> String {
    let mut grid: Vec<Vec<String>> = vec![vec![String::new(); 9]; 9];
    for (sq, p) in pieces {
        let b = sq.as_bytes();
        let file = (b[0] - b'0') as usize;
        let rank = (b[1] - b'a') as usize;
        grid[rank][9 - file] = p.to_string();
    }
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for c in row {
                if c.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(c);
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    format!("{} {side} {hand} 1", rows.join("/"))
}

/// Every JSA disambiguation case: reading the text finds the move, and writing the move gives
/// the text back (the first spelling is the canonical one).
#[test]
fn jsa_disambiguation_suffixes() {
    use kifview::core::notation::ki2::{Token, move_text, parse_token};
    use kifview::core::rules::Position;
    type Case<'a> = (&'a [(&'a str, &'a str)], char, &'a str, &'a str, &'a str);
    #[rustfmt::skip]
    let cases: &[Case] = &[
        // 左 / 右 (two golds moving up)
        (&[("6i", "G"), ("4i", "G")], 'b', "-", "５八金右", "4i5h"),
        (&[("6i", "G"), ("4i", "G")], 'b', "-", "５八金左", "6i5h"),
        // 上 / 寄
        (&[("5i", "G"), ("4h", "G")], 'b', "-", "５八金上", "5i5h"),
        (&[("5i", "G"), ("4h", "G")], 'b', "-", "５八金寄", "4h5h"),
        // 直 with three golds, and 左 / 右 beside it
        (&[("6i", "G"), ("5i", "G"), ("4i", "G")], 'b', "-", "５八金直", "5i5h"),
        (&[("6i", "G"), ("5i", "G"), ("4i", "G")], 'b', "-", "５八金左", "6i5h"),
        (&[("6i", "G"), ("5i", "G"), ("4i", "G")], 'b', "-", "５八金右", "4i5h"),
        // 引 / 上 (silvers)
        (&[("4g", "S"), ("6i", "S")], 'b', "-", "５八銀引", "4g5h"),
        (&[("4g", "S"), ("6i", "S")], 'b', "-", "５八銀上", "6i5h"),
        // 右上 / 左 / 寄 (three golds)
        (&[("6h", "G"), ("4h", "G"), ("4g", "G")], 'b', "-", "５七金右上", "4h5g"),
        (&[("6h", "G"), ("4h", "G"), ("4g", "G")], 'b', "-", "５七金左", "6h5g"),
        (&[("6h", "G"), ("4h", "G"), ("4g", "G")], 'b', "-", "５七金寄", "4g5g"),
        // 左引 / 右 / 上 (three silvers)
        (&[("6f", "S"), ("4f", "S"), ("6h", "S")], 'b', "-", "５七銀左引", "6f5g"),
        (&[("6f", "S"), ("4f", "S"), ("6h", "S")], 'b', "-", "５七銀右", "4f5g"),
        (&[("6f", "S"), ("4f", "S"), ("6h", "S")], 'b', "-", "５七銀上", "6h5g"),
        // 龍: 寄 on one rank (右 / 左), 引 / 上, and 右 for the one moving straight
        (&[("9b", "+R"), ("1b", "+R")], 'b', "-", "５二龍右", "1b5b"),
        (&[("9b", "+R"), ("1b", "+R")], 'b', "-", "５二龍左", "9b5b"),
        (&[("1a", "+R"), ("2c", "+R")], 'b', "-", "２二龍引", "1a2b"),
        (&[("1a", "+R"), ("2c", "+R")], 'b', "-", "２二龍上", "2c2b"),
        (&[("2d", "+R"), ("3c", "+R")], 'b', "-", "２二龍右", "2d2b"),
        (&[("2d", "+R"), ("3c", "+R")], 'b', "-", "２二龍左", "3c2b"),
        // 馬
        (&[("9i", "+B"), ("1i", "+B")], 'b', "-", "５五馬左", "9i5e"),
        (&[("9i", "+B"), ("1i", "+B")], 'b', "-", "５五馬右", "1i5e"),
        // promoted silvers (成銀, also spelt 全)
        (&[("6h", "+S"), ("4h", "+S")], 'b', "-", "５八成銀右", "4h5h"),
        (&[("6h", "+S"), ("4h", "+S")], 'b', "-", "５八成銀左", "6h5h"),
        // 打 when a board piece could also go there; no 打 for the board move
        (&[("6i", "G")], 'b', "G", "５八金打", "G*5h"),
        (&[("6i", "G")], 'b', "G", "５八金", "6i5h"),
        (&[], 'b', "G", "５八金", "G*5h"),
        // White's right is the 9 file side
        (&[("6a", "g"), ("4a", "g")], 'w', "-", "５二金右", "6a5b"),
        (&[("6a", "g"), ("4a", "g")], 'w', "-", "５二金左", "4a5b"),
        (&[("6a", "g"), ("4b", "g")], 'w', "-", "５二金寄", "4b5b"),
        (&[("6a", "g"), ("4b", "g")], 'w', "-", "５二金上", "6a5b"),
        (&[("6c", "s"), ("4a", "s")], 'w', "-", "５二銀引", "6c5b"),
        (&[("6c", "s"), ("4a", "s")], 'w', "-", "５二銀上", "4a5b"),
        // knights, and a suffix before 成 / 不成
        (&[("7i", "N"), ("5i", "N")], 'b', "-", "６七桂右", "5i6g"),
        (&[("7i", "N"), ("5i", "N")], 'b', "-", "６七桂左", "7i6g"),
        (&[("4d", "S"), ("2d", "S")], 'b', "-", "３三銀右成", "2d3c+"),
        (&[("4d", "S"), ("2d", "S")], 'b', "-", "３三銀左不成", "4d3c"),
    ];
    for (pieces, side, hand, text, usi) in cases {
        let pos = Position::from_sfen(&sfen_of(pieces, *side, hand)).unwrap();
        let Ok(Token::Move(md)) = parse_token(&pos, text, None) else {
            panic!("{text}: not read");
        };
        assert_eq!(md.mv.usi(), *usi, "{text}");
        let mark = if *side == 'b' { "▲" } else { "△" };
        assert_eq!(move_text(&pos, &md, None), format!("{mark}{text}"), "{usi}");
    }
    // Other spellings read the same: 行 for 上, 全 for 成銀, ASCII digits.
    let pos = Position::from_sfen(&sfen_of(&[("5i", "G"), ("4h", "G")], 'b', "-")).unwrap();
    let Ok(Token::Move(md)) = parse_token(&pos, "58金行", None) else {
        panic!()
    };
    assert_eq!(md.mv.usi(), "5i5h");
    let pos = Position::from_sfen(&sfen_of(&[("6h", "+S"), ("4h", "+S")], 'b', "-")).unwrap();
    let Ok(Token::Move(md)) = parse_token(&pos, "５八全右", None) else {
        panic!()
    };
    assert_eq!(md.mv.usi(), "4h5h");
}

#[test]
fn every_made_wording_and_inline_endings() {
    let cases = [
        ("まで1手で先手の勝ち", Special::Resign),
        ("まで1手で下手の勝ち", Special::Resign),
        ("まで1手で中断", Special::Interrupt),
        ("まで1手で千日手", Special::RepetitionDraw),
        ("まで1手で持将棋", Special::Impass),
        ("まで1手で詰み", Special::Mate),
        ("まで1手で詰", Special::Mate),
        ("まで1手で不詰", Special::NoMate),
        ("まで1手で時間切れにより先手の勝ち", Special::Timeout),
        ("まで1手で後手の反則勝ち", Special::FoulWin),
        ("まで1手で後手の反則負け", Special::FoulLose),
        ("まで1手で後手の入玉勝ち", Special::EnteringKing),
        ("まで、1手で中断", Special::Interrupt),
        ("まで1手詰", Special::Mate),
        ("まで1手で不戦勝", Special::WinByDefault),
        ("まで1手で不戦敗", Special::LossByDefault),
        ("まで1手で封じ手", Special::Other("封じ手".into())),
        ("△投了", Special::Resign),
        ("△中断", Special::Interrupt),
        ("△千日手", Special::RepetitionDraw),
        ("△反則負け", Special::FoulLose),
    ];
    for (ending, special) in cases {
        let text = if ending.starts_with('△') {
            format!("▲７六歩 {ending}\n")
        } else {
            format!("▲７六歩\n{ending}\n")
        };
        let r = read_ok(&text);
        let line = r.main_line();
        assert_eq!(line.len(), 3, "{ending}");
        assert_eq!(r.node(line[2]).special(), Some(&special), "{ending}");
        // Written back and read again, the ending is the same.
        let again = read_ok(&ki2::write(&r).text);
        let l2 = again.main_line();
        assert_eq!(again.node(l2[2]).special(), Some(&special), "{ending}");
    }
}

/// A mate is written `まで{n}手で詰み`, which ShogiHome's reader (tsshogi 2.2, 2.3.4) and
/// json-kifu-format read as mate; `まで{n}手詰` (written before) tsshogi read as an unknown
/// ending `{n}手詰`. Both still read as mate.
#[test]
fn a_mate_is_written_as_every_reader_reads_it() {
    let r = read_ok("▲７六歩 △３四歩 ▲２二角成\nまで3手で詰み\n");
    let text = ki2::write(&r).text;
    assert!(text.ends_with("\nまで3手で詰み\n"), "{text}");
    assert!(!text.contains("手詰"), "{text}");
    for ending in ["まで3手で詰み", "まで3手詰"] {
        let back = read_ok(&format!("▲７六歩 △３四歩 ▲２二角成\n{ending}\n"));
        let end = *back.main_line().last().unwrap();
        assert_eq!(back.node(end).special(), Some(&Special::Mate), "{ending}");
    }
}

#[test]
fn bad_move_keeps_what_was_read_and_variations_resume() {
    let text = "▲７六歩 △３四歩 ▲５八金 ▲２六歩\n*lost\n\n変化：2手\n△８四歩\n*kept\n";
    let p = ki2::read(text);
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    assert_eq!(p.warnings[0].line, 1);
    let r = p.record;
    assert_eq!(main_usi(&r), ["7g7f", "3c3d"]);
    let first = r.node(NodeId::ROOT).children[0];
    let alt = r.node(first).children[1];
    assert_eq!(r.node(alt).move_data().unwrap().mv.usi(), "8c8d");
    assert_eq!(r.node(alt).comment, "kept");
}

/// Broken text never panics, and says what is wrong: each text whose move, board row, hand or
/// handicap cannot be read is warned about at line 1, and no move is made up from it.
#[test]
fn garbage_never_panics() {
    // The text, whether a warning names line 1, the moves read.
    for (text, warned, moves) in [
        ("", false, 0),
        ("▲", true, 0),
        ("▲同", true, 0),
        ("▲７", true, 0),
        ("▲７六", true, 0),
        ("▲７六歩(", true, 0),
        ("▲７六歩(7", true, 0),
        ("▲７六歩(77", true, 0),
        ("変化：", false, 0),
        ("変化：0手", false, 0),
        ("まで", false, 0),
        ("|", true, 0),
        ("| ・|", true, 0),
        ("先手の持駒：歩百", true, 0),
        ("先手の持駒：玉", true, 0),
        ("手合割：", true, 0),
        ("\u{feff}\r\n\r\n", false, 0),
        ("▲７六歩 △同　同", true, 1),
        ("▲１一龍打", true, 0),
    ] {
        let p = ki2::read(text);
        let read = p.record.main_line()[1..]
            .iter()
            .filter(|&&n| p.record.node(n).move_data().is_some())
            .count();
        assert_eq!(read, moves, "{text:?}");
        assert_eq!(
            p.warnings.iter().any(|w| w.line == 1),
            warned,
            "{text:?}: {:?}",
            p.warnings
        );
    }
}

/// The content detectors the lead's format detection calls: each says yes to its own format
/// only, over the whole corpus.
#[test]
fn looks_like_tells_formats_apart() {
    use kifview::core::notation::{jkf, usi};
    let Some(root) = corpus() else { return };
    let mut files = Vec::new();
    files_with_ext(
        &root,
        &["ki2", "ki2u", "kif", "kifu", "csa", "jkf"],
        &mut files,
    );
    let mut wrong = Vec::new();
    for f in &files {
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        let text = read_file(f);
        let is_ki2 = ext.starts_with("ki2");
        if ki2::looks_like(&text) != is_ki2 {
            wrong.push(format!("ki2::looks_like {}", f.display()));
        }
        if jkf::looks_like(&text) != (ext == "jkf") {
            wrong.push(format!("jkf::looks_like {}", f.display()));
        }
        if usi::looks_like(&text) {
            wrong.push(format!("usi::looks_like {}", f.display()));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join(" ; "));
}

/// KIF and KI2 share their header part: a repeated header key is kept twice (KI2 replaced
/// the first before), and a 手合割 line beside a diagram of that very preset makes the same
/// handicap game in both (KIF ignored the 手合割 line and read 先手/後手 where KI2 read
/// 下手/上手).
#[test]
fn kif_and_ki2_read_the_header_part_alike() {
    use kifview::core::notation::kif;
    let diagram = "手合割：香落ち\n後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n|v香v桂v銀v金v玉v金v銀v桂 ・|一\n| ・v飛 ・ ・ ・ ・ ・v角 ・|二\n|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七\n| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八\n| 香 桂 銀 金 玉 金 銀 桂 香|九\n+---------------------------+\n先手の持駒：なし\n後手番\n棋戦：A\n棋戦：B\n";
    let k = kif::read(&format!(
        "{diagram}手数----指手---------消費時間--\n   1 ３四歩(33)\n"
    ));
    let k2 = ki2::read(&format!("{diagram}△３四歩\n"));
    assert!(k.warnings.is_empty(), "{:?}", k.warnings);
    assert!(k2.warnings.is_empty(), "{:?}", k2.warnings);
    for r in [&k.record, &k2.record] {
        assert_eq!(r.initial.handicap.map(|h| h.name), Some("香落ち"));
        assert!(r.initial.is_handicap_game());
        let events: Vec<&str> = r
            .header
            .fields
            .iter()
            .filter(|f| f.key == "棋戦")
            .map(|f| f.value.as_str())
            .collect();
        assert_eq!(events, ["A", "B"]);
    }
    assert_eq!(k.record, k2.record);
    // Both written back keep both fields.
    assert!(
        kif::write(&k.record, &kif::KifOptions::default())
            .text
            .contains("棋戦：A\n棋戦：B\n")
    );
    assert!(ki2::write(&k2.record).text.contains("棋戦：A\n棋戦：B\n"));
}

#[test]
fn a_long_move_is_followed_by_a_space() {
    // ▲２二角不成 is six characters: the 12-cell column leaves no padding, and the writer
    // used to join it to the next move (`▲２二角不成△同　銀`).
    let r = read_ok("▲７六歩 △３四歩 ▲２二角不成 △同　銀\n");
    let text = ki2::write(&r).text;
    assert!(text.contains("▲２二角不成 △同　銀"), "{text}");
    assert_eq!(main_usi(&read_ok(&text)), main_usi(&r));
}
