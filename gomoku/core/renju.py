"""Renju restrictions for black (RIF definitions): double-three, double-four, overline.

A move is judged by the four lines through it. Each line is read as 11 cells centred on the
move (empty, black, or blocked: white or off the board) and classified once, then memoised:
does it make a five, an overline, how many fours, and which points would turn it into a
straight four (a three). A three counts only if one of those points is itself legal for black,
which is checked recursively on the board with the move played (RIF rule 9.3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gomoku.core.types import Illegal, Point

_EMPTY, _BLACK, _BLOCKED = 0, 1, 2  # white (2) and the padding both block black's lines
_REACH = 5  # cells each side of a move that decide its shape on a line (a five plus its edge)
_CENTRE = _REACH
_WINDOW = 2 * _REACH + 1


@dataclass(frozen=True)
class LineShape:
    """What one move makes on one line: five, overline, fours, and its straight-four points.

    `three_points` are offsets from the move (-3..3) where one more black stone makes a straight
    four through the move; it is filled only when the line makes no five, overline or four.
    """

    five: bool = False
    overline: bool = False
    fours: int = 0
    three_points: tuple[int, ...] = ()


_shapes: dict[tuple[int, ...], LineShape] = {}


def _run_through(cells: list[int], i: int) -> tuple[int, int]:
    """The first and last index of the unbroken black run through index i."""
    lo = hi = i
    while lo > 0 and cells[lo - 1] == _BLACK:
        lo -= 1
    while hi < _WINDOW - 1 and cells[hi + 1] == _BLACK:
        hi += 1
    return lo, hi


def _completions(cells: list[int]) -> list[tuple[int, frozenset[int]]]:
    """Each empty point that makes exactly five through the centre, with the four it completes."""
    found = []
    for q in range(_CENTRE - 4, _CENTRE + 5):
        if cells[q] != _EMPTY:
            continue
        cells[q] = _BLACK
        lo, hi = _run_through(cells, _CENTRE)
        cells[q] = _EMPTY
        if hi - lo == 4 and lo <= q <= hi:
            found.append((q, frozenset(range(lo, hi + 1)) - {q}))
    return found


def _is_straight_four(cells: list[int]) -> bool:
    """Whether the run through the centre is four stones with an exact five open at both ends."""
    lo, hi = _run_through(cells, _CENTRE)
    return (
        hi - lo == 3
        and cells[lo - 1] == _EMPTY
        and cells[hi + 1] == _EMPTY
        and cells[lo - 2] != _BLACK  # else filling lo-1 makes six, not five
        and cells[hi + 2] != _BLACK
    )


def classify_line(line: tuple[int, ...]) -> LineShape:
    """The shape a black move at the centre of an 11-cell `line` makes (memoised).

    `line` holds 0 (empty), 1 (black) or 2 (blocked); its centre must be 1.
    """
    shape = _shapes.get(line)
    if shape is not None:
        return shape
    cells = list(line)
    lo, hi = _run_through(cells, _CENTRE)
    length = hi - lo + 1
    if length >= 6:
        shape = LineShape(overline=True)
    elif length == 5:
        shape = LineShape(five=True)
    else:
        # Two completion points of the same four stones are one straight four, not two fours.
        fours = len({stones for _, stones in _completions(cells)})
        if fours:
            shape = LineShape(fours=fours)
        else:
            points = []
            for e in range(_CENTRE - 3, _CENTRE + 4):
                if cells[e] != _EMPTY:
                    continue
                cells[e] = _BLACK
                lo_e, hi_e = _run_through(cells, _CENTRE)
                if lo_e <= e <= hi_e and _is_straight_four(cells):
                    points.append(e - _CENTRE)
                cells[e] = _EMPTY
            shape = LineShape(three_points=tuple(points))
    _shapes[line] = shape
    return shape


def _padded(grid: np.ndarray) -> tuple[list[int], int]:
    """The grid as a flat list with a blocked border _REACH wide, and the padded row width."""
    if grid.ndim != 2 or grid.shape[0] != grid.shape[1]:
        raise ValueError(f"grid must be square, not of shape {grid.shape}")
    padded = np.pad(np.asarray(grid, dtype=np.int8), _REACH, constant_values=_BLOCKED)
    return padded.ravel().tolist(), padded.shape[1]


def _strides(width: int) -> tuple[int, int, int, int]:
    """Flat-index steps along the four lines: across, down, diagonal, anti-diagonal (down-left)."""
    return (1, width, width + 1, width - 1)


def _judge(cells: list[int], width: int, index: int) -> Illegal | None:
    """Why black may not play the empty flat `index`, or None; `cells` is restored on return."""
    cells[index] = _BLACK
    try:
        strides = _strides(width)
        shapes = [
            classify_line(tuple(cells[index - _REACH * s : index + _REACH * s + 1 : s]))
            for s in strides
        ]
        if any(shape.five for shape in shapes):
            return None  # a five wins, whatever else the move makes
        if any(shape.overline for shape in shapes):
            return Illegal.OVERLINE
        if sum(shape.fours for shape in shapes) >= 2:
            return Illegal.DOUBLE_FOUR
        candidates = [(s, shape.three_points) for s, shape in zip(strides, shapes, strict=True) if shape.three_points]
        if len(candidates) < 2:
            return None
        threes = 0
        for stride, offsets in candidates:
            # A three is real only if some straight-four point is itself a legal black move.
            if any(_judge(cells, width, index + k * stride) is None for k in offsets):
                threes += 1
                if threes >= 2:
                    return Illegal.DOUBLE_THREE
        return None
    finally:
        cells[index] = _EMPTY


def forbidden_reason(grid: np.ndarray, x: int, y: int) -> Illegal | None:
    """Why black may not play the empty point (x, y) on `grid[y, x]`, or None if it may.

    A move that makes exactly five is never forbidden. Raises ValueError if (x, y) is off the
    board or not empty. Does not look at whose turn it is.
    """
    size = grid.shape[0]
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"point {(x, y)} is off a {size}x{size} board")
    if grid[y, x] != _EMPTY:
        raise ValueError(f"point {(x, y)} is not empty")
    cells, width = _padded(grid)
    return _judge_point(cells, width, x, y)


def _judge_point(cells: list[int], width: int, x: int, y: int) -> Illegal | None:
    """_judge for the board point (x, y) of a padded grid."""
    return _judge(cells, width, (y + _REACH) * width + x + _REACH)


def _candidates(grid: np.ndarray) -> np.ndarray:
    """A mask of the empty points that could be forbidden, judged by black stones on their lines.

    A three or four through a move needs two other black stones within 4 on that line, and
    black needs two such lines; a double-four on one line or an overline needs four within 5.
    """
    size = grid.shape[0]
    black = np.pad((grid == _BLACK).astype(np.int8), _REACH)
    busy_lines = np.zeros((size, size), dtype=np.int8)
    crowded = np.zeros((size, size), dtype=bool)
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        near = np.zeros((size, size), dtype=np.int8)
        for k in (-4, -3, -2, -1, 1, 2, 3, 4):
            near += black[_REACH + k * dy : _REACH + k * dy + size, _REACH + k * dx : _REACH + k * dx + size]
        far = near.copy()
        for k in (-5, 5):
            far += black[_REACH + k * dy : _REACH + k * dy + size, _REACH + k * dx : _REACH + k * dx + size]
        busy_lines += near >= 2
        crowded |= far >= 4
    return (grid == _EMPTY) & ((busy_lines >= 2) | crowded)


def forbidden_points(grid: np.ndarray) -> set[Point]:
    """Every empty point black may not play on `grid` (the colour to move is not checked)."""
    cells, width = _padded(grid)
    ys, xs = np.nonzero(_candidates(grid))
    return {
        (int(x), int(y))
        for y, x in zip(ys, xs, strict=True)
        if _judge_point(cells, width, int(x), int(y)) is not None
    }


def black_can_play(grid: np.ndarray) -> bool:
    """Whether black has a point it may play on `grid`: an empty point that is not forbidden.

    Cheap while the board has room: any empty point off the candidates' mask settles it."""
    candidates = _candidates(grid)
    if ((grid == _EMPTY) & ~candidates).any():
        return True
    cells, width = _padded(grid)
    ys, xs = np.nonzero(candidates)
    return any(
        _judge_point(cells, width, int(x), int(y)) is None for y, x in zip(ys, xs, strict=True)
    )
