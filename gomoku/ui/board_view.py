"""The board view: pixel <-> point geometry and the drawing of board, stones and markers.

Pure presentation: it reads a Board (never changes it) and an Overlay of what to show on top.
Every size is derived from the cell size, so the board is crisp from 1024x600 to 4K.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pygame

from gomoku.core.board import Board
from gomoku.core.types import EMPTY, Color, Point
from gomoku.ui.theme import shipped_font

FontFactory = Callable[[int, bool], pygame.font.Font]

PAD_CELLS = 1.15
"""Wood beyond the outer grid line, in cells: half a stone plus room for the coordinates."""

LABEL_GAP_CELLS = 0.8
"""A coordinate label's centre from the outer line, in cells: clear of a stone on the edge."""

STONE_RADIUS = 0.47
"""A stone's radius as a fraction of the cell, leaving a hair of wood between neighbours."""

LABEL_MIN_PX = 15
"""The smallest coordinate label (12-pixel letters, theme.MIN_TEXT_PX's size through _default_font)."""

GRID_COLOR = (52, 36, 20)
LABEL_COLOR = (74, 52, 30)
LAST_MOVE_COLOR = (222, 52, 40)
FORBIDDEN_COLOR = (214, 38, 38)
FORBIDDEN_BACKING = (246, 226, 190)  # a pale wood disc under the cross
HINT_COLOR = (24, 150, 120)
WIN_COLOR = (232, 62, 44)
CURSOR_COLOR = (36, 96, 196)


def column_letter(x: int) -> str:
    """The letter of column x as in renju books: a, b, c ... from the left."""
    return chr(ord("a") + x)


def row_number(y: int, size: int) -> str:
    """The number of row y (0 at the top) counted from the bottom, starting at 1."""
    return str(size - y)


def star_points(size: int) -> tuple[Point, ...]:
    """The marked points: the centre (odd sizes) and the four points three lines in from the corners."""
    near, far = 3, size - 4
    corners = ((near, near), (far, near), (near, far), (far, far))
    if size % 2 == 0:
        return corners
    middle = size // 2
    if size >= 19:
        sides = ((middle, near), (near, middle), (far, middle), (middle, far))
        return (*corners, *sides, (middle, middle))
    return (*corners, (middle, middle))


class Arrangement(NamedTuple):
    """Where a scene's board square and its panel go (see `arrange`)."""

    board: pygame.Rect
    panel: pygame.Rect
    below: bool  # the panel is under the board (a tall or square window), else beside it


