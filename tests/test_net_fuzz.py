"""tools/net_fuzz.py: its frames are what it says they are, and a short run against a live host
on 127.0.0.1 ends with no crash, no hang, every protocol error answered and a clean guest served."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path

import msgpack

from gomoku.net.protocol import FrameDecoder, Message, ProtocolError, decode_payload

FUZZ = Path(__file__).resolve().parent.parent / "tools" / "net_fuzz.py"


def load_fuzz():
    spec = importlib.util.spec_from_file_location("tools_net_fuzz", FUZZ)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


nf = load_fuzz()


def frames(table, count: int, seed: int = 3):
    source = nf.fuzz_frames(random.Random(seed), table)
    return [next(source) for _ in range(count)]


def test_each_frame_gets_from_a_decoder_the_answer_the_fuzzer_counts_on():
    rng = random.Random(1)
    for fuzz in frames(nf.ANY, 1500) + frames(nf.FLOOD, 1500):
        if fuzz.kind == "raw":
            continue
        decoder = FrameDecoder(nf.SIZE)
        items = [item for chunk in nf.split(fuzz.data, rng) for item in decoder.feed(chunk)]
        assert len(items) == 1, fuzz
        item = items[0]
        if fuzz.kind == "msg":
            assert isinstance(item, Message) and item.type == fuzz.type
        else:
            assert isinstance(item, ProtocolError) and item.fatal == (fuzz.kind == "fatal"), item


def test_the_generators_reach_every_error_code_of_the_contract():
    codes = Counter()
    for fuzz in frames(nf.ANY, 3000) + frames(nf.FLOOD, 3000):
        length = int.from_bytes(fuzz.data[:4], "big")
        if fuzz.kind == "fatal" and not 1 <= length <= 65536:
            codes["bad_length"] += 1
        elif fuzz.kind in ("fatal", "error"):
            codes[decode_payload(fuzz.data[4:], nf.SIZE).code] += 1
    assert set(codes) >= {"bad_length", "bad_frame", "bad_utf8", "too_deep", "not_a_map",
                          "no_type", "unsupported", "bad_message"}, codes


def test_a_seed_gives_the_same_frames_and_another_seed_others():
    first = [f.data for f in frames(nf.ANY, 200, seed=9)]
    assert first == [f.data for f in frames(nf.ANY, 200, seed=9)]
    assert first != [f.data for f in frames(nf.ANY, 200, seed=10)]


def test_pack_writes_what_msgpack_reads_and_what_it_refuses_to_write():
    value = {"type": "move", "x": [1, 2.5, None, True, b"\x00"], "y": {"a": -(2**63)}}
    assert msgpack.unpackb(nf.pack(value), raw=False) == value
    duplicate = nf.Pairs((("type", "ping"), ("t", 1), ("t", 2)))
    assert msgpack.unpackb(nf.pack(duplicate), raw=False) == {"type": "ping", "t": 2}
    surrogate = nf.pack({"type": "chat", "text": nf.raw_str(b"\xed\xa0\x80")})
    assert decode_payload(surrogate).code == "bad_utf8"
    lying = nf.pack(nf.Pairs((("type", "ping"),), count=2))
    assert decode_payload(lying).code == "bad_frame"


def test_split_cuts_a_batch_anywhere_and_loses_nothing():
    rng = random.Random(4)
    data = bytes(range(256)) * 3
    pieces = [nf.split(data, rng) for _ in range(200)]
    assert all(b"".join(p) == data and all(p) for p in pieces)
    assert max(len(p) for p in pieces) >= 8 and min(len(p) for p in pieces) == 1


def test_a_quick_run_leaves_the_host_alive_and_serving_a_clean_guest():
    report = nf.run(nf.Config(frames=3000, seed=5, timing=nf.QUICK_TIMING))
    assert report.crashes == 0, report.crash_notes
    assert report.hangs == 0, report.hang_notes
    assert report.clean_guest, report.clean_guest_note
    assert report.frames >= 3000 and report.connections > 10
    assert report.errors_answered > 0 and report.bad_answers == 0, report.notes
    assert report.missing_answers == 0, "every protocol error the fuzzer sent got its error frame back"
    assert report.scenarios.get("second hello: reject busy", 0) > 0, report.scenarios
