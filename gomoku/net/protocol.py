"""Frames and messages of the LAN protocol (../shared/protocol.md), with no I/O.

Feed bytes in any split to a FrameDecoder and get checked Message values (or ProtocolError
values) out; `encode` turns one message into one frame. Nothing here touches a socket.

A frame is a 4-byte big-endian length N (1 <= N <= 65536), then N bytes holding one msgpack
map with string keys and a string `type`. What the decoder may report, by `ProtocolError.code`:

Fatal (send `error`, then close; the decoder returns nothing more):
- `bad_length`: a frame length of 0 or over 65536.
- `bad_frame`:  the N bytes are not exactly one msgpack value (truncated, trailing bytes,
  reserved codes, ext types, a string/array/map over the size bounds, non-string map keys).
- `bad_utf8`:   a msgpack string that is not valid UTF-8 (e.g. an encoded lone surrogate).
- `too_deep`:   arrays/maps nested deeper than the contract needs (3: map > moves > [x, y]).
- `not_a_map`:  the value is not a map.
- `no_type`:    the map has no string `type`.
Not fatal (reply `error`, carry on, nothing changes):
- `unsupported`: a `type` this version does not know.
- `bad_message`: a known type with a missing, mistyped or out-of-range field (named).

What is checked per type is the table `_SPECS` below. Optional fields (`hello.session`,
`sync.result`) may be absent or nil; unknown extra fields are dropped. Not checked here:
whether moves make a legal game, whose turn it is, or a plausible clock (match.py's job).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import msgpack

from gomoku.core import inputs
from gomoku.core.types import MAX_SIZE, MIN_SIZE

PROTOCOL_VERSION = 1
MAX_FRAME_BYTES = 65536
HEADER_BYTES = 4
MAX_DEPTH = 3  # the deepest the contract goes: the message map > moves > one [x, y]
MAX_NAME_CHARS = 32
MAX_CHAT_CHARS = 200
MAX_VERSION_CHARS = 32
MAX_CODE_CHARS = 32
MAX_REASON_CHARS = 200
MAX_CLOCK_MS = 2**31 - 1
MAX_PING_T = 2**63 - 1
MAX_CONTROL_S = 86400  # a time-control value: one day is already absurd for one game

# msgpack's own bounds, so a hostile header cannot make it allocate: nothing in the
# contract needs more than a board's worth of points or a few dozen keys.
_UNPACK_LIMITS = dict(
    max_str_len=MAX_FRAME_BYTES,
    max_bin_len=MAX_FRAME_BYTES,
    max_array_len=MAX_SIZE * MAX_SIZE,
    max_map_len=64,
    max_ext_len=0,  # the contract has no ext types
)


@dataclass(frozen=True)
class Message:
    """One checked message: its `type` and only the contract's fields, normalised (the
    decoder's `data` is a read-only mapping; points are tuples, texts cleaned)."""

    type: str
    data: Mapping[str, Any]


@dataclass(frozen=True)
class ProtocolError:
    """What was wrong with what the peer sent; `fatal` means: send `error`, then close."""

    code: str
    message: str
    fatal: bool = False


def clean_text(value: object, max_chars: int) -> str | None:
    """Outside text by the project's one rule (gomoku.core.inputs.clean_text: printable
    characters only, whitespace as a space, stripped), refused when over max_chars rather
    than cut: the wire sets the limits, a longer text is the peer's mistake. None if refused."""
    text = inputs.clean_text(value, 2 * max_chars + 8)  # a margin, so a cut never hides "too long"
    return text if text is not None and len(text) <= max_chars else None


# ---- field checkers: (value, board size) -> normalised value, or raise _Invalid ----

Check = Callable[[Any, int], Any]


class _Invalid(Exception):
    """A field breaks the contract: `path` names it, `expected` says what it must be."""

    def __init__(self, expected: str, path: tuple[str, ...] = ()) -> None:
        super().__init__(expected)
        self.expected = expected
        self.path = path


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(low: int, high: int | Callable[[int], int]) -> Check:
    """An int (not a bool) in low..high; `high` may depend on the board size."""

    def check(value: Any, size: int) -> int:
        top = high(size) if callable(high) else high
        if not _is_int(value) or not low <= value <= top:
            raise _Invalid(f"an int in {low}..{top}")
        return int(value)

    return check


def _bool(value: Any, size: int) -> bool:
    if not isinstance(value, bool):
        raise _Invalid("true or false")
    return value


def _choice(*options: str | None) -> Check:
    def check(value: Any, size: int) -> str | None:
        if not (value is None or isinstance(value, str)) or value not in options:
            raise _Invalid("one of " + ", ".join("nil" if o is None else o for o in options))
        return value

    return check


def _text(max_chars: int) -> Check:
    """Text as clean_text leaves it (chat: control characters removed, then 1..max_chars)."""

    def check(value: Any, size: int) -> str:
        text = clean_text(value, max_chars)
        if text is None:
            raise _Invalid(f"text of 1..{max_chars} printable characters")
        return text

    return check


