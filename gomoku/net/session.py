"""The asyncio side of a LAN duel: listen or connect, handshake, heartbeat, reconnect.

A HostSession or GuestSession drives a match (match.py) with the checked messages of one TCP
connection and writes what the match says to send. Everything runs on one event loop (the
bridge's thread); `on_event` is called on that loop. Time limits are constructor parameters
whose defaults are the contract's, so tests can make them short.

Bounds: frames are read a chunk at a time and each chunk's messages are handled before the
next read; the write buffer is drained after each chunk and a peer that lets it grow past
WRITE_LIMIT is cut off, so neither a flooding nor a silent reader grows our memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gomoku.net.events import (
    CONNECT_TIMEOUT_S,
    DEFAULT_PORT,
    HELLO_TIMEOUT_S,
    SILENCE_LOST_S,
    Failed,
    Hosting,
    HostOptions,
    NetEvent,
    Notice,
)
from gomoku.net.match import Command, GuestMatch, HostMatch, Leave, Step
from gomoku.net.protocol import (
    MAX_CODE_CHARS,
    MAX_REASON_CHARS,
    FrameDecoder,
    Message,
    ProtocolError,
    encode,
)

log = logging.getLogger(__name__)

HEARTBEAT_S = 2.0  # a ping at least this often
RETRY_S = 2.0  # a lost guest tries to come back this often
TICK_S = 0.1  # the match's clocks and time-outs are looked at this often
READ_CHUNK = 16384
WRITE_LIMIT = 256 * 1024  # bytes waiting for a peer that does not read: beyond, cut it off
MAX_PENDING = 8  # connections still in their handshake at once; a newcomer evicts the oldest
LINGER_S = 0.5  # closing: read and drop what the peer still sends, so our last frames arrive
LINGER_BYTES = 1 << 20
STOOD_STILL_S = 2.0  # a tick this late means this process was stopped, not merely busy
MAX_FRAMES_PER_S = 500  # a game sends a few a second; far more is a flood: the link is cut

EventSink = Callable[[NetEvent], None]


@dataclass(frozen=True)
class Timing:
    """The session's time limits in seconds; the defaults are the contract's (tests shorten)."""

    heartbeat_s: float = HEARTBEAT_S
    silence_s: float = SILENCE_LOST_S
    hello_timeout_s: float = HELLO_TIMEOUT_S
    connect_timeout_s: float = CONNECT_TIMEOUT_S
    retry_s: float = RETRY_S
    tick_s: float = TICK_S
    max_frames_per_s: int = MAX_FRAMES_PER_S


class _Link:
    """One TCP connection: a FrameDecoder on the way in, encoded frames on the way out."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        board_size: int,
        max_frames_per_s: int = MAX_FRAMES_PER_S,
    ) -> None:
        self.reader = reader
        self.max_frames_per_s = max_frames_per_s
        self.writer = writer
        self.decoder = FrameDecoder(board_size)
        self.heard = time.monotonic()  # when the last bytes came in
        self.pinged = time.monotonic()
        self.closed = False
        self._window_start = self.heard  # frames counted per one-second window
        self._window_frames = 0
        self.flooded = False  # nothing more is read after a flood
        self._closer: asyncio.Future[None] | None = None
        peer = writer.get_extra_info("peername")
        self.peer: tuple[str, int] = (str(peer[0]), int(peer[1])) if peer else ("", 0)

    def send(self, type_: str, fields: dict[str, Any]) -> None:
        """Queue one frame; a peer that does not read what we write is cut off."""
        if self.closed:
            return
        try:
            frame = encode(type_, **fields)
        except ValueError as error:  # our own bug: it must not reach the wire
            log.warning("not sent: %s %s", type_, error)
            return
        self.writer.write(frame)
        if self.writer.transport.get_write_buffer_size() > WRITE_LIMIT:
            self.abort()

    async def receive(self) -> list[Message | ProtocolError] | None:
        """The messages of the next chunk of bytes; None when the connection is over."""
        if self.closed or self.flooded:
            return None
        try:
            data = await self.reader.read(READ_CHUNK)
        except (ConnectionError, OSError):
            data = b""
        if not data:
            return None
        now = time.monotonic()
        self.heard = now
        items = self.decoder.feed(data)
        if now - self._window_start >= 1.0:
            self._window_start, self._window_frames = now, 0
        self._window_frames += len(items)
        if self._window_frames > self.max_frames_per_s:  # a flood: stop before it costs the UI its GIL
            self.flooded = True
            return [*items, ProtocolError("flood", "too many messages in a second", fatal=True)]
        return items

    async def drain(self) -> None:
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            await self.writer.drain()

    async def close(self) -> None:
        """Flush what was written (briefly) and close; every caller waits for the same close."""
        if self._closer is None:
            if self.closed:  # aborted
                return
            self.closed = True
            self._closer = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closer)

    async def _close(self) -> None:
        with contextlib.suppress(ConnectionError, OSError, RuntimeError, asyncio.TimeoutError):
            await asyncio.wait_for(self.writer.drain(), 1.0)
        # Half-close, then read what is still coming: closing with unread bytes makes the kernel
        # send a reset that throws away our last frames (the error or bye that says why).
        with contextlib.suppress(ConnectionError, OSError, RuntimeError, asyncio.TimeoutError):
            if self.writer.can_write_eof():
                self.writer.write_eof()
            await asyncio.wait_for(self._discard_input(), LINGER_S)
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError, RuntimeError, asyncio.TimeoutError):
            await asyncio.wait_for(self.writer.wait_closed(), 1.0)

    async def _discard_input(self) -> None:
        left = LINGER_BYTES
        while left > 0:
            data = await self.reader.read(READ_CHUNK)
            if not data:
                return
            left -= len(data)

    def abort(self) -> None:
        self.closed = True
        self.writer.transport.abort()


