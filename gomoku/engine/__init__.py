"""The AI: pattern tables, evaluation and search (numba lives here only), on the rules core.

Importing this package points numba's cache at a folder of the user cache named by a hash of
the engine's sources (unless NUMBA_CACHE_DIR is set). Compiled functions inline code from
other files, and numba checks only a function's own file before reusing its cache: without
this, a change to threats.py could leave search.py running the old code. The user cache is
also writable when the package folder is not.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numba
import platformdirs


def engine_cache_dir(engine_folder: Path) -> Path:
    """numba's cache folder for the engine sources in `engine_folder` (one per version)."""
    digest = hashlib.sha256()
    for path in sorted(engine_folder.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    base = Path(platformdirs.user_cache_dir("gomoku", appauthor=False))
    return base / "numba" / digest.hexdigest()[:16]


if not numba.config.CACHE_DIR:  # NUMBA_CACHE_DIR, when set, wins
    numba.config.CACHE_DIR = str(engine_cache_dir(Path(__file__).parent))