def _strict_text(max_chars: int) -> Check:
    """Text that must already be printable (names, versions): refused, not silently altered."""
    clean = _text(max_chars)

    def check(value: Any, size: int) -> str:
        if isinstance(value, str) and not value.isprintable():
            raise _Invalid(f"text of 1..{max_chars} printable characters, no control characters")
        return clean(value, size)

    return check


_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")


def _token(value: Any, size: int) -> str:
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise _Invalid("8..64 characters of A-Z a-z 0-9 _ -")
    return value


_coord = _int(0, lambda size: size - 1)


def _moves(value: Any, size: int) -> tuple[tuple[int, int], ...]:
    """A list of at most size^2 distinct [x, y] points on the board, as a tuple of tuples."""
    expected = f"a list of at most {size * size} distinct [x, y] points on a {size}x{size} board"
    if not isinstance(value, (list, tuple)) or len(value) > size * size:
        raise _Invalid(expected)
    points = []
    for point in value:
        if not isinstance(point, (list, tuple)) or len(point) != 2:
            raise _Invalid(expected)
        try:
            points.append((_coord(point[0], size), _coord(point[1], size)))
        except _Invalid:
            raise _Invalid(expected) from None
    if len(set(points)) != len(points):
        raise _Invalid(expected)
    return tuple(points)


def _fields(spec: Mapping[str, Check], optional: frozenset[str], data: Any, size: int) -> dict:
    """Check `data` (a map) against `spec`: every field present unless optional, extras dropped.

    Raises _Invalid naming the first bad field; optional fields absent or nil are left out."""
    if not isinstance(data, Mapping):
        raise _Invalid("a map")
    out = {}
    for name, check in spec.items():
        if data.get(name) is None and name in optional:
            continue
        if name not in data:
            raise _Invalid("present (it is missing)", (name,))
        try:
            out[name] = check(data[name], size)
        except _Invalid as bad:
            raise _Invalid(bad.expected, (name, *bad.path)) from None
    return out


def _map(spec: Mapping[str, Check]) -> Check:
    """A nested map with exactly these required fields (extras dropped), as a plain dict."""
    return lambda value, size: _fields(spec, frozenset(), value, size)


_proto = _int(0, 65535)
_name = _strict_text(MAX_NAME_CHARS)
_color = _choice("black", "white")
_rule = _choice("freestyle", "standard", "renju")
_ply = _int(0, lambda size: size * size)  # a position: the number of stones on the board
_stone_ply = _int(1, lambda size: size * size)  # one stone: its 1-based index in the game
_clock_ms = _int(0, MAX_CLOCK_MS)
_both_clocks = _map({"black": _clock_ms, "white": _clock_ms})
_seconds = _int(0, MAX_CONTROL_S)
_result = {
    "winner": _choice("black", "white", None),
    "reason": _choice("five", "resign", "timeout", "disconnect", "full_board"),
}

# Every message type of the contract and its fields; the one place the checks live.
_SPECS: dict[str, dict[str, Check]] = {
    "hello": {
        "proto": _proto,
        "app": _choice("gomoku"),
        "version": _strict_text(MAX_VERSION_CHARS),
        "name": _name,
        "session": _token,
    },
    "welcome": {
        "proto": _proto,
        "name": _name,
        "session": _token,
        "rule": _rule,
        "size": _int(MIN_SIZE, MAX_SIZE),
        "color": _color,
        "clock": _map({"move_s": _seconds, "game_s": _seconds, "increment_s": _seconds}),
    },
    "reject": {"reason": _choice("busy", "version", "bad_hello")},
    "ready": {"ready": _bool},
    "start": {"moves": _moves, "to_move": _color, "clock_ms": _both_clocks},
    "move": {"x": _coord, "y": _coord, "ply": _stone_ply, "clock_ms": _clock_ms},
    "undo_request": {"ply": _ply},
    "restart_request": {"ply": _ply},
    "undo_reply": {"accept": _bool},
    "restart_reply": {"accept": _bool},
    "resign": {},
    "timeout": {},
    "load": {"moves": _moves, "rule": _rule},
    "chat": {"text": _text(MAX_CHAT_CHARS)},
    "ping": {"t": _int(0, MAX_PING_T)},
    "pong": {"t": _int(0, MAX_PING_T)},
    "sync": {
        "moves": _moves,
        "to_move": _color,
        "clock_ms": _both_clocks,
        "state": _choice("waiting", "playing", "over"),
        "result": _map(_result),
    },
    "result": _result,
    "bye": {"reason": _text(MAX_REASON_CHARS)},
    "error": {"code": _text(MAX_CODE_CHARS), "message": _text(MAX_REASON_CHARS)},
}
_OPTIONAL: dict[str, frozenset[str]] = {
    "hello": frozenset({"session"}),
    "sync": frozenset({"result"}),
}
MESSAGE_TYPES = frozenset(_SPECS)


