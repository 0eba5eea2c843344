"""What the network thread tells the UI, and what the UI asks of it: small frozen values.

The bridge (bridge.py) puts `NetEvent`s on its queue; the UI reads them once per frame. Every
text field here has already been checked (bounded length, printable characters only), every
point is on the board and every list is bounded by the board's size.
Points are (x, y): x the column from the left, y the row from the top, 0-based.
"""

from __future__ import annotations

from dataclasses import dataclass

from gomoku.core.clock import TimeControl
from gomoku.core.types import Color, Point, Rule

DEFAULT_PORT = 15515
MAX_NAME_CHARS = 32
MAX_CHAT_CHARS = 200
REQUEST_TIMEOUT_S = 30.0  # an undo or restart request not answered in time counts as refused
SILENCE_LOST_S = 10.0  # no frame for this long: the connection is lost
RECONNECT_WINDOW_S = 180.0  # a lost guest may come back with its session token this long
HELLO_TIMEOUT_S = 5.0  # a connection that sends no valid hello in time is closed
CONNECT_TIMEOUT_S = 5.0  # joining: an unreachable or silent host gives up after this


@dataclass(frozen=True)
class HostOptions:
    """What the host chose in the lobby (or `gomoku serve` on its command line)."""

    name: str
    rule: Rule = Rule.FREESTYLE
    size: int = 15
    time_control: TimeControl = TimeControl()
    host_color: Color | None = None  # None: drawn at random when the guest is welcomed
    port: int = DEFAULT_PORT  # 0 or taken: any free port (the advertised one is authoritative)
    advertise: bool = True


@dataclass(frozen=True)
class ClockMs:
    """Both sides' game time left in milliseconds (0 on both when the game has no game limit)."""

    black: int = 0
    white: int = 0

    def of(self, color: Color) -> int:
        return self.black if color is Color.BLACK else self.white


@dataclass(frozen=True)
class HostInfo:
    """One host found by discovery, from its mDNS record (TXT fields checked)."""

    key: str  # the service instance name: stable while the host is advertised
    name: str
    address: str  # the first resolved address, as text (IPv4 or IPv6)
    port: int
    rule: Rule
    size: int
    state: str  # "open" | "playing"
    version: str
    time_control: TimeControl | None = None  # from our extra TXT key `clock`, if present


@dataclass(frozen=True)
class Result:
    """A game's end as the host declared it."""

    winner: Color | None
    reason: str  # "five" | "resign" | "timeout" | "disconnect" | "full_board"


class NetEvent:
    """Base class of everything the network thread reports."""


@dataclass(frozen=True)
class HostFound(NetEvent):
    host: HostInfo  # also sent again when a known host's record changes (state, rule...)


@dataclass(frozen=True)
class HostLost(NetEvent):
    key: str


@dataclass(frozen=True)
class Hosting(NetEvent):
    """Listening (and advertised when asked): waiting for a guest."""

    address: str  # the address a guest should type (the chosen interface, or this machine's)
    port: int


@dataclass(frozen=True)
class Advertised(NetEvent):
    """Our own hosted game is advertised under `key` (a HostInfo.key equal to it is our own
    game, not one to join; zeroconf may have renamed it "Alice-2"); None once withdrawn."""

    key: str | None


@dataclass(frozen=True)
class Connected(NetEvent):
    """The handshake is done; both sides start un-ready on the position in `position`."""

    role: str  # "host" | "guest"
    my_name: str
    opponent_name: str
    my_color: Color
    rule: Rule
    size: int
    time_control: TimeControl
    session: str  # the reconnect token (the guest keeps it with its autosave)
    address: str  # host's address as the guest reached it (the guest's own view); host: the guest's
    port: int


@dataclass(frozen=True)
class Failed(NetEvent):
    """Hosting or joining did not work; `message` is plain words for the player."""

    message: str


@dataclass(frozen=True)
class ReadyChanged(NetEvent):
    """Someone's ready flag changed (the local one echoes too, once the host knows it)."""

    mine: bool
    theirs: bool


@dataclass(frozen=True)
class PositionSet(NetEvent):
    """The position to show, replacing the UI's whole game: a start, an agreed undo or
    restart, a host's load, or a sync after reconnecting."""

    moves: tuple[Point, ...]
    rule: Rule
    to_move: Color
    clock: ClockMs
    state: str  # "waiting" (un-ready, not started) | "playing" | "over"
    result: Result | None = None
    why: str = "start"  # "start" | "undo" | "restart" | "load" | "sync"
    move_used_s: float = 0.0  # the side to move's time already spent on this move (kept by a sync)


@dataclass(frozen=True)
class Moved(NetEvent):
    """A stone was played (by either side) and accepted; `clock` is both sides' time left."""

    point: Point
    color: Color
    ply: int  # 1-based index of this stone
    clock: ClockMs
    mine: bool


@dataclass(frozen=True)
class MoveRefused(NetEvent):
    """Our own move was refused (by the host, or locally: not our turn, illegal)."""

    point: Point
    message: str


@dataclass(frozen=True)
class RequestReceived(NetEvent):
    """The opponent asks for "undo" or "restart"; answer with NetBridge.reply."""

    kind: str


@dataclass(frozen=True)
class RequestAnswered(NetEvent):
    """The answer to our own request (timed_out: 30 s passed with no answer, refused)."""

    kind: str
    accepted: bool
    timed_out: bool = False


@dataclass(frozen=True)
class GameOver(NetEvent):
    result: Result


@dataclass(frozen=True)
class ChatReceived(NetEvent):
    name: str
    text: str
    mine: bool = False


@dataclass(frozen=True)
class ConnectionLost(NetEvent):
    """The other side went silent or its socket closed mid-session; clocks are paused.

    The guest retries on its own until `deadline_s` (monotonic) and on NetBridge.reconnect.
    """

    deadline_s: float
    role: str


@dataclass(frozen=True)
class Reconnected(NetEvent):
    """The connection is back; a PositionSet(why="sync") follows from the host."""


@dataclass(frozen=True)
class Closed(NetEvent):
    """The session is over for good (bye, reconnect window passed, protocol error, cancel)."""

    message: str
    ours: bool = False  # our own player ended it (cancel, leave): nothing new to tell them


@dataclass(frozen=True)
class Notice(NetEvent):
    """Something the player should read that changes nothing (an unsupported message...)."""

    message: str
    error: bool = False


@dataclass(frozen=True)
class ClockUpdate(NetEvent):
    """Both clocks as the host reckons them (sent with pong-rate, ~1 s, during a game)."""

    clock: ClockMs
    to_move: Color


EVENTS_LIMIT = 10_000  # the UI queue never grows past this (a flood from the net is dropped)
