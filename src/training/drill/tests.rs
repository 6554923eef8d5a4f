//! The next-move drill's verdicts on a set as ShogiHome writes it.

use super::*;
use crate::engine::pv::CheckedPv;

const SET: &str = r#"{
  "format": "shogihome-next-move",
  "version": 1,
  "problems": [
    {
      "sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
      "candidates": [
        { "usi": "2g2f", "score": 50, "accepted": true, "pv": ["2g2f", "8c8d", "2f2e"] },
        { "usi": "7g7f", "score": 45, "accepted": true, "pv": ["7g7f", "3c3d"] },
        { "usi": "5i5h", "score": -300, "accepted": false, "pv": ["5i5h", "3c3d"] }
      ],
      "actualMove": { "usi": "9g9f" },
      "source": { "path": "/games/a.kif", "ply": 1 }
    },
    {
      "sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
      "candidates": [ { "usi": "8c8d", "score": 0 } ],
      "actualMove": { "usi": "8c8d" }
    }
  ]
}"#;

fn drills() -> Vec<NextMove> {
    let set = ProblemSet::from_json(SET).unwrap();
    NextMove::from_set("/sets/s.json", &set).unwrap()
}

/// A move from USI text (the drills' tests).
pub(crate) fn mv(u: &str) -> Move {
    Move::from_usi(u).unwrap()
}

/// The judgement of a step that must not ask the engine (the drills' tests).
pub(crate) fn judged(s: Step) -> Judgement {
    match s {
        Step::Judged(j) => j,
        Step::Ask(r) => panic!("asked the engine: {r:?}"),
    }
}

#[test]
fn the_best_candidate_is_right_and_is_recorded_correct_with_the_move() {
    let mut d = drills().remove(0);
    assert_eq!(d.title(), "次の一手 1/2");
    assert_eq!(d.solver(), Color::Black);
    let j = judged(d.try_move(mv("2g2f")));
    assert_eq!(j.verdict, Verdict::Right);
    assert!(j.finished && d.finished());
    let o = j.outcome.unwrap();
    assert!(o.correct);
    assert_eq!(o.answer, "2g2f");
    assert_eq!(
        o.id,
        ProblemId {
            source: "/sets/s.json".into(),
            kind: "next-move",
            key: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -".into(),
        }
    );
    assert_eq!(d.played(), &[mv("2g2f")]);
    assert_eq!(d.to_move(), Color::White);
    assert_eq!(d.answer_line(), vec![mv("2g2f"), mv("8c8d"), mv("2f2e")]);
}

#[test]
fn another_accepted_candidate_is_another_good_move_and_counts_correct() {
    let mut d = drills().remove(0);
    let j = judged(d.try_move(mv("7g7f")));
    assert_eq!(j.verdict, Verdict::AnotherGood);
    assert!(j.outcome.unwrap().correct);
}

#[test]
fn a_listed_wrong_move_shows_the_sets_line_and_asks_no_engine() {
    let mut d = drills().remove(0);
    let j = judged(d.try_move(mv("5i5h")));
    assert_eq!(
        j.verdict,
        Verdict::Wrong {
            allows: vec![mv("3c3d")]
        }
    );
    assert!(j.follow_up.is_none());
    assert!(!j.outcome.unwrap().correct);
}

#[test]
fn an_unlisted_wrong_move_asks_the_engine_for_what_it_allows_after_the_verdict() {
    let mut d = drills().remove(0);
    let j = judged(d.try_move(mv("1g1f")));
    assert_eq!(j.verdict, Verdict::Wrong { allows: vec![] });
    let o = j.outcome.unwrap();
    assert!(!o.correct);
    assert_eq!(o.answer, "1g1f");
    let r = j.follow_up.expect("a refutation is asked for");
    assert_eq!(r.search.moves, vec![mv("1g1f")]);
    assert_eq!(r.multipv, 1);
    let line = vec![mv("8c8d"), mv("2g2f")];
    let j = judged(d.engine_answer(EngineAnswer {
        end: Ok(SearchEnd::BestMove {
            mv: mv("8c8d"),
            ponder: None,
        }),
        lines: vec![line.clone()],
    }));
    assert_eq!(j.verdict, Verdict::Wrong { allows: line });
    assert!(j.outcome.is_none(), "the attempt is written once");
    // With no engine the verdict stands and says why the line is missing.
    let mut d = drills().remove(0);
    judged(d.try_move(mv("1g1f")));
    let j = judged(d.engine_answer(EngineAnswer::unavailable("no engine configured")));
    assert_eq!(j.verdict, Verdict::Wrong { allows: vec![] });
    assert!(j.note.unwrap().contains("no engine configured"));
}

#[test]
fn a_mate_answer_gives_its_moves_as_the_line() {
    let pv = CheckedPv {
        moves: vec![mv("8c8d")],
        ..Default::default()
    };
    let a = EngineAnswer {
        end: Ok(SearchEnd::Mate(pv)),
        lines: vec![],
    };
    assert_eq!(a.best_line(), vec![mv("8c8d")]);
}

#[test]
fn giving_up_is_wrong_once_and_the_source_opens_before_the_move() {
    let mut d = drills().remove(0);
    let j = d.give_up();
    assert!(!j.outcome.unwrap().correct);
    assert!(d.give_up().outcome.is_none());
    assert_eq!(
        d.source(),
        Some(SourceRef {
            path: "/games/a.kif".into(),
            record: 1,
            ply: 0
        })
    );
    let second = drills().remove(1);
    assert_eq!(second.solver(), Color::White);
    assert_eq!(second.source(), None);
    assert_eq!(second.answer_line(), vec![mv("8c8d")]);
}

#[test]
fn a_move_after_the_end_is_not_judged_again() {
    let mut d = drills().remove(0);
    judged(d.try_move(mv("2g2f")));
    let j = judged(d.try_move(mv("8c8d")));
    assert!(j.outcome.is_none());
}
