use super::testing::push_line;
use super::*;
use crate::core::record::{NodeId, Record, Special, Step};

/// Main line 7g7f 3c3d 2g2f 8c8d 投了; at ply 1 also 2g2f (then 8c8d), at ply 2 also 8c8d.
fn sample() -> (Record, [NodeId; 4]) {
    let mut r = Record::default();
    let end = push_line(&mut r, NodeId::ROOT, "7g7f 3c3d 2g2f 8c8d");
    r.push_child(end, Step::Special(Special::Resign));
    let alt1 = push_line(&mut r, NodeId::ROOT, "2g2f");
    push_line(&mut r, alt1, "8c8d");
    let p1 = r.node(NodeId::ROOT).children[0];
    let alt2 = push_line(&mut r, p1, "8c8d");
    let main2 = r.node(p1).children[0];
    (r, [p1, main2, alt1, alt2])
}

fn app(r: Record) -> App {
    let doc = RecordSource::untitled("t.kif");
    App::new(r, doc, Config::defaults())
}

fn key(app: &mut App, keys: &str) {
    for c in keys.chars() {
        app.handle_key(KeyEvent::char(c));
    }
}

#[test]
fn next_prev_and_ends() {
    let (r, [p1, main2, ..]) = sample();
    let mut a = app(r);
    assert_eq!(a.cur(), NodeId::ROOT);
    assert_eq!(a.line().len(), 6);
    key(&mut a, "l");
    assert_eq!(a.cur(), p1);
    key(&mut a, "l");
    assert_eq!(a.cur(), main2);
    assert_eq!(
        a.position().side_to_move(),
        crate::core::rules::Color::Black
    );
    key(&mut a, "G");
    assert_eq!(a.cur_index(), 5);
    assert!(a.record().node(a.cur()).special().is_some());
    key(&mut a, "l");
    assert_eq!(a.message().as_ref().unwrap().text, "end of the line");
    key(&mut a, "g");
    assert_eq!(a.cur(), NodeId::ROOT);
    key(&mut a, "h");
    assert_eq!(a.cur(), NodeId::ROOT);
}

#[test]
fn alternatives_switch_the_line_and_are_remembered() {
    let (r, [p1, main2, alt1, alt2]) = sample();
    let mut a = app(r);
    // At the root, j changes the first move's choice without moving.
    key(&mut a, "j");
    assert_eq!(a.cur(), NodeId::ROOT);
    assert_eq!(a.line()[1], alt1);
    key(&mut a, "k");
    assert_eq!(a.line()[1], p1);
    // On a move with siblings, j moves to the sibling.
    key(&mut a, "ll");
    assert_eq!(a.cur(), main2);
    key(&mut a, "j");
    assert_eq!(a.cur(), alt2);
    assert_eq!(a.line().len(), 3);
    key(&mut a, "j");
    assert_eq!(a.cur(), alt2, "no third alternative");
    // Back and forward keeps the chosen line.
    key(&mut a, "hhll");
    assert_eq!(a.cur(), alt2);
    key(&mut a, "k");
    assert_eq!(a.cur(), main2);
    assert_eq!(a.line().len(), 6);
}

#[test]
fn goto_ply_and_page_keys() {
    let (r, _) = sample();
    let mut a = app(r);
    key(&mut a, ":3");
    assert_eq!(a.mode(), Mode::CommandLine);
    a.handle_key(KeyEvent::plain(KeyCode::Enter));
    assert_eq!(a.mode(), Mode::Normal);
    assert_eq!(a.cur_index(), 3);
    key(&mut a, ":99");
    a.handle_key(KeyEvent::plain(KeyCode::Enter));
    assert_eq!(a.cur_index(), 5);
    assert!(a.message().as_ref().unwrap().text.contains("only 5"));
    key(&mut a, ":x");
    a.handle_key(KeyEvent::plain(KeyCode::Enter));
    assert_eq!(a.message().as_ref().unwrap().level, Level::Error);
    a.handle_key(KeyEvent::plain(KeyCode::PageUp));
    assert_eq!(a.cur_index(), 0);
    a.handle_key(KeyEvent::plain(KeyCode::PageDown));
    assert_eq!(a.cur_index(), 5);
}

#[test]
fn tree_jump_selects_a_branch() {
    let (r, [_, _, alt1, alt2]) = sample();
    let mut a = app(r);
    key(&mut a, "t");
    assert_eq!(a.mode(), Mode::Tree);
    assert_eq!(a.overlays.tree_selected(), Some(0));
    // Rows: main line, 2g2f (ply 1), 8c8d (ply 2).
    assert_eq!(a.outline().rows.len(), 3);
    key(&mut a, "j");
    a.handle_key(KeyEvent::plain(KeyCode::Enter));
    assert_eq!(a.mode(), Mode::Normal);
    assert_eq!(a.cur(), alt1);
    key(&mut a, "tjj");
    a.handle_key(KeyEvent::plain(KeyCode::Enter));
    assert_eq!(a.cur(), alt2);
    key(&mut a, "hl");
    assert_eq!(a.cur(), alt2);
}

