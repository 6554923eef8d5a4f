# Writes fuzz/dict/*.dict: libFuzzer dictionaries, each word as \x escapes (libFuzzer takes only
# printable ASCII literally) after a comment showing it; KIF words also in Shift_JIS.
# Run from fuzz/: python3 dict/mkdict.py dict
import sys
def esc(b):
    return ''.join(chr(c) if 0x20 <= c < 0x7f and chr(c) not in '"\\' else '\\x%02X' % c for c in b)
def out(path, header, words, sjis):
    seen = set()
    with open(path, 'w') as f:
        f.write(header)
        for w in words:
            f.write('# %s\n' % w.encode('unicode_escape').decode() if any(ord(c) < 0x20 or c == '\ufeff' for c in w) else '# %s\n' % w)
            for enc in (['utf-8', 'cp932'] if sjis else ['utf-8']):
                try:
                    b = w.encode(enc)
                except UnicodeEncodeError:
                    continue
                if b in seen:
                    continue
                seen.add(b)
                f.write('"%s"\n' % esc(b))
kif = """手合割： 平手 香落ち 角落ち 飛車落ち 二枚落ち 四枚落ち 六枚落ち 八枚落ち 十枚落ち 詰将棋 その他
先手： 後手： 下手： 上手： 開始日時： 終了日時： 棋戦： 戦型： 持ち時間： 場所： 表題： 作者： 発表誌：
手数----指手---------消費時間-- 手数＝ 変化： 手 まで 手で 先手の勝ち 後手の勝ち 中断 投了 千日手 持将棋
詰み 詰 不詰 切れ負け 反則勝ち 反則負け 入玉勝ち 不戦勝 不戦敗 最大手数 引き分け 封じ手 先手番 後手番
先手の持駒： 後手の持駒： 下手の持駒： 上手の持駒： なし 　 ： ・ v ▲ △ ☗ ☖ 同 同　 成 不成 打 生
歩 香 桂 銀 金 角 飛 玉 王 と 成香 成桂 成銀 馬 龍 竜 杏 圭 全
右 左 上 引 寄 直 行 入
一 二 三 四 五 六 七 八 九 十 １ ２ ３ ４ ５ ６ ７ ８ ９ ０
|一 |九 +---------------------------+ ９ ８ ７ ６ ５ ４ ３ ２ １
( 0:00/00:00:00) ( 1:23/01:02:03) 00:00:00 (77) (88) (99) (11) (19) (91)
#KIF #KIF~version=2.0~encoding=UTF-8 #KIF~version=2.0~encoding=Shift_JIS encoding=EUC-JP
* & # + -"""
words = [w.replace('~', ' ') for w in kif.split()] + ['\r', '\n', '\r\n', '\ufeff']
words += ['   1 ７六歩(77)', '   2 ３四歩(33)', '   1 ７六歩(77)   ( 0:16/00:00:16)', '▲７六歩', '△３四歩',
          '変化：2手', 'まで1手で先手の勝ち', '先手の持駒：歩十八　', '手合割：平手　　', '| ・v飛 ・ ・ ・ ・ ・v角 ・|二']
out(sys.argv[1] + '/kif.dict',
    '# KIF / KI2 / BOD keywords, in UTF-8 and Shift_JIS (generated; see README.md).\n', words, True)
csa = """V1 V2 V2.1 V2.2 V3.0 'CSA~encoding=UTF-8 'CSA~encoding=SHIFT_JIS N+ N- $EVENT: $SITE: $START_TIME: $END_TIME:
$TIME_LIMIT: $TIME: $OPENING: $MAX_MOVES: $JISHOGI: $NOTE: PI PI82HI22KA P1 P2 P3 P4 P5 P6 P7 P8 P9 P+ P- 00AL
+ - % , / ' '* '** T T0 T10 T1.5 %TORYO %CHUDAN %SENNICHITE %TIME_UP %ILLEGAL_MOVE %+ILLEGAL_ACTION
%-ILLEGAL_ACTION %JISHOGI %KACHI %HIKIWAKE %MATTA %TSUMI %FUZUMI %ERROR %MAX_MOVES
FU KY KE GI KI KA HI OU TO NY NK NG UM RY * -KY-KE-GI-KI-OU-KI-GI-KE-KY +KY+KE+GI+KI+OU+KI+GI+KE+KY
+7776FU -3334FU +8822UM -0055KA +0000FU P+00FU P-00AL"""
out(sys.argv[1] + '/csa.dict', '# CSA keywords (generated; see README.md).\n', [w.replace('~', ' ') for w in csa.split()] + ['\\r', '\\r\\n'] + ['P1 *  *  *  *  *  *  *  *  * ', ' * '], False)
jkf = ['{', '}', '[', ']', ':', ',', '"header"', '"initial"', '"preset"', '"HIRATE"', '"OTHER"', '"KY"', '"KA"', '"HI"',
       '"data"', '"board"', '"color"', '"kind"', '"hands"', '"moves"', '"move"', '"from"', '"to"', '"x"', '"y"', '"piece"',
       '"same"', '"promote"', '"capture"', '"relative"', '"special"', '"TORYO"', '"CHUDAN"', '"comments"', '"time"',
       '"now"', '"total"', '"m"', '"s"', '"h"', '"forks"', 'true', 'false', 'null', '"FU"', '"OU"', '"TO"', '"RY"',
       '"\\u0000"', '"\\ud800"', '1e999', '-0', '[[[[[[[[', '{"a":{"a":{"a":']
out(sys.argv[1] + '/jkf.dict', '# JSON Kifu Format keys and values (generated; see README.md).\n', jkf, False)
usi = ['position', 'startpos', 'sfen', 'moves', ' ', 'b', 'w', '-', '1', '+', '*', 'lnsgkgsnl', 'LNSGKGSNL', '1r5b1', '1B5R1',
       'ppppppppp', 'PPPPPPPPP', '9', '/', '7g7f', '3c3d', '8h2b+', 'P*5e', 'resign', 'win', '18P', 'G2r2b3g4s4n4l17p', 'usi', 'go', 'bestmove']
out(sys.argv[1] + '/usi.dict', '# USI / SFEN words (generated; see README.md).\n', usi, False)
