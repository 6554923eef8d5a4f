//! The tsume drill on real problems (the Japan Shogi Association's daily tsume, in the
//! corpus) with scripted mate-engine answers.

use super::*;
use crate::core::notation;
use crate::engine::pv::CheckedPv;

/// A corpus file (`../shared/corpus/real/…`); None (said) when the corpus is absent, which
/// fails under `KIFVIEW_REQUIRE_CORPUS=1` (CI).
fn corpus(rel: &str) -> Option<PathBuf> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = ["../shared/corpus/real", "../../shared/corpus/real"]
        .iter()
        .map(|d| base.join(d).join(rel))
        .find(|p| p.is_file());
    if found.is_none() {
        assert!(
            std::env::var("KIFVIEW_REQUIRE_CORPUS").as_deref() != Ok("1"),
            "KIFVIEW_REQUIRE_CORPUS=1 but corpus file {rel} is missing"
        );
        eprintln!("skipped: corpus file {rel} not found");
    }
    found
}

const DAILY: &str = "shogi-kifu-converter/data/tests/kif/";

fn tsume(name: &str) -> Option<Tsume> {
    let path = corpus(&format!("{DAILY}{name}"))?;
    let bytes = std::fs::read(&path).unwrap();
    let r = notation::load(&bytes, Some(&path)).records.remove(0).record;
    Some(Tsume::new(&path, 1, &r).unwrap())
}

fn mv(u: &str) -> Move {
    Move::from_usi(u).unwrap()
}

fn judged(s: Step) -> Judgement {
    match s {
        Step::Judged(j) => j,
        Step::Ask(r) => panic!("asked the engine: {r:?}"),
    }
}

fn asked(s: Step) -> EngineRequest {
    match s {
        Step::Ask(r) => r,
        Step::Judged(j) => panic!("judged without the engine: {j:?}"),
    }
}

/// The position a request searches.
fn searched(r: &EngineRequest) -> Position {
    let mut p = r.search.root.clone();
    for &m in &r.search.moves {
        p.play(m).unwrap();
    }
    p
}

fn mate(moves: Vec<Move>) -> EngineAnswer {
    EngineAnswer {
        end: Ok(SearchEnd::Mate(CheckedPv { moves, cut: None })),
        lines: Vec::new(),
    }
}

fn no_mate() -> EngineAnswer {
    EngineAnswer {
        end: Ok(SearchEnd::NoMate),
        lines: Vec::new(),
    }
}

/// A mate-in-one engine: the first move that mates, else 不詰.
fn mate_in_one(r: &EngineRequest) -> EngineAnswer {
    let pos = searched(r);
    pos.legal_moves()
        .into_iter()
        .find(|&m| {
            let mut p = pos.clone();
            p.play(m).is_ok() && p.is_checkmate()
        })
        .map_or_else(no_mate, |m| mate(vec![m]))
}

#[test]
fn the_records_answer_played_through_is_right_with_the_records_defences() {
    let Some(mut t) = tsume("everyday_20211107.kifu") else {
        return;
    };
    assert_eq!(t.length(), 11);
    assert_eq!(t.tags(), [super::super::tags::length(11)]);
    assert!(t.title().starts_with("詰将棋 11手 everyday_20211107.kifu"));
    assert_eq!(t.solver(), Color::Black);
    let answer = t.answer_line();
    for i in (0..answer.len()).step_by(2) {
        let j = judged(t.try_move(answer[i]));
        assert_eq!(j.verdict, Verdict::Right, "move {}", i + 1);
        let last = i + 1 == answer.len();
        assert_eq!(j.finished, last);
        assert_eq!(
            j.reply,
            answer.get(i + 1).copied().into_iter().collect::<Vec<_>>()
        );
        if last {
            let o = j.outcome.unwrap();
            assert!(o.correct);
            assert_eq!(o.id.kind, "tsume");
            assert_eq!(o.id.key, "1:0");
            assert_eq!(o.answer, "B*1c N*2c B*2a 2c1a+ 3c1c+ 2a1b+");
        } else {
            assert!(j.outcome.is_none());
        }
    }
    assert!(t.position().is_checkmate());
    assert_eq!(t.played(), answer.as_slice());
}

