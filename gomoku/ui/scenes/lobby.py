"""The LAN lobby: for now, a clear note that LAN duels come in a later version, and Back."""

from __future__ import annotations

from typing import Any

import pygame

from gomoku.ui.scene import Scene
from gomoku.ui.widgets import Button, Label, Panel

COMING_LINES = (
    "LAN duel is coming in a later version.",
    "You will find friends on your network here,",
    "or type an address, and play over the LAN.",
    "Until then: play the computer or a friend on this screen.",
)


class LobbyScene(Scene):
    """A placeholder panel with a Back button (Esc too) that returns to the menu."""

    name = "lobby"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        theme = app.theme
        self.panel = Panel(theme, title="LAN duel")
        self.lines = [Label(theme, text, align="center") for text in COMING_LINES]
        self.back_button = Button(theme, "Back", primary=True)

    def enter(self, data: dict[str, Any]) -> None:
        self.back_button.hover = False

    def resize(self, size: tuple[int, int]) -> None:
        theme = self.app.theme
        width, height = size
        panel_w = min(width - 2 * theme.pad, theme.px(760))
        line_h = theme.px(38)
        panel_h = theme.px(110) + len(self.lines) * line_h + theme.px(40) + theme.control_h
        self.panel.rect = pygame.Rect(0, 0, panel_w, panel_h)
        self.panel.rect.center = (width // 2, height // 2)
        inner = self.panel.content_rect
        for i, label in enumerate(self.lines):
            label.rect = pygame.Rect(inner.left, inner.top + theme.px(8) + i * line_h, inner.width, line_h)
            label.colour = theme.colors.text if i == 0 else theme.colors.text_dim
            label.bold = i == 0
        self.back_button.rect = pygame.Rect(0, 0, theme.px(220), theme.control_h)
        self.back_button.rect.midbottom = (inner.centerx, self.panel.rect.bottom - theme.px(24))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN):
            self.app.switch("menu", {})
        elif self.back_button.handle_event(event):
            self.app.switch("menu", {})

    def draw(self, surface: pygame.Surface) -> None:
        look = tuple(w.appearance for w in (self.panel, *self.lines, self.back_button))
        if self.unchanged_frame(surface, look):
            return
        self.app.theme.draw_background(surface)
        self.panel.draw(surface)
        for label in self.lines:
            label.draw(surface)
        self.back_button.draw(surface)
