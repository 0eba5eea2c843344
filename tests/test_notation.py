"""Notation: "h8" points and move lists, both ways, with clear errors on bad text."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gomoku.core.notation import NotationError, format_moves, format_point, parse_moves, parse_point

SIZES = range(15, 21)


@pytest.mark.parametrize("size", SIZES)
def test_every_point_round_trips_on_every_size(size: int) -> None:
    seen = set()
    for y in range(size):
        for x in range(size):
            text = format_point((x, y), size)
            assert parse_point(text, size) == (x, y)
            assert parse_point(text.upper(), size) == (x, y)
            seen.add(text)
    assert len(seen) == size * size  # no two points share a name


def test_the_centre_and_corners_read_as_in_renju_books() -> None:
    assert format_point((7, 7), 15) == "h8"
    assert format_point((0, 14), 15) == "a1"  # bottom left
    assert format_point((14, 0), 15) == "o15"  # top right
    assert format_point((19, 0), 20) == "t20"
    assert format_point((8, 14), 15) == "i1"  # no letter is skipped
    assert parse_point(" J10 ", 15) == (9, 5)


def test_move_lists_both_ways() -> None:
    moves = [(7, 7), (8, 6), (9, 8), (9, 5)]
    assert format_moves(moves, 15) == "h8i9j7j10"
    assert parse_moves("h8i9j7j10", 15) == moves
    assert parse_moves("H8, i9 ;j7\n  J10,", 15) == moves
    assert parse_moves("", 15) == [] and parse_moves(" , ", 15) == []


@given(
    st.integers(15, 20).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=60),
        )
    )
)
def test_any_move_list_round_trips(case: tuple[int, list[tuple[int, int]]]) -> None:
    size, moves = case
    assert parse_moves(format_moves(moves, size), size) == moves
    assert parse_moves(" , ".join(format_point(p, size) for p in moves).upper(), size) == moves


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("z9", "'z9' is off a 15x15 board"),
        ("p1", "'p1' is off a 15x15 board"),
        ("a16", "'a16' is off a 15x15 board"),
        ("a0", "'a0' is off a 15x15 board"),
        ("h", "expected a letter then a number at 'h'"),
        ("8h", "expected a letter then a number at '8h'"),
        ("h123", "expected a letter then a number at 'h123'"),
        ("", "expected a letter then a number at ''"),
    ],
)
def test_bad_points_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_point(text, 15)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("h8 i", "expected a letter then a number at 'i'"),
        ("h8i9 9", "expected a letter then a number at '9'"),
        ("h8 z9", "'z9' is off a 15x15 board"),
        ("h8-i9", "expected a letter then a number at '-i9'"),
    ],
)
def test_bad_move_lists_name_the_first_bad_spot(text: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_moves(text, 15)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_points_off_the_board_cannot_be_written() -> None:
    with pytest.raises(ValueError):
        format_point((15, 0), 15)
    with pytest.raises(ValueError):
        format_point((0, 0), 21)