#[test]
fn another_mate_the_engine_confirms_is_accepted_as_yozume_and_the_longest_defence_played() {
    // 2022-06-04: the record's 7th move is ４二角成; its variation ４二角 (not promoting) mates
    // too.
    let Some(mut t) = tsume("everyday_20220604.kifu") else {
        return;
    };
    let answer = t.answer_line();
    for i in [0, 2, 4] {
        assert_eq!(judged(t.try_move(answer[i])).verdict, Verdict::Right);
    }
    let unpromoted = mv("3a4b");
    assert_eq!(answer[6], mv("3a4b+"));
    let mut req = asked(t.try_move(unpromoted));
    // One mate search per defence, each after the move and that defence, mate limit given.
    let mut defences = Vec::new();
    let step = loop {
        assert!(matches!(req.search.limit, Limit::Mate(Some(_))));
        assert_eq!(req.search.moves.len(), 8);
        assert_eq!(req.search.moves[6], unpromoted);
        defences.push(req.search.moves[7]);
        match t.engine_answer(mate_in_one(&req)) {
            Step::Ask(r) => req = r,
            s => break s,
        }
    };
    let mut after = t.start().clone();
    for &m in &answer[..6] {
        after.play(m).unwrap();
    }
    after.play(unpromoted).unwrap();
    assert_eq!(defences, after.legal_moves());
    let j = judged(step);
    assert_eq!(j.verdict, Verdict::AnotherGood);
    assert!(
        j.note.as_deref().unwrap().starts_with("余詰"),
        "{:?}",
        j.note
    );
    assert_eq!(j.reply.len(), 1);
    assert!(!j.finished && j.outcome.is_none());
    // The mate after the defence played ends it: correct, noted 余詰.
    let finish = mate_in_one(&EngineRequest {
        search: SearchRequest {
            root: t.start().clone(),
            moves: t.played().to_vec(),
            limit: Limit::Infinite,
        },
        multipv: 1,
    });
    let Ok(SearchEnd::Mate(pv)) = finish.end else {
        panic!("no mate after the defence")
    };
    let j = judged(t.try_move(pv.moves[0]));
    assert_eq!(j.verdict, Verdict::AnotherGood);
    assert!(j.finished && j.outcome.unwrap().correct);
}

#[test]
fn a_check_with_an_escape_is_wrong_and_shows_the_escape() {
    // 2021-11-07: the commentary's ▲１一角 is met by △１二玉, which escapes.
    let Some(mut t) = tsume("everyday_20211107.kifu") else {
        return;
    };
    let mut req = asked(t.try_move(mv("B*1a")));
    let escape = mv("2b1b");
    let step = loop {
        let defence = *req.search.moves.last().unwrap();
        let answer = if defence == escape {
            no_mate()
        } else {
            // The other defences are mated (a line of 3, within the 9 plies left).
            mate(vec![mv("3c2c+"); 3])
        };
        match t.engine_answer(answer) {
            Step::Ask(r) => req = r,
            s => break s,
        }
    };
    let j = judged(step);
    assert_eq!(
        j.verdict,
        Verdict::Wrong {
            allows: vec![escape]
        }
    );
    assert_eq!(j.note.as_deref(), Some("△１二玉 で逃れ (不詰)"));
    assert!(j.finished);
    assert!(!j.outcome.unwrap().correct);
    assert_eq!(t.answer_line()[0], mv("B*1c"));
    // Over: nothing more is judged.
    assert_eq!(
        judged(t.try_move(mv("3c2c+"))).note.as_deref(),
        Some("この問題は終わりました")
    );
}

