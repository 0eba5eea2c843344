"""The board view: clicks map to the right point at any size; stones and markers show up."""

from __future__ import annotations

import pygame
import pytest

from gomoku.core.board import Board
from gomoku.core.types import Color, Rule
from gomoku.ui.board_view import (
    BoardGeometry,
    BoardView,
    Overlay,
    column_letter,
    row_number,
    star_points,
)


@pytest.fixture(scope="module", autouse=True)
def pygame_ready():
    pygame.init()
    yield
    pygame.quit()


AREAS = [
    pygame.Rect(0, 0, 600, 600),  # the board's share of a 1024x600 window
    pygame.Rect(0, 0, 800, 800),
    pygame.Rect(10, 20, 1080, 1080),
    pygame.Rect(0, 0, 2160, 2160),
    pygame.Rect(40, 0, 900, 700),  # not square: the board centres in it
]


@pytest.mark.parametrize("area", AREAS, ids=lambda a: f"{a.w}x{a.h}")
@pytest.mark.parametrize("size", [15, 19, 20])
def test_every_point_maps_back_from_its_pixel_and_nearby(area: pygame.Rect, size: int) -> None:
    geo = BoardGeometry.fit(area, size)
    assert area.contains(geo.wood)
    nudge = geo.cell * 0.4
    for y in range(size):
        for x in range(size):
            cx, cy = geo.center((x, y))
            assert geo.point_at((cx, cy)) == (x, y)
            # Anywhere inside the point's cell square still picks it.
            assert geo.point_at((cx + nudge, cy - nudge)) == (x, y)
            assert geo.point_at((cx - nudge, cy + nudge)) == (x, y)


def test_pixels_off_the_grid_pick_nothing() -> None:
    geo = BoardGeometry.fit(pygame.Rect(0, 0, 800, 800), 15)
    ox, oy = geo.center((0, 0))
    far_x, far_y = geo.center((14, 14))
    assert geo.point_at((ox - geo.cell * 0.6, oy)) is None
    assert geo.point_at((far_x, far_y + geo.cell * 0.6)) is None
    assert geo.point_at((geo.wood.right + 50, 300)) is None


def test_neighbouring_stones_do_not_overlap() -> None:
    geo = BoardGeometry.fit(pygame.Rect(0, 0, 600, 600), 20)
    assert 2 * geo.stone_radius < geo.cell


def test_coordinates_read_like_renju_books() -> None:
    assert column_letter(0) == "a"
    assert column_letter(7) == "h"
    assert row_number(7, 15) == "8"  # the centre of 15x15 is h8
    assert row_number(0, 15) == "15"  # the top row
    assert row_number(14, 15) == "1"


def test_star_points_sit_on_the_board() -> None:
    assert (7, 7) in star_points(15)
    assert len(star_points(19)) == 9
    for size in range(15, 21):
        assert all(0 <= x < size and 0 <= y < size for x, y in star_points(size))


def _render(
    board: Board, overlay: Overlay | None = None, side: int = 640
) -> tuple[BoardView, pygame.Surface]:
    surface = pygame.Surface((side, side))
    view = BoardView(board.size)
    view.layout(surface.get_rect())
    view.draw(surface, board, overlay or Overlay())
    return view, surface


def _brightness(surface: pygame.Surface, pixel: tuple[int, int]) -> int:
    r, g, b, _ = surface.get_at(pixel)
    return (r + g + b) // 3


def test_stones_are_drawn_dark_and_light_where_played() -> None:
    board = Board.from_moves([(7, 7), (3, 4)])
    view, surface = _render(board, Overlay(mark_last=False))
    geo = view.geometry
    empty = _brightness(surface, (geo.center((10, 10))[0] + 5, geo.center((10, 10))[1] + 5))
    black = surface.get_at((geo.center((7, 7))[0] + 4, geo.center((7, 7))[1] + 4))
    white = surface.get_at((geo.center((3, 4))[0] + 4, geo.center((3, 4))[1] + 4))
    assert max(black[:3]) < 90  # a black stone
    assert min(white[:3]) > 170  # a white stone, brighter than the wood's blue channel
    assert 120 < empty < 220  # wood


