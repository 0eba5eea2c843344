"""The board's first promises: a five wins, pop takes it back, a taken point is refused."""

import pytest

from gomoku.core import Board, Color, Illegal, IllegalMoveError, Reason


def test_five_across_wins_and_pop_takes_it_back():
    board = Board.from_moves([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)])
    outcome = board.push(4, 0)
    assert outcome is not None and outcome.winner is Color.BLACK and outcome.reason is Reason.FIVE
    assert outcome.line == ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0))
    board.pop()
    assert board.outcome() is None and board.to_move is Color.BLACK


def test_occupied_point_is_refused_with_reason():
    board = Board.from_moves([(7, 7)])
    with pytest.raises(IllegalMoveError) as err:
        board.push(7, 7)
    assert err.value.reason is Illegal.OCCUPIED
    assert board.moves == [(7, 7)]


@pytest.mark.parametrize("size", [14, 21, 0])
def test_board_size_outside_15_to_20_is_refused(size: int) -> None:
    with pytest.raises(ValueError, match="15 to 20"):
        Board(size)


def test_copy_is_independent_of_the_original() -> None:
    board = Board.from_moves([(7, 7), (8, 8)])
    clone = board.copy()
    clone.push(9, 9)
    clone.pop()
    clone.pop()
    assert board.moves == [(7, 7), (8, 8)] and board[(8, 8)] == Color.WHITE
    assert clone.moves == [(7, 7)] and clone[(8, 8)] == 0


def test_pop_on_an_empty_board_is_an_index_error() -> None:
    with pytest.raises(IndexError):
        Board().pop()
