"""The LAN duel over real sockets on 127.0.0.1: two NetBridges (or a raw client) and a host.

Time limits are shortened through Timing; every wait below is an upper bound, not a speed test.
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from net_side import FAST, WAIT_S, Side

from gomoku.core.clock import TimeControl
from gomoku.core.types import Color, Rule
from gomoku.net.events import (
    ChatReceived,
    Closed,
    Connected,
    ConnectionLost,
    Failed,
    GameOver,
    HostFound,
    Hosting,
    HostLost,
    HostOptions,
    Moved,
    PositionSet,
    Reconnected,
    RequestAnswered,
    RequestReceived,
    Result,
)
from gomoku.net.protocol import FrameDecoder, Message, encode
from gomoku.net.session import Timing

FIVE = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8), (11, 7)]


def host_side(**options: Any) -> tuple[Side, int]:
    side = Side()
    options.setdefault("host_color", Color.BLACK)
    side.bridge.host(HostOptions("Alice", port=0, advertise=False, **options))
    hosting = side.wait(Hosting)
    assert hosting.address == "127.0.0.1"
    return side, hosting.port


@pytest.fixture
def duel() -> Iterator[Callable[..., tuple[Side, Side, int]]]:
    """Makes a host (black, by default) and a joined guest; closes both at the end."""
    sides: list[Side] = []

    def make(**options: Any) -> tuple[Side, Side, int]:
        host, port = host_side(**options)
        guest = Side()
        sides.extend([host, guest])
        guest.bridge.join("127.0.0.1", port, "Bob")
        assert guest.wait(Connected).my_color is Color.WHITE
        assert host.wait(Connected).opponent_name == "Bob"
        return host, guest, port

    yield make
    for side in sides:
        side.bridge.close()


def start(host: Side, guest: Side) -> None:
    host.bridge.ready(True)
    guest.bridge.ready(True)
    host.wait(PositionSet, lambda e: e.why == "start")
    guest.wait(PositionSet, lambda e: e.why == "start")


def play(host: Side, guest: Side, points: list[tuple[int, int]], first: Color = Color.BLACK) -> None:
    """Alternate moves, black (the host) first; each one seen by both sides before the next."""
    for index, (x, y) in enumerate(points):
        mover, other = (host, guest) if index % 2 == (0 if first is Color.BLACK else 1) else (guest, host)
        mover.bridge.move(x, y)
        mover.wait(Moved, lambda e, p=(x, y): e.point == p and e.mine)
        other.wait(Moved, lambda e, p=(x, y): e.point == p and not e.mine)


def test_a_full_game_to_five_with_chat_then_a_rematch(duel: Callable[..., tuple[Side, Side, int]]) -> None:
    host, guest, _ = duel()
    guest.bridge.chat("good luck!")
    assert host.wait(ChatReceived) == ChatReceived("Bob", "good luck!")
    start(host, guest)
    play(host, guest, FIVE)
    assert host.wait(GameOver).result == guest.wait(GameOver).result == Result(Color.BLACK, "five")
    start(host, guest)  # both ready again: a fresh game, same colours
    play(host, guest, [(0, 0), (1, 1)])


def test_undo_accepted_and_refused_and_restart(duel: Callable[..., tuple[Side, Side, int]]) -> None:
    host, guest, _ = duel()
    start(host, guest)
    play(host, guest, [(7, 7), (8, 8), (9, 9)])
    guest.bridge.request("undo")
    host.wait(RequestReceived, lambda e: e.kind == "undo")
    host.bridge.reply("undo", False)
    assert guest.wait(RequestAnswered) == RequestAnswered("undo", False)
    guest.bridge.request("undo")
    host.wait(RequestReceived)
    host.bridge.reply("undo", True)
    assert guest.wait(RequestAnswered) == RequestAnswered("undo", True)
    assert guest.wait(PositionSet).moves == host.wait(PositionSet).moves == ((7, 7),)
    play(host, guest, [(6, 6)], first=Color.WHITE)
    host.bridge.request("restart")
    guest.wait(RequestReceived, lambda e: e.kind == "restart")
    guest.bridge.reply("restart", True)
    assert host.wait(RequestAnswered) == RequestAnswered("restart", True)
    assert guest.wait(PositionSet, lambda e: e.why == "restart").moves == ()
    play(host, guest, [(3, 3)])


def test_resign_then_a_loaded_position_starts_the_next_game(duel: Callable[..., tuple[Side, Side, int]]) -> None:
    host, guest, _ = duel()
    start(host, guest)
    play(host, guest, [(7, 7)])
    guest.bridge.resign()
    assert host.wait(GameOver).result == guest.wait(GameOver).result == Result(Color.BLACK, "resign")
    host.bridge.load([(7, 7), (8, 8), (9, 9)], Rule.STANDARD)
    loaded = guest.wait(PositionSet, lambda e: e.why == "load")
    assert (loaded.moves, loaded.rule, loaded.state) == (((7, 7), (8, 8), (9, 9)), Rule.STANDARD, "waiting")
    start(host, guest)
    play(host, guest, [(10, 10)], first=Color.WHITE)


def test_the_host_declares_a_timeout_by_its_clock(duel: Callable[..., tuple[Side, Side, int]]) -> None:
    host, guest, _ = duel(time_control=TimeControl(move_s=1))
    start(host, guest)
    play(host, guest, [(7, 7)])  # white (the guest) now lets its second run out
    assert guest.wait(GameOver).result == Result(Color.BLACK, "timeout")
    assert host.wait(GameOver).result == Result(Color.BLACK, "timeout")


def test_a_host_that_was_stopped_charges_nobody_for_the_time_it_stood_still(
        duel: Callable[..., tuple[Side, Side, int]]) -> None:
    """The host's process stood still (a laptop's sleep) for longer than the guest's move
    limit: it used to flag the guest at once on waking, though the guest's screen had said
    "connection lost" with the clocks stopped. The time the host did not run is nobody's."""
    host, guest, _ = duel(time_control=TimeControl(move_s=5))
    start(host, guest)
    play(host, guest, [(7, 7)])  # white (the guest) to move, 5 s a move; it sees the loss at 3 s
    loop = host.bridge._loop
    assert loop is not None
    loop.call_soon_threadsafe(time.sleep, FAST.silence_s + 3)  # the host's process stops for 6 s
    guest.wait(ConnectionLost)
    guest.wait(Reconnected, timeout=WAIT_S + FAST.silence_s)
    guest.bridge.move(8, 8)
    assert host.wait(Moved, lambda e: not e.mine).point == (8, 8)
    assert not [e for e in host.log + guest.log if isinstance(e, GameOver)]


