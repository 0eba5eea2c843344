"""The one network thread: an asyncio loop the UI talks to through queues (skeleton).

The UI-side methods below return at once: they only schedule work on the loop with
`call_soon_threadsafe`. The loop reports back as NetEvents on `events`, read once per frame.
"""

from __future__ import annotations

import queue

from gomoku.core.types import Point, Rule
from gomoku.net.events import HostOptions, NetEvent


class NetBridge:
    """Owns the event loop thread, the session (host or guest) and discovery."""

    def __init__(self, interface: str = "") -> None:
        self.interface = interface  # "" = all interfaces; "127.0.0.1" keeps everything on loopback
        self.events: queue.Queue[NetEvent] = queue.Queue()

    def start(self) -> None:
        """Start the thread and its loop (idempotent)."""
        raise NotImplementedError

    def close(self) -> None:
        """Say bye if connected, unregister, stop the loop and join the thread (<= 2 s)."""
        raise NotImplementedError

    # --- lobby ---------------------------------------------------------------------------
    def browse(self, on: bool) -> None:
        """Start or stop listing hosts: HostFound / HostLost events."""
        raise NotImplementedError

    def host(self, options: HostOptions) -> None:
        """Listen (and advertise): Hosting, then Connected when a guest's hello is accepted;
        Failed if the port cannot be opened."""
        raise NotImplementedError

    def join(self, address: str, port: int, name: str, session: str | None = None) -> None:
        """Connect (5 s timeout) and say hello: Connected or Failed (plain words)."""
        raise NotImplementedError

    def reconnect(self) -> None:
        """Guest: try to reconnect now (it also retries on its own for 3 minutes)."""
        raise NotImplementedError

    def leave(self) -> None:
        """Say bye, stop hosting/advertising or the connection; back to idle (Closed follows)."""
        raise NotImplementedError

    # --- in a session --------------------------------------------------------------------
    def ready(self, flag: bool) -> None:
        raise NotImplementedError

    def move(self, x: int, y: int) -> None:
        """Our move; it is on the board only when Moved(mine=True) comes back."""
        raise NotImplementedError

    def request(self, kind: str) -> None:
        """Ask the opponent for "undo" or "restart"; RequestAnswered follows."""
        raise NotImplementedError

    def reply(self, kind: str, accept: bool) -> None:
        raise NotImplementedError

    def resign(self) -> None:
        raise NotImplementedError

    def chat(self, text: str) -> None:
        raise NotImplementedError

    def load(self, moves: list[Point], rule: Rule) -> None:
        """Host only, between games: both sides become un-ready and see the position."""
        raise NotImplementedError
