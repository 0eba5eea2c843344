"""The buttons' icons, drawn with pygame's primitives so they stay sharp at every size.

`draw_icon(surface, name, centre, size, colour)` draws one of ICONS: the review's steps
(first, back, forward, last) and the board's actions (undo, restart, hint, resign, save, menu).
"""

from __future__ import annotations

import math

import pygame

from gomoku.ui.theme import Colour

ICONS = ("first", "back", "forward", "last", "undo", "restart", "hint", "resign", "save", "menu")
"""Icons a Button can draw with pygame's primitives: review navigation and the game's actions."""


def _arc(cx: float, cy: float, radius: float, start: float, end: float, steps: int = 24) -> list[tuple[float, float]]:
    """Points along a circle from angle `start` to `end` (radians, 0 to the right, y down)."""
    return [(cx + radius * math.cos(start + (end - start) * i / steps),
             cy + radius * math.sin(start + (end - start) * i / steps)) for i in range(steps + 1)]


def draw_icon(surface: pygame.Surface, name: str, centre: tuple[int, int], size: int, colour: Colour) -> None:
    """Draw icon `name` (see ICONS) centred at `centre`, `size` pixels from centre to tip.

    Shapes are filled polygons and strokes of at least 2 pixels, so they read at any size."""
    cx, cy = centre
    bar = max(2, size // 3)
    stroke = max(2, round(size / 4))

    def triangle(tip_x: int, direction: int) -> None:  # direction 1 points right
        base_x = tip_x - direction * size
        pygame.draw.polygon(surface, colour, [(tip_x, cy), (base_x, cy - size), (base_x, cy + size)])

    def ring(radius: float, start: float, end: float) -> None:  # a thick arc as one polygon
        outer = _arc(cx, cy, radius + stroke / 2, start, end)
        inner = _arc(cx, cy, radius - stroke / 2, start, end)
        pygame.draw.polygon(surface, colour, outer + inner[::-1])

    if name == "back":
        triangle(cx - size // 2, -1)
    elif name == "forward":
        triangle(cx + size // 2, 1)
    elif name == "first":
        triangle(cx - size // 2 + bar, -1)
        pygame.draw.rect(surface, colour, (cx - size // 2 - bar, cy - size, bar, 2 * size))
    elif name == "last":
        triangle(cx + size // 2 - bar, 1)
        pygame.draw.rect(surface, colour, (cx + size // 2, cy - size, bar, 2 * size))
    elif name == "undo":  # a hooked arrow turning back to the left
        radius = size * 0.55
        top, bottom = cy - radius, cy + radius
        hook_x = cx + size * 0.25
        outer = _arc(hook_x, cy, radius + stroke / 2, -math.pi / 2, math.pi / 2)
        inner = _arc(hook_x, cy, radius - stroke / 2, -math.pi / 2, math.pi / 2)
        pygame.draw.polygon(surface, colour, outer + inner[::-1])
        pygame.draw.rect(surface, colour, (cx - size * 0.6, bottom - stroke / 2, hook_x - cx + size * 0.6 + 1, stroke))
        tip = cx - size
        pygame.draw.rect(surface, colour, (tip + size * 0.4, top - stroke / 2, hook_x - tip - size * 0.4 + 1, stroke))
        head = size * 0.55
        pygame.draw.polygon(surface, colour, [(tip, top), (tip + head, top - head), (tip + head, top + head)])
    elif name == "restart":  # a clockwise circle of arrow, its head at the top pointing into the gap
        radius = size * 0.7
        end = 1.5 * math.pi - 0.5
        ring(radius, -math.pi / 2 + 0.75, end)
        ex, ey = cx + radius * math.cos(end), cy + radius * math.sin(end)
        tx, ty = -math.sin(end), math.cos(end)  # the way round, clockwise on screen
        nx, ny = math.cos(end), math.sin(end)
        head = size * 0.5
        pygame.draw.polygon(surface, colour, [(ex + tx * head * 1.3, ey + ty * head * 1.3),
                                              (ex + nx * head, ey + ny * head), (ex - nx * head, ey - ny * head)])
    elif name == "hint":  # a light bulb: the glass, its neck and the screw base
        glass = size * 0.62
        gy = cy - size * 0.3
        pygame.draw.circle(surface, colour, (cx, round(gy)), round(glass))
        neck = glass * 0.62
        pygame.draw.polygon(surface, colour, [(cx - glass * 0.85, gy + glass * 0.5), (cx + glass * 0.85, gy + glass * 0.5),
                                              (cx + neck, cy + size * 0.55), (cx - neck, cy + size * 0.55)])
        base_w = round(2 * neck)
        pygame.draw.rect(surface, colour, (round(cx - neck), round(cy + size * 0.55 + 1), base_w, stroke))
        pygame.draw.rect(surface, colour, (round(cx - neck * 0.6), round(cy + size * 0.55 + stroke + 2),
                                           max(2, round(1.2 * neck)), stroke))
    elif name == "resign":  # a flag on a pole
        pole = cx - size * 0.6
        pygame.draw.rect(surface, colour, (round(pole - stroke / 2), cy - size, stroke, 2 * size))
        top = cy - size
        pygame.draw.polygon(surface, colour, [(pole, top), (cx + size * 0.9, top + size * 0.15),
                                              (cx + size * 0.9, top + size * 0.95), (pole, top + size * 1.05)])
    elif name == "save":  # a floppy disk: the case with a cut corner, the shutter and the label
        box = [(cx - size, cy - size), (cx + size * 0.55, cy - size), (cx + size, cy - size * 0.55),
               (cx + size, cy + size), (cx - size, cy + size)]
        pygame.draw.polygon(surface, colour, box, stroke)
        pygame.draw.rect(surface, colour, (round(cx - size * 0.5), cy - size, round(size * 0.9), round(size * 0.75)))
        pygame.draw.rect(surface, colour, (round(cx - size * 0.55), round(cy + size * 0.25), round(size * 1.1),
                                           round(size * 0.75)), stroke)
    elif name == "menu":  # three bars
        for offset in (-0.7, 0.0, 0.7):
            pygame.draw.rect(surface, colour, (cx - size, round(cy + offset * size - stroke / 2), 2 * size, stroke),
                             border_radius=stroke // 2)
    else:
        raise ValueError(f"no icon named {name!r}")
