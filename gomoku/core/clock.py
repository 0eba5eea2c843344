"""Game clocks: pure time arithmetic fed a `now` (monotonic seconds); never reads the time.

A `Clock` keeps each side's remaining game time (Fischer increment added after each move)
and an optional per-move countdown that restarts every move. The caller passes `now`
(e.g. time.monotonic()) to every call, so tests and replays need no sleeping.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from gomoku.core.types import Color

MAX_CONTROL_S = 366 * 24 * 3600
"""No time control value above a year: a bound, so hostile numbers cannot overflow a float."""
MAX_CLOCK_MS = 10**12
"""No clock figure above about 30 years (increments can push time left past the control)."""


@dataclass(frozen=True)
class TimeControl:
    """Seconds per side for the game, seconds added after each move, seconds per move (0 = none).

    Raises ValueError unless all three are whole numbers from 0 to MAX_CONTROL_S."""

    game_s: int = 0
    increment_s: int = 0
    move_s: int = 0

    def __post_init__(self) -> None:
        values = (self.game_s, self.increment_s, self.move_s)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise ValueError(f"time control values must be whole seconds, not {_shown(values)}")
        if min(values) < 0:
            raise ValueError(f"time control values must not be negative: {_shown(values)}")
        if max(values) > MAX_CONTROL_S:
            raise ValueError(f"time control values must be at most a year ({MAX_CONTROL_S} s)")

    @property
    def is_untimed(self) -> bool:
        """True when neither a game limit nor a move limit applies (the clock only measures)."""
        return self.game_s == 0 and self.move_s == 0


@dataclass(frozen=True)
class ClockState:
    """A clock frozen in milliseconds, for the autosave and the LAN `sync`.

    `black_ms`/`white_ms` are the game time left (0 when there is no game limit); `move_ms` is
    the time the side to move has already used on its current move. Each is checked to be
    whole milliseconds from 0 to MAX_CLOCK_MS (ValueError otherwise).
    """

    black_ms: int
    white_ms: int
    to_move: Color
    move_ms: int = 0

    def __post_init__(self) -> None:
        """Raises ValueError unless every time is a whole number from 0 to MAX_CLOCK_MS."""
        for number in (self.black_ms, self.white_ms, self.move_ms):
            if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= MAX_CLOCK_MS:
                raise ValueError(
                    f"clock times must be whole milliseconds from 0 to {MAX_CLOCK_MS}, not {_shown(number)}"
                )

    def to_dict(self) -> dict[str, Any]:
        return {
            "black_ms": self.black_ms,
            "white_ms": self.white_ms,
            "to_move": self.to_move.label,
            "move_ms": self.move_ms,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ClockState:
        """The inverse of to_dict; raises ValueError in plain words on bad data (including
        times over MAX_CLOCK_MS)."""
        if not isinstance(data, dict):
            raise ValueError("clock state must be a mapping")
        try:
            label = data["to_move"]
            numbers = [data["black_ms"], data["white_ms"], data.get("move_ms", 0)]
        except KeyError as missing:
            raise ValueError(f"clock state lacks {missing}") from None
        if label not in (Color.BLACK.label, Color.WHITE.label):
            raise ValueError(f"the side to move must be black or white, not {_shown(label)}")
        to_move = Color.BLACK if label == Color.BLACK.label else Color.WHITE
        return cls(numbers[0], numbers[1], to_move, numbers[2])


def _shown(value: Any) -> str:
    """A short repr for a message (repr of a 5,000-digit int would itself raise)."""
    if value is None:
        return "an empty or out-of-range value"
    if isinstance(value, tuple):
        return "(" + ", ".join(_shown(item) for item in value) + ")"
    if isinstance(value, int) and abs(value) > MAX_CLOCK_MS:
        return "a number that large"
    return repr(value)[:30]


class Clock:
    """Both players' clocks. Only the side to move runs; nothing runs before `start`.

    Not thread-safe (the main thread owns it). Times passed in are monotonic seconds; a `now`
    earlier than the last one counts as no time passing.
    """

    _started: bool
    _paused: bool

    def __init__(self, control: TimeControl | None = None, to_move: Color = Color.BLACK) -> None:
        self.control = control if control is not None else TimeControl()
        self.reset(to_move)

    # --- state ---------------------------------------------------------------------------

    @property
    def to_move(self) -> Color:
        return self._to_move

    @property
    def started(self) -> bool:
        return self._started

    @property
    def running(self) -> bool:
        """True when the side to move's time is running (started and not paused)."""
        return self._started and not self._paused

    def used_in_move(self, now: float) -> float:
        """Seconds the side to move has used on its current move, pauses left out."""
        used = self._move_used
        if self.running:
            used += max(0.0, now - self._segment_start)
        return used

    def remaining(self, color: Color, now: float) -> float:
        """Game time left for `color` in seconds (never below 0); math.inf with no game limit."""
        if self.control.game_s == 0:
            return math.inf
        left = self._remaining[color]
        if color is self._to_move:
            left -= self.used_in_move(now)
        return max(0.0, left)

    def move_remaining(self, now: float) -> float:
        """Seconds left on the per-move countdown (never below 0); math.inf with no move limit."""
        if self.control.move_s == 0:
            return math.inf
        return max(0.0, self.control.move_s - self.used_in_move(now))

    def flagged(self, now: float) -> Color | None:
        """The side whose time ran out (game or move limit), or None. Only the side to move can flag."""
        if not self._started:
            return None
        if self.remaining(self._to_move, now) <= 0.0 or self.move_remaining(now) <= 0.0:
            return self._to_move
        return None

    # --- changes -------------------------------------------------------------------------

    def start(self, now: float) -> None:
        """Start the side to move's time; does nothing if already started."""
        if self._started:
            return
        self._started = True
        self._paused = False
        self._segment_start = now

    def press(self, now: float) -> float:
        """The side to move finished its move: charge it, add the increment, switch sides.

        Returns the seconds the move took (pauses left out). Raises RuntimeError before `start`.
        A paused clock stays paused. Does not check flags: ask `flagged` first.
        """
        if not self._started:
            raise RuntimeError("the clock has not been started")
        took = self.used_in_move(now)
        if self.control.game_s:
            mover = self._to_move
            self._remaining[mover] = (
                max(0.0, self._remaining[mover] - took) + self.control.increment_s
            )
        self._begin_move(self._to_move.other, now)
        return took

    def switch_to(self, color: Color, now: float) -> None:
        """Make `color` the side to move with a fresh move countdown, charging the time the
        current side used so far without an increment (for undo: time spent is not given back)."""
        if self.control.game_s:
            mover = self._to_move
            self._remaining[mover] = max(0.0, self._remaining[mover] - self.used_in_move(now))
        self._begin_move(color, now)

    def pause(self, now: float) -> None:
        """Stop the running time (menus, reconnects, game over); harmless if already paused."""
        if self.running:
            self._move_used += max(0.0, now - self._segment_start)
            self._paused = True

    def halt(self) -> None:
        """Stop without a `now`: the running stretch since the last press or resume is not charged."""
        self._paused = self._started

    def resume(self, now: float) -> None:
        """Run again after `pause`; does nothing if not started or not paused."""
        if self._started and self._paused:
            self._paused = False
            self._segment_start = now

    def skip(self, since: float, now: float) -> None:
        """Leave the stretch from `since` to `now` uncharged (the process stood still: nobody
        could play); harmless if not running."""
        if self.running:
            self.pause(since)
            self.resume(now)

    def reset(self, to_move: Color = Color.BLACK) -> None:
        """Back to the full time control, not started."""
        self._remaining = {color: float(self.control.game_s) for color in Color}
        self._started = False
        self._paused = False
        self._begin_move(to_move, 0.0)

    def set_remaining(self, color: Color, seconds: float, now: float) -> None:
        """Set `color`'s game time left (e.g. adopt the LAN host's figure); for the side to
        move the current move starts counting afresh from `now`."""
        self._remaining[color] = max(0.0, float(seconds))
        if color is self._to_move:
            self._move_used = 0.0
            self._segment_start = now

    def continue_move(self, used: float, now: float) -> None:
        """The side to move has already spent `used` seconds on this move (a LAN guest whose
        move the host refused: the host's countdown went on); its game time left reads as before."""
        mover = self._to_move
        left = self.remaining(mover, now)
        self._move_used = max(0.0, float(used))
        self._segment_start = now
        if self.control.game_s:
            self._remaining[mover] = left + self._move_used

    def _begin_move(self, color: Color, now: float) -> None:
        self._to_move = color
        self._move_used = 0.0  # time used on this move in earlier stretches (before a pause)
        self._segment_start = now  # when the current running stretch of this move began

    # --- snapshot ------------------------------------------------------------------------

    def snapshot(self, now: float) -> ClockState:
        """The clock as whole milliseconds at `now` (0 per side when there is no game limit)."""

        def ms(color: Color) -> int:
            left = self.remaining(color, now)
            return 0 if math.isinf(left) else min(MAX_CLOCK_MS, round(left * 1000))

        used = min(MAX_CLOCK_MS, round(self.used_in_move(now) * 1000))
        return ClockState(ms(Color.BLACK), ms(Color.WHITE), self._to_move, used)

    @classmethod
    def restore(cls, control: TimeControl, state: ClockState) -> Clock:
        """A clock in the state `snapshot` saved; not started: call `start(now)` to run it."""
        clock = cls(control, state.to_move)
        if control.game_s:
            # The snapshot already charged move_ms to the side to move; keep that time apart.
            used = state.move_ms / 1000
            clock._remaining[Color.BLACK] = state.black_ms / 1000
            clock._remaining[Color.WHITE] = state.white_ms / 1000
            clock._remaining[state.to_move] += used
        clock._move_used = state.move_ms / 1000
        return clock

    def __repr__(self) -> str:
        return (
            f"Clock({self.control}, to_move={self._to_move.label}, started={self._started}, "
            f"paused={self._paused})"
        )
