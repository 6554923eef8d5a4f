#!/usr/bin/env python3
"""The corruption set of issue 31: damage each file of a collection index, then query it,
check it and repair it.

Usage:
    scripts/faults/corruption_set.py [--kifview BIN] [--corpus DIR] [--trials N] [--seed S]

Builds an index (in two runs, so that it has two segments, with --variations) of the record
files of --corpus (default ../shared/corpus/generated) under a new folder in /tmp, then, for
each file of the index (catalog.sqlite, pos-N.bin, moves-N.bin, games.bin, the marker
kifview-index) and each kind of damage (16 random bytes flipped, N trials; cut to half its
size; replaced by a folder), on a fresh copy of the index:

- queries `find --json` and `explore --json` at a few positions: each answer is exact (equal to
  the undamaged index's), refused (a non-zero exit with a message), or wrong;
- runs `kifview index --check`: did it find the damage (exit 1)?
- runs `kifview index --repair` and queries again: exact after the repair?

Prints a line per file and damage and the totals; exits 1 when an answer was wrong or a
repaired index did not answer exactly. The folder is removed at the end.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

import faultlib
from faultlib import run

POSITIONS = [
    "startpos",
    "startpos moves 7g7f",
    "startpos moves 7g7f 3c3d",
    "startpos moves 2g2f 8c8d",
]


def answers(kifview, idx):
    """Each answer, None when refused with a message."""
    return [a if ok else (None if a else "refused without a message")
            for ok, a in faultlib.answers(kifview, idx, POSITIONS)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kifview", default=os.path.join(repo, "target/debug/kifview"))
    ap.add_argument("--corpus", default=os.path.join(repo, "../shared/corpus/generated"))
    ap.add_argument("--trials", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    kifview = os.path.abspath(a.kifview)
    work = tempfile.mkdtemp(prefix="trust-corrupt-")
    coll_a, coll_b = os.path.join(work, "a"), os.path.join(work, "b")
    os.makedirs(coll_a)
    os.makedirs(coll_b)
    files = sorted(f for f in os.listdir(a.corpus) if f.endswith((".kif", ".kifu", ".ki2", ".csa")))
    for i, f in enumerate(files):
        shutil.copy(os.path.join(a.corpus, f), coll_a if i % 2 else coll_b)
    pristine = os.path.join(work, "pristine")
    for c in (coll_a, coll_b):
        r = run([kifview, "index", "--variations", c, "--index", pristine])
        if r.returncode not in (0, 1):
            sys.exit(f"index failed: {r.stderr}")
    want = answers(kifview, pristine)
    names = sorted(n for n in os.listdir(pristine) if n != "lock")
    totals = dict(answers=0, exact=0, refused=0, wrong=0, damages=0, detected=0, repaired=0)
    for name in names:
        kinds = [("flip16", t) for t in range(a.trials)] + [("half", 0), ("folder", 0)]
        line = dict(exact=0, refused=0, wrong=0, detected=0, repaired=0, n=0)
        for kind, _ in kinds:
            idx = os.path.join(work, "damaged")
            shutil.rmtree(idx, ignore_errors=True)
            shutil.copytree(pristine, idx)
            p = os.path.join(idx, name)
            size = os.path.getsize(p)
            if kind == "flip16":
                b = bytearray(open(p, "rb").read())
                for _ in range(16):
                    i = rng.randrange(len(b))
                    b[i] ^= 1 << rng.randrange(8)
                open(p, "wb").write(b)
            elif kind == "half":
                os.truncate(p, size // 2)
            else:
                os.remove(p)
                os.makedirs(p)
            got = answers(kifview, idx)
            for g, w in zip(got, want):
                key = "exact" if g == w else "refused" if g is None else "wrong"
                line[key] += 1
            chk = run([kifview, "index", "--check", "--index", idx])
            line["detected"] += chk.returncode == 1
            rep = run([kifview, "index", "--repair", "--index", idx])
            line["repaired"] += answers(kifview, idx) == want
            line["n"] += 1
        print(f"{name:16} {line['n']:2} damages: answers {line['exact']} exact, {line['refused']} "
              f"refused, {line['wrong']} wrong; --check found {line['detected']}/{line['n']}; "
              f"exact after --repair {line['repaired']}/{line['n']}", flush=True)
        for k in ("exact", "refused", "wrong", "detected", "repaired"):
            totals[k] += line[k]
        totals["damages"] += line["n"]
    print(f"total: {totals['damages']} damages; answers {totals['exact']} exact, "
          f"{totals['refused']} refused, {totals['wrong']} wrong; --check found "
          f"{totals['detected']}/{totals['damages']}; exact after --repair "
          f"{totals['repaired']}/{totals['damages']}")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if totals["wrong"] or totals["repaired"] < totals["damages"] else 0)


if __name__ == "__main__":
    main()
