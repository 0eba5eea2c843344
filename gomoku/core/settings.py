"""The player's settings: a plain dataclass, loaded from and saved to a JSON file.

Board size: 15 to 20 is kept for freestyle only; standard and renju are played on 15x15
(their rules and opening books are made for it), so `effective_board_size` is 15 for them
while `board_size` remembers the player's freestyle choice.

A damaged file never stops the game: `load_settings` falls back to defaults, keeps the bad
file aside as `<name>.bak` and returns a warning in plain words for the UI to show. The file
is read by the rule of gomoku.core.inputs: a regular file of at most MAX_SETTINGS_BYTES, JSON
of bounded nesting and numbers (a UTF-8 BOM is accepted), a printable name.
"""

from __future__ import annotations

import ipaddress
import json
import math
import os
import shutil
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from gomoku.core.clock import TimeControl
from gomoku.core.files import write_atomic
from gomoku.core.inputs import InputError, load_json, read_bounded
from gomoku.core.types import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, Rule

LEVELS = ("easy", "medium", "hard")
RULES = tuple(rule.value for rule in Rule)
HUMAN_COLORS = ("black", "white", "random")
MAX_NAME_LENGTH = 24
MAX_MOVE_S = 3600
MAX_GAME_S = 4 * 3600
MAX_INCREMENT_S = 600
MAX_SETTINGS_BYTES = 64 * 1024  # the file is under 1 KiB; anything much larger is not ours


@dataclass
class Settings:
    """Everything the player can choose; field values are plain JSON types."""

    player_name: str = "Player"
    guest_name: str = "Guest"  # the second player in a game for two on this screen
    level: str = "medium"  # easy / medium / hard
    rule: str = "freestyle"  # freestyle / standard / renju
    move_s: int = 0  # per-move countdown in seconds, 0 = none
    game_s: int = 0  # time per side for the whole game in seconds, 0 = none
    increment_s: int = 0  # seconds added after each move
    board_size: int = DEFAULT_SIZE  # 15..20, used for freestyle only
    sfx_volume: float = 0.8
    music_volume: float = 0.5
    mute: bool = False
    show_move_numbers: bool = False
    show_coordinates: bool = True
    fullscreen: bool = True
    human_color: str = "black"  # black / white / random
    lan_interface: str = ""  # "" = all interfaces; "127.0.0.1" keeps LAN play on loopback

    @property
    def rule_value(self) -> Rule:
        return Rule(self.rule)

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(game_s=self.game_s, increment_s=self.increment_s, move_s=self.move_s)

    @property
    def effective_board_size(self) -> int:
        """The size a new game is played on: `board_size` for freestyle, 15 otherwise."""
        return self.board_size if self.rule == Rule.FREESTYLE.value else DEFAULT_SIZE

    def problems(self) -> dict[str, str]:
        """Each field whose value is not allowed, with why in plain words (empty when all good)."""
        found = {}
        for name, value in asdict(self).items():
            error = check_value(name, value)
            if error is not None:
                found[name] = error
        return found


# --- validation ----------------------------------------------------------------------------


def _choice(options: tuple[str, ...]) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, str) and value in options:
            return None
        return "must be one of " + ", ".join(options)

    return check


def _whole(low: int, high: int) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return None
        return f"must be a whole number from {low} to {high}"

    return check


def _fraction(value: Any) -> str | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        if 0.0 <= value <= 1.0:
            return None
    return "must be a number from 0 to 1"


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def _name(value: Any) -> str | None:
    if (
        isinstance(value, str)
        and len(value) <= MAX_NAME_LENGTH
        and value.strip()
        and value.isprintable()  # no NUL, control or format character, no lone surrogate
    ):
        return None
    return f"must be 1 to {MAX_NAME_LENGTH} printable characters"


def _interface(value: Any) -> str | None:
    if isinstance(value, str):
        if value == "":
            return None
        try:
            ipaddress.ip_address(value)
            return None
        except ValueError:
            pass
    return 'must be empty (all interfaces) or an IP address such as "127.0.0.1"'


