"""End to end: `gomoku serve` in its own process, found and joined through the lobby's list.

The app runs under the dummy video driver; everything binds to 127.0.0.1. With
GOMOKU_TEST_SCREENSHOTS=DIR set, the screens a player would see are saved there to look at
(the lobby with the list filled, the waiting host, a request dialog, the disconnect banner).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest
from app_input import click
from net_side import Side

from gomoku.core.types import Color
from gomoku.net.bridge import NetBridge
from gomoku.net.events import (
    Closed,
    Connected,
    GameOver,
    Moved,
    PositionSet,
    RequestAnswered,
    Result,
)
from gomoku.ui.app import App, AppOptions

LOOPBACK = "127.0.0.1"
SERVE_START_S = 300.0  # a cold engine cache compiles first (about a minute on a busy machine)


def shot(app: App, name: str) -> None:
    folder = os.environ.get("GOMOKU_TEST_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        pygame.image.save(app.screen, str(Path(folder) / f"{name}.png"))


def run_until(app: App, condition: Callable[[], bool], limit: float = 20.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        app.frame()
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"not reached in {limit} s: {condition.__doc__ or condition}")


@dataclass
class Served:
    process: subprocess.Popen
    port: int


@pytest.fixture
def serve(tmp_path: Path, request):
    """`gomoku serve` hosting "Robo" (white, easy) on a free loopback port; more options from
    an indirect parametrization."""
    command = [sys.executable, "-m", "gomoku", "serve", "--level", "easy", "--name", "Robo",
               "--port", "0", "--lan-interface", LOOPBACK, "--color", "white",
               "--log", str(tmp_path / "results.txt"), *getattr(request, "param", ())]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + SERVE_START_S
    lines: list[str] = []
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "serving" in line:
            break
    else:
        process.kill()
    serving = [line for line in lines if "serving 'Robo'" in line]
    assert serving, "".join(lines)
    yield Served(process, int(re.search(r"port (\d+)", serving[0]).group(1)))
    if process.poll() is None:
        process.send_signal(signal.SIGINT)  # Ctrl-C: bye and unregister
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def test_a_player_finds_gomoku_serve_in_the_lobby_plays_and_sees_it_vanish_when_killed(tmp_path, serve):
    app = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home", lan_interface=LOOPBACK))
    try:
        app.settings.player_name = "Alice"
        app.switch("lobby", {})
        lobby = app.current

        def listed() -> bool:
            """gomoku serve appears in the lobby's list"""
            return any(line.startswith("Robo") for line in lobby.hosts_view.items)

        run_until(app, listed)
        shot(app, "lobby_list")
        index = next(i for i, line in enumerate(lobby.hosts_view.items) if line.startswith("Robo"))
        click(app, lobby.hosts_view.row_rect(index).center)
        click(app, lobby.join_button.rect.center)
        run_until(app, lambda: app.current_name == "board")
        board = app.current
        assert app.lan.my_color.label == "black" and app.lan.info.opponent_name == "Robo"
        click(app, board.duel.buttons["ready"].rect.center)
        run_until(app, lambda: app.lan.state == "playing")
        click(app, board.view.geometry.center((7, 7)))
        run_until(app, lambda: app.lan.game.board.ply == 2)  # our stone and the engine's reply
        shot(app, "duel_playing")
        # The player asks to take the move back: serve agrees to everything.
        click(app, board.buttons["undo"].rect.center)
        run_until(app, lambda: app.lan.game.board.ply == 0)
        # The host dies without a word: the banner says so within 10 s, the clocks stop.
        serve.process.send_signal(signal.SIGKILL)
        serve.process.wait(10)
        lost_at = time.monotonic()
        run_until(app, lambda: app.lan.phase == "lost", limit=15.0)
        assert time.monotonic() - lost_at <= 12.0
        app.frame()
        card = board.duel.card(app.lan, time.monotonic())
        assert card is not None and card[0] == "Connection lost"
        assert board.status.startswith("Connection lost")
        shot(app, "disconnect_banner")
    finally:
        app.close()


