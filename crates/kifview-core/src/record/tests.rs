use super::*;
use crate::rules::{Move, PieceKind};

fn play(r: &mut Record, parent: NodeId, usi: &str) -> NodeId {
    let mv = Move::from_usi(usi).unwrap();
    let md = r.position_at(parent).play_move(mv).unwrap();
    r.push_child(parent, Step::Move(md))
}

#[test]
fn tree_paths_lines_and_positions() {
    let mut r = Record::default();
    let a = play(&mut r, NodeId::ROOT, "7g7f");
    let b = play(&mut r, a, "3c3d");
    let b2 = play(&mut r, a, "8c8d");
    let c = play(&mut r, b, "8h2b+");
    assert_eq!(r.main_line(), vec![NodeId::ROOT, a, b, c]);
    assert_eq!(r.path(b2), vec![NodeId::ROOT, a, b2]);
    assert_eq!(r.sibling_index(b2), 1);
    assert_eq!(r.node(c).ply, 3);
    assert_eq!(
        r.position_at(c).to_sfen(),
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    );
    assert_eq!(
        r.find_move_child(a, Move::from_usi("8c8d").unwrap()),
        Some(b2)
    );
    assert_eq!(r.preorder(), vec![NodeId::ROOT, a, b, c, b2]);
    assert!(r.has_variations());
    assert_eq!(r.side_to_move_at(c), Color::White);
    let s = r.push_child(c, Step::Special(Special::Resign));
    assert_eq!(r.side_to_move_at(s), Color::White);
    assert_eq!(r.last_move_at(s).unwrap().piece, PieceKind::Bishop);
}

#[test]
fn deep_lines_need_no_recursion() {
    let mut r = Record::default();
    let mut cur = NodeId::ROOT;
    for i in 0..100_000 {
        let usi = if i % 4 < 2 {
            ["2h3h", "8b7b"][i % 2]
        } else {
            ["3h2h", "7b8b"][i % 2]
        };
        cur = play_fast(&mut r, cur, usi, i);
    }
    assert_eq!(r.main_line().len(), 100_001);
    assert_eq!(r.preorder().len(), 100_001);
    let cloned = r.clone();
    drop(cloned);
    drop(r);
}

fn play_fast(r: &mut Record, parent: NodeId, usi: &str, i: usize) -> NodeId {
    let color = if i.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    r.push_child(
        parent,
        Step::Move(MoveData {
            mv: Move::from_usi(usi).unwrap(),
            color,
            piece: PieceKind::Rook,
            captured: None,
        }),
    )
}

#[test]
fn repetition_is_counted_along_the_path() {
    let mut r = Record::default();
    let mut cur = NodeId::ROOT;
    for _ in 0..3 {
        for m in ["2h3h", "8b7b", "3h2h", "7b8b"] {
            cur = play(&mut r, cur, m);
        }
    }
    assert_eq!(r.repetition_count(cur), 4);
}

#[test]
fn specials_read_and_write() {
    assert_eq!(Special::from_kif("投了"), Special::Resign);
    assert_eq!(Special::from_kif("詰"), Special::Mate);
    assert_eq!(Special::from_kif("封じ手"), Special::Other("封じ手".into()));
    assert_eq!(Special::Other("封じ手".into()).kif_word(), "封じ手");
    assert_eq!(
        Special::from_csa("%+ILLEGAL_ACTION", Color::White),
        Special::FoulWin
    );
    assert_eq!(
        Special::from_csa("%+ILLEGAL_ACTION", Color::Black),
        Special::FoulLose
    );
    assert_eq!(
        Special::FoulWin.csa_word(Color::White).as_deref(),
        Some("%+ILLEGAL_ACTION")
    );
    assert_eq!(
        Special::Resign.result_line(77, Color::White, false),
        "まで77手で先手の勝ち"
    );
    assert_eq!(
        Special::Timeout.result_line(10, Color::Black, true),
        "まで10手で時間切れにより上手の勝ち"
    );
}

#[test]
fn header_keeps_order_and_unknown_keys() {
    let mut h = Header::default();
    h.set("先手", "A");
    h.set("Rating", "R1500");
    h.set("先手", "B");
    assert_eq!(h.fields.len(), 2);
    assert_eq!(h.black_name(), Some("B"));
    assert_eq!(h.fields[1].key, "Rating");
    h.set("上手", "C");
    assert_eq!(h.white_name(), Some("C"));
    assert_eq!(h.remove("Rating").as_deref(), Some("R1500"));
}

