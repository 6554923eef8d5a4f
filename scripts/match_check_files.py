#!/usr/bin/env python3
"""Checks a `kifview match` folder with an independent reader (cshogi: `pip install cshogi`).
KIF records (.kifu) go through cshogi's KIF parser, CSA records (.csa, `--format csa`) through
its CSA parser, whose ending word (%TORYO, %TIME_UP, ...) gives the result.

    python3 scripts/match_check_files.py DIR [MATCH.json]

Each record is parsed by cshogi's KIF parser and replayed on a cshogi Board: every move must be
legal. The ending is read from the record's last move line (投了, 詰み, 切れ負け, 反則負け,
反則勝ち, 入玉勝ち, 千日手, 持将棋, 最大手数) with the side to move on cshogi's board; where
cshogi's own parser gives a result (`win`), it must agree. W/D/L per engine (先手/後手 names,
A = 先手 of the `局番：1` games) are printed as JSON and, given the match's JSON, compared with it.
Exit 1 on any illegal move, unknown ending or disagreement.
"""
import json
import os
import re
import sys

import cshogi
from cshogi import CSA, KIF

LOSS_FOR_MOVER = {"投了", "詰み", "切れ負け", "反則負け"}
WIN_FOR_MOVER = {"反則勝ち", "入玉勝ち"}
DRAWS = {"千日手", "持将棋", "最大手数", "引き分け"}
MOVE_LINE = re.compile(r"^\s*(\d+)\s+(\S+)")


# A CSA ending: who wins, from the side to move ("mover") or a colour.
CSA_ENDINGS = {
    "%TORYO": "other",
    "%TSUMI": "other",
    "%TIME_UP": "other",
    "%ILLEGAL_MOVE": "other",
    "%KACHI": "mover",
    "%+ILLEGAL_ACTION": "white",
    "%-ILLEGAL_ACTION": "black",
    "%SENNICHITE": None,
    "%JISHOGI": None,
    "%MAX_MOVES": None,
    "%HIKIWAKE": None,
}


def check_csa(path):
    parsers = CSA.Parser.parse_file(path)
    if len(parsers) != 1:
        raise SystemExit(f"{path}: {len(parsers)} records for cshogi, not 1")
    parsed = parsers[0]
    board = cshogi.Board(parsed.sfen)
    for i, mv in enumerate(parsed.moves):
        if not board.is_legal(mv):
            raise SystemExit(f"{path}: move {i + 1} is illegal for cshogi")
        board.push(mv)
    word = parsed.endgame
    if word not in CSA_ENDINGS:
        raise SystemExit(f"{path}: no ending kifview match writes ({word!r})")
    who = CSA_ENDINGS[word]
    to_move = board.turn
    winner = {
        "other": 1 - to_move,
        "mover": to_move,
        "black": cshogi.BLACK,
        "white": cshogi.WHITE,
        None: None,
    }[who]
    if parsed.win is not None and parsed.win != cshogi.DRAW:
        want = cshogi.BLACK if parsed.win == cshogi.BLACK_WIN else cshogi.WHITE
        if want != winner:
            raise SystemExit(f"{path}: cshogi says {parsed.win}, the ending word {word}")
    header = {"局番": parsed.var_info.get("GAME")}
    return header, parsed.names, winner, word


def check(path):
    if path.endswith(".csa"):
        return check_csa(path)
    parsed = KIF.Parser.parse_file(path)
    board = cshogi.Board(parsed.sfen)
    for i, mv in enumerate(parsed.moves):
        if not board.is_legal(mv):
            raise SystemExit(f"{path}: move {i + 1} is illegal for cshogi")
        board.push(mv)
    text = open(path, encoding="utf-8").read()
    header = dict(
        line.split("：", 1) for line in text.splitlines() if "：" in line and not line.startswith("*")
    )
    last_word = None
    for line in text.splitlines():
        m = MOVE_LINE.match(line)
        if m:
            last_word = m.group(2)
    to_move = board.turn  # cshogi.BLACK or cshogi.WHITE
    if last_word in LOSS_FOR_MOVER:
        winner = 1 - to_move
    elif last_word in WIN_FOR_MOVER:
        winner = to_move
    elif last_word in DRAWS:
        winner = None
    else:
        raise SystemExit(f"{path}: no ending kifview match writes ({last_word!r})")
    if parsed.win is not None and parsed.win != cshogi.DRAW:
        want = cshogi.BLACK if parsed.win == cshogi.BLACK_WIN else cshogi.WHITE
        if want != winner:
            raise SystemExit(f"{path}: cshogi says {parsed.win}, the ending word {last_word}")
    names = parsed.names
    return header, names, winner, last_word


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    folder = argv[0]
    files = sorted(f for f in os.listdir(folder) if f.endswith((".kifu", ".csa")))
    a = b = None
    wins = {}
    draws = 0
    endings = {}
    for f in files:
        header, names, winner, word = check(os.path.join(folder, f))
        if header.get("局番") == "1" and a is None:
            a, b = names[0], names[1]
        endings[word] = endings.get(word, 0) + 1
        if winner is None:
            draws += 1
        else:
            wins[names[winner]] = wins.get(names[winner], 0) + 1
    result = {
        "games": len(files),
        "a": {"name": a, "wins": wins.get(a, 0)},
        "b": {"name": b, "wins": wins.get(b, 0)},
        "draws": draws,
        "endings": endings,
    }
    print(json.dumps(result, ensure_ascii=False))
    if len(argv) > 1:
        m = json.load(open(argv[1]))
        for k in ("games", "draws"):
            if m[k] != result[k]:
                print(f"{k}: match {m[k]}, files {result[k]}", file=sys.stderr)
                return 1
        for side in ("a", "b"):
            if m[side] != result[side]:
                print(f"{side}: match {m[side]}, files {result[side]}", file=sys.stderr)
                return 1
        print("the files agree with the match's JSON", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
