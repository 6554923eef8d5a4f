"""Shared by the fault scripts of this folder: running kifview and reading an index's answers."""

import subprocess


def run(cmd, timeout=600):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def answer(kifview, idx, position, what):
    """`find --json` (its lines, sorted) or `explore --json` at `position`: (True, answer), or
    (False, the message) when the query failed."""
    r = run([kifview, what, "--json", "--position", position, "--index", idx])
    if r.returncode != 0:
        return (False, r.stderr.strip())
    if what == "find":
        return (True, tuple(sorted(r.stdout.splitlines())))
    return (True, r.stdout.strip())


def answers(kifview, idx, positions):
    """[`answer`] of `find` and of `explore` at every position, in that order."""
    return [answer(kifview, idx, p, w) for p in positions for w in ("find", "explore")]
