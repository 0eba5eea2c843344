"""A first launch through the real App: the engine is prepared in child processes while the
menu says so, and a computer whose engine is not ready waits with its clock stopped."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numba
import pytest
from app_input import click

from gomoku.core.types import Color
from gomoku.engine import driver, prepare
from gomoku.engine.api import Level
from gomoku.ui.app import App, AppOptions
from gomoku.ui.scenes.menu import preparing_text

FRAME_LIMIT = 20_000


@pytest.fixture
def app(tmp_path: Path):
    application = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home"))
    yield application
    application.close()


def frames_until(app: App, condition, limit: int = FRAME_LIMIT) -> None:
    for _ in range(limit):
        if condition():
            return
        app.frame()
        time.sleep(0.005)  # the loader and the children run meanwhile
    raise AssertionError("the condition never came true")


def test_without_a_complete_cache_the_app_prepares_in_children_and_shows_it(tmp_path, monkeypatch):
    driver.warm_up()  # the children load this cache: seconds, not the minute a compile takes
    monkeypatch.setattr(prepare, "marker_path", lambda: tmp_path / "prepared")
    application = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home"))
    try:
        frames_until(application, lambda: application.engine_preparing is not None
                     or application.engine_ready(Level.HARD))
        seen = application.current.preparing.text
        # (This process's driver is warm already, so readiness alone would not wait.)
        frames_until(application, lambda: application.engine_preparing is None)
        application.frame()
        assert application.engine_ready(Level.HARD)
        assert application.current.preparing.text == ""  # the line goes once all is ready
        preparer = application._preparer
        assert preparer is not None  # it did prepare (the marker was missing)
        assert sorted(preparer.state().done) == sorted(driver.WARM_TASKS)
        assert preparer.wait(timeout=60)
    finally:
        application.close()
    assert seen == "" or seen.startswith("Preparing the engine (first launch only)")
    assert (tmp_path / "prepared").is_file()  # the next launch skips the children


@pytest.fixture
def loader_held(monkeypatch):
    """The engine loader does nothing until released: the app as it is while numba imports."""
    release = threading.Event()
    monkeypatch.setattr(App, "_load_engine", lambda self: release.wait(30))
    yield release
    release.set()


def test_a_first_launch_says_so_from_the_first_frame(tmp_path, monkeypatch, loader_held) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "empty cache"))
    application = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home"))
    try:
        application.frame()
        assert application.frames_presented == 1 and application.current_name == "menu"
        assert application.current.preparing.text.startswith(
            f"Preparing the engine (first launch only)  ·  0 of {len(driver.WARM_TASKS)} parts, ")
    finally:
        application.close()


def test_a_launch_on_a_prepared_cache_shows_no_line(tmp_path, monkeypatch, loader_held) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    prepare.marker_path().write_text(prepare.source_stamp())  # as a finished preparation leaves it
    application = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home"))
    try:
        application.frame()
        assert application.engine_preparing is None
        assert application.current.preparing.text == ""
    finally:
        application.close()


def test_the_line_goes_when_the_loader_finds_the_cache_prepared_after_all(tmp_path, monkeypatch):
    driver.warm_up()  # the loader's cache load: seconds at most
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "empty cache"))  # the quick check: no
    monkeypatch.setattr(prepare, "is_prepared", lambda: True)  # the loader's real check: yes
    application = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home"))
    try:
        frames_until(application, lambda: application.engine_ready(Level.HARD))
        application.frame()
        assert application.engine_preparing is None
        assert application.current.preparing.text == ""
        assert application._preparer is None
    finally:
        application.close()


def test_the_menu_line_counts_the_parts_ready() -> None:
    assert preparing_text(None, 0.0) == ""
    assert preparing_text((2, 5), 6.7) == "Preparing the engine (first launch only)  ·  2 of 5 parts, 6 s"


def test_a_computer_waits_for_its_engine_with_its_clock_stopped(app, monkeypatch) -> None:
    frames_until(app, lambda: app.engine_ready(Level.EASY))
    ready = {"now": False}
    real = app.engine_ready
    monkeypatch.setattr(app, "engine_ready", lambda level: ready["now"] and real(level))
    app.switch("board", {"mode": "ai", "level": "easy", "human_color": "white", "rule": "freestyle",
                         "time_control": {"game_s": 0, "increment_s": 0, "move_s": 10}})
    scene = app.current
    for _ in range(5):
        app.frame()
    clock = scene.game.clock
    used = clock.used_in_move(time.monotonic())
    time.sleep(0.3)
    app.frame()
    assert scene.game.board.ply == 0
    assert clock.used_in_move(time.monotonic()) == used  # no time lost while it waits
    assert "preparing the engine" in scene._card_content(Color.BLACK, time.monotonic())[2]
    assert scene.status.startswith("Preparing the engine (first launch)")
    # While the parts are compiled, the status counts them as the menu does, in words that
    # fit the panel whole: a 1280-pixel window drops "(first launch)", a wider one keeps it.
    monkeypatch.setattr(type(app), "engine_preparing", property(lambda _: (2, 10)))
    theme, bold = app.theme, True
    for size, start in (((1024, 768), "Preparing the engine, 2/10."),
                        ((1280, 800), "Preparing the engine, 2 of 10 parts."),
                        ((1920, 1080), "Preparing the engine (first launch), 2 of 10 parts.")):
        app.set_window_size(size)
        app.frame()
        assert scene.status.startswith(start)
        shown = theme.fit_text(scene.status, theme.text_px, scene.panel.status_rect.width, bold)
        assert shown == scene.status  # not cut with an ellipsis
    monkeypatch.undo()
    monkeypatch.setattr(app, "engine_ready", lambda level: ready["now"] and real(level))
    ready["now"] = True
    frames_until(app, lambda: scene.game.board.ply == 1)
    assert clock.running and clock.to_move is Color.WHITE


def hint_asked_before_the_engine_is_ready(app, monkeypatch) -> tuple:
    """A two-player game, black to move, whose hint is asked for while the engine "is not
    ready" (until the returned flag's "now" is set): (the scene, the flag)."""
    frames_until(app, lambda: app.engine_ready(Level.EASY))
    ready = {"now": False}
    real = app.engine_ready
    monkeypatch.setattr(app, "engine_ready", lambda level: ready["now"] and real(level))
    app.switch("board", {"mode": "local", "moves": [[7, 7], [8, 8]]})
    scene = app.current
    app.frame()
    scene.request_hint()
    app.frame()
    return scene, ready


