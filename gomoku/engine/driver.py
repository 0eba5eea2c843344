"""The Python side of the search: levels, iterative deepening, time control.

PLACEHOLDER until the engine work lands: plays the legal point nearest the last stone.
"""

from __future__ import annotations

from collections.abc import Callable

from gomoku.core import Board
from gomoku.engine.api import Level, Position, Progress, SearchLimit, SearchResult, StopFlag


def warm_up() -> None:
    """Compile (or load from the cache) every numba function, so the first move is fast."""


def think(
    position: Position,
    level: Level,
    limit: SearchLimit,
    stop: StopFlag | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> SearchResult:
    """Choose a move for `position.to_move`; returns within `limit.time_s` (plus 10%)."""
    board = Board.from_moves(position.moves, position.size, position.rule)
    legal = board.legal_moves()
    if not legal:
        raise ValueError("no legal move in this position")
    cx, cy = board.last_move or (position.size // 2, position.size // 2)
    move = min(legal, key=lambda p: (abs(p[0] - cx) + abs(p[1] - cy), p))
    return SearchResult(move=move)
