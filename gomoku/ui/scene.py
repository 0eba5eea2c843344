"""The base every scene follows: the app calls the same few methods each frame."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

if TYPE_CHECKING:
    from gomoku.ui.app import App


class Scene:
    """One screen of the game. Scenes never import each other: they switch by name.

    Each frame the app calls `handle_event` for every event, then `update(dt)`, then
    `draw(surface)`. A scene leaves with `self.app.switch("name", {...})`; the dict is handed
    to the next scene's `enter`.
    """

    name = "scene"

    def __init__(self, app: App) -> None:
        self.app = app
        self._shown_look: tuple[Any, ...] | None = None  # what the screen shows (see unchanged_frame)
        self._covered_last_frame = False
        self._unchanged = False

    def enter(self, data: dict[str, Any]) -> None:
        """Called when the scene becomes active, with what the previous scene handed over."""

    def leave(self) -> None:
        """Called before another scene takes over: stop workers, save what must be saved."""

    def handle_event(self, event: pygame.event.Event) -> None:
        """One pygame event (already routed: quit and F11 are the app's)."""

    def update(self, dt: float) -> None:
        """Advance by `dt` seconds: poll players, clocks, workers."""

    def stood_still(self, since: float, now: float) -> None:
        """No frame ran from `since` to `now` (monotonic seconds): the process was stopped
        (Ctrl-Z), or the computer slept and the clock counted it. Nobody could see or play."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the whole scene; the app flips the display."""

    @property
    def screen_unchanged(self) -> bool:
        """True when the last `draw` left the screen exactly as the frame before, so the app
        need not present it again (see `unchanged_frame`)."""
        return self._unchanged

    def forget_screen(self) -> None:
        """The screen no longer shows this scene's last frame (the app calls this when the scene
        is entered and when the window changes): the next `draw` must draw everything."""
        self._shown_look = None

    def unchanged_frame(self, surface: pygame.Surface, look: tuple[Any, ...]) -> bool:
        """For `draw`: True when `look` (plain values for everything the frame shows) is what
        `surface` already shows and no notice lay over it; then drawing can be skipped."""
        covered = bool(self.app.notices) or self._covered_last_frame
        self._covered_last_frame = bool(self.app.notices)
        shown = (id(surface), look)
        self._unchanged = shown == self._shown_look and not covered
        self._shown_look = shown
        return self._unchanged

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: recompute the layout (fonts render at the new size)."""