def _check_message(obj: dict[str, Any], size: int) -> Message | ProtocolError:
    """A map with a string `type` -> a Message, or a non-fatal ProtocolError."""
    kind = obj["type"]
    spec = _SPECS.get(kind)
    if spec is None:
        shown = clean_text(kind, MAX_CODE_CHARS) or "?"
        return ProtocolError("unsupported", f"unknown message type {shown!r}")
    try:
        data = _fields(spec, _OPTIONAL.get(kind, frozenset()), obj, size)
    except _Invalid as bad:
        field = ".".join(bad.path)
        return ProtocolError("bad_message", f"{kind}: field {field!r} must be {bad.expected}")
    return Message(kind, MappingProxyType(data))


def _too_deep(obj: Any) -> bool:
    """True if arrays/maps nest deeper than MAX_DEPTH (iterative: no recursion to exhaust)."""
    stack = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > MAX_DEPTH:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def _fatal(code: str, message: str) -> ProtocolError:
    return ProtocolError(code, message, fatal=True)


def decode_payload(payload: bytes, board_size: int = MAX_SIZE) -> Message | ProtocolError:
    """One frame's payload (without its length) -> a Message or a ProtocolError; never raises."""
    try:
        obj = msgpack.unpackb(payload, raw=False, strict_map_key=True, **_UNPACK_LIMITS)
    except UnicodeDecodeError:
        return _fatal("bad_utf8", "a string is not valid UTF-8")
    except msgpack.ExtraData:
        return _fatal("bad_frame", "a frame holds more than one msgpack value")
    except Exception:  # ValueError, FormatError, StackError, TypeError...: all mean bad bytes
        return _fatal("bad_frame", "a frame is not one well-formed msgpack value within bounds")
    if _too_deep(obj):
        return _fatal("too_deep", f"values nested deeper than {MAX_DEPTH} levels")
    if not isinstance(obj, dict):
        return _fatal("not_a_map", "a frame is not a msgpack map")
    if not all(isinstance(key, str) for key in obj):  # bin keys: strict_map_key lets them by
        return _fatal("bad_frame", "a map key is not a string")
    if not isinstance(obj.get("type"), str):
        return _fatal("no_type", "a message has no string 'type'")
    return _check_message(obj, board_size)


class FrameDecoder:
    """Bytes in, in any split or join -> checked Messages and ProtocolErrors out, in order.

    Never raises on peer bytes. Its buffer holds at most one frame (4 + 65536 bytes). After a
    fatal error it returns [] for ever. Not thread-safe: one reader feeds it."""

    def __init__(self, board_size: int = MAX_SIZE) -> None:
        self.board_size = board_size
        self._buffer = bytearray()
        self._length = 0  # the payload length of the frame being read; 0 while reading a header
        self._failed = False

    @property
    def board_size(self) -> int:
        """Coordinates and move lists are checked against it; set it after the welcome."""
        return self._board_size

    @board_size.setter
    def board_size(self, size: int) -> None:
        if not _is_int(size) or not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"board size must be an int in {MIN_SIZE}..{MAX_SIZE}: {size!r}")
        self._board_size = size

    @property
    def failed(self) -> bool:
        """True after a fatal error: the connection must close."""
        return self._failed

    def feed(self, data: bytes) -> list[Message | ProtocolError]:
        out: list[Message | ProtocolError] = []
        view = memoryview(data)
        while len(view) and not self._failed:
            wanted = self._length or HEADER_BYTES
            take = wanted - len(self._buffer)
            self._buffer += view[:take]  # only what the current header or frame still needs
            view = view[take:]
            if len(self._buffer) < wanted:
                break
            if not self._length:
                length = int.from_bytes(self._buffer, "big")
                self._buffer.clear()
                if not 1 <= length <= MAX_FRAME_BYTES:
                    bad = f"frame length {length} not in 1..{MAX_FRAME_BYTES}"
                    out.append(_fatal("bad_length", bad))
                    self._failed = True
                self._length = length
                continue
            item = decode_payload(bytes(self._buffer), self._board_size)
            self._buffer.clear()
            self._length = 0
            out.append(item)
            self._failed = isinstance(item, ProtocolError) and item.fatal
        if self._failed:
            self._buffer = bytearray()
        return out


def encode(type: str, board_size: int = MAX_SIZE, **fields: Any) -> bytes:
    """One frame for a message. Raises ValueError for an unknown type, an unknown field, or
    anything the decoder would refuse (so our bugs never reach the wire); packs the normalised
    values (lists of tuples are fine; optional fields given as None are left out)."""
    spec = _SPECS.get(type)
    if spec is None:
        raise ValueError(f"unknown message type {type!r}")
    unknown = set(fields) - set(spec)
    if unknown:
        raise ValueError(f"{type}: unknown fields {sorted(unknown)}")
    checked = _check_message({**fields, "type": type}, board_size)
    if isinstance(checked, ProtocolError):
        raise ValueError(checked.message)
    payload = msgpack.packb({"type": type, **checked.data}, use_bin_type=True)
    if len(payload) > MAX_FRAME_BYTES:  # cannot happen within the field bounds; kept as a guard
        raise ValueError(f"{type}: {len(payload)} bytes is over the frame limit")
    return len(payload).to_bytes(HEADER_BYTES, "big") + payload
