"""Audio: effects and music follow the settings; no sound device means silence, not a crash."""

from __future__ import annotations

import importlib.util
import logging
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest

from gomoku.ui.audio import EFFECTS, MUSIC_FILE, SOUNDS_DIR, Audio

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Volumes:
    sfx_volume: float = 0.8
    music_volume: float = 0.5
    mute: bool = False


@pytest.fixture(autouse=True)
def fresh_mixer():
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


def test_every_effect_and_the_music_ship_with_the_game() -> None:
    for name in EFFECTS:
        assert (SOUNDS_DIR / f"{name}.wav").is_file(), name
    assert (SOUNDS_DIR / MUSIC_FILE).is_file()
    total = sum(p.stat().st_size for p in SOUNDS_DIR.glob("*.wav"))
    assert total < 1_200_000  # small enough to keep in the repository


def test_effects_play_on_a_sound_device() -> None:
    audio = Audio(Volumes())
    assert audio.available
    for name in EFFECTS:
        assert audio.play(name) is True, name


def test_mute_and_zero_volume_are_silent_and_apply_at_once() -> None:
    settings = Volumes()
    audio = Audio(settings)
    assert audio.play("place")
    settings.mute = True
    audio.apply(settings)
    assert audio.play("place") is False
    settings.mute, settings.sfx_volume = False, 0.0
    audio.apply(settings)
    assert audio.play("place") is False


def test_a_volume_change_reaches_sounds_already_loaded() -> None:
    settings = Volumes(sfx_volume=1.0)
    audio = Audio(settings)
    audio.play("tick")
    settings.sfx_volume = 0.25
    audio.apply(settings)
    loaded = audio._sounds["tick"]
    assert loaded is not None
    assert loaded.get_volume() == pytest.approx(0.25, abs=0.01)


def test_music_starts_stops_and_follows_mute() -> None:
    settings = Volumes()
    audio = Audio(settings)
    audio.start_music()
    assert audio.music_playing
    assert pygame.mixer.music.get_volume() == pytest.approx(0.5, abs=0.01)
    settings.mute = True
    audio.apply(settings)
    assert not audio.music_playing
    settings.mute = False
    audio.apply(settings)
    assert audio.music_playing  # un-muting brings the wanted music back
    audio.stop_music()
    assert not audio.music_playing


@pytest.mark.parametrize("again", ["mute, unmute", "stop, start"])
def test_music_wanted_again_during_its_fade_out_starts_without_freezing_the_window(again) -> None:
    # SDL_mixer's load waits in steps of 100 ms while a fade-out runs: Mute clicked twice, or
    # the menu left and entered again, froze the frame for 0.1 to 0.6 s each time.
    settings = Volumes()
    audio = Audio(settings)
    audio.start_music()
    time.sleep(0.2)
    started = time.monotonic()
    for _ in range(8):
        if again == "mute, unmute":
            settings.mute = True
            audio.apply(settings)
            settings.mute = False
            audio.apply(settings)
        else:
            audio.stop_music()
            audio.start_music()
        assert audio.music_playing and pygame.mixer.music.get_busy()
    assert time.monotonic() - started < 0.4  # eight waits take 0.8 s at least


def test_an_unknown_effect_name_is_a_programming_error() -> None:
    audio = Audio(Volumes())
    with pytest.raises(ValueError, match="unknown sound"):
        audio.play("fanfare")


def test_missing_sound_files_are_silent(tmp_path: Path) -> None:
    audio = Audio(Volumes(), sounds_dir=tmp_path)
    assert audio.play("place") is False
    audio.start_music()
    assert not audio.music_playing


def test_without_a_sound_device_everything_is_silent_and_harmless(monkeypatch, caplog) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-sound-device")
    with caplog.at_level(logging.WARNING, logger="gomoku.ui.audio"):
        audio = Audio(Volumes())
    assert audio.available is False
    assert len([r for r in caplog.records if "no sound device" in r.message]) == 1
    assert audio.play("win") is False
    audio.start_music()
    assert audio.music_playing is False
    audio.apply(Volumes(mute=True))
    audio.stop_music()
    audio.close()


def test_the_app_runs_without_a_sound_device(monkeypatch, tmp_path: Path) -> None:
    from gomoku.ui.app import App, AppOptions

    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-sound-device")
    app = App(AppOptions(windowed=True, home=tmp_path))
    try:
        app.frame()
        assert app.audio.available is False
        assert app.current_name == "menu"
        assert app.audio.play("place") is False
        app.switch("settings", {})
        app.frame()
        # Settings say why the volume sliders change nothing.
        assert app.current.note.text.startswith("No sound device was found, so the game is silent.")
    finally:
        app.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ALSA is Linux's")
def test_while_the_mixer_starts_only_alsas_own_lines_are_kept_off_the_terminal(capfd) -> None:
    import os

    from gomoku.ui.audio import alsa_lines_dropped

    with alsa_lines_dropped():
        os.write(2, b"ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n")
        os.write(2, b"something else that went wrong\n")
        print("a warning of ours", file=sys.stderr)
    os.write(2, b"ALSA lib after the mixer started\n")
    lines = capfd.readouterr().err.splitlines()
    assert sorted(lines) == ["ALSA lib after the mixer started", "a warning of ours", "something else that went wrong"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ALSA is Linux's")
def test_a_machine_without_a_sound_card_prints_one_warning_not_alsas_errors(tmp_path: Path) -> None:
    # A player's terminal, with no sound card (as on this test machine), showed eight "ALSA lib
    # ... cannot find card '0'" lines before the game's own one-line warning.
    import os
    import subprocess

    env = {**os.environ, "SDL_AUDIODRIVER": "alsa", "SDL_VIDEODRIVER": "dummy", "GOMOKU_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "gomoku", "--screenshot", str(tmp_path / "menu.png")],
                          env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "ALSA lib" not in done.stderr
    assert done.stderr.count("\n") <= 2, done.stderr  # the screenshot line, and the warning if no card


def test_the_shipped_sounds_are_what_the_generator_makes(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "tools" / "make_sounds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_sounds"] = module
    spec.loader.exec_module(module)
    module.make_all(tmp_path)
    for name in (*EFFECTS, "music"):
        generated = (tmp_path / f"{name}.wav").read_bytes()
        assert generated == (SOUNDS_DIR / f"{name}.wav").read_bytes(), f"{name}.wav is stale: rerun tools/make_sounds.py"
