"""Every screen at every window shape, as a player sees it: readable text (at least 12-pixel
letters, down to the smallest window), nothing overlapping or outside the window, the panel under
the board on tall and square windows and next to it on very wide ones, and the game's buttons as
icons whose tooltips name the action and its key."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pygame
import pytest
from layout_checks import READABLE_PX, layout_problems, text_sizes

from gomoku.core.records import GameRecord, save_record
from gomoku.ui.app import MIN_WINDOW_SIZE, SAMPLE_OPENING, App, AppOptions
from gomoku.ui.icons import ICONS
from gomoku.ui.side_panel import BUTTON_ORDER

SIZES = [(640, 400), (1024, 1024), (2560, 600), (1280, 800), (1920, 1080)]
FIVE = [[3, 9], [7, 0], [4, 8], [5, 1], [5, 7], [9, 1], [6, 6], [11, 0], [7, 5]]  # black's five on move 9
SAMPLE = GameRecord(black="Player", white="Computer", moves=list(SAMPLE_OPENING), times=[1.0] * len(SAMPLE_OPENING))

SCENES = [
    ("menu", {"attract_moves": [list(p) for p in SAMPLE_OPENING[:11]]}),
    ("menu", {"vs_computer": True}),
    ("menu", {"two_players": True}),
    ("settings", {}),
    ("board", {"mode": "ai", "level": "easy", "human_color": "black",
               "moves": [list(p) for p in SAMPLE_OPENING[:14]]}),
    ("board", {"mode": "local", "moves": [list(p) for p in SAMPLE_OPENING]}),
    ("board", {"mode": "local", "moves": FIVE}),  # over: the result card in the panel
    ("records", {"save": SAMPLE, "back": "menu"}),
    ("records", {}),
    ("review", {"record": SAMPLE, "ply": 11}),
    ("lobby", {}),
]


def frames(app: App, count: int) -> None:
    for _ in range(count):
        app.frame()


def open_app(tmp_path: Path, size: tuple[int, int]) -> App:
    app = App(AppOptions(windowed=True, size=size, home=tmp_path / "home"))
    save_record(SAMPLE, app.paths.saves_dir / "a sample game.gomoku")
    return app


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_screen_has_readable_text_and_nothing_overlapping_or_outside(tmp_path: Path, size) -> None:
    with text_sizes() as drawn:
        app = open_app(tmp_path, size)
        try:
            problems = []
            app.settings.show_move_numbers = True  # numbers on the stones are text too
            for name, data in SCENES:
                app.switch(name, dict(data))
                frames(app, 2)
                problems += [f"{name} {sorted(data)}: {problem}" for problem in layout_problems(app)]
        finally:
            app.close()
    small = sorted({(px, text) for px, text in drawn if px < READABLE_PX})
    assert not small, f"text under {READABLE_PX} px at {size}: {small[:8]}"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", [(1024, 1024), (800, 1280)])
def test_on_a_tall_or_square_window_the_panel_is_under_a_wider_board(tmp_path: Path, size) -> None:
    app = open_app(tmp_path, size)
    try:
        app.switch("board", {"mode": "local"})
        app.frame()
        board = app.current
        assert board.panel_rect.top >= board.board_area.bottom
        assert board.board_area.width >= 0.69 * size[0]  # beside it, the board had 63% at 1024x1024
        app.switch("review", {"record": SAMPLE})
        app.frame()
        review = app.current
        assert review.panel_rect.top >= review.board_area.bottom
        app.switch("menu", {})
        app.frame()
        menu = app.current
        assert all(b.rect.top >= menu.board_rect.bottom for b in menu.buttons if b.visible)
    finally:
        app.close()


def test_on_a_very_wide_window_the_menu_and_panel_stay_next_to_the_board(tmp_path: Path) -> None:
    app = open_app(tmp_path, (2560, 600))
    try:
        app.switch("menu", {})
        app.frame()
        menu = app.current
        column_left = min(b.rect.left for b in menu.buttons if b.visible)
        assert 0 < column_left - menu.board_rect.right <= app.theme.px(160)  # not floating far away
        app.switch("board", {"mode": "local"})
        app.frame()
        board = app.current
        assert 0 < board.panel_rect.left - board.board_area.right <= app.theme.px(40)
        assert board.board_area.height >= 0.95 * 600  # the height is what limits it: all of it
    finally:
        app.close()


def _light_pixels(surface: pygame.Surface, rect: pygame.Rect) -> pygame.Rect | None:
    """The bounding box of the light (text colour) pixels in `rect`: the icon drawn there."""
    points = [(x, y) for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
              if sum(surface.get_at((x, y))[:3]) > 600]
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


@pytest.mark.parametrize("size", [(640, 400), (1024, 1024), (1920, 1080)])
def test_the_game_buttons_are_icons_with_tooltips_naming_action_and_key(tmp_path: Path, size) -> None:
    app = open_app(tmp_path, size)
    try:
        app.switch("board", {"mode": "local", "moves": [list(p) for p in SAMPLE_OPENING[:6]]})
        frames(app, 2)
        scene = app.current
        keys = {"undo": "(U)", "restart": "(R)", "hint": "(H)", "menu": "(Esc)"}
        for key in BUTTON_ORDER:
            button = scene.buttons[key]
            assert button.icon in ICONS
            assert button.text.split()[0].lower() in button.tooltip.lower() or key in button.tooltip.lower()
            if key in keys:
                assert keys[key] in button.tooltip
            if not button.enabled:
                continue
            icon = _light_pixels(app.screen, button.rect.inflate(-4, -4))
            assert icon is not None and icon.height >= 10, (key, icon)  # an icon a player can make out
        undo = scene.buttons["undo"]
        before = app.screen.copy()
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=undo.rect.center, rel=(0, 0), buttons=(0, 0, 0)))
        app.frame()
        tip = undo.tooltip_rect(app.screen.get_rect())
        assert tip is not None and app.screen.get_rect().contains(tip)
        changed = sum(app.screen.get_at((x, tip.centery)) != before.get_at((x, tip.centery))
                      for x in range(tip.left, tip.right))
        assert changed > tip.width // 4  # the tooltip shows over what was there
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(0, 0), buttons=(0, 0, 0)))
        frames(app, 2)
        scene.hover = None
        frames(app, 1)
        stale = sum(app.screen.get_at((x, tip.centery)) != before.get_at((x, tip.centery))
                    for x in range(tip.left, tip.right))
        assert stale == 0  # and leaves nothing behind when the mouse moves away
    finally:
        app.close()


def test_a_confirming_button_lights_up_even_as_an_icon(tmp_path: Path) -> None:
    app = open_app(tmp_path, (640, 400))
    try:
        app.switch("board", {"mode": "local", "moves": [list(p) for p in SAMPLE_OPENING[:6]]})
        app.frame()
        resign = app.current.buttons["resign"]
        assert not resign.shown_label()  # a small window: icons alone
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=resign.rect.center, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=resign.rect.center, button=1))
        app.frame()
        assert resign.primary and not app.current.game.is_over
    finally:
        app.close()


def test_the_window_cannot_be_made_smaller_than_the_smallest_layout(tmp_path: Path) -> None:
    app = open_app(tmp_path, (1280, 800))
    try:
        app.set_window_size((500, 300))
        assert app.screen.get_size() == MIN_WINDOW_SIZE
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            assert tuple(pygame.Window.from_display_module().minimum_size) == MIN_WINDOW_SIZE
    finally:
        app.close()


@pytest.mark.parametrize("size", [(640, 400), (1280, 800)])
def test_the_saved_games_list_shows_each_date_whole_and_cuts_a_long_name_instead(tmp_path: Path, size) -> None:
    with text_sizes() as drawn:
        app = open_app(tmp_path, size)
        try:
            long_name = "Player against the hard computer on a long winter evening, game three"
            path = app.paths.saves_dir / f"{long_name}.gomoku"
            save_record(SAMPLE, path)
            app.switch("records", {})
            frames(app, 2)
        finally:
            app.close()
    date = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
    rows = [text for _, text in drawn if date in text]
    assert rows  # the date, drawn whole
    shown_names = [text for _, text in drawn if text.startswith("Player against")]
    assert shown_names
    if size == (640, 400):
        assert all(text.endswith("...") for text in shown_names)  # the name gave way, not the date


@pytest.mark.parametrize("size", [(640, 400), (1280, 800), (1920, 1080), (2560, 600), (1024, 1024), (1100, 1024)])
def test_the_board_does_not_jump_when_a_game_starts_from_the_menu(tmp_path: Path, size) -> None:
    app = open_app(tmp_path, size)
    try:
        app.switch("menu", {})
        app.frame()
        menu_wood = app.current.board_view.geometry.wood
        app.switch("board", {"mode": "local"})
        app.frame()
        game_wood = app.current.view.geometry.wood
    finally:
        app.close()
    # The same place and size (was 54 px to the right, or smaller: 644 px against 715 at 1024x1024).
    assert menu_wood == game_wood


@pytest.mark.parametrize("size", [(640, 400), (1280, 800)])
def test_a_narrow_card_drops_the_colour_word_before_cutting_who_plays(tmp_path: Path, size) -> None:
    # With a move countdown the side to move's card shares its kind line with "game 4:59".
    with text_sizes() as drawn:
        app = open_app(tmp_path, size)
        try:
            app.switch("board", {"mode": "local", "moves": [[7, 7]],
                                 "time_control": {"game_s": 300, "increment_s": 0, "move_s": 30}})
            frames(app, 2)
        finally:
            app.close()
    kinds = {text for _, text in drawn if "Human" in text or "Hu..." in text}
    if size == (640, 400):
        assert "Human" in kinds  # was "White  ·  Hu..."
        assert not any(text.endswith("...") for text in kinds)
    else:
        assert "White  ·  Human" in kinds and "Black  ·  Human" in kinds


def test_a_long_name_to_move_gives_the_status_line_the_colour_instead_of_a_cut(tmp_path: Path) -> None:
    app = open_app(tmp_path, (640, 400))
    try:
        app.settings.player_name = "Konstantinopoulou"
        app.settings.guest_name = "Alexandrina Wolff"
        app.switch("board", {"mode": "local", "moves": [[7, 7]]})
        frames(app, 2)
        scene, theme = app.current, app.theme
        assert scene.status == "White to move"  # was "Alexandrina Wolff to..."
        assert theme.fit_text(scene.status, theme.text_px, scene.panel.status_rect.width, True) == scene.status
        app.set_window_size((1280, 800))
        frames(app, 2)
        assert app.current.status == "Alexandrina Wolff to move (white)"  # room for all of it
    finally:
        app.close()
