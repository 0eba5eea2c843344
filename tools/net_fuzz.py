"""Throws malformed and random frames at a LIVE LAN host on 127.0.0.1 and checks it survives.

A real NetBridge hosts a game (HostOptions(name="Fuzz", port=0), not advertised) on its own
thread, as the game does; this script talks to it over raw sockets only, on loopback only.
What it sends, in any split (random chunk sizes, several frames a write, frames cut across
writes), over many connections:
- random bytes; a valid length then random msgpack values; lengths 0, 65537 and 2**32-1;
  truncated frames then silence; maps without `type`; unknown types; msgpack tricks (ext
  types, trailing bytes, lying counts, duplicate and non-string keys, deep nesting);
- known types with wrong fields: valid messages from `protocol.encode`, mutated (fields
  dropped, retyped, out of range, huge strings, deep nesting, NUL / control / lone-surrogate
  text, bad UTF-8, off-board and oversized move lists);
- after a valid hello (the fuzzer holds the guest's seat and comes back with its session
  token whenever a fatal frame closes the connection), sometimes in the hello's own write:
  floods of moves out of turn and illegal, pings, chat, requests, hellos; a second connection
  meanwhile gets `reject busy`; our token on a second connection takes the seat over;
- once each: the seat silent mid-frame, a seat that never reads, 12 silent connections at once.
The host cuts a link that sends over 500 frames in a second, so a connection carries at most
FRAME_BUDGET frames (floods past the limit are sent on purpose, and must get `error flood`).
The host's own player readies and answers moves at random, so games start, end and restart.

Checks and figures: frames sent; error frames answered (by code); crashes (goal 0: the bridge's
thread died, an exception escaped into asyncio's or threading's hooks, the host's session
ended); hangs (goal 0: no pong to a probe ping, or no close after a fatal frame, within
HANG_S); answers missing (fewer errors than protocol errors sent); and whether the host still
serves a clean guest afterwards: a fresh NetBridge joins (with the seat's session token: the
contract keeps a lost guest's seat 3 minutes), gets Connected, both ready, a move each way.

`nice .venv/bin/python tools/net_fuzz.py [--frames 1000000] [--seed 1] [--quick]`
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import queue
import random
import resource
import select
import socket
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from gomoku.core.types import Color
from gomoku.net.bridge import NetBridge
from gomoku.net.events import (
    Closed,
    Connected,
    Failed,
    GameOver,
    Hosting,
    HostOptions,
    Moved,
    MoveRefused,
    NetEvent,
    PositionSet,
    ReadyChanged,
    Reconnected,
)
from gomoku.net.protocol import (
    MAX_FRAME_BYTES,
    MESSAGE_TYPES,
    FrameDecoder,
    Message,
    ProtocolError,
    decode_payload,
    encode,
)
from gomoku.net.session import Timing

LOOPBACK = "127.0.0.1"  # the only address this script ever binds or connects to
SIZE = 15  # the host's board (HostOptions' default)
HANG_S = 10.0  # an answer (pong, close, welcome) later than this is a hang
FULL_FRAMES = 1_000_000
QUICK_FRAMES = 20_000
PROBE_T0 = 1 << 50  # our probe pings' t values start here; fuzz pings stay below
MAX_SILENT = 4  # silent pre-hello connections at once (the host keeps 8 handshakes at most)
# The host cuts a link that sends over 500 frames in a second (a flood): a connection carries at
# most this many frames, then a new one goes on (the seat comes back with its token)...
FRAME_BUDGET = 400
FLOOD_FRAMES = (600, 1000, 3000)  # ...except the floods sent on purpose: `error flood`, close
NON_READER_ROUNDS = 3  # seconds of a seat that never reads (the kernel's buffers absorb more)
NOTES_KEPT = 20
# --quick (and the test): the host's hello and silence limits shortened, so the scenarios that
# wait for them take seconds; the full run keeps the contract's 5 s and 10 s.
QUICK_TIMING = Timing(hello_timeout_s=1.0, silence_s=2.0)


# ---- msgpack by hand where msgpack refuses: bad UTF-8, lying counts, odd keys ---------------


class Raw(bytes):
    """Bytes put into a payload as they are (a bad string, an ext type, a reserved code)."""


@dataclass(frozen=True)
class Pairs:
    """A map written pair by pair: duplicate or unhashable keys, and a count that may lie."""

    items: tuple[tuple[Any, Any], ...]
    count: int | None = None


def _header(length: int, small: int, small_max: int, codes: tuple[int, ...]) -> bytes:
    if length <= small_max:
        return bytes([small | length])
    for code, width in zip(codes, (1, 2, 4)[-len(codes):], strict=True):
        if length < 1 << (8 * width):
            return bytes([code]) + length.to_bytes(width, "big")
    raise ValueError(length)


def raw_str(data: bytes) -> Raw:
    """A msgpack str whose bytes are `data`, UTF-8 or not."""
    return Raw(_header(len(data), 0xA0, 31, (0xD9, 0xDA, 0xDB)) + data)


def pack(obj: Any) -> bytes:
    """msgpack for fuzz values: Raw and Pairs as they say, containers walked, leaves by msgpack."""
    if isinstance(obj, Raw):
        return bytes(obj)
    if isinstance(obj, (dict, Pairs)):
        items = tuple(obj.items()) if isinstance(obj, dict) else obj.items
        count = len(items) if isinstance(obj, dict) or obj.count is None else obj.count
        head = _header(count, 0x80, 15, (0xDE, 0xDF))
        return head + b"".join(pack(k) + pack(v) for k, v in items)
    if isinstance(obj, (list, tuple)):
        return _header(len(obj), 0x90, 15, (0xDC, 0xDD)) + b"".join(pack(v) for v in obj)
    return msgpack.packb(obj, use_bin_type=True)


def frame(payload: bytes, length: int | None = None) -> bytes:
    """A length header (the payload's own unless told) and the payload."""
    size = len(payload) if length is None else length
    return (size & 0xFFFFFFFF).to_bytes(4, "big") + payload


# ---- fuzz values ------------------------------------------------------------------------------

EDGE_INTS = (0, 1, -1, 14, 15, 16, 19, 20, 224, 225, 226, 255, 256, 65535, 65536, 86401,
             2**31 - 1, 2**31, 2**32, 2**53, 2**63 - 1, 2**63, 2**64 - 1, -(2**31), -(2**63))
NASTY_TEXTS = ("", " ", "\t", "\n\n", "\x00", "a\x00b", "Fuzz\x00", "\x1b[2J\x1b[H", "\x07bell",
               "\u202eevil", "\u200b", "\ufeff", "\u2028", "\x7f", "\u0085", "é", "名前", "😀😀",
               "a" * 33, "hello", "move", "ping", "black", "white", "renju", "five", "busy",
               "null", "None", "-1", "%s%n", "../../etc/passwd", "'; DROP TABLE", "x" * 200)
BAD_UTF8 = (b"\xed\xa0\x80", b"\xed\xbf\xbf", b"a\xed\xa0\x80b", b"\xff", b"\xfe\xff",
            b"\xc0\xaf", b"\xe2\x82", b"\xf4\x90\x80\x80", b"\x80", b"ok\xc3")
TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


def rand_int(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.5:
        return rng.choice(EDGE_INTS)
    if r < 0.85:
        return rng.randint(-20, 300)
    return rng.randint(-(2**63), 2**64 - 1)


def rand_text(rng: random.Random, long: bool = True) -> str:
    r = rng.random()
    if r < 0.35:
        return rng.choice(NASTY_TEXTS)
    if r < 0.65:
        return "".join(rng.choice(TOKEN_CHARS + " .!?") for _ in range(rng.randint(0, 40)))
    if r < 0.9 or not long:
        points = [rng.randint(0, 0xD7FF) if rng.random() < 0.8 else rng.randint(0xE000, 0x10FFFF)
                  for _ in range(rng.randint(0, 24))]
        return "".join(map(chr, points))
    return rng.choice("xé名😀\x00") * rng.choice((33, 201, 1000, 5000))


def bad_text(rng: random.Random) -> Raw:
    """A str whose bytes are not UTF-8 (lone surrogates, overlongs, cut sequences)."""
    return raw_str(rng.choice(BAD_UTF8))


def rand_leaf(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.1:
        return None
    if r < 0.2:
        return rng.random() < 0.5
    if r < 0.45:
        return rand_int(rng)
    if r < 0.55:
        return rng.choice((0.0, -0.0, 1.5, -1.0, 1e308, float("inf"), float("nan"), 7.0))
    if r < 0.85:
        return rand_text(rng)
    if r < 0.95:
        return rng.randbytes(rng.randint(0, 40))
    return bad_text(rng)


def rand_value(rng: random.Random, depth: int = 0) -> Any:
    """Any msgpack value, nested up to 5 deep (so often deeper than the contract's 3)."""
    r = rng.random()
    if depth < 5 and r < 0.15:
        return [rand_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    if depth < 5 and r < 0.3:
        return Pairs(tuple((rand_key(rng), rand_value(rng, depth + 1))
                           for _ in range(rng.randint(0, 5))))
    return rand_leaf(rng)


def rand_key(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.3:
        return rng.choice(("type", "x", "y", "ply", "name", "moves", "t", "text"))
    if r < 0.75:
        return rand_text(rng, long=False)
    if r < 0.85:
        return rand_int(rng)
    if r < 0.9:
        return rng.randbytes(rng.randint(0, 6))
    if r < 0.95:
        return None
    return [1, 2]


def nest(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


# ---- valid messages (from protocol.encode) and their mutations -----------------------------

def _point(rng: random.Random) -> list[int]:
    return [rng.randrange(SIZE), rng.randrange(SIZE)]


def _moves(rng: random.Random) -> list[list[int]]:
    cells = rng.sample(range(SIZE * SIZE), rng.choice((0, 1, 2, 5, 12, 40)))
    return [[c % SIZE, c // SIZE] for c in cells]


def _clock(rng: random.Random) -> dict[str, int]:
    return {"black": rng.randint(0, 600_000), "white": rng.randint(0, 600_000)}


def _color(rng: random.Random) -> str:
    return rng.choice(("black", "white"))


def _token(rng: random.Random) -> str:
    return "".join(rng.choice(TOKEN_CHARS) for _ in range(rng.randint(8, 64)))


VALID: dict[str, Callable[[random.Random], dict[str, Any]]] = {
    "hello": lambda r: {"proto": 1, "app": "gomoku", "version": "0.1.0", "name": "Fuzzer",
                        **({"session": _token(r)} if r.random() < 0.3 else {})},
    "welcome": lambda r: {"proto": 1, "name": "Host", "session": _token(r), "rule": "renju",
                          "size": SIZE, "color": _color(r),
                          "clock": {"move_s": 30, "game_s": 600, "increment_s": 5}},
    "reject": lambda r: {"reason": r.choice(("busy", "version", "bad_hello"))},
    "ready": lambda r: {"ready": r.random() < 0.7},
    "start": lambda r: {"moves": _moves(r), "to_move": _color(r), "clock_ms": _clock(r)},
    "move": lambda r: {"x": r.randrange(SIZE), "y": r.randrange(SIZE), "ply": r.randint(1, 30),
                       "clock_ms": r.randint(0, 600_000)},
    "undo_request": lambda r: {"ply": r.randint(0, 30)},
    "restart_request": lambda r: {"ply": r.randint(0, 30)},
    "undo_reply": lambda r: {"accept": r.random() < 0.5},
    "restart_reply": lambda r: {"accept": r.random() < 0.5},
    "resign": lambda r: {},
    "timeout": lambda r: {},
    "load": lambda r: {"moves": _moves(r), "rule": r.choice(("freestyle", "standard", "renju"))},
    "chat": lambda r: {"text": r.choice(("gg", "hi", "nice move", "é名😀", "x" * 200))},
    "ping": lambda r: {"t": r.randint(0, PROBE_T0 - 1)},
    "pong": lambda r: {"t": r.randint(0, 2**40)},
    "sync": lambda r: {"moves": _moves(r), "to_move": _color(r), "clock_ms": _clock(r),
                       "state": r.choice(("waiting", "playing", "over")),
                       **({"result": {"winner": None, "reason": "resign"}} if r.random() < 0.5
                          else {})},
    "result": lambda r: {"winner": r.choice(("black", "white", None)),
                         "reason": r.choice(("five", "resign", "timeout", "disconnect"))},
    "bye": lambda r: {"reason": "fuzz"},
    "error": lambda r: {"code": "fuzz", "message": "a fuzzer's error"},
}
assert set(VALID) == MESSAGE_TYPES, "a message type without a valid-message maker"


def valid_message(rng: random.Random, kind: str | None = None) -> dict[str, Any]:
    """A valid message as a map, by way of protocol.encode (so the decoder would accept it)."""
    kind = kind or rng.choice(sorted(MESSAGE_TYPES))
    wire = encode(kind, SIZE, **VALID[kind](rng))
    return msgpack.unpackb(wire[4:], raw=False)


def bad_moves(rng: random.Random) -> Any:
    choice = rng.randrange(7)
    if choice == 0:
        return [[c % SIZE, c // SIZE] for c in range(SIZE * SIZE + 1)]  # one more than the board
    if choice == 1:
        return [[3, 3], [3, 3]]  # a repeated point
    if choice == 2:
        return [[rand_int(rng), rand_int(rng)] for _ in range(rng.randint(1, 4))]
    if choice == 3:
        return [[1, 2, 3]]
    if choice == 4:
        return [_point(rng) + [[1]]]
    if choice == 5:
        return [[1.0, 2.0]]
    return {"x": 1, "y": 2}


def mutate(rng: random.Random, obj: dict[str, Any]) -> Any:
    """One to three mutations of a valid message map (the result may still be valid)."""
    out: dict[Any, Any] = dict(obj)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        keys = [k for k in out if k != "type"] or ["type"]
        key = rng.choice(keys)
        op = rng.randrange(14)
        if op == 0:
            out.pop(key, None)  # a field missing
        elif op == 1:
            out[key] = rand_value(rng)  # retyped
        elif op == 2:
            out[key] = rng.choice(EDGE_INTS + (True, False, 1.5, None, "1", [1]))  # out of range
        elif op == 3:
            length = rng.choice((33, 201)) if rng.random() < 0.9 else rng.choice((4000, 21000, 60000))
            out[key] = rng.choice("xé名\x00") * length  # a huge string (the biggest: over a frame)
        elif op == 4:
            out[key] = nest(out.get(key), rng.choice((1, 2, 3, 8, 50)))  # deep nesting
        elif op == 5:
            out[key] = rng.choice(NASTY_TEXTS)  # NUL, controls, format characters, empty
        elif op == 6:
            out[key] = bad_text(rng)  # lone surrogate / bad UTF-8
        elif op == 7:
            out[rand_text(rng, long=False)] = rand_value(rng)  # an extra field
        elif op == 8:
            out["type"] = rng.choice((*sorted(MESSAGE_TYPES), "HELLO", "Move", "", "move ",
                                      "mov\x00e", 7, None, True, b"hello", [1], raw_str(b"\xff")))
        elif op == 9:
            out[key] = bad_moves(rng)
        elif op == 10:
            out[key] = {"black": rand_leaf(rng)} if rng.random() < 0.5 else Pairs(
                (("black", 1), ("white", 2), ("white", -3)))
        elif op == 11:
            out.pop("type", None)  # no type
        elif op == 12:
            out[key] = rand_text(rng)
        else:
            out[key] = -1 if rng.random() < 0.5 else SIZE  # just off the board / range
    return out


# ---- frame generators: each gives one frame's bytes --------------------------------------------

def gen_random_bytes(rng: random.Random) -> bytes:
    return rng.randbytes(rng.choice((1, 3, 4, 5, 8, 16, 64, 300)))


def gen_random_msgpack(rng: random.Random) -> bytes:
    return frame(pack(rand_value(rng)))


def gen_bad_length(rng: random.Random) -> bytes:
    length = rng.choice((0, 0, MAX_FRAME_BYTES + 1, 2**32 - 1, rng.randint(MAX_FRAME_BYTES + 1,
                                                                           2**32 - 1)))
    return frame(rng.randbytes(rng.randint(0, 12)), length)


def gen_no_type(rng: random.Random) -> bytes:
    obj = valid_message(rng)
    obj.pop("type")
    if rng.random() < 0.5:
        obj["type"] = rng.choice((1, None, True, b"move", [1], {"a": 1}, 2.5))
    return frame(pack(obj))


def gen_unknown_type(rng: random.Random) -> bytes:
    kind = rng.choice(("HELLO", "moves", "Move", "quit", "admin", "", " ", "move\x00", "😀",
                       "x" * 500, rand_text(rng)))
    obj = {"type": kind}
    for _ in range(rng.randint(0, 3)):
        obj[rand_text(rng, long=False)] = rand_leaf(rng)
    return frame(pack(obj))


def gen_mutated(rng: random.Random) -> bytes:
    return frame(pack(mutate(rng, valid_message(rng))))


def gen_msgpack_trick(rng: random.Random) -> bytes:
    good = pack(valid_message(rng))
    choice = rng.randrange(10)
    if choice == 0:
        payload = good + pack(rand_leaf(rng))  # trailing bytes
    elif choice == 1:
        payload = good[: rng.randint(1, max(1, len(good) - 1))]  # a value cut short
    elif choice == 2:
        payload = bytes([0xC1]) + good  # reserved code
    elif choice == 3:
        payload = pack({"type": "move", "x": Raw(b"\xd4\x01\x00")})  # an ext type
    elif choice == 4:
        payload = pack(Pairs((("type", "ping"), ("t", 1)), count=rng.choice((3, 15, 65535))))
    elif choice == 5:
        payload = pack(Pairs((("type", "ping"), ("t", 1), ("type", "chat"), ("text", "dup"))))
    elif choice == 6:
        payload = pack(Pairs(((b"type", "ping"), (b"t", 1))))  # bin keys
    elif choice == 7:
        payload = b"\x91" * rng.choice((4, 100, 2000, MAX_FRAME_BYTES - 1)) + b"\xc0"
    elif choice == 8:
        payload = Raw(b"\xdb\xff\xff\xff\xff") + b"a"  # a str claiming 4 GB
    else:
        payload = b"\xdd\xff\xff\xff\xff"  # an array claiming 4 billion items
    return frame(payload)


def gen_valid(rng: random.Random) -> bytes:
    kind = rng.choice(("move", "move", "move", "ping", "ping", "ready", "chat", "hello",
                       "undo_request", "restart_request", "undo_reply", "restart_reply", "pong",
                       "error", "welcome", "sync", "start", "load", "result", "reject",
                       "resign", "timeout"))
    return encode(kind, SIZE, **VALID[kind](rng))


Generator = Callable[[random.Random], bytes]
# Frames a connection can carry many of (mostly `error`, some valid messages)...
FLOOD: tuple[tuple[Generator, float], ...] = (
    (gen_mutated, 0.6),
    (gen_unknown_type, 0.2),
    (gen_valid, 0.2),
)
# ...and every kind, for the one frame that ends a connection (fatal or raw, mostly).
ANY: tuple[tuple[Generator, float], ...] = (
    (gen_mutated, 0.25),
    (gen_random_msgpack, 0.2),
    (gen_no_type, 0.1),
    (gen_msgpack_trick, 0.15),
    (gen_bad_length, 0.1),
    (gen_random_bytes, 0.15),
    (gen_unknown_type, 0.05),
)


@dataclass(frozen=True)
class Fuzz:
    """One generated frame and what the host's decoder will make of it.

    kind: "raw" (bytes that do not make exactly one whole frame: the stream is out of step),
    "fatal" (error then close), "error" (error, carry on) or "msg" (a valid message `type`)."""

    data: bytes
    kind: str
    type: str = ""


def classify(data: bytes) -> Fuzz:
    """What the host's FrameDecoder (board SIZE) makes of `data`, computed with the same code."""
    if len(data) < 4:
        return Fuzz(data, "raw")
    length = int.from_bytes(data[:4], "big")
    if not 1 <= length <= MAX_FRAME_BYTES:
        return Fuzz(data, "fatal")
    if len(data) - 4 != length:
        return Fuzz(data, "raw")
    item = decode_payload(data[4:], SIZE)
    if isinstance(item, ProtocolError):
        return Fuzz(data, "fatal" if item.fatal else "error")
    return Fuzz(data, "msg", item.type)


def fuzz_frames(rng: random.Random, table: tuple[tuple[Generator, float], ...]) -> Iterator[Fuzz]:
    """An endless stream of generated, classified frames from the generators of `table`."""
    gens = [g for g, _ in table]
    weights = [w for _, w in table]
    while True:
        yield classify(rng.choices(gens, weights)[0](rng))


def split(data: bytes, rng: random.Random) -> list[bytes]:
    """The bytes of a batch cut into random chunks (one send call each)."""
    if len(data) < 2:
        return [data]
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.choice((0, 1, 2, 3, 7)))))
    if rng.random() < 0.1:
        cuts = sorted(set(cuts) | {c for c in (1, 2, 3) if c < len(data)})  # a header bytewise
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


# ---- the figures --------------------------------------------------------------------------------

@dataclass
class Stats:
    """What a run counted (mutable: filled in as it goes; read when it is over)."""

    frames: int = 0
    writes: int = 0
    bytes_sent: int = 0
    connections: int = 0
    errors: Counter[str] = field(default_factory=Counter)  # error frames back, by code
    answers: Counter[str] = field(default_factory=Counter)  # every frame back, by type
    rejects: Counter[str] = field(default_factory=Counter)
    expected_errors: int = 0  # protocol errors sent where the host must answer `error`
    missing: int = 0  # of those, how many got no error frame back
    bad_answers: int = 0  # host frames our own decoder refused
    crashes: int = 0
    hangs: int = 0
    crash_notes: list[str] = field(default_factory=list)  # the first NOTES_KEPT of each
    hang_notes: list[str] = field(default_factory=list)
    notes: dict[str, list[Any]] = field(default_factory=dict)  # key -> [count, first example]
    host_events: Counter[str] = field(default_factory=Counter)
    scenarios: Counter[str] = field(default_factory=Counter)  # what was tried, and outcomes

    def note(self, text: str, key: str | None = None) -> None:
        """Something odd (an answer missing, a connection cut): counted by `key`, the first
        example kept (NOTES_KEPT keys at most)."""
        key = key or text
        if key in self.notes:
            self.notes[key][0] += 1
        elif len(self.notes) < NOTES_KEPT:
            self.notes[key] = [1, text]

    def note_lines(self) -> tuple[str, ...]:
        return tuple(f"{count:,} x {text}" if count > 1 else text
                     for count, text in self.notes.values())

    def crash(self, text: str) -> None:
        self.crashes += 1
        if len(self.crash_notes) < NOTES_KEPT:
            self.crash_notes.append(text)

    def hang(self, text: str) -> None:
        self.hangs += 1
        if len(self.hang_notes) < NOTES_KEPT:
            self.hang_notes.append(text)


@dataclass(frozen=True)
class Report:
    frames: int
    writes: int
    bytes_sent: int
    connections: int
    errors_answered: int
    errors_by_code: dict[str, int]
    expected_errors: int
    missing_answers: int
    bad_answers: int
    crashes: int
    crash_notes: tuple[str, ...]
    hangs: int
    hang_notes: tuple[str, ...]
    clean_guest: bool
    clean_guest_note: str
    seconds: float
    notes: tuple[str, ...]
    host_events: dict[str, int]
    answers: dict[str, int]
    scenarios: dict[str, int]
    rss_mb: tuple[float, float, float]  # this process (fuzzer and host): start, end, peak

    @property
    def rate(self) -> float:
        return self.frames / self.seconds if self.seconds else 0.0

    @property
    def ok(self) -> bool:
        return (not self.crashes and not self.hangs and self.clean_guest
                and not self.missing_answers and not self.bad_answers)


# ---- one raw connection --------------------------------------------------------------------------

class Peer:
    """One TCP connection to the host on 127.0.0.1: writes while it reads (so neither side's
    buffers fill), decodes the host's answers with our own FrameDecoder and counts them."""

    def __init__(self, port: int, stats: Stats, rcvbuf: int = 0) -> None:
        self.stats = stats
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:  # a small window: the host's answers back up quickly when we do not read
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(HANG_S)
        try:
            self.sock.connect((LOOPBACK, port))
        except OSError:
            self.sock.close()
            raise
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setblocking(False)
        stats.connections += 1
        self.decoder = FrameDecoder()
        self.eof = False
        self.reset = False  # closed by an RST (abort) rather than a FIN
        self.errors = 0
        self.codes: Counter[str] = Counter()  # this connection's error frames back, by code
        self.budget = FRAME_BUDGET  # frames it may still carry without looking like a flood
        self.pongs: set[int] = set()  # our probes' t values that came back (<= FRAME_BUDGET)
        self.reject = ""
        self.token = ""
        self.welcomed = False
        # The game as the host's frames show it, to play a legal move now and then.
        self.color = ""
        self.state = "waiting"
        self.moves: list[tuple[int, int]] = []
        self.to_move = "black"

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
        self.eof = True

    def shutdown_write(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_WR)

    def _read(self) -> None:
        while not self.eof:
            try:
                data = self.sock.recv(262144)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self.eof = self.reset = True
                return
            if not data:
                self.eof = True
                return
            for item in self.decoder.feed(data):
                self._answer(item)

    def _answer(self, item: Message | ProtocolError) -> None:
        stats = self.stats
        if isinstance(item, ProtocolError):
            stats.bad_answers += 1
            stats.note(f"the host sent a frame our decoder refuses: {item.code} {item.message}",
                       f"refused {item.code}")
            return
        data = item.data
        stats.answers[item.type] += 1
        if item.type == "error":
            self.errors += 1
            self.codes[str(data["code"])] += 1
            stats.errors[str(data["code"])] += 1
        elif item.type == "pong":
            if data["t"] >= PROBE_T0:
                self.pongs.add(int(data["t"]))
        elif item.type == "reject":
            self.reject = str(data["reason"])
            stats.rejects[self.reject] += 1
        elif item.type == "welcome":
            self.token, self.color, self.welcomed = str(data["session"]), str(data["color"]), True
        elif item.type in ("start", "sync", "load"):
            self.moves = list(data["moves"])
            self.state = "playing" if item.type == "start" else str(data.get("state", "waiting"))
            self.to_move = str(data.get("to_move", "black"))
        elif item.type == "move":
            self.moves.append((int(data["x"]), int(data["y"])))
            self.to_move = "white" if self.to_move == "black" else "black"
        elif item.type == "result":
            self.state = "over"

    def send(self, chunks: list[bytes]) -> bool:
        """Write the chunks, one send call each where the socket allows, reading meanwhile.
        False if the connection ended or the host stopped reading for HANG_S."""
        for chunk in chunks:
            view = memoryview(chunk)
            while view:
                if self.eof:
                    return False
                readable, writable, _ = select.select([self.sock], [self.sock], [], HANG_S)
                if not readable and not writable:
                    return False
                if readable:
                    self._read()
                if writable and not self.eof:
                    try:
                        sent = self.sock.send(view)
                    except (BlockingIOError, InterruptedError):
                        continue
                    except OSError:  # reset: the answers that came before it are still readable
                        self.reset = True
                        self._read()
                        self.eof = True
                        return False
                    view = view[sent:]
            self.stats.writes += 1
            self.stats.bytes_sent += len(chunk)
        return True

    def push(self, data: bytes, deadline: float) -> int:
        """Write without reading (a peer that does not read): bytes written before the host
        stopped taking them, the deadline passed or the connection broke (then `eof`)."""
        view, done = memoryview(data), 0
        while done < len(data) and not self.eof:
            _, writable, _ = select.select([], [self.sock], [], min(0.2, max(0.0, deadline -
                                                                              time.monotonic())))
            if self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                self.eof = self.reset = True
            elif writable:
                try:
                    done += self.sock.send(view[done:])
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    self.eof = self.reset = True
            if time.monotonic() >= deadline:
                break
        return done

    def wait(self, done: Callable[[], bool], timeout: float = HANG_S) -> bool:
        """Read until done() (True) or the connection ends or time runs out (done() then)."""
        deadline = time.monotonic() + timeout
        while not done() and not self.eof:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            readable, _, _ = select.select([self.sock], [], [], left)
            if readable:
                self._read()
        return done()

    def poll(self) -> None:
        """Read whatever has come in, without waiting."""
        if not self.eof:
            readable, _, _ = select.select([self.sock], [], [], 0)
            if readable:
                self._read()

    def legal_move(self, rng: random.Random) -> bytes | None:
        """A move the host should accept now, as far as its frames show, or None."""
        if self.state != "playing" or self.to_move != self.color or len(self.moves) >= SIZE * SIZE:
            return None
        taken = set(map(tuple, self.moves))
        free = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in taken]
        x, y = rng.choice(free)
        self.moves.append((x, y))
        self.to_move = "white" if self.to_move == "black" else "black"
        return encode("move", SIZE, x=x, y=y, ply=len(self.moves), clock_ms=600_000)


# ---- the host, watched -------------------------------------------------------------------------

class HostWatch:
    """Drains the host bridge's events on a thread (counting them, catching the session's end),
    and plays the host's side: ready after every game, a random free point when it is to move."""

    def __init__(self, bridge: NetBridge, stats: Stats, rng: random.Random) -> None:
        self.bridge = bridge
        self.stats = stats
        self.rng = rng
        self.port: int | None = None
        self.hosting = threading.Event()
        self.stop = threading.Event()
        self.color: Color | None = None
        self.size = SIZE
        self.playing = False
        self.to_move = Color.BLACK
        self.taken: set[tuple[int, int]] = set()
        self.moved: deque[Moved] = deque(maxlen=64)
        self.refused = 0  # our own moves refused in a row (a stale view): retried 3 times
        self.closing = False  # set before we end a session ourselves: its Closed is ours
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name="fuzz-host-watch", daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                event = self.bridge.events.get(timeout=0.1)
            except queue.Empty:
                continue
            try:
                self._on(event)
            except Exception as error:  # our own bug: say so, never hide it as the host's
                self.stats.note(f"the fuzzer's host watcher failed: {error!r}")

    def _on(self, event: NetEvent) -> None:
        self.stats.host_events[type(event).__name__] += 1
        if isinstance(event, Hosting):
            self.port = event.port
            self.hosting.set()
        elif isinstance(event, (Closed, Failed)) and not self.closing:
            self.stats.crash(f"the host's session ended: {type(event).__name__}: "
                                      f"{event.message}")
        elif isinstance(event, Connected):
            self.color, self.size = event.my_color, event.size
            self.bridge.ready(True)
        elif isinstance(event, Reconnected):
            self.bridge.ready(True)
        elif isinstance(event, PositionSet):
            self.playing = event.state == "playing"
            self.to_move = event.to_move
            self.taken = set(event.moves)
            if not self.playing:
                self.bridge.ready(True)
            self._maybe_move()
        elif isinstance(event, Moved):
            with self.lock:
                self.moved.append(event)
            self.taken.add(event.point)
            self.to_move = event.color.other
            self.refused = 0
            self._maybe_move()
        elif isinstance(event, MoveRefused):
            self.refused += 1
            if self.refused <= 3:
                self._maybe_move()
        elif isinstance(event, GameOver):
            self.playing = False
            self.bridge.ready(True)
        elif isinstance(event, ReadyChanged) and not event.mine and not self.playing:
            self.bridge.ready(True)

    def _maybe_move(self) -> None:
        if self.playing and self.to_move is self.color and len(self.taken) < self.size ** 2:
            free = [(x, y) for y in range(self.size) for x in range(self.size)
                    if (x, y) not in self.taken]
            self.bridge.move(*self.rng.choice(free))

    def guest_moves(self) -> list[Moved]:
        with self.lock:
            return [m for m in self.moved if not m.mine]


class CrashHooks:
    """Catches what escapes: exceptions in threads, errors asyncio logs (a task's exception
    never retrieved, a callback that raised), unraisable exceptions."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.handler = _Catch(stats)

    def __enter__(self) -> CrashHooks:
        self._thread_hook = threading.excepthook
        self._unraisable = sys.unraisablehook
        threading.excepthook = self._on_thread
        sys.unraisablehook = self._on_unraisable
        for name in ("asyncio", "gomoku"):
            logging.getLogger(name).addHandler(self.handler)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.collect()  # "Task exception was never retrieved" is logged when the task is collected
        threading.excepthook = self._thread_hook
        sys.unraisablehook = self._unraisable
        for name in ("asyncio", "gomoku"):
            logging.getLogger(name).removeHandler(self.handler)

    def _on_thread(self, args: threading.ExceptHookArgs) -> None:
        name = args.thread.name if args.thread else "?"
        self.stats.crash(f"thread {name} died: {args.exc_type.__name__}: {args.exc_value}")
        self._thread_hook(args)

    def _on_unraisable(self, args: Any) -> None:
        self.stats.crash(f"unraisable: {args.exc_type.__name__}: {args.exc_value}")


class _Catch(logging.Handler):
    """asyncio's and our game's log: an error (an exception caught only by a last-resort
    handler) is a crash; a warning (e.g. an answer the host's encoder refused) is a note."""

    def __init__(self, stats: Stats) -> None:
        super().__init__(logging.WARNING)
        self.stats = stats

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {record.exc_info[0].__name__}: {record.exc_info[1]}"
        if record.levelno >= logging.ERROR:
            self.stats.crash(text[:300])
        else:
            self.stats.note(text[:300])


# ---- the run ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Config:
    """One run: how many frames, the seed of every random choice, and the host's time limits
    (None: the contract's; --quick and the test shorten them so the slow scenarios are quick)."""

    frames: int = FULL_FRAMES
    seed: int = 1
    timing: Timing | None = None
    slow: bool = True  # the scenarios that wait on the host's timers (silence, non-reader, burst)
    progress: bool = False


class Fuzzer:
    """The scenarios, one after another on this thread, against one live host."""

    def __init__(self, port: int, host_thread: threading.Thread, stats: Stats,
                 config: Config) -> None:
        self.port = port
        self.host_thread = host_thread
        self.stats = stats
        self.config = config
        self.timing = config.timing or Timing()
        self.rng = random.Random(config.seed)
        self.fillers = fuzz_frames(random.Random(config.seed + 1), FLOOD)
        self.enders = fuzz_frames(random.Random(config.seed + 3), ANY)
        self.closers: deque[Fuzz] = deque(maxlen=256)  # fatal / raw frames kept to end a connection
        self.seat: Peer | None = None
        self.token = ""
        self.probe_t = PROBE_T0
        self.silent: list[tuple[Peer, float, str]] = []  # connections the host must close itself
        self.stopped = ""
        self.recent: deque[tuple[str, bytes]] = deque(maxlen=8)  # for a reproduction file
        self.dumped = False

    # -- frames --

    def next_fuzz(self, want: Callable[[Fuzz], bool], source: Iterator[Fuzz] | None = None) -> Fuzz:
        """The next generated frame that `want` takes; fatal and raw ones are kept as closers."""
        while True:
            fuzz = next(source or self.fillers)
            if want(fuzz):
                return fuzz
            if fuzz.kind in ("fatal", "raw") and len(self.closers) < (self.closers.maxlen or 0):
                self.closers.append(fuzz)

    def closer(self) -> Fuzz:
        """A frame that ends a connection: fatal or raw, one in four from the fillers' leftovers."""
        if self.closers and self.rng.random() < 0.25:
            return self.closers.popleft()
        return self.next_fuzz(lambda f: f.kind in ("fatal", "raw"), self.enders)

    def _send(self, peer: Peer, frames: list[Fuzz]) -> bool:
        data = b"".join(f.data for f in frames)
        self.recent.append(("seat" if peer is self.seat else "other", data))
        peer.budget -= len(frames)
        ok = peer.send(split(data, self.rng))
        if ok:
            self.stats.frames += len(frames)
            self.stats.expected_errors += sum(f.kind == "error" for f in frames)
        return ok

    def _check_answers(self, peer: Peer, frames: list[Fuzz], before: int, where: str) -> None:
        expected = sum(f.kind in ("error", "fatal") for f in frames)
        got = peer.errors - before
        if got < expected:
            self.stats.missing += expected - got
            self.stats.note(f"{where}: {expected} protocol errors sent, {got} error frames back "
                            "(e.g.)", f"unanswered {where}")

    def hang(self, text: str) -> None:
        self.stats.hang(text)
        if self.stats.hangs >= 3:
            self.stopped = "three hangs"

    def connect(self, rcvbuf: int = 0) -> Peer | None:
        """A new connection; the host not accepting it is a crash (it stopped listening)."""
        try:
            return Peer(self.port, self.stats, rcvbuf)
        except OSError as error:
            self.stats.crash(f"the host stopped accepting connections: {error}")
            self.stopped = "no host"
            return None

    # -- the seat: the fuzzer as the host's guest --

    def take_seat(self, junk: int = 0, rcvbuf: int = 0) -> Peer | None:
        """A connection that says hello (with our token once we have one): welcome expected.
        A refusal three times running is a crash (the host no longer serves its guest)."""
        for attempt in range(3):
            peer = self.connect(rcvbuf)
            if peer is None:
                return None
            frames = [self.next_fuzz(lambda f: f.kind == "error") for _ in range(junk)]
            fields = {"proto": 1, "app": "gomoku", "version": "0.1.0", "name": "Fuzzer"}
            if self.token:
                fields["session"] = self.token
            frames.append(Fuzz(encode("hello", SIZE, **fields), "msg", "hello"))
            after = []  # frames in the hello's own write: they must be answered like any other
            if self.rng.random() < 0.3:
                after = [self.next_fuzz(lambda f: f.kind == "error")
                         for _ in range(self.rng.choice((1, 3, 10)))]
                self.probe_t += 1
                after.append(Fuzz(encode("ping", SIZE, t=self.probe_t), "msg", "ping"))
            before = peer.errors
            if self._send(peer, frames + after) and peer.wait(
                    lambda p=peer: p.welcomed or p.eof) and peer.welcomed:
                self.token = peer.token
                self.stats.scenarios["seat taken"] += 1
                if not after:
                    self._check_answers(peer, frames[:-1], before, "before the hello")
                elif self.probe(peer, "after a hello with frames in its write"):
                    self.stats.scenarios["hello + frames in one write"] += 1
                    self._check_answers(peer, frames + after, before, "a hello's write")
                    if self.probe_t - 1 not in peer.pongs:
                        self.stats.missing += 1
                        self.stats.note("a ping in the hello's write got no pong")
                return peer
            peer.close()
            if not peer.welcomed and not peer.eof:
                self.hang("no welcome within HANG_S")
                return None
            self.stats.note(f"the seat's hello was refused (reject {peer.reject or 'none'}, "
                            f"attempt {attempt + 1})", "seat hello refused")
            time.sleep(0.2)
        self.stats.crash("the host refused its guest's hello with the session token 3 times")
        self.stopped = "seat refused"
        return None

    def seat_peer(self) -> Peer | None:
        if self.seat is not None and self.seat.eof:
            self.seat.close()
            self.seat = None
        if self.seat is None:
            self.seat = self.take_seat()  # the first frame must be the hello: junk first is refused
        return self.seat

    def probe(self, peer: Peer, where: str) -> bool:
        """A ping with a fresh t: its pong means the host read everything before it."""
        self.probe_t += 1
        t = self.probe_t
        peer.budget -= 1
        if not peer.send([encode("ping", SIZE, t=t)]):
            return False
        if peer.wait(lambda: t in peer.pongs):
            return True
        if not peer.eof:
            self.hang(f"no pong within {HANG_S:.0f} s ({where})")
            peer.close()
        return False

    def seat_batch(self) -> None:
        """The bulk: a batch of non-fatal frames on the seat, maybe ended by a fatal one."""
        peer = self.seat_peer()
        if peer is None:
            return
        rng = self.rng
        flavour = rng.choice(("mixed", "mixed", "mixed", "moves", "pings", "chat", "hellos"))
        self.stats.scenarios[f"seat {flavour}"] += 1
        count = min(rng.choice((1, 2, 5, 10, 20, 50, 100, 200)), peer.budget - 2)  # + probe, closer
        frames = []
        for _ in range(count):
            if flavour == "moves":  # out of turn, occupied, wrong ply; now and then a legal one
                legal = peer.legal_move(rng) if rng.random() < 0.05 else None
                data = legal or encode("move", SIZE, **VALID["move"](rng))
                frames.append(Fuzz(data, "msg", "move"))
            elif flavour in ("pings", "chat", "hellos"):
                kind = flavour.removesuffix("s")
                frames.append(Fuzz(encode(kind, SIZE, **VALID[kind](rng)), "msg", kind))
            else:  # a valid `bye` would end the host's session for good: not sent here
                frames.append(self.next_fuzz(lambda f: f.kind == "error" or (
                    f.kind == "msg" and f.type != "bye")))
        end = rng.random() < 0.08 or peer.budget - len(frames) < 3
        before = peer.errors
        if end and rng.random() < 0.2:  # a plain close: the guest's network went away
            if self._send(peer, frames) and self.probe(peer, f"seat, {flavour}"):
                self._check_answers(peer, frames, before, f"seat, {flavour}")
            peer.close()
            return
        if end:
            frames.append(self.closer())
        if not self._send(peer, frames):
            if not peer.eof:
                self.hang("the host stopped reading the seat's frames")
            peer.close()
            return
        if end:
            self.finish(peer, frames, before, "seat")
        elif self.probe(peer, f"seat, {flavour}"):
            self._check_answers(peer, frames, before, f"seat, {flavour}")
        elif peer.eof:
            self.stats.note(f"the host closed the seat after a {flavour} batch (reset={peer.reset})",
                            f"seat closed {flavour}")

    def finish(self, peer: Peer, frames: list[Fuzz], before: int, where: str,
               answered: list[Fuzz] | None = None) -> None:
        """After a connection's last frame: the host must close it (after its answers to
        `answered`, by default every frame)."""
        last = frames[-1]
        if last.kind == "raw":
            peer.shutdown_write()  # the host may be waiting for the rest of a frame: EOF ends it
        if not peer.wait(lambda: peer.eof):
            self.hang(f"{where}: not closed within {HANG_S:.0f} s after a {last.kind} frame")
        else:
            expected = frames if answered is None else answered
            self._check_answers(peer, [f for f in expected if f.kind != "raw"], before, where)
        peer.close()

    # -- other connections --

    def pre_hello(self) -> None:
        """A connection that never says a valid hello: junk, then a frame that must close it."""
        if len(self.silent) >= MAX_SILENT:
            return self.seat_batch()
        peer = self.connect()
        if peer is None:
            return
        rng = self.rng
        count = rng.choice((0, 0, 1, 3, 10, 30))
        frames = [self.next_fuzz(lambda f: f.kind == "error") for _ in range(count)]
        if self.config.slow and rng.random() < 0.01:
            self.stats.scenarios["pre-hello silence"] += 1
            return self.silent_start(peer, frames, "pre-hello", self.timing.hello_timeout_s)
        ending = rng.random()
        if ending < 0.6:
            last = self.closer()
        elif ending < 0.75:  # a valid message that is not a hello: reject bad_hello
            last = self.next_fuzz(lambda f: f.kind == "msg" and f.type != "hello")
        elif ending < 0.85:  # another protocol version: reject version
            last = Fuzz(encode("hello", SIZE, proto=rng.choice((0, 2, 65535)), app="gomoku",
                               version="9", name="Later"), "msg", "hello")
        else:  # a hello with a wrong token: reject busy (the seat stays ours)
            fields = VALID["hello"](rng)
            fields["session"] = _token(rng)
            last = Fuzz(encode("hello", SIZE, **fields), "msg", "hello")
        self.stats.scenarios[f"pre-hello, then {last.kind}"] += 1
        frames.append(last)
        before = peer.errors
        if not self._send(peer, frames):
            if not peer.eof:
                self.hang("pre-hello: the host stopped reading")
            peer.close()
            return
        # The first frame must be the hello: the host answers the first one and parts.
        self.finish(peer, frames, before, "pre-hello", answered=frames[:1])

    def busy(self) -> None:
        """While the seat is held, a second connection's hello gets `reject busy`."""
        if self.seat_peer() is None:
            return
        peer = self.connect()
        if peer is None:
            return
        self.stats.scenarios["second hello"] += 1
        fields = VALID["hello"](self.rng)
        fields.pop("session", None)
        frames = [Fuzz(encode("hello", SIZE, **fields), "msg", "hello")]
        if self._send(peer, frames) and not peer.wait(lambda: peer.eof):
            self.hang("a second connection's hello: not closed within HANG_S")
        elif peer.reject == "busy":
            self.stats.scenarios["second hello: reject busy"] += 1
        else:
            self.stats.note(f"a second hello got reject {peer.reject or 'nothing'}, not busy",
                            "second hello not busy")
        peer.close()

    def takeover(self) -> None:
        """Our token on a new connection while the seat is held: the new one takes the seat."""
        old = self.seat_peer()
        if old is None:
            return
        self.stats.scenarios["takeover"] += 1
        new = self.take_seat()
        if new is None:
            return
        if old.wait(lambda: old.eof):
            self.stats.scenarios["takeover: old seat closed"] += 1
        else:
            self.stats.note("the host kept the old seat open after a takeover")
        old.close()
        self.seat = new

    def flood(self) -> None:
        """Far over 500 frames in a second, on the seat or before a hello: `error flood`, close."""
        on_seat = self.rng.random() < 0.5
        peer = self.seat_peer() if on_seat else self.connect()
        if peer is None:
            return
        count = self.rng.choice(FLOOD_FRAMES)
        self.stats.scenarios["flood"] += 1
        if on_seat:
            kind = self.rng.choice(("ping", "chat", "move", "ready"))
            frames = [Fuzz(encode(kind, SIZE, **VALID[kind](self.rng)), "msg", kind)
                      for _ in range(count)]
        else:
            frames = [self.next_fuzz(lambda f: f.kind == "error") for _ in range(count)]
        if self._send(peer, frames) or peer.eof:
            if not peer.wait(lambda: peer.eof):
                self.hang(f"a flood of {count} frames: not closed within {HANG_S:.0f} s")
            elif peer.codes["flood"]:
                self.stats.scenarios["flood: error flood, closed"] += 1
            elif peer.reset:  # closed with our frames unread: the RST can discard its answer
                self.stats.scenarios["flood: reset, error flood lost"] += 1
            else:
                self.stats.note(f"a flood of {count} frames closed without `error flood`",
                                "flood without error")
        elif not peer.eof:
            self.hang("the host stopped reading a flood")
        peer.close()

    # -- the slow ones: the host's own timers must close what stays silent --

    def silent_start(self, peer: Peer, frames: list[Fuzz], what: str, limit: float) -> None:
        """Frames, then the first bytes of one more, then silence: the host must close it."""
        cut = self.next_fuzz(lambda f: f.kind != "raw" and len(f.data) > 5)
        part = cut.data[: self.rng.randint(1, len(cut.data) - 1)]
        if int.from_bytes(cut.data[:4], "big") > MAX_FRAME_BYTES or cut.data[:4] == bytes(4):
            part = cut.data[:3]  # a bad length would close it at once: keep the header unfinished
        if not peer.send(split(b"".join(f.data for f in frames) + part, self.rng)):
            peer.close()
            return
        self.stats.frames += len(frames) + 1
        self.silent.append((peer, time.monotonic() + limit + HANG_S, what))

    def seat_silence(self) -> None:
        """The seat goes quiet mid-frame: the host must drop it after its silence limit (we then
        come back with the token, as a guest whose network hiccuped would)."""
        peer = self.seat_peer()
        if peer is None:
            return
        self.stats.scenarios["seat silence"] += 1
        self.seat = None
        self.silent_start(peer, [], "seat", self.timing.silence_s)

    def check_silent(self, final: bool = False) -> None:
        """The host must close each silent connection within its limit (+ HANG_S)."""
        keep = []
        for peer, deadline, what in self.silent:
            if final:
                peer.wait(lambda p=peer: p.eof, max(0.0, deadline - time.monotonic()))
            peer.poll()
            if peer.eof:
                self.stats.scenarios[f"{what} silence: closed in time"] += 1
                peer.close()
            elif time.monotonic() > deadline:
                self.hang(f"a silent {what} connection was not closed in time")
                peer.close()
            else:
                keep.append((peer, deadline, what))
        self.silent = keep

    def non_reader(self) -> None:
        """The seat sends moves (each answered by error + sync) for a few seconds, at the flood
        limit's pace, through a small receive window and never reads: the host must go on
        serving others meanwhile (a second hello gets reject busy), and may cut the link."""
        if self.seat is not None:
            self.seat.close()
            self.seat = None
        peer = self.take_seat(rcvbuf=4096)
        if peer is None:
            return
        self.stats.scenarios["non-reader"] += 1
        for round_ in range(NON_READER_ROUNDS):
            round_at = time.monotonic()
            moves = [encode("move", SIZE, **VALID["move"](self.rng)) for _ in range(FRAME_BUDGET)]
            data = b"".join(moves)
            sent = peer.push(data, round_at + 1.0)
            self.stats.frames += sent // len(moves[0])  # the whole frames that went out (same size)
            self.stats.bytes_sent += sent
            if peer.eof:
                self.stats.scenarios["non-reader: cut off"] += 1
                break
            if round_ == 1:
                self.busy()  # while a peer does not read, the host still answers another
            time.sleep(max(0.0, round_at + 1.1 - time.monotonic()))  # under the flood limit
        peer.close()

    def burst(self) -> None:
        """More silent connections than the host keeps handshakes for (8): the extra ones are
        closed at once, the others by the hello time limit; then the seat must still work."""
        if self.seat is not None:
            self.seat.close()
            self.seat = None
        self.stats.scenarios["burst of 12 silent connections"] += 1
        peers = [p for p in (self.connect() for _ in range(12)) if p is not None]
        deadline = time.monotonic() + self.timing.hello_timeout_s + HANG_S
        time.sleep(0.3)
        for peer in peers:
            peer.poll()
        at_once = sum(peer.eof for peer in peers)
        for peer in peers:
            if not peer.wait(lambda p=peer: p.eof, max(0.0, deadline - time.monotonic())):
                self.hang("a silent connection of a burst was not closed in time")
            peer.close()
        self.stats.scenarios["burst: closed at once"] += at_once

    # -- the whole run --

    def check_host(self) -> None:
        if not self.host_thread.is_alive():
            self.stats.crash("the bridge's thread died")
            self.stopped = "host thread dead"
        if (self.stats.crashes or self.stats.hangs) and not self.dumped:
            self.dump()

    def dump(self) -> None:
        """The last batches sent (where, hex), to replay the first crash or hang by hand."""
        self.dumped = True
        path = Path(tempfile.gettempdir()) / f"net_fuzz_repro_seed{self.config.seed}.txt"
        lines = [f"{where}\t{data.hex()}" for where, data in self.recent]
        path.write_text("\n".join(lines) + "\n")
        self.stats.note(f"the last {len(lines)} batches before the first crash/hang: {path}")

    def run(self) -> None:
        rng = self.rng
        scenarios: list[tuple[Callable[[], None], float]] = [
            (self.seat_batch, 0.70),
            (self.pre_hello, 0.255),
            (self.busy, 0.02),
            (self.takeover, 0.02),
            (self.flood, 0.005),
        ]
        funcs = [f for f, _ in scenarios]
        weights = [w for _, w in scenarios]
        # The slow ones once each, at a fraction of the run (the seat's silence runs alongside).
        once = [(0.25, self.non_reader), (0.5, self.seat_silence), (0.75, self.burst)]
        once = once if self.config.slow else []
        started = time.monotonic()
        last_shown = started
        while self.stats.frames < self.config.frames and not self.stopped:
            if once and self.stats.frames >= once[0][0] * self.config.frames:
                once.pop(0)[1]()
            else:
                rng.choices(funcs, weights)[0]()
            self.check_silent()
            self.check_host()
            if self.config.progress and time.monotonic() - last_shown > 10:
                last_shown = time.monotonic()
                rate = self.stats.frames / (last_shown - started)
                print(f"  {self.stats.frames:,} frames, {rate:,.0f}/s, "
                      f"{self.stats.connections:,} connections", file=sys.stderr, flush=True)
        self.check_silent(final=True)
        self.check_host()

    def release_seat(self) -> str:
        """End the fuzzing: the seat resigns any game, is probed, and its connection closes (the
        host keeps the seat for our token). Returns the token."""
        peer = self.seat_peer()
        if peer is not None:
            peer.send([encode("resign", SIZE)])
            self.probe(peer, "the last probe")
            peer.close()
        self.seat = None
        return self.token


def clean_guest(port: int, token: str, watch: HostWatch) -> tuple[bool, str]:
    """A fresh NetBridge comes back to the seat with its token: Connected, both ready, a game
    starts, and one move each way arrives on the other side. (True, what happened) if so."""
    guest = NetBridge(interface=LOOPBACK)
    seen: list[str] = []

    def wait_for(test: Callable[[NetEvent], bool], what: str, timeout: float = HANG_S) -> NetEvent:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                event = guest.events.get(timeout=0.1)
            except queue.Empty:
                continue
            seen.append(type(event).__name__)
            if isinstance(event, (Failed, Closed)):
                raise RuntimeError(f"{type(event).__name__}: {event.message}")
            if test(event):
                return event
        raise RuntimeError(f"no {what} within {timeout:.0f} s")

    try:
        guest.start()
        guest.join(LOOPBACK, port, "Clean", session=token)
        hello = wait_for(lambda e: isinstance(e, Connected), "Connected")
        assert isinstance(hello, Connected)
        mine = hello.my_color
        shown = wait_for(lambda e: isinstance(e, PositionSet), "the host's sync")
        assert isinstance(shown, PositionSet)
        if shown.state == "playing":
            guest.resign()
            wait_for(lambda e: isinstance(e, GameOver), "the end of the game left playing")
        guest.ready(True)
        start = wait_for(lambda e: isinstance(e, PositionSet) and e.state == "playing",
                         "a game start with both ready")
        assert isinstance(start, PositionSet)
        taken = set(start.moves)

        def play_and_see(point: tuple[int, int]) -> None:
            """The guest plays `point`; it must reach the host within HANG_S."""
            guest.move(*point)
            deadline = time.monotonic() + HANG_S
            while not any(m.point == point for m in watch.guest_moves()):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the host never saw the guest's move {point}")
                time.sleep(0.02)

        free = [(x, y) for y in range(hello.size) for x in range(hello.size) if (x, y) not in taken]
        point = free[len(free) // 2]
        if start.to_move is mine:
            play_and_see(point)
        theirs = wait_for(lambda e: isinstance(e, Moved) and not e.mine, "the host's move")
        assert isinstance(theirs, Moved)
        if start.to_move is not mine:
            free = [p for p in free if p != theirs.point]
            point = free[len(free) // 2]
            play_and_see(point)
        return True, (f"Connected as {mine.label}, both ready, guest move {point} seen by the "
                      f"host, host move {theirs.point} seen by the guest")
    except (RuntimeError, AssertionError) as error:
        return False, f"{error} (guest events: {', '.join(seen[-12:]) or 'none'})"
    finally:
        watch.closing = True  # the guest's bye ends the host's session: that Closed is ours
        guest.close()


def rss_mb() -> float:
    """This process's resident memory now, in MB (0 where /proc is not there)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def run(config: Config) -> Report:
    """One fuzzing run against a fresh host on 127.0.0.1; never raises for what the host does."""
    stats = Stats()
    rss_start = rss_mb()
    rng = random.Random(config.seed + 2)
    started = time.monotonic()
    served, served_note = False, "not tried"
    with CrashHooks(stats):
        before = set(threading.enumerate())
        bridge = NetBridge(interface=LOOPBACK, timing=config.timing)
        bridge.start()
        threads = [t for t in threading.enumerate() if t not in before]
        watch = HostWatch(bridge, stats, rng)
        watch.thread.start()
        try:
            bridge.host(HostOptions(name="Fuzz", port=0, advertise=False))
            if not watch.hosting.wait(HANG_S) or watch.port is None or not threads:
                stats.crash("the host never said Hosting")
            else:
                fuzzer = Fuzzer(watch.port, threads[0], stats, config)
                fuzzer.run()
                token = fuzzer.release_seat()
                fuzzer.check_host()
                if not fuzzer.stopped and token:
                    served, served_note = clean_guest(watch.port, token, watch)
                elif fuzzer.stopped:
                    served_note = f"not tried: the run stopped ({fuzzer.stopped})"
        finally:
            watch.closing = True
            bridge.close()
            watch.stop.set()
            watch.thread.join(2)
    seconds = time.monotonic() - started
    return Report(
        frames=stats.frames, writes=stats.writes, bytes_sent=stats.bytes_sent,
        connections=stats.connections, errors_answered=sum(stats.errors.values()),
        errors_by_code=dict(stats.errors.most_common()), expected_errors=stats.expected_errors,
        missing_answers=stats.missing, bad_answers=stats.bad_answers,
        crashes=stats.crashes, crash_notes=tuple(stats.crash_notes),
        hangs=stats.hangs, hang_notes=tuple(stats.hang_notes),
        clean_guest=served, clean_guest_note=served_note, seconds=seconds,
        notes=stats.note_lines(), host_events=dict(stats.host_events.most_common()),
        answers=dict(stats.answers.most_common()),
        scenarios=dict(stats.scenarios),
        rss_mb=(rss_start, rss_mb(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    )


def show(report: Report) -> None:
    def line(label: str, value: str) -> None:
        print(f"{label:<22}{value}")

    line("frames sent", f"{report.frames:,} ({report.writes:,} writes, "
                        f"{report.bytes_sent / 1e6:,.1f} MB, {report.connections:,} connections)")
    codes = ", ".join(f"{code} {n:,}" for code, n in report.errors_by_code.items())
    line("errors answered", f"{report.errors_answered:,} ({codes})")
    line("  protocol errors", f"{report.expected_errors:,} sent, {report.missing_answers:,} "
                              f"unanswered; {report.bad_answers:,} host frames refused")
    line("crashes", f"{report.crashes} (goal 0)")
    for note in report.crash_notes:
        line("", note)
    line("hangs", f"{report.hangs} (goal 0, answer within {HANG_S:.0f} s)")
    for note in report.hang_notes:
        line("", note)
    line("clean guest served", f"{'yes' if report.clean_guest else 'NO'}: "
                               f"{report.clean_guest_note}")
    line("time", f"{report.seconds:,.1f} s, {report.rate:,.0f} frames/s")
    start, end, peak = report.rss_mb
    line("memory", f"{start:,.0f} MB at the start, {end:,.0f} MB at the end, peak {peak:,.0f} MB "
                   "(fuzzer and host in one process)")
    answers = ", ".join(f"{kind} {n:,}" for kind, n in list(report.answers.items())[:8])
    line("host answers", answers)
    events = ", ".join(f"{kind} {n:,}" for kind, n in list(report.host_events.items())[:8])
    line("host events", events)
    line("scenarios", ", ".join(f"{name} {n:,}" for name, n in report.scenarios.items()))
    for note in report.notes:
        line("note", note)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=None,
                        help=f"frames to send (default {FULL_FRAMES:,}; --quick {QUICK_FRAMES:,})")
    parser.add_argument("--quick", action="store_true", help="a short run, for tests")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    frames = args.frames if args.frames is not None else (QUICK_FRAMES if args.quick else FULL_FRAMES)
    print(f"net_fuzz: {frames:,} frames at a live host on {LOOPBACK}, seed {args.seed}",
          flush=True)
    timing = QUICK_TIMING if args.quick else None
    report = run(Config(frames=frames, seed=args.seed, timing=timing, progress=True))
    show(report)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
