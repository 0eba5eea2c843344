"""The end of a game as the board scene shows it: the result's words and the game-over
banner with Rematch, Review, Save and Menu.

The banner reports which button was pressed; the board scene carries it out (`_end_action`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from gomoku.core.game import Game
from gomoku.core.types import Color, Outcome, Point, Reason
from gomoku.ui.board_view import BoardGeometry
from gomoku.ui.players import AIPlayer, Player
from gomoku.ui.theme import Theme
from gomoku.ui.widgets import Button, blit_text

REASON_TEXT = {
    Reason.FIVE: "five in a row",
    Reason.RESIGN: "resignation",
    Reason.TIMEOUT: "time ran out",
    Reason.DISCONNECT: "the opponent left",
    Reason.FULL_BOARD: "the board is full",
}
END_ORDER = ("rematch", "review", "save", "menu")


def result_title(outcome: Outcome, game: Game, players: Mapping[Color, Player], me: Color | None) -> str:
    """"You win!", "The computer wins", "Ann wins (black)", "A draw".

    `me` is the colour of the one person at this screen (None: two players share it)."""
    if outcome.winner is None:
        return "A draw"
    if me is not None:  # one person at this screen
        if outcome.winner is me:
            return "You win!"
        winner = players[outcome.winner]
        return "The computer wins" if isinstance(winner, AIPlayer) else f"{winner.name} wins"
    return f"{game.player(outcome.winner).name} wins ({outcome.winner.label})"


def reason_text(outcome: Outcome, game: Game, me: Color | None, rematch_from: str | None = None) -> str:
    """Why the game ended and after how many moves; `rematch_from` names an opponent who
    already asked for a rematch (a LAN duel)."""
    moves = game.board.ply
    you_lost = me is not None and outcome.winner is me.other
    if outcome.reason is Reason.RESIGN and outcome.winner is not None:
        loser = game.player(outcome.winner.other).name
        text = "You resigned" if you_lost else f"{loser} resigned"
    elif outcome.reason is Reason.TIMEOUT and outcome.winner is not None:
        loser = game.player(outcome.winner.other).name
        text = "Your time ran out" if you_lost else f"{loser} ran out of time"
    else:
        text = REASON_TEXT[outcome.reason].capitalize()
    text = f"{text}  ·  {moves} move{'' if moves == 1 else 's'}"
    if rematch_from is not None:
        text += f"  ·  {rematch_from} wants a rematch"
    return text


class GameOverBanner:
    """The banner across the board, in the half away from the stones that decided the game.
    Main thread only."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.buttons = {
            "rematch": Button(theme, "Rematch", primary=True),
            "review": Button(theme, "Review"),
            "save": Button(theme, "Save"),
            "menu": Button(theme, "Menu"),
        }
        self._shade: pygame.Surface | None = None

    def place(self, board_area: pygame.Rect, geometry: BoardGeometry, outcome: Outcome | None,
              last_move: Point | None) -> None:
        """Put the banner across the board, in the half away from the winning line
        (or from the last stone when the game ended another way)."""
        theme = self.theme
        pad, button_h = theme.pad, theme.control_h
        banner_w = min(board_area.width - 2 * pad, theme.px(640))
        banner_h = theme.px(190)
        rect = pygame.Rect(0, 0, banner_w, banner_h)
        rect.centerx = board_area.centerx
        keep: tuple[Point, ...] = ()  # the stones the banner must not hide
        if outcome is not None and outcome.line:
            keep = tuple(outcome.line)
        elif last_move is not None:  # resigned or out of time: the last stone
            keep = (last_move,)
        radius = geometry.stone_radius
        spots = [pygame.Rect(0, 0, 2 * radius, 2 * radius) for _ in keep]
        for spot, point in zip(spots, keep, strict=True):
            spot.center = geometry.center(point)
        mean_y = sum(spot.centery for spot in spots) / len(spots) if spots else board_area.bottom
        candidates = []
        for inset in (board_area.height // 8, pad):  # nearer the edge only if needed
            upper, lower = rect.copy(), rect.copy()
            upper.top = board_area.top + inset
            lower.bottom = board_area.bottom - inset
            # The half away from those stones first.
            candidates += [lower, upper] if mean_y < board_area.centery else [upper, lower]
        rect = min(candidates, key=lambda place: len(place.collidelistall(spots)))  # first of the fewest
        if rect == self.rect:
            return
        self.rect = rect
        end_w = (banner_w - 5 * pad) // 4
        for index, key in enumerate(END_ORDER):
            self.buttons[key].rect = pygame.Rect(
                rect.left + pad + index * (end_w + pad), rect.bottom - pad - button_h, end_w, button_h
            )

    def handle_event(self, event: pygame.event.Event) -> str | None:
        """The key of the button `event` pressed, or None."""
        for key, button in self.buttons.items():
            if button.handle_event(event):
                return key
        return None

    def appearance(self, title: str, reason: str) -> tuple[Any, ...]:
        """Everything the banner shows, as plain values (the scene redraws when it changes)."""
        return (tuple(self.rect), title, reason, tuple(button.appearance for button in self.buttons.values()))

    def draw(self, surface: pygame.Surface, title: str, reason: str) -> None:
        theme, colors = self.theme, self.theme.colors
        rect = self.rect
        if self._shade is None or self._shade.get_size() != rect.size:
            self._shade = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(self._shade, (*colors.panel, 236), self._shade.get_rect(),
                             border_radius=theme.radius)
        surface.blit(self._shade, rect)
        pygame.draw.rect(surface, colors.accent, rect, theme.px(2), theme.radius)
        pad = theme.pad
        title_rect = pygame.Rect(rect.left, rect.top + pad, rect.width, theme.heading_px + pad)
        blit_text(surface, theme.render(title, theme.heading_px, colors.accent, bold=True), title_rect)
        reason_rect = pygame.Rect(rect.left, title_rect.bottom, rect.width, theme.text_px + pad)
        blit_text(surface, theme.render(reason, theme.text_px, colors.text), reason_rect)
        for button in self.buttons.values():
            button.draw(surface)
