//! ShogiHome's own tests of the format (`src/tests/common/nextmove/collection.spec.ts`),
//! ported: the same fixtures, the same refusals.

use super::*;

/// ShogiHome's `validCollection`, as `serializeNextMoveCollection` writes it.
const VALID: &str = r#"{
  "format": "shogihome-next-move",
  "version": 1,
  "metadata": {
    "title": "テスト問題集",
    "createdAt": "2026-07-11T10:30:00+09:00",
    "engine": {
      "name": "Test Engine",
      "multiPV": 3,
      "maxSecondsPerPosition": 10
    }
  },
  "problems": [
    {
      "sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
      "candidates": [
        {
          "usi": "2g2f",
          "score": 50,
          "depth": 20,
          "accepted": true,
          "pv": [
            "2g2f",
            "8c8d"
          ]
        },
        {
          "usi": "7g7f",
          "score": 30,
          "depth": 20,
          "accepted": false,
          "pv": [
            "7g7f",
            "3c3d"
          ]
        }
      ],
      "actualMove": {
        "usi": "9g9f",
        "score": -100,
        "scoreSource": "research"
      },
      "analysis": {
        "scoreBeforeMove": 40,
        "scoreAfterMove": -120
      },
      "source": {
        "path": "/path/to/file.kif",
        "ply": 1,
        "blackPlayer": "先手",
        "whitePlayer": "後手"
      }
    }
  ]
}
"#;

