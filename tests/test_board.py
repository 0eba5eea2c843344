"""Property tests for the Board: exact undo, symmetry, draws, line lengths per rule, refusals."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gomoku.core import (
    DIRECTIONS,
    MAX_SIZE,
    MIN_SIZE,
    Board,
    Color,
    Illegal,
    IllegalMoveError,
    Point,
    Reason,
    Rule,
)

Symmetry = Callable[[Point], Point]


def snapshot(board: Board) -> tuple:
    """Everything a player could notice about a board."""
    return (board.grid.tobytes(), list(board.moves), board.outcome(), board.to_move, board.ply)


@st.composite
def played_boards(draw: st.DrawFn, to_the_end: bool = False) -> Board:
    """A board after random legal moves crowded into a small area so fives happen.

    With `to_the_end`, play goes on until a five or until the area is full.
    """
    rule = draw(st.sampled_from(list(Rule)))
    size = draw(st.integers(MIN_SIZE, MAX_SIZE))
    width = draw(st.integers(5, 7))
    left = draw(st.integers(0, size - width))
    top = draw(st.integers(0, size - width))
    board = Board(size, rule)
    moves = width * width if to_the_end else draw(st.integers(0, width * width))
    for _ in range(moves):
        if board.is_game_over():
            break
        area = [(x, y) for x, y in board.legal_moves() if left <= x < left + width and top <= y < top + width]
        if not area:
            break
        board.push(*area[draw(st.integers(0, len(area) - 1))])
    return board


def symmetries(size: int) -> list[Symmetry]:
    """The 8 symmetries of a size x size board, as point maps."""
    last = size - 1
    maps = []
    for transpose in (False, True):
        for flip_x in (False, True):
            for flip_y in (False, True):

                def mapping(p: Point, t: bool = transpose, fx: bool = flip_x, fy: bool = flip_y) -> Point:
                    x, y = (p[1], p[0]) if t else p
                    return (last - x if fx else x, last - y if fy else y)

                maps.append(mapping)
    return maps


def wins(rule: Rule, colour: Color, length: int) -> bool:
    """The rules as specified: five always wins; six or more only in freestyle and for renju white."""
    if length == 5:
        return True
    return length > 5 and (rule is Rule.FREESTYLE or (rule is Rule.RENJU and colour is Color.WHITE))


def winning_runs(board: Board) -> list[frozenset[Point]]:
    """The winning runs through the last move, found straight from the rules above."""
    x, y = board.moves[-1]
    colour = Color(board[(x, y)])
    runs = [frozenset(board.line_through(x, y, dx, dy)) for dx, dy in DIRECTIONS]
    return [run for run in runs if wins(board.rule, colour, len(run))]


@settings(max_examples=60, deadline=None)
@given(board=played_boards())
def test_push_then_pop_restores_the_board_exactly(board: Board) -> None:
    replay = Board(board.size, board.rule)
    history = [snapshot(replay)]
    for move in board.moves:
        replay.push(*move)
        history.append(snapshot(replay))
    assert snapshot(replay) == snapshot(board)
    for expected in reversed(history[:-1]):
        replay.pop()
        assert snapshot(replay) == expected
    with pytest.raises(IndexError):
        replay.pop()


@settings(max_examples=60, deadline=None)
@given(board=played_boards(to_the_end=True))
def test_outcome_and_legality_are_the_same_under_all_symmetries(board: Board) -> None:
    outcome = board.outcome()
    for symmetry in symmetries(board.size):
        turned = Board(board.size, board.rule)
        original = Board(board.size, board.rule)
        for move in board.moves:
            # A point is refused (and why) on one board exactly when its image is on the other.
            assert turned.check_move(*symmetry(move)) is original.check_move(*move)
            original.push(*move)
            turned.push(*symmetry(move))
        assert turned.forbidden_points() == {symmetry(p) for p in original.forbidden_points()}
        turned_outcome = turned.outcome()
        if outcome is None:
            assert turned_outcome is None
            continue
        assert turned_outcome is not None
        assert (turned_outcome.winner, turned_outcome.reason) == (outcome.winner, outcome.reason)
        if outcome.reason is Reason.FIVE:
            mapped = frozenset(symmetry(p) for p in outcome.line)
            runs = winning_runs(turned)
            assert mapped in runs and frozenset(turned_outcome.line) in runs
            if len(runs) == 1:  # with one winning line both boards must name the same cells
                assert mapped == frozenset(turned_outcome.line)


def draw_fill(size: int) -> list[Point]:
    """A legal move order that fills the board with no five, six or even three for either side.

    Colour by (x + 2y + shift) mod 4: runs of at most two across, diagonally and down.
    """
    black_count = (size * size + 1) // 2
    for shift in range(4):
        black = [(x, y) for y in range(size) for x in range(size) if (x + 2 * y + shift) % 4 < 2]
        white = [(x, y) for y in range(size) for x in range(size) if (x + 2 * y + shift) % 4 >= 2]
        if len(black) == black_count:
            moves = [move for pair in zip(black, white, strict=False) for move in pair]
            return moves + black[len(white):]
    raise AssertionError(f"no balanced fill for size {size}")


@pytest.mark.parametrize("rule", list(Rule))
@pytest.mark.parametrize("size", [MIN_SIZE, 16, MAX_SIZE])
def test_full_board_is_a_draw(rule: Rule, size: int) -> None:
    board = Board(size, rule)
    moves = draw_fill(size)
    for move in moves[:-1]:
        assert board.push(*move) is None
    outcome = board.push(*moves[-1])
    assert outcome is not None and outcome.winner is None and outcome.reason is Reason.FULL_BOARD
    assert board.is_game_over() and board.legal_moves() == []


@st.composite
def line_setups(draw: st.DrawFn, length: int) -> tuple[Board, Point, Color, tuple[Point, ...]]:
    """A board where `colour` (to move) completes `length` in a row by filling one gap.

    The opponent's stones sit on points with both coordinates even, off the line: never a run.
    """
    rule = draw(st.sampled_from(list(Rule)))
    colour = draw(st.sampled_from(list(Color)))
    if rule is Rule.RENJU and colour is Color.BLACK and length > 5:
        colour = Color.WHITE  # black cannot even try an overline under renju (see test_renju)
    size = draw(st.integers(MIN_SIZE, MAX_SIZE))
    dx, dy = draw(st.sampled_from(DIRECTIONS))
    span = length - 1
    xs = range(0, size - span) if dx == 1 else range(size)
    ys = range(0, size - span) if dy == 1 else range(span, size) if dy == -1 else range(size)
    start = (draw(st.sampled_from(xs)), draw(st.sampled_from(ys)))
    line = tuple((start[0] + i * dx, start[1] + i * dy) for i in range(length))
    # An inner gap for six, or the five stones already down would have won.
    gap = line[draw(st.integers(0, length - 1) if length == 5 else st.integers(1, length - 2))]
    mine = [p for p in line if p != gap]
    spare = [(x, y) for y in range(0, size, 2) for x in range(0, size, 2) if (x, y) not in line]
    theirs_needed = len(mine) if colour is Color.BLACK else len(mine) + 1
    theirs = spare[:theirs_needed]
    blacks, whites = (mine, theirs) if colour is Color.BLACK else (theirs, mine)
    moves = [p for pair in zip(blacks, whites, strict=False) for p in pair]
    moves += blacks[len(whites):]
    board = Board.from_moves(moves, size, rule)
    assert board.to_move is colour and board.outcome() is None
    return board, gap, colour, line


@settings(max_examples=60, deadline=None)
@given(setup=line_setups(5))
def test_exactly_five_wins_under_every_rule(setup) -> None:
    board, gap, colour, line = setup
    outcome = board.push(*gap)
    assert outcome is not None and outcome.winner is colour and outcome.reason is Reason.FIVE
    assert frozenset(outcome.line) == frozenset(line)


@settings(max_examples=80, deadline=None)
@given(setup=line_setups(6))
def test_six_wins_only_in_freestyle_and_for_renju_white(setup) -> None:
    board, gap, colour, line = setup
    outcome = board.push(*gap)
    if board.rule is Rule.STANDARD:
        assert outcome is None and not board.is_game_over(), "standard: six is not a win"
        assert board.legal_moves(), "the game goes on"
    else:  # freestyle for both, renju for white (black's overline is refused in test_renju)
        assert outcome is not None and outcome.winner is colour
        assert frozenset(outcome.line) == frozenset(line)


@settings(max_examples=60, deadline=None)
@given(board=played_boards(), data=st.data())
def test_illegal_moves_are_refused_and_change_nothing(board: Board, data: st.DataObject) -> None:
    before = snapshot(board)
    off = data.draw(
        st.one_of(
            st.tuples(st.integers(-50, -1), st.integers(-50, 70)),
            st.tuples(st.integers(board.size, 70), st.integers(-50, 70)),
            st.tuples(st.integers(0, board.size - 1), st.sampled_from([-1, board.size, 99])),
        )
    )
    attempts: list[tuple[Point, Illegal]] = [(off, Illegal.OFF_BOARD)]
    if board.moves:
        attempts.append((data.draw(st.sampled_from(board.moves)), Illegal.OCCUPIED))
    if board.is_game_over():
        empty = [(x, y) for y in range(board.size) for x in range(board.size) if board[(x, y)] == 0]
        if empty:
            attempts.append((data.draw(st.sampled_from(empty)), Illegal.GAME_OVER))
    for point, reason in attempts:
        assert board.check_move(*point) is reason
        assert not board.is_legal(*point)
        with pytest.raises(IllegalMoveError) as refused:
            board.push(*point)
        assert refused.value.reason is reason and refused.value.point == point
        assert snapshot(board) == before


@pytest.mark.parametrize("bad", [(1.5, 2), ("h", 8), (None, 3)])
def test_non_integer_points_are_a_type_error(bad: tuple) -> None:
    board = Board()
    with pytest.raises(TypeError):
        board.push(*bad)
    assert board.moves == [] and not board.grid.any()


def test_numpy_integer_points_are_stored_as_plain_ints() -> None:
    board = Board()
    board.push(np.int64(7), np.int8(8))
    assert board.moves == [(7, 8)] and all(type(v) is int for v in board.moves[0])
