"""The engine's board: plain numpy arrays with incremental make/unmake for numba.

The grid is stored padded: PAD cells of edge (value 3) around the board, flattened with stride
W = size + 2 * PAD, so a cell and all its line neighbours are indices in one 1-D array.

`Board state` is a tuple of arrays (numba passes tuples of arrays without copying):
    cells   int8  [NC]        0 empty, 1 black, 2 white, 3 edge
    keys    int32 [4, NC]     the 20-bit line key of every cell in each direction
    near    int16 [NC]        how many stones lie within 2 along a line (candidate moves are > 0)
    info    int64 [8]         size, stride, search ply, rule, side to move, stones, -, -
    hashes  uint64[MAX_PLY+9] Zobrist key after each search ply (hashes[ply] is the current one)
    stack   int32 [MAX_PLY+8] the cells played since the root, for unmake
    tables  int8  [2, 2**20]  the pattern tables of the rule (black row 0, white row 1)
    zobrist uint64[2, NC]     one random key per colour and cell
    dirs    int64 [4]         the index offsets of the four line directions
    codes   uint16[2, NC]     the pattern codes of every cell for each colour, 4 bits a direction
                              (direction d in bits 4d..4d+3): the table entries of its keys, kept
                              up to date by make/unmake, so one read gives a cell's four lines
    cand    uint64[NC/64+1]   one bit per cell: empty with a stone within 2 (the candidate moves),
                              so analyse visits the candidates without scanning the board

`make` and `unmake` compile with `_nrt=False` (no reference counting: see threats.py).
"""

from __future__ import annotations

import numpy as np

from gomoku.engine.jit import njit
from gomoku.engine.patterns import HALF, key_bit, key_bit_py

PAD = HALF
EDGE = 3
MAX_PLY = 128  # deepest search line (plies from the root, threat searches included)
MAX_SIZE = 20
MAX_CELLS = (MAX_SIZE + 2 * PAD) ** 2

I_SIZE = 0
I_STRIDE = 1
I_PLY = 2
I_RULE = 3
I_SIDE = 4
I_STONES = 5


def _zobrist_keys() -> np.ndarray:
    """Fixed random keys, so hashes (and node counts) are the same on every run."""
    rng = np.random.default_rng(20261122)
    return rng.integers(1, 2**63 - 1, size=(2, MAX_CELLS), dtype=np.int64).astype(np.uint64)


ZOBRIST = _zobrist_keys()


def cell_index(x: int, y: int, size: int) -> int:
    """The padded 1-D index of board point (x, y)."""
    return (y + PAD) * (size + 2 * PAD) + x + PAD