def test_a_second_guest_is_turned_away_as_busy(duel: Callable[..., tuple[Side, Side, int]]) -> None:
    host, guest, port = duel()
    intruder = Side()
    try:
        intruder.bridge.join("127.0.0.1", port, "Eve")
        assert "already playing" in intruder.wait(Failed).message
    finally:
        intruder.bridge.close()
    start(host, guest)  # the first guest plays on
    play(host, guest, [(7, 7), (8, 8)])


def test_a_hosted_game_is_listed_then_shown_playing_then_withdrawn() -> None:
    lobby, host, guest = Side(), Side(), Side()
    try:
        lobby.bridge.browse(True)
        host.bridge.host(HostOptions("Alice", port=0, host_color=Color.BLACK))  # advertised
        port = host.wait(Hosting).port
        found = lobby.wait(HostFound, lambda e: e.host.name == "Alice").host
        assert (found.address, found.port, found.state) == ("127.0.0.1", port, "open")
        guest.bridge.join(found.address, found.port, "Bob")
        guest.wait(Connected)
        start(host, guest)
        lobby.wait(HostFound, lambda e: e.host.name == "Alice" and e.host.state == "playing")
        guest.bridge.leave()
        host.wait(Closed)  # the host's session ended: no longer listed
        assert lobby.wait(HostLost).key == found.key
    finally:
        for side in (lobby, host, guest):
            side.bridge.close()


