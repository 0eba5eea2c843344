"""Quitting cleanly when the system asks: SIGTERM (a shutdown, `kill`) and SIGHUP (the terminal
the program was started from closed). Without this the process ended where it stood, with no
goodbye to a LAN opponent, who then waited 3 minutes for a reconnect."""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Any

QUIT_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def interrupt() -> None:
    """What Ctrl-C does: KeyboardInterrupt in the main thread."""
    raise KeyboardInterrupt


def quit_on_signals(quit_now: Callable[[], None]) -> None:
    """The first of QUIT_SIGNALS calls `quit_now()` (a clean quit, on the main thread); a second
    one stops at once, as Ctrl-C does. A signal the process was started ignoring stays ignored."""
    asked: list[int] = []

    def handler(signum: int, frame: Any) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(signum)
        quit_now()

    for number in QUIT_SIGNALS:
        if signal.getsignal(number) is not signal.SIG_IGN:  # `nohup` asked to ignore it: still ignored
            signal.signal(number, handler)