#[test]
fn the_outline_outlives_edits_that_keep_the_trees_shape() {
    use crate::core::record::Edit;
    use crate::core::rules::Move;
    let (r, [p1, ..]) = sample();
    let mut a = app(r);
    assert_eq!(a.outline().rows.len(), 3);
    let comment = Edit::SetComment {
        node: p1,
        text: "a note".into(),
    };
    testing::apply(&mut a, comment).unwrap();
    assert!(a.outline_cached().is_some(), "a comment keeps the outline");
    let mv = Move::from_usi("1g1f").unwrap();
    let add = Edit::AddMove {
        parent: NodeId::ROOT,
        mv,
    };
    testing::apply(&mut a, add).unwrap();
    assert!(
        a.outline_cached().is_none(),
        "a new branch changes the outline"
    );
    assert_eq!(a.outline().rows.len(), 4);
    a.undo();
    assert!(a.outline_cached().is_none(), "undo may change the shape");
    assert_eq!(a.outline().rows.len(), 3);
}

#[test]
fn the_position_follows_every_move_along_long_lines() {
    // 40 plies on the main line, a branch of 6 at ply 20 and one of 2 at ply 34.
    let mut r = Record::default();
    let shuffle = "5i4h 5a4b 4h5i 4b5a ".repeat(9);
    let mid = push_line(
        &mut r,
        NodeId::ROOT,
        &format!("7g7f 3c3d {}", &shuffle[..90]),
    );
    let end = push_line(&mut r, mid, &format!("{} 2g2f 8c8d", &shuffle[90..]));
    let p19 = r.path(mid)[19];
    let b1 = push_line(&mut r, p19, "8c8d 2g2f 8d8e 2f2e 8e8f 8g8f");
    let p33 = r.path(end)[33];
    let b2 = push_line(&mut r, p33, "1c1d 1g1f");
    let mut a = app(r);
    let check = |a: &App| assert_eq!(a.position(), &a.record().position_at(a.cur()));
    for id in [end, b1, mid, b2, NodeId::ROOT, b2, b1, end] {
        a.jump_to(id);
        check(&a);
        for k in ["h", "hhhhhhhhhhhhhhhhhhh", "l", "g", "G", "hhh", "j"] {
            key(&mut a, k);
            check(&a);
        }
    }
}

#[test]
fn flip_focus_help_quit() {
    let (r, _) = sample();
    let mut a = app(r);
    key(&mut a, "f");
    assert!(a.flipped());
    a.handle_key(KeyEvent::plain(KeyCode::Tab));
    assert_eq!(a.focus(), Focus::Variations);
    a.handle_key(KeyEvent::plain(KeyCode::BackTab));
    assert_eq!(a.focus(), Focus::Moves);
    key(&mut a, "?");
    assert_eq!(a.mode(), Mode::Help);
    key(&mut a, "?");
    assert_eq!(a.mode(), Mode::Normal);
    // Help from the tree goes back to the tree.
    key(&mut a, "t?");
    assert_eq!(a.mode(), Mode::Help);
    a.handle_key(KeyEvent::plain(KeyCode::Esc));
    assert_eq!(a.mode(), Mode::Tree);
    a.handle_key(KeyEvent::plain(KeyCode::Esc));
    assert_eq!(a.mode(), Mode::Normal);
    key(&mut a, "Q");
    assert!(a.message().as_ref().unwrap().text.contains("not bound"));
    key(&mut a, "q");
    assert!(a.should_quit());
}

#[test]
fn step_text_uses_kif_notation() {
    let (r, [p1, main2, ..]) = sample();
    let a = app(r);
    assert_eq!(a.step_text(p1), "▲７六歩(77)");
    assert_eq!(a.step_text(main2), "△３四歩(33)");
}

#[test]
fn open_new_handicap_and_bad_names() {
    let opts = LaunchOptions {
        handicap: Some("角落ち".into()),
        ..Default::default()
    };
    let a = App::open(&opts, Config::defaults()).unwrap();
    assert_eq!(a.record().header.get("手合割"), Some("角落ち"));
    assert_eq!(
        a.position().side_to_move(),
        crate::core::rules::Color::White
    );
    let opts = LaunchOptions {
        handicap: Some("九枚落ち".into()),
        ..Default::default()
    };
    let e = App::open(&opts, Config::defaults())
        .unwrap_err()
        .to_string();
    assert!(e.contains("九枚落ち") && e.contains("角落ち"), "{e}");
    let opts = LaunchOptions {
        file: Some("/nonexistent/x.kif".into()),
        ..Default::default()
    };
    assert!(App::open(&opts, Config::defaults()).is_err());
}