#[test]
fn running_totals_and_missing_times() {
    let mut r = Record::default();
    let a = play(&mut r, NodeId::ROOT, "7g7f");
    let b = play(&mut r, a, "3c3d");
    let c = play(&mut r, b, "2g2f");
    let end = r.push_child(c, Step::Special(Special::Resign));
    r.node_mut(a).time = Some(MoveTime {
        spent_ms: 5_000,
        total_ms: None,
    });
    r.node_mut(b).time = Some(MoveTime {
        spent_ms: 7_000,
        total_ms: Some(60_000),
    });
    r.node_mut(c).time = Some(MoveTime {
        spent_ms: 3_000,
        total_ms: None,
    });
    let t = r.running_totals();
    // Black: 5 s, then 5 + 3; White: the file's own total.
    assert_eq!(
        (t[a.index()], t[b.index()], t[c.index()]),
        (5_000, 60_000, 8_000)
    );
    r.fill_missing_times();
    // The ending (White to move) spent 0 s and carries White's total.
    assert_eq!(
        r.node(end).time,
        Some(MoveTime {
            spent_ms: 0,
            total_ms: Some(60_000)
        })
    );
    // A record without any time stays without.
    let mut bare = Record::default();
    play(&mut bare, NodeId::ROOT, "7g7f");
    bare.fill_missing_times();
    assert!(bare.nodes.iter().all(|n| n.time.is_none()));
}

#[test]
fn ply_beyond_the_main_line_names_its_length() {
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
    let r = &crate::notation::load(text.as_bytes(), None).records[0].record;
    assert_eq!(r.main_line_moves(), 2);
    assert!(r.node_at_ply(Some(2)).is_ok());
    assert_eq!(
        r.node_at_ply(Some(3)).unwrap_err(),
        "--ply 3: the main line has 2 moves"
    );
    assert_eq!(
        r.node_at_ply(None).unwrap(),
        r.node_at_ply(Some(2)).unwrap()
    );
}

/// A copy of the record (what a recovery file and a save are written from, on a thread)
/// keeps the record as it was when taken: edits made after it, and their undo and redo,
/// change the record only, though the two share every node not written since.
#[test]
fn a_copy_keeps_the_record_as_it_was_whatever_is_edited_undone_or_redone_after() {
    let mut r = Record::default();
    let mut cur = NodeId::ROOT;
    for i in 0..1000 {
        cur = play_fast(&mut r, cur, ["2h3h", "8b7b", "3h2h", "7b8b"][i % 4], i);
    }
    // A copy sharing nothing, to compare with.
    let deep = |r: &Record| Record {
        nodes: r.nodes.iter().cloned().collect(),
        ..r.clone()
    };
    let was = deep(&r);
    let copy = r.clone();
    let mut h = History::new();
    let mut apply = |r: &mut Record, e: Edit| h.apply(r, e, NodeId::ROOT).unwrap();
    apply(
        &mut r,
        Edit::SetComment {
            node: NodeId(5),
            text: "after the copy".into(),
        },
    );
    let branch = apply(
        &mut r,
        Edit::AddMove {
            parent: NodeId(10),
            mv: Move::from_usi("1g1f").unwrap(),
        },
    );
    apply(&mut r, Edit::PromoteToMain { node: branch });
    apply(&mut r, Edit::CutAfter { node: NodeId(999) });
    apply(
        &mut r,
        Edit::SetTime {
            node: NodeId(700),
            time: Some(MoveTime {
                spent_ms: 1000,
                total_ms: None,
            }),
        },
    );
    apply(
        &mut r,
        Edit::SetBookmark {
            node: NodeId(200),
            name: Some("mark".into()),
        },
    );
    apply(&mut r, Edit::Detach { node: NodeId(300) });
    // Records are compared whole (`==`, every node of the arena) and as a file shows them
    // (undo keeps a removed move's node in the arena, detached).
    let text = |r: &Record| {
        let kif = crate::notation::to_bytes(
            r,
            crate::notation::Target::new(crate::notation::Format::Kif),
            &crate::notation::TextInfo::new(crate::notation::TextEncoding::Utf8),
        );
        String::from_utf8(kif.unwrap().0).unwrap()
    };
    assert!(copy == was, "an edit reached the copy taken before it");
    assert!(r != was);
    let edited = deep(&r);
    let later = r.clone();
    while h.undo(&mut r, NodeId::ROOT).is_some() {}
    assert_eq!(text(&r), text(&was), "undo gives back the record as it was");
    assert!(later == edited, "undo reached a copy taken before it");
    assert!(copy == was);
    while h.redo(&mut r, NodeId::ROOT).is_some() {}
    assert_eq!(text(&r), text(&edited));
    assert!(copy == was && later == edited);
    assert_eq!(text(&copy), text(&was));
    assert_ne!(text(&later), text(&was));
}
