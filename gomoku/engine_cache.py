"""The engine's numba cache folder and its "prepared" marker, worked out without importing numba.

Importing numba (and so `gomoku.engine`) takes a second or so; the menu asks at its first frame
whether the engine will be prepared (`gomoku.engine.prepare`), so the answer lives here, in a
module that imports no more than the standard library and platformdirs.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib.metadata import version
from pathlib import Path

import platformdirs

ENGINE_FOLDER = Path(__file__).parent / "engine"
WARM_PARTS = 10
"""len(gomoku.engine.driver.WARM_TASKS), the parts a preparation counts (a test checks it)."""


def engine_cache_dir(engine_folder: Path) -> Path:
    """numba's cache folder for the engine sources in `engine_folder` (one per version)."""
    digest = hashlib.sha256()
    for path in sorted(engine_folder.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    base = Path(platformdirs.user_cache_dir("gomoku", appauthor=False))
    return base / "numba" / digest.hexdigest()[:16]


def marker_name(numba_version: str) -> str:
    """The marker file's name: numba's and Python's versions, whose compiled code it vouches for."""
    return f"prepared-{numba_version}-py{sys.version_info[0]}{sys.version_info[1]}"


def source_stamp(engine_folder: Path = ENGINE_FOLDER) -> str:
    """The engine files' modification times and sizes: numba's cache is valid for these only
    (a reinstall of the same sources gives new times, and numba compiles again)."""
    stamps = []
    for path in sorted(engine_folder.glob("*.py")):
        info = path.stat()
        stamps.append(f"{path.name} {info.st_mtime} {info.st_size}")
    return "\n".join(stamps) + "\n"


MARKER_LIMIT = 64 * 1024  # bytes of a marker read at most (a real one is under 2 KiB)


def marker_matches(marker: Path, stamp: str) -> bool:
    """True if the marker file holds `stamp`; a file too large to be ours is read no further."""
    with marker.open("rb") as file:
        return file.read(MARKER_LIMIT + 1).decode("utf-8") == stamp


def prepared_in(folder: Path, numba_version: str) -> bool:
    """True if `folder`'s marker says it holds a complete cache of these engine files for this
    numba and Python; False when in doubt (no marker, an unreadable one)."""
    try:
        return marker_matches(folder / marker_name(numba_version), source_stamp())
    except (OSError, UnicodeDecodeError):
        return False


def is_prepared() -> bool:
    """`gomoku.engine.prepare.is_prepared()` without numba: True if the marker says the cache
    is complete. False when in doubt (the app's loader then asks the real check)."""
    try:
        folder = Path(os.environ.get("NUMBA_CACHE_DIR") or engine_cache_dir(ENGINE_FOLDER))
        return prepared_in(folder, version("numba"))
    except Exception:  # any doubt (no numba metadata, an unreadable file): "not prepared"
        return False
