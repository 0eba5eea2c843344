"""The menu: each button leads where it says, the vs Computer panel hands the board its options,
and the game behind the menu plays itself."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest
from app_input import click, idle_frames, type_text
from app_input import press as press_key

from gomoku.core import Board, Color, Rule
from gomoku.core.game import Game, PlayerInfo
from gomoku.engine.worker import EngineWorker
from gomoku.ui.app import App, AppOptions
from gomoku.ui.scenes.menu import ATTRACT_MOVE_S, ATTRACT_SIZE, AttractGame

H6_SCENES = {"board", "records"}
"""Scenes the board engineer owns: their own tests cover them, so here we only record what the
menu sends them and stay on the menu."""


@pytest.fixture
def app(tmp_path: Path):
    app = App(AppOptions(windowed=True, home=tmp_path / "home"))
    app.switches = []  # type: ignore[attr-defined]
    real_switch = app.switch

    def recording_switch(name: str, data: dict | None = None) -> None:
        app.switches.append((name, dict(data or {})))  # type: ignore[attr-defined]
        if name not in H6_SCENES:
            real_switch(name, data)

    app.switch = recording_switch  # type: ignore[method-assign]
    app.frame()
    yield app
    app.close()


def test_continue_shows_only_when_there_is_an_autosave(tmp_path: Path) -> None:
    home = tmp_path / "home"
    app = App(AppOptions(windowed=True, home=home))
    try:
        app.frame()
        assert not app.current.continue_button.visible
        app.paths.autosave_file.write_text("{}", encoding="utf-8")
        app.switch("lobby", {})
        app.switch("menu", {})
        app.frame()
        assert app.current.continue_button.visible
        # The visible buttons never overlap, with or without Continue.
        rects = [b.rect for b in app.current.buttons if b.visible]
        assert all(not a.colliderect(b) for a, b in zip(rects, rects[1:], strict=False))
    finally:
        app.close()


def test_continue_resumes_the_autosave(app: App) -> None:
    from gomoku.ui import autosave
    from gomoku.ui.players import GameSetup

    setup = GameSetup(mode="local")
    game = Game(Board(15), PlayerInfo("Ann"), PlayerInfo("Bob"))
    game.start(1.0)
    game.play(7, 7, 2.0)
    autosave.save(app.paths.autosave_file, game, setup, now=3.0)
    app.switch("menu", {})
    app.frame()
    click(app, app.current.continue_button.rect.center)
    assert app.switches[-1] == ("board", {"resume": True})


def test_continue_with_a_damaged_autosave_stays_on_the_menu(app: App) -> None:
    app.paths.autosave_file.write_text("{}", encoding="utf-8")
    app.switch("menu", {})
    app.frame()
    click(app, app.current.continue_button.rect.center)
    assert app.current_name == "menu" and ("board", {"resume": True}) not in app.switches
    assert any(n.error and "could not be continued" in n.text for n in app.notices)
    assert not app.paths.autosave_file.exists()
    assert app.paths.autosave_file.with_name("autosave.gomoku.bak").read_text(encoding="utf-8") == "{}"
    assert not app.current.continue_button.visible


def test_lan_duel_opens_the_lobby_and_back_stops_the_network(app: App) -> None:
    click(app, app.current.lan_button.rect.center)
    assert app.current_name == "lobby"
    assert app.lan is not None and app.lan_interface == "127.0.0.1"  # the tests stay on loopback
    bridge = app.lan.bridge
    click(app, app.current.back_button.rect.center)
    assert app.current_name == "menu"
    assert app.lan is None and (bridge._thread is None or not bridge._thread.is_alive())
    click(app, app.current.lan_button.rect.center)
    press_key(app, pygame.K_ESCAPE)
    assert app.current_name == "menu"


def test_settings_button_opens_settings(app: App) -> None:
    click(app, app.current.settings_button.rect.center)
    assert app.current_name == "settings"


def test_two_players_asks_for_rule_board_and_time_and_remembers_them(app: App) -> None:
    # It had started at once with the rule, size and time last chosen for the computer: a
    # 20x20 or timed game for two meant a trip to Settings first.
    app.settings.rule = "renju"
    menu = app.current
    click(app, menu.local_button.rect.center)
    assert menu.panel_open and menu.panel.title == "Two players on this screen"
    assert menu.rows == [menu.rule, menu.size, menu.time, menu.guest_input]  # no level or colour to choose
    assert menu.rule.value == "renju"
    choose(app, menu.rule)  # renju -> freestyle
    choose(app, menu.size, 2)  # 15 -> 19 -> 20
    choose(app, menu.time, 4)  # none -> 10, 30, 60 s a move -> 3 min + 2 s
    click(app, menu.start_button.rect.center)
    assert app.switches[-1] == ("board", {
        "mode": "local", "rule": "freestyle", "size": 20,
        "time_control": {"game_s": 180, "increment_s": 2, "move_s": 0},
    })
    assert (app.settings.rule, app.settings.board_size, app.settings.game_s) == ("freestyle", 20, 180)


def test_the_second_player_is_named_in_the_two_players_panel(tmp_path: Path) -> None:
    # White had always been "Guest", on the card and in every saved game.
    app = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home"))
    try:
        app.frame()
        menu = app.current
        click(app, menu.local_button.rect.center)
        click(app, menu.guest_input.control_rect.center)  # "Guest" is highlighted: typing replaces it
        type_text(app, "Bob", enter=True)
        assert menu.panel_open and app.current_name == "menu"  # Enter confirmed the name, no more
        assert app.settings.guest_name == "Bob"
        click(app, menu.guest_input.control_rect.center)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_CTRL, unicode=""))
        press_key(app, pygame.K_BACKSPACE)
        press_key(app, pygame.K_RETURN)  # an empty name is refused, in words
        assert any("second player's name must be" in notice.text for notice in app.notices)
        assert menu.guest_input.text == "Bob" and app.settings.guest_name == "Bob"
        click(app, menu.start_button.rect.center)
        assert app.current_name == "board"
        assert [app.current.game.player(color).name for color in Color] == ["Player", "Bob"]
    finally:
        app.close()


def test_the_two_players_panel_works_from_the_keyboard(app: App) -> None:
    press_key(app, pygame.K_DOWN)  # vs Computer
    press_key(app, pygame.K_DOWN)  # Two players
    press_key(app, pygame.K_RETURN)
    menu = app.current
    assert menu.panel_open and menu.rule.highlighted
    press_key(app, pygame.K_ESCAPE)  # back to the menu, nothing started
    assert not menu.panel_open and app.current_name == "menu"
    press_key(app, pygame.K_RETURN)  # the focus stayed on Two players
    for _ in range(3):
        press_key(app, pygame.K_DOWN)  # board, time, then the second player's name
    assert menu.guest_input.highlighted
    press_key(app, pygame.K_RETURN)  # edit the name
    assert menu.guest_input.focused
    type_text(app, "Zoe", enter=True)  # Enter confirms it and moves on to Start
    assert menu.panel_open and menu.start_button.highlighted and app.settings.guest_name == "Zoe"
    press_key(app, pygame.K_RETURN)  # Enter starts the game
    assert app.switches[-1][0] == "board" and app.switches[-1][1]["mode"] == "local"


def test_load_game_opens_the_records_scene(app: App) -> None:
    click(app, app.current.load_button.rect.center)
    assert app.switches[-1] == ("records", {})


def test_quit_ends_the_app(app: App) -> None:
    click(app, app.current.quit_button.rect.center)
    assert app.running is False


def test_keyboard_moves_the_focus_and_enter_activates(app: App) -> None:
    press_key(app, pygame.K_DOWN)  # the first visible button: vs Computer (no autosave)
    press_key(app, pygame.K_DOWN)  # Two players
    press_key(app, pygame.K_DOWN)  # LAN duel
    press_key(app, pygame.K_RETURN)
    assert app.current_name == "lobby"


def choose(app: App, choice, steps: int = 1) -> None:
    """Click the right-hand end of a Choice `steps` times."""
    area = choice.control_rect
    for _ in range(steps):
        click(app, (area.right - 4, area.centery))


def test_vs_computer_panel_sends_the_chosen_options_and_remembers_them(app: App) -> None:
    menu = app.current
    click(app, menu.ai_button.rect.center)
    assert menu.panel_open
    assert menu.level.value == "medium"
    choose(app, menu.level)  # medium -> hard
    choose(app, menu.color, 2)  # black -> white -> random
    choose(app, menu.size)  # 15 -> 19 (freestyle)
    choose(app, menu.time, 2)  # none -> 10 s a move -> 30 s a move
    click(app, menu.start_button.rect.center)
    name, data = app.switches[-1]
    assert name == "board"
    assert data == {
        "mode": "ai", "level": "hard", "human_color": "random", "rule": "freestyle", "size": 19,
        "time_control": {"game_s": 0, "increment_s": 0, "move_s": 30},
    }
    again = App(AppOptions(windowed=True, home=app.paths.config_dir))
    try:
        assert again.settings.level == "hard"
        assert again.settings.human_color == "random"
        assert again.settings.board_size == 19
        assert again.settings.move_s == 30
    finally:
        again.close()


def test_renju_plays_on_fifteen_only(app: App) -> None:
    menu = app.current
    click(app, menu.ai_button.rect.center)
    choose(app, menu.size)  # 19 while freestyle
    choose(app, menu.rule, 2)  # freestyle -> standard -> renju
    assert menu.rule.value == "renju"
    assert menu.size.value == 15 and not menu.size.enabled
    click(app, menu.start_button.rect.center)
    assert app.switches[-1][1]["size"] == 15
    assert app.switches[-1][1]["rule"] == "renju"


def test_the_panel_closes_with_back_or_escape(app: App) -> None:
    menu = app.current
    click(app, menu.ai_button.rect.center)
    click(app, menu.back_button.rect.center)
    assert not menu.panel_open
    click(app, menu.ai_button.rect.center)
    press_key(app, pygame.K_ESCAPE)
    assert not menu.panel_open
    assert app.current_name == "menu"
    # While the panel is open the menu buttons underneath do not react.
    click(app, menu.ai_button.rect.center)
    click(app, menu.quit_button.rect.center)
    assert app.running


def test_the_attract_game_gets_moves_from_the_engine_while_the_menu_runs(app: App) -> None:
    menu = app.current
    start = menu.attract.board.ply
    deadline = time.monotonic() + 90  # a cold numba cache compiles first (~20 s); warm it is instant
    while menu.attract.board.ply < start + 2 and time.monotonic() < deadline:
        app.frame(0.25)
        time.sleep(0.01)
    assert menu.attract.board.ply >= start + 2


def test_the_attract_game_restarts_after_a_win() -> None:
    game = AttractGame()
    board = Board(ATTRACT_SIZE, Rule.FREESTYLE)
    for x in range(4):
        board.push(x, 0)
        board.push(x, 1)
    board.push(4, 0)
    assert board.is_game_over()
    game.board = board
    game.update(1.0, None)
    assert game.board is board  # the finished game stays on screen a moment
    for _ in range(10):
        game.update(1.0, None)
    assert game.board is not board
    assert not game.board.is_game_over()
    assert game.games_played == 1
    assert 3 <= game.board.ply <= 4


def test_the_attract_game_ignores_results_meant_for_others() -> None:
    engine = EngineWorker()
    try:
        game = AttractGame()
        before = game.board.ply
        game.update(ATTRACT_MOVE_S, engine)
        assert game.request_id is not None
        engine.results.put((game.request_id + 1000, RuntimeError("someone else's")))
        deadline = time.monotonic() + 10
        while game.board.ply == before and time.monotonic() < deadline:
            game.update(0.05, engine)
            time.sleep(0.01)
        assert game.board.ply == before + 1
    finally:
        engine.close()


def test_the_vs_computer_panel_works_from_the_keyboard(app: App) -> None:
    press_key(app, pygame.K_DOWN)  # vs Computer
    press_key(app, pygame.K_RETURN)
    menu = app.current
    assert menu.panel_open and menu.level.highlighted
    press_key(app, pygame.K_RIGHT)  # medium -> hard
    press_key(app, pygame.K_DOWN)
    press_key(app, pygame.K_RIGHT)  # black -> white
    press_key(app, pygame.K_RETURN)  # Enter starts the game
    name, data = app.switches[-1]
    assert name == "board"
    assert (data["level"], data["human_color"]) == ("hard", "white")


def test_an_idle_menu_is_not_presented_again_until_something_changes(tmp_path) -> None:
    app = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home"))
    try:
        menu = app.current
        menu.attract.move_interval_s = 1e9  # the game behind the menu holds still
        app.frame()
        app.frame()
        presented = idle_frames(app, 5)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=menu.ai_button.rect.center,
                                             rel=(0, 0), buttons=(0, 0, 0)))
        app.frame()  # the hover shows at once
        assert app.frames_presented == presented + 1 and menu.ai_button.hover
    finally:
        app.close()


def test_white_stones_behind_the_menu_stay_white_on_the_dimmed_board(tmp_path: Path) -> None:
    app = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home"))
    try:
        app.switch("menu", {"attract_moves": [[7, 7], [8, 8], [6, 6]]})
        app.frame()
        view = app.current.board_view
        white = app.screen.get_at(view.geometry.center((8, 8)))
        x, y = view.geometry.center((2, 2))
        wood = app.screen.get_at((x + 9, y + 9))  # between the grid lines of an empty point
        assert min(white[:3]) >= 190, white  # white, not the grey of a dimmed stone
        assert max(wood[:3]) < 160, wood  # while the wood itself is dimmed
    finally:
        app.close()


def test_the_panel_says_what_the_chosen_rule_means(app: App) -> None:
    # "Renju" alone told a new player nothing of black's forbidden moves.
    app.settings.rule = "freestyle"
    menu = app.current
    click(app, menu.ai_button.rect.center)
    assert menu.rule_note.text.startswith("Freestyle: five or more")
    height = menu.panel.rect.height
    choose(app, menu.rule, 2)  # freestyle -> standard -> renju
    assert "black may not make a double three" in menu.rule_note.text
    assert menu.panel.rect.height == height  # room for the longest note from the start
    assert menu.panel.content_rect.contains(menu.rule_note.rect)
    assert not menu.rule_note.rect.colliderect(menu.start_button.rect)
