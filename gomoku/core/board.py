"""The board: a grid, a move stack with push/pop, legality and the outcome."""

from __future__ import annotations

import operator
from collections.abc import Iterable

import numpy as np

from gomoku.core import renju
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

DIRECTIONS: tuple[Point, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
"""The four line directions as (dx, dy): across, down, diagonal, anti-diagonal."""


class Board:
    """One mutable position: `grid[y, x]` holds 0 (empty), 1 (black) or 2 (white).

    Black moves first. `push` checks legality and raises IllegalMoveError; `pop` undoes the
    last stone exactly. Not thread-safe: one thread owns a Board, others work on `copy()`.
    """

    def __init__(self, size: int = DEFAULT_SIZE, rule: Rule = Rule.FREESTYLE) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"board size must be {MIN_SIZE} to {MAX_SIZE}, not {size}")
        self.size = size
        self.rule = rule
        self.grid = np.zeros((size, size), dtype=np.int8)
        self.moves: list[Point] = []
        self._outcomes: list[Outcome | None] = [None]  # the outcome after each ply, for cheap pop

    @classmethod
    def from_moves(
        cls, moves: Iterable[Point], size: int = DEFAULT_SIZE, rule: Rule = Rule.FREESTYLE
    ) -> Board:
        """A board with `moves` played in order; raises IllegalMoveError on the first bad one."""
        board = cls(size, rule)
        for x, y in moves:
            board.push(x, y)
        return board

    def copy(self) -> Board:
        clone = Board(self.size, self.rule)
        clone.grid = self.grid.copy()
        clone.moves = list(self.moves)
        clone._outcomes = list(self._outcomes)
        return clone

    # --- state -------------------------------------------------------------------------

    @property
    def to_move(self) -> Color:
        return Color.BLACK if len(self.moves) % 2 == 0 else Color.WHITE

    @property
    def last_move(self) -> Point | None:
        return self.moves[-1] if self.moves else None

    @property
    def ply(self) -> int:
        """How many stones are on the board."""
        return len(self.moves)

    def outcome(self) -> Outcome | None:
        """The result once the game is decided on the board (five, or a full board: under renju
        also when every empty point is forbidden to black), else None."""
        return self._outcomes[-1]

    def is_game_over(self) -> bool:
        return self._outcomes[-1] is not None

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def __getitem__(self, point: Point) -> int:
        x, y = point
        return int(self.grid[y, x])

    # --- legality ----------------------------------------------------------------------

    def check_move(self, x: int, y: int) -> Illegal | None:
        """Why the side to move may not play (x, y), or None if the move is legal.

        Raises TypeError if x or y is not an integer (a float or a string is a caller's bug).
        """
        x, y = operator.index(x), operator.index(y)
        if not self.on_board(x, y):
            return Illegal.OFF_BOARD
        if self.grid[y, x] != EMPTY:
            return Illegal.OCCUPIED
        if self.is_game_over():
            return Illegal.GAME_OVER
        if self.rule is Rule.RENJU and self.to_move is Color.BLACK:
            return renju.forbidden_reason(self.grid, x, y)
        return None

    def is_legal(self, x: int, y: int) -> bool:
        return self.check_move(x, y) is None

    def forbidden_points(self) -> set[Point]:
        """The empty points black may not play in this position (empty unless the rule is renju).

        Black's restrictions whoever is to move: callers that only show them on black's turn check
        `to_move` themselves.
        """
        if self.rule is not Rule.RENJU:
            return set()
        return renju.forbidden_points(self.grid)

    def legal_moves(self) -> list[Point]:
        """Every legal point for the side to move, row by row."""
        if self.is_game_over():
            return []
        forbidden = self.forbidden_points() if self.to_move is Color.BLACK else set()
        ys, xs = np.nonzero(self.grid == EMPTY)
        return [(int(x), int(y)) for y, x in zip(ys, xs, strict=True) if (int(x), int(y)) not in forbidden]

    # --- push / pop --------------------------------------------------------------------

    def push(self, x: int, y: int) -> Outcome | None:
        """Play (x, y) for the side to move and return the outcome after it (None if open).

        Raises IllegalMoveError (with `reason`) and leaves the board unchanged if the move is
        refused; TypeError if x or y is not an integer. Points are stored as plain ints.
        """
        x, y = operator.index(x), operator.index(y)
        reason = self.check_move(x, y)
        if reason is not None:
            raise IllegalMoveError((x, y), reason)
        color = self.to_move
        self.grid[y, x] = color
        self.moves.append((x, y))
        outcome = self._outcome_after(x, y, color)
        self._outcomes.append(outcome)
        return outcome

    def pop(self) -> Point:
        """Take back the last stone and return its point; IndexError on an empty board."""
        if not self.moves:
            raise IndexError("pop from an empty board")
        x, y = self.moves.pop()
        self.grid[y, x] = EMPTY
        self._outcomes.pop()
        return (x, y)

    # --- lines -------------------------------------------------------------------------

    def line_through(self, x: int, y: int, dx: int, dy: int) -> tuple[Point, ...]:
        """The unbroken run of same-coloured stones through (x, y) along (dx, dy), in order."""
        color = self.grid[y, x]
        start_x, start_y = x, y
        while self.on_board(start_x - dx, start_y - dy) and self.grid[start_y - dy, start_x - dx] == color:
            start_x, start_y = start_x - dx, start_y - dy
        run = []
        cx, cy = start_x, start_y
        while self.on_board(cx, cy) and self.grid[cy, cx] == color:
            run.append((cx, cy))
            cx, cy = cx + dx, cy + dy
        return tuple(run)

    def _wins(self, color: Color, length: int) -> bool:
        if length == 5:
            return True
        if length < 5:
            return False
        # An overline wins in freestyle, and for white in renju; never in standard.
        return self.rule is Rule.FREESTYLE or (self.rule is Rule.RENJU and color is Color.WHITE)

    def _outcome_after(self, x: int, y: int, color: Color) -> Outcome | None:
        for dx, dy in DIRECTIONS:
            run = self.line_through(x, y, dx, dy)
            if self._wins(color, len(run)):
                return Outcome(color, Reason.FIVE, run)
        if len(self.moves) == self.size * self.size:
            return Outcome(None, Reason.FULL_BOARD)
        if self.rule is Rule.RENJU and color is Color.WHITE and not renju.black_can_play(self.grid):
            # Every empty point is forbidden to black: RIF's black could only pass. The board is
            # full for black, so the game is drawn as a full board is (no pass in our records or
            # on the wire).
            return Outcome(None, Reason.FULL_BOARD)
        return None

    def __repr__(self) -> str:
        return f"Board(size={self.size}, rule={self.rule.value}, moves={self.moves})"

    def __str__(self) -> str:
        symbols = {EMPTY: ".", Color.BLACK: "X", Color.WHITE: "O"}
        return "\n".join(" ".join(symbols[int(v)] for v in row) for row in self.grid)
