//! Strategy and castle tags (`kifview::collection::tags`): a short game or a position for
//! every tag, with near misses that must not get it; the header's 戦型 over the computed
//! tags; and a histogram over the real corpus, with the pro games whose header names their
//! strategy checked against the tags computed without it.

use crate::common::{corpus, files_with_ext};
use kifview::collection::tags::{KNOWN, tags};
use kifview::core::notation;
use kifview::core::record::{Initial, Record};
use kifview::core::rules::{Color, Piece, PieceKind, Position, Square};
use std::collections::BTreeMap;

/// The records of the real corpus that name their strategy in a 戦型 header and are compared
/// (順位戦 2006, 名人戦 2018, 王位戦 2021).
const MIN_COMPARED: usize = 3;

/// A record read from USI (`position startpos moves …`); every move must be read.
fn usi(text: &str) -> Record {
    let parsed = notation::usi::read(text).expect("USI reads");
    assert!(parsed.warnings.is_empty(), "{text}: {:?}", parsed.warnings);
    parsed.record
}

/// An even game of `plies` plies: Black's moves `b` and White's `w` in turn, each side
/// filling with its right gold stepping up and back (４九↔４八, ６一↔６二) once its own run
/// out.
fn game(b: &[&str], w: &[&str], plies: usize) -> Record {
    game_filled(b, w, plies, ["4i4h", "4h4i"])
}

/// [`game`] with Black's filler moves given (for games that use ４八).
fn game_filled(b: &[&str], w: &[&str], plies: usize, fill: [&str; 2]) -> Record {
    let mut moves = Vec::new();
    for i in 0..plies {
        let (own, k) = if i % 2 == 0 { (b, i / 2) } else { (w, i / 2) };
        let extra = (k - own.len().min(k)) % 2;
        let filler = if i % 2 == 0 {
            fill[extra]
        } else {
            ["6a6b", "6b6a"][extra]
        };
        moves.push(own.get(k).copied().unwrap_or(filler));
    }
    usi(&format!("position startpos moves {}", moves.join(" ")))
}

/// Asserts that the record's tags hold every one of `must` and none of `must_not`.
#[track_caller]
fn check(r: &Record, must: &[&str], must_not: &[&str]) {
    let t = tags(r);
    for m in must {
        assert!(t.contains(m), "{m} missing from {t:?}");
    }
    for m in must_not {
        assert!(!t.contains(m), "{m} in {t:?}");
    }
}

/// A position of only the pieces given, each `(colour, file, rank, kind)` with the file and
/// rank as the colour sees its side of the board (White's turned round), plus both kings on
/// their start squares when not given.
fn position(pieces: &[(Color, u8, u8, PieceKind)]) -> Record {
    let mut pos = Position::empty();
    let square = |c: Color, f: u8, r: u8| match c {
        Color::Black => Square::new(f, r).unwrap(),
        Color::White => Square::new(10 - f, 10 - r).unwrap(),
    };
    for &(c, f, r, k) in pieces {
        pos.set_piece(square(c, f, r), Some(Piece::new(k, c)));
    }
    for c in [Color::Black, Color::White] {
        if pos.king_square(c).is_none() {
            pos.set_piece(square(c, 5, 9), Some(Piece::new(PieceKind::King, c)));
        }
    }
    Record::new(Initial {
        position: pos,
        handicap: None,
    })
}

/// Every record of one part of the corpus (`real`, `generated`) with its file; `None` when the
/// corpus is not here (see `common::corpus`). A part with no record is a failure.
fn corpus_records(part: &str) -> Option<Vec<(String, Record)>> {
    let base = corpus()?;
    let mut files = Vec::new();
    let exts = ["kif", "kifu", "ki2", "ki2u", "csa", "jkf"];
    files_with_ext(&base.join(part), &exts, &mut files);
    let mut out = Vec::new();
    for f in files {
        let loaded = notation::load(&std::fs::read(&f).unwrap(), Some(&f));
        let name = f.strip_prefix(&base).unwrap().display().to_string();
        for p in loaded.records {
            out.push((name.clone(), p.record));
        }
    }
    assert!(!out.is_empty(), "no record under corpus/{part}");
    Some(out)
}