def arrange(size: tuple[int, int], px: Callable[[float], int], panel_w: int, panel_h: int,
            widest: int | None = None) -> Arrangement:
    """The board square and a panel beside it (at least `panel_w` wide, at most `widest`) or
    under it (at least `panel_h` high, as wide as the window), whichever leaves the bigger
    board; the two are centred together, so on a very wide window the panel stays next to
    the board. Every scene with a board and a panel (menu, game, review) follows this rule.

    `px` turns design pixels into real ones (theme.px), so margins scale with the window.
    """
    width, height = size
    margin, gap = px(10), px(18)
    beside = min(height - 2 * margin, width - 2 * margin - gap - panel_w)
    under = min(width - 2 * margin, height - 2 * margin - gap - panel_h)
    if under > beside:
        side = max(100, under)
        board = pygame.Rect((width - side) // 2, margin, side, side)
        panel = pygame.Rect(margin, board.bottom + gap, width - 2 * margin, max(panel_h, height - margin - gap - board.bottom))
        return Arrangement(board, panel, True)
    side = max(100, beside)
    room = max(panel_w, width - 2 * margin - gap - side)
    shown_w = min(room, widest) if widest is not None else room
    left = max(margin, (width - side - gap - shown_w) // 2)
    board = pygame.Rect(left, (height - side) // 2, side, side)
    panel = pygame.Rect(board.right + gap, margin, shown_w, height - 2 * margin)
    return Arrangement(board, panel, False)


def board_and_panel(
    size: tuple[int, int], px: Callable[[float], int], panel_h: int | None = None
) -> tuple[pygame.Rect, pygame.Rect]:
    """The board square and the game's side panel (beside it, or under it on a tall or square
    window when the panel needs only `panel_h`), centred together (see `arrange`)."""
    below_h = panel_h if panel_h is not None else size[1]  # no short layout: always beside
    board, panel, _ = arrange(size, px, max(px(380), MIN_PANEL_W), below_h, px(600))
    return board, panel


MIN_PANEL_W = 232
"""The narrowest side panel, in real pixels: the cards' names and clocks at the smallest text."""


@dataclass(frozen=True)
class BoardGeometry:
    """Where a board of `size` points sits in an area: the wood square and the pixel of each point."""

    size: int
    wood: pygame.Rect  # the square of wood, centred in the area it was fitted to
    cell: float  # pixels between neighbouring lines

    @classmethod
    def fit(cls, area: pygame.Rect, size: int) -> BoardGeometry:
        """The largest square board of `size` points that fits in `area`, centred."""
        side = max(1, min(area.width, area.height))
        wood = pygame.Rect(0, 0, side, side)
        wood.center = area.center
        return cls(size=size, wood=wood, cell=side / (size - 1 + 2 * PAD_CELLS))

    @property
    def origin(self) -> tuple[float, float]:
        """The pixel of point (0, 0), the top-left intersection."""
        pad = PAD_CELLS * self.cell
        return (self.wood.x + pad, self.wood.y + pad)

    def center(self, point: Point) -> tuple[int, int]:
        """The pixel at the intersection of `point`."""
        ox, oy = self.origin
        return (round(ox + point[0] * self.cell), round(oy + point[1] * self.cell))

    def point_at(self, pixel: tuple[float, float]) -> Point | None:
        """The point whose cell square contains `pixel`, or None off the grid."""
        ox, oy = self.origin
        fx = (pixel[0] - ox) / self.cell
        fy = (pixel[1] - oy) / self.cell
        x, y = math.floor(fx + 0.5), math.floor(fy + 0.5)
        if 0 <= x < self.size and 0 <= y < self.size:
            return (x, y)
        return None

    @property
    def stone_radius(self) -> int:
        return max(3, round(self.cell * STONE_RADIUS))


@dataclass(frozen=True)
class Overlay:
    """What to show on top of the stones; every field is optional."""

    hover: Point | None = None  # a translucent preview of the next stone
    hover_color: Color = Color.BLACK
    hint: Point | None = None
    forbidden: frozenset[Point] = frozenset()  # drawn as small red crosses
    winning_line: tuple[Point, ...] = ()
    show_numbers: bool = False
    mark_last: bool = True
    last_grow: float = 0.0  # the newest stone drawn this much larger (a settling animation)
    cursor: Point | None = None  # the keyboard's point: a square round it, even on a stone


def _default_font(px: int, bold: bool = False) -> pygame.font.Font:
    return shipped_font(max(8, round(px * 1.3)), bold)  # the same face as the rest of the UI


class BoardView:
    """Draws a board of one size into a rect; caches the wood, the grid and the stone sprites."""

    def __init__(self, size: int, font: FontFactory | None = None) -> None:
        self.size = size
        self._font_factory = font or _default_font
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self.geometry = BoardGeometry.fit(pygame.Rect(0, 0, 600, 600), size)
        self._static: pygame.Surface | None = None
        self._stones: dict[tuple[Color, int], pygame.Surface] = {}
        self._ghosts: dict[tuple[Color, int], pygame.Surface] = {}
        self.coordinates = True  # letters and numbers round the grid

    def show_coordinates(self, show: bool) -> None:
        """Draw the letters and numbers round the grid or not (the setting of the same name)."""
        if show != self.coordinates:
            self.coordinates = show
            self._static = None

    def layout(self, area: pygame.Rect) -> None:
        """Fit the board into `area`; the static surface is rebuilt only if the size changed."""
        geometry = BoardGeometry.fit(area, self.size)
        if geometry.wood.size != self.geometry.wood.size:
            self._static = None
        self.geometry = geometry

    def point_at(self, pixel: tuple[float, float]) -> Point | None:
        return self.geometry.point_at(pixel)

    # --- drawing ------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, board: Board, overlay: Overlay = Overlay(),
             wood: bool = True) -> None:
        """Draw the board, its stones and the overlay; `board` is only read. `wood=False`
        draws only what lies on the wood (stones, markers), over what `surface` holds."""
        self.draw_settled(surface, board, overlay.show_numbers, wood)
        self.draw_overlay(surface, board, overlay)

    def draw_settled(self, surface: pygame.Surface, board: Board, show_numbers: bool = False,
                     wood: bool = True) -> None:
        """The part that changes only with a move: wood, grid and every stone but the newest.

        A scene may cache the result and call `draw_overlay` on it each frame."""
        geo = self.geometry
        if self._static is None:
            self._static = self._render_static()
        if wood:
            surface.blit(self._static, geo.wood.topleft)
        radius = geo.stone_radius
        newest = board.last_move
        for y, x in zip(*np.nonzero(board.grid), strict=True):
            point = (int(x), int(y))
            if point == newest:
                continue
            color = Color(int(board.grid[y, x]))
            sprite = self.stone(color, radius)
            center = geo.center(point)
            surface.blit(sprite, sprite.get_rect(center=center))
        if show_numbers and board.ply > 1:
            numbers = {p: i + 1 for i, p in enumerate(board.moves)}
            for point, number in numbers.items():
                if point != newest:
                    self._draw_number(surface, geo.center(point), number, Color(int(board.grid[point[1], point[0]])))

    def draw_overlay(self, surface: pygame.Surface, board: Board, overlay: Overlay = Overlay()) -> None:
        """What changes between moves, over `draw_settled`: the newest stone (settling),
        markers, the hover preview and the winning line."""
        geo = self.geometry
        radius = geo.stone_radius
        for x, y in overlay.forbidden:
            if board.grid[y, x] == EMPTY:
                self._draw_cross(surface, (x, y))
        if overlay.hint is not None:
            self._draw_hint(surface, overlay.hint)
        if overlay.hover is not None and board.grid[overlay.hover[1], overlay.hover[0]] == EMPTY:
            ghost = self._ghost(overlay.hover_color, radius)
            surface.blit(ghost, ghost.get_rect(center=geo.center(overlay.hover)))
        last = board.last_move
        if last is not None:
            color = Color(int(board.grid[last[1], last[0]]))
            sprite = self.stone(color, round(radius * (1.0 + overlay.last_grow)))
            surface.blit(sprite, sprite.get_rect(center=geo.center(last)))
        if overlay.winning_line:
            self._draw_winning_line(surface, overlay.winning_line, through=not overlay.show_numbers)
        if overlay.cursor is not None:
            self._draw_cursor(surface, overlay.cursor)
        if last is None:
            return
        if overlay.show_numbers:
            # With numbers on, the last number is drawn in red instead of a dot.
            color = Color(int(board.grid[last[1], last[0]]))
            self._draw_number(surface, geo.center(last), board.ply, color, LAST_MOVE_COLOR)
        elif overlay.mark_last:
            self._draw_last_marker(surface, last)

    def _font(self, px: int, bold: bool = False) -> pygame.font.Font:
        key = (max(6, px), bold)
        if key not in self._fonts:
            self._fonts[key] = self._font_factory(*key)
        return self._fonts[key]

    def _render_static(self) -> pygame.Surface:
        """The wood, grid, star points and coordinates for the current geometry."""
        geo = self.geometry
        side = geo.wood.width
        surface = _wood_texture(side).copy()  # the shared texture stays clean
        local = BoardGeometry(size=geo.size, wood=pygame.Rect(0, 0, side, side), cell=geo.cell)
        last = self.size - 1
        width = max(1, round(geo.cell / 32))
        for i in range(self.size):
            pygame.draw.line(surface, GRID_COLOR, local.center((i, 0)), local.center((i, last)), width)
            pygame.draw.line(surface, GRID_COLOR, local.center((0, i)), local.center((last, i)), width)
        # A heavier frame round the outer lines, as on a real board.
        top_left, bottom_right = local.center((0, 0)), local.center((last, last))
        frame = pygame.Rect(top_left, (bottom_right[0] - top_left[0] + 1, bottom_right[1] - top_left[1] + 1))
        pygame.draw.rect(surface, GRID_COLOR, frame.inflate(width * 2, width * 2), width * 2)
        star_radius = max(2, round(geo.cell * 0.09))
        for point in star_points(self.size):
            center = local.center(point)
            pygame.draw.circle(surface, GRID_COLOR, center, star_radius)
            pygame.draw.aacircle(surface, GRID_COLOR, center, star_radius)
        if not self.coordinates:
            return surface.convert() if pygame.display.get_surface() else surface
        label_px = max(LABEL_MIN_PX, round(geo.cell * 0.4))
        if label_px > geo.cell * 0.75:  # a small preview board: no room for readable labels
            return surface.convert() if pygame.display.get_surface() else surface
        font = self._font(label_px)
        gap = geo.cell * LABEL_GAP_CELLS
        for i in range(self.size):
            letter = font.render(column_letter(i), True, LABEL_COLOR)
            x, y = local.center((i, last))
            surface.blit(letter, letter.get_rect(center=(x, round(y + gap))))
            number = font.render(row_number(i, self.size), True, LABEL_COLOR)
            x, y = local.center((0, i))
            surface.blit(number, number.get_rect(center=(round(x - gap), y)))
        return surface.convert() if pygame.display.get_surface() else surface

    def stone(self, color: Color, radius: int) -> pygame.Surface:
        """The cached stone sprite of `radius` (also used for the side panel's icons)."""
        key = (color, radius)
        if key not in self._stones:
            self._stones[key] = _shared_stone(color, radius)
        return self._stones[key]

    def _ghost(self, color: Color, radius: int) -> pygame.Surface:
        key = (color, radius)
        if key not in self._ghosts:
            ghost = _shared_stone(color, radius, shadow=False).copy()  # set_alpha must not touch the shared one
            ghost.set_alpha(120)
            self._ghosts[key] = ghost
        return self._ghosts[key]

    def _draw_cross(self, surface: pygame.Surface, point: Point) -> None:
        """A bold red X on a pale disc: readable at every size, and the disc hides the grid
        crossing and a star point under it (a cross on a star point read as a blot)."""
        x, y = self.geometry.center(point)
        cell = self.geometry.cell
        pygame.draw.circle(surface, FORBIDDEN_BACKING, (x, y), max(4, round(cell * 0.3)))
        arm = max(3, round(cell * 0.2))
        width = max(3, round(cell * 0.09))
        pygame.draw.line(surface, FORBIDDEN_COLOR, (x - arm, y - arm), (x + arm, y + arm), width)
        pygame.draw.line(surface, FORBIDDEN_COLOR, (x - arm, y + arm), (x + arm, y - arm), width)

    def _draw_cursor(self, surface: pygame.Surface, point: Point) -> None:
        half = round(self.geometry.cell * 0.5)
        square = pygame.Rect(0, 0, 2 * half, 2 * half)
        square.center = self.geometry.center(point)
        pygame.draw.rect(surface, CURSOR_COLOR, square, max(2, round(self.geometry.cell * 0.06)),
                         border_radius=max(2, half // 4))

    def _draw_hint(self, surface: pygame.Surface, point: Point) -> None:
        center = self.geometry.center(point)
        radius = self.geometry.stone_radius
        width = max(2, round(self.geometry.cell * 0.08))
        pygame.draw.circle(surface, HINT_COLOR, center, radius, width)
        pygame.draw.aacircle(surface, HINT_COLOR, center, radius, 1)
        pygame.draw.circle(surface, HINT_COLOR, center, max(2, round(self.geometry.cell * 0.1)))

    def _draw_last_marker(self, surface: pygame.Surface, point: Point) -> None:
        center = self.geometry.center(point)
        dot = max(2, round(self.geometry.cell * 0.11))
        pygame.draw.circle(surface, LAST_MOVE_COLOR, center, dot)
        pygame.draw.aacircle(surface, LAST_MOVE_COLOR, center, dot)

    def _draw_number(
        self,
        surface: pygame.Surface,
        center: tuple[int, int],
        number: int | None,
        stone: Color,
        color: tuple[int, int, int] | None = None,
    ) -> None:
        if number is None:
            return
        ink = color or ((236, 236, 236) if stone is Color.BLACK else (30, 30, 30))
        digits = len(str(number))
        px = round(self.geometry.cell * (0.44 if digits < 3 else 0.36))
        readable = max(px, LABEL_MIN_PX)  # at least the smallest readable text, if it stays on the stone
        if self._font(readable, True).size(str(number))[0] <= 2 * self.geometry.stone_radius - 2:
            px = readable
        text = self._font(px, True).render(str(number), True, ink)
        surface.blit(text, text.get_rect(center=center))

    def _draw_winning_line(self, surface: pygame.Surface, line: tuple[Point, ...], through: bool = True) -> None:
        """Ring the winning stones and join them: a stroke through their centres, or with
        `through` False (move numbers shown) only across the gaps, so every number stays readable."""
        geo = self.geometry
        ends = sorted(line)
        width = max(3, round(geo.cell * 0.12))
        ring = max(2, round(geo.cell * 0.06))
        for point in line:
            pygame.draw.circle(surface, WIN_COLOR, geo.center(point), geo.stone_radius, ring)
        if through:
            start, end = geo.center(ends[0]), geo.center(ends[-1])
            pygame.draw.line(surface, WIN_COLOR, start, end, width)
            for cap in (start, end):  # round the ends of the stroke
                pygame.draw.circle(surface, WIN_COLOR, cap, width // 2)
            return
        for a, b in zip(ends, ends[1:], strict=False):
            (ax, ay), (bx, by) = geo.center(a), geo.center(b)
            length = math.hypot(bx - ax, by - ay) or 1.0
            inset = (geo.stone_radius - ring / 2) / length  # from ring to ring, clear of the numbers
            start = (round(ax + (bx - ax) * inset), round(ay + (by - ay) * inset))
            end = (round(bx - (bx - ax) * inset), round(by - (by - ay) * inset))
            pygame.draw.line(surface, WIN_COLOR, start, end, width)


@functools.lru_cache(maxsize=4)
def _wood_texture(side: int) -> pygame.Surface:
    """The wood of `side` pixels, made once per size and shared (at 4K it takes 0.1-0.2 s):
    the menu, the game, the review and a preview each keep theirs. Never draw on it."""
    return _wood_surface(side)


@functools.lru_cache(maxsize=96)
def _shared_stone(color: Color, radius: int, shadow: bool = True) -> pygame.Surface:
    """`stone_sprite`, made once per colour and radius for every view. Never draw on it."""
    return stone_sprite(color, radius, shadow)


def _wood_surface(side: int) -> pygame.Surface:
    """A square of light kaya-coloured wood with a soft procedural grain."""
    # Grain is low-frequency: render at half size and scale up smoothly, four times less work.
    small = max(8, side // 2)
    xs = np.linspace(0.0, 1.0, small, dtype=np.float32)[:, None]
    ys = np.linspace(0.0, 1.0, small, dtype=np.float32)[None, :]
    warp = 0.045 * np.sin(ys * 7.0 + xs * 2.1) + 0.02 * np.sin(ys * 23.0 + 1.3)
    grain = np.sin((xs + warp) * 2 * np.pi * 11.0)
    fine = np.sin((xs + 0.6 * warp) * 2 * np.pi * 47.0 + np.sin(ys * 9.0) * 0.8)
    shade = 0.55 * grain + 0.2 * fine
    light = 1.0 - 0.07 * ((xs - 0.35) ** 2 + (ys - 0.3) ** 2)  # a gentle sheen near the top left
    base = np.array([222.0, 182.0, 118.0], dtype=np.float32)
    rgb = base[None, None, :] * light[..., None] + shade[..., None] * np.array([7.0, 6.0, 4.5], np.float32)
    pixels = np.clip(rgb, 0, 255).astype(np.uint8)
    texture = pygame.surfarray.make_surface(pixels)
    return pygame.transform.smoothscale(texture, (side, side))


def stone_sprite(color: Color, radius: int, shadow: bool = True) -> pygame.Surface:
    """A shaded, antialiased stone of `radius` centred in its surface, with a soft shadow."""
    size = 2 * radius + max(4, radius // 2)
    half = size / 2.0
    coords = np.arange(size, dtype=np.float32) + 0.5 - half
    dx = coords[:, None]  # surfarray arrays are indexed [x, y]
    dy = coords[None, :]
    dist = np.sqrt(dx * dx + dy * dy)
    coverage = np.clip(radius - dist + 0.5, 0.0, 1.0)
    # Light from the upper left: brightest at a point offset from the centre.
    hx, hy = -0.38 * radius, -0.42 * radius
    spot = np.sqrt((dx - hx) ** 2 + (dy - hy) ** 2) / (1.55 * radius)
    t = np.clip(spot, 0.0, 1.0)[..., None]
    if color is Color.BLACK:
        bright, dark = np.array([108, 108, 116], np.float32), np.array([14, 14, 18], np.float32)
        t = t**0.55
    else:
        bright, dark = np.array([255, 255, 252], np.float32), np.array([188, 184, 174], np.float32)
        t = t**1.6
    rgb = bright * (1.0 - t) + dark * t
    alpha = coverage
    if shadow:
        shift = max(1.0, radius * 0.09)
        sdist = np.sqrt((dx - shift) ** 2 + (dy - shift * 1.3) ** 2)
        shadow_alpha = np.clip((radius + 1.5 - sdist) / 3.0, 0.0, 1.0) * 0.38
        # Where the stone covers a pixel it wins; its shadow shows only around it.
        alpha = coverage + shadow_alpha * (1.0 - coverage)
        rgb = rgb * (coverage / np.maximum(alpha, 1e-6))[..., None]
    sprite = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.surfarray.pixels3d(sprite)[...] = np.clip(rgb, 0, 255).astype(np.uint8)
    pygame.surfarray.pixels_alpha(sprite)[...] = np.clip(alpha * 255.0, 0, 255).astype(np.uint8)
    return sprite
