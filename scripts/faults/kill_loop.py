#!/usr/bin/env python3
"""kill -9 loop of `kifview index` updates with queries running beside it (issue 31).

Usage:
    scripts/faults/kill_loop.py [--kifview BIN] [--corpus DIR] [--work DIR] [--rounds N]
                                [--kills K] [--seed S]

Copies the record files of --corpus (default ../shared/corpus/generated) into WORK/coll and runs
ROUNDS rounds, each one change to the collection, in turn: a fresh build (the index removed
first), files added, files deleted (a third: the update compacts), files rewritten (players
changed and a move added). In each round `kifview index` is started K times and killed with
SIGKILL after a random delay within one whole run's time, then run to its end; meanwhile a
thread runs `find --json` and `explore --json` at a few positions against the index, again and
again.

Every answer is compared with the answers of indexes built from scratch (in other folders) of
the states the collection passes through in the round: before the change, with the deleted
and rewritten files gone (what the update's first step commits), and after it. An answer equal
to none of them is torn or wrong (a fresh build may also answer as an index of no game: its
first step commits that); a query that fails is counted with its message (during a
fresh build, "no index there" is counted apart: there is no index yet). After the last run of
each round the answers must equal the from-scratch answers of the new state.

Prints one line per round and a summary; exits 1 when an answer was torn or wrong, a query
failed (other than "no index there"), or a finished update did not give the from-scratch
answers. WORK (default a new folder under /tmp) is removed at the end unless --keep.
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import faultlib
from faultlib import run

POSITIONS = [
    "startpos",
    "startpos moves 7g7f",
    "startpos moves 7g7f 3c3d",
    "startpos moves 2g2f 8c8d",
    "startpos moves 7g7f 8c8d 2g2f",
]


def answers(kifview, idx):
    return faultlib.answers(kifview, idx, POSITIONS)


def one_answer(kifview, idx, i):
    return faultlib.answer(kifview, idx, POSITIONS[i // 2], ("find", "explore")[i % 2])


def scratch_answers(kifview, coll, work, name):
    """The answers of an index built from scratch of the collection as it is now."""
    idx = os.path.join(work, "ref-" + name)
    shutil.rmtree(idx, ignore_errors=True)
    r = run([kifview, "index", coll, "--index", idx])
    if r.returncode not in (0, 1):
        sys.exit(f"reference index failed: {r.stderr}")
    a = answers(kifview, idx)
    shutil.rmtree(idx, ignore_errors=True)
    return a


def rewrite(path, rng):
    """Changes a record file: other player names, one more line of comment."""
    with open(path, "rb") as f:
        b = f.read()
    tag = f"R{rng.randrange(10**6)}".encode()
    for old in ("先手：".encode(), b"N+"):
        i = b.find(old)
        if i >= 0:
            j = i + len(old)
            b = b[:j] + tag + b[j:]
            break
    else:
        b = b + b"\n"
    with open(path, "wb") as f:
        f.write(b)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--kifview", default=os.path.join(repo, "target/debug/kifview"))
    ap.add_argument("--corpus", default=os.path.join(repo, "../shared/corpus/generated"))
    ap.add_argument("--work")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--kills", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--kinds", default="fresh,add,delete,rewrite",
                    help="the changes, in turn (comma-separated)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    kifview = os.path.abspath(a.kifview)
    work = a.work or tempfile.mkdtemp(prefix="trust-kill-")
    os.makedirs(work, exist_ok=True)
    coll = os.path.join(work, "coll")
    idx = os.path.join(work, "idx")
    exts = (".kif", ".kifu", ".ki2", ".csa")
    pool = sorted(f for f in os.listdir(a.corpus) if f.endswith(exts))
    shutil.rmtree(coll, ignore_errors=True)
    os.makedirs(coll)
    half = len(pool) // 2
    for f in pool[:half]:
        shutil.copy(os.path.join(a.corpus, f), coll)
    spare = pool[half:]

    start = time.time()
    r = run([kifview, "index", coll, "--index", idx])
    whole = max(time.time() - start, 0.2)
    before = scratch_answers(kifview, coll, work, "start")
    nothing = os.path.join(work, "nothing")
    os.makedirs(nothing, exist_ok=True)
    empty = scratch_answers(kifview, nothing, work, "empty")
    totals = dict(kills=0, queries=0, failed=0, no_index=0, torn=0, final_bad=0)
    samples = []
    kinds = a.kinds.split(",")
    for rnd in range(a.rounds):
        kind = kinds[rnd % len(kinds)]
        present = sorted(os.listdir(coll))
        gone, changed, added = [], [], []
        if kind == "add" and spare:
            added = [spare.pop() for _ in range(min(len(spare), 20))]
        elif kind == "delete":
            gone = rng.sample(present, len(present) // 3)
        elif kind == "rewrite":
            changed = rng.sample(present, max(1, len(present) // 10))
        # The state the update's first step commits: the deleted and rewritten files gone.
        stash = os.path.join(work, "stash")
        shutil.rmtree(stash, ignore_errors=True)
        os.makedirs(stash)
        for f in gone + changed:
            shutil.move(os.path.join(coll, f), stash)
        mid = scratch_answers(kifview, coll, work, "mid")
        for f in changed:
            shutil.move(os.path.join(stash, f), coll)
            rewrite(os.path.join(coll, f), rng)
        for f in added:
            shutil.copy(os.path.join(a.corpus, f), coll)
        after = scratch_answers(kifview, coll, work, "after")
        accepted = [set(x) for x in zip(before, mid, after)]
        if kind == "fresh":
            shutil.rmtree(idx)
            # A fresh build's first step commits an index of no game yet (its folders only).
            accepted = [s | {e} for s, e in zip(accepted, empty)]
        stop = threading.Event()
        counts = dict(queries=0, failed=0, no_index=0, torn=0)

        def queries():
            i = 0
            while not stop.is_set():
                q = i % (2 * len(POSITIONS))
                ok, ans = one_answer(kifview, idx, q)
                counts["queries"] += 1
                if not ok:
                    if "no index there" in ans:
                        counts["no_index"] += 1
                    else:
                        counts["failed"] += 1
                        if counts["failed"] <= 2:
                            samples.append(f"round {rnd} ({kind}): failed: {ans[:300]}")
                elif (ok, ans) not in accepted[q]:
                    counts["torn"] += 1
                    samples.append(f"round {rnd} ({kind}): query {q}: an answer of no state")
                i += 1

        t = threading.Thread(target=queries)
        t.start()
        kills = 0
        for _ in range(a.kills):
            p = subprocess.Popen([kifview, "index", coll, "--index", idx],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0, whole))
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                kills += 1
            p.wait()
        r = run([kifview, "index", coll, "--index", idx])
        stop.set()
        t.join()
        final = answers(kifview, idx)
        final_ok = final == after
        totals["kills"] += kills
        for k in counts:
            totals[k] += counts[k]
        totals["final_bad"] += 0 if final_ok else 1
        if not final_ok:
            for q, (f, w) in enumerate(zip(final, after)):
                if f != w:
                    only_f = set(f[1]) - set(w[1]) if f[0] and w[0] else f[1]
                    only_w = set(w[1]) - set(f[1]) if f[0] and w[0] else w[1]
                    samples.append(f"round {rnd} ({kind}): query {q} differs from scratch: "
                                   f"index has {sorted(only_f)[:3]} scratch has {sorted(only_w)[:3]}")
            samples.append(f"round {rnd} ({kind}): the last index said: {r.stderr[-400:]}")
        print(f"round {rnd:2} {kind:8} kills {kills:2}  queries {counts['queries']:4}  failed "
              f"{counts['failed']}  no index yet {counts['no_index']}  torn/wrong {counts['torn']}  "
              f"final {'= scratch' if final_ok else 'DIFFERS'}", flush=True)
        before = after
    print(f"total: {totals['kills']} kills, {totals['queries']} queries, {totals['failed']} failed, "
          f"{totals['no_index']} 'no index there' during fresh builds, {totals['torn']} torn or "
          f"wrong answers, {totals['final_bad']} finished updates not equal to scratch")
    for s in samples[:40]:
        print("  " + s)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    bad = totals["failed"] or totals["torn"] or totals["final_bad"]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