#[test]
fn real_corpus_tag_histogram() {
    let Some(records) = corpus_records("real") else {
        return;
    };
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
    // The games whose header names their strategy (pro games: 順位戦 2006, 名人戦 2018, 王位戦
    // 2021) get the same names from their positions alone.
    let mut compared = 0;
    for (name, r) in &records {
        let Some(said) = r.header.get("戦型") else {
            continue;
        };
        let from_header = tags(r);
        if r.main_line().len() <= 20 || from_header.is_empty() {
            continue;
        }
        let mut bare = r.clone();
        bare.header.fields.retain(|f| !f.key.contains("戦型"));
        let computed = tags(&bare);
        println!("{name}: 戦型 {said}: computed {computed:?}");
        for t in from_header
            .iter()
            .filter(|t| !t.starts_with("先手") && !t.starts_with("後手"))
        {
            assert!(
                computed.contains(t),
                "{name}: 戦型 {said}: {t} not in {computed:?}"
            );
        }
        compared += 1;
    }
    println!("{compared} records with a 戦型 header agree with their computed tags");
    assert!(
        compared >= MIN_COMPARED,
        "only {compared} records with a 戦型 header were compared (at least {MIN_COMPARED} expected)"
    );
    println!("tags over {} records of the real corpus:", records.len());
    let mut by_count: Vec<_> = histogram.into_iter().collect();
    by_count.sort_by_key(|&(t, n)| (std::cmp::Reverse(n), t));
    for (t, n) in by_count {
        println!("{n:5} {t}");
    }
}

use Color::{Black as B, White as W};
use PieceKind::{Gold, King, Knight, Lance, Silver};

/// Side `c`'s pieces (file, rank, kind) on its own view of the board.
fn side(c: Color, pieces: &[(u8, u8, PieceKind)]) -> Vec<(Color, u8, u8, PieceKind)> {
    pieces.iter().map(|&(f, r, k)| (c, f, r, k)).collect()
}

#[test]
fn mino_family_and_what_develops_from_it() {
    let kata = [(2, 8, King), (3, 8, Silver), (4, 9, Gold)];
    check(
        &position(&side(B, &kata)),
        &["片美濃囲い", "先手片美濃囲い"],
        &["美濃囲い"],
    );
    let hon = [kata.as_slice(), &[(5, 8, Gold)]].concat();
    check(
        &position(&side(B, &hon)),
        &["美濃囲い", "先手美濃囲い"],
        &["片美濃囲い", "高美濃囲い"],
    );
    // The same for White, turned round: the tag names White.
    check(
        &position(&side(W, &hon)),
        &["美濃囲い", "後手美濃囲い"],
        &["先手美濃囲い"],
    );
    let taka = [kata.as_slice(), &[(4, 7, Gold)]].concat();
    check(
        &position(&side(B, &taka)),
        &["高美濃囲い", "先手高美濃囲い"],
        &["美濃囲い", "片美濃囲い"],
    );
    let ginkan = [(2, 8, King), (2, 7, Silver), (3, 8, Gold), (4, 7, Gold)];
    check(&position(&side(B, &ginkan)), &["銀冠"], &["高美濃囲い"]);
    // Near misses: the king one file over; the gold on ５八 the opponent's.
    let moved = [(3, 8, King), (3, 7, Silver), (4, 9, Gold), (5, 8, Gold)];
    check(
        &position(&side(B, &moved)),
        &[],
        &["美濃囲い", "片美濃囲い"],
    );
    let mut theirs = side(B, &kata);
    theirs.push((W, 5, 2, Gold)); // White's gold on ５八 (White's ５二)
    check(&position(&theirs), &["片美濃囲い"], &["美濃囲い"]);
    // A line that goes 美濃 → 高美濃 is tagged 高美濃 only.
    let mut r = position(&side(B, &hon));
    r.initial.position.set_side_to_move(B);
    let sfen = r.initial.position.to_sfen();
    let r = usi(&format!("position sfen {sfen} moves 5h4g"));
    check(&r, &["高美濃囲い"], &["美濃囲い", "片美濃囲い"]);
}