def test_a_taken_port_gives_way_to_a_free_one() -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    side = Side()
    try:
        side.bridge.host(HostOptions("Alice", port=taken.getsockname()[1], advertise=False))
        hosting = side.wait(Hosting)
        assert hosting.port not in (0, taken.getsockname()[1])
    finally:
        side.bridge.close()
        taken.close()


def test_joining_a_port_nobody_listens_on_fails_in_plain_words() -> None:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    side = Side()
    try:
        side.bridge.join("127.0.0.1", port, "Bob")
        assert side.wait(Failed).message == "nobody is hosting a game at that address and port"
    finally:
        side.bridge.close()


class RawGuest:
    """A guest speaking frames over a blocking socket: for what a real guest would never send."""

    def __init__(self, port: int, receive_buffer: int = 0) -> None:
        self.sock = socket.socket()
        if receive_buffer:  # small: a peer that does not read fills it fast
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(WAIT_S)
        self.sock.connect(("127.0.0.1", port))
        self.decoder = FrameDecoder()
        self.inbox: list[Message] = []

    def send(self, type_: str, **fields: Any) -> None:
        self.sock.sendall(encode(type_, **fields))

    def expect(self, type_: str) -> Message:
        """Read until a message of `type_` (pings answered); AssertionError at EOF."""
        while True:
            for index, message in enumerate(self.inbox):
                if message.type == type_:
                    del self.inbox[: index + 1]
                    return message
            data = self.sock.recv(65536)
            assert data, f"closed while waiting for {type_}"
            for item in self.decoder.feed(data):
                assert isinstance(item, Message), item
                if item.type == "ping":
                    self.send("pong", t=item.data["t"])
                self.inbox.append(item)

    def closed_within(self, seconds: float) -> bool:
        self.sock.settimeout(seconds)
        try:
            while self.sock.recv(65536):
                pass
        except TimeoutError:
            return False
        except ConnectionError:
            pass
        return True

    def close(self) -> None:
        self.sock.close()


def hello(**extra: Any) -> dict[str, Any]:
    return {"proto": 1, "app": "gomoku", "version": "0.1.0", "name": "Raw", **extra}


def test_an_illegal_move_over_the_wire_is_refused_and_the_game_goes_on() -> None:
    host, port = host_side()
    raw = RawGuest(port)
    try:
        raw.send("hello", **hello())
        assert raw.expect("welcome").data["color"] == "white"
        raw.send("ready", ready=True)
        host.bridge.ready(True)
        raw.expect("start")
        host.bridge.move(7, 7)
        raw.expect("move")
        raw.send("move", x=7, y=7, ply=2, clock_ms=0)  # occupied
        assert raw.expect("error").data["code"] == "illegal_move"
        assert raw.expect("sync").data["moves"] in ([[7, 7]], ((7, 7),))
        raw.send("move", x=8, y=8, ply=2, clock_ms=0)
        assert host.wait(Moved, lambda e: not e.mine).point == (8, 8)
        assert [e for e in host.log if isinstance(e, Moved)] == [
            e for e in host.log if isinstance(e, Moved) and e.point in ((7, 7), (8, 8))
        ]
    finally:
        raw.close()
        host.bridge.close()


