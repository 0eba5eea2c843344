"""Small value types shared by every layer: colours, rules, outcomes, errors."""

from __future__ import annotations

import enum
from dataclasses import dataclass

Point = tuple[int, int]
"""A board point as (x, y): x is the column from the left, y the row from the top, 0-based."""

MIN_SIZE = 15
MAX_SIZE = 20
DEFAULT_SIZE = 15


class Color(enum.IntEnum):
    """A stone's colour; the values are what the grid stores (0 is an empty point)."""

    BLACK = 1
    WHITE = 2

    @property
    def other(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def label(self) -> str:
        return self.name.lower()


EMPTY = 0


class Rule(enum.Enum):
    """Which lines win, and which points black may not play."""

    FREESTYLE = "freestyle"  # five or more in a row wins
    STANDARD = "standard"  # exactly five wins; six or more does not
    RENJU = "renju"  # black: exactly five, no double-three/double-four/overline; white: five or more


class Reason(enum.Enum):
    """Why a game ended."""

    FIVE = "five"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    DISCONNECT = "disconnect"
    FULL_BOARD = "full_board"


class Illegal(enum.Enum):
    """Why a move is refused; the value is a sentence a player can read."""

    OFF_BOARD = "that point is off the board"
    OCCUPIED = "that point is already taken"
    GAME_OVER = "the game is already over"
    DOUBLE_THREE = "forbidden for black under renju: double three"
    DOUBLE_FOUR = "forbidden for black under renju: double four"
    OVERLINE = "forbidden for black under renju: overline (six or more)"


class IllegalMoveError(ValueError):
    """Raised by Board.push for a move the rules refuse; `reason` says why."""

    def __init__(self, point: Point, reason: Illegal) -> None:
        super().__init__(f"illegal move at {point}: {reason.value}")
        self.point = point
        self.reason = reason


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (None for a draw), why, and the winning line's cells."""

    winner: Color | None
    reason: Reason
    line: tuple[Point, ...] = ()
