"""The engine worker: one daemon thread that runs searches for the UI, results on a queue.

The UI thread never waits on it: every public method returns within a few milliseconds
(except `close`, which joins for at most `timeout` seconds). Searches run on a private
copy of the position; results come back tagged with the request id so the UI can drop
anything that is no longer its current request.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from gomoku.engine import driver
from gomoku.engine.api import Level, Position, Progress, SearchLimit, SearchResult, StopFlag

log = logging.getLogger(__name__)

ThinkFunction = Callable[..., SearchResult]
"""The shape of `driver.think(position, level, limit, stop=..., on_progress=...)`."""

WorkerMessage = tuple[int, Progress | SearchResult | BaseException]
"""What `EngineWorker.results` carries: (request id, progress, final result or the error)."""


@dataclass(frozen=True)
class _Request:
    request_id: int
    position: Position
    level: Level
    limit: SearchLimit
    stop: StopFlag


_WARM_UP = "warm-up"
_NEW_GAME = "new game"
_QUIT = "quit"


class EngineWorker:
    """Runs `driver.think` on one daemon thread; see the module docstring for the contract.

    Thread-safety: call the public methods from one thread (the UI's); `results` is read
    by that thread too, with `get_nowait` once per frame.
    """

    def __init__(
        self,
        think: ThinkFunction = driver.think,
        warm_up: Callable[[], None] = driver.warm_up,
        new_game: Callable[[], None] = driver.new_game,
        name: str = "engine-worker",
    ) -> None:
        self.results: queue.Queue[WorkerMessage] = queue.Queue()
        self.warm_up_error: BaseException | None = None
        """Set if warming up failed; searches are still attempted and report their own errors."""
        self._think = think
        self._warm_up = warm_up
        self._new_game = new_game
        self._inbox: queue.Queue[_Request | str] = queue.Queue()  # searches and chores, in order
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._pending: dict[int, _Request] = {}  # queued or running, by id
        self._latest_id = 0
        self._ready = threading.Event()
        self._warm_up_requested = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # --- the UI side ------------------------------------------------------------------

    def warm_up(self) -> None:
        """Start compiling/loading the engine in the background; returns at once."""
        if self._warm_up_requested or self._closed:
            return
        self._warm_up_requested = True
        self._inbox.put(_WARM_UP)

    def new_game(self) -> None:
        """Forget what earlier searches learnt (hash tables live on the worker thread); at once."""
        if not self._closed:
            self._inbox.put(_NEW_GAME)

    @property
    def ready(self) -> bool:
        """True once the warm-up has finished (successfully or not)."""
        return self._ready.is_set()

    @property
    def busy(self) -> bool:
        """True while a search is queued or running."""
        with self._lock:
            return bool(self._pending)

    def start(self, position: Position, level: Level, limit: SearchLimit) -> int:
        """Queue a search and return its request id at once; stops any search still running.

        Raises RuntimeError after `close`.
        """
        if self._closed:
            raise RuntimeError("the engine worker is closed")
        self.stop()
        # A private grid, so nothing the caller does to its array reaches the search.
        private = dataclasses.replace(position, grid=position.grid.copy())
        request = _Request(next(self._ids), private, level, limit, StopFlag())
        with self._lock:
            self._pending[request.request_id] = request
            self._latest_id = request.request_id
        self._inbox.put(request)
        return request.request_id

    def stop(self) -> None:
        """Ask every queued or running search to return its best move so far."""
        with self._lock:
            for request in self._pending.values():
                request.stop.set()

    def close(self, timeout: float = 0.5) -> bool:
        """Stop searching and end the thread; True if it ended within `timeout` seconds."""
        self._closed = True
        self.stop()
        self._inbox.put(_QUIT)
        self._thread.join(timeout)
        return not self._thread.is_alive()

    # --- the worker thread -------------------------------------------------------------

    def _run(self) -> None:
        while True:
            job = self._inbox.get()
            if isinstance(job, _Request):
                self._do_search(job)
            elif job == _WARM_UP:
                self._do_warm_up()
            elif job == _NEW_GAME:
                self._forget()
            elif job == _QUIT:
                return

    def _do_warm_up(self) -> None:
        try:
            self._warm_up()
        except Exception as error:  # reported through `warm_up_error`, never raised in the UI
            self.warm_up_error = error
        finally:
            self._ready.set()

    def _forget(self) -> None:
        try:
            self._new_game()
        except Exception:  # only a cache reset: searches still work without it
            log.exception("the engine could not forget the last game")

    def _do_search(self, request: _Request) -> None:
        request_id = request.request_id
        with self._lock:
            superseded = request_id != self._latest_id
        if superseded:  # a newer request is queued behind it: the UI would drop this result
            with self._lock:
                self._pending.pop(request_id, None)
            return

        def report_progress(progress: Progress) -> None:
            self.results.put((request_id, progress))

        try:
            result = self._think(
                request.position,
                request.level,
                request.limit,
                stop=request.stop,
                on_progress=report_progress,
            )
            self.results.put((request_id, result))
        except Exception as error:  # the UI shows a plain message for it
            self.results.put((request_id, error))
        finally:
            with self._lock:
                self._pending.pop(request_id, None)