def test_silent_and_garbled_connections_are_closed_and_versions_checked() -> None:
    host, port = host_side()
    silent, garbled, old, rude = RawGuest(port), RawGuest(port), RawGuest(port), RawGuest(port)
    try:
        rude.sock.sendall(encode("chat", text="hi"))  # anything but a hello first
        assert rude.expect("reject").data["reason"] == "bad_hello"
        assert rude.closed_within(WAIT_S)
        nameless = RawGuest(port)
        payload = msgpack.packb({**hello(), "type": "hello", "name": ""})  # encode would refuse it
        nameless.sock.sendall(len(payload).to_bytes(4, "big") + payload)
        assert nameless.expect("error").data["code"] == "bad_message"
        assert nameless.expect("reject").data["reason"] == "bad_hello"
        nameless.close()
        garbled.sock.sendall(b"\x00\x00\x00\x00")  # a length of 0: fatal
        assert garbled.expect("error").data["code"]
        assert garbled.closed_within(WAIT_S)
        old.send("hello", **hello(proto=2))
        assert old.expect("reject").data["reason"] == "version"
        assert silent.closed_within(FAST.hello_timeout_s + WAIT_S)
        guest = Side()  # the seat is still free for a real guest
        guest.bridge.join("127.0.0.1", port, "Bob")
        guest.wait(Connected)
        guest.bridge.close()
    finally:
        for raw in (silent, garbled, old, rude):
            raw.close()
        host.bridge.close()


def test_a_guest_that_floods_without_reading_is_cut_off() -> None:
    host, port = host_side()
    raw = RawGuest(port, receive_buffer=4096)
    try:
        raw.send("hello", **hello())
        raw.expect("welcome")
        host.wait(Connected)
        raw.sock.settimeout(0.5)
        ping = encode("ping", t=1) * 256
        cut = False
        deadline = time.monotonic() + FAST.silence_s + WAIT_S
        while time.monotonic() < deadline:  # far more frames a second than a game sends
            try:
                raw.sock.sendall(ping)
            except TimeoutError:
                continue
            except OSError:
                cut = True
                break
        assert cut
        assert host.wait(ConnectionLost).role == "host"

    finally:
        raw.close()
        host.bridge.close()


def test_a_guest_back_with_its_token_takes_over_a_connection_the_host_still_trusts() -> None:
    host, port = host_side()
    first = RawGuest(port)
    second = None
    try:
        first.send("hello", **hello())
        token = first.expect("welcome").data["session"]
        first.send("ready", ready=True)
        host.bridge.ready(True)
        first.expect("start")
        host.bridge.move(7, 7)
        first.expect("move")
        second = RawGuest(port)  # the first connection is still open: a half-dead network
        second.send("hello", **hello(session=token))
        assert second.expect("welcome").data["session"] == token
        assert second.expect("sync").data["moves"] == ((7, 7),)
        assert first.closed_within(WAIT_S)
        host.wait(ConnectionLost)
        host.wait(Reconnected)
        second.send("move", x=8, y=8, ply=2, clock_ms=0)
        assert host.wait(Moved, lambda e: not e.mine).point == (8, 8)
    finally:
        first.close()
        if second is not None:
            second.close()
        host.bridge.close()


def _cut(side: Side) -> None:
    """Break the guest's TCP connection from its own loop, as a dropped network would."""
    bridge = side.bridge
    assert bridge._loop is not None
    bridge._loop.call_soon_threadsafe(lambda: bridge._session.link.abort())  # type: ignore[union-attr]


def test_a_lost_connection_comes_back_with_the_token_and_every_stone(duel: Callable[..., tuple[Side, Side, int]]) -> None:
    host, guest, _ = duel(time_control=TimeControl(game_s=300))
    start(host, guest)
    play(host, guest, [(7, 7), (8, 8), (9, 9)])
    _cut(guest)
    assert guest.wait(ConnectionLost).role == "guest"
    assert host.wait(ConnectionLost).role == "host"
    host.wait(Reconnected)
    guest.wait(Reconnected)
    sync = guest.wait(PositionSet)
    assert (sync.why, sync.moves, sync.state) == ("sync", ((7, 7), (8, 8), (9, 9)), "playing")
    play(host, guest, [(10, 10), (11, 11)], first=Color.WHITE)


