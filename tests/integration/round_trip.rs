//! Saving back without edits: a clean file of the real corpus written back with its own
//! settings (format, dialect, encoding, BOM, line endings: what the app's save over the file
//! uses) gives the same bytes. A file that still changes is one the reader warned about, or
//! one listed in [`CHANGES`] with the reason.
//!
//! Skips (with a message) when ../shared/corpus does not exist; fails then with
//! `KIFVIEW_REQUIRE_CORPUS=1`.

use kifview::core::notation;
use std::path::Path;

use crate::common;

/// Clean KIF files that a save without edits still changes, and why.
const CHANGES: &[(&str, &str)] = &[
    (
        "20081220kyoochi.kif",
        "a CR inside a header line (mixed line endings) becomes a line end",
    ),
    (
        "9fu.kif",
        "a diagram's hands named 上手/下手 are written 後手/先手",
    ),
    (
        "kifu_for_iphone.kif",
        "ASCII spaces between the pieces of a hand become U+3000",
    ),
    (
        "no_henka.kif",
        "declares UTF-8 but is Shift_JIS (converted by nkf): the declaration is corrected",
    ),
    (
        "kif/forks.kif",
        "declares UTF-8 but is Shift_JIS (converted by nkf): the declaration is corrected",
    ),
    (
        "Shogidokoro.kif",
        "declares UTF-8 but is Shift_JIS (converted by nkf): the declaration is corrected",
    ),
    (
        "any-game-info[handmade].kifu",
        "hand-made: no 手合割 line (written, 平手)",
    ),
    (
        "comment[handmade].kifu",
        "hand-made: `#` remarks at the ends of header lines go to lines of their own",
    ),
    (
        "[shogiextend].kifu",
        "a `*` comment before the header moves after it",
    ),
    (
        "bookmark[shogigui].kifu",
        "a bookmark before the comment of the same move is written after it",
    ),
    (
        "habu-fujii-2006.kif",
        "blank lines inside the header are dropped",
    ),
    (
        "example.kif",
        "hours padded with a space `( 0:03/ 0:00:19)` are written `00:00:19`",
    ),
    (
        "example.kifu",
        "hours padded with a space `( 0:03/ 0:00:19)` are written `00:00:19`",
    ),
    (
        "piyo-shogi_KY.kif",
        "a move to the last move's square written with its square is written `同`",
    ),
    (
        "piyo-shogi_KY.kifu",
        "a move to the last move's square written with its square is written `同`",
    ),
];

/// What saving `path` back without edits changes: `None` when nothing, else whether the
/// reader warned and the first line that differs.
fn save_back(path: &Path) -> Option<(bool, String)> {
    let bytes = std::fs::read(path).unwrap();
    let loaded = notation::load(&bytes, Some(path));
    let parsed = &loaded.records[0];
    let (target, info) =
        notation::filetype::write_settings(path, Some((loaded.own_target(), loaded.info)), None)
            .unwrap();
    let out = match notation::to_bytes(&parsed.record, target, &info) {
        Ok((out, _)) => out,
        Err(e) => return Some((!parsed.warnings.is_empty(), e.to_string())),
    };
    if out == bytes {
        return None;
    }
    let a = notation::encoding::decode(&bytes, loaded.info.encoding).text;
    let b = notation::encoding::decode(&out, loaded.info.encoding).text;
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let at = la
        .iter()
        .zip(&lb)
        .position(|(x, y)| x != y)
        .unwrap_or(la.len().min(lb.len()));
    let diff = format!(
        "line {}: {:?} -> {:?}",
        at + 1,
        la.get(at).copied().unwrap_or("<end>"),
        lb.get(at).copied().unwrap_or("<end>")
    );
    Some((!parsed.warnings.is_empty(), diff))
}

/// A file that changes when saved back: its path, whether the reader warned, the first change.
type Changed = (String, bool, String);

/// The files with these extensions under corpus/real that change, each with what changed.
fn changed(exts: &[&str]) -> Option<(usize, Vec<Changed>)> {
    let corpus = common::corpus()?;
    let mut files = Vec::new();
    common::files_with_ext(&corpus.join("real"), exts, &mut files);
    let out = files
        .iter()
        .filter_map(|f| save_back(f).map(|(w, d)| (f.display().to_string(), w, d)))
        .collect();
    Some((files.len(), out))
}

#[test]
fn a_clean_kif_file_saves_back_byte_identical() {
    let Some((total, changed)) = changed(&["kif", "kifu"]) else {
        return;
    };
    let unexplained: Vec<_> = changed
        .iter()
        .filter(|(f, warned, _)| !warned && !CHANGES.iter().any(|(n, _)| f.ends_with(n)))
        .collect();
    println!(
        "{} of {total} KIF files change when saved back",
        changed.len()
    );
    assert!(
        unexplained.is_empty(),
        "clean KIF files that change when saved back without edits:\n{unexplained:#?}"
    );
    // Every listed reason is still needed (a fixed one comes off the list).
    for (name, why) in CHANGES {
        assert!(
            changed.iter().any(|(f, _, _)| f.ends_with(name)),
            "{name} ({why}) now saves back unchanged: take it off CHANGES"
        );
    }
}

/// Reads `text` as the file `name` (UTF-8, LF) and writes it back as a save over the file does.
fn saved_back(name: &str, text: &str) -> String {
    let path = Path::new(name);
    let loaded = notation::load(text.as_bytes(), Some(path));
    assert!(
        loaded.records[0].warnings.is_empty(),
        "{name}: {:?}",
        loaded.records[0].warnings
    );
    let (target, info) =
        notation::filetype::write_settings(path, Some((loaded.own_target(), loaded.info)), None)
            .unwrap();
    let (out, _) = notation::to_bytes(&loaded.records[0].record, target, &info).unwrap();
    String::from_utf8(out).unwrap()
}