#[test]
fn left_side_mino_shapes() {
    let hidari = [(8, 8, King), (7, 8, Silver), (6, 9, Gold), (5, 8, Gold)];
    check(
        &position(&side(B, &hidari)),
        &["左美濃", "先手左美濃"],
        &["舟囲い"],
    );
    let taka = [(8, 8, King), (7, 8, Silver), (6, 9, Gold), (6, 7, Gold)];
    check(
        &position(&side(W, &taka)),
        &["高美濃囲い", "後手高美濃囲い"],
        &["左美濃"],
    );
    let ginkan = [(8, 8, King), (8, 7, Silver), (7, 8, Gold)];
    check(&position(&side(B, &ginkan)), &["銀冠", "先手銀冠"], &[]);
    let tenshu = [(8, 7, King), (7, 8, Silver), (6, 9, Gold)];
    check(&position(&side(B, &tenshu)), &["天守閣美濃"], &["左美濃"]);
    // Near miss: the silver on ７七 (a 矢倉 silver), not ７八.
    let near = [(8, 8, King), (7, 7, Silver), (6, 9, Gold)];
    check(&position(&side(B, &near)), &[], &["左美濃", "天守閣美濃"]);
}

#[test]
fn anaguma_both_sides_of_the_board() {
    let furi = [(1, 9, King), (1, 8, Lance), (2, 8, Silver), (3, 9, Gold)];
    check(
        &position(&side(B, &furi)),
        &["振り飛車穴熊", "穴熊", "先手振り飛車穴熊", "先手穴熊"],
        &["居飛車穴熊"],
    );
    let ibi = [(9, 9, King), (9, 8, Lance), (8, 8, Silver), (7, 9, Gold)];
    check(
        &position(&side(W, &ibi)),
        &["居飛車穴熊", "穴熊", "後手居飛車穴熊"],
        &["振り飛車穴熊"],
    );
    // Near miss: the king in the corner without the lance above it.
    let bare = [(9, 9, King), (8, 8, Silver), (7, 9, Gold)];
    check(&position(&side(B, &bare)), &[], &["居飛車穴熊", "穴熊"]);
}

#[test]
fn funagakoi_elmo_and_millennium() {
    let fune = [(7, 8, King), (6, 9, Gold), (5, 8, Gold), (6, 8, Silver)];
    check(
        &position(&side(B, &fune)),
        &["舟囲い", "先手舟囲い"],
        &["エルモ囲い"],
    );
    let elmo = [(7, 8, King), (6, 8, Silver), (7, 9, Gold), (5, 8, Gold)];
    check(&position(&side(B, &elmo)), &["エルモ囲い"], &["舟囲い"]);
    let millennium = [(8, 9, King), (8, 8, Silver), (7, 7, Knight), (7, 9, Gold)];
    check(
        &position(&side(B, &millennium)),
        &["ミレニアム囲い", "先手ミレニアム囲い"],
        &["菊水矢倉"],
    );
    // Near misses: 舟囲い with the king still on ６八; ミレニアム with the knight at home.
    let early = [(6, 8, King), (6, 9, Gold), (5, 8, Gold)];
    check(&position(&side(B, &early)), &[], &["舟囲い"]);
    let home = [(8, 9, King), (8, 8, Silver), (7, 9, Gold)];
    check(&position(&side(B, &home)), &[], &["ミレニアム囲い"]);
}

