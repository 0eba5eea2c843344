"""The one network thread: an asyncio loop the UI talks to through queues.

The UI-side methods below return at once: they only schedule work on the loop with
`call_soon_threadsafe`. The loop reports back as NetEvents on `events`, read once per frame.
Nothing in a UI-side method touches a socket; the session, the match and discovery live on the
loop's thread alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from gomoku.core.types import Point, Rule
from gomoku.net.discovery import Advertiser, Browser
from gomoku.net.events import (
    EVENTS_LIMIT,
    Advertised,
    Closed,
    Failed,
    GameOver,
    HostOptions,
    NetEvent,
    Notice,
    PositionSet,
)
from gomoku.net.match import Chat, Command, Load, Move, Ready, Reply, Request, Resign
from gomoku.net.session import GuestSession, HostSession, Timing

CLOSE_S = 2.0  # close() returns within this, whatever the network does


class NetBridge:
    """Owns the event loop thread, the session (host or guest) and discovery.

    `timing` shortens the session's time limits (tests); the defaults are the contract's.
    Thread-safety: every public method may be called from the UI thread; `events` is a
    bounded queue (EVENTS_LIMIT): past it, events are dropped rather than memory grown.
    """

    def __init__(self, interface: str = "", timing: Timing | None = None) -> None:
        self.interface = interface  # "" = all interfaces; "127.0.0.1" keeps everything on loopback
        self.events: queue.Queue[NetEvent] = queue.Queue(maxsize=EVENTS_LIMIT)
        self.timing = timing if timing is not None else Timing()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._started = threading.Event()
        self._lock = threading.Lock()
        # Loop-side state (touched only on the loop's thread):
        self._session: HostSession | GuestSession | None = None
        self._advertiser: Advertiser | None = None
        self._browser: Browser | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- the thread ----------------------------------------------------------------------

    def start(self) -> None:
        """Start the thread and its loop (idempotent)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="gomoku-net", daemon=True)
                self._thread.start()
        self._started.wait(CLOSE_S)  # every caller: commands need the loop to exist

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self._started.set()
        await self._stop.wait()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._teardown(), CLOSE_S * 0.75)

    def close(self) -> None:
        """Say bye if connected, unregister, stop the loop and join the thread (<= 2 s)."""
        thread, loop, stop = self._thread, self._loop, self._stop
        if thread is None or loop is None or stop is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop already ended
            loop.call_soon_threadsafe(stop.set)
        thread.join(CLOSE_S)

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run fn(*args) on the loop's thread, soon; never blocks."""
        self.start()
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # closed: nothing to do any more
                self._loop.call_soon_threadsafe(fn, *args)

    def _spawn(self, make: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        """Run a coroutine on the loop (call from the loop's thread)."""
        task = asyncio.get_running_loop().create_task(make())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _post(self, make: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        """Start a coroutine on the loop from any thread."""
        self._call(self._spawn, make)

    def _put(self, event: NetEvent) -> None:
        """A session's event: to the UI, and to the advertiser (open / playing)."""
        with contextlib.suppress(queue.Full):  # a UI that stopped reading loses events, not memory
            self.events.put_nowait(event)
        if self._advertiser is not None:
            state = None
            if isinstance(event, Closed):  # the host's session ended by itself: withdraw
                advertiser = self._disown()
                self._spawn(lambda: self._withdraw(advertiser))
            elif isinstance(event, PositionSet):
                state = "playing" if event.state == "playing" else "open"
            elif isinstance(event, GameOver):
                state = "open"
            if state is not None:
                advertiser = self._advertiser
                self._spawn(lambda: self._quietly(advertiser.update(state)))

    async def _quietly(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Discovery is a convenience: its failures never end a session."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(coro, CLOSE_S)

    async def _teardown(self) -> None:
        await self._end_session()
        if self._browser is not None:
            browser, self._browser = self._browser, None
            await self._quietly(browser.stop())

    async def _end_session(self, reason: str = "") -> None:
        session, self._session = self._session, None
        if session is not None:
            await session.close(reason)
        if self._advertiser is not None:
            await self._withdraw(self._disown())

    def _disown(self) -> Advertiser:
        """Take the advertiser away to withdraw it; the UI forgets its key at once, so this
        Advertised(None) always comes before a newer game's Advertised(key)."""
        advertiser, self._advertiser = self._advertiser, None
        assert advertiser is not None
        self._put(Advertised(None))
        return advertiser

    async def _withdraw(self, advertiser: Advertiser) -> None:
        await self._quietly(advertiser.unregister())
        await self._quietly(advertiser.close())  # frees zeroconf's sockets

    # --- lobby ---------------------------------------------------------------------------

    def browse(self, on: bool) -> None:
        """Start or stop listing hosts: HostFound / HostLost events."""
        self._post(lambda: self._browse(on))

    async def _browse(self, on: bool) -> None:
        if on and self._browser is None:
            browser = Browser(self.interface, self._put)
            try:
                await asyncio.wait_for(browser.start(), CLOSE_S * 2)
            except Exception:  # zeroconf's many failures all mean the same here
                await self._quietly(browser.stop())
                self._put(Notice("games on the network cannot be listed here; "
                                 "type the host's address instead", error=True))
                return
            self._browser = browser
        elif not on and self._browser is not None:
            browser, self._browser = self._browser, None
            await self._quietly(browser.stop())

    def host(self, options: HostOptions) -> None:
        """Listen (and advertise): Hosting, then Connected when a guest's hello is accepted;
        Failed if the port cannot be opened."""
        self._post(lambda: self._host(options))

    async def _host(self, options: HostOptions) -> None:
        await self._end_session()
        session = HostSession(options, self._put, self.interface, timing=self.timing)
        try:
            port = await session.start()
        except OSError as error:
            self._put(Failed(f"cannot listen for a guest: {error.strerror or error}"))
            return
        self._session = session
        if options.advertise:
            await self._advertise(options, port, session)

    async def _advertise(self, options: HostOptions, port: int, session: HostSession) -> None:
        advertiser = Advertiser(self.interface)
        try:
            await asyncio.wait_for(advertiser.register(options, port), CLOSE_S * 2)
        except Exception:  # zeroconf's many failures all mean the same here
            await self._withdraw(advertiser)
            self._put(Notice("this game could not be announced on the network; "
                             "the guest can still type the address"))
            return
        if self._session is not session or session.done.is_set():  # it ended meanwhile
            await self._withdraw(advertiser)
            return
        self._advertiser = advertiser
        self._put(Advertised(advertiser.key))  # the UI leaves our own game out of its list

    def join(self, address: str, port: int, name: str, session: str | None = None) -> None:
        """Connect (5 s timeout) and say hello: Connected or Failed (plain words)."""
        self._post(lambda: self._join(address, port, name, session))

    async def _join(self, address: str, port: int, name: str, token: str | None) -> None:
        await self._end_session()
        session = GuestSession(name, address, port, self._put, token, timing=self.timing)
        self._session = session
        await session.start()

    def reconnect(self) -> None:
        """Guest: try to reconnect now (it also retries on its own for 3 minutes)."""
        self._call(self._reconnect)

    def _reconnect(self) -> None:
        if isinstance(self._session, GuestSession):
            self._session.reconnect()

    def leave(self, reason: str = "") -> None:
        """Say bye, stop hosting/advertising or the connection; back to idle (Closed follows).
        A host's `reason` sends an idle guest away (see match.Leave)."""
        self._post(lambda: self._end_session(reason))

    # --- in a session --------------------------------------------------------------------

    def _command(self, command: Command) -> None:
        if self._session is not None:
            self._session.command(command)

    def ready(self, flag: bool) -> None:
        self._call(self._command, Ready(flag))

    def move(self, x: int, y: int) -> None:
        """Our move; it is on the board only when Moved(mine=True) comes back."""
        self._call(self._command, Move(x, y))

    def request(self, kind: str) -> None:
        """Ask the opponent for "undo" or "restart"; RequestAnswered follows."""
        self._call(self._command, Request(kind))

    def reply(self, kind: str, accept: bool) -> None:
        self._call(self._command, Reply(kind, accept))

    def resign(self) -> None:
        self._call(self._command, Resign())

    def chat(self, text: str) -> None:
        self._call(self._command, Chat(text))

    def load(self, moves: list[Point], rule: Rule) -> None:
        """Host only, between games: both sides become un-ready and see the position."""
        self._call(self._command, Load(tuple(moves), rule))
