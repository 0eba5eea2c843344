"""`gomoku serve`'s own decisions, fed real network events by hand (no socket): when it sends
an idle guest away. The whole bot, in its own process, is in test_lan_e2e.py."""

from __future__ import annotations

import time

import pytest

from gomoku.core.types import Color, Rule
from gomoku.net import events as ev
from gomoku.serve import Server, parse_args


class RecordingBridge:
    """What the server asks of its NetBridge, recorded (the tests look only at `leave`)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple]] = []

    def __getattr__(self, name: str):
        return lambda *args: self.calls.append((name, args))


def seated(*options: str) -> tuple[Server, RecordingBridge, float]:
    """A server whose guest (black) has just been answered: the guest's turn, from `now`."""
    bridge = RecordingBridge()
    server = Server(parse_args(["--color", "white", *options]), bridge)
    control = server.options.host.time_control
    server.handle(ev.Connected("host", "Computer", "Guest", Color.WHITE, Rule.FREESTYLE, 15, control,
                               "token", "127.0.0.1", 15515))
    server.handle(ev.PositionSet((), Rule.FREESTYLE, Color.BLACK, ev.ClockMs(), "playing", why="start"))
    server.handle(ev.Moved((7, 7), Color.BLACK, 1, ev.ClockMs(), mine=False))
    server.handle(ev.Moved((8, 8), Color.WHITE, 2, ev.ClockMs(), mine=True))
    return server, bridge, time.monotonic()


def test_a_guest_is_idle_only_after_the_idle_time_from_its_last_action() -> None:
    server, _, now = seated("--idle", "10")
    assert not server.idle_too_long(now + 599)
    assert server.idle_too_long(now + 601)
    server.handle(ev.ChatReceived("Guest", "thinking..."))  # the guest is there
    assert not server.idle_too_long(time.monotonic() + 599)


@pytest.mark.parametrize("options", [("--idle", "0"), ("--idle", "10", "--time", "30s")])
def test_no_idle_limit_mid_game_when_switched_off_or_a_move_countdown_rules(options) -> None:
    server, _, now = seated(*options)
    assert not server.idle_too_long(now + 24 * 3600)


def test_between_games_a_move_countdown_does_not_keep_an_idle_guest_seated() -> None:
    server, _, now = seated("--idle", "10", "--time", "30s")
    server.handle(ev.GameOver(ev.Result(Color.BLACK, "five")))
    assert server.idle_too_long(time.monotonic() + 601)


def test_a_guest_away_in_its_reconnect_window_is_not_sent_away() -> None:
    server, bridge, now = seated("--idle", "10")
    server.handle(ev.ConnectionLost(now + 180, "host"))
    assert not server.idle_too_long(now + 3600)
    server.handle(ev.Reconnected())
    assert not server.idle_too_long(time.monotonic() + 599)
    server.send_idle_guest_away()
    assert bridge.calls[-1] == ("leave", ("no move or ready for 10 minutes; others may want to play",))