#[test]
fn yagura_and_gangi_castles() {
    let kin = [(8, 8, King), (7, 7, Silver), (7, 8, Gold), (6, 7, Gold)];
    check(
        &position(&side(B, &kin)),
        &["金矢倉", "先手金矢倉"],
        &["銀矢倉"],
    );
    let gin = [(8, 8, King), (7, 7, Silver), (7, 8, Gold), (6, 7, Silver)];
    check(
        &position(&side(W, &gin)),
        &["銀矢倉", "後手銀矢倉"],
        &["金矢倉"],
    );
    let gangi = [
        (6, 9, King),
        (6, 7, Silver),
        (7, 8, Gold),
        (5, 8, Gold),
        (4, 7, Silver),
    ];
    check(
        &position(&side(B, &gangi)),
        &["雁木囲い", "先手雁木囲い"],
        &[],
    );
    let hira = [(8, 8, King), (7, 7, Silver), (7, 8, Gold), (6, 8, Gold)];
    check(
        &position(&side(B, &hira)),
        &["平矢倉", "先手平矢倉"],
        &["金矢倉"],
    );
    let kata = [(7, 8, King), (7, 7, Silver), (6, 7, Gold), (6, 8, Gold)];
    check(
        &position(&side(W, &kata)),
        &["片矢倉", "後手片矢倉"],
        &["土居矢倉"],
    );
    let doi = [(7, 8, King), (7, 7, Silver), (6, 7, Gold), (5, 8, Gold)];
    check(
        &position(&side(B, &doi)),
        &["土居矢倉"],
        &["片矢倉", "舟囲い"],
    );
    // Near misses: 金矢倉 before the king went in; 雁木 without its right silver.
    let outside = [(7, 9, King), (7, 7, Silver), (7, 8, Gold), (6, 7, Gold)];
    check(&position(&side(B, &outside)), &[], &["金矢倉"]);
    let half = [(6, 9, King), (6, 7, Silver), (7, 8, Gold), (5, 8, Gold)];
    check(&position(&side(B, &half)), &[], &["雁木囲い"]);
}

#[test]
fn the_rook_file_decides_furibisha() {
    let white_ibisha = ["3c3d", "8c8d", "8d8e"];
    for (rook, name) in [
        ("2h5h", "中飛車"),
        ("2h6h", "四間飛車"),
        ("2h7h", "三間飛車"),
    ] {
        let r = game(&["7g7f", rook], &white_ibisha, 30);
        let sided = format!("先手{name}");
        check(
            &r,
            &[
                "対抗形",
                "振り飛車",
                name,
                &sided,
                "先手振り飛車",
                "後手居飛車",
            ],
            &["相居飛車", "後手振り飛車", "石田流"],
        );
    }
    // 向かい飛車: the bishop steps aside first.
    let r = game(&["7g7f", "8h7g", "2h8h"], &white_ibisha, 30);
    check(&r, &["向かい飛車", "先手向かい飛車"], &["四間飛車"]);
    // White's 四間飛車, seen from White's side.
    let r = game(&["7g7f", "2g2f"], &["3c3d", "8b4b"], 30);
    check(
        &r,
        &["対抗形", "後手四間飛車", "先手居飛車"],
        &["先手四間飛車"],
    );
    // Near misses: a rook that swings only after the first 40 plies stays 居飛車; a game too
    // short to tell gets no style.
    let mut late = vec!["7g7f", "6g6f"];
    late.extend((0..18).map(|i| if i % 2 == 0 { "4i4h" } else { "4h4i" }));
    late.push("2h6h"); // Black's 21st move: ply 41
    let r = game(&late, &white_ibisha, 46);
    check(&r, &["相居飛車", "先手居飛車"], &["振り飛車", "四間飛車"]);
    // A rook floating on the sixth rank of the fifth file (相掛かり's ▲５六飛) has not swung.
    let r = game(&["2g2f", "2f2e", "2h2f", "2f5f"], &white_ibisha, 30);
    check(&r, &["相居飛車", "先手居飛車"], &["中飛車", "振り飛車"]);
    let r = game(&["7g7f"], &["3c3d"], 12);
    check(&r, &[], &["居飛車", "振り飛車", "相居飛車"]);
}

