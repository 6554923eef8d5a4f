use super::*;
use crate::app::dispatch::input::{KeyCode, KeyEvent};
use crate::app::testing::app_with;
use crate::app::{App, Level, Mode};
use crate::core::record::Edit;

/// Main line to ply 12 (投了) with two variations (at 4 and at 7), comments, a bookmark and a
/// header.
pub(crate) const STUDY: &str = "\
開始日時：2024/10/01
棋戦：竜王戦 第3局
先手：藤井聡太
後手：ＡＢＣ太郎
手数----指手---------消費時間--
   1 ７六歩(77)
*角道を開ける。７六歩は定跡。
   2 ３四歩(33)
   3 ２六歩(27)
&仕掛け
   4 ８四歩(83)
   5 ２五歩(26)
   6 ８五歩(84)
   7 ７八金(69)
*ＡＢＣの研究
   8 ３二金(41)
   9 ２四歩(25)
  10 同　歩(23)
  11 同　飛(28)
  12 投了

変化：4手目
   4 ４四歩(43)
   5 ４八銀(39)
*四間飛車の出だし
   6 ４二飛(82)

変化：7手目
   7 ５八金(49)
*58金右の形
";

fn press(a: &mut App, keys: &str) {
    for c in keys.chars() {
        a.handle_key(KeyEvent::char(c));
    }
}

fn enter(a: &mut App) {
    a.handle_key(KeyEvent::plain(KeyCode::Enter));
}

/// `/` TEXT Enter.
pub(crate) fn search(a: &mut App, text: &str) {
    press(a, "/");
    assert_eq!(a.mode(), Mode::Prompt);
    for c in text.chars() {
        a.handle_key(KeyEvent::char(c));
    }
    enter(a);
    assert_eq!(a.mode(), Mode::Normal, "Enter closes the prompt");
}