/// ShogiHome's `problemWithPreviousMove`.
fn with_previous_move() -> Value {
    serde_json::json!({
        "sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1",
        "candidates": [{ "usi": "8c8d", "score": -20, "accepted": true }],
        "actualMove": { "usi": "9c9d", "score": 100 },
        "previousMove": {
            "usi": "7g7f",
            "sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        },
    })
}

fn valid() -> Value {
    serde_json::from_str(VALID).unwrap()
}

fn with_problem(problem: Value) -> String {
    let mut v = valid();
    v["problems"] = Value::Array(vec![problem]);
    v.to_string()
}

fn refused(json: &str) -> String {
    ProblemSet::from_json(json).unwrap_err().0
}

#[test]
fn normalize_sfen_sets_the_move_number_to_1() {
    assert_eq!(
        normalize_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 42"),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
}

#[test]
fn position_key_leaves_out_the_move_number() {
    let k1 = position_key("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 42");
    let k2 = position_key("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert_eq!(k1, k2);
    assert_eq!(
        k1,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"
    );
}

#[test]
fn a_set_shogihome_wrote_is_read_and_written_back_byte_for_byte() {
    let set = ProblemSet::from_json(VALID).unwrap();
    assert_eq!(set.problems.len(), 1);
    let p = &set.problems[0];
    assert_eq!(p.candidates[0].usi, "2g2f");
    assert!(p.candidates[0].is_accepted());
    assert!(!p.candidates[1].is_accepted());
    assert_eq!(p.actual_move.score, Some(-100));
    assert_eq!(p.actual_move.score_source.as_deref(), Some("research"));
    let m = set.metadata.as_ref().unwrap();
    assert_eq!(
        m.engine.as_ref().unwrap().max_seconds_per_position,
        Some(Num(10.0))
    );
    assert_eq!(set.to_json(), VALID);
}

#[test]
fn not_json_is_refused() {
    assert!(refused("{invalid").starts_with("not JSON"));
}

#[test]
fn another_format_is_refused() {
    assert!(refused(r#"{"format":"unknown"}"#).contains("not a next-move problem set"));
}

#[test]
fn a_later_version_is_refused() {
    let mut v = valid();
    v["version"] = 2.into();
    assert_eq!(
        refused(&v.to_string()),
        "unsupported version: 2 (kifview reads version 1)"
    );
}

#[test]
fn an_invalid_sfen_is_refused() {
    let mut p = valid()["problems"][0].clone();
    p["sfen"] = "invalid sfen".into();
    let e = refused(&with_problem(p));
    assert!(e.starts_with("problems[0]: invalid SFEN"), "{e}");
}

#[test]
fn an_illegal_candidate_is_refused() {
    // The rook cannot reach 2f: the pawn on 2g is in the way.
    let mut p = valid()["problems"][0].clone();
    p["candidates"] = serde_json::json!([{ "usi": "2h2f" }]);
    let e = refused(&with_problem(p));
    assert!(
        e.starts_with("problems[0]: candidates[0]: 2h2f is not legal"),
        "{e}"
    );
}

#[test]
fn an_invalid_actual_move_is_refused() {
    let mut p = valid()["problems"][0].clone();
    p["actualMove"] = serde_json::json!({ "usi": "xxxx" });
    let e = refused(&with_problem(p));
    assert!(
        e.starts_with("problems[0]: actualMove: not a USI move"),
        "{e}"
    );
}

#[test]
fn empty_candidates_are_refused() {
    let mut p = valid()["problems"][0].clone();
    p["candidates"] = serde_json::json!([]);
    assert_eq!(refused(&with_problem(p)), "problems[0]: no candidates");
}

#[test]
fn a_null_problem_is_refused() {
    assert_eq!(
        refused(&with_problem(Value::Null)),
        "problems[0]: not a problem (an object)"
    );
}

#[test]
fn a_null_candidate_is_refused() {
    let mut p = valid()["problems"][0].clone();
    p["candidates"] = serde_json::json!([null]);
    let e = refused(&with_problem(p));
    assert!(e.starts_with("problems[0]: invalid type: null"), "{e}");
}

#[test]
fn a_previous_move_is_read() {
    let set = ProblemSet::from_json(&with_problem(with_previous_move())).unwrap();
    let prev = set.problems[0].previous_move.as_ref().unwrap();
    assert_eq!(prev.usi, "7g7f");
    assert_eq!(
        prev.sfen,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
}

#[test]
fn an_invalid_previous_move_is_refused() {
    let mut p = with_previous_move();
    p["previousMove"]["usi"] = "xxxx".into();
    let e = refused(&with_problem(p));
    assert!(
        e.starts_with("problems[0]: previousMove: not a USI move"),
        "{e}"
    );
}

#[test]
fn a_previous_move_that_leads_elsewhere_is_refused() {
    let mut p = with_previous_move();
    p["previousMove"]["usi"] = "2g2f".into();
    let e = refused(&with_problem(p));
    assert!(e.contains("does not lead to the problem's position"), "{e}");
}

#[test]
fn unknown_fields_are_kept_on_a_rewrite() {
    let mut v = valid();
    v["unknownField"] = "value".into();
    v["problems"][0]["unknownField"] = 123.into();
    v["problems"][0]["candidates"][1]["note"] = "mine".into();
    v["metadata"]["criteria"] = serde_json::json!({ "minWinRate": 40, "future": [1, 2] });
    let set = ProblemSet::from_json(&v.to_string()).unwrap();
    assert_eq!(set.problems.len(), 1);
    let back: Value = serde_json::from_str(&set.to_json()).unwrap();
    assert_eq!(back, v);
}

#[test]
fn a_fractional_percentage_is_kept_and_a_whole_one_written_whole() {
    let mut v = valid();
    v["metadata"]["criteria"] =
        serde_json::json!({ "minWinRate": 40, "adoptionWinRateDiff": 12.5 });
    let set = ProblemSet::from_json(&v.to_string()).unwrap();
    let text = set.to_json();
    assert!(text.contains("\"minWinRate\": 40\n"), "{text}");
    assert!(text.contains("\"adoptionWinRateDiff\": 12.5"), "{text}");
}

/// The sample of ShogiHome's spec (`specs/next-move-problem-format.md`, 5. サンプル), verbatim.
const SPEC_SAMPLE: &str = r#"{
  "format": "shogihome-next-move",
  "version": 1,
  "metadata": {
    "title": "2026年6月 対局分",
    "createdAt": "2026-07-11T10:30:00+09:00",
    "appVersion": "1.24.0",
    "engine": {
      "name": "Example Engine NNUE",
      "multiPV": 3,
      "maxSecondsPerPosition": 10
    },
    "criteria": {
      "winRateDropThreshold": 20,
      "adoptionWinRateDiff": 15,
      "acceptableWinRateDiff": 5,
      "minWinRate": 20,
      "coefficientInSigmoid": 600,
      "minPly": 20,
      "maxPly": 120
    }
  },
  "problems": [
    {
      "sfen": "ln1g5/1ks4+R1/1pp1p4/p2p1p2p/9/P1P1P3P/1P1P1PP2/1BK1G4/LN5NL b RB2GS2sn2l3p 1",
      "candidates": [
        {
          "usi": "S*8c",
          "score": 850,
          "depth": 24,
          "accepted": true,
          "pv": ["S*8c", "7b8c", "B*7a"]
        },
        {
          "usi": "B*9b",
          "score": 620,
          "depth": 24,
          "accepted": false,
          "pv": ["B*9b", "7b6b"]
        }
      ],
      "actualMove": {
        "usi": "2b2a+",
        "score": 120,
        "scoreSource": "research"
      },
      "previousMove": {
        "usi": "7a8b",
        "sfen": "lnkg5/2s4+R1/1pp1p4/p2p1p2p/9/P1P1P3P/1P1P1PP2/1BK1G4/LN5NL w RB2GS2sn2l3p 1"
      },
      "analysis": {
        "scoreBeforeMove": 780,
        "scoreAfterMove": 150
      },
      "source": {
        "path": "/Users/foo/kifu/20260601-01.kif",
        "ply": 67,
        "blackPlayer": "先手太郎",
        "whitePlayer": "後手次郎"
      }
    }
  ]
}"#;

/// The spec's sample is an illustration, not a set: its first candidate drops a silver on 8c,
/// where the position has a pawn, and ShogiHome's own reader (`validateProblem`, which asks
/// tsshogi's `isValidMove`) refuses it as kifview does. Its metadata reads.
#[test]
fn the_specs_sample_is_refused_for_its_illegal_drop_as_shogihome_refuses_it() {
    let e = refused(SPEC_SAMPLE);
    assert_eq!(
        e,
        "problems[0]: candidates[0]: S*8c is not legal here: cannot drop onto an occupied square"
    );
    let mut v: Value = serde_json::from_str(SPEC_SAMPLE).unwrap();
    v["problems"] = serde_json::json!([]);
    let set = ProblemSet::from_json(&v.to_string()).unwrap();
    let m = set.metadata.as_ref().unwrap();
    let c = m.criteria.as_ref().unwrap();
    assert_eq!(c.min_win_rate, Some(Num(20.0)));
    assert_eq!(c.max_ply, Some(120));
    assert_eq!(m.engine.as_ref().unwrap().multi_pv, Some(3));
    assert_eq!(m.app_version.as_deref(), Some("1.24.0"));
}
