"""LAN discovery over mDNS/DNS-SD (zeroconf's asyncio API): advertise a host, browse hosts.

The contract is ../shared/protocol.md (Discovery): service type `_gomoku._tcp.local.`, instance
name = the host's player name (unique-ified by zeroconf), TXT proto/name/rule/size/state/version
plus our extra key `clock`. Everything here runs on the caller's asyncio loop (the bridge's);
every network wait is bounded by a timeout. Not thread-safe: use each object from its loop only.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace

import ifaddr  # zeroconf's own dependency: lists this machine's addresses
from zeroconf import Error as ZeroconfError
from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from gomoku import __version__
from gomoku.core.clock import TimeControl
from gomoku.core.types import MAX_SIZE, MIN_SIZE, Rule
from gomoku.net.events import MAX_NAME_CHARS, HostFound, HostInfo, HostLost, HostOptions, NetEvent
from gomoku.net.protocol import clean_text

log = logging.getLogger(__name__)

SERVICE_TYPE = "_gomoku._tcp.local."
PROTOCOL_VERSION = "1"
STATES = ("open", "playing")
MAX_HOSTS = 64  # the lobby lists at most this many; a flood of records is ignored past it
MAX_VERSION_CHARS = 32
MAX_TXT_BYTES = 1024  # our own record is about 100 bytes; anything far larger is not a host of ours
MAX_SERVICE_NAME_CHARS = 255  # a DNS name's length limit
MAX_LABEL_BYTES = 56  # a DNS label holds 63 bytes; room for zeroconf's "-2" ... "-99" suffix
MAX_CLOCK_DIGITS = 6  # seconds per field (about 11 days): plenty, and a bounded int()
REGISTER_TIMEOUT_S = 10.0  # probing takes about 1 s; a stuck socket must not hold the caller
UPDATE_TIMEOUT_S = 3.0
UNREGISTER_TIMEOUT_S = 3.0  # the goodbye packets take about 0.25 s
CLOSE_TIMEOUT_S = 3.0
RESOLVE_TIMEOUT_MS = 3000  # zeroconf counts this one in milliseconds


class DiscoveryError(Exception):
    """mDNS could not start or a registration failed; str(error) is plain words for the player."""


def txt_properties(options: HostOptions, state: str) -> dict[str, str]:
    """The TXT record a host advertises (the contract's keys plus `clock`)."""
    tc = options.time_control
    return {
        "proto": PROTOCOL_VERSION,
        "name": options.name,
        "rule": options.rule.value,
        "size": str(options.size),
        "state": state,
        "version": __version__,
        "clock": f"{tc.game_s},{tc.increment_s},{tc.move_s}",
    }


def _decode(properties: Mapping[bytes, bytes | None], key: bytes, max_bytes: int) -> str | None:
    """One TXT value as text, or None when absent, empty of a value, too long or not UTF-8."""
    raw = properties.get(key)
    if not isinstance(raw, bytes) or len(raw) > max_bytes:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _parse_clock(text: str | None) -> TimeControl | None:
    """`clock=<game_s>,<increment_s>,<move_s>` (our extension): None when absent or malformed."""
    if text is None:
        return None
    parts = text.split(",")
    if len(parts) != 3 or not all(
        p.isascii() and p.isdigit() and len(p) <= MAX_CLOCK_DIGITS for p in parts
    ):
        return None
    game_s, increment_s, move_s = (int(p) for p in parts)
    return TimeControl(game_s=game_s, increment_s=increment_s, move_s=move_s)


def host_from_record(
    key: str,
    properties: Mapping[bytes, bytes | None],
    txt_bytes: int,
    addresses: list[str],
    port: int | None,
) -> HostInfo | None:
    """A HostInfo from one resolved record, or None when any field of the contract is missing or
    bad (the record is then not shown). Never raises on what the network sent.

    `properties` are the raw TXT pairs, `txt_bytes` the TXT record's length on the wire,
    `addresses` the resolved addresses as text (the first is used). A malformed `clock` (our own
    extension, not in the contract) only leaves time_control None."""
    if not isinstance(key, str) or not 1 <= len(key) <= MAX_SERVICE_NAME_CHARS:
        return None
    if txt_bytes > MAX_TXT_BYTES or not addresses:
        return None
    if not isinstance(port, int) or not 1 <= port <= 65535:
        return None
    if _decode(properties, b"proto", 4) != PROTOCOL_VERSION:
        return None  # another protocol: we could not talk to it anyway
    name = clean_text(_decode(properties, b"name", 4 * MAX_NAME_CHARS + 64), MAX_NAME_CHARS)
    version = clean_text(_decode(properties, b"version", 4 * MAX_VERSION_CHARS), MAX_VERSION_CHARS)
    rule_text = _decode(properties, b"rule", 16)
    size_text = _decode(properties, b"size", 2)
    state = _decode(properties, b"state", 16)
    if name is None or version is None or state not in STATES:
        return None
    if rule_text not in {r.value for r in Rule}:
        return None
    if size_text is None or not (size_text.isascii() and size_text.isdigit()):
        return None
    size = int(size_text)
    if not MIN_SIZE <= size <= MAX_SIZE:
        return None
    return HostInfo(
        key=key,
        name=name,
        address=addresses[0],
        port=port,
        rule=Rule(rule_text),
        size=size,
        state=state,
        version=version,
        time_control=_parse_clock(_decode(properties, b"clock", 3 * (MAX_CLOCK_DIGITS + 1))),
    )


def _open_zeroconf(interface: str) -> AsyncZeroconf:
    """An AsyncZeroconf on all interfaces ("") or on the one with this address.

    Raises DiscoveryError for an interface that is not an IP address or sockets that cannot be
    opened. IPv4 only unless the interface is an IPv6 address."""
    if interface:
        try:
            version = ipaddress.ip_address(interface).version
        except ValueError as error:
            raise DiscoveryError(
                f"The network interface must be an IP address, not {interface!r}."
            ) from error
        choice: list[str] | InterfaceChoice = [interface]
        ip_version = IPVersion.V6Only if version == 6 else IPVersion.V4Only
    else:
        choice, ip_version = InterfaceChoice.All, IPVersion.V4Only
    try:
        return AsyncZeroconf(interfaces=choice, ip_version=ip_version)
    except (OSError, RuntimeError, ZeroconfError) as error:
        raise DiscoveryError(f"Could not start LAN discovery: {error}") from error


def local_addresses(interface: str) -> list[str]:
    """The addresses a host advertises: the chosen interface's, else every non-loopback IPv4
    address of this machine (loopback only when there is nothing else)."""
    if interface:
        return [interface]
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback:
                found.append(ip.ip)
    return found or ["127.0.0.1"]


def instance_label(name: str) -> str:
    """The DNS-SD instance label for a player's name: dots (DNS separators) replaced, cut to
    MAX_LABEL_BYTES of UTF-8 on a character boundary. The TXT `name` keeps the real name."""
    label = name.replace(".", "_")
    return (
        label.encode("utf-8")[:MAX_LABEL_BYTES].decode("utf-8", errors="ignore").strip() or "host"
    )


# asyncio.TimeoutError is the builtin TimeoutError only from Python 3.11: both are caught for 3.10.
async def _bounded(awaitable: Awaitable[object], timeout_s: float, what: str) -> None:
    """Await with a timeout; a timeout or a network error is logged, never raised."""
    try:
        await asyncio.wait_for(awaitable, timeout_s)
    except (TimeoutError, asyncio.TimeoutError, OSError, ZeroconfError) as error:
        log.warning("discovery: %s did not finish: %r", what, error)


class Advertiser:
    """Advertises one hosted game (at most one at a time) over mDNS.

    `interface` "" means all interfaces; an IP address limits zeroconf to that interface."""

    def __init__(self, interface: str = "") -> None:
        self.interface = interface
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._options: HostOptions | None = None
        self._server = f"gomoku-{secrets.token_hex(4)}.local."  # our own host name: never shared
        self._background: set[asyncio.Future[object]] = set()  # announcements still being sent

    @property
    def key(self) -> str | None:
        """The registered service name (unique-ified: "Alice-2._gomoku._tcp.local."), or None.
        A Browser's HostInfo.key equal to it is our own advertisement."""
        return self._info.name if self._info is not None else None

    async def register(self, options: HostOptions, port: int, address: str | None = None) -> None:
        """Advertise a host as `state=open` on `port`; returns once zeroconf has checked the name
        (about 1 s), announcements go on in the background. Replaces a previous registration.

        The name is advertised cleaned (clean_text). Raises ValueError for a port outside
        1..65535, a name with nothing printable or over MAX_NAME_CHARS, or an `address` that is not
        an IP address; DiscoveryError when mDNS cannot start or the registration fails or times out."""
        if not 1 <= port <= 65535:
            raise ValueError(f"port must be 1..65535, not {port}")
        name = clean_text(options.name, MAX_NAME_CHARS)
        if name is None:
            raise ValueError(f"not a player name: {options.name!r}")
        options = replace(options, name=name)
        if address:
            ipaddress.ip_address(address)  # ValueError, before any socket opens
        await self.unregister()
        if self._zc is None:
            self._zc = _open_zeroconf(self.interface)
        addresses = [address] if address else local_addresses(self.interface)
        info = AsyncServiceInfo(
            SERVICE_TYPE,
            f"{instance_label(name)}.{SERVICE_TYPE}",
            port=port,
            properties=txt_properties(options, "open"),
            server=self._server,
            parsed_addresses=addresses,
        )
        try:
            announcing = await asyncio.wait_for(
                self._zc.async_register_service(info, allow_name_change=True), REGISTER_TIMEOUT_S
            )
        except (TimeoutError, asyncio.TimeoutError) as error:
            raise DiscoveryError("Advertising the game on the network timed out.") from error
        except (OSError, ValueError, ZeroconfError) as error:
            raise DiscoveryError(f"Could not advertise the game on the network: {error}") from error
        self._keep(announcing)
        self._info, self._options = info, options

    async def update(self, state: str) -> None:
        """Advertise a new `state` ("open" | "playing"); nothing when not registered.
        Raises ValueError for another state; network trouble is logged, not raised."""
        if state not in STATES:
            raise ValueError(f"state must be one of {STATES}, not {state!r}")
        if self._info is None or self._options is None or self._zc is None:
            return
        old = self._info
        info = AsyncServiceInfo(
            SERVICE_TYPE,
            old.name,
            port=old.port,
            properties=txt_properties(self._options, state),
            server=old.server,
            parsed_addresses=old.parsed_addresses(),
        )
        self._info = info
        try:
            announcing = await asyncio.wait_for(
                self._zc.async_update_service(info), UPDATE_TIMEOUT_S
            )
        except (TimeoutError, asyncio.TimeoutError, OSError, ZeroconfError) as error:
            log.warning("discovery: update to %s failed: %r", state, error)
            return
        self._keep(announcing)

    async def unregister(self) -> None:
        """Withdraw the advertisement (goodbye packets, so browsers drop it at once); nothing when
        not registered. Bounded by UNREGISTER_TIMEOUT_S; never raises for network trouble."""
        info, self._info, self._options = self._info, None, None
        if info is None or self._zc is None:
            return
        for task in list(self._background):
            task.cancel()  # an announcement still running would contradict the goodbye
        try:
            goodbye = await asyncio.wait_for(
                self._zc.async_unregister_service(info), UNREGISTER_TIMEOUT_S
            )
        except (TimeoutError, asyncio.TimeoutError, OSError, ZeroconfError) as error:
            log.warning("discovery: unregister failed: %r", error)
            return
        await _bounded(goodbye, UNREGISTER_TIMEOUT_S, "goodbye")

    async def close(self) -> None:
        """Unregister and release the sockets (idempotent; bounded; never raises for network trouble)."""
        await self.unregister()
        zc, self._zc = self._zc, None
        if zc is not None:
            await _bounded(zc.async_close(), CLOSE_TIMEOUT_S, "closing zeroconf")

    def _keep(self, awaitable: Awaitable[object]) -> None:
        """Hold a background announcement until it is done (the loop keeps only weak references)."""
        future = asyncio.ensure_future(awaitable)
        self._background.add(future)
        future.add_done_callback(self._background.discard)
        future.add_done_callback(_log_failure)


def _log_failure(future: asyncio.Future[object]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("discovery: announcement failed: %r", future.exception())


class Browser:
    """Lists the hosts on the network: calls `on_event(HostFound(info))` when a host appears or its
    record changes, `on_event(HostLost(key))` when it goes (or its record turns bad).

    `on_event` is called on the loop, from zeroconf's callbacks and our resolve tasks; an exception
    in it is logged, not raised. At most MAX_HOSTS hosts are listed; stop() reports nothing."""

    def __init__(self, interface: str, on_event: Callable[[NetEvent], None]) -> None:
        self.interface = interface
        self._on_event = on_event
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._hosts: dict[str, HostInfo] = {}
        self._resolving: dict[str, asyncio.Task[None]] = {}

    @property
    def hosts(self) -> list[HostInfo]:
        """The hosts listed now (a copy)."""
        return list(self._hosts.values())

    async def start(self) -> None:
        """Start browsing (idempotent). Raises DiscoveryError when mDNS cannot start."""
        if self._zc is not None:
            return
        self._zc = _open_zeroconf(self.interface)
        try:
            self._browser = AsyncServiceBrowser(
                self._zc.zeroconf, SERVICE_TYPE, handlers=[self._changed]
            )
        except (OSError, ZeroconfError) as error:
            zc, self._zc = self._zc, None
            await _bounded(zc.async_close(), CLOSE_TIMEOUT_S, "closing zeroconf")
            raise DiscoveryError(f"Could not browse the network: {error}") from error

    async def stop(self) -> None:
        """Stop browsing and forget the list (idempotent, bounded, never raises for network trouble)."""
        browser, zc, self._browser, self._zc = self._browser, self._zc, None, None
        tasks = list(self._resolving.values())
        self._resolving.clear()
        self._hosts.clear()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_TIMEOUT_S)
        if browser is not None:
            await _bounded(browser.async_cancel(), CLOSE_TIMEOUT_S, "cancelling the browser")
        if zc is not None:
            await _bounded(zc.async_close(), CLOSE_TIMEOUT_S, "closing zeroconf")

    def _changed(
        self, zeroconf: object, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        """zeroconf's callback (on the loop): resolve new or changed services, drop removed ones."""
        if self._zc is None or service_type != SERVICE_TYPE or len(name) > MAX_SERVICE_NAME_CHARS:
            return
        previous = self._resolving.pop(name, None)
        if previous is not None:
            previous.cancel()  # a newer record supersedes the one being resolved
        if state_change is ServiceStateChange.Removed:
            self._drop(name)
            return
        if name not in self._hosts and len(self._hosts) + len(self._resolving) >= MAX_HOSTS:
            return  # the list is full: a flood of records must not grow our work without bound
        self._resolving[name] = asyncio.ensure_future(self._resolve(name))

    async def _resolve(self, name: str) -> None:
        """Fetch one service's SRV/TXT/A records (bounded) and report what changed."""
        zc = self._zc
        try:
            if zc is None:
                return
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            if not await info.async_request(zc.zeroconf, RESOLVE_TIMEOUT_MS):
                return  # no answer in time: keep what we knew; a later record retries
            host = host_from_record(
                name,
                info.properties,
                len(info.text or b""),
                info.parsed_scoped_addresses(),
                info.port,
            )
        except (OSError, ValueError, ZeroconfError) as error:
            log.warning("discovery: resolving %r failed: %r", name, error)
            return
        finally:
            if self._resolving.get(name) is asyncio.current_task():
                del self._resolving[name]
        if host is None:
            log.info("discovery: skipped a record with bad fields: %r", name)
            self._drop(name)
        elif self._hosts.get(name) != host:
            if name not in self._hosts and len(self._hosts) >= MAX_HOSTS:
                return
            self._hosts[name] = host
            self._emit(HostFound(host))

    def _drop(self, name: str) -> None:
        if self._hosts.pop(name, None) is not None:
            self._emit(HostLost(name))

    def _emit(self, event: NetEvent) -> None:
        try:
            self._on_event(event)
        except Exception:  # the listener's bug must not break zeroconf's record handling
            log.exception("discovery: on_event failed")


__all__ = [
    "SERVICE_TYPE",
    "Advertiser",
    "Browser",
    "DiscoveryError",
    "clean_text",
    "host_from_record",
    "instance_label",
    "local_addresses",
    "txt_properties",
]
