"""The app shell: start-up, scene switching, notices, settings files, resizing, screenshots."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest
from app_input import click

from gomoku.ui.app import (
    NOTICE_MAX_SECONDS,
    NOTICE_SECONDS,
    SCENES,
    App,
    AppOptions,
    parse_args,
    parse_size,
)
from gomoku.ui.theme import MIN_TEXT_PX

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def make_app(tmp_path: Path):
    """Build Apps on a private home; every one is closed after the test."""
    apps: list[App] = []

    def build(**options) -> App:
        options.setdefault("windowed", True)
        options.setdefault("home", tmp_path / "home")
        app = App(AppOptions(**options))
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.close()


def test_app_starts_on_the_menu_in_a_window_of_the_asked_size(make_app) -> None:
    app = make_app(size=(1100, 700))
    app.frame()
    assert app.current_name == "menu"
    assert app.current is not None and app.current.name == "menu"
    assert app.screen_size == (1100, 700)
    assert pygame.display.get_surface().get_size() == (1100, 700)


def test_an_unknown_scene_is_reported_and_the_current_scene_stays(make_app) -> None:
    app = make_app()
    app.switch("nowhere", {})
    app.frame()
    assert app.current_name == "menu"
    assert any("nowhere" in notice.text for notice in app.notices)


def test_a_notice_shows_then_goes_away_after_a_few_seconds(make_app) -> None:
    app = make_app()
    app.notify("Saved your game")
    app.frame(0.5)
    assert [n.text for n in app.notices] == ["Saved your game"]
    for _ in range(int(NOTICE_SECONDS / 0.5) + 1):
        app.frame(0.5)
    assert app.notices == []


def test_a_long_notice_stays_longer_but_not_forever(make_app) -> None:
    app = make_app()
    app.notify("short")
    app.notify("A long explanation of what went wrong with the settings file, and what the game did. " * 2)
    app.frame(NOTICE_SECONDS + 0.1)
    assert [n.text for n in app.notices if n.text != "short"]
    assert all(n.text != "short" for n in app.notices)
    app.frame(NOTICE_MAX_SECONDS)
    assert app.notices == []


def test_a_notice_draws_a_banner_at_the_top_of_the_screen(make_app) -> None:
    app = make_app()
    app.frame()
    before = pygame.Surface.copy(app.screen)
    app.notify("Something to read")
    app.frame(0.0)
    top_middle = (app.screen_size[0] // 2, app.theme.pad + 4)
    assert app.screen.get_at(top_middle) != before.get_at(top_middle)


def test_in_a_game_toasts_stay_over_the_board_clear_of_the_panel(make_app) -> None:
    app = make_app()
    app.switch("board", {"mode": "local"})
    app.notify("A notice during a game")
    app.frame(0.0)
    app.notify("And a newer one")
    app.frame(0.0)
    (older, older_rect), (newer, newer_rect) = app._notice_rects()
    board = app.current.board_area
    for rect in (older_rect, newer_rect):
        assert board.contains(rect) and not rect.colliderect(app.current.panel_rect)
    assert newer.text == "And a newer one" and newer_rect.bottom > older_rect.bottom  # newest lowest
    assert newer_rect.right == older_rect.right and newer_rect.bottom > board.centery


def test_clicking_a_notice_dismisses_it(make_app) -> None:
    app = make_app()
    app.notify("Click me away")
    app.frame(0.0)
    (_, rect), = app._notice_rects()
    click(app, rect.center)
    assert app.notices == []


def test_window_close_ends_the_loop_and_leaves_the_scene(make_app) -> None:
    app = make_app()
    app.switch("lobby", {})
    left: list[str] = []
    original_leave = app.current.leave
    app.current.leave = lambda: (left.append("lobby"), original_leave())  # observe the real call
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.frame()
    assert app.running is False
    assert left == ["lobby"]


def test_settings_saved_by_one_app_are_loaded_by_the_next(make_app) -> None:
    app = make_app()
    app.settings.player_name = "Ada"
    app.settings.sfx_volume = 0.25
    assert app.save_settings()
    app.close()
    again = make_app()
    assert again.settings.player_name == "Ada"
    assert again.settings.sfx_volume == 0.25


def test_a_damaged_settings_file_gives_a_notice_and_the_defaults(make_app, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text("{ this is not json", encoding="utf-8")
    app = make_app(home=home)
    app.frame()
    assert app.current_name == "menu"
    assert app.settings.player_name == "Player"
    assert app.notices and app.notices[0].error
    assert "settings" in app.notices[0].text.lower()
    assert (home / "settings.json.bak").exists()


def test_an_unsaveable_setting_is_reported_not_raised(make_app) -> None:
    app = make_app()
    app.settings.sfx_volume = 7.0  # out of range: save_settings refuses it
    assert app.save_settings() is False
    assert any("Could not save" in n.text for n in app.notices)


@pytest.mark.parametrize("size", [(1024, 600), (3840, 2160), (1280, 800)])
def test_resizing_lays_the_menu_out_inside_the_window(make_app, size: tuple[int, int]) -> None:
    app = make_app()
    app.set_window_size(size)
    app.frame()
    assert app.screen_size == size
    screen = pygame.Rect((0, 0), size)
    buttons = [b for b in app.current.buttons if b.visible]
    for button in buttons:
        assert screen.contains(button.rect), button.text
    for first, second in zip(buttons, buttons[1:], strict=False):
        assert not first.rect.colliderect(second.rect)
    # Text is rendered at the window's scale (never under the readable floor), not stretched.
    assert app.theme.text_px == max(app.theme.px(26), MIN_TEXT_PX + 3)


def test_text_gets_bigger_on_a_bigger_window(make_app) -> None:
    app = make_app(size=(1024, 600))
    small = app.theme.text_px
    app.set_window_size((3840, 2160))
    assert app.theme.text_px > 2 * small


def test_f11_switches_to_fullscreen_and_back_and_remembers_it(make_app) -> None:
    app = make_app()
    assert app.fullscreen is False
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11, mod=0, unicode=""))
    app.frame()
    assert app.fullscreen is True
    assert app.screen_size == pygame.display.get_desktop_sizes()[0]
    assert app.settings.fullscreen is True
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11, mod=0, unicode=""))
    app.frame()
    assert app.fullscreen is False
    saved = json.loads(app.paths.settings_file.read_text(encoding="utf-8"))
    assert saved["fullscreen"] is False


def test_fullscreen_is_the_default_without_windowed(make_app) -> None:
    app = make_app(windowed=False)
    assert app.fullscreen is True
    assert app.screen_size == pygame.display.get_desktop_sizes()[0]


def test_command_line_options() -> None:
    options = parse_args(["--size", "1024x600", "--home", "/tmp/x", "--scene", "settings"])
    assert options.size == (1024, 600)
    assert options.windowed is True
    assert options.scene == "settings"
    assert options.home == Path("/tmp/x")
    board = parse_args(["--screenshot", "a.png", "--scene", "board"])
    assert board.scene_data["mode"] == "local"
    assert len(board.scene_data["moves"]) >= 12


@pytest.mark.parametrize("text", ["abc", "1024", "10x10", "1024x", "99999x99999"])
def test_a_bad_size_is_refused_with_a_clear_message(text: str) -> None:
    with pytest.raises(ValueError, match="size"):
        parse_size(text)


def test_a_bad_size_on_the_command_line_exits_with_usage(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse_args(["--size", "huge"])
    assert exit_info.value.code == 2
    assert "size must look like 1280x800" in capsys.readouterr().err


def run_gomoku(*args: str, home: Path, env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, GOMOKU_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "gomoku", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=60,
    )


def test_screenshot_mode_writes_a_png_of_the_asked_size(tmp_path: Path) -> None:
    target = tmp_path / "shots" / "menu.png"
    result = run_gomoku("--screenshot", str(target), "--size", "1024x600", home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    image = pygame.image.load(str(target))
    assert image.get_size() == (1024, 600)
    # Not a blank image: the menu draws a board, a title and buttons in many colours.
    colours = {tuple(image.get_at((x, y))) for x in range(0, 1024, 16) for y in range(0, 600, 16)}
    assert len(colours) > 20


def test_help_lists_the_options(tmp_path: Path) -> None:
    result = run_gomoku("--help", home=tmp_path)
    assert result.returncode == 0
    for option in ("--windowed", "--size", "--screenshot", "--scene", "--home"):
        assert option in result.stdout


def test_startup_probe_reports_the_first_menu_frame(tmp_path: Path) -> None:
    result = run_gomoku("--windowed", home=tmp_path, env_extra={"GOMOKU_STARTUP_PROBE": "1"})
    assert result.returncode == 0, result.stderr
    assert "first_frame_epoch" in result.stdout


BROKEN_SCENE = '''
import pygame
from gomoku.ui.scene import Scene


LEFT = []


class BrokenScene(Scene):
    name = "broken"

    def leave(self):
        LEFT.append(self.name)

    def update(self, dt):
        pygame.event.post(pygame.event.Event(pygame.QUIT))  # so the loop ends after recovering
        raise ZeroDivisionError("a bug in a scene")
'''


def test_a_scene_that_raises_is_reported_and_the_menu_comes_back(make_app, tmp_path, monkeypatch) -> None:
    (tmp_path / "broken_scene_module.py").write_text(BROKEN_SCENE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(SCENES, "broken", "broken_scene_module")
    app = make_app()
    app.switch("broken", {})
    assert app.current_name == "broken"
    seen: list[str] = []
    real_notify = app.notify
    monkeypatch.setattr(app, "notify", lambda text, error=False: (seen.append(text), real_notify(text, error)))
    assert app.run() == 0
    assert app.current_name == "menu"
    assert any("a bug in a scene" in text and "menu" in text for text in seen)
    import broken_scene_module

    assert broken_scene_module.LEFT == ["broken"]  # it could still stop its work and save its game


def test_an_engine_that_cannot_load_is_reported_once(make_app) -> None:
    app = make_app()
    app._engine_error = ImportError("numba is missing")  # what the loader records on failure
    app.frame()
    app.frame()
    assert [n.text for n in app.notices if "computer player" in n.text] == [
        "The computer player could not start (numba is missing); two-player games still work."
    ]


def test_if_the_menu_itself_fails_the_game_stops_with_a_plain_message(make_app, tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "broken_menu_module.py").write_text(
        BROKEN_SCENE.replace('name = "broken"', 'name = "menu"'), encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(SCENES, "menu", "broken_menu_module")
    app = make_app()
    assert app.run() == 1
    assert "the game stopped after an internal error: a bug in a scene" in capsys.readouterr().err


def test_without_any_screen_the_game_says_so_plainly(tmp_path: Path) -> None:
    result = run_gomoku("--windowed", home=tmp_path, env_extra={"SDL_VIDEODRIVER": "no-such-video"})
    assert result.returncode == 1
    assert "cannot open a window" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_default_window_fits_a_small_desktop(make_app) -> None:
    app = make_app()  # the dummy driver's desktop is smaller than 1280x800
    desktop = pygame.display.get_desktop_sizes()[0]
    width, height = app.screen_size
    assert width <= min(1280, desktop[0]) and height <= min(800, desktop[1])
    assert width >= 0.85 * min(1280, desktop[0])


def test_screenshots_default_to_1280x800(tmp_path: Path) -> None:
    target = tmp_path / "menu.png"
    result = run_gomoku("--screenshot", str(target), home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    assert pygame.image.load(str(target)).get_size() == (1280, 800)


def test_a_first_scene_that_fails_to_start_falls_back_to_the_menu(make_app, tmp_path, monkeypatch) -> None:
    (tmp_path / "bad_start_module.py").write_text(
        BROKEN_SCENE.replace("def update(self, dt):", "def enter(self, data):\n        raise ValueError('no way')\n\n    def update(self, dt):"),
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(SCENES, "broken", "bad_start_module")
    app = make_app(scene="broken")
    assert app.current_name == "menu"
    assert any("no way" in n.text for n in app.notices)


def test_a_review_screenshot_shows_the_sample_game_without_an_error(tmp_path: Path) -> None:
    options = parse_args(["--screenshot", str(tmp_path / "review.png"), "--scene", "review",
                          "--home", str(tmp_path / "home")])
    app = App(options)
    try:
        app.frame()
        assert app.current_name == "review"
        assert app.current.total == len(options.scene_data["record"].moves) > 10
        assert not any(n.error for n in app.notices)
    finally:
        app.close()


LAN_AHEAD = """
import sys
import time
from pathlib import Path
from gomoku.ui.app import App, AppOptions
menu_waited = "zeroconf" in sys.modules  # the menu's first frame must not wait for it
app = App(AppOptions(windowed=True, size=(800, 600), home=Path(sys.argv[1]), lan_interface="127.0.0.1"))
app.frame()
app._engine_loader.join(120)
print(menu_waited, all(name in sys.modules for name in ("zeroconf", "gomoku.net.bridge", "gomoku.ui.scenes.lobby")))
app.close()
"""


def test_the_lan_modules_are_imported_behind_the_menu_so_the_lobby_opens_at_once(tmp_path):
    """zeroconf and asyncio took 60-90 ms, a held window at the lobby's first opening; the
    engine's loader thread imports them once the engine is in (a fresh process, so no other
    test's import hides it)."""
    done = subprocess.run([sys.executable, "-c", LAN_AHEAD, str(tmp_path / "home")], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "False True"


def test_a_home_that_is_a_file_is_named_in_one_notice_and_the_game_runs(tmp_path: Path) -> None:
    home = tmp_path / "not a folder"
    home.write_text("a file in the way")
    app = App(AppOptions(windowed=True, size=(1280, 800), home=home))
    try:
        app.frame()
        texts = [notice.text for notice in app.notices]
        # One notice, naming the folder (the settings' own "Not a directory" said the same again).
        assert texts == [f"Cannot create the folder {home} for your files (File exists); nothing will be saved."]
        assert app.current_name == "menu" and home.read_text() == "a file in the way"
        assert not app.save_settings()  # a change of settings then: the system's words, no "[Errno 17]"
        assert app.notices[-1].text == "Could not save the settings (File exists)."
    finally:
        app.close()


def test_without_a_display_the_game_says_so_instead_of_running_unseen(tmp_path: Path) -> None:
    """Over ssh (no DISPLAY, no Wayland), SDL fell back to its offscreen driver: the game ran,
    invisible, until killed, with nothing said."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    probe = subprocess.run([sys.executable, "-c", "import pygame; pygame.display.init(); "
                            "print(pygame.display.get_driver())"], env=env, capture_output=True, text=True,
                           timeout=60)
    if probe.stdout.strip().splitlines()[-1:] != ["offscreen"]:
        pytest.skip(f"this machine has a display SDL can use: {probe.stdout.strip()[-40:]}")
    env.update(GOMOKU_HOME=str(tmp_path / "home"), SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-m", "gomoku"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert "gomoku: cannot open a window (no display found)" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("sent", ["SIGTERM", "SIGHUP"])
def test_the_game_asked_to_stop_by_the_system_quits_as_its_close_button_does(tmp_path: Path, sent: str) -> None:
    """A shutdown's SIGTERM or a closed terminal's SIGHUP ended the game where it stood (status
    -15): no autosave at leaving, no goodbye to a LAN opponent. Now it quits as the window's
    close button does, with status 0."""
    home = tmp_path / "home"
    env = dict(os.environ, GOMOKU_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    game = subprocess.Popen([sys.executable, "-m", "gomoku", "--windowed"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (home / ".autosave.lock").exists() and time.monotonic() < deadline:
            time.sleep(0.05)  # the app is made: its window and its loop come next
        time.sleep(2.0)  # (its handler is set up right after: a slow machine gets time for that)
        game.send_signal(getattr(signal, sent))
        assert game.wait(30) == 0
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
    assert "Traceback" not in game.stderr.read()


def test_a_hangup_ignored_from_the_start_stays_ignored_as_nohup_asks() -> None:
    """`nohup gomoku serve &` ignores SIGHUP so that closing the terminal leaves it running;
    our clean quit on SIGHUP must not undo that (SIGTERM still quits cleanly)."""
    code = ("import signal\nsignal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
            "from gomoku.signals import quit_on_signals\nquit_on_signals(lambda: None)\n"
            "print(signal.getsignal(signal.SIGHUP) is signal.SIG_IGN, callable(signal.getsignal(signal.SIGTERM)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["True", "True"], done.stderr[-2000:]


def test_a_screenshot_name_that_is_not_utf8_is_written_under_that_name(tmp_path: Path) -> None:
    # pygame, given such a name as text, wrote "g\udce9.png" with a backslash in it.
    target = tmp_path / os.fsdecode(b"g\xe9.png")
    result = run_gomoku("--screenshot", str(target), home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    assert os.listdir(os.fsencode(tmp_path)).count(b"g\xe9.png") == 1
    assert pygame.image.load(os.fsencode(target)).get_size() == (1280, 800)
    assert "wrote" in result.stdout and "g\ufffd.png" in result.stdout
