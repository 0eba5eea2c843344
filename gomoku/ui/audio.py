"""Sound effects and background music, with volumes and mute from the settings.

Sounds load lazily from the bundled sounds (assets_dir() / "sounds") on first use. Without a
sound device (the mixer fails to start) or without the files, the game goes on silently after
one log line.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import pygame

from gomoku.paths import assets_dir

log = logging.getLogger(__name__)

SOUNDS_DIR = assets_dir() / "sounds"
EFFECTS = ("place", "win", "lose", "invalid", "tick")
"""The effect names scenes may `play`; each is `<name>.wav` in SOUNDS_DIR."""
MUSIC_FILE = "music.wav"
MUSIC_FADE_OUT_MS = 400  # when the music stops (leaving the menu, mute, volume 0)
MAX_CAUGHT_BYTES = 64 * 1024  # what the mixer's start may print; ALSA's lines are some 700 bytes


@contextlib.contextmanager
def alsa_lines_dropped() -> Iterator[None]:
    """Keep libasound's own error lines off the terminal while the mixer starts.

    Without a sound card SDL's ALSA driver makes libasound print eight lines ("ALSA lib
    confmisc.c:855:(parse_card) cannot find card '0'" ...) straight to file descriptor 2,
    before our one warning. Its error handler cannot be replaced from Python (SDL calls it on
    its own threads, which would wait for the GIL), so fd 2 goes to a temporary file for the
    while, and every other line written meanwhile is passed on afterwards.
    """
    if not sys.platform.startswith("linux"):
        yield
        return
    try:
        sys.stderr.flush()
        saved = os.dup(2)
        caught = tempfile.TemporaryFile()
    except (OSError, ValueError, AttributeError):
        yield
        return
    with caught:
        os.dup2(caught.fileno(), 2)
        try:
            yield
        finally:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            lines = caught.read(MAX_CAUGHT_BYTES).splitlines(keepends=True)
            kept = b"".join(line for line in lines if not line.startswith(b"ALSA lib "))
            if kept:
                os.write(2, kept)


class SoundSettings(Protocol):
    """The part of Settings audio reads."""

    sfx_volume: float
    music_volume: float
    mute: bool


class Audio:
    """Plays effects and music; every method is harmless when there is no sound device."""

    def __init__(self, settings: SoundSettings, sounds_dir: Path = SOUNDS_DIR) -> None:
        self.sounds_dir = sounds_dir
        self.sfx_volume = 0.0
        self.music_volume = 0.0
        self.muted = False
        self._sounds: dict[str, pygame.mixer.Sound | None] = {}
        self._music_wanted = False
        self._music_playing = False
        self.available = self._start_mixer()
        self.apply(settings)

    def _start_mixer(self) -> bool:
        try:
            if not pygame.mixer.get_init():
                with alsa_lines_dropped():
                    pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=512)
            return True
        except pygame.error as error:
            log.warning("no sound device (%s): the game runs silently", error)
            return False

    def apply(self, settings: SoundSettings) -> None:
        """Take the volumes and mute from `settings` now (also for music already playing)."""
        self.sfx_volume = min(1.0, max(0.0, float(settings.sfx_volume)))
        self.music_volume = min(1.0, max(0.0, float(settings.music_volume)))
        self.muted = bool(settings.mute)
        for sound in self._sounds.values():
            if sound is not None:
                sound.set_volume(self.sfx_volume)
        if self.available and self._music_playing:
            pygame.mixer.music.set_volume(0.0 if self.muted else self.music_volume)
        if self._music_wanted:
            self._sync_music()

    def _load(self, name: str) -> pygame.mixer.Sound | None:
        if name in self._sounds:
            return self._sounds[name]
        sound = None
        path = self.sounds_dir / f"{name}.wav"
        try:
            sound = pygame.mixer.Sound(str(path))
            sound.set_volume(self.sfx_volume)
        except (pygame.error, OSError) as error:
            log.warning("sound %s not available (%s)", name, error)
        self._sounds[name] = sound
        return sound

    def play(self, name: str) -> bool:
        """Play effect `name` (see EFFECTS); True if a sound actually started.

        Raises ValueError for a name that is not an effect (a programming error).
        """
        if name not in EFFECTS:
            raise ValueError(f"unknown sound {name!r}; expected one of {', '.join(EFFECTS)}")
        if not self.available or self.muted or self.sfx_volume <= 0:
            return False
        sound = self._load(name)
        if sound is None:
            return False
        return sound.play() is not None

    def start_music(self) -> None:
        """Loop the background music (from the start if it was not playing)."""
        self._music_wanted = True
        self._sync_music()

    def stop_music(self) -> None:
        self._music_wanted = False
        self._sync_music()

    @property
    def music_playing(self) -> bool:
        return self._music_playing

    def _sync_music(self) -> None:
        """Start or stop the music to match what is wanted and whether it can be heard."""
        audible = self._music_wanted and not self.muted and self.music_volume > 0
        if not self.available:
            return
        if audible and not self._music_playing:
            path = self.sounds_dir / MUSIC_FILE
            try:
                # SDL_mixer's load waits for a fade-out still running (Mute clicked twice froze
                # the window for up to half a second): that fade is cut short instead.
                pygame.mixer.music.stop()
                pygame.mixer.music.load(str(path))
                pygame.mixer.music.set_volume(self.music_volume)
                pygame.mixer.music.play(loops=-1, fade_ms=1500)
                self._music_playing = True
            except (pygame.error, OSError) as error:
                log.warning("music not available (%s)", error)
                self._music_wanted = False
        elif not audible and self._music_playing:
            pygame.mixer.music.fadeout(MUSIC_FADE_OUT_MS)
            self._music_playing = False

    def close(self) -> None:
        """Stop everything and release the device."""
        if self.available and pygame.mixer.get_init():
            pygame.mixer.music.stop()
            pygame.mixer.quit()
        self._sounds.clear()
        self._music_playing = False
        self.available = False
