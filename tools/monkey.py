"""Random input for the real app, as an impatient player gives it, until something breaks.

Drives the App with SDL's dummy drivers on a fresh home: clicks on the scene's own buttons,
fields and lists (found by walking the scene), clicks and drags anywhere, keys, typed text
(long, foreign, control characters, addresses), the wheel, window resizes and real waits that
let the computer and the clocks move. Every input is followed by one frame. (A widget a scene
keeps but does not show, such as a duel card's button while there is no card, is still found:
a click on it is a click on whatever lies there.) It reports:

    error       an exception out of a frame (the app would say "Something went wrong" and go
                back to the menu; here the run goes on the same way), or an ERROR logged
                anywhere (the engine thread, the network thread), with the step to replay
    layout      what the layout tests check (inside the window, nothing over another, a
                button's words whole), in whatever state the input led to; each problem once
    slow frame  p99 and the slowest frame by scene, with its step and the input before it
                (a frozen window shows here)
    visits      the events sent in each scene, so a run that never left the menu shows

A quit (the menu's Quit, say) starts the app again on the same home, so Continue and the
autosave are tried too. `--duel` hosts a LAN duel against a second monkey in its own process
(joined by address, killed with SIGKILL now and then and started again on its home, where it
takes its seat back through Continue or the lobby); half the inputs in a duel then keep it
going (Ready, Rematch, a move on our turn), and the report counts its stones and results. The
network stays on this machine: LAN play is bound to 127.0.0.1 and this process refuses (as an
unreachable host) any connection or name lookup that would leave it. Exit status 1 on any
error or layout problem (the guest's included).

    .venv/bin/python tools/monkey.py --events 5000 --seed 1 [--size 1280x800] [--verbose]
    .venv/bin/python tools/monkey.py --duel --events 8000 --seed 21 [--kill 0.002]

`--notices` lists every notice the app showed (digits as N) with how often: the wording a
player meets in odd corners, to read (two LAN fixes of 2026-12-07 came from such a list).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import ipaddress
import logging
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402  (the SDL drivers must be chosen first)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gomoku.net.events import DEFAULT_PORT  # noqa: E402
from gomoku.ui.app import App, AppOptions  # noqa: E402
from gomoku.ui.widgets import Widget  # noqa: E402
from tests.layout_checks import layout_problems  # noqa: E402  (what the layout tests check)

LOOPBACK = "127.0.0.1"
KEYS = [pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_SPACE,
        pygame.K_TAB, pygame.K_BACKSPACE, pygame.K_DELETE, pygame.K_HOME, pygame.K_END,
        pygame.K_PAGEUP, pygame.K_PAGEDOWN, pygame.K_u, pygame.K_r, pygame.K_h, pygame.K_n,
        pygame.K_KP_ENTER, pygame.K_ESCAPE]
RARE_KEYS = [pygame.K_F11, pygame.K_F4, pygame.K_LSHIFT, pygame.K_LCTRL]
TEXTS = ["Alice", "127.0.0.1", "127.0.0.1:15515", "127.0.0.1:0", "127.0.0.1:99999", "[::1]:15515",
         "::1", "localhost", "999.1.1.1", "h8", "a1", "x" * 300, "名人戦", "Ünïcødé", "עברית",
         "\u200b\u200d", "e\u0301\u0301\u0301", "\x00\x1b[2J", "🎉", "   ", "CON", "../../etc/x",
         "0" * 40, "-1", "1e308", "%s%n{}", "<b>", "\ud800"]
SIZES = [(640, 400), (800, 600), (1024, 1024), (1280, 800), (1920, 1080), (2560, 600), (700, 1200)]


class Refused(OSError):
    """A connection or lookup this run will not make: it would leave the machine."""


def _is_loopback(host: object) -> bool:
    if host in ("localhost", "", None):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


def keep_network_local() -> None:
    """Make every lookup and connection that would leave this machine fail as an unreachable
    host does, so typed addresses exercise the error path without sending a packet."""
    real_getaddrinfo, real_connect, real_connect_ex = socket.getaddrinfo, socket.socket.connect, socket.socket.connect_ex

    def getaddrinfo(host, *args, **kwargs):
        if not _is_loopback(host):
            raise socket.gaierror(socket.EAI_NONAME, f"monkey: lookups stay on this machine ({host!r})")
        return real_getaddrinfo(host, *args, **kwargs)

    def check(address) -> None:
        if isinstance(address, tuple) and not _is_loopback(address[0]):
            raise Refused(f"monkey: connections stay on this machine ({address[0]!r})")

    def connect(self, address):
        check(address)
        return real_connect(self, address)

    def connect_ex(self, address):
        check(address)
        return real_connect_ex(self, address)

    socket.getaddrinfo = getaddrinfo
    socket.socket.connect = connect
    socket.socket.connect_ex = connect_ex


def count_notices() -> collections.Counter[tuple[bool, str]]:
    """Count every notice the app shows from now on, by (is an error, text with digits as N)."""
    shown: collections.Counter[tuple[bool, str]] = collections.Counter()
    real_notify = App.notify

    def notify(app: App, text: str, error: bool = False) -> None:
        shown[(error, re.sub(r"\d+", "N", text))] += 1
        real_notify(app, text, error)

    App.notify = notify  # type: ignore[method-assign]
    return shown


class ErrorLog(logging.Handler):
    """Every ERROR logged anywhere in the process, with the step it came at."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.step = 0
        self.scene = ""
        self.seen: list[tuple[int, str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.add(self.step, self.scene, text)

    def add(self, step: int, scene: str, text: str) -> None:
        self.seen.append((step, scene, text))
        print(f"--- error at step {step} in {scene}:\n{text}", flush=True)


def widgets_of(scene: object) -> list[Widget]:
    """The active widgets a scene holds, in its attributes, their lists and dicts, and the
    gomoku.ui objects it keeps (a side panel, a dialog), a few levels down."""
    found: list[Widget] = []
    seen: set[int] = set()

    def walk(value: object, depth: int) -> None:
        if id(value) in seen or depth > 4:
            return
        seen.add(id(value))
        if isinstance(value, Widget):
            if value.active and value.rect.width > 0 and value.rect.height > 0:
                found.append(value)
            return
        if isinstance(value, (list, tuple)):
            for item in value:
                walk(item, depth + 1)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item, depth + 1)
        elif type(value).__module__.startswith("gomoku.ui") and hasattr(value, "__dict__"):
            for name, item in vars(value).items():
                if name not in ("app", "theme"):
                    walk(item, depth + 1)

    walk(scene, 0)
    return found


class Monkey:
    def __init__(self, seed: int, size: tuple[int, int], home: Path, verbose: bool,
                 join: tuple[str, int] | None = None, host: bool = False) -> None:
        self.rng = random.Random(seed)
        self.join = join  # a guest of this host:port, rejoined whenever out of a duel
        self.host = host  # hosting a duel, hosted again whenever out of one
        self._kept_at = -10.0
        self.size = size
        self.home = home
        self.verbose = verbose
        self.errors = ErrorLog()
        logging.getLogger().addHandler(self.errors)
        threading.excepthook = self._thread_error
        self.visits: collections.Counter[str] = collections.Counter()
        self.frames: dict[str, list[float]] = collections.defaultdict(list)
        self.slowest: dict[str, tuple[float, int, str]] = {}  # scene -> seconds, step, the input before it
        self.launches = 0
        self.steps = 0
        self.duel_stones = 0  # stones played in LAN duels (either side's), as this side saw them
        self.duel_games = 0  # duels that reached a result
        self._link_seen: tuple[int, int, str] = (0, 0, "")
        self.layout: dict[tuple[str, str], tuple[int, str]] = {}  # (scene, problem) -> first step, size
        self.app = self._launch()

    def _thread_error(self, args: threading.ExceptHookArgs) -> None:
        text = "".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback))
        self.errors.add(self.errors.step, self.errors.scene, f"thread {args.thread}: {text}")

    def _launch(self) -> App:
        self.launches += 1
        self.action = "a launch"  # the first frames of an app started again are its own
        return App(AppOptions(windowed=True, size=self.size, home=self.home, lan_interface=LOOPBACK))

    def frame(self, step: int) -> None:
        scene = self.app.current_name
        start = time.perf_counter()
        try:
            self.app.frame()
        except Exception as error:  # what App.run does: report, back to the menu, go on
            self.errors.add(step, scene, "frame raised:\n" + traceback.format_exc())
            if not self.app._recover(error):
                self.app.close()
                self.app = self._launch()
            return
        took = time.perf_counter() - start
        self.frames[scene].append(took)
        if took > self.slowest.get(scene, (0.0, 0, ""))[0]:
            self.slowest[scene] = (took, step, self.action)
        link = self.app.lan
        if link is not None:
            before_link, before_placed, before_state = self._link_seen
            if before_link == id(link):
                self.duel_stones += max(0, link.placed - before_placed)
                self.duel_games += before_state != "over" and link.state == "over"
            self._link_seen = (id(link), link.placed, link.state)
        if not self.app.running:  # quit: start again on the same home, as a player would
            self.app.close()
            self.app = self._launch()

    def post(self, *events: pygame.event.Event) -> None:
        for event in events:
            pygame.event.post(event)

    def click(self, pos: tuple[int, int], button: int = 1, double: bool = False) -> None:
        for _ in range(2 if double else 1):
            self.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                      pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
                      pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))

    def key(self, key: int, mod: int = 0, text: str = "") -> None:
        self.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=text, scancode=0),
                  pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=text, scancode=0))

    def point_near_stones(self) -> tuple[int, int] | None:
        """An empty point at most two lines from a stone (the centre on an empty board) of the
        game the scene shows, so that games go on as games do."""
        game, view = getattr(self.app.current, "game", None), getattr(self.app.current, "view", None)
        if game is None or view is None:
            return None
        board = game.board
        stones = [(x, y) for x in range(board.size) for y in range(board.size) if board[(x, y)]]
        if not stones:
            return (board.size // 2, board.size // 2)
        for _ in range(20):
            x, y = self.rng.choice(stones)
            point = (x + self.rng.randint(-2, 2), y + self.rng.randint(-2, 2))
            if board.on_board(*point) and not board[point]:
                return point
        return None

    def play_duel(self) -> str | None:
        """In a duel, half the time do what keeps it going: Ready (or Rematch) when waiting, a
        move on our turn through a click; None otherwise (a random input follows)."""
        link = self.app.lan
        if (self.app.current_name != "board" or link is None or link.phase != "connected"
                or self.rng.random() < 0.5):
            return None
        if link.state in ("waiting", "over"):
            buttons = [w for w in widgets_of(self.app.current)
                       if getattr(w, "text", "") in ("Ready", "Rematch")]
            if buttons:
                self.click(buttons[0].rect.center)
                return f"click {buttons[0].text}"
        elif link.my_turn:
            point = self.point_near_stones()
            if point is not None:
                self.click(self.app.current.view.geometry.center(point))
                return f"duel move {point}"
        return None

    def random_point(self) -> tuple[int, int]:
        w, h = self.app.screen.get_size()
        return self.rng.randrange(w), self.rng.randrange(h)

    def act(self) -> str:
        """One random input; returns its name."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.40:
            widgets = widgets_of(self.app.current)
            if widgets:
                target = rng.choice(widgets)
                leaving = ("Quit", "Menu", "Back", "Cancel") if self.join or self.host else ("Quit",)
                if getattr(target, "text", "") in leaving and rng.random() < 0.8:
                    target = rng.choice(widgets)  # leaving starts over: not too often
                self.click(target.rect.center, double=rng.random() < 0.2)
                return f"click {type(target).__name__} {getattr(target, 'text', '')!r:.30}"
        if self.join or self.host:
            link = self.app.lan
            if link is not None and link.phase in ("hosting", "joining") and rng.random() < 0.8:
                return "wait"  # let the guest come (leaving the lobby would stop it)
            played = self.play_duel()
            if played:
                return played
        board = getattr(self.app.current, "board_area", None)
        if roll < 0.55 and isinstance(board, pygame.Rect) and board.width > 0:
            point = self.point_near_stones() if rng.random() < 0.7 else None
            if point is not None:
                self.click(self.app.current.view.geometry.center(point))
                return f"click point {point}"
            self.click((rng.randrange(board.left, board.right), rng.randrange(board.top, board.bottom)))
            return "click board"
        if roll < 0.60:
            self.click(self.random_point(), button=rng.choice([1, 1, 1, 3]), double=rng.random() < 0.1)
            return "click anywhere"
        if roll < 0.78:
            key = rng.choice(KEYS if rng.random() < 0.97 else RARE_KEYS)
            if key == pygame.K_ESCAPE and rng.random() < 0.5:
                key = pygame.K_TAB  # Esc leaves scenes: not too often, or nothing deep is reached
            mod = pygame.KMOD_LCTRL if rng.random() < 0.05 else 0
            self.key(key, mod)
            return f"key {pygame.key.name(key)}"
        if roll < 0.85:
            text = rng.choice(TEXTS)
            self.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
            if rng.random() < 0.3:
                self.key(pygame.K_RETURN, text="\r")
            return f"type {text!r:.30}"
        if roll < 0.89:
            self.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice([-5, -1, 1, 5]), flipped=False,
                                         precise_x=0.0, precise_y=0.0, touch=False, which=0))
            return "wheel"
        if roll < 0.93:
            start, end = self.random_point(), self.random_point()
            self.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
                      pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(end[0] - start[0], end[1] - start[1]),
                                         buttons=(1, 0, 0)),
                      pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
            return "drag"
        if roll < 0.95:
            size = rng.choice(SIZES)
            self.app.set_window_size(size)
            return f"resize {size[0]}x{size[1]}"
        if roll < 0.96:
            self.post(pygame.event.Event(rng.choice([pygame.WINDOWFOCUSLOST, pygame.WINDOWFOCUSGAINED,
                                                     pygame.WINDOWEXPOSED, pygame.WINDOWMINIMIZED])))
            return "window event"
        return "wait"

    def keep_duel(self, step: int) -> None:
        """Out of a duel (left, refused, never joined)? Host or join again from the lobby, then
        give the connection a moment without input."""
        link = self.app.lan
        if not (self.join or self.host) or time.perf_counter() - self._kept_at < 4.0:
            return
        if link is not None and link.phase not in ("idle", "closed"):
            return
        self._kept_at = time.perf_counter()
        resume = [w for w in widgets_of(self.app.current) if getattr(w, "text", "") == "Continue"]
        if self.join and self.app.current_name == "menu" and resume and self.rng.random() < 0.5:
            self.click(resume[0].rect.center)  # after a kill: take the seat back as a player would
            action = "continuing"
        else:
            if self.app.current_name != "lobby":
                self.app.switch("lobby", {})
            action = "hosting" if self.host else "joining"
            lobby = self.app.current  # (the board instead, if a duel was still on)
            if self.app.current_name == "lobby" and self.host:
                lobby.start_hosting()
            elif self.app.current_name == "lobby":
                lobby.address_input.text = f"{self.join[0]}:{self.join[1]}"
                lobby.join_typed()
        if self.verbose:
            print(f"{step:6d} {action} again", flush=True)
        until = time.perf_counter() + 1.5
        while time.perf_counter() < until:
            self.frame(step)
            time.sleep(1 / 60)

    def run(self, events: int, guest: Guest | None = None, kill: float = 0.0) -> None:
        for step in range(events):
            self.steps = step + 1
            self.keep_duel(step)
            if guest is not None and self.rng.random() < kill:
                guest.kill_and_restart()
            self.errors.step, self.errors.scene = step, self.app.current_name
            scene = self.app.current_name
            name = self.act()
            self.action = name
            self.visits[scene] += 1
            if self.verbose:
                link = self.app.lan
                duel = f"  [{link.phase} {link.state}]" if link is not None else ""
                print(f"{step:6d} {scene:8s} {name}{duel}", flush=True)
            if name == "wait":  # real time, so the computer moves and clocks run
                until = time.perf_counter() + self.rng.uniform(0.2, 2.5)
                while time.perf_counter() < until:
                    self.frame(step)
                    time.sleep(1 / 60)
            else:
                self.frame(step)
                self.check_layout(step)
        self.app.close()

    def check_layout(self, step: int) -> None:
        """What the layout tests check (inside the window, nothing over another, words whole),
        here in whatever state the input led to; each problem once, digits left out."""
        try:
            problems = layout_problems(self.app)
        except AttributeError:  # a scene state the checks do not know (say, the menu while it quits)
            return
        size = "x".join(map(str, self.app.screen.get_size()))
        for problem in problems:
            key = (self.app.current_name, "".join(ch for ch in problem if not ch.isdigit()))
            if key not in self.layout:
                self.layout[key] = (step, size)
                print(f"--- layout at step {step} in {key[0]} ({size}): {problem}", flush=True)


class Guest:
    """The duel's other side: a monkey in its own process that joins 127.0.0.1, killed now and
    then and started again on the same home (so it rejoins, or Continue brings the game back)."""

    def __init__(self, workdir: Path, seed: int, verbose: bool) -> None:
        self.home = workdir / "guest-home"
        self.log_dir = Path(tempfile.mkdtemp(prefix="gomoku-monkey-guest-"))
        self.seed = seed
        self.verbose = verbose
        self.starts = 0
        self.process: subprocess.Popen | None = None
        self._start()

    def _start(self) -> None:
        self.starts += 1
        log = open(self.log_dir / f"guest-{self.starts}.log", "w")  # noqa: SIM115 (the child keeps it)
        command = [sys.executable, __file__, "--join", f"{LOOPBACK}:{DEFAULT_PORT}", "--events", "100000000",
                   "--seed", str(self.seed * 1000 + self.starts), "--home", str(self.home), "--size", "1024x1024"]
        if self.verbose:
            command.append("--verbose")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    def kill_and_restart(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self._start()

    def stop(self) -> None:
        """Ctrl-C to the guest, so it prints its report."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def errors(self) -> int:
        return sum(path.read_text(errors="replace").count("--- error at step")
                   for path in self.log_dir.glob("guest-*.log"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="1280x800", help="the first window's size, WxH")
    parser.add_argument("--verbose", action="store_true", help="print every input")
    parser.add_argument("--duel", action="store_true",
                        help="host a LAN duel on 127.0.0.1 against a second monkey in its own process")
    parser.add_argument("--kill", type=float, default=0.002,
                        help="with --duel: the chance at each input that the guest's process is "
                             "killed (SIGKILL) and started again on its home")
    parser.add_argument("--notices", action="store_true",
                        help="list every notice the app showed, digits as N, with how often: wording to read")
    parser.add_argument("--join", metavar="HOST:PORT", help=argparse.SUPPRESS)  # the duel's guest
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    width, height = (int(part) for part in args.size.lower().split("x"))
    keep_network_local()
    shown = count_notices() if args.notices else None
    started = time.perf_counter()
    join = None
    if args.join:
        address, _, port = args.join.rpartition(":")
        join = (address, int(port))
    # (A guest is given its home: one it may be killed in the middle of must not be a temporary one.)
    workdir = contextlib.nullcontext(args.home) if args.home else tempfile.TemporaryDirectory(prefix="gomoku-monkey-")
    with workdir as home:
        monkey = Monkey(args.seed, (width, height), Path(home), args.verbose, join, args.duel)
        guest = Guest(Path(home), args.seed, args.verbose) if args.duel else None
        try:
            monkey.run(args.events, guest, args.kill)
        except KeyboardInterrupt:  # the host ends a guest's run so
            monkey.app.close()
        finally:
            if guest is not None:
                guest.stop()
    print(f"monkey: {monkey.steps} events, seed {args.seed}, {time.perf_counter() - started:.0f} s, "
          f"{monkey.launches} launch(es); LAN duels: {monkey.duel_stones} stones, {monkey.duel_games} results")
    for scene, count in sorted(monkey.visits.items()):
        frames = sorted(monkey.frames[scene])
        p99 = frames[int(len(frames) * 0.99)] * 1000 if frames else 0.0
        took, step, action = monkey.slowest.get(scene, (0.0, 0, ""))
        print(f"  {scene:8s} {count:6d} events, {len(frames):6d} frames, p99 {p99:6.1f} ms, "
              f"slowest {took * 1000:6.1f} ms (step {step}, after {action[:40]})")
    print(f"errors: {len(monkey.errors.seen)} (each printed where it came); "
          f"layout problems: {len(monkey.layout)}")
    if shown is not None:
        print("notices shown (digits as N):")
        for (error, text), count in shown.most_common():
            print(f"  {count:5d} {'error' if error else '     '} {text[:200]}")
    guest_errors = guest.errors() if guest is not None else 0
    if guest is not None:
        kept = f"its output: {guest.log_dir}" if guest_errors or args.verbose else "its output removed"
        print(f"guest: {guest.starts} start(s), {guest_errors} error(s); {kept}")
        if not (guest_errors or args.verbose):
            shutil.rmtree(guest.log_dir, ignore_errors=True)
    return 1 if monkey.errors.seen or monkey.layout or guest_errors else 0


if __name__ == "__main__":
    sys.exit(main())
