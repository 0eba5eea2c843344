"""Rules and game state: numpy and the standard library only (never pygame, numba, asyncio, msgpack)."""

from gomoku.core.board import DIRECTIONS, Board
from gomoku.core.types import (
    DEFAULT_SIZE,
    EMPTY,
    MAX_SIZE,
    MIN_SIZE,
    Color,
    Illegal,
    IllegalMoveError,
    Outcome,
    Point,
    Reason,
    Rule,
)

__all__ = [
    "DEFAULT_SIZE",
    "DIRECTIONS",
    "EMPTY",
    "MAX_SIZE",
    "MIN_SIZE",
    "Board",
    "Color",
    "Illegal",
    "IllegalMoveError",
    "Outcome",
    "Point",
    "Reason",
    "Rule",
]
