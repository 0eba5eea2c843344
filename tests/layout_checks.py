"""What a player notices about a screen's layout, measured on a real App: the size of every piece
of text drawn, and the rects of the things shown (each inside the window, none over another)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pygame

from gomoku.ui.theme import MIN_TEXT_PX, FallbackFont
from gomoku.ui.widgets import Button, Widget

READABLE_PX = 12
"""The least letter size (the font's pixel size, its em) a player must read."""


@contextmanager
def text_sizes() -> Iterator[list[tuple[int, str]]]:
    """Every (pixel size, text) the shipped fonts draw while the block runs (start it before the
    App, as rendered texts are cached)."""
    drawn: list[tuple[int, str]] = []
    original = FallbackFont.render

    def spy(self, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        if text:
            drawn.append((self._points, str(text)))
        return original(self, text, *args, **kwargs)

    FallbackFont.render = spy  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        FallbackFont.render = original  # type: ignore[method-assign]


def shown(widgets: list[Widget | None]) -> list[Widget]:
    return [w for w in widgets if w is not None and w.visible and w.rect.width > 0 and w.rect.height > 0]


def scene_rects(app) -> dict[str, pygame.Rect]:  # type: ignore[no-untyped-def]
    """The separate things the current scene shows, by name: none may overlap another."""
    scene, name = app.current, app.current_name
    rects: dict[str, pygame.Rect] = {}

    def add(label: str, rect: pygame.Rect | None) -> None:
        if rect is not None and rect.width > 0 and rect.height > 0:
            rects[label] = pygame.Rect(rect)

    def add_widgets(prefix: str, widgets: list) -> None:  # type: ignore[type-arg]
        for index, widget in enumerate(shown(widgets)):
            add(f"{prefix}{index}:{getattr(widget, 'text', '') or getattr(widget, 'label', '')}", widget.rect)

    if name == "menu" and scene.panel_open:
        add_widgets("row", scene.rows)
        add("rule note", scene.rule_note.rect)
        add_widgets("button", [scene.back_button, scene.start_button])
    elif name == "menu":
        add("board", scene.board_rect)
        add_widgets("label", [w for w in (scene.title, scene.subtitle, scene.keys_hint, scene.preparing) if w.text])
        add_widgets("button", scene.buttons)
    elif name == "settings":
        add_widgets("game", scene.game_widgets)
        add_widgets("view", scene.view_widgets)
        add_widgets("bottom", [scene.back_button, scene.note])
    elif name == "board":
        panel = scene.panel
        add("board", scene.board_area)
        for color, rect in panel.card_rects.items():
            add(f"card {color.label}", rect)
        add("result" if panel.result_rect is not None else "status", panel.result_rect or panel.status_rect)
        add("keys", panel.keys_rect)
        if panel.move_list.visible:
            add("moves", panel.move_list.rect)
        add_widgets("button", list(panel.buttons.values()))
    elif name == "review":
        add("board", scene.board_area)
        for index, rect in enumerate(scene._header_rects):
            add(f"header{index}", rect)
        add("counter", scene._counter_rect)
        if scene._text_room:
            add("text lines", scene._text_rect)
        if scene.move_list.visible:
            add("moves", scene.move_list.rect)
        add_widgets("button", [*scene.step_buttons.values(), scene.best_button, scene.play_local, scene.play_ai,
                               scene.back_button])
    elif name == "records":
        add("title", scene.title_rect)
        add("folder", scene.folder_rect)
        add("list", scene.list_view.rect)
        add("preview", scene.preview_rect)
        if scene.saving:
            add_widgets("save", [scene.name_input, scene.format_choice, scene.save_button])
            add("target", scene.target_rect)
        else:
            add_widgets("load", [scene.load_button])
        add_widgets("back", [scene.back_button])
    elif name == "lobby":
        add_widgets("top", [scene.title, scene.name_input])
        add_widgets("host", [*scene.host_widgets, scene.host_button])
        add_widgets("join", [scene.hosts_view, scene.address_input, scene.address_note, scene.join_button])
        add_widgets("back", [scene.back_button])
    return rects


def layout_problems(app) -> list[str]:  # type: ignore[no-untyped-def]
    """What is wrong with the current scene's layout, in words (empty when all is well)."""
    window = app.screen.get_rect()
    rects = scene_rects(app)
    problems = [f"{name} {tuple(rect)} leaves the window {window.size}" for name, rect in rects.items()
                if not window.contains(rect)]
    names = list(rects)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            if rects[first].colliderect(rects[second]):
                problems.append(f"{first} {tuple(rects[first])} overlaps {second} {tuple(rects[second])}")
    theme = app.theme
    for button in _buttons(app):  # a button's words show whole (an icon button may show its icon alone)
        if button.icon is None:
            px = max(MIN_TEXT_PX, min(theme.text_px, int(button.rect.height * 0.5)))
            if theme.fit_text(button.text, px, button.rect.width - 2 * theme.pad, True) != button.text:
                problems.append(f"the words {button.text!r} do not fit their button {tuple(button.rect)}")
    return problems


def _buttons(app) -> list[Button]:  # type: ignore[no-untyped-def]
    scene = app.current
    found = [value for value in vars(scene).values() if isinstance(value, Button)]
    for value in vars(scene).values():
        if isinstance(value, dict):
            found += [v for v in value.values() if isinstance(v, Button)]
        elif isinstance(value, list):
            found += [v for v in value if isinstance(v, Button)]
    panel = getattr(scene, "panel", None)
    if panel is not None and hasattr(panel, "buttons"):
        found += list(panel.buttons.values())
    return [button for button in found if button.visible and button.rect.width > 0]