def _error_fields(error: ProtocolError) -> dict[str, Any]:
    return {"code": error.code[:MAX_CODE_CHARS], "message": error.message[:MAX_REASON_CHARS] or "?"}


def machine_address() -> str:
    """This machine's LAN address for a player to type, without sending any packet (a UDP
    socket's connect only picks a route); 127.0.0.1 if there is none."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    return "127.0.0.1"


class _Session:
    """What both sessions share: applying a match's Steps, the tick and heartbeat task."""

    match: HostMatch | GuestMatch

    def __init__(self, on_event: EventSink, timing: Timing) -> None:
        self.on_event = on_event
        self.timing = timing
        self.link: _Link | None = None  # the connection the match is talking through
        self.tasks: set[asyncio.Task[Any]] = set()
        self.done = asyncio.Event()  # the session is over for good

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def _emit(self, events: list[NetEvent]) -> None:
        for event in events:
            self.on_event(event)

    def _run(self, call: Callable[[], Step], link: _Link | None = None) -> None:
        """Apply what a match call says; a bug in the match is logged, never fatal to the loop."""
        try:
            step = call()
        except Exception:
            log.exception("the match failed")
            self.on_event(Notice("something went wrong in the network game", error=True))
            return
        self._apply(step, link)

    def _apply(self, step: Step, link: _Link | None = None) -> None:
        link = link if link is not None else self.link
        self._emit(step.events)  # first: our UI knows a change before the peer can answer it
        if link is not None:
            for type_, fields in step.send:
                link.send(type_, fields)
        if step.close and link is not None:
            if link is self.link:
                self.link = None
            self._spawn(link.close())
        if self.match.finished:
            self._finish()

    def command(self, command: Command) -> None:
        """The player's command (on the loop's thread)."""
        if not self.done.is_set():
            self._run(lambda: self.match.local(command, time.monotonic()))

    async def _ticker(self) -> None:
        last = time.monotonic()
        while not self.done.is_set():
            await asyncio.sleep(self.timing.tick_s)
            now = time.monotonic()
            stood_still = now - last > STOOD_STILL_S
            if stood_still:  # this process did not run (a laptop's sleep): nobody's time, nor silence
                self.match.stood_still(last, now)
            last = now
            self._run(lambda now=now: self.match.tick(now))
            link = self.link
            if link is None or self.done.is_set():
                continue
            if stood_still:
                link.heard = now  # what came meanwhile waits unread in the socket: read it first
            if now - link.heard >= self.timing.silence_s:
                self._drop(link)
            elif now - link.pinged >= self.timing.heartbeat_s:
                link.pinged = now
                link.send("ping", {"t": int(now * 1000) & 0x7FFFFFFF})

    def _drop(self, link: _Link, flush: bool = False) -> None:
        """The link is gone (closed, silent, broken): if it was the match's, the match is told.
        `flush`: what was written (an error) still goes out before the close."""
        if flush:
            self._spawn(link.close())
        elif not link.closed:
            link.abort()
        if link is self.link:
            self.link = None
            self._apply(self.match.lost(time.monotonic()))
            self._lost()

    def _lost(self) -> None:
        """Hook: what a session does after its match's connection is lost."""

    async def _serve(self, link: _Link) -> None:
        """Read the match's link until it ends; pings are answered here, the rest is the match's."""
        while True:
            items = await link.receive()
            if items is None:
                break
            for item in items:
                if link is not self.link:
                    return
                self._handle(link, item)
            await link.drain()
        self._drop(link)

    def _handle(self, link: _Link, item: Message | ProtocolError) -> None:
        if isinstance(item, ProtocolError):
            link.send("error", _error_fields(item))
            if item.fatal:
                self._drop(link, flush=True)
            return
        if item.type == "ping":
            link.send("pong", {"t": item.data.get("t", 0)})
        elif item.type != "pong":
            self._run(lambda: self.match.receive(item, time.monotonic()), link)

    def _finish(self) -> None:
        self.done.set()

    async def close(self, reason: str = "") -> None:
        """Say bye if still talking (with `reason`: see match.Leave), then close everything;
        idempotent."""
        link = self.link
        if not self.done.is_set():
            self._apply(self.match.local(Leave(reason), time.monotonic()))
        self.done.set()
        self.link = None
        if link is not None:
            await link.close()  # the bye goes out before the socket closes
        await self._shutdown()
        for task in list(self.tasks):
            if task is not asyncio.current_task():
                task.cancel()

    async def _shutdown(self) -> None:
        """Hook: close what else the session holds."""