def test_the_waiting_host_and_a_request_dialog_look_right(tmp_path):
    """The app hosts; a bridge joins, plays and asks for an undo (screens to look at)."""
    app = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "home", lan_interface=LOOPBACK))
    guest = NetBridge(LOOPBACK)
    guest.start()
    try:
        app.settings.player_name = "Alice"
        app.switch("lobby", {})
        lobby = app.current
        lobby.color.value = "black"
        lobby.start_hosting()
        run_until(app, lambda: app.lan.hosting is not None)
        app.frame()
        assert lobby.host_status[0].text == "Waiting for a guest..."
        assert str(app.lan.hosting.port) in lobby.host_status[1].text
        shot(app, "lobby_hosting")
        guest.join(LOOPBACK, app.lan.hosting.port, "Bob")
        run_until(app, lambda: app.current_name == "board")
        board = app.current
        click(app, board.duel.buttons["ready"].rect.center)
        guest.ready(True)
        run_until(app, lambda: app.lan.state == "playing")
        click(app, board.view.geometry.center((7, 7)))
        run_until(app, lambda: app.lan.game.board.ply == 1)
        seen = []

        def guest_events() -> list:
            """Every event the guest's bridge has put out so far."""
            while not guest.events.empty():
                seen.append(guest.events.get_nowait())
            return seen

        # The guest may move only once the host's move has reached it.
        run_until(app, lambda: any(isinstance(e, Moved) and e.ply == 1 for e in guest_events()))
        guest.move(8, 8)
        run_until(app, lambda: app.lan.game.board.ply == 2)
        guest.request("undo")
        run_until(app, lambda: app.lan.incoming_request == "undo")
        app.frame()
        shot(app, "request_dialog")
        click(app, board.duel.buttons["refuse"].rect.center)
        run_until(app, lambda: app.lan.incoming_request is None)
        assert app.lan.game.board.ply == 2
        run_until(app, lambda: any(isinstance(e, RequestAnswered) for e in guest_events()), limit=10)
        assert any(isinstance(e, Connected) for e in seen)
        answers = [e for e in seen if isinstance(e, RequestAnswered)]
        assert answers and answers[-1].kind == "undo" and not answers[-1].accepted
    finally:
        guest.close()
        app.close()


