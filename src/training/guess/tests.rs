//! Guess-the-move on a small analysed record (kifview's comment format, with `#候補N=` lines).

use super::*;
use crate::core::notation;
use crate::training::drill::tests::{judged, mv};

/// Four moves, then 投了; the start and move 2's positions analysed.
pub(crate) const ANALYSED: &str =
    include_str!("../../../tests/fixtures/training/guess-analysed.kif");

fn record(text: &str) -> Record {
    notation::load(text.as_bytes(), Some(Path::new("g.kif")))
        .records
        .remove(0)
        .record
}

fn drill(ask: Ask) -> Guess {
    Guess::new(
        Path::new("/games/g.kif"),
        "/games/g.kif",
        1,
        &record(ANALYSED),
        &ask,
    )
    .unwrap()
}

#[test]
fn the_analysis_is_read_from_the_comments() {
    let r = record(ANALYSED);
    let pos = r.initial.position.clone();
    let a = analysis_of(&pos, &r.node(r.root()).comment);
    assert_eq!(a.eval, Some(Score::Cp(50)));
    assert_eq!(a.best, Some(mv("2g2f")));
    assert_eq!(
        a.others,
        vec![
            (mv("7g7f"), Score::Cp(40)),
            (mv("5i5h"), Score::Cp(-120)),
            (mv("1g1f"), Score::Cp(-400))
        ]
    );
    assert_eq!(
        score_text("詰 5"),
        Some(Score::Mate {
            plies: Some(5),
            sente_wins: true
        })
    );
    assert_eq!(
        score_text("被詰"),
        Some(Score::Mate {
            plies: None,
            sente_wins: false
        })
    );
}

#[test]
fn sente_guesses_the_game_move_and_gote_s_replies_are_played() {
    let mut d = drill(Ask::Side(Color::Black));
    assert_eq!(d.keys(), vec!["1:0", "1:2"]);
    assert_eq!(d.id().key, "1:0");
    assert_eq!(d.id().kind, "guess");
    let j = judged(d.try_move(mv("7g7f")));
    assert_eq!(j.verdict, Verdict::Right);
    assert_eq!(j.reply, vec![mv("3c3d")], "gote's move is played at once");
    assert!(!j.finished);
    let o = j.outcome.unwrap();
    assert_eq!(
        (o.id.key.as_str(), o.correct, o.answer.as_str()),
        ("1:0", true, "7g7f")
    );
    assert_eq!(d.played(), &[mv("7g7f"), mv("3c3d")]);
    assert_eq!(d.id().key, "1:2");
    assert_eq!(d.tried_text().unwrap(), "▲７六歩");
    let j = judged(d.try_move(mv("2g2f")));
    assert_eq!(j.verdict, Verdict::Right);
    assert!(j.finished, "the record's last asked move was guessed");
    assert_eq!(d.counts(), [2, 0, 0, 0]);
    assert!(
        d.report().iter().any(|l| l.starts_with("一致 2/2 (100 %)")),
        "{:?}",
        d.report()
    );
}

#[test]
fn the_analysis_s_best_a_near_miss_and_a_miss_are_told_apart_and_the_game_goes_on() {
    // The analysis's best (not the game's move): another good move, loss 0.
    let mut d = drill(Ask::Side(Color::Black));
    let j = judged(d.try_move(mv("2g2f")));
    assert_eq!(j.verdict, Verdict::AnotherGood);
    assert!(j.outcome.unwrap().correct);
    assert_eq!(
        d.played(),
        &[mv("7g7f"), mv("3c3d")],
        "the record's move, not the guess, is played"
    );
    assert_eq!(d.results()[0].hit, Hit::Best);
    assert_eq!(d.results()[0].loss, Some(0.0));
    let r = d.report();
    assert_eq!(r[0], "1手目: 棋譜の手は ▲７六歩");
    assert_eq!(r[1], "解析: 最善 ▲２六歩");

    // ▲５八玉 at −120 from +50: about 7 % lost: a near miss, written wrong.
    let mut d = drill(Ask::Side(Color::Black));
    let j = judged(d.try_move(mv("5i5h")));
    assert_eq!(j.verdict, Verdict::Wrong { allows: vec![] });
    assert!(!j.outcome.unwrap().correct);
    let g = &d.results()[0];
    assert_eq!(g.hit, Hit::Near);
    let loss = g.loss.unwrap();
    assert!((7.0..7.2).contains(&loss), "{loss}");
    assert_eq!(d.report()[1], "解析: 最善 ▲２六歩, あなたの手 −7.1 %");

    // ▲１六歩 at −400: a miss with its loss; ▲４八銀, not analysed: a miss, loss unknown.
    let mut d = drill(Ask::Side(Color::Black));
    judged(d.try_move(mv("1g1f")));
    assert_eq!(d.results()[0].hit, Hit::Miss);
    assert!(d.results()[0].loss.unwrap() > NEAR_LOSS);
    let mut d = drill(Ask::Side(Color::Black));
    judged(d.try_move(mv("3i4h")));
    assert_eq!((d.results()[0].hit, d.results()[0].loss), (Hit::Miss, None));
    // Then the game's move: the summary counts one of each.
    judged(d.try_move(mv("2g2f")));
    assert!(d.finished());
    assert_eq!(d.counts(), [1, 0, 0, 1]);
}

