"""The engine's public contract: levels, limits, positions in, results out.

Everything here is plain Python values so the UI, the brain and the tools share one shape.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

from gomoku.core import Board, Color, Point, Rule


class Level(enum.Enum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


DEFAULT_BUDGET_S = {Level.EASY: 0.05, Level.MEDIUM: 0.5, Level.HARD: 2.0}
"""Default time per move by level, in seconds."""

WIN_SCORE = 30_000
"""A search's score for a five: a forced win scores WIN_SCORE less the plies to its five, a
forced loss the negative (threats.WIN; here so that the UI reads scores without numba)."""
FORCED_SCORE = WIN_SCORE - 1_000  # beyond this a score is a forced win or loss (threats.WIN_MIN)


@dataclass(frozen=True)
class SearchLimit:
    """How long to think: a time budget in seconds, and optionally a maximum depth.

    `time_s` is never exceeded. `target_s`, when set (a shared match clock, where time saved
    now is time for later), is what the move should take: no deeper iteration starts after
    it, nor one unlikely to finish within `time_s`. None: think until `time_s`.
    """

    time_s: float
    max_depth: int | None = None
    target_s: float | None = None


@dataclass(frozen=True)
class Position:
    """A copy of a position for the engine: never the live Board."""

    grid: np.ndarray  # int8 [y, x], 0 empty, 1 black, 2 white (a private copy)
    moves: tuple[Point, ...]
    to_move: Color
    rule: Rule

    @classmethod
    def from_board(cls, board: Board) -> Position:
        return cls(board.grid.copy(), tuple(board.moves), board.to_move, board.rule)

    @property
    def size(self) -> int:
        return int(self.grid.shape[0])


@dataclass(frozen=True)
class Progress:
    """One finished iteration of the search (sent while thinking)."""

    depth: int
    score: int
    pv: tuple[Point, ...]
    nodes: int
    elapsed_s: float

    @property
    def nps(self) -> float:
        return self.nodes / self.elapsed_s if self.elapsed_s > 0 else 0.0


@dataclass(frozen=True)
class SearchResult:
    """The move chosen, with what the search knew when it stopped."""

    move: Point
    score: int = 0
    depth: int = 0
    pv: tuple[Point, ...] = ()
    nodes: int = 0
    elapsed_s: float = 0.0
    info: dict = field(default_factory=dict)

    @property
    def nps(self) -> float:
        return self.nodes / self.elapsed_s if self.elapsed_s > 0 else 0.0


class StopFlag:
    """A flag the compiled search polls: one int64 in a numpy array, shared across threads."""

    def __init__(self) -> None:
        self.array = np.zeros(1, dtype=np.int64)

    def set(self) -> None:
        self.array[0] = 1

    def clear(self) -> None:
        self.array[0] = 0

    def is_set(self) -> bool:
        return bool(self.array[0])


def ai_limit(level: Level, remaining_s: float | None = None, move_s: float | None = None) -> SearchLimit:
    """The thinking time for one AI move: the level's budget, cut to fit the clocks."""
    budget = DEFAULT_BUDGET_S[level]
    if remaining_s is not None:
        # Leave most of the game time for later moves.
        budget = min(budget, max(0.05, remaining_s / 25))
    if move_s is not None:
        budget = min(budget, max(0.05, move_s * 0.6))
    return SearchLimit(time_s=budget)
