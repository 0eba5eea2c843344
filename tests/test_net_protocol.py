"""The LAN protocol's frames and messages: bytes split and joined in every way give the same
messages, and whatever a peer sends (garbage, hostile headers, bad fields) comes out as a
checked Message or a ProtocolError value, never an exception."""

from __future__ import annotations

import struct
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gomoku.net.protocol import (
    MAX_FRAME_BYTES,
    MESSAGE_TYPES,
    FrameDecoder,
    Message,
    ProtocolError,
    clean_text,
    encode,
)

# Hypothesis' timing checks would flake on a busy shared machine; example counts bound the work.
RELAXED: dict[str, Any] = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
CLOCK = {"black": 300_000, "white": 299_500}
# One valid example of every message type: fields as a caller would pass them to encode.
SAMPLES: dict[str, dict[str, Any]] = {
    "hello": {
        "proto": 1,
        "app": "gomoku",
        "version": "0.1.0",
        "name": "Ann",
        "session": "abcDEF12_-",
    },
    "welcome": {
        "proto": 1,
        "name": "棋士",
        "session": "0123456789abcdef",
        "rule": "renju",
        "size": 15,
        "color": "white",
        "clock": {"move_s": 30, "game_s": 600, "increment_s": 0},
    },
    "reject": {"reason": "busy"},
    "ready": {"ready": True},
    "start": {"moves": [(7, 7), (8, 8)], "to_move": "black", "clock_ms": CLOCK},
    "move": {"x": 14, "y": 0, "ply": 3, "clock_ms": 12_345},
    "undo_request": {"ply": 0},
    "restart_request": {"ply": 225},
    "undo_reply": {"accept": False},
    "restart_reply": {"accept": True},
    "resign": {},
    "timeout": {},
    "load": {"moves": [[0, 0], [14, 14], [3, 4]], "rule": "standard"},
    "chat": {"text": "good game"},
    "ping": {"t": 2**63 - 1},
    "pong": {"t": 0},
    "sync": {
        "moves": [(7, 7)],
        "to_move": "white",
        "clock_ms": CLOCK,
        "state": "over",
        "result": {"winner": None, "reason": "disconnect"},
    },
    "result": {"winner": "black", "reason": "five"},
    "bye": {"reason": "closed the window"},
    "error": {"code": "illegal_move", "message": "that point is already taken"},
}


def sample(type_: str, **changes: Any) -> dict[str, Any]:
    """A map as a peer would send it: SAMPLES[type_] with its `type` and some fields changed."""
    return {**SAMPLES[type_], "type": type_, **changes}


def frame(obj: Any) -> bytes:
    """A frame around any msgpack value, built by hand (as a hostile peer would)."""
    payload = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


