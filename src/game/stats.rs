//! A match's statistics as fastchess computes them (Disservin/fastchess,
//! `app/src/matchmaking/elo/elo_pentanomial.cpp`, `elo_wdl.cpp`, `sprt/sprt.cpp`): W/D/L, the
//! score, the Elo difference with its 95 % interval (from the pentanomial counts of game pairs
//! when there are pairs, else from W/D/L), and the generalized SPRT's log-likelihood ratio on
//! the pentanomial pairs (the "normalized" model, fastchess's default, or the "logistic" one),
//! with its bounds. `scripts/match_stats.py` computes the same numbers independently.

/// The 95 % two-sided z-score fastchess uses.
pub const CI95_Z: f64 = 1.959963984540054;

/// Results from engine A's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Pairs by A's points in them: [0, ½, 1, 1½, 2] (LL, LD, WL+DD, WD, WW).
    pub penta: [u32; 5],
}

/// One game's result for A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    Win,
    Draw,
    Loss,
}

impl GameScore {
    /// Half points: 2, 1, 0.
    pub fn halves(self) -> usize {
        match self {
            GameScore::Win => 2,
            GameScore::Draw => 1,
            GameScore::Loss => 0,
        }
    }
}

impl Tally {
    pub fn add_game(&mut self, s: GameScore) {
        match s {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// A finished pair (both games also go through [`Tally::add_game`]).
    pub fn add_pair(&mut self, a: GameScore, b: GameScore) {
        self.penta[a.halves() + b.halves()] += 1;
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn pairs(&self) -> u32 {
        self.penta.iter().sum()
    }

    /// A's score, 0..1, over every game.
    pub fn score(&self) -> Option<f64> {
        let n = f64::from(self.games());
        (n > 0.0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n)
    }

    /// The Elo difference and its 95 % interval `[lo, hi]`: from the pairs when there are
    /// some (fastchess's `EloPentanomial`), else from W/D/L (`EloWDL`). Not finite (None) at a
    /// score of 0 or 1, where the logistic has no inverse.
    pub fn elo(&self) -> Option<Elo> {
        let (score, var_per) = if self.pairs() > 0 {
            let n = f64::from(self.pairs());
            let p: Vec<f64> = self.penta.iter().map(|&c| f64::from(c) / n).collect();
            let (mu, var) = mean_var(&[0.0, 0.25, 0.5, 0.75, 1.0], &p);
            (mu, var / n)
        } else {
            let n = f64::from(self.games());
            if n == 0.0 {
                return None;
            }
            let p = [
                f64::from(self.losses) / n,
                f64::from(self.draws) / n,
                f64::from(self.wins) / n,
            ];
            let (mu, var) = mean_var(&[0.0, 0.5, 1.0], &p);
            (mu, var / n)
        };
        let hi = score + CI95_Z * var_per.sqrt();
        let lo = score - CI95_Z * var_per.sqrt();
        Some(Elo {
            diff: finite(elo_of(score)),
            lo: finite(elo_of(lo)),
            hi: finite(elo_of(hi)),
        })
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Elo and its 95 % interval; None where it is not finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    pub diff: Option<f64>,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
}

/// fastchess's `scoreToEloDiff`: `-400 log10(1/score - 1)`.
pub fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

fn mean_var(x: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = x.iter().zip(p).map(|(a, b)| a * b).sum();
    let var = x.iter().zip(p).map(|(a, b)| b * (a - mu) * (a - mu)).sum();
    (mu, var)
}

/// The SPRT's model (fastchess's `model`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Model {
    #[default]
    Normalized,
    Logistic,
}

/// `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: Model,
}

/// What the SPRT says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Accept H0 (A is not elo1 stronger).
    H0,
    /// Accept H1.
    H1,
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (alpha and beta default to 0.05, the model to
    /// normalized), checked as fastchess checks them.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Normalized,
        };
        let bad = |why: String| format!("--sprt {text:?}: {why}");
        for part in text.split([' ', ',']).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("{part:?} is not KEY=VALUE")))?;
            if k == "model" {
                s.model = match v {
                    "normalized" => Model::Normalized,
                    "logistic" => Model::Logistic,
                    _ => return Err(bad(format!("model {v:?}: normalized or logistic"))),
                };
                continue;
            }
            let x: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| bad(format!("{k}={v:?} is not a number")))?;
            match k {
                "elo0" => s.elo0 = x,
                "elo1" => s.elo1 = x,
                "alpha" => s.alpha = x,
                "beta" => s.beta = x,
                _ => {
                    return Err(bad(format!(
                        "unknown key {k:?} (elo0, elo1, alpha, beta, model)"
                    )));
                }
            }
        }
        if s.elo0.is_nan() || s.elo1.is_nan() {
            return Err(bad("elo0= and elo1= are required".into()));
        }
        if s.elo0 >= s.elo1 {
            return Err(bad("elo0 must be less than elo1".into()));
        }
        if !(s.alpha > 0.0 && s.alpha < 1.0 && s.beta > 0.0 && s.beta < 1.0) {
            return Err(bad("alpha and beta must be between 0 and 1".into()));
        }
        if s.alpha + s.beta >= 1.0 {
            return Err(bad("alpha + beta must be less than 1".into()));
        }
        Ok(s)
    }

    /// The spec as [`Sprt::parse`] reads it back.
    pub fn text(&self) -> String {
        let model = match self.model {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        };
        format!(
            "elo0={} elo1={} alpha={} beta={} model={model}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }

    /// `(lower, upper)`: `ln(β/(1−α))`, `ln((1−β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Some(Verdict::H1)
        } else if llr <= lo {
            Some(Verdict::H0)
        } else {
            None
        }
    }

    /// The LLR of the pentanomial pair counts (fastchess's `getLLR` with `penta`): each count
    /// regularized (0 becomes 0.001).
    pub fn llr(&self, penta: [u32; 5]) -> f64 {
        let reg = |c: u32| if c == 0 { 1e-3 } else { f64::from(c) };
        let counts: Vec<f64> = penta.iter().map(|&c| reg(c)).collect();
        let total: f64 = counts.iter().sum();
        let probs: Vec<f64> = counts.iter().map(|c| c / total).collect();
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        match self.model {
            Model::Normalized => {
                let k = 800.0 / std::f64::consts::LN_10;
                let t0 = std::f64::consts::SQRT_2 * self.elo0 / k;
                let t1 = std::f64::consts::SQRT_2 * self.elo1 / k;
                llr_normalized(total, &scores, &probs, t0, t1)
            }
            Model::Logistic => {
                let s = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
                llr_logistic(total, &scores, &probs, s(self.elo0), s(self.elo1))
            }
        }
    }
}

