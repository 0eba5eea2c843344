"""Positions from ASCII diagrams, for the tactical suite, the bench and debugging.

A diagram is rows of cells separated by spaces or not: `X` black, `O` white, `.` empty, `*` an
empty point marked as an expected answer. Rows shorter than the board are padded with empty
points; a diagram smaller than the board sits at the top-left corner unless `offset` moves it.
"""

from __future__ import annotations

import numpy as np

from gomoku.core import Color, Point, Rule
from gomoku.engine.api import Position

_VALUES = {".": 0, "*": 0, "X": 1, "O": 2}


def parse_diagram(text: str, rule: Rule = Rule.FREESTYLE, size: int = 15,
                  offset: Point = (0, 0), to_move: Color | None = None) -> tuple[Position, set[Point]]:
    """The position drawn in `text` and the set of points marked `*`.

    The side to move is black when both colours have as many stones, white when black has one
    more, unless `to_move` says otherwise. Raises ValueError for an unknown character, a
    diagram that does not fit, or stone counts no game can reach without `to_move`.
    """
    grid = np.zeros((size, size), dtype=np.int8)
    marks: set[Point] = set()
    rows = [row.replace(" ", "") for row in text.strip("\n").splitlines() if row.strip()]
    ox, oy = offset
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char not in _VALUES:
                raise ValueError(f"unknown diagram character {char!r} in row {y}")
            px, py = x + ox, y + oy
            if not (0 <= px < size and 0 <= py < size):
                raise ValueError(f"the diagram does not fit a {size}x{size} board")
            grid[py, px] = _VALUES[char]
            if char == "*":
                marks.add((px, py))
    blacks = int((grid == 1).sum())
    whites = int((grid == 2).sum())
    if to_move is None:
        if blacks == whites:
            to_move = Color.BLACK
        elif blacks == whites + 1:
            to_move = Color.WHITE
        else:
            raise ValueError(f"{blacks} black and {whites} white stones: say who is to move")
    return Position(grid, (), to_move, rule), marks
