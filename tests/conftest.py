"""Shared test set-up: no real screen or sound card, and a private home for user files."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Every LAN test (and any game a test starts, subprocesses too) stays on loopback.
os.environ["GOMOKU_LAN_INTERFACE"] = "127.0.0.1"

import pytest  # noqa: E402  (the SDL variables above must be set before pygame loads)


@pytest.fixture
def app(tmp_path):
    """A real App in a 1280x800 window on a private home in tmp_path, closed after the test."""
    from gomoku.ui.app import App, AppOptions

    application = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home"))
    yield application
    application.close()