def cell_point(index: int, size: int) -> tuple[int, int]:
    """The board point (x, y) of a padded 1-D index."""
    stride = size + 2 * PAD
    return (index % stride - PAD, index // stride - PAD)


@njit(nogil=True, cache=True, _nrt=False, no_cpython_wrapper=True)
def _set_codes(codes: np.ndarray, tables: np.ndarray, q: int, d: int, key: int) -> None:
    """Store the pattern codes (both colours) of cell q in direction d, whose line key is `key`."""
    shift = 4 * d
    keep = 0xFFFF ^ (15 << shift)  # not ~(...): plain Python (NUMBA_DISABLE_JIT) wants a uint16
    codes[0, q] = (codes[0, q] & keep) | (np.int64(tables[0, key]) << shift)
    codes[1, q] = (codes[1, q] & keep) | (np.int64(tables[1, key]) << shift)


@njit(nogil=True, cache=True, _nrt=False, no_cpython_wrapper=True)
def _touch_near(cells: np.ndarray, near: np.ndarray, cand: np.ndarray, dirs: np.ndarray, p: int,
                delta: int) -> None:
    """Add `delta` (+-1) to the neighbour count of the cells within 2 of p along the 4 lines; an
    empty cell whose count leaves or reaches 0 turns its candidate bit on or off."""
    was = 0 if delta > 0 else 1  # the count before a change that flips the bit
    for d in range(4):
        step = dirs[d]
        for k in (-2, -1, 1, 2):
            q = p + k * step
            if near[q] == was and cells[q] == 0:
                _flip_candidate(cand, q)
            near[q] += delta


@njit(nogil=True, cache=True, _nrt=False, no_cpython_wrapper=True)
def _flip_candidate(cand: np.ndarray, q: int) -> None:
    cand[q >> 6] ^= np.uint64(1) << np.uint64(q & 63)


def new_state(grid: np.ndarray, side: int, rule: int, tables: np.ndarray) -> tuple:
    """A board state for `grid` ([y, x] int8) with `side` (1 or 2) to move under `rule`.

    Plain numpy (a fraction of a millisecond): nothing to compile on a first launch."""
    size = grid.shape[0]
    if grid.shape != (size, size) or not 5 <= size <= MAX_SIZE:
        raise ValueError(f"the engine takes a square board of 5 to {MAX_SIZE}, not {grid.shape}")
    stride = size + 2 * PAD
    n_cells = stride * stride
    board = np.full((stride, stride), EDGE, dtype=np.int8)
    board[PAD:PAD + size, PAD:PAD + size] = grid
    cells = board.ravel()
    dirs = np.array([1, stride, stride + 1, stride - 1], dtype=np.int64)
    inside = np.zeros((stride, stride), dtype=bool)
    inside[PAD:PAD + size, PAD:PAD + size] = True
    points = np.flatnonzero(inside)
    # Each point's line keys, and the pattern codes they give, in every direction.
    keys = np.zeros((4, n_cells), dtype=np.int32)
    codes = np.zeros((2, n_cells), dtype=np.uint16)
    for d in range(4):
        key = np.zeros(points.shape[0], dtype=np.int64)
        for k in range(1, HALF + 1):
            key |= cells[points + k * dirs[d]].astype(np.int64) << key_bit_py(k)
            key |= cells[points - k * dirs[d]].astype(np.int64) << key_bit_py(-k)
        keys[d, points] = key
        for color in (0, 1):
            codes[color, points] |= tables[color, key].astype(np.uint16) << np.uint16(4 * d)
    # Stones within 2 along a line, and the candidate bits of the empty cells that have one.
    stones = np.flatnonzero((cells == 1) | (cells == 2))
    near = np.zeros(n_cells, dtype=np.int16)
    for d in range(4):
        for k in (-2, -1, 1, 2):
            near[stones + k * dirs[d]] += 1
    cand = np.zeros(n_cells // 64 + 1, dtype=np.uint64)
    free = np.flatnonzero((cells == 0) & (near > 0))
    np.bitwise_or.at(cand, free >> 6, np.left_shift(np.uint64(1), (free & 63).astype(np.uint64)))
    zobrist = ZOBRIST[:, :n_cells].copy()
    hashes = np.zeros(MAX_PLY + 9, dtype=np.uint64)
    hashes[0] = np.bitwise_xor.reduce(zobrist[cells[stones] - 1, stones], initial=np.uint64(0))
    info = np.zeros(8, dtype=np.int64)
    info[I_SIZE], info[I_STRIDE], info[I_RULE], info[I_SIDE] = size, stride, rule, side
    info[I_STONES] = stones.shape[0]
    stack = np.zeros(MAX_PLY + 8, dtype=np.int32)
    return (cells, keys, near, info, hashes, stack, tables, zobrist, dirs, codes, cand)


@njit(nogil=True, cache=True, _nrt=False)
def make(bd: tuple, p: int) -> None:
    """Play the side to move at the empty cell p (no legality check)."""
    cells, keys, near, info, hashes, stack, tables, zobrist, dirs, codes, cand = bd
    c = info[I_SIDE]
    cells[p] = c
    if near[p] > 0:
        _flip_candidate(cand, p)
    for d in range(4):
        step = dirs[d]
        for k in range(1, HALF + 1):
            q = p - k * step
            keys[d, q] += c << key_bit(k)
            _set_codes(codes, tables, q, d, np.int64(keys[d, q]))
            q = p + k * step
            keys[d, q] += c << key_bit(-k)
            _set_codes(codes, tables, q, d, np.int64(keys[d, q]))
    _touch_near(cells, near, cand, dirs, p, np.int64(1))
    ply = info[I_PLY]
    hashes[ply + 1] = hashes[ply] ^ zobrist[c - 1, p]
    stack[ply] = p
    info[I_PLY] = ply + 1
    info[I_SIDE] = 3 - c
    info[I_STONES] += 1


@njit(nogil=True, cache=True, _nrt=False)
def unmake(bd: tuple) -> None:
    """Take back the last move made with `make`."""
    cells, keys, near, info, hashes, stack, tables, zobrist, dirs, codes, cand = bd
    ply = info[I_PLY] - 1
    p = np.int64(stack[ply])
    c = np.int64(cells[p])
    cells[p] = 0
    for d in range(4):
        step = dirs[d]
        for k in range(1, HALF + 1):
            q = p - k * step
            keys[d, q] -= c << key_bit(k)
            _set_codes(codes, tables, q, d, np.int64(keys[d, q]))
            q = p + k * step
            keys[d, q] -= c << key_bit(-k)
            _set_codes(codes, tables, q, d, np.int64(keys[d, q]))
    _touch_near(cells, near, cand, dirs, p, np.int64(-1))
    if near[p] > 0:
        _flip_candidate(cand, p)
    info[I_PLY] = ply
    info[I_SIDE] = c
    info[I_STONES] -= 1