#[test]
fn ishida_gokigen_and_migi_shikenbisha() {
    let white_ibisha = ["3c3d", "8c8d", "8d8e"];
    // 石田流: 三間飛車 with the rook on ７六 in front of its pawn on ７五.
    let ishida = ["7g7f", "7f7e", "2h7h", "7h7f"];
    let r = game(&ishida, &white_ibisha, 30);
    check(&r, &["石田流", "先手石田流", "三間飛車"], &["四間飛車"]);
    let r = game(&ishida[..3], &white_ibisha, 30);
    check(&r, &["三間飛車"], &["石田流"]);
    // ゴキゲン中飛車: White's pawn to ５五 with its bishop's diagonal open, then the rook.
    let black = ["7g7f", "2g2f", "2f2e"];
    let gokigen = ["3c3d", "5c5d", "5d5e", "8b5b"];
    let r = game(&black, &gokigen, 30);
    check(
        &r,
        &["ゴキゲン中飛車", "後手ゴキゲン中飛車", "中飛車", "対抗形"],
        &[],
    );
    // Near miss: White closes its bishop's diagonal (△４四歩) first.
    let closed = ["3c3d", "4c4d", "5c5d", "5d5e", "8b5b"];
    let r = game(&black, &closed, 30);
    check(&r, &["後手中飛車"], &["ゴキゲン中飛車"]);
    // 右四間飛車: a 居飛車 rook on ４八 with the fourth-file pawn pushed.
    let migi = ["7g7f", "4g4f", "2h4h"];
    // (the gold cannot step to ４八 under the rook: the other gold fills)
    let r = game_filled(&migi, &white_ibisha, 30, ["6i6h", "6h6i"]);
    check(
        &r,
        &["右四間飛車", "先手右四間飛車", "相居飛車", "先手居飛車"],
        &["四間飛車", "振り飛車", "力戦"],
    );
    // Near miss: the rook on ４八 behind its unpushed pawn.
    let r = game_filled(&["7g7f", "2h4h"], &white_ibisha, 30, ["6i6h", "6h6i"]);
    check(&r, &["相居飛車", "力戦"], &["右四間飛車"]);
}

#[test]
fn a_piece_dropped_after_the_rook_was_taken_is_not_the_rook() {
    // Black's rook is taken on ２四; Black then drops a pawn on ６八, where a 四間飛車's rook
    // would stand.
    let b = [
        "2g2f", "2f2e", "2e2d", "2h2d", "6g6f", "6f6e", "6e6d", "P*6h",
    ];
    let w = ["3a3b", "6a6b", "2c2d", "3b2c", "2c2d", "6b6a", "6c6d"];
    let r = game(&b, &w, 30);
    check(
        &r,
        &["先手居飛車"],
        &["振り飛車", "四間飛車", "先手振り飛車"],
    );
}

#[test]
fn ai_furibisha_and_the_classes() {
    let r = game(&["7g7f", "2h7h"], &["3c3d", "8b3b"], 30);
    check(
        &r,
        &[
            "相振り飛車",
            "先手三間飛車",
            "後手三間飛車",
            "先手振り飛車",
            "後手振り飛車",
        ],
        &["対抗形", "相居飛車", "居飛車"],
    );
}

