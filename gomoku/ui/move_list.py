"""The move list: a game's moves in h8 notation, one numbered pair (black, white) a line.

As chess GUIs show moves: a header "Black  White", then "1.  h8  g7", "2.  i7  g9"... in
two columns across the list, every other line shaded. When every line fits the list shows
from the first move; when not, the newest line stays in view and the mouse wheel scrolls
back. An empty list says so. It is drawn once onto a cached surface and blitted each frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from gomoku.core.notation import format_point
from gomoku.core.types import Point
from gomoku.ui.theme import Theme
from gomoku.ui.widgets import Widget

MAX_PAIRS_PER_LINE = 1  # one (black, white) pair a line: the columns read down, as in chess GUIs
LINE_SPACING = 1.3
"""A line's height as a multiple of the text size."""


@dataclass(frozen=True)
class MoveListLayout:
    """Where the pairs go: pairs per line, lines in view, and the first line shown."""

    pairs_per_line: int
    lines_fit: int
    lines: int
    first_line: int

    @property
    def scrollable_lines(self) -> int:
        """How many lines are hidden above the view when it shows the newest line."""
        return max(0, self.lines - self.lines_fit)


def layout_lines(pairs: int, pairs_per_line: int, lines_fit: int, scroll_back: int) -> MoveListLayout:
    """Lay out `pairs` move pairs: from the top when they all fit, else the newest line
    at the bottom, `scroll_back` lines earlier (clamped to the list)."""
    pairs_per_line = max(1, pairs_per_line)
    lines_fit = max(1, lines_fit)
    lines = math.ceil(pairs / pairs_per_line)
    hidden = max(0, lines - lines_fit)
    first = hidden - max(0, min(scroll_back, hidden))
    return MoveListLayout(pairs_per_line, lines_fit, lines, first)


