"""numba's cache folder follows the engine's sources, so no stale compiled code survives an
upgrade (compiled functions inline code from other files, which numba does not track)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import gomoku.engine
from gomoku.engine import engine_cache_dir

ENGINE = Path(gomoku.engine.__file__).parent


def test_the_cache_folder_changes_with_any_engine_source(tmp_path):
    copy = tmp_path / "engine"
    shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = engine_cache_dir(copy)
    assert before == engine_cache_dir(copy)  # the same sources, the same folder
    threats = copy / "threats.py"
    threats.write_text(threats.read_text() + "\n# a change in one file only\n")
    assert engine_cache_dir(copy) != before


def test_the_engine_caches_in_the_user_cache_unless_told_otherwise(tmp_path):
    code = "import numba, gomoku.engine; print(numba.config.CACHE_DIR)"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    shown = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True).stdout.strip()
    assert Path(shown) == tmp_path / "cache" / "gomoku" / "numba" / engine_cache_dir(ENGINE).name
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    shown = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True).stdout.strip()
    assert shown == str(tmp_path / "mine")