fn msg(a: &App) -> String {
    a.message()
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

/// The matches as (ply, kind, on the main line) in the order found.
fn found(a: &App) -> Vec<(u32, Kind)> {
    a.search
        .found
        .as_ref()
        .expect("searched")
        .matches
        .iter()
        .map(|m| (a.record().node(m.node).ply, m.kind))
        .collect()
}

/// The node at ply `n` of the main line.
fn main_at(a: &App, n: usize) -> NodeId {
    a.record().main_line()[n]
}

#[test]
fn moves_are_found_as_the_list_writes_them_and_as_players_type_them() {
    let mut a = app_with(STUDY);
    for q in [
        "７六",
        "76",
        "7六",
        "76歩",
        "▲７六歩",
        "☗76歩",
        "７６歩",
        "▲７六歩(77)",
    ] {
        search(&mut a, q);
        assert_eq!(
            found(&a).first(),
            Some(&(1, Kind::Move)),
            "{q}: {:?}",
            found(&a)
        );
        assert_eq!(a.cur(), main_at(&a, 1), "{q} went to the move");
    }
    // Gote never played ７六歩.
    search(&mut a, "△76歩");
    assert!(found(&a).is_empty());
    assert_eq!(msg(&a), "no match for \"△76歩\"");
    // 同 in every spelling; a 同 move is also found by its square.
    for q in ["同歩", "同　歩", "同 歩", "△同歩"] {
        search(&mut a, q);
        assert_eq!(found(&a), vec![(10, Kind::Move)], "{q}");
    }
    search(&mut a, "24歩");
    assert_eq!(found(&a), vec![(9, Kind::Move), (10, Kind::Move)]);
    // The origin square is searched only when asked for: ２五歩(26) is not a move to ２六.
    search(&mut a, "26");
    assert_eq!(found(&a), vec![(3, Kind::Move)]);
    search(&mut a, "(26)");
    assert_eq!(found(&a), vec![(5, Kind::Move)]);
    // KI2 relative notation: ５八金(49) is ５八金右 (the gold on ６九 could go there too).
    search(&mut a, "58金右");
    assert_eq!(found(&a), vec![(7, Kind::Move), (7, Kind::Comment)]);
    search(&mut a, "５八金左");
    assert!(found(&a).is_empty(), "{:?}", found(&a));
    // A suffix alone: every move's KI2 form is made in one walk of the tree.
    let mut b = app_with(STUDY);
    search(&mut b, "右");
    assert_eq!(found(&b), vec![(7, Kind::Move), (7, Kind::Comment)]);
    assert!(b.search.index.as_ref().unwrap().ki2_all);
    assert!(
        !a.search.index.as_ref().unwrap().ki2_all,
        "58金右 made only ５八金's"
    );
    search(&mut a, "投了");
    assert_eq!(found(&a), vec![(12, Kind::Move)]);
}

#[test]
fn comments_bookmarks_and_header_are_found_with_width_and_case_folded() {
    let mut a = app_with(STUDY);
    search(&mut a, "藤井");
    assert_eq!(found(&a), vec![(0, Kind::Header(2))]);
    assert_eq!(a.cur(), NodeId::ROOT, "a header match does not move");
    assert_eq!(msg(&a), "match 1/1: 対局情報 先手：藤井聡太");
    // Full-width letters, either case.
    for q in ["abc", "ＡＢＣ", "aBc"] {
        search(&mut a, q);
        assert_eq!(
            found(&a),
            vec![(0, Kind::Header(3)), (7, Kind::Comment)],
            "{q}"
        );
    }
    search(&mut a, "仕掛");
    assert_eq!(found(&a), vec![(3, Kind::Bookmark)]);
    assert_eq!(msg(&a), "match 1/1: しおり &仕掛け 3手目 ▲２六歩(27)");
    search(&mut a, "&仕掛け");
    assert_eq!(found(&a), vec![(3, Kind::Bookmark)]);
    // A comment naming a move with kanji digits is found by the move typed.
    press(&mut a, "g");
    search(&mut a, "定跡");
    assert_eq!(found(&a), vec![(1, Kind::Comment)]);
    assert_eq!(
        msg(&a),
        "match 1/1: コメント 1手目 ▲７六歩(77): 角道を開ける。７六歩は定跡。"
    );
}

#[test]
fn matches_come_in_reading_order_main_line_first_then_the_variations() {
    let mut a = app_with(STUDY);
    search(&mut a, "歩");
    assert_eq!(
        found(&a),
        vec![
            (1, Kind::Move),
            (1, Kind::Comment),
            (2, Kind::Move),
            (3, Kind::Move),
            (4, Kind::Move),
            (5, Kind::Move),
            (6, Kind::Move),
            (9, Kind::Move),
            (10, Kind::Move),
            // The variation at 4 (the fork nearest the start), then the one at 7.
            (4, Kind::Move),
        ]
    );
    let m = msg(&a);
    assert!(
        m.starts_with("match 1/10 (1 off this line, L lists them): 1手目 ▲７六歩(77)"),
        "{m}"
    );
    search(&mut a, "金");
    assert_eq!(
        found(&a),
        vec![
            (7, Kind::Move),
            (8, Kind::Move),
            (7, Kind::Move),
            (7, Kind::Comment)
        ]
    );
}

#[test]
fn n_and_n_step_through_the_matches_and_wrap_around() {
    let mut a = app_with(STUDY);
    search(&mut a, "24歩");
    assert_eq!(a.cur(), main_at(&a, 9));
    assert_eq!(msg(&a), "match 1/2: 9手目 ▲２四歩(25)");
    press(&mut a, "n");
    assert_eq!(a.cur(), main_at(&a, 10));
    assert_eq!(msg(&a), "match 2/2: 10手目 △同　歩(23)");
    press(&mut a, "n");
    assert_eq!(a.cur(), main_at(&a, 9), "wrapped to the first");
    assert_eq!(
        a.message().as_ref().map(|m| (m.text.as_str(), m.level)),
        Some((
            "search wrapped; match 1/2: 9手目 ▲２四歩(25)",
            Level::Warning
        ))
    );
    press(&mut a, "N");
    assert_eq!(a.cur(), main_at(&a, 10), "N wraps back to the last");
    assert!(
        msg(&a).starts_with("search wrapped; match 2/2"),
        "{}",
        msg(&a)
    );
    press(&mut a, "N");
    assert_eq!(a.cur(), main_at(&a, 9));
    // Moved away: n goes on from the cursor, N back from it.
    press(&mut a, "g");
    press(&mut a, "n");
    assert_eq!(a.cur(), main_at(&a, 9));
    press(&mut a, "G");
    press(&mut a, "N");
    assert_eq!(a.cur(), main_at(&a, 10));
    // `/` from the middle goes to the first match at or after the cursor.
    press(&mut a, "g");
    press(&mut a, "llllllllll");
    search(&mut a, "24歩");
    assert_eq!(a.cur(), main_at(&a, 10));
    // An empty `/` repeats the last search.
    press(&mut a, "G");
    search(&mut a, "");
    assert_eq!(a.cur(), main_at(&a, 9));
    assert!(
        msg(&a).starts_with("search wrapped; match 1/2"),
        "{}",
        msg(&a)
    );
}

#[test]
fn a_match_in_a_variation_switches_the_line_to_it() {
    let mut a = app_with(STUDY);
    search(&mut a, "四間飛車");
    let v = a.cur();
    assert_eq!(a.record().node(v).ply, 5);
    assert_ne!(v, main_at(&a, 5), "in the variation");
    assert_eq!(a.line()[5], v, "the line goes through it");
    assert_eq!(a.step_text(a.line()[4]), "△４四歩(43)");
    assert_eq!(
        msg(&a),
        "match 1/1: コメント 変化 5手目 ▲４八銀(39): 四間飛車の出だし"
    );
    // From there `/` finds the first match at or after it: the variation at 7 comes after
    // the one at 4; n goes on, then wraps to the main line.
    search(&mut a, "金");
    assert_eq!(a.record().node(a.cur()).ply, 7);
    assert_ne!(a.cur(), main_at(&a, 7), "the variation's ５八金");
    assert_eq!(
        msg(&a),
        "match 3/4 (2 off this line, L lists them): 変化 7手目 ▲５八金(49)"
    );
    press(&mut a, "n");
    assert_eq!(
        msg(&a),
        "match 4/4: コメント 変化 7手目 ▲５八金(49): 58金右の形"
    );
    press(&mut a, "n");
    assert_eq!(a.cur(), main_at(&a, 7), "wrapped back to the main line");
}

#[test]
fn the_list_shows_every_match_and_jumps() {
    let mut a = app_with(STUDY);
    search(&mut a, "歩");
    press(&mut a, "L");
    assert_eq!(a.mode(), Mode::List);
    let l = a.overlays.list().expect("list").clone();
    assert_eq!(l.items.len(), 10);
    assert_eq!(l.items[0], "* 1手目 ▲７六歩(77)");
    assert_eq!(
        l.items[1],
        "* コメント 1手目 ▲７六歩(77): 角道を開ける。７六歩は定跡。"
    );
    assert_eq!(l.items[9], "  変化 4手目 △４四歩(43)");
    assert_eq!(l.selected, 0, "the current match");
    assert!(l.title.starts_with("検索 \"歩\" 10件"), "{}", l.title);
    press(&mut a, "jjjjjjjjj");
    enter(&mut a);
    assert_eq!(a.mode(), Mode::Normal);
    assert_eq!(a.record().node(a.cur()).ply, 4);
    assert_ne!(a.cur(), main_at(&a, 4), "jumped into the variation");
    assert_eq!(msg(&a), "match 10/10: 変化 4手目 △４四歩(43)");
    // Opened away from a match: the first match off the line is selected.
    press(&mut a, "g");
    a.search.found.as_mut().unwrap().current = None;
    a.jump_to(main_at(&a, 1));
    press(&mut a, "L");
    // The line still goes through the variation at 4 (remembered): the main line's
    // ８四歩 is the first match off it.
    let l = a.overlays.list().unwrap();
    assert_eq!(l.selected, 4);
    assert_eq!(l.items[4], "  4手目 △８四歩(83)");
}

#[test]
fn without_a_search_n_and_l_say_so_and_the_record_changing_is_followed() {
    let mut a = app_with(STUDY);
    press(&mut a, "n");
    assert_eq!(msg(&a), "no previous search (/ searches)");
    press(&mut a, "L");
    assert_eq!(a.mode(), Mode::Normal);
    search(&mut a, "");
    assert_eq!(msg(&a), "no previous search: type what to find after /");
    search(&mut a, "研究会");
    assert_eq!(msg(&a), "no match for \"研究会\"");
    // A bookmark set afterwards is found by n (the search runs again on the changed record).
    press(&mut a, "lb");
    for c in "研究会".chars() {
        a.handle_key(KeyEvent::char(c));
    }
    enter(&mut a);
    press(&mut a, "g");
    press(&mut a, "n");
    assert_eq!(a.cur(), main_at(&a, 1));
    assert_eq!(msg(&a), "match 1/1: しおり &研究会 1手目 ▲７六歩(77)");
    assert!(a.search.highlight(a.version()).is_some());
    crate::app::dispatch::typable::run(&mut a, "noh");
    assert!(a.search.highlight(a.version()).is_none(), ":noh hides it");
    crate::app::dispatch::typable::run(&mut a, "search 同歩");
    assert_eq!(a.record().node(a.cur()).ply, 10);
    assert!(a.search.highlight(a.version()).is_some());
}

#[test]
fn spans_map_folded_matches_back_to_the_text() {
    let q = Query::new("76歩");
    let chars: Vec<char> = "次は▲７六歩。76歩".chars().collect();
    assert_eq!(q.spans(&chars), vec![(3, 6), (7, 10)]);
    let q = Query::new("同歩");
    let chars: Vec<char> = "△同　歩(23)".chars().collect();
    assert_eq!(q.spans(&chars), vec![(1, 4)]);
    let q = Query::new("abc");
    assert_eq!(
        q.spans(&"xＡＢＣ".chars().collect::<Vec<_>>()),
        vec![(1, 4)]
    );
}

#[test]
fn text_from_the_file_is_sanitized_in_the_message_and_the_list() {
    let mut a = app_with(STUDY);
    let id = main_at(&a, 2);
    a.apply(Edit::SetComment {
        node: id,
        text: "危険\u{1b}[2J\u{202e}な\u{7}文字".into(),
    })
    .unwrap();
    a.apply(Edit::SetBookmark {
        node: id,
        name: Some("危\u{1b}]52;c;x\u{7}".into()),
    })
    .unwrap();
    search(&mut a, "危");
    press(&mut a, "L");
    let l = a.overlays.list().expect("list").clone();
    assert_eq!(l.items.len(), 2);
    for text in l.items.iter().chain([&l.title]) {
        assert!(
            !text
                .chars()
                .any(|c| c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)),
            "{text:?}"
        );
    }
    assert_eq!(
        l.items[1],
        "* コメント 2手目 △３四歩(33): 危険\u{fffd}[2J\u{fffd}な\u{fffd}文字"
    );
}