def raw_frame(payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + payload


def decode_all(data: bytes, size: int = 15) -> list[Message | ProtocolError]:
    return FrameDecoder(size).feed(data)


def one(data: bytes, size: int = 15) -> Message | ProtocolError:
    (item,) = decode_all(data, size)
    return item


def expected(type_: str, fields: dict[str, Any]) -> Message:
    """What the decoder should give for SAMPLES[type_]: points as tuples, nils left out."""
    data = {k: v for k, v in fields.items() if v is not None}
    if "moves" in data:
        data["moves"] = tuple(tuple(p) for p in data["moves"])
    return Message(type_, data)


def stream() -> tuple[bytes, list[Message]]:
    frames = b"".join(encode(t, **f) for t, f in SAMPLES.items())
    return frames, [expected(t, f) for t, f in SAMPLES.items()]


# ---- round trips and splits ----


def test_samples_cover_every_message_type() -> None:
    assert set(SAMPLES) == MESSAGE_TYPES


@pytest.mark.parametrize("type_", sorted(SAMPLES))
def test_every_message_type_round_trips(type_: str) -> None:
    assert one(encode(type_, **SAMPLES[type_])) == expected(type_, SAMPLES[type_])


def test_optional_fields_may_be_left_out_or_nil() -> None:
    hello = {**SAMPLES["hello"], "session": None}
    assert "session" not in one(encode("hello", **hello)).data
    sync = {k: v for k, v in SAMPLES["sync"].items() if k != "result"}
    assert one(frame({"type": "sync", **sync, "result": None})) == expected("sync", sync)


def test_short_stream_split_at_every_byte_boundary() -> None:
    data = encode("ping", t=5) + encode("chat", text="hi") + encode("resign")
    want = decode_all(data)
    assert [m.type for m in want] == ["ping", "chat", "resign"]
    for cut in range(len(data) + 1):
        decoder = FrameDecoder(15)
        assert decoder.feed(data[:cut]) + decoder.feed(data[cut:]) == want
    decoder = FrameDecoder(15)
    assert [m for i in range(len(data)) for m in decoder.feed(data[i : i + 1])] == want


@settings(max_examples=60, **RELAXED)
@given(st.lists(st.integers(0, 5000), max_size=40))
def test_long_stream_in_random_pieces_gives_the_same_messages(cuts: list[int]) -> None:
    data, want = stream()
    decoder = FrameDecoder(15)
    got = []
    bounds = [0, *sorted(c % (len(data) + 1) for c in cuts), len(data)]
    for start, end in zip(bounds, bounds[1:], strict=False):
        got += decoder.feed(data[start:end])
    assert got == want


def test_nothing_comes_out_of_a_truncated_frame_until_it_is_complete() -> None:
    data = encode("chat", text="hello there")
    decoder = FrameDecoder(15)
    assert decoder.feed(data[:2]) == []
    assert decoder.feed(data[2:-1]) == []
    assert decoder.feed(data[-1:]) == [Message("chat", {"text": "hello there"})]


def test_a_frame_of_the_largest_length_decodes() -> None:
    def payload(pad: int) -> bytes:
        return msgpack.packb({"type": "chat", "text": "big", "pad": b"x" * pad}, use_bin_type=True)

    pad = next(n for n in range(MAX_FRAME_BYTES - 40, MAX_FRAME_BYTES) if len(payload(n)) == 65536)
    assert one(raw_frame(payload(pad))) == Message("chat", {"text": "big"})
    assert one(raw_frame(payload(pad + 1))).code == "bad_length"


# ---- fatal errors ----


@pytest.mark.parametrize("length", [0, MAX_FRAME_BYTES + 1, 2**32 - 1])
def test_a_bad_length_is_fatal_and_the_decoder_stops(length: int) -> None:
    decoder = FrameDecoder(15)
    out = decoder.feed(encode("ping", t=1) + struct.pack(">I", length) + b"\x80" * 10)
    assert out[0] == Message("ping", {"t": 1})
    assert out[1].code == "bad_length" and out[1].fatal and len(out) == 2
    assert decoder.failed
    assert decoder.feed(encode("ping", t=2)) == []


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (msgpack.packb({"type": "ping", "t": 1}) + msgpack.packb({"type": "ping"}), "bad_frame"),
        (msgpack.packb({"type": "ping", "t": 1})[:-1], "bad_frame"),  # length says more
        (msgpack.packb([1, 2]), "not_a_map"),
        (msgpack.packb("ping"), "not_a_map"),
        (msgpack.packb({1: "ping", "type": "ping"}), "bad_frame"),
        (msgpack.packb({b"type": "ping"}, use_bin_type=True), "bad_frame"),
        (msgpack.packb({"t": 1}), "no_type"),
        (msgpack.packb({"type": 7}), "no_type"),
        (msgpack.packb({"type": "chat", "text": msgpack.ExtType(1, b"x")}), "bad_frame"),
        (b"\xc1", "bad_frame"),  # a reserved msgpack code
        (b"\x82\xa4type\xa4chat\xa4text\xa3\xed\xa0\x80", "bad_utf8"),  # an encoded lone surrogate
        (b"\x81\xa4type\xa4\xff\xfe\xfd\xfc", "bad_utf8"),
        (b"\xdd\xff\xff\xff\xff", "bad_frame"),  # an array header claiming 4 billion items
    ],
)
def test_bytes_that_are_not_one_map_with_a_type_are_fatal(payload: bytes, code: str) -> None:
    decoder = FrameDecoder(15)
    out = decoder.feed(raw_frame(payload) + encode("ping", t=1))
    assert [(e.code, e.fatal) for e in out] == [(code, True)]
    assert decoder.feed(encode("ping", t=1)) == []


