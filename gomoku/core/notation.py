"""Points as text, as in renju books and Gomocalc: "h8" is column h, row 8.

Columns are letters from `a` on the left (a..o on 15x15, a..t on 20x20; no letter is
skipped), rows are numbers from 1 at the BOTTOM. Internally a Point is (x, y) with y from the
top, so row number = size - y. Move lists are points written one after another ("h8i9j7");
reading is case-insensitive and tolerates spaces, commas and semicolons between points.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gomoku.core.types import MAX_SIZE, MIN_SIZE, Point

_SEPARATORS = " \t\r\n,;"
_TOKEN = re.compile(r"([a-z])(\d{1,2})(?!\d)")


class NotationError(ValueError):
    """Text that is not a point or move list on the given board; the message says what is wrong."""


def counted(count: int, noun: str) -> str:
    """`count` and `noun` as a player reads them: "1 move", "0 moves", "2 moves" (plain -s nouns)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _check_size(size: int) -> None:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size must be {MIN_SIZE} to {MAX_SIZE}, not {size}")


def format_point(point: Point, size: int) -> str:
    """(7, 7) on 15x15 -> "h8". Raises ValueError for a point off the board."""
    _check_size(size)
    x, y = point
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"{point} is off a {size}x{size} board")
    return f"{chr(ord('a') + x)}{size - y}"


def parse_point(text: str, size: int) -> Point:
    """ "h8" (any case, surrounding spaces allowed) -> (7, 7) on 15x15; NotationError if not a point."""
    _check_size(size)
    cleaned = text.strip().lower()
    match = _TOKEN.fullmatch(cleaned)
    if match is None:
        raise NotationError(f"expected a letter then a number at {text.strip()!r}")
    return _to_point(match, size)


def format_moves(moves: Iterable[Point], size: int) -> str:
    """[(7, 7), (8, 6)] on 15x15 -> "h8i9"."""
    return "".join(format_point(point, size) for point in moves)


def parse_moves(text: str, size: int) -> list[Point]:
    """ "h8 i9, j7" or "H8I9J7" -> the points in order; NotationError naming the first bad spot.

    Does not check that the points are distinct or legal: Board.push does that.
    """
    _check_size(size)
    lowered = text.lower()
    points: list[Point] = []
    position = 0
    while position < len(lowered):
        if lowered[position] in _SEPARATORS:
            position += 1
            continue
        match = _TOKEN.match(lowered, position)
        if match is None:
            rest = text[position:].split()[0].split(",")[0]
            raise NotationError(f"expected a letter then a number at {rest[:8]!r}")
        points.append(_to_point(match, size))
        position = match.end()
    return points


def _to_point(match: re.Match[str], size: int) -> Point:
    letter, number = match.group(1), int(match.group(2))
    x = ord(letter) - ord("a")
    if x >= size or not 1 <= number <= size:
        raise NotationError(f"{match.group(0)!r} is off a {size}x{size} board")
    return (x, size - number)
