"""The app: the display, the one main loop, the scene manager, and what every scene shares.

`App(options)` opens the window and loads the settings; `run()` is the 60 fps loop;
`frame()` is one iteration of it (tests drive the app with `pygame.event.post` + `frame()`).
Scenes are registered by name and imported lazily, the first time they are shown.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from gomoku import engine_cache
from gomoku.core.settings import Settings, check_value, load_settings, save_settings
from gomoku.paths import AutosaveLock, UserPaths, shown_path, user_paths
from gomoku.ui.audio import Audio
from gomoku.ui.keyboard import player_key
from gomoku.ui.scene import Scene
from gomoku.ui.theme import Theme
from gomoku.ui.widgets import wrap_words

if TYPE_CHECKING:
    from gomoku.engine.worker import EngineWorker
    from gomoku.ui.lan_link import LanLink

log = logging.getLogger(__name__)

FPS = 60
WINDOW_TITLE = "Gomoku"
DEFAULT_WINDOW_SIZE = (1280, 800)
MIN_WINDOW_SIZE = (640, 400)
"""The smallest window every screen is laid out for (text at least theme.MIN_TEXT_PX, nothing
overlapping): --size refuses less, and the window cannot be dragged smaller."""
NOTICE_SECONDS = 4.5
NOTICE_MAX_SECONDS = 12.0
MAX_NOTICES = 3
SCREENSHOT_FRAMES = 45
GIL_SWITCH_INTERVAL_S = 0.001
PACER_SPIN_S = 0.001
LOADER_JOIN_S = 3.0
STARTUP_PROBE_ENV = "GOMOKU_STARTUP_PROBE"
"""When set, the app prints `first_frame_epoch <time.time()>` after the first menu frame and exits."""
LAN_INTERFACE_ENV = "GOMOKU_LAN_INTERFACE"  # like --lan-interface; the tests set 127.0.0.1

SCENES: dict[str, str] = {
    "menu": "gomoku.ui.scenes.menu",
    "settings": "gomoku.ui.scenes.settings",
    "lobby": "gomoku.ui.scenes.lobby",
    "board": "gomoku.ui.scenes.board",
    "review": "gomoku.ui.scenes.review",
    "records": "gomoku.ui.scenes.records",
}
"""Scene name -> module holding a Scene subclass whose `name` is that scene name."""

HEADLESS_DRIVERS = ("offscreen", "dummy")  # SDL video drivers that show nothing
STOOD_STILL_S = 2.0  # no frame for this long: the process was stopped, not merely busy

# What the lobby's first opening imports (asyncio, zeroconf and msgpack with them).
LAN_MODULES = ("gomoku.net.bridge", "gomoku.ui.lan_link", SCENES["lobby"])


class SceneNotFound(LookupError):
    """Raised by `App.switch` for a scene name that is not registered or cannot be loaded."""


@dataclass(frozen=True)
class AppOptions:
    """What the command line chose; every field has the interactive default."""

    windowed: bool = False
    size: tuple[int, int] | None = None
    screenshot: Path | None = None
    scene: str = "menu"
    scene_data: dict[str, Any] = field(default_factory=dict)
    home: Path | None = None
    screenshot_frames: int = SCREENSHOT_FRAMES
    startup_probe: bool = False
    lan_interface: str | None = None  # --lan-interface: overrides the setting for this run


@dataclass
class Notice:
    """A message banner: its text, whether it is an error, and the seconds it has left."""

    text: str
    error: bool
    seconds_left: float = NOTICE_SECONDS
    picture: pygame.Surface | None = field(default=None, repr=False, compare=False)
    """The banner drawn at full opacity, kept while its size stays (fading only sets its alpha)."""

    def __post_init__(self) -> None:
        # Long messages stay longer: about 20 characters a second of reading, within limits.
        self.seconds_left = min(NOTICE_MAX_SECONDS, max(self.seconds_left, 2.0 + len(self.text) / 20))


def parse_size(text: str) -> tuple[int, int]:
    """'1280x800' -> (1280, 800); ValueError with a plain message otherwise."""
    parts = text.lower().replace("*", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"size must look like 1280x800, not {text!r}")
    width, height = int(parts[0]), int(parts[1])
    if width < MIN_WINDOW_SIZE[0] or height < MIN_WINDOW_SIZE[1]:
        raise ValueError(f"size must be at least {MIN_WINDOW_SIZE[0]}x{MIN_WINDOW_SIZE[1]}, not {text}")
    if width > 16384 or height > 16384:
        raise ValueError(f"size {text} is larger than any screen")
    return width, height


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gomoku",
        description="Gomoku (five in a row): play the computer, a friend on this screen, or on your LAN.",
        epilog="Keys: F11 fullscreen/window, Esc back to the menu. Settings are saved in your "
        "user config folder (or under --home / $GOMOKU_HOME). `gomoku serve --help`: host LAN duels "
        "without a window, the engine playing every guest.",
    )
    parser.add_argument("--windowed", action="store_true", help="open in a resizable window instead of fullscreen")
    parser.add_argument("--size", metavar="WxH", help="window size, e.g. 1280x800 (implies --windowed)")
    parser.add_argument("--screenshot", metavar="FILE", type=Path,
                        help="render a scene to a PNG file without a screen, then exit")
    parser.add_argument("--scene", metavar="NAME", default="menu", choices=sorted(SCENES),
                        help="the scene to show first (with --screenshot): %(choices)s")
    parser.add_argument("--home", metavar="DIR", type=Path,
                        help="keep settings, saves and the autosave in DIR (like $GOMOKU_HOME)")
    parser.add_argument("--lan-interface", metavar="ADDR",
                        help="LAN duel on this interface only (an IP address such as 127.0.0.1); "
                        "default: $GOMOKU_LAN_INTERFACE, else the setting, else all interfaces")
    return parser


def parse_args(argv: list[str] | None = None) -> AppOptions:
    """Turn the command line into AppOptions; exits with a usage message on bad input."""
    parser = build_parser()
    args = parser.parse_args(argv)
    size = None
    if args.size:
        try:
            size = parse_size(args.size)
        except ValueError as error:
            parser.error(str(error))
    if args.lan_interface is not None:
        problem = check_value("lan_interface", args.lan_interface)
        if problem is not None:
            parser.error(f"--lan-interface {problem}")
    scene_data: dict[str, Any] = {}
    if args.screenshot and args.scene == "board":
        scene_data = {"mode": "local", "moves": [list(p) for p in SAMPLE_OPENING]}
    elif args.screenshot and args.scene == "menu":  # a game under way behind the menu
        scene_data = {"attract_moves": [list(p) for p in SAMPLE_OPENING[:11]]}
    elif args.screenshot and args.scene == "review":  # the sample game, stepped back a little
        from gomoku.core.records import GameRecord

        record = GameRecord(black="Player", white="Computer", moves=list(SAMPLE_OPENING))
        scene_data = {"record": record, "ply": len(SAMPLE_OPENING) - 4}
    return AppOptions(
        windowed=args.windowed or size is not None,
        size=size,
        screenshot=args.screenshot,
        scene=args.scene,
        scene_data=scene_data,
        home=args.home,
        startup_probe=bool(os.environ.get(STARTUP_PROBE_ENV)),
        lan_interface=args.lan_interface,
    )


SAMPLE_OPENING: tuple[tuple[int, int], ...] = (
    (7, 7), (8, 6), (8, 8), (6, 6), (9, 9), (10, 10), (7, 8), (6, 9), (7, 6),
    (7, 5), (6, 8), (5, 8), (8, 7), (9, 6), (9, 8),
)
"""A lively 15-stone middle game (x, y) for screenshots of the board scene."""


class FramePacer:
    """Keeps frames on a steady 1/fps schedule: sleeps most of the gap, then waits out the last
    `spin_s` awake, because a sleeping thread on a busy machine often wakes a few ms late.

    A frame that ran late shortens the next wait (the schedule holds); one more than a whole
    period late starts a new schedule instead of rushing to catch up.
    """

    def __init__(self, fps: int = FPS, spin_s: float = PACER_SPIN_S) -> None:
        self.period = 1.0 / fps
        self.spin_s = spin_s
        self._last = time.perf_counter()
        self._next = self._last + self.period

    def wait(self) -> float:
        """Wait for the next frame's start; returns the seconds since the previous one began."""
        target = self._next
        remaining = target - time.perf_counter()
        if remaining > self.spin_s:
            time.sleep(remaining - self.spin_s)
        while time.perf_counter() < target:
            time.sleep(0)  # awake but lets other threads (the engine's Python) take the GIL
        now = time.perf_counter()
        self._next = target + self.period if now - target < self.period else now + self.period
        elapsed, self._last = now - self._last, now
        return elapsed


