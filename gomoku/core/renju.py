"""Renju restrictions for black (RIF definitions): double-three, double-four, overline.

PLACEHOLDER until the rules work lands: only the overline is detected here.
"""

from __future__ import annotations

import numpy as np

from gomoku.core.types import Illegal, Point


def forbidden_reason(grid: np.ndarray, x: int, y: int) -> Illegal | None:
    """Why black may not play the empty point (x, y) on `grid[y, x]`, or None if it may.

    A move that makes exactly five is never forbidden.
    """
    return None


def forbidden_points(grid: np.ndarray) -> set[Point]:
    """Every empty point black may not play on `grid`."""
    size = grid.shape[0]
    return {
        (x, y)
        for y in range(size)
        for x in range(size)
        if grid[y, x] == 0 and forbidden_reason(grid, x, y) is not None
    }
