"""The engine's numba cache folder and its "prepared" marker, worked out without importing numba.

Importing numba (and so `gomoku.engine`) takes a second or so; the menu asks at its first frame
whether the engine will be prepared (`gomoku.engine.prepare`), so the answer lives here, in a
module that imports no more than the standard library and platformdirs.
"""

from __future__ import annotations

import hashlib
import os
import re
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


MARKER_LIMIT = 256 * 1024  # bytes of a marker read at most (a real one is under 32 KiB)
DIGESTS_LINE = "cache files, sha256:\n"
"""The marker's line between the source stamp and the digests of the cache files it vouches for."""
CACHE_FILE = re.compile(r"^([^/]+)/([^/]+-\d+)\.py\d+\.(?:\d+\.nbc|nbi)$")
"""A numba cache file's path in the folder: `<sources>/<function>-<line>.py311.nbi` (the index)
or `...py311.<n>.nbc` (compiled code); group 2 names the function, whose files go together."""


def cache_files(folder: Path) -> list[Path]:
    """numba's index and code files in `folder` (a subfolder per engine source tree)."""
    return sorted(path for path in folder.glob("*/*.nb[ic]") if path.is_file())


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def marker_text(folder: Path, stamp: str) -> str:
    """A complete cache's marker: the source stamp, then each cache file's digest and path, so
    a file changed on disk later (bit rot, a stray write) is noticed before its code runs."""
    digests = "".join(f"{file_digest(path)} {path.relative_to(folder).as_posix()}\n"
                      for path in cache_files(folder))
    return stamp + DIGESTS_LINE + digests


def read_marker(marker: Path) -> str:
    """The marker's text; '' for a file too large to be ours (read no further)."""
    with marker.open("rb") as file:
        raw = file.read(MARKER_LIMIT + 1)
    return "" if len(raw) > MARKER_LIMIT else raw.decode("utf-8")


def marker_matches(marker: Path, stamp: str) -> bool:
    """True if the marker file was written for sources with `stamp` (its digests unchecked)."""
    return read_marker(marker).partition(DIGESTS_LINE)[0] == stamp


def changed_cache_files(folder: Path, marker: Path) -> list[str] | None:
    """The cache files the marker vouches for (paths in `folder`) whose content changed or
    that are gone; [] if none, None if the marker lists no digests (cut short, or hand-made):
    then nothing in the folder is vouched for. A file compiled after the marker (a function
    no part loads, such as a tool's) is not the game's concern and not counted."""
    _stamp, found, listed = read_marker(marker).partition(DIGESTS_LINE)
    if not found:
        return None
    expected: dict[str, str] = {}
    for line in listed.splitlines():
        digest, _, name = line.partition(" ")
        parts = name.split("/")
        if (len(digest) != 64 or len(parts) != 2 or not name.endswith((".nbi", ".nbc"))
                or {"", ".", ".."} & set(parts) or "\\" in name):  # (nor a path out of the folder)
            return None
        expected[name] = digest
    changed = []
    for name, digest in sorted(expected.items()):
        path = folder / name
        if not path.is_file() or file_digest(path) != digest:
            changed.append(name)
    return changed


def function_files(folder: Path, names: list[str]) -> list[Path]:
    """Every cache file of the functions the named files belong to (their index and code go
    together: numba compiles a function again only when both are gone)."""

    def function(name: str) -> tuple[str, ...] | str:
        match = CACHE_FILE.match(name)
        return match.groups() if match else name

    wanted = {function(name) for name in names}
    return [path for path in cache_files(folder)
            if function(path.relative_to(folder).as_posix()) in wanted]


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