@pytest.mark.parametrize("depth", [3, 50, 5000])
def test_deeply_nested_arrays_inside_a_field_are_fatal(depth: int) -> None:
    nested = b"\x91" * depth + b"\x01"  # [[[...1...]]]
    payload = b"\x82\xa4type\xa4chat\xa4text" + nested
    item = one(raw_frame(payload))
    assert isinstance(item, ProtocolError) and item.fatal
    assert item.code in {"too_deep", "bad_frame"}


def test_a_moves_list_nests_as_deep_as_the_contract_needs() -> None:
    assert isinstance(one(frame({"type": "load", "moves": [[1, 1]], "rule": "renju"})), Message)


# ---- non-fatal errors: the decoder carries on ----


def test_an_unknown_type_is_unsupported_and_the_next_frame_decodes() -> None:
    out = decode_all(frame({"type": "teleport", "x": 1}) + encode("ping", t=9))
    assert out[0] == ProtocolError("unsupported", "unknown message type 'teleport'")
    assert out[1] == Message("ping", {"t": 9})


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"type": "move", "x": 15, "y": 0, "ply": 1, "clock_ms": 0}, "x"),
        ({"type": "move", "x": 0, "y": -1, "ply": 1, "clock_ms": 0}, "y"),
        ({"type": "move", "x": True, "y": 0, "ply": 1, "clock_ms": 0}, "x"),
        ({"type": "move", "x": 1.0, "y": 0, "ply": 1, "clock_ms": 0}, "x"),
        ({"type": "move", "x": 0, "y": 0, "ply": 0, "clock_ms": 0}, "ply"),
        ({"type": "move", "x": 0, "y": 0, "ply": 226, "clock_ms": 0}, "ply"),
        ({"type": "move", "x": 0, "y": 0, "ply": 1, "clock_ms": 2**31}, "clock_ms"),
        ({"type": "move", "x": 0, "y": 0, "ply": 1}, "clock_ms"),
        ({"type": "ping", "t": 2**64 - 1}, "t"),
        ({"type": "ping", "t": -1}, "t"),
        ({"type": "ready", "ready": 1}, "ready"),
        ({"type": "undo_reply", "accept": "yes"}, "accept"),
        ({"type": "reject", "reason": "tired"}, "reason"),
        (sample("hello", app="chess"), "app"),
        (sample("hello", proto=65536), "proto"),
        (sample("hello", session="short"), "session"),
        (sample("hello", session="has space in it"), "session"),
        (sample("hello", version="x" * 33), "version"),
        (sample("welcome", size=21), "size"),
        (sample("welcome", color="red"), "color"),
        (sample("welcome", rule="gomoku"), "rule"),
        (sample("welcome", clock={"move_s": 1, "game_s": 1}), "clock.increment_s"),
        (sample("welcome", clock={"move_s": 86401, "game_s": 0, "increment_s": 0}), "clock.move_s"),
        (sample("start", clock_ms={"black": 1, "white": -1}), "clock_ms.white"),
        (sample("start", clock_ms=[1, 2]), "clock_ms"),
        (sample("start", moves=[[1, 1], [1, 1]]), "moves"),
        (sample("start", moves=[[1, 1, 1]]), "moves"),
        (sample("start", moves=[[1, 15]]), "moves"),
        (sample("start", moves=[[x, y] for x in range(15) for y in range(15)] + [[0, 0]]), "moves"),
        (sample("start", to_move=None), "to_move"),
        (sample("sync", state="paused"), "state"),
        (sample("sync", result={"winner": "black"}), "result.reason"),
        ({"type": "result", "reason": "five"}, "winner"),
        ({"type": "result", "winner": "draw", "reason": "five"}, "winner"),
        ({"type": "chat", "text": "x" * 201}, "text"),
        ({"type": "chat", "text": b"bytes, not text"}, "text"),
        ({"type": "bye"}, "reason"),
        ({"type": "error", "code": "x", "message": ["no"]}, "message"),
    ],
)
def test_a_bad_field_is_named_and_the_next_frame_decodes(fields: dict, field: str) -> None:
    out = decode_all(frame(fields) + encode("ping", t=3))
    assert len(out) == 2
    error = out[0]
    assert isinstance(error, ProtocolError) and error.code == "bad_message" and not error.fatal
    assert f"field '{field}'" in error.message
    assert out[1] == Message("ping", {"t": 3})


