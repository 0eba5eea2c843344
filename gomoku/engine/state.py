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
from numba import njit

from gomoku.engine.patterns import HALF, key_bit

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


@njit(nogil=True, cache=True)
def _init_arrays(grid: np.ndarray, side: int, rule: int, cells: np.ndarray, keys: np.ndarray,
                 near: np.ndarray, info: np.ndarray, hashes: np.ndarray, zobrist: np.ndarray,
                 dirs: np.ndarray, tables: np.ndarray, codes: np.ndarray, cand: np.ndarray) -> None:
    size = grid.shape[0]
    stride = size + 2 * PAD
    n_cells = stride * stride
    dirs[0] = 1
    dirs[1] = stride
    dirs[2] = stride + 1
    dirs[3] = stride - 1
    info[:] = 0
    info[I_SIZE] = size
    info[I_STRIDE] = stride
    info[I_RULE] = rule
    info[I_SIDE] = side
    cells[:] = EDGE
    near[:] = 0
    keys[:, :] = 0
    h = np.uint64(0)
    stones = 0
    for y in range(size):
        for x in range(size):
            p = (y + PAD) * stride + x + PAD
            v = grid[y, x]
            cells[p] = v
            if v != 0:
                h ^= zobrist[v - 1, p]
                stones += 1
    info[I_STONES] = stones
    hashes[0] = h
    for p in range(n_cells):
        row = p // stride
        col = p % stride
        if row < PAD or row >= PAD + size or col < PAD or col >= PAD + size:
            continue
        for d in range(4):
            key = 0
            for k in range(1, HALF + 1):
                key |= np.int64(cells[p + k * dirs[d]]) << key_bit(k)
                key |= np.int64(cells[p - k * dirs[d]]) << key_bit(-k)
            keys[d, p] = key
            _set_codes(codes, tables, p, d, np.int64(key))
        if cells[p] == 1 or cells[p] == 2:
            _touch_near(cells, near, cand, dirs, p, np.int64(1))


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
    """A board state for `grid` ([y, x] int8) with `side` (1 or 2) to move under `rule`."""
    size = grid.shape[0]
    if grid.shape != (size, size) or not 5 <= size <= MAX_SIZE:
        raise ValueError(f"the engine takes a square board of 5 to {MAX_SIZE}, not {grid.shape}")
    n_cells = (size + 2 * PAD) ** 2
    cells = np.zeros(n_cells, dtype=np.int8)
    keys = np.zeros((4, n_cells), dtype=np.int32)
    near = np.zeros(n_cells, dtype=np.int16)
    info = np.zeros(8, dtype=np.int64)
    hashes = np.zeros(MAX_PLY + 9, dtype=np.uint64)
    stack = np.zeros(MAX_PLY + 8, dtype=np.int32)
    dirs = np.zeros(4, dtype=np.int64)
    zobrist = ZOBRIST[:, :n_cells].copy()
    codes = np.zeros((2, n_cells), dtype=np.uint16)
    cand = np.zeros(n_cells // 64 + 1, dtype=np.uint64)
    _init_arrays(np.ascontiguousarray(grid, dtype=np.int8), side, rule, cells, keys, near, info,
                 hashes, zobrist, dirs, tables, codes, cand)
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
