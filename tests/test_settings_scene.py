"""The settings scene: every change is applied at once and is still there in a new App."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from app_input import click, idle_frames
from app_input import press as press_key

from gomoku.ui.app import App, AppOptions


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def app(home: Path):
    app = App(AppOptions(windowed=True, home=home, scene="settings"))
    app.frame()
    yield app
    app.close()


def choose(app: App, choice, steps: int = 1) -> None:
    area = choice.control_rect
    for _ in range(steps):
        click(app, (area.right - 4, area.centery))


def saved(app: App) -> dict:
    return json.loads(app.paths.settings_file.read_text(encoding="utf-8"))


def reopen(home: Path) -> App:
    return App(AppOptions(windowed=True, home=home, scene="settings"))


def test_choices_are_saved_at_once_and_load_in_a_new_app(app: App, home: Path) -> None:
    scene = app.current
    choose(app, scene.level)  # medium -> hard
    assert saved(app)["level"] == "hard"
    choose(app, scene.color)  # black -> white
    choose(app, scene.time, 4)  # four steps from None: 3 min + 2 s
    choose(app, scene.size, 2)  # 15 -> 19 -> 20
    click(app, scene.numbers.rect.center)
    click(app, scene.coordinates.rect.center)
    app.close()
    again = reopen(home)
    try:
        s = again.settings
        assert (s.level, s.human_color, s.board_size) == ("hard", "white", 20)
        assert (s.game_s, s.increment_s, s.move_s) == (180, 2, 0)
        assert s.show_move_numbers is True and s.show_coordinates is False
        # And the scene shows them.
        again.frame()
        assert again.current.level.text == "Hard"
        assert again.current.time.text == "3 min + 2 s"
        assert again.current.numbers.value is True
    finally:
        again.close()


def test_sound_changes_reach_the_audio_at_once(app: App) -> None:
    scene = app.current
    click(app, scene.mute.rect.center)
    assert app.audio.muted is True
    assert saved(app)["mute"] is True
    track = scene.music.track_rect
    click(app, (track.left, track.centery))
    assert app.settings.music_volume == 0.0
    assert app.audio.music_volume == 0.0
    click(app, (track.right, track.centery))
    assert app.settings.music_volume == 1.0
    assert saved(app)["music_volume"] == 1.0
    sfx = scene.sfx.track_rect
    click(app, (sfx.left + sfx.width // 4, sfx.centery))
    assert app.audio.sfx_volume == pytest.approx(0.25, abs=0.03)


def test_dragging_a_volume_is_heard_at_once_and_written_once_on_release(app: App) -> None:
    scene = app.current
    track = scene.music.track_rect
    before = app.paths.settings_file.read_bytes() if app.paths.settings_file.exists() else b""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(track.left, track.centery), button=1))
    app.frame()
    for x in range(track.left, track.right + 1, max(1, track.width // 10)):
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, track.centery), rel=(1, 0),
                                             buttons=(1, 0, 0)))
        app.frame()
        assert app.audio.music_volume == app.settings.music_volume  # heard while dragging
    assert app.settings.music_volume > 0.8
    current = app.paths.settings_file.read_bytes() if app.paths.settings_file.exists() else b""
    assert current == before  # no disk write on every step of the drag
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(track.right, track.centery), button=1))
    app.frame()
    assert saved(app)["music_volume"] == app.settings.music_volume


def test_board_size_other_than_fifteen_is_for_freestyle_only(app: App) -> None:
    scene = app.current
    choose(app, scene.size)  # 19
    choose(app, scene.rule)  # freestyle -> standard
    assert app.settings.rule == "standard"
    assert scene.size.value == 15 and not scene.size.enabled
    assert app.settings.effective_board_size == 15
    choose(app, scene.rule, 2)  # renju -> freestyle
    assert scene.size.enabled and scene.size.value == 19  # the freestyle choice is remembered


def type_text(app: App, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.frame()


def test_player_name_is_typed_and_saved_on_enter(app: App) -> None:
    scene = app.current
    click(app, scene.name_input.control_rect.center)
    for _ in range(len("Player")):
        press_key(app, pygame.K_BACKSPACE)
    type_text(app, "Grace")
    press_key(app, pygame.K_RETURN)
    assert app.settings.player_name == "Grace"
    assert saved(app)["player_name"] == "Grace"


def test_an_empty_name_is_refused_with_a_notice(app: App) -> None:
    scene = app.current
    click(app, scene.name_input.control_rect.center)
    for _ in range(10):
        press_key(app, pygame.K_BACKSPACE)
    press_key(app, pygame.K_RETURN)
    assert app.settings.player_name == "Player"
    assert scene.name_input.text == "Player"
    assert any("name" in n.text for n in app.notices)


def test_a_name_being_typed_is_kept_when_leaving(app: App) -> None:
    scene = app.current
    click(app, scene.name_input.control_rect.center)
    type_text(app, "2")
    press_key(app, pygame.K_ESCAPE)  # Esc in the field abandons the edit, not the scene
    assert app.current_name == "settings"
    assert app.settings.player_name == "Player"
    click(app, scene.name_input.control_rect.center)
    type_text(app, "X")
    click(app, scene.back_button.rect.center)
    assert app.current_name == "menu"
    assert app.settings.player_name == "X"


def test_typing_replaces_the_default_name_but_adds_to_a_chosen_one(app: App) -> None:
    scene = app.current
    click(app, scene.name_input.control_rect.center)
    type_text(app, "Ada")  # a new player's "Player" is selected: typing replaces it
    press_key(app, pygame.K_RETURN)
    assert app.settings.player_name == "Ada"
    click(app, scene.name_input.control_rect.center)
    type_text(app, " L")  # a name of one's own is edited at its end
    press_key(app, pygame.K_RETURN)
    assert app.settings.player_name == "Ada L"


def test_the_second_player_is_named_here_and_in_the_menu_alike(app: App) -> None:
    # The Two players panel had been the only place to name white.
    scene = app.current
    assert scene.guest_input.text == "Guest"
    click(app, scene.guest_input.control_rect.center)
    type_text(app, "Bob")  # "Guest" is selected: typing replaces it
    press_key(app, pygame.K_RETURN)
    assert app.settings.guest_name == "Bob" and saved(app)["guest_name"] == "Bob"
    assert app.settings.player_name == "Player"  # the first name is untouched
    click(app, scene.guest_input.control_rect.center)
    for _ in range(len("Bob")):
        press_key(app, pygame.K_BACKSPACE)
    press_key(app, pygame.K_RETURN)  # an empty name is refused, in words
    assert any("second player's name must be" in notice.text for notice in app.notices)
    assert scene.guest_input.text == "Bob" and app.settings.guest_name == "Bob"
    click(app, scene.back_button.rect.center)
    menu = app.current
    click(app, menu.local_button.rect.center)
    assert menu.guest_input.text == "Bob"


def test_the_second_name_being_typed_is_kept_when_leaving(app: App) -> None:
    scene = app.current
    click(app, scene.guest_input.control_rect.center)
    type_text(app, "Ann")
    press_key(app, pygame.K_ESCAPE)  # Esc in the field abandons the edit, not the scene
    assert app.current_name == "settings" and app.settings.guest_name == "Guest"
    click(app, scene.guest_input.control_rect.center)
    type_text(app, "Ann")
    click(app, scene.back_button.rect.center)
    assert app.current_name == "menu" and app.settings.guest_name == "Ann"


def test_fullscreen_toggle_switches_the_display_at_once(app: App) -> None:
    scene = app.current
    assert scene.fullscreen.value is False  # the test app is windowed
    click(app, scene.fullscreen.rect.center)
    assert app.fullscreen is True
    assert app.screen_size == pygame.display.get_desktop_sizes()[0]
    assert saved(app)["fullscreen"] is True
    # The scene was laid out again for the new size.
    assert pygame.Rect((0, 0), app.screen_size).contains(scene.back_button.rect)


def test_escape_and_back_return_to_the_menu(app: App) -> None:
    press_key(app, pygame.K_ESCAPE)
    assert app.current_name == "menu"
    app.switch("settings", {})
    click(app, app.current.back_button.rect.center)
    assert app.current_name == "menu"


@pytest.mark.parametrize("size", [(1024, 600), (3840, 2160), (800, 600)])
def test_every_control_fits_the_window_without_overlap(app: App, size: tuple[int, int]) -> None:
    app.set_window_size(size)
    app.frame()
    scene = app.current
    screen = pygame.Rect((0, 0), size)
    widgets = [*scene.game_widgets, *scene.view_widgets, scene.back_button]
    for widget in widgets:
        assert screen.contains(widget.rect), widget
        assert widget.rect.height >= 16
    for i, first in enumerate(widgets):
        for second in widgets[i + 1:]:
            assert not first.rect.colliderect(second.rect), (first, second)


def test_settings_from_a_hand_edited_file_show_even_off_preset(home: Path) -> None:
    home.mkdir(parents=True)
    (home / "settings.json").write_text(json.dumps({"game_s": 420, "increment_s": 7, "board_size": 17}))
    app = reopen(home)
    try:
        app.frame()
        scene = app.current
        assert scene.time.text == "7 min + 7 s"
        assert scene.size.value == 17
    finally:
        app.close()


def test_settings_work_from_the_keyboard(app: App) -> None:
    press_key(app, pygame.K_DOWN)  # your name
    press_key(app, pygame.K_DOWN)  # the second player's name
    press_key(app, pygame.K_DOWN)  # computer level
    press_key(app, pygame.K_RIGHT)
    assert saved(app)["level"] == "hard"
    for _ in range(7):  # colour, rule, board size, time, effects, music, then mute
        press_key(app, pygame.K_DOWN)
    assert app.current.mute.highlighted
    press_key(app, pygame.K_SPACE)
    assert app.settings.mute is True and app.audio.muted


def test_the_name_cursor_keeps_blinking_while_the_rest_holds_still(app: App) -> None:
    app.switch("settings", {})
    app.frame()
    presented = idle_frames(app, 3)  # nothing moves: nothing is presented
    scene = app.current
    scene.name_input.focused = True
    started = pygame.time.get_ticks()
    while pygame.time.get_ticks() - started < 1100:  # two blinks of the text cursor
        app.frame()
    assert app.frames_presented >= presented + 2