def test_gomoku_serve_refuses_bad_options_in_plain_words():
    result = subprocess.run([sys.executable, "-m", "gomoku", "serve", "--time", "soon", "--size", "40",
                             "--idle", "nan"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "--time" in result.stderr and "--size" in result.stderr and "--idle" in result.stderr
    assert "Traceback" not in result.stderr



def test_gomoku_serve_plays_a_scripted_guest_process_to_the_end(tmp_path, serve):
    """Two processes, a full game: the guest (tests/net_guest.py) plays the first free point
    from the centre outwards; serve answers with the engine until someone wins."""
    results = tmp_path / "results.txt"
    guest_path = Path(__file__).parent / "net_guest.py"
    guest = subprocess.Popen([sys.executable, str(guest_path), str(serve.port), "Scripted"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert guest.stdin is not None and guest.stdout is not None
    taken: set[tuple[int, int]] = set()
    order = sorted(((x, y) for x in range(15) for y in range(15)),
                   key=lambda p: (abs(p[0] - 7) + abs(p[1] - 7), p))
    my_turn = False
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            line = guest.stdout.readline().split()
            if not line:
                break
            if line[0] == "connected":
                guest.stdin.write("ready\n")
                guest.stdin.flush()
            elif line[0] == "position":
                taken = {tuple(map(int, p.split(","))) for p in line[1:]}
                my_turn = len(taken) % 2 == 0  # the guest plays black (serve is white)
            elif line[0] == "moved":
                taken.add((int(line[1]), int(line[2])))
                my_turn = len(taken) % 2 == 0
            elif line[0] == "GameOver":
                break
            if my_turn:
                point = next(p for p in order if p not in taken)
                guest.stdin.write(f"move {point[0]} {point[1]}\n")
                guest.stdin.flush()
                my_turn = False
        else:
            raise AssertionError("the game did not end in 120 s")
    finally:
        guest.kill()
        guest.wait(10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not results.exists():
        time.sleep(0.1)
    assert "game 1:" in results.read_text(encoding="utf-8")


@pytest.mark.parametrize("serve", [("--idle", "0.05")], indirect=True)
def test_gomoku_serve_sends_an_idle_guest_away_and_takes_the_next(tmp_path, serve):
    """A guest who stops moving would hold a shared bot for ever: after --idle (here 3 s) it
    loses the game on time, reads why, and the next guest gets a game."""
    away = Side()
    try:
        away.bridge.join(LOOPBACK, serve.port, "Away")
        away.wait(Connected, timeout=30.0)
        away.bridge.ready(True)
        away.wait(PositionSet)
        away.bridge.move(7, 7)  # black; the bot answers, then waits for a move that never comes
        away.wait(Moved, lambda e: e.point == (7, 7))
        away.wait(Moved, lambda e: e.color is Color.WHITE)  # the bot's answer
        waited = time.monotonic()
        over = away.wait(GameOver, timeout=20.0)
        assert time.monotonic() - waited >= 2.0  # not before its idle time
        assert over.result == Result(Color.WHITE, "timeout")  # the idle guest (black) lost
        closed = away.wait(Closed)
        assert "no move or ready for 0.05 minutes" in closed.message
    finally:
        away.bridge.close()
    said = []
    while not any("serving" in line for line in said):  # hosting again
        said.append(serve.process.stdout.readline())
        assert said[-1], "serve stopped"
    assert any("Away did nothing for 0.05 minutes" in line for line in said)
    # (Read once serve hosts again: the guest may see the result before serve has logged it.)
    results = (tmp_path / "results.txt").read_text(encoding="utf-8")
    assert "engine won (timeout" in results and "vs Away" in results
    # --port 0 picked a free port once: the next guest uses the address the first one was given.
    assert int(re.search(r"port (\d+)", said[-1]).group(1)) == serve.port
    nextone = Side()
    try:
        nextone.bridge.join(LOOPBACK, serve.port, "Next")
        nextone.wait(Connected, timeout=30.0)  # the seat is free again
    finally:
        nextone.bridge.close()


@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGHUP])
def test_gomoku_serve_stopped_by_the_system_says_goodbye_to_its_guest(serve, sent):
    """`kill` (a service stopped) or the terminal closing ended serve where it stood: its guest
    saw the line lost and waited 3 minutes to reconnect. Now it goes as Ctrl-C does."""
    guest = Side()
    try:
        guest.bridge.join(LOOPBACK, serve.port, "Alice")
        guest.wait(Connected)
        serve.process.send_signal(sent)
        assert serve.process.wait(10) == 0
        assert "left" in guest.wait(Closed).message  # a goodbye, not a silence
        assert serve.process.stdout is not None and "stopping" in serve.process.stdout.read()
    finally:
        guest.bridge.close()


def test_gomoku_serve_stopped_while_it_starts_never_prints_a_traceback():
    """A kill in serve's first second (its imports, then the engine's warm-up) printed a
    traceback (here at 0.2 and 0.4 s). Killed at several moments of its start, it stops at once
    and silently while nothing is hosted (a first run's compile must not hold a kill off), or
    (a warm cache, hosting already) says "stopping"."""
    for delay in (0.1, 0.2, 0.3, 0.4, 0.5, 0.7):
        process = subprocess.Popen([sys.executable, "-m", "gomoku", "serve", "--port", "0", "--lan-interface",
                                    LOOPBACK, "--no-advertise"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True)
        time.sleep(delay)
        process.send_signal(signal.SIGTERM)
        status = process.wait(30)
        output = process.stdout.read() if process.stdout is not None else ""
        assert status in (-signal.SIGTERM, 0) and "Traceback" not in output, (delay, output)
