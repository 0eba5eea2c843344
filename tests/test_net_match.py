"""The LAN conversation without sockets: a HostMatch and a GuestMatch talk through two queues."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import pytest
from test_renju import NO_POINT_FOR_BLACK

from gomoku.core.clock import TimeControl
from gomoku.core.notation import parse_moves
from gomoku.core.types import Color, Rule
from gomoku.net.events import (
    ChatReceived,
    Closed,
    Connected,
    ConnectionLost,
    Failed,
    GameOver,
    HostOptions,
    Moved,
    MoveRefused,
    Notice,
    PositionSet,
    ReadyChanged,
    Reconnected,
    RequestAnswered,
    RequestReceived,
    Result,
)
from gomoku.net.match import (
    Chat,
    GuestMatch,
    HostMatch,
    Leave,
    Load,
    Move,
    Ready,
    Reply,
    Request,
    Resign,
    Step,
)
from gomoku.net.protocol import Message, encode


def _wire(value: Any) -> Any:
    """What the decoder hands over: lists as tuples, maps as dicts."""
    if isinstance(value, list | tuple):
        return tuple(_wire(v) for v in value)
    if isinstance(value, dict):
        return {k: _wire(v) for k, v in value.items()}
    return value


class Duel:
    """A host and a guest joined by two in-memory FIFO queues; `t` is the shared clock."""

    def __init__(self, host_color: Color = Color.BLACK, **options: Any) -> None:
        self.t = 100.0
        self.host = HostMatch(HostOptions("Alice", host_color=host_color, **options), random.Random(3))
        self.guest = GuestMatch("Bob")
        self.events: dict[str, list[Any]] = {"host": [], "guest": []}
        self.sent: dict[str, list[tuple[str, dict]]] = {"host": [], "guest": []}
        self.closed: dict[str, str | None] = {"host": None, "guest": None}
        self.queues: dict[str, deque[Message]] = {"host": deque(), "guest": deque()}
        self.connect()

    def connect(self) -> None:
        hello = self.guest.hello(self.t, "127.0.0.1", 15515)
        (type_, fields), = hello.send
        self.take("host", self.host.hello(Message(type_, _wire(fields)), self.t, ("127.0.0.1", 5000)))
        self.pump()

    def take(self, side: str, step: Step) -> Step:
        other = "guest" if side == "host" else "host"
        self.events[side].extend(step.events)
        self.sent[side].extend(step.send)
        for type_, fields in step.send:
            self.queues[other].append(Message(type_, _wire(fields)))
        if step.close:
            self.closed[side] = step.close
        return step

    def pump(self) -> None:
        while self.queues["host"] or self.queues["guest"]:
            for side in ("host", "guest"):
                if self.queues[side]:
                    match = self.host if side == "host" else self.guest
                    self.take(side, match.receive(self.queues[side].popleft(), self.t))

    def do(self, side: str, command: Any) -> Step:
        match = self.host if side == "host" else self.guest
        step = self.take(side, match.local(command, self.t))
        self.pump()
        return step

    def tick(self, seconds: float = 0.0) -> None:
        self.t += seconds
        self.take("host", self.host.tick(self.t))
        self.take("guest", self.guest.tick(self.t))
        self.pump()

    def start(self) -> None:
        self.do("host", Ready(True))
        self.do("guest", Ready(True))

    def play(self, *points: tuple[int, int]) -> None:
        """Alternate moves, each by the side to move."""
        for x, y in points:
            side = "host" if self.host.game.to_move is self.host.color else "guest"
            self.do(side, Move(x, y))

    def of(self, side: str, kind: type) -> list[Any]:
        return [e for e in self.events[side] if isinstance(e, kind)]

    def clear(self) -> None:
        for side in self.events:
            self.events[side].clear()
            self.sent[side].clear()

    def same_board(self) -> list[tuple[int, int]]:
        assert self.host.game.board.moves == self.guest.game.board.moves
        return self.host.game.board.moves


BLACK_FIVE = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8), (11, 7)]


def test_handshake_tells_both_sides_who_plays_what() -> None:
    duel = Duel(host_color=Color.WHITE, rule=Rule.RENJU)
    (host_c,) = duel.of("host", Connected)
    (guest_c,) = duel.of("guest", Connected)
    assert (host_c.role, host_c.my_color, host_c.opponent_name) == ("host", Color.WHITE, "Bob")
    assert (guest_c.role, guest_c.my_color, guest_c.opponent_name) == ("guest", Color.BLACK, "Alice")
    assert guest_c.rule is Rule.RENJU and guest_c.session == host_c.session
    assert guest_c.address == "127.0.0.1" and guest_c.port == 15515


def test_a_full_game_to_five_ends_on_both_screens_and_a_rematch_keeps_colours() -> None:
    duel = Duel()
    duel.start()
    assert duel.of("guest", PositionSet)[-1].state == "playing"
    duel.play(*BLACK_FIVE)
    assert duel.same_board() == BLACK_FIVE
    for side in ("host", "guest"):
        assert duel.of(side, GameOver) == [GameOver(Result(Color.BLACK, "five"))]
        assert duel.events[side][-1] == ReadyChanged(False, False)
    guest_moves = [e for e in duel.of("guest", Moved)]
    assert [e.mine for e in guest_moves] == [False, True] * 4 + [False]
    assert [e.ply for e in guest_moves] == list(range(1, 10))
    # A move after the end is refused where it is made.
    duel.do("guest", Move(0, 0))
    assert isinstance(duel.events["guest"][-1], MoveRefused)
    duel.clear()
    duel.start()
    assert duel.host.state == "playing" and duel.same_board() == []
    assert duel.host.color is Color.BLACK and duel.guest.color is Color.WHITE


def test_ready_is_seen_by_the_other_side_and_one_ready_does_not_start() -> None:
    duel = Duel()
    duel.do("guest", Ready(True))
    assert duel.events["host"][-1] == ReadyChanged(mine=False, theirs=True)
    assert duel.host.state == "waiting"
    duel.do("guest", Ready(False))
    duel.do("host", Ready(True))
    assert duel.events["guest"][-1] == ReadyChanged(mine=False, theirs=True)
    assert duel.host.state == "waiting"


def test_undo_accepted_takes_back_to_before_the_askers_last_stone() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7), (8, 8), (6, 6))  # the guest (white) asks after black answered
    duel.do("guest", Request("undo"))
    assert duel.of("host", RequestReceived) == [RequestReceived("undo")]
    duel.do("host", Reply("undo", True))
    assert duel.same_board() == [(7, 7)]
    assert duel.of("guest", RequestAnswered) == [RequestAnswered("undo", True)]
    for side in ("host", "guest"):
        position = duel.of(side, PositionSet)[-1]
        assert (position.why, position.moves, position.to_move) == ("undo", ((7, 7),), Color.WHITE)
    duel.play((9, 9))  # and the game goes on with white to move
    assert duel.same_board() == [(7, 7), (9, 9)]


def test_undo_asked_by_the_host_and_accepted_by_the_guest() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7), (8, 8))
    duel.do("host", Request("undo"))
    duel.do("guest", Reply("undo", True))
    assert duel.same_board() == []
    assert duel.of("host", RequestAnswered) == [RequestAnswered("undo", True)]
    assert duel.of("guest", PositionSet)[-1].why == "undo"


def test_undo_refused_changes_nothing() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7), (8, 8))
    duel.do("guest", Request("undo"))
    duel.do("host", Reply("undo", False))
    assert duel.of("guest", RequestAnswered) == [RequestAnswered("undo", False)]
    assert duel.same_board() == [(7, 7), (8, 8)]


def test_an_unanswered_request_times_out_as_refused_on_both_sides() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7), (8, 8))
    duel.do("guest", Request("undo"))
    duel.tick(29.0)
    assert duel.of("guest", RequestAnswered) == []
    duel.tick(1.5)
    assert duel.of("guest", RequestAnswered) == [RequestAnswered("undo", False, timed_out=True)]
    duel.do("host", Reply("undo", True))  # too late: the host's seat dropped it too
    assert duel.same_board() == [(7, 7), (8, 8)]


def test_a_second_question_while_one_is_open_is_refused_at_once() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7), (8, 8))
    duel.take("host", duel.host.receive(Message("undo_request", {"ply": 2}), duel.t))
    step = duel.host.receive(Message("restart_request", {"ply": 2}), duel.t)
    assert step.send == [("restart_reply", {"accept": False})]
    assert duel.of("host", RequestReceived) == [RequestReceived("undo")]


def test_a_request_overtaken_by_a_move_is_not_applied() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7))
    duel.do("host", Request("undo"))  # black asks, but white's move crosses it
    duel.do("guest", Move(8, 8))
    duel.do("guest", Reply("undo", True))
    assert duel.same_board() == [(7, 7), (8, 8)]
    assert duel.of("host", RequestAnswered) == [RequestAnswered("undo", False)]


def test_restart_by_agreement_clears_the_board_and_plays_on() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7), (8, 8), (9, 9))
    duel.do("host", Request("restart"))
    assert duel.of("guest", RequestReceived) == [RequestReceived("restart")]
    duel.do("guest", Reply("restart", True))
    assert duel.same_board() == []
    assert duel.host.state == duel.guest.state == "playing"
    assert duel.of("guest", PositionSet)[-1].why == "restart"
    duel.play((3, 3))
    assert duel.same_board() == [(3, 3)]


def test_resign_ends_the_game_for_the_resigner() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7))
    duel.do("guest", Resign())
    for side in ("host", "guest"):
        assert duel.of(side, GameOver) == [GameOver(Result(Color.BLACK, "resign"))]


def test_the_host_flags_the_guests_time_on_its_own_clock() -> None:
    duel = Duel(time_control=TimeControl(game_s=60))
    duel.start()
    duel.play((7, 7))  # white (the guest) to move
    duel.t += 60.2  # within the guest's latency allowance (the guest itself stays silent)
    duel.take("host", duel.host.tick(duel.t))
    assert duel.of("host", GameOver) == []
    duel.t += 0.5
    duel.take("host", duel.host.tick(duel.t))
    duel.pump()
    for side in ("host", "guest"):
        assert duel.of(side, GameOver) == [GameOver(Result(Color.BLACK, "timeout"))]


def test_the_hosts_own_time_runs_out_too() -> None:
    duel = Duel(time_control=TimeControl(move_s=10))
    duel.start()
    duel.tick(10.1)
    assert duel.of("guest", GameOver) == [GameOver(Result(Color.WHITE, "timeout"))]


def test_a_guest_that_sees_its_own_flag_says_timeout() -> None:
    duel = Duel(host_color=Color.WHITE, time_control=TimeControl(game_s=30))
    duel.start()
    duel.t += 30.1
    duel.take("guest", duel.guest.tick(duel.t))  # the guest ticks before the host does
    assert ("timeout", {}) in duel.sent["guest"]
    duel.pump()
    assert duel.of("guest", GameOver) == [GameOver(Result(Color.WHITE, "timeout"))]


def test_a_clock_claim_above_the_hosts_reckoning_is_clamped() -> None:
    duel = Duel(time_control=TimeControl(game_s=60))
    duel.start()
    duel.play((7, 7))
    duel.t += 10.0
    ply = duel.host.game.board.ply + 1
    duel.take("host", duel.host.receive(Message("move", {"x": 8, "y": 8, "ply": ply, "clock_ms": 60_000}), duel.t))
    assert duel.host.game.clock.remaining(Color.WHITE, duel.t) == pytest.approx(50.5)
    duel.play((9, 9))
    duel.t += 10.0
    duel.take("host", duel.host.receive(Message("move", {"x": 1, "y": 1, "ply": 4, "clock_ms": 40_200}), duel.t))
    assert duel.host.game.clock.remaining(Color.WHITE, duel.t) == pytest.approx(40.2)


def test_an_illegal_move_is_refused_with_a_sync_and_the_game_goes_on() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7))
    host = duel.host
    for fields, why in [
        ({"x": 7, "y": 7, "ply": 2, "clock_ms": 0}, "taken"),  # occupied
        ({"x": 3, "y": 3, "ply": 5, "clock_ms": 0}, "position"),  # wrong ply
        ({"x": 30, "y": 3, "ply": 2, "clock_ms": 0}, "off the board"),
    ]:
        step = host.receive(Message("move", fields), duel.t)
        assert [t for t, _ in step.send] == ["error", "sync"]
        assert step.send[0][1]["code"] == "illegal_move" and why in step.send[0][1]["message"]
        assert host.game.board.moves == [(7, 7)] and host.state == "playing"
    duel.play((8, 8))
    step = host.receive(Message("move", {"x": 9, "y": 9, "ply": 3, "clock_ms": 0}), duel.t)
    assert step.send[0][1]["code"] == "illegal_move"  # out of turn: black is the host
    duel.play((9, 9), (10, 10))
    assert duel.same_board() == [(7, 7), (8, 8), (9, 9), (10, 10)]


def test_the_guest_refuses_its_own_bad_moves_before_sending() -> None:
    duel = Duel(host_color=Color.WHITE, rule=Rule.RENJU)
    duel.do("guest", Move(7, 7))
    assert isinstance(duel.events["guest"][-1], MoveRefused)  # no game yet
    duel.start()
    duel.play((7, 7), (0, 0), (7, 9), (0, 1), (6, 8), (1, 0), (8, 8), (14, 14))
    duel.clear()
    for point in [(0, 0), (7, 8)]:  # occupied; renju double three (row 8 and column 7)
        duel.do("guest", Move(*point))
        assert isinstance(duel.events["guest"][-1], MoveRefused)
    assert duel.sent["guest"] == []
    duel.do("host", Move(5, 5))
    assert isinstance(duel.events["host"][-1], MoveRefused)  # not the host's turn
    assert "renju" in duel.of("guest", MoveRefused)[1].message


def test_a_move_refused_by_the_host_is_taken_back_on_the_guest_by_the_sync() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7))
    duel.guest.game.board.pop()  # the guest's mirror out of step: it thinks (7, 7) is free
    duel.guest.game.board.push(0, 0)
    duel.do("guest", Move(7, 7))
    assert isinstance(duel.events["guest"][-1], PositionSet)
    refused = duel.of("guest", MoveRefused)
    assert refused and refused[0].point == (7, 7)
    assert duel.same_board() == [(7, 7)]


def test_a_refused_move_does_not_give_the_guest_a_fresh_move_countdown() -> None:
    duel = Duel(time_control=TimeControl(game_s=300, move_s=30))
    duel.start()
    duel.play((7, 7))  # white (the guest) to move
    duel.tick(10.0)
    duel.guest.game.board.pop()  # the guest's mirror out of step: it thinks (7, 7) is free
    duel.guest.game.board.push(0, 0)
    duel.clear()
    duel.do("guest", Move(7, 7))
    assert duel.of("guest", MoveRefused)
    later = duel.t + 5.0
    for side in (duel.host, duel.guest):  # the countdown goes on (the guest's was back at 30 s)
        assert side.game.clock.move_remaining(later) == pytest.approx(15.0)
        assert side.game.clock.remaining(Color.WHITE, later) == pytest.approx(285.0)
    assert duel.of("guest", PositionSet)[-1].move_used_s == pytest.approx(10.0)  # for its screen
    duel.tick(19.5)
    assert duel.of("host", GameOver) == [] and duel.of("guest", GameOver) == []
    duel.tick(1.0)
    for side in ("host", "guest"):
        assert duel.of(side, GameOver) == [GameOver(Result(Color.BLACK, "timeout"))]


def test_chat_goes_both_ways_with_text_cleaned() -> None:
    duel = Duel()
    duel.do("guest", Chat("hello\x07 there  "))
    duel.do("host", Chat("hi " + "x" * 300))  # too long: not sent
    duel.do("host", Chat("good luck"))
    assert duel.of("host", ChatReceived) == [ChatReceived("Bob", "hello there"), ChatReceived("Alice", "good luck", True)]
    assert duel.of("guest", ChatReceived)[-1] == ChatReceived("Alice", "good luck")
    assert len(duel.of("guest", ChatReceived)) == 2


def test_load_sets_the_start_of_every_game_and_is_host_only_between_games() -> None:
    duel = Duel()
    duel.do("guest", Ready(True))
    duel.do("host", Load(((7, 7), (8, 8), (9, 9)), Rule.STANDARD))
    position = duel.of("guest", PositionSet)[-1]
    assert (position.why, position.moves, position.rule) == ("load", ((7, 7), (8, 8), (9, 9)), Rule.STANDARD)
    assert duel.events["guest"][-1] == ReadyChanged(False, False)
    duel.start()
    assert duel.same_board() == [(7, 7), (8, 8), (9, 9)]
    assert duel.guest.game.to_move is Color.WHITE and duel.guest.rule is Rule.STANDARD
    duel.do("host", Load((), Rule.FREESTYLE))
    assert isinstance(duel.events["host"][-1], Notice)  # not during a game
    duel.do("guest", Load((), Rule.FREESTYLE))
    assert isinstance(duel.events["guest"][-1], Notice)
    duel.do("guest", Request("undo"))  # nothing of white's after the loaded start
    assert isinstance(duel.events["guest"][-1], Notice)
    duel.do("guest", Resign())
    duel.do("host", Load(((7, 7), (7, 7)), Rule.FREESTYLE))  # not a legal sequence
    assert isinstance(duel.events["host"][-1], Notice)
    duel.start()  # the rematch starts from the loaded position again
    assert duel.same_board() == [(7, 7), (8, 8), (9, 9)]


def test_a_renju_duel_where_black_may_play_no_point_left_ends_drawn_on_both_screens() -> None:
    moves = parse_moves(NO_POINT_FOR_BLACK, 15)
    duel = Duel(host_color=Color.WHITE)
    duel.do("host", Load(tuple(moves[:-1]), Rule.RENJU))  # the host loads the game's end
    duel.start()
    duel.play(moves[-1])  # the host's white stone leaves black only forbidden points
    assert len(duel.same_board()) == 222
    for side in ("host", "guest"):
        assert duel.of(side, GameOver) == [GameOver(Result(None, "full_board"))]


def test_a_lost_connection_pauses_the_clocks_and_a_sync_restores_every_stone() -> None:
    duel = Duel(time_control=TimeControl(game_s=300))
    duel.start()
    duel.play((7, 7), (8, 8), (9, 9))
    duel.tick(5.0)
    white_left = duel.host.game.clock.remaining(Color.WHITE, duel.t)
    duel.take("host", duel.host.lost(duel.t))
    duel.take("guest", duel.guest.lost(duel.t))
    assert [e.role for e in duel.of("host", ConnectionLost)] == ["host"]
    assert duel.of("guest", ConnectionLost)[0].deadline_s == pytest.approx(duel.t + 180)
    duel.do("guest", Move(1, 1))
    assert duel.events["guest"][-1] == MoveRefused((1, 1), "the connection is down")
    duel.tick(120.0)  # within the window; clocks paused
    assert duel.host.game.clock.remaining(Color.WHITE, duel.t) == pytest.approx(white_left)
    duel.guest.game.board.pop()  # whatever the guest lost meanwhile, the sync brings back
    duel.clear()
    duel.connect()
    assert duel.of("host", Reconnected) and duel.of("guest", Reconnected)
    (position,) = duel.of("guest", PositionSet)
    assert (position.why, position.moves, position.state) == ("sync", ((7, 7), (8, 8), (9, 9)), "playing")
    assert position.clock.white == round(white_left * 1000)
    duel.play((10, 10))
    assert duel.same_board() == [(7, 7), (8, 8), (9, 9), (10, 10)]


def test_after_a_break_both_sides_count_the_same_move_countdown_and_flag_together() -> None:
    duel = Duel(time_control=TimeControl(game_s=300, move_s=30))
    duel.start()
    duel.play((7, 7))  # white (the guest) to move
    duel.tick(12.0)
    duel.take("host", duel.host.lost(duel.t))
    duel.take("guest", duel.guest.lost(duel.t))
    duel.tick(20.0)
    duel.clear()
    duel.connect()
    later = duel.t + 5.0
    for side in (duel.host, duel.guest):  # the move countdown starts again, the game time does not
        assert side.game.clock.move_remaining(later) == pytest.approx(25.0)
        assert side.game.clock.remaining(Color.WHITE, later) == pytest.approx(283.0)
    duel.tick(29.5)  # 0.5 s left on the guest's own screen: the host has not flagged it yet
    assert duel.of("host", GameOver) == [] and duel.of("guest", GameOver) == []
    duel.tick(1.0)
    for side in ("host", "guest"):
        assert duel.of(side, GameOver) == [GameOver(Result(Color.BLACK, "timeout"))]


def test_a_guest_back_from_a_break_plays_on_only_from_the_hosts_sync() -> None:
    duel = Duel(time_control=TimeControl(game_s=300))
    duel.start()
    duel.play((7, 7))  # the host's black stone: the guest is to move
    duel.take("host", duel.host.lost(duel.t))
    duel.take("guest", duel.guest.lost(duel.t))
    deadline = duel.guest.lost_deadline
    duel.clear()
    (type_, fields), = duel.guest.hello(duel.t).send
    duel.take("host", duel.host.hello(Message(type_, _wire(fields)), duel.t))
    welcome = duel.queues["guest"].popleft()  # the sync is still on its way
    duel.take("guest", duel.guest.receive(welcome, duel.t))
    assert not duel.of("guest", Reconnected)
    # A click now would be wiped on the guest's screen by the sync, yet kept by the host.
    step = duel.take("guest", duel.guest.local(Move(8, 8), duel.t))
    assert step.send == [] and isinstance(step.events[-1], MoveRefused)
    duel.queues["guest"].clear()  # dropped again, the sync with it
    duel.take("host", duel.host.lost(duel.t + 10))
    duel.take("guest", duel.guest.lost(duel.t + 10))
    assert duel.guest.lost_deadline == deadline  # the window is not stretched
    duel.clear()
    duel.connect()
    assert duel.of("guest", Reconnected) and duel.guest.lost_deadline is None
    duel.do("guest", Move(8, 8))
    assert duel.same_board() == [(7, 7), (8, 8)]


def test_a_break_between_games_resets_both_ready_flags() -> None:
    duel = Duel()
    duel.do("host", Ready(True))
    duel.do("guest", Ready(False))
    duel.take("host", duel.host.lost(duel.t))
    duel.take("guest", duel.guest.lost(duel.t))
    duel.connect()
    assert duel.events["host"][-1] == ReadyChanged(False, False)
    assert duel.events["guest"][-1] == ReadyChanged(False, False)
    duel.do("guest", Ready(True))
    assert duel.host.state == "waiting"  # the host's old ready no longer counts
    duel.do("host", Ready(True))
    assert duel.host.state == duel.guest.state == "playing"


def test_the_seat_is_kept_for_the_token_only_and_ends_as_disconnect() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7))
    hello = Message("hello", {"proto": 1, "app": "gomoku", "version": "0", "name": "Eve"})
    assert duel.host.hello(hello, duel.t).send == [("reject", {"reason": "busy"})]
    duel.take("host", duel.host.lost(duel.t))
    step = duel.host.hello(Message("hello", {**hello.data, "session": "guessed"}), duel.t)
    assert step.send == [("reject", {"reason": "busy"})] and step.close
    duel.tick(181.0)
    assert duel.of("host", GameOver) == [GameOver(Result(Color.BLACK, "disconnect"))]
    assert isinstance(duel.events["host"][-1], Closed) and duel.closed["host"]


def test_names_that_would_not_pass_the_wire_are_replaced() -> None:
    guest = GuestMatch("\x1b[31m" + "B" * 40)
    assert guest.name == "guest"
    assert GuestMatch("  Bob\u200b ").name == "Bob"
    assert GuestMatch("Bob\u00a0Smith").name == "Bob Smith"


def test_another_protocol_version_is_rejected_in_plain_words() -> None:
    host = HostMatch(HostOptions("Alice"))
    guest = GuestMatch("Bob")
    step = host.hello(Message("hello", {"proto": 2, "name": "Bob"}), 0.0)
    assert step.send == [("reject", {"reason": "version"})] and step.close
    answer = guest.receive(Message(*step.send[0]), 0.0)
    assert answer.close and answer.events == [Failed("the host runs another version of the game")]


def test_a_guest_who_says_bye_mid_game_loses_by_disconnect() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7))
    duel.do("guest", Leave())
    assert duel.closed["guest"] and duel.closed["host"] == "bye"
    assert duel.of("host", GameOver) == [GameOver(Result(Color.BLACK, "disconnect"))]
    assert isinstance(duel.events["host"][-1], Closed)


def test_a_host_who_leaves_mid_game_tells_the_guest_it_won() -> None:
    duel = Duel()
    duel.start()
    duel.do("host", Leave())
    assert duel.of("guest", GameOver) == [GameOver(Result(Color.WHITE, "disconnect"))]
    assert duel.events["guest"][-1] == Closed("Alice left")  # no reason added to the usual words


def test_a_host_that_sends_an_idle_guest_away_wins_on_time_and_says_why() -> None:
    duel = Duel()
    duel.start()
    duel.play((7, 7))  # the guest (white) to move, and it never does
    duel.do("host", Leave("no move or ready for 10 minutes"))
    for side in ("host", "guest"):
        assert duel.of(side, GameOver) == [GameOver(Result(Color.BLACK, "timeout"))]
    assert duel.events["guest"][-1] == Closed("Alice left: no move or ready for 10 minutes")


def test_messages_only_the_host_may_send_are_answered_with_an_error() -> None:
    duel = Duel()
    step = duel.host.receive(Message("result", {"winner": "white", "reason": "five"}), duel.t)
    assert step.send[0][0] == "error" and duel.host.state == "waiting"


# --- whatever a peer says, in any order -------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gomoku.core.board import Board  # noqa: E402
from gomoku.net.protocol import MESSAGE_TYPES, decode_payload  # noqa: E402

_coord = st.integers(min_value=0, max_value=14)
_FIELD = {
    "x": _coord, "y": _coord, "ply": st.integers(min_value=0, max_value=8),
    "clock_ms": st.integers(min_value=0, max_value=90_000), "accept": st.booleans(),
    "ready": st.booleans(), "rule": st.sampled_from(["freestyle", "standard", "renju"]),
    "moves": st.lists(st.tuples(_coord, _coord), max_size=8, unique=True),
    "to_move": st.sampled_from(["black", "white"]), "color": st.sampled_from(["black", "white"]),
    "state": st.sampled_from(["waiting", "playing", "over"]), "text": st.text(min_size=1, max_size=8),
    "t": st.integers(min_value=0, max_value=9), "winner": st.sampled_from(["black", "white", None]),
    "reason": st.sampled_from(["five", "resign", "timeout", "disconnect", "full_board", "busy"]),
    "code": st.sampled_from(["illegal_move", "unsupported"]), "message": st.just("no"),
    "session": st.just("abcdefgh12"), "name": st.just("Eve"), "proto": st.sampled_from([1, 2]),
    "app": st.just("gomoku"), "version": st.just("1"), "size": st.just(15),
}
_BOTH = st.fixed_dictionaries({"black": _FIELD["clock_ms"], "white": _FIELD["clock_ms"]})
_RESULT = st.fixed_dictionaries({"winner": _FIELD["winner"], "reason": st.just("five")})
_CLOCK = st.fixed_dictionaries({"move_s": st.just(0), "game_s": st.just(60), "increment_s": st.just(0)})


def _message_of(kind: str) -> st.SearchStrategy[dict]:
    from gomoku.net.protocol import _SPECS

    fields = {}
    for name in _SPECS[kind]:
        if name == "clock_ms" and kind in ("start", "sync"):
            fields[name] = _BOTH
        elif name == "result":
            fields[name] = _RESULT
        elif name == "clock":
            fields[name] = _CLOCK
        else:
            fields[name] = _FIELD[name]
    return st.fixed_dictionaries({"type": st.just(kind), **fields})


# bye and reject end the conversation at once: left out, so the rest gets exercised
_raw = st.sampled_from(sorted(MESSAGE_TYPES - {"bye", "reject"})).flatmap(_message_of)


def _checked(raw: dict) -> Message | None:
    import msgpack

    item = decode_payload(msgpack.packb(raw), 15)
    return item if isinstance(item, Message) else None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.booleans(), _raw, st.floats(min_value=0, max_value=40)), max_size=25))
def test_no_sequence_of_checked_messages_breaks_either_side(script: list[tuple[bool, dict, float]]) -> None:
    duel = Duel(time_control=TimeControl(game_s=60))
    duel.start()
    duel.play((7, 7), (8, 8))
    for to_host, raw, pause in script:
        duel.t += pause
        message = _checked(raw)
        if message is None:
            continue
        match = duel.host if to_host else duel.guest
        step = match.receive(message, duel.t)  # never raises
        for type_, fields in step.send:  # and never asks to send what the encoder refuses
            encode(type_, **fields)
        duel.take("host", duel.host.tick(duel.t))
        duel.take("guest", duel.guest.tick(duel.t))
        for side in (duel.host, duel.guest):  # every board is a legal game
            Board.from_moves(side.game.board.moves, 15, side.rule)
