"""What the board scene adds for a LAN duel: a card over the board (ready, a request to
answer, a lost connection) and the chat box in the panel.

It reads the app's LanLink and reports what the player chose as a small action string; the
board scene carries actions out. Kept apart so board.py stays about the game's flow.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from gomoku.ui.lan_link import REQUEST_WORDS, LanLink
from gomoku.ui.theme import Theme
from gomoku.ui.widgets import Button, TextInput, blit_text

CHAT_SHOWN = 3  # the newest chat lines above the field


class DuelOverlay:
    """The LAN card (over the board) and the chat box (in the panel), their buttons and field."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.card_rect = pygame.Rect(0, 0, 0, 0)
        self.chat_rect = pygame.Rect(0, 0, 0, 0)
        self._pair_left = self._middle = pygame.Rect(0, 0, 0, 0)  # where Ready goes (_fit_buttons)
        self.buttons = {
            "ready": Button(theme, "Ready", primary=True),
            "load": Button(theme, "Load position"),
            "accept": Button(theme, "Accept", primary=True),
            "refuse": Button(theme, "Refuse"),
            "reconnect": Button(theme, "Reconnect now", primary=True),
            "lobby": Button(theme, "Back to the lobby", primary=True),
        }
        self.chat_input = TextInput(theme, "", max_length=200, placeholder="Say something (Enter sends)")

    # --- layout --------------------------------------------------------------------------

    def layout(self, board_area: pygame.Rect, chat_rect: pygame.Rect,
               stones: list[tuple[int, int]] | None = None) -> None:
        """Place the card over the board where it hides the fewest of `stones` (pixel centres),
        and the chat box in `chat_rect`."""
        theme = self.theme
        pad = theme.pad
        width = min(board_area.width - 2 * pad, theme.px(600))
        # Tall enough for its title, line and buttons at the smallest readable text.
        height = max(theme.px(176), 5 * pad + theme.heading_px + theme.text_px + theme.control_h)
        card = pygame.Rect(0, 0, width, height)
        card.centerx = board_area.centerx
        places = []
        for top in (board_area.centery - card.height // 2, board_area.top + board_area.height // 8,
                    board_area.bottom - board_area.height // 8 - card.height):
            places.append(card.move(0, top - card.top))
        spots = stones or []
        self.card_rect = min(places, key=lambda place: sum(place.collidepoint(spot) for spot in spots))
        self._place_buttons()
        self.chat_rect = chat_rect
        self.chat_input.rect = pygame.Rect(chat_rect.left, chat_rect.bottom - theme.control_h,
                                           chat_rect.width, theme.control_h)

    def _place_buttons(self) -> None:
        theme = self.theme
        pad = theme.pad
        width = self.card_rect.width
        button_w = (width - 3 * pad) // 2
        bottom = self.card_rect.bottom - pad
        left = pygame.Rect(self.card_rect.left + pad, bottom - theme.control_h, button_w, theme.control_h)
        right = left.move(button_w + pad, 0)
        middle = left.copy()
        middle.centerx = self.card_rect.centerx
        self._pair_left, self._middle = left, middle
        for key, rect in (("ready", left), ("load", right), ("accept", left), ("refuse", right),
                          ("reconnect", middle), ("lobby", middle)):
            self.buttons[key].rect = rect.copy()

    def _fit_buttons(self, keys: tuple[str, ...]) -> None:
        """Ready sits left of Load position on the host's card, and alone in the middle on the guest's."""
        if "ready" in keys:
            self.buttons["ready"].rect = (self._pair_left if len(keys) > 1 else self._middle).copy()

    @staticmethod
    def chat_height(theme: Theme, rows: int = CHAT_SHOWN) -> int:
        """The panel height the chat box needs: `rows` lines and the field."""
        return rows * (theme.small_px + theme.px(6)) + theme.control_h + theme.pad

    @staticmethod
    def chat_rows(link: LanLink) -> int:
        """Lines the chat box shows: one (the hint) while no one has written, up to CHAT_SHOWN;
        the move list above it gets the rest."""
        return max(1, min(CHAT_SHOWN, len(link.chat)))

    # --- what shows ----------------------------------------------------------------------

    def card(self, link: LanLink, now: float) -> tuple[str, str, tuple[str, ...]] | None:
        """(title, line, buttons) of the card over the board, or None when the board is clear."""
        opponent = link.info.opponent_name if link.info is not None else "The opponent"
        game = link.game
        if link.incoming_request is not None:
            words = REQUEST_WORDS.get(link.incoming_request, link.incoming_request)
            return (f"{opponent} asks to {words}", "Do you agree?", ("accept", "refuse"))
        if link.phase == "lost":
            left = max(0, math.ceil((link.lost_deadline or now) - now))
            clock = f"{left // 60}:{left % 60:02d}"
            if link.is_host:
                return ("Connection lost", f"Waiting for {opponent} to come back  ·  {clock} left", ())
            return ("Connection lost", f"Reconnecting to {opponent}...  ·  {clock} left", ("reconnect",))
        if link.phase == "closed" and (game is None or not game.is_over):
            return ("The duel is over", link.closed_reason or "The connection is closed.", ("lobby",))
        if link.phase == "closed" or game is None or game.is_over or link.state != "waiting":
            return None
        mine = "You are ready" if link.ready_mine else "You are not ready"
        theirs = f"{opponent} is ready" if link.ready_theirs else f"{opponent} is not ready"
        if link.ready_mine:
            title = f"Waiting for {opponent}"
        elif link.ready_theirs:  # only this player holds the game up
            title = f"{opponent} is waiting for you"
        else:
            title = "Waiting for both players"
        return (title, f"{mine}  ·  {theirs}", ("ready", "load") if link.is_host else ("ready",))

    def appearance(self, link: LanLink, now: float) -> tuple[Any, ...]:
        """Everything the card shows, as plain values (the scene redraws when it changes)."""
        card = self.card(link, now)
        self._fit_buttons(card[2] if card else ())
        buttons = tuple(self.buttons[key].appearance for key in card[2]) if card else ()
        return (card, buttons, tuple(self.card_rect))

    def chat_appearance(self, link: LanLink) -> tuple[Any, ...]:
        blink = (pygame.time.get_ticks() // 500) % 2 if self.chat_input.focused else 0
        return (tuple(link.chat)[-CHAT_SHOWN:], self.chat_input.appearance, blink, tuple(self.chat_rect))

    # --- input ---------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event, link: LanLink, now: float) -> str | None:
        """An action ("ready", "unready", "load", "accept", "refuse", "reconnect", "lobby", "chat")
        or None.

        For "chat" the text to send is in `take_chat()`.
        """
        card = self.card(link, now)
        shown = card[2] if card is not None else ()
        self._fit_buttons(shown)
        self.buttons["ready"].text = "Not ready" if link.ready_mine else "Ready"
        for key in shown:
            if self.buttons[key].handle_event(event):
                if key == "ready":
                    return "unready" if link.ready_mine else "ready"
                return key
        was_focused = self.chat_input.focused
        self.chat_input.handle_event(event)
        if (was_focused and not self.chat_input.focused and event.type == pygame.KEYDOWN
                and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.chat_input.text.strip()):
            return "chat"
        return None

    @property
    def typing(self) -> bool:
        """True while the chat field has the keyboard (the board's keys must not act)."""
        return self.chat_input.focused

    def take_chat(self) -> str:
        text = self.chat_input.text.strip()
        self.chat_input.set_text("")
        return text

    # --- drawing -------------------------------------------------------------------------

    def draw_card(self, surface: pygame.Surface, link: LanLink, now: float) -> None:
        card = self.card(link, now)
        if card is None:
            return
        title, line, keys = card
        self._fit_buttons(keys)
        theme, colors = self.theme, self.theme.colors
        rect = self.card_rect.copy()
        if not keys:  # no buttons: a shorter card hides less of the board
            rect.height -= theme.control_h + theme.pad
        shade = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(shade, (*colors.panel, 240), shade.get_rect(), border_radius=theme.radius)
        surface.blit(shade, rect)
        pygame.draw.rect(surface, colors.accent, rect, theme.px(2), theme.radius)
        pad = theme.pad
        title_rect = pygame.Rect(rect.left + pad, rect.top + pad, rect.width - 2 * pad, theme.heading_px + pad)
        title_text = theme.fit_text(title, theme.heading_px, title_rect.width, bold=True)
        blit_text(surface, theme.render(title_text, theme.heading_px, colors.accent, bold=True), title_rect)
        line_rect = pygame.Rect(rect.left + pad, title_rect.bottom, rect.width - 2 * pad, theme.text_px + pad)
        blit_text(surface, theme.render(theme.fit_text(line, theme.text_px, line_rect.width), theme.text_px,
                                        colors.text), line_rect)
        self.buttons["ready"].text = "Not ready" if link.ready_mine else "Ready"
        for key in keys:
            self.buttons[key].draw(surface)

    def draw_chat(self, surface: pygame.Surface, link: LanLink) -> None:
        theme, colors = self.theme, self.theme.colors
        line_h = theme.small_px + theme.px(6)
        room = (self.chat_input.rect.top - theme.pad // 2 - self.chat_rect.top) // line_h
        rows = max(1, min(CHAT_SHOWN, room))
        lines = list(link.chat)[-rows:]
        top = self.chat_input.rect.top - theme.pad // 2 - rows * line_h
        if not lines:
            hint = pygame.Rect(self.chat_rect.left, top + (rows - 1) * line_h, self.chat_rect.width, line_h)
            blit_text(surface, theme.render("Chat: type below, Enter sends.", theme.small_px, colors.text_dim),
                      hint, "left")
        for index, chat in enumerate(lines):
            row = pygame.Rect(self.chat_rect.left, top + (rows - len(lines) + index) * line_h,
                              self.chat_rect.width, line_h)
            who = "You" if chat.mine else chat.name
            text = theme.fit_text(f"{who}: {chat.text}", theme.small_px, row.width)
            blit_text(surface, theme.render(text, theme.small_px, colors.accent if chat.mine else colors.text),
                      row, "left")
        self.chat_input.draw(surface)
