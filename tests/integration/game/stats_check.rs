//! kifview's match statistics (`game::stats`) against `scripts/match_stats.py`, fastchess's
//! published formulas written again in Python with another root finder, for fixed inputs.

use crate::common::manifest;
use kifview::game::stats::{Model, Sprt, Tally};

/// The script's numbers for W D L and the pentanomial counts (LL, LD, WL+DD, WD, WW).
fn python(args: &[String]) -> Option<serde_json::Value> {
    let out = std::process::Command::new("python3")
        .arg(manifest().join("scripts/match_stats.py"))
        .args(args)
        .output();
    match out {
        Ok(o) if o.status.success() => Some(serde_json::from_slice(&o.stdout).unwrap()),
        Ok(o) => panic!(
            "match_stats.py failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "python3 is needed under CI: {e}"
            );
            eprintln!("skipped: no python3 ({e})");
            None
        }
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1.0)
}

/// W D L, the pentanomial counts, elo0, elo1, the model.
type Case = ([u32; 3], [u32; 5], f64, f64, Model);

#[test]
fn statistics_agree_with_the_python_implementation() {
    let cases: [Case; 6] = [
        (
            [60, 25, 15],
            [3, 5, 12, 15, 15],
            0.0,
            10.0,
            Model::Normalized,
        ),
        ([60, 25, 15], [3, 5, 12, 15, 15], 0.0, 10.0, Model::Logistic),
        ([10, 0, 0], [0, 0, 0, 0, 5], 0.0, 200.0, Model::Normalized),
        (
            [41, 130, 49],
            [2, 20, 60, 25, 3],
            -5.0,
            0.0,
            Model::Normalized,
        ),
        (
            [0, 0, 0],
            [365, 16618, 36229, 16974, 390],
            0.0,
            2.0,
            Model::Normalized,
        ),
        (
            [0, 0, 0],
            [223, 9863, 21279, 10037, 246],
            0.5,
            2.5,
            Model::Logistic,
        ),
    ];
    for (wdl, penta, elo0, elo1, model) in cases {
        let model_word = match model {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        };
        let mut args: Vec<String> = wdl.iter().chain(&penta).map(u32::to_string).collect();
        args.extend([elo0, elo1, 0.05, 0.05].map(|x| x.to_string()));
        args.push(model_word.into());
        let Some(py) = python(&args) else { return };
        let tally = Tally {
            wins: wdl[0],
            draws: wdl[1],
            losses: wdl[2],
            penta,
        };
        let sprt = Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        };
        let what = format!("{wdl:?} {penta:?} {elo0} {elo1} {model_word}");
        let e = tally.elo().unwrap();
        for (mine, key) in [(e.diff, "elo"), (e.lo, "elo_lo"), (e.hi, "elo_hi")] {
            match (mine, py[key].as_f64()) {
                (Some(a), Some(b)) => assert!(close(a, b, 1e-9), "{what} {key}: {a} vs {b}"),
                (None, None) => {}
                other => panic!("{what} {key}: {other:?}"),
            }
        }
        let llr = sprt.llr(penta);
        let want = py["llr"].as_f64().unwrap();
        // fastchess stops its root finder at 1e-3 (logistic) and 1e-7 (normalized) in theta;
        // the script bisects to 1e-15: the LLRs agree to 0.1 %.
        assert!(close(llr, want, 1e-3), "{what} llr: {llr} vs {want}");
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, py["lower"].as_f64().unwrap(), 1e-12), "{what}");
        assert!(close(hi, py["upper"].as_f64().unwrap(), 1e-12), "{what}");
    }
}
