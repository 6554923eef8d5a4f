#!/usr/bin/env python3
"""Who caused each loss on time in a `kifview match --timing FILE` run.

    python3 scripts/match_timing.py TIMING.jsonl

The log has one JSON line per game: {"round","game","file","fault","by","moves":[[ply, side,
allowed_ms, charged_ms, reported_ms, gap_us], ...]}, and a last line {"moves","cpu_ms",
"cpu_per_move_us"}: the runner's CPU (kifview's process, every thread, not the engines').

For every move it compares what the engine was charged (from `go` handed to kifview's writer
to `bestmove` read) with what the engine said it used (its last `info time`): the difference
is the transport (pipes, the OS scheduling kifview's threads and the engine's reading of
`go`, the runner noticing the answer). For each game lost on time, the losing move is put
down to:
  engine   - the engine's own `info time` is over the time it had (it overstepped by its
             own account), or it was killed as hung with nothing reported;
  overhead - by its own account the engine was within its time (its last info time <=
             allowed) and what was charged on top took it over: the engine's own time after
             its last info line, the pipes, the OS scheduling both processes, kifview
             noticing the answer. The runner's share of that is not separable here: the
             runner's own cost on a quiet path is what `benches/match.rs` and the gaps show;
  unknown  - the engine reported no time for that move.
It also prints the runner's own gap between moves (previous answer read -> next `go`
handed over; charged to no one) and the CPU per move. Exit 0 always (this is a report)."""

import json
import sys


def pct(xs, p):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def fmt(x, unit):
    return "-" if x is None else f"{x:.3f} {unit}"


def main(path):
    games, tail = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            o = json.loads(line)
            if "cpu_ms" in o:
                tail = o
            else:
                games.append(o)
    gaps, over, losses = [], [], []
    moves = 0
    for g in games:
        for ply, side, allowed, charged, reported, gap in g["moves"]:
            moves += 1
            if gap is not None:
                gaps.append(gap / 1000.0)
            if charged is not None and reported is not None:
                over.append(charged - reported)
        if g["fault"] == "time":
            ply, side, allowed, charged, reported, gap = g["moves"][-1]
            if reported is None:
                who = "unknown"
                # Killed as hung: charged past allowed + margin with nothing said.
            elif allowed is not None and reported > allowed:
                who = "engine"
            else:
                who = "overhead"
            losses.append((g["file"], g["by"], ply, allowed, charged, reported, who))
    print(f"games {len(games)}, engine moves {moves}")
    if tail:
        print(
            f"runner CPU: {tail['cpu_ms']:.0f} ms for {tail['moves']} moves = "
            f"{tail['cpu_per_move_us']:.1f} us a move"
        )
    print(
        "runner gap between moves (answer read -> next go), ms: "
        f"median {fmt(pct(gaps, 50), '')}, p99 {fmt(pct(gaps, 99), '')}, max {fmt(max(gaps) if gaps else None, '')}"
    )
    print(
        "charged - engine's own info time, ms: "
        f"median {fmt(pct(over, 50), '')}, p99 {fmt(pct(over, 99), '')}, max {fmt(max(over) if over else None, '')}"
        f" ({len(over)} moves with a reported time)"
    )
    counts = {"engine": 0, "overhead": 0, "unknown": 0}
    for file, by, ply, allowed, charged, reported, who in losses:
        counts[who] += 1
        print(
            f"  {file}: {by} lost on time at ply {ply}: allowed {fmt(allowed, 'ms')}, "
            f"charged {fmt(charged, 'ms')}, its own info time {fmt(reported, 'ms')} -> {who}"
        )
    print(
        f"losses on time: {len(losses)} (engine {counts['engine']}, overhead {counts['overhead']}, "
        f"unknown {counts['unknown']})"
    )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