#[test]
fn the_summary_lists_near_misses_and_the_average_loss() {
    let mut d = drill(Ask::Side(Color::Black));
    judged(d.try_move(mv("5i5h")));
    judged(d.try_move(mv("2g2f")));
    let r = d.report();
    assert!(r.iter().any(|l| l == "棋譜並べ終了: 成績"), "{r:?}");
    assert!(
        r.iter()
            .any(|l| l == "一致 1/2 (50 %) · 最善・好手 0 · 惜しい 1 · 外れ 0"),
        "{r:?}"
    );
    assert!(
        r.iter()
            .any(|l| l.starts_with("惜しい: 1手目 ▲５八玉 (−7.1 %)")),
        "{r:?}"
    );
    assert!(r.iter().any(|l| l.starts_with("平均損失")), "{r:?}");
}

#[test]
fn gote_starts_after_sente_s_move_and_both_sides_ask_every_move() {
    let mut d = drill(Ask::Side(Color::White));
    assert_eq!(d.solver(), Color::White);
    assert_eq!(d.played(), &[mv("7g7f")]);
    assert_eq!(d.keys(), vec!["1:1", "1:3"]);
    let j = judged(d.try_move(mv("8c8d")));
    assert!(matches!(j.verdict, Verdict::Wrong { .. }));
    assert_eq!(j.reply, vec![mv("2g2f")]);
    assert_eq!(d.played(), &[mv("7g7f"), mv("3c3d"), mv("2g2f")]);

    let mut d = drill(Ask::Both);
    assert_eq!(d.keys(), vec!["1:0", "1:1", "1:2", "1:3"]);
    let j = judged(d.try_move(mv("7g7f")));
    assert!(j.reply.is_empty());
    assert_eq!(d.to_move(), Color::White);
}

#[test]
fn due_plies_only_are_asked_and_giving_up_ends_the_replay_written_wrong() {
    let mut d = drill(Ask::Plies([2].into_iter().collect()));
    assert_eq!(d.keys(), vec!["1:2"]);
    assert_eq!(d.played().len(), 2);
    assert_eq!(d.source().unwrap().ply, 2);
    let j = d.give_up();
    assert!(j.finished);
    let o = j.outcome.unwrap();
    assert_eq!((o.id.key.as_str(), o.correct), ("1:2", false));
    assert_eq!(d.tried_text(), None, "given up: nothing tried");
    assert!(
        d.report()[0].contains("棋譜の手は ▲２六歩"),
        "{:?}",
        d.report()
    );
    assert!(d.give_up().outcome.is_none(), "written once");
    assert_eq!(d.answer_line().len(), 4);
}

#[test]
fn a_record_with_nothing_to_guess_or_an_illegal_move_is_said() {
    let e = Guess::new(
        Path::new("x.kif"),
        "x.kif",
        1,
        &record("手合割：平手\n"),
        &Ask::Both,
    )
    .unwrap_err();
    assert!(e.contains("no move to guess"), "{e}");
    let mut d = drill(Ask::Side(Color::Black));
    let j = judged(d.try_move(mv("5e5d")));
    assert!(j.outcome.is_none());
    assert!(j.note.unwrap().contains("指せません"));
    assert!(d.results().is_empty());
}