#[test]
fn yokofudori_kakugawari_and_aigakari() {
    // 横歩取り: Black's rook takes the pawn on ３四.
    let b = [
        "7g7f", "2g2f", "2f2e", "6i7h", "2e2d", "2h2d", "8g8f", "2d3d",
    ];
    let w = ["3c3d", "8c8d", "8d8e", "4a3b", "2c2d", "8e8f", "8b8f"];
    let r = game(&b, &w, 30);
    check(
        &r,
        &["相居飛車", "横歩取り"],
        &["相掛かり", "角換わり", "力戦"],
    );
    // Near miss: the rook goes back instead of taking the pawn.
    let back = [&b[..7], &["2d2f"]].concat();
    let r = game(&back, &w, 30);
    check(&r, &["相居飛車"], &["横歩取り"]);

    // 角換わり: White takes on ７七 with its rook's pawn on ８五, Black's silver takes back.
    let b = ["7g7f", "2g2f", "8h7g", "7i8h", "8h7g"];
    let w = ["8c8d", "8d8e", "3c3d", "2b7g+"];
    let r = game(&b, &w, 30);
    check(
        &r,
        &["相居飛車", "角換わり"],
        &["一手損角換わり", "力戦", "矢倉"],
    );
    // 一手損角換わり: White exchanges with its rook's pawn still on ８三.
    let b = ["7g7f", "2g2f", "7i8h"];
    let w = ["3c3d", "2b8h+"];
    let r = game(&b, &w, 30);
    check(&r, &["一手損角換わり", "角換わり"], &["力戦"]);
    // Each bishop taken by a knight: still an exchange.
    let knights_b = ["7g7f", "9g9f", "8i7g", "7g6e", "8h3c"];
    let knights_w = ["3c3d", "2b7g", "6a6b", "6b6a", "2a3c"];
    let r = game(&knights_b, &knights_w, 30);
    check(&r, &["相居飛車", "角換わり"], &["一手損角換わり", "力戦"]);
    // Near miss: a bishop taken and not taken back is no exchange.
    let r = game(&["7g7f", "2g2f"], &w, 30);
    check(&r, &[], &["角換わり", "一手損角換わり"]);

    // 相掛かり: both rook's pawns to the fifth rank before either bishop's diagonal opens.
    let b = ["2g2f", "2f2e", "6i7h", "7g7f"];
    let w = ["8c8d", "8d8e", "4a3b", "3c3d"];
    let r = game(&b, &w, 30);
    check(&r, &["相居飛車", "相掛かり"], &["横歩取り", "力戦"]);
    // Near miss: ▲７六歩 first.
    let b = ["7g7f", "2g2f", "2f2e", "6i7h"];
    let r = game(&b, &w, 30);
    check(&r, &["相居飛車"], &["相掛かり"]);
}

#[test]
fn yagura_gangi_and_rikisen_openings() {
    let white = ["8c8d", "3c3d", "8d8e"];
    // 矢倉: silver ７七, gold ７八, pawn ６六.
    let yagura = ["7g7f", "6g6f", "6i7h", "7i6h", "6h7g"];
    let r = game(&yagura, &white, 30);
    check(&r, &["相居飛車", "矢倉"], &["力戦", "雁木"]);
    // Near miss: the sixth-file pawn unpushed.
    let r = game(&["7g7f", "6i7h", "7i6h", "6h7g"], &white, 30);
    check(&r, &["相居飛車", "力戦"], &["矢倉"]);
    // 雁木: silvers ６七 and ５七, golds ７八 and ５八.
    let gangi = [
        "6g6f", "7i6h", "6h6g", "6i7h", "4i5h", "5g5f", "3i4h", "4h5g",
    ];
    let r = game_filled(&gangi, &white, 30, ["5i6i", "6i5i"]);
    check(
        &r,
        &["相居飛車", "雁木", "雁木囲い", "先手雁木囲い"],
        &["力戦", "矢倉"],
    );
    // 力戦 and 居玉: nothing named, and neither king moved in 40 plies.
    let r = game(&["7g7f"], &["3c3d"], 40);
    check(
        &r,
        &["相居飛車", "力戦", "居玉", "先手居玉", "後手居玉"],
        &["矢倉", "相掛かり"],
    );
    // Near miss: 38 plies are too few to call the king 居玉.
    let r = game(&["7g7f"], &["3c3d"], 38);
    check(&r, &["力戦"], &["居玉"]);
}

#[test]
fn millennium_is_kikusui_yagura_between_ibisha() {
    let b = [
        "7g7f", "8h7g", "7g6f", "8i7g", "5i6h", "6h7h", "7h8i", "7i8h", "6i7i",
    ];
    let r = game(&b, &["3c3d", "8c8d"], 30);
    check(
        &r,
        &["相居飛車", "菊水矢倉", "先手菊水矢倉"],
        &["ミレニアム囲い"],
    );
    let r = game(&b, &["3c3d", "4c4d", "8b4b"], 30);
    check(
        &r,
        &["対抗形", "ミレニアム囲い", "先手ミレニアム囲い"],
        &["菊水矢倉"],
    );
}