/// The ITP root finder (Oliveira and Takahashi 2020) as fastchess writes it: `f(a)` and `f(b)`
/// have opposite signs.
fn itp(f: &dyn Fn(f64) -> f64, mut a: f64, mut b: f64, eps: f64) -> f64 {
    let (k1, k2, n0) = (0.1, 2.0, 0.99);
    let (mut fa, mut fb) = (f64::INFINITY, f64::NEG_INFINITY);
    if fa > 0.0 {
        std::mem::swap(&mut a, &mut b);
        std::mem::swap(&mut fa, &mut fb);
    }
    let n_half = ((b - a).abs() / (2.0 * eps)).log2().ceil();
    let n_max = n_half + n0;
    let mut i = 0.0;
    while (b - a).abs() > 2.0 * eps {
        let x_half = (a + b) / 2.0;
        let r = eps * 2f64.powf(n_max - i) - (b - a) / 2.0;
        let delta = k1 * (b - a).abs().powf(k2);
        let x_f = (fb * a - fa * b) / (fb - fa);
        let sigma = (x_half - x_f) / (x_half - x_f).abs();
        let x_t = if delta <= (x_half - x_f).abs() {
            x_f + sigma * delta
        } else {
            x_half
        };
        let x_itp = if (x_t - x_half).abs() <= r {
            x_t
        } else {
            x_half - sigma * r
        };
        let f_itp = f(x_itp);
        if f_itp == 0.0 {
            a = x_itp;
            b = x_itp;
        } else if f_itp.is_sign_negative() {
            a = x_itp;
            fa = f_itp;
        } else {
            b = x_itp;
            fb = f_itp;
        }
        i += 1.0;
        if i > 200.0 {
            break;
        }
    }
    (a + b) / 2.0
}

/// fastchess's `getLLR_logistic`: the MLE with expectation `s` (Van den Bergh, Prop. 1.1).
fn llr_logistic(total: f64, scores: &[f64], probs: &[f64], s0: f64, s1: f64) -> f64 {
    let n = scores.len();
    let mle = |s: f64| -> Vec<f64> {
        let min_theta = -1.0 / (scores[n - 1] - s);
        let max_theta = -1.0 / (scores[0] - s);
        let f = |x: f64| -> f64 {
            (0..n)
                .map(|i| probs[i] * (scores[i] - s) / (1.0 + x * (scores[i] - s)))
                .sum()
        };
        let theta = itp(&f, min_theta, max_theta, 1e-3);
        (0..n)
            .map(|i| probs[i] / (1.0 + theta * (scores[i] - s)))
            .collect()
    };
    let (p0, p1) = (mle(s0), mle(s1));
    total
        * (0..n)
            .map(|i| probs[i] * (p1[i].ln() - p0[i].ln()))
            .sum::<f64>()
}

