#!/bin/sh
# Makes NotoSerifCJKjp-diagram.otf, the glyphs a diagram draws (kifview's src/diagram), from
# Noto Serif CJK JP Regular (Debian: fonts-noto-cjk; PyPI: fonttools for pyftsubset).
# The glyphs: diagram-glyphs.txt, printable ASCII, full-width ASCII, hiragana and katakana.
set -eu
cd "$(dirname "$0")"
pyftsubset /usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc --font-number=0 \
  --text-file=diagram-glyphs.txt \
  --unicodes='U+0020-007E,U+FF01-FF5E,U+3041-3096,U+309B-309C,U+30A1-30FA,U+30FC' \
  --layout-features='vert,vrt2,palt,kern' --name-IDs='*' --name-languages='*' \
  --no-hinting --desubroutinize --output-file=NotoSerifCJKjp-diagram.otf
