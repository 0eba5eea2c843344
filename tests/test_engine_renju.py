"""The compiled renju forbidden check agrees with the rules core (gomoku.core.renju)."""

from __future__ import annotations

import numpy as np
import pytest

from gomoku.core import renju
from gomoku.engine import driver


def crowded_grid(rng: np.random.Generator, blacks: int, whites: int) -> np.ndarray:
    """Stones in a 9x9 middle square: dense black shapes make many forbidden points."""
    grid = np.zeros((15, 15), dtype=np.int8)
    cells = rng.permutation(81)[: blacks + whites]
    for i, c in enumerate(cells):
        grid[3 + c // 9, 3 + c % 9] = 1 if i < blacks else 2
    return grid


@pytest.mark.parametrize("seed", range(8))
def test_compiled_forbidden_points_match_the_rules_core(seed: int) -> None:
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(40):
        grid = crowded_grid(rng, int(rng.integers(10, 26)), int(rng.integers(4, 16)))
        expected = renju.forbidden_points(grid)
        assert driver.forbidden_points(grid) == expected, grid
        checked += len(expected)
    assert checked > 0  # the random shapes did produce forbidden points to compare


def test_known_shapes() -> None:
    grid = np.zeros((15, 15), dtype=np.int8)
    for x, y in ((2, 2), (3, 2), (5, 3), (5, 4)):  # two open twos crossing at (5, 2)
        grid[y, x] = 1
    for x, y in ((1, 9), (2, 9), (3, 9), (5, 9), (6, 9)):  # XXX.XX: the gap makes six
        grid[y, x] = 1
    forbidden = driver.forbidden_points(grid)
    assert (5, 2) in forbidden  # double three
    assert (4, 9) in forbidden  # overline
    assert forbidden == renju.forbidden_points(grid)