def test_last_move_marker_and_forbidden_cross_are_red() -> None:
    board = Board.from_moves([(7, 7), (8, 8)])
    view, surface = _render(board, Overlay(forbidden=frozenset({(2, 2)})))
    r, g, b, _ = surface.get_at(view.geometry.center((8, 8)))
    assert r > 180 and g < 100 and b < 100
    r, g, b, _ = surface.get_at(view.geometry.center((2, 2)))
    assert r > 150 and g < 100


def test_hover_preview_is_translucent() -> None:
    board = Board()
    view, plain = _render(board)
    view.draw(plain, board, Overlay(hover=(5, 5), hover_color=Color.BLACK))
    point = view.geometry.center((5, 5))
    ghost = _brightness(plain, (point[0] + 4, point[1] + 4))
    _, empty = _render(board)
    wood = _brightness(empty, (point[0] + 4, point[1] + 4))
    assert 40 < ghost < wood - 30  # darker than wood, lighter than a real black stone


def test_winning_line_and_hint_are_marked() -> None:
    moves = [(3, 7), (3, 8), (4, 7), (4, 8), (5, 7), (5, 8), (6, 7), (6, 8), (7, 7)]
    board = Board.from_moves(moves)
    outcome = board.outcome()
    assert outcome is not None
    view, surface = _render(board, Overlay(winning_line=outcome.line, hint=(12, 2), mark_last=False))
    geo = view.geometry
    # Halfway between two stones of the five, the red stroke crosses the grid.
    a, b = geo.center((4, 7)), geo.center((5, 7))
    r, g, _, _ = surface.get_at(((a[0] + b[0]) // 2, a[1]))
    assert r > 180 and g < 110
    r, g, b_, _ = surface.get_at(geo.center((12, 2)))
    assert g > 120 and r < 80  # the hint's green dot


def test_move_numbers_are_drawn_on_stones() -> None:
    board = Board.from_moves([(7, 7), (8, 8), (9, 9)])
    view, plain = _render(board, Overlay(mark_last=False))
    _, numbered = _render(board, Overlay(show_numbers=True))
    center = view.geometry.center((7, 7))
    box = pygame.Rect(0, 0, int(view.geometry.cell * 0.3), int(view.geometry.cell * 0.3))
    box.center = center
    light_pixels = sum(
        1
        for x in range(box.left, box.right)
        for y in range(box.top, box.bottom)
        if _brightness(numbered, (x, y)) > 180
    )
    assert light_pixels > 5  # the white "1" on the black stone


@pytest.mark.parametrize("moves", [
    [(3, 7), (3, 8), (4, 7), (4, 8), (5, 7), (5, 8), (6, 7), (6, 8), (7, 7)],  # a row
    [(3, 3), (3, 8), (4, 4), (4, 8), (5, 5), (6, 8), (6, 6), (8, 8), (7, 7)],  # a diagonal
], ids=["row", "diagonal"])
def test_the_winning_line_leaves_the_move_numbers_readable(moves: list[tuple[int, int]]) -> None:
    board = Board.from_moves(moves)
    outcome = board.outcome()
    assert outcome is not None
    view, plain = _render(board, Overlay(show_numbers=True))
    _, won = _render(board, Overlay(show_numbers=True, winning_line=outcome.line))
    geo = view.geometry
    half = round(geo.cell * 0.25)  # round the number on the stone, inside the ring
    for point in outcome.line:
        x, y = geo.center(point)
        box = pygame.Rect(x - half, y - half, 2 * half, 2 * half)
        assert pygame.image.tobytes(won.subsurface(box), "RGB") == pygame.image.tobytes(plain.subsurface(box), "RGB"), point
    # The five are still marked: red rings at the stones' edges and strokes between them.
    a, b = geo.center(moves[2]), geo.center(moves[4])
    r, g, _, _ = won.get_at(((a[0] + b[0]) // 2, (a[1] + b[1]) // 2))
    assert r > 180 and g < 110
    x, y = geo.center(moves[0])
    r, g, _, _ = won.get_at((x, y - geo.stone_radius + 1))
    assert r > 180 and g < 110


def test_static_board_is_cached_until_the_size_changes() -> None:
    view = BoardView(15)
    surface = pygame.Surface((700, 700))
    view.layout(surface.get_rect())
    view.draw(surface, Board())
    first = view._static
    view.layout(pygame.Rect(30, 0, 700, 700))  # moved, same size
    view.draw(surface, Board())
    assert view._static is first
    view.layout(pygame.Rect(0, 0, 500, 500))
    view.draw(surface, Board())
    assert view._static is not first


def test_coordinates_can_be_hidden() -> None:
    board = Board()
    view, with_labels = _render(board)
    geo = view.geometry
    x, y = geo.center((0, 7))
    label_box = pygame.Rect(0, 0, int(geo.cell * 0.5), int(geo.cell * 0.5))
    label_box.center = (round(x - geo.cell * 0.62), y)

    def dark_pixels(surface: pygame.Surface) -> int:
        return sum(
            1
            for px in range(label_box.left, label_box.right)
            for py in range(label_box.top, label_box.bottom)
            if _brightness(surface, (px, py)) < 110
        )

    assert dark_pixels(with_labels) > 5  # the "8" beside row 8
    view.show_coordinates(False)
    view.draw(with_labels, board)
    assert dark_pixels(with_labels) == 0


def test_a_second_board_of_the_same_size_reuses_the_wood_and_leaves_it_clean() -> None:
    from gomoku.ui.board_view import _wood_texture

    _wood_texture.cache_clear()
    surface = pygame.Surface((700, 700))
    first, second = BoardView(15), BoardView(19)
    for view in (first, second):
        view.layout(surface.get_rect())
        view.draw(surface, Board(view.size))
    info = _wood_texture.cache_info()
    assert (info.misses, info.hits) == (1, 1)  # the grain was made once for both boards
    wood = _wood_texture(700)
    corner = first.geometry.center((0, 0))
    assert _brightness(first._static, corner) < 100  # the grid line on the board...
    assert _brightness(wood, corner) > 150  # ...was drawn on a copy, not on the shared wood


@pytest.mark.parametrize("side", [560, 780, 2140])
def test_a_stone_on_the_edge_leaves_its_coordinates_readable(side: int) -> None:
    from gomoku.ui.board_view import LABEL_GAP_CELLS

    view = BoardView(15)
    view.layout(pygame.Rect(0, 0, side, side))
    geo = view.geometry
    font = view._font(round(geo.cell * 0.4))
    for label, point, offset in (("15", (0, 0), (-1, 0)), ("o", (14, 14), (0, 1))):
        x, y = geo.center(point)
        text = pygame.Rect((0, 0), font.size(label))
        text.center = (round(x + offset[0] * geo.cell * LABEL_GAP_CELLS), round(y + offset[1] * geo.cell * LABEL_GAP_CELLS))
        stone = pygame.Rect(0, 0, 2 * geo.stone_radius, 2 * geo.stone_radius)
        stone.center = (x, y)
        assert not text.colliderect(stone)
        assert geo.wood.contains(text)


def test_coordinates_and_numbers_use_the_same_face_as_the_rest_of_the_ui() -> None:
    pygame.font.init()
    font = BoardView(15)._font(20)
    assert (font.name, font.style_name) == ("DejaVu Sans", "Book")
    assert BoardView(15)._font(20, bold=True).style_name == "Bold"


@pytest.mark.parametrize("side", [300, 600, 1600])
def test_a_renju_cross_is_bold_and_hides_the_grid_crossing_and_star_point_at_every_size(side: int) -> None:
    view = BoardView(15)
    view.layout(pygame.Rect(0, 0, side, side))
    surface = pygame.Surface((side, side))
    view.draw(surface, Board(15, Rule.RENJU), Overlay(forbidden=frozenset({(7, 7)})))  # on tengen
    cx, cy = view.geometry.center((7, 7))
    cell = view.geometry.cell
    half = int(cell // 2)
    red = sum(1 for x in range(cx - half, cx + half) for y in range(cy - half, cy + half)
              if (lambda c: c.r > 170 and c.g < 90 and c.b < 90)(surface.get_at((x, y))))
    assert red >= 0.06 * cell * cell  # bold enough to read at a glance
    on_the_line = surface.get_at((cx, cy - round(cell * 0.25)))  # the grid line above the point
    assert min(on_the_line[:3]) > 180, on_the_line  # covered by the pale disc: no blot of lines
