"""What rsshogi and cshogi read of kifview's books, and books they make for kifview.

Usage: python3 peers.py read DIR SFENS_FILE   -> JSON on stdout, one object per SFEN
       python3 peers.py write DIR SFENS_FILE  -> DIR/theirs.bin (Apery) and DIR/theirs.ybb

DIR holds kifview's book.db, book.ybb, book.bin and book.sbk (for `read`). Each SFEN line is
"<sfen> ply". Used by tests/integration/book/peers.rs; needs rsshogi, cshogi and numpy.
"""
import json
import sys

import cshogi
import numpy as np
import rsshogi.book as rb

APERY = np.dtype([("key", "<u8"), ("move", "<u2"), ("count", "<u2"), ("score", "<i4")])


def psfen(board):
    a = np.zeros(32, dtype=np.uint8)
    board.to_psfen(a)
    return a.tobytes()


def ybb_records(path):
    data = open(path, "rb").read()
    assert data[:16] == b"YANE-BINBOOK-V1\0", "magic"
    count = int.from_bytes(data[16:24], "little")
    flags = int.from_bytes(data[24:32], "little")
    size = 6 if flags & 1 else 4
    base = 32 + 44 * count
    out = {}
    for i in range(count):
        r = data[32 + 44 * i: 32 + 44 * (i + 1)]
        off = int.from_bytes(r[32:40], "little")
        ply = int.from_bytes(r[40:42], "little")
        n = int.from_bytes(r[42:44], "little")
        moves = []
        for j in range(n):
            m = data[base + off + size * j: base + off + size * (j + 1)]
            moves.append((int.from_bytes(m[0:2], "little"), int.from_bytes(m[2:4], "little", signed=True),
                          int.from_bytes(m[4:6], "little") if size == 6 else 0))
        out[r[:32]] = (ply, moves)
    keys = [r for r in out]
    return out, keys == sorted(keys)


def read(d, sfens):
    db = rb.YaneuraOuBook.open(f"{d}/book.db")
    sbk = rb.SbkBook.open(f"{d}/book.sbk")
    apery = np.fromfile(f"{d}/book.bin", dtype=APERY)
    ybb, ybb_sorted = ybb_records(f"{d}/book.ybb")
    result = {"db_diagnostics": db.diagnostics().kind, "ybb_sorted": ybb_sorted,
              "sbk_unresolved": sbk.diagnostics().unresolved_next_states, "positions": []}
    for sfen in sfens:
        board = cshogi.Board(sfen)
        one = {"sfen": sfen, "psfen": psfen(board).hex(), "apery_key": board.book_key()}
        e = db.lookup_sfen(sfen)
        one["db"] = None if e is None else {"ply": e.min_ply, "moves": [
            [m.mv.to_usi(), m.ponder.to_usi() if m.ponder is not None and int(m.ponder) != 0 else None,
             m.score, m.depth, m.count] for m in e.moves]}
        e = sbk.lookup_sfen(sfen)
        one["sbk"] = None if e is None else [[m.mv.to_usi(), m.weight] for m in e.moves]
        rows = apery[apery["key"] == board.book_key()]
        one["apery"] = [[cshogi.move_to_usi(board.move_from_move16(int(r["move"]))), int(r["count"]), int(r["score"])]
                        for r in rows]
        rec = ybb.get(psfen(board))
        one["ybb"] = None if rec is None else {"ply": rec[0], "moves": [
            [cshogi.move_to_usi(board.move_from_move16(cshogi.move16_from_psv(m))), v, dep] for m, v, dep in rec[1]]}
        result["positions"].append(one)
    print(json.dumps(result))


def write(d, sfens):
    """Their books: every legal move of each position, count i+1 and score 10*i by cshogi's order."""
    entries = []
    ybb = []
    for sfen in sfens:
        board = cshogi.Board(sfen)
        moves = list(board.legal_moves)[:5]
        for i, m in enumerate(moves):
            entries.append((board.book_key(), cshogi.move16(m), i + 1, 10 * i))
        ybb.append((psfen(board), board.move_number, [(cshogi.move16_to_psv(cshogi.move16(m)), 10 * i) for i, m in enumerate(moves)]))
    np.array(sorted(entries), dtype=APERY).tofile(f"{d}/theirs.bin")
    ybb.sort()
    out = bytearray(b"YANE-BINBOOK-V1\0") + len(ybb).to_bytes(8, "little") + (0).to_bytes(8, "little")
    body = bytearray()
    for p, ply, moves in ybb:
        out += p + len(body).to_bytes(8, "little") + ply.to_bytes(2, "little") + len(moves).to_bytes(2, "little")
        for m, v in moves:
            body += m.to_bytes(2, "little") + v.to_bytes(2, "little", signed=True)
    open(f"{d}/theirs.ybb", "wb").write(bytes(out + body))


if __name__ == "__main__":
    cmd, d, f = sys.argv[1:4]
    sfens = [l.strip() for l in open(f, encoding="utf-8") if l.strip()]
    {"read": read, "write": write}[cmd](d, sfens)
