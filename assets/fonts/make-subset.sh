#!/bin/sh
# Makes NotoSerifCJKjp-diagram.otf, the glyphs a diagram draws (kifview's src/diagram), from
# Noto Serif CJK JP Regular (Debian: fonts-noto-cjk; PyPI: fonttools for pyftsubset).
# The glyphs: diagram-glyphs.txt, the 2,965 kanji of JIS X 0208 level 1 (jis-level1-kanji.txt:
# rows 16-47, the kanji of nearly every player's name and event), printable ASCII, full-width
# ASCII, hiragana and katakana.
set -eu
cd "$(dirname "$0")"
cat diagram-glyphs.txt jis-level1-kanji.txt > /tmp/kifview-diagram-glyphs.txt
pyftsubset /usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc --font-number=0 \
  --text-file=/tmp/kifview-diagram-glyphs.txt \
  --unicodes='U+0020-007E,U+FF01-FF5E,U+3041-3096,U+309B-309C,U+30A1-30FA,U+30FC' \
  --layout-features='vert,vrt2,palt,kern' --name-IDs='*' --name-languages='*' \
  --no-hinting --output-file=NotoSerifCJKjp-diagram.otf