class HostSession(_Session):
    """Listens on `interface` (all when empty) and plays the match with one guest at a time."""

    def __init__(
        self,
        options: HostOptions,
        on_event: EventSink,
        interface: str = "",
        rng: random.Random | None = None,
        timing: Timing = Timing(),
    ) -> None:
        super().__init__(on_event, timing)
        self.options = options
        self.interface = interface
        self.match = HostMatch(options, rng)
        self.server: asyncio.Server | None = None
        self.port = 0
        self.pending: dict[_Link, None] = {}  # in the handshake, oldest first

    async def start(self) -> int:
        """Listen: the options' port, or any free one if it is taken (or 0). Emits Hosting and
        returns the port; raises OSError if no port can be opened (the bridge says Failed)."""
        host = self.interface or None
        try:
            self.server = await asyncio.start_server(self._accept, host, self.options.port or 0)
        except OSError:
            if self.options.port == 0:
                raise
            self.server = await asyncio.start_server(self._accept, host, 0)
        self.port = int(self.server.sockets[0].getsockname()[1])
        self._spawn(self._ticker())
        self.on_event(Hosting(self.interface or machine_address(), self.port))
        return self.port

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        link = _Link(reader, writer, self.options.size, self.timing.max_frames_per_s)
        if self.done.is_set():
            link.abort()
            return
        if len(self.pending) >= MAX_PENDING:
            # Full of connections that have said nothing: the oldest goes, not the newcomer,
            # so a few silent sockets cannot keep a real guest (whose hello comes at once) out.
            oldest = next(iter(self.pending))
            del self.pending[oldest]
            oldest.abort()
        self.pending[link] = None
        try:
            first = await self._read_hello(link)
        finally:
            self.pending.pop(link, None)
        if first is None or self.done.is_set():
            await link.close()
            return
        hello, after_hello = first
        now = time.monotonic()
        old = self.link
        if old is not None and self.match.token is not None and hello.data.get("session") == self.match.token:
            self._drop(old)  # the guest came back before we noticed it had gone
        step = self.match.hello(hello, now, link.peer)
        if step.close:
            self._apply(step, link)
            return
        self.link = link
        link.heard = link.pinged = now
        self._apply(step, link)
        for item in after_hello:  # frames that came in the hello's read are answered too
            if link is not self.link:
                return
            self._handle(link, item)
        await self._serve(link)

    async def _read_hello(self, link: _Link) -> tuple[Message, list[Message | ProtocolError]] | None:
        """The connection's first message if it is a hello in time, with what came after it in
        the same read (a peer may pipeline); else reply and give up."""

        async def first() -> tuple[Message, list[Message | ProtocolError]] | None:
            while True:
                items = await link.receive()
                if items is None:
                    return None
                for index, item in enumerate(items):  # the first message must be a valid hello
                    if isinstance(item, ProtocolError):
                        link.send("error", _error_fields(item))
                        if not item.fatal:
                            link.send("reject", {"reason": "bad_hello"})
                        return None
                    if item.type == "hello":
                        return item, items[index + 1 :]
                    link.send("reject", {"reason": "bad_hello"})
                    return None

        try:
            return await asyncio.wait_for(first(), self.timing.hello_timeout_s)
        except asyncio.TimeoutError:
            return None

    def _finish(self) -> None:
        super()._finish()
        if self.server is not None:
            self.server.close()

    async def _shutdown(self) -> None:
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.server.wait_closed(), 1.0)
        for link in list(self.pending):
            link.abort()


