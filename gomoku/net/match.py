"""The conversation of a LAN duel, with no I/O: HostMatch and GuestMatch (docs/lan.md).

Both are driven the same way: `receive(message, now)` for a checked Message from the peer,
`local(command, now)` for what the UI asked, `tick(now)` about ten times a second and
`lost(now)` when the session's connection is gone. Each returns a Step: what to send, what to
tell the UI, and whether to close. `now` is monotonic seconds. Not thread-safe: the network
thread alone drives a match. Heartbeats (ping/pong) belong to the session, not here.

The host owns the authoritative core Game: every guest move goes through Game.play; the guest
mirrors the game, checks its own moves before sending them and adopts whatever the host says.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gomoku import __version__
from gomoku.core.board import Board
from gomoku.core.clock import Clock, TimeControl
from gomoku.core.game import Game, PlayerInfo
from gomoku.core.types import Color, IllegalMoveError, Outcome, Point, Reason, Rule
from gomoku.net.events import (
    MAX_CHAT_CHARS,
    MAX_NAME_CHARS,
    RECONNECT_WINDOW_S,
    REQUEST_TIMEOUT_S,
    ChatReceived,
    ClockMs,
    ClockUpdate,
    Closed,
    Connected,
    ConnectionLost,
    Failed,
    GameOver,
    HostOptions,
    Moved,
    MoveRefused,
    NetEvent,
    Notice,
    PositionSet,
    ReadyChanged,
    Reconnected,
    RequestAnswered,
    RequestReceived,
    Result,
)
from gomoku.net.protocol import MAX_REASON_CHARS, PROTOCOL_VERSION, Message, clean_text

LATENCY_S = 0.5  # a guest's clock claim may exceed the host's reckoning by this much
CLOCK_EVENT_S = 1.0  # ClockUpdate events at most this often during a game
REQUEST_KINDS = ("undo", "restart")

Fields = dict[str, Any]


# --- what the UI asks (through the bridge) -------------------------------------------------


@dataclass(frozen=True)
class Ready:
    flag: bool


@dataclass(frozen=True)
class Move:
    x: int
    y: int


@dataclass(frozen=True)
class Request:
    kind: str  # "undo" | "restart"


@dataclass(frozen=True)
class Reply:
    kind: str
    accept: bool


@dataclass(frozen=True)
class Resign:
    pass


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Load:
    moves: tuple[Point, ...]
    rule: Rule


@dataclass(frozen=True)
class Leave:
    # Why, when the host sends an idle guest away (`gomoku serve --idle`): the guest loses a
    # game in progress on time and reads this. Empty: our player left.
    reason: str = ""


Command = Ready | Move | Request | Reply | Resign | Chat | Load | Leave


@dataclass(frozen=True)
class Step:
    """What one call produced: frames to send (in order), events for the UI, and a close
    reason (close the connection after sending) or None."""

    send: list[tuple[str, Fields]] = field(default_factory=list)
    events: list[NetEvent] = field(default_factory=list)
    close: str | None = None


class _Out:
    """A Step under construction."""

    def __init__(self) -> None:
        self.send: list[tuple[str, Fields]] = []
        self.events: list[NetEvent] = []
        self.close: str | None = None

    def msg(self, type_: str, **fields: Any) -> None:
        self.send.append((type_, fields))

    def event(self, event: NetEvent) -> None:
        self.events.append(event)

    def step(self) -> Step:
        return Step(self.send, self.events, self.close)


@dataclass
class _Pending:
    """An undo or restart request waiting for its answer."""

    kind: str
    ply: int  # the position it refers to
    deadline: float


# --- small conversions ---------------------------------------------------------------------


def _color(label: Any) -> Color | None:
    return {"black": Color.BLACK, "white": Color.WHITE}.get(label) if isinstance(label, str) else None


def _rule(label: Any) -> Rule | None:
    try:
        return Rule(label)
    except ValueError:
        return None


def _points(value: Any) -> tuple[Point, ...]:
    return tuple((int(x), int(y)) for x, y in value)


def _wire_moves(moves: Iterable[Point]) -> list[list[int]]:
    return [[x, y] for x, y in moves]


def _result(outcome: Outcome) -> Result:
    return Result(outcome.winner, outcome.reason.value)


def _result_fields(result: Result) -> Fields:
    return {"winner": result.winner.label if result.winner else None, "reason": result.reason}


def _clock_ms(game: Game, now: float) -> ClockMs:
    state = game.clock.snapshot(now)
    return ClockMs(state.black_ms, state.white_ms)


def _remaining_ms(game: Game, color: Color, now: float) -> int:
    left = game.clock.remaining(color, now)
    return 0 if math.isinf(left) else round(left * 1000)


def _new_game(
    moves: Iterable[Point], size: int, rule: Rule, control: TimeControl, names: Mapping[Color, str]
) -> Game:
    """A game on `moves` (raises IllegalMoveError if they are not a legal sequence)."""
    board = Board.from_moves(moves, size, rule)
    return Game(
        board,
        PlayerInfo(names[Color.BLACK], "human"),
        PlayerInfo(names[Color.WHITE], "human"),
        Clock(control, board.to_move),
    )


class _Side:
    """What host and guest share: the game shown, ready flags, requests, clock events."""

    role = ""

    def __init__(self, name: str) -> None:
        printable = "".join(c if c.isprintable() else " " for c in name)  # the wire's rule for names
        self.name = clean_text(printable, MAX_NAME_CHARS) or self.role
        self.opponent = ""
        self.color = Color.BLACK
        self.rule = Rule.FREESTYLE
        self.size = 15
        self.control = TimeControl()
        self.token: str | None = None
        self.start_moves: tuple[Point, ...] = ()  # a loaded position is every game's start
        self.connected = False
        self.lost_deadline: float | None = None
        self.finished = False  # Closed was reported: the match is over for good
        self.state = "waiting"  # "waiting" | "playing" | "over"
        self.result: Result | None = None
        self.ready_mine = False
        self.ready_theirs = False
        self.mine: _Pending | None = None  # our own request
        self.theirs: _Pending | None = None  # the opponent's request
        self.game = self._game(())
        self._clock_event_at = -math.inf

    def _names(self) -> dict[Color, str]:
        return {self.color: self.name, self.color.other: self.opponent}

    def _game(self, moves: Iterable[Point]) -> Game:
        return _new_game(moves, self.size, self.rule, self.control, self._names())

    def _position(self, now: float, why: str) -> PositionSet:
        return PositionSet(
            tuple(self.game.board.moves),
            self.rule,
            self.game.to_move,
            _clock_ms(self.game, now),
            self.state,
            self.result if self.state == "over" else None,
            why,
            self.game.clock.used_in_move(now) if self.state == "playing" else 0.0,
        )

    def _ready_event(self) -> ReadyChanged:
        return ReadyChanged(self.ready_mine, self.ready_theirs)

    def _cancel_mine(self, out: _Out) -> None:
        if self.mine is not None:
            out.event(RequestAnswered(self.mine.kind, False))
            self.mine = None

    def _can_move(self, out: _Out, point: Point) -> bool:
        """Our own move's checks before it goes anywhere; a MoveRefused says why not."""
        reason = None
        if not self.connected:
            reason = "the connection is down"
        elif self.state != "playing":
            reason = "no game in progress"
        elif self.game.to_move is not self.color:
            reason = "it is not your turn"
        else:
            try:
                illegal = self.game.board.check_move(*point)
            except TypeError:
                illegal = None
                reason = "that is not a point"
            if illegal is not None:
                reason = illegal.value
        if reason is not None:
            out.event(MoveRefused(point, reason))
            return False
        return True

    def _undoable(self, asker: Color) -> bool:
        # Never back past a loaded start position: it is where every game begins.
        count = self.game.plies_to_undo(asker)
        return 0 < count <= self.game.board.ply - len(self.start_moves)

    def _ask(self, out: _Out, kind: str, now: float) -> None:
        if kind not in REQUEST_KINDS:
            return
        if not self.connected or self.state != "playing":
            out.event(Notice("there is no game in progress to ask about"))
        elif self.mine is not None:
            out.event(Notice("your last request has not been answered yet"))
        elif kind == "undo" and not self._undoable(self.color):
            out.event(Notice("there is no stone of yours to take back"))
        else:
            ply = self.game.board.ply
            self.mine = _Pending(kind, ply, now + REQUEST_TIMEOUT_S)
            out.msg(f"{kind}_request", ply=ply)

    def _chat(self, out: _Out, text: str) -> None:
        cleaned = clean_text(text, MAX_CHAT_CHARS)
        if cleaned is not None and self.connected:
            out.msg("chat", text=cleaned)
            out.event(ChatReceived(self.name, cleaned, mine=True))

    def _tick_common(self, out: _Out, now: float) -> None:
        if self.mine is not None and now >= self.mine.deadline:
            out.event(RequestAnswered(self.mine.kind, False, timed_out=True))
            self.mine = None
        if self.theirs is not None and now >= self.theirs.deadline:
            self.theirs = None
        if self.state == "playing" and self.connected and now - self._clock_event_at >= CLOCK_EVENT_S:
            self._clock_event_at = now
            out.event(ClockUpdate(_clock_ms(self.game, now), self.game.to_move))

    def stood_still(self, since: float, now: float) -> None:
        """This process did not run from `since` to `now` (a laptop's sleep, a stopped
        process): the other side saw the connection lost, with the clocks stopped, so the
        running clock is not charged for it either."""
        self.game.clock.skip(since, now)

    def lost(self, now: float) -> Step:
        """The connection is gone: clocks paused until RECONNECT_WINDOW_S from now (the host
        keeps the seat for the guest's token; the guest's session retries until then)."""
        out = _Out()
        if not self.connected or self.finished:
            return out.step()
        self.connected = False
        self.game.clock.pause(now)
        if self.lost_deadline is None:  # lost again before the sync: the first window stands
            self.lost_deadline = now + RECONNECT_WINDOW_S
        self._cancel_mine(out)
        self.theirs = None
        out.event(ConnectionLost(self.lost_deadline, self.role))
        return out.step()

    def _game_over(self, out: _Out, result: Result) -> None:
        self.state = "over"
        self.result = result
        self.ready_mine = self.ready_theirs = False
        self._cancel_mine(out)
        self.theirs = None
        out.event(GameOver(result))
        out.event(self._ready_event())