class MoveList(Widget):
    """The moves of one game; `set_moves` each frame is cheap (it redraws only on a change).

    `handle_event` returns the ply to show (1 = after the first move) when a move is clicked,
    else None; the wheel scrolls. `current` (review) greys the moves after that ply.
    """

    def __init__(self, theme: Theme) -> None:
        super().__init__(theme)
        self.moves: tuple[Point, ...] = ()
        self.board_size = 15
        self.current: int | None = None
        self.marks: dict[int, str] = {}  # ply -> a sign after its move ("?": the review's analysis)
        self.scroll_back = 0  # lines scrolled back from the newest; a new move resets it
        self._cache: pygame.Surface | None = None
        self._cache_key: tuple[object, ...] = ()
        self._cells: list[tuple[pygame.Rect, int]] = []  # (rect on screen, ply) for clicks
        self._local_cells: list[tuple[pygame.Rect, int]] = []  # the same on the cached surface
        self._reveal_current = False

    def set_moves(self, moves: Sequence[Point], board_size: int, current: int | None = None) -> None:
        """Show `moves` (a board's move stack); `current` marks the ply shown (None: the last)."""
        moves = tuple(moves)
        if len(moves) != len(self.moves) or moves[-1:] != self.moves[-1:]:
            self.scroll_back = 0  # a move was played or taken back: show the newest again
            self._reveal_current = True
        if current != self.current:
            self._reveal_current = True
        self.moves, self.board_size, self.current = moves, board_size, current

    def _scroll_to_current(self) -> None:
        """Scroll so the line of the current move is in view (after a step in the review)."""
        self._reveal_current = False
        if not self.current:
            return
        newest = layout_lines((len(self.moves) + 1) // 2, self.layout().pairs_per_line, self.layout().lines_fit, 0)
        line = (self.current - 1) // 2 // newest.pairs_per_line
        first = newest.first_line - self.scroll_back
        if line < first:  # above the view: put it on the top line
            self.scroll_back = newest.first_line - line
        elif line >= first + newest.lines_fit:  # below the view: put it on the bottom line
            self.scroll_back = max(0, newest.first_line - line + newest.lines_fit - 1)

    @property
    def appearance(self) -> tuple[object, ...]:
        """Everything `draw` depends on: a cached picture of the list is stale when it changes."""
        return (self.moves, self.board_size, self.current, tuple(self.marks.items()), self.scroll_back,
                self._reveal_current, tuple(self.rect), self.visible, self.text_px)

    # --- geometry ------------------------------------------------------------------------

    @property
    def text_px(self) -> int:
        return self.theme.small_px + self.theme.px(2)

    @property
    def line_h(self) -> int:
        return round(self.text_px * LINE_SPACING)

    @property
    def min_width(self) -> int:
        """The narrowest rect that shows one pair of moves a line."""
        return self._columns()[2] + 2 * self.theme.pad

    def _columns(self) -> tuple[int, int, int]:
        """Widths of the number column, of a move column, and of a whole pair with its gap."""
        font = self.theme.font(self.text_px, True)
        number_w = font.size("000.")[0]
        move_w = font.size("o15")[0] + self.theme.px(14)
        return number_w, move_w, number_w + 2 * move_w + self.theme.px(18)

    def layout(self) -> MoveListLayout:
        """The layout for the current moves in the current rect."""
        pad = self.theme.pad
        pair_w = self._columns()[2]
        pairs_per_line = min(MAX_PAIRS_PER_LINE, max(1, (self.rect.width - 2 * pad) // pair_w))
        lines_fit = max(1, (self.rect.height - pad) // self.line_h - 1)  # the header takes a line
        return layout_lines((len(self.moves) + 1) // 2, pairs_per_line, lines_fit, self.scroll_back)

    # --- input ---------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> int | None:  # type: ignore[override]
        if not self.visible:
            return None
        self._track_hover(event)
        if event.type == pygame.MOUSEWHEEL and self.hover:
            hidden = self.layout().scrollable_lines
            self.scroll_back = max(0, min(hidden, self.scroll_back + event.y))  # wheel up: earlier
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 0) == 1:
            for rect, ply in self._cells:
                if rect.collidepoint(event.pos):
                    return ply
        return None

    # --- drawing -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible or self.rect.width <= 0 or self.rect.height <= 0:
            return
        if self._reveal_current:
            self._scroll_to_current()
        layout = self.layout()
        key = (self.moves, self.board_size, self.current, tuple(self.marks.items()), tuple(self.rect), layout,
               self.text_px)
        if self._cache is None or key != self._cache_key:
            self._cache = self._render(layout)
            self._cache_key = key
            self._cells = [(cell.move(self.rect.topleft), ply) for cell, ply in self._local_cells]
        surface.blit(self._cache, self.rect.topleft)

    def _render(self, layout: MoveListLayout) -> pygame.Surface:
        theme, colors = self.theme, self.theme.colors
        canvas = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        pygame.draw.rect(canvas, colors.field, canvas.get_rect(), border_radius=theme.radius)
        self._local_cells = []
        number_w, move_w, _ = self._columns()
        pad = theme.pad
        line_h = self.line_h
        # Three columns across the list: the number, black's move, white's move.
        inner_w = self.rect.width - 2 * pad
        number_w = max(number_w, inner_w // 5)
        move_w = max(move_w, (inner_w - number_w) // 2)
        top = pad // 2
        for side, label in enumerate(("Black", "White")):
            head = theme.render(label, self.text_px - theme.px(2), colors.text_dim)
            canvas.blit(head, (pad + number_w + side * move_w, top + (line_h - head.get_height()) // 2))
        top += line_h
        if not self.moves:
            empty = theme.render("No moves yet", self.text_px, colors.text_dim)
            canvas.blit(empty, empty.get_rect(midtop=(self.rect.width // 2, top + line_h // 2)))
            return canvas
        latest = len(self.moves) if self.current is None else self.current
        pairs = (len(self.moves) + 1) // 2
        for line in range(layout.first_line, min(layout.lines, layout.first_line + layout.lines_fit)):
            y = top + (line - layout.first_line) * line_h
            pair = line
            if pair >= pairs:
                break
            if pair % 2:  # every other line shaded: the eye follows a pair across
                shade = pygame.Rect(pad // 2, y, self.rect.width - pad, line_h)
                pygame.draw.rect(canvas, colors.panel, shade, border_radius=theme.radius // 2)
            number = theme.render(f"{pair + 1}.", self.text_px, colors.text_dim)
            canvas.blit(number, (pad + number_w - theme.px(10) - number.get_width(),
                                 y + (line_h - number.get_height()) // 2))
            for side in (0, 1):
                index = 2 * pair + side
                if index >= len(self.moves):
                    break
                ply = index + 1
                if ply == latest:
                    colour, bold = colors.accent, True
                elif ply > latest:
                    colour, bold = colors.text_dim, False  # after the position shown (review)
                else:
                    colour, bold = colors.text, False
                text = theme.render(format_point(self.moves[index], self.board_size), self.text_px, colour, bold)
                cell = pygame.Rect(pad + number_w + side * move_w, y, move_w, line_h)
                canvas.blit(text, (cell.left, y + (line_h - text.get_height()) // 2))
                mark = self.marks.get(ply)
                if mark:  # right after the move, in the colour of a warning
                    sign = theme.render(mark, self.text_px, colors.warning, True)
                    canvas.blit(sign, (cell.left + text.get_width() + theme.px(2),
                                       y + (line_h - sign.get_height()) // 2))
                self._local_cells.append((cell, ply))
        if layout.first_line > 0:  # earlier lines are hidden: a small arrow at the top edge says so
            size = theme.px(7)
            tip = (self.rect.width - pad - size, pad // 2 + theme.px(4))
            pygame.draw.polygon(canvas, colors.text_dim, [
                tip, (tip[0] - size, tip[1] + size), (tip[0] + size, tip[1] + size)])
        return canvas