/// fastchess's `getLLR_normalized`: the MLE with `t = (mu − ½)/sigma` (Van den Bergh,
/// "Comments on normalized Elo", §4.1), ten iterations at most from the uniform distribution.
fn llr_normalized(total: f64, scores: &[f64], probs: &[f64], t0: f64, t1: f64) -> f64 {
    let n = scores.len();
    let mle = |mu_ref: f64, t_star: f64| -> Vec<f64> {
        let mut p = vec![1.0 / n as f64; n];
        for _ in 0..10 {
            let (mu, var) = mean_var(scores, &p);
            let sigma = var.sqrt();
            let phi: Vec<f64> = scores
                .iter()
                .map(|&a| {
                    let z = (a - mu) / sigma;
                    a - mu_ref - 0.5 * t_star * sigma * (1.0 + z * z)
                })
                .collect();
            let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
            let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let f =
                |x: f64| -> f64 { (0..n).map(|i| probs[i] * phi[i] / (1.0 + x * phi[i])).sum() };
            let theta = itp(&f, -1.0 / v, -1.0 / u, 1e-7);
            let mut max_diff: f64 = 0.0;
            for i in 0..n {
                let new = probs[i] / (1.0 + theta * phi[i]);
                max_diff = max_diff.max((new - p[i]).abs());
                p[i] = new;
            }
            if max_diff < 1e-4 {
                break;
            }
        }
        p
    };
    let (p0, p1) = (mle(0.5, t0), mle(0.5, t1));
    total
        * (0..n)
            .map(|i| probs[i] * (p1[i].ln() - p0[i].ln()))
            .sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: Model) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    /// fastchess's own tests (`app/tests/sprt_test.cpp`): `Stats(LL, LD, WL, DD, WD, WW)`.
    #[test]
    fn llr_matches_fastchess_tests() {
        let penta =
            |ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32| [ll, ld, wl + dd, wd, ww];
        for (counts, elo0, elo1, model, want) in [
            (
                penta(365, 16618, 36029, 200, 16974, 390),
                0.0,
                2.0,
                Model::Normalized,
                2.25,
            ),
            (
                penta(127, 4883, 10311, 401, 5150, 104),
                -1.75,
                0.25,
                Model::Normalized,
                3.01,
            ),
            (
                penta(0, 0, 0, 0, 0, 5550),
                0.0,
                5.0,
                Model::Normalized,
                111.82,
            ),
            (
                penta(223, 9863, 20279, 1000, 10037, 246),
                0.5,
                2.5,
                Model::Logistic,
                -3.07,
            ),
            (
                penta(871, 26175, 55003, 980, 26678, 821),
                0.0,
                2.0,
                Model::Logistic,
                -4.98,
            ),
        ] {
            let got = sprt(elo0, elo1, model).llr(counts);
            // doctest's Approx(want).epsilon(0.01): within 1 % of the larger.
            assert!(
                (got - want).abs() <= 0.01 * got.abs().max(want.abs()),
                "{counts:?} {model:?}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn bounds_verdicts_and_parsing() {
        let s = Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.05").unwrap();
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944438979).abs() < 1e-9 && (hi - 2.944438979).abs() < 1e-9);
        assert_eq!(s.verdict(3.0), Some(Verdict::H1));
        assert_eq!(s.verdict(-3.0), Some(Verdict::H0));
        assert_eq!(s.verdict(0.0), None);
        assert_eq!(Sprt::parse("elo0=0 elo1=200").unwrap().alpha, 0.05);
        for bad in [
            "elo0=5 elo1=0",
            "elo1=5",
            "elo0=0 elo1=5 alpha=1",
            "x",
            "elo0=a elo1=1",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn elo_from_pairs_and_from_games() {
        let mut t = Tally::default();
        assert_eq!(t.elo(), None);
        for _ in 0..3 {
            t.add_game(GameScore::Win);
        }
        t.add_game(GameScore::Loss);
        // 3/4 from W/D/L: 190.85 Elo.
        let e = t.elo().unwrap();
        assert!((e.diff.unwrap() - 190.848).abs() < 0.01, "{e:?}");
        t.add_pair(GameScore::Win, GameScore::Win);
        t.add_pair(GameScore::Win, GameScore::Loss);
        assert_eq!(t.penta, [0, 0, 1, 0, 1]);
        // All wins: no finite Elo.
        let mut all = Tally::default();
        all.add_game(GameScore::Win);
        all.add_game(GameScore::Win);
        all.add_pair(GameScore::Win, GameScore::Win);
        assert_eq!(all.elo().unwrap().diff, None);
    }
}
