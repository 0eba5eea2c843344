"""A NetBridge in a test, with every event it reported kept and read in order (for the
tests that run real sockets on 127.0.0.1)."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import Any

from gomoku.net.bridge import NetBridge
from gomoku.net.events import NetEvent
from gomoku.net.session import Timing

FAST = Timing(heartbeat_s=0.2, silence_s=3.0, hello_timeout_s=1.0, connect_timeout_s=3.0,
              retry_s=0.2, tick_s=0.05)
WAIT_S = 10.0  # an upper bound for anything to arrive


class Side:
    """A NetBridge and everything it reported, read in order."""

    def __init__(self, timing: Timing = FAST) -> None:
        self.bridge = NetBridge("127.0.0.1", timing)
        self.log: list[NetEvent] = []
        self.cursor = 0

    def wait(self, kind: type, where: Callable[[Any], bool] = lambda e: True, timeout: float = WAIT_S) -> Any:
        """The next event of `kind` (after the last one waited for) that satisfies `where`."""
        end = time.monotonic() + timeout
        while True:
            for index in range(self.cursor, len(self.log)):
                event = self.log[index]
                if isinstance(event, kind) and where(event):
                    self.cursor = index + 1
                    return event
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind.__name__} within {timeout} s; saw {self.log[self.cursor:]}")
            try:
                self.log.append(self.bridge.events.get(timeout=min(left, 0.1)))
            except queue.Empty:
                pass

    def drain(self, seconds: float) -> list[NetEvent]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self.log.append(self.bridge.events.get(timeout=0.05))
            except queue.Empty:
                pass
        return self.log[self.cursor:]
