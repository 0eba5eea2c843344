"""Line patterns: precomputed tables from an 11-cell line key to the pattern a stone makes.

A line through a cell is the 5 cells on either side along one direction. Each neighbour takes
2 bits (0 empty, 1 black, 2 white, 3 edge), so a line is a 20-bit key. For a colour, a table
maps the key to the pattern the colour would make by playing the centre cell: five, open four,
four, open three, three, open two, ... One table pair (black, white) per rule.

The tables are built with plain numpy (about 0.05 s a rule), not numba: compiling the builder
cost two seconds of every first launch.
"""

from __future__ import annotations

import numpy as np

from gomoku.engine.jit import njit

# Pattern codes, weakest first; a stone at the centre makes this pattern along one line.
NONE = 0
B1 = 1  # one stone that can still grow into a blocked two
F1 = 2  # one stone that can grow into an open two
B2 = 3  # blocked two: one move makes a blocked three
F2 = 4  # open two: one move makes an open three
B3 = 5  # blocked three: one move makes a four
F3 = 6  # open three: one move makes an open four
B4 = 7  # four: exactly one point completes a five
F4 = 8  # open four (or two fours in one line): two points complete a five
F5 = 9  # five: wins
OVERLINE = 10  # renju black only: six or more, forbidden
DOUBLE4_LINE = 11  # renju black only: two fours in one line (X.XXX.X), forbidden
N_CODES = 12

HALF = 5  # cells on either side of the centre in a line key
KEY_BITS = 4 * HALF  # 2 bits a neighbour
N_KEYS = 1 << KEY_BITS

RULE_FREESTYLE = 0
RULE_STANDARD = 1
RULE_RENJU = 2

EMPTY_V = 0
OWN_V = 1
BLOCKED_V = 2
N_TERNARY = 3 ** (2 * HALF)


def key_bit_py(offset: int) -> int:
    """The bit position in a line key of the neighbour `offset` cells from the centre (+-1..5)."""
    if offset < 0:
        return 2 * (offset + HALF)
    return 2 * (offset + HALF - 1)


key_bit = njit(nogil=True, cache=True)(key_bit_py)  # the same, for compiled code


# The powers of 3 of the 10 cells around the centre (centre excluded), in line order.
_POWERS = 3 ** np.arange(2 * HALF, dtype=np.int64)
_SIDE_CELLS = [i for i in range(2 * HALF + 1) if i != HALF]  # the line cell of each power


def _five_at_centre(lines: np.ndarray, exact: bool) -> np.ndarray:
    """Per line ([n, 11]): 1 if the own run through the centre is a five, 2 if an overline, else 0."""
    run = np.ones(lines.shape[0], dtype=np.int64)
    for side in (-1, 1):
        going = np.ones(lines.shape[0], dtype=bool)
        for k in range(1, HALF + 1):
            going &= lines[:, HALF + side * k] == OWN_V
            run += going
    five = (run >= 5).astype(np.int8)
    if exact:
        five[run > 5] = 2
    return five


def _grows_into(renju_black: bool) -> np.ndarray:
    """The pattern a line makes, indexed by the pattern one more own stone in it makes."""
    made = np.full(N_CODES, NONE, dtype=np.int8)
    made[F4], made[B4], made[F3], made[B3], made[F2], made[B2] = F3, B3, F2, B2, F1, B1
    if not renju_black:
        made[DOUBLE4_LINE] = B3
    return made


def _classify_all(exact: bool, renju_black: bool) -> np.ndarray:
    """The pattern code of every ternary line, computed from lines with more own stones first
    (plain numpy, a level of own stones at a time: nothing to compile on a first launch)."""
    index = np.arange(N_TERNARY, dtype=np.int64)
    lines = np.full((N_TERNARY, 2 * HALF + 1), OWN_V, dtype=np.int8)
    for power, cell in zip(_POWERS, _SIDE_CELLS, strict=True):
        lines[:, cell] = index // power % 3
    own_count = (lines[:, _SIDE_CELLS] == OWN_V).sum(axis=1)
    grows_into = _grows_into(renju_black)
    codes = np.full(N_TERNARY, -1, dtype=np.int8)
    for n_own in range(2 * HALF, -1, -1):
        level = np.flatnonzero(own_count == n_own)
        line = lines[level]
        five = _five_at_centre(line, exact)
        code = np.where(five == 1, F5, NONE).astype(np.int8)
        if renju_black:
            code[five == 2] = OVERLINE
        rest = five == 0
        # Step 1. Count the points that complete a five through the centre.
        n_fives = np.zeros(level.shape[0], dtype=np.int64)
        first = np.full(level.shape[0], -1, dtype=np.int64)
        second = np.full(level.shape[0], -1, dtype=np.int64)
        for cell in _SIDE_CELLS:
            placed = line.copy()
            placed[:, cell] = OWN_V
            makes = (line[:, cell] == EMPTY_V) & (_five_at_centre(placed, exact) == 1)
            second = np.where(makes & (first >= 0), cell, second)
            first = np.where(makes & (first < 0), cell, first)
            n_fives += makes
        straight = (n_fives == 2) & (second - first == 5)
        code[rest & (n_fives >= 2)] = DOUBLE4_LINE if renju_black else F4
        code[rest & straight] = F4
        code[rest & (n_fives == 1)] = B4
        # Step 2. Otherwise the best pattern one more own stone in this line leads to.
        best = np.zeros(level.shape[0], dtype=np.int8)
        for power, cell in zip(_POWERS, _SIDE_CELLS, strict=True):
            empty = line[:, cell] == EMPTY_V
            child = codes[np.where(empty, level + power, level)]  # (filled: more own stones)
            best = np.maximum(best, np.where(empty, grows_into[child], NONE))
        grow = rest & (n_fives == 0)
        code[grow] = best[grow]
        codes[level] = code
    return codes


def _expand(codes: np.ndarray, color: int) -> np.ndarray:
    """Map every 20-bit key (cell values 0..3) to the code of its ternary line for `color`."""
    # A key's ternary index, five cells (10 bits) at a time: two lookups per key.
    five_cells = np.arange(1 << (2 * HALF), dtype=np.int64)
    low = np.zeros(five_cells.shape[0], dtype=np.int64)
    for i in range(HALF):
        v = (five_cells >> (2 * i)) & 3
        low += np.where(v == 0, EMPTY_V, np.where(v == color, OWN_V, BLOCKED_V)) * _POWERS[i]
    keys = np.arange(N_KEYS, dtype=np.int64)
    return codes[low[keys & (low.shape[0] - 1)] + low[keys >> (2 * HALF)] * _POWERS[HALF]]


def build_tables(rule: int) -> np.ndarray:
    """Pattern tables for `rule`: int8 [2, 2**20], row 0 for black, row 1 for white."""
    tables = np.zeros((2, N_KEYS), dtype=np.int8)
    for color in (1, 2):
        exact = rule == RULE_STANDARD or (rule == RULE_RENJU and color == 1)
        renju_black = rule == RULE_RENJU and color == 1
        tables[color - 1] = _expand(_classify_all(exact, renju_black), color)
    return tables