#[test]
fn a_move_that_is_not_a_check_is_wrong_at_once_and_the_engine_says_what_it_allows() {
    let Some(mut t) = tsume("everyday_20211107.kifu") else {
        return;
    };
    let j = judged(t.try_move(mv("3c4c")));
    assert_eq!(j.verdict, Verdict::Wrong { allows: vec![] });
    assert_eq!(j.note.as_deref(), Some("王手ではありません"));
    assert!(j.finished && !j.outcome.unwrap().correct);
    let req = j.follow_up.unwrap();
    assert_eq!(req.search.moves, [mv("3c4c")]);
    let refined = judged(t.engine_answer(EngineAnswer {
        end: Ok(SearchEnd::BestMove {
            mv: mv("2b3c"),
            ponder: None,
        }),
        lines: vec![vec![mv("2b3c")]],
    }));
    assert_eq!(
        refined.verdict,
        Verdict::Wrong {
            allows: vec![mv("2b3c")]
        }
    );
    assert!(refined.outcome.is_none(), "written once, with the verdict");
}

#[test]
fn without_a_mate_engine_a_move_off_the_record_is_wrong_and_says_why() {
    let Some(mut t) = tsume("everyday_20211107.kifu") else {
        return;
    };
    asked(t.try_move(mv("B*1a")));
    let j = judged(t.engine_answer(EngineAnswer::unavailable("no engine configured")));
    assert!(matches!(j.verdict, Verdict::Wrong { .. }));
    assert_eq!(
        j.note.as_deref(),
        Some("棋譜の手ではなく、詰将棋エンジンで詰みを確かめられません: no engine configured")
    );
}

#[test]
fn a_mate_sooner_than_the_answer_is_accepted_as_yozume() {
    // The record's answer takes 3 plies; ▲５二金 mates at once.
    let text = "position sfen 4k4/9/4P4/9/9/9/9/9/9 b 2G 1 moves G*4b 5a4b G*4c";
    let r = notation::load(text.as_bytes(), None)
        .records
        .remove(0)
        .record;
    assert!(is_tsume(&r));
    let mut t = Tsume::new(Path::new("made.usi"), 1, &r).unwrap();
    let j = judged(t.try_move(mv("G*5b")));
    assert_eq!(j.verdict, Verdict::AnotherGood);
    assert_eq!(j.note.as_deref(), Some("余詰: 1手で詰み (答えは3手詰)"));
    assert!(j.finished && j.outcome.unwrap().correct);
}

#[test]
fn a_folder_gives_its_tsume_and_names_the_records_that_are_not() {
    let Some(one) = corpus(&format!("{DAILY}everyday_20211107.kifu")) else {
        return;
    };
    let (drills, skipped) = load(one.parent().unwrap());
    let names: Vec<String> = drills.iter().map(|d| d.title()).collect();
    for want in [
        "詰将棋 11手 everyday_20211107.kifu",
        "詰将棋 9手 everyday_20220604.kifu",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} not in {names:?}");
    }
    // The folder's games are named as not tsume.
    assert!(
        skipped
            .iter()
            .any(|s| s.contains("oui202106290101") && s.contains("not a tsume")),
        "{skipped:?}"
    );
    // A game is not a tsume.
    let game = notation::load(b"position startpos moves 7g7f", None)
        .records
        .remove(0)
        .record;
    assert!(!is_tsume(&game));
}

#[test]
fn splits_keep_each_moves_time() {
    let mut s = Splits::default();
    s.mark(Duration::from_millis(4_200));
    s.mark(Duration::from_millis(5_200));
    s.mark(Duration::from_millis(17_500));
    assert_eq!(s.laps(), [4_200, 1_000, 12_300].map(Duration::from_millis));
    assert_eq!(s.text(), "1手 4.2 s · 3手 1.0 s · 5手 12.3 s (計 17.5 s)");
}