class HostMatch(_Side):
    """The host's side: the authoritative game, the guest's seat, its token and colour.

    `hello` handles a connection's first message; `receive` the rest. The host's colour is
    options.host_color, or drawn with `rng` when the guest is first welcomed.
    """

    role = "host"

    def __init__(self, options: HostOptions, rng: random.Random | None = None) -> None:
        self.options = options
        self.rng = rng if rng is not None else random.Random()
        super().__init__(options.name)
        self.rule = options.rule
        self.size = options.size
        self.control = options.time_control
        self.game = self._game(())

    @property
    def guest_color(self) -> Color:
        return self.color.other

    # --- the handshake -----------------------------------------------------------------

    def hello(self, message: Message, now: float, peer: tuple[str, int] = ("", 0)) -> Step:
        """A connection's checked `hello`: welcome a new guest, take back a lost one with its
        token (welcome + sync), or reject (version, busy: the seat is taken or reserved)."""
        out = _Out()
        data = message.data
        if message.type != "hello":
            out.msg("reject", reason="bad_hello")
            out.close = "bad_hello"
        elif data.get("proto") != PROTOCOL_VERSION:
            out.msg("reject", reason="version")
            out.close = "version"
        elif self.finished:
            out.msg("reject", reason="busy")
            out.close = "busy"
        elif self.token is None:
            self._welcome_new(out, data, now, peer)
        elif data.get("session") == self.token and not self.connected:
            self._welcome_back(out, now)
        else:
            out.msg("reject", reason="busy")
            out.close = "busy"
        return out.step()

    def _welcome_new(self, out: _Out, data: Mapping[str, Any], now: float, peer: tuple[str, int]) -> None:
        self.token = secrets.token_urlsafe(16)
        host_color = self.options.host_color
        self.color = host_color if host_color is not None else self.rng.choice(list(Color))
        self.opponent = clean_text(data.get("name"), MAX_NAME_CHARS) or "guest"
        self.connected = True
        self.ready_mine = self.ready_theirs = False  # both start un-ready, as Connected says
        self.game = self._game(self.start_moves)
        out.msg("welcome", **self._welcome_fields())
        if self.start_moves:
            out.msg("load", moves=_wire_moves(self.start_moves), rule=self.rule.value)
        out.event(
            Connected(
                "host", self.name, self.opponent, self.color, self.rule, self.size,
                self.control, self.token, peer[0], peer[1],
            )
        )
        if self.start_moves:  # Connected shows an empty board: the loaded start replaces it
            out.event(self._position(now, "load"))

    def _welcome_back(self, out: _Out, now: float) -> None:
        self.connected = True
        self.lost_deadline = None
        if self.state == "playing":
            # The side to move's move countdown starts again: the sync carries game times only,
            # so a guest (perhaps a new run of it) could not show what was left of it.
            self.game.clock.switch_to(self.game.to_move, now)
            self.game.clock.resume(now)
        out.msg("welcome", **self._welcome_fields())
        out.msg("sync", **self._sync_fields(now))
        out.event(Reconnected())
        if self.state != "playing":  # between games, both say ready again after a break
            self.ready_mine = self.ready_theirs = False
            out.event(self._ready_event())

    def _welcome_fields(self) -> Fields:
        tc = self.control
        return {
            "proto": PROTOCOL_VERSION,
            "name": self.name,
            "session": self.token,
            "rule": self.rule.value,
            "size": self.size,
            "color": self.guest_color.label,
            "clock": {"move_s": tc.move_s, "game_s": tc.game_s, "increment_s": tc.increment_s},
        }

    def _sync_fields(self, now: float) -> Fields:
        clock = _clock_ms(self.game, now)
        fields: Fields = {
            "moves": _wire_moves(self.game.board.moves),
            "to_move": self.game.to_move.label,
            "clock_ms": {"black": clock.black, "white": clock.white},
            "state": self.state,
        }
        if self.state == "over" and self.result is not None:
            fields["result"] = _result_fields(self.result)
        return fields

    # --- from the guest ----------------------------------------------------------------

    def receive(self, message: Message, now: float) -> Step:
        """One checked message from the connected guest."""
        out = _Out()
        if not self.connected or self.finished:
            return out.step()
        data = message.data
        kind = message.type
        if kind == "ready":
            self.ready_theirs = bool(data.get("ready"))
            out.event(self._ready_event())
            self._maybe_start(out, now)
        elif kind == "move":
            self._guest_move(out, data, now)
        elif kind in ("undo_request", "restart_request"):
            self._their_request(out, kind.removesuffix("_request"), data.get("ply"), now)
        elif kind in ("undo_reply", "restart_reply"):
            self._their_reply(out, kind.removesuffix("_reply"), bool(data.get("accept")), now)
        elif kind == "resign":
            if self.state == "playing":
                self._finish(out, self.game.resign(self.guest_color, now))
        elif kind == "timeout":
            if self.state == "playing" and self.game.to_move is self.guest_color:
                self._finish(out, self.game.timeout(self.guest_color, now))
        elif kind == "chat":
            text = clean_text(data.get("text"), MAX_CHAT_CHARS)
            if text is not None:
                out.event(ChatReceived(self.opponent, text))
        elif kind == "bye":
            if self.state == "playing":
                self._finish(out, self.game.disconnect(self.guest_color, now), tell=False)
            self.finished = True
            self.connected = False
            out.event(Closed(f"{self.opponent} left"))
            out.close = "bye"
        elif kind == "error":
            text = clean_text(data.get("message"), 200) or "an error"
            out.event(Notice(f"{self.opponent}'s game reported: {text}", error=True))
        else:  # welcome, start, sync, load, result, reject, hello: the host's own words
            out.msg("error", code="bad_message", message=f"a guest may not send {kind}")
        return out.step()

    def _refuse(self, out: _Out, why: str, now: float) -> None:
        out.msg("error", code="illegal_move", message=why)
        out.msg("sync", **self._sync_fields(now))

    def _guest_move(self, out: _Out, data: Mapping[str, Any], now: float) -> None:
        if self.state == "playing":
            self._check_flag(out, now)
        if self.state != "playing":
            return self._refuse(out, "no game in progress", now)
        if self.game.to_move is not self.guest_color:
            return self._refuse(out, "it is not your turn", now)
        if data.get("ply") != self.game.board.ply + 1:
            return self._refuse(out, "that move is for another position", now)
        try:
            outcome = self.game.play(data["x"], data["y"], now)
        except (IllegalMoveError, KeyError, TypeError) as error:
            reason = error.reason.value if isinstance(error, IllegalMoveError) else "not a move"
            return self._refuse(out, reason, now)
        if self.control.game_s:
            # The host's reckoning includes the network's delay; the guest's claim may exceed it
            # by LATENCY_S at most.
            claim = data.get("clock_ms")
            reckoned = _remaining_ms(self.game, self.guest_color, now)
            allowed = reckoned + round(LATENCY_S * 1000)
            if isinstance(claim, int) and claim >= 0:
                self.game.clock.set_remaining(self.guest_color, min(claim, allowed) / 1000, now)
        self._moved(out, self.guest_color, mine=False, now=now, outcome=outcome)

    def _moved(self, out: _Out, color: Color, mine: bool, now: float, outcome: Outcome | None) -> None:
        point = self.game.board.moves[-1]
        ply = self.game.board.ply
        if mine:
            out.msg("move", x=point[0], y=point[1], ply=ply,
                    clock_ms=_remaining_ms(self.game, color, now))
        out.event(Moved(point, color, ply, _clock_ms(self.game, now), mine))
        if outcome is not None:
            self._finish(out, outcome)

    def _their_request(self, out: _Out, kind: str, ply: Any, now: float) -> None:
        possible = (
            self.state == "playing"
            and self.theirs is None  # one question at a time: a second one is refused
            and ply == self.game.board.ply
            and (kind == "restart" or self._undoable(self.guest_color))
        )
        if not possible:
            out.msg(f"{kind}_reply", accept=False)
            return
        self.theirs = _Pending(kind, self.game.board.ply, now + REQUEST_TIMEOUT_S)
        out.event(RequestReceived(kind))

    def _their_reply(self, out: _Out, kind: str, accept: bool, now: float) -> None:
        mine = self.mine
        if mine is None or mine.kind != kind:
            if accept:  # a late answer: the guest may have started to expect a change
                out.msg("sync", **self._sync_fields(now))
            return
        self.mine = None
        applied = accept and self._apply(kind, self.color, mine.ply, now)
        out.event(RequestAnswered(kind, applied))
        if accept:
            out.msg("sync", **self._sync_fields(now))
        if applied:
            out.event(self._position(now, kind))

    def _apply(self, kind: str, asker: Color, ply: int, now: float) -> bool:
        """Carry out an agreed request if the position is still the one it referred to."""
        if self.state != "playing" or self.game.board.ply != ply:
            return False
        if kind == "undo":
            if not self._undoable(asker):
                return False
            self.game.undo(asker, now)
        else:
            self._start_game(now)
        return True

    # --- the UI's commands -------------------------------------------------------------

    def local(self, command: Command, now: float) -> Step:
        """One command of the host's player; refusals come back as events, never raised."""
        out = _Out()
        if self.finished:
            return out.step()
        if isinstance(command, Ready):
            if self.state != "playing":
                self.ready_mine = bool(command.flag)
                if self.connected:
                    out.msg("ready", ready=self.ready_mine)
                out.event(self._ready_event())
                self._maybe_start(out, now)
        elif isinstance(command, Move):
            point = (command.x, command.y)
            if self.state == "playing":
                self._check_flag(out, now)
            if self._can_move(out, point):
                outcome = self.game.play(command.x, command.y, now)
                self._moved(out, self.color, mine=True, now=now, outcome=outcome)
        elif isinstance(command, Request):
            self._ask(out, command.kind, now)
        elif isinstance(command, Reply):
            theirs = self.theirs
            if theirs is None or theirs.kind != command.kind:
                return out.step()
            self.theirs = None
            applied = command.accept and self._apply(theirs.kind, self.guest_color, theirs.ply, now)
            out.msg(f"{theirs.kind}_reply", accept=applied)
            if applied:
                out.msg("sync", **self._sync_fields(now))
                out.event(self._position(now, theirs.kind))
        elif isinstance(command, Resign):
            if self.state == "playing":
                self._finish(out, self.game.resign(self.color, now))
        elif isinstance(command, Chat):
            self._chat(out, command.text)
        elif isinstance(command, Load):
            self._load(out, command, now)
        elif isinstance(command, Leave):
            if self.state == "playing" and self.connected:
                if command.reason:  # an idle guest sent away loses on time
                    self._finish(out, self.game.timeout(self.guest_color, now))
                else:
                    self._finish(out, self.game.disconnect(self.color, now))
            if self.connected:
                out.msg("bye", reason=command.reason or "the host left")
            self.finished = True
            self.connected = False
            out.event(Closed("you left", ours=True))
            out.close = "left"
        return out.step()

    def _load(self, out: _Out, command: Load, now: float) -> None:
        if self.state == "playing":
            out.event(Notice("a position can be loaded only between games", error=True))
            return
        try:
            board = Board.from_moves(command.moves, self.size, command.rule)
        except (IllegalMoveError, TypeError, ValueError) as error:
            out.event(Notice(f"that position cannot be played: {error}", error=True))
            return
        if board.is_game_over():
            out.event(Notice("that position is already decided", error=True))
            return
        self.rule = command.rule
        self.start_moves = tuple(board.moves)
        self.game = self._game(self.start_moves)
        self.state = "waiting"
        self.result = None
        self.ready_mine = self.ready_theirs = False
        if self.connected:
            out.msg("load", moves=_wire_moves(self.start_moves), rule=self.rule.value)
        out.event(self._position(now, "load"))
        out.event(self._ready_event())

    # --- games -------------------------------------------------------------------------

    def _maybe_start(self, out: _Out, now: float) -> None:
        if self.ready_mine and self.ready_theirs and self.connected and self.state != "playing":
            self._start_game(now)
            clock = _clock_ms(self.game, now)
            out.msg(
                "start",
                moves=_wire_moves(self.game.board.moves),
                to_move=self.game.to_move.label,
                clock_ms={"black": clock.black, "white": clock.white},
            )
            out.event(self._position(now, "start"))

    def _start_game(self, now: float) -> None:
        self.game = self._game(self.start_moves)
        self.game.start(now)
        self.state = "playing"
        self.result = None
        self._clock_event_at = now

    def _check_flag(self, out: _Out, now: float) -> None:
        """End the game if the side to move is out of time (the guest gets LATENCY_S more)."""
        if self.state != "playing" or not self.connected:
            return
        mover = self.game.to_move
        at = now - LATENCY_S if mover is self.guest_color else now
        if self.game.clock.flagged(at) is not None:
            self._finish(out, self.game.timeout(mover, now))

    def _finish(self, out: _Out, outcome: Outcome, tell: bool = True) -> None:
        result = _result(outcome)
        if tell and self.connected:
            out.msg("result", **_result_fields(result))
        self._game_over(out, result)

    def tick(self, now: float) -> Step:
        """Clocks (the host flags either side's time), request time-outs, the reconnect window."""
        out = _Out()
        if self.finished:
            return out.step()
        self._check_flag(out, now)
        self._tick_common(out, now)
        if self.lost_deadline is not None and now >= self.lost_deadline:
            self.lost_deadline = None
            if self.state == "playing":
                self._finish(out, self.game.disconnect(self.guest_color, now), tell=False)
            self.finished = True
            out.event(Closed(f"{self.opponent} did not come back"))
            out.close = "reconnect window passed"
        return out.step()


