"""The easy level's greedy scorer: every point scored over the five-cell windows through it.

A window with only our stones is worth more the more it holds (attack); one with only the
opponent's is worth blocking (defence); a mixed window is dead. The same plain function runs
compiled (the easy level) and as plain Python (the fallback before the engine has compiled).
"""

from __future__ import annotations

import numpy as np

from gomoku.engine.jit import njit

# Window values by stone count (0..4), from "Gomoku tuple scoring"; own beats opponent's.
OWN_WINDOW = np.array([7, 35, 800, 15000, 800000], dtype=np.int64)
OPP_WINDOW = np.array([7, 15, 400, 1800, 100000], dtype=np.int64)


def window_scores_py(grid: np.ndarray, color: int, own_w: np.ndarray, opp_w: np.ndarray,
                     out: np.ndarray) -> None:
    """Fill out[y, x] with the greedy score of every empty point for `color` (-1 elsewhere)."""
    size = grid.shape[0]
    for y in range(size):
        for x in range(size):
            if grid[y, x] != 0:
                out[y, x] = -1
                continue
            total = 0
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                for start in range(-4, 1):
                    own = 0
                    opp = 0
                    inside = True
                    for k in range(start, start + 5):
                        cx = x + k * dx
                        cy = y + k * dy
                        if cx < 0 or cy < 0 or cx >= size or cy >= size:
                            inside = False
                            break
                        v = grid[cy, cx]
                        if v == color:
                            own += 1
                        elif v != 0:
                            opp += 1
                    if not inside or (own > 0 and opp > 0):
                        continue
                    if opp == 0:
                        total += own_w[own]
                    else:
                        total += opp_w[opp]
            out[y, x] = total


window_scores = njit(nogil=True, cache=True)(window_scores_py)
