"""Where a player's files live (settings, saved games and the autosave), and where the game's
own fonts and sounds are (`assets_dir`).

By default the platform's user folders (platformdirs, app name "gomoku"), e.g. on Linux
`~/.config/gomoku/settings.json`, `~/.local/share/gomoku/saves/` and
`~/.local/share/gomoku/autosave.gomoku`. Setting the environment variable GOMOKU_HOME (or
passing `home`) puts everything under that one folder instead: for tests and portable use.
Nothing is created at import time or by `user_paths`; call `UserPaths.ensure()`.
"""

from __future__ import annotations

import importlib.resources
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

try:
    import fcntl
except ImportError:  # Windows: msvcrt's lock instead
    fcntl = None

APP_NAME = "gomoku"
HOME_ENV = "GOMOKU_HOME"
SETTINGS_NAME = "settings.json"
AUTOSAVE_NAME = "autosave.gomoku"
AUTOSAVE_LOCK_NAME = ".autosave.lock"  # hidden: a player has nothing to do with it
SAVES_NAME = "saves"
SOURCE_ASSETS = Path(__file__).resolve().parent.parent / "assets"
"""The top-level assets/ folder of a source checkout, for a checkout run without installing."""


@dataclass(frozen=True)
class UserPaths:
    """The folders and files the game reads and writes for one player."""

    config_dir: Path
    data_dir: Path
    saves_dir: Path
    settings_file: Path
    autosave_file: Path
    autosave_lock_file: Path  # held by the copy of the game that keeps the autosave

    def ensure(self) -> UserPaths:
        """Create the folders if missing (the files are left alone); returns self.

        Raises OSError if a folder cannot be created (read-only disk, a file in the way).
        """
        for folder in (self.config_dir, self.data_dir, self.saves_dir):
            folder.mkdir(parents=True, exist_ok=True)
        return self


def shown_path(path: Path | str) -> str:
    """`path` as a player reads it: bytes that are not UTF-8 (kept by Python as lone
    surrogates, which no text drawing shows) become U+FFFD, so none silently disappears."""
    return os.fsencode(path).decode("utf-8", "replace")


def user_paths(home: Path | str | None = None) -> UserPaths:
    """The paths to use: under `home` if given, else under $GOMOKU_HOME if set and not empty,
    else the platform's user config and data folders. Touches nothing on disk."""
    if home is None and os.environ.get(HOME_ENV, "").strip():
        home = os.environ[HOME_ENV].strip()
    if home is not None:
        root = Path(home).expanduser().absolute()
        config_dir = data_dir = root
    else:
        config_dir = Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
        data_dir = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    return UserPaths(
        config_dir=config_dir,
        data_dir=data_dir,
        saves_dir=data_dir / SAVES_NAME,
        settings_file=config_dir / SETTINGS_NAME,
        autosave_file=data_dir / AUTOSAVE_NAME,
        autosave_lock_file=data_dir / AUTOSAVE_LOCK_NAME,
    )


class AutosaveLock:
    """Whether this copy of the game keeps the autosave: the first copy started on these files.

    A second copy (launched twice, or two windows for a LAN duel on one computer) writing the
    same file would overwrite the first one's game, and clear it when its own game ended; then
    a crash of the first lost its game. So only the holder of this lock, an OS lock on a file
    beside the autosave (released when the process ends, even by a crash), reads and writes
    the autosave. Where no lock file can be made, nothing else could share it either: held.
    """

    def __init__(self, path: Path) -> None:
        self._handle: Any = None
        self.held = True
        try:
            handle = open(path, "a+b")  # noqa: SIM115 (kept open: the lock lives as long as it)
        except OSError:
            return
        if _try_lock(handle):
            self._handle = handle
        else:
            handle.close()
            self.held = False

    def release(self) -> None:
        """Let the next copy started have the autosave (closing the file drops the lock)."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def _try_lock(handle: Any) -> bool:
    """An exclusive lock on the open file `handle` without waiting; False if another holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # Windows
            import msvcrt

            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
    except BlockingIOError:
        return False
    except OSError:
        return fcntl is not None  # (a file system without locks: as if alone; Windows: taken)
    return True


def assets_dir() -> Path:
    """The folder of the bundled fonts and sounds (`fonts/`, `sounds/`).

    In the source it is the top-level assets/ folder; pyproject.toml installs it as the package
    `gomoku.assets`, found the same way in a wheel, `pip install .` and `pip install -e .`. A
    checkout put on sys.path without installing it (tools/cold_start.py --source) has no such
    package: there the folder beside gomoku/ is used.
    """
    try:
        return Path(str(importlib.resources.files("gomoku.assets")))
    except ModuleNotFoundError:
        return SOURCE_ASSETS
