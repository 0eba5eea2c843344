"""tools/screens.py: the screenshots issue 9 compares, drawn by the real app without a screen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pygame

ROOT = Path(__file__).resolve().parent.parent
STATES = ("midgame", "gameover", "countdown", "renju", "savedialog")


def test_every_state_is_written_as_a_png_of_the_window_size(tmp_path) -> None:
    out = tmp_path / "shots"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "screens.py"), "--out", str(out),
                           "--sizes", "640x400"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    pictures = {}
    for state in STATES:
        path = out / f"{state}-640x400.png"
        assert path.is_file(), f"{path.name} missing; wrote {sorted(p.name for p in out.iterdir())}"
        picture = pygame.image.load(str(path))
        assert picture.get_size() == (640, 400)
        pictures[state] = pygame.image.tobytes(picture, "RGB")
    assert len(set(pictures.values())) == len(STATES)  # five different pictures, none blank twice