def test_bye_closes_the_session_on_both_sides(duel: Callable[..., tuple[Side, Side, int]]) -> None:
    host, guest, _ = duel()
    guest.bridge.leave()
    assert guest.wait(Closed).message == "you left"
    assert "left" in host.wait(Closed).message
    started = time.monotonic()
    host.bridge.close()
    assert time.monotonic() - started <= 2.5


def test_closing_the_guests_bridge_says_bye_first(duel: Callable[..., tuple[Side, Side, int]]) -> None:
    host, guest, _ = duel()
    started = time.monotonic()
    guest.bridge.close()
    assert time.monotonic() - started <= 2.5
    assert "left" in host.wait(Closed).message  # a bye, not a lost connection
    assert not [e for e in host.log if isinstance(e, ConnectionLost)]


SCRIPT = Path(__file__).with_name("net_guest.py")


class GuestProcess:
    """tests/net_guest.py in its own process: lines out, commands in."""

    def __init__(self, port: int, token: str | None = None) -> None:
        args = [sys.executable, str(SCRIPT), str(port), "Bob"] + ([token] if token else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.lines: queue.Queue[str] = queue.Queue()
        import threading

        threading.Thread(target=lambda: [self.lines.put(line.strip()) for line in self.proc.stdout], daemon=True).start()  # type: ignore[union-attr]

    def expect(self, prefix: str, timeout: float = 30.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            if line.startswith(prefix):
                return line
        raise AssertionError(f"the guest process never said {prefix!r}")

    def command(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(WAIT_S)


def test_a_guest_process_killed_mid_game_is_replaced_with_its_token() -> None:
    host, port = host_side()
    first = second = None
    try:
        first = GuestProcess(port)
        token = first.expect("connected").split()[1]
        first.command("ready")
        host.bridge.ready(True)
        host.wait(PositionSet, lambda e: e.why == "start")
        for host_point, guest_point in [((7, 7), (8, 8)), ((9, 9), (10, 10))]:
            host.bridge.move(*host_point)
            first.expect("moved {} {}".format(*host_point))
            first.command("move {} {}".format(*guest_point))
            host.wait(Moved, lambda e, p=guest_point: e.point == p)
        first.kill()
        host.wait(ConnectionLost, timeout=10.0)
        second = GuestProcess(port, token)
        assert second.expect("connected").split()[1] == token
        assert second.expect("position") == "position 7,7 8,8 9,9 10,10"
        host.wait(Reconnected)
        host.bridge.move(11, 11)
        second.expect("moved 11 11")
        second.command("move 12 12")
        assert host.wait(Moved, lambda e: not e.mine).point == (12, 12)
    finally:
        for process in (first, second):
            if process is not None:
                process.kill()
        host.bridge.close()


def test_silent_connections_cannot_keep_a_real_guest_out() -> None:
    # Slow hello limit: without eviction, the newest guest would wait for the silent ones.
    patient = Timing(heartbeat_s=0.2, silence_s=3.0, hello_timeout_s=30.0, connect_timeout_s=3.0,
                     retry_s=0.2, tick_s=0.05)
    host = Side(patient)
    host.bridge.host(HostOptions("Alice", port=0, advertise=False, host_color=Color.BLACK))
    port = host.wait(Hosting).port
    silent = [RawGuest(port) for _ in range(12)]  # more than the handshake slots
    guest = Side()
    try:
        time.sleep(0.2)  # the silent ones are all accepted first
        started = time.monotonic()
        guest.bridge.join("127.0.0.1", port, "Bob")
        assert guest.wait(Connected, timeout=WAIT_S).opponent_name == "Alice"
        assert time.monotonic() - started < 5.0  # not the 30 s hello limit of the silent ones
    finally:
        for raw in silent:
            raw.close()
        guest.bridge.close()
        host.bridge.close()