_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "player_name": _name,
    "guest_name": _name,
    "level": _choice(LEVELS),
    "rule": _choice(RULES),
    "move_s": _whole(0, MAX_MOVE_S),
    "game_s": _whole(0, MAX_GAME_S),
    "increment_s": _whole(0, MAX_INCREMENT_S),
    "board_size": _whole(MIN_SIZE, MAX_SIZE),
    "sfx_volume": _fraction,
    "music_volume": _fraction,
    "mute": _flag,
    "show_move_numbers": _flag,
    "show_coordinates": _flag,
    "fullscreen": _flag,
    "human_color": _choice(HUMAN_COLORS),
    "lan_interface": _interface,
}
assert set(_CHECKS) == {f.name for f in fields(Settings)}, "every setting needs a check"


def check_value(name: str, value: Any) -> str | None:
    """Why `value` is not allowed for setting `name` (plain words), or None if it is fine.

    Raises KeyError for a name that is not a setting.
    """
    return _CHECKS[name](value)


def _normalise(name: str, value: Any) -> Any:
    """JSON gives 1 for 1.0 and 30.0 for 30: coerce numbers to the field's own type."""
    default = getattr(Settings(), name)
    if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if (
        isinstance(default, int)
        and not isinstance(default, bool)
        and isinstance(value, float)
        and value.is_integer()
    ):
        return int(value)
    return value


# --- load / save ---------------------------------------------------------------------------


def load_settings(path: str | os.PathLike[str]) -> tuple[Settings, str | None]:
    """Read settings from `path`: (settings, None) when all is well or the file is missing.

    A file that cannot be used (unreadable, not a regular file, too large, not UTF-8, not a
    JSON object, nested too deeply) is moved aside to `<name>.bak`, once: the next start finds
    no file and says nothing; the defaults are returned with a warning. Single bad values
    (a number out of bounds among them) fall back to their defaults (the others are kept), the
    file is copied to `<name>.bak`, and a warning names them. Unknown keys are ignored.
    Never raises for a bad or unreadable file.
    """
    source = Path(path)
    backup = source.with_name(source.name + ".bak")
    try:
        text = read_bounded(source, MAX_SETTINGS_BYTES).decode("utf-8-sig")
        data = load_json(text)
    except FileNotFoundError:
        return Settings(), None
    except UnicodeDecodeError:
        return Settings(), _set_aside(source, backup, "it is not a text file")
    except InputError as error:
        return Settings(), _set_aside(source, backup, str(error))
    except OSError as error:
        # Unreadable (e.g. mode 000): the next save would replace it, so keep it aside now.
        return Settings(), _set_aside(source, backup, f"it could not be read: {error.strerror or error}")
    if not isinstance(data, dict):
        return Settings(), _set_aside(source, backup, "it does not hold a set of named values")

    values: dict[str, Any] = {}
    bad: list[str] = []
    for setting in fields(Settings):
        if setting.name not in data:
            continue
        value = _normalise(setting.name, data[setting.name])
        problem = check_value(setting.name, value)
        if problem is None:
            values[setting.name] = value
        else:
            bad.append(f"{setting.name} ({problem})")
    settings = Settings(**values)
    if not bad:
        return settings, None
    kept = _copy_aside(source, backup)
    return settings, (
        "Some settings were not valid and are back to their defaults: "
        + "; ".join(bad)
        + ". "
        + kept
    )


def save_settings(settings: Settings, path: str | os.PathLike[str]) -> None:
    """Write `settings` to `path` as JSON, atomically (the old file stays whole on failure).

    Raises ValueError naming the bad fields if a value is not allowed (nothing is written),
    OSError if the file cannot be written.
    """
    problems = settings.problems()
    if problems:
        raise ValueError(
            "cannot save settings: " + "; ".join(f"{name} {why}" for name, why in problems.items())
        )
    write_atomic(path, json.dumps(asdict(settings), indent=2, ensure_ascii=False) + "\n")


def _set_aside(source: Path, backup: Path, why: str) -> str:
    try:
        os.replace(source, backup)
    except OSError:
        return f"The settings file {source} cannot be used ({why}); using the defaults."
    return f"The settings file was damaged ({why}); it was kept as {backup.name} and the defaults are in use."


def _copy_aside(source: Path, backup: Path) -> str:
    try:
        shutil.copyfile(source, backup)
    except OSError:
        return ""
    return f"The original file was kept as {backup.name}."
