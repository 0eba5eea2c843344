"""LAN discovery with real zeroconf bound to 127.0.0.1 only, and the record checks alone.

Other programs on this machine may advertise on loopback at the same time (other test runs):
every test looks for its own unique names and never counts all hosts. Waits are generous upper
bounds, polled; the speed goal lives in tools/net_bench.py.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable

import pytest
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from gomoku import __version__
from gomoku.core.clock import TimeControl
from gomoku.core.types import Rule
from gomoku.net.discovery import (
    MAX_HOSTS,
    SERVICE_TYPE,
    Advertiser,
    Browser,
    DiscoveryError,
    clean_text,
    host_from_record,
    instance_label,
)
from gomoku.net.events import HostFound, HostInfo, HostLost, HostOptions, NetEvent

LOOPBACK = "127.0.0.1"
WAIT_S = 15.0  # an upper bound only: discovery on loopback takes about 1.2 s


def unique(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(3)}"


async def wait_until(check: Callable[[], bool], timeout_s: float = WAIT_S) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():
            return True
        await asyncio.sleep(0.05)
    return check()


class Lobby:
    """A Browser on loopback that records every event it reports."""

    def __init__(self) -> None:
        self.events: list[NetEvent] = []
        self.browser = Browser(LOOPBACK, self.events.append)

    def found(self, key: str) -> list[HostInfo]:
        return [e.host for e in self.events if isinstance(e, HostFound) and e.host.key == key]

    def found_named(self, name: str) -> list[HostInfo]:
        return [e.host for e in self.events if isinstance(e, HostFound) and e.host.name == name]

    def lost(self, key: str) -> bool:
        return any(isinstance(e, HostLost) and e.key == key for e in self.events)


def test_an_advertised_host_is_listed_with_its_fields_then_its_state_then_dropped():
    async def scenario() -> None:
        lobby = Lobby()
        host = Advertiser(LOOPBACK)
        name = unique("Alice")
        options = HostOptions(name=name, rule=Rule.RENJU, time_control=TimeControl(300, 5, 30))
        await lobby.browser.start()
        try:
            await host.register(options, 15999)
            key = host.key
            assert key is not None and key.endswith(SERVICE_TYPE)
            assert await wait_until(lambda: bool(lobby.found(key)))
            info = lobby.found(key)[-1]
            assert (info.name, info.address, info.port) == (name, LOOPBACK, 15999)
            assert (info.rule, info.size, info.state) == (Rule.RENJU, 15, "open")
            assert info.version == __version__
            assert info.time_control == TimeControl(300, 5, 30)
            assert info in lobby.browser.hosts

            await host.update("playing")
            assert await wait_until(lambda: lobby.found(key)[-1].state == "playing")
            assert lobby.found(key)[-1].port == 15999

            await host.unregister()
            assert host.key is None
            assert await wait_until(lambda: lobby.lost(key), timeout_s=5.0)
            assert key not in {h.key for h in lobby.browser.hosts}
        finally:
            await host.close()
            await lobby.browser.stop()

    asyncio.run(scenario())


def test_a_browser_opened_after_the_host_finds_it_and_closing_the_host_drops_it():
    async def scenario() -> None:
        lobby = Lobby()
        host = Advertiser(LOOPBACK)
        try:
            await host.register(HostOptions(name=unique("Early")), 15998)
            key = host.key
            await lobby.browser.start()
            await lobby.browser.start()  # idempotent
            assert await wait_until(lambda: bool(lobby.found(key)))
            await host.close()
            await host.close()  # idempotent
            assert await wait_until(lambda: lobby.lost(key), timeout_s=5.0)
        finally:
            await host.close()
            await lobby.browser.stop()
            await lobby.browser.stop()

    asyncio.run(scenario())


def test_two_hosts_with_the_same_name_are_both_listed_under_different_keys():
    async def scenario() -> None:
        lobby = Lobby()
        first, second = Advertiser(LOOPBACK), Advertiser(LOOPBACK)
        name = unique("Twin")
        await lobby.browser.start()
        try:
            await first.register(HostOptions(name=name), 15997)
            await second.register(HostOptions(name=name), 15996)
            assert first.key != second.key
            assert await wait_until(lambda: len({h.key for h in lobby.found_named(name)}) == 2)
            ports = {h.key: h.port for h in lobby.found_named(name)}
            assert ports == {first.key: 15997, second.key: 15996}
        finally:
            await first.close()
            await second.close()
            await lobby.browser.stop()

    asyncio.run(scenario())


def test_hostile_records_are_skipped_or_cleaned_and_the_lobby_keeps_working():
    good_txt = {"proto": "1", "rule": "freestyle", "size": "15", "state": "open", "version": "9"}
    hostile = {  # instance label -> TXT record (dict, or raw bytes as they go on the wire)
        unique("longname"): {
            **good_txt,
            "name": "A" * 200 + "\x00\x07",
            "size": "99",
            "rule": "chess",
        },
        unique("badsize"): {**good_txt, "name": "Mallory", "size": "99"},
        unique("badrule"): {**good_txt, "name": "Mallory", "rule": "chess"},
        unique("badstate"): {**good_txt, "name": "Mallory", "state": "\x1b[2J"},
        unique("noname"): {**good_txt, "name": "\x00\x01\u202e"},
        unique("rawbytes"): b"\x07proto=1\x09name=\xff\xfe\x80A\x0fsize=15\xff\xff\x40rule=",
        unique("truncated"): b"\x07proto=1\xffname=Zed",
    }
    cleaned_label = unique("cleaned")
    good_label = unique("good")

    async def scenario() -> None:
        lobby = Lobby()
        raw = AsyncZeroconf(interfaces=[LOOPBACK])
        await lobby.browser.start()
        try:
            records: dict[str, dict[str, str] | bytes] = {
                **hostile,
                cleaned_label: {**good_txt, "name": "Eve\x1b[31m\u202e\nX"},
                good_label: {**good_txt, "name": "Good"},
            }
            infos = [
                AsyncServiceInfo(
                    SERVICE_TYPE,
                    f"{label}.{SERVICE_TYPE}",
                    port=15995,
                    properties=txt,
                    parsed_addresses=[LOOPBACK],
                    server=f"{label}.local.",
                )
                for label, txt in records.items()
            ]
            await asyncio.gather(*(raw.async_register_service(info) for info in infos))
            good_key = f"{good_label}.{SERVICE_TYPE}"
            cleaned_key = f"{cleaned_label}.{SERVICE_TYPE}"
            assert await wait_until(
                lambda: bool(lobby.found(good_key) and lobby.found(cleaned_key))
            )
            await asyncio.sleep(1.0)  # every record has been announced by now
            assert lobby.found(cleaned_key)[-1].name == "Eve[31m X"  # the line break shows as a space
            for label in hostile:
                assert not lobby.found(f"{label}.{SERVICE_TYPE}"), label
        finally:
            await raw.async_close()
            await lobby.browser.stop()

    asyncio.run(scenario())


def test_an_exception_in_the_listener_does_not_stop_the_listing():
    async def scenario() -> None:
        seen: list[NetEvent] = []

        def listener(event: NetEvent) -> None:
            seen.append(event)
            raise RuntimeError("a bug in the UI side")

        browser = Browser(LOOPBACK, listener)
        first, second = Advertiser(LOOPBACK), Advertiser(LOOPBACK)
        await browser.start()
        try:
            await first.register(HostOptions(name=unique("One")), 15993)
            await second.register(HostOptions(name=unique("Two")), 15992)
            keys = {first.key, second.key}
            assert await wait_until(lambda: keys <= {h.key for h in browser.hosts})
            assert keys <= {e.host.key for e in seen if isinstance(e, HostFound)}
        finally:
            await first.close()
            await second.close()
            await browser.stop()

    asyncio.run(scenario())


def test_bad_arguments_are_refused_before_anything_is_sent():
    async def scenario() -> None:
        host = Advertiser(LOOPBACK)
        with pytest.raises(ValueError):
            await host.register(HostOptions(name="Alice"), 0)
        with pytest.raises(ValueError):
            await host.register(HostOptions(name="\n\x00 "), 15515)
        with pytest.raises(ValueError):
            await host.register(HostOptions(name="x" * 33), 15515)
        with pytest.raises(ValueError):
            await host.register(HostOptions(name="Alice"), 15515, address="my-pc")
        with pytest.raises(ValueError):
            await host.update("closed")
        await host.update("playing")  # not registered: nothing to do
        await host.close()
        with pytest.raises(DiscoveryError):
            await Advertiser("not-an-address").register(HostOptions(name="Alice"), 15515)
        with pytest.raises(DiscoveryError):
            await Browser("eth0", lambda event: None).start()

    asyncio.run(scenario())


# --- the record checks alone -------------------------------------------------------------------

GOOD = {
    b"proto": b"1",
    b"name": b"Alice",
    b"rule": b"standard",
    b"size": b"20",
    b"state": b"playing",
    b"version": b"0.1.0",
    b"clock": b"600,10,0",
}


def record(**changes: bytes | None) -> dict[bytes, bytes | None]:
    props = dict(GOOD)
    for key, value in changes.items():
        if value is None:
            props.pop(key.encode(), None)
        else:
            props[key.encode()] = value
    return props


def test_a_good_record_becomes_a_host_info():
    info = host_from_record("Alice._gomoku._tcp.local.", GOOD, 80, ["10.0.0.2", "fe80::1"], 15515)
    assert info == HostInfo(
        key="Alice._gomoku._tcp.local.",
        name="Alice",
        address="10.0.0.2",
        port=15515,
        rule=Rule.STANDARD,
        size=20,
        state="playing",
        version="0.1.0",
        time_control=TimeControl(600, 10, 0),
    )


@pytest.mark.parametrize(
    "props",
    [
        record(proto=b"2"),
        record(proto=None),
        record(name=None),
        record(name=b""),
        record(name=b"   "),
        record(name=b"x" * 33),
        record(name=b"\xff\xfe"),
        record(name="é".encode() * 200),
        record(rule=b"chess"),
        record(rule=b"FREESTYLE"),
        record(size=b"99"),
        record(size=b"14"),
        record(size=b"+15"),
        record(size=b"\xd9\xa1\xd9\xa5"),  # Arabic-Indic "15": digits, but not ours
        record(size=b"15" * 100),
        record(state=b"closed"),
        record(state=None),
        record(version=None),
        record(version=b"v" * 33),
    ],
)
def test_a_record_with_a_bad_field_is_skipped(props):
    assert host_from_record("Bad._gomoku._tcp.local.", props, 80, ["10.0.0.2"], 15515) is None


@pytest.mark.parametrize("port", [0, -1, 65536, None])
def test_a_record_with_a_bad_port_or_no_address_is_skipped(port):
    assert host_from_record("Bad._gomoku._tcp.local.", GOOD, 80, ["10.0.0.2"], port) is None
    assert host_from_record("Bad._gomoku._tcp.local.", GOOD, 80, [], 15515) is None
    assert host_from_record("Bad._gomoku._tcp.local.", GOOD, 5000, ["10.0.0.2"], 15515) is None


@pytest.mark.parametrize("clock", [b"1,2", b"1,2,3,4", b"-1,0,0", b"a,b,c", b"9999999,0,0", b""])
def test_a_malformed_clock_is_ignored_not_fatal(clock):
    info = host_from_record("Alice._gomoku._tcp.local.", record(clock=clock), 80, ["10.0.0.2"], 1)
    assert info is not None and info.time_control is None


def test_names_are_cleaned_to_printable_text_of_at_most_32_characters():
    assert clean_text("  Bob\x00\x1b[1m\u200b\u202e  ", 32) == "Bob[1m"
    assert clean_text("a\nb\tc\u2028d e", 32) == "a b c d e"  # whitespace of any kind: a space
    assert clean_text("x" * 32, 32) == "x" * 32
    assert clean_text("x" * 33, 32) is None
    assert clean_text("\x00\x01", 32) is None
    assert clean_text(b"Bob", 32) is None
    assert clean_text("\ud800Bob", 32) == "Bob"  # a lone surrogate


def test_instance_labels_fit_a_dns_label_and_keep_no_dots():
    assert instance_label("Dr. Who") == "Dr_ Who"
    long = instance_label("界" * 32)  # 96 bytes of UTF-8
    assert len(long.encode("utf-8")) <= 56 and long == "界" * 18


def test_a_flood_of_records_lists_at_most_max_hosts():
    prefix = unique("flood")
    txt = {
        "proto": "1",
        "name": "F",
        "rule": "freestyle",
        "size": "15",
        "state": "open",
        "version": "9",
    }

    async def scenario() -> None:
        lobby = Lobby()
        raw = AsyncZeroconf(interfaces=[LOOPBACK])
        await lobby.browser.start()
        try:
            infos = [
                AsyncServiceInfo(
                    SERVICE_TYPE,
                    f"{prefix}-{i}.{SERVICE_TYPE}",
                    port=15000 + i,
                    properties=txt,
                    parsed_addresses=[LOOPBACK],
                    server=f"{prefix}-{i}.local.",
                )
                for i in range(MAX_HOSTS + 6)
            ]
            await asyncio.gather(*(raw.async_register_service(info) for info in infos))
            ours = lambda: [h for h in lobby.browser.hosts if h.key.startswith(prefix)]  # noqa: E731
            # other programs' hosts on loopback count towards the cap too, so ours may be fewer
            assert await wait_until(lambda: len(lobby.browser.hosts) >= MAX_HOSTS)
            await asyncio.sleep(1.0)  # the rest of the flood has landed by now
            assert len(lobby.browser.hosts) <= MAX_HOSTS
            assert 0 < len(ours()) <= MAX_HOSTS
        finally:
            await raw.async_close()
            await lobby.browser.stop()

    asyncio.run(scenario())
