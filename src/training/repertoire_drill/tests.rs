//! The repertoire drill over a book-like repertoire with counts (a fake [`Lines`]) and over a
//! record's variations.

use super::*;
use crate::core::record::{Initial, Record, Step as RecordStep};
use crate::training::drill::tests::{judged, mv};
use std::collections::HashMap;

/// A book in memory: position key to moves with counts.
pub(crate) struct Counts(pub HashMap<String, Vec<(Move, u64)>>);

impl Lines for Counts {
    fn moves(&self, pos: &Position) -> Result<Vec<(Move, u64)>, String> {
        Ok(self
            .0
            .get(&position_key(&pos.to_sfen()))
            .cloned()
            .unwrap_or_default())
    }
}

fn after(moves: &[&str]) -> Position {
    let mut p = Position::startpos();
    for m in moves {
        p.play(mv(m)).unwrap();
    }
    p
}

/// ▲７六歩 (10) / ▲２六歩 (1); after ▲７六歩: △３四歩 (3) / △８四歩 (1); then ▲２六歩 or
/// ▲６八銀; after ▲２六歩: △８四歩 (1), then nothing.
pub(crate) fn book() -> Arc<dyn Lines> {
    let mut m = HashMap::new();
    let mut put = |line: &[&str], moves: &[(&str, u64)]| {
        m.insert(
            position_key(&after(line).to_sfen()),
            moves.iter().map(|&(u, c)| (mv(u), c)).collect(),
        );
    };
    put(&[], &[("7g7f", 10), ("2g2f", 1)]);
    put(&["7g7f"], &[("3c3d", 3), ("8c8d", 1)]);
    put(&["7g7f", "3c3d"], &[("2g2f", 2)]);
    put(&["7g7f", "8c8d"], &[("7i6h", 1)]);
    put(&["2g2f"], &[("8c8d", 1)]);
    Arc::new(Counts(m))
}

fn drill(side: Color, seed: u64) -> RepertoireDrill {
    RepertoireDrill::new(
        book(),
        PathBuf::from("/books/mine.db"),
        "/books/mine.db",
        side,
        Position::startpos(),
        seed,
    )
    .unwrap()
}

#[test]
fn a_move_in_the_repertoire_is_right_and_the_reply_is_drawn_from_it() {
    let mut d = drill(Color::Black, 7);
    assert_eq!(d.id().kind, "repertoire");
    assert_eq!(d.id().key, position_key(&Position::startpos().to_sfen()));
    let j = judged(d.try_move(mv("2g2f")));
    assert_eq!(j.verdict, Verdict::Right, "any of the repertoire's moves");
    assert_eq!(j.reply, vec![mv("8c8d")]);
    assert!(
        j.finished,
        "the repertoire gives sente nothing after △８四歩"
    );
    let o = j.outcome.unwrap();
    assert!(o.correct);
    assert_eq!(o.id.key, position_key(&Position::startpos().to_sfen()));
    assert!(
        d.report().iter().any(|l| l == "手順終了: 定跡はここまで"),
        "{:?}",
        d.report()
    );
}

#[test]
fn a_miss_shows_the_repertoire_s_moves_and_its_most_played_goes_on_the_board() {
    let mut d = drill(Color::Black, 1);
    let j = judged(d.try_move(mv("5i5h")));
    assert_eq!(j.verdict, Verdict::Wrong { allows: vec![] });
    assert!(!j.outcome.unwrap().correct);
    assert_eq!(d.played()[0], mv("7g7f"));
    assert_eq!(d.tried_text().unwrap(), "▲５八玉");
    assert_eq!(d.report()[0], "1手目: 定跡の手は ▲７六歩 (10), ▲２六歩 (1)");
    assert!(!d.finished());
    assert_eq!(d.to_move(), Color::Black);
}

#[test]
fn the_opponent_s_replies_are_weighted_by_count_and_fixed_by_the_seed() {
    let mut by = HashMap::new();
    for seed in 0..400 {
        let mut d = drill(Color::Black, seed);
        let j = judged(d.try_move(mv("7g7f")));
        *by.entry(j.reply[0]).or_insert(0) += 1;
        let mut again = drill(Color::Black, seed);
        assert_eq!(
            judged(again.try_move(mv("7g7f"))).reply,
            j.reply,
            "seed {seed}"
        );
    }
    let (common, rare) = (by[&mv("3c3d")], by[&mv("8c8d")]);
    assert_eq!(common + rare, 400);
    // 3 to 1: about 300 and 100.
    assert!((250..350).contains(&common), "{by:?}");
}

#[test]
fn gote_s_line_starts_with_sente_s_move_drawn() {
    let d = drill(Color::White, 3);
    assert_eq!(d.solver(), Color::White);
    assert_eq!(d.played().len(), 1);
    assert_eq!(d.to_move(), Color::White);
    let e = RepertoireDrill::new(
        book(),
        PathBuf::from("b"),
        "b",
        Color::White,
        after(&["7g7f", "3c3d", "2g2f"]),
        0,
    )
    .unwrap_err();
    assert!(e.contains("gives gote no move"), "{e}");
}

#[test]
fn a_record_s_variations_are_lines_of_weight_one_and_giving_up_ends_the_line() {
    let mut r = Record::new(Initial {
        position: Position::startpos(),
        handicap: None,
    });
    let mut pos = Position::startpos();
    let a = r.push_child(
        r.root(),
        RecordStep::Move(pos.clone().play_move(mv("7g7f")).unwrap()),
    );
    r.push_child(
        r.root(),
        RecordStep::Move(pos.clone().play_move(mv("2g2f")).unwrap()),
    );
    pos.play(mv("7g7f")).unwrap();
    r.push_child(
        a,
        RecordStep::Move(pos.clone().play_move(mv("3c3d")).unwrap()),
    );
    let lines = TreeLines(Tree::from_record(&r));
    assert_eq!(
        lines.moves(&Position::startpos()).unwrap(),
        vec![(mv("7g7f"), 1), (mv("2g2f"), 1)]
    );
    let mut d = RepertoireDrill::new(
        Arc::new(lines),
        PathBuf::from("rep.kif"),
        "rep.kif",
        Color::Black,
        Position::startpos(),
        0,
    )
    .unwrap();
    let j = d.give_up();
    assert!(j.finished);
    assert!(!j.outcome.unwrap().correct);
    assert!(d.give_up().outcome.is_none());
    assert_eq!(d.report()[0], "1手目: 定跡の手は ▲７六歩 (1), ▲２六歩 (1)");
}
