"""Letter keys on keyboards whose letters are not Latin (Russian, Greek, Hebrew, Arabic, Thai).

SDL2 reports such a key by its own letter ("г" where an English keyboard has U), so a
Russian player's U, R, H and N, and Ctrl+A, C and V in a text field, did nothing while the
Russian layout was on. As SDL3 does by default, the key is then taken as the Latin letter at
the same place on an English keyboard. A Latin letter (an AZERTY "a", a Turkish "ı") is kept:
the letter printed on the key is the one that counts.
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