def test_extra_fields_are_dropped() -> None:
    assert one(frame({"type": "ping", "t": 1, "evil": [1, {"a": 2}]})) == Message("ping", {"t": 1})


def test_coordinates_off_a_15_board_are_fine_on_a_20_board() -> None:
    data = frame({"type": "move", "x": 19, "y": 16, "ply": 1, "clock_ms": 0})
    data += frame({"type": "load", "moves": [[19, 19]], "rule": "freestyle"})
    decoder = FrameDecoder(15)
    assert [e.code for e in decoder.feed(data)] == ["bad_message", "bad_message"]
    decoder.board_size = 20
    assert [m.type for m in decoder.feed(data)] == ["move", "load"]
    assert [m.type for m in FrameDecoder().feed(data)] == ["move", "load"]  # 20 until the welcome


@pytest.mark.parametrize("size", [14, 21, True, 15.0])
def test_the_board_size_must_be_one_the_game_has(size: Any) -> None:
    with pytest.raises(ValueError):
        FrameDecoder(size)


# ---- outside text ----


@pytest.mark.parametrize(
    "name", ["Ann\x00", "\x00", "a\u202eb", "a\tb", "x" * 33, "   ", "", "\u200b", 5, None]
)
def test_names_that_are_not_1_to_32_printable_characters_are_refused(name: Any) -> None:
    item = one(frame(sample("hello", name=name)))
    assert item.code == "bad_message" and "field 'name'" in item.message


def test_a_name_with_invalid_utf8_is_fatal() -> None:
    payload = bytearray(msgpack.packb(sample("hello", name="Zed")))
    payload[payload.index(b"Zed") : payload.index(b"Zed") + 3] = b"\xed\xb0\x80"  # U+DC00
    assert one(raw_frame(bytes(payload))).code == "bad_utf8"


@pytest.mark.parametrize(
    ("sent", "shown"), [("  Ann  ", "Ann"), ("x" * 32, "x" * 32), ("李 明", "李 明")]
)
def test_names_are_stripped_and_may_be_any_script(sent: str, shown: str) -> None:
    assert one(frame(sample("hello", name=sent))).data["name"] == shown


def test_chat_loses_its_control_characters() -> None:
    sent = "gg\x00\x07 well\u200b played\x1b[31m\r\n"
    assert one(frame({"type": "chat", "text": sent})).data["text"] == "gg well played[31m"
    long_but_clean = "y" * 200 + "\x00" * 50
    assert one(frame({"type": "chat", "text": long_but_clean})).data["text"] == "y" * 200
    assert one(frame({"type": "chat", "text": "\x00\x01 "})).code == "bad_message"


def test_clean_text() -> None:
    assert clean_text(" a\nb\u3000c ", 10) == "a b c"
    assert clean_text("a\ud800b", 10) == "ab"  # a lone surrogate from a file
    assert clean_text("abc", 2) is None
    assert clean_text("\x00", 5) is None
    assert clean_text(b"abc", 5) is None


# ---- encode refuses what the decoder would refuse ----


