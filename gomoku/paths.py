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

import platformdirs

APP_NAME = "gomoku"
HOME_ENV = "GOMOKU_HOME"
SETTINGS_NAME = "settings.json"
AUTOSAVE_NAME = "autosave.gomoku"
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

    def ensure(self) -> UserPaths:
        """Create the folders if missing (the files are left alone); returns self.

        Raises OSError if a folder cannot be created (read-only disk, a file in the way).
        """
        for folder in (self.config_dir, self.data_dir, self.saves_dir):
            folder.mkdir(parents=True, exist_ok=True)
        return self


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
    )


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