class GuestSession(_Session):
    """Connects to a host, says hello and plays; after a lost connection it retries with its
    session token every `retry_s` until the reconnect window closes."""

    def __init__(
        self,
        name: str,
        address: str,
        port: int,
        on_event: EventSink,
        session: str | None = None,
        timing: Timing = Timing(),
    ) -> None:
        super().__init__(on_event, timing)
        self.address = address
        self.port = port if port else DEFAULT_PORT
        self.match = GuestMatch(name, session)
        self._retry_now = asyncio.Event()
        self._retrying: asyncio.Task[Any] | None = None

    async def start(self) -> bool:
        """Connect and say hello: Connected, or Failed in plain words (and the session ends)."""
        self._spawn(self._ticker())
        error = await self._connect()
        if error is not None:
            self.on_event(Failed(error))
            await self._end()
        return not self.done.is_set()

    async def _connect(self) -> str | None:
        """One connection attempt through to the host's answer; plain words if it failed."""
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.address, self.port), self.timing.connect_timeout_s
            )
        except asyncio.TimeoutError:
            return "the host did not answer in time"
        except ConnectionRefusedError:
            return "nobody is hosting a game at that address and port"
        except socket.gaierror:
            return "that host name is not known on this network"
        except OSError:
            return "that address cannot be reached"
        link = _Link(reader, writer, 20, self.timing.max_frames_per_s)
        self._apply(self.match.hello(time.monotonic(), self.address, self.port), link)

        async def answer() -> str | None:
            while not (self.match.connected or self.match.finished):
                items = await link.receive()
                if items is None:
                    return "the host closed the connection"
                for item in items:  # all of them: a sync may come in the welcome's chunk
                    if isinstance(item, ProtocolError) and item.fatal:
                        return "the host's answer did not make sense"
                    self._handle(link, item)
                    if self.match.connected and self.link is None:
                        self.link = link  # at once: the player's commands may follow Connected
            return None

        try:
            error = await asyncio.wait_for(answer(), self.timing.connect_timeout_s)
        except asyncio.TimeoutError:
            error = "the host did not answer in time"
        if error is not None and self.link is link:  # welcomed, then broken: a lost connection
            self._drop(link)
            return None
        if error is not None or self.match.finished:  # rejected: the match told the player why
            await link.close()
            return error
        link.decoder.board_size = self.match.size
        link.heard = link.pinged = time.monotonic()
        self._spawn(self._serve(link))
        return None

    def reconnect(self) -> None:
        """Try to come back now (only while the connection is down)."""
        self._retry_now.set()

    def _lost(self) -> None:
        if not self.done.is_set() and (self._retrying is None or self._retrying.done()):
            self._retrying = self._spawn(self._retry())

    async def _retry(self) -> None:
        # The match's own reconnect window ends the session (its tick reports Closed).
        while not self.done.is_set() and self.link is None:
            self._retry_now.clear()
            error = await self._connect()
            if error is None or self.done.is_set():
                return
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._retry_now.wait(), self.timing.retry_s)

    async def _end(self) -> None:
        self.done.set()
        for task in list(self.tasks):
            if task is not asyncio.current_task():
                task.cancel()
