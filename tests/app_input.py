"""Input for app-level tests: post the events pygame would deliver, then run one frame."""

from __future__ import annotations

import pygame

from gomoku.ui.app import App


def click(app: App, where: pygame.Rect | tuple[int, int]) -> None:
    """A left click at a point, or at the centre of a rect, then one frame."""
    pos = where.center if isinstance(where, pygame.Rect) else where
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.frame()


def press(app: App, key: int) -> None:
    """One key press (no modifiers, no text), then one frame."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    app.frame()


def typing_events(text: str) -> list[pygame.event.Event]:
    """The events a keyboard sends for `text`: each key's KEYDOWN (Shift's first, for a
    capital) before its TEXTINPUT."""
    events = []
    for ch in text:
        mod = pygame.KMOD_LSHIFT if ch.isupper() else 0
        if mod:
            events.append(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LSHIFT, mod=0, unicode=""))
        events.append(pygame.event.Event(pygame.KEYDOWN, key=ord(ch.lower()), mod=mod, unicode=ch))
        events.append(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    return events


def type_text(app: App, text: str, enter: bool = False) -> None:
    """Type `text` as a keyboard does (`typing_events`), then Enter if `enter`; then one frame."""
    for event in typing_events(text):
        pygame.event.post(event)
    if enter:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    app.frame()


def idle_frames(app: App, count: int) -> int:
    """Run `count` frames in which nothing changes and assert none of them was presented again;
    returns the number of frames presented so far."""
    presented = app.frames_presented
    for _ in range(count):
        app.frame()
    assert app.frames_presented == presented, "an unchanged frame was presented again"
    return presented