class GuestMatch(_Side):
    """The guest's side: a mirror of the host's game, adopted from start, move, sync, result.

    `session` is a token from an earlier connection (e.g. kept with the autosave): the first
    welcome then brings Connected and the host's sync.
    """

    role = "guest"

    def __init__(self, name: str, session: str | None = None) -> None:
        super().__init__(name)
        self.token = session  # a token kept from an earlier run: the host then sends a sync
        self._welcomed = False
        self.address = ""
        self.port = 0
        self._expect: str | None = None  # the why of the next sync (an agreed undo/restart)
        self._sent: Point | None = None  # our last move, until the host takes or refuses it
        self._sent_turn = (0.0, 0.0)  # (seconds our turn had used, when) as we sent it
        self._refused_turn: tuple[float, float] | None = None  # that, once the host refused it
        self._flag_sent = False
        self._resync = False  # welcomed back: nothing is played until the host's sync arrives

    def hello(self, now: float, address: str = "", port: int = 0) -> Step:
        """The first frame of a connection (with our token when we come back)."""
        out = _Out()
        self.address, self.port = address, port
        fields: Fields = {
            "proto": PROTOCOL_VERSION, "app": "gomoku", "version": __version__, "name": self.name,
        }
        if self.token is not None:
            fields["session"] = self.token
        out.msg("hello", **fields)
        return out.step()

    # --- from the host -----------------------------------------------------------------

    def receive(self, message: Message, now: float) -> Step:
        """One checked message from the host."""
        out = _Out()
        if self.finished:
            return out.step()
        data = message.data
        kind = message.type
        if kind == "welcome":
            self._welcome(out, data, now)
        elif kind == "reject":
            self._rejected(out, data.get("reason"))
        elif not self.connected:
            pass  # nothing counts before the welcome
        elif kind == "ready":
            self.ready_theirs = bool(data.get("ready"))
            out.event(self._ready_event())
        elif kind in ("start", "sync"):
            self._adopt(out, kind, data, now)
        elif kind == "move":
            self._host_move(out, data, now)
        elif kind == "result":
            winner = _color(data.get("winner"))
            reason = data.get("reason")
            if reason in {r.value for r in Reason}:
                self._game_over(out, Result(winner, reason))
        elif kind == "load":
            self._load(out, data, now)
        elif kind in ("undo_request", "restart_request"):
            req = kind.removesuffix("_request")
            if (
                self.state == "playing"
                and self.theirs is None  # one question at a time: a second one is refused
                and data.get("ply") == self.game.board.ply
            ):
                self.theirs = _Pending(req, self.game.board.ply, now + REQUEST_TIMEOUT_S)
                out.event(RequestReceived(req))
            else:
                out.msg(f"{req}_reply", accept=False)
        elif kind in ("undo_reply", "restart_reply"):
            req = kind.removesuffix("_reply")
            if self.mine is not None and self.mine.kind == req:
                self.mine = None
                accepted = bool(data.get("accept"))
                out.event(RequestAnswered(req, accepted))
                if accepted:
                    self._expect = req
        elif kind == "chat":
            text = clean_text(data.get("text"), MAX_CHAT_CHARS)
            if text is not None:
                out.event(ChatReceived(self.opponent, text))
        elif kind == "bye":
            self.finished = True
            self.connected = False
            reason = clean_text(data.get("reason"), MAX_REASON_CHARS) or ""
            said = "" if reason in ("", "the host left") else f": {reason}"
            out.event(Closed(f"{self.opponent} left{said}"))
            out.close = "bye"
        elif kind == "error":
            text = clean_text(data.get("message"), 200) or "refused"
            if data.get("code") == "illegal_move" and self._sent is not None:
                out.event(MoveRefused(self._sent, text))  # the host's sync follows
                self._sent = None
                self._refused_turn = self._sent_turn
            else:
                out.event(Notice(f"{self.opponent}'s game reported: {text}", error=True))
        # resign / timeout from the host: its `result` is the word that counts
        return out.step()

    def _welcome(self, out: _Out, data: Mapping[str, Any], now: float) -> None:
        if self._welcomed and data.get("session") == self.token:
            # Back only with the host's sync: a move played before it would be wiped by it on
            # our screen while the host keeps it. The reconnect window still runs until then.
            self.connected = True
            self._resync = True
            self._refused_turn = None  # after a break the host restarts the move countdown
            return
        color, rule = _color(data.get("color")), _rule(data.get("rule"))
        clock = data.get("clock") or {}
        size = data.get("size")
        try:
            control = TimeControl(clock.get("game_s", 0), clock.get("increment_s", 0), clock.get("move_s", 0))
            board_ok = isinstance(size, int) and 15 <= size <= 20
        except (ValueError, AttributeError):
            board_ok = False
        if color is None or rule is None or not board_ok or not isinstance(data.get("session"), str):
            out.event(Failed("the host's answer did not make sense"))
            out.close = "bad welcome"
            self.finished = True
            return
        self.token = data["session"]
        self._welcomed = True
        self.color, self.rule, self.size, self.control = color, rule, size, control
        self.opponent = clean_text(data.get("name"), MAX_NAME_CHARS) or "host"
        self.connected = True
        self.state = "waiting"
        self.game = self._game(())
        out.event(
            Connected(
                "guest", self.name, self.opponent, self.color, self.rule, self.size,
                self.control, self.token, self.address, self.port,
            )
        )

    def _rejected(self, out: _Out, reason: Any) -> None:
        words = {
            "busy": "the host is already playing someone else",
            "version": "the host runs another version of the game",
            "bad_hello": "the host did not understand our greeting",
        }.get(reason, "the host refused the connection")
        self.finished = True
        self.connected = False
        out.event(Closed(words) if self._welcomed else Failed(words))
        out.close = "rejected"

    def _adopt(self, out: _Out, kind: str, data: Mapping[str, Any], now: float) -> None:
        """Take the host's position (start or sync) as it is."""
        try:
            game = self._game(_points(data.get("moves", ())))
        except (IllegalMoveError, TypeError, ValueError):
            out.event(Notice("the host sent a position that cannot be shown", error=True))
            return
        state = "playing" if kind == "start" else data.get("state")
        if state not in ("waiting", "playing", "over"):
            return
        if self._resync:
            self._resync = False
            self.lost_deadline = None
            out.event(Reconnected())
        self.game = game
        clock = data.get("clock_ms") or {}
        for color in Color:
            ms = clock.get(color.label)
            if isinstance(ms, int) and ms >= 0:
                game.clock.set_remaining(color, ms / 1000, now)
        self.state = state
        self._sent = None
        self._flag_sent = False
        refused, self._refused_turn = self._refused_turn, None
        if state == "playing":
            game.start(now)
            self._clock_event_at = now
            if kind == "sync" and refused is not None and game.to_move is self.color:
                # Our move was refused: our turn goes on as the host counts it, not from 0.
                used, at = refused
                game.clock.continue_move(used + max(0.0, now - at), now)
        result = data.get("result")
        if state == "over" and isinstance(result, Mapping):
            self.result = Result(_color(result.get("winner")), str(result.get("reason", "")))
        why = "start" if kind == "start" else (self._expect or "sync")
        self._expect = None
        out.event(self._position(now, why))
        if state != "playing" and (self.ready_mine or self.ready_theirs):
            self.ready_mine = self.ready_theirs = False  # the host's flags were reset too
            out.event(self._ready_event())

    def _host_move(self, out: _Out, data: Mapping[str, Any], now: float) -> None:
        if self.state != "playing" or self.game.to_move is self.color:
            return  # out of step: the host's next sync realigns us
        if data.get("ply") != self.game.board.ply + 1:
            return
        try:
            self.game.play(data["x"], data["y"], now)
        except (IllegalMoveError, KeyError, TypeError):
            return
        mover = self.color.other
        claim = data.get("clock_ms")
        if self.control.game_s and isinstance(claim, int) and claim >= 0:
            self.game.clock.set_remaining(mover, claim / 1000, now)
        self._sent = None
        out.event(Moved(self.game.board.moves[-1], mover, self.game.board.ply,
                        _clock_ms(self.game, now), mine=False))

    def _load(self, out: _Out, data: Mapping[str, Any], now: float) -> None:
        rule = _rule(data.get("rule"))
        if rule is None:
            return
        old_rule = self.rule
        self.rule = rule
        try:
            moves = _points(data.get("moves", ()))
            self.game = self._game(moves)
        except (IllegalMoveError, TypeError, ValueError):
            self.rule = old_rule
            out.event(Notice("the host loaded a position that cannot be shown", error=True))
            return
        self.start_moves = moves
        self.state = "waiting"
        self.result = None
        self.ready_mine = self.ready_theirs = False
        out.event(self._position(now, "load"))
        out.event(self._ready_event())

    # --- the UI's commands -------------------------------------------------------------

    def local(self, command: Command, now: float) -> Step:
        """One command of the guest's player; refusals come back as events, never raised."""
        out = _Out()
        if self.finished:
            return out.step()
        if isinstance(command, Ready):
            if self.state != "playing" and self.connected:
                self.ready_mine = bool(command.flag)
                out.msg("ready", ready=self.ready_mine)
                out.event(self._ready_event())
        elif isinstance(command, Move):
            point = (command.x, command.y)
            if self._resync:
                out.event(MoveRefused(point, "the game is coming back; try again in a moment"))
            elif self._flagged(now):
                out.event(MoveRefused(point, "your time is up"))
            elif self._can_move(out, point):
                self._sent_turn = (self.game.clock.used_in_move(now), now)
                self.game.play(command.x, command.y, now)
                ply = self.game.board.ply
                out.msg("move", x=command.x, y=command.y, ply=ply,
                        clock_ms=_remaining_ms(self.game, self.color, now))
                self._sent = point
                out.event(Moved(point, self.color, ply, _clock_ms(self.game, now), mine=True))
        elif isinstance(command, Request):
            self._ask(out, command.kind, now)
        elif isinstance(command, Reply):
            theirs = self.theirs
            if theirs is not None and theirs.kind == command.kind and self.connected:
                self.theirs = None
                out.msg(f"{theirs.kind}_reply", accept=bool(command.accept))
                if command.accept:
                    self._expect = theirs.kind  # the host's sync follows
        elif isinstance(command, Resign):
            if self.state == "playing" and self.connected:
                out.msg("resign")  # the host's result ends the game on both screens
        elif isinstance(command, Chat):
            self._chat(out, command.text)
        elif isinstance(command, Load):
            out.event(Notice("only the host can load a position", error=True))
        elif isinstance(command, Leave):
            if self.connected:
                out.msg("bye", reason="the guest left")
            self.finished = True
            self.connected = False
            out.event(Closed("you left", ours=True))
            out.close = "left"
        return out.step()

    def _flagged(self, now: float) -> bool:
        return (
            self.state == "playing"
            and self.game.to_move is self.color
            and self.game.clock.flagged(now) is self.color
        )

    def tick(self, now: float) -> Step:
        """Our own flag (tell the host once), request time-outs, the reconnect window."""
        out = _Out()
        if self.finished:
            return out.step()
        if self.connected and not self._flag_sent and self._flagged(now):
            self._flag_sent = True
            out.msg("timeout")
        self._tick_common(out, now)
        if self.lost_deadline is not None and now >= self.lost_deadline:
            self.lost_deadline = None
            self.finished = True
            out.event(Closed(f"could not reach {self.opponent} again"))
            out.close = "reconnect window passed"
        return out.step()

