"""An installed copy (not the checkout, not the editable install) has every module and every
bundled font and sound, and the game loads each of them from there.

The fonts and sounds live in the top-level assets/ folder and reach the package as gomoku.assets
only through pyproject.toml's mapping: this is the test that notices when that mapping, or a
package in its hand-written list, is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "gomoku", "assets")
JUNK = shutil.ignore_patterns("__pycache__", "*.py[cod]", "*.nbi", "*.nbc", "*.egg-info")

# Run with only the installed copy importable: the editable install's finder (it would answer
# for gomoku from the checkout) is taken out of sys.meta_path first.
PROBE = r"""
import importlib.machinery, json, os, sys
from pathlib import Path

site = Path(sys.argv[1]).resolve()
sys.meta_path[:] = [f for f in sys.meta_path if f.__module__.startswith(("_frozen", "importlib"))
                    or f is importlib.machinery.PathFinder]
sys.path.insert(0, str(site))
import pygame

from gomoku.paths import assets_dir
from gomoku.ui import audio, theme

pygame.font.init()
pygame.mixer.init()
found, loaded = assets_dir(), []
for path in sorted(p for p in found.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
    if path.suffix in (".ttf", ".otf"):
        assert pygame.font.Font(path, 24).render("Gomoku", True, (0, 0, 0)).get_width() > 0
    elif path.suffix == ".wav":
        assert pygame.mixer.Sound(path).get_length() > 0
    else:
        assert path.read_bytes()
    loaded.append(path.relative_to(found).as_posix())
modules = sorted(p.relative_to(site).as_posix() for p in (site / "gomoku").rglob("*.py"))
print(json.dumps({"assets_dir": str(found), "loaded": loaded, "modules": modules,
                  "fonts": [str(f) for f in theme.FONT_FILES.values()], "sounds": str(audio.SOUNDS_DIR)}))
"""


def test_an_installed_copy_finds_and_loads_every_font_and_sound(tmp_path) -> None:
    source, site = tmp_path / "source", tmp_path / "site"
    source.mkdir()
    for name in SOURCES:  # a copy, so the build leaves nothing in the checkout
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=JUNK)
        else:
            shutil.copy2(ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(site), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    probe = subprocess.run([sys.executable, "-c", PROBE, str(site)], capture_output=True, text=True,
                           cwd=tmp_path, env=env, timeout=120)
    assert probe.returncode == 0, probe.stderr
    report = json.loads(probe.stdout.strip().splitlines()[-1])

    assert Path(report["assets_dir"]) == site / "gomoku" / "assets"
    assert all(Path(font).is_relative_to(site) for font in report["fonts"])
    assert Path(report["sounds"]).is_relative_to(site)
    wanted = sorted(p.relative_to(ROOT / "assets").as_posix() for p in (ROOT / "assets").rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts)
    assert report["loaded"] == wanted  # every file of assets/, each loaded from the installed copy
    assert any(name.endswith(".otf") for name in wanted) and any(name.endswith(".wav") for name in wanted)
    checkout = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "gomoku").rglob("*.py"))
    assert [m for m in checkout if m not in report["modules"]] == []  # no package left out


def test_a_checkout_run_without_installing_finds_the_assets_beside_gomoku(tmp_path) -> None:
    """As tools/cold_start.py --source runs another copy: no install, the checkout on sys.path."""
    probe = (
        "import importlib.machinery, sys\n"
        "sys.meta_path[:] = [f for f in sys.meta_path if f.__module__.startswith(('_frozen', 'importlib'))"
        " or f is importlib.machinery.PathFinder]\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from gomoku.paths import assets_dir\n"
        "print(assets_dir())\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()) == ROOT / "assets"
    assert (ROOT / "assets" / "fonts" / "DejaVuSans.ttf").is_file()
