#!/usr/bin/env python3
"""An independent check of `kifview match`'s statistics (src/game/stats.rs).

fastchess's published formulas (Disservin/fastchess: app/src/matchmaking/elo/*.cpp,
app/src/matchmaking/sprt/sprt.cpp; M. Van den Bergh, "Comparing the approximations for the
generalized log likelihood ratio of a multinomial distribution" and "Comments on normalized
Elo") written again in plain Python, with another root finder (plain bisection to 1e-15 in
place of fastchess's ITP) and the normalized MLE iterated until it settles:

    python3 scripts/match_stats.py W D L LL LD WLDD WD WW ELO0 ELO1 [ALPHA BETA MODEL]

prints one JSON object: score, elo, elo_lo, elo_hi (from the pentanomial counts when there are
pairs, else from W/D/L), llr, lower, upper. The integration test
`game::stats_check::statistics_agree_with_the_python_implementation` compares them with
kifview's for fixed inputs.
"""
import json
import math
import sys

Z95 = 1.959963984540054


def elo(score):
    if score <= 0 or score >= 1:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0)


def mean_var(xs, ps):
    mu = sum(x * p for x, p in zip(xs, ps))
    return mu, sum(p * (x - mu) ** 2 for x, p in zip(xs, ps))


def elo_interval(w, d, l, penta):
    pairs = sum(penta)
    if pairs > 0:
        xs = [0.0, 0.25, 0.5, 0.75, 1.0]
        ps = [c / pairs for c in penta]
        n = pairs
    else:
        n = w + d + l
        xs = [0.0, 0.5, 1.0]
        ps = [l / n, d / n, w / n]
    mu, var = mean_var(xs, ps)
    half = Z95 * math.sqrt(var / n)
    return mu, elo(mu), elo(mu - half), elo(mu + half)


def bisect(f, lo, hi):
    """A root of f between lo and hi (f changes sign there)."""
    flo = f(lo)
    for _ in range(400):
        mid = (lo + hi) / 2.0
        fm = f(mid)
        if fm == 0 or hi - lo < 1e-15:
            return mid
        if (fm < 0) == (flo < 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return (lo + hi) / 2.0


def shrink(a, b):
    """The open interval (a, b) pulled in a hair, where the sums have poles."""
    eps = (b - a) * 1e-12
    return a + eps, b - eps


def mle_logistic(xs, ps, s):
    lo, hi = shrink(-1.0 / (xs[-1] - s), -1.0 / (xs[0] - s))
    f = lambda t: sum(p * (x - s) / (1 + t * (x - s)) for x, p in zip(xs, ps))
    t = bisect(f, lo, hi)
    return [p / (1 + t * (x - s)) for x, p in zip(xs, ps)]


def mle_normalized(xs, ps, mu_ref, t_star):
    q = [1.0 / len(xs)] * len(xs)
    for _ in range(10):
        mu, var = mean_var(xs, q)
        sigma = math.sqrt(var)
        phi = [x - mu_ref - 0.5 * t_star * sigma * (1 + ((x - mu) / sigma) ** 2) for x in xs]
        lo, hi = shrink(-1.0 / max(phi), -1.0 / min(phi))
        f = lambda t: sum(p * h / (1 + t * h) for h, p in zip(phi, ps))
        t = bisect(f, lo, hi)
        new = [p / (1 + t * h) for h, p in zip(phi, ps)]
        diff = max(abs(a - b) for a, b in zip(new, q))
        q = new
        if diff < 1e-4:
            break
    return q


def llr(penta, elo0, elo1, model):
    counts = [c if c > 0 else 1e-3 for c in penta]
    total = sum(counts)
    ps = [c / total for c in counts]
    xs = [0.0, 0.25, 0.5, 0.75, 1.0]
    if model == "normalized":
        k = 800.0 / math.log(10)
        p0 = mle_normalized(xs, ps, 0.5, math.sqrt(2) * elo0 / k)
        p1 = mle_normalized(xs, ps, 0.5, math.sqrt(2) * elo1 / k)
    else:
        sc = lambda e: 1.0 / (1.0 + 10 ** (-e / 400.0))
        p0 = mle_logistic(xs, ps, sc(elo0))
        p1 = mle_logistic(xs, ps, sc(elo1))
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(ps, p0, p1))


def main(argv):
    if len(argv) not in (10, 13):
        print(__doc__, file=sys.stderr)
        return 2
    w, d, l, ll, ld, dd, wd, ww = (int(x) for x in argv[:8])
    elo0, elo1 = float(argv[8]), float(argv[9])
    alpha, beta, model = (float(argv[10]), float(argv[11]), argv[12]) if len(argv) == 13 else (0.05, 0.05, "normalized")
    penta = [ll, ld, dd, wd, ww]
    score, e, lo, hi = elo_interval(w, d, l, penta)
    print(json.dumps({
        "score": score,
        "elo": e,
        "elo_lo": lo,
        "elo_hi": hi,
        "llr": llr(penta, elo0, elo1, model),
        "lower": math.log(beta / (1 - alpha)),
        "upper": math.log((1 - beta) / alpha),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