#[test]
fn the_headers_strategy_wins() {
    let shiken = || game(&["7g7f", "2h6h"], &["3c3d", "8c8d", "8d8e"], 30);
    // A header that agrees: the sided tags stay, with what it implies.
    let mut r = shiken();
    r.header.set("戦型", "四間飛車");
    check(
        &r,
        &[
            "四間飛車",
            "振り飛車",
            "対抗形",
            "先手四間飛車",
            "後手居飛車",
        ],
        &[],
    );
    // A header that disagrees wins: 矢倉 makes it 相居飛車, and Black's computed 振り飛車 goes.
    r.header.set("戦型", "矢倉");
    check(
        &r,
        &["矢倉", "相居飛車", "居飛車"],
        &[
            "四間飛車",
            "振り飛車",
            "対抗形",
            "先手四間飛車",
            "先手振り飛車",
        ],
    );
    // CSA's romanised names; the longest name first (右四間飛車 is not 四間飛車).
    r.header.set("戦型", "KAKUGAWARI");
    check(&r, &["角換わり", "相居飛車"], &["矢倉", "四間飛車"]);
    r.header.set("戦型", "右四間飛車");
    check(&r, &["右四間飛車", "居飛車"], &["四間飛車", "先手四間飛車"]);
    // A name kifview does not know leaves the computed tags.
    r.header.set("戦型", "その他の戦型");
    assert_eq!(tags(&r), tags(&shiken()));
    // shogi-extend's per-side headers: strategy and castle.
    let mut r = shiken();
    r.header.set("後手の戦型", "力戦");
    r.header.set("先手の囲い", "美濃囲い");
    check(&r, &["力戦", "先手美濃囲い", "美濃囲い"], &[]);
}

#[test]
fn handicap_games_get_castles_but_no_strategy() {
    // 香落ち: 上手 (White) moves first; 下手 swings its rook and builds 美濃.
    let kyo = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    let moves = [
        "8c8d", "7g7f", "8d8e", "8h7g", "3c3d", "2h6h", "6a6b", "5i4h", "6b6a", "4h3h", "6a6b",
        "3h2h", "6b6a", "3i3h", "6a6b", "6i5h",
    ];
    let r = usi(&format!("position sfen {kyo} moves {}", moves.join(" ")));
    check(
        &r,
        &["美濃囲い", "先手美濃囲い"],
        &["振り飛車", "四間飛車", "居飛車", "対抗形"],
    );
}

#[test]
fn generated_corpus_games_get_known_tags() {
    // Random legal games: whatever they get, every tag is a known one, and nothing panics.
    let Some(records) = corpus_records("generated") else {
        return;
    };
    for (name, r) in records {
        for tag in tags(&r) {
            let plain = tag.trim_start_matches("先手").trim_start_matches("後手");
            assert!(KNOWN.contains(&plain), "{name}: {tag}");
        }
    }
}

/// `tag:美濃` finds the 美濃 family, `tag:四間飛車` not 右四間飛車 (a 居飛車 strategy), and a
/// sided word the same family's sided tags.
#[test]
fn tag_words_name_their_families() {
    use kifview::collection::tags::{FAMILIES, family};
    let mino = family("美濃");
    for m in ["美濃囲い", "片美濃囲い", "高美濃囲い", "銀美濃", "銀冠"] {
        assert!(mino.iter().any(|t| t == m), "{m} in {mino:?}");
    }
    assert!(!mino.iter().any(|t| t.contains("矢倉")), "{mino:?}");
    assert_eq!(family("美濃囲い"), mino[1..]);
    let shiken = family("四間飛車");
    assert!(!shiken.iter().any(|t| t == "右四間飛車"), "{shiken:?}");
    assert_eq!(family("舟"), ["舟", "舟囲い"]);
    let sided = family("後手美濃");
    assert!(sided.contains(&"後手高美濃囲い".to_string()), "{sided:?}");
    assert!(!sided.iter().any(|t| t.starts_with("先手")), "{sided:?}");
    assert_eq!(family("ｴﾙﾓ"), ["エルモ", "エルモ囲い"]);
    for (_, members) in FAMILIES {
        for m in *members {
            assert!(!m.is_empty() && !m.starts_with("先手") && !m.starts_with("後手"));
        }
    }
}
