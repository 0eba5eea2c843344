"""Renju restrictions for black, checked on hand-verified positions drawn as ASCII diagrams.

Diagram legend: X black, O white, . empty, * the empty point black is about to play.
Unless a case says otherwise the diagram is placed so that * lands on h8 (7, 7) of a 15x15
board, far from the edges; every other board point is empty.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gomoku.core import Board, Color, Illegal, IllegalMoveError, Point, Reason, Rule
from gomoku.core.notation import format_point, parse_moves
from gomoku.core.records import RecordError, parse_record, to_game
from gomoku.core.renju import black_can_play, forbidden_points, forbidden_reason

SIZE = 15
CENTRE = (7, 7)
SYMBOLS = {".": 0, "*": 0, "X": int(Color.BLACK), "O": int(Color.WHITE)}


def parse_diagram(diagram: str, at: Point | None = None, size: int = SIZE) -> tuple[np.ndarray, Point]:
    """A grid from an ASCII diagram and the board point of its `*`.

    `at` is where the diagram's top-left cell goes; by default the `*` lands on h8.
    """
    rows = [row.replace(" ", "") for row in diagram.strip().splitlines()]
    star = next((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "*")
    left, top = at if at is not None else (CENTRE[0] - star[0], CENTRE[1] - star[1])
    grid = np.zeros((size, size), dtype=np.int8)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            grid[top + y, left + x] = SYMBOLS[ch]
    return grid, (left + star[0], top + star[1])


def board_from_grid(grid: np.ndarray, rule: Rule = Rule.RENJU) -> Board:
    """A Board reaching `grid` with black to move, padding with far stones in the bottom row."""
    size = grid.shape[0]
    blacks = [(int(x), int(y)) for y, x in zip(*np.nonzero(grid == Color.BLACK), strict=True)]
    whites = [(int(x), int(y)) for y, x in zip(*np.nonzero(grid == Color.WHITE), strict=True)]
    # Fillers sit two apart on the bottom row, then the top row, far from the diagrams.
    fillers = iter(
        (x, y) for y in (size - 1, 0) for x in range(size - 1, -1, -2) if grid[y, x] == 0
    )
    while len(whites) < len(blacks):
        whites.append(next(fillers))
    while len(blacks) < len(whites):
        blacks.append(next(fillers))
    moves = [move for pair in zip(blacks, whites, strict=True) for move in pair]
    return Board.from_moves(moves, size, rule)


def far_empty_point(board: Board) -> Point:
    """An empty point in the second row, away from the diagrams and the fillers."""
    return next((x, 1) for x in range(board.size - 1, -1, -3) if board[(x, 1)] == 0)


@dataclass(frozen=True)
class Case:
    """One position: what black playing `*` is (None: legal), with a one-line description."""

    name: str
    diagram: str
    expected: Illegal | None
    at: Point | None = None


CASES = [
    # Open three across (XX*) and open three down (X*X) cross at the move.
    Case("double three: two open threes", """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . X X * . . .
        . . . X . . .
        . . . . . . .
        . . . . . . .
    """, Illegal.DOUBLE_THREE),
    # Split three across (X.X*) and split three down (*.XX).
    Case("double three: two split threes", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . X . X * . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . . . . . .
    """, Illegal.DOUBLE_THREE),
    # Open threes on both diagonals, the move in the middle of each.
    Case("double three: both diagonals", """
        . . . . . . .
        . . . . . . .
        . . X . X . .
        . . . * . . .
        . . X . X . .
        . . . . . . .
        . . . . . . .
    """, Illegal.DOUBLE_THREE),
    # Split three with the move beside the gap (X*.X) and an open three down (*XX).
    Case("double three: X*.X and *XX", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X * . X . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, Illegal.DOUBLE_THREE),
    # Split three with the gap next to the move (XX.*) and a diagonal open three.
    Case("double three: XX.* and diagonal", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X X . * . . . . .
        . . . . X . . . .
        . . . . . X . . .
        . . . . . . . . .
        . . . . . . . . .
    """, Illegal.DOUBLE_THREE),
    # Three open threes at once (across, down, diagonal) are a double three too.
    Case("triple three", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . X X * . . . .
        . . . . . X . . .
        . . . . . . X . .
        . . . . . . . . .
        . . . . . . . . .
    """, Illegal.DOUBLE_THREE),
    # A white stone two beyond the three (.XX*.O) leaves the far side open: still a three.
    Case("double three: white two cells away does not stop a three", """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . X X * . O .
        . . . X . . .
        . . . . . . .
        . . . . . . .
    """, Illegal.DOUBLE_THREE),
    # One cell off the edge (|.XX*.) black can still make a straight four inward: a three.
    Case("double three: three one cell from the edge", """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . X X * . . .
        . . . X . . .
        . . . . . . .
        . . . . . . .
    """, Illegal.DOUBLE_THREE, at=(0, 4)),
    # A white stone against the three (OXX*.) closes it: only one three, legal.
    Case("false double three: one three closed by white", """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        O X X * . . .
        . . . X . . .
        . . . . . . .
        . . . . . . .
    """, None),
    # O.XXX.O cannot become a straight four on either side: not a three, legal.
    Case("false double three: three boxed by whites two cells away", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . O . X * X . O .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, None),
    # The board edge closes the three (|XX*.): only one three, legal.
    Case("false double three: three against the edge", """
        . . . . . .
        . . . . . .
        . . X . . .
        X X * . . .
        . . X . . .
        . . . . . .
        . . . . . .
    """, None, at=(0, 4)),
    # X..XX*..X: either straight four would have a six on one side: not a three, legal.
    Case("false double three: the four would be an overline", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . X . . .
        X . . X X * . . X
        . . . . . X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, None),
    # X.X.X (the move in the middle) is no three: legal with one real three.
    Case("X.*.X is not a three", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . X . * . X . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, None),
    # X*.X across has one straight-four point, the gap, where black would make six down.
    Case("false double three: the only completion point is an overline", """
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . X X . . . .
        . . X * . X . . .
        . . . X X . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, None),
    # Same shape with one stone fewer down: the gap now makes a five, so the three is real.
    Case("double three: the completion point makes a five instead", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . X X . . . .
        . . X * . X . . .
        . . . X X . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, Illegal.DOUBLE_THREE),
    # X*.X across whose gap would be a double four (straight four across + OXXX. down): legal.
    Case("false double three: the only completion point is a double four", """
        . . . . O . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . X X . . . .
        . . X * . X . . .
        . . . X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, None),
    # X*.X across whose gap would itself be a double three (nested one level down): legal.
    Case("false double three: the only completion point is a double three", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . X * . X . . .
        . . . X . X . . .
        . . . X . . X . .
        . . . . . . . . .
        . . . . . . . . .
    """, None),
    # .XX*. across: one end point would be six down, the other end is fine: still a three.
    Case("double three: one of two completion points forbidden is enough to stay a three", """
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . X X . . . .
        . X X * . . . . .
        . . . X X . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, Illegal.DOUBLE_THREE),
    # A closed four across (OXXX*.) and an open three down: four-three is legal.
    Case("four-three is legal", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        O X X X * . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, None),
    # Two closed fours crossing at the move (OXXX*. across, OX*XX. down).
    Case("double four: two lines", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . O . . . .
        . . . . X . . . .
        O X X X * . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, Illegal.DOUBLE_FOUR),
    # Two split fours: XX.*X across and *.XXX on the diagonal.
    Case("double four: two split fours", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . X X . * X . . .
        . . . . . . . . .
        . . . . . . X . .
        . . . . . . . X .
        . . . . . . . . X
    """, Illegal.DOUBLE_FOUR),
    # A straight four across (.XXX*.) is one four, but with a closed four down it is two.
    Case("double four: straight four plus a four", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . O . . . .
        . . . . X . . . .
        . X X X * . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, Illegal.DOUBLE_FOUR),
    # X.X*X.X: two fours on one line, the move in the middle.
    Case("double four on one line: X.XXX.X", """
        X . X * X . X
    """, Illegal.DOUBLE_FOUR),
    # X.XX*.X: the same shape with the move beside the middle stone.
    Case("double four on one line: X.XXX.X, move off centre", """
        X . X X * . X
    """, Illegal.DOUBLE_FOUR),
    # XX.X*.XX: two fours on one line.
    Case("double four on one line: XX.XX.XX", """
        X X . X * . X X
    """, Illegal.DOUBLE_FOUR),
    # XXX.*.XXX: two fours on one line.
    Case("double four on one line: XXX.X.XXX", """
        X X X . * . X X X
    """, Illegal.DOUBLE_FOUR),
    # *.XXX.X: the right-hand four existed before and does not pass through the move.
    Case("one four through the move: the other four was already there", """
        * . X X X . X
    """, None),
    # .XXX*. alone: a straight four is one four, legal.
    Case("straight four alone is legal", """
        . X X X * .
    """, None),
    # OXXX*.X across would need a six to complete: no four there, so one four only.
    Case("a four that can only make six is no four: no double four", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . O . . . .
        . . . . X . . . .
        O X X X * . X . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, None),
    # XXX*XX: six in a row.
    Case("overline: six", """
        X X X * X X
    """, Illegal.OVERLINE),
    # XX*XXXX: seven in a row, joining two groups.
    Case("overline: seven", """
        X X * X X X X
    """, Illegal.OVERLINE),
    # Along the top edge: XXXX*X is still six.
    Case("overline: on the edge", """
        X X X X * X
    """, Illegal.OVERLINE, at=(0, 0)),
    # Five across while the same move makes six down: the five wins.
    Case("five wins although the move also makes an overline", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . X X X X * . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, None),
    # Five across while the same move makes two fours (down and diagonal): the five wins.
    Case("five wins although the move also makes a double four", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . O . . . . .
        . . . . . X . . . . .
        . . . . O X . . . . .
        . X X X X * . . . . .
        . . . . . X X . . . .
        . . . . . . . X . . .
        . . . . . . . . X . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, None),
    # Five across while the same move makes two open threes: the five wins.
    Case("five wins although the move also makes a double three", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . X X . . . . .
        . X X X X * . . . . .
        . . . . . X X . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, None),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_forbidden_reason(case: Case) -> None:
    grid, point = parse_diagram(case.diagram, case.at)
    before = grid.copy()
    assert forbidden_reason(grid, *point) is case.expected
    assert (point in forbidden_points(grid)) == (case.expected is not None)
    assert np.array_equal(grid, before), "the check must not change the grid"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_board_push_obeys_the_table(case: Case) -> None:
    grid, point = parse_diagram(case.diagram, case.at)
    board = board_from_grid(grid)
    assert board.to_move is Color.BLACK and np.array_equal(board.grid[1:-1], grid[1:-1])
    moves_before, grid_before = list(board.moves), board.grid.copy()
    if case.expected is None:
        board.push(*point)
        assert board.moves[-1] == point
        return
    with pytest.raises(IllegalMoveError) as refused:
        board.push(*point)
    assert refused.value.reason is case.expected
    assert board.check_move(*point) is case.expected
    assert point in board.forbidden_points() and point not in board.legal_moves()
    assert board.moves == moves_before and np.array_equal(board.grid, grid_before)
    assert board.outcome() is None, "a refused overline must not win"


def test_table_is_big_enough() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize(
    "case_name",
    [
        "five wins although the move also makes an overline",
        "five wins although the move also makes a double four",
        "five wins although the move also makes a double three",
    ],
)
def test_five_with_a_forbidden_shape_wins_for_black(case_name: str) -> None:
    case = next(case for case in CASES if case.name == case_name)
    grid, point = parse_diagram(case.diagram, case.at)
    outcome = board_from_grid(grid).push(*point)
    assert outcome is not None and outcome.winner is Color.BLACK and outcome.reason is Reason.FIVE
    assert len(outcome.line) == 5 and point in outcome.line
    assert {y for _, y in outcome.line} == {point[1]}, "the five across wins, not the line down"


def test_white_overline_wins_under_renju() -> None:
    grid, point = parse_diagram("X X X * X X")
    grid[grid == Color.BLACK] = Color.WHITE
    # White to move: black gets one extra far stone so white's turn comes with this grid.
    board = board_from_grid(grid)
    board.push(*far_empty_point(board))
    outcome = board.push(*point)
    assert outcome is not None and outcome.winner is Color.WHITE and len(outcome.line) == 6


@pytest.mark.parametrize("case", [c for c in CASES if c.expected is not None], ids=lambda c: c.name)
def test_white_is_never_restricted(case: Case) -> None:
    grid, point = parse_diagram(case.diagram, case.at)
    swapped = grid.copy()
    swapped[grid == Color.BLACK] = Color.WHITE
    swapped[grid == Color.WHITE] = Color.BLACK
    board = board_from_grid(swapped)
    board.push(*far_empty_point(board))  # a far black stone hands the move to white
    assert board.to_move is Color.WHITE
    assert board.check_move(*point) is None and point in board.legal_moves()
    board.push(*point)
    assert board.moves[-1] == point


def test_forbidden_points_picks_the_one_forbidden_gap() -> None:
    # In X.X.X.X only the middle gap makes two fours; the outer gaps make one four each.
    grid, _ = parse_diagram("X . X * X . X")
    assert forbidden_points(grid) == {(7, 7)}
    assert forbidden_reason(grid, 7, 7) is Illegal.DOUBLE_FOUR
    assert forbidden_reason(grid, 5, 7) is None and forbidden_reason(grid, 9, 7) is None


def test_forbidden_reason_refuses_a_taken_or_outside_point() -> None:
    grid, point = parse_diagram("X X *")
    with pytest.raises(ValueError, match="not empty"):
        forbidden_reason(grid, 6, 7)
    with pytest.raises(ValueError, match="off"):
        forbidden_reason(grid, SIZE, 0)
    assert forbidden_reason(grid, *point) is None


SYMMETRIES = [
    lambda g: g,
    lambda g: np.rot90(g, 1),
    lambda g: np.rot90(g, 2),
    lambda g: np.rot90(g, 3),
    lambda g: g.T,
    lambda g: np.fliplr(g),
    lambda g: np.flipud(g),
    lambda g: np.rot90(g, 2).T,
]


def _points_grid(points: set[Point], size: int) -> np.ndarray:
    marks = np.zeros((size, size), dtype=np.int8)
    for x, y in points:
        marks[y, x] = 1
    return marks


@settings(max_examples=40, deadline=None)
@given(
    cells=st.lists(
        st.tuples(st.integers(3, 11), st.integers(3, 11), st.sampled_from([1, 1, 2])),
        min_size=6,
        max_size=40,
    )
)
def test_forbidden_points_agree_with_forbidden_reason_under_every_symmetry(cells) -> None:
    grid = np.zeros((SIZE, SIZE), dtype=np.int8)
    for x, y, colour in cells:
        grid[y, x] = colour
    points = forbidden_points(grid)
    # The fast prefilter must not drop a point the full check would refuse.
    assert points == {
        (x, y) for y in range(SIZE) for x in range(SIZE)
        if grid[y, x] == 0 and forbidden_reason(grid, x, y) is not None
    }
    marks = _points_grid(points, SIZE)
    for symmetry in SYMMETRIES:
        turned = np.ascontiguousarray(symmetry(grid))
        assert np.array_equal(_points_grid(forbidden_points(turned), SIZE), symmetry(marks))


# A renju game played to the end by hard (black) and Rapfi 0.43 (white) in the arena, 1 s a move:
# after white's 222nd stone, j2, the three empty points are all forbidden to black. The game used
# to go on there: the engine as black answered "no legal move left", and a person playing black
# could click nothing.
NO_POINT_FOR_BLACK = """
g10 f9 j9 f10 f8 g11 e9 f11 e11 e10 d10 f12 f13 g7 c11 b12 d11 d9 g12 h11 b11 a11 e13 d13
i11 h7 f14 d12 e12 g14 c8 c10 h10 g9 i7 j10 g6 h5 h6 i6 g8 g5 e15 e14 g13 h12 i13 h13 i10
i9 f6 e6 j11 k12 f7 h9 f5 f4 k11 g4 f3 e4 l11 m11 h4 l10 k5 n12 k9 m12 l12 e5 e3 k8 j7
m10 e8 d8 m9 g3 h2 g2 g1 n10 k10 n11 n13 l9 o12 l4 k6 l5 i8 h8 j4 i3 i14 i12 l6 h14 h15
k14 j15 m14 m13 n8 n9 m8 l8 n14 l14 j3 k3 k4 m6 d6 c7 l15 j13 n6 l3 c5 c4 d5 d7 e7 j14
j12 b5 c6 a6 b4 a3 n4 d3 e2 i2 l2 c9 a5 n2 m3 o4 a7 d15 a10 f15 g15 a8 o7 o10 k1 o5 l1
o11 o13 o2 o3 j1 n1 n5 d2 f2 a2 c12 d4 b2 n7 k2 m4 c15 b15 o1 e1 c3 c14 k7 f1 b8 l7 b7 i4
h3 a14 a13 b6 l13 d14 b14 o9 i5 b10 j8 m5 m1 m15 b13 b1 a12 d1 c1 c13 h1 o8 j5 a15 a1 n15
o15 m7 i15 n3 o14 b9 o6 m2 a9 i1 k15 a4 c2 j2
"""


def test_a_game_where_black_may_play_no_point_left_is_drawn() -> None:
    moves = parse_moves(NO_POINT_FOR_BLACK, SIZE)
    board = Board.from_moves(moves[:-1], SIZE, Rule.RENJU)
    assert board.outcome() is None and board.to_move is Color.WHITE
    outcome = board.push(*moves[-1])
    empty = {(int(x), int(y)) for y, x in zip(*np.nonzero(board.grid == 0), strict=True)}
    assert len(empty) == 3 and forbidden_points(board.grid) == empty
    assert outcome is not None and outcome.winner is None and outcome.reason is Reason.FULL_BOARD
    assert board.is_game_over() and board.legal_moves() == []
    board.pop()
    assert board.outcome() is None and len(board.legal_moves()) == 4  # white may play any of 4
    # Under freestyle the same stones leave black its three points: the game goes on.
    assert Board.from_moves(moves, SIZE, Rule.FREESTYLE).outcome() is None


def test_black_can_play_while_any_point_is_not_forbidden() -> None:
    moves = parse_moves(NO_POINT_FOR_BLACK, SIZE)
    board = Board.from_moves(moves[:-2], SIZE, Rule.RENJU)  # black to move, five points empty
    assert board.to_move is Color.BLACK
    legal = board.legal_moves()
    assert legal and black_can_play(board.grid)
    assert not black_can_play(Board.from_moves(moves, SIZE, Rule.RENJU).grid)
    assert black_can_play(np.zeros((SIZE, SIZE), dtype=np.int8))


def test_a_record_saved_before_the_draw_rule_still_loads_and_shows_the_draw() -> None:
    moves = parse_moves(NO_POINT_FOR_BLACK, SIZE)
    lines = ["Gomoku record 1", "Rule: renju", "Size: 15", "Black: Ann", "White: Bob",
             "Result: white", "Reason: resign", f"Move count: {len(moves)}", "", "Moves:"]
    lines += [f"{i}. {format_point(p, SIZE)}" for i, p in enumerate(moves, 1)]
    record = parse_record("\n".join(lines) + "\n")  # black could only resign then
    game = to_game(record)
    assert game.result is not None and game.result.winner is None
    assert game.result.reason is Reason.FULL_BOARD
    with pytest.raises(RecordError, match="end in draw"):  # a five is still a five's to claim
        parse_record("\n".join(lines).replace("Reason: resign", "Reason: five") + "\n")