class App:
    """The one app: display, main loop, scene manager, settings, paths, theme, audio, engine."""

    def __init__(self, options: AppOptions | None = None) -> None:
        self.options = options or AppOptions()
        self._started = time.perf_counter()
        if self.options.screenshot is not None:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # screenshots need no screen
            os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        # The engine thread runs Python between its compiled calls: hand the GIL back to the
        # UI thread sooner than the default 5 ms so frames keep their 16.7 ms rhythm.
        sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
        pygame.display.init()
        if pygame.display.get_driver() in HEADLESS_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
            # No display (over ssh, say): SDL falls back to drawing nowhere, and the game would
            # run unseen until killed. Nobody asked for that: say so instead.
            pygame.display.quit()
            raise pygame.error("no display found")
        pygame.font.init()
        pygame.key.set_repeat(400, 40)

        self.notices: list[Notice] = []
        self._wrapped: dict[tuple[str, int, int], list[str]] = {}
        self.paths: UserPaths = user_paths(self.options.home)
        try:
            self.paths.ensure()
        except OSError as error:
            folder = f" {error.filename}" if error.filename else ""
            self.notify(f"Cannot create the folder{folder} for your files ({error.strerror}); nothing will be saved.",
                        error=True)
        self.settings: Settings
        self.settings, warning = load_settings(self.paths.settings_file)
        if not self.paths.settings_file.parent.is_dir():
            warning = None  # it could only say "Not a directory" of the folder the notice above names
        if warning:
            self.notify(warning, error=True)
        # Only the first copy of the game on these files keeps the autosave (see AutosaveLock);
        # a screenshot run never writes it and claims nothing.
        self._autosave_lock = None if self.options.screenshot else AutosaveLock(self.paths.autosave_lock_file)
        self.tell_if_no_autosave()

        self.running = True
        self._must_present = True
        self._last_frame_at = time.monotonic()  # (a frame this late: the process stood still)
        self.frames_presented = 0  # frames sent to the display (tools/frametime.py and tests read it)
        self.fullscreen = self.settings.fullscreen and not self.options.windowed
        if self.options.screenshot is not None:
            self.fullscreen = False
        self.screen = self._open_display()
        self.theme = Theme(self.screen.get_size())
        self.audio = Audio(self.settings)
        self.clock = pygame.time.Clock()  # pygame's own pacing, kept for tools/frametime.py --pacing tick
        self.pacer = FramePacer(FPS)

        self._closed = False
        self._engine_lock = threading.Lock()
        self._engine: EngineWorker | None = None
        self._engine_error: BaseException | None = None
        self._engine_error_shown = False
        self._preparer: Any = None  # gomoku.engine.prepare.Preparer while children compile
        self._level_ready: Any = None  # gomoku.engine.driver.level_ready once imported
        self._parts_left = -1  # engine parts still to load from a preparation (0: all loaded)
        # Known before the loader has imported numba (a second), so the menu says so at once.
        self._will_prepare = (not os.environ.get("NUMBA_DISABLE_JIT")
                              and not engine_cache.is_prepared())
        self._engine_loader = threading.Thread(target=self._load_engine, name="engine-loader", daemon=True)
        self._engine_loader.start()

        self.lan: LanLink | None = None  # the LAN duel, while one lasts (see lan_link.py)

        self._scenes: dict[str, Scene] = {}
        self.current: Scene | None = None
        self.current_name = ""
        try:
            self.switch(self.options.scene, dict(self.options.scene_data))
        except Exception as error:  # a scene that fails to start: fall back to the menu
            log.exception("the %s scene could not start", self.options.scene)
            self.current_name = self.options.scene
            if not self._recover(error):
                raise

    # --- shared services -----------------------------------------------------------------

    def _load_engine(self) -> None:
        """Import and start the engine worker off the main thread (numba imports are slow).

        On a cold cache the compiling happens in child processes (gomoku.engine.prepare):
        numba's compiler holds the GIL, and here it would stall the frames. This thread loads
        each part once a child has it in the cache; the worker exists from the first part on,
        and `engine_ready(level)` says when a level may search.
        """
        try:
            from gomoku.engine import driver, prepare
            from gomoku.engine.api import Level
            from gomoku.engine.worker import EngineWorker

            # (A damaged or incomplete cache fails to load: it is prepared again, in children.)
            if not os.environ.get("NUMBA_DISABLE_JIT") and not (prepare.is_prepared()
                                                                and prepare.load_cache()):
                self._will_prepare = True
                preparer = prepare.Preparer(first=Level(self.settings.level))
                with self._engine_lock:
                    if self._closed:
                        return
                    preparer.start()
                    self._preparer = preparer
                self._load_prepared_parts(preparer, driver)
            else:
                self._will_prepare = False  # (the quick check can be wrong, e.g. a numba config file)
                driver.warm_up()  # loaded already (or plain Python with the JIT off): at once
            self._level_ready = driver.level_ready
            worker = self._engine or EngineWorker()
            worker.warm_up()  # every part is loaded: this only marks the worker ready
            with self._engine_lock:
                if not self._closed:
                    self._engine = worker
                    return
            worker.close()  # the app ended while the engine was loading
        except Exception as error:  # reported when a scene first asks for the engine
            log.exception("the engine could not be loaded")
            self._engine_error = error
        finally:
            self._import_lan_modules()

    def _import_lan_modules(self) -> None:
        """Import the LAN duel's modules here, off the main thread, once the engine is loaded:
        zeroconf and asyncio take some 60-90 ms, which the lobby's first opening would
        otherwise hold the window for. A failure is left for the lobby to meet and report."""
        if self._closed:
            return
        try:
            for name in LAN_MODULES:
                importlib.import_module(name)
        except Exception:
            log.debug("the LAN modules were not imported ahead", exc_info=True)

    def _load_prepared_parts(self, preparer: Any, driver: Any) -> None:
        """Load each part as the children finish it; the worker is made after the first.

        If a child fails, what is missing compiles here (the old way: slow frames, but it plays).
        """
        from gomoku.engine.worker import EngineWorker

        pending = list(driver.WARM_TASKS)
        while pending and not self._closed:
            state = preparer.state()
            ready = [part for part in pending if part in state.done]
            if not ready and state.finished:
                if state.error is not None:
                    log.warning("preparing the engine failed (%s); compiling here", state.error)
                ready = pending[:1]
            if not ready:
                preparer.wait_change(0.25)
                continue
            driver.warm_task(ready[0])
            pending.remove(ready[0])
            self._parts_left = len(pending)
            if self._level_ready is None:
                self._level_ready = driver.level_ready
                worker = EngineWorker()
                with self._engine_lock:
                    if self._closed:
                        worker.close()
                        return
                    self._engine = worker

    def engine_ready(self, level: Any) -> bool:
        """True once the computer can search at `level` (a gomoku.engine.api.Level) at once."""
        ready = self._level_ready
        return self._engine is not None and ready is not None and bool(ready(level))

    @property
    def running_s(self) -> float:
        """Seconds since the app started (a first launch's preparation starts with it)."""
        return time.perf_counter() - self._started

    @property
    def engine_preparing(self) -> tuple[int, int] | None:
        """(parts compiled, parts in all) while the engine is prepared on a first launch; None
        otherwise (a warm cache, or once every part is loaded)."""
        preparer = self._preparer
        if self._parts_left == 0 or self._engine_error is not None:
            return None
        if preparer is None:  # the loader is still importing numba: nothing compiled yet
            return (0, engine_cache.WARM_PARTS) if self._will_prepare else None
        state = preparer.state()
        return len(state.done), state.total

    @property
    def engine(self) -> EngineWorker:
        """The one engine worker; waits for the background loader only if asked in the first moment.

        Raises RuntimeError if the engine could not be loaded.
        """
        if self._engine is None:
            self._engine_loader.join()
        if self._engine is None:
            raise RuntimeError(f"the engine could not be loaded: {self._engine_error}")
        return self._engine

    @property
    def engine_error(self) -> BaseException | None:
        """Why the engine could not be loaded; None while it loads or once it is there."""
        return self._engine_error

    @property
    def engine_loaded(self) -> bool:
        """True once `engine` can be read without waiting."""
        return self._engine is not None

    @property
    def screen_size(self) -> tuple[int, int]:
        return self.screen.get_size()

    @property
    def lan_interface(self) -> str:
        """The interface LAN play is limited to ("" = all): the flag, else $GOMOKU_LAN_INTERFACE
        (a valid address), else the setting."""
        if self.options.lan_interface is not None:
            return self.options.lan_interface
        from_env = os.environ.get(LAN_INTERFACE_ENV)
        if from_env is not None and check_value("lan_interface", from_env) is None:
            return from_env
        return self.settings.lan_interface

    @property
    def keeps_autosave(self) -> bool:
        """False in a second copy of the game on the same files: it neither offers Continue
        nor writes the autosave, which belongs to the first."""
        return self._autosave_lock is None or self._autosave_lock.held

    def tell_if_no_autosave(self) -> None:
        """In a second copy of the game, say that its games are not autosaved."""
        if not self.keeps_autosave:
            self.notify("Gomoku is already open with these files, so this window keeps no autosave: "
                        "use Save to keep a game.", error=True)

    def open_lan(self) -> LanLink:
        """The LAN duel's link, started on first use (its network thread starts with it)."""
        if self.lan is None or self.lan.phase == "closed":
            from gomoku.net.bridge import NetBridge
            from gomoku.ui.lan_link import LanLink

            self.lan = LanLink(NetBridge(self.lan_interface), self.settings.player_name)
        return self.lan

    def close_lan(self) -> None:
        """End the LAN duel: bye to the other side, unregister, stop the network thread."""
        link, self.lan = self.lan, None
        if link is not None:
            link.close()

    def _pump_lan(self) -> None:
        """The network's news, read once a frame whichever scene shows (see lan_link.py)."""
        link = self.lan
        if link is None:
            return
        link.pump(time.monotonic())
        for text, error in link.notices:
            self.notify(text, error=error)
        link.notices.clear()
        for sound in link.sounds:
            self.audio.play(sound)
        link.sounds.clear()

    def rename_player(self, typed: str) -> str:
        """Take the name the player typed (settings, lobby): saved if valid, else a notice says
        why and the old name stays. Returns the name in force."""
        name = self.set_name("player_name", typed, "Your name")
        if self.lan is not None:
            self.lan.name = name
        return name

    def set_name(self, setting: str, typed: str, whose: str) -> str:
        """Keep a typed name in the name setting `setting` ("player_name", "guest_name") if it is
        allowed, else say why (`whose` begins the notice) and keep the old one. Returns the name
        in force."""
        name, old = typed.strip(), getattr(self.settings, setting)
        problem = check_value(setting, name)
        if problem is not None:
            self.notify(f"{whose} {problem}; it stays {old!r}.", error=True)
            return old
        if name != old:
            setattr(self.settings, setting, name)
            self.save_settings()
        return name

    def save_settings(self) -> bool:
        """Write `self.settings` now and apply the sound settings; False (with a notice) on failure."""
        self.audio.apply(self.settings)
        try:
            save_settings(self.settings, self.paths.settings_file)
        except (OSError, ValueError) as error:
            why = getattr(error, "strerror", None) or error  # "No space left on device", not "[Errno 28] ..."
            self.notify(f"Could not save the settings ({why}).", error=True)
            return False
        return True

    def notify(self, text: str, error: bool = False) -> None:
        """Show `text` in a banner for a few seconds (the newest at the bottom of the stack)."""
        log.info("notice: %s", text)
        if self.notices and self.notices[-1].text == text:
            self.notices[-1] = Notice(text, error)  # the same message again: show it afresh
            return
        self.notices.append(Notice(text, error))
        del self.notices[:-MAX_NOTICES]

    def dismiss(self, text: str) -> None:
        """Take down the banner showing `text` (a question that was just answered), if any."""
        self.notices = [notice for notice in self.notices if notice.text != text]

    # --- display -------------------------------------------------------------------------

    def _open_display(self) -> pygame.Surface:
        pygame.display.set_caption(WINDOW_TITLE)
        if self.fullscreen:
            desktops = pygame.display.get_desktop_sizes()
            size = desktops[0] if desktops else DEFAULT_WINDOW_SIZE
            return pygame.display.set_mode(size, pygame.FULLSCREEN)
        window = self.options.size
        if window is None:  # screenshots are always the same size, whatever the desktop
            window = DEFAULT_WINDOW_SIZE if self.options.screenshot else self._default_window_size()
        return self._open_window(window)

    @staticmethod
    def _open_window(size: tuple[int, int]) -> pygame.Surface:
        """A resizable window of `size`, never smaller than MIN_WINDOW_SIZE: the smallest the
        layouts are made for, so the window refuses to be dragged smaller."""
        size = (max(MIN_WINDOW_SIZE[0], size[0]), max(MIN_WINDOW_SIZE[1], size[1]))
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        with warnings.catch_warnings():  # the display module's own window, the one set_mode made
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().minimum_size = MIN_WINDOW_SIZE
        return screen

    @staticmethod
    def _default_window_size() -> tuple[int, int]:
        """1280x800, or less on a small desktop so the whole window shows."""
        desktops = pygame.display.get_desktop_sizes()
        if not desktops:
            return DEFAULT_WINDOW_SIZE
        width, height = desktops[0]
        return (min(DEFAULT_WINDOW_SIZE[0], round(width * 0.92)),
                min(DEFAULT_WINDOW_SIZE[1], round(height * 0.9)))

    def set_fullscreen(self, fullscreen: bool) -> None:
        """Switch between fullscreen at the desktop's size and a resizable window; re-lays out."""
        if fullscreen == self.fullscreen and pygame.display.get_surface() is not None:
            return
        self.fullscreen = fullscreen
        self.screen = self._open_display()
        self._relayout()

    def set_window_size(self, size: tuple[int, int]) -> None:
        """Resize the window (leaves fullscreen; at least MIN_WINDOW_SIZE); the scenes re-lay out at once."""
        self.fullscreen = False
        self.screen = self._open_window(size)
        self._relayout()

    def _relayout(self) -> None:
        self._must_present = True
        self.screen = pygame.display.get_surface() or self.screen
        self.theme.resize(self.screen.get_size())
        if self.current is not None:
            self.current.forget_screen()
            self.current.resize(self.screen.get_size())

    # --- scenes --------------------------------------------------------------------------

    def _scene(self, name: str) -> Scene:
        scene = self._scenes.get(name)
        if scene is not None:
            return scene
        module_name = SCENES.get(name)
        if module_name is None:
            raise SceneNotFound(f"there is no scene called {name!r}")
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            raise SceneNotFound(f"the {name} scene is not available ({error})") from error
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Scene)
                and value is not Scene
                and value.__module__ == module.__name__
                and value.name == name
            ):
                scene = value(self)
                break
        else:
            raise SceneNotFound(f"{module_name} has no Scene named {name!r}")
        self._scenes[name] = scene
        return scene

    def switch(self, name: str, data: dict[str, Any] | None = None) -> None:
        """Leave the current scene and enter `name` with `data`.

        An unknown or broken scene is reported with `notify` and the current scene stays
        (or the menu is shown if there is none yet).
        """
        try:
            scene = self._scene(name)
        except SceneNotFound as error:
            log.error("%s", error)
            self.notify(str(error)[0].upper() + str(error)[1:] + ".", error=True)
            if self.current is None and name != "menu":
                self.switch("menu")
            return
        if self.current is not None:
            self.current.leave()
        self.current = scene
        self.current_name = name
        scene.forget_screen()
        scene.resize(self.screen.get_size())
        scene.enter(dict(data or {}))

    def quit(self) -> None:
        """End the loop after this frame; the current scene's `leave` runs (the board autosaves)."""
        if not self.running:
            return
        self.running = False
        if self.current is not None:
            self.current.leave()

    # --- the loop ------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        """Route one event: quit, F11 and resizes are the app's; the rest go to the scene."""
        event = player_key(event)
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.set_fullscreen(not self.fullscreen)
            self.settings.fullscreen = self.fullscreen
            self.save_settings()
            return
        if event.type == pygame.VIDEORESIZE:
            self._relayout()
            return
        if event.type in (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED):
            self._must_present = True  # the window's picture must be shown again
        if event.type == pygame.MOUSEBUTTONDOWN and self._notice_at(event.pos):
            return
        if self.current is not None:
            self.current.handle_event(event)

    def frame(self, dt: float = 1 / FPS) -> None:
        """One iteration: route the queued events, update, draw, flip."""
        now = time.monotonic()
        if now - self._last_frame_at > STOOD_STILL_S and self.current is not None:
            self.current.stood_still(self._last_frame_at, now)
        self._last_frame_at = now
        for event in pygame.event.get():
            self.handle_event(event)
            if not self.running:
                return
        assert self.current is not None
        if self._engine_error is not None and not self._engine_error_shown:
            self._engine_error_shown = True
            self.notify(f"The computer player could not start ({self._engine_error}); "
                        "two-player games still work.", error=True)
        self._pump_lan()
        self.current.update(dt)
        for notice in self.notices:
            notice.seconds_left -= dt
        self.notices = [n for n in self.notices if n.seconds_left > 0]
        self.current.draw(self.screen)
        self._draw_notices(self.screen)
        # Presenting an unchanged frame costs a round trip to the display server (5-7 ms on X11).
        if self.notices or self._must_present or not self.current.screen_unchanged:
            pygame.display.flip()
            self.frames_presented += 1
        self._must_present = False
        if self.options.startup_probe and self.current_name == "menu":
            print(f"first_frame_epoch {time.time():.6f}", flush=True)
            print(f"first_frame_in_process_s {time.perf_counter() - self._started:.3f}", flush=True)
            self.quit()

    def run(self) -> int:
        """The main loop at 60 fps until quit (or the screenshot is written); returns an exit code."""
        try:
            if self.options.screenshot is not None:
                return self._take_screenshot(self.options.screenshot)
            while self.running:
                dt = self.pacer.wait()
                try:
                    self.frame(min(dt, 0.1))
                except Exception as error:  # a scene bug must not end the game with a traceback
                    log.exception("error in scene %s", self.current_name)
                    if not self._recover(error):
                        print(f"gomoku: the game stopped after an internal error: {error}", file=sys.stderr)
                        return 1
            return 0
        finally:
            self.close()

    def _recover(self, error: Exception) -> bool:
        """Show the error and go back to the menu; False if the menu itself failed."""
        if self.current_name == "menu":
            return False  # nothing to fall back to
        self.notify(f"Something went wrong ({error}); back to the menu.", error=True)
        self._scenes.pop(self.current_name, None)  # a fresh instance next time
        broken, self.current = self.current, None
        if broken is not None:
            try:
                broken.leave()  # stop its searches and keep its game for Continue, if it still can
            except Exception:
                log.exception("the %s scene could not leave cleanly", self.current_name)
        self.switch("menu")
        return True

    def _take_screenshot(self, path: Path) -> int:
        for _ in range(max(1, self.options.screenshot_frames)):
            if not self.running:
                break
            self.frame(1 / FPS)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Our own file object: given a name that is not UTF-8, pygame writes another name.
            with open(path, "wb") as file:
                pygame.image.save(self.screen, file, f"screenshot{path.suffix}")
        except (OSError, pygame.error) as error:
            print(f"gomoku: could not write the screenshot {shown_path(path)}: {error}")
            return 1
        print(f"gomoku: wrote {shown_path(path)} ({self.screen.get_width()}x{self.screen.get_height()}, "
              f"{self.current_name})")
        return 0

    def close(self) -> None:
        """Leave the scene, stop the engine and sound, close the window. Safe to call twice."""
        if self.running:
            self.quit()
        if self._autosave_lock is not None:
            self._autosave_lock.release()  # (the board's leave has written the autosave)
        self.close_lan()
        with self._engine_lock:
            self._closed = True
            engine, self._engine = self._engine, None
            preparer = self._preparer
        if preparer is not None:
            preparer.close()  # a half-filled cache is finished at the next launch
        self._engine_loader.join(LOADER_JOIN_S)  # a worker it creates from now on closes itself
        if engine is not None:
            engine.close()
        self.audio.close()
        pygame.display.quit()

    # --- notices -------------------------------------------------------------------------

    def _notice_rects(self) -> list[tuple[Notice, pygame.Rect]]:
        """Where each notice shows. A scene with a `notice_area` (the board: its board) gets
        toasts stacked up from that area's bottom-right corner, the newest lowest, clear of
        its panel; the others get banners stacked down from the top centre, where no button is."""
        theme = self.theme
        area: pygame.Rect | None = getattr(self.current, "notice_area", None)
        bounds = area or self.screen.get_rect()
        width = max(theme.px(200), min(bounds.width - 2 * theme.pad, theme.px(520 if area else 900)))
        height = theme.px(46)
        font = self.theme.font(theme.small_px + theme.px(2))
        rects = []
        edge = bounds.bottom - theme.pad if area else theme.pad
        for notice in reversed(self.notices) if area else self.notices:
            lines = self._wrap(notice.text, width - 4 * theme.pad)
            # As wide as its text (a short message is a small box that hides little).
            text_w = max(font.size(line)[0] for line in lines) + 4 * theme.pad
            box = pygame.Rect(0, 0, min(width, max(text_w, theme.px(240 if area else 360))),
                              height + (len(lines) - 1) * theme.small_px)
            if area:
                box.bottomright = (area.right - theme.pad, edge)
                edge = box.top - theme.pad // 2
            else:
                box.midtop = (self.screen.get_width() // 2, edge)
                edge = box.bottom + theme.pad // 2
            rects.append((notice, box))
        if area:
            rects.reverse()
        return rects

    def _notice_at(self, pos: tuple[int, int]) -> bool:
        """Dismiss the banner under `pos` (a click on it); True if there was one."""
        for notice, rect in self._notice_rects():
            if rect.collidepoint(pos):
                self.notices.remove(notice)
                return True
        return False

    def _wrap(self, text: str, width: int) -> list[str]:
        """`text` broken into at most four lines of `width` pixels (remembered: asked every frame)."""
        key = (text, width, self.theme.small_px)
        lines = self._wrapped.get(key)
        if lines is None:
            if len(self._wrapped) > 64:
                self._wrapped.clear()
            lines = self._wrapped[key] = self._wrap_now(text, width)
        return lines

    def _wrap_now(self, text: str, width: int) -> list[str]:
        return wrap_words(text, self.theme.font(self.theme.small_px + self.theme.px(2)), width)[:4]

    def _draw_notices(self, surface: pygame.Surface) -> None:
        for notice, rect in self._notice_rects():
            if notice.picture is None or notice.picture.get_size() != rect.size:
                notice.picture = self._render_notice(notice, rect.size)
            alpha = max(0.0, min(1.0, notice.seconds_left / 0.4))  # fade out in the last 0.4 s
            notice.picture.set_alpha(round(255 * alpha))
            surface.blit(notice.picture, rect)

    def _render_notice(self, notice: Notice, size: tuple[int, int]) -> pygame.Surface:
        """The banner for `notice` at full opacity: a rounded box with up to four centred lines."""
        colors = self.theme.colors
        px = self.theme.small_px + self.theme.px(2)
        banner = pygame.Surface(size, pygame.SRCALPHA)
        fill = colors.error if notice.error else colors.info
        pygame.draw.rect(banner, (*fill, 235), banner.get_rect(), border_radius=self.theme.radius)
        lines = self._wrap(notice.text, size[0] - 4 * self.theme.pad)
        line_h = self.theme.small_px
        top = (size[1] - line_h * len(lines)) // 2
        for i, line in enumerate(lines):
            text = self.theme.render(line, px, colors.text)
            x = (size[0] - text.get_width()) // 2
            banner.blit(text, (x, top + i * line_h + (line_h - text.get_height()) // 2))
        return banner