/// Kifu for Windows: `手合割：平手　　`, moves in a 13-column field, `まで` after the main line.
const KFW: &str = "\
# ---- Kifu for Windows V7 V7.11 棋譜ファイル ----
開始日時：2015/08/17 00:32:18
手合割：平手\u{3000}\u{3000}
先手：
後手：
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ３四歩(33)   ( 0:02/00:00:02)
   3 ２二角成(88) ( 0:03/00:00:04)+
   4 同\u{3000}銀(31)   ( 0:04/00:00:06)
   5 投了         ( 0:05/00:00:09)
まで4手で後手の勝ち

変化：3手
   3 ２六歩(27)   ( 0:01/00:00:02)
";

/// Shogidokoro: `(00:01 / 00:00:01)` times in a 14-column field, no `+`, `まで` after a
/// variation too.
const SHOGIDOKORO: &str = "\
開始日時：2021/05/03 19:12:57
手合割：平手
先手：AI_AN
後手：Kifuwarabe
手数----指手---------消費時間--
   1 ７六歩(77)    (00:01 / 00:00:01)
   2 ３四歩(33)    (00:02 / 00:00:02)
   3 中断          (00:00 / 00:00:01)
まで2手で中断

変化：2手
   2 ８四歩(83)    (00:01 / 00:00:01)
   3 中断          (00:00 / 00:00:01)
まで2手で中断
";

/// ShogiGUI: moves padded to 15 characters.
const SHOGIGUI: &str = "\
開始日時：2021/10/02 22:35:06
手合割：平手
先手：A
後手：B
手数----指手---------消費時間--
   1 ７六歩(77)        ( 0:00/00:00:00)
   2 ３四歩(33)        ( 0:00/00:00:00)
   3 ２二角成(88)       ( 0:00/00:00:00)
   4 同\u{3000}銀(31)        ( 0:00/00:00:00)
   5 ５五角打           ( 0:00/00:00:00)
";

/// ShogiHome: no `まで` line after the ending, a blank line at the end.
const SHOGIHOME: &str = "\
開始日時：2024/01/01 10:00:00
手合割：平手
先手：sente
後手：gote
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 投了         ( 0:02/00:00:02)

";

/// Old Kifu for Windows without times: `手数----指手--`, moves padded to 12 columns, a blank
/// line where a closing line would be.
const OLD_KFW: &str = "\
手合割：平手\u{3000}\u{3000}
手数----指手--
   1 ７六歩(77)  
   2 ３四歩(33)   +
   3 ２六歩(27)  


変化：2手
   2 ８四歩(83)  
";

/// A tsume problem (Kifu for Windows): `手合割` beside the diagram, hands without a trailing
/// `　`, `竜` in moves (`龍` on the board), `まで1手詰`, no final line break.
const TSUME: &str = "\
手合割：平手\u{3000}\u{3000}
後手の持駒：飛\u{3000}角二\u{3000}金三\u{3000}銀四\u{3000}桂四\u{3000}香四\u{3000}歩十八
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・ ・v玉|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ 龍 ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：金
手数----指手---------消費時間--
   1 １二竜(23)   ( 0:00/00:00:00)
   2 詰み         ( 0:00/00:00:00)
まで1手詰";

/// shogidb2: unpadded numbers, one space before `(00:00/00:00:00)`, `同歩`.
const SHOGIDB2: &str = "\
手合割：平手
手数----指手---------消費時間--
1 ７六歩(77) (00:00/00:00:00)
2 ３四歩(33) (00:00/00:00:00)
3 ２二角成(88) (00:00/00:00:00)
4 同銀(31) (00:00/00:00:00)
";

#[test]
fn each_programs_dialect_saves_back_byte_identical() {
    for (name, text) in [
        ("kfw.kifu", KFW),
        ("shogidokoro.kifu", SHOGIDOKORO),
        ("shogigui.kifu", SHOGIGUI),
        ("shogihome.kifu", SHOGIHOME),
        ("old.kifu", OLD_KFW),
        ("tsume.kifu", TSUME),
        ("shogidb2.kifu", SHOGIDB2),
    ] {
        assert_eq!(saved_back(name, text), text, "{name}");
    }
}

#[test]
fn an_edit_changes_only_its_own_line() {
    for (name, text) in [("kfw.kifu", KFW), ("shogidokoro.kifu", SHOGIDOKORO)] {
        let path = Path::new(name);
        let loaded = notation::load(text.as_bytes(), Some(path));
        let record = &mut loaded.records[0].record.clone();
        let second = record.main_line()[2];
        record.node_mut(second).comment = "一言".into();
        let (out, _) = notation::to_bytes(record, loaded.own_target(), &loaded.info).unwrap();
        let out = String::from_utf8(out).unwrap();
        let mut want: Vec<&str> = text.lines().collect();
        let at = want.iter().position(|l| l.contains("３四歩(33)")).unwrap();
        want.insert(at + 1, "*一言");
        assert_eq!(out.lines().collect::<Vec<_>>(), want, "{name}");
    }
}

#[test]
fn a_new_file_and_a_conversion_get_kifviews_own_style() {
    let loaded = notation::load(SHOGIDOKORO.as_bytes(), Some(Path::new("a.kifu")));
    let (target, info) =
        notation::filetype::write_settings(Path::new("b.kifu"), None, None).unwrap();
    let (out, _) = notation::to_bytes(&loaded.records[0].record, target, &info).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("   1 ７六歩(77)   ( 0:01/00:00:01)\n"),
        "{out}"
    );
    assert!(
        out.contains("   2 ３四歩(33)   ( 0:02/00:00:02)+\n"),
        "{out}"
    );
}
