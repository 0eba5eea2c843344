"""One module per scene; the app imports each lazily by name (see gomoku.ui.app.SCENES).

This package module also holds the option lists the menu and the settings scene both offer,
so the two show the same choices with the same words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gomoku.core.settings import Settings
    from gomoku.ui.widgets import Choice

LEVEL_OPTIONS: list[tuple[str, str]] = [("easy", "Easy"), ("medium", "Medium"), ("hard", "Hard")]
COLOR_OPTIONS: list[tuple[str, str]] = [("black", "Black (first)"), ("white", "White"), ("random", "Random")]
RULE_OPTIONS: list[tuple[str, str]] = [
    ("freestyle", "Freestyle"), ("standard", "Standard"), ("renju", "Renju"),
]
FREESTYLE_SIZES: list[tuple[int, str]] = [(15, "15 x 15"), (19, "19 x 19"), (20, "20 x 20")]

TimeControlValue = tuple[int, int, int]
"""(game_s, increment_s, move_s), 0 meaning none, as in Settings and the board's enter data."""

TIME_CONTROL_PRESETS: list[TimeControlValue] = [
    (0, 0, 0),
    (0, 0, 10),
    (0, 0, 30),
    (0, 0, 60),
    (180, 2, 0),
    (300, 3, 0),
    (600, 5, 0),
    (900, 10, 0),
    (1800, 0, 0),
]


def time_control_label(value: TimeControlValue) -> str:
    """Plain words for a time control, e.g. 'None', '30 s a move', '5 min + 3 s'."""
    game_s, increment_s, move_s = value
    parts = []
    if game_s:
        minutes, seconds = divmod(game_s, 60)
        text = f"{minutes} min" if not seconds else f"{minutes}:{seconds:02d}"
        if increment_s:
            text += f" + {increment_s} s"
        parts.append(text)
    if move_s:
        parts.append(f"{move_s} s a move")
    return ", ".join(parts) if parts else "None"


def time_control_options(current: TimeControlValue) -> list[tuple[TimeControlValue, str]]:
    """The presets as Choice options, plus `current` if it is a custom one (from the file)."""
    values = list(TIME_CONTROL_PRESETS)
    if current not in values:
        values.append(current)
    return [(value, time_control_label(value)) for value in values]


def size_options(rule: str) -> list[tuple[int, str]]:
    """Board sizes allowed for `rule`: 15, 19 and 20 for freestyle; 15 only otherwise."""
    return FREESTYLE_SIZES if rule == "freestyle" else FREESTYLE_SIZES[:1]


def offer_sizes(choice: Choice, rule: str, wanted: int) -> None:
    """Show `rule`'s board sizes in `choice`, `wanted` selected where the rule allows it (a custom
    freestyle size from the settings file is offered too); only freestyle has a choice to make."""
    options = size_options(rule)
    if rule == "freestyle" and wanted not in [value for value, _ in options]:
        options = [*options, (wanted, f"{wanted} x {wanted}")]
    choice.set_options(options, wanted)
    choice.enabled = len(options) > 1


def remember_choices(settings: Settings, rule: str, size: int, time_control: TimeControlValue,
                     color: str | None = None) -> None:
    """Keep a game's choices (vs Computer, Two players, hosting a duel) as the next defaults;
    a standard or renju game leaves the freestyle board size as it was. The caller saves."""
    settings.rule = rule
    if rule == "freestyle":
        settings.board_size = size
    settings.game_s, settings.increment_s, settings.move_s = time_control
    if color is not None:
        settings.human_color = color
