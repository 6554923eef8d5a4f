#!/usr/bin/env python3
"""YaneuraOu's verdict on many positions of books kifview writes: a by-hand check (CI cannot
fetch YaneuraOu's source; scripts/yaneuraou-book-check is the quick three-position one).

Usage: scripts/yaneuraou_book_verdict.py YANEURAOU KIFVIEW [--positions N] [--records DIR]

  YANEURAOU: a YaneuraOu binary; its material edition needs no evaluation file:
    (in yaneurao/YaneuraOu's source/) make -j2 normal TARGET_CPU=AVX2 \\
      YANEURAOU_EDITION=YANEURAOU_ENGINE_MATERIAL COMPILER=g++
  KIFVIEW: the kifview binary.

kifview builds a book from the records under DIR (`kifview book build`, plies 1-40; default
../shared/corpus/generated), every move given a value, a depth and a count of its own (a fixed
seed), and converts it to YaneuraOu's sorted text (user_book1.db), `.ybb` (user_book2.ybb,
which BookFile=user_book2.db falls back to) and Apery's book.bin, printing what convert says
each format cannot hold. For N of the book's positions (spread over it; every one by default)
YaneuraOu is given the position and `go`: at the root of a book hit it prints every book move
as `info depth D multipv I score cp V ... pv MOVE (P%)`. Each list is compared with what
kifview's `book show --json` reads from the same file: the same moves, each with its value,
its depth (YaneuraOu gives every Apery move depth 256: the format has none) and its share of
the counts (none in `.ybb`). The text and `.ybb` are read whole and with BookOnTheFly. Exit 1
on any difference.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

# A book move as YaneuraOu lists it (BookPvMoves 1): its depth, rank, value, move and share.
INFO = re.compile(
    r"^info depth (\d+) multipv (\d+) score cp (-?\d+) nodes 0 .* pv (\S+)(?: \(([\d.]+)%\))?$"
)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def source_book(kifview, records, work):
    built = os.path.join(work, "built.db")
    run([kifview, "book", "build", records, "-o", built, "--plies", "1-40"])
    rng = random.Random(33)
    out = []
    for line in open(built, encoding="utf-8"):
        parts = line.split()
        if line.startswith(("#", "sfen ")) or len(parts) < 5:
            out.append(line)
            continue
        # move ponder value depth count: values distinct enough, depths and counts of their own.
        value = rng.randrange(-900, 900)
        depth = rng.randrange(0, 40)
        count = rng.randrange(1, 500)
        out.append(f"{parts[0]} {parts[1]} {value} {depth} {count}\n")
    src = os.path.join(work, "src.db")
    with open(src, "w", encoding="utf-8") as f:
        f.writelines(out)
    return src


class Engine:
    def __init__(self, exe, book_dir, book_file, fly):
        self.p = subprocess.Popen(
            [exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=book_dir
        )
        self.lines = []
        for cmd in [
            "usi",
            "setoption name USI_Hash value 16",
            "setoption name Threads value 1",
            f"setoption name BookDir value {book_dir}",
            f"setoption name BookFile value {book_file}",
            f"setoption name BookOnTheFly value {'true' if fly else 'false'}",
            "setoption name BookDepthLimit value 0",
            "setoption name BookEvalDiff value 99999",
            "setoption name BookMoves value 10000",
            "setoption name BookEvalBlackLimit value -99999",
            "setoption name BookEvalWhiteLimit value -99999",
            "setoption name IgnoreBookPly value true",
            "setoption name FlippedBook value false",
            "setoption name BookPvMoves value 1",
            "isready",
        ]:
            self.send(cmd)
        self.until("readyok")
        self.send("usinewgame")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, word):
        got = []
        for line in self.p.stdout:
            line = line.rstrip("\n")
            got.append(line)
            if line.split(" ", 1)[0] == word:
                return got
        raise RuntimeError(f"the engine ended before {word}: {got[-5:]}")

    def book_moves(self, sfen):
        self.send(f"position sfen {sfen}")
        self.send("go btime 0 wtime 0 byoyomi 100")
        got = self.until("bestmove")
        moves = {}
        for line in got:
            m = INFO.match(line)
            if not m:
                continue
            # The list ends where the move chosen is said again (multipv 1 once more).
            if m.group(2) == "1" and moves:
                break
            moves[m.group(4)] = (
                int(m.group(3)),
                int(m.group(1)),
                float(m.group(5)) if m.group(5) else None,
            )
        return moves, got[-1]

    def close(self):
        self.send("quit")
        self.p.wait(timeout=30)


def expected(kifview, book, sfen):
    out = run([kifview, "book", "show", "--sfen", sfen, "--json", book]).stdout
    return json.loads(out)["moves"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("yaneuraou")
    ap.add_argument("kifview")
    ap.add_argument("--positions", type=int, default=0)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument(
        "--records", default=os.path.join(here, "..", "..", "shared", "corpus", "generated")
    )
    a = ap.parse_args()
    yane = os.path.abspath(a.yaneuraou)
    kifview = os.path.abspath(a.kifview)
    work = tempfile.mkdtemp(prefix="kifview-yo-verdict-")
    book_dir = os.path.join(work, "book")
    os.mkdir(book_dir)
    src = source_book(kifview, a.records, work)
    text = os.path.join(book_dir, "user_book1.db")
    for name in ["user_book1.db", "user_book2.ybb", "book.bin"]:
        r = run([kifview, "book", "convert", src, "-o", os.path.join(book_dir, name)])
        for line in r.stderr.splitlines():
            print(f"convert to {name}: {line}")
    sfens = [l[5:].strip() for l in open(text, encoding="utf-8") if l.startswith("sfen ")]
    if a.positions and a.positions < len(sfens):
        step = len(sfens) / a.positions
        sfens = [sfens[int(i * step)] for i in range(a.positions)]
    wants = {}
    for name in ["user_book1.db", "user_book2.ybb", "book.bin"]:
        wants[name] = {s: expected(kifview, os.path.join(book_dir, name), s) for s in sfens}
        n = sum(1 for w in wants[name].values() if w)
        moves = sum(len(w) for w in wants[name].values())
        print(f"{name}: kifview reads {n} of the {len(sfens)} positions, {moves} moves")
    fail = 0
    for file, read, fly in [
        ("user_book1.db", "user_book1.db", False),
        ("user_book1.db", "user_book1.db", True),
        ("user_book2.db", "user_book2.ybb", False),
        ("user_book2.db", "user_book2.ybb", True),
        ("book.bin", "book.bin", False),
    ]:
        e = Engine(yane, book_dir, file, fly)
        same = 0
        bad = []
        for s in sfens:
            got, best = e.book_moves(s)
            w = wants[read][s]
            total = sum(m["count"] for m in w)
            exp = {
                m["usi"]: (
                    m["value"],
                    256 if read == "book.bin" else m["depth"],
                    round(100 * m["count"] / total, 2) if total else None,
                )
                for m in w
            }
            best_move = best.split()[1] if len(best.split()) > 1 else None
            if got == exp and (not exp or best_move in exp):
                same += 1
            else:
                bad.append((s, exp, got, best))
        e.close()
        print(
            f"{'ok  ' if not bad else 'FAIL'}  {file} (OnTheFly={str(fly).lower()}): "
            f"{same} of {len(sfens)} positions as kifview reads {read}: every book move with "
            f"its value, depth and share of the counts, and a book move played"
        )
        for s, exp, got, best in bad[:3]:
            print(f"      sfen {s}\n      kifview: {exp}\n      YaneuraOu: {got} ({best})")
        fail |= bool(bad)
    return fail


if __name__ == "__main__":
    sys.exit(main())
