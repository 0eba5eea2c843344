"""Line patterns: precomputed tables from an 11-cell line key to the pattern a stone makes.

A line through a cell is the 5 cells on either side along one direction. Each neighbour takes
2 bits (0 empty, 1 black, 2 white, 3 edge), so a line is a 20-bit key. For a colour, a table
maps the key to the pattern the colour would make by playing the centre cell: five, open four,
four, open three, three, open two, ... One table pair (black, white) per rule.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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


@njit(nogil=True, cache=True)
def key_bit(offset: int) -> int:
    """The bit position in a line key of the neighbour `offset` cells from the centre (+-1..5)."""
    if offset < 0:
        return 2 * (offset + HALF)
    return 2 * (offset + HALF - 1)


@njit(nogil=True, cache=True, no_cpython_wrapper=True)
def _five_at_centre(line: np.ndarray, exact: bool) -> int:
    """1 if the own run through the centre is a five, 2 if it is an overline, 0 otherwise."""
    run = 1
    i = HALF - 1
    while i >= 0 and line[i] == OWN_V:
        run += 1
        i -= 1
    i = HALF + 1
    while i <= 2 * HALF and line[i] == OWN_V:
        run += 1
        i += 1
    if run < 5:
        return 0
    if run == 5 or not exact:
        return 1
    return 2


@njit(nogil=True, cache=True, no_cpython_wrapper=True)
def _ternary_index(line: np.ndarray) -> int:
    """Index of an 11-cell ternary line (centre excluded) in base 3."""
    index = 0
    power = 1
    for i in range(2 * HALF + 1):
        if i == HALF:
            continue
        index += line[i] * power
        power *= 3
    return index


@njit(nogil=True, cache=True, no_cpython_wrapper=True)
def _classify_all(exact: bool, renju_black: bool) -> np.ndarray:
    """The pattern code of every ternary line, computed from lines with more own stones first."""
    n_cells = 2 * HALF
    codes = np.full(N_TERNARY, -1, dtype=np.int8)
    own_count = np.zeros(N_TERNARY, dtype=np.int8)
    lines = np.zeros((N_TERNARY, 2 * HALF + 1), dtype=np.int8)
    for t in range(N_TERNARY):
        rest = t
        n_own = 0
        for i in range(2 * HALF + 1):
            if i == HALF:
                lines[t, i] = OWN_V
                continue
            v = rest % 3
            rest //= 3
            lines[t, i] = v
            if v == OWN_V:
                n_own += 1
        own_count[t] = n_own
    line = np.zeros(2 * HALF + 1, dtype=np.int8)
    for n_own in range(n_cells, -1, -1):
        for t in range(N_TERNARY):
            if own_count[t] != n_own:
                continue
            for i in range(2 * HALF + 1):
                line[i] = lines[t, i]
            five = _five_at_centre(line, exact)
            if five == 1:
                codes[t] = F5
                continue
            if five == 2:
                codes[t] = OVERLINE if renju_black else NONE
                continue
            # Step 1. Count the points that complete a five through the centre.
            n_fives = 0
            first = -1
            second = -1
            for i in range(2 * HALF + 1):
                if line[i] != EMPTY_V:
                    continue
                line[i] = OWN_V
                if _five_at_centre(line, exact) == 1:
                    n_fives += 1
                    if first < 0:
                        first = i
                    else:
                        second = i
                line[i] = EMPTY_V
            if n_fives >= 2:
                if n_fives == 2 and second - first == 5:
                    codes[t] = F4
                else:
                    codes[t] = DOUBLE4_LINE if renju_black else F4
                continue
            if n_fives == 1:
                codes[t] = B4
                continue
            # Step 2. Otherwise the best pattern one more own stone in this line leads to.
            best = NONE
            for i in range(2 * HALF + 1):
                if line[i] != EMPTY_V:
                    continue
                line[i] = OWN_V
                child = codes[_ternary_index(line)]
                line[i] = EMPTY_V
                if child == F4:
                    made = F3
                elif child == B4 or (child == DOUBLE4_LINE and not renju_black):
                    made = B3
                elif child == F3:
                    made = F2
                elif child == B3:
                    made = B2
                elif child == F2:
                    made = F1
                elif child == B2:
                    made = B1
                else:
                    made = NONE
                if made > best:
                    best = made
            codes[t] = best
    return codes


@njit(nogil=True, cache=True, no_cpython_wrapper=True)
def _expand(codes: np.ndarray, color: int) -> np.ndarray:
    """Map every 20-bit key (cell values 0..3) to the code of its ternary line for `color`."""
    table = np.zeros(N_KEYS, dtype=np.int8)
    for key in range(N_KEYS):
        index = 0
        power = 1
        for i in range(2 * HALF):
            v = (key >> (2 * i)) & 3
            if v == 0:
                tv = EMPTY_V
            elif v == color:
                tv = OWN_V
            else:
                tv = BLOCKED_V
            index += tv * power
            power *= 3
        table[key] = codes[index]
    return table


@njit(nogil=True, cache=True)
def build_tables(rule: int) -> np.ndarray:
    """Pattern tables for `rule`: int8 [2, 2**20], row 0 for black, row 1 for white."""
    tables = np.zeros((2, N_KEYS), dtype=np.int8)
    for color in (1, 2):
        exact = rule == RULE_STANDARD or (rule == RULE_RENJU and color == 1)
        renju_black = rule == RULE_RENJU and color == 1
        codes = _classify_all(exact, renju_black)
        row = _expand(codes, color)
        for key in range(N_KEYS):  # a loop, not a slice copy: that costs 2 s of compiling
            tables[color - 1, key] = row[key]
    return tables