def test_a_hint_asked_for_while_the_engine_is_prepared_comes_by_itself(app, monkeypatch) -> None:
    scene, ready = hint_asked_before_the_engine_is_ready(app, monkeypatch)
    for _ in range(5):
        app.frame()
    assert scene.status == "Hint: the computer is getting ready..."
    assert not scene.buttons["hint"].enabled and scene.hint is None
    assert app.notices[-1].text == "The hint comes as soon as the computer is ready."  # was: try again
    ready["now"] = True
    frames_until(app, lambda: scene.hint is not None)
    assert scene.game.board[scene.hint] == 0 and scene.status.startswith("Hint: ")


def test_a_waiting_hint_says_so_whole_in_the_smallest_window(app, monkeypatch) -> None:
    app.set_window_size((640, 400))
    scene, _ready = hint_asked_before_the_engine_is_ready(app, monkeypatch)
    theme = app.theme
    assert scene.status == "Hint: getting ready..."  # not "Hint: the computer is ge..."
    assert theme.fit_text(scene.status, theme.text_px, scene.panel.status_rect.width, True) == scene.status


def test_a_waiting_hint_is_dropped_once_the_position_changes(app, monkeypatch) -> None:
    scene, ready = hint_asked_before_the_engine_is_ready(app, monkeypatch)
    click(app, scene.view.geometry.center((9, 9)))  # black plays on without it
    assert scene.game.board.ply == 3
    ready["now"] = True
    for _ in range(100):
        app.frame()
    assert scene.hint is None and scene.buttons["hint"].enabled


DAMAGED_CACHE_LAUNCH = """
import sys, time
from gomoku.engine.api import Level
from gomoku.ui.app import App, AppOptions
app = App(AppOptions(windowed=True, size=(1280, 800), home=sys.argv[1]))
seen = set()
deadline = time.monotonic() + 240
while not app.engine_ready(Level.HARD) and time.monotonic() < deadline:
    app.frame()
    seen.add(app.current.preparing.text.split("·")[0].strip())
    time.sleep(0.01)
print(app.engine_ready(Level.HARD), app.engine_error)
print("Preparing the engine (first launch only)" in seen)
app.close()
"""


def test_a_damaged_cache_is_prepared_again_and_the_computer_plays(tmp_path) -> None:
    """A cache file numba cannot read made "The computer player could not start" at every
    launch. Now the menu shows a preparation, as on a first launch, and the computer is ready."""
    import os
    import subprocess
    import sys

    from test_engine_prepare import damaged_copy_of_the_cache

    driver.warm_up()  # (this process's cache complete, to be copied)
    damaged_copy_of_the_cache(tmp_path / "cache")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-c", DAMAGED_CACHE_LAUNCH, str(tmp_path / "home")],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[:2] == ["True None", "True"], done.stderr[-2000:]
    assert "the engine cache is damaged or incomplete" in done.stderr
