#!/usr/bin/env python3
"""Make the bundled CJK fallback font: Noto Sans CJK SC cut down to the characters of names.

    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools
    apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb noto
    /tmp/ft/bin/python tools/subset_cjk_font.py noto/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc

The full face is 19 MB of a 20 MB collection; names need far less. The subset keeps every
character of GB2312 (simplified Chinese), Big5 level 1 (common traditional Chinese), JIS X 0208
(Japanese kanji and kana) and KS X 1001 (Korean hangul), plus CJK punctuation, kana and
half-width forms: about 14,000 characters in 2.9 MB. Latin, digits and signs stay with DejaVu.
fonttools is needed only here, not by the game. The font is under the SIL Open Font License 1.1
(see OFL-NotoSansCJK.txt beside it); its name has no reserved word, so the subset keeps it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "assets" / "fonts" / "NotoSansCJKsc-Subset.otf"
SC_FACE = 2  # Noto Sans CJK SC in NotoSansCJK-Regular.ttc (JP, KR, SC, TC, HK, then Mono)


def _double_byte(codec: str, leads: range | list[int], trails: range | list[int]) -> set[str]:
    found: set[str] = set()
    for lead in leads:
        for trail in trails:
            try:
                found.update(bytes([lead, trail]).decode(codec))
            except UnicodeDecodeError:
                continue
    return found


def charset() -> list[str]:
    """The characters kept, in code point order (all above U+2E7F: DejaVu draws the rest)."""
    chars = _double_byte("gb2312", range(0xA1, 0xF8), range(0xA1, 0xFF))
    chars |= _double_byte("big5", range(0xA1, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    chars |= _double_byte("shift_jis", [*range(0x81, 0xA0), *range(0xE0, 0xF0)],
                          [*range(0x40, 0x7F), *range(0x80, 0xFD)])
    chars |= _double_byte("euc_kr", range(0xA1, 0xFF), range(0xA1, 0xFF))
    chars |= {chr(c) for c in range(0x3000, 0x3100)}  # CJK punctuation, hiragana, katakana
    chars |= {chr(c) for c in range(0xFF61, 0xFFA0)}  # half-width katakana
    return sorted(c for c in chars if ord(c) > 0x2E7F)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("collection", type=Path, help="NotoSansCJK-Regular.ttc from fonts-noto-cjk")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    chars = charset()
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write("\n".join(f"U+{ord(c):04X}" for c in chars))
    subprocess.run(
        [sys.executable, "-m", "fontTools.subset", str(args.collection), f"--font-number={SC_FACE}",
         f"--unicodes-file={listing.name}", f"--output-file={args.out}", "--layout-features=",
         "--no-hinting"],
        check=True,
    )
    Path(listing.name).unlink()
    print(f"{args.out}: {len(chars)} characters, {args.out.stat().st_size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
