//! ShogiHome's tests of detection and adoption (`src/tests/common/nextmove/detect.spec.ts`),
//! ported: the same record, the same numbers.

use super::*;
use crate::core::notation;

// With coefficient 600: 800 -> 79.1 %, -200 -> 41.7 %, 500 -> 69.7 %. Move 3 (▲2六歩) takes
// sente from 79.1 % to 41.7 % (37.4 points); move 4 (△8四歩) takes gote from 58.3 % to
// 30.3 % (28.0 points); move 2 (△3四歩) leaves gote at 20.9 %.
const KIF: &str = include_str!("../../../tests/fixtures/training/detect.kif");

fn record(text: &str) -> Record {
    let l = notation::load(text.as_bytes(), Some(std::path::Path::new("t.kif")));
    l.records.into_iter().next().unwrap().record
}

fn criteria() -> Criteria {
    Criteria {
        min_win_rate: 20.0,
        min_ply: 0,
        max_ply: 1000,
        ..Criteria::default()
    }
}

fn found(c: &Criteria) -> Vec<(u32, i64, i64)> {
    detect_blunders(&record(KIF), c)
        .into_iter()
        .map(|b| (b.ply, b.score_before, b.score_after))
        .collect()
}

#[test]
fn both_players_blunders_are_found() {
    assert_eq!(found(&criteria()), [(3, 800, -200), (4, -200, 500)]);
}

#[test]
fn the_drop_threshold_leaves_out_smaller_falls() {
    let c = Criteria {
        win_rate_drop: 35.0,
        ..criteria()
    };
    assert_eq!(found(&c), [(3, 800, -200)]);
}

#[test]
fn a_mover_already_below_min_win_rate_is_left_out() {
    let c = Criteria {
        min_win_rate: 65.0,
        ..criteria()
    };
    assert_eq!(found(&c), [(3, 800, -200)]);
}

#[test]
fn the_ply_range_bounds_the_moves() {
    let c = Criteria {
        max_ply: 3,
        ..criteria()
    };
    assert_eq!(found(&c), [(3, 800, -200)]);
    let c = Criteria {
        min_ply: 4,
        ..criteria()
    };
    assert_eq!(found(&c), [(4, -200, 500)]);
}

#[test]
fn players_by_side_and_by_name() {
    let side = |players| Criteria {
        players,
        ..criteria()
    };
    assert_eq!(found(&side(Players::Black)), [(3, 800, -200)]);
    assert_eq!(found(&side(Players::White)), [(4, -200, 500)]);
    assert_eq!(
        found(&side(Players::Named("太郎".into()))),
        [(3, 800, -200)]
    );
    assert_eq!(found(&side(Players::Named("三郎".into()))), []);
}

#[test]
fn a_record_without_comments_has_none() {
    let r = record("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n");
    assert!(detect_blunders(&r, &criteria()).is_empty());
    assert!(!has_analysis(&r));
    assert!(has_analysis(&record(KIF)));
}

fn adoption_criteria() -> Criteria {
    Criteria {
        min_win_rate: 20.0,
        ..Criteria::default()
    }
}

fn cand(usi: &str, score: Option<i64>, mate: Option<i64>) -> Candidate {
    Candidate {
        usi: usi.into(),
        score,
        mate,
        ..Candidate::default()
    }
}

fn cp(usi: &str, score: i64) -> Candidate {
    cand(usi, Some(score), None)
}

fn mate(usi: &str, n: i64) -> Candidate {
    cand(usi, None, Some(n))
}

fn actual(usi: &str, score: Option<i64>, mate: Option<i64>) -> ActualMove {
    ActualMove {
        usi: usi.into(),
        score,
        mate,
        ..ActualMove::default()
    }
}

fn judge(color: Color, cands: &[Candidate], a: ActualMove) -> (bool, Vec<bool>) {
    let r = judge_adoption(color, cands, &a, &adoption_criteria());
    (
        r.adopted,
        r.candidates.iter().map(Candidate::is_accepted).collect(),
    )
}