@pytest.mark.parametrize(
    ("type_", "fields"),
    [
        ("teleport", {}),
        ("ping", {}),
        ("ping", {"t": 1, "extra": 2}),
        ("move", {"x": 0, "y": 20, "ply": 1, "clock_ms": 0}),
        ("move", {"x": False, "y": 0, "ply": 1, "clock_ms": 0}),
        ("hello", {**SAMPLES["hello"], "name": "bad\x00name"}),
        ("load", {"moves": [(1, 1), (1, 1)], "rule": "renju"}),
        ("chat", {"text": "z" * 201}),
    ],
)
def test_encode_refuses_what_the_decoder_would_refuse(type_: str, fields: dict) -> None:
    with pytest.raises(ValueError):
        encode(type_, **fields)


def test_encode_checks_coordinates_against_the_given_board_size() -> None:
    with pytest.raises(ValueError, match="'x'"):
        encode("move", board_size=15, x=15, y=0, ply=1, clock_ms=0)


def test_encode_sends_cleaned_text() -> None:
    assert one(encode("chat", text=" hi\x00 ")).data == {"text": "hi"}


# ---- garbage in: values out, and only ones that keep the rules ----

SIZES = st.integers(15, 20)
FIELD_NAMES = sorted({name for fields in SAMPLES.values() for name in fields} | {"winner", "black"})
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.sampled_from([0, 1, 14, 15, 19, 20, 225, 400, 2**31 - 1, 2**31, 86400, 65535])
    | st.text(max_size=40)
    | st.sampled_from(["black", "white", "renju", "gomoku", "five", "over", "abcdefgh"])
    | st.binary(max_size=10)
    | st.floats(allow_nan=True)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.sampled_from(FIELD_NAMES), inner, max_size=4)
    ),
    max_leaves=8,
)


def assert_keeps_the_rules(item: Message | ProtocolError, size: int) -> None:
    """A Message holds only values the contract allows: it re-encodes unchanged at this size,
    and every text in it is printable and bounded, every number a real int. A ProtocolError
    can be sent back as it is."""
    if isinstance(item, ProtocolError):  # the session sends it back as an `error` message
        assert one(encode("error", code=item.code, message=item.message)).type == "error"
        return
    assert item.type in MESSAGE_TYPES
    assert one(encode(item.type, board_size=size, **item.data), size) == item
    stack: list[Any] = list(item.data.values())
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            assert value.isprintable() and value == value.strip() and 1 <= len(value) <= 200
        elif isinstance(value, (tuple, dict)):
            stack.extend(value.values() if isinstance(value, dict) else value)
        else:
            assert value is None or isinstance(value, (bool, int)), value
    for x, y in item.data.get("moves", ()):
        assert 0 <= x < size and 0 <= y < size
    if "x" in item.data:
        assert 0 <= item.data["x"] < size and 0 <= item.data["y"] < size
    if "name" in item.data:
        assert len(item.data["name"]) <= 32


@settings(max_examples=300, **RELAXED)
@given(st.binary(max_size=300), SIZES)
def test_garbage_bytes_never_raise(data: bytes, size: int) -> None:
    decoder = FrameDecoder(size)
    for item in decoder.feed(data) + decoder.feed(data):
        assert_keeps_the_rules(item, size)


@settings(max_examples=300, **RELAXED)
@given(
    st.sampled_from(sorted(MESSAGE_TYPES)),
    st.dictionaries(st.sampled_from(FIELD_NAMES), VALUES, max_size=8),
    st.booleans(),
    SIZES,
)
def test_maps_of_random_fields_give_values_that_keep_the_rules(
    type_: str, fields: dict, start_valid: bool, size: int
) -> None:
    base = dict(SAMPLES[type_]) if start_valid else {}
    data = frame({**base, **fields, "type": type_})
    for item in FrameDecoder(size).feed(data):
        assert_keeps_the_rules(item, size)


@settings(max_examples=200, **RELAXED)
@given(st.binary(min_size=1, max_size=200), st.integers(0, 2**32 - 1))
def test_a_frame_of_garbage_is_an_error_value(payload: bytes, length: int) -> None:
    decoder = FrameDecoder(15)
    out = decoder.feed(struct.pack(">I", length) + payload) + decoder.feed(raw_frame(payload))
    for item in out:
        assert_keeps_the_rules(item, 15)
