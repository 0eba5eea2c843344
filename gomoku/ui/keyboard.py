"""Keys as the player means them: `player_key` is the one entry, for every key event.

Letter keys on keyboards whose letters are not Latin (Russian, Greek, Hebrew, Arabic, Thai):
SDL2 reports such a key by its own letter ("г" where an English keyboard has U), so a
Russian player's U, R, H and N, and Ctrl+A, C and V in a text field, did nothing while the
Russian layout was on. As SDL3 does by default, the key is then taken as the Latin letter at
the same place on an English keyboard. A Latin letter (an AZERTY "a", a Turkish "ı") is kept:
the letter printed on the key is the one that counts.

The keypad with Num Lock off: SDL2 reports its keys as digits whatever the lock says, so its
arrows neither moved the board's cursor nor the menus' focus. With the lock off they are the
arrows, Home, End, Page Up and Page Down printed on them, as everywhere else on the desktop.
"""

from __future__ import annotations

import unicodedata

import pygame

_LETTER_SCANCODES = range(pygame.KSCAN_A, pygame.KSCAN_Z + 1)  # in alphabetical order


def latin_letter_key(event: pygame.event.Event) -> pygame.event.Event:
    """`event`, or for a key with a non-Latin letter a copy with the English letter's keycode."""
    scancode = getattr(event, "scancode", None)  # (an event posted by a program may have none)
    if event.type not in (pygame.KEYDOWN, pygame.KEYUP) or scancode not in _LETTER_SCANCODES:
        return event
    try:
        letter = chr(event.key)
    except (ValueError, OverflowError):  # (a special key's code, beyond Unicode)
        return event
    if letter.isascii() or not letter.isalpha() or unicodedata.name(letter, "").startswith("LATIN"):
        return event
    return pygame.event.Event(event.type, {**event.dict,
                                           "key": pygame.K_a + scancode - pygame.KSCAN_A})


_KEYPAD_NAVIGATION = {
    pygame.K_KP4: pygame.K_LEFT, pygame.K_KP6: pygame.K_RIGHT, pygame.K_KP8: pygame.K_UP,
    pygame.K_KP2: pygame.K_DOWN, pygame.K_KP7: pygame.K_HOME, pygame.K_KP1: pygame.K_END,
    pygame.K_KP9: pygame.K_PAGEUP, pygame.K_KP3: pygame.K_PAGEDOWN,
    pygame.K_KP0: pygame.K_INSERT, pygame.K_KP_PERIOD: pygame.K_DELETE,
}


def keypad_navigation_key(event: pygame.event.Event) -> pygame.event.Event:
    """`event`, or for a keypad key with Num Lock off a copy with the key printed under its digit."""
    if event.type not in (pygame.KEYDOWN, pygame.KEYUP) or event.key not in _KEYPAD_NAVIGATION:
        return event
    if getattr(event, "mod", 0) & pygame.KMOD_NUM:  # the lock is on: the digits
        return event
    return pygame.event.Event(event.type, {**event.dict, "key": _KEYPAD_NAVIGATION[event.key]})


def player_key(event: pygame.event.Event) -> pygame.event.Event:
    """`event` as the player means it (see the module docstring); other events as they are."""
    return keypad_navigation_key(latin_letter_key(event))