#[test]
fn adopted_with_the_close_second_accepted() {
    // 300 -> 62.3 %, 270 -> 61.1 %, 100 -> 54.2 %, -100 -> 45.8 %.
    let r = judge(
        Color::Black,
        &[cp("2g2f", 300), cp("7g7f", 270), cp("5g5f", 100)],
        actual("9g9f", Some(-100), None),
    );
    assert_eq!(r, (true, vec![true, true, false]));
}

#[test]
fn adopted_for_white_from_sentes_scores() {
    let r = judge(
        Color::White,
        &[cp("8c8d", -300), cp("3c3d", -100)],
        actual("9c9d", Some(100), None),
    );
    assert_eq!(r, (true, vec![true, false]));
}

#[test]
fn not_adopted_when_the_best_is_the_move_played() {
    let r = judge(
        Color::Black,
        &[cp("2g2f", 300), cp("7g7f", 0)],
        actual("2g2f", Some(300), None),
    );
    assert!(!r.0);
}

#[test]
fn not_adopted_for_a_small_difference() {
    let r = judge(
        Color::Black,
        &[cp("2g2f", 300), cp("7g7f", 250)],
        actual("7g7f", Some(250), None),
    );
    assert!(!r.0);
}

#[test]
fn not_adopted_when_every_candidate_is_accepted() {
    let r = judge(
        Color::Black,
        &[cp("2g2f", 300), cp("7g7f", 280)],
        actual("9g9f", Some(-100), None),
    );
    assert_eq!(r, (false, vec![true, true]));
}

#[test]
fn the_move_played_is_scored_from_the_search_when_it_is_a_candidate() {
    let r = judge(
        Color::Black,
        &[cp("2g2f", 300), cp("7g7f", 250)],
        actual("7g7f", Some(-500), None),
    );
    assert!(!r.0);
}

#[test]
fn a_mate_beats_every_score() {
    let r = judge(
        Color::Black,
        &[mate("G*5b", 3), cp("2g2f", 500)],
        actual("7g7f", Some(300), None),
    );
    assert_eq!(r, (true, vec![true, false]));
}

#[test]
fn being_mated_is_the_worst() {
    let r = judge(
        Color::Black,
        &[cp("2g2f", 100), mate("7g7f", -5)],
        actual("7g7f", None, Some(-5)),
    );
    assert_eq!(r, (true, vec![true, false]));
}

#[test]
fn a_hopeless_position_is_not_adopted() {
    // -1600 -> 6.5 %.
    let r = judge(
        Color::Black,
        &[cp("2g2f", -1600), cp("7g7f", -2500)],
        actual("7g7f", Some(-2500), None),
    );
    assert!(!r.0);
    let r = judge(
        Color::White,
        &[cp("8c8d", 1600), cp("3c3d", 2500)],
        actual("3c3d", Some(2500), None),
    );
    assert!(!r.0);
    let r = judge(
        Color::Black,
        &[mate("2g2f", -9), mate("7g7f", -5)],
        actual("7g7f", None, Some(-5)),
    );
    assert!(!r.0);
}

#[test]
fn a_position_still_recoverable_is_adopted() {
    // -700 -> 23.8 %.
    let r = judge(
        Color::Black,
        &[cp("2g2f", -700), cp("7g7f", -2500)],
        actual("7g7f", Some(-2500), None),
    );
    assert!(r.0);
}

#[test]
fn no_scores_no_problem() {
    let r = judge(
        Color::Black,
        &[cand("2g2f", None, None), cand("7g7f", None, None)],
        actual("9g9f", None, None),
    );
    assert!(!r.0);
}

#[test]
fn shogihomes_settings_checks() {
    assert!(Criteria::default().check().is_ok());
    let bad = [
        Criteria {
            max_ply: 10,
            min_ply: 20,
            ..Criteria::default()
        },
        Criteria {
            multipv: 1,
            ..Criteria::default()
        },
        Criteria {
            acceptable_diff: 15.0,
            ..Criteria::default()
        },
        Criteria {
            win_rate_drop: 0.0,
            ..Criteria::default()
        },
        Criteria {
            max_problems: 0,
            ..Criteria::default()
        },
    ];
    for c in bad {
        assert!(c.check().is_err(), "{c:?}");
    }
}
