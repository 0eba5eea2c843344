"""Game clocks: pure time arithmetic fed a `now` (monotonic seconds); never reads the time."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TimeControl:
    """Seconds per side for the game, seconds added after each move, seconds per move (0 = none)."""

    game_s: int = 0
    increment_s: int = 0
    move_s: int = 0

    @property
    def is_untimed(self) -> bool:
        return self.game_s == 0 and self.move_s == 0
