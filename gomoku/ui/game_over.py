"""The end of a game as the board scene shows it: the result's words, and the result card
that takes the status line's place in the side panel, with Rematch and Review.

The card reports which button was pressed; the board scene carries it out (`_end_action`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import pygame

from gomoku.core.game import Game
from gomoku.core.types import Color, Outcome, Reason
from gomoku.ui.players import AIPlayer, Player
from gomoku.ui.theme import Theme
from gomoku.ui.widgets import Button, blit_text, wrap_text

REASON_TEXT = {
    Reason.FIVE: "five in a row",
    Reason.RESIGN: "resignation",
    Reason.TIMEOUT: "time ran out",
    Reason.DISCONNECT: "the opponent left",
    Reason.FULL_BOARD: "the board is full",
}
END_ORDER = ("rematch", "review")
# Game time still on a clock that "ran out": the host ended the game for idleness, not the clock.
TIME_LEFT_AWAY_S = 5.0


def result_title(outcome: Outcome, game: Game, players: Mapping[Color, Player], me: Color | None) -> str:
    """"You win!", "The computer wins", "Ann wins (black)", "A draw".

    `me` is the colour of the one person at this screen (None: two players share it)."""
    if outcome.winner is None:  # a LAN line that never came back has no winner either
        return "Connection lost" if outcome.reason is Reason.DISCONNECT else "A draw"
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
        if _time_was_left(game, outcome.winner.other):  # `gomoku serve --idle` sent them away
            text = "You were away too long" if you_lost else f"{loser} was away too long"
        else:
            text = "Your time ran out" if you_lost else f"{loser} ran out of time"
    elif outcome.reason is Reason.DISCONNECT and outcome.winner is None:
        text = "The game ended without a result"
    elif outcome.reason is Reason.FULL_BOARD and moves < game.board.size ** 2:
        text = "No point is left that black may play"  # renju: every empty point is forbidden
    else:
        text = REASON_TEXT[outcome.reason].capitalize()
    text = f"{text}  ·  {moves} move{'' if moves == 1 else 's'}"
    if rematch_from is not None:
        text += f"  ·  {rematch_from} wants a rematch"
    return text


def _time_was_left(game: Game, loser: Color) -> bool:
    """True when a lost-on-time side had clearly not run out: no move countdown, and its
    game time (infinite when untimed) above what network lag could leave on a flagged clock."""
    clock = game.clock  # stopped when the game ended, so the moment asked about does not matter
    return clock.control.move_s == 0 and clock.remaining(loser, time.monotonic()) > TIME_LEFT_AWAY_S


class GameOverCard:
    """The result in the side panel once a game ends: who won and why, with Rematch and Review
    (Save and Menu are the panel's own buttons). Nothing covers the board: the final position,
    its winning five ringed, stays in view. Main thread only."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.lines = 1  # lines for the reason (a duel's has room for "... wants a rematch")
        self.buttons = {
            "rematch": Button(theme, "Rematch", primary=True),
            "review": Button(theme, "Review"),
        }

    @staticmethod
    def height(theme: Theme, lines: int = 1) -> int:
        """The panel height the card needs with `lines` lines for the reason."""
        pad = theme.pad
        return (pad + theme.heading_px + pad // 2 + lines * theme.font(theme.text_px).get_linesize()
                + pad + theme.control_h + pad)

    def place(self, rect: pygame.Rect, lines: int = 1) -> None:
        """Lay the card out in `rect` (from `height`), the buttons side by side at its bottom."""
        theme = self.theme
        pad = theme.pad
        self.rect = rect.copy()
        self.lines = lines
        button_w = (rect.width - 3 * pad) // 2
        for index, key in enumerate(END_ORDER):
            self.buttons[key].rect = pygame.Rect(rect.left + pad + index * (button_w + pad),
                                                 rect.bottom - pad - theme.control_h, button_w, theme.control_h)

    def handle_event(self, event: pygame.event.Event) -> str | None:
        """The key of the button `event` pressed ("rematch", "review"), or None."""
        for key, button in self.buttons.items():
            if button.handle_event(event):
                return key
        return None

    def appearance(self, title: str, reason: str) -> tuple[Any, ...]:
        """Everything the card shows, as plain values (the panel redraws it when they change)."""
        return (tuple(self.rect), self.lines, title, reason,
                tuple(button.appearance for button in self.buttons.values()))

    def draw(self, surface: pygame.Surface, title: str, reason: str) -> None:
        theme, colors = self.theme, self.theme.colors
        rect = self.rect
        pad = theme.pad
        pygame.draw.rect(surface, colors.field, rect, border_radius=theme.radius)
        pygame.draw.rect(surface, colors.accent, rect, theme.px(3), theme.radius)
        inner_w = rect.width - 2 * pad
        title_rect = pygame.Rect(rect.left + pad, rect.top + pad, inner_w, theme.heading_px)
        title_text = theme.fit_text(title, theme.heading_px, inner_w, bold=True)
        blit_text(surface, theme.render(title_text, theme.heading_px, colors.accent, bold=True), title_rect, "left")
        font = theme.font(theme.text_px)
        lines = wrap_text(reason, font, inner_w)
        if len(lines) > self.lines:  # no room for more: the last line shown takes the rest
            lines = lines[: self.lines - 1] + ["  ·  ".join(lines[self.lines - 1 :])]
        top = title_rect.bottom + pad // 2
        for line in lines:
            line_rect = pygame.Rect(rect.left + pad, top, inner_w, font.get_linesize())
            text = theme.fit_text(line, theme.text_px, inner_w)
            blit_text(surface, theme.render(text, theme.text_px, colors.text), line_rect, "left")
            top += font.get_linesize()
        for button in self.buttons.values():
            button.draw(surface)
