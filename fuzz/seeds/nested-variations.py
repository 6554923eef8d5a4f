# Writes a KIF record whose variations nest N deep (each variation branches off the previous
# one a move later), e.g. tests/fixtures/fuzz/kif-variations-nested-45-jkf-writes-unreadable.kifu:
# python3 nested-variations.py 45 > FILE
import sys
D = int(sys.argv[1])
Z = "０１２３４５６７８９"
K = "〇一二三四五六七八九"
def sq(f, r): return Z[f] + K[r]
def mv(p, f, r, src, plus=False):
    return "%4d %s(%s)%s" % (p, sq(f, r) + ("飛"), src, "+" if plus else "")
# rook squares along the deep path
b, w = 28, 82
def alt(p):
    global b, w
    if p % 2:  # black
        nb = 38 if b == 28 else 28
        s = mv(p, nb // 10, nb % 10, b); b = nb
    else:
        nw = 72 if w == 82 else 82
        s = mv(p, nw // 10, nw % 10, w); w = nw
    return s
def main(p, plus):
    if p % 2: return mv(p, 4, 8, b, plus)
    return mv(p, 6, 2, w, plus)
out = ["手合割：平手", "手数----指手---------消費時間--", main(1, True), main(2, False), ""]
for k in range(1, D + 1):
    out.append("変化：%d手" % k)
    out.append(alt(k))
    out.append(main(k + 1, k < D))
    out.append("")
sys.stdout.write("\n".join(out))
