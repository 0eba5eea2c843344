"""The move list beside the board and in the review: one numbered (black, white) pair a line,
from the first move when it fits, the newest move in view when not, the wheel scrolls back, a
click in the review jumps to a move, an empty list says so."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gomoku.core.board import Board
from gomoku.core.records import GameRecord
from gomoku.core.types import Point, Rule
from gomoku.ui.app import SAMPLE_OPENING, App, AppOptions
from gomoku.ui.move_list import layout_lines


@pytest.fixture
def make_app(tmp_path: Path):
    apps: list[App] = []

    def build(size: tuple[int, int] = (1280, 800)) -> App:
        app = App(AppOptions(windowed=True, size=size, home=tmp_path / "home"))
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.close()


def long_game(count: int, size: int = 15) -> list[Point]:
    """`count` legal moves in reading order, skipping any that would end the game."""
    board = Board(size, Rule.FREESTYLE)
    for y in range(size):
        for x in range(size):
            if board.ply == count:
                return list(board.moves)
            if board.push(x, y) is not None:
                board.pop()
    return list(board.moves)


def shown_plies(app: App) -> list[int]:
    """The plies whose moves the list drew in the last frame."""
    return sorted(ply for _, ply in app.current.move_list._cells)


def post(event_type: int, **fields) -> None:
    pygame.event.post(pygame.event.Event(event_type, **fields))


def test_moves_read_down_one_numbered_pair_a_line_black_left_white_right(make_app) -> None:
    app = make_app((1280, 800))
    app.switch("board", {"mode": "local", "moves": [list(p) for p in SAMPLE_OPENING[:8]]})
    app.frame()
    cells = dict((ply, rect) for rect, ply in app.current.move_list._cells)
    assert sorted(cells) == list(range(1, 9))  # 4 pairs fit: every move from the first
    for ply in range(1, 9, 2):  # black's move and white's reply share a line, black on the left
        assert cells[ply].top == cells[ply + 1].top and cells[ply].left < cells[ply + 1].left
        assert cells[ply].left == cells[1].left and cells[ply + 1].left == cells[2].left  # columns
    assert cells[3].top > cells[1].top  # the next pair on the next line


def test_an_empty_list_says_so(make_app) -> None:
    app = make_app((1280, 800))
    app.switch("board", {"mode": "local"})
    app.frame()
    move_list = app.current.move_list
    inside = move_list.rect.inflate(-8, -8)
    header_h = move_list.line_h + app.theme.pad
    colours = {tuple(app.screen.get_at((x, y))) for x in range(inside.left, inside.right, 2)
               for y in range(inside.top + header_h, inside.bottom, 2)}
    assert len(colours) > 2  # below the header, a line of text ("No moves yet"): not a big empty box


@pytest.mark.parametrize("window", [(1024, 600), (1280, 800), (3840, 2160)])
def test_a_long_game_keeps_the_newest_move_in_view_and_the_wheel_scrolls_back(make_app, window) -> None:
    app = make_app(window)
    moves = long_game(120)
    app.switch("board", {"mode": "local", "moves": [list(p) for p in moves]})
    app.frame()
    plies = shown_plies(app)
    assert plies[-1] == len(moves) and plies[0] > 1  # too long to fit: the newest is at the bottom
    post(pygame.MOUSEMOTION, pos=app.current.move_list.rect.center, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEWHEEL, x=0, y=100, flipped=False, precise_x=0.0, precise_y=100.0)
    app.frame()
    scrolled = shown_plies(app)
    assert scrolled[0] == 1 and scrolled[-1] < len(moves)
    board = app.current.game.board
    point = board.legal_moves()[-1]
    pos = app.current.view.geometry.center(point)  # a new stone: the list shows the newest move again
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
    app.frame()
    app.frame()
    assert board.ply == len(moves) + 1
    assert shown_plies(app)[-1] == len(moves) + 1


def test_clicking_a_move_in_the_review_shows_the_position_after_it(make_app) -> None:
    app = make_app((1280, 800))
    moves = long_game(40)
    record = GameRecord(rule=Rule.FREESTYLE, size=15, black="Ann", white="Bob", moves=moves)
    app.switch("review", {"record": record})
    app.frame()
    scene = app.current
    post(pygame.MOUSEMOTION, pos=scene.move_list.rect.center, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEWHEEL, x=0, y=100, flipped=False, precise_x=0.0, precise_y=100.0)
    app.frame()  # the wheel scrolls back to the first moves
    cell = next(rect for rect, ply in scene.move_list._cells if ply == 7)
    post(pygame.MOUSEBUTTONDOWN, pos=cell.center, button=1)
    post(pygame.MOUSEBUTTONUP, pos=cell.center, button=1)
    app.frame()
    assert scene.ply == 7
    assert scene.board.moves == moves[:7]


def test_stepping_back_in_a_long_review_brings_the_current_move_into_view(make_app) -> None:
    app = make_app((1024, 600))
    moves = long_game(150)
    record = GameRecord(rule=Rule.FREESTYLE, size=15, black="Ann", white="Bob", moves=moves)
    app.switch("review", {"record": record})
    app.frame()
    assert 1 not in shown_plies(app)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_HOME, mod=0, unicode=""))
    app.frame()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode=""))
    app.frame()
    assert app.current.ply == 1
    assert 1 in shown_plies(app)


@given(
    pairs=st.integers(0, 200),
    per_line=st.integers(1, 3),
    lines_fit=st.integers(1, 30),
    scroll_back=st.integers(0, 300),
)
def test_the_layout_starts_at_the_top_when_it_fits_and_else_ends_at_the_newest(
    pairs: int, per_line: int, lines_fit: int, scroll_back: int
) -> None:
    layout = layout_lines(pairs, per_line, lines_fit, scroll_back)
    assert 0 <= layout.first_line <= layout.scrollable_lines
    if layout.lines <= lines_fit:
        assert layout.first_line == 0
    newest = layout_lines(pairs, per_line, lines_fit, 0)
    assert newest.first_line + lines_fit >= newest.lines  # the last line is in view
